#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>
#include "pool.h"
typedef struct { unsigned long long start, end; int slot; long sink; } __attribute__((aligned(64))) T;
typedef struct { long w; unsigned long long t0; T t[2]; } A;
static void run(void *arg, int64_t t, int slot){ A*a=arg; T*x=&a->t[t]; x->start=__rdtsc(); x->slot=slot; long s=0; for(int i=0;i<(int)a->w;i++) s+=i*(t+1); x->sink=s; x->end=__rdtsc(); }
static int cmp(const void*x,const void*y){double a=*(double*)x,b=*(double*)y;return a<b?-1:a>b;}
int main(int argc,char**argv){ static A a; a.w=atol(argv[1]);
  gk_job j={.run=run,.arg=&a,.tasks=2,.threads=2,.work=1e5};
  enum{N=20000}; static double ws[N], we[N], tot[N], cs[N], ce[N]; int n=0, absent=0;
  for(int i=0;i<N;i++){ a.t0=__rdtsc(); gk_pool_run(&j); unsigned long long t1=__rdtsc();
    int wt = a.t[0].slot==1?0:(a.t[1].slot==1?1:-1); if(wt<0){absent++; continue;}
    ws[n]=a.t[wt].start-a.t0; we[n]=t1-a.t[wt].end; tot[n]=t1-a.t0; cs[n]=a.t[1-wt].start-a.t0; ce[n]=a.t[1-wt].end-a.t[1-wt].start; n++; }
  qsort(ws,n,8,cmp);qsort(we,n,8,cmp);qsort(tot,n,8,cmp);qsort(cs,n,8,cmp);qsort(ce,n,8,cmp);
  printf("TSC median: worker start %.0f, caller start %.0f, caller task length %.0f, return after worker end %.0f, total %.0f; worker absent %d/%d\n",ws[n/2],cs[n/2],ce[n/2],we[n/2],tot[n/2],absent,N);
}
