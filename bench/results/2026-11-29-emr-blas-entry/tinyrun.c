/* tinyrun LIB gk|cblas|f77 s|d N CALLS [REPEATS]: the ns per call of an N x N x N product
 * (row-major C = A B, alpha 1, beta 0) through one interface of one library, in a process of
 * its own: the median of REPEATS (default 7) timings of CALLS calls each. With TRANS=XY in
 * the environment (X, Y each N or T) the gk and cblas calls are column-major C = op(A) op(B),
 * op given by X and Y. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef int (*gks)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t, const float *, int64_t, float, float *, int64_t);
typedef int (*gkd)(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t, const double *, int64_t, double, double *, int64_t);
typedef void (*cbs)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
typedef void (*cbd)(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
typedef void (*fs)(const char *, const char *, const int *, const int *, const int *, const float *, const float *, const int *, const float *, const int *, const float *, float *, const int *, size_t, size_t);
typedef void (*fd)(const char *, const char *, const int *, const int *, const int *, const double *, const double *, const int *, const double *, const int *, const double *, double *, const int *, size_t, size_t);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv)
{
	if (argc < 6) { fprintf(stderr, "usage: tinyrun LIB gk|cblas|f77 s|d N CALLS [REPEATS]\n"); return 2; }
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
	const char ifc = argv[2][0], dbl = argv[3][0] == 'd';
	const int n = atoi(argv[4]), reps = argc > 6 ? atoi(argv[6]) : 7;
	const long calls = atol(argv[5]);
	const char *name = ifc == 'g' ? (dbl ? "gk_dgemm" : "gk_sgemm") : ifc == 'c' ? (dbl ? "cblas_dgemm" : "cblas_sgemm") : (dbl ? "dgemm_" : "sgemm_");
	void *f = dlsym(h, name);
	if (!f) { fprintf(stderr, "no %s in %s\n", name, argv[1]); return 1; }
	double *a = malloc(8 * (size_t)n * n), *b = malloc(8 * (size_t)n * n), *c = malloc(8 * (size_t)n * n);
	for (int i = 0; i < n * n; i++) { if (dbl) { a[i] = 1.0; b[i] = 0.5; } else { ((float *)a)[i] = 1.0f; ((float *)b)[i] = 0.5f; } }
	const char *tr = getenv("TRANS");
	const int lay = tr ? 102 : 101, ta = tr && tr[0] == 'T' ? 112 : 111, tb = tr && tr[1] == 'T' ? 112 : 111;
	const float a1 = 1.0f, b0 = 0.0f;
	const double da1 = 1.0, db0 = 0.0;
	double t[64];
	for (int r = -1; r < reps && r < 64; r++) {
		const double t0 = now();
		for (long i = 0; i < calls; i++) {
			if (ifc == 'g') { if (dbl) ((gkd)f)(lay, ta, tb, n, n, n, 1.0, a, n, b, n, 0.0, c, n); else ((gks)f)(lay, ta, tb, n, n, n, 1.0f, (float *)a, n, (float *)b, n, 0.0f, (float *)c, n); }
			else if (ifc == 'c') { if (dbl) ((cbd)f)(lay, ta, tb, n, n, n, 1.0, a, n, b, n, 0.0, c, n); else ((cbs)f)(lay, ta, tb, n, n, n, 1.0f, (float *)a, n, (float *)b, n, 0.0f, (float *)c, n); }
			else { if (dbl) ((fd)f)("N", "N", &n, &n, &n, &da1, b, &n, a, &n, &db0, c, &n, 1, 1); else ((fs)f)("N", "N", &n, &n, &n, &a1, (float *)b, &n, (float *)a, &n, &b0, (float *)c, &n, 1, 1); }
		}
		if (r >= 0) t[r] = (now() - t0) / calls * 1e9;
	}
	qsort(t, reps, sizeof t[0], cmpd);
	printf("%.1f\n", t[reps / 2]);
	return 0;
}
