/*
 * table_gfni.c - the GFNI GF(2^8) kernels, put into the AVX-512 table's
 * gf_dot_affine slots. They are not a table of their own: GFNI changes
 * nothing but GF(2^8) multiplication, so the set keeps its name and its GEMM
 * kernels, and the GF(2^8) driver uses these slots only when the CPU also has
 * gf_affine_requires (GK_GFNI=0 in the environment turns them off).
 */
#include "kernel_api.h"
#include "kernels_gfni.h"

static const gk_gf256_dot_fn check_gf_dot[GK_GF256_MAX_ROWS + 1] = {
	0, gk_gf256_dot1_gfni, gk_gf256_dot2_gfni, gk_gf256_dot3_gfni,
	gk_gf256_dot4_gfni, gk_gf256_dot5_gfni, gk_gf256_dot6_gfni,
};

void gk_kernels_add_gfni(gk_kernels *t)
{
	for (int r = 0; r <= GK_GF256_MAX_ROWS; r++)
		t->gf_dot_affine[r] = check_gf_dot[r];
	t->gf_affine_requires = GK_CPU_GFNI;
	t->gf_affine_name = "avx512+gfni";
}
