/* kernels_avx2.h - prototypes of the AVX2+FMA kernels (types: kernel_api.h). */
#ifndef GK_KERNELS_AVX2_H
#define GK_KERNELS_AVX2_H
#include "kernel_api.h"

void gk_axpy_f32_avx2(int64_t n, float alpha, const float *restrict x, float *restrict y);
void gk_axpy_f64_avx2(int64_t n, double alpha, const double *restrict x, double *restrict y);
void gk_axpy4_f32_avx2(int64_t n, const float *restrict alpha, const float *restrict x,
                       int64_t ldx, float *restrict y);
void gk_axpy4_f64_avx2(int64_t n, const double *restrict alpha, const double *restrict x,
                       int64_t ldx, double *restrict y);
float gk_dot_f32_avx2(int64_t n, const float *restrict x, const float *restrict y);
double gk_dot_f64_avx2(int64_t n, const double *restrict x, const double *restrict y);

/* GEMM microkernels (gk_gemm_f32_fn, gk_gemm_f64_fn) and their tile shapes. */
#define GK_GEMM_F32_AVX2_MR 6
#define GK_GEMM_F32_AVX2_NR 16
void gk_gemm_f32_avx2_6x16(int64_t k, float alpha, const float *restrict a,
                           const float *restrict b, float beta, float *restrict c,
                           int64_t rs_c);
void gk_gemm_pf_f32_avx2_6x16(int64_t k, float alpha, const float *restrict a,
                              const float *restrict b, float beta, float *restrict c,
                              int64_t rs_c, const void *const *pf, int64_t npf,
                              const void *run, int64_t nrun);
/* Two DGEMM tiles: 4 x 12 where the driver walks C down its columns (the
 * A sliver streaming from L2), 6 x 8 where it walks C along its rows for
 * any panel (a small L2: the B panel streaming from L3); table_avx2.c. */
#define GK_GEMM_F64_AVX2_6X8_MR 6
#define GK_GEMM_F64_AVX2_6X8_NR 8
void gk_gemm_f64_avx2_6x8(int64_t k, double alpha, const double *restrict a,
                          const double *restrict b, double beta, double *restrict c,
                          int64_t rs_c);
void gk_gemm_pf_f64_avx2_6x8(int64_t k, double alpha, const double *restrict a,
                             const double *restrict b, double beta, double *restrict c,
                             int64_t rs_c, const void *const *pf, int64_t npf,
                             const void *run, int64_t nrun);
#define GK_GEMM_F64_AVX2_4X12_MR 4
#define GK_GEMM_F64_AVX2_4X12_NR 12
void gk_gemm_f64_avx2_4x12(int64_t k, double alpha, const double *restrict a,
                           const double *restrict b, double beta, double *restrict c,
                           int64_t rs_c);
void gk_gemm_pf_f64_avx2_4x12(int64_t k, double alpha, const double *restrict a,
                              const double *restrict b, double beta, double *restrict c,
                              int64_t rs_c, const void *const *pf, int64_t npf,
                              const void *run, int64_t nrun);

/* Unpacked GEMM microkernels (gk_gemm_u_f32_fn, gk_gemm_u_f64_fn): tiles up
 * to these shapes (the packed 6 x 16 and 6 x 8 ones), VW the vector width
 * of the row rule. */
#define GK_GEMM_U_F32_AVX2_MR GK_GEMM_F32_AVX2_MR
#define GK_GEMM_U_F32_AVX2_NR GK_GEMM_F32_AVX2_NR
#define GK_GEMM_U_F32_AVX2_VW 8
#define GK_GEMM_U_F64_AVX2_MR GK_GEMM_F64_AVX2_6X8_MR
#define GK_GEMM_U_F64_AVX2_NR GK_GEMM_F64_AVX2_6X8_NR
#define GK_GEMM_U_F64_AVX2_VW 4
void gk_gemm_u_f32_avx2_6x16(int64_t mv, int64_t nv, int64_t k, float alpha,
                             const float *restrict a, int64_t rs_a, int64_t cs_a,
                             const float *restrict b, int64_t rs_b, float beta,
                             float *restrict c, int64_t rs_c);
void gk_gemm_u_f64_avx2_6x8(int64_t mv, int64_t nv, int64_t k, double alpha,
                            const double *restrict a, int64_t rs_a, int64_t cs_a,
                            const double *restrict b, int64_t rs_b, double beta,
                            double *restrict c, int64_t rs_c);

/* Tile kernels of the seed ladder (gk_unroll_*_fn, gk_regtile_*_fn). */
void gk_unroll_f32_avx2_2x4(int64_t n, const float *restrict a, int64_t lda,
                            const float *restrict b, int64_t ldb, float *restrict c,
                            int64_t ldc);
void gk_unroll_f64_avx2_2x4(int64_t n, const double *restrict a, int64_t lda,
                            const double *restrict b, int64_t ldb, double *restrict c,
                            int64_t ldc);
void gk_regtile_f32_avx2_3x32(int64_t k, const float *restrict a, int64_t lda,
                              const float *restrict b, int64_t ldb, float *restrict c,
                              int64_t ldc);
void gk_regtile_f64_avx2_3x16(int64_t k, const double *restrict a, int64_t lda,
                              const double *restrict b, int64_t ldb, double *restrict c,
                              int64_t ldc);

/* GF(2^8) dot products of 1..6 rows (gk_gf256_dot_fn, 32-byte tables). */
void gk_gf256_dot1_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot2_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot3_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot4_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot5_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot6_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);

/* Dot tiles (gemm_d_avx2.c; gk_gemm_d_f32_fn, gk_pack_dt_f32_fn and the f64
 * ones): tiles of up to 8 rows, calls of up to 5 columns; the tiles of
 * off > 0 in gemm_d_off_avx2.c (gk_gemm_d_off_*_avx2, the same contract
 * with off > 0 only). */
#define GK_GEMM_D_AVX2_MR 8
#define GK_GEMM_D_AVX2_NR 5
void gk_gemm_d_f32_avx2(int64_t mv, int64_t nv, int64_t k, float alpha, const float *restrict a,
                        int64_t rs_a, const float *restrict bt, int64_t rs_bt, float beta,
                        float *restrict c, int64_t rs_c, int pf, int64_t off);
void gk_gemm_d_f64_avx2(int64_t mv, int64_t nv, int64_t k, double alpha,
                        const double *restrict a, int64_t rs_a, const double *restrict bt,
                        int64_t rs_bt, double beta, double *restrict c, int64_t rs_c, int pf,
                        int64_t off);
void gk_gemm_d_off_f32_avx2(int64_t mv, int64_t nv, int64_t k, float alpha,
                            const float *restrict a, int64_t rs_a, const float *restrict bt,
                            int64_t rs_bt, float beta, float *restrict c, int64_t rs_c, int pf,
                            int64_t off);
void gk_gemm_d_off_f64_avx2(int64_t mv, int64_t nv, int64_t k, double alpha,
                            const double *restrict a, int64_t rs_a, const double *restrict bt,
                            int64_t rs_bt, double beta, double *restrict c, int64_t rs_c, int pf,
                            int64_t off);
void gk_pack_dt_f32_avx2(int64_t k, int64_t n, const float *restrict b, int64_t rs_b,
                         float *restrict bt, int64_t kp);
void gk_pack_dt_f64_avx2(int64_t k, int64_t n, const double *restrict b, int64_t rs_b,
                         double *restrict bt, int64_t kp);

/* Packing by rows into slivers, transposed in registers (pack_t_avx2.c;
 * gk_pack_t_*_fn). */
void gk_pack_t_f32_avx2(int64_t rows, int64_t kc, const float *x, int64_t rs, int64_t r,
                        float *dst, int64_t ps);
void gk_pack_t_f64_avx2(int64_t rows, int64_t kc, const double *x, int64_t rs, int64_t r,
                        double *dst, int64_t ps);

#endif
