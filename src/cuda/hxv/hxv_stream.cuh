/*
 * hxv_stream.cuh - the production horizontal x vertical kernel (cuda.hxv):
 * C = alpha E F + beta C, E m x k, F k x n, for m, n tiny and k huge, read
 * in one pass for a whole output tile of MT x NT elements.
 *
 * Stage 1 (hxv_stream_part): a fixed grid of G blocks of 256 threads; thread
 * t takes k = t, t + 256 G, ... (coalesced along k for E row-major and
 * column-major alike, and for F's rows or columns), U steps of loads in
 * flight, and keeps MT x NT sums in registers. The block adds its threads'
 * sums in a fixed order (xor-shuffle tree in each warp, then the 8 warps in
 * order) and writes them to part[block][MT * NT]: no atomics.
 * Stage 2 (hxv_stream_sum): one block per output element adds the G
 * partial sums in a fixed order, and writes alpha S + beta C (C not read
 * when beta = 0), or, for the host driver's chunks of k, keeps S in an
 * accumulator (acc = S on the first chunk, acc += S after).
 *
 * Guarantees: the same bits on every run of the same problem on the same
 * device (G depends only on k and the device); 64-bit indices everywhere;
 * any strides. Preconditions: m <= MT, n <= NT for one launch (the
 * launcher tiles larger results), k >= 1.
 */
#ifndef GK_HXV_STREAM_CUH
#define GK_HXV_STREAM_CUH

#include "hxv_common.cuh"

#define HXV_THREADS 256
#define HXV_WARPS (HXV_THREADS / 32)

/* One step of k, straight from memory: acc += E(:, kk) F(kk, :) over the
 * tile's m x n (the rest of the MT x NT registers stay zero). */
template <typename T, int MT, int NT>
__device__ __forceinline__ void hxv_fma_one(const hxv_prob<T> &p, const T *e, const T *f, int64_t kk,
                                            int m, int n, T (&acc)[MT][NT])
{
	T ev[MT], fv[NT];
#pragma unroll
	for (int i = 0; i < MT; i++)
		ev[i] = i < m ? __ldg(e + i * p.rs_e + kk * p.cs_e) : T(0);
#pragma unroll
	for (int j = 0; j < NT; j++)
		fv[j] = j < n ? __ldg(f + kk * p.rs_f + j * p.cs_f) : T(0);
#pragma unroll
	for (int i = 0; i < MT; i++)
#pragma unroll
		for (int j = 0; j < NT; j++)
			acc[i][j] = fma(ev[i], fv[j], acc[i][j]);
}

/* The block's sums in a fixed order (an xor tree in each warp, then the NW
 * warps in order) into out[MT * NT] (the m x n entries only): the same
 * bits on every run. red: shared scratch of NW x MT * NT. */
template <typename T, int MT, int NT, int NW>
__device__ __forceinline__ void hxv_block_sums(const T (&acc)[MT][NT], int m, int n, T (*red)[MT * NT],
                                               T *__restrict__ out)
{
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
	for (int i = 0; i < MT; i++)
#pragma unroll
		for (int j = 0; j < NT; j++) {
			if (i >= m || j >= n)
				continue;
			T v = acc[i][j];
#pragma unroll
			for (int off = 16; off > 0; off >>= 1)
				v += __shfl_xor_sync(0xffffffffu, v, off);
			if (lane == 0)
				red[warp][i * NT + j] = v;
		}
	__syncthreads();
	for (int o = threadIdx.x; o < MT * NT; o += NW * 32) {
		if (o / NT >= m || o % NT >= n)
			continue;
		T s = T(0);
#pragma unroll
		for (int w = 0; w < NW; w++)
			s += red[w][o];
		out[o] = s;
	}
}

template <typename T, int MT, int NT, int U>
__global__ void __launch_bounds__(HXV_THREADS, (MT * NT * (int)sizeof(T) <= 256) ? 2 : 1)
hxv_stream_part(hxv_prob<T> p, T *__restrict__ part)
{
	__shared__ T red[HXV_WARPS][MT * NT];
	const int64_t nthr = (int64_t)gridDim.x * HXV_THREADS;
	const int64_t m = p.m, n = p.n, k = p.k;
	const T *__restrict__ e = p.e;
	const T *__restrict__ f = p.f;
	T acc[MT][NT];
#pragma unroll
	for (int i = 0; i < MT; i++)
#pragma unroll
		for (int j = 0; j < NT; j++)
			acc[i][j] = T(0);
	int64_t kk = (int64_t)blockIdx.x * HXV_THREADS + threadIdx.x;
	for (; kk + (U - 1) * nthr < k; kk += U * nthr) {
		T ev[U][MT], fv[U][NT];
#pragma unroll
		for (int u = 0; u < U; u++) {
			const int64_t q = kk + u * nthr;
#pragma unroll
			for (int i = 0; i < MT; i++)
				ev[u][i] = i < m ? __ldg(e + i * p.rs_e + q * p.cs_e) : T(0);
#pragma unroll
			for (int j = 0; j < NT; j++)
				fv[u][j] = j < n ? __ldg(f + q * p.rs_f + j * p.cs_f) : T(0);
		}
#pragma unroll
		for (int u = 0; u < U; u++)
#pragma unroll
			for (int i = 0; i < MT; i++)
#pragma unroll
				for (int j = 0; j < NT; j++)
					acc[i][j] = fma(ev[u][i], fv[u][j], acc[i][j]);
	}
	for (; kk < k; kk += nthr)
		hxv_fma_one<T, MT, NT>(p, e, f, kk, m, n, acc);
	hxv_block_sums<T, MT, NT, HXV_WARPS>(acc, m, n, red, part + (int64_t)blockIdx.x * (MT * NT));
}

/* mode 0: C = alpha S + beta C; mode 1: acc = S; mode 2: acc += S.
 * One block of 128 threads per output (i, j) of the tile (blockIdx.x = i n + j). */
template <typename T>
__global__ void __launch_bounds__(128)
hxv_stream_sum(const T *__restrict__ part, int nblk, int mnt, int nt_stride, int64_t n, T alpha,
               T beta, T *__restrict__ c, int64_t rs_c, T *__restrict__ acc, int64_t ld_acc, int mode)
{
	__shared__ T w4[4];
	const int64_t i = blockIdx.x / n, j = blockIdx.x % n;
	const int o = (int)(i * nt_stride + j);
	T s = T(0);
	for (int b = threadIdx.x; b < nblk; b += 128)
		s += part[(int64_t)b * mnt + o];
#pragma unroll
	for (int off = 16; off > 0; off >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, off);
	if ((threadIdx.x & 31) == 0)
		w4[threadIdx.x >> 5] = s;
	__syncthreads();
	if (threadIdx.x != 0)
		return;
	s = (w4[0] + w4[1]) + (w4[2] + w4[3]);
	if (mode == 0) {
		const T v = alpha * s;
		T *cp = c + i * rs_c + j;
		*cp = (beta == T(0)) ? v : v + beta * *cp;
	} else if (mode == 1) {
		acc[i * ld_acc + j] = s;
	} else {
		acc[i * ld_acc + j] += s;
	}
}

/* The shapes of output tile that the launcher can take. */
typedef struct hxv_tile_shape {
	int mt, nt;
} hxv_tile_shape;

/* Launch one tile (m <= MT, n <= NT) on the grid of `grid` blocks.
 * part holds grid * MT * NT elements. */
typedef gk_status (*hxv_tile_fn_f)(const char *fn, const hxv_prob<float> &p, int grid, float *part,
                                   float *acc, int64_t ld_acc, int mode);
typedef gk_status (*hxv_tile_fn_d)(const char *fn, const hxv_prob<double> &p, int grid,
                                   double *part, double *acc, int64_t ld_acc, int mode);

template <typename T, int MT, int NT, int U>
static gk_status hxv_tile_run(const char *fn, const hxv_prob<T> &p, int grid, T *part, T *acc,
                              int64_t ld_acc, int mode)
{
	hxv_stream_part<T, MT, NT, U><<<grid, HXV_THREADS, 0, p.stream>>>(p, part);
	GK_CUDA_LAUNCHED(fn);
	hxv_stream_sum<T><<<(unsigned)(p.m * p.n), 128, 0, p.stream>>>(
		part, grid, MT * NT, NT, p.n, p.alpha, p.beta, p.c, p.rs_c, acc, ld_acc, mode);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

template <typename T, int MT, int NT, int U>
static gk_status hxv_tile_grid(const char *fn, int sm_count, int64_t k, int *grid)
{
	int per_sm = 1;
	GK_FORWARD(hxv_occupancy(fn, hxv_stream_part<T, MT, NT, U>, HXV_THREADS, &per_sm));
	int64_t g = (int64_t)per_sm * sm_count;
	/* At least 4 U steps per thread before the grid grows. */
	const int64_t want = (k + (int64_t)HXV_THREADS * U * 4 - 1) / ((int64_t)HXV_THREADS * U * 4);
	if (want < g)
		g = want;
	*grid = g < 1 ? 1 : (int)g;
	return GK_OK;
}

struct hxv_pipe_form; /* hxv_pipe.cuh */

/* The tile table of one type: shape, launcher, grid of a given k; and the
 * same for the cp.async pipe (hxv_pipe.cuh) where the operands allow it. */
template <typename T>
struct hxv_kind {
	int mt, nt;
	gk_status (*run)(const char *, const hxv_prob<T> &, int, T *, T *, int64_t, int);
	gk_status (*grid)(const char *, int, int64_t, int *);
	gk_status (*pgrid)(const char *, const hxv_prob<T> &, const hxv_pipe_form &, int *);
	gk_status (*prun)(const char *, const hxv_prob<T> &, const hxv_pipe_form &, int, T *, T *,
	                  int64_t, int);
};

/* Pick the tile of the table that reads the fewest rows of E and columns of
 * F in all (E's m rows once per column tile, F's n columns once per row
 * tile), then the fewest tiles, then the fewest sums. */
template <typename T>
static int hxv_pick(const hxv_kind<T> *tab, int count, int64_t m, int64_t n)
{
	int best = 0;
	double bc = 0;
	for (int t = 0; t < count; t++) {
		const double pm = (double)((m + tab[t].mt - 1) / tab[t].mt);
		const double pn = (double)((n + tab[t].nt - 1) / tab[t].nt);
		const double cost = pn * m + pm * n + 1e-3 * pm * pn + 1e-6 * tab[t].mt * tab[t].nt;
		if (t == 0 || cost < bc) {
			best = t;
			bc = cost;
		}
	}
	return best;
}

#endif
