/*
 * refs_isal.c - ISA-L (Intel's storage acceleration library), the reference
 * of the GF(2^8) / Reed-Solomon suite, loaded at run time: the benchmark
 * runs without it and says so.
 */
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "refs.h"

/* The sanitizer runtimes refuse RTLD_DEEPBIND; ISA-L's symbols do not clash
 * with gemmkit's, so a sanitized build can do without it. */
#if defined(__SANITIZE_ADDRESS__)
#define GK_DEEPBIND 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GK_DEEPBIND 0
#endif
#endif
#ifndef GK_DEEPBIND
#define GK_DEEPBIND RTLD_DEEPBIND
#endif

int bench_isal_load(bench_isal *L, char *why, size_t why_len)
{
	static const char *const names[] = {"libisal.so.2", "libisal.so"};
	memset(L, 0, sizeof *L);
	char first_error[256] = "";
	for (size_t i = 0; i < sizeof names / sizeof names[0] && L->handle == NULL; i++) {
		/* DEEPBIND: the library's own calls must bind to its own symbols. */
		L->handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL | GK_DEEPBIND);
		if (L->handle == NULL && i == 0)
			snprintf(first_error, sizeof first_error, "%s", dlerror());
	}
	if (L->handle == NULL) {
		snprintf(why, why_len, "ISA-L not found (%s)", first_error);
		return -1;
	}
	*(void **)&L->init_tables = dlsym(L->handle, "ec_init_tables");
	/* The kernel set of gemmkit's GK_ARCH, when one is forced. */
	const char *arch = getenv("GK_ARCH"), *entry = "ec_encode_data";
	if (arch && !strcmp(arch, "avx2"))
		entry = "ec_encode_data_avx2";
	else if (arch && !strcmp(arch, "avx512"))
		entry = "ec_encode_data_avx512";
	else if (arch && !strcmp(arch, "generic"))
		entry = "ec_encode_data_base";
	*(void **)&L->encode = dlsym(L->handle, entry);
	if (L->encode == NULL && strcmp(entry, "ec_encode_data") != 0) {
		fprintf(stderr, "gemmkit bench: ISA-L has no %s: its own choice (ec_encode_data) is used\n", entry);
		entry = "ec_encode_data";
		*(void **)&L->encode = dlsym(L->handle, entry);
	}
	snprintf(L->entry, sizeof L->entry, "%s", entry);
	*(void **)&L->gen_cauchy1 = dlsym(L->handle, "gf_gen_cauchy1_matrix");
	*(void **)&L->invert = dlsym(L->handle, "gf_invert_matrix");
	if (!L->init_tables || !L->encode || !L->gen_cauchy1 || !L->invert) {
		snprintf(why, why_len, "ISA-L found but lacks ec_init_tables / ec_encode_data / "
		                       "gf_gen_cauchy1_matrix / gf_invert_matrix");
		dlclose(L->handle);
		L->handle = NULL;
		return -1;
	}
	Dl_info di;
	if (dladdr(*(void **)&L->encode, &di) && di.dli_fname && realpath(di.dli_fname, L->path) == NULL)
		snprintf(L->path, sizeof L->path, "%s", di.dli_fname);
	return 0;
}

void bench_isal_close(bench_isal *L)
{
	if (L->handle)
		dlclose(L->handle);
	L->handle = NULL;
}
