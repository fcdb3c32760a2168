/* info.c - gk_get_info: what gemmkit found on this machine. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gk_internal.h"

gk_status gk_get_info(gk_info *info)
{
	GK_RETURN_IF(info == NULL, GK_ERR_NULL_POINTER, "gk_get_info: info is NULL");
	memset(info, 0, sizeof *info);
	gk_cpu_brand(info->cpu_name, sizeof info->cpu_name);
	gk_cpu_feature_string(gk_cpu_features(), info->cpu_features, sizeof info->cpu_features);
	snprintf(info->cpu_arch, sizeof info->cpu_arch, "%s", gk_arch_name());
	/* The count outside a parallel region, even when asked from inside one. */
	info->max_threads = gk_default_threads();
	info->cuda_built = gk_cuda_built();
	info->gpu_count = gk_cuda_device_count();
	for (int d = 0; d < info->gpu_count && d < 4; d++)
		gk_cuda_device_name(d, info->gpu_names[d], sizeof info->gpu_names[d]);
	gk_cache_sizes(&info->l1d_bytes, &info->l2_bytes, &info->l3_bytes);
	return GK_OK;
}
