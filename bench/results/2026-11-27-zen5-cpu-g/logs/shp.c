#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "gemmkit.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){ long m=atol(argv[1]),n=atol(argv[2]),k=atol(argv[3]); int calls=atoi(argv[4]); int dbl=argc>5&&argv[5][0]=='d';
 size_t es=dbl?8:4; void*a=aligned_alloc(64,m*k*es+64),*b=aligned_alloc(64,k*n*es+64),*c=aligned_alloc(64,m*n*es+64);
 for(long i=0;i<m*k;i++){ if(dbl)((double*)a)[i]=rand()/(double)RAND_MAX-0.5; else ((float*)a)[i]=rand()/(float)RAND_MAX-0.5f;}
 for(long i=0;i<k*n;i++){ if(dbl)((double*)b)[i]=rand()/(double)RAND_MAX-0.5; else ((float*)b)[i]=rand()/(float)RAND_MAX-0.5f;}
 double best=0; for(int i=0;i<calls;i++){ double t0=now(); if(dbl) gk_dgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n,k,1.0,a,k,b,n,0.0,c,n); else gk_sgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n,k,1.0f,a,k,b,n,0.0f,c,n);
 double t=now()-t0; double g=2.0*m*n*k/t/1e9; if(g>best)best=g; printf("%.1f ",g);} printf("\nbest %.1f GFLOPS\n",best);}
