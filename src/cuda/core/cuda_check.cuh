/*
 * cuda_check.cuh - what every .cu file of the CUDA backend includes: the
 * CUDA runtime, the library's internal C headers, and the checks that turn
 * a CUDA error into a gk_status with a message for gk_last_error().
 */
#ifndef GK_CUDA_CHECK_CUH
#define GK_CUDA_CHECK_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#define restrict __restrict__
extern "C" {
#include "gk_internal.h"
}
#undef restrict
#include "../cuda_gemm.h"

/* The status of a CUDA error: out of memory is GK_ERR_NO_MEMORY, any other
 * failure GK_ERR_CUDA. The error is recorded for gk_last_error(). */
static inline gk_status gk_cuda_status(cudaError_t e, const char *where, const char *what)
{
	return gk_set_error(e == cudaErrorMemoryAllocation ? GK_ERR_NO_MEMORY : GK_ERR_CUDA,
	                    "%s: %s: %s (%s)", where, what, cudaGetErrorString(e), cudaGetErrorName(e));
}

/* Check a CUDA call inside a function returning gk_status; `fn` names the
 * caller in the message. */
#define GK_CUDA_TRY(fn, call)                                              \
	do {                                                                   \
		cudaError_t gk_cuda_e_ = (call);                                   \
		if (gk_cuda_e_ != cudaSuccess)                                     \
			return gk_cuda_status(gk_cuda_e_, (fn), #call);                \
	} while (0)

/* After a kernel launch: the launch error (bad configuration, too much
 * shared memory, no kernel image for this device). */
#define GK_CUDA_LAUNCHED(fn) GK_CUDA_TRY((fn), cudaGetLastError())

#endif
