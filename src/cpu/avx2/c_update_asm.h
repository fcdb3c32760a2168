/*
 * c_update_asm.h - the end of the AVX2 GEMM kernels' assembly: C updated
 * from the accumulators ymm0-11, either 6 rows of 2 vectors (6 x 16 float:
 * row i in ymm(2i) and ymm(2i+1), GK_AVX2_C_UPDATE) or 4 rows of 3 vectors
 * (4 x 12 double: row i in ymm(3i) to ymm(3i+2), GK_AVX2_C_UPDATE_4X3),
 * the vectors of a row 32 bytes apart.
 *
 *   C := alpha acc              when beta == 0 (C is not read)
 *   C := beta C + alpha acc     otherwise (a NaN beta too), one FMA:
 *                               the bits of alpha * acc + beta * C in C
 *
 * Operands the asm statement must have: [c] "+r" (C's first row, bytes;
 * advanced row by row), [ldc] "r" (bytes between rows), [alpha] "m" and
 * [beta] "m" (scalars). Clobbers ymm13-15. Local labels 11 and 12 are taken.
 * s is the suffix of the element type ("ps" or "pd"); bc and uc are its
 * broadcast and its scalar unordered compare.
 */
#ifndef GK_AVX2_C_UPDATE_ASM_H
#define GK_AVX2_C_UPDATE_ASM_H

/* One vector of a row: register r at byte offset off of the row, beta 0. */
#define GK_AVX2_CV0(s, r, off) \
	"vmul" s " %%ymm14, %%ymm" #r ", %%ymm" #r "\n\t" \
	"vmovu" s " %%ymm" #r ", " #off "(%[c])\n\t"

/* The same with beta C added (beta in ymm15). */
#define GK_AVX2_CVB(s, r, off) \
	"vmul" s " %%ymm14, %%ymm" #r ", %%ymm" #r "\n\t" \
	"vfmadd231" s " " #off "(%[c]), %%ymm15, %%ymm" #r "\n\t" \
	"vmovu" s " %%ymm" #r ", " #off "(%[c])\n\t"

#define GK_AVX2_NEXT_ROW "add %[ldc], %[c]\n\t"

#define GK_AVX2_ROWS(V, s) \
	V(s, 0, 0) V(s, 1, 32) GK_AVX2_NEXT_ROW \
	V(s, 2, 0) V(s, 3, 32) GK_AVX2_NEXT_ROW \
	V(s, 4, 0) V(s, 5, 32) GK_AVX2_NEXT_ROW \
	V(s, 6, 0) V(s, 7, 32) GK_AVX2_NEXT_ROW \
	V(s, 8, 0) V(s, 9, 32) GK_AVX2_NEXT_ROW \
	V(s, 10, 0) V(s, 11, 32)

#define GK_AVX2_ROWS_4X3(V, s) \
	V(s, 0, 0) V(s, 1, 32) V(s, 2, 64) GK_AVX2_NEXT_ROW \
	V(s, 3, 0) V(s, 4, 32) V(s, 5, 64) GK_AVX2_NEXT_ROW \
	V(s, 6, 0) V(s, 7, 32) V(s, 8, 64) GK_AVX2_NEXT_ROW \
	V(s, 9, 0) V(s, 10, 32) V(s, 11, 64)

#define GK_AVX2_C_UPDATE(s, bc, uc) GK_AVX2_C_UPDATE_BY(s, bc, uc, GK_AVX2_ROWS)
#define GK_AVX2_C_UPDATE_4X3(s, bc, uc) GK_AVX2_C_UPDATE_BY(s, bc, uc, GK_AVX2_ROWS_4X3)

#define GK_AVX2_C_UPDATE_BY(s, bc, uc, ROWS) \
	bc " %[alpha], %%ymm14\n\t" \
	"vxor" s " %%xmm13, %%xmm13, %%xmm13\n\t" \
	uc " %[beta], %%xmm13\n\t" \
	"jne 11f\n\t" \
	"jp 11f\n\t" \
	ROWS(GK_AVX2_CV0, s) \
	"jmp 12f\n" \
	"11:\n\t" \
	bc " %[beta], %%ymm15\n\t" \
	ROWS(GK_AVX2_CVB, s) \
	"12:\n\t"

#endif /* GK_AVX2_C_UPDATE_ASM_H */
