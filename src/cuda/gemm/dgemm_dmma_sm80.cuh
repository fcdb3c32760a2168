/*
 * dgemm_dmma_sm80.cuh - the tuned DGEMM kernel for Ampere (sm_80 to sm_89):
 * FP64 tensor cores through mma.sync.aligned.m8n8k4.row.col.f64 (DMMA
 * 8x8x4, the FP64 shape of sm_80).
 *
 * What it computes: C = alpha * A * B + beta * C for the canonical problem
 * of cuda_gemm.h (or split-K partial products), in exact FP64 multiply-adds.
 *
 * Shape: a threadblock tile of dgemm_dmma_tile.cuh (128 x BN, BN = 128 with
 * 8 warps or 64 with 4 warps, each warp 64 x 32; STAGES cp.async stages of
 * stage_bytes(BN): 3 stages of the 128 x 128 tile, 96 KB, fit the 99 KB of
 * sm_86 / sm_89 as well as the A100); per warp and k step 128 DMMAs (8 m8
 * rows x 4 n8 groups x 4 k4 steps). The fragments are those of the
 * m16n8k16 layout (dgemm_dmma_tile.cuh): for m8 half h, n8 group j and k4
 * step v the instruction's a is af[2v + h] = A(g + 8h, t + 4v), its b is
 * bf[j][v] = B(t + 4v, g) and its d[e] accumulates acc[j][2h + e] =
 * C(g + 8h, 2t + e) (group-relative).
 *
 * Requirements: compute capability 8.x (the body is empty in other builds;
 * the launcher, dgemm_tuned.cu, picks this kernel only on such a device),
 * 2 * BN threads, STAGES * stage_bytes(BN) of dynamic shared memory. Strides, alignment and
 * edges: see dgemm_dmma_tile.cuh.
 */
#ifndef GK_DGEMM_DMMA_SM80_CUH
#define GK_DGEMM_DMMA_SM80_CUH

#include "dgemm_dmma_tile.cuh"

namespace gk_dmma {

struct MmaSm80 {
	static __device__ __forceinline__ void step(double (&acc)[4][4], const double (&af)[8],
	                                            const double (&bf)[4][4])
	{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#pragma unroll
		for (int v = 0; v < 4; ++v)
#pragma unroll
			for (int h = 0; h < 2; ++h)
#pragma unroll
				for (int j = 0; j < 4; ++j)
					asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
					             "{%0, %1}, {%2}, {%3}, {%0, %1};\n"
					             : "+d"(acc[j][2 * h]), "+d"(acc[j][2 * h + 1])
					             : "d"(af[2 * v + h]), "d"(bf[j][v]));
#else
		(void)acc; (void)af; (void)bf;
#endif
	}
};

template <bool A_XK, bool B_XK, int BN, int STAGES>
__global__ void __launch_bounds__(threads_of(BN), 1) dgemm_dmma_sm80_kernel(const Params P)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900
	extern __shared__ __align__(16) unsigned char gk_dgemm_smem80[];
	run<MmaSm80, A_XK, B_XK, BN, STAGES>(P, gk_dgemm_smem80);
#else
	(void)P;
#endif
}

} /* namespace gk_dmma */

#endif
