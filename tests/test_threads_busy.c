/*
 * test_threads_busy.c - multi-threaded GEMM calls while another thread of
 * this program keeps a core busy (pool.h: a late or descheduled worker's
 * tasks are taken by the others). For one shape of every way of
 * cpu.blocked (unpacked, split depth, axpy rows, dot products, packed with
 * a shared panel, packed by columns), in both precisions: the calls finish,
 * are right against the long double product, and give exactly the bits of
 * the same call on an idle machine with the same thread count; with
 * GK_FLAG_DETERMINISTIC, the bits of one thread. Then a few calls from four
 * threads of the program at once. No timing is asserted.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

#define FACTOR 2.0 /* the bound: 2 (k + 2) u, as test_gemm */

static const int64_t shapes[][3] = {
	{256, 256, 256},   /* unpacked */
	{8, 8, 120000},    /* split depth */
	{2, 3000, 400},    /* axpy rows */
	{700, 3, 600},     /* dot products */
	{600, 520, 700},   /* packed, shared panel */
	{1024, 1024, 300}, /* packed, several row blocks and rounds */
	{60, 1400, 900},   /* packed by columns */
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

typedef struct {
	unsigned dt;
	int64_t m, n, k;
	void *a, *b, *c;
	long double *ref;
} prob;

static size_t esz(unsigned dt)
{
	return dt == GK_DTYPE_F64 ? sizeof(double) : sizeof(float);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL) {
		fprintf(stderr, "test_threads_busy: out of memory\n");
		exit(2);
	}
	return p;
}

static void prob_init(prob *p, unsigned dt, const int64_t *s, tu_rng *r)
{
	p->dt = dt;
	p->m = s[0], p->n = s[1], p->k = s[2];
	p->a = xmalloc((size_t)(p->m * p->k) * esz(dt));
	p->b = xmalloc((size_t)(p->k * p->n) * esz(dt));
	p->c = xmalloc((size_t)(p->m * p->n) * esz(dt));
	p->ref = xmalloc((size_t)(p->m * p->n) * sizeof(long double));
	if (dt == GK_DTYPE_F64) {
		tu_fill_f64(p->a, (size_t)(p->m * p->k), r);
		tu_fill_f64(p->b, (size_t)(p->k * p->n), r);
	} else {
		tu_fill_f32(p->a, (size_t)(p->m * p->k), r);
		tu_fill_f32(p->b, (size_t)(p->k * p->n), r);
	}
	gkc_ref_gemm(dt, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, p->m, p->n, p->k, 1.0, p->a, p->k, p->b, p->n,
	             0.0, NULL, p->n, NULL, p->m, p->ref);
}

static void prob_free(prob *p)
{
	free(p->a);
	free(p->b);
	free(p->c);
	free(p->ref);
}

/* C = A B into out (poisoned first): the status. */
static gk_status run(const prob *p, gk_context *ctx, void *out)
{
	if (p->dt == GK_DTYPE_F64) {
		tu_poison_f64(out, (size_t)(p->m * p->n));
		return gk_dgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, p->m, p->n, p->k, 1.0, p->a, p->k,
		                   p->b, p->n, 0.0, out, p->n);
	}
	tu_poison_f32(out, (size_t)(p->m * p->n));
	return gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, p->m, p->n, p->k, 1.0f, p->a, p->k, p->b,
	                   p->n, 0.0f, out, p->n);
}

static int right(const prob *p, const void *out)
{
	const double err = gkc_gemm_error(p->dt, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, p->m, p->n, p->k, 1.0, p->a,
	                                  p->k, p->b, p->n, 0.0, NULL, out, p->n, NULL, p->m, p->ref);
	return err <= gkc_gemm_bound(p->dt, p->k, FACTOR);
}

/* The bits of every shape on an idle machine: [dt][shape][0: 2 threads,
 * 1: deterministic]. */
static void *idle_bits[2][NSHAPES][2];

static void test_shapes(int busy, prob (*probs)[NSHAPES])
{
	gk_context *c2 = tu_context_new(2, 0u), *d1 = tu_context_new(1, GK_FLAG_DETERMINISTIC),
	           *d2 = tu_context_new(2, GK_FLAG_DETERMINISTIC);
	for (int di = 0; di < 2; di++)
		for (int s = 0; s < NSHAPES; s++) {
			prob *p = &probs[di][s];
			const size_t bytes = (size_t)(p->m * p->n) * esz(p->dt);
			const char *when = busy ? "beside a busy thread" : "idle";
			for (int rep = 0; rep < (busy ? 3 : 1); rep++) {
				gk_status st = run(p, c2, p->c);
				TU_CHECK(st == GK_OK && right(p, p->c), "%s %lldx%lldx%lld, 2 threads, %s: wrong",
				         di ? "dgemm" : "sgemm", (long long)p->m, (long long)p->n, (long long)p->k, when);
				if (!busy && rep == 0) {
					idle_bits[di][s][0] = xmalloc(bytes);
					memcpy(idle_bits[di][s][0], p->c, bytes);
				} else {
					TU_CHECK(memcmp(idle_bits[di][s][0], p->c, bytes) == 0,
					         "%s %lldx%lldx%lld, 2 threads: bits differ from the idle call",
					         di ? "dgemm" : "sgemm", (long long)p->m, (long long)p->n, (long long)p->k);
				}
				if (!busy) {
					st = run(p, d1, p->c);
					TU_CHECK(st == GK_OK && right(p, p->c), "deterministic, 1 thread: wrong");
					idle_bits[di][s][1] = xmalloc(bytes);
					memcpy(idle_bits[di][s][1], p->c, bytes);
				}
				st = run(p, d2, p->c);
				TU_CHECK(st == GK_OK && memcmp(idle_bits[di][s][1], p->c, bytes) == 0,
				         "%s %lldx%lldx%lld, GK_FLAG_DETERMINISTIC, 2 threads %s: bits differ from 1 thread",
				         di ? "dgemm" : "sgemm", (long long)p->m, (long long)p->n, (long long)p->k, when);
			}
		}
	gk_context_destroy(c2);
	gk_context_destroy(d1);
	gk_context_destroy(d2);
}

/* Calls from several threads of the program at once, 2 threads each. */
typedef struct {
	prob *p;
	void *out;
	const void *want;
	int bad;
} caller;

static void *caller_main(void *arg)
{
	caller *c = arg;
	gk_context *ctx = tu_context_new(2, 0u);
	const size_t bytes = (size_t)(c->p->m * c->p->n) * esz(c->p->dt);
	for (int r = 0; r < 4; r++)
		c->bad += run(c->p, ctx, c->out) != GK_OK || memcmp(c->out, c->want, bytes) != 0;
	gk_context_destroy(ctx);
	return NULL;
}

static void test_callers(prob (*probs)[NSHAPES])
{
	pthread_t tid[4];
	caller cs[4];
	for (int i = 0; i < 4; i++) {
		const int di = i % 2, s = i % 2 ? 0 : 4;
		prob *p = &probs[di][s];
		cs[i] = (caller){p, xmalloc((size_t)(p->m * p->n) * esz(p->dt)), idle_bits[di][s][0], 0};
		pthread_create(&tid[i], NULL, caller_main, &cs[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(tid[i], NULL);
		TU_CHECK(cs[i].bad == 0, "caller thread %d: %d of 4 calls differ from the idle bits", i, cs[i].bad);
		free(cs[i].out);
	}
}

int main(void)
{
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	static prob probs[2][NSHAPES];
	for (int di = 0; di < 2; di++)
		for (int s = 0; s < NSHAPES; s++)
			prob_init(&probs[di][s], di ? GK_DTYPE_F64 : GK_DTYPE_F32, shapes[s], &r);
	test_shapes(0, probs);
	tu_hog_start();
	test_shapes(1, probs);
	test_callers(probs);
	tu_hog_stop();
	for (int di = 0; di < 2; di++)
		for (int s = 0; s < NSHAPES; s++) {
			free(idle_bits[di][s][0]);
			free(idle_bits[di][s][1]);
			prob_free(&probs[di][s]);
		}
	return tu_finish("test_threads_busy");
}
