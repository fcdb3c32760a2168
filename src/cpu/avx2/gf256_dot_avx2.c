/*
 * gf256_dot_avx2.c - GF(2^8) dot products with AVX2 byte shuffles.
 *
 *   void gk_gf256_dot<R>_avx2(len, k, coef, src, dst, off, acc), R = 1..6
 *
 * Contract: kernel_api.h (gk_gf256_dot_fn), 32-byte expanded tables. Any
 * length and alignment. Needs AVX2.
 *
 * c * x = tbl_lo[x & 15] ^ tbl_hi[x >> 4]: VPSHUFB looks up 32 nibbles at
 * once in a 16-byte table broadcast to both 128-bit lanes. One pass over the
 * columns of every input updates all R output rows, which stay in
 * registers. Up to 4 rows, each iteration takes two 32-byte vectors of every
 * input, so each pair of broadcast tables serves 64 bytes: 8 accumulators,
 * 4 nibble vectors, the mask, 2 tables and 1 product fill the 16 YMM
 * registers exactly (the empty asm statements keep GCC from reordering the
 * XORs into a form that needs a 17th and spills an accumulator). One or two
 * rows take four vectors (mad4: the decode of one or two lost shards, the
 * encode of 4+2: 1.01-1.17x two vectors on a Zen 5 core), 5 and 6 rows one
 * vector per iteration. Without acc the first input's
 * products start the sums (no XOR into zero). Per 32 bytes of an input and
 * R rows: 2R VPSHUFB, 2R VPXOR and 3 operations for the nibble split, with
 * the table loads (broadcasts, no ALU work) beside them; on a core with 4
 * vector ALU pipes, 2 of which shuffle (Zen 4, Zen 5), the 4R + 3 ALU
 * operations are the bound, where ISA-L's AVX2 kernels spend 3R + 2 on the
 * shuffle pipes alone (a lane swap of each table and two of the nibbles).
 * Long rows also request each input a little ahead
 * (PREFETCHT0: a hint, never a read that can fault). Rows that all start
 * the same distance past 32 bytes (blocks from malloc) do the bytes up to
 * it first (head), so that no load of the loops crosses a line. The head
 * and the last len % 32 bytes go through a zero-padded copy on the stack
 * (part), so nothing outside [off, off + len) is read or written.
 */
#include <immintrin.h>
#include <string.h>
#include "kernel_api.h"
#include "gf256_store.h"
#include "kernels_avx2.h"

#define VEC 32
/* Rows at least GK_GF256_PF_MIN long, or any rows with GK_GF256_FAR (the
 * driver's column blocks of many inputs), stream from L3 or memory: there each
 * input is also requested GK_GF256_PF_AHEAD bytes ahead of the 64 in work
 * (10+4 and 12+4 on 1 MiB rows: 10-20% faster on a Zen 3 core), half as far
 * for one or two output rows (the decode of two lost shards: 10+4 and 12+4
 * 1.09-1.10x on a Zen 5 core against 512, 4+2 and 6+3 1.02x; 1024 and
 * 2048 were slower). Shorter rows do without: the requests take load
 * slots, 2-5% of the time of rows in L1, no difference measurable on
 * 64 KiB rows. */
#define GK_GF256_PF_MIN (256 * 1024)
#define GK_GF256_PF_AHEAD 512
#define GK_GF256_PF_AHEAD_FEW 256

/* Keeps v in a register at this point of the program: a scheduling fence
 * for the compiler only, no instruction. */
#define GK_PIN(v) __asm__("" : "+x"(v))

static inline __attribute__((always_inline)) __m256i
bcast_table(const uint8_t *p)
{
	return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}

/* s[r] ^= c(r, j) * x for every row r (s[r] = that product when first);
 * t is c(0, j)'s table, rows are tstride bytes apart. */
static inline __attribute__((always_inline)) void
mad_vec(int rows, int first, __m256i x, const uint8_t *t, int64_t tstride, __m256i *s)
{
	const __m256i mask = _mm256_set1_epi8(0x0f);
	const __m256i lo = _mm256_and_si256(x, mask);
	const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), mask);
	for (int r = 0; r < rows; r++) {
		const uint8_t *tr = t + r * tstride;
		const __m256i tlo = bcast_table(tr);
		const __m256i thi = bcast_table(tr + 16);
		const __m256i prod = _mm256_xor_si256(_mm256_shuffle_epi8(tlo, lo),
		                                      _mm256_shuffle_epi8(thi, hi));
		s[r] = first ? prod : _mm256_xor_si256(s[r], prod);
	}
}

/* The rows <= 4 step: s0[r], s1[r] ^= c(r, j) * the two vectors at p (set to
 * it when first). The PINs keep one product register live at a time, so
 * 8 accumulators, 4 nibble vectors, the mask and 2 tables fit 16 YMM. */
static inline __attribute__((always_inline)) void
mad2(int rows, int first, int pf, const uint8_t *p, const uint8_t *t, int64_t tstride,
     int64_t ahead, __m256i *s0, __m256i *s1)
{
	const __m256i mask = _mm256_set1_epi8(0x0f);
	if (pf)
		_mm_prefetch((const char *)(p + ahead), _MM_HINT_T0);
	const __m256i x0 = _mm256_loadu_si256((const __m256i *)p);
	const __m256i x1 = _mm256_loadu_si256((const __m256i *)(p + VEC));
	const __m256i lo0 = _mm256_and_si256(x0, mask);
	const __m256i hi0 = _mm256_and_si256(_mm256_srli_epi16(x0, 4), mask);
	const __m256i lo1 = _mm256_and_si256(x1, mask);
	const __m256i hi1 = _mm256_and_si256(_mm256_srli_epi16(x1, 4), mask);
	for (int r = 0; r < rows; r++) {
		const __m256i tlo = bcast_table(t + r * tstride);
		const __m256i thi = bcast_table(t + r * tstride + 16);
		if (first) {
			s0[r] = _mm256_shuffle_epi8(tlo, lo0);
			GK_PIN(s0[r]);
			s1[r] = _mm256_shuffle_epi8(tlo, lo1);
			GK_PIN(s1[r]);
		} else {
			s0[r] = _mm256_xor_si256(s0[r], _mm256_shuffle_epi8(tlo, lo0));
			GK_PIN(s0[r]);
			s1[r] = _mm256_xor_si256(s1[r], _mm256_shuffle_epi8(tlo, lo1));
			GK_PIN(s1[r]);
		}
		s0[r] = _mm256_xor_si256(s0[r], _mm256_shuffle_epi8(thi, hi0));
		GK_PIN(s0[r]);
		s1[r] = _mm256_xor_si256(s1[r], _mm256_shuffle_epi8(thi, hi1));
		GK_PIN(s1[r]);
	}
}

/* The rows <= 2 step, four vectors at p: s[v][r] ^= c(r, j) * vector v
 * (set to it when first). The tables of both rows stay in 4 registers for
 * the four vectors, each vector split into nibbles just before its use: 8
 * accumulators, 4 tables, the mask, 2 nibble vectors and 1 product. */
static inline __attribute__((always_inline)) void
mad4(int rows, int first, int pf, const uint8_t *p, const uint8_t *t, int64_t tstride,
     int64_t ahead, __m256i s[4][2])
{
	const __m256i mask = _mm256_set1_epi8(0x0f);
	if (pf) {
		_mm_prefetch((const char *)(p + ahead), _MM_HINT_T0);
		_mm_prefetch((const char *)(p + ahead + 2 * VEC), _MM_HINT_T0);
	}
	__m256i tlo[2], thi[2];
	for (int r = 0; r < rows; r++) {
		tlo[r] = bcast_table(t + r * tstride);
		thi[r] = bcast_table(t + r * tstride + 16);
	}
	for (int v = 0; v < 4; v++) {
		const __m256i x = _mm256_loadu_si256((const __m256i *)(p + v * VEC));
		const __m256i lo = _mm256_and_si256(x, mask);
		const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), mask);
		for (int r = 0; r < rows; r++) {
			const __m256i pl = _mm256_shuffle_epi8(tlo[r], lo);
			s[v][r] = first ? pl : _mm256_xor_si256(s[v][r], pl);
			GK_PIN(s[v][r]);
			s[v][r] = _mm256_xor_si256(s[v][r], _mm256_shuffle_epi8(thi[r], hi));
			GK_PIN(s[v][r]);
		}
	}
}

/* The head and the tail (gf256_store.h). */
GK_GF256_PART256_FN(part, mad_vec(rows, 0, x, coef + j * GK_GF256_TBL_BYTES, k * GK_GF256_TBL_BYTES, s))
/* Rows that all start the same distance past 32 bytes (blocks from malloc,
 * 16 bytes past a page): the bytes up to it first, so that no load or
 * store of dot_rows's loops crosses a cache line. */
GK_GF256_HEAD_FN(head, VEC, part(rows, (size_t)n, i, k, coef, src, dst, acc & GK_GF256_ACC))

static inline __attribute__((always_inline)) void
dot_rows(int rows, int pf, int64_t len, int64_t k, const uint8_t *restrict coef,
         const uint8_t *const *restrict src, uint8_t *const *restrict dst, int64_t off, int acc)
{
	const int64_t tstride = k * GK_GF256_TBL_BYTES;
	const int64_t ahead = rows <= 2 ? GK_GF256_PF_AHEAD_FEW : GK_GF256_PF_AHEAD;
	const int nt = gk_gf256_streams(rows, dst, off, acc);
	acc &= GK_GF256_ACC;
	__m256i s[GK_GF256_MAX_ROWS];
	int64_t i = off;
	const int64_t end = off + len;
	if (rows <= 2) {
		for (; i + 4 * VEC <= end; i += 4 * VEC) {
			__m256i s4[4][2];
			int64_t j = 0;
			const uint8_t *t = coef;
			if (acc) {
				for (int v = 0; v < 4; v++)
					for (int r = 0; r < rows; r++)
						s4[v][r] = _mm256_loadu_si256((const __m256i *)(dst[r] + i + v * VEC));
			} else {
				mad4(rows, 1, pf, src[0] + i, t, tstride, ahead, s4);
				j = 1;
				t += GK_GF256_TBL_BYTES;
			}
			for (; j < k; j++, t += GK_GF256_TBL_BYTES)
				mad4(rows, 0, pf, src[j] + i, t, tstride, ahead, s4);
			gk_gf256_store2_256(rows, dst, i, s4[0], s4[1], nt);
			gk_gf256_store2_256(rows, dst, i + 2 * VEC, s4[2], s4[3], nt);
		}
	}
	if (rows <= 4) {
		for (; i + 2 * VEC <= end; i += 2 * VEC) {
			__m256i s0[4], s1[4];
			/* Without acc the first input's products start the sums: no
			 * XOR into zero (R fewer XORs per k inputs). */
			int64_t j = 0;
			const uint8_t *t = coef;
			if (acc) {
				for (int r = 0; r < rows; r++) {
					s0[r] = _mm256_loadu_si256((const __m256i *)(dst[r] + i));
					s1[r] = _mm256_loadu_si256((const __m256i *)(dst[r] + i + VEC));
				}
			} else {
				mad2(rows, 1, pf, src[0] + i, t, tstride, ahead, s0, s1);
				j = 1;
				t += GK_GF256_TBL_BYTES;
			}
			for (; j < k; j++, t += GK_GF256_TBL_BYTES)
				mad2(rows, 0, pf, src[j] + i, t, tstride, ahead, s0, s1);
			gk_gf256_store2_256(rows, dst, i, s0, s1, nt);
		}
	}
	if (nt)
		_mm_sfence();
	for (; i + VEC <= end; i += VEC) {
		if (acc)
			for (int r = 0; r < rows; r++)
				s[r] = _mm256_loadu_si256((const __m256i *)(dst[r] + i));
		else
			mad_vec(rows, 1, _mm256_loadu_si256((const __m256i *)(src[0] + i)), coef, tstride, s);
		for (int64_t j = acc ? 0 : 1; j < k; j++) {
			const __m256i x = _mm256_loadu_si256((const __m256i *)(src[j] + i));
			mad_vec(rows, 0, x, coef + j * GK_GF256_TBL_BYTES, tstride, s);
		}
		for (int r = 0; r < rows; r++)
			_mm256_storeu_si256((__m256i *)(dst[r] + i), s[r]);
	}
	if (i < end)
		part(rows, (size_t)(end - i), i, k, coef, src, dst, acc);
}

/* Whether the inputs stream from L3 or memory (GK_GF256_PF_MIN above). */
static inline int wants_pf(int64_t len, int acc)
{
	return len >= GK_GF256_PF_MIN || (acc & GK_GF256_FAR) != 0;
}

void gk_gf256_dot1_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int pf = wants_pf(len, acc);
	const int64_t h = head(1, len, k, coef, src, dst, off, acc);
	if (pf)
		dot_rows(1, 1, len - h, k, coef, src, dst, off + h, acc);
	else
		dot_rows(1, 0, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot2_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int pf = wants_pf(len, acc);
	const int64_t h = head(2, len, k, coef, src, dst, off, acc);
	if (pf)
		dot_rows(2, 1, len - h, k, coef, src, dst, off + h, acc);
	else
		dot_rows(2, 0, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot3_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int pf = wants_pf(len, acc);
	const int64_t h = head(3, len, k, coef, src, dst, off, acc);
	if (pf)
		dot_rows(3, 1, len - h, k, coef, src, dst, off + h, acc);
	else
		dot_rows(3, 0, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot4_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int pf = wants_pf(len, acc);
	const int64_t h = head(4, len, k, coef, src, dst, off, acc);
	if (pf)
		dot_rows(4, 1, len - h, k, coef, src, dst, off + h, acc);
	else
		dot_rows(4, 0, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot5_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int64_t h = head(5, len, k, coef, src, dst, off, acc);
	dot_rows(5, 0, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot6_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int64_t h = head(6, len, k, coef, src, dst, off, acc);
	dot_rows(6, 0, len - h, k, coef, src, dst, off + h, acc);
}
