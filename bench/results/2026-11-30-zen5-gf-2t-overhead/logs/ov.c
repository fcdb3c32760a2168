#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gemmkit.h"
#include "gemmkit_gf256.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int k=atoi(argv[1]),m=atoi(argv[2]); long len=atol(argv[3]); int dec=argv[4][0]=='d';
  gk_rs*rs; gk_rs_create(&rs,k,m,0); uint8_t*sh[300]; for(int i=0;i<k+m;i++){sh[i]=aligned_alloc(64,len);for(long j=0;j<len;j++)sh[i][j]=rand();}
  gk_rs_encode(rs,len,(const uint8_t*const*)sh,sh+k);
  uint8_t present[300]; for(int i=0;i<k+m;i++)present[i]=i>=2;
  gk_context*c[3]; for(int t=1;t<=2;t++){gk_context_create(&c[t]); gk_context_set_threads(c[t],t);}
  enum{Q=21}; double r[3][Q];
  for(int q=0;q<Q;q++) for(int t=1;t<=2;t++){ long calls=0; double t0=now(),tt; do{ for(int i=0;i<50;i++){ if(dec) gk_rs_reconstruct_ex(c[t],rs,len,sh,present,1); else gk_rs_encode_ex(c[t],rs,len,(const uint8_t*const*)sh,sh+k);} calls+=50; tt=now()-t0;}while(tt<0.01); r[t][q]=tt/calls*1e6; }
  qsort(r[1],Q,8,cmp); qsort(r[2],Q,8,cmp);
  printf("%d+%d %ld %s: 1t %.2f us  2t %.2f us  (2t - 1t/2 = %.2f us) speedup %.2f\n",k,m,len,dec?"dec":"enc",r[1][Q/2],r[2][Q/2],r[2][Q/2]-r[1][Q/2]/2,r[1][Q/2]/r[2][Q/2]);}
