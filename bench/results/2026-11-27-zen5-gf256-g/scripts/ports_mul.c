#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define N 100000000L
#define T(name, body) { long n=N; double t0=now(); __asm__ volatile("1:\n" ".rept 8\n" body ".endr\n dec %0\n jnz 1b":"+r"(n)::"xmm2","xmm3","xmm4","xmm5","xmm6","xmm7"); double t=now()-t0; printf("%-28s %.2f cycles per group\n", name, t*3.26e9/(8.0*N)); }
int main(){
 T("4 mulhuw", "vpmulhuw %%ymm0,%%ymm1,%%ymm2\n vpmulhuw %%ymm0,%%ymm1,%%ymm3\n vpmulhuw %%ymm0,%%ymm1,%%ymm4\n vpmulhuw %%ymm0,%%ymm1,%%ymm5\n")
 T("2 shuf + 2 mulhuw", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpmulhuw %%ymm0,%%ymm1,%%ymm4\n vpmulhuw %%ymm0,%%ymm1,%%ymm5\n")
 T("2 shuf + 2 srld", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpsrld $4,%%ymm1,%%ymm4\n vpsrld $4,%%ymm1,%%ymm5\n")
 T("2 shuf + 2 avgb", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpavgb %%ymm0,%%ymm1,%%ymm4\n vpavgb %%ymm0,%%ymm1,%%ymm5\n")
 T("2 shuf + 2 xor + 2 and", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpxor %%ymm0,%%ymm1,%%ymm4\n vpxor %%ymm0,%%ymm1,%%ymm5\n vpand %%ymm0,%%ymm1,%%ymm6\n vpand %%ymm0,%%ymm1,%%ymm7\n")
 T("4 shuf + 4 xor + 1 srl + 2 and", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpxor %%ymm0,%%ymm1,%%ymm4\n vpxor %%ymm0,%%ymm1,%%ymm5\n vpxor %%ymm0,%%ymm1,%%ymm4\n vpxor %%ymm0,%%ymm1,%%ymm5\n vpsrlw $4,%%ymm1,%%ymm6\n vpand %%ymm0,%%ymm1,%%ymm7\n vpand %%ymm0,%%ymm1,%%ymm6\n")
 T("same w/ mulhuw", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpxor %%ymm0,%%ymm1,%%ymm4\n vpxor %%ymm0,%%ymm1,%%ymm5\n vpxor %%ymm0,%%ymm1,%%ymm4\n vpxor %%ymm0,%%ymm1,%%ymm5\n vpmulhuw %%ymm0,%%ymm1,%%ymm6\n vpand %%ymm0,%%ymm1,%%ymm7\n vpand %%ymm0,%%ymm1,%%ymm6\n")
}
