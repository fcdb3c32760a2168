/* blocked_f32.c - the blocked SGEMM driver, "cpu.blocked" (blocked_tmpl.h). */
#include "blocked.h"

#define GK_T float
#define GK_ARGS gk_sgemm_args
#define GK_UKR gemm_f32
#define GK_UKR_PF gemm_pf_f32
#define GK_UKR_U gemm_u_f32
#define GK_UKR_U_FN gk_gemm_u_f32_fn
#define GK_UMR gemm_u_f32_mr
#define GK_UNR gemm_u_f32_nr
#define GK_UVW gemm_u_f32_vw
#define GK_AXPY axpy_f32
#define GK_DOT dot_f32
#define GK_MR gemm_f32_mr
#define GK_NR gemm_f32_nr
#define GK_FN(name) name##_f32
#define GK_FN_PACK gk_pack_f32
#define GK_FN_BLOCKED gk_sgemm_blocked
#include "blocked_tmpl.h"
