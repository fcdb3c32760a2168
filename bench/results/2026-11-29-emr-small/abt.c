/* abt: gemmkit (cblas from libgemmkit) vs OpenBLAS cblas, row-major, given transposes, interleaved call by call; prints ref/gk speed ratio (median). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef void (*cs_fn)(int,int,int,int,int,int,float,const float*,int,const float*,int,float,float*,int);
typedef void (*cd_fn)(int,int,int,int,int,int,double,const double*,int,const double*,int,double,double*,int);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int c,char**v){void*h[2];for(int i=0;i<2;i++){h[i]=dlopen(v[1+i],RTLD_NOW|RTLD_LOCAL|RTLD_DEEPBIND);if(!h[i]){puts(dlerror());return 1;}}
 int dbl=v[3][0]=='d'; int ta=v[4][0]=='T'?112:111, tb=v[4][1]=='T'?112:111; int m=atoi(v[5]),n=atoi(v[6]),k=atoi(v[7]),R=atoi(v[8]);
 void*f[2];for(int i=0;i<2;i++)f[i]=dlsym(h[i],dbl?"cblas_dgemm":"cblas_sgemm");
 size_t es=dbl?8:4; char*A=malloc(es*m*k),*B=malloc(es*k*n),*C=malloc(es*m*n);
 for(long i=0;i<(long)m*k;i++){double x=rand()/(double)RAND_MAX;if(dbl)((double*)A)[i]=x;else((float*)A)[i]=x;}
 for(long i=0;i<(long)k*n;i++){double x=rand()/(double)RAND_MAX;if(dbl)((double*)B)[i]=x;else((float*)B)[i]=x;}
 int lda=ta==111?k:m, ldb=tb==111?n:k; double t[2][64],r[64]; double w=2.0*m*n*k; int calls=(int)(2e8/w)+1;
 for(int q=-1;q<R;q++)for(int i=0;i<2;i++){double t0=now();for(int z=0;z<calls;z++){if(dbl)((cd_fn)f[i])(101,ta,tb,m,n,k,1.0,(double*)A,lda,(double*)B,ldb,0.0,(double*)C,n);else((cs_fn)f[i])(101,ta,tb,m,n,k,1.0f,(float*)A,lda,(float*)B,ldb,0.0f,(float*)C,n);}if(q>=0)t[i][q]=(now()-t0)/calls;}
 for(int q=0;q<R;q++)r[q]=t[0][q]/t[1][q]; qsort(r,R,sizeof(double),cmp); double a0[64],a1[64];for(int q=0;q<R;q++){a0[q]=t[0][q];a1[q]=t[1][q];}qsort(a0,R,8,cmp);qsort(a1,R,8,cmp);
 printf("%s %s %dx%dx%d: gk %.1f ref %.1f GFLOPS, ref/gk speed %.3f\n",v[3],v[4],m,n,k,w/a0[R/2]*1e-9,w/a1[R/2]*1e-9,r[R/2]);}
