/*
 * dgemm_dmma_sm90.cuh - the tuned DGEMM kernel for Hopper (sm_90): FP64
 * tensor cores through mma.sync.aligned.m16n8k16.row.col.f64 (DMMA 16x8x16,
 * sm_90 and newer).
 *
 * What it computes: C = alpha * A * B + beta * C for the canonical problem
 * of cuda_gemm.h (or split-K partial products), in exact FP64 multiply-adds.
 *
 * Shape: the 128 x 128 x 16 threadblock tile of dgemm_dmma_tile.cuh (256
 * threads, 8 warps of 64 x 32, STAGES cp.async stages, 32 KB each); per warp
 * and k step 16 DMMAs (4 m16 groups x 4 n8 groups). A thread's A fragment
 * for one m16 group, af[h][v] = A(8g + 2mi + h, 4t + v), is the
 * instruction's a[2v + h] (row g + 8h, k t + 4v of the renumbered tile); its
 * B fragment bf[j][v] is b[v] of n8 group j; the accumulator C(8g + r,
 * 8t + c) is d[2h + e] of group (mi, j) for r = 2mi + h, c = 4e + j.
 *
 * Requirements: compute capability 9.0 or newer (the body is empty in an
 * sm_80 build; the launcher, dgemm_tuned.cu, picks this kernel only on such
 * a device), 256 threads, STAGES * 32 KB of dynamic shared memory. Strides,
 * alignment and edges: see dgemm_dmma_tile.cuh (16-byte copies where the
 * pointer and stride allow, 8-byte otherwise; zero-filled edges).
 */
#ifndef GK_DGEMM_DMMA_SM90_CUH
#define GK_DGEMM_DMMA_SM90_CUH

#include "dgemm_dmma_tile.cuh"

namespace gk_dmma {

struct MmaSm90 {
	static __device__ __forceinline__ void step(double (&acc)[8][8], const double (&af)[2][4],
	                                            const double (&bf)[4][4], int mi)
	{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#pragma unroll
		for (int j = 0; j < 4; ++j) {
			asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 "
			             "{%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, "
			             "{%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
			             : "+d"(acc[2 * mi][j]), "+d"(acc[2 * mi][4 + j]), "+d"(acc[2 * mi + 1][j]),
			               "+d"(acc[2 * mi + 1][4 + j])
			             : "d"(af[0][0]), "d"(af[1][0]), "d"(af[0][1]), "d"(af[1][1]), "d"(af[0][2]),
			               "d"(af[1][2]), "d"(af[0][3]), "d"(af[1][3]), "d"(bf[j][0]), "d"(bf[j][1]),
			               "d"(bf[j][2]), "d"(bf[j][3]));
		}
#else
		(void)acc; (void)af; (void)bf; (void)mi;
#endif
	}
};

template <bool A_XK, bool B_XK, int STAGES>
__global__ void __launch_bounds__(THREADS, 1) dgemm_dmma_sm90_kernel(const Params P)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	extern __shared__ __align__(16) unsigned char gk_dgemm_smem90[];
	run<MmaSm90, A_XK, B_XK, STAGES>(P, gk_dgemm_smem90);
#else
	(void)P;
#endif
}

} /* namespace gk_dmma */

#endif
