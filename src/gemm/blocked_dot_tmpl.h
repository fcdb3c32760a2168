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

/* Whether p goes way 5: the table has dot tiles and sends a C n wide to
 * them from a depth k (gemm_d_*_min_k), A is by rows, B by rows or by
 * columns, m and k within the limits of blocked.h. From the shape and
 * strides alone. */
static inline int GK_FN(dotway)(const GK_ARGS *p)
{
	const gk_kernels *kn = p->kern;
	return kn->GK_DKR != NULL && p->n <= GK_GEMM_D_COLS && kn->GK_DMINK[p->n] > 0 &&
	       p->k >= kn->GK_DMINK[p->n] && p->k <= GK_BLOCKED_DOT_MAX_K && p->cs_a == 1 &&
	       (p->rs_b == 1 || p->cs_b == 1) && p->m >= GK_BLOCKED_DOT_MIN_ROWS;
}

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
 * each group: groups of DN - 1 columns, the last one up to DN wide (a last
 * column alone joins the group before: one tile of 4 x 5 is faster than
 * 4 x 4 and 4 x 1). */
static void GK_FN(dot_tile_rows)(const GK_ARGS *p, const GK_T *bt, int64_t rs_bt, int64_t i0,
                                 int64_t i1)
{
	const int64_t dn = p->kern->GK_DNR, n = p->n;
	const int pf = GK_FN(dot_fetch)(p);
	for (int64_t i = i0; i < i1; i += GK_BLOCKED_DOT_ROWS) {
		const int64_t mv = GK_FN(min)(GK_BLOCKED_DOT_ROWS, i1 - i);
		for (int64_t j = 0, nv; j < n; j += nv) {
			nv = n - j <= dn ? n - j : dn - 1;
			p->kern->GK_DKR(mv, nv, p->k, p->alpha, p->a + i * p->rs_a, p->rs_a,
			                bt + j * rs_bt, rs_bt, p->beta, p->c + i * p->rs_c + j, p->rs_c, pf);
		}
	}
}

typedef struct {
	const GK_ARGS *p;
	const GK_T *bt;
	int64_t rs_bt, tasks;
} GK_FN(djob);

static void GK_FN(dot_tiles_task)(void *arg, int64_t t, int slot)
{
	(void)slot;
	const GK_FN(djob) *d = arg;
	int64_t i0, i1;
	gk_gemm_range(d->p->m, d->p->kern->GK_DMR, t, d->tasks, &i0, &i1);
	if (i1 > i0)
		GK_FN(dot_tile_rows)(d->p, d->bt, d->rs_bt, i0, i1);
}

/* Way 5 on nt threads; GK_ERR_NO_MEMORY when Bt's buffer cannot be had
 * (before anything is written). */
static gk_status GK_FN(dot_tiles)(const GK_ARGS *p, int nt)
{
	const GK_T *bt = p->b;
	int64_t rs_bt = p->cs_b;
	GK_T *buf = NULL;
	if (p->rs_b != 1) {
		const int64_t kp = (p->k + GK_DT_ALIGN - 1) / GK_DT_ALIGN * GK_DT_ALIGN;
		buf = gk_gemm_workspace_get((size_t)(p->n * kp) * sizeof(GK_T));
		if (buf == NULL)
			return GK_ERR_NO_MEMORY;
		p->kern->GK_DPACK(p->k, p->n, p->b, p->rs_b, buf, kp);
		bt = buf;
		rs_bt = kp;
	}
	const int64_t dr = p->kern->GK_DMR, nblk = (p->m + dr - 1) / dr;
	if (nt > nblk)
		nt = (int)nblk;
	if (nt <= 1) {
		GK_FN(dot_tile_rows)(p, bt, rs_bt, 0, p->m);
	} else {
		GK_FN(djob) d = {p, bt, rs_bt, GK_FN(ntasks)(nt, nblk)};
		gk_pool_run(&(gk_job){.run = GK_FN(dot_tiles_task), .arg = &d, .tasks = d.tasks, .threads = nt,
		                      .work = (double)p->m * (double)p->n * (double)p->k});
	}
	gk_gemm_workspace_put(buf);
	return GK_OK;
}
