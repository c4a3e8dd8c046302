/*
 * pb_exec.h - an external algorithm, in any language: `infer --algo
 * exec:'COMMAND ARGS'` (docs/baselines.md "Any algorithm, in any
 * language").
 *
 * COMMAND runs under /bin/sh -c with the truth-stripped trace as CSV on
 * its standard input (the columns an algorithm sees through pb_trace_view:
 * never `path` or `cause`) and must write a result file (docs/formats.md)
 * on its standard output.  Parameters given as -s NAME=VALUE reach it in
 * the environment, each as PB_PARAM_NAME=VALUE, and all together as
 * PB_PARAMS="NAME=VALUE NAME=VALUE ...".  The output is checked as
 * strictly as score checks a result file (format, patterns, one rank per
 * instance, every ascribed message id in the trace), then re-headed with
 * pathbench's own metadata.
 */
#ifndef PB_EXEC_H
#define PB_EXEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb_error.h"
#include "pb_trace.h"

/* What the command may take.  Defaults (pb_exec_limits_default): one hour
 * of wall time, 4 GiB per file it writes (its output, its standard error
 * and any file of its own: RLIMIT_FSIZE). */
typedef struct pb_exec_limits {
    pb_ns timeout;      /* wall time, then it is killed (SIGKILL); 0 = none */
    size_t max_output;  /* bytes one file it writes may hold; 0 = none */
} pb_exec_limits;

/* Fill lim with the defaults. */
void pb_exec_limits_default(pb_exec_limits *lim);

typedef struct pb_exec_run {
    int exit_status;     /* the command's exit status, or -1 */
    int signal;          /* the signal that ended it, or 0 */
    int timed_out;       /* killed at lim->timeout */
    double wall_s;       /* wall time of the command */
    double cpu_s;        /* user + system CPU time of the command */
    uint64_t input_fnv;  /* FNV-1a 64 of the CSV bytes it was given */
    size_t input_bytes;
    char *err_text;      /* what it wrote on stderr (owned; may be "") */
    char *out_path;      /* temporary file holding its stdout (owned) */
} pb_exec_run;

/* Run `command` on trace t (truth stripped).  params: nparams "NAME=VALUE"
 * strings (borrowed).  Fills *run (free with pb_exec_run_free, which also
 * removes the temporary file).  Returns PB_OK when the command ran and
 * exited with status 0; PB_EINVAL for a bad parameter name; PB_EIO when it
 * could not be started, failed, was killed, ran past lim->timeout or wrote
 * more than lim->max_output (run->exit_status, run->signal and
 * run->err_text say how; err names the command and the limit).  lim may
 * be NULL (defaults). */
int pb_exec_start(const char *command, const pb_trace *t,
                  const char *const *params, size_t nparams,
                  const pb_exec_limits *lim, pb_exec_run *run, pb_error *err);

/* Check the command's output as strictly as score does and write it to fp
 * as a result file: the version line, then
 *   algo=exec:NAME view=VIEW trace=TRACE_NAME messages=N
 *   exec: command=COMMAND
 *   exec_status=0 cpu_exec_s=... wall_exec_s=... input_fnv1a64=HEX input_bytes=N
 *   fingerprint: messages=N ids=HEX       (pb_fingerprint of the trace)
 * then every other line the command wrote, but its own fingerprint line (its own algo=/view= lines stay,
 * after ours, so ours win).  NAME is the command's own algo= value, or
 * the first word of COMMAND without its directory.  Returns PB_OK,
 * PB_EPARSE / PB_EDUP / PB_ENOENT (err names the command's output, the
 * line and what was expected), or PB_EIO. */
int pb_exec_finish(const char *command, const pb_trace *t,
                   const char *trace_name, const pb_exec_run *run, FILE *fp,
                   pb_error *err);

/* Free what run owns and remove its temporary file.  NULL-safe. */
void pb_exec_run_free(pb_exec_run *run);

#endif
