/*
 * gf256_store.h - the output stores of the gf_dot kernels' main loops,
 * shared by the kernels of one vector width (kernel_api.h, GK_GF256_STREAM):
 * rows x two vectors, s0[r] at dst[r] + i and s1[r] one vector after it,
 * stored normally or, when nt, with non-temporal stores (dst[r] + i on a
 * 64-byte line: gk_gf256_streams). A kernel that streamed fences with
 * _mm_sfence() before it returns; and the length of a kernel's head
 * (gk_gf256_head_bytes). Include after <immintrin.h>, in a file compiled
 * for the width's instruction set.
 */
#ifndef GK_GF256_STORE_H
#define GK_GF256_STORE_H

#include <stdint.h>

/* The bytes from i up to the next multiple of vec (a power of two) when
 * every input and output row lies the same distance past one, so that a
 * kernel that does them first (its head) runs its loops on boundaries: a
 * load across two cache lines costs two. 0 when the rows are on a
 * boundary, or at different distances, or len is not longer than that. */
static inline int64_t gk_gf256_head_bytes(int rows, int64_t k, const uint8_t *const *src,
                                          uint8_t *const *dst, int64_t i, int64_t len, int64_t vec)
{
	const uintptr_t mis = (uintptr_t)(src[0] + i) & (uintptr_t)(vec - 1);
	if (mis == 0)
		return 0;
	for (int64_t j = 1; j < k; j++)
		if (((uintptr_t)(src[j] + i) & (uintptr_t)(vec - 1)) != mis)
			return 0;
	for (int r = 0; r < rows; r++)
		if (((uintptr_t)(dst[r] + i) & (uintptr_t)(vec - 1)) != mis)
			return 0;
	const int64_t n = vec - (int64_t)mis;
	return n < len ? n : 0;
}

#ifdef __AVX2__
static inline __attribute__((always_inline)) void
gk_gf256_store2_256(int rows, uint8_t *const *dst, int64_t i, const __m256i *s0, const __m256i *s1,
                    int nt)
{
	for (int r = 0; r < rows; r++) {
		__m256i *p = (__m256i *)(dst[r] + i);
		if (nt) {
			_mm256_stream_si256(p, s0[r]);
			_mm256_stream_si256(p + 1, s1[r]);
		} else {
			_mm256_storeu_si256(p, s0[r]);
			_mm256_storeu_si256(p + 1, s1[r]);
		}
	}
}
#endif

#ifdef __AVX512F__
static inline __attribute__((always_inline)) void
gk_gf256_store2_512(int rows, uint8_t *const *dst, int64_t i, const __m512i *s0, const __m512i *s1,
                    int nt)
{
	for (int r = 0; r < rows; r++) {
		__m512i *p = (__m512i *)(dst[r] + i);
		if (nt) {
			_mm512_stream_si512(p, s0[r]);
			_mm512_stream_si512(p + 1, s1[r]);
		} else {
			_mm512_storeu_si512(p, s0[r]);
			_mm512_storeu_si512(p + 1, s1[r]);
		}
	}
}
#endif

#endif
