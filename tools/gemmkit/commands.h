/* commands.h - the subcommands of the gemmkit CLI; each takes the arguments
 * after its own name (argv[0] is the subcommand name) and returns the exit
 * status: 0 success, 1 failure while working, 2 bad command line. */
#ifndef GK_COMMANDS_H
#define GK_COMMANDS_H

int gk_cmd_bench(int argc, char **argv);
int gk_cmd_gemm(int argc, char **argv);
int gk_cmd_info(int argc, char **argv);
int gk_cmd_model(int argc, char **argv); /* cmd_model.c (HXV) */
int gk_cmd_rs(int argc, char **argv);

#endif
