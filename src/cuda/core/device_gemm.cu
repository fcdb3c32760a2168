/*
 * device_gemm.cu - the CUDA driver of a call whose operands are already in
 * device memory: make the context's device current for the call, do the
 * trivial cases on the device (alpha = 0 or k = 0: C = beta C, beta = 0
 * writing zeros without reading C), then hand the canonical problem to the
 * algorithm's launcher. Everything is asynchronous on the given stream; the
 * caller's current device is restored before returning.
 */
#include "cuda_check.cuh"

/* C := beta C on an m x n row-major matrix; beta = 0 writes zeros. */
template <typename T>
__global__ void scale_rows(int64_t m, int64_t n, T beta, T *c, int64_t rs_c)
{
	const int64_t total = m * n;
	for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total;
	     e += (int64_t)gridDim.x * blockDim.x) {
		const int64_t i = e / n, j = e - i * n;
		T *p = c + i * rs_c + j;
		*p = beta == T(0) ? T(0) : beta * *p;
	}
}

/* Make `device` current (-1: keep the current one), remember the previous
 * one in *prev, and read its multiprocessor count. */
static gk_status enter_device(const char *fn, int device, int *prev, int *cur, int *sm_count)
{
	if (!gk_cuda_available())
		return gk_set_error(GK_ERR_NO_GPU, "%s: no CUDA device is present", fn);
	GK_CUDA_TRY(fn, cudaGetDevice(prev));
	*cur = *prev;
	if (device >= 0 && device != *prev) {
		const int count = gk_cuda_device_count();
		GK_RETURN_IF(device >= count, GK_ERR_INVALID_VALUE,
		             "%s: the context names CUDA device %d, but %d device%s present", fn, device,
		             count, count == 1 ? " is" : "s are");
		GK_CUDA_TRY(fn, cudaSetDevice(device));
		*cur = device;
	}
	cudaError_t e = cudaDeviceGetAttribute(sm_count, cudaDevAttrMultiProcessorCount, *cur);
	if (e != cudaSuccess) {
		if (*cur != *prev)
			cudaSetDevice(*prev);
		return gk_cuda_status(e, fn, "cudaDeviceGetAttribute(MultiProcessorCount)");
	}
	return GK_OK;
}

template <typename T, typename Args, typename Fn>
static gk_status device_run(const char *fn_name, Fn fn, int device, void *stream, int64_t m,
                            int64_t n, int64_t k, T alpha, const T *a, int64_t rs_a, int64_t cs_a,
                            const T *b, int64_t rs_b, int64_t cs_b, T beta, T *c, int64_t rs_c)
{
	int prev, cur, sms;
	GK_FORWARD(enter_device(fn_name, device, &prev, &cur, &sms));
	gk_status st = GK_OK;
	cudaStream_t s = (cudaStream_t)stream;
	if (alpha == T(0) || k == 0) {
		if (beta != T(1)) {
			const int64_t total = m * n;
			const int threads = 256;
			int64_t blocks = (total + threads - 1) / threads;
			if (blocks > (int64_t)sms * 32)
				blocks = (int64_t)sms * 32;
			scale_rows<T><<<(unsigned)blocks, threads, 0, s>>>(m, n, beta, c, rs_c);
			cudaError_t e = cudaGetLastError();
			if (e != cudaSuccess)
				st = gk_cuda_status(e, fn_name, "scale_rows<<<>>>");
		}
	} else {
		const Args p = {m, n, k, alpha, beta, a, rs_a, cs_a, b, rs_b, cs_b, c, rs_c,
		                stream, cur, sms};
		st = fn(&p);
	}
	if (cur != prev)
		cudaSetDevice(prev);
	return st;
}

extern "C" gk_status gk_cuda_sgemm_device_run(gk_cuda_sgemm_fn fn, int device, void *stream,
                                              int64_t m, int64_t n, int64_t k, float alpha,
                                              const float *a, int64_t rs_a, int64_t cs_a,
                                              const float *b, int64_t rs_b, int64_t cs_b,
                                              float beta, float *c, int64_t rs_c)
{
	return device_run<float, gk_cuda_sgemm_args>("gk_sgemm_device", fn, device, stream, m, n, k,
	                                             alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c);
}

extern "C" gk_status gk_cuda_dgemm_device_run(gk_cuda_dgemm_fn fn, int device, void *stream,
                                              int64_t m, int64_t n, int64_t k, double alpha,
                                              const double *a, int64_t rs_a, int64_t cs_a,
                                              const double *b, int64_t rs_b, int64_t cs_b,
                                              double beta, double *c, int64_t rs_c)
{
	return device_run<double, gk_cuda_dgemm_args>("gk_dgemm_device", fn, device, stream, m, n, k,
	                                              alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c,
	                                              rs_c);
}
