/*
 * cache_sizes.c - the data cache sizes of one core.
 *
 * sysfs describes the caches of cpu0 as the kernel sees them, per core.
 * glibc's sysconf is the fallback: on some virtual machines it reports the
 * host's whole L3 (ten times the guest's), so it comes second.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gk_internal.h"

static size_t sizes[4]; /* by level; [0] unused */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return -1;
	int ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* "48K", "1024K", "32M" in bytes; 0 when unreadable. */
static size_t parse_size(const char *s)
{
	unsigned long long v;
	char unit = '\0';
	if (sscanf(s, "%llu%c", &v, &unit) < 1)
		return 0;
	if (unit == 'K') v <<= 10;
	else if (unit == 'M') v <<= 20;
	else if (unit == 'G') v <<= 30;
	return (size_t)v;
}

static void read_sizes(void)
{
	char path[128], level[16], type[32], size[32];
	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (read_line(path, level, sizeof level) != 0)
			break;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (read_line(path, type, sizeof type) != 0 || strcmp(type, "Instruction") == 0)
			continue;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (read_line(path, size, sizeof size) != 0)
			continue;
		int lv = level[0] - '0';
		if (lv >= 1 && lv <= 3 && level[1] == '\0')
			sizes[lv] = parse_size(size);
	}
#ifdef _SC_LEVEL1_DCACHE_SIZE
	static const int names[4] = {0, _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE};
	for (int lv = 1; lv <= 3; lv++) {
		if (sizes[lv] == 0) {
			long v = sysconf(names[lv]);
			sizes[lv] = v > 0 ? (size_t)v : 0;
		}
	}
#endif
}

void gk_cache_sizes(size_t *l1d, size_t *l2, size_t *l3)
{
	pthread_once(&once, read_sizes);
	*l1d = sizes[1];
	*l2 = sizes[2];
	*l3 = sizes[3];
}
