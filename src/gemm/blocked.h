/*
 * blocked.h - what the blocked GEMM driver (blocked_*.c) shares with its
 * packing routines (pack_*.c) and its block-size rules (blocked_sizes.c).
 * Private to src/gemm/.
 */
#ifndef GK_GEMM_BLOCKED_H
#define GK_GEMM_BLOCKED_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "gk_internal.h"
#include "adapt.h"
#include "pool.h"

/* Packed slivers start on this boundary (bytes): a cache line, and the
 * widest vector the kernels load. */
#define GK_PACK_ALIGN 64

/* Columns ahead (of X, in gk_pack_*) that packing prefetches. */
#define GK_PACK_AHEAD 8

/* The 64-byte lines of the bytes [p, p + bytes), for requests ahead: with
 * whole != 0 each line they touch, from the one p is in; with whole == 0
 * one every 64 bytes from p, which where p is not on a line (malloc gives
 * 16-byte alignment) leaves out the last line, partly in the run. */
#define GK_FOR_LINES(q, p, bytes, whole)                                                           \
	for (const char *q = (whole) ? (const char *)((uintptr_t)(p) & ~(uintptr_t)63)            \
	                             : (const char *)(p);                                           \
	     q < (const char *)(p) + (bytes); q += 64)
static inline int64_t gk_lines_of(const void *p, int64_t bytes, int whole)
{
	if (bytes <= 0)
		return 0;
	return whole ? (int64_t)((((uintptr_t)p + (uintptr_t)bytes - 1) >> 6) - ((uintptr_t)p >> 6) + 1)
	             : (bytes + 63) / 64;
}
/* The bytes of each column of X that a packing of contiguous sliver columns
 * copies at a time, a group of slivers (pack_tmpl.h). */
#define GK_PACK_GROUP_BYTES 384

/* Unpacked (no packing pass; blocked_tmpl.h, way 1) when m, n and k are all
 * at most SMALL_DIM and m n k at most the thread count times the kernel
 * table's cube (gemm_u_f32_cube, gemm_u_f64_cube; 512 but where measured
 * otherwise): below that, packing costs more than the strided reads it
 * saves. Also when m and n are both at most SKINNY, whatever k: each
 * element of A and B is then used too few times for a packed copy to pay,
 * and reading them once is what counts (and when m alone is, or n is at
 * most THIN_COLS, below). */
#define GK_BLOCKED_SMALL_DIM 512
#define GK_BLOCKED_SKINNY 32
/* But a small product is packed (way 4) when B's rows lie a multiple of
 * ALIAS_BYTES apart and m and n are past ALIAS_MIN, k at least
 * ALIAS_DEPTH: read where they lie, the lines of a column strip of B then
 * share a few cache sets (1 or 2 of L1's 64 sets of 4 KiB ways, 16 or 32
 * of a 512 KiB L2's 1024) and are evicted before the next tile of C uses
 * them again, so every tile refetches its strip from L3. Measured on a
 * 2-vCPU AMD Zen 3 guest (AVX2 kernels, 1 thread, 3 runs each, a loaded
 * machine), unpacked -> packed, GFLOPS: DGEMM 512^3 19-27 -> 35-39,
 * 256^3 32-37 -> 37-42, 256 x 512 x 16 17-18 -> 28-31; SGEMM 512^3
 * 63-66 -> 72-87. SGEMM 64 x 512 x 512 and 48 x 512 x 512 ran as fast or
 * faster unpacked (hence ALIAS_MIN); DGEMM ones gained from packing down
 * to k = 8, SGEMM ones were even there (hence ALIAS_DEPTH). */
#define GK_BLOCKED_ALIAS_BYTES 2048
#define GK_BLOCKED_ALIAS_MIN 64
#define GK_BLOCKED_ALIAS_DEPTH 16
/* A product of at most SKINNY rows, whatever its other sides, is packed
 * for the same reason when n and k are at least SKINNY_ALIAS_MIN, the
 * unpacked kernel's slivers are one line wide and more than one tile of
 * rows reads each (blocked_choice_tmpl.h). Measured on a Zen 5 core call by
 * call, packed against unpacked, m x 4096 x 4096
 * (bench/results/2026-11-28-zen5-skinny/logs/skinny_packed_vs_unpacked.log):
 * with the AVX2 kernels (slivers of one line, tiles of 6 rows) m = 7 to 32
 * ran 0.95-1.46x (1.13-1.46x from 16 rows), m = 4 and 6 (one tile)
 * 0.74-0.90x; with the AVX-512 ones (slivers of four lines, whose first
 * lines the kernel requests ahead) SGEMM 0.55-0.80x and DGEMM 0.50-1.25x
 * (faster only from 24 rows, and not with rows 16 KiB apart): those stay
 * unpacked. */
#define GK_BLOCKED_SKINNY_ALIAS_MIN 256
/* And when they lie a multiple of NEAR_BYTES apart (8 of L1's sets) with m,
 * n and k past NEAR_MIN: measured as above (2 runs), DGEMM 320^3, 384^3,
 * 448^3 (2.5, 3, 3.5 KiB) 28-34 -> 37-42, SGEMM 384^3 71-77 -> 76-80;
 * below NEAR_MIN packing did not pay (DGEMM 128^3 and SGEMM 128^3 lost
 * 5-15%, DGEMM 192^3 and SGEMM 256^3 even). */
#define GK_BLOCKED_ALIAS_NEAR_BYTES 512
#define GK_BLOCKED_ALIAS_NEAR_MIN 256
/* The most vectors in a row of an unpacked kernel's tile (NU / VW). */
#define GK_BLOCKED_UVECS 8
/* From this depth a tile one vector wide keeps to GK_GEMM_U_MAX_ROWS rows
 * (kernel_api.h): its extra rows hide the FMA latency of short products
 * (16 x 16 x 16 to 64 x 16 x 250 SGEMM 10-16% faster call by call on a Zen 5
 * core), but with A streaming along a long k sixteen rows of it were up to
 * 5% slower than eight (32 x 8 x 4000). Not tiles computed as row pairs
 * or quads (gemm_u_grouped): eight rows are only four accumulators (two)
 * there, and sixteen measured 1.38-1.50x faster along a long k. */
#define GK_BLOCKED_ULONG_K 256
/* The least rows of a column of unpacked tiles whose last columns past its
 * whole vectors go to row pairs or quads of their own (usplit in
 * blocked_direct_tmpl.h). */
#define GK_BLOCKED_USPLIT_MIN_ROWS 64

/* Threads take tasks from a shared list (pool.h), GK_BLOCKED_TASKS per
 * thread or so, so that the work of a thread that starts late, or loses its
 * core for a while, is done by the others. The packed way cuts a round's
 * rows of C into runs of at least RUN_MIN slivers of the B panel when its
 * row blocks are too few; its own-columns form (all of A one block) gives
 * each task at least COLS_MIN column slivers, since each task packs all of
 * A again. */
#define GK_BLOCKED_TASKS 4
/* ... but in the unpacked way (way 1) no task of less than about this many
 * multiply-adds, while each thread has one: a task there is a tile or two
 * of a small product, and claiming it costs about what computing a tile
 * does. On two threads of an Emerald Rapids guest, against four tasks per
 * thread: SGEMM 64^3 1.15x, DGEMM 64^3 1.20x, SGEMM and DGEMM 96^3 1.08x
 * faster with the AVX-512 kernels, SGEMM and DGEMM 64^3 1.14x with the
 * AVX2 ones; 128^3 (four tasks a thread either way) the same
 * (bench/results/2026-11-30-emr-tasks/). */
#define GK_BLOCKED_UTASK_WORK 262144.0
#define GK_BLOCKED_RUN_MIN 4
#define GK_BLOCKED_COLS_MIN 128
/* With fewer row blocks of A than threads, the packed way cuts the rows
 * into a block per thread, of at least SPLIT_MIN slivers of A each
 * (blocked_tmpl.h, GK_FN(packed)). */
#define GK_BLOCKED_SPLIT_MIN 2

/* A skinny product's depth is split among threads (way 2) in groups of at
 * least GROUP_MIN kc blocks; under GK_FLAG_DETERMINISTIC into at most GROUPS
 * groups, their size a function of k alone. */
#define GK_BLOCKED_GROUP_MIN 16
#define GK_BLOCKED_GROUPS 64

/* Way 6 (blocked_choice_tmpl.h): on several threads, a deep product's
 * depth in one group per thread of at least DEEP_KC kc blocks (k at least
 * DEEP_RATIO times m + n, C at most DEEP_C_BYTES). Two groups per thread
 * ran 200 x 200 x 20000 SGEMM on 2 threads of a Zen 5 guest at 0.93-0.95x
 * one. */
#define GK_BLOCKED_DEEP_RATIO 16
#define GK_BLOCKED_DEEP_C_BYTES (512 * 1024)
#define GK_BLOCKED_DEEP_KC 4

/* Past the small sizes: up to this many rows of C (and B's rows
 * contiguous), rows of B are added into rows of C directly (the i-k-j
 * loop); up to DOT_COLS columns of C (and A's rows contiguous), each
 * element is a dot product of a row of A and a column of B. Measured twice
 * as fast as the unpacked kernel for one row or column (4096 x 1 x 4096),
 * on a par for two or three, slower from four. */
#define GK_BLOCKED_AXPY_ROWS 2
#define GK_BLOCKED_DOT_COLS 3
/* Way 5 (dot tiles, where the kernel table has them) for a C of at least
 * DOT_MIN_ROWS rows and a depth up to DOT_MAX_K (from the table's least
 * depth for the width of C): past it, Bt no longer stays in L2 while A's
 * rows pass. */
#define GK_BLOCKED_DOT_MIN_ROWS 16
#define GK_BLOCKED_DOT_MAX_K 4096
/* Way 5 takes C's rows in runs of this many (a multiple of the dot tiles'
 * heights, 8, 6 and 4), each run across every group of columns: A's rows
 * are read from memory once, then from L2 (24 x 4096 floats, 384 KiB).
 * Without the runs, 256 x 8 x 4096 SGEMM ran at 0.74 of the unpacked tiles
 * on a Xeon, each group of columns reading all of A again. */
#define GK_BLOCKED_DOT_ROWS 24
/* Way 5's groups of columns: this many, the last one up to the table's
 * gemm_d_*_nr (7 columns: 6 + 1 where that is 6, blocked_dot_tmpl.h). */
#define GK_BLOCKED_DOT_GROUP 4
/* The least depth, in vectors per column of C past the first, from which
 * the dot tiles read A's rows in aligned vectors where they start off one
 * (blocked_dot_tmpl.h, dot_off). */
#define GK_BLOCKED_DOT_OFF_VECS 8
/* The least depth from which the dot tiles may fetch A's rows ahead. */
#define GK_BLOCKED_DOT_FETCH_K 256
/* The axpy way goes through C in blocks of columns at most this many bytes
 * wide: their rows of C stay in L1 or L2, B is read once, in runs this long
 * along its rows. Each thread takes one run of columns, at least AXPY_RUN
 * bytes wide. Blocks of 8 KiB took B's rows in pieces that each started the
 * hardware prefetchers again: on a Zen 5 core, 1 x 4096 x 4096 ran 1.57-1.69x
 * faster in blocks of 32 KiB (whole rows; 2 x 4096 x 4096 SGEMM 1.64x), and
 * smaller products the same; 64 and 128 KiB gained 0-8% more on 1 x 20000 x
 * 3000, and runs of 1 KiB per thread lost up to half on 2 x 800 x 700 on two
 * threads (bench/results/2026-11-28-zen5-gemv/). */
#define GK_BLOCKED_AXPY_BYTES 32768
#define GK_BLOCKED_AXPY_RUN 4096
/* Unpacked too (way 1), whatever m and k, up to this many columns of C:
 * 4096 x 64 x 4096 runs 20% faster than packed, 1000 x 8 x 1000 twice. */
#define GK_BLOCKED_THIN_COLS 64
/* The narrowest B panel a shallow product (k below kc) is cut to, so that
 * the panel stays in L2 while the macrokernel walks C along its rows
 * (blocked_tmpl.h, GK_FN(packed)). */
#define GK_BLOCKED_SHALLOW_NC 512
/* The largest piece of B, in bytes, that the own-columns way packs at a
 * time (blocked_tmpl.h, GK_FN(packed)): besides the piece in use, L2 holds
 * the A block, the next piece as it is packed, the lines of B it is packed
 * from and the rows of C being updated, and a larger piece is partly
 * evicted before the last A sliver has used it. On an Emerald Rapids guest
 * (2 MiB L2), 64 x 4096 x 4096 ran 7-12% faster with pieces of 136-168
 * columns (AVX2 DGEMM, 250-390 KiB) than with the 416 (958 KiB) that L2
 * less the A block gave, 300 x 3000 x 3000 the same with 12 slivers as
 * with 35, and 4% slower with 7; one sliver of AVX-512 DGEMM (147 KiB)
 * 18% slower than five (bench/results/2026-11-29-emr-cpu-avx2/
 * piece_sweep.log). */
#define GK_BLOCKED_PIECE_BYTES (320 * 1024)
/* ... and, with several threads, rows of at least this many bytes: two
 * threads each packing their columns of B read it from memory at once, and
 * runs of 13 lines a row (the 208 columns of 320 KiB at the AVX2 SGEMM's kc
 * of 368) ran 64 x 4096 x 4096 on two threads 3.5-7% slower than runs of
 * 18 (288 columns), where one thread ran 1-3% faster with the 13 (Zen 5
 * guest, 1 MiB L2, bench/results/2026-11-30-zen5-avx2-2t-c/). Pieces
 * already that wide (the other kernel shapes, at their kc) are unchanged. */
#define GK_BLOCKED_PIECE_ROW_MT 1152
/* ... or this many A slivers, if more: each A sliver is read into L1 once
 * per piece, a cost spread over the piece's slivers of B. AVX-512 DGEMM
 * (a 48 KiB A sliver) ran 1.5-4% slower with pieces of 6 A slivers than
 * with the 15 it had. */
#define GK_BLOCKED_PIECE_A 16

/*
 * Cache blocking for one kernel shape (Goto & van de Geijn, "Anatomy of
 * High-Performance Matrix Multiplication"): the k x NR sliver of B and the
 * MR x k sliver of A that one microkernel call reads fit L1 (kc), the
 * mc x kc block of A fits about half of L2 (mc, a multiple of MR), the
 * kc x nc panel of B about half of L3 (nc, a multiple of NR).
 */
typedef struct gk_gemm_blocking {
	int64_t mc, kc, nc;
	int64_t b_in_l2; /* elements of packed B that fit in about half of L2 */
	/* The longest run of a packed B panel (elements) that the macrokernel
	 * walks with the A sliver as its constant, C along its rows: a run held
	 * in L2 beside the mc x kc block of A (2 b_in_l2 - mc kc; 2 b_in_l2
	 * under GK_GEMM_BLOCKS), or any on a small L2 (GK_BLOCKED_WALK_L2). */
	int64_t b_walk;
} gk_gemm_blocking;

/*
 * On an L2 of at most this many bytes (Zen 1-3: 512 KiB; Skylake clients:
 * 256 KiB) the macrokernel walks C along its rows whatever the size of the
 * B panel, streaming the panel from L3 past an A sliver held in L1, rather
 * than streaming the A block from L2 past a B sliver down the columns of C.
 * Measured call by call in one process on a Zen 3 core (512 KiB L2, 32 MiB
 * L3), 1 thread: DGEMM 2048^3 +10%, SGEMM +7%, 4096^3 +3%; 2 threads DGEMM
 * 2048^3 +15%. On a Xeon with 2 MiB of L2 and a mesh L3, the same change
 * lost 15-30% (the panel could not be streamed from its L3 fast enough),
 * so larger L2s keep the panel-in-L2 rule.
 */
#define GK_BLOCKED_WALK_L2 (512 * 1024)

/* The blocking for elements of esize bytes and an mr x nr microkernel. The
 * cache sizes are read once (sysconf, with fallbacks when the system does
 * not know); GK_GEMM_BLOCKS="mc,kc,nc" overrides the result, for tuning
 * and tests (b_in_l2 is then a quarter of a kc x nc panel, or half of the
 * L2 bytes given as a fourth field: "mc,kc,nc,l2"; b_walk is 2 b_in_l2,
 * or any length where those L2 bytes are a small L2). */
GK_HIDDEN void gk_gemm_blocking_get(size_t esize, int64_t mr, int64_t nr, gk_gemm_blocking *out);

/* The same for an m x n x k product: a deeper kc where C does not stay in
 * L2 (blocked_sizes.c, KC_TALL_MR), from the shape alone, never from the
 * thread count (the bits must not depend on it). */
GK_HIDDEN void gk_gemm_blocking_for(size_t esize, int64_t mr, int64_t nr, int64_t m, int64_t n,
                                    int64_t k, gk_gemm_blocking *out);

/* The kc of gk_gemm_blocking_for, before its rule for products whose rows
 * all fit one block of A (blocked_sizes.c, L1_A_ONE_DEN), which only the
 * packed way follows: the other ways and the choice among them keep the
 * tile's kc. */
GK_HIDDEN int64_t gk_gemm_kc(size_t esize, int64_t mr, int64_t nr, int64_t m, int64_t n, int64_t k);

/* A depth within the kc of every tile and rule: GK_BLOCKED_DIRECT_K, or
 * less under a GK_GEMM_BLOCKS override with a shallower kc; 0 until the
 * cache sizes are read (the first product's gk_gemm_kc). The blocked
 * driver's direct calls take a product this deep without asking its kc. */
#define GK_BLOCKED_DIRECT_K 64
/* direct_rows (blocked_direct_tmpl.h) counts on it: no cap of urows applies. */
_Static_assert(GK_BLOCKED_DIRECT_K < GK_BLOCKED_ULONG_K, "direct calls below the long-k cap");
GK_HIDDEN extern _Atomic int64_t gk_gemm_direct_k;

/*
 * The partitioning of the packed loops, shared by the blocked driver
 * (blocked_tmpl.h) and the production Strassen (strassen_abc_tmpl.h), which
 * runs the same loops.
 */

/* Split count items among parts: part t starts at item count*t/parts (and
 * ends where part t + 1 starts). */
static inline int64_t gk_gemm_split(int64_t count, int64_t t, int64_t parts)
{
	return count * t / parts;
}

/* The length in elements of a packed sliver of r x kc elements of esize
 * bytes, padded so that the next one starts on GK_PACK_ALIGN, and not to a
 * multiple of 4 KiB. Packing writes a row of every sliver of a panel in
 * turn; slivers a multiple of 4 KiB long (16 x 256 floats, 8 x 256 or
 * 24 x 512 doubles) put all those writes in one set of L1 and of L2, which
 * then holds a few of them at a time: one line more spreads them over the
 * sets (docs/KERNELS.md). */
static inline int64_t gk_gemm_sliver(int64_t r, int64_t kc, size_t esize)
{
	const int64_t q = GK_PACK_ALIGN / (int64_t)esize;
	const int64_t lines = (r * kc + q - 1) / q;
	return (lines % 64 == 0 ? lines + 1 : lines) * q;
}

/* The threads a product of m x n x k multiply-adds may use, at most nt: one
 * per GK_BLOCKED_MIN_WORK, and one below twice that. */
static inline int gk_gemm_threads(int nt, double m, double n, double k)
{
	const double work = m * n * k;
	if (nt > 1 && work / GK_BLOCKED_MIN_WORK < nt)
		nt = work < 2 * GK_BLOCKED_MIN_WORK ? 1 : (int)(work / GK_BLOCKED_MIN_WORK);
	return nt;
}

/* The thread grid tm x (nth / tm) over msl row slivers and nsl column
 * slivers: the most row groups whose largest share of slivers is within
 * 1/slack of the least possible (slack 0: the least itself). */
static inline int gk_gemm_grid(int nth, int64_t msl, int64_t nsl, int64_t slack)
{
	int64_t least = INT64_MAX;
	for (int tm = 1; tm <= nth; tm++)
		if (nth % tm == 0) {
			const int64_t cost = (msl + tm - 1) / tm * ((nsl + nth / tm - 1) / (nth / tm));
			least = cost < least ? cost : least;
		}
	int best = 1;
	for (int tm = 1; tm <= nth; tm++)
		if (nth % tm == 0) {
			const int64_t cost = (msl + tm - 1) / tm * ((nsl + nth / tm - 1) / (nth / tm));
			if (cost <= least + (slack > 0 ? least / slack : 0))
				best = tm;
		}
	return best;
}

/* Part t of parts of count rows (or columns) in slivers of r: [*lo, *hi),
 * whole slivers but the last. */
static inline void gk_gemm_range(int64_t count, int64_t r, int64_t t, int64_t parts,
                                 int64_t *lo, int64_t *hi)
{
	const int64_t sl = (count + r - 1) / r;
	const int64_t e = gk_gemm_split(sl, t + 1, parts) * r;
	*lo = gk_gemm_split(sl, t, parts) * r;
	*hi = e < count ? e : count;
}

/* A 64-byte aligned buffer of at least bytes for one call of the driver
 * (blocked_workspace.c), or NULL when out of memory; give it back with
 * gk_gemm_workspace_put. */
GK_HIDDEN void *gk_gemm_workspace_get(size_t bytes);
GK_HIDDEN void gk_gemm_workspace_put(void *p);

/* Set (tests only) to refuse every workspace, as when memory runs out: the
 * drivers must then still compute every product. */
GK_HIDDEN extern int gk_gemm_workspace_refuse;

/*
 * Pack rows x kc of X (element (i, l) at x[i * rs + l * cs]) into slivers
 * of r rows: sliver s holds rows [s*r, s*r + r) column by column,
 *   dst[s * ps + l * r + i] = X(s*r + i, l),
 * with the rows past the end of X zero. ps >= r * kc is the distance
 * between slivers. A block of A packs as X = A (r = MR); a panel of B as
 * X = B^T (r = NR), which is the same layout read the other way. Where X's
 * rows are contiguous (cs == 1), kern's pack_t kernel does it if it has one.
 */
GK_HIDDEN void gk_pack_f32(const gk_kernels *kern, int64_t rows, int64_t kc, const float *x,
                           int64_t rs, int64_t cs, int64_t r, float *dst, int64_t ps);
GK_HIDDEN void gk_pack_f64(const gk_kernels *kern, int64_t rows, int64_t kc, const double *x,
                           int64_t rs, int64_t cs, int64_t r, double *dst, int64_t ps);

#endif /* GK_GEMM_BLOCKED_H */
