/* alloc.c - aligned allocation for packed panels and workspaces. */
#include <stdlib.h>
#include "gk_internal.h"

#define GK_ALIGN 64

void *gk_aligned_alloc(size_t count, size_t elem_size)
{
	size_t bytes;
	if (__builtin_mul_overflow(count, elem_size, &bytes))
		return NULL;
	if (bytes == 0)
		bytes = GK_ALIGN;
	/* aligned_alloc needs a multiple of the alignment. */
	if (bytes > SIZE_MAX - GK_ALIGN)
		return NULL;
	bytes = (bytes + GK_ALIGN - 1) / GK_ALIGN * GK_ALIGN;
	return aligned_alloc(GK_ALIGN, bytes);
}

void gk_aligned_free(void *p)
{
	free(p);
}
