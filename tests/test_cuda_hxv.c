/*
 * test_cuda_hxv.c - the horizontal x vertical algorithms on the GPU
 * (cuda.hxv_basic, cuda.hxv_phvm, cuda.hxv; docs/CUDA_HXV.md) against the
 * long double reference (gemm_check.h) with the bound that grows with k:
 * small and odd shapes (k a multiple of nothing, m or n = 1, results
 * larger than one output tile), both layouts and transposes, alpha and
 * beta, padded leading dimensions, host and device pointers; the routing
 * of "auto"; the same bits on every run of cuda.hxv; the host driver's
 * chunks of k; and k above 2^31 on the device. Exit 77 without a device.
 * GK_TEST_SMALL=1 runs the short list (compute-sanitizer).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"
#ifdef GK_TEST_HAVE_CUDA
#include <cuda_runtime.h>

typedef struct {
	int64_t m, n, k;
} shape;

static int run_case(const char *algo, unsigned dt, gk_layout lay, gk_trans ta, int64_t m, int64_t n,
                    int64_t k, int64_t pad, double alpha, double beta, int device_path, tu_rng *rng,
                    void *out_c, size_t out_bytes)
{
	const size_t es = dt == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	const int rm = lay == GK_ROW_MAJOR;
	const gk_trans tb = GK_NO_TRANS;
	const int64_t ra = ta == GK_NO_TRANS ? m : k, ca = ta == GK_NO_TRANS ? k : m;
	const int64_t rb = k, cb = n;
	const int64_t lda = (rm ? ca : ra) + pad, ldb = (rm ? cb : rb) + pad, ldc = (rm ? n : m) + pad;
	const size_t na = tu_extent(lay, ra, ca, lda), nb = tu_extent(lay, rb, cb, ldb);
	const size_t nc = tu_extent(lay, m, n, ldc);
	void *a = malloc(na * es), *b = malloc(nb * es), *c0 = malloc(nc * es), *c = malloc(nc * es);
	if (dt == GK_DTYPE_F32) {
		tu_fill_f32(a, na, rng);
		tu_fill_f32(b, nb, rng);
		tu_fill_f32(c0, nc, rng);
	} else {
		tu_fill_f64(a, na, rng);
		tu_fill_f64(b, nb, rng);
		tu_fill_f64(c0, nc, rng);
	}
	memcpy(c, c0, nc * es);
	if (beta == 0) {
		if (dt == GK_DTYPE_F32)
			tu_poison_f32(c, nc);
		else
			tu_poison_f64(c, nc);
	}
	gk_context *ctx = NULL;
	gk_context_create(&ctx);
	gk_status st = gk_context_set_algo(ctx, algo);
	if (st == GK_OK && !device_path)
		st = gk_context_set_backend(ctx, GK_BACKEND_CUDA);
	if (st == GK_OK && !device_path) {
		st = dt == GK_DTYPE_F32
		             ? gk_sgemm_ex(ctx, lay, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta, c, ldc)
		             : gk_dgemm_ex(ctx, lay, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
	} else if (st == GK_OK) {
		void *da = NULL, *db = NULL, *dc = NULL;
		cudaMalloc(&da, na * es);
		cudaMalloc(&db, nb * es);
		cudaMalloc(&dc, nc * es);
		cudaMemcpy(da, a, na * es, cudaMemcpyHostToDevice);
		cudaMemcpy(db, b, nb * es, cudaMemcpyHostToDevice);
		cudaMemcpy(dc, c, nc * es, cudaMemcpyHostToDevice);
		st = dt == GK_DTYPE_F32
		             ? gk_sgemm_device(ctx, lay, ta, tb, m, n, k, (float)alpha, da, lda, db, ldb, (float)beta, dc, ldc)
		             : gk_dgemm_device(ctx, lay, ta, tb, m, n, k, alpha, da, lda, db, ldb, beta, dc, ldc);
		cudaDeviceSynchronize();
		cudaMemcpy(c, dc, nc * es, cudaMemcpyDeviceToHost);
		cudaFree(da);
		cudaFree(db);
		cudaFree(dc);
	}
	int ok = 0;
	if (st == GK_OK) {
		const double al = dt == GK_DTYPE_F32 ? (double)(float)alpha : alpha;
		const double be = dt == GK_DTYPE_F32 ? (double)(float)beta : beta;
		double err = NAN;
		gkc_gemm_check(dt, lay, ta, tb, m, n, k, al, a, lda, b, ldb, be, c0, c, ldc, NULL, 0, &err);
		const double bound = gkc_gemm_bound(dt, k, 4.0);
		ok = err <= bound;
		TU_CHECK(ok, "%s %s %s ta=%d %lldx%lldx%lld pad %lld a=%g b=%g %s: error %.3g > bound %.3g",
		         algo, dt == GK_DTYPE_F32 ? "f32" : "f64", rm ? "row" : "col", (int)ta, (long long)m,
		         (long long)n, (long long)k, (long long)pad, alpha, beta, device_path ? "device" : "host",
		         err, bound);
		ok = ok && tu_padding_intact(dt, lay, m, n, c, c0, ldc);
		if (out_c != NULL)
			memcpy(out_c, c, out_bytes < nc * es ? out_bytes : nc * es);
	} else {
		TU_CHECK(0, "%s %lldx%lldx%lld: status %d (%s)", algo, (long long)m, (long long)n,
		         (long long)k, st, gk_last_error());
	}
	gk_context_destroy(ctx);
	free(a);
	free(b);
	free(c0);
	free(c);
	return ok;
}

/* k above 2^31 on device pointers: E and F of one row / column set byte
 * by byte, so every product is the same and the sum is known. */
static void test_large_k(const char *algo)
{
	const int64_t k = ((int64_t)1 << 31) + 4099;
	size_t freeb = 0, total = 0;
	cudaMemGetInfo(&freeb, &total);
	if (freeb < (size_t)(2 * k * 4) + ((size_t)1 << 30)) {
		printf("%s: k = %lld skipped: %zu bytes free\n", algo, (long long)k, freeb);
		return;
	}
	float *e = NULL, *f = NULL, *c = NULL;
	cudaMalloc((void **)&e, (size_t)k * 4);
	cudaMalloc((void **)&f, (size_t)k * 4);
	cudaMalloc((void **)&c, 4);
	cudaMemset(e, 0x3c, (size_t)k * 4); /* 0x3c3c3c3c = 0.011489... */
	cudaMemset(f, 0x3d, (size_t)k * 4); /* 0x3d3d3d3d = 0.046230... */
	float ev, fv;
	const uint32_t eb = 0x3c3c3c3cu, fb = 0x3d3d3d3du;
	memcpy(&ev, &eb, 4);
	memcpy(&fv, &fb, 4);
	gk_context *ctx = NULL;
	gk_context_create(&ctx);
	gk_context_set_algo(ctx, algo);
	const gk_status st = gk_sgemm_device(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 1, 1, k, 1.0f,
	                                     e, k, f, 1, 0.0f, c, 1);
	cudaDeviceSynchronize();
	float got = NAN;
	cudaMemcpy(&got, c, 4, cudaMemcpyDeviceToHost);
	const double want = (double)k * (double)ev * (double)fv;
	const double err = fabs(got - want) / ((double)k * (double)ev * (double)fv);
	const double bound = gkc_gemm_bound(GK_DTYPE_F32, k, 4.0);
	TU_CHECK(st == GK_OK && err <= bound, "%s k = %lld: %.9g, %.9g expected, error %.3g bound %.3g (%s)",
	         algo, (long long)k, got, want, err, bound, st == GK_OK ? "" : gk_last_error());
	printf("%s: k = %lld: relative error %.3g (bound %.3g)\n", algo, (long long)k, err, bound);
	gk_context_destroy(ctx);
	cudaFree(e);
	cudaFree(f);
	cudaFree(c);
}

static void test_all(int small, tu_rng *rng)
{
	static const char *const algos[] = {"cuda.hxv", "cuda.hxv_phvm", "cuda.hxv_basic"};
	static const shape full[] = {
		{1, 1, 1}, {1, 1, 7}, {3, 3, 12345}, {1, 7, 1001}, {7, 1, 999}, {5, 5, 100003},
		{9, 9, 77777}, {16, 16, 4099}, {17, 3, 999}, {2, 20, 5001}, {13, 12, 31}, {40, 33, 65},
	};
	static const shape quick[] = {{1, 1, 7}, {5, 5, 3001}, {9, 17, 257}};
	const shape *sh = small ? quick : full;
	const int ns = small ? 3 : (int)(sizeof full / sizeof full[0]);
	for (int a = 0; a < 3; a++)
		for (int s = 0; s < ns; s++)
			for (int v = 0; v < (small ? 2 : 8); v++) {
				const unsigned dt = (v & 1) ? GK_DTYPE_F64 : GK_DTYPE_F32;
				const gk_layout lay = (v & 2) ? GK_COL_MAJOR : GK_ROW_MAJOR;
				const gk_trans ta = (v & 4) ? GK_TRANS : GK_NO_TRANS;
				const int64_t pad = (s & 1) ? 3 : 0;
				const double beta = (s % 3 == 0) ? 0.0 : -0.5;
				run_case(algos[a], dt, lay, ta, sh[s].m, sh[s].n, sh[s].k, pad, 1.25, beta,
				         (v + s) & 1, rng, NULL, 0);
				if (!small)
					run_case(algos[a], dt, lay, ta, sh[s].m, sh[s].n, sh[s].k, pad, 1.0, 0.0,
					         !((v + s) & 1), rng, NULL, 0);
			}
	/* "auto" on the CUDA backend for a tiny m, n and large k. */
	run_case("auto", GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, 5, 5, 1 << 17, 0, 1.0, 0.0, 1, rng, NULL, 0);
	if (small)
		return;
	run_case("auto", GK_DTYPE_F64, GK_COL_MAJOR, GK_NO_TRANS, 3, 4, 1 << 17, 0, 1.0, 0.5, 0, rng, NULL, 0);
	/* The host driver's chunks of k (several, the last one short). */
	run_case("cuda.hxv", GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, 3, 3, 6000001, 0, 1.0, 0.0, 0, rng, NULL, 0);
	run_case("cuda.hxv", GK_DTYPE_F64, GK_COL_MAJOR, GK_TRANS, 2, 5, 2000003, 1, 1.0, 1.0, 0, rng, NULL, 0);
	/* The same bits on every run. */
	{
		float r1[64], r2[64];
		tu_rng s1, s2;
		tu_rng_init(&s1, 99);
		tu_rng_init(&s2, 99);
		run_case("cuda.hxv", GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, 7, 7, 3000017, 0, 1.0, 0.0, 1, &s1, r1, sizeof r1);
		run_case("cuda.hxv", GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, 7, 7, 3000017, 0, 1.0, 0.0, 1, &s2, r2, sizeof r2);
		TU_CHECK(memcmp(r1, r2, 49 * sizeof(float)) == 0, "cuda.hxv: the same bits on two runs");
	}
	for (int a = 0; a < 3; a++)
		test_large_k(algos[a]);
}
#endif

int main(void)
{
	gk_info info;
	gk_get_info(&info);
	const int have_gpu = info.cuda_built && info.gpu_count > 0;
#ifdef GK_TEST_HAVE_CUDA
	if (have_gpu) {
		const char *sm = getenv("GK_TEST_SMALL");
		tu_rng rng;
		tu_rng_init(&rng, tu_seed());
		printf("device 0: %s\n", info.gpu_names[0]);
		test_all(sm != NULL && *sm == '1', &rng);
	}
#endif
	const int rc = tu_finish("test_cuda_hxv");
	if (rc == 0 && !have_gpu) {
		printf("skipped: %s\n", info.cuda_built ? "no CUDA device is present" : "gemmkit was built without CUDA");
		return 77;
	}
	return rc;
}
