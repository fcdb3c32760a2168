/*
 * pool.c - gemmkit's worker threads and the claiming of tasks (pool.h).
 *
 * Shared state, all atomics, in memory that outlives every call:
 *   seq      the number of the current (or last) job; idle workers watch it
 *   claim    seq << 32 | the next unclaimed task: a task is claimed by a
 *            compare-and-swap that also checks the job's number, so a
 *            worker that arrives after its job has ended claims nothing
 *            and never touches the caller's data (the job and its argument
 *            live on the caller's stack). A new job closes the word (its
 *            own number, no task left) before it writes its task count:
 *            a worker still holding the last job's word, all of its tasks
 *            claimed, could otherwise read the new, larger count, and its
 *            swap on the unchanged word would claim tasks of the new job
 *            before the job opens them (they ran twice, and the extra
 *            finished tasks let the caller return while others still ran)
 *   done     tasks of the current job finished; waiters sleep on it
 * A thread holding a valid claim of job s knows that job s is still in
 * flight (its own task is not done), so it may read the job's description.
 *
 * Wake-up: the caller publishes the job, then wakes slots 1 and 2 if they
 * sleep; every worker wakes the two slots below it in a binary tree
 * (2s + 1, 2s + 2), so that no thread makes more than two wake calls. A
 * worker that is still spinning sees the new number by itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif
#include "pool.h"

enum { AWAKE = 0, SLEEPING = 1 };

typedef struct {
	_Atomic uint32_t state;  /* futex word: AWAKE or SLEEPING */
	uint32_t start_seq;      /* the job number when it was started */
	int slot;
	int64_t moved_ns;        /* when it last left the caller's CPU */
} __attribute__((aligned(64))) gk_worker;

static struct {
	_Alignas(64) _Atomic uint32_t seq;
	_Atomic int threads;    /* slots of the current job */
	_Atomic int wake;       /* the current job wakes sleeping workers */
	_Atomic uint64_t total; /* tasks of the current job */
	/* The current job's functions and argument, copied beside its number
	 * (a worker that sees the number has them in the same line; read only
	 * under a valid claim, see the top of this file), and the CPU its
	 * caller runs on, written only when it changes: a line that a worker
	 * reads at every job and the caller writes costs the caller a trip to
	 * that worker's core, 0.25-0.3 us each way between the two vCPUs of a
	 * Zen 5 guest. With the joined count taken after the task, beside the
	 * count of tasks done: two-thread GF(2^8) decodes on 64 KiB shards
	 * 0.97-0.98 of the time, small GEMMs the same within the noise
	 * (bench/results/2026-11-30-zen5-gf-2t-overhead/). */
	void (*_Atomic run)(void *arg, int64_t t, int slot);
	int (*_Atomic ready)(const void *arg, int64_t t);
	_Atomic(void *) arg;
	_Atomic int caller_cpu; /* or -1 */
	_Alignas(64) _Atomic uint64_t claim;
	_Alignas(64) _Atomic uint32_t done;
	_Atomic uint32_t joined;  /* threads that ran a task of the current job */
	_Atomic uint32_t waiters; /* threads asleep on done */
	_Alignas(64) atomic_flag busy;
	_Atomic int nworkers;
	int spin_ns;
	int64_t last_end_ns; /* when the last job ended (written by the holder of busy) */
} pool = {.busy = ATOMIC_FLAG_INIT, .caller_cpu = -1};

static gk_worker workers[GK_POOL_MAX_THREADS - 1];
/* The most threads a job of this calling thread ran on since it last asked
 * (gk_pool_take_joined). */
static _Thread_local int joined_most;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

/* ---- waiting ------------------------------------------------------------ */

static void futex_wait(_Atomic uint32_t *w, uint32_t val)
{
#ifdef __linux__
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
#else
	(void)w;
	(void)val;
	struct timespec ts = {0, 100000};
	nanosleep(&ts, NULL);
#endif
}

/* Returns the number of threads woken. */
static long futex_wake(_Atomic uint32_t *w, int n)
{
#ifdef __linux__
	return syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
#else
	(void)w;
	(void)n;
	return 0;
#endif
}

/* The CPU this thread runs on, or -1. */
static int this_cpu(void)
{
#ifdef __linux__
	return sched_getcpu();
#else
	return -1;
#endif
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * A bounded spin: cond(ctx) is polled with a pause between polls for the
 * first microseconds, then with sched_yield (another thread of this core,
 * perhaps the one being waited for, may run), until pool.spin_ns has passed.
 * Returns 1 when cond came true.
 */
#define PAUSE_NS 4000
static int spin_until(int (*cond)(const void *), const void *ctx)
{
	const int64_t t0 = now_ns();
	for (int i = 1;; i++) {
		if (cond(ctx))
			return 1;
		if (i % 32 == 0) {
			const int64_t dt = now_ns() - t0;
			if (dt >= pool.spin_ns)
				return 0;
			if (dt >= PAUSE_NS)
				sched_yield();
		}
		cpu_relax();
	}
}

typedef struct {
	uint32_t want;
} done_wait;

static int done_reached(const void *ctx)
{
	return atomic_load_explicit(&pool.done, memory_order_acquire) >= ((const done_wait *)ctx)->want;
}

typedef struct {
	int (*ready)(const void *arg, int64_t t);
	const void *arg;
	int64_t t;
} ready_wait;

static int task_ready(const void *ctx)
{
	const ready_wait *rw = ctx;
	return rw->ready(rw->arg, rw->t);
}

/* Until cond(ctx): a bounded spin, then sleep on the count of finished
 * tasks, which every task bumps once it has marked itself done. */
static void wait_for(int (*cond)(const void *), const void *ctx)
{
	if (cond(ctx) || spin_until(cond, ctx))
		return;
	for (;;) {
		atomic_fetch_add(&pool.waiters, 1);
		const uint32_t d = atomic_load(&pool.done);
		if (!cond(ctx))
			futex_wait(&pool.done, d);
		atomic_fetch_sub(&pool.waiters, 1);
		if (cond(ctx))
			return;
	}
}

/* Task finished: count it, and wake whoever sleeps on the count. */
static void task_done(void)
{
	atomic_fetch_add(&pool.done, 1);
	if (atomic_load(&pool.waiters) > 0)
		futex_wake(&pool.done, INT_MAX);
}

/* ---- claiming ----------------------------------------------------------- */

/* Claim and run tasks of job s on slot until none is left. */
static void participate(uint32_t s, int slot)
{
	int ran = 0;
	uint64_t v = atomic_load_explicit(&pool.claim, memory_order_acquire);
	for (;;) {
		if ((uint32_t)(v >> 32) != s)
			return;
		const uint32_t t = (uint32_t)v;
		/* A total read here may be a later job's: job s has then ended,
		 * and that job closed the claim word before it wrote the total
		 * (release, read here with acquire), so the claim below fails. */
		if (t >= atomic_load_explicit(&pool.total, memory_order_acquire))
			return;
		if (!atomic_compare_exchange_weak_explicit(&pool.claim, &v, v + 1, memory_order_acq_rel,
		                                           memory_order_acquire))
			continue;
		void *const arg = atomic_load_explicit(&pool.arg, memory_order_relaxed);
		int (*const ready)(const void *, int64_t) = atomic_load_explicit(&pool.ready, memory_order_relaxed);
		if (ready != NULL) {
			const ready_wait rw = {ready, arg, t};
			wait_for(task_ready, &rw);
		}
		atomic_load_explicit(&pool.run, memory_order_relaxed)(arg, t, slot);
		/* Counted before the task is, so before the job can end: beside
		 * the count of tasks done, in its line. */
		if (!ran) {
			ran = 1;
			atomic_fetch_add_explicit(&pool.joined, 1, memory_order_relaxed);
		}
		task_done();
		v = atomic_load_explicit(&pool.claim, memory_order_acquire);
	}
}

/* ---- workers ------------------------------------------------------------ */

/* Wake the worker of slot if it sleeps. Where the kernel knows of no cache
 * shared between CPUs, it may queue the woken worker on this thread's CPU
 * even when another stands idle (leave_caller_cpu), and there it would wait
 * for this thread's time slice to end, milliseconds. So this thread yields
 * once after waking a sleeper: a worker queued here runs at once and steps
 * off; one queued elsewhere costs a system call. */
static void wake_slot(int slot)
{
	gk_worker *w = &workers[slot - 1];
	uint32_t st = SLEEPING;
	if (atomic_load(&w->state) == SLEEPING && atomic_compare_exchange_strong(&w->state, &st, AWAKE) &&
	    futex_wake(&w->state, 1) > 0)
		sched_yield();
}

/* The children of slot in the wake-up tree, for a job of nt slots. */
static void wake_children(int slot, int nt)
{
	for (int c = 2 * slot + 1; c <= 2 * slot + 2 && c < nt; c++)
		if (c - 1 < atomic_load_explicit(&pool.nworkers, memory_order_relaxed))
			wake_slot(c);
}

typedef struct {
	uint32_t last;
} seq_wait;

static int seq_moved(const void *ctx)
{
	return atomic_load_explicit(&pool.seq, memory_order_acquire) != ((const seq_wait *)ctx)->last;
}

/* Whether job s is still in flight (some thread still at its tasks). */
static int job_running(uint32_t s)
{
	return atomic_load_explicit(&pool.seq, memory_order_acquire) == s &&
	       atomic_load_explicit(&pool.done, memory_order_relaxed) <
	               atomic_load_explicit(&pool.total, memory_order_relaxed);
}

/* The next job's number after last: spin, then sleep until woken. The spin
 * lasts while job last is still in flight and pool.spin_ns after: a worker
 * that finished its part early (the caller's part took longer by more than
 * the spin, 1 MiB shards of a 10+4 code split in two on a virtual machine)
 * went to sleep on every call and was woken late for the next one. */
static uint32_t next_job(gk_worker *w, uint32_t last)
{
	const seq_wait sw = {last};
	for (;;) {
		if (spin_until(seq_moved, &sw))
			return atomic_load_explicit(&pool.seq, memory_order_acquire);
		if (job_running(last))
			continue;
		atomic_store(&w->state, SLEEPING);
		/* Either the caller sees SLEEPING and wakes this worker, or this
		 * load sees its job (both sides sequentially consistent). */
		if (atomic_load(&pool.seq) == last)
			futex_wait(&w->state, SLEEPING);
		atomic_store(&w->state, AWAKE);
	}
}

/*
 * A worker that joins a job on the CPU its caller runs on shares that CPU
 * with it: the job gets one CPU's worth while another may stand idle. The
 * kernel puts a woken thread on an idle CPU only where it knows the CPUs
 * share a cache; on a machine that reports no shared cache (some virtual
 * machines) a worker woken by the caller stays on the caller's CPU, call
 * after call. The worker then steps off that CPU: its affinity without it
 * for a moment (the kernel moves it at once), then the affinity it had, so
 * that the kernel may move it as it likes afterwards. At most once every
 * GK_POOL_MOVE_GAP_US per worker: where every other CPU is taken, the
 * kernel may well put it back. For the microseconds between the two calls
 * the worker's affinity lacks that CPU: a program that sets the affinity of
 * every thread of the process in that moment would see this worker's put
 * back as it was.
 */
#define GK_POOL_MOVE_GAP_US 1000
static void leave_caller_cpu(gk_worker *w, uint32_t s)
{
#ifdef __linux__
	const int cpu = atomic_load_explicit(&pool.caller_cpu, memory_order_relaxed);
	if (cpu < 0 || cpu >= CPU_SETSIZE || this_cpu() != cpu)
		return;
	/* Only while job s has tasks left to claim: else there is nothing to
	 * step off for. */
	const uint64_t v = atomic_load_explicit(&pool.claim, memory_order_acquire);
	if ((uint32_t)(v >> 32) != s || (uint32_t)v >= atomic_load_explicit(&pool.total, memory_order_relaxed))
		return;
	const int64_t t = now_ns();
	if (t - w->moved_ns < (int64_t)GK_POOL_MOVE_GAP_US * 1000)
		return;
	w->moved_ns = t;
	cpu_set_t had, other;
	if (sched_getaffinity(0, sizeof had, &had) != 0 || !CPU_ISSET(cpu, &had) || CPU_COUNT(&had) < 2)
		return;
	other = had;
	CPU_CLR(cpu, &other);
	if (sched_setaffinity(0, sizeof other, &other) == 0)
		sched_setaffinity(0, sizeof had, &had);
#else
	(void)w;
	(void)s;
#endif
}

static void *worker_main(void *arg)
{
	gk_worker *w = arg;
	uint32_t last = w->start_seq;
	for (;;) {
		last = next_job(w, last);
		const int nt = atomic_load_explicit(&pool.threads, memory_order_relaxed);
		if (atomic_load_explicit(&pool.wake, memory_order_relaxed))
			wake_children(w->slot, nt);
		if (w->slot < nt) {
			leave_caller_cpu(w, last);
			participate(last, w->slot);
		}
	}
	return NULL;
}

/* In a child after fork(): none of the workers exist there. */
static void after_fork_child(void)
{
	atomic_store(&pool.nworkers, 0);
	atomic_store(&pool.waiters, 0);
	atomic_flag_clear(&pool.busy);
}

static void pool_init(void)
{
	long us = GK_POOL_SPIN_US;
	const char *s = getenv("GK_SPIN_US");
	if (s != NULL && *s != '\0') {
		char *end;
		const long v = strtol(s, &end, 10);
		if (*end == '\0' && v >= 0 && v <= 1000000)
			us = v;
	}
	pool.spin_ns = (int)(us * 1000);
	pthread_atfork(NULL, NULL, after_fork_child);
}

/* At least want workers if they can be started; returns how many there are.
 * Called by the holder of pool.busy only. */
static int ensure_workers(int want)
{
	int have = atomic_load(&pool.nworkers);
	if (have >= want)
		return have;
	pthread_attr_t attr;
	if (pthread_attr_init(&attr) != 0)
		return have;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* Signals are the application's business: workers take none. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (; have < want; have++) {
		gk_worker *w = &workers[have];
		w->slot = have + 1;
		w->start_seq = atomic_load(&pool.seq);
		atomic_store(&w->state, AWAKE);
		pthread_t tid;
		if (pthread_create(&tid, &attr, worker_main, w) != 0)
			break;
		atomic_store(&pool.nworkers, have + 1);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return have;
}

/* ---- the caller --------------------------------------------------------- */

static void run_inline(const gk_job *job)
{
	for (int64_t t = 0; t < job->tasks; t++)
		job->run(job->arg, t, 0);
}

static int pool_run(const gk_job *job)
{
	if (job->tasks <= 0)
		return 0;
	if (job->threads <= 1 || job->tasks == 1 || job->tasks >= (int64_t)UINT32_MAX) {
		run_inline(job);
		return 1;
	}
	pthread_once(&pool_once, pool_init);
	/* Another thread's job in flight, or a task of ours calling back in:
	 * this one runs here. */
	if (atomic_flag_test_and_set_explicit(&pool.busy, memory_order_acquire)) {
		run_inline(job);
		return 1;
	}
	const int want = job->threads > GK_POOL_MAX_THREADS ? GK_POOL_MAX_THREADS : job->threads;
	const int have = ensure_workers(want - 1);
	if (have == 0) {
		atomic_flag_clear_explicit(&pool.busy, memory_order_release);
		run_inline(job);
		return 1;
	}
	const int nt = have + 1 < want ? have + 1 : want;
	const uint32_t s = atomic_load_explicit(&pool.seq, memory_order_relaxed) + 1;
	/* Closed first: no swap on the last job's word succeeds from here on
	 * (see the top of this file). */
	atomic_store_explicit(&pool.claim, (uint64_t)s << 32 | UINT32_MAX, memory_order_relaxed);
	atomic_store_explicit(&pool.done, 0, memory_order_relaxed);
	atomic_store_explicit(&pool.joined, 0, memory_order_relaxed);
	atomic_store_explicit(&pool.total, (uint64_t)job->tasks, memory_order_release);
	atomic_store_explicit(&pool.run, job->run, memory_order_relaxed);
	atomic_store_explicit(&pool.ready, job->ready, memory_order_relaxed);
	atomic_store_explicit(&pool.arg, job->arg, memory_order_relaxed);
	atomic_store_explicit(&pool.threads, nt, memory_order_relaxed);
	const int wake = job->work >= GK_POOL_WAKE_WORK ||
	                 now_ns() - pool.last_end_ns < (int64_t)GK_POOL_RUN_US * 1000;
	atomic_store_explicit(&pool.wake, wake, memory_order_relaxed);
	const int cpu = this_cpu();
	if (atomic_load_explicit(&pool.caller_cpu, memory_order_relaxed) != cpu)
		atomic_store_explicit(&pool.caller_cpu, cpu, memory_order_relaxed);
	atomic_store_explicit(&pool.claim, (uint64_t)s << 32, memory_order_release);
	atomic_store(&pool.seq, s);
	if (wake)
		wake_children(0, nt);
	participate(s, 0);
	const done_wait dw = {(uint32_t)job->tasks};
	wait_for(done_reached, &dw);
	const int joined = (int)atomic_load_explicit(&pool.joined, memory_order_relaxed);
	pool.last_end_ns = now_ns();
	atomic_flag_clear_explicit(&pool.busy, memory_order_release);
	return joined;
}

int gk_pool_run(const gk_job *job)
{
	const int joined = pool_run(job);
	if (joined > joined_most)
		joined_most = joined;
	return joined;
}

int gk_pool_take_joined(void)
{
	const int j = joined_most;
	joined_most = 0;
	return j;
}

void gk_pool_wait(int (*cond)(const void *), const void *ctx)
{
	wait_for(cond, ctx);
}

int gk_pool_workers(void)
{
	return atomic_load(&pool.nworkers);
}
