/*
 * rs_outfiles.c - see rs_outfiles.h.
 *
 * The registry of temporaries is a fixed array of path pointers that the
 * signal handler walks with unlink() and rmdir() only (async-signal-safe).
 * It changes only on the main thread with the signals held there, and the
 * handler does its removing only on the main thread (another thread passes
 * the signal on with pthread_kill), so the handler never sees it half
 * changed.
 */
#define _GNU_SOURCE /* renameat2 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rs/rs_outfiles.h"
#include "rs/rs_posix.h"

enum { PLACED_NONE, PLACED_NEW, PLACED_SWAPPED, PLACED_OVER };

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define NCAUGHT ((int)(sizeof caught / sizeof caught[0]))

static char *volatile registry[RS_OUT_MAX];
static char *volatile made_dir;
static pthread_t main_thread;
static int initialised, hold_depth;
static sigset_t held_set;

/* Remove what the registry names. Async-signal-safe. */
static void remove_registered(void)
{
	for (int i = 0; i < RS_OUT_MAX; i++) {
		char *p = registry[i];
		if (p != NULL)
			unlink(p);
	}
	char *d = made_dir;
	if (d != NULL)
		rmdir(d); /* only when empty: never anything but what this run made */
}

static void on_signal(int sig)
{
	int saved = errno;
	if (!pthread_equal(pthread_self(), main_thread)) {
		/* The main thread removes; it may hold the signal during a commit. */
		pthread_kill(main_thread, sig);
		errno = saved;
		return;
	}
	remove_registered();
	signal(sig, SIG_DFL);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	raise(sig); /* dies of the signal, as without the handler */
	errno = saved;
}

static void on_exit_hook(void)
{
	remove_registered();
}

int rs_out_init(void)
{
	if (initialised)
		return 0;
	main_thread = pthread_self();
	sigemptyset(&held_set);
	for (int i = 0; i < NCAUGHT; i++)
		sigaddset(&held_set, caught[i]);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_mask = held_set;
	sa.sa_flags = SA_RESTART;
	for (int i = 0; i < NCAUGHT; i++) {
		struct sigaction old;
		/* A signal ignored by whoever started us stays ignored. */
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(caught[i], &sa, NULL) != 0)
			return -1;
	}
	signal(SIGXFSZ, SIG_IGN);
	if (atexit(on_exit_hook) != 0)
		return -1;
	initialised = 1;
	return 0;
}

void rs_out_hold_signals(void)
{
	if (hold_depth++ == 0)
		pthread_sigmask(SIG_BLOCK, &held_set, NULL);
}

void rs_out_release_signals(void)
{
	if (hold_depth > 0 && --hold_depth == 0)
		pthread_sigmask(SIG_UNBLOCK, &held_set, NULL);
}

static int register_path(char *p)
{
	for (int i = 0; i < RS_OUT_MAX; i++)
		if (registry[i] == NULL) {
			registry[i] = p;
			return 0;
		}
	errno = EMFILE;
	return -1;
}

static void unregister_path(const char *p)
{
	for (int i = 0; i < RS_OUT_MAX; i++)
		if (registry[i] == p)
			registry[i] = NULL;
}

int rs_out_mkdir(const char *dir)
{
	char *copy = strdup(dir);
	if (copy == NULL)
		return -1;
	rs_out_hold_signals();
	int rc = mkdir(dir, 0777);
	int e = errno;
	if (rc == 0)
		made_dir = copy;
	rs_out_release_signals();
	if (rc != 0) {
		free(copy);
		errno = e;
	}
	return rc;
}

void rs_out_keep_dir(void)
{
	rs_out_hold_signals();
	char *d = made_dir;
	made_dir = NULL;
	rs_out_release_signals();
	free(d);
}

static mode_t current_umask(void)
{
	mode_t um = umask(0);
	umask(um);
	return um;
}

int rs_out_open(rs_outfile *f, const char *dir, const char *stem, const char *final)
{
	f->tmp = NULL;
	f->fd = -1;
	f->placed = PLACED_NONE;
	f->final = strdup(final);
	char name[300];
	snprintf(name, sizeof name, ".%.200s.tmp-XXXXXX", stem);
	char *tmp = rs_path_join(dir, name);
	if (f->final == NULL || tmp == NULL) {
		free(tmp);
		errno = ENOMEM;
		return -1;
	}
	rs_out_hold_signals();
	int fd = mkstemp(tmp);
	int e = errno;
	if (fd >= 0 && register_path(tmp) != 0) {
		e = errno;
		unlink(tmp);
		close(fd);
		fd = -1;
	}
	if (fd >= 0) {
		f->tmp = tmp;
		f->fd = fd;
	}
	rs_out_release_signals();
	if (fd < 0) {
		free(tmp);
		errno = e;
		return -1;
	}
	fchmod(fd, 0666 & ~current_umask());
	return 0;
}

/* Give f its final name: a PLACED_* kind, or -1 with errno. */
static int place(const rs_outfile *f, int replace)
{
	if (renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->final, RENAME_NOREPLACE) == 0)
		return PLACED_NEW;
	if (errno == EEXIST) {
		if (!replace)
			return -1;
		/* The old file goes to the temporary name: it can come back. */
		if (renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->final, RENAME_EXCHANGE) == 0)
			return PLACED_SWAPPED;
		if (errno != EINVAL && errno != ENOSYS)
			return -1;
		return rename(f->tmp, f->final) == 0 ? PLACED_OVER : -1;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* No renameat2 flags on this file system: a hard link does not replace
	 * either; without hard links, a plain rename is all there is. */
	if (link(f->tmp, f->final) == 0) {
		unlink(f->tmp);
		return PLACED_NEW;
	}
	if (errno == EEXIST)
		return replace && rename(f->tmp, f->final) == 0 ? PLACED_OVER : -1;
	return rename(f->tmp, f->final) == 0 ? PLACED_NEW : -1;
}

/* Put back what place() did: the new file at the temporary name again, the
 * old one (if any) at the final name. */
static void unplace(const rs_outfile *f)
{
	if (f->placed == PLACED_NEW)
		rename(f->final, f->tmp);
	else if (f->placed == PLACED_SWAPPED)
		renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->final, RENAME_EXCHANGE);
	/* PLACED_OVER: the old file is gone; the new one stays. */
}

int rs_out_commit(rs_outfile *f, int n, int replace, const char *dir, const char **failed)
{
	*failed = NULL;
	for (int i = 0; i < n; i++) {
		int e = 0;
		if (fsync(f[i].fd) != 0)
			e = errno;
		if (close(f[i].fd) != 0 && e == 0)
			e = errno;
		f[i].fd = -1;
		if (e != 0) {
			*failed = f[i].final;
			errno = e;
			return -1;
		}
	}
	rs_out_hold_signals();
	int i, e = 0;
	for (i = 0; i < n; i++) {
		int kind = place(&f[i], replace);
		if (kind < 0) {
			e = errno;
			break;
		}
		f[i].placed = kind;
	}
	if (i < n) {
		for (int j = i - 1; j >= 0; j--) {
			unplace(&f[j]);
			f[j].placed = PLACED_NONE;
		}
		rs_out_release_signals();
		*failed = f[i].final;
		errno = e;
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (f[i].placed == PLACED_SWAPPED)
			unlink(f[i].tmp); /* the file it replaced */
		unregister_path(f[i].tmp);
		free(f[i].tmp);
		f[i].tmp = NULL;
	}
	char *d = made_dir;
	made_dir = NULL;
	free(d);
	rs_fsync_dir(dir);
	rs_out_release_signals();
	return 0;
}

void rs_out_abort(rs_outfile *f, int n)
{
	rs_out_hold_signals();
	for (int i = 0; i < n; i++) {
		if (f[i].fd >= 0)
			close(f[i].fd);
		f[i].fd = -1;
		if (f[i].tmp != NULL) {
			unlink(f[i].tmp);
			unregister_path(f[i].tmp);
			free(f[i].tmp);
			f[i].tmp = NULL;
		}
		free(f[i].final);
		f[i].final = NULL;
	}
	char *d = made_dir;
	made_dir = NULL;
	if (d != NULL)
		rmdir(d);
	free(d);
	rs_out_release_signals();
}

void rs_out_free(rs_outfile *f, int n)
{
	for (int i = 0; i < n; i++) {
		free(f[i].final);
		f[i].final = NULL;
	}
}
