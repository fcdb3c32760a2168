/*
 * gemm_u_f64_generic_4x4.c - the portable unpacked DGEMM microkernel, up to
 * 4 x 4.
 *
 *   void gk_gemm_u_f64_generic_4x4(int64_t mv, int64_t nv, int64_t k, double alpha,
 *                                  const double *a, int64_t rs_a, int64_t cs_a,
 *                                  const double *b, int64_t rs_b, double beta,
 *                                  double *c, int64_t rs_c);
 *
 * C(mv x nv) := beta * C + alpha * A * B, the contract of gk_gemm_u_f64_fn
 * (kernel_api.h): A(i, l) at a[i * rs_a + l * cs_a], B(l, j) at
 * b[l * rs_b + j], 1 <= mv <= 4, 1 <= nv <= 4. Plain C, the operations of
 * gemm_f64_generic_4x4.c in the same order.
 */
#include "kernel_api.h"
#include "kernels_generic.h"

enum { MR = GK_GEMM_U_F64_GENERIC_MR, NR = GK_GEMM_U_F64_GENERIC_NR };

void gk_gemm_u_f64_generic_4x4(int64_t mv, int64_t nv, int64_t k, double alpha,
                               const double *restrict a, int64_t rs_a, int64_t cs_a,
                               const double *restrict b, int64_t rs_b, double beta,
                               double *restrict c, int64_t rs_c)
{
	double acc[MR][NR] = {{0}};
	for (int64_t l = 0; l < k; l++) {
		const double *al = a + l * cs_a, *bl = b + l * rs_b;
		for (int64_t i = 0; i < mv; i++)
			for (int64_t j = 0; j < nv; j++)
				acc[i][j] += al[i * rs_a] * bl[j];
	}
	for (int64_t i = 0; i < mv; i++) {
		double *ci = c + i * rs_c;
		if (beta == 0.0)
			for (int64_t j = 0; j < nv; j++)
				ci[j] = alpha * acc[i][j];
		else
			for (int64_t j = 0; j < nv; j++)
				ci[j] = alpha * acc[i][j] + beta * ci[j];
	}
}
