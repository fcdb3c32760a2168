/*
 * kloop_asm.h - the k loop of the AVX2 packed GEMM kernels' assembly
 * (gemm_packed_tmpl_avx2.h), as text to paste into their asm statement
 * before GK_ASM_PREFETCH_REST (prefetch_asm.h) and the C update
 * (c_update_asm.h).
 *
 * The accumulators ymm0-11 zeroed, then k / 4 steps of four (STEP(oa, ob):
 * one step of k with A at a + oa bytes and B at b + ob), each after
 * GK_ASM_PREFETCH_SOME, then the k % 4 steps left one at a time. a1, b1:
 * the bytes of A and B a step; a2 .. b4 those of two, three and four
 * steps (literals, so that the offsets are the assembler's constants).
 * Operands: [a], [b], [k] "+r", and those of GK_ASM_PREFETCH_SOME;
 * clobbers r11. Local labels 1 to 4 are taken.
 */
#ifndef GK_AVX2_KLOOP_ASM_H
#define GK_AVX2_KLOOP_ASM_H

#include "prefetch_asm.h"

#define GK_AVX2_ZERO_ACC(s) \
	"vxor" s " %%ymm0, %%ymm0, %%ymm0\n\t" \
	"vxor" s " %%ymm1, %%ymm1, %%ymm1\n\t" \
	"vxor" s " %%ymm2, %%ymm2, %%ymm2\n\t" \
	"vxor" s " %%ymm3, %%ymm3, %%ymm3\n\t" \
	"vxor" s " %%ymm4, %%ymm4, %%ymm4\n\t" \
	"vxor" s " %%ymm5, %%ymm5, %%ymm5\n\t" \
	"vxor" s " %%ymm6, %%ymm6, %%ymm6\n\t" \
	"vxor" s " %%ymm7, %%ymm7, %%ymm7\n\t" \
	"vxor" s " %%ymm8, %%ymm8, %%ymm8\n\t" \
	"vxor" s " %%ymm9, %%ymm9, %%ymm9\n\t" \
	"vxor" s " %%ymm10, %%ymm10, %%ymm10\n\t" \
	"vxor" s " %%ymm11, %%ymm11, %%ymm11\n\t"

#define GK_AVX2_KLOOP(STEP, a1, b1, a2, b2, a3, b3, a4, b4) \
	"mov %[k], %%r11\n\t" \
	"shr $2, %%r11\n\t" \
	"jz 2f\n\t" \
	".p2align 5\n" \
	"1:\n\t" \
	GK_ASM_PREFETCH_SOME \
	STEP(0, 0) \
	STEP(a1, b1) \
	STEP(a2, b2) \
	STEP(a3, b3) \
	"add $" #a4 ", %[a]\n\t" \
	"add $" #b4 ", %[b]\n\t" \
	"dec %%r11\n\t" \
	"jnz 1b\n" \
	"2:\n\t" \
	"and $3, %[k]\n\t" \
	"jz 4f\n" \
	"3:\n\t" \
	STEP(0, 0) \
	"add $" #a1 ", %[a]\n\t" \
	"add $" #b1 ", %[b]\n\t" \
	"dec %[k]\n\t" \
	"jnz 3b\n" \
	"4:\n\t"

#endif /* GK_AVX2_KLOOP_ASM_H */
