/*
 * 08_float4.cuh - the pieces of seed 002's float4 kernel that rung 8
 * (08_float4.cu) and its prefetching form, rung 10 (10_prefetch.cu), share.
 *
 * Tiles (the seed's kernels 6 and 7): BM = BN = 128, BK = 8, 256 threads,
 * each computing the 8 x 8 block of C at rows ty .. ty + 7 and columns
 * tx .. tx + 7 of the tile (tx = t % 16 * 8, ty = t / 16 * 8).
 * Shared memory:
 *   As[BK][BM]: A's tile transposed (row kk holds A(m0 .. m0 + 127, k0 + kk)),
 *               so a thread's 8 values of A at step kk are contiguous;
 *   Bs[BK][BN]: B's tile as in B.
 * Fragments: at step kk a thread reads a_frag[0..7] = As[kk][ty .. ty + 7]
 * and b_frag[0..7] = Bs[kk][tx .. tx + 7] as two float4 each.
 *
 * Copies, one float4 of each operand per thread and tile of K, staged in
 * registers (global memory cannot be stored to shared memory directly; the
 * registers are also where A is transposed):
 *   A: thread t takes A(m0 + t / 2, k0 + t % 2 * 4 .. + 3) and stores the 4
 *      values down a column of As (As[kk + q][t / 2]);
 *   B: thread t takes B(k0 + t / 32, n0 + t % 32 * 4 .. + 3) and stores them
 *      as one float4 into Bs.
 * VEC (template flag, chosen by the launcher): A and B row-major (cs_a ==
 * cs_b == 1), both pointers 16-byte aligned and rs_a, rs_b multiples of 4;
 * then every chunk of 4 starts on a 16-byte boundary and is read with one
 * 16-byte load when it lies wholly inside the matrix. Chunks that cross an
 * edge, and every chunk without VEC (other strides, unaligned pointers or
 * leading dimensions), are read element by element through both strides,
 * zero-filled outside the matrix (nothing outside it is read).
 * C: 16-byte loads and stores (the seed's) where C's pointer is 16-byte
 * aligned, rs_c a multiple of 4 and the 4 columns exist; else element by
 * element. beta == 0 does not read C.
 */
#ifndef GK_LADDER_FLOAT4_CUH
#define GK_LADDER_FLOAT4_CUH

#include "ladder_common.cuh"

namespace gk_ladder {
namespace f4 {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, NT = 256;

__device__ __forceinline__ float4 &as_f4(float &x)
{
	return *reinterpret_cast<float4 *>(&x);
}
__device__ __forceinline__ const float4 &as_f4(const float &x)
{
	return *reinterpret_cast<const float4 *>(&x);
}

/* This thread's copies: where they come from, and the staged values. */
template <bool VEC>
struct copier {
	const float *pa, *pb; /* chunk starts in the current tile of K */
	int a_row, a_kk;      /* A chunk: row and first k inside the tile */
	int b_kk, b_col;      /* B chunk: k and first column inside the tile */
	bool a_in;            /* the A chunk's row exists */
	int b_cols;           /* how many of the B chunk's 4 columns exist (0..4) */
	alignas(16) float ra[4]; /* staged values */
	alignas(16) float rb[4];

	__device__ __forceinline__ void at(const prob<float> &p, int64_t m0, int64_t n0)
	{
		const int t = threadIdx.x;
		a_row = t / 2;
		a_kk = t % 2 * 4;
		b_kk = t / 32;
		b_col = t % 32 * 4;
		pa = p.a + (m0 + a_row) * p.rs_a + (int64_t)a_kk * p.cs_a;
		pb = p.b + (int64_t)b_kk * p.rs_b + (n0 + b_col) * p.cs_b;
		a_in = m0 + a_row < p.m;
		const int64_t cl = p.n - (n0 + b_col);
		b_cols = cl <= 0 ? 0 : cl >= 4 ? 4 : (int)cl;
	}
	/* Global memory -> registers for the current tile of K (k_left = k - its
	 * first k), then move on by BK. */
	__device__ __forceinline__ void load(const prob<float> &p, int64_t k_left)
	{
		if (VEC && a_in && a_kk + 4 <= k_left) {
			as_f4(ra[0]) = as_f4(*pa);
		} else {
#pragma unroll
			for (int q = 0; q < 4; ++q)
				ra[q] = a_in && a_kk + q < k_left ? pa[(int64_t)q * p.cs_a] : 0.f;
		}
		if (VEC && b_kk < k_left && b_cols == 4) {
			as_f4(rb[0]) = as_f4(*pb);
		} else {
#pragma unroll
			for (int q = 0; q < 4; ++q)
				rb[q] = b_kk < k_left && q < b_cols ? pb[(int64_t)q * p.cs_b] : 0.f;
		}
		pa += (int64_t)BK * p.cs_a;
		pb += (int64_t)BK * p.rs_b;
	}
	/* Registers -> shared memory: A transposed, B as one float4. */
	__device__ __forceinline__ void store(float *As, float *Bs) const
	{
#pragma unroll
		for (int q = 0; q < 4; ++q)
			As[(a_kk + q) * BM + a_row] = ra[q];
		as_f4(Bs[b_kk * BN + b_col]) = as_f4(rb[0]);
	}
};

/* Step kk's fragments from shared memory, two float4 each. */
__device__ __forceinline__ void load_frags(const float *As, const float *Bs, int kk, int tx, int ty,
                                           float (&a_frag)[TM], float (&b_frag)[TN])
{
#pragma unroll
	for (int i = 0; i < TM; i += 4)
		as_f4(a_frag[i]) = as_f4(As[kk * BM + ty + i]);
#pragma unroll
	for (int j = 0; j < TN; j += 4)
		as_f4(b_frag[j]) = as_f4(Bs[kk * BN + tx + j]);
}

__device__ __forceinline__ void outer(const float (&a_frag)[TM], const float (&b_frag)[TN], float (&acc)[TM][TN])
{
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j)
			acc[i][j] += a_frag[i] * b_frag[j];
}

/* The thread's 8 x 8 results into C at (row0, col0), 4 columns at a time. */
__device__ __forceinline__ void store_c_tile(const prob<float> &p, bool c_vec, int64_t row0, int64_t col0,
                                             const float (&acc)[TM][TN])
{
	const int64_t rows_left = p.m - row0, cols_left = p.n - col0;
	float *c = p.c + row0 * p.rs_c + col0;
#pragma unroll
	for (int i = 0; i < TM; ++i) {
		if (i < rows_left) {
#pragma unroll
			for (int j = 0; j < TN; j += 4) {
				if (c_vec && j + 4 <= cols_left) {
					float4 v = make_float4(p.alpha * acc[i][j], p.alpha * acc[i][j + 1],
					                       p.alpha * acc[i][j + 2], p.alpha * acc[i][j + 3]);
					if (p.beta != 0.f) {
						const float4 o = as_f4(c[j]);
						v.x += p.beta * o.x;
						v.y += p.beta * o.y;
						v.z += p.beta * o.z;
						v.w += p.beta * o.w;
					}
					as_f4(c[j]) = v;
				} else {
#pragma unroll
					for (int q = 0; q < 4; ++q)
						if (j + q < cols_left)
							store_c(p, c + j + q, acc[i][j + q]);
				}
			}
		}
		c += p.rs_c;
	}
}

/* The launcher's choices: 16-byte loads of A and B (VEC), 16-byte C. */
static inline bool vec_ok(const prob<float> &p)
{
	return p.cs_a == 1 && p.cs_b == 1 && aligned16(p.a) && aligned16(p.b) && p.rs_a % 4 == 0 &&
	       p.rs_b % 4 == 0;
}
static inline bool c_vec_ok(const prob<float> &p)
{
	return aligned16(p.c) && p.rs_c % 4 == 0;
}

} /* namespace f4 */
} /* namespace gk_ladder */

#endif /* GK_LADDER_FLOAT4_CUH */
