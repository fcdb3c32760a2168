/*
 * dgemm_dmma_tile.cuh - the threadblock tile of the tuned DGEMM, shared by
 * its FP64 tensor-core kernels (dgemm_dmma_sm80.cuh, dgemm_dmma_sm90.cuh):
 * everything but the matrix instruction itself.
 *
 * What it computes: one BM x BN tile of C = alpha * A * B + beta * C (or,
 * for split-K, the plain partial product A * B over one range of k written
 * to a workspace), from the canonical problem of cuda_gemm.h.
 *
 * Shape: BM = 128, BN = 128 (256 threads, 8 warps in a 2 (m) x 4 (n) grid)
 * or BN = 64 (128 threads, 4 warps in 2 x 2); each warp computes a 64 x 32
 * piece of the tile as 4 m16 groups x 4 n8 groups; k in steps of 16 through
 * a ring of STAGES shared-memory stages filled with cp.async (one barrier per
 * step).
 *
 * Fragments in the instruction's own order. Lane (g = lane / 4, t = lane % 4)
 * holds, for m16 group mi, the eight A values af[2v + h] = A(16 mi + g + 8h,
 * t + 4v) (warp-relative rows, k of the step), for n8 group j the four B
 * values bf[j][v] = B(t + 4v, 8j + g), and accumulates acc[mi][j][2h + e] =
 * C(16 mi + g + 8h, 8j + 2t + e): exactly the register order of
 * mma.m16n8k16.f64 (and, per k4 and m8 half, of mma.m8n8k4.f64), so every
 * fragment element is one 8-byte shared-memory read straight into the
 * register the instruction takes, with no copies in between.
 *
 * Shared-memory layouts (per stage: the A tile, then the B tile; no padding;
 * a "chunk" is 16 bytes = 2 doubles, 8 chunks span the 32 banks):
 *   XK: the operand is k-contiguous in memory (A with cs_a = 1, B with
 *       rs_b = 1): X rows of 16 k (8 chunks); chunk c of row x is stored at
 *       c ^ 2 (x & 3) (xk_index).
 *   KX: the operand is m- or n-contiguous (A with rs_a = 1, B with
 *       cs_b = 1): 16 rows of k x X (X / 2 chunks); chunk c of row kk is
 *       stored at c ^ 2 (kk & 3) (kx_index).
 * A fragment read by a warp (8 rows g x 4 k t, or 4 k t x 8 columns g) then
 * puts each half-warp on 16 distinct 8-byte bank pairs (2 wavefronts, the
 * minimum for 256 bytes), and the cp.async writes (a warp writes 4 whole XK
 * rows or 32 consecutive KX chunks) stay at the minimum of 4 wavefronts.
 *
 * Requirements and fallbacks: m, n, k >= 1; A and B each have a unit stride
 * on one side. A copy is 16 bytes when the operand's pointer is 16-byte
 * aligned and its other stride is even (every chunk then starts 16-byte
 * aligned), else 8 bytes (any double-aligned pointer and stride). Edges of
 * m, n and k are zero-filled in shared memory (cp.async with a source size
 * below the copy size; a 16-byte chunk cut by the edge is copied as one
 * 8-byte element, so nothing past the last element is read); C is written
 * only inside m x n, with 16-byte stores when c is 16-byte aligned and rs_c
 * even, 8-byte stores otherwise; beta == 0 never reads C. Indices that can
 * exceed 2^31 are 64-bit; the grid walks the tiles in a loop, so any m, n
 * fit a 1-D grid.
 */
#ifndef GK_DGEMM_DMMA_TILE_CUH
#define GK_DGEMM_DMMA_TILE_CUH

#include <stdint.h>

namespace gk_dmma {

constexpr int BM = 128, BK = 16;

/* The block's threads for a tile width BN (128 or 64). */
__host__ __device__ constexpr int threads_of(int bn)
{
	return bn * 2; /* (BM / 64) x (BN / 32) warps of 32 */
}

/* Bytes of one stage (the A tile, then the B tile). */
__host__ __device__ constexpr int stage_bytes(int bn)
{
	return (BM + bn) * BK * 8;
}

/* The element offsets (in doubles) of the two layouts. */
__host__ __device__ __forceinline__ int xk_index(int x, int kk)
{
	return x * BK + (((kk >> 1) ^ (2 * (x & 3))) << 1) + (kk & 1);
}

template <int X>
__host__ __device__ __forceinline__ int kx_index(int kk, int x)
{
	return kk * X + (((x >> 1) ^ (2 * (kk & 3))) << 1) + (x & 1);
}

/* What every block of one launch needs. */
struct Params {
	int64_t m, n, k;
	double alpha, beta;
	const double *a; int64_t lda; /* the stride that is not 1 */
	const double *b; int64_t ldb;
	double *c; int64_t ldc;
	int a_vec, b_vec, c_vec;      /* 16-byte copies / stores allowed */
	int64_t tiles_m, tiles_n;     /* tiles of C */
	int64_t k_split;              /* k per split (a multiple of BK); >= k without split-K */
	int64_t splits;               /* 1, or the number of k ranges */
	int64_t split_plane;          /* elements between splits' partial products in c (split-K:
	                               * c is the workspace, row stride n, c_vec set for even n) */
};

/*
 * A thread's byte offsets of its fragments in a stage's A and B tiles (lane
 * g, t; warp piece at wm, wn), host-callable so that the mapping can be
 * checked on the CPU. The offset of af[2v + h] of group mi is a_off(mi, h, v),
 * of bf[j][v] b_off(j, v); all but a few per-thread values are constants.
 */
template <bool A_XK, bool B_XK, int BN>
struct FragOffsets {
	uint32_t a[4], b[4];

	__host__ __device__ __forceinline__ void init(int wm, int wn, int g, int t)
	{
		const int p0 = (g >> 1) ^ (2 * t); /* KX: chunk of the lane's column pair, swizzled */
#pragma unroll
		for (int v = 0; v < 4; ++v) {
			/* XK: row wm + g (+ 16 mi + 8 h), k t + 4v; KX: k t (+ 4v), column
			 * wm + g (+ 16 mi) + 8 h, whose swizzled chunk is p0 ^ 4h. */
			a[v] = A_XK ? (uint32_t)xk_index(wm + g, t + 4 * v) * 8
			            : (v < 2 ? (uint32_t)(t * BM + (wm / 2 + (p0 ^ (4 * v))) * 2 + (g & 1)) * 8 : 0u);
			b[v] = B_XK ? (uint32_t)xk_index(wn + g, t + 4 * v) * 8
			            : (v < 2 ? (uint32_t)(t * BN + (wn / 2 + (p0 ^ (4 * v))) * 2 + (g & 1)) * 8 : 0u);
		}
	}
	__host__ __device__ __forceinline__ uint32_t a_off(int mi, int h, int v) const
	{
		return A_XK ? a[v] + (uint32_t)((16 * mi + 8 * h) * BK * 8)
		            : a[h] + (uint32_t)((4 * v * BM + 16 * mi) * 8);
	}
	__host__ __device__ __forceinline__ uint32_t b_off(int j, int v) const
	{
		return B_XK ? b[v] + (uint32_t)(8 * j * BK * 8)
		            : b[j & 1] + (uint32_t)((4 * v * BN + 16 * (j >> 1)) * 8);
	}
};

#ifdef __CUDACC__

__device__ __forceinline__ uint32_t smem_addr(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void cp_async16(uint32_t dst, const double *src, int bytes)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes)
	             : "memory");
}

__device__ __forceinline__ void cp_async8(uint32_t dst, const double *src, int bytes)
{
	asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(dst), "l"(src), "r"(bytes)
	             : "memory");
}

/* A 16-byte chunk of which `bytes` (0, 8 or 16) are valid: a chunk cut by
 * the edge of the matrix is copied as one 8-byte element and a zero fill,
 * so that nothing past its last element is read (a 16-byte source could
 * reach past the end of the allocation). */
__device__ __forceinline__ void cp_async16_edge(uint32_t dst, const double *src, const double *base,
                                                int bytes)
{
	if (bytes == 16 || bytes == 0) {
		cp_async16(dst, bytes ? src : base, bytes);
	} else {
		cp_async8(dst, src, 8);
		cp_async8(dst + 8, base, 0);
	}
}

__device__ __forceinline__ void cp_async_commit()
{
	asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* An 8-byte shared-memory read. Volatile, like the matrix instructions, so
 * that the compiler keeps the order of the mainloop: fragments loaded one
 * m16 group ahead of the products, not all at once (which would need more
 * registers than a thread has). */
__device__ __forceinline__ void lds64(double &x, uint32_t addr)
{
	asm volatile("ld.shared.f64 %0, [%1];\n" : "=d"(x) : "r"(addr) : "memory");
}

__device__ __forceinline__ int clamp_bytes(int64_t elems, int cap)
{
	return elems <= 0 ? 0 : (elems * 8 >= cap ? cap : (int)(elems * 8));
}

/*
 * The copy of one operand's X x 16 tile into a stage by THREADS threads.
 * XK: element (x, kk) at p[x * ld + kk]; KX: at p[kk * ld + x].
 */
template <bool XK, int X, int THREADS>
struct TileLoader {
	/* XK: rows per pass of 16-byte (RV) or 8-byte (RS) copies; KX: k rows. */
	static constexpr int RV = XK ? THREADS / 8 : THREADS / (X / 2);
	static constexpr int RS = XK ? THREADS / 16 : THREADS / X;
	static_assert(RV >= 1 && RS >= 1, "tile too wide for the block");
	static_assert(!XK || (RV % 4 == 0 && RS % 4 == 0), "XK passes must keep x & 3");
	const double *g; /* this thread's first element at k = k0 of the current step */
	int64_t ld;
	int64_t klim;    /* valid k in [0, klim) relative to the tile origin */
	int xlim;        /* valid x in [0, xlim) relative to the tile origin (clamped) */

	__device__ __forceinline__ void init(const double *p, int64_t ld_, int64_t x0, int64_t xs, int64_t k0,
	                                     int64_t ks, int vec, int tid)
	{
		ld = ld_;
		xlim = (xs - x0 < X) ? (int)(xs - x0) : X;
		klim = ks - k0;
		if (XK) {
			const int xr = vec ? tid >> 3 : tid >> 4;
			const int kk = vec ? (tid & 7) * 2 : tid & 15;
			g = p + (x0 + xr) * ld + k0 + kk;
		} else {
			const int kr = vec ? tid / (X / 2) : tid / X;
			const int xx = vec ? (tid % (X / 2)) * 2 : tid % X;
			g = p + (k0 + kr) * ld + x0 + xx;
		}
	}

	/* Copy the step whose first k is kb (relative to the tile origin) into
	 * the tile at shared address s; then advance by one step. base: the
	 * matrix (the address of a zero-byte copy); vec: 16-byte copies. */
	__device__ __forceinline__ void load(uint32_t s, int64_t kb, int tid, const double *base, int vec)
	{
		if (XK) {
			if (vec) {
				const int xr = tid >> 3, kc = tid & 7;
				const int bytes_k = clamp_bytes(klim - kb - 2 * kc, 16);
				const uint32_t s0 = s + (uint32_t)xk_index(xr, 2 * kc) * 8;
#pragma unroll
				for (int p = 0; p < X / RV; ++p) {
					const int bytes = (xr + RV * p < xlim) ? bytes_k : 0;
					const double *src = g + (int64_t)(RV * p) * ld;
					cp_async16_edge(s0 + p * RV * BK * 8, src, base, bytes);
				}
			} else {
				const int xr = tid >> 4, kk = tid & 15;
				const int bytes_k = (kb + kk < klim) ? 8 : 0;
				const uint32_t s0 = s + (uint32_t)xk_index(xr, kk) * 8;
#pragma unroll
				for (int p = 0; p < X / RS; ++p) {
					const int bytes = (xr + RS * p < xlim) ? bytes_k : 0;
					const double *src = g + (int64_t)(RS * p) * ld;
					cp_async8(s0 + p * RS * BK * 8, bytes ? src : base, bytes);
				}
			}
			g += BK;
		} else {
			if (vec) {
				const int kr = tid / (X / 2), xc = tid % (X / 2);
				const int bytes_x = clamp_bytes((int64_t)(xlim - 2 * xc), 16);
#pragma unroll
				for (int p = 0; p < BK / RV; ++p) {
					const int kq = kr + RV * p;
					const int bytes = (kb + kq < klim) ? bytes_x : 0;
					const double *src = g + (int64_t)(RV * p) * ld;
					cp_async16_edge(s + (uint32_t)kx_index<X>(kq, 2 * xc) * 8, src, base, bytes);
				}
			} else {
				const int kr = tid / X, xx = tid % X;
				const int bytes_x = (xx < xlim) ? 8 : 0;
#pragma unroll
				for (int p = 0; p < BK / RS; ++p) {
					const int kq = kr + RS * p;
					const int bytes = (kb + kq < klim) ? bytes_x : 0;
					const double *src = g + (int64_t)(RS * p) * ld;
					cp_async8(s + (uint32_t)kx_index<X>(kq, xx) * 8, bytes ? src : base, bytes);
				}
			}
			g += (int64_t)BK * ld;
		}
	}
};

/* A's fragment of m16 group mi: af[2v + h] = A(16 mi + g + 8h, t + 4v). */
template <bool A_XK, bool B_XK, int BN>
__device__ __forceinline__ void load_a(double (&af)[8], uint32_t sa, const FragOffsets<A_XK, B_XK, BN> &o,
                                       int mi)
{
#pragma unroll
	for (int v = 0; v < 4; ++v)
#pragma unroll
		for (int h = 0; h < 2; ++h)
			lds64(af[2 * v + h], sa + o.a_off(mi, h, v));
}

/* B's fragments of the warp: bf[j][v] = B(t + 4v, 8j + g). */
template <bool A_XK, bool B_XK, int BN>
__device__ __forceinline__ void load_b(double (&bf)[4][4], uint32_t sb, const FragOffsets<A_XK, B_XK, BN> &o)
{
#pragma unroll
	for (int j = 0; j < 4; ++j)
#pragma unroll
		for (int v = 0; v < 4; ++v)
			lds64(bf[j][v], sb + o.b_off(j, v));
}

/* The tile of C at (tm, tn), k range [k0, k1): the mainloop of Mma (a
 * class with a static step(acc, af, bf): the products of one m16 group over
 * one k step of 16), then the epilogue. smem holds STAGES stages. */
template <class Mma, bool A_XK, bool B_XK, int BN, int STAGES>
__device__ __forceinline__ void tile(const Params &P, unsigned char *smem, int64_t tm, int64_t tn,
                                     int64_t k0, int64_t k1, double *c, double alpha, double beta,
                                     int vec_c, int64_t ldc)
{
	constexpr int THREADS = threads_of(BN), SB = stage_bytes(BN), A_BYTES = BM * BK * 8;
	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const int g = lane >> 2, t = lane & 3;
	const int wm = (warp & 1) * 64, wn = (warp >> 1) * 32;
	const int64_t m0 = tm * BM, n0 = tn * BN;

	TileLoader<A_XK, BM, THREADS> la;
	TileLoader<B_XK, BN, THREADS> lb;
	la.init(P.a, P.lda, m0, P.m, k0, k1, P.a_vec, tid);
	lb.init(P.b, P.ldb, n0, P.n, k0, k1, P.b_vec, tid);

	const uint32_t s_base = smem_addr(smem);
	FragOffsets<A_XK, B_XK, BN> fo;
	fo.init(wm, wn, g, t);
	const int64_t ksteps = (k1 - k0 + BK - 1) / BK;

#pragma unroll
	for (int s = 0; s < STAGES - 1; ++s) {
		if (s < ksteps) {
			const uint32_t st = s_base + s * SB;
			la.load(st, (int64_t)s * BK, tid, P.a, P.a_vec);
			lb.load(st + A_BYTES, (int64_t)s * BK, tid, P.b, P.b_vec);
		}
		cp_async_commit();
	}

	double acc[4][4][4];
#pragma unroll
	for (int mi = 0; mi < 4; ++mi)
#pragma unroll
		for (int j = 0; j < 4; ++j)
#pragma unroll
			for (int r = 0; r < 4; ++r)
				acc[mi][j][r] = 0.0;

	int rd = 0, wr = STAGES - 1;
	for (int64_t ks = 0; ks < ksteps; ++ks) {
		cp_async_wait<STAGES - 2>();
		__syncthreads();
		const int64_t pf = ks + STAGES - 1;
		if (pf < ksteps) {
			const uint32_t st = s_base + wr * SB;
			la.load(st, pf * BK, tid, P.a, P.a_vec);
			lb.load(st + A_BYTES, pf * BK, tid, P.b, P.b_vec);
		}
		cp_async_commit();
		wr = (wr + 1 == STAGES) ? 0 : wr + 1;

		const uint32_t sa = s_base + rd * SB, sb = sa + A_BYTES;
		rd = (rd + 1 == STAGES) ? 0 : rd + 1;
		double bf[4][4], af[2][8];
		load_a(af[0], sa, fo, 0);
		load_b(bf, sb, fo);
#pragma unroll
		for (int mi = 0; mi < 4; ++mi) {
			if (mi < 3)
				load_a(af[(mi + 1) & 1], sa, fo, mi + 1);
			Mma::step(acc[mi], af[mi & 1], bf);
		}
	}
	cp_async_wait<0>();

	/* Epilogue: acc[mi][j][2h + e] = C(16 mi + g + 8h, 8j + 2t + e) of the
	 * warp's piece. */
#pragma unroll
	for (int mi = 0; mi < 4; ++mi) {
#pragma unroll
		for (int h = 0; h < 2; ++h) {
			const int64_t i = m0 + wm + 16 * mi + 8 * h + g;
			if (i >= P.m)
				continue;
			double *cr = c + i * ldc;
#pragma unroll
			for (int j = 0; j < 4; ++j) {
				const int64_t col = n0 + wn + 8 * j + 2 * t;
				const double v0 = alpha * acc[mi][j][2 * h], v1 = alpha * acc[mi][j][2 * h + 1];
				if (vec_c && col + 1 < P.n) {
					double2 v = make_double2(v0, v1);
					if (beta != 0.0) {
						const double2 o = *reinterpret_cast<const double2 *>(cr + col);
						v.x = fma(beta, o.x, v.x);
						v.y = fma(beta, o.y, v.y);
					}
					*reinterpret_cast<double2 *>(cr + col) = v;
				} else {
					if (col < P.n)
						cr[col] = (beta != 0.0) ? fma(beta, cr[col], v0) : v0;
					if (col + 1 < P.n)
						cr[col + 1] = (beta != 0.0) ? fma(beta, cr[col + 1], v1) : v1;
				}
			}
		}
	}
}

/* The kernel body: the tiles of the launch, grouped 8 tile rows at a time so
 * that blocks running together share panels of A and B in L2; with split-K
 * the tile index runs over splits x tiles, each split writing its partial
 * product (alpha 1, beta 0) to its plane of the workspace P.c. */
template <class Mma, bool A_XK, bool B_XK, int BN, int STAGES>
__device__ __forceinline__ void run(const Params &P, unsigned char *smem)
{
	const int64_t per_split = P.tiles_m * P.tiles_n;
	const int64_t total = per_split * P.splits;
	constexpr int64_t GROUP = 8;
	for (int64_t id = blockIdx.x; id < total; id += gridDim.x) {
		const int64_t z = id / per_split, lin = id - z * per_split;
		const int64_t span = GROUP * P.tiles_n;
		const int64_t grp = lin / span, first = grp * GROUP;
		const int64_t rows = (P.tiles_m - first < GROUP) ? P.tiles_m - first : GROUP;
		const int64_t in = lin - grp * span;
		const int64_t tm = first + in % rows, tn = in / rows;
		const int64_t k0 = z * P.k_split;
		const int64_t k1 = (k0 + P.k_split < P.k) ? k0 + P.k_split : P.k;
		if (P.splits > 1)
			tile<Mma, A_XK, B_XK, BN, STAGES>(P, smem, tm, tn, k0, k1, P.c + z * P.split_plane, 1.0, 0.0,
			                                  P.c_vec, P.n);
		else
			tile<Mma, A_XK, B_XK, BN, STAGES>(P, smem, tm, tn, k0, k1, P.c, P.alpha, P.beta, P.c_vec,
			                                  P.ldc);
		__syncthreads(); /* the next tile refills the stages */
	}
}

#endif /* __CUDACC__ */

} /* namespace gk_dmma */

#endif
