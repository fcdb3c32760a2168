/*
 * sgemm_tc.cuh - the tensor-core SGEMM path: FP32-accurate (split TF32,
 * three products) and TF32 (one product).
 *
 * The launchers (sgemm_tc.cu: gk_cuda_sgemm_3xtf32, gk_cuda_sgemm_tf32) first
 * split the operands, once, into planes of TF32 values (sgemm_tc_split.cu):
 *
 *   x = hi + lo (+ a remainder of at most u_t^2 |x|), hi = rna_tf32(x)
 *   (nearest, ties away: cvt.rna.tf32.f32), lo = rn_tf32(x - hi), u_t =
 *   2^-11 the unit roundoff of TF32;
 *
 * A as planes of mp x kp (row i holds row i of op(A), K contiguous), B as
 * planes of np x kp (row j holds column j of op(B), K contiguous): both
 * operands K-major, zero-padded to the multiples below, so that a main
 * kernel reads only aligned, full tiles and needs no edge tests on its
 * loads. The main kernels (one per technique and GPU generation:
 * sgemm_tc_mma.cu on mma.sync for sm_80 and later, sgemm_tc_wgmma_sm90a.cu
 * on warpgroup MMA for sm_90a) take a gk_tc_problem and compute
 *
 *   products == 1:  acc = Ahi Bhi^T
 *   products == 3:  acc = Ahi Bhi^T + (Ahi Blo^T + Alo Bhi^T)
 *
 * over the K range of their split, then either C = alpha acc + beta C
 * (splits == 1; beta == 0 does not read C; only the m x n corner is
 * stored) or the raw acc of split z into partial + z m n (the m x n
 * corner, row-major, row stride n: the layout of sgemm_splitk.cuh), which
 * the launcher sums in split order (gk_sgemm_splitk_reduce) and scales.
 *
 * Accumulation of the three products (measured on an H100): the tensor
 * cores truncate when they add into their FP32 accumulator, so one
 * accumulator for all of K (or a second one for the cross products)
 * drifts by about K u: 2 to 100 times the error of an FP32 FFMA loop at
 * K = 256 to 16384. Every main kernel promotes instead: the products of a
 * short run of K go into an accumulator started from zero, which is then
 * added to an FP32 register sum with ordinary round-to-nearest adds; the
 * error is then below the FFMA loop's for K >= 256 and about flat in K.
 * sgemm_tc_mma.cu promotes every 16 of K (hi*hi first; every 32 in that
 * order was up to 1.3 times FFMA at K = 256); sgemm_tc_wgmma_sm90a.cu every
 * stage of 32 of K with the eight cross products first, then hi*hi (0.2
 * to 0.6 times FFMA at K >= 256).
 */
#ifndef GK_SGEMM_TC_CUH
#define GK_SGEMM_TC_CUH

#include "../core/cuda_check.cuh"

/* The planes' padding: rows of A and B to multiples of GK_TC_PAD_MN, K to
 * a multiple of GK_TC_PAD_K. Every main kernel's tile divides these. */
#define GK_TC_PAD_MN 128
#define GK_TC_PAD_K 32

typedef struct gk_tc_problem {
	int64_t m, n, k;        /* the product's true sizes (>= 1) */
	int64_t mp, np, kp;     /* the planes' padded sizes */
	const float *a_hi, *a_lo; /* mp x kp each, row stride kp; a_lo NULL when products == 1 */
	const float *b_hi, *b_lo; /* np x kp each, row stride kp; b_lo NULL when products == 1 */
	int products;           /* 1 (TF32) or 3 (FP32-accurate) */
	int splits;             /* split-K count >= 1; each split covers k_per_split of kp */
	int64_t k_per_split;    /* a multiple of GK_TC_PAD_K; the last split may be shorter */
	float alpha, beta;      /* used when splits == 1 */
	float *c; int64_t rs_c; /* C row-major, m x n, when splits == 1 */
	float *partial;         /* splits > 1: split z stores its m x n corner at partial + z*m*n,
	                         * row stride n (not mp x np: gk_sgemm_splitk_reduce's layout) */
	/* Power-of-two scales (NULL: none). The planes hold row i of op(A)
	 * times 2^-a_exp[i] and column j of op(B) times 2^-b_exp[j] (exact).
	 * The launchers set them in both modes, chosen on the device from one
	 * read pass of row and column maxima (sgemm_tc_split.cu): exponents
	 * <= 0, a row or column whose largest magnitude is below 1 scaled up
	 * toward [1, 2), any other left as it is (scaling one down would push
	 * its small entries toward underflow); and scaled up less where the
	 * other operand is large, so that every scaled row times any column
	 * (K products) stays below 2^120 in the FP32 accumulators. This keeps
	 * the entries and small parts of rows and columns near FP32's
	 * underflow in the normal range (the tensor cores flush subnormal
	 * inputs). A main kernel takes acc(i, j) to ldexpf(acc(i, j), a_exp[i]
	 * + b_exp[j]) (one rounding, at most; exact unless the result is
	 * subnormal) before alpha/beta, and before storing a partial. Arrays of
	 * mp and np ints (0 beyond m and n). */
	const int *a_exp, *b_exp;
	cudaStream_t stream;
	int sm_count;
} gk_tc_problem;

/* Split an operand into TF32 planes (sgemm_tc_split.cu). The source is
 * rows x k with element (r, kk) at x[r * rs + kk * cs] (any strides, the
 * canonical form's); the planes are rows_p x kp, zero beyond rows x k.
 * lo may be NULL (TF32 mode: only hi). Non-finite x: hi = x (a NaN made
 * quiet), lo = 0; a finite x whose rounding to TF32 would overflow rounds
 * toward zero.
 * Asynchronous on `stream`. */
gk_status gk_tc_split(const float *x, int64_t rows, int64_t k, int64_t rs, int64_t cs, float *hi,
                      float *lo, int64_t rows_p, int64_t kp, cudaStream_t stream);

/* The main kernels: one problem on the current device, asynchronous on
 * pr->stream. GK_ERR_UNSUPPORTED when the kernel cannot run on this
 * device (the launcher then tries the next). */
gk_status gk_tc_run_mma(const gk_tc_problem *pr);
gk_status gk_tc_run_wgmma_sm90a(const gk_tc_problem *pr);

/* For tests of the launchers (sgemm_tc.cu): any workspace request above
 * `bytes` is treated as failed, as if the device had no room (bytes < 0:
 * no limit, the default). Not thread-safe; tests only. */
void gk_tc_set_workspace_limit(int64_t bytes);

#endif
