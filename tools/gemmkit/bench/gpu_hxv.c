/*
 * gpu_hxv.c - the gpu-hxv suite of `gemmkit bench`: E (m x k) times F
 * (k x n), float, row-major, m and n tiny and k huge, on the measurement
 * engine. Contenders (--algos):
 *
 *   floor            gk_hxv_read_device over E, then over F: a read-only
 *                    pass over the bytes every product must read
 *   cuda.hxv_basic   gk_sgemm_device with that algorithm (seed 003's BasicMM)
 *   cuda.hxv_phvm    the same, PHVM at the model's configuration
 *   cuda.hxv         the same, the production kernel
 *   cublas           cublasSgemm, C^T = F^T E^T (column-major, same bytes)
 *   cpu-auto         gk_sgemm_ex, GK_BACKEND_CPU, "auto" (host operands)
 *   auto             gk_sgemm_ex with a default context (host operands)
 *   cuda.hxv-host    gk_sgemm_ex, GK_BACKEND_CUDA, cuda.hxv on host
 *                    pointers: the streaming driver, copies included
 *
 * The first five form the device table: one cell per shape (--shapes), E and
 * F on the device once per cell, shared by every contender; each contender
 * has its own stream and C, and is timed by CUDA events around batches of
 * calls in interleaved rounds. A cell whose E and F with 1 GiB of slack do
 * not fit the device's free memory is not run (MTXC, 112 GB, on an 80 GB
 * card), and says so. The last three form the crossover table: m = n = 5
 * and k from --sizes (a square size N is read as k = N), E, F and C in
 * pageable host memory, timed by the host clock, each contender's rounds in
 * a row.
 *
 * Inputs and the reference (the exact product): gpu_hxv_cell.c. The check:
 * every element of C finite, and ||C - C_ref||_F / (||E||_F ||F||_F) within
 * gkc_gemm_bound (float, k, factor 8); the floor has no result to check.
 * Tables and charts: gpu_hxv_report.c.
 */
#define _GNU_SOURCE
#include "gpu_hxv.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"

#define CMD "bench"

int hxv_find(const hxv_table *t, const char *id)
{
	for (int i = 0; i < t->nc; i++)
		if (!strcmp(t->ids[i], id))
			return i;
	return -1;
}

#ifdef GK_BENCH_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <limits.h>
#include <omp.h>
#include "gemm_check.h"
#include "gemmkit.h"
#include "gpu.h"

#define HX_FACTOR 8.0

enum { HX_FLOOR, HX_DEV, HX_CUBLAS, HX_CPU, HX_AUTO, HX_HOSTGPU };

static const struct {
	const char *id;
	int what;
	const char *algo;
} hx_kinds[] = {
	{"floor", HX_FLOOR, NULL},
	{"cuda.hxv_basic", HX_DEV, "cuda.hxv_basic"},
	{"cuda.hxv_phvm", HX_DEV, "cuda.hxv_phvm"},
	{"cuda.hxv", HX_DEV, "cuda.hxv"},
	{"cublas", HX_CUBLAS, NULL},
	{"cpu-auto", HX_CPU, NULL},
	{"auto", HX_AUTO, NULL},
	{"cuda.hxv-host", HX_HOSTGPU, "cuda.hxv"},
};
#define HX_NKINDS ((int)(sizeof hx_kinds / sizeof hx_kinds[0]))

typedef struct hx_side {
	int what;
	gk_context *ctx;
	cudaStream_t stream;
	cudaEvent_t start, stop;
	float *dc;        /* device C */
	float *hc;        /* C where the check reads it (host contenders write it) */
	size_t c_count;   /* elements of dc and hc */
	int download;     /* copy dc to hc at the next sync (the checked run) */
} hx_side;

static cublasHandle_t hx_cublas;

static void hx_poison(void *data, bench_contender *c)
{
	(void)data;
	hx_side *s = c->self;
	if (s->what == HX_FLOOR)
		return;
	if (s->hc)
		memset(s->hc, 0xff, s->c_count * sizeof(float));
	if (s->dc) {
		if (cudaMemsetAsync(s->dc, 0xff, s->c_count * sizeof(float), s->stream) != cudaSuccess)
			fprintf(stderr, "gemmkit bench: %s: cudaMemsetAsync: %s\n", c->id,
			        cudaGetErrorString(cudaGetLastError()));
		s->download = 1;
	}
}

static int hx_check(void *data, bench_contender *c, double *err, char *why, size_t len)
{
	hxv_cell *x = data;
	hx_side *s = c->self;
	if (s->what == HX_FLOOR)
		return 0; /* reads only */
	const int64_t mn = x->m * x->n;
	double d2 = 0;
	for (int64_t i = 0; i < mn; i++) {
		if (!isfinite(s->hc[i])) {
			*err = INFINITY;
			snprintf(why, len, "C(%lld, %lld) is not finite: NaN, Inf or not written", (long long)(i / x->n),
			         (long long)(i % x->n));
			return -1;
		}
		const double d = (double)s->hc[i] - x->ref[i];
		d2 += d * d;
	}
	*err = sqrt(d2) / (x->norm_e * x->norm_f);
	const double bound = gkc_gemm_bound(GK_DTYPE_F32, x->k, HX_FACTOR);
	if (!(*err <= bound)) {
		snprintf(why, len, "error %.3g against the exact product; bound %.3g", *err, bound);
		return -1;
	}
	return 0;
}

/* ---- The contenders ---------------------------------------------------------- */

static int hx_run(bench_contender *c, void *cell);

static int hx_prepare(bench_contender *c, void *cell)
{
	hx_side *s = c->self;
	hxv_cell *x = cell;
	const size_t mn = (size_t)(x->m * x->n);
	if (s->what == HX_CUBLAS && x->k > INT_MAX) {
		snprintf(c->why, sizeof c->why, "k beyond cuBLAS's int");
		return BENCH_SKIP;
	}
	if (s->what != HX_FLOOR && s->c_count < mn) {
		cudaFree(s->dc), free(s->hc);
		s->dc = NULL, s->c_count = 0;
		s->hc = malloc(mn * sizeof(float));
		if (s->hc == NULL || (!x->host && cudaMalloc((void **)&s->dc, mn * sizeof(float)) != cudaSuccess)) {
			cudaGetLastError();
			snprintf(c->why, sizeof c->why, "no memory for C");
			return BENCH_SKIP;
		}
		s->c_count = mn;
	}
	/* One untimed call: what a first call does once (PHVM's model measures
	 * the device, occupancy queries, thread pools) stays out of the checked
	 * run's time, which sizes the batches. A failure shows in the checked run. */
	hx_run(c, cell);
	if (!x->host)
		cudaStreamSynchronize(s->stream);
	cudaGetLastError();
	c->why[0] = '\0';
	return 0;
}

static int hx_run(bench_contender *c, void *cell)
{
	hx_side *s = c->self;
	hxv_cell *x = cell;
	const int64_t m = x->m, n = x->n, k = x->k;
	gk_status st = GK_OK;
	switch (s->what) {
	case HX_FLOOR:
		st = gk_hxv_read_device(x->de, (size_t)(m * k) * sizeof(float), s->stream);
		if (st == GK_OK)
			st = gk_hxv_read_device(x->df, (size_t)(k * n) * sizeof(float), s->stream);
		break;
	case HX_DEV:
		st = gk_sgemm_device(s->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, x->de, k, x->df, n,
		                     0.0f, s->dc, n);
		break;
	case HX_CUBLAS: {
		const float one = 1, zero = 0;
		cublasStatus_t cs = cublasSetStream(hx_cublas, s->stream);
		if (cs == CUBLAS_STATUS_SUCCESS)
			cs = cublasSgemm(hx_cublas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, x->df, (int)n,
			                 x->de, (int)k, &zero, s->dc, (int)n);
		if (cs != CUBLAS_STATUS_SUCCESS) {
			snprintf(c->why, sizeof c->why, "cuBLAS status %d", (int)cs);
			return BENCH_FAIL;
		}
		return 0;
	}
	default: /* host operands */
		st = gk_sgemm_ex(s->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, m, n, k, 1.0f, x->he, k, x->hf, n, 0.0f,
		                 s->hc, n);
		break;
	}
	if (st == GK_OK)
		return 0;
	snprintf(c->why, sizeof c->why, "%s: %s", gk_strerror(st), gk_last_error());
	return BENCH_FAIL;
}

static void hx_sync(bench_contender *c, void *cell)
{
	(void)cell;
	hx_side *s = c->self;
	cudaError_t e = cudaStreamSynchronize(s->stream);
	if (e == cudaSuccess && s->download) {
		e = cudaMemcpy(s->hc, s->dc, s->c_count * sizeof(float), cudaMemcpyDeviceToHost);
		s->download = 0;
	}
	if (e != cudaSuccess)
		fprintf(stderr, "gemmkit bench: %s: %s\n", c->id, cudaGetErrorString(e));
}

static void hx_timer_start(bench_contender *c, void *cell)
{
	(void)cell;
	hx_side *s = c->self;
	cudaEventRecord(s->start, s->stream);
}

static double hx_timer_stop(bench_contender *c, void *cell)
{
	(void)cell;
	hx_side *s = c->self;
	float ms = 0;
	cudaEventRecord(s->stop, s->stream);
	if (cudaEventSynchronize(s->stop) != cudaSuccess || cudaEventElapsedTime(&ms, s->start, s->stop) != cudaSuccess) {
		cudaGetLastError();
		return -1;
	}
	return (double)ms * 1e-3;
}

static const bench_ops hx_dev_ops = {hx_prepare, hx_run, hx_sync, hx_timer_start, hx_timer_stop, NULL};
static const bench_ops hx_host_ops = {hx_prepare, hx_run, NULL, NULL, NULL, NULL};

static void hx_side_free(hx_side *s)
{
	if (s->start)
		cudaEventDestroy(s->start);
	if (s->stop)
		cudaEventDestroy(s->stop);
	if (s->stream)
		cudaStreamDestroy(s->stream);
	cudaFree(s->dc);
	free(s->hc);
	gk_context_destroy(s->ctx);
	memset(s, 0, sizeof *s);
}

/* A contender of kind k into c and s: 0, or 1 after a message. */
static int hx_side_init(int k, bench_contender *c, hx_side *s)
{
	memset(c, 0, sizeof *c);
	memset(s, 0, sizeof *s);
	snprintf(c->id, sizeof c->id, "%s", hx_kinds[k].id);
	snprintf(c->name, sizeof c->name, "%s", hx_kinds[k].id);
	c->units = BENCH_GBS;
	c->self = s;
	s->what = hx_kinds[k].what;
	const int host = s->what >= HX_CPU;
	c->ops = host ? &hx_host_ops : &hx_dev_ops;
	if (!host && (cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking) != cudaSuccess ||
	              cudaEventCreate(&s->start) != cudaSuccess || cudaEventCreate(&s->stop) != cudaSuccess)) {
		cli_error(CMD, "%s: CUDA stream or events: %s", c->id, cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	if (s->what == HX_FLOOR || s->what == HX_CUBLAS)
		return 0;
	gk_status st = gk_context_create(&s->ctx);
	if (st == GK_OK && hx_kinds[k].algo)
		st = gk_context_set_algo(s->ctx, hx_kinds[k].algo);
	if (st == GK_OK && s->what == HX_DEV)
		st = gk_context_set_stream(s->ctx, s->stream);
	if (st == GK_OK && s->what == HX_CPU)
		st = gk_context_set_backend(s->ctx, GK_BACKEND_CPU);
	if (st == GK_OK && s->what == HX_HOSTGPU)
		st = gk_context_set_backend(s->ctx, GK_BACKEND_CUDA);
	if (st != GK_OK) {
		cli_error(CMD, "%s: %s", c->id, gk_last_error());
		return 1;
	}
	return 0;
}

/* ---- The run --------------------------------------------------------------- */

static const char *hx_label(int64_t m, int64_t n, int64_t k)
{
	if (m == 3 && n == 3 && k == 50000000)
		return "MTXA";
	if (m == 5 && n == 5 && k == 300000000)
		return "MTXB";
	if (m == 7 && n == 7 && k == 2000000000)
		return "MTXC";
	return "";
}

/* --algos into the device and host contender lists: 0, or 2 after a message. */
static int hx_choose(const char *algos, int kinds[2][HXV_MAX_C], int nk[2])
{
	nk[0] = nk[1] = 0;
	for (const char *p = algos; *p;) {
		const char *e = strchr(p, ',');
		const size_t l = e ? (size_t)(e - p) : strlen(p);
		int k = -1;
		for (int i = 0; i < HX_NKINDS; i++)
			if (strlen(hx_kinds[i].id) == l && !strncmp(hx_kinds[i].id, p, l))
				k = i;
		const int t = k >= 0 && hx_kinds[k].what >= HX_CPU;
		if (k < 0 || nk[t] >= HXV_MAX_C) {
			cli_error(CMD, "--algos: \"%.*s\" is not a gpu-hxv contender (or too many); the names are floor "
			          "cuda.hxv_basic cuda.hxv_phvm cuda.hxv cublas (device table) cpu-auto auto cuda.hxv-host "
			          "(crossover)", (int)l, p);
			return 2;
		}
		int dup = 0;
		for (int i = 0; i < nk[t]; i++)
			dup |= kinds[t][i] == k;
		if (!dup)
			kinds[t][nk[t]++] = k;
		p = e ? e + 1 : p + l;
	}
	return 0;
}

/* One table's cells: the shapes with host == (square shape). */
static void hx_run_table(bench_engine *eng, const bench_opts *o, hxv_table *t, bench_contender *cs, int nc)
{
	for (int si = 0; si < o->nshapes && t->nrows < BENCH_MAX_SHAPES; si++) {
		const bench_shape *sh = &o->shapes[si];
		const int square = sh->m == sh->n && sh->n == sh->k;
		if (square != t->host)
			continue;
		hxv_row *r = &t->rows[t->nrows++];
		memset(r, 0, sizeof *r);
		r->m = t->host ? HXV_XOVER_MN : sh->m;
		r->n = t->host ? HXV_XOVER_MN : sh->n;
		r->k = sh->k;
		r->label = hx_label(r->m, r->n, r->k);
		r->bytes = (double)(r->m + r->n) * (double)r->k * sizeof(float);
		static hxv_cell x;
		memset(&x, 0, sizeof x);
		x.m = r->m, x.n = r->n, x.k = r->k, x.host = t->host, x.seed = o->seed;
		x.note = r->note, x.note_len = sizeof r->note;
		bench_cell cell;
		memset(&cell, 0, sizeof cell);
		snprintf(cell.label, sizeof cell.label, "%s m=%lld n=%lld k=%lld%s%s", t->host ? "host" : "device",
		         (long long)r->m, (long long)r->n, (long long)r->k, r->label[0] ? " " : "", r->label);
		cell.series = t->host;
		cell.work = r->bytes;
		cell.threads = t->host ? omp_get_max_threads() : 1;
		cell.data = &x;
		cell.setup = hxv_cell_setup, cell.before_check = hx_poison, cell.check = hx_check;
		cell.teardown = hxv_cell_teardown;
		bench_run_cell(eng, cs, nc, &cell, r->res);
		for (int i = 0; i < nc; i++)
			snprintf(r->why[i], sizeof r->why[i], "%s", cs[i].why);
	}
}

int bench_run_hxv(const bench_opts *o)
{
	int kinds[2][HXV_MAX_C], nk[2];
	int rc = hx_choose(o->algos, kinds, nk);
	if (rc != 0)
		return rc;
	if (o->list) {
		for (int t = 0; t < 2; t++)
			for (int i = 0; i < nk[t]; i++)
				printf("%s\t%s\n", hx_kinds[kinds[t][i]].id,
				       t ? "crossover: host operands, copies included" : "device table: device operands");
		return 0;
	}
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		cudaGetLastError();
		cli_error(CMD, "--suite %s needs a CUDA device", o->suite->name);
		return 1;
	}
	if (!o->dtype[0]) {
		cli_error(CMD, "--suite %s measures float products only (--dtype s)", o->suite->name);
		return 2;
	}
	if (cublasCreate(&hx_cublas) != CUBLAS_STATUS_SUCCESS) {
		cli_error(CMD, "cuBLAS could not be initialized");
		return 1;
	}
	static bench_contender cs[2][HXV_MAX_C];
	static hx_side sd[2][HXV_MAX_C];
	static hxv_table tab[2];
	for (int t = 0; t < 2; t++) {
		memset(&tab[t], 0, sizeof tab[t]);
		tab[t].host = t;
		tab[t].nc = nk[t];
		for (int i = 0; i < nk[t]; i++) {
			snprintf(tab[t].ids[i], sizeof tab[t].ids[i], "%s", hx_kinds[kinds[t][i]].id);
			if (hx_side_init(kinds[t][i], &cs[t][i], &sd[t][i]) != 0)
				rc = 1;
		}
	}
	bench_report rep;
	if (rc == 0 && bench_report_begin(&rep, o->out, o->suite->name, o->argc, o->argv) != 0)
		rc = 1;
	if (rc != 0) {
		for (int t = 0; t < 2; t++)
			for (int i = 0; i < nk[t]; i++)
				hx_side_free(&sd[t][i]);
		cublasDestroy(hx_cublas);
		return rc;
	}
	bench_engine eng;
	bench_engine_init(&eng, o->quick);
	eng.cap = o->cap;
	eng.reps = o->reps;
	for (int t = 0; t < 2; t++)
		if (nk[t] > 0)
			hx_run_table(&eng, o, &tab[t], cs[t], nk[t]);

	char dev[512];
	gpu_describe(dev, sizeof dev);
	bench_md_header(&rep, rep.md);
	fprintf(rep.md, "\n- GPU: %s. CPU threads of gemmkit and of the reference: %d.\n\n", dev, omp_get_max_threads());
	FILE *csv = bench_report_open(&rep, "results.csv");
	if (csv)
		fprintf(csv, "table,m,n,k,label,contender,status,ms,gbs,pct_floor,vs_cublas,vs_cpu,error,note\n");
	if (tab[0].nrows > 0)
		hxv_report_device(&tab[0], rep.md, csv);
	if (tab[1].nrows > 0)
		hxv_report_crossover(&tab[1], rep.md, csv);
	if (csv)
		bench_report_close(&rep, csv, "results.csv");
	if (o->plot)
		hxv_plot(&tab[0], &tab[1], rep.dir);
	FILE *meta = bench_report_open(&rep, "meta.txt");
	if (meta) {
		bench_meta_machine(&rep, meta);
		fprintf(meta, "gpu: %s\nalgos: %s\nseed: %llu\nreps: %lld\ncap: %g\n", dev, o->algos,
		        (unsigned long long)o->seed, (long long)o->reps, o->cap);
		bench_report_close(&rep, meta, "meta.txt");
	}
	bench_report_finish(&rep);
	rc = rep.failed || eng.failed;
	for (int t = 0; t < 2; t++)
		for (int i = 0; i < nk[t]; i++)
			hx_side_free(&sd[t][i]);
	cublasDestroy(hx_cublas);
	return rc;
}

#else /* no CUDA in this build */

int bench_run_hxv(const bench_opts *o)
{
	cli_error(CMD, "--suite %s: gemmkit bench was built without CUDA and cuBLAS", o->suite->name);
	return 1;
}
#endif
