/*
 * sgemm_splitk.cu - the split-K reduction of the tuned SGEMM (sm_80, sm_90).
 *
 * What it computes: C = alpha * (W[0] + W[1] + ... + W[S-1]) + beta * C,
 * W[s] the m x n partial product of split s (row-major, row stride n,
 * contiguous blocks), C row-major with any row stride and alignment.
 *
 * Shape: a block of 256 threads owns 32 consecutive elements of the m x n
 * index space (row-major order) and 8 "split lanes": lane t sums splits
 * t, t + 8, t + 16, ... in order, then lane 0 adds the 8 lane sums in order.
 * The order depends only on S, so the result is bit-for-bit reproducible.
 * Reads of W are coalesced (32 consecutive floats per warp); beta == 0 never
 * reads C. The grid walks the elements in a loop, so any m * n fits.
 */
#include "sgemm_splitk.cuh"

namespace {

constexpr int RED_COLS = 32, RED_LANES = 8;

__global__ void __launch_bounds__(RED_COLS * RED_LANES)
splitk_reduce_kernel(const float *__restrict__ w, int64_t splits, int64_t m, int64_t n, float alpha,
                     float beta, float *c, int64_t rs_c)
{
	__shared__ float part[RED_LANES][RED_COLS];
	const int col = threadIdx.x % RED_COLS, lane = threadIdx.x / RED_COLS;
	const int64_t total = m * n, plane = m * n;
	for (int64_t e0 = (int64_t)blockIdx.x * RED_COLS; e0 < total; e0 += (int64_t)gridDim.x * RED_COLS) {
		const int64_t e = e0 + col;
		float s = 0.f;
		if (e < total) {
			const float *src = w + e + lane * plane;
			int64_t t = lane;
			/* Four independent loads in flight, summed in split order. */
			for (; t + 3 * RED_LANES < splits; t += 4 * RED_LANES) {
				float v0 = src[0], v1 = src[RED_LANES * plane], v2 = src[2 * RED_LANES * plane],
				      v3 = src[3 * RED_LANES * plane];
				s += v0; s += v1; s += v2; s += v3;
				src += 4 * RED_LANES * plane;
			}
			for (; t < splits; t += RED_LANES) {
				s += src[0];
				src += RED_LANES * plane;
			}
		}
		part[lane][col] = s;
		__syncthreads();
		if (lane == 0 && e < total) {
			float sum = part[0][col];
#pragma unroll
			for (int l = 1; l < RED_LANES; ++l)
				sum += part[l][col];
			const int64_t i = e / n, j = e - i * n;
			float *cp = c + i * rs_c + j;
			float v = alpha * sum;
			if (beta != 0.f)
				v = fmaf(beta, *cp, v);
			*cp = v;
		}
		__syncthreads();
	}
}

} /* namespace */

gk_status gk_sgemm_splitk_reduce(const float *w, int64_t splits, int64_t m, int64_t n, float alpha,
                                 float beta, float *c, int64_t rs_c, cudaStream_t stream)
{
	const int64_t groups = (m * n + RED_COLS - 1) / RED_COLS;
	const unsigned grid = (unsigned)(groups < (1 << 20) ? groups : (1 << 20));
	splitk_reduce_kernel<<<grid, RED_COLS * RED_LANES, 0, stream>>>(w, splits, m, n, alpha, beta, c, rs_c);
	GK_CUDA_LAUNCHED("gk_sgemm_splitk_reduce");
	return GK_OK;
}
