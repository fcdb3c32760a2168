/*
 * cmd_gemm.c - `gemmkit gemm`: multiply matrices of given (or random) sizes
 * with one algorithm, print the time, the GFLOPS and the error against a
 * long double reference; read and write the matrices as .npy files. This
 * file holds the options and runs the steps of gemm/ (gemm_cmd.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "commands.h"
#include "gemm/gemm_cmd.h"
#include "gemm_check.h"
#include "gemmkit.h"
#include "npy.h"

#define CMD GEMM_CMD

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
"  --backend B        auto, cpu or cuda (default auto: auto runs on the CPU, a\n"
"                     named algorithm on its own backend); cuda runs auto on the\n"
"                     GPU from host memory\n"
"  --precision P      the arithmetic of float products on the GPU: strict (FP32\n"
"                     FMA), accurate (FP32-accurate on tensor cores, split\n"
"                     TF32), tf32 (one TF32 product: about 1e-3 relative,\n"
"                     fastest) or default (GK_PRECISION from the environment,\n"
"                     else strict); it chooses what auto runs, and the bound\n"
"                     of the check follows the mode (docs/PRECISION.md)\n"
"  --devices LIST     the GPUs a product from host memory shares its work\n"
"                     among: device ordinals separated by commas (0,1; a\n"
"                     device listed twice runs two workers on it, 0,0), or\n"
"                     all (every visible device: the default); for --backend\n"
"                     cuda or a cuda.* algorithm\n"
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
"                     (default 1; eps = 2^-23 for s, 2^-52 for d), or C_tol\n"
"                     times the bound of the precision mode that ran\n"
"  --print            print op(A), op(B) and C (meant for small sizes)\n"
"  -h, --help         this help\n"
"\n"
".npy files: '<f4' or '<f8', 2-D, C or Fortran order (converted to --layout).\n"
"Files are written in --layout order (fortran_order True for col).\n"
"When M*N*K > 2^31 and M > %d, the error is computed on that many random rows\n"
"of C (the same rows for the same --seed).\n"
"\n"
"exit status: 0 success; 1 the library reported an error, the check failed,\n"
"an output file could not be written, or the matrices need more memory than\n"
"the system has available (checked before any is allocated, against\n"
"MemAvailable or GK_MEM_AVAILABLE=size|off); 2 bad command\n"
"line, or an input file that cannot be used (missing, not a .npy matrix,\n"
"wrong shape); then nothing is computed.\n",
	        GEMM_RAND_MIN_SIZE, GEMM_RAND_MAX_SIZE, GKC_SAMPLE_ROWS);
}

enum {
	OPT_ALGO, OPT_DTYPE, OPT_THREADS, OPT_LAYOUT, OPT_TRANSA, OPT_TRANSB, OPT_ALPHA, OPT_BETA,
	OPT_REPEAT, OPT_SEED, OPT_A, OPT_B, OPT_C, OPT_SAVE_A, OPT_SAVE_B, OPT_SAVE_C, OPT_SAVE,
	OPT_NO_CHECK, OPT_TOL, OPT_PRINT, OPT_BACKEND, OPT_PRECISION, OPT_DEVICES
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
	[OPT_PRINT] = {"print", 0}, [OPT_BACKEND] = {"backend", 1}, [OPT_PRECISION] = {"precision", 1},
	[OPT_DEVICES] = {"devices", 1},
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
	case OPT_BACKEND:
		if (strcmp(v, "auto") == 0)
			o->backend = GK_BACKEND_AUTO;
		else if (strcmp(v, "cpu") == 0)
			o->backend = GK_BACKEND_CPU;
		else if (strcmp(v, "cuda") == 0)
			o->backend = GK_BACKEND_CUDA;
		else {
			cli_error(CMD, "--backend '%s': expected auto, cpu or cuda", v);
			return 2;
		}
		break;
	case OPT_PRECISION:
		if (gk_precision_parse(v, &o->precision) != GK_OK) {
			cli_error(CMD, "--precision '%s': expected default, strict, accurate or tf32", v);
			return 2;
		}
		break;
	case OPT_DEVICES:
		return gemm_parse_devices(v, o);
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
		if (cli_parse_i64(arg, 1, GEMM_MAX_SIZE, &o->size[o->nsizes]) != 0) {
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
	gemm_problem p;
	memset(&p, 0, sizeof p);

	gk_status st = gk_context_create(&ctx);
	if (st != GK_OK) {
		gemm_report_lib_error("gk_context_create", st);
		return 1;
	}
	st = gk_context_set_algo(ctx, o.algo);
	if (st == GK_ERR_UNKNOWN_ALGO) {
		cli_error(CMD, "unknown algorithm '%s'", o.algo);
		print_algo_names(stderr);
		rc = 2;
		goto done;
	} else if (st != GK_OK) {
		gemm_report_lib_error("gk_context_set_algo", st);
		rc = 1;
		goto done;
	}
	if (gk_context_set_backend(ctx, o.backend) != GK_OK ||
	    gk_context_set_precision(ctx, o.precision) != GK_OK) {
		gemm_report_lib_error("gk_context_set_backend/precision", GK_ERR_INVALID_VALUE);
		rc = 2;
		goto done;
	}
	st = gk_context_set_threads(ctx, (int)o.threads);
	if (st != GK_OK) {
		gemm_report_lib_error("gk_context_set_threads", st);
		rc = 2;
		goto done;
	}
	rc = gemm_apply_devices(ctx, &o);
	if (rc)
		goto done;

	rc = gemm_load_inputs(&o, in);
	if (rc)
		goto done;
	gk_algo_info ai;
	const int named = strcmp(o.algo, "auto") != 0 && find_algo(o.algo, &ai);
	if (named && !(ai.dtypes & (o.dtype == NPY_F64 ? GK_DTYPE_F64 : GK_DTYPE_F32))) {
		cli_error(CMD, "algorithm %s does not handle %s", o.algo, npy_dtype_name(o.dtype));
		rc = 2;
		goto done;
	}
	rc = gemm_setup(&o, in, &p);
	if (rc)
		goto done;
	/* The mode whose bound the check applies: the named algorithm's, or
	 * auto's on the GPU (float only: double is FP64 in every mode). */
	if (named)
		o.bound_mode = ai.precision;
	else if (o.backend == GK_BACKEND_CUDA && o.dtype != NPY_F64)
		o.bound_mode = gk_precision_effective(ctx);
	else
		o.bound_mode = GK_PRECISION_STRICT;

	double t;
	rc = gemm_time_runs(ctx, &o, &p, &t);
	if (rc)
		goto done;
	gemm_print_report(&o, &p, named ? &ai : NULL, t);
	if (o.print)
		gemm_print_matrices(&p);
	int failed = 0;
	if (o.check)
		failed = gemm_check_result(&o, &p);
	else
		printf("check:     skipped (--no-check)\n");
	rc = gemm_save_outputs(&o, &p);
	if (failed)
		rc = 1;

done:
	for (int x = 0; x < 3; x++)
		npy_free(&in[x]);
	gemm_problem_free(&p);
	gk_context_destroy(ctx);
	return rc;
}
