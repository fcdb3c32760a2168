/*
 * ladder_common.cuh - what every rung of the CUDA teaching ladder
 * (src/cuda/ladder/, docs/CUDA_LADDER.md) shares: the problem as a kernel
 * sees it, launches over the tiles of C within the grid's limits,
 * predicated element loads, and the BLAS epilogue.
 *
 * The canonical problem (cuda_gemm.h): C = alpha * A * B + beta * C, A m x k
 * at a[i * rs_a + l * cs_a], B k x n at b[l * rs_b + j * cs_b], C row-major
 * at c[i * rs_c + j]. The seeds wrote their kernels for row-major A and B
 * with sizes that are multiples of the tile; every rung here reads A and B
 * through both strides (so any transpose and leading dimension works, at
 * the cost of uncoalesced reads when an operand is not contiguous along the
 * direction the seed read it), zero-fills the part of an edge tile that lies
 * outside the matrices, and writes only the elements of C that exist.
 */
#ifndef GK_LADDER_COMMON_CUH
#define GK_LADDER_COMMON_CUH

#include <stdint.h>
#include "../core/cuda_check.cuh"

namespace gk_ladder {

/* One problem as the kernels receive it (by value). */
template <typename T>
struct prob {
	int64_t m, n, k;
	T alpha, beta;
	const T *a; int64_t rs_a, cs_a;
	const T *b; int64_t rs_b, cs_b;
	T *c; int64_t rs_c;
};

template <typename T, typename Args>
static inline prob<T> make_prob(const Args *p)
{
	prob<T> q;
	q.m = p->m; q.n = p->n; q.k = p->k;
	q.alpha = p->alpha; q.beta = p->beta;
	q.a = p->a; q.rs_a = p->rs_a; q.cs_a = p->cs_a;
	q.b = p->b; q.rs_b = p->rs_b; q.cs_b = p->cs_b;
	q.c = p->c; q.rs_c = p->rs_c;
	return q;
}

static inline int64_t ceil_div(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

/*
 * Launch a kernel over a grid of tiles_y x tiles_x tiles of C, one block
 * per tile. gridDim.y is at most 65535 and gridDim.x at most 2^31 - 1, so a
 * larger count of tiles is covered by several launches on the same stream,
 * each told the first tile it covers: the block's tile is
 * (y0 + blockIdx.y, x0 + blockIdx.x). (A loop over tiles inside the kernel
 * would do the same, but keeps its counters alive across the main loop and
 * costs the register-heavy rungs a spill.) `launch(grid, y0, x0)` issues
 * one launch; each is checked.
 */
template <typename F>
static inline gk_status launch_tiles(const char *fn, int64_t tiles_y, int64_t tiles_x, F launch)
{
	const int64_t max_y = 65535, max_x = 2147483647;
	for (int64_t y0 = 0; y0 < tiles_y; y0 += max_y) {
		for (int64_t x0 = 0; x0 < tiles_x; x0 += max_x) {
			const int64_t gy = tiles_y - y0 < max_y ? tiles_y - y0 : max_y;
			const int64_t gx = tiles_x - x0 < max_x ? tiles_x - x0 : max_x;
			launch(dim3((unsigned)gx, (unsigned)gy), y0, x0);
			GK_CUDA_LAUNCHED(fn);
		}
	}
	return GK_OK;
}

/*
 * A thread's share of the loads of one operand tile: Q elements, walked
 * along K one tile at a time. For A (reader_a), element q is at
 * (row + q * DROW, kk) of the tile; for B (reader_b), at (kk + q * DK, col):
 * the layouts the rungs' copy loops produce (consecutive threads on
 * consecutive elements of a tile row, each further pass DROW rows, or DK
 * rows of K, on). get() zero-fills what lies outside the matrix without
 * reading it; next() moves on by one tile of K (BK). The state is one
 * pointer and two small integers; the strides are read from the kernel's
 * parameters where they are used. Pointer arithmetic is 64-bit, so no index
 * product can overflow.
 */
template <typename T, int Q, int DROW>
struct reader_a {
	const T *ptr; /* element 0 in the current tile */
	int kk;       /* its column (k) inside the tile */
	int q_in;     /* elements q < q_in lie in rows of A */

	__device__ __forceinline__ void at(const prob<T> &p, int64_t m0, int row, int kcol)
	{
		ptr = p.a + (m0 + row) * p.rs_a + (int64_t)kcol * p.cs_a;
		kk = kcol;
		const int64_t rows_left = p.m - m0 - row;
		q_in = 0;
#pragma unroll
		for (int q = 0; q < Q; ++q)
			if ((int64_t)q * DROW < rows_left)
				q_in = q + 1;
	}
	/* Element q of the current tile; k_left = k - (first k of the tile). */
	__device__ __forceinline__ T get(const prob<T> &p, int q, int64_t k_left) const
	{
		return q < q_in && kk < k_left ? ptr[(int64_t)(q * DROW) * p.rs_a] : T(0);
	}
	__device__ __forceinline__ void next(const prob<T> &p, int bk)
	{
		ptr += (int64_t)bk * p.cs_a;
	}
};

template <typename T, int Q, int DK>
struct reader_b {
	const T *ptr; /* element 0 in the current tile */
	int kk;       /* its row (k) inside the tile */
	bool in;      /* its column lies in B */

	__device__ __forceinline__ void at(const prob<T> &p, int64_t n0, int krow, int col)
	{
		ptr = p.b + (int64_t)krow * p.rs_b + (n0 + col) * p.cs_b;
		kk = krow;
		in = n0 + col < p.n;
	}
	__device__ __forceinline__ T get(const prob<T> &p, int q, int64_t k_left) const
	{
		return in && kk + q * DK < k_left ? ptr[(int64_t)(q * DK) * p.rs_b] : T(0);
	}
	__device__ __forceinline__ void next(const prob<T> &p, int bk)
	{
		ptr += (int64_t)bk * p.rs_b;
	}
};

/* One step of K into shared memory, as rungs 3 to 5 do it: each of the NT
 * threads copies QA elements of A's tile and QB of B's (element tid + q NT of
 * each tile, zero outside the matrices), the readers move on by BK, and the
 * block waits until the tiles are complete. */
template <typename T, int QA, int QB, int NT, typename RA, typename RB>
__device__ __forceinline__ void stage_step(const prob<T> &p, RA &ra, RB &rb, T *As, T *Bs, int tid,
                                           int64_t k_left, int bk)
{
#pragma unroll
	for (int q = 0; q < QA; ++q)
		As[tid + q * NT] = ra.get(p, q, k_left);
#pragma unroll
	for (int q = 0; q < QB; ++q)
		Bs[tid + q * NT] = rb.get(p, q, k_left);
	ra.next(p, bk);
	rb.next(p, bk);
	__syncthreads();
}

/* The BLAS epilogue of one element: C(i, j) = alpha * acc + beta * C(i, j);
 * beta == 0 does not read C. The caller has checked that (i, j) is in C. */
template <typename T>
__device__ __forceinline__ void store_c(const prob<T> &p, T *cij, T acc)
{
	if (p.beta == T(0))
		*cij = p.alpha * acc;
	else
		*cij = p.alpha * acc + p.beta * *cij;
}

/*
 * The BLAS epilogue of a thread's TM x TN block of results: element (j, l)
 * goes to C(row0 + j * RS, col0 + l * CS) when that element exists.
 * beta == 0 does not read C.
 */
template <int RS, int CS, typename T, int TM, int TN>
__device__ __forceinline__ void store_tile(const prob<T> &p, int64_t row0, int64_t col0, const T (&acc)[TM][TN])
{
	const int64_t rows_left = p.m - row0, cols_left = p.n - col0;
	T *c = p.c + row0 * p.rs_c + col0;
#pragma unroll
	for (int j = 0; j < TM; ++j) {
		if (j * RS < rows_left) {
#pragma unroll
			for (int l = 0; l < TN; ++l)
				if (l * CS < cols_left)
					store_c(p, c + l * CS, acc[j][l]);
		}
		c += RS * p.rs_c;
	}
}

/* Whether a pointer is 16-byte aligned. */
__host__ __device__ __forceinline__ bool aligned16(const void *ptr)
{
	return ((uintptr_t)ptr & 15u) == 0;
}

} /* namespace gk_ladder */

#endif /* GK_LADDER_COMMON_CUH */
