/*
 * strassen_abc.h - what the production Strassen ("cpu.strassen",
 * strassen_abc_tmpl.h) shares between its float and double drivers and its
 * type-independent part (strassen_abc.c): the list of products one call
 * forms, and how many levels a shape gets. Private to src/gemm/.
 */
#ifndef GK_GEMM_STRASSEN_ABC_H
#define GK_GEMM_STRASSEN_ABC_H

#include <stdint.h>
#include "gk_internal.h"

/* Levels this driver can run: 7^L products, each a signed sum of up to 2^L
 * blocks of A times one of up to 2^L blocks of B, added into up to 2^L
 * blocks of C. */
#define GK_SABC_MAX_LEVELS 2
#define GK_SABC_MAX_TERMS 4   /* 2^GK_SABC_MAX_LEVELS */
#define GK_SABC_MAX_PRODUCTS 49 /* 7^GK_SABC_MAX_LEVELS */

/* One block of the 2^L x 2^L grid a matrix is cut into, with its sign. */
typedef struct {
	int8_t row, col, sign;
} gk_sabc_term;

/* One product M = (sum of a[]) (sum of b[]), added with c[i].sign into the
 * block c[i]; first[i] is set on the first product that reaches that block
 * of C, which applies beta to it (every block of C is reached). */
typedef struct {
	int na, nb, nc;
	gk_sabc_term a[GK_SABC_MAX_TERMS], b[GK_SABC_MAX_TERMS], c[GK_SABC_MAX_TERMS];
	unsigned char first[GK_SABC_MAX_TERMS];
} gk_sabc_product;

typedef struct {
	int levels, count;
	gk_sabc_product prod[GK_SABC_MAX_PRODUCTS];
} gk_sabc_plan;

/* The products of `levels` (1 .. GK_SABC_MAX_LEVELS) levels of Strassen's
 * algorithm, in the order they are formed. */
GK_HIDDEN void gk_sabc_plan_make(int levels, gk_sabc_plan *out);

#endif /* GK_GEMM_STRASSEN_ABC_H */
