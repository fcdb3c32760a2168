/*
 * hm_plan.h - the tile planner of the out-of-core driver (hm_plan.c, plain
 * C, built with and without CUDA so that it is tested without a GPU).
 *
 * The canonical problem C = alpha A B + beta C (A m x k, B k x n, C m x n)
 * is cut into tiles: C into mt x nt tiles, the depth k into kt chunks. One
 * step of the plan is one launcher call on device buffers ("slots"): the
 * A piece (row block i, depth chunk kk), the B piece (depth chunk kk,
 * column block j) and the C tile (i, j). The plan lists the steps in order,
 * which slot each piece lives in and whether the step must load it first.
 *
 * Order: one operand is "outer" (A: a row panel of A stays in its slot
 * while the sweep crosses every column block of B; or B, the transpose of
 * that), the sweep goes back and forth (serpentine), so that the inner
 * operand's pieces left in their slots at the end of a sweep are the first
 * ones the next sweep needs. The depth chunks of one C tile are consecutive
 * steps (C stays on the device until its last chunk). Slots are given back
 * by Belady's rule (the piece needed furthest in the future leaves), never
 * the slot the previous step computes with, so that the loads of step t + 1
 * overlap the product of step t. C tiles alternate between two slots.
 *
 * The planner chooses tile sizes, order and slot counts under a device
 * memory budget by a cost model: the larger of the host-to-device time, the
 * device-to-host time and the product's time at a tile-size-dependent rate,
 * plus what cannot overlap (the first loads, the last drain).
 */
#ifndef GK_HM_PLAN_H
#define GK_HM_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "gemmkit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gk_hm_step {
	int32_t i, j, kk;       /* C tile (row block i, column block j), depth chunk kk */
	int16_t a_slot, b_slot, c_slot;
	uint8_t a_load, b_load; /* load the piece into its slot before this step */
	uint8_t c_first, c_last; /* first / last depth chunk of this C tile */
} gk_hm_step;

typedef struct gk_hm_params {
	int64_t m, n, k;
	size_t esize;         /* 4 or 8 */
	int beta_nonzero;     /* C is read: its tiles are loaded too */
	size_t budget;        /* device bytes the plan may take, workspace reserve included */
	double ws_factor;     /* launcher workspace: ws_factor x (A piece + B piece + C tile) */
	size_t ws_fixed;      /* ... plus this many bytes; both a reserve kept inside the budget
	                       * where tiles fit beside it, dropped where none do */
	double link_bps;      /* bytes/s each way over the host link (0: 50e9) */
	double flops;         /* device FLOP/s on large tiles (0: 40e12) */
	double side_half;     /* the tile side at which the launcher runs at half its rate along
	                       * that side (0: 128); its rate on an mt x nt x kt tile is
	                       * flops x s(mt) s(nt) s'(kt), s(x) = x / (x + side_half) */
	int64_t min_tile;     /* 0: a granule chosen from the sizes */
	int force_outer;      /* 0: planner's choice, 1: A outer, 2: B outer (tests) */
	int first_hidden;     /* 1: the first step's loads overlap earlier work (a worker's
	                       * session queues them during its previous call): not charged */
	int a_col_lines, b_col_lines; /* 1: the operand's columns are contiguous (its
	                               * pieces go as column lines), 0: its rows */
} gk_hm_params;

typedef struct gk_hm_plan {
	int64_t m, n, k;
	size_t esize;
	int64_t mt, nt, kt;   /* tile sizes (the last of each is ragged) */
	int64_t mb, nb, kb;   /* number of blocks along m, n, k */
	int b_outer;          /* 0: A's row panels outer, 1: B's column panels outer */
	int na, nbs, nc;      /* slots of A pieces, B pieces, C tiles */
	size_t slot_a, slot_b, slot_c; /* bytes of one slot */
	size_t workspace;     /* bytes kept for the launcher (0 when the reserve was dropped) */
	int ws_reserved;      /* 1: the launcher's workspace is reserved within the budget; 0: no
	                       * tiles fit beside it, the slots take the budget and the launcher
	                       * takes its workspace from the device's free memory, best effort */
	size_t device_bytes;  /* slots + workspace: at most the budget */
	int64_t nsteps;
	gk_hm_step *steps;    /* malloc'd; gk_hm_plan_free */
	int64_t loads_a, loads_b; /* pieces loaded */
	double h2d_bytes, d2h_bytes; /* traffic of the plan, ragged edges counted */
	double est_s;         /* the cost model's time */
} gk_hm_plan;

/* The first step's A and B pieces go to the device in GK_HM_FIRST_PARTS
 * parts along the depth when it is at least GK_HM_FIRST_PARTS x
 * GK_HM_FIRST_MIN_DEPTH (hm_driver.cu), each part's product launched as
 * soon as the part is in: only the first part's loads come before any
 * product, and the cost model charges only those. */
#define GK_HM_FIRST_PARTS 4
#define GK_HM_FIRST_MIN_DEPTH 1024
static inline int gk_hm_first_parts(int64_t depth)
{
	return depth >= GK_HM_FIRST_PARTS * GK_HM_FIRST_MIN_DEPTH ? GK_HM_FIRST_PARTS : 1;
}

/* Make a plan: GK_OK, GK_ERR_NO_MEMORY (the steps' array), or
 * GK_ERR_UNSUPPORTED when even the smallest tiles (16 x 16 x 16, or
 * min_tile) exceed the budget (message for gk_last_error()). The search
 * runs with the workspace reserve first (smaller tiles before giving it
 * up), then without it: whether a budget is accepted never depends on
 * ws_factor and ws_fixed. */
gk_status gk_hm_plan_make(const gk_hm_params *p, gk_hm_plan *out);
void gk_hm_plan_free(gk_hm_plan *pl);

/* The units of a multi-worker call (hm_multi.cu): C cut into gm x gn
 * blocks of um x un (the last of each ragged), from the shape alone (never
 * from the device count, so that a deterministic result does not depend
 * on it): edge 16384, halved while there are fewer than 4 units and the
 * edge is above 2048, each block's rows and columns rounded up to a
 * multiple of 128. edge > 0 forces blocks of edge x edge (tests). */
void gk_hm_unit_grid(int64_t m, int64_t n, int64_t edge, int64_t *um, int64_t *un, int64_t *gm,
                     int64_t *gn);

/* The units of a multi-worker call without the deterministic flag: one per
 * worker, gm x gn = workers (fewer where C has too few rows or columns for
 * that: blocks rounded up to a multiple of 128 above 128), the split with
 * the least host traffic, A read gn times and B gm times (gn m k + gm k n
 * elements); among splits giving the same number of units, the least
 * traffic, then the most rows of units. 65536 x 65536 x 65536 on 2
 * workers: 2 x 1 units of 32768 x 65536 (48 GiB read in float, against 128
 * GiB for gk_hm_unit_grid's 16 units); on 4: 2 x 2. */
void gk_hm_unit_grid_for(int64_t m, int64_t n, int64_t k, int workers, int64_t *um, int64_t *un,
                         int64_t *gm, int64_t *gn);

/* Rows / columns / depth of block b (the last one ragged). */
static inline int64_t gk_hm_extent(int64_t total, int64_t tile, int64_t b)
{
	const int64_t r = total - b * tile;
	return r < tile ? r : tile;
}

#ifdef __cplusplus
}
#endif

#endif
