/* rs_opts.c - the command line, messages, code and context of `gemmkit rs` (rs_cli.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "cli_util.h"
#include "rs/rs_cli.h"
#include "shard_format.h"

static const char *cmd_name = "rs";

void rs_set_cmd(const char *name)
{
	cmd_name = name;
}

void rs_err(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cli_error(cmd_name, "%s", msg);
}

/*
 * Match argv[*i] against a valued option: "-k 4", "-k4", "--opt 4" or
 * "--opt=4". 1: matched (value in *val, *i advanced past it); 0: not this
 * option; -1: the value is missing (reported).
 */
static int opt_value(int argc, char **argv, int *i, const char *shortname, const char *longname,
                     const char **val)
{
	const char *a = argv[*i];
	size_t n;
	if (shortname != NULL && strncmp(a, shortname, strlen(shortname)) == 0) {
		n = strlen(shortname);
		if (a[n] != '\0') {
			*val = a + n;
			return 1;
		}
	} else if (longname != NULL && strncmp(a, longname, (n = strlen(longname))) == 0) {
		if (a[n] == '=') {
			*val = a + n + 1;
			return 1;
		}
		if (a[n] != '\0')
			return 0;
	} else {
		return 0;
	}
	if (*i + 1 >= argc) {
		rs_err("option %s needs a value", a);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

/* An integer option in [lo, hi]; 0, or 2 (reported). */
static int int_value(const char *opt, const char *v, int64_t lo, int64_t hi, const char *what,
                     int64_t *x)
{
	if (cli_parse_i64(v, lo, hi, x) == 0)
		return 0;
	rs_err("%s wants %s, not '%s'", opt, what, v);
	return 2;
}

int rs_parse_opts(int argc, char **argv, unsigned allowed, int max_pos, const char *help,
                  rs_opts *o)
{
	memset(o, 0, sizeof *o);
	o->k = RS_DEFAULT_K;
	o->m = RS_DEFAULT_M;
	o->stripe = RS_DEFAULT_STRIPE;
	o->matrix = SHARD_MATRIX_CAUCHY;
	int only_pos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		int64_t x = 0;
		int r;
		if (only_pos || a[0] != '-' || a[1] == '\0') {
			if (o->npos >= max_pos) {
				rs_err("unexpected argument '%s' (see --help)", a);
				return 2;
			}
			o->pos[o->npos++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(help, stdout);
			return 1;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			o->quiet = 1;
		} else if ((allowed & OPT_FORCE) && (strcmp(a, "--force") == 0 || strcmp(a, "-f") == 0)) {
			o->force = 1;
		} else if ((allowed & OPT_KM) && (r = opt_value(argc, argv, &i, "-k", NULL, &v)) != 0) {
			if (r < 0 || int_value("-k", v, 1, SHARD_MAX_SHARDS - 1, "an integer in [1, 255]", &x))
				return 2;
			o->k = (int)x;
		} else if ((allowed & OPT_KM) && (r = opt_value(argc, argv, &i, "-m", NULL, &v)) != 0) {
			if (r < 0 || int_value("-m", v, 1, SHARD_MAX_SHARDS - 1, "an integer in [1, 255]", &x))
				return 2;
			o->m = (int)x;
		} else if ((allowed & OPT_OUT) &&
		           (r = opt_value(argc, argv, &i, "-o", "--output", &v)) != 0) {
			if (r < 0)
				return 2;
			o->out = v;
		} else if ((allowed & OPT_MATRIX) &&
		           (r = opt_value(argc, argv, &i, NULL, "--matrix", &v)) != 0) {
			if (r < 0)
				return 2;
			if (strcmp(v, "cauchy") == 0) {
				o->matrix = SHARD_MATRIX_CAUCHY;
			} else if (strcmp(v, "isal-vandermonde") == 0) {
				o->matrix = SHARD_MATRIX_ISAL_VANDERMONDE;
			} else {
				rs_err("--matrix wants cauchy or isal-vandermonde, not '%s'", v);
				return 2;
			}
		} else if ((allowed & OPT_STRIPE) &&
		           (r = opt_value(argc, argv, &i, NULL, "--stripe", &v)) != 0) {
			if (r < 0 || int_value("--stripe", v, 1, SHARD_MAX_STRIPE,
			                       "a byte count in [1, 1G]", &x))
				return 2;
			o->stripe = (uint32_t)x;
		} else if ((allowed & OPT_THREADS) &&
		           (r = opt_value(argc, argv, &i, NULL, "--threads", &v)) != 0) {
			if (r < 0 || int_value("--threads", v, 0, 1024, "an integer in [0, 1024]", &x))
				return 2;
			o->threads = (int)x;
		} else if ((allowed & OPT_BACKEND) &&
		           (r = opt_value(argc, argv, &i, NULL, "--backend", &v)) != 0) {
			if (r < 0)
				return 2;
			if (strcmp(v, "cpu") == 0) {
				o->backend = RS_BACKEND_CPU;
			} else if (strcmp(v, "cuda") == 0) {
				o->backend = RS_BACKEND_CUDA;
			} else if (strcmp(v, "auto") == 0) {
				o->backend = RS_BACKEND_AUTO;
			} else {
				rs_err("--backend wants cpu, cuda or auto, not '%s'", v);
				return 2;
			}
		} else {
			rs_err("unknown option '%s' (see --help)", a);
			return 2;
		}
	}
	return 0;
}

const char *rs_matrix_name(int kind)
{
	return kind == SHARD_MATRIX_ISAL_VANDERMONDE ? "isal-vandermonde" : "cauchy";
}

gk_rs *rs_make_code(int k, int m, int kind)
{
	gk_rs *rs = NULL;
	gk_status st = gk_rs_create(&rs, k, m, kind == SHARD_MATRIX_ISAL_VANDERMONDE
	                                           ? GK_RS_VANDERMONDE_ISAL : GK_RS_CAUCHY);
	if (st == GK_ERR_UNSUPPORTED)
		rs_err("the %s matrix is not MDS for k=%d, m=%d (use --matrix cauchy)",
		       rs_matrix_name(kind), k, m);
	else if (st != GK_OK)
		rs_err("cannot create the k=%d m=%d code: %s", k, m, gk_last_error());
	return st == GK_OK ? rs : NULL;
}

gk_context *rs_make_context(int threads)
{
	gk_context *ctx = NULL;
	gk_status st = gk_context_create(&ctx);
	if (st == GK_OK && threads > 0)
		st = gk_context_set_threads(ctx, threads);
	if (st != GK_OK) {
		rs_err("cannot create a context: %s", gk_last_error());
		gk_context_destroy(ctx);
		return NULL;
	}
	return ctx;
}

/* Seconds of the faster of two encodes of one stripe with ctx (-1: failed). */
static double time_stripe(const gk_context *ctx, const gk_rs *rs, int k, int64_t len,
                          uint8_t *const *bufs)
{
	double best = -1;
	for (int rep = 0; rep < 2; rep++) {
		const double t0 = cli_now();
		if (gk_rs_encode_ex(ctx, rs, len, (const uint8_t *const *)bufs, bufs + k) != GK_OK)
			return -1;
		const double t = cli_now() - t0;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

int rs_choose_backend(gk_context *ctx, const gk_rs *rs, int k, int m, int backend, int64_t len,
                      int quiet)
{
	if (backend == RS_BACKEND_CPU)
		return 0;
	if (backend == RS_BACKEND_CUDA) {
		/* One byte per shard: fails now, with the reason, when there is no GPU. */
		gk_status st = gk_context_set_backend(ctx, GK_BACKEND_CUDA);
		uint8_t in[256] = {0}, out[256];
		const uint8_t *dp[256];
		uint8_t *par[256];
		for (int i = 0; i < k; i++)
			dp[i] = in + i;
		for (int i = 0; i < m; i++)
			par[i] = out + i;
		if (st == GK_OK)
			st = gk_rs_encode_ex(ctx, rs, 1, dp, par);
		if (st != GK_OK) {
			rs_err("--backend cuda: %s", gk_last_error());
			return 1;
		}
		return 0;
	}
	/* auto: one trial stripe of the same length on each side, the faster wins. */
	if (len < 1)
		return 0;
	uint8_t *mem = malloc((size_t)(k + m) * (size_t)len);
	uint8_t *bufs[256];
	if (mem == NULL)
		return 0; /* no memory for the trial: stay on the CPU */
	for (int i = 0; i < k + m; i++)
		bufs[i] = mem + (size_t)i * (size_t)len;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < (size_t)k * (size_t)len; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		mem[i] = (uint8_t)x;
	}
	const double cpu = time_stripe(ctx, rs, k, len, bufs);
	double gpu = -1;
	if (gk_context_set_backend(ctx, GK_BACKEND_CUDA) == GK_OK)
		gpu = time_stripe(ctx, rs, k, len, bufs);
	free(mem);
	const int use_gpu = gpu > 0 && (cpu <= 0 || gpu < cpu);
	gk_context_set_backend(ctx, use_gpu ? GK_BACKEND_CUDA : GK_BACKEND_CPU);
	if (!quiet)
		fprintf(stderr, "gemmkit %s: --backend auto: %s (a %lld-byte stripe: cpu %.3g ms, "
		        "cuda %s%.3g ms)\n", cmd_name, use_gpu ? "cuda" : "cpu", (long long)len,
		        cpu * 1e3, gpu > 0 ? "" : "unavailable ", gpu > 0 ? gpu * 1e3 : 0.0);
	return 0;
}
