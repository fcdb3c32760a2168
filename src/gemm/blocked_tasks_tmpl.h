/*
 * blocked_tasks_tmpl.h - the tasks of the blocked driver's packed way
 * (blocked_tmpl.h, included where the macrokernel is defined, for each
 * precision): with a shared panel of B, the packing of its slivers and the
 * use of it by items (a row block of C against a run of the panel's
 * slivers) that each task picks by its slot; with all of A one block, runs
 * of columns that pack their own B.
 */

/* The item of round r (row block u / jsn, run u % jsn) that a using task
 * on slot takes (gk_pool_take). Each slot has row blocks of its own, the
 * same in every round (a share of the mb, or the block it shares with
 * other slots when there are fewer blocks than threads): it takes first the
 * rest of the block it holds packed, then its own blocks in order, then the
 * others' from the last down (those of a slot that is late or was
 * descheduled). So an A block is packed once per round, by its slot, unless
 * another slot takes some of its work, and a slot takes in round r the
 * items it finished in round r - 1. There are as many using tasks as
 * items, so one is always left. */
static int64_t GK_FN(pick)(const GK_FN(plan) *pl, int64_t r, int slot)
{
	const int64_t mb = pl->mb, jsn = pl->jsn, nuse = mb * jsn;
	_Atomic int32_t *flags = pl->pick + r * nuse;
	const GK_FN(aheld) *h = &pl->held[slot];
	int64_t u = -1;
	if (h->round == r) {
		const int64_t hb = h->ic / pl->bs.mc;
		u = gk_pool_take(flags, hb * jsn, (hb + 1) * jsn);
	}
	int64_t b0, b1;
	if (mb >= pl->nt) {
		b0 = gk_gemm_split(mb, slot, pl->nt);
		b1 = gk_gemm_split(mb, slot + 1, pl->nt);
	} else {
		b0 = (int64_t)slot * mb / pl->nt;
		b1 = b0 + 1;
	}
	if (u < 0)
		u = gk_pool_take(flags, b0 * jsn, b1 * jsn);
	if (u < 0)
		u = gk_pool_take(flags, nuse - 1, -1);
	return u < 0 ? 0 : u; /* u < 0: not reached */
}

/* Whether item u has had round r - 1 (GK_FN(tile_had)). */
typedef struct {
	const GK_FN(plan) *pl;
	int64_t u, r;
} GK_FN(tile_wait);

static int GK_FN(tile_had)(const void *arg)
{
	const GK_FN(tile_wait) *tw = arg;
	return atomic_load_explicit(&tw->pl->tile[tw->u], memory_order_acquire) >= tw->r;
}

/* The shared-panel way, task t (plan->rtasks per round): pack a run of the
 * round's B panel slivers, or compute one row block of C against a run of
 * them (an item, GK_FN(pick)). A slot packs an A block once for all the
 * runs it takes of it. */
static void GK_FN(panel_task)(void *arg, int64_t t, int slot)
{
	const GK_FN(plan) *pl = arg;
	const GK_ARGS *p = pl->p;
	const int64_t m = p->m, n = p->n, k = p->k, mr = pl->mr, nr = pl->nr;
	const int64_t mc = pl->bs.mc, kc = pl->bs.kc, nc = pl->bs.nc;
	const int64_t r = t / pl->rtasks, w = t % pl->rtasks;
	const int64_t jc = r / pl->npc * nc, pc = r % pl->npc * kc;
	const int64_t nv = GK_FN(min)(n - jc, nc), nsl = (nv + nr - 1) / nr;
	const int64_t kv = GK_FN(min)(k - pc, kc);
	const int64_t ps_a = GK_SLIVER(mr, kv), ps_b = GK_SLIVER(nr, kv);
	GK_T *panel = pl->bpack + r % pl->npanels * pl->bpack_stride;
	if (w < pl->ptasks) {
		const int64_t b0 = gk_gemm_split(nsl, w, pl->ptasks), b1 = gk_gemm_split(nsl, w + 1, pl->ptasks);
		if (b1 > b0) {
			const int64_t jv = GK_FN(min)(b1 * nr, nv) - b0 * nr;
			GK_FN_PACK(p->kern, jv, kv, p->b + pc * p->rs_b + (jc + b0 * nr) * p->cs_b, p->cs_b, p->rs_b, nr,
			           panel + b0 * ps_b, ps_b);
		}
		atomic_fetch_add_explicit(&pl->packed[r], 1, memory_order_release);
		return;
	}
	const int64_t u = GK_FN(pick)(pl, r, slot), ic = u / pl->jsn * mc, jj = u % pl->jsn;
	if (r > 0 && atomic_load_explicit(&pl->tile[u], memory_order_acquire) < r) {
		const GK_FN(tile_wait) tw = {pl, u, r};
		gk_pool_wait(GK_FN(tile_had), &tw);
	}
	const int64_t js0 = gk_gemm_split(nsl, jj, pl->jsn), js1 = gk_gemm_split(nsl, jj + 1, pl->jsn);
	if (ic < m && js1 > js0) {
		const int64_t mv = GK_FN(min)(m - ic, mc);
		GK_T *apack = pl->apack + (int64_t)slot * pl->apack_stride;
		GK_FN(aheld) *h = &pl->held[slot];
		if (h->round != r || h->ic != ic) {
			GK_FN_PACK(p->kern, mv, kv, p->a + ic * p->rs_a + pc * p->cs_a, p->rs_a, p->cs_a, mr, apack, ps_a);
			h->round = r;
			h->ic = ic;
		}
		GK_FN(macro)(pl, mv, nv, js0, js1, kv, apack, ps_a, panel, ps_b, pc == 0 ? p->beta : (GK_T)1,
		             p->c + ic * p->rs_c + jc, NULL);
	}
	atomic_store_explicit(&pl->tile[u], (int32_t)(r + 1), memory_order_release);
	atomic_fetch_add_explicit(&pl->used[r], 1, memory_order_release);
}

/* Whether task t of the shared-panel way may start (see GK_FN(plan)). */
static int GK_FN(panel_ready)(const void *arg, int64_t t)
{
	const GK_FN(plan) *pl = arg;
	const int64_t r = t / pl->rtasks, w = t % pl->rtasks, nuse = pl->rtasks - pl->ptasks;
	if (w < pl->ptasks)
		return r < 2 || atomic_load_explicit(&pl->used[r - 2], memory_order_acquire) == nuse;
	/* The item's round r - 1 is waited for once it is picked (also at the
	 * first kc block of a new panel of columns, whose tile is another: an
	 * item's count of rounds only grows). */
	return atomic_load_explicit(&pl->packed[r], memory_order_acquire) == pl->ptasks;
}

/* The own-columns way, when all of A is one block: a task takes a run of
 * column slivers of C (j0 to j1) and packs, for each kc block, all of A and
 * then its columns of B a piece of nc (pl->bs.nc, sized for L2) at a time,
 * each piece used by every tile row while still in L2. B is read once,
 * from memory: while the kernels work on one piece, the next (the next
 * columns, or the first of the next kc block) is fetched and packed into
 * the other of the slot's two buffers, chunk by chunk (GK_FN(next)), so
 * that packing it does not wait on memory. No task waits for another. */
static void GK_FN(cols_task)(void *arg, int64_t t, int slot)
{
	const GK_FN(plan) *pl = arg;
	const GK_ARGS *p = pl->p;
	const int64_t m = p->m, n = p->n, k = p->k, mr = pl->mr, nr = pl->nr;
	const int64_t kc = pl->bs.kc;
	int64_t j0, j1;
	gk_gemm_range(n, nr, t, pl->ctasks, &j0, &j1);
	/* The task's columns in pieces of equal width, at most bs.nc, or in
	 * one piece when they are at most a quarter wider (GK_FN(cols_most)):
	 * each piece reads all of A's block again, so a narrow last one costs
	 * that for a sliver or two of work (100 x 100 x 1e5 DGEMM, AVX2
	 * kernels on a 1 MiB L2: pieces of 96 and 16 columns ran at 0.89x two
	 * of 56, and those at 0.93-0.97x one of 112). The width changes no
	 * sum: the same bits. */
	int64_t nc = pl->bs.nc;
	const int64_t wr = (j1 - j0 + nr - 1) / nr * nr;
	if (wr > 0 && wr <= GK_FN(cols_most)(nc, nr)) {
		nc = wr;
	} else if (wr > 0) {
		const int64_t np = (wr + nc - 1) / nc;
		nc = ((wr + np - 1) / np + nr - 1) / nr * nr;
	}
	GK_T *apack = pl->apack + (int64_t)slot * pl->apack_stride;
	GK_T *bpack[2] = {pl->bpack + (int64_t)(2 * slot) * pl->bpack_stride,
	                  pl->bpack + (int64_t)(2 * slot + 1) * pl->bpack_stride};
	if (j1 <= j0)
		return;
	int cur = 0, packed = 0;
	for (int64_t pc = 0; pc < k; pc += kc) {
		const int64_t kv = GK_FN(min)(k - pc, kc);
		const int64_t ps_a = GK_SLIVER(mr, kv), ps_b = GK_SLIVER(nr, kv);
		const GK_T beta = pc == 0 ? p->beta : (GK_T)1;
		GK_FN_PACK(p->kern, m, kv, p->a + pc * p->cs_a, p->rs_a, p->cs_a, mr, apack, ps_a);
		for (int64_t jc = j0; jc < j1; jc += nc, cur ^= 1) {
			const int64_t nv = GK_FN(min)(j1 - jc, nc);
			if (!packed)
				GK_FN_PACK(p->kern, nv, kv, p->b + pc * p->rs_b + jc * p->cs_b, p->cs_b, p->rs_b, nr,
				           bpack[cur], ps_b);
			/* The next piece: the next columns, or the first of the next
			 * kc block; by chunks when B's rows are contiguous. */
			const int64_t pn = jc + nc < j1 ? pc : pc + kc, jn = jc + nc < j1 ? jc + nc : j0;
			packed = p->cs_b == 1 && pn < k;
			GK_FN(next) nx;
			if (packed) {
				const int64_t kn = GK_FN(min)(k - pn, kc);
				nx = (GK_FN(next)){.kern = p->kern, .src = p->b + pn * p->rs_b + jn, .dst = bpack[cur ^ 1],
				                   .rs = p->rs_b, .cols = GK_FN(min)(j1 - jn, nc), .rows = kn,
				                   .nr = nr, .ps = GK_SLIVER(nr, kn), .row = 0, .pfrow = 0};
				/* The next kc block of A too, when that piece starts one:
				 * by rows (m runs of kn) or by columns (kn runs of m);
				 * not when those runs lie a multiple of ALIAS_BYTES
				 * apart, where they would take the few sets of L2 that
				 * the next piece of B needs. */
				const int byrows = p->cs_a == 1;
				const int64_t ars = byrows ? p->rs_a : p->cs_a;
				if (pn > pc && ars * (int64_t)sizeof(GK_T) % GK_BLOCKED_ALIAS_BYTES != 0) {
					nx.asrc = p->a + pn * p->cs_a;
					nx.ars = ars;
					nx.arows = byrows ? m : kn;
					nx.abytes = (byrows ? kn : m) * (int64_t)sizeof(GK_T);
				}
			}
			GK_FN(macro)(pl, m, nv, 0, (nv + nr - 1) / nr, kv, apack, ps_a, bpack[cur], ps_b,
			             beta, p->c + jc, packed ? &nx : NULL);
		}
	}
}
