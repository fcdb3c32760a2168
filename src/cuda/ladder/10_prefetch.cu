/*
 * 10_prefetch.cu - ladder rung 10: double-buffered prefetch (seed 002,
 * kernel 7). Rung 8 with two buffers at both levels: the next tile of K is
 * loaded from global memory into registers before the current one is
 * multiplied and stored into the other shared-memory buffer after it, and
 * inside a tile the fragments of step kk + 1 are read from shared memory
 * while step kk's FMAs run. One __syncthreads per tile of K instead of two.
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * Tiles, layouts, copies, VEC and fallbacks: 08_float4.cuh (BM = BN = 128,
 * BK = 8, 8 x 8 per thread, 256 threads), with As[2][8][128] and
 * Bs[2][8][128] (16 KB). The loop:
 *     copy tile 0 into buffer 0; __syncthreads
 *     for each tile t (buffer c = t % 2):
 *         if t + 1 exists: load it from global memory into registers
 *         fragments of step 0; for kk: read step kk + 1's fragments into the
 *             other register set, FMAs of step kk
 *         if t + 1 exists: store the registers into buffer c ^ 1
 *         __syncthreads
 * Why one barrier is enough: buffer c ^ 1 was last read in iteration t - 1,
 * before its closing barrier, and the stores into it are read in iteration
 * t + 1, after this iteration's barrier. The global loads are issued before
 * the 512 FMAs of the tile and consumed after them, so their latency is
 * hidden by the computation.
 *
 * Row: cuda.s02_k7_prefetch (float). Without VEC (A or B transposed, or not
 * 16-byte aligned) the copies are element by element and the rest is the
 * same. More tiles than the grid allows take more launches.
 */
#include "08_float4.cuh"

namespace {

using namespace gk_ladder;
using namespace gk_ladder::f4;

template <bool VEC>
__global__ void __launch_bounds__(NT, 2) prefetch_kernel(prob<float> p, bool c_vec, int64_t y0, int64_t x0)
{
	__shared__ __align__(16) float As[2][BK * BM];
	__shared__ __align__(16) float Bs[2][BK * BN];
	const int tx = threadIdx.x % (BN / TN) * TN, ty = threadIdx.x / (BN / TN) * TM;
	const int64_t m0 = (y0 + blockIdx.y) * BM, n0 = (x0 + blockIdx.x) * BN;
	copier<VEC> cp;
	cp.at(p, m0, n0);
	float acc[TM][TN] = {};
	cp.load(p, p.k);
	cp.store(As[0], Bs[0]);
	__syncthreads();
	int c = 0;
	for (int64_t k0 = 0; k0 < p.k; k0 += BK) {
		const bool more = k0 + BK < p.k;
		if (more)
			cp.load(p, p.k - (k0 + BK)); /* in flight during the FMAs below */
		alignas(16) float a_frag[2][TM];
		alignas(16) float b_frag[2][TN];
		load_frags(As[c], Bs[c], 0, tx, ty, a_frag[0], b_frag[0]);
#pragma unroll
		for (int kk = 0; kk < BK; ++kk) {
			if (kk + 1 < BK)
				load_frags(As[c], Bs[c], kk + 1, tx, ty, a_frag[(kk + 1) % 2], b_frag[(kk + 1) % 2]);
			outer(a_frag[kk % 2], b_frag[kk % 2], acc);
		}
		if (more)
			cp.store(As[c ^ 1], Bs[c ^ 1]);
		__syncthreads();
		c ^= 1;
	}
	store_c_tile(p, c_vec, m0 + ty, n0 + tx, acc);
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_s02_k7_prefetch(const gk_cuda_sgemm_args *args)
{
	const prob<float> p = make_prob<float>(args);
	const cudaStream_t st = (cudaStream_t)args->stream;
	const bool vec = vec_ok(p), c_vec = c_vec_ok(p);
	return launch_tiles("cuda.s02_k7_prefetch", ceil_div(p.m, BM), ceil_div(p.n, BN),
	                    [&](dim3 grid, int64_t y0, int64_t x0) {
		                    if (vec)
			                    prefetch_kernel<true><<<grid, NT, 0, st>>>(p, c_vec, y0, x0);
		                    else
			                    prefetch_kernel<false><<<grid, NT, 0, st>>>(p, c_vec, y0, x0);
	                    });
}
