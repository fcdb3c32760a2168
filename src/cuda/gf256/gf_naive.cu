/*
 * gf_naive.cu - seed 004's first kernel: C = A * B over GF(2^8) with one
 * thread per byte of C, A and B read from global memory.
 *
 * Operands: A m x k on the device (p->da, row-major, lda = k), B k x n and
 * C m x n row-major with leading dimensions ldb, ldc; any alignment.
 * Blocks of 32 x 8 threads: x along the columns of C (coalesced reads of B's
 * rows, writes of C's), y along its rows; the grid strides over the columns
 * because n (the shard length) is far larger than a grid.
 * Guarantees: every byte of C[0..m)[0..n) written, nothing else; the same
 * bytes as gk_gf256_gemm. Preconditions: m, n, k >= 1.
 */
#include "gf_common.cuh"

#define NAIVE_X 32
#define NAIVE_Y 8

__global__ void gf_naive_kernel(int64_t m, int64_t n, int64_t k, const uint8_t *__restrict__ a,
                                const uint8_t *__restrict__ b, int64_t ldb,
                                uint8_t *__restrict__ c, int64_t ldc)
{
	const int64_t row = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
	if (row >= m)
		return;
	for (int64_t col = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; col < n;
	     col += (int64_t)gridDim.x * blockDim.x) {
		uint32_t acc = 0;
		for (int64_t i = 0; i < k; i++)
			acc ^= gf_mul(a[row * k + i], b[i * ldb + col]);
		c[row * ldc + col] = (uint8_t)acc;
	}
}

gk_status gk_gf_cuda_naive(const gk_gf_cuda_args *p)
{
	static const char fn[] = "cuda.gf_naive";
	const dim3 block(NAIVE_X, NAIVE_Y);
	const dim3 grid(gf_grid_x(p->n, NAIVE_X, p->sm_count, 64),
	                (unsigned)((p->m + NAIVE_Y - 1) / NAIVE_Y));
	gf_naive_kernel<<<grid, block, 0, (cudaStream_t)p->stream>>>(p->m, p->n, p->k, p->da, p->b,
	                                                              p->ldb, p->c, p->ldc);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}
