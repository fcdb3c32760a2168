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
#define ROW_S(name, desc, sfn) \
	{name, desc, GK_BACKEND_CUDA, 0, NULL, NULL, AVAIL, S(sfn), NULL, GK_PRECISION_STRICT}
#define ROW_D(name, desc, dfn) \
	{name, desc, GK_BACKEND_CUDA, 0, NULL, NULL, AVAIL, NULL, D(dfn), GK_PRECISION_STRICT}
/* A float row on tensor cores, with its precision mode (gk_precision). */
#define ROW_SP(name, desc, sfn, prec) \
	{name, desc, GK_BACKEND_CUDA, 0, NULL, NULL, AVAIL, S(sfn), NULL, prec}
#define ROW_SD(name, desc, sfn, dfn) \
	{name, desc, GK_BACKEND_CUDA, 0, NULL, NULL, AVAIL, S(sfn), D(dfn), GK_PRECISION_STRICT}

const gk_algo gk_algos_cuda[] = {
	/* LADDER-BEGIN (rows of src/cuda/ladder/, in ladder order) */
	/* sNN: seed document NN (docs/CUDA_LADDER.md). Rung 1: one thread per element of C. */
	ROW_S("cuda.s02_k1_naive", "seed 002 kernel 1: one thread per element of C, 32x32 threads, A and B read from global memory",
	      gk_cuda_sgemm_s02_k1_naive),
	ROW_S("cuda.s00_plain", "seed 000 plain: rung 1 with its swapped indices (lanes along columns of C: coalesced), blocks down columns",
	      gk_cuda_sgemm_s00_plain),
	ROW_S("cuda.s00_plain_xy", "seed 000 plain with the indices unswapped (lanes along rows of C: uncoalesced, ~10x slower)",
	      gk_cuda_sgemm_s00_plain_xy),
	ROW_D("cuda.s01_global_b8", "seed 001 DGEMM in global memory: one thread per element of C, 8x8 thread blocks",
	      gk_cuda_dgemm_s01_global_b8),
	ROW_D("cuda.s01_global_b16", "seed 001 DGEMM in global memory: one thread per element of C, 16x16 thread blocks",
	      gk_cuda_dgemm_s01_global_b16),
	ROW_D("cuda.s01_global_b32", "seed 001 DGEMM in global memory: one thread per element of C, 32x32 thread blocks",
	      gk_cuda_dgemm_s01_global_b32),
	/* Rungs 2-3: tiles of A and B in shared memory. */
	ROW_S("cuda.s02_k2_smem", "seed 002 kernel 2: 32x32 tiles of A and B cached in shared memory, one element of C per thread",
	      gk_cuda_sgemm_s02_k2_smem),
	ROW_S("cuda.s00_shared", "seed 000 shared: 32x128 and 128x32 tiles in shared memory, 32x32 threads, one element each",
	      gk_cuda_sgemm_s00_shared),
	ROW_D("cuda.s01_shared_b8", "seed 001 DGEMM with shared-memory tiles, one element of C per thread, 8x8 thread blocks",
	      gk_cuda_dgemm_s01_shared_b8),
	ROW_D("cuda.s01_shared_b16", "seed 001 DGEMM with shared-memory tiles, one element of C per thread, 16x16 thread blocks",
	      gk_cuda_dgemm_s01_shared_b16),
	ROW_D("cuda.s01_shared_b32", "seed 001 DGEMM with shared-memory tiles, one element of C per thread, 32x32 thread blocks",
	      gk_cuda_dgemm_s01_shared_b32),
	ROW_D("cuda.s01_rowcol", "seed 001 counter-example: row and column vectors in shared memory (race fixed; bank conflicts), 16x16",
	      gk_cuda_dgemm_s01_rowcol),
	/* Rungs 4-7: several elements of C per thread. */
	ROW_S("cuda.s02_k3_tile1d", "seed 002 kernel 3: 1-D thread tile, 64x64 block tile, BK 8, 512 threads of 8x1 elements",
	      gk_cuda_sgemm_s02_k3_tile1d),
	ROW_S("cuda.s02_k4_tile2d", "seed 002 kernel 4: 2-D thread tile, 128x128 block tile, BK 8, 256 threads of 8x8 elements",
	      gk_cuda_sgemm_s02_k4_tile2d),
	ROW_S("cuda.s02_k5_regcache", "seed 002 kernel 5: kernel 4 with each step's 8 values of A and 8 of B cached in registers",
	      gk_cuda_sgemm_s02_k5_regcache),
	ROW_S("cuda.s00_reg4x4", "seed 000 register: 128x128 block tile, BK 32, 32x32 threads of 4x4 elements, A k-major in shared memory",
	      gk_cuda_sgemm_s00_reg4x4),
	/* Rungs 8-10: vector loads and prefetch. */
	ROW_S("cuda.s02_k6_float4", "seed 002 kernel 6: kernel 5 with float4 loads and stores, A transposed in shared memory",
	      gk_cuda_sgemm_s02_k6_float4),
	ROW_S("cuda.s00_prefetch", "seed 000 prefetch: its 4x4 register kernel with two shared-memory buffers of BK 16, one barrier per tile",
	      gk_cuda_sgemm_s00_prefetch),
	ROW_S("cuda.s02_k7_prefetch", "seed 002 kernel 7: kernel 6 double-buffered in shared memory and registers, next tile loaded early",
	      gk_cuda_sgemm_s02_k7_prefetch),
	/* LADDER-END */
	/* SGEMM-BEGIN (the production SGEMM: "auto" for float on the GPU) */
	ROW_S("cuda.sgemm", "tuned FP32 SGEMM: warp-tiled FFMA, cp.async pipeline, tile and split-K by shape (\"auto\" for float on the GPU)", gk_cuda_sgemm_tuned),
	ROW_SP("cuda.sgemm_3xtf32", "FP32-accurate SGEMM on tensor cores: operands split into two TF32 parts (rounded), three products (precision \"accurate\")",
	       gk_cuda_sgemm_3xtf32, GK_PRECISION_ACCURATE),
	ROW_SP("cuda.sgemm_tf32", "TF32 SGEMM on tensor cores: operands rounded to TF32 (10-bit mantissa), one product; lower precision (precision \"tf32\")",
	       gk_cuda_sgemm_tf32, GK_PRECISION_TF32),
	/* SGEMM-END */
	/* DGEMM-BEGIN (the production DGEMM: "auto" for double on the GPU) */
	ROW_D("cuda.dgemm", "tuned FP64 DGEMM on tensor cores (DMMA), 128x128 cp.async tiles, split-K for few tiles (\"auto\" for double on the GPU)",
	      gk_cuda_dgemm_tuned),
	/* DGEMM-END */
	/* HXV-BEGIN (horizontal x vertical products, src/cuda/hxv/: m, n tiny, k huge) */
	ROW_SD("cuda.hxv_basic", "seed 003 BasicMM: E (m x k) F (k x n), each thread a contiguous segment of k (uncoalesced), shared-memory tree, atomic add per block",
	       gk_cuda_sgemm_hxv_basic, gk_cuda_dgemm_hxv_basic),
	ROW_SD("cuda.hxv_phvm", "seed 003 PHVM: grid-stride coalesced loads along k, register sums, shared-memory tree, atomic add per block; GS, BS from the time-cost model",
	       gk_cuda_sgemm_hxv_phvm, gk_cuda_dgemm_hxv_phvm),
	ROW_SD("cuda.hxv", "horizontal x vertical product: E and F read once per output tile at the read bandwidth, deterministic two-stage sum (\"auto\" for m, n <= 16, large k on the GPU)",
	       gk_cuda_sgemm_hxv, gk_cuda_dgemm_hxv),
	/* HXV-END */
};
const int gk_algos_cuda_count = (int)(sizeof gk_algos_cuda / sizeof gk_algos_cuda[0]);
