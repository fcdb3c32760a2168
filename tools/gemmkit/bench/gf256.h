/*
 * gf256.h - the GF(2^8) / Reed-Solomon suite of `gemmkit bench`: gemmkit's
 * encoder and decoder against ISA-L's as contenders of the measurement
 * engine (gf256.c), and their report (gf256_report.c).
 */
#ifndef GK_BENCH_GF256_H
#define GK_BENCH_GF256_H

#include "engine.h"
#include "refs.h"
#include "report.h"
#include "suite.h"

#define GF_LOST 2 /* data shards lost in the decode case */

enum { GF_OURS, GF_ISAL, GF_NC };
enum { GF_ENCODE, GF_DECODE };

/* One row of the table: a code, a shard size, a thread count, an operation. */
typedef struct gf_row {
	int op, k, m, threads;
	int64_t size;
	bench_result r[GF_NC]; /* status BENCH_NONE: that side was not in the run */
} gf_row;

typedef struct gf_run {
	const bench_opts *o;
	bench_engine eng;
	bench_contender c[GF_NC];
	int who[GF_NC];       /* GF_OURS or GF_ISAL, for c[i] */
	int nc;
	bench_isal isal;
	char isal_why[512];   /* why ISA-L is not there */
	int matrix_equal;     /* gemmkit's Cauchy matrix == ISA-L's gf_gen_cauchy1_matrix */
	gf_row *rows;
	int nrows;
} gf_run;

/* "64 KiB", "1 MiB", "1000 B" (gf256_report.c). */
void gf_size_label(int64_t s, char *buf, size_t n);

/* The table, results.csv, meta.txt and gf256.png of a finished run. */
void gf256_report(gf_run *g, bench_report *r);

#endif
