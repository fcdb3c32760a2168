/*
 * sgemm_tc_split.cu - the split of an FP32 operand into TF32 planes for the
 * tensor-core SGEMM (gk_tc_split, declared in sgemm_tc.cuh); sm_80 and later.
 *
 * What it computes: for a source of rows x k, element (r, kk) at
 * x[r * rs + kk * cs] (any strides), the planes hi and lo of rows_p x kp,
 * row-major with row stride kp (row r holds source row r, K contiguous):
 *
 *   hi = rna_tf32(x)       (cvt.rna.tf32.f32: to nearest, ties away from 0)
 *   lo = rn_tf32(x - hi)   (to nearest, ties to even; x - hi is exact)
 *
 * so that x = hi + lo up to 2^-22 |x| or so. Non-finite x: hi = x, lo = 0
 * (a NaN quieted, so that it is still a NaN without its low 13 bits).
 * A finite x whose rounding would overflow (|x| within half a TF32 ulp of
 * FLT_MAX): hi = rz_tf32(x), so hi stays finite and lo holds the rest.
 * Entries outside rows x k are zero. Every value stored has its low 13
 * mantissa bits zero: the tensor cores ignore them, so they must already be
 * rounded away. lo may be NULL (TF32 mode: hi only).
 *
 * Shape: a block of 32 x 8 threads owns a 32 x 32 tile of a plane (32 rows,
 * 32 values of K). With a K-contiguous source (cs == 1) each thread reads
 * and writes along K directly; otherwise the tile is read along the rows
 * (coalesced when rs == 1), transposed through shared memory, and written
 * along K. The grid walks the tiles in a loop: any rows_p, kp fit.
 *
 * Preconditions: rows_p >= rows, kp >= k, both multiples of 32; hi (and
 * lo) device memory of rows_p * kp floats.
 */
#include "sgemm_tc.cuh"

namespace {

constexpr int TS = 32;   /* tile edge */
constexpr int TY = 8;    /* thread rows: each thread does TS / TY values */

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 900
/* Before sm_90 (no cvt.rn.tf32.f32): round to nearest even at bit 13 of a
 * finite value that cannot overflow. */
__device__ __forceinline__ uint32_t rn_tf32_bits(uint32_t u)
{
	return (u + 0x0fffu + ((u >> 13) & 1u)) & 0xffffe000u;
}
#endif

/* The two planes' values of one element. */
__device__ __forceinline__ void split_one(float x, float &hi, float &lo)
{
	const uint32_t u = __float_as_uint(x);
	if ((u & 0x7f800000u) == 0x7f800000u) { /* inf, or NaN made quiet: its TF32 form stays a NaN */
		hi = __uint_as_float(((u & 0x007fffffu) ? u | 0x00400000u : u) & 0xffffe000u);
		lo = 0.f;
		return;
	}
	uint32_t h;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(h) : "f"(x));
	h &= 0xffffe000u;
#else
	h = (u + 0x1000u) & 0xffffe000u;
#endif
	if ((h & 0x7f800000u) == 0x7f800000u) /* rounded up past FLT_MAX */
		h = u & 0xffffe000u;
	hi = __uint_as_float(h);
	const float d = x - hi; /* exact: hi is within half a TF32 ulp of x */
	uint32_t l;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(l) : "f"(d));
	l &= 0xffffe000u;
#else
	l = rn_tf32_bits(__float_as_uint(d));
#endif
	lo = __uint_as_float(l);
}

/* K-contiguous source: each thread reads 4 consecutive values of K of one
 * row and writes them as one 16-byte store per plane. */
__global__ void __launch_bounds__(TS * TY)
split_kfast_kernel(const float *__restrict__ x, int64_t rows, int64_t k, int64_t rs, float *__restrict__ hi,
                   float *__restrict__ lo, int64_t rows_p, int64_t kp)
{
	const int tx = threadIdx.x % 8, ty = threadIdx.x / 8; /* 8 x 4 values of K, 32 rows */
	for (int64_t r0 = (int64_t)blockIdx.y * TS; r0 < rows_p; r0 += (int64_t)gridDim.y * TS) {
		for (int64_t k0 = (int64_t)blockIdx.x * TS; k0 < kp; k0 += (int64_t)gridDim.x * TS) {
			const int64_t r = r0 + ty, kk = k0 + tx * 4;
			float h[4], l[4];
#pragma unroll
			for (int e = 0; e < 4; ++e) {
				float v = 0.f;
				if (r < rows && kk + e < k)
					v = x[r * rs + kk + e];
				split_one(v, h[e], l[e]);
			}
			const int64_t o = r * kp + kk;
			*reinterpret_cast<float4 *>(hi + o) = make_float4(h[0], h[1], h[2], h[3]);
			if (lo)
				*reinterpret_cast<float4 *>(lo + o) = make_float4(l[0], l[1], l[2], l[3]);
		}
	}
}

/* Any other source: read along the rows into a shared tile, write along K. */
__global__ void __launch_bounds__(TS * TY)
split_transpose_kernel(const float *__restrict__ x, int64_t rows, int64_t k, int64_t rs, int64_t cs,
                       float *__restrict__ hi, float *__restrict__ lo, int64_t rows_p, int64_t kp)
{
	__shared__ float t[TS][TS + 1]; /* [k][row] */
	const int tx = threadIdx.x % TS, ty = threadIdx.x / TS;
	for (int64_t r0 = (int64_t)blockIdx.y * TS; r0 < rows_p; r0 += (int64_t)gridDim.y * TS) {
		for (int64_t k0 = (int64_t)blockIdx.x * TS; k0 < kp; k0 += (int64_t)gridDim.x * TS) {
			/* Read: thread (tx, ty) takes row r0 + tx, K k0 + ty + i TY. */
#pragma unroll
			for (int i = 0; i < TS / TY; ++i) {
				const int64_t r = r0 + tx, kk = k0 + ty + i * TY;
				float v = 0.f;
				if (r < rows && kk < k)
					v = x[r * rs + kk * cs];
				t[ty + i * TY][tx] = v;
			}
			__syncthreads();
			/* Write: thread (tx, ty) takes K k0 + tx, row r0 + ty + i TY. */
#pragma unroll
			for (int i = 0; i < TS / TY; ++i) {
				const int64_t r = r0 + ty + i * TY;
				float h, l;
				split_one(t[tx][ty + i * TY], h, l);
				const int64_t o = r * kp + k0 + tx;
				hi[o] = h;
				if (lo)
					lo[o] = l;
			}
			__syncthreads();
		}
	}
}

} /* namespace */

gk_status gk_tc_split(const float *x, int64_t rows, int64_t k, int64_t rs, int64_t cs, float *hi,
                      float *lo, int64_t rows_p, int64_t kp, cudaStream_t stream)
{
	static const char *fn = "gk_tc_split";
	if (rows_p % TS || kp % TS || rows_p < rows || kp < k)
		return gk_set_error(GK_ERR_INTERNAL, "%s: planes of %lld x %lld for %lld x %lld", fn,
		                    (long long)rows_p, (long long)kp, (long long)rows, (long long)k);
	const int64_t gx = kp / TS, gy = rows_p / TS;
	const dim3 grid((unsigned)(gx < (1 << 30) ? gx : (1 << 30)), (unsigned)(gy < 65535 ? gy : 65535));
	if (cs == 1)
		split_kfast_kernel<<<grid, TS * TY, 0, stream>>>(x, rows, k, rs, hi, lo, rows_p, kp);
	else
		split_transpose_kernel<<<grid, TS * TY, 0, stream>>>(x, rows, k, rs, cs, hi, lo, rows_p, kp);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}
