/*
 * gf_device.cu - the CUDA driver of a GF(2^8) product on device buffers:
 * make the device current, put the coefficient data the kernel needs on the
 * device (A as bytes for the ladder, the byte-permute tables for the
 * production kernel; stream-ordered allocation, copy and free), launch.
 * Asynchronous on the caller's stream; the caller's device is restored.
 */
#include <stdlib.h>
#include "gf_common.cuh"

static const struct {
	gk_status (*fn)(const gk_gf_cuda_args *);
} launchers[GK_GF_CUDA_NKERNELS] = {
	{gk_gf_cuda_naive}, {gk_gf_cuda_square}, {gk_gf_cuda_tiled},
	{gk_gf_cuda_packed4}, {gk_gf_cuda_packed8}, {gk_gf_cuda_production},
};

extern "C" gk_status gk_gf256_cuda_device_run(int kernel, const gk_gf_cuda_tiles *tiles,
                                              int device, void *stream, int64_t m, int64_t n,
                                              int64_t k, const uint8_t *a, int64_t lda,
                                              const uint8_t *b, int64_t ldb, uint8_t *c,
                                              int64_t ldc)
{
	static const char fn[] = "gk_gf256_gemm_device";
	GK_RETURN_IF(!gk_cuda_available(), GK_ERR_NO_GPU, "%s: no CUDA device is present", fn);
	GK_RETURN_IF(kernel < 0 || kernel >= GK_GF_CUDA_NKERNELS, GK_ERR_INVALID_VALUE,
	             "%s: kernel %d is not one of the GF(2^8) kernels", fn, kernel);
	int prev;
	GK_CUDA_TRY(fn, cudaGetDevice(&prev));
	const int cur = device >= 0 ? device : prev;
	if (cur != prev) {
		const int count = gk_cuda_device_count();
		GK_RETURN_IF(cur >= count, GK_ERR_INVALID_VALUE, "%s: no CUDA device %d (%d present)",
		             fn, cur, count);
		GK_CUDA_TRY(fn, cudaSetDevice(cur));
	}
	cudaStream_t s = (cudaStream_t)stream;
	if (k == 0) { /* C = 0 */
		cudaError_t e0 = cudaMemset2DAsync(c, (size_t)ldc, 0, (size_t)n, (size_t)m, s);
		if (cur != prev)
			cudaSetDevice(prev);
		return e0 == cudaSuccess ? GK_OK : gk_cuda_status(e0, fn, "cudaMemset2DAsync");
	}
	gk_gf_cuda_args p = {};
	p.m = m, p.n = n, p.k = k;
	p.b = b, p.ldb = ldb, p.c = c, p.ldc = ldc;
	p.stream = stream;
	if (tiles != NULL)
		p.tiles = *tiles;
	gk_status st = GK_OK;
	void *host = NULL, *dev = NULL;
	const int prod = kernel == GK_GF_CUDA_PRODUCTION;
	const size_t bytes = prod ? gk_gf_prmt_table_bytes(m, k) : (size_t)(m * k);
	cudaError_t e = cudaDeviceGetAttribute(&p.sm_count, cudaDevAttrMultiProcessorCount, cur);
	if (e != cudaSuccess) {
		st = gk_cuda_status(e, fn, "cudaDeviceGetAttribute");
		goto done;
	}
	host = malloc(bytes);
	if (host == NULL) {
		st = gk_set_error(GK_ERR_NO_MEMORY, "%s: no memory for %zu bytes of tables", fn, bytes);
		goto done;
	}
	if (prod) {
		gk_gf_prmt_build_table(m, k, a, lda, host);
	} else {
		for (int64_t i = 0; i < m; i++)
			for (int64_t j = 0; j < k; j++)
				((uint8_t *)host)[i * k + j] = a[i * lda + j];
	}
	if ((e = cudaMallocAsync(&dev, bytes, s)) != cudaSuccess) {
		dev = NULL;
		st = gk_cuda_status(e, fn, "cudaMallocAsync");
		goto done;
	}
	/* From pageable memory the copy has left `host` when it returns. */
	if ((e = cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s)) != cudaSuccess) {
		st = gk_cuda_status(e, fn, "cudaMemcpyAsync");
		goto done;
	}
	if (prod)
		p.tab = dev;
	else
		p.da = (const uint8_t *)dev;
	st = launchers[kernel].fn(&p);
done:
	if (dev != NULL) {
		e = cudaFreeAsync(dev, s);
		if (e != cudaSuccess && st == GK_OK)
			st = gk_cuda_status(e, fn, "cudaFreeAsync");
	}
	free(host); /* a copy from pageable memory has read it when it returns */
	if (cur != prev)
		cudaSetDevice(prev);
	return st;
}
