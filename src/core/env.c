/*
 * env.c - the on/off switches of the environment (GK_GFNI, GK_HUGEPAGES):
 * on unless the variable is "0", read once per switch.
 */
#include <stdlib.h>
#include <string.h>
#include "gk_internal.h"

int gk_env_on(const char *name, int *cache)
{
	int v = __atomic_load_n(cache, __ATOMIC_RELAXED);
	if (v < 0) {
		const char *s = getenv(name);
		v = !(s != NULL && strcmp(s, "0") == 0);
		__atomic_store_n(cache, v, __ATOMIC_RELAXED);
	}
	return v;
}
