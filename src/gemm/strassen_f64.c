/* strassen_f64.c - Strassen's algorithm in double precision (strassen_tmpl.h). */
#include <omp.h>
#include "gk_internal.h"

#define GK_T double
#define GK_ARGS gk_dgemm_args
#define GK_FN_SCALE gk_scale_rows_f64
#define GK_FN_BLOCKED gk_dgemm_blocked
#define GK_FN_ADD strassen_add_f64
#define GK_FN_ACC2 strassen_acc2_f64
#define GK_FN_WS strassen_ws_f64
#define GK_FN_MUL strassen_mul_f64
#define GK_FN_LEVEL strassen_level_f64
#define GK_FN_REC strassen_rec_f64
#define GK_FN_STRASSEN gk_dgemm_strassen
#include "strassen_tmpl.h"
