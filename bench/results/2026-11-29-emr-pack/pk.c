/* B panel packing alone: gk_pack_f64 (column by column across all slivers)
 * against a grouped order (G slivers at a time, all kc rows), for a kc x n
 * panel of a row-major B (ldb = n), slivers of r columns. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef struct gk_kernels gk_kernels;
const gk_kernels *gk_kernels_by_name(const char *);
void gk_pack_f64(const gk_kernels *, int64_t, int64_t, const double *, int64_t, int64_t, int64_t, double *, int64_t);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static void grouped(int64_t rows, int64_t kc, const double *x, int64_t cs, int64_t r, double *dst, int64_t ps, int64_t G){
  const int64_t full = rows / r;
  for (int64_t s0 = 0; s0 < full; s0 += G) {
    const int64_t s1 = s0 + G < full ? s0 + G : full;
    for (int64_t l = 0; l < kc; l++) {
      const double *xl = x + l * cs;
      if (l + 8 < kc) for (int64_t o = s0*r*8; o < s1*r*8; o += 64) __builtin_prefetch((const char*)(xl + 8*cs) + o);
      for (int64_t s = s0; s < s1; s++) memcpy(dst + s*ps + l*r, xl + s*r, 96);
    }
  }
}
int main(int argc,char**argv){ int64_t n=atol(argv[1]), kc=atol(argv[2]), r=12; int reps=atoi(argv[3]);
  int64_t ps=(r*kc*8+63)/64*8; if((ps*8)%4096==0) ps+=8;
  double *B=aligned_alloc(64, 8*n*(kc*32)), *P=aligned_alloc(64, 8*ps*(n/r+1));
  for(long i=0;i<n*kc*32;i++)B[i]=i; int blk=0;
  const gk_kernels *t=gk_kernels_by_name("avx2");
  for(int it=0;it<3;it++){
  double ta=0,tb[4]={0}; int64_t Gs[4]={4,16,32,64};
  for(int rep=0;rep<reps;rep++){ /* each call a block of B that no call touched for 4 calls or more */
    int64_t off=(blk++%32)*kc*n;
    double t0=now(); gk_pack_f64(t, n/r*r, kc, B+off, 1, n, r, P, ps); ta+=now()-t0;
    for(int g=0;g<4;g++){ off=(blk++%32)*kc*n; t0=now(); grouped(n/r*r, kc, B+off, n, r, P, ps, Gs[g]); tb[g]+=now()-t0; }
  }
  double bytes=(double)n*kc*8*reps;
  printf("n=%ld kc=%ld r=12: library %.2f GB/s | grouped G=4 %.2f, 16 %.2f, 32 %.2f, 64 %.2f GB/s\n",(long)n,(long)kc,bytes/ta*1e-9,bytes/tb[0]*1e-9,bytes/tb[1]*1e-9,bytes/tb[2]*1e-9,bytes/tb[3]*1e-9);}
}
