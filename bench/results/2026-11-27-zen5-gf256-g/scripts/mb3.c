/* RS encode GB/s: hot (same stripe every call) or cold (stripes cycling through POOL MiB, parity into cycling buffers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gemmkit.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){int k=atoi(argv[1]),m=atoi(argv[2]);long len=atol(argv[3]);int th=atoi(argv[4]);int cold=atoi(argv[5]);
 long pool=(long)(getenv("POOL")?atol(getenv("POOL")):1024)<<20; int nst=cold? (int)(pool/((k+m)*len)) : 1; if(nst<1)nst=1;
 gk_rs*rs; gk_rs_create(&rs,k,m,0); gk_context*ctx; gk_context_create(&ctx); gk_context_set_threads(ctx,th);
 uint8_t*base=aligned_alloc(4096,(size_t)nst*(k+m)*(len+4096)); memset(base,1,(size_t)nst*(k+m)*(len+4096));
 for(long j=0;j<(long)nst*(k+m)*(len+4096);j+=7)base[j]=rand();
 uint8_t**sh=malloc(sizeof(uint8_t*)*nst*(k+m)); for(int s=0;s<nst*(k+m);s++)sh[s]=base+(size_t)s*(len+4096)+64;
 double bytes=(double)k*len; int calls=(int)(0.05*20e9/bytes)+1; double r[9]; int cur=0;
 for(int q=0;q<9;q++){ for(int i=0;i<2;i++){uint8_t**x=sh+(size_t)(cur++%nst)*(k+m); gk_rs_encode_ex(ctx,rs,len,(const uint8_t*const*)x,x+k);}
  double t0=now(); for(int i=0;i<calls;i++){uint8_t**x=sh+(size_t)(cur++%nst)*(k+m); gk_rs_encode_ex(ctx,rs,len,(const uint8_t*const*)x,x+k);} r[q]=bytes*calls/(now()-t0)/1e9;}
 qsort(r,9,sizeof(double),cmp); printf("%d+%d %ld %dt %s: %.2f GB/s\n",k,m,len,th,cold?"cold":"hot",r[4]);}
