#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gemmkit_cblas.h>
int main(int argc,char**argv){ int m=atoi(argv[1]),n=atoi(argv[2]),k=atoi(argv[3]); int dp=argv[4][0]=='d';
 size_t es=dp?8:4; char*a=malloc(es*m*k),*b=malloc(es*k*n),*c=malloc(es*m*n);
 srand48(7); for(long i=0;i<(long)m*k;i++){ if(dp)((double*)a)[i]=drand48()-.5; else ((float*)a)[i]=drand48()-.5;}
 for(long i=0;i<(long)k*n;i++){ if(dp)((double*)b)[i]=drand48()-.5; else ((float*)b)[i]=drand48()-.5;}
 for(long i=0;i<(long)m*n;i++){ if(dp)((double*)c)[i]=drand48()-.5; else ((float*)c)[i]=drand48()-.5;}
 if(dp) cblas_dgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,m,n,k,1.5,(double*)a,k,(double*)b,n,0.25,(double*)c,n);
 else cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,m,n,k,1.5f,(float*)a,k,(float*)b,n,0.25f,(float*)c,n);
 fwrite(c,es,(size_t)m*n,stdout); return 0;}
