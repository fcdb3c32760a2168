/*
 * gemm_entry.h - the entry of gk_sgemm / gk_dgemm and their _ex forms,
 * inline so that the BLAS and CBLAS entry points (blas_compat.c) run it
 * without another call: the fast path of a tiny product, and the general
 * path (gemm_api.c) for every other call. Both check every argument.
 */
#ifndef GK_GEMM_ENTRY_H
#define GK_GEMM_ENTRY_H

#include <stdint.h>
#include "gk_context.h"
#include "../gemm/blocked_direct.h"

typedef struct {
	int64_t m, n, k;
	const void *a; int64_t rs_a, cs_a;
	const void *b; int64_t rs_b, cs_b;
	void *c; int64_t rs_c, cs_c;
} canon;

static inline int is_trans(gk_trans t)
{
	return t != GK_NO_TRANS;
}

/* The canonical problem of a call whose arguments are valid (rm: row-major). */
static inline void canon_form(int rm, gk_trans ta, gk_trans tb, int64_t m, int64_t n, int64_t k,
                              const void *a, int64_t lda, const void *b, int64_t ldb, void *c,
                              int64_t ldc, canon *cn)
{
	/* Strides of op(A), op(B) and C in the caller's layout. */
	int64_t rs_a = rm ? lda : 1, cs_a = rm ? 1 : lda;
	int64_t rs_b = rm ? ldb : 1, cs_b = rm ? 1 : ldb;
	if (is_trans(ta)) { int64_t t = rs_a; rs_a = cs_a; cs_a = t; }
	if (is_trans(tb)) { int64_t t = rs_b; rs_b = cs_b; cs_b = t; }
	if (rm) {
		*cn = (canon){m, n, k, a, rs_a, cs_a, b, rs_b, cs_b, c, ldc, 1};
	} else {
		/* C column-major: compute C^T = op(B)^T op(A)^T, which is row-major. */
		*cn = (canon){n, m, k, b, cs_b, rs_b, a, cs_a, rs_a, c, ldc, 1};
	}
}

/*
 * The fast path of a tiny product (m n k at most TINY_WORK) with the
 * default choices (no context, or one that names no algorithm, backend
 * and CUDA aside): "auto" is then the blocked driver, whatever the flags,
 * as it chooses for so little work itself; on one thread, without asking
 * for the count, under twice GK_BLOCKED_MIN_WORK. Every check of the
 * general path (gemm_api.c, check_and_canon) is made, for the case where
 * all pass and no extent can overflow (each side at most TINY_WORK, each
 * leading dimension below TINY_LD); any other call, an invalid one
 * included, takes the general path, which gives the same bits. At
 * 16 x 16 x 16 the general path's choices cost a fifth of the call.
 */
#define TINY_WORK ((int64_t)64 * 64 * 64)
#define TINY_LD ((int64_t)1 << 32)

static inline int tiny_ld_ok(int64_t ld, int64_t need)
{
	return ld >= need && ld < TINY_LD;
}

enum { TINY_NO = 0, TINY_ONE_THREAD = 1, TINY_THREADS = 2 };

/* Whether the call may take the fast path (TINY_NO if not); if so, *cn is
 * its canonical form, and the answer says whether the product is under
 * twice the blocked driver's work per thread (TINY_ONE_THREAD) or not. */
static inline int tiny_canon(const gk_context *ctx, gk_layout layout, gk_trans ta, gk_trans tb,
                             int64_t m, int64_t n, int64_t k, int alpha_zero, const void *a,
                             int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc,
                             canon *cn)
{
	if (ctx != NULL && (ctx->algo != NULL || ctx->backend == GK_BACKEND_CUDA))
		return TINY_NO;
	if (m < 1 || n < 1 || k < 1 || m > TINY_WORK || n > TINY_WORK || k > TINY_WORK ||
	    m * n * k > TINY_WORK || alpha_zero || a == NULL || b == NULL || c == NULL)
		return TINY_NO;
	if (ta < GK_NO_TRANS || ta > GK_CONJ_TRANS || tb < GK_NO_TRANS || tb > GK_CONJ_TRANS)
		return TINY_NO;
	if (layout != GK_ROW_MAJOR && layout != GK_COL_MAJOR)
		return TINY_NO;
	const int rm = layout == GK_ROW_MAJOR;
	/* A and B as stored: (ra x ca) and (rb x cb); each needs its leading
	 * dimension at least its row length (row-major) or column length. */
	const int64_t ra = is_trans(ta) ? k : m, ca = is_trans(ta) ? m : k;
	const int64_t rb = is_trans(tb) ? n : k, cb = is_trans(tb) ? k : n;
	if (!tiny_ld_ok(lda, rm ? ca : ra) || !tiny_ld_ok(ldb, rm ? cb : rb) ||
	    !tiny_ld_ok(ldc, rm ? n : m))
		return TINY_NO;
	canon_form(rm, ta, tb, m, n, k, a, lda, b, ldb, c, ldc, cn);
	return m * n * k < (int64_t)(2 * GK_BLOCKED_MIN_WORK) ? TINY_ONE_THREAD : TINY_THREADS;
}

/* The threads of a fast-path call that tiny_canon answered r: one where
 * the blocked driver would run one anyway, without asking for the count. */
static inline int tiny_threads(const gk_context *ctx, int r)
{
	return r == TINY_ONE_THREAD ? 1 : gk_resolve_threads(ctx ? ctx->threads : 0);
}

/*
 * gk_xgemm_entry(ctx, ...): gk_sgemm_ex / gk_dgemm_ex; ctx NULL for gk_sgemm
 * and the BLAS entry points. The fast path makes the driver's direct calls
 * (direct_try, blocked_direct.h) on arguments it keeps to itself, and hands
 * the driver a copy otherwise: with the one struct passed to the driver,
 * the compiler kept it in memory, 4-7% of a 1 x 1 x 1 to 8 x 8 x 8 product.
 */
#define GK_GEMM_ENTRY(x, T, sfx)                                                               \
	GK_HIDDEN gk_status gk_##x##gemm_general(                                                 \
		const gk_context *ctx, gk_layout layout, gk_trans ta, gk_trans tb, int64_t m,      \
		int64_t n, int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb,   \
		T beta, T *c, int64_t ldc);                                                        \
	static inline __attribute__((always_inline)) gk_status gk_##x##gemm_entry(                \
		const gk_context *ctx, gk_layout layout, gk_trans ta, gk_trans tb, int64_t m,      \
		int64_t n, int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb,   \
		T beta, T *c, int64_t ldc)                                                         \
	{                                                                                          \
		canon cn;                                                                          \
		gk_clear_error();                                                                  \
		const int tiny = tiny_canon(ctx, layout, ta, tb, m, n, k, alpha == (T)0, a, lda, b, \
		                            ldb, c, ldc, &cn);                                     \
		if (tiny != TINY_NO) {                                                             \
			const gk_##x##gemm_args p = {                                              \
				cn.m,     cn.n,     cn.k,    alpha,   beta,                        \
				cn.a,     cn.rs_a,  cn.cs_a, cn.b,    cn.rs_b,                     \
				cn.cs_b,  cn.c,     cn.rs_c, tiny_threads(ctx, tiny),              \
				ctx ? ctx->flags : 0u,      gk_kernels_active(),                   \
			};                                                                         \
			if (direct_try_##sfx(&p))                                                  \
				return GK_OK;                                                      \
			const gk_##x##gemm_args q = p;                                             \
			return gk_##x##gemm_blocked_choose(&q);                                           \
		}                                                                                  \
		return gk_##x##gemm_general(ctx, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb,   \
		                            beta, c, ldc);                                         \
	}

GK_GEMM_ENTRY(s, float, f32)
GK_GEMM_ENTRY(d, double, f64)

#endif
