/*
 * cmd_gemm.c - `gemmkit gemm`: multiply matrices of given (or random) sizes
 * with one algorithm, print the time, the GFLOPS and the error against a
 * long double reference; read and write the matrices as .npy files.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli_util.h"
#include "commands.h"
#include "gemmkit.h"
#include "npy.h"

#define CMD "gemm"
#define RAND_MIN_SIZE 128
#define RAND_MAX_SIZE 2048
/* Sizes above 2^40 cannot be allocated anywhere; the limit keeps every
 * product of two sizes inside int64_t. */
#define MAX_SIZE ((int64_t)1 << 40)
/* Above this many multiply-adds a full long double reference takes seconds;
 * a random sample of rows is checked instead. */
#define FULL_CHECK_MAX_FLOPS 2147483648.0
#define SAMPLE_ROWS 64

static void usage(FILE *f)
{
	fprintf(f,
"usage: gemmkit gemm [M N K] [options]\n"
"\n"
"Compute C = alpha * op(A) * op(B) + beta * C once per run, where op(A) is\n"
"M x K, op(B) is K x N and C is M x N; print the sizes, the algorithm, the\n"
"median time, GFLOPS (2*M*N*K / time) and the normwise relative error\n"
"||C - Cref||_F / (|alpha| ||A||_F ||B||_F + |beta| ||C0||_F) against a long\n"
"double reference, with PASS when it is within C_tol * (K + 2) * eps.\n"
"Without sizes or input files, M, N and K are each drawn uniformly from\n"
"[%d, %d]. Random matrices have elements uniform in [-1, 1].\n"
"\n"
"options:\n"
"  M N K              the sizes (all three, or none)\n"
"  --algo NAME        algorithm (default auto); 'gemmkit info --algos' lists them\n"
"  --dtype s|d        s = float32, d = float64 (default s, or the dtype of the\n"
"                     first input file); input files of the other dtype are\n"
"                     converted\n"
"  --threads N        CPU threads; 0 = default: GK_NUM_THREADS, else\n"
"                     OMP_NUM_THREADS, else all processors (default 0)\n"
"  --layout row|col   storage order of A, B and C (default row)\n"
"  --transa n|t       op(A) = A or A^T (default n)\n"
"  --transb n|t       op(B) = B or B^T (default n)\n"
"  --alpha X          (default 1)\n"
"  --beta X           (default 0); with beta != 0 the input C is --c FILE, or\n"
"                     random\n"
"  --repeat N         timed runs after one untimed warm-up; the median is\n"
"                     printed (default 1)\n"
"  --seed N           seed of the random sizes, matrices and check rows\n"
"                     (default: from the clock; printed)\n"
"  --a FILE           read A from a .npy file: shape (M, K), or (K, M) with\n"
"                     --transa t\n"
"  --b FILE           read B from a .npy file: shape (K, N), or (N, K) with\n"
"                     --transb t\n"
"  --c FILE           read the input C from a .npy file, shape (M, N); it is\n"
"                     used only when beta != 0\n"
"  --save-a FILE      write A as .npy (as stored: shape (K, M) with --transa t)\n"
"  --save-b FILE      write B as .npy\n"
"  --save-c FILE      write the result C as .npy\n"
"  --save DIR         write DIR/A.npy, DIR/B.npy, DIR/C.npy (the result) and,\n"
"                     when beta != 0, DIR/C0.npy (the input C)\n"
"  --no-check         skip the error check\n"
"  --tol C_tol        the check passes when error <= C_tol * (K + 2) * eps\n"
"                     (default 1; eps = 2^-23 for s, 2^-52 for d)\n"
"  --print            print op(A), op(B) and C (meant for small sizes)\n"
"  -h, --help         this help\n"
"\n"
".npy files: '<f4' or '<f8', 2-D, C or Fortran order (converted to --layout).\n"
"Files are written in --layout order (fortran_order True for col).\n"
"When M*N*K > 2^31 the error is computed on %d random rows of C.\n"
"\n"
"exit status: 0 success; 1 the library reported an error, the check failed,\n"
"or an output file could not be written; 2 bad command line, or an input\n"
"file that cannot be used (missing, not a .npy matrix, wrong shape); then\n"
"nothing is computed.\n",
	        RAND_MIN_SIZE, RAND_MAX_SIZE, SAMPLE_ROWS);
}

typedef struct {
	int64_t size[3]; /* M N K given on the command line, 0 if not */
	int nsizes;
	const char *algo;
	int dtype_set;
	npy_dtype dtype;
	int64_t threads;
	gk_layout layout;
	gk_trans ta, tb;
	double alpha, beta;
	int64_t repeat;
	int seed_set;
	uint64_t seed;
	const char *in[3];      /* --a --b --c */
	const char *save[3];    /* --save-a --save-b --save-c */
	const char *save_dir;
	int check;
	double tol;
	int print;
} gemm_opts;

enum {
	OPT_ALGO, OPT_DTYPE, OPT_THREADS, OPT_LAYOUT, OPT_TRANSA, OPT_TRANSB, OPT_ALPHA, OPT_BETA,
	OPT_REPEAT, OPT_SEED, OPT_A, OPT_B, OPT_C, OPT_SAVE_A, OPT_SAVE_B, OPT_SAVE_C, OPT_SAVE,
	OPT_NO_CHECK, OPT_TOL, OPT_PRINT
};

static const struct {
	const char *name;
	int has_arg;
} options[] = {
	[OPT_ALGO] = {"algo", 1}, [OPT_DTYPE] = {"dtype", 1}, [OPT_THREADS] = {"threads", 1},
	[OPT_LAYOUT] = {"layout", 1}, [OPT_TRANSA] = {"transa", 1}, [OPT_TRANSB] = {"transb", 1},
	[OPT_ALPHA] = {"alpha", 1}, [OPT_BETA] = {"beta", 1}, [OPT_REPEAT] = {"repeat", 1},
	[OPT_SEED] = {"seed", 1}, [OPT_A] = {"a", 1}, [OPT_B] = {"b", 1}, [OPT_C] = {"c", 1},
	[OPT_SAVE_A] = {"save-a", 1}, [OPT_SAVE_B] = {"save-b", 1}, [OPT_SAVE_C] = {"save-c", 1},
	[OPT_SAVE] = {"save", 1}, [OPT_NO_CHECK] = {"no-check", 0}, [OPT_TOL] = {"tol", 1},
	[OPT_PRINT] = {"print", 0},
};
#define N_OPTIONS ((int)(sizeof options / sizeof options[0]))

static int parse_trans(const char *v, gk_trans *out)
{
	if (strcmp(v, "n") == 0 || strcmp(v, "N") == 0)
		*out = GK_NO_TRANS;
	else if (strcmp(v, "t") == 0 || strcmp(v, "T") == 0)
		*out = GK_TRANS;
	else
		return -1;
	return 0;
}

/* Apply one option; 0, or 2 after printing why. */
static int apply_option(gemm_opts *o, int opt, const char *v)
{
	const char *name = options[opt].name;
	switch (opt) {
	case OPT_ALGO:
		o->algo = v;
		break;
	case OPT_DTYPE:
		if (strcmp(v, "s") == 0 || strcmp(v, "f32") == 0 || strcmp(v, "float32") == 0)
			o->dtype = NPY_F32;
		else if (strcmp(v, "d") == 0 || strcmp(v, "f64") == 0 || strcmp(v, "float64") == 0)
			o->dtype = NPY_F64;
		else {
			cli_error(CMD, "unknown dtype '%s': use s (float32) or d (float64)", v);
			return 2;
		}
		o->dtype_set = 1;
		break;
	case OPT_THREADS:
		if (cli_parse_i64(v, 0, 65536, &o->threads) != 0) {
			cli_error(CMD, "--threads '%s' is not a whole number in [0, 65536]", v);
			return 2;
		}
		break;
	case OPT_LAYOUT:
		if (strcmp(v, "row") == 0)
			o->layout = GK_ROW_MAJOR;
		else if (strcmp(v, "col") == 0)
			o->layout = GK_COL_MAJOR;
		else {
			cli_error(CMD, "unknown layout '%s': use row or col", v);
			return 2;
		}
		break;
	case OPT_TRANSA:
	case OPT_TRANSB:
		if (parse_trans(v, opt == OPT_TRANSA ? &o->ta : &o->tb) != 0) {
			cli_error(CMD, "--%s '%s': use n (no transpose) or t (transpose)", name, v);
			return 2;
		}
		break;
	case OPT_ALPHA:
	case OPT_BETA:
		if (cli_parse_double(v, opt == OPT_ALPHA ? &o->alpha : &o->beta) != 0) {
			cli_error(CMD, "--%s '%s' is not a finite number", name, v);
			return 2;
		}
		break;
	case OPT_REPEAT:
		if (cli_parse_i64(v, 1, 1000000, &o->repeat) != 0) {
			cli_error(CMD, "--repeat '%s' is not a whole number in [1, 1000000]", v);
			return 2;
		}
		break;
	case OPT_SEED: {
		char *end;
		errno = 0;
		unsigned long long s = strtoull(v, &end, 0);
		if (*v == '\0' || *v == '-' || *end != '\0' || errno != 0) {
			cli_error(CMD, "--seed '%s' is not a non-negative whole number", v);
			return 2;
		}
		o->seed = s;
		o->seed_set = 1;
		break;
	}
	case OPT_A: case OPT_B: case OPT_C:
		o->in[opt - OPT_A] = v;
		break;
	case OPT_SAVE_A: case OPT_SAVE_B: case OPT_SAVE_C:
		o->save[opt - OPT_SAVE_A] = v;
		break;
	case OPT_SAVE:
		o->save_dir = v;
		break;
	case OPT_NO_CHECK:
		o->check = 0;
		break;
	case OPT_TOL:
		if (cli_parse_double(v, &o->tol) != 0 || !(o->tol > 0)) {
			cli_error(CMD, "--tol '%s' is not a positive number", v);
			return 2;
		}
		break;
	case OPT_PRINT:
		o->print = 1;
		break;
	}
	if ((opt >= OPT_A && opt <= OPT_SAVE) && *v == '\0') {
		cli_error(CMD, "--%s needs a file name", name);
		return 2;
	}
	return 0;
}

/* 0: parsed; 2: bad command line; -1: --help was printed. */
static int parse_args(int argc, char **argv, gemm_opts *o)
{
	static const char *const size_names[3] = {"M", "N", "K"};
	int only_positional = 0;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const int looks_numeric = arg[0] == '-' && ((arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.');
		if (!only_positional && (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)) {
			usage(stdout);
			return -1;
		}
		if (!only_positional && strcmp(arg, "--") == 0) {
			only_positional = 1;
			continue;
		}
		if (!only_positional && arg[0] == '-' && arg[1] == '-') {
			const char *name = arg + 2;
			const char *eq = strchr(name, '=');
			const size_t len = eq ? (size_t)(eq - name) : strlen(name);
			int opt = -1;
			for (int j = 0; j < N_OPTIONS; j++)
				if (strlen(options[j].name) == len && strncmp(options[j].name, name, len) == 0)
					opt = j;
			if (opt < 0) {
				cli_error(CMD, "unknown option '%.*s' (see 'gemmkit gemm --help')", (int)len + 2, arg);
				return 2;
			}
			const char *value = NULL;
			if (options[opt].has_arg) {
				if (eq)
					value = eq + 1;
				else if (i + 1 < argc)
					value = argv[++i];
				else {
					cli_error(CMD, "option --%s needs a value", options[opt].name);
					return 2;
				}
			} else if (eq) {
				cli_error(CMD, "option --%s takes no value", options[opt].name);
				return 2;
			}
			int rc = apply_option(o, opt, value ? value : "");
			if (rc)
				return rc;
			continue;
		}
		if (!only_positional && arg[0] == '-' && !looks_numeric) {
			cli_error(CMD, "unknown option '%s' (see 'gemmkit gemm --help')", arg);
			return 2;
		}
		if (o->nsizes >= 3) {
			cli_error(CMD, "unexpected argument '%s': give at most the three sizes M N K", arg);
			return 2;
		}
		if (cli_parse_i64(arg, 1, MAX_SIZE, &o->size[o->nsizes]) != 0) {
			cli_error(CMD, "size %s = '%s' is not a whole number in [1, 2^40]",
			          size_names[o->nsizes], arg);
			return 2;
		}
		o->nsizes++;
	}
	if (o->nsizes != 0 && o->nsizes != 3) {
		cli_error(CMD, "give all three sizes M N K, or none");
		return 2;
	}
	return 0;
}

static void report_lib_error(const char *what, gk_status st)
{
	const char *detail = gk_last_error();
	cli_error(CMD, "%s: %s%s%s", what, gk_strerror(st), detail && *detail ? ": " : "",
	          detail ? detail : "");
}

/* The name list for an unknown --algo. */
static void print_algo_names(FILE *f)
{
	fprintf(f, "valid algorithms: auto");
	for (int i = 0; i < gk_algo_count(); i++) {
		gk_algo_info ai;
		if (gk_algo_get(i, &ai) == GK_OK)
			fprintf(f, ", %s", ai.name);
	}
	fprintf(f, "\n");
}

static int find_algo(const char *name, gk_algo_info *out)
{
	for (int i = 0; i < gk_algo_count(); i++)
		if (gk_algo_get(i, out) == GK_OK && strcmp(out->name, name) == 0)
			return 1;
	return 0;
}

/* ---------------------------------------------------------- the matrices -- */

typedef struct {
	npy_dtype dtype;
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k, lda, ldb, ldc;
	double alpha, beta; /* as the library sees them (rounded to float for s) */
	void *a, *b, *c, *c0;
} problem;

static int64_t ld_of(gk_layout layout, int64_t rows, int64_t cols)
{
	int64_t ld = layout == GK_ROW_MAJOR ? cols : rows;
	return ld > 0 ? ld : 1;
}

static size_t at(gk_layout layout, int64_t i, int64_t j, int64_t ld)
{
	return layout == GK_ROW_MAJOR ? (size_t)(i * ld + j) : (size_t)(i + j * ld);
}

static double elem(npy_dtype t, const void *p, size_t idx)
{
	return t == NPY_F64 ? ((const double *)p)[idx] : (double)((const float *)p)[idx];
}

static double op_a(const problem *p, int64_t i, int64_t l)
{
	return elem(p->dtype, p->a, p->ta == GK_NO_TRANS ? at(p->layout, i, l, p->lda) : at(p->layout, l, i, p->lda));
}

static double op_b(const problem *p, int64_t l, int64_t j)
{
	return elem(p->dtype, p->b, p->tb == GK_NO_TRANS ? at(p->layout, l, j, p->ldb) : at(p->layout, j, l, p->ldb));
}

static void *alloc_elems(int64_t rows, int64_t cols, npy_dtype t, const char *what)
{
	size_t n, bytes;
	void *p = NULL;
	if (__builtin_mul_overflow((size_t)rows, (size_t)cols, &n) ||
	    __builtin_mul_overflow(n, (size_t)t, &bytes)) {
		cli_error(CMD, "%s of %lld x %lld elements is too large", what, (long long)rows, (long long)cols);
		return NULL;
	}
	if (posix_memalign(&p, 64, bytes > 0 ? bytes : 64) != 0) {
		cli_error(CMD, "cannot allocate %zu bytes for %s", bytes, what);
		return NULL;
	}
	return p;
}

static void fill_random(void *p, size_t count, npy_dtype t, cli_rng *r)
{
	if (t == NPY_F64)
		cli_fill_f64(p, count, r);
	else
		cli_fill_f32(p, count, r);
}

/* Before every run C is either the input C (beta != 0) or NaN, so that a
 * result element the algorithm forgot to write cannot pass the check. */
static void reset_c(const problem *p)
{
	const size_t count = (size_t)p->m * (size_t)p->n, bytes = count * (size_t)p->dtype;
	if (p->beta != 0) {
		memcpy(p->c, p->c0, bytes);
	} else if (p->dtype == NPY_F64) {
		for (size_t i = 0; i < count; i++)
			((double *)p->c)[i] = NAN;
	} else {
		for (size_t i = 0; i < count; i++)
			((float *)p->c)[i] = NAN;
	}
}

static gk_status run_once(const gk_context *ctx, const problem *p)
{
	if (p->dtype == NPY_F64)
		return gk_dgemm_ex(ctx, p->layout, p->ta, p->tb, p->m, p->n, p->k, p->alpha, p->a, p->lda,
		                   p->b, p->ldb, p->beta, p->c, p->ldc);
	return gk_sgemm_ex(ctx, p->layout, p->ta, p->tb, p->m, p->n, p->k, (float)p->alpha, p->a,
	                   p->lda, p->b, p->ldb, (float)p->beta, p->c, p->ldc);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

/* ------------------------------------------------------------ the check -- */

/* sum_l a[l] * b[l] in long double, with four partial sums to hide the
 * latency of the x87 adder. Products of two floats or two doubles are
 * exact or nearly so in long double. */
static long double dot_f32(const double *a, const float *b, int64_t k)
{
	long double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	int64_t l = 0;
	for (; l + 4 <= k; l += 4) {
		s0 += (long double)a[l] * b[l];
		s1 += (long double)a[l + 1] * b[l + 1];
		s2 += (long double)a[l + 2] * b[l + 2];
		s3 += (long double)a[l + 3] * b[l + 3];
	}
	for (; l < k; l++)
		s0 += (long double)a[l] * b[l];
	return (s0 + s1) + (s2 + s3);
}

static long double dot_f64(const double *a, const double *b, int64_t k)
{
	long double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	int64_t l = 0;
	for (; l + 4 <= k; l += 4) {
		s0 += (long double)a[l] * b[l];
		s1 += (long double)a[l + 1] * b[l + 1];
		s2 += (long double)a[l + 2] * b[l + 2];
		s3 += (long double)a[l + 3] * b[l + 3];
	}
	for (; l < k; l++)
		s0 += (long double)a[l] * b[l];
	return (s0 + s1) + (s2 + s3);
}

/*
 * The normwise relative error over the rows rows[0..nrows), with the norms
 * of A and C0 over the same rows and of B over all of it. op(B) is first
 * copied, transposed and in its own dtype (no more memory than B), so that
 * each reference element is a contiguous dot product.
 */
static double gemm_error(const problem *p, const int64_t *rows, int64_t nrows, int *oom)
{
	const int64_t n = p->n, k = p->k;
	const int f64 = p->dtype == NPY_F64;
	void *bt = malloc((size_t)p->dtype * (size_t)(n * k > 0 ? n * k : 1));
	double *arow = malloc(sizeof(double) * (size_t)(k > 0 ? k : 1));
	*oom = bt == NULL || arow == NULL;
	if (*oom) {
		free(bt);
		free(arow);
		return INFINITY;
	}
	long double nb = 0;
	for (int64_t l = 0; l < k; l++)
		for (int64_t j = 0; j < n; j++) {
			double v = op_b(p, l, j);
			if (f64)
				((double *)bt)[j * k + l] = v;
			else
				((float *)bt)[j * k + l] = (float)v;
			nb += (long double)v * v;
		}
	long double na = 0, nc = 0, diff = 0;
	int nonfinite = 0;
	for (int64_t r = 0; r < nrows; r++) {
		const int64_t i = rows[r];
		for (int64_t l = 0; l < k; l++) {
			arow[l] = op_a(p, i, l);
			na += (long double)arow[l] * arow[l];
		}
		for (int64_t j = 0; j < n; j++) {
			const long double dot = f64 ? dot_f64(arow, (const double *)bt + j * k, k)
			                            : dot_f32(arow, (const float *)bt + j * k, k);
			long double ref = (long double)p->alpha * dot;
			if (p->beta != 0) {
				long double c0 = elem(p->dtype, p->c0, at(p->layout, i, j, p->ldc));
				ref += (long double)p->beta * c0;
				nc += c0 * c0;
			}
			const double cv = elem(p->dtype, p->c, at(p->layout, i, j, p->ldc));
			if (!isfinite(cv))
				nonfinite = 1;
			const long double d = cv - ref;
			diff += d * d;
		}
	}
	free(bt);
	free(arow);
	if (nonfinite)
		return INFINITY;
	const long double denom = fabsl((long double)p->alpha) * sqrtl(na) * sqrtl(nb) +
	                          fabsl((long double)p->beta) * sqrtl(nc);
	if (denom == 0)
		return diff == 0 ? 0.0 : INFINITY;
	return (double)(sqrtl(diff) / denom);
}

/* ---------------------------------------------------------------- files -- */

/* Read the --a/--b/--c files; their shapes give M, N and K. */
static int load_inputs(const gemm_opts *o, npy_matrix in[3])
{
	for (int x = 0; x < 3; x++) {
		if (o->in[x] == NULL)
			continue;
		char err[256];
		int rc = npy_read(o->in[x], &in[x], err, sizeof err);
		if (rc != 0) {
			cli_error(CMD, "%s: %s", o->in[x], err);
			return rc == NPY_ERR_NOMEM ? 1 : 2;
		}
		if (in[x].rows < 1 || in[x].cols < 1) {
			cli_error(CMD, "%s: the matrix of shape (%lld, %lld) is empty", o->in[x],
			          (long long)in[x].rows, (long long)in[x].cols);
			return 2;
		}
		if (in[x].rows > MAX_SIZE || in[x].cols > MAX_SIZE) {
			cli_error(CMD, "%s: shape (%lld, %lld) is too large", o->in[x],
			          (long long)in[x].rows, (long long)in[x].cols);
			return 2;
		}
	}
	return 0;
}

/* One size (0 = M, 1 = N, 2 = K) as the files and the command line give
 * it; they must agree. */
static int settle_size(const gemm_opts *o, const npy_matrix in[3], int which, int64_t *out)
{
	static const char *const names[3] = {"M", "N", "K"};
	int64_t v = o->nsizes ? o->size[which] : 0;
	const char *from = o->nsizes ? "the command line" : NULL;
	for (int x = 0; x < 3; x++) {
		if (o->in[x] == NULL)
			continue;
		int64_t s = 0;
		if (x == 0 && which != 1) /* A: op(A) is M x K */
			s = (which == 0) == (o->ta == GK_NO_TRANS) ? in[0].rows : in[0].cols;
		else if (x == 1 && which != 0) /* B: op(B) is K x N */
			s = (which == 2) == (o->tb == GK_NO_TRANS) ? in[1].rows : in[1].cols;
		else if (x == 2 && which != 2) /* C is M x N */
			s = which == 0 ? in[2].rows : in[2].cols;
		if (s == 0)
			continue;
		if (v != 0 && s != v) {
			cli_error(CMD, "%s = %lld from %s, but %s (shape (%lld, %lld)) gives %s = %lld",
			          names[which], (long long)v, from, o->in[x], (long long)in[x].rows,
			          (long long)in[x].cols, names[which], (long long)s);
			return 2;
		}
		v = s;
		from = o->in[x];
	}
	*out = v;
	return 0;
}

static int save_one(const char *path, const problem *p, const void *data, int64_t rows, int64_t cols)
{
	npy_matrix mat = {p->dtype, p->layout == GK_COL_MAJOR, rows, cols, (void *)data};
	char err[256];
	if (npy_write(path, &mat, err, sizeof err) != 0) {
		cli_error(CMD, "%s: %s", path, err);
		return 1;
	}
	printf("saved:     %s (%lld x %lld, %s)\n", path, (long long)rows, (long long)cols,
	       npy_dtype_name(p->dtype));
	return 0;
}

static int save_outputs(const gemm_opts *o, const problem *p)
{
	const int64_t ar = p->ta == GK_NO_TRANS ? p->m : p->k, ac = p->ta == GK_NO_TRANS ? p->k : p->m;
	const int64_t br = p->tb == GK_NO_TRANS ? p->k : p->n, bc = p->tb == GK_NO_TRANS ? p->n : p->k;
	int rc = 0;
	if (o->save[0]) rc |= save_one(o->save[0], p, p->a, ar, ac);
	if (o->save[1]) rc |= save_one(o->save[1], p, p->b, br, bc);
	if (o->save[2]) rc |= save_one(o->save[2], p, p->c, p->m, p->n);
	if (o->save_dir) {
		if (mkdir(o->save_dir, 0777) != 0 && errno != EEXIST) {
			cli_error(CMD, "cannot create the folder %s: %s", o->save_dir, strerror(errno));
			return 1;
		}
		const size_t len = strlen(o->save_dir) + 16;
		char *path = malloc(len);
		if (path == NULL) {
			cli_error(CMD, "out of memory");
			return 1;
		}
		snprintf(path, len, "%s/A.npy", o->save_dir);
		rc |= save_one(path, p, p->a, ar, ac);
		snprintf(path, len, "%s/B.npy", o->save_dir);
		rc |= save_one(path, p, p->b, br, bc);
		snprintf(path, len, "%s/C.npy", o->save_dir);
		rc |= save_one(path, p, p->c, p->m, p->n);
		if (p->beta != 0) {
			snprintf(path, len, "%s/C0.npy", o->save_dir);
			rc |= save_one(path, p, p->c0, p->m, p->n);
		}
		free(path);
	}
	return rc;
}

static void print_matrix(const char *name, int64_t rows, int64_t cols, const problem *p, int which)
{
	printf("%s (%lld x %lld):\n", name, (long long)rows, (long long)cols);
	for (int64_t i = 0; i < rows; i++) {
		for (int64_t j = 0; j < cols; j++) {
			double v = which == 0 ? op_a(p, i, j) : which == 1 ? op_b(p, i, j)
			                                                   : elem(p->dtype, p->c, at(p->layout, i, j, p->ldc));
			printf("%s% .*g", j ? " " : "  ", p->dtype == NPY_F64 ? 17 : 9, v);
		}
		printf("\n");
	}
}

/* ------------------------------------------------------------------ run -- */

int gk_cmd_gemm(int argc, char **argv)
{
	gemm_opts o;
	memset(&o, 0, sizeof o);
	o.algo = "auto";
	o.dtype = NPY_F32;
	o.layout = GK_ROW_MAJOR;
	o.ta = o.tb = GK_NO_TRANS;
	o.alpha = 1;
	o.beta = 0;
	o.repeat = 1;
	o.check = 1;
	o.tol = 1;
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;

	gk_context *ctx = NULL;
	npy_matrix in[3];
	memset(in, 0, sizeof in);
	problem p;
	memset(&p, 0, sizeof p);
	double *times = NULL;
	int64_t *rows = NULL;

	gk_status st = gk_context_create(&ctx);
	if (st != GK_OK) {
		report_lib_error("gk_context_create", st);
		return 1;
	}
	st = gk_context_set_algo(ctx, o.algo);
	if (st == GK_ERR_UNKNOWN_ALGO) {
		cli_error(CMD, "unknown algorithm '%s'", o.algo);
		print_algo_names(stderr);
		rc = 2;
		goto done;
	} else if (st != GK_OK) {
		report_lib_error("gk_context_set_algo", st);
		rc = 1;
		goto done;
	}
	st = gk_context_set_threads(ctx, (int)o.threads);
	if (st != GK_OK) {
		report_lib_error("gk_context_set_threads", st);
		rc = 2;
		goto done;
	}

	rc = load_inputs(&o, in);
	if (rc)
		goto done;

	/* The dtype: --dtype, else that of the first input file. */
	if (!o.dtype_set)
		for (int x = 0; x < 3; x++)
			if (o.in[x]) {
				o.dtype = in[x].dtype;
				break;
			}
	gk_algo_info ai;
	const int named = strcmp(o.algo, "auto") != 0 && find_algo(o.algo, &ai);
	if (named && !(ai.dtypes & (o.dtype == NPY_F64 ? GK_DTYPE_F64 : GK_DTYPE_F32))) {
		cli_error(CMD, "algorithm %s does not handle %s", o.algo, npy_dtype_name(o.dtype));
		rc = 2;
		goto done;
	}

	/* The sizes: command line and files must agree; what neither gives is
	 * drawn at random. The draws happen always, so one seed gives the same
	 * matrices whichever sizes were given. */
	if (!o.seed_set) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		o.seed = ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
	}
	cli_rng rng;
	cli_rng_init(&rng, o.seed);
	int64_t sz[3];
	int random_sizes = 0, random_data = 0;
	for (int w = 0; w < 3; w++) {
		double u = (cli_uniform(&rng) + 1) / 2;
		int64_t drawn = RAND_MIN_SIZE + (int64_t)(u * (RAND_MAX_SIZE - RAND_MIN_SIZE + 1));
		rc = settle_size(&o, in, w, &sz[w]);
		if (rc)
			goto done;
		if (sz[w] == 0) {
			sz[w] = drawn;
			random_sizes = 1;
		}
	}
	p.dtype = o.dtype;
	p.layout = o.layout;
	p.ta = o.ta;
	p.tb = o.tb;
	p.m = sz[0];
	p.n = sz[1];
	p.k = sz[2];
	/* The reference uses the alpha and beta the library was given. */
	p.alpha = o.dtype == NPY_F32 ? (double)(float)o.alpha : o.alpha;
	p.beta = o.dtype == NPY_F32 ? (double)(float)o.beta : o.beta;
	const int64_t ar = p.ta == GK_NO_TRANS ? p.m : p.k, ac = p.ta == GK_NO_TRANS ? p.k : p.m;
	const int64_t br = p.tb == GK_NO_TRANS ? p.k : p.n, bc = p.tb == GK_NO_TRANS ? p.n : p.k;
	p.lda = ld_of(p.layout, ar, ac);
	p.ldb = ld_of(p.layout, br, bc);
	p.ldc = ld_of(p.layout, p.m, p.n);

	/* Inputs of another dtype or order are converted to the call's. */
	for (int x = 0; x < 3; x++) {
		if (!o.in[x])
			continue;
		if (x == 2 && p.beta == 0) {
			fprintf(stderr, "gemmkit gemm: note: beta = 0, so %s is not used\n", o.in[x]);
			continue;
		}
		if (in[x].dtype != o.dtype)
			fprintf(stderr, "gemmkit gemm: note: %s holds %s; converted to %s%s\n", o.in[x],
			        npy_dtype_name(in[x].dtype), npy_dtype_name(o.dtype),
			        o.dtype == NPY_F32 ? " (use --dtype d to keep float64)" : "");
		char err[256];
		if (npy_convert(&in[x], o.dtype, p.layout == GK_COL_MAJOR, err, sizeof err) != 0) {
			cli_error(CMD, "%s: %s", o.in[x], err);
			rc = 1;
			goto done;
		}
	}

	/* A, B and C0 in that order from the one stream, files taking their
	 * place. */
	if (o.in[0]) {
		p.a = in[0].data;
		in[0].data = NULL;
	} else if ((p.a = alloc_elems(ar, ac, p.dtype, "A")) != NULL) {
		fill_random(p.a, (size_t)ar * (size_t)ac, p.dtype, &rng);
		random_data = 1;
	}
	if (o.in[1]) {
		p.b = in[1].data;
		in[1].data = NULL;
	} else if ((p.b = alloc_elems(br, bc, p.dtype, "B")) != NULL) {
		fill_random(p.b, (size_t)br * (size_t)bc, p.dtype, &rng);
		random_data = 1;
	}
	p.c = alloc_elems(p.m, p.n, p.dtype, "C");
	if (p.beta != 0) {
		if (o.in[2]) {
			p.c0 = in[2].data;
			in[2].data = NULL;
		} else if ((p.c0 = alloc_elems(p.m, p.n, p.dtype, "C0")) != NULL) {
			fill_random(p.c0, (size_t)p.m * (size_t)p.n, p.dtype, &rng);
			random_data = 1;
		}
	}
	if (!p.a || !p.b || !p.c || (p.beta != 0 && !p.c0)) {
		rc = 1;
		goto done;
	}

	/* One warm-up, then the timed runs. */
	times = malloc(sizeof(double) * (size_t)o.repeat);
	if (times == NULL) {
		cli_error(CMD, "out of memory");
		rc = 1;
		goto done;
	}
	for (int64_t r = -1; r < o.repeat; r++) {
		reset_c(&p);
		double t0 = cli_now();
		st = run_once(ctx, &p);
		double t1 = cli_now();
		if (st != GK_OK) {
			report_lib_error(p.dtype == NPY_F64 ? "gk_dgemm_ex" : "gk_sgemm_ex", st);
			rc = 1;
			goto done;
		}
		if (r >= 0)
			times[r] = t1 - t0;
	}
	qsort(times, (size_t)o.repeat, sizeof *times, cmp_double);
	const double t = o.repeat % 2 ? times[o.repeat / 2]
	                              : (times[o.repeat / 2 - 1] + times[o.repeat / 2]) / 2;
	const double flops = 2.0 * (double)p.m * (double)p.n * (double)p.k;

	gk_info info;
	if (gk_get_info(&info) != GK_OK)
		info.max_threads = 0;
	printf("sizes:     M = %lld, N = %lld, K = %lld%s\n", (long long)p.m, (long long)p.n,
	       (long long)p.k, random_sizes ? " (random)" : "");
	if (random_sizes || random_data)
		printf("seed:      %llu\n", (unsigned long long)o.seed);
	printf("algorithm: %s\n", o.algo);
	printf("dtype:     %s (%s)\n", p.dtype == NPY_F64 ? "d" : "s", npy_dtype_name(p.dtype));
	printf("layout:    %s, op(A) = %s, op(B) = %s, alpha = %g, beta = %g\n",
	       p.layout == GK_ROW_MAJOR ? "row-major" : "column-major", p.ta == GK_NO_TRANS ? "A" : "A^T",
	       p.tb == GK_NO_TRANS ? "B" : "B^T", p.alpha, p.beta);
	if (named && ai.backend == GK_BACKEND_CUDA)
		printf("threads:   - (%s runs on the GPU)\n", ai.name);
	else if (named && !ai.threaded)
		printf("threads:   1 (%s is single-threaded)\n", ai.name);
	else
		printf("threads:   %d%s\n", o.threads > 0 ? (int)o.threads : info.max_threads,
		       o.threads > 0 ? "" : " (default)");
	printf("time:      %.4f ms (median of %lld run%s after 1 warm-up)\n", t * 1e3,
	       (long long)o.repeat, o.repeat > 1 ? "s" : "");
	if (t > 0)
		printf("GFLOPS:    %.3f\n", flops / t * 1e-9);
	else
		printf("GFLOPS:    - (too fast to time)\n");

	if (o.print) {
		print_matrix("op(A)", p.m, p.k, &p, 0);
		print_matrix("op(B)", p.k, p.n, &p, 1);
		print_matrix("C", p.m, p.n, &p, 2);
	}

	int failed = 0;
	if (o.check) {
		/* Rows to check: all, or a sorted random sample that does not
		 * depend on the data stream. */
		const int sampled = (double)p.m * (double)p.n * (double)p.k > FULL_CHECK_MAX_FLOPS &&
		                    p.m > SAMPLE_ROWS;
		const int64_t nrows = sampled ? SAMPLE_ROWS : p.m;
		rows = malloc(sizeof(int64_t) * (size_t)nrows);
		if (rows == NULL) {
			cli_error(CMD, "out of memory for the check");
			rc = 1;
			goto done;
		}
		if (sampled) {
			cli_rng srng;
			cli_rng_init(&srng, o.seed ^ 0x636865636b726f77ull);
			for (int64_t r = 0; r < nrows; r++) {
				int dup;
				do {
					rows[r] = (int64_t)((cli_uniform(&srng) + 1) / 2 * (double)p.m);
					if (rows[r] >= p.m)
						rows[r] = p.m - 1;
					dup = 0;
					for (int64_t q = 0; q < r; q++)
						dup |= rows[q] == rows[r];
				} while (dup);
			}
			qsort(rows, (size_t)nrows, sizeof *rows, cmp_i64);
		} else {
			for (int64_t r = 0; r < nrows; r++)
				rows[r] = r;
		}
		int oom;
		const double err = gemm_error(&p, rows, nrows, &oom);
		if (oom) {
			cli_error(CMD, "out of memory for the check");
			rc = 1;
			goto done;
		}
		const double eps = p.dtype == NPY_F64 ? DBL_EPSILON : FLT_EPSILON;
		const double bound = o.tol * (double)(p.k + 2) * eps;
		failed = !(err <= bound);
		printf("error:     %.3e (normwise relative, long double reference, ", err);
		if (sampled)
			printf("%d random rows of %lld: M*N*K > 2^31)\n", SAMPLE_ROWS, (long long)p.m);
		else
			printf("all %lld rows)\n", (long long)p.m);
		printf("bound:     %.3e (%g * (K + 2) * eps, eps = %s)\n", bound, o.tol,
		       p.dtype == NPY_F64 ? "2^-52" : "2^-23");
		printf("check:     %s\n", failed ? "FAIL" : "PASS");
		fflush(stdout);
		if (failed)
			cli_error(CMD, "check failed: error %.3e > bound %.3e", err, bound);
	} else {
		printf("check:     skipped (--no-check)\n");
	}

	rc = save_outputs(&o, &p);
	if (failed)
		rc = 1;

done:
	for (int x = 0; x < 3; x++)
		npy_free(&in[x]);
	free(p.a);
	free(p.b);
	free(p.c);
	free(p.c0);
	free(times);
	free(rows);
	gk_context_destroy(ctx);
	return rc;
}
