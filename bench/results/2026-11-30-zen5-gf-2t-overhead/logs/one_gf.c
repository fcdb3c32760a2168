#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gemmkit.h"
#include "gemmkit_gf256.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){ int k=atoi(argv[1]),m=atoi(argv[2]); long len=atol(argv[3]); double secs=atof(argv[4]);
  gk_rs*rs; gk_rs_create(&rs,k,m,0); gk_context*c1; gk_context_create(&c1); gk_context_set_threads(c1,1);
  uint8_t*sh[64]; for(int i=0;i<k+m;i++){ sh[i]=aligned_alloc(64,len); for(long j=0;j<len;j++) sh[i][j]=rand(); }
  long calls=0; double t0=now(); while(now()-t0<secs){ for(int i=0;i<100;i++) gk_rs_encode_ex(c1,rs,len,(const uint8_t*const*)sh,sh+k); calls+=100; }
  double t=now()-t0; printf("%d+%d %ld: %.2f us/call, %.1f GB/s\n",k,m,len,t/calls*1e6,(double)k*len*calls/t/1e9); }
