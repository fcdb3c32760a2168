/*
 * rs_outfiles.h - output files written under temporary names and put in
 * place all at once, so that a run that fails or is interrupted leaves the
 * output directory as it was and no temporary file behind.
 *
 *   rs_out_init();                              once, on the main thread
 *   rs_out_open(&f[i], dir, stem, final_i);     for each output
 *   ... write f[i].fd ...
 *   rs_out_commit(f, n, replace, dir) or rs_out_abort(f, n)
 *
 * While a temporary exists, SIGINT, SIGTERM and SIGHUP remove it (and a
 * directory the run created, when it is still empty) before the process dies
 * of the signal; so does exit() (a library that gives up with exit, say). A
 * signal that arrives on another thread (an OpenMP worker) is passed to the
 * main thread, which does the removing. During a commit the signals wait:
 * one that arrives then ends the process after the commit, with every output
 * in place. SIGXFSZ is ignored, so that a file size limit makes a write fail
 * (EFBIG) instead of killing the process with its temporaries.
 */
#ifndef GK_RS_OUTFILES_H
#define GK_RS_OUTFILES_H

/* The most outputs one run has at a time: k + m shards, or one file. */
#define RS_OUT_MAX 256

typedef struct rs_outfile {
	char *tmp;   /* the temporary path; NULL once committed or removed */
	char *final; /* the path it gets at the commit */
	int fd;      /* open on tmp while writing; -1 otherwise */
	int placed;  /* private to rs_outfiles.c: how the commit placed it */
} rs_outfile;

/* Install the signal handlers and the exit hook, on the main thread; 0 or -1. */
int rs_out_init(void);

/* Hold SIGINT, SIGTERM and SIGHUP on the main thread until the matching
 * release (nestable): the registry of temporaries changes under it. */
void rs_out_hold_signals(void);
void rs_out_release_signals(void);

/* Create dir (mode 0777 less the umask), to be removed again, when empty,
 * by an abort or a signal. 0, or -1 with errno. */
int rs_out_mkdir(const char *dir);
/* Forget the directory made by rs_out_mkdir (after a commit). */
void rs_out_keep_dir(void);

/*
 * Create the temporary DIR/.<stem>.tmp-XXXXXX (mode 0666 less the umask) for
 * the output final, registered for removal, open for writing in f->fd.
 * f is all set up even on failure (tmp and fd NULL and -1), so that
 * rs_out_abort may be called on it. 0, or -1 with errno.
 */
int rs_out_open(rs_outfile *f, const char *dir, const char *stem, const char *final);

/*
 * Sync and close every file, then rename each to its final name, signals
 * held. Without replace, an existing final name fails the commit (EEXIST);
 * with it, the existing file is replaced (exchanged atomically where the
 * file system can, and put back if a later rename fails). On failure every
 * rename done is undone (*failed names the path at fault, errno the error)
 * and -1 is returned; the temporaries are then still there: call
 * rs_out_abort. Finally dir is synced. 0 on success.
 */
int rs_out_commit(rs_outfile *f, int n, int replace, const char *dir, const char **failed);

/* Close and remove the temporaries of f[0..n) that still exist, free the
 * paths, and remove the directory made by rs_out_mkdir when empty. */
void rs_out_abort(rs_outfile *f, int n);

/* Free the paths of f[0..n) after a commit. */
void rs_out_free(rs_outfile *f, int n);

#endif
