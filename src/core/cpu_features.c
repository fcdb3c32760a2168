/*
 * cpu_features.c - what the processor and the operating system support.
 *
 * An ISA counts only when CPUID reports it and XGETBV says the OS saves the
 * registers it needs (YMM state for AVX/AVX2, opmask/ZMM state for AVX-512).
 */
#include <stdio.h>
#include <string.h>
#include "gk_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t xgetbv0(void)
{
	uint32_t eax, edx;
	__asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
	return ((uint64_t)edx << 32) | eax;
}

static uint64_t detect(void)
{
	uint32_t a, b, c, d, max_leaf;
	uint64_t f = 0;
	if (!__get_cpuid(0, &max_leaf, &b, &c, &d))
		return 0;
	__cpuid(1, a, b, c, d);
	if (d & (1u << 26)) f |= GK_CPU_SSE2;
	if (c & (1u << 9)) f |= GK_CPU_SSSE3;
	if (c & (1u << 19)) f |= GK_CPU_SSE41;
	int osxsave = (c >> 27) & 1;
	int avx = (c >> 28) & 1;
	int fma = (c >> 12) & 1;
	uint64_t xcr0 = osxsave ? xgetbv0() : 0;
	int ymm_ok = (xcr0 & 0x6) == 0x6;           /* XMM and YMM state */
	int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
	if (avx && ymm_ok) f |= GK_CPU_AVX;
	if (fma && ymm_ok) f |= GK_CPU_FMA;
	if (max_leaf >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		if ((b & (1u << 5)) && ymm_ok) f |= GK_CPU_AVX2;
		if (zmm_ok) {
			if (b & (1u << 16)) f |= GK_CPU_AVX512F;
			if (b & (1u << 17)) f |= GK_CPU_AVX512DQ;
			if (b & (1u << 30)) f |= GK_CPU_AVX512BW;
			if (b & (1u << 31)) f |= GK_CPU_AVX512VL;
			if (c & (1u << 1)) f |= GK_CPU_AVX512VBMI;
		}
		if (c & (1u << 8)) f |= GK_CPU_GFNI;
		if ((c & (1u << 10)) && ymm_ok) f |= GK_CPU_VPCLMULQDQ;
	}
	return f;
}

int gk_cpu_intel(void)
{
	uint32_t a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return 0;
	/* "GenuineIntel" in EBX, EDX, ECX */
	return b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu;
}

int gk_cpu_amd_family(void)
{
	uint32_t a, b, c, d;
	/* "AuthenticAMD" in EBX, EDX, ECX */
	if (!__get_cpuid(0, &a, &b, &c, &d) || b != 0x68747541u || d != 0x69746e65u ||
	    c != 0x444d4163u)
		return 0;
	__cpuid(1, a, b, c, d);
	/* The base family, plus the extended one when the base is 0xF. */
	const uint32_t base = (a >> 8) & 0xf;
	return (int)(base == 0xf ? base + ((a >> 20) & 0xff) : base);
}

void gk_cpu_brand(char *buf, size_t len)
{
	uint32_t regs[12], max_ext, b, c, d;
	if (len == 0)
		return;
	buf[0] = '\0';
	if (!__get_cpuid(0x80000000u, &max_ext, &b, &c, &d) || max_ext < 0x80000004u)
		return;
	for (uint32_t i = 0; i < 3; i++)
		__cpuid(0x80000002u + i, regs[4 * i], regs[4 * i + 1], regs[4 * i + 2], regs[4 * i + 3]);
	char brand[49];
	memcpy(brand, regs, 48);
	brand[48] = '\0';
	const char *s = brand;
	while (*s == ' ')
		s++;
	snprintf(buf, len, "%s", s);
	size_t n = strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
}
#else
static uint64_t detect(void)
{
	return 0;
}

int gk_cpu_intel(void)
{
	return 0;
}

int gk_cpu_amd_family(void)
{
	return 0;
}

void gk_cpu_brand(char *buf, size_t len)
{
	if (len > 0)
		snprintf(buf, len, "unknown");
}
#endif

uint64_t gk_cpu_features(void)
{
	static uint64_t cached;
	static int done;
	/* detect() is pure: a race only computes the same value twice. */
	if (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&cached, detect(), __ATOMIC_RELAXED);
		__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	}
	return __atomic_load_n(&cached, __ATOMIC_RELAXED);
}

void gk_cpu_feature_string(uint64_t f, char *buf, size_t len)
{
	static const struct { uint64_t bit; const char *name; } names[] = {
		{GK_CPU_SSE2, "sse2"}, {GK_CPU_SSSE3, "ssse3"}, {GK_CPU_SSE41, "sse4.1"},
		{GK_CPU_AVX, "avx"}, {GK_CPU_AVX2, "avx2"}, {GK_CPU_FMA, "fma"},
		{GK_CPU_AVX512F, "avx512f"}, {GK_CPU_AVX512DQ, "avx512dq"},
		{GK_CPU_AVX512BW, "avx512bw"}, {GK_CPU_AVX512VL, "avx512vl"},
		{GK_CPU_AVX512VBMI, "avx512vbmi"}, {GK_CPU_GFNI, "gfni"},
		{GK_CPU_VPCLMULQDQ, "vpclmulqdq"},
	};
	size_t used = 0;
	if (len == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (!(f & names[i].bit))
			continue;
		int w = snprintf(buf + used, len - used, "%s%s", used ? " " : "", names[i].name);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
}
