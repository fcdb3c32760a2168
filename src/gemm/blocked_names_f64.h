/* blocked_names_f64.h - the DGEMM instance of the blocked driver's template names
 * (blocked_tmpl.h, blocked_direct_tmpl.h): the type, the kernel table's slots,
 * GK_FN(x) for each function's suffix. blocked_names_undef.h takes them back. */
#define GK_T double
#define GK_ARGS gk_dgemm_args
#define GK_UKR gemm_f64
#define GK_UKR_PF gemm_pf_f64
#define GK_UKR_U gemm_u_f64
#define GK_UKR_UC gemm_uc_f64
#define GK_UKR_E gemm_e_f64
#define GK_EMR gemm_e_f64_mr
#define GK_UMR gemm_u_f64_mr
#define GK_UNR gemm_u_f64_nr
#define GK_UVW gemm_u_f64_vw
#define GK_UCUBE gemm_u_f64_cube
#define GK_UTHIN gemm_u_f64_thin
#define GK_AXPY axpy_f64
#define GK_AXPY4 axpy4_f64
#define GK_DOT dot_f64
#define GK_DKR gemm_d_f64
#define GK_DKR_FN gk_gemm_d_f64_fn
#define GK_DPACK pack_dt_f64
#define GK_DMR gemm_d_f64_mr
#define GK_DNR gemm_d_f64_nr
#define GK_DMINK gemm_d_f64_min_k
#define GK_MR gemm_f64_mr
#define GK_NR gemm_f64_nr
#define GK_FN(name) name##_f64
#define GK_FN_PACK gk_pack_f64
#define GK_FN_BLOCKED gk_dgemm_blocked
#define GK_FN_BLOCKED_CHOOSE gk_dgemm_blocked_choose
