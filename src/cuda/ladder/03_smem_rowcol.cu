/*
 * 03_smem_rowcol.cu - ladder rung 3, a counter-example: shared memory
 * holding "whole rows and columns" (a segment of a row of A and a segment
 * of a column of B, each as a contiguous vector) instead of tiles laid out
 * as in the matrices (rung 2).
 *
 * What it computes: C = alpha * A * B + beta * C (cuda_gemm.h), any m, n,
 * k >= 1, any strides of A and B, C row-major; beta == 0 does not read C.
 *
 * The seed's kernel (seed 001, "task and data partition") declares ONE
 * vector shared_A[BS] and ONE vector shared_B[BS] for the whole BS x BS
 * block: thread (tx, ty) stores A(row, k0 + tx) into shared_A[tx] and
 * B(k0 + ty, col) into shared_B[ty], then every thread takes the dot
 * product of the two vectors. All BS rows of the block store into the same
 * shared_A (and all BS columns into the same shared_B), so which row's
 * segment a thread multiplies is whichever store landed last: a data race,
 * and wrong results except when all rows of A (and columns of B) are equal.
 * The report timed it without checking its output.
 *
 * Here every row of the block gets its own vector of A and every column its
 * own vector of B: Arow[ty][0..BS) holds A(row, k0 .. k0 + BS) and
 * Bcol[tx][0..BS) holds B(k0 .. k0 + BS, col). That is the smallest change
 * that makes the kernel correct, and it keeps what the seed wrote: the same
 * loads from global memory (thread (tx, ty) reads A(row, k0 + tx) and
 * B(k0 + ty, col)), then each thread multiplies one contiguous row vector
 * by one contiguous column vector. Compared with rung 2, only B's layout in
 * shared memory differs: it is stored transposed, column by column. Lanes
 * tx = 0..15 of a warp then read Bcol[tx][j], 16 doubles (128 bytes) apart,
 * all in the same bank: a 16-way bank conflict on every step of the inner
 * product (and on the stores). That is why this layout is slower than
 * rung 2's tiles at every size (seed 001's table), and why a tile in shared
 * memory keeps the matrix's row-major layout along the direction the lanes
 * walk.
 *
 * Row: cuda.s01_rowcol, double, 16 x 16 threads (the block size of the
 * seed's comparison). Requirements, edges, strides, grid: as rung 2
 * (02_smem_tile.cu). Shared memory: 2 * 16 * 16 doubles = 4 KB.
 */
#include "ladder_common.cuh"

namespace {

using namespace gk_ladder;

template <typename T, int BS>
__global__ void __launch_bounds__(BS * BS)
rowcol_kernel(prob<T> p, int64_t y0, int64_t x0)
{
	__shared__ T Arow[BS][BS]; /* Arow[ty]: a segment of row m0 + ty of A */
	__shared__ T Bcol[BS][BS]; /* Bcol[tx]: a segment of column n0 + tx of B */

	const int tx = threadIdx.x, ty = threadIdx.y;

	const int64_t tm = y0 + blockIdx.y, tn = x0 + blockIdx.x; /* the block's tile of C */
	const int64_t row = tm * BS + ty, col = tn * BS + tx;
	reader_a<T, 1, 0> ra;
	reader_b<T, 1, 0> rb;
	ra.at(p, tm * BS, ty, tx);
	rb.at(p, tn * BS, ty, tx);
	T acc = T(0);
	for (int64_t k0 = 0; k0 < p.k; k0 += BS) {
		const int64_t k_left = p.k - k0;
		Arow[ty][tx] = ra.get(p, 0, k_left); /* A(row, k0 + tx) */
		Bcol[tx][ty] = rb.get(p, 0, k_left); /* B(k0 + ty, col) */
		ra.next(p, BS);
		rb.next(p, BS);
		__syncthreads();
#pragma unroll
		for (int j = 0; j < BS; ++j)
			acc += Arow[ty][j] * Bcol[tx][j];
		__syncthreads();
	}
	if (row < p.m && col < p.n)
		store_c(p, p.c + row * p.rs_c + col, acc);
}

} /* namespace */

extern "C" gk_status gk_cuda_dgemm_s01_rowcol(const gk_cuda_dgemm_args *args)
{
	constexpr int BS = 16;
	const prob<double> p = make_prob<double>(args);
	const cudaStream_t st = (cudaStream_t)args->stream;
	return launch_tiles("cuda.s01_rowcol", ceil_div(p.m, BS), ceil_div(p.n, BS),
	                    [&](dim3 grid, int64_t y0, int64_t x0) {
		                    rowcol_kernel<double, BS><<<grid, dim3(BS, BS), 0, st>>>(p, y0, x0);
	                    });
}
