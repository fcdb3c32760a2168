/*
 * gemm_cmd.h - the parts of `gemmkit gemm`: the options (cmd_gemm.c parses
 * them and runs the steps), the problem they describe and the steps
 * themselves: reading, writing and printing matrices (gemm_io.c), building
 * the problem from files or random draws (gemm_setup.c), and the timed runs,
 * the report and the accuracy check (gemm_run.c).
 */
#ifndef GK_GEMM_CMD_H
#define GK_GEMM_CMD_H

#include <stdint.h>
#include "gemmkit.h"
#include "npy.h"

#define GEMM_CMD "gemm"
/* Steps long enough for a line on stderr before them (a few seconds on
 * one core): filling this many random elements, a call of this many
 * flops, a check of this many multiply-adds in long double. */
#define GEMM_NOTE_ELEMS 2e8
#define GEMM_NOTE_FLOPS 2e12
#define GEMM_NOTE_REF 2e9
/* Sizes drawn when neither the command line nor a file gives them. */
#define GEMM_RAND_MIN_SIZE 128
#define GEMM_RAND_MAX_SIZE 2048
/* Sizes above 2^40 cannot be allocated anywhere; the limit keeps every
 * product of two sizes inside int64_t. */
#define GEMM_MAX_SIZE ((int64_t)1 << 40)

typedef struct {
	int64_t size[3]; /* M N K given on the command line, 0 if not */
	int nsizes;
	const char *algo;
	gk_backend backend;     /* --backend (GK_BACKEND_AUTO by default) */
	gk_precision precision; /* --precision (GK_PRECISION_DEFAULT by default) */
	gk_precision bound_mode; /* the mode of the product that runs: its error bound */
	int devices[GK_MAX_DEVICES]; /* --devices: the list (ndevices 0: all, the default) */
	int ndevices, devices_set;
	int dtype_set;
	npy_dtype dtype;
	int64_t threads;
	gk_layout layout;
	gk_trans ta, tb;
	double alpha, beta;
	int64_t repeat;
	int seed_set;
	uint64_t seed;
	const char *in[3];      /* --a --b --c */
	const char *save[3];    /* --save-a --save-b --save-c */
	const char *save_dir;
	int check;
	double tol;
	int print;
} gemm_opts;

/* One product, as the library is called with it. */
typedef struct {
	npy_dtype dtype;
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k, lda, ldb, ldc;
	double alpha, beta; /* as the library sees them (rounded to float for s) */
	void *a, *b, *c, *c0;
	int random_sizes, random_data; /* drawn rather than given */
} gemm_problem;

/* gemm_io.c: read the --a/--b/--c files into in[] and, without --dtype,
 * take o->dtype from the first of them (0, or the exit status after printing
 * why); write what --save-* and --save ask for (0, or 1); print op(A), op(B)
 * and C. */
int gemm_load_inputs(gemm_opts *o, npy_matrix in[3]);
int gemm_save_outputs(const gemm_opts *o, const gemm_problem *p);
void gemm_print_matrices(const gemm_problem *p);

/* gemm_setup.c: the sizes (command line and files must agree; what neither
 * gives is drawn), then A, B and C0 from the files (taken out of in[],
 * converted to o->dtype and o->layout) or from the stream seeded by o->seed
 * (settled here when not given), and C. 0, or the exit status after printing
 * why. *p must start zeroed; release it with gemm_problem_free whatever the
 * result. */
int gemm_setup(gemm_opts *o, npy_matrix in[3], gemm_problem *p);
void gemm_problem_free(gemm_problem *p);

/* gemm_run.c: one warm-up and o->repeat timed runs; *median gets the median
 * time in seconds. 0, or 1 after printing why. */
int gemm_time_runs(const gk_context *ctx, const gemm_opts *o, const gemm_problem *p,
                   double *median);
/* The report: sizes, seed, algorithm (ai: the named one, NULL for auto),
 * dtype, layout, threads, time and GFLOPS. */
void gemm_print_report(const gemm_opts *o, const gemm_problem *p, const gk_algo_info *ai,
                       double t);
/* The error against the long double reference, its bound and PASS/FAIL, as
 * lines of the report; 0 passed, 1 failed or could not be checked. */
int gemm_check_result(const gemm_opts *o, const gemm_problem *p);

/* gemm_devices.c: --devices LIST into o (0, or 2 after printing why); the
 * list onto the context (0, or 2 after printing why; a note when the
 * product runs on the CPU); the report's "devices:" line. */
int gemm_parse_devices(const char *v, gemm_opts *o);
int gemm_apply_devices(gk_context *ctx, const gemm_opts *o);
void gemm_print_devices(const gemm_opts *o);

/* The library's error for a call that failed, with gk_last_error(). */
void gemm_report_lib_error(const char *what, gk_status st);

#endif
