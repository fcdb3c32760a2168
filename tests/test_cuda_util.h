/*
 * test_cuda_util.h - helpers of the tests of host-pointer GPU calls
 * (test_cuda_hostmem.c, test_cuda_multi.c): host buffers pinned or
 * pageable, and the check that a call left nothing for cudaGetLastError.
 * Include after test_util.h, in a build with CUDA (GK_TEST_HAVE_CUDA).
 */
#ifndef GK_TEST_CUDA_UTIL_H
#define GK_TEST_CUDA_UTIL_H

#include <stdlib.h>
#include <cuda_runtime.h>

/* A host buffer of `bytes`, pinned (cudaHostAlloc) or pageable (malloc). */
static inline void *tcu_host_alloc(size_t bytes, int pinned)
{
	void *p = NULL;
	if (pinned)
		return cudaHostAlloc(&p, bytes ? bytes : 8, cudaHostAllocDefault) == cudaSuccess ? p : NULL;
	return malloc(bytes ? bytes : 8);
}

static inline void tcu_host_free(void *p, int pinned)
{
	if (pinned)
		cudaFreeHost(p);
	else
		free(p);
}

/* Nothing of a call's failures is left for the caller's cudaGetLastError. */
static inline void tcu_no_last_error(const char *what)
{
	const cudaError_t e = cudaGetLastError();
	TU_CHECK(e == cudaSuccess, "%s: cudaGetLastError after the call: %s", what, cudaGetErrorName(e));
}

#endif
