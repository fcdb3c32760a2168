#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
/* mode 0: rows one after another, whole; mode 1: blocks of B bytes, row by row within block, accumulate to an L1 out block; mode 2: interleaved 128B across rows */
__attribute__((target("avx512f,avx512bw"))) static __m512i run(int mode,int k,long len,long B,uint8_t**in,uint8_t*out){
  __m512i s=_mm512_setzero_si512();
  if(mode==0){ for(int j=0;j<k;j++) for(long i=0;i<len;i+=256){ s=_mm512_xor_si512(s,_mm512_load_si512(in[j]+i)); s=_mm512_xor_si512(s,_mm512_load_si512(in[j]+i+64)); s=_mm512_xor_si512(s,_mm512_load_si512(in[j]+i+128)); s=_mm512_xor_si512(s,_mm512_load_si512(in[j]+i+192));} }
  else if(mode==1){ for(long b=0;b<len;b+=B) for(int j=0;j<k;j++) for(long i=b;i<b+B;i+=128){ __m512i o0=_mm512_load_si512(out+i-b), o1=_mm512_load_si512(out+i-b+64); o0=_mm512_xor_si512(o0,_mm512_load_si512(in[j]+i)); o1=_mm512_xor_si512(o1,_mm512_load_si512(in[j]+i+64)); _mm512_store_si512(out+i-b,o0); _mm512_store_si512(out+i-b+64,o1);} }
  else { for(long i=0;i<len;i+=128) for(int j=0;j<k;j++){ s=_mm512_xor_si512(s,_mm512_load_si512(in[j]+i)); s=_mm512_xor_si512(s,_mm512_load_si512(in[j]+i+64)); } }
  return s; }
int main(int argc,char**argv){int mode=atoi(argv[1]),k=atoi(argv[2]);long len=atol(argv[3]),B=argc>4?atol(argv[4]):4096;
 uint8_t*in[64];for(int j=0;j<k;j++){in[j]=aligned_alloc(4096,len);for(long i=0;i<len;i++)in[j][i]=rand();}
 uint8_t*out=aligned_alloc(4096,1<<20);
 double v[15];int calls=(int)(0.01*30e9/((double)k*len))+1; volatile int sink=0;
 for(int q=0;q<15;q++){for(int c=0;c<2;c++)run(mode,k,len,B,in,out);double t0=now();for(int c=0;c<calls;c++){__m512i s=run(mode,k,len,B,in,out); sink+=_mm512_reduce_add_epi32(s);}v[q]=(double)k*len*calls/(now()-t0)/1e9;}
 qsort(v,15,sizeof(double),cmp);printf("mode %d k %d len %ld B %ld: %.1f GB/s read\n",mode,k,len,B,v[7]);}
