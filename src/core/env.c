/*
 * env.c - the on/off switches of the environment, read once per switch:
 * on unless the variable is "0" (GK_GFNI), or "0", "1" or the machine's
 * default (GK_HUGEPAGES, GK_GF256_STREAM).
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

int gk_env_switch(const char *name, int *cache, int (*dflt)(void))
{
	int v = __atomic_load_n(cache, __ATOMIC_RELAXED);
	if (v < 0) {
		const char *s = getenv(name);
		v = s != NULL && (strcmp(s, "0") == 0 || strcmp(s, "1") == 0) ? s[0] == '1' : dflt();
		__atomic_store_n(cache, v, __ATOMIC_RELAXED);
	}
	return v;
}
