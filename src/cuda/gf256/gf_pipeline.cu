/*
 * gf_pipeline.cu - the GF(2^8) product on host rows through the GPU: the
 * columns are cut into chunks, and chunk i's copies up, production kernel
 * (gf_prmt.cu) and copies down run on stream i % PIPE_SLOTS, so that the
 * copies up of one chunk, the kernel of another and the copies down of a
 * third overlap (the copy engines of the two directions and the SMs work at
 * once).
 *
 * Rows that are pinned host memory (cudaMallocHost, cudaHostRegister) or
 * device memory are copied directly by DMA. Any other row makes the call go
 * through pinned staging buffers, one per slot: the CPU (on `threads`
 * threads) gathers the chunk's inputs into the slot's buffer while the GPU
 * works on the other slots, and scatters the slot's results into the output
 * rows once its copy down has finished. Streams, device slots and staging
 * are kept for the life of the process (struct pipe).
 *
 * Synchronous: every output byte is written when the call returns. The
 * caller's current device is restored.
 */
#include <pthread.h>
#include <stdlib.h>
#include "gf_common.cuh"

/* Streams (and device slots) of the pipeline: PIPE_SLOTS of at most
 * PIPE_MAX_SLOTS; bytes of the k + m rows of one chunk on the device. A
 * benchmark that includes this file may define the two first. */
#define PIPE_MAX_SLOTS 8
#ifndef PIPE_SLOTS
#define PIPE_SLOTS 3
#endif
#ifndef PIPE_CHUNK_BYTES
#define PIPE_CHUNK_BYTES ((int64_t)16 << 20)
#endif
#define PIPE_MIN_COLS ((int64_t)64 << 10)

/* Whether p is host memory the GPU can reach by DMA (pinned) or device memory. */
static int dma_ok(const void *p)
{
	cudaPointerAttributes at;
	if (cudaPointerGetAttributes(&at, p) != cudaSuccess) {
		cudaGetLastError();
		return 0;
	}
	return at.type == cudaMemoryTypeHost || at.type == cudaMemoryTypeDevice ||
	       at.type == cudaMemoryTypeManaged;
}

/* What a call needs besides its tables: streams, events, device slots and
 * pinned staging. One set is kept for the process (for the device that
 * first used it) and grown as needed, so that a stream of calls (a file
 * encoded stripe by stripe) allocates nothing; a call that finds it busy, or
 * that runs on another device, makes its own and frees it. */
typedef struct pipe {
	int device, made;
	int nst;                 /* streams and events made */
	cudaStream_t st[PIPE_MAX_SLOTS];
	cudaEvent_t done[PIPE_MAX_SLOTS], ready;
	uint8_t *dbuf;           /* slots x (k + m) x ld, then the tables */
	size_t dbytes;
	uint8_t *stage;          /* slots x (k + m) x ld pinned */
	size_t sbytes;
} pipe;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pipe cache = {-1, 0, 0, {}, {}, NULL, NULL, 0, NULL, 0};

static void pipe_release(pipe *p)
{
	if (p->made) {
		for (int i = 0; i < p->nst; i++) {
			cudaStreamDestroy(p->st[i]);
			cudaEventDestroy(p->done[i]);
		}
		cudaEventDestroy(p->ready);
	}
	if (p->dbuf != NULL)
		cudaFree(p->dbuf);
	if (p->stage != NULL)
		cudaFreeHost(p->stage);
	*p = pipe{};
	p->device = -1;
}

/* Make the streams and events, and at least dbytes of device and sbytes of
 * pinned memory. */
static gk_status pipe_grow(const char *fn, pipe *p, int device, size_t dbytes, size_t sbytes)
{
	if (!p->made) {
		for (int i = 0; i < PIPE_SLOTS; i++) {
			GK_CUDA_TRY(fn, cudaStreamCreateWithFlags(&p->st[i], cudaStreamNonBlocking));
			GK_CUDA_TRY(fn, cudaEventCreateWithFlags(&p->done[i], cudaEventDisableTiming));
			p->nst = i + 1;
		}
		GK_CUDA_TRY(fn, cudaEventCreateWithFlags(&p->ready, cudaEventDisableTiming));
		p->made = 1;
		p->device = device;
	}
	if (p->dbytes < dbytes) {
		if (p->dbuf != NULL)
			GK_CUDA_TRY(fn, cudaFree(p->dbuf));
		p->dbuf = NULL;
		p->dbytes = 0;
		GK_CUDA_TRY(fn, cudaMalloc((void **)&p->dbuf, dbytes));
		p->dbytes = dbytes;
	}
	if (p->sbytes < sbytes) {
		if (p->stage != NULL)
			GK_CUDA_TRY(fn, cudaFreeHost(p->stage));
		p->stage = NULL;
		p->sbytes = 0;
		GK_CUDA_TRY(fn, cudaMallocHost((void **)&p->stage, sbytes));
		p->sbytes = sbytes;
	}
	return GK_OK;
}

static gk_status run(pipe *P, int threads, int sm_count, int64_t m, int64_t n, int64_t k,
                     const uint8_t *a, int64_t lda, const uint8_t *const *src,
                     uint8_t *const *dst)
{
	static const char fn[] = "gk_gf256_gemm (CUDA)";
	int64_t w = PIPE_CHUNK_BYTES / (k + m) / 4096 * 4096;
	if (w < PIPE_MIN_COLS)
		w = PIPE_MIN_COLS;
	if (w > n)
		w = n;
	const int64_t ld = (w + 255) / 256 * 256;
	const int64_t nchunks = (n + w - 1) / w;
	int slots = nchunks < PIPE_SLOTS ? (int)nchunks : PIPE_SLOTS;
	const size_t slot_bytes = (size_t)(k + m) * (size_t)ld;
	const size_t tab_bytes = gk_gf_prmt_table_bytes(m, k);

	/* Rows equally spaced in one buffer go up or down in one 2D copy per
	 * chunk (one DMA operation instead of one per row); 0: no such spacing. */
	const int64_t sstride = k > 1 ? (int64_t)(src[1] - src[0]) : 0;
	const int64_t dstride = m > 1 ? (int64_t)(dst[1] - dst[0]) : 0;
	int s2d = sstride >= n && sstride <= INT32_MAX, d2d = dstride >= n && dstride <= INT32_MAX;
	for (int64_t j = 2; j < k && s2d; j++)
		s2d = src[j] - src[0] == j * sstride;
	for (int64_t i = 2; i < m && d2d; i++)
		d2d = dst[i] - dst[0] == i * dstride;
	int direct = 1;
	for (int64_t j = 0; j < k && direct; j++)
		direct = dma_ok(src[j]);
	for (int64_t i = 0; i < m && direct; i++)
		direct = dma_ok(dst[i]);

	/* By DMA, two slots keep both copy engines busy (measured best); staged
	 * rows keep every slot, so that the CPU has one to fill while the GPU
	 * works on the others. */
	if (direct && slots > 2)
		slots = 2;
	GK_FORWARD(pipe_grow(fn, P, P->device, slot_bytes * slots + tab_bytes,
	                     direct ? 0 : slot_bytes * slots));
	uint8_t *dtab = P->dbuf + slot_bytes * slots;
	{
		void *htab = malloc(tab_bytes);
		GK_RETURN_IF(htab == NULL, GK_ERR_NO_MEMORY, "%s: no memory for the tables", fn);
		gk_gf_prmt_build_table(m, k, a, lda, htab);
		/* From pageable memory the copy has read htab when it returns. */
		cudaError_t e = cudaMemcpyAsync(dtab, htab, tab_bytes, cudaMemcpyHostToDevice, P->st[0]);
		free(htab);
		if (e != cudaSuccess)
			return gk_cuda_status(e, fn, "cudaMemcpyAsync(tables)");
	}
	GK_CUDA_TRY(fn, cudaEventRecord(P->ready, P->st[0]));
	for (int s = 1; s < slots; s++)
		GK_CUDA_TRY(fn, cudaStreamWaitEvent(P->st[s], P->ready, 0));

	gk_gf_cuda_args kp = {};
	kp.m = m, kp.k = k, kp.tab = dtab, kp.ldb = ld, kp.ldc = ld, kp.sm_count = sm_count;
	const uint8_t *from[256];
	uint8_t *to[256];
	/* Scatter the results of chunk c (slot c % slots) into dst. */
	auto drain = [&](int64_t c) -> gk_status {
		const int s = (int)(c % slots);
		const int64_t off = c * w, cw = n - off < w ? n - off : w;
		GK_CUDA_TRY(fn, cudaEventSynchronize(P->done[s]));
		uint8_t *hc = P->stage + slot_bytes * s + (size_t)k * ld;
		for (int64_t i = 0; i < m; i++) {
			from[i] = hc + i * ld;
			to[i] = dst[i] + off;
		}
		gk_gf256_copy_rows(m, to, from, cw, threads);
		return GK_OK;
	};
	for (int64_t c = 0; c < nchunks; c++) {
		const int s = (int)(c % slots);
		const int64_t off = c * w, cw = n - off < w ? n - off : w;
		cudaStream_t st = P->st[s];
		uint8_t *db = P->dbuf + slot_bytes * s, *dc = db + (size_t)k * ld;
		if (direct && s2d) {
			GK_CUDA_TRY(fn, cudaMemcpy2DAsync(db, (size_t)ld, src[0] + off, (size_t)sstride,
			                                  (size_t)cw, (size_t)k, cudaMemcpyDefault, st));
		} else if (direct) {
			for (int64_t j = 0; j < k; j++)
				GK_CUDA_TRY(fn, cudaMemcpyAsync(db + j * ld, src[j] + off, (size_t)cw,
				                                cudaMemcpyDefault, st));
		} else {
			if (c >= slots)
				GK_FORWARD(drain(c - slots));
			uint8_t *hb = P->stage + slot_bytes * s;
			for (int64_t j = 0; j < k; j++) {
				from[j] = src[j] + off;
				to[j] = hb + j * ld;
			}
			gk_gf256_copy_rows(k, to, from, cw, threads);
			GK_CUDA_TRY(fn, cudaMemcpyAsync(db, hb, (size_t)k * ld, cudaMemcpyHostToDevice, st));
		}
		kp.n = cw, kp.b = db, kp.c = dc, kp.stream = st;
		GK_FORWARD(gk_gf_cuda_production(&kp));
		if (direct && d2d) {
			GK_CUDA_TRY(fn, cudaMemcpy2DAsync(dst[0] + off, (size_t)dstride, dc, (size_t)ld,
			                                  (size_t)cw, (size_t)m, cudaMemcpyDefault, st));
		} else if (direct) {
			for (int64_t i = 0; i < m; i++)
				GK_CUDA_TRY(fn, cudaMemcpyAsync(dst[i] + off, dc + i * ld, (size_t)cw,
				                                cudaMemcpyDefault, st));
		} else {
			GK_CUDA_TRY(fn, cudaMemcpyAsync(P->stage + slot_bytes * s + (size_t)k * ld, dc,
			                                (size_t)m * ld, cudaMemcpyDeviceToHost, st));
		}
		GK_CUDA_TRY(fn, cudaEventRecord(P->done[s], st));
	}
	if (!direct)
		for (int64_t c = nchunks > slots ? nchunks - slots : 0; c < nchunks; c++)
			GK_FORWARD(drain(c));
	return GK_OK;
}

extern "C" gk_status gk_gf256_cuda_host_run(int device, int threads, int64_t m, int64_t n,
                                            int64_t k, const uint8_t *a, int64_t lda,
                                            const uint8_t *const *src, uint8_t *const *dst)
{
	static const char fn[] = "gk_gf256_gemm (CUDA)";
	GK_RETURN_IF(!gk_cuda_available(), GK_ERR_NO_GPU, "%s: no CUDA device is present", fn);
	int prev;
	GK_CUDA_TRY(fn, cudaGetDevice(&prev));
	const int cur = device >= 0 ? device : prev;
	if (cur != prev) {
		const int count = gk_cuda_device_count();
		GK_RETURN_IF(cur >= count, GK_ERR_INVALID_VALUE, "%s: no CUDA device %d (%d present)",
		             fn, cur, count);
		GK_CUDA_TRY(fn, cudaSetDevice(cur));
	}
	int sms = 0;
	gk_status st = GK_OK;
	cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, cur);
	if (e != cudaSuccess)
		st = gk_cuda_status(e, fn, "cudaDeviceGetAttribute");
	pipe own = {};
	own.device = cur;
	pipe *P = &own;
	const int locked = pthread_mutex_trylock(&cache_lock) == 0;
	if (locked && (cache.device < 0 || cache.device == cur)) {
		P = &cache;
		P->device = cur;
	}
	if (st == GK_OK)
		st = run(P, threads, sms, m, n, k, a, lda, src, dst);
	/* Every stream idle before the buffers are reused or freed. */
	if (P->made)
		for (int i = 0; i < P->nst; i++) {
			e = cudaStreamSynchronize(P->st[i]);
			if (e != cudaSuccess && st == GK_OK)
				st = gk_cuda_status(e, fn, "cudaStreamSynchronize");
		}
	if (P == &own || st != GK_OK)
		pipe_release(P);
	if (locked)
		pthread_mutex_unlock(&cache_lock);
	if (cur != prev)
		cudaSetDevice(prev);
	return st;
}
