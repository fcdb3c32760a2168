/*
 * gemm.h - the GEMM suites of `gemmkit bench` (default, ladder, cpu,
 * strassen): gemmkit's CPU algorithms and the reference BLAS libraries as
 * contenders of the measurement engine (gemm.c), and their report
 * (gemm_report.c).
 */
#ifndef GK_BENCH_GEMM_H
#define GK_BENCH_GEMM_H

#include "engine.h"
#include "gemmkit.h"
#include "gpu.h"
#include "peak.h"
#include "refs.h"
#include "report.h"
#include "suite.h"

#define GEMM_MAX_CONTENDERS 48
#define GEMM_MAX_PEAKS (BENCH_MAX_TCOUNTS + 2) /* the run's thread counts, 1 and all processors */
/* The bound of the check: GEMM_FACTOR (k + 2) u, as 4 k eps was. */
#define GEMM_FACTOR 8.0
/* ... and, because that bound grows loose for long k, ||C - Cref||_F <=
 * GEMM_GROSS ||Cref||_F, which random data in [-1, 1] meets by orders of
 * magnitude yet catches a result that is plainly wrong. */
#define GEMM_GROSS 1e-2

/* The inputs of a GEMM cell (A m x k, B k x n, row major, float when dt is
 * 0, else double) filled from seed, the same way in every GEMM suite. */
void bench_gemm_fill(int dt, const bench_shape *s, uint64_t seed, void *a, void *b);
/* C (m x n) poisoned before a checked run: every bit set, a NaN. */
void bench_gemm_poison(int dt, const bench_shape *s, void *c);
/* A, B and C of a GEMM cell read page by page before its rounds
 * (bench_touch_pages). */
void bench_gemm_touch(int dt, const bench_shape *s, const void *a, const void *b, const void *c);

enum { GEMM_OURS, GEMM_REF };

/* What a GEMM contender is, beside its bench_contender. */
typedef struct gemm_side {
	int kind;            /* GEMM_OURS or GEMM_REF */
	int rung;            /* a seed ladder rung: drawn in the ladder chart */
	unsigned dtypes;     /* GK_DTYPE_F32 | GK_DTYPE_F64 */
	const char *desc;
	char unavailable[192]; /* not empty: why it cannot run here as named */
	gk_context *ctx;     /* ours */
	bench_ref ref;       /* references */
	gpu_side *gpu;       /* GPU contenders (a cuda.* algorithm, or cuBLAS as a reference) */
	gk_precision precision; /* the arithmetic of its float products: its error bound
	                         * (0, GK_PRECISION_DEFAULT, counts as strict) */
} gemm_side;

typedef struct gemm_run {
	const bench_opts *o;
	bench_engine eng;
	bench_contender c[GEMM_MAX_CONTENDERS];
	gemm_side side[GEMM_MAX_CONTENDERS];
	int nc;
	bench_result *res;   /* [thread count][precision][shape][contender] */
	int ti;              /* the thread count in progress: o->threads[ti] */
	int sampled;         /* some cell's check used sampled rows */
	int refs_wanted;     /* --algos named a reference */
	int ngpu;            /* contenders on the GPU */
	/* The multiply-add peak per precision, for each thread count measured. */
	bench_peak peak[2][GEMM_MAX_PEAKS];
	int npeak;
} gemm_run;

bench_result *gemm_result(const gemm_run *g, int ti, int dt, int si, int ci);
/* The peak for this precision and thread count; NULL when none. */
const bench_peak *gemm_peak_for(const gemm_run *g, int dt, int threads);
/* "1024" (square_style, square shapes) or "64x4096x4096". */
void gemm_shape_label(const bench_shape *s, int square_style, char *buf, size_t len);

/* The operations of gemmkit's algorithms and of the references (gemm.c). */
extern const bench_ops gemm_ours_ops, gemm_ref_ops;

/* Expand --algos into g->c and g->side, in table order (gemm_contenders.c):
 * 0, or the exit status after a message. */
int gemm_choose(gemm_run *g);
/* --list: one line per contender, its --algos name, a tab, what it is. */
void gemm_list(const gemm_run *g);

/* The tables, results.csv, meta.txt and charts of a finished run. */
void gemm_report(gemm_run *g, bench_report *r);

#endif
