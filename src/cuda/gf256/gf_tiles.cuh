/*
 * gf_tiles.cuh - the run-time tile sizes of gf_tiled.cu and gf_packed.cu:
 * defaults for a shape, checks, and the dynamic shared memory they take.
 */
#ifndef GK_GF_TILES_CUH
#define GK_GF_TILES_CUH

#include "gf_common.cuh"

/* Fill the zeros of *t with the defaults for m x k (rows of C up to 16, a
 * depth of up to 32 inputs, 1024 or 512 threads), then check it: at least
 * 1 each, rows * cols <= 1024, and `smem` bytes of shared memory (computed
 * by the caller from *t through smem_of) within the device's limit, which is
 * raised for `kernel` when over the default 48 KiB. */
template <typename K>
static gk_status gf_tiles_resolve(const char *fn, K kernel, int64_t m, int64_t k,
                                  gk_gf_cuda_tiles *t, size_t (*smem_of)(const gk_gf_cuda_tiles *),
                                  size_t *smem)
{
	if (t->rows <= 0)
		t->rows = (int)(m < 16 ? m : 16);
	if (t->cols <= 0)
		t->cols = t->rows > 8 ? 64 : 128;
	if (t->depth <= 0)
		t->depth = (int)(k < 32 ? k : 32);
	GK_RETURN_IF((int64_t)t->rows * t->cols > 1024, GK_ERR_INVALID_VALUE,
	             "%s: tile %d x %d is more than 1024 threads", fn, t->rows, t->cols);
	*smem = smem_of(t);
	int dev, optin = 48 * 1024;
	GK_CUDA_TRY(fn, cudaGetDevice(&dev));
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
	GK_RETURN_IF(*smem > (size_t)optin, GK_ERR_INVALID_VALUE,
	             "%s: tile %d x %d x %d needs %zu bytes of shared memory, the device has %d", fn,
	             t->rows, t->cols, t->depth, *smem, optin);
	if (*smem > 48 * 1024)
		GK_CUDA_TRY(fn, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                                     (int)*smem));
	return GK_OK;
}

#endif
