/*
 * phvm.cu - cuda.hxv_phvm: seed 003's PHVM, C = alpha E F + beta C with
 * grid-stride coalesced loads along k, register accumulation, a
 * shared-memory tree per block and atomic adds of the blocks' sums
 * (hxv_paper.cuh says what the kernel computes and guarantees). Float and
 * double, any m, n, k and strides. By default the launch takes the grid
 * size and block size the seed's time-cost model predicts fastest on the
 * device's measured parameters (src/model/hxv_model.c); _at takes them given.
 */
#include "hxv_paper.cuh"

extern "C" gk_status gk_cuda_sgemm_hxv_phvm(const gk_cuda_sgemm_args *p)
{
	return hxv_paper_run<float, true>("cuda.hxv_phvm", hxv_from_args<float>(p), 0, 0);
}

extern "C" gk_status gk_cuda_dgemm_hxv_phvm(const gk_cuda_dgemm_args *p)
{
	return hxv_paper_run<double, true>("cuda.hxv_phvm", hxv_from_args<double>(p), 0, 0);
}

extern "C" gk_status gk_cuda_sgemm_hxv_phvm_at(const gk_cuda_sgemm_args *p, int gs, int bs)
{
	return hxv_paper_run<float, true>("cuda.hxv_phvm", hxv_from_args<float>(p), gs, bs);
}
