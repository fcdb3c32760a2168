/*
 * test_rs.c - the Reed-Solomon API: matrices, encode, reconstruct, verify,
 * update and their argument errors.
 *
 *  - matrices: gk_rs_matrix_get equals the definitions (Cauchy: identity over
 *    1 / (i ^ j); ISA-L Vandermonde: identity over 2^(p * j)), built here
 *    from a carry-less reference multiplication;
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
 *    update gives the parity of a re-encode;
 *  - the _ex calls: the same bytes with 1, 2 or 3 threads from a context as
 *    without one; a CUDA context is refused with GK_ERR_UNSUPPORTED and
 *    nothing written;
 *  - the decoder a gk_rs keeps from its last reconstruction: the same
 *    pattern again (with new data), another pattern, data_only changing the
 *    shards rebuilt, a refused call between two good ones, and four threads
 *    sharing one gk_rs, each cycling through patterns of its own.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit.h"
#include "test_util.h"

static uint8_t T[256][256], INV[256];

static uint8_t ref_mul(uint8_t a, uint8_t b)
{
	unsigned p = 0, x = a;
	for (int i = 0; i < 8; i++)
		if (b & (1u << i))
			p ^= x << i;
	for (int i = 14; i >= 8; i--)
		if (p & (1u << i))
			p ^= 0x11du << (i - 8);
	return (uint8_t)p;
}

static void *xalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	if (p == NULL) {
		fprintf(stderr, "test_rs: out of memory\n");
		exit(2);
	}
	return p;
}

static void fill(uint8_t *p, size_t n, tu_rng *r)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)tu_next(r);
}

static const char *kind_name(gk_rs_matrix kind)
{
	return kind == GK_RS_CAUCHY ? "cauchy" : "vandermonde";
}

/* The (k + m) x k matrices by their definitions. */
static void ref_matrix(gk_rs_matrix kind, int k, int m, uint8_t *a)
{
	memset(a, 0, (size_t)(k + m) * (size_t)k);
	for (int i = 0; i < k; i++)
		a[i * k + i] = 1;
	for (int p = 0; p < m; p++)
		for (int j = 0; j < k; j++) {
			uint8_t v;
			if (kind == GK_RS_CAUCHY) {
				v = INV[(k + p) ^ j];
			} else { /* 2^(p * j) */
				v = 1;
				for (int e = 0; e < p * j; e++)
					v = T[v][2];
			}
			a[(k + p) * k + j] = v;
		}
}

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

/* parity[p] = sum_j M[k + p][j] * data[j] */
static void ref_encode(int k, int m, const uint8_t *mat, int64_t len, uint8_t *const *data,
                       uint8_t **parity)
{
	for (int p = 0; p < m; p++) {
		memset(parity[p], 0, (size_t)len);
		for (int j = 0; j < k; j++) {
			const uint8_t *t = T[mat[(k + p) * k + j]];
			for (int64_t i = 0; i < len; i++)
				parity[p][i] ^= t[data[j][i]];
		}
	}
}

typedef struct code {
	gk_rs *rs;
	int k, m;
	int64_t len;
	uint8_t **orig; /* k + m shards: data, then parity */
	uint8_t **work;
} code;

static void code_free(code *c)
{
	for (int i = 0; i < c->k + c->m; i++) {
		free(c->orig[i]);
		free(c->work[i]);
	}
	free(c->orig);
	free(c->work);
	gk_rs_destroy(c->rs);
}

/* Create, compare the matrix, encode random data and check the parity. */
static int code_init(code *c, gk_rs_matrix kind, int k, int m, int64_t len, tu_rng *rng)
{
	c->k = k;
	c->m = m;
	c->len = len;
	c->rs = NULL;
	gk_status st = gk_rs_create(&c->rs, k, m, kind);
	TU_CHECK(st == GK_OK, "create %s %d+%d: %s", kind_name(kind), k, m, gk_last_error());
	if (st != GK_OK)
		return 0;
	const int n = k + m;
	uint8_t *mat = xalloc((size_t)n * (size_t)k), *ref = xalloc((size_t)n * (size_t)k);
	ref_matrix(kind, k, m, ref);
	memset(mat, 0xEE, (size_t)n * (size_t)k);
	TU_CHECK(gk_rs_matrix_get(c->rs, mat) == GK_OK && memcmp(mat, ref, (size_t)n * k) == 0,
	         "%s %d+%d: matrix differs from its definition", kind_name(kind), k, m);
	c->orig = xalloc(sizeof(uint8_t *) * (size_t)n);
	c->work = xalloc(sizeof(uint8_t *) * (size_t)n);
	uint8_t **refp = xalloc(sizeof(uint8_t *) * (size_t)m);
	for (int i = 0; i < n; i++) {
		c->orig[i] = xalloc((size_t)len);
		c->work[i] = xalloc((size_t)len);
		fill(c->orig[i], (size_t)len, rng); /* parity: poison until encoded */
	}
	for (int p = 0; p < m; p++)
		refp[p] = xalloc((size_t)len);
	ref_encode(k, m, ref, len, c->orig, refp);
	st = gk_rs_encode(c->rs, len, (const uint8_t *const *)c->orig, c->orig + k);
	int ok = st == GK_OK;
	for (int p = 0; p < m && ok; p++)
		ok = memcmp(c->orig[k + p], refp[p], (size_t)len) == 0;
	TU_CHECK(ok, "%s %d+%d len %lld: encode st=%d or parity wrong", kind_name(kind), k, m,
	         (long long)len, st);
	for (int p = 0; p < m; p++)
		free(refp[p]);
	free(refp);
	free(mat);
	free(ref);
	return 1;
}

/* Lose the shards in lost[] (poisoned), reconstruct, compare. */
static int try_pattern(code *c, const uint8_t *lost, int data_only, tu_rng *rng)
{
	const int n = c->k + c->m;
	uint8_t present[256];
	for (int i = 0; i < n; i++) {
		memcpy(c->work[i], c->orig[i], (size_t)c->len);
		present[i] = !lost[i];
		if (lost[i])
			fill(c->work[i], (size_t)c->len, rng);
	}
	uint8_t *poison = NULL;
	int lost_parity = -1;
	for (int i = c->k; i < n && data_only; i++)
		if (lost[i]) {
			lost_parity = i;
			poison = xalloc((size_t)c->len);
			memcpy(poison, c->work[i], (size_t)c->len);
			break;
		}
	gk_status st = gk_rs_reconstruct(c->rs, c->len, c->work, present, data_only);
	int ok = st == GK_OK;
	for (int i = 0; i < n && ok; i++) {
		if (i >= c->k && data_only && lost[i])
			continue;
		ok = memcmp(c->work[i], c->orig[i], (size_t)c->len) == 0;
	}
	if (ok && poison != NULL)
		ok = memcmp(c->work[lost_parity], poison, (size_t)c->len) == 0;
	free(poison);
	return ok;
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

/* The _ex calls on a context: the thread count changes nothing in the
 * result; a CUDA context is refused before anything is written. */
static void test_contexts(tu_rng *rng)
{
	const int k = 10, m = 4, n = k + m;
	const int64_t len = (1 << 20) + 37; /* enough bytes for several threads */
	code c;
	if (!code_init(&c, GK_RS_CAUCHY, k, m, len, rng))
		return;
	uint8_t **par = xalloc(sizeof(uint8_t *) * (size_t)m);
	for (int p = 0; p < m; p++)
		par[p] = xalloc((size_t)len);
	const uint8_t *const *data = (const uint8_t *const *)c.orig;
	for (int t = 0; t <= 3; t++) {
		gk_context *ctx = NULL;
		if (t > 0) {
			TU_CHECK(gk_context_create(&ctx) == GK_OK, "context");
			TU_CHECK(gk_context_set_threads(ctx, t) == GK_OK, "set_threads %d", t);
		}
		for (int p = 0; p < m; p++)
			memset(par[p], 0xA5, (size_t)len);
		gk_status st = gk_rs_encode_ex(ctx, c.rs, len, data, par);
		int same = st == GK_OK;
		for (int p = 0; p < m && same; p++)
			same = memcmp(par[p], c.orig[k + p], (size_t)len) == 0;
		TU_CHECK(same, "encode_ex, %d threads (0: no context): st=%d or parity differs", t, st);

		uint8_t present[14];
		for (int i = 0; i < n; i++) {
			memcpy(c.work[i], c.orig[i], (size_t)len);
			present[i] = i != 1 && i != 4 && i != 7 && i != 12;
			if (!present[i])
				fill(c.work[i], (size_t)len, rng);
		}
		st = gk_rs_reconstruct_ex(ctx, c.rs, len, c.work, present, 0);
		same = st == GK_OK;
		for (int i = 0; i < n && same; i++)
			same = memcmp(c.work[i], c.orig[i], (size_t)len) == 0;
		TU_CHECK(same, "reconstruct_ex, %d threads: st=%d or shards differ", t, st);

		int ok = 0;
		st = gk_rs_verify_ex(ctx, c.rs, len, (const uint8_t *const *)c.orig, &ok);
		TU_CHECK(st == GK_OK && ok == 1, "verify_ex, %d threads: st=%d ok=%d", t, st, ok);

		/* Shard 3 changes: update_ex from the old parity gives the new one. */
		uint8_t *nd = xalloc((size_t)len);
		fill(nd, (size_t)len, rng);
		for (int p = 0; p < m; p++)
			memcpy(par[p], c.orig[k + p], (size_t)len);
		st = gk_rs_update_ex(ctx, c.rs, len, 3, c.orig[3], nd, par);
		memcpy(c.work[3], nd, (size_t)len);
		for (int i = 0; i < k; i++)
			if (i != 3)
				memcpy(c.work[i], c.orig[i], (size_t)len);
		gk_status st2 = gk_rs_encode(c.rs, len, (const uint8_t *const *)c.work, c.work + k);
		same = st == GK_OK && st2 == GK_OK;
		for (int p = 0; p < m && same; p++)
			same = memcmp(par[p], c.work[k + p], (size_t)len) == 0;
		TU_CHECK(same, "update_ex, %d threads: st=%d or parity differs from a re-encode", t, st);
		free(nd);
		gk_context_destroy(ctx);
	}

	/* A CUDA context: encode and reconstruct run on the GPU (test_cuda_gf256
	 * checks their bytes), or fail with GK_ERR_NO_GPU writing nothing;
	 * verify and update refuse it. */
	gk_context *cu = NULL;
	TU_CHECK(gk_context_create(&cu) == GK_OK && gk_context_set_backend(cu, GK_BACKEND_CUDA) == GK_OK,
	         "cuda context");
	for (int p = 0; p < m; p++)
		memset(par[p], 0x5A, (size_t)len);
	gk_status st = gk_rs_encode_ex(cu, c.rs, len, data, par);
	TU_CHECK(st == GK_OK || (st == GK_ERR_NO_GPU && strstr(gk_last_error(), "CUDA") != NULL),
	         "encode_ex on a CUDA context: st=%d (%s)", st, gk_last_error());
	const int no_gpu = st == GK_ERR_NO_GPU;
	int untouched = 1;
	for (int p = 0; p < m; p++)
		for (int64_t i = 0; i < len && untouched; i++)
			untouched = par[p][i] == 0x5A;
	TU_CHECK(untouched || !no_gpu, "encode_ex on a CUDA context wrote parity");
	for (int p = 0; p < m; p++)
		memset(par[p], 0x5A, (size_t)len);
	uint8_t present[14];
	for (int i = 0; i < n; i++) {
		present[i] = i != 0;
		memset(c.work[i], 0x5A, (size_t)len);
	}
	st = gk_rs_reconstruct_ex(cu, c.rs, len, c.work, present, 0);
	TU_CHECK(no_gpu ? st == GK_ERR_NO_GPU && c.work[0][0] == 0x5A && c.work[0][len - 1] == 0x5A
	                : st == GK_OK,
	         "reconstruct_ex on a CUDA context: st=%d", st);
	int ok = 7;
	st = gk_rs_verify_ex(cu, c.rs, len, (const uint8_t *const *)c.orig, &ok);
	TU_CHECK(st == GK_ERR_UNSUPPORTED && ok == 0, "verify_ex on a CUDA context: st=%d ok=%d", st,
	         ok);
	st = gk_rs_update_ex(cu, c.rs, len, 0, c.orig[0], c.orig[1], par);
	TU_CHECK(st == GK_ERR_UNSUPPORTED && par[0][0] == 0x5A, "update_ex on a CUDA context: st=%d",
	         st);
	TU_CHECK(gk_rs_encode_ex(cu, NULL, len, data, par) == GK_ERR_NULL_POINTER,
	         "encode_ex: rs NULL is checked first");
	gk_context_destroy(cu);
	for (int p = 0; p < m; p++)
		free(par[p]);
	free(par);
	code_free(&c);
}

/* Reconstruction after reconstruction on one gk_rs, which keeps the decoder
 * of its last pattern: every call must rebuild its own pattern's shards. */
static void test_decoder_reuse(tu_rng *rng)
{
	long before = tu_failed;
	for (int kind = GK_RS_CAUCHY; kind <= GK_RS_VANDERMONDE_ISAL; kind++) {
		const int k = kind == GK_RS_CAUCHY ? 10 : 5, m = kind == GK_RS_CAUCHY ? 4 : 5;
		code c;
		if (!code_init(&c, (gk_rs_matrix)kind, k, m, 4096 + 17, rng))
			continue;
		const int n = k + m;
		/* A = {0, 1}; B = {2, k}; C = {1, k + 1}, with a parity shard, so
		 * that data_only changes what is rebuilt; D = m - 1 parity shards
		 * and data shard 3; E = {1, k}: with data_only, the shard rebuilt
		 * is C's, from other shards. */
		uint8_t pat[5][256] = {{0}};
		pat[0][0] = pat[0][1] = 1;
		pat[1][2] = pat[1][k] = 1;
		pat[2][1] = pat[2][k + 1] = 1;
		for (int i = k; i < n - 1; i++)
			pat[3][i] = 1;
		pat[3][3] = 1;
		pat[4][1] = pat[4][k] = 1;
		static const int seq[][2] = {{0, 0}, {0, 0}, {1, 0}, {0, 0}, {2, 1}, {2, 0}, {2, 0},
		                             {2, 1}, {4, 1}, {2, 1}, {3, 0}, {1, 0}, {1, 0}, {0, 0}};
		for (size_t q = 0; q < sizeof seq / sizeof seq[0]; q++) {
			if (q == 6) { /* new data under the pattern of the call before */
				for (int i = 0; i < k; i++)
					fill(c.orig[i], (size_t)c.len, rng);
				TU_CHECK(gk_rs_encode(c.rs, c.len, (const uint8_t *const *)c.orig,
				                      c.orig + k) == GK_OK,
				         "re-encode");
			}
			TU_CHECK(try_pattern(&c, pat[seq[q][0]], seq[q][1], rng),
			         "%s %d+%d: call %zu (pattern %d, data_only %d) rebuilt wrong bytes",
			         kind_name((gk_rs_matrix)kind), k, m, q, seq[q][0], seq[q][1]);
		}
		/* Too few shards between two good calls: refused, nothing written. */
		uint8_t present[256];
		for (int i = 0; i < n; i++) {
			present[i] = i > m;
			memcpy(c.work[i], c.orig[i], (size_t)c.len);
		}
		memset(c.work[0], 0x5A, (size_t)c.len);
		TU_CHECK(gk_rs_reconstruct(c.rs, c.len, c.work, present, 0) == GK_ERR_SINGULAR,
		         "%d shards present: not refused", n - m - 1);
		TU_CHECK(c.work[0][0] == 0x5A && c.work[0][c.len - 1] == 0x5A,
		         "a refused reconstruction wrote shard 0");
		TU_CHECK(try_pattern(&c, pat[0], 0, rng), "pattern A after a refused call");
		code_free(&c);
	}
	TU_CHECK(tu_failed == before, "decoder reuse: %ld failures", tu_failed - before);
}

/* One thread of test_shared_decoder: its own shards, one shared gk_rs. */
typedef struct {
	const code *c;
	int id, bad;
	uint64_t seed;
} rs_sharer;

static void *rs_sharer_run(void *arg)
{
	rs_sharer *t = arg;
	const code *c = t->c;
	const int n = c->k + c->m;
	tu_rng rng;
	tu_rng_init(&rng, t->seed);
	uint8_t *work[256];
	for (int i = 0; i < n; i++)
		work[i] = xalloc((size_t)c->len);
	for (int q = 0; q < 60 && !t->bad; q++) {
		/* Patterns of this thread: two lost shards chosen by id and q, so
		 * that threads meet the same pattern and different ones. */
		const int a = (t->id + q / 3) % n, b = (a + 1 + (q % 3)) % n;
		uint8_t present[256];
		for (int i = 0; i < n; i++) {
			present[i] = i != a && i != b;
			if (present[i])
				memcpy(work[i], c->orig[i], (size_t)c->len);
			else
				fill(work[i], (size_t)c->len, &rng);
		}
		if (gk_rs_reconstruct(c->rs, c->len, work, present, 0) != GK_OK)
			t->bad = 1;
		for (int i = 0; i < n && !t->bad; i++)
			t->bad = memcmp(work[i], c->orig[i], (size_t)c->len) != 0;
	}
	for (int i = 0; i < n; i++)
		free(work[i]);
	return NULL;
}

static void test_shared_decoder(tu_rng *rng)
{
	enum { NT = 4 };
	code c;
	if (!code_init(&c, GK_RS_CAUCHY, 12, 4, 2048 + 5, rng))
		return;
	rs_sharer t[NT];
	pthread_t tid[NT];
	int started[NT];
	for (int i = 0; i < NT; i++) {
		t[i] = (rs_sharer){&c, i, 0, tu_next(rng)};
		started[i] = pthread_create(&tid[i], NULL, rs_sharer_run, &t[i]) == 0;
		if (!started[i])
			rs_sharer_run(&t[i]);
	}
	for (int i = 0; i < NT; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		TU_CHECK(!t[i].bad, "thread %d of %d sharing one gk_rs rebuilt wrong bytes", i, NT);
	}
	code_free(&c);
}

int main(void)
{
	tu_rng rng;
	tu_rng_init(&rng, tu_seed());
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++) {
			T[a][b] = ref_mul((uint8_t)a, (uint8_t)b);
			if (T[a][b] == 1)
				INV[a] = (uint8_t)b;
		}
	test_errors();
	test_vandermonde_bounds();
	test_all_patterns(&rng);
	test_large(&rng);
	test_contexts(&rng);
	test_decoder_reuse(&rng);
	test_shared_decoder(&rng);
	return tu_finish("test_rs");
}
