/*
 * hxv_stream_run.cuh - the driver of the production kernel over output
 * tiles (stream.cu for device pointers, host.cu for each chunk of k of a
 * host-pointer call): the tile shape is picked once for the whole m x n,
 * the grid once for k, and every tile runs on the same workspace, in order.
 */
#ifndef GK_HXV_STREAM_RUN_CUH
#define GK_HXV_STREAM_RUN_CUH

#include "hxv_stream.cuh"

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
	int grid = 1;
	GK_FORWARD(kd.grid(fn, p.sm_count, p.k, &grid));
	const size_t need = (size_t)grid * kd.mt * kd.nt;
	if (*part == NULL || *part_count < need) {
		if (*part != NULL)
			GK_CUDA_TRY(fn, cudaFreeAsync(*part, p.stream));
		*part = NULL;
		*part_count = 0;
		GK_FORWARD(hxv_alloc<T>(fn, part, need, p.stream));
		*part_count = need;
	}
	for (int64_t i0 = 0; i0 < p.m; i0 += kd.mt)
		for (int64_t j0 = 0; j0 < p.n; j0 += kd.nt) {
			const int64_t mt = p.m - i0 < kd.mt ? p.m - i0 : kd.mt;
			const int64_t nt = p.n - j0 < kd.nt ? p.n - j0 : kd.nt;
			const hxv_prob<T> q = hxv_tile(p, i0, j0, mt, nt);
			GK_FORWARD(kd.run(fn, q, grid, *part, acc ? acc + i0 * ld_acc + j0 : NULL, ld_acc, mode));
		}
	return GK_OK;
}

#endif
