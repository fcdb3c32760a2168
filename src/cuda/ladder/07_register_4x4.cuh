/*
 * 07_register_4x4.cuh - the pieces of seed 000's register-tiled kernel that
 * rung 7 (07_register_4x4.cu) and its double-buffered form, rung 9
 * (09_prefetch_smem.cu), share.
 *
 * A block of 32 x 32 = 1024 threads owns a 128 x 128 tile of C; thread
 * (tx, ty) computes the 4 x 4 block at rows 4 ty .. 4 ty + 3 and columns
 * 4 tx .. 4 tx + 3 of it. A tile of K of depth BK sits in shared memory as
 *   As[BK][128 + 4]: A's tile stored k-major (row kk holds A(m0 .. m0 + 127,
 *                    k0 + kk)), as the seed's shared_a[shared_len][SIZ * BS];
 *                    the 4-float pad keeps the transposing stores free of
 *                    bank conflicts and every row 16-byte aligned;
 *   Bs[BK][128]:     B's tile as in B (row kk holds B(k0 + kk, n0 .. n0 + 127)).
 * One step kk: the thread reads its 4 values of A (As[kk][4 ty ..]) and its
 * 4 of B (Bs[kk][4 tx ..]) into registers (a_buf, b_buf) and adds their
 * outer product to its 16 accumulators: 8 shared-memory reads for 16 FMAs.
 *
 * Copies (any strides; elements outside A or B are stored as zeros and not
 * read): BK / 8 elements of each operand per thread. For A, lane l of warp
 * w reads A(row, kk) with kk = (w % (BK / 8)) * 8 + l % 8 and
 * row = (w / (BK / 8)) * 4 + l / 8, next rows 1024 / BK further: 8
 * consecutive k of 4 rows per warp, so a row-major A is read in whole
 * 32-byte sectors and the transposing stores As[kk][row] hit 32 different
 * banks (4 kk + row mod 32). For B, thread t reads B(t / 128 + 8 r, t % 128):
 * consecutive threads along a row of B.
 */
#ifndef GK_LADDER_REGISTER_4X4_CUH
#define GK_LADDER_REGISTER_4X4_CUH

#include "ladder_common.cuh"

namespace gk_ladder {
namespace reg4x4 {

constexpr int NT = 1024, BM = 128, BN = 128, TM = 4, TN = 4, PAD = 4;

template <int BK>
struct tile {
	float a[BK][BM + PAD];
	float b[BK][BN];
};

/* This thread's copies of one tile of K: positions and readers. */
template <int BK>
struct copier {
	static constexpr int R = BK / 8;     /* elements of each operand per thread */
	static constexpr int DROW = NT / BK; /* rows of A between a thread's elements */
	reader_a<float, R, DROW> ra;
	reader_b<float, R, 8> rb;
	int a_row, a_kk, b_kk, b_col;

	__device__ __forceinline__ void at(const prob<float> &p, int64_t m0, int64_t n0)
	{
		const int tid = threadIdx.y * 32 + threadIdx.x, w = tid / 32, l = tid % 32;
		a_kk = (w % R) * 8 + l % 8;
		a_row = (w / R) * 4 + l / 8;
		b_kk = tid / BN;
		b_col = tid % BN;
		ra.at(p, m0, a_row, a_kk);
		rb.at(p, n0, b_kk, b_col);
	}
	/* Copy the current tile of K (k_left = k - its first k) into t, move on. */
	__device__ __forceinline__ void copy(const prob<float> &p, tile<BK> &t, int64_t k_left, int bk_step)
	{
#pragma unroll
		for (int r = 0; r < R; ++r)
			t.a[a_kk][a_row + r * DROW] = ra.get(p, r, k_left);
#pragma unroll
		for (int r = 0; r < R; ++r)
			t.b[b_kk + r * 8][b_col] = rb.get(p, r, k_left);
		ra.next(p, bk_step);
		rb.next(p, bk_step);
	}
};

/* The BK steps of one tile of K on this thread's 4 x 4 accumulators. */
template <int BK>
__device__ __forceinline__ void multiply(const tile<BK> &t, float (&acc)[TM][TN])
{
	const int tx = threadIdx.x, ty = threadIdx.y;
#pragma unroll
	for (int kk = 0; kk < BK; ++kk) {
		float a_buf[TM], b_buf[TN];
#pragma unroll
		for (int i = 0; i < TM; ++i)
			a_buf[i] = t.a[kk][ty * TM + i];
#pragma unroll
		for (int j = 0; j < TN; ++j)
			b_buf[j] = t.b[kk][tx * TN + j];
#pragma unroll
		for (int i = 0; i < TM; ++i)
#pragma unroll
			for (int j = 0; j < TN; ++j)
				acc[i][j] += a_buf[i] * b_buf[j];
	}
}

} /* namespace reg4x4 */
} /* namespace gk_ladder */

#endif /* GK_LADDER_REGISTER_4X4_CUH */
