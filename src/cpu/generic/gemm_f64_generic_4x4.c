/*
 * gemm_f64_generic_4x4.c - the portable DGEMM microkernel, 4 x 4.
 *
 *   void gk_gemm_f64_generic_4x4(int64_t k, double alpha, const double *a,
 *                                const double *b, double beta, double *c, int64_t rs_c);
 *
 * C(4 x 4) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f64_fn (kernel_api.h): a[l * 4 + i], b[l * 4 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Plain C that compilers vectorize with whatever
 * the baseline ISA offers: the kernel of CPUs without AVX2, and the shape
 * every table starts from.
 */
#include "kernel_api.h"
#include "kernels_generic.h"

enum { MR = GK_GEMM_F64_GENERIC_MR, NR = GK_GEMM_F64_GENERIC_NR };

void gk_gemm_f64_generic_4x4(int64_t k, double alpha, const double *restrict a,
                             const double *restrict b, double beta, double *restrict c,
                             int64_t rs_c)
{
	double acc[MR][NR] = {{0}};
	for (int64_t l = 0; l < k; l++) {
		const double *al = a + l * MR, *bl = b + l * NR;
		for (int i = 0; i < MR; i++)
			for (int j = 0; j < NR; j++)
				acc[i][j] += al[i] * bl[j];
	}
	for (int i = 0; i < MR; i++) {
		double *ci = c + i * rs_c;
		if (beta == 0.0)
			for (int j = 0; j < NR; j++)
				ci[j] = alpha * acc[i][j];
		else
			for (int j = 0; j < NR; j++)
				ci[j] = alpha * acc[i][j] + beta * ci[j];
	}
}
