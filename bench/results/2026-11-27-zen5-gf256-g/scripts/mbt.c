#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "gemmkit.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){int k=atoi(argv[1]),m=atoi(argv[2]);long len=atol(argv[3]);int th=atoi(argv[4]);
 gk_rs*rs; gk_rs_create(&rs,k,m,0); gk_context*ctx; gk_context_create(&ctx); gk_context_set_threads(ctx,th);
 uint8_t*sh[64]; for(int i=0;i<k+m;i++){sh[i]=aligned_alloc(64,len);for(long j=0;j<len;j++)sh[i][j]=rand();}
 double bytes=(double)k*len; int calls=(int)(0.02*15e9/bytes)+1; double r[9];
 for(int q=0;q<9;q++){ for(int i=0;i<3;i++) gk_rs_encode_ex(ctx,rs,len,(const uint8_t*const*)sh,sh+k);
  double t0=now(); for(int i=0;i<calls;i++) gk_rs_encode_ex(ctx,rs,len,(const uint8_t*const*)sh,sh+k); r[q]=(now()-t0)/calls;}
 qsort(r,9,sizeof(double),cmp); printf("%d+%d %7ld %dt: %.2f us/call, %.2f GB/s\n",k,m,len,th,r[4]*1e6,bytes/r[4]/1e9);}
