/* strassen_abc_f64.c - "cpu.strassen" in double precision (strassen_abc_tmpl.h). */
#include <omp.h>
#include "blocked.h"
#include "strassen_abc.h"

#define GK_T double
#define GK_DTYPE GK_DTYPE_F64
#define GK_ARGS gk_dgemm_args
#define GK_UKR gemm_f64
#define GK_MR gemm_f64_mr
#define GK_NR gemm_f64_nr
#define GK_SPLAN splan_f64
#define GK_SPROD sprod_f64
#define GK_FN_SPACK_COLS spack_cols_f64
#define GK_FN_SPACK_ROWS spack_rows_f64
#define GK_FN_SPACK spack_f64
#define GK_FN_SMERGE smerge_f64
#define GK_FN_STILE stile_f64
#define GK_FN_SRESOLVE sresolve_f64
#define GK_FN_STHREAD sthread_f64
#define GK_FN_SGRID sgrid_f64
#define GK_FN_SRUN srun_f64
#define GK_FN_BLOCKED gk_dgemm_blocked
#define GK_FN_STRASSEN gk_dgemm_strassen_abc
#include "strassen_abc_tmpl.h"
