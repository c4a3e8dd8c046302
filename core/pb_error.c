#include "pb_error.h"

#include <stdarg.h>
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

int pb_error_set(pb_error *err, int code, const char *file, long line,
                 long column, const char *fmt, ...)
{
    if (!err)
        return code;
    err->code = code;
    if (file) {
        strncpy(err->file, file, sizeof err->file - 1);
        err->file[sizeof err->file - 1] = '\0';
    } else {
        err->file[0] = '\0';
    }
    err->line = line;
    err->column = column;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    } else {
        snprintf(err->msg, sizeof err->msg, "%s", pb_strerror(code));
    }
    return code;
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
