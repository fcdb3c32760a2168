/*
 * algos_cuda.c - the CUDA rows of the algorithm registry. The file is
 * compiled with or without CUDA: without it every row is listed, reports
 * itself unavailable, and its launchers are stand-ins that return
 * GK_ERR_NO_GPU. With CUDA, a row is available when a device is present.
 *
 * Adding a CUDA algorithm: a launcher (gk_cuda_sgemm_fn or
 * gk_cuda_dgemm_fn, contract in cuda_gemm.h) in its own .cu file under
 * src/cuda/ladder/ (teaching kernels) or src/cuda/gemm/ (production), its
 * prototype in cuda_gemm.h, and a row here.
 */
#include "gk_internal.h"

#ifdef GK_HAVE_CUDA
#define S(fn) fn
#define D(fn) fn
#define AVAIL gk_cuda_available
#else
static gk_status no_gpu_s(const gk_cuda_sgemm_args *p)
{
	(void)p;
	return gk_set_error(GK_ERR_NO_GPU, "gemmkit was built without CUDA");
}
static gk_status no_gpu_d(const gk_cuda_dgemm_args *p)
{
	(void)p;
	return gk_set_error(GK_ERR_NO_GPU, "gemmkit was built without CUDA");
}
static int never(void)
{
	return 0;
}
#define S(fn) no_gpu_s
#define D(fn) no_gpu_d
#define AVAIL never
#endif

/* A row of one type: float (ROW_S) or double (ROW_D), or both (ROW_SD). */
#define ROW_S(name, desc, sfn) {name, desc, GK_BACKEND_CUDA, 0, NULL, NULL, AVAIL, S(sfn), NULL}
#define ROW_D(name, desc, dfn) {name, desc, GK_BACKEND_CUDA, 0, NULL, NULL, AVAIL, NULL, D(dfn)}
#define ROW_SD(name, desc, sfn, dfn) \
	{name, desc, GK_BACKEND_CUDA, 0, NULL, NULL, AVAIL, S(sfn), D(dfn)}

const gk_algo gk_algos_cuda[] = {
	/* LADDER-BEGIN (rows of src/cuda/ladder/, in ladder order) */
	/* LADDER-END */
	/* SGEMM-BEGIN (the production SGEMM: "auto" for float on the GPU) */
	ROW_S("cuda.sgemm", "tuned FP32 SGEMM: warp-tiled FFMA, cp.async pipeline, tile and split-K by shape (\"auto\" for float on the GPU)", gk_cuda_sgemm_tuned),
	/* SGEMM-END */
	/* DGEMM-BEGIN (the production DGEMM: "auto" for double on the GPU) */
	/* DGEMM-END */
};
const int gk_algos_cuda_count = (int)(sizeof gk_algos_cuda / sizeof gk_algos_cuda[0]);
