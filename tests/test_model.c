/*
 * test_model.c - the PHVM time-cost model (src/model/hxv_model.c) without a
 * GPU: the seed's own worked configurations (its Tables 3 and 4: GS(136)/
 * BS(512) on the RTX 2080 Ti, GS(864)/BS(256) on the A100, for MTX1-3),
 * the constraints (2)-(4), the two cases (9) and (10), the printed reading
 * of (10), the extension, and the rank correlation.
 */
#include <math.h>
#include <stdio.h>
#include "test_util.h"
#include "../src/model/hxv_model.h"

static void check_choice(const gk_hxv_device *d, int64_t mn, int want_gs, int want_bs)
{
	gk_hxv_config t[128];
	int bp = -1, be = -1;
	const int cnt = gk_hxv_model_table(d, mn, mn, 30000000, 4, t, 128, &bp, &be);
	TU_CHECK(cnt > 0 && cnt <= 128, "%s: table of %d", d->name, cnt);
	TU_CHECK(bp >= 0 && t[bp].gs == want_gs && t[bp].bs == want_bs,
	         "%s M = N = %lld: chosen GS(%d)/BS(%d), the seed's GS(%d)/BS(%d)", d->name,
	         (long long)mn, bp >= 0 ? t[bp].gs : -1, bp >= 0 ? t[bp].bs : -1, want_gs, want_bs);
	TU_CHECK(be >= 0 && be < cnt, "%s: extension's choice %d", d->name, be);
	int adm = 0;
	for (int i = 0; i < cnt && i < 128; i++) {
		adm += t[i].admissible;
		if (t[i].admissible) {
			TU_CHECK((int64_t)t[i].gs * t[i].bs == (int64_t)d->threads_per_sm * d->sm_count,
			         "(2) at %d/%d", t[i].gs, t[i].bs);
			TU_CHECK(t[i].bs % d->warp_size == 0 && d->threads_per_sm % t[i].bs == 0,
			         "(3), (4) at %d/%d", t[i].gs, t[i].bs);
			TU_CHECK(t[i].paper_case == 2, "(10) applies at full occupancy, %d/%d", t[i].gs, t[i].bs);
		}
		TU_CHECK(t[i].t_paper > 0 && t[i].t_ext > 0 && isfinite(t[i].t_paper) && isfinite(t[i].t_ext),
		         "positive, finite times at %d/%d", t[i].gs, t[i].bs);
	}
	/* 2080 Ti: BS 64..1024 (16 blocks per SM at most); A100: 64..1024. */
	TU_CHECK(adm == 5, "%s: %d admissible configurations, 5 expected", d->name, adm);
}

int main(void)
{
	gk_hxv_device ti, a100;
	gk_hxv_device_rtx2080ti(&ti);
	gk_hxv_device_a100(&a100);

	/* Tables 3 and 4, MTX1-3 (M = N = 5, 7, 9; K = 3e7). */
	for (int64_t mn = 5; mn <= 9; mn += 2) {
		check_choice(&ti, mn, 136, 512);
		check_choice(&a100, mn, 864, 256);
	}
	/* The choice does not depend on k along the admissible set. */
	int gs = 0, bs = 0;
	TU_CHECK(gk_hxv_model_choose(&a100, 3, 3, 50000000, &gs, &bs) == 0 && gs == 864 && bs == 256,
	         "A100 MTXA: %d/%d", gs, bs);
	TU_CHECK(gk_hxv_model_choose(&ti, 7, 7, 2000000000, &gs, &bs) == 0 && gs == 136 && bs == 512,
	         "2080 Ti MTXC: %d/%d", gs, bs);

	/* Equation (10) as printed picks the largest block on both devices. */
	gk_hxv_config t[128];
	int bp = -1;
	gk_hxv_model_table_ex(&ti, GK_HXV_READ_PRINTED, 5, 5, 30000000, 4, t, 128, &bp, NULL);
	TU_CHECK(bp >= 0 && t[bp].bs == 1024 && t[bp].gs == 68, "printed (10), 2080 Ti: %d/%d",
	         bp >= 0 ? t[bp].gs : -1, bp >= 0 ? t[bp].bs : -1);
	gk_hxv_model_table_ex(&a100, GK_HXV_READ_PRINTED, 5, 5, 30000000, 4, t, 128, &bp, NULL);
	TU_CHECK(bp >= 0 && t[bp].bs == 1024 && t[bp].gs == 216, "printed (10), A100: %d/%d",
	         bp >= 0 ? t[bp].gs : -1, bp >= 0 ? t[bp].bs : -1);

	/* Hand-computed value: A100, GS 864, BS 256, M = N = 1, K = 3e7 (text reading):
	 * t_prep = (3e7/221184 * 637 + 34.46 + ln 256 * 104.38) / 0.16,
	 * t = 32 t_prep + 27 * 669.46. */
	{
		const double tp = (3e7 / 221184.0 * 637.0 + 34.46 + log(256.0) * 104.38) / 0.16;
		const double want = 32.0 * tp + 27.0 * 669.46;
		int c = 0;
		const double got = gk_hxv_model_paper(&a100, GK_HXV_READ_TEXT, 1, 1, 30000000, 864, 256, &c);
		TU_CHECK(fabs(got - want) <= 1e-9 * want && c == 2, "A100 864/256: %.3f, %.3f expected", got, want);
		const double got25 = gk_hxv_model_paper(&a100, GK_HXV_READ_TEXT, 5, 5, 30000000, 864, 256, NULL);
		TU_CHECK(fabs(got25 - 25 * got) <= 1e-9 * got25, "(1): M N t_single_elem");
	}
	/* Case (9): small k, so that t_prep < CoreS/BS t_post. */
	{
		int c = 0;
		const double t1 = gk_hxv_model_paper(&a100, GK_HXV_READ_TEXT, 1, 1, 1000, 864, 256, &c);
		TU_CHECK(c == 1, "small k takes (9): case %d", c);
		const double tp = (1000 / 221184.0 * 637.0 + 34.46 + log(256.0) * 104.38) / 0.16;
		TU_CHECK(fabs(t1 - (tp + 864 * 669.46)) <= 1e-9 * t1, "(9): %.3f", t1);
	}
	/* Constraint checks. */
	TU_CHECK(gk_hxv_admissible(&a100, 864, 256), "864/256 admissible on the A100");
	TU_CHECK(!gk_hxv_admissible(&a100, 6912, 32), "BS 32 needs 64 blocks per SM: not admissible");
	TU_CHECK(!gk_hxv_admissible(&a100, 900, 256), "(2) violated: not admissible");
	TU_CHECK(!gk_hxv_admissible(&a100, 2764, 80), "(3) violated: not admissible");
	TU_CHECK(gk_hxv_cores_per_sm(8, 0) == 64 && gk_hxv_cores_per_sm(9, 0) == 128 &&
	         gk_hxv_cores_per_sm(7, 5) == 64 && gk_hxv_cores_per_sm(8, 6) == 128,
	         "cores per SM table");

	/* The extension: more bytes take longer; past the device's resident
	 * blocks the time does not fall; many blocks cost atomics. */
	{
		const double a = gk_hxv_model_ext(&a100, 5, 5, 30000000, 4, 864, 256);
		const double b = gk_hxv_model_ext(&a100, 9, 9, 30000000, 4, 864, 256);
		TU_CHECK(b > a, "extension: 9 x 9 above 5 x 5 (%g, %g)", b, a);
		const double few = gk_hxv_model_ext(&a100, 5, 5, 30000000, 4, 108, 64);
		TU_CHECK(few > a, "extension: one small block per SM is latency-bound (%g > %g)", few, a);
	}
	/* Bad input. */
	TU_CHECK(gk_hxv_model_table(&a100, 0, 5, 5, 4, NULL, 0, NULL, NULL) < 0, "m = 0 refused");
	TU_CHECK(gk_hxv_model_table(NULL, 5, 5, 5, 4, NULL, 0, NULL, NULL) < 0, "NULL device refused");

	/* Spearman's rank correlation. */
	{
		const double x[] = {1, 2, 3, 4, 5}, y[] = {10, 20, 30, 40, 50}, z[] = {5, 4, 3, 2, 1};
		const double w[] = {1, 1, 2, 2, 3};
		TU_CHECK(fabs(gk_hxv_rank_correlation(x, y, 5) - 1) < 1e-12, "rho = 1");
		TU_CHECK(fabs(gk_hxv_rank_correlation(x, z, 5) + 1) < 1e-12, "rho = -1");
		const double r = gk_hxv_rank_correlation(x, w, 5);
		TU_CHECK(r > 0.9 && r < 1, "ties: rho = %g", r);
	}
	/* Without a GPU, the measuring calls say so. */
	gk_hxv_device d;
	const gk_status st = gk_hxv_device_query(-1, 0, &d);
	TU_CHECK(st == GK_OK || st == GK_ERR_NO_GPU || st == GK_ERR_CUDA, "query: %d", st);
	return tu_finish("test_model");
}
