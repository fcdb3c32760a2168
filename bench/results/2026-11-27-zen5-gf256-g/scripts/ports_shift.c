#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define N 100000000L
#define T(name, body) { long n=N; double t0=now(); __asm__ volatile("1:\n" ".rept 8\n" body ".endr\n dec %0\n jnz 1b":"+r"(n)::"xmm2","xmm3","xmm4","xmm5","xmm6","xmm7"); double t=now()-t0; printf("%-28s %.2f cycles per group\n", name, t*3.26e9/(8.0*N)); }
int main(){
 T("2 shuf + 1 srl", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpsrlw $4,%%ymm1,%%ymm4\n")
 T("2 shuf + 2 srl", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpsrlw $4,%%ymm1,%%ymm4\n vpsrlw $4,%%ymm1,%%ymm5\n")
 T("4 srl", "vpsrlw $4,%%ymm1,%%ymm2\n vpsrlw $4,%%ymm1,%%ymm3\n vpsrlw $4,%%ymm1,%%ymm4\n vpsrlw $4,%%ymm1,%%ymm5\n")
 T("2 shuf + 2 and", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpand %%ymm0,%%ymm1,%%ymm4\n vpand %%ymm0,%%ymm1,%%ymm5\n")
 T("2 shuf + 4 xor", "vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpxor %%ymm0,%%ymm1,%%ymm4\n vpxor %%ymm0,%%ymm1,%%ymm5\n vpxor %%ymm0,%%ymm1,%%ymm6\n vpxor %%ymm0,%%ymm1,%%ymm7\n")
 T("4 add", "vpaddb %%ymm0,%%ymm1,%%ymm2\n vpaddb %%ymm0,%%ymm1,%%ymm3\n vpaddb %%ymm0,%%ymm1,%%ymm4\n vpaddb %%ymm0,%%ymm1,%%ymm5\n")
 T("4 srl xmm", "vpsrlw $4,%%xmm1,%%xmm2\n vpsrlw $4,%%xmm1,%%xmm3\n vpsrlw $4,%%xmm1,%%xmm4\n vpsrlw $4,%%xmm1,%%xmm5\n")
}
