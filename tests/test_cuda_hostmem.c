/*
 * test_cuda_hostmem.c - the out-of-core driver of host-pointer GPU calls
 * (src/cuda/hostmem/, docs/CUDA_HOSTMEM.md) through the public API:
 * gk_sgemm_ex / gk_dgemm_ex with the CUDA backend and a device budget small
 * enough to force many tiles (ragged edges, odd sizes, every transpose,
 * both layouts, beta = 0 with NaN in C and beta != 0, pageable and pinned
 * operands, staged and registered pageable memory, every precision mode),
 * each against the long double reference with its mode's bound and
 * against the same call with the default budget (in core); every
 * precision mode at every budget that holds the smallest tiles (the
 * tensor-core launchers' workspace is best effort beyond it). Registered
 * pageable memory whose operands share pages, alias or lie beside the
 * caller's own registration. Then injected failures (gk_hm_set_fail_at:
 * the n-th checkpoint of a call fails, each in turn): each returns a
 * status and leaves the driver's resources, device memory, the caller's
 * pages and cudaGetLastError as they were. No call leaves an error for
 * cudaGetLastError.
 *
 * Without CUDA or without a device: the budget setter is checked and the
 * test exits 77. GK_TEST_SMALL=1 runs a short list (compute-sanitizer).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gemm_check.h"
#include "test_util.h"
#include "../src/cuda/hostmem/hostmem.h"
#ifdef GK_TEST_HAVE_CUDA
#include <cuda_runtime.h>
#include "test_cuda_util.h"
#endif

#define FACTOR 8.0

#ifdef GK_TEST_HAVE_CUDA
static int small;


/* Whether p is page-locked (registered or cudaHostAlloc'd). */
static int pinned_now(const void *p)
{
	struct cudaPointerAttributes at;
	const cudaError_t e = cudaPointerGetAttributes(&at, p);
	if (e != cudaSuccess) {
		cudaGetLastError();
		return 0;
	}
	return at.type == cudaMemoryTypeHost;
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
	int small_chunk;      /* GK_HOSTMEM_CHUNK=4096 */
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
	void *a = tcu_host_alloc(na * es, t->pinned), *b = tcu_host_alloc(nb * es, t->pinned);
	void *c = tcu_host_alloc(nc * es, t->pinned), *c0 = malloc(nc * es), *cin = malloc(nc * es);
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
	/* Staged cases in 4 KiB chunks now and then: tiles in many pieces, and
	 * lines longer than a chunk. */
	if (t->small_chunk)
		setenv("GK_HOSTMEM_CHUNK", "4096", 1);
	char what[200];
	snprintf(what, sizeof what, "%s %s %s %c%c %lldx%lldx%lld pad %lld alpha %g beta %g %s%s%s%s budget %.3g",
	         t->f64 ? "d" : "s", gk_precision_name(t->mode), rm ? "row" : "col", tra ? 'T' : 'N',
	         trb ? 'T' : 'N', (long long)t->m, (long long)t->n, (long long)t->k, (long long)t->pad, t->alpha,
	         t->beta, t->pinned ? "pinned" : "pageable", t->pageable ? " " : "", t->pageable ? t->pageable : "",
	         t->small_chunk ? " 4 KiB chunks" : "", t->budget_frac);
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
		tcu_no_last_error(what);
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
	if (t->small_chunk)
		unsetenv("GK_HOSTMEM_CHUNK");
	/* The caller's pages are not left registered. */
	if (!t->pinned)
		TU_CHECK(!pinned_now(a) && !pinned_now(b) && !pinned_now(c), "%s: operands left registered", what);
	gk_context_destroy(ctx);
	tcu_host_free(a, t->pinned), tcu_host_free(b, t->pinned), tcu_host_free(c, t->pinned);
	free(c0), free(cin), free(ref), free(res[0]), free(res[1]);
}

/* The device's free memory once it settles: cudaMemGetInfo counts every
 * process on the device (ctest runs other GPU tests beside this one, whose
 * streams, events and buffers come and go), so a reading under `want` is
 * taken again for up to a second before it counts. A reading above it is
 * no leak of ours (another process freed memory) and counts at once. */
static size_t device_free(size_t want)
{
	size_t f = 0, tot = 0;
	for (int tries = 0; tries < 50; tries++) {
		cudaDeviceSynchronize();
		cudaMemGetInfo(&f, &tot);
		if (f >= want)
			break;
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return f;
}

/* Injected failures: every checkpoint of a call (each CUDA call whose
 * failure is an error path, the launcher call included) fails in turn;
 * each returns a status with a message and leaves behind no resource of
 * the driver (gk_hm_live_resources, exact and this process's own), no
 * device memory, no registration and no error for cudaGetLastError; then
 * the call succeeds, and the number of failures is the number of
 * checkpoints of a whole call. */
static void failures(const char *pageable, int pinned)
{
	const int64_t m = 700, n = 650, k = 600;
	float *a = tcu_host_alloc((size_t)m * k * 4, pinned), *b = tcu_host_alloc((size_t)k * n * 4, pinned);
	float *c = tcu_host_alloc((size_t)m * n * 4, pinned);
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
	const char *label = pageable ? pageable : pinned ? "pinned" : "staged";
	/* Staged: 256 KiB chunks, so that tiles go in several pieces and the
	 * ring's acquisitions, given back before every call, stay cheap. */
	if (!pinned && pageable == NULL)
		setenv("GK_HOSTMEM_CHUNK", "262144", 1);
	/* Staged: the kept staging ring is given back before every call, so
	 * that each call acquires it (its checkpoints fail too). */
	const int drop_ring = !pinned && pageable == NULL;
	/* Once first, so that the runtime and the launcher have what they
	 * keep; once more for the count of checkpoints; then the baselines. */
	gk_status st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
	TU_CHECK(st == GK_OK, "failures %s: warm-up %d (%s)", label, st, gk_last_error());
	if (drop_ring)
		gk_hm_release_staging();
	st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
	TU_CHECK(st == GK_OK, "failures %s: second call %d (%s)", label, st, gk_last_error());
	const int points = gk_hm_last_checkpoints();
	if (drop_ring)
		gk_hm_release_staging();
	const long live = gk_hm_live_resources();
	const size_t base = device_free(SIZE_MAX); /* the reading after a second */
	int n_fail = 0;
	/* GK_TEST_SMALL (under compute-sanitizer, where each call is slow):
	 * about 48 checkpoints spread over the call, the last one included,
	 * instead of every one. */
	const int step = small && points > 48 ? points / 48 : 1;
	for (int at = 1; at < 10000; at = (at < points && at + step > points) ? points : at + step) {
		gk_hm_set_fail_at(at);
		st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
		gk_hm_set_fail_at(0);
		if (drop_ring)
			gk_hm_release_staging();
		char what[96];
		snprintf(what, sizeof what, "failure at %d (%s)", at, label);
		tcu_no_last_error(what);
		TU_CHECK(gk_hm_live_resources() == live, "%s: the driver holds %ld resources, %ld before", what,
		         gk_hm_live_resources(), live);
		const size_t now = device_free(base);
		TU_CHECK(now >= base, "%s: device free %zu, was %zu", what, now, base);
		if (!pinned)
			TU_CHECK(!pinned_now(a) && !pinned_now(b) && !pinned_now(c), "%s: operands left registered", what);
		if (st == GK_OK)
			break;
		n_fail++;
		TU_CHECK(st == GK_ERR_NO_MEMORY || st == GK_ERR_CUDA, "%s: status %d", what, st);
		TU_CHECK(strstr(gk_last_error(), "injected") != NULL, "%s: message '%s'", what, gk_last_error());
	}
	if (step == 1)
		TU_CHECK(n_fail == points, "%s: %d checkpoints failed in turn, a call passes %d", label, n_fail,
		         points);
	printf("injected failures (%s): %d checkpoints, each returned a status and left nothing behind\n", label,
	       n_fail);
	if (pageable)
		unsetenv("GK_HOSTMEM_PAGEABLE");
	unsetenv("GK_HOSTMEM_CHUNK");
	gk_context_destroy(ctx);
	tcu_host_free(a, pinned), tcu_host_free(b, pinned), tcu_host_free(c, pinned);
}

/* One float product through the driver on the given operands (row major),
 * checked against the reference; C is filled from c0 first. */
static void product(gk_context *ctx, const char *what, gk_trans tb, int64_t m, int64_t n, int64_t k, const float *a,
                    int64_t lda, const float *b, int64_t ldb, float *c, int64_t ldc, const float *c0)
{
	for (int64_t i = 0; i < m; i++)
		memcpy(c + i * ldc, c0 + i * ldc, (size_t)n * 4);
	const gk_status st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.5f, c, ldc);
	TU_CHECK(st == GK_OK, "%s: status %d (%s)", what, st, gk_last_error());
	tcu_no_last_error(what);
	if (st != GK_OK)
		return;
	double err = 0;
	gkc_gemm_check(GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, tb, m, n, k, 1.0, a, lda, b, ldb, 0.5, c0, c, ldc, NULL,
	               m, &err);
	const double bound = gkc_gemm_bound_mode(GK_DTYPE_F32, k, GK_PRECISION_STRICT, FACTOR);
	TU_CHECK(err <= bound, "%s: error %.3g > bound %.3g", what, err, bound);
}

/* GK_HOSTMEM_PAGEABLE=register on operands that share pages: A, B and C
 * carved from one buffer at offsets off pages, B the same matrix as A, and
 * B inside a range the caller registered itself. Each is computed right,
 * registers no page twice (no cudaErrorHostMemoryAlreadyRegistered, which
 * compute-sanitizer reports), leaves no error for cudaGetLastError, and
 * leaves the caller's registration as it was and no other. */
static void shared_pages(void)
{
	const int64_t m = 150, n = 130, k = 170;
	const size_t na = (size_t)(m * k), nb = (size_t)(k * n), nc = (size_t)(m * n);
	float *buf = malloc((na + nb + 2 * nc + 64) * 4), *c0 = malloc((m > k ? m : k) * (size_t)(m > n ? m : n) * 4);
	TU_CHECK(buf && c0, "alloc");
	if (!buf || !c0)
		exit(1);
	/* Offsets of a few floats: every boundary inside a page. */
	float *a = buf + 3, *b = a + na + 5, *c = b + nb + 7;
	tu_rng r;
	tu_rng_init(&r, 11);
	tu_fill_f32(a, na, &r), tu_fill_f32(b, nb, &r), tu_fill_f32(c0, (size_t)(m > k ? m : k) * (size_t)(m > n ? m : n), &r);
	gk_context *ctx = NULL;
	gk_context_create(&ctx);
	gk_context_set_backend(ctx, GK_BACKEND_CUDA);
	gk_context_set_precision(ctx, GK_PRECISION_STRICT);
	gk_context_set_device_budget(ctx, (na + nb + nc) * 4 / 3);
	setenv("GK_HOSTMEM_PAGEABLE", "register", 1);
	const long live = gk_hm_live_resources();
	product(ctx, "register: A, B, C sharing pages", GK_NO_TRANS, m, n, k, a, k, b, n, c, n, c0);
	/* C = A A^T: B is A. */
	product(ctx, "register: B is A", GK_TRANS, m, m, k, a, k, a, k, c, m, c0);
	TU_CHECK(!pinned_now(a) && !pinned_now(b) && !pinned_now(c), "register: pages left registered");
	/* B's bytes registered by the caller (not page-aligned): B goes by DMA,
	 * A and C around it are registered or staged, B stays registered. */
	const cudaError_t e = cudaHostRegister(b, nb * 4, cudaHostRegisterDefault);
	TU_CHECK(e == cudaSuccess, "cudaHostRegister of B: %s", cudaGetErrorName(e));
	if (e == cudaSuccess) {
		product(ctx, "register: B registered by the caller", GK_NO_TRANS, m, n, k, a, k, b, n, c, n, c0);
		TU_CHECK(pinned_now(b), "register: the caller's registration of B is gone");
		cudaHostUnregister(b);
	}
	TU_CHECK(gk_hm_live_resources() == live, "register: the driver holds %ld resources, %ld before",
	         gk_hm_live_resources(), live);
	unsetenv("GK_HOSTMEM_PAGEABLE");
	gk_context_destroy(ctx);
	free(buf), free(c0);
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
	/* {150, 130, 4500}: deep enough that a first step of the whole depth
	 * goes in parts (hm_driver.cu, FIRST_PARTS). */
	static const int64_t shapes[][3] = {{257, 129, 300}, {150, 130, 4500}, {1000, 999, 1001}, {33, 700, 65},
	                                    {1, 513, 77},    {600, 1, 600},    {300, 200, 2500}};
	static const gk_precision modes[] = {GK_PRECISION_STRICT, GK_PRECISION_ACCURATE, GK_PRECISION_TF32};
	const int nshapes = small ? 2 : 7;
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
					t.small_chunk = !t.pinned && t.pageable == NULL && ((v + mi + f64) & 1);
					/* From a third of the data down to a thirtieth (k split). */
					t.budget_frac = (v + s) % 3 == 0 ? 0.33 : (v + s) % 3 == 1 ? 0.12 : 0.035;
					run_case(&t, &r);
					ncases++;
				}
	printf("%d products forced out of core\n", ncases);
	shared_pages();
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
