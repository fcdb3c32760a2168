/*
 * suites.c - the presets of `gemmkit bench --suite NAME`: contenders, sizes,
 * shapes, precisions, thread counts and cap, as data. Every option of the
 * command line overrides them; a new suite is one more row.
 */
#include <string.h>
#include "suite.h"

#define POW2_SIZES "16,32,64,128,256,512,1024,2048,4096"

const bench_suite bench_suites[] = {
	{"default", BENCH_KIND_GEMM,
	 "every CPU algorithm and auto vs OpenBLAS and BLIS (as installed and\n"
	 "with the best kernel); SGEMM, N = 16 ... 4096, 1 thread, cap 10 s",
	 "4-6 min", "ours,refs", POW2_SIZES, "16,32,64", NULL, "s", "1", NULL, 10, 0, 0, "gemmkit-bench-results",
	 NULL, NULL},
	{"ladder", BENCH_KIND_GEMM,
	 "the CPU ladder: every CPU algorithm and auto vs OpenBLAS as installed;\n"
	 "SGEMM, N = 16 ... 8192, threads 1 and 2, cap 10 s; GFLOPS and times",
	 "8-12 min", "ours,openblas", POW2_SIZES ",8192", "16,32,64", NULL, "s", "1,2", NULL, 10, 1, 0,
	 "gemmkit-bench-results", NULL, NULL},
	{"cpu", BENCH_KIND_GEMM,
	 "production: auto and cpu.blocked vs OpenBLAS and BLIS, each as installed\n"
	 "and with its best kernel (shown even when that is the installed one);\n"
	 "SGEMM and DGEMM, N = 16 ... 8192 and 4096x4096x64, 64x4096x4096, 8x8x1e7,\n"
	 "1000x1000x1000, 1023x1025x1027; threads 1 and 2, cap 30 s",
	 "17-25 min", "auto,cpu.blocked,openblas,openblas-best,blis,blis-best", POW2_SIZES ",8192", "16,32,64",
	 "4096x4096x64,64x4096x4096,8x8x1e7,1000x1000x1000,1023x1025x1027", "both", "1,2", NULL, 30, 0, 0,
	 "gemmkit-bench-results", NULL, NULL},
	{"strassen", BENCH_KIND_GEMM,
	 "auto and cpu.blocked vs every algorithm named *strassen*; SGEMM,\n"
	 "N = 1024, 1536, 2048, 3072, 4096, 6144, 8192, threads 1 and 2, cap 30 s;\n"
	 "GFLOPS counted as 2*N^3 / time for all, and the error of each against the\n"
	 "product computed in long double",
	 "5-8 min", "auto,cpu.blocked,strassen", "1024,1536,2048,3072,4096,6144,8192", "16,32,64", NULL, "s", "1,2",
	 NULL, 30, 0, 1, "gemmkit-bench-results", NULL, NULL},
	{"peak", BENCH_KIND_PEAK,
	 "the multiply-add peak alone: float and double, each vector instruction\n"
	 "set the CPU has (AVX-512, AVX2, SSE2), 1 thread and all processors;\n"
	 "only --threads, --reps, --out and --quick apply",
	 "15 s", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, "gemmkit-bench-results", NULL, NULL},
	{"gf256", BENCH_KIND_GF256,
	 "Reed-Solomon encode and decode vs ISA-L (when installed), GB/s of data;\n"
	 "codes 4+2, 6+3, 10+4, 12+4, 28+4 (--codes), shards of 64 KiB and 1 MiB\n"
	 "(--sizes), threads 1 and 2; see gemmkit bench --suite gf256 --help",
	 "30 s", "gemmkit,isal", "64k,1M", "64k", NULL, NULL, "1,2", "1", 10, 0, 0, "gemmkit-bench-gf256",
	 "4+2,6+3,10+4,12+4,28+4", "4+2,10+4"},
};
const int bench_nsuites = (int)(sizeof bench_suites / sizeof bench_suites[0]);

const bench_suite *bench_find_suite(const char *name)
{
	if (strcmp(name, "gemm") == 0) /* its name before there were suites */
		name = "default";
	for (int i = 0; i < bench_nsuites; i++)
		if (strcmp(bench_suites[i].name, name) == 0)
			return &bench_suites[i];
	return NULL;
}
