/*
 * 06_register_cache.cu - ladder rung 6: rung 5 with the thread tile's
 * operands cached in registers. At each step i of a tile of K, a thread
 * first copies the TM = 8 values of A it needs (As[ty + j][i]) into a_frag
 * and the TN = 8 values of B (Bs[i][tx + l]) into b_frag, then does the
 * 8 x 8 multiply-adds from registers only: 16 shared-memory loads for 64
 * FMAs (seed 002, kernel 5).
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * Tiles, copies, edges, strides, grid and shared memory: as rung 5
 * (05_thread_tile_2d.cu): BM = BN = 128, BK = 8, TM = TN = 8, 256 threads,
 * 8 KB of shared memory. nvcc already keeps the values rung 5 loads in
 * registers across its 8 x 8 loop (shared memory cannot change between the
 * two __syncthreads), so both rungs compile to the same 16 shared loads and
 * 64 FMAs per step (nvcc 13, -O3: 128 ld.shared per tile of K in the PTX of
 * each); seed 002 measured no difference either (84.8% and 84.3% of
 * cuBLAS). The rung makes the register cache explicit, which rungs 8 and 10
 * build on.
 *
 * Row: cuda.s02_k5_regcache (float).
 */
#include "ladder_common.cuh"

namespace {

using namespace gk_ladder;

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(BM * BN / (TM * TN), 2)
regcache_kernel(prob<float> p, int64_t y0, int64_t x0)
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
		for (int i = 0; i < BK; ++i) {
			float a_frag[TM], b_frag[TN]; /* step i of the thread tile, in registers */
#pragma unroll
			for (int j = 0; j < TM; ++j)
				a_frag[j] = As[(ty + j) * BK + i];
#pragma unroll
			for (int l = 0; l < TN; ++l)
				b_frag[l] = Bs[tx + l + i * BN];
#pragma unroll
			for (int j = 0; j < TM; ++j)
#pragma unroll
				for (int l = 0; l < TN; ++l)
					acc[j][l] += a_frag[j] * b_frag[l];
		}
		__syncthreads();
	}
	store_tile<1, 1>(p, m0 + ty, n0 + tx, acc);
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_s02_k5_regcache(const gk_cuda_sgemm_args *args)
{
	constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
	const prob<float> p = make_prob<float>(args);
	const cudaStream_t st = (cudaStream_t)args->stream;
	return launch_tiles("cuda.s02_k5_regcache", ceil_div(p.m, BM), ceil_div(p.n, BN), [&](dim3 grid, int64_t y0, int64_t x0) {
		regcache_kernel<BM, BN, BK, TM, TN><<<grid, BM * BN / (TM * TN), 0, st>>>(p, y0, x0);
	});
}
