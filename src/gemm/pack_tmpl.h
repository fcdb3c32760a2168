/*
 * pack_tmpl.h - packing of A blocks and B panels into microkernel slivers,
 * written once for both precisions (pack_f32.c, pack_f64.c name GK_T and
 * GK_FN_PACK). The layout is in blocked.h and drawn in docs/KERNELS.md.
 *
 * Three paths, by which stride of X is 1:
 *  - rs == 1: the r entries of a sliver column are adjacent in X (A stored
 *    by columns, B by rows): a group of slivers at a time, each column of
 *    X read in one contiguous run of the group's width, cut into short
 *    copies;
 *  - cs == 1: each row of the sliver is contiguous (A by rows, B by
 *    columns): the table's pack_t kernel where it has one (a transpose in
 *    registers), else read row by row, written with stride r into the
 *    sliver, which is small enough to stay in L1;
 *  - anything else: element by element.
 */

/* One sliver of rv <= r valid rows, X's rows not contiguous (rs != 1);
 * rows rv..r-1 are zero. */
static void GK_FN_PACK_SLIVER(int64_t rv, int64_t kc, const GK_T *restrict x, int64_t rs,
                              int64_t cs, int64_t r, GK_T *restrict d)
{
	if (cs == 1) {
		/* A cache line of each row at a time, so that the part of the
		 * sliver being written stays in L1 while the r rows are read. */
		const int64_t lb_max = GK_PACK_ALIGN / (int64_t)sizeof(GK_T);
		for (int64_t l0 = 0; l0 < kc; l0 += lb_max) {
			const int64_t lb = kc - l0 < lb_max ? kc - l0 : lb_max;
			for (int64_t i = 0; i < rv; i++) {
				const GK_T *xi = x + i * rs + l0;
				GK_T *di = d + l0 * r + i;
				for (int64_t l = 0; l < lb; l++)
					di[l * r] = xi[l];
			}
		}
	} else {
		for (int64_t l = 0; l < kc; l++)
			for (int64_t i = 0; i < rv; i++)
				d[l * r + i] = x[i * rs + l * cs];
	}
	for (int64_t l = 0; l < kc; l++)
		for (int64_t i = rv; i < r; i++)
			d[l * r + i] = 0;
}

/* Row l of slivers s0 .. s1: `bytes` (a constant) from X's column l at
 * xl + s * r to each sliver s. */
#define GK_FN_PACK_ROWS(bytes)                                                 \
	do {                                                                   \
		for (int64_t s = s0; s < s1; s++)                              \
			memcpy(dst + s * ps + l * r, xl + s * r, (bytes));     \
	} while (0)

/* Full slivers s0 .. s1 of X whose sliver columns are contiguous (rs == 1),
 * column by column. */
static void GK_FN_PACK_GROUP(const GK_T *restrict x, int64_t cs, int64_t kc, int64_t r, int64_t s0,
                             int64_t s1, GK_T *restrict dst, int64_t ps)
{
	const int64_t run = (s1 - s0) * r * (int64_t)sizeof(GK_T);
	for (int64_t l = 0; l < kc; l++) {
		const GK_T *xl = x + l * cs;
		/* The column PACK_AHEAD further on, requested now: columns far
		 * apart (B rows of a wide B) each start a new page, where the
		 * hardware prefetchers are slow to follow. */
		if (l + GK_PACK_AHEAD < kc) {
			GK_FOR_LINES(q, xl + GK_PACK_AHEAD * cs + s0 * r, run, 1)
				__builtin_prefetch(q);
		}
		/* A sliver row of the kernels' widths in one fixed-size copy
		 * (vector moves, no loop); others in pieces of 8. */
		switch (r * (int64_t)sizeof(GK_T)) {
		case 16:
			GK_FN_PACK_ROWS(16);
			break;
		case 24:
			GK_FN_PACK_ROWS(24);
			break;
		case 32:
			GK_FN_PACK_ROWS(32);
			break;
		case 48:
			GK_FN_PACK_ROWS(48);
			break;
		case 56:
			GK_FN_PACK_ROWS(56);
			break;
		case 64:
			GK_FN_PACK_ROWS(64);
			break;
		case 96:
			GK_FN_PACK_ROWS(96);
			break;
		case 128:
			GK_FN_PACK_ROWS(128);
			break;
		case 192:
			GK_FN_PACK_ROWS(192);
			break;
		default:
			for (int64_t s = s0; s < s1; s++) {
				const GK_T *restrict xs = xl + s * r;
				GK_T *restrict d = dst + s * ps + l * r;
				int64_t i = 0;
				for (; i + 8 <= r; i += 8)
					for (int q = 0; q < 8; q++)
						d[i + q] = xs[i + q];
				for (; i < r; i++)
					d[i] = xs[i];
			}
		}
	}
}
#undef GK_FN_PACK_ROWS

void GK_FN_PACK(const gk_kernels *kern, int64_t rows, int64_t kc, const GK_T *x, int64_t rs,
                int64_t cs, int64_t r, GK_T *dst, int64_t ps)
{
	if (cs == 1 && rs != 1 && kern->GK_PACK_T != NULL) {
		kern->GK_PACK_T(rows, kc, x, rs, r, dst, ps);
		return;
	}
	if (rs == 1) {
		/* A group of slivers at a time, column by column: each column of
		 * X (a row of B, or a column of A by columns) is read in runs of
		 * GK_PACK_GROUP_BYTES, and the group's slivers are written one
		 * after the other. Across all slivers at once, a wide panel's
		 * slivers each had a partly written line in flight for every
		 * column: a 256 x 2048 panel of doubles in slivers of 12 packed
		 * at 5.0-5.6 GB/s from memory, 7.4-7.8 in groups of four, on an
		 * Emerald Rapids core (bench/results/2026-11-29-emr-pack/). */
		const int64_t full = rows / r, rv = rows - full * r;
		const int64_t rb = r * (int64_t)sizeof(GK_T);
		const int64_t group = rb < GK_PACK_GROUP_BYTES ? GK_PACK_GROUP_BYTES / rb : 1;
		for (int64_t s0 = 0; s0 < full; s0 += group)
			GK_FN_PACK_GROUP(x, cs, kc, r, s0, s0 + group < full ? s0 + group : full, dst, ps);
		if (rv > 0)
			for (int64_t l = 0; l < kc; l++) {
				const GK_T *xs = x + l * cs + full * r;
				GK_T *d = dst + full * ps + l * r;
				for (int64_t i = 0; i < r; i++)
					d[i] = i < rv ? xs[i] : (GK_T)0;
			}
		return;
	}
	for (int64_t s = 0; s * r < rows; s++) {
		const int64_t i0 = s * r;
		const int64_t rv = rows - i0 < r ? rows - i0 : r;
		GK_FN_PACK_SLIVER(rv, kc, x + i0 * rs, rs, cs, r, dst + s * ps);
	}
}
