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
	{"cpu-busy", BENCH_KIND_BUSY,
	 "gemmkit on T threads (2) when the machine is not its own: alone on 1 and T\n"
	 "threads, alternating call by call with OpenBLAS and with BLIS (T threads) in\n"
	 "one process, and beside a process spinning on one core; SGEMM and DGEMM,\n"
	 "N = 256, 512, 1024; the ratios of the targets (busy >= 1 thread, alternating\n"
	 ">= 0.9 x idle)",
	 "1-2 min", NULL, "256,512,1024", "256", NULL, "both", "2", NULL, 30, 0, 0, "gemmkit-bench-busy", NULL,
	 NULL},
	{"strassen", BENCH_KIND_GEMM,
	 "auto and cpu.blocked vs every algorithm named *strassen*; SGEMM,\n"
	 "N = 1024, 1536, 2048, 3072, 4096, 6144, 8192, threads 1 and 2, cap 30 s;\n"
	 "GFLOPS counted as 2*N^3 / time for all, and the error of each against the\n"
	 "product computed in long double",
	 "5-8 min", "auto,cpu.blocked,strassen", "1024,1536,2048,3072,4096,6144,8192", "16,32,64", NULL, "s", "1,2",
	 NULL, 30, 0, 1, "gemmkit-bench-results", NULL, NULL},
	{"gpu", BENCH_KIND_GEMM,
	 "the production GPU kernels, cuda.sgemm and cuda.dgemm, vs cuBLAS (cublasSgemm\n"
	 "in its default FP32 mode, cublasDgemm), operands in device memory, CUDA events;\n"
	 "N = 1024 ... 16384, 4095, 4097 and 4096x4096x64, 64x64x1e6, 8192x8192x256;\n"
	 "SGEMM and DGEMM, cap 30 s",
	 "3-5 min", "cuda.sgemm,cuda.dgemm,cublas", "1024,2048,4095,4096,4097,5120,8192,16384", "256,512",
	 "4096x4096x64,64x64x1e6,8192x8192x256", "both", "1", NULL, 30, 0, 0, "gemmkit-bench-gpu", NULL, NULL},
	{"gpu-precision", BENCH_KIND_GEMM,
	 "the precision modes of float products on the GPU: cuda.sgemm (strict FP32),\n"
	 "cuda.sgemm_3xtf32 (FP32-accurate on tensor cores) and cuda.sgemm_tf32 vs\n"
	 "cublasSgemm (default math), cublasGemmEx FAST_TF32 and, where cuBLAS has\n"
	 "it, its BF16x9 FP32 emulation; N = 1024 ... 16384, 4097, 4096x4096x64,\n"
	 "64x64x1e6; each with its normwise error against the long double product",
	 "4-8 min", "cuda.sgemm,cuda.sgemm_3xtf32,cuda.sgemm_tf32,cublas,cublas-tf32,cublas-bf16x9",
	 "1024,2048,4096,4097,8192,16384", "256,512", "4096x4096x64,64x64x1e6", "s", "1", NULL, 30, 0, 1,
	 "gemmkit-bench-gpu-precision", NULL, NULL},
	{"gpu-ladder", BENCH_KIND_GEMM,
	 "the GPU SGEMM ladder: seed 002's kernels 1-7 and seed 000's CUDA variants,\n"
	 "with cuda.sgemm, vs cuBLAS; N = 1024, 2048, 4096, 5120 (seed 002's table);\n"
	 "% of cuBLAS per kernel; cap 10 s",
	 "2 min",
	 "cuda.s02_k1_naive,cuda.s02_k2_smem,cuda.s02_k3_tile1d,cuda.s02_k4_tile2d,cuda.s02_k5_regcache,"
	 "cuda.s02_k6_float4,cuda.s02_k7_prefetch,cuda.s00_plain,cuda.s00_plain_xy,cuda.s00_shared,"
	 "cuda.s00_reg4x4,cuda.s00_prefetch,cuda.sgemm,cublas",
	 "1024,2048,4096,5120", "128,256", NULL, "s", "1", NULL, 10, 1, 0, "gemmkit-bench-gpu-ladder", NULL, NULL},
	{"gpu-seed001", BENCH_KIND_GEMM,
	 "seed 001's DGEMM experiments: global memory vs shared-memory tiles with\n"
	 "8x8, 16x16 and 32x32 thread blocks, and the row-and-column counter-example,\n"
	 "with cuda.dgemm, vs cublasDgemm; N = 128 ... 2048; times and % of cuBLAS",
	 "1 min",
	 "cuda.s01_global_b8,cuda.s01_global_b16,cuda.s01_global_b32,cuda.s01_shared_b8,cuda.s01_shared_b16,"
	 "cuda.s01_shared_b32,cuda.s01_rowcol,cuda.dgemm,cublas",
	 "128,256,512,1024,2048", "128,256", NULL, "d", "1", NULL, 10, 1, 0, "gemmkit-bench-gpu-seed001", NULL,
	 NULL},
	/* HXV: seed 003's shapes (docs/CUDA_HXV.md); MTXC (7 x 2e9 x 7, 112 GB) is marked
	 * not run where the device does not hold it. --sizes: the crossover's k (m = n = 5). */
	{"gpu-hxv", BENCH_KIND_HXV,
	 "horizontal x vertical products (m, n tiny, k huge), gpu_hxv.c: the read floor,\n"
	 "seed 003's BasicMM and PHVM and the production cuda.hxv vs cublasSgemm, operands\n"
	 "in device memory, (m,n,k) = 3x3x5e7 (MTXA), 5x5x3e7, 7x7x3e7, 9x9x3e7,\n"
	 "5x5x3e8 (MTXB), 7x7x2e9 (MTXC); and the host-data crossover, m = n = 5,\n"
	 "k = --sizes: CPU auto vs cuda.hxv on host pointers; SGEMM, cap 60 s",
	 "2-3 min", "floor,cuda.hxv_basic,cuda.hxv_phvm,cuda.hxv,cublas,cpu-auto,cuda.hxv-host",
	 "1e4,1e5,1e6,1e7,1e8", "1e4,1e5", "3x3x5e7,5x5x3e7,7x7x3e7,9x9x3e7,5x5x3e8,7x7x2e9", "s", "1", NULL, 60, 0,
	 0, "gemmkit-bench-gpu-hxv", NULL, NULL},
	{"gpu-hostmem", BENCH_KIND_HOSTMEM,
	 "host-pointer GEMM on the GPU, end to end (copies included): gemmkit's\n"
	 "out-of-core driver (pinned, pageable, budgets of 1/2, 1/4, 1/8 of the data)\n"
	 "vs cuBLASXt (block dimension tuned) and cuBLAS in core plus copies; SGEMM,\n"
	 "N = 1024 ... 32768 (docs/CUDA_HOSTMEM.md; the 65536 and 90000 cases are\n"
	 "gpu-hostmem-heavy)",
	 "4-8 min",
	 "gemmkit,gemmkit-b2,gemmkit-b4,gemmkit-b8,gemmkit-pageable,cublasxt,cublasxt-pageable,cublas-copies",
	 "1024,2048,4096,8192,16384,32768", "1024,2048", NULL, "s", "1", NULL, 60, 0, 0, "gemmkit-bench-gpu-hostmem",
	 NULL, NULL},
	{"gpu-seed000", BENCH_KIND_HOSTMEM,
	 "seed 000's final table, GPU rows: its CUDA variants (plain, 4x4 registers,\n"
	 "prefetch: cuda.s00_*) and gemmkit's three precision modes from host memory,\n"
	 "end to end, beside cuBLASXt; N = 16, 128, 1k, 8k, 16k, 32k, 64k; cap 30 s\n"
	 "(a contender predicted past it is shown x)",
	 "5-8 min",
	 "cuda.s00_plain,cuda.s00_reg4x4,cuda.s00_prefetch,gemmkit,gemmkit-accurate,gemmkit-tf32,cublasxt",
	 "16,128,1024,8192,16384,32768,65536", "16,128,1024", NULL, "s", "1", NULL, 30, 0, 0,
	 "gemmkit-bench-gpu-seed000", NULL, NULL},
	{"gpu-hostmem-heavy", BENCH_KIND_HOSTMEM,
	 "the large host-pointer products: SGEMM 65536^2 in strict FP32, FP32-accurate\n"
	 "and TF32, pinned and pageable, budget 1/4, vs cuBLASXt and cuBLAS in core\n"
	 "plus copies (FP32 and TF32); and N = 90000 (97 GB, beyond an 80 GB card)",
	 "10-20 min",
	 "gemmkit,gemmkit-accurate,gemmkit-tf32,gemmkit-b4,gemmkit-pageable,cublasxt,cublas-copies,"
	 "cublas-copies-tf32",
	 "65536,90000", "65536", NULL, "s", "1", NULL, 120, 0, 0, "gemmkit-bench-gpu-hostmem-heavy", NULL, NULL},
	/* Several GPUs of one host (docs/CUDA_MULTI.md); rows that need more
	 * devices than are present are n/a, never a failure. */
	{"gpu-multi", BENCH_KIND_MULTI,
	 "host-pointer SGEMM on several GPUs of one host, end to end from pinned memory:\n"
	 "gemmkit (strict, FP32-accurate, TF32) on 1, 2 and 4 devices, two workers on\n"
	 "one card, the deterministic mode checked bit for bit, vs cuBLASXt on the same\n"
	 "devices; N = 32768, 65536; scaling efficiency (--suite gpu-multi --help)",
	 "4-6 min on one H100",
	 "gemmkit-d1,gemmkit-d2,gemmkit-d4,gemmkit-accurate-d1,gemmkit-accurate-d2,gemmkit-accurate-d4,"
	 "gemmkit-tf32-d1,gemmkit-tf32-d2,gemmkit-tf32-d4,gemmkit-w2,gemmkit-det-d1,gemmkit-det-d2,gemmkit-det-d4,"
	 "gemmkit-det-w2,cublasxt-d1,cublasxt-d2,cublasxt-d4",
	 "32768,65536", "16384", NULL, "s", "1", NULL, 120, 0, 0, "gemmkit-bench-gpu-multi", NULL, NULL},
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
	{"gpu-gf256", BENCH_KIND_GF256,
	 "GF(2^8) on the GPU (docs/CUDA_GF256.md): the production kernel and seed 004's\n"
	 "ladder on 1 GiB of data resident on the device beside the device's copy, GB/s\n"
	 "read + written; RS encode and decode from pinned and pageable host buffers\n"
	 "beside the host-to-device copy and the CPU; codes 4+2, 10+4, 12+4, 28+4",
	 "2-4 min", NULL, "1G", "64M", NULL, NULL, "1", "1", 30, 0, 0, "gemmkit-bench-gpu-gf256",
	 "4+2,10+4,12+4,28+4", "10+4"},
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
