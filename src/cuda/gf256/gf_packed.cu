/*
 * gf_packed.cu - seed 004's last step: the generalised tiling of gf_tiled.cu
 * with the bytes of B and C packed into words (4 bytes in 32 bits, 8 in 64),
 * so that one load brings several bytes of B into shared memory and one
 * word operation multiplies them all by a coefficient (gf_mul_word: shift-
 * and-add on every byte at once, the carries of "times 2" masked per byte).
 *
 * Operands as gf_naive.cu (A on the device m x k, lda = k; B, C row-major
 * with ldb, ldc). A thread owns one word of C: columns [w * W, w * W + W).
 * Where B and C and their leading dimensions are aligned to W bytes, full
 * words are read and written as words; otherwise, and in the last partial
 * word of a row, byte by byte (the bytes past n are read as zeros and never
 * written).
 * Guarantees: every byte of C[0..m)[0..n) written, nothing else; the same
 * bytes as gk_gf256_gemm. Preconditions: m, n, k >= 1; tiles within 1024
 * threads and the device's shared memory (checked: GK_ERR_INVALID_VALUE).
 */
#include "gf_tiles.cuh"

template <typename W>
__device__ __forceinline__ W load_word(const uint8_t *row, int64_t col, int64_t n, bool aligned)
{
	if (aligned && col + (int64_t)sizeof(W) <= n)
		return *(const W *)(row + col);
	W w = 0;
	for (int i = 0; i < (int)sizeof(W); i++)
		if (col + i < n)
			w |= (W)row[col + i] << (8 * i);
	return w;
}

template <typename W>
__device__ __forceinline__ void store_word(uint8_t *row, int64_t col, int64_t n, bool aligned, W w)
{
	if (aligned && col + (int64_t)sizeof(W) <= n) {
		*(W *)(row + col) = w;
		return;
	}
	for (int i = 0; i < (int)sizeof(W); i++)
		if (col + i < n)
			row[col + i] = (uint8_t)(w >> (8 * i));
}

template <typename W>
__global__ void gf_packed_kernel(int64_t m, int64_t n, int64_t k, const uint8_t *__restrict__ a,
                                 const uint8_t *__restrict__ b, int64_t ldb,
                                 uint8_t *__restrict__ c, int64_t ldc, int tr, int tc, int td,
                                 bool aligned)
{
	extern __shared__ __align__(8) uint8_t smem[];
	const size_t sa_bytes = ((size_t)tr * td + 7) / 8 * 8;
	uint8_t *sa = smem;                      /* tr x td bytes */
	W *sb = (W *)(smem + sa_bytes);          /* td x tc words */
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int64_t wb = (int64_t)sizeof(W);
	const int64_t nw = (n + wb - 1) / wb;
	const int64_t row = (int64_t)blockIdx.y * tr + ty;
	for (int64_t w0 = (int64_t)blockIdx.x * tc; w0 < nw; w0 += (int64_t)gridDim.x * tc) {
		const int64_t col = (w0 + tx) * wb;
		W acc = 0;
		for (int64_t d = 0; d < k; d += td) {
			for (int j = tx; j < td; j += tc)
				sa[ty * td + j] = (row < m && d + j < k) ? a[row * k + d + j] : 0;
			for (int j = ty; j < td; j += tr)
				sb[j * tc + tx] = (d + j < k && col < n)
				                  ? load_word<W>(b + (d + j) * ldb, col, n, aligned) : (W)0;
			__syncthreads();
			for (int j = 0; j < td; j++)
				acc ^= gf_mul_word<W>(sb[j * tc + tx], sa[ty * td + j]);
			__syncthreads();
		}
		if (row < m && col < n)
			store_word<W>(c + row * ldc, col, n, aligned, acc);
	}
}

static size_t packed4_smem(const gk_gf_cuda_tiles *t)
{
	return ((size_t)t->rows * t->depth + 7) / 8 * 8 + (size_t)t->depth * t->cols * 4;
}

static size_t packed8_smem(const gk_gf_cuda_tiles *t)
{
	return ((size_t)t->rows * t->depth + 7) / 8 * 8 + (size_t)t->depth * t->cols * 8;
}

template <typename W>
static gk_status packed_launch(const char *fn, const gk_gf_cuda_args *p,
                               size_t (*smem_of)(const gk_gf_cuda_tiles *))
{
	gk_gf_cuda_tiles t = p->tiles;
	size_t smem;
	GK_FORWARD(gf_tiles_resolve(fn, gf_packed_kernel<W>, p->m, p->k, &t, smem_of, &smem));
	const int64_t nw = (p->n + (int64_t)sizeof(W) - 1) / (int64_t)sizeof(W);
	const bool aligned = gf_rows_aligned(p->b, p->ldb, sizeof(W)) &&
	                     gf_rows_aligned(p->c, p->ldc, sizeof(W));
	const dim3 block((unsigned)t.cols, (unsigned)t.rows);
	const dim3 grid(gf_grid_x(nw, t.cols, p->sm_count, 2048 / (t.rows * t.cols) + 1),
	                (unsigned)((p->m + t.rows - 1) / t.rows));
	gf_packed_kernel<W><<<grid, block, smem, (cudaStream_t)p->stream>>>(
		p->m, p->n, p->k, p->da, p->b, p->ldb, p->c, p->ldc, t.rows, t.cols, t.depth, aligned);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

gk_status gk_gf_cuda_packed4(const gk_gf_cuda_args *p)
{
	return packed_launch<uint32_t>("cuda.gf_packed4", p, packed4_smem);
}

gk_status gk_gf_cuda_packed8(const gk_gf_cuda_args *p)
{
	return packed_launch<uint64_t>("cuda.gf_packed8", p, packed8_smem);
}
