/* one: a run of calls of one size on one library: GFLOPS per round of 5000 calls and the least call time. gcc -O2 one.c -o one -ldl; [DT=1 for DGEMM] ./one libgemmkit.so N */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <dlfcn.h>
typedef int (*sg_fn)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t, const float *, int64_t, float, float *, int64_t);
typedef int (*dg_fn)(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t, const double *, int64_t, double, double *, int64_t);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){void*h=dlopen(argv[1],RTLD_NOW);sg_fn f=(sg_fn)dlsym(h,"gk_sgemm");int n=atoi(argv[2]);
float*a=malloc(4*n*n),*b=malloc(4*n*n),*c=malloc(4*n*n);for(int i=0;i<n*n;i++){a[i]=rand()/(float)RAND_MAX;b[i]=a[i];}
const char*dt=getenv("DT");if(dt&&!*dt)dt=NULL;dg_fn g=(dg_fn)dlsym(h,"gk_dgemm");double*da=malloc(8*n*n),*db=malloc(8*n*n),*dc=malloc(8*n*n);for(int i=0;i<n*n;i++){da[i]=a[i];db[i]=b[i];}
for(int r=0;r<6;r++){double t0=now(),mn=1;for(int i=0;i<5000;i++){double t1=now();if(dt)g(101,111,111,n,n,n,1,da,n,db,n,0,dc,n);else f(101,111,111,n,n,n,1,a,n,b,n,0,c,n);double d=now()-t1;if(d<mn)mn=d;}double t=now()-t0;
printf("round %d: mean %.2f us (%.1f GFLOPS), min %.2f us\n",r,t/5000*1e6,2.0*n*n*n*5000/t/1e9,mn*1e6);}}
