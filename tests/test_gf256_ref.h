/*
 * test_gf256_ref.h - the independent GF(2^8) reference that the tests of the
 * field share (test_gf256.c, test_gf256_kernels.c, test_rs.c,
 * test_rs_threads.c): products from a 256 x 256 table built by bitwise
 * carry-less multiplication reduced by 0x11D, and the inverses read from
 * it, none of it from the library; and the byte buffers the tests use (an
 * allocation that exits when there is no memory, a random fill).
 */
#ifndef TEST_GF256_REF_H
#define TEST_GF256_REF_H
#include <stddef.h>
#include <stdint.h>
#include "test_util.h"

static uint8_t T[256][256]; /* T[a][b] = a * b, from ref_mul */
static uint8_t INV[256];    /* T[a][INV[a]] = 1; INV[0] = 0 */

static inline uint8_t ref_mul(uint8_t a, uint8_t b)
{
	unsigned p = 0, x = a;
	for (int i = 0; i < 8; i++)
		if (b & (1u << i))
			p ^= x << i;
	for (int i = 14; i >= 8; i--)
		if (p & (1u << i))
			p ^= 0x11du << (i - 8);
	return (uint8_t)p;
}

/* Fill T and INV; every test program calls it first. */
static inline void gf_ref_init(void)
{
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++) {
			T[a][b] = ref_mul((uint8_t)a, (uint8_t)b);
			if (T[a][b] == 1)
				INV[a] = (uint8_t)b;
		}
}

/* malloc that exits (status 2) saying "out of memory": tu_xmalloc. */
static inline void *xalloc(size_t bytes)
{
	return tu_xmalloc(bytes);
}

static inline void fill(uint8_t *p, size_t n, tu_rng *r)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)tu_next(r);
}

#endif /* TEST_GF256_REF_H */
