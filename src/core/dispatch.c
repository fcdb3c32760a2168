/*
 * dispatch.c - choose the CPU kernel table once, at first use.
 *
 * The registry is the ordered list below: the first table whose required
 * features the CPU has wins. GK_ARCH=generic|avx2|avx512 forces a table; one
 * the CPU cannot run is refused with a warning. GK_ARCH_DEBUG=1 logs the
 * choice.
 */
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gk_internal.h"

typedef void (*init_fn)(gk_kernels *);

static const struct { const char *name; init_fn init; } registry[] = {
	{"avx512", gk_kernels_init_avx512},
	{"avx2", gk_kernels_init_avx2},
	{"generic", gk_kernels_init_generic},
};
#define N_TABLES (sizeof registry / sizeof registry[0])

static gk_kernels tables[N_TABLES];
static const gk_kernels *active;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void choose(void)
{
	uint64_t have = gk_cpu_features();
	const gk_kernels *best = NULL;
	for (size_t i = 0; i < N_TABLES; i++) {
		registry[i].init(&tables[i]);
		if (best == NULL && (tables[i].requires & have) == tables[i].requires)
			best = &tables[i];
	}
	const char *forced = getenv("GK_ARCH");
	if (forced != NULL && *forced != '\0') {
		const gk_kernels *want = NULL;
		for (size_t i = 0; i < N_TABLES; i++)
			if (strcmp(forced, tables[i].name) == 0)
				want = &tables[i];
		if (want == NULL)
			fprintf(stderr, "gemmkit: GK_ARCH=%s is not a kernel set "
			        "(generic, avx2, avx512); using %s\n", forced, best->name);
		else if ((want->requires & have) != want->requires)
			fprintf(stderr, "gemmkit: GK_ARCH=%s needs features this CPU lacks; "
			        "using %s\n", forced, best->name);
		else
			best = want;
	}
	active = best;
	const char *dbg = getenv("GK_ARCH_DEBUG");
	if (dbg != NULL && *dbg != '\0' && *dbg != '0')
		fprintf(stderr, "gemmkit: CPU kernel set: %s\n", active->name);
}

const gk_kernels *gk_kernels_active(void)
{
	/* Asked on every GEMM call: after the first, one load instead of a
	 * call to pthread_once. */
	static _Atomic(const gk_kernels *) chosen;
	const gk_kernels *k = atomic_load_explicit(&chosen, memory_order_acquire);
	if (k != NULL)
		return k;
	pthread_once(&once, choose);
	atomic_store_explicit(&chosen, active, memory_order_release);
	return active;
}

const gk_kernels *gk_kernels_by_name(const char *name)
{
	pthread_once(&once, choose);
	uint64_t have = gk_cpu_features();
	for (size_t i = 0; i < N_TABLES; i++)
		if (name != NULL && strcmp(name, tables[i].name) == 0)
			return (tables[i].requires & have) == tables[i].requires ? &tables[i] : NULL;
	return NULL;
}

const char *gk_arch_name(void)
{
	return gk_kernels_active()->name;
}
