/*
 * hxv_pipe.cuh - stage 1 of cuda.hxv on operands whose runs along k are
 * 16-byte aligned: k is cut into chunks of KC elements; each of G blocks
 * (G = the blocks resident on the device) takes chunks b, b + G, b + 2G, ...
 * and copies each chunk's m runs of E and n runs of F (or its one
 * contiguous span) into shared memory with 16-byte cp.async copies,
 * HXV_PIPE_STAGES chunks deep, so that the bytes in flight do not depend on
 * registers; the threads then take the chunk's k from shared memory and keep
 * MT x NT sums in registers. The k after the last whole chunk is read
 * directly from global memory by all threads (grid-stride). The block sums
 * its threads in a fixed order and writes part[block][MT * NT]; stage 2 is
 * hxv_stream_sum (hxv_stream.cuh). No atomics: the same bits on every run
 * of a problem on a device (G and KC depend only on the shape and device).
 *
 * Operand forms (hxv_pipe_form): E "rows" (cs_e = 1, rows rs_e apart,
 * rs_e a multiple of 16 bytes when m > 1) or "span" (rs_e = 1, cs_e = m:
 * column-major, dense); F "cols" (rs_f = 1, columns cs_f apart) or "span"
 * (cs_f = 1, rs_f = n: row-major, dense); the base pointers 16-byte aligned.
 * Anything else takes the general kernel (hxv_stream_part).
 * Preconditions: m <= MT, n <= NT, k >= 1; 64-bit indices.
 */
#ifndef GK_HXV_PIPE_CUH
#define GK_HXV_PIPE_CUH

#include "hxv_stream.cuh"

/* Threads of a block: 256, or 128 where the sums take more than 256 bytes
 * a thread (so that 2 or 3 blocks share an SM and one block's wait for its
 * oldest chunk overlaps another's compute). */
#define HXV_PIPE_TH(T, MT, NT) ((MT) * (NT) * (int)sizeof(T) <= 256 ? 256 : 128)
#define HXV_PIPE_STAGES 4
#define HXV_PIPE_STAGE_BYTES 16384 /* aim of one chunk's bytes (E and F) */

static __device__ __forceinline__ void hxv_cp16(void *dst, const void *src)
{
	const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
}
static __device__ __forceinline__ void hxv_cp_commit()
{
	asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N>
static __device__ __forceinline__ void hxv_cp_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* The form of a launch: chunk length and the two operands' shapes in shared
 * memory. E's chunk is m x KC (rows) or KC x m (span); F's is n x KC
 * (cols) or KC x n (span). */
struct hxv_pipe_form {
	int kc_log;   /* KC = 1 << kc_log, KC >= 256 */
	int e_rows;   /* 1: E rows along k, 0: E one span */
	int f_cols;   /* 1: F columns along k, 0: F one span */
};

template <typename T, int MT, int NT>
__global__ void __launch_bounds__(HXV_PIPE_TH(T, MT, NT), 2)
hxv_pipe_part(hxv_prob<T> p, hxv_pipe_form fm, int64_t nchunk, T *__restrict__ part)
{
	constexpr int HXV_PIPE_THREADS = HXV_PIPE_TH(T, MT, NT);
	constexpr int NW = HXV_PIPE_THREADS / 32;
	extern __shared__ __align__(16) unsigned char hxv_pipe_smem[];
	__shared__ T red[NW][MT * NT];
	T *sm = reinterpret_cast<T *>(hxv_pipe_smem);
	const int m = (int)p.m, n = (int)p.n;
	const int kc = 1 << fm.kc_log;
	const int vec = 16 / (int)sizeof(T);
	const int upr_log = fm.kc_log - (sizeof(T) == 8 ? 1 : 2); /* 16-byte units per run */
	const int upr = 1 << upr_log;
	const int eu = m * upr, tu = (m + n) * upr;
	const int64_t stage = (int64_t)kc * (m + n);
	const T *__restrict__ e = p.e;
	const T *__restrict__ f = p.f;
	const int64_t G = gridDim.x, b = blockIdx.x;
	const int64_t mine = b < nchunk ? (nchunk - 1 - b) / G + 1 : 0;

	/* Chunk number c (global) into stage s. */
	auto issue = [&](int64_t c, int s) {
		T *dst = sm + s * stage;
		const int64_t k0 = c << fm.kc_log;
		for (int u = threadIdx.x; u < tu; u += HXV_PIPE_THREADS) {
			const T *src;
			if (u < eu) {
				if (fm.e_rows) {
					const int r = u >> upr_log, o = u & (upr - 1);
					src = e + r * p.rs_e + k0 + (int64_t)o * vec;
				} else {
					src = e + k0 * m + (int64_t)u * vec;
				}
			} else {
				const int v = u - eu;
				if (fm.f_cols) {
					const int r = v >> upr_log, o = v & (upr - 1);
					src = f + r * p.cs_f + k0 + (int64_t)o * vec;
				} else {
					src = f + k0 * n + (int64_t)v * vec;
				}
			}
			hxv_cp16(dst + (int64_t)u * vec, src);
		}
	};

	T acc[MT][NT];
#pragma unroll
	for (int i = 0; i < MT; i++)
#pragma unroll
		for (int j = 0; j < NT; j++)
			acc[i][j] = T(0);

	/* Element strides in shared memory: E[i][kk] at i esi + kk esk. */
	const int esi = fm.e_rows ? kc : 1, esk = fm.e_rows ? 1 : m;
	const int fsj = fm.f_cols ? kc : 1, fsk = fm.f_cols ? 1 : n;

#pragma unroll
	for (int s = 0; s < HXV_PIPE_STAGES - 1; s++) {
		if (s < mine)
			issue(b + s * G, s);
		hxv_cp_commit();
	}
	for (int64_t it = 0; it < mine; it++) {
		hxv_cp_wait<HXV_PIPE_STAGES - 2>();
		__syncthreads();
		const int64_t nx = it + HXV_PIPE_STAGES - 1;
		if (nx < mine)
			issue(b + nx * G, (int)(nx % HXV_PIPE_STAGES));
		hxv_cp_commit();
		const T *es = sm + (it % HXV_PIPE_STAGES) * stage;
		const T *fs = es + (int64_t)m * kc;
		for (int kk = threadIdx.x; kk < kc; kk += HXV_PIPE_THREADS) {
			T ev[MT], fv[NT];
			const T *ep = es + kk * esk, *fp = fs + kk * fsk;
#pragma unroll
			for (int i = 0; i < MT; i++)
				ev[i] = i < m ? ep[i * esi] : T(0);
#pragma unroll
			for (int j = 0; j < NT; j++)
				fv[j] = j < n ? fp[j * fsj] : T(0);
#pragma unroll
			for (int i = 0; i < MT; i++)
#pragma unroll
				for (int j = 0; j < NT; j++)
					acc[i][j] = fma(ev[i], fv[j], acc[i][j]);
		}
	}
	hxv_cp_wait<0>();

	/* The k past the last whole chunk, read directly (general strides). */
	const int64_t k = p.k, nthr = G * HXV_PIPE_THREADS;
	for (int64_t kk = (nchunk << fm.kc_log) + b * HXV_PIPE_THREADS + threadIdx.x; kk < k; kk += nthr)
		hxv_fma_one<T, MT, NT>(p, e, f, kk, m, n, acc);

	/* The block's sums in a fixed order: xor tree in each warp, warps in order. */
	hxv_block_sums<T, MT, NT, NW>(acc, m, n, red, part + b * (MT * NT));
}

/* The form of p, or 0 when its operands do not allow the pipe. */
template <typename T>
static int hxv_pipe_form_of(const hxv_prob<T> &p, hxv_pipe_form *fm)
{
	const int64_t sz = (int64_t)sizeof(T);
	if (((uintptr_t)p.e & 15) != 0 || ((uintptr_t)p.f & 15) != 0)
		return 0;
	if (p.cs_e == 1 && (p.m == 1 || (p.rs_e * sz) % 16 == 0))
		fm->e_rows = 1;
	else if (p.rs_e == 1 && p.cs_e == p.m)
		fm->e_rows = 0;
	else
		return 0;
	if (p.rs_f == 1 && (p.n == 1 || (p.cs_f * sz) % 16 == 0))
		fm->f_cols = 1;
	else if (p.cs_f == 1 && p.rs_f == p.n)
		fm->f_cols = 0;
	else
		return 0;
	/* KC: a power of two, 256 .. 4096, one chunk about HXV_PIPE_STAGE_BYTES. */
	int lg = 8;
	while (lg < 12 && ((int64_t)2 << lg) * (p.m + p.n) * sz <= HXV_PIPE_STAGE_BYTES)
		lg++;
	fm->kc_log = lg;
	return 1;
}

template <typename T>
static inline size_t hxv_pipe_smem_bytes(const hxv_prob<T> &p, const hxv_pipe_form &fm)
{
	return (size_t)HXV_PIPE_STAGES * ((size_t)1 << fm.kc_log) * (size_t)(p.m + p.n) * sizeof(T);
}

/* The grid of the pipe on p: the blocks resident on the device, at most
 * one per whole chunk (at least 1). The occupancy is asked once per kernel,
 * device and shared-memory size (the last one kept), and the kernel's
 * shared-memory limit is only ever raised. */
template <typename T, int MT, int NT>
static gk_status hxv_pipe_grid(const char *fn, const hxv_prob<T> &p, const hxv_pipe_form &fm, int *grid)
{
	static std::mutex mu;
	static int set_smem[64], last_smem[64], last_per_sm[64];
	const int smem = (int)hxv_pipe_smem_bytes<T>(p, fm);
	int dev = 0, per_sm = 0;
	GK_CUDA_TRY(fn, cudaGetDevice(&dev));
	if (dev < 0 || dev >= 64)
		return gk_set_error(GK_ERR_INVALID_VALUE, "%s: device %d", fn, dev);
	{
		std::lock_guard<std::mutex> g(mu);
		if (set_smem[dev] < smem) {
			GK_CUDA_TRY(fn, cudaFuncSetAttribute(hxv_pipe_part<T, MT, NT>,
			                                     cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
			set_smem[dev] = smem;
		}
		if (last_smem[dev] == smem && last_per_sm[dev] > 0) {
			per_sm = last_per_sm[dev];
		} else {
			GK_CUDA_TRY(fn, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
				&per_sm, hxv_pipe_part<T, MT, NT>, HXV_PIPE_TH(T, MT, NT), (size_t)smem));
			if (per_sm < 1)
				per_sm = 1;
			last_smem[dev] = smem;
			last_per_sm[dev] = per_sm;
		}
	}
	int64_t g = (int64_t)per_sm * p.sm_count;
	const int64_t nchunk = p.k >> fm.kc_log;
	if (nchunk < g)
		g = nchunk;
	*grid = g < 1 ? 1 : (int)g;
	return GK_OK;
}

template <typename T, int MT, int NT>
static gk_status hxv_pipe_run(const char *fn, const hxv_prob<T> &p, const hxv_pipe_form &fm, int grid,
                              T *part, T *acc, int64_t ld_acc, int mode)
{
	const size_t smem = hxv_pipe_smem_bytes<T>(p, fm);
	hxv_pipe_part<T, MT, NT><<<grid, HXV_PIPE_TH(T, MT, NT), smem, p.stream>>>(p, fm, p.k >> fm.kc_log, part);
	GK_CUDA_LAUNCHED(fn);
	hxv_stream_sum<T><<<(unsigned)(p.m * p.n), 128, 0, p.stream>>>(
		part, grid, MT * NT, NT, p.n, p.alpha, p.beta, p.c, p.rs_c, acc, ld_acc, mode);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

#endif
