/*
 * rs_verify.c - `gemmkit rs verify`: every block of every shard file in a
 * directory checked (header, block CRCs, and the parity recomputed with
 * gk_rs_encode_ex for each stripe whose data blocks are intact), and a
 * report of what is good, missing, corrupt, duplicate or foreign.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "rs/rs_cli.h"
#include "rs/rs_posix.h"
#include "rs/rs_progress.h"
#include "rs/shard_io.h"
#include "rs/shard_set.h"

#define RS_SLOT_ALIGN 64

static const char verify_help[] =
"usage: gemmkit rs verify [options] DIR\n"
"\n"
"Check every shard file (*.gkrs) in DIR: its header, the CRC32C of every\n"
"block, and, for each stripe whose blocks are all intact, that the parity\n"
"matches the data. Prints one line per shard (good, missing, or corrupt and\n"
"why), one line per other file (bad header, foreign: from another encode,\n"
"duplicate), and whether the file can be decoded.\n"
"\n"
"  --threads N       threads for the parity check (default 0: the library default)\n"
"  -q, --quiet       print only the last line (the result)\n"
"  -h, --help        this text\n"
"\n"
"The last line is one of\n"
"  result: ok                       every shard is good\n"
"  result: damaged, decodable       something is wrong; decode still works\n"
"  result: NOT decodable            some stripe has fewer than k good blocks\n"
"Exit status: 0 when every shard is good and DIR holds no other shard file\n"
"(bad, foreign or duplicate), 1 otherwise, 2 bad command line.\n";

/* What the pass over the blocks found. */
typedef struct verify_scan {
	uint64_t *mismatch;  /* per index: stripes whose intact parity differs */
	int min_good;        /* fewest intact blocks in a stripe */
	uint64_t worst_block, undecodable;
} verify_scan;

/* Read every block of every candidate (counting in the files) and check the
 * parity where the data is intact. 0, or 1 (reported). */
static int scan(shard_set *s, const gk_rs *rs, const gk_context *ctx, int quiet, verify_scan *v)
{
	const shard_header *h = &s->h;
	const int k = h->k, m = h->m, n = k + m;
	/* Slots: n shard blocks, one scratch block for further copies of a shard
	 * that is intact already, and m blocks of recomputed parity. */
	const size_t blk = h->block_count ? shard_block_len(h, 0) : 0;
	const size_t slot = (blk + SHARD_CRC_SIZE + RS_SLOT_ALIGN - 1) / RS_SLOT_ALIGN * RS_SLOT_ALIGN;
	uint8_t *buf = rs_alloc((size_t)(n + 1 + m) * slot);
	const uint8_t **dptr = malloc(sizeof *dptr * (size_t)k);
	uint8_t **pptr = malloc(sizeof *pptr * (size_t)m);
	v->mismatch = calloc((size_t)n, sizeof *v->mismatch);
	if (buf == NULL || dptr == NULL || pptr == NULL || v->mismatch == NULL) {
		rs_err("out of memory (%zu bytes for a stripe of %d x %zu)", (size_t)(n + 1 + m) * slot,
		       n, blk);
		free(buf);
		free(dptr);
		free(pptr);
		return 1;
	}
	uint8_t *scratch = buf + (size_t)n * slot;
	for (int i = 0; i < k; i++)
		dptr[i] = buf + (size_t)i * slot;
	for (int j = 0; j < m; j++)
		pptr[j] = scratch + (size_t)(1 + j) * slot;
	v->min_good = h->block_count ? n : s->distinct;
	v->worst_block = v->undecodable = 0;
	rs_progress pg;
	rs_progress_start(&pg, "verify", h->file_size, quiet);
	uint64_t done = 0;
	int status = 0;
	for (uint64_t b = 0; b < h->block_count && status == 0; b++) {
		const uint32_t len = shard_block_len(h, b);
		uint8_t good[SHARD_MAX_SHARDS];
		int ngood = 0;
		for (int i = 0; i < n; i++) {
			good[i] = 0;
			/* Every candidate is read, to report on each file; the first
			 * intact copy is the one kept. */
			for (shard_file *f = s->cand[i]; f != NULL; f = f->next) {
				uint8_t *to = good[i] ? scratch : buf + (size_t)i * slot;
				int rb = shard_read_block(f->fd, f->size, &f->h, b, to, len);
				if (rb == 1) {
					f->good_blocks++;
					good[i] = 1;
				} else if (rb == 0) {
					if (f->bad_blocks++ == 0)
						f->first_bad = b;
				} else {
					f->absent_blocks++;
				}
			}
			ngood += good[i];
		}
		if (ngood < v->min_good) {
			v->min_good = ngood;
			v->worst_block = b;
		}
		if (ngood < k)
			v->undecodable++;
		/* With all data blocks intact, the intact parity blocks must be
		 * exactly what encoding the data gives. */
		int all_data = 1, any_parity = 0;
		for (int i = 0; i < k; i++)
			all_data &= good[i];
		for (int j = 0; j < m; j++)
			any_parity |= good[k + j];
		if (all_data && any_parity) {
			if (gk_rs_encode_ex(ctx, rs, len, dptr, pptr) != GK_OK) {
				rs_err("the parity check failed: %s", gk_last_error());
				status = 1;
			}
			for (int j = 0; j < m && status == 0; j++)
				if (good[k + j] && memcmp(pptr[j], buf + (size_t)(k + j) * slot, len) != 0)
					v->mismatch[k + j]++;
		}
		done += (uint64_t)k * len;
		rs_progress_update(&pg, done < h->file_size ? done : h->file_size);
	}
	rs_progress_end(&pg);
	free(buf);
	free(dptr);
	free(pptr);
	return status;
}

/* One line per shard index; 1 when all are good. */
static int report_shards(const shard_set *s, const verify_scan *v, int quiet)
{
	const shard_header *h = &s->h;
	const uint64_t full = shard_file_bytes(h);
	int all_good = 1;
	for (int i = 0; i < h->k + h->m; i++) {
		const shard_file *best = NULL;
		for (const shard_file *f = s->cand[i]; f != NULL && best == NULL; f = f->next)
			if (f->bad_blocks == 0 && f->absent_blocks == 0 && f->size == full)
				best = f;
		if (best != NULL && v->mismatch[i] == 0) {
			if (!quiet)
				printf("shard %3d: good     %s\n", i, best->name);
			continue;
		}
		all_good = 0;
		if (quiet)
			continue;
		if (s->cand[i] == NULL) {
			printf("shard %3d: missing\n", i);
			continue;
		}
		if (best != NULL) {
			printf("shard %3d: corrupt  %s: parity does not match the data in %" PRIu64
			       " stripe%s (all CRCs intact)\n", i, best->name, v->mismatch[i],
			       v->mismatch[i] == 1 ? "" : "s");
			continue;
		}
		const shard_file *f = s->cand[i];
		printf("shard %3d: corrupt  %s:", i, f->name);
		if (f->bad_blocks > 0)
			printf(" %" PRIu64 " of %" PRIu64 " blocks fail their CRC (first: #%" PRIu64 ")%s",
			       f->bad_blocks, h->block_count, f->first_bad, f->absent_blocks ? ";" : "");
		if (f->absent_blocks > 0 || f->size < full)
			printf(" truncated: %" PRIu64 " of %" PRIu64 " bytes, %" PRIu64 " block%s missing",
			       f->size, full, f->absent_blocks, f->absent_blocks == 1 ? "" : "s");
		else if (f->size > full)
			printf("%s %" PRIu64 " bytes past the end", f->bad_blocks ? ";" : "", f->size - full);
		printf("\n");
	}
	return all_good;
}

/* One line per file that is not the shard it should be; 1 when there is none. */
static int report_files(const shard_set *s, int quiet)
{
	int clean = 1;
	for (int i = 0; i < s->nfiles; i++) {
		const shard_file *f = &s->files[i];
		const int claimed = shard_name_index(f->name);
		if (f->role == SHARD_BAD_HEADER || f->role == SHARD_UNREADABLE) {
			clean = 0;
			if (!quiet)
				printf("file %s: unusable: %s\n", f->name, f->why);
		} else if (f->role == SHARD_FOREIGN) {
			clean = 0;
			if (!quiet) {
				char fid[2 * SHARD_ID_SIZE + 1];
				shard_id_hex(f->h.file_id, fid);
				printf("file %s: foreign: shard %d of another encode (\"%s\", k=%d m=%d, id %s)\n",
				       f->name, f->h.index, f->h.name, f->h.k, f->h.m, fid);
			}
		} else if (s->cand[f->h.index] != f) {
			clean = 0;
			if (!quiet)
				printf("file %s: duplicate: holds shard %d, as %s does\n", f->name, f->h.index,
				       s->cand[f->h.index]->name);
		} else if (claimed >= 0 && claimed != f->h.index) {
			clean = 0;
			if (!quiet)
				printf("file %s: misnamed: holds shard %d\n", f->name, f->h.index);
		}
	}
	return clean;
}

int rs_verify_main(int argc, char **argv)
{
	rs_opts o;
	int r = rs_parse_opts(argc, argv, OPT_THREADS, 1, verify_help, &o);
	if (r != 0)
		return r == 1 ? 0 : 2;
	if (o.npos != 1) {
		rs_err("verify wants one DIR (see --help)");
		return 2;
	}
	shard_set s;
	if (shard_set_open(&s, o.pos[0]) != 0) {
		rs_err("cannot read the directory %s: %s", o.pos[0], strerror(errno));
		return 1;
	}
	if (s.chosen < 0) {
		if (!o.quiet)
			for (int i = 0; i < s.nfiles; i++)
				printf("file %s: unusable: %s\n", s.files[i].name, s.files[i].why);
		printf("result: NOT decodable (%s)\n", s.nfiles ? "no readable shard" : "no shard files");
		shard_set_close(&s);
		return 1;
	}
	const shard_header *h = &s.h;
	const int k = h->k, m = h->m, n = k + m;
	gk_rs *rs = rs_make_code(k, m, h->matrix);
	gk_context *ctx = rs != NULL ? rs_make_context(o.threads) : NULL;
	verify_scan v = {0};
	if (ctx == NULL || scan(&s, rs, ctx, o.quiet, &v) != 0) {
		free(v.mismatch);
		gk_context_destroy(ctx);
		gk_rs_destroy(rs);
		shard_set_close(&s);
		return 1;
	}
	char id[2 * SHARD_ID_SIZE + 1];
	shard_id_hex(h->file_id, id);
	if (!o.quiet)
		printf("set: \"%s\", %" PRIu64 " bytes, k=%d m=%d %s, stripe %u bytes, %" PRIu64
		       " block%s per shard, id %s\n", h->name, h->file_size, k, m, rs_matrix_name(h->matrix),
		       h->stripe_size, h->block_count, h->block_count == 1 ? "" : "s", id);
	int all_good = report_shards(&s, &v, o.quiet);
	all_good &= report_files(&s, o.quiet);
	const int decodable = h->block_count ? v.undecodable == 0 : s.distinct >= k;
	if (!o.quiet) {
		if (h->block_count)
			printf("decodable: %s (fewest intact blocks in a stripe: %d, in stripe #%" PRIu64
			       "; k = %d)\n", decodable ? "yes" : "no", v.min_good, v.worst_block, k);
		else
			printf("decodable: %s (%d of %d shards readable; k = %d)\n", decodable ? "yes" : "no",
			       s.distinct, n, k);
		if (s.tie)
			printf("warning: another encode has as many shards in %s as this one\n", s.dir);
	}
	if (s.tie)
		all_good = 0;
	printf("result: %s\n", all_good ? "ok" : decodable ? "damaged, decodable" : "NOT decodable");
	free(v.mismatch);
	gk_context_destroy(ctx);
	gk_rs_destroy(rs);
	shard_set_close(&s);
	return all_good ? 0 : 1;
}
