/*
 * 01_naive.cu - ladder rung 1: one thread per element of C, operands read
 * straight from global memory (no reuse on chip).
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * Tiles: a block of BS x BS threads owns a BS x BS tile of C; thread
 * (tx, ty) computes one element, a dot product of a row of A and a column
 * of B of length k, each element read from global memory (through L1/L2).
 * Two choices of the seeds are template flags:
 *   LANE_ROWS: whether threadIdx.x runs along the rows of C (false: along
 *     the columns). threadIdx.x is the fastest index inside a warp, so with
 *     LANE_ROWS false the 32 lanes of a warp read 32 consecutive elements of
 *     a row of B and write 32 consecutive elements of a row of C (coalesced)
 *     and all read the same element of A (one broadcast); with LANE_ROWS
 *     true they read 32 different rows of A, each in its own memory sector,
 *     and write 32 different rows of C.
 *   GX_ROWS: whether blockIdx.x walks the tile rows of C (false: the tile
 *     columns). This changes only the order in which tiles are scheduled.
 *
 * Rows (docs/CUDA_LADDER.md):
 *   cuda.s02_k1_naive      float,  32 x 32, columns on lanes, blockIdx.x on
 *                          columns (seed 002, kernel 1)
 *   cuda.s00_plain         float,  32 x 32, columns on lanes, blockIdx.x on
 *                          rows: seed 000's kernel with its swapped indices
 *   cuda.s00_plain_xy      float,  32 x 32, rows on lanes, blockIdx.x on rows:
 *                          the same kernel with the indices seed 000 first
 *                          wrote, ten times slower in seed 000's
 *                          measurement (the quirk)
 *   cuda.s01_global_b8/16/32  double, 8 x 8, 16 x 16, 32 x 32 threads,
 *                          columns on lanes (seed 001, global memory)
 *
 * Requirements: none beyond the canonical form. Rows and columns outside C
 * compute nothing; A and B are read through both strides, so a transposed
 * operand works (its reads are then not coalesced). The grid is capped at
 * 2^31 - 1 blocks along x and 65535 along y; more tiles take more
 * launches (launch_tiles). Index arithmetic is 64-bit.
 */
#include "ladder_common.cuh"

namespace {

using namespace gk_ladder;

template <typename T, int BS, bool GX_ROWS, bool LANE_ROWS>
__global__ void __launch_bounds__(BS * BS)
naive_kernel(prob<T> p, int64_t y0, int64_t x0)
{
	const int ir = LANE_ROWS ? threadIdx.x : threadIdx.y;
	const int jc = LANE_ROWS ? threadIdx.y : threadIdx.x;
	const int64_t tr = GX_ROWS ? x0 + blockIdx.x : y0 + blockIdx.y; /* the block's tile of C */
	const int64_t tc = GX_ROWS ? y0 + blockIdx.y : x0 + blockIdx.x;
	const int64_t row = tr * BS + ir;
	const int64_t col = tc * BS + jc;
	if (row >= p.m || col >= p.n)
		return;
	const T *pa = p.a + row * p.rs_a;
	const T *pb = p.b + col * p.cs_b;
	T acc = T(0);
	for (int64_t l = 0; l < p.k; ++l) {
		acc += *pa * *pb; /* two global loads, one FMA */
		pa += p.cs_a;
		pb += p.rs_b;
	}
	store_c(p, p.c + row * p.rs_c + col, acc);
}

template <typename T, int BS, bool GX_ROWS, bool LANE_ROWS, typename Args>
static gk_status launch(const Args *args, const char *fn)
{
	const prob<T> p = make_prob<T>(args);
	const int64_t tiles_r = ceil_div(p.m, BS), tiles_c = ceil_div(p.n, BS);
	const cudaStream_t st = (cudaStream_t)args->stream;
	return launch_tiles(fn, GX_ROWS ? tiles_c : tiles_r, GX_ROWS ? tiles_r : tiles_c,
	                    [&](dim3 grid, int64_t y0, int64_t x0) {
		                    naive_kernel<T, BS, GX_ROWS, LANE_ROWS><<<grid, dim3(BS, BS), 0, st>>>(p, y0, x0);
	                    });
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_s02_k1_naive(const gk_cuda_sgemm_args *p)
{
	return launch<float, 32, false, false>(p, "cuda.s02_k1_naive");
}

extern "C" gk_status gk_cuda_sgemm_s00_plain(const gk_cuda_sgemm_args *p)
{
	return launch<float, 32, true, false>(p, "cuda.s00_plain");
}

extern "C" gk_status gk_cuda_sgemm_s00_plain_xy(const gk_cuda_sgemm_args *p)
{
	return launch<float, 32, true, true>(p, "cuda.s00_plain_xy");
}

extern "C" gk_status gk_cuda_dgemm_s01_global_b8(const gk_cuda_dgemm_args *p)
{
	return launch<double, 8, false, false>(p, "cuda.s01_global_b8");
}

extern "C" gk_status gk_cuda_dgemm_s01_global_b16(const gk_cuda_dgemm_args *p)
{
	return launch<double, 16, false, false>(p, "cuda.s01_global_b16");
}

extern "C" gk_status gk_cuda_dgemm_s01_global_b32(const gk_cuda_dgemm_args *p)
{
	return launch<double, 32, false, false>(p, "cuda.s01_global_b32");
}
