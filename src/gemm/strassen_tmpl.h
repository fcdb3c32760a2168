/*
 * strassen_tmpl.h - rung 10 of the CPU ladder, "cpu.strassen_seed": Strassen's
 * algorithm as seed section 2 builds it, written once for both precisions
 * (strassen_f32.c, strassen_f64.c name the type and the functions).
 *
 * One level splits A (m x k), B (k x n) and C (m x n) into quadrants and
 * forms seven products from ten sums (the seed's S1..S10, P1..P7):
 *
 *   S1 = B12 - B22   S2 = A11 + A12   S3 = A21 + A22   S4 = B21 - B11
 *   S5 = A11 + A22   S6 = B11 + B22   S7 = A12 - A22   S8 = B21 + B22
 *   S9 = A11 - A21   S10 = B11 + B12
 *   P1 = A11 S1   P2 = S2 B22   P3 = S3 B11   P4 = A22 S4
 *   P5 = S5 S6    P6 = S7 S8    P7 = S9 S10
 *   C11 = P5 + P4 - P2 + P6   C12 = P1 + P2
 *   C21 = P3 + P4             C22 = P5 + P1 - P3 - P7
 *
 * (The seed's text prints P4 = A22 S2; the product that makes C11 and C21
 * come out right is A22 S4.) As in the seed, one product is formed at a time
 * and added into C at once, so a level needs three temporaries: a sum of
 * blocks of A (m/2 x k/2), one of B (k/2 x n/2) and a product (m/2 x n/2).
 * P6 and P7 each reach only one quadrant and are accumulated into it
 * directly. All levels share one workspace allocated before the first
 * (section 2.2): a level's three temporaries, then the next level's.
 *
 * Sizes: a level recurses while min(m, n, k) >= 2 * cutoff, so that every
 * product it forms is at least cutoff on each side; below, the blocked
 * driver (cpu.blocked) multiplies. The seed stopped at 4096 or 8192, tuned
 * for its machine; the default here, GK_STRASSEN_CUTOFF_DEFAULT = 512, lets
 * the recursion be tested at moderate sizes, and GK_STRASSEN_CUTOFF in the
 * environment changes it (src/gemm/strassen_cutoff.c). Odd sizes are peeled
 * at each level (dynamic peeling): Strassen multiplies the even leading part
 * and the blocked driver adds the last step of k as a rank-1 update and
 * computes the last column and the last row of C in full.
 *
 * alpha and beta: C is scaled by beta once at the top of a level (beta = 0
 * writes zeros, reading nothing), then every product carries alpha and is
 * added in. Inner levels see beta = 0 (a fresh product) or beta = 1.
 *
 * Accuracy. Strassen's error bound is normwise only, and weaker than the
 * classical one: Higham, "Accuracy and Stability of Numerical Algorithms",
 * 2nd ed., section 23.2.2, bounds it in the max norm by
 *   [(n/n0)^log2(12) (n0^2 + 5 n0) - 5n] u ||A|| ||B||
 * for n = 2^L n0. In the Frobenius norm used by the tests: with a product of
 * inner size k/2 within gamma ||X||_F ||Y||_F, each of the seven products of
 * a level has factors of norm at most ||A||_F or 2 ||A||_F (and of B), and
 * the products feed the quadrants with weights 12, 4, 4 and 12 (C11: P5 and
 * P6 with 2 x 2, P4 and P2 with 1 x 2), so one level turns gamma into at
 * most sqrt(12^2 + 4^2 + 4^2 + 12^2) (gamma + 2u + 4u) < 18 (gamma + 6u):
 * 2u for rounding the sums Si, 4u for at most four additions per quadrant.
 * From the classical (k/2^L + 2) u at the bottom, L levels give
 *   ||C - fl(C)||_F <= 18^L (k / 2^L + 9) u (|alpha| ||A||_F ||B||_F + |beta| ||C||_F)
 * to first order: for large k about 9 times the classical bound for one
 * level and 81 for two. tests/test_ladder.c checks this bound;
 * gk_strassen_levels() tells L.
 */

/* Below this many elements a sum or an update of C runs on one thread. */
#define GK_STRASSEN_PAR_MIN ((int64_t)1 << 16)

/* Z (h x w, row stride ldz) := X + s * Y, s = 1 or -1, X and Y two blocks of
 * one matrix (element (i, j) at x[i * rs + j * cs]). */
static void GK_FN_ADD(int64_t h, int64_t w, const GK_T *x, const GK_T *y, int64_t rs, int64_t cs,
                      GK_T s, GK_T *z, int64_t ldz, int threads)
{
#pragma omp parallel for num_threads(threads) if (threads > 1 && h * w >= GK_STRASSEN_PAR_MIN)
	for (int64_t i = 0; i < h; i++) {
		const GK_T *xi = x + i * rs, *yi = y + i * rs;
		GK_T *zi = z + i * ldz;
		if (cs == 1)
			for (int64_t j = 0; j < w; j++)
				zi[j] = xi[j] + s * yi[j];
		else
			for (int64_t j = 0; j < w; j++)
				zi[j] = xi[j * cs] + s * yi[j * cs];
	}
}

/* C1 += s1 * P and C2 += s2 * P (h x w, s = 1 or -1), reading P once. */
static void GK_FN_ACC2(int64_t h, int64_t w, const GK_T *pm, int64_t ldp, GK_T s1, GK_T *c1,
                       GK_T s2, GK_T *c2, int64_t rs_c, int threads)
{
#pragma omp parallel for num_threads(threads) if (threads > 1 && h * w >= GK_STRASSEN_PAR_MIN)
	for (int64_t i = 0; i < h; i++) {
		const GK_T *pi = pm + i * ldp;
		GK_T *c1i = c1 + i * rs_c, *c2i = c2 + i * rs_c;
		for (int64_t j = 0; j < w; j++) {
			c1i[j] += s1 * pi[j];
			c2i[j] += s2 * pi[j];
		}
	}
}

/* Workspace (elements) of the recursion on an m x n x k product. */
static int64_t GK_FN_WS(int64_t m, int64_t n, int64_t k, int64_t cutoff)
{
	int64_t len = 0;
	while (m >= 2 * cutoff && n >= 2 * cutoff && k >= 2 * cutoff) {
		m /= 2;
		n /= 2;
		k /= 2;
		len += m * k + k * n + m * n;
	}
	return len;
}

static gk_status GK_FN_REC(const GK_ARGS *p, GK_T *ws, int64_t cutoff);

/* The product q := alpha * X * Y + beta * Z of one level, by recursion. */
static gk_status GK_FN_MUL(const GK_ARGS *p, int64_t m, int64_t n, int64_t k, GK_T alpha,
                           const GK_T *x, int64_t rs_x, int64_t cs_x, const GK_T *y,
                           int64_t rs_y, int64_t cs_y, GK_T beta, GK_T *z, int64_t rs_z,
                           GK_T *ws, int64_t cutoff)
{
	GK_ARGS q = *p;
	q.m = m; q.n = n; q.k = k;
	q.alpha = alpha; q.beta = beta;
	q.a = x; q.rs_a = rs_x; q.cs_a = cs_x;
	q.b = y; q.rs_b = rs_y; q.cs_b = cs_y;
	q.c = z; q.rs_c = rs_z;
	return GK_FN_REC(&q, ws, cutoff);
}

/* One level on even m, n, k: the seven products into C. */
static gk_status GK_FN_LEVEL(const GK_ARGS *p, GK_T *ws, int64_t cutoff)
{
	const int64_t hm = p->m / 2, hn = p->n / 2, hk = p->k / 2;
	const int64_t ra = p->rs_a, ca = p->cs_a, rb = p->rs_b, cb = p->cs_b, rc = p->rs_c;
	const int th = p->threads;
	const GK_T *a11 = p->a, *a12 = a11 + hk * ca, *a21 = a11 + hm * ra, *a22 = a21 + hk * ca;
	const GK_T *b11 = p->b, *b12 = b11 + hn * cb, *b21 = b11 + hk * rb, *b22 = b21 + hn * cb;
	GK_T *c11 = p->c, *c12 = c11 + hn, *c21 = c11 + hm * rc, *c22 = c21 + hn;
	/* The temporaries, dense: sa is hm x hk, sb hk x hn, pm hm x hn. */
	GK_T *sa = ws, *sb = sa + hm * hk, *pm = sb + hk * hn, *next = pm + hm * hn;
	const GK_T alpha = p->alpha;

	GK_FN_SCALE(p->m, p->n, p->beta, p->c, rc);

	/* P1 = A11 S1 -> C12, C22 */
	GK_FN_ADD(hk, hn, b12, b22, rb, cb, -1, sb, hn, th);
	GK_FORWARD(GK_FN_MUL(p, hm, hn, hk, alpha, a11, ra, ca, sb, hn, 1, 0, pm, hn, next, cutoff));
	GK_FN_ACC2(hm, hn, pm, hn, 1, c12, 1, c22, rc, th);
	/* P2 = S2 B22 -> -C11, C12 */
	GK_FN_ADD(hm, hk, a11, a12, ra, ca, 1, sa, hk, th);
	GK_FORWARD(GK_FN_MUL(p, hm, hn, hk, alpha, sa, hk, 1, b22, rb, cb, 0, pm, hn, next, cutoff));
	GK_FN_ACC2(hm, hn, pm, hn, -1, c11, 1, c12, rc, th);
	/* P3 = S3 B11 -> C21, -C22 */
	GK_FN_ADD(hm, hk, a21, a22, ra, ca, 1, sa, hk, th);
	GK_FORWARD(GK_FN_MUL(p, hm, hn, hk, alpha, sa, hk, 1, b11, rb, cb, 0, pm, hn, next, cutoff));
	GK_FN_ACC2(hm, hn, pm, hn, 1, c21, -1, c22, rc, th);
	/* P4 = A22 S4 -> C11, C21 */
	GK_FN_ADD(hk, hn, b21, b11, rb, cb, -1, sb, hn, th);
	GK_FORWARD(GK_FN_MUL(p, hm, hn, hk, alpha, a22, ra, ca, sb, hn, 1, 0, pm, hn, next, cutoff));
	GK_FN_ACC2(hm, hn, pm, hn, 1, c11, 1, c21, rc, th);
	/* P5 = S5 S6 -> C11, C22 */
	GK_FN_ADD(hm, hk, a11, a22, ra, ca, 1, sa, hk, th);
	GK_FN_ADD(hk, hn, b11, b22, rb, cb, 1, sb, hn, th);
	GK_FORWARD(GK_FN_MUL(p, hm, hn, hk, alpha, sa, hk, 1, sb, hn, 1, 0, pm, hn, next, cutoff));
	GK_FN_ACC2(hm, hn, pm, hn, 1, c11, 1, c22, rc, th);
	/* P6 = S7 S8 -> C11, added in directly */
	GK_FN_ADD(hm, hk, a12, a22, ra, ca, -1, sa, hk, th);
	GK_FN_ADD(hk, hn, b21, b22, rb, cb, 1, sb, hn, th);
	GK_FORWARD(GK_FN_MUL(p, hm, hn, hk, alpha, sa, hk, 1, sb, hn, 1, 1, c11, rc, next, cutoff));
	/* P7 = S9 S10 -> -C22, added in directly */
	GK_FN_ADD(hm, hk, a11, a21, ra, ca, -1, sa, hk, th);
	GK_FN_ADD(hk, hn, b11, b12, rb, cb, 1, sb, hn, th);
	GK_FORWARD(GK_FN_MUL(p, hm, hn, hk, -alpha, sa, hk, 1, sb, hn, 1, 1, c22, rc, next, cutoff));
	return GK_OK;
}

/* C := alpha A B + beta C for the problem p: Strassen on the even part while
 * it is large enough, the blocked driver for the rest. */
static gk_status GK_FN_REC(const GK_ARGS *p, GK_T *ws, int64_t cutoff)
{
	if (p->m < 2 * cutoff || p->n < 2 * cutoff || p->k < 2 * cutoff)
		return GK_FN_BLOCKED(p);
	const int64_t m2 = p->m & ~(int64_t)1, n2 = p->n & ~(int64_t)1, k2 = p->k & ~(int64_t)1;
	GK_ARGS q = *p;
	q.m = m2; q.n = n2; q.k = k2;
	GK_FORWARD(GK_FN_LEVEL(&q, ws, cutoff));
	if (k2 < p->k) {
		/* C(0:m2, 0:n2) += alpha A(0:m2, k-1) B(k-1, 0:n2) */
		q.k = 1;
		q.a = p->a + k2 * p->cs_a;
		q.b = p->b + k2 * p->rs_b;
		q.beta = 1;
		GK_FORWARD(GK_FN_BLOCKED(&q));
	}
	if (n2 < p->n) {
		/* The last column of C, every row, all of k. */
		q = *p;
		q.n = 1;
		q.b = p->b + n2 * p->cs_b;
		q.c = p->c + n2;
		GK_FORWARD(GK_FN_BLOCKED(&q));
	}
	if (m2 < p->m) {
		/* The last row of C but its last element, all of k. */
		q = *p;
		q.m = 1;
		q.n = n2;
		q.a = p->a + m2 * p->rs_a;
		q.c = p->c + m2 * p->rs_c;
		GK_FORWARD(GK_FN_BLOCKED(&q));
	}
	return GK_OK;
}

gk_status GK_FN_STRASSEN(const GK_ARGS *p)
{
	const int64_t cutoff = gk_strassen_cutoff();
	const int64_t len = GK_FN_WS(p->m, p->n, p->k, cutoff);
	if (len == 0)
		return GK_FN_BLOCKED(p);
	GK_T *ws = gk_aligned_alloc((size_t)len, sizeof(GK_T));
	if (ws == NULL)
		return gk_set_error(GK_ERR_NO_MEMORY,
		                    "cpu.strassen_seed: no memory for the workspace (%lld elements)",
		                    (long long)len);
	gk_status st = GK_FN_REC(p, ws, cutoff);
	gk_aligned_free(ws);
	return st;
}
