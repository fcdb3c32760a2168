#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef void (*cs_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
typedef void (*cd_fn)(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int c,char**v){void*h=dlopen(v[1],RTLD_NOW);int dp=v[2][0]=='d';int n=atoi(v[3]);double secs=atof(v[4]);
cs_fn fs=(cs_fn)dlsym(h,"cblas_sgemm");cd_fn fd=(cd_fn)dlsym(h,"cblas_dgemm");
double*a=malloc(8L*n*n),*b=malloc(8L*n*n),*cc=malloc(8L*n*n);for(long i=0;i<(long)n*n;i++){if(dp){a[i]=drand48()-.5;b[i]=drand48()-.5;}else{((float*)a)[i]=drand48()-.5;((float*)b)[i]=drand48()-.5;}}
/* warm 0.2 s */ double t0=now(); long calls=0; int phase=0; double tstart=0;
for(;;){ if(dp) fd(101,111,111,n,n,n,1.0,a,n,b,n,0.0,cc,n); else fs(101,111,111,n,n,n,1.0f,(float*)a,n,(float*)b,n,0.0f,(float*)cc,n);
 double t=now(); if(!phase && t-t0>0.3){phase=1;tstart=t;calls=0;continue;} if(phase){calls++; if(t-tstart>secs)break;}}
printf("%s %d: %.1f GFLOPS (mean over %ld calls)\n",dp?"d":"s",n,2.0*n*n*n*calls/(now()-tstart)*1e-9,calls);}
