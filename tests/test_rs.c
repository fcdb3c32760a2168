/*
 * test_rs.c - the Reed-Solomon API: matrices, encode, reconstruct, verify,
 * update and their argument errors (the _ex calls on contexts and the
 * decoder a gk_rs keeps: test_rs_threads.c).
 *
 *  - matrices: gk_rs_matrix_get equals the definitions (Cauchy: identity over
 *    1 / (i ^ j); ISA-L Vandermonde: identity over 2^(p * j)), built here
 *    from a carry-less reference multiplication (test_gf256_ref.h);
 *  - MDS: for every k + m <= 12 every k-subset of rows is checked here for
 *    invertibility; gk_rs_create must accept a Vandermonde code exactly when
 *    it is MDS, and the boundaries of the documented rule (m = 4 up to
 *    k = 21, k = 4 up to m = 21, k = m = 5) are checked through every square
 *    submatrix of the parity rows;
 *  - every erasure pattern of 1..m lost shards for every k + m <= 12, both
 *    matrices where allowed, rebuilds the lost shards exactly (data_only
 *    leaves lost parity alone); random patterns for larger codes (28+4,
 *    200+50, 128+128, ...);
 *  - fewer than k shards: GK_ERR_SINGULAR and no byte written;
 *  - verify accepts intact shards and rejects one flipped byte anywhere;
 *    update gives the parity of a re-encode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit.h"
#include "test_rs_util.h"

/* Is the s x s matrix x (row stride s) invertible? x is destroyed. */
static int invertible(int s, uint8_t *x)
{
	for (int c = 0; c < s; c++) {
		int p = c;
		while (p < s && x[p * s + c] == 0)
			p++;
		if (p == s)
			return 0;
		for (int j = 0; j < s; j++) {
			uint8_t t = x[p * s + j];
			x[p * s + j] = x[c * s + j];
			x[c * s + j] = t;
		}
		const uint8_t iv = INV[x[c * s + c]];
		for (int r = c + 1; r < s; r++) {
			const uint8_t f = T[x[r * s + c]][iv];
			for (int j = c; j < s; j++)
				x[r * s + j] ^= T[f][x[c * s + j]];
		}
	}
	return 1;
}

/* Every k-subset of the k + m rows invertible? (k + m small) */
static int mds_by_rows(int k, int m, const uint8_t *a)
{
	const int n = k + m;
	uint8_t sub[16 * 16];
	for (unsigned mask = 0; mask < (1u << n); mask++) {
		if (__builtin_popcount(mask) != k)
			continue;
		int r = 0;
		for (int i = 0; i < n; i++)
			if (mask & (1u << i))
				memcpy(sub + r++ * k, a + i * k, (size_t)k);
		if (!invertible(k, sub))
			return 0;
	}
	return 1;
}

/* Every s x s submatrix of the m x k parity part p, with rows[0..ri) and
 * cols[0..ci) chosen so far, invertible? */
static int minors_ok(const uint8_t *p, int k, int m, int s, int *rows, int *cols, int ri,
                     int r0, int ci, int c0)
{
	if (ri < s) {
		for (int r = r0; r < m; r++) {
			rows[ri] = r;
			if (!minors_ok(p, k, m, s, rows, cols, ri + 1, r + 1, ci, c0))
				return 0;
		}
		return 1;
	}
	if (ci < s) {
		for (int c = c0; c < k; c++) {
			cols[ci] = c;
			if (!minors_ok(p, k, m, s, rows, cols, ri, r0, ci + 1, c + 1))
				return 0;
		}
		return 1;
	}
	uint8_t x[8 * 8];
	for (int i = 0; i < s; i++)
		for (int j = 0; j < s; j++)
			x[i * s + j] = p[rows[i] * k + cols[j]];
	return invertible(s, x);
}

/* A systematic code is MDS iff every square submatrix of its parity part is
 * invertible; only used here with min(k, m) <= 8. */
static int mds_by_minors(int k, int m, const uint8_t *a)
{
	int rows[8], cols[8];
	const int smax = k < m ? k : m;
	for (int s = 1; s <= smax; s++)
		if (!minors_ok(a + k * k, k, m, s, rows, cols, 0, 0, 0, 0))
			return 0;
	return 1;
}

static void test_all_patterns(tu_rng *rng)
{
	long before = tu_failed, patterns = 0;
	for (int n = 2; n <= 12; n++)
		for (int m = 1; m < n; m++) {
			const int k = n - m;
			for (int kind = GK_RS_CAUCHY; kind <= GK_RS_VANDERMONDE_ISAL; kind++) {
				uint8_t a[12 * 12];
				ref_matrix((gk_rs_matrix)kind, k, m, a);
				const int mds = mds_by_rows(k, m, a);
				if (kind == GK_RS_CAUCHY)
					TU_CHECK(mds, "Cauchy %d+%d is not MDS", k, m);
				if (!mds) {
					gk_rs *rs = (gk_rs *)1;
					gk_status st = gk_rs_create(&rs, k, m, (gk_rs_matrix)kind);
					TU_CHECK(st == GK_ERR_UNSUPPORTED && rs == NULL,
					         "%s %d+%d is not MDS, yet create gave %d",
					         kind_name((gk_rs_matrix)kind), k, m, st);
					continue;
				}
				code c;
				if (!code_init(&c, (gk_rs_matrix)kind, k, m, 1 + (int64_t)(tu_next(rng) % 80),
				               rng))
					continue;
				int bad = 0;
				for (unsigned mask = 1; mask < (1u << n); mask++) {
					if (__builtin_popcount(mask) > m)
						continue;
					uint8_t lost[16];
					for (int i = 0; i < n; i++)
						lost[i] = (mask >> i) & 1;
					bad += !try_pattern(&c, lost, (int)(mask & 1) ^ (int)((mask >> 3) & 1), rng);
					patterns++;
				}
				TU_CHECK(bad == 0, "%s %d+%d: %d erasure patterns not rebuilt",
				         kind_name((gk_rs_matrix)kind), k, m, bad);
				code_free(&c);
			}
		}
	printf("all erasure patterns, k + m <= 12: %ld patterns, %s\n", patterns,
	       tu_failed == before ? "ok" : "FAILED");
}

/* Random patterns of exactly m, and of fewer, lost shards. */
static void test_large(tu_rng *rng)
{
	static const struct { int k, m; gk_rs_matrix kind; int64_t len; } cases[] = {
		{28, 4, GK_RS_CAUCHY, 4099},   {200, 50, GK_RS_CAUCHY, 1500},
		{128, 128, GK_RS_CAUCHY, 300}, {255, 1, GK_RS_CAUCHY, 200},
		{1, 255, GK_RS_CAUCHY, 100},   {10, 4, GK_RS_VANDERMONDE_ISAL, 70000},
		{21, 4, GK_RS_VANDERMONDE_ISAL, 1000}, {4, 21, GK_RS_VANDERMONDE_ISAL, 1000},
		{200, 3, GK_RS_VANDERMONDE_ISAL, 300}, {3, 200, GK_RS_VANDERMONDE_ISAL, 300},
		{6, 3, GK_RS_CAUCHY, 65536 * 3 + 5},
	};
	for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
		code c;
		const int k = cases[ci].k, m = cases[ci].m, n = k + m;
		if (!code_init(&c, cases[ci].kind, k, m, cases[ci].len, rng))
			continue;
		int bad = 0;
		for (int t = 0; t < 6; t++) {
			uint8_t lost[256] = {0};
			int want = t < 4 ? m : 1 + (int)(tu_next(rng) % m), got = 0;
			if (t == 0) /* all parity lost */
				for (int i = k; i < n; i++)
					lost[i] = 1, got++;
			if (t == 1) /* the first min(m, k) data shards */
				for (int i = 0; i < k && got < want; i++)
					lost[i] = 1, got++;
			while (got < want) {
				int i = (int)(tu_next(rng) % (uint64_t)n);
				if (!lost[i])
					lost[i] = 1, got++;
			}
			bad += !try_pattern(&c, lost, t == 5, rng);
		}
		TU_CHECK(bad == 0, "%s %d+%d len %lld: %d random patterns not rebuilt",
		         kind_name(cases[ci].kind), k, m, (long long)cases[ci].len, bad);

		/* m + 1 lost: refused, and nothing written */
		uint8_t present[256];
		for (int i = 0; i < n; i++) {
			memcpy(c.work[i], c.orig[i], (size_t)c.len);
			present[i] = 1;
		}
		for (int got = 0; got < m + 1;) {
			int i = (int)(tu_next(rng) % (uint64_t)n);
			if (present[i])
				present[i] = 0, got++;
		}
		gk_status st = gk_rs_reconstruct(c.rs, c.len, c.work, present, 0);
		int untouched = 1;
		for (int i = 0; i < n; i++)
			untouched &= memcmp(c.work[i], c.orig[i], (size_t)c.len) == 0;
		TU_CHECK(st == GK_ERR_SINGULAR && untouched,
		         "%d+%d with %d shards: st = %d (want GK_ERR_SINGULAR), untouched = %d", k, m,
		         k - 1, st, untouched);

		/* verify: intact, then one flipped byte in a random shard */
		int ok = -1;
		st = gk_rs_verify(c.rs, c.len, (const uint8_t *const *)c.orig, &ok);
		TU_CHECK(st == GK_OK && ok == 1, "verify %d+%d intact: st %d ok %d", k, m, st, ok);
		for (int t = 0; t < 3; t++) {
			const int s = t == 0 ? n - 1 : (int)(tu_next(rng) % (uint64_t)n);
			const int64_t at = t == 1 ? c.len - 1 : (int64_t)(tu_next(rng) % (uint64_t)c.len);
			const uint8_t flip = (uint8_t)(1u << (tu_next(rng) % 8));
			c.orig[s][at] ^= flip;
			st = gk_rs_verify(c.rs, c.len, (const uint8_t *const *)c.orig, &ok);
			TU_CHECK(st == GK_OK && ok == 0, "verify %d+%d: flip in shard %d at %lld missed",
			         k, m, s, (long long)at);
			c.orig[s][at] ^= flip;
		}

		/* update = re-encode */
		const int idx = (int)(tu_next(rng) % (uint64_t)k);
		uint8_t *nd = xalloc((size_t)c.len);
		fill(nd, (size_t)c.len, rng);
		st = gk_rs_update(c.rs, c.len, idx, c.orig[idx], nd, c.orig + k);
		memcpy(c.orig[idx], nd, (size_t)c.len);
		/* re-encode into work[k..n) */
		st |= gk_rs_encode(c.rs, c.len, (const uint8_t *const *)c.orig, c.work + k);
		int same = st == GK_OK;
		for (int p = 0; p < m && same; p++)
			same = memcmp(c.work[k + p], c.orig[k + p], (size_t)c.len) == 0;
		TU_CHECK(same, "update %d+%d of shard %d differs from a re-encode", k, m, idx);
		free(nd);
		code_free(&c);
	}
}

static void test_vandermonde_bounds(void)
{
	static const struct { int k, m, mds; } b[] = {
		{21, 4, 1}, {22, 4, 0}, {4, 21, 1}, {4, 22, 0}, {5, 5, 1}, {6, 5, 0},
		{5, 6, 0}, {60, 3, 1}, {3, 60, 1}, {6, 4, 1}, {4, 6, 1},
	};
	for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
		const int k = b[i].k, m = b[i].m;
		uint8_t *a = xalloc((size_t)(k + m) * (size_t)k);
		ref_matrix(GK_RS_VANDERMONDE_ISAL, k, m, a);
		const int mds = mds_by_minors(k, m, a);
		TU_CHECK(mds == b[i].mds, "Vandermonde %d+%d: MDS = %d by its minors, rule says %d", k,
		         m, mds, b[i].mds);
		gk_rs *rs = NULL;
		gk_status st = gk_rs_create(&rs, k, m, GK_RS_VANDERMONDE_ISAL);
		TU_CHECK(st == (mds ? GK_OK : GK_ERR_UNSUPPORTED),
		         "Vandermonde %d+%d: create gave %d, MDS = %d", k, m, st, mds);
		gk_rs_destroy(rs);
		free(a);
	}
}

static void test_errors(void)
{
	gk_rs *rs = (gk_rs *)1;
	TU_CHECK(gk_rs_create(NULL, 4, 2, GK_RS_CAUCHY) == GK_ERR_NULL_POINTER, "create out NULL");
	TU_CHECK(gk_rs_create(&rs, 0, 2, GK_RS_CAUCHY) == GK_ERR_INVALID_VALUE && rs == NULL,
	         "k = 0");
	TU_CHECK(gk_rs_create(&rs, 4, 0, GK_RS_CAUCHY) == GK_ERR_INVALID_VALUE, "m = 0");
	TU_CHECK(gk_rs_create(&rs, -1, 2, GK_RS_CAUCHY) == GK_ERR_INVALID_VALUE, "k < 0");
	TU_CHECK(gk_rs_create(&rs, 200, 57, GK_RS_CAUCHY) == GK_ERR_INVALID_VALUE, "k + m > 256");
	TU_CHECK(gk_rs_create(&rs, 4, 2, (gk_rs_matrix)7) == GK_ERR_INVALID_VALUE, "bad kind");
	TU_CHECK(gk_rs_create(&rs, 200, 56, GK_RS_CAUCHY) == GK_OK, "k + m = 256");
	gk_rs_destroy(rs);
	TU_CHECK(gk_rs_create(&rs, 4, 2, GK_RS_CAUCHY) == GK_OK, "4+2");
	uint8_t buf[6][16] = {{0}};
	uint8_t *sh[6] = {buf[0], buf[1], buf[2], buf[3], buf[4], buf[5]};
	uint8_t *sh_null[6] = {buf[0], NULL, buf[2], buf[3], buf[4], buf[5]};
	const uint8_t *const *data = (const uint8_t *const *)sh;
	uint8_t present[6] = {1, 1, 1, 1, 1, 1};
	int ok;
	TU_CHECK(gk_rs_encode(NULL, 16, data, sh + 4) == GK_ERR_NULL_POINTER, "encode rs NULL");
	TU_CHECK(gk_rs_encode(rs, -1, data, sh + 4) == GK_ERR_NEGATIVE_SIZE, "encode len < 0");
	TU_CHECK(gk_rs_encode(rs, 16, NULL, sh + 4) == GK_ERR_NULL_POINTER, "encode data NULL");
	TU_CHECK(gk_rs_encode(rs, 16, data, NULL) == GK_ERR_NULL_POINTER, "encode parity NULL");
	TU_CHECK(gk_rs_encode(rs, 16, (const uint8_t *const *)sh_null, sh + 4) ==
	         GK_ERR_NULL_POINTER, "encode data[1] NULL");
	TU_CHECK(gk_rs_encode(rs, 0, data, sh + 4) == GK_OK, "encode len 0");
	TU_CHECK(gk_rs_reconstruct(rs, 16, sh, NULL, 0) == GK_ERR_NULL_POINTER, "present NULL");
	TU_CHECK(gk_rs_reconstruct(rs, 16, NULL, present, 0) == GK_ERR_NULL_POINTER, "shards NULL");
	TU_CHECK(gk_rs_reconstruct(rs, -5, sh, present, 0) == GK_ERR_NEGATIVE_SIZE, "rec len < 0");
	TU_CHECK(gk_rs_reconstruct(rs, 16, sh, present, 0) == GK_OK, "nothing lost");
	present[1] = 0;
	TU_CHECK(gk_rs_reconstruct(rs, 16, sh_null, present, 0) == GK_ERR_NULL_POINTER,
	         "lost shard with a NULL buffer");
	TU_CHECK(gk_rs_verify(rs, 16, data, NULL) == GK_ERR_NULL_POINTER, "verify ok NULL");
	ok = 7;
	TU_CHECK(gk_rs_verify(rs, 16, (const uint8_t *const *)sh_null, &ok) == GK_ERR_NULL_POINTER &&
	         ok == 0, "verify shard NULL");
	TU_CHECK(gk_rs_update(rs, 16, 4, buf[0], buf[1], sh + 4) == GK_ERR_INVALID_VALUE,
	         "update index k");
	TU_CHECK(gk_rs_update(rs, 16, -1, buf[0], buf[1], sh + 4) == GK_ERR_INVALID_VALUE,
	         "update index < 0");
	TU_CHECK(gk_rs_update(rs, 16, 0, NULL, buf[1], sh + 4) == GK_ERR_NULL_POINTER,
	         "update old NULL");
	TU_CHECK(gk_rs_update(rs, 16, 0, buf[0], NULL, sh + 4) == GK_ERR_NULL_POINTER,
	         "update new NULL");
	TU_CHECK(gk_rs_update(rs, 16, 0, buf[0], buf[1], NULL) == GK_ERR_NULL_POINTER,
	         "update parity NULL");
	TU_CHECK(gk_rs_matrix_get(rs, NULL) == GK_ERR_NULL_POINTER, "matrix_get out NULL");
	TU_CHECK(gk_rs_matrix_get(NULL, buf[0]) == GK_ERR_NULL_POINTER, "matrix_get rs NULL");
	gk_rs_destroy(rs);
	gk_rs_destroy(NULL);
}

int main(void)
{
	tu_rng rng;
	tu_rng_init(&rng, tu_seed());
	gf_ref_init();
	test_errors();
	test_vandermonde_bounds();
	test_all_patterns(&rng);
	test_large(&rng);
	return tu_finish("test_rs");
}
