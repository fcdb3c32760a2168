#include <stdint.h>
#include <stddef.h>
#include "prefetch_asm.h"
#define STEP(oa, ob) \
	"vmovups " #ob "(%[b]), %%ymm12\n\t" \
	"vmovups " #ob "+32(%[b]), %%ymm13\n\t" \
	"vmovups " #ob "+64(%[b]), %%ymm14\n\t" \
	"vbroadcastss " #oa "(%[a]), %%ymm15\n\t" \
	"vfmadd231ps %%ymm12, %%ymm15, %%ymm0\n\t" \
	"vfmadd231ps %%ymm13, %%ymm15, %%ymm1\n\t" \
	"vfmadd231ps %%ymm14, %%ymm15, %%ymm2\n\t" \
	"vbroadcastss " #oa "+4(%[a]), %%ymm15\n\t" \
	"vfmadd231ps %%ymm12, %%ymm15, %%ymm3\n\t" \
	"vfmadd231ps %%ymm13, %%ymm15, %%ymm4\n\t" \
	"vfmadd231ps %%ymm14, %%ymm15, %%ymm5\n\t" \
	"vbroadcastss " #oa "+8(%[a]), %%ymm15\n\t" \
	"vfmadd231ps %%ymm12, %%ymm15, %%ymm6\n\t" \
	"vfmadd231ps %%ymm13, %%ymm15, %%ymm7\n\t" \
	"vfmadd231ps %%ymm14, %%ymm15, %%ymm8\n\t" \
	"vbroadcastss " #oa "+12(%[a]), %%ymm15\n\t" \
	"vfmadd231ps %%ymm12, %%ymm15, %%ymm9\n\t" \
	"vfmadd231ps %%ymm13, %%ymm15, %%ymm10\n\t" \
	"vfmadd231ps %%ymm14, %%ymm15, %%ymm11\n\t"
#define CV(r, off) "vfmadd231ps " #off "(%[c]), %%ymm15, %%ymm" #r "\n\t" "vmovups %%ymm" #r ", " #off "(%[c])\n\t"
void k424s(int64_t k, const float *a, const float *b, float *c, int64_t rs_c, const void *const *pf, int64_t npf)
{
	for (int i = 0; i < 4; i++) { __builtin_prefetch(c + i*rs_c); __builtin_prefetch(c + i*rs_c + 11); }
	const int64_t steps = k / 4, per = steps > 0 ? (npf + steps - 1) / steps : 0;
	const void *const *pfend = pf + npf;
	char *cp = (char*)c; const int64_t ldc = rs_c * 4; float one = 1.0;
	__asm__ volatile(
		"vxorps %%ymm0, %%ymm0, %%ymm0\n\t" "vxorps %%ymm1, %%ymm1, %%ymm1\n\t" "vxorps %%ymm2, %%ymm2, %%ymm2\n\t"
		"vxorps %%ymm3, %%ymm3, %%ymm3\n\t" "vxorps %%ymm4, %%ymm4, %%ymm4\n\t" "vxorps %%ymm5, %%ymm5, %%ymm5\n\t"
		"vxorps %%ymm6, %%ymm6, %%ymm6\n\t" "vxorps %%ymm7, %%ymm7, %%ymm7\n\t" "vxorps %%ymm8, %%ymm8, %%ymm8\n\t"
		"vxorps %%ymm9, %%ymm9, %%ymm9\n\t" "vxorps %%ymm10, %%ymm10, %%ymm10\n\t" "vxorps %%ymm11, %%ymm11, %%ymm11\n\t"
		"mov %[k], %%r11\n\t" "shr $2, %%r11\n\t" "jz 2f\n\t" ".p2align 5\n" "1:\n\t"
		GK_ASM_PREFETCH_SOME
		STEP(0, 0) STEP(16, 96) STEP(32, 192) STEP(48, 288)
		"add $64, %[a]\n\t" "add $384, %[b]\n\t" "dec %%r11\n\t" "jnz 1b\n" "2:\n\t"
		"and $3, %[k]\n\t" "jz 4f\n" "3:\n\t" STEP(0, 0) "add $16, %[a]\n\t" "add $96, %[b]\n\t" "dec %[k]\n\t" "jnz 3b\n" "4:\n\t"
		GK_ASM_PREFETCH_REST
		"vbroadcastss %[one], %%ymm15\n\t"
		CV(0,0) CV(1,32) CV(2,64) "add %[ldc], %[c]\n\t"
		CV(3,0) CV(4,32) CV(5,64) "add %[ldc], %[c]\n\t"
		CV(6,0) CV(7,32) CV(8,64) "add %[ldc], %[c]\n\t"
		CV(9,0) CV(10,32) CV(11,64)
		: [a] "+r"(a), [b] "+r"(b), [k] "+r"(k), [pf] "+r"(pf), [c] "+r"(cp)
		: [per] "r"(per), [pfend] "r"(pfend), [ldc] "r"(ldc), [one] "m"(one)
		: "rax", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc", "memory");
}
