/*
 * test_cuda_precision.c - the precision modes of single-precision products
 * on the GPU (gk_context_set_precision): each mode through "auto" on the
 * CUDA backend, from device and from host pointers, against its documented
 * bound (gkc_gemm_bound_mode, docs/PRECISION.md), normwise and element by
 * element, on the cases where a split scheme goes wrong:
 *   - every K from 1 to 64 (the parts' representation error dominates);
 *   - operands whose exponents span 1e-30 .. 1e30 along K (A's columns and
 *     B's rows scaled inversely), and elementwise exponents of 1e-15 .. 1e15
 *     on both operands (products 1e-30 .. 1e30);
 *   - A near FP32 overflow (FLT_MAX itself among its entries) times B near
 *     the bottom of the normal range, and A near FP32 underflow, where the
 *     small part of a split falls into the subnormal range;
 *   - Inf and NaN among the inputs: the outputs they reach are not finite.
 * The API's argument checks of the modes run without a GPU too; the GPU
 * cases exit 77 (skipped) without a device.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemm_check.h"
#include "test_util.h"
#ifdef GK_TEST_HAVE_CUDA
#include <cuda_runtime.h>
#endif

static void check_api(void)
{
	gk_context *ctx = NULL;
	TU_CHECK(gk_context_create(&ctx) == GK_OK, "create");
	TU_CHECK(gk_context_precision(ctx) == GK_PRECISION_DEFAULT, "default precision");
	TU_CHECK(gk_context_set_precision(ctx, (gk_precision)9) == GK_ERR_INVALID_VALUE, "bad mode");
	TU_CHECK(gk_context_set_precision(ctx, (gk_precision)-1) == GK_ERR_INVALID_VALUE, "negative mode");
	TU_CHECK(gk_context_precision(ctx) == GK_PRECISION_DEFAULT, "unchanged after refusal");
	TU_CHECK(gk_context_set_precision(NULL, GK_PRECISION_TF32) == GK_ERR_NULL_POINTER, "NULL ctx");
	TU_CHECK(gk_context_set_precision(ctx, GK_PRECISION_TF32) == GK_OK, "tf32");
	TU_CHECK(gk_precision_effective(ctx) == GK_PRECISION_TF32, "effective tf32");
	const gk_precision env = gk_precision_effective(NULL);
	TU_CHECK(env != GK_PRECISION_DEFAULT, "no context resolves to a mode");
	const char *e = getenv("GK_PRECISION");
	if (e == NULL || *e == '\0')
		TU_CHECK(env == GK_PRECISION_STRICT, "strict without GK_PRECISION: %d", (int)env);
	static const char *names[] = {"default", "strict", "accurate", "tf32"};
	for (int i = 0; i < 4; i++) {
		gk_precision p = (gk_precision)7;
		TU_CHECK(gk_precision_parse(names[i], &p) == GK_OK && (int)p == i, "parse %s", names[i]);
		TU_CHECK(strcmp(gk_precision_name((gk_precision)i), names[i]) == 0, "name %d", i);
	}
	gk_precision p = GK_PRECISION_STRICT;
	TU_CHECK(gk_precision_parse("fp16", &p) == GK_ERR_INVALID_VALUE && p == GK_PRECISION_STRICT,
	         "unknown name refused, output unchanged");
	TU_CHECK(strstr(gk_last_error(), "fp16") != NULL, "message names it: %s", gk_last_error());
	TU_CHECK(gk_precision_parse(NULL, &p) == GK_ERR_NULL_POINTER, "NULL name");
	TU_CHECK(gk_precision_name((gk_precision)4) == NULL, "no name for 4");
	/* Every mode computes on the CPU (strict arithmetic there). */
	float a[4] = {1, 2, 3, 4}, c[4] = {0};
	for (int i = 1; i < 4; i++) {
		gk_context_set_precision(ctx, (gk_precision)i);
		TU_CHECK(gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 2, 2, 1.0f, a, 2, a,
		                     2, 0.0f, c, 2) == GK_OK && c[0] == 7 && c[3] == 22,
		         "CPU product in mode %s", names[i]);
	}
	gk_context_destroy(ctx);
}

#ifdef GK_TEST_HAVE_CUDA

enum dist { D_UNIFORM, D_K_SCALED, D_ELEMENT_EXP, D_NEAR_OVERFLOW, D_NEAR_UNDERFLOW };
static const char *dist_names[] = {"uniform", "k-scaled 1e-30..1e30", "elementwise 1e-15..1e15",
                                   "near overflow", "near underflow"};

/* Fill row-major A (m x k) and B (k x n) from a distribution. */
static void fill(enum dist d, int64_t m, int64_t n, int64_t k, float *a, float *b, tu_rng *r)
{
	for (int64_t p = 0; p < k; p++) {
		/* K-scaled: column p of A times 10^t, row p of B times 10^-t. */
		const double t = d == D_K_SCALED ? 30.0 * tu_uniform(r) : 0.0;
		for (int64_t i = 0; i < m; i++) {
			double v = tu_uniform(r);
			switch (d) {
			case D_K_SCALED: v *= pow(10.0, t); break;
			case D_ELEMENT_EXP: v *= pow(10.0, 15.0 * tu_uniform(r)); break;
			case D_NEAR_OVERFLOW:
				v = (i + p) % 7 == 0 ? (v < 0 ? -FLT_MAX : FLT_MAX) : ldexp(v, 127);
				break;
			case D_NEAR_UNDERFLOW: v = ldexp(v, -118); break;
			default: break;
			}
			a[i * k + p] = (float)v;
		}
		for (int64_t j = 0; j < n; j++) {
			double v = tu_uniform(r);
			switch (d) {
			case D_K_SCALED: v *= pow(10.0, -t); break;
			case D_ELEMENT_EXP: v *= pow(10.0, 15.0 * tu_uniform(r)); break;
			case D_NEAR_OVERFLOW: v = ldexp(v, -126 - (int)(p % 3)); break;
			default: break;
			}
			b[p * n + j] = (float)v;
		}
	}
}

/* C = A B on the GPU in a mode, row-major, beta = 0 with NaN in C. */
static gk_status gpu_product(gk_precision mode, int device_path, int64_t m, int64_t n, int64_t k,
                             const float *a, const float *b, float *c)
{
	gk_context *ctx;
	gk_context_create(&ctx);
	gk_context_set_backend(ctx, GK_BACKEND_CUDA);
	gk_context_set_precision(ctx, mode);
	for (int64_t i = 0; i < m * n; i++)
		c[i] = NAN;
	gk_status st;
	if (device_path) {
		float *da, *db, *dc;
		CUDA_OK(cudaMalloc((void **)&da, (size_t)(m * k) * sizeof(float)));
		CUDA_OK(cudaMalloc((void **)&db, (size_t)(k * n) * sizeof(float)));
		CUDA_OK(cudaMalloc((void **)&dc, (size_t)(m * n) * sizeof(float)));
		CUDA_OK(cudaMemcpy(da, a, (size_t)(m * k) * sizeof(float), cudaMemcpyHostToDevice));
		CUDA_OK(cudaMemcpy(db, b, (size_t)(k * n) * sizeof(float), cudaMemcpyHostToDevice));
		CUDA_OK(cudaMemcpy(dc, c, (size_t)(m * n) * sizeof(float), cudaMemcpyHostToDevice));
		st = gk_sgemm_device(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, da, k,
		                     db, n, 0.0f, dc, n);
		CUDA_OK(cudaDeviceSynchronize());
		CUDA_OK(cudaMemcpy(c, dc, (size_t)(m * n) * sizeof(float), cudaMemcpyDeviceToHost));
		CUDA_OK(cudaFree(da));
		CUDA_OK(cudaFree(db));
		CUDA_OK(cudaFree(dc));
	} else {
		st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, a, k, b, n,
		                 0.0f, c, n);
	}
	gk_context_destroy(ctx);
	return st;
}

/* The largest ratio, over the elements, of |C - C_exact| to the element's
 * bound gamma * (|A| |B|)_ij (a long double reference; the products of the
 * distributions above are exact in long double's range). Inf when an
 * element is not finite. */
static double elementwise_ratio(int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                                const float *c, double gamma, double *worst_rel)
{
	double worst = 0;
	*worst_rel = 0;
	for (int64_t i = 0; i < m; i++)
		for (int64_t j = 0; j < n; j++) {
			long double s = 0, sa = 0;
			for (int64_t p = 0; p < k; p++) {
				const long double t = (long double)a[i * k + p] * (long double)b[p * n + j];
				s += t;
				sa += fabsl(t);
			}
			const double cij = c[i * n + j];
			if (!isfinite(cij))
				return INFINITY;
			const long double e = fabsl((long double)cij - s);
			const double r = sa > 0 ? (double)(e / (gamma * sa)) : (e > 0 ? INFINITY : 0);
			if (r > worst)
				worst = r;
			if (sa > 0 && (double)(e / sa) > *worst_rel)
				*worst_rel = (double)(e / sa);
		}
	return worst;
}

static const char *mode_names[] = {"default", "strict", "accurate", "tf32"};

static void check_case(gk_precision mode, enum dist d, int64_t m, int64_t n, int64_t k,
                       int device_path, tu_rng *r, double *max_rel)
{
	float *a = malloc((size_t)(m * k) * sizeof(float)), *b = malloc((size_t)(k * n) * sizeof(float));
	float *c = malloc((size_t)(m * n) * sizeof(float));
	fill(d, m, n, k, a, b, r);
	const gk_status st = gpu_product(mode, device_path, m, n, k, a, b, c);
	TU_CHECK(st == GK_OK, "%s %s %lldx%lldx%lld: status %d (%s)", mode_names[mode], dist_names[d],
	         (long long)m, (long long)n, (long long)k, st, gk_last_error());
	if (st == GK_OK) {
		const double gamma = gkc_gemm_bound_mode(GK_DTYPE_F32, k, mode, 2.0);
		double rel;
		const double ratio = elementwise_ratio(m, n, k, a, b, c, gamma, &rel);
		TU_CHECK(ratio <= 1.0, "%s, %s, %s path, %lldx%lldx%lld: elementwise error %.3g of "
		         "the bound (%.3e relative to |A||B|, bound %.3e)",
		         mode_names[mode], dist_names[d], device_path ? "device" : "host", (long long)m,
		         (long long)n, (long long)k, ratio, rel, gamma);
		if (rel > *max_rel)
			*max_rel = rel;
		double err;
		gkc_gemm_check(GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0, a, k,
		               b, n, 0.0, c, c, n, NULL, 0, &err);
		TU_CHECK(err <= gamma, "%s, %s: normwise error %.3e > bound %.3e", mode_names[mode],
		         dist_names[d], err, gamma);
	}
	free(a);
	free(b);
	free(c);
}

/* Inf or NaN in A: every output its row reaches is not finite, as in
 * strict arithmetic (a split mode may give NaN where strict gives Inf). */
static void check_nonfinite(gk_precision mode, tu_rng *r)
{
	const int64_t m = 19, n = 23, k = 37;
	float a[19 * 37], b[37 * 23], c[19 * 23];
	fill(D_UNIFORM, m, n, k, a, b, r);
	a[3 * k + 5] = INFINITY;
	a[7 * k + 0] = NAN;
	a[11 * k + 36] = -INFINITY;
	const gk_status st = gpu_product(mode, 1, m, n, k, a, b, c);
	TU_CHECK(st == GK_OK, "%s non-finite: status %d", mode_names[mode], st);
	int bad = 0;
	for (int64_t i = 0; i < m; i++)
		for (int64_t j = 0; j < n; j++) {
			const int poisoned = i == 3 || i == 7 || i == 11;
			bad += poisoned ? isfinite(c[i * n + j]) : !isfinite(c[i * n + j]);
		}
	TU_CHECK(bad == 0, "%s: %d outputs with the wrong finiteness", mode_names[mode], bad);
}

static void check_gpu(tu_rng *r)
{
	const gk_precision modes[] = {GK_PRECISION_STRICT, GK_PRECISION_ACCURATE, GK_PRECISION_TF32};
	for (int mi = 0; mi < 3; mi++) {
		const gk_precision mode = modes[mi];
		double max_rel = 0;
		/* K = 1 .. 64, both paths. */
		for (int64_t k = 1; k <= 64; k++)
			check_case(mode, D_UNIFORM, 37, 29, k, (int)(k & 1), r, &max_rel);
		const double small_k = max_rel;
		max_rel = 0;
		for (int d = D_K_SCALED; d <= D_NEAR_UNDERFLOW; d++)
			for (int s = 0; s < 3; s++) {
				static const int64_t ks[] = {7, 64, 1000};
				check_case(mode, (enum dist)d, 33, 41, ks[s], s & 1, r, &max_rel);
			}
		check_case(mode, D_UNIFORM, 129, 131, 4099, 1, r, &max_rel);
		check_nonfinite(mode, r);
		printf("%-9s largest elementwise error / sum |a||b|: K = 1..64 %.3e, wide ranges %.3e\n",
		       mode_names[mode], small_k, max_rel);
	}
}
#endif

int main(void)
{
	check_api();
	gk_info info;
	gk_get_info(&info);
	const int have_gpu = info.cuda_built && info.gpu_count > 0;
#ifdef GK_TEST_HAVE_CUDA
	if (have_gpu) {
		tu_rng rng;
		tu_rng_init(&rng, tu_seed());
		printf("device 0: %s\n", info.gpu_names[0]);
		check_gpu(&rng);
	}
#endif
	const int rc = tu_finish("test_cuda_precision");
	if (rc == 0 && !have_gpu) {
		printf("skipped the GPU cases: %s\n", info.cuda_built ? "no CUDA device is present"
		                                                     : "gemmkit was built without CUDA");
		return 77;
	}
	return rc;
}
