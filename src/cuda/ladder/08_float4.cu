/*
 * 08_float4.cu - ladder rung 8: 16-byte vector memory instructions (seed
 * 002, kernel 6). Rung 6's tiles, with every copy from global memory one
 * float4 per thread and operand, A transposed on its way into shared memory
 * so that the fragments are float4 reads too, and C written as float4.
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * Tiles, layouts, copies, the VEC condition and the fallbacks: see
 * 08_float4.cuh (BM = BN = 128, BK = 8, 8 x 8 per thread, 256 threads,
 * As[8][128] transposed and Bs[8][128], 8 KB of shared memory). Per tile of
 * K: copy (global -> registers -> shared), __syncthreads, 8 steps of 4
 * LDS.128 and 64 FMAs, __syncthreads. Compared with rung 6: one 16-byte
 * load instead of four 4-byte loads per operand and thread, fewer index
 * computations, and 4 instead of 16 shared-memory reads per step.
 *
 * Row: cuda.s02_k6_float4 (float). Without VEC (A or B transposed, or not
 * 16-byte aligned) the copies are element by element and the rest is the
 * same. More tiles than the grid allows take more launches.
 */
#include "08_float4.cuh"

namespace {

using namespace gk_ladder;
using namespace gk_ladder::f4;

template <bool VEC>
__global__ void __launch_bounds__(NT, 2) float4_kernel(prob<float> p, bool c_vec, int64_t y0, int64_t x0)
{
	__shared__ __align__(16) float As[BK * BM];
	__shared__ __align__(16) float Bs[BK * BN];
	const int tx = threadIdx.x % (BN / TN) * TN, ty = threadIdx.x / (BN / TN) * TM;
	const int64_t m0 = (y0 + blockIdx.y) * BM, n0 = (x0 + blockIdx.x) * BN;
	copier<VEC> cp;
	cp.at(p, m0, n0);
	float acc[TM][TN] = {};
	for (int64_t k0 = 0; k0 < p.k; k0 += BK) {
		cp.load(p, p.k - k0);
		cp.store(As, Bs);
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < BK; ++kk) {
			alignas(16) float a_frag[TM];
			alignas(16) float b_frag[TN];
			load_frags(As, Bs, kk, tx, ty, a_frag, b_frag);
			outer(a_frag, b_frag, acc);
		}
		__syncthreads();
	}
	store_c_tile(p, c_vec, m0 + ty, n0 + tx, acc);
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_s02_k6_float4(const gk_cuda_sgemm_args *args)
{
	const prob<float> p = make_prob<float>(args);
	const cudaStream_t st = (cudaStream_t)args->stream;
	const bool vec = vec_ok(p), c_vec = c_vec_ok(p);
	return launch_tiles("cuda.s02_k6_float4", ceil_div(p.m, BM), ceil_div(p.n, BN),
	                    [&](dim3 grid, int64_t y0, int64_t x0) {
		                    if (vec)
			                    float4_kernel<true><<<grid, NT, 0, st>>>(p, c_vec, y0, x0);
		                    else
			                    float4_kernel<false><<<grid, NT, 0, st>>>(p, c_vec, y0, x0);
	                    });
}
