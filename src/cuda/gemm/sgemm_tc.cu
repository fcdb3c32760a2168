/*
 * sgemm_tc.cu - the launchers of the tensor-core SGEMM: gk_cuda_sgemm_3xtf32
 * (the cuda.sgemm_3xtf32 row: FP32-accurate, three TF32 products) and
 * gk_cuda_sgemm_tf32 (cuda.sgemm_tf32: one TF32 product).
 *
 * What they compute: the canonical problem of cuda_gemm.h, C = alpha A B +
 * beta C, for any m, n, k >= 1 and strides, on compute capability 8.0 and
 * later (GK_ERR_UNSUPPORTED before). Steps, all stream-ordered on p->stream:
 *   0. The choice of kernel: where the tensor cores do not pay (small or
 *      skinny shapes: the rule of the constants below), the call runs the
 *      strict FFMA launcher gk_cuda_sgemm_tuned instead, whose error bound
 *      (K + 2) u is within both modes' (docs/PRECISION.md, "Speed and the
 *      choice of kernel"). GK_TC_ALWAYS=1 in the environment (read once)
 *      turns this off: the tensor cores for every shape (tests, benchmarks).
 *   1. Workspace for the planes (sgemm_tc.cuh): A as mp x kp, B as np x kp,
 *      hi and lo (hi only for TF32), taken stream-ordered from gemmkit's own
 *      memory pool of the device (cudaMallocFromPoolAsync; created once per
 *      device, on first use). The pool keeps up to min(4 GiB, 1/16 of the
 *      device's memory) reserved across synchronisations, so that the
 *      planes of the next call of a similar size need no new allocation
 *      from the driver; beyond that it gives memory back at each
 *      synchronisation, like the default pool. The device's default pool
 *      (the caller's) is never changed; where the pool cannot be created,
 *      cudaMallocAsync (the default pool) is used. When the workspace
 *      cannot be had (after the pool's unused reserve is trimmed), C is cut
 *      into panels (rows of A, columns of B) whose planes fit, halving the
 *      larger side down to 128 x 128; only when even that fails is the
 *      answer GK_ERR_NO_MEMORY.
 *   2. The split of A's rows and B's columns into planes (sgemm_tc_split.cu).
 *      First one read pass over A and B for the row maxima of op(A), the
 *      column maxima of op(B) and their largest magnitudes (gk_tc_absmax);
 *      the split then scales rows and columns whose largest magnitude is
 *      below 1 up by powers of two (the scales of sgemm_tc.cuh, chosen on
 *      the device: no synchronisation), and the main kernel scales each
 *      result back. Their exponents (m + n ints, rounded up to 128) and
 *      maxima share the planes' workspace. Both modes scale: in TF32 the
 *      tensor cores' flush of subnormal inputs would lose whole entries
 *      (B near 2^-127, say), not only small parts.
 *   3. Split-K when the tiles of C leave SMs idle: S splits, chosen from the
 *      shape and the SM count alone, each into its own m x n block of a
 *      second workspace; gk_sgemm_splitk_reduce sums them in split order
 *      (bit-for-bit reproducible) and applies alpha and beta. Without room
 *      for that workspace the product runs unsplit.
 *   4. The main kernel: on compute capability 9.0 the warpgroup-MMA kernel
 *      (gk_tc_run_wgmma_sm90a); where it answers GK_ERR_UNSUPPORTED (or on
 *      any other device) the mma.sync kernel (gk_tc_run_mma).
 *   5. The workspaces released with cudaFreeAsync (back into the pool).
 * beta == 0 never reads C. Every CUDA call and launch is checked.
 */
#include <mutex>
#include <stdlib.h>
#include "sgemm_tc.cuh"
#include "sgemm_splitk.cuh"

/* Where the tensor cores pay (step 0): all of m, n >= GK_TC_MIN_MN,
 * k >= GK_TC_MIN_K and m n k >= GK_TC_MIN_MNK; any other shape runs the
 * FFMA launcher. From one H100 run (bench --suite gpu-precision, TFLOPS,
 * FFMA / 3xTF32 / TF32): 1024^3 31.5 / 24.1 / 23.2, 4096 x 4096 x 64
 * 28.3 / 22.1 / 23.8, 64 x 64 x 10^6 32.2 / 3.4 / 5.0 (FFMA wins);
 * 2048^3 38.2 / 76.7 / 124.4 and every larger cube (tensor cores win). The
 * fixed costs (maxima pass, split, a few more launches) are paid per call
 * and per element of A and B, the gain per multiply-add: the tensor cores
 * need a C of enough tiles, a K long enough to amortise their prologue,
 * and enough work overall. m n k >= 2^32 lies between the largest cube the
 * FFMA kernel won (2^30) and the smallest the tensor cores won (2^33). */
#define GK_TC_MIN_MN 512
#define GK_TC_MIN_K 512
#define GK_TC_MIN_MNK ((int64_t)1 << 32)
/* The environment variable that forces the tensor cores for every shape. */
#define GK_TC_ALWAYS_ENV "GK_TC_ALWAYS"

/* The workspace pool (step 1): memory kept reserved across
 * synchronisations, at most min(GK_TC_POOL_KEEP_MAX, device memory /
 * GK_TC_POOL_KEEP_DIV). Devices numbered GK_TC_POOL_DEVICES and up use
 * the default pool. */
#define GK_TC_POOL_KEEP_MAX ((uint64_t)4 << 30)
#define GK_TC_POOL_KEEP_DIV 16
#define GK_TC_POOL_DEVICES 64

/* The scaling passes (sgemm_tc_split.cu; the rule is in its contract).
 * gk_tc_absmax: atomicMax of |x| (as bits) per row of op(A) into rmax_a[m],
 * per column of op(B) into rmax_b[n], the largest of each into gmax[0],
 * gmax[1]; all zeroed by the caller. gk_tc_split_scaled: gk_tc_split of
 * the rows times 2^-exp[r], exp chosen from rmax, the other operand's
 * largest magnitude and `budget`, and stored (rows_p ints). */
gk_status gk_tc_absmax(const float *a, int64_t m, int64_t rs_a, int64_t cs_a, const float *b, int64_t n,
                       int64_t rs_b, int64_t cs_b, int64_t k, unsigned *rmax_a, unsigned *rmax_b,
                       unsigned *gmax, cudaStream_t stream);
gk_status gk_tc_split_scaled(const float *x, int64_t rows, int64_t k, int64_t rs, int64_t cs, float *hi,
                             float *lo, int64_t rows_p, int64_t kp, const unsigned *rmax,
                             const unsigned *gmax_other, int budget, int *exp, cudaStream_t stream);

namespace {

constexpr int64_t MIN_K_SPLIT = 512;          /* elements of K per split, at least */
constexpr int64_t MAX_SPLITS = 4096;
constexpr int64_t MAX_PARTIAL_BYTES = (int64_t)1 << 28;

int64_t g_ws_limit = -1; /* gk_tc_set_workspace_limit */

/* GK_TC_ALWAYS=1: the tensor cores for every shape (read once). */
bool tc_always()
{
	static const bool always = [] {
		const char *e = getenv(GK_TC_ALWAYS_ENV);
		return e != NULL && e[0] == '1' && e[1] == '\0';
	}();
	return always;
}

/* Step 0's rule. */
bool tc_pays(int64_t m, int64_t n, int64_t k)
{
	if (m < GK_TC_MIN_MN || n < GK_TC_MIN_MN || k < GK_TC_MIN_K)
		return false;
	/* m n k >= GK_TC_MIN_MNK without forming m n k (it may pass 2^63). */
	const int64_t need = (GK_TC_MIN_MNK + k - 1) / k; /* ceil(MNK / k) */
	return m >= (need + n - 1) / n;
}

int64_t cdiv(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

int64_t rup(int64_t a, int64_t b)
{
	return cdiv(a, b) * b;
}

/* The workspace pools, one per device, created on first use under the
 * mutex and kept for the life of the process (the driver frees them at
 * exit). State 0: not tried yet; 1: g_pool[d] is the pool; -1: creation
 * failed, the default pool serves. */
std::mutex g_pool_mutex;
cudaMemPool_t g_pool[GK_TC_POOL_DEVICES];
signed char g_pool_state[GK_TC_POOL_DEVICES];

/* Create device's pool; the device is current (the launcher contract).
 * false, with the errors cleared, where it cannot be had. */
bool create_pool(int device, cudaMemPool_t *out)
{
	int supported = 0;
	if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) != cudaSuccess ||
	    !supported)
		return false;
	size_t free_b = 0, total_b = 0;
	if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
		return false;
	cudaMemPoolProps props = {};
	props.allocType = cudaMemAllocationTypePinned;
	props.handleTypes = cudaMemHandleTypeNone;
	props.location.type = cudaMemLocationTypeDevice;
	props.location.id = device;
	cudaMemPool_t pool = NULL;
	if (cudaMemPoolCreate(&pool, &props) != cudaSuccess)
		return false;
	uint64_t keep = (uint64_t)total_b / GK_TC_POOL_KEEP_DIV;
	if (keep > GK_TC_POOL_KEEP_MAX)
		keep = GK_TC_POOL_KEEP_MAX;
	if (cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) {
		(void)cudaMemPoolDestroy(pool);
		return false;
	}
	*out = pool;
	return true;
}

/* The device's workspace pool, or NULL: use the default pool. Thread-safe. */
cudaMemPool_t workspace_pool(int device)
{
	if (device < 0 || device >= GK_TC_POOL_DEVICES)
		return NULL;
	std::lock_guard<std::mutex> lock(g_pool_mutex);
	if (g_pool_state[device] == 0) {
		cudaMemPool_t pool = NULL;
		if (create_pool(device, &pool)) {
			g_pool[device] = pool;
			g_pool_state[device] = 1;
		} else {
			(void)cudaGetLastError(); /* not sticky: the default pool serves */
			g_pool_state[device] = -1;
		}
	}
	return g_pool_state[device] > 0 ? g_pool[device] : NULL;
}

/* A stream-ordered allocation from `pool` (NULL: the default pool) that
 * may fail quietly: false when there is no room (the error is cleared),
 * with the test limit applied. A failure in gemmkit's pool first trims
 * the pool's unused reserve and tries once more. */
bool try_alloc(void **ptr, int64_t bytes, cudaMemPool_t pool, cudaStream_t stream)
{
	*ptr = NULL;
	if (g_ws_limit >= 0 && bytes > g_ws_limit)
		return false;
	if (pool == NULL) {
		if (cudaMallocAsync(ptr, (size_t)bytes, stream) == cudaSuccess)
			return true;
	} else {
		if (cudaMallocFromPoolAsync(ptr, (size_t)bytes, pool, stream) == cudaSuccess)
			return true;
		(void)cudaGetLastError();
		*ptr = NULL;
		if (cudaMemPoolTrimTo(pool, 0) == cudaSuccess &&
		    cudaMallocFromPoolAsync(ptr, (size_t)bytes, pool, stream) == cudaSuccess)
			return true;
	}
	*ptr = NULL;
	(void)cudaGetLastError();
	return false;
}

/* Split-K count for a panel of mp x np planes: enough splits to bring the
 * tiles up to one wave when they are fewer than the SMs. */
int64_t choose_splits(int64_t m, int64_t n, int64_t mp, int64_t np, int64_t kp, int sms, int64_t *k_per_split)
{
	const int64_t tiles = (mp / GK_TC_PAD_MN) * (np / GK_TC_PAD_MN);
	*k_per_split = kp;
	if (tiles >= sms || kp < 2 * MIN_K_SPLIT)
		return 1;
	int64_t s = sms / tiles;
	if (s > kp / MIN_K_SPLIT)
		s = kp / MIN_K_SPLIT;
	if (s > MAX_SPLITS)
		s = MAX_SPLITS;
	if (s * m * n * 4 > MAX_PARTIAL_BYTES)
		s = MAX_PARTIAL_BYTES / (m * n * 4);
	if (s < 2)
		return 1;
	const int64_t ks = rup(cdiv(kp, s), GK_TC_PAD_K);
	*k_per_split = ks;
	return cdiv(kp, ks);
}

struct panel_args {
	const gk_cuda_sgemm_args *p;
	int products;
	bool wgmma;
	int64_t kp;
	float *a_hi, *a_lo, *b_hi, *b_lo;
	int *a_exp, *b_exp; /* the exponents of all m rows and n columns (NULL: unscaled) */
	cudaMemPool_t pool;  /* the workspace pool (NULL: the default pool) */
};

/* One panel of C (rows i0.. of m_w, columns j0.. of n_w) on planes already
 * split: split-K choice, the main kernel, the reduction. */
gk_status run_panel(const panel_args &pa, int64_t i0, int64_t m_w, int64_t j0, int64_t n_w)
{
	static const char *fn = "gk_cuda_sgemm_tc";
	const gk_cuda_sgemm_args *p = pa.p;
	cudaStream_t stream = (cudaStream_t)p->stream;
	gk_tc_problem pr;
	pr.m = m_w; pr.n = n_w; pr.k = p->k;
	pr.mp = rup(m_w, GK_TC_PAD_MN); pr.np = rup(n_w, GK_TC_PAD_MN); pr.kp = pa.kp;
	pr.a_hi = pa.a_hi; pr.a_lo = pa.products == 3 ? pa.a_lo : NULL;
	pr.b_hi = pa.b_hi; pr.b_lo = pa.products == 3 ? pa.b_lo : NULL;
	pr.products = pa.products;
	pr.a_exp = pa.a_exp ? pa.a_exp + i0 : NULL;
	pr.b_exp = pa.b_exp ? pa.b_exp + j0 : NULL;
	pr.alpha = p->alpha; pr.beta = p->beta;
	pr.c = p->c + i0 * p->rs_c + j0; pr.rs_c = p->rs_c;
	pr.partial = NULL;
	pr.stream = stream;
	pr.sm_count = p->sm_count > 0 ? p->sm_count : 1;
	pr.splits = (int)choose_splits(m_w, n_w, pr.mp, pr.np, pr.kp, pr.sm_count, &pr.k_per_split);
	if (pr.splits > 1 && !try_alloc((void **)&pr.partial, (int64_t)pr.splits * m_w * n_w * 4, pa.pool, stream)) {
		pr.splits = 1; /* no room: unsplit */
		pr.k_per_split = pr.kp;
	}

	gk_status st = GK_ERR_UNSUPPORTED;
	if (pa.wgmma)
		st = gk_tc_run_wgmma_sm90a(&pr);
	if (st == GK_ERR_UNSUPPORTED)
		st = gk_tc_run_mma(&pr);
	if (st == GK_OK && pr.splits > 1)
		st = gk_sgemm_splitk_reduce(pr.partial, pr.splits, m_w, n_w, p->alpha, p->beta, pr.c, p->rs_c,
		                            stream);
	if (pr.partial) {
		cudaError_t e = cudaFreeAsync(pr.partial, stream);
		if (st == GK_OK && e != cudaSuccess)
			st = gk_cuda_status(e, fn, "cudaFreeAsync(partial, stream)");
	}
	return st;
}

gk_status sgemm_tc(const gk_cuda_sgemm_args *p, int products)
{
	const char *fn = products == 3 ? "gk_cuda_sgemm_3xtf32" : "gk_cuda_sgemm_tf32";
	cudaStream_t stream = (cudaStream_t)p->stream;
	const int64_t m = p->m, n = p->n, k = p->k;
	int major = 0, minor = 0;
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, p->device));
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, p->device));
	if (major < 8)
		return gk_set_error(GK_ERR_UNSUPPORTED, "%s: TF32 tensor cores need compute capability 8.0 (device %d is %d.%d)",
		                    fn, p->device, major, minor);

	if (!tc_always() && !tc_pays(m, n, k))
		return gk_cuda_sgemm_tuned(p); /* FFMA: within this mode's bound, faster here */

	panel_args pa;
	pa.p = p;
	pa.pool = workspace_pool(p->device);
	pa.products = products;
	pa.wgmma = major == 9 && minor == 0;
	pa.kp = rup(k, GK_TC_PAD_K);
	const int planes = products == 3 ? 2 : 1;

	/* Scaling: after the planes, rmax_a[mr], rmax_b[nr], gmax[4] (zeroed),
	 * then a_exp[mr], b_exp[nr]. */
	const int64_t mr = rup(m, GK_TC_PAD_MN), nr = rup(n, GK_TC_PAD_MN);
	const int64_t scale_ints = 2 * (mr + nr) + 4;

	/* Panel rows of A (pm) and columns of B (pn), halved until the planes fit. */
	int64_t pm = mr, pn = nr;
	float *ws = NULL;
	for (;;) {
		const int64_t bytes = ((pm + pn) * pa.kp * planes + scale_ints) * (int64_t)sizeof(float);
		if (try_alloc((void **)&ws, bytes, pa.pool, stream))
			break;
		if (pm <= GK_TC_PAD_MN && pn <= GK_TC_PAD_MN)
			return gk_set_error(GK_ERR_NO_MEMORY, "%s: no room for %lld bytes of TF32 planes", fn,
			                    (long long)bytes);
		if (pm >= pn)
			pm = rup(pm / 2, GK_TC_PAD_MN);
		else
			pn = rup(pn / 2, GK_TC_PAD_MN);
	}
	pa.a_hi = ws;
	pa.a_lo = products == 3 ? pa.a_hi + pm * pa.kp : NULL;
	pa.b_hi = pa.a_hi + planes * pm * pa.kp;
	pa.b_lo = products == 3 ? pa.b_hi + pn * pa.kp : NULL;
	unsigned *rmax_a = reinterpret_cast<unsigned *>(pa.b_hi + planes * pn * pa.kp);
	unsigned *rmax_b = rmax_a + mr, *gmax = rmax_b + nr;
	pa.a_exp = reinterpret_cast<int *>(gmax + 4);
	pa.b_exp = pa.a_exp + mr;
	/* 119 - ceil(log2(4 K)): a scaled row times any column stays below 2^120. */
	int lk = 2;
	while (lk < 64 && ((int64_t)1 << (lk - 2)) < k)
		++lk;
	const int budget = 119 - lk;

	gk_status st = GK_OK;
	cudaError_t e = cudaMemsetAsync(rmax_a, 0, (size_t)(mr + nr + 4) * sizeof(unsigned), stream);
	if (e != cudaSuccess)
		st = gk_cuda_status(e, fn, "cudaMemsetAsync(maxima)");
	if (st == GK_OK)
		st = gk_tc_absmax(p->a, m, p->rs_a, p->cs_a, p->b, n, p->cs_b, p->rs_b, k, rmax_a, rmax_b, gmax, stream);
	const bool a_once = pm >= m;
	for (int64_t j0 = 0; j0 < n && st == GK_OK; j0 += pn) {
		const int64_t n_w = n - j0 < pn ? n - j0 : pn;
		/* B's columns j0.. as rows of a plane: row j, K kk at b[kk rs_b + j cs_b]. */
		st = gk_tc_split_scaled(p->b + j0 * p->cs_b, n_w, k, p->cs_b, p->rs_b, pa.b_hi, pa.b_lo,
		                        rup(n_w, GK_TC_PAD_MN), pa.kp, rmax_b + j0, gmax, budget, pa.b_exp + j0,
		                        stream);
		for (int64_t i0 = 0; i0 < m && st == GK_OK; i0 += pm) {
			const int64_t m_w = m - i0 < pm ? m - i0 : pm;
			if (!a_once || j0 == 0)
				st = gk_tc_split_scaled(p->a + i0 * p->rs_a, m_w, k, p->rs_a, p->cs_a, pa.a_hi, pa.a_lo,
				                        rup(m_w, GK_TC_PAD_MN), pa.kp, rmax_a + i0, gmax + 1, budget,
				                        pa.a_exp + i0, stream);
			if (st == GK_OK)
				st = run_panel(pa, i0, m_w, j0, n_w);
		}
	}
	e = cudaFreeAsync(ws, stream);
	if (st == GK_OK && e != cudaSuccess)
		st = gk_cuda_status(e, fn, "cudaFreeAsync(planes, stream)");
	return st;
}

} /* namespace */

void gk_tc_set_workspace_limit(int64_t bytes)
{
	g_ws_limit = bytes;
}

gk_status gk_cuda_sgemm_3xtf32(const gk_cuda_sgemm_args *p)
{
	return sgemm_tc(p, 3);
}

gk_status gk_cuda_sgemm_tf32(const gk_cuda_sgemm_args *p)
{
	return sgemm_tc(p, 1);
}

#ifndef GK_TC_HAVE_WGMMA
/* Until the sm_90a kernel is built (GK_TC_HAVE_WGMMA): the mma.sync kernel
 * runs everywhere. */
gk_status gk_tc_run_wgmma_sm90a(const gk_tc_problem *)
{
	return GK_ERR_UNSUPPORTED;
}
#endif
