/*
 * kernel_api.h - the contract between the drivers and the leaf kernels.
 *
 * A leaf kernel (src/cpu/<isa>/) includes only this header. It computes a
 * fixed operation on memory it is handed; it never allocates, never checks
 * arguments beyond assert(), and never starts threads.
 *
 * Kernels are gathered in one table per ISA, built "reference then
 * override": gk_kernels_init_generic fills every slot; the AVX2 init calls it
 * and replaces what AVX2 does better; the AVX-512 init calls the AVX2 one and
 * does the same. Dispatch (src/core/dispatch.c) picks one table once.
 */
#ifndef GK_KERNEL_API_H
#define GK_KERNEL_API_H

#include <stdint.h>

/* CPU features, as bits of gk_cpu_features(). */
#define GK_CPU_SSE2      (1ull << 0)
#define GK_CPU_SSSE3     (1ull << 1)
#define GK_CPU_SSE41     (1ull << 2)
#define GK_CPU_AVX       (1ull << 3)
#define GK_CPU_AVX2      (1ull << 4)
#define GK_CPU_FMA       (1ull << 5)
#define GK_CPU_AVX512F   (1ull << 6)
#define GK_CPU_AVX512DQ  (1ull << 7)
#define GK_CPU_AVX512BW  (1ull << 8)
#define GK_CPU_AVX512VL  (1ull << 9)
#define GK_CPU_GFNI      (1ull << 10)
#define GK_CPU_VPCLMULQDQ (1ull << 11)
#define GK_CPU_AVX512VBMI (1ull << 12)

/* y[0..n) += alpha * x[0..n); x and y unit-stride, need not be aligned.
 * Every element gets the same operations wherever it lies in the call (one
 * fused multiply-add where the set has FMA, a multiply and an add where
 * not): the blocked driver's matrix-vector way cuts the columns by the
 * thread count and relies on it for the same bits. */
typedef void (*gk_axpy_f32_fn)(int64_t n, float alpha, const float *restrict x,
                               float *restrict y);
typedef void (*gk_axpy_f64_fn)(int64_t n, double alpha, const double *restrict x,
                               double *restrict y);
/* y[0..n) += alpha[0] * x[0..n) + ... + alpha[3] * x[3 ldx..3 ldx + n):
 * four axpys in that order, one pass over y (the same operations on every
 * element as the four calls of the axpy slot: the same bits). Reading four
 * rows of a matrix at once keeps four streams from memory in flight. */
typedef void (*gk_axpy4_f32_fn)(int64_t n, const float *restrict alpha, const float *restrict x,
                                int64_t ldx, float *restrict y);
typedef void (*gk_axpy4_f64_fn)(int64_t n, const double *restrict alpha,
                                const double *restrict x, int64_t ldx, double *restrict y);
/* sum of x[i] * y[i] for i < n; unit-stride, need not be aligned. */
typedef float (*gk_dot_f32_fn)(int64_t n, const float *restrict x, const float *restrict y);
typedef double (*gk_dot_f64_fn)(int64_t n, const double *restrict x, const double *restrict y);

/*
 * GEMM microkernel: one full MR x NR tile of C,
 *   C := beta * C + alpha * Apanel * Bpanel,
 * for any k >= 0 (k = 0 gives C := beta * C).
 * - a: an MR x k sliver of A packed by columns: a[l * MR + i] = A(i, l).
 * - b: a k x NR sliver of B packed by rows:     b[l * NR + j] = B(l, j).
 * - c: element (i, j) at c[i * rs_c + j]; rows are contiguous (cs_c = 1).
 * - beta == 0 writes C without reading it (NaN or Inf there stays out).
 * a and b are 64-byte aligned when the driver packs them (kernels may rely
 * on nothing more than element alignment); c has element alignment only.
 * The shape MR x NR is fixed per kernel and stored beside it in the table;
 * MR * NR <= GK_GEMM_MAX_TILE, so a driver can hold a scratch tile on its
 * stack for the edges of C (docs/KERNELS.md).
 */
#define GK_GEMM_MAX_TILE 1024
typedef void (*gk_gemm_f32_fn)(int64_t k, float alpha, const float *restrict a,
                               const float *restrict b, float beta, float *restrict c,
                               int64_t rs_c);
typedef void (*gk_gemm_f64_fn)(int64_t k, double alpha, const double *restrict a,
                               const double *restrict b, double beta, double *restrict c,
                               int64_t rs_c);

/*
 * The same microkernel, with the same arithmetic (the same bits), that
 * also requests cache lines into L2 (any addresses: it never reads them),
 * spread over its k loop: those at pf[0 .. npf), then the nrun lines at
 * run, run + 64, ... (a packed sliver, in one piece: no list to build).
 * A driver that streams an operand from memory hands it the lines it needs
 * next: a few requests issued all along keep the misses in flight without
 * the stall of a burst on a full miss queue. The slot is NULL in a table
 * without one (the driver then requests the lines itself).
 */
typedef void (*gk_gemm_pf_f32_fn)(int64_t k, float alpha, const float *restrict a,
                                  const float *restrict b, float beta, float *restrict c,
                                  int64_t rs_c, const void *const *pf, int64_t npf,
                                  const void *run, int64_t nrun);
typedef void (*gk_gemm_pf_f64_fn)(int64_t k, double alpha, const double *restrict a,
                                  const double *restrict b, double beta, double *restrict c,
                                  int64_t rs_c, const void *const *pf, int64_t npf,
                                  const void *run, int64_t nrun);

/*
 * Unpacked GEMM microkernel: one tile of C, mv x nv, straight from the
 * operands, for any k >= 0. With MU, NU and VW from the table (the largest
 * tile, which may differ from the packed kernel's, and the vector width;
 * NU is a whole number of vectors, which test_gemm_unpacked checks),
 * 1 <= nv <= NU and 1 <= mv <= gk_gemm_u_rows(MU, NU, VW, nv) (below):
 * a tile of fewer vectors per row may have more rows, as many as fit the
 * same accumulators, up to GK_GEMM_U_MAX_ROWS, GK_GEMM_U_MAX_ROWS_2V for a
 * tile two vectors wide, or GK_GEMM_U_MAX_ROWS_1V for one vector wide. The
 * kernels read rows 8 and on from a second base pointer, so that the row
 * addresses fit the general registers (with one base, 12 rows or more ran
 * 8-13% slower per FMA than 8). One vector wide, the extra rows are what
 * hides the FMA latency: a 16 x 16 x 16 SGEMM in one 16-row tile instead of
 * two of 8 ran 11-12% faster call by call on a Zen 5 core. Two vectors
 * wide, 12 rows (24 accumulators, the AVX-512 kernels) spread the tile's
 * start and end over half as many FMAs again: 32 x 32 x 32 SGEMM in tiles of
 * 11, 11 and 10 rows instead of four of 8 ran 1.04x, 24 x 12 x 24 DGEMM
 * 1.08x and 12 x 32 x 255 SGEMM 1.13x call by call on an Emerald Rapids
 * core. It computes
 *   C := beta * C + alpha * A * B,   A mv x k, B k x nv,
 * - a: A(i, l) at a[i * rs_a + l * cs_a], any strides (A by rows, by
 *   columns, or a packed sliver: rs_a = 1, cs_a = MR);
 * - b: B(l, j) at b[l * rs_b + j], rows contiguous (B by rows, or a packed
 *   sliver: rs_b = NR);
 * - c: C(i, j) at c[i * rs_c + j]; beta == 0 writes C without reading it.
 * Only those mv x k, k x nv and mv x nv elements are read or written, with
 * element alignment only. Each element of C gets the same operations in the
 * same order as from the packed microkernel: the two give the same bits.
 * Along its k loop the kernel requests (prefetches, never reads) the first
 * line at b + NU of each row of B it reads: for a B by rows, the next
 * sliver of NU columns, which the driver's next tiles read. Its rows lie
 * in as many pages, which the hardware does not fetch ahead; requested one
 * sliver early, a product of few rows streaming B from memory ran 1.1-1.4x
 * faster on a Zen 5 core (16 x 4112 x 2048 DGEMM 1.19x with the AVX2
 * kernels, 1.38x with the AVX-512 ones; bench/results/2026-11-28-zen5-skinny/),
 * and products in cache the same within 2%. A request past the end of B
 * is harmless: a prefetch never faults.
 */
#define GK_GEMM_U_MAX_ROWS 8
#define GK_GEMM_U_MAX_ROWS_1V 16
#define GK_GEMM_U_MAX_ROWS_2V 12

/* The most rows of an unpacked tile nv wide, for a kernel of MU x NU tiles
 * and vectors of VW elements (the contract above). */
static inline int64_t gk_gemm_u_rows(int64_t mu, int64_t nu, int64_t vw, int64_t nv)
{
	const int64_t nvec = (nv + vw - 1) / vw;
	const int64_t r = mu * (nu / vw) / nvec;
	const int64_t lim = nvec == 1   ? GK_GEMM_U_MAX_ROWS_1V
	                    : nvec == 2 ? GK_GEMM_U_MAX_ROWS_2V
	                                : GK_GEMM_U_MAX_ROWS;
	return r < lim ? r : lim;
}
typedef void (*gk_gemm_u_f32_fn)(int64_t mv, int64_t nv, int64_t k, float alpha,
                                 const float *restrict a, int64_t rs_a, int64_t cs_a,
                                 const float *restrict b, int64_t rs_b, float beta,
                                 float *restrict c, int64_t rs_c);
typedef void (*gk_gemm_u_f64_fn)(int64_t mv, int64_t nv, int64_t k, double alpha,
                                 const double *restrict a, int64_t rs_a, int64_t cs_a,
                                 const double *restrict b, int64_t rs_b, double beta,
                                 double *restrict c, int64_t rs_c);

/*
 * A column of unpacked tiles: nblk tiles of nv columns one under the other,
 * the first extra of them base + 1 rows tall, the others base, each within
 * the row limit above. The same as calling the unpacked kernel on each tile
 * in turn (A's and C's rows advancing by the tile's rows; the same bits),
 * with one call for the column instead of one for each tile, each of which
 * works out its masks and switches on its shape again: on an Emerald
 * Rapids core, DGEMM 16^3 and 32^3 ran 1.05x as fast, SGEMM 64^3 1.02x
 * (docs/KERNELS.md). Optional in a table (NULL: the driver calls the
 * one-tile kernel per tile).
 */
typedef void (*gk_gemm_uc_f32_fn)(int64_t nblk, int64_t base, int64_t extra, int64_t nv,
                                  int64_t k, float alpha, const float *restrict a, int64_t rs_a,
                                  int64_t cs_a, const float *restrict b, int64_t rs_b,
                                  float beta, float *restrict c, int64_t rs_c);
typedef void (*gk_gemm_uc_f64_fn)(int64_t nblk, int64_t base, int64_t extra, int64_t nv,
                                  int64_t k, double alpha, const double *restrict a,
                                  int64_t rs_a, int64_t cs_a, const double *restrict b,
                                  int64_t rs_b, double beta, double *restrict c, int64_t rs_c);

/*
 * Edge tiles of the packed way, for the last few columns of C (n % NR of
 * them), with the rows of the tile along the vector: C(mv x nv) := beta * C
 * + alpha * A * B, 1 <= mv <= the table's gemm_e_*_mr (one vector) and
 * 1 <= nv <= GK_GEMM_E_MAX_COLS, for any k >= 0;
 * - a: A(i, l) at a[l * cs_a + i] (a packed sliver of A: cs_a = MR);
 * - b: B(l, j) at b[l * rs_b + j] (a packed sliver of B: rs_b = NR);
 * - c: C(i, j) at c[i * rs_c + j]; beta == 0 writes C without reading it.
 * Only those elements are read or written, with element alignment only.
 * Each element of C gets the same operations in the same order as from the
 * packed microkernel: the same bits.
 */
#define GK_GEMM_E_MAX_COLS 16
typedef void (*gk_gemm_e_f32_fn)(int64_t mv, int64_t nv, int64_t k, float alpha,
                                 const float *restrict a, int64_t cs_a,
                                 const float *restrict b, int64_t rs_b, float beta,
                                 float *restrict c, int64_t rs_c);
typedef void (*gk_gemm_e_f64_fn)(int64_t mv, int64_t nv, int64_t k, double alpha,
                                 const double *restrict a, int64_t cs_a,
                                 const double *restrict b, int64_t rs_b, double beta,
                                 double *restrict c, int64_t rs_c);

/*
 * Dot tiles, for products whose C is a few columns wide: C(mv x nv) :=
 * beta * C + alpha * A * Bt^T with k along the vector, mv >= 1 rows and
 * 1 <= nv <= DN columns (the table's gemm_d_*_nr; gemm_d_*_mr is the
 * tallest tile, in which threads best take rows). A(i, l) at a[i * rs_a + l]
 * (rows contiguous), Bt(j, l) = B(l, j) at bt[j * rs_bt + l] (B by
 * columns, or packed by pack_dt), C(i, j) at c[i * rs_c + j]. Each element
 * gets a vector of partial sums (lane q: the terms with l = q modulo the
 * width, in order of l, from zero) summed by a fixed tree, times alpha (not
 * when alpha is 1), plus beta C by one multiply-add; beta == 0 reads no C.
 * The bits depend on the element's row of A, column of B and k only, not
 * on the tile it is computed in. Nothing at or past k is read in A or Bt.
 * pf: fetch A's rows ahead (the driver asks when A does not stay in L2).
 * off: 0, or (0 < off < the vector's lanes) where every row of A and of Bt
 * starts off elements past a multiple of the table's gemm_d_align bytes:
 * the rows are then read in aligned vectors from off elements before them
 * (those lanes masked, not read), with the same bits as off = 0 (the
 * lanes are put back in order before they are summed; the sign of a zero
 * sum aside).
 */
typedef void (*gk_gemm_d_f32_fn)(int64_t mv, int64_t nv, int64_t k, float alpha,
                                 const float *restrict a, int64_t rs_a,
                                 const float *restrict bt, int64_t rs_bt, float beta,
                                 float *restrict c, int64_t rs_c, int pf, int64_t off);
typedef void (*gk_gemm_d_f64_fn)(int64_t mv, int64_t nv, int64_t k, double alpha,
                                 const double *restrict a, int64_t rs_a,
                                 const double *restrict bt, int64_t rs_bt, double beta,
                                 double *restrict c, int64_t rs_c, int pf, int64_t off);
/* Bt(j, l) := B(l, j) for j < n and l < k, B's rows contiguous (B(l, j) at
 * b[l * rs_b + j]), Bt's rows kp apart, kp a multiple of GK_DT_ALIGN
 * elements and at least k; Bt(j, l) may be written, zero, for k <= l < kp
 * too (n x kp elements in all). */
#define GK_DT_ALIGN 16
/* The widest C that a table may send to its dot tiles. */
#define GK_GEMM_D_COLS 8
typedef void (*gk_pack_dt_f32_fn)(int64_t k, int64_t n, const float *restrict b, int64_t rs_b,
                                  float *restrict bt, int64_t kp);
typedef void (*gk_pack_dt_f64_fn)(int64_t k, int64_t n, const double *restrict b, int64_t rs_b,
                                  double *restrict bt, int64_t kp);

/*
 * Packing of rows x kc of X, whose rows are contiguous (element (i, l) at
 * x[i * rs + l]), into slivers of r rows, ps elements apart (blocked.h,
 * gk_pack_f32): dst[s * ps + l * r + i] = X(s * r + i, l), zero for rows
 * past the end; nothing else of dst written. A block of A stored by rows
 * packs this way, and a panel of B stored by columns. Any r >= 1.
 */
typedef void (*gk_pack_t_f32_fn)(int64_t rows, int64_t kc, const float *x, int64_t rs, int64_t r,
                                 float *dst, int64_t ps);
typedef void (*gk_pack_t_f64_fn)(int64_t rows, int64_t kc, const double *x, int64_t rs,
                                 int64_t r, double *dst, int64_t ps);

/*
 * Tile kernels of the seed ladder (src/gemm/ladder_tiled_tmpl.h). Unlike the
 * microkernels above they read unpacked row-major tiles that the driver has
 * copied, each with its own row stride, and they accumulate: C += A * B,
 * with element (i, l) of A at a[i * lda + l], (l, j) of B at b[l * ldb + j],
 * (i, j) of C at c[i * ldc + j]. No alignment is needed beyond the element's.
 *
 * unroll_2x4: C(2 x n) += A(2 x 4) * B(4 x n), any n >= 0 (seed section 1.7:
 *   two rows of A times four steps of k, SIMD along the rows of B and C).
 * regtile_<MR>x<NR>: C(MR x NR) += A(MR x k) * B(k x NR), any k >= 0, the
 *   shape fixed by the slot: 3 x 32 floats / 3 x 16 doubles fill the 16
 *   vector registers of AVX2 (12 accumulators, 3 broadcasts, 1 row of B;
 *   seed section 1.8), 6 x 64 floats / 6 x 32 doubles the 32 of AVX-512
 *   (24 accumulators, 4 vectors of B, broadcasts; seed section 1.9).
 */
typedef void (*gk_unroll_f32_fn)(int64_t n, const float *restrict a, int64_t lda,
                                 const float *restrict b, int64_t ldb, float *restrict c,
                                 int64_t ldc);
typedef void (*gk_unroll_f64_fn)(int64_t n, const double *restrict a, int64_t lda,
                                 const double *restrict b, int64_t ldb, double *restrict c,
                                 int64_t ldc);
typedef void (*gk_regtile_f32_fn)(int64_t k, const float *restrict a, int64_t lda,
                                  const float *restrict b, int64_t ldb, float *restrict c,
                                  int64_t ldc);
typedef void (*gk_regtile_f64_fn)(int64_t k, const double *restrict a, int64_t lda,
                                  const double *restrict b, int64_t ldb, double *restrict c,
                                  int64_t ldc);

/*
 * GF(2^8) dot product of `rows` output rows (the gf_dot[rows] slot, 1 <= rows
 * <= GK_GF256_MAX_ROWS; src/gf256/ is the driver): for r < rows, i < len,
 *   dst[r][off + i] = (acc ? dst[r][off + i] : 0) ^ sum_{j<k} c(r, j) * src[j][off + i]
 * with c(r, j) at coef + (r * k + j) * size, where the coefficient format is
 * - for gf_dot: the 32-byte expanded table of c (GK_GF256_TBL_BYTES):
 *   bytes 0..15 hold c * x, bytes 16..31 hold c * (x << 4), x = 0..15;
 * - for gf_dot_affine: the 8-byte GF2P8AFFINEQB bit matrix of "times c"
 *   (GK_GF256_AFFINE_BYTES, a little-endian uint64).
 * len >= 0, k >= 1; no alignment needed; bytes outside [off, off + len) are
 * neither read nor written. dst rows must not overlap src rows.
 * acc is a set of flags: GK_GF256_ACC accumulates as above; GK_GF256_STREAM
 * (only without GK_GF256_ACC) asks for non-temporal stores, for long rows of
 * dst that nothing reads back soon: they then go to memory without being
 * read first and without evicting src from the caches. A kernel may ignore
 * it (it uses it only where dst's rows are aligned to its vectors); one that
 * uses it fences its stores before it returns. GK_GF256_FAR (with either
 * or none) says that src's rows come from beyond L2 (the caller's inputs
 * are more than L2 holds): a kernel may request them ahead. A hint only.
 */
#define GK_GF256_ACC 1
#define GK_GF256_STREAM 2
#define GK_GF256_FAR 4
#define GK_GF256_MAX_ROWS 6
#define GK_GF256_TBL_BYTES 32
#define GK_GF256_AFFINE_BYTES 8
typedef void (*gk_gf256_dot_fn)(int64_t len, int64_t k, const uint8_t *restrict coef,
                                const uint8_t *const *restrict src,
                                uint8_t *const *restrict dst, int64_t off, int acc);

/* Whether a gf_dot kernel takes acc's GK_GF256_STREAM: asked for, without
 * GK_GF256_ACC, and every row of dst starting on a 64-byte line at off (the
 * kernels' main loops then write whole lines). */
static inline int gk_gf256_streams(int rows, uint8_t *const *dst, int64_t off, int acc)
{
	if ((acc & (GK_GF256_ACC | GK_GF256_STREAM)) != GK_GF256_STREAM)
		return 0;
	for (int r = 0; r < rows; r++)
		if ((uintptr_t)(dst[r] + off) % 64 != 0)
			return 0;
	return 1;
}

typedef struct gk_kernels {
	const char *name;   /* "generic", "avx2", "avx512" */
	uint64_t requires;  /* GK_CPU_* bits the CPU (and OS) must have */
	gk_axpy_f32_fn axpy_f32;
	gk_axpy_f64_fn axpy_f64;
	gk_axpy4_f32_fn axpy4_f32;
	gk_axpy4_f64_fn axpy4_f64;
	gk_dot_f32_fn dot_f32;
	gk_dot_f64_fn dot_f64;
	gk_gemm_f32_fn gemm_f32; /* GEMM microkernels and their tile shapes */
	int gemm_f32_mr, gemm_f32_nr;
	gk_gemm_f64_fn gemm_f64;
	int gemm_f64_mr, gemm_f64_nr;
	gk_gemm_pf_f32_fn gemm_pf_f32; /* the same with a prefetch list, or NULL */
	gk_gemm_pf_f64_fn gemm_pf_f64;
	/* Whether the driver also hands the prefetching kernels the next C
	 * tile in the down-the-columns order (1), or only B's lines (0: the
	 * next piece of B in the own-columns way, the next sliver of the
	 * panel down the columns): measured per table (docs/KERNELS.md). */
	int gemm_pf_next_c;
	/* Whether the requests ahead for the next piece of B (and A's runs)
	 * name every line a row touches (1), or one line every 64 bytes from
	 * the row's start (0), which leaves out the last line, partly in the
	 * row, where B does not start on a line (malloc's 16-byte
	 * alignment): measured per table (table_avx2.c, table_avx512.c). */
	int gemm_pf_whole_lines;
	/* Whether the driver walks C along its rows where a run of the B
	 * panel fits L2 beside the A block (the A sliver held in L1) for a
	 * product of any depth (1), or only for one whose k is a single block
	 * shallower than the blocking's kc, where C's traffic weighs most, or
	 * whose C fits L2 (0); on a small L2 it walks the rows for any panel
	 * either way.
	 * Measured per table (table_avx2.c). */
	int gemm_walk_deep;
	/* Packing X by rows into slivers (NULL: the driver's own loops). */
	gk_pack_t_f32_fn pack_t_f32;
	gk_pack_t_f64_fn pack_t_f64;
	gk_gemm_u_f32_fn gemm_u_f32; /* unpacked GEMM kernels: MU, NU, VW */
	int gemm_u_f32_mr, gemm_u_f32_nr, gemm_u_f32_vw;
	gk_gemm_u_f64_fn gemm_u_f64;
	int gemm_u_f64_mr, gemm_u_f64_nr, gemm_u_f64_vw;
	/* The same kernels by columns of tiles (NULL: tile by tile). */
	gk_gemm_uc_f32_fn gemm_uc_f32;
	gk_gemm_uc_f64_fn gemm_uc_f64;
	/* The small products that the blocked driver computes with the
	 * unpacked kernels rather than packing (way 1): at most
	 * GK_BLOCKED_SMALL_DIM a side and m n k at most this cubed per
	 * thread, per precision, measured per set and CPU (docs/KERNELS.md);
	 * [1] where A is by columns and B by rows (A read with a stride along
	 * k, B where it lies), [0] otherwise. */
	int gemm_u_f32_cube[2], gemm_u_f64_cube[2];
#define GK_KERNELS_U_CUBE 512 /* the default of both */
	/* The most columns of C that the blocked driver computes with the
	 * unpacked kernels whatever m and k (a thin C: A read once), per
	 * precision, measured per set and CPU; 0: its default
	 * (GK_BLOCKED_THIN_COLS, blocked.h). */
	int gemm_u_f32_thin, gemm_u_f64_thin;
	/* The unpacked kernels compute tiles of at most 1 / gemm_u_grouped of a
	 * vector of columns with several rows in one vector (2: row pairs and
	 * quads; 4: quads only; 0: none): those keep all their rows along a
	 * long k, where their accumulators are fewer than their rows. */
	int gemm_u_grouped;
	/* Edge tiles (NULL where a set has none) and the most rows of one (its
	 * vector; columns: GK_GEMM_E_MAX_COLS); the driver sends it the tiles
	 * on which it does fewer FMAs than the unpacked kernel
	 * (blocked_tmpl.h). */
	gk_gemm_e_f32_fn gemm_e_f32;
	int gemm_e_f32_mr;
	gk_gemm_e_f64_fn gemm_e_f64;
	int gemm_e_f64_mr;
	/* Dot tiles (NULL where a set has none): the tallest tile, the most
	 * columns of a call, and for a C n columns wide (n <= GK_GEMM_D_COLS)
	 * the least depth from which the driver sends it to them (0: never;
	 * below it, the unpacked tiles measured faster). */
	gk_gemm_d_f32_fn gemm_d_f32;
	gk_pack_dt_f32_fn pack_dt_f32;
	int gemm_d_f32_mr, gemm_d_f32_nr;
	int gemm_d_f32_min_k[GK_GEMM_D_COLS + 1];
	gk_gemm_d_f64_fn gemm_d_f64;
	gk_pack_dt_f64_fn pack_dt_f64;
	int gemm_d_f64_mr, gemm_d_f64_nr;
	int gemm_d_f64_min_k[GK_GEMM_D_COLS + 1];
	/* The bytes of the dot tiles' vectors (their off), and the widths of C
	 * (bit n: n columns) whose tiles the driver gives off > 0. */
	int gemm_d_align;
	unsigned gemm_d_off_cols;
	/* Tile kernels of the seed ladder; the shape is in the slot's name. */
	gk_unroll_f32_fn unroll_2x4_f32;
	gk_unroll_f64_fn unroll_2x4_f64;
	gk_regtile_f32_fn regtile_3x32_f32;
	gk_regtile_f64_fn regtile_3x16_f64;
	gk_regtile_f32_fn regtile_6x64_f32;
	gk_regtile_f64_fn regtile_6x32_f64;
	/* GF(2^8) dot products (gf_dot[0] unused). gf_dot_affine is NULL where a
	 * set has no GFNI kernels; it runs only when the CPU also has the
	 * gf_affine_requires bits (src/gf256/ checks at run time). */
	gk_gf256_dot_fn gf_dot[GK_GF256_MAX_ROWS + 1];
	gk_gf256_dot_fn gf_dot_affine[GK_GF256_MAX_ROWS + 1];
	uint64_t gf_affine_requires;
	const char *gf_affine_name; /* "avx2+gfni", "avx512+gfni"; NULL without */
	/* For one or two output rows, the affine kernels take at most this many
	 * inputs a call, the driver cutting more into groups of about
	 * gf_affine_few_group (0: the driver's general rule). */
	int gf_affine_few_most, gf_affine_few_group;
} gk_kernels;

/* The tables, in src/cpu/<isa>/table_<isa>.c. */
void gk_kernels_init_generic(gk_kernels *t);
void gk_kernels_init_avx2(gk_kernels *t);
void gk_kernels_init_avx512(gk_kernels *t);
/* Put the GFNI GF(2^8) kernels in a table: 64-byte vectors with AVX-512
 * (src/cpu/gfni/table_gfni.c), 32-byte vectors with AVX2 only
 * (src/cpu/gfni_avx2/table_gfni_avx2.c). */
void gk_kernels_add_gfni(gk_kernels *t);
/* Whether the tables put in their dot tiles: yes, unless GK_GEMM_DOT=0
 * (table_avx2.c). */
int gk_kernels_dot_tiles(void);
/* Put a set's dot tiles in t, with its tile limits, the bytes of its
 * vectors and the widths of C given off > 0 (gemm_d_off_cols), and its
 * least depths per width of C (GK_GEMM_D_COLS + 1 entries each), unless
 * GK_GEMM_DOT=0. */
static inline void gk_kernels_set_dot(gk_kernels *t, gk_gemm_d_f32_fn f32, gk_pack_dt_f32_fn p32,
                                      gk_gemm_d_f64_fn f64, gk_pack_dt_f64_fn p64, int mr,
                                      int nr32, int nr64, int align, unsigned off_cols,
                                      const int *min_k32, const int *min_k64)
{
	if (!gk_kernels_dot_tiles())
		return;
	t->gemm_d_f32 = f32;
	t->pack_dt_f32 = p32;
	t->gemm_d_f64 = f64;
	t->pack_dt_f64 = p64;
	t->gemm_d_f32_mr = t->gemm_d_f64_mr = mr;
	t->gemm_d_f32_nr = nr32;
	t->gemm_d_f64_nr = nr64;
	t->gemm_d_align = align;
	t->gemm_d_off_cols = off_cols;
	for (int n = 0; n <= GK_GEMM_D_COLS; n++) {
		t->gemm_d_f32_min_k[n] = min_k32[n];
		t->gemm_d_f64_min_k[n] = min_k64[n];
	}
}
void gk_kernels_add_gfni_avx2(gk_kernels *t);

/* The table in use (chosen once; GK_ARCH overrides), and one by name (NULL
 * when unknown or not supported by this CPU), for tests and comparisons. */
const gk_kernels *gk_kernels_active(void);
const gk_kernels *gk_kernels_by_name(const char *name);

#endif /* GK_KERNEL_API_H */
