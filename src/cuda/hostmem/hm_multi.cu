/*
 * hm_multi.cu - host-pointer GEMM shared among several workers: C = alpha
 * A B + beta C with A, B and C in host memory, one worker per entry of the
 * device list (a device listed twice runs two workers on it), each unit of
 * C computed by the single-device out-of-core driver (hm_driver.cu) on its
 * worker's device, with the worker's own streams, slots and staging ring.
 * Synchronous. docs/CUDA_MULTI.md.
 *
 * Units: C is cut into blocks; a unit reads its row panel of A (um x k)
 * and its column panel of B (k x un). Without the deterministic flag, one
 * per worker (gk_hm_unit_grid_for, hm_plan.c: the split of least host
 * traffic), each planned with the worker's whole budget. With it (or an
 * edge forced by gk_hm_set_unit), from the shape alone (gk_hm_unit_grid),
 * dealt out one at a time from a shared counter, row by row of the grid,
 * so a device that finishes early takes more (dynamic scheduling).
 *
 * Workers: the calling thread is worker 0; the others are threads started
 * for the call. With more units than workers, or with the deterministic
 * flag, a worker queues its units on a session of its own (hostmem.h: streams and two halves of slots
 * kept from unit to unit), so that the next unit's first loads overlap
 * this unit's product instead of waiting for its end; each unit is
 * planned with half the worker's budget, and a worker takes a unit only
 * when the half it goes into is free (at most two in flight). Each makes
 * its device current for each unit (the driver does) and restores nothing
 * else: its thread ends with the call. A
 * worker that fails stops the others from taking new units; the call
 * waits for all of them and returns the first failure, with its message.
 * Every resource a unit took is given back by that unit's call.
 *
 * Determinism: an element of C is computed by one unit call, whose tiles
 * and launcher calls depend only on the unit's shape, the depth and the
 * budget the unit is planned with. With `deterministic` every unit gets
 * the same budget (the context's, else GK_HM_DET_BUDGET, lowered to the
 * smallest share of a device's free memory when that is less), so the
 * result does not depend on the device list or on which worker took which
 * unit. Without it each worker plans with its own device's share.
 *
 * Checkpoints (hm_internal.cuh): the call counts the checkpoints of all
 * its workers together, so that gk_hm_set_fail_at(n) fails the n-th of
 * the whole call.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include "hm_internal.cuh"

namespace {

using namespace gk_hm;

long long g_unit_edge = 0; /* gk_hm_set_unit */
thread_local int t_nworkers = 0;
thread_local int64_t t_units[GK_MAX_DEVICES];

/* GK_HM_TRACE=1: each unit's worker, device and times on stderr. */
bool trace_on(void)
{
	const char *s = getenv("GK_HM_TRACE");
	return s != NULL && s[0] != '\0' && s[0] != '0';
}

double trace_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int64_t unit_edge(void)
{
	long long e = __atomic_load_n(&g_unit_edge, __ATOMIC_RELAXED);
	if (e <= 0) {
		const char *s = getenv("GK_HOSTMEM_UNIT");
		e = s ? atoll(s) : 0;
	}
	return e > 0 ? (int64_t)e : 0;
}

template <typename T, typename Fn>
struct job;

template <typename T, typename Fn>
struct worker {
	job<T, Fn> *j;
	int index;
	gk_hm_opts o;
	gk_status st;
	char msg[256];
	int64_t units;
	pthread_t tid;
	bool started;
};

template <typename T, typename Fn>
struct job {
	const char *fn_name;
	gk_status (*run)(Fn, const gk_hm_opts *, int64_t, int64_t, int64_t, T, const T *, int64_t,
	                 int64_t, const T *, int64_t, int64_t, T, T *, int64_t);
	Fn fn;
	int64_t m, n, k;
	T alpha, beta;
	const T *a, *b;
	T *c;
	int64_t rs_a, cs_a, rs_b, cs_b, rs_c;
	int64_t um, un, gm, gn;
	bool sessions;   /* more units than workers: queue them on sessions */
	double t0;       /* the call's start (GK_HM_TRACE) */
	int64_t next;    /* atomic: the next unit */
	int stop;        /* atomic: a worker failed */
	shared_points sp;
	worker<T, Fn> w[GK_MAX_DEVICES];
};

template <typename T, typename Fn>
void fail(worker<T, Fn> *w, gk_status st)
{
	w->st = st;
	strncpy(w->msg, gk_last_error(), sizeof w->msg - 1);
	w->msg[sizeof w->msg - 1] = '\0';
	__atomic_store_n(&w->j->stop, 1, __ATOMIC_RELEASE);
}

/* A worker: units from the shared counter until none is left (or another
 * worker failed), each queued on the worker's session so that the next
 * unit's loads overlap this one's product; the session's close waits for
 * the last. */
template <typename T, typename Fn>
void work(worker<T, Fn> *w)
{
	job<T, Fn> *j = w->j;
	t_shared = &j->sp;
	const int64_t units = j->gm * j->gn;
	gk_hm_session *ses = NULL;
	for (;;) {
		if (__atomic_load_n(&j->stop, __ATOMIC_ACQUIRE))
			break;
		/* At most two units in flight (one computing, one loading): the
		 * next waits until the half it would take is free, so that a
		 * worker that queues fast does not take the units a slower
		 * starter would compute at the same time (two workers, four
		 * units: 3 and 1 of them, 1.25 s instead of 0.84). */
		if (ses != NULL) {
			const gk_status sw = gk_hm_session_wait(j->fn_name, ses);
			if (sw != GK_OK) {
				fail(w, sw);
				break;
			}
		}
		const int64_t u = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
		if (u >= units)
			break;
		if (ses == NULL && j->sessions) {
			const gk_status so = gk_hm_session_open(j->fn_name, w->o.device, &ses);
			if (so != GK_OK) {
				fail(w, so);
				break;
			}
			w->o.session = ses;
		}
		const int64_t bi = u / j->gn, bj = u % j->gn;
		const int64_t i0 = bi * j->um, j0 = bj * j->un;
		const int64_t rows = gk_hm_extent(j->m, j->um, bi), cols = gk_hm_extent(j->n, j->un, bj);
		const double t_in = j->t0 > 0 ? trace_now() : 0;
		const gk_status st = j->run(j->fn, &w->o, rows, cols, j->k, j->alpha, j->a + i0 * j->rs_a,
		                            j->rs_a, j->cs_a, j->b + j0 * j->cs_b, j->rs_b, j->cs_b, j->beta,
		                            j->c + i0 * j->rs_c + j0, j->rs_c);
		if (j->t0 > 0)
			fprintf(stderr, "gemmkit: %s unit %lld (%lld x %lld at %lld, %lld) worker %d device %d: "
			        "%.3f s to %.3f s%s\n", j->fn_name, (long long)u, (long long)rows, (long long)cols,
			        (long long)i0, (long long)j0, w->index, w->o.device, t_in - j->t0,
			        trace_now() - j->t0, ses != NULL ? " (queued)" : "");
		if (st != GK_OK) {
			fail(w, st);
			break;
		}
		w->units++;
	}
	if (ses != NULL) {
		const gk_status sc = gk_hm_session_close(j->fn_name, ses);
		if (sc != GK_OK && w->st == GK_OK)
			fail(w, sc);
		if (j->t0 > 0)
			fprintf(stderr, "gemmkit: %s worker %d device %d: its units done at %.3f s\n", j->fn_name,
			        w->index, w->o.device, trace_now() - j->t0);
	}
	t_shared = nullptr;
}

template <typename T, typename Fn>
void *work_thread(void *arg)
{
	work<T, Fn>((worker<T, Fn> *)arg);
	return NULL;
}

/* Each worker's budget: the context's, or its share of its device's free
 * memory; deterministic: one budget for all. */
gk_status budgets(const char *fn_name, const gk_hm_multi *o, size_t *out)
{
	int prev = 0;
	HM_TRY(fn_name, cudaGetDevice(&prev));
	size_t least = (size_t)-1;
	gk_status st = GK_OK;
	for (int i = 0; i < o->ndev && st == GK_OK; i++) {
		int sharing = 0, first = i;
		for (int q = 0; q < o->ndev; q++)
			if (o->devices[q] == o->devices[i]) {
				sharing++;
				if (q < first)
					first = q;
			}
		if (first != i) {
			out[i] = out[first];
			continue;
		}
		size_t free_b = 0, total_b = 0;
		cudaError_t e = HM_CK(cudaSetDevice(o->devices[i]));
		if (e == cudaSuccess)
			e = HM_CK(cudaMemGetInfo(&free_b, &total_b));
		if (e != cudaSuccess) {
			st = status(e, fn_name, "cudaMemGetInfo");
			break;
		}
		const size_t share = default_budget(free_b, total_b) / (size_t)sharing;
		out[i] = o->budget != 0 && o->budget < share ? o->budget : share;
		if (out[i] < least)
			least = out[i];
	}
	cudaSetDevice(prev);
	if (st != GK_OK)
		return st;
	if (o->deterministic) {
		size_t det = o->budget != 0 ? o->budget : GK_HM_DET_BUDGET;
		if (o->budget == 0 && least < det)
			det = least;
		for (int i = 0; i < o->ndev; i++)
			out[i] = det;
	}
	return GK_OK;
}

template <typename T, typename Fn>
gk_status multi_run(job<T, Fn> *j, const gk_hm_multi *o)
{
	const char *fn_name = j->fn_name;
	GK_RETURN_IF(o->ndev < 1 || o->ndev > GK_MAX_DEVICES, GK_ERR_INVALID_VALUE,
	             "%s: %d devices in the list", fn_name, o->ndev);
	/* Deterministic (or a forced edge): units from the shape alone, dealt
	 * out on sessions. Otherwise one unit per worker, split for the least
	 * host traffic (hm_plan.h), each a call of the single-device driver on
	 * the worker's whole budget. */
	if (o->deterministic || unit_edge() > 0)
		gk_hm_unit_grid(j->m, j->n, unit_edge(), &j->um, &j->un, &j->gm, &j->gn);
	else
		gk_hm_unit_grid_for(j->m, j->n, j->k, o->ndev, &j->um, &j->un, &j->gm, &j->gn);
	/* No more workers than units: the first entries of the list. */
	const int64_t units = j->gm * j->gn;
	const int nw = (int64_t)o->ndev < units ? o->ndev : (int)units;
	/* Deterministic: always on sessions, so that every unit is planned
	 * with half the budget whatever the number of workers (a unit's plan
	 * decides its bits). */
	j->sessions = o->deterministic || units > nw;
	j->t0 = trace_on() ? trace_now() : 0;
	if (j->t0 > 0)
		fprintf(stderr, "gemmkit: %s %lld x %lld x %lld on %d workers: %lld x %lld units of %lld x %lld%s\n",
		        fn_name, (long long)j->m, (long long)j->n, (long long)j->k, nw, (long long)j->gm,
		        (long long)j->gn, (long long)j->um, (long long)j->un,
		        j->sessions ? ", queued on sessions" : "");
	gk_hm_multi lo = *o;
	lo.ndev = nw;
	size_t budget[GK_MAX_DEVICES];
	GK_FORWARD(budgets(fn_name, &lo, budget));
	int total = o->threads > 0 ? o->threads : gk_resolve_threads(0);
	if (total > 16)
		total = 16;
	int per = total / nw;
	if (per < 1)
		per = 1;
	for (int i = 0; i < nw; i++) {
		worker<T, Fn> *w = &j->w[i];
		w->j = j;
		w->index = i;
		w->o.device = o->devices[i];
		w->o.stream = NULL;
		w->o.budget = budget[i];
		w->o.threads = per;
		w->o.session = NULL;
		w->st = GK_OK;
		w->msg[0] = '\0';
		w->units = 0;
		w->started = false;
	}
	/* Worker 0 is this thread; a thread that cannot be started leaves its
	 * share to the others. */
	for (int i = 1; i < nw; i++)
		j->w[i].started = pthread_create(&j->w[i].tid, NULL, work_thread<T, Fn>, &j->w[i]) == 0;
	work<T, Fn>(&j->w[0]);
	for (int i = 1; i < nw; i++)
		if (j->w[i].started)
			pthread_join(j->w[i].tid, NULL);
	t_nworkers = nw;
	for (int i = 0; i < nw; i++)
		t_units[i] = j->w[i].units;
	for (int i = 0; i < nw; i++)
		if (j->w[i].st != GK_OK)
			return gk_set_error(j->w[i].st, "%s", j->w[i].msg);
	return GK_OK;
}

template <typename T, typename Fn>
gk_status multi_call(const char *fn_name,
                     gk_status (*run)(Fn, const gk_hm_opts *, int64_t, int64_t, int64_t, T,
                                      const T *, int64_t, int64_t, const T *, int64_t, int64_t, T,
                                      T *, int64_t),
                     Fn fn, const gk_hm_multi *o, int64_t m, int64_t n, int64_t k, T alpha,
                     const T *a, int64_t rs_a, int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b,
                     T beta, T *c, int64_t rs_c)
{
	if (!gk_cuda_available())
		return gk_set_error(GK_ERR_NO_GPU, "%s: no CUDA device is present", fn_name);
	job<T, Fn> *j = (job<T, Fn> *)calloc(1, sizeof(job<T, Fn>));
	GK_RETURN_IF(j == NULL, GK_ERR_NO_MEMORY, "%s: out of host memory", fn_name);
	j->fn_name = fn_name, j->run = run, j->fn = fn;
	j->m = m, j->n = n, j->k = k, j->alpha = alpha, j->beta = beta;
	j->a = a, j->b = b, j->c = c;
	j->rs_a = rs_a, j->cs_a = cs_a, j->rs_b = rs_b, j->cs_b = cs_b, j->rs_c = rs_c;
	j->sp.fail_at = fail_at_setting();
	j->sp.points = 0;
	t_nworkers = 0;
	t_shared = &j->sp;
	/* Registered pageable memory (GK_HOSTMEM_PAGEABLE=register): the whole
	 * operands once, for every worker, undone when all are done (a unit's
	 * own registration would be undone under another unit's copies). */
	operand x[3];
	memset(x, 0, sizeof x);
	x[0].host = (char *)a, x[0].rows = m, x[0].cols = k, x[0].rs = rs_a, x[0].cs = cs_a;
	x[1].host = (char *)b, x[1].rows = k, x[1].cols = n, x[1].rs = rs_b, x[1].cs = cs_b;
	x[2].host = (char *)c, x[2].rows = m, x[2].cols = n, x[2].rs = rs_c, x[2].cs = 1;
	for (int q = 0; q < 3; q++)
		x[q].es = sizeof(T);
	host_regs regs;
	memset(&regs, 0, sizeof regs);
	gk_status st = operands_init(fn_name, x, &regs);
	if (st == GK_OK)
		st = multi_run<T, Fn>(j, o);
	operands_release(&regs);
	t_shared = nullptr;
	fail_publish(__atomic_load_n(&j->sp.points, __ATOMIC_RELAXED));
	free(j);
	return st;
}

} /* namespace */

extern "C" gk_status gk_hm_multi_sgemm(gk_cuda_sgemm_fn fn, const gk_hm_multi *o, int64_t m,
                                       int64_t n, int64_t k, float alpha, const float *a,
                                       int64_t rs_a, int64_t cs_a, const float *b, int64_t rs_b,
                                       int64_t cs_b, float beta, float *c, int64_t rs_c)
{
	return multi_call<float, gk_cuda_sgemm_fn>("gk_sgemm", gk_hm_sgemm, fn, o, m, n, k, alpha, a,
	                                           rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c);
}

extern "C" gk_status gk_hm_multi_dgemm(gk_cuda_dgemm_fn fn, const gk_hm_multi *o, int64_t m,
                                       int64_t n, int64_t k, double alpha, const double *a,
                                       int64_t rs_a, int64_t cs_a, const double *b, int64_t rs_b,
                                       int64_t cs_b, double beta, double *c, int64_t rs_c)
{
	return multi_call<double, gk_cuda_dgemm_fn>("gk_dgemm", gk_hm_dgemm, fn, o, m, n, k, alpha, a,
	                                            rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c);
}

extern "C" void gk_hm_set_unit(int64_t edge)
{
	__atomic_store_n(&g_unit_edge, (long long)(edge > 0 ? edge : 0), __ATOMIC_RELAXED);
}

extern "C" int gk_hm_last_units(int64_t *out, int cap)
{
	for (int i = 0; i < t_nworkers && i < cap && out != NULL; i++)
		out[i] = t_units[i];
	return t_nworkers;
}
