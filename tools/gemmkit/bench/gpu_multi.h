/*
 * gpu_multi.h - the multi-GPU suite of `gemmkit bench` (gpu-multi):
 * host-pointer GEMM end to end on 1, 2, 4 or 8 devices of one host beside
 * cuBLASXt on the same devices, with scaling efficiency and the
 * deterministic mode's bit-for-bit check (gpu_multi.c).
 */
#ifndef GK_BENCH_GPU_MULTI_H
#define GK_BENCH_GPU_MULTI_H

#include <stdio.h>
#include "suite.h"

/* Run the suite: exit status 0, 1 (a wrong result, a C that is not
 * bit-identical, a file not written, no CUDA device) or 2 (bad options). */
int bench_run_multi(const bench_opts *o);

/* `gemmkit bench --suite gpu-multi --help`. */
void bench_multi_usage(FILE *f);

#ifdef GK_BENCH_CUDA
#include "engine.h"
#include "gemmkit.h"
#include "gpu_hostmem.h"
#include "report.h"

/* What gpu_multi.c and gpu_multi_report.c share. */
#define MG_MAX 48   /* contenders of one run */
#define MG_MAXN 8   /* devices or workers of one contender */
#define MG_BAND 64  /* rows of C per hash band */

/* One --algos name, parsed. */
typedef struct mg_spec {
	int xt;            /* 0 gemmkit, 1 cuBLASXt */
	gk_precision mode;
	int det;
	int ndev, workers; /* -dN: ndev = N; -wN: workers = N */
} mg_spec;

/* A contender: the host-memory side first (hm_ops reads it), then ours. */
typedef struct mg_side {
	hm_side hm;
	mg_spec spec;
	int devs[MG_MAXN], ndevs;  /* the device list */
	int det_ref;               /* the -det-d1 whose hashes the others match */
	int same;                  /* this cell: 1 bit-identical, 0 not, -1 not compared, -2 not checked */
	char det_why[128];
} mg_side;

/* A cell: the host-memory cell first (its hooks read it), then the hashes. */
typedef struct mg_cell {
	hm_cell hm;
	int64_t nbands;
	uint64_t *ref[4];  /* per precision mode: the -det-d1's band hashes (NULL: none) */
	uint64_t *tmp;
} mg_cell;

/* What the report keeps of one contender in one cell. */
typedef struct mg_out {
	bench_result r;
	int same;
	char note[256];
} mg_out;

/* "0,1,2": the contender's device list. */
void mg_fmt_devs(const mg_side *s, char *buf, size_t len);
/* The family of an id: the id without its -dN / -wN. */
void mg_family_of(const char *id, char *out, size_t len);
/* results.csv, then the Markdown: header, times, scaling, determinism.
 * out[(dt * o->nshapes + si) * nc + i]: contender i in the cell of dtype dt
 * and size si; ndev: the devices present. */
void mg_write_report(bench_report *rep, const bench_opts *o, const bench_contender *cs, const mg_side *sd, int nc,
                     const mg_out *out, int ndev);
#endif

#endif
