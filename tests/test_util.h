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
 * valid pointer. */
void *tu_xmalloc(size_t bytes);
/* Poison: a NaN pattern that no correct result can equal. */
void tu_poison_f32(float *x, size_t n);
void tu_poison_f64(double *x, size_t n);

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
