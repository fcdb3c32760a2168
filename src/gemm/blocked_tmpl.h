/*
 * blocked_tmpl.h - the production CPU GEMM: the five loops of Goto and
 * van de Geijn around a microkernel from the kernel table, written once for
 * both precisions (blocked_f32.c and blocked_f64.c name the type, the table
 * slots and the functions).
 *
 *   for jc in n by nc:                 B panel kc x nc   (L3, shared)
 *     for pc in k by kc:
 *       pack B(pc:pc+kc, jc:jc+nc) into NR-wide slivers      all threads
 *       for ic in this thread's rows, by mc:   A block mc x kc   (L2)
 *         pack A(ic:ic+mc, pc:pc+kc) into MR-tall slivers    per thread
 *         for jr in this thread's B slivers:   B sliver kc x NR  (L1)
 *           for ir in the A block by MR:
 *             microkernel: C(ir, jr) = beta C + alpha A-sliver B-sliver
 *
 * beta is applied by the first kc block only; later ones accumulate
 * (beta = 1). Tiles that C's edges cut short go through a scratch tile on
 * the stack: the kernel writes all MR x NR of it, the driver merges the
 * valid part. Threads form a grid over the rows of C (each with its own A
 * block) and the slivers of the B panel (packed by everyone together).
 */

/* C(0:mv, 0:nv) := beta C + t, where t holds alpha A B; beta == 0 reads no C. */
static void GK_FN_MERGE(int64_t mv, int64_t nv, const GK_T *restrict t, int64_t nr, GK_T beta,
                        GK_T *restrict c, int64_t rs_c)
{
	for (int64_t i = 0; i < mv; i++) {
		GK_T *ci = c + i * rs_c;
		const GK_T *ti = t + i * nr;
		if (beta == (GK_T)0)
			for (int64_t j = 0; j < nv; j++)
				ci[j] = ti[j];
		else
			for (int64_t j = 0; j < nv; j++)
				ci[j] = beta * ci[j] + ti[j];
	}
}

/* One thread's share of the problem, and the buffers it works in. */
typedef struct {
	const GK_ARGS *p;
	gk_gemm_blocking bs;
	int64_t mr, nr, ps_a_max, ps_b_max;
	GK_T *bpack;  /* the shared kc x nc panel of B */
	GK_T *apack;  /* one mc x kc block of A per thread */
	int64_t apack_stride;
} GK_PLAN;

/* A sliver's length in elements, padded so the next one stays aligned. */
static int64_t GK_FN_SLIVER(int64_t r, int64_t kc)
{
	const int64_t q = GK_PACK_ALIGN / (int64_t)sizeof(GK_T);
	return (r * kc + q - 1) / q * q;
}

/* The macrokernel: C(0:mv, jr0:jr1 slivers) over one packed A block and
 * the packed B panel, depth kc. */
static void GK_FN_MACRO(const GK_PLAN *pl, int64_t mv, int64_t nv, int64_t js0, int64_t js1,
                        int64_t kc, const GK_T *ap, int64_t ps_a, const GK_T *bp, int64_t ps_b,
                        GK_T beta, GK_T *c)
{
	const GK_UKR_FN ukr = pl->p->kern->GK_UKR;
	const int64_t mr = pl->mr, nr = pl->nr, rs_c = pl->p->rs_c;
	const GK_T alpha = pl->p->alpha;
	GK_T tile[GK_GEMM_MAX_TILE] __attribute__((aligned(GK_PACK_ALIGN)));
	for (int64_t js = js0; js < js1; js++) {
		const int64_t j = js * nr, nvj = nv - j < nr ? nv - j : nr;
		const GK_T *bs = bp + js * ps_b;
		for (int64_t i = 0, is = 0; i < mv; i += mr, is++) {
			const int64_t mvi = mv - i < mr ? mv - i : mr;
			GK_T *cij = c + i * rs_c + j;
			if (mvi == mr && nvj == nr) {
				ukr(kc, alpha, ap + is * ps_a, bs, beta, cij, rs_c);
			} else {
				ukr(kc, alpha, ap + is * ps_a, bs, (GK_T)0, tile, nr);
				GK_FN_MERGE(mvi, nvj, tile, nr, beta, cij, rs_c);
			}
		}
	}
}

/* Split count items among parts: part t gets [count*t/parts, count*(t+1)/parts). */
static int64_t GK_FN_SPLIT(int64_t count, int64_t t, int64_t parts)
{
	return count * t / parts;
}

static void GK_FN_THREAD(const GK_PLAN *pl, int tid, int nth, int tm)
{
	const GK_ARGS *p = pl->p;
	const int64_t m = p->m, n = p->n, k = p->k, mr = pl->mr, nr = pl->nr;
	const int64_t mc = pl->bs.mc, kc = pl->bs.kc, nc = pl->bs.nc;
	const int tn = nth / tm, ti = tid / tn, tj = tid % tn;
	/* This thread's rows of C, whole MR slivers but the last. */
	const int64_t msl = (m + mr - 1) / mr;
	const int64_t i0 = GK_FN_SPLIT(msl, ti, tm) * mr;
	const int64_t i1 = GK_FN_SPLIT(msl, ti + 1, tm) * mr < m ? GK_FN_SPLIT(msl, ti + 1, tm) * mr : m;
	GK_T *apack = pl->apack + (int64_t)tid * pl->apack_stride;

	for (int64_t jc = 0; jc < n; jc += nc) {
		const int64_t nv = n - jc < nc ? n - jc : nc;
		const int64_t nsl = (nv + nr - 1) / nr;
		for (int64_t pc = 0; pc < k; pc += kc) {
			const int64_t kv = k - pc < kc ? k - pc : kc;
			const int64_t ps_a = GK_FN_SLIVER(mr, kv), ps_b = GK_FN_SLIVER(nr, kv);
			const GK_T beta = pc == 0 ? p->beta : (GK_T)1;
			/* Everyone packs a share of the B panel's slivers. */
			const int64_t b0 = GK_FN_SPLIT(nsl, tid, nth), b1 = GK_FN_SPLIT(nsl, tid + 1, nth);
			if (b1 > b0) {
				const int64_t jv = (b1 * nr < nv ? b1 * nr : nv) - b0 * nr;
				GK_FN_PACK(jv, kv, p->b + pc * p->rs_b + (jc + b0 * nr) * p->cs_b, p->cs_b,
				           p->rs_b, nr, pl->bpack + b0 * ps_b, ps_b);
			}
			if (nth > 1) {
#pragma omp barrier
			}
			const int64_t js0 = GK_FN_SPLIT(nsl, tj, tn), js1 = GK_FN_SPLIT(nsl, tj + 1, tn);
			for (int64_t ic = i0; ic < i1 && js1 > js0; ic += mc) {
				const int64_t mv = i1 - ic < mc ? i1 - ic : mc;
				GK_FN_PACK(mv, kv, p->a + ic * p->rs_a + pc * p->cs_a, p->rs_a, p->cs_a, mr,
				           apack, ps_a);
				GK_FN_MACRO(pl, mv, nv, js0, js1, kv, apack, ps_a, pl->bpack, ps_b, beta,
				            p->c + ic * p->rs_c + jc);
			}
			/* The panel is repacked next round: wait until nobody reads it. */
			if (nth > 1) {
#pragma omp barrier
			}
		}
	}
}

/* The thread grid tm x (nth / tm) that gives the largest thread the least
 * work; ties go to more row groups, which share the B panel instead of
 * packing the same A block twice. */
static int GK_FN_GRID(int nth, int64_t m, int64_t n, const GK_PLAN *pl)
{
	const int64_t msl = (m + pl->mr - 1) / pl->mr;
	const int64_t nv = n < pl->bs.nc ? n : pl->bs.nc;
	const int64_t nsl = (nv + pl->nr - 1) / pl->nr;
	int best = 1;
	int64_t best_cost = INT64_MAX;
	for (int tm = 1; tm <= nth; tm++) {
		if (nth % tm != 0)
			continue;
		const int tn = nth / tm;
		const int64_t cost = (msl + tm - 1) / tm * ((nsl + tn - 1) / tn);
		if (cost <= best_cost) {
			best_cost = cost;
			best = tm;
		}
	}
	return best;
}

gk_status GK_FN_BLOCKED(const GK_ARGS *p)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	GK_PLAN pl = {.p = p, .mr = p->kern->GK_MR, .nr = p->kern->GK_NR};
	gk_gemm_blocking_get(sizeof(GK_T), pl.mr, pl.nr, &pl.bs);
	/* Never more threads than the work keeps busy. */
	int nt = p->threads;
	const double work = (double)m * (double)n * (double)k;
	if (nt > 1 && work / GK_BLOCKED_MIN_WORK < nt)
		nt = work < 2 * GK_BLOCKED_MIN_WORK ? 1 : (int)(work / GK_BLOCKED_MIN_WORK);
	/* Blocks no larger than the problem, so small calls allocate little. */
	const int64_t mup = (m + pl.mr - 1) / pl.mr * pl.mr, nup = (n + pl.nr - 1) / pl.nr * pl.nr;
	if (pl.bs.kc > k)
		pl.bs.kc = k;
	if (pl.bs.mc > mup)
		pl.bs.mc = mup;
	if (pl.bs.nc > nup)
		pl.bs.nc = nup;
	const int64_t ps_a = GK_FN_SLIVER(pl.mr, pl.bs.kc), ps_b = GK_FN_SLIVER(pl.nr, pl.bs.kc);
	pl.apack_stride = pl.bs.mc / pl.mr * ps_a;
	pl.bpack = gk_aligned_alloc((size_t)(pl.bs.nc / pl.nr * ps_b), sizeof(GK_T));
	pl.apack = gk_aligned_alloc((size_t)(pl.apack_stride * nt), sizeof(GK_T));
	if (pl.bpack == NULL || pl.apack == NULL) {
		gk_aligned_free(pl.bpack);
		gk_aligned_free(pl.apack);
		return gk_set_error(GK_ERR_NO_MEMORY, "cpu.blocked: no memory for packed panels");
	}
	if (nt == 1) {
		GK_FN_THREAD(&pl, 0, 1, 1);
	} else {
#pragma omp parallel num_threads(nt)
		{
			/* The runtime may grant fewer threads than asked for. */
			const int nth = omp_get_num_threads();
			GK_FN_THREAD(&pl, omp_get_thread_num(), nth, GK_FN_GRID(nth, m, n, &pl));
		}
	}
	gk_aligned_free(pl.apack);
	gk_aligned_free(pl.bpack);
	return GK_OK;
}
