#include "pb_error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *pb_strerror(int code)
{
    switch (code) {
    case PB_OK: return "success";
    case PB_ENOMEM: return "out of memory";
    case PB_EIO: return "input/output error";
    case PB_EPARSE: return "malformed input";
    case PB_EINVAL: return "invalid argument";
    case PB_ENOTIMPL: return "not implemented";
    case PB_ERANGE: return "value out of range";
    case PB_EORDER: return "rows out of time order";
    case PB_EDUP: return "duplicate identifier";
    case PB_ENOENT: return "no such name or id";
    case PB_ESTATE: return "call made in the wrong state";
    default: return "unknown error";
    }
}

void pb_error_clear(pb_error *err)
{
    if (!err)
        return;
    err->code = PB_OK;
    err->file[0] = '\0';
    err->line = 0;
    err->column = 0;
    err->msg[0] = '\0';
}

/* A long message is one that quotes a long field: copy it to out (size n)
 * with every quoted span longer than PB_ERROR_QUOTE_MAX bytes cut to that
 * many, then "...", so that what comes after the field (what was
 * expected) is kept. */
static void shorten_quotes(const char *s, char *out, size_t n)
{
    size_t o = 0;
    while (*s && o + 1 < n) {
        if (*s != '"') {
            out[o++] = *s++;
            continue;
        }
        const char *close = strchr(s + 1, '"');
        size_t inner = close ? (size_t)(close - s - 1) : strlen(s + 1);
        size_t keep = inner > PB_ERROR_QUOTE_MAX ? PB_ERROR_QUOTE_MAX : inner;
        char piece[PB_ERROR_QUOTE_MAX + 8];
        size_t pl = 0;
        piece[pl++] = '"';
        memcpy(piece + pl, s + 1, keep);
        pl += keep;
        if (keep < inner) {
            memcpy(piece + pl, "...", 3);
            pl += 3;
        }
        if (close)
            piece[pl++] = '"';
        for (size_t k = 0; k < pl && o + 1 < n; k++)
            out[o++] = piece[k];
        s = close ? close + 1 : s + 1 + inner;
    }
    out[o] = '\0';
}

int pb_error_vset(pb_error *err, int code, const char *file, long line,
                  long column, const char *fmt, va_list ap)
{
    if (!err)
        return code;
    err->code = code;
    /* the file and the message may be the error's own (a caller adding
     * its file to a message set without one: "%s", err->msg): formatted
     * aside first, never read while written (the message came out empty,
     * "invalid argument") */
    if (file && file != err->file) {
        strncpy(err->file, file, sizeof err->file - 1);
        err->file[sizeof err->file - 1] = '\0';
    } else if (!file) {
        err->file[0] = '\0';
    }
    err->line = line;
    err->column = column;
    if (fmt) {
        va_list ap2;
        va_copy(ap2, ap);
        char msg[sizeof err->msg];
        int need = vsnprintf(msg, sizeof msg, fmt, ap);
        char *full;
        if (need >= PB_ERROR_QUOTE_FROM && (full = malloc((size_t)need + 1))) {
            vsnprintf(full, (size_t)need + 1, fmt, ap2);
            shorten_quotes(full, msg, sizeof msg);
            free(full);
        }
        va_end(ap2);
        memcpy(err->msg, msg, sizeof msg);
    } else {
        snprintf(err->msg, sizeof err->msg, "%s", pb_strerror(code));
    }
    return code;
}

int pb_error_set(pb_error *err, int code, const char *file, long line,
                 long column, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = pb_error_vset(err, code, file, line, column, fmt, ap);
    va_end(ap);
    return rc;
}

char *pb_error_format(const pb_error *err, char *buf, size_t n)
{
    if (!buf || n == 0)
        return buf;
    if (!err) {
        snprintf(buf, n, "(no error)");
        return buf;
    }
    size_t used = 0;
    buf[0] = '\0';
    if (err->file[0]) {
        int k = snprintf(buf, n, "%s:", err->file);
        used = k > 0 ? (size_t)k : 0;
        if (used < n && err->line > 0) {
            k = snprintf(buf + used, n - used, "%ld:", err->line);
            used += k > 0 ? (size_t)k : 0;
        }
        if (used < n && err->column > 0) {
            k = snprintf(buf + used, n - used, "%ld:", err->column);
            used += k > 0 ? (size_t)k : 0;
        }
        if (used < n) {
            k = snprintf(buf + used, n - used, " ");
            used += k > 0 ? (size_t)k : 0;
        }
    }
    if (used < n)
        snprintf(buf + used, n - used, "%s",
                 err->msg[0] ? err->msg : pb_strerror(err->code));
    return buf;
}

void pb_error_print(FILE *fp, const char *prog, const pb_error *err)
{
    char buf[PB_ERROR_MSG_MAX + PB_ERROR_FILE_MAX + 64];
    pb_error_format(err, buf, sizeof buf);
    if (prog)
        fprintf(fp, "%s: %s\n", prog, buf);
    else
        fprintf(fp, "%s\n", buf);
}

const char *pb_text_hint(const char *start, size_t n)
{
    const unsigned char *u = (const unsigned char *)start;
    int bom = n >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) ||
                         (u[0] == 0xFE && u[1] == 0xFF));
    int alt = n >= 4 && ((u[0] && !u[1] && u[2] && !u[3]) ||
                         (!u[0] && u[1] && !u[2] && u[3]));
    if (bom || alt)
        return "UTF-16 text, as PowerShell's '>' writes it: iconv -f UTF-16 "
               "-t UTF-8 converts it";
    return "a binary or corrupt file?";
}
