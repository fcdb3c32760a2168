/*
 * host_gemm.cu - the CUDA driver of a call whose operands are in host
 * memory (gk_sgemm / gk_dgemm with the CUDA backend): A and B, and C when
 * beta != 0, go to dense device buffers through pinned staging buffers
 * that are kept between calls; the device driver runs the algorithm; C
 * comes back the same way. The call is synchronous.
 *
 * Staging: two pinned chunks per device, filled by the CPU and sent by
 * the copy engine in turn, so that the host copy of one chunk overlaps the
 * transfer of the other. A thread that finds a device's chunks in use by
 * another call takes a private pair for its call.
 *
 * A product whose dense operands do not fit the device's free memory
 * returns GK_ERR_UNSUPPORTED: streaming operands through the device is a
 * separate driver.
 */
#include <pthread.h>
#include <string.h>
#include "cuda_check.cuh"

#define STAGE_BYTES ((size_t)32 << 20) /* one pinned chunk */
#define MAX_DEVICES 64

typedef struct staging {
	char *buf[2];
	cudaEvent_t done[2]; /* the transfer that last used buf[i] */
} staging;

static pthread_mutex_t stage_lock[MAX_DEVICES];
static staging stage_cache[MAX_DEVICES];
static pthread_once_t stage_once = PTHREAD_ONCE_INIT;

static void stage_init(void)
{
	for (int i = 0; i < MAX_DEVICES; i++)
		pthread_mutex_init(&stage_lock[i], NULL);
}

static gk_status staging_alloc(const char *fn, staging *s)
{
	if (s->buf[0] != NULL)
		return GK_OK;
	for (int i = 0; i < 2; i++) {
		GK_CUDA_TRY(fn, cudaHostAlloc((void **)&s->buf[i], STAGE_BYTES, cudaHostAllocDefault));
		GK_CUDA_TRY(fn, cudaEventCreateWithFlags(&s->done[i], cudaEventDisableTiming));
	}
	return GK_OK;
}

static void staging_free(staging *s)
{
	for (int i = 0; i < 2; i++) {
		if (s->buf[i] != NULL)
			cudaFreeHost(s->buf[i]);
		if (s->done[i] != NULL)
			cudaEventDestroy(s->done[i]);
		s->buf[i] = NULL;
		s->done[i] = NULL;
	}
}

/*
 * A strided host matrix as `rows` lines of `len` elements, line r at
 * host + r * pitch (elements of esize bytes), and its dense device copy
 * (line r at dev + r * len). Copy it in (to_dev) or out, chunk by chunk.
 */
typedef struct lines {
	char *host;
	int64_t rows, len, pitch;
	size_t esize;
	char *dev;
} lines;

/* Bytes [off, off + bytes) of the dense image, between the strided lines
 * and a staging chunk: gathered into buf (to_buf), or scattered from it. */
static void copy_span(const lines *x, char *buf, size_t off, size_t bytes, int to_buf)
{
	const size_t line_bytes = (size_t)x->len * x->esize;
	size_t done = 0;
	while (done < bytes) {
		const size_t pos = off + done, r = pos / line_bytes, in = pos % line_bytes;
		size_t n = line_bytes - in;
		if (n > bytes - done)
			n = bytes - done;
		char *h = x->host + r * (size_t)x->pitch * x->esize + in;
		if (to_buf)
			memcpy(buf + done, h, n);
		else
			memcpy(h, buf + done, n);
		done += n;
	}
}

static gk_status transfer(const char *fn, staging *s, cudaStream_t st, const lines *x, int to_dev)
{
	const size_t total = (size_t)x->rows * (size_t)x->len * x->esize;
	size_t off = 0;
	int which = 0;
	while (off < total) {
		const size_t bytes = total - off < STAGE_BYTES ? total - off : STAGE_BYTES;
		char *buf = s->buf[which];
		/* Wait until the previous transfer through this chunk is over. */
		GK_CUDA_TRY(fn, cudaEventSynchronize(s->done[which]));
		if (to_dev) {
			copy_span(x, buf, off, bytes, 1);
			GK_CUDA_TRY(fn, cudaMemcpyAsync(x->dev + off, buf, bytes, cudaMemcpyHostToDevice, st));
			GK_CUDA_TRY(fn, cudaEventRecord(s->done[which], st));
		} else {
			GK_CUDA_TRY(fn, cudaMemcpyAsync(buf, x->dev + off, bytes, cudaMemcpyDeviceToHost, st));
			GK_CUDA_TRY(fn, cudaEventRecord(s->done[which], st));
			GK_CUDA_TRY(fn, cudaEventSynchronize(s->done[which]));
			copy_span(x, buf, off, bytes, 0);
		}
		off += bytes;
		which ^= 1;
	}
	return GK_OK;
}

/* An operand of the canonical problem (rows x cols, strides rs, cs with one
 * of them 1) as lines, and the strides of its dense device copy. */
static void as_lines(const void *x, int64_t rows, int64_t cols, int64_t rs, int64_t cs,
                     size_t esize, lines *l, int64_t *drs, int64_t *dcs)
{
	l->host = (char *)x;
	l->esize = esize;
	if (cs == 1) { /* rows are contiguous */
		l->rows = rows; l->len = cols; l->pitch = rs;
		*drs = cols; *dcs = 1;
	} else {       /* columns are contiguous (rs == 1) */
		l->rows = cols; l->len = rows; l->pitch = cs;
		*drs = 1; *dcs = rows;
	}
}

template <typename T, typename Fn>
static gk_status host_run(const char *fn_name, gk_status (*dev_run)(Fn, int, void *, int64_t,
                          int64_t, int64_t, T, const T *, int64_t, int64_t, const T *, int64_t,
                          int64_t, T, T *, int64_t),
                          Fn fn, int device, void *stream, int64_t m, int64_t n, int64_t k,
                          T alpha, const T *a, int64_t rs_a, int64_t cs_a, const T *b,
                          int64_t rs_b, int64_t cs_b, T beta, T *c, int64_t rs_c)
{
	if (!gk_cuda_available())
		return gk_set_error(GK_ERR_NO_GPU, "%s: no CUDA device is present", fn_name);
	int prev;
	GK_CUDA_TRY(fn_name, cudaGetDevice(&prev));
	const int dev = device >= 0 ? device : prev;
	GK_RETURN_IF(dev >= gk_cuda_device_count() || dev >= MAX_DEVICES, GK_ERR_INVALID_VALUE,
	             "%s: the context names CUDA device %d, which is not present", fn_name, dev);
	if (dev != prev)
		GK_CUDA_TRY(fn_name, cudaSetDevice(dev));

	const size_t es = sizeof(T);
	const size_t bytes_a = (size_t)m * (size_t)k * es, bytes_b = (size_t)k * (size_t)n * es;
	const size_t bytes_c = (size_t)m * (size_t)n * es;
	gk_status st = GK_OK;
	size_t free_b = 0, total_b = 0;
	cudaStream_t s = (cudaStream_t)stream, own = NULL;
	staging priv = {{NULL, NULL}, {NULL, NULL}}, *stg = NULL;
	int locked = 0;
	T *da = NULL, *db = NULL, *dc = NULL;
	lines la, lb, lc;
	int64_t ars, acs, brs, bcs, crs, ccs;

	cudaError_t e = cudaMemGetInfo(&free_b, &total_b);
	if (e != cudaSuccess) {
		st = gk_cuda_status(e, fn_name, "cudaMemGetInfo");
		goto out;
	}
	/* Leave a margin for the algorithm's workspace and the runtime. */
	if ((double)bytes_a + (double)bytes_b + (double)bytes_c > 0.9 * (double)free_b - (64 << 20)) {
		st = gk_set_error(GK_ERR_UNSUPPORTED,
		                  "%s: A, B and C take %.2f GiB, more than the %.2f GiB free on CUDA "
		                  "device %d; products beyond the device's memory are not supported yet",
		                  fn_name, (double)(bytes_a + bytes_b + bytes_c) / 1073741824.0,
		                  (double)free_b / 1073741824.0, dev);
		goto out;
	}
	if (s == NULL) {
		e = cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking);
		if (e != cudaSuccess) {
			st = gk_cuda_status(e, fn_name, "cudaStreamCreate");
			goto out;
		}
		s = own;
	}
	pthread_once(&stage_once, stage_init);
	if (pthread_mutex_trylock(&stage_lock[dev]) == 0) {
		locked = 1;
		stg = &stage_cache[dev];
	} else {
		stg = &priv;
	}
	if ((st = staging_alloc(fn_name, stg)) != GK_OK)
		goto out;
#define TRY_GOTO(call)                                              \
	do {                                                            \
		cudaError_t e_ = (call);                                    \
		if (e_ != cudaSuccess) {                                    \
			st = gk_cuda_status(e_, fn_name, #call);                \
			goto out;                                               \
		}                                                           \
	} while (0)
	TRY_GOTO(cudaMallocAsync((void **)&da, bytes_a, s));
	TRY_GOTO(cudaMallocAsync((void **)&db, bytes_b, s));
	TRY_GOTO(cudaMallocAsync((void **)&dc, bytes_c, s));
	as_lines(a, m, k, rs_a, cs_a, es, &la, &ars, &acs);
	as_lines(b, k, n, rs_b, cs_b, es, &lb, &brs, &bcs);
	as_lines(c, m, n, rs_c, 1, es, &lc, &crs, &ccs);
	la.dev = (char *)da;
	lb.dev = (char *)db;
	lc.dev = (char *)dc;
	if ((st = transfer(fn_name, stg, s, &la, 1)) != GK_OK)
		goto out;
	if ((st = transfer(fn_name, stg, s, &lb, 1)) != GK_OK)
		goto out;
	if (beta != T(0) && (st = transfer(fn_name, stg, s, &lc, 1)) != GK_OK)
		goto out;
	if ((st = dev_run(fn, dev, s, m, n, k, alpha, da, ars, acs, db, brs, bcs, beta, dc, crs)) != GK_OK)
		goto out;
	if ((st = transfer(fn_name, stg, s, &lc, 0)) != GK_OK)
		goto out;
	TRY_GOTO(cudaStreamSynchronize(s));
#undef TRY_GOTO
out:
	/* Free in stream order, then wait, so that nothing is left running
	 * when the call returns, on success or failure. */
	if (da != NULL)
		cudaFreeAsync(da, s);
	if (db != NULL)
		cudaFreeAsync(db, s);
	if (dc != NULL)
		cudaFreeAsync(dc, s);
	if (s != NULL)
		cudaStreamSynchronize(s);
	if (own != NULL)
		cudaStreamDestroy(own);
	if (locked)
		pthread_mutex_unlock(&stage_lock[dev]);
	staging_free(&priv);
	if (dev != prev)
		cudaSetDevice(prev);
	return st;
}

extern "C" gk_status gk_cuda_sgemm_host_run(gk_cuda_sgemm_fn fn, int device, void *stream,
                                            int64_t m, int64_t n, int64_t k, float alpha,
                                            const float *a, int64_t rs_a, int64_t cs_a,
                                            const float *b, int64_t rs_b, int64_t cs_b,
                                            float beta, float *c, int64_t rs_c)
{
	return host_run<float, gk_cuda_sgemm_fn>("gk_sgemm", gk_cuda_sgemm_device_run, fn, device,
	                                         stream, m, n, k, alpha, a, rs_a, cs_a, b, rs_b,
	                                         cs_b, beta, c, rs_c);
}

extern "C" gk_status gk_cuda_dgemm_host_run(gk_cuda_dgemm_fn fn, int device, void *stream,
                                            int64_t m, int64_t n, int64_t k, double alpha,
                                            const double *a, int64_t rs_a, int64_t cs_a,
                                            const double *b, int64_t rs_b, int64_t cs_b,
                                            double beta, double *c, int64_t rs_c)
{
	return host_run<double, gk_cuda_dgemm_fn>("gk_dgemm", gk_cuda_dgemm_device_run, fn, device,
	                                          stream, m, n, k, alpha, a, rs_a, cs_a, b, rs_b,
	                                          cs_b, beta, c, rs_c);
}
