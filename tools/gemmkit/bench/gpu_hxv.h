/*
 * gpu_hxv.h - the horizontal x vertical suite of `gemmkit bench` (gpu-hxv):
 * E (m x k) times F (k x n) with m, n tiny and k huge, on the measurement
 * engine. Two tables (gpu_hxv.c runs them, gpu_hxv_report.c writes them):
 *
 *   device     E and F in device memory: the read floor (a read-only pass
 *              over E and F), cuda.hxv_basic, cuda.hxv_phvm, cuda.hxv and
 *              cublasSgemm on the same buffers, CUDA events;
 *   crossover  E, F and C in host memory, m = n = 5: gemmkit's CPU "auto"
 *              against cuda.hxv through gk_sgemm_ex (copies included), host
 *              clock; where the GPU starts to pay.
 */
#ifndef GK_BENCH_GPU_HXV_H
#define GK_BENCH_GPU_HXV_H

#include <stdint.h>
#include <stdio.h>
#include "engine.h"
#include "report.h"
#include "suite.h"

/* Run the gpu-hxv suite: exit status 0, or 1 (a wrong result, a file not
 * written, no device). */
int bench_run_hxv(const bench_opts *o);

/* ---- Between gpu_hxv.c and gpu_hxv_report.c ------------------------------ */

#define HXV_MAX_C 8       /* contenders of one table */
#define HXV_XOVER_MN 5    /* m = n of the crossover cells */

/* One cell's results. */
typedef struct hxv_row {
	int64_t m, n, k;
	const char *label;    /* "MTXA", "MTXB", "MTXC" or "" */
	double bytes;         /* of E and F */
	char note[256];       /* why the cell was not run, or "" */
	bench_result res[HXV_MAX_C];
	char why[HXV_MAX_C][256]; /* each contender's note (skips, failures) */
} hxv_row;

/* One table: its contenders (in column order) and its rows. */
typedef struct hxv_table {
	int host;             /* 0: device operands; 1: the crossover */
	int nc;
	char ids[HXV_MAX_C][64];
	int nrows;
	hxv_row rows[BENCH_MAX_SHAPES];
} hxv_table;

/* One cell's operands and reference (gpu_hxv_cell.c; CUDA builds only). */
#define HXV_MAX_MN 64     /* a horizontal x vertical shape: m, n <= 64 */
typedef struct hxv_cell {
	int64_t m, n, k;
	int host;             /* 1: E and F in host memory (crossover); 0: on the device */
	uint64_t seed;
	float *de, *df;       /* device cell */
	float *he, *hf;       /* host cell */
	double ref[HXV_MAX_MN * HXV_MAX_MN]; /* the exact product, m x n row-major */
	double norm_e, norm_f;  /* ||E||_F, ||F||_F */
	char *note;           /* where a failed setup's reason goes too (or NULL) */
	size_t note_len;
} hxv_cell;
/* The engine's setup and teardown of such a cell (bench_cell.setup / .teardown):
 * E and F made, their reference computed, E and F on the device for a device
 * cell (skipped with a reason when they do not fit its free memory). */
int hxv_cell_setup(void *data, char *why, size_t len);
void hxv_cell_teardown(void *data);

/* The index of contender `id` in t, or -1. */
int hxv_find(const hxv_table *t, const char *id);

/* The Markdown tables and their explanation into rep->md, one CSV row per
 * contender and cell into csv (either table; csv may be NULL). */
void hxv_report_device(const hxv_table *t, FILE *md, FILE *csv);
void hxv_report_crossover(const hxv_table *t, FILE *md, FILE *csv);
/* The charts: hxv-device.png (GB/s per shape), hxv-crossover.png (GB/s
 * against k). */
void hxv_plot(const hxv_table *dev, const hxv_table *xo, const char *dir);

#endif
