/*
 * engine.c - the measurement engine of `gemmkit bench` (engine.h): cap,
 * verification, warm-up, rounds (interleaved or in a row), median.
 */
#define _GNU_SOURCE
#include "engine.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_pause(double s)
{
	if (!(s > 0))
		return;
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void bench_touch_pages(const void *p, size_t bytes)
{
	const volatile unsigned char *b = p;
	unsigned char sum = 0;
	for (size_t i = 0; i < bytes; i += 4096)
		sum += b[i];
	if (bytes > 0)
		sum += b[bytes - 1];
	(void)sum;
}

void bench_engine_init(bench_engine *e, int quick)
{
	memset(e, 0, sizeof *e);
	e->cap = 10;
	e->round_s = quick ? BENCH_QUICK_ROUND_S : BENCH_ROUND_S;
	e->budget_s = quick ? BENCH_QUICK_BUDGET_S : BENCH_BUDGET_S;
	e->warm_s = quick ? BENCH_QUICK_WARMUP_S : BENCH_WARMUP_S;
	e->settle_s = quick ? BENCH_SETTLE_S / 10 : BENCH_SETTLE_S;
	e->progress = stderr;
}

void bench_reset_cap(bench_contender *c)
{
	memset(c->last_s, 0, sizeof c->last_s);
	memset(c->last_work, 0, sizeof c->last_work);
	memset(c->cap_work, 0, sizeof c->cap_work);
}

const char *bench_units_name(bench_units u)
{
	return u == BENCH_GBS ? "GB/s" : "GFLOPS";
}

const char *bench_status_mark(int status)
{
	switch (status) {
	case BENCH_CAP: return "x";
	case BENCH_FAIL: return "ERR";
	case BENCH_UNAVAILABLE: return "n/a";
	default: return "-";
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
	if (n < 1)
		return NAN;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int bench_fastest(const bench_result *res, int n, const int *pick)
{
	int best = -1;
	for (int i = 0; i < n; i++)
		if ((pick == NULL || pick[i]) && res[i].status == BENCH_OK && isfinite(res[i].rate) &&
		    (best < 0 || res[i].rate > res[best].rate))
			best = i;
	return best;
}

void bench_fmt_ratio(char *buf, size_t len, const bench_result *ours, const char *ours_id,
                     const bench_result *ref, const char *ref_id)
{
	if (ours == NULL || ref == NULL || ours->status != BENCH_OK || ref->status != BENCH_OK ||
	    !(ref->rate > 0) || !isfinite(ours->rate)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%.2f (%s%s%s)", ours->rate / ref->rate, ours_id ? ours_id : "", ours_id ? " / " : "",
	         ref_id);
}

double bench_paired_ratio(const bench_result *ours, const bench_result *ref)
{
	if (ours == NULL || ref == NULL || ours->status != BENCH_OK || ref->status != BENCH_OK)
		return NAN;
	const int n = ours->npaired < ref->npaired ? ours->npaired : ref->npaired;
	double v[BENCH_MAX_AUTO_REPS];
	int m = 0;
	for (int q = 0; q < n; q++)
		if (ours->paired_s[q] > 0 && ref->paired_s[q] > 0)
			v[m++] = ref->paired_s[q] / ours->paired_s[q];
	return m < BENCH_MIN_REPS ? NAN : bench_median(v, m);
}

static void progress(bench_engine *e, const bench_cell *cell, const bench_contender *c, const char *what)
{
	e->done++;
	if (e->progress == NULL)
		return;
	int width = snprintf(NULL, 0, "%d", e->total);
	fprintf(e->progress, "[%*d/%d] %s %s %s\n", width, e->done, e->total, cell->label, c->id, what);
	fflush(e->progress);
}

/* Mark c over the cap at this much work and all larger. */
static void over_cap(bench_contender *c, int s, double work)
{
	if (c->cap_work[s] == 0 || work < c->cap_work[s])
		c->cap_work[s] = work;
}

/* 1 when c is not to run at this work because of the cap; `why` says so. */
static int capped(const bench_engine *e, const bench_contender *c, int s, double work, char *why, size_t len)
{
	if (!(e->cap > 0))
		return 0;
	if (c->cap_work[s] > 0 && work >= c->cap_work[s]) {
		snprintf(why, len, "x (over the %g s cap at a smaller size)", e->cap);
		return 1;
	}
	if (c->rate_max[s] > 0 && work / c->rate_max[s] > e->cap) {
		snprintf(why, len, "x (at least %.3g s even at %.3g %s > cap %g s)", work / c->rate_max[s],
		         c->rate_max[s] / 1e9, bench_units_name(c->units), e->cap);
		return 1;
	}
	if (c->last_s[s] > 0 && c->last_work[s] > 0) {
		double pred = c->last_s[s] * work / c->last_work[s];
		if (pred > e->cap) {
			snprintf(why, len, "x (predicted %.3g s > cap %g s)", pred, e->cap);
			return 1;
		}
	}
	return 0;
}

/* Seconds per call of a batch of `calls` calls. */
static double time_batch(bench_contender *c, void *data, int64_t calls)
{
	const bench_ops *o = c->ops;
	double t;
	if (o->timer_start && o->timer_stop) {
		o->timer_start(c, data);
		for (int64_t i = 0; i < calls; i++)
			o->run(c, data);
		t = o->timer_stop(c, data);
	} else {
		double t0 = bench_now();
		for (int64_t i = 0; i < calls; i++)
			o->run(c, data);
		if (o->sync)
			o->sync(c, data);
		t = bench_now() - t0;
	}
	return t / (double)(calls > 0 ? calls : 1);
}

/* The checked run: 0 with its time in *t, or the status run returned. */
static int checked_run(bench_contender *c, void *data, double *t)
{
	const bench_ops *o = c->ops;
	int rc;
	if (o->timer_start && o->timer_stop) {
		o->timer_start(c, data);
		rc = o->run(c, data);
		*t = o->timer_stop(c, data);
		if (o->sync)
			o->sync(c, data); /* the result where the check reads it */
	} else {
		double t0 = bench_now();
		rc = o->run(c, data);
		if (o->sync)
			o->sync(c, data);
		*t = bench_now() - t0;
	}
	return rc;
}

/* Who runs: the cap, then prepare. Returns how many are active. */
static int choose(bench_engine *e, bench_contender *cs, int n, bench_cell *cell, bench_result *res)
{
	char why[320];
	int nactive = 0;
	for (int i = 0; i < n; i++) {
		bench_contender *c = &cs[i];
		c->active = c->prepared = 0;
		if (capped(e, c, cell->series, cell->work, why, sizeof why)) {
			over_cap(c, cell->series, cell->work);
			res[i].status = BENCH_CAP;
			progress(e, cell, c, why);
			continue;
		}
		c->active = 1;
		nactive++;
	}
	return nactive;
}

static void prepare_all(bench_engine *e, bench_contender *cs, int n, bench_cell *cell, bench_result *res)
{
	char why[320];
	for (int i = 0; i < n; i++) {
		bench_contender *c = &cs[i];
		if (!c->active)
			continue;
		c->why[0] = '\0';
		c->work = cell->work;
		int st = c->ops->prepare ? c->ops->prepare(c, cell->data) : 0;
		c->prepared = 1;
		if (st != 0) {
			c->active = 0;
			res[i].status = st == BENCH_UNAVAILABLE ? BENCH_UNAVAILABLE : BENCH_SKIP;
			snprintf(why, sizeof why, "%s (%s)", bench_status_mark(res[i].status), c->why);
			progress(e, cell, c, why);
		}
	}
}

static void verify_all(bench_engine *e, bench_contender *cs, int n, bench_cell *cell, bench_result *res)
{
	char why[320], msg[256];
	const int s = cell->series;
	for (int i = 0; i < n; i++) {
		bench_contender *c = &cs[i];
		bench_result *r = &res[i];
		if (!c->active)
			continue;
		if (cell->before_check)
			cell->before_check(cell->data, c);
		c->why[0] = '\0';
		double t = 0;
		int rc = checked_run(c, cell->data, &t);
		if (rc != 0) {
			c->active = 0;
			r->status = rc == BENCH_SKIP ? BENCH_SKIP : BENCH_FAIL;
			if (r->status == BENCH_FAIL)
				e->failed = 1;
			snprintf(why, sizeof why, "%s (%s)", bench_status_mark(r->status), c->why[0] ? c->why : "failed");
			progress(e, cell, c, why);
			continue;
		}
		if (cell->check) {
			msg[0] = '\0';
			double err = NAN;
			int bad = cell->check(cell->data, c, &err, msg, sizeof msg) != 0;
			r->err = err;
			if (bad) {
				c->active = 0;
				r->status = BENCH_FAIL;
				e->failed = 1;
				snprintf(why, sizeof why, "ERR (%s)", msg[0] ? msg : "wrong result");
				progress(e, cell, c, why);
				continue;
			}
		}
		c->t_est = t > 0 ? t : 1e-9;
		if (e->cap > 0 && c->t_est > e->cap) {
			c->active = 0;
			r->status = BENCH_CAP;
			over_cap(c, s, c->work);
			c->last_s[s] = c->t_est, c->last_work[s] = c->work;
			snprintf(why, sizeof why, "x (one run took %.3g s > cap %g s)", c->t_est, e->cap);
			progress(e, cell, c, why);
		}
	}
}

/* Warm-up, batch size and number of rounds; returns the most rounds. */
static int size_rounds(bench_engine *e, bench_contender *cs, int n, bench_cell *cell, bench_result *res)
{
	int max_reps = 0;
	for (int i = 0; i < n; i++) {
		bench_contender *c = &cs[i];
		if (!c->active)
			continue;
		if (c->t_est < BENCH_WARMUP_MAX_RUN_S && e->warm_s > 0) {
			int64_t nw = (int64_t)ceil(e->warm_s / c->t_est);
			double tw = time_batch(c, cell->data, nw < 1 ? 1 : nw);
			c->t_est = tw > 0 ? tw : 1e-9;
		}
		c->batch = (int64_t)(e->round_s / c->t_est);
		if (c->batch < 1)
			c->batch = 1;
		if (e->reps > 0) {
			c->reps = (int)e->reps;
		} else if (c->t_est > BENCH_SINGLE_REP_S) {
			c->reps = 1; /* the checked run was the warm-up */
		} else {
			double r = ceil(e->budget_s / ((double)c->batch * c->t_est));
			c->reps = r < BENCH_MIN_REPS ? BENCH_MIN_REPS : r > BENCH_MAX_AUTO_REPS ? BENCH_MAX_AUTO_REPS : (int)r;
		}
		c->times = malloc((size_t)c->reps * sizeof *c->times);
		if (c->times == NULL) {
			c->active = 0;
			res[i].status = BENCH_SKIP;
			progress(e, cell, c, "- (out of memory)");
			continue;
		}
		if (c->reps > max_reps)
			max_reps = c->reps;
	}
	return max_reps;
}

static void timed_rounds(bench_engine *e, bench_contender *cs, int n, bench_cell *cell, int max_reps)
{
	if (cell->threads > 1) {
		/* In passes: in each, every contender runs its share of the rounds
		 * in a row, after a pause and one untimed call to wake its pool,
		 * starting with the next contender in turn. */
		const int passes = max_reps < BENCH_PASSES ? max_reps : BENCH_PASSES;
		for (int p = 0; p < passes; p++)
			for (int j = 0; j < n; j++) {
				bench_contender *c = &cs[(j + p) % n];
				const int r0 = (int)((int64_t)c->reps * p / passes), r1 = (int)((int64_t)c->reps * (p + 1) / passes);
				if (!c->active || r1 <= r0)
					continue;
				bench_pause(e->settle_s);
				if (cell->before_rounds)
					cell->before_rounds(cell->data);
				if (c->t_est < BENCH_WARMUP_MAX_RUN_S)
					time_batch(c, cell->data, 1);
				for (int round = r0; round < r1; round++)
					c->times[round] = time_batch(c, cell->data, c->batch);
			}
		return;
	}
	/* Interleaved: each round runs every contender once, starting with the
	 * next one in turn. */
	for (int round = 0; round < max_reps; round++)
		for (int j = 0; j < n; j++) {
			bench_contender *c = &cs[(j + round) % n];
			if (!c->active || round >= c->reps)
				continue;
			if (cell->before_rounds)
				cell->before_rounds(cell->data);
			c->times[round] = time_batch(c, cell->data, c->batch);
		}
}

static void medians(bench_engine *e, bench_contender *cs, int n, bench_cell *cell, bench_result *res)
{
	char why[320];
	const int s = cell->series;
	for (int i = 0; i < n; i++) {
		bench_contender *c = &cs[i];
		bench_result *r = &res[i];
		if (!c->active)
			continue;
		r->npaired = 0;
		if (cell->threads <= 1) {
			r->npaired = c->reps < BENCH_MAX_AUTO_REPS ? c->reps : BENCH_MAX_AUTO_REPS;
			memcpy(r->paired_s, c->times, (size_t)r->npaired * sizeof *c->times);
		}
		double med = bench_median(c->times, c->reps);
		r->min_s = c->times[0];
		r->max_s = c->times[c->reps - 1];
		free(c->times);
		c->times = NULL;
		c->active = 0;
		r->median_s = med;
		r->reps = c->reps;
		r->batch = c->batch;
		r->rate = med > 0 ? c->work / med * 1e-9 : NAN;
		c->last_s[s] = med, c->last_work[s] = c->work;
		if (e->cap > 0 && med > e->cap) {
			over_cap(c, s, c->work);
			r->status = BENCH_CAP;
			snprintf(why, sizeof why, "x (median %.3g s > cap %g s)", med, e->cap);
		} else {
			r->status = BENCH_OK;
			snprintf(why, sizeof why, "%.4g %s (%.3g s, %d x %lld runs)", r->rate, bench_units_name(c->units), med,
			         c->reps, (long long)c->batch);
		}
		progress(e, cell, c, why);
	}
}

void bench_run_cell(bench_engine *e, bench_contender *cs, int n, bench_cell *cell, bench_result *res)
{
	for (int i = 0; i < n; i++)
		res[i] = (bench_result){.status = BENCH_NONE, .median_s = NAN, .min_s = NAN, .max_s = NAN,
		                        .rate = NAN, .err = NAN};
	if (cell->series < 0 || cell->series >= BENCH_SERIES)
		cell->series = 0;
	if (choose(e, cs, n, cell, res) == 0)
		return;
	char why[256] = "";
	if (cell->setup && cell->setup(cell->data, why, sizeof why) != 0) {
		char what[300];
		snprintf(what, sizeof what, "- (%s)", why[0] ? why : "cannot set up the inputs");
		for (int i = 0; i < n; i++)
			if (cs[i].active) {
				cs[i].active = 0;
				res[i].status = BENCH_SKIP;
				progress(e, cell, &cs[i], what);
			}
		return;
	}
	prepare_all(e, cs, n, cell, res);
	verify_all(e, cs, n, cell, res);
	int max_reps = size_rounds(e, cs, n, cell, res);
	timed_rounds(e, cs, n, cell, max_reps);
	medians(e, cs, n, cell, res);
	for (int i = 0; i < n; i++) {
		if (cs[i].prepared && cs[i].ops->release)
			cs[i].ops->release(&cs[i], cell->data);
		cs[i].prepared = 0;
	}
	if (cell->teardown)
		cell->teardown(cell->data);
}
