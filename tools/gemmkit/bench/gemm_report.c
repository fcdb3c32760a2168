/*
 * gemm_report.c - what a GEMM suite writes: the Markdown (a header, then per
 * precision and thread count the front table, the ladder table, and where
 * the suite asks, times and errors), results.csv, meta.txt, and two charts:
 * the front one (gemmkit auto and the production paths against each
 * reference, % of peak on the right axis) and the ladder (the seed rungs).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gemm.h"

/* Which columns a table shows. */
enum { T_FRONT, T_LADDER, T_ALL };

/* A ladder (three rungs or more) gets a table and a chart of its own, apart
 * from what a user asks first: auto and the production paths against the
 * references. */
static int rungs_apart(const gemm_run *g)
{
	int rungs = 0, other = 0;
	for (int ci = 0; ci < g->nc; ci++) {
		rungs += g->side[ci].rung;
		other |= !g->side[ci].rung;
	}
	return rungs >= 3 && other;
}

static int in_table(const gemm_run *g, int ci, int which)
{
	if (which == T_ALL)
		return 1;
	if (which == T_FRONT)
		return !g->side[ci].rung;
	return g->side[ci].rung || !strcmp(g->c[ci].id, "auto");
}

static double pct_of_peak(const gemm_run *g, int dt, int threads, double gflops)
{
	const bench_peak *p = gemm_peak_for(g, dt, threads);
	return p && isfinite(gflops) ? 100.0 * gflops / p->gflops : NAN;
}

/* The fastest reference of a row; -1 when none has a time. */
static int best_ref(const gemm_run *g, int ti, int dt, int si)
{
	bench_result r[GEMM_MAX_CONTENDERS];
	int pick[GEMM_MAX_CONTENDERS];
	for (int ci = 0; ci < g->nc; ci++) {
		r[ci] = *gemm_result(g, ti, dt, si, ci);
		pick[ci] = g->side[ci].kind == GEMM_REF;
	}
	return bench_fastest(r, g->nc, pick);
}

/* The gemmkit contender of the ratio and peak columns: auto when it runs,
 * else the fastest of ours in that row (*best set). -1 when none. */
static int ours_for_ratio(const gemm_run *g, int ti, int dt, int si, int *best)
{
	for (int ci = 0; ci < g->nc; ci++)
		if (!strcmp(g->c[ci].id, "auto")) {
			*best = 0;
			return ci;
		}
	*best = 1;
	bench_result r[GEMM_MAX_CONTENDERS];
	int pick[GEMM_MAX_CONTENDERS];
	for (int ci = 0; ci < g->nc; ci++) {
		r[ci] = *gemm_result(g, ti, dt, si, ci);
		pick[ci] = g->side[ci].kind == GEMM_OURS;
	}
	return bench_fastest(r, g->nc, pick);
}

static void put_peak_line(const gemm_run *g, FILE *f)
{
	if (g->npeak == 0 || g->peak[0][0].gflops <= 0) {
		fprintf(f, "- Multiply-add peak: not measured\n");
		return;
	}
	const bench_peak *p0 = &g->peak[0][0];
	fprintf(f, "- Multiply-add peak (%s, %s; median of %d runs of %.2g s; GFLOPS): ", p0->isa, p0->how, p0->reps,
	        p0->run_s);
	for (int dt = 0; dt < 2; dt++) {
		fprintf(f, "%s%s", dt ? "; " : "", dt ? "double" : "float");
		for (int i = 0; i < g->npeak; i++) {
			const bench_peak *p = &g->peak[dt][i];
			char s[32];
			bench_fmt_rate(p->gflops, s, sizeof s);
			fprintf(f, "%s %d thread%s %s", i ? "," : "", p->threads, p->threads > 1 ? "s" : "", s);
			if (p->threads_run != p->threads)
				fprintf(f, " (ran on %d)", p->threads_run);
		}
	}
	fprintf(f, ". \"%% of peak\" = GFLOPS / this peak for the same precision and thread count.\n");
}

static void put_header(const gemm_run *g, bench_report *r, FILE *f)
{
	const bench_opts *o = g->o;
	bench_md_header(r, f);
	fprintf(f, "; threads: ");
	for (int i = 0; i < o->nthreads; i++)
		fprintf(f, "%s%d", i ? ", " : "", o->threads[i]);
	fprintf(f, "\n- Row-major C = A*B (alpha 1, beta 0), inputs uniform in [-1, 1] (seed %llu). "
	           "GFLOPS = 2*m*n*k / median time of the timed rounds after warm-up (1 thread: rounds interleaved "
	           "across contenders; several: each contender's rounds in a row, after a %g s pause, in %d passes over the "
	           "contenders; with 1 thread the ratio to the best reference also \"round by round\": the median of "
	           "the ratios of the two times in the same round; before each round, untimed, one byte of every "
	           "page of A, B and C read); "
	           "\"x\": over the %g s cap (predicted or measured), \"ERR\": wrong result, \"-\": not run, "
	           "\"n/a\": cannot run on this machine as named.\n",
	        (unsigned long long)o->seed, BENCH_SETTLE_S, BENCH_PASSES, o->cap);
	if (o->offset >= 0)
		fprintf(f, "- A, B and C start %lld bytes past a 4 KiB page (--offset; by default on a 64-byte boundary)\n",
		        (long long)o->offset);
	else
		fprintf(f, "- A, B and C start on a 64-byte boundary (--offset N places them N bytes past a page, as "
		           "malloc does with 16)\n");
	int strassen = 0;
	for (int ci = 0; ci < g->nc; ci++)
		strassen |= strstr(g->c[ci].id, "strassen") != NULL;
	if (strassen)
		fprintf(f, "- Strassen algorithms are scored by the same 2*m*n*k / time: an effective rate, "
		           "since they do fewer operations; it can exceed the peak.\n");
	if (g->ngpu > 0) {
		char gpu[512];
		gpu_describe(gpu, sizeof gpu);
		fprintf(f, "- GPU: %s. GPU contenders take A and B already in device memory (copied once per "
		           "cell), and are timed with CUDA events around each batch of products on their stream\n",
		        gpu);
	}
	if (g->ngpu < g->nc)
		put_peak_line(g, f);
	int any = 0;
	for (int ci = 0; ci < g->nc; ci++) {
		const gemm_side *sd = &g->side[ci];
		if (sd->unavailable[0])
			fprintf(f, "- Not measured: `%s` (%s)\n", g->c[ci].id, sd->unavailable);
		if (sd->kind != GEMM_REF)
			continue;
		if (!any)
			fprintf(f, "- References:\n");
		any = 1;
		if (sd->gpu != NULL) {
			fprintf(f, "  - `%s`: %s\n", g->c[ci].id, sd->desc);
			continue;
		}
		fprintf(f, "  - `%s`: %s; %s", g->c[ci].id, g->c[ci].name, sd->ref.how);
		if (sd->ref.same_kernel)
			fprintf(f, ". Its best kernel set is the one it picks as installed (%s): this column runs the "
			           "same code as the installed library's", sd->ref.kernel);
		fputc('\n', f);
	}
	if (!any && g->refs_wanted)
		fprintf(f, "- References: none found (install libopenblas-dev and libblis-dev)\n");
	else if (!any)
		fprintf(f, "- References: none in this run (--algos refs, openblas, blis, ... adds them)\n");
	fprintf(f, "- Results checked against the product computed in long double (%s): "
	           "||C - Cref||_F / (||A||_F ||B||_F) <= %g (k + 2) u (float on tensor cores: %g times the bound of "
	           "its precision mode, docs/PRECISION.md), and all of C against the first result "
	           "that passed\n", g->sampled ? "64 sampled rows where m*n*k > 2^31, else every row" : "every row",
	        GEMM_FACTOR, GEMM_FACTOR);
}

static void put_row_label(const gemm_run *g, FILE *f, int si)
{
	char lab[96];
	gemm_shape_label(&g->o->shapes[si], g->o->all_square, lab, sizeof lab);
	fprintf(f, "| %s |", lab);
}

static void put_cell(FILE *f, const bench_result *r, int time)
{
	char s[32];
	if (r->status != BENCH_OK)
		snprintf(s, sizeof s, "%s", bench_status_mark(r->status));
	else if (!time)
		bench_fmt_rate(r->rate, s, sizeof s);
	else if (r->median_s >= 1.0)
		snprintf(s, sizeof s, "%.3gs", r->median_s);
	else if (r->median_s >= 1e-5)
		snprintf(s, sizeof s, "%.3g", r->median_s * 1e3);
	else
		snprintf(s, sizeof s, "<0.01");
	fprintf(f, " %s |", s);
}

static void put_table(const gemm_run *g, FILE *f, int ti, int dt, int which)
{
	const bench_opts *o = g->o;
	const int threads = o->threads[ti];
	int nref = 0, nours = 0;
	for (int ci = 0; ci < g->nc; ci++) {
		nref += g->side[ci].kind == GEMM_REF;
		nours += g->side[ci].kind == GEMM_OURS;
	}
	int ob0;
	const char *ours_name = ours_for_ratio(g, ti, dt, 0, &ob0) >= 0 && !ob0 ? "gemmkit auto" : "best gemmkit";
	const int extra = which != T_LADDER;
	const int ratio_col = extra && nref > 0 && nours > 0;
	/* With one thread the rounds are interleaved: the ratio round by round
	 * too (bench_paired_ratio). */
	const int paired_col = ratio_col && threads <= 1;
	const int peak = extra && gemm_peak_for(g, dt, threads) != NULL;
	if (g->ngpu == g->nc) /* GPU contenders only: no CPU thread count to name */
		fprintf(f, "\n## %s%s (GFLOPS, GPU)\n\n", dt ? "DGEMM" : "SGEMM", which == T_LADDER ? " ladder" : "");
	else
		fprintf(f, "\n## %s%s (GFLOPS, %d thread%s)\n\n", dt ? "DGEMM" : "SGEMM",
		        which == T_LADDER ? " ladder" : "", threads, threads > 1 ? "s" : "");
	fprintf(f, "| %s |", o->all_square ? "n" : "m x n x k");
	int ncol = 0;
	for (int ci = 0; ci < g->nc; ci++)
		if (in_table(g, ci, which))
			fprintf(f, " %s |", g->c[ci].name), ncol++;
	if (ratio_col)
		fprintf(f, " %s / best reference |", ours_name);
	if (paired_col)
		fprintf(f, " the same, round by round |");
	if (peak && nours)
		fprintf(f, " %s %% of peak |", ours_name);
	if (peak && nref)
		fprintf(f, " best reference %% of peak |");
	fprintf(f, "\n|---:|");
	for (int i = 0; i < ncol; i++)
		fprintf(f, "---:|");
	fprintf(f, "%s%s%s%s\n", ratio_col ? "---:|" : "", paired_col ? "---:|" : "", peak && nours ? "---:|" : "",
	        peak && nref ? "---:|" : "");
	for (int si = 0; si < o->nshapes; si++) {
		put_row_label(g, f, si);
		for (int ci = 0; ci < g->nc; ci++)
			if (in_table(g, ci, which))
				put_cell(f, gemm_result(g, ti, dt, si, ci), 0);
		int ob, us = ours_for_ratio(g, ti, dt, si, &ob), br = best_ref(g, ti, dt, si);
		const bench_result *ru = us >= 0 ? gemm_result(g, ti, dt, si, us) : NULL;
		const bench_result *rb = br >= 0 ? gemm_result(g, ti, dt, si, br) : NULL;
		char s[128];
		if (ratio_col) {
			bench_fmt_ratio(s, sizeof s, ru, ob && us >= 0 ? g->c[us].id : NULL, rb, br >= 0 ? g->c[br].id : "");
			fprintf(f, " %s |", s);
		}
		if (paired_col) {
			const double pr = bench_paired_ratio(ru, rb);
			if (isfinite(pr))
				fprintf(f, " %.2f |", pr);
			else
				fprintf(f, " - |");
		}
		if (peak && nours) {
			if (ru && ru->status == BENCH_OK)
				fprintf(f, " %.1f%s%s%s |", pct_of_peak(g, dt, threads, ru->rate), ob ? " (" : "",
				        ob ? g->c[us].id : "", ob ? ")" : "");
			else
				fprintf(f, " - |");
		}
		if (peak && nref) {
			if (rb)
				fprintf(f, " %.1f (%s) |", pct_of_peak(g, dt, threads, rb->rate), g->c[br].id);
			else
				fprintf(f, " - |");
		}
		fputc('\n', f);
	}
}

/* The seed's table: one row per contender, one column per size, times. */
static void put_times_table(const gemm_run *g, FILE *f, int ti, int dt)
{
	const bench_opts *o = g->o;
	const int threads = o->threads[ti];
	fprintf(f, "\n## %s times (%d thread%s): ms, or s from 1000 ms on; \"<0.01\": under 0.01 ms; \"x\": over the "
	        "%g s cap\n\n| %s |", dt ? "DGEMM" : "SGEMM", threads, threads > 1 ? "s" : "", o->cap,
	        o->all_square ? "n" : "m x n x k");
	for (int si = 0; si < o->nshapes; si++) {
		char lab[96];
		gemm_shape_label(&o->shapes[si], o->all_square, lab, sizeof lab);
		fprintf(f, " %s |", lab);
	}
	fprintf(f, "\n|---|");
	for (int si = 0; si < o->nshapes; si++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (int ci = 0; ci < g->nc; ci++) {
		fprintf(f, "| %s |", g->c[ci].name);
		for (int si = 0; si < o->nshapes; si++)
			put_cell(f, gemm_result(g, ti, dt, si, ci), 1);
		fputc('\n', f);
	}
}

/* Each gemmkit contender's rate as a percentage of the fastest reference's
 * in the same row (seed 002's "% of cuBLAS" column, for every kernel). */
static void put_pct_table(const gemm_run *g, FILE *f, int ti, int dt)
{
	const bench_opts *o = g->o;
	fprintf(f, "\n## %s, %% of the fastest reference (%s) in the same run\n\n| %s |",
	        dt ? "DGEMM" : "SGEMM", g->ngpu ? "cuBLAS" : "OpenBLAS or BLIS",
	        o->all_square ? "contender \\ n" : "contender \\ m x n x k");
	for (int si = 0; si < o->nshapes; si++) {
		char lab[96];
		gemm_shape_label(&o->shapes[si], o->all_square, lab, sizeof lab);
		fprintf(f, " %s |", lab);
	}
	fprintf(f, "\n|---|");
	for (int si = 0; si < o->nshapes; si++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (int ci = 0; ci < g->nc; ci++) {
		if (g->side[ci].kind == GEMM_REF || !(g->side[ci].dtypes & (dt ? GK_DTYPE_F64 : GK_DTYPE_F32)))
			continue;
		fprintf(f, "| %s |", g->c[ci].name);
		for (int si = 0; si < o->nshapes; si++) {
			const bench_result *r = gemm_result(g, ti, dt, si, ci);
			const int br = best_ref(g, ti, dt, si);
			const bench_result *rb = br >= 0 ? gemm_result(g, ti, dt, si, br) : NULL;
			if (r->status == BENCH_OK && rb != NULL && rb->status == BENCH_OK && rb->rate > 0)
				fprintf(f, " %.1f%% |", 100.0 * r->rate / rb->rate);
			else if (r->status == BENCH_OK)
				fprintf(f, " - |");
			else
				put_cell(f, r, 0);
		}
		fputc('\n', f);
	}
}

/* With several cuBLAS modes in the run (the precision suite), each gemmkit
 * contender's rate as a ratio to each mode's in the same row: the strict
 * kernel and the FP32-accurate one against cublasSgemm, the TF32 kernel
 * against cuBLAS's TF32 mode. */
static void put_cublas_ratio_table(const gemm_run *g, FILE *f, int ti, int dt)
{
	const bench_opts *o = g->o;
	int refs[4], nr = 0;
	for (int ci = 0; ci < g->nc && nr < 4; ci++)
		if (g->side[ci].kind == GEMM_REF && !strncmp(g->c[ci].id, "cublas", 6) &&
		    (g->side[ci].dtypes & (dt ? GK_DTYPE_F64 : GK_DTYPE_F32)))
			refs[nr++] = ci;
	if (nr < 2)
		return;
	fprintf(f, "\n## %s, ratio to each cuBLAS mode in the same run\n\n| m x n x k | contender |",
	        dt ? "DGEMM" : "SGEMM");
	for (int r = 0; r < nr; r++)
		fprintf(f, " / %s |", g->c[refs[r]].name);
	fprintf(f, "\n|---|---|");
	for (int r = 0; r < nr; r++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (int si = 0; si < o->nshapes; si++)
		for (int ci = 0; ci < g->nc; ci++) {
			if (g->side[ci].kind == GEMM_REF || !(g->side[ci].dtypes & (dt ? GK_DTYPE_F64 : GK_DTYPE_F32)))
				continue;
			const bench_result *r = gemm_result(g, ti, dt, si, ci);
			char lab[96];
			gemm_shape_label(&o->shapes[si], 0, lab, sizeof lab);
			fprintf(f, "| %s | %s |", lab, g->c[ci].name);
			for (int q = 0; q < nr; q++) {
				const bench_result *rb = gemm_result(g, ti, dt, si, refs[q]);
				if (r->status == BENCH_OK && rb->status == BENCH_OK && rb->rate > 0)
					fprintf(f, " %.2f |", r->rate / rb->rate);
				else
					fprintf(f, " - |");
			}
			fputc('\n', f);
		}
}

/* Errors per contender and size against the product in long double. */
static void put_err_table(const gemm_run *g, FILE *f, int ti, int dt)
{
	const bench_opts *o = g->o;
	const int threads = o->threads[ti];
	fprintf(f, "\n## %s normwise error (%d thread%s): ||C - Cref||_F / (||A||_F ||B||_F), Cref = the same "
	        "product computed in long double%s\n\n| %s |", dt ? "DGEMM" : "SGEMM", threads, threads > 1 ? "s" : "",
	        g->sampled ? " (64 sampled rows where m*n*k > 2^31)" : "", o->all_square ? "n" : "m x n x k");
	for (int ci = 0; ci < g->nc; ci++)
		fprintf(f, " %s |", g->c[ci].name);
	fprintf(f, "\n|---:|");
	for (int ci = 0; ci < g->nc; ci++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (int si = 0; si < o->nshapes; si++) {
		put_row_label(g, f, si);
		for (int ci = 0; ci < g->nc; ci++) {
			const bench_result *r = gemm_result(g, ti, dt, si, ci);
			if (r->status == BENCH_FAIL)
				fprintf(f, " ERR |");
			else if (isfinite(r->err))
				fprintf(f, " %.2e |", r->err);
			else
				fprintf(f, " - |");
		}
		fputc('\n', f);
	}
}

static void write_csv(const gemm_run *g, bench_report *rep)
{
	static const char *const status_name[] = {"none", "ok", "cap", "fail", "skip", "unavailable"};
	FILE *f = bench_report_open(rep, "results.csv");
	if (f == NULL)
		return;
	const bench_opts *o = g->o;
	fprintf(f, "dtype,m,n,k,threads,contender,median_s,gflops,err,status,ratio_to_best_ref,pct_peak,err_f64,"
	           "paired_ratio_to_best_ref\n");
	for (int ti = 0; ti < o->nthreads; ti++)
		for (int dt = 0; dt < 2; dt++)
			for (int si = 0; si < o->nshapes && o->dtype[dt]; si++) {
				const bench_shape *s = &o->shapes[si];
				int br = best_ref(g, ti, dt, si);
				for (int ci = 0; ci < g->nc; ci++) {
					const bench_result *r = gemm_result(g, ti, dt, si, ci);
					fprintf(f, "%s,%lld,%lld,%lld,%d,%s,", dt ? "d" : "s", (long long)s->m, (long long)s->n,
					        (long long)s->k, o->threads[ti], g->c[ci].id);
					if (r->status == BENCH_OK)
						fprintf(f, "%.6e,%.4f", r->median_s, r->rate);
					else
						fputc(',', f);
					fputc(',', f);
					if (isfinite(r->err))
						fprintf(f, "%.3e", r->err);
					else if (r->status == BENCH_FAIL)
						fprintf(f, "%s", isinf(r->err) ? "inf" : "nan"); /* not finite, or the call failed */
					fprintf(f, ",%s,", status_name[r->status]);
					if (r->status == BENCH_OK && br >= 0)
						fprintf(f, "%.4f", r->rate / gemm_result(g, ti, dt, si, br)->rate);
					fputc(',', f);
					double pct = r->status == BENCH_OK ? pct_of_peak(g, dt, o->threads[ti], r->rate) : NAN;
					if (isfinite(pct))
						fprintf(f, "%.2f", pct);
					fputc(',', f);
					if (isfinite(r->err)) /* err_f64: the same error, kept for older readers */
						fprintf(f, "%.3e", r->err);
					fputc(',', f);
					const double pr = br >= 0 ? bench_paired_ratio(r, gemm_result(g, ti, dt, si, br)) : NAN;
					if (isfinite(pr))
						fprintf(f, "%.4f", pr);
					fputc('\n', f);
				}
			}
	bench_report_close(rep, f, "results.csv");
}

static void write_meta(const gemm_run *g, bench_report *rep)
{
	FILE *f = bench_report_open(rep, "meta.txt");
	if (f == NULL)
		return;
	const bench_opts *o = g->o;
	bench_meta_machine(rep, f);
	if (g->ngpu > 0) {
		char gpu[512];
		gpu_describe(gpu, sizeof gpu);
		fprintf(f, "gpu: %s\n", gpu);
	}
	fprintf(f, "threads: ");
	for (int i = 0; i < o->nthreads; i++)
		fprintf(f, "%s%d", i ? "," : "", o->threads[i]);
	fputc('\n', f);
	for (int i = 0; i < g->npeak; i++)
		for (int dt = 0; dt < 2; dt++) {
			const bench_peak *p = &g->peak[dt][i];
			if (p->gflops > 0)
				fprintf(f, "peak_%s_%dt_gflops: %.2f (isa %s: %s; median of %d runs of %.3f s, min %.2f, max "
				        "%.2f; %d threads ran)\n", dt ? "f64" : "f32", p->threads, p->gflops, p->isa, p->how, p->reps,
				        p->run_s, p->gflops_min, p->gflops_max, p->threads_run);
		}
	fprintf(f, "cap_s: %g\nreps: %s\nseed: %llu\nquick: %d\n", o->cap, o->reps ? "fixed" : "by time",
	        (unsigned long long)o->seed, o->quick);
	if (o->reps)
		fprintf(f, "reps_fixed: %lld\n", (long long)o->reps);
	fprintf(f, "verification: against the product in long double (gemm_check; every row up to m*n*k = 2^31, "
	           "else 64 sampled rows): ||C - Cref||_F / (||A||_F ||B||_F) <= %g * (k + 2) * u and "
	           "||C - Cref||_F <= %g * ||Cref||_F; every element finite; all of C within twice the bound "
	           "of the first result that passed\n", GEMM_FACTOR, GEMM_GROSS);
	for (int ci = 0; ci < g->nc; ci++) {
		const gemm_side *sd = &g->side[ci];
		fprintf(f, "contender %s: %s", g->c[ci].id, g->c[ci].name);
		if (sd->kind == GEMM_REF)
			fprintf(f, "; %s", sd->ref.how);
		if (sd->unavailable[0])
			fprintf(f, "; unavailable: %s", sd->unavailable);
		fputc('\n', f);
	}
	bench_report_close(rep, f, "meta.txt");
}

static void plot(const gemm_run *g, bench_report *rep, int ti, int dt, int which)
{
	const bench_opts *o = g->o;
	int threads = o->threads[ti];
	int ns = 0;
	const char *names[GEMM_MAX_CONTENDERS];
	int dashed[GEMM_MAX_CONTENDERS];
	double *y = malloc((size_t)GEMM_MAX_CONTENDERS * BENCH_MAX_SHAPES * sizeof *y);
	double x[BENCH_MAX_SHAPES];
	char labs[BENCH_MAX_SHAPES][96];
	const char *xl[BENCH_MAX_SHAPES];
	if (y == NULL)
		return;
	for (int si = 0; si < o->nshapes; si++) {
		x[si] = (double)o->shapes[si].n;
		gemm_shape_label(&o->shapes[si], o->all_square, labs[si], sizeof labs[si]);
		xl[si] = labs[si];
	}
	for (int ci = 0; ci < g->nc; ci++) {
		if (!in_table(g, ci, which) || g->side[ci].unavailable[0])
			continue;
		names[ns] = g->c[ci].name;
		dashed[ns] = g->side[ci].kind == GEMM_REF;
		for (int si = 0; si < o->nshapes; si++) {
			const bench_result *r = gemm_result(g, ti, dt, si, ci);
			y[(size_t)ns * (size_t)o->nshapes + (size_t)si] = r->status == BENCH_OK ? r->rate : NAN;
		}
		ns++;
	}
	gk_info info;
	gk_get_info(&info);
	char title[320], base[48], machine[160];
	if (g->ngpu == g->nc && info.gpu_count > 0) {
		/* "NVIDIA H100 80GB HBM3 (sm_90, 79.2 GiB)": the GPU is the machine here. */
		snprintf(machine, sizeof machine, "%s", info.gpu_names[0]);
		threads = 0;
	} else {
		snprintf(machine, sizeof machine, "%s", info.cpu_name);
	}
	if (threads > 0)
		snprintf(title, sizeof title, "%s%s, %d thread%s, row-major C = A*B: %s (%s)", dt ? "DGEMM" : "SGEMM",
		         which == T_LADDER ? " ladder" : "", threads, threads > 1 ? "s" : "", machine, rep->date);
	else
		snprintf(title, sizeof title, "%s%s, row-major C = A*B, operands in GPU memory: %s (%s)",
		         dt ? "DGEMM" : "SGEMM", which == T_LADDER ? " ladder" : "", machine, rep->date);
	threads = o->threads[ti];
	/* One thread count keeps the plain names; several get one chart each. */
	snprintf(base, sizeof base, "%s%s", dt ? "dgemm" : "sgemm", which == T_LADDER ? "-ladder" : "");
	if (o->nthreads > 1)
		snprintf(base + strlen(base), sizeof base - strlen(base), "-%dt", threads);
	const bench_peak *p = gemm_peak_for(g, dt, threads);
	bench_chart ch = {title, o->all_square ? "N (m = n = k)" : "m x n x k", "GFLOPS", o->all_square, o->nshapes,
	                  x, xl, p ? p->gflops : 0};
	if (ns > 0)
		bench_plot_lines(rep->dir, base, &ch, ns, names, dashed, y);
	free(y);
}

void gemm_report(gemm_run *g, bench_report *rep)
{
	const bench_opts *o = g->o;
	const int apart = rungs_apart(g);
	put_header(g, rep, rep->md);
	for (int dt = 0; dt < 2; dt++)
		for (int ti = 0; ti < o->nthreads && o->dtype[dt]; ti++) {
			put_table(g, rep->md, ti, dt, apart ? T_FRONT : T_ALL);
			if (apart)
				put_table(g, rep->md, ti, dt, T_LADDER);
			if (o->times_table)
				put_times_table(g, rep->md, ti, dt);
			if (g->ngpu > 0) {
				put_pct_table(g, rep->md, ti, dt);
				put_cublas_ratio_table(g, rep->md, ti, dt);
			}
			if (o->err_table)
				put_err_table(g, rep->md, ti, dt);
		}
	bench_report_finish(rep);
	write_csv(g, rep);
	write_meta(g, rep);
	if (o->plot)
		for (int ti = 0; ti < o->nthreads; ti++)
			for (int dt = 0; dt < 2; dt++)
				if (o->dtype[dt]) {
					plot(g, rep, ti, dt, apart ? T_FRONT : T_ALL);
					if (apart)
						plot(g, rep, ti, dt, T_LADDER);
				}
}
