/*
 * test_rs_isal.c - gemmkit against ISA-L, byte for byte.
 *
 *  - ec_init_tables' 32-byte table of every coefficient equals
 *    gk_gf256_expand's (one table format);
 *  - gf_gen_cauchy1_matrix and gf_gen_rs_matrix equal gk_rs_matrix_get for
 *    GK_RS_CAUCHY and GK_RS_VANDERMONDE_ISAL;
 *  - ec_encode_data's parity with those matrices equals gk_rs_encode's, for
 *    several k, m and lengths (below, at and past ISA-L's vector widths);
 *  - ec_encode_data with a random coefficient matrix equals
 *    gk_gf256_gemm_rows;
 *  - gf_invert_matrix and gk_gf256_invert_matrix agree on random matrices,
 *    singular ones included.
 */
#include <isa-l.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gk_internal.h"
#include "../src/gf256/gf256_internal.h"
#include "test_util.h"

static void fill(uint8_t *p, size_t n, tu_rng *r)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)tu_next(r);
}

static void test_tables(void)
{
	unsigned char a[256], isal[256 * 32];
	for (int c = 0; c < 256; c++)
		a[c] = (unsigned char)c;
	ec_init_tables(256, 1, a, isal);
	int bad = 0;
	for (int c = 0; c < 256; c++) {
		uint8_t ours[GK_GF256_TBL_BYTES];
		gk_gf256_expand((uint8_t)c, ours);
		bad += memcmp(ours, isal + 32 * c, 32) != 0;
	}
	TU_CHECK(bad == 0, "%d coefficient tables differ from ec_init_tables'", bad);
}

/* Parity of ISA-L and of gemmkit for one code and length. */
static void check_code(gk_rs_matrix kind, int k, int m, int64_t len, tu_rng *rng)
{
	const int n = k + m;
	const char *name = kind == GK_RS_CAUCHY ? "cauchy" : "vandermonde";
	unsigned char *a = tu_xmalloc((size_t)n * k), *ours = tu_xmalloc((size_t)n * k);
	unsigned char *tbls = tu_xmalloc((size_t)m * k * 32);
	if (kind == GK_RS_CAUCHY)
		gf_gen_cauchy1_matrix(a, n, k);
	else
		gf_gen_rs_matrix(a, n, k);
	gk_rs *rs = NULL;
	gk_status st = gk_rs_create(&rs, k, m, kind);
	TU_CHECK(st == GK_OK, "create %s %d+%d: %s", name, k, m, gk_last_error());
	if (st != GK_OK)
		goto out;
	TU_CHECK(gk_rs_matrix_get(rs, ours) == GK_OK && memcmp(a, ours, (size_t)n * k) == 0,
	         "%s %d+%d: matrix differs from ISA-L's", name, k, m);
	unsigned char **data = tu_xmalloc(sizeof(unsigned char *) * (size_t)k);
	unsigned char **pi = tu_xmalloc(sizeof(unsigned char *) * (size_t)m);
	uint8_t **pg = tu_xmalloc(sizeof(uint8_t *) * (size_t)m);
	for (int j = 0; j < k; j++) {
		data[j] = tu_xmalloc((size_t)len);
		fill(data[j], (size_t)len, rng);
	}
	for (int p = 0; p < m; p++) {
		pi[p] = tu_xmalloc((size_t)len);
		pg[p] = tu_xmalloc((size_t)len);
		memset(pi[p], 0x11, (size_t)len);
		memset(pg[p], 0x22, (size_t)len);
	}
	ec_init_tables(k, m, a + k * k, tbls);
	ec_encode_data((int)len, k, m, tbls, data, pi);
	st = gk_rs_encode(rs, len, (const uint8_t *const *)data, pg);
	int same = st == GK_OK;
	for (int p = 0; p < m && same; p++)
		same = memcmp(pi[p], pg[p], (size_t)len) == 0;
	TU_CHECK(same, "%s %d+%d len %lld: parity differs from ec_encode_data's", name, k, m,
	         (long long)len);
	for (int j = 0; j < k; j++)
		free(data[j]);
	for (int p = 0; p < m; p++) {
		free(pi[p]);
		free(pg[p]);
	}
	free(data);
	free(pi);
	free(pg);
out:
	gk_rs_destroy(rs);
	free(a);
	free(ours);
	free(tbls);
}

static void test_gemm(tu_rng *rng)
{
	for (int t = 0; t < 12; t++) {
		const int m = 1 + (int)(tu_next(rng) % 20), k = 1 + (int)(tu_next(rng) % 40);
		const int len = t < 4 ? 1 + (int)(tu_next(rng) % 100) : 1 + (int)(tu_next(rng) % 20000);
		unsigned char *a = tu_xmalloc((size_t)m * k), *tbls = tu_xmalloc((size_t)m * k * 32);
		unsigned char *b = tu_xmalloc((size_t)k * len), *ci = tu_xmalloc((size_t)m * len),
		              *cg = tu_xmalloc((size_t)m * len);
		unsigned char *br[40], *cir[20];
		uint8_t *cgr[20];
		fill(a, (size_t)m * k, rng);
		fill(b, (size_t)k * len, rng);
		for (int j = 0; j < k; j++)
			br[j] = b + (size_t)j * len;
		for (int i = 0; i < m; i++) {
			cir[i] = ci + (size_t)i * len;
			cgr[i] = cg + (size_t)i * len;
		}
		ec_init_tables(k, m, a, tbls);
		ec_encode_data(len, k, m, tbls, br, cir);
		gk_status st = gk_gf256_gemm_rows(m, len, k, a, k, (const uint8_t *const *)br, cgr);
		TU_CHECK(st == GK_OK && memcmp(ci, cg, (size_t)m * len) == 0,
		         "gemm_rows %d x %d, len %d differs from ec_encode_data", m, k, len);
		free(a);
		free(tbls);
		free(b);
		free(ci);
		free(cg);
	}
}

static void test_invert(tu_rng *rng)
{
	int agree = 0, singular = 0;
	for (int t = 0; t < 200; t++) {
		const int n = 1 + (int)(tu_next(rng) % (t < 100 ? 4 : 40));
		unsigned char *a = tu_xmalloc((size_t)n * n), *w = tu_xmalloc((size_t)n * n),
		              *oi = tu_xmalloc((size_t)n * n), *og = tu_xmalloc((size_t)n * n);
		fill(a, (size_t)n * n, rng);
		/* sparse small matrices are often singular */
		if (t < 100)
			for (int i = 0; i < n * n; i++)
				a[i] = (unsigned char)(a[i] % 3);
		memcpy(w, a, (size_t)n * n); /* gf_invert_matrix destroys its input */
		const int ri = gf_invert_matrix(w, oi, n);
		const gk_status st = gk_gf256_invert_matrix(n, a, og);
		const int ok = ri == 0 ? st == GK_OK && memcmp(oi, og, (size_t)n * n) == 0
		                       : st == GK_ERR_SINGULAR;
		agree += ok;
		singular += ri != 0;
		TU_CHECK(ok, "invert %d x %d: ISA-L %d, gemmkit %d", n, n, ri, st);
		free(a);
		free(w);
		free(oi);
		free(og);
	}
	printf("inversion: %d of 200 agree (%d singular)\n", agree, singular);
}

int main(void)
{
	tu_rng rng;
	tu_rng_init(&rng, tu_seed());
	static const int64_t lens[] = {1, 31, 32, 63, 64, 65, 1000, 4096 + 17, (1 << 20) + 3};
	static const struct { int k, m; } codes[] = {
		{1, 1}, {2, 1}, {4, 2}, {6, 3}, {10, 4}, {12, 4}, {21, 4}, {5, 5}, {4, 21},
		{28, 4}, {17, 7}, {200, 50}, {3, 200},
	};
	test_tables();
	for (size_t c = 0; c < sizeof codes / sizeof codes[0]; c++)
		for (int kind = GK_RS_CAUCHY; kind <= GK_RS_VANDERMONDE_ISAL; kind++) {
			const int k = codes[c].k, m = codes[c].m;
			gk_rs *probe = NULL;
			if (gk_rs_create(&probe, k, m, (gk_rs_matrix)kind) == GK_ERR_UNSUPPORTED)
				continue; /* not MDS: test_rs checks the refusal */
			gk_rs_destroy(probe);
			const int64_t len = k * m > 400 ? 1000 + (int64_t)(tu_next(&rng) % 100)
			                                : lens[tu_next(&rng) % (sizeof lens / sizeof lens[0])];
			check_code((gk_rs_matrix)kind, k, m, len, &rng);
			check_code((gk_rs_matrix)kind, k, m, 1 + (int64_t)(tu_next(&rng) % 300), &rng);
		}
	test_gemm(&rng);
	test_invert(&rng);
	return tu_finish("test_rs_isal");
}
