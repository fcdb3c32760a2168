/*
 * gemm_packed_tmpl_avx2.h - the body of the AVX2 packed GEMM kernels
 * (gemm_f32_avx2_6x16.c, gemm_f64_avx2_6x8.c, gemm_f64_avx2_4x12.c): the
 * C tile's lines requested, the assembly from zeroing the accumulators to
 * updating C, and the two entry points (plain, and with a prefetch list).
 * Included once by each of those files after it defines:
 *   KT            the element type (float or double)
 *   KS, KBC, KUC  its instruction suffix, broadcast and scalar unordered
 *                 compare ("ps", "vbroadcastss", "vucomiss")
 *   MR, NR        the tile (an enum)
 *   STEP(oa, ob)  one step of k (kloop_asm.h), KOFF its offsets
 *                 (a1, b1, a2, b2, a3, b3, a4, b4)
 *   KUPDATE       GK_AVX2_C_UPDATE or GK_AVX2_C_UPDATE_4X3 (c_update_asm.h)
 *   KFN, KFN_PF   the names of the two entry points
 */
#include <immintrin.h>
#include "kloop_asm.h"
#include "c_update_asm.h"

#define GK_AVX2_KLOOP_OFF(step, ...) GK_AVX2_KLOOP(step, __VA_ARGS__)

/* The kernel, with the lines pf[0 .. npf), then the nrun lines from run
 * on, requested along the way (none in the plain entry point). C is
 * updated from the registers at the end of the assembly (alpha, then beta
 * C in one FMA: the same bits as alpha * acc + beta * C written in C), not
 * through a buffer on the stack. */
static inline __attribute__((always_inline)) void kernel(int64_t k, KT alpha, const KT *restrict a,
                                                         const KT *restrict b, KT beta,
                                                         KT *restrict c, int64_t rs_c,
                                                         const void *const *pf, int64_t npf,
                                                         const void *run, int64_t nrun)
{
	/* C is needed only at the end: start fetching it now, under the k
	 * loop, every line of each row. */
	for (int i = 0; i < MR; i++) {
		for (int o = 0; o < NR * (int)sizeof(KT); o += 64)
			_mm_prefetch((const char *)(c + i * rs_c) + o, _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + NR - 1), _MM_HINT_T0);
	}
	/* At most per lines each step of four, so that the requests keep a
	 * few misses in flight all along instead of stalling on a full miss
	 * queue in one burst. */
	const int64_t steps = k / 4, lines = npf + nrun;
	const int64_t per = steps > 0 ? (lines + steps - 1) / steps : 0;
	const void *const *pfend = pf + npf;
	const char *rp = (const char *)run, *runend = rp + 64 * nrun;
	char *cp = (char *)c;
	const int64_t ldc = rs_c * (int64_t)sizeof(KT);
	__asm__ volatile(
		GK_AVX2_ZERO_ACC(KS)
		GK_AVX2_KLOOP_OFF(STEP, KOFF)
		GK_ASM_PREFETCH_REST
		KUPDATE(KS, KBC, KUC)
		: [a] "+r"(a), [b] "+r"(b), [k] "+r"(k), [pf] "+r"(pf), [c] "+r"(cp),
		  [run] "+r"(rp)
		: [per] "r"(per), [pfend] "r"(pfend), [runend] "r"(runend), [ldc] "r"(ldc),
		  [alpha] "m"(alpha), [beta] "m"(beta)
		: "rax", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc", "memory");
}

void KFN(int64_t k, KT alpha, const KT *restrict a, const KT *restrict b, KT beta,
         KT *restrict c, int64_t rs_c)
{
	kernel(k, alpha, a, b, beta, c, rs_c, NULL, 0, NULL, 0);
}

void KFN_PF(int64_t k, KT alpha, const KT *restrict a, const KT *restrict b, KT beta,
            KT *restrict c, int64_t rs_c, const void *const *pf, int64_t npf,
            const void *run, int64_t nrun)
{
	kernel(k, alpha, a, b, beta, c, rs_c, pf, npf, run, nrun);
}
