/*
 * test_shard_io.c - the shard file I/O and the output files of `gemmkit rs`
 * (tools/gemmkit/rs/shard_io.c, rs_outfiles.c):
 *
 *  - a shard written with shard_write_header / shard_write_block reads back
 *    intact; a flipped byte, a block read as another shard's or another
 *    stripe's, and a file cut short are told apart (damaged / absent);
 *  - a commit puts every output in place and leaves no temporary; without
 *    replace an existing name fails it and nothing changes; with replace
 *    old files are replaced; a rename that fails half way puts back what
 *    was renamed (the old files included);
 *  - an abort removes the temporaries and the directory the run made;
 *  - in a child process: SIGTERM and SIGINT, on the main thread or on
 *    another thread, remove the temporaries before the process dies of the
 *    signal; a signal during a commit waits until every output is in place;
 *    exit() removes them too; a file size limit makes a write fail (EFBIG)
 *    instead of killing the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rs/rs_outfiles.h"
#include "rs/rs_posix.h"
#include "rs/shard_io.h"
#include "test_util.h"

static char root[256];

static char *path(const char *dir, const char *name)
{
	static char buf[2][600];
	static int which;
	which ^= 1;
	snprintf(buf[which], sizeof buf[which], "%s/%s", dir, name);
	return buf[which];
}

static const char *fresh_dir(const char *tag)
{
	static char buf[400];
	snprintf(buf, sizeof buf, "%s/%s", root, tag);
	TU_CHECK(mkdir(buf, 0755) == 0, "mkdir %s: %s", buf, strerror(errno));
	return buf;
}

/* Entries of dir (but . and ..), and how many start with '.'. */
static int count_entries(const char *dir, int *hidden)
{
	int n = 0;
	char **names = rs_list_names(dir, "", &n);
	*hidden = 0;
	int count = 0;
	for (int i = 0; names != NULL && i < n; i++) {
		if (strcmp(names[i], ".") == 0 || strcmp(names[i], "..") == 0)
			continue;
		count++;
		*hidden += names[i][0] == '.';
	}
	rs_free_names(names);
	return names == NULL ? -1 : count;
}

/* The contents of a small file, or "" when it cannot be read. */
static const char *contents(const char *file)
{
	static char buf[256];
	buf[0] = '\0';
	int fd = open(file, O_RDONLY);
	if (fd < 0)
		return buf;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	return buf;
}

static void put(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	TU_CHECK(fd >= 0 && rs_write_full(fd, text, strlen(text)) == 0, "write %s", file);
	if (fd >= 0)
		close(fd);
}

static void test_shard_io(void)
{
	const char *dir = fresh_dir("io");
	shard_header h;
	memset(&h, 0, sizeof h);
	h.k = 2;
	h.m = 1;
	h.index = 2;
	h.stripe_size = 64;
	h.file_size = 200;
	strcpy(h.name, "f");
	memcpy(h.file_id, "0123456789abcdef", SHARD_ID_SIZE);
	TU_CHECK(shard_geometry(2, 64, 200, &h.block_count, &h.last_block_size) == 0 &&
	         h.block_count == 2 && h.last_block_size == 36, "geometry");
	uint8_t data[2][64];
	for (int b = 0; b < 2; b++)
		for (int i = 0; i < 64; i++)
			data[b][i] = (uint8_t)(b * 64 + i * 7);
	const char *file = path(dir, "s.gkrs");
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	TU_CHECK(fd >= 0 && shard_write_header(fd, &h) == 0 &&
	         shard_write_block(fd, &h, 0, data[0], 64) == 0 &&
	         shard_write_block(fd, &h, 1, data[1], 36) == 0, "write a shard");
	struct stat st;
	fstat(fd, &st);
	TU_CHECK((uint64_t)st.st_size == shard_file_bytes(&h), "size %lld", (long long)st.st_size);
	shard_header r;
	const char *why = NULL;
	TU_CHECK(shard_read_header(fd, &r, &why) == 0 && r.index == 2 && shard_same_set(&r, &h),
	         "the header reads back");
	uint8_t buf[64 + SHARD_CRC_SIZE];
	TU_CHECK(shard_read_block(fd, (uint64_t)st.st_size, &h, 0, buf, 64) == 1 &&
	         memcmp(buf, data[0], 64) == 0, "block 0 reads back");
	TU_CHECK(shard_read_block(fd, (uint64_t)st.st_size, &h, 1, buf, 36) == 1 &&
	         memcmp(buf, data[1], 36) == 0, "block 1 reads back");
	shard_header other = h;
	other.index = 1;
	TU_CHECK(shard_read_block(fd, (uint64_t)st.st_size, &other, 0, buf, 64) == 0,
	         "a block read as another shard's fails its CRC");
	TU_CHECK(shard_read_block(fd, (uint64_t)st.st_size - 1, &h, 1, buf, 36) == -1,
	         "a block past the end is absent");
	uint8_t c = 0xFF;
	TU_CHECK(pwrite(fd, &c, 1, SHARD_HEADER_SIZE + 64 + 4 + 3) == 1, "damage");
	TU_CHECK(shard_read_block(fd, (uint64_t)st.st_size, &h, 1, buf, 36) == 0 &&
	         shard_read_block(fd, (uint64_t)st.st_size, &h, 0, buf, 64) == 1,
	         "a flipped byte fails that block only");
	TU_CHECK(pwrite(fd, &c, 1, 30) == 1 && shard_read_header(fd, &r, &why) == -1 &&
	         strstr(why, "CRC") != NULL, "a damaged header: %s", why ? why : "(none)");
	close(fd);
}

/* Open n outputs dir/out<i> with the given contents. */
static int open_outputs(rs_outfile *f, int n, const char *dir, const char *text)
{
	for (int i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof name, "out%d", i);
		if (rs_out_open(&f[i], dir, name, path(dir, name)) != 0) {
			TU_CHECK(0, "rs_out_open %d: %s", i, strerror(errno));
			return 0;
		}
		TU_CHECK(rs_write_full(f[i].fd, text, strlen(text)) == 0, "write a temporary");
	}
	return 1;
}

static void test_commit_abort(void)
{
	const char *dir = fresh_dir("commit");
	rs_outfile f[3];
	int hidden;
	if (!open_outputs(f, 3, dir, "new"))
		return;
	TU_CHECK(count_entries(dir, &hidden) == 3 && hidden == 3, "three temporaries, hidden");
	const char *failed;
	TU_CHECK(rs_out_commit(f, 3, 0, dir, &failed) == 0, "commit");
	rs_out_free(f, 3);
	TU_CHECK(count_entries(dir, &hidden) == 3 && hidden == 0 &&
	         strcmp(contents(path(dir, "out2")), "new") == 0, "committed: the finals, no temporary");

	/* Without replace, an existing name fails the commit; nothing changes. */
	const char *d2 = fresh_dir("noreplace");
	put(path(d2, "out1"), "old1");
	if (!open_outputs(f, 3, d2, "new"))
		return;
	errno = 0;
	TU_CHECK(rs_out_commit(f, 3, 0, d2, &failed) == -1 && errno == EEXIST && failed != NULL &&
	         strstr(failed, "out1") != NULL, "an existing name fails the commit");
	TU_CHECK(count_entries(d2, &hidden) == 4 && hidden == 3 &&
	         strcmp(contents(path(d2, "out1")), "old1") == 0, "... out0 put back, out1 untouched");
	rs_out_abort(f, 3);
	TU_CHECK(count_entries(d2, &hidden) == 1 && hidden == 0, "abort: the temporaries are gone");

	/* With replace: the old files are replaced. */
	if (!open_outputs(f, 3, d2, "new"))
		return;
	TU_CHECK(rs_out_commit(f, 3, 1, d2, &failed) == 0 &&
	         strcmp(contents(path(d2, "out1")), "new") == 0, "replace");
	rs_out_free(f, 3);
	TU_CHECK(count_entries(d2, &hidden) == 3 && hidden == 0, "replace: no temporary left");

	/* A rename that fails half way: what was renamed is put back. */
	const char *d3 = fresh_dir("rollback");
	put(path(d3, "out0"), "old0");
	if (!open_outputs(f, 2, d3, "new"))
		return;
	free(f[1].final);
	f[1].final = strdup(path(d3, "missing/out1"));
	TU_CHECK(rs_out_commit(f, 2, 1, d3, &failed) == -1 && errno == ENOENT,
	         "a rename into a missing directory fails");
	TU_CHECK(strcmp(contents(path(d3, "out0")), "old0") == 0, "... and the replaced file is back");
	rs_out_abort(f, 2);
	TU_CHECK(count_entries(d3, &hidden) == 1 && hidden == 0, "... and no temporary is left");

	/* A directory made for the run goes with an abort, stays with a commit. */
	char made[450];
	snprintf(made, sizeof made, "%s/made", root);
	TU_CHECK(rs_out_mkdir(made) == 0, "rs_out_mkdir");
	if (open_outputs(f, 2, made, "x"))
		rs_out_abort(f, 2);
	TU_CHECK(access(made, F_OK) != 0, "abort removes the directory it made");
	TU_CHECK(rs_out_mkdir(made) == 0 && open_outputs(f, 1, made, "x") &&
	         rs_out_commit(f, 1, 0, made, &failed) == 0, "commit in a made directory");
	rs_out_free(f, 1);
	rs_out_abort(f, 0);
	TU_CHECK(strcmp(contents(path(made, "out0")), "x") == 0, "... which stays");
}

/* ---- in a child process ----------------------------------------------------- */

static void *send_term(void *arg)
{
	(void)arg;
	kill(getpid(), SIGTERM); /* the main thread holds it: this thread takes it */
	return NULL;
}

enum { BY_MAIN, BY_THREAD, IN_COMMIT, BY_EXIT, FSIZE };

static void child(const char *dir, int how)
{
	if (rs_out_init() != 0)
		_exit(90);
	char made[450];
	snprintf(made, sizeof made, "%s/made", dir);
	if (rs_out_mkdir(made) != 0)
		_exit(91);
	rs_outfile f[2];
	for (int i = 0; i < 2; i++) {
		char name[32];
		snprintf(name, sizeof name, "out%d", i);
		if (rs_out_open(&f[i], made, name, path(made, name)) != 0)
			_exit(92);
	}
	const char *failed;
	switch (how) {
	case BY_MAIN:
		raise(SIGINT);
		break;
	case BY_THREAD: {
		pthread_t t;
		rs_out_hold_signals();
		if (pthread_create(&t, NULL, send_term, NULL) != 0)
			_exit(93);
		pthread_join(t, NULL);
		rs_out_release_signals(); /* the forwarded signal arrives now */
		break;
	}
	case IN_COMMIT:
		rs_out_hold_signals();
		raise(SIGTERM);
		if (rs_out_commit(f, 2, 0, made, &failed) != 0)
			_exit(94);
		rs_out_release_signals();
		break;
	case BY_EXIT:
		exit(3);
	case FSIZE: {
		struct rlimit rl = {1000, 1000};
		static char big[5000];
		setrlimit(RLIMIT_FSIZE, &rl);
		int rc = rs_write_full(f[0].fd, big, sizeof big);
		int e = errno;
		rs_out_abort(f, 2);
		_exit(rc == -1 && e == EFBIG ? 4 : 95);
	}
	}
	_exit(96); /* not reached when the signal ends the process */
}

static void test_signals(void)
{
	static const struct { int how, sig, code, finals; const char *what; } cases[] = {
		{BY_MAIN, SIGINT, 0, 0, "SIGINT on the main thread"},
		{BY_THREAD, SIGTERM, 0, 0, "SIGTERM on another thread"},
		{IN_COMMIT, SIGTERM, 0, 2, "SIGTERM during a commit"},
		{BY_EXIT, 0, 3, 0, "exit()"},
		{FSIZE, 0, 4, 0, "a file size limit"},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char tag[32];
		snprintf(tag, sizeof tag, "sig%zu", c);
		const char *dir = fresh_dir(tag);
		char d[400];
		snprintf(d, sizeof d, "%s", dir);
		fflush(stdout);
		fflush(stderr);
		pid_t pid = fork();
		if (pid == 0)
			child(d, cases[c].how);
		int ws = 0;
		TU_CHECK(pid > 0 && waitpid(pid, &ws, 0) == pid, "%s: fork/wait", cases[c].what);
		if (cases[c].sig != 0)
			TU_CHECK(WIFSIGNALED(ws) && WTERMSIG(ws) == cases[c].sig,
			         "%s: the child dies of the signal (status 0x%x)", cases[c].what, ws);
		else
			TU_CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == cases[c].code,
			         "%s: exit status (status 0x%x)", cases[c].what, ws);
		int hidden;
		char made[450];
		snprintf(made, sizeof made, "%s/made", d);
		if (cases[c].finals == 0)
			TU_CHECK(count_entries(d, &hidden) == 0, "%s: no temporary, no directory left",
			         cases[c].what);
		else
			TU_CHECK(count_entries(made, &hidden) == cases[c].finals && hidden == 0,
			         "%s: every output in place, no temporary", cases[c].what);
	}
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(root, sizeof root, "%s/gk_shard_io.XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
	if (mkdtemp(root) == NULL) {
		fprintf(stderr, "test_shard_io: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	if (rs_out_init() != 0)
		TU_CHECK(0, "rs_out_init");
	test_shard_io();
	test_commit_abort();
	test_signals();
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "test_shard_io: could not remove %s\n", root);
	return tu_finish("test_shard_io");
}
