/*
 * 07_register_4x4.cu - ladder rung 7: seed 000's register tiles. Each of
 * 32 x 32 threads computes a 4 x 4 block of C from 4 values of A and 4 of B
 * held in registers per step, so a block covers 128 x 128 of C with the
 * seed's 1024 threads.
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * Tiles (the seed's: SIZ = 32 threads a side, BS = 4, shared_len = 32):
 * 128 x 128 of C per block, K walked BK = 32 at a time, A's tile stored
 * k-major in shared memory; layout, copies and the inner step are in
 * 07_register_4x4.cuh. Per tile of K: copy, __syncthreads, 32 steps of
 * 4 + 4 shared reads and 16 FMAs, __syncthreads. Compared with rung 6
 * (seed 002's 8 x 8 tiles of 256 threads, BK = 8): smaller thread tiles,
 * four times the threads, a deeper K tile, and A transposed in shared
 * memory so that a thread's 4 values of A are contiguous.
 *
 * Row: cuda.s00_reg4x4 (float). Edge tiles: elements of A and B outside the
 * matrices are stored as zeros (not read), stores outside C skipped. A and B
 * through both strides (whole sectors when both are row-major). More tiles
 * than the grid allows take more launches. Shared memory: 32 x 132 +
 * 32 x 128 floats = 32.5 KB; 64 registers at most (1024 threads).
 */
#include "07_register_4x4.cuh"

namespace {

using namespace gk_ladder;
using namespace gk_ladder::reg4x4;

constexpr int BK = 32;

__global__ void __launch_bounds__(NT, 1) reg4x4_kernel(prob<float> p, int64_t y0, int64_t x0)
{
	__shared__ __align__(16) tile<BK> t;
	const int64_t m0 = (y0 + blockIdx.y) * BM, n0 = (x0 + blockIdx.x) * BN;
	copier<BK> cp;
	cp.at(p, m0, n0);
	float acc[TM][TN] = {};
	for (int64_t k0 = 0; k0 < p.k; k0 += BK) {
		cp.copy(p, t, p.k - k0, BK);
		__syncthreads(); /* the tile is complete */
		multiply(t, acc);
		__syncthreads(); /* every thread is done with it */
	}
	store_tile<1, 1>(p, m0 + threadIdx.y * TM, n0 + threadIdx.x * TN, acc);
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_s00_reg4x4(const gk_cuda_sgemm_args *args)
{
	const prob<float> p = make_prob<float>(args);
	const cudaStream_t st = (cudaStream_t)args->stream;
	return launch_tiles("cuda.s00_reg4x4", ceil_div(p.m, BM), ceil_div(p.n, BN),
	                    [&](dim3 grid, int64_t y0, int64_t x0) {
		                    reg4x4_kernel<<<grid, dim3(32, 32), 0, st>>>(p, y0, x0);
	                    });
}
