/* rs_progress.c - see rs_progress.h. */
#include <stdio.h>
#include <unistd.h>
#include "cli_util.h"
#include "rs/rs_progress.h"

void rs_progress_start(rs_progress *p, const char *what, uint64_t total, int quiet)
{
	p->on = !quiet && isatty(STDERR_FILENO);
	p->shown = 0;
	p->what = what;
	p->total = total;
	p->t0 = p->last = cli_now();
}

void rs_progress_update(rs_progress *p, uint64_t done)
{
	if (!p->on)
		return;
	double t = cli_now();
	if (t - p->last < 1.0)
		return;
	p->last = t;
	p->shown = 1;
	const double mib = 1024.0 * 1024.0;
	fprintf(stderr, "\r%s: %.1f / %.1f MiB (%.0f%%), %.0f MB/s   ", p->what, done / mib,
	        p->total / mib, p->total ? 100.0 * done / p->total : 100.0,
	        done / (t - p->t0) / 1e6);
	fflush(stderr);
}

void rs_progress_end(rs_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%*s\r", 72, "");
}
