/* big: one library alone in a process, 4 calls of cblas_dgemm (SP=1: cblas_sgemm) of n^3, GFLOPS of each. gcc -O2 big.c -o big -ldl; ./big libgemmkit.so 3072 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <dlfcn.h>
typedef void (*cs_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
typedef void (*cd_fn)(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){void*h=dlopen(argv[1],RTLD_NOW);cd_fn f=(cd_fn)dlsym(h,"cblas_dgemm");int n=atoi(argv[2]);
double*a=malloc(8L*n*n),*b=malloc(8L*n*n),*c=malloc(8L*n*n);for(long i=0;i<(long)n*n;i++){a[i]=rand()/(double)RAND_MAX;b[i]=a[i];c[i]=0;}
int sp=getenv("SP")!=NULL;cs_fn fs=(cs_fn)dlsym(h,"cblas_sgemm");float*sa=malloc(4L*n*n),*sb=malloc(4L*n*n),*sc=malloc(4L*n*n);for(long i=0;i<(long)n*n;i++){sa[i]=a[i];sb[i]=b[i];sc[i]=0;}
printf("%s %s n=%d:", argv[1], sp?"s":"d", n);for(int r=0;r<4;r++){double t0=now();if(sp)fs(101,111,111,n,n,n,1,sa,n,sb,n,0,sc,n);else f(101,111,111,n,n,n,1,a,n,b,n,0,c,n);double t=now()-t0;printf(" %.1f",2.0*n*n*n/t/1e9);}printf("\n");}
