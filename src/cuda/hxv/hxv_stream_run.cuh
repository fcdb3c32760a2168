/*
 * hxv_stream_run.cuh - the driver of the production kernel over output
 * tiles (stream.cu for device pointers, host.cu for each chunk of k of a
 * host-pointer call): the tile shape is picked once for the whole m x n,
 * the grid once for k, and every tile runs on the same workspace, in order.
 */
#ifndef GK_HXV_STREAM_RUN_CUH
#define GK_HXV_STREAM_RUN_CUH

#include "hxv_pipe.cuh"

/* The tables, defined in stream.cu. */
extern const hxv_kind<float> hxv_kinds_f[];
extern const int hxv_kinds_f_count;
extern const hxv_kind<double> hxv_kinds_d[];
extern const int hxv_kinds_d_count;

template <typename T> struct hxv_table;
template <> struct hxv_table<float> {
	static const hxv_kind<float> *get(int *n) { *n = hxv_kinds_f_count; return hxv_kinds_f; }
};
template <> struct hxv_table<double> {
	static const hxv_kind<double> *get(int *n) { *n = hxv_kinds_d_count; return hxv_kinds_d; }
};

/* 0 sends every tile to the general kernel (hxv_stream_part), for
 * comparisons; 1 (default) takes the pipe wherever the operands allow. */
extern int gk_hxv_pipe_enabled;

/* Workspace part of at least need elements (stream-ordered). */
template <typename T>
static gk_status hxv_part_reserve(const char *fn, cudaStream_t s, size_t need, T **part, size_t *part_count)
{
	if (*part != NULL && *part_count >= need)
		return GK_OK;
	if (*part != NULL)
		GK_CUDA_TRY(fn, cudaFreeAsync(*part, s));
	*part = NULL;
	*part_count = 0;
	GK_FORWARD(hxv_alloc<T>(fn, part, need, s));
	*part_count = need;
	return GK_OK;
}

/* Run p (mode 0: into C; 1/2: into acc, m x n, row stride ld_acc). part:
 * workspace of *part_count elements, taken here when NULL (and returned to
 * the caller, who frees it stream-ordered). */
template <typename T>
static gk_status hxv_stream_run(const char *fn, const hxv_prob<T> &p, T *acc, int64_t ld_acc,
                                int mode, T **part, size_t *part_count)
{
	int count = 0;
	const hxv_kind<T> *tab = hxv_table<T>::get(&count);
	const hxv_kind<T> &kd = tab[hxv_pick<T>(tab, count, p.m, p.n)];
	int ggrid = 0;
	for (int64_t i0 = 0; i0 < p.m; i0 += kd.mt)
		for (int64_t j0 = 0; j0 < p.n; j0 += kd.nt) {
			const int64_t mt = p.m - i0 < kd.mt ? p.m - i0 : kd.mt;
			const int64_t nt = p.n - j0 < kd.nt ? p.n - j0 : kd.nt;
			const hxv_prob<T> q = hxv_tile(p, i0, j0, mt, nt);
			T *qa = acc ? acc + i0 * ld_acc + j0 : NULL;
			hxv_pipe_form fm;
			int grid = 1;
			if (gk_hxv_pipe_enabled && hxv_pipe_form_of<T>(q, &fm)) {
				GK_FORWARD(kd.pgrid(fn, q, fm, &grid));
				GK_FORWARD(hxv_part_reserve<T>(fn, p.stream, (size_t)grid * kd.mt * kd.nt, part, part_count));
				GK_FORWARD(kd.prun(fn, q, fm, grid, *part, qa, ld_acc, mode));
				continue;
			}
			if (ggrid == 0)
				GK_FORWARD(kd.grid(fn, p.sm_count, p.k, &ggrid));
			GK_FORWARD(hxv_part_reserve<T>(fn, p.stream, (size_t)ggrid * kd.mt * kd.nt, part, part_count));
			GK_FORWARD(kd.run(fn, q, ggrid, *part, qa, ld_acc, mode));
		}
	return GK_OK;
}

#endif
