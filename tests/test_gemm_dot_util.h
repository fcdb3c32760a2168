/*
 * test_gemm_dot_util.h - what the two tests of the dot tiles share
 * (test_gemm_dot.c: the kernels; test_gemm_dot_api.c: way 5 through the
 * public API).
 */
#ifndef TEST_GEMM_DOT_UTIL_H
#define TEST_GEMM_DOT_UTIL_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gk_internal.h"
#include "test_util.h"
#include "../src/gemm/blocked.h"

#define NAME(dt) ((dt) == GK_DTYPE_F32 ? "f32" : "f64")

/* The (alpha, beta) pairs every case goes through. */
static const double ab[][2] = {{1, 0}, {-0.75, 0}, {1, 1}, {0.5, -2}};

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* bytes (a multiple of the element size) that end where an unreadable page
 * begins: a read past the end faults. */
typedef struct {
	void *map;
	size_t len;
} gbuf;

static inline void *guarded(size_t bytes, gbuf *g)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const size_t body = (bytes + pg - 1) / pg * pg;
	g->len = body + pg;
	g->map = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->map == MAP_FAILED || mprotect((char *)g->map + body, pg, PROT_NONE) != 0) {
		fprintf(stderr, "guarded: cannot map %zu bytes\n", bytes);
		exit(2);
	}
	return (char *)g->map + body - bytes;
}

static inline void guarded_free(gbuf *g)
{
	munmap(g->map, g->len);
}

static inline void dkr(const gk_kernels *t, unsigned dt, int64_t mv, int64_t nv, int64_t k,
                       double alpha, const void *a, int64_t rs_a, const void *bt, int64_t rs_bt,
                       double beta, void *c, int64_t rs_c, int64_t off)
{
	/* Calls alternate with and without the fetches of A ahead, which must
	 * change nothing (the same-bits checks compare one with the other). */
	static int pf;
	pf = !pf;
	if (dt == GK_DTYPE_F32)
		t->gemm_d_f32(mv, nv, k, (float)alpha, a, rs_a, bt, rs_bt, (float)beta, c, rs_c, pf,
		              off);
	else
		t->gemm_d_f64(mv, nv, k, alpha, a, rs_a, bt, rs_bt, beta, c, rs_c, pf, off);
}

static inline int dnr(const gk_kernels *t, unsigned dt)
{
	return dt == GK_DTYPE_F32 ? t->gemm_d_f32_nr : t->gemm_d_f64_nr;
}

static inline void poison(unsigned dt, void *x, size_t n)
{
	if (dt == GK_DTYPE_F32)
		tu_poison_f32(x, n);
	else
		tu_poison_f64(x, n);
}


#endif /* TEST_GEMM_DOT_UTIL_H */
