/*
 * gemm_d6_avx512.c - the AVX-512 float dot tiles 6 columns wide (4 x 6:
 * 24 accumulators, 4 vectors of A and 6 of Bt loaded a step), the entry
 * gk_gemm_d6_f32_avx512 that gk_gemm_d_f32_avx512 calls for nv == 6.
 *
 * The contract is gk_gemm_d_f32_fn's (kernel_api.h) for nv == 6 and off = 0
 * only (no off argument; other widths: nothing is done). The tile is gemm_d_tmpl.h's, with the float
 * parameters of gemm_d_avx512.c, which this file includes with
 * ENTRY6_ONLY defined. It is compiled apart from the other widths: in the
 * same function, or in a function of its own in the same file, it made
 * the 4-wide tiles 4-11% slower (Zen 5, SGEMM 128 x 4 x 128, call by call),
 * with no change to their code but its placement.
 */
#define ENTRY6_ONLY 1
#include "gemm_d_avx512.c"
