/*
 * host_gemm.cu - the CUDA driver of a call whose operands are in host
 * memory (gk_sgemm_ex / gk_dgemm_ex with the CUDA backend): every such call
 * goes to the out-of-core driver (src/cuda/hostmem/), which streams tiles
 * of A, B and C through device buffers under the context's device-memory
 * budget (0: the device's free memory less a margin), so that products of
 * any size host memory holds run, and copies overlap the product even for
 * those that would fit. The call is synchronous. docs/CUDA_HOSTMEM.md.
 */
#include "cuda_check.cuh"
#include "../hostmem/hostmem.h"

extern "C" gk_status gk_cuda_sgemm_host_run(gk_cuda_sgemm_fn fn, int device, void *stream,
                                            size_t budget, int64_t m, int64_t n, int64_t k,
                                            float alpha, const float *a, int64_t rs_a,
                                            int64_t cs_a, const float *b, int64_t rs_b,
                                            int64_t cs_b, float beta, float *c, int64_t rs_c)
{
	return gk_hm_sgemm(fn, device, stream, budget, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b,
	                   beta, c, rs_c);
}

extern "C" gk_status gk_cuda_dgemm_host_run(gk_cuda_dgemm_fn fn, int device, void *stream,
                                            size_t budget, int64_t m, int64_t n, int64_t k,
                                            double alpha, const double *a, int64_t rs_a,
                                            int64_t cs_a, const double *b, int64_t rs_b,
                                            int64_t cs_b, double beta, double *c, int64_t rs_c)
{
	return gk_hm_dgemm(fn, device, stream, budget, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b,
	                   beta, c, rs_c);
}
