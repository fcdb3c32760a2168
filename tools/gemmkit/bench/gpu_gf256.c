/*
 * gpu_gf256.c - `gemmkit bench --suite gpu-gf256`: GF(2^8) products and
 * Reed-Solomon coding on the GPU, on the measurement engine.
 *
 * For every code k+m (--codes) and data size S (--sizes, bytes of data in
 * all k shards, default 1 GiB), two tables:
 *  1. Data resident on the device: B is k rows of S / k bytes, C m rows.
 *     Contenders: the device-to-device copy of the k rows (cudaMemcpyAsync),
 *     the production kernel cuda.gf256 and the seed's ladder (cuda.gf_naive,
 *     _square, _tiled, _packed4, _packed8) through gk_gf256_gemm_device.
 *     Rate: bytes read plus bytes written per second ((k + m) S / k for a
 *     kernel, 2 x copied for the copy), so a kernel at the copy's rate moves
 *     memory as fast as the device can.
 *  2. Data in host memory, encode and decode (shards 0 and 1 lost): the
 *     host-to-device copy of the k data rows from pinned memory (the ceiling),
 *     gk_rs_encode_ex / gk_rs_reconstruct_ex with a GK_BACKEND_CUDA context
 *     on pinned and on pageable shards, and the same calls on the CPU
 *     (every processor). Rate: GB/s of data (k x shard bytes). ISA-L on the
 *     same machine is in `gemmkit bench --suite gf256`.
 * Every result is checked first against gk_gf256_gemm on the CPU (byte for
 * byte); a wrong one is ERR and makes the exit status 1. Times: the host
 * clock around cudaDeviceSynchronize, medians over the rounds.
 * Built with CUDA (GK_BENCH_CUDA); without it the suite says so and fails.
 */
#include "gpu_gf256.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "engine.h"
#include "gemmkit.h"
#include "report.h"

#define CMD "bench"

#ifndef GK_BENCH_CUDA
int bench_run_gpu_gf256(const bench_opts *o)
{
	(void)o;
	cli_error(CMD, "--suite gpu-gf256: this gemmkit was built without CUDA");
	return 1;
}
#else
#include <cuda_runtime.h>

enum { GG_COPY = 0, GG_KERNEL, GG_H2D, GG_GPU_PINNED, GG_GPU_PAGEABLE, GG_CPU };

typedef struct gg_who {
	int kind;
	const char *algo; /* GG_KERNEL */
} gg_who;

typedef struct gg_cell {
	int k, m, op;  /* op: 0 encode, 1 decode (host cells) */
	int64_t n;     /* bytes per row */
	uint8_t a[255 * 255];
	uint8_t *db, *dc, *dcopy;          /* device */
	uint8_t *pin, *page;               /* host shards, (k + m) x n each */
	uint8_t *ref;                      /* parity on the CPU, m x n */
	uint8_t *tmp;                      /* m x n, for checks */
	gk_rs *rs;
	gk_context *gpu, *cpu;
} gg_cell;

#define GG_MAXC 8
static const char *const kernels[] = {"cuda.gf256",     "cuda.gf_packed8", "cuda.gf_packed4",
                                      "cuda.gf_tiled",  "cuda.gf_square",  "cuda.gf_naive"};
#define GG_NK 6

static int cu_ok(cudaError_t e, bench_contender *c, const char *what)
{
	if (e == cudaSuccess)
		return 0;
	snprintf(c->why, sizeof c->why, "%s: %s", what, cudaGetErrorString(e));
	return -1;
}

static uint8_t **rows(uint8_t *base, int n, int64_t len, uint8_t **out)
{
	for (int i = 0; i < n; i++)
		out[i] = base + (size_t)i * (size_t)len;
	return out;
}

static int gg_run(bench_contender *c, void *cell)
{
	gg_cell *x = cell;
	const gg_who *w = c->self;
	uint8_t *r[512];
	uint8_t present[256];
	gk_status st = GK_OK;
	switch (w->kind) {
	case GG_COPY:
		return cu_ok(cudaMemcpyAsync(x->dcopy, x->db, (size_t)(x->k * x->n),
		                             cudaMemcpyDeviceToDevice, 0), c, "copy") ? BENCH_FAIL : 0;
	case GG_H2D:
		return cu_ok(cudaMemcpyAsync(x->db, x->pin, (size_t)(x->k * x->n),
		                             cudaMemcpyHostToDevice, 0), c, "h2d") ? BENCH_FAIL : 0;
	case GG_KERNEL:
		st = gk_gf256_gemm_device(NULL, w->algo, x->m, x->n, x->k, x->a, x->k, x->db, x->n,
		                          x->dc, x->n);
		break;
	default: {
		uint8_t *base = w->kind == GG_GPU_PINNED ? x->pin : x->page;
		const gk_context *ctx = w->kind == GG_CPU ? x->cpu : x->gpu;
		rows(base, x->k + x->m, x->n, r);
		if (x->op == 0) {
			st = gk_rs_encode_ex(ctx, x->rs, x->n, (const uint8_t *const *)r, r + x->k);
		} else {
			for (int i = 0; i < x->k + x->m; i++)
				present[i] = i >= 2;
			st = gk_rs_reconstruct_ex(ctx, x->rs, x->n, r, present, 1);
		}
	}
	}
	if (st != GK_OK) {
		snprintf(c->why, sizeof c->why, "%s", gk_last_error());
		return BENCH_FAIL;
	}
	return 0;
}

static void gg_sync(bench_contender *c, void *cell)
{
	(void)c, (void)cell;
	cudaDeviceSynchronize();
}

/* The copy's work is what it moves both ways; the rest take the cell's. */
static int gg_prepare(bench_contender *c, void *cell)
{
	const gg_cell *x = cell;
	if (((const gg_who *)c->self)->kind == GG_COPY)
		c->work = 2.0 * (double)x->k * (double)x->n;
	return 0;
}

static const bench_ops gg_ops = {gg_prepare, gg_run, gg_sync, NULL, NULL, NULL};

static void gg_poison(void *data, bench_contender *c)
{
	gg_cell *x = data;
	const gg_who *w = c->self;
	if (w->kind == GG_KERNEL)
		cudaMemset(x->dc, 0x5A, (size_t)(x->m * x->n));
	else if (w->kind == GG_GPU_PINNED || w->kind == GG_GPU_PAGEABLE || w->kind == GG_CPU) {
		uint8_t *base = w->kind == GG_GPU_PINNED ? x->pin : x->page;
		if (x->op == 0)
			memset(base + (size_t)x->k * x->n, 0x5A, (size_t)(x->m * x->n));
		else
			memset(base, 0x5A, (size_t)(2 * x->n));
	}
}

static int gg_check(void *data, bench_contender *c, double *err, char *why, size_t len)
{
	gg_cell *x = data;
	const gg_who *w = c->self;
	*err = NAN;
	if (w->kind == GG_COPY || w->kind == GG_H2D)
		return 0;
	const uint8_t *got;
	const uint8_t *want = x->ref;
	size_t bytes = (size_t)(x->m * x->n);
	if (w->kind == GG_KERNEL) {
		if (cudaMemcpy(x->tmp, x->dc, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
			snprintf(why, len, "copy back failed");
			return -1;
		}
		got = x->tmp;
	} else {
		const uint8_t *base = w->kind == GG_GPU_PINNED ? x->pin : x->page;
		if (x->op == 0) {
			got = base + (size_t)x->k * x->n;
		} else { /* the rebuilt shards 0, 1 against the pageable originals' ... */
			got = base;
			want = x->tmp; /* the data kept aside at setup */
			bytes = (size_t)(2 * x->n);
		}
	}
	if (memcmp(got, want, bytes) != 0) {
		snprintf(why, len, "bytes differ from the CPU's");
		return -1;
	}
	return 0;
}

static void cell_free(gg_cell *x)
{
	cudaFree(x->db), cudaFree(x->dc), cudaFree(x->dcopy);
	cudaFreeHost(x->pin);
	free(x->page), free(x->ref), free(x->tmp);
	gk_rs_destroy(x->rs);
	gk_context_destroy(x->gpu), gk_context_destroy(x->cpu);
	memset(x, 0, sizeof *x);
}

/* Inputs, the CPU's parity, device or host buffers. 0 or -1 (message). */
static int cell_init(gg_cell *x, int k, int m, int64_t n, int host, uint64_t seed)
{
	memset(x, 0, sizeof *x);
	x->k = k, x->m = m, x->n = n;
	if (gk_rs_create(&x->rs, k, m, GK_RS_CAUCHY) != GK_OK ||
	    gk_context_create(&x->gpu) != GK_OK || gk_context_create(&x->cpu) != GK_OK)
		return -1;
	gk_context_set_backend(x->gpu, GK_BACKEND_CUDA);
	gk_context_set_backend(x->cpu, GK_BACKEND_CPU);
	uint8_t mat[256 * 255];
	gk_rs_matrix_get(x->rs, mat);
	memcpy(x->a, mat + (size_t)k * k, (size_t)(m * k));
	const size_t all = (size_t)(k + m) * (size_t)n;
	x->page = malloc(all);
	x->ref = malloc((size_t)(m * n));
	x->tmp = malloc((size_t)((m > 2 ? m : 2) * n));
	if (x->page == NULL || x->ref == NULL || x->tmp == NULL)
		return -1;
	uint64_t s = seed | 1;
	for (size_t i = 0; i < (size_t)k * n; i += 8) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		memcpy(x->page + i, &s, (size_t)k * n - i < 8 ? (size_t)k * n - i : 8);
	}
	uint8_t *r[512];
	rows(x->page, k + m, n, r);
	if (gk_gf256_gemm(m, n, k, x->a, k, x->page, n, x->ref, n) != GK_OK)
		return -1;
	memcpy(x->page + (size_t)k * n, x->ref, (size_t)(m * n));
	if (host) {
		memcpy(x->tmp, x->page, (size_t)(2 * n)); /* the data shards decode rebuilds */
		if (cudaMallocHost((void **)&x->pin, all) != cudaSuccess ||
		    cudaMalloc((void **)&x->db, (size_t)k * n) != cudaSuccess)
			return -1;
		memcpy(x->pin, x->page, all);
	} else {
		if (cudaMalloc((void **)&x->db, (size_t)k * n) != cudaSuccess ||
		    cudaMalloc((void **)&x->dc, (size_t)(m * n)) != cudaSuccess ||
		    cudaMalloc((void **)&x->dcopy, (size_t)k * n) != cudaSuccess)
			return -1;
		cudaMemcpy(x->db, x->page, (size_t)k * n, cudaMemcpyHostToDevice);
	}
	return 0;
}

typedef struct gg_row {
	int k, m, table; /* table 0: device, 1: encode, 2: decode */
	int64_t bytes;
	int nc;
	char id[GG_MAXC][32];
	bench_result r[GG_MAXC];
} gg_row;

static void report(const bench_opts *o, gg_row *rows_, int nrows, bench_report *rep)
{
	static const char *const title[3] = {
		"Data resident on the device: GB/s of bytes read + written",
		"Encode from host buffers: GB/s of data", "Decode (2 data shards lost) from host buffers: GB/s of data"};
	FILE *md = rep->md;
	bench_md_header(rep, md);
	fputs("\n", md);
	char dev[320] = "";
	struct cudaDeviceProp prop;
	if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
		snprintf(dev, sizeof dev, "%s (sm_%d%d, %d SMs)", prop.name, prop.major, prop.minor,
		         prop.multiProcessorCount);
	fprintf(md, "- GPU: %s\n\n", dev);
	FILE *csv = bench_report_open(rep, "results.csv");
	if (csv)
		fprintf(csv, "table,k,m,data_bytes,contender,status,median_s,rate_gbs,pct_of_first\n");
	for (int t = 0; t < 3; t++) {
		int first = 1;
		for (int i = 0; i < nrows; i++) {
			gg_row *r = &rows_[i];
			if (r->table != t)
				continue;
			if (first) {
				fprintf(md, "\n### %s\n\n| code | data |", title[t]);
				for (int c = 0; c < r->nc; c++)
					fprintf(md, " %s |", r->id[c]);
				fprintf(md, "\n|---|---|");
				for (int c = 0; c < r->nc; c++)
					fprintf(md, "---|");
				fprintf(md, "\n");
				first = 0;
			}
			fprintf(md, "| %d+%d | %.0f MiB |", r->k, r->m, (double)r->bytes / (1 << 20));
			const double base = r->r[0].status == BENCH_OK ? r->r[0].rate : NAN;
			for (int c = 0; c < r->nc; c++) {
				const bench_result *b = &r->r[c];
				if (b->status == BENCH_OK)
					fprintf(md, " %.1f (%.0f%%) |", b->rate, 100 * b->rate / base);
				else
					fprintf(md, " %s |", bench_status_mark(b->status));
				if (csv)
					fprintf(csv, "%d,%d,%d,%lld,%s,%s,%.6g,%.4f,%.2f\n", t, r->k, r->m,
					        (long long)r->bytes, r->id[c],
					        b->status == BENCH_OK ? "ok" : bench_status_mark(b->status),
					        b->median_s, b->rate, 100 * b->rate / base);
			}
			fprintf(md, "\n");
		}
	}
	fprintf(md, "\nPercentages are of the first column: the device's copy (table 1), the\n"
	            "pinned host-to-device copy (tables 2, 3), measured in the same run.\n");
	if (csv)
		bench_report_close(rep, csv, "results.csv");
	FILE *meta = bench_report_open(rep, "meta.txt");
	if (meta) {
		bench_meta_machine(rep, meta);
		fprintf(meta, "gpu: %s\nreps: %lld\n", dev, (long long)o->reps);
		bench_report_close(rep, meta, "meta.txt");
	}
	/* Charts: one line per contender over the codes. */
	for (int t = 0; t < 3; t++) {
		double x[BENCH_MAX_CODES], y[GG_MAXC * BENCH_MAX_CODES];
		char lab[BENCH_MAX_CODES][16];
		const char *xl[BENCH_MAX_CODES], *names[GG_MAXC];
		int np = 0, nc = 0;
		for (int i = 0; i < nrows && np < BENCH_MAX_CODES; i++) {
			gg_row *r = &rows_[i];
			/* The rows of the first shard size: one point per code. */
			if (r->table != t || i >= o->ncodes * 3)
				continue;
			nc = r->nc;
			snprintf(lab[np], sizeof lab[np], "%d+%d", r->k, r->m);
			xl[np] = lab[np];
			x[np] = np;
			np++;
		}
		if (np == 0)
			continue;
		int p = 0;
		for (int i = 0; i < nrows; i++) {
			gg_row *r = &rows_[i];
			if (r->table != t || i >= o->ncodes * 3 || p >= np)
				continue;
			for (int c = 0; c < nc; c++) {
				names[c] = r->id[c];
				y[c * np + p] = r->r[c].status == BENCH_OK ? r->r[c].rate : NAN;
			}
			p++;
		}
		bench_chart ch = {title[t], "code k+m", "GB/s", 0, np, x, xl, 0};
		static const char *const base[3] = {"gpu_gf256_device", "gpu_gf256_encode",
		                                    "gpu_gf256_decode"};
		bench_plot_lines(rep->dir, base[t], &ch, nc, names, NULL, y);
	}
	bench_report_finish(rep);
}

int bench_run_gpu_gf256(const bench_opts *o)
{
	int count = 0;
	if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
		cli_error(CMD, "--suite gpu-gf256: no CUDA device");
		return 1;
	}
	const int nrows_max = o->ncodes * o->ngf_sizes * 3;
	gg_row *out = calloc((size_t)nrows_max, sizeof *out);
	bench_report rep;
	int rc = out == NULL || bench_report_begin(&rep, o->out, o->suite->name, o->argc, o->argv);
	if (rc) {
		free(out);
		return 1;
	}
	bench_engine eng;
	bench_engine_init(&eng, o->quick);
	eng.reps = o->reps ? o->reps : o->quick ? 3 : 7;
	eng.cap = o->cap;
	eng.total = nrows_max * 7;
	static gg_who who[GG_MAXC * 2];
	int nrows = 0;
	for (int si = 0; si < o->ngf_sizes; si++)
		for (int ci = 0; ci < o->ncodes; ci++)
			for (int t = 0; t < 3; t++) {
				const int k = o->codes[ci][0], m = o->codes[ci][1];
				const int64_t n = o->gf_sizes[si] / k / 256 * 256;
				gg_cell x;
				gg_row *row = &out[nrows++];
				row->k = k, row->m = m, row->table = t, row->bytes = n * k;
				bench_contender cs[GG_MAXC];
				memset(cs, 0, sizeof cs);
				int nc = 0;
				if (t == 0) {
					who[nc] = (gg_who){GG_COPY, NULL};
					snprintf(cs[nc].id, sizeof cs[nc].id, "d2d-copy");
					nc++;
					for (int i = 0; i < GG_NK; i++, nc++) {
						who[nc] = (gg_who){GG_KERNEL, kernels[i]};
						snprintf(cs[nc].id, sizeof cs[nc].id, "%s", kernels[i]);
					}
				} else {
					static const int kinds[4] = {GG_H2D, GG_GPU_PINNED, GG_GPU_PAGEABLE, GG_CPU};
					static const char *const ids[4] = {"h2d-copy", "cuda-pinned", "cuda-pageable",
					                                   "cpu"};
					for (int i = 0; i < 4; i++, nc++) {
						who[nc] = (gg_who){kinds[i], NULL};
						snprintf(cs[nc].id, sizeof cs[nc].id, "%s", ids[i]);
					}
				}
				for (int i = 0; i < nc; i++) {
					snprintf(cs[i].name, sizeof cs[i].name, "%s", cs[i].id);
					snprintf(row->id[i], sizeof row->id[i], "%s", cs[i].id);
					cs[i].units = BENCH_GBS;
					cs[i].ops = &gg_ops;
					cs[i].self = &who[i];
				}
				row->nc = nc;
				if (cell_init(&x, k, m, n, t > 0, o->seed + (uint64_t)ci) != 0) {
					cli_error(CMD, "%d+%d: cannot set up %lld bytes per row (%s)", k, m,
					          (long long)n, gk_last_error());
					cell_free(&x);
					rc = 1;
					continue;
				}
				x.op = t == 2;
				bench_cell cell;
				memset(&cell, 0, sizeof cell);
				snprintf(cell.label, sizeof cell.label, "%s %d+%d %lld MiB",
				         t == 0 ? "device" : t == 1 ? "encode" : "decode", k, m,
				         (long long)((n * k) >> 20));
				cell.series = t;
				cell.work = t == 0 ? (double)(k + m) * (double)n : (double)k * (double)n;
				cell.threads = 1;
				cell.data = &x;
				cell.before_check = gg_poison;
				cell.check = gg_check;
				bench_run_cell(&eng, cs, nc, &cell, row->r);
				cell_free(&x);
			}
	report(o, out, nrows, &rep);
	rc = rc || rep.failed || eng.failed;
	free(out);
	return rc;
}
#endif
