/*
 * gf_common.cuh - what the GF(2^8) kernels share: multiplication in the field
 * of gemmkit (x^8 + x^4 + x^3 + x^2 + 1, 0x11D), on one byte and on the bytes
 * packed in a word, and the launch checks. Included by src/cuda/gf256/*.cu.
 */
#ifndef GK_GF_COMMON_CUH
#define GK_GF_COMMON_CUH

#include "../core/cuda_check.cuh"
#include "gf256_cuda.h"

/* a * b in GF(2^8): shift and add over the bits of b, reducing a by 0x11D
 * whenever it overflows; branch-free. */
__device__ __forceinline__ uint32_t gf_mul(uint32_t a, uint32_t b)
{
	uint32_t p = 0;
#pragma unroll
	for (int i = 0; i < 8; i++) {
		p ^= a & (0u - ((b >> i) & 1u));
		a = (a << 1) ^ (0x11du & (0u - (a >> 7)));
	}
	return p;
}

/* Every byte of x times 2 (the field's "xtime"), bytes packed in a word. */
template <typename W> __device__ __forceinline__ W gf_xtime(W x)
{
	const W lo7 = (W)0x7f7f7f7f7f7f7f7full, b0 = (W)0x0101010101010101ull;
	return ((x & lo7) << 1) ^ (((x >> 7) & b0) * (W)0x1d);
}

/* Every byte of x times c. */
template <typename W> __device__ __forceinline__ W gf_mul_word(W x, uint32_t c)
{
	W p = 0;
#pragma unroll
	for (int i = 0; i < 8; i++) {
		p ^= x & ((W)0 - (W)((c >> i) & 1u));
		x = gf_xtime(x);
	}
	return p;
}

/* A grid-stride launch over the columns: at most this many blocks along x. */
#define GK_GF_MAX_GRID_X 65535

static inline int gf_grid_x(int64_t units, int per_block, int sm_count, int per_sm)
{
	int64_t g = (units + per_block - 1) / per_block;
	const int64_t cap = (int64_t)(sm_count > 0 ? sm_count : 1) * per_sm;
	if (g > cap)
		g = cap;
	if (g > GK_GF_MAX_GRID_X)
		g = GK_GF_MAX_GRID_X;
	return g < 1 ? 1 : (int)g;
}

/* Whether every row of a (rows x cols) byte matrix starting at p with
 * leading dimension ld is aligned to `w` bytes. */
static inline int gf_rows_aligned(const void *p, int64_t ld, int w)
{
	return ((uintptr_t)p % (uintptr_t)w) == 0 && ld % w == 0;
}

#endif
