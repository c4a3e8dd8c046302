/*
 * pb_strbuf.h - a growable NUL-terminated string.
 *
 * A zero-initialized pb_strbuf is empty and valid; pb_strbuf_free releases
 * it.  Append functions return PB_OK or PB_ENOMEM (the buffer keeps what it
 * had).
 */
#ifndef PB_STRBUF_H
#define PB_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct pb_strbuf {
    char *s;     /* NUL-terminated once anything was appended; may be NULL */
    size_t len;
    size_t cap;
} pb_strbuf;

int pb_strbuf_append(pb_strbuf *b, const char *s, size_t len);
int pb_strbuf_puts(pb_strbuf *b, const char *s);
int pb_strbuf_putc(pb_strbuf *b, char c);
int pb_strbuf_printf(pb_strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The text so far ("" when empty); owned by the buffer. */
const char *pb_strbuf_str(const pb_strbuf *b);
/* Empty the buffer, keeping its memory. */
void pb_strbuf_reset(pb_strbuf *b);

/* Write v in its shortest exact form into buf (at least PB_NUM_BUF
 * bytes): the shortest %.Ng (N = 1..17) that strtod reads back to the
 * same double ("0.15", "1e-09", "1e+15"); whole numbers below 10^15 in full
 * ("2147483647", "100").  Returns buf. */
#define PB_NUM_BUF 32
char *pb_num_format(double v, char *buf);
/* Hand the string to the caller (who frees it) and empty the buffer.
 * Returns NULL only if nothing was ever appended and malloc fails. */
char *pb_strbuf_take(pb_strbuf *b);
void pb_strbuf_free(pb_strbuf *b);

#endif
