/*
 * gemm_d_off_avx512.c - the AVX-512 dot tiles of off > 0: A's and Bt's rows
 * read in aligned vectors from off elements before them, their lanes put
 * back in order before the sums (gemm_d_tmpl.h, shifted), so that an
 * element's bits are those of off = 0. Entries gk_gemm_d_off_f32_avx512 (up
 * to 6 columns) and gk_gemm_d_off_f64_avx512 (up to 5), which
 * gk_gemm_d_*_avx512 call for off > 0.
 *
 * The contract is gk_gemm_d_*_fn's (kernel_api.h) with 0 < off < the
 * vector's lanes (16 floats, 8 doubles), every row of A and of Bt starting
 * off elements past a 64-byte boundary. The tiles are gemm_d_tmpl.h's with
 * the parameters of gemm_d_avx512.c, which this file includes with
 * OFF_ONLY defined: apart from the tiles of off = 0, whose code their
 * presence in the same file changed (gemm_d_tmpl.h).
 */
#define OFF_ONLY 1
#include "gemm_d_avx512.c"
