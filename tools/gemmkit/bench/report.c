/*
 * report.c - the report writer of `gemmkit bench` (report.h): output
 * directory, Markdown kept in memory and written twice (stdout and
 * results.md), files opened and closed with their errors reported, and the
 * machine description shared by every suite's header and meta.txt.
 */
#define _GNU_SOURCE
#include "report.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "cli_util.h"
#include "engine.h"
#include "gemmkit.h"

static int make_dirs(const char *path)
{
	char buf[4096];
	if (strlen(path) >= sizeof buf)
		return -1;
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -1;
	struct stat sb;
	return stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode) ? 0 : -1;
}

int bench_report_begin(bench_report *r, const char *dir, const char *suite, int argc, char **argv)
{
	memset(r, 0, sizeof *r);
	r->dir = dir;
	r->suite = suite;
	r->argc = argc;
	r->argv = argv;
	r->t_start = bench_now();
	time_t now = time(NULL);
	strftime(r->date, sizeof r->date, "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
	if (make_dirs(dir) != 0) {
		cli_error("bench", "cannot create the output directory %s (%s)", dir, strerror(errno));
		return 1;
	}
	r->md = open_memstream(&r->md_buf, &r->md_len);
	if (r->md == NULL) {
		cli_error("bench", "out of memory");
		return 1;
	}
	return 0;
}

double bench_report_wall(const bench_report *r)
{
	return bench_now() - r->t_start;
}

FILE *bench_report_open(bench_report *r, const char *name)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", r->dir, name);
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		cli_error("bench", "cannot write %s (%s)", path, strerror(errno));
		r->failed = 1;
	}
	return f;
}

void bench_report_close(bench_report *r, FILE *f, const char *name)
{
	if (f == NULL)
		return;
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		cli_error("bench", "cannot write %s/%s (%s)", r->dir, name, strerror(errno));
		r->failed = 1;
	}
}

void bench_report_finish(bench_report *r)
{
	if (r->md == NULL)
		return;
	fclose(r->md);
	r->md = NULL;
	fputs(r->md_buf ? r->md_buf : "", stdout);
	fflush(stdout);
	FILE *f = bench_report_open(r, "results.md");
	if (f) {
		fputs(r->md_buf ? r->md_buf : "", f);
		bench_report_close(r, f, "results.md");
	}
	free(r->md_buf);
	r->md_buf = NULL;
}

static void put_quoted(FILE *f, const char *s);

void bench_md_header(bench_report *r, FILE *f)
{
	gk_info info;
	gk_get_info(&info);
	struct utsname u;
	memset(&u, 0, sizeof u);
	uname(&u);
	/* The command as given, and the suite whose settings it ran with
	 * (options such as --shapes replace some of them). */
	fprintf(f, "# gemmkit");
	for (int i = 0; i < r->argc; i++) {
		fputc(' ', f);
		put_quoted(f, r->argv[i]);
	}
	fprintf(f, "\n\nSuite: %s.\n\n", r->suite);
	fprintf(f, "- Machine: %s, %ld logical CPUs (%s %s %s)\n", info.cpu_name, sysconf(_SC_NPROCESSORS_ONLN),
	        u.sysname, u.release, u.machine);
	fprintf(f, "- Date: %s; total time %.0f s\n", r->date, bench_report_wall(r));
	fprintf(f, "- gemmkit %s, CPU kernel set %s", gk_version_string(), gk_arch_name());
}

static void put_quoted(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,=/:+") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

void bench_meta_machine(bench_report *r, FILE *f)
{
	gk_info info;
	gk_get_info(&info);
	struct utsname u;
	memset(&u, 0, sizeof u);
	uname(&u);
	fprintf(f, "command: gemmkit");
	for (int i = 0; i < r->argc; i++) {
		fputc(' ', f);
		put_quoted(f, r->argv[i]);
	}
	fprintf(f, "\nsuite: %s\ndate: %s\nwall_time_s: %.1f\n", r->suite, r->date, bench_report_wall(r));
	fprintf(f, "cpu: %s\nnproc: %ld\ncpu_features: %s\n", info.cpu_name, sysconf(_SC_NPROCESSORS_ONLN),
	        info.cpu_features);
	fprintf(f, "cache_l1d_bytes: %zu\ncache_l2_bytes: %zu\ncache_l3_bytes: %zu\n", info.l1d_bytes,
	        info.l2_bytes, info.l3_bytes);
	fprintf(f, "os: %s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version, u.machine);
	fprintf(f, "gemmkit: %s\ngemmkit_cpu_kernels: %s\n", gk_version_string(), gk_arch_name());
	if (getenv("GK_ARCH"))
		fprintf(f, "GK_ARCH: %s\n", getenv("GK_ARCH"));
}

void bench_fmt_rate(double g, char *buf, size_t len)
{
	if (g < 1)
		snprintf(buf, len, "%.3f", g);
	else if (g < 10)
		snprintf(buf, len, "%.2f", g);
	else
		snprintf(buf, len, "%.1f", g);
}
