/*
 * strassen_cutoff.c - where Strassen's recursion (strassen_tmpl.h) stops:
 * the cut-off and the number of levels it gives a product.
 */
#include <errno.h>
#include <stdlib.h>
#include "gk_internal.h"

int64_t gk_strassen_cutoff(void)
{
	/* Read at every call, so that a program can change it between calls;
	 * a getenv costs little beside even a small product. */
	const char *s = getenv("GK_STRASSEN_CUTOFF");
	if (s == NULL || *s == '\0')
		return GK_STRASSEN_CUTOFF_DEFAULT;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 1)
		return GK_STRASSEN_CUTOFF_DEFAULT;
	/* Very small blocks only multiply the overhead; the cap keeps 2 * cutoff
	 * far from overflow. */
	if (v < GK_STRASSEN_CUTOFF_MIN)
		return GK_STRASSEN_CUTOFF_MIN;
	return v > ((int64_t)1 << 40) ? (int64_t)1 << 40 : (int64_t)v;
}

int gk_strassen_levels(int64_t m, int64_t n, int64_t k)
{
	const int64_t cutoff = gk_strassen_cutoff();
	int levels = 0;
	while (m >= 2 * cutoff && n >= 2 * cutoff && k >= 2 * cutoff) {
		m /= 2;
		n /= 2;
		k /= 2;
		levels++;
	}
	return levels;
}
