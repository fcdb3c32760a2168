/*
 * blocked_threads.c - whether a small product runs faster on the threads
 * that gk_gemm_threads allows it or on the calling thread alone, learned
 * by timing calls (blocked.h, gk_gemm_adapt_begin).
 *
 * gk_gemm_threads allows one thread per GK_BLOCKED_MIN_WORK multiply-adds.
 * Near that bound the answer is the machine's, and on a shared host the
 * moment's: another core takes its share of A and all of B from the
 * caller's caches on every call, and the hand-over through the pool costs
 * about a microsecond, against a product that takes one to ten. Two
 * threads ran a 64^3 SGEMM 1.34x faster than one on a Zen 4 guest, and on
 * a Zen 5 guest 1.3x faster in one phase of the host and at 0.5-0.6 of
 * one thread's speed in another (bench/results/2026-11-27-zen5-cpu/logs/
 * threads_small.log).
 *
 * So below ADAPT_WORK multiply-adds each calling thread keeps, per element
 * size and class of work (a half power of two), the least time per
 * multiply-add of ADAPT_TRIES calls in a row on the threads allowed and of
 * as many on one thread, the first after ADAPT_WARM_NS of untimed calls on
 * the threads. Timed calls that alternated between the two, or that came
 * right after the workers slept, ran two threads at 64^3 at 0.7x the speed
 * they keep in a run of calls (C is in the other core's cache after a call
 * on one thread; a sleeping worker takes a while to wake). It then runs the
 * faster (the threads only when ADAPT_GAIN faster) for ADAPT_KEEP calls,
 * and times again. A call on fewer threads gives the same bits
 * (blocked_tmpl.h: the result does not depend on the count, way 2 aside,
 * which the caller keeps out of this). GK_GEMM_ADAPT=0 turns it off: the
 * rule alone.
 */
#include <time.h>
#include "blocked.h"

#define ADAPT_WORK (16.0 * GK_BLOCKED_MIN_WORK)
#define ADAPT_TRIES 8
#define ADAPT_KEEP 4096
#define ADAPT_GAIN 0.97
#define ADAPT_CLASSES 8
#define ADAPT_WARM_NS 200000

typedef struct {
	int nt;         /* the count allowed, for which the choice was learned */
	int calls;      /* calls timed (learning) or run (decided) */
	int choice;     /* threads to use; 0 while learning */
	double best[2]; /* least ns per multiply-add: [0] one thread, [1] nt */
	int64_t warm_from; /* when the untimed calls began, 0 before */
} adapt_class;

static _Thread_local adapt_class classes[2][ADAPT_CLASSES];

static int adapt_on(void)
{
	static int cached = -1;
	return gk_env_on("GK_GEMM_ADAPT", &cached);
}

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void learn_again(adapt_class *c, int nt)
{
	c->nt = nt;
	c->calls = 0;
	c->choice = 0;
	c->best[0] = c->best[1] = 0.0;
	c->warm_from = 0;
}

int gk_gemm_adapt_begin(size_t esize, double work, int nt, gk_gemm_adapt *pr)
{
	pr->c = NULL;
	if (nt < 2 || work >= ADAPT_WORK || work < 2 * GK_BLOCKED_MIN_WORK || !adapt_on())
		return nt;
	/* Classes of half a power of two from twice the bound. */
	int idx = 0;
	for (double w = 2 * GK_BLOCKED_MIN_WORK * 1.4142135623730951; w <= work && idx < ADAPT_CLASSES - 1;
	     w *= 1.4142135623730951)
		idx++;
	adapt_class *c = &classes[esize == sizeof(double)][idx];
	if (c->nt != nt)
		learn_again(c, nt);
	if (c->choice > 0) {
		if (++c->calls < ADAPT_KEEP)
			return c->choice;
		learn_again(c, nt);
	}
	/* Learning: calls on the threads untimed for ADAPT_WARM_NS (they wake
	 * the workers), ADAPT_TRIES timed on the threads, as many on one. */
	if (c->calls == 0) {
		const int64_t t = now_ns();
		if (c->warm_from == 0)
			c->warm_from = t;
		if (t - c->warm_from < ADAPT_WARM_NS)
			return nt;
		c->calls = ADAPT_TRIES;
	}
	pr->c = c;
	pr->many = c->calls < 2 * ADAPT_TRIES;
	pr->work = work;
	pr->t0 = now_ns();
	return pr->many ? nt : 1;
}

void gk_gemm_adapt_end(gk_gemm_adapt *pr)
{
	adapt_class *c = pr->c;
	if (c == NULL)
		return;
	const double v = (double)(now_ns() - pr->t0) / pr->work;
	if (c->best[pr->many] == 0.0 || v < c->best[pr->many])
		c->best[pr->many] = v;
	if (++c->calls >= 3 * ADAPT_TRIES) {
		c->choice = c->best[1] < ADAPT_GAIN * c->best[0] ? c->nt : 1;
		c->calls = 0;
	}
}
