/*
 * gemm_run.c - what `gemmkit gemm` measures and prints: the timed runs, the
 * report, and the error against the long double reference of gemm_check.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "gemm_check.h"
#include "gemm_cmd.h"

void gemm_report_lib_error(const char *what, gk_status st)
{
	const char *detail = gk_last_error();
	cli_error(GEMM_CMD, "%s: %s%s%s", what, gk_strerror(st), detail && *detail ? ": " : "",
	          detail ? detail : "");
}

/* Before every run C is either the input C (beta != 0) or NaN, so that a
 * result element the algorithm forgot to write cannot pass the check. */
static void reset_c(const gemm_problem *p)
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

static gk_status run_once(const gk_context *ctx, const gemm_problem *p)
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

int gemm_time_runs(const gk_context *ctx, const gemm_opts *o, const gemm_problem *p,
                   double *median)
{
	double *times = malloc(sizeof(double) * (size_t)o->repeat);
	if (times == NULL) {
		cli_error(GEMM_CMD, "out of memory");
		return 1;
	}
	const double flops = 2.0 * (double)p->m * (double)p->n * (double)p->k;
	if (flops >= GEMM_NOTE_FLOPS)
		fprintf(stderr, "gemmkit gemm: %.3g TFLOP a call: 1 warm-up and %lld timed call%s...\n",
		        flops * 1e-12, (long long)o->repeat, o->repeat > 1 ? "s" : "");
	for (int64_t r = -1; r < o->repeat; r++) {
		reset_c(p);
		double t0 = cli_now();
		gk_status st = run_once(ctx, p);
		double t1 = cli_now();
		if (st != GK_OK) {
			gemm_report_lib_error(p->dtype == NPY_F64 ? "gk_dgemm_ex" : "gk_sgemm_ex", st);
			free(times);
			return 1;
		}
		if (r >= 0)
			times[r] = t1 - t0;
	}
	qsort(times, (size_t)o->repeat, sizeof *times, cmp_double);
	*median = o->repeat % 2 ? times[o->repeat / 2]
	                        : (times[o->repeat / 2 - 1] + times[o->repeat / 2]) / 2;
	free(times);
	return 0;
}

void gemm_print_report(const gemm_opts *o, const gemm_problem *p, const gk_algo_info *ai,
                       double t)
{
	const double flops = 2.0 * (double)p->m * (double)p->n * (double)p->k;
	gk_info info;
	if (gk_get_info(&info) != GK_OK)
		info.max_threads = 0;
	printf("sizes:     M = %lld, N = %lld, K = %lld%s\n", (long long)p->m, (long long)p->n,
	       (long long)p->k, p->random_sizes ? " (random)" : "");
	if (p->random_sizes || p->random_data)
		printf("seed:      %llu\n", (unsigned long long)o->seed);
	printf("algorithm: %s%s%s\n", o->algo, o->backend == GK_BACKEND_CUDA ? " (CUDA backend" : "",
	       o->backend == GK_BACKEND_CUDA ? (p->dtype == NPY_F64 ? ")" : ", precision below)") : "");
	if (o->backend == GK_BACKEND_CUDA && p->dtype != NPY_F64)
		printf("precision: %s\n", gk_precision_name(o->bound_mode));
	gemm_print_devices(o);
	printf("dtype:     %s (%s)\n", p->dtype == NPY_F64 ? "d" : "s", npy_dtype_name(p->dtype));
	printf("layout:    %s, op(A) = %s, op(B) = %s, alpha = %g, beta = %g\n",
	       p->layout == GK_ROW_MAJOR ? "row-major" : "column-major",
	       p->ta == GK_NO_TRANS ? "A" : "A^T", p->tb == GK_NO_TRANS ? "B" : "B^T", p->alpha,
	       p->beta);
	if (ai != NULL && ai->backend == GK_BACKEND_CUDA)
		printf("threads:   - (%s runs on the GPU)\n", ai->name);
	else if (ai != NULL && !ai->threaded)
		printf("threads:   1 (%s is single-threaded)\n", ai->name);
	else
		printf("threads:   %d%s\n", o->threads > 0 ? (int)o->threads : info.max_threads,
		       o->threads > 0 ? "" : " (default)");
	printf("time:      %.4f ms (median of %lld run%s after 1 warm-up)\n", t * 1e3,
	       (long long)o->repeat, o->repeat > 1 ? "s" : "");
	if (t > 0)
		printf("GFLOPS:    %.3f\n", flops / t * 1e-9);
	else
		printf("GFLOPS:    - (too fast to time)\n");
}

int gemm_check_result(const gemm_opts *o, const gemm_problem *p)
{
	const unsigned dt = p->dtype == NPY_F64 ? GK_DTYPE_F64 : GK_DTYPE_F32;
	/* All rows, or a sorted random sample that does not depend on the
	 * data stream. */
	int64_t sample[GKC_SAMPLE_ROWS];
	const int64_t nsampled = gkc_sample_rows(p->m, p->n, p->k, o->seed, sample);
	const double refwork = (double)(nsampled ? nsampled : p->m) * (double)p->n * (double)p->k;
	if (refwork >= GEMM_NOTE_REF) {
		fflush(stdout);
		fprintf(stderr, "gemmkit gemm: the check: %.3g billion multiply-adds in long double...\n", refwork / 1e9);
	}
	double err;
	if (gkc_gemm_check(dt, p->layout, p->ta, p->tb, p->m, p->n, p->k, p->alpha, p->a, p->lda,
	                   p->b, p->ldb, p->beta, p->c0, p->c, p->ldc, nsampled ? sample : NULL,
	                   nsampled, &err) != 0) {
		cli_error(GEMM_CMD, "out of memory for the check");
		return 1;
	}
	/* tol * (K + 2) * eps, eps = 2u, or the bound of the mode that ran */
	const double bound = gkc_gemm_bound_mode(dt, p->k, o->bound_mode, 2 * o->tol);
	const int failed = !(err <= bound);
	printf("error:     %.3e (normwise relative, long double reference, ", err);
	if (nsampled)
		printf("%lld random rows of %lld: M*N*K > 2^31)\n", (long long)nsampled, (long long)p->m);
	else
		printf("all %lld rows)\n", (long long)p->m);
	if (o->bound_mode == GK_PRECISION_ACCURATE && p->dtype != NPY_F64)
		printf("bound:     %.3e (%g * (K + 14) * eps, eps = 2^-23: precision accurate)\n", bound,
		       o->tol);
	else if (o->bound_mode == GK_PRECISION_TF32 && p->dtype != NPY_F64)
		printf("bound:     %.3e (%g * ((K + 2) * eps + 2^-9): precision tf32)\n", bound, o->tol);
	else
		printf("bound:     %.3e (%g * (K + 2) * eps, eps = %s)\n", bound, o->tol,
		       p->dtype == NPY_F64 ? "2^-52" : "2^-23");
	printf("check:     %s\n", failed ? "FAIL" : "PASS");
	fflush(stdout);
	if (isnan(err))
		cli_error(GEMM_CMD, "check failed: the reference is not finite (Inf or NaN in the input)");
	else if (failed)
		cli_error(GEMM_CMD, "check failed: error %.3e > bound %.3e", err, bound);
	return failed;
}
