/*
 * prefetch_asm.h - the list-of-lines requests of the x86 GEMM kernels
 * whose k loop is in assembly (src/cpu/avx512/gemm_f64_avx512_8x24.c,
 * src/cpu/avx2/gemm_f*_avx2_6x*.c), as text to paste into their asm
 * statements.
 *
 * Two sources of lines, the list first: a list of addresses, and a run of
 * lines 64 bytes apart (gk_gemm_pf_f32_fn in kernel_api.h).
 * Operands the asm statement must name: [pf] "+r" (the next entry of the
 * list, const void *const *), [pfend] "r" (one past its last entry),
 * [run] "+r" (the next line of the run, const char *), [runend] "r" (one
 * line past its last), [per] "r" (at most this many lines a call of
 * GK_ASM_PREFETCH_SOME); clobbers rax and r10. Local labels 5 to 10 are
 * taken.
 */
#ifndef GK_PREFETCH_ASM_H
#define GK_PREFETCH_ASM_H

/* Up to `per` lines of the list, then of the run, requested into L2 (none
 * once both are done): once per step of four of the k loop. */
#define GK_ASM_PREFETCH_SOME \
	"mov %[per], %%r10\n\t" \
	"5:\n\t" \
	"test %%r10, %%r10\n\t" \
	"jz 6f\n\t" \
	"cmp %[pfend], %[pf]\n\t" \
	"jae 9f\n\t" \
	"mov (%[pf]), %%rax\n\t" \
	"prefetcht1 (%%rax)\n\t" \
	"add $8, %[pf]\n\t" \
	"dec %%r10\n\t" \
	"jmp 5b\n" \
	"9:\n\t" \
	"test %%r10, %%r10\n\t" \
	"jz 6f\n\t" \
	"cmp %[runend], %[run]\n\t" \
	"jae 6f\n\t" \
	"prefetcht1 (%[run])\n\t" \
	"add $64, %[run]\n\t" \
	"dec %%r10\n\t" \
	"jmp 9b\n" \
	"6:\n\t"

/* The lines still left after the k loop (list, then run), all requested. */
#define GK_ASM_PREFETCH_REST \
	"7:\n\t" \
	"cmp %[pfend], %[pf]\n\t" \
	"jae 8f\n\t" \
	"mov (%[pf]), %%rax\n\t" \
	"prefetcht1 (%%rax)\n\t" \
	"add $8, %[pf]\n\t" \
	"jmp 7b\n" \
	"8:\n\t" \
	"cmp %[runend], %[run]\n\t" \
	"jae 10f\n\t" \
	"prefetcht1 (%[run])\n\t" \
	"add $64, %[run]\n\t" \
	"jmp 8b\n" \
	"10:\n\t"

#endif
