/* alt: gemmkit's SGEMM timed call by call, each followed by a call of another CBLAS library (or none); prints mean and median GFLOPS of gemmkit's calls over a time span. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef int (*sg_fn)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t, const float *, int64_t, float, float *, int64_t);
typedef void (*cs_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv)
{
	void *g = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
	void *o = argv[2][0] == '-' ? NULL : dlopen(argv[2], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
	int n = atoi(argv[3]); double span = atof(argv[4]);
	sg_fn gs = (sg_fn)dlsym(g, "gk_sgemm"); cs_fn os = o ? (cs_fn)dlsym(o, "cblas_sgemm") : NULL;
	float *a = malloc(4L*n*n), *b = malloc(4L*n*n), *c = malloc(4L*n*n), *d = malloc(4L*n*n);
	for (long i = 0; i < (long)n*n; i++) { a[i] = rand() / (float)RAND_MAX - .5f; b[i] = rand() / (float)RAND_MAX - .5f; }
	int cap = 1 << 20, cnt = 0; double *t = malloc(sizeof(double) * cap), tot = 0, start = now();
	while (now() - start < span && cnt < cap) {
		double t0 = now();
		gs(101, 111, 111, n, n, n, 1.f, a, n, b, n, 0.f, c, n);
		t[cnt] = now() - t0; tot += t[cnt++];
		if (os) os(101, 111, 111, n, n, n, 1.f, a, n, b, n, 0.f, d, n);
	}
	double fl = 2.0 * n * n * (double)n;
	qsort(t, cnt, sizeof *t, cmpd);
	printf("n=%d calls=%d mean %.1f median %.1f p10 %.1f p90 %.1f GFLOPS\n", n, cnt, fl * cnt / tot / 1e9, fl / t[cnt / 2] / 1e9, fl / t[cnt * 9 / 10] / 1e9, fl / t[cnt / 10] / 1e9);
	return 0;
}
