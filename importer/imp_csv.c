/*
 * imp_csv.c - span tables (CSV, one span a row) such as Nezha's
 * (TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,
 * EndTimeUnixNano,Duration), read with libcsv.  Columns are found by a
 * mapping (imp_opts.csv_map: "trace=COL,span=COL,...,unit=us") or, without
 * one, by recognising Nezha's header.  Pod names lose their ReplicaSet and
 * pod hash suffixes (cartservice-579f59597d-wc2lz -> cartservice).  Spans
 * without a kind get one in imp_build.c (the kind rule of docs/importer.md).
 */
#include <csv.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "imp_int.h"
#include "pb_opt.h"
#include "pb_mem.h"

enum { F_TRACE, F_SPAN, F_PARENT, F_SERVICE, F_OPERATION, F_START, F_END,
       F_DURATION, F_KIND, NFIELDS };

static const char *const field_key[NFIELDS] = {
    "trace", "span", "parent", "service", "operation", "start", "end",
    "duration", "kind"};

/* every key of --csv-map: the fields, then the settings */
#define NKEYS (NFIELDS + 4)
static const char *const map_key[NKEYS] = {
    "trace", "span", "parent", "service", "operation", "start", "end",
    "duration", "kind", "unit", "duration_unit", "root", "pods"};

/* Nezha's layout (its public data, ESEC/FSE 2023) */
static const char *const nezha_col[NFIELDS] = {
    "TraceID", "SpanID", "ParentID", "PodName", "OperationName",
    "StartTimeUnixNano", "EndTimeUnixNano", "Duration", NULL};

struct imp_csv_map {
    char *col[NFIELDS]; /* header names; NULL = not mapped */
    int64_t unit;       /* nanoseconds per unit of start / end */
    int unit_given;     /* unit= was given (never second-guessed) */
    int64_t dunit;      /* nanoseconds per unit of duration */
    char *root;         /* parent value meaning "no parent" beside "" */
    int keep_pods;      /* do not shorten pod names */
};

void imp_csv_map_free(struct imp_csv_map *m)
{
    if (!m)
        return;
    for (int f = 0; f < NFIELDS; f++)
        free(m->col[f]);
    free(m->root);
    free(m);
}

static int unit_of(const char *v, size_t n, int64_t *out)
{
    static const struct {
        const char *name;
        int64_t ns;
    } u[] = {{"s", 1000000000}, {"ms", 1000000}, {"us", 1000}, {"ns", 1}};
    for (size_t i = 0; i < sizeof u / sizeof *u; i++)
        if (strlen(u[i].name) == n && !memcmp(v, u[i].name, n)) {
            *out = u[i].ns;
            return 1;
        }
    return 0;
}

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

int imp_csv_map_parse(const char *spec, struct imp_csv_map **out,
                      pb_error *err)
{
    *out = NULL;
    struct imp_csv_map *m = calloc(1, sizeof *m);
    if (!m)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    m->unit = 1;
    m->dunit = 0; /* = unit unless given */
    int rc = PB_OK;
    const char *p = spec;
    const char *first[NKEYS] = {0};
    size_t firstl[NKEYS] = {0};
    while (rc == PB_OK && *p) {
        size_t l = strcspn(p, ",");
        const char *eq = memchr(p, '=', l);
        if (!eq || eq == p) {
            rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                              "--csv-map: \"%.*s\": expected KEY=VALUE", (int)l,
                              p);
            break;
        }
        size_t kl = (size_t)(eq - p), vl = l - kl - 1;
        const char *v = eq + 1;
        /* a key given twice: the last was kept without a word (a map
         * edited by hand, "service=svc,...,service=pod"); the same value
         * again says nothing, as a flag given twice does (pb_cli).  One
         * look a key (its first item kept), so a map of many repeats
         * stays linear. */
        int key = -1;
        for (int k = 0; k < NKEYS && key < 0; k++)
            if (strlen(map_key[k]) == kl && !memcmp(p, map_key[k], kl))
                key = k;
        if (key >= 0 && first[key] &&
            (firstl[key] != l || memcmp(first[key], p, l))) {
            rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                              "--csv-map: %.*s given twice (%.*s, then %.*s); "
                              "expected each key once",
                              (int)kl, p, (int)firstl[key], first[key], (int)l, p);
            break;
        }
        if (key >= 0 && !first[key]) {
            first[key] = p;
            firstl[key] = l;
        }
        int f, done = 0;
        for (f = 0; f < NFIELDS; f++)
            if (strlen(field_key[f]) == kl && !memcmp(p, field_key[f], kl)) {
                free(m->col[f]);
                if (!vl) {
                    rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                      "--csv-map: %s= needs a column name",
                                      field_key[f]);
                } else if (!(m->col[f] = dupn(v, vl))) {
                    rc = PB_ENOMEM;
                }
                done = 1;
                break;
            }
        if (done) {
        } else if (kl == 4 && !memcmp(p, "unit", 4)) {
            if (!unit_of(v, vl, &m->unit))
                rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                  "--csv-map: unit=%.*s: expected s, ms, us or ns",
                                  (int)vl, v);
            m->unit_given = 1;
        } else if (kl == 13 && !memcmp(p, "duration_unit", 13)) {
            if (!unit_of(v, vl, &m->dunit))
                rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                  "--csv-map: duration_unit=%.*s: expected s, "
                                  "ms, us or ns",
                                  (int)vl, v);
        } else if (kl == 4 && !memcmp(p, "root", 4)) {
            free(m->root);
            if (!(m->root = dupn(v, vl)))
                rc = PB_ENOMEM;
        } else if (kl == 4 && !memcmp(p, "pods", 4)) {
            if (vl == 5 && !memcmp(v, "strip", 5))
                m->keep_pods = 0;
            else if (vl == 4 && !memcmp(v, "keep", 4))
                m->keep_pods = 1;
            else
                rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                  "--csv-map: pods=%.*s: expected strip or keep",
                                  (int)vl, v);
        } else {
            rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                              "--csv-map: unknown key \"%.*s\"; expected trace, "
                              "span, parent, service, operation, start, end, "
                              "duration, kind, unit, duration_unit, root or pods",
                              (int)kl, p);
        }
        p += l;
        if (*p == ',')
            p++;
    }
    if (rc == PB_ENOMEM)
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc == PB_OK) {
        const char *miss = !m->col[F_TRACE]     ? "trace"
                           : !m->col[F_SPAN]    ? "span"
                           : !m->col[F_PARENT]  ? "parent"
                           : !m->col[F_SERVICE] ? "service"
                           : !m->col[F_START]   ? "start"
                           : !m->col[F_END] && !m->col[F_DURATION]
                               ? "end or duration"
                               : NULL;
        if (miss)
            rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                              "--csv-map: no column for %s; expected at least "
                              "trace, span, parent, service, start and end or "
                              "duration",
                              miss);
    }
    /* one column for two ids (span=parent: every span its own parent) or
     * two times (start=end: every span 0 long) reads as a trace of
     * nonsense without a word: refused */
    static const int distinct[][3] = {{F_TRACE, F_SPAN, F_PARENT},
                                      {F_START, F_END, F_DURATION}};
    for (int g = 0; rc == PB_OK && g < 2; g++)
        for (int a = 0; rc == PB_OK && a < 3; a++)
            for (int b = a + 1; rc == PB_OK && b < 3; b++) {
                const char *ca = m->col[distinct[g][a]], *cb = m->col[distinct[g][b]];
                if (ca && cb && !strcmp(ca, cb))
                    rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                      "--csv-map: %s=%s and %s=%s name one column; "
                                      "expected a column of its own for each of "
                                      "%s", field_key[distinct[g][a]], ca,
                                      field_key[distinct[g][b]], cb,
                                      g ? "start, end and duration"
                                        : "trace, span and parent");
            }
    if (rc != PB_OK) {
        imp_csv_map_free(m);
        return rc;
    }
    if (!m->dunit)
        m->dunit = m->unit;
    *out = m;
    return PB_OK;
}

/* Where a document's text starts, past a UTF-8 byte-order mark and
 * blanks; len when there is none. */
static size_t text_start(const char *data, size_t len)
{
    size_t i = 0;
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' ||
                       data[i] == '\n'))
        i++;
    return i;
}

int imp_csv_sniff(const char *data, size_t len)
{
    if (!imp_csv_text(data, len))
        return 0;
    for (size_t i = text_start(data, len); i < len && data[i] != '\n'; i++)
        if (data[i] == ',')
            return 1;
    return 0;
}

int imp_csv_text(const char *data, size_t len)
{
    size_t i = text_start(data, len);
    return i < len && data[i] != '{' && data[i] != '[';
}

/* ------------------------------------------------------------------ */
/* pod names */

/* Characters Kubernetes uses in generated names (no vowels, no 0 1 3),
 * plus the digits of older numeric ReplicaSet hashes. */
static int hashchar(char c)
{
    return (c >= '0' && c <= '9') || (c && strchr("bcdfghjklmnpqrstvwxz", c));
}

/* Length of the last "-SEGMENT" of s[0..n) when SEGMENT is lo..hi hash
 * characters and something is left before it; else 0. */
static size_t hash_tail(const char *s, size_t n, size_t lo, size_t hi)
{
    size_t k = 0;
    while (k < n && hashchar(s[n - 1 - k]))
        k++;
    if (k < lo || k > hi || k + 1 >= n || s[n - 1 - k] != '-')
        return 0;
    return k + 1;
}

/* The service of a pod name: a 5-character pod suffix removed, and then a
 * 6-10 character ReplicaSet hash before it ("cartservice-579f59597d-wc2lz"
 * -> "cartservice", a DaemonSet's "agent-x7k2p" -> "agent").  Returns the
 * length of the service name. */
static size_t pod_service(const char *s, size_t n)
{
    size_t t = hash_tail(s, n, 5, 5);
    if (!t)
        return n;
    n -= t;
    t = hash_tail(s, n, 6, 10);
    return n - t;
}

/* ------------------------------------------------------------------ */
/* times */

/* A non-negative decimal number of `unit` nanoseconds, exactly.  Returns
 * 1 and *out, 0 when it is not such a number, -1 when it does not fit, -2
 * (and *out, the digits past a nanosecond dropped) when it has digits past
 * a nanosecond that are not 0: they were dropped without a word (a time in
 * ns with decimals, "1000.5", read as 1000), now refused (past_ns). */
static int parse_time(const char *s, int64_t unit, int64_t *out)
{
    int lost = 0;
    const char *p = s;
    int64_t ip = 0;
    if (!(*p >= '0' && *p <= '9'))
        return 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (ip > (INT64_MAX - 9) / 10)
            return -1;
        ip = ip * 10 + (*p - '0');
    }
    int64_t frac = 0, scale = unit;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (scale >= 10) {
                scale /= 10;
                frac += (*p - '0') * scale;
            } else if (*p != '0') {
                lost = 1;
            }
        }
    }
    if (*p)
        return 0;
    if (ip > (INT64_MAX - frac) / unit)
        return -1;
    *out = ip * unit + frac;
    return lost ? -2 : 1;
}

/* The decimals a time in `unit` nanoseconds holds to the nanosecond. */
static int unit_decimals(int64_t unit)
{
    int d = 0;
    for (; unit > 1; unit /= 10)
        d++;
    return d;
}

static const char *unit_name(int64_t unit)
{
    return unit == 1 ? "ns" : unit == 1000 ? "us" : unit == 1000000 ? "ms" : "s";
}

/* Why a time field is no time, for the message: an exponent (what a
 * float column becomes in pandas' to_csv or printf's %g: "1.6611429e+18"
 * has lost the nanoseconds past its 8th digit) is named as such, as the
 * message trace reader names it; else nothing. */
static const char *time_why(const char *v)
{
    if ((strchr(v, 'e') || strchr(v, 'E')) && pb_opt_decimal(v, strlen(v)))
        return " (it has an exponent, as a float column is written by pandas or "
               "%g, which span tables do not use: write the column in decimal "
               "digits, e.g. pandas float_format=\"%.9f\", or .astype(\"int64\") "
               "for whole numbers)";
    return "";
}

/* ------------------------------------------------------------------ */
/* reading */

typedef struct rd {
    imp_importer *im;
    uint32_t file;
    pb_error *err;
    const struct imp_csv_map *map;
    struct imp_csv_map own; /* Nezha's, when recognised */
    int idx[NFIELDS];       /* column of each field, or -1 */
    size_t ncols;
    char **hdr;             /* header names */
    pb_strbuf row;          /* fields of the current record, NUL-separated */
    size_t *off;
    size_t nf, capoff;
    long line, rec_line;
    size_t nrows;
    int rc;
} rd;

static void cb_field(void *s, size_t len, void *data)
{
    rd *r = data;
    if (r->rc != PB_OK)
        return;
    if (pb_grow(&r->off, sizeof *r->off, &r->capoff, r->nf + 1, 16) != PB_OK) {
        r->rc = PB_ENOMEM;
        return;
    }
    r->off[r->nf++] = r->row.len;
    if (pb_strbuf_append(&r->row, s ? s : "", s ? len : 0) != PB_OK ||
        pb_strbuf_putc(&r->row, '\0') != PB_OK)
        r->rc = PB_ENOMEM;
}

static const char *fld(const rd *r, size_t i)
{
    return r->row.s + r->off[i];
}

static int fail(rd *r, int code, long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int fail(rd *r, int code, long col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->rc = imp_fail(r->im, r->err, code, r->im->files[r->file], r->rec_line,
                     col, "%s", msg);
    return r->rc;
}

/* A time with digits past the nanosecond that are not 0 (parse_time's
 * -2): refused, at its line and column, with the decimals its unit takes. */
static int past_ns(rd *r, int f, const char *v, int64_t unit)
{
    int d = unit_decimals(unit);
    return fail(r, PB_EPARSE, r->idx[f] + 1,
                "field %d (%s): \"%s\": digits past the nanosecond, which "
                "would be lost; expected a decimal number of %s with at most "
                "%d decimal%s (times are read to the nanosecond)",
                r->idx[f] + 1, r->map->col[f], v, unit_name(unit), d,
                d == 1 ? "" : "s");
}

static int find_col(const rd *r, const char *name)
{
    for (size_t i = 0; i < r->ncols; i++)
        if (!strcmp(r->hdr[i], name))
            return (int)i;
    return -1;
}

static void header(rd *r)
{
    r->ncols = r->nf;
    r->hdr = calloc(r->nf ? r->nf : 1, sizeof *r->hdr);
    if (!r->hdr) {
        r->rc = imp_fail(r->im, r->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        return;
    }
    for (size_t i = 0; i < r->nf; i++)
        if (!(r->hdr[i] = strdup(fld(r, i)))) {
            r->rc = imp_fail(r->im, r->err, PB_ENOMEM, NULL, 0, 0,
                             "out of memory");
            return;
        }
    if (!r->map) {
        /* no mapping: Nezha's layout, recognised by its names */
        int ok = 1;
        for (int f = 0; f < NFIELDS; f++)
            if (nezha_col[f] && f != F_OPERATION && f != F_DURATION &&
                f != F_END && find_col(r, nezha_col[f]) < 0)
                ok = 0;
        if (ok && find_col(r, "EndTimeUnixNano") < 0 &&
            find_col(r, "Duration") < 0)
            ok = 0;
        if (!ok) {
            const char *h = r->nf == 1 ? fld(r, 0) : "";
            /* a pathbench message trace (importtrace's own output, left in
             * the folder it read, or a trace given to the wrong program):
             * said as what it is, not as a span table of other columns */
            if (!strncmp(r->nf ? fld(r, 0) : "", "# generator=", 12) ||
                (find_col(r, "id") >= 0 && find_col(r, "ts") >= 0 &&
                 find_col(r, "src") >= 0 && find_col(r, "type") >= 0)) {
                fail(r, PB_EPARSE, 0,
                     "a pathbench message trace (the output of importtrace, "
                     "maketrace or sniffer: \"%.40s\"), not a span table; "
                     "expected spans (a trace is read by infer and score as it "
                     "is; an output written into the folder being imported is "
                     "read back by the next import)", fld(r, 0));
                return;
            }
            fail(r, PB_EPARSE, 0,
                 "a CSV header that is not Nezha's span layout "
                 "(TraceID,SpanID,ParentID,PodName,OperationName,"
                 "StartTimeUnixNano,EndTimeUnixNano,Duration)%s; expected "
                 "that, or the columns named with --csv-map "
                 "(docs/importer.md)",
                 strchr(h, '\t')  ? " but one field (separated by tabs? "
                                    "expected commas)"
                 : strchr(h, ';') ? " but one field (separated by ';'? "
                                    "expected commas)"
                                  : "");
            return;
        }
        for (int f = 0; f < NFIELDS; f++)
            r->own.col[f] = (char *)nezha_col[f];
        r->own.unit = 1;
        r->own.dunit = 1000; /* Duration is in microseconds */
        r->own.root = (char *)"root";
        r->map = &r->own;
    }
    /* for the time-unit check (imp_check_units) */
    imp_importer *im = r->im;
    im->csv_nezha = r->map == &r->own;
    im->csv_unit = r->map->unit;
    im->csv_unit_given = r->map->unit_given;
    im->csv_start_col = r->map == &r->own ? nezha_col[F_START]
                                          : im->csv->col[F_START];
    for (int f = 0; f < NFIELDS; f++) {
        r->idx[f] = r->map->col[f] ? find_col(r, r->map->col[f]) : -1;
        /* a name the map reads given twice: which one holds the field is
         * a guess (the first was taken without a word) */
        for (size_t j = r->idx[f] >= 0 ? (size_t)r->idx[f] + 1 : r->ncols;
             j < r->ncols; j++)
            if (!strcmp(r->hdr[j], r->map->col[f])) {
                fail(r, PB_EPARSE, (long)j + 1,
                     "header field %zu: column \"%s\" (for %s) appears twice "
                     "(fields %d and %zu); expected each column the map reads "
                     "once", j + 1, r->hdr[j], field_key[f], r->idx[f] + 1, j + 1);
                return;
            }
        int needed = f == F_TRACE || f == F_SPAN || f == F_PARENT ||
                     f == F_SERVICE || f == F_START;
        if (r->map->col[f] && r->idx[f] < 0 &&
            (needed || r->map != &r->own)) {
            fail(r, PB_EPARSE, 0,
                 "no column \"%s\" (for %s) in the header; expected one of "
                 "the header's names",
                 r->map->col[f], field_key[f]);
            return;
        }
    }
    if (r->idx[F_END] < 0 && r->idx[F_DURATION] < 0)
        fail(r, PB_EPARSE, 0, "the header has neither an end nor a duration "
                              "column; expected one of them");
}

/* A row with both an end and a duration (Nezha's layout; a map naming
 * end= and duration=): the end is read, and the duration beside it must
 * still be a number (it was never looked at: "ten" passed).  Whether the
 * two say the same length is not checked: a file whose times are in
 * another unit than the map says (which imp_check_units finds and says
 * after the rows are read) has its durations right and its ends wrong,
 * and hand-made tables often write Duration in the times' unit.  PB_OK
 * or r->rc. */
static int end_vs_duration(rd *r)
{
    int ci = r->idx[F_DURATION];
    if (ci < 0)
        return PB_OK;
    const char *v = fld(r, (size_t)ci);
    if (!*v)
        return PB_OK;
    int64_t unit = r->map->dunit, du;
    int k = parse_time(v + (v[0] == '-'), unit, &du);
    if (k == -2)
        return PB_OK; /* checked as a number only: the end is read */
    if (k <= 0)
        return fail(r, k < 0 ? PB_ERANGE : PB_EPARSE, ci + 1,
                    "field %d (%s): \"%s\": expected a decimal number of %s "
                    "that fits in 64-bit nanoseconds, or empty (the end beside "
                    "it is read; the duration too must be a number)%s",
                    ci + 1, r->map->col[F_DURATION], v,
                    unit == 1 ? "ns" : unit == 1000 ? "us" : unit == 1000000 ? "ms" : "s",
                    time_why(v));
    return PB_OK;
}

/* OTLP kind names and numbers too: SPAN_KIND_SERVER, 2. */
static int kind_text(const char *k, int *untagged)
{
    *untagged = 0;
    if (!strncasecmp(k, "SPAN_KIND_", 10))
        k += 10;
    if (!*k || !strcasecmp(k, "unspecified") || !strcmp(k, "0")) {
        *untagged = 1;
        return IMP_K_INTERNAL;
    }
    if (!strcmp(k, "2") || !strcmp(k, "5"))
        return IMP_K_SERVER;
    if (!strcmp(k, "3") || !strcmp(k, "4"))
        return IMP_K_CLIENT;
    return imp_kind_of(k);
}

static int is_root_value(const rd *r, const char *p)
{
    if (!*p || (r->map->root && !strcmp(p, r->map->root)))
        return 1;
    for (; *p; p++)
        if (*p != '0')
            return 0;
    return 1; /* all zeros: OpenTelemetry's invalid span id */
}

/* The node of a pod (shortened unless pods=keep), remembered for the
 * summary. */
static int service_of(rd *r, const char *pod, const char **svc, size_t *len)
{
    imp_importer *im = r->im;
    size_t n = strlen(pod);
    *svc = pod;
    *len = r->map->keep_pods ? n : pod_service(pod, n);
    if (*len == n)
        return PB_OK;
    uint32_t pi, node;
    if ((!im->pods && pb_strtab_init(&im->pods) != PB_OK) ||
        (!im->podsvcs && pb_strtab_init(&im->podsvcs) != PB_OK))
        return PB_ENOMEM;
    size_t before = pb_strtab_count(im->pods);
    if (pb_strtab_intern(im->pods, pod, n, &pi) != PB_OK)
        return PB_ENOMEM;
    if (pb_strtab_count(im->pods) > before) {
        if (pb_grow(&im->pod_svc, sizeof *im->pod_svc, &im->cappods, pi + 1,
                    16) != PB_OK ||
            pb_strtab_intern(im->podsvcs, pod, *len, &node) != PB_OK)
            return PB_ENOMEM;
        im->pod_svc[pi] = node;
    }
    return PB_OK;
}

/* A record whose quoted field holds line breaks and whose count of
 * fields is wrong: most likely a quote left open, which swallowed the
 * lines after it; said, naming the field and the lines it ran over. */
static void quote_hint(const rd *r, char *buf, size_t n)
{
    buf[0] = '\0';
    if (r->line <= r->rec_line)
        return;
    for (size_t i = 0; i < r->nf; i++)
        if (strchr(fld(r, i), '\n')) {
            snprintf(buf, n, " (field %zu, quoted, runs from line %ld over "
                     "line breaks to line %ld: a quote left open?)", i + 1,
                     r->rec_line, r->line);
            return;
        }
}

static void data_row(rd *r)
{
    if (r->nf != r->ncols) {
        char hint[160];
        quote_hint(r, hint, sizeof hint);
        fail(r, PB_EPARSE, 0, "%zu fields; expected %zu as in the header%s",
             r->nf, r->ncols, hint);
        return;
    }
    imp_importer *im = r->im;
    imp_span *s = imp_new_span(im);
    if (!s) {
        r->rc = imp_fail(im, r->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        return;
    }
    s->file = r->file;
    s->src = IMP_SRC_CSV;
    s->pos_a = r->rec_line > 0 && r->rec_line < (long)IMP_NONE
                   ? (uint32_t)r->rec_line
                   : IMP_NONE;
    imp_raw_span raw;
    memset(&raw, 0, sizeof raw);
    raw.trace_id = fld(r, (size_t)r->idx[F_TRACE]);
    raw.span_id = fld(r, (size_t)r->idx[F_SPAN]);
    const char *par = fld(r, (size_t)r->idx[F_PARENT]);
    raw.parent_id = is_root_value(r, par) ? NULL : par;
    raw.operation = r->idx[F_OPERATION] >= 0
                        ? fld(r, (size_t)r->idx[F_OPERATION])
                        : NULL;
    raw.kind = IMP_K_INTERNAL;
    raw.untagged = 1;
    if (r->idx[F_KIND] >= 0) {
        const char *kt = fld(r, (size_t)r->idx[F_KIND]);
        const char *kn = !strncasecmp(kt, "SPAN_KIND_", 10) ? kt + 10 : kt;
        if (*kn && !(kn[0] >= '0' && kn[0] <= '5' && !kn[1]) && !imp_kind_known(kt)) {
            fail(r, PB_EPARSE, r->idx[F_KIND] + 1,
                        "field %d (%s): \"%s\": expected a span kind: client, "
                        "server, producer, consumer, internal (SPAN_KIND_ names "
                        "and the numbers 0 to 5 too), or empty",
                        (int)r->idx[F_KIND] + 1, r->map->col[F_KIND], kt);
            return;
        }
        raw.kind = kind_text(kt, &raw.untagged);
    }
    const char *svc;
    size_t sl;
    char *svcbuf = NULL;
    if (service_of(r, fld(r, (size_t)r->idx[F_SERVICE]), &svc, &sl) != PB_OK ||
        !(svcbuf = dupn(svc, sl))) {
        r->rc = imp_fail(im, r->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        return;
    }
    raw.service = svcbuf;
    raw.ns = 1;
    int64_t t;
    int k = parse_time(fld(r, (size_t)r->idx[F_START]), r->map->unit, &t);
    if (k == -2) {
        past_ns(r, F_START, fld(r, (size_t)r->idx[F_START]), r->map->unit);
        free(svcbuf);
        return;
    }
    if (k <= 0) {
        fail(r, k < 0 ? PB_ERANGE : PB_EPARSE, r->idx[F_START] + 1,
             "field %d (%s): \"%s\": expected a non-negative decimal number "
             "of %s%s%s",
             r->idx[F_START] + 1, r->map->col[F_START],
             fld(r, (size_t)r->idx[F_START]),
             r->map->unit == 1 ? "ns" : r->map->unit == 1000 ? "us"
             : r->map->unit == 1000000 ? "ms" : "s",
             k < 0 ? " that fits in 64-bit nanoseconds" : "",
             time_why(fld(r, (size_t)r->idx[F_START])));
        free(svcbuf);
        return;
    }
    raw.start_ns = t;
    int col = r->idx[F_END] >= 0 ? F_END : F_DURATION;
    const char *v = fld(r, (size_t)r->idx[col]);
    /* an empty end with a duration column beside it (Nezha's layout has
     * both): the row's length is still recorded, in the duration; taking
     * it as missing would make every such span 0 long */
    if (!*v && col == F_END && r->idx[F_DURATION] >= 0 &&
        *fld(r, (size_t)r->idx[F_DURATION])) {
        col = F_DURATION;
        v = fld(r, (size_t)r->idx[col]);
    }
    int64_t unit = col == F_END ? r->map->unit : r->map->dunit;
    if (!*v) {
        raw.has_end = 0; /* counted as missing_duration */
    } else if ((k = parse_time(v + (col == F_DURATION && v[0] == '-'), unit, &t)) == -2) {
        past_ns(r, col, v, unit);
        free(svcbuf);
        return;
    } else if (col == F_DURATION && v[0] == '-' && parse_time(v + 1, unit, &t) == 1) {
        /* a negative duration: counted (negative_duration) and the span
         * taken as 0 long, as an end before the start is here and a
         * negative "duration" in Jaeger, Zipkin and OTLP is (it stopped
         * the import at this row) */
        raw.has_end = 1;
        raw.end_ns = raw.start_ns - t;
    } else if ((k = parse_time(v, unit, &t)) <= 0 ||
               (col == F_DURATION && t > INT64_MAX - raw.start_ns)) {
        fail(r, k < 0 || k == 1 ? PB_ERANGE : PB_EPARSE, r->idx[col] + 1,
             "field %d (%s): \"%s\": expected a non-negative decimal number "
             "of %s that fits in 64-bit nanoseconds%s",
             r->idx[col] + 1, r->map->col[col], v,
             unit == 1 ? "ns" : unit == 1000 ? "us" : unit == 1000000 ? "ms"
                                                                        : "s",
             time_why(v));
        free(svcbuf);
        return;
    } else {
        raw.has_end = 1;
        raw.end_ns = col == F_END ? t : raw.start_ns + t;
        if (col == F_END && end_vs_duration(r) != PB_OK) {
            free(svcbuf);
            return;
        }
    }
    r->rc = imp_store_span(im, s, &raw, r->err);
    free(svcbuf);
    r->nrows++;
}

static void cb_record(int c, void *data)
{
    (void)c;
    rd *r = data;
    if (r->rc == PB_OK) {
        if (!r->hdr)
            header(r);
        else
            data_row(r);
    }
    r->nf = 0;
    pb_strbuf_reset(&r->row);
    r->rec_line = r->line + 1;
}

int imp_csv_buffer(imp_importer *im, const char *data, size_t len,
                   uint32_t file, long line0, pb_error *err)
{
    im->st.count[IMP_C_FILES]++;
    im->formats_seen |= 16u; /* bit 8 is the eBPF capture */
    rd r;
    memset(&r, 0, sizeof r);
    r.im = im;
    r.file = file;
    r.err = err;
    r.map = im->csv;
    r.line = line0 > 0 ? line0 : 0; /* blank lines before the header */
    r.rec_line = r.line + 1;
    size_t pos = 0;
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
        pos = 3;
    const char *nul = memchr(data, '\0', len);
    if (nul) {
        /* its line and column, as every other error names them */
        long ln = r.line + 1;
        const char *bol = data;
        for (const char *c = data; c < nul; c++)
            if (*c == '\n') {
                ln++;
                bol = c + 1;
            }
        return imp_fail(im, err, PB_EPARSE, im->files[file], ln,
                        (long)(nul - bol) + 1,
                        "a NUL byte (at byte offset %zu); expected CSV text",
                        (size_t)(nul - data));
    }
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_APPEND_NULL) != 0)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    /* fed one line at a time so that a record knows its line */
    while (pos < len && r.rc == PB_OK) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - (data + pos)) + 1 : len - pos;
        r.line++;
        if (csv_parse(&p, data + pos, l, cb_field, cb_record, &r) != l) {
            if (r.rc == PB_OK)
                r.rc = imp_fail(im, err, PB_EPARSE, im->files[file], r.line, 0,
                                "malformed CSV (%s); expected comma-separated "
                                "fields, quotes doubled inside quoted fields",
                                csv_strerror(csv_error(&p)));
            break;
        }
        pos += l;
    }
    if (r.rc == PB_OK && csv_fini(&p, cb_field, cb_record, &r) != 0 &&
        r.rc == PB_OK)
        r.rc = imp_fail(im, err, PB_EPARSE, im->files[file], r.line, 0,
                        "malformed CSV at end of input (an unclosed quote?)");
    csv_free(&p);
    if (r.rc == PB_OK && !r.hdr)
        r.rc = imp_fail(im, err, PB_EPARSE, im->files[file], 0, 0,
                        "the input is empty; expected a CSV header and span "
                        "rows");
    if (r.hdr)
        for (size_t i = 0; i < r.ncols; i++)
            free(r.hdr[i]);
    free(r.hdr);
    free(r.off);
    pb_strbuf_free(&r.row);
    if (r.rc == PB_ENOMEM && !im->failed)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return r.rc;
}

int imp_csv_suggest_map(const imp_importer *im, const char *unit,
                        pb_strbuf *out)
{
    if (!im->csv_nezha)
        return pb_strbuf_printf(out, "add unit=%s to your --csv-map", unit);
    int rc = pb_strbuf_puts(out, "--csv-map ");
    for (int f = 0; f < NFIELDS && rc == PB_OK; f++)
        if (nezha_col[f])
            rc = pb_strbuf_printf(out, "%s=%s,", field_key[f], nezha_col[f]);
    if (rc == PB_OK)
        rc = pb_strbuf_printf(out, "root=root,unit=%s,duration_unit=us", unit);
    return rc;
}
