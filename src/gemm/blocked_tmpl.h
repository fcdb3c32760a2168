/*
 * blocked_tmpl.h - the production CPU GEMM ("cpu.blocked"), written once for
 * both precisions: blocked_f32.c and blocked_f64.c name the type, the
 * kernel slots, and GK_FN(x), which gives each function its suffix.
 *
 * A call goes one of five ways, chosen from its shape (blocked.h has the
 * limits):
 *
 *  1. Unpacked: small products, skinny ones (few rows and columns of C,
 *     any depth) and thin ones (few rows, or few columns, of C, past the
 *     matrix-vector shapes of way 3). The unpacked microkernel reads A and
 *     B where they lie (B is packed only when its rows are not
 *     contiguous), one tile of C (up to MU x NU) after another, k by kc.
 *     No packing pass, no workspace, no parallel region below the work
 *     that pays for one.
 *  2. Split depth: a skinny product with a long K and more than one thread
 *     (or GK_FLAG_DETERMINISTIC): K is cut into groups, each group's product
 *     goes unpacked into a buffer of its own, and the buffers are summed in
 *     group order. Each thread streams only its share of A and B.
 *  3. Matrix-vector shapes: a row or two of C against contiguous rows of
 *     B (axpy along them), or a few columns of C from contiguous rows of A
 *     (dot products).
 *  4. Packed: the five loops of Goto and van de Geijn,
 *
 *       for jc in n by nc:                 B panel kc x nc   (L3, shared)
 *         for pc in k by kc:
 *           pack B(pc:pc+kc, jc:jc+nc) into NR-wide slivers      all threads
 *           for ic in m by mc:                     A block mc x kc   (L2)
 *             pack A(ic:ic+mc, pc:pc+kc) into MR-tall slivers    per thread
 *             for jr in a run of B slivers:        B sliver kc x NR
 *               for ir in the A block by MR:       A sliver MR x kc  (L1)
 *                 microkernel: C(ir, jr) = beta C + alpha A-sliver B-sliver
 *
 *     Each (jc, pc) is a round of tasks: runs of the panel's slivers to
 *     pack, then row blocks of C (cut into runs of slivers when there are
 *     few) to compute. Rounds alternate between two panels, so the next
 *     panel can be packed while the last tasks of a round still read the
 *     current one. When all of A fits one block (few rows, as in
 *     64 x 4096 x 4096), a panel would be read once per tile row anyway:
 *     a task then takes its own columns of C and packs its own B in
 *     L2-sized pieces, which stay in L2 from packing to use, and waits for
 *     no one.
 *
 *  5. Dot tiles, taken first where the kernel table has them: a C of a few
 *     columns (up to 8 floats or 4 doubles with AVX-512) with A by rows,
 *     k along the vector, each element's lanes summed at the end
 *     (blocked_dot_tmpl.h). B's columns are packed once into rows.
 *
 * Threads (pool.h): the caller and up to nt - 1 workers claim the tasks
 * one at a time, in order; a task that needs others (a panel packed, the
 * previous kc block of its tile) waits for them, briefly spinning, then
 * sleeping. Whatever a late or descheduled thread has not claimed, the
 * others do, and the caller alone finishes a job no worker joins. A task
 * that uses a shared panel picks its block of C itself, its slot's own
 * row blocks first (GK_FN(pick), blocked_tasks_tmpl.h), so that each A
 * block is packed by one thread.
 *
 * The way, kc and the cutting into tasks depend on the shape and the thread
 * count nt asked for, never on which threads turn up. In ways 1 and 4 every
 * tile of C gets the same kernel arithmetic (the unpacked kernel matches the
 * packed one bit for bit), k blocked by the same kc, beta applied by the
 * first kc block, later ones accumulating in order; way 3 sums each element
 * in one task too. So a result does not depend on the tiles' order, on who
 * computed them or on nt (way 5 sums each element in its own vector, the
 * same whatever the tile), with one exception: way 2. Without
 * GK_FLAG_DETERMINISTIC it cuts K into one group per thread asked for (the
 * count then shows in the last bits, reproducibly); with the flag, into
 * groups whose size depends on k alone, summed in group order by one
 * thread: the same bits for any count.
 */

/* Which A block a slot's buffer holds: the round (jc, pc) and the rows. */
typedef struct {
	int64_t round, ic;
} GK_FN(aheld);

/* The packed way: its blocking, its buffers and its tasks. */
typedef struct {
	const GK_ARGS *p;
	gk_gemm_blocking bs;
	int64_t mr, nr;
	GK_T *bpack;  /* two kc x nc panels of B (shared), or two pieces per slot */
	GK_T *apack;  /* one mc x kc block of A per slot */
	int64_t apack_stride, bpack_stride;
	/* Shared panel: rounds r = (jc, pc), jc outer, npc of them per jc,
	 * panel r % 2 (of two, one for one thread); each round ptasks tasks packing the panel, then
	 * mb x jsn tasks using it (row blocks of mc x runs of the panel's
	 * slivers), in that order. Round r's panel is packed once round r - 2
	 * has finished reading it; a use waits for the panel, and for the
	 * same item of round r - 1 (the kc blocks of k go into C in order).
	 * A using task takes one of the round's items (GK_FN(pick)). */
	int64_t npc, ptasks, mb, jsn, rtasks, npanels;
	_Atomic int32_t *packed;  /* per round: packing tasks done */
	_Atomic int32_t *used;    /* per round: using tasks done */
	_Atomic int32_t *tile;    /* per using item of a round: rounds it has had */
	_Atomic int32_t *pick;    /* per round and using item: taken by a task */
	GK_FN(aheld) *held; /* per slot */
	int nt;             /* the threads asked for */
	/* Own columns: ctasks runs of column slivers. */
	int64_t ctasks;
} GK_FN(plan);

/* Lines of fetch-ahead one kernel call can be handed (a list on the
 * stack): enough for the 30 rows of 10 lines that a call of the
 * 64 x 4096 x 4096 SGEMM takes on. */
#ifndef GK_BLOCKED_PF_MAX
#define GK_BLOCKED_PF_MAX 512
#endif

/*
 * The next piece of B in the own-columns way (thread_cols), packed a chunk
 * of its rows at a time between the kernel calls on the current piece:
 * B(row, col) at src[row * rs + col], cols x rows of it (B^T packed by
 * rows: slivers of nr, ps apart, at dst); rows [0, row) packed so far,
 * [row, pfrow) requested already.
 *
 * Why by chunks: B's rows lie a multiple of 4 KiB apart (16 KiB in
 * 64 x 4096 x 4096), so the few lines a piece takes of each row all have
 * the same page offsets and compete for a few of the sets of L2 (10 of
 * every 64 for a piece 640 bytes wide): a whole next piece requested ahead
 * (374 KiB) did not stay there, and packing it went at DRAM latency. A
 * chunk requested during one kernel call and packed right after it does
 * stay (64 x 4096 x 4096, one thread: DGEMM 5% faster, SGEMM the same
 * within the noise).
 */
typedef struct {
	const gk_kernels *kern;
	const GK_T *src;
	GK_T *dst;
	int64_t rs, cols, rows, nr, ps;
	int64_t row, pfrow;
	/* The next kc block of A, when the next piece starts one: arows
	 * runs of abytes bytes, ars elements apart, from asrc (only
	 * requested, in step with the rows of B: the A block in use is
	 * packed at the start of the kc block, from memory otherwise; 100 x
	 * 100 x 1e5 SGEMM and DGEMM, AVX2 and AVX-512 on a Zen 5 core:
	 * 1.05-1.10x). arows is 0 otherwise. */
	const GK_T *asrc;
	int64_t ars, arows, abytes, arow;
} GK_FN(next);

/* A's runs due when rows [0, upto) of B's piece are. */
static inline int64_t GK_FN(next_arows)(const GK_FN(next) *x, int64_t upto)
{
	return x->rows > 0 ? x->arows * upto / x->rows : x->arows;
}

/* Rows [pfrow, upto) of *x requested now, into L2 (and A's runs in step). */
static inline void GK_FN(next_fetch)(GK_FN(next) *x, int64_t upto)
{
	const int64_t bytes = x->cols * (int64_t)sizeof(GK_T);
	const int whole = x->kern->gemm_pf_whole_lines;
	for (; x->pfrow < upto; x->pfrow++)
		GK_FOR_LINES(q, x->src + x->pfrow * x->rs, bytes, whole)
			__builtin_prefetch(q, 0, 2);
	if (x->arow < x->arows)
		for (const int64_t au = GK_FN(next_arows)(x, upto); x->arow < au; x->arow++)
			GK_FOR_LINES(q, x->asrc + x->arow * x->ars, x->abytes, whole)
				__builtin_prefetch(q, 0, 2);
}

/* The lines of rows [pfrow, upto) of *x listed in pf, for a kernel to
 * request (at most cap of them; rows past that are requested at once),
 * then those of A's runs in step; returns how many. */
static inline int64_t GK_FN(next_list)(GK_FN(next) *x, int64_t upto, const void **pf, int64_t cap)
{
	const int64_t bytes = x->cols * (int64_t)sizeof(GK_T);
	const int whole = x->kern->gemm_pf_whole_lines;
	int64_t q = 0;
	for (; x->pfrow < upto && q + gk_lines_of(x->src + x->pfrow * x->rs, bytes, whole) <= cap;
	     x->pfrow++)
		GK_FOR_LINES(l, x->src + x->pfrow * x->rs, bytes, whole)
			pf[q++] = l;
	if (x->arow < x->arows)
		for (const int64_t au = GK_FN(next_arows)(x, upto);
		     x->arow < au && q + gk_lines_of(x->asrc + x->arow * x->ars, x->abytes, whole) <= cap;
		     x->arow++)
			GK_FOR_LINES(l, x->asrc + x->arow * x->ars, x->abytes, whole)
				pf[q++] = l;
	GK_FN(next_fetch)(x, upto);
	return q;
}

/* Rows [row, upto) of *x packed. */
static inline void GK_FN(next_pack)(GK_FN(next) *x, int64_t upto)
{
	if (upto > x->row)
		GK_FN_PACK(x->kern, x->cols, upto - x->row, x->src + x->row * x->rs, 1, x->rs, x->nr,
		           x->dst + x->row * x->nr, x->ps);
	x->row = upto;
}

static inline int64_t GK_FN(min)(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The widest piece of B the own-columns way packs (cols_task): a quarter
 * over its width nc, a multiple of nr. */
static inline int64_t GK_FN(cols_most)(int64_t nc, int64_t nr)
{
	return nc + nc / 4 / nr * nr;
}

/* How many tasks to cut a job into for nt threads: one for one thread,
 * else `each` per thread, at most `most` (at least one). */
static inline int64_t GK_FN(tasks_of)(int nt, int64_t each, int64_t most)
{
	const int64_t want = nt > 1 ? each * nt : 1;
	return most < 1 ? 1 : want < most ? want : most;
}

/* GK_BLOCKED_TASKS per thread. */
static inline int64_t GK_FN(ntasks)(int nt, int64_t most)
{
	return GK_FN(tasks_of)(nt, GK_BLOCKED_TASKS, most);
}

/* The unpacked way, whose product has `work` multiply-adds: as many tasks
 * per thread as GK_BLOCKED_UTASK_WORK goes into its share, at least one and
 * at most GK_BLOCKED_TASKS. */
static inline int64_t GK_FN(utasks)(int nt, int64_t most, double work)
{
	const double per = work / ((double)nt * GK_BLOCKED_UTASK_WORK);
	return GK_FN(tasks_of)(nt, per < 1.0 ? 1 : per > GK_BLOCKED_TASKS ? GK_BLOCKED_TASKS : (int64_t)per,
	                       most);
}

/* A sliver's length in elements (blocked.h). */
#define GK_SLIVER(r, kc) gk_gemm_sliver(r, kc, sizeof(GK_T))

/* The direct calls of the smallest products and the tests of shape. */
#include "blocked_direct_tmpl.h"
/* Ways 1 to 3, which pack no panels. */
#include "blocked_unpacked_tmpl.h"
/* Way 5, dot tiles. */
#include "blocked_dot_tmpl.h"

/* ---- 4. packed --------------------------------------------------------- */

/* One tile of C at c, mv x nv of it inside C: the packed kernel for a whole
 * tile; on C's edges the edge kernel where the table has one and it does
 * fewer FMAs a step of k than the unpacked one (nv, one per column,
 * against one per row and vector of columns), else the unpacked one,
 * reading the same packed slivers in pieces of at most its own shape,
 * which needs no scratch tile. */
static inline void GK_FN(tile)(const GK_FN(plan) *pl, int64_t mv, int64_t nv, int64_t kc,
                               const GK_T *as, const GK_T *bs, GK_T beta, GK_T *c)
{
	const GK_ARGS *p = pl->p;
	if (mv == pl->mr && nv == pl->nr) {
		p->kern->GK_UKR(kc, p->alpha, as, bs, beta, c, p->rs_c);
		return;
	}
	if (p->kern->GK_UKR_E != NULL && nv <= GK_GEMM_E_MAX_COLS && mv <= p->kern->GK_EMR &&
	    nv < mv * ((nv + p->kern->GK_UVW - 1) / p->kern->GK_UVW)) {
		p->kern->GK_UKR_E(mv, nv, kc, p->alpha, as, pl->mr, bs, pl->nr, beta, c, p->rs_c);
		return;
	}
	const int64_t nu = p->kern->GK_UNR;
	for (int64_t j = 0; j < nv; j += nu) {
		const int64_t w = GK_FN(min)(nu, nv - j);
		GK_FN(rowplan) rp;
		/* All the rows the kernel takes, whatever kc: the cap along a
		 * long k (GK_BLOCKED_ULONG_K) is for A read where it lies, and
		 * this sliver is packed. Cut in two, the 14-row edge tiles of
		 * the AVX-512 SGEMM ran 2% slower (7 FMA chains; 1762 x 80 x
		 * 307, bench/results/2026-11-29-emr-edge/thin_cols.log). */
		GK_FN(rowplan_init)(&rp, mv, GK_FN(urows)(p->kern, w, 0));
		GK_FN(ucol)(p->kern, &rp, w, kc, p->alpha, as, 1, pl->mr, bs + j, pl->nr, beta, c + j,
		            p->rs_c);
	}
}

/* The macrokernel: C(0:mv, slivers js0..js1 of B) over one packed A block
 * and the packed B panel, depth kc. Normally the B sliver is the inner
 * loop's constant (it stays in L1 or L2 while the A block streams past).
 * When this thread's part of the B panel fits in L2 beside the A block
 * (short k, narrow n), the A sliver is the constant instead: C is then
 * walked along its rows, which matters when C traffic dominates
 * (4096 x 4096 x 64: 12% faster).
 * On a small L2 it is so for any panel (bs.b_walk, GK_BLOCKED_WALK_L2).
 * When nx is not NULL, the next piece of B is packed along the way (all of
 * it by the return). */
static void GK_FN(macro)(const GK_FN(plan) *pl, int64_t mv, int64_t nv, int64_t js0, int64_t js1,
                         int64_t kc, const GK_T *ap, int64_t ps_a, const GK_T *bp, int64_t ps_b,
                         GK_T beta, GK_T *c, GK_FN(next) *nx)
{
	const int64_t mr = pl->mr, nr = pl->nr, rs_c = pl->p->rs_c;
	if ((js1 - js0) * ps_b <= pl->bs.b_walk) {
		/* The next piece in chunks, one per tile: its rows requested during
		 * the kernel call (by the kernel of the whole tiles, along its k
		 * loop, where the table has one; else just before the call) and
		 * packed right after it. The same requests in one burst before
		 * each call stall on the full miss queue: 4% slower. */
		const __typeof__(pl->p->kern->GK_UKR_PF) kpf = pl->p->kern->GK_UKR_PF;
		const int64_t nfull = GK_FN(min)(js1, nv / nr) - js0;
		const int64_t full = mv / mr * (nfull > 0 ? nfull : 0);
		const int inkern = nx != NULL && kpf != NULL && full > 0;
		const int64_t tiles = inkern ? full : (mv + mr - 1) / mr * (js1 - js0);
		const int64_t chunk = nx != NULL ? (nx->rows + tiles - 1) / tiles : 0;
		int64_t upto = 0;
		for (int64_t i = 0, is = 0; i < mv; i += mr, is++)
			for (int64_t js = js0; js < js1; js++) {
				const int64_t h = GK_FN(min)(mv - i, mr), w = GK_FN(min)(nv - js * nr, nr);
				const GK_T *at = ap + is * ps_a, *bt = bp + js * ps_b;
				GK_T *ct = c + i * rs_c + js * nr;
				if (nx == NULL || (inkern && (h < mr || w < nr))) {
					GK_FN(tile)(pl, h, w, kc, at, bt, beta, ct);
					continue;
				}
				upto = GK_FN(min)(upto + chunk, nx->rows);
				if (inkern) {
					const void *pf[GK_BLOCKED_PF_MAX];
					const int64_t npf = GK_FN(next_list)(nx, upto, pf, GK_BLOCKED_PF_MAX);
					kpf(kc, pl->p->alpha, at, bt, beta, ct, rs_c, pf, npf, NULL, 0);
				} else {
					GK_FN(next_fetch)(nx, upto);
					GK_FN(tile)(pl, h, w, kc, at, bt, beta, ct);
				}
				GK_FN(next_pack)(nx, upto);
			}
	} else {
		/* Down the columns of C. Where the table has the prefetching
		 * kernel, each full tile also requests into L2, spread over its k
		 * loop:
		 * - a share of the next B sliver of the panel, all of it by the
		 *   last tile of the column, so that the first tiles of the next
		 *   column do not read it from L3 (1 thread on an Emerald Rapids
		 *   guest, against no requests: AVX2 DGEMM 1.02-1.07x at
		 *   1024^3-2048^3, SGEMM 0.98-1.02x, AVX-512 SGEMM 1.01-1.03x,
		 *   DGEMM 0.99-1.02x; the AVX2 DGEMM kernel alone over a
		 *   222 x 288 block of A and a 2048-wide panel from 0.93-0.96 to
		 *   0.975-0.99 of OpenBLAS's, bench/results/2026-11-29-emr-nextb/);
		 * - the next C tile, where the table says that it pays
		 *   (gemm_pf_next_c): C is read (beta != 0) and written once per
		 *   call, and from memory a tile's rows (a page apart on large
		 *   matrices) all at once at the start of the call outnumber the
		 *   misses a core keeps in flight. */
		const int nextc = pl->p->kern->gemm_pf_next_c;
		const __typeof__(pl->p->kern->GK_UKR_PF) kpf = pl->p->kern->GK_UKR_PF;
		const int64_t row_lines = (nr * (int64_t)sizeof(GK_T) + 63) / 64 + 1;
		const int64_t b_lines = (ps_b * (int64_t)sizeof(GK_T) + 63) / 64, na = mv / mr;
		for (int64_t js = js0; js < js1; js++) {
			const char *nb = (const char *)(bp + (js + 1) * ps_b);
			int64_t bq = js + 1 < js1 ? 0 : b_lines; /* lines of it handed out */
			for (int64_t i = 0, is = 0; i < mv; i += mr, is++) {
				const int64_t h = GK_FN(min)(mv - i, mr), w = GK_FN(min)(nv - js * nr, nr);
				const GK_T *at = ap + is * ps_a, *bt = bp + js * ps_b;
				GK_T *ct = c + i * rs_c + js * nr;
				if (kpf == NULL || h < mr || w < nr || mr * row_lines > GK_BLOCKED_PF_MAX) {
					GK_FN(tile)(pl, h, w, kc, at, bt, beta, ct);
					continue;
				}
				const void *pf[GK_BLOCKED_PF_MAX];
				int64_t npf = 0;
				/* The next C tile: below this one, else the top of the next
				 * column of tiles (none after the last). */
				const int64_t ni = i + mr < mv ? i + mr : 0, nj = i + mr < mv ? js : js + 1;
				if (nextc && nj < js1) {
					const int64_t nh = GK_FN(min)(mv - ni, mr), nw = GK_FN(min)(nv - nj * nr, nr);
					const char *nc0 = (const char *)(c + ni * rs_c + nj * nr);
					const int64_t bytes = nw * (int64_t)sizeof(GK_T);
					for (int64_t r = 0; r < nh; r++) {
						const char *row = nc0 + r * rs_c * (int64_t)sizeof(GK_T);
						for (int64_t o = 0; o < bytes; o += 64)
							pf[npf++] = row + o;
						pf[npf++] = row + bytes - 1;
					}
				}
				/* The next B sliver's share, a run of its lines. */
				const int64_t upto = b_lines * (is + 1) / na, from = bq;
				bq = upto > bq ? upto : bq;
				kpf(kc, pl->p->alpha, at, bt, beta, ct, rs_c, pf, npf, nb + 64 * from, bq - from);
			}
		}
	}
	if (nx != NULL)
		GK_FN(next_pack)(nx, nx->rows);
}

/* The tasks: a shared panel's, or runs of columns. */
#include "blocked_tasks_tmpl.h"

static gk_status GK_FN(packed)(const GK_ARGS *p, int nt)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	GK_FN(plan) pl = {.p = p, .mr = p->kern->GK_MR, .nr = p->kern->GK_NR, .nt = nt};
	gk_gemm_blocking_for(sizeof(GK_T), pl.mr, pl.nr, m, n, k, &pl.bs);
	const int64_t mr = pl.mr, nr = pl.nr;
	const int64_t mup = (m + mr - 1) / mr * mr, nup = (n + nr - 1) / nr * nr;
	const int64_t nsl = nup / nr;
	/* All of A in one block, and a run of column slivers for every thread:
	 * each task its own columns, B in pieces that fit L2. */
	const int cols = mup <= pl.bs.mc && nsl >= nt;
	/* The row walk of a run of a shared panel in L2 only for a product of
	 * one shallow block or a C that fits L2, where the table says so
	 * (gemm_walk_deep). The own columns keep it: their pieces of B are
	 * packed along it. */
	if (!cols && !p->kern->gemm_walk_deep && k >= pl.bs.kc && pl.bs.b_walk != INT64_MAX &&
	    (double)m * (double)n > 2.0 * (double)pl.bs.b_in_l2)
		pl.bs.b_walk = 0;
	if (pl.bs.kc > k)
		pl.bs.kc = k;
	if (pl.bs.mc > mup)
		pl.bs.mc = mup;
	if (!cols && nt > 1 && (mup + pl.bs.mc - 1) / pl.bs.mc < nt) {
		/* Fewer row blocks than threads: the slots that share a block
		 * would each pack all of it for their runs of the panel
		 * (GK_FN(pick)), up to nt times over for one block. Rows cut
		 * into a block per thread instead, of at least
		 * GK_BLOCKED_SPLIT_MIN slivers: each A block is packed once. */
		int64_t h = ((mup + nt - 1) / nt + mr - 1) / mr * mr;
		if (h < GK_BLOCKED_SPLIT_MIN * mr)
			h = GK_BLOCKED_SPLIT_MIN * mr;
		if (h < pl.bs.mc)
			pl.bs.mc = h;
	}
	/* Row blocks of equal height, as the panels below: a last block of a
	 * sliver or two (1024 = 4 x 252 + 16) runs the packed kernel over a
	 * whole B panel for a few rows. mc changes no sum: the same bits. */
	{
		const int64_t nb = (mup + pl.bs.mc - 1) / pl.bs.mc;
		pl.bs.mc = ((mup + nb - 1) / nb + mr - 1) / mr * mr;
	}
	if (cols) {
		/* Pieces of B such that A's block, the piece in use and the next
		 * one (packed along the way) fit L2 together. */
		const int64_t ps = GK_SLIVER(nr, pl.bs.kc);
		const int64_t room = 2 * pl.bs.b_in_l2 - mup * pl.bs.kc;
		/* At most GK_BLOCKED_PIECE_BYTES, or GK_BLOCKED_PIECE_A A slivers,
		 * or with threads rows of GK_BLOCKED_PIECE_ROW_MT bytes. */
		int64_t cap = GK_BLOCKED_PIECE_BYTES / (int64_t)sizeof(GK_T);
		const int64_t sa = GK_BLOCKED_PIECE_A * GK_SLIVER(mr, pl.bs.kc);
		const int64_t rows = GK_BLOCKED_PIECE_ROW_MT / (int64_t)sizeof(GK_T) * pl.bs.kc;
		if (sa > cap)
			cap = sa;
		if (nt > 1 && rows > cap)
			cap = rows;
		const int64_t nc = GK_FN(min)(room / 2, cap) / ps * nr;
		pl.bs.nc = nc < nr ? nr : nc;
	}
	if (pl.bs.nc > nup)
		pl.bs.nc = nup;
	if (!cols) {
		/* Panels of equal width: each panel packs all of A again, so a
		 * narrow last one (1024 = 1008 + 16) costs a whole packing of A
		 * for a sliver of work (DGEMM 1024^3 on a 48 KiB L1, 2 MiB L2:
		 * 1.10x, bench/results/2026-11-27-emr-cpu/logs/equal_panels.log).
		 * The same bits: nc changes no sum. */
		const int64_t np = (nup + pl.bs.nc - 1) / pl.bs.nc;
		pl.bs.nc = ((nup + np - 1) / np + nr - 1) / nr * nr;
	}
	if (!cols) {
		/* A shallow product writes C more than it computes: the
		 * macrokernel then does best walking C along its rows, with the
		 * B panel held in L2 (it does so for a panel, or a thread's run
		 * of it, of at most 2 b_in_l2). A panel that fills L2 is evicted
		 * by those rows of C on their way, and a larger one is walked by
		 * columns of C. So a shallow panel larger than b_in_l2 is cut to
		 * a quarter of L2, when that still leaves it GK_BLOCKED_SHALLOW_NC
		 * columns (A is packed again for each panel; 4096 x 4096 x 64
		 * DGEMM on a 2 MiB L2: 1.39x; on a 512 KiB L2 within 5%). nc
		 * changes no sum's order: the same bits. */
		const int64_t panel = pl.bs.kc * ((pl.bs.nc + nr - 1) / nr * nr);
		const int64_t fit = pl.bs.b_in_l2 / 2 / pl.bs.kc / nr * nr;
		if (pl.bs.kc == k && panel > pl.bs.b_in_l2 && fit >= GK_BLOCKED_SHALLOW_NC)
			pl.bs.nc = fit;
	}
	const int64_t ps_a = GK_SLIVER(mr, pl.bs.kc), ps_b = GK_SLIVER(nr, pl.bs.kc);
	pl.apack_stride = pl.bs.mc / mr * ps_a;
	pl.bpack_stride = (cols ? GK_FN(min)(GK_FN(cols_most)(pl.bs.nc, nr), nup) : pl.bs.nc) / nr * ps_b;
	/* Shared panel: its rounds, and tasks enough to share among the
	 * threads: row blocks, each cut into runs of slivers when they are
	 * too few (runs of at least GK_BLOCKED_RUN_MIN slivers). */
	const int64_t psl = (pl.bs.nc + nr - 1) / nr;
	const int64_t rounds = cols ? 0 : (n + pl.bs.nc - 1) / pl.bs.nc * ((k + pl.bs.kc - 1) / pl.bs.kc);
	if (!cols) {
		pl.npc = (k + pl.bs.kc - 1) / pl.bs.kc;
		pl.mb = (m + pl.bs.mc - 1) / pl.bs.mc;
		pl.ptasks = GK_FN(ntasks)(nt, psl);
		const int64_t want = GK_FN(ntasks)(nt, INT64_MAX);
		/* At least as many runs as the columns of the static grid of
		 * nt threads that balances best: a run of a short panel then
		 * fits L2, and the macrokernel walks C along its rows. */
		const int tm = gk_gemm_grid(nt, (m + mr - 1) / mr, psl, 0);
		int64_t jsn = (want + pl.mb - 1) / pl.mb, jsmax = psl / GK_BLOCKED_RUN_MIN;
		if (jsn < nt / tm)
			jsn = nt / tm;
		/* Items that the threads share evenly, where the panel has the
		 * slivers: 512^3 SGEMM on two threads had 3 row blocks x 3
		 * runs, 5 items for one thread and 4 for the other. The runs
		 * change no sum: the same bits. */
		while (pl.mb * jsn % nt != 0 && jsn < jsmax)
			jsn++;
		pl.jsn = jsn < jsmax ? jsn : jsmax < 1 ? 1 : jsmax;
		pl.rtasks = pl.ptasks + pl.mb * pl.jsn;
	}
	const int64_t nuse = pl.rtasks - pl.ptasks;
	/* Two pieces per slot, or two panels (one for one thread). */
	pl.npanels = nt > 1 ? 2 : 1;
	const int64_t nb = cols ? 2 * (int64_t)nt : pl.npanels;
	const size_t bbytes = (size_t)(pl.bpack_stride * nb) * sizeof(GK_T);
	const size_t abytes = (size_t)(pl.apack_stride * nt) * sizeof(GK_T);
	const size_t hbytes = (size_t)nt * sizeof(GK_FN(aheld));
	const size_t mbytes = (size_t)(2 * rounds + nuse + rounds * nuse) * sizeof(_Atomic int32_t);
	char *ws = gk_gemm_workspace_get(bbytes + abytes + hbytes + mbytes);
	if (ws == NULL)
		return GK_ERR_NO_MEMORY;
	pl.bpack = (GK_T *)ws;
	pl.apack = (GK_T *)(ws + bbytes);
	pl.held = (GK_FN(aheld) *)(ws + bbytes + abytes);
	for (int i = 0; i < nt; i++)
		pl.held[i] = (GK_FN(aheld)){-1, -1};
	gk_job job = {.arg = &pl, .threads = nt, .work = (double)m * (double)n * (double)k};
	if (cols) {
		/* Runs of at least GK_BLOCKED_COLS_MIN slivers: each task packs
		 * all of A again. */
		pl.ctasks = GK_FN(ntasks)(nt, nsl / GK_BLOCKED_COLS_MIN > nt ? nsl / GK_BLOCKED_COLS_MIN : nt);
		job.run = GK_FN(cols_task);
		job.tasks = pl.ctasks;
	} else {
		pl.packed = (_Atomic int32_t *)(ws + bbytes + abytes + hbytes);
		pl.used = pl.packed + rounds;
		pl.tile = pl.used + rounds;
		pl.pick = pl.tile + nuse;
		for (int64_t i = 0; i < 2 * rounds + nuse + rounds * nuse; i++)
			atomic_init(&pl.packed[i], 0);
		job.run = GK_FN(panel_task);
		job.ready = GK_FN(panel_ready);
		job.tasks = rounds * pl.rtasks;
	}
	gk_pool_run(&job);
	gk_gemm_workspace_put(ws);
	return GK_OK;
}

/* ---- without workspace ------------------------------------------------ */

/* Bytes of B packed on the stack when no workspace can be had. */
#define GK_BLOCKED_STACK_BYTES 16384

/*
 * When a way cannot have its workspace (out of memory): all of C with the
 * unpacked kernel on the calling thread, and B, when its rows are not
 * contiguous, packed one sliver at a time into a buffer on the stack, in
 * blocks of as many rows as fit it. Slower, and its own last bits, but it
 * needs no memory: the driver computes every product it is given (the BLAS
 * entry points, which cannot report a failure, count on that).
 */
static gk_status GK_FN(no_workspace)(const GK_ARGS *p, int64_t kc)
{
	if (p->cs_b == 1) {
		GK_FN(usweep)(p, 0, p->m, 0, p->n, 0, p->k, kc, p->alpha, p->beta, p->c, p->rs_c, NULL);
		return GK_OK;
	}
	GK_T buf[GK_BLOCKED_STACK_BYTES / sizeof(GK_T)] __attribute__((aligned(GK_PACK_ALIGN)));
	const int64_t nr = p->kern->GK_UNR;
	const int64_t kcs = (int64_t)(sizeof buf / sizeof buf[0]) / nr;
	for (int64_t j = 0; j < p->n; j += nr)
		GK_FN(usweep)(p, 0, p->m, j, GK_FN(min)(j + nr, p->n), 0, p->k, kcs, p->alpha, p->beta,
		              p->c, p->rs_c, buf);
	return GK_OK;
}

#include "blocked_choice_tmpl.h"
