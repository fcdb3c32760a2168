#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dlfcn.h>
#include "gemmkit.h"
#include "gemmkit_gf256.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
typedef void (*enc_t)(int,int,int,unsigned char*,unsigned char**,unsigned char**);
typedef void (*init_t)(int,int,unsigned char*,unsigned char*);
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
/* shards at offsets o0 and o1 from a page (two sets), gemmkit and ISA-L, encode or decode, 1 thread */
int main(int argc,char**argv){
  int k=atoi(argv[1]),m=atoi(argv[2]); long len=atol(argv[3]); int dec=argv[4][0]=='d'; int noff=argc-5; long off[4], offo[4]; for(int i=0;i<noff;i++){off[i]=atol(argv[5+i]); char*sl=strchr(argv[5+i],'/'); offo[i]=sl?atol(sl+1):off[i];}
  gk_rs*rs; gk_rs_create(&rs,k,m,0); gk_context*cx; gk_context_create(&cx); gk_context_set_threads(cx,1);
  uint8_t*sh[4][300]; for(int v=0;v<noff;v++) for(int i=0;i<k+m;i++){ uint8_t*p; posix_memalign((void**)&p,4096,len+4096); sh[v][i]=p+(i<k?off[v]:offo[v]); for(long j=0;j<len;j++)sh[v][i][j]=rand(); }
  for(int v=0;v<noff;v++) gk_rs_encode_ex(cx,rs,len,(const uint8_t*const*)sh[v],sh[v]+k);
  uint8_t present[300]; for(int i=0;i<k+m;i++)present[i]=i>=2;
  void*h=dlopen("libisal.so.2",RTLD_NOW); enc_t ec=(enc_t)dlsym(h,"ec_encode_data"); init_t it=(init_t)dlsym(h,"ec_init_tables");
  uint8_t mat[300*300]; gk_rs_matrix_get(rs,mat); uint8_t*tab=malloc(32*k*m); it(k,m,mat+k*k,tab);
  enum{Q=15}; double r[8][Q];
  for(int q=0;q<Q;q++) for(int s=0;s<2*noff;s++){ int v=s/2, lib=s%2; long calls=0; double t0=now(),t; do{ for(int i=0;i<20;i++){ if(!lib){ if(dec) gk_rs_reconstruct_ex(cx,rs,len,sh[v],present,1); else gk_rs_encode_ex(cx,rs,len,(const uint8_t*const*)sh[v],sh[v]+k);} else ec(len,k,m,tab,sh[v],sh[v]+k);} calls+=20; t=now()-t0;}while(t<0.02); r[s][q]=(double)k*len*calls/t/1e9; }
  printf("%d+%d %ld %s:",k,m,len,dec?"dec":"enc");
  for(int s=0;s<2*noff;s++){qsort(r[s],Q,8,cmp); printf(" %s@%ld/%ld %.1f", s%2?"isal":"gk", off[s/2], offo[s/2], r[s][Q/2]);} printf(" GB/s\n"); return 0;}
