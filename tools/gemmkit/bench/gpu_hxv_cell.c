/*
 * gpu_hxv_cell.c - the operands and reference of a gpu-hxv cell (gpu_hxv.c):
 * E (m x k) and F (k x n), float, row-major.
 *
 * Values: multiples of 2^-10 in [-1, 1] from a hash of the element's index
 * (the seed of the run picks the hash), so that every product and partial
 * sum of the reference is exact in double (|sum| <= k < 2^33): the
 * reference is the exact product, whatever the order of the sums. A device
 * cell's E and F are made in chunks of 256 MiB on the host, each summed into
 * the reference and copied to the device, so that the host holds one chunk;
 * a host cell's are made in place. A device cell that does not fit the
 * device's free memory with 1 GiB to spare is not run, with its sizes as the
 * reason.
 */
#define _GNU_SOURCE
#include "gpu_hxv.h"

#ifdef GK_BENCH_CUDA
#include <cuda_runtime.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define HX_STAGE_BYTES ((size_t)256 << 20) /* one chunk of a device cell's E and F */
#define HX_SLACK_BYTES ((size_t)1 << 30)   /* beside E and F: C, workspaces, cuBLAS */

static inline float hx_value(uint64_t i, uint64_t seed)
{
	uint64_t h = i * 0x9E3779B97F4A7C15ull + seed;
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return (float)((int)(h % 2049) - 1024) / 1024.0f;
}

/* Columns [k0, k0 + len) of E's m rows into e (pitch len), rows [k0, k0 +
 * len) of F into f (k x n row-major). */
static void hx_fill(const hxv_cell *x, int64_t k0, int64_t len, float *e, int64_t lde, float *f)
{
	const uint64_t se = x->seed * 2 + 1, sf = x->seed * 2 + 2;
	for (int64_t i = 0; i < x->m; i++) {
#pragma omp parallel for schedule(static)
		for (int64_t q = 0; q < len; q++)
			e[i * lde + q] = hx_value((uint64_t)(i * x->k + k0 + q), se);
	}
	const int64_t fn = len * x->n;
#pragma omp parallel for schedule(static)
	for (int64_t t = 0; t < fn; t++)
		f[t] = hx_value((uint64_t)(k0 * x->n + t), sf);
}

/* Add E[:, q] F[q, :] over the len columns of e (pitch lde) and rows of f to
 * x->ref, and their squares to the norms. Exact: see the top of the file.
 * Per-thread partial sums, added in thread order. */
static int hx_accumulate(hxv_cell *x, int64_t len, const float *e, int64_t lde, const float *f)
{
	const int64_t m = x->m, n = x->n, mn = m * n, w = mn + 2;
	const int nt = omp_get_max_threads();
	double *part = calloc((size_t)nt * (size_t)w, sizeof *part);
	if (part == NULL)
		return -1;
#pragma omp parallel num_threads(nt)
	{
		double *p = part + (size_t)omp_get_thread_num() * (size_t)w;
		double ev[HXV_MAX_MN];
#pragma omp for schedule(static)
		for (int64_t q = 0; q < len; q++) {
			for (int64_t i = 0; i < m; i++) {
				ev[i] = e[i * lde + q];
				p[mn] += ev[i] * ev[i];
			}
			const float *fr = f + q * n;
			for (int64_t j = 0; j < n; j++)
				p[mn + 1] += (double)fr[j] * fr[j];
			for (int64_t i = 0; i < m; i++)
				for (int64_t j = 0; j < n; j++)
					p[i * n + j] += ev[i] * (double)fr[j];
		}
	}
	double ne = x->norm_e * x->norm_e, nf = x->norm_f * x->norm_f;
	for (int t = 0; t < nt; t++) {
		const double *p = part + (size_t)t * (size_t)w;
		for (int64_t i = 0; i < mn; i++)
			x->ref[i] += p[i];
		ne += p[mn], nf += p[mn + 1];
	}
	x->norm_e = sqrt(ne), x->norm_f = sqrt(nf);
	free(part);
	return 0;
}

static void hxv_cell_free(hxv_cell *x)
{
	cudaFree(x->de), cudaFree(x->df);
	free(x->he), free(x->hf);
	x->de = x->df = x->he = x->hf = NULL;
}

/* Device cell: E and F made chunk by chunk, summed, copied to the device. */
static int hx_setup_device(hxv_cell *x, char *why, size_t len)
{
	const size_t be = (size_t)(x->m * x->k) * sizeof(float), bf = (size_t)(x->k * x->n) * sizeof(float);
	size_t free_b = 0, total_b = 0;
	if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
		snprintf(why, len, "cudaMemGetInfo: %s", cudaGetErrorString(cudaGetLastError()));
		return -1;
	}
	if (be + bf + HX_SLACK_BYTES > free_b) {
		snprintf(why, len, "not run: E and F take %.1f GB, the device has %.1f GB free of %.1f GB",
		         (double)(be + bf) / 1e9, (double)free_b / 1e9, (double)total_b / 1e9);
		return -1;
	}
	if (cudaMalloc((void **)&x->de, be) != cudaSuccess || cudaMalloc((void **)&x->df, bf) != cudaSuccess) {
		snprintf(why, len, "not run: cudaMalloc of E and F (%.1f GB): %s", (double)(be + bf) / 1e9,
		         cudaGetErrorString(cudaGetLastError()));
		hxv_cell_free(x);
		return -1;
	}
	const int64_t kc0 = (int64_t)(HX_STAGE_BYTES / sizeof(float)) / (x->m + x->n);
	const int64_t kc = kc0 < x->k ? kc0 : x->k;
	float *stage = NULL;
	int pinned = cudaHostAlloc((void **)&stage, (size_t)(kc * (x->m + x->n)) * sizeof(float),
	                           cudaHostAllocDefault) == cudaSuccess;
	if (!pinned) {
		cudaGetLastError();
		stage = malloc((size_t)(kc * (x->m + x->n)) * sizeof(float));
	}
	int rc = stage ? 0 : -1;
	cudaError_t ce = cudaSuccess;
	for (int64_t k0 = 0; rc == 0 && k0 < x->k; k0 += kc) {
		const int64_t l = x->k - k0 < kc ? x->k - k0 : kc;
		float *e = stage, *f = stage + x->m * l;
		hx_fill(x, k0, l, e, l, f);
		rc = hx_accumulate(x, l, e, l, f);
		for (int64_t i = 0; rc == 0 && ce == cudaSuccess && i < x->m; i++)
			ce = cudaMemcpy(x->de + i * x->k + k0, e + i * l, (size_t)l * sizeof(float), cudaMemcpyHostToDevice);
		if (rc == 0 && ce == cudaSuccess)
			ce = cudaMemcpy(x->df + k0 * x->n, f, (size_t)(l * x->n) * sizeof(float), cudaMemcpyHostToDevice);
		if (ce != cudaSuccess)
			rc = -1;
	}
	if (pinned)
		cudaFreeHost(stage);
	else
		free(stage);
	if (rc != 0) {
		snprintf(why, len, "making E and F: %s", ce != cudaSuccess ? cudaGetErrorString(ce) : "out of host memory");
		hxv_cell_free(x);
		return -1;
	}
	return 0;
}

int hxv_cell_setup(void *data, char *why, size_t len)
{
	hxv_cell *x = data;
	int rc = 0;
	memset(x->ref, 0, sizeof x->ref);
	x->norm_e = x->norm_f = 0;
	if (x->m > HXV_MAX_MN || x->n > HXV_MAX_MN) {
		snprintf(why, len, "not a horizontal x vertical shape: m, n <= %d", HXV_MAX_MN);
		rc = -1;
	} else if (!x->host) {
		rc = hx_setup_device(x, why, len);
	} else {
		x->he = malloc((size_t)(x->m * x->k) * sizeof(float));
		x->hf = malloc((size_t)(x->k * x->n) * sizeof(float));
		if (x->he == NULL || x->hf == NULL) {
			snprintf(why, len, "no host memory for E and F");
			rc = -1;
		} else {
			hx_fill(x, 0, x->k, x->he, x->k, x->hf);
			if (hx_accumulate(x, x->k, x->he, x->k, x->hf) != 0) {
				snprintf(why, len, "no host memory for the reference");
				rc = -1;
			}
		}
		if (rc != 0)
			hxv_cell_free(x);
	}
	if (rc != 0 && x->note)
		snprintf(x->note, x->note_len, "%s", why);
	return rc;
}

void hxv_cell_teardown(void *data)
{
	hxv_cell_free(data);
}
#endif
