/*
 * test_api.c - every invalid argument of every public function returns its
 * documented status, names the argument in gk_last_error(), and leaves C (and
 * every other buffer) exactly as it was; the arguments that are allowed to be
 * NULL or zero are accepted.
 *
 * Each GEMM case starts from a valid call (m = 3, n = 4, k = 5, so that the
 * three dimensions differ) and changes one argument; it runs through gk_sgemm,
 * gk_dgemm, gk_sgemm_ex and gk_dgemm_ex (with a context). Overflowing sizes are
 * passed with small buffers: the check must come before any access, so a
 * missed check shows as a crash (or a sanitizer report) or a changed buffer.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit.h"
#include "test_util.h"

#define BUF 4096 /* elements in each of A, B and C: more than any valid case needs */

static tu_rng rng;
static gk_context *cpu_ctx; /* a context with explicit choices, for the _ex calls */

/* Does msg name `word` as a whole word? */
static int names(const char *msg, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = msg; (p = strstr(p, word)) != NULL; p++) {
		int start = p == msg || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		int end = !(isalnum((unsigned char)p[wl]) || p[wl] == '_');
		if (start && end)
			return 1;
	}
	return 0;
}

typedef struct {
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k;
	double alpha, beta;
	int null_a, null_b, null_c;
	int64_t lda, ldb, ldc;
} call;

static int64_t need(gk_layout layout, int64_t rows, int64_t cols)
{
	int64_t v = layout == GK_ROW_MAJOR ? cols : rows;
	return v < 1 ? 1 : v;
}

/* A valid call of the given shape, with the smallest leading dimensions. */
static call valid(gk_layout layout, gk_trans ta, gk_trans tb, int64_t m, int64_t n, int64_t k)
{
	const int tA = ta != GK_NO_TRANS, tB = tb != GK_NO_TRANS;
	call c = {layout, ta, tb, m, n, k, 1.0, 0.5, 0, 0, 0, 0, 0, 0};
	c.lda = need(layout, tA ? k : m, tA ? m : k);
	c.ldb = need(layout, tB ? n : k, tB ? k : n);
	c.ldc = need(layout, m, n);
	return c;
}

static const char *variant_name[4] = {"gk_sgemm", "gk_dgemm", "gk_sgemm_ex", "gk_dgemm_ex"};

/* Run c through one of the four entry points on fresh buffers. Returns the
 * status; *unchanged tells whether A, B and C are byte-identical afterwards. */
static gk_status run(const call *c, int variant, int *unchanged)
{
	static float fa[BUF], fb[BUF], fc[BUF], fs[3][BUF];
	static double da[BUF], db[BUF], dc[BUF], ds[3][BUF];
	gk_status st;
	if (variant == 0 || variant == 2) {
		tu_fill_f32(fa, BUF, &rng);
		tu_fill_f32(fb, BUF, &rng);
		tu_fill_f32(fc, BUF, &rng);
		memcpy(fs[0], fa, sizeof fa);
		memcpy(fs[1], fb, sizeof fb);
		memcpy(fs[2], fc, sizeof fc);
		const float *a = c->null_a ? NULL : fa, *b = c->null_b ? NULL : fb;
		float *cc = c->null_c ? NULL : fc;
		if (variant == 0)
			st = gk_sgemm(c->layout, c->ta, c->tb, c->m, c->n, c->k, (float)c->alpha, a, c->lda,
			              b, c->ldb, (float)c->beta, cc, c->ldc);
		else
			st = gk_sgemm_ex(cpu_ctx, c->layout, c->ta, c->tb, c->m, c->n, c->k,
			                 (float)c->alpha, a, c->lda, b, c->ldb, (float)c->beta, cc, c->ldc);
		*unchanged = memcmp(fs[0], fa, sizeof fa) == 0 && memcmp(fs[1], fb, sizeof fb) == 0 &&
		             memcmp(fs[2], fc, sizeof fc) == 0;
	} else {
		tu_fill_f64(da, BUF, &rng);
		tu_fill_f64(db, BUF, &rng);
		tu_fill_f64(dc, BUF, &rng);
		memcpy(ds[0], da, sizeof da);
		memcpy(ds[1], db, sizeof db);
		memcpy(ds[2], dc, sizeof dc);
		const double *a = c->null_a ? NULL : da, *b = c->null_b ? NULL : db;
		double *cc = c->null_c ? NULL : dc;
		if (variant == 1)
			st = gk_dgemm(c->layout, c->ta, c->tb, c->m, c->n, c->k, c->alpha, a, c->lda, b,
			              c->ldb, c->beta, cc, c->ldc);
		else
			st = gk_dgemm_ex(cpu_ctx, c->layout, c->ta, c->tb, c->m, c->n, c->k, c->alpha, a,
			                 c->lda, b, c->ldb, c->beta, cc, c->ldc);
		*unchanged = memcmp(ds[0], da, sizeof da) == 0 && memcmp(ds[1], db, sizeof db) == 0 &&
		             memcmp(ds[2], dc, sizeof dc) == 0;
	}
	return st;
}

static void describe(const call *c, char *buf, size_t len)
{
	snprintf(buf, len,
	         "layout=%d ta=%d tb=%d m=%lld n=%lld k=%lld alpha=%g beta=%g a=%s b=%s c=%s "
	         "lda=%lld ldb=%lld ldc=%lld",
	         (int)c->layout, (int)c->ta, (int)c->tb, (long long)c->m, (long long)c->n,
	         (long long)c->k, c->alpha, c->beta, c->null_a ? "NULL" : "buf",
	         c->null_b ? "NULL" : "buf", c->null_c ? "NULL" : "buf", (long long)c->lda,
	         (long long)c->ldb, (long long)c->ldc);
}

/* The call must fail with `want`, name `arg` in the last error, touch nothing. */
static void expect_error(const call *c, gk_status want, const char *arg)
{
	char d[256];
	describe(c, d, sizeof d);
	for (int v = 0; v < 4; v++) {
		int unchanged;
		gk_status st = run(c, v, &unchanged);
		const char *msg = gk_last_error();
		TU_CHECK(st == want, "%s(%s): status %d (%s), want %d (%s)", variant_name[v], d, (int)st,
		         gk_strerror(st), (int)want, gk_strerror(want));
		TU_CHECK(unchanged, "%s(%s): an error left A, B or C changed", variant_name[v], d);
		/* The message names the entry point's family and the argument. */
		const char *fn = (v & 1) ? "gk_dgemm" : "gk_sgemm";
		TU_CHECK(names(msg, arg) && strstr(msg, fn) != NULL,
		         "%s(%s): gk_last_error() = \"%s\" does not name %s and %s", variant_name[v], d,
		         msg, fn, arg);
	}
}

/* The call must succeed; *unchanged must match `untouched` when asked. */
static void expect_ok(const call *c, int untouched)
{
	char d[256];
	describe(c, d, sizeof d);
	for (int v = 0; v < 4; v++) {
		int unchanged;
		gk_status st = run(c, v, &unchanged);
		TU_CHECK(st == GK_OK, "%s(%s): status %d (%s): %s", variant_name[v], d, (int)st,
		         gk_strerror(st), gk_last_error());
		/* A successful call leaves no message, also after a failed one. */
		TU_CHECK(gk_last_error()[0] == '\0', "%s(%s): succeeded, but gk_last_error() = \"%s\"",
		         variant_name[v], d, gk_last_error());
		if (untouched)
			TU_CHECK(unchanged, "%s(%s): touched memory although nothing is to be done",
			         variant_name[v], d);
	}
}

static const gk_trans all_trans[3] = {GK_NO_TRANS, GK_TRANS, GK_CONJ_TRANS};
static const gk_layout layouts[2] = {GK_ROW_MAJOR, GK_COL_MAJOR};

/* ------------------------------------------------------------------------ */
/* GEMM arguments                                                            */
/* ------------------------------------------------------------------------ */

static void bad_enums(void)
{
	static const int bad_layouts[] = {0, 100, 103, 111, 114, -1, 1101, INT_MAX};
	for (size_t i = 0; i < sizeof bad_layouts / sizeof bad_layouts[0]; i++) {
		call c = valid(GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 3, 4, 5);
		c.layout = (gk_layout)bad_layouts[i];
		expect_error(&c, GK_ERR_INVALID_VALUE, "layout");
	}
	/* Trans values that are layouts (101, 102) are wrong too. */
	static const int bad_trans[] = {0, 100, 101, 102, 110, 114, -1, INT_MIN};
	for (size_t i = 0; i < sizeof bad_trans / sizeof bad_trans[0]; i++)
		for (int l = 0; l < 2; l++) {
			call c = valid(layouts[l], GK_NO_TRANS, GK_TRANS, 3, 4, 5);
			c.ta = (gk_trans)bad_trans[i];
			expect_error(&c, GK_ERR_INVALID_VALUE, "ta");
			c = valid(layouts[l], GK_TRANS, GK_NO_TRANS, 3, 4, 5);
			c.tb = (gk_trans)bad_trans[i];
			expect_error(&c, GK_ERR_INVALID_VALUE, "tb");
		}
}

static void negative_sizes(void)
{
	static const int64_t bad[] = {-1, -1000, INT64_MIN};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		for (int l = 0; l < 2; l++) {
			call c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, 3, 4, 5);
			c.m = bad[i];
			expect_error(&c, GK_ERR_NEGATIVE_SIZE, "m");
			c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, 3, 4, 5);
			c.n = bad[i];
			expect_error(&c, GK_ERR_NEGATIVE_SIZE, "n");
			c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, 3, 4, 5);
			c.k = bad[i];
			expect_error(&c, GK_ERR_NEGATIVE_SIZE, "k");
			/* A negative size is refused even with alpha = 0 and NULL pointers. */
			c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, 3, 4, 5);
			c.k = bad[i];
			c.alpha = 0;
			c.null_a = c.null_b = 1;
			expect_error(&c, GK_ERR_NEGATIVE_SIZE, "k");
		}
}

/* Every leading dimension one short, zero, and negative, for every layout and
 * transpose pair; and exactly right works. */
static void small_lds(void)
{
	for (int l = 0; l < 2; l++)
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++) {
				const call ok = valid(layouts[l], all_trans[i], all_trans[j], 3, 4, 5);
				expect_ok(&ok, 0);
				const int64_t lds[3] = {ok.lda, ok.ldb, ok.ldc};
				static const char *const ld_names[3] = {"lda", "ldb", "ldc"};
				for (int w = 0; w < 3; w++) {
					const int64_t bad[3] = {lds[w] - 1, 0, -5};
					for (int b = 0; b < 3; b++) {
						call c = ok;
						if (w == 0) c.lda = bad[b];
						if (w == 1) c.ldb = bad[b];
						if (w == 2) c.ldc = bad[b];
						expect_error(&c, GK_ERR_BAD_LD, ld_names[w]);
					}
				}
			}
	/* A dimension of 0 still needs ld >= 1: for each shape with a zero size,
	 * each ld whose dimension is that 0 is refused at 0 and accepted at 1. */
	static const int64_t zero_shapes[][3] = {{0, 4, 5}, {3, 0, 5}, {3, 4, 0}, {0, 0, 0}};
	static const char *const ld_names[3] = {"lda", "ldb", "ldc"};
	for (int l = 0; l < 2; l++)
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				for (int s = 0; s < 4; s++) {
					const int64_t m = zero_shapes[s][0], n = zero_shapes[s][1],
					              k = zero_shapes[s][2];
					call ok = valid(layouts[l], all_trans[i], all_trans[j], m, n, k);
					/* Nothing is read: A and B may be NULL, and C when it is empty. */
					ok.null_a = ok.null_b = 1;
					ok.null_c = m == 0 || n == 0;
					expect_ok(&ok, ok.null_c);
					const int rm = layouts[l] == GK_ROW_MAJOR;
					const int tA = i != 0, tB = j != 0;
					const int64_t raw[3] = {
						rm ? (tA ? m : k) : (tA ? k : m),
						rm ? (tB ? k : n) : (tB ? n : k),
						rm ? n : m,
					};
					for (int w = 0; w < 3; w++) {
						if (raw[w] != 0)
							continue;
						call c = ok;
						if (w == 0) c.lda = 0;
						if (w == 1) c.ldb = 0;
						if (w == 2) c.ldc = 0;
						expect_error(&c, GK_ERR_BAD_LD, ld_names[w]);
					}
				}
}

static void null_pointers(void)
{
	for (int l = 0; l < 2; l++)
		for (int i = 0; i < 3; i++) {
			const call ok = valid(layouts[l], all_trans[i], all_trans[2 - i], 3, 4, 5);
			call c = ok;
			c.null_a = 1;
			expect_error(&c, GK_ERR_NULL_POINTER, "a");
			c = ok;
			c.null_b = 1;
			expect_error(&c, GK_ERR_NULL_POINTER, "b");
			c = ok;
			c.null_c = 1;
			expect_error(&c, GK_ERR_NULL_POINTER, "c");
			/* C is written even when beta = 0, and when alpha = 0 or k = 0. */
			c.beta = 0;
			expect_error(&c, GK_ERR_NULL_POINTER, "c");
			c.alpha = 0;
			expect_error(&c, GK_ERR_NULL_POINTER, "c");
			c = ok;
			c.k = 0;
			c.null_c = 1;
			expect_error(&c, GK_ERR_NULL_POINTER, "c");

			/* NULL where nothing is read. */
			c = ok;
			c.alpha = 0;
			c.null_a = c.null_b = 1;
			expect_ok(&c, 0);
			c = valid(layouts[l], all_trans[i], all_trans[2 - i], 3, 4, 0);
			c.null_a = c.null_b = 1;
			expect_ok(&c, 0);
			c = valid(layouts[l], all_trans[i], all_trans[2 - i], 0, 4, 5);
			c.null_a = c.null_b = c.null_c = 1;
			expect_ok(&c, 1);
			c = valid(layouts[l], all_trans[i], all_trans[2 - i], 3, 0, 5);
			c.null_a = c.null_b = c.null_c = 1;
			expect_ok(&c, 1);
		}
}

/* Sizes whose extent does not fit the address space, with small buffers. */
static void overflows(void)
{
	const int64_t big = (int64_t)1 << 40, huge = (int64_t)1 << 62;
	for (int l = 0; l < 2; l++) {
		const int rm = layouts[l] == GK_ROW_MAJOR;
		/* C of 2^40 x 2^40 with ldc = 2^40. */
		call c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, big, big, 1);
		c.ldc = big;
		expect_error(&c, GK_ERR_OVERFLOW, "ldc");
		/* The same with alpha = 0: C alone is scaled, and must fit as well. */
		c.alpha = 0;
		expect_error(&c, GK_ERR_OVERFLOW, "ldc");
		/* Only A: two rows (row-major) or columns (column-major) 2^62 apart. */
		c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, rm ? 2 : 1, 1, rm ? 1 : 2);
		c.lda = huge;
		expect_error(&c, GK_ERR_OVERFLOW, "lda");
		/* Only B, likewise. */
		c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, 1, rm ? 1 : 2, rm ? 2 : 1);
		c.ldb = huge;
		expect_error(&c, GK_ERR_OVERFLOW, "ldb");
		/* Only B, transposed: op(B) is 1 x 2, stored 2 x 1. */
		c = valid(layouts[l], GK_NO_TRANS, GK_TRANS, 1, rm ? 2 : 1, rm ? 1 : 2);
		c.ldb = huge;
		expect_error(&c, GK_ERR_OVERFLOW, "ldb");
		/* The element count fits int64_t, the byte count does not. */
		c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, rm ? INT64_MAX / 2 : 1,
		          rm ? 1 : INT64_MAX / 2, 1);
		c.alpha = 0;
		c.null_a = c.null_b = 1;
		expect_error(&c, GK_ERR_OVERFLOW, "ldc");
		/* (rows - 1) * ld wraps int64_t. */
		c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, 3, 3, 3);
		if (rm)
			c.m = INT64_MAX;
		else
			c.n = INT64_MAX;
		c.ldc = INT64_MAX;
		c.lda = rm ? 3 : INT64_MAX;
		c.ldb = rm ? INT64_MAX : 3;
		expect_error(&c, GK_ERR_OVERFLOW, "ldc");
		/* With alpha = 0, A and B are not read: their extents do not matter. */
		c = valid(layouts[l], GK_NO_TRANS, GK_NO_TRANS, 2, 2, huge);
		c.alpha = 0;
		c.null_a = c.null_b = 1;
		expect_ok(&c, 0);
	}
}

/* ------------------------------------------------------------------------ */
/* Contexts, algorithms, backends, info                                      */
/* ------------------------------------------------------------------------ */

static void check_status(gk_status st, gk_status want, const char *what, const char *arg)
{
	TU_CHECK(st == want, "%s: status %d (%s), want %d (%s)", what, (int)st, gk_strerror(st),
	         (int)want, gk_strerror(want));
	if (want != GK_OK && arg != NULL)
		TU_CHECK(names(gk_last_error(), arg), "%s: gk_last_error() = \"%s\" does not name %s",
		         what, gk_last_error(), arg);
}

/* A small GEMM through ctx: status, and the result against the reference. */
static gk_status ctx_gemm(const gk_context *ctx, int *correct, int *untouched)
{
	enum { M = 9, N = 11, K = 13 };
	float a[M * K], b[K * N], c[M * N], c0[M * N];
	long double ref[M * N];
	tu_fill_f32(a, M * K, &rng);
	tu_fill_f32(b, K * N, &rng);
	tu_fill_f32(c, M * N, &rng);
	memcpy(c0, c, sizeof c);
	gk_status st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, M, N, K, -0.5f, a, K,
	                           b, N, 1.0f, c, N);
	gkc_ref_gemm(GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, M, N, K, -0.5, a, K, b, N,
	             1.0, c0, N, NULL, 0, ref);
	double err = gkc_gemm_error(GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, M, N, K,
	                            -0.5, a, K, b, N, 1.0, c0, c, N, NULL, 0, ref);
	*correct = err <= gkc_gemm_bound(GK_DTYPE_F32, K, 2.0);
	*untouched = memcmp(c, c0, sizeof c) == 0;
	return st;
}

static void contexts(void)
{
	gk_context *ctx = NULL;
	int correct, untouched;
	check_status(gk_context_create(NULL), GK_ERR_NULL_POINTER, "gk_context_create(NULL)", "out");
	check_status(gk_context_create(&ctx), GK_OK, "gk_context_create", NULL);
	if (ctx == NULL)
		return;
	TU_CHECK(gk_context_algo(ctx) != NULL && strcmp(gk_context_algo(ctx), "auto") == 0,
	         "a new context's algorithm is not \"auto\"");
	TU_CHECK(gk_context_algo(NULL) == NULL, "gk_context_algo(NULL) is not NULL");

	/* set_algo: NULLs, unknown names (context unchanged), every real name. */
	check_status(gk_context_set_algo(NULL, "auto"), GK_ERR_NULL_POINTER,
	             "gk_context_set_algo(NULL, \"auto\")", "ctx");
	check_status(gk_context_set_algo(ctx, NULL), GK_ERR_NULL_POINTER,
	             "gk_context_set_algo(ctx, NULL)", "name");
	check_status(gk_context_set_algo(ctx, "cpu.ikj"), GK_OK, "gk_context_set_algo(cpu.ikj)", NULL);
	static const char *const unknown[] = {"", "no.such.algo", "cpu.", "cpu.ikj ", " auto",
	                                      "autox", "cpu.ikj_omp2"};
	for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
		char what[64];
		snprintf(what, sizeof what, "gk_context_set_algo(ctx, \"%s\")", unknown[i]);
		check_status(gk_context_set_algo(ctx, unknown[i]), GK_ERR_UNKNOWN_ALGO, what, NULL);
		TU_CHECK(strcmp(gk_context_algo(ctx), "cpu.ikj") == 0,
		         "%s changed the context's algorithm to %s", what, gk_context_algo(ctx));
	}
	TU_CHECK(strstr(gk_last_error(), "cpu.ikj_omp2") != NULL,
	         "gk_last_error() = \"%s\" does not quote the unknown name", gk_last_error());
	for (int i = 0; i < gk_algo_count(); i++) {
		gk_algo_info info;
		if (gk_algo_get(i, &info) != GK_OK)
			continue;
		check_status(gk_context_set_algo(ctx, info.name), GK_OK, info.name, NULL);
		TU_CHECK(strcmp(gk_context_algo(ctx), info.name) == 0, "set %s, got %s", info.name,
		         gk_context_algo(ctx));
	}
	check_status(gk_context_set_algo(ctx, "auto"), GK_OK, "gk_context_set_algo(auto)", NULL);
	TU_CHECK(strcmp(gk_context_algo(ctx), "auto") == 0, "set auto, got %s", gk_context_algo(ctx));

	/* set_backend and set_threads. */
	check_status(gk_context_set_backend(NULL, GK_BACKEND_CPU), GK_ERR_NULL_POINTER,
	             "gk_context_set_backend(NULL)", "ctx");
	static const int bad_backends[] = {-1, 3, 100, 101, INT_MAX};
	for (size_t i = 0; i < sizeof bad_backends / sizeof bad_backends[0]; i++) {
		char what[64];
		snprintf(what, sizeof what, "gk_context_set_backend(ctx, %d)", bad_backends[i]);
		check_status(gk_context_set_backend(ctx, (gk_backend)bad_backends[i]),
		             GK_ERR_INVALID_VALUE, what, "backend");
	}
	check_status(gk_context_set_threads(NULL, 1), GK_ERR_NULL_POINTER,
	             "gk_context_set_threads(NULL)", "ctx");
	check_status(gk_context_set_threads(ctx, -1), GK_ERR_INVALID_VALUE,
	             "gk_context_set_threads(ctx, -1)", "n");
	check_status(gk_context_set_threads(ctx, INT_MIN), GK_ERR_INVALID_VALUE,
	             "gk_context_set_threads(ctx, INT_MIN)", "n");
	static const int good_threads[] = {0, 1, 2, 3, 1000000};
	for (size_t i = 0; i < sizeof good_threads / sizeof good_threads[0]; i++) {
		char what[64];
		snprintf(what, sizeof what, "gk_context_set_threads(ctx, %d)", good_threads[i]);
		check_status(gk_context_set_threads(ctx, good_threads[i]), GK_OK, what, NULL);
		/* A huge request is capped, not a failure, and the result is right. */
		gk_status st = ctx_gemm(ctx, &correct, &untouched);
		TU_CHECK(st == GK_OK && correct, "a GEMM after %s: status %d, %s", what, (int)st,
		         correct ? "right" : "wrong");
	}
	gk_context_set_threads(ctx, 0);

	/* The CPU backend with a CPU algorithm, and with auto, computes. */
	check_status(gk_context_set_backend(ctx, GK_BACKEND_CPU), GK_OK, "set_backend(CPU)", NULL);
	gk_status st = ctx_gemm(ctx, &correct, &untouched);
	TU_CHECK(st == GK_OK && correct, "backend CPU, auto: status %d, %s", (int)st,
	         correct ? "right" : "wrong");
	gk_context_set_algo(ctx, "cpu.ikj");
	st = ctx_gemm(ctx, &correct, &untouched);
	TU_CHECK(st == GK_OK && correct, "backend CPU, cpu.ikj: status %d, %s", (int)st,
	         correct ? "right" : "wrong");
	/* A failed set_backend leaves the CPU backend in place. */
	gk_context_set_backend(ctx, (gk_backend)7);
	st = ctx_gemm(ctx, &correct, &untouched);
	TU_CHECK(st == GK_OK && correct, "after a refused set_backend: status %d", (int)st);

	/* The CUDA backend: refused without a GPU, never a crash; a CPU algorithm
	 * on it is refused everywhere. */
	gk_info info;
	gk_get_info(&info);
	check_status(gk_context_set_backend(ctx, GK_BACKEND_CUDA), GK_OK, "set_backend(CUDA)", NULL);
	st = ctx_gemm(ctx, &correct, &untouched);
	TU_CHECK(st == GK_ERR_UNSUPPORTED && untouched,
	         "backend CUDA with cpu.ikj: status %d (%s), C %s", (int)st, gk_strerror(st),
	         untouched ? "untouched" : "changed");
	gk_context_set_algo(ctx, "auto");
	st = ctx_gemm(ctx, &correct, &untouched);
	if (info.gpu_count == 0)
		TU_CHECK((st == GK_ERR_NO_GPU || st == GK_ERR_UNSUPPORTED) && untouched,
		         "backend CUDA without a GPU: status %d (%s), C %s", (int)st, gk_strerror(st),
		         untouched ? "untouched" : "changed");
	else
		TU_CHECK(st == GK_OK ? correct : (st == GK_ERR_UNSUPPORTED && untouched),
		         "backend CUDA with %d GPU(s): status %d (%s), %s", info.gpu_count, (int)st,
		         gk_strerror(st), correct ? "right" : "wrong");
	if (!info.cuda_built)
		TU_CHECK(st == GK_ERR_NO_GPU, "backend CUDA in a build without CUDA: status %d (%s)",
		         (int)st, gk_strerror(st));

	/* The trivial cases need no backend at all. */
	float c[6] = {1, 2, 3, 4, 5, 6};
	st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 3, 4, 0.0f, NULL, 4, NULL, 3,
	                 2.0f, c, 3);
	TU_CHECK(st == GK_OK && c[0] == 2 && c[5] == 12, "alpha = 0 on the CUDA backend: status %d",
	         (int)st);
	gk_context_destroy(ctx);
	gk_context_destroy(NULL);
}

static void algos_and_info(void)
{
	const int count = gk_algo_count();
	TU_CHECK(count >= 1, "gk_algo_count() = %d", count);
	gk_algo_info info;
	static const int bad[] = {-1, INT_MIN};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		check_status(gk_algo_get(bad[i], &info), GK_ERR_INVALID_VALUE, "gk_algo_get(<0)", "i");
	check_status(gk_algo_get(count, &info), GK_ERR_INVALID_VALUE, "gk_algo_get(count)", "i");
	check_status(gk_algo_get(INT_MAX, &info), GK_ERR_INVALID_VALUE, "gk_algo_get(INT_MAX)", "i");
	check_status(gk_algo_get(0, NULL), GK_ERR_NULL_POINTER, "gk_algo_get(0, NULL)", "out");
	for (int i = 0; i < count; i++) {
		if (gk_algo_get(i, &info) != GK_OK) {
			TU_CHECK(0, "gk_algo_get(%d) fails", i);
			continue;
		}
		TU_CHECK(info.name && info.name[0] && info.description && info.description[0],
		         "algorithm %d has no name or description", i);
		TU_CHECK(strcmp(info.name, "auto") != 0, "\"auto\" is listed as an algorithm");
		TU_CHECK(info.backend == GK_BACKEND_CPU || info.backend == GK_BACKEND_CUDA,
		         "%s: backend %d", info.name, (int)info.backend);
		TU_CHECK(info.dtypes != 0 && (info.dtypes & ~(GK_DTYPE_F32 | GK_DTYPE_F64)) == 0,
		         "%s: dtypes %u", info.name, info.dtypes);
		TU_CHECK((info.threaded == 0 || info.threaded == 1) &&
		         (info.available == 0 || info.available == 1),
		         "%s: threaded %d, available %d", info.name, info.threaded, info.available);
		for (int j = 0; j < i; j++) {
			gk_algo_info other;
			if (gk_algo_get(j, &other) == GK_OK)
				TU_CHECK(strcmp(other.name, info.name) != 0, "two algorithms named %s",
				         info.name);
		}
	}
	check_status(gk_get_info(NULL), GK_ERR_NULL_POINTER, "gk_get_info(NULL)", "info");
	gk_info gi;
	check_status(gk_get_info(&gi), GK_OK, "gk_get_info", NULL);
}

int main(void)
{
	tu_rng_init(&rng, tu_seed());
	if (gk_context_create(&cpu_ctx) != GK_OK || gk_context_set_backend(cpu_ctx, GK_BACKEND_CPU) ||
	    gk_context_set_algo(cpu_ctx, "cpu.ikj") || gk_context_set_threads(cpu_ctx, 2)) {
		fprintf(stderr, "test_api: cannot make a context\n");
		return 1;
	}
	bad_enums();
	negative_sizes();
	small_lds();
	null_pointers();
	overflows();
	contexts();
	algos_and_info();
	gk_context_destroy(cpu_ctx);
	return tu_finish("test_api");
}
