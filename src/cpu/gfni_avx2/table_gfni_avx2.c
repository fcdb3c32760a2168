/*
 * table_gfni_avx2.c - the GFNI GF(2^8) kernels on 256-bit vectors, put into
 * the AVX2 table's gf_dot_affine slots (the AVX-512 table, built on the AVX2
 * one, replaces them with its own). As for the AVX-512 GFNI kernels, the set
 * keeps its name and its GEMM kernels; the GF(2^8) driver uses these slots
 * only when the CPU also has gf_affine_requires (GK_GFNI=0 in the
 * environment turns them off).
 */
#include "kernel_api.h"
#include "kernels_gfni_avx2.h"

static const gk_gf256_dot_fn check_gf_dot[GK_GF256_MAX_ROWS + 1] = {
	0, gk_gf256_dot1_gfni_avx2, gk_gf256_dot2_gfni_avx2, gk_gf256_dot3_gfni_avx2,
	gk_gf256_dot4_gfni_avx2, gk_gf256_dot5_gfni_avx2, gk_gf256_dot6_gfni_avx2,
};

void gk_kernels_add_gfni_avx2(gk_kernels *t)
{
	for (int r = 0; r <= GK_GF256_MAX_ROWS; r++)
		t->gf_dot_affine[r] = check_gf_dot[r];
	t->gf_affine_requires = GK_CPU_GFNI;
	t->gf_affine_name = "avx2+gfni";
}
