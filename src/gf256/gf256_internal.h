/*
 * gf256_internal.h - what the GF(2^8) files share: the field tables, the two
 * coefficient formats the kernels consume, and the "plan" that runs a small
 * coefficient matrix over long rows (src/gf256/gf256_gemm.c).
 */
#ifndef GK_GF256_INTERNAL_H
#define GK_GF256_INTERNAL_H

#include "gk_internal.h"

/* Log/exp tables of the field with polynomial 0x11D and generator 2. exp has
 * 510 entries so that exp[log a + log b] needs no reduction. */
typedef struct gk_gf256_field {
	uint8_t exp[512];
	uint8_t log[256]; /* log[0] is unused */
	uint8_t inv[256]; /* inv[0] = 0 */
} gk_gf256_field;

GK_HIDDEN const gk_gf256_field *gk_gf256_field_tables(void);

/* The one producer of the 32-byte expanded table of c (kernel_api.h). */
GK_HIDDEN void gk_gf256_expand(uint8_t c, uint8_t tbl[GK_GF256_TBL_BYTES]);
/* The GF2P8AFFINEQB bit matrix of "times c", as the kernels load it. */
GK_HIDDEN uint64_t gk_gf256_affine(uint8_t c);

/*
 * A coefficient matrix A (m x k, m and k <= GK_GF256_MAX_DIM) expanded for
 * one kernel set: coef holds m * k entries of GK_GF256_TBL_BYTES (tables) or
 * GK_GF256_AFFINE_BYTES (affine matrices) for dot[1..6], ordered by kernel
 * call: the tile of rows [r0, r0 + R) and inputs [j0, j0 + G) is R x G
 * entries, row-major, from entry r0 * k + R * j0.
 */
#define GK_GF256_MAX_DIM 255
typedef struct gk_gf256_plan {
	int64_t m, k;
	int64_t kg; /* inputs per kernel call */
	int affine;
	const gk_gf256_dot_fn *dot;
	uint8_t *coef;
} gk_gf256_plan;

/* Which dot kernels of table kern this CPU runs: the affine (GFNI) ones when
 * the table has them, the CPU has their extra features and GK_GFNI is not
 * "0"; else the table ones. *affine tells which. */
GK_HIDDEN const gk_gf256_dot_fn *gk_gf256_select(const gk_kernels *kern, int *affine);

/*
 * Expand A (row i at a + i * lda) for kern (NULL: the active table); affine
 * = -1 chooses as gk_gf256_select, 0 takes the table kernels, 1 the affine
 * ones where kern has them (the caller checks that the CPU runs them).
 * 1 <= m, k <= 255.
 * @return GK_OK or GK_ERR_NO_MEMORY.
 */
GK_HIDDEN gk_status gk_gf256_plan_init(gk_gf256_plan *p, const gk_kernels *kern, int affine,
                                       int64_t m, int64_t k, const uint8_t *a, int64_t lda);
GK_HIDDEN void gk_gf256_plan_free(gk_gf256_plan *p);

/* dst[r][off..off+len) (^)= sum_j A(r, j) src[j][off..off+len) on this
 * thread, blocked over columns so that B is read from cache when m > 6. */
GK_HIDDEN void gk_gf256_plan_range(const gk_gf256_plan *p, const uint8_t *const *src,
                                   uint8_t *const *dst, int64_t off, int64_t len, int acc);

/* The same over columns [0, n), on up to `threads` threads (fewer when each
 * would get less than GK_GF256_SPLIT_BYTES of rows to stream). With 128 KiB,
 * a 10+4 code on 16 KiB shards (224 KiB) stayed on one thread: with 64 KiB
 * it ran 1.37-1.57x as fast on two (AVX2 shuffles) and 1.17-1.30x (GFNI)
 * on an Emerald Rapids guest, the other codes at 4 to 64 KiB within the
 * host's spread, each library in a process of its own
 * (bench/results/2026-11-29-emr-gf256-small/split_bytes.log). */
#define GK_GF256_SPLIT_BYTES (64 << 10)
GK_HIDDEN int gk_gf256_threads_for(int64_t m, int64_t k, int64_t n, int threads);
GK_HIDDEN void gk_gf256_plan_run(const gk_gf256_plan *p, int64_t n, const uint8_t *const *src,
                                 uint8_t *const *dst, int acc, int threads);

#endif
