/*
 * engine.h - the measurement engine of `gemmkit bench`, shared by every
 * suite (GEMM, peak, GF(2^8) / Reed-Solomon) and every backend.
 *
 * A contender is anything that can be timed: a gemmkit algorithm, a
 * reference library, a peak loop, an erasure coder, a GPU kernel. It is a
 * bench_contender with a small table of operations (bench_ops): prepare for
 * a cell, run once (or enqueue one run), synchronize, release; optionally
 * time itself (timer_start / timer_stop, e.g. with CUDA events) instead of
 * being timed by the host clock. Its units are GFLOPS or GB/s.
 *
 * A cell is one measurement point (a shape, a precision, a thread count):
 * its work per call (flops or bytes) and hooks that make its inputs and
 * reference (setup), check a contender's result (check) and free them
 * (teardown). bench_run_cell takes every contender through the same steps:
 *
 *   1. Cap: a contender whose time, predicted from its previous cell of the
 *      same series by the ratio of work, is over the cap is not run ("x"),
 *      nor at any cell of more work in that series.
 *   2. Verification first: one run of each contender into a poisoned output
 *      (before_check), checked (check). A wrong result is "ERR", is not
 *      timed, and sets bench_engine.failed (exit status 1).
 *   3. Warm-up: the checked run, then about warm_s more of calls for a
 *      contender faster than BENCH_WARMUP_MAX_RUN_S per call; this measures
 *      the time per call that sizes its batches (about round_s each).
 *   4. Timed rounds: enough for about budget_s (at least BENCH_MIN_REPS, at
 *      most BENCH_MAX_AUTO_REPS; one for a call over BENCH_SINGLE_REP_S), or
 *      exactly `reps`. With one thread the rounds are interleaved (each round
 *      runs every contender once, starting with the next one in turn); with
 *      several, in BENCH_PASSES passes: in each, every contender runs its
 *      share of the rounds in a row after a pause of settle_s and one
 *      untimed call (a thread pool still spinning after its own calls takes
 *      no core from the next contender's threads), starting with the next
 *      contender in turn, so that a drift of the machine's speed during
 *      the cell reaches every contender alike. Before each timed round
 *      (several threads: before each contender's rounds in a row) the
 *      cell's before_rounds hook, untimed, touches the operands
 *      (bench_touch_pages).
 *   5. The median over rounds is the time of one call; the rate is work /
 *      time (GFLOPS or GB/s). A median over the cap is "x" too.
 *
 * Progress goes to bench_engine.progress (stderr), one line per contender
 * and cell: "[12/81] sgemm n=1024 cpu.ikj 18.2 GFLOPS (0.118 s, 6 x 1 runs)".
 */
#ifndef GK_BENCH_ENGINE_H
#define GK_BENCH_ENGINE_H

#include <stdint.h>
#include <stdio.h>

/* Time budgets, in seconds: normal run, then --quick. */
#define BENCH_ROUND_S 0.03   /* one batch of calls of one contender */
#define BENCH_BUDGET_S 0.6   /* timed part per contender and cell */
#define BENCH_WARMUP_S 0.02  /* warm-up per contender and cell, for fast calls */
#define BENCH_QUICK_ROUND_S 0.002
#define BENCH_QUICK_BUDGET_S 0.01
#define BENCH_QUICK_WARMUP_S 0.001
#define BENCH_WARMUP_MAX_RUN_S 0.25 /* a call slower than this needs no warm-up beyond the check */
#define BENCH_SINGLE_REP_S 5.0      /* a call slower than this is timed once */
#define BENCH_MIN_REPS 3
#define BENCH_MAX_AUTO_REPS 50
/* With several threads, the pause before each contender's rounds, in which
 * the previous one's thread pool stops spinning and sleeps (OpenBLAS's
 * workers spin for 2^28 cycles, about 0.1 s). */
#define BENCH_SETTLE_S 0.2
/* With several threads, the passes over the contenders that share out each
 * one's rounds (fewer when a contender has fewer rounds). */
#define BENCH_PASSES 3

#define BENCH_SERIES 4 /* cap series: e.g. one per precision */

typedef enum { BENCH_GFLOPS = 0, BENCH_GBS = 1 } bench_units;

/* The status of a contender in a cell; also what prepare and run return. */
enum {
	BENCH_NONE = 0,
	BENCH_OK,          /* timed */
	BENCH_CAP,         /* over the cap: "x" */
	BENCH_FAIL,        /* wrong result or failed call: "ERR" */
	BENCH_SKIP,        /* not run here: "-" (precision, sizes, memory) */
	BENCH_UNAVAILABLE  /* cannot run on this machine as named: "n/a" */
};

typedef struct bench_contender bench_contender;

/*
 * What a contender does. `cell` is bench_cell.data. Only run is required.
 *   prepare   before the cell's checked run, once per cell (upload inputs,
 *             allocate device buffers, build tables): 0, or BENCH_SKIP /
 *             BENCH_UNAVAILABLE with a reason in c->why.
 *   run       one call, or enqueue one (asynchronous contenders): 0, or
 *             BENCH_SKIP / BENCH_FAIL with a reason in c->why.
 *   sync      wait until every run enqueued has finished, and put the
 *             result where the cell's check reads it (NULL: run is
 *             synchronous). Called after the checked run, and at the end
 *             of every batch the host clock times.
 *   timer_start, timer_stop   both or neither: the contender times its own
 *             batches (e.g. CUDA events around the enqueued runs); stop
 *             waits for the runs and returns the seconds since start.
 *             Without them the engine times batches with the host clock
 *             (and sync).
 *   release   after the cell (free what prepare made); called whenever
 *             prepare was.
 */
typedef struct bench_ops {
	int (*prepare)(bench_contender *c, void *cell);
	int (*run)(bench_contender *c, void *cell);
	void (*sync)(bench_contender *c, void *cell);
	void (*timer_start)(bench_contender *c, void *cell);
	double (*timer_stop)(bench_contender *c, void *cell);
	void (*release)(bench_contender *c, void *cell);
} bench_ops;

struct bench_contender {
	char id[64];       /* what --algos takes: "cpu.ikj", "auto", "openblas-best" */
	char name[160];    /* table column */
	bench_units units;
	const bench_ops *ops;
	void *self;        /* the contender's own state */
	double work;       /* prepare may set the work of one call (else the cell's) */
	char why[256];     /* a reason from prepare or run */
	/* The cap, per series: the last measured time and its work, and the
	 * smallest work known to be over the cap (0: none). */
	double last_s[BENCH_SERIES], last_work[BENCH_SERIES], cap_work[BENCH_SERIES];
	/* Per series, a rate (work per second) that no call of this contender
	 * exceeds, such as three times the CPU's measured multiply-add peak (0:
	 * none known). A cell whose work takes longer than the cap even at
	 * that rate is not run: the first cell of a run has no smaller size
	 * to predict from, and a size far past the cap would otherwise run
	 * (and fill its inputs) for as long as it takes. */
	double rate_max[BENCH_SERIES];
	/* The engine's scratch for the cell in progress. */
	int active, prepared;
	double t_est;
	int64_t batch;
	int reps;
	double *times;
};

typedef struct bench_cell {
	char label[160];  /* for progress lines: "sgemm n=1024 t=2" */
	int series;       /* 0 .. BENCH_SERIES - 1: cap predictions stay within one */
	double work;      /* flops (GFLOPS) or bytes (GB/s) of one call */
	int threads;      /* > 1: each contender's rounds in a row, after a pause */
	void *data;       /* the suite's cell, passed to every hook and operation */
	/* Inputs and reference, once someone runs: 0, or -1 with a reason
	 * (then every contender is "-"). */
	int (*setup)(void *data, char *why, size_t len);
	/* Poison c's output before its checked run. */
	void (*before_check)(void *data, bench_contender *c);
	/* Check c's result: 0, or -1 with a reason; *err: its error (NaN: none). */
	int (*check)(void *data, bench_contender *c, double *err, char *why, size_t len);
	/* Untimed, before each contender's timed rounds (interleaved: before
	 * each round): touch the operands, so that no contender pays for
	 * mapping them again after the previous one released memory (see
	 * bench_touch_pages). NULL: nothing. */
	void (*before_rounds)(void *data);
	void (*teardown)(void *data);
} bench_cell;

typedef struct bench_result {
	int status;
	double median_s;  /* NaN when not timed */
	double min_s, max_s;
	double rate;      /* work / median_s / 1e9, in the contender's units; NaN when not timed */
	double err;       /* from the check; NaN when none */
	int reps;
	int64_t batch;
	/* With one thread, where each round runs every contender once: the
	 * time of a call in each of the first npaired rounds, in their order,
	 * for ratios taken round by round (bench_paired_ratio); 0 otherwise. */
	int npaired;
	double paired_s[BENCH_MAX_AUTO_REPS];
} bench_result;

typedef struct bench_engine {
	double cap;       /* seconds per call; <= 0: none */
	double round_s, budget_s, warm_s, settle_s;
	int64_t reps;     /* fixed rounds per contender and cell; 0: by time */
	FILE *progress;   /* NULL: silent */
	int done, total;  /* progress counter */
	int failed;       /* a result was wrong */
} bench_engine;

/* Defaults: the budgets above (short ones when quick), cap 10 s, stderr. */
void bench_engine_init(bench_engine *e, int quick);

/* Forget what the cap learned (a new thread count predicts nothing). */
void bench_reset_cap(bench_contender *c);

/* Read one byte of every page of the bytes at p, so that they are mapped:
 * on a virtual machine whose guest reports freed memory to its host
 * (virtio-balloon free page reporting), memory that a contender allocated
 * and freed can leave the host to map other pages of the process again at
 * their next touch, some microseconds each, and without this the
 * contender timed next would pay for it (SGEMM 4096^3 0.74x of itself
 * after the ladder's Strassen on a 2-vCPU Zen 5 guest,
 * bench/results/2026-11-30-zen5-after-seed/). */
void bench_touch_pages(const void *p, size_t bytes);

/* Measure the n contenders cs[] on one cell; res[i] is cs[i]'s result. */
void bench_run_cell(bench_engine *e, bench_contender *cs, int n, bench_cell *cell, bench_result *res);

/* The unit's name: "GFLOPS", "GB/s". */
const char *bench_units_name(bench_units u);

/* The median of v[0..n) (sorts v). */
double bench_median(double *v, int n);

/* Sleep for s seconds. */
void bench_pause(double s);

/* Seconds on a monotonic clock. */
double bench_now(void);

/* The fastest of the results res[i] with pick[i] set (pick NULL: all) and
 * status BENCH_OK; -1 when none. */
int bench_fastest(const bench_result *res, int n, const int *pick);

/* The ratio column: "1.32 (blis)", ours over ref with the reference's id
 * (and ours's, "cpu.blocked / blis", when ours_id is not NULL); "-" when
 * either was not timed. */
void bench_fmt_ratio(char *buf, size_t len, const bench_result *ours, const char *ours_id,
                     const bench_result *ref, const char *ref_id);

/* ours's speed over ref's taken round by round: the median over the
 * rounds both ran (interleaved, one thread) of ref's time over ours's,
 * which a change of the machine's speed between rounds moves less than
 * the ratio of the medians; NaN with fewer than BENCH_MIN_REPS such
 * rounds or either not timed. */
double bench_paired_ratio(const bench_result *ours, const bench_result *ref);

/* The text of a status that has no number: "x", "ERR", "-", "n/a". */
const char *bench_status_mark(int status);

#endif
