/*
 * report.h - the one report writer of `gemmkit bench`: every suite writes
 * the same files into its output directory, through these functions:
 *
 *   results.md   the Markdown tables, also printed on stdout
 *   results.csv  one row per contender and cell
 *   meta.txt     the command line, machine, date, wall time, gemmkit and
 *                library versions, settings: enough to repeat the run
 *   *.png        charts drawn by gnuplot (plot.c), with their .gp and .dat
 */
#ifndef GK_BENCH_REPORT_H
#define GK_BENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>

typedef struct bench_report {
	const char *dir;
	const char *suite;
	int argc;
	char **argv;         /* argv[0] is "bench" */
	char date[64];
	double t_start;
	FILE *md;            /* the Markdown, kept until bench_report_finish */
	char *md_buf;
	size_t md_len;
	int failed;          /* a file could not be written */
} bench_report;

/* Create the output directory and start the Markdown. 0, or 1 after a
 * message. */
int bench_report_begin(bench_report *r, const char *dir, const char *suite, int argc, char **argv);

/* Seconds since bench_report_begin. */
double bench_report_wall(const bench_report *r);

/* Open DIR/name for writing; NULL after a message (and r->failed set). */
FILE *bench_report_open(bench_report *r, const char *name);
/* Close what bench_report_open gave; a failed write sets r->failed. */
void bench_report_close(bench_report *r, FILE *f, const char *name);

/* The Markdown to stdout and DIR/results.md; frees it. */
void bench_report_finish(bench_report *r);

/* The report's first lines: "# gemmkit bench ARGS" (the command as given)
 * and the suite, the machine,
 * the date and total time, gemmkit's version and CPU kernel set. */
void bench_md_header(bench_report *r, FILE *f);

/* What every meta.txt starts with: command, suite, date, wall time, CPU,
 * nproc, CPU features, caches, OS, gemmkit version and kernel set. */
void bench_meta_machine(bench_report *r, FILE *f);

/* GFLOPS or GB/s to 3 or 4 digits: 0.123, 1.23, 12.3, 123.4. */
void bench_fmt_rate(double g, char *buf, size_t len);

/* ---- charts (plot.c) ---- */

typedef struct bench_chart {
	const char *title, *xlabel, *ylabel;
	int log2x;            /* x on a log2 scale; else evenly spaced, labelled */
	int npoints;
	const double *x;
	const char *const *xlabels;
	double peak;          /* > 0: a right axis in % of this rate */
} bench_chart;

/*
 * Write DIR/base.dat and DIR/base.gp and run gnuplot on them to make
 * DIR/base.png: one line per series, y[s * npoints + i] (NaN: no point),
 * dashed where dashed[s] (dashed NULL: none). Returns 0 when the PNG was made; otherwise prints
 * why on stderr (nothing to plot, gnuplot missing or failing), -1.
 */
int bench_plot_lines(const char *dir, const char *base, const bench_chart *ch, int nseries,
                     const char *const *names, const int *dashed, const double *y);

/* The first lines of a script: PNG terminal (pngcairo when there), output. */
void bench_plot_terminal(FILE *f, const char *base, int width, int height);
/* s as a gnuplot double-quoted string. */
void bench_gp_string(FILE *f, const char *s);
/* Run gnuplot on DIR/base.gp in DIR: 0, or -1 after a message. */
int bench_run_gnuplot(const char *dir, const char *base);

#endif
