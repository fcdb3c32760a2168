/*
 * gpu_multi.c - the multi-GPU suite of `gemmkit bench` (gpu-multi): C = A B,
 * N x N, with A, B and C in pinned host memory, timed end to end by the host
 * clock, on the measurement engine, on 1, 2, 4 or 8 devices of one host.
 * Contenders (--algos; N = 1 .. 8):
 *
 *   gemmkit[-accurate|-tf32]-dN   gk_sgemm_ex / gk_dgemm_ex, CUDA backend, that
 *                                 precision mode, devices 0 .. N-1
 *                                 (gk_context_set_devices; d1 names {0})
 *   gemmkit[-accurate|-tf32]-wN   N workers on device 0 (the list 0, 0, ...):
 *                                 the cost of the split on one card (N >= 2)
 *   gemmkit[...]-det-dN, -det-wN  the same with GK_FLAG_DETERMINISTIC
 *   cublasxt-dN                   cublasXtSgemm / cublasXtDgemm on devices
 *                                 0 .. N-1 (block dimension: gpu_hostmem_cell.c)
 *
 * A contender that needs more devices than are present is "n/a (needs N
 * devices, M present)": never timed, never a failure. The contenders and
 * the cell (and its check against sampled double-precision rows) are those
 * of the host-memory suites (gpu_hostmem.h); all contenders of one size
 * share one cell.
 *
 * Determinism: the C of every -det contender is hashed, 64 bits per band of
 * MG_BAND rows (each step of the hash is a bijection of its state, so one
 * differing word always changes the band's hash). The -det-d1 contender of
 * the same precision mode runs first in the cell (choose adds it when it is
 * not named) and its hashes are the reference; another -det contender
 * whose hashes differ is "bit-identical: no", an ERR: exit status 1.
 *
 * The report: the times, a scaling table (per size and family: rate(dN) /
 * (N rate(d1)), wN / d1, and gemmkit-dN / cublasxt-dN) and the
 * determinism table; results.csv has every figure.
 */
#define _GNU_SOURCE
#include "gpu_multi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"

#define CMD "bench"

#ifdef GK_BENCH_CUDA
#include <cuda_runtime.h>

/* "gemmkit[-accurate|-tf32][-det]-{d,w}N" or "cublasxt-dN": 0, or -1. */
static int parse_id(const char *id, mg_spec *sp)
{
	memset(sp, 0, sizeof *sp);
	sp->mode = GK_PRECISION_STRICT;
	const char *q;
	if (!strncmp(id, "cublasxt-", 9)) {
		sp->xt = 1, q = id + 8;
	} else if (!strncmp(id, "gemmkit-", 8)) {
		q = id + 7;
		if (!strncmp(q, "-accurate-", 10))
			sp->mode = GK_PRECISION_ACCURATE, q += 9;
		else if (!strncmp(q, "-tf32-", 6))
			sp->mode = GK_PRECISION_TF32, q += 5;
		if (!strncmp(q, "-det-", 5))
			sp->det = 1, q += 4;
	} else {
		return -1;
	}
	if (q[0] != '-' || (q[1] != 'd' && q[1] != 'w') || q[2] < '1' || q[2] > '0' + MG_MAXN || q[3] != '\0')
		return -1;
	const int n = q[2] - '0';
	if (q[1] == 'w') {
		if (sp->xt || n < 2)
			return -1;
		sp->workers = n;
	} else {
		sp->ndev = n;
	}
	return 0;
}

/* ---- The deterministic mode's check ----------------------------------- */

static void hash_bands(const mg_cell *x, uint64_t *h)
{
	const size_t row = (size_t)x->hm.n * (x->hm.dt ? sizeof(double) : sizeof(float));
#pragma omp parallel for schedule(dynamic, 1)
	for (int64_t b = 0; b < x->nbands; b++) {
		const int64_t r0 = b * MG_BAND, r1 = r0 + MG_BAND < x->hm.n ? r0 + MG_BAND : x->hm.n;
		const unsigned char *p = (const unsigned char *)x->hm.c + (size_t)r0 * row;
		const size_t len = (size_t)(r1 - r0) * row;
		uint64_t v = 0x6a09e667f3bcc909ull ^ len, w;
		size_t i = 0;
		for (; i + 8 <= len; i += 8) {
			memcpy(&w, p + i, 8);
			v = (v ^ w) * 0x9e3779b97f4a7c15ull;
			v ^= v >> 29;
		}
		for (; i < len; i++) {
			v = (v ^ p[i]) * 0x9e3779b97f4a7c15ull;
			v ^= v >> 29;
		}
		h[b] = v;
	}
}

/* The cell's check, then, for a -det contender, the comparison. */
static int mg_check(void *data, bench_contender *c, double *err, char *why, size_t len)
{
	mg_cell *x = data;
	mg_side *s = c->self;
	const int rc = hm_cell_check(&x->hm, c, err, why, len);
	if (!s->spec.det || rc != 0)
		return rc;
	s->same = -1;
	const int m = (int)s->spec.mode & 3;
	if (x->tmp == NULL)
		x->tmp = malloc((size_t)x->nbands * sizeof *x->tmp);
	if (x->tmp == NULL) {
		snprintf(s->det_why, sizeof s->det_why, "no memory for the hashes");
		return 0;
	}
	hash_bands(x, x->tmp);
	if (s->det_ref) {
		if (x->ref[m] == NULL && (x->ref[m] = malloc((size_t)x->nbands * sizeof *x->tmp)) != NULL)
			memcpy(x->ref[m], x->tmp, (size_t)x->nbands * sizeof *x->tmp);
		s->same = 1;
		return 0;
	}
	if (x->ref[m] == NULL) {
		snprintf(s->det_why, sizeof s->det_why, "no result of the -det-d1 contender in this cell");
		return 0;
	}
	for (int64_t b = 0; b < x->nbands; b++)
		if (x->tmp[b] != x->ref[m][b]) {
			const int64_t r1 = (b + 1) * MG_BAND < x->hm.n ? (b + 1) * MG_BAND : x->hm.n;
			s->same = 0;
			snprintf(s->det_why, sizeof s->det_why, "rows %lld..%lld differ first", (long long)(b * MG_BAND),
			         (long long)(r1 - 1));
			snprintf(why, len, "not bit-identical to the -det-d1 result: %s", s->det_why);
			return -1;
		}
	s->same = 1;
	return 0;
}

static int mg_setup(void *data, char *why, size_t len)
{
	mg_cell *x = data;
	x->nbands = (x->hm.n + MG_BAND - 1) / MG_BAND;
	return hm_cell_setup(&x->hm, why, len);
}

static void mg_teardown(void *data)
{
	mg_cell *x = data;
	for (int m = 0; m < 4; m++)
		free(x->ref[m]), x->ref[m] = NULL;
	free(x->tmp), x->tmp = NULL;
	hm_cell_teardown(&x->hm);
}

/* ---- The contenders ------------------------------------------------------ */

static const char *mode_suffix(gk_precision m)
{
	return m == GK_PRECISION_ACCURATE ? "-accurate" : m == GK_PRECISION_TF32 ? "-tf32" : "";
}

/* c and s from a parsed id: 0, or 1 after a message. */
static int make_side(bench_contender *c, mg_side *s, const char *id, const mg_spec *sp)
{
	memset(c, 0, sizeof *c);
	memset(s, 0, sizeof *s);
	snprintf(c->id, sizeof c->id, "%s", id);
	memcpy(c->name, c->id, sizeof c->id);
	c->units = BENCH_GFLOPS;
	c->ops = &hm_ops;
	c->self = s;
	s->spec = *sp;
	s->hm.what = sp->xt ? HM_XT : HM_GK;
	s->hm.mode = sp->mode;
	s->hm.need_devices = sp->ndev;
	s->ndevs = sp->workers ? sp->workers : sp->ndev;
	for (int i = 0; i < s->ndevs; i++)
		s->devs[i] = sp->workers ? 0 : i;
	s->det_ref = sp->det && sp->ndev == 1;
	if (sp->xt) {
		s->hm.xt_ndev = s->ndevs;
		memcpy(s->hm.xt_dev, s->devs, (size_t)s->ndevs * sizeof *s->devs);
		return 0;
	}
	if (gk_context_create(&s->hm.ctx) != GK_OK || gk_context_set_backend(s->hm.ctx, GK_BACKEND_CUDA) != GK_OK ||
	    gk_context_set_precision(s->hm.ctx, sp->mode) != GK_OK ||
	    gk_context_set_flags(s->hm.ctx, sp->det ? GK_FLAG_DETERMINISTIC : 0u) != GK_OK ||
	    gk_context_set_devices(s->hm.ctx, s->devs, s->ndevs) != GK_OK) {
		cli_error(CMD, "%s: %s", id, gk_last_error());
		return 1;
	}
	return 0;
}

/* The contenders of --algos, each -det-d1 reference before the other -det
 * contenders of its mode (added when not named). 0, 1 or 2 after a message. */
static int choose(const bench_opts *o, bench_contender *cs, mg_side *sd, int *nc)
{
	static char ids[MG_MAX][64];
	mg_spec sp[MG_MAX];
	int n = 0, used[MG_MAX] = {0}, ref_placed[4] = {0};
	*nc = 0;
	for (const char *p = o->algos; *p;) {
		const char *e = strchr(p, ',');
		const size_t l = e ? (size_t)(e - p) : strlen(p);
		char id[64];
		snprintf(id, sizeof id, "%.*s", (int)(l < sizeof id ? l : sizeof id - 1), p);
		if (l == 0 || l >= sizeof id || parse_id(id, &sp[n < MG_MAX ? n : 0]) != 0) {
			cli_error(CMD, "--algos: \"%.*s\" is not a gpu-multi contender; the names are gemmkit-dN, "
			          "gemmkit-accurate-dN, gemmkit-tf32-dN, gemmkit-wN (N workers on device 0), the same with "
			          "-det- before -dN / -wN (gemmkit-det-d2), and cublasxt-dN, N = 1 .. %d "
			          "(gemmkit bench --suite gpu-multi --help)",
			          (int)l, p, MG_MAXN);
			return 2;
		}
		int dup = 0;
		for (int i = 0; i < n; i++)
			dup |= !strcmp(ids[i], id);
		if (!dup) {
			if (n + 3 >= MG_MAX) {
				cli_error(CMD, "--algos: more than %d contenders", MG_MAX - 4);
				return 2;
			}
			snprintf(ids[n++], sizeof ids[0], "%s", id);
		}
		p = e ? e + 1 : p + l;
	}
	for (int i = 0; i < n; i++) {
		if (used[i])
			continue;
		const int m = (int)sp[i].mode & 3;
		if (sp[i].det && !ref_placed[m]) {
			int j = i;
			while (j < n && !(sp[j].det && sp[j].ndev == 1 && sp[j].mode == sp[i].mode))
				j++;
			if (j == n) {
				snprintf(ids[n], sizeof ids[0], "gemmkit%s-det-d1", mode_suffix(sp[i].mode));
				parse_id(ids[n], &sp[n]);
				fprintf(stderr, "gemmkit bench: note: %s added, the reference of %s\n", ids[n], ids[i]);
				n++;
			}
			if (make_side(&cs[*nc], &sd[*nc], ids[j], &sp[j]) != 0)
				return 1;
			(*nc)++;
			used[j] = 1, ref_placed[m] = 1;
			if (j == i)
				continue;
		}
		if (make_side(&cs[*nc], &sd[*nc], ids[i], &sp[i]) != 0)
			return 1;
		(*nc)++;
		used[i] = 1;
	}
	return 0;
}

/* ---- The run ------------------------------------------------------------- */

int bench_run_multi(const bench_opts *o)
{
	static bench_contender cs[MG_MAX];
	static mg_side sd[MG_MAX];
	mg_out *out = NULL;
	int nc = 0, rc = choose(o, cs, sd, &nc);
	for (int i = 0; i < nc && rc == 0 && o->list; i++) {
		char devs[64];
		mg_fmt_devs(&sd[i], devs, sizeof devs);
		printf("%s\t%s %s%s, device%s %s\n", cs[i].id, sd[i].spec.xt ? "cuBLASXt" : "gemmkit",
		       gk_precision_name(sd[i].spec.mode), sd[i].spec.det ? ", deterministic" : "",
		       sd[i].ndevs > 1 ? "s" : "", devs);
	}
	if (rc != 0 || o->list)
		goto done;
	if (!o->all_square) {
		cli_error(CMD, "--suite %s takes square sizes (--sizes N,...), not --shapes", o->suite->name);
		rc = 2;
		goto done;
	}
	int ndev = 0;
	const cudaError_t ce = cudaGetDeviceCount(&ndev);
	if (ce != cudaSuccess || ndev == 0) {
		cli_error(CMD, "--suite %s needs a CUDA device: no GPU is present or usable here%s%s%s", o->suite->name,
		          ce != cudaSuccess ? " (cudaGetDeviceCount: " : "", ce != cudaSuccess ? cudaGetErrorString(ce) : "",
		          ce != cudaSuccess ? ")" : "");
		cudaGetLastError();
		rc = 1;
		goto done;
	}
	out = calloc((size_t)(2 * o->nshapes) * (size_t)nc, sizeof *out);
	bench_report rep;
	if (out == NULL || bench_report_begin(&rep, o->out, o->suite->name, o->argc, o->argv) != 0) {
		if (out == NULL)
			cli_error(CMD, "out of memory");
		rc = 1;
		goto done;
	}
	bench_engine eng;
	bench_engine_init(&eng, o->quick);
	eng.cap = o->cap;
	eng.reps = o->reps;
	for (int dt = 0; dt < 2; dt++)
		for (int si = 0; si < o->nshapes && o->dtype[dt]; si++) {
			mg_cell x;
			memset(&x, 0, sizeof x);
			x.hm.dt = dt, x.hm.n = o->shapes[si].n;
			bench_cell cell;
			memset(&cell, 0, sizeof cell);
			snprintf(cell.label, sizeof cell.label, "%s n=%lld", dt ? "dgemm" : "sgemm", (long long)x.hm.n);
			cell.series = dt;
			cell.work = 2.0 * (double)x.hm.n * (double)x.hm.n * (double)x.hm.n;
			cell.threads = 1;
			cell.data = &x;
			cell.setup = mg_setup, cell.before_check = hm_cell_poison, cell.check = mg_check;
			cell.teardown = mg_teardown;
			for (int i = 0; i < nc; i++)
				sd[i].same = -2, sd[i].det_why[0] = '\0';
			bench_result res[MG_MAX];
			bench_run_cell(&eng, cs, nc, &cell, res);
			for (int i = 0; i < nc; i++) {
				mg_out *q = &out[(size_t)(dt * o->nshapes + si) * (size_t)nc + (size_t)i];
				q->r = res[i];
				q->same = sd[i].same;
				snprintf(q->note, sizeof q->note, "%s", q->same == 0 || q->same == -1 ? sd[i].det_why : cs[i].why);
				/* The engine clears why before the checked run: the block dimension again. */
				if (sd[i].spec.xt && q->r.status == BENCH_OK)
					snprintf(q->note, sizeof q->note, "block dimension %d", sd[i].hm.xt_block);
			}
		}
	mg_write_report(&rep, o, cs, sd, nc, out, ndev);
	bench_report_finish(&rep);
	rc = rep.failed || eng.failed;
done:
	free(out);
	for (int i = 0; i < nc; i++)
		hm_side_free(&sd[i].hm);
	return rc;
}

#else /* no CUDA in this build */

int bench_run_multi(const bench_opts *o)
{
	cli_error(CMD, "--suite %s: gemmkit bench was built without CUDA and cuBLAS", o->suite->name);
	return 1;
}
#endif /* GK_BENCH_CUDA */
