/* context.c - the choices a call is made with: algorithm, backend, threads,
 * flags, precision mode, and the CUDA device and stream. */
#include <stdatomic.h>
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
	ctx->precision = GK_PRECISION_DEFAULT;
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

gk_status gk_context_set_device_budget(gk_context *ctx, size_t bytes)
{
	GK_RETURN_IF(ctx == NULL, GK_ERR_NULL_POINTER, "gk_context_set_device_budget: ctx is NULL");
	ctx->device_budget = bytes;
	return GK_OK;
}

size_t gk_context_device_budget(const gk_context *ctx)
{
	return ctx ? ctx->device_budget : 0;
}

gk_status gk_context_set_devices(gk_context *ctx, const int *devices, int count)
{
	GK_RETURN_IF(ctx == NULL, GK_ERR_NULL_POINTER, "gk_context_set_devices: ctx is NULL");
	GK_RETURN_IF(count < 0 || count > GK_MAX_DEVICES, GK_ERR_INVALID_VALUE,
	             "gk_context_set_devices: count = %d is not in [0, %d]", count, GK_MAX_DEVICES);
	GK_RETURN_IF(count > 0 && devices == NULL, GK_ERR_NULL_POINTER,
	             "gk_context_set_devices: devices is NULL and count = %d", count);
	for (int i = 0; i < count; i++)
		GK_RETURN_IF(devices[i] < 0, GK_ERR_INVALID_VALUE,
		             "gk_context_set_devices: devices[%d] = %d < 0", i, devices[i]);
	for (int i = 0; i < count; i++)
		ctx->devices[i] = devices[i];
	ctx->ndevices = count;
	return GK_OK;
}

int gk_context_devices(const gk_context *ctx, int *out, int cap)
{
	if (ctx == NULL)
		return 0;
	for (int i = 0; i < ctx->ndevices && i < cap && out != NULL; i++)
		out[i] = ctx->devices[i];
	return ctx->ndevices;
}

static const char *const precision_names[] = {"default", "strict", "accurate", "tf32"};

const char *gk_precision_name(gk_precision precision)
{
	if ((int)precision < 0 || (int)precision > (int)GK_PRECISION_TF32)
		return NULL;
	return precision_names[precision];
}

gk_status gk_precision_parse(const char *name, gk_precision *out)
{
	GK_RETURN_IF(name == NULL || out == NULL, GK_ERR_NULL_POINTER, "gk_precision_parse: %s is NULL",
	             name == NULL ? "name" : "out");
	for (int i = 0; i <= (int)GK_PRECISION_TF32; i++) {
		if (strcmp(name, precision_names[i]) == 0) {
			*out = (gk_precision)i;
			return GK_OK;
		}
	}
	return gk_set_error(GK_ERR_INVALID_VALUE,
	                    "precision \"%s\" is not one of default, strict, accurate, tf32", name);
}

gk_status gk_context_set_precision(gk_context *ctx, gk_precision precision)
{
	GK_RETURN_IF(ctx == NULL, GK_ERR_NULL_POINTER, "gk_context_set_precision: ctx is NULL");
	GK_RETURN_IF(gk_precision_name(precision) == NULL, GK_ERR_INVALID_VALUE,
	             "gk_context_set_precision: %d is not a gk_precision", (int)precision);
	ctx->precision = precision;
	return GK_OK;
}

gk_precision gk_context_precision(const gk_context *ctx)
{
	return ctx ? ctx->precision : GK_PRECISION_DEFAULT;
}

/* GK_PRECISION, read once: a name that is not a mode (or "default") leaves
 * strict, the safe choice. */
static gk_precision env_precision(void)
{
	static atomic_int cached = -1;
	int v = atomic_load_explicit(&cached, memory_order_relaxed);
	if (v < 0) {
		gk_precision p = GK_PRECISION_STRICT;
		const char *e = getenv("GK_PRECISION");
		if (e != NULL && *e != '\0') {
			gk_precision q;
			if (gk_precision_parse(e, &q) == GK_OK && q != GK_PRECISION_DEFAULT)
				p = q;
			else
				gk_clear_error();
		}
		v = (int)p;
		atomic_store_explicit(&cached, v, memory_order_relaxed);
	}
	return (gk_precision)v;
}

gk_precision gk_precision_effective(const gk_context *ctx)
{
	if (ctx != NULL && ctx->precision != GK_PRECISION_DEFAULT)
		return ctx->precision;
	return env_precision();
}
