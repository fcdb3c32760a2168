/* table_avx2.c - the generic table with the AVX2+FMA kernels put in. */
#include "gk_internal.h"
#include "kernel_api.h"
#include "kernels_avx2.h"

static const gk_axpy_f32_fn check_axpy_f32 = gk_axpy_f32_avx2;
static const gk_axpy_f64_fn check_axpy_f64 = gk_axpy_f64_avx2;
static const gk_dot_f32_fn check_dot_f32 = gk_dot_f32_avx2;
static const gk_dot_f64_fn check_dot_f64 = gk_dot_f64_avx2;
static const gk_gemm_f32_fn check_gemm_f32 = gk_gemm_f32_avx2_6x16;
static const gk_gemm_f64_fn check_gemm_f64 = gk_gemm_f64_avx2_4x12;
static const gk_gemm_f64_fn check_gemm_f64_6x8 = gk_gemm_f64_avx2_6x8;
static const gk_gemm_pf_f32_fn check_gemm_pf_f32 = gk_gemm_pf_f32_avx2_6x16;
static const gk_gemm_pf_f64_fn check_gemm_pf_f64 = gk_gemm_pf_f64_avx2_4x12;
static const gk_gemm_pf_f64_fn check_gemm_pf_f64_6x8 = gk_gemm_pf_f64_avx2_6x8;
static const gk_gemm_u_f32_fn check_gemm_u_f32 = gk_gemm_u_f32_avx2_6x16;
static const gk_gemm_u_f64_fn check_gemm_u_f64 = gk_gemm_u_f64_avx2_6x8;
static const gk_gemm_d_f32_fn check_gemm_d_f32 = gk_gemm_d_f32_avx2;
static const gk_gemm_d_f64_fn check_gemm_d_f64 = gk_gemm_d_f64_avx2;
static const gk_pack_dt_f32_fn check_pack_dt_f32 = gk_pack_dt_f32_avx2;
static const gk_pack_dt_f64_fn check_pack_dt_f64 = gk_pack_dt_f64_avx2;
static const gk_pack_t_f32_fn check_pack_t_f32 = gk_pack_t_f32_avx2;
static const gk_pack_t_f64_fn check_pack_t_f64 = gk_pack_t_f64_avx2;
static const gk_unroll_f32_fn check_unroll_f32 = gk_unroll_f32_avx2_2x4;
static const gk_unroll_f64_fn check_unroll_f64 = gk_unroll_f64_avx2_2x4;
static const gk_regtile_f32_fn check_regtile_3x32 = gk_regtile_f32_avx2_3x32;
static const gk_regtile_f64_fn check_regtile_3x16 = gk_regtile_f64_avx2_3x16;

static const gk_gf256_dot_fn check_gf_dot[GK_GF256_MAX_ROWS + 1] = {
	0, gk_gf256_dot1_avx2, gk_gf256_dot2_avx2, gk_gf256_dot3_avx2,
	gk_gf256_dot4_avx2, gk_gf256_dot5_avx2, gk_gf256_dot6_avx2,
};

static int dot_rule(void)
{
	return 1;
}

int gk_kernels_dot_tiles(void)
{
	static int cached = -1;
	return gk_env_switch("GK_GEMM_DOT", &cached, dot_rule);
}

/* The least depth from which a C n columns wide goes to the dot tiles
 * (gemm_d_avx2.c; 0: never), by what the unpacked tiles do with it:
 * measured call by call against them with this set forced on a Zen 5 core
 * (m = 8 to 256, k = 32 to 4096). A C of 8 floats or 4 doubles fills the
 * unpacked tiles' 256-bit rows, and the dot tiles of 2 x 4 that sixteen
 * registers leave measured 0.65-0.92 of them: never; 6 and 7 floats pay
 * only along a longer k. */
static const int dot_f32[GK_GEMM_D_COLS + 1] = {0, 32, 32, 32, 32, 64, 256, 1024, 0};
static const int dot_f64[GK_GEMM_D_COLS + 1] = {0, 32, 32, 32, 0, 0, 0, 0, 0};

void gk_kernels_init_avx2(gk_kernels *t)
{
	gk_kernels_init_generic(t);
	t->name = "avx2";
	t->requires = GK_CPU_AVX | GK_CPU_AVX2 | GK_CPU_FMA;
	t->axpy_f32 = check_axpy_f32;
	t->axpy_f64 = check_axpy_f64;
	t->axpy4_f32 = gk_axpy4_f32_avx2;
	t->axpy4_f64 = gk_axpy4_f64_avx2;
	t->dot_f32 = check_dot_f32;
	t->dot_f64 = check_dot_f64;
	t->gemm_f32 = check_gemm_f32;
	t->gemm_f32_mr = GK_GEMM_F32_AVX2_MR;
	t->gemm_f32_nr = GK_GEMM_F32_AVX2_NR;
	/* DGEMM: 4 x 12 where the driver walks C down its columns, the A
	 * sliver streaming from L2: 32 bytes of A a step of 12 FMAs instead
	 * of 48 (1.00-1.12x the 6 x 8 tile's speed on an Emerald Rapids
	 * core). Where it walks C along its rows for any panel (an L2 of 512
	 * KiB or less: Zen 1-3, Skylake-family clients) the B panel streams
	 * from L3 instead, 96 bytes a step in 4 x 12 tiles against 64: there
	 * 4 x 12 ran 0.78-0.89x the 6 x 8 tile's speed (the row walk forced
	 * on the same core; bench/results/2026-11-29-emr-dgemm412/). */
	const int rows = gk_gemm_walks_rows();
	t->gemm_f64 = rows ? check_gemm_f64_6x8 : check_gemm_f64;
	t->gemm_f64_mr = rows ? GK_GEMM_F64_AVX2_6X8_MR : GK_GEMM_F64_AVX2_4X12_MR;
	t->gemm_f64_nr = rows ? GK_GEMM_F64_AVX2_6X8_NR : GK_GEMM_F64_AVX2_4X12_NR;
	t->gemm_pf_f32 = check_gemm_pf_f32;
	t->gemm_pf_f64 = rows ? check_gemm_pf_f64_6x8 : check_gemm_pf_f64;
	/* The next C tile along the k loop measured 2-3% slower at 1024^3 and
	 * 2048^3 (forced on an AVX-512 Xeon): only the pieces of B. */
	t->gemm_pf_next_c = 0;
	/* Every line of B's rows: with B 16 bytes past a line, one thread
	 * and two, on a Zen 5 core, against one every 64 bytes: SGEMM 64 x
	 * 4096 x 4096 1.13x, 128 x 4096 x 4096 1.06-1.10x, 192 x 4096 x 2048
	 * 1.04x, 64 x 8192 x 2048 1.13x, DGEMM 64 x 4096 x 4096 1.04-1.05x
	 * (bench/results/2026-11-30-zen5-pack-align/). */
	t->gemm_pf_whole_lines = 1;
	t->pack_t_f32 = check_pack_t_f32;
	t->pack_t_f64 = check_pack_t_f64;
	t->gemm_u_f32 = check_gemm_u_f32;
	t->gemm_u_f32_mr = GK_GEMM_U_F32_AVX2_MR;
	t->gemm_u_f32_nr = GK_GEMM_U_F32_AVX2_NR;
	t->gemm_u_f32_vw = GK_GEMM_U_F32_AVX2_VW;
	t->gemm_u_f64 = check_gemm_u_f64;
	t->gemm_u_f64_mr = GK_GEMM_U_F64_AVX2_MR;
	t->gemm_u_f64_nr = GK_GEMM_U_F64_AVX2_NR;
	t->gemm_u_f64_vw = GK_GEMM_U_F64_AVX2_VW;
	/* On Intel, DGEMM packed from 340^3 and SGEMM from 440^3: forced on
	 * an Emerald Rapids core, packed against unpacked, DGEMM 400^3 1.07x
	 * and 480^3 1.15x, 200^3-300^3 0.93-0.99x, and 100 x 500 x 500 to
	 * 500 x 500 x 50 0.89-1.00x; SGEMM 480^3-500^3 1.14-1.17x, 0.98-1.03x
	 * at the edge (bench/results/2026-11-29-emr-small/). With A by columns
	 * and B by rows (row-major 'T','N'), from 250^3 and 190^3: SGEMM
	 * 300^3-400^3 1.10-1.21x packed, 200^3 0.82x; DGEMM 200^3 1.04x,
	 * 300^3 1.32x (transposes.log there). AMD CPUs keep the default: not
	 * measured. */
	if (gk_cpu_intel()) {
		t->gemm_u_f32_cube[0] = 440;
		t->gemm_u_f64_cube[0] = 340;
		t->gemm_u_f32_cube[1] = 250;
		t->gemm_u_f64_cube[1] = 190;
	}
	/* On Intel, SGEMM with a C of up to 96 columns unpacked: on an
	 * Emerald Rapids core, unpacked against packed, 1762 x 66-96 x 307
	 * 1.04-1.16x, 500 x 80 x 2000 1.14x, 3000 x 72 x 100 1.16x, 4096 x 96
	 * x 4096 1.03x; 1762 x 128 x 307 0.96x
	 * (bench/results/2026-11-29-emr-edge/). DGEMM keeps 64 (1762 x 80 x
	 * 307 0.98x). AMD CPUs keep the default: not measured. */
	if (gk_cpu_intel())
		t->gemm_u_f32_thin = 96;
	/* On Intel, C walked along its rows only for a shallow product or a C
	 * that fits L2: on an Emerald Rapids core, call by call against the
	 * row walk, SGEMM 800^3 1.05x, 1000^3 1.05x, 1023 x 1025 x 1027 1.04x,
	 * DGEMM 600^3-700^3 1.03-1.08x; SGEMM 448^3-512^3 (C fits L2) ran
	 * 0.97-0.99x down the columns and 4096 x 4096 x 64 (one shallow
	 * block) 0.97-0.99x: both keep the rows
	 * (bench/results/2026-11-29-emr-walk2/). AMD CPUs keep the default:
	 * not measured. */
	if (gk_cpu_intel())
		t->gemm_walk_deep = 0;
	/* Off > 0 (kernel_api.h) for C 2 wide: with A 16 bytes past a 32-byte
	 * boundary, forced on a Zen 5 core, SGEMM 64 x 2 x 64 1.08x, x 512
	 * 1.36x, DGEMM 1.21x and 1.43x; 3 wide 0.86-0.98x (its 4 x 3 tile
	 * leaves no register for the mask and the lanes' order). */
	gk_kernels_set_dot(t, check_gemm_d_f32, check_pack_dt_f32, check_gemm_d_f64,
	                   check_pack_dt_f64, GK_GEMM_D_AVX2_MR, GK_GEMM_D_AVX2_NR,
	                   GK_GEMM_D_AVX2_NR, 32, 1u << 2, dot_f32, dot_f64);
	t->unroll_2x4_f32 = check_unroll_f32;
	t->unroll_2x4_f64 = check_unroll_f64;
	t->regtile_3x32_f32 = check_regtile_3x32;
	t->regtile_3x16_f64 = check_regtile_3x16;
	for (int r = 0; r <= GK_GF256_MAX_ROWS; r++)
		t->gf_dot[r] = check_gf_dot[r];
	gk_kernels_add_gfni_avx2(t);
}
