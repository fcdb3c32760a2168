/*
 * ladder_tiled_tmpl.h - rungs 5 to 9 of the CPU ladder (seed sections 1.5 to
 * 1.9), written once for both precisions: ladder_tiled_f32.c and
 * ladder_tiled_f64.c include it after naming the type (GK_T), the argument
 * struct (GK_ARGS), the kernel slots and the function names.
 *
 * The five rungs share the seed's driver and differ only in the kernel that
 * multiplies two tiles, and in the block sizes that kernel wants:
 *
 *   for each block row of C (bi, shared among OpenMP threads):
 *     C(bi, :) := beta * C(bi, :)
 *     for each block of k (bk):   copy A(bi, bk) into the tile At
 *       for each block column (bj):
 *         copy B(bk, bj) into Bt, zero Ct
 *         Ct += At * Bt           <- the rung's tile kernel
 *         C(bi, bj) += alpha * Ct
 *
 * The copies make every tile dense and row-major whatever the strides and
 * transposes of A and B, and pad it with zeros up to a multiple of the
 * kernel's step (2 rows x 4 steps of k for the 2 x 4 kernel, 3 or 6 rows by
 * 32 or 64 columns for the register tiles), so the kernels never see an edge:
 * the padding multiplies into rows and columns of Ct that are not written
 * back. Each thread owns a block row of C and its own three tiles, taken
 * from one buffer allocated per call.
 */

/* The tile kernels, one per rung family. */
enum { GK_TILE_AXPY, GK_TILE_UNROLL, GK_TILE_REG_SMALL, GK_TILE_REG_LARGE };

typedef struct {
	const char *name;   /* for error messages */
	int kernel;         /* GK_TILE_* */
	int64_t mb, kb, nb; /* block sizes: rows of C, steps of k, columns of C */
	int64_t mr, kr, nr; /* the kernel's steps; tiles are zero-padded to them */
	int64_t skew;       /* elements each tile starts past a 64-byte boundary */
} GK_RUNG;

/* Elements of GK_T in 64 bytes: the alignment of a tile with skew 0. */
#define GK_TILE_LINE ((int64_t)(64 / sizeof(GK_T)))

static int64_t GK_FN_ROUND_UP(int64_t x, int64_t step)
{
	return (x + step - 1) / step * step;
}

/*
 * Copy the rows x cols matrix x (element (i, l) at x[i * rs + l * cs]) into
 * the dense tile t with row stride ld, and write zeros over the rest of the
 * rows_pad x cols_pad tile. The loop follows whichever stride is 1.
 */
static void GK_FN_COPY_TILE(int64_t rows, int64_t cols, const GK_T *x, int64_t rs, int64_t cs,
                            GK_T *t, int64_t ld, int64_t rows_pad, int64_t cols_pad)
{
	if (cs == 1) {
		for (int64_t i = 0; i < rows; i++)
			memcpy(t + i * ld, x + i * rs, (size_t)cols * sizeof(GK_T));
	} else if (rs == 1) {
		for (int64_t l = 0; l < cols; l++)
			for (int64_t i = 0; i < rows; i++)
				t[i * ld + l] = x[i + l * cs];
	} else {
		for (int64_t i = 0; i < rows; i++)
			for (int64_t l = 0; l < cols; l++)
				t[i * ld + l] = x[i * rs + l * cs];
	}
	for (int64_t i = 0; i < rows; i++)
		for (int64_t l = cols; l < cols_pad; l++)
			t[i * ld + l] = 0;
	for (int64_t i = rows; i < rows_pad; i++)
		memset(t + i * ld, 0, (size_t)cols_pad * sizeof(GK_T));
}

/* Ct(mt x nt) += At(mt x kt) * Bt(kt x nt) with the rung's kernel; the sizes
 * are already multiples of the kernel's steps. */
static void GK_FN_TILE_MUL(const GK_RUNG *r, const gk_kernels *kern, int64_t mt, int64_t kt,
                           int64_t nt, const GK_T *at, const GK_T *bt, GK_T *ct)
{
	const int64_t lda = r->kb, ldb = r->nb, ldc = r->nb;
	switch (r->kernel) {
	case GK_TILE_AXPY:
		/* Sections 1.5 and 1.6: i-k-j, each step one SIMD axpy along a row. */
		for (int64_t i = 0; i < mt; i++)
			for (int64_t l = 0; l < kt; l++)
				kern->GK_AXPY(nt, at[i * lda + l], bt + l * ldb, ct + i * ldc);
		break;
	case GK_TILE_UNROLL:
		/* Section 1.7: two rows of A times four steps of k per pass along C. */
		for (int64_t i = 0; i < mt; i += 2)
			for (int64_t l = 0; l < kt; l += 4)
				kern->GK_UNROLL(nt, at + i * lda + l, lda, bt + l * ldb, ldb, ct + i * ldc, ldc);
		break;
	default: {
		/* Sections 1.8 and 1.9: an MR x NR tile of C held in registers over
		 * the whole block of k. */
		const GK_REGTILE_FN fn = r->kernel == GK_TILE_REG_SMALL ? kern->GK_REG_SMALL
		                                                        : kern->GK_REG_LARGE;
		for (int64_t i = 0; i < mt; i += r->mr)
			for (int64_t j = 0; j < nt; j += r->nr)
				fn(kt, at + i * lda, lda, bt + j, ldb, ct + i * ldc + j, ldc);
		break;
	}
	}
}

/* Rows [i0, i0 + mt) of C, with this thread's tiles at, bt, ct. */
static void GK_FN_BLOCK_ROW(const GK_ARGS *p, const GK_RUNG *r, int64_t i0, int64_t mt,
                            GK_T *at, GK_T *bt, GK_T *ct)
{
	GK_T *c = p->c + i0 * p->rs_c;
	GK_FN_SCALE(mt, p->n, p->beta, c, p->rs_c);
	const int64_t mt_pad = GK_FN_ROUND_UP(mt, r->mr);
	for (int64_t l0 = 0; l0 < p->k; l0 += r->kb) {
		const int64_t kt = p->k - l0 < r->kb ? p->k - l0 : r->kb;
		const int64_t kt_pad = GK_FN_ROUND_UP(kt, r->kr);
		GK_FN_COPY_TILE(mt, kt, p->a + i0 * p->rs_a + l0 * p->cs_a, p->rs_a, p->cs_a, at, r->kb,
		                mt_pad, kt_pad);
		for (int64_t j0 = 0; j0 < p->n; j0 += r->nb) {
			const int64_t nt = p->n - j0 < r->nb ? p->n - j0 : r->nb;
			const int64_t nt_pad = GK_FN_ROUND_UP(nt, r->nr);
			GK_FN_COPY_TILE(kt, nt, p->b + l0 * p->rs_b + j0 * p->cs_b, p->rs_b, p->cs_b, bt,
			                r->nb, kt_pad, nt_pad);
			for (int64_t i = 0; i < mt_pad; i++)
				memset(ct + i * r->nb, 0, (size_t)nt_pad * sizeof(GK_T));
			GK_FN_TILE_MUL(r, p->kern, mt_pad, kt_pad, nt_pad, at, bt, ct);
			for (int64_t i = 0; i < mt; i++)
				p->kern->GK_AXPY(nt, p->alpha, ct + i * r->nb, c + i * p->rs_c + j0);
		}
	}
}

/* The shared driver: tiles for each thread, block rows among the threads. */
static gk_status GK_FN_TILED(const GK_ARGS *p, const GK_RUNG *r)
{
	const int64_t n_rows = (p->m + r->mb - 1) / r->mb;
	const int nt = p->threads < n_rows ? p->threads : (int)n_rows;
	/* Each tile gets a 64-byte line of slack for its skew. */
	const int64_t a_len = GK_FN_ROUND_UP(r->mb * r->kb, GK_TILE_LINE) + GK_TILE_LINE;
	const int64_t b_len = GK_FN_ROUND_UP(r->kb * r->nb, GK_TILE_LINE) + GK_TILE_LINE;
	const int64_t c_len = GK_FN_ROUND_UP(r->mb * r->nb, GK_TILE_LINE) + GK_TILE_LINE;
	const int64_t per_thread = a_len + b_len + c_len;
	GK_T *ws = gk_aligned_alloc((size_t)nt * (size_t)per_thread, sizeof(GK_T));
	if (ws == NULL)
		return gk_set_error(GK_ERR_NO_MEMORY, "%s: no memory for %d sets of tiles (%lld bytes)",
		                    r->name, nt, (long long)(per_thread * (int64_t)sizeof(GK_T)));
#pragma omp parallel num_threads(nt) if (nt > 1)
	{
		GK_T *mine = ws + (int64_t)omp_get_thread_num() * per_thread;
		GK_T *at = mine + r->skew, *bt = mine + a_len + r->skew;
		GK_T *ct = mine + a_len + b_len + r->skew;
#pragma omp for schedule(dynamic)
		for (int64_t bi = 0; bi < n_rows; bi++) {
			const int64_t i0 = bi * r->mb;
			GK_FN_BLOCK_ROW(p, r, i0, p->m - i0 < r->mb ? p->m - i0 : r->mb, at, bt, ct);
		}
	}
	gk_aligned_free(ws);
	return GK_OK;
}

/*
 * Rungs 5 and 6, "cpu.block64" and "cpu.block64_aligned" (sections 1.5 and
 * 1.6): 64 x 64 blocks, the i-k-j loop inside. The seed's first version kept
 * its tiles in plain arrays, which the x86-64 ABI aligns to 16 bytes only;
 * its second declared them alignas(64). Rung 5 reproduces the first case on
 * purpose, its tiles 16 bytes past a 64-byte boundary: half of the 32-byte
 * vector accesses of the AVX2 axpy and all the 64-byte ones of AVX-512
 * straddle two cache lines. Rung 6 starts them on the boundary.
 */
gk_status GK_FN_BLOCK64(const GK_ARGS *p)
{
	static const GK_RUNG r = {"cpu.block64", GK_TILE_AXPY, 64, 64, 64, 1, 1, 1,
	                          (int64_t)(16 / sizeof(GK_T))};
	return GK_FN_TILED(p, &r);
}

gk_status GK_FN_BLOCK64_ALIGNED(const GK_ARGS *p)
{
	static const GK_RUNG r = {"cpu.block64_aligned", GK_TILE_AXPY, 64, 64, 64, 1, 1, 1, 0};
	return GK_FN_TILED(p, &r);
}

/* Rung 7, "cpu.unroll_2x4" (section 1.7): rung 6 with the 2 x 4 x N kernel. */
gk_status GK_FN_UNROLL(const GK_ARGS *p)
{
	static const GK_RUNG r = {"cpu.unroll_2x4", GK_TILE_UNROLL, 64, 64, 64, 2, 4, 1, 0};
	return GK_FN_TILED(p, &r);
}

/*
 * Rungs 8 and 9, "cpu.avx2_3x32" and "cpu.avx512_6x64" (sections 1.8 and
 * 1.9): the register tiles. The seed tried blocks of 64 to 256; here a block
 * row is 96 rows (a multiple of both 3 and 6) and a block of k is 256 steps,
 * so a 3- or 6-row strip of At stays in L1 while the kernel sweeps Bt
 * (256 x 128 or 256 x 256 elements, in L2) from left to right.
 */
gk_status GK_FN_REG_SMALL(const GK_ARGS *p)
{
	static const GK_RUNG r = {"cpu.avx2_3x32", GK_TILE_REG_SMALL, 96, 256, 128,
	                          3, 1, GK_REG_SMALL_NR, 0};
	return GK_FN_TILED(p, &r);
}

gk_status GK_FN_REG_LARGE(const GK_ARGS *p)
{
	static const GK_RUNG r = {"cpu.avx512_6x64", GK_TILE_REG_LARGE, 96, 256, 256,
	                          6, 1, GK_REG_LARGE_NR, 0};
	return GK_FN_TILED(p, &r);
}
