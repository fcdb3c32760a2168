/*
 * gemm_e_avx512.c - the AVX-512 edge tiles of the packed way: a few columns
 * of C, with the rows of the tile along the vector.
 *
 *   void gk_gemm_e_f32_avx512(int64_t mv, int64_t nv, int64_t k, float alpha,
 *                             const float *a, int64_t cs_a, const float *b,
 *                             int64_t rs_b, float beta, float *c, int64_t rs_c);
 *   (and gk_gemm_e_f64_avx512, the same in double)
 *
 * The contract of gk_gemm_e_f32_fn (kernel_api.h): C(mv x nv) := beta * C +
 * alpha * A * B for 1 <= mv <= 16 (8 in double: one vector) and 1 <= nv <=
 * GK_GEMM_E_MAX_COLS, A(i, l) at a[l * cs_a + i] (a packed sliver: cs_a =
 * MR), B(l, j) at b[l * rs_b + j] (a packed sliver: rs_b = NR), C(i, j) at
 * c[i * rs_c + j]; beta == 0 reads no C. Each element gets the packed
 * kernel's operations in its order: a chain of FMAs along l from zero, then
 * alpha times it, plus beta C by one FMA. The same bits.
 *
 * Why: on the last columns of C (n % NR of them) the packed kernel's tile
 * is too wide, and the unpacked kernel that took them puts the columns
 * along the vector: 8 columns of the 14 x 32 SGEMM tile filled half of
 * each vector, for 14 FMAs a step of k (one per row). Here a step loads
 * the A sliver's column once (mv of 16 lanes, 14 for the SGEMM tile) and
 * does one FMA per column of C, with B's entry broadcast from memory: 8
 * FMAs for those 8 columns. The accumulators hold columns of C; they are
 * written through a scratch tile on the stack, row by row.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

#define INLINE static inline __attribute__((always_inline))

/*
 * One tile of NV columns (a constant where it is inlined), for element type
 * E in vectors VEC of W lanes: the accumulators (one column of C each, the
 * tile's rows along the lanes) through k, then alpha times them to a
 * scratch tile, and row by row to C (beta C added by one scalar FMA, as the
 * packed kernel's vector one).
 */
#define EDGE(T, E, VEC, W, MASK, SUF, SSUF, CVT)                                              \
	INLINE void edge_##T(const int NV, int64_t mv, int64_t k, E alpha, const E *restrict a,  \
	                     int64_t cs_a, const E *restrict b, int64_t rs_b, E beta,             \
	                     E *restrict c, int64_t rs_c)                                         \
	{                                                                                      \
		const MASK mk = (MASK)((1u << mv) - 1u);                                         \
		VEC acc[GK_GEMM_E_MAX_COLS];                                                     \
		for (int64_t i = 0; i < mv; i++)                                                 \
			_mm_prefetch((const char *)(c + i * rs_c), _MM_HINT_T0);                 \
		_Pragma("GCC unroll 16") for (int j = 0; j < NV; j++)                            \
			acc[j] = _mm512_setzero_##SUF();                                         \
		for (int64_t l = 0; l < k; l++) {                                                 \
			const VEC av = _mm512_maskz_loadu_##SUF(mk, a + l * cs_a);               \
			const E *bl = b + l * rs_b;                                               \
			_Pragma("GCC unroll 16") for (int j = 0; j < NV; j++)                    \
				acc[j] = _mm512_fmadd_##SUF(av, _mm512_set1_##SUF(bl[j]), acc[j]);\
		}                                                                                \
		E t[GK_GEMM_E_MAX_COLS][W] __attribute__((aligned(64)));                         \
		const VEC va = _mm512_set1_##SUF(alpha);                                         \
		_Pragma("GCC unroll 16") for (int j = 0; j < NV; j++)                            \
			_mm512_store_##SUF(t[j], _mm512_mul_##SUF(va, acc[j]));                  \
		for (int64_t i = 0; i < mv; i++) {                                               \
			E *ci = c + i * rs_c;                                                    \
			if (beta == (E)0) {                                                      \
				for (int j = 0; j < NV; j++)                                     \
					ci[j] = t[j][i];                                         \
			} else {                                                                 \
				for (int j = 0; j < NV; j++)                                     \
					ci[j] = CVT(_mm_fmadd_##SSUF(_mm_set_##SSUF(beta),      \
					                             _mm_set_##SSUF(ci[j]),     \
					                             _mm_set_##SSUF(t[j][i])));  \
			}                                                                        \
		}                                                                                \
	}

EDGE(f32, float, __m512, 16, __mmask16, ps, ss, _mm_cvtss_f32)
EDGE(f64, double, __m512d, 8, __mmask8, pd, sd, _mm_cvtsd_f64)

/* One instance per column count, so that the accumulators stay in
 * registers and the loops over them unroll. */
#define EDGE_CASES(F)                                                                        \
	switch (nv) {                                                                        \
	case 1: F(1); break;                                                                 \
	case 2: F(2); break;                                                                 \
	case 3: F(3); break;                                                                 \
	case 4: F(4); break;                                                                 \
	case 5: F(5); break;                                                                 \
	case 6: F(6); break;                                                                 \
	case 7: F(7); break;                                                                 \
	case 8: F(8); break;                                                                 \
	case 9: F(9); break;                                                                 \
	case 10: F(10); break;                                                               \
	case 11: F(11); break;                                                               \
	case 12: F(12); break;                                                               \
	case 13: F(13); break;                                                               \
	case 14: F(14); break;                                                               \
	case 15: F(15); break;                                                               \
	case 16: F(16); break;                                                               \
	default: break;                                                                      \
	}

_Static_assert(GK_GEMM_E_MAX_COLS == 16, "one case per column count");

void gk_gemm_e_f32_avx512(int64_t mv, int64_t nv, int64_t k, float alpha, const float *restrict a,
                          int64_t cs_a, const float *restrict b, int64_t rs_b, float beta,
                          float *restrict c, int64_t rs_c)
{
#define F32(N) edge_f32(N, mv, k, alpha, a, cs_a, b, rs_b, beta, c, rs_c)
	EDGE_CASES(F32)
#undef F32
}

void gk_gemm_e_f64_avx512(int64_t mv, int64_t nv, int64_t k, double alpha,
                          const double *restrict a, int64_t cs_a, const double *restrict b,
                          int64_t rs_b, double beta, double *restrict c, int64_t rs_c)
{
#define F64(N) edge_f64(N, mv, k, alpha, a, cs_a, b, rs_b, beta, c, rs_c)
	EDGE_CASES(F64)
#undef F64
}
