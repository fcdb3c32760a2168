/*
 * plot.c - the charts of `gemmkit bench`, drawn by gnuplot: lines of a rate
 * against the size (GEMM suites), and the runner that any chart's script
 * goes through (the GF(2^8) suite's bars).
 *
 * The data and the script are left beside the PNG so that a chart can be
 * restyled or redrawn without running the benchmark again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report.h"

void bench_gp_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int write_data(const char *path, int log2x, int npoints, const double *x,
                      const char *const *xlabels, int nseries, const char *const *names, const double *y)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fprintf(f, "# x\tlabel");
	for (int s = 0; s < nseries; s++)
		fprintf(f, "\t%s", names[s]);
	fputc('\n', f);
	for (int i = 0; i < npoints; i++) {
		fprintf(f, "%.17g\t%s", log2x ? x[i] : (double)(i + 1), xlabels[i]);
		for (int s = 0; s < nseries; s++) {
			double v = y[(size_t)s * (size_t)npoints + (size_t)i];
			if (isfinite(v))
				fprintf(f, "\t%.6g", v);
			else
				fprintf(f, "\t?");
		}
		fputc('\n', f);
	}
	return fclose(f) == 0 ? 0 : -1;
}

/* Twelve colours that stay apart; gnuplot's default cycle repeats after eight. */
static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#000000", "#00008b"};
#define N_COLOURS ((int)(sizeof colours / sizeof colours[0]))

static int has_points(const double *y, int npoints)
{
	for (int i = 0; i < npoints; i++)
		if (isfinite(y[i]))
			return 1;
	return 0;
}

void bench_plot_terminal(FILE *f, const char *base, int width, int height)
{
	fprintf(f, "# Redraw with: gnuplot %s.gp (in this directory)\n", base);
	/* pngcairo draws smoother lines; plain png is the fallback everywhere. */
	fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
	           "  set terminal pngcairo size %d,%d noenhanced font \",11\"\n"
	           "} else {\n"
	           "  set terminal png size %d,%d noenhanced\n"
	           "}\n", width, height, width, height);
	fprintf(f, "set output \"%s.png\"\n", base);
}

static int write_script(const char *path, const char *base, const bench_chart *ch, int nseries,
                        const char *const *names, const int *dashed, const double *y)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return -1;
	const int log2x = ch->log2x, npoints = ch->npoints;
	bench_plot_terminal(f, base, 1100, 650);
	fprintf(f, "set title ");
	bench_gp_string(f, ch->title);
	fprintf(f, "\nset xlabel ");
	bench_gp_string(f, ch->xlabel);
	fprintf(f, "\nset ylabel ");
	bench_gp_string(f, ch->ylabel);
	fputc('\n', f);
	if (ch->peak > 0) {
		/* The right axis: the same scale as a percentage of the peak, with
		 * round steps (5, 10, 20, 25 or 50 %) for about 6 to 10 tics. */
		double top = 0;
		for (size_t i = 0; i < (size_t)nseries * (size_t)npoints; i++)
			if (isfinite(y[i]) && y[i] > top)
				top = y[i];
		static const double steps[] = {5, 10, 20, 25, 50, 100, 200, 500};
		double pct = 100 * top / ch->peak, step = steps[0];
		for (size_t i = 0; i < sizeof steps / sizeof steps[0] && pct / step > 10; i++)
			step = steps[i];
		fprintf(f, "set y2label \"%% of the %.4g %s peak\"\nset y2tics 0, %g format \"%%g%%%%\"\n"
		           "set ytics nomirror\nset link y2 via y * 100 / %.17g inverse y * %.17g / 100\n",
		        ch->peak, ch->ylabel, step, ch->peak, ch->peak);
	}
	fprintf(f, "set datafile separator \"\\t\"\nset datafile missing \"?\"\n");
	fprintf(f, "set grid\nset key outside right top\nset yrange [0:*]\n");
	if (log2x) {
		fprintf(f, "set logscale x 2\nset format x \"%%g\"\n");
	} else {
		fprintf(f, "set xrange [0.5:%d.5]\nset xtics rotate by -30\n", npoints);
	}
	fprintf(f, "plot");
	int first = 1;
	for (int s = 0; s < nseries; s++) {
		/* A series with no point (all over the cap) would only draw a warning. */
		if (!has_points(y + (size_t)s * (size_t)npoints, npoints))
			continue;
		/* Columns: 1 x, 2 label, then one per series. */
		/* gemmkit auto, what a plain call gets, drawn thickest. */
		fprintf(f, "%s\n  \"%s.dat\" using 1:%d%s with linespoints lw %d lc rgb \"%s\" pt %d dt %d title ",
		        first ? " \\" : ", \\", base, s + 3, log2x ? "" : ":xtic(2)",
		        !strcmp(names[s], "gemmkit auto") ? 4 : 2, colours[s % N_COLOURS], s % 13 + 1, dashed != NULL && dashed[s] ? 2 : 1);
		bench_gp_string(f, names[s]);
		first = 0;
	}
	fputc('\n', f);
	return fclose(f) == 0 ? 0 : -1;
}

int bench_plot_lines(const char *dir, const char *base, const bench_chart *ch, int nseries,
                     const char *const *names, const int *dashed, const double *y)
{
	char dat[4096], gp[4096];
	snprintf(dat, sizeof dat, "%s/%s.dat", dir, base);
	snprintf(gp, sizeof gp, "%s/%s.gp", dir, base);
	int any = 0;
	for (int s = 0; s < nseries; s++)
		any |= has_points(y + (size_t)s * (size_t)ch->npoints, ch->npoints);
	if (ch->npoints < 1 || !any) {
		fprintf(stderr, "gemmkit bench: no result to plot: %s.png skipped\n", base);
		return -1;
	}
	if (write_data(dat, ch->log2x, ch->npoints, ch->x, ch->xlabels, nseries, names, y) != 0 ||
	    write_script(gp, base, ch, nseries, names, dashed, y) != 0) {
		fprintf(stderr, "gemmkit bench: cannot write %s or %s (%s): plot skipped\n", dat, gp,
		        strerror(errno));
		return -1;
	}
	return bench_run_gnuplot(dir, base);
}

int bench_run_gnuplot(const char *dir, const char *base)
{
	char script[256];
	snprintf(script, sizeof script, "%s.gp", base);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "gemmkit bench: cannot start gnuplot (%s): plot skipped\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* The script names its files relative to the output directory. */
		if (chdir(dir) != 0)
			_exit(126);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		fprintf(stderr, "gemmkit bench: gnuplot not found (install gnuplot or gnuplot-nox): "
		        "%s.png skipped; %s.gp and %s.dat are in %s\n", base, base, base, dir);
	else
		fprintf(stderr, "gemmkit bench: gnuplot failed on %s/%s: %s.png skipped\n", dir, script, base);
	return -1;
}
