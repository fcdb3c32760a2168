/*
 * rs_encode.c - `gemmkit rs encode`: a file into k data and m parity shard
 * files (docs/RS_FORMAT.md), stripe by stripe, so that memory stays near
 * (k + m) x stripe whatever the file size.
 *
 * The shards are written under temporary names and renamed only when all
 * are complete (rs_outfiles.h): every failure after the first temporary
 * (out of memory, a full disk, an interrupt) goes through the one cleanup
 * at the end, and the directory is left as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli_util.h"
#include "rs/rs_cli.h"
#include "rs/rs_outfiles.h"
#include "rs/rs_posix.h"
#include "rs/rs_progress.h"
#include "rs/shard_io.h"
#include "rs/shard_set.h"

static const char encode_help[] =
"usage: gemmkit rs encode [options] -o DIR FILE\n"
"\n"
"Split FILE into k data and m parity shard files DIR/<name>.000.gkrs ...\n"
"DIR/<name>.<k+m-1>.gkrs; any k of them rebuild FILE (gemmkit rs decode).\n"
"DIR is created when missing. Each shard file is self-describing and\n"
"checksummed (docs/RS_FORMAT.md).\n"
"\n"
"  -k K              data shards, 1..255 (default 4)\n"
"  -m M              parity shards, 1..255, k + m <= 256 (default 2)\n"
"  -o DIR            where the shards go (required)\n"
"  --matrix KIND     cauchy (default; MDS for every k, m) or isal-vandermonde\n"
"                    (ISA-L's gf_gen_rs_matrix; refused where it is not MDS)\n"
"  --stripe BYTES    bytes of each shard per stripe (default 1M; 1..1G; k, M, G\n"
"                    suffixes); memory used is about (k + m) x BYTES\n"
"  --threads N       threads for the coding arithmetic (default 0: the\n"
"                    library default, GK_NUM_THREADS / OMP_NUM_THREADS / CPUs)\n"
RS_BACKEND_HELP
"  -f, --force       replace the shards already in DIR: every *.gkrs file there\n"
"                    is replaced or removed (without it, a DIR holding any\n"
"                    *.gkrs file is refused)\n"
"  -q, --quiet       no summary on stdout and no progress on stderr\n"
"  -h, --help        this text\n"
"\n"
"The shards are written under temporary names and renamed into place only\n"
"when all are complete; a failed or interrupted encode leaves DIR as it was.\n"
"Progress is shown on stderr about once a second when stderr is a terminal.\n"
"Exit status: 0 done, 1 failed (nothing in DIR changed), 2 bad command line.\n";

static void make_file_id(uint8_t id[SHARD_ID_SIZE], const struct stat *st)
{
	if (getrandom(id, SHARD_ID_SIZE, GRND_NONBLOCK) == SHARD_ID_SIZE)
		return;
	/* No entropy source: mix what makes this encode unique. */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t s = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
	             (uint64_t)getpid() << 32 ^ (uint64_t)st->st_ino ^ (uint64_t)st->st_size << 17;
	for (int i = 0; i < SHARD_ID_SIZE; i += 8) {
		uint64_t z = (s += 0x9E3779B97F4A7C15ull);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		z ^= z >> 31;
		memcpy(id + i, &z, 8);
	}
}

/* The original's base name for the header: control bytes replaced, cut at a
 * UTF-8 character boundary to fit the field. */
static void header_name(const char *base, char out[SHARD_NAME_SIZE + 1])
{
	size_t n = strlen(base);
	if (n > SHARD_NAME_SIZE) {
		n = SHARD_NAME_SIZE;
		while (n > 0 && ((uint8_t)base[n] & 0xC0) == 0x80)
			n--;
	}
	for (size_t i = 0; i < n; i++) {
		uint8_t c = (uint8_t)base[i];
		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[n] = '\0';
}

/* The header every shard shares (index 0), from the input and the options.
 * 0, or 1 (reported). */
static int make_header(shard_header *h, const rs_opts *o, const char *input,
                       const struct stat *st)
{
	memset(h, 0, sizeof *h);
	h->k = (uint16_t)o->k;
	h->m = (uint16_t)o->m;
	h->matrix = (uint8_t)o->matrix;
	h->stripe_size = o->stripe;
	h->file_size = (uint64_t)st->st_size;
	h->created = (uint64_t)time(NULL);
	header_name(rs_base_name(input), h->name);
	if (shard_geometry(o->k, o->stripe, h->file_size, &h->block_count, &h->last_block_size) != 0) {
		rs_err("%s: size %" PRIu64 " does not fit stripes of %u bytes", input, h->file_size,
		       o->stripe);
		return 1;
	}
	make_file_id(h->file_id, st);
	return 0;
}

/* The output directory: made when missing (and removed again on failure).
 * 0, or 1 (reported). */
static int prepare_dir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		rs_err("%s exists and is not a directory", dir);
		return 1;
	}
	if (errno != ENOENT || rs_out_mkdir(dir) != 0) {
		rs_err("cannot create %s: %s", dir, strerror(errno));
		return 1;
	}
	return 0;
}

/* Stream the input through the code into the n temporaries. 0, or 1 (reported). */
static int encode_stripes(int in, const char *input, shard_header *h, const gk_rs *rs,
                          const gk_context *ctx, rs_outfile *out, int quiet)
{
	const int k = h->k, m = h->m, n = k + m;
	const size_t blk = h->block_count ? shard_block_len(h, 0) : 0;
	/* One stripe in memory: k data blocks back to back, then m parity blocks. */
	uint8_t *buf = rs_alloc((size_t)n * blk);
	const uint8_t **dptr = malloc(sizeof *dptr * (size_t)k);
	uint8_t **pptr = malloc(sizeof *pptr * (size_t)m);
	int status = 1;
	if (buf == NULL || dptr == NULL || pptr == NULL) {
		rs_err("out of memory (%zu bytes for a stripe of %d x %zu)", (size_t)n * blk, n, blk);
		goto done;
	}
	rs_progress pg;
	rs_progress_start(&pg, "encode", h->file_size, quiet);
	uint64_t done = 0;
	for (uint64_t b = 0; b < h->block_count; b++) {
		const uint32_t len = shard_block_len(h, b);
		const uint64_t left = h->file_size - done;
		const size_t want = (size_t)((uint64_t)k * len < left ? (uint64_t)k * len : left);
		ssize_t got = rs_read_full(in, buf, want);
		if (got != (ssize_t)want) {
			if (got < 0)
				rs_err("cannot read %s: %s", input, strerror(errno));
			else
				rs_err("%s changed size while being read", input);
			goto progress_done;
		}
		memset(buf + want, 0, (size_t)k * len - want); /* zero padding of the last stripe */
		for (int i = 0; i < k; i++)
			dptr[i] = buf + (size_t)i * len;
		for (int i = 0; i < m; i++)
			pptr[i] = buf + (size_t)(k + i) * len;
		if (gk_rs_encode_ex(ctx, rs, len, dptr, pptr) != GK_OK) {
			rs_err("encoding failed: %s", gk_last_error());
			goto progress_done;
		}
		for (int i = 0; i < n; i++) {
			h->index = (uint16_t)i;
			if (shard_write_block(out[i].fd, h, b, buf + (size_t)i * len, len) != 0) {
				rs_err("cannot write %s: %s", out[i].tmp, strerror(errno));
				goto progress_done;
			}
		}
		done += want;
		rs_progress_update(&pg, done);
	}
	status = 0;
progress_done:
	rs_progress_end(&pg);
done:
	free(buf);
	free(dptr);
	free(pptr);
	return status;
}

/* --force: the shard files of the earlier encode that were not replaced go
 * too, or they would read as foreign shards next to the new ones. */
static void remove_leftovers(const char *dir, char **old, const rs_outfile *out, int n)
{
	for (char **p = old; *p != NULL; p++) {
		int ours = 0;
		for (int i = 0; i < n && !ours; i++)
			ours = strcmp(*p, rs_base_name(out[i].final)) == 0;
		char *full = ours ? NULL : rs_path_join(dir, *p);
		if (full != NULL && unlink(full) != 0)
			rs_err("warning: cannot remove the old shard %s: %s", full, strerror(errno));
		free(full);
	}
}

int rs_encode_main(int argc, char **argv)
{
	rs_opts o;
	int r = rs_parse_opts(argc, argv,
	                      OPT_KM | OPT_MATRIX | OPT_STRIPE | OPT_THREADS | OPT_FORCE | OPT_OUT |
	                          OPT_BACKEND, 1,
	                      encode_help, &o);
	if (r != 0)
		return r == 1 ? 0 : 2;
	if (o.npos != 1 || o.out == NULL) {
		rs_err("encode wants -o DIR and one FILE (see --help)");
		return 2;
	}
	if (o.k + o.m > SHARD_MAX_SHARDS) {
		rs_err("k + m = %d is more than %d", o.k + o.m, SHARD_MAX_SHARDS);
		return 2;
	}
	const char *input = o.pos[0], *dir = o.out;
	const int n = o.k + o.m;

	/* Everything below ends at `done`, which undoes what was begun. */
	int status = 1, opened = 0;
	gk_rs *rs = NULL;
	gk_context *ctx = NULL;
	char **old = NULL;
	rs_outfile *out = NULL;
	shard_header h;
	struct stat st;
	int in = open(input, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) != 0) {
		rs_err("cannot open %s: %s", input, strerror(errno));
		goto done;
	}
	if (!S_ISREG(st.st_mode)) {
		rs_err("%s is not a regular file", input);
		goto done;
	}
	if (make_header(&h, &o, input, &st) != 0 || (rs = rs_make_code(o.k, o.m, o.matrix)) == NULL ||
	    (ctx = rs_make_context(o.threads)) == NULL ||
	    rs_choose_backend(ctx, rs, o.k, o.m, o.backend, (int64_t)h.stripe_size, o.quiet) != 0)
		goto done;
	if (rs_out_init() != 0) {
		rs_err("cannot install the signal handlers: %s", strerror(errno));
		goto done;
	}
	if (prepare_dir(dir) != 0)
		goto done;
	int nold = 0;
	if ((old = rs_list_names(dir, SHARD_SUFFIX, &nold)) == NULL) {
		rs_err("cannot read %s: %s", dir, strerror(errno));
		goto done;
	}
	if (nold > 0 && !o.force) {
		rs_err("%s already holds %d shard file%s (%s%s); use --force to replace them", dir,
		       nold, nold == 1 ? "" : "s", old[0], nold > 1 ? ", ..." : "");
		goto done;
	}

	/* The temporaries, then the headers, then the stripes. */
	char stem[256];
	snprintf(stem, sizeof stem, "%.200s", rs_base_name(input));
	if ((out = calloc((size_t)n, sizeof *out)) == NULL) {
		rs_err("out of memory");
		goto done;
	}
	for (; opened < n; opened++) {
		char name[300], *final;
		snprintf(name, sizeof name, "%s.%03d" SHARD_SUFFIX, stem, opened);
		if ((final = rs_path_join(dir, name)) == NULL) {
			rs_err("out of memory");
			goto done;
		}
		snprintf(name, sizeof name, "%s.%03d", stem, opened);
		int rc = rs_out_open(&out[opened], dir, name, final);
		free(final);
		if (rc != 0) {
			rs_err("cannot create a file in %s: %s", dir, strerror(errno));
			opened++; /* its paths are freed by the abort */
			goto done;
		}
		h.index = (uint16_t)opened;
		if (shard_write_header(out[opened].fd, &h) != 0) {
			rs_err("cannot write %s: %s", out[opened].tmp, strerror(errno));
			opened++;
			goto done;
		}
	}
	const double t0 = cli_now();
	if (encode_stripes(in, input, &h, rs, ctx, out, o.quiet) != 0)
		goto done;

	const char *failed;
	rs_out_hold_signals();
	if (rs_out_commit(out, n, o.force, dir, &failed) != 0) {
		rs_err("cannot complete %s: %s", failed, strerror(errno));
		rs_out_release_signals();
		goto done;
	}
	remove_leftovers(dir, old, out, n);
	rs_fsync_dir(dir);
	rs_out_release_signals();
	status = 0;
	if (!o.quiet) {
		const double dt = cli_now() - t0;
		char id[2 * SHARD_ID_SIZE + 1];
		shard_id_hex(h.file_id, id);
		printf("encoded %s (%" PRIu64 " bytes) into %d shards in %s: k=%d m=%d %s, "
		       "%" PRIu64 " stripe%s of %u bytes per shard, id %s, %.2f s (%.0f MB/s)\n",
		       input, h.file_size, n, dir, o.k, o.m, rs_matrix_name(o.matrix), h.block_count,
		       h.block_count == 1 ? "" : "s", o.stripe, id, dt,
		       dt > 0 ? h.file_size / dt / 1e6 : 0.0);
	}
done:
	if (status != 0)
		rs_out_abort(out, opened); /* the temporaries, and DIR if this run made it */
	else
		rs_out_free(out, n);
	free(out);
	rs_free_names(old);
	gk_context_destroy(ctx);
	gk_rs_destroy(rs);
	if (in >= 0)
		close(in);
	return status;
}
