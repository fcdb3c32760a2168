/*
 * cli_util.h - small helpers shared by the gemmkit subcommands: number
 * parsing with range checks, a monotonic clock, seeded random fill, and
 * error reporting. Uses the public API only.
 */
#ifndef GK_CLI_UTIL_H
#define GK_CLI_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Parse a whole string as an integer in [lo, hi] (accepts 1e6 and 1k/1M/1G
 * suffixes); 0 on success, -1 otherwise. */
int cli_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out);
/* Parse a whole string as a finite double; 0 on success. */
int cli_parse_double(const char *s, double *out);
/* Parse "a,b,c" into at most max values in [lo, hi]; returns the count, or -1. */
int cli_parse_i64_list(const char *s, int64_t lo, int64_t hi, int64_t *out, int max);

/* Seconds on a monotonic clock. */
double cli_now(void);

/* A splitmix64 stream; fills with uniform values in [-1, 1]. */
typedef struct { uint64_t s; } cli_rng;
void cli_rng_init(cli_rng *r, uint64_t seed);
double cli_uniform(cli_rng *r);
void cli_fill_f32(float *x, size_t n, cli_rng *r);
void cli_fill_f64(double *x, size_t n, cli_rng *r);

/* Memory a process can still take without swapping, in bytes:
 * MemAvailable of /proc/meminfo, or in a memory-limited cgroup (a
 * container) its limit less its use when that is smaller; 0 where neither
 * can be read (then nothing is known). The environment variable
 * GK_MEM_AVAILABLE (bytes, or with K, M, G or T; "off" or 0: no check)
 * replaces it: on a virtual machine whose memory grows as it is used,
 * MemAvailable reads less than the machine will give. */
uint64_t cli_mem_available(void);
/* 1 when GK_MEM_AVAILABLE sets the figure. */
int cli_mem_overridden(void);
/* Whether `need` bytes for `what` fit the memory available (a double: a
 * product of sizes may overflow any integer): 0 when they do or nothing is
 * known, else -1 with "<what> need X GiB of memory; Y GiB are available" in
 * why. Asked before allocating: on a system that overcommits memory, an
 * allocation larger than the RAM can succeed, and the process is killed
 * when it writes to it. */
int cli_mem_fits(double need, const char *what, char *why, size_t len);

/* Print "gemmkit <cmd>: <message>" to stderr. */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
