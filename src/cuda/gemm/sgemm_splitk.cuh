/*
 * sgemm_splitk.cuh - the deterministic split-K reduction of the tuned SGEMM
 * (sgemm_splitk.cu): C = alpha * sum_s W[s] + beta * C, the splits summed in
 * a fixed order that depends only on the split count.
 */
#ifndef GK_SGEMM_SPLITK_CUH
#define GK_SGEMM_SPLITK_CUH

#include "../core/cuda_check.cuh"

/* W holds `splits` row-major m x n blocks, one after the other (row stride
 * n); C is row-major with row stride rs_c. beta == 0 does not read C.
 * Asynchronous on `stream`; launch errors checked. */
gk_status gk_sgemm_splitk_reduce(const float *w, int64_t splits, int64_t m, int64_t n, float alpha,
                                 float beta, float *c, int64_t rs_c, cudaStream_t stream);

#endif
