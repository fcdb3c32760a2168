/*
 * rs_progress.h - the progress line of `gemmkit rs`: about once a second on
 * stderr, overwritten in place, only when stderr is a terminal and --quiet
 * is not given (logs and pipes stay clean).
 */
#ifndef GK_RS_PROGRESS_H
#define GK_RS_PROGRESS_H

#include <stdint.h>

typedef struct rs_progress {
	int on, shown;
	const char *what;
	uint64_t total;
	double t0, last;
} rs_progress;

/* Start counting toward total bytes; what names the work ("encode"). */
void rs_progress_start(rs_progress *p, const char *what, uint64_t total, int quiet);
/* done bytes so far: redraw when a second has passed since the last line. */
void rs_progress_update(rs_progress *p, uint64_t done);
/* Erase the line, if one was drawn. */
void rs_progress_end(rs_progress *p);

#endif
