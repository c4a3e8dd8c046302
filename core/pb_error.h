/*
 * pb_error.h - error codes and located error messages for the pathbench core.
 *
 * The library never prints and never exits.  Every fallible function returns
 * a pb_status (0 = PB_OK, negative = failure) and, when given a non-NULL
 * pb_error, fills it with the code, the place (file, line, column) and a
 * message that says what was expected.  Programs print it with
 * pb_error_format() or pb_error_print().
 */
#ifndef PB_ERROR_H
#define PB_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

typedef enum pb_status {
    PB_OK = 0,
    PB_ENOMEM = -1,    /* out of memory */
    PB_EIO = -2,       /* cannot open, read or write a file */
    PB_EPARSE = -3,    /* malformed input: see the message for what/where */
    PB_EINVAL = -4,    /* invalid argument or option value */
    PB_ENOTIMPL = -5,  /* feature not implemented */
    PB_ERANGE = -6,    /* value out of range (overflow, limits) */
    PB_EORDER = -7,    /* input rows not in time order */
    PB_EDUP = -8,      /* duplicate identifier */
    PB_ENOENT = -9,    /* a name or id that refers to nothing */
    PB_ESTATE = -10    /* call made in the wrong state */
} pb_status;

#define PB_ERROR_MSG_MAX 512
/* Messages of PB_ERROR_QUOTE_FROM bytes or more have each quoted span cut
 * to PB_ERROR_QUOTE_MAX bytes and "...", so that a long field never pushes
 * what was expected off the end of the message. */
#define PB_ERROR_QUOTE_FROM 160
#define PB_ERROR_QUOTE_MAX 40
#define PB_ERROR_FILE_MAX 256

/* A located error.  line and column are 1-based; 0 means "not applicable".
 * column is the 1-based field number for CSV input (the message also names
 * the column), or the character column for line-oriented formats. */
typedef struct pb_error {
    int code;
    char file[PB_ERROR_FILE_MAX];
    long line;
    long column;
    char msg[PB_ERROR_MSG_MAX];
} pb_error;

/* Text for a status code, like strerror().  Never NULL. */
const char *pb_strerror(int code);

/* Clear an error record (code PB_OK, empty strings).  NULL-safe. */
void pb_error_clear(pb_error *err);

/* Fill err (if non-NULL) and return code, so callers can write
 * `return pb_error_set(err, PB_EPARSE, file, line, col, "expected %s", x);`.
 * file may be NULL. */
int pb_error_set(pb_error *err, int code, const char *file, long line,
                 long column, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* pb_error_set with a va_list, for wrappers that take a format. */
int pb_error_vset(pb_error *err, int code, const char *file, long line,
                  long column, const char *fmt, va_list ap);

/* Render "file:line:column: message" (parts that are unset are left out)
 * into buf of size n.  Returns buf. */
char *pb_error_format(const pb_error *err, char *buf, size_t n);

/* What text holding a NUL byte probably is, for an error message, given
 * the first bytes of the file (n of them, at least 4 when there are): "UTF-16
 * text, as PowerShell's '>' writes it: iconv ... converts it" when it starts with
 * a UTF-16 byte-order mark or its first characters alternate with NUL
 * bytes (what PowerShell's '>' and some Windows exporters write), else "a
 * binary or corrupt file?".  A static string. */
const char *pb_text_hint(const char *start, size_t n);

/* Convenience for programs: print "prog: file:line:col: message\n" to fp. */
void pb_error_print(FILE *fp, const char *prog, const pb_error *err);

#endif
