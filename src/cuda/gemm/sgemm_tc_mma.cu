/*
 * sgemm_tc_mma.cu - the mma.sync main kernel of the tensor-core SGEMM
 * (gk_tc_run_mma, declared in sgemm_tc.cuh): sm_80 and later.
 *
 * What it computes: for a gk_tc_problem (TF32 planes, both operands
 * K-major and padded, see sgemm_tc.cuh), over the K range of split z,
 *   products == 1:  acc = Ahi Bhi^T
 *   products == 3:  acc = Ahi Bhi^T + Ahi Blo^T + Alo Bhi^T
 * with mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32, then either
 * C = alpha acc + beta C (splits == 1; beta == 0 never reads C) or the raw
 * acc into partial + z m n (row stride n). Only the m x n corner is
 * stored; the padding of the planes is zero and adds nothing. With the
 * power-of-two scales of sgemm_tc.cuh (a_exp, b_exp not NULL) each acc is
 * first taken to acc 2^(a_exp[i] + b_exp[j]), rounded once (as ldexpf), in
 * both stores; without them the epilogue is the plain one.
 *
 * Accumulation of the three products (products == 3): the tensor cores add
 * into their FP32 accumulator with truncation, so a single accumulator
 * drifts by about K u in the mean (measured on an H100 at K = 16384: 70
 * times the error of a plain FP32 FFMA loop on U(0,1) data). The scheme
 * used (DEFAULT_SCHEME, SCHEME_PROMOTE16): every 16 of K (two K steps) the
 * three products are summed by the tensor cores into a zeroed accumulator
 * (Ahi Bhi first, then Alo Bhi, then Ahi Blo), which is then added to an
 * FP32 register sum with ordinary round-to-nearest adds. Its error is
 * below the FFMA loop's from K = 256 on and about flat in K (measured
 * ||C - C_ref||_F / || |A||B| ||_F on U(0,1) data: 1.7e-7 at K = 256, 4.5e-7
 * at 16384; FFMA 2.2e-7, 1.7e-6); it costs 5-6% over one accumulator.
 * The other schemes stay in the template for the study that chose it
 * (GK_TC_MMA_STUDY builds; production instantiates DEFAULT_SCHEME only).
 *
 * Shape (three products): a block of 8 warps owns a 128 x 128 tile of C;
 * warp w owns the 64 x 32 sub-tile (w / 4, w % 4); per 8-deep K step a warp
 * issues 4 x 4 MMAs per product. One product (TF32): 4 warps of 64 x 64,
 * two blocks per SM. K tiles of 32 are copied with cp.async (16 bytes,
 * coalesced rows of 128 bytes) into STAGES shared-memory stages; each
 * 128 x 32 tile of a plane is stored with its 16-byte chunks XOR-swizzled by
 * row (chunk c of row r at c ^ (r & 7)), so the ldmatrix.x4 reads of the
 * fragments (8 rows of 16 bytes per matrix: a 16 x 8 A fragment or two
 * 8 x 8 B fragments) touch each bank once. Blocks are ordered in groups of
 * 8 tile rows for L2 reuse.
 *
 * Requirements: mp, np multiples of 128, kp and k_per_split multiples of
 * 32, planes 16-byte aligned; dynamic shared memory STAGES x 64 KiB (three
 * products) or STAGES x 32 KiB (one): three stages where the device allows a
 * block 192 KiB, else two (128 KiB); a device with less returns
 * GK_ERR_UNSUPPORTED for three products.
 */
#include "sgemm_tc.cuh"

namespace {

constexpr int BM = 128, BN = 128, BK = 32;
constexpr int WM = 64;               /* warp tile WM x WN, WN 32 or 64 */
constexpr int MI = WM / 16;

/* Threads of a block whose warps have WN columns each. */
__host__ __device__ constexpr int threads_of(int wn)
{
	return 32 * (BM / WM) * (BN / wn);
}
constexpr int TILE_FLOATS = BM * BK; /* one plane's tile; BM == BN */
constexpr int GROUP_M = 8;

/* The accumulation schemes of three products. One: a single accumulator.
 * Two: the cross products in a second one, added at the end. Promote: the
 * tensor cores sum 32 (SCHEME_PROMOTE), 16 or 8 of K into a zeroed
 * accumulator, which is added to the FP32 register sum. Small first: each
 * K tile's eight cross products (Ahi Blo, Alo Bhi of its four K steps)
 * first into the zeroed tile accumulator, while it is small, then its four
 * Ahi Bhi; promoted every 32 of K. */
enum {
	SCHEME_ONE = 0, SCHEME_TWO = 1, SCHEME_PROMOTE = 2, SCHEME_PROMOTE16 = 3, SCHEME_PROMOTE8 = 4,
	SCHEME_SMALL_FIRST = 5
};

__host__ __device__ constexpr bool promotes(int scheme)
{
	return scheme >= SCHEME_PROMOTE && scheme <= SCHEME_PROMOTE8;
}

/* K steps of 8 per promotion. */
__host__ __device__ constexpr int promote_steps(int scheme)
{
	return scheme == SCHEME_PROMOTE8 ? 1 : scheme == SCHEME_PROMOTE16 ? 2 : 4;
}
constexpr int DEFAULT_SCHEME = SCHEME_PROMOTE16;
constexpr int TF32_WN = 64; /* TF32: warps of 64 x 64, 4 per block (x 32: 8 warps, 10% slower) */

static_assert(BM == BN, "one tile size for both planes");
static_assert(GK_TC_PAD_MN % BM == 0 && GK_TC_PAD_K % BK == 0, "tiles divide the planes' padding");

struct kparams {
	const float *a_hi, *a_lo, *b_hi, *b_lo;
	int64_t m, n, kp, k_per_split;
	int tiles_m, tiles_n;
	float alpha, beta;
	float *c; int64_t rs_c;
	float *partial;
	const int *a_exp, *b_exp; /* NULL: unscaled */
};

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void cp_async16(uint32_t dst, const float *src)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}

__device__ __forceinline__ void cp_async_commit()
{
	asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
	             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
	             : "r"(addr));
}

__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
	    "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
	(void)d; (void)a; (void)b0; (void)b1;
#endif
}

/* d = a b (the accumulator input zero). */
__device__ __forceinline__ void mma_tf32_z(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	const float z = 0.f;
	asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
	    "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %10, %10, %10};\n"
	    : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
	    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(z));
#else
	(void)d; (void)a; (void)b0; (void)b1;
#endif
}

/* 2^p as a float, -149 <= p <= 127 (subnormal below -126). */
__device__ __forceinline__ float pow2_any(int p)
{
	return __uint_as_float(p >= -126 ? (unsigned)(127 + p) << 23 : 1u << (p + 149));
}

/* v 2^e for -298 <= e <= 0, rounded once (as ldexpf): one multiply by 2^e
 * while that is a float; below, v 2^(e + 149) is exact or so small that
 * the result is zero either way, then times 2^-149 rounds once. No call:
 * an out-of-line ldexpf (or a branch here) costs the main loop spills. */
__device__ __forceinline__ float scale_back(float v, int e)
{
	const bool far = e < -149;
	return __fmul_rn(__fmul_rn(v, pow2_any(far ? e + 149 : e)), far ? pow2_any(-149) : 1.f);
}

/* One 128 x 32 tile of a plane (rows row0.., K k0..) into shared memory at
 * dst: thread t of NT copies chunk t % 8 of rows t / 8 + (NT / 8) i. */
template <int NT>
__device__ __forceinline__ void load_tile(uint32_t dst, const float *plane, int64_t row0, int64_t kp,
                                          int64_t k0, int tid)
{
	constexpr int RP = NT / 8; /* rows per pass, a multiple of 8 */
	const int r = tid >> 3, ch = tid & 7;
	const float *src = plane + (row0 + r) * kp + k0 + ch * 4;
	const uint32_t d = dst + (uint32_t)(r * BK + ((ch ^ (r & 7)) * 4)) * 4u;
#pragma unroll
	for (int i = 0; i < BM / RP; ++i)
		cp_async16(d + (uint32_t)(i * RP * BK * 4), src + (int64_t)i * RP * kp);
}

template <int PRODUCTS>
__host__ __device__ constexpr int stage_floats()
{
	return (PRODUCTS == 3 ? 4 : 2) * TILE_FLOATS;
}

/* Fragments of one K step: A of m16 group i (4 registers), B of the n8
 * group pair j (2 x 2 registers). */
__device__ __forceinline__ void frag_a(uint32_t (&r)[4], uint32_t tile, uint32_t off, int i)
{
	ldsm_x4(r, tile + off + (uint32_t)(i * 16 * BK * 4));
}

/* One K tile in the small-first order (SCHEME_SMALL_FIRST), into acc2 from
 * zero, then promoted into acc. */
template <int NJ>
__device__ __forceinline__ void small_first_tile(float (&acc)[MI][NJ][4], float (&acc2)[MI][NJ][4],
                                                 uint32_t sa_hi, uint32_t sb_hi, uint32_t sa_lo,
                                                 uint32_t sb_lo, int a_row, int a_half, int b_row,
                                                 int b_half, int sw)
{
#pragma unroll
	for (int ks = 0; ks < BK / 8; ++ks) {
		const uint32_t a_off = (uint32_t)(a_row * BK + (((ks * 2 + a_half) ^ sw) * 4)) * 4u;
		const uint32_t b_off = (uint32_t)(b_row * BK + (((ks * 2 + b_half) ^ sw) * 4)) * 4u;
		uint32_t bh[NJ / 2][4], bl[NJ / 2][4];
#pragma unroll
		for (int j = 0; j < NJ / 2; ++j) {
			frag_a(bh[j], sb_hi, b_off, j);
			frag_a(bl[j], sb_lo, b_off, j);
		}
#pragma unroll
		for (int i = 0; i < MI; ++i) {
			uint32_t ah[4], al[4];
			frag_a(ah, sa_hi, a_off, i);
			frag_a(al, sa_lo, a_off, i);
#pragma unroll
			for (int j = 0; j < NJ; ++j) {
				const uint32_t h0 = bh[j / 2][(j % 2) * 2], h1 = bh[j / 2][(j % 2) * 2 + 1];
				const uint32_t l0 = bl[j / 2][(j % 2) * 2], l1 = bl[j / 2][(j % 2) * 2 + 1];
				if (ks == 0)
					mma_tf32_z(acc2[i][j], al, h0, h1);
				else
					mma_tf32(acc2[i][j], al, h0, h1);
				mma_tf32(acc2[i][j], ah, l0, l1);
			}
		}
	}
#pragma unroll
	for (int ks = 0; ks < BK / 8; ++ks) {
		const uint32_t a_off = (uint32_t)(a_row * BK + (((ks * 2 + a_half) ^ sw) * 4)) * 4u;
		const uint32_t b_off = (uint32_t)(b_row * BK + (((ks * 2 + b_half) ^ sw) * 4)) * 4u;
		uint32_t bh[NJ / 2][4];
#pragma unroll
		for (int j = 0; j < NJ / 2; ++j)
			frag_a(bh[j], sb_hi, b_off, j);
#pragma unroll
		for (int i = 0; i < MI; ++i) {
			uint32_t ah[4];
			frag_a(ah, sa_hi, a_off, i);
#pragma unroll
			for (int j = 0; j < NJ; ++j)
				mma_tf32(acc2[i][j], ah, bh[j / 2][(j % 2) * 2], bh[j / 2][(j % 2) * 2 + 1]);
		}
	}
#pragma unroll
	for (int i = 0; i < MI; ++i)
#pragma unroll
		for (int j = 0; j < NJ; ++j)
#pragma unroll
			for (int e = 0; e < 4; ++e)
				acc[i][j][e] += acc2[i][j][e];
}

template <int PRODUCTS, int SCHEME, int STAGES, int WN>
__global__ void __launch_bounds__(threads_of(WN), PRODUCTS == 1 ? 2 : 1) tc_mma_kernel(const kparams P)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	constexpr int NJ = WN / 8, WARPS_N = BN / WN, NT = threads_of(WN);
	extern __shared__ __align__(128) float gk_tc_smem[];
	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const int wm = (warp / WARPS_N) * WM, wn = (warp % WARPS_N) * WN;

	/* Tile of C: groups of GROUP_M tile rows, column-major inside a group. */
	const int pid = blockIdx.x;
	const int in_group = GROUP_M * P.tiles_n;
	const int first_m = (pid / in_group) * GROUP_M;
	const int gsz = min(P.tiles_m - first_m, GROUP_M);
	const int tm = first_m + (pid % in_group) % gsz;
	const int tn = (pid % in_group) / gsz;
	const int64_t row_a = (int64_t)tm * BM, row_b = (int64_t)tn * BN;

	const int64_t kbeg = (int64_t)blockIdx.z * P.k_per_split;
	int64_t kend = kbeg + P.k_per_split;
	if (kend > P.kp)
		kend = P.kp;
	const int ntiles = kend > kbeg ? (int)((kend - kbeg) / BK) : 0;

	const uint32_t smem = smem_u32(gk_tc_smem);
	constexpr uint32_t TILE_BYTES = TILE_FLOATS * 4, STAGE_BYTES = stage_floats<PRODUCTS>() * 4;
	/* Stage layout: A hi, B hi, (A lo, B lo). */
	auto load_stage = [&](int s, int64_t k0) {
		const uint32_t base = smem + (uint32_t)s * STAGE_BYTES;
		load_tile<NT>(base, P.a_hi, row_a, P.kp, k0, tid);
		load_tile<NT>(base + TILE_BYTES, P.b_hi, row_b, P.kp, k0, tid);
		if (PRODUCTS == 3) {
			load_tile<NT>(base + 2 * TILE_BYTES, P.a_lo, row_a, P.kp, k0, tid);
			load_tile<NT>(base + 3 * TILE_BYTES, P.b_lo, row_b, P.kp, k0, tid);
		}
	};

	/* ldmatrix lane addresses (bytes within a plane's tile, K step 0). A:
	 * matrices (rows 0-7, k 0-3), (8-15, 0-3), (0-7, 4-7), (8-15, 4-7) of
	 * an m16 group; B: (n 0-7, k 0-3), (0-7, 4-7), (8-15, 0-3), (8-15, 4-7)
	 * of two n8 groups. Rows differ by multiples of 8 between groups, so
	 * the swizzle term is lane & 7 throughout. */
	const int sw = lane & 7;
	const int a_row = wm + (lane & 7) + ((lane >> 3) & 1) * 8, a_half = lane >> 4;
	const int b_row = wn + (lane & 7) + (lane >> 4) * 8, b_half = (lane >> 3) & 1;

	float acc[MI][NJ][4];
	float acc2[SCHEME == SCHEME_ONE || PRODUCTS == 1 ? 1 : MI][SCHEME == SCHEME_ONE || PRODUCTS == 1 ? 1 : NJ][4];
#pragma unroll
	for (int i = 0; i < MI; ++i)
#pragma unroll
		for (int j = 0; j < NJ; ++j)
#pragma unroll
			for (int e = 0; e < 4; ++e)
				acc[i][j][e] = 0.f;
	constexpr int M2 = sizeof(acc2) / sizeof(acc2[0]), N2 = sizeof(acc2[0]) / sizeof(acc2[0][0]);
#pragma unroll
	for (int i = 0; i < M2; ++i)
#pragma unroll
		for (int j = 0; j < N2; ++j)
#pragma unroll
			for (int e = 0; e < 4; ++e)
				acc2[i][j][e] = 0.f;

#pragma unroll
	for (int s = 0; s < STAGES - 1; ++s) {
		if (s < ntiles)
			load_stage(s, kbeg + (int64_t)s * BK);
		cp_async_commit();
	}

	for (int kt = 0; kt < ntiles; ++kt) {
		cp_async_wait<STAGES - 2>();
		__syncthreads();
		{
			const int nt = kt + STAGES - 1;
			if (nt < ntiles)
				load_stage(nt % STAGES, kbeg + (int64_t)nt * BK);
			cp_async_commit();
		}
		const uint32_t st = smem + (uint32_t)(kt % STAGES) * STAGE_BYTES;
		const uint32_t sa_hi = st, sb_hi = st + TILE_BYTES, sa_lo = st + 2 * TILE_BYTES,
		               sb_lo = st + 3 * TILE_BYTES;
		if constexpr (SCHEME == SCHEME_SMALL_FIRST && PRODUCTS == 3) {
			small_first_tile<NJ>(acc, acc2, sa_hi, sb_hi, sa_lo, sb_lo, a_row, a_half, b_row, b_half, sw);
			continue;
		}
#pragma unroll
		for (int ks = 0; ks < BK / 8; ++ks) {
			/* Promote: acc2 sums promote_steps K steps, from zero. */
			const bool fresh = promotes(SCHEME) && ks % promote_steps(SCHEME) == 0;
			uint32_t ah[MI][4], bh[NJ][2];
			const uint32_t a_off = (uint32_t)(a_row * BK + (((ks * 2 + a_half) ^ sw) * 4)) * 4u;
			const uint32_t b_off = (uint32_t)(b_row * BK + (((ks * 2 + b_half) ^ sw) * 4)) * 4u;
#pragma unroll
			for (int i = 0; i < MI; ++i)
				frag_a(ah[i], sa_hi, a_off, i);
#pragma unroll
			for (int j = 0; j < NJ / 2; ++j) {
				uint32_t r[4];
				ldsm_x4(r, sb_hi + b_off + (uint32_t)(j * 16 * BK * 4));
				bh[2 * j][0] = r[0]; bh[2 * j][1] = r[1];
				bh[2 * j + 1][0] = r[2]; bh[2 * j + 1][1] = r[3];
			}
			if (PRODUCTS == 1) {
#pragma unroll
				for (int i = 0; i < MI; ++i)
#pragma unroll
					for (int j = 0; j < NJ; ++j)
						mma_tf32(acc[i][j], ah[i], bh[j][0], bh[j][1]);
			} else if (promotes(SCHEME)) {
				/* Three passes, each fragment of the lo planes loaded just
				 * before its use (fewer live registers): Ahi Bhi (from zero at
				 * the start of a promotion group), Alo Bhi, Ahi Blo. */
#pragma unroll
				for (int i = 0; i < MI; ++i)
#pragma unroll
					for (int j = 0; j < NJ; ++j) {
						if (fresh)
							mma_tf32_z(acc2[i % M2][j % N2], ah[i], bh[j][0], bh[j][1]);
						else
							mma_tf32(acc2[i % M2][j % N2], ah[i], bh[j][0], bh[j][1]);
					}
#pragma unroll
				for (int i = 0; i < MI; ++i) {
					uint32_t al[4];
					ldsm_x4(al, sa_lo + a_off + (uint32_t)(i * 16 * BK * 4));
#pragma unroll
					for (int j = 0; j < NJ; ++j)
						mma_tf32(acc2[i % M2][j % N2], al, bh[j][0], bh[j][1]);
				}
#pragma unroll
				for (int j = 0; j < NJ / 2; ++j) {
					uint32_t bl[4];
					ldsm_x4(bl, sb_lo + b_off + (uint32_t)(j * 16 * BK * 4));
#pragma unroll
					for (int i = 0; i < MI; ++i) {
						mma_tf32(acc2[i % M2][(2 * j) % N2], ah[i], bl[0], bl[1]);
						mma_tf32(acc2[i % M2][(2 * j + 1) % N2], ah[i], bl[2], bl[3]);
					}
				}
			} else {
				uint32_t al[MI][4], bl[NJ][2];
#pragma unroll
				for (int i = 0; i < MI; ++i)
					ldsm_x4(al[i], sa_lo + a_off + (uint32_t)(i * 16 * BK * 4));
#pragma unroll
				for (int j = 0; j < NJ / 2; ++j) {
					uint32_t r[4];
					ldsm_x4(r, sb_lo + b_off + (uint32_t)(j * 16 * BK * 4));
					bl[2 * j][0] = r[0]; bl[2 * j][1] = r[1];
					bl[2 * j + 1][0] = r[2]; bl[2 * j + 1][1] = r[3];
				}
				/* The small products first, the large one last. */
#pragma unroll
				for (int i = 0; i < MI; ++i)
#pragma unroll
					for (int j = 0; j < NJ; ++j) {
						if (SCHEME == SCHEME_ONE) {
							mma_tf32(acc[i][j], al[i], bh[j][0], bh[j][1]);
							mma_tf32(acc[i][j], ah[i], bl[j][0], bl[j][1]);
							mma_tf32(acc[i][j], ah[i], bh[j][0], bh[j][1]);
						} else {
							mma_tf32(acc2[i % M2][j % N2], al[i], bh[j][0], bh[j][1]);
							mma_tf32(acc2[i % M2][j % N2], ah[i], bl[j][0], bl[j][1]);
							mma_tf32(acc[i][j], ah[i], bh[j][0], bh[j][1]);
						}
					}
			}
			if (promotes(SCHEME) && PRODUCTS == 3 && (ks + 1) % promote_steps(SCHEME) == 0) {
#pragma unroll
				for (int i = 0; i < MI; ++i)
#pragma unroll
					for (int j = 0; j < NJ; ++j)
#pragma unroll
						for (int e = 0; e < 4; ++e)
							acc[i][j][e] += acc2[i % M2][j % N2][e];
			}
		}
	}
	cp_async_wait<0>();

	if (SCHEME == SCHEME_TWO && PRODUCTS == 3) {
#pragma unroll
		for (int i = 0; i < MI; ++i)
#pragma unroll
			for (int j = 0; j < NJ; ++j)
#pragma unroll
				for (int e = 0; e < 4; ++e)
					acc[i][j][e] += acc2[i % M2][j % N2][e];
	}

	/* Epilogue: element e of fragment (i, j) is row g + 8 (e / 2), column
	 * 2 t + e % 2 of the 16 x 8 block, g = lane / 4, t = lane % 4. */
	const int g = lane >> 2, t4 = lane & 3;
	const bool split = P.partial != nullptr;
	float *out = split ? P.partial + (int64_t)blockIdx.z * P.m * P.n : P.c;
	const int64_t rs = split ? P.n : P.rs_c;
#pragma unroll
	for (int i = 0; i < MI; ++i)
#pragma unroll
		for (int e2 = 0; e2 < 2; ++e2) {
			const int64_t row = row_a + wm + i * 16 + g + e2 * 8;
			if (row >= P.m)
				continue;
			float *orow = out + row * rs;
			const int ea = P.a_exp ? P.a_exp[row] : 0;
#pragma unroll
			for (int j = 0; j < NJ; ++j)
#pragma unroll
				for (int e1 = 0; e1 < 2; ++e1) {
					const int64_t col = row_b + wn + j * 8 + 2 * t4 + e1;
					if (col >= P.n)
						continue;
					float v = acc[i][j][e2 * 2 + e1];
					if (P.a_exp) /* the scales back (sgemm_tc.cuh) */
						v = scale_back(v, ea + P.b_exp[col]);
					if (split) {
						orow[col] = v;
					} else {
						float r = P.alpha * v;
						if (P.beta != 0.f)
							r = fmaf(P.beta, orow[col], r);
						orow[col] = r;
					}
				}
		}
#else
	(void)P;
#endif
}

template <int PRODUCTS, int SCHEME, int STAGES, int WN = 32>
gk_status launch(const kparams &kp, unsigned blocks, unsigned splits, cudaStream_t stream)
{
	static const char *fn = "gk_tc_run_mma";
	const size_t smem = (size_t)STAGES * stage_floats<PRODUCTS>() * sizeof(float);
	auto kern = tc_mma_kernel<PRODUCTS, SCHEME, STAGES, WN>;
	GK_CUDA_TRY(fn, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	kern<<<dim3(blocks, 1, splits), threads_of(WN), smem, stream>>>(kp);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

template <int SCHEME, int WN1 = TF32_WN>
gk_status run_scheme(const gk_tc_problem *pr)
{
	static const char *fn = "gk_tc_run_mma";
	int dev = 0, major = 0, optin = 0;
	GK_CUDA_TRY(fn, cudaGetDevice(&dev));
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
	if (major < 8)
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: TF32 tensor cores need compute capability 8.0", fn);
	if (pr->mp % BM || pr->np % BN || pr->kp % BK || pr->k_per_split % BK || pr->k_per_split <= 0 ||
	    pr->splits < 1 || pr->splits > 65535 || (pr->products != 1 && pr->products != 3))
		return gk_set_error(GK_ERR_INTERNAL, "%s: a problem off the planes' padding", fn);

	kparams kp;
	kp.a_hi = pr->a_hi; kp.a_lo = pr->a_lo;
	kp.b_hi = pr->b_hi; kp.b_lo = pr->b_lo;
	kp.m = pr->m; kp.n = pr->n; kp.kp = pr->kp;
	kp.k_per_split = pr->splits > 1 ? pr->k_per_split : pr->kp;
	kp.tiles_m = (int)(pr->mp / BM); kp.tiles_n = (int)(pr->np / BN);
	kp.alpha = pr->alpha; kp.beta = pr->beta;
	kp.c = pr->c; kp.rs_c = pr->rs_c;
	kp.partial = pr->splits > 1 ? pr->partial : nullptr;
	kp.a_exp = pr->a_exp && pr->b_exp ? pr->a_exp : nullptr;
	kp.b_exp = pr->a_exp && pr->b_exp ? pr->b_exp : nullptr;
	const int64_t blocks = (int64_t)kp.tiles_m * kp.tiles_n;
	if (blocks > 0x7fffffff)
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: %lld tiles of C", fn, (long long)blocks);
	const unsigned sp = (unsigned)pr->splits;

	if (pr->products == 1) {
		if (optin < 3 * stage_floats<1>() * 4)
			return gk_set_error(GK_ERR_UNSUPPORTED, "%s: %d bytes of shared memory per block", fn, optin);
		return launch<1, SCHEME_ONE, 3, WN1>(kp, (unsigned)blocks, sp, pr->stream);
	}
	if (optin >= 3 * stage_floats<3>() * 4)
		return launch<3, SCHEME, 3>(kp, (unsigned)blocks, sp, pr->stream);
	if (optin >= 2 * stage_floats<3>() * 4)
		return launch<3, SCHEME, 2>(kp, (unsigned)blocks, sp, pr->stream);
	return gk_set_error(GK_ERR_UNSUPPORTED, "%s: %d bytes of shared memory per block", fn, optin);
}

} /* namespace */

#ifndef GK_TC_MMA_STUDY
gk_status gk_tc_run_mma(const gk_tc_problem *pr)
{
	return run_scheme<DEFAULT_SCHEME>(pr);
}
#else
/* The error and cost study of the accumulation schemes (a standalone
 * harness builds with GK_TC_MMA_STUDY): any scheme on request (1, 0:
 * one accumulator; 1: the cross products apart; 2, 3, 4: promoted every
 * 32, 16, 8 of K; 5: small first), TF32 with warps of 64 x 32 as scheme
 * 100. pr == NULL: `scheme` becomes the one gk_tc_run_mma uses. */
static int g_study_scheme = DEFAULT_SCHEME;

gk_status gk_tc_run_mma_scheme(const gk_tc_problem *pr, int scheme)
{
	if (!pr) {
		g_study_scheme = scheme;
		return GK_OK;
	}
	if (pr->products == 1)
		return scheme == 100 ? run_scheme<SCHEME_ONE, 32>(pr) : run_scheme<SCHEME_ONE>(pr);
	switch (scheme) {
	case SCHEME_ONE: return run_scheme<SCHEME_ONE>(pr);
	case SCHEME_TWO: return run_scheme<SCHEME_TWO>(pr);
	case SCHEME_PROMOTE16: return run_scheme<SCHEME_PROMOTE16>(pr);
	case SCHEME_PROMOTE8: return run_scheme<SCHEME_PROMOTE8>(pr);
	case SCHEME_SMALL_FIRST: return run_scheme<SCHEME_SMALL_FIRST>(pr);
	default: return run_scheme<SCHEME_PROMOTE>(pr);
	}
}

gk_status gk_tc_run_mma(const gk_tc_problem *pr)
{
	return gk_tc_run_mma_scheme(pr, g_study_scheme);
}
#endif
