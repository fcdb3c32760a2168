/*
 * test_hostmem_plan.c - the tile planner of the out-of-core driver
 * (src/cuda/hostmem/hm_plan.c), on the CPU: for many shapes and budgets,
 * the plan fits its budget, covers every (row block, column block, depth
 * chunk) exactly once with the depth chunks of a C tile consecutive, never
 * reads a slot that does not hold the piece the step needs, never loads
 * into the slot the previous step computes with, and reads each operand
 * once where the budget holds it. Prints the plans of the large products
 * (65536^2, N = 90000 on an 80 GB device, budgets of 1/2 .. 1/8 of the
 * data) that docs/CUDA_HOSTMEM.md quotes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"
#include "../src/cuda/hostmem/hm_plan.h"

static void check_plan(const gk_hm_params *p, const gk_hm_plan *pl, const char *what)
{
	TU_CHECK(pl->device_bytes <= p->budget, "%s: %zu bytes > budget %zu", what, pl->device_bytes, p->budget);
	TU_CHECK(pl->mt >= 1 && pl->nt >= 1 && pl->kt >= 1, "%s: tiles", what);
	TU_CHECK(pl->mb == (p->m + pl->mt - 1) / pl->mt && pl->nb == (p->n + pl->nt - 1) / pl->nt &&
	         pl->kb == (p->k + pl->kt - 1) / pl->kt, "%s: block counts", what);
	TU_CHECK(pl->nsteps == pl->mb * pl->nb * pl->kb, "%s: %lld steps", what, (long long)pl->nsteps);
	TU_CHECK((size_t)pl->na * pl->slot_a + (size_t)pl->nbs * pl->slot_b + (size_t)pl->nc * pl->slot_c +
	         pl->workspace == pl->device_bytes, "%s: bytes add up", what);
	TU_CHECK(pl->slot_a >= (size_t)pl->mt * pl->kt * p->esize && pl->slot_b >= (size_t)pl->kt * pl->nt * p->esize &&
	         pl->slot_c >= (size_t)pl->mt * pl->nt * p->esize, "%s: slot sizes", what);
	const int64_t T = pl->nsteps;
	char *seen = calloc((size_t)T, 1);
	int64_t *ha = malloc((size_t)pl->na * sizeof *ha), *hb = malloc((size_t)pl->nbs * sizeof *hb);
	TU_CHECK(seen && ha && hb, "alloc");
	if (!seen || !ha || !hb)
		exit(1);
	for (int q = 0; q < pl->na; q++)
		ha[q] = -1;
	for (int q = 0; q < pl->nbs; q++)
		hb[q] = -1;
	int64_t loads_a = 0, loads_b = 0, tiles = 0, bad = 0;
	double h2d = 0;
	int prev_c = -1;
	for (int64_t t = 0; t < T && bad < 5; t++) {
		const gk_hm_step *s = &pl->steps[t];
		if (s->i < 0 || s->i >= pl->mb || s->j < 0 || s->j >= pl->nb || s->kk < 0 || s->kk >= pl->kb ||
		    s->a_slot < 0 || s->a_slot >= pl->na || s->b_slot < 0 || s->b_slot >= pl->nbs || s->c_slot < 0 ||
		    s->c_slot >= pl->nc) {
			TU_CHECK(0, "%s: step %lld out of range", what, (long long)t);
			bad++;
			continue;
		}
		const int64_t id = ((int64_t)s->i * pl->nb + s->j) * pl->kb + s->kk;
		if (seen[id]++) {
			TU_CHECK(0, "%s: step %lld repeats a tile", what, (long long)t);
			bad++;
		}
		/* Depth chunks of a tile in a row, first and last marked. */
		if (s->kk > 0) {
			const gk_hm_step *q = &pl->steps[t - 1];
			if (t == 0 || q->i != s->i || q->j != s->j || q->kk != s->kk - 1 || q->c_slot != s->c_slot) {
				TU_CHECK(0, "%s: step %lld: depth chunks apart", what, (long long)t);
				bad++;
			}
		}
		TU_CHECK(s->c_first == (s->kk == 0) && s->c_last == (s->kk == pl->kb - 1), "%s: first/last", what);
		if (s->c_first) {
			if (pl->nc > 1 && prev_c == s->c_slot) {
				TU_CHECK(0, "%s: step %lld: C tile in the previous tile's slot", what, (long long)t);
				bad++;
			}
			prev_c = s->c_slot;
			tiles++;
		}
		const int64_t ka = (int64_t)s->i * pl->kb + s->kk, kbk = (int64_t)s->kk * pl->nb + s->j;
		const int pa = t > 0 ? pl->steps[t - 1].a_slot : -1, pb = t > 0 ? pl->steps[t - 1].b_slot : -1;
		if (s->a_load) {
			if (pl->na > 1 && s->a_slot == pa && ha[s->a_slot] != ka) {
				TU_CHECK(0, "%s: step %lld loads A into the slot in use", what, (long long)t);
				bad++;
			}
			ha[s->a_slot] = ka;
			loads_a++;
			h2d += (double)gk_hm_extent(p->m, pl->mt, s->i) * (double)gk_hm_extent(p->k, pl->kt, s->kk);
		} else if (ha[s->a_slot] != ka) {
			TU_CHECK(0, "%s: step %lld reads A slot %d without its piece", what, (long long)t, s->a_slot);
			bad++;
		}
		if (s->b_load) {
			if (pl->nbs > 1 && s->b_slot == pb && hb[s->b_slot] != kbk) {
				TU_CHECK(0, "%s: step %lld loads B into the slot in use", what, (long long)t);
				bad++;
			}
			hb[s->b_slot] = kbk;
			loads_b++;
			h2d += (double)gk_hm_extent(p->k, pl->kt, s->kk) * (double)gk_hm_extent(p->n, pl->nt, s->j);
		} else if (hb[s->b_slot] != kbk) {
			TU_CHECK(0, "%s: step %lld reads B slot %d without its piece", what, (long long)t, s->b_slot);
			bad++;
		}
		if (s->c_first && p->beta_nonzero)
			h2d += (double)gk_hm_extent(p->m, pl->mt, s->i) * (double)gk_hm_extent(p->n, pl->nt, s->j);
	}
	for (int64_t t = 0; t < T && !bad; t++)
		if (!seen[t]) {
			TU_CHECK(0, "%s: tile %lld never computed", what, (long long)t);
			break;
		}
	TU_CHECK(tiles == pl->mb * pl->nb, "%s: %lld C tiles", what, (long long)tiles);
	TU_CHECK(loads_a == pl->loads_a && loads_b == pl->loads_b, "%s: load counts", what);
	TU_CHECK(h2d * (double)p->esize == pl->h2d_bytes, "%s: traffic %.0f vs %.0f", what, h2d * (double)p->esize,
	         pl->h2d_bytes);
	/* Every piece at least once; each exactly once where all fit. */
	TU_CHECK(loads_a >= pl->mb * pl->kb && loads_b >= pl->kb * pl->nb, "%s: pieces missing", what);
	const double all = ((double)p->m * p->k + (double)p->k * p->n + (double)p->m * p->n) * (double)p->esize;
	if ((double)p->budget >= 3 * all + p->ws_fixed + 1e6 && p->ws_factor == 0)
		TU_CHECK(loads_a == pl->mb * pl->kb && loads_b == pl->kb * pl->nb,
		         "%s: a budget of 3x the data reads A %lld / %lld, B %lld / %lld pieces", what,
		         (long long)loads_a, (long long)(pl->mb * pl->kb), (long long)loads_b,
		         (long long)(pl->kb * pl->nb));
	if (pl->kb == 1)
		TU_CHECK(pl->b_outer ? loads_b == pl->nb : loads_a == pl->mb, "%s: outer panels read more than once",
		         what);
	free(seen);
	free(ha);
	free(hb);
}

static void one(int64_t m, int64_t n, int64_t k, size_t es, int beta, size_t budget, int64_t min_tile, int outer)
{
	gk_hm_params p = {.m = m, .n = n, .k = k, .esize = es, .beta_nonzero = beta, .budget = budget,
	                  .min_tile = min_tile, .force_outer = outer};
	gk_hm_plan pl;
	char what[128];
	snprintf(what, sizeof what, "%lldx%lldx%lld es=%zu beta=%d budget=%zu outer=%d", (long long)m, (long long)n,
	         (long long)k, es, beta, budget, outer);
	gk_status st = gk_hm_plan_make(&p, &pl);
	TU_CHECK(st == GK_OK, "%s: status %d (%s)", what, st, gk_last_error());
	if (st == GK_OK)
		check_plan(&p, &pl, what);
	gk_hm_plan_free(&pl);
}

static void show(const char *label, int64_t n, size_t es, size_t budget, double ws_factor)
{
	gk_hm_params p = {.m = n, .n = n, .k = n, .esize = es, .budget = budget, .ws_factor = ws_factor,
	                  .ws_fixed = (size_t)256 << 20, .link_bps = 55e9};
	gk_hm_plan pl;
	if (gk_hm_plan_make(&p, &pl) != GK_OK) {
		printf("%-34s no plan: %s\n", label, gk_last_error());
		return;
	}
	check_plan(&p, &pl, label);
	const double data = 3.0 * (double)n * (double)n * (double)es;
	printf("%-34s tiles %lld x %lld x %lld (%lld x %lld x %lld), %s outer, slots A %d B %d C %d, "
	       "%.1f GB on the device; in %.1f GB (%.2fx the operands), out %.1f GB; model %.2f s\n",
	       label, (long long)pl.mt, (long long)pl.nt, (long long)pl.kt, (long long)pl.mb, (long long)pl.nb,
	       (long long)pl.kb, pl.b_outer ? "B" : "A", pl.na, pl.nbs, pl.nc, (double)pl.device_bytes / 1e9,
	       pl.h2d_bytes / 1e9, pl.h2d_bytes / (data * 2 / 3), pl.d2h_bytes / 1e9, pl.est_s);
	gk_hm_plan_free(&pl);
}

/* The unit grid of multi-worker calls: it covers C exactly, its blocks
 * are multiples of 128 (but the last), and it depends on the shape only. */
static void unit_grid(int64_t m, int64_t n, int64_t edge, int64_t want_um, int64_t want_units)
{
	int64_t um, un, gm, gn;
	gk_hm_unit_grid(m, n, edge, &um, &un, &gm, &gn);
	TU_CHECK(um >= 1 && un >= 1 && um <= m && un <= n, "units of %lldx%lld: %lldx%lld", (long long)m,
	         (long long)n, (long long)um, (long long)un);
	TU_CHECK(gm * um >= m && (gm - 1) * um < m && gn * un >= n && (gn - 1) * un < n,
	         "units of %lldx%lld: %lld x %lld blocks of %lldx%lld do not cover C exactly", (long long)m,
	         (long long)n, (long long)gm, (long long)gn, (long long)um, (long long)un);
	if (edge == 0)
		TU_CHECK((um == m || um % 128 == 0) && (un == n || un % 128 == 0),
		         "units of %lldx%lld: %lldx%lld not multiples of 128", (long long)m, (long long)n,
		         (long long)um, (long long)un);
	if (want_um > 0)
		TU_CHECK(um == want_um, "units of %lldx%lld: rows %lld, want %lld", (long long)m, (long long)n,
		         (long long)um, (long long)want_um);
	if (want_units > 0)
		TU_CHECK(gm * gn == want_units, "units of %lldx%lld: %lld, want %lld", (long long)m, (long long)n,
		         (long long)(gm * gn), (long long)want_units);
}

/* The units of a call without the deterministic flag: one per worker (or
 * fewer, for a C too small), covering C exactly, the split with the least
 * host traffic. */
static void unit_grid_for(int64_t m, int64_t n, int64_t k, int workers, int64_t want_gm,
                          int64_t want_gn)
{
	int64_t um = -1, un = -1, gm = -1, gn = -1;
	gk_hm_unit_grid_for(m, n, k, workers, &um, &un, &gm, &gn);
	TU_CHECK(um >= 1 && un >= 1 && um <= m && un <= n && gm * gn <= workers,
	         "%lldx%lldx%lld on %d workers: %lld x %lld units of %lldx%lld", (long long)m, (long long)n,
	         (long long)k, workers, (long long)gm, (long long)gn, (long long)um, (long long)un);
	TU_CHECK(gm * um >= m && (gm - 1) * um < m && gn * un >= n && (gn - 1) * un < n,
	         "%lldx%lld on %d workers: %lld x %lld blocks of %lldx%lld do not cover C exactly",
	         (long long)m, (long long)n, workers, (long long)gm, (long long)gn, (long long)um,
	         (long long)un);
	TU_CHECK((um == m || um % 128 == 0) && (un == n || un % 128 == 0),
	         "%lldx%lld on %d workers: units of %lldx%lld not multiples of 128", (long long)m,
	         (long long)n, workers, (long long)um, (long long)un);
	TU_CHECK(gm == want_gm && gn == want_gn, "%lldx%lldx%lld on %d workers: %lld x %lld units, want %lld x %lld",
	         (long long)m, (long long)n, (long long)k, workers, (long long)gm, (long long)gn,
	         (long long)want_gm, (long long)want_gn);
}

int main(void)
{
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	/* Budgets from generous to a few tiles. */
	static const int64_t sizes[][3] = {{1, 1, 1},     {1, 300, 7},     {300, 1, 7},   {7, 5, 300},
	                                   {100, 100, 100}, {257, 129, 65}, {1000, 999, 1001}, {64, 4096, 64},
	                                   {4096, 64, 64}, {33, 33, 5000}, {3000, 17, 2000}};
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (int es = 4; es <= 8; es += 4)
			for (int beta = 0; beta < 2; beta++)
				for (int outer = 0; outer < 3; outer++) {
					const int64_t m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
					const size_t all = (size_t)(m * k + k * n + m * n) * (size_t)es;
					const size_t budgets[] = {4 * all + 4096, all / 2, all / 4, all / 8, all / 32};
					for (size_t b = 0; b < 5; b++) {
						gk_hm_params p = {.m = m, .n = n, .k = k, .esize = (size_t)es, .beta_nonzero = beta,
						                  .budget = budgets[b], .min_tile = 16, .force_outer = outer,
						                  .a_col_lines = (int)(s & 1), .b_col_lines = (int)((s >> 1) & 1)};
						gk_hm_plan pl;
						if (gk_hm_plan_make(&p, &pl) != GK_OK) {
							/* Too small for even 16 x 16 x 16 pieces: only then. */
							const size_t min = (size_t)(2 * 16 * 16 * 3 + 2 * 16 * 16) * (size_t)es;
							TU_CHECK(budgets[b] < 2 * min, "%lldx%lldx%lld budget %zu refused: %s", (long long)m,
							         (long long)n, (long long)k, budgets[b], gk_last_error());
							continue;
						}
						char what[96];
						snprintf(what, sizeof what, "%lldx%lldx%lld es=%d beta=%d budget=%zu outer=%d",
						         (long long)m, (long long)n, (long long)k, es, beta, budgets[b], outer);
						check_plan(&p, &pl, what);
						gk_hm_plan_free(&pl);
					}
				}
	/* Random shapes and budgets. */
	for (int it = 0; it < 300; it++) {
		const int64_t m = 1 + (int64_t)(tu_next(&r) % 3000), n = 1 + (int64_t)(tu_next(&r) % 3000);
		const int64_t k = 1 + (int64_t)(tu_next(&r) % 3000);
		const size_t es = (tu_next(&r) & 1) ? 8 : 4;
		const size_t all = (size_t)(m * k + k * n + m * n) * es;
		const size_t budget = 65536 + (size_t)(tu_next(&r) % (2 * all + 1));
		const int beta = (int)(tu_next(&r) & 1), acl = (int)(tu_next(&r) & 1), bcl = (int)(tu_next(&r) & 1);
		gk_hm_params p = {.m = m, .n = n, .k = k, .esize = es, .beta_nonzero = beta, .budget = budget,
		                  .min_tile = 16, .a_col_lines = acl, .b_col_lines = bcl};
		gk_hm_plan pl;
		if (gk_hm_plan_make(&p, &pl) == GK_OK) {
			check_plan(&p, &pl, "random");
			gk_hm_plan_free(&pl);
		}
	}
	/* The launcher's workspace reserve (the tensor-core launchers: 2x the
	 * pieces, 1/8 of the budget besides) never makes a budget impossible:
	 * wherever the tiles alone fit, a plan comes back, with the reserve
	 * when tiles fit beside it (ws_reserved) and without it otherwise. */
	{
		static const int64_t ws_sizes[][3] = {{33, 700, 65},  {1000, 999, 1001}, {300, 200, 2500}, {1, 513, 77},
		                                      {600, 1, 600},  {257, 129, 300},   {16, 16, 16},     {5000, 40, 70}};
		static const double fracs[] = {2.0, 0.33, 0.12, 0.035, 0.01};
		int dropped = 0, kept = 0;
		for (size_t s = 0; s < sizeof ws_sizes / sizeof ws_sizes[0]; s++)
			for (size_t f = 0; f < sizeof fracs / sizeof fracs[0]; f++)
				for (int beta = 0; beta < 2; beta++) {
					const int64_t m = ws_sizes[s][0], n = ws_sizes[s][1], k = ws_sizes[s][2];
					const size_t all = (size_t)(m * k + k * n + m * n) * 4;
					const size_t budget = (size_t)(fracs[f] * (double)all);
					gk_hm_params p = {.m = m, .n = n, .k = k, .esize = 4, .beta_nonzero = beta, .budget = budget,
					                  .a_col_lines = (int)(s & 1)};
					gk_hm_plan bare, ws;
					const gk_status st0 = gk_hm_plan_make(&p, &bare);
					p.ws_factor = 2.0;
					p.ws_fixed = budget / 8;
					const gk_status st1 = gk_hm_plan_make(&p, &ws);
					char what[128];
					snprintf(what, sizeof what, "%lldx%lldx%lld beta=%d budget %.3g of the data, tf32 workspace",
					         (long long)m, (long long)n, (long long)k, beta, fracs[f]);
					TU_CHECK(st1 == st0, "%s: status %d without the workspace, %d with it (%s)", what, st0, st1,
					         gk_last_error());
					if (st1 == GK_OK) {
						check_plan(&p, &ws, what);
						TU_CHECK(ws.ws_reserved ? ws.workspace >= p.ws_fixed : ws.workspace == 0,
						         "%s: workspace %zu, reserved %d", what, ws.workspace, ws.ws_reserved);
						dropped += !ws.ws_reserved;
						kept += ws.ws_reserved;
					}
					if (st0 == GK_OK)
						TU_CHECK(bare.ws_reserved && bare.workspace == 0, "%s: no reserve asked", what);
					gk_hm_plan_free(&bare);
					gk_hm_plan_free(&ws);
				}
		TU_CHECK(dropped > 0 && kept > 0, "workspace reserve: kept %d, dropped %d", kept, dropped);
		/* The case of test_cuda_hostmem: 33 x 700 x 65 at 0.035 of the data. */
		const size_t all = (size_t)(33 * 65 + 65 * 700 + 33 * 700) * 4;
		const size_t budget = (size_t)(0.035 * (double)all);
		gk_hm_params p = {.m = 33, .n = 700, .k = 65, .esize = 4, .beta_nonzero = 1, .budget = budget,
		                  .ws_factor = 2.0, .ws_fixed = budget / 8, .a_col_lines = 1};
		gk_hm_plan pl;
		const gk_status st = gk_hm_plan_make(&p, &pl);
		TU_CHECK(st == GK_OK, "33x700x65 at 0.035 with the tf32 workspace: %d (%s)", st, gk_last_error());
		if (st == GK_OK) {
			check_plan(&p, &pl, "33x700x65 tf32");
			TU_CHECK(!pl.ws_reserved, "33x700x65 tf32: the reserve cannot fit beside 16 x 16 x 16 tiles");
			gk_hm_plan_free(&pl);
		}
	}
	/* A budget too small for anything is refused with a message. */
	{
		gk_hm_params p = {.m = 1000, .n = 1000, .k = 1000, .esize = 4, .budget = 1024, .min_tile = 16};
		gk_hm_plan pl;
		TU_CHECK(gk_hm_plan_make(&p, &pl) == GK_ERR_UNSUPPORTED && strlen(gk_last_error()) > 0, "tiny budget");
	}
	one(5000, 5000, 5000, 4, 1, (size_t)64 << 20, 0, 0);
	one(8192, 8192, 65536, 4, 0, (size_t)256 << 20, 0, 0);
	/* The large products of docs/CUDA_HOSTMEM.md (78 GB free on an H100,
	 * the tensor-core launchers' workspace of 2x the pieces). */
	const size_t gb = 1000000000;
	const double d64 = 3.0 * 65536.0 * 65536.0 * 4;
	show("65536^2 f32, 75 GB", 65536, 4, 75 * gb, 0);
	show("65536^2 f32, 75 GB, tf32 workspace", 65536, 4, 75 * gb, 2);
	show("65536^2 f32, 1/2 of the data", 65536, 4, (size_t)(d64 / 2), 0);
	show("65536^2 f32, 1/4 of the data", 65536, 4, (size_t)(d64 / 4), 0);
	show("65536^2 f32, 1/8 of the data", 65536, 4, (size_t)(d64 / 8), 0);
	const double d32 = 3.0 * 32768.0 * 32768.0 * 4;
	show("32768^2 f32, 1/2 of the data", 32768, 4, (size_t)(d32 / 2), 0);
	show("32768^2 f32, 1/4 of the data", 32768, 4, (size_t)(d32 / 4), 0);
	show("32768^2 f32, 1/8 of the data", 32768, 4, (size_t)(d32 / 8), 0);
	show("90000^2 f32, 75 GB", 90000, 4, 75 * gb, 0);
	show("90000^2 f32, 75 GB, tf32 workspace", 90000, 4, 75 * gb, 2);
	show("65536^2 f64, 75 GB", 65536, 8, 75 * gb, 0);
	show("16384^2 f32, 75 GB", 16384, 4, 75 * gb, 0);
	unit_grid(65536, 65536, 0, 16384, 16);
	unit_grid(32768, 32768, 0, 16384, 4);
	unit_grid(16384, 16384, 0, 8192, 4);
	unit_grid(90000, 90000, 0, 15104, 36);
	unit_grid(4096, 4096, 0, 2048, 4);
	unit_grid(2000, 2000, 0, 2000, 1);
	unit_grid(1, 1, 0, 1, 1);
	unit_grid(1, 100000, 0, 1, 0);
	unit_grid(100000, 3, 0, 0, 0);
	unit_grid(4097, 129, 0, 0, 0);
	unit_grid(300, 257, 96, 96, 4 * 3);
	unit_grid(5, 7, 96, 5, 1);
	unit_grid_for(65536, 65536, 65536, 1, 1, 1);
	unit_grid_for(65536, 65536, 65536, 2, 2, 1);   /* a tie: the rows split */
	unit_grid_for(65536, 65536, 65536, 4, 2, 2);   /* 4 reads of an operand, not 5 */
	unit_grid_for(65536, 65536, 65536, 8, 4, 2);
	unit_grid_for(65536, 65536, 65536, 3, 3, 1);
	unit_grid_for(4096, 65536, 8192, 4, 1, 4);     /* B the larger: read once */
	unit_grid_for(65536, 4096, 8192, 4, 4, 1);
	unit_grid_for(100, 100000, 1000, 4, 1, 4);
	unit_grid_for(300, 200, 10, 3, 3, 1);          /* 300 rows: blocks of 128 */
	unit_grid_for(200, 200, 10, 4, 2, 2);          /* blocks of 128 and 72 */
	unit_grid_for(100, 100, 10, 4, 1, 1);          /* too small to split */
	unit_grid_for(1, 1, 5, 4, 1, 1);
	unit_grid_for(90000, 90000, 90000, 2, 2, 1);
	return tu_finish("test_hostmem_plan");
}
