/*
 * gf_tiled.cu - seed 004's generalised tiling: C = A * B over GF(2^8) with
 * tiles of tileWidthRow rows of C, tileWidthCol columns of C and tileDepth
 * inputs chosen at run time (p->tiles; zeros take defaults for the shape),
 * both tiles carved from one block of dynamic shared memory.
 *
 * Operands as gf_naive.cu (A on the device m x k, lda = k; B, C row-major,
 * any alignment). A block of tileWidthCol x tileWidthRow threads owns a
 * tile of C; for every tileDepth inputs it loads A's rows x depth tile
 * (row-major, first in shared memory) and B's depth x cols tile (after it),
 * zeros past m, k or n, synchronizes and accumulates. Unlike the seed's
 * listing, depth may be less than k: the inputs go in a loop of tiles.
 * Guarantees: every byte of C[0..m)[0..n) written, nothing else; the same
 * bytes as gk_gf256_gemm. Preconditions: m, n, k >= 1; tiles within
 * 1024 threads and the device's shared memory (checked: GK_ERR_INVALID_VALUE).
 */
#include "gf_tiles.cuh"

__global__ void gf_tiled_kernel(int64_t m, int64_t n, int64_t k, const uint8_t *__restrict__ a,
                                const uint8_t *__restrict__ b, int64_t ldb,
                                uint8_t *__restrict__ c, int64_t ldc, int tr, int tc, int td)
{
	extern __shared__ uint8_t smem[];
	uint8_t *sa = smem;                     /* tr x td */
	uint8_t *sb = smem + (size_t)tr * td;   /* td x tc */
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int64_t row = (int64_t)blockIdx.y * tr + ty;
	for (int64_t col0 = (int64_t)blockIdx.x * tc; col0 < n; col0 += (int64_t)gridDim.x * tc) {
		const int64_t col = col0 + tx;
		uint32_t acc = 0;
		for (int64_t d = 0; d < k; d += td) {
			for (int j = tx; j < td; j += tc)
				sa[ty * td + j] = (row < m && d + j < k) ? a[row * k + d + j] : 0;
			for (int j = ty; j < td; j += tr)
				sb[j * tc + tx] = (d + j < k && col < n) ? b[(d + j) * ldb + col] : 0;
			__syncthreads();
			for (int j = 0; j < td; j++)
				acc ^= gf_mul(sa[ty * td + j], sb[j * tc + tx]);
			__syncthreads();
		}
		if (row < m && col < n)
			c[row * ldc + col] = (uint8_t)acc;
	}
}

static size_t tiled_smem(const gk_gf_cuda_tiles *t)
{
	return (size_t)t->rows * t->depth + (size_t)t->depth * t->cols;
}

gk_status gk_gf_cuda_tiled(const gk_gf_cuda_args *p)
{
	static const char fn[] = "cuda.gf_tiled";
	gk_gf_cuda_tiles t = p->tiles;
	size_t smem;
	GK_FORWARD(gf_tiles_resolve(fn, gf_tiled_kernel, p->m, p->k, &t, tiled_smem, &smem));
	const dim3 block((unsigned)t.cols, (unsigned)t.rows);
	const dim3 grid(gf_grid_x(p->n, t.cols, p->sm_count, 2048 / (t.rows * t.cols) + 1),
	                (unsigned)((p->m + t.rows - 1) / t.rows));
	gf_tiled_kernel<<<grid, block, smem, (cudaStream_t)p->stream>>>(
		p->m, p->n, p->k, p->da, p->b, p->ldb, p->c, p->ldc, t.rows, t.cols, t.depth);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}
