/* status.c - status strings, the per-thread last-error message, the version. */
#include <stdarg.h>
#include <stdio.h>
#include "gk_internal.h"

static _Thread_local char last_error[256];
int gk_error_recorded;

const char *gk_strerror(gk_status status)
{
	switch (status) {
	case GK_OK: return "success";
	case GK_ERR_INVALID_VALUE: return "invalid enum value";
	case GK_ERR_NEGATIVE_SIZE: return "negative size";
	case GK_ERR_BAD_LD: return "leading dimension too small";
	case GK_ERR_NULL_POINTER: return "NULL pointer where data is needed";
	case GK_ERR_OVERFLOW: return "size overflows the address range";
	case GK_ERR_NO_MEMORY: return "out of memory";
	case GK_ERR_UNKNOWN_ALGO: return "unknown algorithm name";
	case GK_ERR_UNSUPPORTED: return "not supported by the chosen algorithm or backend";
	case GK_ERR_NO_GPU: return "no CUDA GPU available";
	case GK_ERR_CUDA: return "CUDA error";
	case GK_ERR_IO: return "I/O error";
	case GK_ERR_FORMAT: return "bad file format";
	case GK_ERR_SINGULAR: return "singular matrix";
	case GK_ERR_INTERNAL: return "internal error";
	}
	return "unknown gk_status";
}

const char *gk_last_error(void)
{
	return last_error;
}

gk_status gk_set_error(gk_status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, ap);
	va_end(ap);
	/* Only this thread's message is not empty, and this thread sees its
	 * own store: relaxed is enough. */
	__atomic_store_n(&gk_error_recorded, 1, __ATOMIC_RELAXED);
	return st;
}

void gk_clear_error_now(void)
{
	last_error[0] = '\0';
}

int gk_version(void)
{
	return GK_VERSION;
}

#define GK_STR2(x) #x
#define GK_STR(x) GK_STR2(x)

const char *gk_version_string(void)
{
	return GK_STR(GK_VERSION_MAJOR) "." GK_STR(GK_VERSION_MINOR) "." GK_STR(GK_VERSION_PATCH);
}
