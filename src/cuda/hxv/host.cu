/*
 * host.cu - cuda.hxv on host pointers: C = alpha E F + beta C with E, F and
 * C in host memory. k is streamed in chunks: the CPU gathers chunk c of E
 * (its m rows, columns [k0, k1)) and of F (rows [k0, k1)) into one of two
 * pinned staging buffers while the copy engine sends the other and the GPU
 * runs the production kernel on the chunk before (two streams, events
 * between them), so the device holds two chunks whatever k is. Each chunk's
 * sums go into an m x n accumulator in chunk order (deterministic); then
 * C = alpha acc + beta C on the device, and C comes back. Synchronous.
 *
 * Layouts: the chunk keeps the source's strides along its long side: for
 * E with cs = 1 each of the m rows is one copy of k1 - k0 elements, else
 * (rs = 1) the chunk is one span of whole columns; likewise for F.
 */
#include <string.h>
#include "hxv_stream_run.cuh"

#define HXV_CHUNK_BYTES ((size_t)64 << 20) /* E and F of one chunk, each staging buffer */

/* The staged image of one operand's chunk: `lines` lines of `len` elements,
 * line r at src + r * pitch, packed densely. */
template <typename T>
static void gather(T *dst, const T *src, int64_t lines, int64_t len, int64_t pitch)
{
	if (lines == 1 || pitch == len) {
		memcpy(dst, src, (size_t)(lines * len) * sizeof(T));
		return;
	}
	for (int64_t r = 0; r < lines; r++)
		memcpy(dst + r * len, src + r * pitch, (size_t)len * sizeof(T));
}

template <typename T>
static gk_status hxv_host(const char *fn, int device, void *stream_v, int64_t m, int64_t n,
                          int64_t k, T alpha, const T *a, int64_t rs_a, int64_t cs_a, const T *b,
                          int64_t rs_b, int64_t cs_b, T beta, T *c, int64_t rs_c)
{
	int prev = 0, dev = device;
	GK_CUDA_TRY(fn, cudaGetDevice(&prev));
	if (dev < 0)
		dev = prev;
	GK_CUDA_TRY(fn, cudaSetDevice(dev));
	int sm_count = 1;
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev));
	cudaStream_t cs = (cudaStream_t)stream_v, xs = NULL;
	T *stage[2] = {NULL, NULL}, *dbuf[2] = {NULL, NULL}, *acc = NULL, *dc = NULL, *part = NULL;
	cudaEvent_t sent[2] = {NULL, NULL}, used[2] = {NULL, NULL};
	size_t part_count = 0;
	gk_status st = GK_OK;
	cudaError_t e = cudaSuccess;
	/* Elements of k per chunk: E's m and F's n of each fit the chunk bytes. */
	int64_t kc = (int64_t)(HXV_CHUNK_BYTES / sizeof(T)) / (m + n);
	if (kc < 1)
		kc = 1;
	if (kc > k)
		kc = k;
	/* The device image of a chunk: E as m x kc (row-major) or kc columns of
	 * pitch cs_a, F as kc x n rows of pitch rs_b or n columns of kc. */
	const int e_rows = (cs_a == 1 && m > 1);        /* rows along k */
	const int f_cols = (rs_b == 1 && n > 1);        /* columns along k */
	const int64_t e_len = e_rows ? m * kc : (kc - 1) * cs_a + m;
	const int64_t f_len = f_cols ? n * kc : (kc - 1) * rs_b + n;
	const size_t chunk = (size_t)(e_len + f_len);
#define HXV_TRY(call) do { if (st == GK_OK) { e = (call); if (e != cudaSuccess) st = gk_cuda_status(e, fn, #call); } } while (0)
	HXV_TRY(cudaStreamCreateWithFlags(&xs, cudaStreamNonBlocking));
	for (int i = 0; i < 2; i++) {
		HXV_TRY(cudaHostAlloc((void **)&stage[i], chunk * sizeof(T), cudaHostAllocDefault));
		HXV_TRY(cudaMalloc((void **)&dbuf[i], chunk * sizeof(T)));
		HXV_TRY(cudaEventCreateWithFlags(&sent[i], cudaEventDisableTiming));
		HXV_TRY(cudaEventCreateWithFlags(&used[i], cudaEventDisableTiming));
	}
	HXV_TRY(cudaMalloc((void **)&acc, (size_t)(m * n) * sizeof(T)));
	HXV_TRY(cudaMalloc((void **)&dc, (size_t)(m * n) * sizeof(T)));
	int64_t chunk_no = 0;
	for (int64_t k0 = 0; st == GK_OK && k0 < k; k0 += kc, chunk_no++) {
		const int64_t kn = k - k0 < kc ? k - k0 : kc;
		const int s = (int)(chunk_no & 1);
		/* The buffer's previous chunk must be sent and computed. */
		HXV_TRY(cudaEventSynchronize(used[s]));
		T *h = stage[s];
		int64_t ne, nf;
		if (e_rows) {
			gather<T>(h, a + k0, m, kn, rs_a);
			ne = m * kn;
		} else {
			ne = (kn - 1) * cs_a + m;
			memcpy(h, a + k0 * cs_a, (size_t)ne * sizeof(T));
		}
		if (f_cols) {
			gather<T>(h + ne, b + k0, n, kn, cs_b);
			nf = n * kn;
		} else {
			nf = (kn - 1) * rs_b + n;
			memcpy(h + ne, b + k0 * rs_b, (size_t)nf * sizeof(T));
		}
		HXV_TRY(cudaMemcpyAsync(dbuf[s], h, (size_t)(ne + nf) * sizeof(T), cudaMemcpyHostToDevice, xs));
		HXV_TRY(cudaEventRecord(sent[s], xs));
		HXV_TRY(cudaStreamWaitEvent(cs, sent[s], 0));
		hxv_prob<T> q;
		q.m = m; q.n = n; q.k = kn;
		q.alpha = T(1); q.beta = T(0);
		q.e = dbuf[s];
		q.rs_e = e_rows ? kn : 1;
		q.cs_e = e_rows ? 1 : cs_a;
		q.f = dbuf[s] + ne;
		q.rs_f = f_cols ? 1 : rs_b;
		q.cs_f = f_cols ? kn : 1;
		q.c = NULL; q.rs_c = 0;
		q.stream = cs; q.device = dev; q.sm_count = sm_count;
		if (st == GK_OK)
			st = hxv_stream_run<T>(fn, q, acc, n, chunk_no == 0 ? 1 : 2, &part, &part_count);
		HXV_TRY(cudaEventRecord(used[s], cs));
	}
	/* C = alpha acc + beta C. */
	if (beta != T(0))
		for (int64_t i = 0; st == GK_OK && i < m; i++)
			HXV_TRY(cudaMemcpyAsync(dc + i * n, c + i * rs_c, (size_t)n * sizeof(T), cudaMemcpyHostToDevice, cs));
	if (st == GK_OK) {
		hxv_prob<T> q;
		memset(&q, 0, sizeof q);
		q.m = m; q.n = n; q.alpha = alpha; q.beta = beta; q.c = dc; q.rs_c = n; q.stream = cs;
		st = hxv_finish_launch<T>(fn, q, acc);
	}
	for (int64_t i = 0; st == GK_OK && i < m; i++)
		HXV_TRY(cudaMemcpyAsync(c + i * rs_c, dc + i * n, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost, cs));
	HXV_TRY(cudaStreamSynchronize(cs));
	/* Release everything (after the work is done or failed). */
	cudaStreamSynchronize(cs);
	if (xs != NULL)
		cudaStreamSynchronize(xs);
	if (part != NULL)
		cudaFree(part);
	for (int i = 0; i < 2; i++) {
		if (stage[i]) cudaFreeHost(stage[i]);
		if (dbuf[i]) cudaFree(dbuf[i]);
		if (sent[i]) cudaEventDestroy(sent[i]);
		if (used[i]) cudaEventDestroy(used[i]);
	}
	if (acc) cudaFree(acc);
	if (dc) cudaFree(dc);
	if (xs) cudaStreamDestroy(xs);
	cudaSetDevice(prev);
#undef HXV_TRY
	return st;
}

extern "C" gk_status gk_cuda_sgemm_hxv_host(int device, void *stream, int64_t m, int64_t n, int64_t k,
                                            float alpha, const float *a, int64_t rs_a, int64_t cs_a,
                                            const float *b, int64_t rs_b, int64_t cs_b, float beta,
                                            float *c, int64_t rs_c)
{
	return hxv_host<float>("cuda.hxv (host)", device, stream, m, n, k, alpha, a, rs_a, cs_a, b,
	                       rs_b, cs_b, beta, c, rs_c);
}

extern "C" gk_status gk_cuda_dgemm_hxv_host(int device, void *stream, int64_t m, int64_t n, int64_t k,
                                            double alpha, const double *a, int64_t rs_a, int64_t cs_a,
                                            const double *b, int64_t rs_b, int64_t cs_b, double beta,
                                            double *c, int64_t rs_c)
{
	return hxv_host<double>("cuda.hxv (host)", device, stream, m, n, k, alpha, a, rs_a, cs_a, b,
	                        rs_b, cs_b, beta, c, rs_c);
}
