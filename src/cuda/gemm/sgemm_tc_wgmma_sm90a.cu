/*
 * sgemm_tc_wgmma_sm90a.cu - the Hopper main kernel of the tensor-core SGEMM
 * (sgemm_tc.cuh): warpgroup MMA (wgmma.mma_async m64nNk8 .f32.tf32.tf32)
 * on TF32 planes loaded by the bulk tensor copy engine (TMA).
 *
 * Computes, for one gk_tc_problem, over the K range of each split,
 *
 *   products == 1:  acc = Ahi Bhi^T
 *   products == 3:  acc = Ahi Blo^T + Alo Bhi^T + Ahi Bhi^T
 *
 * scales acc(i, j) by 2^(a_exp[i] + b_exp[j]) (ldexpf; only where the
 * arrays are given), and stores C = alpha acc + beta C on the m x n corner
 * (splits == 1; beta == 0 never reads C) or the raw acc of split z into
 * partial + z m n, row stride n (splits > 1: the m x n corner alone, every
 * element of it written; an empty split writes zeros).
 *
 * Operands: the planes of sgemm_tc.cuh, A mp x kp and B np x kp, K
 * contiguous (row stride kp floats), zero-padded: mp, np multiples of
 * GK_TC_PAD_MN (128), kp and k_per_split multiples of GK_TC_PAD_K (32),
 * every plane 16-byte aligned. Rows of a B tile past np are filled with
 * zeros by the copy engine and never stored.
 *
 * Scheme: a CTA of three warpgroups. Warpgroup 0 is the producer (one
 * thread issues the TMA loads of a stage: 128 rows of A and BN rows of B per
 * plane, K-major with the 128- or 64-byte swizzle that wgmma reads);
 * warpgroups 1 and 2 each compute 64 x BN of the 128 x BN tile from shared
 * memory, a stage after another, with the register accumulators in FP32.
 * Stages complete on mbarriers (full: bytes of the copies; empty: one
 * arrival per consumer warp once its MMAs that read the stage are done).
 * The grid is persistent: each CTA walks the work units (split, tile) with
 * a stride of the grid, tiles ordered in groups of 8 row-tiles for L2
 * reuse; the producer runs ahead into the next unit while the consumers
 * store the last one.
 *
 * Configurations (gk_wg_launch<BN, SWZ, P, SCHEME>): one product on
 * 128 x 256 tiles, 32 floats of K per stage (128-byte swizzle), 4 stages of
 * 48 KiB, one accumulator; three products on 128 x 128 tiles, 3 stages of
 * 64 KiB, promoted (GK_WG_SF32): per stage (32 of K) the tensor cores sum
 * the eight cross products Ahi Blo, Alo Bhi and then the four Ahi Bhi into
 * an accumulator that starts from zero (scale-d 0 on the first wgmma), and
 * that is added to the FP32 sum with round-to-nearest adds. The tensor cores
 * truncate when they add into an FP32 accumulator, so a sum over all of K
 * drifts by about K u; promoted, the error stays below an FP32 FFMA loop's
 * (measured on an H100, m = n = 256, ||C - C_ref||_F / (||A||_F ||B||_F):
 * U(0,1) K = 256 / 4096 / 16384: 9.8e-8 / 1.5e-7 / 2.4e-7 against the FFMA
 * loop's 1.7e-7 / 6.4e-7 / 1.3e-6; the former scheme, Ahi Bhi and the cross
 * products in two accumulators summed at the store, 1.1e-6 / 2.1e-5 /
 * 8.3e-5) at the former scheme's speed (126-141 TFLOPS at 4096^3 to
 * 16384^3). Promoting every 16 of K, Ahi Bhi first, measured about 1.4
 * times the error of this order.
 *
 * Device code exists only for sm_90a (__CUDA_ARCH_FEAT_SM90_ALL); compiled
 * for any other target the kernel is empty, and the host function answers
 * GK_ERR_UNSUPPORTED when the device is not compute capability 9.0 or the
 * loaded image is not the sm_90a one. The tensor maps are encoded through
 * the driver entry point that the runtime hands out (no -lcuda link).
 */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <limits.h>
#include <atomic>

#include "sgemm_tc.cuh"
#include "sgemm_tc_wgmma_sm90a.cuh"

namespace {

constexpr int GK_WG_BM = 128;      /* rows of A per CTA tile: two warpgroups of 64 */
constexpr int GK_WG_THREADS = 384; /* producer + two consumer warpgroups */
constexpr int GK_WG_MAX_DEVICES = 64;

/* How the products reach the FP32 result (see the head of the file).
 * ONE: one accumulator for all of K (one product). TWO: Ahi Bhi in one
 * accumulator, the cross products in another, summed at the store (the
 * former three-product scheme, kept for the accuracy study). SF32: per
 * stage of 32 of K, the eight cross products and then the four Ahi Bhi into
 * an accumulator started from zero, which is added to the FP32 sum. */
enum { GK_WG_ONE = 0, GK_WG_TWO = 1, GK_WG_SF32 = 2 };

struct gk_wg_args {
	int64_t m, n, mp, np, kp, k_per_split;
	int tiles_m, tiles_n, splits, units;
	float alpha, beta;
	float *c;
	int64_t rs_c;
	float *partial;
	const int *a_exp, *b_exp;
	int vec_c; /* C holds 8-byte aligned pairs (c and rs_c even) */
	int vec_p; /* so do the partials (partial 8-byte aligned, n even) */
};

template <int BN, int SWZ, int P, int SCHEME>
struct gk_wg_cfg {
	static constexpr int BK = SWZ / 4;                 /* floats of K per stage */
	static constexpr int PLANES = P == 3 ? 2 : 1;      /* hi (and lo) of each operand */
	static constexpr int A_BYTES = GK_WG_BM * SWZ;     /* one plane's A tile */
	static constexpr int B_BYTES = BN * SWZ;           /* one plane's B tile */
	static constexpr int STAGE_BYTES = PLANES * (A_BYTES + B_BYTES);
	static constexpr int FIT = (220 * 1024) / STAGE_BYTES;
	static constexpr int STAGES = FIT > 4 ? 4 : FIT;
	static constexpr int SMEM = STAGES * STAGE_BYTES + 1024; /* + alignment to 1024 */
	static constexpr int REGS = BN / 2;                /* accumulators per thread (64 x BN / 128) */
	/* Register fragment sets: the sum (or the only accumulator), then the
	 * cross products (TWO) or the stage accumulator (SF32). */
	static constexpr int NACC = SCHEME == GK_WG_ONE ? 1 : 2;
	static constexpr bool PROMOTES = SCHEME == GK_WG_SF32;
	static_assert(BN == 128 || BN == 256, "BN");
	static_assert(SWZ == 128 || SWZ == 64, "SWZ");
	static_assert(SCHEME == GK_WG_ONE || P == 3, "one product accumulates in one set");
	static_assert(!PROMOTES || (SWZ == 128 && BN == 128), "promotion: 32 of K per stage, 64 x 128 per warpgroup");
	static_assert(STAGES >= 2 && REGS * 2 == BN && NACC >= 1, "stages, accumulators");
	static_assert(GK_TC_PAD_K % BK == 0 && GK_TC_PAD_MN % GK_WG_BM == 0, "padding");
};

#ifdef GK_WGMMA_DEVICE
constexpr int GK_WG_GROUP = 8; /* row-tiles per raster group */

/* Work unit u -> split z and tile (tm, tn): splits outermost, then groups
 * of GK_WG_GROUP row-tiles walked column by column. */
static __device__ __forceinline__ void gk_wg_unit(const gk_wg_args &g, int u, int &tm, int &tn,
                                                  int &z)
{
	const int tiles = g.tiles_m * g.tiles_n;
	z = u / tiles;
	const int t = u - z * tiles;
	const int per_group = GK_WG_GROUP * g.tiles_n;
	const int grp = t / per_group;
	const int first = grp * GK_WG_GROUP;
	const int gs = min(g.tiles_m - first, GK_WG_GROUP);
	const int r = t - grp * per_group;
	tm = first + r % gs;
	tn = r / gs;
}

/* The k-tiles of split z. */
template <int BK>
static __device__ __forceinline__ int gk_wg_ktiles(const gk_wg_args &g, int z, int64_t &k0)
{
	k0 = (int64_t)z * g.k_per_split;
	const int64_t k1 = min(g.kp, k0 + g.k_per_split);
	return k1 > k0 ? (int)((k1 - k0) / BK) : 0;
}

/* Order the reads of a fragment set after the wgmma.wait that completed
 * it (the compiler sees no dependence between the two). */
template <int REGS>
static __device__ __forceinline__ void gk_wg_fence_set(float (&t)[REGS])
{
#pragma unroll
	for (int r = 0; r < REGS; r++)
		gk_reg_fence(t[r]);
}

/* The FP32 sum += a completed stage accumulator (round to nearest). */
template <int REGS>
static __device__ __forceinline__ void gk_wg_promote(float (&sum)[REGS], float (&t)[REGS])
{
	gk_wg_fence_set<REGS>(t);
#pragma unroll
	for (int r = 0; r < REGS; r++)
		sum[r] += t[r];
}

/* The wgmmas of one stage (BK / 8 steps of k8) into t, started from zero
 * by the first: the cross products of every step first, while t is small,
 * then the Ahi Bhi. Descriptors: + 2 kk moves 32 bytes along K. */
template <int BN, int STEPS>
static __device__ __forceinline__ void gk_wg_stage_sf(float *t, uint64_t dah, uint64_t dal, uint64_t dbh,
                                                      uint64_t dbl)
{
#pragma unroll
	for (int kk = 0; kk < STEPS; kk++) {
		if (kk == 0)
			gk_wgmma<BN, 0>(t, dah, dbl);
		else
			gk_wgmma<BN, 1>(t, dah + 2 * kk, dbl + 2 * kk);
		gk_wgmma<BN, 1>(t, dal + 2 * kk, dbh + 2 * kk);
	}
#pragma unroll
	for (int kk = 0; kk < STEPS; kk++)
		gk_wgmma<BN, 1>(t, dah + 2 * kk, dbh + 2 * kk);
}

/* Store one consumer's 64 x BN result (thread layout of wgmma's D: row
 * warp*16 + lane/4 (+8), columns 8j + 2(lane%4) (+1)); the value is acc[0]
 * (+ acc[1] when NADD == 2), scaled by 2^(a_exp[row] + b_exp[col]) when
 * there are exponents. splits == 1: C = alpha v + beta C; else split z's
 * raw v into partial + z m n, row stride n. Only the m x n corner. */
template <int BN, int NADD, int NACC, int REGS>
static __device__ __forceinline__ void gk_wg_store(const gk_wg_args &g, float (&acc)[NACC][REGS], int tm,
                                                   int tn, int z, int cw)
{
	const int warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
	const int64_t row0 = (int64_t)tm * GK_WG_BM + cw * 64 + warp * 16 + lane / 4;
	const int64_t col0 = (int64_t)tn * BN + 2 * (lane % 4);
	const bool part = g.splits > 1;
	float *const out = part ? g.partial + (int64_t)z * g.m * g.n : g.c;
	const int64_t ld = part ? g.n : g.rs_c;
	const float alpha = part ? 1.0f : g.alpha, beta = part ? 0.0f : g.beta;
	const bool vec = part ? g.vec_p : g.vec_c;
	const bool scaled = g.a_exp || g.b_exp;
	int ea[2] = {0, 0};
	if (scaled && g.a_exp) {
		ea[0] = g.a_exp[row0];
		ea[1] = g.a_exp[row0 + 8];
	}
#pragma unroll
	for (int j = 0; j < BN / 8; j++) {
		const int64_t col = col0 + 8 * j;
		if (col >= g.n)
			continue;
		const bool two = col + 1 < g.n;
		int eb0 = 0, eb1 = 0;
		if (scaled && g.b_exp) {
			eb0 = g.b_exp[col]; /* col + 1 < np: np is even */
			eb1 = g.b_exp[col + 1];
		}
#pragma unroll
		for (int i = 0; i < 2; i++) {
			const int64_t row = row0 + 8 * i;
			if (row >= g.m)
				continue;
			float x = acc[0][4 * j + 2 * i], y = acc[0][4 * j + 2 * i + 1];
			if constexpr (NADD == 2) {
				x += acc[1][4 * j + 2 * i];
				y += acc[1][4 * j + 2 * i + 1];
			}
			if (scaled) {
				x = ldexpf(x, ea[i] + eb0);
				y = ldexpf(y, ea[i] + eb1);
			}
			float *c = out + row * ld + col;
			x *= alpha;
			y *= alpha;
			if (two && vec) {
				if (beta != 0.0f) {
					const float2 o = *reinterpret_cast<const float2 *>(c);
					x = fmaf(beta, o.x, x);
					y = fmaf(beta, o.y, y);
				}
				*reinterpret_cast<float2 *>(c) = make_float2(x, y);
			} else {
				if (beta != 0.0f) {
					x = fmaf(beta, c[0], x);
					if (two)
						y = fmaf(beta, c[1], y);
				}
				c[0] = x;
				if (two)
					c[1] = y;
			}
		}
	}
}
#endif

#ifdef GK_WGMMA_DEVICE
/* The producer thread: the TMA loads of every stage of every unit of this
 * CTA, each stage into its slot once the consumers have released it. */
template <int BN, int SWZ, int P, int SCHEME>
static __device__ __forceinline__ void gk_wg_produce(const CUtensorMap *map_ahi, const CUtensorMap *map_alo,
                                                     const CUtensorMap *map_bhi, const CUtensorMap *map_blo,
                                                     const gk_wg_args &g, uint32_t base, uint64_t *full_bar,
                                                     uint64_t *empty_bar)
{
	using C = gk_wg_cfg<BN, SWZ, P, SCHEME>;
	gk_tma_prefetch_map(map_ahi);
	gk_tma_prefetch_map(map_bhi);
	if constexpr (P == 3) {
		gk_tma_prefetch_map(map_alo);
		gk_tma_prefetch_map(map_blo);
	}
	uint32_t it = 0;
	for (int u = blockIdx.x; u < g.units; u += gridDim.x) {
		int tm, tn, z;
		gk_wg_unit(g, u, tm, tn, z);
		int64_t k0;
		const int nk = gk_wg_ktiles<C::BK>(g, z, k0);
		const int ra = tm * GK_WG_BM, rb = tn * BN;
		for (int kt = 0; kt < nk; kt++, it++) {
			const uint32_t s = it % C::STAGES, ph = (it / C::STAGES) & 1;
			gk_mbar_wait(gk_smem_addr(&empty_bar[s]), ph ^ 1);
			const uint32_t fb = gk_smem_addr(&full_bar[s]);
			gk_mbar_arrive_tx(fb, C::STAGE_BYTES);
			const uint32_t st = base + s * C::STAGE_BYTES;
			const int kc = (int)(k0 + (int64_t)kt * C::BK);
			gk_tma_load_2d(st, map_ahi, fb, kc, ra);
			if constexpr (P == 3)
				gk_tma_load_2d(st + C::A_BYTES, map_alo, fb, kc, ra);
			gk_tma_load_2d(st + C::PLANES * C::A_BYTES, map_bhi, fb, kc, rb);
			if constexpr (P == 3)
				gk_tma_load_2d(st + C::PLANES * C::A_BYTES + C::B_BYTES, map_blo, fb, kc, rb);
		}
	}
}

/* Wait for the stage of iteration it and give its slot and the descriptors
 * of this consumer's A rows and of B (hi and lo planes). */
template <int BN, int SWZ, int P, int SCHEME>
struct gk_wg_stage {
	uint32_t slot;
	uint64_t dah, dal, dbh, dbl;
	__device__ __forceinline__ gk_wg_stage(uint32_t base, uint64_t *full_bar, uint32_t it, int cw)
	{
		using C = gk_wg_cfg<BN, SWZ, P, SCHEME>;
		slot = it % C::STAGES;
		gk_mbar_wait(gk_smem_addr(&full_bar[slot]), (it / C::STAGES) & 1);
		const uint32_t st = base + slot * C::STAGE_BYTES;
		const uint32_t a_hi = st + cw * 64 * SWZ;
		const uint32_t b_hi = st + C::PLANES * C::A_BYTES;
		dah = gk_wgmma_desc<SWZ>(a_hi);
		dbh = gk_wgmma_desc<SWZ>(b_hi);
		dal = gk_wgmma_desc<SWZ>(a_hi + C::A_BYTES);
		dbl = gk_wgmma_desc<SWZ>(b_hi + C::B_BYTES);
	}
};

/* Release a slot: one arrival per consumer warp. */
static __device__ __forceinline__ void gk_wg_release(uint64_t *empty_bar, uint32_t slot)
{
	if (threadIdx.x % 32 == 0)
		gk_mbar_arrive(gk_smem_addr(&empty_bar[slot]));
}

/* One consumer warpgroup: rows cw * 64 .. + 64 of each tile of this CTA.
 * A slot is released once the wgmmas that read it are complete. */
template <int BN, int SWZ, int P, int SCHEME>
static __device__ __forceinline__ void gk_wg_consume(const gk_wg_args &g, uint32_t base, uint64_t *full_bar,
                                                     uint64_t *empty_bar, int cw)
{
	using C = gk_wg_cfg<BN, SWZ, P, SCHEME>;
	using S = gk_wg_stage<BN, SWZ, P, SCHEME>;
	float acc[C::NACC][C::REGS];
	uint32_t it = 0;
	for (int u = blockIdx.x; u < g.units; u += gridDim.x) {
		int tm, tn, z;
		gk_wg_unit(g, u, tm, tn, z);
		int64_t k0;
		const int nk = gk_wg_ktiles<C::BK>(g, z, k0);
		constexpr int n_zero = gk_wg_cfg<BN, SWZ, P, SCHEME>::PROMOTES ? 1 : gk_wg_cfg<BN, SWZ, P, SCHEME>::NACC;
#pragma unroll
		for (int a = 0; a < n_zero; a++)
#pragma unroll
			for (int r = 0; r < C::REGS; r++)
				acc[a][r] = 0.0f;
		uint32_t prev = 0;
		if constexpr (SCHEME == GK_WG_ONE || SCHEME == GK_WG_TWO) {
			/* wait_group 1: stage kt's wgmmas queue behind stage kt - 1's. */
			for (int kt = 0; kt < nk; kt++, it++) {
				const S st(base, full_bar, it, cw);
				gk_wgmma_fence();
#pragma unroll
				for (int kk = 0; kk < C::BK / 8; kk++) {
					const uint64_t o = 2 * kk; /* 32 bytes, in 16-byte units */
					if constexpr (P == 3) {
						float *x = acc[C::NACC - 1];
						gk_wgmma<BN>(x, st.dah + o, st.dbl + o);
						gk_wgmma<BN>(x, st.dal + o, st.dbh + o);
					}
					gk_wgmma<BN>(acc[0], st.dah + o, st.dbh + o);
				}
				gk_wgmma_commit();
				gk_wgmma_wait<1>();
				if (kt > 0)
					gk_wg_release(empty_bar, prev);
				prev = st.slot;
			}
			gk_wgmma_wait<0>();
#pragma unroll
			for (int a = 0; a < C::NACC; a++)
				gk_wg_fence_set<C::REGS>(acc[a]);
		} else {
			/* SF32: the stage's sum completes (wait_group 0) before it is
			 * added; the other consumer warpgroup keeps the tensor cores
			 * busy meanwhile. (Two stage accumulators in turn, adding one
			 * while the other's wgmmas run, measured 15-20% slower: the
			 * compiler serializes wgmmas whose accumulators other
			 * instructions read between the commit and a wait_group 0.) */
			for (int kt = 0; kt < nk; kt++, it++) {
				const S st(base, full_bar, it, cw);
				gk_wgmma_fence();
				gk_wg_stage_sf<BN, C::BK / 8>(acc[1], st.dah, st.dal, st.dbh, st.dbl);
				gk_wgmma_commit();
				gk_wgmma_wait<0>();
				gk_wg_promote<C::REGS>(acc[0], acc[1]);
				gk_wg_release(empty_bar, st.slot);
			}
		}
		if (SCHEME != GK_WG_SF32 && nk > 0)
			gk_wg_release(empty_bar, prev);
		gk_wg_store<BN, SCHEME == GK_WG_TWO ? 2 : 1, C::NACC, C::REGS>(g, acc, tm, tn, z, cw);
	}
}
#endif

template <int BN, int SWZ, int P, int SCHEME>
__global__ void __launch_bounds__(GK_WG_THREADS, 1)
gk_tc_wgmma_kernel(const __grid_constant__ CUtensorMap map_ahi, const __grid_constant__ CUtensorMap map_alo,
                   const __grid_constant__ CUtensorMap map_bhi, const __grid_constant__ CUtensorMap map_blo,
                   const gk_wg_args g)
{
#ifdef GK_WGMMA_DEVICE
	using C = gk_wg_cfg<BN, SWZ, P, SCHEME>;
	/* Static shared memory: the host also reads its presence as the mark
	 * of the sm_90a image. */
	__shared__ __align__(8) uint64_t full_bar[C::STAGES], empty_bar[C::STAGES];
	extern __shared__ __align__(1024) unsigned char gk_wg_smem[];
	const uint32_t base = (gk_smem_addr(gk_wg_smem) + 1023u) & ~1023u;
	const int wg = threadIdx.x / 128;

	if (threadIdx.x == 0) {
		for (int s = 0; s < C::STAGES; s++) {
			gk_mbar_init(gk_smem_addr(&full_bar[s]), 1);
			gk_mbar_init(gk_smem_addr(&empty_bar[s]), 8); /* the 8 consumer warps */
		}
		gk_mbar_init_fence();
	}
	__syncthreads();

	/* The roles as the two branches of one if/else, each with its
	 * register budget (setmaxnreg needs that shape). */
	if (wg == 0) {
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
		if (threadIdx.x == 0)
			gk_wg_produce<BN, SWZ, P, SCHEME>(&map_ahi, &map_alo, &map_bhi, &map_blo, g, base, full_bar,
			                                  empty_bar);
	} else {
		asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
		gk_wg_consume<BN, SWZ, P, SCHEME>(g, base, full_bar, empty_bar, wg - 1);
	}
#endif
}

/* cuTensorMapEncodeTiled from the driver, through the runtime. */
static PFN_cuTensorMapEncodeTiled_v12000 gk_wg_encode_fn(void)
{
	static PFN_cuTensorMapEncodeTiled_v12000 fn = []() {
		void *p = nullptr;
		cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
		if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) !=
		        cudaSuccess ||
		    q != cudaDriverEntryPointSuccess) {
			(void)cudaGetLastError();
			p = nullptr;
		}
		return (PFN_cuTensorMapEncodeTiled_v12000)p;
	}();
	return fn;
}

/* The map of one plane: rows x kp floats, boxes of box_rows x SWZ bytes. */
static gk_status gk_wg_map(CUtensorMap *map, const float *plane, int64_t rows, int64_t kp, int box_rows,
                           int swz)
{
	static const char fn[] = "gk_tc_run_wgmma_sm90a";
	PFN_cuTensorMapEncodeTiled_v12000 enc = gk_wg_encode_fn();
	if (!enc)
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: cuTensorMapEncodeTiled is not available", fn);
	const cuuint64_t dims[2] = {(cuuint64_t)kp, (cuuint64_t)rows};
	const cuuint64_t strides[1] = {(cuuint64_t)kp * sizeof(float)};
	const cuuint32_t box[2] = {(cuuint32_t)(swz / 4), (cuuint32_t)box_rows};
	const cuuint32_t estr[2] = {1, 1};
	const CUresult r = enc(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)plane, dims, strides, box, estr,
	                       CU_TENSOR_MAP_INTERLEAVE_NONE,
	                       swz == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B,
	                       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS)
		return gk_set_error(GK_ERR_CUDA, "%s: cuTensorMapEncodeTiled failed (%d)", fn, (int)r);
	return GK_OK;
}

/* Launch one configuration on pr. */
template <int BN, int SWZ, int P, int SCHEME>
static gk_status gk_wg_launch(const gk_tc_problem *pr)
{
	static const char fn[] = "gk_tc_run_wgmma_sm90a";
	using C = gk_wg_cfg<BN, SWZ, P, SCHEME>;
	auto kernel = gk_tc_wgmma_kernel<BN, SWZ, P, SCHEME>;

	/* Once per device: is the sm_90a image there (its static shared memory
	 * marks it), and the dynamic shared-memory limit raised. Racing
	 * first calls do the same idempotent work. */
	static std::atomic<int> ready[GK_WG_MAX_DEVICES]; /* 0 unknown, 1 ready, -1 no image */
	int dev;
	GK_CUDA_TRY(fn, cudaGetDevice(&dev));
	const int known = dev >= 0 && dev < GK_WG_MAX_DEVICES ? ready[dev].load(std::memory_order_acquire) : 0;
	if (known < 0)
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: built without the sm_90a image", fn);
	if (known == 0) {
		cudaFuncAttributes fa;
		if (cudaFuncGetAttributes(&fa, kernel) != cudaSuccess || fa.sharedSizeBytes == 0) {
			(void)cudaGetLastError();
			if (dev >= 0 && dev < GK_WG_MAX_DEVICES)
				ready[dev].store(-1, std::memory_order_release);
			return gk_set_error(GK_ERR_UNSUPPORTED, "%s: built without the sm_90a image", fn);
		}
		GK_CUDA_TRY(fn, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::SMEM));
		if (dev >= 0 && dev < GK_WG_MAX_DEVICES)
			ready[dev].store(1, std::memory_order_release);
	}

	CUtensorMap ahi, alo, bhi, blo;
	gk_status st;
	if ((st = gk_wg_map(&ahi, pr->a_hi, pr->mp, pr->kp, GK_WG_BM, SWZ)) != GK_OK ||
	    (st = gk_wg_map(&bhi, pr->b_hi, pr->np, pr->kp, BN, SWZ)) != GK_OK)
		return st;
	alo = ahi;
	blo = bhi;
	if (P == 3 && ((st = gk_wg_map(&alo, pr->a_lo, pr->mp, pr->kp, GK_WG_BM, SWZ)) != GK_OK ||
	               (st = gk_wg_map(&blo, pr->b_lo, pr->np, pr->kp, BN, SWZ)) != GK_OK))
		return st;

	gk_wg_args g;
	g.m = pr->m;
	g.n = pr->n;
	g.mp = pr->mp;
	g.np = pr->np;
	g.kp = pr->kp;
	g.splits = pr->splits > 1 ? pr->splits : 1;
	g.k_per_split = g.splits > 1 ? pr->k_per_split : pr->kp;
	const int64_t tiles_m = pr->mp / GK_WG_BM, tiles_n = (pr->np + BN - 1) / BN;
	const int64_t units = tiles_m * tiles_n * g.splits;
	if (units > INT_MAX || pr->kp > INT_MAX || pr->mp > INT_MAX || pr->np > INT_MAX)
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: planes too large", fn);
	g.tiles_m = (int)tiles_m;
	g.tiles_n = (int)tiles_n;
	g.units = (int)units;
	g.alpha = pr->alpha;
	g.beta = pr->beta;
	g.c = pr->c;
	g.rs_c = pr->rs_c;
	g.partial = pr->partial;
	g.a_exp = pr->a_exp;
	g.b_exp = pr->b_exp;
	g.vec_c = ((uintptr_t)pr->c % 8 == 0) && (pr->rs_c % 2 == 0);
	g.vec_p = ((uintptr_t)pr->partial % 8 == 0) && (pr->n % 2 == 0);

	int sms = pr->sm_count;
	if (sms <= 0)
		GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	const int grid = (int)(units < sms ? units : sms);
	kernel<<<grid, GK_WG_THREADS, C::SMEM, pr->stream>>>(ahi, alo, bhi, blo, g);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

} /* namespace */

gk_status gk_tc_run_wgmma_sm90a(const gk_tc_problem *pr)
{
	static const char fn[] = "gk_tc_run_wgmma_sm90a";
	int dev, major, minor;
	GK_CUDA_TRY(fn, cudaGetDevice(&dev));
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
	if (major != 9 || minor != 0)
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: needs compute capability 9.0", fn);
	const bool three = pr->products == 3;
	if ((pr->products != 1 && !three) || !pr->a_hi || !pr->b_hi || (three && (!pr->a_lo || !pr->b_lo)) ||
	    pr->mp % GK_WG_BM != 0 || pr->np % GK_TC_PAD_MN != 0 || pr->kp % GK_TC_PAD_K != 0 || pr->kp <= 0 ||
	    (pr->splits > 1 && (pr->k_per_split % GK_TC_PAD_K != 0 || pr->k_per_split <= 0 || !pr->partial)) ||
	    (pr->splits <= 1 && !pr->c))
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: planes outside the kernel's preconditions", fn);
	const float *planes[4] = {pr->a_hi, pr->b_hi, pr->a_lo, pr->b_lo};
	for (int i = 0; i < (three ? 4 : 2); i++)
		if ((uintptr_t)planes[i] % 16 != 0)
			return gk_set_error(GK_ERR_UNSUPPORTED, "%s: a plane is not 16-byte aligned", fn);
	if (three)
		return gk_wg_launch<128, 128, 3, GK_WG_SF32>(pr);
	return gk_wg_launch<256, 128, 1, GK_WG_ONE>(pr);
}
