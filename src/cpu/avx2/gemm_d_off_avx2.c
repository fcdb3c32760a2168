/*
 * gemm_d_off_avx2.c - the AVX2 dot tiles of off > 0: A's and Bt's rows read
 * in aligned vectors from off elements before them, their lanes put back
 * in order before the sums (gemm_d_tmpl.h, shifted), so that an element's
 * bits are those of off = 0. Entries gk_gemm_d_off_f32_avx2 and
 * gk_gemm_d_off_f64_avx2 (up to 5 columns), which gk_gemm_d_*_avx2 call for
 * off > 0.
 *
 * The contract is gk_gemm_d_*_fn's (kernel_api.h) with 0 < off < the
 * vector's lanes (8 floats, 4 doubles), every row of A and of Bt starting
 * off elements past a 32-byte boundary. The tiles are gemm_d_tmpl.h's with
 * the parameters of gemm_d_avx2.c, which this file includes with OFF_ONLY
 * defined: apart from the tiles of off = 0 (gemm_d_tmpl.h).
 */
#define OFF_ONLY 1
#include "gemm_d_avx2.c"
