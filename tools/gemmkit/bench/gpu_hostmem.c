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
 * precision-mode bound (gkc_gemm_bound_mode, factor 8). The contenders and
 * the cell are shared with gpu-multi (gpu_hostmem_cell.c); this file holds
 * the runner.
 */
#define _GNU_SOURCE
#include "gpu_hostmem.h"
#include "gpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "engine.h"
#include "gemmkit.h"
#include "report.h"

#define CMD "bench"
#define HM_MAX 16

#ifdef GK_BENCH_CUDA
#include <cuda_runtime.h>

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
		memcpy(c->name, c->id, sizeof c->id); /* id is the shorter, terminated */
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
				cell.setup = hm_cell_setup, cell.before_check = hm_cell_poison, cell.check = hm_cell_check;
				cell.teardown = hm_cell_teardown;
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
					/* The engine clears why before the checked run: cuBLASXt's
					 * block dimension is written here. */
					char note[sizeof sub[i].why];
					snprintf(note, sizeof note, "%s", sub[i].why);
					if (sd[idx[i]].what == HM_XT && r->status == BENCH_OK)
						snprintf(note, sizeof note, "block dimension %d", sd[idx[i]].xt_block);
					if (csv)
						fprintf(csv, "%s,%lld,%s,%s,%s,%.6g,%.6g,%.3g,\"%s\"\n", dt ? "d" : "s", (long long)x.n,
						        pg ? "pageable" : "pinned", sub[i].id,
						        r->status == BENCH_OK ? "ok" : bench_status_mark(r->status), r->median_s,
						        r->rate / 1e3, r->err, note);
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
	for (int i = 0; i < nc; i++)
		hm_side_free(&sd[i]);
	return rc;
}

#else /* no CUDA in this build */

int bench_run_hostmem(const bench_opts *o)
{
	cli_error(CMD, "--suite %s: gemmkit bench was built without CUDA and cuBLAS", o->suite->name);
	return 1;
}
#endif
