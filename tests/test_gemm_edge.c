/*
 * test_gemm_edge.c - the edge kernels of the packed way (gk_gemm_e_*_fn in
 * kernel_api.h) of every kernel table this CPU runs that has them, in
 * isolation:
 *
 *  - every tile shape up to the table's rows x GK_GEMM_E_MAX_COLS, A with
 *    the rows along the sliver (cs_a at least the rows), B by rows, beta = 0
 *    over NaN, alpha and beta other than 0 and 1; elementwise against a
 *    long double sum; nothing outside the tile written;
 *  - on the packed slivers, the same bits as the packed kernel on the
 *    whole tile, for every column count and the tile's own rows (the
 *    driver mixes the two in one C);
 *  - a long k (several hundred steps).
 * Inputs are fresh random numbers (GK_TEST_SEED to repeat).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gk_internal.h"
#include "test_util.h"

static const char *const tables[] = {"generic", "avx2", "avx512"};

static void call_edge(const gk_kernels *t, unsigned dt, int64_t mv, int64_t nv, int64_t k,
                      double alpha, const void *a, int64_t cs_a, const void *b, int64_t rs_b,
                      double beta, void *c, int64_t rs_c)
{
	if (dt == GK_DTYPE_F32)
		t->gemm_e_f32(mv, nv, k, (float)alpha, a, cs_a, b, rs_b, (float)beta, c, rs_c);
	else
		t->gemm_e_f64(mv, nv, k, alpha, a, cs_a, b, rs_b, beta, c, rs_c);
}

/* One call on an mv x nv tile of a C buffer with guard rows and columns. */
static void edge_case(const gk_kernels *t, unsigned dt, int64_t mv, int64_t nv, int64_t k,
                      double alpha, double beta, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const int64_t cs_a = mv + (int64_t)(tu_next(r) % 4), rs_b = nv + (int64_t)(tu_next(r) % 5);
	const int64_t la = (k > 0 ? (k - 1) * cs_a : 0) + mv, lb = (k > 0 ? (k - 1) * rs_b : 0) + nv;
	const int64_t rs_c = nv + 5, off = 2 * rs_c + 2, lc = (mv + 4) * rs_c;
	void *a = tu_xmalloc((size_t)la * es), *b = tu_xmalloc((size_t)lb * es);
	tu_fill(dt, a, (size_t)la, r);
	tu_fill(dt, b, (size_t)lb, r);
	void *c0;
	void *c = tu_tile_c(dt, mv, nv, rs_c, off, lc, beta, &c0, r);
	call_edge(t, dt, mv, nv, k, alpha, a, cs_a, b, rs_b, beta, (char *)c + (size_t)off * es, rs_c);
	int outside;
	const int bad = tu_tile_check(dt, mv, nv, k, a, 1, cs_a, b, rs_b, 1, alpha, beta, c, c0, lc,
	                              off, rs_c, &outside);
	TU_CHECK(bad == 0 && outside == 0,
	         "%s gemm_e_%s %lldx%lld k=%lld alpha=%g beta=%g: %d elements off, %d written "
	         "outside the tile", t->name, dt == GK_DTYPE_F32 ? "f32" : "f64", (long long)mv,
	         (long long)nv, (long long)k, alpha, beta, bad, outside);
	free(a);
	free(b);
	free(c);
	free(c0);
}

/* On packed slivers (cs_a = MR, rs_b = NR): the packed kernel's bits on the
 * MR x nv part of its tile, for every nv up to the edge kernel's limit. */
static void edge_same_bits(const gk_kernels *t, unsigned dt, int64_t k, double alpha, double beta,
                           tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const int64_t mr = dt == GK_DTYPE_F32 ? t->gemm_f32_mr : t->gemm_f64_mr;
	const int64_t nr = dt == GK_DTYPE_F32 ? t->gemm_f32_nr : t->gemm_f64_nr;
	const int64_t emr = dt == GK_DTYPE_F32 ? t->gemm_e_f32_mr : t->gemm_e_f64_mr;
	const int64_t enr = GK_GEMM_E_MAX_COLS;
	const int64_t rows = mr < emr ? mr : emr;
	void *a = tu_xmalloc((size_t)(mr * k + 1) * es), *b = tu_xmalloc((size_t)(nr * k + 1) * es);
	void *c1 = tu_xmalloc((size_t)(mr * nr) * es), *c2 = tu_xmalloc((size_t)(mr * nr) * es);
	int diff = 0;
	for (int64_t nv = 1; nv <= enr && nv <= nr; nv++) {
		tu_fill(dt, a, (size_t)(mr * k + 1), r);
		tu_fill(dt, b, (size_t)(nr * k + 1), r);
		tu_fill(dt, c1, (size_t)(mr * nr), r);
		memcpy(c2, c1, (size_t)(mr * nr) * es);
		if (dt == GK_DTYPE_F32)
			t->gemm_f32(k, (float)alpha, a, b, (float)beta, c1, nr);
		else
			t->gemm_f64(k, alpha, a, b, beta, c1, nr);
		call_edge(t, dt, rows, nv, k, alpha, a, mr, b, nr, beta, c2, nr);
		for (int64_t i = 0; i < rows; i++)
			if (memcmp((char *)c1 + (size_t)(i * nr) * es, (char *)c2 + (size_t)(i * nr) * es,
			           (size_t)nv * es) != 0)
				diff++;
	}
	TU_CHECK(diff == 0,
	         "%s gemm_e_%s on packed slivers, k=%lld alpha=%g beta=%g: %d rows not the packed "
	         "kernel's bits", t->name, dt == GK_DTYPE_F32 ? "f32" : "f64", (long long)k, alpha,
	         beta, diff);
	free(a);
	free(b);
	free(c1);
	free(c2);
}

static void test_edge(const gk_kernels *t, unsigned dt, tu_rng *r)
{
	static const double ab[][2] = {{1, 0}, {1, 1}, {-0.75, 0}, {2, -1.5}, {1, 0.5}};
	const int64_t emr = dt == GK_DTYPE_F32 ? t->gemm_e_f32_mr : t->gemm_e_f64_mr;
	const int64_t enr = GK_GEMM_E_MAX_COLS;
	TU_CHECK(emr >= 1 && emr <= 16, "%s gemm_e_%s: rows %lld", t->name,
	         dt == GK_DTYPE_F32 ? "f32" : "f64", (long long)emr);
	int c = 0;
	for (int64_t nv = 1; nv <= enr; nv++)
		for (int64_t mv = 1; mv <= emr; mv++, c++) {
			const int64_t k = c % 7 == 0 ? 0 : (int64_t)(tu_next(r) % 40);
			edge_case(t, dt, mv, nv, k, ab[c % 5][0], ab[c % 5][1], r);
		}
	edge_case(t, dt, emr, enr, 300 + (int64_t)(tu_next(r) % 40), 1.0, 0.5, r);
	edge_case(t, dt, emr - 1, 3, 513, -1.0, 0.0, r);
	static const int64_t ks[] = {0, 1, 3, 4, 5, 17, 64, 301};
	for (int i = 0; i < 8; i++)
		edge_same_bits(t, dt, ks[i], ab[i % 5][0], ab[i % 5][1], r);
}

int main(void)
{
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	for (size_t ti = 0; ti < sizeof tables / sizeof tables[0]; ti++) {
		const gk_kernels *t = gk_kernels_by_name(tables[ti]);
		if (t == NULL) {
			printf("%s: not supported by this CPU, skipped\n", tables[ti]);
			continue;
		}
		if (t->gemm_e_f32 != NULL) {
			printf("%s: sgemm edge tiles up to %dx%d\n", t->name, t->gemm_e_f32_mr, GK_GEMM_E_MAX_COLS);
			test_edge(t, GK_DTYPE_F32, &r);
		}
		if (t->gemm_e_f64 != NULL) {
			printf("%s: dgemm edge tiles up to %dx%d\n", t->name, t->gemm_e_f64_mr, GK_GEMM_E_MAX_COLS);
			test_edge(t, GK_DTYPE_F64, &r);
		}
		if (t->gemm_e_f32 == NULL && t->gemm_e_f64 == NULL)
			printf("%s: no edge tiles\n", t->name);
	}
	return tu_finish("test_gemm_edge");
}
