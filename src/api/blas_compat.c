/*
 * blas_compat.c - the BLAS and CBLAS entry points (gemmkit_cblas.h):
 * sgemm_, dgemm_, cblas_sgemm, cblas_dgemm, and the default error handlers.
 *
 * A call that passes every check and computes a product goes straight to
 * gemmkit's entry (gemm_entry.h, inline here) in its own layout
 * (plain_call). Every other call, all the invalid ones and the quick
 * returns among them, takes the reference's route: both interfaces
 * funnel into one column-major call with the reference
 * SGEMM's checks, in the reference's order, exactly as netlib's CBLAS
 * funnels into its Fortran SGEMM; a CBLAS call then turns the Fortran
 * parameter number into the number netlib's CBLAS gives cblas_xerbla. This
 * keeps the two interfaces from drifting apart and gives CBLAS the
 * reference's error order for free (row-major tests N before M and ldb
 * before lda, as netlib does).
 *
 * Sizes are int here, not int64_t, because that is the LP64 BLAS ABI.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "gemmkit_cblas.h"
#include "gemm_entry.h"

/* One routine's names and element type. */
typedef struct {
	unsigned dtype;     /* GK_DTYPE_F32 or GK_DTYPE_F64 */
	const char *f77;    /* the name xerbla_ gets: 6 characters, blank-padded */
	const char *cname;  /* the name cblas_xerbla gets */
} routine;

static const routine r_sgemm = {GK_DTYPE_F32, "SGEMM ", "cblas_sgemm"};
static const routine r_dgemm = {GK_DTYPE_F64, "DGEMM ", "cblas_dgemm"};

/* The Fortran parameter numbers of SGEMM(TRANSA, TRANSB, M, N, K, ALPHA, A,
 * LDA, B, LDB, BETA, C, LDC). */
enum {
	F_TRANSA = 1, F_TRANSB, F_M, F_N, F_K, F_ALPHA, F_A, F_LDA, F_B, F_LDB, F_BETA, F_C, F_LDC
};

/* LSAME: one character, compared without regard to (ASCII) case. */
static int lsame(char c, char upper)
{
	return c == upper || c == upper - 'A' + 'a';
}

static int imax1(int x)
{
	return x > 1 ? x : 1;
}

/* The reference SGEMM's argument checks, in its order: the parameter number
 * of the first illegal argument, 0 when all are legal. */
static int f77_check(char transa, char transb, int m, int n, int k, int lda, int ldb, int ldc)
{
	const int nota = lsame(transa, 'N'), notb = lsame(transb, 'N');
	const int nrowa = nota ? m : k, nrowb = notb ? k : n;
	if (!nota && !lsame(transa, 'C') && !lsame(transa, 'T'))
		return F_TRANSA;
	if (!notb && !lsame(transb, 'C') && !lsame(transb, 'T'))
		return F_TRANSB;
	if (m < 0)
		return F_M;
	if (n < 0)
		return F_N;
	if (k < 0)
		return F_K;
	if (lda < imax1(nrowa))
		return F_LDA;
	if (ldb < imax1(nrowb))
		return F_LDB;
	if (ldc < imax1(m))
		return F_LDC;
	return 0;
}

static int is_value(unsigned dtype, const void *x, double v)
{
	return dtype == GK_DTYPE_F32 ? *(const float *)x == (float)v : *(const double *)x == v;
}

/*
 * gemmkit's product for a BLAS or CBLAS call that passed the reference's
 * checks, in the given layout (CBLAS's enumerations are gemmkit's).
 * BLAS has no way to return a failure, and there is none to return: the
 * reference's checks cover gk_sgemm's but for extents past the address
 * space (which no real matrix has), and the CPU algorithm the default
 * context runs, cpu.blocked, computes every product it is given, with
 * no workspace when none can be had.
 */
static inline __attribute__((always_inline)) void
run_checked(const routine *r, gk_layout layout, gk_trans ta, gk_trans tb, int m, int n, int k,
            const void *alpha, const void *a, int lda, const void *b, int ldb, const void *beta,
            void *c, int ldc)
{
	const gk_status st =
		r->dtype == GK_DTYPE_F32
			? gk_sgemm_entry(NULL, layout, ta, tb, m, n, k, *(const float *)alpha, a, lda, b,
			                 ldb, *(const float *)beta, c, ldc)
			: gk_dgemm_entry(NULL, layout, ta, tb, m, n, k, *(const double *)alpha, a, lda, b,
			                 ldb, *(const double *)beta, c, ldc);
	if (st != GK_OK)
		fprintf(stderr, "gemmkit: %.5s failed: %s\n", r->f77, gk_last_error());
}

/*
 * The Fortran-level GEMM on values: the reference's checks and quick return,
 * then gemmkit. alpha and beta point to a float or a double as r->dtype says
 * (and are not NULL). Returns the Fortran parameter number of the first
 * illegal argument (a NULL matrix that must be read or written counts as
 * one, after the reference's own checks), or 0 once C has been computed.
 */
static int f77_gemm(const routine *r, char transa, char transb, int m, int n, int k,
                    const void *alpha, const void *a, int lda, const void *b, int ldb,
                    const void *beta, void *c, int ldc)
{
	const int info = f77_check(transa, transb, m, n, k, lda, ldb, ldc);
	if (info != 0)
		return info;
	/* The reference returns here without reading anything, so C may be NULL:
	 * gk_sgemm would still rescale C by 1 and want it. */
	const int alpha0 = is_value(r->dtype, alpha, 0.0);
	if (m == 0 || n == 0 || ((alpha0 || k == 0) && is_value(r->dtype, beta, 1.0)))
		return 0;
	const int reads_ab = !alpha0 && k > 0;
	if (reads_ab && a == NULL)
		return F_A;
	if (reads_ab && b == NULL)
		return F_B;
	if (c == NULL)
		return F_C;

	/* Real data: 'C' (conjugate transpose) is 'T'. */
	const gk_trans ta = lsame(transa, 'N') ? GK_NO_TRANS : GK_TRANS;
	const gk_trans tb = lsame(transb, 'N') ? GK_NO_TRANS : GK_TRANS;
	run_checked(r, GK_COL_MAJOR, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
	return 0;
}

/*
 * Whether a call is one that every check passes and that computes a product
 * (m, n, k >= 1, alpha != 0, A, B and C given): the leading dimensions
 * against what the layout needs, as the reference checks them (m, n, k >= 1:
 * the max(1, ...) does not matter); the transposes are CBLAS's
 * enumerations (f77_trans maps the Fortran characters to them). Such a call
 * goes to gemmkit in its own layout, which CBLAS's enumerations share
 * (gemmkit.h), without the reference's Fortran-level checks and detour: a
 * sixth of a 16 x 16 x 16 SGEMM. Any other call takes the detour. The rule
 * is f77_check's on the enumerations, not its characters: through
 * f77_check (trans_char, lsame) the CBLAS shortcut kept 1.02x of the 1.06x
 * at 16^3. */
static int plain_call(int layout, int transa, int transb, int m, int n, int k, int lda,
                      int ldb, int ldc, int alpha_zero, const void *a, const void *b,
                      const void *c)
{
	if (m < 1 || n < 1 || k < 1 || alpha_zero || a == NULL || b == NULL || c == NULL)
		return 0;
	if (transa < CblasNoTrans || transa > CblasConjTrans || transb < CblasNoTrans ||
	    transb > CblasConjTrans)
		return 0;
	const int nota = transa == CblasNoTrans, notb = transb == CblasNoTrans;
	if (layout == CblasColMajor)
		return lda >= (nota ? m : k) && ldb >= (notb ? k : n) && ldc >= m;
	if (layout == CblasRowMajor)
		return lda >= (nota ? k : m) && ldb >= (notb ? n : k) && ldc >= n;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Fortran 77 interface                                                      */
/* ------------------------------------------------------------------------ */

/* The CBLAS enumeration of a Fortran transpose character, -1 for any other. */
static int f77_trans(const char *t)
{
	switch (*t) {
	case 'N': case 'n': return CblasNoTrans;
	case 'T': case 't': return CblasTrans;
	case 'C': case 'c': return CblasConjTrans;
	default: return -1;
	}
}

static inline __attribute__((always_inline)) void
f77_entry(const routine *r, const char *transa, const char *transb, const int *m, const int *n,
          const int *k, const void *alpha, const void *a, const int *lda, const void *b,
          const int *ldb, const void *beta, void *c, const int *ldc)
{
	/* A call that passes every check goes straight to gemmkit (plain_call):
	 * the checks below and f77_gemm's again cost 1.10x at 16 x 16 x 16
	 * (bench/results/2026-11-29-emr-blas-entry). */
	if (transa != NULL && transb != NULL && m != NULL && n != NULL && k != NULL &&
	    alpha != NULL && beta != NULL && lda != NULL && ldb != NULL && ldc != NULL) {
		const int ta = f77_trans(transa), tb = f77_trans(transb);
		if (plain_call(CblasColMajor, ta, tb, *m, *n, *k, *lda, *ldb, *ldc,
		               is_value(r->dtype, alpha, 0.0), a, b, c)) {
			run_checked(r, GK_COL_MAJOR, (gk_trans)ta, (gk_trans)tb, *m, *n, *k, alpha, a,
			            *lda, b, *ldb, beta, c, *ldc);
			return;
		}
	}
	/* A NULL scalar argument reads as an illegal value of that argument, so
	 * it is reported in the reference's order among the others. */
	int info = f77_check(transa ? *transa : '\0', transb ? *transb : '\0', m ? *m : -1,
	                     n ? *n : -1, k ? *k : -1, lda ? *lda : -1, ldb ? *ldb : -1,
	                     ldc ? *ldc : -1);
	if (info == 0 && alpha == NULL)
		info = F_ALPHA;
	if (info == 0 && beta == NULL)
		info = F_BETA;
	if (info == 0)
		info = f77_gemm(r, *transa, *transb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c,
		                *ldc);
	if (info != 0)
		xerbla_(r->f77, &info, strlen(r->f77));
}

void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
            const float *beta, float *c, const int *ldc, size_t transa_len, size_t transb_len)
{
	/* A C caller may not pass the lengths at all: never read them. */
	(void)transa_len;
	(void)transb_len;
	f77_entry(&r_sgemm, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc, size_t transa_len,
            size_t transb_len)
{
	(void)transa_len;
	(void)transb_len;
	f77_entry(&r_dgemm, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* ------------------------------------------------------------------------ */
/* CBLAS interface                                                           */
/* ------------------------------------------------------------------------ */

/*
 * netlib's CBLAS reports an error of the inner Fortran call as that call's
 * parameter number plus one. Column-major passes the arguments straight
 * through, so that is the argument's position in the C call
 * cblas_xgemm(layout, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta,
 * C, ldc). Row-major computes C^T = op(B)^T op(A)^T, calling the inner
 * routine with (TransB, TransA, N, M, K, alpha, B, ldb, A, lda, beta, C,
 * ldc), so an illegal M is reported as 5, N as 4, lda as 11 and ldb as 9,
 * with RowMajorStrg set; a handler maps them back (gemm_row_swap, as netlib's
 * cblas_xerbla does). Programs and test suites written for the reference
 * expect exactly that. gemmkit's own NULL-pointer checks have no such
 * numbers: they report the true positions (A 8, B 10, C 13), which the
 * handler's mapping leaves alone.
 */
static const int pos_col[14] = {0, 0, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
static const int pos_row[14] = {0, 0, 0, 4, 5, 6, 7, 10, 9, 8, 11, 12, 13, 14};

/* The mapping between netlib's row-major GEMM numbers and the positions in
 * the C call: M and N, lda and ldb trade places. Its own inverse. */
static int gemm_row_swap(int info)
{
	switch (info) {
	case 4: return 5;
	case 5: return 4;
	case 9: return 11;
	case 11: return 9;
	default: return info;
	}
}

/*
 * The reference's flag for cblas_xerbla: 1 while it handles an error of a
 * row-major call, 0 otherwise. Weak, so that a program's own definition
 * wins. Only written when an error is reported, so that valid calls from
 * many threads do not share a written variable; gemmkit's own handler reads
 * the calling thread's copy, report_row_major.
 */
__attribute__((weak)) GK_CBLAS_API int RowMajorStrg = 0;
static _Thread_local int report_row_major;

static void report(const routine *r, int row_major, int info, const char *form, int value)
{
	RowMajorStrg = row_major;
	report_row_major = row_major;
	cblas_xerbla(info, r->cname, form, value);
	report_row_major = 0;
	RowMajorStrg = 0;
}

/* The Fortran character of a CBLAS transpose, '\0' for an illegal value. */
static char trans_char(int t)
{
	switch (t) {
	case CblasNoTrans: return 'N';
	case CblasTrans: return 'T';
	case CblasConjTrans: return 'C';
	default: return '\0';
	}
}

static void cblas_entry(const routine *r, int layout, int transa, int transb, int m, int n,
                        int k, const void *alpha, const void *a, int lda, const void *b, int ldb,
                        const void *beta, void *c, int ldc)
{
	/* The reference checks the layout first, then TransA, then TransB. */
	if (layout != CblasRowMajor && layout != CblasColMajor) {
		report(r, 0, 1, "Illegal layout setting, %d\n", layout);
		return;
	}
	const int row = layout == CblasRowMajor;
	const char ta = trans_char(transa), tb = trans_char(transb);
	if (ta == '\0') {
		report(r, row, 2, "Illegal TransA setting, %d\n", transa);
		return;
	}
	if (tb == '\0') {
		report(r, row, 3, "Illegal TransB setting, %d\n", transb);
		return;
	}
	int info;
	if (!row) {
		info = f77_gemm(r, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
		info = pos_col[info];
	} else {
		info = f77_gemm(r, tb, ta, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
		info = pos_row[info];
	}
	if (info != 0)
		report(r, row, info, "", 0);
}

void cblas_sgemm(enum CBLAS_ORDER layout, enum CBLAS_TRANSPOSE transa,
                 enum CBLAS_TRANSPOSE transb, int m, int n, int k, float alpha, const float *a,
                 int lda, const float *b, int ldb, float beta, float *c, int ldc)
{
	if (plain_call((int)layout, (int)transa, (int)transb, m, n, k, lda, ldb, ldc, alpha == 0.0f,
	               a, b, c)) {
		run_checked(&r_sgemm, (gk_layout)layout, (gk_trans)transa, (gk_trans)transb, m, n, k,
		            &alpha, a, lda, b, ldb, &beta, c, ldc);
		return;
	}
	cblas_entry(&r_sgemm, (int)layout, (int)transa, (int)transb, m, n, k, &alpha, a, lda, b,
	            ldb, &beta, c, ldc);
}

void cblas_dgemm(enum CBLAS_ORDER layout, enum CBLAS_TRANSPOSE transa,
                 enum CBLAS_TRANSPOSE transb, int m, int n, int k, double alpha,
                 const double *a, int lda, const double *b, int ldb, double beta, double *c,
                 int ldc)
{
	if (plain_call((int)layout, (int)transa, (int)transb, m, n, k, lda, ldb, ldc, alpha == 0.0,
	               a, b, c)) {
		run_checked(&r_dgemm, (gk_layout)layout, (gk_trans)transa, (gk_trans)transb, m, n, k,
		            &alpha, a, lda, b, ldb, &beta, c, ldc);
		return;
	}
	cblas_entry(&r_dgemm, (int)layout, (int)transa, (int)transb, m, n, k, &alpha, a, lda, b,
	            ldb, &beta, c, ldc);
}

/* ------------------------------------------------------------------------ */
/* Default error handlers                                                    */
/* ------------------------------------------------------------------------ */

/*
 * Weak, so that a program's own definition wins, also over a static
 * libgemmkit. They print what the reference prints, but return instead of
 * stopping the program: a library must not end its caller, and the call has
 * left C as it was.
 */
__attribute__((weak)) void xerbla_(const char *srname, const int *info, size_t len)
{
	/* srname is a Fortran string: len characters, no NUL, blank-padded. C
	 * callers may pass a NUL-terminated name and no length at all, so stop
	 * at a NUL and never trust a length beyond a routine name's. */
	size_t n = 0;
	if (len > 32)
		len = 32;
	while (srname != NULL && n < len && srname[n] != '\0')
		n++;
	while (n > 0 && srname[n - 1] == ' ')
		n--;
	fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", (int)n,
	        srname != NULL ? srname : "", info != NULL ? *info : 0);
}

__attribute__((weak)) void cblas_xerbla(int info, const char *rout, const char *form, ...)
{
	/* The position in the C call, as netlib's handler prints it. */
	if (report_row_major && rout != NULL && strstr(rout, "gemm") != NULL)
		info = gemm_row_swap(info);
	if (info != 0)
		fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info,
		        rout != NULL ? rout : "");
	if (form != NULL) {
		va_list ap;
		va_start(ap, form);
		vfprintf(stderr, form, ap);
		va_end(ap);
	}
}
