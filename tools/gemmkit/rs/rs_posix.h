/*
 * rs_posix.h - the POSIX helpers of `gemmkit rs`: whole reads and writes
 * that retry after EINTR and short counts, paths, sorted directory listings,
 * directory syncing and aligned buffers. They print nothing: a failure
 * returns -1 (or NULL) with errno set, and the caller says what failed.
 */
#ifndef GK_RS_POSIX_H
#define GK_RS_POSIX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Write all len bytes. 0, or -1 with errno (ENOSPC when a write makes no progress). */
int rs_write_full(int fd, const void *buf, size_t len);
/* Read up to len bytes: the count read (short only at the end of the file), or -1. */
ssize_t rs_read_full(int fd, void *buf, size_t len);
/* The same at offset off, without moving the file offset. */
ssize_t rs_pread_full(int fd, void *buf, size_t len, uint64_t off);
/* fsync a directory (its entries); file systems that cannot count as success. */
int rs_fsync_dir(const char *dir);

/* dir + "/" + name (no doubled '/'); NULL when out of memory. The caller frees. */
char *rs_path_join(const char *dir, const char *name);
/* The part of path after its last '/'. */
const char *rs_base_name(const char *path);
/* The part of path before its last '/': "." when none, "/" for the root. NULL
 * when out of memory. The caller frees. */
char *rs_dir_name(const char *path);
/* 1 when s ends in suffix and is longer than it. */
int rs_ends_with(const char *s, const char *suffix);

/* The names in dir that end in suffix, sorted (strcmp), as a NULL-terminated
 * array; *count is their number. NULL with errno when dir cannot be read or
 * memory runs out. */
char **rs_list_names(const char *dir, const char *suffix, int *count);
void rs_free_names(char **names);

/* A 64-byte aligned buffer of at least bytes (1 when 0); NULL when out of
 * memory. Freed with free(). */
void *rs_alloc(size_t bytes);

#endif
