/* gfone LIB m k len calls: GB/s of data (k x len x calls / time) of gk_gf256_gemm_rows of one library, in a process of its own: the median of 9 timings of `calls` calls after as many untimed. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
typedef int (*fn)(int64_t,int64_t,int64_t,const uint8_t*,int64_t,const uint8_t*const*,uint8_t*const*);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){void*h=dlopen(argv[1],RTLD_NOW|RTLD_LOCAL);fn f=(fn)dlsym(h,"gk_gf256_gemm_rows");
 int m=atoi(argv[2]),k=atoi(argv[3]);long len=atol(argv[4]);int calls=atoi(argv[5]),R=9;
 uint8_t a[64*64]; for(int i=0;i<m*k;i++)a[i]=rand()%255+1;
 uint8_t*in[64],*out[64]; for(int j=0;j<k;j++){in[j]=(uint8_t*)aligned_alloc(64,len+4096)+64*(j+1);for(long i=0;i<len;i++)in[j][i]=rand();}
 for(int r=0;r<m;r++)out[r]=(uint8_t*)aligned_alloc(64,len+4096)+64*(k+r+1);
 double t[64]; for(int c=0;c<calls;c++)f(m,len,k,a,k,(const uint8_t*const*)in,out);
 for(int q=0;q<R;q++){double t0=now();for(int c=0;c<calls;c++)f(m,len,k,a,k,(const uint8_t*const*)in,out);t[q]=now()-t0;}
 qsort(t,R,sizeof(double),cmp); printf("%.2f",(double)k*len*calls/t[R/2]/1e9); return 0;}
