/*
 * hostmem.h - the out-of-core driver of host-pointer GEMM on the GPU
 * (src/cuda/hostmem/): A, B and C in host memory, of any size host memory
 * holds, streamed through device slots under a device-memory budget
 * (hm_plan.h: the tiles and their order; hm_driver.cu: the streams;
 * hm_host.cu: host memory, staging and copies; hm_copy.c: pageable
 * staging on CPU threads; hm_multi.cu: several devices).
 * docs/CUDA_HOSTMEM.md, docs/CUDA_MULTI.md.
 */
#ifndef GK_HOSTMEM_H
#define GK_HOSTMEM_H

#include <stddef.h>
#include <stdint.h>
#include "../cuda_gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One device's call: the device (-1: the current one), the stream queued
 * work is ordered after and the products run on (NULL: streams of its
 * own), the device bytes it may take (0: the device's free memory less a
 * margin), the CPU threads of pageable staging (0: the default count). */
typedef struct gk_hm_session gk_hm_session;

typedef struct gk_hm_opts {
	int device;
	void *stream;
	size_t budget;
	int threads;
	gk_hm_session *session; /* NULL: the call's own streams and slots, synchronized at its end */
} gk_hm_opts;

/* A worker's run of calls on one device (hm_driver.cu): streams and two
 * halves of device slots kept from call to call, so that a call returns
 * once its work is queued and the next call's loads (into the other half)
 * overlap its product; each call is planned with half of o->budget, and
 * the budget is not lowered to the device's free memory (the caller sized
 * it). A call whose operands are staged or registered still waits for its
 * work. gk_hm_session_wait returns once the half the next call would take
 * is free (its last call's results are back): with it, no more than two
 * calls are in flight. gk_hm_session_close waits for everything and gives
 * it all back; its status is that of the queued work. */
gk_status gk_hm_session_open(const char *fn, int device, gk_hm_session **out);
gk_status gk_hm_session_wait(const char *fn, gk_hm_session *s);
gk_status gk_hm_session_close(const char *fn, gk_hm_session *s);

/* The canonical problem of cuda_gemm.h with host pointers, computed by the
 * launcher fn on device tiles; synchronous. m, n, k >= 1 and alpha != 0
 * (the API edge does the trivial cases). */
gk_status gk_hm_sgemm(gk_cuda_sgemm_fn fn, const gk_hm_opts *o, int64_t m, int64_t n, int64_t k,
                      float alpha, const float *a, int64_t rs_a, int64_t cs_a, const float *b,
                      int64_t rs_b, int64_t cs_b, float beta, float *c, int64_t rs_c);
gk_status gk_hm_dgemm(gk_cuda_dgemm_fn fn, const gk_hm_opts *o, int64_t m, int64_t n, int64_t k,
                      double alpha, const double *a, int64_t rs_a, int64_t cs_a, const double *b,
                      int64_t rs_b, int64_t cs_b, double beta, double *c, int64_t rs_c);

/* Several workers (hm_multi.cu, docs/CUDA_MULTI.md): C cut into units
 * (gk_hm_unit_grid), dealt out one at a time to workers, one per entry of
 * devices (a device listed twice: two workers on it), each unit a call of
 * gk_hm_sgemm on that worker's device with its own streams. budget: per
 * worker (0: the device's free memory less a margin, shared among the
 * workers on it); deterministic: every unit planned with the same budget
 * (budget, or GK_HM_DET_BUDGET), so that the result does not depend on
 * the list or on the schedule. Devices must be present (the caller checks). */
typedef struct gk_hm_multi {
	int ndev;
	const int *devices;
	size_t budget;
	int threads;
	int deterministic;
} gk_hm_multi;

#define GK_HM_DET_BUDGET ((size_t)24 << 30)

gk_status gk_hm_multi_sgemm(gk_cuda_sgemm_fn fn, const gk_hm_multi *o, int64_t m, int64_t n,
                            int64_t k, float alpha, const float *a, int64_t rs_a, int64_t cs_a,
                            const float *b, int64_t rs_b, int64_t cs_b, float beta, float *c,
                            int64_t rs_c);
gk_status gk_hm_multi_dgemm(gk_cuda_dgemm_fn fn, const gk_hm_multi *o, int64_t m, int64_t n,
                            int64_t k, double alpha, const double *a, int64_t rs_a, int64_t cs_a,
                            const double *b, int64_t rs_b, int64_t cs_b, double beta, double *c,
                            int64_t rs_c);

/* Test hook: the edge of the units of the following multi-worker calls
 * (rows and columns of C; 0: gk_hm_unit_grid's choice). The environment
 * variable GK_HOSTMEM_UNIT does the same. */
void gk_hm_set_unit(int64_t edge);

/* Test hook: the units each worker of the last multi-worker call on this
 * thread computed (up to cap entries); returns the number of workers. */
int gk_hm_last_units(int64_t *out, int cap);

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
