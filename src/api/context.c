/* context.c - the choices a call is made with: algorithm, backend, threads,
 * flags, and the CUDA device and stream. */
#include <stdlib.h>
#include <string.h>
#include "gk_context.h"

gk_status gk_context_create(gk_context **out)
{
	GK_RETURN_IF(out == NULL, GK_ERR_NULL_POINTER, "gk_context_create: out is NULL");
	*out = NULL;
	gk_context *ctx = calloc(1, sizeof *ctx);
	GK_RETURN_IF(ctx == NULL, GK_ERR_NO_MEMORY, "gk_context_create: out of memory");
	ctx->algo = NULL;
	ctx->backend = GK_BACKEND_AUTO;
	ctx->threads = 0;
	ctx->device = -1;
	ctx->stream = NULL;
	*out = ctx;
	return GK_OK;
}

void gk_context_destroy(gk_context *ctx)
{
	free(ctx);
}

gk_status gk_context_set_algo(gk_context *ctx, const char *name)
{
	GK_RETURN_IF(ctx == NULL, GK_ERR_NULL_POINTER, "gk_context_set_algo: ctx is NULL");
	GK_RETURN_IF(name == NULL, GK_ERR_NULL_POINTER, "gk_context_set_algo: name is NULL");
	if (strcmp(name, "auto") == 0) {
		ctx->algo = NULL;
		return GK_OK;
	}
	const gk_algo *al = gk_algo_find(name);
	GK_RETURN_IF(al == NULL, GK_ERR_UNKNOWN_ALGO,
	             "gk_context_set_algo: no algorithm is named \"%s\" (gemmkit info --algos lists them)", name);
	ctx->algo = al;
	return GK_OK;
}

const char *gk_context_algo(const gk_context *ctx)
{
	if (ctx == NULL)
		return NULL;
	return ctx->algo ? ctx->algo->name : "auto";
}

gk_status gk_context_set_backend(gk_context *ctx, gk_backend backend)
{
	GK_RETURN_IF(ctx == NULL, GK_ERR_NULL_POINTER, "gk_context_set_backend: ctx is NULL");
	GK_RETURN_IF(backend != GK_BACKEND_AUTO && backend != GK_BACKEND_CPU && backend != GK_BACKEND_CUDA,
	             GK_ERR_INVALID_VALUE, "gk_context_set_backend: backend = %d is not a gk_backend", (int)backend);
	ctx->backend = backend;
	return GK_OK;
}

gk_status gk_context_set_threads(gk_context *ctx, int n)
{
	GK_RETURN_IF(ctx == NULL, GK_ERR_NULL_POINTER, "gk_context_set_threads: ctx is NULL");
	GK_RETURN_IF(n < 0, GK_ERR_INVALID_VALUE, "gk_context_set_threads: n = %d < 0", n);
	ctx->threads = n;
	return GK_OK;
}

gk_status gk_context_set_flags(gk_context *ctx, unsigned flags)
{
	GK_RETURN_IF(ctx == NULL, GK_ERR_NULL_POINTER, "gk_context_set_flags: ctx is NULL");
	GK_RETURN_IF((flags & ~(GK_FLAG_DETERMINISTIC | GK_FLAG_ALLOW_STRASSEN)) != 0, GK_ERR_INVALID_VALUE,
	             "gk_context_set_flags: flags = 0x%x has unknown bits", flags);
	ctx->flags = flags;
	return GK_OK;
}

unsigned gk_context_flags(const gk_context *ctx)
{
	return ctx ? ctx->flags : 0u;
}

gk_status gk_context_set_device(gk_context *ctx, int device)
{
	GK_RETURN_IF(ctx == NULL, GK_ERR_NULL_POINTER, "gk_context_set_device: ctx is NULL");
	GK_RETURN_IF(device < -1, GK_ERR_INVALID_VALUE,
	             "gk_context_set_device: device = %d < -1", device);
	ctx->device = device;
	return GK_OK;
}

int gk_context_device(const gk_context *ctx)
{
	return ctx ? ctx->device : -1;
}

gk_status gk_context_set_stream(gk_context *ctx, void *stream)
{
	GK_RETURN_IF(ctx == NULL, GK_ERR_NULL_POINTER, "gk_context_set_stream: ctx is NULL");
	ctx->stream = stream;
	return GK_OK;
}

void *gk_context_stream(const gk_context *ctx)
{
	return ctx ? ctx->stream : NULL;
}
