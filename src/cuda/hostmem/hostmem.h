/*
 * hostmem.h - the out-of-core driver of host-pointer GEMM on the GPU
 * (src/cuda/hostmem/): A, B and C in host memory, of any size host memory
 * holds, streamed through device slots under a device-memory budget
 * (hm_plan.h: the tiles and their order; hm_driver.cu: the streams;
 * hm_host.cu: host memory, staging and copies; hm_copy.c: pageable
 * staging on CPU threads). docs/CUDA_HOSTMEM.md.
 */
#ifndef GK_HOSTMEM_H
#define GK_HOSTMEM_H

#include <stddef.h>
#include <stdint.h>
#include "../cuda_gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The canonical problem of cuda_gemm.h with host pointers, computed by the
 * launcher fn on device tiles; synchronous. budget: device bytes the call
 * may take (0: the device's free memory less a margin). m, n, k >= 1 and
 * alpha != 0 (the API edge does the trivial cases). */
gk_status gk_hm_sgemm(gk_cuda_sgemm_fn fn, int device, void *stream, size_t budget, int64_t m,
                      int64_t n, int64_t k, float alpha, const float *a, int64_t rs_a, int64_t cs_a,
                      const float *b, int64_t rs_b, int64_t cs_b, float beta, float *c, int64_t rs_c);
gk_status gk_hm_dgemm(gk_cuda_dgemm_fn fn, int device, void *stream, size_t budget, int64_t m,
                      int64_t n, int64_t k, double alpha, const double *a, int64_t rs_a,
                      int64_t cs_a, const double *b, int64_t rs_b, int64_t cs_b, double beta,
                      double *c, int64_t rs_c);

/* lines x line_bytes from src (lines src_pitch apart) to dst (dst_pitch
 * apart), on up to `threads` CPU threads (hm_copy.c). */
void gk_hm_copy_lines(char *dst, size_t dst_pitch, const char *src, size_t src_pitch, int64_t lines,
                      size_t line_bytes, int threads);

/* Test hook: in each following call, the n-th checkpoint (every CUDA call
 * whose failure is an error path: the acquisition of a stream, event,
 * device buffer, pinned buffer or host registration, an event record or
 * wait, a copy, a synchronisation, the launcher call) fails as if the
 * runtime had answered an error (out of memory for acquisitions); 0 turns
 * it off. The environment variable GK_HOSTMEM_FAIL_AT=n does the same. */
void gk_hm_set_fail_at(int n);

/* Test hooks: the checkpoints the last call on this thread passed, and
 * the resources (streams, events, device buffers, pinned buffers, host
 * registrations) the driver holds now in this process, the kept staging
 * ring included. */
int gk_hm_last_checkpoints(void);
long gk_hm_live_resources(void);

/* Free the pinned staging buffers kept between calls (every device). */
void gk_hm_release_staging(void);

#ifdef __cplusplus
}
#endif

#endif
