/*
 * sgemm_pack.cu - the operand copy of the tuned SGEMM (sm_80, sm_90).
 *
 * What it computes: dst[r * ld + c] = src[r * sr + c * sc] for r < rows,
 * c < cols (64-bit indices). The launcher uses it to give the GEMM kernel a
 * K-major copy of A (r along K, c along M) or of B (c along N), 16-byte
 * aligned with ld a multiple of 4, so the kernel's 16-byte cp.async path
 * applies.
 *
 * Shape: a block of 32 x 8 threads moves a 32 x 32 tile. When the source
 * is contiguous along c (sc == 1) the copy is direct, coalesced on both
 * sides; when it is contiguous along r (a transpose) the tile goes through
 * shared memory with one pad column (no bank conflicts), so reads and
 * writes are both coalesced. Tiles are walked by a grid-stride loop, so any
 * size fits the grid. No alignment is required of src.
 */
#include "sgemm_pack.cuh"

namespace {

constexpr int T = 32, RY = 8;

template <bool TRANSPOSE>
__global__ void __launch_bounds__(T *RY)
pack_kernel(float *__restrict__ dst, int64_t ld, int64_t rows, int64_t cols, const float *__restrict__ src,
            int64_t sr, int64_t sc)
{
	__shared__ float tile[T][T + 1];
	const int64_t tc = (cols + T - 1) / T, tiles = (rows + T - 1) / T * tc;
	const int tx = threadIdx.x, ty = threadIdx.y;
	for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
		const int64_t r0 = t / tc * T, c0 = t % tc * T;
		if (!TRANSPOSE) {
			const int64_t c = c0 + tx;
			for (int i = ty; i < T; i += RY) {
				const int64_t r = r0 + i;
				if (r < rows && c < cols)
					dst[r * ld + c] = src[r * sr + c * sc];
			}
		} else {
			/* Read along r (contiguous in src), write along c. */
			for (int i = ty; i < T; i += RY) {
				const int64_t r = r0 + tx, c = c0 + i;
				if (r < rows && c < cols)
					tile[i][tx] = src[r * sr + c * sc];
			}
			__syncthreads();
			for (int i = ty; i < T; i += RY) {
				const int64_t r = r0 + i, c = c0 + tx;
				if (r < rows && c < cols)
					dst[r * ld + c] = tile[tx][i];
			}
			__syncthreads();
		}
	}
}

} /* namespace */

gk_status gk_sgemm_pack(float *dst, int64_t ld, int64_t rows, int64_t cols, const float *src, int64_t sr,
                        int64_t sc, cudaStream_t stream)
{
	const int64_t tiles = (rows + T - 1) / T * ((cols + T - 1) / T);
	const unsigned grid = (unsigned)(tiles < (1 << 20) ? tiles : (1 << 20));
	const dim3 block(T, RY);
	if (sc == 1)
		pack_kernel<false><<<grid, block, 0, stream>>>(dst, ld, rows, cols, src, sr, sc);
	else
		pack_kernel<true><<<grid, block, 0, stream>>>(dst, ld, rows, cols, src, sr, sc);
	GK_CUDA_LAUNCHED("gk_sgemm_pack");
	return GK_OK;
}
