/*
 * test_gemm_unpacked.c - the unpacked GEMM microkernels of every kernel
 * table this CPU runs, in isolation (the contract of kernel_api.h):
 *
 *  - every tile shape up to MU x NU, A by rows, by columns and strided,
 *    beta = 0 over NaN, alpha and beta other than 0 and 1; elementwise
 *    against a long double sum; nothing outside the tile written;
 *  - on packed slivers, the same bits as the packed kernel (the driver
 *    relies on it);
 *  - the tallest one-vector tiles along a long k with A by rows (the
 *    kernels' path that fetches A ahead);
 *  - the AVX-512 kernels with row pairs and quads, with quads only, and
 *    with neither (whichever this CPU's table holds): every tile they
 *    compute differently against the reference, and bit for bit;
 *  - the column entries (gemm_uc_*, and the AVX-512 ones of each variant):
 *    the same bits as the one-tile kernel called tile by tile, and nothing
 *    else of C written.
 * Inputs are fresh random numbers (GK_TEST_SEED to repeat).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gk_internal.h"
#include "test_util.h"
#include "../src/cpu/avx512/kernels_avx512.h"

static const char *const tables[] = {"generic", "avx2", "avx512"};

/* One call of a table's unpacked kernel on an mv x nv tile of a C buffer
 * with guard rows and columns around it. */
static void ukr_case(const gk_kernels *t, unsigned dt, int64_t mv, int64_t nv, int64_t k,
                     int a_layout, double alpha, double beta, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	/* A: by rows (0), by columns (1), or both strides above 1 (2). */
	const int64_t rs_a = a_layout == 0 ? k + 3 : a_layout == 1 ? 1 : 2 * k + 1;
	const int64_t cs_a = a_layout == 0 ? 1 : a_layout == 1 ? mv + 2 : 2;
	const int64_t rs_b = nv + (int64_t)(tu_next(r) % 5);
	const int64_t la = (mv - 1) * rs_a + (k > 0 ? (k - 1) * cs_a : 0) + 1;
	const int64_t lb = (k > 0 ? (k - 1) * rs_b : 0) + nv;
	/* C: guard rows above and below, guard columns either side. */
	const int64_t rs_c = nv + 7, off = 2 * rs_c + 3, lc = (mv + 4) * rs_c;
	void *a = tu_xmalloc((size_t)la * es), *b = tu_xmalloc((size_t)lb * es);
	tu_fill(dt, a, (size_t)la, r);
	tu_fill(dt, b, (size_t)lb, r);
	void *c0;
	void *c = tu_tile_c(dt, mv, nv, rs_c, off, lc, beta, &c0, r);
	if (dt == GK_DTYPE_F32)
		t->gemm_u_f32(mv, nv, k, (float)alpha, a, rs_a, cs_a, b, rs_b, (float)beta,
		              (float *)c + off, rs_c);
	else
		t->gemm_u_f64(mv, nv, k, alpha, a, rs_a, cs_a, b, rs_b, beta, (double *)c + off, rs_c);
	int outside;
	const int bad = tu_tile_check(dt, mv, nv, k, a, rs_a, cs_a, b, rs_b, 1, alpha, beta, c, c0, lc,
	                              off, rs_c, &outside);
	TU_CHECK(bad == 0 && outside == 0,
	         "%s gemm_u_%s %lldx%lld k=%lld A layout %d alpha=%g beta=%g: %d elements off, "
	         "%d written outside the tile", t->name, dt == GK_DTYPE_F32 ? "f32" : "f64",
	         (long long)mv, (long long)nv, (long long)k, a_layout, alpha, beta, bad, outside);
	free(a);
	free(b);
	free(c);
	free(c0);
}

/* The most rows a table's unpacked kernel takes in a tile nv wide. */
static int64_t urows(const gk_kernels *t, unsigned dt, int64_t nv)
{
	const int64_t mu = dt == GK_DTYPE_F32 ? t->gemm_u_f32_mr : t->gemm_u_f64_mr;
	const int64_t nu = dt == GK_DTYPE_F32 ? t->gemm_u_f32_nr : t->gemm_u_f64_nr;
	const int64_t vw = dt == GK_DTYPE_F32 ? t->gemm_u_f32_vw : t->gemm_u_f64_vw;
	return gk_gemm_u_rows(mu, nu, vw, nv);
}

/* On packed slivers (rs_a = 1, cs_a = MR, rs_b = NR) the unpacked kernel, in
 * pieces it takes, must give the packed kernel's bits. */
static void ukr_same_bits(const gk_kernels *t, unsigned dt, int64_t k, double alpha, double beta,
                          tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const int64_t mr = dt == GK_DTYPE_F32 ? t->gemm_f32_mr : t->gemm_f64_mr;
	const int64_t nr = dt == GK_DTYPE_F32 ? t->gemm_f32_nr : t->gemm_f64_nr;
	const int64_t nu = dt == GK_DTYPE_F32 ? t->gemm_u_f32_nr : t->gemm_u_f64_nr;
	const int64_t wv = nr < nu ? nr : nu, mu = urows(t, dt, wv);
	void *a = tu_xmalloc((size_t)(mr * k + 1) * es), *b = tu_xmalloc((size_t)(nr * k + 1) * es);
	void *c1 = tu_xmalloc((size_t)(mr * nr) * es), *c2 = tu_xmalloc((size_t)(mr * nr) * es);
	tu_fill(dt, a, (size_t)(mr * k + 1), r);
	tu_fill(dt, b, (size_t)(nr * k + 1), r);
	tu_fill(dt, c1, (size_t)(mr * nr), r);
	memcpy(c2, c1, (size_t)(mr * nr) * es);
	if (dt == GK_DTYPE_F32) {
		t->gemm_f32(k, (float)alpha, a, b, (float)beta, c1, nr);
		for (int64_t i = 0; i < mr; i += mu)
			for (int64_t j = 0; j < nr; j += nu)
				t->gemm_u_f32(mr - i < mu ? mr - i : mu, nr - j < nu ? nr - j : nu, k,
				              (float)alpha, (const float *)a + i, 1, mr, (const float *)b + j,
				              nr, (float)beta, (float *)c2 + i * nr + j, nr);
	} else {
		t->gemm_f64(k, alpha, a, b, beta, c1, nr);
		for (int64_t i = 0; i < mr; i += mu)
			for (int64_t j = 0; j < nr; j += nu)
				t->gemm_u_f64(mr - i < mu ? mr - i : mu, nr - j < nu ? nr - j : nu, k, alpha,
				              (const double *)a + i, 1, mr, (const double *)b + j, nr, beta,
				              (double *)c2 + i * nr + j, nr);
	}
	TU_CHECK(memcmp(c1, c2, (size_t)(mr * nr) * es) == 0,
	         "%s gemm_u_%s on packed slivers, k=%lld alpha=%g beta=%g: not the packed "
	         "kernel's bits", t->name, dt == GK_DTYPE_F32 ? "f32" : "f64", (long long)k, alpha,
	         beta);
	free(a);
	free(b);
	free(c1);
	free(c2);
}

/* Every tile shape the rule of kernel_api.h allows. */
static void test_ukr(const gk_kernels *t, unsigned dt, tu_rng *r)
{
	static const double ab[][2] = {{1, 0}, {1, 1}, {-0.75, 0}, {2, -1.5}, {1, 0.5}};
	const int64_t nu = dt == GK_DTYPE_F32 ? t->gemm_u_f32_nr : t->gemm_u_f64_nr;
	int c = 0;
	for (int64_t nv = 1; nv <= nu; nv++)
		for (int64_t mv = 1; mv <= urows(t, dt, nv); mv++, c++) {
			const int64_t k = c % 7 == 0 ? 0 : (int64_t)(tu_next(r) % 40);
			ukr_case(t, dt, mv, nv, k, c % 3, ab[c % 5][0], ab[c % 5][1], r);
		}
	/* The tallest tiles one vector wide along a long k, A by rows: the
	 * kernels' path that fetches A's rows ahead (k >= 256), which the
	 * driver does not send them to but the contract allows. */
	const int64_t vw = dt == GK_DTYPE_F32 ? t->gemm_u_f32_vw : t->gemm_u_f64_vw;
	for (int64_t nv = vw / 2 > 0 ? vw / 2 : 1; nv <= vw && nv <= nu; nv += vw / 2 > 0 ? vw / 2 : 1)
		ukr_case(t, dt, urows(t, dt, nv), nv, 300 + (int64_t)(tu_next(r) % 40), 0, 1.0, 0.5, r);
	static const int64_t ks[] = {1, 3, 4, 5, 17, 64, 301};
	for (int i = 0; i < 7; i++)
		ukr_same_bits(t, dt, ks[i], ab[i % 5][0], ab[i % 5][1], r);
}

/* The AVX-512 unpacked kernels with row pairs and quads, with quads only,
 * and with neither (the table holds one of them, chosen by the CPU): every
 * tile they compute differently, against the reference, and bit for bit. */
static void test_ukr_pairs(const gk_kernels *t, tu_rng *r)
{
	gk_kernels on = *t, off = *t, quads = *t;
	on.gemm_u_f32 = gk_gemm_u_f32_avx512_6x64p;
	on.gemm_u_f64 = gk_gemm_u_f64_avx512_6x32p;
	off.gemm_u_f32 = gk_gemm_u_f32_avx512_6x64;
	off.gemm_u_f64 = gk_gemm_u_f64_avx512_6x32;
	quads.gemm_u_f32 = gk_gemm_u_f32_avx512_6x64q;
	quads.gemm_u_f64 = gk_gemm_u_f64_avx512_6x32q;
	static const int64_t ks[] = {GK_GEMM_U_PAIRS_MIN_K, 33, 40, 47, 64, 100, 257, 300};
	int c = 0;
	for (int d = 0; d < 2; d++) {
		const unsigned dt = d == 0 ? GK_DTYPE_F32 : GK_DTYPE_F64;
		const int64_t half = (d == 0 ? t->gemm_u_f32_vw : t->gemm_u_f64_vw) / 2;
		for (int64_t nv = 1; nv <= half; nv++)
			for (int64_t mv = 2; mv <= GK_GEMM_U_MAX_ROWS_1V; mv++, c++)
				ukr_case(c % 2 ? &on : &quads, dt, mv, nv, ks[c % 8], c % 3,
				         c % 4 ? 1.0 : -0.75, c % 5 ? 0.0 : 0.5, r);
	}
	const size_t n = 16 * 8 * 300 + 16 * 24 + 64;
	float *a = tu_xmalloc(n * 8), *b = tu_xmalloc(n * 8), *c1 = tu_xmalloc(16 * 24 * 8), *c2 = tu_xmalloc(16 * 24 * 8);
	int same = 1;
	for (int q = 0; q < 24 && same; q++) {
		const unsigned dt = q % 2 ? GK_DTYPE_F64 : GK_DTYPE_F32;
		const int64_t mv = 2 + q % 15, nv = 1 + q % (dt == GK_DTYPE_F32 ? 8 : 4);
		const int64_t k = ks[q % 8], rs_a = q % 3 == 1 ? 1 : k + 1, cs_a = q % 3 == 1 ? mv : 1;
		tu_fill(dt, a, n, r);
		tu_fill(dt, b, n, r);
		tu_fill(dt, c1, 16 * 24, r);
		memcpy(c2, c1, 16 * 24 * tu_esize(dt));
		const gk_kernels *grouped = q % 3 == 2 ? &quads : &on;
		if (dt == GK_DTYPE_F32) {
			grouped->gemm_u_f32(mv, nv, k, 1.5f, a, rs_a, cs_a, b, 9, -1.0f, c1, 24);
			off.gemm_u_f32(mv, nv, k, 1.5f, a, rs_a, cs_a, b, 9, -1.0f, c2, 24);
		} else {
			grouped->gemm_u_f64(mv, nv, k, 1.5, (double *)a, rs_a, cs_a, (double *)b, 5,
			                    -1.0, (double *)c1, 24);
			off.gemm_u_f64(mv, nv, k, 1.5, (double *)a, rs_a, cs_a, (double *)b, 5, -1.0,
			               (double *)c2, 24);
		}
		same = memcmp(c1, c2, 16 * 24 * tu_esize(dt)) == 0;
		TU_CHECK(same, "avx512 gemm_u_%s %lldx%lld k=%lld: row %s and one-row tiles differ",
		         dt == GK_DTYPE_F32 ? "f32" : "f64", (long long)mv, (long long)nv, (long long)k,
		         grouped == &quads ? "quads" : "pairs");
	}
	free(a);
	free(b);
	free(c1);
	free(c2);
}

/* One column call against the one-tile kernel tile by tile: nblk tiles nv
 * wide, the first extra base + 1 rows tall, into two copies of one C with
 * guard rows and columns; both buffers must agree bit for bit. */
static void ucol_case(gk_gemm_uc_f32_fn cf, gk_gemm_u_f32_fn tf, gk_gemm_uc_f64_fn cd,
                      gk_gemm_u_f64_fn td, unsigned dt, int64_t nblk, int64_t base,
                      int64_t extra, int64_t nv, int64_t k, int by_cols, double beta, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const int64_t m = nblk * base + extra;
	const int64_t rs_a = by_cols ? 1 : k + 2, cs_a = by_cols ? m + 1 : 1;
	const int64_t rs_b = nv + 3, rs_c = nv + 5, off = 2 * rs_c + 2, lc = (m + 4) * rs_c;
	const int64_t la = (m - 1) * rs_a + (k - 1) * cs_a + 1, lb = (k - 1) * rs_b + nv;
	void *a = tu_xmalloc((size_t)la * es), *b = tu_xmalloc((size_t)lb * es);
	void *c1 = tu_xmalloc((size_t)lc * es), *c2 = tu_xmalloc((size_t)lc * es);
	tu_fill(dt, a, (size_t)la, r);
	tu_fill(dt, b, (size_t)lb, r);
	tu_fill(dt, c1, (size_t)lc, r);
	memcpy(c2, c1, (size_t)lc * es);
	if (dt == GK_DTYPE_F32) {
		cf(nblk, base, extra, nv, k, 1.25f, a, rs_a, cs_a, b, rs_b, (float)beta, (float *)c1 + off,
		   rs_c);
		for (int64_t ib = 0, i = 0; ib < nblk; ib++) {
			const int64_t mv = base + (ib < extra);
			tf(mv, nv, k, 1.25f, (const float *)a + i * rs_a, rs_a, cs_a, b, rs_b, (float)beta,
			   (float *)c2 + off + i * rs_c, rs_c);
			i += mv;
		}
	} else {
		cd(nblk, base, extra, nv, k, 1.25, a, rs_a, cs_a, b, rs_b, beta, (double *)c1 + off, rs_c);
		for (int64_t ib = 0, i = 0; ib < nblk; ib++) {
			const int64_t mv = base + (ib < extra);
			td(mv, nv, k, 1.25, (const double *)a + i * rs_a, rs_a, cs_a, b, rs_b, beta,
			   (double *)c2 + off + i * rs_c, rs_c);
			i += mv;
		}
	}
	TU_CHECK(memcmp(c1, c2, (size_t)lc * es) == 0,
	         "gemm_uc_%s: %lld tiles of %lld (+1 for %lld) x %lld, k=%lld, A by %s, beta=%g: not "
	         "the bits of the tiles one by one", dt == GK_DTYPE_F32 ? "f32" : "f64",
	         (long long)nblk, (long long)base, (long long)extra, (long long)nv, (long long)k,
	         by_cols ? "columns" : "rows", beta);
	free(a);
	free(b);
	free(c1);
	free(c2);
}

/* Every width up to NU, row plans of one to four tiles within the row
 * limit of that width, a few depths, A both ways, beta 0 and not. */
static void test_ucol(const char *name, gk_gemm_uc_f32_fn cf, gk_gemm_u_f32_fn tf,
                      gk_gemm_uc_f64_fn cd, gk_gemm_u_f64_fn td, const gk_kernels *t, tu_rng *r)
{
	static const int64_t ks[] = {1, 5, 32, 64, 257};
	int n = 0;
	for (int d = 0; d < 2; d++) {
		const unsigned dt = d == 0 ? GK_DTYPE_F32 : GK_DTYPE_F64;
		const int64_t mu = d == 0 ? t->gemm_u_f32_mr : t->gemm_u_f64_mr;
		const int64_t nu = d == 0 ? t->gemm_u_f32_nr : t->gemm_u_f64_nr;
		const int64_t vw = d == 0 ? t->gemm_u_f32_vw : t->gemm_u_f64_vw;
		for (int64_t nv = 1; nv <= nu; nv++, n++) {
			const int64_t lim = gk_gemm_u_rows(mu, nu, vw, nv);
			const int64_t nblk = 1 + n % 4, base = 1 + (int64_t)(tu_next(r) % (uint64_t)lim);
			const int64_t extra = base < lim ? (int64_t)(tu_next(r) % (uint64_t)nblk) : 0;
			ucol_case(cf, tf, cd, td, dt, nblk, base, extra, nv, ks[n % 5], n % 3 == 1,
			          n % 2 ? 0.0 : -0.5, r);
		}
	}
	printf("%s: column entries: %d row plans, the bits of the tiles one by one\n", name, n);
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
		printf("%s: unpacked sgemm up to %dx%d (vectors of %d), dgemm up to %dx%d (%d)\n",
		       t->name, t->gemm_u_f32_mr, t->gemm_u_f32_nr, t->gemm_u_f32_vw, t->gemm_u_f64_mr,
		       t->gemm_u_f64_nr, t->gemm_u_f64_vw);
		/* The driver's rows of a tile count on it (blocked_direct_tmpl.h). */
		TU_CHECK(t->gemm_u_f32_nr % t->gemm_u_f32_vw == 0 &&
		                 t->gemm_u_f64_nr % t->gemm_u_f64_vw == 0,
		         "%s: an unpacked tile is not a whole number of vectors wide", t->name);
		test_ukr(t, GK_DTYPE_F32, &r);
		test_ukr(t, GK_DTYPE_F64, &r);
		TU_CHECK((t->gemm_uc_f32 == NULL) == (t->gemm_uc_f64 == NULL),
		         "%s: a column entry for one precision only", t->name);
		if (t->gemm_uc_f32 != NULL)
			test_ucol(t->name, t->gemm_uc_f32, t->gemm_u_f32, t->gemm_uc_f64, t->gemm_u_f64, t,
			          &r);
		if (strcmp(t->name, "avx512") == 0) {
			test_ukr_pairs(t, &r);
			test_ucol("avx512 (pairs)", gk_gemm_u_f32_avx512_6x64p_col,
			          gk_gemm_u_f32_avx512_6x64p, gk_gemm_u_f64_avx512_6x32p_col,
			          gk_gemm_u_f64_avx512_6x32p, t, &r);
			test_ucol("avx512 (quads)", gk_gemm_u_f32_avx512_6x64q_col,
			          gk_gemm_u_f32_avx512_6x64q, gk_gemm_u_f64_avx512_6x32q_col,
			          gk_gemm_u_f64_avx512_6x32q, t, &r);
			test_ucol("avx512 (one row a vector)", gk_gemm_u_f32_avx512_6x64_col,
			          gk_gemm_u_f32_avx512_6x64, gk_gemm_u_f64_avx512_6x32_col,
			          gk_gemm_u_f64_avx512_6x32, t, &r);
		}
	}
	return tu_finish("test_gemm_unpacked");
}
