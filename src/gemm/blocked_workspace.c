/*
 * blocked_workspace.c - the packed-panel memory of the blocked driver.
 *
 * Small and medium calls reuse one buffer per calling thread, so that a loop
 * of small GEMMs does not pay for an allocation (and, for the larger ones, a
 * fresh mapping and its page faults) every time. The buffer grows to the
 * largest request up to WS_CACHE_MAX and is freed when the thread exits;
 * larger requests are allocated and freed per call.
 */
#include <pthread.h>
#include "blocked.h"

#define WS_CACHE_MAX ((size_t)8 << 20)

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
	if (bytes > WS_CACHE_MAX || ws_busy || ws_key == (pthread_key_t)-1)
		return gk_aligned_alloc(bytes, 1);
	if (ws_bytes < bytes) {
		void *p = gk_aligned_alloc(bytes, 1);
		if (p == NULL)
			return NULL;
		gk_aligned_free(ws_buf);
		ws_buf = p;
		ws_bytes = bytes;
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
