/* rs_posix.c - see rs_posix.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rs/rs_posix.h"

#define RS_ALIGN 64

int rs_write_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

ssize_t rs_read_full(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t got = 0;
	while (got < len) {
		ssize_t r = read(fd, p + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

ssize_t rs_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;
	size_t got = 0;
	while (got < len) {
		ssize_t r = pread(fd, p + got, len - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int rs_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	int e = errno;
	close(fd);
	/* Some file systems cannot sync a directory; the files are synced already. */
	if (rc != 0 && e != EINVAL && e != EROFS) {
		errno = e;
		return -1;
	}
	return 0;
}

char *rs_path_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);
	if (p == NULL)
		return NULL;
	memcpy(p, dir, a);
	size_t at = a;
	if (a > 0 && dir[a - 1] != '/')
		p[at++] = '/';
	memcpy(p + at, name, b + 1);
	return p;
}

const char *rs_base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

char *rs_dir_name(const char *path)
{
	const char *s = strrchr(path, '/');
	if (s == NULL)
		return strdup(".");
	if (s == path)
		return strdup("/");
	return strndup(path, (size_t)(s - path));
}

int rs_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a > b && strcmp(s + a - b, suffix) == 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **rs_list_names(const char *dir, const char *suffix, int *count)
{
	*count = 0;
	DIR *d = opendir(dir);
	if (d == NULL)
		return NULL;
	int cap = 16, n = 0;
	char **v = malloc(sizeof *v * (size_t)cap);
	struct dirent *e;
	errno = 0;
	while (v != NULL && (e = readdir(d)) != NULL) {
		if (!rs_ends_with(e->d_name, suffix))
			continue;
		if (n + 1 >= cap) {
			char **nv = realloc(v, sizeof *v * (size_t)cap * 2);
			if (nv == NULL)
				break;
			v = nv;
			cap *= 2;
		}
		if ((v[n] = strdup(e->d_name)) == NULL)
			break;
		n++;
		errno = 0;
	}
	int e_read = errno;
	closedir(d);
	if (v == NULL || e_read != 0) {
		if (v != NULL) {
			v[n] = NULL;
			rs_free_names(v);
		}
		errno = e_read != 0 ? e_read : ENOMEM;
		return NULL;
	}
	v[n] = NULL;
	/* readdir's order is arbitrary: sorted, reports are reproducible. */
	qsort(v, (size_t)n, sizeof *v, cmp_names);
	*count = n;
	return v;
}

void rs_free_names(char **names)
{
	if (names == NULL)
		return;
	for (char **p = names; *p != NULL; p++)
		free(*p);
	free(names);
}

void *rs_alloc(size_t bytes)
{
	if (bytes > SIZE_MAX - RS_ALIGN) {
		errno = ENOMEM;
		return NULL;
	}
	size_t n = (bytes + RS_ALIGN - 1) / RS_ALIGN * RS_ALIGN;
	return aligned_alloc(RS_ALIGN, n ? n : RS_ALIGN);
}
