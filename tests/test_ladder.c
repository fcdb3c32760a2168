/*
 * test_ladder.c - the tiled rungs of the CPU ladder (cpu.block64 ...
 * cpu.avx512_6x64), their tile kernels, and Strassen (cpu.strassen_seed)
 * where it actually recurses. test_gemm runs every algorithm on its general
 * cases; this program adds what is particular to these:
 *
 *  - the tile kernels of every kernel table this CPU can run (unroll_2x4,
 *    regtile_3x32/3x16, regtile_6x64/6x32) against a long double reference,
 *    elementwise within the classical bound, with padded row strides and
 *    sentinels after each row of C (the AVX-512 kernels mask their tails);
 *  - the tiled rungs on shapes around their steps and blocks (m % 3, m % 6,
 *    n % 32, n % 64, k % 4 and the 64, 96, 128, 256 block sizes), and with
 *    1, 2 and 3 threads;
 *  - Strassen with the cut-off lowered through GK_STRASSEN_CUTOFF so that
 *    sizes of 33 to 300 recurse two or three levels, odd sizes on every
 *    level, and one product of about 1050 at the default cut-off (one level).
 *    Its bound is the one derived in src/gemm/strassen_tmpl.h,
 *    18^L (k / 2^L + 9) u in the normwise error of test_util, times the
 *    factor 2 that test_gemm allows the classical bound for second-order
 *    terms; each case also checks that it did recurse L >= 1 levels.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit.h"
#include "gk_internal.h"
#include "test_util.h"

#define FACTOR 2.0     /* as test_gemm's GEMM_FACTOR */
#define GUARD 8        /* sentinel elements after each row of C (kernels) */
#define SENTINEL 777.25
#define SAMPLE_ROWS 12 /* rows compared in the products of about 1000 */

static void *xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	if (p == NULL) {
		fprintf(stderr, "test_ladder: out of memory (%zu bytes)\n", bytes);
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

/* ------------------------------------------------------------------------ */
/* The tile kernels                                                          */
/* ------------------------------------------------------------------------ */

/* One tile kernel: the slot's pointer in the member of its type. */
typedef struct {
	gk_unroll_f32_fn unroll_f32;
	gk_unroll_f64_fn unroll_f64;
	gk_regtile_f32_fn regtile_f32;
	gk_regtile_f64_fn regtile_f64;
} tile_fn;

/*
 * Run one tile kernel on C(rows x cols) += A(rows x k) B(k x cols) with row
 * strides lda, ldb and ldc = cols + GUARD, the GUARD elements after each row
 * of C holding a sentinel. Every element must be within the classical bound
 * 2 (k + 1) u (|C0| + sum |A| |B|) of the long double result, every sentinel
 * intact. For unroll_2x4, k is 4 and cols the kernel's n.
 */
static void check_tile_kernel(const char *who, tile_fn fn, int64_t rows, int64_t cols, int64_t k,
                              tu_rng *r)
{
	const int f32 = fn.unroll_f32 != NULL || fn.regtile_f32 != NULL;
	const unsigned dt = f32 ? GK_DTYPE_F32 : GK_DTYPE_F64;
	const size_t es = f32 ? sizeof(float) : sizeof(double);
	const int64_t lda = k + (int64_t)(tu_next(r) % 5), ldb = cols + (int64_t)(tu_next(r) % 9);
	const int64_t ldc = cols + GUARD;
	const size_t na = (size_t)(rows * lda), nb = (size_t)((k > 0 ? k : 1) * ldb);
	const size_t nc = (size_t)(rows * ldc);
	void *a = xmalloc(na * es), *b = xmalloc(nb * es), *c = xmalloc(nc * es);
	void *c0 = xmalloc(nc * es);
	if (f32) {
		tu_fill_f32(a, na, r);
		tu_fill_f32(b, nb, r);
		tu_fill_f32(c, nc, r);
	} else {
		tu_fill_f64(a, na, r);
		tu_fill_f64(b, nb, r);
		tu_fill_f64(c, nc, r);
	}
	for (int64_t i = 0; i < rows; i++)
		for (int64_t j = cols; j < ldc; j++) {
			if (f32)
				((float *)c)[i * ldc + j] = (float)SENTINEL;
			else
				((double *)c)[i * ldc + j] = SENTINEL;
		}
	memcpy(c0, c, nc * es);

	if (fn.unroll_f32)
		fn.unroll_f32(cols, a, lda, b, ldb, c, ldc);
	else if (fn.unroll_f64)
		fn.unroll_f64(cols, a, lda, b, ldb, c, ldc);
	else if (fn.regtile_f32)
		fn.regtile_f32(k, a, lda, b, ldb, c, ldc);
	else
		fn.regtile_f64(k, a, lda, b, ldb, c, ldc);

#define ELEM(x, idx) (f32 ? (long double)((const float *)(x))[idx] \
                          : (long double)((const double *)(x))[idx])
	int64_t bad = 0, guard_bad = 0;
	double worst = 0;
	for (int64_t i = 0; i < rows; i++) {
		for (int64_t j = 0; j < cols; j++) {
			long double s = ELEM(c0, i * ldc + j), mag = fabsl(s);
			for (int64_t l = 0; l < k; l++) {
				const long double t = ELEM(a, i * lda + l) * ELEM(b, l * ldb + j);
				s += t;
				mag += fabsl(t);
			}
			const long double got = ELEM(c, i * ldc + j);
			const double bound = FACTOR * (double)(k + 1) * unit_roundoff(dt) * (double)mag;
			const double err = (double)fabsl(got - s);
			if (!(err <= bound))
				bad++;
			else if (bound > 0 && err / bound > worst)
				worst = err / bound;
		}
		for (int64_t j = cols; j < ldc; j++)
			if (ELEM(c, i * ldc + j) != (long double)SENTINEL)
				guard_bad++;
	}
#undef ELEM
	TU_CHECK(bad == 0, "%s %s %lldx%lld k=%lld lda=%lld ldb=%lld: %lld elements out of bound",
	         who, dt_name(dt), (long long)rows, (long long)cols, (long long)k, (long long)lda,
	         (long long)ldb, (long long)bad);
	TU_CHECK(guard_bad == 0, "%s %s %lldx%lld k=%lld: wrote %lld elements past the rows of C",
	         who, dt_name(dt), (long long)rows, (long long)cols, (long long)k,
	         (long long)guard_bad);
	free(a);
	free(b);
	free(c);
	free(c0);
}

static void tile_kernels(tu_rng *r)
{
	static const char *const sets[] = {"generic", "avx2", "avx512"};
	static const int64_t unroll_n[] = {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 100};
	static const int64_t reg_k[] = {0, 1, 2, 7, 64, 257};
	for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
		const gk_kernels *t = gk_kernels_by_name(sets[s]);
		if (t == NULL) {
			printf("skip kernel set %s: not supported by this CPU\n", sets[s]);
			continue;
		}
		long before = tu_passed;
		char who[64];
		for (size_t i = 0; i < sizeof unroll_n / sizeof unroll_n[0]; i++) {
			snprintf(who, sizeof who, "%s unroll_2x4", sets[s]);
			check_tile_kernel(who, (tile_fn){.unroll_f32 = t->unroll_2x4_f32}, 2, unroll_n[i], 4, r);
			check_tile_kernel(who, (tile_fn){.unroll_f64 = t->unroll_2x4_f64}, 2, unroll_n[i], 4, r);
		}
		for (size_t i = 0; i < sizeof reg_k / sizeof reg_k[0]; i++) {
			const int64_t k = reg_k[i];
			snprintf(who, sizeof who, "%s regtile_3x32", sets[s]);
			check_tile_kernel(who, (tile_fn){.regtile_f32 = t->regtile_3x32_f32}, 3, 32, k, r);
			snprintf(who, sizeof who, "%s regtile_3x16", sets[s]);
			check_tile_kernel(who, (tile_fn){.regtile_f64 = t->regtile_3x16_f64}, 3, 16, k, r);
			snprintf(who, sizeof who, "%s regtile_6x64", sets[s]);
			check_tile_kernel(who, (tile_fn){.regtile_f32 = t->regtile_6x64_f32}, 6, 64, k, r);
			snprintf(who, sizeof who, "%s regtile_6x32", sets[s]);
			check_tile_kernel(who, (tile_fn){.regtile_f64 = t->regtile_6x32_f64}, 6, 32, k, r);
		}
		printf("tile kernels of %-7s: %ld checks\n", sets[s], tu_passed - before);
	}
}

/* ------------------------------------------------------------------------ */
/* Whole products through the public API                                     */
/* ------------------------------------------------------------------------ */

typedef struct {
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k;
	double alpha, beta;
} shape;

/*
 * Run one product with the context's algorithm; check the status, that A, B,
 * the padding of C and the elements around C are unchanged, and the normwise
 * error against bound (on SAMPLE_ROWS rows when sample, else all). C starts
 * as NaN when beta = 0. Returns error / bound, or -1 after a failure.
 */
static double run_product(const gk_context *ctx, const char *who, unsigned dt, const shape *s,
                          double bound, int sample, tu_rng *r)
{
	const int f32 = dt == GK_DTYPE_F32;
	const size_t es = f32 ? sizeof(float) : sizeof(double);
	const int ta = s->ta != GK_NO_TRANS, tb = s->tb != GK_NO_TRANS;
	const int row = s->layout == GK_ROW_MAJOR;
	const int64_t ra = ta ? s->k : s->m, ca = ta ? s->m : s->k;
	const int64_t rb = tb ? s->n : s->k, cb = tb ? s->k : s->n;
	const int64_t lda = (row ? ca : ra) + (int64_t)(tu_next(r) % 4);
	const int64_t ldb = (row ? cb : rb) + (int64_t)(tu_next(r) % 4);
	const int64_t ldc = (row ? s->n : s->m) + (int64_t)(tu_next(r) % 4);
	const size_t ea = tu_extent(s->layout, ra, ca, lda), eb = tu_extent(s->layout, rb, cb, ldb);
	const size_t ec = tu_extent(s->layout, s->m, s->n, ldc);
	char *a = xmalloc(ea * es), *b = xmalloc(eb * es), *a0 = xmalloc(ea * es);
	char *b0 = xmalloc(eb * es);
	char *cbuf = xmalloc((ec + 2 * GUARD) * es), *cbefore = xmalloc((ec + 2 * GUARD) * es);
	char *c = cbuf + GUARD * es, *c0 = cbefore + GUARD * es;
	if (f32) {
		tu_fill_f32((float *)a, ea, r);
		tu_fill_f32((float *)b, eb, r);
		tu_fill_f32((float *)cbuf, ec + 2 * GUARD, r);
		if (s->beta == 0)
			tu_poison_f32((float *)c, ec);
	} else {
		tu_fill_f64((double *)a, ea, r);
		tu_fill_f64((double *)b, eb, r);
		tu_fill_f64((double *)cbuf, ec + 2 * GUARD, r);
		if (s->beta == 0)
			tu_poison_f64((double *)c, ec);
	}
	memcpy(a0, a, ea * es);
	memcpy(b0, b, eb * es);
	memcpy(cbefore, cbuf, (ec + 2 * GUARD) * es);

	gk_status st;
	if (f32)
		st = gk_sgemm_ex(ctx, s->layout, s->ta, s->tb, s->m, s->n, s->k, (float)s->alpha,
		                 (const float *)a, lda, (const float *)b, ldb, (float)s->beta,
		                 (float *)c, ldc);
	else
		st = gk_dgemm_ex(ctx, s->layout, s->ta, s->tb, s->m, s->n, s->k, s->alpha,
		                 (const double *)a, lda, (const double *)b, ldb, s->beta,
		                 (double *)c, ldc);
	char desc[200];
	snprintf(desc, sizeof desc, "%s %s %s %c%c m=%lld n=%lld k=%lld alpha=%g beta=%g", who,
	         dt_name(dt), row ? "row" : "col", ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)s->m,
	         (long long)s->n, (long long)s->k, s->alpha, s->beta);
	double ratio = -1;
	TU_CHECK(st == GK_OK, "%s: status %d: %s", desc, (int)st, gk_last_error());
	if (st == GK_OK) {
		TU_CHECK(memcmp(a, a0, ea * es) == 0 && memcmp(b, b0, eb * es) == 0,
		         "%s: changed A or B", desc);
		TU_CHECK(memcmp(cbuf, cbefore, GUARD * es) == 0 &&
		         memcmp(c + ec * es, c0 + ec * es, GUARD * es) == 0,
		         "%s: wrote outside the extent of C", desc);
		TU_CHECK(tu_padding_intact(dt, s->layout, s->m, s->n, c, c0, ldc),
		         "%s: changed the padding of C", desc);
		int64_t rows[SAMPLE_ROWS], nrows = s->m;
		const int64_t *rowp = NULL;
		if (sample && s->m > SAMPLE_ROWS) {
			/* The first and last rows, both sides of the middle (where a
			 * Strassen level splits), the rest at random. */
			rows[0] = 0;
			rows[1] = s->m - 1;
			rows[2] = s->m / 2 - 1;
			rows[3] = s->m / 2;
			for (int i = 4; i < SAMPLE_ROWS; i++)
				rows[i] = (int64_t)(tu_next(r) % (uint64_t)s->m);
			rowp = rows;
			nrows = SAMPLE_ROWS;
		}
		long double *ref = xmalloc(sizeof(long double) * (size_t)nrows * (size_t)s->n);
		gkc_ref_gemm(dt, s->layout, s->ta, s->tb, s->m, s->n, s->k, s->alpha, a, lda, b, ldb,
		             s->beta, c0, ldc, rowp, nrows, ref);
		const double err = gkc_gemm_error(dt, s->layout, s->ta, s->tb, s->m, s->n, s->k,
		                                  s->alpha, a, lda, b, ldb, s->beta, c0, c, ldc, rowp,
		                                  nrows, ref);
		TU_CHECK(err <= bound, "%s: normwise error %.3g > bound %.3g", desc, err, bound);
		ratio = err <= bound ? err / bound : -1;
		free(ref);
	}
	free(a); free(b); free(a0); free(b0); free(cbuf); free(cbefore);
	return ratio;
}

static gk_context *make_ctx(const char *algo, int threads)
{
	gk_context *ctx = NULL;
	gk_status st = gk_context_create(&ctx);
	if (st == GK_OK)
		st = gk_context_set_algo(ctx, algo);
	if (st == GK_OK && threads > 0)
		st = gk_context_set_threads(ctx, threads);
	TU_CHECK(st == GK_OK, "cannot make a context for %s: %s", algo, gk_last_error());
	if (st != GK_OK) {
		gk_context_destroy(ctx);
		return NULL;
	}
	return ctx;
}

static gk_trans pick_trans(tu_rng *r)
{
	return (tu_next(r) & 1) ? GK_TRANS : GK_NO_TRANS;
}

static const double scalars[3] = {0.0, 1.0, -0.5};

static shape random_shape(int64_t m, int64_t n, int64_t k, tu_rng *r)
{
	shape s = {(tu_next(r) & 1) ? GK_COL_MAJOR : GK_ROW_MAJOR, pick_trans(r), pick_trans(r),
	           m, n, k, scalars[1 + tu_next(r) % 2], scalars[tu_next(r) % 3]};
	return s;
}

/* The tiled rungs on shapes around their kernel steps and block sizes. */
static void tiled_rungs(tu_rng *r)
{
	static const char *const algos[] = {"cpu.block64", "cpu.block64_aligned", "cpu.unroll_2x4",
	                                    "cpu.avx2_3x32", "cpu.avx512_6x64"};
	static const int64_t ms[] = {1, 2, 3, 4, 5, 6, 7, 11, 13, 64, 65, 95, 96, 97, 193};
	static const int64_t ns[] = {1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129, 255, 257};
	static const int64_t ks[] = {1, 2, 3, 4, 5, 63, 64, 65, 255, 256, 257};
	const size_t nm = sizeof ms / sizeof ms[0], nn = sizeof ns / sizeof ns[0];
	const size_t nk = sizeof ks / sizeof ks[0];
	for (size_t al = 0; al < sizeof algos / sizeof algos[0]; al++) {
		gk_context *ctx = make_ctx(algos[al], 0);
		if (ctx == NULL)
			continue;
		double worst = 0;
		int cases = 0;
		for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
			/* Every m against a random n and k, every n and k against a
			 * random m: each edge of each block met at least once. */
			for (size_t i = 0; i < nm + nn + nk; i++) {
				int64_t m = ms[tu_next(r) % nm], n = ns[tu_next(r) % nn], k = ks[tu_next(r) % nk];
				if (i < nm)
					m = ms[i];
				else if (i < nm + nn)
					n = ns[i - nm];
				else
					k = ks[i - nm - nn];
				shape s = random_shape(m, n, k, r);
				double ratio = run_product(ctx, algos[al], dt, &s, gkc_gemm_bound(dt, k, FACTOR),
				                           0, r);
				worst = ratio > worst ? ratio : worst;
				cases++;
			}
		}
		gk_context_destroy(ctx);

		/* 1, 2 and 3 threads: block rows shared unevenly, a last short one. */
		for (int t = 1; t <= 3; t++) {
			ctx = make_ctx(algos[al], t);
			if (ctx == NULL)
				continue;
			char who[64];
			snprintf(who, sizeof who, "%s threads=%d", algos[al], t);
			for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
				shape s = random_shape(301, 97, 130, r);
				double ratio = run_product(ctx, who, dt, &s, gkc_gemm_bound(dt, s.k, FACTOR), 0, r);
				worst = ratio > worst ? ratio : worst;
				cases++;
			}
			gk_context_destroy(ctx);
		}
		printf("%-20s %3d edge and thread cases, max err/bound %.4f\n", algos[al], cases, worst);
	}
}

/* ------------------------------------------------------------------------ */
/* Strassen                                                                  */
/* ------------------------------------------------------------------------ */

/* The bound of src/gemm/strassen_tmpl.h for L levels, times FACTOR. */
static double strassen_bound(unsigned dt, int64_t k, int levels)
{
	return FACTOR * pow(18.0, levels) * ((double)k / ldexp(1.0, levels) + 9.0) *
	       unit_roundoff(dt);
}

static void set_cutoff(const char *v)
{
	if (v == NULL)
		unsetenv("GK_STRASSEN_CUTOFF");
	else
		setenv("GK_STRASSEN_CUTOFF", v, 1);
}

static void strassen_cutoff_parsing(void)
{
	set_cutoff(NULL);
	TU_CHECK(gk_strassen_cutoff() == GK_STRASSEN_CUTOFF_DEFAULT, "cut-off without the variable");
	set_cutoff("100");
	TU_CHECK(gk_strassen_cutoff() == 100, "GK_STRASSEN_CUTOFF=100 gave %lld",
	         (long long)gk_strassen_cutoff());
	set_cutoff("2");
	TU_CHECK(gk_strassen_cutoff() == GK_STRASSEN_CUTOFF_MIN, "GK_STRASSEN_CUTOFF=2 gave %lld",
	         (long long)gk_strassen_cutoff());
	set_cutoff("12x");
	TU_CHECK(gk_strassen_cutoff() == GK_STRASSEN_CUTOFF_DEFAULT,
	         "GK_STRASSEN_CUTOFF=12x gave %lld", (long long)gk_strassen_cutoff());
	set_cutoff("0");
	TU_CHECK(gk_strassen_cutoff() == GK_STRASSEN_CUTOFF_DEFAULT,
	         "GK_STRASSEN_CUTOFF=0 gave %lld", (long long)gk_strassen_cutoff());
	set_cutoff("32");
	TU_CHECK(gk_strassen_levels(130, 130, 130) == 2 && gk_strassen_levels(257, 300, 257) == 3 &&
	         gk_strassen_levels(63, 1000, 1000) == 0,
	         "levels at cut-off 32: %d %d %d", gk_strassen_levels(130, 130, 130),
	         gk_strassen_levels(257, 300, 257), gk_strassen_levels(63, 1000, 1000));
	set_cutoff(NULL);
}

typedef struct {
	const char *cutoff; /* GK_STRASSEN_CUTOFF, NULL: the default */
	int64_t m, n, k;
	int threads;        /* 0: the default */
	int sample;
} strassen_case;

static void strassen(tu_rng *r)
{
	static const strassen_case cases[] = {
		{"32", 130, 130, 130, 1, 0},  /* 2 levels, even all the way */
		{"32", 131, 133, 135, 1, 0},  /* 2 levels, odd m, n, k on the first */
		{"32", 257, 300, 257, 0, 0},  /* 3 levels, odd on the first */
		{"24", 97, 211, 149, 2, 0},   /* rectangular, odd on every level */
		{"16", 67, 70, 99, 3, 0},     /* 2 levels, 3 threads */
		{"8", 33, 35, 37, 1, 0},      /* 2 levels down to the smallest cut-off */
		{NULL, 1031, 1057, 1049, 0, 1}, /* the default cut-off: one level, odd */
	};
	gk_context *ctx = make_ctx("cpu.strassen_seed", 0);
	if (ctx == NULL)
		return;
	double worst = 0, worst_classical = 0;
	int n_cases = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const strassen_case *sc = &cases[i];
		set_cutoff(sc->cutoff);
		gk_context_set_threads(ctx, sc->threads);
		const int levels = gk_strassen_levels(sc->m, sc->n, sc->k);
		TU_CHECK(levels >= 1, "strassen %lldx%lldx%lld at cut-off %s: %d levels, none tested",
		         (long long)sc->m, (long long)sc->n, (long long)sc->k,
		         sc->cutoff ? sc->cutoff : "default", levels);
		for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
			/* The large case once, in a random type. */
			if (sc->sample && (tu_next(r) & 1))
				continue;
			shape s = random_shape(sc->m, sc->n, sc->k, r);
			char who[96];
			snprintf(who, sizeof who, "cpu.strassen_seed cutoff=%s levels=%d threads=%d",
			         sc->cutoff ? sc->cutoff : "default", levels, sc->threads);
			const double bound = strassen_bound(dt, s.k, levels);
			const double ratio = run_product(ctx, who, dt, &s, bound, sc->sample, r);
			worst = ratio > worst ? ratio : worst;
			/* For the record: the same error against the classical bound. */
			const double classical = ratio * bound / gkc_gemm_bound(dt, s.k, FACTOR);
			worst_classical = classical > worst_classical ? classical : worst_classical;
			n_cases++;
			if (sc->sample)
				break;
		}
	}
	set_cutoff(NULL);
	gk_context_destroy(ctx);
	printf("cpu.strassen_seed    %3d recursing cases, max err/bound %.4f "
	       "(bound 2 * 18^L (k/2^L + 9) u; %.4f of the classical bound)\n", n_cases, worst,
	       worst_classical);
}

int main(void)
{
	const uint64_t seed = tu_seed();
	tu_rng r;
	tu_rng_init(&r, seed);
	printf("kernel set: %s\n", gk_arch_name());
	tile_kernels(&r);
	tiled_rungs(&r);
	strassen_cutoff_parsing();
	strassen(&r);
	return tu_finish("test_ladder");
}
