/*
 * gemm_u_tiles_avx512.h - the tile shapes of the AVX-512 unpacked GEMM
 * kernels (gemm_u_f32_avx512_6x64.c, gemm_u_f64_avx512_6x32.c), each a
 * function of its own, and the switch cases that pick one. Included by
 * those two files after their tile(), with UT (the element type) and UMASK
 * (the mask type of one full vector) defined.
 *
 * gcc allocates registers region by region for at most 100 loops of a
 * function (ira-max-loops-num); with every shape's loops in one function,
 * adding the 16-row shapes cost other shapes' hot loops their registers
 * (index registers kept in vector ones: 8 x 16 x 2000 ran 3% slower).
 * Apart, each shape gets them all; the kernel's switch ends in a jump.
 */
#define TILE_FN(r, nvec, h)                                                                   \
	static __attribute__((noinline)) void tile_##r##_##nvec##_##h(                        \
		int64_t k, UT alpha, const UT *restrict a, int64_t rs_a, int64_t cs_a,        \
		const UT *restrict b, int64_t rs_b, UT beta, UT *restrict c, int64_t rs_c,     \
		UMASK ml, __mmask8 mh)                                                        \
	{                                                                                     \
		tile(r, nvec, h, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c, ml, mh);    \
	}
#define TILE_FNS(r, nvec) TILE_FN(r, nvec, 0) TILE_FN(r, nvec, 1) TILE_FN(r, nvec, 2)
#define FNS6(v) TILE_FNS(1, v) TILE_FNS(2, v) TILE_FNS(3, v) TILE_FNS(4, v) TILE_FNS(5, v) TILE_FNS(6, v)
#define FNS8(v) FNS6(v) TILE_FNS(7, v) TILE_FNS(8, v)
#define FNS12(v) FNS8(v) TILE_FNS(9, v) TILE_FNS(10, v) TILE_FNS(11, v) TILE_FNS(12, v)
#define FNS16(v) FNS12(v) TILE_FNS(13, v) TILE_FNS(14, v) TILE_FNS(15, v) TILE_FNS(16, v)

/* 16 rows of one vector, 12 of two, 8 of three, 6 of four (kernel_api.h). */
FNS16(1)
FNS12(2)
FNS8(3)
FNS6(4)

/* case r of a switch on the rows, for count tiles of nvec vectors (the
 * last one: of half width when half, whole when whole, else masked). */
#define T(r, nvec)                                                                            \
	case r: {                                                                             \
		void (*const fn)(int64_t, UT, const UT *, int64_t, int64_t, const UT *, int64_t, \
		                 UT, UT *, int64_t, UMASK, __mmask8) =                          \
			half    ? tile_##r##_##nvec##_1                                          \
			: whole ? tile_##r##_##nvec##_2 : tile_##r##_##nvec##_0;                \
		for (int64_t t = 0; t < count; t++, a += (r) * rs_a, c += (r) * rs_c)           \
			fn(k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c, ml, mh);            \
		break;                                                                        \
	}
#define ROWS6(v) T(1, v); T(2, v); T(3, v); T(4, v); T(5, v); T(6, v)
#define ROWS8(v) ROWS6(v); T(7, v); T(8, v)
#define ROWS12(v) ROWS8(v); T(9, v); T(10, v); T(11, v); T(12, v)
#define ROWS16(v) ROWS12(v); T(13, v); T(14, v); T(15, v); T(16, v)

/* The entries of a kernel file, around its u_kernel(groups, count, ...)
 * (defined after this header, before the use; count tiles of mv rows, one
 * under the other): plain (groups 0), name##p (2: row pairs and quads,
 * gemm_u_pairs_avx512.c) and name##q (4: quads only), each as the one-tile
 * kernel (gk_gemm_u_*_fn) and as the column of tiles (name##_col,
 * gk_gemm_uc_*_fn: the tiles of one row plan in two calls of the tile
 * functions, which loop over them). table_avx512.c says which ones the
 * table takes. */
#define U_ENTRY(fn, groups)                                                                    \
	void fn(int64_t mv, int64_t nv, int64_t k, UT alpha, const UT *restrict a, int64_t rs_a,  \
	        int64_t cs_a, const UT *restrict b, int64_t rs_b, UT beta, UT *restrict c,        \
	        int64_t rs_c)                                                                   \
	{                                                                                       \
		u_kernel(groups, 1, mv, nv, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c);   \
	}                                                                                       \
	void fn##_col(int64_t nblk, int64_t base, int64_t extra, int64_t nv, int64_t k,         \
	              UT alpha, const UT *restrict a, int64_t rs_a, int64_t cs_a,               \
	              const UT *restrict b, int64_t rs_b, UT beta, UT *restrict c,              \
	              int64_t rs_c)                                                             \
	{                                                                                       \
		if (extra > 0) {                                                                \
			u_kernel(groups, extra, base + 1, nv, k, alpha, a, rs_a, cs_a, b, rs_b, \
			         beta, c, rs_c);                                                \
			a += extra * (base + 1) * rs_a;                                         \
			c += extra * (base + 1) * rs_c;                                         \
		}                                                                               \
		if (nblk > extra)                                                               \
			u_kernel(groups, nblk - extra, base, nv, k, alpha, a, rs_a, cs_a, b, rs_b, \
			         beta, c, rs_c);                                                \
	}
#define U_ENTRIES(name) U_ENTRY(name, 0) U_ENTRY(name##p, 2) U_ENTRY(name##q, 4)
