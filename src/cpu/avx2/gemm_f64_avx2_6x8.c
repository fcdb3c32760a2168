/*
 * gemm_f64_avx2_6x8.c - the AVX2 DGEMM microkernel, 6 x 8.
 *
 *   void gk_gemm_f64_avx2_6x8(int64_t k, double alpha, const double *a,
 *                            const double *b, double beta, double *c, int64_t rs_c);
 *
 * C(6 x 8) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f64_fn (kernel_api.h): a[l * 6 + i], b[l * 8 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Needs AVX2 and FMA. Panels 32-byte aligned run
 * fastest; any double alignment is correct.
 *
 * Register budget (16 ymm): C is 6 rows x 2 vectors = 12 accumulators
 * (ymm0-11, wherever the compiler puts them), a row of the B sliver takes
 * ymm12-13 and the broadcast A entries ymm14-15: all 16. Per step of k: 12
 * FMAs against 2 vector loads and 6 broadcasts; 12 independent chains cover
 * the FMA latency of two pipes.
 *
 * The k loop is written in assembly: with all 16 registers taken, the
 * compiler (gcc 12) spilled an accumulator inside the loop and copied
 * registers around, which cost several percent. The A sliver streams from
 * L2 and the B sliver stays in L1 across the A slivers of a block; the
 * hardware prefetchers follow both (requests of A a few steps ahead, and a
 * variant taking the driver's list of lines to request, measured no faster
 * on Zen 3). The arithmetic is the same as the unpacked kernel's
 * (gemm_u_f64_avx2_6x8.c): each element one FMA chain in the order of k,
 * then alpha, then beta; the same bits.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

enum { MR = GK_GEMM_F64_AVX2_MR, NR = GK_GEMM_F64_AVX2_NR };

/* One step of k, A at a + oa bytes and B at b + ob bytes. */
#define STEP(oa, ob)                                                  \
	"vmovupd " #ob "(%[b]), %%ymm12\n\t"                          \
	"vmovupd " #ob "+32(%[b]), %%ymm13\n\t"                       \
	"vbroadcastsd " #oa "(%[a]), %%ymm14\n\t"                     \
	"vbroadcastsd " #oa "+8(%[a]), %%ymm15\n\t"                   \
	"vfmadd231pd %%ymm12, %%ymm14, %[c00]\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm14, %[c01]\n\t"                    \
	"vfmadd231pd %%ymm12, %%ymm15, %[c10]\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %[c11]\n\t"                    \
	"vbroadcastsd " #oa "+16(%[a]), %%ymm14\n\t"                  \
	"vbroadcastsd " #oa "+24(%[a]), %%ymm15\n\t"                  \
	"vfmadd231pd %%ymm12, %%ymm14, %[c20]\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm14, %[c21]\n\t"                    \
	"vfmadd231pd %%ymm12, %%ymm15, %[c30]\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %[c31]\n\t"                    \
	"vbroadcastsd " #oa "+32(%[a]), %%ymm14\n\t"                  \
	"vbroadcastsd " #oa "+40(%[a]), %%ymm15\n\t"                  \
	"vfmadd231pd %%ymm12, %%ymm14, %[c40]\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm14, %[c41]\n\t"                    \
	"vfmadd231pd %%ymm12, %%ymm15, %[c50]\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %[c51]\n\t"

void gk_gemm_f64_avx2_6x8(int64_t k, double alpha, const double *restrict a,
                          const double *restrict b, double beta, double *restrict c,
                          int64_t rs_c)
{
	/* C is needed only at the end: start fetching it now, under the k loop.
	 * A row of 8 doubles spans one or two cache lines. */
	for (int i = 0; i < MR; i++) {
		_mm_prefetch((const char *)(c + i * rs_c), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + NR - 1), _MM_HINT_T0);
	}
	__m256d c00 = _mm256_setzero_pd(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
	__m256d c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
	__asm__ volatile(
		"mov %[k], %%r11\n\t"
		"shr $2, %%r11\n\t"
		"jz 2f\n\t"
		".p2align 5\n"
		"1:\n\t"
		STEP(0, 0)
		STEP(48, 64)
		STEP(96, 128)
		STEP(144, 192)
		"add $192, %[a]\n\t"
		"add $256, %[b]\n\t"
		"dec %%r11\n\t"
		"jnz 1b\n"
		"2:\n\t"
		"and $3, %[k]\n\t"
		"jz 4f\n"
		"3:\n\t"
		STEP(0, 0)
		"add $48, %[a]\n\t"
		"add $64, %[b]\n\t"
		"dec %[k]\n\t"
		"jnz 3b\n"
		"4:\n\t"
		: [a] "+r"(a), [b] "+r"(b), [k] "+r"(k),
		  [c00] "+x"(c00), [c01] "+x"(c01), [c10] "+x"(c10), [c11] "+x"(c11),
		  [c20] "+x"(c20), [c21] "+x"(c21), [c30] "+x"(c30), [c31] "+x"(c31),
		  [c40] "+x"(c40), [c41] "+x"(c41), [c50] "+x"(c50), [c51] "+x"(c51)
		:
		: "r11", "xmm12", "xmm13", "xmm14", "xmm15", "cc", "memory");

	const __m256d acc[MR][2] = {{c00, c01}, {c10, c11}, {c20, c21},
	                            {c30, c31}, {c40, c41}, {c50, c51}};
	const __m256d va = _mm256_set1_pd(alpha);
	if (beta == 0.0) {
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			double *ci = c + i * rs_c;
			_mm256_storeu_pd(ci, _mm256_mul_pd(va, acc[i][0]));
			_mm256_storeu_pd(ci + 4, _mm256_mul_pd(va, acc[i][1]));
		}
	} else {
		const __m256d vb = _mm256_set1_pd(beta);
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			double *ci = c + i * rs_c;
			_mm256_storeu_pd(ci, _mm256_fmadd_pd(vb, _mm256_loadu_pd(ci), _mm256_mul_pd(va, acc[i][0])));
			_mm256_storeu_pd(ci + 4,
			                 _mm256_fmadd_pd(vb, _mm256_loadu_pd(ci + 4), _mm256_mul_pd(va, acc[i][1])));
		}
	}
}
