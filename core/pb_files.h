/*
 * pb_files.h - every file one run reads and writes, known by device and
 * inode, so that no output can replace a file the run reads and no two
 * outputs can be one file (docs/DEVELOPING.md, "Output files").
 *
 * The run's files are kept in one process-wide list (pathbench programs
 * are single-threaded):
 *
 *   - pb_out_open (pb_cli.h) adds each output: the file it will replace
 *     (after following symbolic links, /dev/stdin and /proc links
 *     included) and the temporary file written in its place.  An output
 *     that is a file already read or written by this run is refused.
 *   - every reader of the library opens its files through pb_files_open /
 *     pb_files_open_fd (or notes an open one with pb_files_input_fd):
 *     trace files, importtrace's folder and archive members, score --kept,
 *     files named by parameters (-s callgraph=), configs and clock specs.
 *     A file that is one of the run's outputs is refused, with both names.
 *
 * Character devices (/dev/null, a terminal) are never "the same file":
 * reading and writing them loses nothing.  Every descriptor opened here is
 * close-on-exec, so a child (infer --algo exec:) inherits none of them.
 */
#ifndef PB_FILES_H
#define PB_FILES_H

#include <stdio.h>

#include "pb_error.h"

/* Note that the run reads the open descriptor fd, called name in messages
 * ("(stdin)" for 0).  Returns PB_OK, PB_EINVAL when it is one of the run's
 * outputs (err names both) or a folder, PB_ENOMEM. */
int pb_files_input_fd(int fd, const char *name, pb_error *err);

/* Open path for reading (binary, close-on-exec) and note it as an input.
 * "-" is stdin (noted, not opened again).  An empty name is refused.
 * Returns the stream (the caller closes it unless it is stdin), or NULL
 * with err set: PB_EINVAL (empty name, one of the run's outputs, a
 * folder), PB_EIO
 * (cannot open: err names the path and the reason). */
FILE *pb_files_open(const char *path, pb_error *err);

/* pb_files_open for a raw descriptor (O_RDONLY | O_CLOEXEC); "-" gives 0.
 * Returns the descriptor (the caller closes it unless it is 0) or -1 with
 * err set as pb_files_open does. */
int pb_files_open_fd(const char *path, pb_error *err);

/* Read one line of a small text input (a clock spec, a table, a config)
 * into *buf (the caller's, grown with realloc, freed by the caller; *cap
 * its size): the bytes up to and including '\n', then a terminating NUL;
 * *len their count.  Reading stops early at a NUL byte (kept, the last of
 * the *len bytes: the caller names its place) so that endless binary
 * input (/dev/zero) is refused at once, not after filling memory.  A
 * UTF-8 byte-order mark before a line is dropped (columns count from
 * after it).  Returns 1 for a line, 0 at the end of input, PB_ERANGE for a line
 * longer than max bytes without a '\n' (*len = max), PB_EIO on a read
 * error (errno says why), PB_ENOMEM. */
int pb_files_getline(FILE *fp, char **buf, size_t *cap, size_t max, size_t *len);

/* Parse a size in bytes: digits with an optional K, M, G or T (powers of
 * 1024) and an optional B ("1G", "512M", "100000").  At least 1.  Returns
 * PB_OK with *out, or PB_EPARSE. */
int pb_size_parse(const char *s, size_t *out);

/* Forget every file noted so far (a program or test that runs several
 * independent jobs in one process). */
void pb_files_reset(void);

/* Used by pb_out (pb_cli.h): the checks of an output before it is
 * created.  path as the user gave it; *target gets the malloc'd path that
 * will be replaced (links followed), or NULL when the output is written
 * directly (a character device, a pipe) or is the run's own standard
 * output (*is_stdout set).  Returns PB_OK, PB_EINVAL (a folder, an empty
 * name, the same file as an input or another output: err names both),
 * PB_EIO, PB_ENOMEM. */
int pb_files_output_check(const char *path, const char *const *inputs,
                          size_t ninputs, char **target, int *is_stdout,
                          pb_error *err);

/* Note an output accepted by pb_files_output_check: its name, the path it
 * replaces (NULL if none) and the descriptor written (its temporary file,
 * or the device; -1 for stdout); *id gets its handle.  Returns PB_OK or
 * PB_ENOMEM. */
int pb_files_output_add(const char *path, const char *target, int fd,
                        long *id, pb_error *err);

/* Forget the output `id` (given up: nothing was written).  An output that
 * was committed stays noted, so no later output of the run replaces it. */
void pb_files_output_drop(long id);

#endif
