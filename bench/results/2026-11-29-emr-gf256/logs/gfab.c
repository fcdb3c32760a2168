/* gfab.c libA libB m k len calls rounds: gk_gf256_gemm_rows of two builds in one process,
 * alternated round by round; GB/s of data, median of per-round ratios B/A (above 1: B faster) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
typedef int (*fn)(int64_t,int64_t,int64_t,const uint8_t*,int64_t,const uint8_t*const*,uint8_t*const*);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){fn f[2];for(int i=0;i<2;i++){void*h=dlopen(argv[1+i],RTLD_NOW|RTLD_LOCAL|RTLD_DEEPBIND);if(!h){puts(dlerror());return 1;}f[i]=(fn)dlsym(h,"gk_gf256_gemm_rows");}
 int m=atoi(argv[3]),k=atoi(argv[4]);long len=atol(argv[5]);int calls=atoi(argv[6]),R=atoi(argv[7]);
 uint8_t a[64*64]; for(int i=0;i<m*k;i++)a[i]=rand()%255+1;
 uint8_t*in[64],*out[64]; for(int j=0;j<k;j++){in[j]=(uint8_t*)aligned_alloc(64,len+4096)+64*(j+1);for(long i=0;i<len;i++)in[j][i]=rand();}
 for(int r=0;r<m;r++)out[r]=(uint8_t*)aligned_alloc(64,len+4096)+64*(k+r+1);
 double t[2][64],r[64];
 for(int i=0;i<2;i++)f[i](m,len,k,a,k,(const uint8_t*const*)in,out);
 for(int q=0;q<R;q++)for(int o=0;o<2;o++){int i=(q+o)%2;double t0=now();for(int c=0;c<calls;c++)f[i](m,len,k,a,k,(const uint8_t*const*)in,out);t[i][q]=now()-t0;}
 for(int q=0;q<R;q++)r[q]=t[0][q]/t[1][q];
 double g[2];for(int i=0;i<2;i++){qsort(t[i],R,sizeof(double),cmp);g[i]=(double)k*len*calls/t[i][R/2]/1e9;}
 qsort(r,R,sizeof(double),cmp);
 printf("%d+%d len %ld: A %.2f GB/s  B %.2f GB/s  B/A median of per-round ratios %.3f\n",k,m,len,g[0],g[1],r[R/2]);}
