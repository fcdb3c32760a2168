/*
 * adapt.h - the thread count of a product learned by timing calls
 * (adapt.c): the threads its rule allows, or the calling thread alone,
 * whichever ran faster in the last run of calls of that kind and size.
 */
#ifndef GK_ADAPT_H
#define GK_ADAPT_H

#include <stdint.h>
#include "gk_internal.h"

typedef enum { GK_ADAPT_F32, GK_ADAPT_F64, GK_ADAPT_GF256, GK_ADAPT_KINDS } gk_adapt_kind;

/* One call's timing, from gk_adapt_begin to gk_adapt_end. */
typedef struct {
	void *c;
	int many;    /* timed on the threads (else on one) */
	int is_long; /* a class of the longer products */
	int kind, cls; /* for GK_ADAPT_TRACE */
	double work;
	int64_t t0;
} gk_adapt;
#define GK_ADAPT_INIT {NULL, 0, 0, 0, 0, 0.0, 0}

/* The threads a product of `work` units runs on: nt, the count its rule
 * allows, or 1. low is the least work the rule gives two threads; products
 * from low to 2^31 units are learned (adapt.c), the others run on nt. Every
 * call is followed by gk_adapt_end with the same pr once the product is
 * done. */
GK_HIDDEN int gk_adapt_begin(gk_adapt_kind kind, double work, double low, int nt, gk_adapt *pr);
GK_HIDDEN void gk_adapt_end_timed(gk_adapt *pr);
static inline void gk_adapt_end(gk_adapt *pr)
{
	if (pr->c != NULL) /* untimed calls (most) return without a call */
		gk_adapt_end_timed(pr);
}

#endif /* GK_ADAPT_H */
