/*
 * test_gemm_ukr.c - the GEMM microkernels of every kernel table this CPU can
 * run, in isolation, then the blocked driver ("cpu.blocked") over each table.
 *
 * Microkernels (gemm_f32, gemm_f64 of generic, avx2, avx512; a table the CPU
 * lacks is skipped with a message):
 *  - random packed slivers, every k in 0..20 and a spread up to 300;
 *  - alpha and beta in {1, 0, other}, beta = 0 with NaN in C (C must not be
 *    read), rs_c = NR and rs_c > NR, panels and C on and off their alignment;
 *  - every element of the C buffer outside the MR x NR tile left bit-exact.
 * Packing kernels (pack_t_f32, pack_t_f64 where a table has them): every
 * element of the slivers against the contract, the gaps between them kept.
 * Driver (gk_sgemm_blocked, gk_dgemm_blocked, called with each table):
 *  - shapes around MR, NR and the cache blocks, matrix-vector shapes, A and
 *    B by rows, by columns and with two non-unit strides, 1 to 4 threads,
 *    beta = 0 over NaN C, the padding of C past each row left bit-exact.
 * Run it with GK_GEMM_BLOCKS=mc,kc,nc set small (tests/CMakeLists.txt does,
 * as a second test) to cross every block boundary with small shapes.
 *
 * Bound, elementwise (u: unit roundoff): a length-k dot product in any order,
 * scaled and merged, is within (k + 2) u (|alpha| sum_l |a_il b_lj| +
 * |beta c_ij|) of the exact value; checked with a factor 2 to spare.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gk_internal.h"
#include "test_util.h"

static const char *const tables[] = {"generic", "avx2", "avx512"};
static const double alphas[] = {1.0, 1.0, -1.0, 0.75, 2.0};
static const double betas[] = {0.0, 1.0, 0.5, -1.5, 0.0};
#define N_AB 5

static void *xalloc(size_t bytes)
{
	void *p = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
	if (p == NULL) {
		fprintf(stderr, "test_gemm_ukr: out of memory\n");
		exit(2);
	}
	return p;
}

/* One element against its long-double value: exact sum s, magnitude sum
 * mag = |alpha| sum |a b| + |beta c0|. */
static int close_enough(unsigned dt, double got, long double s, long double mag, int64_t k)
{
	const long double bound = 2.0L * (long double)(k + 2) * tu_unit_roundoff(dt) * mag;
	return fabsl((long double)got - s) <= bound;
}

/* ---- microkernels -------------------------------------------------------- */

static void test_ukr_case(const gk_kernels *t, unsigned dt, int64_t k, double alpha, double beta,
                          int64_t rs_c, int misalign, tu_rng *r)
{
	const int64_t mr = dt == GK_DTYPE_F32 ? t->gemm_f32_mr : t->gemm_f64_mr;
	const int64_t nr = dt == GK_DTYPE_F32 ? t->gemm_f32_nr : t->gemm_f64_nr;
	const size_t es = tu_esize(dt);
	const int64_t guard = 19, off = misalign ? 1 : 0;
	char *abuf = xalloc((size_t)(mr * k + 1) * es), *bbuf = xalloc((size_t)(nr * k + 1) * es);
	const size_t clen = (size_t)(mr * rs_c + 2 * guard);
	char *cbuf = xalloc(clen * es), *before = xalloc(clen * es);
	void *a = abuf + off * es, *b = bbuf + off * es, *c = cbuf + (guard + off) * es;
	tu_fill(dt, a, (size_t)(mr * k), r);
	tu_fill(dt, b, (size_t)(nr * k), r);
	tu_fill(dt, cbuf, clen, r);
	if (beta == 0.0) /* C must not be read: NaN there would show. */
		for (int64_t i = 0; i < mr; i++)
			for (int64_t j = 0; j < nr; j++)
				tu_setv(dt, c, i * rs_c + j, NAN);
	memcpy(before, cbuf, clen * es);
	const void *c0 = before + (guard + off) * es;

	if (dt == GK_DTYPE_F32)
		t->gemm_f32(k, (float)alpha, a, b, (float)beta, c, rs_c);
	else
		t->gemm_f64(k, alpha, a, b, beta, c, rs_c);

	int bad = 0, outside = 0;
	for (int64_t i = 0; i < mr; i++)
		for (int64_t j = 0; j < nr; j++) {
			long double s = 0, mag = 0;
			for (int64_t l = 0; l < k; l++) {
				const long double p = (long double)tu_getv(dt, a, l * mr + i) * tu_getv(dt, b, l * nr + j);
				s += p;
				mag += fabsl(p);
			}
			s *= alpha;
			mag *= fabs(alpha);
			if (beta != 0.0) {
				const long double cv = tu_getv(dt, c0, i * rs_c + j);
				s += (long double)beta * cv;
				mag += fabsl((long double)beta * cv);
			}
			if (!close_enough(dt, tu_getv(dt, c, i * rs_c + j), s, mag, k) && bad++ == 0)
				fprintf(stderr, "  C(%lld,%lld) = %.9g, expected %.9Lg\n", (long long)i,
				        (long long)j, tu_getv(dt, c, i * rs_c + j), s);
		}
	/* Outside the tile: bit-exact, the guard zones and the row padding alike. */
	for (size_t e = 0; e < clen; e++) {
		const int64_t pos = (int64_t)e - guard - off;
		const int in_tile = pos >= 0 && pos / rs_c < mr && pos % rs_c < nr;
		if (!in_tile && memcmp(cbuf + e * es, before + e * es, es) != 0)
			outside++;
	}
	TU_CHECK(bad == 0, "%s gemm_%s %lldx%lld: k=%lld alpha=%g beta=%g rs_c=%lld misalign=%d: "
	         "%d elements off", t->name, dt == GK_DTYPE_F32 ? "f32" : "f64", (long long)mr,
	         (long long)nr, (long long)k, alpha, beta, (long long)rs_c, misalign, bad);
	TU_CHECK(outside == 0, "%s gemm_%s: k=%lld rs_c=%lld: %d elements outside the tile written",
	         t->name, dt == GK_DTYPE_F32 ? "f32" : "f64", (long long)k, (long long)rs_c, outside);

	/* The kernel with a prefetch list and run, where the table has one:
	 * the same bits as the plain kernel, whatever their lengths (none,
	 * fewer lines than steps of k, many more), and nothing else written. */
	const int has_pf = dt == GK_DTYPE_F32 ? t->gemm_pf_f32 != NULL : t->gemm_pf_f64 != NULL;
	if (has_pf) {
		char *pfbuf = xalloc(clen * es), *plain = xalloc(clen * es);
		memcpy(plain, cbuf, clen * es);
		const int64_t lens[3] = {0, (int64_t)(tu_next(r) % 8) + 1, 3 * k + 17};
		const void *pf[3 * 300 + 17];
		for (int64_t q = 0; q < lens[2]; q++) /* lines of B, A and C, over and over */
			pf[q] = q % 3 == 0 ? (const char *)b + q * 64 % ((size_t)(nr * k + 1) * es)
			      : q % 3 == 1 ? (const char *)a : (const char *)cbuf;
		/* The run: lines of B, then of whatever follows it (never read). */
		const char *run = (const char *)b;
		const int64_t nrun[3] = {(int64_t)(tu_next(r) % 3), 2 * k + 5, 0};
		for (int v = 0; v < 3; v++) {
			memcpy(pfbuf, before, clen * es);
			void *cp = pfbuf + (guard + off) * es;
			if (dt == GK_DTYPE_F32)
				t->gemm_pf_f32(k, (float)alpha, a, b, (float)beta, cp, rs_c, pf, lens[v],
				               run, nrun[v]);
			else
				t->gemm_pf_f64(k, alpha, a, b, beta, cp, rs_c, pf, lens[v], run, nrun[v]);
			TU_CHECK(memcmp(pfbuf, plain, clen * es) == 0,
			         "%s gemm_pf_%s: k=%lld alpha=%g beta=%g rs_c=%lld npf=%lld nrun=%lld: not "
			         "the bits of gemm_%s", t->name, dt == GK_DTYPE_F32 ? "f32" : "f64",
			         (long long)k, alpha, beta, (long long)rs_c, (long long)lens[v],
			         (long long)nrun[v],
			         dt == GK_DTYPE_F32 ? "f32" : "f64");
		}
		free(pfbuf);
		free(plain);
	}
	free(abuf);
	free(bbuf);
	free(cbuf);
	free(before);
}

/* beta's special values, as BLAS has them: beta = NaN makes every element
 * of the tile NaN (C is read and scaled), beta = -0 is zero (C is not read:
 * NaN there does not show). */
static void test_ukr_beta_special(const gk_kernels *t, unsigned dt, tu_rng *r)
{
	const int64_t mr = dt == GK_DTYPE_F32 ? t->gemm_f32_mr : t->gemm_f64_mr;
	const int64_t nr = dt == GK_DTYPE_F32 ? t->gemm_f32_nr : t->gemm_f64_nr;
	const size_t es = tu_esize(dt);
	const int64_t k = 9, rs_c = nr + 3;
	void *a = xalloc((size_t)(mr * k) * es), *b = xalloc((size_t)(nr * k) * es);
	void *c = xalloc((size_t)(mr * rs_c) * es);
	tu_fill(dt, a, (size_t)(mr * k), r);
	tu_fill(dt, b, (size_t)(nr * k), r);
	for (int v = 0; v < 2; v++) {
		const double beta = v == 0 ? NAN : -0.0;
		tu_fill(dt, c, (size_t)(mr * rs_c), r);
		if (v == 1)
			for (int64_t i = 0; i < mr; i++)
				for (int64_t j = 0; j < nr; j++)
					tu_setv(dt, c, i * rs_c + j, NAN);
		if (dt == GK_DTYPE_F32)
			t->gemm_f32(k, 1.0f, a, b, (float)beta, c, rs_c);
		else
			t->gemm_f64(k, 1.0, a, b, beta, c, rs_c);
		int bad = 0;
		for (int64_t i = 0; i < mr; i++)
			for (int64_t j = 0; j < nr; j++)
				bad += isnan(tu_getv(dt, c, i * rs_c + j)) != (v == 0);
		TU_CHECK(bad == 0, "%s gemm_%s: beta = %g: %d elements %s NaN", t->name,
		         dt == GK_DTYPE_F32 ? "f32" : "f64", beta, bad, v == 0 ? "not" : "");
	}
	free(a);
	free(b);
	free(c);
}

static void test_ukr(const gk_kernels *t, unsigned dt, tu_rng *r)
{
	const int64_t mr = dt == GK_DTYPE_F32 ? t->gemm_f32_mr : t->gemm_f64_mr;
	const int64_t nr = dt == GK_DTYPE_F32 ? t->gemm_f32_nr : t->gemm_f64_nr;
	const int has = dt == GK_DTYPE_F32 ? t->gemm_f32 != NULL : t->gemm_f64 != NULL;
	TU_CHECK(has && mr > 0 && nr > 0 && mr * nr <= GK_GEMM_MAX_TILE,
	         "%s: gemm_%s slot filled with a shape that fits the scratch tile (%lld x %lld)",
	         t->name, dt == GK_DTYPE_F32 ? "f32" : "f64", (long long)mr, (long long)nr);
	if (!has || mr <= 0 || nr <= 0 || mr * nr > GK_GEMM_MAX_TILE)
		return;
	static const int64_t spread[] = {31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 299, 300};
	int64_t ks[21 + 15 + 4];
	int nk = 0;
	for (int64_t k = 0; k <= 20; k++)
		ks[nk++] = k;
	for (size_t i = 0; i < sizeof spread / sizeof spread[0]; i++)
		ks[nk++] = spread[i];
	for (int i = 0; i < 4; i++)
		ks[nk++] = (int64_t)(tu_next(r) % 301);
	for (int ik = 0; ik < nk; ik++)
		for (int ab = 0; ab < N_AB; ab++) {
			const int64_t rs_c = (ik + ab) % 3 == 0 ? nr : nr + 1 + (int64_t)(tu_next(r) % 17);
			test_ukr_case(t, dt, ks[ik], alphas[ab], betas[ab], rs_c, (ik + ab) % 2, r);
		}
	test_ukr_beta_special(t, dt, r);
}

/* ---- the driver over each table ------------------------------------------ */

/* Strides of an m x k matrix in one of four storage schemes. */
static void strides(int scheme, int64_t rows, int64_t cols, int64_t *rs, int64_t *cs, size_t *len)
{
	switch (scheme) {
	case 0: *rs = cols + 3; *cs = 1; break;      /* by rows, padded */
	case 1: *rs = 1; *cs = rows + 2; break;      /* by columns, padded */
	case 2: *rs = 2 * cols + 1; *cs = 2; break;  /* two non-unit strides */
	default: *rs = 3; *cs = 3 * rows + 1; break; /* the same, the other way */
	}
	*len = (size_t)((rows - 1) * *rs + (cols - 1) * *cs + 1);
}

static void test_driver_case(const gk_kernels *t, unsigned dt, int64_t m, int64_t n, int64_t k,
                             int sa, int sb, int threads, int ab, tu_rng *r)
{
	const size_t es = tu_esize(dt);
	const double alpha = alphas[ab], beta = betas[ab];
	int64_t rs_a, cs_a, rs_b, cs_b;
	size_t la, lb;
	strides(sa, m, k, &rs_a, &cs_a, &la);
	strides(sb, k, n, &rs_b, &cs_b, &lb);
	const int64_t rs_c = n + (int64_t)(tu_next(r) % 4);
	const size_t lc = (size_t)(m * rs_c);
	void *a = xalloc(la * es), *b = xalloc(lb * es), *c = xalloc(lc * es), *c0 = xalloc(lc * es);
	tu_fill(dt, a, la, r);
	tu_fill(dt, b, lb, r);
	tu_fill(dt, c, lc, r);
	if (beta == 0.0)
		for (int64_t i = 0; i < m; i++)
			for (int64_t j = 0; j < n; j++)
				tu_setv(dt, c, i * rs_c + j, NAN);
	memcpy(c0, c, lc * es);

	gk_status st;
	if (dt == GK_DTYPE_F32) {
		const gk_sgemm_args p = {m, n, k, (float)alpha, (float)beta, a, rs_a, cs_a, b, rs_b, cs_b,
		                         c, rs_c, threads, 0u, t};
		st = gk_sgemm_blocked(&p);
	} else {
		const gk_dgemm_args p = {m, n, k, alpha, beta, a, rs_a, cs_a, b, rs_b, cs_b,
		                         c, rs_c, threads, 0u, t};
		st = gk_dgemm_blocked(&p);
	}

	int bad = 0, pad = 0;
	long double *arow = malloc(sizeof(long double) * (size_t)k);
	for (int64_t i = 0; i < m; i++) {
		for (int64_t l = 0; l < k; l++)
			arow[l] = tu_getv(dt, a, i * rs_a + l * cs_a);
		for (int64_t j = 0; j < n; j++) {
			long double s = 0, mag = 0;
			for (int64_t l = 0; l < k; l++) {
				const long double p = arow[l] * tu_getv(dt, b, l * rs_b + j * cs_b);
				s += p;
				mag += fabsl(p);
			}
			s *= alpha;
			mag *= fabs(alpha);
			if (beta != 0.0) {
				const long double cv = tu_getv(dt, c0, i * rs_c + j);
				s += (long double)beta * cv;
				mag += fabsl((long double)beta * cv);
			}
			if (!close_enough(dt, tu_getv(dt, c, i * rs_c + j), s, mag, k) && bad++ == 0)
				fprintf(stderr, "  C(%lld,%lld) = %.9g, expected %.9Lg\n", (long long)i,
				        (long long)j, tu_getv(dt, c, i * rs_c + j), s);
		}
		for (int64_t j = n; j < rs_c && i * rs_c + j < (int64_t)lc; j++)
			if (memcmp((char *)c + (i * rs_c + j) * es, (char *)c0 + (i * rs_c + j) * es, es) != 0)
				pad++;
	}
	TU_CHECK(st == GK_OK && bad == 0 && pad == 0,
	         "%s %cgemm_blocked m=%lld n=%lld k=%lld A/B storage %d/%d threads=%d alpha=%g "
	         "beta=%g: status %d, %d elements off, %d padding elements written", t->name,
	         dt == GK_DTYPE_F32 ? 's' : 'd', (long long)m, (long long)n, (long long)k, sa, sb,
	         threads, alpha, beta, (int)st, bad, pad);
	free(arow);
	free(a);
	free(b);
	free(c);
	free(c0);
}

static void test_driver(const gk_kernels *t, unsigned dt, tu_rng *r)
{
	const int64_t mr = dt == GK_DTYPE_F32 ? t->gemm_f32_mr : t->gemm_f64_mr;
	const int64_t nr = dt == GK_DTYPE_F32 ? t->gemm_f32_nr : t->gemm_f64_nr;
	/* Around the register tile, one thread. */
	const int64_t ms[] = {1, mr - 1, mr, mr + 1, 2 * mr + 3};
	const int64_t ns[] = {1, nr - 1, nr, nr + 1, 3 * nr - 2};
	const int64_t ks[] = {1, 2, 5, 17};
	int i = 0;
	for (int im = 0; im < 5; im++)
		for (int in = 0; in < 5; in++, i++)
			test_driver_case(t, dt, ms[im] > 0 ? ms[im] : 1, ns[in] > 0 ? ns[in] : 1, ks[i % 4],
			                 i % 4, (i / 4) % 4, 1, i % N_AB, r);
	/* Past the cache blocks (kc is in the hundreds unless GK_GEMM_BLOCKS is
	 * set), with every storage pair, threads 1 to 4. */
	for (int sa = 0; sa < 4; sa++)
		for (int sb = 0; sb < 4; sb++, i++) {
			const int64_t m = 20 + (int64_t)(tu_next(r) % 140);
			const int64_t n = 20 + (int64_t)(tu_next(r) % 140);
			const int64_t k = 150 + (int64_t)(tu_next(r) % 300);
			test_driver_case(t, dt, m, n, k, sa, sb, 1 + i % 4, i % N_AB, r);
		}
	/* Matrix-vector shapes, which the driver runs unpacked when the rows of
	 * B (few rows of C) or of A (few columns of C) are contiguous. */
	test_driver_case(t, dt, 1, 300, 77, 0, 0, 1, 0, r);
	test_driver_case(t, dt, 3, 129, 50, 1, 0, 2, 2, r);
	test_driver_case(t, dt, 4, 90, 40, 2, 1, 1, 3, r);
	test_driver_case(t, dt, 300, 1, 77, 0, 0, 1, 1, r);
	test_driver_case(t, dt, 250, 8, 60, 0, 1, 1, 4, r);
	test_driver_case(t, dt, 2001, 3, 300, 0, 2, 2, 2, r);
	/* Large enough that the threads really split the work: tall, wide, square. */
	test_driver_case(t, dt, 301, 37, 250, 0, 0, 2, 1, r);
	test_driver_case(t, dt, 29, 403, 250, 1, 0, 2, 0, r);
	test_driver_case(t, dt, 211, 197, 230, 0, 1, 3, 3, r);
	test_driver_case(t, dt, 190, 230, 241, 2, 0, 4, 2, r);
}

/*
 * A table's pack_t kernels (kernel_api.h) against their contract, element by
 * element: random X, every r from 1 to 33, rows and kc around the vectors'
 * widths, row strides past kc, dst poisoned; slivers ps > r * kc apart
 * and a guard after the last, which must keep their poison.
 */
static void test_pack_t(const gk_kernels *t, unsigned dt, tu_rng *rg)
{
	if ((dt == GK_DTYPE_F32 ? (void *)t->pack_t_f32 : (void *)t->pack_t_f64) == NULL)
		return;
	const size_t es = tu_esize(dt);
	const int64_t ks[] = {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 33, 64, 100};
	long bad = 0, cases = 0;
	for (int64_t r = 1; r <= 33; r++)
		for (int q = 0; q < 4; q++, cases++) {
			const int64_t rows = (int64_t)(tu_next(rg) % (uint64_t)(3 * r + 2));
			const int64_t kc = ks[tu_next(rg) % (sizeof ks / sizeof ks[0])];
			const int64_t rs = kc + (int64_t)(tu_next(rg) % 5), ps = r * kc + (q % 2) * 3 + (kc == 0);
			const int64_t ns = (rows + r - 1) / r, len = ns * ps + 16;
			void *x = tu_xmalloc(es * (size_t)(rows * rs + 1));
			void *d = tu_xmalloc(es * (size_t)len);
			tu_fill(dt, x, (size_t)(rows * rs + 1), rg);
			if (dt == GK_DTYPE_F32) {
				tu_poison_f32(d, (size_t)len);
				t->pack_t_f32(rows, kc, x, rs, r, d, ps);
			} else {
				tu_poison_f64(d, (size_t)len);
				t->pack_t_f64(rows, kc, x, rs, r, d, ps);
			}
			for (int64_t e = 0; e < len; e++) {
				const int64_t s = e / ps, o = e % ps, l = o / r, i = o % r;
				const int in = s < ns && o < r * kc;
				const double got = tu_getv(dt, d, e);
				const double want = !in ? 0.0 : s * r + i < rows ? tu_getv(dt, x, (s * r + i) * rs + l) : 0.0;
				/* Outside the slivers the poison (a NaN) must stay. */
				if (in ? got != want || isnan(got) : !isnan(got))
					bad++;
			}
			free(x);
			free(d);
		}
	TU_CHECK(bad == 0, "%s pack_t_%s: %ld wrong or clobbered elements in %ld cases", t->name,
	         dt == GK_DTYPE_F32 ? "f32" : "f64", bad, cases);
}

int main(void)
{
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	const char *blocks = getenv("GK_GEMM_BLOCKS");
	printf("cache blocks: %s\n", blocks && *blocks ? blocks : "from the caches");
	for (size_t ti = 0; ti < sizeof tables / sizeof tables[0]; ti++) {
		const gk_kernels *t = gk_kernels_by_name(tables[ti]);
		if (t == NULL) {
			printf("%s: not supported by this CPU, skipped\n", tables[ti]);
			continue;
		}
		printf("%s: sgemm %dx%d, dgemm %dx%d\n", t->name, t->gemm_f32_mr, t->gemm_f32_nr,
		       t->gemm_f64_mr, t->gemm_f64_nr);
		test_ukr(t, GK_DTYPE_F32, &r);
		test_ukr(t, GK_DTYPE_F64, &r);
		test_pack_t(t, GK_DTYPE_F32, &r);
		test_pack_t(t, GK_DTYPE_F64, &r);
		test_driver(t, GK_DTYPE_F32, &r);
		test_driver(t, GK_DTYPE_F64, &r);
	}
	return tu_finish("test_gemm_ukr");
}
