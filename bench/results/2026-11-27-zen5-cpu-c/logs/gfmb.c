#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gemmkit.h"
#include "gemmkit_gf256.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int k=atoi(argv[1]),m=atoi(argv[2]); long len=atol(argv[3]); int rounds=argc>4?atoi(argv[4]):9;
  uint8_t *d[64],*p[64];
  for(int i=0;i<k;i++){d[i]=aligned_alloc(64,len);for(long j=0;j<len;j++)d[i][j]=rand();}
  for(int i=0;i<m;i++)p[i]=aligned_alloc(64,len);
  gk_rs *rs; gk_rs_create(&rs,k,m,GK_RS_CAUCHY);
  gk_context *c1,*c2; gk_context_create(&c1); gk_context_set_threads(c1,1); gk_context_create(&c2); gk_context_set_threads(c2,2);
  double r1[64],r2[64]; double bytes=(double)k*len;
  int calls=(int)(0.02*40e9/bytes)+1;
  for(int r=0;r<rounds;r++){
    for(int s=0;s<2;s++){
      gk_context*c=s?c2:c1; if(getenv("PAUSE")){struct timespec ts={0,200000000};nanosleep(&ts,0);gk_rs_encode_ex(c,rs,len,(const uint8_t*const*)d,p);}
      if(!getenv("NOWARM"))for(int i=0;i<calls/4;i++) gk_rs_encode_ex(c,rs,len,(const uint8_t*const*)d,p);
      double t0=now();
      for(int i=0;i<calls;i++) gk_rs_encode_ex(c,rs,len,(const uint8_t*const*)d,p);
      double t=(now()-t0)/calls; (s?r2:r1)[r]=bytes/t/1e9;
    }
  }
  qsort(r1,rounds,sizeof(double),cmp);qsort(r2,rounds,sizeof(double),cmp);
  printf("%d+%d %ld: 1t %.1f GB/s  2t %.1f GB/s  (2t/1t %.2f)\n",k,m,len,r1[rounds/2],r2[rounds/2],r2[rounds/2]/r1[rounds/2]);
  return 0;
}
