/*
 * 02_smem_tile.cu - ladder rung 2: tiles of A and B cached in shared
 * memory, one thread per element of C.
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * Tiles: a block of BS x BS threads owns a BS x BS tile of C. K is walked
 * BK at a time: the block copies the BS x BK tile of A into As[BS][BK] and
 * the BK x BS tile of B into Bs[BK][BS] (each thread BK / BS elements of
 * each, consecutive threads on consecutive elements of a tile row), waits
 * (__syncthreads), and each thread (tx, ty) adds As[ty][:] . Bs[:][tx] to
 * its element; a second __syncthreads keeps the next copy from overwriting
 * tiles still being read. Each element of A and B is read from global
 * memory once per block instead of once per thread: BS times fewer reads.
 * Within a warp As[ty][i] is one broadcast word and Bs[i][tx] consecutive
 * words: no bank conflict.
 *
 * Rows (docs/CUDA_LADDER.md):
 *   cuda.s02_k2_smem        float,  BS = BK = 32 (1024 threads; seed 002, kernel 2)
 *   cuda.s00_shared         float,  BS = 32, BK = 128 (seed 000's 32 x 128 tiles,
 *                           32 KB of shared memory)
 *   cuda.s01_shared_b8/16/32  double, BS = BK = 8, 16, 32 (seed 001, shared memory)
 *
 * Requirements: none beyond the canonical form. Edge tiles: elements of A
 * and B outside the matrices are stored as zeros (not read) and add
 * nothing; elements of C outside it are not written. A and B are read
 * through both strides (coalesced when A is row-major and B row-major, as
 * the seeds assumed; a transposed operand is read element by element). The
 * grid holds at most 65535 x (2^31 - 1) tiles; more take more launches
 * (launch_tiles). Shared memory: 2 * BS * BK elements (at most 32 KB).
 *
 * Occupancy (MINB, blocks per multiprocessor asked of the register
 * allocator): 2048 threads per SM where the registers allow it (32 per
 * thread, no spill); 1 block of 1024 threads for BK = 128 (64 registers).
 */
#include "ladder_common.cuh"

namespace {

using namespace gk_ladder;

template <typename T, int BS, int BK, int MINB>
__global__ void __launch_bounds__(BS * BS, MINB)
smem_tile_kernel(prob<T> p, int64_t y0, int64_t x0)
{
	constexpr int NT = BS * BS;
	constexpr int Q = BK / BS; /* elements of each tile a thread copies */
	static_assert(BK % BS == 0 && NT % BK == 0, "tile shape");
	__shared__ T As[BS][BK];
	__shared__ T Bs[BK][BS];

	const int tid = threadIdx.x;
	const int tx = tid % BS, ty = tid / BS;

	const int64_t tm = y0 + blockIdx.y, tn = x0 + blockIdx.x; /* the block's tile of C */
	const int64_t m0 = tm * BS, n0 = tn * BS;
	/* Element q of a thread's copies: tid + q * NT of the tile, row-major. */
	reader_a<T, Q, NT / BK> ra;
	reader_b<T, Q, NT / BS> rb;
	ra.at(p, m0, tid / BK, tid % BK);
	rb.at(p, n0, tid / BS, tid % BS);
	T acc = T(0);
	for (int64_t k0 = 0; k0 < p.k; k0 += BK) {
		const int64_t k_left = p.k - k0;
#pragma unroll
		for (int q = 0; q < Q; ++q) {
			const int e = tid + q * NT;
			As[e / BK][e % BK] = ra.get(p, q, k_left);
			Bs[e / BS][e % BS] = rb.get(p, q, k_left);
		}
		ra.next(p, BK);
		rb.next(p, BK);
		__syncthreads(); /* the tiles are complete */
#pragma unroll
		for (int i = 0; i < BK; ++i)
			acc += As[ty][i] * Bs[i][tx];
		__syncthreads(); /* every thread is done with them */
	}
	const int64_t row = m0 + ty, col = n0 + tx;
	if (row < p.m && col < p.n)
		store_c(p, p.c + row * p.rs_c + col, acc);
}

template <typename T, int BS, int BK, int MINB, typename Args>
static gk_status launch(const Args *args, const char *fn)
{
	const prob<T> p = make_prob<T>(args);
	const cudaStream_t st = (cudaStream_t)args->stream;
	return launch_tiles(fn, ceil_div(p.m, BS), ceil_div(p.n, BS), [&](dim3 grid, int64_t y0, int64_t x0) {
		smem_tile_kernel<T, BS, BK, MINB><<<grid, BS * BS, 0, st>>>(p, y0, x0);
	});
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_s02_k2_smem(const gk_cuda_sgemm_args *p)
{
	return launch<float, 32, 32, 2>(p, "cuda.s02_k2_smem");
}

extern "C" gk_status gk_cuda_sgemm_s00_shared(const gk_cuda_sgemm_args *p)
{
	return launch<float, 32, 128, 1>(p, "cuda.s00_shared");
}

extern "C" gk_status gk_cuda_dgemm_s01_shared_b8(const gk_cuda_dgemm_args *p)
{
	return launch<double, 8, 8, 32>(p, "cuda.s01_shared_b8");
}

extern "C" gk_status gk_cuda_dgemm_s01_shared_b16(const gk_cuda_dgemm_args *p)
{
	return launch<double, 16, 16, 8>(p, "cuda.s01_shared_b16");
}

extern "C" gk_status gk_cuda_dgemm_s01_shared_b32(const gk_cuda_dgemm_args *p)
{
	return launch<double, 32, 32, 2>(p, "cuda.s01_shared_b32");
}
