/*
 * test_blas.c - the BLAS and CBLAS entry points (gemmkit_cblas.h): results
 * of sgemm_, dgemm_, cblas_sgemm and cblas_dgemm against the long-double
 * reference for every transpose, both layouts and the special values of
 * alpha and beta; and, for every kind of invalid argument, the routine name
 * and parameter position that the reference BLAS and CBLAS report, with C
 * left untouched.
 *
 * This program defines xerbla_ and cblas_xerbla itself, to record each
 * report instead of printing it; its definitions take the place of the
 * library's weak ones. For a row-major call, cblas_xerbla must get netlib's
 * numbers (M and N, lda and ldb swapped) with RowMajorStrg set, as the
 * reference CBLAS test programs expect.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit_cblas.h"
#include "test_util.h"

/* ------------------------------------------------------------------------ */
/* Recording error handlers                                                  */
/* ------------------------------------------------------------------------ */

static int xerbla_calls, xerbla_info;
static char xerbla_name[16];
static int cblas_calls, cblas_info, cblas_row;
static char cblas_name[32];

void xerbla_(const char *srname, const int *info, size_t len)
{
	xerbla_calls++;
	xerbla_info = *info;
	if (len >= sizeof xerbla_name)
		len = sizeof xerbla_name - 1;
	memcpy(xerbla_name, srname, len);
	xerbla_name[len] = '\0';
}

void cblas_xerbla(int info, const char *rout, const char *form, ...)
{
	(void)form;
	cblas_calls++;
	cblas_info = info;
	cblas_row = RowMajorStrg;
	snprintf(cblas_name, sizeof cblas_name, "%s", rout);
}

static void reset_handlers(void)
{
	xerbla_calls = cblas_calls = 0;
	xerbla_info = cblas_info = cblas_row = -1;
	xerbla_name[0] = cblas_name[0] = '\0';
}

/* ------------------------------------------------------------------------ */
/* Calling the four entry points alike                                       */
/* ------------------------------------------------------------------------ */

enum api { API_F77, API_CBLAS };

static int cblas_trans_of(char t)
{
	switch (t) {
	case 'N': case 'n': return CblasNoTrans;
	case 'T': case 't': return CblasTrans;
	default: return CblasConjTrans;
	}
}

static gk_trans gk_trans_of(char t)
{
	return t == 'N' || t == 'n' ? GK_NO_TRANS : GK_TRANS;
}

/* One call of sgemm_/dgemm_ (api F77, column-major) or cblas_sgemm/dgemm. */
static void call_gemm(unsigned dtype, enum api api, gk_layout layout, char ca, char cb, int m,
                      int n, int k, double alpha, const void *a, int lda, const void *b, int ldb,
                      double beta, void *c, int ldc)
{
	const int cl = layout == GK_ROW_MAJOR ? CblasRowMajor : CblasColMajor;
	if (dtype == GK_DTYPE_F32) {
		const float al = (float)alpha, be = (float)beta;
		if (api == API_F77)
			sgemm_(&ca, &cb, &m, &n, &k, &al, a, &lda, b, &ldb, &be, c, &ldc, 1, 1);
		else
			cblas_sgemm(cl, cblas_trans_of(ca), cblas_trans_of(cb), m, n, k, al, a, lda, b,
			            ldb, be, c, ldc);
	} else {
		if (api == API_F77)
			dgemm_(&ca, &cb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
		else
			cblas_dgemm(cl, cblas_trans_of(ca), cblas_trans_of(cb), m, n, k, alpha, a, lda,
			            b, ldb, beta, c, ldc);
	}
}

static double get(unsigned dtype, const void *x, size_t i)
{
	return dtype == GK_DTYPE_F32 ? ((const float *)x)[i] : ((const double *)x)[i];
}

static size_t at(gk_layout layout, int i, int j, int ld)
{
	return layout == GK_ROW_MAJOR ? (size_t)i * ld + j : (size_t)i + (size_t)j * ld;
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */
/* ------------------------------------------------------------------------ */

static const char *dname(unsigned dtype)
{
	return dtype == GK_DTYPE_F32 ? "s" : "d";
}

static const char *aname(enum api api, gk_layout layout)
{
	return api == API_F77 ? "f77" : layout == GK_ROW_MAJOR ? "cblas-row" : "cblas-col";
}

/*
 * One valid call, checked: C against the reference (exactly where BLAS
 * defines the result exactly: alpha = 0, k = 0, m or n = 0), the padding of
 * C untouched, no error reported. beta = 0 poisons C with NaN first; alpha =
 * 0 passes NULL for A and B, which must then not be read.
 */
static void check_case(unsigned dtype, enum api api, gk_layout layout, char ca, char cb, int m,
                       int n, int k, double alpha, double beta, int pad, tu_rng *rng)
{
	const gk_trans ta = gk_trans_of(ca), tb = gk_trans_of(cb);
	const int rm = layout == GK_ROW_MAJOR;
	/* A and B as stored: ra x cola and rb x colb. */
	const int ra = ta == GK_NO_TRANS ? m : k, cola = ta == GK_NO_TRANS ? k : m;
	const int rb = tb == GK_NO_TRANS ? k : n, colb = tb == GK_NO_TRANS ? n : k;
	int lda = (rm ? cola : ra), ldb = (rm ? colb : rb), ldc = (rm ? n : m);
	lda = (lda > 1 ? lda : 1) + pad;
	ldb = (ldb > 1 ? ldb : 1) + pad;
	ldc = (ldc > 1 ? ldc : 1) + pad;
	const size_t es = dtype == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	const size_t na = tu_extent(layout, ra, cola, lda) + 1, nb = tu_extent(layout, rb, colb, ldb) + 1;
	const size_t nc = tu_extent(layout, m, n, ldc) + 1;
	void *a = malloc(na * es), *b = malloc(nb * es), *c = malloc(nc * es), *c0 = malloc(nc * es);
	if (dtype == GK_DTYPE_F32) {
		tu_fill_f32(a, na, rng);
		tu_fill_f32(b, nb, rng);
		tu_fill_f32(c0, nc, rng);
		if (beta == 0)
			tu_poison_f32(c0, nc);
	} else {
		tu_fill_f64(a, na, rng);
		tu_fill_f64(b, nb, rng);
		tu_fill_f64(c0, nc, rng);
		if (beta == 0)
			tu_poison_f64(c0, nc);
	}
	memcpy(c, c0, nc * es);

	const int no_ab = alpha == 0;
	reset_handlers();
	call_gemm(dtype, api, layout, ca, cb, m, n, k, alpha, no_ab ? NULL : a, lda, no_ab ? NULL : b,
	          ldb, beta, c, ldc);

	char what[160];
	snprintf(what, sizeof what, "%sgemm %s %c%c m=%d n=%d k=%d alpha=%g beta=%g lda=%d ldb=%d ldc=%d",
	         dname(dtype), aname(api, layout), ca, cb, m, n, k, alpha, beta, lda, ldb, ldc);
	TU_CHECK(xerbla_calls == 0 && cblas_calls == 0, "%s: an error was reported (%d, %d)", what,
	         xerbla_info, cblas_info);
	/* (An empty C has no padding: the quick-return check below covers it.) */
	TU_CHECK(m == 0 || n == 0 || tu_padding_intact(dtype, layout, m, n, c, c0, ldc),
	         "%s: padding of C changed", what);
	TU_CHECK(memcmp((char *)c + (nc - 1) * es, (char *)c0 + (nc - 1) * es, es) == 0,
	         "%s: wrote past the end of C", what);

	if (m == 0 || n == 0 || ((alpha == 0 || k == 0) && beta == 1)) {
		/* The reference returns at once: C bitwise unchanged, NaN included. */
		TU_CHECK(memcmp(c, c0, nc * es) == 0, "%s: C changed on a quick return", what);
	} else if (alpha == 0 || k == 0) {
		/* C = beta * C in the working precision, or zeros for beta = 0. */
		int bad = 0;
		for (int i = 0; i < m && !bad; i++)
			for (int j = 0; j < n && !bad; j++) {
				const size_t p = at(layout, i, j, ldc);
				double want;
				if (beta == 0)
					want = 0;
				else if (dtype == GK_DTYPE_F32)
					want = (float)beta * ((const float *)c0)[p];
				else
					want = beta * ((const double *)c0)[p];
				bad = get(dtype, c, p) != want;
			}
		TU_CHECK(!bad, "%s: C is not exactly beta * C", what);
	} else {
		long double *ref = malloc(sizeof(long double) * (size_t)m * (size_t)n);
		gkc_ref_gemm(dtype, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c0, ldc, NULL, 0,
		             ref);
		const double err = gkc_gemm_error(dtype, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb,
		                                  beta, c0, c, ldc, NULL, 0, ref);
		const double bound = gkc_gemm_bound(dtype, k, 4.0);
		TU_CHECK(err <= bound, "%s: error %.3g > %.3g", what, err, bound);
		free(ref);
	}
	free(a);
	free(b);
	free(c);
	free(c0);
}

static const int sizes[] = {0, 1, 7, 33, 64};
#define N_SIZES ((int)(sizeof sizes / sizeof sizes[0]))

static int pick_size(tu_rng *rng)
{
	return sizes[tu_next(rng) % N_SIZES];
}

static double pick_scalar(tu_rng *rng)
{
	static const double v[] = {0.0, 1.0, -0.5, 0.75};
	return v[tu_next(rng) % 4];
}

/* Set to make the blocked driver's workspace requests fail (src/gemm/blocked.h). */
extern int gk_gemm_workspace_refuse;

/*
 * BLAS cannot report a failure: with no workspace to be had, as when memory
 * runs out, every entry point must still compute C, on each of the blocked
 * driver's ways (small, split depth, matrix-vector by rows and by columns,
 * packed), every transpose of A and B.
 */
static void test_no_workspace(tu_rng *rng)
{
	static const int shapes[][3] = {
		{33, 33, 33}, {8, 8, 20000}, {2, 600, 600}, {600, 2, 600}, {600, 600, 70},
	};
	static const char tr[] = "NT";
	gk_gemm_workspace_refuse = 1;
	for (unsigned dtype = GK_DTYPE_F32; dtype <= GK_DTYPE_F64; dtype++)
		for (int s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++)
			for (int t = 0; t < 4; t++) {
				const int *x = shapes[s];
				check_case(dtype, API_F77, GK_COL_MAJOR, tr[t / 2], tr[t % 2], x[0], x[1], x[2],
				           -0.5, 0.75, 1, rng);
				check_case(dtype, API_CBLAS, GK_ROW_MAJOR, tr[t / 2], tr[t % 2], x[0], x[1],
				           x[2], 1.0, 0.0, 0, rng);
			}
	gk_gemm_workspace_refuse = 0;
}

/* Every transpose of every entry point, random sizes, alpha and beta. */
static void test_transposes(tu_rng *rng)
{
	static const char f77_chars[] = "NnTtCc", cblas_chars[] = "NTC";
	for (unsigned dtype = GK_DTYPE_F32; dtype <= GK_DTYPE_F64; dtype++)
		for (int rep = 0; rep < 2; rep++) {
			for (int i = 0; i < 6; i++)
				for (int j = 0; j < 6; j++)
					check_case(dtype, API_F77, GK_COL_MAJOR, f77_chars[i], f77_chars[j],
					           pick_size(rng), pick_size(rng), pick_size(rng),
					           pick_scalar(rng), pick_scalar(rng), (int)(tu_next(rng) % 3) * 3,
					           rng);
			for (int l = 0; l < 2; l++)
				for (int i = 0; i < 3; i++)
					for (int j = 0; j < 3; j++)
						check_case(dtype, API_CBLAS, l ? GK_ROW_MAJOR : GK_COL_MAJOR,
						           cblas_chars[i], cblas_chars[j], pick_size(rng),
						           pick_size(rng), pick_size(rng), pick_scalar(rng),
						           pick_scalar(rng), (int)(tu_next(rng) % 3) * 3, rng);
		}
}

/* Every alpha and beta in {0, 1, -0.5}, on shapes that include the empty ones. */
static void test_scalars(tu_rng *rng)
{
	static const double v[] = {0.0, 1.0, -0.5};
	static const int shapes[][3] = {
		{7, 33, 1}, {33, 7, 64}, {1, 1, 1}, {64, 33, 7}, {0, 7, 7}, {7, 0, 7}, {7, 7, 0},
	};
	for (unsigned dtype = GK_DTYPE_F32; dtype <= GK_DTYPE_F64; dtype++)
		for (int s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++)
			for (int ia = 0; ia < 3; ia++)
				for (int ib = 0; ib < 3; ib++) {
					const char ca = "NT"[tu_next(rng) % 2], cb = "NT"[tu_next(rng) % 2];
					const int *sh = shapes[s];
					check_case(dtype, API_F77, GK_COL_MAJOR, ca, cb, sh[0], sh[1], sh[2], v[ia],
					           v[ib], 2, rng);
					check_case(dtype, API_CBLAS, GK_COL_MAJOR, ca, cb, sh[0], sh[1], sh[2],
					           v[ia], v[ib], 0, rng);
					check_case(dtype, API_CBLAS, GK_ROW_MAJOR, ca, cb, sh[0], sh[1], sh[2],
					           v[ia], v[ib], 1, rng);
				}
}

/* Sizes whose matrices could not exist: a call that needs none of their
 * elements must return cleanly, without overflow or a touch of memory. */
static void test_huge_quick_returns(void)
{
	const int big = INT_MAX, zero = 0;
	const float one = 1.0f, zf = 0.0f;
	const double oned = 1.0, zd = 0.0;
	reset_handlers();
	sgemm_("N", "N", &big, &zero, &big, &one, NULL, &big, NULL, &big, &zf, NULL, &big, 1, 1);
	dgemm_("T", "T", &zero, &big, &big, &oned, NULL, &big, NULL, &big, &zd, NULL, &big, 1, 1);
	sgemm_("N", "N", &big, &big, &big, &zf, NULL, &big, NULL, &big, &one, NULL, &big, 1, 1);
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, big, 0, big, 1.0f, NULL, big, NULL,
	            big, 0.0f, NULL, big);
	cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, big, big, 0, 2.0, NULL, big, NULL, big,
	            1.0, NULL, big);
	TU_CHECK(xerbla_calls == 0 && cblas_calls == 0, "huge quick returns: an error was reported");
}

/* ------------------------------------------------------------------------ */
/* Invalid arguments                                                         */
/* ------------------------------------------------------------------------ */

/* Arguments of sgemm_ passed as NULL (gemmkit reports them; the reference
 * would crash). */
enum {
	NUL_TA = 1 << 0, NUL_TB = 1 << 1, NUL_M = 1 << 2, NUL_N = 1 << 3, NUL_K = 1 << 4,
	NUL_ALPHA = 1 << 5, NUL_A = 1 << 6, NUL_LDA = 1 << 7, NUL_B = 1 << 8, NUL_LDB = 1 << 9,
	NUL_BETA = 1 << 10, NUL_C = 1 << 11, NUL_LDC = 1 << 12,
};

typedef struct {
	char ta, tb;
	int m, n, k, lda, ldb, ldc;
	double alpha, beta;
	unsigned nulls;
	int info; /* the parameter number expected; 0: a valid call */
} f77_case;

/* Each row: the reference SGEMM's check (or its first-error-wins order) that it exercises. */
static const f77_case f77_cases[] = {
	/* TRANSA, TRANSB: 'N', 'T', 'C' in either case, nothing else. */
	{'X', 'N', 2, 2, 2, 2, 2, 2, 1, 0, 0, 1},
	{'x', 'N', 2, 2, 2, 2, 2, 2, 1, 0, 0, 1},
	{' ', 'N', 2, 2, 2, 2, 2, 2, 1, 0, 0, 1},
	{'\0', 'T', 2, 2, 2, 2, 2, 2, 1, 0, 0, 1},
	{'M', 'T', 2, 2, 2, 2, 2, 2, 1, 0, 0, 1},
	{'N', 'Y', 2, 2, 2, 2, 2, 2, 1, 0, 0, 2},
	{'c', 'z', 2, 2, 2, 2, 2, 2, 1, 0, 0, 2},
	{'X', 'Y', -1, -1, -1, 0, 0, 0, 1, 0, 0, 1},
	{'N', 'Y', -1, 2, 2, 2, 2, 2, 1, 0, 0, 2},
	/* M, N, K >= 0, tested in that order. */
	{'T', 'C', -1, 2, 2, 2, 2, 2, 1, 0, 0, 3},
	{'N', 'N', 2, -1, 2, 2, 2, 2, 1, 0, 0, 4},
	{'N', 'N', 2, 2, -1, 2, 2, 2, 1, 0, 0, 5},
	{'N', 'N', -1, -1, -1, 2, 2, 2, 1, 0, 0, 3},
	{'N', 'N', 2, -1, -1, 2, 2, 2, 1, 0, 0, 4},
	{'N', 'N', 2, 2, -1, 0, 0, 0, 1, 0, 0, 5},
	/* LDA >= max(1, NROWA), NROWA = M for 'N', K otherwise. */
	{'N', 'N', 3, 2, 2, 2, 2, 3, 1, 0, 0, 8},
	{'T', 'N', 2, 2, 3, 2, 3, 2, 1, 0, 0, 8},
	{'T', 'N', 3, 2, 2, 2, 2, 3, 1, 0, 0, 0},
	{'c', 'N', 3, 2, 2, 2, 2, 3, 1, 0, 0, 0},
	{'N', 'N', 0, 0, 0, 0, 1, 1, 1, 0, 0, 8},
	{'N', 'N', 2, 2, 2, -5, 2, 2, 1, 0, 0, 8},
	/* The check holds when alpha = 0 too, though A is not read then. */
	{'N', 'N', 3, 2, 2, 2, 2, 3, 0, 0, NUL_A | NUL_B, 8},
	/* LDB >= max(1, NROWB), NROWB = K for 'N', N otherwise. */
	{'N', 'N', 2, 2, 3, 2, 2, 2, 1, 0, 0, 10},
	{'N', 't', 2, 3, 2, 2, 2, 2, 1, 0, 0, 10},
	{'n', 't', 2, 3, 2, 2, 3, 2, 1, 0, 0, 0},
	{'N', 'T', 2, 2, 3, 2, 2, 2, 1, 0, 0, 0},
	{'N', 'N', 0, 0, 0, 1, 0, 1, 1, 0, 0, 10},
	/* LDC >= max(1, M). */
	{'N', 'N', 3, 2, 2, 3, 2, 2, 1, 0, 0, 13},
	{'N', 'N', 0, 2, 2, 1, 2, 0, 1, 0, 0, 13},
	{'N', 'N', 2, 3, 2, 2, 2, 2, 1, 0, 0, 0},
	/* The first illegal argument wins. */
	{'N', 'N', 3, 3, 3, 2, 2, 2, 1, 0, 0, 8},
	{'N', 'N', 3, 3, 3, 3, 2, 2, 1, 0, 0, 10},
	{'N', 'N', 3, 3, 3, 3, 3, 2, 1, 0, 0, 13},
	/* NULL arguments: a NULL scalar at its own place in the order, a NULL
	 * alpha or beta after the reference's checks, then the matrices. */
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_TA, 1},
	{'X', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_TB, 1},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_TB, 2},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_M, 3},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_N | NUL_K, 4},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_K, 5},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_LDA, 8},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_LDB, 10},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_LDC, 13},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_ALPHA, 6},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_BETA, 11},
	{'N', 'N', 2, 2, 2, 2, 2, 1, 1, 0, NUL_ALPHA | NUL_BETA, 13},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_ALPHA | NUL_BETA, 6},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_A, 7},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_B, 9},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_C, 12},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 1, 0, NUL_A | NUL_B | NUL_C, 7},
	/* NULL where nothing is read or written is legal. */
	{'N', 'N', 2, 2, 2, 2, 2, 2, 0, 0.5, NUL_A | NUL_B, 0},
	{'N', 'N', 2, 2, 0, 2, 1, 2, 1, 0.5, NUL_A | NUL_B, 0},
	{'N', 'N', 2, 2, 2, 2, 2, 2, 0, 1, NUL_A | NUL_B | NUL_C, 0},
	{'N', 'N', 0, 2, 2, 1, 2, 1, 1, 0, NUL_A | NUL_B | NUL_C, 0},
	{'T', 'T', 2, 0, 2, 2, 1, 2, 1, 0, NUL_A | NUL_B | NUL_C, 0},
};

static void test_f77_errors(tu_rng *rng)
{
	enum { NE = 64 };
	for (unsigned dtype = GK_DTYPE_F32; dtype <= GK_DTYPE_F64; dtype++) {
		const char *want_name = dtype == GK_DTYPE_F32 ? "SGEMM " : "DGEMM ";
		for (int ci = 0; ci < (int)(sizeof f77_cases / sizeof f77_cases[0]); ci++) {
			const f77_case *t = &f77_cases[ci];
			float af[NE], bf[NE], cf[NE], cf0[NE];
			double ad[NE], bd[NE], cd[NE], cd0[NE];
			tu_fill_f32(af, NE, rng);
			tu_fill_f32(bf, NE, rng);
			tu_fill_f32(cf0, NE, rng);
			tu_fill_f64(ad, NE, rng);
			tu_fill_f64(bd, NE, rng);
			tu_fill_f64(cd0, NE, rng);
			memcpy(cf, cf0, sizeof cf);
			memcpy(cd, cd0, sizeof cd);
			const float alf = (float)t->alpha, bef = (float)t->beta;
			const unsigned z = t->nulls;
			reset_handlers();
			if (dtype == GK_DTYPE_F32)
				sgemm_(z & NUL_TA ? NULL : &t->ta, z & NUL_TB ? NULL : &t->tb,
				       z & NUL_M ? NULL : &t->m, z & NUL_N ? NULL : &t->n,
				       z & NUL_K ? NULL : &t->k, z & NUL_ALPHA ? NULL : &alf,
				       z & NUL_A ? NULL : af, z & NUL_LDA ? NULL : &t->lda,
				       z & NUL_B ? NULL : bf, z & NUL_LDB ? NULL : &t->ldb,
				       z & NUL_BETA ? NULL : &bef, z & NUL_C ? NULL : cf,
				       z & NUL_LDC ? NULL : &t->ldc, 1, 1);
			else
				dgemm_(z & NUL_TA ? NULL : &t->ta, z & NUL_TB ? NULL : &t->tb,
				       z & NUL_M ? NULL : &t->m, z & NUL_N ? NULL : &t->n,
				       z & NUL_K ? NULL : &t->k, z & NUL_ALPHA ? NULL : &t->alpha,
				       z & NUL_A ? NULL : ad, z & NUL_LDA ? NULL : &t->lda,
				       z & NUL_B ? NULL : bd, z & NUL_LDB ? NULL : &t->ldb,
				       z & NUL_BETA ? NULL : &t->beta, z & NUL_C ? NULL : cd,
				       z & NUL_LDC ? NULL : &t->ldc, 1, 1);
			const int c_same = dtype == GK_DTYPE_F32 ? memcmp(cf, cf0, sizeof cf) == 0
			                                         : memcmp(cd, cd0, sizeof cd) == 0;
			TU_CHECK(cblas_calls == 0, "%sgemm_ case %d: cblas_xerbla called", dname(dtype), ci);
			if (t->info == 0) {
				TU_CHECK(xerbla_calls == 0, "%sgemm_ case %d: valid call reported parameter %d",
				         dname(dtype), ci, xerbla_info);
				continue;
			}
			TU_CHECK(xerbla_calls == 1 && xerbla_info == t->info &&
			         strcmp(xerbla_name, want_name) == 0,
			         "%sgemm_ case %d: got %d report(s), last '%s' %d; want '%s' %d", dname(dtype),
			         ci, xerbla_calls, xerbla_name, xerbla_info, want_name, t->info);
			TU_CHECK(c_same, "%sgemm_ case %d: C changed on an error", dname(dtype), ci);
		}
	}
}

typedef struct {
	int layout, ta, tb;
	int m, n, k, lda, ldb, ldc;
	double alpha, beta;
	unsigned nulls; /* NUL_A, NUL_B, NUL_C */
	int pos;        /* the C argument position of the error; 0: a valid call */
} cblas_case;

/* What netlib's CBLAS passes cblas_xerbla for an error at C position pos:
 * row-major calls swap M and N (4, 5), lda and ldb (9, 11). */
static int netlib_info(int layout, int pos)
{
	if (layout != CblasRowMajor)
		return pos;
	switch (pos) {
	case 4: return 5;
	case 5: return 4;
	case 9: return 11;
	case 11: return 9;
	default: return pos;
	}
}

#define ROW CblasRowMajor
#define COL CblasColMajor
#define NT CblasNoTrans
#define TR CblasTrans
#define CT CblasConjTrans

static const cblas_case cblas_cases[] = {
	/* The layout first, whatever else is wrong. */
	{0, NT, NT, 2, 2, 2, 2, 2, 2, 1, 0, 0, 1},
	{103, NT, NT, 2, 2, 2, 2, 2, 2, 1, 0, 0, 1},
	{-1, NT, NT, 2, 2, 2, 2, 2, 2, 1, 0, 0, 1},
	{100, 0, 0, -1, -1, -1, 0, 0, 0, 1, 0, 0, 1},
	/* Then TransA, then TransB (in both layouts: 2 and 3). 114 is
	 * OpenBLAS's CblasConjNoTrans, which the reference refuses. */
	{COL, 0, NT, 2, 2, 2, 2, 2, 2, 1, 0, 0, 2},
	{ROW, 0, NT, 2, 2, 2, 2, 2, 2, 1, 0, 0, 2},
	{COL, 114, TR, 2, 2, 2, 2, 2, 2, 1, 0, 0, 2},
	{ROW, 110, TR, 2, 2, 2, 2, 2, 2, 1, 0, 0, 2},
	{COL, NT, 114, 2, 2, 2, 2, 2, 2, 1, 0, 0, 3},
	{ROW, NT, 114, 2, 2, 2, 2, 2, 2, 1, 0, 0, 3},
	{ROW, CT, 0, 2, 2, 2, 2, 2, 2, 1, 0, 0, 3},
	{COL, 0, 0, -1, 2, 2, 2, 2, 2, 1, 0, 0, 2},
	{ROW, 0, 0, -1, 2, 2, 2, 2, 2, 1, 0, 0, 2},
	{ROW, TR, 0, -1, -1, 2, 0, 0, 0, 1, 0, 0, 3},
	/* M, N, K: column-major tests M first, row-major N first. */
	{COL, NT, NT, -1, 2, 2, 2, 2, 2, 1, 0, 0, 4},
	{COL, NT, NT, 2, -1, 2, 2, 2, 2, 1, 0, 0, 5},
	{COL, NT, NT, 2, 2, -1, 2, 2, 2, 1, 0, 0, 6},
	{COL, NT, NT, -1, -1, -1, 2, 2, 2, 1, 0, 0, 4},
	{COL, NT, NT, 2, -1, -1, 2, 2, 2, 1, 0, 0, 5},
	{ROW, NT, NT, -1, 2, 2, 2, 2, 2, 1, 0, 0, 4},
	{ROW, NT, NT, 2, -1, 2, 2, 2, 2, 1, 0, 0, 5},
	{ROW, NT, NT, 2, 2, -1, 2, 2, 2, 1, 0, 0, 6},
	{ROW, NT, NT, -1, -1, -1, 2, 2, 2, 1, 0, 0, 5},
	{ROW, TR, TR, -1, -1, 2, 2, 2, 2, 1, 0, 0, 5},
	{ROW, NT, NT, -1, 2, -1, 2, 2, 2, 1, 0, 0, 4},
	{ROW, NT, NT, 2, -1, -1, 2, 2, 2, 1, 0, 0, 5},
	/* lda: column-major A is m x k (NoTrans) or k x m; row-major lda
	 * bounds the columns instead. */
	{COL, NT, NT, 3, 2, 2, 2, 2, 3, 1, 0, 0, 9},
	{COL, TR, NT, 2, 2, 3, 2, 3, 2, 1, 0, 0, 9},
	{COL, CT, NT, 3, 2, 2, 2, 2, 3, 1, 0, 0, 0},
	{ROW, NT, NT, 2, 2, 3, 2, 3, 2, 1, 0, 0, 9},
	{ROW, TR, NT, 3, 2, 2, 2, 2, 2, 1, 0, 0, 9},
	{ROW, TR, NT, 2, 2, 3, 2, 2, 2, 1, 0, 0, 0},
	{COL, NT, NT, 0, 0, 0, 0, 1, 1, 1, 0, 0, 9},
	{ROW, NT, NT, 0, 0, 0, 0, 1, 1, 1, 0, 0, 9},
	{COL, NT, NT, 3, 2, 2, 2, 2, 3, 0, 0, NUL_A | NUL_B, 9},
	{ROW, NT, NT, 2, 2, 3, 2, 3, 2, 0, 0, NUL_A | NUL_B, 9},
	/* ldb: B is k x n (NoTrans) or n x k. */
	{COL, NT, NT, 2, 2, 3, 2, 2, 2, 1, 0, 0, 11},
	{COL, NT, TR, 2, 3, 2, 2, 2, 2, 1, 0, 0, 11},
	{COL, NT, TR, 2, 3, 2, 2, 3, 2, 1, 0, 0, 0},
	{ROW, NT, NT, 2, 3, 2, 2, 2, 3, 1, 0, 0, 11},
	{ROW, NT, TR, 2, 2, 3, 3, 2, 2, 1, 0, 0, 11},
	{ROW, NT, TR, 2, 3, 2, 2, 2, 3, 1, 0, 0, 0},
	{COL, NT, NT, 0, 0, 0, 1, 0, 1, 1, 0, 0, 11},
	{ROW, NT, NT, 0, 0, 0, 1, 0, 1, 1, 0, 0, 11},
	/* ldc: >= m column-major, >= n row-major. */
	{COL, NT, NT, 3, 2, 2, 3, 2, 2, 1, 0, 0, 14},
	{COL, NT, NT, 2, 3, 2, 2, 2, 2, 1, 0, 0, 0},
	{ROW, NT, NT, 2, 3, 2, 2, 3, 2, 1, 0, 0, 14},
	{ROW, NT, NT, 3, 2, 2, 2, 2, 2, 1, 0, 0, 0},
	{COL, NT, NT, 0, 0, 0, 1, 1, 0, 1, 0, 0, 14},
	{ROW, NT, NT, 0, 0, 0, 1, 1, 0, 1, 0, 0, 14},
	/* The first illegal argument wins: column-major tests lda before
	 * ldb, row-major ldb before lda; ldc comes last. */
	{COL, NT, NT, 3, 3, 3, 2, 2, 2, 1, 0, 0, 9},
	{COL, NT, NT, 3, 3, 3, 3, 2, 2, 1, 0, 0, 11},
	{ROW, NT, NT, 3, 3, 3, 2, 2, 2, 1, 0, 0, 11},
	{ROW, NT, NT, 3, 3, 3, 2, 3, 2, 1, 0, 0, 9},
	{ROW, NT, NT, 3, 3, 3, 3, 3, 2, 1, 0, 0, 14},
	{COL, NT, NT, -1, 3, 3, 0, 0, 0, 1, 0, 0, 4},
	{ROW, NT, NT, 3, 3, -1, 0, 0, 0, 1, 0, 0, 6},
	/* NULL matrices that must be read or written. */
	{COL, NT, NT, 2, 2, 2, 2, 2, 2, 1, 0, NUL_A, 8},
	{COL, NT, NT, 2, 2, 2, 2, 2, 2, 1, 0, NUL_B, 10},
	{COL, NT, NT, 2, 2, 2, 2, 2, 2, 1, 0, NUL_C, 13},
	{ROW, TR, NT, 2, 2, 2, 2, 2, 2, 1, 0, NUL_A, 8},
	{ROW, NT, TR, 2, 2, 2, 2, 2, 2, 1, 0, NUL_B, 10},
	{ROW, NT, NT, 2, 2, 2, 2, 2, 2, 1, 0, NUL_C, 13},
	{ROW, NT, NT, 2, 2, 2, 2, 2, 1, 1, 0, NUL_C, 14},
	/* NULL where nothing is read or written is legal. */
	{COL, NT, NT, 2, 2, 2, 2, 2, 2, 0, 0.5, NUL_A | NUL_B, 0},
	{ROW, NT, NT, 2, 2, 0, 1, 2, 2, 1, 0.5, NUL_A | NUL_B, 0},
	{ROW, TR, TR, 2, 2, 2, 2, 2, 2, 0, 1, NUL_A | NUL_B | NUL_C, 0},
	{COL, NT, NT, 2, 0, 2, 2, 2, 2, 1, 0, NUL_A | NUL_B | NUL_C, 0},
};

static void test_cblas_errors(tu_rng *rng)
{
	enum { NE = 64 };
	for (unsigned dtype = GK_DTYPE_F32; dtype <= GK_DTYPE_F64; dtype++) {
		const char *want_name = dtype == GK_DTYPE_F32 ? "cblas_sgemm" : "cblas_dgemm";
		for (int ci = 0; ci < (int)(sizeof cblas_cases / sizeof cblas_cases[0]); ci++) {
			const cblas_case *t = &cblas_cases[ci];
			float af[NE], bf[NE], cf[NE], cf0[NE];
			double ad[NE], bd[NE], cd[NE], cd0[NE];
			tu_fill_f32(af, NE, rng);
			tu_fill_f32(bf, NE, rng);
			tu_fill_f32(cf0, NE, rng);
			tu_fill_f64(ad, NE, rng);
			tu_fill_f64(bd, NE, rng);
			tu_fill_f64(cd0, NE, rng);
			memcpy(cf, cf0, sizeof cf);
			memcpy(cd, cd0, sizeof cd);
			const unsigned z = t->nulls;
			reset_handlers();
			if (dtype == GK_DTYPE_F32)
				cblas_sgemm(t->layout, t->ta, t->tb, t->m, t->n, t->k, (float)t->alpha,
				            z & NUL_A ? NULL : af, t->lda, z & NUL_B ? NULL : bf, t->ldb,
				            (float)t->beta, z & NUL_C ? NULL : cf, t->ldc);
			else
				cblas_dgemm(t->layout, t->ta, t->tb, t->m, t->n, t->k, t->alpha,
				            z & NUL_A ? NULL : ad, t->lda, z & NUL_B ? NULL : bd, t->ldb,
				            t->beta, z & NUL_C ? NULL : cd, t->ldc);
			const int c_same = dtype == GK_DTYPE_F32 ? memcmp(cf, cf0, sizeof cf) == 0
			                                         : memcmp(cd, cd0, sizeof cd) == 0;
			TU_CHECK(xerbla_calls == 0, "cblas_%sgemm case %d: xerbla_ called", dname(dtype), ci);
			if (t->pos == 0) {
				TU_CHECK(cblas_calls == 0, "cblas_%sgemm case %d: valid call reported %d",
				         dname(dtype), ci, cblas_info);
				continue;
			}
			const int want = netlib_info(t->layout, t->pos);
			const int want_row = t->layout == CblasRowMajor;
			TU_CHECK(cblas_calls == 1 && cblas_info == want && cblas_row == want_row &&
			         strcmp(cblas_name, want_name) == 0,
			         "cblas_%sgemm case %d: got %d report(s), last '%s' %d (RowMajorStrg %d); "
			         "want '%s' %d (RowMajorStrg %d)",
			         dname(dtype), ci, cblas_calls, cblas_name, cblas_info, cblas_row,
			         want_name, want, want_row);
			TU_CHECK(RowMajorStrg == 0, "cblas_%sgemm case %d: RowMajorStrg left at %d",
			         dname(dtype), ci, RowMajorStrg);
			TU_CHECK(c_same, "cblas_%sgemm case %d: C changed on an error", dname(dtype), ci);
		}
	}
}

/* A column-major product checked by hand, through a layout-independent
 * identity: the row-major call on the same buffers computes C^T = B^T A^T
 * in column-major terms, so both must agree with swapped operands. */
static void test_layout_identity(tu_rng *rng)
{
	enum { M = 5, N = 4, K = 3 };
	double a[M * K], b[K * N], c1[M * N], c2[M * N];
	tu_fill_f64(a, M * K, rng);
	tu_fill_f64(b, K * N, rng);
	tu_fill_f64(c1, M * N, rng);
	memcpy(c2, c1, sizeof c1);
	reset_handlers();
	/* Column-major C (M x N) = A (M x K) B (K x N). */
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.5, a, M, b, K, -1.0, c1, M);
	/* The same memory read row-major is C^T (N x M) = B^T (N x K) A^T (K x M). */
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, M, K, 1.5, b, K, a, M, -1.0, c2, M);
	double worst = 0;
	for (int i = 0; i < M * N; i++)
		worst = fmax(worst, fabs(c1[i] - c2[i]));
	TU_CHECK(worst <= 1e-14 && cblas_calls == 0, "row-major vs column-major identity: %.3g", worst);
}

int main(void)
{
	tu_rng rng;
	tu_rng_init(&rng, tu_seed());
	test_transposes(&rng);
	test_scalars(&rng);
	test_huge_quick_returns();
	test_layout_identity(&rng);
	test_f77_errors(&rng);
	test_cblas_errors(&rng);
	test_no_workspace(&rng);
	return tu_finish("test_blas");
}
