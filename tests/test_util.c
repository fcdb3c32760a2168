/* test_util.c - see test_util.h. */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "test_util.h"

long tu_passed, tu_failed;

void tu_check_(int ok, const char *file, int line, const char *fmt, ...)
{
	if (ok) {
		tu_passed++;
		return;
	}
	tu_failed++;
	if (tu_failed > 50)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "FAIL %s:%d: ", file, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	if (tu_failed == 50)
		fprintf(stderr, "(further failures not printed)\n");
}

int tu_finish(const char *name)
{
	printf("%s: %ld passed, %ld failed\n", name, tu_passed, tu_failed);
	return tu_failed == 0 ? 0 : 1;
}

uint64_t tu_seed(void)
{
	static uint64_t seed;
	static int done;
	if (!done) {
		const char *s = getenv("GK_TEST_SEED");
		if (s != NULL && *s != '\0') {
			seed = strtoull(s, NULL, 0);
		} else {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			seed = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec;
		}
		printf("seed: GK_TEST_SEED=%llu\n", (unsigned long long)seed);
		fflush(stdout);
		done = 1;
	}
	return seed;
}

void tu_rng_init(tu_rng *r, uint64_t seed)
{
	r->s = seed ^ 0x9e3779b97f4a7c15ull;
}

uint64_t tu_next(tu_rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double tu_uniform(tu_rng *r)
{
	return (double)(tu_next(r) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

void tu_fill_f32(float *x, size_t n, tu_rng *r)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)tu_uniform(r);
}

void tu_fill_f64(double *x, size_t n, tu_rng *r)
{
	for (size_t i = 0; i < n; i++)
		x[i] = tu_uniform(r);
}

size_t tu_esize(unsigned dt)
{
	return dt == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
}

double tu_getv(unsigned dt, const void *x, int64_t i)
{
	return dt == GK_DTYPE_F32 ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

void tu_setv(unsigned dt, void *x, int64_t i, double v)
{
	if (dt == GK_DTYPE_F32)
		((float *)x)[i] = (float)v;
	else
		((double *)x)[i] = v;
}

void tu_fill(unsigned dt, void *x, size_t n, tu_rng *r)
{
	if (dt == GK_DTYPE_F32)
		tu_fill_f32(x, n, r);
	else
		tu_fill_f64(x, n, r);
}

double tu_unit_roundoff(unsigned dt)
{
	return dt == GK_DTYPE_F32 ? 0x1p-24 : 0x1p-53;
}

void *tu_xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	if (p == NULL) {
		fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
		exit(2);
	}
	return p;
}

void tu_poison_f32(float *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = nanf("");
}

void tu_poison_f64(double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = nan("");
}

size_t tu_extent(gk_layout layout, int64_t rows, int64_t cols, int64_t ld)
{
	if (rows == 0 || cols == 0)
		return 0;
	if (layout == GK_ROW_MAJOR)
		return (size_t)((rows - 1) * ld + cols);
	return (size_t)((cols - 1) * ld + rows);
}

int tu_padding_intact(unsigned dtype, gk_layout layout, int64_t m, int64_t n,
                      const void *c, const void *before, int64_t ldc)
{
	const size_t es = dtype == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	/* An empty matrix occupies nothing (tu_extent is 0): no padding to check. */
	if (m == 0 || n == 0)
		return 1;
	const int64_t outer = layout == GK_ROW_MAJOR ? m : n;
	const int64_t inner = layout == GK_ROW_MAJOR ? n : m;
	for (int64_t o = 0; o + 1 < outer; o++) {
		size_t from = (size_t)(o * ldc + inner), len = (size_t)(ldc - inner);
		if (memcmp((const char *)c + from * es, (const char *)before + from * es, len * es) != 0)
			return 0;
	}
	return 1;
}

gk_context *tu_context_new(int threads, unsigned flags)
{
	gk_context *ctx = NULL;
	if (gk_context_create(&ctx) != GK_OK || gk_context_set_threads(ctx, threads) != GK_OK ||
	    gk_context_set_flags(ctx, flags) != GK_OK) {
		fprintf(stderr, "tu_context_new: cannot set up a context\n");
		exit(2);
	}
	return ctx;
}

static _Atomic int hog_stop;
static pthread_t hog_tid;

static void *hog_main(void *arg)
{
	(void)arg;
	volatile unsigned long x = 0;
	while (!atomic_load_explicit(&hog_stop, memory_order_relaxed))
		x++;
	return NULL;
}

void tu_hog_start(void)
{
	atomic_store(&hog_stop, 0);
	if (pthread_create(&hog_tid, NULL, hog_main, NULL) != 0) {
		fprintf(stderr, "tu_hog_start: cannot start the busy thread\n");
		exit(2);
	}
}

void tu_hog_stop(void)
{
	atomic_store(&hog_stop, 1);
	pthread_join(hog_tid, NULL);
}

int tu_elem_ok(unsigned dt, double got, const void *x, int64_t sx, const void *y, int64_t sy,
               int64_t k, double alpha, double beta, double c0, long double *want)
{
	long double s = 0, mag = 0;
	for (int64_t l = 0; l < k; l++) {
		const long double pr = (long double)tu_getv(dt, x, l * sx) * tu_getv(dt, y, l * sy);
		s += pr;
		mag += fabsl(pr);
	}
	s *= alpha;
	mag *= fabs(alpha);
	if (beta != 0.0) {
		s += (long double)beta * c0;
		mag += fabsl((long double)beta * c0);
	}
	*want = s;
	return fabsl((long double)got - s) <= 2.0L * (k + 2) * tu_unit_roundoff(dt) * mag;
}

void tu_gemm_prob_set(tu_gemm_prob *p, unsigned dt, gk_layout layout, gk_trans ta, gk_trans tb,
                      int64_t m, int64_t n, int64_t k, double alpha, double beta)
{
	memset(p, 0, sizeof *p);
	p->dt = dt;
	p->layout = layout;
	p->ta = ta;
	p->tb = tb;
	p->m = m;
	p->n = n;
	p->k = k;
	p->alpha = alpha;
	p->beta = beta;
}

gk_status tu_gemm_prob_run(tu_gemm_prob *p, const gk_context *ctx)
{
	memcpy(p->c, p->c0, (p->ecg ? p->ecg : p->ec) * tu_esize(p->dt));
	if (p->dt == GK_DTYPE_F32) {
		if (ctx == NULL)
			return gk_sgemm(p->layout, p->ta, p->tb, p->m, p->n, p->k, (float)p->alpha, p->a,
			                p->lda, p->b, p->ldb, (float)p->beta, p->c, p->ldc);
		return gk_sgemm_ex(ctx, p->layout, p->ta, p->tb, p->m, p->n, p->k, (float)p->alpha,
		                   p->a, p->lda, p->b, p->ldb, (float)p->beta, p->c, p->ldc);
	}
	if (ctx == NULL)
		return gk_dgemm(p->layout, p->ta, p->tb, p->m, p->n, p->k, p->alpha, p->a, p->lda, p->b,
		                p->ldb, p->beta, p->c, p->ldc);
	return gk_dgemm_ex(ctx, p->layout, p->ta, p->tb, p->m, p->n, p->k, p->alpha, p->a, p->lda,
	                   p->b, p->ldb, p->beta, p->c, p->ldc);
}

void tu_gemm_prob_free(tu_gemm_prob *p)
{
	free(p->a);
	free(p->b);
	free(p->c);
	free(p->c0);
	free(p->rows);
	free(p->ref);
}

int tu_tile_check(unsigned dt, int64_t mv, int64_t nv, int64_t k, const void *a, int64_t rs_a,
                  int64_t cs_a, const void *b, int64_t rs_b, int64_t cs_b, double alpha,
                  double beta, const void *c, const void *c0, int64_t lc, int64_t off,
                  int64_t rs_c, int *outside)
{
	const size_t es = tu_esize(dt);
	int bad = 0;
	*outside = 0;
	for (int64_t x = 0; x < lc; x++) {
		const int64_t i = (x - off) / rs_c - ((x - off) < 0), j = x - off - i * rs_c;
		if (i < 0 || i >= mv || j < 0 || j >= nv) {
			*outside += memcmp((const char *)c + x * es, (const char *)c0 + x * es, es) != 0;
			continue;
		}
		long double s;
		const double got = tu_getv(dt, c, x);
		if (!tu_elem_ok(dt, got, (const char *)a + (size_t)(i * rs_a) * es, cs_a,
		                (const char *)b + (size_t)(j * cs_b) * es, rs_b, k, alpha, beta,
		                tu_getv(dt, c0, x), &s) &&
		    bad++ == 0)
			fprintf(stderr, "  C(%lld,%lld) = %.9g, expected %.9Lg\n", (long long)i,
			        (long long)j, got, s);
	}
	return bad;
}

void tu_gemm_prob_alloc(tu_gemm_prob *p, size_t guard, tu_rng *r)
{
	const int at = p->ta != GK_NO_TRANS, bt = p->tb != GK_NO_TRANS;
	p->ea = tu_extent(p->layout, at ? p->k : p->m, at ? p->m : p->k, p->lda);
	p->eb = tu_extent(p->layout, bt ? p->n : p->k, bt ? p->k : p->n, p->ldb);
	p->ec = tu_extent(p->layout, p->m, p->n, p->ldc);
	p->ecg = guard ? p->ec + guard : 0;
	const size_t es = tu_esize(p->dt), lc = guard ? p->ecg : p->ec;
	p->a = tu_xmalloc(p->ea * es);
	p->b = tu_xmalloc(p->eb * es);
	p->c = tu_xmalloc(lc * es);
	p->c0 = tu_xmalloc(lc * es);
	tu_fill(p->dt, p->a, p->ea, r);
	tu_fill(p->dt, p->b, p->eb, r);
}

void *tu_tile_c(unsigned dt, int64_t mv, int64_t nv, int64_t rs_c, int64_t off, int64_t lc,
                double beta, void **c0, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	void *c = tu_xmalloc((size_t)lc * es);
	*c0 = tu_xmalloc((size_t)lc * es);
	tu_fill(dt, c, (size_t)lc, r);
	if (beta == 0.0)
		for (int64_t i = 0; i < mv; i++)
			for (int64_t j = 0; j < nv; j++)
				tu_setv(dt, c, off + i * rs_c + j, NAN);
	memcpy(*c0, c, (size_t)lc * es);
	return c;
}

char tu_doing[512];
static const char *fault_why;

/* Async-signal-safe: write(2) only. */
static void on_fault(int sig)
{
	static const char pre[] = "FAIL: fault (signal ";
	const char num[5] = {(char)('0' + sig / 10 % 10), (char)('0' + sig % 10), ')', ' ', 0};
	ssize_t w = write(2, pre, sizeof pre - 1);
	w += write(2, num, 4);
	w += write(2, tu_doing, strnlen(tu_doing, sizeof tu_doing));
	w += write(2, " - ", 3);
	w += write(2, fault_why, strlen(fault_why));
	w += write(2, "\n", 1);
	(void)w;
	_exit(1);
}

void tu_catch_faults(const char *why)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	fault_why = why;
	sa.sa_handler = why != NULL ? on_fault : SIG_DFL;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}
