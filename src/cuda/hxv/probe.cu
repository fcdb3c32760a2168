/*
 * probe.cu - the inputs of the PHVM time-cost model measured on a device
 * (src/model/hxv_model.c), the read floor, and PHVM timed at given launch
 * configurations for `gemmkit model --measure`.
 *
 * Micro-benchmarks, each one thread or one small launch, timed in clock
 * cycles (clock64) inside the kernel:
 *   sigma_g    pointer chasing through 256 MiB, 1 MiB + 256 B apart
 *              (every load misses L1 and L2: the DRAM latency);
 *   sigma_s    pointer chasing through shared memory;
 *   sigma_add, sigma_mul  dependent chains of FP32 adds / multiplies;
 *   sigma_atomic  cycles between atomic adds to one address, from many blocks;
 *   read_bytes_per_cycle  the read-only kernel over 1 GiB;
 *   u_sm       the share of the SMs' issue slots PHVM uses (instructions it
 *              must issue at full rate over the cycles it takes), on
 *              m = n = 5, k = 2^24 at (8 SM_NUM, 256).
 * The SM clock comes from a kernel that spins a known number of cycles,
 * timed with events. Preconditions: the device is idle enough that the
 * figures mean something; every call checked.
 */
#include <algorithm>
#include <string.h>
#include <vector>
#include "hxv_common.cuh"
#include "../../model/hxv_model.h"

static const char *FN = "gk_hxv_device_query";

__global__ void probe_chase_global(const uint64_t *__restrict__ p, int steps, uint64_t *out)
{
	uint64_t j = 0;
	for (int i = 0; i < 16; i++) /* warm the TLB path a little */
		j = p[j];
	const long long t0 = clock64();
	for (int i = 0; i < steps; i++)
		j = p[j];
	const long long t1 = clock64();
	out[0] = (uint64_t)(t1 - t0);
	out[1] = j;
}

__global__ void probe_chase_shared(int steps, uint64_t *out)
{
	__shared__ uint32_t s[1024];
	for (int i = 0; i < 1024; i++)
		s[i] = (uint32_t)((i + 33) % 1024);
	__syncthreads();
	uint32_t j = 0;
	const long long t0 = clock64();
	for (int i = 0; i < steps; i++)
		j = s[j];
	const long long t1 = clock64();
	out[0] = (uint64_t)(t1 - t0);
	out[1] = j;
}

__global__ void probe_chain(int steps, float x, uint64_t *out)
{
	float a = x, b = x;
	long long t0 = clock64();
	for (int i = 0; i < steps; i++) {
#pragma unroll
		for (int u = 0; u < 16; u++)
			asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(a) : "f"(x));
	}
	long long t1 = clock64();
	for (int i = 0; i < steps; i++) {
#pragma unroll
		for (int u = 0; u < 16; u++)
			asm volatile("mul.rn.f32 %0, %0, %1;" : "+f"(b) : "f"(x));
	}
	long long t2 = clock64();
	out[0] = (uint64_t)(t1 - t0);
	out[1] = (uint64_t)(t2 - t1);
	out[2] = (uint64_t)__float_as_uint(a + b);
}

__global__ void probe_spin(long long cycles)
{
	const long long t0 = clock64();
	while (clock64() - t0 < cycles) {
	}
}

__global__ void probe_atomic(float *dst, int per_block)
{
	for (int i = 0; i < per_block; i++)
		atomicAdd(dst, 1.0f);
}

/* The read floor: every 16-byte word of [p, p + bytes) read once, grid-stride. */
__global__ void __launch_bounds__(256) hxv_read_kernel(const uint4 *__restrict__ p, int64_t words,
                                                       const unsigned char *__restrict__ tail,
                                                       int tail_bytes, unsigned *sink)
{
	const int64_t stride = (int64_t)gridDim.x * blockDim.x;
	unsigned x = 0;
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	for (; i + 3 * stride < words; i += 4 * stride) {
		const uint4 a = __ldcs(p + i), b = __ldcs(p + i + stride);
		const uint4 c = __ldcs(p + i + 2 * stride), d = __ldcs(p + i + 3 * stride);
		x ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
	}
	for (; i < words; i += stride) {
		const uint4 a = __ldcs(p + i);
		x ^= a.x ^ a.y ^ a.z ^ a.w;
	}
	if (blockIdx.x == 0 && (int)threadIdx.x < tail_bytes)
		x ^= tail[threadIdx.x];
	if (x == 0x9e3779b9u) /* never in practice; keeps the loads */
		*sink = x;
}

static unsigned *g_sink[64];

extern "C" gk_status gk_cuda_hxv_read(const void *p, size_t bytes, void *stream)
{
	const char *fn = "gk_hxv_read_device";
	int dev = 0, sms = 1;
	GK_CUDA_TRY(fn, cudaGetDevice(&dev));
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	if (dev < 0 || dev >= 64)
		return gk_set_error(GK_ERR_INVALID_VALUE, "%s: device %d", fn, dev);
	if (g_sink[dev] == NULL)
		GK_CUDA_TRY(fn, cudaMalloc((void **)&g_sink[dev], sizeof(unsigned)));
	/* A misaligned head is read as part of the tail bytes' kernel: keep it simple,
	 * align down (the extra bytes belong to the same allocation's 256-byte unit). */
	const uintptr_t base = (uintptr_t)p & ~(uintptr_t)15;
	const size_t span = bytes + ((uintptr_t)p - base);
	const int64_t words = (int64_t)(span / 16);
	const int tail = (int)(span % 16);
	hxv_read_kernel<<<sms * 8, 256, 0, (cudaStream_t)stream>>>(
		(const uint4 *)base, words, (const unsigned char *)base + words * 16, tail, g_sink[dev]);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

extern "C" gk_status gk_cuda_hxv_resolve_device(int *device)
{
	if (*device < 0)
		GK_CUDA_TRY(FN, cudaGetDevice(device));
	return GK_OK;
}

/* Fill x[0 .. count) with values in [-1, 1], exactly representable. */
__global__ void probe_fill(float *x, int64_t count, uint32_t seed)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
	     i += (int64_t)gridDim.x * blockDim.x) {
		uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull + seed;
		h ^= h >> 31;
		h *= 0xBF58476D1CE4E5B9ull;
		h ^= h >> 29;
		x[i] = (float)((int)(h % 2049) - 1024) / 1024.0f;
	}
}

static gk_status probe_ms(cudaEvent_t a, cudaEvent_t b, float *ms)
{
	GK_CUDA_TRY(FN, cudaEventSynchronize(b));
	GK_CUDA_TRY(FN, cudaEventElapsedTime(ms, a, b));
	return GK_OK;
}

static gk_status probe_run(int dev, gk_hxv_device *d, cudaStream_t s, cudaEvent_t ev0, cudaEvent_t ev1,
                           uint64_t *dout, uint64_t *hout, uint64_t *chase, float **bigp)
{
	cudaDeviceProp pr;
	GK_CUDA_TRY(FN, cudaGetDeviceProperties(&pr, dev));
	memset(d, 0, sizeof *d);
	strncpy(d->name, pr.name, sizeof d->name - 1);
	d->sm_count = pr.multiProcessorCount;
	d->threads_per_sm = pr.maxThreadsPerMultiProcessor;
	d->warp_size = pr.warpSize;
	d->cores_per_sm = gk_hxv_cores_per_sm(pr.major, pr.minor);
	if (d->cores_per_sm == 0)
		d->cores_per_sm = 128;
	d->max_threads_per_block = pr.maxThreadsPerBlock;
	d->max_blocks_per_sm = pr.maxBlocksPerMultiProcessor;
	/* Clock: spin 2e7 cycles. */
	float ms = 0;
	probe_spin<<<1, 1, 0, s>>>(1000000);
	GK_CUDA_LAUNCHED(FN);
	GK_CUDA_TRY(FN, cudaEventRecord(ev0, s));
	probe_spin<<<1, 1, 0, s>>>(20000000);
	GK_CUDA_LAUNCHED(FN);
	GK_CUDA_TRY(FN, cudaEventRecord(ev1, s));
	GK_FORWARD(probe_ms(ev0, ev1, &ms));
	d->clock_ghz = 20000000.0 / (ms * 1e6);
	/* Global-memory latency. */
	const size_t n = (size_t)32 << 20; /* 256 MiB of uint64 */
	const size_t step = (size_t)(1 << 17) + 32; /* 1 MiB + 256 B */
	/* Only the visited words of the chain are written. */
	{
		const int steps = 4096;
		std::vector<uint64_t> idx(steps + 17);
		uint64_t j = 0;
		for (int i = 0; i < steps + 17; i++) {
			idx[i] = j;
			j = (j + step) % n;
		}
		for (int i = 0; i + 1 < steps + 17; i++)
			GK_CUDA_TRY(FN, cudaMemcpyAsync(chase + idx[i], &idx[i + 1], sizeof(uint64_t),
			                                cudaMemcpyHostToDevice, s));
		GK_CUDA_TRY(FN, cudaStreamSynchronize(s));
		probe_chase_global<<<1, 1, 0, s>>>(chase, steps, dout);
		GK_CUDA_LAUNCHED(FN);
		GK_CUDA_TRY(FN, cudaMemcpyAsync(hout, dout, 2 * sizeof(uint64_t), cudaMemcpyDeviceToHost, s));
		GK_CUDA_TRY(FN, cudaStreamSynchronize(s));
		d->sigma_g = (double)hout[0] / steps;
	}
	probe_chase_shared<<<1, 1, 0, s>>>(4096, dout);
	GK_CUDA_LAUNCHED(FN);
	GK_CUDA_TRY(FN, cudaMemcpyAsync(hout, dout, 2 * sizeof(uint64_t), cudaMemcpyDeviceToHost, s));
	GK_CUDA_TRY(FN, cudaStreamSynchronize(s));
	d->sigma_s = (double)hout[0] / 4096;
	probe_chain<<<1, 1, 0, s>>>(256, 1.0000001f, dout);
	GK_CUDA_LAUNCHED(FN);
	GK_CUDA_TRY(FN, cudaMemcpyAsync(hout, dout, 3 * sizeof(uint64_t), cudaMemcpyDeviceToHost, s));
	GK_CUDA_TRY(FN, cudaStreamSynchronize(s));
	d->sigma_add = (double)hout[0] / (256 * 16);
	d->sigma_mul = (double)hout[1] / (256 * 16);
	/* Atomics to one address: 4096 blocks x 1 thread x 64 each. */
	float *one = (float *)dout;
	GK_CUDA_TRY(FN, cudaEventRecord(ev0, s));
	probe_atomic<<<4096, 1, 0, s>>>(one, 64);
	GK_CUDA_LAUNCHED(FN);
	GK_CUDA_TRY(FN, cudaEventRecord(ev1, s));
	GK_FORWARD(probe_ms(ev0, ev1, &ms));
	d->sigma_atomic = ms * 1e6 * d->clock_ghz / (4096.0 * 64.0);
	/* Read bandwidth over 1 GiB. */
	const size_t bytes = (size_t)1 << 30;
	GK_CUDA_TRY(FN, cudaMallocAsync((void **)bigp, bytes, s));
	GK_CUDA_TRY(FN, cudaMemsetAsync(*bigp, 0, bytes, s));
	GK_FORWARD(gk_cuda_hxv_read(*bigp, bytes, s));
	float best = 1e30f;
	for (int r = 0; r < 5; r++) {
		GK_CUDA_TRY(FN, cudaEventRecord(ev0, s));
		GK_FORWARD(gk_cuda_hxv_read(*bigp, bytes, s));
		GK_CUDA_TRY(FN, cudaEventRecord(ev1, s));
		GK_FORWARD(probe_ms(ev0, ev1, &ms));
		best = std::min(best, ms);
	}
	d->read_bytes_per_cycle = (double)bytes / (best * 1e6 * d->clock_ghz);
	/* u_SM: PHVM on 5 x 2^24 x 5 at (8 SM_NUM, 256), inside the 1 GiB buffer. */
	{
		const int64_t m = 5, k = (int64_t)1 << 24;
		float *e = *bigp, *f = *bigp + m * k, *c = *bigp + 2 * m * k;
		probe_fill<<<d->sm_count * 4, 256, 0, s>>>(e, 2 * m * k, 7u);
		GK_CUDA_LAUNCHED(FN);
		gk_cuda_sgemm_args a;
		memset(&a, 0, sizeof a);
		a.m = m; a.n = m; a.k = k; a.alpha = 1; a.beta = 0;
		a.a = e; a.rs_a = k; a.cs_a = 1;
		a.b = f; a.rs_b = m; a.cs_b = 1;
		a.c = c; a.rs_c = m; a.stream = s; a.device = dev; a.sm_count = d->sm_count;
		const int gs = d->sm_count * 8, bs = 256;
		GK_FORWARD(gk_cuda_sgemm_hxv_phvm_at(&a, gs, bs));
		GK_CUDA_TRY(FN, cudaEventRecord(ev0, s));
		GK_FORWARD(gk_cuda_sgemm_hxv_phvm_at(&a, gs, bs));
		GK_CUDA_TRY(FN, cudaEventRecord(ev1, s));
		GK_FORWARD(probe_ms(ev0, ev1, &ms));
		/* Per k-step and thread: 4 + 5 loads (tile 4 x 4, 2 x 2 tiles), 16 FMAs, ~6 more. */
		const double tiles = 4.0, per_step = 8.0 + 16.0 + 6.0;
		const double warp_instr = tiles * per_step * (double)k / d->warp_size;
		const double slots = (double)d->sm_count * 4.0 * ms * 1e6 * d->clock_ghz;
		d->u_sm = std::min(1.0, warp_instr / slots);
	}
	d->measured = 1;
	return GK_OK;
}

extern "C" gk_status gk_cuda_hxv_probe(int dev, gk_hxv_device *d)
{
	int prev = 0;
	GK_CUDA_TRY(FN, cudaGetDevice(&prev));
	GK_CUDA_TRY(FN, cudaSetDevice(dev));
	cudaStream_t s = NULL;
	cudaEvent_t ev0 = NULL, ev1 = NULL;
	uint64_t *dout = NULL, *hout = NULL, *chase = NULL;
	float *big = NULL;
	gk_status st = GK_OK;
	cudaError_t e;
	if ((e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) != cudaSuccess ||
	    (e = cudaEventCreate(&ev0)) != cudaSuccess || (e = cudaEventCreate(&ev1)) != cudaSuccess ||
	    (e = cudaMalloc((void **)&dout, 64)) != cudaSuccess ||
	    (e = cudaMallocHost((void **)&hout, 64)) != cudaSuccess ||
	    (e = cudaMalloc((void **)&chase, (size_t)256 << 20)) != cudaSuccess)
		st = gk_cuda_status(e, FN, "setting up the micro-benchmarks");
	if (st == GK_OK)
		st = probe_run(dev, d, s, ev0, ev1, dout, hout, chase, &big);
	if (s != NULL)
		cudaStreamSynchronize(s);
	if (big != NULL)
		cudaFreeAsync(big, s);
	if (s != NULL) {
		cudaStreamSynchronize(s);
		cudaStreamDestroy(s);
	}
	if (ev0) cudaEventDestroy(ev0);
	if (ev1) cudaEventDestroy(ev1);
	if (dout) cudaFree(dout);
	if (hout) cudaFreeHost(hout);
	if (chase) cudaFree(chase);
	cudaSetDevice(prev);
	return st;
}

extern "C" gk_status gk_cuda_hxv_phvm_time(int device, int64_t m, int64_t n, int64_t k,
                                           const gk_hxv_config *cfg, int count, int reps, double *ms)
{
	const char *fn = "gk_hxv_phvm_time";
	int prev = 0, dev = device;
	GK_CUDA_TRY(fn, cudaGetDevice(&prev));
	if (dev < 0)
		dev = prev;
	GK_CUDA_TRY(fn, cudaSetDevice(dev));
	int sms = 1;
	GK_CUDA_TRY(fn, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	float *e = NULL, *f = NULL, *c = NULL;
	cudaEvent_t a0 = NULL, a1 = NULL;
	gk_status st = GK_OK;
	cudaError_t er;
	if ((er = cudaMalloc((void **)&e, (size_t)(m * k) * sizeof(float))) != cudaSuccess ||
	    (er = cudaMalloc((void **)&f, (size_t)(k * n) * sizeof(float))) != cudaSuccess ||
	    (er = cudaMalloc((void **)&c, (size_t)(m * n) * sizeof(float))) != cudaSuccess ||
	    (er = cudaEventCreate(&a0)) != cudaSuccess || (er = cudaEventCreate(&a1)) != cudaSuccess)
		st = gk_cuda_status(er, fn, "allocating E, F, C");
	if (st == GK_OK) {
		probe_fill<<<sms * 4, 256>>>(e, m * k, 1u);
		probe_fill<<<sms * 4, 256>>>(f, k * n, 2u);
		if ((er = cudaGetLastError()) != cudaSuccess)
			st = gk_cuda_status(er, fn, "probe_fill launch");
	}
	gk_cuda_sgemm_args g;
	memset(&g, 0, sizeof g);
	g.m = m; g.n = n; g.k = k; g.alpha = 1; g.beta = 0;
	g.a = e; g.rs_a = k; g.cs_a = 1;
	g.b = f; g.rs_b = n; g.cs_b = 1;
	g.c = c; g.rs_c = n; g.stream = NULL; g.device = dev; g.sm_count = sms;
	std::vector<float> t((size_t)reps);
	for (int i = 0; st == GK_OK && i < count; i++) {
		st = gk_cuda_sgemm_hxv_phvm_at(&g, cfg[i].gs, cfg[i].bs);
		for (int r = 0; st == GK_OK && r < reps; r++) {
			cudaEventRecord(a0, 0);
			st = gk_cuda_sgemm_hxv_phvm_at(&g, cfg[i].gs, cfg[i].bs);
			cudaEventRecord(a1, 0);
			if (st == GK_OK && (er = cudaEventSynchronize(a1)) != cudaSuccess)
				st = gk_cuda_status(er, fn, "cudaEventSynchronize");
			if (st == GK_OK)
				cudaEventElapsedTime(&t[(size_t)r], a0, a1);
		}
		if (st == GK_OK) {
			std::sort(t.begin(), t.end());
			ms[i] = t[(size_t)reps / 2];
		}
	}
	cudaDeviceSynchronize();
	if (e) cudaFree(e);
	if (f) cudaFree(f);
	if (c) cudaFree(c);
	if (a0) cudaEventDestroy(a0);
	if (a1) cudaEventDestroy(a1);
	cudaSetDevice(prev);
	return st;
}
