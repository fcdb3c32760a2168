/* table_avx512.c - the AVX2 table with the AVX-512 kernels put in. */
#include "gk_internal.h"
#include "kernel_api.h"
#include "kernels_avx512.h"

static const gk_axpy_f32_fn check_axpy_f32 = gk_axpy_f32_avx512;
static const gk_axpy_f64_fn check_axpy_f64 = gk_axpy_f64_avx512;
static const gk_dot_f32_fn check_dot_f32 = gk_dot_f32_avx512;
static const gk_dot_f64_fn check_dot_f64 = gk_dot_f64_avx512;
static const gk_gemm_f32_fn check_gemm_f32 = gk_gemm_f32_avx512_14x32;
static const gk_gemm_f64_fn check_gemm_f64 = gk_gemm_f64_avx512_8x24;
static const gk_gemm_pf_f32_fn check_gemm_pf_f32 = gk_gemm_pf_f32_avx512_14x32;
static const gk_gemm_pf_f64_fn check_gemm_pf_f64 = gk_gemm_pf_f64_avx512_8x24;
static const gk_gemm_u_f32_fn check_gemm_u_f32 = gk_gemm_u_f32_avx512_6x64;
static const gk_gemm_u_f64_fn check_gemm_u_f64 = gk_gemm_u_f64_avx512_6x32;
static const gk_gemm_u_f32_fn check_gemm_u_f32p = gk_gemm_u_f32_avx512_6x64p;
static const gk_gemm_u_f64_fn check_gemm_u_f64p = gk_gemm_u_f64_avx512_6x32p;
static const gk_gemm_u_f32_fn check_gemm_u_f32q = gk_gemm_u_f32_avx512_6x64q;
static const gk_gemm_u_f64_fn check_gemm_u_f64q = gk_gemm_u_f64_avx512_6x32q;
static const gk_gemm_uc_f32_fn check_gemm_uc_f32 = gk_gemm_u_f32_avx512_6x64_col;
static const gk_gemm_uc_f64_fn check_gemm_uc_f64 = gk_gemm_u_f64_avx512_6x32_col;
static const gk_gemm_uc_f32_fn check_gemm_uc_f32p = gk_gemm_u_f32_avx512_6x64p_col;
static const gk_gemm_uc_f64_fn check_gemm_uc_f64p = gk_gemm_u_f64_avx512_6x32p_col;
static const gk_gemm_uc_f32_fn check_gemm_uc_f32q = gk_gemm_u_f32_avx512_6x64q_col;
static const gk_gemm_uc_f64_fn check_gemm_uc_f64q = gk_gemm_u_f64_avx512_6x32q_col;
static const gk_gemm_d_f32_fn check_gemm_d_f32 = gk_gemm_d_f32_avx512;
static const gk_gemm_d_f64_fn check_gemm_d_f64 = gk_gemm_d_f64_avx512;
static const gk_pack_dt_f32_fn check_pack_dt_f32 = gk_pack_dt_f32_avx512;
static const gk_pack_dt_f64_fn check_pack_dt_f64 = gk_pack_dt_f64_avx512;
static const gk_unroll_f32_fn check_unroll_f32 = gk_unroll_f32_avx512_2x4;
static const gk_unroll_f64_fn check_unroll_f64 = gk_unroll_f64_avx512_2x4;
static const gk_regtile_f32_fn check_regtile_6x64 = gk_regtile_f32_avx512_6x64;
static const gk_regtile_f64_fn check_regtile_6x32 = gk_regtile_f64_avx512_6x32;

static const gk_gf256_dot_fn check_gf_dot[GK_GF256_MAX_ROWS + 1] = {
	0, gk_gf256_dot1_avx512, gk_gf256_dot2_avx512, gk_gf256_dot3_avx512,
	gk_gf256_dot4_avx512, gk_gf256_dot5_avx512, gk_gf256_dot6_avx512,
};

/* How the unpacked kernels compute tiles of few columns
 * (gemm_u_pairs_avx512.c): 2, those of at most half a vector as row pairs
 * and of a quarter as row quads, on AMD from Zen 5 on (1.1-1.5x on products
 * 8 floats or 4 doubles wide, 1.16-1.36x more on 4 and 2 with quads); 4,
 * only the quarter-wide ones as quads, on Intel (quads 1.02-1.69x on a
 * Xeon of the Sapphire Rapids class, pairs 0.75-0.96x there); 0 elsewhere
 * (Zen 4, which splits 512-bit operations in two halves, was not measured).
 * GK_GEMM_PAIRS=0 turns both off, 1 both on. */
static int grouped_rule(void)
{
	return gk_cpu_amd_family() >= 0x1a ? 2 : gk_cpu_intel() ? 4 : 0;
}

static int grouped(void)
{
	/* GK_GEMM_PAIRS=1 reads 1: pairs and quads. */
	static int cached = -1;
	const int g = gk_env_switch("GK_GEMM_PAIRS", &cached, grouped_rule);
	return g == 1 ? 2 : g;
}

/* The least depth from which a C n columns wide goes to the dot tiles
 * (gemm_d_avx512.c; 0: never), by what the unpacked tiles do with it.
 * Measured call by call against them, SGEMM and DGEMM, m = 16 to 256, k =
 * 32 to 4096, one thread (docs/KERNELS.md): on a Zen 5 core with row pairs
 * and quads, where C 7 or 8 floats wide fills most of the unpacked tiles'
 * vectors and the dot tiles' sums at the end pay only along a longer k; on
 * an Intel Xeon (Sapphire Rapids class) with quads. Zen 4
 * (neither), which runs a 512-bit operation as two 256-bit halves, was not
 * at hand: there the unpacked tiles of 5 to 8 floats and 3 or 4 doubles
 * lose no lanes, so those stay with them, or go from a long k. */
typedef struct {
	int f32[GK_GEMM_D_COLS + 1], f64[GK_GEMM_D_COLS + 1];
} dot_depths;
static const dot_depths dot_zen5 = {{0, 32, 32, 32, 64, 64, 64, 128, 128},
                                    {0, 32, 32, 32, 32, 0, 0, 0, 0}};
static const dot_depths dot_intel = {{0, 32, 32, 32, 32, 64, 64, 128, 128},
                                     {0, 32, 32, 64, 32, 0, 0, 0, 0}};
static const dot_depths dot_plain = {{0, 32, 64, 64, 64, 256, 1024, 0, 0},
                                     {0, 32, 64, 0, 0, 0, 0, 0, 0}};
/* The widths of C whose tiles read A's rows in aligned vectors where they
 * start off one (kernel_api.h, off; bit n: n columns), on every CPU. On a
 * Zen 5 core, A 16 bytes past a 64-byte boundary, call by call: SGEMM 64 x
 * 2 x 128 to x 512 1.24-1.44x, 64 x 3 x 256 1.44x, DGEMM 64 x 2 x 64
 * 1.31x, 64 x 3 x 1024 1.30x; 4 wide 0.98x at 64 x 4 x 64. */
#define DOT_OFF_COLS ((1u << 2) | (1u << 3))

void gk_kernels_init_avx512(gk_kernels *t)
{
	gk_kernels_init_avx2(t);
	t->name = "avx512";
	t->requires = GK_CPU_AVX | GK_CPU_AVX2 | GK_CPU_FMA | GK_CPU_AVX512F |
	              GK_CPU_AVX512DQ | GK_CPU_AVX512BW | GK_CPU_AVX512VL;
	t->axpy_f32 = check_axpy_f32;
	t->axpy_f64 = check_axpy_f64;
	t->axpy4_f32 = gk_axpy4_f32_avx512;
	t->axpy4_f64 = gk_axpy4_f64_avx512;
	t->dot_f32 = check_dot_f32;
	t->dot_f64 = check_dot_f64;
	t->gemm_f32 = check_gemm_f32;
	t->gemm_f32_mr = GK_GEMM_F32_AVX512_MR;
	t->gemm_f32_nr = GK_GEMM_F32_AVX512_NR;
	t->gemm_f64 = check_gemm_f64;
	t->gemm_f64_mr = GK_GEMM_F64_AVX512_MR;
	t->gemm_f64_nr = GK_GEMM_F64_AVX512_NR;
	t->gemm_pf_f32 = check_gemm_pf_f32;
	t->gemm_pf_f64 = check_gemm_pf_f64;
	t->gemm_pf_next_c = 1;
	/* One line every 64 bytes: with B 16 bytes past a line, every line
	 * ran at the same speed on one thread of a Zen 5 core and 3-7%
	 * slower on two at 64 and 128 x 4096 x 4096, the missing line made no
	 * difference (bench/results/2026-11-30-zen5-pack-align/). */
	t->gemm_pf_whole_lines = 0;
	/* The row walk at any depth: AVX-512 SGEMM 1000^3 and 1400^3 ran
	 * 1.03-1.06x faster with it than down the columns on an Emerald
	 * Rapids core (bench/results/2026-11-29-emr-walk2/). */
	t->gemm_walk_deep = 1;
	const int g = grouped();
	t->gemm_u_f32 = g == 2 ? check_gemm_u_f32p : g == 4 ? check_gemm_u_f32q : check_gemm_u_f32;
	t->gemm_u_f32_mr = GK_GEMM_U_F32_AVX512_MR;
	t->gemm_u_f32_nr = GK_GEMM_U_F32_AVX512_NR;
	t->gemm_u_f32_vw = GK_GEMM_U_F32_AVX512_VW;
	t->gemm_u_f64 = g == 2 ? check_gemm_u_f64p : g == 4 ? check_gemm_u_f64q : check_gemm_u_f64;
	t->gemm_uc_f32 = g == 2 ? check_gemm_uc_f32p : g == 4 ? check_gemm_uc_f32q : check_gemm_uc_f32;
	t->gemm_uc_f64 = g == 2 ? check_gemm_uc_f64p : g == 4 ? check_gemm_uc_f64q : check_gemm_uc_f64;
	t->gemm_u_grouped = g;
	t->gemm_u_f64_mr = GK_GEMM_U_F64_AVX512_MR;
	t->gemm_u_f64_nr = GK_GEMM_U_F64_AVX512_NR;
	t->gemm_u_f64_vw = GK_GEMM_U_F64_AVX512_VW;
	/* Edge tiles: the driver takes them where they do fewer FMAs a step
	 * of k than the unpacked kernel (up to 13 columns of the 14-row SGEMM
	 * tile; 1-7 and 9-15 of the 8-row DGEMM one). */
	t->gemm_e_f32 = gk_gemm_e_f32_avx512;
	t->gemm_e_f32_mr = 16;
	t->gemm_e_f64 = gk_gemm_e_f64_avx512;
	t->gemm_e_f64_mr = 8;
	/* DGEMM packed from 160^3 on Intel: on an Emerald Rapids core, packed
	 * against unpacked, 144^3-240^3 1.01-1.13x, 272^3-500^3 1.3-1.7x
	 * (sizes whose B rows lie a multiple of 512 bytes apart, 320^3,
	 * 384^3, ..., were packed already: blocked.h, GK_BLOCKED_ALIAS_*),
	 * and 60 x 500 x 500 to 500 x 500 x 50 1.07-1.40x
	 * (bench/results/2026-11-29-emr-small/). The unpacked tile's B sliver,
	 * 32 doubles by up to 768 rows, streams from L2 for each tile of rows.
	 * SGEMM from 400^3: 440^3-500^3 1.09-1.19x, 300 x 500 x 500 and the
	 * like 1.08-1.15x, 0.97-1.02x at the edge (400^3, 250 x 500 x 500,
	 * 100 x 500 x 500), where below it rectangles of one short side
	 * measured 0.87-0.96x. AMD CPUs keep the default. */
	const int intel = gk_cpu_intel();
	for (int i = 0; i < 2; i++) {
		t->gemm_u_f32_cube[i] = intel ? 400 : GK_KERNELS_U_CUBE;
		t->gemm_u_f64_cube[i] = intel ? 160 : GK_KERNELS_U_CUBE;
	}
	const dot_depths *d = g == 2 ? &dot_zen5 : g == 4 ? &dot_intel : &dot_plain;
	gk_kernels_set_dot(t, check_gemm_d_f32, check_pack_dt_f32, check_gemm_d_f64,
	                   check_pack_dt_f64, GK_GEMM_D_AVX512_MR, GK_GEMM_D_F32_AVX512_NR,
	                   GK_GEMM_D_F64_AVX512_NR, 64, DOT_OFF_COLS, d->f32, d->f64);
	t->unroll_2x4_f32 = check_unroll_f32;
	t->unroll_2x4_f64 = check_unroll_f64;
	t->regtile_6x64_f32 = check_regtile_6x64;
	t->regtile_6x32_f64 = check_regtile_6x32;
	for (int r = 0; r <= GK_GF256_MAX_ROWS; r++)
		t->gf_dot[r] = check_gf_dot[r];
	gk_kernels_add_gfni(t);
}
