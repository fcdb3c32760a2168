/*
 * strassen_abc.c - the type-independent part of "cpu.strassen"
 * (strassen_abc_tmpl.h): the products of one or two levels of Strassen's
 * algorithm, and how many levels a shape gets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "strassen_abc.h"

/*
 * The smallest min(m, n, k) at which one and two levels run by default, per
 * precision: measured on a 2-core AMD Zen 4 (AVX-512 microkernels, 2
 * threads) against cpu.blocked, square sizes 1024 ... 8192
 * (docs/ARCHITECTURE.md, "Strassen"). One level loses or ties below 2048
 * and wins by 4 to 11% from there on. Two levels lose to one below 4096; in
 * double they beat it from 4096 on, in float they only tie with it up to
 * 6144 (one level then keeps the smaller error bound) and win at 8192.
 */
#define MIN1_F32 2048
#define MIN2_F32 8192
#define MIN1_F64 2048
#define MIN2_F64 4096
/* A level halves every side; blocks smaller than this are all overhead. */
#define MIN_BLOCK 8

/*
 * Strassen's one-level products (Strassen 1969, the form of Higham, section
 * 23.2.2), blocks numbered 2 * row + col:
 *   M1 = (A00 + A11)(B00 + B11)  C00 += M1, C11 += M1
 *   M2 = (A10 + A11) B00         C10 += M2, C11 -= M2
 *   M3 = A00 (B01 - B11)         C01 += M3, C11 += M3
 *   M4 = A11 (B10 - B00)         C00 += M4, C10 += M4
 *   M5 = (A00 + A01) B11         C00 -= M5, C01 += M5
 *   M6 = (A10 - A00)(B00 + B01)  C11 += M6
 *   M7 = (A01 - A11)(B10 + B11)  C00 += M7
 * Every product has at most two terms on each side (Winograd's form saves
 * three additions when they are separate passes, but has products of sums
 * of sums, which folded into packing cost more, not less).
 */
typedef struct {
	int n;
	struct { int blk, sign; } t[2];
} one_side;

static const one_side strassen_a[7] = {
	{2, {{0, 1}, {3, 1}}}, {2, {{2, 1}, {3, 1}}}, {1, {{0, 1}}}, {1, {{3, 1}}},
	{2, {{0, 1}, {1, 1}}}, {2, {{2, 1}, {0, -1}}}, {2, {{1, 1}, {3, -1}}},
};
static const one_side strassen_b[7] = {
	{2, {{0, 1}, {3, 1}}}, {1, {{0, 1}}}, {2, {{1, 1}, {3, -1}}}, {2, {{2, 1}, {0, -1}}},
	{1, {{3, 1}}}, {2, {{0, 1}, {1, 1}}}, {2, {{2, 1}, {3, 1}}},
};
static const one_side strassen_c[7] = {
	{2, {{0, 1}, {3, 1}}}, {2, {{2, 1}, {3, -1}}}, {2, {{1, 1}, {3, 1}}}, {2, {{0, 1}, {2, 1}}},
	{2, {{0, -1}, {1, 1}}}, {1, {{3, 1}}}, {1, {{0, 1}}},
};

/* The terms of the product r = (r_1, ..., r_L) on one side: every choice of
 * one term per level, the block at row sum_l row_l 2^(L-l), its sign the
 * product of the signs. */
static int side_terms(const one_side *tab, const int *r, int levels, gk_sabc_term *out)
{
	int count = 1;
	out[0] = (gk_sabc_term){0, 0, 1};
	for (int l = 0; l < levels; l++) {
		const one_side *s = &tab[r[l]];
		int next = 0;
		gk_sabc_term tmp[GK_SABC_MAX_TERMS];
		for (int i = 0; i < count; i++)
			for (int j = 0; j < s->n; j++)
				tmp[next++] = (gk_sabc_term){(int8_t)(2 * out[i].row + s->t[j].blk / 2),
				                             (int8_t)(2 * out[i].col + s->t[j].blk % 2),
				                             (int8_t)(out[i].sign * s->t[j].sign)};
		memcpy(out, tmp, sizeof(gk_sabc_term) * (size_t)next);
		count = next;
	}
	return count;
}

void gk_sabc_plan_make(int levels, gk_sabc_plan *out)
{
	unsigned char reached[1 << GK_SABC_MAX_LEVELS][1 << GK_SABC_MAX_LEVELS];
	memset(reached, 0, sizeof reached);
	int count = 1;
	for (int l = 0; l < levels; l++)
		count *= 7;
	out->levels = levels;
	out->count = count;
	for (int i = 0; i < count; i++) {
		/* Level 0 outermost: consecutive products share their outer factors. */
		int r[GK_SABC_MAX_LEVELS];
		for (int l = levels - 1, x = i; l >= 0; l--, x /= 7)
			r[l] = x % 7;
		gk_sabc_product *pr = &out->prod[i];
		pr->na = side_terms(strassen_a, r, levels, pr->a);
		pr->nb = side_terms(strassen_b, r, levels, pr->b);
		pr->nc = side_terms(strassen_c, r, levels, pr->c);
		for (int j = 0; j < pr->nc; j++) {
			pr->first[j] = !reached[pr->c[j].row][pr->c[j].col];
			reached[pr->c[j].row][pr->c[j].col] = 1;
		}
	}
}

/* GK_STRASSEN_MIN="t1" or "t1,t2": one level from min(m, n, k) >= t1 on, two
 * from t2 on (never without t2). Returns 0 when unset or malformed. */
static int read_min(int64_t *t1, int64_t *t2)
{
	const char *s = getenv("GK_STRASSEN_MIN");
	if (s == NULL || *s == '\0')
		return 0;
	char *end;
	errno = 0;
	long long a = strtoll(s, &end, 10), b = -1;
	if (errno != 0 || end == s || a < 1)
		return 0;
	if (*end == ',') {
		const char *s2 = end + 1;
		b = strtoll(s2, &end, 10);
		if (errno != 0 || end == s2 || b < 1)
			return 0;
	}
	if (*end != '\0')
		return 0;
	*t1 = a;
	*t2 = b < 0 ? INT64_MAX : b;
	return 1;
}

int gk_strassen_abc_levels(unsigned dtype, int64_t m, int64_t n, int64_t k)
{
	int64_t t1 = dtype == GK_DTYPE_F32 ? MIN1_F32 : MIN1_F64;
	int64_t t2 = dtype == GK_DTYPE_F32 ? MIN2_F32 : MIN2_F64;
	/* Read at every call, so that a program (a test, a benchmark) can change
	 * it between calls; a getenv is nothing beside a product this large. */
	read_min(&t1, &t2);
	int64_t s = m < n ? m : n;
	s = s < k ? s : k;
	int levels = s >= t2 ? 2 : s >= t1 ? 1 : 0;
	while (levels > 0 && s < ((int64_t)MIN_BLOCK << levels))
		levels--;
	return levels;
}
