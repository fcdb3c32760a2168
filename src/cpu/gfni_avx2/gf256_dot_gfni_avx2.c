/*
 * gf256_dot_gfni_avx2.c - GF(2^8) dot products with GFNI on 32-byte vectors.
 *
 *   void gk_gf256_dot<R>_gfni_avx2(len, k, coef, src, dst, off, acc), R = 1..6
 *
 * Contract: kernel_api.h (gk_gf256_dot_fn), with 8-byte affine matrices as
 * coefficients (GK_GF256_AFFINE_BYTES), not the 32-byte tables. Any length
 * and alignment. Needs GFNI and AVX2, no AVX-512: for the CPUs that have
 * GFNI on 256-bit vectors only (Intel Alder Lake and later clients, the
 * Tremont and Gracemont cores).
 *
 * GF2P8MULB multiplies modulo the AES polynomial 0x11B, not our 0x11D, so it
 * cannot be used; "times c" is linear over GF(2), and the VEX form of
 * VGF2P8AFFINEQB applies its 8x8 bit matrix to 32 bytes at once, whatever
 * the polynomial. Per product and 32 bytes: one VGF2P8AFFINEQB and one
 * VPXOR, against two VPSHUFB, two VPXOR and the nibble split of the table
 * kernels. Each iteration takes two 32-byte vectors of every input, so each
 * broadcast matrix serves 64 bytes: 2 x 6 accumulators, the two input
 * vectors, the matrix and one product fill the 16 YMM registers. One or two
 * rows of up to 8 inputs take four vectors (128 bytes a matrix) unless the
 * driver says the inputs come from past L2 (GK_GF256_FAR): forced on a Zen 5
 * core, 4+2 and 6+3 on 16-64 KiB shards 1.17-1.33x, 10+4 decode 1.22-1.25x;
 * 4+2 on 1 MiB shards 0.91 without that exception
 * (bench/results/2026-11-28-zen5-cpu/logs/gfni_avx2_rows12_ab.log). Rows
 * that all start the same distance past 32 bytes (blocks from malloc) do
 * the bytes up to it first (head), so that no load of the loops crosses a
 * line. The head and the last len % 32 bytes go through a zero-padded copy
 * on the stack (part), so nothing outside [off, off + len) is touched.
 */
#include <immintrin.h>
#include <string.h>
#include "kernel_api.h"
#include "gf256_store.h"
#include "kernels_gfni_avx2.h"

#define VEC 32

/* With GK_GF256_FAR (the inputs come from past L2) and at least
 * GK_GFNI_PF_MIN_K inputs, the main loop also requests each input's line
 * GK_GFNI_PF_AHEAD bytes ahead: a dozen read streams or more are more than
 * the hardware prefetchers always follow. On a Zen 5 guest, 1 thread, 1 MiB
 * shards, against ISA-L's AVX2 path in the same run: in one phase of the
 * host 10+4 and 12+4 encode 1.9-2.0x -> 2.5-2.6x, decode 1.7-1.8x ->
 * 3.0-3.3x, 28+4 2.3-2.5x -> 3.1-3.6x (256 bytes ahead: about half the
 * gain); later, when the hardware kept up (10+4 encode 2.55x without),
 * within 2% either way; 4+2 unchanged
 * (bench/results/2026-11-30-zen5-gf-prefetch/). */
#define GK_GFNI_PF_AHEAD 512
#define GK_GFNI_PF_MIN_K 9

/* Keeps v in a register at this point of the program: a scheduling fence
 * for the compiler only, no instruction. */
#define GK_PIN(v) __asm__("" : "+x"(v))

static inline __attribute__((always_inline)) __m256i load_matrix(const uint8_t *p)
{
	uint64_t q;
	memcpy(&q, p, sizeof q);
	return _mm256_set1_epi64x((long long)q);
}

static inline __attribute__((always_inline)) __m256i mul(__m256i x, __m256i a)
{
	return _mm256_gf2p8affine_epi64_epi8(x, a, 0);
}

/* s[r] ^= c(r, j) * x for every row r; c points at c(0, j), rows are
 * mstride bytes apart. */
static inline __attribute__((always_inline)) void
mad_vec(int rows, __m256i x, const uint8_t *c, int64_t mstride, __m256i *s)
{
	for (int r = 0; r < rows; r++)
		s[r] = _mm256_xor_si256(s[r], mul(x, load_matrix(c + r * mstride)));
}

/* The main loop's step: s0[r], s1[r] ^= c(r, j) * the two vectors at p (set
 * to it when first); with ahead > 0, the line `ahead` bytes on requested. */
static inline __attribute__((always_inline)) void
mad2(int rows, int first, const uint8_t *p, const uint8_t *c, int64_t mstride, __m256i *s0,
     __m256i *s1, int64_t ahead)
{
	if (ahead)
		_mm_prefetch((const char *)(p + ahead), _MM_HINT_T0);
	const __m256i x0 = _mm256_loadu_si256((const __m256i *)p);
	const __m256i x1 = _mm256_loadu_si256((const __m256i *)(p + VEC));
	for (int r = 0; r < rows; r++) {
		__m256i m = load_matrix(c + r * mstride);
		GK_PIN(m);
		s0[r] = first ? mul(x0, m) : _mm256_xor_si256(s0[r], mul(x0, m));
		GK_PIN(s0[r]);
		s1[r] = first ? mul(x1, m) : _mm256_xor_si256(s1[r], mul(x1, m));
		GK_PIN(s1[r]);
	}
}

/* mad2 on four vectors at p: s0..s3[r] ^= c(r, j) * them (set when first). */
static inline __attribute__((always_inline)) void
mad4(int rows, int first, const uint8_t *p, const uint8_t *c, int64_t mstride, __m256i (*s)[2])
{
	for (int v = 0; v < 4; v++) {
		const __m256i x = _mm256_loadu_si256((const __m256i *)(p + v * VEC));
		for (int r = 0; r < rows; r++) {
			__m256i m = load_matrix(c + r * mstride);
			GK_PIN(m);
			s[v][r] = first ? mul(x, m) : _mm256_xor_si256(s[v][r], mul(x, m));
			GK_PIN(s[v][r]);
		}
	}
}

/* The head and the tail (gf256_store.h). */
GK_GF256_PART256_FN(part, mad_vec(rows, x, coef + j * GK_GF256_AFFINE_BYTES, k * GK_GF256_AFFINE_BYTES, s))
/* Rows that all start the same distance past 32 bytes (blocks from malloc,
 * 16 bytes past a page): the bytes up to it first, so that no load or
 * store of dot_rows's loops crosses a cache line. */
GK_GF256_HEAD_FN(head, VEC, part(rows, (size_t)n, i, k, coef, src, dst, acc & GK_GF256_ACC))

static inline __attribute__((always_inline)) void
dot_rows(int rows, int64_t len, int64_t k, const uint8_t *restrict coef,
         const uint8_t *const *restrict src, uint8_t *const *restrict dst, int64_t off, int acc)
{
	const int64_t mstride = k * GK_GF256_AFFINE_BYTES;
	const int nt = gk_gf256_streams(rows, dst, off, acc);
	const int far = (acc & GK_GF256_FAR) != 0;
	const int64_t ahead = far && k >= GK_GFNI_PF_MIN_K ? GK_GFNI_PF_AHEAD : 0;
	acc &= GK_GF256_ACC;
	__m256i s[GK_GF256_MAX_ROWS];
	int64_t i = off;
	const int64_t end = off + len;
	/* One or two rows of up to 8 inputs in cache: four vectors per input,
	 * each matrix serving 128 bytes. */
	if (rows <= 2 && k <= 8 && !far)
		for (; i + 4 * VEC <= end; i += 4 * VEC) {
			__m256i u[4][2];
			int64_t j = 0;
			const uint8_t *c = coef;
			if (acc) {
				for (int v = 0; v < 4; v++)
					for (int r = 0; r < rows; r++)
						u[v][r] = _mm256_loadu_si256((const __m256i *)(dst[r] + i + v * VEC));
			} else {
				mad4(rows, 1, src[0] + i, c, mstride, u);
				j = 1;
				c += GK_GF256_AFFINE_BYTES;
			}
			for (; j < k; j++, c += GK_GF256_AFFINE_BYTES)
				mad4(rows, 0, src[j] + i, c, mstride, u);
			__m256i s0[2] = {u[0][0], u[0][1]}, s1[2] = {u[1][0], u[1][1]};
			__m256i s2[2] = {u[2][0], u[2][1]}, s3[2] = {u[3][0], u[3][1]};
			gk_gf256_store2_256(rows, dst, i, s0, s1, nt);
			gk_gf256_store2_256(rows, dst, i + 2 * VEC, s2, s3, nt);
		}
	for (; i + 2 * VEC <= end; i += 2 * VEC) {
		__m256i s0[GK_GF256_MAX_ROWS], s1[GK_GF256_MAX_ROWS];
		/* Without acc the first input's products start the sums: no
		 * XOR into zero (R fewer XORs per k inputs). */
		int64_t j = 0;
		const uint8_t *c = coef;
		if (acc) {
			for (int r = 0; r < rows; r++) {
				s0[r] = _mm256_loadu_si256((const __m256i *)(dst[r] + i));
				s1[r] = _mm256_loadu_si256((const __m256i *)(dst[r] + i + VEC));
			}
		} else {
			mad2(rows, 1, src[0] + i, c, mstride, s0, s1, ahead);
			j = 1;
			c += GK_GF256_AFFINE_BYTES;
		}
		for (; j < k; j++, c += GK_GF256_AFFINE_BYTES)
			mad2(rows, 0, src[j] + i, c, mstride, s0, s1, ahead);
		gk_gf256_store2_256(rows, dst, i, s0, s1, nt);
	}
	if (nt)
		_mm_sfence();
	for (; i + VEC <= end; i += VEC) {
		for (int r = 0; r < rows; r++)
			s[r] = acc ? _mm256_loadu_si256((const __m256i *)(dst[r] + i))
			            : _mm256_setzero_si256();
		for (int64_t j = 0; j < k; j++)
			mad_vec(rows, _mm256_loadu_si256((const __m256i *)(src[j] + i)),
			        coef + j * GK_GF256_AFFINE_BYTES, mstride, s);
		for (int r = 0; r < rows; r++)
			_mm256_storeu_si256((__m256i *)(dst[r] + i), s[r]);
	}
	if (i < end)
		part(rows, (size_t)(end - i), i, k, coef, src, dst, acc);
}

void gk_gf256_dot1_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc)
{
	const int64_t h = head(1, len, k, coef, src, dst, off, acc);
	dot_rows(1, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot2_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc)
{
	const int64_t h = head(2, len, k, coef, src, dst, off, acc);
	dot_rows(2, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot3_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc)
{
	const int64_t h = head(3, len, k, coef, src, dst, off, acc);
	dot_rows(3, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot4_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc)
{
	const int64_t h = head(4, len, k, coef, src, dst, off, acc);
	dot_rows(4, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot5_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc)
{
	const int64_t h = head(5, len, k, coef, src, dst, off, acc);
	dot_rows(5, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot6_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc)
{
	const int64_t h = head(6, len, k, coef, src, dst, off, acc);
	dot_rows(6, len - h, k, coef, src, dst, off + h, acc);
}
