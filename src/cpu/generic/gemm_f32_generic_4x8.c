/*
 * gemm_f32_generic_4x8.c - the portable SGEMM microkernel, 4 x 8.
 *
 *   void gk_gemm_f32_generic_4x8(int64_t k, float alpha, const float *a,
 *                                const float *b, float beta, float *c, int64_t rs_c);
 *
 * C(4 x 8) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f32_fn (kernel_api.h): a[l * 4 + i], b[l * 8 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Plain C that compilers vectorize with whatever
 * the baseline ISA offers: the kernel of CPUs without AVX2, and the shape
 * every table starts from.
 */
#include "kernel_api.h"
#include "kernels_generic.h"

enum { MR = GK_GEMM_F32_GENERIC_MR, NR = GK_GEMM_F32_GENERIC_NR };

void gk_gemm_f32_generic_4x8(int64_t k, float alpha, const float *restrict a,
                             const float *restrict b, float beta, float *restrict c,
                             int64_t rs_c)
{
	float acc[MR][NR] = {{0}};
	for (int64_t l = 0; l < k; l++) {
		const float *al = a + l * MR, *bl = b + l * NR;
		for (int i = 0; i < MR; i++)
			for (int j = 0; j < NR; j++)
				acc[i][j] += al[i] * bl[j];
	}
	for (int i = 0; i < MR; i++) {
		float *ci = c + i * rs_c;
		if (beta == 0.0f)
			for (int j = 0; j < NR; j++)
				ci[j] = alpha * acc[i][j];
		else
			for (int j = 0; j < NR; j++)
				ci[j] = alpha * acc[i][j] + beta * ci[j];
	}
}
