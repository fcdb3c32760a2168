/*
 * 04_thread_tile_1d.cu - ladder rung 4: a 1-D thread tile. Each thread
 * computes TM = 8 elements of one column of C, so one value read from the
 * B tile in shared memory serves 8 multiply-adds (seed 002, kernel 3).
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * Tiles (the seed's): a block of BM * BN / TM = 512 threads owns a
 * BM x BN = 64 x 64 tile of C; K is walked BK = 8 at a time through
 * As[BM][BK] and Bs[BK][BN] (4 KB in all). Thread t computes rows
 * ty .. ty + 7 (ty = t / BN * TM) of column tx = t % BN. Copies: thread t
 * stores A(a_row, a_col) with a_row = t / BK, a_col = t % BK, and
 * B(b_row, b_col) with b_row = t / BN, b_col = t % BN: one element of each
 * per tile of K. Per step i of the tile: one value of Bs kept in a register
 * and 8 of As (broadcast within a warp, whose 32 threads share ty) for 8
 * FMAs; compute to shared-memory traffic 8 : 9 instead of 1 : 2.
 *
 * Row: cuda.s02_k3_tile1d (float). Requirements: none beyond the canonical
 * form. Edge tiles: loads outside A or B store zeros (nothing read), stores
 * outside C are skipped. Strides: A and B through both strides (coalesced
 * when both are row-major, as the seed assumed). More tiles than one grid
 * holds (65535 x (2^31 - 1)) take more launches. Shared memory: 4 KB.
 */
#include "ladder_common.cuh"

namespace {

using namespace gk_ladder;

template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__(BM * BN / TM)
tile1d_kernel(prob<float> p, int64_t y0, int64_t x0)
{
	constexpr int NT = BM * BN / TM;
	constexpr int QA = BM * BK / NT, QB = BK * BN / NT; /* copies per thread */
	static_assert(QA >= 1 && QB >= 1 && NT % BK == 0 && NT % BN == 0, "tile shape");
	__shared__ float As[BM * BK];
	__shared__ float Bs[BK * BN];

	const int tid = threadIdx.x;
	const int tx = tid % BN, ty = tid / BN * TM;

	const int64_t tm = y0 + blockIdx.y, tn = x0 + blockIdx.x; /* the block's tile of C */
	const int64_t m0 = tm * BM, n0 = tn * BN;
	/* Element q of a thread's copies: tid + q * NT of the tile, row-major. */
	reader_a<float, QA, NT / BK> ra;
	reader_b<float, QB, NT / BN> rb;
	ra.at(p, m0, tid / BK, tid % BK);
	rb.at(p, n0, tid / BN, tid % BN);

	float acc[TM];
#pragma unroll
	for (int j = 0; j < TM; ++j)
		acc[j] = 0.f;
	for (int64_t k0 = 0; k0 < p.k; k0 += BK) {
		stage_step<float, QA, QB, NT>(p, ra, rb, As, Bs, tid, p.k - k0, BK);
#pragma unroll
		for (int i = 0; i < BK; ++i) {
			const float b = Bs[i * BN + tx]; /* one register for TM FMAs */
#pragma unroll
			for (int j = 0; j < TM; ++j)
				acc[j] += As[(ty + j) * BK + i] * b;
		}
		__syncthreads();
	}
	const int64_t col = n0 + tx;
#pragma unroll
	for (int j = 0; j < TM; ++j) {
		const int64_t row = m0 + ty + j;
		if (row < p.m && col < p.n)
			store_c(p, p.c + row * p.rs_c + col, acc[j]);
	}
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_s02_k3_tile1d(const gk_cuda_sgemm_args *args)
{
	constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
	const prob<float> p = make_prob<float>(args);
	const cudaStream_t st = (cudaStream_t)args->stream;
	return launch_tiles("cuda.s02_k3_tile1d", ceil_div(p.m, BM), ceil_div(p.n, BN), [&](dim3 grid, int64_t y0, int64_t x0) {
		tile1d_kernel<BM, BN, BK, TM><<<grid, BM * BN / TM, 0, st>>>(p, y0, x0);
	});
}
