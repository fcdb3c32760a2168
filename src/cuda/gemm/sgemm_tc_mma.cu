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
 * stored; the padding of the planes is zero and adds nothing.
 *
 * Accumulation of the three products (products == 3): the tensor cores add
 * into their FP32 accumulator with truncation, so one accumulator drifts by
 * about K u in the mean. The schemes (SCHEME_*) are measured in the
 * error table of sgemm_tc.cuh; the one used is DEFAULT_SCHEME. Promote:
 * each 32-deep K tile is summed by the tensor cores into a zeroed
 * accumulator, which is then added to an FP32 register sum with ordinary
 * (round-to-nearest) adds.
 *
 * Shape: a block of 8 warps owns a 128 x 128 tile of C; warp w owns the
 * 64 x 32 sub-tile (w / 4, w % 4); per 8-deep K step a warp issues
 * 4 x 4 MMAs per product. K tiles of 32 are copied with cp.async (16 bytes,
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
constexpr int THREADS = 256;
constexpr int WM = 64, WN = 32;      /* warp tile: warps 2 (M) x 4 (N) */
constexpr int MI = WM / 16, NJ = WN / 8;
constexpr int TILE_FLOATS = BM * BK; /* one plane's tile; BM == BN */
constexpr int GROUP_M = 8;

enum { SCHEME_ONE = 0, SCHEME_TWO = 1, SCHEME_PROMOTE = 2 };
constexpr int DEFAULT_SCHEME = SCHEME_PROMOTE;

static_assert(BM == BN, "one tile size for both planes");
static_assert(GK_TC_PAD_MN % BM == 0 && GK_TC_PAD_K % BK == 0, "tiles divide the planes' padding");

struct kparams {
	const float *a_hi, *a_lo, *b_hi, *b_lo;
	int64_t m, n, kp, k_per_split;
	int tiles_m, tiles_n;
	float alpha, beta;
	float *c; int64_t rs_c;
	float *partial;
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

/* One 128 x 32 tile of a plane (rows row0.., K k0..) into shared memory at
 * dst: thread t copies chunk t % 8 of rows t / 8 + 32 i. */
__device__ __forceinline__ void load_tile(uint32_t dst, const float *plane, int64_t row0, int64_t kp,
                                          int64_t k0, int tid)
{
	const int r = tid >> 3, ch = tid & 7;
	const float *src = plane + (row0 + r) * kp + k0 + ch * 4;
	const uint32_t d = dst + (uint32_t)(r * BK + ((ch ^ (r & 7)) * 4)) * 4u;
#pragma unroll
	for (int i = 0; i < BM / 32; ++i)
		cp_async16(d + (uint32_t)(i * 32 * BK * 4), src + (int64_t)i * 32 * kp);
}

template <int PRODUCTS>
__host__ __device__ constexpr int stage_floats()
{
	return (PRODUCTS == 3 ? 4 : 2) * TILE_FLOATS;
}

template <int PRODUCTS, int SCHEME, int STAGES>
__global__ void __launch_bounds__(THREADS, PRODUCTS == 1 ? 2 : 1) tc_mma_kernel(const kparams P)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	extern __shared__ __align__(128) float gk_tc_smem[];
	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const int wm = (warp >> 2) * WM, wn = (warp & 3) * WN;

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
		load_tile(base, P.a_hi, row_a, P.kp, k0, tid);
		load_tile(base + TILE_BYTES, P.b_hi, row_b, P.kp, k0, tid);
		if (PRODUCTS == 3) {
			load_tile(base + 2 * TILE_BYTES, P.a_lo, row_a, P.kp, k0, tid);
			load_tile(base + 3 * TILE_BYTES, P.b_lo, row_b, P.kp, k0, tid);
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
		if (SCHEME == SCHEME_PROMOTE && PRODUCTS == 3) {
			/* acc2 is this K tile's sum. */
#pragma unroll
			for (int i = 0; i < MI; ++i)
#pragma unroll
				for (int j = 0; j < NJ; ++j)
#pragma unroll
					for (int e = 0; e < 4; ++e)
						acc2[i][j][e] = 0.f;
		}
#pragma unroll
		for (int ks = 0; ks < BK / 8; ++ks) {
			uint32_t ah[MI][4], bh[NJ][2];
			const uint32_t a_off = (uint32_t)(a_row * BK + (((ks * 2 + a_half) ^ sw) * 4)) * 4u;
			const uint32_t b_off = (uint32_t)(b_row * BK + (((ks * 2 + b_half) ^ sw) * 4)) * 4u;
#pragma unroll
			for (int i = 0; i < MI; ++i)
				ldsm_x4(ah[i], sa_hi + a_off + (uint32_t)(i * 16 * BK * 4));
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
						} else if (SCHEME == SCHEME_TWO) {
							mma_tf32(acc2[i % M2][j % N2], al[i], bh[j][0], bh[j][1]);
							mma_tf32(acc2[i % M2][j % N2], ah[i], bl[j][0], bl[j][1]);
							mma_tf32(acc[i][j], ah[i], bh[j][0], bh[j][1]);
						} else {
							mma_tf32(acc2[i % M2][j % N2], al[i], bh[j][0], bh[j][1]);
							mma_tf32(acc2[i % M2][j % N2], ah[i], bl[j][0], bl[j][1]);
							mma_tf32(acc2[i % M2][j % N2], ah[i], bh[j][0], bh[j][1]);
						}
					}
			}
		}
		if (SCHEME == SCHEME_PROMOTE && PRODUCTS == 3) {
#pragma unroll
			for (int i = 0; i < MI; ++i)
#pragma unroll
				for (int j = 0; j < NJ; ++j)
#pragma unroll
					for (int e = 0; e < 4; ++e)
						acc[i][j][e] += acc2[i % M2][j % N2][e];
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
#pragma unroll
			for (int j = 0; j < NJ; ++j)
#pragma unroll
				for (int e1 = 0; e1 < 2; ++e1) {
					const int64_t col = row_b + wn + j * 8 + 2 * t4 + e1;
					if (col >= P.n)
						continue;
					const float v = acc[i][j][e2 * 2 + e1];
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

template <int PRODUCTS, int SCHEME, int STAGES>
gk_status launch(const kparams &kp, unsigned blocks, unsigned splits, cudaStream_t stream)
{
	static const char *fn = "gk_tc_run_mma";
	const size_t smem = (size_t)STAGES * stage_floats<PRODUCTS>() * sizeof(float);
	auto kern = tc_mma_kernel<PRODUCTS, SCHEME, STAGES>;
	GK_CUDA_TRY(fn, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	kern<<<dim3(blocks, 1, splits), THREADS, smem, stream>>>(kp);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

template <int SCHEME>
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
	const int64_t blocks = (int64_t)kp.tiles_m * kp.tiles_n;
	if (blocks > 0x7fffffff)
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: %lld tiles of C", fn, (long long)blocks);
	const unsigned sp = (unsigned)pr->splits;

	if (pr->products == 1) {
		if (optin < 3 * stage_floats<1>() * 4)
			return gk_set_error(GK_ERR_UNSUPPORTED, "%s: %d bytes of shared memory per block", fn, optin);
		return launch<1, SCHEME_ONE, 3>(kp, (unsigned)blocks, sp, pr->stream);
	}
	if (optin >= 3 * stage_floats<3>() * 4)
		return launch<3, SCHEME, 3>(kp, (unsigned)blocks, sp, pr->stream);
	if (optin >= 2 * stage_floats<3>() * 4)
		return launch<3, SCHEME, 2>(kp, (unsigned)blocks, sp, pr->stream);
	return gk_set_error(GK_ERR_UNSUPPORTED, "%s: %d bytes of shared memory per block", fn, optin);
}

} /* namespace */

gk_status gk_tc_run_mma(const gk_tc_problem *pr)
{
	return run_scheme<DEFAULT_SCHEME>(pr);
}

/* The accumulation schemes side by side, for the error study that chose
 * DEFAULT_SCHEME (0 one accumulator, 1 the cross products apart, 2 K tiles
 * promoted). Not part of the interface. */
gk_status gk_tc_run_mma_scheme(const gk_tc_problem *pr, int scheme)
{
	if (pr->products == 3 && scheme == SCHEME_ONE)
		return run_scheme<SCHEME_ONE>(pr);
	if (pr->products == 3 && scheme == SCHEME_TWO)
		return run_scheme<SCHEME_TWO>(pr);
	return run_scheme<SCHEME_PROMOTE>(pr);
}
