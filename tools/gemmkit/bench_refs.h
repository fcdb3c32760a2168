/*
 * bench_refs.h - helpers of `gemmkit bench`: the reference BLAS libraries
 * (OpenBLAS, BLIS) loaded at run time, and the GFLOPS plots.
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
	char how[512];       /* how it was loaded: path, environment, kernel */
	void *handle;
	int int64;           /* its CBLAS integers are 64-bit */
	void *sgemm, *dgemm; /* cblas_sgemm, cblas_dgemm */
	void (*set_threads)(int);
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

/* 1 when the CPU and the OS can run AVX-512F code. */
int bench_cpu_has_avx512f(void);

/*
 * C = A * B, row-major, no transposes, alpha = 1, beta = 0, in single
 * (f64 == 0) or double precision. Returns 0, or -1 when a size or leading
 * dimension does not fit the library's integer type.
 */
int bench_ref_gemm(const bench_ref *ref, int f64, int64_t m, int64_t n, int64_t k,
                   const void *a, const void *b, void *c);

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
