#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef int (*gf_fn)(int64_t, int64_t, int64_t, const uint8_t *, int64_t, const uint8_t *, int64_t, uint8_t *, int64_t);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int c,char**v){void*h=dlopen(v[1],RTLD_NOW);gf_fn f=(gf_fn)dlsym(h,"gk_gf256_gemm");int64_t m=atoll(v[2]),k=atoll(v[3]),n=atoll(v[4]);double secs=atof(v[5]);
uint8_t*a=malloc(m*k),*b=malloc(k*n),*cc=malloc(m*n);for(int64_t i=0;i<m*k;i++)a[i]=rand();for(int64_t i=0;i<k*n;i++)b[i]=rand();
double t0=now();long calls=0;int ph=0;double ts=0;for(;;){f(m,n,k,a,k,b,n,cc,n);double t=now();if(!ph&&t-t0>0.3){ph=1;ts=t;calls=0;continue;}if(ph){calls++;if(t-ts>secs)break;}}
printf("%ldx%ldx%ld: %.2f GB/s of data (mean over %ld calls)\n",(long)m,(long)k,(long)n,(double)k*n*calls/(now()-ts)*1e-9,calls);}
