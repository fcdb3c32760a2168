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
	/* One or two output rows past 8 inputs in groups of about 6: these
	 * kernels outrun a dozen read streams, and a second pass over one or
	 * two rows in cache costs little. Zen 5, the gf256 suite in alternating
	 * runs, ratios to ISA-L on one thread: 10+4 decode 1.61-1.83 -> 2.41-2.66
	 * (64 KiB) and 1.93-2.37 -> 2.24-2.84 (1 MiB), 12+4 decode 1.60-1.82 ->
	 * 2.30-2.33 and 2.10-2.48 -> 2.52-2.73, 28+4 decode 1.67-1.79 ->
	 * 1.79-2.02 and 3.23-3.50 -> 2.95-2.98; with four rows the same groups
	 * lost (12+4 encode on 1 MiB 2.30 -> 1.27-1.44), and so did the AVX2
	 * GFNI kernels' 12+4 and 28+4 decodes on 1 MiB (2.30-3.40 -> 1.59-2.09),
	 * which keep the general rule (bench/results/2026-11-30-zen5-gf-groups/). */
	t->gf_affine_few_most = 8;
	t->gf_affine_few_group = 6;
}
