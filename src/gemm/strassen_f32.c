/* strassen_f32.c - Strassen's algorithm in single precision (strassen_tmpl.h). */
#include <omp.h>
#include "gk_internal.h"

#define GK_T float
#define GK_ARGS gk_sgemm_args
#define GK_FN_SCALE gk_scale_rows_f32
#define GK_FN_BLOCKED gk_sgemm_blocked
#define GK_FN_ADD strassen_add_f32
#define GK_FN_ACC2 strassen_acc2_f32
#define GK_FN_WS strassen_ws_f32
#define GK_FN_MUL strassen_mul_f32
#define GK_FN_LEVEL strassen_level_f32
#define GK_FN_REC strassen_rec_f32
#define GK_FN_STRASSEN gk_sgemm_strassen
#include "strassen_tmpl.h"
