/*
 * pb_tmp.h - anonymous temporary files in $TMPDIR.
 *
 * Spools (the assignment table of sliding-window nesting, the copy of
 * standard input its second pass reads) can be as large as the trace: they
 * go where the user says ($TMPDIR, else /tmp), not where tmpfile() puts
 * them, and they are unlinked as soon as they are created, so they vanish
 * on every exit path (errors, signals, crashes included).
 */
#ifndef PB_TMP_H
#define PB_TMP_H

#include <stdio.h>

/* Create a temporary file in $TMPDIR (or /tmp when unset or empty), open
 * it for reading and writing ("w+b") and unlink it at once.  tag goes into
 * the name for the moment the file has one (letters only, may be NULL).
 * The FILE is owned by the caller (fclose frees the disk space).  Returns
 * it, or NULL with errno set (directory missing, not writable, no memory). */
FILE *pb_tmpfile(const char *tag);

#endif
