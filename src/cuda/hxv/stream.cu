/*
 * stream.cu - cuda.hxv, the production horizontal x vertical product on
 * device pointers: C = alpha E F + beta C with E and F read once per output
 * tile (one tile for the shapes it is made for: float m, n <= 12 or one
 * side <= 4 and the other <= 16; double m, n <= 6), at close to the read
 * bandwidth, deterministic (hxv_stream.cuh). Any m, n, k and strides:
 * larger results are tiled (each tile reads its rows of E and columns of F
 * again: correct, slower).
 */
#include "hxv_stream_run.cuh"

#define KIND(T, MT, NT, U)                                                                   \
	{MT, NT, hxv_tile_run<T, MT, NT, U>, hxv_tile_grid<T, MT, NT, U>, hxv_pipe_grid<T, MT, NT>, \
	 hxv_pipe_run<T, MT, NT>}

int gk_hxv_pipe_enabled = 1;

const hxv_kind<float> hxv_kinds_f[] = {
	KIND(float, 2, 2, 4),
	KIND(float, 4, 4, 4),
	KIND(float, 6, 6, 2),
	KIND(float, 8, 8, 1),
	KIND(float, 10, 10, 1),
	KIND(float, 12, 12, 1),
	KIND(float, 16, 4, 1),
	KIND(float, 4, 16, 1),
	KIND(float, 1, 16, 2),
	KIND(float, 16, 1, 2),
};
const int hxv_kinds_f_count = (int)(sizeof hxv_kinds_f / sizeof hxv_kinds_f[0]);

const hxv_kind<double> hxv_kinds_d[] = {
	KIND(double, 2, 2, 4),
	KIND(double, 4, 4, 2),
	KIND(double, 6, 6, 1),
	KIND(double, 8, 4, 1),
	KIND(double, 4, 8, 1),
};
const int hxv_kinds_d_count = (int)(sizeof hxv_kinds_d / sizeof hxv_kinds_d[0]);

template <typename T, typename Args>
static gk_status hxv_device(const Args *p)
{
	const char *fn = "cuda.hxv";
	const hxv_prob<T> q = hxv_from_args<T>(p);
	T *part = NULL;
	size_t count = 0;
	gk_status st = hxv_stream_run<T>(fn, q, (T *)NULL, 0, 0, &part, &count);
	if (part != NULL) {
		cudaError_t e = cudaFreeAsync(part, q.stream);
		if (st == GK_OK && e != cudaSuccess)
			st = gk_cuda_status(e, fn, "cudaFreeAsync");
	}
	return st;
}

extern "C" gk_status gk_cuda_sgemm_hxv(const gk_cuda_sgemm_args *p)
{
	return hxv_device<float>(p);
}

extern "C" gk_status gk_cuda_dgemm_hxv(const gk_cuda_dgemm_args *p)
{
	return hxv_device<double>(p);
}
