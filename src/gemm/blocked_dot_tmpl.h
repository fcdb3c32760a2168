/*
 * blocked_dot_tmpl.h - way 5 of the blocked driver (blocked_tmpl.h, which
 * includes this file): products whose C is a few columns wide, in the
 * kernel table's dot tiles (kernel_api.h, gk_gemm_d_*_fn), k along the
 * vector. B's columns are packed once into rows of Bt (unless B is by
 * columns already), then each thread takes runs of tile rows of C, every
 * column of them. Written once for both precisions through blocked_tmpl.h's
 * GK_* names; included only from there.
 *
 * A dot tile sums each element in a vector of its own and adds the lanes by
 * a fixed tree, so an element's bits depend on its row of A, its column of
 * B and k alone: the same for any thread count and any cutting into tiles.
 */

/* Whether the dot tiles fetch A's rows ahead: along a long k, when all of
 * A does not fit L2 (call after call it comes from L3 or memory). On a Zen
 * 5 core DGEMM 512 x 2 x 512 (A 2 MiB, L2 1 MiB) ran 1.12x faster with the
 * fetches, 64 x 4 x 1024 (A in L2) 0.96x. */
static inline int GK_FN(dot_fetch)(const GK_ARGS *p)
{
	size_t l1, l2, l3;
	gk_cache_sizes(&l1, &l2, &l3);
	return p->k >= GK_BLOCKED_DOT_FETCH_K &&
	       (double)p->m * (double)p->k * (double)sizeof(GK_T) > (double)l2;
}

/* Rows [i0, i1) of C, in runs of GK_BLOCKED_DOT_ROWS rows (whose rows of A
 * stay in L2 while every group of columns passes), a call of the kernel for
 * each group: groups of GK_BLOCKED_DOT_GROUP columns, the last one up to DN
 * wide (a last column alone joins the group before: one tile of 4 x 5 is
 * faster than 4 x 4 and 4 x 1), except that 7 columns go as 6 + 1 where
 * the table has tiles 6 wide. On a Zen 5 core, SGEMM, 4 x 6 tiles against
 * 4 x 4 and 8 x 2: 1.3-1.7x from k = 256; 6 + 1 against 4 + 3: 1.16x at
 * 256 x 7 x 1024; 6 + 2 against 4 + 4: 0.79-0.83x (the 4-wide tiles sum
 * four rows at once). */
static void GK_FN(dot_tile_rows)(const GK_ARGS *p, const GK_T *bt, int64_t rs_bt, int64_t off,
                                 int64_t i0, int64_t i1)
{
	const int64_t dn = p->kern->GK_DNR, n = p->n;
	const int pf = GK_FN(dot_fetch)(p);
	/* All the rows in one run where the columns are one group: the runs
	 * keep rows of A in cache from one group to the next, and cost a call
	 * each (SGEMM 64 x 4 x 64 1.03x in one run, Zen 5; but 128 x 8 x 128,
	 * two groups, 0.89x, A read from L2 again for the second). */
	const int64_t run = n <= dn ? i1 - i0 : GK_BLOCKED_DOT_ROWS;
	for (int64_t i = i0; i < i1; i += run) {
		const int64_t mv = GK_FN(min)(run, i1 - i);
		for (int64_t j = 0, nv; j < n; j += nv) {
			nv = n - j <= dn ? n - j : n - j == 7 && dn >= 6 ? 6 : GK_BLOCKED_DOT_GROUP;
			p->kern->GK_DKR(mv, nv, p->k, p->alpha, p->a + i * p->rs_a, p->rs_a,
			                bt + j * rs_bt, rs_bt, p->beta, p->c + i * p->rs_c + j, p->rs_c, pf,
			                off);
		}
	}
}

typedef struct {
	const GK_ARGS *p;
	const GK_T *bt;
	int64_t rs_bt, off, tasks;
} GK_FN(djob);

static void GK_FN(dot_tiles_task)(void *arg, int64_t t, int slot)
{
	(void)slot;
	const GK_FN(djob) *d = arg;
	int64_t i0, i1;
	gk_gemm_range(d->p->m, d->p->kern->GK_DMR, t, d->tasks, &i0, &i1);
	if (i1 > i0)
		GK_FN(dot_tile_rows)(d->p, d->bt, d->rs_bt, d->off, i0, i1);
}

/* The tiles' off (kernel_api.h): how many elements past a vector boundary
 * A's rows start, where they all start alike (their stride a multiple of
 * the vectors' bytes) and not on one, the table gives C's width off
 * (gemm_d_off_cols) and k is at least GK_BLOCKED_DOT_OFF_VECS vectors per
 * column past the first (8 for 2 columns, 16 for 3: on a Xeon, DGEMM 16 x
 * 3 x 64 ran 0.78x with off, 64 x 3 x 1024 1.23x); else 0. The tiles of 2
 * or 3 columns load a vector of A for each 2 or 3 multiply-adds, and one
 * that spans two cache lines costs more; the vector of positions before
 * the rows and the lanes put back in order cost more than that saves on a
 * short k (SGEMM 64 x 2 x 64 1.01x, 64 x 1 x 64 0.77x on a Zen 5 core) and
 * in wider tiles (64 x 4 x 64 0.73-0.98x, 128 x 8 x 128 0.83x). */
static int64_t GK_FN(dot_off)(const GK_ARGS *p)
{
	const uintptr_t vb = (uintptr_t)p->kern->gemm_d_align, at = (uintptr_t)p->a;
	if (vb == 0 || p->n > 31 || !((p->kern->gemm_d_off_cols >> p->n) & 1u) ||
	    p->k * (int64_t)sizeof(GK_T) < GK_BLOCKED_DOT_OFF_VECS * (p->n - 1) * (int64_t)vb ||
	    at % sizeof(GK_T) != 0 || ((uintptr_t)p->rs_a * sizeof(GK_T)) % vb != 0)
		return 0;
	return (int64_t)(at % vb / sizeof(GK_T));
}

/* Way 5 on nt threads; GK_ERR_NO_MEMORY when Bt's buffer cannot be had
 * (before anything is written). B's columns are packed into rows of Bt
 * unless they are its rows already, and then too where A's rows start off
 * a vector boundary: Bt's rows start as far past one, so that the tiles'
 * loads of both are aligned. */
static gk_status GK_FN(dot_tiles)(const GK_ARGS *p, int nt)
{
	const GK_T *bt = p->b;
	int64_t rs_bt = p->cs_b;
	GK_T *buf = NULL;
	const int64_t off = GK_FN(dot_off)(p);
	if (p->rs_b != 1 || off > 0) {
		/* Rows kp apart from off elements into the (aligned) buffer; the
		 * pack may write zeros up to a vector past the last row's k. */
		const int64_t kp = (p->k + off + GK_DT_ALIGN - 1) / GK_DT_ALIGN * GK_DT_ALIGN;
		buf = gk_gemm_workspace_get((size_t)(p->n * kp + 2 * GK_DT_ALIGN) * sizeof(GK_T));
		if (buf == NULL)
			return GK_ERR_NO_MEMORY;
		if (p->rs_b != 1)
			p->kern->GK_DPACK(p->k, p->n, p->b, p->rs_b, buf + off, kp);
		else
			for (int64_t j = 0; j < p->n; j++)
				memcpy(buf + off + j * kp, p->b + j * p->cs_b, (size_t)p->k * sizeof(GK_T));
		bt = buf + off;
		rs_bt = kp;
	}
	const int64_t dr = p->kern->GK_DMR, nblk = (p->m + dr - 1) / dr;
	if (nt > nblk)
		nt = (int)nblk;
	if (nt <= 1) {
		GK_FN(dot_tile_rows)(p, bt, rs_bt, off, 0, p->m);
	} else {
		GK_FN(djob) d = {p, bt, rs_bt, off, GK_FN(ntasks)(nt, nblk)};
		gk_pool_run(&(gk_job){.run = GK_FN(dot_tiles_task), .arg = &d, .tasks = d.tasks, .threads = nt,
		                      .work = (double)p->m * (double)p->n * (double)p->k});
	}
	gk_gemm_workspace_put(buf);
	return GK_OK;
}
