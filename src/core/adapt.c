/*
 * adapt.c - whether a small product runs faster on the threads its rule
 * allows it or on the calling thread alone, learned by timing calls
 * (adapt.h): GEMM's blocked driver (blocked_choice_tmpl.h) and the GF(2^8)
 * product (gf256_gemm.c).
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
 * The GF(2^8) product is split for every GK_GF256_SPLIT_BYTES of rows it
 * streams; at 64 KiB shards a call takes 3 to 10 us on one core with GFNI,
 * and on the same Zen 5 guest two threads ran a 4+2 decode at 0.6 of one
 * thread's speed, a 28+4 encode at 1.4 times it.
 *
 * So from the least work that the rule gives two threads (low) to
 * ADAPT_SPAN times it, each calling thread keeps, per kind of product
 * (float, double, GF(2^8)) and class of work (a half power of two from
 * low), the least time per unit of work of ADAPT_TRIES calls in a row on
 * the threads allowed and of
 * as many on one thread, the first after ADAPT_WARM_NS of untimed calls on
 * the threads; a timed call on the threads that no worker joined is not
 * counted (ADAPT_MISSES). Timed calls that alternated between the two, or
 * that came right after the workers slept, ran two threads at 64^3 at 0.7x
 * the speed they keep in a run of calls (C is in the other core's cache
 * after a call on one thread; a sleeping worker takes a while to wake, on a
 * virtual machine up to a scheduler tick, 4 ms). It then runs the
 * faster (the threads only when ADAPT_GAIN faster) for ADAPT_KEEP calls,
 * or ADAPT_KEEP_ONE when that is the calling thread alone (a choice made
 * while the host was slow to run the workers then costs fewer calls), twice
 * as many each time the same choice comes again (up to 16 times as many),
 * and times again. (Learning again every 512 calls, a 64^3 SGEMM on a Zen 5
 * guest whose two threads ran at 0.55x one thread's speed spent 8% of its
 * time learning: 200 GFLOPS against 216 on one thread.) A call on fewer threads gives the same bits
 * (blocked_tmpl.h: the result does not depend on the count, way 2 aside,
 * which the caller keeps out of this; a GF(2^8) product is exact).
 * GK_GEMM_ADAPT=0 turns it off: the rule alone.
 */
#include <time.h>
#include "adapt.h"
#include "gk_internal.h"
#include "pool.h"

#define ADAPT_SPAN 8.0
#define ADAPT_TRIES 8
#define ADAPT_KEEP 4096
#define ADAPT_KEEP_ONE 512
#define ADAPT_GAIN 0.97
#define ADAPT_CLASSES 8
#define ADAPT_WARM_NS 200000
#define ADAPT_MISSES 64
#define ADAPT_KEEP_DOUBLINGS 4

typedef struct {
	int nt;         /* the count allowed, for which the choice was learned */
	int calls;      /* calls timed (learning) or run (decided) */
	int choice;     /* threads to use; 0 while learning */
	double best[2]; /* least ns per multiply-add: [0] one thread, [1] nt */
	int64_t warm_from; /* when the untimed calls began, 0 before */
	int missed;        /* timed calls on the threads that no worker joined */
	int last;          /* the choice before, kept across learning */
	int streak;        /* how many times in a row it was the same */
	int keep;          /* calls the choice is kept for */
} adapt_class;

static _Thread_local adapt_class classes[GK_ADAPT_KINDS][ADAPT_CLASSES];

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
	c->missed = 0;
	c->keep = 0;
}

int gk_adapt_begin(gk_adapt_kind kind, double work, double low, int nt, gk_adapt *pr)
{
	pr->c = NULL;
	if (nt < 2 || work >= ADAPT_SPAN * low || work < low || kind < 0 || kind >= GK_ADAPT_KINDS ||
	    !adapt_on())
		return nt;
	/* Classes of half a power of two from low. */
	int idx = 0;
	for (double w = low * 1.4142135623730951; w <= work && idx < ADAPT_CLASSES - 1;
	     w *= 1.4142135623730951)
		idx++;
	adapt_class *c = &classes[kind][idx];
	if (c->nt != nt)
		learn_again(c, nt);
	if (c->choice > 0) {
		if (++c->calls < c->keep)
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
	(void)gk_pool_take_joined();
	pr->work = work;
	pr->t0 = now_ns();
	return pr->many ? nt : 1;
}

void gk_adapt_end_timed(gk_adapt *pr)
{
	adapt_class *c = pr->c;
	const double v = (double)(now_ns() - pr->t0) / pr->work;
	/* A call on the threads that the caller ran alone (the workers asleep,
	 * or not yet on a CPU of their own) timed one thread: it is not
	 * counted, unless that goes on for ADAPT_MISSES calls. */
	if (pr->many && gk_pool_take_joined() < 2 && c->missed < ADAPT_MISSES) {
		c->missed++;
		return;
	}
	if (c->best[pr->many] == 0.0 || v < c->best[pr->many])
		c->best[pr->many] = v;
	if (++c->calls >= 3 * ADAPT_TRIES) {
		c->choice = c->best[1] < ADAPT_GAIN * c->best[0] ? c->nt : 1;
		c->calls = 0;
		/* The same choice again keeps it twice as long, up to
		 * ADAPT_KEEP_DOUBLINGS times; another one starts over. */
		c->streak = c->choice == c->last && c->streak < ADAPT_KEEP_DOUBLINGS ? c->streak + 1
		            : c->choice == c->last ? c->streak : 0;
		c->last = c->choice;
		c->keep = (c->choice == 1 ? ADAPT_KEEP_ONE : ADAPT_KEEP) << c->streak;
	}
}
