/*
 * sgemm_pack.cuh - the operand copy of the tuned SGEMM (sgemm_pack.cu):
 * an operand that the kernel cannot load with 16-byte copies (K-contiguous,
 * or an unaligned pointer or leading dimension) is copied once into a
 * stream-ordered workspace in the layout the kernel's 16-byte path reads.
 */
#ifndef GK_SGEMM_PACK_CUH
#define GK_SGEMM_PACK_CUH

#include "../core/cuda_check.cuh"

/* dst[r * ld + c] = src[r * sr + c * sc] for r < rows, c < cols; one of
 * sr, sc is 1. Asynchronous on `stream`; launch errors checked. */
gk_status gk_sgemm_pack(float *dst, int64_t ld, int64_t rows, int64_t cols, const float *src, int64_t sr,
                        int64_t sc, cudaStream_t stream);

#endif
