#include <isa-l.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gemmkit.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}

int main(int argc,char**argv){ 
  int reps = argc>1?atoi(argv[1]):30;
  long len = argc>2?atol(argv[2]):1<<20;
  int codes[][2]={{10,4},{6,3},{12,4},{28,4},{8,8}};
  for(int c=0;c<5;c++){
    int k=codes[c][0],m=codes[c][1];
    unsigned char **d=malloc(sizeof(void*)*k),**p=malloc(sizeof(void*)*m),**q=malloc(sizeof(void*)*m);
    for(int j=0;j<k;j++){d[j]=aligned_alloc(64,len);for(long i=0;i<len;i++)d[j][i]=rand();}
    for(int j=0;j<m;j++){p[j]=aligned_alloc(64,len);q[j]=aligned_alloc(64,len);memset(p[j],0,len);memset(q[j],1,len);}
    gk_rs *rs; gk_rs_create(&rs,k,m,GK_RS_CAUCHY);
    unsigned char *a=malloc((k+m)*k),*tb=malloc(k*m*32);
    gf_gen_cauchy1_matrix(a,k+m,k); ec_init_tables(k,m,a+k*k,tb);
    double bg=1e9,bi=1e9;
    for(int r=0;r<reps;r++){
      double t0=now(); gk_rs_encode(rs,len,(const uint8_t*const*)d,p); double t1=now();
      ec_encode_data(len,k,m,tb,d,q); double t2=now();
      if(t1-t0<bg)bg=t1-t0; if(t2-t1<bi)bi=t2-t1;
    }
    int same=1; for(int j=0;j<m;j++) same&=!memcmp(p[j],q[j],len);
    printf("%2d+%-2d len %ld: gemmkit %6.1f GB/s   isa-l %6.1f GB/s  %s\n",k,m,len,k*len/bg/1e9,k*len/bi/1e9,same?"same":"DIFF");
    gk_rs_destroy(rs);
    for(int j=0;j<k;j++)free(d[j]); for(int j=0;j<m;j++){free(p[j]);free(q[j]);}
    free(d);free(p);free(q);free(a);free(tb);
  }
}
