/*
 * rs_decode.c - `gemmkit rs decode`: the original file from any k good
 * shards, stripe by stripe and block by block (docs/RS_FORMAT.md, "How
 * decode uses damaged shards"): a stripe is rebuilt from whichever k shards
 * have an intact block for it (shard_set_read_stripe), by
 * gk_rs_reconstruct_ex.
 *
 * The output is written to a temporary file beside it and renamed into place
 * when complete (rs_outfiles.h); every failure goes through the one cleanup
 * at the end, so a failed decode never leaves an output file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli_util.h"
#include "rs/rs_cli.h"
#include "rs/rs_outfiles.h"
#include "rs/rs_posix.h"
#include "rs/rs_progress.h"
#include "rs/shard_set.h"

#define RS_SLOT_ALIGN 64

static const char decode_help[] =
"usage: gemmkit rs decode [options] -o FILE DIR\n"
"\n"
"Rebuild the original file from the shard files (*.gkrs) in DIR. Each stripe\n"
"is rebuilt from any k shards whose block for it is intact (CRC32C), so\n"
"missing, truncated, corrupted, duplicated and foreign shards are tolerated\n"
"as long as every stripe keeps k good blocks. Otherwise decode fails and\n"
"writes nothing.\n"
"\n"
"  -o FILE           the file to write (required); it is written to a\n"
"                    temporary file beside it, synced, and renamed into place\n"
"                    only when complete\n"
"  --threads N       threads for the coding arithmetic (default 0: the\n"
"                    library default)\n"
RS_BACKEND_HELP
"  -f, --force       replace FILE if it exists (without it, decode refuses)\n"
"  -q, --quiet       no summary on stdout and no progress on stderr\n"
"  -h, --help        this text\n"
"\n"
"Progress is shown on stderr about once a second when stderr is a terminal.\n"
"Exit status: 0 done, 1 failed (FILE not written), 2 bad command line.\n";

/* Say why the set in s cannot be decoded; 0 when it can. */
static int check_set(const shard_set *s)
{
	const shard_header *h = &s->h;
	switch (shard_set_status(s)) {
	case SHARD_SET_OK:
		return 0;
	case SHARD_SET_NO_FILES:
		rs_err("no shard files (*" SHARD_SUFFIX ") in %s", s->dir);
		break;
	case SHARD_SET_NO_VALID:
		rs_err("no readable shard in %s (%d *" SHARD_SUFFIX " file%s, all with a bad header)",
		       s->dir, s->nfiles, s->nfiles == 1 ? "" : "s");
		break;
	case SHARD_SET_TIE:
		rs_err("%s holds shards of several encodes with equally many shards each; "
		       "move the foreign ones away (gemmkit rs verify lists them)", s->dir);
		break;
	default:
		rs_err("only %d of the %d shards of %s are readable in %s; %d are needed", s->distinct,
		       h->k + h->m, h->name[0] ? h->name : "the file", s->dir, h->k);
		break;
	}
	return 1;
}

typedef struct decode_stats {
	uint64_t rebuilt_blocks;
} decode_stats;

/* Rebuild every stripe into fd. 0, or 1 (reported). */
static int decode_stripes(const shard_set *s, const gk_rs *rs, const gk_context *ctx, int fd,
                          const char *tmp, const char *out, int quiet, decode_stats *stats)
{
	const shard_header *h = &s->h;
	const int k = h->k, n = h->k + h->m;
	const size_t blk = h->block_count ? shard_block_len(h, 0) : 0;
	const size_t slot = (blk + SHARD_CRC_SIZE + RS_SLOT_ALIGN - 1) / RS_SLOT_ALIGN * RS_SLOT_ALIGN;
	uint8_t *buf = rs_alloc((size_t)n * slot);
	uint8_t **ptr = malloc(sizeof *ptr * (size_t)n);
	uint8_t present[SHARD_MAX_SHARDS];
	int status = 1;
	if (buf == NULL || ptr == NULL) {
		rs_err("out of memory (%zu bytes for a stripe of %d x %zu)", (size_t)n * slot, n, blk);
		goto done;
	}
	for (int i = 0; i < n; i++)
		ptr[i] = buf + (size_t)i * slot;
	rs_progress pg;
	rs_progress_start(&pg, "decode", h->file_size, quiet);
	uint64_t done = 0;
	for (uint64_t b = 0; b < h->block_count; b++) {
		const uint32_t len = shard_block_len(h, b);
		const int good = shard_set_read_stripe(s, b, buf, slot, present);
		if (good < k) {
			rs_err("stripe #%" PRIu64 " (of %" PRIu64 ") has only %d intact blocks; %d are "
			       "needed: cannot rebuild %s", b, h->block_count, good, k, out);
			goto progress_done;
		}
		int missing = 0;
		for (int i = 0; i < k; i++)
			missing += !present[i];
		if (missing > 0) {
			if (gk_rs_reconstruct_ex(ctx, rs, len, ptr, present, 1) != GK_OK) {
				rs_err("stripe #%" PRIu64 ": %s", b, gk_last_error());
				goto progress_done;
			}
			stats->rebuilt_blocks += (uint64_t)missing;
		}
		for (int i = 0; i < k && done < h->file_size; i++) {
			const uint64_t left = h->file_size - done;
			const size_t w = left < len ? (size_t)left : len;
			if (rs_write_full(fd, ptr[i], w) != 0) {
				rs_err("cannot write %s: %s", tmp, strerror(errno));
				goto progress_done;
			}
			done += w;
		}
		rs_progress_update(&pg, done);
	}
	status = 0;
progress_done:
	rs_progress_end(&pg);
done:
	free(buf);
	free(ptr);
	return status;
}

int rs_decode_main(int argc, char **argv)
{
	rs_opts o;
	int r = rs_parse_opts(argc, argv, OPT_THREADS | OPT_FORCE | OPT_OUT | OPT_BACKEND, 1,
	                      decode_help, &o);
	if (r != 0)
		return r == 1 ? 0 : 2;
	if (o.npos != 1 || o.out == NULL) {
		rs_err("decode wants -o FILE and one DIR (see --help)");
		return 2;
	}
	const char *out = o.out;
	struct stat ost;
	if (stat(out, &ost) == 0) {
		if (S_ISDIR(ost.st_mode)) {
			rs_err("%s is a directory", out);
			return 1;
		}
		if (!o.force) {
			rs_err("%s exists; use --force to replace it", out);
			return 1;
		}
	}

	/* Everything below ends at `done`, which undoes what was begun. */
	int status = 1, opened = 0;
	gk_rs *rs = NULL;
	gk_context *ctx = NULL;
	char *odir = NULL;
	rs_outfile of;
	shard_set s;
	if (shard_set_open(&s, o.pos[0]) != 0) {
		rs_err("cannot read the directory %s: %s", o.pos[0], strerror(errno));
		return 1;
	}
	const shard_header *h = &s.h;
	if (check_set(&s) != 0 || (rs = rs_make_code(h->k, h->m, h->matrix)) == NULL ||
	    (ctx = rs_make_context(o.threads)) == NULL ||
	    rs_choose_backend(ctx, rs, h->k, h->m, o.backend, (int64_t)h->stripe_size, o.quiet) != 0)
		goto done;
	if (rs_out_init() != 0) {
		rs_err("cannot install the signal handlers: %s", strerror(errno));
		goto done;
	}
	if ((odir = rs_dir_name(out)) == NULL) {
		rs_err("out of memory");
		goto done;
	}
	opened = 1;
	if (rs_out_open(&of, odir, rs_base_name(out), out) != 0) {
		rs_err("cannot create a file in %s: %s", odir, strerror(errno));
		goto done;
	}
	const double t0 = cli_now();
	decode_stats stats = {0};
	if (decode_stripes(&s, rs, ctx, of.fd, of.tmp, out, o.quiet, &stats) != 0)
		goto done;
	const char *failed;
	if (rs_out_commit(&of, 1, o.force, odir, &failed) != 0) {
		if (errno == EEXIST && !o.force)
			rs_err("%s appeared while decoding; use --force to replace it", out);
		else
			rs_err("cannot complete %s: %s", failed, strerror(errno));
		goto done;
	}
	status = 0;
	if (!o.quiet) {
		const double dt = cli_now() - t0;
		printf("decoded %s (%" PRIu64 " bytes) from %s: %d of %d shards readable, %" PRIu64
		       " block%s rebuilt, %.2f s (%.0f MB/s)\n", out, h->file_size, s.dir, s.distinct,
		       h->k + h->m, stats.rebuilt_blocks, stats.rebuilt_blocks == 1 ? "" : "s", dt,
		       dt > 0 ? h->file_size / dt / 1e6 : 0.0);
	}
done:
	if (opened) {
		if (status != 0)
			rs_out_abort(&of, 1); /* no output file, no temporary */
		else
			rs_out_free(&of, 1);
	}
	free(odir);
	gk_context_destroy(ctx);
	gk_rs_destroy(rs);
	shard_set_close(&s);
	return status;
}
