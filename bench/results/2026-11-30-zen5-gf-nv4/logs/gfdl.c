/* A/B of two libgemmkit builds on gk_rs_encode_ex / gk_rs_reconstruct_ex, batches alternating. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
typedef int (*create_t)(void**,int,int,int); typedef int (*ctxc_t)(void**); typedef int (*setth_t)(void*,int);
typedef int (*enc_t)(const void*,const void*,int64_t,const uint8_t*const*,uint8_t*const*);
typedef int (*rec_t)(const void*,const void*,int64_t,uint8_t*const*,const uint8_t*,int);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  const char*lib[2]={argv[1],argv[2]}; int k=atoi(argv[3]),m=atoi(argv[4]); long len=atol(argv[5]); int th=atoi(argv[6]); int rounds=atoi(argv[7]); int dec=argc>8&&atoi(argv[8]);
  enc_t enc[2]; rec_t rec[2]; void*rs[2],*ctx[2];
  for(int i=0;i<2;i++){void*h=dlopen(lib[i],RTLD_NOW|RTLD_LOCAL|RTLD_DEEPBIND); if(!h){printf("%s\n",dlerror());return 1;}
    ((create_t)dlsym(h,"gk_rs_create"))(&rs[i],k,m,0); ((ctxc_t)dlsym(h,"gk_context_create"))(&ctx[i]); ((setth_t)dlsym(h,"gk_context_set_threads"))(ctx[i],th);
    enc[i]=(enc_t)dlsym(h,"gk_rs_encode_ex"); rec[i]=(rec_t)dlsym(h,"gk_rs_reconstruct_ex");}
  uint8_t *sh[64]; for(int i=0;i<k+m;i++){sh[i]=aligned_alloc(64,len);for(long j=0;j<len;j++)sh[i][j]=rand();}
  uint8_t present[64]; for(int i=0;i<k+m;i++)present[i]=i>=2;
  double r[2][200]; double bytes=(double)k*len; int calls=(int)(0.01*30e9/bytes)+1;
  for(int q=0;q<rounds;q++) for(int s0=0;s0<2;s0++){int s=(s0+q)%2;
    struct timespec ts={0,50000000}; nanosleep(&ts,0);
    for(int i=0;i<3;i++) dec?rec[s](ctx[s],rs[s],len,sh,present,1):enc[s](ctx[s],rs[s],len,(const uint8_t*const*)sh,sh+k);
    double t0=now(); for(int i=0;i<calls;i++) dec?rec[s](ctx[s],rs[s],len,sh,present,1):enc[s](ctx[s],rs[s],len,(const uint8_t*const*)sh,sh+k);
    r[s][q]=bytes*calls/(now()-t0)/1e9;}
  double pr[200]; for(int q=0;q<rounds;q++) pr[q]=r[1][q]/r[0][q]; qsort(pr,rounds,sizeof(double),cmp);
  for(int s=0;s<2;s++)qsort(r[s],rounds,sizeof(double),cmp);
  printf("%d+%d %ld %dt %s: A %.1f B %.1f GB/s B/A %.2f paired %.3f\n",k,m,len,th,dec?"dec":"enc",r[0][rounds/2],r[1][rounds/2],r[1][rounds/2]/r[0][rounds/2],pr[rounds/2]);
}
