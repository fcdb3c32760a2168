/*
 * hxv_common.cuh - what the horizontal x vertical kernels share: the
 * problem in device form (E = A, m x k; F = B, k x n; C m x n row-major,
 * general strides, 64-bit indices), the finishing kernel C = alpha S + beta C
 * (C not read when beta = 0), and the tiling of a large m x n result into
 * output tiles that one launch keeps in registers.
 *
 * Preconditions of every kernel here: m, n, k >= 1; every index is int64_t
 * (k up to 2^63); pointers are device memory.
 */
#ifndef GK_HXV_COMMON_CUH
#define GK_HXV_COMMON_CUH

#include <mutex>
#include <string.h>
#include "../core/cuda_check.cuh"

/* One product in device form: C = alpha E F + beta C. */
template <typename T>
struct hxv_prob {
	int64_t m, n, k;
	T alpha, beta;
	const T *e; int64_t rs_e, cs_e;
	const T *f; int64_t rs_f, cs_f;
	T *c; int64_t rs_c;
	cudaStream_t stream;
	int device, sm_count;
};

template <typename T, typename Args>
static inline hxv_prob<T> hxv_from_args(const Args *p)
{
	hxv_prob<T> q;
	q.m = p->m; q.n = p->n; q.k = p->k;
	q.alpha = p->alpha; q.beta = p->beta;
	q.e = p->a; q.rs_e = p->rs_a; q.cs_e = p->cs_a;
	q.f = p->b; q.rs_f = p->rs_b; q.cs_f = p->cs_b;
	q.c = p->c; q.rs_c = p->rs_c;
	q.stream = (cudaStream_t)p->stream;
	q.device = p->device; q.sm_count = p->sm_count;
	return q;
}

/* The sub-problem of output rows [i0, i0 + mt), columns [j0, j0 + nt). */
template <typename T>
static inline hxv_prob<T> hxv_tile(const hxv_prob<T> &p, int64_t i0, int64_t j0, int64_t mt, int64_t nt)
{
	hxv_prob<T> q = p;
	q.m = mt; q.n = nt;
	q.e = p.e + i0 * p.rs_e;
	q.f = p.f + j0 * p.cs_f;
	q.c = p.c + i0 * p.rs_c + j0;
	return q;
}

/* C[i][j] = alpha * s[i * n + j] + beta * C[i][j]; beta == 0 writes without reading. */
template <typename T>
__global__ void hxv_finish(const T *__restrict__ s, int64_t m, int64_t n, T alpha, T beta,
                           T *__restrict__ c, int64_t rs_c)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= m * n)
		return;
	const int64_t i = t / n, j = t % n;
	const T v = alpha * s[t];
	c[i * rs_c + j] = (beta == T(0)) ? v : v + beta * c[i * rs_c + j];
}

template <typename T>
static gk_status hxv_finish_launch(const char *fn, const hxv_prob<T> &p, const T *s)
{
	const int64_t mn = p.m * p.n;
	const unsigned blocks = (unsigned)((mn + 255) / 256);
	hxv_finish<T><<<blocks, 256, 0, p.stream>>>(s, p.m, p.n, p.alpha, p.beta, p.c, p.rs_c);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

/* The memory pool of the HXV workspaces on the current device: one per
 * device for the process, keeping up to 64 MiB when idle, so that a call
 * does not map fresh memory after the default pool was trimmed at a
 * synchronization (tens of microseconds, as much as a small product's
 * whole read). */
inline gk_status hxv_pool(const char *fn, cudaMemPool_t *out)
{
	static std::mutex mu;
	static cudaMemPool_t pools[64];
	int dev = 0;
	GK_CUDA_TRY(fn, cudaGetDevice(&dev));
	if (dev < 0 || dev >= 64)
		return gk_set_error(GK_ERR_INVALID_VALUE, "%s: device %d", fn, dev);
	std::lock_guard<std::mutex> g(mu);
	if (pools[dev] == NULL) {
		cudaMemPoolProps pr;
		memset(&pr, 0, sizeof pr);
		pr.allocType = cudaMemAllocationTypePinned;
		pr.location.type = cudaMemLocationTypeDevice;
		pr.location.id = dev;
		cudaMemPool_t pool = NULL;
		GK_CUDA_TRY(fn, cudaMemPoolCreate(&pool, &pr));
		uint64_t keep = (uint64_t)64 << 20;
		GK_CUDA_TRY(fn, cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
		pools[dev] = pool;
	}
	*out = pools[dev];
	return GK_OK;
}

/* Workspace, stream-ordered, from hxv_pool; freed with cudaFreeAsync. */
template <typename T>
static gk_status hxv_alloc(const char *fn, T **ptr, size_t count, cudaStream_t s)
{
	cudaMemPool_t pool;
	GK_FORWARD(hxv_pool(fn, &pool));
	GK_CUDA_TRY(fn, cudaMallocFromPoolAsync((void **)ptr, count * sizeof(T), pool, s));
	return GK_OK;
}

/* Blocks of `threads` threads of kernel `kern` resident per SM. */
template <typename K>
static gk_status hxv_occupancy(const char *fn, K kern, int threads, int *per_sm)
{
	GK_CUDA_TRY(fn, cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, kern, threads, 0));
	if (*per_sm < 1)
		*per_sm = 1;
	return GK_OK;
}

#endif
