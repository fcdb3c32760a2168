/*
 * hxv_model.c - the time-cost model of PHVM (seed 003, section 3) and
 * gemmkit's extension of it. Plain C, no GPU: the device's parameters come
 * in a gk_hxv_device (measured by src/cuda/hxv/hxv_probe.cu, or the seed's
 * Tables 3 and 4 for its own devices).
 *
 * The seed model, per element of the M x N result (symbols of the seed):
 *   (7)  t_prep  = K/(BS GS) (2 sg + sadd + smul) + ss + log BS (sadd + 3 ss)
 *   (11) t_prep /= u_SM
 *   (8)  t_post  = ss + sg + sadd + sg
 *   (9)  t_prep <  CoreS/BS t_post:  t = t_prep + GS t_post
 *   (10) otherwise:                  t = (GS BS/CoreS) t_prep + (CoreS/BS) [GS] t_post
 *   (1)  T = M N t
 * over the configurations allowed by (2) BS GS = SMS SM_NUM, (3) BS a
 * multiple of WS, (4) BS dividing SMS. The bracketed GS of (10) is the
 * equation as printed (READ_PRINTED); the seed's text (each round's stores
 * hidden under the next round, Figure 8) leaves it out (READ_TEXT), and only
 * that reading, with the natural logarithm, gives the configurations the
 * seed reports as the model's choice.
 */
#include "hxv_model.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int gk_hxv_cores_per_sm(int major, int minor)
{
	switch (major) {
	case 3: return 192;
	case 5: return 128;
	case 6: return (minor == 0) ? 64 : 128;
	case 7: return 64;                          /* Volta, Turing */
	case 8: return (minor == 0) ? 64 : 128;     /* A100: 64; GA10x, Ada: 128 */
	case 9: return 128;                         /* Hopper */
	case 10: case 12: return 128;               /* Blackwell */
	default: return 0;
	}
}

int gk_hxv_admissible(const gk_hxv_device *d, int gs, int bs)
{
	if (gs <= 0 || bs <= 0 || d->warp_size <= 0)
		return 0;
	if ((int64_t)gs * bs != (int64_t)d->threads_per_sm * d->sm_count)  /* (2) */
		return 0;
	if (bs % d->warp_size != 0)                                        /* (3) */
		return 0;
	if (d->threads_per_sm % bs != 0)                                   /* (4) */
		return 0;
	if (bs > d->max_threads_per_block)
		return 0;
	if (d->max_blocks_per_sm > 0 && d->threads_per_sm / bs > d->max_blocks_per_sm)
		return 0;
	return 1;
}

double gk_hxv_model_paper(const gk_hxv_device *d, int reading, int64_t m, int64_t n, int64_t k,
                          int gs, int bs, int *paper_case)
{
	const double sg = d->sigma_g, ss = d->sigma_s, sa = d->sigma_add, sm = d->sigma_mul;
	const double cores = (double)d->cores_per_sm * d->sm_count;
	const double u = d->u_sm > 0 ? d->u_sm : 1.0;
	const double threads = (double)gs * bs;
	double t_prep = (double)k / threads * (2 * sg + sa + sm) + ss + log((double)bs) * (sa + 3 * ss);
	t_prep /= u;                                                       /* (11) */
	const double t_post = ss + sg + sa + sg;                           /* (8) */
	const double par = cores / bs;        /* blocks whose threads run at once */
	double t;
	int c;
	if (t_prep < par * t_post) {                                       /* (9) */
		t = t_prep + gs * t_post;
		c = 1;
	} else {                                                           /* (10) */
		const double rounds = threads / cores;
		t = rounds * t_prep + par * t_post * (reading == GK_HXV_READ_PRINTED ? gs : 1);
		c = 2;
	}
	if (paper_case != NULL)
		*paper_case = c;
	return (double)m * (double)n * t;                                  /* (1) */
}

double gk_hxv_model_ext(const gk_hxv_device *d, int64_t m, int64_t n, int64_t k, int esize,
                        int gs, int bs)
{
	/* Resident blocks per SM and in the whole device. */
	int per_sm = d->threads_per_sm / bs;
	if (d->max_blocks_per_sm > 0 && per_sm > d->max_blocks_per_sm)
		per_sm = d->max_blocks_per_sm;
	if (per_sm < 1)
		per_sm = 1;
	const double resident = (double)per_sm * d->sm_count;
	const double waves = ceil(gs / resident);
	const double in_wave = gs < resident ? gs : resident;   /* blocks of a full wave */
	/* PHVM computes PT x PT outputs per pass (src/cuda/hxv/hxv_paper.cuh:
	 * PT = 4, 8 or 12, the smallest covering m and n whose block cap of
	 * 1024, 512 or 256 threads (half for double above 4) admits bs, else the largest that does): E's
	 * rows are read once per column tile, F's columns once per row tile. */
	const int64_t mn = m > n ? m : n;
	int pt = 4;
	for (int t = 4; t <= 12; t += 4) {
		if (bs > (t <= 4 ? 1024 : t <= 8 ? 512 : 256) / (esize == 8 && t > 4 ? 2 : 1))
			break;
		pt = t;
		if (t >= mn)
			break;
	}
	const double pm = ceil((double)m / pt), pn = ceil((double)n / pt), passes = pm * pn;
	/* Bandwidth; a wave of fewer blocks than the device holds still takes a
	 * full wave's time (grid-stride: equal work per block). */
	const double bytes = (pn * (double)m + pm * (double)n) * (double)k * esize;
	const double bw = d->read_bytes_per_cycle > 0 ? d->read_bytes_per_cycle : 1.0;
	const double t_bw = bytes / bw * (waves * in_wave / gs);
	/* Latency: each thread's k-steps, one step's loads in flight at a time,
	 * one load latency per step, wave after wave, pass after pass. */
	const double steps = ceil((double)k / ((double)gs * bs));
	const double t_lat = passes * waves * steps * d->sigma_g;
	const double t_mem = t_bw > t_lat ? t_bw : t_lat;
	/* The block reduction of each wave (M N values, a warp's share each). */
	const double outs_per_warp = ceil((double)(m < pt ? m : pt) * (double)(n < pt ? n : pt) *
	                                  (double)d->warp_size / bs);
	const double t_red = passes * waves * outs_per_warp *
	                     (d->sigma_s + log2((double)bs) * (d->sigma_add + 3 * d->sigma_s));
	/* The GS atomic adds that meet at each output serialize there. */
	const double t_atom = passes * ((double)gs * d->sigma_atomic + d->sigma_g);
	return t_mem + t_red + t_atom;
}

int gk_hxv_model_table_ex(const gk_hxv_device *d, int reading, int64_t m, int64_t n, int64_t k,
                          int esize, gk_hxv_config *out, int cap, int *best_paper, int *best_ext)
{
	if (d == NULL)
		return GK_ERR_NULL_POINTER;
	if (m < 1 || n < 1 || k < 1 || esize < 1)
		return GK_ERR_INVALID_VALUE;
	if (d->warp_size < 1 || d->sm_count < 1 || d->threads_per_sm < d->warp_size ||
	    d->cores_per_sm < 1 || d->max_threads_per_block < d->warp_size)
		return GK_ERR_INVALID_VALUE;
	int count = 0, bp = -1, be = -1;
	double tbp = 0, tbe = 0;
	const int64_t full = (int64_t)d->threads_per_sm * d->sm_count;
	for (int bs = d->warp_size; bs <= d->max_threads_per_block && bs <= d->threads_per_sm; bs *= 2) {
		if (d->threads_per_sm % bs != 0)
			continue;
		for (int64_t gs = d->sm_count; gs * bs <= 2 * full; gs *= 2) {
			gk_hxv_config c;
			memset(&c, 0, sizeof c);
			c.gs = (int)gs;
			c.bs = bs;
			c.admissible = gk_hxv_admissible(d, c.gs, bs);
			c.t_paper = gk_hxv_model_paper(d, reading, m, n, k, c.gs, bs, &c.paper_case);
			c.t_ext = gk_hxv_model_ext(d, m, n, k, esize, c.gs, bs);
			if (c.admissible && (bp < 0 || c.t_paper < tbp)) {
				bp = count;
				tbp = c.t_paper;
			}
			if (be < 0 || c.t_ext < tbe) {
				be = count;
				tbe = c.t_ext;
			}
			if (out != NULL && count < cap)
				out[count] = c;
			count++;
		}
	}
	if (best_paper != NULL)
		*best_paper = bp;
	if (best_ext != NULL)
		*best_ext = be;
	return count;
}

int gk_hxv_model_table(const gk_hxv_device *d, int64_t m, int64_t n, int64_t k, int esize,
                       gk_hxv_config *out, int cap, int *best_paper, int *best_ext)
{
	return gk_hxv_model_table_ex(d, GK_HXV_READ_TEXT, m, n, k, esize, out, cap, best_paper,
	                             best_ext);
}

int gk_hxv_model_choose(const gk_hxv_device *d, int64_t m, int64_t n, int64_t k, int *gs, int *bs)
{
	gk_hxv_config t[128];
	int best = -1;
	const int cnt = gk_hxv_model_table(d, m, n, k, 4, t, 128, &best, NULL);
	if (cnt <= 0 || best < 0 || best >= 128)
		return -1;
	*gs = t[best].gs;
	*bs = t[best].bs;
	return 0;
}

static void seed_device(gk_hxv_device *d, const char *name, int sms, int sm_count, int cores,
                        double sa, double sm, double sg, double ss, double u, int max_blocks)
{
	memset(d, 0, sizeof *d);
	strncpy(d->name, name, sizeof d->name - 1);
	d->sm_count = sm_count;
	d->threads_per_sm = sms;
	d->warp_size = 32;
	d->cores_per_sm = cores / sm_count;
	d->max_threads_per_block = 1024;
	d->max_blocks_per_sm = max_blocks;
	d->clock_ghz = 1.4;
	d->sigma_add = sa;
	d->sigma_mul = sm;
	d->sigma_g = sg;
	d->sigma_s = ss;
	d->u_sm = u;
	/* The extension's inputs are not in the seed: plausible figures. */
	d->sigma_atomic = 2.0;
	d->read_bytes_per_cycle = 400.0;
	d->measured = 0;
}

void gk_hxv_device_rtx2080ti(gk_hxv_device *d)
{
	seed_device(d, "GeForce RTX 2080 Ti (seed 003, Tables 3-4)", 1024, 68, 4352, 1, 2, 346,
	            49.39, 0.27, 16);
}

void gk_hxv_device_a100(gk_hxv_device *d)
{
	seed_device(d, "A100-PCIE-40GB (seed 003, Tables 3-4)", 2048, 108, 6912, 1, 2, 317, 34.46,
	            0.16, 32);
}

typedef struct ranked {
	double v;
	int i;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
	const double x = ((const ranked *)a)->v, y = ((const ranked *)b)->v;
	return (x > y) - (x < y);
}

static void ranks(const double *x, int n, double *r, ranked *w)
{
	for (int i = 0; i < n; i++) {
		w[i].v = x[i];
		w[i].i = i;
	}
	qsort(w, (size_t)n, sizeof *w, cmp_ranked);
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && w[j + 1].v == w[i].v)
			j++;
		for (int t = i; t <= j; t++)
			r[w[t].i] = 0.5 * (i + j) + 1;
		i = j + 1;
	}
}

double gk_hxv_rank_correlation(const double *x, const double *y, int n)
{
	if (n < 2)
		return 0.0;
	double *rx = malloc(sizeof(double) * (size_t)n * 2);
	ranked *w = malloc(sizeof(ranked) * (size_t)n);
	if (rx == NULL || w == NULL) {
		free(rx);
		free(w);
		return 0.0;
	}
	double *ry = rx + n;
	ranks(x, n, rx, w);
	ranks(y, n, ry, w);
	double mx = 0, my = 0;
	for (int i = 0; i < n; i++) {
		mx += rx[i];
		my += ry[i];
	}
	mx /= n;
	my /= n;
	double sxy = 0, sxx = 0, syy = 0;
	for (int i = 0; i < n; i++) {
		sxy += (rx[i] - mx) * (ry[i] - my);
		sxx += (rx[i] - mx) * (rx[i] - mx);
		syy += (ry[i] - my) * (ry[i] - my);
	}
	free(rx);
	free(w);
	return (sxx > 0 && syy > 0) ? sxy / sqrt(sxx * syy) : 0.0;
}
