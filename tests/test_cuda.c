/*
 * test_cuda.c - the CUDA side as far as it goes: a build with CUDA reports
 * it, and every device found has a name and compute capability. Without a
 * device (or without CUDA) the test is skipped (exit 77), never failed.
 */
#include <stdio.h>
#include <string.h>
#include "test_util.h"

int main(void)
{
	gk_info info;
	TU_CHECK(gk_get_info(&info) == GK_OK, "gk_get_info");
	printf("CUDA built: %s, devices: %d\n", info.cuda_built ? "yes" : "no", info.gpu_count);
	TU_CHECK(info.gpu_count >= 0, "gpu_count = %d", info.gpu_count);
	if (!info.cuda_built)
		TU_CHECK(info.gpu_count == 0, "no CUDA in the build, yet %d devices", info.gpu_count);
	for (int d = 0; d < info.gpu_count && d < 4; d++) {
		printf("device %d: %s\n", d, info.gpu_names[d]);
		TU_CHECK(strlen(info.gpu_names[d]) > 0, "device %d has no name", d);
		TU_CHECK(strstr(info.gpu_names[d], "sm_") != NULL, "device %d: no compute capability in '%s'",
		         d, info.gpu_names[d]);
	}
	int rc = tu_finish("test_cuda");
	if (rc == 0 && info.gpu_count == 0) {
		printf("skipped: no CUDA device\n");
		return 77;
	}
	return rc;
}
