/*
 * hm_plan.c - the tile planner of the out-of-core driver (hm_plan.h says
 * what a plan is). Plain C: built with and without CUDA, tested on the CPU
 * (tests/test_hostmem_plan.c).
 *
 * The search: for each order (A outer, B outer) and each candidate tile
 * size along m, n and k (a block count q = 1, 2, 3, ... and the sizes
 * ceil(x / q) rounded up to a granule), the slots that fit the budget and
 * the cost model's time; the cheapest plan wins. The depth is cut only when
 * no plan with whole-k pieces fits. The launcher's workspace reserve is
 * kept beside the tiles where any fit so; else it is dropped and the tiles
 * alone fill the budget. The chosen plan's steps are then
 * simulated (Belady's rule over the known sequence) to give each piece its
 * slot and the exact traffic.
 */
#include "hm_plan.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gk_internal.h"

#define STEP_OVERHEAD_S 30e-6 /* launch and event bookkeeping of one step */
#define MAX_STEPS ((int64_t)1 << 22)

static int64_t cdiv(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

static int64_t granule_of(int64_t x, int64_t min_tile)
{
	if (min_tile > 0)
		return min_tile;
	return x >= 2048 ? 128 : 16;
}

/* Candidate tile sizes along a dimension of x: ceil(x / q) rounded up to the
 * granule, for q = 1 .. 16, then doubling; ascending block counts. */
static int candidates(int64_t x, int64_t g, int64_t *out, int max)
{
	int n = 0;
	int64_t last = -1;
	for (int64_t q = 1; n < max; q = q < 16 ? q + 1 : q * 2) {
		int64_t t = cdiv(cdiv(x, q), g) * g;
		if (t > x)
			t = x;
		if (t < 1)
			t = 1;
		if (t != last)
			out[n++] = last = t;
		if (t <= g || t <= 1)
			break;
	}
	return n;
}

/* Efficiency of the launcher on a tile side of x elements (a rough model:
 * large tiles run at the device's rate, small ones lose to tails and
 * launch costs). */
static double side_eff(int64_t x, double half)
{
	return (double)x / ((double)x + half);
}

/* The share of the link's rate a 2D copy of lines of w bytes reaches. */
static double link_eff(double w)
{
	return w / (w + 1024.0);
}

typedef struct cand {
	int b_outer;
	int64_t mt, nt, kt;
	int na, nbs, nc;
	size_t slot_a, slot_b, slot_c, ws, bytes;
	double est;
} cand;

/*
 * The cost of one candidate, or 0 when it does not fit. "Outer" is the
 * operand whose panel stays through a sweep, "inner" the other one; the
 * estimate of the traffic is the serpentine order's (the simulation of the
 * chosen plan gives the exact one).
 */
static int evaluate(const gk_hm_params *p, int b_outer, int64_t mt, int64_t nt, int64_t kt, cand *c)
{
	const double es = (double)p->esize;
	const int64_t mb = cdiv(p->m, mt), nb = cdiv(p->n, nt), kb = cdiv(p->k, kt);
	const int64_t ob = b_outer ? nb : mb, ib = b_outer ? mb : nb; /* outer / inner blocks */
	const size_t sa = (size_t)mt * (size_t)kt * p->esize, sb = (size_t)kt * (size_t)nt * p->esize;
	const size_t sc = (size_t)mt * (size_t)nt * p->esize;
	const size_t so = b_outer ? sb : sa, si = b_outer ? sa : sb;
	const int64_t opieces = ob * kb, ipieces = ib * kb;
	const int nc = mb * nb > 1 ? 2 : 1;
	const size_t ws = (size_t)(p->ws_factor * (double)(sa + sb + sc)) + p->ws_fixed;
	/* Outer slots: a whole panel (kb pieces) and one more, else two. */
	int no = opieces == 1 ? 1 : 2;
	int panel_resident = kb == 1;
	if (kb > 1 && opieces > 2) {
		int64_t want = kb + 1 < opieces ? kb + 1 : opieces;
		if (want <= 64 && (size_t)want * so + 2 * si + nc * sc + ws <= p->budget) {
			no = (int)want;
			panel_resident = 1;
		}
	}
	const size_t fixed = (size_t)no * so + (size_t)nc * sc + ws;
	if (fixed + si > p->budget)
		return 0;
	int64_t ni = (int64_t)((p->budget - fixed) / si);
	if (ni > ipieces)
		ni = ipieces;
	if (ni > 4096)
		ni = 4096;
	if (ni < 2 && ipieces > 1)
		return 0;
	/* Traffic (bytes) of the order. */
	const double a_all = (double)p->m * (double)p->k * es, b_all = (double)p->k * (double)p->n * es;
	const double o_all = b_outer ? b_all : a_all, i_all = b_outer ? a_all : b_all;
	double o_bytes = panel_resident ? o_all : o_all * (double)ib;
	double i_loads;
	if (ni >= ipieces)
		i_loads = (double)ipieces;
	else
		i_loads = (double)ipieces + (double)(ob - 1) * (double)(ipieces - (ni - 1));
	const double i_bytes = i_all * i_loads / (double)ipieces;
	const double c_bytes = (double)p->m * (double)p->n * es;
	const double bw = p->link_bps > 0 ? p->link_bps : 50e9;
	const double rate = p->flops > 0 ? p->flops : 40e12;
	const double h2d = o_bytes + i_bytes + (p->beta_nonzero ? c_bytes : 0);
	const double flops = 2.0 * (double)p->m * (double)p->n * (double)p->k;
	const double half = p->side_half > 0 ? p->side_half : 128;
	const double eff = side_eff(mt < p->m ? mt : p->m, half) * side_eff(nt < p->n ? nt : p->n, half) *
	                   side_eff(kt < p->k ? kt : p->k, 32);
	const double steps = (double)mb * (double)nb * (double)kb;
	/* Strided copies of short lines run below the link's rate. */
	const double wa = (double)(p->a_col_lines ? mt : kt) * es, wb = (double)(p->b_col_lines ? kt : nt) * es;
	const double wc = (double)nt * es;
	const double ea = link_eff(wa), eb = link_eff(wb), ec = link_eff(wc);
	const double o_eff = b_outer ? eb : ea, i_eff = b_outer ? ea : eb;
	double t = (o_bytes / o_eff + i_bytes / i_eff + (p->beta_nonzero ? c_bytes / ec : 0)) / bw;
	if (c_bytes / ec / bw > t)
		t = c_bytes / ec / bw;
	if (flops / (rate * eff) > t)
		t = flops / (rate * eff);
	/* What cannot overlap: the first step's loads (of its pieces, the
	 * first part: gk_hm_first_parts) and the last tile's drain; with one
	 * step, everything. */
	const double parts = (double)gk_hm_first_parts(kt < p->k ? kt : p->k);
	const double first = ((double)(sa + sb) / parts + (p->beta_nonzero ? (double)sc : 0)) / bw;
	const double last = (double)sc / bw;
	t += steps > 1 ? (p->first_hidden ? 0 : first) + last : h2d / bw + c_bytes / bw;
	t += steps * STEP_OVERHEAD_S;
	c->b_outer = b_outer;
	c->mt = mt, c->nt = nt, c->kt = kt;
	c->na = b_outer ? (int)ni : no;
	c->nbs = b_outer ? no : (int)ni;
	c->nc = nc;
	c->slot_a = sa, c->slot_b = sb, c->slot_c = sc, c->ws = ws;
	c->bytes = (size_t)c->na * sa + (size_t)c->nbs * sb + (size_t)nc * sc + ws;
	c->est = t;
	return steps <= (double)MAX_STEPS;
}

/* Slots of one operand by Belady's rule: the piece used furthest ahead
 * leaves; never the slot of the previous step. */
typedef struct slots {
	int n;
	int64_t *key, *next; /* the piece in each slot and the step that uses it next */
} slots;

static int use_slot(slots *s, int64_t key, int64_t next, int prev, uint8_t *load)
{
	for (int q = 0; q < s->n; q++)
		if (s->key[q] == key) {
			s->next[q] = next;
			*load = 0;
			return q;
		}
	int best = -1;
	for (int q = 0; q < s->n; q++) {
		if (q == prev && s->n > 1)
			continue;
		if (s->key[q] < 0) {
			best = q;
			break;
		}
		if (best < 0 || s->next[q] > s->next[best])
			best = q;
	}
	s->key[best] = key;
	s->next[best] = next;
	*load = 1;
	return best;
}

/* Next use of each step's piece: nxt[t] = the next step with the same key. */
static int next_uses(const int64_t *keys, int64_t nsteps, int64_t nkeys, int64_t *nxt)
{
	int64_t *seen = malloc((size_t)nkeys * sizeof *seen);
	if (seen == NULL)
		return -1;
	for (int64_t q = 0; q < nkeys; q++)
		seen[q] = INT64_MAX;
	for (int64_t t = nsteps - 1; t >= 0; t--) {
		nxt[t] = seen[keys[t]];
		seen[keys[t]] = t;
	}
	free(seen);
	return 0;
}

static gk_status build_steps(const gk_hm_params *p, gk_hm_plan *pl)
{
	const int64_t mb = pl->mb, nb = pl->nb, kb = pl->kb, T = mb * nb * kb;
	gk_hm_step *st = calloc((size_t)T, sizeof *st);
	int64_t *ka = malloc((size_t)T * sizeof *ka), *kbk = malloc((size_t)T * sizeof *kbk);
	int64_t *na = malloc((size_t)T * sizeof *na), *nbn = malloc((size_t)T * sizeof *nbn);
	int64_t *sk = malloc(((size_t)pl->na + (size_t)pl->nbs) * 2 * sizeof *sk);
	gk_status rc = GK_OK;
	if (!st || !ka || !kbk || !na || !nbn || !sk) {
		rc = gk_set_error(GK_ERR_NO_MEMORY, "gk_%cgemm: out of host memory for the tile plan",
		                  p->esize == 8 ? 'd' : 's');
		goto out;
	}
	int64_t t = 0, u = 0;
	const int64_t ob = pl->b_outer ? nb : mb, ib = pl->b_outer ? mb : nb;
	for (int64_t o = 0; o < ob; o++)
		for (int64_t q = 0; q < ib; q++, u++) {
			const int64_t in = (o & 1) ? ib - 1 - q : q;
			const int64_t i = pl->b_outer ? in : o, j = pl->b_outer ? o : in;
			for (int64_t kk = 0; kk < kb; kk++, t++) {
				st[t].i = (int32_t)i, st[t].j = (int32_t)j, st[t].kk = (int32_t)kk;
				st[t].c_slot = (int16_t)(u % pl->nc);
				st[t].c_first = kk == 0;
				st[t].c_last = kk == kb - 1;
				ka[t] = i * kb + kk;
				kbk[t] = kk * nb + j;
			}
		}
	if (next_uses(ka, T, mb * kb, na) != 0 || next_uses(kbk, T, kb * nb, nbn) != 0) {
		rc = gk_set_error(GK_ERR_NO_MEMORY, "gk_%cgemm: out of host memory for the tile plan",
		                  p->esize == 8 ? 'd' : 's');
		goto out;
	}
	slots sa = {pl->na, sk, sk + pl->na}, sb = {pl->nbs, sk + 2 * pl->na, sk + 2 * pl->na + pl->nbs};
	for (int q = 0; q < pl->na; q++)
		sa.key[q] = -1;
	for (int q = 0; q < pl->nbs; q++)
		sb.key[q] = -1;
	pl->loads_a = pl->loads_b = 0;
	double h2d = 0;
	const double es = (double)p->esize;
	for (t = 0; t < T; t++) {
		const int pa = t > 0 ? st[t - 1].a_slot : -1, pb = t > 0 ? st[t - 1].b_slot : -1;
		st[t].a_slot = (int16_t)use_slot(&sa, ka[t], na[t], pa, &st[t].a_load);
		st[t].b_slot = (int16_t)use_slot(&sb, kbk[t], nbn[t], pb, &st[t].b_load);
		const double rows = (double)gk_hm_extent(pl->m, pl->mt, st[t].i);
		const double cols = (double)gk_hm_extent(pl->n, pl->nt, st[t].j);
		const double dep = (double)gk_hm_extent(pl->k, pl->kt, st[t].kk);
		if (st[t].a_load)
			pl->loads_a++, h2d += rows * dep * es;
		if (st[t].b_load)
			pl->loads_b++, h2d += dep * cols * es;
		if (st[t].c_first && p->beta_nonzero)
			h2d += rows * cols * es;
	}
	pl->h2d_bytes = h2d;
	pl->d2h_bytes = (double)pl->m * (double)pl->n * es;
	pl->nsteps = T;
	pl->steps = st;
	st = NULL;
out:
	free(st);
	free(ka);
	free(kbk);
	free(na);
	free(nbn);
	free(sk);
	return rc;
}

/* The cheapest candidate under p (whole-k pieces first; the depth is cut
 * only when none fits): 1 when one fits. */
static int search(const gk_hm_params *p, cand *best)
{
	enum { MAXC = 48 };
	int64_t cm[MAXC], cn[MAXC], ck[MAXC];
	const int nm = candidates(p->m, granule_of(p->m, p->min_tile), cm, MAXC);
	const int nn = candidates(p->n, granule_of(p->n, p->min_tile), cn, MAXC);
	const int nk = candidates(p->k, granule_of(p->k, p->min_tile), ck, MAXC);
	cand c;
	int found = 0;
	for (int ik = 0; ik < nk && !found; ik++)
		for (int bo = 0; bo < 2; bo++) {
			if ((p->force_outer == 1 && bo == 1) || (p->force_outer == 2 && bo == 0))
				continue;
			for (int im = 0; im < nm; im++)
				for (int in = 0; in < nn; in++)
					if (evaluate(p, bo, cm[im], cn[in], ck[ik], &c) &&
					    (!found || c.est < best->est * (1 - 1e-9))) {
						*best = c;
						found = 1;
					}
		}
	return found;
}

gk_status gk_hm_plan_make(const gk_hm_params *p, gk_hm_plan *pl)
{
	memset(pl, 0, sizeof *pl);
	GK_RETURN_IF(p->m < 1 || p->n < 1 || p->k < 1 || (p->esize != 4 && p->esize != 8), GK_ERR_INVALID_VALUE,
	             "gk_hm_plan_make: m, n, k must be >= 1 and the element 4 or 8 bytes");
	cand best = {0};
	/* The launcher's workspace reserved beside the tiles (any tile size);
	 * where no tiles fit beside it, the tiles alone within the budget and
	 * the workspace left to the launcher (best effort). */
	int reserved = 1;
	int found = search(p, &best);
	if (!found && (p->ws_factor > 0 || p->ws_fixed > 0)) {
		gk_hm_params q = *p;
		q.ws_factor = 0;
		q.ws_fixed = 0;
		found = search(&q, &best);
		reserved = 0;
	}
	GK_RETURN_IF(!found, GK_ERR_UNSUPPORTED,
	             "gk_%cgemm: a device budget of %.3g MiB holds no tiles of this %lld x %lld x %lld product",
	             p->esize == 8 ? 'd' : 's', (double)p->budget / 1048576.0, (long long)p->m, (long long)p->n, (long long)p->k);
	pl->m = p->m, pl->n = p->n, pl->k = p->k, pl->esize = p->esize;
	pl->mt = best.mt, pl->nt = best.nt, pl->kt = best.kt;
	pl->mb = cdiv(p->m, best.mt), pl->nb = cdiv(p->n, best.nt), pl->kb = cdiv(p->k, best.kt);
	pl->b_outer = best.b_outer;
	pl->na = best.na, pl->nbs = best.nbs, pl->nc = best.nc;
	pl->slot_a = best.slot_a, pl->slot_b = best.slot_b, pl->slot_c = best.slot_c;
	pl->workspace = best.ws;
	pl->ws_reserved = reserved;
	pl->device_bytes = best.bytes;
	pl->est_s = best.est;
	return build_steps(p, pl);
}

void gk_hm_plan_free(gk_hm_plan *pl)
{
	if (pl == NULL)
		return;
	free(pl->steps);
	pl->steps = NULL;
	pl->nsteps = 0;
}

/* One dimension cut into about `parts` blocks of e, a multiple of 128 when
 * it is less than the whole, g of them (the last ragged). */
static void unit_parts(int64_t total, int64_t parts, int64_t *e, int64_t *g)
{
	int64_t ee = (total + parts - 1) / parts;
	if (ee < total)
		ee = (ee + 127) / 128 * 128;
	if (ee > total)
		ee = total;
	*e = ee;
	*g = (total + ee - 1) / ee;
}

/* One dimension of the unit grid: blocks of at most about edge. */
static void unit_dim(int64_t total, int64_t edge, int64_t *e, int64_t *g)
{
	unit_parts(total, (total + edge - 1) / edge, e, g);
}

void gk_hm_unit_grid(int64_t m, int64_t n, int64_t edge, int64_t *um, int64_t *un, int64_t *gm,
                     int64_t *gn)
{
	if (edge > 0) {
		*um = edge < m ? edge : m;
		*un = edge < n ? edge : n;
		*gm = (m + *um - 1) / *um;
		*gn = (n + *un - 1) / *un;
		return;
	}
	int64_t e = 16384;
	for (;;) {
		unit_dim(m, e, um, gm);
		unit_dim(n, e, un, gn);
		if (*gm * *gn >= 4 || e <= 2048)
			return;
		e /= 2;
	}
}

void gk_hm_unit_grid_for(int64_t m, int64_t n, int64_t k, int workers, int64_t *um, int64_t *un,
                         int64_t *gm, int64_t *gn)
{
	if (workers < 1)
		workers = 1;
	double best_traffic = 0;
	int64_t best_units = 0;
	for (int64_t rows = 1; rows <= workers; rows++) {
		if (workers % rows != 0)
			continue;
		int64_t e1, g1, e2, g2;
		unit_parts(m, rows, &e1, &g1);
		unit_parts(n, workers / rows, &e2, &g2);
		/* A is read once per column of units, B once per row of units;
		 * on a tie, more rows (contiguous blocks of row-major A and C). */
		const double traffic = (double)g2 * (double)m * (double)k + (double)g1 * (double)k * (double)n;
		const int64_t units = g1 * g2;
		if (units > best_units || (units == best_units && traffic <= best_traffic)) {
			best_units = units;
			best_traffic = traffic;
			*um = e1, *gm = g1, *un = e2, *gn = g2;
		}
	}
}
