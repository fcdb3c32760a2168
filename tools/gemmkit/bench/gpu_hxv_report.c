/*
 * gpu_hxv_report.c - the tables, CSV rows and charts of the gpu-hxv suite
 * (gpu_hxv.c runs it): the device table (time, GB/s and % of the read floor,
 * speed-up over cuBLAS) and the host-data crossover (CPU "auto" against
 * cuda.hxv on host pointers, and the k from which the GPU is faster).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpu_hxv.h"

/* k as "5e7" when it is a small multiple of a power of ten, else in full. */
static void fmt_k(char *buf, size_t len, int64_t k)
{
	int e = 0;
	int64_t mant = k;
	while (mant > 0 && mant % 10 == 0)
		mant /= 10, e++;
	if (e >= 3 && mant < 100)
		snprintf(buf, len, "%llde%d", (long long)mant, e);
	else
		snprintf(buf, len, "%lld", (long long)k);
}

/* x > 0 as "2.2e7". */
static void fmt_sci(char *buf, size_t len, double x)
{
	const int e = (int)floor(log10(x));
	snprintf(buf, len, "%.2ge%d", x / pow(10, e), e);
}

static void fmt_bytes(char *buf, size_t len, double b)
{
	if (b >= 1e9)
		snprintf(buf, len, "%.2f GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(buf, len, "%.1f MB", b / 1e6);
	else
		snprintf(buf, len, "%.1f kB", b / 1e3);
}

static void fmt_ms(char *buf, size_t len, double s)
{
	const double ms = s * 1e3;
	snprintf(buf, len, ms < 10 ? "%.3f" : ms < 100 ? "%.2f" : "%.1f", ms);
}

static int ok(const hxv_row *r, int i)
{
	return i >= 0 && r->res[i].status == BENCH_OK;
}

/* A cell's text when it has no number. */
static const char *mark(const hxv_row *r, int i)
{
	return r->note[0] ? "not run" : bench_status_mark(r->res[i].status);
}

static void row_head(FILE *md, const hxv_row *r, int with_bytes)
{
	char k[32], b[32];
	fmt_k(k, sizeof k, r->k);
	fmt_bytes(b, sizeof b, r->bytes);
	fprintf(md, "| %lld, %lld, %s | %s |", (long long)r->m, (long long)r->n, k, r->label);
	if (with_bytes)
		fprintf(md, " %s |", b);
}

static void csv_row(FILE *csv, const char *table, const hxv_row *r, const hxv_table *t, int i, double pct,
                    double vs_cublas, double vs_cpu)
{
	if (csv == NULL)
		return;
	const bench_result *x = &r->res[i];
	const char *note = r->note[0] ? r->note : r->why[i];
	fprintf(csv, "%s,%lld,%lld,%lld,%s,%s,%s,%.6g,%.6g,%.4g,%.4g,%.4g,%.3g,\"", table, (long long)r->m,
	        (long long)r->n, (long long)r->k, r->label, t->ids[i],
	        x->status == BENCH_OK ? "ok" : r->note[0] ? "not run" : bench_status_mark(x->status),
	        x->median_s * 1e3, x->rate, pct, vs_cublas, vs_cpu, x->err);
	for (const char *p = note; *p; p++)
		fputc(*p == '"' ? '\'' : *p, csv);
	fprintf(csv, "\"\n");
}

static void notes(FILE *md, const hxv_table *t)
{
	for (int ri = 0; ri < t->nrows; ri++) {
		const hxv_row *r = &t->rows[ri];
		char k[32];
		fmt_k(k, sizeof k, r->k);
		if (r->note[0]) {
			fprintf(md, "- (%lld, %lld, %s)%s%s: %s.\n", (long long)r->m, (long long)r->n, k, r->label[0] ? " " : "",
			        r->label, r->note);
			continue;
		}
		for (int i = 0; i < t->nc; i++)
			if (!ok(r, i) && r->res[i].status != BENCH_NONE)
				fprintf(md, "- (%lld, %lld, %s) %s: %s%s%s.\n", (long long)r->m, (long long)r->n, k, t->ids[i],
				        bench_status_mark(r->res[i].status), r->why[i][0] ? ", " : "", r->why[i]);
	}
}

void hxv_report_device(const hxv_table *t, FILE *md, FILE *csv)
{
	const int fl = hxv_find(t, "floor"), cb = hxv_find(t, "cublas");
	fprintf(md, "## E (m x k) times F (k x n), operands in device memory\n\n"
	            "Float, row-major, E and F on the device once per shape and shared by every contender; "
	            "CUDA events around batches of calls on the contender's stream, median of interleaved "
	            "rounds. Every result was first checked against the exact product (computed in double "
	            "on the host). floor: gk_hxv_read_device over E, then F (a read-only pass over the bytes "
	            "every product must read). cublas: cublasSgemm (default math), C^T = F^T E^T.\n\n");
	/* Times. */
	fprintf(md, "Time per call, ms:\n\n| (m, n, k) | | E + F |");
	for (int i = 0; i < t->nc; i++)
		fprintf(md, " %s |", t->ids[i]);
	fprintf(md, "\n| --- | --- | ---: |");
	for (int i = 0; i < t->nc; i++)
		fprintf(md, " ---: |");
	fputc('\n', md);
	for (int ri = 0; ri < t->nrows; ri++) {
		const hxv_row *r = &t->rows[ri];
		row_head(md, r, 1);
		for (int i = 0; i < t->nc; i++) {
			char b[32];
			fmt_ms(b, sizeof b, r->res[i].median_s);
			fprintf(md, " %s |", ok(r, i) ? b : mark(r, i));
		}
		fputc('\n', md);
	}
	/* GB/s and % of the floor. */
	fprintf(md, "\nGB/s of E and F (bytes / time)%s:\n\n| (m, n, k) | |", fl >= 0 ? " and % of the read floor" : "");
	for (int i = 0; i < t->nc; i++)
		fprintf(md, " %s |", t->ids[i]);
	fprintf(md, "\n| --- | --- |");
	for (int i = 0; i < t->nc; i++)
		fprintf(md, " ---: |");
	fputc('\n', md);
	for (int ri = 0; ri < t->nrows; ri++) {
		const hxv_row *r = &t->rows[ri];
		row_head(md, r, 0);
		for (int i = 0; i < t->nc; i++) {
			if (!ok(r, i))
				fprintf(md, " %s |", mark(r, i));
			else if (ok(r, fl) && i != fl)
				fprintf(md, " %.0f (%.0f%%) |", r->res[i].rate,
				        100 * r->res[fl].median_s / r->res[i].median_s);
			else
				fprintf(md, " %.0f |", r->res[i].rate);
		}
		fputc('\n', md);
	}
	/* Speed-up over cuBLAS. */
	if (cb >= 0) {
		fprintf(md, "\nSpeed-up over cublasSgemm (its time / the contender's):\n\n| (m, n, k) | |");
		for (int i = 0; i < t->nc; i++)
			if (i != cb && i != fl)
				fprintf(md, " %s |", t->ids[i]);
		fprintf(md, "\n| --- | --- |");
		for (int i = 0; i < t->nc; i++)
			if (i != cb && i != fl)
				fprintf(md, " ---: |");
		fputc('\n', md);
		for (int ri = 0; ri < t->nrows; ri++) {
			const hxv_row *r = &t->rows[ri];
			row_head(md, r, 0);
			for (int i = 0; i < t->nc; i++)
				if (i != cb && i != fl) {
					if (ok(r, i) && ok(r, cb))
						fprintf(md, " %.2fx |", r->res[cb].median_s / r->res[i].median_s);
					else
						fprintf(md, " %s |", ok(r, i) ? "-" : mark(r, i));
				}
			fputc('\n', md);
		}
	}
	fputc('\n', md);
	notes(md, t);
	fputc('\n', md);
	for (int ri = 0; ri < t->nrows; ri++) {
		const hxv_row *r = &t->rows[ri];
		for (int i = 0; i < t->nc; i++) {
			const int o = ok(r, i);
			csv_row(csv, "device", r, t, i, o && ok(r, fl) ? 100 * r->res[fl].median_s / r->res[i].median_s : NAN,
			        o && ok(r, cb) ? r->res[cb].median_s / r->res[i].median_s : NAN, NAN);
		}
	}
}

void hxv_report_crossover(const hxv_table *t, FILE *md, FILE *csv)
{
	const int cpu = hxv_find(t, "cpu-auto"), gpu = hxv_find(t, "cuda.hxv-host");
	fprintf(md, "## Crossover: operands in host memory, m = n = %d\n\n"
	            "E, F and C in pageable host memory, end to end (host clock, copies included), each "
	            "contender's rounds in a row; every result first checked against the exact product. "
	            "cpu-auto: gk_sgemm_ex on the CPU backend (\"auto\": the skinny path)%s; cuda.hxv-host: "
	            "gk_sgemm_ex on the CUDA backend with cuda.hxv (k streamed through pinned staging "
	            "buffers, the call's allocations included).\n\n| k | E + F |",
	        HXV_XOVER_MN, hxv_find(t, "auto") >= 0 ? "; auto: a default context (GK_BACKEND_AUTO)" : "");
	for (int i = 0; i < t->nc; i++)
		fprintf(md, " %s, ms |", t->ids[i]);
	const int both = cpu >= 0 && gpu >= 0;
	if (both)
		fprintf(md, " cuda.hxv-host / cpu-auto | faster |");
	fprintf(md, "\n| ---: | ---: |");
	for (int i = 0; i < t->nc + 2 * both; i++)
		fprintf(md, " ---: |");
	fputc('\n', md);
	double lk[BENCH_MAX_SHAPES], lr[BENCH_MAX_SHAPES];
	int np = 0;
	for (int ri = 0; ri < t->nrows; ri++) {
		const hxv_row *r = &t->rows[ri];
		char k[32], b[32];
		fmt_k(k, sizeof k, r->k);
		fmt_bytes(b, sizeof b, r->bytes);
		fprintf(md, "| %s | %s |", k, b);
		for (int i = 0; i < t->nc; i++) {
			char s[32];
			fmt_ms(s, sizeof s, r->res[i].median_s);
			fprintf(md, " %s |", ok(r, i) ? s : mark(r, i));
		}
		if (both) {
			if (ok(r, cpu) && ok(r, gpu)) {
				const double q = r->res[gpu].median_s / r->res[cpu].median_s;
				fprintf(md, " %.3g | %s |", q, q < 1 ? "GPU" : "CPU");
				lk[np] = log((double)r->k), lr[np] = log(q), np++;
			} else {
				fprintf(md, " - | - |");
			}
		}
		fputc('\n', md);
		for (int i = 0; i < t->nc; i++)
			csv_row(csv, "crossover", r, t, i, NAN, NAN,
			        ok(r, i) && ok(r, cpu) ? r->res[cpu].median_s / r->res[i].median_s : NAN);
	}
	fputc('\n', md);
	/* The crossover: the k from which the GPU stays faster, interpolated
	 * linearly in log k and log(time ratio) between the two k around it. */
	if (np > 0) {
		int from = np;
		while (from > 0 && lr[from - 1] < 0)
			from--;
		char a[32], b[32], c[32];
		if (from == np) {
			fmt_sci(a, sizeof a, exp(lk[np - 1]));
			fprintf(md, "Crossover: none measured: the CPU is faster at every k up to %s "
			            "(cuda.hxv-host takes %.3gx the CPU's time there).\n\n", a, exp(lr[np - 1]));
		} else if (from == 0) {
			fmt_sci(a, sizeof a, exp(lk[0]));
			fprintf(md, "Crossover: below the smallest k measured: cuda.hxv-host is faster from k = %s on.\n\n",
			        a);
		} else {
			const double f = lr[from - 1] / (lr[from - 1] - lr[from]);
			fmt_sci(a, sizeof a, exp(lk[from - 1] + f * (lk[from] - lk[from - 1])));
			fmt_sci(b, sizeof b, exp(lk[from - 1]));
			fmt_sci(c, sizeof c, exp(lk[from]));
			fprintf(md, "Crossover: cuda.hxv-host is faster from about k = %s on (the CPU is faster at k = %s, "
			            "the GPU at k = %s; interpolated in log k and log time ratio).\n\n", a, b, c);
		}
	}
	notes(md, t);
	fputc('\n', md);
}

void hxv_plot(const hxv_table *dev, const hxv_table *xo, const char *dir)
{
	static char labels[BENCH_MAX_SHAPES][64];
	const char *xl[BENCH_MAX_SHAPES], *names[HXV_MAX_C];
	double x[BENCH_MAX_SHAPES], y[HXV_MAX_C * BENCH_MAX_SHAPES];
	int dashed[HXV_MAX_C];
	for (int w = 0; w < 2; w++) {
		const hxv_table *t = w ? xo : dev;
		if (t->nrows == 0 || t->nc == 0)
			continue;
		for (int ri = 0; ri < t->nrows; ri++) {
			const hxv_row *r = &t->rows[ri];
			char k[32];
			fmt_k(k, sizeof k, r->k);
			if (w)
				snprintf(labels[ri], sizeof labels[ri], "%s", k);
			else
				snprintf(labels[ri], sizeof labels[ri], "%lld,%lld,%s%s%s", (long long)r->m, (long long)r->n, k,
				         r->label[0] ? " " : "", r->label);
			xl[ri] = labels[ri];
			x[ri] = (double)r->k;
			for (int i = 0; i < t->nc; i++)
				y[i * t->nrows + ri] = ok(r, i) ? r->res[i].rate : NAN;
		}
		for (int i = 0; i < t->nc; i++)
			names[i] = t->ids[i], dashed[i] = !strcmp(t->ids[i], "floor");
		const bench_chart ch = {w ? "E F from host memory, m = n = 5 (end to end)"
		                          : "E (m x k) F (k x n) in device memory",
		                        w ? "k" : "(m, n, k)", "GB/s of E and F", 0, t->nrows, x, xl, 0};
		bench_plot_lines(dir, w ? "hxv-crossover" : "hxv-device", &ch, t->nc, names, dashed, y);
	}
}
