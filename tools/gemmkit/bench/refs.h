/*
 * refs.h - the reference libraries of `gemmkit bench`, loaded at run time:
 * the BLAS libraries OpenBLAS and BLIS (refs.c) and ISA-L (refs_isal.c).
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

/* ---- ISA-L (refs_isal.c) ---- */

typedef struct bench_isal {
	void *handle;
	char path[4096];     /* the file loaded */
	char entry[40];      /* the encode function used: ec_encode_data, or a kernel set's own */
	void (*init_tables)(int k, int rows, unsigned char *a, unsigned char *gftbls);
	void (*encode)(int len, int k, int rows, unsigned char *gftbls, unsigned char **data,
	               unsigned char **coding);
	void (*gen_cauchy1)(unsigned char *a, int m, int k);
	int (*invert)(unsigned char *in, unsigned char *out, const int n);
} bench_isal;

/* Load libisal.so.2 (RTLD_LOCAL | RTLD_DEEPBIND): 0, or -1 with `why`.
 * ISA-L picks its kernels from CPUID and has no switch to force a set; when
 * GK_ARCH forces gemmkit's (avx2, avx512, generic), the encode function of
 * ISA-L's matching set is called directly (ec_encode_data_avx2, _avx512,
 * _base), so that both sides run the same instruction set. */
int bench_isal_load(bench_isal *L, char *why, size_t why_len);
void bench_isal_close(bench_isal *L);

#endif
