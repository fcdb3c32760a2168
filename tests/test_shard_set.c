/*
 * test_shard_set.c - which shard files of a directory `gemmkit rs` takes as
 * the set, and which blocks it rebuilds a stripe from
 * (tools/gemmkit/rs/shard_set.c, docs/RS_FORMAT.md "What a reader accepts"):
 *
 *  - a complete set: every index named, no tie, and a stripe read from the
 *    k data blocks only (more than k good shards: parity is not read);
 *  - a lost data shard: the stripe takes a parity block instead, and the
 *    library rebuilds the data from exactly those blocks;
 *  - fewer than k shards, an empty directory, only unusable files;
 *  - mixed file ids: the larger group is the set, the other foreign; two
 *    groups of equal size are a tie;
 *  - duplicate indices: never counted twice, the file named for its index
 *    tried first, another copy used where the first has a bad block;
 *  - truncated files (in the header: unusable; in a block: that block
 *    absent, the stripe rebuilt from parity), foreign bytes (bad magic),
 *    files of other names and directories named *.gkrs ignored;
 *  - the index a name claims.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gemmkit.h"
#include "rs/rs_posix.h"
#include "rs/shard_io.h"
#include "rs/shard_set.h"
#include "test_util.h"

#define K 3
#define M 2
#define N (K + M)
#define STRIPE 100
#define FILE_SIZE 650 /* 3 stripes, the last 17 bytes per shard */

static char root[256];
static tu_rng rng;

/* One encode: its header and the bytes of every block of every shard. */
typedef struct encode {
	shard_header h;
	uint8_t blocks[N][3][STRIPE];
} encode;

static void make_encode(encode *e)
{
	memset(e, 0, sizeof *e);
	e->h.k = K;
	e->h.m = M;
	e->h.stripe_size = STRIPE;
	e->h.file_size = FILE_SIZE;
	e->h.created = 1700000000;
	strcpy(e->h.name, "in");
	TU_CHECK(shard_geometry(K, STRIPE, FILE_SIZE, &e->h.block_count, &e->h.last_block_size) == 0 &&
	         e->h.block_count == 3 && e->h.last_block_size == 17, "geometry");
	for (int i = 0; i < SHARD_ID_SIZE; i++)
		e->h.file_id[i] = (uint8_t)tu_next(&rng);
	gk_rs *rs = NULL;
	TU_CHECK(gk_rs_create(&rs, K, M, GK_RS_CAUCHY) == GK_OK, "create");
	for (uint64_t b = 0; b < e->h.block_count; b++) {
		const uint32_t len = shard_block_len(&e->h, b);
		const uint8_t *data[K];
		uint8_t *par[M];
		for (int i = 0; i < K; i++) {
			for (uint32_t j = 0; j < len; j++)
				e->blocks[i][b][j] = (uint8_t)tu_next(&rng);
			data[i] = e->blocks[i][b];
		}
		for (int j = 0; j < M; j++)
			par[j] = e->blocks[K + j][b];
		TU_CHECK(gk_rs_encode(rs, len, data, par) == GK_OK, "encode");
	}
	gk_rs_destroy(rs);
}

static char *path(const char *dir, const char *name)
{
	static char buf[600];
	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	return buf;
}

/* Write shard `index` of e as dir/name. */
static void write_shard(const char *dir, const char *name, const encode *e, int index)
{
	int fd = open(path(dir, name), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	shard_header h = e->h;
	h.index = (uint16_t)index;
	int ok = fd >= 0 && shard_write_header(fd, &h) == 0;
	for (uint64_t b = 0; ok && b < h.block_count; b++)
		ok = shard_write_block(fd, &h, b, e->blocks[index][b], shard_block_len(&h, b)) == 0;
	TU_CHECK(ok, "write %s/%s", dir, name);
	if (fd >= 0)
		close(fd);
}

static void write_all(const char *dir, const encode *e, const char *stem)
{
	char name[64];
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "%s.%03d.gkrs", stem, i);
		write_shard(dir, name, e, i);
	}
}

/* A fresh empty directory under root. */
static const char *fresh_dir(const char *tag)
{
	static char buf[400];
	snprintf(buf, sizeof buf, "%s/%s", root, tag);
	TU_CHECK(mkdir(buf, 0755) == 0, "mkdir %s: %s", buf, strerror(errno));
	return buf;
}

static const shard_file *find(const shard_set *s, const char *name)
{
	for (int i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i].name, name) == 0)
			return &s->files[i];
	return NULL;
}

static int open_set(shard_set *s, const char *dir)
{
	int rc = shard_set_open(s, dir);
	TU_CHECK(rc == 0, "shard_set_open %s: %s", dir, strerror(errno));
	return rc == 0;
}

/* Read every stripe; the data blocks read or rebuilt must be e's. */
static void check_stripes(const shard_set *s, const encode *e, const uint8_t *want_present,
                          const char *what)
{
	gk_rs *rs = NULL;
	TU_CHECK(gk_rs_create(&rs, K, M, GK_RS_CAUCHY) == GK_OK, "create");
	const size_t slot = STRIPE + SHARD_CRC_SIZE;
	uint8_t buf[N * (STRIPE + SHARD_CRC_SIZE)];
	uint8_t present[SHARD_MAX_SHARDS];
	for (uint64_t b = 0; b < s->h.block_count; b++) {
		memset(buf, 0xEE, sizeof buf);
		const int good = shard_set_read_stripe(s, b, buf, slot, present);
		TU_CHECK(good == K, "%s: stripe %d: %d blocks read", what, (int)b, good);
		if (want_present != NULL)
			TU_CHECK(memcmp(present, want_present, N) == 0,
			         "%s: stripe %d: present %d%d%d%d%d", what, (int)b, present[0], present[1],
			         present[2], present[3], present[4]);
		uint8_t *ptr[N];
		for (int i = 0; i < N; i++)
			ptr[i] = buf + (size_t)i * slot;
		const uint32_t len = shard_block_len(&s->h, b);
		TU_CHECK(gk_rs_reconstruct(rs, len, ptr, present, 1) == GK_OK, "%s: reconstruct", what);
		int same = 1;
		for (int i = 0; i < K; i++)
			same &= memcmp(ptr[i], e->blocks[i][b], len) == 0;
		TU_CHECK(same, "%s: stripe %d: data differs", what, (int)b);
	}
	gk_rs_destroy(rs);
}

static void test_complete(const encode *e)
{
	const char *dir = fresh_dir("complete");
	write_all(dir, e, "in");
	shard_set s;
	if (!open_set(&s, dir))
		return;
	TU_CHECK(s.nfiles == N && s.ngroups == 1 && s.chosen == 0 && !s.tie && s.distinct == N,
	         "complete: %d files, %d groups, distinct %d", s.nfiles, s.ngroups, s.distinct);
	TU_CHECK(shard_set_status(&s) == SHARD_SET_OK, "complete: status");
	TU_CHECK(s.h.index == 0 && s.h.k == K && s.h.m == M && s.h.file_size == FILE_SIZE,
	         "complete: the set's header");
	for (int i = 0; i < N; i++) {
		char name[32];
		snprintf(name, sizeof name, "in.%03d.gkrs", i);
		TU_CHECK(s.cand[i] != NULL && strcmp(s.cand[i]->name, name) == 0 &&
		         s.cand[i]->next == NULL && s.cand[i]->role == SHARD_MEMBER,
		         "complete: candidate of %d", i);
	}
	/* More than k good shards: only the k data blocks are read. */
	const uint8_t want[N] = {1, 1, 1, 0, 0};
	check_stripes(&s, e, want, "complete");
	shard_set_close(&s);
}

static void test_lost_and_too_few(const encode *e)
{
	const char *dir = fresh_dir("lost");
	write_all(dir, e, "in");
	unlink(path(dir, "in.001.gkrs"));
	shard_set s;
	if (open_set(&s, dir)) {
		TU_CHECK(shard_set_status(&s) == SHARD_SET_OK && s.distinct == N - 1 && s.cand[1] == NULL,
		         "lost 1: status %d, distinct %d", shard_set_status(&s), s.distinct);
		const uint8_t want[N] = {1, 0, 1, 1, 0};
		check_stripes(&s, e, want, "lost 1");
		shard_set_close(&s);
	}
	unlink(path(dir, "in.003.gkrs"));
	unlink(path(dir, "in.004.gkrs"));
	if (open_set(&s, dir)) {
		TU_CHECK(shard_set_status(&s) == SHARD_SET_TOO_FEW && s.distinct == 2,
		         "fewer than k: status %d, distinct %d", shard_set_status(&s), s.distinct);
		uint8_t buf[N * (STRIPE + SHARD_CRC_SIZE)], present[SHARD_MAX_SHARDS];
		TU_CHECK(shard_set_read_stripe(&s, 0, buf, STRIPE + SHARD_CRC_SIZE, present) == 2,
		         "fewer than k: 2 blocks in a stripe");
		shard_set_close(&s);
	}
}

static void test_empty_and_unusable(void)
{
	const char *dir = fresh_dir("empty");
	shard_set s;
	if (open_set(&s, dir)) {
		TU_CHECK(shard_set_status(&s) == SHARD_SET_NO_FILES && s.nfiles == 0 && s.chosen < 0,
		         "empty directory");
		shard_set_close(&s);
	}
	FILE *f = fopen(path(dir, "junk.gkrs"), "wb");
	for (int i = 0; f != NULL && i < 300; i++)
		fputc((int)(tu_next(&rng) & 0xff), f);
	if (f != NULL)
		fclose(f);
	f = fopen(path(dir, "notes.txt"), "wb");
	if (f != NULL)
		fclose(f);
	mkdir(path(dir, "sub.gkrs"), 0755);
	if (open_set(&s, dir)) {
		const shard_file *j = find(&s, "junk.gkrs");
		TU_CHECK(shard_set_status(&s) == SHARD_SET_NO_VALID && s.nfiles == 1 && j != NULL &&
		         j->role == SHARD_BAD_HEADER && strstr(j->why, "magic") != NULL,
		         "only foreign bytes: status %d, %d files", shard_set_status(&s), s.nfiles);
		shard_set_close(&s);
	}
	errno = 0;
	TU_CHECK(shard_set_open(&s, path(root, "no such dir")) == -1 && errno == ENOENT,
	         "a missing directory");
}

static void test_mixed_ids(const encode *e)
{
	encode *other = malloc(sizeof *other);
	make_encode(other);
	const char *dir = fresh_dir("mixed");
	/* 4 shards of e, 2 of the other (named as if they were e's shards 3, 4). */
	write_shard(dir, "in.000.gkrs", e, 0);
	write_shard(dir, "in.001.gkrs", e, 1);
	write_shard(dir, "in.002.gkrs", e, 2);
	write_shard(dir, "in.003.gkrs", other, 3);
	write_shard(dir, "in.004.gkrs", other, 4);
	write_shard(dir, "x.004.gkrs", e, 4);
	shard_set s;
	if (open_set(&s, dir)) {
		TU_CHECK(s.ngroups == 2 && !s.tie && s.distinct == 4 && shard_set_status(&s) == SHARD_SET_OK,
		         "mixed ids: %d groups, distinct %d, tie %d", s.ngroups, s.distinct, s.tie);
		TU_CHECK(memcmp(s.h.file_id, e->h.file_id, SHARD_ID_SIZE) == 0, "mixed ids: e is the set");
		TU_CHECK(find(&s, "in.003.gkrs")->role == SHARD_FOREIGN &&
		         find(&s, "in.004.gkrs")->role == SHARD_FOREIGN &&
		         find(&s, "x.004.gkrs")->role == SHARD_MEMBER, "mixed ids: roles");
		TU_CHECK(s.cand[3] == NULL && s.cand[4] == find(&s, "x.004.gkrs"),
		         "mixed ids: foreign files are no candidates");
		const uint8_t want[N] = {1, 1, 1, 0, 0};
		check_stripes(&s, e, want, "mixed ids");
		shard_set_close(&s);
	}
	/* Two shards each: a tie, whatever the names. */
	unlink(path(dir, "in.002.gkrs"));
	unlink(path(dir, "x.004.gkrs"));
	if (open_set(&s, dir)) {
		TU_CHECK(s.tie && shard_set_status(&s) == SHARD_SET_TIE, "tie: status %d",
		         shard_set_status(&s));
		shard_set_close(&s);
	}
	/* A third shard of the other: it becomes the set. */
	write_shard(dir, "in.000.other.gkrs", other, 0);
	if (open_set(&s, dir)) {
		TU_CHECK(!s.tie && s.distinct == 3 &&
		         memcmp(s.h.file_id, other->h.file_id, SHARD_ID_SIZE) == 0 &&
		         find(&s, "in.000.gkrs")->role == SHARD_FOREIGN, "mixed ids: the larger group wins");
		check_stripes(&s, other, NULL, "the other set");
		shard_set_close(&s);
	}
	free(other);
}

static void test_duplicates(const encode *e)
{
	const char *dir = fresh_dir("dup");
	write_all(dir, e, "in");
	/* Shard 1 copied over shard 2's name, and to a name that sorts first. */
	write_shard(dir, "in.002.gkrs", e, 1);
	write_shard(dir, "a.gkrs", e, 1);
	shard_set s;
	if (open_set(&s, dir)) {
		TU_CHECK(s.distinct == N - 1 && s.cand[2] == NULL && shard_set_status(&s) == SHARD_SET_OK,
		         "duplicates: distinct %d", s.distinct);
		const shard_file *c = s.cand[1];
		TU_CHECK(c != NULL && strcmp(c->name, "in.001.gkrs") == 0 && c->next != NULL &&
		         strcmp(c->next->name, "a.gkrs") == 0 && c->next->next != NULL &&
		         strcmp(c->next->next->name, "in.002.gkrs") == 0 && c->next->next->next == NULL,
		         "duplicates: the named file first, then the others in name order");
		const uint8_t want[N] = {1, 1, 0, 1, 0};
		check_stripes(&s, e, want, "duplicates");
		shard_set_close(&s);
	}
	/* Four copies of one index are still one shard toward k. */
	unlink(path(dir, "in.000.gkrs"));
	unlink(path(dir, "in.003.gkrs"));
	write_shard(dir, "b.gkrs", e, 1);
	if (open_set(&s, dir)) {
		TU_CHECK(s.distinct == 2 && shard_set_status(&s) == SHARD_SET_TOO_FEW,
		         "a duplicate does not count twice: distinct %d", s.distinct);
		shard_set_close(&s);
	}
}

static void flip(const char *file, long off)
{
	int fd = open(file, O_RDWR);
	uint8_t c = 0;
	TU_CHECK(fd >= 0 && pread(fd, &c, 1, off) == 1, "read %s", file);
	c ^= 0x5a;
	TU_CHECK(fd >= 0 && pwrite(fd, &c, 1, off) == 1, "write %s", file);
	if (fd >= 0)
		close(fd);
}

static void test_damage(const encode *e)
{
	const char *dir = fresh_dir("damage");
	write_all(dir, e, "in");
	const long blk = STRIPE + SHARD_CRC_SIZE;
	/* Shard 0: cut inside block 2. Shard 4: cut inside its header. */
	TU_CHECK(truncate(path(dir, "in.000.gkrs"), SHARD_HEADER_SIZE + 2 * blk + 5) == 0, "truncate");
	TU_CHECK(truncate(path(dir, "in.004.gkrs"), 50) == 0, "truncate");
	/* Shard 1: block 0 damaged, but an intact copy of shard 1 exists. */
	write_shard(dir, "copy.gkrs", e, 1);
	flip(path(dir, "in.001.gkrs"), SHARD_HEADER_SIZE + 7);
	shard_set s;
	if (!open_set(&s, dir))
		return;
	const shard_file *t = find(&s, "in.004.gkrs"), *c0 = find(&s, "in.000.gkrs");
	TU_CHECK(t != NULL && t->role == SHARD_BAD_HEADER && strstr(t->why, "shorter") != NULL,
	         "a header cut short is unusable");
	TU_CHECK(c0 != NULL && c0->role == SHARD_MEMBER && s.distinct == 4, "a block cut short: member");
	uint8_t buf[STRIPE + SHARD_CRC_SIZE];
	TU_CHECK(shard_read_block(c0->fd, c0->size, &c0->h, 1, buf, STRIPE) == 1 &&
	         shard_read_block(c0->fd, c0->size, &c0->h, 2, buf, 17) == -1,
	         "a block cut short is absent, the one before it intact");
	const shard_file *c1 = find(&s, "in.001.gkrs");
	TU_CHECK(shard_read_block(c1->fd, c1->size, &c1->h, 0, buf, STRIPE) == 0 &&
	         shard_read_block(c1->fd, c1->size, &c1->h, 1, buf, STRIPE) == 1,
	         "a damaged block fails its CRC, the next one does not");
	/* Stripe 0: shard 1 from the copy. Stripe 2: shard 0 absent, parity 3 used. */
	gk_rs *rs = NULL;
	gk_rs_create(&rs, K, M, GK_RS_CAUCHY);
	const size_t slot = STRIPE + SHARD_CRC_SIZE;
	uint8_t sbuf[N * (STRIPE + SHARD_CRC_SIZE)], present[SHARD_MAX_SHARDS];
	TU_CHECK(shard_set_read_stripe(&s, 0, sbuf, slot, present) == K && present[0] && present[1] &&
	         present[2] && memcmp(sbuf + slot, e->blocks[1][0], STRIPE) == 0,
	         "stripe 0: the damaged block of shard 1 read from its copy");
	TU_CHECK(shard_set_read_stripe(&s, 2, sbuf, slot, present) == K && !present[0] && present[1] &&
	         present[2] && present[3] && !present[4], "stripe 2: parity 3 stands in for shard 0");
	uint8_t *ptr[N];
	for (int i = 0; i < N; i++)
		ptr[i] = sbuf + (size_t)i * slot;
	TU_CHECK(gk_rs_reconstruct(rs, 17, ptr, present, 1) == GK_OK &&
	         memcmp(ptr[0], e->blocks[0][2], 17) == 0, "stripe 2: shard 0 rebuilt");
	/* Damage in shard 2's block 2 as well: stripe 2 has k - 1 intact blocks left. */
	flip(path(dir, "in.002.gkrs"), SHARD_HEADER_SIZE + 2 * blk + 3);
	TU_CHECK(shard_set_read_stripe(&s, 2, sbuf, slot, present) == K - 1,
	         "stripe 2 with m + 1 blocks lost cannot be rebuilt");
	TU_CHECK(shard_set_read_stripe(&s, 1, sbuf, slot, present) == K, "stripe 1 still can");
	gk_rs_destroy(rs);
	shard_set_close(&s);
}

static void test_name_index(void)
{
	static const struct { const char *name; int index; } cases[] = {
		{"in.000.gkrs", 0}, {"a.b.255.gkrs", 255}, {".007.gkrs", 7}, {"x.017.gkrs", 17},
		{"x.1.gkrs", -1}, {"001.gkrs", -1}, {"x.00a.gkrs", -1}, {"x.001.gkr", -1},
		{"x.001", -1}, {"x_001.gkrs", -1}, {"", -1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		TU_CHECK(shard_name_index(cases[i].name) == cases[i].index, "shard_name_index(\"%s\") = %d",
		         cases[i].name, shard_name_index(cases[i].name));
}

static void remove_tree(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_shard_set: could not remove %s\n", dir);
}

int main(void)
{
	tu_rng_init(&rng, tu_seed());
	const char *tmp = getenv("TMPDIR");
	snprintf(root, sizeof root, "%s/gk_shard_set.XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
	if (mkdtemp(root) == NULL) {
		fprintf(stderr, "test_shard_set: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	encode *e = malloc(sizeof *e);
	make_encode(e);
	test_name_index();
	test_complete(e);
	test_lost_and_too_few(e);
	test_empty_and_unusable();
	test_mixed_ids(e);
	test_duplicates(e);
	test_damage(e);
	free(e);
	remove_tree(root);
	return tu_finish("test_shard_set");
}
