/*
 * cblas_program.c - a program written for the system's CBLAS: it includes
 * <cblas.h> and nothing of gemmkit, calls cblas_sgemm, cblas_dgemm and the
 * Fortran sgemm_/dgemm_ on fixed inputs, and prints every result. The build
 * links it twice, against libgemmkit and against OpenBLAS, and
 * compare_outputs checks that both print the same numbers.
 *
 * Output lines: "= <label> <s|d> <k> <value>...", the whole C buffer
 * (padding included) after the call; the last line is "= done <lines>".
 * The "= " marks this program's lines apart from whatever a library prints
 * to stdout itself (OpenBLAS prints its error reports there).
 */
#include <cblas.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The Fortran 77 BLAS, declared as C programs that call it declare it: the
 * hidden lengths of the two character arguments come last. */
void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
            const float *beta, float *c, const int *ldc, size_t la, size_t lb);
void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc, size_t la, size_t lb);

#define MAXE 4096
static float sa[MAXE], sb[MAXE], sc[MAXE];
static double da[MAXE], db[MAXE], dc[MAXE];
static int lines;

/* Fixed pseudo-random inputs in [-1, 1): the same on every run and machine. */
static unsigned long long state;
static double next_value(void)
{
	state = state * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(state >> 11) / 4503599627370496.0 - 1.0;
}

static void fill(int poison_c)
{
	for (int i = 0; i < MAXE; i++) {
		da[i] = next_value();
		db[i] = next_value();
		dc[i] = poison_c ? NAN : next_value();
		sa[i] = (float)da[i];
		sb[i] = (float)db[i];
		sc[i] = (float)dc[i];
	}
}

static void print_c(const char *label, char type, int k, size_t count)
{
	printf("= %s %c %d", label, type, k);
	for (size_t i = 0; i < count; i++) {
		double v = type == 's' ? (double)sc[i] : dc[i];
		if (isnan(v))
			printf(" nan");
		else if (type == 's')
			printf(" %.9g", v);
		else
			printf(" %.17g", v);
	}
	printf("\n");
	lines++;
}

static int max1(int x)
{
	return x > 1 ? x : 1;
}

static char trans_letter(CBLAS_TRANSPOSE t)
{
	return t == CblasNoTrans ? 'N' : t == CblasTrans ? 'T' : 'C';
}

/* One cblas_?gemm call with leading dimensions pad larger than needed. */
static void run_cblas(char type, CBLAS_LAYOUT layout, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb,
                      int m, int n, int k, double alpha, double beta, int pad, int poison_c)
{
	const int row = layout == CblasRowMajor;
	const int ra = ta == CblasNoTrans ? m : k, ca = ta == CblasNoTrans ? k : m;
	const int rb = tb == CblasNoTrans ? k : n, cb = tb == CblasNoTrans ? n : k;
	const int lda = max1(row ? ca : ra) + pad, ldb = max1(row ? cb : rb) + pad;
	const int ldc = max1(row ? n : m) + pad;
	const size_t extent = (size_t)ldc * (size_t)(row ? m : n);
	fill(poison_c);
	if (type == 's')
		cblas_sgemm(layout, ta, tb, m, n, k, (float)alpha, sa, lda, sb, ldb, (float)beta, sc,
		            ldc);
	else
		cblas_dgemm(layout, ta, tb, m, n, k, alpha, da, lda, db, ldb, beta, dc, ldc);
	char label[96];
	snprintf(label, sizeof label, "cblas_%cgemm/%s/%c%c/%dx%dx%d/a=%g/b=%g%s", type,
	         row ? "row" : "col", trans_letter(ta), trans_letter(tb), m, n, k, alpha, beta,
	         poison_c ? "/nanC" : "");
	print_c(label, type, k, extent);
}

/* One sgemm_/dgemm_ call, column-major. */
static void run_f77(char type, char ta, char tb, int m, int n, int k, double alpha, double beta)
{
	const int nota = ta == 'N' || ta == 'n', notb = tb == 'N' || tb == 'n';
	const int lda = max1(nota ? m : k) + 1, ldb = max1(notb ? k : n) + 2, ldc = max1(m) + 3;
	fill(0);
	if (type == 's') {
		const float al = (float)alpha, be = (float)beta;
		sgemm_(&ta, &tb, &m, &n, &k, &al, sa, &lda, sb, &ldb, &be, sc, &ldc, 1, 1);
	} else {
		dgemm_(&ta, &tb, &m, &n, &k, &alpha, da, &lda, db, &ldb, &beta, dc, &ldc, 1, 1);
	}
	char label[96];
	snprintf(label, sizeof label, "%cgemm_/%c%c/%dx%dx%d/a=%g/b=%g", type, ta, tb, m, n, k,
	         alpha, beta);
	print_c(label, type, k, (size_t)ldc * (size_t)n);
}

int main(void)
{
	static const CBLAS_TRANSPOSE trans[] = {CblasNoTrans, CblasTrans, CblasConjTrans};
	static const int shapes[][3] = {{5, 7, 3}, {17, 9, 33}, {1, 1, 1}, {33, 17, 40}, {0, 3, 2}, {4, 6, 0}};
	static const double scalars[][2] = {{1, 0}, {0.5, -1}, {-2, 0.25}, {0, 2}, {1, 1}, {1.5, 0}};
	int s = 0;
	for (int t = 0; t < 2; t++)
		for (int l = 0; l < 2; l++)
			for (int i = 0; i < 3; i++)
				for (int j = 0; j < 3; j++, s++) {
					const int *sh = shapes[s % 6];
					const double *ab = scalars[(s / 6 + s) % 6];
					run_cblas(t ? 'd' : 's', l ? CblasRowMajor : CblasColMajor, trans[i],
					          trans[j], sh[0], sh[1], sh[2], ab[0], ab[1], s % 3, 0);
				}
	/* beta = 0: C is not read, so NaN in it must not reach the result. */
	run_cblas('s', CblasRowMajor, CblasNoTrans, CblasTrans, 9, 11, 13, 1.0, 0.0, 1, 1);
	run_cblas('d', CblasColMajor, CblasTrans, CblasNoTrans, 11, 9, 13, -0.5, 0.0, 2, 1);

	static const char f77[][3] = {"NN", "nt", "TN", "tc", "CN", "NT"};
	for (int i = 0; i < 6; i++) {
		run_f77('s', f77[i][0], f77[i][1], 7, 5, 9, 1.25, i % 2 ? 0.0 : -1.0);
		run_f77('d', f77[i][0], f77[i][1], 6, 8, 5, -0.75, i % 2 ? 2.0 : 0.0);
	}

	/* Invalid arguments: both libraries report them (on stderr) and return
	 * with C untouched; only that is compared, not the report. */
	fill(0);
	memcpy(db, dc, sizeof dc);
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 4, 4, 4, 1.0, da, 4, db, 4, 0.0, dc, 3);
	printf("= invalid-cblas-ldc C-unchanged %s\n", memcmp(db, dc, sizeof dc) == 0 ? "yes" : "no");
	const int four = 4;
	const float one = 1.0f;
	fill(0);
	memcpy(sb, sc, sizeof sc);
	sgemm_("X", "N", &four, &four, &four, &one, sa, &four, sa, &four, &one, sc, &four, 1, 1);
	printf("= invalid-f77-transa C-unchanged %s\n", memcmp(sb, sc, sizeof sc) == 0 ? "yes" : "no");
	lines += 2;

	printf("= done %d\n", lines + 1);
	return 0;
}
