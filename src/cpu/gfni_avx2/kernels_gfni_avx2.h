/* kernels_gfni_avx2.h - prototypes of the GFNI kernels on 256-bit vectors
 * (AVX2 + GFNI, no AVX-512; types: kernel_api.h). */
#ifndef GK_KERNELS_GFNI_AVX2_H
#define GK_KERNELS_GFNI_AVX2_H
#include "kernel_api.h"

void gk_gf256_dot1_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc);
void gk_gf256_dot2_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc);
void gk_gf256_dot3_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc);
void gk_gf256_dot4_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc);
void gk_gf256_dot5_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc);
void gk_gf256_dot6_gfni_avx2(int64_t len, int64_t k, const uint8_t *restrict coef,
                             const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                             int64_t off, int acc);

#endif
