/*
 * blocked_tmpl.h - the production CPU GEMM ("cpu.blocked"), written once for
 * both precisions: blocked_f32.c and blocked_f64.c name the type, the
 * kernel slots, and GK_FN(x), which gives each function its suffix.
 *
 * A call goes one of four ways, chosen from its shape (blocked.h has the
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
 *           for ic in this thread's rows, by mc:   A block mc x kc   (L2)
 *             pack A(ic:ic+mc, pc:pc+kc) into MR-tall slivers    per thread
 *             for jr in this thread's B slivers:   B sliver kc x NR
 *               for ir in the A block by MR:       A sliver MR x kc  (L1)
 *                 microkernel: C(ir, jr) = beta C + alpha A-sliver B-sliver
 *
 *     Threads form a grid over the rows of C (each with its own A block)
 *     and the slivers of the B panel (packed by everyone together). When
 *     all of A fits one block (few rows, as in 64 x 4096 x 4096), a panel
 *     would be read once per tile row anyway: each thread then takes its
 *     own columns of C and packs its own B in L2-sized pieces, which stay
 *     in L2 from packing to use, with no barrier.
 *
 * The way and kc depend on the shape, never on the thread count. In ways 1
 * and 4 every tile of C gets the same kernel arithmetic (the unpacked
 * kernel matches the packed one bit for bit), k blocked by the same kc,
 * beta applied by the first kc block, later ones accumulating; way 3 sums
 * each element in one thread too. So a result does not depend on the
 * tiles' order or on the thread count, with one exception: way 2. Without
 * GK_FLAG_DETERMINISTIC it cuts K into one group per thread (the count then
 * shows in the last bits, reproducibly); with the flag, into groups whose
 * size depends on k alone, summed in group order by one thread: the same
 * bits for any count. No work is handed out dynamically.
 */

/* One thread's share of the packed way, and the buffers it works in. */
typedef struct {
	const GK_ARGS *p;
	gk_gemm_blocking bs;
	int64_t mr, nr;
	GK_T *bpack;  /* the shared kc x nc panel of B, or one piece per thread */
	GK_T *apack;  /* one mc x kc block of A per thread */
	int64_t apack_stride, bpack_stride;
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
	const GK_T *src;
	GK_T *dst;
	int64_t rs, cols, rows, nr, ps;
	int64_t row, pfrow;
} GK_FN(next);

/* Rows [pfrow, upto) of *x requested now, into L2. */
static inline void GK_FN(next_fetch)(GK_FN(next) *x, int64_t upto)
{
	const int64_t bytes = x->cols * (int64_t)sizeof(GK_T);
	for (; x->pfrow < upto; x->pfrow++)
		for (int64_t o = 0; o < bytes; o += 64)
			__builtin_prefetch((const char *)(x->src + x->pfrow * x->rs) + o, 0, 2);
}

/* The lines of rows [pfrow, upto) of *x listed in pf, for a kernel to
 * request (at most cap of them; rows past that are requested at once);
 * returns how many. */
static inline int64_t GK_FN(next_list)(GK_FN(next) *x, int64_t upto, const void **pf, int64_t cap)
{
	const int64_t bytes = x->cols * (int64_t)sizeof(GK_T), lines = (bytes + 63) / 64;
	int64_t q = 0;
	for (; x->pfrow < upto && q + lines <= cap; x->pfrow++)
		for (int64_t o = 0; o < bytes; o += 64)
			pf[q++] = (const char *)(x->src + x->pfrow * x->rs) + o;
	GK_FN(next_fetch)(x, upto);
	return q;
}

/* Rows [row, upto) of *x packed. */
static inline void GK_FN(next_pack)(GK_FN(next) *x, int64_t upto)
{
	if (upto > x->row)
		GK_FN_PACK(x->cols, upto - x->row, x->src + x->row * x->rs, 1, x->rs, x->nr,
		           x->dst + x->row * x->nr, x->ps);
	x->row = upto;
}

static inline int64_t GK_FN(min)(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* A sliver's length in elements (blocked.h). */
#define GK_SLIVER(r, kc) gk_gemm_sliver(r, kc, sizeof(GK_T))

/* Ways 1 to 3, which pack no panels. */
#include "blocked_unpacked_tmpl.h"

/* ---- 4. packed --------------------------------------------------------- */

/* One tile of C at c, mv x nv of it inside C: the packed kernel for a whole
 * tile; on C's edges the unpacked one, reading the same packed slivers in
 * pieces of at most its own shape, which needs no scratch tile. */
static inline void GK_FN(tile)(const GK_FN(plan) *pl, int64_t mv, int64_t nv, int64_t kc,
                               const GK_T *as, const GK_T *bs, GK_T beta, GK_T *c)
{
	const GK_ARGS *p = pl->p;
	if (mv == pl->mr && nv == pl->nr) {
		p->kern->GK_UKR(kc, p->alpha, as, bs, beta, c, p->rs_c);
		return;
	}
	const int64_t nu = p->kern->GK_UNR;
	for (int64_t j = 0; j < nv; j += nu) {
		const int64_t w = GK_FN(min)(nu, nv - j);
		GK_FN(rowplan) rp;
		GK_FN(rowplan_init)(&rp, mv, GK_FN(urows)(p->kern, w));
		for (int64_t ib = 0, i = 0; ib < rp.nblk; ib++) {
			const int64_t h = rp.base + (ib < rp.extra);
			p->kern->GK_UKR_U(h, w, kc, p->alpha, as + i, 1, pl->mr, bs + j, pl->nr, beta,
			                  c + i * p->rs_c + j, p->rs_c);
			i += h;
		}
	}
}

/* The macrokernel: C(0:mv, slivers js0..js1 of B) over one packed A block
 * and the packed B panel, depth kc. Normally the B sliver is the inner
 * loop's constant (it stays in L1 or L2 while the A block streams past).
 * When this thread's part of the B panel fits in L2 anyway (short k, narrow
 * n), the A sliver is the constant instead: C is then walked along its rows,
 * which matters when C traffic dominates (4096 x 4096 x 64: 12% faster).
 * When nx is not NULL, the next piece of B is packed along the way (all of
 * it by the return). */
static void GK_FN(macro)(const GK_FN(plan) *pl, int64_t mv, int64_t nv, int64_t js0, int64_t js1,
                         int64_t kc, const GK_T *ap, int64_t ps_a, const GK_T *bp, int64_t ps_b,
                         GK_T beta, GK_T *c, GK_FN(next) *nx)
{
	const int64_t mr = pl->mr, nr = pl->nr, rs_c = pl->p->rs_c;
	if ((js1 - js0) * ps_b <= 2 * pl->bs.b_in_l2) {
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
					kpf(kc, pl->p->alpha, at, bt, beta, ct, rs_c, pf, npf);
				} else {
					GK_FN(next_fetch)(nx, upto);
					GK_FN(tile)(pl, h, w, kc, at, bt, beta, ct);
				}
				GK_FN(next_pack)(nx, upto);
			}
	} else {
		for (int64_t js = js0; js < js1; js++)
			for (int64_t i = 0, is = 0; i < mv; i += mr, is++)
				GK_FN(tile)(pl, GK_FN(min)(mv - i, mr), GK_FN(min)(nv - js * nr, nr), kc,
				            ap + is * ps_a, bp + js * ps_b, beta, c + i * rs_c + js * nr);
	}
	if (nx != NULL)
		GK_FN(next_pack)(nx, nx->rows);
}

/* The shared-panel loops, for thread tid of nth on a tm x (nth / tm) grid. */
static void GK_FN(thread)(const GK_FN(plan) *pl, int tid, int nth, int tm)
{
	const GK_ARGS *p = pl->p;
	const int64_t m = p->m, n = p->n, k = p->k, mr = pl->mr, nr = pl->nr;
	const int64_t mc = pl->bs.mc, kc = pl->bs.kc, nc = pl->bs.nc;
	const int tn = nth / tm, ti = tid / tn, tj = tid % tn;
	/* This thread's rows of C. */
	int64_t i0, i1;
	gk_gemm_range(m, mr, ti, tm, &i0, &i1);
	GK_T *apack = pl->apack + (int64_t)tid * pl->apack_stride;

	for (int64_t jc = 0; jc < n; jc += nc) {
		const int64_t nv = GK_FN(min)(n - jc, nc);
		const int64_t nsl = (nv + nr - 1) / nr;
		for (int64_t pc = 0; pc < k; pc += kc) {
			const int64_t kv = GK_FN(min)(k - pc, kc);
			const int64_t ps_a = GK_SLIVER(mr, kv), ps_b = GK_SLIVER(nr, kv);
			const GK_T beta = pc == 0 ? p->beta : (GK_T)1;
			/* Everyone packs a share of the B panel's slivers. */
			const int64_t b0 = gk_gemm_split(nsl, tid, nth), b1 = gk_gemm_split(nsl, tid + 1, nth);
			if (b1 > b0) {
				const int64_t jv = GK_FN(min)(b1 * nr, nv) - b0 * nr;
				GK_FN_PACK(jv, kv, p->b + pc * p->rs_b + (jc + b0 * nr) * p->cs_b, p->cs_b,
				           p->rs_b, nr, pl->bpack + b0 * ps_b, ps_b);
			}
			if (nth > 1) {
#pragma omp barrier
			}
			const int64_t js0 = gk_gemm_split(nsl, tj, tn), js1 = gk_gemm_split(nsl, tj + 1, tn);
			for (int64_t ic = i0; ic < i1 && js1 > js0; ic += mc) {
				const int64_t mv = GK_FN(min)(i1 - ic, mc);
				GK_FN_PACK(mv, kv, p->a + ic * p->rs_a + pc * p->cs_a, p->rs_a, p->cs_a, mr,
				           apack, ps_a);
				GK_FN(macro)(pl, mv, nv, js0, js1, kv, apack, ps_a, pl->bpack, ps_b, beta,
				             p->c + ic * p->rs_c + jc, NULL);
			}
			/* The panel is repacked next round: wait until nobody reads it. */
			if (nth > 1) {
#pragma omp barrier
			}
		}
	}
}

/* The own-columns loops, when all of A is one block: thread tid of nth
 * takes a run of column slivers of C and packs, for each kc block, all of A
 * and then its columns of B a piece of nc (pl->bs.nc, sized for L2) at a
 * time, each piece used by every tile row while still in L2. B is read
 * once, from memory: while the kernels work on one piece, the next (the
 * next columns, or the first of the next kc block) is fetched and packed
 * into the other of two buffers, chunk by chunk (GK_FN(next)), so that
 * packing it does not wait on memory. */
static void GK_FN(thread_cols)(const GK_FN(plan) *pl, int tid, int nth)
{
	const GK_ARGS *p = pl->p;
	const int64_t m = p->m, n = p->n, k = p->k, mr = pl->mr, nr = pl->nr;
	const int64_t kc = pl->bs.kc, nc = pl->bs.nc;
	int64_t j0, j1;
	gk_gemm_range(n, nr, tid, nth, &j0, &j1);
	GK_T *apack = pl->apack + (int64_t)tid * pl->apack_stride;
	GK_T *bpack[2] = {pl->bpack + (int64_t)(2 * tid) * pl->bpack_stride,
	                  pl->bpack + (int64_t)(2 * tid + 1) * pl->bpack_stride};
	if (j1 <= j0)
		return;
	int cur = 0, packed = 0;
	for (int64_t pc = 0; pc < k; pc += kc) {
		const int64_t kv = GK_FN(min)(k - pc, kc);
		const int64_t ps_a = GK_SLIVER(mr, kv), ps_b = GK_SLIVER(nr, kv);
		const GK_T beta = pc == 0 ? p->beta : (GK_T)1;
		GK_FN_PACK(m, kv, p->a + pc * p->cs_a, p->rs_a, p->cs_a, mr, apack, ps_a);
		for (int64_t jc = j0; jc < j1; jc += nc, cur ^= 1) {
			const int64_t nv = GK_FN(min)(j1 - jc, nc);
			if (!packed)
				GK_FN_PACK(nv, kv, p->b + pc * p->rs_b + jc * p->cs_b, p->cs_b, p->rs_b, nr,
				           bpack[cur], ps_b);
			/* The next piece: the next columns, or the first of the next
			 * kc block; by chunks when B's rows are contiguous. */
			const int64_t pn = jc + nc < j1 ? pc : pc + kc, jn = jc + nc < j1 ? jc + nc : j0;
			packed = p->cs_b == 1 && pn < k;
			GK_FN(next) nx;
			if (packed) {
				const int64_t kn = GK_FN(min)(k - pn, kc);
				nx = (GK_FN(next)){.src = p->b + pn * p->rs_b + jn, .dst = bpack[cur ^ 1],
				                   .rs = p->rs_b, .cols = GK_FN(min)(j1 - jn, nc), .rows = kn,
				                   .nr = nr, .ps = GK_SLIVER(nr, kn), .row = 0, .pfrow = 0};
			}
			GK_FN(macro)(pl, m, nv, 0, (nv + nr - 1) / nr, kv, apack, ps_a, bpack[cur], ps_b,
			             beta, p->c + jc, packed ? &nx : NULL);
		}
	}
}

static gk_status GK_FN(packed)(const GK_ARGS *p, int nt)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	GK_FN(plan) pl = {.p = p, .mr = p->kern->GK_MR, .nr = p->kern->GK_NR};
	gk_gemm_blocking_get(sizeof(GK_T), pl.mr, pl.nr, &pl.bs);
	const int64_t mr = pl.mr, nr = pl.nr;
	const int64_t mup = (m + mr - 1) / mr * mr, nup = (n + nr - 1) / nr * nr;
	const int64_t nsl = nup / nr;
	/* All of A in one block, and a run of column slivers for every thread:
	 * each thread its own columns, B in pieces that fit L2. */
	const int cols = mup <= pl.bs.mc && nsl >= nt;
	if (pl.bs.kc > k)
		pl.bs.kc = k;
	if (pl.bs.mc > mup)
		pl.bs.mc = mup;
	if (cols) {
		/* Pieces of B such that A's block, the piece in use and the next
		 * one (packed along the way) fit L2 together. */
		const int64_t ps = GK_SLIVER(nr, pl.bs.kc);
		const int64_t room = 2 * pl.bs.b_in_l2 - mup * pl.bs.kc;
		const int64_t nc = room / 2 / ps * nr;
		pl.bs.nc = nc < nr ? nr : nc;
	}
	if (pl.bs.nc > nup)
		pl.bs.nc = nup;
	const int64_t ps_a = GK_SLIVER(mr, pl.bs.kc), ps_b = GK_SLIVER(nr, pl.bs.kc);
	pl.apack_stride = pl.bs.mc / mr * ps_a;
	pl.bpack_stride = pl.bs.nc / nr * ps_b;
	const int nb = cols ? 2 * nt : 1; /* two pieces per thread */
	const size_t bbytes = (size_t)(pl.bpack_stride * nb) * sizeof(GK_T);
	const size_t abytes = (size_t)(pl.apack_stride * nt) * sizeof(GK_T);
	char *ws = gk_gemm_workspace_get(bbytes + abytes);
	if (ws == NULL)
		return GK_ERR_NO_MEMORY;
	pl.bpack = (GK_T *)ws;
	pl.apack = (GK_T *)(ws + bbytes);
	if (nt == 1) {
		if (cols)
			GK_FN(thread_cols)(&pl, 0, 1);
		else
			GK_FN(thread)(&pl, 0, 1, 1);
	} else {
#pragma omp parallel num_threads(nt)
		{
			/* The runtime may grant fewer threads than asked for. */
			const int nth = omp_get_num_threads(), t = omp_get_thread_num();
			if (cols)
				GK_FN(thread_cols)(&pl, t, nth);
			else
				GK_FN(thread)(&pl, t, nth,
				              gk_gemm_grid(nth, (m + mr - 1) / mr,
				                           (GK_FN(min)(n, pl.bs.nc) + nr - 1) / nr, 0));
		}
	}
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

/* ---- the choice -------------------------------------------------------- */

/* Whether a small product is better packed because of B's row stride
 * (blocked.h, GK_BLOCKED_ALIAS_*): its rows, read where they lie, a
 * multiple of ALIAS_BYTES apart (or of ALIAS_NEAR_BYTES, for larger
 * products), and m, n and k past the sizes for which packing does not pay.
 * From the shape and strides alone. */
static inline int GK_FN(b_aliases)(const GK_ARGS *p)
{
	if (p->cs_b != 1 || p->rs_b <= 0 || p->m <= GK_BLOCKED_ALIAS_MIN ||
	    p->n <= GK_BLOCKED_ALIAS_MIN || p->k < GK_BLOCKED_ALIAS_DEPTH)
		return 0;
	const int64_t bytes = p->rs_b * (int64_t)sizeof(GK_T);
	if (bytes % GK_BLOCKED_ALIAS_BYTES == 0)
		return 1;
	return bytes % GK_BLOCKED_ALIAS_NEAR_BYTES == 0 && p->m > GK_BLOCKED_ALIAS_NEAR_MIN &&
	       p->n > GK_BLOCKED_ALIAS_NEAR_MIN && p->k > GK_BLOCKED_ALIAS_NEAR_MIN;
}

/* Ways 1 to 4 for p on nt threads; GK_ERR_NO_MEMORY when the way's
 * workspace cannot be had (before anything is written). */
static gk_status GK_FN(ways)(const GK_ARGS *p, int nt, int64_t kc)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	const double work = (double)m * (double)n * (double)k;
	const int det = (p->flags & GK_FLAG_DETERMINISTIC) != 0;
	const int skinny = m <= GK_BLOCKED_SKINNY && n <= GK_BLOCKED_SKINNY;
	if (skinny) {
		/* Way 2: the depth in groups. With the flag the groups depend on k
		 * alone (at most GK_BLOCKED_GROUPS of at least GK_BLOCKED_GROUP_MIN
		 * kc blocks), whatever the thread count, one thread included;
		 * without it, one group per thread. */
		const int64_t gmin = GK_BLOCKED_GROUP_MIN * kc;
		int64_t gsize = 0;
		if (det && k >= 2 * gmin) {
			const int64_t g = (k + GK_BLOCKED_GROUPS - 1) / GK_BLOCKED_GROUPS;
			gsize = g < gmin ? gmin : (g + kc - 1) / kc * kc;
		} else if (!det && nt > 1 && k >= 2 * gmin) {
			const int64_t t = k / gmin < nt ? k / gmin : nt;
			gsize = ((k + t - 1) / t + kc - 1) / kc * kc;
		}
		if (gsize > 0 && gsize < k)
			return GK_FN(ksplit)(p, nt, kc, (k + gsize - 1) / gsize, gsize);
	}
	/* Way 1: small or skinny. */
	if (skinny || (work <= GK_BLOCKED_SMALL_WORK && m <= GK_BLOCKED_SMALL_DIM &&
	               n <= GK_BLOCKED_SMALL_DIM && k <= GK_BLOCKED_SMALL_DIM &&
	               !GK_FN(b_aliases)(p)))
		return GK_FN(unpacked)(p, nt, kc);
	/* Way 3: shapes that are really matrix-vector products stream their
	 * operands once, unpacked: a row or two of C against rows of B (axpy
	 * along them), or a few columns of C (dot products with rows of A);
	 * a tile of the unpacked kernel would hold one or two FMA chains. */
	if (m <= GK_BLOCKED_AXPY_ROWS && p->cs_b == 1)
		return GK_FN(axpy_path)(p, nt);
	if (n <= GK_BLOCKED_DOT_COLS && p->cs_a == 1)
		return GK_FN(dot_path)(p, nt);
	/* Way 1 again for thin products, whatever their other sides: few
	 * columns (A read once, B's columns in cache across its rows) or few
	 * rows. Packing would copy a whole operand to use it a few times. (Few
	 * rows of a wide B by columns would need all of a kc block of B
	 * repacked at once: packed, by pieces, then.) */
	if (n <= GK_BLOCKED_THIN_COLS || (m <= GK_BLOCKED_SKINNY && p->cs_b == 1))
		return GK_FN(unpacked)(p, nt, kc);
	return GK_FN(packed)(p, nt);
}

gk_status GK_FN_BLOCKED(const GK_ARGS *p)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	const int64_t mr = p->kern->GK_MR, nr = p->kern->GK_NR;
	const int64_t kc = gk_gemm_kc(sizeof(GK_T), mr, nr);
	/* Never more threads than the work keeps busy. */
	const int nt = gk_gemm_threads(p->threads, (double)m, (double)n, (double)k);
	/* All of C one column of tiles of the unpacked kernel, k one block, one
	 * thread: the calls straight away. At 16 x 16 x 16 the loops of way 1
	 * around them cost a sixth. */
	if (nt == 1 && k <= kc && p->cs_b == 1 && n <= p->kern->GK_UNR) {
		GK_FN(rowplan) rp;
		GK_FN(rowplan_init)(&rp, m, GK_FN(urows)(p->kern, n));
		const GK_T *a = p->a;
		GK_T *c = p->c;
		for (int64_t ib = 0; ib < rp.nblk; ib++) {
			const int64_t mv = rp.base + (ib < rp.extra);
			p->kern->GK_UKR_U(mv, n, k, p->alpha, a, p->rs_a, p->cs_a, p->b, p->rs_b, p->beta,
			                  c, p->rs_c);
			a += mv * p->rs_a;
			c += mv * p->rs_c;
		}
		return GK_OK;
	}
	const gk_status st = GK_FN(ways)(p, nt, kc);
	return st == GK_OK ? st : GK_FN(no_workspace)(p, kc);
}

