/*
 * pb_trace_read.c - the streaming trace reader of pb_trace.h: CSV through
 * libcsv, or the Project 5 whitespace format; id and cause checks.
 */
#include "pb_files.h"
#include "pb_trace.h"
#include "pb_hash.h"
#include "pb_trace_int.h"
#include "pb_mem.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void pb_reader_opts_default(pb_reader_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->format = PB_FORMAT_AUTO;
    opts->check_ids = 1;
}

/* ------------------------------------------------------------------ */
/* id set.  Traces almost always number their rows in increasing order, so
 * ids are first kept as a sorted array (8 bytes a message, and a cause is
 * found by galloping back from the newest id, since causes are recent).
 * The first id that is not larger than all before moves everything into an
 * open-addressing hash on id+1 (0 = empty slot). */

typedef struct idset {
    uint64_t *sorted;       /* while sorted mode */
    size_t nsorted, capsorted;
    uint64_t *slots;        /* hash mode when non-NULL */
    size_t cap, count;
} idset;

static int idset_has(const idset *s, uint64_t id)
{
    if (!s->slots) {
        size_t n = s->nsorted;
        if (!n || id > s->sorted[n - 1])
            return 0;
        /* gallop back from the end, then binary search */
        size_t step = 1, hi = n - 1, lo;
        while (step <= hi && s->sorted[hi - step] >= id)
            step *= 2;
        lo = step <= hi ? hi - step : 0;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->sorted[mid] < id)
                lo = mid + 1;
            else
                hi = mid;
        }
        return s->sorted[lo] == id;
    }
    uint64_t key = id + 1;
    size_t j = pb_mix64(key) & (s->cap - 1);
    while (s->slots[j]) {
        if (s->slots[j] == key)
            return 1;
        j = (j + 1) & (s->cap - 1);
    }
    return 0;
}

static int idset_hash_insert(idset *s, uint64_t id)
{
    if ((s->count + 1) * 4 > s->cap * 3) {
        size_t nc = s->cap ? s->cap * 2 : 1024;
        uint64_t *ns = calloc(nc, sizeof *ns);
        if (!ns)
            return PB_ENOMEM;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slots[i])
                continue;
            size_t j = pb_mix64(s->slots[i]) & (nc - 1);
            while (ns[j])
                j = (j + 1) & (nc - 1);
            ns[j] = s->slots[i];
        }
        free(s->slots);
        s->slots = ns;
        s->cap = nc;
    }
    uint64_t key = id + 1;
    size_t j = pb_mix64(key) & (s->cap - 1);
    while (s->slots[j]) {
        if (s->slots[j] == key)
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->slots[j] = key;
    s->count++;
    return 1;
}

/* Returns 1 if inserted, 0 if already there, negative on ENOMEM. */
static int idset_add(idset *s, uint64_t id)
{
    if (!s->slots) {
        if (!s->nsorted || id > s->sorted[s->nsorted - 1]) {
            if (pb_grow(&s->sorted, sizeof *s->sorted, &s->capsorted, s->nsorted + 1,
                        4096) != PB_OK)
                return PB_ENOMEM;
            s->sorted[s->nsorted++] = id;
            return 1;
        }
        if (idset_has(s, id))
            return 0;
        /* out of order: switch to the hash for good */
        s->slots = calloc(1024, sizeof *s->slots);
        if (!s->slots)
            return PB_ENOMEM;
        s->cap = 1024;
        for (size_t i = 0; i < s->nsorted; i++)
            if (idset_hash_insert(s, s->sorted[i]) < 0)
                return PB_ENOMEM;
        free(s->sorted);
        s->sorted = NULL;
        s->nsorted = s->capsorted = 0;
    }
    return idset_hash_insert(s, id);
}

static void idset_free(idset *s)
{
    free(s->sorted);
    free(s->slots);
}

/* The duplicate-id check of a stream that never looks an id up (causes may
 * dangle: skewer, sniffer), in memory that follows how far ids are from
 * their order, not how many there are.  Every id in [first, base) has
 * been seen (a duplicate if it comes again); ids from base on are bits of
 * a window that drops its leading words once they are full; ids below the
 * first one go to a hash (rare: the first rows swapped).  Dense ids cost a
 * bit each at most (after the first id that never comes: a trace that
 * lost messages); ids far apart (more than 64 bits of window per id seen)
 * move the window's ids into the hash, 8-16 bytes an id, as before. */
typedef struct idwin {
    int started;
    uint64_t first, base;
    uint64_t *w;          /* w[lo..nw): bits of ids base, base + 1, ... */
    size_t lo, nw, capw;
    size_t count;         /* ids in the window */
    idset low;            /* ids below first; and all ids once sparse */
    int sparse;
} idwin;

/* Returns 1 if new, 0 if seen before, PB_ENOMEM. */
static int idwin_add(idwin *s, uint64_t id)
{
    if (!s->started) {
        s->started = 1;
        s->first = s->base = id;
    }
    if (id < s->first)
        return idset_add(&s->low, id);
    if (id < s->base)
        return 0;
    if (s->sparse)
        return idset_add(&s->low, id);
    uint64_t off = id - s->base, word = off / 64 + s->lo;
    if (word >= s->nw) {
        size_t live = s->nw - s->lo, need = (size_t)(word - s->lo) + 1;
        if (off / 64 > (uint64_t)(s->count + 1024)) {
            /* far apart: the window's ids into the hash, for good */
            for (size_t k = s->lo; k < s->nw; k++)
                for (unsigned b = 0; b < 64; b++)
                    if ((s->w[k] >> b & 1) &&
                        idset_add(&s->low, s->base + 64 * (k - s->lo) + b) < 0)
                        return PB_ENOMEM;
            free(s->w);
            s->w = NULL;
            s->lo = s->nw = s->capw = 0;
            s->sparse = 1;
            return idset_add(&s->low, id);
        }
        if (s->lo > 0) { /* slide the live words down first */
            memmove(s->w, s->w + s->lo, live * sizeof *s->w);
            s->nw = live;
            word -= s->lo;
            s->lo = 0;
        }
        if (pb_grow(&s->w, sizeof *s->w, &s->capw, need, 64) != PB_OK)
            return PB_ENOMEM;
        memset(s->w + s->nw, 0, (need - s->nw) * sizeof *s->w);
        s->nw = need;
    }
    uint64_t bit = 1ULL << (off % 64);
    if (s->w[word] & bit)
        return 0;
    s->w[word] |= bit;
    s->count++;
    while (s->lo < s->nw && s->w[s->lo] == ~0ULL) {
        s->lo++;
        s->base += 64;
        s->count -= 64;
    }
    return 1;
}

static void idwin_free(idwin *s)
{
    free(s->w);
    idset_free(&s->low);
}

/* ------------------------------------------------------------------ */
/* reader */

#define MAX_COLUMNS 64
#define READ_CHUNK (1u << 20)
/* The longest line read: a row is a few hundred bytes (names, an attr);
 * past this without a line break the input is not a trace (a binary file,
 * an endless stream), refused before it costs its size in memory */
#define PB_LINE_MAX ((size_t)64 << 20)

struct pb_reader {
    FILE *fp;
    int own_fp;
    char *name;
    pb_names *names;
    int own_names;
    pb_reader_opts opts;
    pb_format format;

    /* input buffer of whole lines */
    char *buf;
    size_t buf_len, buf_pos, buf_cap;
    int eof;
    long line; /* number of the line most recently taken from the buffer */

    /* CSV state */
    struct csv_parser csv;
    int csv_ready;
    int header_done;
    int ncols;
    unsigned *colbit;       /* [ncols] PB_COL_* of each position, 0 = ignored */
    unsigned columns;
    int too_many_fields;
    int csv_open_row;       /* libcsv is inside a row spanning lines */
    size_t csv_rows_ended;  /* rows completed, by either path */

    /* fields of the row being parsed */
    char *fbuf;
    size_t fbuf_len, fbuf_cap;
    size_t foff[MAX_COLUMNS], flen[MAX_COLUMNS];
    int fpos[MAX_COLUMNS];  /* 0-based position of each stored field */
    /* fdirect: this row's fields are fptr[j] (into the line itself, a
     * plain data line: split_plain_line), not fbuf + foff[j] */
    const char *fptr[MAX_COLUMNS];
    int fdirect;
    int nfields;            /* fields stored (ignored columns are not) */
    int nfields_all;        /* fields on the row */

    /* parsed messages waiting to be handed out */
    pb_msg *q;
    pb_obs *qo;
    pb_truth *qt;
    long *qline;
    size_t qhead, qcount, qcap;

    /* times with digits past the nanosecond, read rounded to it: how
     * many, and the first one's line and column (pb_reader_rounded) */
    size_t nrounded;
    long rounded_line, rounded_col;

    /* P5 format: a data line read while sniffing the format */
    char *pending;
    size_t pending_len;

    size_t rows;   /* data rows parsed */
    size_t count;  /* messages handed out */
    long last_line;
    pb_ns last_ts;
    int failed;
    pb_error saved;
    idset ids;
    idwin idw; /* instead of ids when no cause is looked up */
    /* causes naming a message not read yet (clock skew can put a cause
     * after its effect in ts order): checked at the end of input */
    struct fwd_cause { uint64_t id, cause; long line, col; } *fwd;
    size_t nfwd, capfwd;

    char **meta;
    size_t nmeta;
};

static int reader_fail(pb_reader *r, int code, long line, long col,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#include <stdarg.h>
static int reader_fail(pb_reader *r, int code, long line, long col,
                       const char *fmt, ...)
{
    if (r->failed)
        return r->saved.code;
    r->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    pb_error_vset(&r->saved, code, r->name, line, col, fmt, ap);
    va_end(ap);
    return code;
}

/* Get the next line [*s, *s + *len) without its newline (a trailing '\r' is
 * kept: libcsv treats it as a terminator).  include_nl: whether *len covers
 * the '\n'.  Returns 1, 0 at EOF, or negative on read error. */
static int reader_getline(pb_reader *r, char **s, size_t *len, size_t *len_nl)
{
    for (;;) {
        char *start = r->buf ? r->buf + r->buf_pos : NULL; /* no buffer before the first read */
        size_t avail = r->buf_len - r->buf_pos;
        char *nl = avail ? memchr(start, '\n', avail) : NULL;
        /* a NUL before the line's end is an error whatever follows: said
         * now, not after reading on (/dev/zero is one endless line) */
        int nul_now = !nl && !r->eof && avail && memchr(start, '\0', avail);
        if (!nl && !r->eof && !nul_now && avail > PB_LINE_MAX)
            return reader_fail(r, PB_EPARSE, r->line + 1, 0,
                               "a line longer than %u MiB without a line break; "
                               "expected a text trace, one row per line (%s)",
                               (unsigned)(PB_LINE_MAX >> 20),
                               r->line == 0 ? pb_text_hint(start, avail)
                                            : "a binary or corrupt file?");
        if (nl || (r->eof && avail) || nul_now) {
            *s = start;
            *len = nl ? (size_t)(nl - start) : avail;
            *len_nl = nl ? *len + 1 : avail;
            r->buf_pos += *len_nl;
            r->line++;
            if (r->line == 1 && *len >= 3 && !memcmp(start, "\xEF\xBB\xBF", 3)) {
                /* a UTF-8 byte-order mark starts the file: skip it */
                *s += 3;
                *len -= 3;
                *len_nl -= 3;
            }
            const char *z = memchr(*s, '\0', *len);
            if (z) {
                long field = 1;
                for (const char *c = *s; c < z; c++)
                    field += *c == ',';
                return reader_fail(r, PB_EPARSE, r->line, field,
                                   "a NUL byte at character %zu of the line; "
                                   "expected text (%s)",
                                   (size_t)(z - *s) + 1,
                                   r->line == 1 ? pb_text_hint(*s, *len)
                                                : "a binary or corrupt file?");
            }
            return 1;
        }
        if (r->eof)
            return 0;
        /* shift the partial line to the front and read more */
        if (r->buf_pos) {
            memmove(r->buf, start, avail);
            r->buf_len = avail;
            r->buf_pos = 0;
        }
        if (r->buf_cap - r->buf_len < READ_CHUNK) {
            size_t nc = r->buf_cap * 2 > r->buf_len + READ_CHUNK
                            ? r->buf_cap * 2
                            : r->buf_len + READ_CHUNK;
            char *nb = realloc(r->buf, nc);
            if (!nb)
                return reader_fail(r, PB_ENOMEM, r->line, 0, "out of memory");
            r->buf = nb;
            r->buf_cap = nc;
        }
        size_t got = fread(r->buf + r->buf_len, 1, r->buf_cap - r->buf_len, r->fp);
        r->buf_len += got;
        if (got == 0) {
            if (ferror(r->fp))
                return reader_fail(r, PB_EIO, r->line, 0, "read error: %s",
                                   strerror(errno));
            r->eof = 1;
        }
    }
}

static int queue_push(pb_reader *r, const pb_msg *m, const pb_obs *o,
                      const pb_truth *t, long line)
{
    if (r->qhead + r->qcount == r->qcap) {
        if (r->qhead) {
            memmove(r->q, r->q + r->qhead, r->qcount * sizeof *r->q);
            memmove(r->qo, r->qo + r->qhead, r->qcount * sizeof *r->qo);
            memmove(r->qt, r->qt + r->qhead, r->qcount * sizeof *r->qt);
            memmove(r->qline, r->qline + r->qhead, r->qcount * sizeof *r->qline);
            r->qhead = 0;
        } else {
            void *const arrs[] = {&r->q, &r->qo, &r->qt, &r->qline};
            const size_t sz[] = {sizeof *r->q, sizeof *r->qo, sizeof *r->qt,
                                 sizeof *r->qline};
            if (pb_grow_parallel(&r->qcap, r->qcap + 1, 256, 4, arrs, sz) != PB_OK)
                return PB_ENOMEM;
        }
    }
    size_t k = r->qhead + r->qcount++;
    r->q[k] = *m;
    if (r->columns & PB_COL_OBSERVED)
        r->qo[k] = *o; /* else never read: pb_reader_next_obs gives none */
    r->qt[k] = *t;
    r->qline[k] = line;
    return PB_OK;
}

static void show_field(char *out, size_t n, const char *s, size_t len)
{
    size_t l = len < n - 1 ? len : n - 1;
    if (len > 40)
        l = 40;
    memcpy(out, s, l);
    out[l] = '\0';
    if (len > 40 && n > 44)
        strcat(out, "...");
}

/* Checks common to both formats, then queue the message. */
static void accept_message(pb_reader *r, pb_msg *m, const pb_obs *o,
                           pb_truth *t, long line,
                           long id_col, long ts_col, long cause_col)
{
    if (m->ts < 0 && !r->opts.allow_negative_ts) {
        reader_fail(r, PB_EPARSE, line, ts_col,
                    "field %ld (ts): timestamp is negative; expected seconds >= 0",
                    ts_col);
        return;
    }
    if (m->recv_ts != PB_TS_NONE && m->recv_ts < 0 && !r->opts.allow_negative_ts) {
        reader_fail(r, PB_EPARSE, line, 0,
                    "recv_ts is negative; expected seconds >= 0");
        return;
    }
    if (r->rows > 0 && m->ts < r->last_ts && !r->opts.allow_unsorted) {
        char a[PB_SECONDS_BUF], b[PB_SECONDS_BUF];
        pb_seconds_format(m->ts, a);
        pb_seconds_format(r->last_ts, b);
        reader_fail(r, PB_EORDER, line, ts_col,
                    "row out of time order: ts %s is earlier than %s on the row "
                    "before; expected rows sorted by ts (sort the file, or "
                    "load it with re-sorting)", a, b);
        return;
    }
    if (r->opts.check_ids) {
        if (t->cause != PB_ID_NONE && !r->opts.allow_dangling_causes &&
            !idset_has(&r->ids, t->cause)) {
            if (pb_grow(&r->fwd, sizeof *r->fwd, &r->capfwd, r->nfwd + 1, 64) != PB_OK) {
                reader_fail(r, PB_ENOMEM, line, 0, "out of memory");
                return;
            }
            r->fwd[r->nfwd++] = (struct fwd_cause){m->id, t->cause, line, cause_col};
        }
        int added = r->opts.allow_dangling_causes ? idwin_add(&r->idw, m->id)
                                                  : idset_add(&r->ids, m->id);
        if (added < 0) {
            reader_fail(r, PB_ENOMEM, line, 0, "out of memory");
            return;
        }
        if (added == 0) {
            reader_fail(r, PB_EDUP, line, id_col,
                        "field %ld (id): duplicate message id %llu; expected "
                        "unique ids", id_col, (unsigned long long)m->id);
            return;
        }
    }
    r->last_ts = m->ts;
    r->rows++;
    if (queue_push(r, m, o, t, line) != PB_OK)
        reader_fail(r, PB_ENOMEM, line, 0, "out of memory");
}

static int parse_u64(const char *s, size_t len, uint64_t *out)
{
    if (len == 0 || len > 20)
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - 1 - d) / 10)
            return 0; /* UINT64_MAX itself is reserved for "none" */
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

static int parse_time_field(pb_reader *r, const char *s, size_t len, long line,
                            long col, const char *what, pb_ns *out)
{
    int rc = pb_seconds_parse(s, len, out);
    if (rc == PB_OK) {
        /* more than nine decimals only when no '.' is in the last ten
         * bytes: in a time pathbench wrote (nine decimals) the first
         * byte looked at is the '.' */
        if (len <= 10 || s[len - 10] == '.')
            return PB_OK;
        size_t k = len - 9;
        while (k < len && s[k] != '.')
            k++;
        if (k < len || !pb_seconds_past_ns(s, len))
            return PB_OK;
    }
    if (rc == PB_OK) {
        /* more precision than a trace holds (DESIGN.md: files keep at
         * least the nanosecond; a time written from a float,
         * 0.30000000000000004): read rounded to the nanosecond, counted,
         * and said by the program with the first one's place */
        if (!r->nrounded++) {
            r->rounded_line = line;
            r->rounded_col = col;
        }
        return PB_OK;
    }
    char shown[64];
    show_field(shown, sizeof shown, s, len);
    if (rc == PB_ERANGE)
        return reader_fail(r, PB_EPARSE, line, col,
                           "field %ld (%s): timestamp \"%s\" is out of range; "
                           "expected decimal seconds below 9.2e9",
                           col, what, shown);
    /* a number with an exponent (1e-05: what pandas and printf's %g
     * write for small values) is not read: said as such, with the way
     * to write it */
    if (len < 64 && (memchr(s, 'e', len) || memchr(s, 'E', len))) {
        char tmp[64], *end;
        memcpy(tmp, s, len);
        tmp[len] = 0;
        double v = strtod(tmp, &end);
        if (end == tmp + len && len && isfinite(v))
            return reader_fail(r, PB_EPARSE, line, col,
                               "field %ld (%s): \"%s\" has an exponent, which "
                               "trace files do not use; expected decimal seconds "
                               "([-]D[.D], such as %.9f; pandas: "
                               "float_format=\"%%.9f\")", col, what, shown, v);
    }
    return reader_fail(r, PB_EPARSE, line, col,
                       "field %ld (%s): expected a finite decimal number of "
                       "seconds, got \"%s\"", col, what, shown);
}

static unsigned column_bit(const char *f, size_t l)
{
    for (unsigned k = 0; k < NCOLUMN_KINDS; k++)
        if (strlen(pb_trace_column_names[k]) == l && !memcmp(pb_trace_column_names[k], f, l))
            return 1u << k;
    return 0;
}

static void header_row(pb_reader *r, long line)
{
    r->ncols = r->nfields_all;
    r->colbit = calloc(r->ncols ? (size_t)r->ncols : 1, sizeof *r->colbit);
    if (!r->colbit) {
        reader_fail(r, PB_ENOMEM, line, 0, "out of memory");
        return;
    }
    unsigned seen = 0;
    for (int j = 0; j < r->nfields; j++) {
        const char *f = r->fbuf + r->foff[j];
        size_t l = r->flen[j];
        int i = r->fpos[j];
        unsigned bit = column_bit(f, l);
        if (!bit && !r->opts.ignore_unknown_columns) {
            char shown[64];
            show_field(shown, sizeof shown, f, l);
            reader_fail(r, PB_EPARSE, line, i + 1,
                        "header field %d: unknown column \"%s\"; expected one of "
                        "id, ts, recv_ts, src, dst, type, callid, path, cause, thread, "
                        "sthread, conn, attr, size",
                        i + 1, shown);
            return;
        }
        if (bit & seen) {
            reader_fail(r, PB_EPARSE, line, i + 1,
                        "header field %d: column \"%s\" appears twice", i + 1,
                        pb_column_name(bit));
            return;
        }
        seen |= bit;
        r->colbit[i] = bit;
    }
    r->columns = seen;
    unsigned missing = PB_COL_REQUIRED & ~seen;
    if (!missing && (seen & PB_COL_TRUTH) && !(seen & PB_COL_ID))
        missing = PB_COL_ID;
    if (missing) {
        for (unsigned k = 0; k < NCOLUMN_KINDS; k++)
            if (missing & (1u << k)) {
                reader_fail(r, PB_EPARSE, line, 0,
                            "header: missing required column \"%s\"%s",
                            pb_trace_column_names[k],
                            (1u << k) == PB_COL_ID
                                ? " (required when truth columns are present)"
                                : "");
                return;
            }
    }
    r->header_done = 1;
}

static void data_row(pb_reader *r, long line)
{
    if (r->nfields_all != r->ncols) {
        reader_fail(r, PB_EPARSE, line,
                    r->nfields_all > r->ncols ? r->ncols + 1 : r->nfields_all,
                    "expected %d fields as in the header, got %d", r->ncols,
                    r->nfields_all);
        return;
    }
    pb_msg m;
    pb_obs o = PB_OBS_NONE;
    pb_truth t;
    memset(&m, 0, sizeof m);
    m.id = r->rows + 1;
    m.recv_ts = PB_TS_NONE;
    m.callid = PB_ID_NONE;
    m.type = PB_TYPE_MSG;
    t.path = PB_ID_NONE;
    t.cause = PB_ID_NONE;
    long id_col = 0, ts_col = 0, cause_col = 0;
    for (int j = 0; j < r->nfields; j++) {
        const char *f = r->fdirect ? r->fptr[j] : r->fbuf + r->foff[j];
        size_t l = r->flen[j];
        int i = r->fpos[j];
        long col = i + 1;
        char shown[64];
        switch (r->colbit[i]) {
        case PB_COL_ID:
            id_col = col;
            if (!parse_u64(f, l, &m.id)) {
                show_field(shown, sizeof shown, f, l);
                reader_fail(r, PB_EPARSE, line, col,
                            "field %ld (id): expected an unsigned integer, got \"%s\"",
                            col, shown);
                return;
            }
            break;
        case PB_COL_TS:
            ts_col = col;
            if (parse_time_field(r, f, l, line, col, "ts", &m.ts) != PB_OK)
                return;
            break;
        case PB_COL_RECV_TS:
            if (l && parse_time_field(r, f, l, line, col, "recv_ts", &m.recv_ts) != PB_OK)
                return;
            break;
        case PB_COL_SRC:
        case PB_COL_DST: {
            const char *what = r->colbit[i] == PB_COL_SRC ? "src" : "dst";
            if (l == 0) {
                reader_fail(r, PB_EPARSE, line, col,
                            "field %ld (%s): empty node name; expected a name",
                            col, what);
                return;
            }
            uint32_t idx;
            if (pb_strtab_intern(r->names->nodes, f, l, &idx) != PB_OK) {
                reader_fail(r, PB_ENOMEM, line, col, "out of memory");
                return;
            }
            if (r->colbit[i] == PB_COL_SRC)
                m.src = idx;
            else
                m.dst = idx;
            break;
        }
        case PB_COL_TYPE:
            if (l == 0 || (l == 3 && !memcmp(f, "msg", 3)))
                m.type = PB_TYPE_MSG;
            else if (l == 4 && !memcmp(f, "call", 4))
                m.type = PB_TYPE_CALL;
            else if (l == 6 && !memcmp(f, "return", 6))
                m.type = PB_TYPE_RETURN;
            else {
                show_field(shown, sizeof shown, f, l);
                reader_fail(r, PB_EPARSE, line, col,
                            "field %ld (type): unknown type \"%s\"; expected call, "
                            "return or msg", col, shown);
                return;
            }
            break;
        case PB_COL_CALLID:
            if (pb_label_parse(r->names, f, l, &m.callid) != PB_OK) {
                reader_fail(r, PB_ENOMEM, line, col, "out of memory");
                return;
            }
            break;
        case PB_COL_THREAD:
        case PB_COL_STHREAD:
        case PB_COL_CONN:
        case PB_COL_ATTR: {
            uint32_t *dstp = r->colbit[i] == PB_COL_THREAD    ? &o.thread
                             : r->colbit[i] == PB_COL_STHREAD ? &o.sthread
                             : r->colbit[i] == PB_COL_CONN    ? &o.conn
                                                              : &o.attr;
            if (pb_obs_label(r->names, f, l, dstp) != PB_OK) {
                reader_fail(r, PB_ENOMEM, line, col, "out of memory");
                return;
            }
            break;
        }
        case PB_COL_SIZE: {
            uint64_t v;
            if (l && (!parse_u64(f, l, &v) || v >= PB_SIZE_NONE)) {
                show_field(shown, sizeof shown, f, l);
                reader_fail(r, PB_EPARSE, line, col,
                            "field %ld (size): expected a byte count below "
                            "4294967295 or empty, got \"%s\"", col, shown);
                return;
            }
            if (l)
                o.size = (uint32_t)v;
            break;
        }
        case PB_COL_PATH:
            if (pb_label_parse(r->names, f, l, &t.path) != PB_OK) {
                reader_fail(r, PB_ENOMEM, line, col, "out of memory");
                return;
            }
            break;
        case PB_COL_CAUSE:
            cause_col = col;
            if (l && !parse_u64(f, l, &t.cause)) {
                show_field(shown, sizeof shown, f, l);
                reader_fail(r, PB_EPARSE, line, col,
                            "field %ld (cause): expected the id of an earlier "
                            "message or empty, got \"%s\"", col, shown);
                return;
            }
            break;
        default:
            break; /* ignored unknown column */
        }
    }
    accept_message(r, &m, &o, &t, line, id_col, ts_col, cause_col);
}

static void csv_field_cb(void *s, size_t len, void *data)
{
    pb_reader *r = data;
    int pos = r->nfields_all++;
    /* ignored columns are counted, not stored, so that the field limit
     * applies only to columns that are read */
    if (r->header_done) {
        if (pos >= r->ncols || !r->colbit[pos])
            return;
    } else if (r->opts.ignore_unknown_columns && !column_bit(s, len)) {
        return;
    }
    if (r->nfields >= MAX_COLUMNS) {
        r->too_many_fields = 1;
        return;
    }
    if (r->fbuf_len + len + 1 > r->fbuf_cap) {
        size_t nc = (r->fbuf_len + len + 1) * 2;
        char *nb = realloc(r->fbuf, nc);
        if (!nb) {
            reader_fail(r, PB_ENOMEM, r->line, 0, "out of memory");
            return;
        }
        r->fbuf = nb;
        r->fbuf_cap = nc;
    }
    if (len)
        memcpy(r->fbuf + r->fbuf_len, s, len);
    r->foff[r->nfields] = r->fbuf_len;
    r->flen[r->nfields] = len;
    r->fpos[r->nfields] = pos;
    r->fbuf_len += len;
    r->fbuf[r->fbuf_len++] = '\0';
    r->nfields++;
}

/* csv_field_cb for a field of a plain data line (the header read): the
 * same checks, the field left where it is in the line (data_row reads
 * every field by its length, none needs a terminating NUL) */
static inline void plain_field(pb_reader *r, const char *s, size_t len)
{
    int pos = r->nfields_all++;
    if (pos >= r->ncols || !r->colbit[pos])
        return;
    if (r->nfields >= MAX_COLUMNS) {
        r->too_many_fields = 1;
        return;
    }
    r->fptr[r->nfields] = s;
    r->flen[r->nfields] = len;
    r->fpos[r->nfields] = pos;
    r->nfields++;
}

static void csv_row_cb(int c, void *data)
{
    (void)c;
    pb_reader *r = data;
    if (!r->failed && r->too_many_fields && !r->header_done)
        header_row(r, r->line); /* an unknown column is the better message */
    if (!r->failed) {
        if (r->too_many_fields)
            reader_fail(r, PB_EPARSE, r->line, MAX_COLUMNS,
                        "more than %d fields on a row; expected at most one "
                        "field per known column", MAX_COLUMNS);
        else if (!r->header_done)
            header_row(r, r->line);
        else
            data_row(r, r->line);
    }
    r->nfields = 0;
    r->nfields_all = 0;
    r->fbuf_len = 0;
    r->too_many_fields = 0;
    r->csv_rows_ended++;
}

/* A line with no quote, outside any quoted field, splits at its commas
 * exactly as libcsv would split it (fields trimmed of spaces and tabs, a
 * trailing CR ending the row); that covers nearly every row of a trace, and
 * splitting it here is several times faster than going through the
 * character-at-a-time parser.  Everything else goes to libcsv. */
static int split_plain_line(pb_reader *r, const char *s, size_t len)
{
    while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
        len--;
    if (len == 0)
        return PB_OK; /* libcsv skips blank rows too */
    size_t start = 0;
    /* a data line's fields stay in the line (plain_field): no copy; the
     * header goes through csv_field_cb (header_row reads NUL-ended names) */
    int direct = r->header_done;
    r->fdirect = direct;
    for (;;) {
        const char *comma = memchr(s + start, ',', len - start);
        size_t end = comma ? (size_t)(comma - s) : len;
        size_t a = start, b = end;
        while (a < b && (s[a] == ' ' || s[a] == '\t'))
            a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
            b--;
        if (direct)
            plain_field(r, s + a, b - a);
        else
            csv_field_cb((void *)(s + a), b - a, r);
        if (!comma)
            break;
        start = end + 1;
    }
    csv_row_cb('\n', r);
    r->fdirect = 0;
    return r->failed ? r->saved.code : PB_OK;
}

static int feed_csv(pb_reader *r, const char *s, size_t len)
{
    if (!r->csv_open_row && !memchr(s, '"', len))
        return split_plain_line(r, s, len);
    size_t rows_before = r->csv_rows_ended;
    if (csv_parse(&r->csv, s, len, csv_field_cb, csv_row_cb, r) != len)
        return reader_fail(r, PB_EPARSE, r->line, 0,
                           "malformed CSV: %s (a quote out of place?)",
                           csv_strerror(csv_error(&r->csv)));
    /* a quoted field may run on to the next line: keep feeding libcsv
     * until it has ended the row */
    r->csv_open_row = r->csv_rows_ended == rows_before ||
                      (len && s[len - 1] != '\n');
    return r->failed ? r->saved.code : PB_OK;
}

/* Project 5 format: "timestamp operation sender rcvr ID". */
static void p5_line(pb_reader *r, const char *s, size_t len, long line)
{
    const char *tok[6];
    size_t tlen[6];
    int nt = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (i >= len)
            break;
        size_t st = i;
        while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            i++;
        if (nt < 6) {
            tok[nt] = s + st;
            tlen[nt] = i - st;
        }
        nt++;
    }
    if (nt == 0)
        return; /* blank line */
    if (nt != 5) {
        reader_fail(r, PB_EPARSE, line, 0,
                    "expected 5 fields \"timestamp operation sender rcvr ID\", got %d",
                    nt);
        return;
    }
    pb_msg m;
    pb_truth t = {PB_ID_NONE, PB_ID_NONE};
    const pb_obs o = PB_OBS_NONE;
    memset(&m, 0, sizeof m);
    m.id = r->rows + 1;
    m.recv_ts = PB_TS_NONE;
    if (parse_time_field(r, tok[0], tlen[0], line, 1, "timestamp", &m.ts) != PB_OK)
        return;
    if (tlen[1] == 9 && !memcmp(tok[1], "CALL_SENT", 9))
        m.type = PB_TYPE_CALL;
    else if (tlen[1] == 8 && !memcmp(tok[1], "RET_SENT", 8))
        m.type = PB_TYPE_RETURN;
    else if (tlen[1] == 8 && !memcmp(tok[1], "MSG_SENT", 8))
        m.type = PB_TYPE_MSG;
    else {
        char shown[64];
        show_field(shown, sizeof shown, tok[1], tlen[1]);
        reader_fail(r, PB_EPARSE, line, 2,
                    "field 2 (operation): unknown operation \"%s\"; expected "
                    "CALL_SENT, RET_SENT or MSG_SENT", shown);
        return;
    }
    if (pb_strtab_intern(r->names->nodes, tok[2], tlen[2], &m.src) != PB_OK ||
        pb_strtab_intern(r->names->nodes, tok[3], tlen[3], &m.dst) != PB_OK ||
        pb_label_parse(r->names, tok[4], tlen[4], &m.callid) != PB_OK) {
        reader_fail(r, PB_ENOMEM, line, 0, "out of memory");
        return;
    }
    accept_message(r, &m, &o, &t, line, 0, 1, 0);
}

/* Whether a P5 line's second whitespace-separated token is an operation. */
static int p5_is_row(const char *s, size_t len)
{
    size_t i = 0;
    for (int tok = 0; tok < 2; tok++) {
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        size_t st = i;
        while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            i++;
        if (tok == 1) {
            size_t l = i - st;
            return (l == 9 && !memcmp(s + st, "CALL_SENT", 9)) ||
                   (l == 8 && (!memcmp(s + st, "RET_SENT", 8) ||
                               !memcmp(s + st, "MSG_SENT", 8)));
        }
    }
    return 0;
}

static int is_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return 0;
    return 1;
}

/* The first line of a trace written in another CSV dialect, said as such
 * rather than as the error it leads to later (a header of one field read
 * as the Project 5 format, "unknown column \"cause1\""): line breaks
 * that are a CR alone (classic Mac OS), or a header whose first name is a
 * column name followed by ';', a tab or '|' where a comma belongs. */
static int header_dialect(pb_reader *r, const char *s, size_t len, pb_format fmt)
{
    const char *cr = memchr(s, '\r', len);
    if (cr && cr + 1 < s + len && !memchr(s, '"', len))
        return reader_fail(r, PB_EPARSE, r->line, 0,
                           "a carriage return inside the line (at character %zu): "
                           "line breaks written as CR alone (classic Mac OS)?; "
                           "expected LF or CRLF line ends (tr '\\r' '\\n' converts)",
                           (size_t)(cr - s) + 1);
    if (fmt != PB_FORMAT_P5 || p5_is_row(s, len))
        return PB_OK;
    static const char seps[] = ";\t|";
    for (const char *sep = seps; *sep; sep++) {
        const char *e = memchr(s, *sep, len);
        if (e && column_bit(s, (size_t)(e - s))) {
            const char *name = *sep == '\t' ? "tabs" : *sep == ';' ? "';'" : "'|'";
            char shown[64];
            size_t l = len;
            while (l && s[l - 1] == '\r')
                l--;
            show_field(shown, sizeof shown, s, l);
            for (char *c = shown; *c; c++)
                if (*c == '\t')
                    *c = ' ';
            return reader_fail(r, PB_EPARSE, r->line, (long)(e - s) + 1,
                               "a header whose names are separated by %s (\"%s\"); "
                               "expected comma-separated columns (id,ts,src,dst,...)",
                               name, shown);
        }
    }
    return PB_OK;
}

/* Read metadata lines and the header (or sniff the P5 format). */
static int reader_start(pb_reader *r)
{
    char *s;
    size_t len, len_nl;
    for (;;) {
        int got = reader_getline(r, &s, &len, &len_nl);
        if (got < 0)
            return got;
        if (got == 0)
            return reader_fail(r, PB_EPARSE, r->line ? r->line : 1, 0,
                               "empty input: expected a header line naming "
                               "the columns (ts,src,dst,...)");
        if (len && s[0] == '#') {
            size_t skip = 1;
            if (len > 1 && s[1] == ' ')
                skip = 2;
            size_t l = len - skip;
            if (l && s[skip + l - 1] == '\r')
                l--;
            if (pb_trace_meta_add(&r->meta, &r->nmeta, s + skip, l) != PB_OK)
                return reader_fail(r, PB_ENOMEM, r->line, 0, "out of memory");
            continue;
        }
        if (is_blank(s, len))
            continue;
        pb_format fmt = r->opts.format;
        if (fmt == PB_FORMAT_AUTO)
            fmt = memchr(s, ',', len) ? PB_FORMAT_CSV : PB_FORMAT_P5;
        if (header_dialect(r, s, len, fmt) != PB_OK)
            return r->saved.code;
        r->format = fmt;
        if (fmt == PB_FORMAT_CSV) {
            if (csv_init(&r->csv, CSV_STRICT | CSV_STRICT_FINI) != 0)
                return reader_fail(r, PB_ENOMEM, r->line, 0, "out of memory");
            r->csv_ready = 1;
            int rc = feed_csv(r, s, len_nl);
            if (rc != PB_OK)
                return rc;
            if (!r->header_done) {
                /* header without a newline at EOF, or a quoted newline */
                if (r->eof && r->buf_pos == r->buf_len) {
                    csv_fini(&r->csv, csv_field_cb, csv_row_cb, r);
                    if (r->failed)
                        return r->saved.code;
                }
            }
            return PB_OK;
        }
        /* P5: an optional header line.  A line whose second token is an
         * operation is a data row (so a typo in its timestamp is an error,
         * not a header dropped without a word); anything else is taken as
         * the header. */
        r->columns = PB_COL_ID | PB_COL_TS | PB_COL_SRC | PB_COL_DST |
                     PB_COL_TYPE | PB_COL_CALLID;
        r->header_done = 1;
        if (p5_is_row(s, len)) {
            p5_line(r, s, len, r->line);
            if (r->failed)
                return r->saved.code;
        }
        return PB_OK;
    }
}

int pb_reader_open_fp(pb_reader **out, FILE *fp, const char *display_name,
                      pb_names *names, const pb_reader_opts *opts,
                      pb_error *err)
{
    pb_reader *r = calloc(1, sizeof *r);
    if (!r)
        return pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
    r->fp = fp;
    r->name = strdup(display_name ? display_name : "(stdin)");
    if (opts)
        r->opts = *opts;
    else
        pb_reader_opts_default(&r->opts);
    if (names) {
        r->names = names;
    } else {
        if (pb_names_init(&r->names) != PB_OK) {
            pb_reader_close(r);
            return pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
        }
        r->own_names = 1;
    }
    if (!r->name) {
        pb_reader_close(r);
        return pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
    }
    int rc = reader_start(r);
    if (rc != PB_OK) {
        if (err)
            *err = r->saved;
        pb_reader_close(r);
        return rc;
    }
    *out = r;
    return PB_OK;
}

int pb_reader_open(pb_reader **out, const char *path, pb_names *names,
                   const pb_reader_opts *opts, pb_error *err)
{
    if (!path || !strcmp(path, "-")) {
        if (pb_files_input_fd(0, "(stdin)", err) != PB_OK)
            return err ? err->code : PB_EINVAL;
        return pb_reader_open_fp(out, stdin, "(stdin)", names, opts, err);
    }
    pb_error e2;
    FILE *fp = pb_files_open(path, &e2);
    if (!fp) {
        if (err)
            *err = e2;
        return e2.code;
    }
    int rc = pb_reader_open_fp(out, fp, path, names, opts, err);
    if (rc != PB_OK) {
        fclose(fp);
        return rc;
    }
    (*out)->own_fp = 1;
    return PB_OK;
}

int pb_reader_next(pb_reader *r, pb_msg *msg, pb_truth *truth, pb_error *err)
{
    return pb_reader_next_obs(r, msg, NULL, truth, err);
}

int pb_reader_next_obs(pb_reader *r, pb_msg *msg, pb_obs *obs,
                       pb_truth *truth, pb_error *err)
{
    while (r->qcount == 0) {
        if (r->failed)
            break;
        char *s;
        size_t len, len_nl;
        int got = reader_getline(r, &s, &len, &len_nl);
        if (got < 0)
            break;
        if (got == 0) {
            if (r->format == PB_FORMAT_CSV && r->csv_ready) {
                if (csv_fini(&r->csv, csv_field_cb, csv_row_cb, r) != 0 && !r->failed)
                    reader_fail(r, PB_EPARSE, r->line, 0,
                                "malformed CSV at end of file: an unterminated quote?");
                r->csv_ready = 0;
                csv_free(&r->csv);
                if (r->qcount || r->failed)
                    break;
            }
            if (!r->header_done && !r->failed)
                reader_fail(r, PB_EPARSE, r->line, 0,
                            "expected a header line naming the columns");
            if (r->rows == 0 && !r->opts.allow_empty && !r->failed)
                reader_fail(r, PB_EPARSE, r->line, 0,
                            "no messages: the file has a header but no rows; "
                            "expected at least one message");
            for (size_t i = 0; i < r->nfwd && !r->failed; i++)
                if (!idset_has(&r->ids, r->fwd[i].cause))
                    reader_fail(r, PB_ENOENT, r->fwd[i].line, r->fwd[i].col,
                                "field %ld (cause): message %llu names a cause "
                                "%llu that is no message of the trace",
                                r->fwd[i].col, (unsigned long long)r->fwd[i].id,
                                (unsigned long long)r->fwd[i].cause);
            r->nfwd = 0;
            if (r->failed)
                break;
            return 0;
        }
        if (len && s[0] == '#' && !r->csv_open_row) {
            reader_fail(r, PB_EPARSE, r->line, 1,
                        "a '#' line after the header; expected a data row "
                        "(comments and metadata are allowed only before the "
                        "header)");
            break;
        }
        if (r->format == PB_FORMAT_CSV)
            feed_csv(r, s, len_nl);
        else
            p5_line(r, s, len, r->line);
    }
    if (r->qcount == 0) {
        if (err)
            *err = r->saved;
        return r->saved.code ? r->saved.code : PB_EPARSE;
    }
    *msg = r->q[r->qhead];
    if (obs)
        *obs = r->columns & PB_COL_OBSERVED ? r->qo[r->qhead] : PB_OBS_NONE;
    if (truth)
        *truth = r->qt[r->qhead];
    r->last_line = r->qline[r->qhead];
    r->qhead++;
    r->qcount--;
    if (r->qcount == 0)
        r->qhead = 0;
    r->count++;
    return 1;
}

unsigned pb_reader_columns(const pb_reader *r) { return r->columns; }
size_t pb_reader_meta_count(const pb_reader *r) { return r->nmeta; }
const char *pb_reader_meta(const pb_reader *r, size_t i)
{
    return i < r->nmeta ? r->meta[i] : NULL;
}
pb_names *pb_reader_names(pb_reader *r) { return r->names; }
long pb_reader_line(const pb_reader *r) { return r->last_line; }
const char *pb_reader_name(const pb_reader *r) { return r->name; }
size_t pb_reader_count(const pb_reader *r) { return r->count; }
size_t pb_reader_rounded(const pb_reader *r, long *line, long *col)
{
    if (line)
        *line = r->nrounded ? r->rounded_line : 0;
    if (col)
        *col = r->nrounded ? r->rounded_col : 0;
    return r->nrounded;
}

void pb_reader_close(pb_reader *r)
{
    if (!r)
        return;
    if (r->csv_ready)
        csv_free(&r->csv);
    if (r->own_fp && r->fp)
        fclose(r->fp);
    if (r->own_names)
        pb_names_close(r->names);
    for (size_t i = 0; i < r->nmeta; i++)
        free(r->meta[i]);
    free(r->meta);
    free(r->name);
    free(r->buf);
    free(r->fbuf);
    free(r->q);
    free(r->qo);
    free(r->qt);
    free(r->qline);
    free(r->pending);
    free(r->fwd);
    free(r->colbit);
    idset_free(&r->ids);
    idwin_free(&r->idw);
    free(r);
}
