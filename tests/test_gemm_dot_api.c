/*
 * test_gemm_dot_api.c - way 5 of the blocked driver (blocked_dot_tmpl.h),
 * which sends products a few columns wide to the dot tiles, through the
 * public API (test_gemm_dot.c tests the tiles themselves):
 *
 *  - the shapes of way 5 and its edges (m from 7, n to one past the widest
 *    C the table sends there, k from 31 to 4097 and the table's least depth
 *    for each width, gemm_d_*_min_k, and one below), both layouts, all
 *    transposes, leading dimensions past the least: elementwise against a
 *    long double sum, C's padding untouched; where the driver's rule sends
 *    the product way 5, the bits of the dot tiles called directly;
 *  - 1 to 4 threads giving the same bits;
 *  - A's rows off a vector boundary (read in aligned vectors from before
 *    them): the bits of A aligned.
 * Inputs are fresh random numbers in [-1, 1] (GK_TEST_SEED to repeat).
 */
#include "test_gemm_dot_util.h"

/* ------------------------------------------------------------------------ */
/* Through the public API                                                */
/* ------------------------------------------------------------------------ */

typedef tu_gemm_prob prob;

static void prob_init(prob *p, unsigned dt, gk_layout layout, gk_trans ta, gk_trans tb, int64_t m,
                      int64_t n, int64_t k, double alpha, double beta, tu_rng *r)
{
	tu_gemm_prob_set(p, dt, layout, ta, tb, m, n, k, alpha, beta);
	const int rm = layout == GK_ROW_MAJOR;
	const int at = ta != GK_NO_TRANS, bt = tb != GK_NO_TRANS;
	const int64_t ra = at ? k : m, ca = at ? m : k, rb = bt ? n : k, cb = bt ? k : n;
	p->lda = (rm ? ca : ra) + 1 + (int64_t)(tu_next(r) % 5);
	p->ldb = (rm ? cb : rb) + 1 + (int64_t)(tu_next(r) % 5);
	p->ldc = (rm ? n : m) + 1 + (int64_t)(tu_next(r) % 5);
	/* Element (i, j) of X stored: x[i * ld + j] row-major, x[i + j * ld]
	 * column-major; of op(X): the strides swapped when transposed. */
	p->rsa = rm ? p->lda : 1;
	p->csa = rm ? 1 : p->lda;
	p->rsb = rm ? p->ldb : 1;
	p->csb = rm ? 1 : p->ldb;
	if (at) {
		const int64_t s = p->rsa;
		p->rsa = p->csa;
		p->csa = s;
	}
	if (bt) {
		const int64_t s = p->rsb;
		p->rsb = p->csb;
		p->csb = s;
	}
	p->rsc = rm ? p->ldc : 1;
	p->csc = rm ? 1 : p->ldc;
	tu_gemm_prob_alloc(p, 16, r);
	const size_t es = tu_esize(dt);
	if (beta == 0.0)
		poison(dt, p->c0, p->ecg);
	else
		tu_fill(dt, p->c0, p->ecg, r);
	memcpy(p->c, p->c0, p->ecg * es);
	snprintf(p->desc, sizeof p->desc, "%s %s %c%c %lldx%lldx%lld lda=%lld ldb=%lld ldc=%lld "
	         "alpha=%g beta=%g", NAME(dt), rm ? "row" : "col", at ? 'T' : 'N', bt ? 'T' : 'N',
	         (long long)m, (long long)n, (long long)k, (long long)p->lda, (long long)p->ldb,
	         (long long)p->ldc, alpha, beta);
}

/* One call into p->c (reset to C0 first); ctx NULL: gk_sgemm / gk_dgemm. */
/* The least depth from which t sends a C n columns wide to its dot tiles
 * (0: never). */
static int64_t min_k(const gk_kernels *t, unsigned dt, int64_t n)
{
	if (t == NULL || n < 1 || n > GK_GEMM_D_COLS ||
	    (dt == GK_DTYPE_F32 ? t->gemm_d_f32 == NULL : t->gemm_d_f64 == NULL))
		return 0;
	return dt == GK_DTYPE_F32 ? t->gemm_d_f32_min_k[n] : t->gemm_d_f64_min_k[n];
}

/* Whether the driver's rule (blocked_dot_tmpl.h, dotway) sends p way 5 with
 * table t: in the canonical problem (C row-major; a column-major call is
 * C^T = op(B)^T op(A)^T) A by rows, k from the table's least depth for the
 * width of C up to GK_BLOCKED_DOT_MAX_K, at least GK_BLOCKED_DOT_MIN_ROWS
 * rows. */
static int takes_way5(const gk_kernels *t, const prob *p)
{
	const int rm = p->layout == GK_ROW_MAJOR;
	const int64_t cm = rm ? p->m : p->n, cn = rm ? p->n : p->m;
	const int a_rows = rm ? p->csa == 1 : p->rsb == 1;
	const int64_t mk = min_k(t, p->dt, cn);
	return mk > 0 && p->k >= mk && p->k <= GK_BLOCKED_DOT_MAX_K && a_rows &&
	       cm >= GK_BLOCKED_DOT_MIN_ROWS;
}

/* Whether p->c holds the bits of the canonical product computed by t's dot
 * tiles directly, in tiles of gemm_d_*_nr columns over all rows. */
static int same_as_tiles(const gk_kernels *t, const prob *p)
{
	const size_t es = tu_esize(p->dt);
	const int rm = p->layout == GK_ROW_MAJOR;
	const int64_t M = rm ? p->m : p->n, N = rm ? p->n : p->m, k = p->k;
	char *ac = tu_xmalloc((size_t)(M * k) * es), *bt = tu_xmalloc((size_t)(N * k) * es);
	char *cc = tu_xmalloc((size_t)(M * N) * es);
	const char *a = p->a, *b = p->b, *c = p->c, *c0 = p->c0;
	/* Canonical A(i, l), Bt(j, l) and C(i, j) from the caller's matrices. */
	for (int64_t i = 0; i < M; i++)
		for (int64_t l = 0; l < k; l++)
			memcpy(ac + (i * k + l) * es,
			       rm ? a + (i * p->rsa + l * p->csa) * es : b + (l * p->rsb + i * p->csb) * es, es);
	for (int64_t j = 0; j < N; j++)
		for (int64_t l = 0; l < k; l++)
			memcpy(bt + (j * k + l) * es,
			       rm ? b + (l * p->rsb + j * p->csb) * es : a + (j * p->rsa + l * p->csa) * es, es);
	for (int64_t i = 0; i < M; i++)
		for (int64_t j = 0; j < N; j++)
			memcpy(cc + (i * N + j) * es,
			       c0 + (rm ? i * p->rsc + j * p->csc : j * p->rsc + i * p->csc) * es, es);
	const int64_t nr = dnr(t, p->dt);
	for (int64_t j = 0; j < N; j += nr)
		dkr(t, p->dt, M, N - j < nr ? N - j : nr, k, p->alpha, ac, k, bt + j * k * es, k, p->beta,
		    cc + j * es, N, 0);
	int same = 1;
	for (int64_t i = 0; i < M && same; i++)
		for (int64_t j = 0; j < N && same; j++)
			same = memcmp(cc + (i * N + j) * es,
			              c + (rm ? i * p->rsc + j * p->csc : j * p->rsc + i * p->csc) * es,
			              es) == 0;
	free(ac);
	free(bt);
	free(cc);
	return same;
}

/* The result in p->c: status, C's padding and the guard after it, every
 * element against a long double sum, within 2 (k + 2) u of the sum of the
 * magnitudes of its terms. Returns 1 when all is right. */
static int prob_check(prob *p, gk_status st, const char *who)
{
	TU_CHECK(st == GK_OK, "%s %s: status %d: %s", who, p->desc, (int)st, gk_last_error());
	if (st != GK_OK)
		return 0;
	const size_t es = tu_esize(p->dt);
	const int pad = tu_padding_intact(p->dt, p->layout, p->m, p->n, p->c, p->c0, p->ldc);
	const int tail = memcmp((char *)p->c + p->ec * es, (char *)p->c0 + p->ec * es,
	                        (p->ecg - p->ec) * es) == 0;
	TU_CHECK(pad && tail, "%s %s: wrote C's padding%s", who, p->desc,
	         tail ? "" : " (past its last element)");
	const int64_t m = p->m, n = p->n, k = p->k;
	double *ad = tu_xmalloc(sizeof(double) * (size_t)(m * k));
	double *bd = tu_xmalloc(sizeof(double) * (size_t)(n * k));
	for (int64_t i = 0; i < m; i++)
		for (int64_t l = 0; l < k; l++)
			ad[i * k + l] = tu_getv(p->dt, p->a, i * p->rsa + l * p->csa);
	for (int64_t j = 0; j < n; j++)
		for (int64_t l = 0; l < k; l++)
			bd[j * k + l] = tu_getv(p->dt, p->b, l * p->rsb + j * p->csb);
	const long double bound = 2.0L * (k + 2) * tu_unit_roundoff(p->dt);
	int bad = 0;
	for (int64_t i = 0; i < m; i++)
		for (int64_t j = 0; j < n; j++) {
			const double *x = ad + i * k, *y = bd + j * k;
			long double s = 0, mag = 0;
			for (int64_t l = 0; l < k; l++) {
				const long double pr = (long double)x[l] * y[l];
				s += pr;
				mag += fabsl(pr);
			}
			s *= p->alpha;
			mag *= fabs(p->alpha);
			const int64_t xc = i * p->rsc + j * p->csc;
			if (p->beta != 0.0) {
				const long double bc = (long double)p->beta * tu_getv(p->dt, p->c0, xc);
				s += bc;
				mag += fabsl(bc);
			}
			const double got = tu_getv(p->dt, p->c, xc);
			if (!(fabsl((long double)got - s) <= bound * mag) && bad++ == 0)
				fprintf(stderr, "  C(%lld,%lld) = %.9g, expected %.9Lg\n", (long long)i,
				        (long long)j, got, s);
		}
	TU_CHECK(bad == 0, "%s %s: %d elements off", who, p->desc, bad);
	free(ad);
	free(bd);
	return pad && tail && bad == 0;
}

/* The shapes of way 5 and its edges, both layouts, all transposes. A
 * column-major call computes C^T in the canonical problem, so there m and
 * n trade places (C's few columns are its few rows): each shape goes once
 * with A's side by rows (the way 5 orientation) and, on a third of them,
 * once with it by columns (another way). */
static void test_api(unsigned dt, const gk_kernels *act, int *n5, int *nall, tu_rng *r)
{
	static const int64_t ms[] = {7, 8, 9, 16, 33, 100};
	static const int64_t kbase[] = {31, 32, 33, 64, 257, 4096, 4097};
	/* n up to one past the widest C the table sends way 5 (at least 9
	 * floats, 5 doubles). */
	int64_t nmax = dt == GK_DTYPE_F32 ? 9 : 5;
	for (int64_t n = 1; n <= GK_GEMM_D_COLS; n++)
		if (min_k(act, dt, n) > 0 && n + 1 > nmax)
			nmax = n + 1;
	gk_context *ctx[3] = {NULL, tu_context_new(1, 0u), tu_context_new(2, 0u)};
	int c = 0;
	for (int mi = 0; mi < 6; mi++)
		for (int64_t n = 1; n <= nmax; n++) {
			/* The depths above, and the table's least depth for this width
			 * (of C's columns, or of its rows column-major) and one below. */
			int64_t ks[9];
			int nk = 0;
			for (int i = 0; i < 7; i++)
				ks[nk++] = kbase[i];
			const int64_t mk = min_k(act, dt, n);
			for (int64_t e = mk - 1; mk > 0 && e <= mk; e++) {
				int dup = 0;
				for (int i = 0; i < nk; i++)
					dup |= ks[i] == e;
				if (!dup)
					ks[nk++] = e;
			}
			for (int ki = 0; ki < nk; ki++, c++)
				for (int o = 0; o < 2; o++) {
					if (o == 1 && c % 3 != 0)
						continue;
					const int col = c & 1, sub = (c >> 1) & 1, q = (c >> 2) & 3;
					const gk_trans tr = c % 5 == 0 ? GK_CONJ_TRANS : GK_TRANS;
					/* o = 0: A's side of the canonical problem by rows. */
					const gk_trans near = o == 0 ? GK_NO_TRANS : tr, far = sub ? tr : GK_NO_TRANS;
					prob p;
					if (!col)
						prob_init(&p, dt, GK_ROW_MAJOR, near, far, ms[mi], n, ks[ki], ab[q][0],
						          ab[q][1], r);
					else
						prob_init(&p, dt, GK_COL_MAJOR, far, near, n, ms[mi], ks[ki], ab[q][0],
						          ab[q][1], r);
					const int ok = prob_check(&p, tu_gemm_prob_run(&p, ctx[c % 3]), "api");
					(*nall)++;
					if (ok && act != NULL && takes_way5(act, &p)) {
						(*n5)++;
						TU_CHECK(same_as_tiles(act, &p),
						         "api %s: way 5 by the rule, but not the dot tiles' bits",
						         p.desc);
					}
					tu_gemm_prob_free(&p);
				}
		}
	gk_context_destroy(ctx[1]);
	gk_context_destroy(ctx[2]);
}

/* A few way 5 shapes with enough work for threads: 1, 2, 3 and 4 threads
 * give the same bits. Where the table does not send a shape way 5 (the
 * AVX2 set for some, GK_GEMM_DOT=0 for all) and it is deep enough for way
 * 6 (k >= 16 (m + n), a C of at most 512 KiB: blocked_choice_tmpl.h),
 * whose depth groups follow the thread count, each count gives the same
 * bits run to run instead. */
static void test_threads(unsigned dt, const gk_kernels *act, tu_rng *r)
{
	static const struct {
		int col, ta, tb;
		int64_t m, n, k;
	} f32s[] = {{0, 0, 0, 100, 8, 4096}, {0, 0, 1, 333, 5, 1000}, {1, 1, 0, 7, 250, 2048},
	            {0, 0, 0, 1000, 1, 300}, {1, 0, 0, 3, 129, 4000}},
	  f64s[] = {{0, 0, 0, 200, 4, 4096}, {1, 0, 0, 3, 300, 1500}, {0, 0, 1, 129, 2, 2000},
	            {1, 1, 0, 2, 500, 1000}};
	const int nsh = dt == GK_DTYPE_F32 ? 5 : 4;
	int n5 = 0;
	gk_context *ctx[5];
	for (int t = 1; t <= 4; t++)
		ctx[t] = tu_context_new(t, 0u);
	for (int s = 0; s < nsh; s++) {
		const int col = dt == GK_DTYPE_F32 ? f32s[s].col : f64s[s].col;
		const int ta = dt == GK_DTYPE_F32 ? f32s[s].ta : f64s[s].ta;
		const int tb = dt == GK_DTYPE_F32 ? f32s[s].tb : f64s[s].tb;
		const int64_t m = dt == GK_DTYPE_F32 ? f32s[s].m : f64s[s].m;
		const int64_t n = dt == GK_DTYPE_F32 ? f32s[s].n : f64s[s].n;
		const int64_t k = dt == GK_DTYPE_F32 ? f32s[s].k : f64s[s].k;
		prob p;
		prob_init(&p, dt, col ? GK_COL_MAJOR : GK_ROW_MAJOR, ta ? GK_TRANS : GK_NO_TRANS,
		          tb ? GK_TRANS : GK_NO_TRANS, m, n, k, ab[(s + 1) % 4][0], ab[(s + 1) % 4][1], r);
		const size_t bytes = p.ecg * tu_esize(dt);
		void *one = tu_xmalloc(bytes);
		prob_check(&p, tu_gemm_prob_run(&p, ctx[1]), "threads 1");
		memcpy(one, p.c, bytes);
		if (act != NULL && takes_way5(act, &p)) {
			n5++;
			TU_CHECK(same_as_tiles(act, &p), "threads %s: way 5 by the rule, but not the dot "
			         "tiles' bits", p.desc);
		}
		const int way5 = act != NULL && takes_way5(act, &p);
		const int maydeep = k >= 16 * (m + n) &&
		                    (double)m * (double)n * (double)tu_esize(dt) <= 512.0 * 1024.0;
		void *again = tu_xmalloc(bytes);
		for (int t = 2; t <= 4; t++) {
			const gk_status st = tu_gemm_prob_run(&p, ctx[t]);
			if (way5 || !maydeep) {
				TU_CHECK(st == GK_OK && memcmp(one, p.c, bytes) == 0,
				         "threads %s: %d threads give other bits than one (status %d)", p.desc,
				         t, (int)st);
				continue;
			}
			prob_check(&p, st, "threads, deep");
			memcpy(again, p.c, bytes);
			const gk_status st2 = tu_gemm_prob_run(&p, ctx[t]);
			TU_CHECK(st2 == GK_OK && memcmp(again, p.c, bytes) == 0,
			         "threads %s: %d threads, two runs differ (status %d)", p.desc, t, (int)st2);
		}
		free(again);
		free(one);
		tu_gemm_prob_free(&p);
	}
	for (int t = 1; t <= 4; t++)
		gk_context_destroy(ctx[t]);
	printf("threads %s: %d shapes on 1 to 4 threads, %d of them way 5 by the rule\n", NAME(dt),
	       nsh, n5);
	if (act != NULL)
		TU_CHECK(n5 > 0, "threads %s: no shape went way 5", NAME(dt));
}

/* A's rows a whole number of vectors apart, starting o elements past a
 * vector boundary (o from 1 to the lanes less one: way 5 reads them in
 * aligned vectors from before them, kernel_api.h "off", where the table
 * gives the width of C off and k is long enough, blocked_dot_tmpl.h
 * dot_off): the bits of the same product with A aligned, on 1 and 2
 * threads, right against the long double sums; rows NaN past k. B by rows
 * and by columns, C 1 to 4 wide, k about the least depth of off. */
static void test_off(unsigned dt, const gk_kernels *act, tu_rng *r)
{
	if (act == NULL)
		return;
	const size_t es = tu_esize(dt);
	const int64_t vl = act->gemm_d_align / (int64_t)es;
	gk_context *ctx2 = tu_context_new(2, 0u);
	int nc = 0, noff = 0;
	for (int64_t n = 1; n <= 4; n++)
		for (int ki = 0; ki < 4; ki++)
			for (int tb = 0; tb < 2; tb++, nc++) {
				/* The least depth of off for n columns, and about it. */
				const int64_t kmin = GK_BLOCKED_DOT_OFF_VECS * (n > 1 ? n - 1 : 1) * vl;
				const int64_t ks[] = {kmin - 1, kmin, kmin + 5, 700};
				const int64_t k = ks[ki], m = ki % 2 ? 16 : 53;
				const int64_t o = 1 + (int64_t)(tu_next(r) % (uint64_t)(vl - 1));
				prob p;
				prob_init(&p, dt, GK_ROW_MAJOR, GK_NO_TRANS, tb ? GK_TRANS : GK_NO_TRANS, m, n, k,
				          ab[nc % 4][0], ab[nc % 4][1], r);
				const int64_t lda = (k + vl - 1) / vl * vl + vl;
				const size_t len = (size_t)(m * lda + vl) * es;
				char *al = aligned_alloc(64, (len + 63) / 64 * 64);
				char *sh = aligned_alloc(64, (len + 63) / 64 * 64);
				if (al == NULL || sh == NULL) {
					fprintf(stderr, "test_off: out of memory\n");
					exit(2);
				}
				poison(dt, al, (size_t)(m * lda + vl));
				poison(dt, sh, (size_t)(m * lda + vl));
				for (int64_t i = 0; i < m; i++)
					for (int64_t l = 0; l < k; l++) {
						const char *x = (const char *)p.a + (i * p.lda + l) * es;
						memcpy(al + (i * lda + l) * es, x, es);
						memcpy(sh + (o + i * lda + l) * es, x, es);
					}
				free(p.a);
				p.a = al;
				p.lda = p.rsa = lda;
				const size_t bytes = p.ecg * es;
				void *c1 = tu_xmalloc(bytes);
				prob_check(&p, tu_gemm_prob_run(&p, NULL), "off, A aligned");
				memcpy(c1, p.c, bytes);
				p.a = sh + o * es;
				snprintf(p.desc + strlen(p.desc), sizeof p.desc - strlen(p.desc), " A off %lld",
				         (long long)o);
				prob_check(&p, tu_gemm_prob_run(&p, NULL), "off");
				TU_CHECK(memcmp(c1, p.c, bytes) == 0,
				         "off %s: other bits than with A aligned", p.desc);
				const gk_status st = tu_gemm_prob_run(&p, ctx2);
				TU_CHECK(st == GK_OK && memcmp(c1, p.c, bytes) == 0,
				         "off %s: 2 threads give other bits than A aligned on 1", p.desc);
				noff += takes_way5(act, &p) && ((act->gemm_d_off_cols >> n) & 1u) && k >= kmin;
				p.a = al;
				tu_gemm_prob_free(&p);
				free(sh);
				free(c1);
			}
	gk_context_destroy(ctx2);
	printf("off %s: %d products with A off a vector boundary, %d of them read with off\n",
	       NAME(dt), nc, noff);
	TU_CHECK(act->gemm_d_off_cols == 0 || noff > 0, "off %s: no product read with off",
	         NAME(dt));
}

int main(void)
{
	const uint64_t seed = tu_seed();
	const gk_kernels *act = gk_kernels_active();
	if (act->gemm_d_f32 == NULL || act->gemm_d_f64 == NULL) {
		printf("active table %s has no dot tiles: results checked, not the way\n", act->name);
		act = NULL;
	}
	tu_rng r;
	tu_rng_init(&r, seed);
	for (int d = 0; d < 2; d++) {
		const unsigned dt = d == 0 ? GK_DTYPE_F32 : GK_DTYPE_F64;
		int n5 = 0, nall = 0;
		test_api(dt, act, &n5, &nall, &r);
		printf("api %s: %d products, %d of them way 5 by the rule (the dot tiles' bits)\n",
		       NAME(dt), nall, n5);
		if (act != NULL)
			TU_CHECK(n5 > 0, "api %s: no product went way 5", NAME(dt));
		test_threads(dt, act, &r);
		test_off(dt, act, &r);
	}
	return tu_finish("test_gemm_dot_api");
}
