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
 * when the tiles of C fill less than two waves), a cost model estimates
 * the time:
 *   ceil(tiles * S / SMs) * BM * BN * (K/S + K_FIXED * 2 / resident) / (eff R)
 * (blocks dealt evenly to the SMs, each SM at eff times the rate R of
 * cfg_l, less when it has fewer blocks than it holds, the prologue and
 * epilogue of a tile hidden better with more resident blocks), at least the time to stream A, B and C through memory,
 * plus, with S > 1, the workspace and the reduction's traffic. The
 * cheapest wins. The model depends on the shape alone: one shape always
 * gets the same choice, hence the same bits.
 *
 * Load paths. A is loaded with 16-byte copies when it is M-contiguous
 * (rs_a == 1), 16-byte aligned and cs_a % 4 == 0; B when it is N-contiguous
 * (cs_b == 1), aligned and rs_b % 4 == 0. Otherwise (the K-contiguous
 * operand of row-major A or column-major B, or an unaligned pointer or
 * leading dimension), for large products the operand is first copied into
 * a stream-ordered workspace in the 16-byte layout (sgemm_pack.cu); for
 * small ones, or when the workspace cannot be had, it takes the 4-byte path,
 * which transposes into shared memory on the fly. Every combination is
 * correct. C is stored 16 bytes at a time when its pointer and rs_c allow
 * it, else element by element.
 *
 * Split-K. Split s computes its K range into its own m x n block of a
 * workspace taken with cudaMallocAsync on the stream (alpha = 1, beta = 0),
 * and sgemm_splitk.cu sums the blocks in split order and applies alpha and
 * beta, then the workspace is freed with cudaFreeAsync: deterministic, no
 * atomics, no device-wide synchronization. If the workspace cannot be had,
 * the product runs without split-K.
 */
#include <math.h>
#include <stdint.h>
#include "sgemm_table.cuh"
#include "sgemm_splitk.cuh"
#include "sgemm_pack.cuh"

namespace gk_sg {

/* eff: the FFMA rate of each configuration relative to cfg_l, measured on an
 * H100 (sm_90) at 8192^3 with both operands on the 16-byte path; resident:
 * blocks per SM from the registers and shared memory of each (ptxas -v). */
const cfg_info cfg_table[CFG_COUNT] = {
	/* bm   bn   bk  resident eff   both 4-byte  run */
	{128, 128, 8, 2, 1.00, CFG_L, run_l},
	{128, 256, 8, 1, 0.975, CFG_H, run_h},
	{128, 64, 8, 3, 0.92, CFG_L, run_m},
	{64, 64, 32, 4, 0.82, CFG_S, run_s},
	{128, 128, 16, 2, 0.97, CFG_L, run_l16},
	{64, 64, 32, 4, 0.83, CFG_S, run_s4},
};

namespace {

constexpr double MAC_PER_S_SM = 1.9e11;  /* FP32 multiply-adds per second of one SM, cfg_l */
constexpr double BYTES_PER_S = 2.6e12;   /* device memory */
constexpr double K_FIXED = 48;           /* prologue + epilogue of a tile, in units of K, at 2 blocks per SM */
constexpr double WS_FIXED_S = 40e-6;     /* a workspace taken and released (the pool may be trimmed at every
                                          * synchronization, so the memory is mapped again) */
constexpr int64_t MIN_K_SPLIT = 256;     /* elements of K per split, at least */
constexpr int64_t MAX_SPLITS = 4096;     /* well under gridDim.z's 65535 */
constexpr int64_t MAX_WS_BYTES = (int64_t)1 << 28;
/* An operand without the 16-byte path is copied into one (sgemm_pack.cu)
 * when the product reuses it enough: its other dimension >= PACK_MIN (the
 * copy moves 8 bytes per element, the product does 2 * that dimension flops
 * per element) and m n k >= PACK_MIN_WORK (measured on an H100: at 1024^3
 * the copy and its workspace cost more than the 16-byte path gains; at
 * 2048^3 they gain 4%, at 4096^3 18%). */
constexpr int64_t PACK_MIN = 512;
constexpr double PACK_MIN_WORK = 4e9;   /* about 1600^3: the copy and its workspace cost tens of us */
constexpr int64_t MAX_PACK_BYTES = (int64_t)1 << 31;

} /* namespace */

struct choice {
	int cfg;
	int64_t splits, k_split;
};

namespace {

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

/* The estimated time of a configuration and split count. Blocks are dealt
 * to the SMs evenly; an SM runs its blocks at the configuration's rate; the
 * prologue and epilogue of a tile are hidden better with more blocks per
 * SM; split-K adds the workspace and the reduction's traffic. */
double model(const cfg_info &c, int64_t m, int64_t n, int64_t k, int64_t splits, int64_t k_split,
             int sms)
{
	const int64_t tiles = cdiv(m, c.bm) * cdiv(n, c.bn);
	const int64_t per_sm = cdiv(tiles * splits, sms);
	const double per_block = (double)c.bm * c.bn * ((double)k_split + K_FIXED * 2.0 / c.resident) /
	                         (c.eff * MAC_PER_S_SM);
	/* Fewer blocks on an SM than it holds hide less latency: measured at
	 * 1024^3, one or two blocks run at 0.7 to 0.85 of the full rate. */
	const int64_t conc = per_sm < c.resident ? per_sm : c.resident;
	double t = (double)per_sm * per_block / pow((double)conc / c.resident, 0.35);
	/* Memory: A once per tile column and B once per tile row at most,
	 * C written once; with split-K the workspace written and read. */
	const double bytes = 4.0 * ((double)cdiv(n, c.bn) * m * k + (double)cdiv(m, c.bm) * n * k) +
	                     4.0 * m * n * (splits > 1 ? 2.0 * splits + 1 : 1);
	const double tm = bytes / BYTES_PER_S;
	if (tm > t)
		t = tm;
	if (splits > 1)
		t += WS_FIXED_S + 4.0 * m * n * (splits + 2.0) / BYTES_PER_S;
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

static gk_status run_product(const gk_cuda_sgemm_args *a, params &p, const cfg_info &c, const choice &ch,
                             bool avec, bool bvec, cudaStream_t stream);

void gk_cuda_sgemm_tuned_choice(int64_t m, int64_t n, int64_t k, int sms, int *cfg, int64_t *splits)
{
	choice ch = choose(m, n, k, sms > 0 ? sms : 1);
	*cfg = ch.cfg;
	*splits = ch.splits;
}

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
	params p = {};
	p.m = m; p.n = n; p.k = k;
	p.a = a->a; p.rs_a = a->rs_a; p.cs_a = a->cs_a;
	p.b = a->b; p.rs_b = a->rs_b; p.cs_b = a->cs_b;
	p.group_m = 8;
	p.a_kfast = a->cs_a == 1;
	p.b_kfast = a->rs_b == 1;
	bool avec = a->rs_a == 1 && (k == 1 || a->cs_a % 4 == 0) && ((uintptr_t)a->a & 15) == 0;
	bool bvec = a->cs_b == 1 && (k == 1 || a->rs_b % 4 == 0) && ((uintptr_t)a->b & 15) == 0;

	/* Copies of the operands without a 16-byte path, where they pay. */
	float *pa = NULL, *pb = NULL;
	const double work = (double)m * n * k;
	if (!avec && n >= PACK_MIN && work >= PACK_MIN_WORK && 4 * cdiv(m, 4) * k * 4 <= MAX_PACK_BYTES) {
		const int64_t ld = cdiv(m, 4) * 4;
		if (cudaMallocAsync((void **)&pa, (size_t)(ld * k) * sizeof(float), stream) == cudaSuccess) {
			gk_status st = gk_sgemm_pack(pa, ld, k, m, a->a, a->cs_a, a->rs_a, stream);
			if (st != GK_OK) {
				cudaFreeAsync(pa, stream);
				return st;
			}
			p.a = pa; p.rs_a = 1; p.cs_a = ld;
			avec = true;
		} else {
			pa = NULL;
			(void)cudaGetLastError(); /* no room: the 4-byte path instead */
		}
	}
	if (!bvec && m >= PACK_MIN && work >= PACK_MIN_WORK && 4 * cdiv(n, 4) * k * 4 <= MAX_PACK_BYTES) {
		const int64_t ld = cdiv(n, 4) * 4;
		if (cudaMallocAsync((void **)&pb, (size_t)(ld * k) * sizeof(float), stream) == cudaSuccess) {
			gk_status st = gk_sgemm_pack(pb, ld, k, n, a->b, a->rs_b, a->cs_b, stream);
			if (st != GK_OK) {
				cudaFreeAsync(pb, stream);
				if (pa)
					cudaFreeAsync(pa, stream);
				return st;
			}
			p.b = pb; p.rs_b = ld; p.cs_b = 1;
			bvec = true;
		} else {
			pb = NULL;
			(void)cudaGetLastError();
		}
	}
	if (!avec && !bvec) /* same BK or a divisor of it: k_split stays a multiple */
		ch.cfg = cfg_table[ch.cfg].both_scalar;
	gk_status st = run_product(a, p, cfg_table[ch.cfg], ch, avec, bvec, stream);
	cudaError_t e = cudaSuccess;
	if (pa)
		e = cudaFreeAsync(pa, stream);
	if (pb) {
		cudaError_t e2 = cudaFreeAsync(pb, stream);
		if (e == cudaSuccess)
			e = e2;
	}
	if (st == GK_OK && e != cudaSuccess)
		st = gk_cuda_status(e, fn, "cudaFreeAsync");
	return st;
}

/* The product itself: one launch, or split-K and its reduction. */
static gk_status run_product(const gk_cuda_sgemm_args *a, params &p, const cfg_info &c, const choice &ch,
                             bool avec, bool bvec, cudaStream_t stream)
{
	static const char *fn = "gk_cuda_sgemm_tuned";
	const int64_t m = a->m, n = a->n, k = a->k;
	float *ws = NULL;
	if (ch.splits > 1) {
		const size_t ws_bytes = (size_t)ch.splits * (size_t)m * (size_t)n * sizeof(float);
		if (cudaMallocAsync((void **)&ws, ws_bytes, stream) != cudaSuccess) {
			ws = NULL;
			(void)cudaGetLastError(); /* no workspace: the product without split-K */
		}
	}
	if (!ws) {
		p.c = a->c; p.rs_c = a->rs_c;
		p.split_stride = 0;
		p.k_split = k;
		p.alpha = a->alpha; p.beta = a->beta;
		p.c_vec = ((uintptr_t)a->c & 15) == 0 && (m == 1 || a->rs_c % 4 == 0);
		return c.run(p, avec, bvec, 1, stream);
	}

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
