#include "pb_strbuf.h"
#include "pb_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(pb_strbuf *b, size_t extra)
{
    if (b->cap - b->len > extra)
        return PB_OK;
    size_t nc = b->cap ? b->cap : 64;
    while (nc - b->len <= extra)
        nc *= 2;
    char *ns = realloc(b->s, nc);
    if (!ns)
        return PB_ENOMEM;
    b->s = ns;
    b->cap = nc;
    return PB_OK;
}

int pb_strbuf_append(pb_strbuf *b, const char *s, size_t len)
{
    if (reserve(b, len) != PB_OK)
        return PB_ENOMEM;
    memcpy(b->s + b->len, s, len);
    b->len += len;
    b->s[b->len] = '\0';
    return PB_OK;
}

int pb_strbuf_puts(pb_strbuf *b, const char *s)
{
    return pb_strbuf_append(b, s, strlen(s));
}

int pb_strbuf_putc(pb_strbuf *b, char c)
{
    return pb_strbuf_append(b, &c, 1);
}

int pb_strbuf_printf(pb_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return PB_EINVAL;
    if (reserve(b, (size_t)n) != PB_OK)
        return PB_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return PB_OK;
}

const char *pb_strbuf_str(const pb_strbuf *b)
{
    return b->s ? b->s : "";
}

void pb_strbuf_reset(pb_strbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

char *pb_strbuf_take(pb_strbuf *b)
{
    char *s = b->s;
    if (!s)
        s = calloc(1, 1);
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void pb_strbuf_free(pb_strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

char *pb_num_format(double v, char *buf)
{
    /* small whole numbers without printf (confidences of 0 and 1 fill
     * whole assignment tables): the same text as "%.0f" */
    if (v == floor(v) && v >= 0 && !signbit(v) && v < 1e9) {
        char t[16];
        unsigned long u = (unsigned long)v;
        int n = 0;
        do
            t[n++] = (char)('0' + u % 10);
        while ((u /= 10) > 0);
        for (int i = 0; i < n; i++)
            buf[i] = t[n - 1 - i];
        buf[n] = '\0';
        return buf;
    }
    /* whole numbers below 10^15 in full: "100", not "1e+02" */
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, PB_NUM_BUF, "%.0f", v);
        return buf;
    }
    /* a value with at most six decimals in [1e-4, 1e9) (confidences are
     * rounded so): "%.6f" without its trailing zeros is the shortest text
     * that reads back as v (two decimals with six places or fewer are at
     * least 1e-6 apart, so no shorter one reads back as v too, and "%g"
     * writes no exponent there), i.e. what the loop below finds, with one
     * snprintf and one strtod instead of up to seven of each */
    if (fabs(v) >= 1e-4 && fabs(v) < 1e9) {
        int n = snprintf(buf, PB_NUM_BUF, "%.6f", v);
        if (n > 0 && n < PB_NUM_BUF && strtod(buf, NULL) == v) {
            while (n > 0 && buf[n - 1] == '0')
                buf[--n] = '\0';
            if (n > 0 && buf[n - 1] == '.')
                buf[--n] = '\0';
            if (strtod(buf, NULL) == v)
                return buf;
        }
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, PB_NUM_BUF, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return buf;
    }
    return buf;
}
