/*
 * test_cuda_gf256.c - GF(2^8) products and Reed-Solomon coding on the GPU,
 * byte for byte against the CPU's gk_gf256_gemm (itself checked against an
 * independent reference by test_gf256):
 *  - every kernel of gk_gf256_gemm_device (the production kernel and the
 *    ladder, with default and odd run-time tiles) on random shapes, m and k
 *    up to 255 (k + m up to 255 too), lengths 0 .. 300 and large ones,
 *    unaligned starts and padded leading dimensions; the padding of C must
 *    be left alone;
 *  - gk_gf256_gemm_ex / _rows_ex with a CUDA context from pageable and from
 *    pinned host buffers, over several pipeline chunks;
 *  - gk_rs_encode_ex on the GPU equal to the CPU's parity; every erasure
 *    pattern of small codes rebuilt on the GPU; shards encoded on the CPU
 *    rebuilt on the GPU and the reverse;
 *  - the statuses with and without a device.
 * Without CUDA or a device the statuses are checked and the test exits 77.
 * GK_TEST_SMALL=1 runs a short list (for compute-sanitizer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"
#ifdef GK_TEST_HAVE_CUDA
#include <cuda_runtime.h>
#endif

static int small;

static void check_statuses(int have_gpu)
{
	uint8_t x[4] = {1, 2, 3, 4};
	TU_CHECK(gk_gf256_algo_count() == 6, "algo count %d", gk_gf256_algo_count());
	TU_CHECK(gk_gf256_algo_name(0) && strcmp(gk_gf256_algo_name(0), "cuda.gf256") == 0, "name 0");
	TU_CHECK(gk_gf256_algo_name(6) == NULL && gk_gf256_algo_name(-1) == NULL, "name out of range");
	TU_CHECK(gk_gf256_gemm_device(NULL, "cuda.nope", 1, 1, 1, x, 1, x, 1, x, 1) ==
	         GK_ERR_UNKNOWN_ALGO, "unknown kernel");
	TU_CHECK(gk_gf256_gemm_device(NULL, "cuda.gf_tiled:0x4x4", 1, 1, 1, x, 1, x, 1, x, 1) ==
	         GK_ERR_INVALID_VALUE, "bad tiles");
	TU_CHECK(gk_gf256_gemm_device(NULL, "cuda.gf_naive:2x2x2", 1, 1, 1, x, 1, x, 1, x, 1) ==
	         GK_ERR_INVALID_VALUE, "tiles on a kernel without them");
	TU_CHECK(gk_gf256_gemm_device(NULL, NULL, -1, 1, 1, x, 1, x, 1, x, 1) ==
	         GK_ERR_NEGATIVE_SIZE, "negative m");
	TU_CHECK(gk_gf256_gemm_device(NULL, NULL, 2, 4, 2, x, 2, x, 3, x, 4) == GK_ERR_BAD_LD,
	         "ldb < n");
	TU_CHECK(gk_gf256_gemm_device(NULL, "cuda.gf_square", 0, 4, 2, NULL, 2, NULL, 4, NULL, 4) ==
	         GK_OK, "m = 0 touches nothing");
	gk_context *ctx = NULL, *cpu = NULL;
	TU_CHECK(gk_context_create(&ctx) == GK_OK && gk_context_create(&cpu) == GK_OK, "contexts");
	TU_CHECK(gk_context_set_backend(ctx, GK_BACKEND_CUDA) == GK_OK, "backend");
	TU_CHECK(gk_context_set_backend(cpu, GK_BACKEND_CPU) == GK_OK, "backend cpu");
	TU_CHECK(gk_gf256_gemm_device(cpu, NULL, 1, 1, 1, x, 1, x, 1, x, 1) == GK_ERR_UNSUPPORTED,
	         "CPU context on device buffers");
	gk_rs *rs = NULL;
	TU_CHECK(gk_rs_create(&rs, 2, 1, GK_RS_CAUCHY) == GK_OK, "rs");
	const uint8_t *data[2] = {x, x + 1};
	uint8_t par[1], *parity[1] = {par};
	int ok = 0;
	const uint8_t *all[3] = {x, x + 1, x + 2};
	TU_CHECK(gk_rs_verify_ex(ctx, rs, 1, all, &ok) == GK_ERR_UNSUPPORTED, "verify on CUDA");
	if (!have_gpu) {
		gk_status st = gk_gf256_gemm_device(NULL, NULL, 1, 1, 1, x, 1, x, 1, x, 1);
		TU_CHECK(st == GK_ERR_NO_GPU, "device call without a GPU: %d", st);
		st = gk_rs_encode_ex(ctx, rs, 1, data, parity);
		TU_CHECK(st == GK_ERR_NO_GPU, "rs encode on CUDA without a GPU: %d", st);
		st = gk_gf256_gemm_ex(ctx, 1, 1, 1, x, 1, x, 1, par, 1);
		TU_CHECK(st == GK_ERR_NO_GPU, "gemm_ex on CUDA without a GPU: %d", st);
	}
	gk_rs_destroy(rs);
	gk_context_destroy(ctx);
	gk_context_destroy(cpu);
}

#ifdef GK_TEST_HAVE_CUDA

static void fill(uint8_t *p, size_t n, tu_rng *r)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)tu_next(r);
}

static void *xalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL) {
		fprintf(stderr, "test_cuda_gf256: out of memory\n");
		exit(2);
	}
	return p;
}

#define CU(call) CUDA_OK(call)

/* One product on the device with kernel `algo`: B at offset ob of its
 * buffer, C at oc, padded leading dimensions; C's padding must survive. */
static void one_device(const char *algo, int64_t m, int64_t n, int64_t k, int ob, int oc,
                       int padb, int padc, tu_rng *r)
{
	const int64_t n1 = n > 0 ? n : 1; /* a leading dimension is at least 1 */
	const int64_t lda = k + (int64_t)(tu_next(r) % 3), ldb = n1 + padb, ldc = n1 + padc;
	const size_t nb = (size_t)(k * ldb + ob), nc = (size_t)(m * ldc + oc);
	uint8_t *a = xalloc((size_t)(m * lda)), *b = xalloc(nb), *c = xalloc(nc);
	uint8_t *ref = xalloc(nc), *got = xalloc(nc);
	fill(a, (size_t)(m * lda), r);
	fill(b, nb, r);
	fill(c, nc, r);
	memcpy(ref, c, nc);
	TU_CHECK(gk_gf256_gemm(m, n, k, a, lda, b + ob, ldb, ref + oc, ldc) == GK_OK, "cpu");
	uint8_t *db, *dc;
	CU(cudaMalloc((void **)&db, nb));
	CU(cudaMalloc((void **)&dc, nc));
	CU(cudaMemcpy(db, b, nb, cudaMemcpyHostToDevice));
	CU(cudaMemcpy(dc, c, nc, cudaMemcpyHostToDevice));
	gk_status st = gk_gf256_gemm_device(NULL, algo, m, n, k, a, lda, db + ob, ldb, dc + oc, ldc);
	CU(cudaDeviceSynchronize());
	CU(cudaMemcpy(got, dc, nc, cudaMemcpyDeviceToHost));
	TU_CHECK(st == GK_OK, "%s m=%lld n=%lld k=%lld: %s", algo, (long long)m, (long long)n,
	         (long long)k, gk_last_error());
	TU_CHECK(memcmp(got, ref, nc) == 0,
	         "%s m=%lld n=%lld k=%lld ob=%d oc=%d ldb=%lld ldc=%lld: bytes differ from the CPU",
	         algo, (long long)m, (long long)n, (long long)k, ob, oc, (long long)ldb,
	         (long long)ldc);
	CU(cudaFree(db));
	CU(cudaFree(dc));
	free(a), free(b), free(c), free(ref), free(got);
}

static void test_kernels(tu_rng *r)
{
	static const char *const algos[] = {
		"cuda.gf256", "cuda.gf_naive", "cuda.gf_square", "cuda.gf_tiled", "cuda.gf_packed4",
		"cuda.gf_packed8", "cuda.gf_tiled:3x50x7", "cuda.gf_packed4:5x33x3",
		"cuda.gf_packed8:2x100x255", "cuda.gf_tiled:1x1024x1"};
	const int na = (int)(sizeof algos / sizeof algos[0]);
	/* Fixed shapes: k + m up to 255, the extremes of m and k. */
	static const int64_t shapes[][3] = {{4, 4096, 10}, {255, 37, 1}, {1, 1000, 255},
	                                    {200, 333, 55}, {16, 4099, 239}, {17, 513, 3},
	                                    {33, 77, 33}, {128, 300, 127}};
	for (int ai = 0; ai < na; ai++) {
		for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
			if (small && s > 2)
				break;
			one_device(algos[ai], shapes[s][0], shapes[s][1], shapes[s][2], 0, 0, 0, 0, r);
			one_device(algos[ai], shapes[s][0], shapes[s][1], shapes[s][2],
			           (int)(tu_next(r) % 16), (int)(tu_next(r) % 16), (int)(tu_next(r) % 20),
			           (int)(tu_next(r) % 20), r);
		}
		/* Random small shapes, lengths 0 .. 300. */
		const int cases = small ? 4 : 60;
		for (int i = 0; i < cases; i++) {
			const int64_t m = 1 + (int64_t)(tu_next(r) % 24), k = 1 + (int64_t)(tu_next(r) % 40);
			const int64_t n = (int64_t)(tu_next(r) % 301);
			const int al = (int)(tu_next(r) % 2);
			one_device(algos[ai], m, n, k, al ? 0 : (int)(tu_next(r) % 16),
			           al ? 0 : (int)(tu_next(r) % 16), al ? 0 : (int)(tu_next(r) % 9),
			           al ? 0 : (int)(tu_next(r) % 9), r);
		}
	}
	/* Every length 0 .. 300 on the production kernel, aligned and not. */
	for (int64_t n = 0; n <= 300; n += small ? 37 : 1)
		one_device("cuda.gf256", 4, n, 10, (int)(n % 2) * 3, (int)(n % 3) * 5, 0, 0, r);
	/* Large: many blocks and grid-stride passes, a partial vector at the end. */
	one_device("cuda.gf256", 4, (small ? 1 << 18 : 48 << 20) + 7, 10, 0, 0, 0, 0, r);
	one_device("cuda.gf256", 20, (small ? 1 << 16 : 3 << 20) + 13, 12, 0, 0, 16, 32, r);
	one_device("cuda.gf256", 3, (small ? 1 << 16 : 1 << 22) + 5, 5, 1, 2, 0, 0, r);
	if (!small) {
		one_device("cuda.gf_packed8", 4, (1 << 22) + 3, 10, 0, 0, 0, 0, r);
		one_device("cuda.gf_tiled", 4, (1 << 20) + 3, 10, 0, 0, 0, 0, r);
	}
}

/* The host paths: pageable and pinned rows, over several pipeline chunks. */
static void one_host(int64_t m, int64_t n, int64_t k, int pinned, tu_rng *r)
{
	gk_context *ctx = NULL;
	TU_CHECK(gk_context_create(&ctx) == GK_OK, "ctx");
	gk_context_set_backend(ctx, GK_BACKEND_CUDA);
	uint8_t *a = xalloc((size_t)(m * k)), *ref = xalloc((size_t)(m * n) + 1);
	uint8_t *b, *c;
	const size_t nb = (size_t)(k * n) + 1, nc = (size_t)(m * n) + 1;
	if (pinned) {
		CU(cudaMallocHost((void **)&b, nb));
		CU(cudaMallocHost((void **)&c, nc));
	} else {
		b = xalloc(nb);
		c = xalloc(nc);
	}
	fill(a, (size_t)(m * k), r);
	fill(b, nb, r);
	memset(c, 0xA5, nc);
	memset(ref, 0xA5, nc);
	TU_CHECK(gk_gf256_gemm(m, n, k, a, k, b, n > 0 ? n : 1, ref, n > 0 ? n : 1) == GK_OK, "cpu");
	gk_status st = gk_gf256_gemm_ex(ctx, m, n, k, a, k, b, n > 0 ? n : 1, c, n > 0 ? n : 1);
	TU_CHECK(st == GK_OK, "gemm_ex CUDA m=%lld n=%lld k=%lld pinned=%d: %s", (long long)m,
	         (long long)n, (long long)k, pinned, gk_last_error());
	TU_CHECK(memcmp(c, ref, nc) == 0, "gemm_ex CUDA m=%lld n=%lld k=%lld pinned=%d: bytes differ",
	         (long long)m, (long long)n, (long long)k, pinned);
	if (pinned) {
		CU(cudaFreeHost(b));
		CU(cudaFreeHost(c));
	} else {
		free(b), free(c);
	}
	free(a), free(ref);
	gk_context_destroy(ctx);
}

static void test_host(tu_rng *r)
{
	for (int64_t n = 0; n <= 300; n += small ? 61 : 7)
		one_host(1 + n % 5, n, 1 + n % 11, (int)(n % 2), r);
	one_host(4, small ? 100000 : (5 << 20) + 7, 10, 0, r);
	one_host(4, small ? 100000 : (5 << 20) + 7, 10, 1, r);
	if (!small) {
		one_host(4, (7 << 20) + 1, 28, 0, r);
		one_host(55, 70001, 200, 1, r);
	}
}

/* Encode on one side, lose shards, rebuild on the other. */
static void rs_case(int k, int m, int64_t len, int enc_gpu, tu_rng *r, int every_pattern)
{
	gk_context *gpu = NULL;
	gk_context_create(&gpu);
	gk_context_set_backend(gpu, GK_BACKEND_CUDA);
	gk_rs *rs = NULL;
	TU_CHECK(gk_rs_create(&rs, k, m, GK_RS_CAUCHY) == GK_OK, "rs_create %d+%d", k, m);
	const int n = k + m;
	uint8_t **sh = xalloc(sizeof(uint8_t *) * (size_t)n), **orig = xalloc(sizeof(uint8_t *) * (size_t)n);
	for (int i = 0; i < n; i++) {
		sh[i] = xalloc((size_t)len);
		orig[i] = xalloc((size_t)len);
	}
	for (int i = 0; i < k; i++)
		fill(sh[i], (size_t)len, r);
	/* Parity on the CPU as the reference; on the GPU it must be the same. */
	TU_CHECK(gk_rs_encode(rs, len, (const uint8_t *const *)sh, sh + k) == GK_OK, "cpu encode");
	for (int i = 0; i < n; i++)
		memcpy(orig[i], sh[i], (size_t)len);
	if (enc_gpu) {
		for (int i = k; i < n; i++)
			memset(sh[i], 0x5A, (size_t)len);
		gk_status st = gk_rs_encode_ex(gpu, rs, len, (const uint8_t *const *)sh, sh + k);
		TU_CHECK(st == GK_OK, "gpu encode %d+%d len=%lld: %s", k, m, (long long)len,
		         gk_last_error());
		int same = 1;
		for (int i = k; i < n; i++)
			same &= memcmp(sh[i], orig[i], (size_t)len) == 0;
		TU_CHECK(same, "gpu parity %d+%d len=%lld differs from the CPU's", k, m, (long long)len);
	}
	/* Patterns: every subset of at most m lost shards (every_pattern), else a few. */
	const int patterns = every_pattern ? 1 << n : 6;
	uint8_t present[256];
	for (int p = 1; p < patterns; p++) {
		int lost = 0;
		for (int i = 0; i < n; i++) {
			present[i] = every_pattern ? !((p >> i) & 1) : 1;
		}
		if (!every_pattern)
			for (int t = 0; t < m; t++)
				present[tu_next(r) % (uint64_t)n] = 0;
		for (int i = 0; i < n; i++)
			lost += !present[i];
		if (lost > m || lost == 0)
			continue;
		for (int i = 0; i < n; i++)
			if (!present[i])
				memset(sh[i], 0xEE, (size_t)len);
		gk_status st = enc_gpu ? gk_rs_reconstruct(rs, len, sh, present, 0)
		                       : gk_rs_reconstruct_ex(gpu, rs, len, sh, present, 0);
		TU_CHECK(st == GK_OK, "rebuild %d+%d pattern %d on the %s: %s", k, m, p,
		         enc_gpu ? "CPU" : "GPU", gk_last_error());
		int same = 1;
		for (int i = 0; i < n; i++)
			same &= memcmp(sh[i], orig[i], (size_t)len) == 0;
		TU_CHECK(same, "rebuild %d+%d len=%lld pattern %#x on the %s: wrong bytes", k, m,
		         (long long)len, p, enc_gpu ? "CPU" : "GPU");
	}
	for (int i = 0; i < n; i++)
		free(sh[i]), free(orig[i]);
	free(sh), free(orig);
	gk_rs_destroy(rs);
	gk_context_destroy(gpu);
}

static void test_rs(tu_rng *r)
{
	rs_case(4, 2, 1000, 0, r, 1);  /* every pattern rebuilt on the GPU */
	rs_case(3, 3, 333, 1, r, 1);   /* GPU parity, every pattern rebuilt on the CPU */
	if (small)
		return;
	rs_case(5, 4, 4097, 0, r, 1);
	rs_case(10, 4, (3 << 20) + 1, 0, r, 0);
	rs_case(10, 4, (3 << 20) + 1, 1, r, 0);
	rs_case(28, 4, 1 << 20, 1, r, 0);
	rs_case(200, 55, 4099, 0, r, 0);
	rs_case(200, 55, 4099, 1, r, 0);
	for (int64_t len = 1; len <= 300; len += 17)
		rs_case(6, 3, len, (int)(len % 2), r, 0);
}

#endif /* GK_TEST_HAVE_CUDA */

int main(void)
{
	const char *s = getenv("GK_TEST_SMALL");
	small = s != NULL && s[0] == '1';
	int have_gpu = 0;
#ifdef GK_TEST_HAVE_CUDA
	int count = 0;
	have_gpu = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
	cudaGetLastError();
#endif
	check_statuses(have_gpu);
	if (!have_gpu) {
		int rc = tu_finish("test_cuda_gf256");
		if (rc != 0)
			return rc;
		printf("test_cuda_gf256: skipped (no CUDA device)\n");
		return 77;
	}
#ifdef GK_TEST_HAVE_CUDA
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	test_kernels(&r);
	test_host(&r);
	test_rs(&r);
#endif
	return tu_finish("test_cuda_gf256");
}
