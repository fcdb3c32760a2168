/*
 * hxv_model.h - the launch-configuration time-cost model of PHVM (seed 003,
 * equations 1-11) and gemmkit's extension of it, in plain C: no GPU is
 * needed to evaluate either. The public face is gk_hxv_model_table()
 * (gemmkit.h); the PHVM launcher asks gk_hxv_model_choose() for its default.
 */
#ifndef GK_HXV_MODEL_H
#define GK_HXV_MODEL_H

#include <stdint.h>
#include "gemmkit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Two readings of equation (10) (docs/CUDA_HXV.md, "The model"):
 *  TEXT    the seed's prose and Figure 8: the stores of a round are hidden
 *          under the next round's computation, only the last round's
 *          CoreS/BS stores are exposed; log is the natural logarithm. It
 *          reproduces the seed's chosen GS(136)/BS(512) and GS(864)/BS(256).
 *  PRINTED equation (10) as printed: (CoreS/BS) GS t_post_store. It picks
 *          BS = 1024 on both of the seed's devices. */
enum { GK_HXV_READ_TEXT = 0, GK_HXV_READ_PRINTED = 1 };

/* FP32 cores per SM by compute capability (0 when unknown). */
int gk_hxv_cores_per_sm(int major, int minor);

/* Whether (gs, bs) meets constraints (2)-(4) and the device's limits. */
int gk_hxv_admissible(const gk_hxv_device *d, int gs, int bs);

/* The seed model's predicted time in cycles, M N t_single_elem (1), with
 * t_single_elem from (9) or (10) and t_prep_comp from (11); *paper_case
 * (may be NULL) says which of (9), (10) applied. */
double gk_hxv_model_paper(const gk_hxv_device *d, int reading, int64_t m, int64_t n, int64_t k,
                          int gs, int bs, int *paper_case);

/* The extension (docs/CUDA_HXV.md): the bytes of E and F over the measured
 * bandwidth or the load latency over the loads a thread keeps in flight,
 * whichever is longer, counted in waves of resident blocks; plus the block
 * reduction per wave and the GS atomic adds that meet at each output. */
double gk_hxv_model_ext(const gk_hxv_device *d, int64_t m, int64_t n, int64_t k, int esize,
                        int gs, int bs);

/* As gk_hxv_model_table with a chosen reading of equation (10). */
int gk_hxv_model_table_ex(const gk_hxv_device *d, int reading, int64_t m, int64_t n, int64_t k,
                          int esize, gk_hxv_config *out, int cap, int *best_paper, int *best_ext);

/* The admissible configuration the seed model predicts fastest (TEXT
 * reading); 0 with *gs, *bs set, or -1 when none is admissible. */
int gk_hxv_model_choose(const gk_hxv_device *d, int64_t m, int64_t n, int64_t k, int *gs, int *bs);

/* The seed's own devices, Tables 3 and 4 (latencies in cycles). */
void gk_hxv_device_rtx2080ti(gk_hxv_device *d);
void gk_hxv_device_a100(gk_hxv_device *d);

/* Spearman's rank correlation of x and y (n values; ties get mean ranks). */
double gk_hxv_rank_correlation(const double *x, const double *y, int n);

#ifdef __cplusplus
}
#endif

#endif
