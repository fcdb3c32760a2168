#include <gemmkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
/* time C = A B (m x n x k, row-major, ld = n) in one call, and as two calls: columns [0,n1) and [n1,n) */
int main(int argc,char**argv){
  int dbl=argv[1][0]=='d'; long m=atol(argv[2]),n=atol(argv[3]),k=atol(argv[4]),n1=atol(argv[5]); int reps=atoi(argv[6]);
  size_t es=dbl?8:4; char *a=aligned_alloc(64,(m*k*es+63)/64*64),*b=aligned_alloc(64,(k*n*es+63)/64*64),*c=aligned_alloc(64,(m*n*es+63)/64*64);
  for(long i=0;i<m*k;i++){ if(dbl)((double*)a)[i]=(i%7)*0.1; else ((float*)a)[i]=(i%7)*0.1f;}
  for(long i=0;i<k*n;i++){ if(dbl)((double*)b)[i]=(i%5)*0.1; else ((float*)b)[i]=(i%5)*0.1f;}
  double best[3]={1e9,1e9,1e9};
  for(int r=0;r<11;r++) for(int v=0;v<3;v++){ double t=now(); for(int q=0;q<reps;q++){
      if(v==0){ if(dbl) gk_dgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n,k,1,(double*)a,k,(double*)b,n,0,(double*)c,n); else gk_sgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n,k,1,(float*)a,k,(float*)b,n,0,(float*)c,n);}
      else if(v==1){ if(dbl) gk_dgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n1,k,1,(double*)a,k,(double*)b,n,0,(double*)c,n); else gk_sgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n1,k,1,(float*)a,k,(float*)b,n,0,(float*)c,n);}
      else { if(dbl) gk_dgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n-n1,k,1,(double*)a,k,(double*)b+n1,n,0,(double*)c+n1,n); else gk_sgemm(GK_ROW_MAJOR,GK_NO_TRANS,GK_NO_TRANS,m,n-n1,k,1,(float*)a,k,(float*)b+n1,n,0,(float*)c+n1,n);}
    } t=(now()-t)/reps; if(t<best[v])best[v]=t; }
  printf("%c %ldx%ldx%ld: one call %.0f ns; %ld cols %.0f ns + %ld cols %.0f ns = %.0f ns (one/two %.3f)\n",argv[1][0],m,n,k,best[0]*1e9,n1,best[1]*1e9,n-n1,best[2]*1e9,(best[1]+best[2])*1e9,best[0]/(best[1]+best[2]));
}
