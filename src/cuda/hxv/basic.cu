/*
 * basic.cu - cuda.hxv_basic: seed 003's BasicMM, C = alpha E F + beta C
 * with each thread taking a contiguous segment of k (uncoalesced loads), a
 * shared-memory tree per block and atomic adds of the blocks' sums
 * (hxv_paper.cuh says what the kernel computes and guarantees). Float and
 * double, any m, n, k and strides; grid and block size from the model.
 */
#include "hxv_paper.cuh"

extern "C" gk_status gk_cuda_sgemm_hxv_basic(const gk_cuda_sgemm_args *p)
{
	return hxv_paper_run<float, false>("cuda.hxv_basic", hxv_from_args<float>(p), 0, 0);
}

extern "C" gk_status gk_cuda_dgemm_hxv_basic(const gk_cuda_dgemm_args *p)
{
	return hxv_paper_run<double, false>("cuda.hxv_basic", hxv_from_args<double>(p), 0, 0);
}
