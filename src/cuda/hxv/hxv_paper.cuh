/*
 * hxv_paper.cuh - the kernel of seed 003's two algorithms, BasicMM and
 * PHVM (basic.cu, phvm.cu), one template: GS blocks of BS threads; thread
 * T_i multiplies and adds its share of k into registers (L4), the block
 * adds its threads' sums in a shared-memory tree of log2 BS steps (L5), and
 * thread 0 adds the block's sum into the result with an atomic add (L6).
 *   COAL = false (BasicMM): T_i takes the contiguous segment
 *     [i L, (i + 1) L) of k, L = ceil(k / (GS BS)): the lanes of a warp read
 *     addresses L elements apart (uncoalesced).
 *   COAL = true (PHVM, L4-hat): T_i takes k = i, i + GS BS, i + 2 GS BS, ...:
 *     the lanes of a warp read consecutive elements (coalesced).
 * The seed's Algorithm 1 runs its i and j loops in parallel over the one
 * pass of the data; here one launch computes an output tile of PT x PT
 * elements from the same loads (E's rows and F's columns are read once per
 * tile, not once per element), every element with the seed's dot product.
 * PT is 4, 8 or 12: the smallest that covers m and n, so that the shapes
 * the seed is about (m, n <= 12) take one pass over E and F. A PT x PT
 * tile keeps PT^2 sums per thread, which caps the block size (1024 threads
 * for PT = 4, 512 for 8, 256 for 12; half for double above 4); a block
 * size above the cap takes the
 * largest tile it allows, in several passes. The atomic adds make the
 * result's last bits depend on the order in which blocks finish (not
 * deterministic).
 *
 * Operands: any strides (hxv_prob), 64-bit indices; BS a power of two,
 * 32..1024; the sums go into s (m x n, row stride ld_s), zeroed by the
 * launcher, and hxv_finish applies alpha and beta.
 */
#ifndef GK_HXV_PAPER_CUH
#define GK_HXV_PAPER_CUH

#include "hxv_common.cuh"
#include "../../model/hxv_model.h"

/* The largest block of a PT x PT tile of elements of SZ bytes (its sums
 * stay in registers). */
#define HXV_PT_MAX_BS(PT, SZ) (((PT) <= 4 ? 1024 : (PT) <= 8 ? 512 : 256) / ((SZ) == 8 && (PT) > 4 ? 2 : 1))

template <typename T, bool COAL, int HXV_PT>
__global__ void __launch_bounds__(HXV_PT_MAX_BS(HXV_PT, sizeof(T))) hxv_paper_kernel(hxv_prob<T> p, T *__restrict__ s, int64_t ld_s)
{
	extern __shared__ unsigned char hxv_smem[];
	T *sh = reinterpret_cast<T *>(hxv_smem);
	const int64_t nthr = (int64_t)gridDim.x * blockDim.x;
	const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t m = p.m, n = p.n, k = p.k;
	T acc[HXV_PT][HXV_PT];
#pragma unroll
	for (int i = 0; i < HXV_PT; i++)
#pragma unroll
		for (int j = 0; j < HXV_PT; j++)
			acc[i][j] = T(0);
	int64_t k0, k1, step;
	if (COAL) {
		k0 = tid;
		k1 = k;
		step = nthr;
	} else {
		const int64_t len = (k + nthr - 1) / nthr;
		k0 = tid * len;
		k1 = k0 + len < k ? k0 + len : k;
		step = 1;
	}
	for (int64_t kk = k0; kk < k1; kk += step) {
		T ev[HXV_PT], fv[HXV_PT];
#pragma unroll
		for (int i = 0; i < HXV_PT; i++)
			ev[i] = i < m ? p.e[i * p.rs_e + kk * p.cs_e] : T(0);
#pragma unroll
		for (int j = 0; j < HXV_PT; j++)
			fv[j] = j < n ? p.f[kk * p.rs_f + j * p.cs_f] : T(0);
#pragma unroll
		for (int i = 0; i < HXV_PT; i++)
#pragma unroll
			for (int j = 0; j < HXV_PT; j++)
				acc[i][j] = fma(ev[i], fv[j], acc[i][j]);
	}
	/* L5 and L6, element by element (the condition is the same for the whole block). */
#pragma unroll
	for (int i = 0; i < HXV_PT; i++)
#pragma unroll
		for (int j = 0; j < HXV_PT; j++) {
			if (i >= m || j >= n)
				continue;
			sh[threadIdx.x] = acc[i][j];
			__syncthreads();
			for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
				if (threadIdx.x < h)
					sh[threadIdx.x] += sh[threadIdx.x + h];
				__syncthreads();
			}
			if (threadIdx.x == 0)
				atomicAdd(&s[i * ld_s + j], sh[0]);
			__syncthreads();
		}
}

/* The tile of a launch: the smallest PT covering m and n whose block cap
 * admits bs (bs = 0: any), else the largest PT that admits bs. */
static inline int hxv_paper_pt(int64_t m, int64_t n, int bs, int sz)
{
	const int64_t mn = m > n ? m : n;
	const int pts[3] = {4, 8, 12};
	int pt = 4;
	for (int t = 0; t < 3; t++) {
		if (bs > 0 && bs > HXV_PT_MAX_BS(pts[t], sz))
			break;
		pt = pts[t];
		if (pts[t] >= mn)
			break;
	}
	return pt;
}

template <typename T, bool COAL, int PT>
static gk_status hxv_paper_tiles(const char *fn, const hxv_prob<T> &p, int gs, int bs, T *s)
{
	for (int64_t i0 = 0; i0 < p.m; i0 += PT)
		for (int64_t j0 = 0; j0 < p.n; j0 += PT) {
			const int64_t mt = p.m - i0 < PT ? p.m - i0 : PT;
			const int64_t nt = p.n - j0 < PT ? p.n - j0 : PT;
			const hxv_prob<T> q = hxv_tile(p, i0, j0, mt, nt);
			hxv_paper_kernel<T, COAL, PT><<<gs, bs, bs * sizeof(T), p.stream>>>(q, s + i0 * p.n + j0, p.n);
			GK_CUDA_LAUNCHED(fn);
		}
	return GK_OK;
}

/* The launch of either algorithm at (gs, bs); gs = bs = 0 takes the model's
 * choice (gk_hxv_model_choose on the device's measured parameters, with the
 * threads per block capped at the tile's cap). */
template <typename T, bool COAL>
static gk_status hxv_paper_run(const char *fn, const hxv_prob<T> &p, int gs, int bs)
{
	int pt;
	if (gs <= 0 || bs <= 0) {
		gk_hxv_device d;
		pt = hxv_paper_pt(p.m, p.n, 0, (int)sizeof(T));
		int ok = gk_hxv_device_query(p.device, 0, &d) == GK_OK;
		const int cap = HXV_PT_MAX_BS(pt, sizeof(T));
		if (ok && d.max_threads_per_block > cap)
			d.max_threads_per_block = cap;
		if (!ok || gk_hxv_model_choose(&d, p.m, p.n, p.k, &gs, &bs) != 0) {
			bs = 256;
			gs = p.sm_count * 8;
		}
	}
	if (bs < 32 || bs > 1024 || (bs & (bs - 1)) != 0 || gs < 1)
		return gk_set_error(GK_ERR_INVALID_VALUE, "%s: block size %d must be a power of two in [32, 1024], grid size %d >= 1",
		                    fn, bs, gs);
	pt = hxv_paper_pt(p.m, p.n, bs, (int)sizeof(T));
	/* No more blocks than k has elements for (small k: idle blocks would
	 * only add their reductions). */
	if ((int64_t)gs * bs > p.k)
		gs = (int)((p.k + bs - 1) / bs);
	T *s = NULL;
	GK_FORWARD(hxv_alloc<T>(fn, &s, (size_t)(p.m * p.n), p.stream));
	gk_status st = GK_OK;
	cudaError_t e = cudaMemsetAsync(s, 0, (size_t)(p.m * p.n) * sizeof(T), p.stream);
	if (e != cudaSuccess)
		st = gk_cuda_status(e, fn, "cudaMemsetAsync");
	if (st == GK_OK)
		st = pt == 12 ? hxv_paper_tiles<T, COAL, 12>(fn, p, gs, bs, s)
		   : pt == 8 ? hxv_paper_tiles<T, COAL, 8>(fn, p, gs, bs, s)
		             : hxv_paper_tiles<T, COAL, 4>(fn, p, gs, bs, s);
	if (st == GK_OK)
		st = hxv_finish_launch<T>(fn, p, s);
	e = cudaFreeAsync(s, p.stream);
	if (st == GK_OK && e != cudaSuccess)
		st = gk_cuda_status(e, fn, "cudaFreeAsync");
	return st;
}

#endif
