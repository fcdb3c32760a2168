/*
 * sgemm_kernel.cuh - the tuned SGEMM kernel template (plain FP32 FFMA, no
 * tensor cores), for sm_80 and sm_90: warp tiling, cp.async multi-stage
 * pipeline, bank-conflict-free shared memory, grouped (L2-friendly) tile
 * order and optional split-K.
 *
 * What it computes. One launch computes, for every tile of C it is given
 * and every split s of K (blockIdx.z):
 *     C_s = alpha * A[:, K_s] * B[K_s, :] + beta * C_s
 * with A m x k at a[i * rs_a + l * cs_a], B k x n at b[l * rs_b + j * cs_b]
 * and C_s row-major at c + s * split_stride + i * rs_c + j. Without split-K
 * (gridDim.z = 1) that is the canonical GEMM. With split-K the launcher
 * passes alpha = 1, beta = 0 and a workspace as C; sgemm_splitk.cu sums the
 * splits in order and applies alpha and beta (deterministic).
 *
 * Tiling. A block of NT = 32 * WARPS_M * WARPS_N threads owns a BM x BN tile
 * of C; each warp a WM x WN sub-tile (WM = BM / WARPS_M, WN = BN / WARPS_N);
 * the 32 lanes of a warp form an LM x LN grid and each lane holds
 * TM x TN = (WM / LM) x (WN / LN) accumulators. A lane's rows are TM / 4
 * runs of 4 consecutive rows, LM * 4 apart; its columns likewise TN / 4 runs
 * of 4, LN * 4 apart. So one k step is TM / 4 + TN / 4 LDS.128 and TM * TN
 * FFMA, and in every LDS.128 the lanes of a warp read at most 8 distinct,
 * consecutive 16-byte words (the others broadcast): no bank conflict.
 *
 * Shared memory. STAGES stages of As[BK][BM + 4] and Bs[BK][BN + 4]: both
 * operands are stored k-major (row l of As holds A[m0 : m0 + BM, l]), so the
 * fragments are LDS.128 along M and N. The 4-float pad makes the transposing
 * 4-byte stores (below) conflict-free and keeps rows 16-byte aligned.
 *
 * Loads from global memory, per operand, chosen by the launcher:
 *   VEC (template flag true): the operand is contiguous along the tile's
 *     row (A with rs_a == 1, B with cs_b == 1), its pointer 16-byte aligned
 *     and its leading dimension a multiple of 4: 16-byte cp.async.cg straight
 *     into the k-major layout; chunks that cross the edge of the matrix copy
 *     only their valid bytes and zero-fill the rest (src-size < 16).
 *   SCALAR (false): any strides (in practice the K-contiguous operand, or an
 *     unaligned one, when the launcher does not copy it into the VEC
 *     layout first): 4-byte cp.async.ca, one element each, transposed on
 *     the fly into the k-major layout. Consecutive threads walk the
 *     operand's contiguous direction (k_fast says which), so a warp reads
 *     full 32-byte sectors. Interior tiles skip the per-element predicates
 *     when the other operand is VEC; a configuration whose both-SCALAR
 *     variant would spill registers does not build it (BOTH_SCALAR) and the
 *     launcher uses another configuration for that case.
 * Out-of-range elements (edges of M, N, K) are zero-filled with src-size 0;
 * no element outside the matrices is read.
 *
 * Pipeline. STAGES - 1 tiles of K are in flight while one is computed; one
 * __syncthreads per tile of K.
 *
 * Epilogue. beta == 0 never reads C. Rows of 4 columns are written with one
 * 16-byte store when C's pointer and rs_c allow it (c_vec) and the 4
 * columns are inside C; else element by element. All index arithmetic that
 * can exceed 2^31 is 64-bit.
 */
#ifndef GK_SGEMM_KERNEL_CUH
#define GK_SGEMM_KERNEL_CUH

#include <stdint.h>
#include "../core/cuda_check.cuh"

namespace gk_sg {

/* One launch's problem, as the kernel sees it. */
struct params {
	int64_t m, n, k;
	const float *a; int64_t rs_a, cs_a;
	const float *b; int64_t rs_b, cs_b;
	float *c; int64_t rs_c;
	int64_t split_stride; /* elements between the C of two splits */
	int64_t k_split;      /* elements of K per split, a multiple of BK */
	float alpha, beta;
	int64_t tiles_m, tiles_n, tiles;
	int group_m;          /* tile rows per group of the grouped order */
	int a_kfast, b_kfast; /* SCALAR loads: threads walk K first */
	int c_vec;            /* 16-byte stores of C allowed */
};

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, int bytes)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes));
}

__device__ __forceinline__ void cp_async4(uint32_t dst, const void *src, int bytes)
{
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(bytes));
}

__device__ __forceinline__ void cp_async_commit()
{
	asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/*
 * The loader of one operand: a tile of BK rows (along K) of ROWLEN elements
 * (along M for A, N for B) into a k-major stage with row pitch ROWLEN + 4.
 * "mn" is the index along M or N, "kk" along K. rs_mn / rs_k: the strides
 * of the operand in those directions.
 */
template <int NT, int BK, int ROWLEN, bool VEC, bool FAST>
struct loader;

/* 16-byte chunks along the contiguous direction (rs_mn == 1). */
template <int NT, int BK, int ROWLEN, bool FAST>
struct loader<NT, BK, ROWLEN, true, FAST> {
	static constexpr int CPR = ROWLEN / 4;            /* chunks per row */
	static constexpr int SLOTS = BK * CPR / NT;       /* chunks per thread */
	static constexpr int KSTEP = NT / CPR;            /* rows between slots */
	static_assert(NT % CPR == 0 && (BK * CPR) % NT == 0, "vec loader shape");

	const float *g;      /* this thread's first chunk, at k = k0 */
	int64_t slot_step;   /* KSTEP rows of K, in elements */
	int64_t tile_step;   /* BK rows of K, in elements */
	uint32_t s_off;      /* byte offset of the first chunk in a stage */
	int bytes;           /* valid bytes of the chunk (edge of M/N) */
	int k_first;         /* k index of slot 0 within the tile */
	const float *base;

	__device__ __forceinline__ void init(const float *p, int64_t rs_k, int64_t mn0, int64_t mn_len,
	                                     int64_t k0, int tid, int kfast_unused)
	{
		(void)kfast_unused;
		int c = tid % CPR, r = tid / CPR;
		int64_t mn = mn0 + 4 * c;
		int64_t left = mn_len - mn;
		bytes = left >= 4 ? 16 : (left > 0 ? (int)left * 4 : 0);
		base = p;
		g = p + (bytes ? mn : 0) + (k0 + r) * rs_k;
		slot_step = (int64_t)KSTEP * rs_k;
		tile_step = (int64_t)BK * rs_k;
		s_off = (uint32_t)((r * (ROWLEN + 4) + 4 * c) * 4);
		k_first = r;
	}

	/* Issue the loads of the tile whose first k is kt (relative to the
	 * split's k0); kend: elements of K left from k0. */
	__device__ __forceinline__ void load(uint32_t stage, int64_t kt, int64_t kend) const
	{
		const float *gp = g + (kt / BK) * tile_step;
		const int kl = (int)min((int64_t)BK, kend - kt); /* valid rows of K */
#pragma unroll
		for (int s = 0; s < SLOTS; ++s) {
			int nb = k_first + s * KSTEP < kl ? bytes : 0;
			const uint32_t dst = stage + s_off + (uint32_t)(s * KSTEP * (ROWLEN + 4) * 4);
			if (nb == 16 || nb == 0) {
				cp_async16(dst, nb ? gp : base, nb);
			} else {
				/* A chunk cut by the edge of M or N: element by element, so
				 * that nothing past the last element is read (a 16-byte
				 * source could reach past the end of the allocation). */
#pragma unroll
				for (int e = 0; e < 4; ++e)
					cp_async4(dst + 4u * (uint32_t)e, 4 * e < nb ? gp + e : base, 4 * e < nb ? 4 : 0);
			}
			gp += slot_step;
		}
	}
};

/* One element per copy, any strides: transposes into the k-major stage.
 * FAST adds an unpredicated copy of interior tiles (used when the other
 * operand takes the 16-byte path; with both on this path the registers
 * would not hold it without spilling). */
template <int NT, int BK, int ROWLEN, bool FAST>
struct loader<NT, BK, ROWLEN, false, FAST> {
	static constexpr int SLOTS = BK * ROWLEN / NT;
	static_assert(NT % BK == 0 && NT % ROWLEN == 0 && (BK * ROWLEN) % NT == 0, "scalar loader shape");
	static_assert(SLOTS <= 32, "one bit per slot in mn_ok");
	static constexpr uint32_t ALL = SLOTS == 32 ? 0xffffffffu : (1u << SLOTS) - 1;

	const float *g;
	int64_t slot_step, tile_step;
	uint32_t s_off, s_slot;
	int k_first, k_step;  /* k of slot s: k_first + s * k_step */
	uint32_t mn_ok;       /* bit s: slot s inside M/N */
	const float *base;

	__device__ __forceinline__ void init2(const float *p, int64_t rs_mn, int64_t rs_k, int64_t mn0,
	                                      int64_t mn_len, int64_t k0, int tid, int kfast)
	{
		int mn, kk, mn_step;
		if (kfast) { /* threads walk K first: BK consecutive elements of a row */
			kk = tid % BK;
			mn = tid / BK;
			mn_step = NT / BK;
			k_step = 0;
		} else {    /* threads walk M/N first */
			mn = tid % ROWLEN;
			kk = tid / ROWLEN;
			mn_step = 0;
			k_step = NT / ROWLEN;
		}
		k_first = kk;
		mn_ok = 0;
#pragma unroll
		for (int s = 0; s < SLOTS; ++s)
			if (mn0 + mn + s * mn_step < mn_len)
				mn_ok |= 1u << s;
		base = p;
		g = p + (mn0 + mn) * rs_mn + (k0 + kk) * rs_k;
		slot_step = (int64_t)mn_step * rs_mn + (int64_t)k_step * rs_k;
		tile_step = (int64_t)BK * rs_k;
		s_off = (uint32_t)((kk * (ROWLEN + 4) + mn) * 4);
		s_slot = (uint32_t)((k_step * (ROWLEN + 4) + mn_step) * 4);
	}

	__device__ __forceinline__ void load(uint32_t stage, int64_t kt, int64_t kend) const
	{
		const float *gp = g + (kt / BK) * tile_step;
		if (FAST && mn_ok == ALL && kt + BK <= kend) {
			/* Interior tile: no predicate. */
#pragma unroll
			for (int s = 0; s < SLOTS; ++s) {
				cp_async4(stage + s_off + s * s_slot, gp, 4);
				gp += slot_step;
			}
		} else {
			const int kl = (int)min((int64_t)BK, kend - kt); /* valid rows of K */
#pragma unroll
			for (int s = 0; s < SLOTS; ++s) {
				bool ok = ((mn_ok >> s) & 1u) && k_first + s * k_step < kl;
				cp_async4(stage + s_off + s * s_slot, ok ? gp : base, ok ? 4 : 0);
				gp += slot_step;
			}
		}
	}
};;

/* Tile configuration. */
template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int LM_, int STAGES_, int MINB_>
struct cfg {
	static constexpr int BM = BM_, BN = BN_, BK = BK_;
	static constexpr int WARPS_M = WARPS_M_, WARPS_N = WARPS_N_;
	static constexpr int NT = 32 * WARPS_M * WARPS_N;
	static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;
	static constexpr int LM = LM_, LN = 32 / LM_;
	static constexpr int TM = WM / LM, TN = WN / LN;
	static constexpr int STAGES = STAGES_, MINB = MINB_;
	static constexpr int A_PITCH = BM + 4, B_PITCH = BN + 4;
	static constexpr int STAGE_FLOATS = BK * (A_PITCH + B_PITCH);
	static constexpr int SMEM_BYTES = STAGES * STAGE_FLOATS * 4;
	/* Whether the variant with both operands on the 4-byte path exists:
	 * with deep K tiles or the register cap of 3 or more blocks per SM it
	 * would spill, and the table sends that case to another configuration. */
	/* Blocks per SM that the launch bounds promise: MINB, or fewer where
	 * the shared memory of an SM holds fewer (sm_80: 164 KB; sm_90: 227 KB),
	 * so that registers are not capped for blocks that could never fit. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
	static constexpr int SMEM_PER_SM = 164 * 1024;
#else
	static constexpr int SMEM_PER_SM = 227 * 1024;
#endif
	static constexpr int MINB_FIT = SMEM_PER_SM / SMEM_BYTES < MINB ? SMEM_PER_SM / SMEM_BYTES : MINB;
	static constexpr bool BOTH_SCALAR = (BK <= 8 && MINB <= 2) || NT <= 64;
	static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tile in runs of 4");
	static_assert(LM <= 8 && LN <= 8, "at most 8 distinct 16-byte words per LDS.128");
};

template <class C, bool AVEC, bool BVEC>
__global__ void __launch_bounds__(C::NT, C::MINB_FIT) sgemm_kernel(const params p)
{
	constexpr int BM = C::BM, BN = C::BN, BK = C::BK, NT = C::NT;
	constexpr int TM = C::TM, TN = C::TN, LM = C::LM, LN = C::LN;
	constexpr int STAGES = C::STAGES;
	extern __shared__ __align__(16) float smem[];

	const int tid = threadIdx.x;
	const int warp = tid / 32, lane = tid % 32;
	const int wm = (warp % C::WARPS_M) * C::WM, wn = (warp / C::WARPS_M) * C::WN;
	const int lm = lane / LN, ln = lane % LN;

	const int64_t k0 = (int64_t)blockIdx.z * p.k_split;
	const int64_t klen = min(p.k_split, p.k - k0); /* >= 1 */
	float *cz = p.c + (int64_t)blockIdx.z * p.split_stride;
	const uint32_t s_base = smem_u32(smem);

	for (int64_t tile = blockIdx.x; tile < p.tiles; tile += gridDim.x) {
		/* Grouped order: group_m tile rows, walked column by column, so
		 * the blocks resident at one time share rows of A and columns of
		 * B in L2. */
		const int64_t per_group = (int64_t)p.group_m * p.tiles_n;
		const int64_t grp = tile / per_group;
		const int64_t first = grp * p.group_m;
		const int64_t gsize = min((int64_t)p.group_m, p.tiles_m - first);
		const int64_t in = tile - grp * per_group;
		const int64_t m0 = (first + in % gsize) * BM;
		const int64_t n0 = (in / gsize) * BN;

		loader<NT, BK, BM, AVEC, BVEC> la;
		loader<NT, BK, BN, BVEC, AVEC> lb;
		if constexpr (AVEC)
			la.init(p.a, p.cs_a, m0, p.m, k0, tid, 0);
		else
			la.init2(p.a, p.rs_a, p.cs_a, m0, p.m, k0, tid, p.a_kfast);
		if constexpr (BVEC)
			lb.init(p.b, p.rs_b, n0, p.n, k0, tid, 0);
		else
			lb.init2(p.b, p.cs_b, p.rs_b, n0, p.n, k0, tid, p.b_kfast);

		const int64_t ktiles = (klen + BK - 1) / BK;
		constexpr uint32_t A_BYTES = BK * C::A_PITCH * 4;
		constexpr uint32_t STAGE_BYTES = C::STAGE_FLOATS * 4;

#pragma unroll
		for (int s = 0; s < STAGES - 1; ++s) {
			if (s < ktiles) {
				uint32_t st = s_base + s * STAGE_BYTES;
				la.load(st, (int64_t)s * BK, klen);
				lb.load(st + A_BYTES, (int64_t)s * BK, klen);
			}
			cp_async_commit();
		}

		float acc[TM][TN];
#pragma unroll
		for (int i = 0; i < TM; ++i)
#pragma unroll
			for (int j = 0; j < TN; ++j)
				acc[i][j] = 0.f;

		int rd = 0, wr = STAGES - 1;
		for (int64_t kt = 0; kt < ktiles; ++kt) {
			cp_async_wait<STAGES - 2>();
			__syncthreads();
			/* The stage written now was read in the previous iteration,
			 * which every thread has finished (barrier above). */
			{
				int64_t nk = kt + STAGES - 1;
				if (nk < ktiles) {
					uint32_t st = s_base + wr * STAGE_BYTES;
					la.load(st, nk * BK, klen);
					lb.load(st + A_BYTES, nk * BK, klen);
				}
				cp_async_commit();
			}
			const float *As = smem + rd * C::STAGE_FLOATS;
			const float *Bs = As + BK * C::A_PITCH;
#pragma unroll
			for (int kk = 0; kk < BK; ++kk) {
				float af[TM], bf[TN];
#pragma unroll
				for (int i = 0; i < TM / 4; ++i) {
					float4 v = *reinterpret_cast<const float4 *>(As + kk * C::A_PITCH + wm + i * LM * 4 + lm * 4);
					af[4 * i] = v.x; af[4 * i + 1] = v.y; af[4 * i + 2] = v.z; af[4 * i + 3] = v.w;
				}
#pragma unroll
				for (int j = 0; j < TN / 4; ++j) {
					float4 v = *reinterpret_cast<const float4 *>(Bs + kk * C::B_PITCH + wn + j * LN * 4 + ln * 4);
					bf[4 * j] = v.x; bf[4 * j + 1] = v.y; bf[4 * j + 2] = v.z; bf[4 * j + 3] = v.w;
				}
#pragma unroll
				for (int i = 0; i < TM; ++i)
#pragma unroll
					for (int j = 0; j < TN; ++j)
						acc[i][j] = fmaf(af[i], bf[j], acc[i][j]);
			}
			rd = rd + 1 == STAGES ? 0 : rd + 1;
			wr = wr + 1 == STAGES ? 0 : wr + 1;
		}
		cp_async_wait<0>();

		/* Epilogue. */
		const float alpha = p.alpha, beta = p.beta;
#pragma unroll
		for (int i = 0; i < TM; ++i) {
			const int64_t row = m0 + wm + (i / 4) * LM * 4 + lm * 4 + (i % 4);
			if (row >= p.m)
				continue;
			float *crow = cz + row * p.rs_c;
#pragma unroll
			for (int j = 0; j < TN / 4; ++j) {
				const int64_t col = n0 + wn + j * LN * 4 + ln * 4;
				float r[4];
#pragma unroll
				for (int q = 0; q < 4; ++q)
					r[q] = alpha * acc[i][4 * j + q];
				if (p.c_vec && col + 4 <= p.n) {
					float4 *cp = reinterpret_cast<float4 *>(crow + col);
					if (beta != 0.f) {
						float4 o = *cp;
						r[0] = fmaf(beta, o.x, r[0]); r[1] = fmaf(beta, o.y, r[1]);
						r[2] = fmaf(beta, o.z, r[2]); r[3] = fmaf(beta, o.w, r[3]);
					}
					*cp = make_float4(r[0], r[1], r[2], r[3]);
				} else {
#pragma unroll
					for (int q = 0; q < 4; ++q) {
						if (col + q < p.n) {
							float v = r[q];
							if (beta != 0.f)
								v = fmaf(beta, crow[col + q], v);
							crow[col + q] = v;
						}
					}
				}
			}
		}
		/* The next tile's prologue overwrites the stages. */
		__syncthreads();
	}
}

/* Launch one configuration on a prepared problem (params filled except the
 * tile counts): grid.x walks the tiles (a loop inside the kernel covers any
 * count), grid.z the splits of K (<= 65535, the caller's duty). */
template <class C>
gk_status launch(params p, bool avec, bool bvec, unsigned splits, cudaStream_t stream)
{
	static const char *fn = "gk_cuda_sgemm_tuned";
	p.tiles_m = (p.m + C::BM - 1) / C::BM;
	p.tiles_n = (p.n + C::BN - 1) / C::BN;
	p.tiles = p.tiles_m * p.tiles_n;
	const int64_t max_x = 0x7fffffff;
	dim3 grid((unsigned)(p.tiles < max_x ? p.tiles : max_x), 1, splits);
	void (*kern)(const params) = NULL;
	if (avec)
		kern = bvec ? sgemm_kernel<C, true, true> : sgemm_kernel<C, true, false>;
	else if (bvec)
		kern = sgemm_kernel<C, false, true>;
	else if constexpr (C::BOTH_SCALAR)
		kern = sgemm_kernel<C, false, false>;
	else
		return gk_set_error(GK_ERR_INTERNAL, "%s: no kernel for two 4-byte operands in this tile", fn);
	if (C::SMEM_BYTES > 48 * 1024)
		GK_CUDA_TRY(fn, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, C::SMEM_BYTES));
	kern<<<grid, C::NT, C::SMEM_BYTES, stream>>>(p);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

} /* namespace gk_sg */

#endif
