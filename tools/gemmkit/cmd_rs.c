/*
 * cmd_rs.c - `gemmkit rs encode|decode|verify`: Reed-Solomon sharding of a
 * file into self-describing shard files (docs/RS_FORMAT.md), and rebuilding
 * it from any k good shards. The subcommands are in rs/: rs_encode.c,
 * rs_decode.c and rs_verify.c over the library's Reed-Solomon API, with the
 * shard files in shard_io.c, the choice of the set in shard_set.c and the
 * temporaries of a run in rs_outfiles.c.
 */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "rs/rs_cli.h"

static const char rs_help[] =
"usage: gemmkit rs <encode|decode|verify> [options]\n"
"\n"
"Reed-Solomon erasure coding of files (docs/RS_FORMAT.md):\n"
"  encode -k K -m M -o DIR FILE   split FILE into k + m shard files in DIR\n"
"  decode -o FILE DIR             rebuild FILE from any k good shards in DIR\n"
"  verify DIR                     check the shards in DIR (exit 0: all good)\n"
"\n"
"`gemmkit rs <command> --help` describes each command.\n";

int gk_cmd_rs(int argc, char **argv)
{
	static const struct {
		const char *name, *cmd;
		int (*run)(int, char **);
	} subs[] = {
		{"encode", "rs encode", rs_encode_main},
		{"decode", "rs decode", rs_decode_main},
		{"verify", "rs verify", rs_verify_main},
	};
	if (argc < 2) {
		fputs(rs_help, stderr);
		return 2;
	}
	const char *sub = argv[1];
	if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0) {
		fputs(rs_help, stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
		if (strcmp(sub, subs[i].name) == 0) {
			rs_set_cmd(subs[i].cmd);
			return subs[i].run(argc - 1, argv + 1);
		}
	rs_set_cmd("rs");
	rs_err("unknown command '%s' (encode, decode or verify)", sub);
	return 2;
}
