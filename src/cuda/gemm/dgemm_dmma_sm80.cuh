/*
 * dgemm_dmma_sm80.cuh - the tuned DGEMM kernel for Ampere (sm_80 to sm_89):
 * FP64 tensor cores through mma.sync.aligned.m8n8k4.row.col.f64 (DMMA
 * 8x8x4, the FP64 shape of sm_80).
 *
 * What it computes: C = alpha * A * B + beta * C for the canonical problem
 * of cuda_gemm.h (or split-K partial products), in exact FP64 multiply-adds.
 *
 * Shape: the 128 x 128 x 16 threadblock tile of dgemm_dmma_tile.cuh (256
 * threads, 8 warps of 64 x 32, STAGES cp.async stages, 32 KB each: 3 stages
 * fit the 99 KB of sm_86 / sm_89 as well as the A100); per warp and k step
 * 128 DMMAs (8 m8 rows x 4 n8 groups x 4 k4 steps). For m8 row r = 2mi + h,
 * n8 group j and k4 step v the instruction's a is af[h][v] = A(8g + r,
 * 4t + v), its b is bf[j][v] = B(4t + v, 4g + j), and its d[e] accumulates
 * C(8g + r, 8t + 4e + j).
 *
 * Requirements: compute capability 8.x (the body is empty in other builds;
 * the launcher, dgemm_tuned.cu, picks this kernel only on such a device), 256
 * threads, STAGES * 32 KB of dynamic shared memory. Strides, alignment and
 * edges: see dgemm_dmma_tile.cuh.
 */
#ifndef GK_DGEMM_DMMA_SM80_CUH
#define GK_DGEMM_DMMA_SM80_CUH

#include "dgemm_dmma_tile.cuh"

namespace gk_dmma {

struct MmaSm80 {
	static __device__ __forceinline__ void step(double (&acc)[8][8], const double (&af)[2][4],
	                                            const double (&bf)[4][4], int mi)
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
					             : "+d"(acc[2 * mi + h][j]), "+d"(acc[2 * mi + h][4 + j])
					             : "d"(af[h][v]), "d"(bf[j][v]));
#else
		(void)acc; (void)af; (void)bf; (void)mi;
#endif
	}
};

template <bool A_XK, bool B_XK, int STAGES>
__global__ void __launch_bounds__(THREADS, 1) dgemm_dmma_sm80_kernel(const Params P)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900
	extern __shared__ __align__(16) unsigned char gk_dgemm_smem80[];
	run<MmaSm80, A_XK, B_XK, STAGES>(P, gk_dgemm_smem80);
#else
	(void)P;
#endif
}

} /* namespace gk_dmma */

#endif
