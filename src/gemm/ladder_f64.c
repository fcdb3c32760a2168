/* ladder_f64.c - the first CPU ladder rungs in double precision (ladder_tmpl.h). */
#include <omp.h>
#include "gk_internal.h"

#define GK_T double
#define GK_ARGS gk_dgemm_args
#define GK_DOT dot_f64
#define GK_AXPY axpy_f64
#define GK_FN_SCALE gk_scale_rows_f64
#define GK_FN_PLAIN gk_dgemm_plain
#define GK_FN_PACK_ROWS pack_rows_f64
#define GK_FN_TRANS gk_dgemm_trans
#define GK_FN_IKJ_ROWS ikj_rows_f64
#define GK_FN_IKJ gk_dgemm_ikj
#define GK_FN_IKJ_OMP gk_dgemm_ikj_omp
#include "ladder_tmpl.h"
