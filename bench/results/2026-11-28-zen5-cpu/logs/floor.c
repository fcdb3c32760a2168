/* The memory floor of a k+m encode: read k rows, write m rows (each output the XOR of the
 * inputs, 64-byte vectors, normal stores), one thread, the same buffers call after call.
 * GB/s of data (k x len / time), median of rounds. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
__attribute__((target("avx512f,avx512bw"))) static void run(int k,int m,long len,uint8_t**in,uint8_t**out){
  for(long i=0;i<len;i+=128){__m512i s0=_mm512_setzero_si512(),s1=s0;
    for(int j=0;j<k;j++){s0=_mm512_xor_si512(s0,_mm512_loadu_si512(in[j]+i));s1=_mm512_xor_si512(s1,_mm512_loadu_si512(in[j]+i+64));}
    for(int r=0;r<m;r++){__m512i t0=_mm512_add_epi8(s0,_mm512_set1_epi8(r)),t1=_mm512_add_epi8(s1,_mm512_set1_epi8(r));_mm512_storeu_si512(out[r]+i,t0);_mm512_storeu_si512(out[r]+i+64,t1);}}}
int main(int argc,char**argv){int k=atoi(argv[1]),m=atoi(argv[2]);long len=atol(argv[3]);
 uint8_t*in[64],*out[64];for(int j=0;j<k;j++){in[j]=aligned_alloc(64,len);for(long i=0;i<len;i++)in[j][i]=rand();}
 for(int r=0;r<m;r++){out[r]=aligned_alloc(64,len);for(long i=0;i<len;i++)out[r][i]=0;}
 double v[15];int calls=(int)(0.01*30e9/((double)k*len))+1;
 for(int q=0;q<15;q++){for(int c=0;c<2;c++)run(k,m,len,in,out);double t0=now();for(int c=0;c<calls;c++)run(k,m,len,in,out);v[q]=(double)k*len*calls/(now()-t0)/1e9;}
 qsort(v,15,sizeof(double),cmp);printf("floor %d+%d %ld: %.1f GB/s of data\n",k,m,len,v[7]);}
