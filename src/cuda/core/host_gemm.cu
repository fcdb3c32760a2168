/*
 * host_gemm.cu - the CUDA driver of a call whose operands are in host
 * memory (gk_sgemm_ex / gk_dgemm_ex with the CUDA backend): every such call
 * goes to the out-of-core driver (src/cuda/hostmem/), which streams tiles
 * of A, B and C through device buffers under the context's device-memory
 * budget (0: the device's free memory less a margin), so that products of
 * any size host memory holds run, and copies overlap the product even for
 * those that would fit. The call is synchronous. docs/CUDA_HOSTMEM.md.
 *
 * The devices: the context's list (gk_context_set_devices), else its
 * device, else every device. One device (and no GK_FLAG_DETERMINISTIC):
 * the single-device driver on the whole problem, on the context's stream
 * when that device is the context's. Otherwise the multi-worker driver
 * (hm_multi.cu, docs/CUDA_MULTI.md), after the context's stream has
 * finished what was queued on it.
 */
#include "cuda_check.cuh"
#include "../hostmem/hostmem.h"

namespace {

/* The call's device list into devs (at most GK_MAX_DEVICES); *ctx_dev: the
 * context's device (the current one when it names none). */
gk_status device_list(const char *fn, const gk_cuda_host_opts *o, int *devs, int *ndev, int *ctx_dev)
{
	const int count = gk_cuda_device_count();
	GK_RETURN_IF(count < 1, GK_ERR_NO_GPU, "%s: no CUDA device is present", fn);
	int cur = 0;
	GK_CUDA_TRY(fn, cudaGetDevice(&cur));
	*ctx_dev = o->device >= 0 ? o->device : cur;
	GK_RETURN_IF(*ctx_dev >= count, GK_ERR_INVALID_VALUE,
	             "%s: the context names CUDA device %d, which is not present (%d present)", fn,
	             *ctx_dev, count);
	if (o->ndevices > 0) {
		for (int i = 0; i < o->ndevices; i++) {
			GK_RETURN_IF(o->devices[i] < 0 || o->devices[i] >= count, GK_ERR_INVALID_VALUE,
			             "%s: the context's device list names CUDA device %d, which is not present "
			             "(%d present)", fn, o->devices[i], count);
			devs[i] = o->devices[i];
		}
		*ndev = o->ndevices;
	} else if (o->device >= 0) {
		devs[0] = o->device;
		*ndev = 1;
	} else {
		*ndev = count < GK_MAX_DEVICES ? count : GK_MAX_DEVICES;
		for (int i = 0; i < *ndev; i++)
			devs[i] = i;
	}
	return GK_OK;
}

/* Work queued on the context's stream comes first. */
gk_status drain_stream(const char *fn, int dev, void *stream)
{
	if (stream == NULL)
		return GK_OK;
	int prev = 0;
	GK_CUDA_TRY(fn, cudaGetDevice(&prev));
	GK_CUDA_TRY(fn, cudaSetDevice(dev));
	const cudaError_t e = cudaStreamSynchronize((cudaStream_t)stream);
	cudaSetDevice(prev);
	GK_CUDA_TRY(fn, e);
	return GK_OK;
}

template <typename T, typename Fn>
gk_status host_run(const char *fn_name,
                   gk_status (*one)(Fn, const gk_hm_opts *, int64_t, int64_t, int64_t, T, const T *,
                                    int64_t, int64_t, const T *, int64_t, int64_t, T, T *, int64_t),
                   gk_status (*multi)(Fn, const gk_hm_multi *, int64_t, int64_t, int64_t, T,
                                      const T *, int64_t, int64_t, const T *, int64_t, int64_t, T,
                                      T *, int64_t),
                   Fn fn, const gk_cuda_host_opts *o, int64_t m, int64_t n, int64_t k, T alpha,
                   const T *a, int64_t rs_a, int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b,
                   T beta, T *c, int64_t rs_c)
{
	if (!gk_cuda_available())
		return gk_set_error(GK_ERR_NO_GPU, "%s: no CUDA device is present", fn_name);
	int devs[GK_MAX_DEVICES], ndev = 0, ctx_dev = 0;
	GK_FORWARD(device_list(fn_name, o, devs, &ndev, &ctx_dev));
	const int det = (o->flags & GK_FLAG_DETERMINISTIC) != 0;
	if (ndev == 1 && !det) {
		void *stream = o->stream;
		if (devs[0] != ctx_dev) {
			GK_FORWARD(drain_stream(fn_name, ctx_dev, stream));
			stream = NULL;
		}
		const gk_hm_opts ho = {devs[0], stream, o->budget, o->threads};
		return one(fn, &ho, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c);
	}
	GK_FORWARD(drain_stream(fn_name, ctx_dev, o->stream));
	const gk_hm_multi mo = {ndev, devs, o->budget, o->threads, det};
	return multi(fn, &mo, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c);
}

} /* namespace */

extern "C" gk_status gk_cuda_sgemm_host_run(gk_cuda_sgemm_fn fn, const gk_cuda_host_opts *o,
                                            int64_t m, int64_t n, int64_t k, float alpha,
                                            const float *a, int64_t rs_a, int64_t cs_a,
                                            const float *b, int64_t rs_b, int64_t cs_b,
                                            float beta, float *c, int64_t rs_c)
{
	return host_run<float, gk_cuda_sgemm_fn>("gk_sgemm", gk_hm_sgemm, gk_hm_multi_sgemm, fn, o, m, n,
	                                         k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c);
}

extern "C" gk_status gk_cuda_dgemm_host_run(gk_cuda_dgemm_fn fn, const gk_cuda_host_opts *o,
                                            int64_t m, int64_t n, int64_t k, double alpha,
                                            const double *a, int64_t rs_a, int64_t cs_a,
                                            const double *b, int64_t rs_b, int64_t cs_b,
                                            double beta, double *c, int64_t rs_c)
{
	return host_run<double, gk_cuda_dgemm_fn>("gk_dgemm", gk_hm_dgemm, gk_hm_multi_dgemm, fn, o, m,
	                                          n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c,
	                                          rs_c);
}
