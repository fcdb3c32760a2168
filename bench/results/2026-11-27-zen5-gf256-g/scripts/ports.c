#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define N 100000000L
int main(){
 double t0,t; long n;
 n=N; t0=now(); __asm__ volatile("1:\n" ".rept 8\n vpxor %%ymm0,%%ymm1,%%ymm2\n vpxor %%ymm0,%%ymm1,%%ymm3\n vpxor %%ymm0,%%ymm1,%%ymm4\n vpxor %%ymm0,%%ymm1,%%ymm5\n .endr\n dec %0\n jnz 1b":"+r"(n)::"xmm2","xmm3","xmm4","xmm5"); t=now()-t0; printf("vpxor: %.2f /cycle\n", 32.0*N/t/3.26e9);
 n=N; t0=now(); __asm__ volatile("1:\n" ".rept 8\n vpshufb %%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n vpshufb %%ymm0,%%ymm1,%%ymm4\n vpshufb %%ymm0,%%ymm1,%%ymm5\n .endr\n dec %0\n jnz 1b":"+r"(n)::"xmm2","xmm3","xmm4","xmm5"); t=now()-t0; printf("vpshufb: %.2f /cycle\n", 32.0*N/t/3.26e9);
 n=N; t0=now(); __asm__ volatile("1:\n" ".rept 8\n vpshufb %%ymm0,%%ymm1,%%ymm2\n vpxor %%ymm0,%%ymm1,%%ymm3\n vpshufb %%ymm0,%%ymm1,%%ymm4\n vpxor %%ymm0,%%ymm1,%%ymm5\n .endr\n dec %0\n jnz 1b":"+r"(n)::"xmm2","xmm3","xmm4","xmm5"); t=now()-t0; printf("shuf+xor 1:1: %.2f /cycle\n", 32.0*N/t/3.26e9);
 n=N; t0=now(); __asm__ volatile("1:\n" ".rept 8\n vpshufb %%ymm0,%%ymm1,%%ymm2\n vpxor %%ymm0,%%ymm1,%%ymm3\n vpshufb %%ymm0,%%ymm1,%%ymm4\n vpxor %%ymm0,%%ymm1,%%ymm5\n vpxor %%ymm0,%%ymm1,%%ymm6\n vpsrlw $4,%%ymm1,%%ymm7\n .endr\n dec %0\n jnz 1b":"+r"(n)::"xmm2","xmm3","xmm4","xmm5","xmm6","xmm7"); t=now()-t0; printf("2shuf+3xor+1srl: %.2f /cycle\n", 48.0*N/t/3.26e9);
 n=N; t0=now(); __asm__ volatile("1:\n" ".rept 8\n vperm2i128 $0x11,%%ymm0,%%ymm1,%%ymm2\n vperm2i128 $0,%%ymm0,%%ymm1,%%ymm3\n .endr\n dec %0\n jnz 1b":"+r"(n)::"xmm2","xmm3"); t=now()-t0; printf("vperm2i128: %.2f /cycle\n", 16.0*N/t/3.26e9);
 n=N; t0=now(); __asm__ volatile("1:\n" ".rept 8\n vperm2i128 $0x11,%%ymm0,%%ymm1,%%ymm2\n vpshufb %%ymm0,%%ymm1,%%ymm3\n .endr\n dec %0\n jnz 1b":"+r"(n)::"xmm2","xmm3"); t=now()-t0; printf("vperm2i128+vpshufb: %.2f /cycle\n", 16.0*N/t/3.26e9);
}
