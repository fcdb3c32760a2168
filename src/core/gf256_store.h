/*
 * gf256_store.h - the output stores of the gf_dot kernels' main loops,
 * shared by the kernels of one vector width (kernel_api.h, GK_GF256_STREAM):
 * rows x two vectors, s0[r] at dst[r] + i and s1[r] one vector after it,
 * stored normally or, when nt, with non-temporal stores (dst[r] + i on a
 * 64-byte line: gk_gf256_streams). A kernel that streamed fences with
 * _mm_sfence() before it returns; the length of a kernel's head
 * (gk_gf256_head_bytes) and the functions that do it (GK_GF256_HEAD_FN),
 * and for 32-byte vectors the zero-padded copy of a head or tail
 * (GK_GF256_PART256_FN). Include after <immintrin.h>, <string.h> and
 * kernel_api.h, in a file compiled for the width's instruction set.
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

/* A kernel's head as a function of its own, `name`, that does the n =
 * gk_gf256_head_bytes bytes at i with `part` (a statement that may use
 * rows, n, i, k, coef, src, dst and acc) and returns n. Not inlined: beside
 * a kernel's main loops it changed how the compiler laid them out (6+3
 * encode on 64 KiB shards at 0.57x with the AVX-512 GFNI kernel). */
#define GK_GF256_HEAD_FN(name, vec, part)                                                          \
	static __attribute__((noinline)) int64_t name(int rows, int64_t len, int64_t k,            \
	                                              const uint8_t *restrict coef,                \
	                                              const uint8_t *const *restrict src,          \
	                                              uint8_t *const *restrict dst, int64_t i,      \
	                                              int acc)                                     \
	{                                                                                          \
		const int64_t n = gk_gf256_head_bytes(rows, k, src, dst, i, len, vec);             \
		if (n > 0)                                                                         \
			part;                                                                      \
		return n;                                                                          \
	}

#ifdef __AVX2__
/* `name`: n < 32 bytes at i of every row through a zero-padded copy on the
 * stack, so that nothing outside them is read or written (a 32-byte
 * kernel's head and tail); `mad` (a statement) adds input j's products
 * with the vector x into s[0 .. rows). Not inlined: out of the kernel's
 * main loops. */
#define GK_GF256_PART256_FN(name, mad)                                                             \
	static __attribute__((noinline)) void name(int rows, size_t n, int64_t i, int64_t k,       \
	                                           const uint8_t *restrict coef,                   \
	                                           const uint8_t *const *restrict src,             \
	                                           uint8_t *const *restrict dst, int acc)          \
	{                                                                                          \
		__m256i s[GK_GF256_MAX_ROWS];                                                      \
		uint8_t pad[32] __attribute__((aligned(32)));                                     \
		for (int r = 0; r < rows; r++) {                                                   \
			memset(pad, 0, sizeof pad);                                                \
			if (acc)                                                                   \
				memcpy(pad, dst[r] + i, n);                                        \
			s[r] = _mm256_load_si256((const __m256i *)pad);                            \
		}                                                                                  \
		for (int64_t j = 0; j < k; j++) {                                                  \
			memset(pad, 0, sizeof pad);                                                \
			memcpy(pad, src[j] + i, n);                                                \
			const __m256i x = _mm256_load_si256((const __m256i *)pad);                 \
			mad;                                                                       \
		}                                                                                  \
		for (int r = 0; r < rows; r++) {                                                   \
			_mm256_store_si256((__m256i *)pad, s[r]);                                  \
			memcpy(dst[r] + i, pad, n);                                                \
		}                                                                                  \
	}

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
