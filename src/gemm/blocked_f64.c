/* blocked_f64.c - the blocked DGEMM driver, "cpu.blocked" (blocked_tmpl.h). */
#include <omp.h>
#include "blocked.h"

#define GK_T double
#define GK_ARGS gk_dgemm_args
#define GK_UKR gemm_f64
#define GK_DOT dot_f64
#define GK_UKR_FN gk_gemm_f64_fn
#define GK_MR gemm_f64_mr
#define GK_NR gemm_f64_nr
#define GK_PLAN plan_f64
#define GK_FN_PACK gk_pack_f64
#define GK_FN_MERGE merge_f64
#define GK_FN_SLIVER sliver_f64
#define GK_FN_TILE tile_f64
#define GK_FN_MACRO macro_f64
#define GK_FN_SPLIT split_f64
#define GK_FN_THREAD thread_f64
#define GK_FN_GRID grid_f64
#define GK_FN_DOT_ROWS dot_rows_f64
#define GK_FN_DOT_PATH dot_path_f64
#define GK_FN_AXPY_ROWS gk_dgemm_ikj
#define GK_FN_BLOCKED gk_dgemm_blocked
#include "blocked_tmpl.h"
