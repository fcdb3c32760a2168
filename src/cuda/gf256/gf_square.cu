/*
 * gf_square.cu - seed 004's square tiling: C = A * B over GF(2^8) with
 * 16 x 16 tiles of A and of B staged in shared memory, one byte of C per
 * thread.
 *
 * Operands as gf_naive.cu (A on the device m x k, lda = k; B, C row-major
 * with ldb, ldc; any alignment). A block of 16 x 16 threads owns a 16 x 16
 * tile of C; for every 16 inputs it loads the matching 16 x 16 tile of A and
 * of B (zeros past m, k or n), synchronizes, and accumulates from shared
 * memory. The grid strides over the columns; every thread of a block takes
 * part in every load and barrier, and only the writes are guarded.
 * Guarantees: every byte of C[0..m)[0..n) written, nothing else; the same
 * bytes as gk_gf256_gemm. Preconditions: m, n, k >= 1.
 */
#include "gf_common.cuh"

#define SQ 16

__global__ void gf_square_kernel(int64_t m, int64_t n, int64_t k, const uint8_t *__restrict__ a,
                                 const uint8_t *__restrict__ b, int64_t ldb,
                                 uint8_t *__restrict__ c, int64_t ldc)
{
	__shared__ uint8_t sa[SQ][SQ];
	__shared__ uint8_t sb[SQ][SQ];
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int64_t row = (int64_t)blockIdx.y * SQ + ty;
	for (int64_t col0 = (int64_t)blockIdx.x * SQ; col0 < n; col0 += (int64_t)gridDim.x * SQ) {
		const int64_t col = col0 + tx;
		uint32_t acc = 0;
		for (int64_t d = 0; d < k; d += SQ) {
			sa[ty][tx] = (row < m && d + tx < k) ? a[row * k + d + tx] : 0;
			sb[ty][tx] = (d + ty < k && col < n) ? b[(d + ty) * ldb + col] : 0;
			__syncthreads();
#pragma unroll
			for (int i = 0; i < SQ; i++)
				acc ^= gf_mul(sa[ty][i], sb[i][tx]);
			__syncthreads();
		}
		if (row < m && col < n)
			c[row * ldc + col] = (uint8_t)acc;
	}
}

gk_status gk_gf_cuda_square(const gk_gf_cuda_args *p)
{
	static const char fn[] = "cuda.gf_square";
	const dim3 block(SQ, SQ);
	const dim3 grid(gf_grid_x(p->n, SQ, p->sm_count, 32), (unsigned)((p->m + SQ - 1) / SQ));
	gf_square_kernel<<<grid, block, 0, (cudaStream_t)p->stream>>>(p->m, p->n, p->k, p->da, p->b,
	                                                               p->ldb, p->c, p->ldc);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}
