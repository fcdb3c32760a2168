#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <gemmkit_cblas.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){ int n=atoi(argv[1]), w=atoi(argv[2]); int reps=atoi(argv[3]);
 int dp=argc>4&&argv[4][0]=='d'; float *a,*b,*c; posix_memalign((void**)&a,64,8L*n*n); posix_memalign((void**)&b,64,8L*n*n); posix_memalign((void**)&c,64,8L*n*n); double *ad=(double*)a,*bd=(double*)b,*cd=(double*)c;
 for(long i=0;i<(long)n*n;i++){a[i]=drand48()-.5;b[i]=drand48()-.5;ad[i]=drand48()-.5;bd[i]=drand48()-.5;}
 double tw[51], ts[51];
 for(int r=0;r<51;r++){
  double t0=now(); for(int i=0;i<reps;i++) if(dp) cblas_dgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1.0,ad,n,bd,n,0.0,cd,n); else cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1.0f,a,n,b,n,0.0f,c,n); tw[r]=(now()-t0)/reps;
  t0=now(); for(int i=0;i<reps;i++){ if(dp){cblas_dgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,w,n,1.0,ad,n,bd,n,0.0,cd,n); cblas_dgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n-w,n,1.0,ad,n,bd+w,n,0.0,cd+w,n);} else {cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,w,n,1.0f,a,n,b,n,0.0f,c,n); cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n-w,n,1.0f,a,n,b+w,n,0.0f,c+w,n);}} ts[r]=(now()-t0)/reps; }
 int cmp(const void*x,const void*y){double p=*(double*)x,q=*(double*)y;return p<q?-1:p>q;}
 double rr[51]; for(int r=0;r<51;r++) rr[r]=tw[r]/ts[r]; qsort(rr,51,8,cmp); qsort(tw,51,8,cmp); qsort(ts,51,8,cmp);
 printf("n=%d split %d+%d: whole %.1f GFLOPS, split %.1f GFLOPS, whole/split time ratio median %.3f\n",n,w,n-w,2.0*n*n*n/tw[25]*1e-9,2.0*n*n*n/ts[25]*1e-9,rr[25]);}
