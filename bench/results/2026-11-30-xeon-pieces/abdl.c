/* abdl: two GEMM libraries in one process, alternated call by call: two builds of libgemmkit (gk_sgemm / gk_dgemm), or one and a CBLAS library (cblas_sgemm / cblas_dgemm, 32-bit integers). IFACE=cblas in the environment calls both through CBLAS, IFACE=f77 through the Fortran sgemm_ / dgemm_ (row-major C as the column-major C^T = B^T A^T). The buffers come from malloc, or with AL=bytes [OFF=bytes] in the environment are AL-aligned plus OFF. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef int (*sg_fn)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t, const float *, int64_t, float, float *, int64_t);
typedef void (*cs_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
typedef void (*cd_fn)(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
typedef void (*fs_fn)(const char *, const char *, const int *, const int *, const int *, const float *, const float *, const int *, const float *, const int *, const float *, float *, const int *, size_t, size_t);
typedef void (*fd_fn)(const char *, const char *, const int *, const int *, const int *, const double *, const double *, const int *, const double *, const int *, const double *, double *, const int *, size_t, size_t);
typedef int (*dg_fn)(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t, const double *, int64_t, double, double *, int64_t);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double med(double *v, int n) { qsort(v, n, sizeof *v, cmpd); return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]); }
#define CALL do { if (cb[i] == 2) { const int M = (int)n, N = (int)m, K = (int)k; if (dbl) { const double al = 1.0, be = 0.0; ((fd_fn)f[i])("N", "N", &M, &N, &K, &al, (double *)b, &M, (double *)a, &K, &be, (double *)c, &M, 1, 1); } else { const float al = 1.0f, be = 0.0f; ((fs_fn)f[i])("N", "N", &M, &N, &K, &al, (float *)b, &M, (float *)a, &K, &be, (float *)c, &M, 1, 1); } } else if (cb[i]) { if (dbl) ((cd_fn)f[i])(101, 111, 111, (int)m, (int)n, (int)k, 1.0, (double *)a, (int)k, (double *)b, (int)n, 0.0, (double *)c, (int)n); else ((cs_fn)f[i])(101, 111, 111, (int)m, (int)n, (int)k, 1.0f, (float *)a, (int)k, (float *)b, (int)n, 0.0f, (float *)c, (int)n); } else { if (dbl) ((dg_fn)f[i])(101, 111, 111, m, n, k, 1.0, (double *)a, k, (double *)b, n, 0.0, (double *)c, n); else ((sg_fn)f[i])(101, 111, 111, m, n, k, 1.0f, (float *)a, k, (float *)b, n, 0.0f, (float *)c, n); } } while (0)
int main(int argc, char **argv)
{
	if (argc < 8) { fprintf(stderr, "usage: abdl libA libB s|d m n k rounds [calls]\n"); return 2; }
	void *h[2];
	for (int i = 0; i < 2; i++) {
		h[i] = dlopen(argv[1 + i], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
		if (!h[i]) { fprintf(stderr, "%s\n", dlerror()); return 1; }
	}
	const int dbl = argv[3][0] == 'd';
	const int64_t m = atoll(argv[4]), n = atoll(argv[5]), k = atoll(argv[6]);
	const int rounds = atoi(argv[7]), calls = argc > 8 ? atoi(argv[8]) : 1;
	void *f[2];
	int cb[2];
	const char *iface = getenv("IFACE") ? getenv("IFACE") : "gk";
	for (int i = 0; i < 2; i++) {
		if (iface[0] == 'f') { f[i] = dlsym(h[i], dbl ? "dgemm_" : "sgemm_"); cb[i] = 2; }
		else { f[i] = iface[0] == 'c' ? NULL : dlsym(h[i], dbl ? "gk_dgemm" : "gk_sgemm"); cb[i] = f[i] == NULL; if (cb[i]) f[i] = dlsym(h[i], dbl ? "cblas_dgemm" : "cblas_sgemm"); }
		if (f[i] == NULL) { fprintf(stderr, "no GEMM entry for IFACE=%s in %s\n", iface, argv[1 + i]); return 1; }
	}
	const size_t es = dbl ? 8 : 4;
	/* From malloc; or, with AL set, AL-byte aligned plus OFF bytes. */
	char *a, *b, *c;
	if (getenv("AL") == NULL) {
		a = malloc(es * m * k), b = malloc(es * k * n), c = malloc(es * m * n);
	} else {
		const size_t al = (size_t)atoi(getenv("AL")), off = getenv("OFF") ? (size_t)atoi(getenv("OFF")) : 0;
		if (posix_memalign((void **)&a, al, es * m * k + off) || posix_memalign((void **)&b, al, es * k * n + off) ||
		    posix_memalign((void **)&c, al, es * m * n + off)) { fprintf(stderr, "out of memory\n"); return 1; }
		a += off, b += off, c += off;
	}
	srand(1);
	for (int64_t i = 0; i < m * k; i++) { double v = 2.0 * rand() / RAND_MAX - 1; if (dbl) ((double *)a)[i] = v; else ((float *)a)[i] = (float)v; }
	for (int64_t i = 0; i < k * n; i++) { double v = 2.0 * rand() / RAND_MAX - 1; if (dbl) ((double *)b)[i] = v; else ((float *)b)[i] = (float)v; }
	double *t[2] = {malloc(sizeof(double) * rounds), malloc(sizeof(double) * rounds)}, *r = malloc(sizeof(double) * rounds);
	for (int w = 0; w < 2; w++)
		for (int i = 0; i < 2; i++) {
			const char *ev = getenv(i == 0 ? "ENVA" : "ENVB");
			if (w == 0 && ev != NULL && *ev) putenv((char *)ev);
			if (w == 0 && ev != NULL && *ev == 0) unsetenv("GK_GEMM_BLOCKS");
			CALL;
		}
	for (int q = 0; q < rounds; q++)
		for (int o = 0; o < 2; o++) {
			const int i = (q + o) % 2;
			double t0 = now();
			for (int z = 0; z < calls; z++) {
				CALL;
			}
			t[i][q] = (now() - t0) / calls;
		}
	for (int q = 0; q < rounds; q++) r[q] = t[0][q] / t[1][q];
	const double fl = 2.0 * m * n * k * 1e-9;
	double best[2] = {1e30, 1e30};
	for (int i = 0; i < 2; i++) for (int q = 0; q < rounds; q++) if (t[i][q] < best[i]) best[i] = t[i][q];
	const double rm = med(r, rounds);
	printf("%c %lldx%lldx%lld: A %.1f GFLOPS (best %.1f)  B %.1f GFLOPS (best %.1f)  B/A median of per-round ratios %.3f\n",
	       dbl ? 'd' : 's', (long long)m, (long long)n, (long long)k, fl / med(t[0], rounds), fl / best[0], fl / med(t[1], rounds), fl / best[1], rm);
	return 0;
}
