/*
 * gf256_dot_gfni.c - GF(2^8) dot products with GFNI on 64-byte vectors.
 *
 *   void gk_gf256_dot<R>_gfni(len, k, coef, src, dst, off, acc), R = 1..6
 *
 * Contract: kernel_api.h (gk_gf256_dot_fn), with 8-byte affine matrices as
 * coefficients (GK_GF256_AFFINE_BYTES), not the 32-byte tables. Any length
 * and alignment. Needs GFNI, AVX-512F and AVX-512BW.
 *
 * GF2P8MULB multiplies modulo the AES polynomial 0x11B, not our 0x11D, so it
 * cannot be used. But "times c" is linear over GF(2): VGF2P8AFFINEQB applies
 * an 8x8 bit matrix to every byte, so one instruction multiplies 64 bytes by
 * c, whatever the polynomial. Inputs are taken in pairs so that one
 * VPTERNLOGD folds two products into an accumulator; two vectors per input
 * per iteration let each broadcast matrix serve 128 bytes, four where
 * rows of up to 8 inputs leave the registers for them (256 bytes; for one
 * or two rows on a Zen 5 core, runs in both orders, 4+2 encode on 64 KiB
 * shards 1.06-1.41x, 6+3 decode 1.16-1.43x, 16 KiB 1.00-1.37x, 1 MiB shards
 * and 4+2 decode within the host's spread,
 * bench/results/2026-11-28-zen5-cpu/logs/gfni_rows12_ab.log; for three to
 * six rows, dot_rows), and so do rows of 9 to 16 inputs that come from past
 * L2 (dot_rows). The
 * tail (< 64 bytes) uses masked loads and stores.
 */
#include <immintrin.h>
#include <string.h>
#include "kernel_api.h"
#include "gf256_store.h"
#include "kernels_gfni.h"

#define VEC 64

/* With GK_GF256_FAR (the inputs come from past L2) and at least
 * GK_GFNI_PF_MIN_K inputs, each input is also requested GK_GFNI_PF_AHEAD
 * bytes ahead of the vectors in work: a dozen read streams or more are more
 * than the hardware prefetchers always follow. On a Zen 5 guest, 1 thread,
 * 1 MiB shards, against ISA-L in the same run: in one phase of the host
 * 12+4 encode 1.23x -> 2.36-2.56x, decode 1.27x -> 2.00-2.18x, 28+4
 * 2.2-2.5x -> 3.1-3.8x; half an hour later, when the hardware kept up (12+4
 * encode 2.0x without), within the noise either way (10+4 and 28+4 on 1
 * MiB 0.97-1.15x, 28+4 on 64 KiB 0.90-1.02x). 4+2 and 6+3, whose few
 * streams the hardware follows, ran 3-17% slower with it and do without
 * (bench/results/2026-11-30-zen5-gf-prefetch/). */
#define GK_GFNI_PF_AHEAD 512
#define GK_GFNI_PF_MIN_K 9

static inline __m512i xor3(__m512i a, __m512i b, __m512i c)
{
	return _mm512_ternarylogic_epi32(a, b, c, 0x96);
}

static inline __m512i load_matrix(const uint8_t *p)
{
	uint64_t q;
	memcpy(&q, p, sizeof q);
	return _mm512_set1_epi64((long long)q);
}

static inline __m512i mul(__m512i x, __m512i a)
{
	return _mm512_gf2p8affine_epi64_epi8(x, a, 0);
}

/* nv vectors (2 or 4) at i of every row: s[v][r] = (dst[r]'s when acc) ^
 * the sum over j of c(r, j) * src[j]'s vector v, inputs in pairs, then
 * stored; with ahead > 0, each input's lines `ahead` bytes on requested. */
static inline __attribute__((always_inline)) void
step(int rows, int nv, int64_t i, int64_t k, int64_t mstride, const uint8_t *restrict coef,
     const uint8_t *const *restrict src, uint8_t *const *restrict dst, int acc, int nt,
     int64_t ahead)
{
	__m512i s[4][GK_GF256_MAX_ROWS];
	for (int v = 0; v < nv; v++)
		for (int r = 0; r < rows; r++)
			s[v][r] = acc ? _mm512_loadu_si512(dst[r] + i + v * VEC) : _mm512_setzero_si512();
	int64_t j = 0;
	for (; j + 2 <= k; j += 2) {
		__m512i a[4], b[4];
		for (int v = 0; v < nv; v++) {
			a[v] = _mm512_loadu_si512(src[j] + i + v * VEC);
			b[v] = _mm512_loadu_si512(src[j + 1] + i + v * VEC);
		}
		if (ahead)
			for (int v = 0; v < nv; v++) {
				_mm_prefetch((const char *)(src[j] + i + ahead + v * VEC), _MM_HINT_T0);
				_mm_prefetch((const char *)(src[j + 1] + i + ahead + v * VEC), _MM_HINT_T0);
			}
		const uint8_t *c = coef + j * GK_GF256_AFFINE_BYTES;
		for (int r = 0; r < rows; r++) {
			const __m512i ma = load_matrix(c + r * mstride);
			const __m512i mb = load_matrix(c + r * mstride + GK_GF256_AFFINE_BYTES);
			for (int v = 0; v < nv; v++)
				s[v][r] = xor3(s[v][r], mul(a[v], ma), mul(b[v], mb));
		}
	}
	if (j < k) {
		__m512i a[4];
		for (int v = 0; v < nv; v++)
			a[v] = _mm512_loadu_si512(src[j] + i + v * VEC);
		if (ahead)
			for (int v = 0; v < nv; v++)
				_mm_prefetch((const char *)(src[j] + i + ahead + v * VEC), _MM_HINT_T0);
		const uint8_t *c = coef + j * GK_GF256_AFFINE_BYTES;
		for (int r = 0; r < rows; r++) {
			const __m512i ma = load_matrix(c + r * mstride);
			for (int v = 0; v < nv; v++)
				s[v][r] = _mm512_xor_si512(s[v][r], mul(a[v], ma));
		}
	}
	for (int v = 0; v < nv; v += 2)
		gk_gf256_store2_512(rows, dst, i + v * VEC, s[v], s[v + 1], nt);
}

/* Four vectors at a time from i while they fit before end, for one or two
 * rows of inputs requested ahead; returns where it stopped. Functions of
 * their own: inlined into dot_rows beside the in-cache loop, the compiler
 * laid out that loop differently, and 6+3 decode on 1 MiB shards (k 6,
 * never this path) ran 12% slower. */
#define GK_GFNI_FAR4(name, rows)                                                                   \
	static __attribute__((noinline)) int64_t name(                                             \
	    int64_t i, int64_t end, int64_t k, int64_t mstride, const uint8_t *restrict coef,      \
	    const uint8_t *const *restrict src, uint8_t *const *restrict dst, int acc, int nt,     \
	    int64_t ahead)                                                                         \
	{                                                                                          \
		for (; i + 4 * VEC <= end; i += 4 * VEC)                                           \
			step(rows, 4, i, k, mstride, coef, src, dst, acc, nt, ahead);              \
		return i;                                                                          \
	}
GK_GFNI_FAR4(far4_1, 1)
GK_GFNI_FAR4(far4_2, 2)
GK_GFNI_FAR4(far4_3, 3)
GK_GFNI_FAR4(far4_4, 4)
GK_GFNI_FAR4(far4_5, 5)
GK_GFNI_FAR4(far4_6, 6)

typedef int64_t (*far4_fn)(int64_t, int64_t, int64_t, int64_t, const uint8_t *restrict,
                           const uint8_t *const *restrict, uint8_t *const *restrict, int, int,
                           int64_t);
static const far4_fn far4[GK_GF256_MAX_ROWS + 1] = {0, far4_1, far4_2, far4_3, far4_4, far4_5, far4_6};

/* n <= 64 bytes at i of every row, masked throughout: the head and the
 * tail. */
static inline __attribute__((always_inline)) void
masked(int rows, int64_t n, int64_t i, int64_t k, int64_t mstride, const uint8_t *restrict coef,
       const uint8_t *const *restrict src, uint8_t *const *restrict dst, int acc)
{
	const __mmask64 m = n == VEC ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
	__m512i s0[GK_GF256_MAX_ROWS];
	for (int r = 0; r < rows; r++)
		s0[r] = acc ? _mm512_maskz_loadu_epi8(m, dst[r] + i) : _mm512_setzero_si512();
	for (int64_t j = 0; j < k; j++) {
		const __m512i x = _mm512_maskz_loadu_epi8(m, src[j] + i);
		const uint8_t *c = coef + j * GK_GF256_AFFINE_BYTES;
		for (int r = 0; r < rows; r++)
			s0[r] = _mm512_xor_si512(s0[r], mul(x, load_matrix(c + r * mstride)));
	}
	for (int r = 0; r < rows; r++)
		_mm512_mask_storeu_epi8(dst[r] + i, m, s0[r]);
}

/*
 * Rows that all start the same distance from a line (blocks from malloc,
 * 16 bytes past a page): the bytes up to the next line first, masked, so
 * that every load and store of dot_rows's loops is on a line; a load
 * across two lines costs two (bench/results/2026-11-30-zen5-gf-align/).
 * Rows at different distances keep their own. Returns the bytes done (0
 * when the rows are on a line, or at different distances, or len is not
 * longer than the head). A function of its own, called from the entry
 * points: inlined beside dot_rows's loops it changed how the compiler laid
 * them out, and 6+3 encode on 64 KiB shards on a line ran at 0.57x.
 */
GK_GF256_HEAD_FN(head, VEC, masked(rows, n, i, k, k * GK_GF256_AFFINE_BYTES, coef, src, dst, acc & GK_GF256_ACC))

static inline __attribute__((always_inline)) void
dot_rows(int rows, int64_t len, int64_t k, const uint8_t *restrict coef,
         const uint8_t *const *restrict src, uint8_t *const *restrict dst, int64_t off, int acc)
{
	const int64_t mstride = k * GK_GF256_AFFINE_BYTES;
	const int nt = gk_gf256_streams(rows, dst, off, acc);
	const int64_t ahead = (acc & GK_GF256_FAR) && k >= GK_GFNI_PF_MIN_K ? GK_GFNI_PF_AHEAD : 0;
	acc &= GK_GF256_ACC;
	int64_t i = off;
	const int64_t end = off + len;
	/* Up to 8 inputs, or up to 16 that come from past L2 (requested
	 * ahead): four vectors per input, each matrix serving 256 bytes. In
	 * cache, past 8 inputs, four lines of each in flight ran 12+4 decode
	 * on 64 KiB shards at 0.86-1.0x, 10+4 and 12+4 encode at 0.87-0.90x
	 * (bench/results/2026-11-30-zen5-gf-rows/logs/in_cache_past8.log);
	 * from past L2, 10+4
	 * and 12+4 decode on 1 MiB shards 1.12x and 1.16x, 28+4 (groups of 10)
	 * within 2% (bench/results/2026-11-30-zen5-gf-nv4/). Three to six
	 * rows, against two vectors per input, one thread, in the same process
	 * (bench/results/2026-11-30-zen5-gf-rows/): encodes on 64 KiB shards
	 * 5+3 1.29-1.38x, 8+4 1.05-1.07x, 8+5 1.03-1.08x, 6+3 1.03-1.04x, 6+6
	 * 0.97-0.99x; on 1 MiB shards 1.02-1.26x for these and 10+4 and 12+4,
	 * 28+4 (passes of 10, 10 and 8 inputs) 0.96-0.98x. Six rows of four
	 * vectors take 24 accumulators, and the compiler keeps some in memory:
	 * as fast as two vectors. */
	if (k <= 8)
		for (; i + 4 * VEC <= end; i += 4 * VEC)
			step(rows, 4, i, k, mstride, coef, src, dst, acc, nt, ahead);
	else if (ahead > 0 && k <= 16)
		i = far4[rows](i, end, k, mstride, coef, src, dst, acc, nt, ahead);
	for (; i + 2 * VEC <= end; i += 2 * VEC)
		step(rows, 2, i, k, mstride, coef, src, dst, acc, nt, ahead);
	if (nt)
		_mm_sfence();
	/* At most two more vectors, the last one partial. */
	while (i < end) {
		const int64_t n = end - i < VEC ? end - i : VEC;
		masked(rows, n, i, k, mstride, coef, src, dst, acc);
		i += n;
	}
}

void gk_gf256_dot1_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int64_t h = head(1, len, k, coef, src, dst, off, acc);
	dot_rows(1, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot2_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int64_t h = head(2, len, k, coef, src, dst, off, acc);
	dot_rows(2, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot3_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int64_t h = head(3, len, k, coef, src, dst, off, acc);
	dot_rows(3, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot4_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int64_t h = head(4, len, k, coef, src, dst, off, acc);
	dot_rows(4, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot5_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int64_t h = head(5, len, k, coef, src, dst, off, acc);
	dot_rows(5, len - h, k, coef, src, dst, off + h, acc);
}

void gk_gf256_dot6_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc)
{
	const int64_t h = head(6, len, k, coef, src, dst, off, acc);
	dot_rows(6, len - h, k, coef, src, dst, off + h, acc);
}
