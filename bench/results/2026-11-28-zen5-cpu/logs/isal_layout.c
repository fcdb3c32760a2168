#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
void ec_init_tables(int k, int rows, unsigned char *a, unsigned char *gftbls);
void ec_encode_data(int len, int k, int rows, unsigned char *gftbls, unsigned char **data, unsigned char **coding);
void gf_gen_cauchy1_matrix(unsigned char *a, int m, int k);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){int k=atoi(argv[1]),m=atoi(argv[2]);long len=atol(argv[3]);long pad=atol(argv[4]);
 unsigned char a[64*64],tbl[32*64*64]; gf_gen_cauchy1_matrix(a,k+m,k); ec_init_tables(k,m,a+k*k,tbl);
 uint8_t *big=aligned_alloc(4096,(size_t)(k+m)*(len+pad)+4096); unsigned char*sh[64];
 for(int i=0;i<k+m;i++){sh[i]=big+(size_t)i*(len+pad);for(long j=0;j<len;j++)sh[i][j]=rand();}
 double r[9]; int calls=(int)(0.01*30e9/((double)k*len))+1;
 for(int q=0;q<9;q++){for(int i=0;i<3;i++)ec_encode_data(len,k,m,tbl,sh,sh+k); double t0=now(); for(int i=0;i<calls;i++)ec_encode_data(len,k,m,tbl,sh,sh+k); r[q]=(double)k*len*calls/(now()-t0)/1e9;}
 qsort(r,9,sizeof(double),cmp); printf("isal pad %ld %d+%d %ld: %.1f GB/s\n",pad,k,m,len,r[4]);}
