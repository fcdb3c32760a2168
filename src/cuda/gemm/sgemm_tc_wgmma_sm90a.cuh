/*
 * sgemm_tc_wgmma_sm90a.cuh - the Hopper primitives of the warpgroup-MMA
 * TF32 main kernel (sgemm_tc_wgmma_sm90a.cu): mbarriers, the bulk tensor
 * copy (TMA) of a 2-D box into swizzled shared memory, shared-memory matrix
 * descriptors and wgmma.mma_async m64nNk8 .f32.tf32.tf32 with both operands
 * K-major in shared memory.
 *
 * Device code only, and only where the compiler targets sm_90a (the
 * architecture-specific features): every definition here is inside
 * GK_WGMMA_DEVICE, so that the file also compiles for other targets.
 *
 * Layout the descriptors assume: a tile of R rows of SWZ bytes (SWZ = 128 or
 * 64; R a multiple of 8) written by the TMA with the matching swizzle, at a
 * shared address aligned to 1024 bytes. Eight rows make one swizzle atom
 * (the stride-dimension offset, 8 * SWZ bytes); a k8 step of TF32 is 32
 * bytes further along the row (the start address moves, the swizzle is
 * applied by the hardware on the absolute address).
 */
#ifndef GK_SGEMM_TC_WGMMA_SM90A_CUH
#define GK_SGEMM_TC_WGMMA_SM90A_CUH

#include <stdint.h>

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GK_WGMMA_DEVICE 1
#endif

#ifdef GK_WGMMA_DEVICE

static __device__ __forceinline__ uint32_t gk_smem_addr(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void gk_mbar_init(uint32_t bar, uint32_t count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

/* Make the initialized barriers visible to the other threads and to the
 * copy engine (async proxy). */
static __device__ __forceinline__ void gk_mbar_init_fence(void)
{
	asm volatile("fence.mbarrier_init.release.cluster;\n"
	             "fence.proxy.async.shared::cta;" ::: "memory");
}

/* Arrive once and announce `bytes` of transactions (the TMA loads of one
 * stage) on the barrier. */
static __device__ __forceinline__ void gk_mbar_arrive_tx(uint32_t bar, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
	             : "memory");
}

static __device__ __forceinline__ void gk_mbar_arrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

/* Wait until the phase of the given parity has completed. */
static __device__ __forceinline__ void gk_mbar_wait(uint32_t bar, uint32_t parity)
{
	uint32_t done;
	do {
		asm volatile("{\n.reg .pred p;\n"
		             "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
		             "selp.u32 %0, 1, 0, p;\n}"
		             : "=r"(done)
		             : "r"(bar), "r"(parity)
		             : "memory");
	} while (!done);
}

static __device__ __forceinline__ void gk_tma_prefetch_map(const void *map)
{
	asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)map) : "memory");
}

/* Load the box at (c0 = column along K, c1 = row) of a 2-D tensor map into
 * shared memory at dst; completion is counted in bytes on bar. */
static __device__ __forceinline__ void gk_tma_load_2d(uint32_t dst, const void *map, uint32_t bar,
                                                      int32_t c0, int32_t c1)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
	             " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
	             "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(bar)
	             : "memory");
}

/* The shared-memory matrix descriptor of a K-major tile with SWZ-byte
 * swizzle (128 -> mode 1, 64 -> mode 2) starting at smem address addr. */
template <int SWZ>
static __device__ __forceinline__ uint64_t gk_wgmma_desc(uint32_t addr)
{
	const uint64_t mode = SWZ == 128 ? 1 : SWZ == 64 ? 2 : 3;
	return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)1 << 16) |
	       ((uint64_t)((8 * SWZ) >> 4) << 32) | (mode << 62);
}

static __device__ __forceinline__ void gk_wgmma_fence(void)
{
	asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

static __device__ __forceinline__ void gk_wgmma_commit(void)
{
	asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

template <int N>
static __device__ __forceinline__ void gk_wgmma_wait(void)
{
	asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

/* Keep the accumulators in place across an asynchronous wgmma: the
 * compiler may not move or reuse them while the group is in flight. */
static __device__ __forceinline__ void gk_reg_fence(float &r)
{
	asm volatile("" : "+f"(r)::"memory");
}

/* d = A B^T + (ACC ? d : 0) on one m64n256k8 TF32 step, A and B from shared
 * memory (descriptors); ACC == 0 starts the accumulator from zero. */
template <int ACC>
static __device__ __forceinline__ void gk_wgmma_n256(float *d, uint64_t da, uint64_t db)
{
	asm volatile(
		"{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
		"wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
		"%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
		"%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
		"%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
		"%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
		"%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
		"%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
		"%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
		"%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
		"%128, %129, p, 1, 1;\n}\n"
		: "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
		  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
		  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
		  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
		  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
		  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
		  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
		  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
		  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
		: "l"(da), "l"(db), "n"(ACC));
}

/* d = A B^T + (ACC ? d : 0) on one m64n128k8 TF32 step (as gk_wgmma_n256). */
template <int ACC>
static __device__ __forceinline__ void gk_wgmma_n128(float *d, uint64_t da, uint64_t db)
{
	asm volatile(
		"{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
		"wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
		"%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
		"%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
		"%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
		"%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
		"%64, %65, p, 1, 1;\n}\n"
		: "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
		: "l"(da), "l"(db), "n"(ACC));
}

template <int BN, int ACC = 1>
static __device__ __forceinline__ void gk_wgmma(float *d, uint64_t da, uint64_t db)
{
	if constexpr (BN == 256)
		gk_wgmma_n256<ACC>(d, da, db);
	else
		gk_wgmma_n128<ACC>(d, da, db);
}

#endif /* GK_WGMMA_DEVICE */
#endif
