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
 * (blocked_tmpl.h: the result does not depend on the count, ways 2 and 6 aside,
 * which the caller keeps out of this; a GF(2^8) product is exact).
 *
 * Longer products (ADAPT_SPAN times low up to ADAPT_LONG_MAX) are learned
 * the same way, by class of a power of two, for another reason: a core
 * taken by another program. With more runnable threads than cores, the
 * scheduler runs a worker in slices of milliseconds; one taken off its core
 * in the middle of a task holds that task until it runs again, and the
 * caller waits for it. Alternating call by call with BLIS (whose OpenMP
 * workers spin on the other core after each call), 2-thread products of
 * 256^3 and 512^3 on a 2-vCPU Zen 5 guest then ran at times below the
 * calling thread's speed alone (down to 0.82 of it in four runs of a day),
 * and a DGEMM 256^3 beside a spinning process at 0.56-0.82. Such stalls
 * are rare and long, so there the threads' side is the total time of a
 * run of calls that lasts at least ADAPT_LONG_NS (several slices), against
 * that of ADAPT_LONG_ONE_TRIES calls on one thread: the mean, not the
 * least, and every call counts; the threads are taken only when
 * ADAPT_LONG_GAIN faster. A run of ADAPT_LONG_NS often has no stall, and
 * beside a busy process the calls between stalls ran at about one
 * thread's speed: taking one thread only when it was 5% faster kept two
 * threads at 0.6-0.8 of one thread's speed at 256^3 on a 2-vCPU Emerald
 * Rapids guest; with the threads taken only when 10% faster, 1.1-1.4x
 * faster there, the same on an idle machine
 * (bench/results/2026-11-29-emr-busy-c/). The threads,
 * once chosen, are kept for ADAPT_LONG_KEEP_NS and ADAPT_LONG_KEEP_CALLS
 * calls, and one thread for ADAPT_LONG_KEEP_ONE_NS (twice as long each
 * time the same choice comes again, as the count of calls), so that the
 * choice follows the other program's coming and going; learning again
 * costs a few calls on one thread, at most 1-2% of the time when the
 * threads keep winning. (Kept by time alone, a program alternating 1024^3
 * SGEMMs with BLIS's, 25 ms each, learned again every 20 calls and ran 3
 * of them on one thread: its mean speed was 0.93-0.96 of that with the
 * count, on a 2-vCPU Zen 5 guest.) The calls on one
 * thread are ADAPT_LONG_ONE_TRIES only: each costs a call's share of a
 * short run of calls (with 8, a 1024^3 SGEMM ran 8 of its first 20 calls
 * at half speed). Past
 * ADAPT_LONG_MAX a call lasts long enough that a slice's stall costs little
 * against what the threads gain.
 * GK_GEMM_ADAPT=0 turns it off: the rule alone.
 */
#include <stdio.h>
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
#define ADAPT_LONG_MAX 2147483648.0
#define ADAPT_LONG_CLASSES 12
#define ADAPT_LONG_NS 16000000
#define ADAPT_LONG_KEEP_ONE_NS 500000000
#define ADAPT_LONG_KEEP_NS 500000000
#define ADAPT_LONG_KEEP_CALLS 256
#define ADAPT_LONG_GAIN 0.9
#define ADAPT_LONG_ONE_TRIES 3

typedef struct {
	int nt;         /* the count allowed, for which the choice was learned */
	int calls;      /* calls timed on this side (learning) or run (decided) */
	int choice;     /* threads to use; 0 while learning */
	int side;       /* learning: 1 timing the threads, 0 then one thread */
	int timing;     /* learning: past the untimed calls */
	double best[2]; /* [0] one thread, [1] nt: least ns per unit of work,
	                 * or (long classes) the ns of all the calls timed */
	double work[2]; /* long classes: the work of the calls timed */
	int64_t warm_from; /* when the untimed calls began, 0 before */
	int missed;        /* timed calls on the threads that no worker joined */
	int many_calls;    /* for GK_ADAPT_TRACE: calls timed on the threads, */
	int alone;         /* and (long classes) those that no worker joined */
	int last;          /* the choice before, kept across learning */
	int streak;        /* how many times in a row it was the same */
	int keep;          /* calls the choice is kept for */
	int64_t since;     /* long classes: when the choice was made */
} adapt_class;

static _Thread_local adapt_class classes[GK_ADAPT_KINDS][ADAPT_CLASSES + ADAPT_LONG_CLASSES];

static int adapt_on(void)
{
	static int cached = -1;
	return gk_env_on("GK_GEMM_ADAPT", &cached);
}

/* GK_ADAPT_TRACE=1: each choice on stderr, with the times it came from. */
static int never(void)
{
	return 0;
}

static int adapt_trace(void)
{
	static int cached = -1;
	return gk_env_switch("GK_ADAPT_TRACE", &cached, never);
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
	c->side = 1;
	c->timing = 0;
	c->best[0] = c->best[1] = 0.0;
	c->work[0] = c->work[1] = 0.0;
	c->warm_from = 0;
	c->missed = 0;
	c->many_calls = 0;
	c->alone = 0;
	c->keep = 0;
}

int gk_adapt_begin(gk_adapt_kind kind, double work, double low, int nt, gk_adapt *pr)
{
	pr->c = NULL;
	if (nt < 2 || work >= ADAPT_LONG_MAX || work < low || kind < 0 || kind >= GK_ADAPT_KINDS ||
	    !adapt_on())
		return nt;
	/* Classes of half a power of two from low, then (long) of a power of
	 * two from ADAPT_SPAN low. */
	const int is_long = work >= ADAPT_SPAN * low;
	int idx = 0;
	if (!is_long) {
		for (double w = low * 1.4142135623730951; w <= work && idx < ADAPT_CLASSES - 1;
		     w *= 1.4142135623730951)
			idx++;
	} else {
		idx = ADAPT_CLASSES;
		for (double w = 2.0 * ADAPT_SPAN * low;
		     w <= work && idx < ADAPT_CLASSES + ADAPT_LONG_CLASSES - 1; w *= 2.0)
			idx++;
	}
	adapt_class *c = &classes[kind][idx];
	if (c->nt != nt)
		learn_again(c, nt);
	if (c->choice > 0) {
		/* A long class's choice is kept for a time too: the other
		 * program may come or go. The threads, for at least
		 * ADAPT_LONG_KEEP_CALLS calls as well: a program that calls
		 * gemmkit between long stretches of other work would otherwise
		 * learn again every few calls. */
		int stay = ++c->calls < c->keep;
		if (stay && is_long) {
			const int64_t held = now_ns() - c->since;
			stay = c->choice == 1 ? held <= (int64_t)ADAPT_LONG_KEEP_ONE_NS << c->streak
			                      : held <= (int64_t)ADAPT_LONG_KEEP_NS ||
			                                c->calls < ADAPT_LONG_KEEP_CALLS;
		}
		if (stay)
			return c->choice;
		learn_again(c, nt);
	}
	/* Learning: calls on the threads untimed for ADAPT_WARM_NS (they wake
	 * the workers), then timed on the threads, then on one. */
	if (!c->timing) {
		const int64_t t = now_ns();
		if (c->warm_from == 0)
			c->warm_from = t;
		if (t - c->warm_from < ADAPT_WARM_NS)
			return nt;
		c->timing = 1;
	}
	pr->c = c;
	pr->many = c->side;
	pr->is_long = is_long;
	pr->kind = (int)kind;
	pr->cls = idx;
	(void)gk_pool_take_joined();
	pr->work = work;
	pr->t0 = now_ns();
	return pr->many ? nt : 1;
}

void gk_adapt_end_timed(gk_adapt *pr)
{
	adapt_class *c = pr->c;
	const int64_t dt = now_ns() - pr->t0;
	const int s = pr->many;
	if (pr->is_long) {
		c->best[s] += (double)dt;
		c->work[s] += pr->work;
		if (s && gk_pool_take_joined() < 2)
			c->alone++;
	} else {
		/* A call on the threads that the caller ran alone (the workers
		 * asleep, or not yet on a CPU of their own) timed one thread: it
		 * is not counted, unless that goes on for ADAPT_MISSES calls. */
		if (s && gk_pool_take_joined() < 2 && c->missed < ADAPT_MISSES) {
			c->missed++;
			return;
		}
		const double v = (double)dt / pr->work;
		if (c->best[s] == 0.0 || v < c->best[s])
			c->best[s] = v;
	}
	++c->calls;
	c->many_calls += s;
	if (s ? c->calls < ADAPT_TRIES || (pr->is_long && c->best[1] < ADAPT_LONG_NS)
	      : c->calls < (pr->is_long ? ADAPT_LONG_ONE_TRIES : ADAPT_TRIES))
		return;
	if (s) {
		c->side = 0;
		c->calls = 0;
		return;
	}
	const double one = pr->is_long ? c->best[0] / c->work[0] : c->best[0];
	const double many = pr->is_long ? c->best[1] / c->work[1] : c->best[1];
	/* Short products go to the threads only when those are ADAPT_GAIN
	 * faster, long ones only when ADAPT_LONG_GAIN faster: a stall is
	 * rare and long, and a run of ADAPT_LONG_NS often has none, while
	 * the calls between stalls, the worker sharing its core with the
	 * other program, run at about one thread's speed. */
	c->choice = pr->is_long ? (many < ADAPT_LONG_GAIN * one ? c->nt : 1)
	                        : (many < ADAPT_GAIN * one ? c->nt : 1);
	c->calls = 0;
	/* The same choice again keeps it twice as long, up to
	 * ADAPT_KEEP_DOUBLINGS times; another one starts over. */
	c->streak = c->choice == c->last && c->streak < ADAPT_KEEP_DOUBLINGS ? c->streak + 1
	            : c->choice == c->last ? c->streak : 0;
	c->last = c->choice;
	c->keep = (c->choice == 1 ? ADAPT_KEEP_ONE : ADAPT_KEEP) << c->streak;
	c->since = now_ns();
	if (adapt_trace()) {
		static const char *const kinds[GK_ADAPT_KINDS] = {"f32", "f64", "gf256"};
		fprintf(stderr,
		        "gemmkit adapt: %s class %d (%s, work %.3g): one thread %.4g ns/unit, "
		        "%d threads %.4g ns/unit (%d calls, %d of them without a worker) -> %d "
		        "thread%s, kept %d calls (streak %d)\n",
		        kinds[pr->kind], pr->cls, pr->is_long ? "long" : "short", pr->work, one, c->nt,
		        many, c->many_calls, pr->is_long ? c->alone : c->missed, c->choice,
		        c->choice == 1 ? "" : "s", c->keep, c->streak);
	}
}
