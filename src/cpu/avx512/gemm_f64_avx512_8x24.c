/*
 * gemm_f64_avx512_8x24.c - the AVX-512 DGEMM microkernel, 8 x 24.
 *
 *   void gk_gemm_f64_avx512_8x24(int64_t k, double alpha, const double *a,
 *                                const double *b, double beta, double *c, int64_t rs_c);
 *
 * C(8 x 24) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f64_fn (kernel_api.h): a[l * 8 + i], b[l * 24 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Needs AVX-512F. Panels 64-byte aligned run
 * fastest; any double alignment is correct.
 *
 * Register budget (32 zmm): C is 8 rows x 3 vectors = 24 accumulators, a
 * row of the B sliver takes 3 more and the broadcast A entry one: 28 of 32.
 * Per step of k: 24 FMAs against 3 vector loads and 8 broadcasts of one
 * cache line of A. Eight rows rather than fourteen: with a row stride of a
 * power of two, the rows of a C tile all fall in the same L1 sets, and
 * eight of them fit the ways of a set. Measured several percent faster than
 * a 14 x 16 tile on large DGEMMs.
 *
 * gk_gemm_pf_f64_avx512_8x24 is the same kernel (the same bits) that also
 * requests a list of cache lines into L2, a few per step of four, spread
 * over its k loop (gk_gemm_pf_f64_fn in kernel_api.h).
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"
#include "prefetch_asm.h"

enum { MR = GK_GEMM_F64_AVX512_MR, NR = GK_GEMM_F64_AVX512_NR };

/* One step of k, A at a + oa bytes and B at b + ob bytes: row l of the B
 * sliver (zmm29-31) times column l of the A sliver, one entry at a time
 * (zmm28); row i of the C tile accumulates in zmm(3i), zmm(3i+1), zmm(3i+2). */
#define STEP(oa, ob) \
	"vmovupd " #ob "(%[b]), %%zmm29\n\t" \
	"vmovupd " #ob "+64(%[b]), %%zmm30\n\t" \
	"vmovupd " #ob "+128(%[b]), %%zmm31\n\t" \
	"vbroadcastsd " #oa "+0(%[a]), %%zmm28\n\t" \
	"vfmadd231pd %%zmm29, %%zmm28, %%zmm0\n\t" \
	"vfmadd231pd %%zmm30, %%zmm28, %%zmm1\n\t" \
	"vfmadd231pd %%zmm31, %%zmm28, %%zmm2\n\t" \
	"vbroadcastsd " #oa "+8(%[a]), %%zmm28\n\t" \
	"vfmadd231pd %%zmm29, %%zmm28, %%zmm3\n\t" \
	"vfmadd231pd %%zmm30, %%zmm28, %%zmm4\n\t" \
	"vfmadd231pd %%zmm31, %%zmm28, %%zmm5\n\t" \
	"vbroadcastsd " #oa "+16(%[a]), %%zmm28\n\t" \
	"vfmadd231pd %%zmm29, %%zmm28, %%zmm6\n\t" \
	"vfmadd231pd %%zmm30, %%zmm28, %%zmm7\n\t" \
	"vfmadd231pd %%zmm31, %%zmm28, %%zmm8\n\t" \
	"vbroadcastsd " #oa "+24(%[a]), %%zmm28\n\t" \
	"vfmadd231pd %%zmm29, %%zmm28, %%zmm9\n\t" \
	"vfmadd231pd %%zmm30, %%zmm28, %%zmm10\n\t" \
	"vfmadd231pd %%zmm31, %%zmm28, %%zmm11\n\t" \
	"vbroadcastsd " #oa "+32(%[a]), %%zmm28\n\t" \
	"vfmadd231pd %%zmm29, %%zmm28, %%zmm12\n\t" \
	"vfmadd231pd %%zmm30, %%zmm28, %%zmm13\n\t" \
	"vfmadd231pd %%zmm31, %%zmm28, %%zmm14\n\t" \
	"vbroadcastsd " #oa "+40(%[a]), %%zmm28\n\t" \
	"vfmadd231pd %%zmm29, %%zmm28, %%zmm15\n\t" \
	"vfmadd231pd %%zmm30, %%zmm28, %%zmm16\n\t" \
	"vfmadd231pd %%zmm31, %%zmm28, %%zmm17\n\t" \
	"vbroadcastsd " #oa "+48(%[a]), %%zmm28\n\t" \
	"vfmadd231pd %%zmm29, %%zmm28, %%zmm18\n\t" \
	"vfmadd231pd %%zmm30, %%zmm28, %%zmm19\n\t" \
	"vfmadd231pd %%zmm31, %%zmm28, %%zmm20\n\t" \
	"vbroadcastsd " #oa "+56(%[a]), %%zmm28\n\t" \
	"vfmadd231pd %%zmm29, %%zmm28, %%zmm21\n\t" \
	"vfmadd231pd %%zmm30, %%zmm28, %%zmm22\n\t" \
	"vfmadd231pd %%zmm31, %%zmm28, %%zmm23\n\t"

/* The end of the kernel: C updated from the accumulators, row i in
 * zmm(3i) .. zmm(3i+2), 64 bytes apart, rows ldc bytes apart:
 *   C := alpha acc              when beta == 0 (C is not read)
 *   C := beta C + alpha acc     otherwise (a NaN beta too), one FMA: the
 *                               bits of alpha * acc + beta * C in C
 * alpha in zmm28, beta in zmm29; local labels 11 and 12. */
#define CV0(r, off) \
	"vmulpd %%zmm28, %%zmm" #r ", %%zmm" #r "\n\t" \
	"vmovupd %%zmm" #r ", " #off "(%[c])\n\t"
#define CVB(r, off) \
	"vmulpd %%zmm28, %%zmm" #r ", %%zmm" #r "\n\t" \
	"vfmadd231pd " #off "(%[c]), %%zmm29, %%zmm" #r "\n\t" \
	"vmovupd %%zmm" #r ", " #off "(%[c])\n\t"
#define ROW(V, r0, r1, r2) V(r0, 0) V(r1, 64) V(r2, 128)
#define NEXT "add %[ldc], %[c]\n\t"
#define ROWS(V) \
	ROW(V, 0, 1, 2) NEXT ROW(V, 3, 4, 5) NEXT ROW(V, 6, 7, 8) NEXT ROW(V, 9, 10, 11) NEXT \
	ROW(V, 12, 13, 14) NEXT ROW(V, 15, 16, 17) NEXT ROW(V, 18, 19, 20) NEXT ROW(V, 21, 22, 23)
#define C_UPDATE \
	"vbroadcastsd %[alpha], %%zmm28\n\t" \
	"vxorpd %%xmm30, %%xmm30, %%xmm30\n\t" \
	"vucomisd %[beta], %%xmm30\n\t" \
	"jne 11f\n\t" \
	"jp 11f\n\t" \
	ROWS(CV0) \
	"jmp 12f\n" \
	"11:\n\t" \
	"vbroadcastsd %[beta], %%zmm29\n\t" \
	ROWS(CVB) \
	"12:\n\t"

/* The kernel, with the lines pf[0 .. npf), then the nrun lines from run
 * on, requested along the way (none in the plain entry point). All of it,
 * from zeroing the accumulators to storing C, is in assembly: in C, gcc 12
 * rotated the 24 accumulators through other registers and spilled two of
 * them to the stack in every unrolled iteration; and C is updated from the registers (alpha, then
 * beta C in one FMA, the same bits as alpha * acc + beta * C in C), not
 * through a buffer on the stack, which cost a few percent of a shallow
 * product (k = 64). */
static inline __attribute__((always_inline)) void kernel(int64_t k, double alpha,
                                                         const double *restrict a,
                                                         const double *restrict b, double beta,
                                                         double *restrict c, int64_t rs_c,
                                                         const void *const *pf, int64_t npf,
                                                         const void *run, int64_t nrun)
{
	/* C is needed only at the end: start fetching it now, under the k loop.
	 * A row of 24 doubles spans three or four cache lines. */
	for (int i = 0; i < MR; i++) {
		_mm_prefetch((const char *)(c + i * rs_c), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + 8), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + 16), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + NR - 1), _MM_HINT_T0);
	}
	/* At most per lines each step of four, so that the requests keep a
	 * few misses in flight all along instead of stalling on a full miss
	 * queue in one burst. */
	const int64_t steps = k / 4, lines = npf + nrun;
	const int64_t per = steps > 0 ? (lines + steps - 1) / steps : 0;
	const void *const *pfend = pf + npf;
	const char *rp = (const char *)run, *runend = rp + 64 * nrun;
	int64_t k4 = steps, k1 = k % 4;
	char *cp = (char *)c;
	const int64_t ldc = rs_c * (int64_t)sizeof(double);
	__asm__ volatile(
		"vpxord %%zmm0, %%zmm0, %%zmm0\n\t"
		"vpxord %%zmm1, %%zmm1, %%zmm1\n\t"
		"vpxord %%zmm2, %%zmm2, %%zmm2\n\t"
		"vpxord %%zmm3, %%zmm3, %%zmm3\n\t"
		"vpxord %%zmm4, %%zmm4, %%zmm4\n\t"
		"vpxord %%zmm5, %%zmm5, %%zmm5\n\t"
		"vpxord %%zmm6, %%zmm6, %%zmm6\n\t"
		"vpxord %%zmm7, %%zmm7, %%zmm7\n\t"
		"vpxord %%zmm8, %%zmm8, %%zmm8\n\t"
		"vpxord %%zmm9, %%zmm9, %%zmm9\n\t"
		"vpxord %%zmm10, %%zmm10, %%zmm10\n\t"
		"vpxord %%zmm11, %%zmm11, %%zmm11\n\t"
		"vpxord %%zmm12, %%zmm12, %%zmm12\n\t"
		"vpxord %%zmm13, %%zmm13, %%zmm13\n\t"
		"vpxord %%zmm14, %%zmm14, %%zmm14\n\t"
		"vpxord %%zmm15, %%zmm15, %%zmm15\n\t"
		"vpxord %%zmm16, %%zmm16, %%zmm16\n\t"
		"vpxord %%zmm17, %%zmm17, %%zmm17\n\t"
		"vpxord %%zmm18, %%zmm18, %%zmm18\n\t"
		"vpxord %%zmm19, %%zmm19, %%zmm19\n\t"
		"vpxord %%zmm20, %%zmm20, %%zmm20\n\t"
		"vpxord %%zmm21, %%zmm21, %%zmm21\n\t"
		"vpxord %%zmm22, %%zmm22, %%zmm22\n\t"
		"vpxord %%zmm23, %%zmm23, %%zmm23\n\t"
		"test %[k4], %[k4]\n\t"
		"jz 2f\n\t"
		".p2align 5\n"
		"1:\n\t"
		GK_ASM_PREFETCH_SOME
		STEP(0, 0)
		STEP(64, 192)
		STEP(128, 384)
		STEP(192, 576)
		"add $256, %[a]\n\t"
		"add $768, %[b]\n\t"
		"dec %[k4]\n\t"
		"jnz 1b\n"
		"2:\n\t"
		"test %[k1], %[k1]\n\t"
		"jz 4f\n"
		"3:\n\t"
		STEP(0, 0)
		"add $64, %[a]\n\t"
		"add $192, %[b]\n\t"
		"dec %[k1]\n\t"
		"jnz 3b\n"
		"4:\n\t"
		GK_ASM_PREFETCH_REST
		C_UPDATE
		: [a] "+r"(a), [b] "+r"(b), [k4] "+r"(k4), [k1] "+r"(k1), [pf] "+r"(pf), [c] "+r"(cp),
		  [run] "+r"(rp)
		: [per] "r"(per), [pfend] "r"(pfend), [runend] "r"(runend), [ldc] "r"(ldc),
		  [alpha] "m"(alpha), [beta] "m"(beta)
		: "rax", "r10", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
		  "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17",
		  "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm28", "xmm29", "xmm30",
		  "xmm31", "cc", "memory");
}

void gk_gemm_f64_avx512_8x24(int64_t k, double alpha, const double *restrict a,
                             const double *restrict b, double beta, double *restrict c,
                             int64_t rs_c)
{
	kernel(k, alpha, a, b, beta, c, rs_c, NULL, 0, NULL, 0);
}

void gk_gemm_pf_f64_avx512_8x24(int64_t k, double alpha, const double *restrict a,
                                const double *restrict b, double beta, double *restrict c,
                                int64_t rs_c, const void *const *pf, int64_t npf,
                                const void *run, int64_t nrun)
{
	kernel(k, alpha, a, b, beta, c, rs_c, pf, npf, run, nrun);
}
