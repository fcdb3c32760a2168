/*
 * bench_refs.h - helpers of `gemmkit bench`: the reference BLAS libraries
 * (OpenBLAS, BLIS) loaded at run time, the machine's floating-point peak
 * (bench_peak.c), and the GFLOPS plots (bench_plot.c).
 *
 * A reference is loaded with dlopen(RTLD_LOCAL | RTLD_DEEPBIND): libgemmkit
 * exports sgemm_ and cblas_sgemm too, and without DEEPBIND a library's own
 * internal calls could land in gemmkit's symbols instead of its own. A
 * "best kernel" variant is a second, independent instance of the same
 * library: a private copy of its file, loaded under another name with the
 * environment variable that selects the kernel set while it initialises.
 */
#ifndef GK_BENCH_REFS_H
#define GK_BENCH_REFS_H

#include <stddef.h>
#include <stdint.h>

/* The reference ids that `gemmkit bench --algos` accepts, in table order. */
#define BENCH_REF_COUNT 4
extern const char *const bench_ref_ids[BENCH_REF_COUNT];

typedef struct bench_ref {
	const char *id;      /* "openblas", "openblas-best", "blis", "blis-best" */
	char name[128];      /* table column: "OpenBLAS 0.3.21 (OPENBLAS_CORETYPE=SkylakeX)" */
	char version[32];    /* "0.3.21" */
	char kernel[32];     /* the kernel set the instance runs: "Haswell", "skx", ... */
	char installed_kernel[32]; /* best-kernel variants: the set the library picks by itself */
	int same_kernel;     /* best-kernel variants: 1 when kernel == installed_kernel */
	char how[512];       /* how it was loaded: path, environment, kernel */
	void *handle;
	int lib;             /* which library: tells how to call set_threads */
	int int64;           /* its CBLAS integers are 64-bit */
	void *sgemm, *dgemm; /* cblas_sgemm, cblas_dgemm */
	void *set_threads;   /* openblas_set_num_threads or bli_thread_set_num_threads */
} bench_ref;

/* Outcome of bench_ref_load. */
enum {
	BENCH_REF_LOADED = 0,
	BENCH_REF_NOT_FOUND = 1, /* the library is not installed */
	BENCH_REF_NOT_OFFERED = 2, /* a best-kernel variant that cannot run or adds nothing here */
	BENCH_REF_FAILED = 3     /* found, but it could not be loaded or initialised */
};

/*
 * Load reference `id` (one of bench_ref_ids) with `threads` threads.
 * `forced` asks for a best-kernel variant even where it would only repeat
 * the library as installed. On anything but BENCH_REF_LOADED, `why` holds a
 * one-line reason for the user.
 */
int bench_ref_load(const char *id, int threads, int forced, bench_ref *ref,
                   char *why, size_t why_len);

/* Set the thread count of a loaded reference. */
void bench_ref_set_threads(const bench_ref *ref, int threads);

/* 1 when the CPU and the OS can run AVX-512F code. */
int bench_cpu_has_avx512f(void);

/*
 * C = A * B, row-major, no transposes, alpha = 1, beta = 0, in single
 * (f64 == 0) or double precision. Returns 0, or -1 when a size or leading
 * dimension does not fit the library's integer type.
 */
int bench_ref_gemm(const bench_ref *ref, int f64, int64_t m, int64_t n, int64_t k,
                   const void *a, const void *b, void *c);

/* ---- the floating-point peak (bench_peak.c) ---- */

/* The instruction sets of the peak loops, widest first. */
#define BENCH_PEAK_ISA_COUNT 3
extern const char *const bench_peak_isas[BENCH_PEAK_ISA_COUNT]; /* "avx512", "avx2", "sse2" */

/* 1 when the CPU and the OS can run the peak loop of `isa`. */
int bench_peak_isa_supported(const char *isa);
/* The widest of bench_peak_isas that this machine runs. */
const char *bench_peak_best_isa(void);

typedef struct bench_peak {
	const char *isa;    /* "avx512", "avx2", "sse2" */
	const char *how;    /* "16 independent AVX-512 FMA chains per thread" */
	int f64;
	int threads;        /* asked for */
	int threads_run;    /* the OpenMP team the loops ran on */
	double gflops;      /* median over the runs */
	double gflops_min, gflops_max;
	int reps;
	double run_s;       /* mean wall time of one run */
} bench_peak;

/*
 * Measure the multiply-add peak of `isa` in single (f64 == 0) or double
 * precision on `threads` OpenMP threads, each running its own loop: after a
 * calibration that doubles as warm-up, `reps` runs of about run_s seconds;
 * GFLOPS = flops of all threads / wall time. Returns 0, or -1 when the CPU
 * cannot run `isa` or memory is short.
 */
int bench_peak_measure(const char *isa, int f64, int threads, double run_s, int reps, bench_peak *out);

/*
 * Write `<dir>/<base>.dat` and `<dir>/<base>.gp` and run gnuplot on them to
 * make `<dir>/<base>.png`: one line per series, y[s * npoints + i] (NaN: no
 * point), drawn dashed where dashed[s]. With log2x the x axis is x[] on a
 * log2 scale; otherwise the points are evenly spaced and labelled with
 * xlabels[]. Returns 0 when the PNG was made; otherwise prints why on stderr
 * (nothing to plot, gnuplot missing or failing) and returns -1.
 */
int bench_plot(const char *dir, const char *base, const char *title, const char *xlabel,
               int log2x, int npoints, const double *x, const char *const *xlabels,
               int nseries, const char *const *names, const int *dashed, const double *y);

#endif
