/*
 * gf256_field.c - arithmetic in GF(2^8) = GF(2)[x] / (x^8 + x^4 + x^3 + x^2 + 1)
 * (0x11D, the polynomial of ISA-L and most Reed-Solomon codes; 2 generates
 * the multiplicative group), the two coefficient formats of the kernels, and
 * Gauss-Jordan inversion.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "gf256_internal.h"

#define GK_GF256_POLY 0x11d

/* x * 2, x a field element (bits 0-7). */
static inline unsigned times2(unsigned x)
{
	x <<= 1;
	return x & 0x100 ? x ^ GK_GF256_POLY : x;
}

static gk_gf256_field field;
static pthread_once_t field_once = PTHREAD_ONCE_INIT;

static void build_field(void)
{
	unsigned x = 1;
	for (int i = 0; i < 255; i++) {
		field.exp[i] = (uint8_t)x;
		field.log[x] = (uint8_t)i;
		x = times2(x);
	}
	for (int i = 255; i < 512; i++)
		field.exp[i] = field.exp[i - 255];
	field.inv[0] = 0;
	for (int a = 1; a < 256; a++)
		field.inv[a] = field.exp[255 - field.log[a]];
}

const gk_gf256_field *gk_gf256_field_tables(void)
{
	pthread_once(&field_once, build_field);
	return &field;
}

static inline uint8_t fmul(const gk_gf256_field *f, uint8_t a, uint8_t b)
{
	return (a == 0 || b == 0) ? 0 : f->exp[f->log[a] + f->log[b]];
}

uint8_t gk_gf256_mul(uint8_t a, uint8_t b)
{
	return fmul(gk_gf256_field_tables(), a, b);
}

uint8_t gk_gf256_inv(uint8_t a)
{
	return gk_gf256_field_tables()->inv[a];
}

/* c * 2^b for b = 0..7, the images of the basis: every product by c is the
 * XOR of those of the bits of the other factor. */
static inline void basis_products(uint8_t c, uint8_t p[8])
{
	unsigned x = c;
	for (int b = 0; b < 8; b++) {
		p[b] = (uint8_t)x;
		x = times2(x);
	}
}

/* Both formats are made from the basis images, a few dozen operations per
 * coefficient: gk_gf256_gemm makes m x k of them every call, which through
 * the log tables, one product per entry, took a third of a 10+4 product on
 * 8 KiB rows with the GFNI kernels. */
void gk_gf256_expand(uint8_t c, uint8_t tbl[GK_GF256_TBL_BYTES])
{
	uint8_t p[8];
	basis_products(c, p);
	tbl[0] = tbl[16] = 0;
	for (int x = 1; x < 16; x++) {
		const int b = __builtin_ctz((unsigned)x), rest = x & (x - 1);
		tbl[x] = (uint8_t)(tbl[rest] ^ p[b]);
		tbl[16 + x] = (uint8_t)(tbl[16 + rest] ^ p[4 + b]);
	}
}

/*
 * GF2P8AFFINEQB computes bit i of each result byte as the parity of
 * (byte 7 - i of the matrix) AND (the source byte). "Times c" sends input bit
 * b to c * 2^b, so matrix byte 7 - i has bit b set when bit i of c * 2^b is:
 * the 8 x 8 bits of the images (byte b: c * 2^b) transposed, bytes reversed.
 */
uint64_t gk_gf256_affine(uint8_t c)
{
	uint8_t p[8];
	basis_products(c, p);
	uint64_t x = 0;
	for (int b = 0; b < 8; b++)
		x |= (uint64_t)p[b] << (8 * b);
	/* Bit s of byte r to bit r of byte s, in three rounds of swaps. */
	uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
	x ^= t ^ (t << 7);
	t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
	x ^= t ^ (t << 14);
	t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
	x ^= t ^ (t << 28);
	return __builtin_bswap64(x);
}

gk_status gk_gf256_invert_matrix(int64_t n, const uint8_t *in, uint8_t *out)
{
	GK_RETURN_IF(n < 0, GK_ERR_NEGATIVE_SIZE, "gk_gf256_invert_matrix: n = %lld < 0",
	             (long long)n);
	GK_RETURN_IF(n > 256, GK_ERR_UNSUPPORTED, "gk_gf256_invert_matrix: n = %lld > 256",
	             (long long)n);
	if (n == 0)
		return GK_OK;
	GK_RETURN_IF(in == NULL, GK_ERR_NULL_POINTER, "gk_gf256_invert_matrix: in is NULL");
	GK_RETURN_IF(out == NULL, GK_ERR_NULL_POINTER, "gk_gf256_invert_matrix: out is NULL");
	const gk_gf256_field *f = gk_gf256_field_tables();
	const size_t nn = (size_t)n * (size_t)n;
	/* Work on a copy: in is left alone, and in == out is allowed. */
	uint8_t *w = malloc(nn);
	GK_RETURN_IF(w == NULL, GK_ERR_NO_MEMORY, "gk_gf256_invert_matrix: no memory for %zu bytes",
	             nn);
	memcpy(w, in, nn);
	memset(out, 0, nn);
	for (int64_t i = 0; i < n; i++)
		out[i * n + i] = 1;

	for (int64_t c = 0; c < n; c++) {
		int64_t p = c;
		while (p < n && w[p * n + c] == 0)
			p++;
		if (p == n) {
			free(w);
			return gk_set_error(GK_ERR_SINGULAR,
			                    "gk_gf256_invert_matrix: singular (column %lld has no pivot)",
			                    (long long)c);
		}
		if (p != c) {
			for (int64_t j = 0; j < n; j++) {
				uint8_t t = w[p * n + j];
				w[p * n + j] = w[c * n + j];
				w[c * n + j] = t;
				t = out[p * n + j];
				out[p * n + j] = out[c * n + j];
				out[c * n + j] = t;
			}
		}
		/* Scale the pivot row to a leading 1, then clear column c elsewhere. */
		const uint8_t piv_inv = f->inv[w[c * n + c]];
		for (int64_t j = 0; j < n; j++) {
			w[c * n + j] = fmul(f, w[c * n + j], piv_inv);
			out[c * n + j] = fmul(f, out[c * n + j], piv_inv);
		}
		for (int64_t r = 0; r < n; r++) {
			const uint8_t e = w[r * n + c];
			if (r == c || e == 0)
				continue;
			const unsigned le = f->log[e];
			for (int64_t j = 0; j < n; j++) {
				const uint8_t wc = w[c * n + j], oc = out[c * n + j];
				if (wc)
					w[r * n + j] ^= f->exp[le + f->log[wc]];
				if (oc)
					out[r * n + j] ^= f->exp[le + f->log[oc]];
			}
		}
	}
	free(w);
	return GK_OK;
}
