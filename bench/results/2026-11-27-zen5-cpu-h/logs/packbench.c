/* packbench: time gk_pack_f32 / gk_pack_f64 (internal, from libgemmkit.a): rows kc ld r [b]; A block by rows, or with b a B panel by rows; PAD=elements adds to the sliver distance. gcc -O2 packbench.c libgemmkit.a -lpthread -lm */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
typedef struct gk_kernels gk_kernels; const gk_kernels *gk_kernels_active(void);
void gk_pack_f32(const gk_kernels *k,int64_t rows, int64_t kc, const float *x, int64_t rs, int64_t cs, int64_t r, float *dst, int64_t ps);
void gk_pack_f64(const gk_kernels *k,int64_t rows, int64_t kc, const double *x, int64_t rs, int64_t cs, int64_t r, double *dst, int64_t ps);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){
 int dbl=argv[1][0]=='d'; int64_t rows=atoll(argv[2]),kc=atoll(argv[3]),ld=atoll(argv[4]),r=atoll(argv[5]); int bmode=argc>6&&argv[6][0]=='b';
 size_t es=dbl?8:4; char*x=aligned_alloc(64,es*(rows+64)*(ld+64)); char*d=aligned_alloc(64,es*(rows+64)*(kc+16));
 for(size_t i=0;i<es*(rows+64)*(ld+64);i++)x[i]=i*7;
 int64_t ps=(r*kc+15)/16*16 + (getenv("PAD")?atoi(getenv("PAD")):0); double best=1e9;
 for(int it=0;it<200;it++){double t=now();
  if(!bmode){ if(dbl)gk_pack_f64(gk_kernels_active(),rows,kc,(double*)x,ld,1,r,(double*)d,ps); else gk_pack_f32(gk_kernels_active(),rows,kc,(float*)x,ld,1,r,(float*)d,ps);}
  else { if(dbl)gk_pack_f64(gk_kernels_active(),rows,kc,(double*)x,1,ld,r,(double*)d,ps); else gk_pack_f32(gk_kernels_active(),rows,kc,(float*)x,1,ld,r,(float*)d,ps);}
  t=now()-t; if(t<best)best=t;}
 printf("%s %c rows %ld kc %ld r %ld: %.3f ns/elem, %.2f cycles/elem@3.26\n",bmode?"B":"A",dbl?'d':'s',rows,kc,r,best*1e9/(rows*kc),best*1e9/(rows*kc)*3.26);}
