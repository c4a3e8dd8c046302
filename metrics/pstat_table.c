/*
 * pstat_table.c - read the per-seed values of two sides, pair them by
 * seed and summarise each (point, metric) (pstat_table.h).
 */
#include "pstat_table.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_files.h"
#include "pb_mem.h"
#include "pb_opt.h"
#include "pb_strtab.h"

typedef struct side_vals {
    uint32_t *seed; /* index into names */
    double *val;    /* NAN = not measured */
    size_t n, cap;
} side_vals;

typedef struct row_int {
    uint32_t point, metric, series;
    double x;
    pstat_dir dir;
    int dir_side;  /* where dir was first said: side and line */
    long dir_line;
    side_vals s[2];
} row_int;

struct pstat_table {
    pb_strtab *names; /* every string */
    pb_strtab *keys;  /* "POINT_ID:METRIC_ID" (ids in names) -> row index */
    /* "ROW:SIDE:SEED_ID" -> index k, seedpos[k] the value's place in its
     * side: one look-up per value where a scan of the side's seeds made
     * reading and pairing quadratic in the seeds of one point */
    pb_strtab *seeds;
    uint32_t *seedpos;
    size_t seedcap;
    row_int *ri;
    pstat_row *rows;
    size_t n, cap;
};

void pstat_opts_default(pstat_opts *o)
{
    o->level = 0.95;
    o->power = 0.8;
    o->tol_sd = 0;
    o->tol_min = 0;
    o->res_rel = 0.05;
    o->boot_reps = 0;
    o->boot_seed = 1;
}

int pstat_table_init(pstat_table **out)
{
    *out = NULL;
    pstat_table *t = calloc(1, sizeof *t);
    if (!t)
        return PB_ENOMEM;
    if (pb_strtab_init(&t->names) != PB_OK || pb_strtab_init(&t->keys) != PB_OK ||
        pb_strtab_init(&t->seeds) != PB_OK) {
        pstat_table_close(t);
        return PB_ENOMEM;
    }
    uint32_t empty;
    if (pb_strtab_intern(t->names, "", 0, &empty) != PB_OK) {
        pstat_table_close(t);
        return PB_ENOMEM;
    }
    *out = t;
    return PB_OK;
}

void pstat_table_close(pstat_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        for (int s = 0; s < 2; s++) {
            free(t->ri[i].s[s].seed);
            free(t->ri[i].s[s].val);
        }
    free(t->ri);
    free(t->rows);
    pb_strtab_close(t->names);
    pb_strtab_close(t->keys);
    pb_strtab_close(t->seeds);
    free(t->seedpos);
    free(t);
}

size_t pstat_table_nrows(const pstat_table *t) { return t->n; }

const pstat_row *pstat_table_row(const pstat_table *t, size_t i)
{
    return i < t->n ? &t->rows[i] : NULL;
}

/* the row of (point, metric), made when new; -1 when out of memory */
static long row_of(pstat_table *t, const char *point, const char *metric)
{
    /* the key names the strings by their ids: a key of the names
     * themselves was cut at 1,023 bytes, and two long point names that
     * agree that far were one row */
    uint32_t pid, mid;
    if (pb_strtab_intern(t->names, point, strlen(point), &pid) != PB_OK ||
        pb_strtab_intern(t->names, metric, strlen(metric), &mid) != PB_OK)
        return -1;
    char key[32];
    int k = snprintf(key, sizeof key, "%u:%u", (unsigned)pid, (unsigned)mid);
    uint32_t idx;
    if (pb_strtab_find(t->keys, key, (size_t)k, &idx))
        return (long)idx;
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 64;
        row_int *nr = realloc(t->ri, nc * sizeof *nr);
        if (!nr)
            return -1;
        t->ri = nr;
        t->cap = nc;
    }
    if (pb_strtab_intern(t->keys, key, (size_t)k, &idx) != PB_OK)
        return -1;
    row_int *r = &t->ri[t->n];
    memset(r, 0, sizeof *r);
    r->x = NAN;
    r->point = pid;
    r->metric = mid;
    t->n++;
    return (long)idx;
}

/* The key of (row, side, seed) in t->seeds; returns its length. */
static int seed_key(char *buf, size_t n, long row, int side, uint32_t seed)
{
    return snprintf(buf, n, "%ld:%d:%u", row, side, (unsigned)seed);
}

static int side_add(side_vals *s, uint32_t seed, double v)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 8;
        uint32_t *ns = realloc(s->seed, nc * sizeof *ns);
        if (!ns)
            return PB_ENOMEM;
        s->seed = ns;
        double *nv = realloc(s->val, nc * sizeof *nv);
        if (!nv)
            return PB_ENOMEM;
        s->val = nv;
        s->cap = nc;
    }
    s->seed[s->n] = seed;
    s->val[s->n++] = v;
    return PB_OK;
}

enum { C_POINT, C_METRIC, C_SEED, C_VALUE, C_BETTER, C_SERIES, C_X, C_N };
static const char *const col_names[C_N] = {"point", "metric", "seed", "value",
                                           "better", "series", "x"};
#define MAXF 256

/* split line (modified in place) at commas into f[], column starts in col[] */
static int split(char *line, char **f, long *col)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == MAXF)
            return -1;
        f[n] = p;
        col[n] = (long)(p - line) + 1;
        n++;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

int pstat_table_read(pstat_table *t, int side, const char *path, pb_error *err)
{
    /* checked against the run's outputs; a folder is refused by name */
    FILE *fp = pb_files_open(path, err);
    if (!fp)
        return err->code;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int col[C_N], have_header = 0, hdr_nf = 0, rc = PB_OK;
    char *f[MAXF];
    long fc[MAXF];
    for (int i = 0; i < C_N; i++)
        col[i] = -1;
    size_t ul;
    int got;
    /* a line at most 1 MiB and a NUL byte said where it is: a binary
     * file or /dev/zero is refused at once (getline's ENOMEM looked like
     * the end of the file: "no header line") */
    while ((got = pb_files_getline(fp, &line, &cap, (size_t)1 << 20, &ul)) == 1 ||
           got == PB_ERANGE) {
        lineno++;
        len = (ssize_t)ul;
        const char *z = memchr(line, '\0', ul);
        if (got == PB_ERANGE || z) {
            rc = pb_error_set(err, PB_EPARSE, path, lineno,
                              z ? (long)(z - line) + 1 : 0, "%s; expected text "
                              "point,metric,seed,value (a binary file?)",
                              z ? "a NUL byte" : "a line longer than 1 MiB");
            break;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (line[0] == '#' || len == 0)
            continue;
        char *q = strchr(line, '"');
        if (q) {
            rc = pb_error_set(err, PB_EPARSE, path, lineno, (long)(q - line) + 1,
                              "a quote; expected plain comma-separated fields");
            break;
        }
        int nf = split(line, f, fc);
        if (nf < 0) {
            rc = pb_error_set(err, PB_EPARSE, path, lineno, 0,
                              "more than %d fields; expected fewer", MAXF);
            break;
        }
        if (!have_header) {
            for (int i = 0; i < nf; i++)
                for (int c = 0; c < C_N; c++)
                    if (!strcmp(f[i], col_names[c])) {
                        if (col[c] >= 0) {
                            /* which of the two was meant is not ours to guess */
                            rc = pb_error_set(err, PB_EPARSE, path, lineno, fc[i],
                                              "column '%s' twice (fields %d and %d); "
                                              "expected each column once",
                                              col_names[c], col[c] + 1, i + 1);
                            goto done;
                        }
                        col[c] = i;
                    }
            for (int c = 0; c <= C_VALUE; c++)
                if (col[c] < 0) {
                    rc = pb_error_set(err, PB_EPARSE, path, lineno, 1,
                                      "header without column '%s'; expected "
                                      "point,metric,seed,value[,better,series,x]",
                                      col_names[c]);
                    goto done;
                }
            have_header = 1;
            hdr_nf = nf;
            continue;
        }
        if (nf > hdr_nf) {
            /* a field past the header's is a value no column names: a comma
             * inside a name, or a row of another file (was dropped) */
            rc = pb_error_set(err, PB_EPARSE, path, lineno, fc[hdr_nf],
                              "%d fields; expected %d as in the header", nf, hdr_nf);
            break;
        }
        const char *v[C_N];
        for (int c = 0; c < C_N; c++) {
            if (col[c] >= nf) {
                rc = pb_error_set(err, PB_EPARSE, path, lineno, (long)len + 1,
                                  "%d fields; expected a '%s' field (column %d)",
                                  nf, col_names[c], col[c] + 1);
                goto done;
            }
            v[c] = col[c] >= 0 ? f[col[c]] : "";
        }
        if (nf < hdr_nf) {
            /* fewer: a row cut short (a file truncated mid-line, a lost
             * comma) reads its fields into the wrong columns or none; was
             * taken when every column compare reads was still there;
             * a read column missing is named above */
            rc = pb_error_set(err, PB_EPARSE, path, lineno, (long)len + 1,
                              "%d fields; expected %d as in the header (a row "
                              "cut short?)", nf, hdr_nf);
            break;
        }
        if (!*v[C_POINT] || !*v[C_METRIC] || !*v[C_SEED]) {
            int c = !*v[C_POINT] ? C_POINT : !*v[C_METRIC] ? C_METRIC : C_SEED;
            rc = pb_error_set(err, PB_EPARSE, path, lineno, fc[col[c]],
                              "empty '%s'; expected a name", col_names[c]);
            break;
        }
        /* a blank at either end of a name was kept as part of it: seed
         * " 1" and seed "1" were two seeds, their values left unpaired
         * without a word (a point or metric: two rows, each MISSING) */
        {
            static const int named[] = {C_POINT, C_METRIC, C_SEED, C_SERIES};
            int bad = -1;
            for (size_t k = 0; k < sizeof named / sizeof *named && bad < 0; k++) {
                const char *nv = v[named[k]];
                size_t nl = strlen(nv);
                if (nl && (nv[0] == ' ' || nv[0] == '\t' || nv[nl - 1] == ' ' ||
                           nv[nl - 1] == '\t'))
                    bad = named[k];
            }
            if (bad >= 0) {
                rc = pb_error_set(err, PB_EPARSE, path, lineno, fc[col[bad]],
                                  "%s '%s' has a blank at its start or end; expected "
                                  "the name without it (a blank is part of a name: "
                                  "' 1' and '1' are two seeds, whose values would "
                                  "go unpaired)", col_names[bad], v[bad]);
                break;
            }
        }
        double val = NAN;
        const char *vs = v[C_VALUE];
        if (*vs && strcmp(vs, "-") && strcmp(vs, "nan") && strcmp(vs, "NaN")) {
            char *end;
            errno = 0;
            val = strtod(vs, &end);
            /* underflow (1e-320) is a number strtod rounds toward 0;
             * hex ("0x10") is read by no trace or option reader */
            if (errno == ERANGE && fabs(val) <= DBL_MIN)
                errno = 0;
            if (end == vs || *end || errno || !isfinite(val) ||
                !pb_opt_decimal(vs, strlen(vs))) {
                rc = pb_error_set(err, PB_EPARSE, path, lineno, fc[col[C_VALUE]],
                                  "value '%s'; expected a finite number written in decimal (or "
                                  "empty, nan, - when not measured)", vs);
                break;
            }
        }
        pstat_dir dir;
        if (!pstat_dir_parse(v[C_BETTER], &dir)) {
            rc = pb_error_set(err, PB_EPARSE, path, lineno, fc[col[C_BETTER]],
                              "better '%s'; expected higher, lower or none",
                              v[C_BETTER]);
            break;
        }
        double x = NAN;
        if (*v[C_X]) {
            char *end;
            x = strtod(v[C_X], &end);
            if (end == v[C_X] || *end || !isfinite(x) ||
                !pb_opt_decimal(v[C_X], strlen(v[C_X]))) {
                rc = pb_error_set(err, PB_EPARSE, path, lineno, fc[col[C_X]],
                                  "x '%s'; expected a number", v[C_X]);
                break;
            }
        }
        long r = row_of(t, v[C_POINT], v[C_METRIC]);
        if (r < 0) {
            rc = pb_error_set(err, PB_ENOMEM, path, lineno, 0, "out of memory");
            break;
        }
        row_int *ri = &t->ri[r];
        if (dir != PSTAT_NONE && ri->dir != PSTAT_NONE && dir != ri->dir) {
            /* one metric, two directions: the verdict would follow the last
             * row read (was silent) */
            rc = pb_error_set(err, PB_EPARSE, path, lineno, fc[col[C_BETTER]],
                              "point %s metric %s: better '%s' where side %c line %ld said "
                              "'%s'; expected one direction per metric",
                              v[C_POINT], v[C_METRIC], v[C_BETTER], ri->dir_side ? 'B' : 'A',
                              ri->dir_line, ri->dir == PSTAT_HIGHER ? "higher" : "lower");
            break;
        }
        if (dir != PSTAT_NONE && ri->dir == PSTAT_NONE) {
            ri->dir = dir;
            ri->dir_side = side ? 1 : 0;
            ri->dir_line = lineno;
        }
        if (*v[C_SERIES] &&
            pb_strtab_intern(t->names, v[C_SERIES], strlen(v[C_SERIES]), &ri->series) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, path, lineno, 0, "out of memory");
            break;
        }
        if (!isnan(x))
            ri->x = x;
        uint32_t seed;
        if (pb_strtab_intern(t->names, v[C_SEED], strlen(v[C_SEED]), &seed) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, path, lineno, 0, "out of memory");
            break;
        }
        side_vals *s = &ri->s[side ? 1 : 0];
        char sk[48];
        int skl = seed_key(sk, sizeof sk, r, side ? 1 : 0, seed);
        uint32_t ski;
        if (pb_strtab_find(t->seeds, sk, (size_t)skl, &ski)) {
            rc = pb_error_set(err, PB_EDUP, path, lineno, fc[col[C_SEED]],
                              "point %s metric %s seed %s a second time; "
                              "expected one value per seed", v[C_POINT],
                              v[C_METRIC], v[C_SEED]);
            goto done;
        }
        if (pb_strtab_intern(t->seeds, sk, (size_t)skl, &ski) != PB_OK ||
            pb_grow(&t->seedpos, sizeof *t->seedpos, &t->seedcap, (size_t)ski + 1,
                    64) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, path, lineno, 0, "out of memory");
            break;
        }
        t->seedpos[ski] = (uint32_t)s->n;
        if (side_add(s, seed, val) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, path, lineno, 0, "out of memory");
            break;
        }
    }
    if (rc == PB_OK && got == PB_ENOMEM)
        rc = pb_error_set(err, PB_ENOMEM, path, lineno, 0, "out of memory");
    if (rc == PB_OK && (got == PB_EIO || ferror(fp)))
        rc = pb_error_set(err, PB_EIO, path, lineno, 0, "read error: %s",
                          strerror(errno));
    if (rc == PB_OK && !have_header)
        rc = pb_error_set(err, PB_EPARSE, path, lineno, 0,
                          "no header line; expected point,metric,seed,value");
done:
    free(line);
    if (fp != stdin)
        fclose(fp);
    return rc;
}

int pstat_is_resource(const char *metric)
{
    size_t n = strlen(metric);
    return (n > 2 && !strcmp(metric + n - 2, "_s")) ||
           (n > 3 && !strcmp(metric + n - 3, "_kb"));
}

int pstat_table_compute(pstat_table *t, const pstat_opts *o, pb_error *err)
{
    if (!(o->tol_sd >= 0) || !(o->tol_min >= 0) || !(o->res_rel >= 0))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "tolerances %g, %g, %g; expected >= 0", o->tol_sd,
                            o->tol_min, o->res_rel);
    free(t->rows);
    t->rows = calloc(t->n ? t->n : 1, sizeof *t->rows);
    if (!t->rows)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    size_t maxn = 1;
    for (size_t i = 0; i < t->n; i++)
        if (t->ri[i].s[0].n > maxn)
            maxn = t->ri[i].s[0].n;
    double *a = malloc(maxn * sizeof *a), *b = malloc(maxn * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int rc = PB_OK;
    for (size_t i = 0; i < t->n && rc == PB_OK; i++) {
        row_int *ri = &t->ri[i];
        pstat_row *r = &t->rows[i];
        r->point = pb_strtab_str(t->names, ri->point);
        r->metric = pb_strtab_str(t->names, ri->metric);
        r->series = pb_strtab_str(t->names, ri->series);
        r->x = ri->x;
        r->dir = ri->dir;
        r->boot_lo = r->boot_hi = NAN;
        size_t n = 0;
        for (size_t j = 0; j < ri->s[0].n; j++)
            if (!isnan(ri->s[0].val[j]))
                r->na++;
        for (size_t j = 0; j < ri->s[1].n; j++)
            if (!isnan(ri->s[1].val[j]))
                r->nb++;
        /* pairs in side A's seed order */
        for (size_t j = 0; j < ri->s[0].n; j++) {
            double va = ri->s[0].val[j];
            char sk[48];
            int skl = seed_key(sk, sizeof sk, (long)i, 1, ri->s[0].seed[j]);
            uint32_t ski;
            double vb = pb_strtab_find(t->seeds, sk, (size_t)skl, &ski)
                            ? ri->s[1].val[t->seedpos[ski]]
                            : NAN;
            if (!isnan(va) && !isnan(vb)) {
                a[n] = va;
                b[n++] = vb;
            }
        }
        r->nmissing = (r->na - n) + (r->nb - n);
        if (n == 0)
            continue;
        rc = pstat_paired_t(a, b, n, o->level, o->power, &r->p, err);
        if (rc != PB_OK) {
            /* say which row: the statistics know only the numbers */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            rc = pb_error_set(err, rc, NULL, 0, 0, "point %s metric %s: %s",
                              r->point, r->metric, msg);
            break;
        }
        if (pstat_is_resource(r->metric))
            r->tol = o->res_rel * fabs(r->p.mean_a);
        else
            r->tol = fmax(o->tol_min, o->tol_sd * r->p.sd_a);
        if (o->boot_reps > 0 && n >= 2) {
            rc = pstat_bootstrap(a, b, n, o->level, (size_t)o->boot_reps, o->boot_seed,
                                 &r->boot_lo, &r->boot_hi, err);
            if (rc != PB_OK)
                break;
            pstat_paired q = r->p;
            q.lo = r->boot_lo;
            q.hi = r->boot_hi;
            r->verdict = pstat_verdict_of(&q, r->dir, r->tol);
        } else {
            r->verdict = pstat_verdict_of(&r->p, r->dir, r->tol);
        }
    }
    free(a);
    free(b);
    return rc;
}
