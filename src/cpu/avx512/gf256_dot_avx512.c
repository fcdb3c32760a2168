/*
 * gf256_dot_avx512.c - GF(2^8) dot products with AVX-512BW byte shuffles.
 *
 *   void gk_gf256_dot<R>_avx512(len, k, coef, src, dst, off, acc), R = 1..6
 *
 * Contract: kernel_api.h (gk_gf256_dot_fn), 32-byte expanded tables. Any
 * length and alignment. Needs AVX-512F and AVX-512BW.
 *
 * The AVX2 method on 64-byte vectors: c * x = tbl_lo[x & 15] ^ tbl_hi[x >> 4]
 * by two VPSHUFB on a table broadcast to the four lanes, folded into the
 * row's accumulator with one VPTERNLOGD (a ^ b ^ c). The main loop takes two
 * vectors per input so each table, once in a register, serves 128 bytes;
 * 2 * R accumulators, two tables and four nibble vectors fit the 32 ZMM
 * registers. The tail (< 64 bytes) uses masked loads and stores, which do
 * not touch (or fault on) the bytes outside the mask.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "gf256_store.h"
#include "kernels_avx512.h"

#define VEC 64

static inline __m512i xor3(__m512i a, __m512i b, __m512i c)
{
	return _mm512_ternarylogic_epi32(a, b, c, 0x96);
}

static inline __m512i bcast_tbl(const uint8_t *t)
{
	return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)t));
}

static inline __attribute__((always_inline)) void
dot_rows(int rows, int64_t len, int64_t k, const uint8_t *restrict coef,
         const uint8_t *const *restrict src, uint8_t *const *restrict dst, int64_t off, int acc)
{
	const int64_t tstride = k * GK_GF256_TBL_BYTES;
	const __m512i mask = _mm512_set1_epi8(0x0f);
	const int nt = gk_gf256_streams(rows, dst, off, acc);
	acc &= GK_GF256_ACC;
	__m512i s0[GK_GF256_MAX_ROWS], s1[GK_GF256_MAX_ROWS];
	int64_t i = off;
	const int64_t end = off + len;
	for (; i + 2 * VEC <= end; i += 2 * VEC) {
		for (int r = 0; r < rows; r++) {
			s0[r] = acc ? _mm512_loadu_si512(dst[r] + i) : _mm512_setzero_si512();
			s1[r] = acc ? _mm512_loadu_si512(dst[r] + i + VEC) : _mm512_setzero_si512();
		}
		for (int64_t j = 0; j < k; j++) {
			const __m512i x0 = _mm512_loadu_si512(src[j] + i);
			const __m512i x1 = _mm512_loadu_si512(src[j] + i + VEC);
			const __m512i lo0 = _mm512_and_si512(x0, mask);
			const __m512i hi0 = _mm512_and_si512(_mm512_srli_epi64(x0, 4), mask);
			const __m512i lo1 = _mm512_and_si512(x1, mask);
			const __m512i hi1 = _mm512_and_si512(_mm512_srli_epi64(x1, 4), mask);
			const uint8_t *t = coef + j * GK_GF256_TBL_BYTES;
			for (int r = 0; r < rows; r++) {
				const __m512i tlo = bcast_tbl(t + r * tstride);
				const __m512i thi = bcast_tbl(t + r * tstride + 16);
				s0[r] = xor3(s0[r], _mm512_shuffle_epi8(tlo, lo0),
				             _mm512_shuffle_epi8(thi, hi0));
				s1[r] = xor3(s1[r], _mm512_shuffle_epi8(tlo, lo1),
				             _mm512_shuffle_epi8(thi, hi1));
			}
		}
		gk_gf256_store2_512(rows, dst, i, s0, s1, nt);
	}
	if (nt)
		_mm_sfence();
	/* At most two more vectors, the last one partial: masked throughout. */
	while (i < end) {
		const int64_t n = end - i < VEC ? end - i : VEC;
		const __mmask64 m = n == VEC ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
		for (int r = 0; r < rows; r++)
			s0[r] = acc ? _mm512_maskz_loadu_epi8(m, dst[r] + i) : _mm512_setzero_si512();
		for (int64_t j = 0; j < k; j++) {
			const __m512i x = _mm512_maskz_loadu_epi8(m, src[j] + i);
			const __m512i lo = _mm512_and_si512(x, mask);
			const __m512i hi = _mm512_and_si512(_mm512_srli_epi64(x, 4), mask);
			const uint8_t *t = coef + j * GK_GF256_TBL_BYTES;
			for (int r = 0; r < rows; r++)
				s0[r] = xor3(s0[r], _mm512_shuffle_epi8(bcast_tbl(t + r * tstride), lo),
				             _mm512_shuffle_epi8(bcast_tbl(t + r * tstride + 16), hi));
		}
		for (int r = 0; r < rows; r++)
			_mm512_mask_storeu_epi8(dst[r] + i, m, s0[r]);
		i += n;
	}
}

void gk_gf256_dot1_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc)
{
	dot_rows(1, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot2_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc)
{
	dot_rows(2, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot3_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc)
{
	dot_rows(3, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot4_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc)
{
	dot_rows(4, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot5_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc)
{
	dot_rows(5, len, k, coef, src, dst, off, acc);
}

void gk_gf256_dot6_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc)
{
	dot_rows(6, len, k, coef, src, dst, off, acc);
}
