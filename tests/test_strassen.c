/*
 * test_strassen.c - the production Strassen, cpu.strassen, where it really
 * recurses, and its error bound.
 *
 * Its default thresholds are far above the sizes a test can afford, so the
 * cases lower them through GK_STRASSEN_MIN ("t1,t2": one level from
 * min(m, n, k) >= t1, two from t2) and check with gk_strassen_abc_levels
 * that the intended number of levels runs. Cases:
 *  - the parsing of GK_STRASSEN_MIN, and the levels it gives;
 *  - one and two levels on even sizes, odd sizes (every one of m, n, k
 *    peeled, by 1 to 3), rectangular shapes, both layouts, transposed
 *    operands, alpha and beta in {1, -0.5} x {0, 1, -0.5} (C poisoned with
 *    NaN when beta = 0, so every element must be written), leading
 *    dimensions padded, guards around C, A and B unchanged; 1, 2 and 3
 *    threads; every call through gk_sgemm_ex / gk_dgemm_ex with a context
 *    naming "cpu.strassen";
 *  - that recursion happened: the result differs in rounding from
 *    cpu.blocked's on the same inputs (a silent fallback would be bitwise
 *    equal), and is bitwise cpu.blocked's where no level runs;
 *  - gk_algo_auto: cpu.strassen only with GK_FLAG_ALLOW_STRASSEN and every
 *    side past the threshold; one product through "auto" with the flag.
 *
 * The bound is the one documented in src/gemm/strassen_abc_tmpl.h and
 * docs/ARCHITECTURE.md, to first order in u (the second-order terms are
 * below 1e-4 of it at these sizes):
 *   ||C - fl(C)||_F <= f(L) (k / 2^L + c_L) u (|alpha| ||A||_F ||B||_F + |beta| ||C||_F),
 *   f(L) = 2 (g^L + 2^L), g = sqrt(64 + 32 sqrt 2), c_1 = 4, c_2 = 12,
 * in the normwise error of test_util. The largest error / bound ratio seen,
 * and the same error against the classical bound of test_gemm, are printed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit.h"
#include "gk_internal.h"
#include "test_util.h"

#define GUARD 8 /* elements before and after C that must stay unchanged */

static void *xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	if (p == NULL) {
		fprintf(stderr, "test_strassen: out of memory (%zu bytes)\n", bytes);
		exit(2);
	}
	return p;
}

static double unit_roundoff(unsigned dt)
{
	return dt == GK_DTYPE_F32 ? 0x1p-24 : 0x1p-53;
}

static const char *dt_name(unsigned dt)
{
	return dt == GK_DTYPE_F32 ? "f32" : "f64";
}

/* The documented bound for L = 1 or 2 levels. */
static double strassen_bound(unsigned dt, int64_t k, int levels)
{
	const double g = sqrt(64.0 + 32.0 * sqrt(2.0)), p = ldexp(1.0, levels);
	const double c = levels == 1 ? 4.0 : 12.0;
	return 2.0 * (pow(g, levels) + p) * ((double)k / p + c) * unit_roundoff(dt);
}

static void set_min(const char *v)
{
	if (v == NULL)
		unsetenv("GK_STRASSEN_MIN");
	else
		setenv("GK_STRASSEN_MIN", v, 1);
}

/* ------------------------------------------------------------------------ */
/* GK_STRASSEN_MIN                                                           */
/* ------------------------------------------------------------------------ */

static void levels_parsing(void)
{
	set_min(NULL);
	const int def = gk_strassen_abc_levels(GK_DTYPE_F32, 300, 300, 300);
	TU_CHECK(def == 0, "default thresholds give %d levels at 300", def);
	set_min("100");
	TU_CHECK(gk_strassen_abc_levels(GK_DTYPE_F32, 100, 100, 100) == 1 &&
	         gk_strassen_abc_levels(GK_DTYPE_F64, 5000, 5000, 5000) == 1 &&
	         gk_strassen_abc_levels(GK_DTYPE_F32, 99, 1000, 1000) == 0 &&
	         gk_strassen_abc_levels(GK_DTYPE_F64, 1000, 1000, 99) == 0,
	         "GK_STRASSEN_MIN=100: wrong levels");
	set_min("100,200");
	TU_CHECK(gk_strassen_abc_levels(GK_DTYPE_F32, 199, 300, 300) == 1 &&
	         gk_strassen_abc_levels(GK_DTYPE_F64, 200, 300, 200) == 2,
	         "GK_STRASSEN_MIN=100,200: wrong levels");
	/* Blocks of at least 8 on every side, whatever the thresholds. */
	set_min("1,1");
	TU_CHECK(gk_strassen_abc_levels(GK_DTYPE_F32, 32, 32, 32) == 2 &&
	         gk_strassen_abc_levels(GK_DTYPE_F32, 31, 40, 40) == 1 &&
	         gk_strassen_abc_levels(GK_DTYPE_F32, 40, 40, 15) == 0,
	         "GK_STRASSEN_MIN=1,1: wrong levels (%d %d %d)",
	         gk_strassen_abc_levels(GK_DTYPE_F32, 32, 32, 32), gk_strassen_abc_levels(GK_DTYPE_F32, 31, 40, 40),
	         gk_strassen_abc_levels(GK_DTYPE_F32, 40, 40, 15));
	/* Malformed: the defaults. */
	static const char bad[][8] = {"0", "-5", "12x", "x", "100,", "100,0", "100,50x", ","};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		set_min(bad[i]);
		TU_CHECK(gk_strassen_abc_levels(GK_DTYPE_F32, 300, 300, 300) == def,
		         "GK_STRASSEN_MIN=%s was not ignored", bad[i]);
	}
	set_min(NULL);
}

/* ------------------------------------------------------------------------ */
/* Products                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct {
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k;
	double alpha, beta;
} shape;

/* Operands of one product, with the padded leading dimensions. */
typedef struct {
	shape s;
	unsigned dt;
	size_t es, ea, eb, ec;
	int64_t lda, ldb, ldc;
	char *a, *b, *c0; /* c0: C before the call, GUARD elements each side */
} problem;

static void problem_make(problem *pb, unsigned dt, const shape *s, tu_rng *r)
{
	pb->s = *s;
	pb->dt = dt;
	pb->es = dt == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	const int ta = s->ta != GK_NO_TRANS, tb = s->tb != GK_NO_TRANS;
	const int row = s->layout == GK_ROW_MAJOR;
	const int64_t ra = ta ? s->k : s->m, ca = ta ? s->m : s->k;
	const int64_t rb = tb ? s->n : s->k, cb = tb ? s->k : s->n;
	pb->lda = (row ? ca : ra) + (int64_t)(tu_next(r) % 4);
	pb->ldb = (row ? cb : rb) + (int64_t)(tu_next(r) % 4);
	pb->ldc = (row ? s->n : s->m) + (int64_t)(tu_next(r) % 4);
	pb->ea = tu_extent(s->layout, ra, ca, pb->lda);
	pb->eb = tu_extent(s->layout, rb, cb, pb->ldb);
	pb->ec = tu_extent(s->layout, s->m, s->n, pb->ldc);
	pb->a = xmalloc(pb->ea * pb->es);
	pb->b = xmalloc(pb->eb * pb->es);
	pb->c0 = xmalloc((pb->ec + 2 * GUARD) * pb->es);
	char *c = pb->c0 + GUARD * pb->es;
	if (dt == GK_DTYPE_F32) {
		tu_fill_f32((float *)pb->a, pb->ea, r);
		tu_fill_f32((float *)pb->b, pb->eb, r);
		tu_fill_f32((float *)pb->c0, pb->ec + 2 * GUARD, r);
		if (s->beta == 0)
			tu_poison_f32((float *)c, pb->ec);
	} else {
		tu_fill_f64((double *)pb->a, pb->ea, r);
		tu_fill_f64((double *)pb->b, pb->eb, r);
		tu_fill_f64((double *)pb->c0, pb->ec + 2 * GUARD, r);
		if (s->beta == 0)
			tu_poison_f64((double *)c, pb->ec);
	}
}

static void problem_free(problem *pb)
{
	free(pb->a);
	free(pb->b);
	free(pb->c0);
}

/* Run the product with ctx (NULL: gk_sgemm / gk_dgemm) into a fresh copy of
 * C, returned (GUARD elements each side); checks the status and that A, B
 * and the guards are unchanged. */
static char *problem_run(const problem *pb, const gk_context *ctx, const char *desc)
{
	const shape *s = &pb->s;
	const size_t bytes = (pb->ec + 2 * GUARD) * pb->es;
	char *cbuf = xmalloc(bytes);
	memcpy(cbuf, pb->c0, bytes);
	char *a = xmalloc(pb->ea * pb->es), *b = xmalloc(pb->eb * pb->es);
	memcpy(a, pb->a, pb->ea * pb->es);
	memcpy(b, pb->b, pb->eb * pb->es);
	char *c = cbuf + GUARD * pb->es;
	gk_status st;
	if (pb->dt == GK_DTYPE_F32)
		st = ctx ? gk_sgemm_ex(ctx, s->layout, s->ta, s->tb, s->m, s->n, s->k, (float)s->alpha,
		                       (const float *)a, pb->lda, (const float *)b, pb->ldb,
		                       (float)s->beta, (float *)c, pb->ldc)
		         : gk_sgemm(s->layout, s->ta, s->tb, s->m, s->n, s->k, (float)s->alpha,
		                    (const float *)a, pb->lda, (const float *)b, pb->ldb,
		                    (float)s->beta, (float *)c, pb->ldc);
	else
		st = ctx ? gk_dgemm_ex(ctx, s->layout, s->ta, s->tb, s->m, s->n, s->k, s->alpha,
		                       (const double *)a, pb->lda, (const double *)b, pb->ldb, s->beta,
		                       (double *)c, pb->ldc)
		         : gk_dgemm(s->layout, s->ta, s->tb, s->m, s->n, s->k, s->alpha,
		                    (const double *)a, pb->lda, (const double *)b, pb->ldb, s->beta,
		                    (double *)c, pb->ldc);
	TU_CHECK(st == GK_OK, "%s: status %d: %s", desc, (int)st, gk_last_error());
	TU_CHECK(memcmp(a, pb->a, pb->ea * pb->es) == 0 && memcmp(b, pb->b, pb->eb * pb->es) == 0,
	         "%s: changed A or B", desc);
	TU_CHECK(memcmp(cbuf, pb->c0, GUARD * pb->es) == 0 &&
	         memcmp(c + pb->ec * pb->es, pb->c0 + (GUARD + pb->ec) * pb->es, GUARD * pb->es) == 0,
	         "%s: wrote outside the extent of C", desc);
	TU_CHECK(tu_padding_intact(pb->dt, s->layout, s->m, s->n, c, pb->c0 + GUARD * pb->es, pb->ldc),
	         "%s: changed the padding of C", desc);
	free(a);
	free(b);
	return cbuf;
}

/* The normwise error of a result of problem_run. */
static double problem_error(const problem *pb, const char *cbuf)
{
	const shape *s = &pb->s;
	long double *ref = xmalloc(sizeof(long double) * (size_t)s->m * (size_t)s->n);
	const char *c0 = pb->c0 + GUARD * pb->es, *c = cbuf + GUARD * pb->es;
	gkc_ref_gemm(pb->dt, s->layout, s->ta, s->tb, s->m, s->n, s->k, s->alpha, pb->a, pb->lda,
	             pb->b, pb->ldb, s->beta, c0, pb->ldc, NULL, s->m, ref);
	const double err = gkc_gemm_error(pb->dt, s->layout, s->ta, s->tb, s->m, s->n, s->k,
	                                  s->alpha, pb->a, pb->lda, pb->b, pb->ldb, s->beta, c0, c,
	                                  pb->ldc, NULL, s->m, ref);
	free(ref);
	return err;
}

static gk_context *make_ctx(const char *algo, int threads, unsigned flags)
{
	gk_context *ctx = NULL;
	gk_status st = gk_context_create(&ctx);
	if (st == GK_OK)
		st = gk_context_set_algo(ctx, algo);
	if (st == GK_OK && threads > 0)
		st = gk_context_set_threads(ctx, threads);
	if (st == GK_OK && flags)
		st = gk_context_set_flags(ctx, flags);
	TU_CHECK(st == GK_OK, "cannot make a context for %s: %s", algo, gk_last_error());
	if (st != GK_OK) {
		gk_context_destroy(ctx);
		return NULL;
	}
	return ctx;
}

static const double alphas[2] = {1.0, -0.5};
static const double betas[3] = {0.0, 1.0, -0.5};

static shape random_shape(int64_t m, int64_t n, int64_t k, tu_rng *r)
{
	shape s = {(tu_next(r) & 1) ? GK_COL_MAJOR : GK_ROW_MAJOR,
	           (tu_next(r) & 1) ? GK_TRANS : GK_NO_TRANS, (tu_next(r) & 1) ? GK_TRANS : GK_NO_TRANS,
	           m, n, k, alphas[tu_next(r) % 2], betas[tu_next(r) % 3]};
	return s;
}

typedef struct {
	const char *min; /* GK_STRASSEN_MIN */
	int levels;      /* what it must give */
	int64_t m, n, k;
	int threads;     /* 0: the default */
} strassen_case;

static struct {
	double worst[3], worst_classical[3];
	int cases[3];
} stats;

static void record(int levels, double err, double bound, unsigned dt, int64_t k)
{
	const double ratio = err / bound, classical = err / gkc_gemm_bound(dt, k, 2.0);
	if (ratio > stats.worst[levels])
		stats.worst[levels] = ratio;
	if (classical > stats.worst_classical[levels])
		stats.worst_classical[levels] = classical;
	stats.cases[levels]++;
}

static void products(tu_rng *r)
{
	static const strassen_case cases[] = {
		{"64", 1, 128, 128, 128, 1},      /* one level, even */
		{"64", 1, 131, 133, 135, 1},      /* one level, m, n, k odd */
		{"64", 1, 300, 301, 299, 2},      /* one level, n and k odd */
		{"64", 1, 97, 211, 149, 3},       /* rectangular, 3 threads */
		{"64,128", 2, 128, 128, 128, 1},  /* two levels, even */
		{"64,128", 2, 130, 130, 130, 0},  /* two levels, each side peeled by 2 */
		{"64,128", 2, 301, 302, 299, 2},  /* two levels, peeled by 1, 2 and 3 */
		{"40,90", 2, 97, 211, 149, 3},    /* rectangular, 3 threads */
		{"16,32", 2, 35, 33, 39, 1},      /* blocks of 8 */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const strassen_case *sc = &cases[i];
		set_min(sc->min);
		for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
			const int levels = gk_strassen_abc_levels(dt, sc->m, sc->n, sc->k);
			TU_CHECK(levels == sc->levels, "GK_STRASSEN_MIN=%s %lldx%lldx%lld: %d levels, "
			         "expected %d", sc->min, (long long)sc->m, (long long)sc->n,
			         (long long)sc->k, levels, sc->levels);
			gk_context *ctx = make_ctx("cpu.strassen", sc->threads, 0);
			if (ctx == NULL)
				continue;
			/* Every beta once per case and type, the rest at random. */
			for (int bi = 0; bi < 3; bi++) {
				shape s = random_shape(sc->m, sc->n, sc->k, r);
				s.beta = betas[bi];
				problem pb;
				problem_make(&pb, dt, &s, r);
				char desc[200];
				snprintf(desc, sizeof desc, "cpu.strassen L=%d threads=%d %s %s %c%c "
				         "m=%lld n=%lld k=%lld alpha=%g beta=%g", levels, sc->threads,
				         dt_name(dt), s.layout == GK_ROW_MAJOR ? "row" : "col",
				         s.ta == GK_NO_TRANS ? 'N' : 'T', s.tb == GK_NO_TRANS ? 'N' : 'T',
				         (long long)s.m, (long long)s.n, (long long)s.k, s.alpha, s.beta);
				char *c = problem_run(&pb, ctx, desc);
				const double err = problem_error(&pb, c);
				const double bound = strassen_bound(dt, s.k, levels);
				TU_CHECK(err <= bound, "%s: normwise error %.3g > bound %.3g", desc, err, bound);
				record(levels, err, bound, dt, s.k);
				free(c);
				problem_free(&pb);
			}
			gk_context_destroy(ctx);
		}
	}
	set_min(NULL);
}

/* Strassen rounds differently from the classical product: with a level
 * forced, some element must differ from cpu.blocked's; with none, every
 * element must be equal (cpu.strassen is then cpu.blocked). */
static void recursion_happens(tu_rng *r)
{
	gk_context *cs = make_ctx("cpu.strassen", 1, 0), *cb = make_ctx("cpu.blocked", 1, 0);
	if (cs == NULL || cb == NULL) {
		gk_context_destroy(cs);
		gk_context_destroy(cb);
		return;
	}
	static const char *const mins[] = {NULL, "64", "64,128"};
	for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1)
		for (int l = 0; l < 3; l++) {
			set_min(mins[l]);
			shape s = {GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 131, 130, 129, 1.0, 0.0};
			const int levels = gk_strassen_abc_levels(dt, s.m, s.n, s.k);
			problem pb;
			problem_make(&pb, dt, &s, r);
			char desc[96];
			snprintf(desc, sizeof desc, "recursion check %s L=%d", dt_name(dt), levels);
			char *c1 = problem_run(&pb, cs, desc), *c2 = problem_run(&pb, cb, desc);
			const int same = memcmp(c1, c2, (pb.ec + 2 * GUARD) * pb.es) == 0;
			TU_CHECK(levels == l, "%s: expected %d levels", desc, l);
			TU_CHECK(levels == 0 ? same : !same,
			         "%s: the result is %s cpu.blocked's", desc, same ? "bitwise" : "not");
			free(c1);
			free(c2);
			problem_free(&pb);
		}
	set_min(NULL);
	gk_context_destroy(cs);
	gk_context_destroy(cb);
}

/* ------------------------------------------------------------------------ */
/* auto                                                                      */
/* ------------------------------------------------------------------------ */

static int auto_is_strassen(unsigned dt, int64_t m, int64_t n, int64_t k, unsigned flags)
{
	const gk_algo *al = gk_algo_auto((int)dt, m, n, k, GK_BACKEND_CPU, flags, GK_PRECISION_STRICT);
	return al != NULL && strcmp(al->name, "cpu.strassen") == 0;
}

static void auto_choice(tu_rng *r)
{
	const unsigned f = GK_FLAG_ALLOW_STRASSEN;
	set_min(NULL);
	TU_CHECK(!auto_is_strassen(GK_DTYPE_F32, 1000, 1000, 1000, f) && !auto_is_strassen(GK_DTYPE_F64, 500, 500, 500, f),
	         "auto picks cpu.strassen below its default threshold");
	TU_CHECK(!auto_is_strassen(GK_DTYPE_F32, 100000, 100000, 100000, 0) &&
	         !auto_is_strassen(GK_DTYPE_F64, 100000, 100000, 100000, GK_FLAG_DETERMINISTIC),
	         "auto picks cpu.strassen without GK_FLAG_ALLOW_STRASSEN");
	for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
		const int64_t big = 1 << 20;
		TU_CHECK(auto_is_strassen(dt, big, big, big, f) ==
		         (gk_strassen_abc_levels(dt, big, big, big) > 0),
		         "auto and cpu.strassen disagree at %lld (%s)", (long long)big, dt_name(dt));
	}
	set_min("64");
	TU_CHECK(auto_is_strassen(GK_DTYPE_F32, 64, 200, 300, f) && auto_is_strassen(GK_DTYPE_F64, 300, 64, 200, f),
	         "GK_STRASSEN_MIN=64: auto does not pick cpu.strassen where every side is >= 64");
	TU_CHECK(!auto_is_strassen(GK_DTYPE_F32, 63, 1000, 1000, f) && !auto_is_strassen(GK_DTYPE_F32, 1000, 63, 1000, f) &&
	         !auto_is_strassen(GK_DTYPE_F64, 1000, 1000, 63, f),
	         "GK_STRASSEN_MIN=64: auto picks cpu.strassen with a side below 64");
	TU_CHECK(!auto_is_strassen(GK_DTYPE_F32, 500, 500, 500, 0), "auto picks cpu.strassen without the flag");

	/* One product through auto with the flag, in a context and checked
	 * against the one-level bound. */
	gk_context *ctx = make_ctx("auto", 0, f);
	if (ctx != NULL) {
		for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
			shape s = random_shape(150, 141, 133, r);
			problem pb;
			problem_make(&pb, dt, &s, r);
			char desc[96];
			snprintf(desc, sizeof desc, "auto with GK_FLAG_ALLOW_STRASSEN %s", dt_name(dt));
			char *c = problem_run(&pb, ctx, desc);
			const double err = problem_error(&pb, c);
			const double bound = strassen_bound(dt, s.k, 1);
			TU_CHECK(err <= bound, "%s: normwise error %.3g > bound %.3g", desc, err, bound);
			record(1, err, bound, dt, s.k);
			free(c);
			problem_free(&pb);
		}
		gk_context_destroy(ctx);
	}
	set_min(NULL);
}

int main(void)
{
	const uint64_t seed = tu_seed();
	tu_rng r;
	tu_rng_init(&r, seed);
	printf("kernel set: %s\n", gk_arch_name());
	levels_parsing();
	products(&r);
	recursion_happens(&r);
	auto_choice(&r);
	for (int l = 1; l <= 2; l++)
		printf("cpu.strassen L=%d: %2d products, max err/bound %.4f (bound f(L) (k/2^L + c_L) u), "
		       "max err / classical 2 (k + 2) u %.3f\n", l, stats.cases[l], stats.worst[l],
		       stats.worst_classical[l]);
	return tu_finish("test_strassen");
}
