/* blocked_f32.c - the blocked SGEMM driver, "cpu.blocked" (blocked_tmpl.h). */
#include <omp.h>
#include "blocked.h"

#define GK_T float
#define GK_ARGS gk_sgemm_args
#define GK_UKR gemm_f32
#define GK_DOT dot_f32
#define GK_UKR_FN gk_gemm_f32_fn
#define GK_MR gemm_f32_mr
#define GK_NR gemm_f32_nr
#define GK_PLAN plan_f32
#define GK_FN_PACK gk_pack_f32
#define GK_FN_MERGE merge_f32
#define GK_FN_SLIVER sliver_f32
#define GK_FN_TILE tile_f32
#define GK_FN_MACRO macro_f32
#define GK_FN_SPLIT split_f32
#define GK_FN_THREAD thread_f32
#define GK_FN_GRID grid_f32
#define GK_FN_DOT_ROWS dot_rows_f32
#define GK_FN_DOT_PATH dot_path_f32
#define GK_FN_AXPY_ROWS gk_sgemm_ikj
#define GK_FN_BLOCKED gk_sgemm_blocked
#include "blocked_tmpl.h"
