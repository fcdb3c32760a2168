/*
 * gpu_hostmem.c - the host-pointer GPU suites of `gemmkit bench`
 * (gpu-hostmem, gpu-hostmem-heavy): C = A B with A, B and C in host
 * memory, square N x N, timed end to end by the host clock (copies,
 * allocations of the call and synchronization included), on the
 * measurement engine. Contenders (--algos):
 *
 *   gemmkit[-accurate|-tf32]   gk_sgemm_ex / gk_dgemm_ex, CUDA backend, in
 *                              that precision mode (out-of-core driver)
 *   gemmkit-b2, -b4, -b8       the same (strict) with a device budget of
 *                              1/2, 1/4, 1/8 of A + B + C
 *   gemmkit-pageable           the same on pageable host memory
 *   cublasxt[-pageable]        cublasXtSgemm / cublasXtDgemm on device 0,
 *                              its block dimension tuned per size (the
 *                              fastest of 2048 .. 16384 up to N = 16384,
 *                              16384 above)
 *   cublas-copies[-tf32]       cuBLAS in core: cudaMemcpy of A and B,
 *                              cublasSgemm (or FAST_TF32), cudaMemcpy of C
 *                              (device buffers allocated before the clock)
 *
 * Cells: one per precision, size and kind of host memory (pinned:
 * cudaHostAlloc, pageable: malloc); a cell holds only its own A, B, C, so
 * that N = 90000 (97 GB) fits a host of 128 GB. The check: C poisoned with
 * NaN, every element finite, and 8 sampled rows against a double-precision
 * reference (computed once per cell, B read once): normwise error
 * ||C - C_ref|| / (||A_rows|| ||B||) over those rows within the contender's
 * precision-mode bound (gkc_gemm_bound_mode, factor 8).
 */
#define _GNU_SOURCE
#include "gpu_hostmem.h"
#include "gpu.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "engine.h"
#include "gemm_check.h"
#include "gemmkit.h"
#include "report.h"

#define CMD "bench"
#define HM_MAX 16
#define HM_ROWS 8
#define HM_FACTOR 8.0

#ifdef GK_BENCH_CUDA
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

enum { HM_GK, HM_XT, HM_COPIES };

typedef struct hm_side {
	int what;
	gk_precision mode;
	int budget_div;      /* gemmkit: budget = data / budget_div; 0: default */
	int pageable;
	gk_context *ctx;
	cublasXtHandle_t xt;
	int xt_block;
	cublasHandle_t cb;
	void *da, *db, *dc;
} hm_side;

typedef struct hm_cell {
	int dt, pageable;
	int64_t n;
	void *a, *b, *c;
	int64_t rows[HM_ROWS];
	double *ref, norm_a, norm_b;
} hm_cell;

static const struct {
	const char *id;
	int what;
	gk_precision mode;
	int div, pageable;
} hm_kinds[] = {
	{"gemmkit", HM_GK, GK_PRECISION_STRICT, 0, 0},
	{"gemmkit-accurate", HM_GK, GK_PRECISION_ACCURATE, 0, 0},
	{"gemmkit-tf32", HM_GK, GK_PRECISION_TF32, 0, 0},
	{"gemmkit-b2", HM_GK, GK_PRECISION_STRICT, 2, 0},
	{"gemmkit-b4", HM_GK, GK_PRECISION_STRICT, 4, 0},
	{"gemmkit-b8", HM_GK, GK_PRECISION_STRICT, 8, 0},
	{"gemmkit-pageable", HM_GK, GK_PRECISION_STRICT, 0, 1},
	{"cublasxt", HM_XT, GK_PRECISION_STRICT, 0, 0},
	{"cublasxt-pageable", HM_XT, GK_PRECISION_STRICT, 0, 1},
	{"cublas-copies", HM_COPIES, GK_PRECISION_STRICT, 0, 0},
	{"cublas-copies-tf32", HM_COPIES, GK_PRECISION_TF32, 0, 0},
};
#define HM_NKINDS ((int)(sizeof hm_kinds / sizeof hm_kinds[0]))

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

static int hm_prepare(bench_contender *c, void *cell)
{
	hm_side *s = c->self;
	hm_cell *x = cell;
	const size_t bytes = (size_t)x->n * (size_t)x->n * es_of(x->dt);
	if (x->dt && (s->mode != GK_PRECISION_STRICT)) {
		snprintf(c->why, sizeof c->why, "a float precision mode");
		return BENCH_SKIP;
	}
	if (s->what == HM_GK) {
		gk_context_set_device_budget(s->ctx, s->budget_div ? 3 * bytes / (size_t)s->budget_div : 0);
		return 0;
	}
	if (s->what == HM_XT) {
		if (s->xt == NULL) {
			int dev = 0;
			if (cublasXtCreate(&s->xt) != CUBLAS_STATUS_SUCCESS ||
			    cublasXtDeviceSelect(s->xt, 1, &dev) != CUBLAS_STATUS_SUCCESS) {
				snprintf(c->why, sizeof c->why, "cublasXtCreate / DeviceSelect failed");
				return BENCH_UNAVAILABLE;
			}
		}
		/* Tune the block dimension up to N = 16384; 16384 beyond. */
		int best = 16384;
		if (x->n <= 16384) {
			double bt = 1e30;
			for (int bd = 2048; bd <= 16384 && bd <= 2 * x->n; bd *= 2) {
				cublasXtSetBlockDim(s->xt, bd);
				double t = xt_call(s, x);
				if (t > 0 && t < bt)
					bt = t, best = bd;
			}
		}
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

static const bench_ops hm_ops = {hm_prepare, hm_run1, NULL, NULL, NULL, hm_release};

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

static int cell_setup(void *data, char *why, size_t len)
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

static void cell_teardown(void *data)
{
	cell_free(data);
}

static void cell_poison(void *data, bench_contender *c)
{
	(void)c;
	hm_cell *x = data;
	const size_t bytes = (size_t)x->n * (size_t)x->n * es_of(x->dt);
#pragma omp parallel for schedule(static)
	for (size_t o = 0; o < bytes; o += (size_t)1 << 24)
		memset((char *)x->c + o, 0xff, bytes - o < ((size_t)1 << 24) ? bytes - o : ((size_t)1 << 24));
}

static int cell_check(void *data, bench_contender *c, double *err, char *why, size_t len)
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

/* ---- The run ------------------------------------------------------------- */

static int choose(const bench_opts *o, bench_contender *cs, hm_side *sd, int *nc)
{
	const char *p = o->algos;
	*nc = 0;
	while (*p) {
		const char *e = strchr(p, ',');
		const size_t l = e ? (size_t)(e - p) : strlen(p);
		int k = -1;
		for (int i = 0; i < HM_NKINDS; i++)
			if (strlen(hm_kinds[i].id) == l && !strncmp(hm_kinds[i].id, p, l))
				k = i;
		/* A float cuda.* algorithm by name (the seeds' GPU rows): gemmkit's
		 * host-pointer path with that algorithm, checked against its mode. */
		gk_algo_info ai;
		int named = 0;
		for (int i = 0; k < 0 && i < gk_algo_count(); i++)
			if (gk_algo_get(i, &ai) == GK_OK && ai.backend == GK_BACKEND_CUDA &&
			    (ai.dtypes & GK_DTYPE_F32) && strlen(ai.name) == l && !strncmp(ai.name, p, l))
				named = 1, k = 0;
		if (k < 0 || *nc >= HM_MAX) {
			cli_error(CMD, "--algos: \"%.*s\" is not a host-memory contender (or too many); the names are "
			          "gemmkit gemmkit-accurate gemmkit-tf32 gemmkit-b2 gemmkit-b4 gemmkit-b8 gemmkit-pageable "
			          "cublasxt cublasxt-pageable cublas-copies cublas-copies-tf32, or a float cuda.* algorithm",
			          (int)l, p);
			return 2;
		}
		bench_contender *c = &cs[*nc];
		hm_side *s = &sd[*nc];
		memset(c, 0, sizeof *c);
		memset(s, 0, sizeof *s);
		snprintf(c->id, sizeof c->id, "%s", named ? ai.name : hm_kinds[k].id);
		snprintf(c->name, sizeof c->name, "%s", c->id);
		c->units = BENCH_GFLOPS;
		c->ops = &hm_ops;
		c->self = s;
		s->what = hm_kinds[k].what, s->mode = hm_kinds[k].mode;
		s->budget_div = hm_kinds[k].div, s->pageable = hm_kinds[k].pageable;
		if (named)
			s->mode = ai.precision;
		if (s->what == HM_GK && (gk_context_create(&s->ctx) != GK_OK ||
		                         gk_context_set_backend(s->ctx, GK_BACKEND_CUDA) != GK_OK ||
		                         gk_context_set_precision(s->ctx, s->mode) != GK_OK ||
		                         (named && gk_context_set_algo(s->ctx, ai.name) != GK_OK))) {
			cli_error(CMD, "%s: %s", c->id, gk_last_error());
			return 1;
		}
		(*nc)++;
		p = e ? e + 1 : p + l;
	}
	return 0;
}

int bench_run_hostmem(const bench_opts *o)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
		cli_error(CMD, "--suite %s needs a CUDA device", o->suite->name);
		return 1;
	}
	static bench_contender cs[HM_MAX];
	static hm_side sd[HM_MAX];
	int nc = 0, rc = choose(o, cs, sd, &nc);
	if (rc != 0 || o->list) {
		for (int i = 0; i < nc && o->list; i++)
			printf("%s\thost-memory GEMM contender\n", cs[i].id);
		return rc;
	}
	bench_report rep;
	if (bench_report_begin(&rep, o->out, o->suite->name, o->argc, o->argv) != 0)
		return 1;
	bench_engine eng;
	bench_engine_init(&eng, o->quick);
	eng.cap = o->cap;
	eng.reps = o->reps;
	FILE *csv = bench_report_open(&rep, "results.csv");
	if (csv)
		fprintf(csv, "dtype,n,memory,contender,status,seconds,tflops,error,note\n");
	/* The lines of the report, put after the header once the run is over
	 * (the header says how long it took). */
	char *body_buf = NULL;
	size_t body_len = 0;
	FILE *body = open_memstream(&body_buf, &body_len);
	if (body == NULL)
		body = rep.md;
	for (int dt = 0; dt < 2; dt++)
		for (int si = 0; si < o->nshapes && o->dtype[dt]; si++)
			for (int pg = 0; pg < 2; pg++) {
				bench_contender sub[HM_MAX];
				int idx[HM_MAX], ns = 0;
				for (int i = 0; i < nc; i++)
					if (sd[i].pageable == pg)
						idx[ns] = i, sub[ns++] = cs[i];
				if (ns == 0)
					continue;
				hm_cell x;
				memset(&x, 0, sizeof x);
				x.dt = dt, x.pageable = pg, x.n = o->shapes[si].n;
				bench_cell cell;
				memset(&cell, 0, sizeof cell);
				snprintf(cell.label, sizeof cell.label, "%s n=%lld %s", dt ? "dgemm" : "sgemm", (long long)x.n,
				         pg ? "pageable" : "pinned");
				cell.series = dt * 2 + pg;
				cell.work = 2.0 * (double)x.n * (double)x.n * (double)x.n;
				cell.threads = 1;
				cell.data = &x;
				cell.setup = cell_setup, cell.before_check = cell_poison, cell.check = cell_check;
				cell.teardown = cell_teardown;
				bench_result res[HM_MAX];
				bench_run_cell(&eng, sub, ns, &cell, res);
				fprintf(body, "- %s N = %lld, %s:", dt ? "DGEMM" : "SGEMM", (long long)x.n,
				        pg ? "pageable" : "pinned");
				for (int i = 0; i < ns; i++) {
					cs[idx[i]] = sub[i];
					const bench_result *r = &res[i];
					if (r->status == BENCH_OK)
						fprintf(body, " %s %.3f s (%.1f TFLOPS);", sub[i].id, r->median_s, r->rate / 1e3);
					else
						fprintf(body, " %s %s;", sub[i].id, bench_status_mark(r->status));
					if (csv)
						fprintf(csv, "%s,%lld,%s,%s,%s,%.6g,%.6g,%.3g,\"%s\"\n", dt ? "d" : "s", (long long)x.n,
						        pg ? "pageable" : "pinned", sub[i].id,
						        r->status == BENCH_OK ? "ok" : bench_status_mark(r->status), r->median_s,
						        r->rate / 1e3, r->err, sub[i].why);
				}
				fprintf(body, "\n");
			}
	if (csv)
		bench_report_close(&rep, csv, "results.csv");
	fprintf(body, "\nresults.csv has every figure, the error of each check and cuBLASXt's block dimension.\n");
	char dev[512];
	gpu_describe(dev, sizeof dev);
	if (body != rep.md)
		fclose(body);
	bench_md_header(&rep, rep.md);
	fprintf(rep.md, "\n- GPU: %s\n\nHost memory to host memory, end to end (host clock), C = A B, N x N x N.\n\n", dev);
	if (body != rep.md && body_buf != NULL)
		fwrite(body_buf, 1, body_len, rep.md);
	free(body_buf);
	bench_report_finish(&rep);
	rc = rep.failed || eng.failed;
	for (int i = 0; i < nc; i++) {
		gk_context_destroy(sd[i].ctx);
		if (sd[i].xt)
			cublasXtDestroy(sd[i].xt);
		if (sd[i].cb)
			cublasDestroy(sd[i].cb);
	}
	return rc;
}

#else /* no CUDA in this build */

int bench_run_hostmem(const bench_opts *o)
{
	cli_error(CMD, "--suite %s: gemmkit bench was built without CUDA and cuBLAS", o->suite->name);
	return 1;
}
#endif
