/* cuda_info.cu - which CUDA devices are usable. No device, or no driver,
 * gives a count of 0, never an error. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stddef.h>

extern "C" {

__attribute__((visibility("hidden"))) int gk_cuda_built(void)
{
	return 1;
}

__attribute__((visibility("hidden"))) int gk_cuda_device_count(void)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		cudaGetLastError(); /* clear the sticky "no device" error */
		return 0;
	}
	return n;
}

/* Whether a device is present, asked once: the availability test of the
 * cuda.* rows of the registry. */
__attribute__((visibility("hidden"))) int gk_cuda_available(void)
{
	static int known = -1;
	if (known < 0)
		known = gk_cuda_device_count() > 0;
	return known;
}

__attribute__((visibility("hidden"))) void gk_cuda_device_name(int dev, char *buf, size_t len)
{
	cudaDeviceProp prop;
	if (len == 0)
		return;
	if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
		cudaGetLastError();
		snprintf(buf, len, "CUDA device %d (properties unavailable)", dev);
		return;
	}
	snprintf(buf, len, "%s (sm_%d%d, %.1f GiB)", prop.name, prop.major, prop.minor,
	         (double)prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
}

}
