/*
 * gemmkit_cblas.h - the BLAS and CBLAS entry points of gemmkit: sgemm_ and
 * dgemm_ (the Fortran 77 BLAS calling convention), cblas_sgemm and
 * cblas_dgemm (the C interface), and the two error handlers they report to,
 * xerbla_ and cblas_xerbla.
 *
 * A program written for the reference BLAS and CBLAS (netlib) or for
 * OpenBLAS links against libgemmkit unchanged: the symbols, argument types
 * (32-bit int sizes, as an LP64 BLAS), enum values and results are theirs.
 *
 * Invalid arguments are found and reported exactly as the reference does:
 * the same checks in the same order, the first illegal argument wins, and
 * the call then returns without touching C.
 *   sgemm_, dgemm_:  xerbla_("SGEMM " or "DGEMM ", &info, 6), info being the
 *                    Fortran parameter number (1 TRANSA, 2 TRANSB, 3 M, 4 N,
 *                    5 K, 8 LDA, 10 LDB, 13 LDC).
 *   cblas_sgemm, cblas_dgemm:  cblas_xerbla(info, "cblas_sgemm" or
 *                    "cblas_dgemm", form, ...). With CblasColMajor, info is
 *                    the position of the argument in the C call (1 layout,
 *                    2 TransA, 3 TransB, 4 M, 5 N, 6 K, 9 lda, 11 ldb,
 *                    14 ldc). With CblasRowMajor it is the number netlib's
 *                    CBLAS gives, that of its inner column-major call with
 *                    M and N, A and B swapped: 1, 2, 3 as above, 4 N, 5 M,
 *                    6 K, 9 ldb, 11 lda, 14 ldc, and RowMajorStrg (below)
 *                    is 1 while the handler runs. A handler maps them back
 *                    as netlib's does (4 and 5, 9 and 11 trade places when
 *                    RowMajorStrg is set and the routine name contains
 *                    "gemm"); libgemmkit's own does so. Row-major checks run
 *                    in the reference's order: N before M, ldb before lda.
 *
 * Unlike the reference, whose handlers stop the program, the handlers that
 * libgemmkit defines print the reference's message to stderr and return (as
 * OpenBLAS's do). Both are weak symbols: a program that defines its own
 * xerbla_ or cblas_xerbla, with the prototype below, replaces them (to abort,
 * to log, or to count errors).
 *
 * Beyond the reference, which would crash: a NULL pointer that a call must
 * dereference is reported as an illegal value of that parameter, after all
 * the reference's checks (sgemm_: 1-5, 8, 10, 13 for a NULL scalar argument,
 * 6 ALPHA, 11 BETA, 7 A, 9 B, 12 C; cblas_sgemm, either layout: 8 A, 10 B,
 * 13 C, numbers that the row-major mapping leaves alone). A and B
 * may be NULL when they are not read (alpha = 0 or k = 0), and C may be NULL
 * when it is not touched (m = 0, n = 0, or alpha = 0 or k = 0 with beta = 1).
 *
 * With another cblas.h: the enums and the cblas_xerbla declaration below are
 * those of every standard cblas.h and are left out when CBLAS_H, the guard
 * of netlib's and OpenBLAS's cblas.h, is already defined; otherwise this
 * header defines CBLAS_H. So include the other cblas.h first when a program
 * needs both (for example for CBLAS functions that gemmkit does not have).
 */
#ifndef GEMMKIT_CBLAS_H
#define GEMMKIT_CBLAS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define GK_CBLAS_API
#else
#define GK_CBLAS_API __attribute__((visibility("default")))
#endif

#ifndef CBLAS_H
#define CBLAS_H

typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
/* The older name of CBLAS_LAYOUT, still used by OpenBLAS and many programs. */
#define CBLAS_ORDER CBLAS_LAYOUT
typedef enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 } CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 } CBLAS_UPLO;
typedef enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 } CBLAS_DIAG;
typedef enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 } CBLAS_SIDE;

/**
 * The CBLAS error handler: called with the number of the illegal argument
 * (netlib's, see above: for CblasRowMajor those of M and N, lda and ldb are
 * swapped, and RowMajorStrg is 1), the routine name ("cblas_sgemm") and a
 * printf format for further detail (possibly "") with its arguments.
 * libgemmkit's own prints "Parameter <position> to routine <rout> was
 * incorrect", the position in the C call, and the formatted detail to
 * stderr, and returns.
 */
GK_CBLAS_API void cblas_xerbla(int info, const char *rout, const char *form, ...);

#endif /* CBLAS_H */

/**
 * netlib's flag for cblas_xerbla: 1 while a handler runs for an error of a
 * CblasRowMajor call, else 0 (written only when an error is reported). A
 * weak symbol, as the handlers: a program's own definition replaces it.
 */
GK_CBLAS_API extern int RowMajorStrg;

/*
 * `enum CBLAS_ORDER` names the layout enum under every cblas.h (a tag in
 * OpenBLAS's, a macro for CBLAS_LAYOUT in netlib's and ours), so these
 * declarations agree with those of whichever header came first.
 */

/**
 * C = alpha * op(A) * op(B) + beta * C, single precision, A, B and C in the
 * given layout; as the reference cblas_sgemm. alpha = 0 or k = 0: A and B are
 * not read; beta = 0: C is not read (NaN in C does not reach the result).
 */
GK_CBLAS_API void cblas_sgemm(enum CBLAS_ORDER layout, enum CBLAS_TRANSPOSE transa,
                              enum CBLAS_TRANSPOSE transb, int m, int n, int k,
                              float alpha, const float *a, int lda,
                              const float *b, int ldb,
                              float beta, float *c, int ldc);

/** As cblas_sgemm, double precision. */
GK_CBLAS_API void cblas_dgemm(enum CBLAS_ORDER layout, enum CBLAS_TRANSPOSE transa,
                              enum CBLAS_TRANSPOSE transb, int m, int n, int k,
                              double alpha, const double *a, int lda,
                              const double *b, int ldb,
                              double beta, double *c, int ldc);

/**
 * The Fortran 77 SGEMM: every argument by address, matrices column-major.
 * transa, transb: 'N', 'T' or 'C', either case (only the first character is
 * read). The trailing lengths are the hidden character-length arguments that
 * Fortran compilers pass; they are accepted and not needed, so a C caller
 * may leave them out.
 */
GK_CBLAS_API void sgemm_(const char *transa, const char *transb,
                         const int *m, const int *n, const int *k,
                         const float *alpha, const float *a, const int *lda,
                         const float *b, const int *ldb,
                         const float *beta, float *c, const int *ldc,
                         size_t transa_len, size_t transb_len);

/** As sgemm_, double precision (the Fortran 77 DGEMM). */
GK_CBLAS_API void dgemm_(const char *transa, const char *transb,
                         const int *m, const int *n, const int *k,
                         const double *alpha, const double *a, const int *lda,
                         const double *b, const int *ldb,
                         const double *beta, double *c, const int *ldc,
                         size_t transa_len, size_t transb_len);

/**
 * The BLAS error handler: srname is the routine's name, blank-padded to 6
 * characters and not NUL-terminated ("SGEMM "), len its length, *info the
 * number of the illegal parameter. libgemmkit's own prints " ** On entry to
 * SGEMM parameter number  8 had an illegal value" to stderr and returns.
 */
GK_CBLAS_API void xerbla_(const char *srname, const int *info, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* GEMMKIT_CBLAS_H */
