/* ladder_f32.c - the first CPU ladder rungs in single precision (ladder_tmpl.h). */
#include <omp.h>
#include "gk_internal.h"

#define GK_T float
#define GK_ARGS gk_sgemm_args
#define GK_DOT dot_f32
#define GK_AXPY axpy_f32
#define GK_FN_SCALE gk_scale_rows_f32
#define GK_FN_PLAIN gk_sgemm_plain
#define GK_FN_PACK_ROWS pack_rows_f32
#define GK_FN_TRANS gk_sgemm_trans
#define GK_FN_IKJ_ROWS ikj_rows_f32
#define GK_FN_IKJ gk_sgemm_ikj
#define GK_FN_IKJ_OMP gk_sgemm_ikj_omp
#include "ladder_tmpl.h"
