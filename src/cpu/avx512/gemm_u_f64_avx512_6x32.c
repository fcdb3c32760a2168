/*
 * gemm_u_f64_avx512_6x32.c - the AVX-512 unpacked DGEMM microkernel, tiles
 * up to 6 x 32.
 *
 *   void gk_gemm_u_f64_avx512_6x32(int64_t mv, int64_t nv, int64_t k, double alpha,
 *                                const double *a, int64_t rs_a, int64_t cs_a,
 *                                const double *b, int64_t rs_b, double beta,
 *                                double *c, int64_t rs_c);
 *
 * C(mv x nv) := beta * C + alpha * A * B, the contract of gk_gemm_u_f64_fn
 * (kernel_api.h): A(i, l) at a[i * rs_a + l * cs_a], B(l, j) at
 * b[l * rs_b + j], 1 <= nv <= 32 and mv at most 16 when nv <= 8, 12 when
 * nv <= 16, 8 when nv <= 24, or 6.
 * Needs AVX-512F and VL.
 *
 * One copy of the loop per row count, per number of vectors in a row of
 * the tile and per kind of last vector (cut short, half, whole), all
 * constants there, each in a function of its own. The columns past nv are
 * masked, so loads of B and stores of C touch nothing outside the tile and
 * every FMA that runs is one of the tile's (a whole last vector needs no
 * mask, and its loads have none); a last vector of at most 4 columns is a
 * 256-bit one, which a core that splits 512-bit operations in two halves
 * (AMD Zen 4) runs at half the cost: 4 columns, or 12, waste no FMA there.
 * Registers: 24 accumulators at most, up to 4 for a row of B; the A entries
 * are broadcast straight from wherever A lies.
 * The shape is that of the SGEMM kernel (gemm_u_f32_avx512_6x64.c says
 * why), a few percent faster than the packed kernel's 8 x 24 on unpacked
 * products of 64 to 128.
 * The arithmetic per element is the packed kernels' (gemm_f64_avx512_*.c):
 * an FMA chain over l from zero, times alpha, plus beta C by one FMA; the
 * product by alpha is skipped when alpha is 1, which changes no bit.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

enum {
	MR = GK_GEMM_U_F64_AVX512_MR, NR = GK_GEMM_U_F64_AVX512_NR,
	VW = GK_GEMM_U_F64_AVX512_VW, NV_MAX = NR / VW, ACC = MR * NV_MAX,
	LINE = 8,      /* elements of a cache line */
	PF_LINES = 2,   /* lines ahead that a row of A is fetched */
	PF_MIN_K = 256  /* the depth from which it is */
};

/* Entry l of row i of A: rows 8 and on from a second base, a8, eight rows
 * on, so that sixteen rows need the offsets of eight. */
#define ROWP(i) ((i) < 8 ? a + (i) * rs_a : a8 + ((i) - 8) * rs_a)
#define ROW(i) (*ROWP(i))

/* One step of k: row l of B (at b) times column l of A (at a). */
static inline __attribute__((always_inline)) void step(const int MV, const int NV, const int H,
                                                       const double *restrict a, const double *restrict a8,
                                                       int64_t rs_a, const double *restrict b,
                                                       __mmask8 ml,
                                                       __mmask8 mh, __m512d *acc, __m256d *acch)
{
	/* The first line of the same row's next NR columns (kernel_api.h);
	 * all four of them measured up to 20% slower where B is in cache. */
	_mm_prefetch((const char *)(b + NR), _MM_HINT_T0);
	const int HALF = H == 1, NF = NV - HALF;
	__m512d bv[NV_MAX];
	__m256d bh = _mm256_setzero_pd();
#pragma GCC unroll 4
	for (int v = 0; v < NF; v++)
		bv[v] = H != 0 || v < NF - 1 ? _mm512_loadu_pd(b + VW * v)
		                           : _mm512_maskz_loadu_pd(ml, b + VW * v);
	if (HALF)
		bh = _mm256_maskz_loadu_pd(mh, b + VW * NF);
#pragma GCC unroll 16
	for (int i = 0; i < MV; i++) {
		if (NF == 0) {
			/* A 256-bit broadcast: a 512-bit one costs a full operation
			 * where the FMA is only half of one. */
			acch[i] = _mm256_fmadd_pd(_mm256_set1_pd(ROW(i)), bh, acch[i]);
			continue;
		}
		const __m512d ai = _mm512_set1_pd(ROW(i));
#pragma GCC unroll 4
		for (int v = 0; v < NF; v++)
			acc[i * NV + v] = _mm512_fmadd_pd(ai, bv[v], acc[i * NV + v]);
		if (HALF)
			acch[i] = _mm256_fmadd_pd(_mm512_castpd512_pd256(ai), bh, acch[i]);
	}
}

/* The tile with MV rows of NV vectors, constants after inlining (MV * NV
 * <= ACC), the last vector by H: 0, a full-width one cut to the columns
 * in ml; 1 (HALF), one of 4 lanes cut to those in mh; 2, a whole one, no
 * mask (a masked load in each step of the k loop cost 1-4% of a 64^3
 * DGEMM on an Emerald Rapids core, docs/KERNELS.md). */
static inline __attribute__((always_inline)) void tile(const int MV, const int NV, const int H,
                                                       int64_t k, double alpha,
                                                       const double *restrict a, int64_t rs_a,
                                                       int64_t cs_a, const double *restrict b,
                                                       int64_t rs_b, double beta,
                                                       double *restrict c, int64_t rs_c,
                                                       __mmask8 ml, __mmask8 mh)
{
	const int HALF = H == 1, NF = NV - HALF; /* full vectors */
	const double *restrict a8 = MV > 8 ? a + 8 * rs_a : a; /* ROWP() */
	__m512d acc[ACC];
	__m256d acch[ACC];
#pragma GCC unroll 16
	for (int i = 0; i < MV; i++) {
#pragma GCC unroll 4
		for (int v = 0; v < NF; v++)
			acc[i * NV + v] = _mm512_setzero_pd();
		if (HALF)
			acch[i] = _mm256_setzero_pd();
	}
	/* A by rows and a long k: A is most likely streaming from memory (a
	 * product of few rows and a long k, whose A is read once). The loop
	 * looks too few steps ahead to keep the rows' next lines in flight, so
	 * each row's line PF_LINES lines on is requested once per line used:
	 * 20% faster on 8 x 8 x 1e7 SGEMM. */
	if (cs_a == 1 && k >= PF_MIN_K) {
		int64_t l = 0;
		for (; l + LINE <= k; l += LINE) {
			if (l + LINE * (PF_LINES + 1) <= k)
#pragma GCC unroll 16
				for (int i = 0; i < MV; i++)
					__builtin_prefetch(ROWP(i) + LINE * PF_LINES);
#pragma GCC unroll 1
			for (int q = 0; q < LINE; q++, a += cs_a, a8 += cs_a, b += rs_b)
				step(MV, NV, H, a, a8, rs_a, b, ml, mh, acc, acch);
		}
		for (; l < k; l++, a += cs_a, a8 += cs_a, b += rs_b)
			step(MV, NV, H, a, a8, rs_a, b, ml, mh, acc, acch);
	} else if (MV * NV < 8) {
		/* Unrolled by four where a step is only a few FMAs, the loop
		 * overhead then being worth saving; else left rolled, which keeps
		 * the code of the many row counts small. */
#pragma GCC unroll 4
		for (int64_t l = 0; l < k; l++, a += cs_a, a8 += cs_a, b += rs_b)
			step(MV, NV, H, a, a8, rs_a, b, ml, mh, acc, acch);
	} else {
#pragma GCC unroll 1
		for (int64_t l = 0; l < k; l++, a += cs_a, a8 += cs_a, b += rs_b)
			step(MV, NV, H, a, a8, rs_a, b, ml, mh, acc, acch);
	}
	const __m512d va = _mm512_set1_pd(alpha), vb = _mm512_set1_pd(beta);
#pragma GCC unroll 16
	for (int i = 0; i < MV; i++) {
		double *ci = c + i * rs_c;
#pragma GCC unroll 4
		for (int v = 0; v < NF; v++) {
			__m512d r = alpha == 1.0 ? acc[i * NV + v] : _mm512_mul_pd(va, acc[i * NV + v]);
			/* Only the last vector of a row may be cut short: the others
			 * need no mask, which keeps the masks out of the loop's
			 * registers. */
			if (H != 0 || v < NF - 1) {
				if (beta != 0.0)
					r = _mm512_fmadd_pd(vb, _mm512_loadu_pd(ci + VW * v), r);
				_mm512_storeu_pd(ci + VW * v, r);
				continue;
			}
			if (beta != 0.0)
				r = _mm512_fmadd_pd(vb, _mm512_maskz_loadu_pd(ml, ci + VW * v), r);
			_mm512_mask_storeu_pd(ci + VW * v, ml, r);
		}
		if (HALF) {
			__m256d r = alpha == 1.0 ? acch[i] : _mm256_mul_pd(_mm512_castpd512_pd256(va), acch[i]);
			if (beta != 0.0)
				r = _mm256_fmadd_pd(_mm512_castpd512_pd256(vb), _mm256_maskz_loadu_pd(mh, ci + VW * NF), r);
			_mm256_mask_storeu_pd(ci + VW * NF, mh, r);
		}
	}
}

#define UT double
#define UMASK __mmask8
#include "gemm_u_tiles_avx512.h"

static inline __attribute__((always_inline)) void
u_kernel(const int groups, int64_t count, int64_t mv, int64_t nv, int64_t k, double alpha,
         const double *restrict a, int64_t rs_a, int64_t cs_a,
         const double *restrict b, int64_t rs_b, double beta,
         double *restrict c, int64_t rs_c)
{
	/* nvec vectors, the last one holding the last w columns: a half vector
	 * when w <= 4. */
	const int64_t nvec = (nv + VW - 1) / VW, w = nv - VW * (nvec - 1);
	const int half = w <= VW / 2, whole = w == VW;
	const __mmask8 ml = (__mmask8)((1u << w) - 1);
	const __mmask8 mh = (__mmask8)((1u << w) - 1);
	switch (nvec) {
	case 1:
		/* groups: 2, tiles of at most half a vector as row pairs (and
		 * quads); 4, only those of at most a quarter, as quads. */
		if (groups && groups * nv <= VW && mv >= (groups == 2 ? 2 : 4) &&
		    k >= GK_GEMM_U_PAIRS_MIN_K) {
			for (int64_t t = 0; t < count; t++, a += mv * rs_a, c += mv * rs_c)
				gk_gemm_u_pairs_f64_avx512(mv, nv, k, alpha, a, rs_a, cs_a, b, rs_b,
				                           beta, c, rs_c);
			break;
		}
		switch (mv) { ROWS16(1); default: break; }
		break;
	case 2:
		switch (mv) { ROWS12(2); default: break; }
		break;
	case 3:
		switch (mv) { ROWS8(3); default: break; }
		break;
	default:
		switch (mv) { ROWS6(4); default: break; }
		break;
	}
}

U_ENTRIES(gk_gemm_u_f64_avx512_6x32)
