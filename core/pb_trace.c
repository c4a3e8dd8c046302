/*
 * pb_trace.c - names and labels, column names, and the in-memory trace.
 * The reader is pb_trace_read.c, the writer pb_trace_write.c; what the
 * three share is pb_trace_int.h.
 */
#include "pb_trace.h"
#include "pb_trace_int.h"

#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

/* ------------------------------------------------------------------ */
/* names and labels */

int pb_names_init(pb_names **out)
{
    pb_names *n = calloc(1, sizeof *n);
    if (!n)
        return PB_ENOMEM;
    if (pb_strtab_init(&n->nodes) != PB_OK ||
        pb_strtab_init(&n->labels) != PB_OK) {
        pb_names_close(n);
        return PB_ENOMEM;
    }
    *out = n;
    return PB_OK;
}

void pb_names_close(pb_names *names)
{
    if (!names)
        return;
    pb_strtab_close(names->nodes);
    pb_strtab_close(names->labels);
    free(names);
}

/* A canonical unsigned decimal below 2^63: no sign, no leading zero (except
 * "0" itself), digits only.  Anything else is kept as text so that it
 * round-trips byte for byte. */
static int parse_canonical_u63(const char *s, size_t len, uint64_t *out)
{
    if (len == 0 || len > 19 || (len > 1 && s[0] == '0'))
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v & PB_LABEL_STRING)
        return 0;
    *out = v;
    return 1;
}

int pb_label_parse(pb_names *names, const char *s, size_t len, uint64_t *out)
{
    if (len == 0) {
        *out = PB_ID_NONE;
        return PB_OK;
    }
    if (parse_canonical_u63(s, len, out))
        return PB_OK;
    uint32_t idx;
    int rc = pb_strtab_intern(names->labels, s, len, &idx);
    if (rc != PB_OK)
        return rc;
    *out = PB_LABEL_STRING | idx;
    return PB_OK;
}

size_t pb_trace_u64_format(uint64_t v, char *buf)
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return n;
}

size_t pb_label_format(const pb_names *names, uint64_t label, char *buf,
                       size_t n)
{
    if (n == 0)
        return 0;
    if (label == PB_ID_NONE) {
        buf[0] = '\0';
        return 0;
    }
    if (label & PB_LABEL_STRING) {
        const char *s = names ? pb_strtab_str(names->labels,
                                              (uint32_t)(label & 0xffffffffu))
                              : NULL;
        if (!s)
            s = "";
        size_t l = strlen(s);
        if (l >= n)
            l = n - 1;
        memcpy(buf, s, l);
        buf[l] = '\0';
        return l;
    }
    char tmp[24];
    size_t l = pb_trace_u64_format(label, tmp);
    if (l >= n)
        l = n - 1;
    memcpy(buf, tmp, l);
    buf[l] = '\0';
    return l;
}

const char *const pb_trace_column_names[NCOLUMN_KINDS] = {
    "id", "ts", "recv_ts", "src", "dst", "type", "callid", "path", "cause",
    "thread", "sthread", "conn", "attr", "size"};

int pb_obs_label(pb_names *names, const char *s, size_t len, uint32_t *out)
{
    *out = 0;
    if (!len)
        return PB_OK;
    uint32_t ti;
    if (pb_strtab_intern(names->labels, s, len, &ti) != PB_OK)
        return PB_ENOMEM;
    *out = ti + 1;
    return PB_OK;
}

const char *pb_thread_name(const pb_names *names, uint32_t thread)
{
    const char *s = thread ? pb_strtab_str(names->labels, thread - 1) : NULL;
    return s ? s : "";
}

const char *pb_column_name(unsigned col)
{
    for (unsigned i = 0; i < NCOLUMN_KINDS; i++)
        if (col == (1u << i))
            return pb_trace_column_names[i];
    return NULL;
}

const char *pb_type_name(int type)
{
    switch (type) {
    case PB_TYPE_CALL: return "call";
    case PB_TYPE_RETURN: return "return";
    default: return "msg";
    }
}

/* ------------------------------------------------------------------ */
/* metadata lines */

int pb_trace_meta_add(char ***meta, size_t *n, const char *s, size_t len)
{
    char **nm = realloc(*meta, (*n + 1) * sizeof *nm);
    if (!nm)
        return PB_ENOMEM;
    *meta = nm;
    char *c = malloc(len + 1);
    if (!c)
        return PB_ENOMEM;
    memcpy(c, s, len);
    c[len] = '\0';
    nm[(*n)++] = c;
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* in-memory trace */

int pb_trace_new(pb_trace **out)
{
    pb_trace *t = calloc(1, sizeof *t);
    if (!t)
        return PB_ENOMEM;
    if (pb_names_init(&t->names) != PB_OK) {
        free(t);
        return PB_ENOMEM;
    }
    t->columns = PB_COL_ALL;
    *out = t;
    return PB_OK;
}

/* pb_msg's size is part of the format's cost (docs/formats.md): a change
 * must be deliberate */
_Static_assert(sizeof(pb_msg) == PB_MSG_BYTES, "pb_msg is PB_MSG_BYTES bytes");
_Static_assert(sizeof(pb_obs) == 20, "pb_obs is five uint32");

/* Allocate t->obs (cap entries; the n messages so far PB_OBS_NONE).  The
 * entries past n are written by the appends that fill them, never read
 * before: left untouched, their pages cost nothing until then. */
static int obs_alloc(pb_trace *t)
{
    if (t->obs || !t->cap)
        return PB_OK; /* none yet at cap 0: trace_reserve allocates none */
    pb_obs *o = malloc(t->cap * sizeof *o);
    if (!o)
        return PB_ENOMEM;
    for (size_t i = 0; i < t->n; i++)
        o[i] = PB_OBS_NONE;
    t->obs = o;
    return PB_OK;
}

static int trace_reserve(pb_trace *t, size_t want, int with_truth)
{
    if (want <= t->cap && (!with_truth || t->truth))
        return PB_OK;
    size_t nc = t->cap;
    while (nc < want)
        nc = nc ? nc + nc / 2 : 1024;
    if (nc != t->cap) {
        pb_msg *nm = realloc(t->msgs, nc * sizeof *nm);
        if (!nm)
            return PB_ENOMEM;
        t->msgs = nm;
    }
    if (t->truth || with_truth) {
        int fresh = t->truth == NULL;
        pb_truth *nt = realloc(t->truth, nc * sizeof *nt);
        if (!nt)
            return PB_ENOMEM;
        t->truth = nt;
        /* first truth on a trace built without: earlier rows have none */
        if (fresh)
            for (size_t i = 0; i < t->n; i++)
                t->truth[i] = (pb_truth){PB_ID_NONE, PB_ID_NONE};
    }
    if (t->obs && nc != t->cap) {
        pb_obs *no = realloc(t->obs, nc * sizeof *no);
        if (!no)
            return PB_ENOMEM;
        t->obs = no;
    }
    t->cap = nc;
    return PB_OK;
}

/* Give back the growth slack once a trace is complete, so a loaded trace
 * costs sizeof(pb_msg) per message and not up to 1.5 times that. */
static void trace_shrink(pb_trace *t)
{
    if (t->n == 0 || t->n == t->cap)
        return;
    pb_msg *nm = realloc(t->msgs, t->n * sizeof *nm);
    if (nm)
        t->msgs = nm;
    if (t->truth) {
        pb_truth *nt = realloc(t->truth, t->n * sizeof *nt);
        if (nt)
            t->truth = nt;
    }
    if (t->obs) {
        pb_obs *no = realloc(t->obs, t->n * sizeof *no);
        if (no)
            t->obs = no;
    }
    /* every block holds at least n entries whichever realloc succeeded */
    t->cap = t->n;
}

int pb_trace_append_obs(pb_trace *t, const pb_msg *msg, const pb_obs *obs,
                        const pb_truth *truth)
{
    if ((t->n >= t->cap || (truth && !t->truth)) &&
        trace_reserve(t, t->n + 1, truth != NULL) != PB_OK)
        return PB_ENOMEM;
    if (!t->obs && obs && pb_obs_known(obs) && obs_alloc(t) != PB_OK)
        return PB_ENOMEM;
    t->msgs[t->n] = *msg;
    if (t->truth)
        t->truth[t->n] = truth ? *truth : (pb_truth){PB_ID_NONE, PB_ID_NONE};
    if (t->obs)
        t->obs[t->n] = obs ? *obs : PB_OBS_NONE;
    t->n++;
    return PB_OK;
}

int pb_trace_append(pb_trace *t, const pb_msg *msg, const pb_truth *truth)
{
    return pb_trace_append_obs(t, msg, NULL, truth);
}

pb_obs *pb_trace_obs(pb_trace *t)
{
    if (!t->obs && t->cap == 0 && trace_reserve(t, 1, 0) != PB_OK)
        return NULL;
    return obs_alloc(t) == PB_OK ? t->obs : NULL;
}

int pb_trace_add(pb_trace *t, uint64_t id, pb_ns ts, pb_ns recv_ts,
                 const char *src, const char *dst, pb_msg_type type,
                 uint64_t callid, uint64_t path, uint64_t cause)
{
    pb_msg m;
    memset(&m, 0, sizeof m);
    m.id = id;
    m.ts = ts;
    m.recv_ts = recv_ts;
    m.callid = callid;
    m.type = (uint8_t)type;
    if (pb_strtab_intern(t->names->nodes, src, strlen(src), &m.src) != PB_OK ||
        pb_strtab_intern(t->names->nodes, dst, strlen(dst), &m.dst) != PB_OK)
        return PB_ENOMEM;
    pb_truth tr = {path, cause};
    return pb_trace_append(t, &m, &tr);
}

/* Ties in ts are broken by id, so that re-sorting a shuffled file gives
 * back the same order whatever the shuffle; rows with equal ts and id keep
 * their order. */
typedef struct sort_key {
    pb_ns ts;
    uint64_t id;
    size_t idx;
} sort_key;

static int cmp_sort_key(const void *a, const void *b)
{
    const sort_key *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int pb_trace_sort(pb_trace *t)
{
    int sorted = 1;
    for (size_t i = 1; i < t->n && sorted; i++)
        if (t->msgs[i].ts < t->msgs[i - 1].ts ||
            (t->msgs[i].ts == t->msgs[i - 1].ts && t->msgs[i].id < t->msgs[i - 1].id))
            sorted = 0;
    if (sorted)
        return PB_OK;
    sort_key *k = malloc(t->n * sizeof *k);
    if (!k)
        return PB_ENOMEM;
    for (size_t i = 0; i < t->n; i++)
        k[i] = (sort_key){t->msgs[i].ts, t->msgs[i].id, i};
    pb_sort(k, t->n, sizeof *k, cmp_sort_key);
    pb_msg *nm = malloc(t->cap * sizeof *nm);
    pb_truth *nt = t->truth ? malloc(t->cap * sizeof *nt) : NULL;
    pb_obs *no = t->obs ? malloc(t->cap * sizeof *no) : NULL;
    if (!nm || (t->truth && !nt) || (t->obs && !no)) {
        free(k);
        free(nm);
        free(nt);
        free(no);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < t->n; i++) {
        nm[i] = t->msgs[k[i].idx];
        if (nt)
            nt[i] = t->truth[k[i].idx];
        if (no)
            no[i] = t->obs[k[i].idx];
    }
    free(k);
    free(t->msgs);
    free(t->truth);
    free(t->obs);
    t->msgs = nm;
    t->truth = nt;
    t->obs = no;
    return PB_OK;
}

/* A metadata line is one line of the file: a line break inside it (a
 * service or pod name read from a span table, a config's name) would end
 * the "# " line early and turn the rest into a malformed row that no
 * reader accepts.  Line breaks become the two characters \n or \r. */
int pb_trace_meta_add_line(char ***meta, size_t *n, const char *line)
{
    size_t len = strlen(line), extra = 0;
    for (size_t i = 0; i < len; i++)
        extra += line[i] == '\n' || line[i] == '\r';
    if (!extra)
        return pb_trace_meta_add(meta, n, line, len);
    char *c = malloc(len + extra + 1);
    if (!c)
        return PB_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '\n' || line[i] == '\r') {
            c[k++] = '\\';
            c[k++] = line[i] == '\n' ? 'n' : 'r';
        } else {
            c[k++] = line[i];
        }
    }
    int rc = pb_trace_meta_add(meta, n, c, k);
    free(c);
    return rc;
}

int pb_trace_add_meta(pb_trace *t, const char *line)
{
    return pb_trace_meta_add_line(&t->meta, &t->nmeta, line);
}

size_t pb_rounded_print(FILE *fp, const char *prog, const char *file, size_t n,
                        long line, long col)
{
    if (n)
        fprintf(fp, "%s: %s:%ld:%ld: note: %zu time%s had digits past the "
                "nanosecond and %s read rounded to the nearest nanosecond (the "
                "first here; a trace holds whole nanoseconds)\n", prog,
                !file || !strcmp(file, "-") ? "(stdin)" : file, line, col, n,
                n == 1 ? "" : "s", n == 1 ? "was" : "were");
    return n;
}

int pb_trace_load(const char *path, const pb_reader_opts *opts, int with_truth,
                  pb_trace **out, pb_error *err)
{
    /* truth that is dropped is not checked for dangling causes: a lossy
     * trace (sniffer) keeps the cause ids of messages it dropped */
    pb_reader_opts lo;
    if (opts)
        lo = *opts;
    else
        pb_reader_opts_default(&lo);
    if (!with_truth)
        lo.allow_dangling_causes = 1;
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
    pb_reader *r;
    int rc = pb_reader_open(&r, path, t->names, &lo, err);
    if (rc != PB_OK) {
        pb_trace_close(t);
        return rc;
    }
    t->columns = pb_reader_columns(r);
    if (!with_truth)
        t->columns &= ~(unsigned)PB_COL_TRUTH;
    for (size_t i = 0; i < pb_reader_meta_count(r); i++)
        if (pb_trace_add_meta(t, pb_reader_meta(r, i)) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
            goto fail;
        }
    t->source = strdup(path ? path : "-");
    int keep_truth = with_truth && (t->columns & PB_COL_TRUTH);
    /* the side array of observed columns only when the file has one */
    int keep_obs = (t->columns & PB_COL_OBSERVED) != 0;
    pb_msg m;
    pb_obs ob;
    pb_truth tr;
    for (;;) {
        rc = pb_reader_next_obs(r, &m, keep_obs ? &ob : NULL, &tr, err);
        if (rc == 0)
            break;
        if (rc < 0)
            goto fail;
        if (pb_trace_append_obs(t, &m, keep_obs ? &ob : NULL,
                                keep_truth ? &tr : NULL) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
            goto fail;
        }
    }
    t->nrounded = pb_reader_rounded(r, &t->rounded_line, &t->rounded_col);
    pb_reader_close(r);
    r = NULL;
    trace_shrink(t);
    if (opts && opts->allow_unsorted && pb_trace_sort(t) != PB_OK) {
        rc = pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
        goto fail;
    }
    *out = t;
    return PB_OK;
fail:
    pb_reader_close(r);
    pb_trace_close(t);
    return rc;
}

int pb_trace_write(const pb_trace *t, FILE *fp, unsigned columns, pb_error *err)
{
    pb_writer *w;
    int rc = pb_writer_open(&w, fp, "(output)", columns ? columns : t->columns,
                            t->names, err);
    if (rc != PB_OK)
        return rc;
    for (size_t i = 0; i < t->nmeta; i++)
        pb_writer_meta(w, t->meta[i]);
    for (size_t i = 0; i < t->n && rc == PB_OK; i++)
        rc = pb_writer_write_obs(w, &t->msgs[i], t->obs ? &t->obs[i] : NULL,
                                 t->truth ? &t->truth[i] : NULL);
    int rc2 = pb_writer_close(w, err);
    return rc != PB_OK ? rc : rc2;
}

pb_msg *pb_msgs_alloc(size_t n, int with_obs, pb_obs **obs)
{
    if (!n)
        n = 1;
    size_t one = sizeof(pb_msg) + (with_obs ? sizeof(pb_obs) : 0);
    if (n > SIZE_MAX / one)
        return NULL;
    pb_msg *m = malloc(n * one);
    /* pb_obs is aligned on 4 and n * sizeof(pb_msg) is a multiple of 8 */
    *obs = m && with_obs ? (pb_obs *)(void *)(m + n) : NULL;
    return m;
}

pb_trace_view pb_trace_view_of(const pb_trace *t)
{
    pb_trace_view v;
    v.msgs = t->msgs;
    v.n = t->n;
    v.nodes = t->names->nodes;
    v.columns = t->columns & ~(unsigned)PB_COL_TRUTH;
    v.obs = t->obs;
    return v;
}

void pb_trace_close(pb_trace *t)
{
    if (!t)
        return;
    free(t->msgs);
    free(t->truth);
    free(t->obs);
    pb_names_close(t->names);
    for (size_t i = 0; i < t->nmeta; i++)
        free(t->meta[i]);
    free(t->meta);
    free(t->source);
    free(t);
}
