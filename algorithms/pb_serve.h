/*
 * pb_serve.h - run an algorithm written against pb_algo.h as a program of
 * its own, the external-algorithm side of `infer --algo exec:COMMAND`
 * (docs/install.md "Your own algorithm in C").
 *
 * An algorithm outside the pathbench tree is a pb_algo descriptor (name,
 * view, parameter table, run function) in a program linked against the
 * installed libpathbench; its main() calls pb_algo_serve, and
 * `infer --algo exec:'./myalgo'` runs it: infer gives it the trace without
 * truth columns on stdin, its parameters (-s NAME=VALUE) in the
 * environment as PB_PARAM_NAME=VALUE, and checks and re-heads the result
 * it writes on stdout.  The sweeps run it as any exec: algorithm.
 */
#ifndef PB_SERVE_H
#define PB_SERVE_H

#include <stdio.h>

#include "pb_algo.h"
#include "pb_error.h"

/* Read the trace at in_path ("-" = standard input; truth columns, if any,
 * are dropped), set algo's parameters to their defaults and then from the
 * environment (PB_PARAM_NAME=VALUE for each NAME of algo->options), run
 * algo->run and write the result file (pb_result.h) to out, headed by
 * "algo=NAME view=VIEW", "params: ..." and "exec_program=NAME
 * exec_version=VERSION exec_commit=COMMIT" (pb_version.h).  Never prints.
 * Returns PB_OK; PB_EINVAL when a PB_PARAM_ variable names no parameter
 * of algo or holds a bad value (err says which and what was expected);
 * the reader's error for a bad trace; the algorithm's error; PB_ENOMEM;
 * PB_EIO when writing failed. */
int pb_algo_serve(const pb_algo *algo, const char *in_path, FILE *out,
                  pb_error *err);

#endif
