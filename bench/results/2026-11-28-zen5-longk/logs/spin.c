#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
typedef void (*cs_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
static double cpu(void) { struct rusage r; getrusage(RUSAGE_SELF, &r); return r.ru_utime.tv_sec + r.ru_stime.tv_sec + 1e-6 * (r.ru_utime.tv_usec + r.ru_stime.tv_usec); }
int main(int argc, char **argv)
{
	void *o = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL); cs_fn os = (cs_fn)dlsym(o, "cblas_sgemm");
	int n = 256; float *a = calloc(n * n, 4), *b = calloc(n * n, 4), *c = calloc(n * n, 4);
	for (int r = 0; r < 5; r++) {
		os(101, 111, 111, n, n, n, 1.f, a, n, b, n, 0.f, c, n);
		double c0 = cpu();
		struct timespec ts = {0, 100000000}; nanosleep(&ts, NULL);
		printf("cpu burned during 100 ms sleep after call: %.2f ms\n", 1e3 * (cpu() - c0));
	}
}
