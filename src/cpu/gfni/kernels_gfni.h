/* kernels_gfni.h - prototypes of the GFNI kernels (types: kernel_api.h). */
#ifndef GK_KERNELS_GFNI_H
#define GK_KERNELS_GFNI_H
#include "kernel_api.h"

void gk_gf256_dot1_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot2_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot3_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot4_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot5_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);
void gk_gf256_dot6_gfni(int64_t len, int64_t k, const uint8_t *restrict coef,
                        const uint8_t *const *restrict src, uint8_t *const *restrict dst,
                        int64_t off, int acc);

#endif
