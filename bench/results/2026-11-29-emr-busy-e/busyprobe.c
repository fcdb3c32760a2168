/* busyprobe lib s|d n idle_s busy_s: calls cblas_?gemm n^3 on an idle
 * machine for idle_s (the library learns there), then starts a spinning
 * child process and reports the GFLOPS of the calls made in the next busy_s,
 * in quarters. */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
typedef void (*cs_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
typedef void (*cd_fn)(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int c,char**v){void*h=dlopen(v[1],RTLD_NOW);int dp=v[2][0]=='d';int n=atoi(v[3]);double idle=atof(v[4]),busy=atof(v[5]);
cs_fn fs=(cs_fn)dlsym(h,"cblas_sgemm");cd_fn fd=(cd_fn)dlsym(h,"cblas_dgemm");
double*a=malloc(8L*n*n),*b=malloc(8L*n*n),*cc=malloc(8L*n*n);for(long i=0;i<(long)n*n;i++){if(dp){a[i]=drand48()-.5;b[i]=drand48()-.5;}else{((float*)a)[i]=drand48()-.5;((float*)b)[i]=drand48()-.5;}}
#define CALL do{ if(dp) fd(101,111,111,n,n,n,1.0,a,n,b,n,0.0,cc,n); else fs(101,111,111,n,n,n,1.0f,(float*)a,n,(float*)b,n,0.0f,(float*)cc,n);}while(0)
double t0=now(); while(now()-t0<idle) CALL;
pid_t pid=fork(); if(pid==0){ volatile unsigned long x=0; for(;;) x++; }
double ts=now(); double q=busy/4; long calls[4]={0};
for(;;){ CALL; double t=now()-ts; if(t>=busy)break; calls[(int)(t/q)]++; }
kill(pid,SIGKILL); waitpid(pid,NULL,0);
printf("%s %d:",dp?"d":"s",n); for(int i=0;i<4;i++) printf(" %.1f",2.0*n*n*n*calls[i]/q*1e-9); printf(" GFLOPS per quarter of %.2f s\n",busy);}
