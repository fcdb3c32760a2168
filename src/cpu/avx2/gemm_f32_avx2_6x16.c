/*
 * gemm_f32_avx2_6x16.c - the AVX2 SGEMM microkernel, 6 x 16.
 *
 *   void gk_gemm_f32_avx2_6x16(int64_t k, float alpha, const float *a,
 *                             const float *b, float beta, float *c, int64_t rs_c);
 *
 * C(6 x 16) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f32_fn (kernel_api.h): a[l * 6 + i], b[l * 16 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Needs AVX2 and FMA. Panels 32-byte aligned run
 * fastest; any float alignment is correct.
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
 * (gemm_u_f32_avx2_6x16.c): each element one FMA chain in the order of k,
 * then alpha, then beta; the same bits.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

enum { MR = GK_GEMM_F32_AVX2_MR, NR = GK_GEMM_F32_AVX2_NR };

/* One step of k, A at a + oa bytes and B at b + ob bytes. */
#define STEP(oa, ob)                                                  \
	"vmovups " #ob "(%[b]), %%ymm12\n\t"                          \
	"vmovups " #ob "+32(%[b]), %%ymm13\n\t"                       \
	"vbroadcastss " #oa "(%[a]), %%ymm14\n\t"                     \
	"vbroadcastss " #oa "+4(%[a]), %%ymm15\n\t"                   \
	"vfmadd231ps %%ymm12, %%ymm14, %[c00]\n\t"                    \
	"vfmadd231ps %%ymm13, %%ymm14, %[c01]\n\t"                    \
	"vfmadd231ps %%ymm12, %%ymm15, %[c10]\n\t"                    \
	"vfmadd231ps %%ymm13, %%ymm15, %[c11]\n\t"                    \
	"vbroadcastss " #oa "+8(%[a]), %%ymm14\n\t"                   \
	"vbroadcastss " #oa "+12(%[a]), %%ymm15\n\t"                  \
	"vfmadd231ps %%ymm12, %%ymm14, %[c20]\n\t"                    \
	"vfmadd231ps %%ymm13, %%ymm14, %[c21]\n\t"                    \
	"vfmadd231ps %%ymm12, %%ymm15, %[c30]\n\t"                    \
	"vfmadd231ps %%ymm13, %%ymm15, %[c31]\n\t"                    \
	"vbroadcastss " #oa "+16(%[a]), %%ymm14\n\t"                  \
	"vbroadcastss " #oa "+20(%[a]), %%ymm15\n\t"                  \
	"vfmadd231ps %%ymm12, %%ymm14, %[c40]\n\t"                    \
	"vfmadd231ps %%ymm13, %%ymm14, %[c41]\n\t"                    \
	"vfmadd231ps %%ymm12, %%ymm15, %[c50]\n\t"                    \
	"vfmadd231ps %%ymm13, %%ymm15, %[c51]\n\t"

void gk_gemm_f32_avx2_6x16(int64_t k, float alpha, const float *restrict a,
                           const float *restrict b, float beta, float *restrict c,
                           int64_t rs_c)
{
	/* C is needed only at the end: start fetching it now, under the k loop.
	 * A row of 16 floats spans one or two cache lines. */
	for (int i = 0; i < MR; i++) {
		_mm_prefetch((const char *)(c + i * rs_c), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + NR - 1), _MM_HINT_T0);
	}
	__m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
	__m256 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
	__asm__ volatile(
		"mov %[k], %%r11\n\t"
		"shr $2, %%r11\n\t"
		"jz 2f\n\t"
		".p2align 5\n"
		"1:\n\t"
		STEP(0, 0)
		STEP(24, 64)
		STEP(48, 128)
		STEP(72, 192)
		"add $96, %[a]\n\t"
		"add $256, %[b]\n\t"
		"dec %%r11\n\t"
		"jnz 1b\n"
		"2:\n\t"
		"and $3, %[k]\n\t"
		"jz 4f\n"
		"3:\n\t"
		STEP(0, 0)
		"add $24, %[a]\n\t"
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

	const __m256 acc[MR][2] = {{c00, c01}, {c10, c11}, {c20, c21},
	                           {c30, c31}, {c40, c41}, {c50, c51}};
	const __m256 va = _mm256_set1_ps(alpha);
	if (beta == 0.0f) {
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			float *ci = c + i * rs_c;
			_mm256_storeu_ps(ci, _mm256_mul_ps(va, acc[i][0]));
			_mm256_storeu_ps(ci + 8, _mm256_mul_ps(va, acc[i][1]));
		}
	} else {
		const __m256 vb = _mm256_set1_ps(beta);
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			float *ci = c + i * rs_c;
			_mm256_storeu_ps(ci, _mm256_fmadd_ps(vb, _mm256_loadu_ps(ci), _mm256_mul_ps(va, acc[i][0])));
			_mm256_storeu_ps(ci + 8,
			                 _mm256_fmadd_ps(vb, _mm256_loadu_ps(ci + 8), _mm256_mul_ps(va, acc[i][1])));
		}
	}
}
