/*
 * blocked_unpacked_tmpl.h - the ways of the blocked driver that do not pack
 * A and B into panels (blocked_tmpl.h, which includes this file, states
 * when each is taken): 1. unpacked tiles straight from A and B, 2. split
 * depth for skinny products with a long K, 3. the matrix-vector shapes.
 * Written once for both precisions through blocked_tmpl.h's GK_* names;
 * included only from there.
 */

/* ---- 1. unpacked ------------------------------------------------------- */

/* Rows [r0, r1) of the usweep below over one kc block: the column sliver
 * (NU wide) outer, the tiles of rows inner, with the row plans of the full
 * slivers and of a last one cut short. */
static inline void GK_FN(ublock)(const GK_ARGS *p, int64_t r0, int64_t j0, int64_t j1,
                                 int64_t kv, const GK_FN(rowplan) *full,
                                 const GK_FN(rowplan) *last, GK_T alpha, GK_T bt,
                                 const GK_T *a, const GK_T *b, int64_t rs_b, int64_t ps_b,
                                 const GK_T *bbuf, GK_T *c, int64_t rs_c)
{
	const int64_t nr = p->kern->GK_UNR;
	for (int64_t j = j0, js = 0; j < j1; j += nr, js++) {
		const int64_t nv = GK_FN(min)(nr, j1 - j);
		const GK_T *bj = bbuf != NULL ? bbuf + js * ps_b : b + j;
		GK_FN(ucol)(p->kern, nv < nr ? last : full, nv, kv, alpha, a + r0 * p->rs_a, p->rs_a,
		            p->cs_a, bj, rs_b, bt, c + r0 * rs_c + j, rs_c);
	}
}

/*
 * c(i0:i1, j0:j1) = beta c + alpha A(i0:i1, k0:k1) B(k0:k1, j0:j1), tile by
 * tile with the unpacked kernel, k by kc, the column sliver (NU wide) outer
 * so that it stays in cache while the rows of A pass (c may be C itself or
 * a buffer; element (i, j) at c[i * rs_c + j]). With more than one sliver,
 * the rows go in blocks whose kc columns of A take about a quarter of L2:
 * each sliver reads the block from L2, where without them it read all of
 * A's kc block again from L3 or memory (4096 x 32 x 4096 DGEMM with the
 * AVX2 kernels, four slivers, 1.45-1.61x faster on a Zen 5 core; the
 * AVX-512 ones, one sliver, the same). The tiles and their sums are the
 * same either way. When the rows of B are not contiguous, each kc block of
 * B is packed into slivers first, in bbuf (room for (j1 - j0) / NU + 1
 * slivers of kc rows).
 */
static void GK_FN(usweep)(const GK_ARGS *p, int64_t i0, int64_t i1, int64_t j0, int64_t j1,
                          int64_t k0, int64_t k1, int64_t kc, GK_T alpha, GK_T beta, GK_T *c,
                          int64_t rs_c, GK_T *bbuf)
{
	const int64_t nr = p->kern->GK_UNR, umr = p->kern->GK_UMR;
	const int64_t rows = i1 - i0, cols = j1 - j0, kv0 = GK_FN(min)(kc, k1 - k0);
	const int64_t nlast = cols < nr ? cols : cols == nr ? 0 : cols % nr;
	/* Rows per block: all of them with one sliver, else a multiple of the
	 * tiles' rows. */
	int64_t mb = rows;
	if (cols > nr && kv0 > 0) {
		gk_gemm_blocking bs;
		gk_gemm_blocking_get(sizeof(GK_T), p->kern->GK_MR, p->kern->GK_NR, &bs);
		const int64_t fit = bs.b_in_l2 / 2 / kv0 / umr * umr;
		mb = fit < umr ? umr : fit < rows ? fit : rows;
	}
	/* The rows in tiles for full slivers, and for a last one cut short
	 * (which may take taller tiles): for a whole block, and for the last,
	 * shorter one. */
	const int64_t rl = rows % mb;
	GK_FN(rowplan) full = {0, 0, 0}, last = {0, 0, 0}, fullr = {0, 0, 0}, lastr = {0, 0, 0};
	const int64_t ul = nlast > 0 ? GK_FN(urows)(p->kern, nlast, kv0) : 0;
	if (cols >= nr) {
		GK_FN(rowplan_init)(&full, mb, umr);
		if (rl > 0)
			GK_FN(rowplan_init)(&fullr, rl, umr);
	}
	if (nlast > 0) {
		GK_FN(rowplan_init)(&last, mb, ul);
		if (rl > 0)
			GK_FN(rowplan_init)(&lastr, rl, ul);
	}
	for (int64_t pc = k0; pc < k1; pc += kc) {
		const int64_t kv = GK_FN(min)(kc, k1 - pc);
		const GK_T bt = pc == k0 ? beta : (GK_T)1;
		const GK_T *a = p->a + pc * p->cs_a;
		const GK_T *b = p->b + pc * p->rs_b;
		int64_t rs_b = p->rs_b, ps_b = 0;
		if (bbuf != NULL) {
			/* B^T packed by rows of NU: slivers of kv x NU, rows contiguous. */
			ps_b = GK_SLIVER(nr, kv);
			GK_FN_PACK(p->kern, j1 - j0, kv, b + j0 * p->cs_b, p->cs_b, p->rs_b, nr, bbuf, ps_b);
			rs_b = nr;
		}
		for (int64_t r0 = i0; r0 < i1; r0 += mb) {
			const int whole = i1 - r0 >= mb;
			GK_FN(ublock)(p, r0, j0, j1, kv, whole ? &full : &fullr, whole ? &last : &lastr,
			              alpha, bt, a, b, rs_b, ps_b, bbuf, c, rs_c);
		}
	}
}

/* Elements of the per-thread buffer usweep needs for ncols columns of B (0
 * when the rows of B are contiguous). */
static int64_t GK_FN(ubuf_elems)(const GK_ARGS *p, int64_t ncols, int64_t kc)
{
	if (p->cs_b == 1)
		return 0;
	const int64_t nr = p->kern->GK_UNR;
	return ((ncols + nr - 1) / nr) * GK_SLIVER(nr, GK_FN(min)(kc, p->k));
}

/* Way 1 on several threads: C cut into tm x tn blocks of tiles, one task
 * each. */
typedef struct {
	const GK_ARGS *p;
	int64_t kc, tm, tn, per;
	GK_T *ws;
} GK_FN(ujob);

static void GK_FN(unpacked_task)(void *arg, int64_t t, int slot)
{
	const GK_FN(ujob) *u = arg;
	const GK_ARGS *p = u->p;
	int64_t i0, i1, j0, j1;
	gk_gemm_range(p->m, p->kern->GK_UMR, t / u->tn, u->tm, &i0, &i1);
	gk_gemm_range(p->n, p->kern->GK_UNR, t % u->tn, u->tn, &j0, &j1);
	if (i1 > i0 && j1 > j0)
		GK_FN(usweep)(p, i0, i1, j0, j1, 0, p->k, u->kc, p->alpha, p->beta, p->c, p->rs_c,
		              u->ws != NULL ? u->ws + u->per * slot : NULL);
}

/* Way 1: all of C, nt threads taking blocks of tiles. */
static gk_status GK_FN(unpacked)(const GK_ARGS *p, int nt, int64_t kc)
{
	const int64_t mr = p->kern->GK_UMR, nr = p->kern->GK_UNR;
	const int64_t msl = (p->m + mr - 1) / mr, nsl = (p->n + nr - 1) / nr;
	if (nt > msl * nsl)
		nt = (int)(msl * nsl);
	const int64_t per = p->cs_b == 1 ? 0 : GK_FN(ubuf_elems)(p, p->n, kc);
	GK_T *ws = NULL;
	if (per > 0) {
		ws = gk_gemm_workspace_get((size_t)(per * nt) * sizeof(GK_T));
		if (ws == NULL)
			return GK_ERR_NO_MEMORY;
	}
	if (nt == 1) {
		GK_FN(usweep)(p, 0, p->m, 0, p->n, 0, p->k, kc, p->alpha, p->beta, p->c, p->rs_c, ws);
	} else {
		const int64_t tasks =
			GK_FN(utasks)(nt, msl * nsl, (double)p->m * (double)p->n * (double)p->k);
		/* A product of few rows in columns only, while they are enough:
		 * each part of the rows would read all of B again, and it is B
		 * that streams from memory. On two threads of a Zen 5 guest,
		 * against the grid of least work per task (4 x 2 parts):
		 * 24 x 4100 x 2048 SGEMM with the AVX2 kernels 1.61x faster,
		 * 24 x 4096 x 4096 with the AVX-512 ones 1.47x (DGEMM) and 1.78x
		 * (SGEMM). */
		/* And a thin one (n <= GK_FN(thin_cols)) in rows only: each
		 * part of the columns would read all of A again (two threads with
		 * the AVX2 kernels, against the grid's 1 x 8 parts: 4096 x 64 x
		 * 4096 DGEMM 1.97x, 4096 x 32 x 4096 SGEMM 1.15x; with the
		 * AVX-512 ones 0.93-1.12x). */
		const int tm = p->m <= GK_BLOCKED_SKINNY && nsl >= tasks ? 1
		               : p->n <= GK_FN(thin_cols)(p->kern) && msl >= tasks
		                       ? (int)tasks
		                       : gk_gemm_grid((int)tasks, msl, nsl, 0);
		GK_FN(ujob) u = {p, kc, tm, tasks / tm, per, ws};
		gk_pool_run(&(gk_job){.run = GK_FN(unpacked_task), .arg = &u, .tasks = tasks, .threads = nt,
		                      .work = (double)p->m * (double)p->n * (double)p->k});
	}
	gk_gemm_workspace_put(ws);
	return GK_OK;
}

/* ---- 2. split depth ---------------------------------------------------- */

/*
 * Way 2, K in groups of gsize: group g is [g * gsize, (g + 1) * gsize) cut
 * at k. Each group's product A(:, group) B(group, :) goes unpacked into a
 * buffer of its own (alpha 1, beta 0: the kernel sums as they are), one
 * task per group; then the calling thread sums the buffers in group order
 * and applies alpha and beta. The bits depend on the groups, never on which
 * thread ran one.
 */
typedef struct {
	const GK_ARGS *p;
	int64_t kc, gsize, mn_pad, per;
	GK_T *ws, *bufs;
} GK_FN(kjob);

/* C = alpha (the sum of the groups' products, in group order) + beta C:
 * group g's m x n product at ws + g * mn_pad, rows n apart. */
static void GK_FN(ksum)(const GK_ARGS *p, const GK_T *ws, int64_t mn_pad, int64_t groups)
{
	const int64_t m = p->m, n = p->n;
	for (int64_t i = 0; i < m; i++) {
		GK_T *ci = p->c + i * p->rs_c;
		for (int64_t j = 0; j < n; j++) {
			GK_T s = ws[i * n + j];
			for (int64_t g = 1; g < groups; g++)
				s += ws[g * mn_pad + i * n + j];
			ci[j] = p->beta == (GK_T)0 ? p->alpha * s : p->alpha * s + p->beta * ci[j];
		}
	}
}

static void GK_FN(ksplit_task)(void *arg, int64_t g, int slot)
{
	const GK_FN(kjob) *x = arg;
	const GK_ARGS *p = x->p;
	const int64_t k0 = g * x->gsize, k1 = GK_FN(min)(p->k, k0 + x->gsize);
	GK_FN(usweep)(p, 0, p->m, 0, p->n, k0, k1, x->kc, (GK_T)1, (GK_T)0, x->ws + g * x->mn_pad, p->n,
	              x->per > 0 ? x->bufs + x->per * slot : NULL);
}

static gk_status GK_FN(ksplit)(const GK_ARGS *p, int nt, int64_t kc, int64_t groups,
                               int64_t gsize)
{
	const int64_t m = p->m, n = p->n, mn = m * n;
	if (nt > groups)
		nt = (int)groups;
	const int64_t per = GK_FN(ubuf_elems)(p, n, kc);
	const int64_t q = GK_PACK_ALIGN / (int64_t)sizeof(GK_T);
	const int64_t mn_pad = (mn + q - 1) / q * q;
	const size_t bytes = (size_t)(mn_pad * groups + per * nt) * sizeof(GK_T);
	GK_T *ws = gk_gemm_workspace_get(bytes);
	if (ws == NULL)
		return GK_ERR_NO_MEMORY;
	GK_FN(kjob) x = {p, kc, gsize, mn_pad, per, ws, ws + mn_pad * groups};
	gk_pool_run(&(gk_job){.run = GK_FN(ksplit_task), .arg = &x, .tasks = groups, .threads = nt,
	                      .work = (double)mn * (double)p->k});
	GK_FN(ksum)(p, ws, mn_pad, groups);
	gk_gemm_workspace_put(ws);
	return GK_OK;
}

/* ---- 3. matrix-vector shapes ------------------------------------------- */

/*
 * Columns [j0, j1) of C = beta C + alpha A B for a C of a row or two and
 * B's rows contiguous: axpys along the rows of B, each added into every row
 * of C, so that B is read once. The columns go in blocks of at most
 * GK_BLOCKED_AXPY_BYTES, whose rows of C stay in L1 or L2 while all of k
 * passes. Each element gets the same operations in the same order wherever
 * it lies (the axpy contract, kernel_api.h): the same bits whichever thread
 * computes it, however the columns are cut.
 */
static void GK_FN(axpy_cols)(const GK_ARGS *p, int64_t j0, int64_t j1)
{
	const int64_t w = GK_BLOCKED_AXPY_BYTES / (int64_t)sizeof(GK_T);
	for (int64_t jb = j0; jb < j1; jb += w) {
		const int64_t nv = GK_FN(min)(w, j1 - jb);
		for (int64_t i = 0; i < p->m; i++) {
			GK_T *ci = p->c + i * p->rs_c + jb;
			if (p->beta == (GK_T)0)
				for (int64_t j = 0; j < nv; j++)
					ci[j] = 0;
			else if (p->beta != (GK_T)1)
				for (int64_t j = 0; j < nv; j++)
					ci[j] *= p->beta;
		}
		/* Four rows of B at a time: four streams from memory in flight
		 * and one pass over C's row per four (the same operations on each
		 * element as four axpys: the same bits). */
		int64_t l = 0;
		for (; l + 4 <= p->k; l += 4) {
			const GK_T *bl = p->b + l * p->rs_b + jb;
			for (int64_t i = 0; i < p->m; i++) {
				const GK_T *ai = p->a + i * p->rs_a + l * p->cs_a;
				const GK_T al[4] = {p->alpha * ai[0], p->alpha * ai[p->cs_a],
				                    p->alpha * ai[2 * p->cs_a], p->alpha * ai[3 * p->cs_a]};
				p->kern->GK_AXPY4(nv, al, bl, p->rs_b, p->c + i * p->rs_c + jb);
			}
		}
		for (; l < p->k; l++) {
			const GK_T *bl = p->b + l * p->rs_b + jb;
			for (int64_t i = 0; i < p->m; i++)
				p->kern->GK_AXPY(nv, p->alpha * p->a[i * p->rs_a + l * p->cs_a], bl,
				                 p->c + i * p->rs_c + jb);
		}
	}
}

/* Way 3 on several threads: tasks runs of columns (axpy) or of rows (dot
 * products). */
typedef struct {
	const GK_ARGS *p;
	int64_t tasks;
	const GK_T *bcol;
	int64_t ldb;
} GK_FN(vjob);

static void GK_FN(axpy_task)(void *arg, int64_t t, int slot)
{
	(void)slot;
	const GK_FN(vjob) *v = arg;
	int64_t j0, j1;
	gk_gemm_range(v->p->n, 64 / (int64_t)sizeof(GK_T), t, v->tasks, &j0, &j1);
	if (j1 > j0)
		GK_FN(axpy_cols)(v->p, j0, j1);
}

/* A C of a row or two: one run of whole cache lines of columns per thread,
 * each at least GK_BLOCKED_AXPY_RUN bytes, so that every thread reads its
 * part of each row of B in one stretch. */
static gk_status GK_FN(axpy_path)(const GK_ARGS *p, int nt)
{
	const int64_t runs = p->n * (int64_t)sizeof(GK_T) / GK_BLOCKED_AXPY_RUN;
	if (nt > runs)
		nt = runs < 1 ? 1 : (int)runs;
	if (nt == 1) {
		GK_FN(axpy_cols)(p, 0, p->n);
	} else {
		GK_FN(vjob) v = {p, nt, NULL, 0};
		gk_pool_run(&(gk_job){.run = GK_FN(axpy_task), .arg = &v, .tasks = v.tasks, .threads = nt,
		                      .work = (double)p->m * (double)p->n * (double)p->k});
	}
	return GK_OK;
}

/* Rows [i0, i1) of C = beta C + alpha A B for a narrow C: one dot product
 * per element, the row of A staying in L1 across the n columns of B (column
 * j contiguous at bcol + j * ldb). */
static void GK_FN(dot_rows)(const GK_ARGS *p, const GK_T *bcol, int64_t ldb, int64_t i0,
                            int64_t i1)
{
	for (int64_t i = i0; i < i1; i++) {
		const GK_T *ai = p->a + i * p->rs_a;
		GK_T *ci = p->c + i * p->rs_c;
		for (int64_t j = 0; j < p->n; j++) {
			const GK_T d = p->kern->GK_DOT(p->k, ai, bcol + j * ldb);
			ci[j] = p->beta == (GK_T)0 ? p->alpha * d : p->alpha * d + p->beta * ci[j];
		}
	}
}

static void GK_FN(dot_task)(void *arg, int64_t t, int slot)
{
	(void)slot;
	const GK_FN(vjob) *v = arg;
	GK_FN(dot_rows)(v->p, v->bcol, v->ldb, v->p->m * t / v->tasks, v->p->m * (t + 1) / v->tasks);
}

/* A C of a few columns with the rows of A contiguous is a few matrix-vector
 * products: packing A and a tile NR wide would cost more than the products. */
static gk_status GK_FN(dot_path)(const GK_ARGS *p, int nt)
{
	const GK_T *bcol = p->b;
	int64_t ldb = p->cs_b;
	GK_T *buf = NULL;
	if (p->rs_b != 1) {
		/* The columns of B gathered once, contiguous. */
		buf = gk_gemm_workspace_get((size_t)(p->n * p->k) * sizeof(GK_T));
		if (buf == NULL)
			return GK_ERR_NO_MEMORY;
		for (int64_t j = 0; j < p->n; j++)
			for (int64_t l = 0; l < p->k; l++)
				buf[j * p->k + l] = p->b[l * p->rs_b + j * p->cs_b];
		bcol = buf;
		ldb = p->k;
	}
	if (nt == 1) {
		GK_FN(dot_rows)(p, bcol, ldb, 0, p->m);
	} else {
		GK_FN(vjob) v = {p, GK_FN(ntasks)(nt, p->m), bcol, ldb};
		gk_pool_run(&(gk_job){.run = GK_FN(dot_task), .arg = &v, .tasks = v.tasks, .threads = nt,
		                      .work = (double)p->m * (double)p->n * (double)p->k});
	}
	gk_gemm_workspace_put(buf);
	return GK_OK;
}
