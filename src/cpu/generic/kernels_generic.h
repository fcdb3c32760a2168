/* kernels_generic.h - prototypes of the generic kernels (types: kernel_api.h). */
#ifndef GK_KERNELS_GENERIC_H
#define GK_KERNELS_GENERIC_H
#include "kernel_api.h"

void gk_axpy_f32_generic(int64_t n, float alpha, const float *restrict x, float *restrict y);
void gk_axpy_f64_generic(int64_t n, double alpha, const double *restrict x, double *restrict y);
void gk_axpy4_f32_generic(int64_t n, const float *restrict alpha, const float *restrict x,
                          int64_t ldx, float *restrict y);
void gk_axpy4_f64_generic(int64_t n, const double *restrict alpha, const double *restrict x,
                          int64_t ldx, double *restrict y);
float gk_dot_f32_generic(int64_t n, const float *restrict x, const float *restrict y);
double gk_dot_f64_generic(int64_t n, const double *restrict x, const double *restrict y);

/* GEMM microkernels (gk_gemm_f32_fn, gk_gemm_f64_fn) and their tile shapes. */
#define GK_GEMM_F32_GENERIC_MR 4
#define GK_GEMM_F32_GENERIC_NR 8
void gk_gemm_f32_generic_4x8(int64_t k, float alpha, const float *restrict a,
                             const float *restrict b, float beta, float *restrict c,
                             int64_t rs_c);
#define GK_GEMM_F64_GENERIC_MR 4
#define GK_GEMM_F64_GENERIC_NR 4
void gk_gemm_f64_generic_4x4(int64_t k, double alpha, const double *restrict a,
                             const double *restrict b, double beta, double *restrict c,
                             int64_t rs_c);

/* Unpacked GEMM microkernels (gk_gemm_u_f32_fn, gk_gemm_u_f64_fn): tiles up
 * to the shapes above; VW = NR: the row limit is MR for any nv. */
#define GK_GEMM_U_F32_GENERIC_MR GK_GEMM_F32_GENERIC_MR
#define GK_GEMM_U_F32_GENERIC_NR GK_GEMM_F32_GENERIC_NR
#define GK_GEMM_U_F32_GENERIC_VW GK_GEMM_F32_GENERIC_NR
#define GK_GEMM_U_F64_GENERIC_MR GK_GEMM_F64_GENERIC_MR
#define GK_GEMM_U_F64_GENERIC_NR GK_GEMM_F64_GENERIC_NR
#define GK_GEMM_U_F64_GENERIC_VW GK_GEMM_F64_GENERIC_NR
void gk_gemm_u_f32_generic_4x8(int64_t mv, int64_t nv, int64_t k, float alpha,
                               const float *restrict a, int64_t rs_a, int64_t cs_a,
                               const float *restrict b, int64_t rs_b, float beta,
                               float *restrict c, int64_t rs_c);
void gk_gemm_u_f64_generic_4x4(int64_t mv, int64_t nv, int64_t k, double alpha,
                               const double *restrict a, int64_t rs_a, int64_t cs_a,
                               const double *restrict b, int64_t rs_b, double beta,
                               double *restrict c, int64_t rs_c);

/* Tile kernels of the seed ladder (gk_unroll_*_fn, gk_regtile_*_fn). */
void gk_unroll_f32_generic_2x4(int64_t n, const float *restrict a, int64_t lda,
                               const float *restrict b, int64_t ldb, float *restrict c,
                               int64_t ldc);
void gk_unroll_f64_generic_2x4(int64_t n, const double *restrict a, int64_t lda,
                               const double *restrict b, int64_t ldb, double *restrict c,
                               int64_t ldc);
void gk_regtile_f32_generic_3x32(int64_t k, const float *restrict a, int64_t lda,
                                 const float *restrict b, int64_t ldb, float *restrict c,
                                 int64_t ldc);
void gk_regtile_f64_generic_3x16(int64_t k, const double *restrict a, int64_t lda,
                                 const double *restrict b, int64_t ldb, double *restrict c,
                                 int64_t ldc);
void gk_regtile_f32_generic_6x64(int64_t k, const float *restrict a, int64_t lda,
                                 const float *restrict b, int64_t ldb, float *restrict c,
                                 int64_t ldc);
void gk_regtile_f64_generic_6x32(int64_t k, const double *restrict a, int64_t lda,
                                 const double *restrict b, int64_t ldb, double *restrict c,
                                 int64_t ldc);

/* GF(2^8) dot products of 1..6 rows (gk_gf256_dot_fn, 32-byte tables). */
void gk_gf256_dot1_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc);
void gk_gf256_dot2_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc);
void gk_gf256_dot3_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc);
void gk_gf256_dot4_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc);
void gk_gf256_dot5_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc);
void gk_gf256_dot6_generic(int64_t len, int64_t k, const uint8_t *restrict coef,
                           const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                           int64_t off, int acc);

#endif
