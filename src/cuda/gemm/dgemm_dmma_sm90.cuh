/*
 * dgemm_dmma_sm90.cuh - the tuned DGEMM kernel for Hopper (sm_90): FP64
 * tensor cores through mma.sync.aligned.m16n8k16.row.col.f64 (DMMA 16x8x16,
 * sm_90 and newer).
 *
 * What it computes: C = alpha * A * B + beta * C for the canonical problem
 * of cuda_gemm.h (or split-K partial products), in exact FP64 multiply-adds.
 *
 * Shape: a threadblock tile of dgemm_dmma_tile.cuh (128 x BN, BN = 128 with
 * 8 warps or 64 with 4 warps, each warp 64 x 32; STAGES cp.async stages);
 * per warp and k step 16 DMMAs (4 m16 groups x 4 n8 groups). The fragments
 * are in the instruction's register order: af[i] is a[i] of the m16 group,
 * bf[j][i] is b[i] of n8 group j, acc[j][i] is d[i] of group (mi, j); each
 * was read from shared memory by one 8-byte load, with no copies between
 * the loads and the DMMAs.
 *
 * Requirements: compute capability 9.0 or newer (the body is empty in an
 * sm_80 build; the launcher, dgemm_tuned.cu, picks this kernel only on such
 * a device), 2 * BN threads, STAGES * stage_bytes(BN) of dynamic shared
 * memory. Strides,
 * alignment and edges: see dgemm_dmma_tile.cuh (16-byte copies where the
 * pointer and stride allow, 8-byte otherwise; zero-filled edges).
 */
#ifndef GK_DGEMM_DMMA_SM90_CUH
#define GK_DGEMM_DMMA_SM90_CUH

#include "dgemm_dmma_tile.cuh"

namespace gk_dmma {

struct MmaSm90 {
	static __device__ __forceinline__ void step(double (&acc)[4][4], const double (&af)[8],
	                                            const double (&bf)[4][4])
	{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#pragma unroll
		for (int j = 0; j < 4; ++j) {
			asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 "
			             "{%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, "
			             "{%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
			             : "+d"(acc[j][0]), "+d"(acc[j][1]), "+d"(acc[j][2]), "+d"(acc[j][3])
			             : "d"(af[0]), "d"(af[1]), "d"(af[2]), "d"(af[3]), "d"(af[4]), "d"(af[5]),
			               "d"(af[6]), "d"(af[7]), "d"(bf[j][0]), "d"(bf[j][1]), "d"(bf[j][2]),
			               "d"(bf[j][3]));
		}
#else
		(void)acc; (void)af; (void)bf;
#endif
	}
};

template <bool A_XK, bool B_XK, int BN, int STAGES>
__global__ void __launch_bounds__(threads_of(BN), BN == 64 ? 2 : 1) dgemm_dmma_sm90_kernel(const Params P)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	extern __shared__ __align__(16) unsigned char gk_dgemm_smem90[];
	run<MmaSm90, A_XK, B_XK, BN, STAGES>(P, gk_dgemm_smem90);
#else
	(void)P;
#endif
}

} /* namespace gk_dmma */

#endif
