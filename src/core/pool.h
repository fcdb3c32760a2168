/*
 * pool.h - gemmkit's own threads for the CPU GEMM drivers (pool.c).
 *
 * A job is a list of tasks [0, tasks). The calling thread and up to
 * threads - 1 workers claim tasks one at a time from a shared counter, in
 * order, until none is left: whatever a late or descheduled thread has not
 * claimed, the others do, so a call never waits on a thread that has not
 * started, and the caller alone finishes the job if no worker comes.
 * A task may have to wait for others (ready): that is how the phases of a
 * driver (pack a panel, then use it) follow one another without a barrier
 * that counts threads. Tasks are claimed in order, and a task waits only on
 * tasks before it, so the first unfinished task can always run.
 *
 * Waiting is short: an idle worker spins watching for the next job while
 * the last one is in flight and GK_POOL_SPIN_US after (50 us; environment
 * GK_SPIN_US), then sleeps on a futex;
 * a thread waiting on an unfinished task spins a few microseconds, yields,
 * then sleeps, so that the thread it waits for can have its core.
 *
 * Each participant runs with a slot number, 0 for the caller and 1 ..
 * threads - 1 for the workers, so that per-thread buffers can be indexed by
 * it; a slot runs one task at a time. Which slot runs which task, and how
 * many slots take part, varies from call to call: a task's result must not
 * depend on it.
 *
 * One job runs at a time in the process; a call that finds the pool busy
 * (another thread's job in flight) runs its tasks on its own thread. After
 * fork() the child starts new workers when it needs them.
 */
#ifndef GK_POOL_H
#define GK_POOL_H

#include <stdatomic.h>
#include <stdint.h>
#include "gk_internal.h"

/* The most threads a call runs with (threads.c caps every count to it). */
#define GK_POOL_MAX_THREADS 1024

/* Microseconds an idle worker watches for the next job before it sleeps. */
#define GK_POOL_SPIN_US 50

/* Multiply-adds below which a job does not wake sleeping workers (they
 * would arrive after the caller has done the work): only workers still
 * spinning join it. About 50 us on one core at 40 GFLOPS. */
#define GK_POOL_WAKE_WORK (128.0 * 128.0 * 128.0)

/* Except in a run of calls: a job that starts less than this many
 * microseconds after the last one ended wakes them whatever its size. The
 * woken workers miss this job, but spin into the next ones of the run, so
 * that a run of small calls after a pause (64 KiB shards of a 4+2 code)
 * gets its threads back after one call, instead of staying on the caller. */
#define GK_POOL_RUN_US 1000

typedef struct gk_job {
	/* Task t on slot s. */
	void (*run)(void *arg, int64_t t, int slot);
	/* Whether task t may start now (NULL: always). It depends only on
	 * tasks before t, which mark their completion in arg (atomics, store
	 * release) before they return; it is asked again whenever a task
	 * finishes. */
	int (*ready)(const void *arg, int64_t t);
	void *arg;
	int64_t tasks;  /* < 2^32 */
	int threads;    /* slots 0 .. threads - 1, at most GK_POOL_MAX_THREADS */
	double work;    /* multiply-adds of the whole job (GK_POOL_WAKE_WORK) */
} gk_job;

/* Run every task of job once; returns when all are done, with the number of
 * threads that ran at least one of them (the caller included). */
GK_HIDDEN int gk_pool_run(const gk_job *job);

/* Inside a task: until cond(ctx), which a task before it makes true (it
 * spins, yields, then sleeps until a task finishes). */
GK_HIDDEN void gk_pool_wait(int (*cond)(const void *), const void *ctx);

/* The most threads that a job run by this thread ran on since the last
 * call (0: none ran a job); the count starts again from 0. */
GK_HIDDEN int gk_pool_take_joined(void);

/* Work that tasks take by slot rather than by their number (so that a
 * thread finds again the data it had in its cache, and what a late thread
 * has not reached is done by the others): items 0 .. n - 1 with a flag
 * each, 0 until taken. The first item of from, from + 1, ... up to `to`
 * (or downwards, when to < from), `to` excluded, that no task has taken is
 * taken now and returned; -1 when all of them were. */
static inline int64_t gk_pool_take(_Atomic int32_t *flags, int64_t from, int64_t to)
{
	const int64_t step = to >= from ? 1 : -1;
	for (int64_t i = from; i != to; i += step)
		if (atomic_load_explicit(&flags[i], memory_order_relaxed) == 0 &&
		    atomic_exchange_explicit(&flags[i], 1, memory_order_relaxed) == 0)
			return i;
	return -1;
}

/* Threads the process has started for the pool (tests). */
GK_HIDDEN int gk_pool_workers(void);

#endif /* GK_POOL_H */
