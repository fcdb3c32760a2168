/*
 * cmd_model.c - `gemmkit model`: seed 003's PHVM time-cost model on this
 * machine's GPU (or, with --seed-device, on the seed's own devices from its
 * Tables 3 and 4, no GPU needed): the device's parameters, the measured
 * latencies, the predicted time of every configuration of the GS x BS sweep
 * (the seed's model and gemmkit's extension) and the chosen ones. With
 * --measure, PHVM runs at every configuration and the table shows measured
 * beside predicted, the rank correlations and how far each chosen
 * configuration is from the best measured one; --out DIR writes the table as
 * CSV and, where gnuplot is installed, a PNG of predicted and measured over
 * GS for each BS (as the seed's Figures 9 and 10).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli_util.h"
#include "commands.h"
#include "gemmkit.h"

#define MAX_CFG 128
#define MAX_SHAPES 8

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: gemmkit model [--device N] [--mn LIST] [--k K] [--measure] [--reps R]\n"
	        "                     [--seed-device 2080ti|a100] [--remeasure] [--out DIR]\n"
	        "  --mn LIST   M = N of each product (default 5,7,9: seed 003's MTX1-3)\n"
	        "  --k K       K (default 3e7)\n"
	        "  --measure   run PHVM at every configuration; measured beside predicted\n"
	        "  --reps R    timed runs per configuration (median; default 5)\n"
	        "  --seed-device  the seed's device from its Tables 3 and 4 instead of this GPU\n"
	        "  --out DIR   write model_<M>x<K>x<N>.csv (and .png with gnuplot) into DIR\n");
}

static double ms_of(const gk_hxv_device *d, double cycles)
{
	return cycles / (d->clock_ghz * 1e6);
}

/* Spearman's rank correlation (ties: mean ranks); n <= MAX_CFG. */
static void rank_of(const double *x, int n, double *r)
{
	for (int i = 0; i < n; i++) {
		int less = 0, same = 0;
		for (int j = 0; j < n; j++) {
			less += x[j] < x[i];
			same += x[j] == x[i];
		}
		r[i] = less + 0.5 * (same + 1);
	}
}

static double spearman(const double *x, const double *y, int n)
{
	double rx[MAX_CFG], ry[MAX_CFG], mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
	rank_of(x, n, rx);
	rank_of(y, n, ry);
	for (int i = 0; i < n; i++) {
		mx += rx[i] / n;
		my += ry[i] / n;
	}
	for (int i = 0; i < n; i++) {
		sxy += (rx[i] - mx) * (ry[i] - my);
		sxx += (rx[i] - mx) * (rx[i] - mx);
		syy += (ry[i] - my) * (ry[i] - my);
	}
	return (sxx > 0 && syy > 0) ? sxy / sqrt(sxx * syy) : 0;
}

static void plot(const char *dir, const char *base, int measured)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
	         "command -v gnuplot >/dev/null 2>&1 && cd '%s' && gnuplot -e \""
	         "set terminal pngcairo noenhanced size 1000,600; set output '%s.png'; set datafile separator ',';"
	         "set logscale x 2; set logscale y; set xlabel 'GS (blocks)'; set ylabel 'time (ms, log scale)'; set key outside;"
	         "plot for [b in '64 128 256 512 1024'] '%s.csv' using ($2==b+0?$1:1/0):%d with linespoints title 'BS '.b.' RUN',"
	         "     for [b in '64 128 256 512 1024'] '%s.csv' using ($2==b+0?$1:1/0):4 with lines dt 2 title 'BS '.b.' THEO',"
	         "     for [b in '64 128 256 512 1024'] '%s.csv' using ($2==b+0?$1:1/0):5 with lines dt 3 title 'BS '.b.' EXT'\"",
	         dir, base, base, measured ? 6 : 4, base, base);
	if (system(cmd) != 0)
		fprintf(stderr, "gemmkit model: no PNG (gnuplot missing or failed)\n");
}

int gk_cmd_model(int argc, char **argv)
{
	int device = 0, measure = 0, reps = 5, remeasure = 0;
	int64_t mn[MAX_SHAPES] = {5, 7, 9};
	int nmn = 3;
	double kd = 3e7;
	const char *seed = NULL, *out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const int more = i + 1 < argc;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--measure") == 0) {
			measure = 1;
		} else if (strcmp(a, "--remeasure") == 0) {
			remeasure = 1;
		} else if (strcmp(a, "--device") == 0 && more) {
			device = atoi(argv[++i]);
		} else if (strcmp(a, "--reps") == 0 && more) {
			reps = atoi(argv[++i]);
		} else if (strcmp(a, "--k") == 0 && more) {
			if (cli_parse_double(argv[++i], &kd) != 0 || kd < 1) {
				cli_error("model", "--k: '%s' is not a positive number", argv[i]);
				return 2;
			}
		} else if (strcmp(a, "--mn") == 0 && more) {
			nmn = cli_parse_i64_list(argv[++i], 1, 1024, mn, MAX_SHAPES);
			if (nmn <= 0) {
				cli_error("model", "--mn: '%s' is not a list of sizes", argv[i]);
				return 2;
			}
		} else if (strcmp(a, "--seed-device") == 0 && more) {
			seed = argv[++i];
		} else if (strcmp(a, "--out") == 0 && more) {
			out = argv[++i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (reps < 1)
		reps = 1;
	const int64_t k = (int64_t)kd;
	gk_hxv_device d;
	memset(&d, 0, sizeof d);
	if (seed != NULL) {
		/* The seed's Tables 3 and 4. */
		const int ti = strcmp(seed, "2080ti") == 0;
		if (!ti && strcmp(seed, "a100") != 0) {
			cli_error("model", "--seed-device: 2080ti or a100");
			return 2;
		}
		snprintf(d.name, sizeof d.name, "%s", ti ? "RTX 2080 Ti (seed 003)" : "A100-PCIE-40GB (seed 003)");
		d.sm_count = ti ? 68 : 108;
		d.threads_per_sm = ti ? 1024 : 2048;
		d.warp_size = 32;
		d.cores_per_sm = 64;
		d.max_threads_per_block = 1024;
		d.max_blocks_per_sm = ti ? 16 : 32;
		d.clock_ghz = ti ? 1.545 : 1.41;
		d.sigma_add = 1;
		d.sigma_mul = 2;
		d.sigma_g = ti ? 346 : 317;
		d.sigma_s = ti ? 49.39 : 34.46;
		d.u_sm = ti ? 0.27 : 0.16;
		d.sigma_atomic = 2;
		d.read_bytes_per_cycle = ti ? 400 : 1000;
		measure = 0;
	} else {
		const gk_status st = gk_hxv_device_query(device, remeasure, &d);
		if (st != GK_OK) {
			cli_error("model", "%s", gk_last_error());
			return 1;
		}
	}
	printf("device: %s\n", d.name);
	printf("  SM_NUM %d  SMS %d  WS %d  cores/SM %d (CoreS %d)  max threads/block %d  max blocks/SM %d  clock %.3f GHz\n",
	       d.sm_count, d.threads_per_sm, d.warp_size, d.cores_per_sm, d.cores_per_sm * d.sm_count,
	       d.max_threads_per_block, d.max_blocks_per_sm, d.clock_ghz);
	printf("latencies (cycles, %s): sigma_g %.1f  sigma_s %.2f  sigma_add %.2f  sigma_mul %.2f  u_SM %.3f\n",
	       d.measured ? "measured" : "the seed's Table 4", d.sigma_g, d.sigma_s, d.sigma_add, d.sigma_mul, d.u_sm);
	printf("extension: sigma_atomic %.2f cycles  read bandwidth %.1f B/cycle = %.0f GB/s\n", d.sigma_atomic,
	       d.read_bytes_per_cycle, d.read_bytes_per_cycle * d.clock_ghz);
	if (out != NULL)
		mkdir(out, 0755);
	int rc = 0;
	for (int s = 0; s < nmn; s++) {
		gk_hxv_config cfg[MAX_CFG];
		double ms[MAX_CFG];
		int bp = -1, be = -1;
		const int cnt = gk_hxv_model_table(&d, mn[s], mn[s], k, 4, cfg, MAX_CFG, &bp, &be);
		if (cnt <= 0 || cnt > MAX_CFG) {
			cli_error("model", "no table (%d)", cnt);
			return 1;
		}
		if (measure) {
			const gk_status st = gk_hxv_phvm_time(device, mn[s], mn[s], k, cfg, cnt, reps, ms);
			if (st != GK_OK) {
				cli_error("model", "%s", gk_last_error());
				return 1;
			}
		}
		const double floor_ms = d.read_bytes_per_cycle > 0
		                                ? (double)(2 * mn[s]) * (double)k * 4 / (d.read_bytes_per_cycle * d.clock_ghz * 1e6)
		                                : 0;
		printf("\nE %lld x %lld times F %lld x %lld (float); read floor %.3f ms\n", (long long)mn[s], (long long)k,
		       (long long)k, (long long)mn[s], floor_ms);
		printf("%6s %5s %4s %4s %14s %10s %14s %10s%s\n", "GS", "BS", "adm", "case", "seed (cycles)", "seed (ms)",
		       "ext (cycles)", "ext (ms)", measure ? "  measured (ms)" : "");
		FILE *csv = NULL;
		char base[128];
		snprintf(base, sizeof base, "model_%lldx%lldx%lld", (long long)mn[s], (long long)k, (long long)mn[s]);
		if (out != NULL) {
			char path[1024];
			snprintf(path, sizeof path, "%s/%s.csv", out, base);
			csv = fopen(path, "w");
			if (csv != NULL)
				fprintf(csv, "# gs,bs,admissible,seed_ms,ext_ms,measured_ms\n");
		}
		double best_ms = 0;
		int best = -1;
		double px[MAX_CFG], pe[MAX_CFG], mx[MAX_CFG], ax[MAX_CFG], am[MAX_CFG];
		int na = 0;
		for (int i = 0; i < cnt; i++) {
			const gk_hxv_config *c = &cfg[i];
			printf("%6d %5d %4s %4d %14.0f %10.3f %14.0f %10.3f", c->gs, c->bs, c->admissible ? "yes" : "", c->paper_case,
			       c->t_paper, ms_of(&d, c->t_paper), c->t_ext, ms_of(&d, c->t_ext));
			if (measure) {
				printf("  %12.3f", ms[i]);
				if (best < 0 || ms[i] < best_ms) {
					best = i;
					best_ms = ms[i];
				}
				if (c->admissible) {
					ax[na] = c->t_paper;
					am[na++] = ms[i];
				}
			}
			printf("%s%s\n", i == bp ? "  <- seed model's choice" : "", i == be ? "  <- extension's choice" : "");
			px[i] = c->t_paper;
			pe[i] = c->t_ext;
			mx[i] = measure ? ms[i] : 0;
			if (csv != NULL)
				fprintf(csv, "%d,%d,%d,%.6f,%.6f,%.6f\n", c->gs, c->bs, c->admissible, ms_of(&d, c->t_paper),
				        ms_of(&d, c->t_ext), measure ? ms[i] : 0.0);
		}
		if (csv != NULL) {
			fclose(csv);
			plot(out, base, measure);
		}
		printf("seed model's choice: GS(%d)/BS(%d); extension's choice: GS(%d)/BS(%d)\n", cfg[bp].gs, cfg[bp].bs,
		       cfg[be].gs, cfg[be].bs);
		if (measure && best >= 0) {
			const double rho_seed_all = spearman(px, mx, cnt);
			const double rho_ext = spearman(pe, mx, cnt);
			const double rho_seed_adm = na >= 2 ? spearman(ax, am, na) : 0;
			printf("best measured: GS(%d)/BS(%d) %.3f ms\n", cfg[best].gs, cfg[best].bs, best_ms);
			printf("seed model's choice: %.3f ms, %+.1f%% from the best; extension's choice: %.3f ms, %+.1f%%\n",
			       ms[bp], 100 * (ms[bp] / best_ms - 1), ms[be], 100 * (ms[be] / best_ms - 1));
			printf("rank correlation (Spearman) with measured: seed model %.3f over the sweep, %.3f over the admissible set;"
			       " extension %.3f over the sweep\n",
			       rho_seed_all, rho_seed_adm, rho_ext);
			printf("PHVM at the chosen configuration: %.1f%% of the read floor's bandwidth\n", 100 * floor_ms / ms[bp]);
		}
	}
	return rc;
}
