/*
 * test_bench_engine.c - the measurement engine of `gemmkit bench`
 * (tools/gemmkit/bench/engine.c) with fake contenders whose times are
 * known: each times itself (timer_start / timer_stop), returning a scripted
 * time per call, so that medians, the cap and the ratio column can be
 * asserted exactly, and the verification failure path is taken on purpose.
 */
#include <math.h>
#include <string.h>
#include "engine.h"
#include "test_util.h"

typedef struct fake {
	const double *times; /* seconds per call, one per timed batch, cycled */
	int ntimes;
	int next;            /* the next entry of times[] */
	double scale;        /* times are multiplied by this (a larger cell) */
	int wrong;           /* the check fails */
	int fail_run;        /* run returns BENCH_FAIL */
	int calls, prepared, released, checked;
	int64_t batch_calls; /* runs since timer_start */
	int syncs;
} fake;

static int fake_prepare(bench_contender *c, void *cell)
{
	(void)cell;
	((fake *)c->self)->prepared++;
	return 0;
}

static int fake_run(bench_contender *c, void *cell)
{
	(void)cell;
	fake *f = c->self;
	f->calls++;
	f->batch_calls++;
	if (f->fail_run) {
		snprintf(c->why, sizeof c->why, "the call failed");
		return BENCH_FAIL;
	}
	return 0;
}

/* The order in which batches start, one letter per contender (its id). */
static char order[64];
static size_t norder;

static void fake_start(bench_contender *c, void *cell)
{
	(void)cell;
	((fake *)c->self)->batch_calls = 0;
	if (norder + 1 < sizeof order)
		order[norder++] = c->id[0];
	order[norder] = '\0';
}

/* The whole batch: calls x the scripted time per call. */
static double fake_stop(bench_contender *c, void *cell)
{
	(void)cell;
	fake *f = c->self;
	double t = f->times[f->next % f->ntimes] * f->scale;
	f->next++;
	return t * (double)f->batch_calls;
}

static void fake_release(bench_contender *c, void *cell)
{
	(void)cell;
	((fake *)c->self)->released++;
}

static void fake_sync(bench_contender *c, void *cell)
{
	(void)cell;
	((fake *)c->self)->syncs++;
}

static const bench_ops fake_ops = {fake_prepare, fake_run, fake_sync, fake_start, fake_stop, fake_release};

static int fake_check(void *data, bench_contender *c, double *err, char *why, size_t len)
{
	(void)data;
	fake *f = c->self;
	f->checked++;
	if (f->syncs < 1) {
		snprintf(why, len, "checked before sync");
		return -1;
	}
	*err = f->wrong ? 0.5 : 1e-8;
	if (f->wrong) {
		snprintf(why, len, "error %.3g", *err);
		return -1;
	}
	return 0;
}

static void init_contender(bench_contender *c, const char *id, fake *f)
{
	memset(c, 0, sizeof *c);
	snprintf(c->id, sizeof c->id, "%s", id);
	snprintf(c->name, sizeof c->name, "%s", id);
	c->ops = &fake_ops;
	c->self = f;
	c->units = BENCH_GFLOPS;
}

static bench_cell make_cell(double work, int threads)
{
	bench_cell cell;
	memset(&cell, 0, sizeof cell);
	snprintf(cell.label, sizeof cell.label, "fake");
	cell.work = work;
	cell.threads = threads;
	cell.check = fake_check;
	return cell;
}

static bench_engine quiet_engine(double cap, int64_t reps)
{
	bench_engine e;
	bench_engine_init(&e, 1);
	e.progress = NULL;
	e.cap = cap;
	e.reps = reps;
	e.settle_s = 0;
	e.warm_s = 0;      /* no warm-up batches: every stop is a timed round */
	e.round_s = 1e-12; /* one call per batch */
	return e;
}

/* Medians: 5 rounds of scripted times; the check run is the first entry. */
static void test_median(void)
{
	/* One thread: entry 0 is the checked run, then 5 rounds. Two threads:
	 * the checked run, then BENCH_PASSES (3) passes of 1, 2 and 2 rounds,
	 * each after one untimed call (9). */
	static const double ta1[] = {1.0, 3.0, 1.0, 2.0, 5.0, 4.0}; /* median of 3 1 2 5 4 = 3 */
	static const double tb1[] = {1.0, 2.0, 2.0, 8.0, 6.0, 1.0}; /* median of 2 2 8 6 1 = 2 */
	static const double ta2[] = {1.0, 9.0, 3.0, 9.0, 1.0, 2.0, 9.0, 5.0, 4.0};
	static const double tb2[] = {1.0, 9.0, 2.0, 9.0, 2.0, 8.0, 9.0, 6.0, 1.0};
	/* In hundredths of a second: a call under BENCH_WARMUP_MAX_RUN_S gets
	 * the untimed call before its rounds in a row. */
	fake fa = {.times = ta1, .ntimes = 6, .scale = 0.01};
	fake fb = {.times = tb1, .ntimes = 6, .scale = 0.01};
	bench_contender cs[2];
	init_contender(&cs[0], "a", &fa);
	init_contender(&cs[1], "b", &fb);
	for (int threads = 1; threads <= 2; threads++) {
		fa.next = fb.next = 0;
		if (threads == 2)
			fa.times = ta2, fb.times = tb2, fa.ntimes = fb.ntimes = 9;
		bench_engine e = quiet_engine(100, 5);
		bench_cell cell = make_cell(2e9, threads);
		bench_result res[2];
		bench_run_cell(&e, cs, 2, &cell, res);
		TU_CHECK(res[0].status == BENCH_OK && res[1].status == BENCH_OK, "both timed (%d threads)", threads);
		TU_CHECK(res[0].median_s == 3.0 * 0.01, "median of a: %g, expected 0.03 (%d threads)", res[0].median_s, threads);
		TU_CHECK(res[1].median_s == 2.0 * 0.01, "median of b: %g, expected 0.02 (%d threads)", res[1].median_s, threads);
		TU_CHECK(fabs(res[0].rate - 2.0 / 0.03) < 1e-9, "rate of a: %g GFLOPS, expected 2e9 / 0.03 s", res[0].rate);
		TU_CHECK(res[0].min_s == 1.0 * 0.01 && res[0].max_s == 5.0 * 0.01, "min and max of a: %g %g", res[0].min_s,
		         res[0].max_s);
		TU_CHECK(res[0].reps == 5 && res[0].batch == 1, "5 rounds of 1 call: %d x %lld", res[0].reps,
		         (long long)res[0].batch);
		TU_CHECK(fabs(res[0].err - 1e-8) < 1e-20, "the check's error is kept");
		/* Multi-threaded cells add one untimed call per contender and pass. */
		const int untimed = threads > 1 ? BENCH_PASSES : 0;
		TU_CHECK(fa.next == 6 + untimed, "a timed %d batches, expected %d", fa.next, 6 + untimed);
	}
	TU_CHECK(fa.prepared == 2 && fa.released == 2, "prepare and release once per cell: %d %d", fa.prepared,
	         fa.released);
	/* An even count: the mean of the middle two. */
	double v[] = {4, 1, 3, 2};
	TU_CHECK(bench_median(v, 4) == 2.5, "median of 4 1 3 2: %g", bench_median(v, 4));
}

/* The cap: predicted from the previous cell by the ratio of work. */
static void test_cap(void)
{
	static const double t[] = {1.0};
	fake ff = {.times = t, .ntimes = 1, .scale = 1};
	fake fs = {.times = t, .ntimes = 1, .scale = 1};
	bench_contender cs[2];
	init_contender(&cs[0], "fast", &ff);
	init_contender(&cs[1], "slow", &fs);
	bench_engine e = quiet_engine(10, 3);
	bench_result res[2];
	/* Cell 1: fast 0.1 s, slow 4 s per call; both under the 10 s cap. */
	ff.scale = 0.1, fs.scale = 4;
	bench_cell c1 = make_cell(1e9, 1);
	bench_run_cell(&e, cs, 2, &c1, res);
	TU_CHECK(res[0].status == BENCH_OK && res[1].status == BENCH_OK, "cell 1: both under the cap");
	/* Cell 2, 4 times the work: slow is predicted at 16 s and not run. */
	ff.scale = 0.4, fs.scale = 16;
	int slow_calls = fs.calls;
	bench_cell c2 = make_cell(4e9, 1);
	bench_run_cell(&e, cs, 2, &c2, res);
	TU_CHECK(res[0].status == BENCH_OK, "cell 2: fast timed");
	TU_CHECK(res[1].status == BENCH_CAP && fs.calls == slow_calls, "cell 2: slow predicted over the cap "
	         "and not run (status %d, %d calls)", res[1].status, fs.calls - slow_calls);
	TU_CHECK(strcmp(bench_status_mark(res[1].status), "x") == 0, "the cap shows as x");
	/* Cell 3, more work still: slow stays out without a prediction. */
	bench_cell c3 = make_cell(8e9, 1);
	bench_run_cell(&e, cs, 2, &c3, res);
	TU_CHECK(res[1].status == BENCH_CAP && fs.calls == slow_calls, "cell 3: slow stays over the cap");
	/* A checked run over the cap: fast takes 20 s now; not timed further. */
	ff.scale = 20;
	bench_reset_cap(&cs[0]);
	int fast_calls = ff.calls;
	bench_cell c4 = make_cell(1e9, 1);
	bench_run_cell(&e, cs, 2, &c4, res);
	TU_CHECK(res[0].status == BENCH_CAP && ff.calls == fast_calls + 1, "one checked run over the cap: x "
	         "after 1 call (%d)", ff.calls - fast_calls);
	/* A median over the cap (rounds of 11 s, the checked run 1 s). */
	static const double t5[] = {1.0 / 11, 1, 1, 1};
	fake f5 = {.times = t5, .ntimes = 4, .scale = 11};
	bench_contender c5;
	init_contender(&c5, "median", &f5);
	bench_cell cell5 = make_cell(1e9, 1);
	bench_result r5;
	bench_run_cell(&e, &c5, 1, &cell5, &r5);
	TU_CHECK(r5.status == BENCH_CAP && r5.median_s == 11, "a median over the cap is x (status %d, %g s)",
	         r5.status, r5.median_s);
	/* No cap at all. */
	e.cap = 0;
	bench_reset_cap(&cs[1]);
	bench_run_cell(&e, cs, 2, &c3, res);
	TU_CHECK(res[1].status == BENCH_OK, "without a cap every contender runs");
}

/* A wrong result: ERR, not timed, the engine remembers the failure. */
static void test_verification_failure(void)
{
	static const double t[] = {0.5};
	fake fg = {.times = t, .ntimes = 1, .scale = 1};
	fake fw = {.times = t, .ntimes = 1, .scale = 1, .wrong = 1};
	fake fr = {.times = t, .ntimes = 1, .scale = 1, .fail_run = 1};
	bench_contender cs[3];
	init_contender(&cs[0], "good", &fg);
	init_contender(&cs[1], "wrong", &fw);
	init_contender(&cs[2], "broken", &fr);
	bench_engine e = quiet_engine(100, 3);
	bench_cell cell = make_cell(1e9, 1);
	bench_result res[3];
	bench_run_cell(&e, cs, 3, &cell, res);
	TU_CHECK(e.failed == 1, "a wrong result sets failed");
	TU_CHECK(res[0].status == BENCH_OK, "the good contender is timed");
	TU_CHECK(res[1].status == BENCH_FAIL && fw.calls == 1 && fw.checked == 1 && isnan(res[1].median_s),
	         "the wrong one is ERR after its one checked run (%d calls)", fw.calls);
	TU_CHECK(res[1].err == 0.5, "its error is reported: %g", res[1].err);
	TU_CHECK(res[2].status == BENCH_FAIL && fr.calls == 1 && fr.checked == 0, "a failed call is ERR, unchecked");
	TU_CHECK(strcmp(bench_status_mark(BENCH_FAIL), "ERR") == 0, "ERR mark");
	TU_CHECK(fw.released == 1 && fr.released == 1, "failed contenders are released too");
}

/* The cell's hook before rounds: a '|' in the order of batches. */
static void fake_before_rounds(void *data)
{
	(void)data;
	if (norder + 1 < sizeof order)
		order[norder++] = '|';
	order[norder] = '\0';
}

/* One thread: the checked runs, then rounds that each run every contender
 * once, starting with the next one in turn, each batch after the cell's
 * before_rounds hook. Several: passes in which each runs its share of the
 * rounds in a row after the hook and one untimed call, starting with the
 * next one in turn. */
static void test_interleaving(void)
{
	static const double t[] = {0.001};
	fake f[3] = {{.times = t, .ntimes = 1, .scale = 1}, {.times = t, .ntimes = 1, .scale = 1},
	             {.times = t, .ntimes = 1, .scale = 1}};
	bench_contender cs[3];
	init_contender(&cs[0], "a", &f[0]);
	init_contender(&cs[1], "b", &f[1]);
	init_contender(&cs[2], "c", &f[2]);
	bench_engine e = quiet_engine(100, 3);
	bench_result res[3];
	bench_cell one = make_cell(1e6, 1);
	norder = 0;
	bench_run_cell(&e, cs, 3, &one, res);
	TU_CHECK(strcmp(order, "abc" "abc" "bca" "cab") == 0, "1 thread: batches in the order %s", order);
	one.before_rounds = fake_before_rounds;
	norder = 0;
	bench_run_cell(&e, cs, 3, &one, res);
	TU_CHECK(strcmp(order, "abc" "|a|b|c" "|b|c|a" "|c|a|b") == 0, "1 thread: hook and batches in the order %s",
	         order);
	/* Interleaved: every round's time kept in order, for ratios round by round. */
	TU_CHECK(res[0].npaired == 3 && res[2].npaired == 3, "1 thread: %d and %d rounds kept for pairs",
	         res[0].npaired, res[2].npaired);
	TU_CHECK(isfinite(bench_paired_ratio(&res[0], &res[1])), "1 thread: a paired ratio");
	bench_cell two = make_cell(1e6, 2);
	norder = 0;
	bench_run_cell(&e, cs, 3, &two, res);
	TU_CHECK(strcmp(order, "abc" "aabbcc" "bbccaa" "ccaabb") == 0, "2 threads: batches in the order %s", order);
	two.before_rounds = fake_before_rounds;
	norder = 0;
	bench_run_cell(&e, cs, 3, &two, res);
	TU_CHECK(strcmp(order, "abc" "|aa|bb|cc" "|bb|cc|aa" "|cc|aa|bb") == 0,
	         "2 threads: hook and batches in the order %s", order);
	two.before_rounds = NULL;
	/* In passes, rounds of different contenders are not side by side: no pairs. */
	TU_CHECK(res[0].npaired == 0 && isnan(bench_paired_ratio(&res[0], &res[1])), "2 threads: no pairs (%d)",
	         res[0].npaired);
	/* One round each: one pass. */
	bench_engine e1 = quiet_engine(100, 1);
	norder = 0;
	bench_run_cell(&e1, cs, 3, &two, res);
	TU_CHECK(strcmp(order, "abc" "aabbcc") == 0, "2 threads, 1 round: batches in the order %s", order);
}

/* The ratio column: ours over the fastest reference. */
static void test_ratio(void)
{
	bench_result r[4] = {
		{BENCH_OK, 1, 1, 1, 90, NAN, 3, 1, 0, {0}},   /* ours */
		{BENCH_OK, 1, 1, 1, 60, NAN, 3, 1, 0, {0}},   /* ref 1 */
		{BENCH_OK, 1, 1, 1, 75, NAN, 3, 1, 0, {0}},   /* ref 2 */
		{BENCH_CAP, 1, 1, 1, 500, NAN, 3, 1, 0, {0}}, /* a capped reference does not count */
	};
	const int refs[4] = {0, 1, 1, 1};
	int best = bench_fastest(r, 4, refs);
	TU_CHECK(best == 2, "fastest reference: %d, expected 2", best);
	char buf[64];
	bench_fmt_ratio(buf, sizeof buf, &r[0], NULL, &r[best], "blis");
	TU_CHECK(strcmp(buf, "1.20 (blis)") == 0, "ratio text '%s'", buf);
	bench_fmt_ratio(buf, sizeof buf, &r[0], "cpu.blocked", &r[best], "blis");
	TU_CHECK(strcmp(buf, "1.20 (cpu.blocked / blis)") == 0, "ratio text naming ours '%s'", buf);
	bench_fmt_ratio(buf, sizeof buf, &r[3], NULL, &r[best], "blis");
	TU_CHECK(strcmp(buf, "-") == 0, "no ratio for a capped contender: '%s'", buf);
	const int none[4] = {0, 0, 0, 0};
	TU_CHECK(bench_fastest(r, 4, none) == -1, "no reference: -1");

	/* Round by round: ours 1.0 s a call in rounds where the reference took
	 * 1.2, 2.4 (a slow phase for both: 2.0 ours) and 0.9; the median of
	 * the per-round ratios, not the ratio of the medians. */
	bench_result us = {BENCH_OK, 1, 1, 2, 1, NAN, 4, 1, 4, {1.0, 2.0, 1.0, 1.0}};
	bench_result ref = {BENCH_OK, 1.2, 0.9, 2.4, 1, NAN, 4, 1, 4, {1.2, 2.4, 0.9, 1.3}};
	const double pr = bench_paired_ratio(&us, &ref);
	TU_CHECK(fabs(pr - 1.2) < 1e-12, "paired ratio %g, expected 1.2 (median of 1.2, 1.2, 0.9, 1.3)", pr);
	us.npaired = 2; /* fewer than BENCH_MIN_REPS pairs: none */
	TU_CHECK(isnan(bench_paired_ratio(&us, &ref)), "paired ratio from 2 rounds: NaN");
	us.npaired = 4;
	ref.status = BENCH_CAP;
	TU_CHECK(isnan(bench_paired_ratio(&us, &ref)), "paired ratio against a capped reference: NaN");
	TU_CHECK(isnan(bench_paired_ratio(&us, NULL)), "paired ratio without a reference: NaN");
}

int main(void)
{
	test_median();
	test_cap();
	test_verification_failure();
	test_interleaving();
	test_ratio();
	return tu_finish("test_bench_engine");
}
