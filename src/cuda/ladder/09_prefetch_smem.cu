/*
 * 09_prefetch_smem.cu - ladder rung 9: seed 000's prefetch. Rung 7 with two
 * buffers of shared memory: while the threads multiply one tile of K, the
 * next is copied into the other buffer, and one __syncthreads per tile
 * replaces two.
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * Tiles: rung 7's (07_register_4x4.cuh: 32 x 32 threads, 4 x 4 per thread,
 * 128 x 128 of C per block) with each buffer half as deep, BK = 16, so that
 * the two buffers take the shared memory one took (the seed: "each buffer
 * must be half the size"). The loop is the seed's:
 *     copy tile 0 into buffer 0
 *     for each tile t:  __syncthreads; multiply buffer t % 2;
 *                       copy tile t + 1 into buffer (t + 1) % 2
 * Why one barrier is enough: the copy into buffer (t + 1) % 2 follows the
 * barrier of iteration t, and every read of that buffer (iteration t - 1)
 * precedes it; the reads of iteration t + 1 follow the next barrier, which
 * every copy precedes. The copies are plain loads and stores (the seed's),
 * so the overlap comes from warps of the block being at different points:
 * some copy while others multiply.
 *
 * Row: cuda.s00_prefetch (float). Edges, strides and grid as rung 7. Shared
 * memory: 2 x (16 x 132 + 16 x 128) floats = 32.5 KB.
 */
#include "07_register_4x4.cuh"

namespace {

using namespace gk_ladder;
using namespace gk_ladder::reg4x4;

constexpr int BK = 16;

__global__ void __launch_bounds__(NT, 1) prefetch_smem_kernel(prob<float> p, int64_t y0, int64_t x0)
{
	__shared__ __align__(16) tile<BK> t[2];
	const int64_t m0 = (y0 + blockIdx.y) * BM, n0 = (x0 + blockIdx.x) * BN;
	copier<BK> cp;
	cp.at(p, m0, n0);
	float acc[TM][TN] = {};
	cp.copy(p, t[0], p.k, BK);
	int cur = 0;
	for (int64_t k0 = 0; k0 < p.k; k0 += BK) {
		__syncthreads(); /* buffer cur is complete; nobody reads cur ^ 1 any more */
		multiply(t[cur], acc);
		if (k0 + BK < p.k)
			cp.copy(p, t[cur ^ 1], p.k - (k0 + BK), BK);
		cur ^= 1;
	}
	store_tile<1, 1>(p, m0 + threadIdx.y * TM, n0 + threadIdx.x * TN, acc);
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_s00_prefetch(const gk_cuda_sgemm_args *args)
{
	const prob<float> p = make_prob<float>(args);
	const cudaStream_t st = (cudaStream_t)args->stream;
	return launch_tiles("cuda.s00_prefetch", ceil_div(p.m, BM), ceil_div(p.n, BN),
	                    [&](dim3 grid, int64_t y0, int64_t x0) {
		                    prefetch_smem_kernel<<<grid, dim3(32, 32), 0, st>>>(p, y0, x0);
	                    });
}
