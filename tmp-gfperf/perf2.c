#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gemmkit.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  int k=atoi(argv[1]), m=atoi(argv[2]); long len=argc>3?atol(argv[3]):1<<20; int reps=20;
  unsigned char **d=malloc(sizeof(void*)*k),**p=malloc(sizeof(void*)*m);
  for(int j=0;j<k;j++){d[j]=aligned_alloc(64,len);for(long i=0;i<len;i++)d[j][i]=rand();}
  for(int j=0;j<m;j++){p[j]=aligned_alloc(64,len);memset(p[j],0,len);}
  gk_rs *rs; if(gk_rs_create(&rs,k,m,GK_RS_CAUCHY)) return 1;
  double bg=1e9;
  for(int r=0;r<reps;r++){ double t0=now(); gk_rs_encode(rs,len,(const uint8_t*const*)d,p); double t1=now(); if(t1-t0<bg)bg=t1-t0;}
  printf("%d+%d len %ld: %.1f GB/s\n",k,m,len,k*len/bg/1e9);
}
