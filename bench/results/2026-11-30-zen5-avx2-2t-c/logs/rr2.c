/* round robin over (env setting, B offset) configs in one process; config "VAR=val@off" or "@off" */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gemmkit.h"
static double now(void){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*x,const void*y){double a=*(double*)x,b=*(double*)y;return a<b?-1:a>b;}
static char*var[16],*val[16]; static long ob[16];
static void apply(int j,int nc){ for(int q=0;q<nc;q++) if(var[q]) unsetenv(var[q]); if(var[j]) setenv(var[j],val[j],1); }
int main(int c,char**v){ long m=atol(v[1]),n=atol(v[2]),k=atol(v[3]); int reps=atoi(v[4]); int nc=c-5;
 for(int i=0;i<nc;i++){ char*s=strdup(v[5+i]); char*at=strchr(s,'@'); *at=0; ob[i]=atol(at+1); char*eq=strchr(s,'='); if(eq){*eq=0; var[i]=s; val[i]=eq+1;} else var[i]=NULL; }
 char*a_,*b0,*b1,*c_; posix_memalign((void**)&a_,4096,m*k*4+4096); posix_memalign((void**)&b0,4096,k*n*4+4096); posix_memalign((void**)&b1,4096,k*n*4+4096); posix_memalign((void**)&c_,4096,m*n*4+4096);
 float*A=(float*)a_,*C=(float*)c_; for(long i=0;i<m*k;i++)A[i]=(float)rand()/RAND_MAX*2-1;
 float*Bs[16]; for(int i=0;i<nc;i++) Bs[i]=(float*)((ob[i]==0?b0:b1)+ob[i]);
 for(long i=0;i<k*n;i++){ float x=(float)rand()/RAND_MAX*2-1; for(int j=0;j<nc;j++) Bs[j][i]=x; }
 static double t[16][4000], r[16][4000];
 for(int w=0;w<3;w++) for(int j=0;j<nc;j++){ apply(j,nc); gk_sgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n,k,1,A,k,Bs[j],n,0,C,n);}
 for(int i=0;i<reps;i++) for(int jj=0;jj<nc;jj++){ int j=(jj+i)%nc; apply(j,nc);
   double t0=now(); gk_sgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n,k,1,A,k,Bs[j],n,0,C,n); t[j][i]=now()-t0; }
 for(int j=0;j<nc;j++){ for(int i=0;i<reps;i++) r[j][i]=t[0][i]/t[j][i]; qsort(r[j],reps,8,cmp); qsort(t[j],reps,8,cmp);
   printf("  %s=%s B+%ld: %.1f GFLOPS, speed vs first %.3f\n", var[j]?var[j]:"-", var[j]?val[j]:"", ob[j], 2.0*m*n*k/t[j][reps/2]/1e9, r[j][reps/2]); } }
