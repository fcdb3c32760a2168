#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(){ for(int r=0;r<5;r++){ long n=1000000000; long x=0; double t0=now();
 __asm__ volatile("1: add $1,%0\n add $1,%0\n add $1,%0\n add $1,%0\n sub $4,%1\n jnz 1b" : "+r"(x), "+r"(n));
 double t=now()-t0; printf("%.2f GHz\n", 1e9/t);} }
