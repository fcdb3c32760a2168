/*
 * dgemm_dmma_tile.cuh - the threadblock tile of the tuned DGEMM, shared by
 * its FP64 tensor-core kernels (dgemm_dmma_sm80.cuh, dgemm_dmma_sm90.cuh):
 * everything but the matrix instruction itself.
 *
 * What it computes: one 128 x 128 tile of C = alpha * A * B + beta * C (or,
 * for split-K, the plain partial product A * B over one range of k written
 * to a workspace), from the canonical problem of cuda_gemm.h.
 *
 * Shape: 256 threads = 8 warps in a 2 (m) x 4 (n) grid, each warp a 64 x 32
 * piece of the tile; k in steps of 16 through a ring of STAGES shared-memory
 * stages filled with cp.async (one barrier per step).
 *
 * The per-thread 8 x 8 block. The matrix instructions fix which elements of
 * a fragment each lane holds, but a product does not care how the rows of A
 * and C, the columns of B and C, or the k index are numbered, as long as A,
 * B and C agree. Renumbered so: lane (g = lane / 4, t = lane % 4) of a warp
 * holds, for each k step of 16, A(8g + r, 4t + v) for r, v in 0..7 x 0..3,
 * B(4t + v, 4g + j) for v, j in 0..3, and accumulates C(8g + r, 8t + c) for
 * r, c in 0..7 (warp-relative). The fragments are then 16-byte runs in
 * shared memory whatever the orientation of A and B (see the layouts), and
 * each thread owns a contiguous 8 x 8 block of C for the epilogue.
 *
 * Shared-memory layouts (one 16 KB tile per operand and stage, no padding;
 * a "chunk" is 16 bytes = 2 doubles; a lane group of 8 is conflict-free when
 * its 8 chunks fall in the 8 distinct 16-byte bank groups):
 *   XK: the operand is k-contiguous in memory (A with cs_a = 1, B with
 *       rs_b = 1): 128 rows x (8 chunks of k); chunk c of row x stored at
 *       c ^ ((x >> LS) & 1), LS = log2 of the rows one thread reads (3 for
 *       A, 2 for B).
 *   KX: the operand is m- or n-contiguous (A with rs_a = 1, B with
 *       cs_b = 1): 16 rows of k x (64 chunks of m or n); chunk c of row k
 *       stored at c ^ F(q), q = (k >> 2) & 3: F(q) = q for A (a thread reads
 *       4 consecutive chunks), (q & 1) | (q & 2) << 1 for B (2 chunks).
 * Both the cp.async writes and the fragment reads are then conflict-free.
 *
 * Requirements and fallbacks: m, n, k >= 1; A and B each have a unit stride
 * on one side. A copy is 16 bytes when the operand's pointer is 16-byte
 * aligned and its other stride is even (every chunk then starts 16-byte
 * aligned), else 8 bytes (any double-aligned pointer and stride). Edges of
 * m, n and k are zero-filled in shared memory (cp.async with a source size
 * below the copy size); C is written only inside m x n, with 16-byte stores
 * when c is 16-byte aligned and rs_c even, 8-byte stores otherwise;
 * beta == 0 never reads C. Indices that can exceed 2^31 are 64-bit; the grid
 * walks the tiles in a loop, so any m, n fit a 1-D grid.
 */
#ifndef GK_DGEMM_DMMA_TILE_CUH
#define GK_DGEMM_DMMA_TILE_CUH

#include <stdint.h>

namespace gk_dmma {

constexpr int BM = 128, BN = 128, BK = 16, THREADS = 256;
constexpr int TILE_DOUBLES = BM * BK;            /* per operand and stage (BN * BK too) */
constexpr int STAGE_BYTES = 2 * TILE_DOUBLES * 8; /* A then B */

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

/* A 16-byte shared-memory read. Volatile, like the matrix instructions, so
 * that the compiler keeps the order of the mainloop: fragments loaded one
 * m16 group ahead of the products, not all at once (which would need more
 * than 255 registers). */
__device__ __forceinline__ void lds128(double &x, double &y, uint32_t addr)
{
	asm volatile("ld.shared.v2.f64 {%0, %1}, [%2];\n" : "=d"(x), "=d"(y) : "r"(addr) : "memory");
}

__device__ __forceinline__ int clamp_bytes(int64_t elems, int cap)
{
	return elems <= 0 ? 0 : (elems * 8 >= cap ? cap : (int)(elems * 8));
}

/* The KX swizzle of a row group q = (k >> 2) & 3. */
template <bool IS_A>
__device__ __forceinline__ constexpr int kx_swz(int q)
{
	return IS_A ? q : ((q & 1) | ((q & 2) << 1));
}

/*
 * The copy of one operand's tile (x = m for A, n for B) into a stage.
 * XK: element (x, kk) at p[x * ld + kk]; KX: at p[kk * ld + x].
 */
template <bool XK, bool IS_A>
struct TileLoader {
	static constexpr int LS = IS_A ? 3 : 2;
	const double *g; /* this thread's first element at k = k0 of the current step */
	int64_t ld;
	int64_t klim;    /* valid k in [0, klim) relative to the tile origin */
	int xlim;        /* valid x in [0, xlim) relative to the tile origin (clamped) */

	__device__ __forceinline__ void init(const double *p, int64_t ld_, int64_t x0, int64_t xs, int64_t k0,
	                                     int64_t ks, int vec, int tid)
	{
		ld = ld_;
		xlim = (xs - x0 < 2 * BM) ? (int)(xs - x0) : 2 * BM;
		klim = ks - k0;
		if (XK) {
			const int xr = vec ? tid >> 3 : tid >> 4;
			const int kk = vec ? (tid & 7) * 2 : tid & 15;
			g = p + (x0 + xr) * ld + k0 + kk;
		} else {
			const int kr = vec ? tid >> 6 : tid >> 7;
			const int xx = vec ? (tid & 63) * 2 : tid & 127;
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
				const uint32_t s0 = s + (uint32_t)(xr * 8 + (kc ^ ((xr >> LS) & 1))) * 16;
#pragma unroll
				for (int p = 0; p < 4; ++p) {
					const int bytes = (xr + 32 * p < xlim) ? bytes_k : 0;
					const double *src = g + (int64_t)(32 * p) * ld;
					cp_async16_edge(s0 + p * 32 * 8 * 16, src, base, bytes);
				}
			} else {
				const int xr = tid >> 4, kk = tid & 15;
				const int bytes_k = (kb + kk < klim) ? 8 : 0;
				const uint32_t s0 =
				    s + (uint32_t)((xr * 8 + ((kk >> 1) ^ ((xr >> LS) & 1))) * 2 + (kk & 1)) * 8;
#pragma unroll
				for (int p = 0; p < 8; ++p) {
					const int bytes = (xr + 16 * p < xlim) ? bytes_k : 0;
					const double *src = g + (int64_t)(16 * p) * ld;
					cp_async8(s0 + p * 16 * 8 * 16, bytes ? src : base, bytes);
				}
			}
			g += BK;
		} else {
			if (vec) {
				const int kr = tid >> 6, xc = tid & 63;
				const int bytes_x = clamp_bytes((int64_t)(xlim - 2 * xc), 16);
#pragma unroll
				for (int p = 0; p < 4; ++p) {
					const int kq = kr + 4 * p; /* (kq >> 2) & 3 == p */
					const int bytes = (kb + kq < klim) ? bytes_x : 0;
					const double *src = g + (int64_t)(4 * p) * ld;
					const uint32_t d = s + (uint32_t)(kq * 64 + (xc ^ kx_swz<IS_A>(p))) * 16;
					cp_async16_edge(d, src, base, bytes);
				}
			} else {
				const int kr = tid >> 7, xx = tid & 127;
				const int bytes_x = (xx < xlim) ? 8 : 0;
#pragma unroll
				for (int p = 0; p < 8; ++p) {
					const int kq = kr + 2 * p; /* (kq >> 2) & 3 == p >> 1 */
					const int bytes = (kb + kq < klim) ? bytes_x : 0;
					const double *src = g + (int64_t)(2 * p) * ld;
					const uint32_t d =
					    s + (uint32_t)((kq * 64 + ((xx >> 1) ^ kx_swz<IS_A>(p >> 1))) * 2 + (xx & 1)) * 8;
					cp_async8(d, bytes ? src : base, bytes);
				}
			}
			g += (int64_t)BK * ld;
		}
	}
};

/* A thread's byte offsets of its fragments in a stage's A and B tiles
 * (lane g, t; warp piece at wm, wn); the rest of each address is constant. */
template <bool A_XK, bool B_XK>
struct FragOffsets {
	uint32_t a[4], b[2];

	__device__ __forceinline__ void init(int wm, int wn, int g, int t)
	{
		if (A_XK) {
			/* row wm + 8g + r, chunks 2t, 2t + 1 swizzled by g & 1 */
			a[0] = (uint32_t)(((wm + 8 * g) * 8 + ((2 * t) ^ (g & 1))) * 16);
			a[1] = (uint32_t)(((wm + 8 * g) * 8 + ((2 * t + 1) ^ (g & 1))) * 16);
			a[2] = a[3] = 0;
		} else {
			/* row 4t + v, chunk (wm / 2 + 4g + mi) ^ t */
#pragma unroll
			for (int mi = 0; mi < 4; ++mi)
				a[mi] = (uint32_t)((4 * t * 64 + ((wm / 2 + 4 * g + mi) ^ t)) * 16);
		}
		if (B_XK) {
			/* row wn + 4g + j, chunks 2t, 2t + 1 swizzled by g & 1 */
			b[0] = (uint32_t)(((wn + 4 * g) * 8 + ((2 * t) ^ (g & 1))) * 16);
			b[1] = (uint32_t)(((wn + 4 * g) * 8 + ((2 * t + 1) ^ (g & 1))) * 16);
		} else {
			/* row 4t + v, chunks (wn / 2 + 2g + h) ^ F(t) */
			const int f = kx_swz<false>(t);
			b[0] = (uint32_t)((4 * t * 64 + ((wn / 2 + 2 * g) ^ f)) * 16);
			b[1] = (uint32_t)((4 * t * 64 + ((wn / 2 + 2 * g + 1) ^ f)) * 16);
		}
	}
};

/* A's fragment for one m16 group mi of the warp: af[h][v] = A(8g + 2mi + h, 4t + v). */
template <bool A_XK, bool B_XK>
__device__ __forceinline__ void load_a(double (&af)[2][4], uint32_t sa, const FragOffsets<A_XK, B_XK> &o,
                                       int mi)
{
	if (A_XK) {
#pragma unroll
		for (int h = 0; h < 2; ++h) {
			lds128(af[h][0], af[h][1], sa + o.a[0] + (2 * mi + h) * 128);
			lds128(af[h][2], af[h][3], sa + o.a[1] + (2 * mi + h) * 128);
		}
	} else {
#pragma unroll
		for (int v = 0; v < 4; ++v)
			lds128(af[0][v], af[1][v], sa + o.a[mi] + v * 64 * 16);
	}
}

/* B's fragments of the warp: bf[j][v] = B(4t + v, 4g + j). */
template <bool A_XK, bool B_XK>
__device__ __forceinline__ void load_b(double (&bf)[4][4], uint32_t sb, const FragOffsets<A_XK, B_XK> &o)
{
	if (B_XK) {
#pragma unroll
		for (int j = 0; j < 4; ++j) {
			lds128(bf[j][0], bf[j][1], sb + o.b[0] + j * 128);
			lds128(bf[j][2], bf[j][3], sb + o.b[1] + j * 128);
		}
	} else {
#pragma unroll
		for (int v = 0; v < 4; ++v) {
			lds128(bf[0][v], bf[1][v], sb + o.b[0] + v * 64 * 16);
			lds128(bf[2][v], bf[3][v], sb + o.b[1] + v * 64 * 16);
		}
	}
}

/* The tile of C at (tm, tn), k range [k0, k1): the mainloop of Mma (a
 * class with a static step(acc, af, bf, mi): the products of one m16 group
 * over one k step of 16), then the epilogue. smem holds STAGES stages. */
template <class Mma, bool A_XK, bool B_XK, int STAGES>
__device__ __forceinline__ void tile(const Params &P, unsigned char *smem, int64_t tm, int64_t tn,
                                     int64_t k0, int64_t k1, double *c, double alpha, double beta,
                                     int vec_c, int64_t ldc)
{
	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const int g = lane >> 2, t = lane & 3;
	const int wm = (warp & 1) * 64, wn = (warp >> 1) * 32;
	const int64_t m0 = tm * BM, n0 = tn * BN;

	TileLoader<A_XK, true> la;
	TileLoader<B_XK, false> lb;
	la.init(P.a, P.lda, m0, P.m, k0, k1, P.a_vec, tid);
	lb.init(P.b, P.ldb, n0, P.n, k0, k1, P.b_vec, tid);

	const uint32_t s_base = smem_addr(smem);
	FragOffsets<A_XK, B_XK> fo;
	fo.init(wm, wn, g, t);
	const int64_t ksteps = (k1 - k0 + BK - 1) / BK;

#pragma unroll
	for (int s = 0; s < STAGES - 1; ++s) {
		if (s < ksteps) {
			const uint32_t st = s_base + s * STAGE_BYTES;
			la.load(st, (int64_t)s * BK, tid, P.a, P.a_vec);
			lb.load(st + TILE_DOUBLES * 8, (int64_t)s * BK, tid, P.b, P.b_vec);
		}
		cp_async_commit();
	}

	double acc[8][8];
#pragma unroll
	for (int r = 0; r < 8; ++r)
#pragma unroll
		for (int q = 0; q < 8; ++q)
			acc[r][q] = 0.0;

	int rd = 0, wr = STAGES - 1;
	for (int64_t ks = 0; ks < ksteps; ++ks) {
		cp_async_wait<STAGES - 2>();
		__syncthreads();
		const int64_t pf = ks + STAGES - 1;
		if (pf < ksteps) {
			const uint32_t st = s_base + wr * STAGE_BYTES;
			la.load(st, pf * BK, tid, P.a, P.a_vec);
			lb.load(st + TILE_DOUBLES * 8, pf * BK, tid, P.b, P.b_vec);
		}
		cp_async_commit();
		wr = (wr + 1 == STAGES) ? 0 : wr + 1;

		const uint32_t sa = s_base + rd * STAGE_BYTES, sb = sa + TILE_DOUBLES * 8;
		rd = (rd + 1 == STAGES) ? 0 : rd + 1;
		double bf[4][4], af[2][2][4];
		load_b(bf, sb, fo);
		load_a(af[0], sa, fo, 0);
#pragma unroll
		for (int mi = 0; mi < 4; ++mi) {
			if (mi < 3)
				load_a(af[(mi + 1) & 1], sa, fo, mi + 1);
			Mma::step(acc, af[mi & 1], bf, mi);
		}
	}
	cp_async_wait<0>();

	/* Epilogue: C(8g + r, 8t + q) of the warp's piece. */
	const int64_t row0 = m0 + wm + 8 * g, col0 = n0 + wn + 8 * t;
	const bool full = (row0 + 8 <= P.m) && (col0 + 8 <= P.n);
#pragma unroll
	for (int r = 0; r < 8; ++r) {
		const int64_t i = row0 + r;
		double *cr = c + i * ldc + col0;
		if (full && vec_c) {
#pragma unroll
			for (int q = 0; q < 8; q += 2) {
				double2 v = make_double2(alpha * acc[r][q], alpha * acc[r][q + 1]);
				if (beta != 0.0) {
					const double2 o = *reinterpret_cast<const double2 *>(cr + q);
					v.x = fma(beta, o.x, v.x);
					v.y = fma(beta, o.y, v.y);
				}
				*reinterpret_cast<double2 *>(cr + q) = v;
			}
		} else if (i < P.m) {
#pragma unroll
			for (int q = 0; q < 8; ++q) {
				if (col0 + q < P.n) {
					double v = alpha * acc[r][q];
					if (beta != 0.0)
						v = fma(beta, cr[q], v);
					cr[q] = v;
				}
			}
		}
	}
}

/* The kernel body: the tiles of the launch, grouped 8 tile rows at a time so
 * that blocks running together share panels of A and B in L2; with split-K
 * the tile index runs over splits x tiles, each split writing its partial
 * product (alpha 1, beta 0) to its plane of the workspace P.c. */
template <class Mma, bool A_XK, bool B_XK, int STAGES>
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
			tile<Mma, A_XK, B_XK, STAGES>(P, smem, tm, tn, k0, k1, P.c + z * P.split_plane, 1.0, 0.0,
			                              P.c_vec, P.n);
		else
			tile<Mma, A_XK, B_XK, STAGES>(P, smem, tm, tn, k0, k1, P.c, P.alpha, P.beta, P.c_vec,
			                              P.ldc);
		__syncthreads(); /* the next tile refills the stages */
	}
}

} /* namespace gk_dmma */

#endif
