/*
 * pool.h - a small pool of T - 1 pthreads (the caller is the T-th) that runs
 * one job split T ways: how a single-threaded reference (ISA-L) is given
 * the same thread count as gemmkit in the gf256 suite.
 */
#ifndef GK_BENCH_POOL_H
#define GK_BENCH_POOL_H

#include <pthread.h>
#include <stdatomic.h>

#define BENCH_POOL_MAX 1024

typedef struct bench_pool bench_pool;
typedef void (*bench_pool_fn)(void *arg, int part, int nparts);
typedef struct bench_pool_worker {
	bench_pool *p;
	int part;
	pthread_t tid;
} bench_pool_worker;
struct bench_pool {
	int n;
	_Atomic unsigned gen;   /* bumped for each job */
	_Atomic int pending;    /* workers still running the current job */
	_Atomic int quit;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bench_pool_fn fn;
	void *arg;
	bench_pool_worker *w;
};

/* Start n - 1 workers: 0, or -1 (none left running). */
int bench_pool_init(bench_pool *p, int n);
/* fn(arg, part, n) for every part, the caller taking part 0; returns when all are done. */
void bench_pool_run(bench_pool *p, bench_pool_fn fn, void *arg);
void bench_pool_free(bench_pool *p);

#endif
