/*
 * suite.h - the suites of `gemmkit bench` as data (suites.c), the options
 * of a run (parsed by cmd_bench.c), and each kind of suite's runner.
 */
#ifndef GK_BENCH_SUITE_H
#define GK_BENCH_SUITE_H

#include <stdint.h>

#define BENCH_MAX_SHAPES 64
#define BENCH_MAX_TCOUNTS 8   /* thread counts in one run */
#define BENCH_MAX_CODES 32    /* k+m codes of the gf256 suite */

enum { BENCH_KIND_GEMM, BENCH_KIND_PEAK, BENCH_KIND_GF256, BENCH_KIND_HOSTMEM /* gpu_hostmem.c */,
       BENCH_KIND_HXV /* gpu_hxv.c */, BENCH_KIND_MULTI /* gpu_multi.c */,
       BENCH_KIND_BUSY /* busy.c */ };

/*
 * A suite: the defaults of a run. Its runtime is an estimate for an idle
 * machine with 2 cores of about 100 SGEMM GFLOPS each, and grows with the
 * number of gemmkit algorithms registered.
 */
typedef struct bench_suite {
	const char *name;
	int kind;
	const char *what;    /* for --help */
	const char *runtime; /* for --help */
	const char *algos;   /* --algos syntax */
	const char *sizes;   /* --sizes syntax (gf256: shard bytes) */
	const char *quick_sizes;
	const char *shapes;  /* --shapes syntax, or NULL */
	const char *dtype;
	const char *threads; /* --threads syntax; NULL: 1 and every processor */
	const char *quick_threads;
	double cap;
	int times_table;     /* also a table of times per contender and size */
	int err_table;       /* also a table of errors against the long double product */
	const char *out;     /* default output directory */
	const char *codes, *quick_codes; /* gf256: k+m codes */
} bench_suite;

extern const bench_suite bench_suites[];
extern const int bench_nsuites;
/* The suite of that name ("gemm" is "default"); NULL when none. */
const bench_suite *bench_find_suite(const char *name);

typedef struct bench_shape {
	int64_t m, n, k;
} bench_shape;

typedef struct bench_opts {
	const bench_suite *suite;
	bench_shape shapes[BENCH_MAX_SHAPES];
	int nshapes;
	int all_square;
	int dtype[2];        /* [0]: single, [1]: double precision */
	int threads[BENCH_MAX_TCOUNTS];
	int nthreads;
	double cap;
	int64_t reps;        /* 0: by time (peak: 5, gf256: 7) */
	uint64_t seed;
	int64_t offset;      /* GEMM: A, B and C this many bytes past a page; -1: on 64 bytes */
	const char *out;
	const char *algos;
	int quick, plot, list;
	int times_table, err_table;
	/* gf256 */
	int codes[BENCH_MAX_CODES][2];
	int ncodes;
	int64_t gf_sizes[BENCH_MAX_SHAPES];
	int ngf_sizes;
	/* The command line, for meta.txt: argv[0] is "bench". */
	int argc;
	char **argv;
} bench_opts;

/* The runners: exit status 0, 1 (a wrong result, a file not written). */
int bench_run_gemm(const bench_opts *o);
int bench_run_peak(const bench_opts *o);
int bench_run_gf256(const bench_opts *o);
int bench_run_hostmem(const bench_opts *o); /* gpu_hostmem.c */
int bench_run_hxv(const bench_opts *o);     /* gpu_hxv.c */
int bench_run_multi(const bench_opts *o);   /* gpu_multi.c */
int bench_run_busy(const bench_opts *o);    /* busy.c */

#endif
