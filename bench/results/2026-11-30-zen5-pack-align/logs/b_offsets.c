#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gemmkit.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*x,const void*y){double a=*(double*)x,b=*(double*)y;return a<b?-1:a>b;}
int main(int c,char**v){ long m=atol(v[1]),n=atol(v[2]),k=atol(v[3]); int nv=c-4; size_t off[8]; for(int i=0;i<nv;i++) off[i]=atol(v[4+i]);
 float*A; posix_memalign((void**)&A,4096,m*k*4); float*C; posix_memalign((void**)&C,4096,m*n*4+4096);
 float*B[8]; for(int i=0;i<nv;i++){ char*b; posix_memalign((void**)&b,4096,k*n*4+8192); B[i]=(float*)(b+off[i]); for(long j=0;j<k*n;j++)B[i][j]=(float)((j*7)%13)/13.f;}
 for(long j=0;j<m*k;j++)A[j]=(float)((j*5)%11)/11.f;
 enum{R=25}; double t[8][R];
 for(int r=0;r<R;r++) for(int i0=0;i0<nv;i0++){ int i=(i0+r)%nv; double t0=now(); gk_sgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n,k,1,A,k,B[i],n,0,C,n); t[i][r]=now()-t0; }
 for(int i=0;i<nv;i++){ qsort(t[i],R,8,cmp); printf("B offset %zu: %.1f GFLOPS\n",off[i],2.0*m*n*k/t[i][R/2]*1e-9);} }
