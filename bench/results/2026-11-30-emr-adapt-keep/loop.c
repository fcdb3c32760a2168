#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "gemmkit_cblas.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){ int n=atoi(argv[1]); int dp=argv[2][0]=='d'; double secs=atof(argv[3]); int off=argc>4?atoi(argv[4]):0;
 char *pa,*pb,*pc; posix_memalign((void**)&pa,64,8L*n*n+64); posix_memalign((void**)&pb,64,8L*n*n+64); posix_memalign((void**)&pc,64,8L*n*n+64);
 double*a=(double*)(pa+off),*b=(double*)(pb+off),*c=(double*)(pc+off);
 for(long i=0;i<(long)n*n;i++){ if(dp){a[i]=drand48()-.5;b[i]=drand48()-.5;} else {((float*)a)[i]=drand48()-.5;((float*)b)[i]=drand48()-.5;}}
 long calls=0; double t0=now();
 while(now()-t0<secs){ for(int i=0;i<1000;i++){ if(dp) cblas_dgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1.0,a,n,b,n,0.0,c,n); else cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1.0f,(float*)a,n,(float*)b,n,0.0f,(float*)c,n);} calls+=1000;}
 double t=now()-t0; printf("%c %d: %.1f GFLOPS\n",dp?'d':'s',n,2.0*n*n*n*calls/t*1e-9); }
