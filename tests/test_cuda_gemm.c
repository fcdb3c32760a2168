/*
 * test_cuda_gemm.c - every cuda.* algorithm of the registry, through the
 * public API, on the device-pointer path (gk_sgemm_device / gk_dgemm_device)
 * and the host-pointer path (gk_sgemm_ex with the CUDA backend): odd sizes,
 * both layouts, every transpose, padded leading dimensions, alpha and beta
 * (beta = 0 with NaN in C), C's padding left alone, against the long double
 * reference of tools/common/gemm_check.
 *
 * Without CUDA, or without a device, the statuses of the GPU calls are
 * checked (GK_ERR_NO_GPU, argument errors first) and the test then exits 77
 * (skipped) with a message. GK_TEST_SMALL=1 runs a short case list (for
 * compute-sanitizer, which is slow).
 *
 * The tensor-core rows (cuda.sgemm_3xtf32, cuda.sgemm_tf32) run the FFMA
 * kernel on shapes as small as these (docs/PRECISION.md, "Speed and the
 * choice of kernel"); ctest runs the test a second time with GK_TC_ALWAYS=1
 * and GK_TEST_ALGO=tf32 (test_cuda_gemm_tc), and compute-sanitizer with
 * GK_TC_ALWAYS=1, so that both ways are tested.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemm_check.h"
#include "test_util.h"
#ifdef GK_TEST_HAVE_CUDA
#include <cuda_runtime.h>
#endif

/* Statuses that hold with or without a device. */
static void check_statuses(int have_gpu)
{
	gk_context *ctx = NULL;
	TU_CHECK(gk_context_create(&ctx) == GK_OK, "gk_context_create");
	float x = 0;
	/* Argument errors come before anything else, device or not. */
	TU_CHECK(gk_sgemm_device(NULL, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, -1, 1, 1, 1.0f, &x, 1,
	                         &x, 1, 0.0f, &x, 1) == GK_ERR_NEGATIVE_SIZE, "negative m");
	TU_CHECK(gk_sgemm_device(NULL, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 2, 2, 1.0f, &x, 1,
	                         &x, 2, 0.0f, &x, 2) == GK_ERR_BAD_LD, "lda too small");
	TU_CHECK(gk_dgemm_device(NULL, GK_COL_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 2, 2, 1.0, NULL, 2,
	                         NULL, 2, 0.0, NULL, 2) == GK_ERR_NULL_POINTER, "NULL c");
	TU_CHECK(gk_sgemm_device(NULL, (gk_layout)7, GK_NO_TRANS, GK_NO_TRANS, 1, 1, 1, 1.0f, &x, 1,
	                         &x, 1, 0.0f, &x, 1) == GK_ERR_INVALID_VALUE, "bad layout");
	/* m = 0 or n = 0 touches nothing, on any machine. */
	TU_CHECK(gk_sgemm_device(NULL, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 0, 5, 5, 1.0f, NULL, 5,
	                         NULL, 5, 0.0f, NULL, 5) == GK_OK, "m = 0");
	/* A CPU algorithm cannot take device pointers. */
	TU_CHECK(gk_context_set_algo(ctx, "cpu.blocked") == GK_OK, "set cpu.blocked");
	gk_status st = gk_sgemm_device(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 1, 1, 1, 1.0f, &x,
	                               1, &x, 1, 0.0f, &x, 1);
	TU_CHECK(st == GK_ERR_UNSUPPORTED || st == GK_ERR_NO_GPU, "cpu algo on device: %d", st);
	TU_CHECK(strlen(gk_last_error()) > 0, "no message");
	TU_CHECK(gk_context_set_device(ctx, -2) == GK_ERR_INVALID_VALUE, "device -2");
	TU_CHECK(gk_context_set_device(ctx, -1) == GK_OK && gk_context_device(ctx) == -1, "device -1");
	TU_CHECK(gk_context_set_stream(NULL, NULL) == GK_ERR_NULL_POINTER, "stream on NULL ctx");
	if (!have_gpu) {
		TU_CHECK(gk_context_set_algo(ctx, "auto") == GK_OK, "auto");
		st = gk_sgemm_device(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 1, 1, 1, 1.0f, &x, 1,
		                     &x, 1, 0.0f, &x, 1);
		TU_CHECK(st == GK_ERR_NO_GPU, "device call without a GPU: %d (%s)", st, gk_last_error());
		TU_CHECK(gk_context_set_backend(ctx, GK_BACKEND_CUDA) == GK_OK, "backend");
		float a[4] = {1, 2, 3, 4}, c[4];
		st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 2, 2, 1.0f, a, 2, a, 2,
		                 0.0f, c, 2);
		TU_CHECK(st == GK_ERR_NO_GPU, "host call on CUDA without a GPU: %d (%s)", st,
		         gk_last_error());
		/* Every cuda.* row is listed, unavailable. */
		int ncuda = 0;
		for (int i = 0; i < gk_algo_count(); i++) {
			gk_algo_info ai;
			gk_algo_get(i, &ai);
			if (ai.backend != GK_BACKEND_CUDA)
				continue;
			ncuda++;
			TU_CHECK(!ai.available, "%s available without a GPU", ai.name);
			TU_CHECK(ai.dtypes != 0, "%s handles no type", ai.name);
			TU_CHECK(strncmp(ai.name, "cuda.", 5) == 0, "%s", ai.name);
			TU_CHECK(gk_context_set_algo(ctx, ai.name) == GK_OK, "set %s", ai.name);
			st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 2, 2, 1.0f, a, 2,
			                 a, 2, 0.0f, c, 2);
			TU_CHECK(st == GK_ERR_NO_GPU || st == GK_ERR_UNSUPPORTED, "%s without GPU: %d",
			         ai.name, st);
		}
		printf("cuda.* algorithms listed: %d\n", ncuda);
	}
	gk_context_destroy(ctx);
}

#ifdef GK_TEST_HAVE_CUDA

static const gk_trans transes[3] = {GK_NO_TRANS, GK_TRANS, GK_CONJ_TRANS};

typedef struct {
	int64_t m, n, k;
} shape;

/* The precision mode a row computes in (its bound); strict for "auto"
 * with the default mode, the only way this test calls "auto". */
static gk_precision row_mode(const char *algo)
{
	for (int i = 0; i < gk_algo_count(); i++) {
		gk_algo_info ai;
		if (gk_algo_get(i, &ai) == GK_OK && strcmp(ai.name, algo) == 0)
			return ai.precision;
	}
	return GK_PRECISION_STRICT;
}

/* One product on one path; returns 1 when it passed. */
static int run_case(const char *algo, gk_context *ctx, unsigned dt, gk_layout lay, gk_trans ta,
                    gk_trans tb, int64_t m, int64_t n, int64_t k, int64_t pad, double alpha,
                    double beta, int device_path, tu_rng *rng)
{
	const size_t es = dt == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	const int rm = lay == GK_ROW_MAJOR;
	const int64_t ra = ta == GK_NO_TRANS ? m : k, ca = ta == GK_NO_TRANS ? k : m;
	const int64_t rb = tb == GK_NO_TRANS ? k : n, cb = tb == GK_NO_TRANS ? n : k;
	const int64_t lda = (rm ? ca : ra) + pad, ldb = (rm ? cb : rb) + pad;
	const int64_t ldc = (rm ? n : m) + pad;
	const size_t na = tu_extent(lay, ra, ca, lda), nb = tu_extent(lay, rb, cb, ldb);
	const size_t nc = tu_extent(lay, m, n, ldc);
	void *a = malloc((na ? na : 1) * es), *b = malloc((nb ? nb : 1) * es);
	void *c0 = malloc(nc * es), *c = malloc(nc * es);
	if (dt == GK_DTYPE_F32) {
		tu_fill_f32(a, na, rng);
		tu_fill_f32(b, nb, rng);
		tu_fill_f32(c0, nc, rng);
	} else {
		tu_fill_f64(a, na, rng);
		tu_fill_f64(b, nb, rng);
		tu_fill_f64(c0, nc, rng);
	}
	/* beta = 0: C holds NaN, which must not reach the result (BLAS). The
	 * padding between rows keeps its own values and must stay as it is. */
	if (beta == 0) {
		if (dt == GK_DTYPE_F32)
			tu_poison_f32(c0, nc);
		else
			tu_poison_f64(c0, nc);
	}
	memcpy(c, c0, nc * es);
	const float af = (float)alpha, bf = (float)beta;
	gk_status st;
	if (device_path) {
		void *da, *db, *dc;
		CUDA_OK(cudaMalloc(&da, (na ? na : 1) * es));
		CUDA_OK(cudaMalloc(&db, (nb ? nb : 1) * es));
		CUDA_OK(cudaMalloc(&dc, nc * es));
		CUDA_OK(cudaMemcpy(da, a, na * es, cudaMemcpyHostToDevice));
		CUDA_OK(cudaMemcpy(db, b, nb * es, cudaMemcpyHostToDevice));
		CUDA_OK(cudaMemcpy(dc, c, nc * es, cudaMemcpyHostToDevice));
		if (dt == GK_DTYPE_F32)
			st = gk_sgemm_device(ctx, lay, ta, tb, m, n, k, af, da, lda, db, ldb, bf, dc, ldc);
		else
			st = gk_dgemm_device(ctx, lay, ta, tb, m, n, k, alpha, da, lda, db, ldb, beta, dc,
			                     ldc);
		CUDA_OK(cudaDeviceSynchronize());
		CUDA_OK(cudaMemcpy(c, dc, nc * es, cudaMemcpyDeviceToHost));
		CUDA_OK(cudaFree(da));
		CUDA_OK(cudaFree(db));
		CUDA_OK(cudaFree(dc));
	} else {
		if (dt == GK_DTYPE_F32)
			st = gk_sgemm_ex(ctx, lay, ta, tb, m, n, k, af, a, lda, b, ldb, bf, c, ldc);
		else
			st = gk_dgemm_ex(ctx, lay, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
	}
	int ok = st == GK_OK;
	TU_CHECK(ok, "%s %s %s path %lldx%lldx%lld: status %d (%s)", algo,
	         dt == GK_DTYPE_F32 ? "f32" : "f64", device_path ? "device" : "host", (long long)m,
	         (long long)n, (long long)k, st, gk_last_error());
	if (ok) {
		int64_t rows[GKC_SAMPLE_ROWS];
		const int64_t nrows = gkc_sample_rows(m, n, k, tu_next(rng), rows);
		double err;
		const double ae = dt == GK_DTYPE_F32 ? (double)af : alpha;
		const double be = dt == GK_DTYPE_F32 ? (double)bf : beta;
		gkc_gemm_check(dt, lay, ta, tb, m, n, k, ae, a, lda, b, ldb, be, c0, c, ldc,
		               nrows ? rows : NULL, nrows, &err);
		const double bound = gkc_gemm_bound_mode(dt, k, row_mode(algo), 2.0);
		ok = err <= bound;
		TU_CHECK(ok, "%s %s %s %s ta=%d tb=%d %lldx%lldx%lld pad %lld alpha %g beta %g: "
		         "error %.3e > bound %.3e",
		         algo, dt == GK_DTYPE_F32 ? "f32" : "f64", device_path ? "device" : "host",
		         rm ? "row" : "col", ta, tb, (long long)m, (long long)n, (long long)k,
		         (long long)pad, alpha, beta, err, bound);
		const int pad_ok = tu_padding_intact(dt, lay, m, n, c, c0, ldc);
		TU_CHECK(pad_ok, "%s: C's padding was written (%lldx%lld, ldc %lld)", algo,
		         (long long)m, (long long)n, (long long)ldc);
		ok = ok && pad_ok;
	}
	free(a);
	free(b);
	free(c0);
	free(c);
	return ok;
}

static void test_algo(const gk_algo_info *ai, int small, tu_rng *rng)
{
	static const shape full[] = {
		{1, 1, 1}, {1, 1, 9}, {7, 5, 3}, {2, 3, 300}, {17, 33, 9}, {64, 64, 64},
		{65, 63, 130}, {1, 257, 31}, {255, 1, 64}, {128, 96, 1}, {129, 257, 67},
		{300, 200, 150}, {513, 385, 129},
	};
	static const shape quick[] = {{7, 5, 3}, {65, 63, 33}, {130, 129, 67}};
	const shape *shapes = small ? quick : full;
	const int nshapes = small ? 3 : (int)(sizeof full / sizeof full[0]);
	static const double ab[][2] = {{1, 0}, {-1.5, 0.5}, {0.75, 1}, {2, 0}};
	gk_context *ctx;
	gk_context_create(&ctx);
	gk_context_set_algo(ctx, ai->name);
	int fails = 0, runs = 0;
	for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
		if (!(ai->dtypes & dt))
			continue;
		/* Every layout and transpose on one odd shape, both paths. */
		for (int l = 0; l < 2; l++)
			for (int x = 0; x < 3; x++)
				for (int y = 0; y < 3; y++) {
					if (small && (x == 2 || y == 2))
						continue;
					const int dp = (l + x + y) % 2 == 0;
					runs++;
					fails += !run_case(ai->name, ctx, dt, l ? GK_COL_MAJOR : GK_ROW_MAJOR,
					                   transes[x], transes[y], 33, 31, 19, (x + y) % 3,
					                   ab[(x + 2 * y) % 4][0], ab[(x + 2 * y) % 4][1], dp,
					                   rng);
				}
		/* Every shape with random choices. */
		for (int s = 0; s < nshapes; s++)
			for (int r = 0; r < (small ? 1 : 3); r++) {
				const uint64_t u = tu_next(rng);
				const int abi = (int)((u >> 8) % 4);
				runs++;
				fails += !run_case(ai->name, ctx, dt, (u & 1) ? GK_COL_MAJOR : GK_ROW_MAJOR,
				                   transes[(u >> 1) % 3], transes[(u >> 2) % 3], shapes[s].m,
				                   shapes[s].n, shapes[s].k, (int64_t)((u >> 4) % 5),
				                   ab[abi][0], ab[abi][1], (int)((u >> 3) & 1), rng);
			}
	}
	/* The device path's trivial cases: alpha = 0 scales C on the device
	 * without reading A or B (NULL here). */
	if (ai->dtypes & GK_DTYPE_F32) {
		float h[6] = {1, 2, 3, 4, 5, 6}, *d;
		CUDA_OK(cudaMalloc((void **)&d, sizeof h));
		CUDA_OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
		gk_status st = gk_sgemm_device(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 3, 4, 0.0f,
		                               NULL, 4, NULL, 3, 2.0f, d, 3);
		CUDA_OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
		TU_CHECK(st == GK_OK && h[0] == 2 && h[5] == 12, "%s: alpha = 0 (status %d)", ai->name, st);
		st = gk_sgemm_device(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 3, 0, 1.0f, NULL, 1,
		                     NULL, 3, 0.0f, d, 3);
		CUDA_OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
		TU_CHECK(st == GK_OK && h[0] == 0 && h[5] == 0, "%s: k = 0, beta = 0", ai->name);
		CUDA_OK(cudaFree(d));
	}
	printf("%-28s %3d products, %d failed\n", ai->name, runs, fails);
	fflush(stdout);
	gk_context_destroy(ctx);
}

/* The production kernels on the shapes their special paths serve: long k
 * with a tiny C (split along k), short k with a large C, on a stream of the
 * caller's. */
static void test_production(tu_rng *rng)
{
	static const char *names[] = {"cuda.sgemm", "cuda.dgemm"};
	cudaStream_t s;
	CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	for (int i = 0; i < 2; i++) {
		gk_context *ctx;
		gk_context_create(&ctx);
		if (gk_context_set_algo(ctx, names[i]) != GK_OK) {
			TU_CHECK(0, "%s is not registered", names[i]);
			gk_context_destroy(ctx);
			continue;
		}
		gk_context_set_stream(ctx, s);
		gk_context_set_device(ctx, 0);
		const unsigned dt = i == 0 ? GK_DTYPE_F32 : GK_DTYPE_F64;
		run_case(names[i], ctx, dt, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 64, 64, 100003, 0, 1.0,
		         0.0, 1, rng);
		run_case(names[i], ctx, dt, GK_COL_MAJOR, GK_TRANS, GK_NO_TRANS, 5, 3, 70001, 1, -1.0, 0.5,
		         1, rng);
		run_case(names[i], ctx, dt, GK_ROW_MAJOR, GK_NO_TRANS, GK_TRANS, 1031, 1029, 64, 0, 1.0,
		         1.0, 1, rng);
		run_case(names[i], ctx, dt, GK_COL_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 1024, 1024, 1024, 0,
		         1.0, 0.0, 0, rng);
		gk_context_destroy(ctx);
	}
	CUDA_OK(cudaStreamDestroy(s));
	/* "auto" with the CUDA backend is the production pair. */
	gk_context *ctx;
	gk_context_create(&ctx);
	gk_context_set_backend(ctx, GK_BACKEND_CUDA);
	run_case("auto (CUDA backend)", ctx, GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 97,
	         101, 103, 2, 1.0, 0.0, 0, rng);
	run_case("auto (CUDA backend)", ctx, GK_DTYPE_F64, GK_COL_MAJOR, GK_TRANS, GK_TRANS, 97, 101,
	         103, 2, 1.0, 0.0, 1, rng);
	/* A product whose leading dimensions are too small is refused before
	 * anything is read or copied (the pointers cover one element only).
	 * Products larger than the device's memory are valid: the out-of-core
	 * driver streams them (tests/test_cuda_hostmem.c). */
	{
		float one = 1;
		gk_context *big;
		gk_context_create(&big);
		gk_context_set_backend(big, GK_BACKEND_CUDA);
		const int64_t huge = 400000; /* 3 x 640 GB of float */
		gk_status hs = gk_sgemm_ex(big, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, huge, huge, huge,
		                           1.0f, &one, 1, &one, 1, 0.0f, &one, 1);
		TU_CHECK(hs == GK_ERR_BAD_LD, "huge product, bad ld first: %d", hs);
		gk_context_destroy(big);
	}
	/* A device that is not there. */
	gk_context_set_device(ctx, 1000);
	float x = 1, y = 1, z = 1;
	gk_status st = gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 1, 1, 1, 1.0f, &x, 1,
	                           &y, 1, 0.0f, &z, 1);
	TU_CHECK(st == GK_ERR_INVALID_VALUE, "device 1000: %d (%s)", st, gk_last_error());
	gk_context_destroy(ctx);
}
#endif

int main(void)
{
	gk_info info;
	gk_get_info(&info);
	const int have_gpu = info.cuda_built && info.gpu_count > 0;
	check_statuses(have_gpu);
#ifdef GK_TEST_HAVE_CUDA
	if (have_gpu) {
		const char *only = getenv("GK_TEST_ALGO");
		const char *sm = getenv("GK_TEST_SMALL");
		const int small = sm != NULL && *sm == '1';
		tu_rng rng;
		tu_rng_init(&rng, tu_seed());
		printf("device 0: %s\n", info.gpu_names[0]);
		for (int i = 0; i < gk_algo_count(); i++) {
			gk_algo_info ai;
			gk_algo_get(i, &ai);
			if (ai.backend != GK_BACKEND_CUDA || (only && strstr(ai.name, only) == NULL))
				continue;
			TU_CHECK(ai.available, "%s unavailable with a GPU present", ai.name);
			if (ai.available)
				test_algo(&ai, small, &rng);
		}
		if (!small && only == NULL)
			test_production(&rng);
	}
#endif
	const int rc = tu_finish("test_cuda_gemm");
	if (rc == 0 && !have_gpu) {
		printf("skipped: %s\n", info.cuda_built ? "no CUDA device is present"
		                                        : "gemmkit was built without CUDA");
		return 77;
	}
	return rc;
}
