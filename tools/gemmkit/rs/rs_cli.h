/*
 * rs_cli.h - what the `gemmkit rs` subcommands share: their options, error
 * messages, and the code and context they compute with (the library's
 * Reed-Solomon API, nothing below it).
 */
#ifndef GK_RS_CLI_H
#define GK_RS_CLI_H

#include <stdint.h>
#include "gemmkit.h"

#define RS_DEFAULT_K 4
#define RS_DEFAULT_M 2
#define RS_DEFAULT_STRIPE (1u << 20)

typedef struct rs_opts {
	int k, m, matrix, threads, force, quiet;
	int backend; /* RS_BACKEND_* (--backend) */
	uint32_t stripe;
	const char *out;
	const char *pos[2];
	int npos;
} rs_opts;

/* The options a subcommand takes, as bits; -q and -h are always taken. */
enum { OPT_KM = 1, OPT_MATRIX = 2, OPT_STRIPE = 4, OPT_THREADS = 8, OPT_FORCE = 16, OPT_OUT = 32,
       OPT_BACKEND = 64 };

/* Where the coding arithmetic runs (--backend cpu|cuda|auto). */
enum { RS_BACKEND_CPU = 0, RS_BACKEND_CUDA, RS_BACKEND_AUTO };

/* The help text of --backend. */
#define RS_BACKEND_HELP                                                                  \
	"  --backend B       where the arithmetic runs: cpu (default), cuda (the GPU;\n"     \
	"                    the same shard bytes), or auto (the GPU when one is present\n" \
	"                    and a trial stripe runs faster there than on the CPU)\n"

/*
 * Parse argv[1..argc) into o (defaults first), taking the options in
 * allowed and up to max_pos positional arguments.
 * @return 0 parsed; 1 --help was printed (help); 2 a bad command line
 *         (reported).
 */
int rs_parse_opts(int argc, char **argv, unsigned allowed, int max_pos, const char *help,
                  rs_opts *o);

/* The subcommand's name in messages ("rs encode"). */
void rs_set_cmd(const char *name);
/* Print "gemmkit <subcommand>: <message>" on stderr. */
void rs_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "cauchy" or "isal-vandermonde" for a SHARD_MATRIX_* value. */
const char *rs_matrix_name(int kind);
/* The code of a header or of the options; NULL when refused (reported). */
gk_rs *rs_make_code(int k, int m, int kind);
/* A context with the thread count (0: the default); NULL on failure (reported). */
gk_context *rs_make_context(int threads);
/* Set ctx's backend for --backend: cuda as asked (GK_ERR_NO_GPU reported
 * when there is none), auto by timing one stripe of `len` bytes per shard
 * of rs on each side. @return 0, or 1 (reported). */
int rs_choose_backend(gk_context *ctx, const gk_rs *rs, int k, int m, int backend, int64_t len,
                      int quiet);

int rs_encode_main(int argc, char **argv);
int rs_decode_main(int argc, char **argv);
int rs_verify_main(int argc, char **argv);

#endif
