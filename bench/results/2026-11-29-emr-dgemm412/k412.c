#include <stdint.h>
#include <stddef.h>
#include "prefetch_asm.h"
#define STEP(oa, ob) \
	"vmovupd " #ob "(%[b]), %%ymm12\n\t" \
	"vmovupd " #ob "+32(%[b]), %%ymm13\n\t" \
	"vmovupd " #ob "+64(%[b]), %%ymm14\n\t" \
	"vbroadcastsd " #oa "(%[a]), %%ymm15\n\t" \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm0\n\t" \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm1\n\t" \
	"vfmadd231pd %%ymm14, %%ymm15, %%ymm2\n\t" \
	"vbroadcastsd " #oa "+8(%[a]), %%ymm15\n\t" \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm3\n\t" \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm4\n\t" \
	"vfmadd231pd %%ymm14, %%ymm15, %%ymm5\n\t" \
	"vbroadcastsd " #oa "+16(%[a]), %%ymm15\n\t" \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm6\n\t" \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm7\n\t" \
	"vfmadd231pd %%ymm14, %%ymm15, %%ymm8\n\t" \
	"vbroadcastsd " #oa "+24(%[a]), %%ymm15\n\t" \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm9\n\t" \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm10\n\t" \
	"vfmadd231pd %%ymm14, %%ymm15, %%ymm11\n\t"
#define CV(r, off) "vfmadd231pd " #off "(%[c]), %%ymm15, %%ymm" #r "\n\t" "vmovupd %%ymm" #r ", " #off "(%[c])\n\t"
void k412(int64_t k, const double *a, const double *b, double *c, int64_t rs_c, const void *const *pf, int64_t npf)
{
	for (int i = 0; i < 4; i++) { __builtin_prefetch(c + i*rs_c); __builtin_prefetch(c + i*rs_c + 11); }
	const int64_t steps = k / 4, per = steps > 0 ? (npf + steps - 1) / steps : 0;
	const void *const *pfend = pf + npf;
	char *cp = (char*)c; const int64_t ldc = rs_c * 8; double one = 1.0;
	__asm__ volatile(
		"vxorpd %%ymm0, %%ymm0, %%ymm0\n\t" "vxorpd %%ymm1, %%ymm1, %%ymm1\n\t" "vxorpd %%ymm2, %%ymm2, %%ymm2\n\t"
		"vxorpd %%ymm3, %%ymm3, %%ymm3\n\t" "vxorpd %%ymm4, %%ymm4, %%ymm4\n\t" "vxorpd %%ymm5, %%ymm5, %%ymm5\n\t"
		"vxorpd %%ymm6, %%ymm6, %%ymm6\n\t" "vxorpd %%ymm7, %%ymm7, %%ymm7\n\t" "vxorpd %%ymm8, %%ymm8, %%ymm8\n\t"
		"vxorpd %%ymm9, %%ymm9, %%ymm9\n\t" "vxorpd %%ymm10, %%ymm10, %%ymm10\n\t" "vxorpd %%ymm11, %%ymm11, %%ymm11\n\t"
		"mov %[k], %%r11\n\t" "shr $2, %%r11\n\t" "jz 2f\n\t" ".p2align 5\n" "1:\n\t"
		GK_ASM_PREFETCH_SOME
		STEP(0, 0) STEP(32, 96) STEP(64, 192) STEP(96, 288)
		"add $128, %[a]\n\t" "add $384, %[b]\n\t" "dec %%r11\n\t" "jnz 1b\n" "2:\n\t"
		"and $3, %[k]\n\t" "jz 4f\n" "3:\n\t" STEP(0, 0) "add $32, %[a]\n\t" "add $96, %[b]\n\t" "dec %[k]\n\t" "jnz 3b\n" "4:\n\t"
		GK_ASM_PREFETCH_REST
		"vbroadcastsd %[one], %%ymm15\n\t"
		CV(0,0) CV(1,32) CV(2,64) "add %[ldc], %[c]\n\t"
		CV(3,0) CV(4,32) CV(5,64) "add %[ldc], %[c]\n\t"
		CV(6,0) CV(7,32) CV(8,64) "add %[ldc], %[c]\n\t"
		CV(9,0) CV(10,32) CV(11,64)
		: [a] "+r"(a), [b] "+r"(b), [k] "+r"(k), [pf] "+r"(pf), [c] "+r"(cp)
		: [per] "r"(per), [pfend] "r"(pfend), [ldc] "r"(ldc), [one] "m"(one)
		: "rax", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc", "memory");
}
