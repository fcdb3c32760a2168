/* context.h - the layout of gk_context, shared by the API files only. */
#ifndef GK_CONTEXT_H
#define GK_CONTEXT_H
#include "gk_internal.h"

struct gk_context {
	const gk_algo *algo; /* NULL: "auto" */
	gk_backend backend;
	int threads;         /* 0: the default count */
	unsigned flags;      /* GK_FLAG_* */
};

#endif
