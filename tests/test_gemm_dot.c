/*
 * test_gemm_dot.c - the dot tiles (kernel_api.h: gk_gemm_d_*_fn and
 * gk_pack_dt_*_fn) of the AVX2 and AVX-512 tables, in isolation
 * (test_gemm_dot_api.c tests way 5 of the driver, which uses them):
 *
 *  - every tile of 1..19 rows and 1..gemm_d_*_nr columns, k from 1 to 257,
 *    alpha and beta 1, 0 and others, beta = 0 over NaN; elementwise against
 *    a long double sum; A's and Bt's rows followed by NaN at k (the last
 *    one by an unreadable page), so that a read at or past k shows; nothing
 *    outside the tile written; calls alternately with and without the
 *    fetches of A ahead; and with A's and Bt's rows off a vector boundary
 *    (the tiles' off, read in aligned vectors), the bits of off = 0;
 *  - an element's bits independent of the tile: one call, a call per
 *    column, a call per row and random pieces give the same bits;
 *  - with terms in one lane of the vector only, exactly that lane's sum
 *    in order of l, times alpha, plus beta C by one multiply-add;
 *  - pack_dt: Bt(j, l) = B(l, j) exactly, zero from k to the next vector,
 *    nothing written past n kp elements.
 * Inputs are fresh random numbers in [-1, 1] (GK_TEST_SEED to repeat).
 */
#include "test_gemm_dot_util.h"

/* ------------------------------------------------------------------------ */
/* 1. The kernel against the reference                                      */
/* ------------------------------------------------------------------------ */

/* rows rows of k elements, rs apart, NaN from k to rs, the last one followed
 * by pad NaNs and an unreadable page, and lead NaNs before the first: pad
 * such that the first row starts lead elements past a vector boundary (vl
 * elements) where lead > 0. Returns the first row. */
static void *rows_buf(unsigned dt, int64_t rows, int64_t k, int64_t rs, int64_t lead, int64_t vl,
                      gbuf *g, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const int64_t body = (rows - 1) * rs + k, pad = lead > 0 ? ((-(body + lead)) % vl + vl) % vl : 0;
	char *x = guarded((size_t)(lead + body + pad) * es, g);
	tu_fill(dt, x, (size_t)(lead + body + pad), r);
	for (int64_t e = 0; e < lead; e++)
		tu_setv(dt, x, e, NAN);
	x += lead * es;
	for (int64_t i = 0; i + 1 < rows; i++)
		for (int64_t l = k; l < rs; l++)
			tu_setv(dt, x, i * rs + l, NAN);
	for (int64_t e = 0; e < pad; e++)
		tu_setv(dt, x, body + e, NAN);
	return x;
}

/* One call on an mv x nv tile of a C buffer with guard rows and columns;
 * A's and Bt's rows NaN from k to their stride, the last row of each ending
 * at an unreadable page (but for pad NaNs). With off > 0, A's and Bt's rows
 * start off elements past a vector boundary, their strides whole vectors,
 * NaN before the first: the call with off gives the bits of the call
 * without it. */
static void dkr_case(const gk_kernels *t, unsigned dt, int64_t mv, int64_t nv, int64_t k,
                     double alpha, double beta, int64_t off, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const int64_t vl = t->gemm_d_align / (int64_t)es;
	int64_t rs_a = k + 1 + (int64_t)(tu_next(r) % 5);
	int64_t rs_bt = k + 1 + (int64_t)(tu_next(r) % 5);
	if (off > 0) {
		rs_a = (rs_a + vl - 1) / vl * vl;
		rs_bt = (rs_bt + vl - 1) / vl * vl;
	}
	gbuf ga, gb;
	void *a = rows_buf(dt, mv, k, rs_a, off, vl, &ga, r);
	void *bt = rows_buf(dt, nv, k, rs_bt, off, vl, &gb, r);
	const int64_t rs_c = nv + 3 + (int64_t)(tu_next(r) % 4), cz = 2 * rs_c + 2;
	const int64_t lc = (mv + 4) * rs_c;
	void *c0;
	void *c = tu_tile_c(dt, mv, nv, rs_c, cz, lc, beta, &c0, r);
	dkr(t, dt, mv, nv, k, alpha, a, rs_a, bt, rs_bt, beta, (char *)c + cz * es, rs_c, off);
	int outside;
	const int bad = tu_tile_check(dt, mv, nv, k, a, rs_a, 1, bt, 1, rs_bt, alpha, beta, c, c0, lc,
	                              cz, rs_c, &outside);
	TU_CHECK(bad == 0 && outside == 0,
	         "%s gemm_d_%s %lldx%lld k=%lld rs_a=%lld rs_bt=%lld off=%lld alpha=%g beta=%g: %d "
	         "elements off, %d written outside the tile", t->name, NAME(dt), (long long)mv,
	         (long long)nv, (long long)k, (long long)rs_a, (long long)rs_bt, (long long)off, alpha,
	         beta, bad, outside);
	if (off > 0) {
		void *c1 = tu_xmalloc((size_t)lc * es);
		memcpy(c1, c0, (size_t)lc * es);
		dkr(t, dt, mv, nv, k, alpha, a, rs_a, bt, rs_bt, beta, (char *)c1 + cz * es, rs_c, 0);
		TU_CHECK(memcmp(c, c1, (size_t)lc * es) == 0,
		         "%s gemm_d_%s %lldx%lld k=%lld alpha=%g beta=%g: off=%lld and off=0 give "
		         "different bits", t->name, NAME(dt), (long long)mv, (long long)nv, (long long)k,
		         alpha, beta, (long long)off);
		free(c1);
	}
	guarded_free(&ga);
	guarded_free(&gb);
	free(c);
	free(c0);
}

/* ------------------------------------------------------------------------ */
/* 2. The bits of an element do not depend on its tile                     */
/* ------------------------------------------------------------------------ */

static void dkr_bits(const gk_kernels *t, unsigned dt, int64_t mv, int64_t nv, int64_t k,
                     double alpha, double beta, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const int64_t rs_a = k + (int64_t)(tu_next(r) % 4), rs_bt = k + (int64_t)(tu_next(r) % 4);
	const size_t la = (size_t)(mv * rs_a), lb = (size_t)(nv * rs_bt), lc = (size_t)(mv * nv);
	void *a = tu_xmalloc(la * es), *bt = tu_xmalloc(lb * es);
	char *c[4];
	tu_fill(dt, a, la, r);
	tu_fill(dt, bt, lb, r);
	for (int v = 0; v < 4; v++)
		c[v] = tu_xmalloc(lc * es);
	tu_fill(dt, c[0], lc, r);
	for (int v = 1; v < 4; v++)
		memcpy(c[v], c[0], lc * es);
	const char *ac = a, *bc = bt;
	/* One call; a call per column; a call per row; random pieces. */
	dkr(t, dt, mv, nv, k, alpha, a, rs_a, bt, rs_bt, beta, c[0], nv, 0);
	for (int64_t j = 0; j < nv; j++)
		dkr(t, dt, mv, 1, k, alpha, a, rs_a, bc + j * rs_bt * es, rs_bt, beta, c[1] + j * es, nv,
		    0);
	for (int64_t i = 0; i < mv; i++)
		dkr(t, dt, 1, nv, k, alpha, ac + i * rs_a * es, rs_a, bt, rs_bt, beta,
		    c[2] + i * nv * es, nv, 0);
	for (int64_t i = 0, h; i < mv; i += h) {
		h = 1 + (int64_t)(tu_next(r) % (uint64_t)(mv - i));
		for (int64_t j = 0, w; j < nv; j += w) {
			w = 1 + (int64_t)(tu_next(r) % (uint64_t)(nv - j));
			dkr(t, dt, h, w, k, alpha, ac + i * rs_a * es, rs_a, bc + j * rs_bt * es, rs_bt,
			    beta, c[3] + (i * nv + j) * es, nv, 0);
		}
	}
	static const char *const how[] = {"", "a call per column", "a call per row", "random pieces"};
	for (int v = 1; v < 4; v++)
		TU_CHECK(memcmp(c[0], c[v], lc * es) == 0,
		         "%s gemm_d_%s %lldx%lld k=%lld alpha=%g beta=%g: one call and %s give "
		         "different bits", t->name, NAME(dt), (long long)mv, (long long)nv, (long long)k,
		         alpha, beta, how[v]);
	free(a);
	free(bt);
	for (int v = 0; v < 4; v++)
		free(c[v]);
}


/* Lane q of w: the sum of a[l] b[l] over l = q modulo w in order of l, by
 * multiply-adds (fused) or products then adds, times alpha (not when 1),
 * plus beta c0 by one multiply-add (not when beta is 0), in type T. */
#define LANE_REF(T, FMA)                                                                     \
	static T lane_##T(const T *a, const T *b, int64_t q, int64_t w, int64_t k, int fused,    \
	                  double alpha, double beta, T c0)                                   \
	{                                                                                    \
		T s = 0;                                                                     \
		for (int64_t l = q; l < k; l += w) {                                          \
			volatile T pr = a[l] * b[l];                                         \
			s = fused ? FMA(a[l], b[l], s) : s + pr;                             \
		}                                                                            \
		if (alpha != 1.0)                                                            \
			s *= (T)alpha;                                                       \
		if (beta != 0.0)                                                             \
			s = FMA((T)beta, c0, s);                                             \
		return s;                                                                    \
	}
typedef float f32;
typedef double f64;
LANE_REF(f32, fmaf)
LANE_REF(f64, fma)

/* The lanes: with A's rows zero but at l = q modulo the vector width, the
 * tree adds zeros to one lane, so an element is that lane's sum exactly:
 * its terms in order of l from zero (each a multiply-add, or a product
 * rounded then added: the contract names neither), times alpha unless it
 * is 1, plus beta C by one multiply-add unless beta is 0. W is the width of
 * the AVX-512 table's vectors: 16 floats, 8 doubles. */
static void dkr_lane(const gk_kernels *t, unsigned dt, int64_t mv, int64_t nv, int64_t k,
                     double alpha, double beta, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const int64_t w = dt == GK_DTYPE_F32 ? 16 : 8, q = (int64_t)(tu_next(r) % (uint64_t)w);
	const size_t la = (size_t)(mv * k), lb = (size_t)(nv * k), lc = (size_t)(mv * nv);
	void *a = tu_xmalloc(la * es), *bt = tu_xmalloc(lb * es), *c = tu_xmalloc(lc * es);
	void *c0 = tu_xmalloc(lc * es);
	tu_fill(dt, a, la, r);
	tu_fill(dt, bt, lb, r);
	tu_fill(dt, c0, lc, r);
	for (int64_t i = 0; i < mv; i++)
		for (int64_t l = 0; l < k; l++)
			if (l % w != q)
				tu_setv(dt, a, i * k + l, 0.0);
	memcpy(c, c0, lc * es);
	dkr(t, dt, mv, nv, k, alpha, a, k, bt, k, beta, c, nv, 0);
	int bad = 0;
	for (int64_t i = 0; i < mv; i++)
		for (int64_t j = 0; j < nv; j++) {
			const int64_t x = i * nv + j;
			const double got = tu_getv(dt, c, x);
			int ok = 0;
			for (int fused = 0; fused < 2 && !ok; fused++) {
				const double e =
					dt == GK_DTYPE_F32
						? lane_f32((const float *)a + i * k, (const float *)bt + j * k, q, w, k,
						           fused, alpha, beta, ((const float *)c0)[x])
						: lane_f64((const double *)a + i * k, (const double *)bt + j * k, q, w, k,
						           fused, alpha, beta, ((const double *)c0)[x]);
				ok = got == e;
			}
			bad += !ok;
		}
	TU_CHECK(bad == 0,
	         "%s gemm_d_%s %lldx%lld k=%lld alpha=%g beta=%g, terms in lane %lld only: %d "
	         "elements not that lane's sum in order of l", t->name, NAME(dt), (long long)mv,
	         (long long)nv, (long long)k, alpha, beta, (long long)q, bad);
	free(a);
	free(bt);
	free(c);
	free(c0);
}

/* ------------------------------------------------------------------------ */
/* 3. pack_dt                                                               */
/* ------------------------------------------------------------------------ */

/* pack_dt of k x n of B, its rows rs_b apart and NaN past n: Bt(j, l) is
 * B(l, j) bit for bit for l < k; zero from k to the next multiple of the
 * vector width (64 bytes with AVX-512, 32 with AVX2: a pack writes its last
 * block of k whole); from there to kp zero or untouched (the contract: "may
 * be written, zero"); nothing written past n kp elements. */
static void pack_case(const gk_kernels *t, unsigned dt, int64_t n, int64_t k, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const int64_t vw = (strcmp(t->name, "avx512") == 0 ? 64 : 32) / (int64_t)es;
	const int64_t rs_b = n + (int64_t)(tu_next(r) % 5);
	const int64_t kp = (k + GK_DT_ALIGN - 1) / GK_DT_ALIGN * GK_DT_ALIGN;
	const int64_t kv = (k + vw - 1) / vw * vw, guard = 64;
	const size_t lb = (size_t)((k - 1) * rs_b + n), lt = (size_t)(n * kp + guard);
	void *b = tu_xmalloc(lb * es), *bt = tu_xmalloc(lt * es), *bt0 = tu_xmalloc(lt * es);
	tu_fill(dt, b, lb, r);
	for (int64_t l = 0; l + 1 < k; l++)
		for (int64_t j = n; j < rs_b; j++)
			tu_setv(dt, b, l * rs_b + j, NAN);
	poison(dt, bt0, lt);
	memcpy(bt, bt0, lt * es);
	if (dt == GK_DTYPE_F32)
		t->pack_dt_f32(k, n, b, rs_b, bt, kp);
	else
		t->pack_dt_f64(k, n, b, rs_b, bt, kp);
	int wrong = 0, nonzero = 0, past = 0;
	const char *bb = b, *tb = bt, *tb0 = bt0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t l = 0; l < kp; l++) {
			const int64_t x = j * kp + l;
			if (l < k)
				wrong += memcmp(tb + x * es, bb + (l * rs_b + j) * es, es) != 0;
			else if (l < kv)
				nonzero += tu_getv(dt, bt, x) != 0.0;
			else /* may be written, zero */
				past += tu_getv(dt, bt, x) != 0.0 && memcmp(tb + x * es, tb0 + x * es, es) != 0;
		}
	const int guard_ok = memcmp(tb + n * kp * es, tb0 + n * kp * es, (size_t)guard * es) == 0;
	TU_CHECK(wrong == 0 && nonzero == 0 && past == 0 && guard_ok,
	         "%s pack_dt_%s k=%lld n=%lld rs_b=%lld kp=%lld: %d elements not B's, %d not zero "
	         "up to %lld, %d neither zero nor untouched up to kp, guard %s", t->name, NAME(dt),
	         (long long)k, (long long)n, (long long)rs_b, (long long)kp, wrong, nonzero,
	         (long long)kv, past, guard_ok ? "intact" : "written");
	free(b);
	free(bt);
	free(bt0);
}

static void test_kernels(const gk_kernels *t, uint64_t seed)
{
	static const int64_t ks[] = {1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 64, 100, 257};
	const int nk = (int)(sizeof ks / sizeof ks[0]);
	tu_rng r;
	tu_rng_init(&r, seed + 1);
	printf("%s: dot tiles up to %dx%d; least depth by width of C, f32:", t->name,
	       t->gemm_d_f32_mr, t->gemm_d_f32_nr);
	for (int n = 1; n <= GK_GEMM_D_COLS; n++)
		printf(" %d", t->gemm_d_f32_min_k[n]);
	printf(", f64:");
	for (int n = 1; n <= GK_GEMM_D_COLS; n++)
		printf(" %d", t->gemm_d_f64_min_k[n]);
	printf("\n");
	for (int d = 0; d < 2; d++) {
		const unsigned dt = d == 0 ? GK_DTYPE_F32 : GK_DTYPE_F64;
		int c = 0;
		for (int64_t mv = 1; mv <= 19; mv++)
			for (int64_t nv = 1; nv <= dnr(t, dt); nv++)
				for (int ki = 0; ki < nk; ki++, c++) {
					for (int q = 0; q < 4; q++)
						dkr_case(t, dt, mv, nv, ks[ki], ab[q][0], ab[q][1], 0, &r);
					/* A and Bt off a vector boundary, off from 1 to the
					 * vector's lanes less one. */
					const int64_t vl = t->gemm_d_align / (int64_t)tu_esize(dt);
					dkr_case(t, dt, mv, nv, ks[ki], ab[(c + 2) % 4][0], ab[(c + 2) % 4][1],
					         1 + (int64_t)(tu_next(&r) % (uint64_t)(vl - 1)), &r);
					dkr_bits(t, dt, mv, nv, ks[ki], ab[c % 4][0], ab[c % 4][1], &r);
					dkr_lane(t, dt, mv, nv, ks[ki], ab[(c + 1) % 4][0], ab[(c + 1) % 4][1],
					         &r);
				}
		static const int64_t pks[] = {1, 3, 15, 16, 17, 40, 129};
		for (int64_t n = 1; n <= 9; n++)
			for (int ki = 0; ki < 7; ki++)
				pack_case(t, dt, n, pks[ki], &r);
	}
}


int main(void)
{
	static const char *const tables[] = {"avx2", "avx512"};
	const uint64_t seed = tu_seed();
	for (int i = 0; i < 2; i++) {
		const gk_kernels *t = gk_kernels_by_name(tables[i]);
		if (t == NULL)
			printf("%s: not supported by this CPU, skipped\n", tables[i]);
		else if (t->gemm_d_f32 == NULL || t->gemm_d_f64 == NULL)
			printf("%s: no dot tiles in the table (GK_GEMM_DOT=0?), skipped\n", tables[i]);
		else
			test_kernels(t, seed + (uint64_t)i);
	}
	return tu_finish("test_gemm_dot");
}
