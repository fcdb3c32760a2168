#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <dlfcn.h>
#include "gemmkit.h"
static double now(void){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*x,const void*y){double a=*(double*)x,b=*(double*)y;return a<b?-1:a>b;}
#ifdef DBL
#define T double
#define GKF gk_dgemm
#define CB "cblas_dgemm"
#else
#define T float
#define GKF gk_sgemm
#define CB "cblas_sgemm"
#endif
typedef void (*sg_t)(int,int,int,int,int,int,T,const T*,int,const T*,int,T,T*,int);
int main(int c,char**v){ long m=atol(v[1]),n=atol(v[2]),k=atol(v[3]); int reps=atoi(v[4]); int nt=atoi(v[5]); long off=c>6?atol(v[6]):0;
 void*h=dlopen("/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so",RTLD_NOW|RTLD_LOCAL); if(!h){puts(dlerror());return 1;}
 sg_t sg=(sg_t)dlsym(h,CB); void(*st)(int)=(void(*)(int))dlsym(h,"openblas_set_num_threads"); st(nt);
 char *a_,*b_,*c_; posix_memalign((void**)&a_,4096,m*k*sizeof(T)+4096); posix_memalign((void**)&b_,4096,k*n*sizeof(T)+4096); posix_memalign((void**)&c_,4096,m*n*sizeof(T)+4096);
 long oa=getenv("OFFA")?atol(getenv("OFFA")):off, ob=getenv("OFFB")?atol(getenv("OFFB")):off, oc=getenv("OFFC")?atol(getenv("OFFC")):off; T*A=(T*)(a_+oa),*B=(T*)(b_+ob),*C=(T*)(c_+oc);
 for(long i=0;i<m*k;i++)A[i]=(T)rand()/RAND_MAX*2-1; for(long i=0;i<k*n;i++)B[i]=(T)rand()/RAND_MAX*2-1;
 static double t[2][10000], r[10000];
 for(int w=0;w<6;w++){ GKF(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n,k,1,A,k,B,n,0,C,n); sg(101,111,111,m,n,k,1,A,k,B,n,0,C,n);}
 int touch=getenv("TOUCH")!=NULL, inrow=getenv("INROW")!=NULL; volatile unsigned char sink=0;
 for(int i=0;i<reps;i++) for(int s=0;s<2;s++){ int v2=inrow? (i*2+s)*2/ (2*reps) : (i+s)&1; if(inrow){ int q=i*2+s; v2 = q < reps ? 0 : 1; if(q>=reps) i=i; }
   if(touch){ for(long p=0;p<m*k*(long)sizeof(T);p+=4096) sink+=((unsigned char*)A)[p]; for(long p=0;p<k*n*(long)sizeof(T);p+=4096) sink+=((unsigned char*)B)[p]; for(long p=0;p<m*n*(long)sizeof(T);p+=4096) sink+=((unsigned char*)C)[p]; }
   double t0=now();
   if(v2) sg(101,111,111,m,n,k,1,A,k,B,n,0,C,n); else GKF(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n,k,1,A,k,B,n,0,C,n);
   if(inrow){ int q=i*2+s; t[v2][q%reps]=now()-t0; } else t[v2][i]=now()-t0; }
 for(int i=0;i<reps;i++) r[i]=t[0][i]/t[1][i];
 qsort(t[0],reps,8,cmp);qsort(t[1],reps,8,cmp);qsort(r,reps,8,cmp);
 double f=2.0*m*n*k/1e9; printf("%ldx%ldx%ld %dt: gemmkit %.1f GFLOPS, openblas %.1f, gemmkit/openblas speed (median of per-call) %.3f\n",m,n,k,nt,f/t[0][reps/2],f/t[1][reps/2],1/r[reps/2]); }
