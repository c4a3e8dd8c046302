/*
 * pb_trace_int.h - what the three files of the trace module share.  Not
 * for programs.
 *
 *   pb_trace.c        names and labels, column names, the in-memory trace
 *   pb_trace_read.c   the streaming reader (CSV through libcsv, P5 format)
 *   pb_trace_write.c  the CSV writer
 */
#ifndef PB_TRACE_INT_H
#define PB_TRACE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "pb_trace.h"

/* Column kinds: bit k of a column set (PB_COL_*) is column
 * pb_trace_column_names[k] of a CSV header. */
#define NCOLUMN_KINDS 14
extern const char *const pb_trace_column_names[NCOLUMN_KINDS];

/* Writes v in decimal into buf (at least 21 bytes), '\0'-terminated.
 * Returns the number of digits. */
size_t pb_trace_u64_format(uint64_t v, char *buf);

/* Appends a copy of s[0, len) as a '\0'-terminated string to the array
 * *meta of *n strings (growing it; the caller frees every string and the
 * array).  Returns PB_OK or PB_ENOMEM (then *meta and *n are still valid
 * and owned by the caller). */
int pb_trace_meta_add(char ***meta, size_t *n, const char *s, size_t len);
/* Append a copy of the NUL-terminated metadata line LINE, its line breaks
 * written as the two characters \\n / \\r so that it stays one line of
 * the file.  PB_OK or PB_ENOMEM. */
int pb_trace_meta_add_line(char ***meta, size_t *n, const char *line);

#endif
