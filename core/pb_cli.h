/*
 * pb_cli.h - the command-line layer every program shares (the convention
 * of docs/DEVELOPING.md, "Command-line convention").
 *
 * A program declares its flags once, in a pb_cli_opt table; the table
 * drives parsing (getopt_long underneath), the option part of --help and
 * the hidden --list-options listing that tests/sh/test_cli_convention.sh
 * reads.  -h/--help, --version and --list-options are added to every
 * table.
 *
 * One short letter has one meaning in every program: a short option is
 * accepted only if the registry in pb_cli.c gives that letter to the same
 * long name (pb_cli_init fails otherwise), so a new program cannot give
 * -s a second meaning.  Long flag names are words joined by '-' (GNU);
 * parameter names (pb_option tables, "-s NAME=VALUE", "# params:") are
 * words joined by '_'.
 *
 * Output files: pb_out opens an output before the work starts (so a typo
 * in a folder fails at once), refuses an output that is one of the inputs
 * (same device and inode), writes a regular file through a temporary file
 * in the same folder that pb_out_commit renames into place, and checks
 * every write (pb_out_commit fails if any write failed).
 */
#ifndef PB_CLI_H
#define PB_CLI_H

#include <stdio.h>

#include "pb_error.h"
#include "pb_opt.h"

/* One flag of a program.  A table ends with an entry whose name is NULL. */
typedef struct pb_cli_opt {
    int id;               /* returned by pb_cli_next; > 0 */
    char short_name;      /* 0 = long form only */
    const char *name;     /* long name, words joined by '-' */
    const char *arg;      /* metavariable ("FILE"); NULL = takes no argument;
                             "[=X]": an optional argument, long form only
                             (--name or --name=X) */
    const char *help;     /* lines separated by '\n'; NULL = hidden (an
                             old spelling kept as an alias) */
} pb_cli_opt;

/* Values pb_cli_next returns besides a table id. */
#define PB_CLI_END (-1)   /* no more flags: operands start at pb_cli_optind */
#define PB_CLI_BAD (-2)   /* usage error: err says what; exit 2 */
#define PB_CLI_HELP (-3)  /* -h / --help */
#define PB_CLI_LIST (-4)  /* --list-options */
#define PB_CLI_VERSION (-5) /* --version: print with pb_cli_version, exit 0 */

#define PB_CLI_MAXOPTS 64

typedef struct pb_cli {
    const char *prog;
    const pb_cli_opt *opts;
    int argc;
    char **argv;
    char shorts[3 * PB_CLI_MAXOPTS + 4];
    void *longopts; /* struct option[], owned */
    void *seen;     /* values given so far (pb_cli.c: twice_check), owned */
    const pb_option *names; /* NULL, or a table whose PB_OPT_ALIAS rows make
                               two names one for the twice-given warning
                               (score: --seed is --ci-seed); set after
                               pb_cli_init, not owned */
    size_t nseen, capseen;
} pb_cli;

/* Prepare parsing argv with the flags of table.  Returns PB_OK, PB_EINVAL
 * if the table breaks the convention (a short letter the registry gives
 * to another long name, a name with '_', more than PB_CLI_MAXOPTS
 * entries: a bug in the program; err says which), PB_ENOMEM.  On failure
 * nothing is left to free. */
int pb_cli_init(pb_cli *cli, const char *prog, const pb_cli_opt *table,
                int argc, char **argv, pb_error *err);

/* The next flag: its id (and *arg its argument, or NULL), or one of the
 * PB_CLI_* values above (PB_CLI_BAD fills err with the bad flag and what
 * was expected).
 * A value given twice (README, "An option given twice"): the last one is
 * used, as in every GNU program, but never silently: when a flag that
 * takes a value, or one NAME of `-s NAME=VALUE` / `-D`, is given again
 * with another value, "PROG: warning: NAME given twice (FIRST, then
 * SECOND); the last one is used" is printed on stderr.  A flag and the
 * parameter it stands for are one name (--seed 1 -s seed=2 is NAME seed
 * twice).  Repeatable flags (--set/--define of different NAMEs, --name,
 * --node, --port, --sniffer) collect; a flag without a value given twice
 * is the same as once. */
int pb_cli_next(pb_cli *cli, const char **arg, pb_error *err);

/* The twice-given warning of pb_cli_next for `-s NAME=VALUE` values kept
 * for a table known only after parsing (infer: the algorithm's): a
 * parameter given under an old name (a PB_OPT_ALIAS row of table) and
 * under the name it stands for, with another value, prints "PROG: warning:
 * NAME given twice (-s OLD=A, then -s NAME=B); the last one is used" (the
 * same spelling twice was said by pb_cli_next).  sets[0..nsets) in
 * command-line order; nothing is changed.  O(nsets x alias rows). */
void pb_cli_sets_twice(const char *prog, const pb_option *table,
                       const char *const *sets, size_t nsets);

/* Index of the first operand once pb_cli_next returned PB_CLI_END. */
int pb_cli_optind(const pb_cli *cli);

/* Print the flags section of --help: "  -o, --output FILE   help", help
 * lines past the first aligned under it; hidden entries left out. */
void pb_cli_help(FILE *fp, const pb_cli *cli);

/* Print the --list-options listing: "flag -S --NAME [ARG]" (a long-only
 * flag as "flag - --NAME"), then "param NAME TYPE" for every entry of every
 * table in params (NULL-terminated array of tables, may be NULL). */
void pb_cli_list(FILE *fp, const pb_cli *cli, const pb_option *const *params);

/* `-s NAME=VALUE` in a program whose parameters are some of its flags
 * (score, importtrace): the id of the flag --NAME (NAME's '_' read as '-')
 * when its id is one of ids[0..nids), with *value pointing at VALUE inside
 * kv.  Returns 0 when NAME names none of them or kv has no '=' (err then
 * lists the names there are, '_'-joined). */
int pb_cli_param_flag(const pb_cli *cli, const int *ids, size_t nids,
                      const char *kv, const char **value, pb_error *err);

/* Print the --version line: "PROG (pathbench) VERSION (git COMMIT)"
 * (pb_version.h; without the commit outside a git checkout). */
void pb_cli_version(FILE *fp, const char *prog);

/* The flags every program answers alike: for c = PB_CLI_HELP calls
 * usage(stdout, cli), for PB_CLI_VERSION prints the version line, for
 * PB_CLI_LIST the --list-options listing with params (as pb_cli_list).
 * Returns 0 for any other c (nothing printed); when c was one of them,
 * 1 + the exit status: 1 when the answer reached stdout (the program then
 * frees what it holds and exits 0), 2 when writing it failed (a full disk,
 * a closed stdout: "PROG: (stdout): write error: REASON" was printed on
 * stderr; the program exits 1). */
int pb_cli_answer(int c, const pb_cli *cli, const pb_option *const *params,
                  void (*usage)(FILE *fp, const pb_cli *cli));

/* Free what pb_cli_init allocated.  NULL-safe. */
void pb_cli_free(pb_cli *cli);

/* Print "prog: MESSAGE (try --help)" for a PB_CLI_BAD or any usage error
 * held in err, the one form of every usage error; returns 2, the exit
 * status of bad usage. */
int pb_cli_usage_error(const char *prog, const pb_error *err);

/* Split "NAME=VALUE" as `-s` takes it: copies NAME (cut to n - 1 bytes)
 * into name and returns a pointer to VALUE inside kv, or NULL when kv has
 * no '=' (name is then left empty). */
const char *pb_cli_kv_split(const char *kv, char *name, size_t n);

/* Set parameter `name` of `table` to `value` in `params` (a struct the
 * table describes; the caller owns it), given by flag `flag` (such as
 * "--seed").  On an unknown name or a bad value prints
 * "PROG: FLAG VALUE: what was wrong (try PROG --help)" on stderr.
 * Returns 1 when set, 0 after that message (bad usage: exit 2). */
int pb_cli_set_param(const char *prog, const pb_option *table, void *params,
                     const char *name, const char *value, const char *flag);

/* `-s NAME=VALUE` for `table`, as pb_cli_set_param; a bare "-s N" (no '=')
 * is the old spelling of --seed N, kept for one release.  An error names
 * the flag as typed ("-s queue=0").  Returns 1 when set, 0 after printing
 * the error. */
int pb_cli_set_kv(const char *prog, const pb_option *table, void *params,
                  const char *kv);

/* ---------------------------------------------------------------- */
/* Output files */

typedef struct pb_out pb_out;

/* Open the output path (NULL or "-" = stdout) before the work starts
 * (core/pb_out.c).  inputs: paths the program will read ("-" = stdin,
 * NULL entries skipped); an output that is the same file (device and
 * inode) as one of them, as a file the run has read already or as another
 * output of the run is refused (pb_files.h; files read later are checked
 * against the outputs as they are opened).  A regular file -- also the
 * target of a symbolic link, or the file behind /dev/stdin -- is written
 * to a temporary file beside it, renamed into place by pb_out_commit; a
 * device or pipe (/dev/null) is written directly; the run's own standard
 * output (/dev/stdout) is used as it is.
 * Returns PB_OK with *out set, PB_EINVAL (same file as an input or another
 * output, a folder, an empty name), PB_EIO (cannot create: err names the
 * path and the reason). */
int pb_out_open(pb_out **out, const char *path, const char *const *inputs,
                size_t ninputs, pb_error *err);

/* The stream to write to (stdout for "-"). */
FILE *pb_out_fp(const pb_out *o);

/* The name to use in messages: the path, or "(stdout)". */
const char *pb_out_name(const pb_out *o);

/* Finish: flush, check that every write succeeded, close, rename the
 * temporary file into place.  Frees o.  Returns PB_OK or PB_EIO (err says
 * which file; the temporary file is removed, the old file is untouched). */
int pb_out_commit(pb_out *o, pb_error *err);

/* Give up: close and remove the temporary file (the old file, if any, is
 * untouched).  NULL-safe; frees o. */
void pb_out_abort(pb_out *o);

#endif
