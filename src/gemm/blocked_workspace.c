/*
 * blocked_workspace.c - the packed-panel memory of the blocked driver.
 *
 * Calls reuse one buffer per calling thread, so that a loop of GEMMs does
 * not pay for an allocation (and, for the larger ones, a fresh mapping and
 * its page faults) every time. The buffer grows to the largest request up
 * to WS_CACHE_MAX and is freed when the thread exits; larger requests are
 * allocated and freed per call. The panels take about 5 MiB per thread of
 * the call (9-13 MiB on two threads from 1024^3): allocated per call, as
 * they were past 8 MiB, a 2-thread DGEMM 1024^3 faulted its 9 MiB in again
 * on each of its first 8 or so calls, until the C library kept the memory,
 * and ran them at 75 GFLOPS against 170 after (Zen 5 guest); past 32 MiB
 * (seven threads or more) the C library maps it afresh on every call.
 *
 * Buffers of WS_HUGE_MIN bytes or more are asked to be backed by huge pages
 * (madvise MADV_HUGEPAGE on a 2 MiB aligned, whole number of 2 MiB pages;
 * Linux's transparent huge pages, whose common default, "madvise", gives
 * them only to memory that asks). A large product walks the packed A block,
 * the packed B panel and a column of C tiles (one page per row of C) at
 * once: with 4 KiB pages that is more pages than the second-level TLB of
 * many cores holds (2048 entries), and every page walk stalls the kernel.
 * That is asked on Intel CPUs only (within the spread, or up to 1.2x, on a
 * Sapphire Rapids guest: bench/results/2026-11-24-spr-cpu/logs/
 * hugepages_ab.log). On a Zen 5 guest the same panels on huge pages ran
 * large products 1.2-2x slower: DGEMM 3072^3 at 38-80 GFLOPS in 4 processes
 * of 5 against 86-98 with 4 KiB pages in all 5, SGEMM 4096^3 144-155
 * against 179-198 (bench/results/2026-11-27-zen5-cpu/logs/hugepages_ab.log;
 * the buffer 2 MiB aligned either way).
 * GK_HUGEPAGES=1 asks on any CPU, GK_HUGEPAGES=0 on none.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "blocked.h"

#define WS_CACHE_MAX ((size_t)256 << 20)
#define WS_HUGE_MIN ((size_t)1 << 20)
#define WS_HUGE_PAGE ((size_t)2 << 20)

static int ws_huge_allowed(void)
{
	static int cached = -1;
	return gk_env_switch("GK_HUGEPAGES", &cached, gk_cpu_intel);
}

/* bytes of workspace, 64-byte aligned; large ones on huge pages where the
 * system gives them (a refused madvise changes nothing but the speed).
 * *got: the bytes allocated (bytes, or rounded up to whole huge pages). */
static void *ws_alloc(size_t bytes, size_t *got)
{
	*got = bytes;
#ifdef MADV_HUGEPAGE
	if (bytes >= WS_HUGE_MIN && bytes <= SIZE_MAX - WS_HUGE_PAGE && ws_huge_allowed()) {
		const size_t len = (bytes + WS_HUGE_PAGE - 1) / WS_HUGE_PAGE * WS_HUGE_PAGE;
		void *p = aligned_alloc(WS_HUGE_PAGE, len);
		if (p != NULL) {
			(void)madvise(p, len, MADV_HUGEPAGE);
			*got = len;
		}
		return p;
	}
#endif
	return gk_aligned_alloc(bytes, 1);
}

static _Thread_local void *ws_buf;
static _Thread_local size_t ws_bytes;
static _Thread_local int ws_busy;
static pthread_key_t ws_key;
static pthread_once_t ws_once = PTHREAD_ONCE_INIT;

static void ws_free(void *p)
{
	gk_aligned_free(p);
}

static void ws_init(void)
{
	/* Without a key the buffer is simply never cached (see below). */
	if (pthread_key_create(&ws_key, ws_free) != 0)
		ws_key = (pthread_key_t)-1;
}

int gk_gemm_workspace_refuse;

void *gk_gemm_workspace_get(size_t bytes)
{
	if (gk_gemm_workspace_refuse)
		return NULL;
	pthread_once(&ws_once, ws_init);
	size_t got;
	if (bytes > WS_CACHE_MAX || ws_busy || ws_key == (pthread_key_t)-1)
		return ws_alloc(bytes, &got);
	if (ws_bytes < bytes) {
		void *p = ws_alloc(bytes, &got);
		if (p == NULL)
			return NULL;
		gk_aligned_free(ws_buf);
		ws_buf = p;
		/* What it holds: a later call asking a little more than this one
		 * did still fits the rounded-up buffer. */
		ws_bytes = got;
		/* The thread-exit destructor frees whatever is registered. */
		if (pthread_setspecific(ws_key, ws_buf) != 0) {
			ws_buf = NULL;
			ws_bytes = 0;
			return p;
		}
	}
	ws_busy = 1;
	return ws_buf;
}

void gk_gemm_workspace_put(void *p)
{
	if (p != NULL && p == ws_buf)
		ws_busy = 0;
	else
		gk_aligned_free(p);
}
