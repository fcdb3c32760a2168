/*
 * gpu_hostmem_cell.c - what the host-memory GPU suites share (gpu_hostmem.c,
 * gpu_multi.c): the contenders (gemmkit's host-pointer path, cuBLASXt on
 * one or several devices, cuBLAS in core plus copies) and the cell they run
 * on, N x N operands in pinned or pageable host memory with its sampled
 * double-precision reference. Types and contracts: gpu_hostmem.h.
 *
 * cuBLASXt's block dimension: tuned on the cell (the fastest of 2048 ..
 * 16384, at most 2 N) up to N = 16384, where a trial costs little; above,
 * the largest of 16384, 8192, 4096 that still gives each of its devices
 * four tiles of C (16384 on one device, as tuning at 16384 finds).
 */
#define _GNU_SOURCE
#include "gpu_hostmem.h"

#ifdef GK_BENCH_CUDA
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include "gemm_check.h"

static size_t es_of(int dt)
{
	return dt ? sizeof(double) : sizeof(float);
}

static double elem(const hm_cell *x, size_t i)
{
	return x->dt ? ((const double *)x->c)[i] : (double)((const float *)x->c)[i];
}

/* The time of one synchronous call of xt at block dimension bd. */
static double xt_call(hm_side *s, hm_cell *x)
{
	const double t0 = bench_now();
	const size_t n = (size_t)x->n;
	cublasStatus_t st;
	if (x->dt) {
		const double one = 1, zero = 0;
		st = cublasXtDgemm(s->xt, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, x->b, n, x->a, n, &zero, x->c, n);
	} else {
		const float one = 1, zero = 0;
		st = cublasXtSgemm(s->xt, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, x->b, n, x->a, n, &zero, x->c, n);
	}
	return st == CUBLAS_STATUS_SUCCESS ? bench_now() - t0 : -1;
}

/* The block dimension of an xt contender for this cell (see the top). */
static int xt_block_dim(hm_side *s, hm_cell *x)
{
	int best = 16384;
	if (x->n <= 16384) {
		double bt = 1e30;
		for (int bd = 2048; bd <= 16384 && bd <= 2 * x->n; bd *= 2) {
			cublasXtSetBlockDim(s->xt, bd);
			double t = xt_call(s, x);
			if (t > 0 && t < bt)
				bt = t, best = bd;
		}
		return best;
	}
	const int64_t ndev = s->xt_ndev > 0 ? s->xt_ndev : 1;
	for (; best > 4096; best /= 2) {
		const int64_t tiles = (x->n + best - 1) / best;
		if (tiles * tiles >= 4 * ndev)
			break;
	}
	return best;
}

/* The devices present, for contenders that need several. */
static int devices_present(void)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		cudaGetLastError();
		n = 0;
	}
	return n;
}

static int hm_prepare(bench_contender *c, void *cell)
{
	hm_side *s = c->self;
	hm_cell *x = cell;
	const size_t bytes = (size_t)x->n * (size_t)x->n * es_of(x->dt);
	if (x->dt && (s->mode != GK_PRECISION_STRICT)) {
		snprintf(c->why, sizeof c->why, "a float precision mode");
		return BENCH_SKIP;
	}
	if (s->need_devices > 1) {
		const int have = devices_present();
		if (have < s->need_devices) {
			snprintf(c->why, sizeof c->why, "needs %d devices, %d present", s->need_devices, have);
			return BENCH_UNAVAILABLE;
		}
	}
	if (s->what == HM_GK) {
		gk_context_set_device_budget(s->ctx, s->budget_div ? 3 * bytes / (size_t)s->budget_div : 0);
		return 0;
	}
	if (s->what == HM_XT) {
		if (s->xt == NULL) {
			int dev0 = 0;
			const int nd = s->xt_ndev > 0 ? s->xt_ndev : 1;
			if (cublasXtCreate(&s->xt) != CUBLAS_STATUS_SUCCESS ||
			    cublasXtDeviceSelect(s->xt, nd, s->xt_ndev > 0 ? s->xt_dev : &dev0) != CUBLAS_STATUS_SUCCESS) {
				if (s->xt)
					cublasXtDestroy(s->xt);
				s->xt = NULL;
				snprintf(c->why, sizeof c->why, "cublasXtCreate / DeviceSelect failed");
				return BENCH_UNAVAILABLE;
			}
		}
		const int best = xt_block_dim(s, x);
		s->xt_block = best;
		cublasXtSetBlockDim(s->xt, best);
		snprintf(c->why, sizeof c->why, "block dimension %d", best);
		return 0;
	}
	/* cuBLAS in core: device buffers before the clock. */
	if (cudaMalloc(&s->da, bytes) != cudaSuccess || cudaMalloc(&s->db, bytes) != cudaSuccess ||
	    cudaMalloc(&s->dc, bytes) != cudaSuccess) {
		cudaGetLastError();
		cudaFree(s->da), cudaFree(s->db), cudaFree(s->dc);
		s->da = s->db = s->dc = NULL;
		snprintf(c->why, sizeof c->why, "A, B and C do not fit the device");
		return BENCH_SKIP;
	}
	if (s->cb == NULL && cublasCreate(&s->cb) != CUBLAS_STATUS_SUCCESS) {
		snprintf(c->why, sizeof c->why, "cublasCreate failed");
		return BENCH_UNAVAILABLE;
	}
	return 0;
}

static void hm_release(bench_contender *c, void *cell)
{
	(void)cell;
	hm_side *s = c->self;
	cudaFree(s->da), cudaFree(s->db), cudaFree(s->dc);
	s->da = s->db = s->dc = NULL;
}

static int hm_run1(bench_contender *c, void *cell)
{
	hm_side *s = c->self;
	hm_cell *x = cell;
	const int64_t n = x->n;
	if (s->what == HM_GK) {
		gk_status st = x->dt ? gk_dgemm_ex(s->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, n, n, n, 1.0, x->a, n,
		                                   x->b, n, 0.0, x->c, n)
		                     : gk_sgemm_ex(s->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, n, n, n, 1.0f, x->a, n,
		                                   x->b, n, 0.0f, x->c, n);
		if (st == GK_OK)
			return 0;
		snprintf(c->why, sizeof c->why, "%s: %s", gk_strerror(st), gk_last_error());
		return BENCH_FAIL;
	}
	if (s->what == HM_XT) {
		if (xt_call(s, x) >= 0)
			return 0;
		snprintf(c->why, sizeof c->why, "cublasXt failed");
		return BENCH_FAIL;
	}
	const size_t bytes = (size_t)n * (size_t)n * es_of(x->dt);
	cublasStatus_t st;
	if (cudaMemcpy(s->da, x->a, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
	    cudaMemcpy(s->db, x->b, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
		snprintf(c->why, sizeof c->why, "cudaMemcpy: %s", cudaGetErrorString(cudaGetLastError()));
		return BENCH_FAIL;
	}
	const int ni = (int)n;
	if (x->dt) {
		const double one = 1, zero = 0;
		st = cublasDgemm(s->cb, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, s->db, ni, s->da, ni, &zero, s->dc, ni);
	} else {
		const float one = 1, zero = 0;
		st = cublasGemmEx(s->cb, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, s->db, CUDA_R_32F, ni, s->da,
		                  CUDA_R_32F, ni, &zero, s->dc, CUDA_R_32F, ni,
		                  s->mode == GK_PRECISION_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,
		                  CUBLAS_GEMM_DEFAULT);
	}
	if (st != CUBLAS_STATUS_SUCCESS || cudaMemcpy(x->c, s->dc, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
		snprintf(c->why, sizeof c->why, "cuBLAS status %d / %s", (int)st, cudaGetErrorString(cudaGetLastError()));
		return BENCH_FAIL;
	}
	return 0;
}

const bench_ops hm_ops = {hm_prepare, hm_run1, NULL, NULL, NULL, hm_release};

/* ---- The cell ----------------------------------------------------------- */

static void cell_free(hm_cell *x)
{
	void *p[3] = {x->a, x->b, x->c};
	for (int i = 0; i < 3; i++) {
		if (p[i] == NULL)
			continue;
		if (x->pageable)
			free(p[i]);
		else
			cudaFreeHost(p[i]);
	}
	free(x->ref);
	x->a = x->b = x->c = NULL;
	x->ref = NULL;
}

static void fill(int dt, void *p, size_t count, uint64_t seed)
{
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < count; i++) {
		uint64_t z = seed + i * 0x9e3779b97f4a7c15ull;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		const double v = (double)(z >> 11) / 9007199254740992.0 * 2 - 1;
		if (dt)
			((double *)p)[i] = v;
		else
			((float *)p)[i] = (float)v;
	}
}

static double av(const hm_cell *x, const void *p, size_t i)
{
	return x->dt ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

int hm_cell_setup(void *data, char *why, size_t len)
{
	hm_cell *x = data;
	const size_t nn = (size_t)x->n * (size_t)x->n, bytes = nn * es_of(x->dt);
	void **p[3] = {&x->a, &x->b, &x->c};
	for (int i = 0; i < 3; i++) {
		if (x->pageable)
			*p[i] = malloc(bytes);
		else if (cudaHostAlloc(p[i], bytes, cudaHostAllocDefault) != cudaSuccess)
			*p[i] = NULL;
		if (*p[i] == NULL) {
			cudaGetLastError();
			cell_free(x);
			snprintf(why, len, "no %s host memory for 3 x %.1f GB", x->pageable ? "pageable" : "pinned",
			         (double)bytes / 1e9);
			return -1;
		}
	}
	fill(x->dt, x->a, nn, 11), fill(x->dt, x->b, nn, 12), fill(x->dt, x->c, nn, 13);
	/* Sampled rows and their reference in double, B read once. */
	const int64_t n = x->n, nr = n < HM_ROWS ? n : HM_ROWS;
	for (int64_t r = 0; r < nr; r++)
		x->rows[r] = (n * (2 * r + 1)) / (2 * nr);
	x->ref = calloc((size_t)(nr * n), sizeof(double));
	if (x->ref == NULL) {
		cell_free(x);
		snprintf(why, len, "no memory for the reference");
		return -1;
	}
	double nb = 0, na = 0;
#pragma omp parallel for schedule(static) reduction(+ : nb)
	for (int64_t j0 = 0; j0 < n; j0 += 256) {
		const int64_t j1 = j0 + 256 < n ? j0 + 256 : n;
		for (int64_t q = 0; q < n; q++)
			for (int64_t j = j0; j < j1; j++) {
				const double bv = av(x, x->b, (size_t)q * (size_t)n + (size_t)j);
				nb += bv * bv;
				for (int64_t r = 0; r < nr; r++)
					x->ref[r * n + j] += av(x, x->a, (size_t)x->rows[r] * (size_t)n + (size_t)q) * bv;
			}
	}
	for (int64_t r = 0; r < nr; r++)
		for (int64_t q = 0; q < n; q++) {
			const double v = av(x, x->a, (size_t)x->rows[r] * (size_t)n + (size_t)q);
			na += v * v;
		}
	x->norm_a = sqrt(na), x->norm_b = sqrt(nb);
	return 0;
}

void hm_cell_teardown(void *data)
{
	cell_free(data);
}

void hm_cell_poison(void *data, bench_contender *c)
{
	(void)c;
	hm_cell *x = data;
	const size_t bytes = (size_t)x->n * (size_t)x->n * es_of(x->dt);
#pragma omp parallel for schedule(static)
	for (size_t o = 0; o < bytes; o += (size_t)1 << 24)
		memset((char *)x->c + o, 0xff, bytes - o < ((size_t)1 << 24) ? bytes - o : ((size_t)1 << 24));
}

int hm_cell_check(void *data, bench_contender *c, double *err, char *why, size_t len)
{
	hm_cell *x = data;
	const hm_side *s = c->self;
	const size_t nn = (size_t)x->n * (size_t)x->n;
	int64_t bad = -1;
#pragma omp parallel for schedule(static) reduction(max : bad)
	for (size_t i = 0; i < nn; i++)
		if (!isfinite(elem(x, i)) && (int64_t)i > bad)
			bad = (int64_t)i;
	if (bad >= 0) {
		*err = INFINITY;
		snprintf(why, len, "C(%lld, %lld) is not finite: NaN, Inf or not written", (long long)(bad / x->n),
		         (long long)(bad % x->n));
		return -1;
	}
	const int64_t nr = x->n < HM_ROWS ? x->n : HM_ROWS;
	double d2 = 0;
	for (int64_t r = 0; r < nr; r++)
		for (int64_t j = 0; j < x->n; j++) {
			const double d = elem(x, (size_t)x->rows[r] * (size_t)x->n + (size_t)j) - x->ref[r * x->n + j];
			d2 += d * d;
		}
	*err = sqrt(d2) / (x->norm_a * x->norm_b);
	const double bound = gkc_gemm_bound_mode(x->dt ? GK_DTYPE_F64 : GK_DTYPE_F32, x->n,
	                                         x->dt ? GK_PRECISION_STRICT : s->mode, HM_FACTOR);
	if (!(*err <= bound)) {
		snprintf(why, len, "error %.3g over %d sampled rows; bound %.3g", *err, (int)nr, bound);
		return -1;
	}
	return 0;
}

void hm_side_free(hm_side *s)
{
	gk_context_destroy(s->ctx);
	if (s->xt)
		cublasXtDestroy(s->xt);
	if (s->cb)
		cublasDestroy(s->cb);
	s->ctx = NULL, s->xt = NULL, s->cb = NULL;
}
#endif
