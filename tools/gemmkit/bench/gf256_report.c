/*
 * gf256_report.c - what the gf256 suite writes: the table (one row per
 * code, shard size, thread count and operation; gemmkit, ISA-L, their
 * ratio), results.csv, meta.txt and gf256.png (bars, a panel per operation).
 */
#include <math.h>
#include <string.h>
#include "gemmkit.h"
#include "gf256.h"

static const char *const op_name[2] = {"encode", "decode"};

void gf_size_label(int64_t s, char *buf, size_t n)
{
	if (s % (1 << 20) == 0)
		snprintf(buf, n, "%lld MiB", (long long)(s >> 20));
	else if (s % 1024 == 0)
		snprintf(buf, n, "%lld KiB", (long long)(s >> 10));
	else
		snprintf(buf, n, "%lld B", (long long)s);
}

static void fmt_side(const bench_result *r, char *buf, size_t n)
{
	if (r->status == BENCH_OK)
		snprintf(buf, n, "%.2f", r->rate);
	else if (r->status == BENCH_NONE)
		snprintf(buf, n, "n/a");
	else
		snprintf(buf, n, "%s", bench_status_mark(r->status));
}

/* "isal": both sides correct; "self": gemmkit correct, ISA-L not run;
 * "MISMATCH": gemmkit's result was wrong. */
static const char *verified(const gf_row *r)
{
	if (r->r[GF_OURS].status == BENCH_FAIL)
		return "MISMATCH";
	return r->r[GF_ISAL].status == BENCH_NONE ? "self" : "isal";
}

static double rate(const bench_result *r)
{
	return r->status == BENCH_OK ? r->rate : NAN;
}

static void write_csv(const gf_run *g, bench_report *rep)
{
	FILE *f = bench_report_open(rep, "results.csv");
	if (f == NULL)
		return;
	fprintf(f, "op,k,m,shard_bytes,threads,gemmkit_gbs,isal_gbs,ratio,verified,paired_ratio\n");
	for (int i = 0; i < g->nrows; i++) {
		const gf_row *r = &g->rows[i];
		double a = rate(&r->r[GF_OURS]), b = rate(&r->r[GF_ISAL]);
		fprintf(f, "%s,%d,%d,%lld,%d,%.4f,%.4f,%.4f,%s,%.4f\n", op_name[r->op], r->k, r->m, (long long)r->size,
		        r->threads, a, b, a / b, verified(r), bench_paired_ratio(&r->r[GF_OURS], &r->r[GF_ISAL]));
	}
	bench_report_close(rep, f, "results.csv");
}

static void write_meta(const gf_run *g, bench_report *rep)
{
	FILE *f = bench_report_open(rep, "meta.txt");
	if (f == NULL)
		return;
	const bench_opts *o = g->o;
	bench_meta_machine(rep, f);
	fprintf(f, "gemmkit_gf256_kernels: %s\n", gk_gf256_kernel_name());
	if (g->isal.handle)
		fprintf(f, "isal: %s (%s, dlopen RTLD_LOCAL|RTLD_DEEPBIND)\n", g->isal.path, g->isal.entry);
	else
		fprintf(f, "isal: not available: %s\n", g->isal_why);
	fprintf(f, "matrix: gemmkit GK_RS_CAUCHY, used by both; %s ISA-L gf_gen_cauchy1_matrix\n",
	        !g->isal.handle ? "not compared with" : g->matrix_equal ? "identical to" : "DIFFERENT from");
	fprintf(f, "reps: %lld\nround_s: %g\nseed: %llu\nquick: %d\n", (long long)g->eng.reps, g->eng.round_s,
	        (unsigned long long)o->seed, o->quick);
	fprintf(f, "throughput: GB/s = k * shard_bytes / seconds per call / 1e9\n"
	           "encode: gemmkit gk_rs_encode_ex (context with T threads) vs ISA-L ec_encode_data (tables made "
	           "once, untimed)\n"
	           "decode: %d lost data shards rebuilt from the next k shards, call after call with the same "
	           "erasure pattern (gk_rs_reconstruct_ex, whose gk_rs keeps the decoder of its last pattern / "
	           "ec_encode_data with the tables of gf_invert_matrix + ec_init_tables, made once, untimed)\n"
	           "threads: ISA-L runs T pthreads, each on 1/T of every shard's bytes\n"
	           "verification: each side's parity == the parity computed one GF(2^8) product at a time, byte for "
	           "byte; each decode == the lost data\n", GF_LOST);
	bench_report_close(rep, f, "meta.txt");
}

/* A clustered bar chart: one panel per operation, a pair of bars per case. */
static void plot(const gf_run *g, bench_report *rep)
{
	FILE *f = bench_report_open(rep, "gf256.dat");
	if (f == NULL)
		return;
	for (int op = 0; op < 2; op++) {
		fprintf(f, "# %s\ncase gemmkit ISA-L\n", op_name[op]);
		for (int i = 0; i < g->nrows; i++) {
			const gf_row *r = &g->rows[i];
			if (r->op != op)
				continue;
			char sz[32];
			gf_size_label(r->size, sz, sizeof sz);
			for (char *p = sz; *p; p++)
				if (*p == ' ')
					*p = '_';
			double a = rate(&r->r[GF_OURS]), b = rate(&r->r[GF_ISAL]);
			fprintf(f, "\"%d+%d %s %dT\" %.4f %.4f\n", r->k, r->m, sz, r->threads, isnan(a) ? 0.0 : a,
			        isnan(b) ? 0.0 : b);
		}
		fprintf(f, "\n\n");
	}
	bench_report_close(rep, f, "gf256.dat");
	f = bench_report_open(rep, "gf256.gp");
	if (f == NULL)
		return;
	gk_info info;
	gk_get_info(&info);
	char title[256];
	snprintf(title, sizeof title, "GF(2^8) Reed-Solomon, GB/s of data: %s (%s)", info.cpu_name, rep->date);
	bench_plot_terminal(f, "gf256", 1400, 900);
	fprintf(f, "set multiplot layout 2,1 title ");
	bench_gp_string(f, title);
	fprintf(f, "\nset style data histograms\nset style histogram clustered gap 1\n"
	           "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
	           "set ylabel 'GB/s of data'\nset grid ytics\nset key top left\nset yrange [0:*]\n"
	           "set xtics rotate by -30\n"
	           "set title 'encode'\n"
	           "plot 'gf256.dat' index 0 using 2:xtic(1) title columnheader(2), '' index 0 using 3 title "
	           "columnheader(3)\n"
	           "set title 'decode (2 lost data shards, one erasure pattern)'\n"
	           "plot 'gf256.dat' index 1 using 2:xtic(1) title columnheader(2), '' index 1 using 3 title "
	           "columnheader(3)\n"
	           "unset multiplot\n");
	bench_report_close(rep, f, "gf256.gp");
	if (!rep->failed)
		bench_run_gnuplot(rep->dir, "gf256");
}

void gf256_report(gf_run *g, bench_report *rep)
{
	FILE *f = rep->md;
	bench_md_header(rep, f);
	fprintf(f, "\n- GF(2^8) Reed-Solomon, GB/s of data (k x shard bytes / time), median of %lld rounds "
	           "(interleaved with 1 thread; each side in a row with more, after a %g s pause, in %d passes); with 1 thread the "
	           "ratio also round by round (the median of the ratios of the two sides' times in the same round, "
	           "which a drift of the machine's speed moves less); decode rebuilds "
	           "%d lost data shards, call after call with one erasure pattern (its inverse made once: in "
	           "gemmkit's first call, which keeps it, and before the timing for ISA-L). \"ERR\": wrong result, "
	           "\"n/a\": not run.\n",
	        (long long)g->eng.reps, g->eng.settle_s, BENCH_PASSES, GF_LOST);
	fprintf(f, "- gemmkit's GF(2^8) kernels: %s\n", gk_gf256_kernel_name());
	if (g->isal.handle)
		fprintf(f, "- ISA-L: %s (%s%s; T pthreads for T threads)\n", g->isal.path, g->isal.entry,
		        strcmp(g->isal.entry, "ec_encode_data") ? ", the kernel set GK_ARCH names" : "");
	else
		fprintf(f, "- ISA-L: not available (%s)\n", g->isal_why);
	fprintf(f, "- Results checked byte for byte: parity against the product computed one GF(2^8) "
	           "multiplication at a time, decodes against the lost data.\n");
	fprintf(f, "\n## Reed-Solomon (GB/s of data)\n\n| case | threads | op | gemmkit GB/s | ISA-L GB/s | ratio | "
	           "round by round |\n|---|---:|---|---:|---:|---:|---:|\n");
	for (int i = 0; i < g->nrows; i++) {
		const gf_row *r = &g->rows[i];
		char sz[32], a[32], b[32], ratio[64], pr[32];
		gf_size_label(r->size, sz, sizeof sz);
		fmt_side(&r->r[GF_OURS], a, sizeof a);
		fmt_side(&r->r[GF_ISAL], b, sizeof b);
		if (r->r[GF_OURS].status == BENCH_OK && r->r[GF_ISAL].status == BENCH_OK)
			snprintf(ratio, sizeof ratio, "%.2f", r->r[GF_OURS].rate / r->r[GF_ISAL].rate);
		else
			snprintf(ratio, sizeof ratio, "-");
		/* NaN with several threads or a side not timed (engine.h) */
		const double q = bench_paired_ratio(&r->r[GF_OURS], &r->r[GF_ISAL]);
		if (isnan(q))
			snprintf(pr, sizeof pr, "-");
		else
			snprintf(pr, sizeof pr, "%.2f", q);
		fprintf(f, "| %d+%d, %s | %d | %s | %s | %s | %s | %s |\n", r->k, r->m, sz, r->threads, op_name[r->op], a,
		        b, ratio, pr);
	}
	bench_report_finish(rep);
	write_csv(g, rep);
	write_meta(g, rep);
	if (g->o->plot)
		plot(g, rep);
}
