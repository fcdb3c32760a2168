/* ladder_tiled_f32.c - CPU ladder rungs 5 to 9 in single precision (ladder_tiled_tmpl.h). */
#include <omp.h>
#include <string.h>
#include "gk_internal.h"

#define GK_T float
#define GK_ARGS gk_sgemm_args
#define GK_AXPY axpy_f32
#define GK_UNROLL unroll_2x4_f32
#define GK_REGTILE_FN gk_regtile_f32_fn
#define GK_REG_SMALL regtile_3x32_f32
#define GK_REG_SMALL_NR 32
#define GK_REG_LARGE regtile_6x64_f32
#define GK_REG_LARGE_NR 64
#define GK_RUNG tiled_rung_f32
#define GK_FN_SCALE gk_scale_rows_f32
#define GK_FN_ROUND_UP round_up_f32
#define GK_FN_COPY_TILE copy_tile_f32
#define GK_FN_TILE_MUL tile_mul_f32
#define GK_FN_BLOCK_ROW block_row_f32
#define GK_FN_TILED tiled_f32
#define GK_FN_BLOCK64 gk_sgemm_block64
#define GK_FN_BLOCK64_ALIGNED gk_sgemm_block64_aligned
#define GK_FN_UNROLL gk_sgemm_unroll_2x4
#define GK_FN_REG_SMALL gk_sgemm_regtile_3x32
#define GK_FN_REG_LARGE gk_sgemm_regtile_6x64
#include "ladder_tiled_tmpl.h"
