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
 *
 * Power-of-two scaling (gk_tc_absmax, gk_tc_split_scaled; the scales of
 * sgemm_tc.cuh). gk_tc_absmax reads an operand once and leaves, for each
 * row r, the largest |x(r, kk)| as the bits of an FP32 magnitude in
 * rmax[r] (unsigned compare orders them; Inf and NaN above every finite
 * value) and the operand's largest in *gmax, both with atomicMax into
 * arrays the caller zeroed; A and B go in one launch. gk_tc_split_scaled
 * then splits row r times 2^-e[r] (exact) and stores e[r] (0 for the
 * padding rows), where, with M = rmax[r] and G = the other operand's
 * largest magnitude:
 *   M >= 1, M == 0 or M not finite:  e = 0 (never scaled down);
 *   otherwise e = min(0, floor(log2 M) - t), t = min(0, budget - U),
 *   U = floor(log2 G) + 1 when G >= 1 (129 when G is not finite), else 0;
 * so a scaled row's largest magnitude lies in [2^t, 2^(t+1)). With budget
 * = 119 - ceil(log2(4 K)) (the launcher's), every scaled row (below
 * 2^(t+1)) times every column of the other operand (below 2^U unscaled,
 * below 2 scaled) sums K products below 2^120: the scaled problem cannot
 * overflow where the unscaled one did not come near.
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

/* The scaling of one operand (gk_tc_split_scaled); rmax NULL: none. */
struct scale_args {
	const unsigned *rmax;   /* row maxima (bits of |x|), rows_p of them */
	const unsigned *gother; /* the other operand's largest |x| (bits) */
	int budget;             /* 119 - ceil(log2(4 K)) */
	int *exp;               /* out: the row exponents, rows_p of them */
};

/* floor(log2 of a positive finite magnitude given by its bits). */
__device__ __forceinline__ int ilog2_bits(unsigned b)
{
	return b >= 0x00800000u ? (int)(b >> 23) - 127 : -118 - __clz((int)b);
}

/* The exponent e <= 0 of a row (the rule in the contract above). */
__device__ __forceinline__ int row_exp(const scale_args &sc, int64_t r)
{
	if (!sc.rmax)
		return 0;
	const unsigned m = sc.rmax[r];
	if (m == 0u || m >= 0x3f800000u) /* zero, >= 1, Inf or NaN */
		return 0;
	const unsigned g = *sc.gother;
	const int u = g >= 0x7f800000u ? 129 : g >= 0x3f800000u ? ilog2_bits(g) + 1 : 0;
	const int t = min(0, sc.budget - u);
	return min(0, ilog2_bits(m) - t);
}

/* 2^p as a float, -126 <= p <= 127. */
__device__ __forceinline__ float pow2f(int p)
{
	return __uint_as_float((unsigned)(127 + p) << 23);
}

/* x 2^-e, e <= 0, exact (the row's largest result stays below 2). */
__device__ __forceinline__ float scale_up(float x, int e)
{
	if (e == 0)
		return x;
	const int s = -e, s1 = s < 127 ? s : 127;
	x *= pow2f(s1);
	return s > s1 ? x * pow2f(s - s1) : x;
}

/* K-contiguous source: each thread reads 4 consecutive values of K of one
 * row and writes them as one 16-byte store per plane. */
__global__ void __launch_bounds__(TS * TY)
split_kfast_kernel(const float *__restrict__ x, int64_t rows, int64_t k, int64_t rs, float *__restrict__ hi,
                   float *__restrict__ lo, int64_t rows_p, int64_t kp, const scale_args sc)
{
	const int tx = threadIdx.x % 8, ty = threadIdx.x / 8; /* 8 x 4 values of K, 32 rows */
	for (int64_t r0 = (int64_t)blockIdx.y * TS; r0 < rows_p; r0 += (int64_t)gridDim.y * TS) {
		const int64_t r = r0 + ty;
		const int ex = row_exp(sc, r);
		if (sc.rmax && blockIdx.x == 0 && tx == 0)
			sc.exp[r] = ex;
		for (int64_t k0 = (int64_t)blockIdx.x * TS; k0 < kp; k0 += (int64_t)gridDim.x * TS) {
			const int64_t kk = k0 + tx * 4;
			float h[4], l[4];
#pragma unroll
			for (int e = 0; e < 4; ++e) {
				float v = 0.f;
				if (r < rows && kk + e < k)
					v = scale_up(x[r * rs + kk + e], ex);
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
                       float *__restrict__ hi, float *__restrict__ lo, int64_t rows_p, int64_t kp,
                       const scale_args sc)
{
	__shared__ float t[TS][TS + 1]; /* [k][row] */
	const int tx = threadIdx.x % TS, ty = threadIdx.x / TS;
	for (int64_t r0 = (int64_t)blockIdx.y * TS; r0 < rows_p; r0 += (int64_t)gridDim.y * TS) {
		int ex[TS / TY]; /* the exponents of the rows this thread writes */
#pragma unroll
		for (int i = 0; i < TS / TY; ++i) {
			ex[i] = row_exp(sc, r0 + ty + i * TY);
			if (sc.rmax && blockIdx.x == 0 && tx == 0)
				sc.exp[r0 + ty + i * TY] = ex[i];
		}
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
				split_one(scale_up(t[tx][ty + i * TY], ex[i]), h, l);
				const int64_t o = r * kp + k0 + tx;
				hi[o] = h;
				if (lo)
					lo[o] = l;
			}
			__syncthreads();
		}
	}
}

/* One operand of gk_tc_absmax. */
struct max_args {
	const float *x;
	int64_t rows, k, rs, cs;
	unsigned *rmax, *gmax;
};

constexpr int MAX_KBLOCKS = 64; /* blocks along K per 32 rows, at most */

/* Row maxima of |x| for operand blockIdx.z (32 rows per block, its share
 * of K). K contiguous (cs == 1): warp w reads rows r0 + w + 8 i along K,
 * 128 bytes per load, and reduces across its lanes. Otherwise lane l
 * takes row r0 + l (coalesced when rs == 1) and warp w the values of K
 * w + 8 i of each 32; the warps reduce through shared memory. One
 * atomicMax per row and block, one per block into *gmax. */
__global__ void __launch_bounds__(TS * TY) absmax_kernel(const max_args a0, const max_args a1)
{
	const max_args &a = blockIdx.z == 0 ? a0 : a1;
	__shared__ unsigned red[TY][TS + 1];
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const int64_t kstep = (int64_t)gridDim.x * TS;
	unsigned bmax = 0u;
	for (int64_t r0 = (int64_t)blockIdx.y * TS; r0 < a.rows; r0 += (int64_t)gridDim.y * TS) {
		if (a.cs == 1) {
			unsigned m[TS / TY];
#pragma unroll
			for (int i = 0; i < TS / TY; ++i)
				m[i] = 0u;
			for (int64_t kk = (int64_t)blockIdx.x * TS + lane; kk < a.k; kk += kstep) {
#pragma unroll
				for (int i = 0; i < TS / TY; ++i) {
					const int64_t r = r0 + warp + i * TY;
					if (r < a.rows)
						m[i] = max(m[i], __float_as_uint(a.x[r * a.rs + kk]) & 0x7fffffffu);
				}
			}
#pragma unroll
			for (int i = 0; i < TS / TY; ++i) {
#pragma unroll
				for (int o = 16; o > 0; o >>= 1)
					m[i] = max(m[i], __shfl_xor_sync(0xffffffffu, m[i], o));
				const int64_t r = r0 + warp + i * TY;
				if (lane == 0 && r < a.rows && m[i])
					atomicMax(a.rmax + r, m[i]);
				bmax = max(bmax, m[i]);
			}
		} else {
			unsigned m = 0u;
			const int64_t r = r0 + lane;
			if (r < a.rows)
				for (int64_t kk = (int64_t)blockIdx.x * TS + warp; kk < a.k; kk += kstep) {
#pragma unroll 4
					for (int i = 0; i < TS / TY; ++i)
						if (kk + i * TY < a.k)
							m = max(m, __float_as_uint(a.x[r * a.rs + (kk + i * TY) * a.cs]) & 0x7fffffffu);
				}
			red[warp][lane] = m;
			__syncthreads();
			if (warp == 0) {
#pragma unroll
				for (int w = 1; w < TY; ++w)
					m = max(m, red[w][lane]);
				if (r < a.rows && m)
					atomicMax(a.rmax + r, m);
				bmax = max(bmax, m);
			}
			__syncthreads();
		}
	}
#pragma unroll
	for (int o = 16; o > 0; o >>= 1)
		bmax = max(bmax, __shfl_xor_sync(0xffffffffu, bmax, o));
	if (lane == 0 && bmax)
		atomicMax(a.gmax, bmax);
}

gk_status split_launch(const float *x, int64_t rows, int64_t k, int64_t rs, int64_t cs, float *hi, float *lo,
                       int64_t rows_p, int64_t kp, const scale_args &sc, cudaStream_t stream, const char *fn)
{
	if (rows_p % TS || kp % TS || rows_p < rows || kp < k)
		return gk_set_error(GK_ERR_INTERNAL, "%s: planes of %lld x %lld for %lld x %lld", fn,
		                    (long long)rows_p, (long long)kp, (long long)rows, (long long)k);
	const int64_t gx = kp / TS, gy = rows_p / TS;
	const dim3 grid((unsigned)(gx < (1 << 30) ? gx : (1 << 30)), (unsigned)(gy < 65535 ? gy : 65535));
	if (cs == 1)
		split_kfast_kernel<<<grid, TS * TY, 0, stream>>>(x, rows, k, rs, hi, lo, rows_p, kp, sc);
	else
		split_transpose_kernel<<<grid, TS * TY, 0, stream>>>(x, rows, k, rs, cs, hi, lo, rows_p, kp, sc);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

} /* namespace */

gk_status gk_tc_split(const float *x, int64_t rows, int64_t k, int64_t rs, int64_t cs, float *hi,
                      float *lo, int64_t rows_p, int64_t kp, cudaStream_t stream)
{
	const scale_args none = {nullptr, nullptr, 0, nullptr};
	return split_launch(x, rows, k, rs, cs, hi, lo, rows_p, kp, none, stream, "gk_tc_split");
}

gk_status gk_tc_split_scaled(const float *x, int64_t rows, int64_t k, int64_t rs, int64_t cs, float *hi,
                             float *lo, int64_t rows_p, int64_t kp, const unsigned *rmax,
                             const unsigned *gmax_other, int budget, int *exp, cudaStream_t stream)
{
	const scale_args sc = {rmax, gmax_other, budget, exp};
	if (!rmax || !gmax_other || !exp)
		return gk_set_error(GK_ERR_INTERNAL, "gk_tc_split_scaled: no maxima or exponents");
	return split_launch(x, rows, k, rs, cs, hi, lo, rows_p, kp, sc, stream, "gk_tc_split_scaled");
}

gk_status gk_tc_absmax(const float *a, int64_t m, int64_t rs_a, int64_t cs_a, const float *b, int64_t n,
                       int64_t rs_b, int64_t cs_b, int64_t k, unsigned *rmax_a, unsigned *rmax_b,
                       unsigned *gmax, cudaStream_t stream)
{
	static const char *fn = "gk_tc_absmax";
	const max_args a0 = {a, m, k, rs_a, cs_a, rmax_a, gmax};
	const max_args a1 = {b, n, k, rs_b, cs_b, rmax_b, gmax + 1};
	const int64_t rt = ((m > n ? m : n) + TS - 1) / TS;
	/* Blocks along K: enough for about 4 blocks per 32-row tile of work
	 * per 2048 rows, at most MAX_KBLOCKS, at most one per 32 of K. */
	int64_t gx = (k + TS - 1) / TS;
	const int64_t want = rt >= 256 ? 1 : 256 / rt;
	if (gx > want)
		gx = want;
	if (gx > MAX_KBLOCKS)
		gx = MAX_KBLOCKS;
	const dim3 grid((unsigned)gx, (unsigned)(rt < 65535 ? rt : 65535), 2);
	absmax_kernel<<<grid, TS * TY, 0, stream>>>(a0, a1);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}
