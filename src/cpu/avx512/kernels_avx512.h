/* kernels_avx512.h - prototypes of the AVX-512 kernels (types: kernel_api.h). */
#ifndef GK_KERNELS_AVX512_H
#define GK_KERNELS_AVX512_H
#include "kernel_api.h"

void gk_axpy_f32_avx512(int64_t n, float alpha, const float *restrict x, float *restrict y);
void gk_axpy_f64_avx512(int64_t n, double alpha, const double *restrict x, double *restrict y);
void gk_axpy4_f32_avx512(int64_t n, const float *restrict alpha, const float *restrict x,
                         int64_t ldx, float *restrict y);
void gk_axpy4_f64_avx512(int64_t n, const double *restrict alpha, const double *restrict x,
                         int64_t ldx, double *restrict y);
float gk_dot_f32_avx512(int64_t n, const float *restrict x, const float *restrict y);
double gk_dot_f64_avx512(int64_t n, const double *restrict x, const double *restrict y);

/* GEMM microkernels (gk_gemm_f32_fn, gk_gemm_f64_fn) and their tile shapes. */
#define GK_GEMM_F32_AVX512_MR 14
#define GK_GEMM_F32_AVX512_NR 32
void gk_gemm_f32_avx512_14x32(int64_t k, float alpha, const float *restrict a,
                              const float *restrict b, float beta, float *restrict c,
                              int64_t rs_c);
void gk_gemm_pf_f32_avx512_14x32(int64_t k, float alpha, const float *restrict a,
                                 const float *restrict b, float beta, float *restrict c,
                                 int64_t rs_c, const void *const *pf, int64_t npf,
                                 const void *run, int64_t nrun);
#define GK_GEMM_F64_AVX512_MR 8
#define GK_GEMM_F64_AVX512_NR 24
void gk_gemm_f64_avx512_8x24(int64_t k, double alpha, const double *restrict a,
                             const double *restrict b, double beta, double *restrict c,
                             int64_t rs_c);
void gk_gemm_pf_f64_avx512_8x24(int64_t k, double alpha, const double *restrict a,
                                const double *restrict b, double beta, double *restrict c,
                                int64_t rs_c, const void *const *pf, int64_t npf,
                                const void *run, int64_t nrun);
/* Unpacked GEMM microkernels (gk_gemm_u_f32_fn, gk_gemm_u_f64_fn): the
 * largest tile (MR x NR) and the vector width (VW) of the row rule. */
#define GK_GEMM_U_F32_AVX512_MR 6
#define GK_GEMM_U_F32_AVX512_NR 64
#define GK_GEMM_U_F32_AVX512_VW 16
void gk_gemm_u_f32_avx512_6x64(int64_t mv, int64_t nv, int64_t k, float alpha,
                               const float *restrict a, int64_t rs_a, int64_t cs_a,
                               const float *restrict b, int64_t rs_b, float beta,
                               float *restrict c, int64_t rs_c);
#define GK_GEMM_U_F64_AVX512_MR 6
#define GK_GEMM_U_F64_AVX512_NR 32
#define GK_GEMM_U_F64_AVX512_VW 8
void gk_gemm_u_f64_avx512_6x32(int64_t mv, int64_t nv, int64_t k, double alpha,
                               const double *restrict a, int64_t rs_a, int64_t cs_a,
                               const double *restrict b, int64_t rs_b, double beta,
                               double *restrict c, int64_t rs_c);
/* The same kernels with the tiles of at most half a vector of columns (and
 * 2 to 16 rows) computed as row pairs or quads by the kernels below: the
 * table's choice on AMD Zen 5 and later (table_avx512.c). */
void gk_gemm_u_f32_avx512_6x64p(int64_t mv, int64_t nv, int64_t k, float alpha,
                                const float *restrict a, int64_t rs_a, int64_t cs_a,
                                const float *restrict b, int64_t rs_b, float beta,
                                float *restrict c, int64_t rs_c);
void gk_gemm_u_f64_avx512_6x32p(int64_t mv, int64_t nv, int64_t k, double alpha,
                                const double *restrict a, int64_t rs_a, int64_t cs_a,
                                const double *restrict b, int64_t rs_b, double beta,
                                double *restrict c, int64_t rs_c);
/* ... and with only the tiles of at most a quarter of a vector (4 floats, 2
 * doubles; 4 to 16 rows) as row quads: the table's choice on Intel. */
void gk_gemm_u_f32_avx512_6x64q(int64_t mv, int64_t nv, int64_t k, float alpha,
                                const float *restrict a, int64_t rs_a, int64_t cs_a,
                                const float *restrict b, int64_t rs_b, float beta,
                                float *restrict c, int64_t rs_c);
void gk_gemm_u_f64_avx512_6x32q(int64_t mv, int64_t nv, int64_t k, double alpha,
                                const double *restrict a, int64_t rs_a, int64_t cs_a,
                                const double *restrict b, int64_t rs_b, double beta,
                                double *restrict c, int64_t rs_c);
/* Each of the six above as a column of tiles (gk_gemm_uc_f32_fn,
 * gk_gemm_uc_f64_fn). */
#define GK_UC_F32(name)                                                                         \
	void name(int64_t nblk, int64_t base, int64_t extra, int64_t nv, int64_t k, float alpha, \
	          const float *restrict a, int64_t rs_a, int64_t cs_a, const float *restrict b,   \
	          int64_t rs_b, float beta, float *restrict c, int64_t rs_c)
#define GK_UC_F64(name)                                                                          \
	void name(int64_t nblk, int64_t base, int64_t extra, int64_t nv, int64_t k, double alpha, \
	          const double *restrict a, int64_t rs_a, int64_t cs_a, const double *restrict b,  \
	          int64_t rs_b, double beta, double *restrict c, int64_t rs_c)
GK_UC_F32(gk_gemm_u_f32_avx512_6x64_col);
GK_UC_F32(gk_gemm_u_f32_avx512_6x64p_col);
GK_UC_F32(gk_gemm_u_f32_avx512_6x64q_col);
GK_UC_F64(gk_gemm_u_f64_avx512_6x32_col);
GK_UC_F64(gk_gemm_u_f64_avx512_6x32p_col);
GK_UC_F64(gk_gemm_u_f64_avx512_6x32q_col);
#undef GK_UC_F32
#undef GK_UC_F64
/* Edge tiles of the packed way (gk_gemm_e_f32_fn, gk_gemm_e_f64_fn). */
void gk_gemm_e_f32_avx512(int64_t mv, int64_t nv, int64_t k, float alpha, const float *restrict a,
                          int64_t cs_a, const float *restrict b, int64_t rs_b, float beta,
                          float *restrict c, int64_t rs_c);
void gk_gemm_e_f64_avx512(int64_t mv, int64_t nv, int64_t k, double alpha,
                          const double *restrict a, int64_t cs_a, const double *restrict b,
                          int64_t rs_b, double beta, double *restrict c, int64_t rs_c);
/* Dot tiles (gemm_d_avx512.c; gk_gemm_d_f32_fn, gk_pack_dt_f32_fn and the
 * f64 ones): tiles of up to 8 rows, calls of up to 6 float columns or 5
 * double ones. gk_gemm_d_f32_avx512 sends tiles 6 wide of off = 0 to
 * gk_gemm_d6_f32_avx512 (gemm_d6_avx512.c; nv = 6 only, no off), and tiles
 * of off > 0 to gk_gemm_d_off_*_avx512 (gemm_d_off_avx512.c; the contract
 * with off > 0 only). */
#define GK_GEMM_D_AVX512_MR 8
#define GK_GEMM_D_F32_AVX512_NR 6
#define GK_GEMM_D_F64_AVX512_NR 5
void gk_gemm_d_f32_avx512(int64_t mv, int64_t nv, int64_t k, float alpha,
                          const float *restrict a, int64_t rs_a, const float *restrict bt,
                          int64_t rs_bt, float beta, float *restrict c, int64_t rs_c, int pf,
                          int64_t off);
void gk_gemm_d6_f32_avx512(int64_t mv, int64_t nv, int64_t k, float alpha,
                           const float *restrict a, int64_t rs_a, const float *restrict bt,
                           int64_t rs_bt, float beta, float *restrict c, int64_t rs_c, int pf);
void gk_gemm_d_off_f32_avx512(int64_t mv, int64_t nv, int64_t k, float alpha,
                              const float *restrict a, int64_t rs_a, const float *restrict bt,
                              int64_t rs_bt, float beta, float *restrict c, int64_t rs_c,
                              int pf, int64_t off);
void gk_gemm_d_f64_avx512(int64_t mv, int64_t nv, int64_t k, double alpha,
                          const double *restrict a, int64_t rs_a, const double *restrict bt,
                          int64_t rs_bt, double beta, double *restrict c, int64_t rs_c, int pf,
                          int64_t off);
void gk_gemm_d_off_f64_avx512(int64_t mv, int64_t nv, int64_t k, double alpha,
                              const double *restrict a, int64_t rs_a, const double *restrict bt,
                              int64_t rs_bt, double beta, double *restrict c, int64_t rs_c,
                              int pf, int64_t off);
void gk_pack_dt_f32_avx512(int64_t k, int64_t n, const float *restrict b, int64_t rs_b,
                           float *restrict bt, int64_t kp);
void gk_pack_dt_f64_avx512(int64_t k, int64_t n, const double *restrict b, int64_t rs_b,
                           double *restrict bt, int64_t kp);
/* The depth from which the row pairs pay: below it, the one-row tiles
 * (16 x 8 x 16 and x 24 floats: 0.90x as pairs on a Zen 5 core; x 32 the
 * same, 1.15-1.37x from 64 on). */
#define GK_GEMM_U_PAIRS_MIN_K 32
/* Row pairs and quads (gemm_u_pairs_avx512.c; quads where nv is at most 4
 * floats or 2 doubles and mv at least 4): 2 <= mv <= 16, 1 <= nv <= 8
 * floats or 4 doubles, otherwise the contract of gk_gemm_u_f32_fn /
 * gk_gemm_u_f64_fn. */
void gk_gemm_u_pairs_f32_avx512(int64_t mv, int64_t nv, int64_t k, float alpha,
                                const float *restrict a, int64_t rs_a, int64_t cs_a,
                                const float *restrict b, int64_t rs_b, float beta,
                                float *restrict c, int64_t rs_c);
void gk_gemm_u_pairs_f64_avx512(int64_t mv, int64_t nv, int64_t k, double alpha,
                                const double *restrict a, int64_t rs_a, int64_t cs_a,
                                const double *restrict b, int64_t rs_b, double beta,
                                double *restrict c, int64_t rs_c);

/* Tile kernels of the seed ladder (gk_unroll_*_fn, gk_regtile_*_fn). */
void gk_unroll_f32_avx512_2x4(int64_t n, const float *restrict a, int64_t lda,
                              const float *restrict b, int64_t ldb, float *restrict c,
                              int64_t ldc);
void gk_unroll_f64_avx512_2x4(int64_t n, const double *restrict a, int64_t lda,
                              const double *restrict b, int64_t ldb, double *restrict c,
                              int64_t ldc);
void gk_regtile_f32_avx512_6x64(int64_t k, const float *restrict a, int64_t lda,
                                const float *restrict b, int64_t ldb, float *restrict c,
                                int64_t ldc);
void gk_regtile_f64_avx512_6x32(int64_t k, const double *restrict a, int64_t lda,
                                const double *restrict b, int64_t ldb, double *restrict c,
                                int64_t ldc);

/* GF(2^8) dot products of 1..6 rows (gk_gf256_dot_fn, 32-byte tables). */
void gk_gf256_dot1_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc);
void gk_gf256_dot2_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc);
void gk_gf256_dot3_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc);
void gk_gf256_dot4_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc);
void gk_gf256_dot5_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc);
void gk_gf256_dot6_avx512(int64_t len, int64_t k, const uint8_t *restrict coef,
                          const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                          int64_t off, int acc);

#endif
