#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef int (*obk_d)(long, long, long, double, double *, double *, double *, long);
void gk_gemm_pf_f64_avx2_6x8(int64_t, double, const double *, const double *, double, double *, int64_t, const void *const *, int64_t);
void k412(int64_t k, const double *a, const double *b, double *c, int64_t rs_c, const void *const *pf, int64_t npf);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
static void walk(int mr,int nr,long mg,long kg,long n,char*A,char*B,char*C){
  for(long j=0;j+nr<=n;j+=nr){ long na=mg/mr, lines=kg*nr*8/64, q=0; const char*nb=B+(j+nr)*kg*8;
   for(long i=0,ia=0;i+mr<=mg;i+=mr,ia++){ const void*pf[512]; long np=0;
     if(j+nr<n){ long upto=lines*(ia+1)/na; while(q<upto&&np<512) pf[np++]=nb+64*(q++);}
     if(mr==6) gk_gemm_pf_f64_avx2_6x8(kg,1.0,(double*)A+i*kg,(double*)B+j*kg,1.0,(double*)C+i*n+j,n,pf,np);
     else k412(kg,(double*)A+i*kg,(double*)B+j*kg,(double*)C+i*n+j,n,pf,np);}}
}
int main(int argc,char**argv){
  long mo=atol(argv[1]),ko=atol(argv[2]),m6=atol(argv[3]),k6=atol(argv[4]),m4=atol(argv[5]),k4=atol(argv[6]),n=atol(argv[7]); int R=atoi(argv[8]);
  void*h=dlopen("/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so",RTLD_NOW);
  obk_d od=(obk_d)dlsym(h,"dgemm_kernel_HASWELL");
  long mmax=1024,kmax=512;
  char*A=aligned_alloc(64,(mmax+16)*kmax*8+4096),*B=aligned_alloc(64,(n+16)*kmax*8+4096),*C=aligned_alloc(64,(mmax+16)*(n+16)*8);
  for(size_t i=0;i<(mmax+16)*kmax;i++) ((double*)A)[i]=drand48()-.5;
  for(size_t i=0;i<(n+16)*kmax;i++) ((double*)B)[i]=drand48()-.5;
  memset(C,0,(mmax+16)*(n+16)*8);
  double *to=malloc(R*8),*t6=malloc(R*8),*t4=malloc(R*8),*r6=malloc(R*8),*r4=malloc(R*8);
  for(int r=-3;r<R;r++){
    double t0=now(); od(mo,n,ko,1.0,(double*)A,(double*)B,(double*)C,mo);
    double t1=now(); walk(6,8,m6,k6,n,A,B,C);
    double t2=now(); walk(4,12,m4,k4,n,A,B,C);
    double t3=now();
    if(r>=0){to[r]=2.0*mo*n*ko/(t1-t0)*1e-9; t6[r]=2.0*(m6/6*6)*(n/8*8)*k6/(t2-t1)*1e-9; t4[r]=2.0*(m4/4*4)*(n/12*12)*k4/(t3-t2)*1e-9; r6[r]=t6[r]/to[r]; r4[r]=t4[r]/to[r];}
  }
  qsort(to,R,8,cmp);qsort(t6,R,8,cmp);qsort(t4,R,8,cmp);qsort(r6,R,8,cmp);qsort(r4,R,8,cmp);
  printf("OB %ldx%ld %.1f | 6x8 %ldx%ld %.1f (%.3f) | 4x12 %ldx%ld %.1f (%.3f)\n",mo,ko,to[R/2],m6,k6,t6[R/2],r6[R/2],m4,k4,t4[R/2],r4[R/2]);
}
