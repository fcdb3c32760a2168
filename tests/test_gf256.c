/*
 * test_gf256.c - GF(2^8) arithmetic, the coefficient formats, gk_gf256_gemm*
 * and matrix inversion (the dot-product kernels themselves:
 * test_gf256_kernels.c).
 *
 * The reference is independent of the library: products come from a 256 x
 * 256 table built by bitwise carry-less multiplication reduced by 0x11D
 * (test_gf256_ref.h).
 *  - field: gk_gf256_mul for all 65536 pairs, gk_gf256_inv, distributivity
 *    and associativity on random triples;
 *  - formats: the 32-byte table of every c, and the affine matrix of every c
 *    applied to every byte by a scalar model of GF2P8AFFINEQB;
 *  - gk_gf256_gemm / _rows / _rows_ex against the reference: m and k beyond
 *    the kernel width (peeling, column blocking), several threads, strided
 *    layouts with untouched padding; every argument error;
 *  - gk_gf256_invert_matrix: A * A^-1 = A^-1 * A = I for random invertible A
 *    up to 256 x 256; singular matrices are reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gk_internal.h"
#include "../src/gf256/gf256_internal.h"
#include "test_gf256_ref.h"

/* ------------------------------------------------------------------------ */

static void test_field(tu_rng *rng)
{
	long bad = 0;
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++)
			bad += gk_gf256_mul((uint8_t)a, (uint8_t)b) != T[a][b];
	TU_CHECK(bad == 0, "gk_gf256_mul differs from the carry-less reference for %ld pairs", bad);
	bad = 0;
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++)
			bad += T[a][b] != T[b][a];
	TU_CHECK(bad == 0, "multiplication is not commutative for %ld pairs", bad);
	TU_CHECK(gk_gf256_inv(0) == 0, "gk_gf256_inv(0) = %d", gk_gf256_inv(0));
	bad = 0;
	for (int a = 1; a < 256; a++)
		bad += T[a][gk_gf256_inv((uint8_t)a)] != 1;
	TU_CHECK(bad == 0, "a * inv(a) != 1 for %ld values", bad);
	long bad_d = 0, bad_a = 0;
	for (int i = 0; i < 20000; i++) {
		uint8_t a = (uint8_t)tu_next(rng), b = (uint8_t)tu_next(rng), c = (uint8_t)tu_next(rng);
		bad_d += gk_gf256_mul(a, b ^ c) != (gk_gf256_mul(a, b) ^ gk_gf256_mul(a, c));
		bad_a += gk_gf256_mul(gk_gf256_mul(a, b), c) != gk_gf256_mul(a, gk_gf256_mul(b, c));
	}
	TU_CHECK(bad_d == 0, "distributivity fails for %ld triples", bad_d);
	TU_CHECK(bad_a == 0, "associativity fails for %ld triples", bad_a);
	/* 2 generates the multiplicative group: its powers hit all 255 units. */
	uint8_t x = 1;
	int seen[256] = {0}, distinct = 0;
	for (int i = 0; i < 255; i++) {
		distinct += !seen[x];
		seen[x] = 1;
		x = gk_gf256_mul(x, 2);
	}
	TU_CHECK(distinct == 255 && x == 1, "2 is not a generator (%d distinct powers)", distinct);
}

/* GF2P8AFFINEQB on one byte, per the instruction's definition. */
static uint8_t affine_apply(uint64_t q, uint8_t x)
{
	uint8_t out = 0;
	for (int i = 0; i < 8; i++) {
		const uint8_t row = (uint8_t)(q >> (8 * (7 - i)));
		out |= (uint8_t)((__builtin_popcount(row & x) & 1) << i);
	}
	return out;
}

static void test_formats(void)
{
	long bad_t = 0, bad_a = 0;
	for (int c = 0; c < 256; c++) {
		uint8_t tbl[GK_GF256_TBL_BYTES];
		gk_gf256_expand((uint8_t)c, tbl);
		const uint64_t q = gk_gf256_affine((uint8_t)c);
		for (int x = 0; x < 256; x++) {
			bad_t += (uint8_t)(tbl[x & 15] ^ tbl[16 + (x >> 4)]) != T[c][x];
			bad_a += affine_apply(q, (uint8_t)x) != T[c][x];
		}
		TU_CHECK(tbl[1] == c, "expanded table of %d: byte 1 = %d, not the coefficient", c,
		         tbl[1]);
	}
	TU_CHECK(bad_t == 0, "expanded tables give %ld wrong products", bad_t);
	TU_CHECK(bad_a == 0, "affine matrices give %ld wrong products", bad_a);
}

/* ------------------------------------------------------------------------ */
/* gk_gf256_gemm*                                                            */
/* ------------------------------------------------------------------------ */

/* C = A * B with B's rows at b + j * ldb, C's at c + i * ldc. */
static void ref_gemm(int64_t m, int64_t n, int64_t k, const uint8_t *a, int64_t lda,
                     const uint8_t *b, int64_t ldb, uint8_t *c, int64_t ldc)
{
	for (int64_t i = 0; i < m; i++) {
		uint8_t *ci = c + i * ldc;
		memset(ci, 0, (size_t)n);
		for (int64_t j = 0; j < k; j++) {
			const uint8_t *t = T[a[i * lda + j]], *bj = b + j * ldb;
			for (int64_t x = 0; x < n; x++)
				ci[x] ^= t[bj[x]];
		}
	}
}

/* gk_gf256_gemm with padded leading dimensions: C's padding is unchanged. */
static void check_gemm(int64_t m, int64_t n, int64_t k, tu_rng *rng)
{
	const int64_t lda = k + 1 + (int64_t)(tu_next(rng) % 3) - (k > 0), ldb = n + 1 + (int64_t)(tu_next(rng) % 5) - (n > 0),
	              ldc = n + 1 + (int64_t)(tu_next(rng) % 5) - (n > 0);
	const size_t sa = (size_t)(m * lda + 1), sb = (size_t)(k * ldb + 1),
	             sc = (size_t)(m * ldc + 1);
	uint8_t *a = xalloc(sa), *b = xalloc(sb), *c = xalloc(sc), *ref = xalloc(sc);
	fill(a, sa, rng);
	fill(b, sb, rng);
	fill(c, sc, rng); /* poison: no correct result is this noise */
	memcpy(ref, c, sc);
	ref_gemm(m, n, k, a, lda, b, ldb, ref, ldc);
	gk_status st = gk_gf256_gemm(m, n, k, a, lda, b, ldb, c, ldc);
	TU_CHECK(st == GK_OK && memcmp(c, ref, sc) == 0,
	         "gk_gf256_gemm m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld: st=%d, %s",
	         (long long)m, (long long)n, (long long)k, (long long)lda, (long long)ldb,
	         (long long)ldc, st, st == GK_OK ? "wrong result or padding" : gk_last_error());
	free(a);
	free(b);
	free(c);
	free(ref);
}

/* gk_gf256_gemm_rows(_ex) with separate row buffers. */
static void check_gemm_rows(const gk_context *ctx, int64_t m, int64_t n, int64_t k, tu_rng *rng)
{
	uint8_t *a = xalloc((size_t)(m * k + 1));
	uint8_t *b = xalloc((size_t)(k * n + 1)), *ref = xalloc((size_t)(m * n + 1));
	const uint8_t **brows = xalloc(sizeof(uint8_t *) * (size_t)(k + 1));
	uint8_t **crows = xalloc(sizeof(uint8_t *) * (size_t)(m + 1));
	fill(a, (size_t)(m * k), rng);
	fill(b, (size_t)(k * n), rng);
	ref_gemm(m, n, k, a, k, b, n, ref, n);
	for (int64_t j = 0; j < k; j++)
		brows[j] = b + j * n;
	for (int64_t i = 0; i < m; i++) {
		crows[i] = xalloc((size_t)n + 1);
		fill(crows[i], (size_t)n, rng);
	}
	gk_status st = ctx != NULL ? gk_gf256_gemm_rows_ex(ctx, m, n, k, a, k, brows, crows)
	                           : gk_gf256_gemm_rows(m, n, k, a, k, brows, crows);
	int ok = st == GK_OK;
	for (int64_t i = 0; i < m && ok; i++)
		ok = memcmp(crows[i], ref + i * n, (size_t)n) == 0;
	TU_CHECK(ok, "gk_gf256_gemm_rows%s m=%lld n=%lld k=%lld: st=%d", ctx ? "_ex" : "",
	         (long long)m, (long long)n, (long long)k, st);
	for (int64_t i = 0; i < m; i++)
		free(crows[i]);
	free(crows);
	free(brows);
	free(a);
	free(b);
	free(ref);
}

static void test_gemm(tu_rng *rng)
{
	long before = tu_failed;
	static const int64_t small[] = {1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 19};
	const size_t ns = sizeof small / sizeof small[0];
	for (size_t i = 0; i < ns; i++)
		for (size_t j = 0; j < ns; j++)
			check_gemm(small[i], (int64_t)(tu_next(rng) % 700), small[j], rng);
	check_gemm(255, 100, 255, rng);
	check_gemm(255, 70, 3, rng);
	check_gemm(2, 300, 255, rng);
	check_gemm(7, 0, 5, rng);
	/* k = 0: C = 0 */
	check_gemm(3, 50, 0, rng);
	/* several passes: m > 6 (row groups) or k > 16 (input groups), with n
	 * past one column block of 512 KiB / (m + k) */
	check_gemm(13, 20000, 40, rng);
	check_gemm(50, 5000, 200, rng);
	check_gemm(4, 40000, 28, rng);
	check_gemm(1, 3000, 17, rng);
	check_gemm_rows(NULL, 9, 12345, 10, rng);
	/* threads: 4 threads forced, each with >= 1 MiB to stream */
	gk_context *ctx = NULL;
	if (gk_context_create(&ctx) == GK_OK && gk_context_set_threads(ctx, 4) == GK_OK) {
		check_gemm_rows(ctx, 4, (3 << 20) / 4 + 12345, 10, rng);
		check_gemm_rows(ctx, 14, (1 << 20) / 2 + 77, 3, rng);
		TU_CHECK(gk_gf256_threads_for(4, 10, 3 << 20, 4) == 4,
		         "threads_for(4, 10, 3 MiB, 4) = %d", gk_gf256_threads_for(4, 10, 3 << 20, 4));
		TU_CHECK(gk_gf256_threads_for(4, 10, 1000, 4) == 1, "small calls stay on one thread");
		/* 64 KiB shards of a 10+4 code stream 896 KiB: split on the pool
		 * (GK_GF256_SPLIT_BYTES), as is a length not a multiple of 64. */
		TU_CHECK(gk_gf256_threads_for(4, 10, 65536, 4) >= 2, "threads_for(4, 10, 64 KiB, 4) = %d",
		         gk_gf256_threads_for(4, 10, 65536, 4));
		check_gemm_rows(ctx, 4, 65536 + 13, 10, rng);
		check_gemm_rows(ctx, 2, 3 * GK_GF256_SPLIT_BYTES / 2 + 1, 4, rng);
		/* A run of calls near the bound: the thread count is learned by
		 * timing (src/core/adapt.c), so some run on the threads and some on
		 * one, the threads each taking their own columns first. */
		for (int r = 0; r < 40; r++)
			check_gemm_rows(ctx, 2, 65536 + 64 * r, 4, rng);
	}
	gk_context_destroy(ctx);
	printf("gemm: %s\n", tu_failed == before ? "ok" : "FAILED");
}

static void test_gemm_errors(void)
{
	uint8_t a[16] = {1, 2, 3, 4}, b[64] = {5}, c[64];
	const uint8_t *br[4] = {b, b + 8, b + 16, b + 24};
	uint8_t *cr[4] = {c, c + 8, c + 16, c + 24};
	const uint8_t *br_null[2] = {b, NULL};
	uint8_t *cr_null[2] = {c, NULL};
	memset(c, 0xAB, sizeof c);
	TU_CHECK(gk_gf256_gemm(-1, 4, 2, a, 2, b, 4, c, 4) == GK_ERR_NEGATIVE_SIZE, "m < 0");
	TU_CHECK(gk_gf256_gemm(2, -4, 2, a, 2, b, 4, c, 4) == GK_ERR_NEGATIVE_SIZE, "n < 0");
	TU_CHECK(gk_gf256_gemm(2, 4, -2, a, 2, b, 4, c, 4) == GK_ERR_NEGATIVE_SIZE, "k < 0");
	TU_CHECK(gk_gf256_gemm(256, 4, 2, a, 2, b, 4, c, 4) == GK_ERR_UNSUPPORTED, "m > 255");
	TU_CHECK(gk_gf256_gemm(2, 4, 256, a, 256, b, 4, c, 4) == GK_ERR_UNSUPPORTED, "k > 255");
	TU_CHECK(gk_gf256_gemm(2, 4, 2, a, 1, b, 4, c, 4) == GK_ERR_BAD_LD, "lda < k");
	TU_CHECK(gk_gf256_gemm(2, 4, 2, a, 2, b, 3, c, 4) == GK_ERR_BAD_LD, "ldb < n");
	TU_CHECK(gk_gf256_gemm(2, 4, 2, a, 2, b, 4, c, 3) == GK_ERR_BAD_LD, "ldc < n");
	TU_CHECK(gk_gf256_gemm(2, 4, 2, NULL, 2, b, 4, c, 4) == GK_ERR_NULL_POINTER, "a NULL");
	TU_CHECK(gk_gf256_gemm(2, 4, 2, a, 2, NULL, 4, c, 4) == GK_ERR_NULL_POINTER, "b NULL");
	TU_CHECK(gk_gf256_gemm(2, 4, 2, a, 2, b, 4, NULL, 4) == GK_ERR_NULL_POINTER, "c NULL");
	TU_CHECK(gk_gf256_gemm(2, 4, 2, a, 2, b, 4, c, INT64_MAX) == GK_ERR_OVERFLOW,
	         "ldc overflow");
	TU_CHECK(gk_gf256_gemm(2, 4, 3, a, 3, b, INT64_MAX / 2, c, 4) == GK_ERR_OVERFLOW,
	         "ldb overflow");
	TU_CHECK(gk_gf256_gemm(0, 4, 2, NULL, 2, NULL, 4, NULL, 4) == GK_OK, "m = 0 is a no-op");
	TU_CHECK(gk_gf256_gemm(2, 0, 2, NULL, 2, NULL, 1, NULL, 1) == GK_OK, "n = 0 is a no-op");
	int untouched = 1;
	for (size_t i = 0; i < sizeof c; i++)
		untouched &= c[i] == 0xAB;
	TU_CHECK(untouched, "an argument error wrote to C");
	TU_CHECK(gk_gf256_gemm(2, 4, 0, NULL, 1, NULL, 4, c, 8) == GK_OK &&
	         c[0] == 0 && c[3] == 0 && c[4] == 0xAB && c[8] == 0 && c[11] == 0,
	         "k = 0 must zero C (and nothing else)");
	TU_CHECK(gk_gf256_gemm_rows(2, 8, 2, a, 2, br_null, cr) == GK_ERR_NULL_POINTER,
	         "b_rows[1] NULL");
	TU_CHECK(gk_gf256_gemm_rows(2, 8, 2, a, 2, br, cr_null) == GK_ERR_NULL_POINTER,
	         "c_rows[1] NULL");
	TU_CHECK(gk_gf256_gemm_rows(2, 8, 2, a, 2, NULL, cr) == GK_ERR_NULL_POINTER, "b_rows NULL");
	TU_CHECK(gk_gf256_gemm_rows(2, 8, 2, a, 2, br, NULL) == GK_ERR_NULL_POINTER, "c_rows NULL");
	TU_CHECK(gk_gf256_gemm_rows_ex(NULL, 2, 8, 2, a, 1, br, cr) == GK_ERR_BAD_LD, "_ex lda");
	TU_CHECK(strstr(gk_last_error(), "lda") != NULL, "last error names lda: \"%s\"",
	         gk_last_error());
	TU_CHECK(gk_gf256_gemm_rows_ex(NULL, 2, 8, 2, a, 2, br, cr) == GK_OK, "_ex, NULL context");
}

/* ------------------------------------------------------------------------ */
/* Matrix inversion                                                          */
/* ------------------------------------------------------------------------ */

static void ref_matmul(int64_t n, const uint8_t *x, const uint8_t *y, uint8_t *z)
{
	for (int64_t i = 0; i < n; i++)
		for (int64_t j = 0; j < n; j++) {
			uint8_t v = 0;
			for (int64_t l = 0; l < n; l++)
				v ^= T[x[i * n + l]][y[l * n + j]];
			z[i * n + j] = v;
		}
}

static int is_identity(int64_t n, const uint8_t *z)
{
	for (int64_t i = 0; i < n; i++)
		for (int64_t j = 0; j < n; j++)
			if (z[i * n + j] != (i == j))
				return 0;
	return 1;
}

static void test_invert(tu_rng *rng)
{
	static const int64_t sizes[] = {1, 2, 3, 5, 8, 17, 64, 200, 256};
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		const int64_t n = sizes[si];
		const size_t nn = (size_t)(n * n);
		uint8_t *l = xalloc(nn), *u = xalloc(nn), *a = xalloc(nn), *inv = xalloc(nn),
		        *z = xalloc(nn);
		/* A = L * U * P with unit triangular L, U and a row shuffle P:
		 * invertible, yet dense and with zeros on the diagonal possible. */
		fill(l, nn, rng);
		fill(u, nn, rng);
		for (int64_t i = 0; i < n; i++)
			for (int64_t j = 0; j < n; j++) {
				if (j > i)
					l[i * n + j] = 0;
				if (j < i)
					u[i * n + j] = 0;
				if (i == j)
					l[i * n + j] = u[i * n + j] = 1;
			}
		ref_matmul(n, l, u, z);
		for (int64_t i = 0; i < n; i++) /* swap rows 0 and n - 1, rotate the rest */
			memcpy(a + ((i + 1) % n) * n, z + i * n, (size_t)n);
		memset(inv, 0x5A, nn);
		gk_status st = gk_gf256_invert_matrix(n, a, inv);
		TU_CHECK(st == GK_OK, "invert %lld x %lld: st = %d", (long long)n, (long long)n, st);
		ref_matmul(n, a, inv, z);
		int ok = is_identity(n, z);
		ref_matmul(n, inv, a, z);
		ok &= is_identity(n, z);
		TU_CHECK(ok, "invert %lld x %lld: A * A^-1 != I", (long long)n, (long long)n);
		/* in == out is allowed */
		memcpy(z, a, nn);
		st = gk_gf256_invert_matrix(n, z, z);
		TU_CHECK(st == GK_OK && memcmp(z, inv, nn) == 0, "invert in place, n = %lld",
		         (long long)n);
		/* singular: row n-1 = c * row 0 ^ row 1 (c * row 0 for n = 2; 0 for n = 1) */
		if (n >= 2) {
			const uint8_t c = (uint8_t)(1 + tu_next(rng) % 255);
			for (int64_t j = 0; j < n; j++)
				a[(n - 1) * n + j] = T[c][a[j]] ^ (n >= 3 ? a[n + j] : 0);
		} else {
			a[0] = 0;
		}
		st = gk_gf256_invert_matrix(n, a, inv);
		TU_CHECK(st == GK_ERR_SINGULAR, "singular %lld x %lld not detected: st = %d",
		         (long long)n, (long long)n, st);
		free(l);
		free(u);
		free(a);
		free(inv);
		free(z);
	}
	uint8_t x[4] = {1, 2, 3, 4}, y[4];
	TU_CHECK(gk_gf256_invert_matrix(-1, x, y) == GK_ERR_NEGATIVE_SIZE, "invert n < 0");
	TU_CHECK(gk_gf256_invert_matrix(257, x, y) == GK_ERR_UNSUPPORTED, "invert n > 256");
	TU_CHECK(gk_gf256_invert_matrix(2, NULL, y) == GK_ERR_NULL_POINTER, "invert in NULL");
	TU_CHECK(gk_gf256_invert_matrix(2, x, NULL) == GK_ERR_NULL_POINTER, "invert out NULL");
	TU_CHECK(gk_gf256_invert_matrix(0, NULL, NULL) == GK_OK, "invert n = 0");
}

int main(void)
{
	tu_rng rng;
	tu_rng_init(&rng, tu_seed());
	gf_ref_init();
	printf("GF(2^8) kernels in use: %s\n", gk_gf256_kernel_name());

	test_field(&rng);
	test_formats();
	test_gemm(&rng);
	test_gemm_errors();
	test_invert(&rng);
	return tu_finish("test_gf256");
}
