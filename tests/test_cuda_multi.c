/*
 * test_cuda_multi.c - host-pointer GPU calls shared among several workers
 * (gk_context_set_devices; src/cuda/hostmem/hm_multi.cu,
 * docs/CUDA_MULTI.md), through the public API.
 *
 * Without a GPU: the device-list setter's argument checks, and the call
 * says no GPU (exit 77 after those).
 *
 * With one: small units (gk_hm_set_unit), or the library's own (one per
 * worker without GK_FLAG_DETERMINISTIC: each worker takes exactly one),
 * and a tiny device budget, so that every unit goes out of core; device lists of one device split into two
 * and three workers ({0, 0}, {0, 0, 0}) and, where present, of 2 and 4
 * devices in both orders. Each product (ragged units, odd sizes, every
 * transpose, both layouts, beta = 0 on NaN and beta != 0, pinned and
 * pageable operands, every precision mode, float and double) is checked
 * against the long double reference with its mode's bound; with
 * GK_FLAG_DETERMINISTIC it must be bit-identical to the one-device result
 * for every list, and two runs with the same list too. Every unit is
 * computed once (the workers' unit counts sum to the grid). Then injected
 * failures (gk_hm_set_fail_at: the n-th checkpoint of the whole call,
 * whichever worker reaches it): a status (or success for a call that
 * passed fewer checkpoints than that), nothing of the driver left
 * (gk_hm_live_resources), no error for cudaGetLastError. A device list
 * naming an absent device is refused. GK_TEST_SMALL=1 runs a short list
 * (compute-sanitizer).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemm_check.h"
#include "test_util.h"
#include "../src/cuda/hostmem/hm_plan.h"
#include "../src/cuda/hostmem/hostmem.h"
#ifdef GK_TEST_HAVE_CUDA
#include <cuda_runtime.h>
#include "test_cuda_util.h"
#endif

#define FACTOR 8.0

static void api_checks(void)
{
	gk_context *ctx = NULL;
	TU_CHECK(gk_context_create(&ctx) == GK_OK, "create");
	int out[4] = {-7, -7, -7, -7};
	TU_CHECK(gk_context_devices(ctx, out, 4) == 0 && out[0] == -7, "default device list is empty");
	const int two[2] = {1, 0};
	TU_CHECK(gk_context_set_devices(ctx, two, 2) == GK_OK, "set {1, 0}");
	TU_CHECK(gk_context_devices(ctx, out, 4) == 2 && out[0] == 1 && out[1] == 0, "read back {1, 0}");
	TU_CHECK(gk_context_devices(ctx, out, 1) == 2, "count with a short buffer");
	TU_CHECK(gk_context_devices(ctx, NULL, 0) == 2, "count alone");
	const int bad[2] = {0, -1};
	TU_CHECK(gk_context_set_devices(ctx, bad, 2) == GK_ERR_INVALID_VALUE, "negative ordinal refused");
	TU_CHECK(gk_context_devices(ctx, out, 4) == 2 && out[0] == 1, "a refused list leaves the old one");
	TU_CHECK(gk_context_set_devices(ctx, NULL, 2) == GK_ERR_NULL_POINTER, "NULL list refused");
	TU_CHECK(gk_context_set_devices(ctx, two, -1) == GK_ERR_INVALID_VALUE, "count < 0 refused");
	TU_CHECK(gk_context_set_devices(ctx, two, GK_MAX_DEVICES + 1) == GK_ERR_INVALID_VALUE,
	         "count > GK_MAX_DEVICES refused");
	TU_CHECK(gk_context_set_devices(NULL, two, 2) == GK_ERR_NULL_POINTER, "NULL ctx refused");
	TU_CHECK(gk_context_devices(NULL, out, 4) == 0, "NULL ctx: no list");
	TU_CHECK(gk_context_set_devices(ctx, NULL, 0) == GK_OK && gk_context_devices(ctx, NULL, 0) == 0,
	         "count 0 restores the default");
	gk_context_destroy(ctx);
}

#ifdef GK_TEST_HAVE_CUDA
static int small;


typedef struct list {
	int n;
	int dev[4];
} list;

typedef struct kase {
	int f64;
	gk_precision mode;
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k, unit;
	double alpha, beta;
	int pinned;
	double budget_frac; /* of one unit's A panel + B panel + C block */
} kase;

/* One product on every device list: checked against the reference, and
 * in deterministic mode bit for bit against the first list's result. */
static void run_case(const kase *t, const list *lists, int nlists, tu_rng *r)
{
	const size_t es = t->f64 ? 8 : 4;
	const unsigned dtype = t->f64 ? GK_DTYPE_F64 : GK_DTYPE_F32;
	const int rm = t->layout == GK_ROW_MAJOR;
	const int tra = t->ta != GK_NO_TRANS, trb = t->tb != GK_NO_TRANS;
	const int64_t ra = tra ? t->k : t->m, ca = tra ? t->m : t->k;
	const int64_t rb = trb ? t->n : t->k, cb = trb ? t->k : t->n;
	const int64_t lda = (rm ? ca : ra) + 1, ldb = (rm ? cb : rb) + 2, ldc = (rm ? t->n : t->m) + 3;
	const size_t na = tu_extent(t->layout, ra, ca, lda), nb = tu_extent(t->layout, rb, cb, ldb);
	const size_t nc = tu_extent(t->layout, t->m, t->n, ldc);
	void *a = tcu_host_alloc(na * es, t->pinned), *b = tcu_host_alloc(nb * es, t->pinned);
	void *c = tcu_host_alloc(nc * es, t->pinned), *c0 = malloc(nc * es), *first = malloc(nc * es);
	long double *ref = malloc((size_t)t->m * (size_t)t->n * sizeof *ref);
	if (!a || !b || !c || !c0 || !first || !ref) {
		TU_CHECK(0, "alloc");
		exit(1);
	}
	if (t->f64) {
		tu_fill_f64(a, na, r), tu_fill_f64(b, nb, r), tu_fill_f64(c0, nc, r);
		if (t->beta == 0)
			tu_poison_f64(c0, nc);
	} else {
		tu_fill_f32(a, na, r), tu_fill_f32(b, nb, r), tu_fill_f32(c0, nc, r);
		if (t->beta == 0)
			tu_poison_f32(c0, nc);
	}
	gkc_ref_gemm(dtype, t->layout, t->ta, t->tb, t->m, t->n, t->k, t->alpha, a, lda, b, ldb, t->beta,
	             t->beta == 0 ? NULL : c0, ldc, NULL, t->m, ref);
	/* unit 0: the library's own units (one per worker without the
	 * deterministic flag, gk_hm_unit_grid_for); the budget is then a
	 * fraction of the whole product's operands. */
	const int64_t u = t->unit, um_ = u ? u : t->m, un_ = u ? u : t->n;
	const size_t unit_bytes = (size_t)(um_ * t->k + t->k * un_ + um_ * un_) * es;
	const size_t budget = (size_t)(t->budget_frac * (double)unit_bytes);
	gk_hm_set_unit(u);
	for (int det = 0; det < 2; det++)
		for (int li = 0; li < nlists; li++)
			for (int again = 0; again < (det && li == 0 ? 2 : 1); again++) {
				const list *l = &lists[li];
				gk_context *ctx = NULL;
				gk_context_create(&ctx);
				gk_context_set_backend(ctx, GK_BACKEND_CUDA);
				gk_context_set_precision(ctx, t->mode);
				gk_context_set_device_budget(ctx, budget);
				gk_context_set_devices(ctx, l->dev, l->n);
				gk_context_set_flags(ctx, det ? GK_FLAG_DETERMINISTIC : 0u);
				char what[240];
				int w = snprintf(what, sizeof what,
				                 "%s %s %s %c%c %lldx%lldx%lld unit %lld alpha %g beta %g %s budget %.2g %s {",
				                 t->f64 ? "d" : "s", gk_precision_name(t->mode), rm ? "row" : "col",
				                 tra ? 'T' : 'N', trb ? 'T' : 'N', (long long)t->m, (long long)t->n,
				                 (long long)t->k, (long long)u, t->alpha, t->beta,
				                 t->pinned ? "pinned" : "pageable", t->budget_frac, det ? "det" : "");
				for (int q = 0; q < l->n && w < (int)sizeof what - 8; q++)
					w += snprintf(what + w, sizeof what - (size_t)w, q ? ",%d" : "%d", l->dev[q]);
				snprintf(what + w, sizeof what - (size_t)w, "}");
				memcpy(c, c0, nc * es);
				const gk_status st =
				    t->f64 ? gk_dgemm_ex(ctx, t->layout, t->ta, t->tb, t->m, t->n, t->k, t->alpha, a, lda, b,
				                         ldb, t->beta, c, ldc)
				           : gk_sgemm_ex(ctx, t->layout, t->ta, t->tb, t->m, t->n, t->k, (float)t->alpha, a,
				                         lda, b, ldb, (float)t->beta, c, ldc);
				TU_CHECK(st == GK_OK, "%s: status %d (%s)", what, st, gk_last_error());
				tcu_no_last_error(what);
				gk_context_destroy(ctx);
				if (st != GK_OK)
					continue;
				const double err =
				    gkc_gemm_error(dtype, t->layout, t->ta, t->tb, t->m, t->n, t->k, t->alpha, a, lda, b, ldb,
				                   t->beta, t->beta == 0 ? NULL : c0, c, ldc, NULL, t->m, ref);
				const double bound =
				    gkc_gemm_bound_mode(dtype, t->k, t->f64 ? GK_PRECISION_STRICT : t->mode, FACTOR);
				TU_CHECK(err <= bound, "%s: error %.3g > bound %.3g", what, err, bound);
				TU_CHECK(tu_padding_intact(dtype, t->layout, t->m, t->n, c, c0, ldc), "%s: C's padding changed",
				         what);
				/* Every unit once: the workers' counts sum to the grid
				 * (the one-device deterministic call runs units too). */
				int64_t um, un, gm, gn, done[8] = {0}, sum = 0, ones = 0;
				if (u > 0 || det)
					gk_hm_unit_grid(t->m, t->n, u, &um, &un, &gm, &gn);
				else
					gk_hm_unit_grid_for(t->m, t->n, t->k, l->n, &um, &un, &gm, &gn);
				const int nw = gk_hm_last_units(done, 8);
				for (int q = 0; q < nw && q < 8; q++)
					sum += done[q], ones += done[q] == 1;
				if (l->n > 1 || det)
					TU_CHECK(nw >= 1 && sum == gm * gn, "%s: %d workers computed %lld units of %lld", what, nw,
					         (long long)sum, (long long)(gm * gn));
				/* Without the flag, as many units as workers: one each. */
				if (u == 0 && !det && l->n > 1)
					TU_CHECK(gm * gn == l->n && nw == l->n && ones == nw,
					         "%s: %lld units for %d workers, %lld of %d workers took one", what,
					         (long long)(gm * gn), l->n, (long long)ones, nw);
				if (det) {
					if (li == 0 && again == 0)
						memcpy(first, c, nc * es);
					else
						TU_CHECK(memcmp(first, c, nc * es) == 0, "%s: not bit-identical to {%d}", what,
						         lists[0].dev[0]);
				}
			}
	gk_hm_set_unit(0);
	tcu_host_free(a, t->pinned), tcu_host_free(b, t->pinned), tcu_host_free(c, t->pinned);
	free(c0), free(first), free(ref);
}

/* Injected failures in a call of two workers on one device: the n-th
 * checkpoint of the whole call fails, for n across the call. */
static void failures(void)
{
	const int64_t m = 400, n = 350, k = 300;
	float *a = tcu_host_alloc((size_t)m * k * 4, 1), *b = tcu_host_alloc((size_t)k * n * 4, 1);
	float *c = tcu_host_alloc((size_t)m * n * 4, 1);
	if (!a || !b || !c) {
		TU_CHECK(0, "alloc");
		exit(1);
	}
	tu_rng r;
	tu_rng_init(&r, 5);
	tu_fill_f32(a, (size_t)(m * k), &r), tu_fill_f32(b, (size_t)(k * n), &r), tu_fill_f32(c, (size_t)(m * n), &r);
	gk_context *ctx = NULL;
	gk_context_create(&ctx);
	gk_context_set_backend(ctx, GK_BACKEND_CUDA);
	gk_context_set_precision(ctx, GK_PRECISION_STRICT);
	gk_context_set_device_budget(ctx, (size_t)(128 * k * 2 + 128 * 128) * 4 / 2);
	const int two[2] = {0, 0};
	gk_context_set_devices(ctx, two, 2);
	gk_hm_set_unit(128);
	gk_status st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
	TU_CHECK(st == GK_OK, "failures: warm-up %d (%s)", st, gk_last_error());
	st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
	const int points = gk_hm_last_checkpoints();
	const long live = gk_hm_live_resources();
	TU_CHECK(st == GK_OK && points > 10, "failures: %d checkpoints (%d)", points, st);
	int n_fail = 0, tried = 0;
	const int step = small ? (points > 24 ? points / 24 : 1) : (points > 200 ? points / 200 : 1);
	for (int at = 1; at <= points; at += step) {
		gk_hm_set_fail_at(at);
		st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
		gk_hm_set_fail_at(0);
		char what[64];
		snprintf(what, sizeof what, "failure at %d of %d", at, points);
		tcu_no_last_error(what);
		TU_CHECK(gk_hm_live_resources() == live, "%s: the driver holds %ld resources, %ld before", what,
		         gk_hm_live_resources(), live);
		/* The count of a call depends a little on the schedule (a worker
		 * that takes no unit opens no session, a half's slots are
		 * allocated when first used): a call that passed fewer than `at`
		 * checkpoints succeeds, any other fails. */
		const int passed = gk_hm_last_checkpoints();
		if (st == GK_OK) {
			TU_CHECK(passed < at, "%s: succeeded after %d checkpoints", what, passed);
		} else {
			TU_CHECK(st == GK_ERR_NO_MEMORY || st == GK_ERR_CUDA, "%s: status %d (%s)", what, st,
			         gk_last_error());
			TU_CHECK(strstr(gk_last_error(), "injected") != NULL, "%s: message '%s'", what, gk_last_error());
			n_fail++;
		}
		tried++;
	}
	TU_CHECK(n_fail > tried / 2, "failures: only %d of %d tries failed", n_fail, tried);
	printf("injected failures, two workers: %d of %d tried returned a status and left nothing behind\n",
	       n_fail, tried);
	/* And the call works again. */
	st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
	TU_CHECK(st == GK_OK, "after failures: %d (%s)", st, gk_last_error());
	gk_hm_set_unit(0);
	/* An absent device in the list is refused. */
	int ndev = 0;
	cudaGetDeviceCount(&ndev);
	const int bad[2] = {0, ndev};
	gk_context_set_devices(ctx, bad, 2);
	st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n);
	TU_CHECK(st == GK_ERR_INVALID_VALUE && strstr(gk_last_error(), "not present") != NULL,
	         "absent device %d: status %d (%s)", ndev, st, gk_last_error());
	tcu_no_last_error("absent device");
	gk_context_destroy(ctx);
	tcu_host_free(a, 1), tcu_host_free(b, 1), tcu_host_free(c, 1);
}
#endif

int main(void)
{
	api_checks();
#ifdef GK_TEST_HAVE_CUDA
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		(void)cudaGetLastError();
		tu_finish("test_cuda_multi");
		printf("skipped: no CUDA device\n");
		return 77;
	}
	small = getenv("GK_TEST_SMALL") != NULL;
	list lists[8];
	int nl = 0;
	lists[nl++] = (list){1, {0}};
	lists[nl++] = (list){2, {0, 0}};
	if (!small)
		lists[nl++] = (list){3, {0, 0, 0}};
	if (ndev >= 2) {
		lists[nl++] = (list){2, {0, 1}};
		lists[nl++] = (list){2, {1, 0}};
	}
	if (ndev >= 4)
		lists[nl++] = (list){4, {3, 1, 0, 2}};
	printf("%d devices; lists:", ndev);
	for (int i = 0; i < nl; i++) {
		printf(" {");
		for (int q = 0; q < lists[i].n; q++)
			printf(q ? ",%d" : "%d", lists[i].dev[q]);
		printf("}");
	}
	printf("\n");
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	/* {300, 150, 2100, 150}: two units, as many as the workers of {0,0}
	 * and {0,1}: deterministic, they must be planned as on one device. */
	static const int64_t shapes[][4] = {{300, 257, 190, 96}, {1, 500, 70, 128}, {600, 520, 300, 0},
	                                    {300, 150, 2100, 150}, {513, 1, 33, 128}, {700, 650, 1100, 256},
	                                    {129, 130, 2000, 64}};
	static const gk_precision modes[] = {GK_PRECISION_STRICT, GK_PRECISION_ACCURATE, GK_PRECISION_TF32};
	const int nshapes = small ? 4 : 7;
	int ncases = 0;
	for (int s = 0; s < nshapes; s++)
		for (int f64 = 0; f64 < 2; f64++)
			for (int mi = 0; mi < (f64 ? 1 : 3); mi++)
				for (int v = 0; v < (small ? 1 : 2); v++) {
					kase t;
					memset(&t, 0, sizeof t);
					t.f64 = f64;
					t.mode = modes[mi];
					t.m = shapes[s][0], t.n = shapes[s][1], t.k = shapes[s][2], t.unit = shapes[s][3];
					t.layout = (v + s) & 1 ? GK_COL_MAJOR : GK_ROW_MAJOR;
					t.ta = (v + mi) & 1 ? GK_TRANS : GK_NO_TRANS;
					t.tb = (s + v) % 3 == 1 ? GK_CONJ_TRANS : GK_NO_TRANS;
					t.alpha = v ? -0.75 : 1.0;
					t.beta = (s + mi + v) % 3 == 0 ? 0.0 : 0.5;
					t.pinned = (s + v + mi + f64) & 1;
					t.budget_frac = (s + v) & 1 ? 0.3 : 0.6;
					run_case(&t, lists, nl, &r);
					ncases++;
				}
	printf("%d products on %d device lists, each deterministic one bit-identical across the lists\n", ncases,
	       nl);
	failures();
	gk_hm_release_staging();
#else
	gk_context *cx = NULL;
	gk_context_create(&cx);
	gk_context_set_backend(cx, GK_BACKEND_CUDA);
	const int two[2] = {0, 0};
	gk_context_set_devices(cx, two, 2);
	float x[4] = {1, 2, 3, 4}, y[4];
	const gk_status st = gk_sgemm_ex(cx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 2, 2, 1.0f, x, 2, x, 2, 0.0f,
	                                 y, 2);
	TU_CHECK(st == GK_ERR_NO_GPU, "without CUDA: status %d, want GK_ERR_NO_GPU", st);
	gk_context_destroy(cx);
	tu_finish("test_cuda_multi");
	printf("skipped: built without CUDA\n");
	return 77;
#endif
	return tu_finish("test_cuda_multi");
}
