/* main.c - the gemmkit command line: subcommand dispatch. */
#include <stdio.h>
#include <string.h>
#include "gemmkit.h"

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0) {
		printf("usage: gemmkit <bench|gemm|info> [options]\n");
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "info") == 0) {
		printf("gemmkit %s, CPU kernels: %s\n", gk_version_string(), gk_arch_name());
		return 0;
	}
	fprintf(stderr, "gemmkit: unknown command '%s'\n", argv[1]);
	return 2;
}
