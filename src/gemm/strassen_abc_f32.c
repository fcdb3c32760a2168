/* strassen_abc_f32.c - "cpu.strassen" in single precision (strassen_abc_tmpl.h). */
#include <omp.h>
#include "blocked.h"
#include "strassen_abc.h"

#define GK_T float
#define GK_DTYPE GK_DTYPE_F32
#define GK_ARGS gk_sgemm_args
#define GK_UKR gemm_f32
#define GK_MR gemm_f32_mr
#define GK_NR gemm_f32_nr
#define GK_SPLAN splan_f32
#define GK_SPROD sprod_f32
#define GK_FN_SPACK_COLS spack_cols_f32
#define GK_FN_SPACK_ROWS spack_rows_f32
#define GK_FN_SPACK spack_f32
#define GK_FN_SMERGE smerge_f32
#define GK_FN_STILE stile_f32
#define GK_FN_SRESOLVE sresolve_f32
#define GK_FN_STHREAD sthread_f32
#define GK_FN_SGRID sgrid_f32
#define GK_FN_SRUN srun_f32
#define GK_FN_BLOCKED gk_sgemm_blocked
#define GK_FN_STRASSEN gk_sgemm_strassen_abc
#include "strassen_abc_tmpl.h"
