/* ladder_tiled_f64.c - CPU ladder rungs 5 to 9 in double precision (ladder_tiled_tmpl.h). */
#include <omp.h>
#include <string.h>
#include "gk_internal.h"

#define GK_T double
#define GK_ARGS gk_dgemm_args
#define GK_AXPY axpy_f64
#define GK_UNROLL unroll_2x4_f64
#define GK_REGTILE_FN gk_regtile_f64_fn
#define GK_REG_SMALL regtile_3x16_f64
#define GK_REG_SMALL_NR 16
#define GK_REG_LARGE regtile_6x32_f64
#define GK_REG_LARGE_NR 32
#define GK_RUNG tiled_rung_f64
#define GK_FN_SCALE gk_scale_rows_f64
#define GK_FN_ROUND_UP round_up_f64
#define GK_FN_COPY_TILE copy_tile_f64
#define GK_FN_TILE_MUL tile_mul_f64
#define GK_FN_BLOCK_ROW block_row_f64
#define GK_FN_TILED tiled_f64
#define GK_FN_BLOCK64 gk_dgemm_block64
#define GK_FN_BLOCK64_ALIGNED gk_dgemm_block64_aligned
#define GK_FN_UNROLL gk_dgemm_unroll_2x4
#define GK_FN_REG_SMALL gk_dgemm_regtile_3x16
#define GK_FN_REG_LARGE gk_dgemm_regtile_6x32
#include "ladder_tiled_tmpl.h"
