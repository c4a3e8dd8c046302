/*
 * pb_trace_write.c - the CSV trace writer of pb_trace.h.
 */
#include "pb_trace.h"
#include "pb_trace_int.h"

#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* writer */

struct pb_writer {
    FILE *fp;
    char *name;
    unsigned columns;
    const pb_names *names;
    int started;
    int failed;
    char **meta;
    size_t nmeta;
    char *out;
    size_t out_len, out_cap;
};

int pb_writer_open(pb_writer **out, FILE *fp, const char *display_name,
                   unsigned columns, const pb_names *names, pb_error *err)
{
    *out = NULL; /* defined on every path (the error paths too) */
    pb_writer *w = calloc(1, sizeof *w);
    if (!w)
        return pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
    w->fp = fp;
    w->name = strdup(display_name ? display_name : "(stdout)");
    w->columns = (columns | PB_COL_REQUIRED) & (PB_COL_ALL | PB_COL_OBSERVED);
    w->names = names;
    w->out_cap = 1 << 16;
    w->out = malloc(w->out_cap);
    if (!w->name || !w->out) {
        free(w->name);
        free(w->out);
        free(w);
        return pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
    }
    *out = w;
    return PB_OK;
}

int pb_writer_meta(pb_writer *w, const char *line)
{
    if (w->started)
        return PB_ESTATE;
    return pb_trace_meta_add_line(&w->meta, &w->nmeta, line);
}

static int writer_flush(pb_writer *w)
{
    if (w->out_len && fwrite(w->out, 1, w->out_len, w->fp) != w->out_len)
        w->failed = 1;
    w->out_len = 0;
    return w->failed ? PB_EIO : PB_OK;
}

static int writer_reserve(pb_writer *w, size_t n)
{
    if (w->out_cap - w->out_len >= n)
        return PB_OK;
    if (writer_flush(w) != PB_OK)
        return PB_EIO;
    if (w->out_cap < n) {
        char *nb = realloc(w->out, n);
        if (!nb)
            return PB_ENOMEM;
        w->out = nb;
        w->out_cap = n;
    }
    return PB_OK;
}

static void put(pb_writer *w, const char *s, size_t n)
{
    memcpy(w->out + w->out_len, s, n);
    w->out_len += n;
}

/* A field, quoted by libcsv only when it must be. */
static void put_field(pb_writer *w, const char *s, size_t n)
{
    if (strpbrk(s, ",\"\r\n") || (n && (s[0] == ' ' || s[0] == '\t' ||
                                        s[n - 1] == ' ' || s[n - 1] == '\t'))) {
        w->out_len += csv_write(w->out + w->out_len, w->out_cap - w->out_len, s, n);
    } else {
        put(w, s, n);
    }
}

static int writer_start(pb_writer *w)
{
    if (w->started)
        return PB_OK;
    w->started = 1;
    for (size_t i = 0; i < w->nmeta; i++) {
        size_t l = strlen(w->meta[i]);
        if (writer_reserve(w, l + 4) != PB_OK)
            return PB_EIO;
        put(w, "# ", 2);
        put(w, w->meta[i], l);
        put(w, "\n", 1);
    }
    if (writer_reserve(w, 128) != PB_OK)
        return PB_EIO;
    int first = 1;
    for (unsigned k = 0; k < NCOLUMN_KINDS; k++) {
        if (!(w->columns & (1u << k)))
            continue;
        if (!first)
            put(w, ",", 1);
        put(w, pb_trace_column_names[k], strlen(pb_trace_column_names[k]));
        first = 0;
    }
    put(w, "\n", 1);
    return PB_OK;
}

int pb_writer_write(pb_writer *w, const pb_msg *m, const pb_truth *t)
{
    return pb_writer_write_obs(w, m, NULL, t);
}

int pb_writer_write_obs(pb_writer *w, const pb_msg *m, const pb_obs *obs,
                        const pb_truth *t)
{
    const pb_obs o = pb_obs_get(obs, 0);
    if (!w->started && writer_start(w) != PB_OK)
        return PB_EIO;
    const char *src = pb_strtab_str(w->names->nodes, m->src);
    const char *dst = pb_strtab_str(w->names->nodes, m->dst);
    size_t ls = src ? strlen(src) : 0, ld = dst ? strlen(dst) : 0;
    /* worst case: quoted names double, labels from the table */
    char cbuf[4096], pbuf[4096];
    size_t lc = 0, lp = 0;
    if (w->columns & PB_COL_CALLID)
        lc = pb_label_format(w->names, m->callid, cbuf, sizeof cbuf);
    if (w->columns & PB_COL_PATH)
        lp = pb_label_format(w->names, t ? t->path : PB_ID_NONE, pbuf, sizeof pbuf);
    if (writer_reserve(w, 2 * (ls + ld + lc + lp) + 256) != PB_OK)
        return PB_EIO;
    char num[PB_SECONDS_BUF];
    size_t n;
    if (w->columns & PB_COL_ID) {
        n = pb_trace_u64_format(m->id, num);
        put(w, num, n);
        put(w, ",", 1);
    }
    n = (size_t)pb_seconds_format(m->ts, num);
    put(w, num, n);
    if (w->columns & PB_COL_RECV_TS) {
        put(w, ",", 1);
        if (m->recv_ts != PB_TS_NONE) {
            n = (size_t)pb_seconds_format(m->recv_ts, num);
            put(w, num, n);
        }
    }
    put(w, ",", 1);
    put_field(w, src ? src : "", ls);
    put(w, ",", 1);
    put_field(w, dst ? dst : "", ld);
    if (w->columns & PB_COL_TYPE) {
        const char *tn = pb_type_name(m->type);
        put(w, ",", 1);
        put(w, tn, strlen(tn));
    }
    if (w->columns & PB_COL_CALLID) {
        put(w, ",", 1);
        put_field(w, cbuf, lc);
    }
    if (w->columns & PB_COL_PATH) {
        put(w, ",", 1);
        put_field(w, pbuf, lp);
    }
    if (w->columns & PB_COL_CAUSE) {
        put(w, ",", 1);
        if (t && t->cause != PB_ID_NONE) {
            n = pb_trace_u64_format(t->cause, num);
            put(w, num, n);
        }
    }
    static const unsigned label_cols[4] = {PB_COL_THREAD, PB_COL_STHREAD,
                                           PB_COL_CONN, PB_COL_ATTR};
    const uint32_t labels[4] = {o.thread, o.sthread, o.conn, o.attr};
    for (int k = 0; k < 4; k++) {
        if (!(w->columns & label_cols[k]))
            continue;
        const char *th = pb_thread_name(w->names, labels[k]);
        size_t lt = strlen(th);
        if (writer_reserve(w, 2 * lt + 8) != PB_OK)
            return PB_EIO;
        put(w, ",", 1);
        put_field(w, th, lt);
    }
    if (w->columns & PB_COL_SIZE) {
        if (writer_reserve(w, 32) != PB_OK)
            return PB_EIO;
        put(w, ",", 1);
        if (o.size != PB_SIZE_NONE) {
            n = pb_trace_u64_format(o.size, num);
            put(w, num, n);
        }
    }
    put(w, "\n", 1);
    return PB_OK;
}

int pb_writer_close(pb_writer *w, pb_error *err)
{
    if (!w)
        return PB_OK;
    int rc = writer_start(w);
    if (rc == PB_OK)
        rc = writer_flush(w);
    if (rc == PB_OK && fflush(w->fp) != 0)
        rc = PB_EIO;
    if (rc != PB_OK)
        pb_error_set(err, PB_EIO, w->name, 0, 0, "write error: %s", strerror(errno));
    for (size_t i = 0; i < w->nmeta; i++)
        free(w->meta[i]);
    free(w->meta);
    free(w->name);
    free(w->out);
    free(w);
    return rc;
}
