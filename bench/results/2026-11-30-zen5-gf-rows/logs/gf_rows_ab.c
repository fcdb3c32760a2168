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
/* args: k m len enc|dec variants(comma list of GK_X_GFROWS values) */
int main(int argc,char**argv){
  int k=atoi(argv[1]),m=atoi(argv[2]); long len=atol(argv[3]); int dec=argv[4][0]=='d';
  char vs[8][16]; int nv=0; char*tok=strtok(argv[5],","); while(tok){strcpy(vs[nv++],tok);tok=strtok(NULL,",");}
  gk_rs*rs; gk_rs_create(&rs,k,m,0); gk_context*cx; gk_context_create(&cx); gk_context_set_threads(cx,getenv("T")?atoi(getenv("T")):1); uint8_t*sh[300]; for(int i=0;i<k+m;i++){sh[i]=aligned_alloc(64,len);for(long j=0;j<len;j++)sh[i][j]=rand();}
  uint8_t*ip[300]; for(int i=0;i<k+m;i++){ip[i]=aligned_alloc(64,len);memcpy(ip[i],sh[i],len);}
  gk_rs_encode(rs,len,(const uint8_t*const*)sh,sh+k); for(int i=k;i<k+m;i++)memcpy(ip[i],sh[i],len);
  uint8_t present[300]; for(int i=0;i<k+m;i++)present[i]=i>=2;
  void*h=dlopen("libisal.so.2",RTLD_NOW); enc_t ec=(enc_t)dlsym(h,"ec_encode_data"); init_t it=(init_t)dlsym(h,"ec_init_tables");
  uint8_t mat[300*300]; gk_rs_matrix_get(rs,mat); uint8_t*tab=malloc(32*k*m); it(k,m,mat+k*k,tab);
  enum{Q=15}; double r[9][Q];
  for(int q=0;q<Q;q++) for(int s=0;s<=nv;s++){ int c=(s+q)%(nv+1);
    if(c<nv) setenv("GK_X_GFROWS",vs[c],1);
    long calls=0; double t0=now(),t; do{ for(int i=0;i<20;i++){ if(c<nv){ if(dec) gk_rs_reconstruct_ex(cx,rs,len,sh,present,1); else gk_rs_encode_ex(cx,rs,len,(const uint8_t*const*)sh,sh+k);} else ec(len,k,m,tab,ip,ip+k);} calls+=20; t=now()-t0;}while(t<0.02); r[c][q]=(double)k*len*calls/t/1e9; }
  for(int c=0;c<nv;c++) if(memcmp(sh[k],ip[k],len)&&!dec) printf("MISMATCH\n");
  printf("%d+%d %ld %s:",k,m,len,dec?"dec":"enc");
  for(int c=0;c<=nv;c++){qsort(r[c],Q,8,cmp); printf(" %s %.1f", c<nv?vs[c]:"isal", r[c][Q/2]);} printf(" GB/s\n"); return 0;}
