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
