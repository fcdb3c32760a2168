/*
 * test_cuda_hostmem.c - the out-of-core driver of host-pointer GPU calls
 * (src/cuda/hostmem/, docs/CUDA_HOSTMEM.md) through the public API:
 * gk_sgemm_ex / gk_dgemm_ex with the CUDA backend and a device budget small
 * enough to force many tiles (ragged edges, odd sizes, every transpose,
 * both layouts, beta = 0 with NaN in C and beta != 0, pageable and pinned
 * operands, staged and registered pageable memory, every precision mode),
 * each against the long double reference with its mode's bound and
 * against the same call with the default budget (in core). Then injected
 * failures (gk_hm_set_fail_at: the n-th stream, event, buffer or
 * registration of a call fails): each returns a status and leaves device
 * memory and the caller's pages as they were.
 *
 * Without CUDA or without a device: the budget setter is checked and the
 * test exits 77. GK_TEST_SMALL=1 runs a short list (compute-sanitizer).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemm_check.h"
#include "test_util.h"
#include "../src/cuda/hostmem/hostmem.h"
#ifdef GK_TEST_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#define FACTOR 8.0

#ifdef GK_TEST_HAVE_CUDA
static int small;

/* A host buffer of `bytes`, pinned (cudaHostAlloc) or pageable. */
static void *host_alloc(size_t bytes, int pinned)
{
	void *p = NULL;
	if (pinned) {
		if (cudaHostAlloc(&p, bytes ? bytes : 8, cudaHostAllocDefault) != cudaSuccess)
			return NULL;
		return p;
	}
	return malloc(bytes ? bytes : 8);
}

static void host_free(void *p, int pinned)
{
	if (pinned)
		cudaFreeHost(p);
	else
		free(p);
}

typedef struct kase {
	int f64;
	gk_precision mode;
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k, pad;
	double alpha, beta;
	int pinned;
	const char *pageable; /* GK_HOSTMEM_PAGEABLE, or NULL */
	double budget_frac;   /* of A + B + C */
} kase;

static void run_case(const kase *t, tu_rng *r)
{
	const size_t es = t->f64 ? 8 : 4;
	const unsigned dtype = t->f64 ? GK_DTYPE_F64 : GK_DTYPE_F32;
	const int rm = t->layout == GK_ROW_MAJOR;
	const int tra = t->ta != GK_NO_TRANS, trb = t->tb != GK_NO_TRANS;
	const int64_t ra = tra ? t->k : t->m, ca = tra ? t->m : t->k;
	const int64_t rb = trb ? t->n : t->k, cb = trb ? t->k : t->n;
	const int64_t lda = (rm ? ca : ra) + t->pad, ldb = (rm ? cb : rb) + t->pad;
	const int64_t ldc = (rm ? t->n : t->m) + t->pad;
	const size_t na = tu_extent(t->layout, ra, ca, lda), nb = tu_extent(t->layout, rb, cb, ldb);
	const size_t nc = tu_extent(t->layout, t->m, t->n, ldc);
	void *a = host_alloc(na * es, t->pinned), *b = host_alloc(nb * es, t->pinned);
	void *c = host_alloc(nc * es, t->pinned), *c0 = malloc(nc * es), *cin = malloc(nc * es);
	long double *ref = malloc((size_t)t->m * (size_t)t->n * sizeof *ref);
	TU_CHECK(a && b && c && c0 && cin && ref, "alloc");
	if (!a || !b || !c || !c0 || !cin || !ref)
		exit(1);
	if (t->f64) {
		tu_fill_f64(a, na, r), tu_fill_f64(b, nb, r), tu_fill_f64(c0, nc, r);
	} else {
		tu_fill_f32(a, na, r), tu_fill_f32(b, nb, r), tu_fill_f32(c0, nc, r);
	}
	if (t->beta == 0) {
		if (t->f64)
			tu_poison_f64(c0, nc);
		else
			tu_poison_f32(c0, nc);
	}
	gkc_ref_gemm(dtype, t->layout, t->ta, t->tb, t->m, t->n, t->k, t->alpha, a, lda, b, ldb, t->beta,
	             t->beta == 0 ? NULL : c0, ldc, NULL, t->m, ref);
	gk_context *ctx = NULL;
	gk_context_create(&ctx);
	gk_context_set_backend(ctx, GK_BACKEND_CUDA);
	gk_context_set_precision(ctx, t->mode);
	const size_t all = (size_t)(t->m * t->k + t->k * t->n + t->m * t->n) * es;
	const size_t budget = (size_t)(t->budget_frac * (double)all);
	if (t->pageable)
		setenv("GK_HOSTMEM_PAGEABLE", t->pageable, 1);
	char what[200];
	snprintf(what, sizeof what, "%s %s %s %c%c %lldx%lldx%lld pad %lld alpha %g beta %g %s%s%s budget %.3g",
	         t->f64 ? "d" : "s", gk_precision_name(t->mode), rm ? "row" : "col", tra ? 'T' : 'N',
	         trb ? 'T' : 'N', (long long)t->m, (long long)t->n, (long long)t->k, (long long)t->pad, t->alpha,
	         t->beta, t->pinned ? "pinned" : "pageable", t->pageable ? " " : "", t->pageable ? t->pageable : "",
	         t->budget_frac);
	double err[2] = {0, 0};
	void *res[2] = {malloc(nc * es), malloc(nc * es)};
	for (int pass = 0; pass < 2; pass++) {
		/* pass 0: forced out of core; pass 1: the default budget. */
		gk_context_set_device_budget(ctx, pass == 0 ? budget : 0);
		memcpy(c, c0, nc * es);
		gk_status st = t->f64 ? gk_dgemm_ex(ctx, t->layout, t->ta, t->tb, t->m, t->n, t->k, t->alpha, a, lda,
		                                    b, ldb, t->beta, c, ldc)
		                      : gk_sgemm_ex(ctx, t->layout, t->ta, t->tb, t->m, t->n, t->k, (float)t->alpha, a,
		                                    lda, b, ldb, (float)t->beta, c, ldc);
		TU_CHECK(st == GK_OK, "%s pass %d: status %d (%s)", what, pass, st, gk_last_error());
		if (st != GK_OK)
			continue;
		err[pass] = gkc_gemm_error(dtype, t->layout, t->ta, t->tb, t->m, t->n, t->k, t->alpha, a, lda, b, ldb,
		                           t->beta, t->beta == 0 ? NULL : c0, c, ldc, NULL, t->m, ref);
		const double bound = gkc_gemm_bound_mode(dtype, t->k, t->f64 ? GK_PRECISION_STRICT : t->mode, FACTOR);
		TU_CHECK(err[pass] <= bound, "%s pass %d: error %.3g > bound %.3g", what, pass, err[pass], bound);
		TU_CHECK(tu_padding_intact(dtype, t->layout, t->m, t->n, c, c0, ldc), "%s: C's padding changed", what);
		memcpy(res[pass], c, nc * es);
	}
	if (t->pageable)
		unsetenv("GK_HOSTMEM_PAGEABLE");
	/* The caller's pages are not left registered. */
	if (!t->pinned) {
		struct cudaPointerAttributes at;
		cudaError_t e = cudaPointerGetAttributes(&at, a);
		if (e != cudaSuccess)
			cudaGetLastError();
		TU_CHECK(e != cudaSuccess || at.type != cudaMemoryTypeHost, "%s: A left registered", what);
	}
	gk_context_destroy(ctx);
	host_free(a, t->pinned), host_free(b, t->pinned), host_free(c, t->pinned);
	free(c0), free(cin), free(ref), free(res[0]), free(res[1]);
}

static size_t device_free(void)
{
	size_t f = 0, tot = 0;
	cudaDeviceSynchronize();
	cudaMemGetInfo(&f, &tot);
	return f;
}

/* Injected failures: every acquisition of a call fails in turn; each
 * returns a status, C's ... and leaves no device memory and no
 * registration behind; then the call succeeds. */
static void failures(const char *pageable, int pinned)
{
	const int64_t m = 700, n = 650, k = 600;
	float *a = host_alloc((size_t)m * k * 4, pinned), *b = host_alloc((size_t)k * n * 4, pinned);
	float *c = host_alloc((size_t)m * n * 4, pinned);
	tu_rng r;
	tu_rng_init(&r, 7);
	tu_fill_f32(a, (size_t)(m * k), &r), tu_fill_f32(b, (size_t)(k * n), &r), tu_fill_f32(c, (size_t)(m * n), &r);
	gk_context *ctx = NULL;
	gk_context_create(&ctx);
	gk_context_set_backend(ctx, GK_BACKEND_CUDA);
	gk_context_set_precision(ctx, GK_PRECISION_STRICT);
	gk_context_set_device_budget(ctx, (size_t)(m * k + k * n + m * n) * 4 / 5);
	if (pageable)
		setenv("GK_HOSTMEM_PAGEABLE", pageable, 1);
	/* Once first, so that the runtime, the staging cache and the launcher
	 * have what they keep; then the baseline. */
	gk_status st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
	TU_CHECK(st == GK_OK, "failures %s: warm-up %d (%s)", pageable ? pageable : "", st, gk_last_error());
	const size_t base = device_free();
	int n_fail = 0;
	for (int at = 1; at < 10000; at++) {
		gk_hm_set_fail_at(at);
		st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
		gk_hm_set_fail_at(0);
		const size_t now = device_free();
		TU_CHECK(now == base, "failure at %d (%s): device free %zu, was %zu", at, pageable ? pageable : "-", now,
		         base);
		if (!pinned) {
			struct cudaPointerAttributes pa;
			cudaError_t e = cudaPointerGetAttributes(&pa, a);
			if (e != cudaSuccess)
				cudaGetLastError();
			TU_CHECK(e != cudaSuccess || pa.type != cudaMemoryTypeHost, "failure at %d: A left registered", at);
		}
		if (st == GK_OK)
			break;
		n_fail++;
		TU_CHECK(st == GK_ERR_NO_MEMORY || st == GK_ERR_CUDA, "failure at %d: status %d", at, st);
		TU_CHECK(strlen(gk_last_error()) > 0, "failure at %d: no message", at);
	}
	TU_CHECK(n_fail >= 5, "only %d acquisitions failed", n_fail);
	printf("injected failures (%s, %s): %d, each returned a status and left nothing behind\n",
	       pageable ? pageable : "default", pinned ? "pinned" : "pageable", n_fail);
	if (pageable)
		unsetenv("GK_HOSTMEM_PAGEABLE");
	gk_context_destroy(ctx);
	host_free(a, pinned), host_free(b, pinned), host_free(c, pinned);
}
#endif

int main(void)
{
	gk_context *ctx = NULL;
	TU_CHECK(gk_context_create(&ctx) == GK_OK, "create");
	TU_CHECK(gk_context_device_budget(ctx) == 0, "default budget");
	TU_CHECK(gk_context_set_device_budget(ctx, 12345) == GK_OK && gk_context_device_budget(ctx) == 12345,
	         "set budget");
	TU_CHECK(gk_context_set_device_budget(NULL, 1) == GK_ERR_NULL_POINTER, "NULL ctx");
	TU_CHECK(gk_context_device_budget(NULL) == 0, "NULL ctx budget");
	gk_context_destroy(ctx);
#ifdef GK_TEST_HAVE_CUDA
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		tu_finish("test_cuda_hostmem");
		printf("skipped: no CUDA device\n");
		return 77;
	}
	small = getenv("GK_TEST_SMALL") != NULL;
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	static const int64_t shapes[][3] = {{257, 129, 300}, {1000, 999, 1001}, {33, 700, 65}, {1, 513, 77},
	                                    {600, 1, 600},   {300, 200, 2500}};
	static const gk_precision modes[] = {GK_PRECISION_STRICT, GK_PRECISION_ACCURATE, GK_PRECISION_TF32};
	const int nshapes = small ? 2 : 6;
	int ncases = 0;
	for (int s = 0; s < nshapes; s++)
		for (int f64 = 0; f64 < 2; f64++)
			for (int mi = 0; mi < (f64 ? 1 : 3); mi++)
				for (int v = 0; v < (small ? 2 : 4); v++) {
					kase t;
					memset(&t, 0, sizeof t);
					t.f64 = f64;
					t.mode = modes[mi];
					t.m = shapes[s][0], t.n = shapes[s][1], t.k = shapes[s][2];
					t.layout = (v & 1) ? GK_COL_MAJOR : GK_ROW_MAJOR;
					t.ta = (v + s) & 1 ? GK_TRANS : GK_NO_TRANS;
					t.tb = (v >> 1) & 1 ? GK_CONJ_TRANS : GK_NO_TRANS;
					t.pad = (v + mi) % 3 == 0 ? 3 : 0;
					t.alpha = v == 2 ? -0.75 : 1.0;
					t.beta = (v + s) % 3 == 0 ? 0.0 : (v == 1 ? 1.0 : -0.5);
					t.pinned = (v + s + mi) & 1;
					t.pageable = t.pinned ? NULL : ((v + s) % 3 == 2 ? "register" : NULL);
					/* From a third of the data down to a thirtieth (k split). */
					t.budget_frac = (v + s) % 3 == 0 ? 0.33 : (v + s) % 3 == 1 ? 0.12 : 0.035;
					run_case(&t, &r);
					ncases++;
				}
	printf("%d products forced out of core\n", ncases);
	failures(NULL, 0);
	if (!small) {
		failures("register", 0);
		failures(NULL, 1);
	}
	gk_hm_release_staging();
#else
	/* Without CUDA: the host-pointer call on the CUDA backend says so. */
	gk_context *cx = NULL;
	gk_context_create(&cx);
	gk_context_set_backend(cx, GK_BACKEND_CUDA);
	gk_context_set_device_budget(cx, 1 << 20);
	float x[4] = {1, 2, 3, 4}, y[4];
	const gk_status st = gk_sgemm_ex(cx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 2, 2, 1.0f, x, 2, x, 2, 0.0f,
	                                 y, 2);
	TU_CHECK(st == GK_ERR_NO_GPU, "host call on CUDA without CUDA: %d", st);
	gk_context_destroy(cx);
	tu_finish("test_cuda_hostmem");
	printf("skipped: gemmkit was built without CUDA\n");
	return 77;
#endif
	return tu_finish("test_cuda_hostmem");
}
