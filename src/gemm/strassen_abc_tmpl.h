/*
 * strassen_abc_tmpl.h - "cpu.strassen": one or two levels of Strassen's
 * algorithm folded into a Goto/BLIS blocked GEMM, written once for both
 * precisions (strassen_abc_f32.c, strassen_abc_f64.c name the type and the
 * functions).
 *
 * The method is "ABC Strassen" (Huang, Smith, Henry, van de Geijn,
 * "Strassen's Algorithm Reloaded", SC16). L levels cut A, B and C into
 * 2^L x 2^L blocks and form 7^L products (strassen_abc.c lists them), each
 *   M = (sum_i s_i A_i) (sum_j t_j B_j),   C_q += w_q M for its blocks C_q,
 * with at most 2^L terms on every side and every sign +-1. No sum and no
 * product is ever stored: packing an mc x kc block of A adds the A_i as it
 * copies them (and the same for the kc x nc panel of B), and each MR x NR
 * tile the microkernel computes is added, with its signs, straight into the
 * blocks C_q of that product. The only memory is the packing buffers of the
 * blocked driver, taken once per call. The loops are those of the blocked
 * driver (blocked_tmpl.h), run for each product in turn inside one OpenMP
 * region; every product has the same shape, so each thread owns the same
 * tiles of every block of C throughout and no two threads ever write one
 * element.
 *
 * beta: the first product to reach a block of C applies beta to it in its
 * first kc step (beta = 0 writes without reading); later ones add. A tile
 * with a single destination, whole, is written by the microkernel itself
 * (alpha carrying the sign, beta as above); otherwise the microkernel writes
 * a scratch tile on the stack and the tile is merged into each destination.
 *
 * Sizes: min(m, n, k) picks the levels (gk_strassen_abc_levels, thresholds
 * measured, GK_STRASSEN_MIN overrides). Any m, n, k: Strassen runs on the
 * leading m' x n' x k' part, each a multiple of 2^L (dynamic peeling); then
 * the blocked driver adds A(0:m', k':k) B(k':k, 0:n') into that part and
 * computes the last n - n' columns (all rows) and the last m - m' rows of
 * C in full. That is at most 3 columns, 3 rows and a rank-3 update.
 *
 * Accuracy, to first order in u (docs/ARCHITECTURE.md, "Strassen"):
 *   ||C - fl(C)||_F <= f(L) (k / 2^L + c_L) u (|alpha| ||A||_F ||B||_F + |beta| ||C||_F),
 *   f(L) = 2 (g^L + 2^L), g = sqrt(64 + 32 sqrt 2) < 10.46: f(1) < 25, f(2) < 227;
 *   c_1 = 4, c_2 = 12.
 * Why. A sum of a <= 2^L blocks of A is within gamma_(a-1) of exact and its
 * norm is at most sqrt(a) ||A||_F (the same for B): forming S and T costs
 * at most 2 (2^L - 1) u relative to sqrt(a b) ||A||_F ||B||_F. An element of
 * a block of C is then one long sum, over the products that reach it, in
 * which each term passes through at most kc + 1 roundings in its tile (kc
 * <= k/2^L steps and alpha), one per tile merged into C after it (at most
 * 4^L products reach a block, each in ceil(k / (2^L kc)) steps, so at most
 * k/2^L + 4^L merges with kc >= 16 >= 4^L) and one for the rank-3 update of
 * the peeled k: at most 2 k/2^L + 4^L + 2^(L+1) roundings in all, counting
 * the sums. A block of C gets the products r with weights
 * sqrt(a_r b_r); per level these add up to 4 + 2 sqrt 2, 2 sqrt 2,
 * 2 sqrt 2 and 4 + 2 sqrt 2 in the four quadrants, so the Frobenius norm
 * over the blocks of C is g^L times ||A||_F ||B||_F. The peeled rows and
 * columns are classical, within (k + 2) u each, and the update of the
 * peeled k within 5 u. Collected:
 *   g^L (2 k/2^L + 4^L + 2^(L+1)) + 2 (k + 2) + 5 <= f(L) (k/2^L + c_L).
 * For large k that is about 12.5 times the classical (k + 2) u for one
 * level and 57 times for two (Higham, "Accuracy and Stability of Numerical
 * Algorithms", section 23.2.2, has 12 per level in the max norm); the
 * errors met in practice are far below the bound (tests/test_strassen.c).
 */

/* A kc below this comes from GK_GEMM_BLOCKS (tests, tuning) and is kept;
 * the blocking rules never give one (blocked_sizes.c). */
#define GK_SABC_KC_MIN 256

/* Rows and columns of the blocking, and what the threads share. */
typedef struct {
	const GK_ARGS *p;
	const gk_sabc_plan *plan;
	int64_t mb, nb, kb; /* the blocks every product works on */
	int64_t mr, nr, mc, kc, nc;
	GK_T *bpack;        /* the shared kc x nc panel of B */
	GK_T *apack;        /* one mc x kc block of A per thread */
	int64_t apack_stride;
} GK_SPLAN;

/* One product's operands for the loops: where each term starts. */
typedef struct {
	int na, nb, nc;
	const GK_T *a[GK_SABC_MAX_TERMS], *b[GK_SABC_MAX_TERMS];
	GK_T sa[GK_SABC_MAX_TERMS], sb[GK_SABC_MAX_TERMS], sc[GK_SABC_MAX_TERMS];
	GK_T *c[GK_SABC_MAX_TERMS];
	unsigned char first[GK_SABC_MAX_TERMS];
} GK_SPROD;

/* A sliver's length in elements (blocked.h, as the blocked driver's). */
#define GK_SSLIVER(r, kc) gk_gemm_sliver(r, kc, sizeof(GK_T))

/*
 * Packing sum_t s[t] X_t (the layout of gk_pack_f32 in blocked.h: sliver q
 * holds rows q*r .. q*r + r-1 of X column by column, d[l * r + i] =
 * X(q*r + i, l), rows past the end zero), the X_t sharing the strides rs
 * and cs. Each element is summed in registers in a fixed order, term 0
 * first, and stored once. The loops read each X_t along its contiguous
 * direction, one stream per term (two or four terms times the rows of a
 * sliver would be more streams than the hardware prefetchers follow), and
 * ask for the line GK_SPF rows or columns ahead, a new stream each time.
 */
#define GK_SPF 2
#define GK_SSUM(o) (nt == 1 ? s0 * x0[o] \
                  : nt == 2 ? s0 * x0[o] + s1 * x1[o] \
                  : nt == 3 ? s0 * x0[o] + s1 * x1[o] + s2 * x2[o] \
                  : s0 * x0[o] + s1 * x1[o] + s2 * x2[o] + s3 * x3[o])

/* rs == 1: a column of every sliver is contiguous in each X_t. The whole
 * panel (rows rows) goes column by column, so each X_t streams along its
 * columns. */
static inline __attribute__((always_inline)) void
GK_FN_SPACK_COLS(int nt, int64_t rows, int64_t kc, const GK_T *const *x, const GK_T *s,
                 int64_t cs, int64_t r, GK_T *restrict dst, int64_t ps)
{
	const GK_T s0 = s[0], s1 = nt > 1 ? s[1] : 0, s2 = nt > 2 ? s[2] : 0, s3 = nt > 3 ? s[3] : 0;
	const int64_t line = 64 / (int64_t)sizeof(GK_T);
	for (int64_t l = 0; l < kc; l++) {
		if (l + GK_SPF < kc)
			for (int t = 0; t < nt; t++)
				for (int64_t o = 0; o < rows; o += line)
					__builtin_prefetch(x[t] + (l + GK_SPF) * cs + o);
		const GK_T *x0 = x[0] + l * cs, *x1 = nt > 1 ? x[1] + l * cs : x0;
		const GK_T *x2 = nt > 2 ? x[2] + l * cs : x0, *x3 = nt > 3 ? x[3] + l * cs : x0;
		for (int64_t i0 = 0, q = 0; i0 < rows; i0 += r, q++) {
			GK_T *restrict d = dst + q * ps + l * r;
			const int64_t rv = rows - i0 < r ? rows - i0 : r;
			for (int64_t i = 0; i < rv; i++)
				d[i] = GK_SSUM(i0 + i);
			for (int64_t i = rv; i < r; i++)
				d[i] = 0;
		}
	}
}

/* cs == 1 (rows of X contiguous) or general strides: sliver by sliver, row
 * by row; the sliver being written stays in L1 or L2. */
static inline __attribute__((always_inline)) void
GK_FN_SPACK_ROWS(int nt, int64_t rows, int64_t kc, const GK_T *const *x, const GK_T *s,
                 int64_t rs, int64_t cs, int64_t r, GK_T *restrict dst, int64_t ps)
{
	const GK_T s0 = s[0], s1 = nt > 1 ? s[1] : 0, s2 = nt > 2 ? s[2] : 0, s3 = nt > 3 ? s[3] : 0;
	const int64_t line = 64 / (int64_t)sizeof(GK_T);
	for (int64_t i0 = 0, q = 0; i0 < rows; i0 += r, q++) {
		GK_T *restrict d = dst + q * ps;
		const int64_t rv = rows - i0 < r ? rows - i0 : r;
		for (int64_t i = 0; i < rv; i++) {
			const int64_t o = (i0 + i) * rs;
			if (cs == 1 && i0 + i + GK_SPF < rows)
				for (int t = 0; t < nt; t++)
					for (int64_t l = 0; l < kc; l += line)
						__builtin_prefetch(x[t] + o + GK_SPF * rs + l);
			const GK_T *x0 = x[0] + o, *x1 = nt > 1 ? x[1] + o : x0;
			const GK_T *x2 = nt > 2 ? x[2] + o : x0, *x3 = nt > 3 ? x[3] + o : x0;
			if (cs == 1)
				for (int64_t l = 0; l < kc; l++)
					d[l * r + i] = GK_SSUM(l);
			else
				for (int64_t l = 0; l < kc; l++)
					d[l * r + i] = GK_SSUM(l * cs);
		}
		for (int64_t l = 0; l < kc; l++)
			for (int64_t i = rv; i < r; i++)
				d[l * r + i] = 0;
	}
}

/* Pack rows x kc of sum_t s[t] X_t, starting at element offset off of every
 * X_t, into slivers of r rows, ps apart. */
static void GK_FN_SPACK(int64_t rows, int64_t kc, int nt, const GK_T *const *x, int64_t off,
                        const GK_T *s, int64_t rs, int64_t cs, int64_t r, GK_T *dst, int64_t ps)
{
	const GK_T *xs[GK_SABC_MAX_TERMS];
	for (int t = 0; t < nt; t++)
		xs[t] = x[t] + off;
	/* One copy of the loops per term count, the sum unrolled in each. */
	if (rs == 1) {
		switch (nt) {
		case 1: GK_FN_SPACK_COLS(1, rows, kc, xs, s, cs, r, dst, ps); break;
		case 2: GK_FN_SPACK_COLS(2, rows, kc, xs, s, cs, r, dst, ps); break;
		case 3: GK_FN_SPACK_COLS(3, rows, kc, xs, s, cs, r, dst, ps); break;
		default: GK_FN_SPACK_COLS(4, rows, kc, xs, s, cs, r, dst, ps); break;
		}
	} else {
		switch (nt) {
		case 1: GK_FN_SPACK_ROWS(1, rows, kc, xs, s, rs, cs, r, dst, ps); break;
		case 2: GK_FN_SPACK_ROWS(2, rows, kc, xs, s, rs, cs, r, dst, ps); break;
		case 3: GK_FN_SPACK_ROWS(3, rows, kc, xs, s, rs, cs, r, dst, ps); break;
		default: GK_FN_SPACK_ROWS(4, rows, kc, xs, s, rs, cs, r, dst, ps); break;
		}
	}
}
#undef GK_SSUM

/* C(0:mv, 0:nv) := beta C + s T for one destination of a tile T (row
 * stride nr); beta = 0 reads no C. Cloned for the vector widths the
 * microkernels store the tile with (the loader picks one for the CPU):
 * narrower loads of a tile just stored wide wait for the stores to drain. */
__attribute__((target_clones("avx512f", "avx2", "default")))
static void GK_FN_SMERGE(int64_t mv, int64_t nv, const GK_T *restrict t, int64_t nr, GK_T s,
                         GK_T beta, GK_T *restrict c, int64_t rs_c)
{
	for (int64_t i = 0; i < mv; i++) {
		GK_T *restrict ci = c + i * rs_c;
		const GK_T *restrict ti = t + i * nr;
		if (beta == (GK_T)0)
			for (int64_t j = 0; j < nv; j++)
				ci[j] = s * ti[j];
		else if (beta == (GK_T)1)
			for (int64_t j = 0; j < nv; j++)
				ci[j] += s * ti[j];
		else
			for (int64_t j = 0; j < nv; j++)
				ci[j] = beta * ci[j] + s * ti[j];
	}
}

/* One MR x NR tile (mv x nv of it inside C) at element offset off of every
 * destination of the product, depth kc; first_step: the first kc step. */
static inline void GK_FN_STILE(const GK_SPLAN *pl, const GK_SPROD *pr, int first_step,
                               int64_t mv, int64_t nv, int64_t kc, const GK_T *as,
                               const GK_T *bs, int64_t off, GK_T *tile)
{
	const GK_ARGS *p = pl->p;
	const int64_t mr = pl->mr, nr = pl->nr, rs_c = p->rs_c;
	if (pr->nc == 1 && mv == mr && nv == nr) {
		const GK_T beta = first_step && pr->first[0] ? p->beta : (GK_T)1;
		p->kern->GK_UKR(kc, pr->sc[0] * p->alpha, as, bs, beta, pr->c[0] + off, rs_c);
		return;
	}
	/* The destinations are far apart (blocks of C) and touched once per
	 * kc step: fetch them while the microkernel runs. */
	for (int d = 0; d < pr->nc; d++)
		for (int64_t i = 0; i < mv; i++) {
			__builtin_prefetch(pr->c[d] + off + i * rs_c, 1);
			__builtin_prefetch(pr->c[d] + off + i * rs_c + nv - 1, 1);
		}
	p->kern->GK_UKR(kc, p->alpha, as, bs, (GK_T)0, tile, nr);
	for (int d = 0; d < pr->nc; d++) {
		const GK_T beta = first_step && pr->first[d] ? p->beta : (GK_T)1;
		GK_FN_SMERGE(mv, nv, tile, nr, pr->sc[d], beta, pr->c[d] + off, rs_c);
	}
}

/* One product's terms, resolved against A, B and C. */
static void GK_FN_SRESOLVE(const GK_SPLAN *pl, const gk_sabc_product *q, GK_SPROD *pr)
{
	const GK_ARGS *p = pl->p;
	pr->na = q->na;
	pr->nb = q->nb;
	pr->nc = q->nc;
	for (int t = 0; t < q->na; t++) {
		pr->a[t] = p->a + q->a[t].row * pl->mb * p->rs_a + q->a[t].col * pl->kb * p->cs_a;
		pr->sa[t] = (GK_T)q->a[t].sign;
	}
	for (int t = 0; t < q->nb; t++) {
		pr->b[t] = p->b + q->b[t].row * pl->kb * p->rs_b + q->b[t].col * pl->nb * p->cs_b;
		pr->sb[t] = (GK_T)q->b[t].sign;
	}
	for (int t = 0; t < q->nc; t++) {
		pr->c[t] = p->c + q->c[t].row * pl->mb * p->rs_c + q->c[t].col * pl->nb;
		pr->sc[t] = (GK_T)q->c[t].sign;
		pr->first[t] = q->first[t];
	}
}

/* Thread tid of nth (a grid of tm rows of threads): every product in turn. */
static void GK_FN_STHREAD(const GK_SPLAN *pl, int tid, int nth, int tm)
{
	const GK_ARGS *p = pl->p;
	const int64_t mb = pl->mb, nb = pl->nb, kb = pl->kb, mr = pl->mr, nr = pl->nr;
	const int64_t mc = pl->mc, kc = pl->kc, nc = pl->nc;
	const int tn = nth / tm, ti = tid / tn, tj = tid % tn;
	/* This thread's rows of every block of C. */
	int64_t i0, i1;
	gk_gemm_range(mb, mr, ti, tm, &i0, &i1);
	GK_T *apack = pl->apack + (int64_t)tid * pl->apack_stride;
	GK_T tile[GK_GEMM_MAX_TILE] __attribute__((aligned(GK_PACK_ALIGN)));

	for (int r = 0; r < pl->plan->count; r++) {
		GK_SPROD pr;
		GK_FN_SRESOLVE(pl, &pl->plan->prod[r], &pr);
		for (int64_t jc = 0; jc < nb; jc += nc) {
			const int64_t nv = nb - jc < nc ? nb - jc : nc;
			const int64_t nsl = (nv + nr - 1) / nr;
			for (int64_t pc = 0; pc < kb; pc += kc) {
				const int64_t kv = kb - pc < kc ? kb - pc : kc;
				const int64_t ps_a = GK_SSLIVER(mr, kv), ps_b = GK_SSLIVER(nr, kv);
				/* Everyone packs a share of the B panel's slivers (B as
				 * X = B^T: rows are the columns of B). */
				const int64_t b0 = gk_gemm_split(nsl, tid, nth), b1 = gk_gemm_split(nsl, tid + 1, nth);
				if (b1 > b0) {
					const int64_t jv = (b1 * nr < nv ? b1 * nr : nv) - b0 * nr;
					GK_FN_SPACK(jv, kv, pr.nb, pr.b, pc * p->rs_b + (jc + b0 * nr) * p->cs_b,
					            pr.sb, p->cs_b, p->rs_b, nr, pl->bpack + b0 * ps_b, ps_b);
				}
				if (nth > 1) {
#pragma omp barrier
				}
				const int64_t js0 = gk_gemm_split(nsl, tj, tn), js1 = gk_gemm_split(nsl, tj + 1, tn);
				for (int64_t ic = i0; ic < i1 && js1 > js0; ic += mc) {
					const int64_t mv = i1 - ic < mc ? i1 - ic : mc;
					GK_FN_SPACK(mv, kv, pr.na, pr.a, ic * p->rs_a + pc * p->cs_a, pr.sa,
					            p->rs_a, p->cs_a, mr, apack, ps_a);
					/* The B sliver stays in L1 or L2 while the A block streams past. */
					for (int64_t js = js0; js < js1; js++) {
						const int64_t j = js * nr, nvt = nv - j < nr ? nv - j : nr;
						for (int64_t i = 0, is = 0; i < mv; i += mr, is++)
							GK_FN_STILE(pl, &pr, pc == 0, mv - i < mr ? mv - i : mr, nvt, kv,
							            apack + is * ps_a, pl->bpack + js * ps_b,
							            (ic + i) * p->rs_c + jc + j, tile);
					}
				}
				/* The panel is repacked next round: wait until nobody reads it. */
				if (nth > 1) {
#pragma omp barrier
				}
			}
		}
	}
}

/* The thread grid tm x (nth / tm): the most row groups (each packs only its
 * own rows of every A block, and packing here sums two or four blocks)
 * whose largest share of tiles is within 1/32 of the best grid's. */
static int GK_FN_SGRID(const GK_SPLAN *pl, int nth)
{
	const int64_t nv = pl->nb < pl->nc ? pl->nb : pl->nc;
	return gk_gemm_grid(nth, (pl->mb + pl->mr - 1) / pl->mr, (nv + pl->nr - 1) / pl->nr, 32);
}

/* The Strassen part: C(0:m, 0:n) = alpha A B + beta C for p, with m, n, k
 * multiples of 2^levels. */
static gk_status GK_FN_SRUN(const GK_ARGS *p, int levels)
{
	gk_sabc_plan plan;
	gk_sabc_plan_make(levels, &plan);
	GK_SPLAN pl = {.p = p, .plan = &plan, .mr = p->kern->GK_MR, .nr = p->kern->GK_NR};
	pl.mb = p->m >> levels;
	pl.nb = p->n >> levels;
	pl.kb = p->k >> levels;
	gk_gemm_blocking bs;
	gk_gemm_blocking_get(sizeof(GK_T), pl.mr, pl.nr, &bs);
	/* Blocks no larger than a product; kc >= 16 >= 4^levels keeps the
	 * number of tiles merged into C within the error bound above. */
	const int64_t mup = (pl.mb + pl.mr - 1) / pl.mr * pl.mr;
	const int64_t nup = (pl.nb + pl.nr - 1) / pl.nr * pl.nr;
	pl.kc = bs.kc < 16 ? 16 : bs.kc;
	if (bs.kc >= GK_SABC_KC_MIN) {
		/* Each kc step merges every tile of a product into its blocks of C
		 * once more, which costs more than the deeper slivers do: the
		 * fewest steps of at most twice the driver's kc, the A block kept
		 * to the bytes the driver gives it. */
		const int64_t steps = (pl.kb + 2 * bs.kc - 1) / (2 * bs.kc);
		pl.kc = ((pl.kb + steps - 1) / steps + 7) / 8 * 8;
		bs.mc = bs.mc * bs.kc / pl.kc < pl.mr ? pl.mr : bs.mc * bs.kc / pl.kc / pl.mr * pl.mr;
	}
	pl.kc = pl.kc > pl.kb ? pl.kb : pl.kc;
	pl.mc = bs.mc > mup ? mup : bs.mc;
	pl.nc = bs.nc > nup ? nup : bs.nc;
	/* Threads: never more than the work of one product keeps busy. */
	const int nt = gk_gemm_threads(p->threads, (double)pl.mb, (double)pl.nb, (double)pl.kb);
	const int64_t ps_a = GK_SSLIVER(pl.mr, pl.kc), ps_b = GK_SSLIVER(pl.nr, pl.kc);
	pl.apack_stride = pl.mc / pl.mr * ps_a;
	const size_t bbytes = (size_t)(pl.nc / pl.nr * ps_b) * sizeof(GK_T);
	const size_t abytes = (size_t)(pl.apack_stride * nt) * sizeof(GK_T);
	char *ws = gk_gemm_workspace_get(bbytes + abytes);
	if (ws == NULL)
		return GK_ERR_NO_MEMORY;
	pl.bpack = (GK_T *)ws;
	pl.apack = (GK_T *)(ws + bbytes);
	if (nt == 1) {
		GK_FN_STHREAD(&pl, 0, 1, 1);
	} else {
#pragma omp parallel num_threads(nt)
		{
			/* The runtime may grant fewer threads than asked for. */
			const int nth = omp_get_num_threads();
			GK_FN_STHREAD(&pl, omp_get_thread_num(), nth, GK_FN_SGRID(&pl, nth));
		}
	}
	gk_gemm_workspace_put(ws);
	return GK_OK;
}

gk_status GK_FN_STRASSEN(const GK_ARGS *p)
{
	const int levels = gk_strassen_abc_levels(GK_DTYPE, p->m, p->n, p->k);
	if (levels == 0)
		return GK_FN_BLOCKED(p);
	const int64_t mask = ~(((int64_t)1 << levels) - 1);
	const int64_t m2 = p->m & mask, n2 = p->n & mask, k2 = p->k & mask;
	GK_ARGS q = *p;
	q.m = m2;
	q.n = n2;
	q.k = k2;
	/* Without its workspace (nothing written yet): the blocked driver,
	 * which computes a product without one. */
	if (GK_FN_SRUN(&q, levels) != GK_OK)
		return GK_FN_BLOCKED(p);
	if (k2 < p->k) {
		/* C(0:m2, 0:n2) += alpha A(0:m2, k2:k) B(k2:k, 0:n2) */
		q.k = p->k - k2;
		q.a = p->a + k2 * p->cs_a;
		q.b = p->b + k2 * p->rs_b;
		q.beta = 1;
		GK_FORWARD(GK_FN_BLOCKED(&q));
	}
	if (n2 < p->n) {
		/* The last columns of C, every row, all of k. */
		q = *p;
		q.n = p->n - n2;
		q.b = p->b + n2 * p->cs_b;
		q.c = p->c + n2;
		GK_FORWARD(GK_FN_BLOCKED(&q));
	}
	if (m2 < p->m) {
		/* The last rows of C but their last columns, all of k. */
		q = *p;
		q.m = p->m - m2;
		q.n = n2;
		q.a = p->a + m2 * p->rs_a;
		q.c = p->c + m2 * p->rs_c;
		GK_FORWARD(GK_FN_BLOCKED(&q));
	}
	return GK_OK;
}
