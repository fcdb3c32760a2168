/* shard_set.c - see shard_set.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rs/rs_posix.h"
#include "rs/shard_io.h"
#include "rs/shard_set.h"

int shard_name_index(const char *name)
{
	const size_t n = strlen(name), s = strlen(SHARD_SUFFIX);
	if (n < s + 4 || strcmp(name + n - s, SHARD_SUFFIX) != 0 || name[n - s - 4] != '.')
		return -1;
	int v = 0;
	for (size_t i = n - s - 3; i < n - s; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		v = v * 10 + (name[i] - '0');
	}
	return v;
}

void shard_set_close(shard_set *s)
{
	for (int i = 0; i < s->nfiles; i++) {
		if (s->files[i].fd >= 0)
			close(s->files[i].fd);
		free(s->files[i].name);
	}
	free(s->files);
	s->files = NULL;
	s->nfiles = 0;
}

/* Open f->name in dir and read its header. 0, or -1 when f is not a regular
 * file (it is then dropped). */
static int classify(const char *dir, shard_file *f)
{
	char *full = rs_path_join(dir, f->name);
	f->fd = full != NULL ? open(full, O_RDONLY | O_CLOEXEC | O_NOCTTY) : -1;
	int e = full != NULL ? errno : ENOMEM;
	free(full);
	struct stat st;
	if (f->fd < 0 || fstat(f->fd, &st) != 0) {
		f->role = SHARD_UNREADABLE;
		f->why = strerror(f->fd < 0 ? e : errno);
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return -1;
	f->size = (uint64_t)st.st_size;
	int rc = shard_read_header(f->fd, &f->h, &f->why);
	if (rc == -2) {
		f->role = SHARD_UNREADABLE;
		f->why = strerror(errno);
	} else {
		f->role = rc == 0 ? SHARD_FOREIGN : SHARD_BAD_HEADER; /* foreign until chosen */
	}
	return 0;
}

/* Choose the group with the most distinct indices and link the candidates. */
static void choose(shard_set *s)
{
	int best = -1, best_count = 0;
	for (int g = 0; g < s->ngroups; g++) {
		uint8_t seen[SHARD_MAX_SHARDS] = {0};
		int count = 0;
		for (int i = 0; i < s->nfiles; i++) {
			const shard_file *f = &s->files[i];
			if (f->role == SHARD_FOREIGN && f->group == g && !seen[f->h.index]) {
				seen[f->h.index] = 1;
				count++;
			}
		}
		if (count > best_count) {
			best = g;
			best_count = count;
			s->tie = 0;
		} else if (count == best_count) {
			s->tie = 1;
		}
	}
	if (best < 0)
		return;
	s->chosen = best;
	s->distinct = best_count;
	for (int i = 0; i < s->nfiles; i++)
		if (s->files[i].role == SHARD_FOREIGN && s->files[i].group == best) {
			s->h = s->files[i].h;
			s->h.index = 0;
			break;
		}
	/* Candidates per index, in name order, those whose name says their
	 * index before the others: built back to front, the misnamed first. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = s->nfiles - 1; i >= 0; i--) {
			shard_file *f = &s->files[i];
			if (f->role != SHARD_FOREIGN || f->group != best)
				continue;
			const int named = shard_name_index(f->name) == f->h.index;
			if (named != (pass == 1))
				continue;
			f->next = s->cand[f->h.index];
			s->cand[f->h.index] = f;
		}
	for (int i = 0; i < s->nfiles; i++)
		if (s->files[i].role == SHARD_FOREIGN && s->files[i].group == best)
			s->files[i].role = SHARD_MEMBER;
}

int shard_set_open(shard_set *s, const char *dir)
{
	memset(s, 0, sizeof *s);
	s->dir = dir;
	s->chosen = -1;
	int count = 0;
	char **names = rs_list_names(dir, SHARD_SUFFIX, &count);
	if (names == NULL)
		return -1;
	s->files = calloc((size_t)(count ? count : 1), sizeof *s->files);
	int *rep = malloc(sizeof(int) * (size_t)(count ? count : 1)); /* a file of each group */
	if (s->files == NULL || rep == NULL) {
		free(rep);
		free(s->files);
		s->files = NULL;
		rs_free_names(names);
		errno = ENOMEM;
		return -1;
	}
	for (int i = 0; i < count; i++) {
		shard_file *f = &s->files[s->nfiles];
		memset(f, 0, sizeof *f);
		f->name = names[i];
		names[i] = NULL;
		if (classify(dir, f) != 0) {
			close(f->fd);
			free(f->name);
			continue;
		}
		s->nfiles++;
		if (f->role != SHARD_FOREIGN)
			continue;
		int g = 0;
		while (g < s->ngroups && !shard_same_set(&s->files[rep[g]].h, &f->h))
			g++;
		if (g == s->ngroups)
			rep[s->ngroups++] = s->nfiles - 1;
		f->group = g;
	}
	free(names); /* its strings now belong to s->files */
	free(rep);
	choose(s);
	return 0;
}

int shard_set_status(const shard_set *s)
{
	if (s->nfiles == 0)
		return SHARD_SET_NO_FILES;
	if (s->chosen < 0)
		return SHARD_SET_NO_VALID;
	if (s->tie)
		return SHARD_SET_TIE;
	if (s->distinct < s->h.k)
		return SHARD_SET_TOO_FEW;
	return SHARD_SET_OK;
}

int shard_set_read_stripe(const shard_set *s, uint64_t b, uint8_t *buf, size_t slot,
                          uint8_t *present)
{
	const int k = s->h.k, n = s->h.k + s->h.m;
	const uint32_t len = shard_block_len(&s->h, b);
	int good = 0;
	for (int i = 0; i < n; i++) {
		present[i] = 0;
		if (good == k)
			continue;
		for (const shard_file *f = s->cand[i]; f != NULL; f = f->next)
			if (shard_read_block(f->fd, f->size, &f->h, b, buf + (size_t)i * slot, len) == 1) {
				present[i] = 1;
				good++;
				break;
			}
	}
	return good;
}
