/* cuda_stub.c - the CUDA queries of a build without CUDA: nothing is there. */
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
