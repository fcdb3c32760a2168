/*
 * pool.c - the thread pool of pool.h.
 *
 * Workers spin for a while after each job, then sleep on a condition
 * variable: back-to-back calls (one timed batch) then pay no wake-up
 * latency, as OpenMP's workers pay none, and idle workers do not eat the
 * CPU while another contender's batch runs. Every spinning wait (a worker's
 * for the next job, the caller's for the workers) yields the processor
 * every POOL_YIELD_SPINS turns: where the threads outnumber the free cores
 * (a pinned run, a busy machine), a waiter that never yields holds the
 * core that the thread it waits for needs until the scheduler preempts it,
 * a time slice per job (ISA-L's 2-thread encode at 0.7 GB/s instead of 40
 * with both threads pinned to one core).
 */
#include "pool.h"
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define POOL_SPINS 20000
#define POOL_YIELD_SPINS 256

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void *pool_main(void *a)
{
	bench_pool_worker *w = a;
	bench_pool *p = w->p;
	unsigned seen = 0;
	for (;;) {
		unsigned g;
		int spins = 0;
		while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen) {
			if (++spins < POOL_SPINS) {
				if (spins % POOL_YIELD_SPINS == 0)
					sched_yield();
				else
					cpu_relax();
				continue;
			}
			pthread_mutex_lock(&p->mu);
			while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen)
				pthread_cond_wait(&p->cv, &p->mu);
			pthread_mutex_unlock(&p->mu);
			break;
		}
		seen = g;
		if (atomic_load(&p->quit))
			return NULL;
		p->fn(p->arg, w->part, p->n);
		atomic_fetch_sub_explicit(&p->pending, 1, memory_order_release);
	}
}

static void pool_kick(bench_pool *p)
{
	pthread_mutex_lock(&p->mu);
	atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

int bench_pool_init(bench_pool *p, int n)
{
	memset(p, 0, sizeof *p);
	p->n = 1;
	if (n <= 1)
		return 0;
	if (n > BENCH_POOL_MAX || (p->w = calloc((size_t)n, sizeof *p->w)) == NULL)
		return -1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	p->n = n;
	for (int i = 1; i < n; i++) {
		p->w[i].p = p;
		p->w[i].part = i;
		if (pthread_create(&p->w[i].tid, NULL, pool_main, &p->w[i]) != 0) {
			p->n = i; /* the workers started so far */
			bench_pool_free(p);
			return -1;
		}
	}
	return 0;
}

void bench_pool_run(bench_pool *p, bench_pool_fn fn, void *arg)
{
	if (p->n == 1) {
		fn(arg, 0, 1);
		return;
	}
	p->fn = fn;
	p->arg = arg;
	atomic_store_explicit(&p->pending, p->n - 1, memory_order_relaxed);
	pool_kick(p);
	fn(arg, 0, p->n);
	for (unsigned spins = 1; atomic_load_explicit(&p->pending, memory_order_acquire) > 0; spins++) {
		if (spins % POOL_YIELD_SPINS == 0)
			sched_yield();
		else
			cpu_relax();
	}
}

void bench_pool_free(bench_pool *p)
{
	if (p->w == NULL)
		return;
	atomic_store(&p->quit, 1);
	pool_kick(p);
	for (int i = 1; i < p->n; i++)
		pthread_join(p->w[i].tid, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p->w);
	p->w = NULL;
	p->n = 1;
}
