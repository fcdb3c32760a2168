/* main.c - the gemmkit command line: `gemmkit <command> [options]`. Each
 * command parses its own options (commands.h). */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "gemmkit.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"bench", gk_cmd_bench, "benchmark GEMM algorithms: time and GFLOPS over a range of sizes"},
	{"gemm", gk_cmd_gemm, "multiply given (or random) matrices or .npy files once; print the time, GFLOPS and error"},
	{"model", gk_cmd_model, "the PHVM time-cost model of seed 003: device, latencies, predicted (and measured) times per GS, BS"},
	{"info", gk_cmd_info, "show the CPU, kernel set, threads, GPUs and the list of algorithms"},
	{"rs", gk_cmd_rs, "Reed-Solomon erasure coding of files: encode into k + m shards, decode, verify"},
};
#define N_COMMANDS ((int)(sizeof commands / sizeof commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: gemmkit <command> [options]\n\ncommands:\n");
	for (int i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-6s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
	        "\n'gemmkit <command> --help' describes a command's options.\n"
	        "  -h, --help     this help\n"
	        "  --version      print the version\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
		/* "help gemm" is "gemm --help". */
		if (argc > 2 && strcmp(cmd, "help") == 0)
			for (int i = 0; i < N_COMMANDS; i++)
				if (strcmp(argv[2], commands[i].name) == 0) {
					char *sub[] = {argv[2], "--help", NULL};
					return commands[i].run(2, sub);
				}
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
		printf("gemmkit %s\n", gk_version_string());
		return 0;
	}
	for (int i = 0; i < N_COMMANDS; i++)
		if (strcmp(cmd, commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "gemmkit: unknown command '%s'; the commands are:", cmd);
	for (int i = 0; i < N_COMMANDS; i++)
		fprintf(stderr, " %s", commands[i].name);
	fprintf(stderr, " (see 'gemmkit --help')\n");
	return 2;
}
