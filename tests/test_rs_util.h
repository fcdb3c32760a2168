/*
 * test_rs_util.h - what the two tests of the Reed-Solomon API share
 * (test_rs.c: matrices, MDS, erasure patterns, verify, update, argument
 * errors; test_rs_threads.c: the _ex calls on contexts, the decoder a gk_rs
 * keeps, one gk_rs shared by threads): the matrices by their definitions,
 * a reference encode, a code (a gk_rs whose matrix and parity are checked
 * against those, with its original and working shards) and one erasure
 * pattern rebuilt and compared. The field reference: test_gf256_ref.h.
 */
#ifndef TEST_RS_UTIL_H
#define TEST_RS_UTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit.h"
#include "test_gf256_ref.h"

static inline const char *kind_name(gk_rs_matrix kind)
{
	return kind == GK_RS_CAUCHY ? "cauchy" : "vandermonde";
}

/* The (k + m) x k matrices by their definitions. */
static inline void ref_matrix(gk_rs_matrix kind, int k, int m, uint8_t *a)
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

/* parity[p] = sum_j M[k + p][j] * data[j] */
static inline void ref_encode(int k, int m, const uint8_t *mat, int64_t len,
                              uint8_t *const *data, uint8_t **parity)
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

static inline void code_free(code *c)
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
static inline int code_init(code *c, gk_rs_matrix kind, int k, int m, int64_t len, tu_rng *rng)
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
static inline int try_pattern(code *c, const uint8_t *lost, int data_only, tu_rng *rng)
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

#endif /* TEST_RS_UTIL_H */
