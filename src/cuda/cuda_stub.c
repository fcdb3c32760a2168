/* cuda_stub.c - the CUDA backend of a build without CUDA: no device is
 * there. The CUDA rows of the registry (algos_cuda.c) are still listed,
 * unavailable; the device-pointer API returns GK_ERR_NO_GPU. */
#include <stdio.h>
#include "gk_internal.h"

int gk_cuda_built(void)
{
	return 0;
}

int gk_cuda_device_count(void)
{
	return 0;
}

void gk_cuda_device_name(int dev, char *buf, size_t len)
{
	if (len > 0)
		snprintf(buf, len, "no CUDA device %d", dev);
}

int gk_cuda_available(void)
{
	return 0;
}

/* The drivers: without CUDA every GPU call ends here. */
static gk_status no_gpu(const char *fn)
{
	return gk_set_error(GK_ERR_NO_GPU, "%s: gemmkit was built without CUDA", fn);
}

gk_status gk_cuda_sgemm_device_run(gk_cuda_sgemm_fn fn, int device, void *stream, int64_t m,
                                   int64_t n, int64_t k, float alpha, const float *a,
                                   int64_t rs_a, int64_t cs_a, const float *b, int64_t rs_b,
                                   int64_t cs_b, float beta, float *c, int64_t rs_c)
{
	(void)fn; (void)device; (void)stream; (void)m; (void)n; (void)k; (void)alpha; (void)a;
	(void)rs_a; (void)cs_a; (void)b; (void)rs_b; (void)cs_b; (void)beta; (void)c; (void)rs_c;
	return no_gpu("gk_sgemm_device");
}

gk_status gk_cuda_dgemm_device_run(gk_cuda_dgemm_fn fn, int device, void *stream, int64_t m,
                                   int64_t n, int64_t k, double alpha, const double *a,
                                   int64_t rs_a, int64_t cs_a, const double *b, int64_t rs_b,
                                   int64_t cs_b, double beta, double *c, int64_t rs_c)
{
	(void)fn; (void)device; (void)stream; (void)m; (void)n; (void)k; (void)alpha; (void)a;
	(void)rs_a; (void)cs_a; (void)b; (void)rs_b; (void)cs_b; (void)beta; (void)c; (void)rs_c;
	return no_gpu("gk_dgemm_device");
}

gk_status gk_cuda_sgemm_host_run(gk_cuda_sgemm_fn fn, const gk_cuda_host_opts *o, int64_t m,
                                 int64_t n, int64_t k, float alpha, const float *a, int64_t rs_a,
                                 int64_t cs_a, const float *b, int64_t rs_b, int64_t cs_b,
                                 float beta, float *c, int64_t rs_c)
{
	(void)fn; (void)o; (void)m; (void)n; (void)k; (void)alpha; (void)a;
	(void)rs_a; (void)cs_a; (void)b; (void)rs_b; (void)cs_b; (void)beta; (void)c; (void)rs_c;
	return no_gpu("gk_sgemm");
}

gk_status gk_cuda_dgemm_host_run(gk_cuda_dgemm_fn fn, const gk_cuda_host_opts *o, int64_t m,
                                 int64_t n, int64_t k, double alpha, const double *a, int64_t rs_a,
                                 int64_t cs_a, const double *b, int64_t rs_b, int64_t cs_b,
                                 double beta, double *c, int64_t rs_c)
{
	(void)fn; (void)o; (void)m; (void)n; (void)k; (void)alpha; (void)a;
	(void)rs_a; (void)cs_a; (void)b; (void)rs_b; (void)cs_b; (void)beta; (void)c; (void)rs_c;
	return no_gpu("gk_dgemm");
}

/* GF(2^8) on the GPU (src/cuda/gf256/gf256_cuda.h): no device either. */
#include "gf256/gf256_cuda.h"

gk_status gk_gf256_cuda_device_run(int kernel, const gk_gf_cuda_tiles *tiles, int device,
                                   void *stream, int64_t m, int64_t n, int64_t k,
                                   const uint8_t *a, int64_t lda, const uint8_t *b, int64_t ldb,
                                   uint8_t *c, int64_t ldc)
{
	(void)kernel; (void)tiles; (void)device; (void)stream; (void)m; (void)n; (void)k; (void)a;
	(void)lda; (void)b; (void)ldb; (void)c; (void)ldc;
	return no_gpu("gk_gf256_gemm_device");
}

gk_status gk_gf256_cuda_host_run(int device, int threads, int64_t m, int64_t n, int64_t k,
                                 const uint8_t *a, int64_t lda, const uint8_t *const *src,
                                 uint8_t *const *dst)
{
	(void)device; (void)threads; (void)m; (void)n; (void)k; (void)a; (void)lda; (void)src;
	(void)dst;
	return no_gpu("gk_gf256_gemm (CUDA backend)");
}
