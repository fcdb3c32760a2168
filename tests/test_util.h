/*
 * test_util.h - what every test program shares: a seeded random source,
 * check counting that ends in one "N passed, N failed" line, and (through
 * gemm_check.h) the higher-precision reference GEMM, the normwise error and
 * its bound.
 */
#ifndef GK_TEST_UTIL_H
#define GK_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "gemmkit.h"
#include "gemm_check.h"

/* Counting checks: every failure is printed with its file and line. */
extern long tu_passed, tu_failed;
#define TU_CHECK(cond, ...) tu_check_((cond), __FILE__, __LINE__, __VA_ARGS__)
void tu_check_(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Print "<name>: N passed, N failed" and return the exit status. */
int tu_finish(const char *name);

/* The seed: GK_TEST_SEED from the environment, else a fresh one; printed
 * once, so a failure can be re-run with the same inputs. */
uint64_t tu_seed(void);
typedef struct { uint64_t s; } tu_rng;
void tu_rng_init(tu_rng *r, uint64_t seed);
uint64_t tu_next(tu_rng *r);
double tu_uniform(tu_rng *r); /* in [-1, 1] */
void tu_fill_f32(float *x, size_t n, tu_rng *r);
void tu_fill_f64(double *x, size_t n, tu_rng *r);
/* Elements of dtype GK_DTYPE_F32 or GK_DTYPE_F64 through one interface:
 * their size, element i read and written as a double, n uniform ones in
 * [-1, 1], the unit roundoff. */
size_t tu_esize(unsigned dt);
double tu_getv(unsigned dt, const void *x, int64_t i);
void tu_setv(unsigned dt, void *x, int64_t i, double v);
void tu_fill(unsigned dt, void *x, size_t n, tu_rng *r);
double tu_unit_roundoff(unsigned dt);
/* malloc that exits (status 2) when there is no memory; 0 bytes give a
 * valid pointer. Declared malloc: without it GCC -O2 takes a caller's own
 * array (present[] of try_pattern, test_rs_util.h) for maybe uninitialized. */
void *tu_xmalloc(size_t bytes) __attribute__((malloc, alloc_size(1)));
/* A kernel test that reads or writes next to unmapped pages: what it is
 * doing now (tu_doing, written before each call), printed if the call
 * faults. tu_catch_faults(why) makes SIGSEGV and SIGBUS print "FAIL: fault
 * (signal N) <tu_doing> - <why>" and exit with status 1; NULL restores the
 * default handlers. */
extern char tu_doing[512];
void tu_catch_faults(const char *why);
/* Poison: a NaN pattern that no correct result can equal. */
void tu_poison_f32(float *x, size_t n);
void tu_poison_f64(double *x, size_t n);

/* One element of a kernel's tile against a long double sum: alpha times
 * the sum of x[l * sx] y[l * sy] over l < k, plus beta c0 (not when beta
 * is 0); got is right within 2 (k + 2) u times the sum of the terms'
 * magnitudes. Returns whether it is; *want gets the sum. */
int tu_elem_ok(unsigned dt, double got, const void *x, int64_t sx, const void *y, int64_t sy,
               int64_t k, double alpha, double beta, double c0, long double *want);

/* The C buffer of a kernel's tile test: lc random elements, the mv x nv
 * tile at off (rows rs_c apart) NaN when beta is 0 (it must not be read),
 * and *c0 a copy. */
void *tu_tile_c(unsigned dt, int64_t mv, int64_t nv, int64_t rs_c, int64_t off, int64_t lc,
                double beta, void **c0, tu_rng *r);
/* A kernel's mv x nv tile of C at c + off (rows rs_c apart, in a buffer of
 * lc elements, c0 the buffer before the call) against tu_elem_ok, with
 * A(i, l) at a[i * rs_a + l * cs_a] and B(l, j) at b[l * rs_b + j * cs_b]:
 * the count of elements off (the first printed), and in *outside that of
 * elements outside the tile that changed. */
int tu_tile_check(unsigned dt, int64_t mv, int64_t nv, int64_t k, const void *a, int64_t rs_a,
                  int64_t cs_a, const void *b, int64_t rs_b, int64_t cs_b, double alpha,
                  double beta, const void *c, const void *c0, int64_t lc, int64_t off,
                  int64_t rs_c, int *outside);

/* The description of a GEMM call that the tests of the public API build:
 * op(A) m x k, op(B) k x n, C m x n and their storage, C before the call
 * (c0) and, per test, what it compares and how it names the case. */
typedef struct {
	unsigned dt;
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k, lda, ldb, ldc;
	int64_t rsa, csa, rsb, csb, rsc, csc; /* op(A), op(B), C in the caller's storage */
	double alpha, beta;
	void *a, *b, *c, *c0;
	size_t ea, eb, ec, ecg;  /* extents; ecg: C's and a guard after it */
	int64_t *rows, nrows;    /* rows compared (NULL: all) */
	long double *ref;
	char desc[160];
} tu_gemm_prob;
/* Zero all of p, then set its type, layout, transposes, sizes and scalars. */
void tu_gemm_prob_set(tu_gemm_prob *p, unsigned dt, gk_layout layout, gk_trans ta, gk_trans tb,
                      int64_t m, int64_t n, int64_t k, double alpha, double beta);

/* With p's sizes and leading dimensions set: the extents of A, B and C,
 * ecg = ec + guard (0: none), A and B allocated and filled with fresh
 * random numbers, C and C0 allocated (ecg elements), left as they are. */
void tu_gemm_prob_alloc(tu_gemm_prob *p, size_t guard, tu_rng *r);
/* One call of p into p->c, reset to p->c0 first (its extent, ecg when set,
 * else ec): gk_sgemm / gk_dgemm when ctx is NULL, the _ex forms with ctx
 * otherwise. */
gk_status tu_gemm_prob_run(tu_gemm_prob *p, const gk_context *ctx);
/* Free what p holds (its operands, rows and ref). */
void tu_gemm_prob_free(tu_gemm_prob *p);

/* Elements a matrix of rows x cols with leading dimension ld occupies. */
size_t tu_extent(gk_layout layout, int64_t rows, int64_t cols, int64_t ld);

/* The reference product, the normwise error and its bound are those of
 * gemm_check.h (gkc_ref_gemm, gkc_gemm_error, gkc_gemm_bound), shared with
 * the command line. */

/* Elements outside the m x n matrix but inside the ld padding must be left
 * exactly as they were: compare c against before over the whole extent. */
int tu_padding_intact(unsigned dtype, gk_layout layout, int64_t m, int64_t n,
                      const void *c, const void *before, int64_t ldc);

/* A context with this thread count and these flags; exits (status 2) when
 * one cannot be set up. */
gk_context *tu_context_new(int threads, unsigned flags);

/* A thread that keeps one core busy (a spinning loop) from tu_hog_start
 * until tu_hog_stop: the machine is no longer the test's own. One at a
 * time. */
void tu_hog_start(void);
void tu_hog_stop(void);

#ifdef GK_TEST_HAVE_CUDA
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
/* A CUDA call of a GPU test's own (allocations, copies): a failure ends the
 * test with the call and CUDA's message. */
#define CUDA_OK(call)                                                                   \
	do {                                                                                \
		cudaError_t e_ = (call);                                                        \
		if (e_ != cudaSuccess) {                                                        \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,               \
			        cudaGetErrorString(e_));                                            \
			exit(2);                                                                    \
		}                                                                               \
	} while (0)
#endif

#endif
