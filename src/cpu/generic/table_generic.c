/* table_generic.c - the reference table: every slot filled with portable C. */
#include "kernel_api.h"
#include "kernels_generic.h"

/* The prototypes must match the slot types. */
static const gk_axpy_f32_fn check_axpy_f32 = gk_axpy_f32_generic;
static const gk_axpy_f64_fn check_axpy_f64 = gk_axpy_f64_generic;
static const gk_dot_f32_fn check_dot_f32 = gk_dot_f32_generic;
static const gk_dot_f64_fn check_dot_f64 = gk_dot_f64_generic;
static const gk_gemm_f32_fn check_gemm_f32 = gk_gemm_f32_generic_4x8;
static const gk_gemm_f64_fn check_gemm_f64 = gk_gemm_f64_generic_4x4;
static const gk_gemm_u_f32_fn check_gemm_u_f32 = gk_gemm_u_f32_generic_4x8;
static const gk_gemm_u_f64_fn check_gemm_u_f64 = gk_gemm_u_f64_generic_4x4;
static const gk_unroll_f32_fn check_unroll_f32 = gk_unroll_f32_generic_2x4;
static const gk_unroll_f64_fn check_unroll_f64 = gk_unroll_f64_generic_2x4;
static const gk_regtile_f32_fn check_regtile_3x32 = gk_regtile_f32_generic_3x32;
static const gk_regtile_f64_fn check_regtile_3x16 = gk_regtile_f64_generic_3x16;
static const gk_regtile_f32_fn check_regtile_6x64 = gk_regtile_f32_generic_6x64;
static const gk_regtile_f64_fn check_regtile_6x32 = gk_regtile_f64_generic_6x32;

static const gk_gf256_dot_fn check_gf_dot[GK_GF256_MAX_ROWS + 1] = {
	0, gk_gf256_dot1_generic, gk_gf256_dot2_generic, gk_gf256_dot3_generic,
	gk_gf256_dot4_generic, gk_gf256_dot5_generic, gk_gf256_dot6_generic,
};

void gk_kernels_init_generic(gk_kernels *t)
{
	t->name = "generic";
	t->requires = 0;
	t->axpy_f32 = check_axpy_f32;
	t->axpy_f64 = check_axpy_f64;
	t->axpy4_f32 = gk_axpy4_f32_generic;
	t->axpy4_f64 = gk_axpy4_f64_generic;
	t->dot_f32 = check_dot_f32;
	t->dot_f64 = check_dot_f64;
	t->gemm_f32 = check_gemm_f32;
	t->gemm_f32_mr = GK_GEMM_F32_GENERIC_MR;
	t->gemm_f32_nr = GK_GEMM_F32_GENERIC_NR;
	t->gemm_f64 = check_gemm_f64;
	t->gemm_f64_mr = GK_GEMM_F64_GENERIC_MR;
	t->gemm_f64_nr = GK_GEMM_F64_GENERIC_NR;
	t->gemm_u_f32 = check_gemm_u_f32;
	t->gemm_u_f32_mr = GK_GEMM_U_F32_GENERIC_MR;
	t->gemm_u_f32_nr = GK_GEMM_U_F32_GENERIC_NR;
	t->gemm_u_f32_vw = GK_GEMM_U_F32_GENERIC_VW;
	t->gemm_u_f64 = check_gemm_u_f64;
	t->gemm_u_f64_mr = GK_GEMM_U_F64_GENERIC_MR;
	t->gemm_u_f64_nr = GK_GEMM_U_F64_GENERIC_NR;
	t->gemm_u_f64_vw = GK_GEMM_U_F64_GENERIC_VW;
	/* No column entries: the driver calls the unpacked kernel per tile. */
	t->gemm_uc_f32 = 0;
	t->gemm_uc_f64 = 0;
	for (int i = 0; i < 2; i++)
		t->gemm_u_f32_cube[i] = t->gemm_u_f64_cube[i] = GK_KERNELS_U_CUBE;
	t->pack_t_f32 = 0;
	t->pack_t_f64 = 0;
	/* No dot tiles: products a few columns wide go the unpacked tiles. */
	t->gemm_d_f32 = 0;
	t->pack_dt_f32 = 0;
	t->gemm_d_f32_mr = t->gemm_d_f32_nr = 0;
	t->gemm_d_f64 = 0;
	t->pack_dt_f64 = 0;
	t->gemm_d_f64_mr = t->gemm_d_f64_nr = 0;
	for (int n = 0; n <= GK_GEMM_D_COLS; n++)
		t->gemm_d_f32_min_k[n] = t->gemm_d_f64_min_k[n] = 0;
	t->unroll_2x4_f32 = check_unroll_f32;
	t->unroll_2x4_f64 = check_unroll_f64;
	t->regtile_3x32_f32 = check_regtile_3x32;
	t->regtile_3x16_f64 = check_regtile_3x16;
	t->regtile_6x64_f32 = check_regtile_6x64;
	t->regtile_6x32_f64 = check_regtile_6x32;
	for (int r = 0; r <= GK_GF256_MAX_ROWS; r++)
		t->gf_dot[r] = check_gf_dot[r];
	for (int r = 0; r <= GK_GF256_MAX_ROWS; r++)
		t->gf_dot_affine[r] = 0;
	t->gf_affine_requires = 0;
	t->gf_affine_name = 0;
	t->gemm_pf_f32 = 0;
	t->gemm_pf_f64 = 0;
	t->gemm_pf_next_c = 0;
	t->gemm_pf_whole_lines = 0;
	t->gemm_walk_deep = 1;
}
