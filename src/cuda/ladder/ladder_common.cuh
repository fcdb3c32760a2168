/*
 * ladder_common.cuh - what every rung of the CUDA teaching ladder
 * (src/cuda/ladder/, docs/CUDA_LADDER.md) shares: the problem as a kernel
 * sees it, the walk over tiles of C that keeps the grid within its limits,
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

/* Grid dimensions for a count of tiles: gridDim.x up to 2^31 - 1, gridDim.y
 * up to 65535. A kernel walks its tiles with GK_LADDER_FOR_TILES, so a grid
 * smaller than the tile count (huge m or n) still covers every tile. */
static inline unsigned grid_x(int64_t tiles)
{
	return (unsigned)(tiles < 2147483647 ? tiles : 2147483647);
}
static inline unsigned grid_y(int64_t tiles)
{
	return (unsigned)(tiles < 65535 ? tiles : 65535);
}

/* Every (tile row, tile column) pair a block owns: (blockIdx.y, blockIdx.x)
 * first, then strides of the grid. The bounds depend on the block's indices
 * only, so every thread of a block runs the same iterations and a
 * __syncthreads inside the body is reached by all of them. A body that
 * reads shared memory at its end must end with a __syncthreads before the
 * next tile writes it. */
#define GK_LADDER_FOR_TILES(tile_r, tiles_r, gdim_r, bidx_r, tile_c, tiles_c, gdim_c, bidx_c) \
	for (int64_t tile_r = (bidx_r); tile_r < (tiles_r); tile_r += (gdim_r))                \
		for (int64_t tile_c = (bidx_c); tile_c < (tiles_c); tile_c += (gdim_c))

/* x[off] when ok, else zero; nothing is read when !ok. */
template <typename T>
__device__ __forceinline__ T load_or_zero(const T *x, int64_t off, bool ok)
{
	return ok ? x[off] : T(0);
}

/*
 * A thread's share of the loads of one operand tile, Q elements, walked
 * along K tile by tile. Element q sits at ptr[q]; kpos[q] is its offset
 * along K inside the tile, in[q] whether its row (of A) or column (of B)
 * exists. get() zero-fills what lies outside the matrix without reading it;
 * next() moves every pointer one tile of K on (step elements). Pointers are
 * 64-bit, so no index product can overflow.
 */
template <typename T, int Q>
struct reader {
	const T *ptr[Q];
	int kpos[Q];
	bool in[Q];
	int64_t step;

	/* Element q of A's tile at (row, kk) inside the tile whose first row is m0. */
	__device__ __forceinline__ void at_a(const prob<T> &p, int q, int64_t m0, int row, int kk, int bk)
	{
		ptr[q] = p.a + (m0 + row) * p.rs_a + (int64_t)kk * p.cs_a;
		kpos[q] = kk;
		in[q] = m0 + row < p.m;
		step = (int64_t)bk * p.cs_a;
	}
	/* Element q of B's tile at (kk, col) inside the tile whose first column is n0. */
	__device__ __forceinline__ void at_b(const prob<T> &p, int q, int64_t n0, int kk, int col, int bk)
	{
		ptr[q] = p.b + (int64_t)kk * p.rs_b + (n0 + col) * p.cs_b;
		kpos[q] = kk;
		in[q] = n0 + col < p.n;
		step = (int64_t)bk * p.rs_b;
	}
	/* Element q of the current tile; k_left = k - (first k of the tile). */
	__device__ __forceinline__ T get(int q, int64_t k_left) const
	{
		return in[q] && kpos[q] < k_left ? *ptr[q] : T(0);
	}
	__device__ __forceinline__ void next()
	{
#pragma unroll
		for (int q = 0; q < Q; ++q)
			ptr[q] += step;
	}
};

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

/* Whether a pointer is 16-byte aligned. */
__host__ __device__ __forceinline__ bool aligned16(const void *ptr)
{
	return ((uintptr_t)ptr & 15u) == 0;
}

} /* namespace gk_ladder */

/* A launcher's last lines: the launch checked, then done. */
#define GK_LADDER_DONE(fn) \
	do {                       \
		GK_CUDA_LAUNCHED(fn);  \
		return GK_OK;          \
	} while (0)

#endif /* GK_LADDER_COMMON_CUH */
