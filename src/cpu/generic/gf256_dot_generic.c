/*
 * gf256_dot_generic.c - GF(2^8) dot products in portable C, the reference
 * every other GF(2^8) kernel is compared with.
 *
 *   void gk_gf256_dot<R>_generic(len, k, coef, src, dst, off, acc), R = 1..6
 *
 * dst[r][off + i] = (acc ? dst[r][off + i] : 0) ^ sum_j c(r, j) * src[j][off + i]
 * with c(r, j) given by its 32-byte expanded table at coef + (r * k + j) * 32
 * (kernel_api.h). Any length and alignment; only [off, off + len) is touched.
 *
 * Each product is two lookups, tbl[x & 15] ^ tbl[16 + (x >> 4)]: the same
 * split-nibble identity the SIMD kernels evaluate with byte shuffles.
 */
#include <string.h>
#include "kernel_api.h"
#include "kernels_generic.h"

/* Bytes of one output row kept in a local buffer while the k inputs are
 * folded in: small enough for L1 together with the inputs' blocks. */
#define GK_GF_GENERIC_BLOCK 512

static inline void dot_rows(int rows, int64_t len, int64_t k, const uint8_t *restrict coef,
                            const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                            int64_t off, int acc)
{
	uint8_t buf[GK_GF_GENERIC_BLOCK];
	acc &= GK_GF256_ACC; /* GK_GF256_STREAM: ignored */
	for (int64_t p = 0; p < len; p += GK_GF_GENERIC_BLOCK) {
		const int64_t n = len - p < GK_GF_GENERIC_BLOCK ? len - p : GK_GF_GENERIC_BLOCK;
		for (int r = 0; r < rows; r++) {
			uint8_t *d = dst[r] + off + p;
			if (acc)
				memcpy(buf, d, (size_t)n);
			else
				memset(buf, 0, (size_t)n);
			for (int64_t j = 0; j < k; j++) {
				const uint8_t *t = coef + (r * k + j) * GK_GF256_TBL_BYTES;
				const uint8_t *s = src[j] + off + p;
				for (int64_t i = 0; i < n; i++)
					buf[i] ^= t[s[i] & 15] ^ t[16 + (s[i] >> 4)];
			}
			memcpy(d, buf, (size_t)n);
		}
	}
}

void gk_gf256_dot1_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc)
{
	dot_rows(1, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot2_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc)
{
	dot_rows(2, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot3_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc)
{
	dot_rows(3, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot4_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc)
{
	dot_rows(4, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot5_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc)
{
	dot_rows(5, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot6_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc)
{
	dot_rows(6, len, k, coef, src, dst, off, acc);
}
