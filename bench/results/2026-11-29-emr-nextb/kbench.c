/* kbench: the AVX2 kernels alone, OpenBLAS's macro kernel
 * (dgemm_kernel_HASWELL / sgemm_kernel_HASWELL, exported by its DYNAMIC_ARCH
 * build) against gemmkit's microkernel in the driver's column walk (jr over
 * the B slivers, ir over the A slivers), alternated call by call on
 * buffers of the same sizes (random; the order of the packed elements does
 * not change the time). Mode 1: each gemmkit call also requests its share
 * of the next B sliver into L2 (the pf kernel), as the driver now does.
 *   gcc -O2 -o kbench kbench.c libgemmkit.a -ldl -lm -lpthread
 *   ./kbench s|d mc_ob kc_ob mc_gk kc_gk n rounds [mode] */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef int (*obk_d)(long, long, long, double, double *, double *, double *, long);
typedef int (*obk_s)(long, long, long, float, float *, float *, float *, long);
void gk_gemm_f64_avx2_6x8(int64_t, double, const double *, const double *, double, double *, int64_t);
void gk_gemm_pf_f64_avx2_6x8(int64_t, double, const double *, const double *, double, double *, int64_t, const void *const *, int64_t);
void gk_gemm_pf_f32_avx2_6x16(int64_t, float, const float *, const float *, float, float *, int64_t, const void *const *, int64_t);
void gk_gemm_f32_avx2_6x16(int64_t, float, const float *, const float *, float, float *, int64_t);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  if(argc<8){fprintf(stderr,"kbench s|d mc_ob kc_ob mc_gk kc_gk n rounds\n");return 1;}
  int dp=argv[1][0]=='d'; long mo=atol(argv[2]),ko=atol(argv[3]),mg=atol(argv[4]),kg=atol(argv[5]),n=atol(argv[6]); int R=atoi(argv[7]); int mode=argc>8?atoi(argv[8]):0; 
  void*h=dlopen("/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so",RTLD_NOW);
  obk_d od=(obk_d)dlsym(h,"dgemm_kernel_HASWELL"); obk_s os=(obk_s)dlsym(h,"sgemm_kernel_HASWELL");
  size_t es=dp?8:4; long mmax=mo>mg?mo:mg,kmax=ko>kg?ko:kg;
  char*A=aligned_alloc(64,(mmax+16)*kmax*es+4096),*B=aligned_alloc(64,(n+16)*kmax*es+4096),*C=aligned_alloc(64,(mmax+16)*(n+16)*es);
  for(size_t i=0;i<(mmax+16)*kmax;i++){ if(dp)((double*)A)[i]=drand48()-.5; else ((float*)A)[i]=drand48()-.5;}
  for(size_t i=0;i<(n+16)*kmax;i++){ if(dp)((double*)B)[i]=drand48()-.5; else ((float*)B)[i]=drand48()-.5;}
  memset(C,0,(mmax+16)*(n+16)*es);
  double *to=malloc(R*8),*tg=malloc(R*8);
  int mr=6,nr=dp?8:16;
  for(int r=-3;r<R;r++){
    double t0=now();
    if(dp) od(mo,n,ko,1.0,(double*)A,(double*)B,(double*)C,mo); else os(mo,n,ko,1.0f,(float*)A,(float*)B,(float*)C,mo);
    double t1=now();
    for(long j=0;j<n;j+=nr){ long na=mg/mr, lines=kg*nr*es/64, q=0; const char*nb=B+(j+nr)*kg*es;
     for(long i=0,ia=0;i+mr<=mg;i+=mr,ia++){
      if(!dp&&mode==1&&j+nr<n){ const void*pf[512]; long upto=lines*(ia+1)/na, np=0; while(q<upto&&np<512) pf[np++]=nb+64*(q++);
        gk_gemm_pf_f32_avx2_6x16(kg,1.0f,(float*)A+i*kg,(float*)B+j*kg,1.0f,(float*)C+i*n+j,n,pf,np); continue;}
      if(dp&&mode==1&&j+nr<n){ const void*pf[512]; long upto=lines*(ia+1)/na, np=0; while(q<upto&&np<512) pf[np++]=nb+64*(q++);
        gk_gemm_pf_f64_avx2_6x8(kg,1.0,(double*)A+i*kg,(double*)B+j*kg,1.0,(double*)C+i*n+j,n,pf,np); continue;}
      if(dp) gk_gemm_f64_avx2_6x8(kg,1.0,(double*)A+i*kg,(double*)B+j*kg,1.0,(double*)C+i*n+j,n);
      else gk_gemm_f32_avx2_6x16(kg,1.0f,(float*)A+i*kg,(float*)B+j*kg,1.0f,(float*)C+i*n+j,n);}}
    double t2=now();
    if(r>=0){to[r]=2.0*mo*n*ko/(t1-t0)*1e-9; tg[r]=2.0*(mg/mr*mr)*n*kg/(t2-t1)*1e-9;}
  }
  double rat[1000]; for(int r=0;r<R;r++)rat[r]=tg[r]/to[r];
  qsort(to,R,8,cmp);qsort(tg,R,8,cmp);qsort(rat,R,8,cmp);
  printf("%s OB %ldx%ldx%ld %.1f GF | GK %ldx%ldx%ld %.1f GF | gk/ob median %.3f\n",dp?"d":"s",mo,n,ko,to[R/2],mg,n,kg,tg[R/2],rat[R/2]);
}
