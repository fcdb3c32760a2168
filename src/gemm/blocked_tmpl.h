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
 *         for jr in this thread's B slivers:   B sliver kc x NR  (L1 or L2)
 *           for ir in the A block by MR:       A sliver MR x kc  (L1)
 *             microkernel: C(ir, jr) = beta C + alpha A-sliver B-sliver
 *
 * (the jr and ir loops trade places when the B panel fits L2; see
 * GK_FN_MACRO). The block sizes come from blocked_sizes.c. beta is applied
 * by the first kc block only; later ones accumulate (beta = 1). Tiles that C's edges cut short go through a scratch tile on
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
	int64_t mr, nr;
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

/* One MR x NR tile of C at c, of which mv x nv are inside C. */
static inline void GK_FN_TILE(const GK_PLAN *pl, int64_t mv, int64_t nv, int64_t kc,
                              const GK_T *as, const GK_T *bs, GK_T beta, GK_T *c, GK_T *tile)
{
	const int64_t mr = pl->mr, nr = pl->nr, rs_c = pl->p->rs_c;
	if (mv == mr && nv == nr) {
		pl->p->kern->GK_UKR(kc, pl->p->alpha, as, bs, beta, c, rs_c);
	} else {
		pl->p->kern->GK_UKR(kc, pl->p->alpha, as, bs, (GK_T)0, tile, nr);
		GK_FN_MERGE(mv, nv, tile, nr, beta, c, rs_c);
	}
}

/* The macrokernel: C(0:mv, slivers js0..js1 of B) over one packed A block
 * and the packed B panel, depth kc. Normally the B sliver is the inner
 * loop's constant (it stays in L1 or L2 while the A block streams past).
 * When this thread's part of the B panel fits in L2 anyway (short k, narrow
 * n), the A sliver is the constant instead: C is then walked along its rows,
 * which matters when C traffic dominates. */
static void GK_FN_MACRO(const GK_PLAN *pl, int64_t mv, int64_t nv, int64_t js0, int64_t js1,
                        int64_t kc, const GK_T *ap, int64_t ps_a, const GK_T *bp, int64_t ps_b,
                        GK_T beta, GK_T *c)
{
	const int64_t mr = pl->mr, nr = pl->nr, rs_c = pl->p->rs_c;
	GK_T tile[GK_GEMM_MAX_TILE] __attribute__((aligned(GK_PACK_ALIGN)));
	if ((js1 - js0) * ps_b <= pl->bs.b_in_l2) {
		for (int64_t i = 0, is = 0; i < mv; i += mr, is++)
			for (int64_t js = js0; js < js1; js++)
				GK_FN_TILE(pl, mv - i < mr ? mv - i : mr, nv - js * nr < nr ? nv - js * nr : nr,
				           kc, ap + is * ps_a, bp + js * ps_b, beta, c + i * rs_c + js * nr, tile);
		return;
	}
	for (int64_t js = js0; js < js1; js++)
		for (int64_t i = 0, is = 0; i < mv; i += mr, is++)
			GK_FN_TILE(pl, mv - i < mr ? mv - i : mr, nv - js * nr < nr ? nv - js * nr : nr, kc,
			           ap + is * ps_a, bp + js * ps_b, beta, c + i * rs_c + js * nr, tile);
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
	int64_t i1 = GK_FN_SPLIT(msl, ti + 1, tm) * mr;
	if (i1 > m)
		i1 = m;
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

/* Rows [i0, i1) of C = beta C + alpha A B for a narrow C: one dot product
 * per element, the row of A staying in L1 across the n columns of B (column
 * j contiguous at bcol + j * ldb). */
static void GK_FN_DOT_ROWS(const GK_ARGS *p, const GK_T *bcol, int64_t ldb, int64_t i0,
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

/* A C of a few columns with the rows of A contiguous is a few matrix-vector
 * products: packing A and a tile NR wide would cost more than the products. */
static gk_status GK_FN_DOT_PATH(const GK_ARGS *p, int nt)
{
	const GK_T *bcol = p->b;
	int64_t ldb = p->cs_b;
	GK_T *buf = NULL;
	if (p->rs_b != 1) {
		/* The columns of B gathered once, contiguous. */
		buf = gk_aligned_alloc((size_t)(p->n * p->k), sizeof(GK_T));
		if (buf == NULL)
			return gk_set_error(GK_ERR_NO_MEMORY, "cpu.blocked: no memory for columns of B");
		for (int64_t j = 0; j < p->n; j++)
			for (int64_t l = 0; l < p->k; l++)
				buf[j * p->k + l] = p->b[l * p->rs_b + j * p->cs_b];
		bcol = buf;
		ldb = p->k;
	}
	if (nt == 1) {
		GK_FN_DOT_ROWS(p, bcol, ldb, 0, p->m);
	} else {
#pragma omp parallel num_threads(nt)
		{
			const int64_t t = omp_get_thread_num(), nth = omp_get_num_threads();
			GK_FN_DOT_ROWS(p, bcol, ldb, p->m * t / nth, p->m * (t + 1) / nth);
		}
	}
	gk_aligned_free(buf);
	return GK_OK;
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
	/* Shapes that are really matrix-vector products stream their operands
	 * once, unpacked: a few rows of C against rows of B (axpy along them),
	 * or a few columns of C (dot products with rows of A). */
	if (m <= GK_BLOCKED_AXPY_ROWS && p->cs_b == 1)
		return GK_FN_AXPY_ROWS(p);
	if (n <= GK_BLOCKED_DOT_COLS && p->cs_a == 1)
		return GK_FN_DOT_PATH(p, nt);
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
	const size_t bbytes = (size_t)(pl.bs.nc / pl.nr * ps_b) * sizeof(GK_T);
	const size_t abytes = (size_t)(pl.apack_stride * nt) * sizeof(GK_T);
	char *ws = gk_gemm_workspace_get(bbytes + abytes);
	if (ws == NULL)
		return gk_set_error(GK_ERR_NO_MEMORY, "cpu.blocked: no memory for packed panels "
		                    "(%zu bytes)", bbytes + abytes);
	pl.bpack = (GK_T *)ws;
	pl.apack = (GK_T *)(ws + bbytes);
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
	gk_gemm_workspace_put(ws);
	return GK_OK;
}
