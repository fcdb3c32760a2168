/*
 * sgemm_tuned.cu - the tuned SGEMM launcher (gk_cuda_sgemm_tuned, the
 * cuda.sgemm row: what "auto" runs for float on the GPU): the tile table,
 * the choice of tile and of split-K by problem shape, the load paths by
 * stride and alignment, and the split-K workspace.
 *
 * The kernel (sgemm_kernel.cuh) is one template; the configurations are
 * listed in sgemm_table.cuh and compiled one per sgemm_cfg_*.cu file.
 *
 * Choice. For every configuration and every split count S of K (1, or more
 * when the tiles of C do not fill the GPU), a cost model estimates the time:
 *   waves * (resident * BM * BN * (K/S + K_FIXED)) / eff
 * with waves = ceil(tiles * S / (resident * SMs)), resident the blocks one
 * SM holds, eff the measured relative FFMA rate of a full wave of that
 * configuration, K_FIXED the per-tile cost of the prologue and epilogue in
 * units of K, plus the bytes of A and B each tile streams (over a memory
 * rate) and, with S > 1, the reduction's bytes. The cheapest wins. The
 * model is deterministic: one shape always gets the same choice, hence the
 * same bits.
 *
 * Load paths. A is loaded with 16-byte copies when it is M-contiguous
 * (rs_a == 1), 16-byte aligned and cs_a % 4 == 0; B when it is N-contiguous
 * (cs_b == 1), aligned and rs_b % 4 == 0. Any other layout (the
 * K-contiguous operand, unaligned pointers or leading dimensions) takes the
 * 4-byte path, which transposes into shared memory on the fly; every
 * combination is correct. C is stored 16 bytes at a time when its pointer
 * and rs_c allow it, else element by element.
 *
 * Split-K. Split s computes its K range into its own m x n block of a
 * workspace taken with cudaMallocAsync on the stream (alpha = 1, beta = 0),
 * and sgemm_splitk.cu sums the blocks in split order and applies alpha and
 * beta, then the workspace is freed with cudaFreeAsync: deterministic, no
 * atomics, no device-wide synchronization.
 */
#include <stdint.h>
#include "sgemm_table.cuh"
#include "sgemm_splitk.cuh"

namespace gk_sg {

/* Measured on an H100 (sm_90): eff is the relative FFMA rate of a full wave
 * of each configuration; resident from the registers and shared memory of
 * each (ptxas -v). */
const cfg_info cfg_table[CFG_COUNT] = {
	/* bm   bn   bk  resident eff   run */
	{128, 128, 8, 2, 1.00, run_l},
	{128, 256, 8, 1, 1.00, run_h},
	{128, 64, 8, 3, 0.85, run_m},
	{64, 64, 32, 4, 0.60, run_s},
};

namespace {

constexpr double MAC_PER_S_SM = 2.4e11;  /* FP32 multiply-adds per second of one SM */
constexpr double BYTES_PER_S = 2.6e12;   /* device memory */
constexpr double K_FIXED = 48;           /* prologue + epilogue of a tile, in units of K */
constexpr double LAUNCH_S = 3e-6;        /* one more kernel launch */
constexpr int64_t MIN_K_SPLIT = 256;     /* elements of K per split, at least */
constexpr int64_t MAX_SPLITS = 4096;     /* well under gridDim.z's 65535 */
constexpr int64_t MAX_WS_BYTES = (int64_t)1 << 28;

struct choice {
	int cfg;
	int64_t splits, k_split;
};

int64_t cdiv(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

/* Round the split count to whole tiles of K, and K per split to BK. */
void fix_splits(int64_t k, int bk, int64_t *splits, int64_t *k_split)
{
	int64_t ks = cdiv(cdiv(k, *splits), bk) * bk;
	*k_split = ks;
	*splits = cdiv(k, ks);
}

double model(const cfg_info &c, int64_t m, int64_t n, int64_t k, int64_t splits, int64_t k_split,
             int sms)
{
	const int64_t tiles = cdiv(m, c.bm) * cdiv(n, c.bn);
	const int64_t slots = (int64_t)c.resident * sms;
	const int64_t waves = cdiv(tiles * splits, slots);
	const double per_block = (double)c.bm * c.bn * ((double)k_split + K_FIXED) /
	                         (c.eff * MAC_PER_S_SM / c.resident);
	double t = (double)waves * per_block;
	/* Memory: A and B streamed once per tile column / row, C written. */
	const double bytes = 4.0 * ((double)cdiv(n, c.bn) * m * k + (double)cdiv(m, c.bm) * n * k) +
	                     4.0 * m * n * (splits > 1 ? 2.0 * splits + 1 : 1);
	const double tm = bytes / BYTES_PER_S;
	if (tm > t)
		t = tm;
	if (splits > 1)
		t += LAUNCH_S + 2e-6; /* the reduction and the workspace */
	(void)k;
	return t;
}

choice choose(int64_t m, int64_t n, int64_t k, int sms)
{
	choice best = {CFG_L, 1, k};
	double best_t = 1e300;
	for (int ci = 0; ci < CFG_COUNT; ++ci) {
		const cfg_info &c = cfg_table[ci];
		const int64_t tiles = cdiv(m, c.bm) * cdiv(n, c.bn);
		const int64_t slots = (int64_t)c.resident * sms;
		/* Split counts: 1, and when the tiles fill less than two waves,
		 * enough splits to fill one to four waves. */
		int64_t cand[5] = {1, 0, 0, 0, 0};
		int nc = 1;
		if (tiles < 2 * slots && k >= 2 * MIN_K_SPLIT)
			for (int w = 1; w <= 4; ++w)
				cand[nc++] = cdiv(w * slots, tiles);
		for (int i = 0; i < nc; ++i) {
			int64_t s = cand[i], ks = k;
			if (s > 1) {
				if (s > k / MIN_K_SPLIT)
					s = k / MIN_K_SPLIT;
				if (s > MAX_SPLITS)
					s = MAX_SPLITS;
				if (s * m * n * 4 > MAX_WS_BYTES)
					s = MAX_WS_BYTES / (m * n * 4);
				if (s < 2)
					continue;
				fix_splits(k, c.bk, &s, &ks);
				if (s < 2)
					continue;
			}
			double t = model(c, m, n, k, s, ks, sms);
			if (t < best_t * 0.999) {
				best_t = t;
				best.cfg = ci;
				best.splits = s;
				best.k_split = ks;
			}
		}
	}
	return best;
}

} /* namespace */
} /* namespace gk_sg */

using namespace gk_sg;

gk_status gk_cuda_sgemm_tuned_with(const gk_cuda_sgemm_args *a, int cfg, int64_t splits)
{
	static const char *fn = "gk_cuda_sgemm_tuned";
	const int64_t m = a->m, n = a->n, k = a->k;
	cudaStream_t stream = (cudaStream_t)a->stream;
	int sms = a->sm_count > 0 ? a->sm_count : 1;

	choice ch = choose(m, n, k, sms);
	if (cfg >= 0 && cfg < CFG_COUNT)
		ch.cfg = cfg;
	if (splits >= 1 || cfg >= 0) {
		int64_t s = splits >= 1 ? splits : 1, ks = k;
		if (s > MAX_SPLITS)
			s = MAX_SPLITS;
		if (s > 1)
			fix_splits(k, cfg_table[ch.cfg].bk, &s, &ks);
		ch.splits = s;
		ch.k_split = ks;
	}
	const cfg_info &c = cfg_table[ch.cfg];

	params p = {};
	p.m = m; p.n = n; p.k = k;
	p.a = a->a; p.rs_a = a->rs_a; p.cs_a = a->cs_a;
	p.b = a->b; p.rs_b = a->rs_b; p.cs_b = a->cs_b;
	p.group_m = 8;
	p.a_kfast = a->cs_a == 1;
	p.b_kfast = a->rs_b == 1;
	const bool avec = a->rs_a == 1 && (k == 1 || a->cs_a % 4 == 0) && ((uintptr_t)a->a & 15) == 0;
	const bool bvec = a->cs_b == 1 && (k == 1 || a->rs_b % 4 == 0) && ((uintptr_t)a->b & 15) == 0;

	if (ch.splits <= 1) {
		p.c = a->c; p.rs_c = a->rs_c;
		p.split_stride = 0;
		p.k_split = k;
		p.alpha = a->alpha; p.beta = a->beta;
		p.c_vec = ((uintptr_t)a->c & 15) == 0 && (m == 1 || a->rs_c % 4 == 0);
		return c.run(p, avec, bvec, 1, stream);
	}

	float *ws = NULL;
	const size_t ws_bytes = (size_t)ch.splits * (size_t)m * (size_t)n * sizeof(float);
	GK_CUDA_TRY(fn, cudaMallocAsync((void **)&ws, ws_bytes, stream));
	p.c = ws; p.rs_c = n;
	p.split_stride = m * n;
	p.k_split = ch.k_split;
	p.alpha = 1.f; p.beta = 0.f;
	p.c_vec = m == 1 || n % 4 == 0;
	gk_status st = c.run(p, avec, bvec, (unsigned)ch.splits, stream);
	if (st == GK_OK)
		st = gk_sgemm_splitk_reduce(ws, ch.splits, m, n, a->alpha, a->beta, a->c, a->rs_c, stream);
	cudaError_t e = cudaFreeAsync(ws, stream);
	if (st == GK_OK && e != cudaSuccess)
		st = gk_cuda_status(e, fn, "cudaFreeAsync(ws, stream)");
	return st;
}

gk_status gk_cuda_sgemm_tuned(const gk_cuda_sgemm_args *p)
{
	return gk_cuda_sgemm_tuned_with(p, -1, 0);
}
