/*
 * gemm_devices.c - `gemmkit gemm --devices LIST`: the GPUs that a product
 * from host memory shares its work among (gk_context_set_devices). LIST is
 * device ordinals, comma-separated (a device listed twice runs two workers
 * on it), or "all": every visible device, the library's default.
 */
#include <stdio.h>
#include <string.h>
#include "cli_util.h"
#include "gemm_cmd.h"

int gemm_parse_devices(const char *v, gemm_opts *o)
{
	static const char *const expected = "expected device ordinals separated by commas (e.g. 0,1,1) or all";
	o->devices_set = 1;
	o->ndevices = 0;
	if (strcmp(v, "all") == 0)
		return 0;
	int n = 0;
	for (const char *p = v;;) {
		const char *comma = strchr(p, ',');
		const int len = (int)(comma ? (size_t)(comma - p) : strlen(p));
		if (len == 0) {
			cli_error(GEMM_CMD, "--devices '%s': entry %d is empty; %s", v, n + 1, expected);
			return 2;
		}
		if (n >= GK_MAX_DEVICES) {
			cli_error(GEMM_CMD, "--devices '%s': more than %d entries", v, GK_MAX_DEVICES);
			return 2;
		}
		if (p[0] == '-' && len > 1 && strspn(p + 1, "0123456789") >= (size_t)(len - 1)) {
			cli_error(GEMM_CMD, "--devices '%s': entry %d (%.*s) is negative; device ordinals are >= 0", v,
			          n + 1, len, p);
			return 2;
		}
		if (strspn(p, "0123456789") < (size_t)len || len > 9) {
			cli_error(GEMM_CMD, "--devices '%s': entry %d (%.*s) is not a device ordinal; %s", v, n + 1, len,
			          p, expected);
			return 2;
		}
		int d = 0;
		for (int i = 0; i < len; i++)
			d = d * 10 + (p[i] - '0');
		o->devices[n++] = d;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	o->ndevices = n;
	return 0;
}

int gemm_apply_devices(gk_context *ctx, const gemm_opts *o)
{
	if (!o->devices_set)
		return 0;
	gk_status st = gk_context_set_devices(ctx, o->devices, o->ndevices);
	if (st != GK_OK) {
		gemm_report_lib_error("gk_context_set_devices", st);
		return 2;
	}
	if (o->backend != GK_BACKEND_CUDA && strncmp(o->algo, "cuda.", 5) != 0)
		fprintf(stderr, "gemmkit gemm: note: --devices applies to products on the GPU (--backend cuda or a "
		                "cuda.* algorithm); this one runs on the CPU\n");
	return 0;
}

void gemm_print_devices(const gemm_opts *o)
{
	if (!o->devices_set)
		return;
	if (o->ndevices == 0) {
		printf("devices:   all visible (the default)\n");
		return;
	}
	printf("devices:   ");
	for (int i = 0; i < o->ndevices; i++)
		printf("%s%d", i ? "," : "", o->devices[i]);
	printf(" (%d worker%s)\n", o->ndevices, o->ndevices > 1 ? "s" : "");
}
