/*
 * 05_thread_tile_2d.cu - ladder rung 5: a 2-D thread tile. Each thread
 * computes a TM x TN = 8 x 8 block of C, so the block tile grows to
 * 128 x 128 with 256 threads (seed 002, kernel 4).
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * Tiles (the seed's): BM = BN = 128, BK = 8, TM = TN = 8, 256 threads;
 * As[BM][BK] and Bs[BK][BN] (8 KB in all). Thread t computes rows
 * ty .. ty + 7 and columns tx .. tx + 7 of the tile, tx = t % 16 * 8,
 * ty = t / 16 * 8. Copies: thread t stores A(a_row + 32 r, a_col),
 * a_row = t / 8, a_col = t % 8, and B(b_row + 2 r, b_col), b_row = t / 128,
 * b_col = t % 128, for r = 0..3. Global traffic per block tile of K drops to
 * (1/BM + 1/BN) / 2 = 1/128 of rung 1's; each step i of a tile reads
 * As[ty + j][i] and Bs[i][tx + l] inside the 8 x 8 loop, written as the seed
 * wrote it (indexing shared memory in the innermost statement; rung 6 loads
 * them into registers explicitly).
 *
 * Row: cuda.s02_k4_tile2d (float). Requirements: none beyond the canonical
 * form. Edge tiles: loads outside A or B store zeros (nothing read), stores
 * outside C are skipped. Strides: A and B through both strides (coalesced
 * when both are row-major, as the seed assumed). More tiles than one grid
 * holds (65535 x (2^31 - 1)) take more launches. Shared memory: 8 KB.
 */
#include "ladder_common.cuh"

namespace {

using namespace gk_ladder;

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(BM * BN / (TM * TN), 2)
tile2d_kernel(prob<float> p, int64_t y0, int64_t x0)
{
	constexpr int NT = BM * BN / (TM * TN);
	constexpr int QA = BM * BK / NT, QB = BK * BN / NT; /* copies per thread */
	static_assert(QA >= 1 && QB >= 1 && NT % BK == 0 && NT % BN == 0, "tile shape");
	__shared__ float As[BM * BK];
	__shared__ float Bs[BK * BN];

	const int tid = threadIdx.x;
	const int tx = tid % (BN / TN) * TN, ty = tid / (BN / TN) * TM;

	const int64_t tm = y0 + blockIdx.y, tn = x0 + blockIdx.x; /* the block's tile of C */
	const int64_t m0 = tm * BM, n0 = tn * BN;
	/* Element q of a thread's copies: tid + q * NT of the tile, row-major. */
	reader_a<float, QA, NT / BK> ra;
	reader_b<float, QB, NT / BN> rb;
	ra.at(p, m0, tid / BK, tid % BK);
	rb.at(p, n0, tid / BN, tid % BN);

	float acc[TM][TN];
#pragma unroll
	for (int j = 0; j < TM; ++j)
#pragma unroll
		for (int l = 0; l < TN; ++l)
			acc[j][l] = 0.f;
	for (int64_t k0 = 0; k0 < p.k; k0 += BK) {
		stage_step<float, QA, QB, NT>(p, ra, rb, As, Bs, tid, p.k - k0, BK);
#pragma unroll
		for (int i = 0; i < BK; ++i)
#pragma unroll
			for (int j = 0; j < TM; ++j)
#pragma unroll
				for (int l = 0; l < TN; ++l)
					acc[j][l] += As[(ty + j) * BK + i] * Bs[tx + l + i * BN];
		__syncthreads();
	}
	store_tile<1, 1>(p, m0 + ty, n0 + tx, acc);
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_s02_k4_tile2d(const gk_cuda_sgemm_args *args)
{
	constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
	const prob<float> p = make_prob<float>(args);
	const cudaStream_t st = (cudaStream_t)args->stream;
	return launch_tiles("cuda.s02_k4_tile2d", ceil_div(p.m, BM), ceil_div(p.n, BN), [&](dim3 grid, int64_t y0, int64_t x0) {
		tile2d_kernel<BM, BN, BK, TM, TN><<<grid, BM * BN / (TM * TN), 0, st>>>(p, y0, x0);
	});
}
