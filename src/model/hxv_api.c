/*
 * hxv_api.c - the public calls of the horizontal x vertical model
 * (gemmkit.h, HXV block): the device's parameters and latencies, measured
 * once per device and process (src/cuda/hxv/hxv_probe.cu), PHVM timed at
 * given configurations, and the read floor. Without CUDA every call that
 * needs a device returns GK_ERR_NO_GPU; gk_hxv_model_table needs none.
 */
#include <pthread.h>
#include <string.h>
#include "gk_internal.h"
#include "hxv_model.h"

#define HXV_MAX_DEVICES 64

#ifdef GK_HAVE_CUDA
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static gk_hxv_device cache[HXV_MAX_DEVICES];
static int cached[HXV_MAX_DEVICES];
#endif

gk_status gk_hxv_device_query(int device, int remeasure, gk_hxv_device *out)
{
	GK_RETURN_IF(out == NULL, GK_ERR_NULL_POINTER, "gk_hxv_device_query: out is NULL");
#ifdef GK_HAVE_CUDA
	GK_RETURN_IF(!gk_cuda_available(), GK_ERR_NO_GPU, "gk_hxv_device_query: no CUDA device is present");
	int dev = device;
	GK_FORWARD(gk_cuda_hxv_resolve_device(&dev));
	GK_RETURN_IF(dev < 0 || dev >= HXV_MAX_DEVICES, GK_ERR_INVALID_VALUE,
	             "gk_hxv_device_query: device %d is out of range", dev);
	pthread_mutex_lock(&cache_lock);
	gk_status st = GK_OK;
	if (!cached[dev] || remeasure) {
		st = gk_cuda_hxv_probe(dev, &cache[dev]);
		cached[dev] = (st == GK_OK);
	}
	if (st == GK_OK)
		*out = cache[dev];
	pthread_mutex_unlock(&cache_lock);
	return st;
#else
	(void)device;
	(void)remeasure;
	memset(out, 0, sizeof *out);
	return gk_set_error(GK_ERR_NO_GPU, "gk_hxv_device_query: gemmkit was built without CUDA");
#endif
}

gk_status gk_hxv_phvm_time(int device, int64_t m, int64_t n, int64_t k, const gk_hxv_config *cfg,
                           int count, int reps, double *ms)
{
	GK_RETURN_IF(cfg == NULL || ms == NULL, GK_ERR_NULL_POINTER, "gk_hxv_phvm_time: cfg or ms is NULL");
	GK_RETURN_IF(m < 1 || n < 1 || k < 1 || count < 0 || reps < 1, GK_ERR_INVALID_VALUE,
	             "gk_hxv_phvm_time: m, n, k, reps must be >= 1 and count >= 0");
#ifdef GK_HAVE_CUDA
	GK_RETURN_IF(!gk_cuda_available(), GK_ERR_NO_GPU, "gk_hxv_phvm_time: no CUDA device is present");
	return gk_cuda_hxv_phvm_time(device, m, n, k, cfg, count, reps, ms);
#else
	(void)device;
	return gk_set_error(GK_ERR_NO_GPU, "gk_hxv_phvm_time: gemmkit was built without CUDA");
#endif
}

gk_status gk_hxv_read_device(const void *p, size_t bytes, void *stream)
{
	GK_RETURN_IF(p == NULL && bytes > 0, GK_ERR_NULL_POINTER, "gk_hxv_read_device: p is NULL");
#ifdef GK_HAVE_CUDA
	return gk_cuda_hxv_read(p, bytes, stream);
#else
	(void)stream;
	return gk_set_error(GK_ERR_NO_GPU, "gk_hxv_read_device: gemmkit was built without CUDA");
#endif
}
