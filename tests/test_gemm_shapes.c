/*
 * test_gemm_shapes.c - small, skinny and lopsided shapes through "auto"
 * (cpu.blocked), and the reproducibility rules of docs/ARCHITECTURE.md
 * ("Determinism"); the unpacked microkernels behind them are tested in
 * isolation by test_gemm_unpacked.c.
 *
 *  - Through the public API, against the long-double reference with
 *    gkc_gemm_bound: M and N in 1..17 with K up to 3e5 (the depth split
 *    among threads), small cubes, 64 x 1000 x 1000 and 1000 x 1000 x 64 on
 *    sampled rows; all transposes and both layouts on a subset; 1 to 4
 *    threads.
 *  - The same call twice with the same thread count gives the same bits;
 *    with GK_FLAG_DETERMINISTIC, 1, 2, 3, 4, 8 and 16 threads give the same
 *    bits.
 *  - GEMMs called from inside an OpenMP parallel region.
 * Inputs are fresh random numbers (GK_TEST_SEED to repeat); C starts as NaN
 * when beta = 0, and its padding must come out unchanged.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gk_internal.h"
#include "test_util.h"

#define GEMM_FACTOR 2.0
#define SAMPLE_ROWS 6

/* ------------------------------------------------------------------------ */
/* Through the API                                                           */
/* ------------------------------------------------------------------------ */

typedef tu_gemm_prob prob;

/* The problem, with ldb given (0: the least plus 0 to 2, at random). */
static void prob_init_ldb(prob *p, unsigned dt, gk_layout layout, gk_trans ta, gk_trans tb,
                          int64_t m, int64_t n, int64_t k, double alpha, double beta, int sample,
                          int64_t ldb, tu_rng *r)
{
	tu_gemm_prob_set(p, dt, layout, ta, tb, m, n, k, alpha, beta);
	const int rm = layout == GK_ROW_MAJOR;
	const int64_t ra = ta != GK_NO_TRANS ? k : m, ca = ta != GK_NO_TRANS ? m : k;
	const int64_t rb = tb != GK_NO_TRANS ? n : k, cb = tb != GK_NO_TRANS ? k : n;
	p->lda = (rm ? ca : ra) + (int64_t)(tu_next(r) % 3);
	p->ldb = ldb > 0 ? ldb : (rm ? cb : rb) + (int64_t)(tu_next(r) % 3);
	p->ldc = (rm ? n : m) + (int64_t)(tu_next(r) % 3);
	tu_gemm_prob_alloc(p, 0, r);
	const size_t es = tu_esize(dt);
	if (beta == 0.0) {
		if (dt == GK_DTYPE_F32)
			tu_poison_f32(p->c0, p->ec);
		else
			tu_poison_f64(p->c0, p->ec);
	} else {
		tu_fill(dt, p->c0, p->ec, r);
	}
	memcpy(p->c, p->c0, p->ec * es);
	if (sample && m > SAMPLE_ROWS) {
		p->nrows = SAMPLE_ROWS;
		p->rows = tu_xmalloc(sizeof(int64_t) * SAMPLE_ROWS);
		p->rows[0] = 0;
		p->rows[1] = m - 1;
		for (int i = 2; i < SAMPLE_ROWS; i++)
			p->rows[i] = (int64_t)(tu_next(r) % (uint64_t)m);
	} else {
		p->nrows = m;
	}
	snprintf(p->desc, sizeof p->desc, "%s %s %c%c %lldx%lldx%lld alpha=%g beta=%g",
	         dt == GK_DTYPE_F32 ? "f32" : "f64", rm ? "row" : "col",
	         ta == GK_NO_TRANS ? 'N' : 'T', tb == GK_NO_TRANS ? 'N' : 'T', (long long)m,
	         (long long)n, (long long)k, alpha, beta);
}

static void prob_init(prob *p, unsigned dt, gk_layout layout, gk_trans ta, gk_trans tb, int64_t m,
                      int64_t n, int64_t k, double alpha, double beta, int sample, tu_rng *r)
{
	prob_init_ldb(p, dt, layout, ta, tb, m, n, k, alpha, beta, sample, 0, r);
}

/* The result in p->c against the reference; returns 1 when it is right. */
static int prob_check(prob *p, gk_status st, const char *who)
{
	TU_CHECK(st == GK_OK, "%s %s: status %d: %s", who, p->desc, (int)st, gk_last_error());
	if (st != GK_OK)
		return 0;
	TU_CHECK(tu_padding_intact(p->dt, p->layout, p->m, p->n, p->c, p->c0, p->ldc),
	         "%s %s: changed the padding of C", who, p->desc);
	if (p->ref == NULL) {
		p->ref = tu_xmalloc(sizeof(long double) * (size_t)(p->nrows * p->n));
		gkc_ref_gemm(p->dt, p->layout, p->ta, p->tb, p->m, p->n, p->k, p->alpha, p->a, p->lda,
		             p->b, p->ldb, p->beta, p->c0, p->ldc, p->rows, p->nrows, p->ref);
	}
	const double err = gkc_gemm_error(p->dt, p->layout, p->ta, p->tb, p->m, p->n, p->k, p->alpha,
	                                  p->a, p->lda, p->b, p->ldb, p->beta, p->c0, p->c, p->ldc,
	                                  p->rows, p->nrows, p->ref);
	const double bound = gkc_gemm_bound(p->dt, p->k, GEMM_FACTOR);
	TU_CHECK(err <= bound, "%s %s: normwise error %.3g > bound %.3g", who, p->desc, err, bound);
	return err <= bound;
}

static const double alphas[] = {1.0, -0.5, 1.0, 2.0};
static const double betas[] = {0.0, 0.0, 1.0, -1.5};

/* Skinny: every m in 1..17 with a spread of n in 1..17 and k up to 3200,
 * then a few with k up to 3e5 (the depth split among threads); threads 1
 * to 4, transposes and layouts in turn. */
static void test_skinny(unsigned dt, tu_rng *r)
{
	gk_context *ctx[5];
	for (int t = 1; t <= 4; t++)
		ctx[t] = tu_context_new(t, 0u);
	int c = 0;
	for (int64_t m = 1; m <= 17; m++)
		for (int64_t n = 1; n <= 17; n += (m % 4) + 1, c++) {
			const int64_t k = 200 + (int64_t)(tu_next(r) % 3000);
			prob p;
			prob_init(&p, dt, c % 5 == 4 ? GK_COL_MAJOR : GK_ROW_MAJOR,
			          c % 3 == 2 ? GK_TRANS : GK_NO_TRANS, c % 4 == 3 ? GK_TRANS : GK_NO_TRANS,
			          m, n, k, alphas[c % 4], betas[c % 4], 0, r);
			prob_check(&p, tu_gemm_prob_run(&p, ctx[1 + c % 4]), "skinny");
			tu_gemm_prob_free(&p);
		}
	static const int64_t longk[][3] = {{8, 8, 300000}, {16, 16, 100000}, {17, 3, 150000},
	                                   {1, 1, 200000}, {5, 17, 60000}, {13, 9, 40000}};
	for (int i = 0; i < 6; i++)
		for (int t = 1; t <= 4; t += (i % 2) + 1) {
			prob p;
			prob_init(&p, dt, (i + t) % 3 == 2 ? GK_COL_MAJOR : GK_ROW_MAJOR,
			          t == 3 ? GK_TRANS : GK_NO_TRANS, (i + t) % 4 == 1 ? GK_TRANS : GK_NO_TRANS,
			          longk[i][0], longk[i][1], longk[i][2], alphas[(i + t) % 4],
			          betas[(i + t) % 4], 0, r);
			prob_check(&p, tu_gemm_prob_run(&p, ctx[t]), "skinny, long k");
			tu_gemm_prob_free(&p);
		}
	for (int t = 1; t <= 4; t++)
		gk_context_destroy(ctx[t]);
}

/* Small cubes and shapes around the tiles, all transposes and layouts on
 * a subset, and the lopsided 64 x 1000 x 1000 and 1000 x 1000 x 64. */
static void test_small_and_lopsided(unsigned dt, tu_rng *r)
{
	gk_context *c1 = tu_context_new(1, 0u), *c2 = tu_context_new(2, 0u), *c3 = tu_context_new(3, 0u);
	static const int64_t sizes[] = {1, 2, 5, 6, 7, 8, 13, 16, 17, 24, 31, 32, 33, 48, 63, 64,
	                                65, 100, 128, 129, 200};
	const int ns = (int)(sizeof sizes / sizeof sizes[0]);
	for (int i = 0; i < ns; i++) {
		prob p;
		prob_init(&p, dt, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, sizes[i], sizes[i], sizes[i],
		          alphas[i % 4], betas[i % 4], 0, r);
		prob_check(&p, tu_gemm_prob_run(&p, i % 2 ? c2 : c1), "cube");
		tu_gemm_prob_free(&p);
	}
	for (int i = 0; i < 32; i++) {
		const int lay = i & 1, tt = (i >> 1) & 3;
		prob p;
		prob_init(&p, dt, lay ? GK_COL_MAJOR : GK_ROW_MAJOR, tt & 1 ? GK_TRANS : GK_NO_TRANS,
		          tt & 2 ? GK_CONJ_TRANS : GK_NO_TRANS, sizes[tu_next(r) % ns],
		          sizes[tu_next(r) % ns], sizes[tu_next(r) % ns], alphas[i % 4],
		          betas[(i / 4) % 4], 0, r);
		prob_check(&p, tu_gemm_prob_run(&p, i % 3 == 0 ? c1 : i % 3 == 1 ? c2 : c3), "transposes");
		tu_gemm_prob_free(&p);
	}
	static const int64_t lop[][3] = {{64, 1000, 1000}, {1000, 1000, 64}, {1000, 64, 1000},
	                                 {37, 1500, 800}, {513, 300, 200}, {2, 800, 700},
	                                 {700, 3, 600}, {1200, 40, 900},
	                                 /* all rows one block of A, deep: the
	                                  * packed way's shallower kc */
	                                 {100, 500, 1100}, {250, 300, 1300},
	                                 /* packed, C a few tiles wide: the
	                                  * last columns in edge tiles */
	                                 {301, 66, 307}, {250, 72, 300}, {187, 79, 260},
	                                 {333, 100, 301}, {150, 136, 290}, {97, 157, 257}};
	for (int i = 0; i < (int)(sizeof lop / sizeof lop[0]); i++) {
		prob p;
		const int col = i == 4 || i == 11 || i == 14;
		prob_init(&p, dt, col ? GK_COL_MAJOR : GK_ROW_MAJOR, i == 2 ? GK_TRANS : GK_NO_TRANS,
		          i == 3 ? GK_TRANS : GK_NO_TRANS, lop[i][0], lop[i][1], lop[i][2],
		          alphas[i % 4], betas[i % 4], 1, r);
		prob_check(&p, tu_gemm_prob_run(&p, i % 2 ? c1 : c2), "lopsided");
		tu_gemm_prob_free(&p);
	}
	/* Few rows of a B whose rows lie a multiple of 4 KiB apart, n and k
	 * past GK_BLOCKED_SKINNY_ALIAS_MIN: packed with the kernel sets whose
	 * unpacked slivers are a line wide (AVX2: the GK_ARCH=avx2 run of this
	 * test), else unpacked. Row major, A by rows and by columns. */
	static const int64_t sk[][3] = {{7, 1000, 300}, {12, 500, 280}, {20, 400, 700}, {32, 300, 260}};
	for (int i = 0; i < 8; i++) {
		const int64_t *d = sk[i % 4];
		const int64_t es = (int64_t)tu_esize(dt), ldb = (d[1] * es + 4095) / 4096 * 4096 / es;
		prob p;
		prob_init_ldb(&p, dt, GK_ROW_MAJOR, i >= 4 ? GK_TRANS : GK_NO_TRANS, GK_NO_TRANS, d[0],
		              d[1], d[2], alphas[i % 4], betas[(i + 1) % 4], 1, ldb, r);
		prob_check(&p, tu_gemm_prob_run(&p, i % 2 ? c1 : c2), "skinny, B rows 4 KiB apart");
		tu_gemm_prob_free(&p);
	}
	gk_context_destroy(c1);
	gk_context_destroy(c2);
	gk_context_destroy(c3);
}

/* Bits: the same call twice with the same thread count (no flag), and with
 * GK_FLAG_DETERMINISTIC the same bits from 1, 2, 3, 4, 8 and 16 threads. Shapes
 * for every way through cpu.blocked: skinny with the depth split, small
 * and thin unpacked, packed with a shared panel, packed by columns, dot
 * products, axpy rows, and small ones packed for B's rows 2 or 4 KiB apart
 * (130 x 511 x 200 and 100 x 510 x 90 each get ldb 512 in one precision
 * from the generator's padding), a shallow one whose panel is cut to a
 * quarter of L2 (200 x 2500 x 32, with the blocks from the caches), and a
 * deep one whose C is larger than four 2 MiB L2s (1500 x 1450 x 900: the
 * deep kc of the tall AVX-512 tiles where the L1 is 48 KiB, k cut into two
 * equal blocks), rows of C whose columns the axpy way cuts by the
 * thread count (2 x 3001 x 300, 1 x 2999 x 260), and deep products whose
 * depth way 6 cuts by the thread count (60 x 70 x 40000, 100 x 45 x
 * 30000), and a deep product whose rows all fit one block of A (120 x 400
 * x 1100: the packed way's shallower kc, from the shape alone), and a
 * narrow one whose one-thread calls go straight to the unpacked kernel
 * (2000 x 16 x 60: k within the kc of every rule, but not within that of
 * the small blocks of test_gemm_shapes_small_blocks, where it must be cut
 * as on more threads), small ones that gemmkit's entry sends to the
 * unpacked kernel itself (12 x 12 x 40 to 10 x 20 x 30; 10 x 20 x 30 with B
 * transposed, packed on the stack), and a narrow one with B transposed
 * that goes to the dot tiles on every thread count (2000 x 4 x 60), which
 * the entry's direct calls must leave to them, and small ones that take
 * way 1 on some thread counts and the packed way on others where a
 * kernel table's cube bounds way 1's work per thread (Intel: 480 x 470 x
 * 490 SGEMM, 200 x 220 x 240 DGEMM with the AVX-512 kernels, 400 x 380 x
 * 390 with the AVX2 ones), and small ones whose last few columns go to the
 * dot tiles apart from the rest (65 x 65 x 65, 100 x 66 x 120, 130 x 33 x
 * 300, by the kernel set), and 480 x 465 x 490, small on several threads
 * but not on one where the cube says so (Intel): its last column must not
 * go apart on some counts only. */
static void test_bits(unsigned dt, tu_rng *r)
{
	static const int64_t shapes[][3] = {{8, 8, 120000}, {16, 16, 50000}, {17, 5, 70000},
	                                    {3, 30, 40000}, {31, 32, 25000}, {150, 170, 190},
	                                    {600, 520, 700}, {60, 1400, 900}, {900, 6, 500},
	                                    {1000, 40, 700}, {700, 2, 600}, {2, 600, 700},
	                                    {130, 511, 200}, {96, 511, 80}, {100, 510, 90},
	                                    {200, 2500, 32}, {1500, 1450, 900}, {2, 3001, 300},
	                                    {1, 2999, 260}, {60, 70, 40000}, {100, 45, 30000},
	                                    {2000, 16, 60}, {120, 400, 1100}, {12, 12, 40},
	                                    {24, 20, 50}, {2000, 4, 60}, {40, 64, 64}, {7, 9, 11},
	                                    {10, 20, 30}, {480, 470, 490}, {200, 220, 240},
	                                    {400, 380, 390}, {65, 65, 65}, {100, 66, 120},
	                                    {130, 33, 300}, {480, 465, 490}};
	const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
	/* Past 4 threads, 8 and 16: with fewer row blocks of A than threads,
	 * the packed way cuts the rows by the thread count (600 x 520 x 700,
	 * 1500 x 1450 x 900), which must change no sum. */
	static const int counts[] = {1, 2, 3, 4, 8, 16};
	enum { NCOUNTS = (int)(sizeof counts / sizeof counts[0]) };
	gk_context *plain[2] = {tu_context_new(2, 0u), tu_context_new(3, 0u)}, *det[NCOUNTS];
	for (int i = 0; i < NCOUNTS; i++)
		det[i] = tu_context_new(counts[i], GK_FLAG_DETERMINISTIC);
	const size_t es = tu_esize(dt);
	for (int s = 0; s < nshapes; s++) {
		prob p;
		prob_init(&p, dt, GK_ROW_MAJOR, s % 4 == 3 ? GK_TRANS : GK_NO_TRANS,
		          s % 3 == 1 ? GK_TRANS : GK_NO_TRANS, shapes[s][0], shapes[s][1],
		          shapes[s][2], alphas[s % 4], betas[s % 4], 1, r);
		void *first = tu_xmalloc(p.ec * es);
		/* Fixed thread count, no flag: two runs, the same bits. */
		for (int t = 2; t <= 3; t++) {
			gk_status st = tu_gemm_prob_run(&p, plain[t - 2]);
			memcpy(first, p.c, p.ec * es);
			gk_status st2 = tu_gemm_prob_run(&p, plain[t - 2]);
			TU_CHECK(st == GK_OK && st2 == GK_OK && memcmp(first, p.c, p.ec * es) == 0,
			         "%s, %d threads: two runs differ", p.desc, t);
			if (t == 2)
				prob_check(&p, st2, "bits");
		}
		/* The flag: every thread count gives the bits of one thread. */
		gk_status st = tu_gemm_prob_run(&p, det[0]);
		memcpy(first, p.c, p.ec * es);
		prob_check(&p, st, "deterministic, 1 thread");
		for (int i = 1; i < NCOUNTS; i++) {
			st = tu_gemm_prob_run(&p, det[i]);
			TU_CHECK(st == GK_OK && memcmp(first, p.c, p.ec * es) == 0,
			         "%s, GK_FLAG_DETERMINISTIC: %d threads differ from 1", p.desc, counts[i]);
		}
		free(first);
		tu_gemm_prob_free(&p);
	}
	for (int i = 0; i < 2; i++)
		gk_context_destroy(plain[i]);
	for (int i = 0; i < NCOUNTS; i++)
		gk_context_destroy(det[i]);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Products on 2 and 3 threads called again and again: the driver times
 * its first calls on one thread and on the threads allowed, then keeps the
 * faster (src/core/adapt.c), so the calls of one context run on different
 * counts. Every call must give the bits of the first, and that one a
 * correct product. The last shape is past the small products: its calls
 * on the threads are timed for 16 ms before those on one thread, so it is
 * called until that has passed. */
static void test_adapt_bits(unsigned dt, tu_rng *r)
{
	static const int64_t shapes[][3] = {{64, 64, 64}, {80, 72, 90}, {100, 64, 64}, {50, 120, 60},
	                                    {61, 61, 61}, {150, 160, 170}};
	const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
	const size_t es = tu_esize(dt);
	for (int t = 2; t <= 3; t++) {
		gk_context *ctx = tu_context_new(t, 0u);
		for (int s = 0; s < nshapes; s++) {
			prob p;
			prob_init(&p, dt, GK_ROW_MAJOR, s % 2 ? GK_TRANS : GK_NO_TRANS, GK_NO_TRANS,
			          shapes[s][0], shapes[s][1], shapes[s][2], alphas[s % 4], betas[s % 4], 1, r);
			void *first = tu_xmalloc(p.ec * es);
			gk_status st = tu_gemm_prob_run(&p, ctx);
			memcpy(first, p.c, p.ec * es);
			prob_check(&p, st, "adaptive threads, first call");
			int differ = 0, calls = 0;
			const double t0 = now_s();
			for (; calls < 40 || (s == nshapes - 1 && now_s() - t0 < 0.05 && calls < 5000);
			     calls++) {
				st = tu_gemm_prob_run(&p, ctx);
				differ += st != GK_OK || memcmp(first, p.c, p.ec * es) != 0;
			}
			TU_CHECK(differ == 0, "%s, %d threads: %d of %d repeated calls differ from the first",
			         p.desc, t, differ, calls);
			free(first);
			tu_gemm_prob_free(&p);
		}
		gk_context_destroy(ctx);
	}
}

/* GEMMs from inside a parallel region: each thread its own problems, with
 * the default thread count (1 there) and with an explicit 2 (nested). */
static void test_in_parallel(unsigned dt, tu_rng *r)
{
	static const int64_t shapes[][3] = {{8, 8, 60000}, {40, 30, 50}, {300, 200, 250},
	                                    {16, 3, 30000}};
	prob p[4];
	void *res[4][2];
	gk_status st[4][2];
	for (int i = 0; i < 4; i++) {
		prob_init(&p[i], dt, GK_ROW_MAJOR, GK_NO_TRANS, i == 2 ? GK_TRANS : GK_NO_TRANS,
		          shapes[i][0], shapes[i][1], shapes[i][2], alphas[i], betas[i], 1, r);
		res[i][0] = tu_xmalloc(p[i].ec * tu_esize(dt));
		res[i][1] = tu_xmalloc(p[i].ec * tu_esize(dt));
	}
	gk_context *two = tu_context_new(2, 0u);
#pragma omp parallel for num_threads(2) schedule(static, 1)
	for (int i = 0; i < 4; i++) {
		for (int w = 0; w < 2; w++) {
			st[i][w] = tu_gemm_prob_run(&p[i], w == 0 ? NULL : two);
			memcpy(res[i][w], p[i].c, p[i].ec * tu_esize(dt));
		}
	}
	for (int i = 0; i < 4; i++) {
		for (int w = 0; w < 2; w++) {
			memcpy(p[i].c, res[i][w], p[i].ec * tu_esize(dt));
			prob_check(&p[i], st[i][w], w == 0 ? "inside a parallel region, default threads"
			                                   : "inside a parallel region, 2 threads");
			free(res[i][w]);
		}
		tu_gemm_prob_free(&p[i]);
	}
	gk_context_destroy(two);
}

int main(void)
{
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	const char *blocks = getenv("GK_GEMM_BLOCKS");
	printf("cache blocks: %s\n", blocks && *blocks ? blocks : "from the caches");
	printf("kernel set in use: %s\n", gk_kernels_active()->name);
	for (int d = 0; d < 2; d++) {
		const unsigned dt = d == 0 ? GK_DTYPE_F32 : GK_DTYPE_F64;
		test_skinny(dt, &r);
		test_small_and_lopsided(dt, &r);
		test_bits(dt, &r);
		test_adapt_bits(dt, &r);
		test_in_parallel(dt, &r);
	}
	return tu_finish("test_gemm_shapes");
}
