/*
 * gemm_u_f32_generic_4x8.c - the portable unpacked SGEMM microkernel, up to
 * 4 x 8.
 *
 *   void gk_gemm_u_f32_generic_4x8(int64_t mv, int64_t nv, int64_t k, float alpha,
 *                                  const float *a, int64_t rs_a, int64_t cs_a,
 *                                  const float *b, int64_t rs_b, float beta,
 *                                  float *c, int64_t rs_c);
 *
 * C(mv x nv) := beta * C + alpha * A * B, the contract of gk_gemm_u_f32_fn
 * (kernel_api.h): A(i, l) at a[i * rs_a + l * cs_a], B(l, j) at
 * b[l * rs_b + j], 1 <= mv <= 4, 1 <= nv <= 8. Plain C, the operations of
 * gemm_f32_generic_4x8.c in the same order.
 */
#include "kernel_api.h"
#include "kernels_generic.h"

enum { MR = GK_GEMM_U_F32_GENERIC_MR, NR = GK_GEMM_U_F32_GENERIC_NR };

void gk_gemm_u_f32_generic_4x8(int64_t mv, int64_t nv, int64_t k, float alpha,
                               const float *restrict a, int64_t rs_a, int64_t cs_a,
                               const float *restrict b, int64_t rs_b, float beta,
                               float *restrict c, int64_t rs_c)
{
	float acc[MR][NR] = {{0}};
	for (int64_t l = 0; l < k; l++) {
		const float *al = a + l * cs_a, *bl = b + l * rs_b;
		for (int64_t i = 0; i < mv; i++)
			for (int64_t j = 0; j < nv; j++)
				acc[i][j] += al[i * rs_a] * bl[j];
	}
	for (int64_t i = 0; i < mv; i++) {
		float *ci = c + i * rs_c;
		if (beta == 0.0f)
			for (int64_t j = 0; j < nv; j++)
				ci[j] = alpha * acc[i][j];
		else
			for (int64_t j = 0; j < nv; j++)
				ci[j] = alpha * acc[i][j] + beta * ci[j];
	}
}
