/*
 * gpu.c - GPU contenders of the GEMM suites: a gemmkit cuda.* algorithm on
 * device pointers (gk_sgemm_device / gk_dgemm_device), and cuBLAS
 * (cublasSgemm in its default FP32 math mode, cublasDgemm) as the
 * reference, both measured the same way:
 *
 *   prepare  the cell's A and B are copied to the device once per cell and
 *            shared by every GPU contender; each contender writes its own
 *            device C, filled with NaN before its checked run;
 *   run      enqueues one product on the contender's stream;
 *   timer    CUDA events around a batch of enqueued products (the engine's
 *            timer_start / timer_stop), so the host clock and the launch
 *            queue never enter the figure;
 *   sync     waits for the stream, and after the checked run copies C back
 *            into the cell's output, where the cell's check reads it.
 *
 * The products are row-major C = A B with beta = 0, as the CPU contenders
 * compute them; cuBLAS, column-major, computes the same bytes as
 * C^T = B^T A^T. Built only with CUDA and cuBLAS (GK_BENCH_CUDA); without
 * them gpu_ready() says why and nothing else is called.
 */
#include "gpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GK_BENCH_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>

typedef struct gpu_side {
	int cublas;             /* 0: a gemmkit algorithm; else a CUBLAS_* mode below */
	gk_context *ctx;        /* gemmkit: the algorithm, the device, the stream */
	cudaStream_t stream;
	cudaEvent_t start, stop;
	void *dc;               /* this contender's C */
	size_t dc_bytes;
	int download;           /* copy C back at the next sync (the checked run) */
	unsigned dtypes;        /* GK_DTYPE_F32 | GK_DTYPE_F64: what it computes */
} gpu_side;

/* The cuBLAS contenders: cublasSgemm / cublasDgemm in the default math
 * mode; cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32 (float only); and,
 * on GPUs where cuBLAS offers it (compute capability 10 and later), its
 * FP32 emulation on BF16 tensor cores (CUBLAS_COMPUTE_32F_EMULATED_16BFX9). */
enum { CUBLAS_DEFAULT = 1, CUBLAS_TF32 = 2, CUBLAS_BF16X9 = 3 };

/* The inputs on the device, shared by the contenders of one cell. */
static struct {
	const void *a, *b;      /* the host arrays they were copied from */
	int64_t m, n, k;
	int dt;
	void *da, *db;
} dev_in;

static cublasHandle_t handle;
static int ready = -1;
static char ready_why[160];

int gpu_ready(char *why, size_t len)
{
	if (ready < 0) {
		int n = 0;
		if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
			cudaGetLastError();
			snprintf(ready_why, sizeof ready_why, "no CUDA device is present");
			ready = 0;
		} else if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
			snprintf(ready_why, sizeof ready_why, "cuBLAS could not be initialized");
			ready = 0;
		} else {
			ready = 1;
		}
	}
	if (!ready && why)
		snprintf(why, len, "%s", ready_why);
	return ready;
}

void gpu_describe(char *buf, size_t len)
{
	char why[160];
	if (!gpu_ready(why, sizeof why)) {
		snprintf(buf, len, "none (%s)", why);
		return;
	}
	int dev = 0, rt = 0, drv = 0, cbv = 0, sms = 0, khz = 0;
	struct cudaDeviceProp p;
	cudaGetDevice(&dev);
	if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
		cudaGetLastError();
		snprintf(p.name, sizeof p.name, "CUDA device %d", dev);
		p.major = p.minor = 0;
		p.totalGlobalMem = 0;
	}
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
	cudaRuntimeGetVersion(&rt);
	cudaDriverGetVersion(&drv);
	cublasGetVersion(handle, &cbv);
	snprintf(buf, len, "%s (sm_%d%d, %d SMs, %.0f MHz, %.1f GiB); CUDA runtime %d.%d, driver %d.%d; "
	         "cuBLAS %d.%d.%d", p.name, p.major, p.minor, sms, (double)khz / 1000.0,
	         (double)p.totalGlobalMem / 1073741824.0, rt / 1000, (rt % 1000) / 10, drv / 1000,
	         (drv % 1000) / 10, cbv / 10000, (cbv / 100) % 100, cbv % 100);
}

static void free_inputs(void)
{
	cudaFree(dev_in.da);
	cudaFree(dev_in.db);
	memset(&dev_in, 0, sizeof dev_in);
}

/* The cell's A and B on the device (copied once per cell). */
static int inputs(const gemm_cell_view *v, char *why, size_t len)
{
	if (dev_in.da && dev_in.a == v->a && dev_in.b == v->b && dev_in.m == v->m && dev_in.n == v->n &&
	    dev_in.k == v->k && dev_in.dt == v->dt)
		return 0;
	free_inputs();
	const size_t es = v->dt ? sizeof(double) : sizeof(float);
	const size_t ba = (size_t)v->m * (size_t)v->k * es, bb = (size_t)v->k * (size_t)v->n * es;
	if (cudaMalloc(&dev_in.da, ba) != cudaSuccess || cudaMalloc(&dev_in.db, bb) != cudaSuccess ||
	    cudaMemcpy(dev_in.da, v->a, ba, cudaMemcpyHostToDevice) != cudaSuccess ||
	    cudaMemcpy(dev_in.db, v->b, bb, cudaMemcpyHostToDevice) != cudaSuccess) {
		snprintf(why, len, "device memory for A and B: %s", cudaGetErrorString(cudaGetLastError()));
		free_inputs();
		return -1;
	}
	dev_in.a = v->a, dev_in.b = v->b, dev_in.m = v->m, dev_in.n = v->n, dev_in.k = v->k;
	dev_in.dt = v->dt;
	return 0;
}

static int gpu_prepare(bench_contender *c, void *cell)
{
	gpu_side *g = gemm_gpu_state(c);
	gemm_cell_view v;
	gemm_cell_view_of(cell, &v);
	if (!(g->dtypes & (v.dt ? GK_DTYPE_F64 : GK_DTYPE_F32))) {
		snprintf(c->why, sizeof c->why, "does not handle this precision");
		return BENCH_SKIP;
	}
	if (inputs(&v, c->why, sizeof c->why) != 0)
		return BENCH_SKIP;
	const size_t bytes = (size_t)v.m * (size_t)v.n * (v.dt ? sizeof(double) : sizeof(float));
	if (g->dc_bytes < bytes) {
		cudaFree(g->dc);
		g->dc = NULL;
		g->dc_bytes = 0;
		if (cudaMalloc(&g->dc, bytes) != cudaSuccess) {
			cudaGetLastError();
			snprintf(c->why, sizeof c->why, "no device memory for C");
			return BENCH_SKIP;
		}
		g->dc_bytes = bytes;
	}
	/* NaN everywhere: an element the product does not write stays NaN. */
	if (cudaMemset(g->dc, 0xff, bytes) != cudaSuccess) {
		snprintf(c->why, sizeof c->why, "cudaMemset: %s", cudaGetErrorString(cudaGetLastError()));
		return BENCH_FAIL;
	}
	g->download = 1;
	return 0;
}

static int gpu_run(bench_contender *c, void *cell)
{
	gpu_side *g = gemm_gpu_state(c);
	gemm_cell_view v;
	gemm_cell_view_of(cell, &v);
	const int m = (int)v.m, n = (int)v.n, k = (int)v.k;
	if (g->cublas) {
		if (v.m > 2147483647 || v.n > 2147483647 || v.k > 2147483647) {
			snprintf(c->why, sizeof c->why, "sizes beyond cuBLAS's int");
			return BENCH_SKIP;
		}
		cublasStatus_t st = cublasSetStream(handle, g->stream);
		if (st != CUBLAS_STATUS_SUCCESS) {
			snprintf(c->why, sizeof c->why, "cublasSetStream: status %d", (int)st);
			return BENCH_FAIL;
		}
		if (v.dt) {
			const double one = 1, zero = 0;
			st = cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dev_in.db, n,
			                 dev_in.da, k, &zero, g->dc, n);
		} else if (g->cublas != CUBLAS_DEFAULT) {
			const float one = 1, zero = 0;
#if CUBLAS_VER_MAJOR >= 13 || (CUBLAS_VER_MAJOR == 12 && CUBLAS_VER_MINOR >= 9)
			const cublasComputeType_t ct = g->cublas == CUBLAS_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32
			                                                        : CUBLAS_COMPUTE_32F_EMULATED_16BFX9;
#else
			const cublasComputeType_t ct = CUBLAS_COMPUTE_32F_FAST_TF32;
#endif
			st = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dev_in.db, CUDA_R_32F,
			                  n, dev_in.da, CUDA_R_32F, k, &zero, g->dc, CUDA_R_32F, n, ct,
			                  CUBLAS_GEMM_DEFAULT);
		} else {
			const float one = 1, zero = 0;
			st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dev_in.db, n,
			                 dev_in.da, k, &zero, g->dc, n);
		}
		if (st != CUBLAS_STATUS_SUCCESS) {
			snprintf(c->why, sizeof c->why, "cuBLAS status %d", (int)st);
			return BENCH_FAIL;
		}
		return 0;
	}
	gk_status st;
	if (v.dt)
		st = gk_dgemm_device(g->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, v.m, v.n, v.k, 1.0,
		                     dev_in.da, v.k, dev_in.db, v.n, 0.0, g->dc, v.n);
	else
		st = gk_sgemm_device(g->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, v.m, v.n, v.k, 1.0f,
		                     dev_in.da, v.k, dev_in.db, v.n, 0.0f, g->dc, v.n);
	if (st == GK_OK)
		return 0;
	snprintf(c->why, sizeof c->why, "%s: %s", gk_strerror(st), gk_last_error());
	return BENCH_FAIL;
}

static void gpu_sync(bench_contender *c, void *cell)
{
	gpu_side *g = gemm_gpu_state(c);
	cudaError_t e = cudaStreamSynchronize(g->stream);
	if (e == cudaSuccess && g->download) {
		gemm_cell_view v;
		gemm_cell_view_of(cell, &v);
		const size_t bytes = (size_t)v.m * (size_t)v.n * (v.dt ? sizeof(double) : sizeof(float));
		e = cudaMemcpy(v.out, g->dc, bytes, cudaMemcpyDeviceToHost);
		g->download = 0;
	}
	if (e != cudaSuccess)
		fprintf(stderr, "gemmkit bench: %s: %s\n", c->id, cudaGetErrorString(e));
}

static void gpu_timer_start(bench_contender *c, void *cell)
{
	(void)cell;
	gpu_side *g = gemm_gpu_state(c);
	cudaEventRecord(g->start, g->stream);
}

static double gpu_timer_stop(bench_contender *c, void *cell)
{
	(void)cell;
	gpu_side *g = gemm_gpu_state(c);
	float ms = 0;
	cudaEventRecord(g->stop, g->stream);
	if (cudaEventSynchronize(g->stop) != cudaSuccess ||
	    cudaEventElapsedTime(&ms, g->start, g->stop) != cudaSuccess) {
		cudaGetLastError();
		return -1;
	}
	return (double)ms * 1e-3;
}

const bench_ops gemm_gpu_ops = {gpu_prepare, gpu_run, gpu_sync, gpu_timer_start, gpu_timer_stop,
                                NULL};

gpu_side *gpu_side_new(const char *algo, char *why, size_t len)
{
	if (!gpu_ready(why, len))
		return NULL;
	gpu_side *g = calloc(1, sizeof *g);
	if (g == NULL) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	if (cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking) != cudaSuccess ||
	    cudaEventCreate(&g->start) != cudaSuccess || cudaEventCreate(&g->stop) != cudaSuccess) {
		snprintf(why, len, "CUDA stream or events: %s", cudaGetErrorString(cudaGetLastError()));
		gpu_side_free(g);
		return NULL;
	}
	if (algo == NULL || strncmp(algo, "cublas", 6) == 0) {
		g->cublas = algo == NULL || !strcmp(algo, "cublas") ? CUBLAS_DEFAULT
		            : !strcmp(algo, "cublas-tf32")          ? CUBLAS_TF32
		            : !strcmp(algo, "cublas-bf16x9")        ? CUBLAS_BF16X9
		                                                    : 0;
		g->dtypes = g->cublas == CUBLAS_DEFAULT ? GK_DTYPE_F32 | GK_DTYPE_F64 : GK_DTYPE_F32;
		if (g->cublas == 0)
			snprintf(why, len, "no cuBLAS contender is named %s", algo);
		if (g->cublas == CUBLAS_BF16X9) {
			int dev = 0, major = 0;
			cudaGetDevice(&dev);
			cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
#if CUBLAS_VER_MAJOR >= 13 || (CUBLAS_VER_MAJOR == 12 && CUBLAS_VER_MINOR >= 9)
			if (major < 10)
				snprintf(why, len, "cuBLAS's FP32 emulation (BF16x9) needs compute capability 10 "
				         "or later; this device has %d", major);
#else
			snprintf(why, len, "this cuBLAS has no FP32 emulation (BF16x9)");
#endif
			if (why[0] != '\0')
				g->cublas = 0;
		}
		if (g->cublas == 0) {
			gpu_side_free(g);
			return NULL;
		}
		return g;
	}
	for (int i = 0; i < gk_algo_count(); i++) {
		gk_algo_info in;
		if (gk_algo_get(i, &in) == GK_OK && strcmp(in.name, algo) == 0)
			g->dtypes = in.dtypes;
	}
	if (gk_context_create(&g->ctx) != GK_OK || gk_context_set_algo(g->ctx, algo) != GK_OK ||
	    gk_context_set_stream(g->ctx, g->stream) != GK_OK) {
		snprintf(why, len, "%s", gk_last_error());
		gpu_side_free(g);
		return NULL;
	}
	return g;
}

void gpu_side_free(gpu_side *g)
{
	if (g == NULL)
		return;
	cudaFree(g->dc);
	if (g->start)
		cudaEventDestroy(g->start);
	if (g->stop)
		cudaEventDestroy(g->stop);
	if (g->stream) {
		if (g->cublas)
			cublasSetStream(handle, 0);
		cudaStreamDestroy(g->stream);
	}
	gk_context_destroy(g->ctx);
	free(g);
	/* The shared inputs go too: the next prepare copies its cell's again. */
	free_inputs();
}

#else /* no CUDA in this build */

int gpu_ready(char *why, size_t len)
{
	if (why)
		snprintf(why, len, "gemmkit bench was built without CUDA and cuBLAS");
	return 0;
}

void gpu_describe(char *buf, size_t len)
{
	snprintf(buf, len, "none (built without CUDA)");
}

const bench_ops gemm_gpu_ops = {NULL, NULL, NULL, NULL, NULL, NULL};

gpu_side *gpu_side_new(const char *algo, char *why, size_t len)
{
	(void)algo;
	gpu_ready(why, len);
	return NULL;
}

void gpu_side_free(gpu_side *g)
{
	(void)g;
}
#endif
