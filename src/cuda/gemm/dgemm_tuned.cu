/*
 * dgemm_tuned.cu - the launcher of the tuned DGEMM (cuda.dgemm, "auto" for
 * double on the GPU): FP64 tensor cores, DMMA 16x8x16 on sm_90 and newer
 * (dgemm_dmma_sm90.cuh), DMMA 8x8x4 on sm_80 to sm_89 (dgemm_dmma_sm80.cuh),
 * on the cp.async tiles of dgemm_dmma_tile.cuh: 128 x 64 (4 warps, two
 * blocks per multiprocessor) on sm_90, 128 x 128 (8 warps) on sm_8x.
 *
 * The choices made here, per call:
 *   - the kernel by the device's compute capability (below 8.0: no FP64
 *     tensor cores, GK_ERR_UNSUPPORTED);
 *   - the orientation of each operand (a template argument): A with
 *     cs_a = 1 is copied as rows of k, else (rs_a = 1) as rows of m; B with
 *     cs_b = 1 as rows of n, else (rs_b = 1) as rows of k;
 *   - 16-byte copies for an operand whose pointer is 16-byte aligned and
 *     whose other stride is even, 8-byte copies otherwise; 16-byte stores of
 *     C likewise (c aligned, rs_c even);
 *   - split-K when the tiles of C fill less than half of the block slots
 *     (multiprocessors x blocks per multiprocessor) and k is long (>= 16
 *     steps of 16): S ranges of k, each at least 8 steps, S x tiles <=
 *     slots; the partial products go
 *     to a stream-ordered workspace (cudaMallocAsync) and a reduction kernel
 *     adds them in a fixed order, so the result does not depend on timing.
 *     If the workspace cannot be had, the product runs without split-K.
 * Everything is queued on p->stream; nothing synchronizes the device.
 */
#include "../core/cuda_check.cuh"
#include "dgemm_dmma_sm80.cuh"
#include "dgemm_dmma_sm90.cuh"

/* sm_90: the 128 x 64 tile (4 warps) with 4 stages of 24 KB, so that two
 * blocks share a multiprocessor (2 x 96 KB of shared memory, 2 x 128
 * threads x 255 registers); sm_8x: the 128 x 128 tile (8 warps), 3 stages
 * of 32 KB (fits the 99 KB of sm_86 / sm_89). */
#ifndef GK_DGEMM_SM90_STAGES
#define GK_DGEMM_SM90_STAGES 4
#endif
#define GK_DGEMM_SM90_BN 64
#define GK_DGEMM_SM80_STAGES 3
#define GK_DGEMM_SM80_BN 128

namespace {

using gk_dmma::Params;

/* C = alpha * (W[0] + ... + W[S-1]) + beta * C, W[s] at w + s * plane with
 * row stride n; each element summed in split order. */
__global__ void __launch_bounds__(256) dgemm_splitk_reduce(const double *__restrict__ w, int64_t splits,
                                                           int64_t plane, int64_t m, int64_t n,
                                                           double alpha, double beta, double *c,
                                                           int64_t rs_c)
{
	const int64_t total = m * n;
	for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total;
	     e += (int64_t)gridDim.x * blockDim.x) {
		const double *src = w + e;
		double s = src[0];
		for (int64_t z = 1; z < splits; ++z)
			s += src[z * plane];
		const int64_t i = e / n, j = e - i * n;
		double *cp = c + i * rs_c + j;
		double v = alpha * s;
		if (beta != 0.0)
			v = fma(beta, *cp, v);
		*cp = v;
	}
}

template <bool A_XK, bool B_XK>
gk_status launch_tile(const char *fn, int major, const Params &P, int64_t blocks, cudaStream_t st)
{
	if (major >= 9) {
		constexpr int BN = GK_DGEMM_SM90_BN;
		const int smem = GK_DGEMM_SM90_STAGES * gk_dmma::stage_bytes(BN);
		auto kern = gk_dmma::dgemm_dmma_sm90_kernel<A_XK, B_XK, BN, GK_DGEMM_SM90_STAGES>;
		GK_CUDA_TRY(fn, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
		GK_CUDA_TRY(fn, cudaFuncSetAttribute(kern, cudaFuncAttributePreferredSharedMemoryCarveout,
		                                     (int)cudaSharedmemCarveoutMaxShared));
		kern<<<(unsigned)blocks, gk_dmma::threads_of(BN), smem, st>>>(P);
	} else {
		constexpr int BN = GK_DGEMM_SM80_BN;
		const int smem = GK_DGEMM_SM80_STAGES * gk_dmma::stage_bytes(BN);
		auto kern = gk_dmma::dgemm_dmma_sm80_kernel<A_XK, B_XK, BN, GK_DGEMM_SM80_STAGES>;
		GK_CUDA_TRY(fn, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
		kern<<<(unsigned)blocks, gk_dmma::threads_of(BN), smem, st>>>(P);
	}
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

gk_status launch_any(const char *fn, int major, bool a_xk, bool b_xk, const Params &P, cudaStream_t st)
{
	int64_t blocks = P.tiles_m * P.tiles_n * P.splits;
	if (blocks > 0x7fffffff)
		blocks = 0x7fffffff; /* the kernel walks the rest in a loop */
	if (a_xk)
		return b_xk ? launch_tile<true, true>(fn, major, P, blocks, st)
		            : launch_tile<true, false>(fn, major, P, blocks, st);
	return b_xk ? launch_tile<false, true>(fn, major, P, blocks, st)
	            : launch_tile<false, false>(fn, major, P, blocks, st);
}

bool aligned16(const void *p)
{
	return ((uintptr_t)p & 15u) == 0;
}

} /* namespace */

extern "C" gk_status gk_cuda_dgemm_tuned(const gk_cuda_dgemm_args *p)
{
	static const char fn[] = "gk_cuda_dgemm_tuned";
	int major = 0;
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, p->device));
	if (major < 8)
		return gk_set_error(GK_ERR_UNSUPPORTED,
		                    "%s: FP64 tensor cores need compute capability 8.0 or newer (device %d has %d.x)",
		                    fn, p->device, major);

	/* Orientation: XK = the operand's k index is the unit-stride one. */
	bool a_xk, b_xk;
	int64_t lda, ldb;
	if (p->cs_a == 1) {
		a_xk = true;
		lda = p->rs_a;
	} else if (p->rs_a == 1) {
		a_xk = false;
		lda = p->cs_a;
	} else {
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: A has no unit stride", fn);
	}
	if (p->cs_b == 1) {
		b_xk = false;
		ldb = p->rs_b;
	} else if (p->rs_b == 1) {
		b_xk = true;
		ldb = p->cs_b;
	} else {
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: B has no unit stride", fn);
	}

	Params P;
	P.m = p->m;
	P.n = p->n;
	P.k = p->k;
	P.alpha = p->alpha;
	P.beta = p->beta;
	P.a = p->a;
	P.lda = lda;
	P.b = p->b;
	P.ldb = ldb;
	P.c = p->c;
	P.ldc = p->rs_c;
	P.a_vec = aligned16(p->a) && (lda % 2 == 0);
	P.b_vec = aligned16(p->b) && (ldb % 2 == 0);
	P.c_vec = aligned16(p->c) && (p->rs_c % 2 == 0);
	P.tiles_m = (p->m + gk_dmma::BM - 1) / gk_dmma::BM;
	const int64_t bn = major >= 9 ? GK_DGEMM_SM90_BN : GK_DGEMM_SM80_BN;
	const int64_t per_sm = major >= 9 ? 2 : 1; /* blocks of the tile per multiprocessor */
	P.tiles_n = (p->n + bn - 1) / bn;
	P.k_split = p->k;
	P.splits = 1;
	P.split_plane = 0;
	cudaStream_t st = (cudaStream_t)p->stream;

	/* Split-K for few tiles and a long k. */
	const int64_t tiles = P.tiles_m * P.tiles_n;
	const int64_t ksteps = (p->k + gk_dmma::BK - 1) / gk_dmma::BK;
	const int64_t slots = (p->sm_count > 0 ? p->sm_count : 1) * per_sm;
	int64_t splits = 1;
	if (2 * tiles <= slots && ksteps >= 16) {
		splits = slots / tiles;
		if (splits > ksteps / 8)
			splits = ksteps / 8;
	}
	if (splits > 1) {
		const int64_t steps = (ksteps + splits - 1) / splits;
		const int64_t k_split = steps * gk_dmma::BK;
		splits = (p->k + k_split - 1) / k_split;
		const int64_t plane = (p->m * p->n + 1) & ~(int64_t)1; /* keeps every plane 16-byte aligned */
		void *ws = NULL;
		cudaError_t e = cudaMallocAsync(&ws, (size_t)(splits * plane) * sizeof(double), st);
		if (e == cudaErrorMemoryAllocation) {
			(void)cudaGetLastError(); /* clear it: run without split-K */
		} else {
			GK_CUDA_TRY(fn, e);
			Params S = P;
			S.c = (double *)ws;
			S.ldc = p->n;
			S.c_vec = (p->n % 2 == 0);
			S.k_split = k_split;
			S.splits = splits;
			S.split_plane = plane;
			gk_status s = launch_any(fn, major, a_xk, b_xk, S, st);
			if (s == GK_OK) {
				int64_t blocks = (p->m * p->n + 255) / 256;
				if (blocks > 65536)
					blocks = 65536;
				dgemm_splitk_reduce<<<(unsigned)blocks, 256, 0, st>>>((const double *)ws, splits, plane,
				                                                      p->m, p->n, p->alpha, p->beta,
				                                                      p->c, p->rs_c);
				cudaError_t le = cudaGetLastError();
				if (le != cudaSuccess)
					s = gk_cuda_status(le, fn, "dgemm_splitk_reduce<<<>>>");
			}
			cudaError_t fe = cudaFreeAsync(ws, st);
			if (s != GK_OK)
				return s;
			GK_CUDA_TRY(fn, fe);
			return GK_OK;
		}
	}
	return launch_any(fn, major, a_xk, b_xk, P, st);
}
