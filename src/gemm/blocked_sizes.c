/*
 * blocked_sizes.c - the cache blocking of the blocked GEMM driver, in one
 * place: cache sizes read once at run time, turned into mc, kc, nc for a
 * given element size and microkernel shape (rules in blocked.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "blocked.h"

/* What a cache size is taken to be when the system reports none, and the
 * range a report is believed in: virtual machines report zeros, and some
 * report the L3 of the whole host. */
#define L1_DEFAULT (32 * 1024)
#define L2_DEFAULT (512 * 1024)
#define L3_DEFAULT (8 * 1024 * 1024)
#define NC_MAX 4096 /* past this a wider B panel saves nothing measurable */
/* The most of L3 that the B panel counts on. A large L3 is shared by many
 * cores (on a cloud host, by other guests as well), and the panel is read
 * once per block of A: one that does not stay in the part of L3 it really
 * gets comes from memory again each time. A 6 MiB panel (DGEMM 768 x 1008)
 * instead of a 12 MiB one (768 x 2048) ran 4-14% faster at 1500^3-4096^3
 * on an Emerald Rapids guest reporting 300 MiB of L3 (1 and 2 threads,
 * bench/results/2026-11-27-emr-cpu/logs/nc_sweep.log). */
#define L3_PANEL_MAX (12 * 1024 * 1024)
/* The most of L2 that the block of A takes. The L2 is shared with the
 * core's other hardware thread (on a cloud host, perhaps another guest's),
 * and the B sliver and the C tiles pass through it: on an Emerald Rapids
 * guest (2 MiB of L2), a 512 KiB block ran 3-10% faster than a 1 MiB one
 * (bench/results/2026-11-27-emr-cpu/logs/mc_sweep.log). */
#define L2_BLOCK_MAX (512 * 1024)
/* The most of L1 that the A sliver takes in a deep product (deep_kc), where
 * it alone is sized to L1: the B sliver's rows and the C tile stream
 * through L1 beside it. A 32 KiB L1 is taken whole, as before. */
#define L1_SLIVER_MAX (32 * 1024)
#define KC_MIN 256  /* shorter, the C update costs more than a few percent */
/* The part of L1 that the two slivers of one microkernel call take where
 * both fit with a kc of at least KC_MIN that way (the AVX2 tiles on a 48 KiB
 * L1): the rest is for the lines of C, of the next slivers and of the
 * stack. With the slivers the whole 48 KiB L1 of an Emerald Rapids core
 * (AVX2 SGEMM kc 552, DGEMM 432), the AVX2 set ran 1-12% slower than with
 * two thirds of it (368, 288) or kc 256
 * (bench/results/2026-11-29-emr-cpu-avx2/kc_sweep.log). Where two thirds
 * would go under KC_MIN (a 32 KiB L1, the AVX-512 tiles) the slivers keep
 * all of L1, as measured before. */
#define L1_SLIVERS_NUM 2
#define L1_SLIVERS_DEN 3
#define KC_MAX 1024
/* A product whose rows all fit one block of A with a kc that keeps the A
 * sliver in a third of L1 takes that kc (at least KC_MIN), when k is at
 * least ONE_BLOCK_K_MIN such blocks deep. The packed way then holds each A
 * sliver in L1 while a piece of B streams past it from L2 (own columns,
 * blocked_tmpl.h), and the B slivers need the rest of L1 on their way:
 * an A sliver the whole L1 (AVX-512 DGEMM 8 x 24 at kc 768 on a 48 KiB L1)
 * is evicted by them. On an Emerald Rapids guest, with kc 256 instead of
 * 768, 64 x 4096 x 4096 ran 1.21x as fast on one thread and 1.19x on two,
 * 128 x 3000 x 3000 1.18x and 1.40x, 256 x 2048 x 2048 1.10x and 1.27x,
 * 200 x 20000 x 2048 (a deep kc of 512 before) 1.15x and 1.24x,
 * 128 x 128 x 4096 1.04x and 1.01x. Taking all the rows of 256^3 (k one
 * block: not this rule) into one block of kc 256 ran it 0.96x as fast
 * (bench/results/2026-11-29-emr-cpu-avx512/logs/one_block_kc.log). */
#define L1_A_ONE_DEN 3
#define ONE_BLOCK_K_MIN 4
#define KC_TALL_MR 8 /* tiles of at least this many rows may take the deep kc (deep_kc) */
#define KC_DEEP_C_L2 4 /* ... when C is larger than this many L2s */
#define KC_DEEP_C_L2_UP 3 /* ... or this many, where the deep kc is the deeper */

static struct {
	size_t l1, l2, l3;
	int64_t mc, kc, nc; /* GK_GEMM_BLOCKS, 0 when unset */
	int64_t l2_bytes;   /* its optional fourth field, 0 when absent */
} cache;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
_Atomic int64_t gk_gemm_direct_k;

static size_t clamp_size(long v, size_t lo, size_t hi, size_t fallback)
{
	if (v <= 0)
		return fallback;
	return (size_t)v < lo ? lo : (size_t)v > hi ? hi : (size_t)v;
}

static void read_caches(void)
{
	size_t s1, s2, s3;
	gk_cache_sizes(&s1, &s2, &s3);
	const long l1 = (long)s1, l2 = (long)s2, l3 = (long)s3;
	cache.l1 = clamp_size(l1, 16 * 1024, 256 * 1024, L1_DEFAULT);
	cache.l2 = clamp_size(l2, 128 * 1024, 8 * 1024 * 1024, L2_DEFAULT);
	cache.l3 = clamp_size(l3, 1024 * 1024, 64 * 1024 * 1024, L3_DEFAULT);
	const char *s = getenv("GK_GEMM_BLOCKS");
	long long mc, kc, nc, l2b = 0;
	const int got = s == NULL ? 0 : sscanf(s, "%lld,%lld,%lld,%lld", &mc, &kc, &nc, &l2b);
	if (got >= 3 && mc > 0 && kc > 0 && nc > 0) {
		cache.mc = mc;
		cache.kc = kc;
		cache.nc = nc;
		cache.l2_bytes = got == 4 && l2b > 0 ? l2b : 0;
	}
	/* Every rule gives kc >= 128 (at least 16 KiB of L1 over at most 16
	 * rows of 8 bytes), an override what it says. */
	const int64_t dk = cache.kc > 0 && cache.kc < GK_BLOCKED_DIRECT_K ? cache.kc : GK_BLOCKED_DIRECT_K;
	atomic_store_explicit(&gk_gemm_direct_k, dk, memory_order_relaxed);
}

/* v rounded down to a multiple of q, and at least q. */
static int64_t down_to(int64_t v, int64_t q)
{
	return v < q ? q : v / q * q;
}

/* kc, the depth of a block (see below), before any GK_GEMM_BLOCKS override. */
static int64_t kc_from_l1(int64_t es, int64_t mr, int64_t nr, int deep)
{
	/* L1: the MR x kc sliver of A and the kc x NR sliver of B that one
	 * microkernel call reads. When that makes kc short (a large register
	 * tile), the cost of updating C (loading and storing the MR x NR tile,
	 * once per call) is spread over too few steps. A large tile loads one
	 * row of B (NR / vector-width vectors) per MR such rows of FMAs, little
	 * enough to stream the B sliver from L2: then only the A sliver, whose
	 * entries are broadcast one at a time, is kept to L1. So does a deep
	 * product (deep_kc), its A sliver in at most L1_SLIVER_MAX. */
	int64_t kc;
	if (deep) {
		const int64_t l1 = cache.l1 < L1_SLIVER_MAX ? (int64_t)cache.l1 : L1_SLIVER_MAX;
		kc = l1 / (mr * es);
	} else {
		kc = (int64_t)cache.l1 / ((mr + nr) * es);
		if (kc < KC_MIN)
			kc = (int64_t)cache.l1 / (mr * es);
		else if (kc * L1_SLIVERS_NUM / L1_SLIVERS_DEN >= KC_MIN)
			kc = kc * L1_SLIVERS_NUM / L1_SLIVERS_DEN;
	}
	return kc > KC_MAX ? KC_MAX : down_to(kc, 8);
}

/*
 * Whether an m x n x k product takes the deep kc: a tile of KC_TALL_MR rows
 * or more (one row of B loaded per 8 or more rows of FMAs: the B sliver
 * streams from L2), k deeper than the other rules' kc, and C larger than
 * KC_DEEP_C_L2 times L2, so that each of the k / kc updates of a C tile
 * goes to memory. Measured on an Emerald Rapids guest (48 KiB L1, 2 MiB
 * L2; bench/results/2026-11-27-emr-cpu/logs/kc_sweep.log and
 * dgemm_kc_sweep.log), call by call against the other rules:
 * - SGEMM 14 x 32 (kc 264, both slivers in L1): kc 512-872, in equal
 *   blocks, ran 2-17% faster at 1500^3-8192^3 on one thread and 5% at
 *   3000^3-4096^3 on two, 4-5% slower at 2048^3 on two; kc 584 measured as
 *   872. At 1024^3 (C 4 MiB) kc 512 was 6-9% slower, and where C fits L2
 *   (64 x 4096 x 4096, 256^3) 872 was 4-10% slower: those keep 264.
 * - DGEMM 8 x 24 (kc 768, the A sliver the whole L1): kc 512 ran 2-10%
 *   faster at 2048^3-4096^3 on one thread, 1-3% on two, but 5-7% slower at
 *   1024^3 on two (C 8 MiB: kept at 768).
 * On a 32 KiB L1 both tiles take the A-sliver rule anyway; there the deep
 * kc only cuts k into equal blocks.
 * Where the deep kc is the deeper (SGEMM above), C larger than
 * KC_DEEP_C_L2_UP L2s is enough: on a Zen 5 guest (48 KiB L1, 1 MiB L2)
 * SGEMM 1000^3-1024^3 (C of 3.8-4 MiB) ran from 1% slower to 6% faster
 * with it on one thread and 8-12% faster on two than with 264
 * (bench/results/2026-11-27-zen5-cpu/logs/kc_deep_zen5.log).
 */
static int deep_kc(int64_t es, int64_t mr, int64_t nr, int64_t m, int64_t n, int64_t k)
{
	if (mr < KC_TALL_MR || cache.kc > 0)
		return 0;
	const int64_t kc = kc_from_l1(es, mr, nr, 0);
	if (k <= kc)
		return 0;
	const double c_l2 = kc < kc_from_l1(es, mr, nr, 1) ? KC_DEEP_C_L2_UP : KC_DEEP_C_L2;
	return (double)m * (double)n * (double)es > c_l2 * (double)cache.l2;
}

/* The deep kc for depth k: k cut into blocks of equal depth (a multiple of
 * 8) no deeper than the rule's, so that no block is a short remainder
 * (2048 = 872 + 872 + 304). From the shape alone, as deep_kc. */
static int64_t deep_depth(int64_t es, int64_t mr, int64_t nr, int64_t k)
{
	const int64_t kc = kc_from_l1(es, mr, nr, 1);
	if (k <= kc)
		return kc;
	const int64_t nb = (k + kc - 1) / kc;
	return ((k + nb - 1) / nb + 7) / 8 * 8;
}

/* The kc of L1_A_ONE_DEN for an m x k product (m rows of A), or 0 where
 * that rule does not apply (m unknown: 0). */
static int64_t one_block_kc(int64_t es, int64_t mr, int64_t m, int64_t k, int64_t kc, int64_t a_bytes)
{
	int64_t kr = (int64_t)cache.l1 / L1_A_ONE_DEN / (mr * es) / 8 * 8;
	if (kr < KC_MIN)
		kr = KC_MIN;
	const int64_t mup = (m + mr - 1) / mr * mr;
	return m > 0 && kr < kc && k >= ONE_BLOCK_K_MIN * kr && mup <= down_to(a_bytes / (kr * es), mr) ? kr : 0;
}

/* The L2 the walk rule goes by: the cache's, or GK_GEMM_BLOCKS's fourth
 * field (none: 0, no rule) when that is set. */
static int walks_rows(void)
{
	const int64_t l2 = cache.kc > 0 ? cache.l2_bytes : (int64_t)cache.l2;
	return l2 > 0 && l2 <= GK_BLOCKED_WALK_L2;
}

int gk_gemm_walks_rows(void)
{
	pthread_once(&cache_once, read_caches);
	return walks_rows();
}

static void blocking(int64_t es, int64_t mr, int64_t nr, int deep, int64_t m, int64_t k, gk_gemm_blocking *out)
{
	int64_t kc = deep ? deep_depth(es, mr, nr, k) : kc_from_l1(es, mr, nr, 0);
	/* L2: the packed mc x kc block of A, about half of it (at most
	 * L2_BLOCK_MAX), so that the B sliver and the C tiles passing through
	 * do not evict it; for a deep kc, of the depth the product has. */
	const int64_t a_bytes = (int64_t)cache.l2 / 2 < L2_BLOCK_MAX ? (int64_t)cache.l2 / 2 : L2_BLOCK_MAX;
	const int64_t kr = one_block_kc(es, mr, m, k, kc, a_bytes);
	if (kr > 0) {
		kc = kr;
		deep = 0;
	}
	const int64_t ka = deep && k < kc ? k : kc;
	int64_t mc = down_to(a_bytes / (ka * es), mr);
	/* L3: the packed kc x nc panel of B, about half of it (of at most
	 * L3_PANEL_MAX). */
	const int64_t l3 = cache.l3 < L3_PANEL_MAX ? (int64_t)cache.l3 : L3_PANEL_MAX;
	int64_t nc = down_to(l3 / 2 / (kc * es), nr);
	if (nc > NC_MAX)
		nc = down_to(NC_MAX, nr);
	/* Half of L2 for packed B, as for the A block. */
	int64_t b_in_l2 = (int64_t)cache.l2 / 2 / es;
	if (cache.kc > 0) {
		mc = down_to(cache.mc, mr);
		kc = cache.kc;
		nc = down_to(cache.nc, nr);
		/* Scaled with the blocks, so that both macrokernel loop orders
		 * still occur with small blocks (the A-sliver-outer one up to
		 * half a panel, 2 * b_in_l2); a fourth field gives the L2 bytes
		 * instead (tuning: the blocks change, the loop-order rule not). */
		b_in_l2 = cache.l2_bytes > 0 ? cache.l2_bytes / 2 / es : kc * nc / 4;
	}
	/* The row walk of any panel on a small L2; small test blocks without
	 * L2 bytes keep both orders. On a larger L2, the row walk holds its
	 * run of the B panel in L2 beside the A block: the room the block
	 * leaves, not the whole of L2. A run that fills L2 is partly evicted
	 * by the block and the C rows between two passes, and then streams
	 * from L3 once per A sliver. Measured call by call on an Emerald
	 * Rapids guest (48 KiB L1, 2 MiB L2), 1 thread, against the whole-L2
	 * rule: AVX2 DGEMM 720^3-880^3 +4-8%, SGEMM 1100^3-1400^3 +5-10%;
	 * AVX-512 DGEMM 2000 x 2000 x 256 +25%, 2000 x 320 x 800 +21%; within
	 * 2% on shallow products (4096 x 4096 x 64) and on 2 threads
	 * (bench/results/2026-11-29-emr-walk/). */
	out->mc = mc;
	out->kc = kc;
	out->nc = nc;
	out->b_in_l2 = b_in_l2;
	if (walks_rows())
		out->b_walk = INT64_MAX;
	else if (cache.kc > 0)
		out->b_walk = 2 * b_in_l2;
	else
		out->b_walk = 2 * b_in_l2 > mc * kc ? 2 * b_in_l2 - mc * kc : 0;
}

void gk_gemm_blocking_get(size_t esize, int64_t mr, int64_t nr, gk_gemm_blocking *out)
{
	/* The last answer, per thread, as in gk_gemm_kc: the unpacked way asks
	 * it on every call of more than one column sliver (0.4% of a 64^3
	 * DGEMM). */
	static _Thread_local struct {
		int64_t es, mr, nr;
		gk_gemm_blocking b;
	} last;
	const int64_t es = (int64_t)esize;
	if (last.es != es || last.mr != mr || last.nr != nr) {
		pthread_once(&cache_once, read_caches);
		blocking(es, mr, nr, 0, 0, 0, &last.b);
		last.es = es;
		last.mr = mr;
		last.nr = nr;
	}
	*out = last.b;
}

void gk_gemm_blocking_for(size_t esize, int64_t mr, int64_t nr, int64_t m, int64_t n, int64_t k,
                          gk_gemm_blocking *out)
{
	pthread_once(&cache_once, read_caches);
	const int64_t es = (int64_t)esize;
	blocking(es, mr, nr, deep_kc(es, mr, nr, m, n, k), m, k, out);
}

int64_t gk_gemm_kc(size_t esize, int64_t mr, int64_t nr, int64_t m, int64_t n, int64_t k)
{
	/* The last answer, per thread and depth rule: a run of small products
	 * asks the same question every call, and the divisions cost a few
	 * percent of a 16 x 16 x 16 product. */
	static _Thread_local struct { int64_t es, mr, nr, kc; } last;
	const int64_t es = (int64_t)esize;
	/* The kept answer holds unless the deep kc may apply, which it cannot
	 * for a depth within the rule's kc (deep_kc). */
	if (last.kc > 0 && last.es == es && last.mr == mr && last.nr == nr &&
	    (mr < KC_TALL_MR || k <= last.kc))
		return last.kc;
	pthread_once(&cache_once, read_caches);
	if (deep_kc(es, mr, nr, m, n, k))
		return deep_depth(es, mr, nr, k); /* large products: no need to keep it */
	const int64_t kc = cache.kc > 0 ? cache.kc : kc_from_l1(es, mr, nr, 0);
	last.es = es;
	last.mr = mr;
	last.nr = nr;
	last.kc = kc;
	return kc;
}
