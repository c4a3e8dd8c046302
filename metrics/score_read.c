/* Reading result files (format: pb_result.h). */
#include "pb_opt.h"
#include "pb_files.h"
#include "score.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_ptree.h"
#include "pb_strbuf.h"
#include "pb_strtab.h"
#include "pb_mem.h"
#include "pb_sort.h"

/* Fields of one CSV record, collected by libcsv's callbacks. */
typedef struct rec {
    char **f;
    size_t *len;
    size_t n, cap;
    int done;
    int oom;
} rec;

static void cb_field(void *s, size_t len, void *data)
{
    rec *r = data;
    if (r->oom)
        return;
    void *const arrs[] = {&r->f, &r->len};
    const size_t sz[] = {sizeof *r->f, sizeof *r->len};
    if (pb_grow_parallel(&r->cap, r->n + 1, 16, 2, arrs, sz) != PB_OK) {
        r->oom = 1;
        return;
    }
    char *c = malloc(len + 1);
    if (!c) {
        r->oom = 1;
        return;
    }
    if (len)
        memcpy(c, s, len);
    c[len] = 0;
    r->f[r->n] = c;
    r->len[r->n] = len;
    r->n++;
}

static void cb_record(int c, void *data)
{
    (void)c;
    ((rec *)data)->done = 1;
}

static void rec_clear(rec *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->f[i]);
    r->n = 0;
    r->done = 0;
}

static void rec_free(rec *r)
{
    rec_clear(r);
    free(r->f);
    free(r->len);
}

enum { COL_RANK, COL_PATTERN, COL_COUNT, COL_SCORE, COL_MAXP, COL_TOTAL,
       COL_MEAN, COL_NODE, COL_EDGE, NPCOL };
static const char *const pcol_names[NPCOL] = {
    "rank", "pattern", "count", "score", "max_prob", "total_latency",
    "mean_latency", "node_latency", "edge_delay"};
enum { ACOL_ID, ACOL_INSTANCE, ACOL_RANK, ACOL_PARENT, ACOL_CONF, NACOL };
static const char *const acol_names[NACOL] = {"id", "instance", "rank", "parent",
                                              "confidence"};

typedef struct reader {
    const char *file;
    pb_error *err;
    score_result *res;
    size_t pat_cap, asg_cap, abs_cap;
    enum { SEC_META, SEC_PAT_HEAD, SEC_PAT, SEC_ASG_HEAD, SEC_ASG } sec;
    int pcol[NPCOL];   /* field index of each column, -1 if absent */
    size_t npfields;
    int acol[NACOL];
    size_t nafields;
    pb_strtab *names;
    pb_strtab *texts;  /* canonical texts of the rows so far, in row order */
    pb_ptree tree;
    pb_strbuf canon;
    uint32_t *order;
    double *tmp;
    size_t tmp_cap;
} reader;


/* A field as quoted in a message: at most 40 bytes, then "...", so that
 * the message always ends with what was expected. */
#define SHOWN_MAX 48
static const char *shown(char *buf, const char *s)
{
    size_t l = strlen(s);
    if (l <= 40)
        return s;
    memcpy(buf, s, 40);
    memcpy(buf + 40, "...", 4);
    return buf;
}

static int parse_u64(const char *s, uint64_t *out)
{
    if (!*s || *s < '0' || *s > '9')
        return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return 0;
    *out = v;
    return 1;
}

/* Empty text is NAN; otherwise a finite decimal number. */
static int parse_num(const char *s, size_t len, double *out)
{
    if (len == 0) {
        *out = NAN;
        return 1;
    }
    char buf[64];
    if (len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    double v = strtod(buf, &end);
    /* ERANGE on underflow is fine: a subnormal (or zero) is still a
     * number; overflow gives HUGE_VAL, caught by isfinite */
    if (end == buf || *end || !isfinite(v) || !pb_opt_decimal(buf, len))
        return 0; /* hex ("0x1") too: no reader takes it */
    *out = v;
    return 1;
}

static int header(reader *rd, rec *r, long line, int *cols, size_t ncols,
                  const char *const *names, size_t *nfields, const char *table)
{
    for (size_t c = 0; c < ncols; c++)
        cols[c] = -1;
    for (size_t i = 0; i < r->n; i++)
        for (size_t c = 0; c < ncols; c++)
            if (!strcmp(r->f[i], names[c])) {
                if (cols[c] >= 0)
                    return pb_error_set(rd->err, PB_EPARSE, rd->file, line,
                                        (long)i + 1, "column %s appears twice in "
                                        "the %s header", names[c], table);
                cols[c] = (int)i;
            }
    *nfields = r->n;
    /* the first three columns of each table are required */
    for (size_t c = 0; c < 3 && c < ncols; c++)
        if (cols[c] < 0)
            return pb_error_set(rd->err, PB_EPARSE, rd->file, line, 0,
                                "the %s header lacks column %s; expected at "
                                "least %s,%s,%s", table, names[c], names[0],
                                names[1], names[2]);
    return PB_OK;
}

/* A ';'-separated list of nnodes numbers (empty = unknown) into dst, in
 * canonical positions (order maps text pre-order -> canonical). */
static int node_list(reader *rd, long line, int field, const char *what,
                     const char *s, size_t len, uint32_t nnodes, double *dst)
{
    for (uint32_t k = 0; k < nnodes; k++)
        dst[k] = NAN;
    if (len == 0)
        return PB_OK;
    uint32_t k = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != ';')
            continue;
        if (k >= nnodes)
            return pb_error_set(rd->err, PB_EPARSE, rd->file, line, field,
                                "field %d (%s): more than %u ';'-separated "
                                "values; expected one per pattern node", field,
                                what, nnodes);
        double v;
        if (!parse_num(s + start, i - start, &v))
            return pb_error_set(rd->err, PB_EPARSE, rd->file, line, field,
                                "field %d (%s): value %u \"%.*s%s\" is not a "
                                "number; expected seconds or empty", field, what,
                                k + 1, (int)(i - start > 40 ? 40 : i - start),
                                s + start, i - start > 40 ? "..." : "");
        dst[rd->order[k]] = v;
        k++;
        start = i + 1;
    }
    if (k != nnodes)
        return pb_error_set(rd->err, PB_EPARSE, rd->file, line, field,
                            "field %d (%s): %u ';'-separated values; expected "
                            "%u, one per pattern node", field, what, k, nnodes);
    return PB_OK;
}

static int pattern_row(reader *rd, rec *r, long line)
{
    if (r->n != rd->npfields)
        return pb_error_set(rd->err, PB_EPARSE, rd->file, line, 0,
                            "pattern row has %zu fields; expected %zu as in "
                            "the header", r->n, rd->npfields);
    score_result *res = rd->res;
    if (pb_grow(&res->pats, sizeof *res->pats, &rd->pat_cap, res->npats + 1, 64) != PB_OK)
        return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    score_pattern *p = &res->pats[res->npats];
    memset(p, 0, sizeof *p);
    p->line = line;
    char sb[SHOWN_MAX];
    int fr = rd->pcol[COL_RANK], fp = rd->pcol[COL_PATTERN], fc = rd->pcol[COL_COUNT];
    uint64_t v;
    if (!parse_u64(r->f[fr], &v) || v == 0 || v > UINT32_MAX)
        return pb_error_set(rd->err, PB_EPARSE, rd->file, line, fr + 1,
                            "field %d (rank): \"%s\" is not a rank; expected an "
                            "integer >= 1", fr + 1, shown(sb, r->f[fr]));
    p->rank = (uint32_t)v;
    if (!parse_u64(r->f[fc], &p->count))
        return pb_error_set(rd->err, PB_EPARSE, rd->file, line, fc + 1,
                            "field %d (count): \"%s\" is not a count; expected an "
                            "integer >= 0", fc + 1, shown(sb, r->f[fc]));
    pb_error perr;
    pb_error_clear(&perr);
    int rc = pb_ptree_parse(r->f[fp], r->len[fp], rd->names, &rd->tree, &perr);
    if (rc == PB_ENOMEM)
        return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc == PB_OK && (rd->tree.n < 2 || pb_ptree_nchildren(&rd->tree, 0) != 1)) {
        rc = PB_EPARSE;
        perr.column = (long)r->len[fp] + 1;
        snprintf(perr.msg, sizeof perr.msg, "malformed pattern at character "
                 "%ld: expected a tree whose root has exactly one child",
                 perr.column);
    }
    if (rc != PB_OK)
        return pb_error_set(rd->err, PB_EPARSE, rd->file, line, fp + 1,
                            "field %d (pattern) \"%s\": %s", fp + 1,
                            shown(sb, r->f[fp]), perr.msg);
    uint32_t nn = rd->tree.n;
    uint32_t *ord = realloc(rd->order, nn * sizeof *ord);
    if (!ord)
        return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    rd->order = ord;
    pb_strbuf_reset(&rd->canon);
    if (pb_ptree_canonical(&rd->tree, rd->names, &rd->canon, rd->order) != PB_OK)
        return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    p->nnodes = nn;
    p->text = strdup(pb_strbuf_str(&rd->canon));
    p->node_lat = malloc(2 * (size_t)nn * sizeof *p->node_lat);
    if (!p->text || !p->node_lat) {
        free(p->text);
        free(p->node_lat);
        return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    p->edge_delay = p->node_lat + nn;
    res->npats++; /* owned by res from here on */
    const struct {
        int col;
        double *dst;
    } nums[] = {{rd->pcol[COL_SCORE], &p->score},
                {rd->pcol[COL_TOTAL], &p->total_latency},
                {rd->pcol[COL_MEAN], &p->mean_latency}};
    int ncol[] = {COL_SCORE, COL_TOTAL, COL_MEAN};
    for (size_t i = 0; i < 3; i++) {
        *nums[i].dst = NAN;
        int c = nums[i].col;
        if (c >= 0 && !parse_num(r->f[c], r->len[c], nums[i].dst))
            return pb_error_set(rd->err, PB_EPARSE, rd->file, line, c + 1,
                                "field %d (%s): \"%s\" is not a number; expected "
                                "a decimal number or empty", c + 1,
                                pcol_names[ncol[i]], shown(sb, r->f[c]));
    }
    for (uint32_t k = 0; k < nn; k++)
        p->node_lat[k] = p->edge_delay[k] = NAN;
    int c = rd->pcol[COL_NODE];
    if (c >= 0 && (rc = node_list(rd, line, c + 1, "node_latency", r->f[c],
                                  r->len[c], nn, p->node_lat)) != PB_OK)
        return rc;
    c = rd->pcol[COL_EDGE];
    if (c >= 0 && (rc = node_list(rd, line, c + 1, "edge_delay", r->f[c],
                                  r->len[c], nn, p->edge_delay)) != PB_OK)
        return rc;
    /* a repeated pattern, through a table of the texts seen (a scan of
     * all rows before would be quadratic in the number of patterns);
     * repeated ranks are found when the ranks are sorted */
    uint32_t before = pb_strtab_count(rd->texts), ti;
    if (pb_strtab_intern(rd->texts, p->text, strlen(p->text), &ti) != PB_OK)
        return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (pb_strtab_count(rd->texts) == before)
        return pb_error_set(rd->err, PB_EDUP, rd->file, line, fp + 1,
                            "pattern %s appears twice (also on line %ld); "
                            "expected one row per pattern", shown(sb, p->text),
                            res->pats[ti].line);
    return PB_OK;
}

static int assign_row(reader *rd, rec *r, long line)
{
    if (r->n != rd->nafields)
        return pb_error_set(rd->err, PB_EPARSE, rd->file, line, 0,
                            "assignment row has %zu fields; expected %zu as in "
                            "the header", r->n, rd->nafields);
    score_result *res = rd->res;
    char sb[SHOWN_MAX];
    score_assign a = {0};
    a.line = line;
    a.parent = PB_NO_PARENT;
    a.confidence = NAN;
    int ci = rd->acol[ACOL_INSTANCE], cr = rd->acol[ACOL_RANK];
    /* an abstention: instance and rank both empty */
    int abstain = !*r->f[ci] && !*r->f[cr];
    uint64_t rank = 0;
    const struct {
        int idx;
        uint64_t *dst;
        const char *what;
    } f[] = {{ACOL_ID, &a.id, "a message id"},
             {ACOL_INSTANCE, &a.instance, "an instance id"},
             {ACOL_RANK, &rank, "a pattern rank"}};
    for (size_t i = 0; i < (abstain ? 1u : 3u); i++) {
        int c = rd->acol[f[i].idx];
        if (!parse_u64(r->f[c], f[i].dst))
            return pb_error_set(rd->err, PB_EPARSE, rd->file, line, c + 1,
                                "field %d (%s): \"%s\" is not %s; expected an "
                                "unsigned integer%s", c + 1, acol_names[f[i].idx],
                                shown(sb, r->f[c]), f[i].what,
                                i ? ", or instance and rank both empty (an "
                                    "abstention)" : "");
    }
    int c = rd->acol[ACOL_PARENT];
    if (c >= 0 && *r->f[c]) {
        if (abstain)
            return pb_error_set(rd->err, PB_EPARSE, rd->file, line, c + 1,
                                "field %d (parent): \"%s\" on an abstention "
                                "(empty instance); expected an empty parent: an "
                                "unattached message has none", c + 1,
                                shown(sb, r->f[c]));
        if (!parse_u64(r->f[c], &a.parent) || a.parent == PB_NO_PARENT)
            return pb_error_set(rd->err, PB_EPARSE, rd->file, line, c + 1,
                                "field %d (parent): \"%s\" is not a message id; "
                                "expected an unsigned integer below 2^64-1 or "
                                "empty", c + 1, shown(sb, r->f[c]));
        if (a.parent == a.id)
            return pb_error_set(rd->err, PB_EPARSE, rd->file, line, c + 1,
                                "field %d (parent): message %llu is its own "
                                "parent; expected the id of another message or "
                                "empty", c + 1, (unsigned long long)a.id);
    }
    c = rd->acol[ACOL_CONF];
    if (c >= 0 && (!parse_num(r->f[c], r->len[c], &a.confidence) ||
                   (!isnan(a.confidence) && !(a.confidence >= 0 && a.confidence <= 1))))
        return pb_error_set(rd->err, PB_EPARSE, rd->file, line, c + 1,
                            "field %d (confidence): \"%s\" is not a confidence; "
                            "expected a number in [0, 1] or empty", c + 1,
                            shown(sb, r->f[c]));
    if (abstain) {
        if (pb_grow(&res->abstain, sizeof *res->abstain, &rd->abs_cap,
                    res->nabstain + 1, 256) != PB_OK)
            return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        res->abstain[res->nabstain++] = a;
        return PB_OK;
    }
    if (pb_grow(&res->assign, sizeof *res->assign, &rd->asg_cap, res->nassign + 1, 1024) != PB_OK)
        return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    /* rank -> pattern index is resolved once all rows are read */
    a.pattern = (size_t)rank;
    res->assign[res->nassign++] = a;
    return PB_OK;
}

typedef struct idline {
    uint64_t id, instance;
    long line;
} idline;

static int cmp_idline(const void *x, const void *y)
{
    const idline *a = x, *b = y;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* With res->assign sorted by instance: no rank has more instances than
 * its count, and no message is in two instances, or in one and also
 * abstained, or abstained twice. */
static int check_assign(reader *rd)
{
    score_result *res = rd->res;
    size_t n = res->nassign, na = res->nabstain;
    if (!n && !na)
        return PB_OK;
    uint64_t *ninst = calloc(res->npats ? res->npats : 1, sizeof *ninst);
    idline *v = malloc((n + na) * sizeof *v);
    if (!ninst || !v) {
        free(ninst);
        free(v);
        return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int rc = PB_OK;
    for (size_t i = 0; i < n; i++) {
        const score_assign *a = &res->assign[i];
        if (i == 0 || a->instance != res->assign[i - 1].instance)
            ninst[a->pattern]++;
        v[i] = (idline){a->id, a->instance, a->line};
    }
    /* UINT64_MAX: an abstention (instance ids are read below 2^64-1 only
     * by chance, so the message says which row is which by line) */
    for (size_t i = 0; i < na; i++)
        v[n + i] = (idline){res->abstain[i].id, UINT64_MAX, res->abstain[i].line};
    for (size_t p = 0; p < res->npats && rc == PB_OK; p++)
        if (ninst[p] > res->pats[p].count)
            rc = pb_error_set(rd->err, PB_EPARSE, rd->file, res->pats[p].line, 0,
                              "rank %u has count %llu but %llu instances in the "
                              "assignment table; expected at most its count",
                              res->pats[p].rank,
                              (unsigned long long)res->pats[p].count,
                              (unsigned long long)ninst[p]);
    if (rc == PB_OK) {
        pb_sort(v, n + na, sizeof *v, cmp_idline);
        for (size_t i = 1; i < n + na; i++)
            if (v[i].id == v[i - 1].id) {
                int ab = 0;
                for (size_t k = 0; k < na; k++)
                    if (res->abstain[k].line == v[i].line ||
                        res->abstain[k].line == v[i - 1].line)
                        ab = 1;
                if (ab)
                    rc = pb_error_set(rd->err, PB_EDUP, rd->file, v[i].line, 1,
                                      "message %llu has a second row here (also "
                                      "on line %ld), one of them an abstention "
                                      "(empty instance); expected one row per "
                                      "message", (unsigned long long)v[i].id,
                                      v[i - 1].line);
                else
                    rc = pb_error_set(rd->err, PB_EDUP, rd->file, v[i].line, 1,
                                      "message %llu is ascribed to instance %llu "
                                      "here and to instance %llu on line %ld; "
                                      "expected one instance per message",
                                      (unsigned long long)v[i].id,
                                      (unsigned long long)v[i].instance,
                                      (unsigned long long)v[i - 1].instance,
                                      v[i - 1].line);
                break;
            }
    }
    /* parent links (v sorted by id, no id twice) form no cycle: checked by
     * score --query only, so plain score scored a result whose links loop
     * (no message of the loop has a first cause) link by link without a
     * word.  A link may cross instances (linking's do).  O(n log n). */
    size_t *pi = NULL;
    unsigned char *st = NULL;
    if (rc == PB_OK && res->has_parent && n &&
        (!(pi = malloc(n * sizeof *pi)) || !(st = calloc(n, 1))))
        rc = pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc == PB_OK && pi) {
        for (size_t i = 0; i < n && rc == PB_OK; i++) {
            const score_assign *a = &res->assign[i];
            pi[i] = SIZE_MAX;
            if (a->parent == PB_NO_PARENT)
                continue;
            size_t lo = 0, hi = n + na;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (v[mid].id < a->parent)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == n + na || v[lo].id != a->parent)
                continue; /* not in the result: the truth check says */
            if (v[lo].instance == UINT64_MAX)
                continue; /* an abstention: ends the chain */
            /* the parent's row in res->assign (by instance, then id) */
            size_t l2 = 0, h2 = n;
            while (l2 < h2) {
                size_t mid = l2 + (h2 - l2) / 2;
                const score_assign *b = &res->assign[mid];
                if (b->instance < v[lo].instance ||
                    (b->instance == v[lo].instance && b->id < a->parent))
                    l2 = mid + 1;
                else
                    h2 = mid;
            }
            pi[i] = l2;
        }
        for (size_t i = 0; i < n && rc == PB_OK; i++) {
            size_t x = i;
            while (x != SIZE_MAX && st[x] == 0) {
                st[x] = 1;
                x = pi[x];
            }
            if (x != SIZE_MAX && st[x] == 1)
                rc = pb_error_set(rd->err, PB_EPARSE, rd->file, res->assign[x].line, 0,
                                  "parent links form a cycle through message %llu; "
                                  "expected each message's parent to precede it",
                                  (unsigned long long)res->assign[x].id);
            for (size_t y = i; y != SIZE_MAX && st[y] == 1; y = pi[y])
                st[y] = 2;
        }
    }
    free(pi);
    free(st);
    free(ninst);
    free(v);
    return rc;
}

static int cmp_assign(const void *x, const void *y)
{
    const score_assign *a = x, *b = y;
    if (a->instance != b->instance)
        return a->instance < b->instance ? -1 : 1;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

static int cmp_rank_idx(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Map ranks to patterns; check each instance has one rank and no message
 * twice. */
static int finish_assign(reader *rd)
{
    score_result *res = rd->res;
    size_t np = res->npats;
    uint64_t *byrank = malloc((np ? np : 1) * 2 * sizeof *byrank);
    if (!byrank)
        return pb_error_set(rd->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < np; i++) {
        byrank[2 * i] = res->pats[i].rank;
        byrank[2 * i + 1] = i;
    }
    if (np)
        pb_sort(byrank, np, 2 * sizeof *byrank, cmp_rank_idx);
    for (size_t i = 1; i < np; i++)
        if (byrank[2 * i] == byrank[2 * i - 2]) {
            const score_pattern *a = &res->pats[byrank[2 * i - 1]],
                                *b = &res->pats[byrank[2 * i + 1]];
            if (a->line > b->line) {
                const score_pattern *t = a;
                a = b;
                b = t;
            }
            free(byrank);
            return pb_error_set(rd->err, PB_EDUP, rd->file, b->line, 0,
                                "rank %u appears twice (also on line %ld); "
                                "expected unique ranks", b->rank, a->line);
        }
    for (size_t i = 0; i < res->nassign; i++) {
        score_assign *a = &res->assign[i];
        uint64_t rank = a->pattern;
        size_t lo = 0, hi = np;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (byrank[2 * mid] < rank)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo >= np || byrank[2 * lo] != rank) {
            free(byrank);
            return pb_error_set(rd->err, PB_ENOENT, rd->file, a->line, 0,
                                "message %llu: rank %llu names no row of the "
                                "patterns table", (unsigned long long)a->id,
                                (unsigned long long)rank);
        }
        a->pattern = (size_t)byrank[2 * lo + 1];
    }
    free(byrank);
    if (res->nassign)
        pb_sort(res->assign, res->nassign, sizeof *res->assign, cmp_assign);
    for (size_t i = 1; i < res->nassign; i++) {
        const score_assign *a = &res->assign[i - 1], *b = &res->assign[i];
        if (a->instance != b->instance)
            continue;
        if (a->id == b->id)
            return pb_error_set(rd->err, PB_EDUP, rd->file, b->line, 0,
                                "message %llu is ascribed to instance %llu twice "
                                "(also on line %ld)", (unsigned long long)b->id,
                                (unsigned long long)b->instance, a->line);
        if (a->pattern != b->pattern)
            return pb_error_set(rd->err, PB_EPARSE, rd->file, b->line, 0,
                                "instance %llu has rank %u here but rank %u on "
                                "line %ld; expected one pattern per instance",
                                (unsigned long long)b->instance,
                                res->pats[b->pattern].rank,
                                res->pats[a->pattern].rank, a->line);
    }
    return check_assign(rd);
}

static int add_trace_meta(score_result *res, const char *s)
{
    if (*s == ' ')
        s++;
    char **a = realloc(res->trace_meta, (res->ntrace_meta + 1) * sizeof *a);
    if (!a)
        return PB_ENOMEM;
    res->trace_meta = a;
    if (!(a[res->ntrace_meta] = strdup(s)))
        return PB_ENOMEM;
    res->ntrace_meta++;
    return PB_OK;
}

/* "# key=value key=value" metadata: the first algo=, view=, trace= win. */
static int meta_line(reader *rd, const char *s)
{
    char **slots[3] = {&rd->res->algo, &rd->res->view, &rd->res->trace};
    static const char *const keys[3] = {"algo=", "view=", "trace="};
    while (*s) {
        while (*s == ' ')
            s++;
        size_t l = strcspn(s, " ");
        for (int k = 0; k < 3; k++) {
            size_t kl = strlen(keys[k]);
            if (l > kl && !strncmp(s, keys[k], kl) && !*slots[k]) {
                *slots[k] = strndup(s + kl, l - kl);
                if (!*slots[k])
                    return PB_ENOMEM;
            }
        }
        s += l;
    }
    return PB_OK;
}

static int handle_record(reader *rd, rec *r, long line)
{
    switch (rd->sec) {
    case SEC_META:
        return pb_error_set(rd->err, PB_EPARSE, rd->file, line, 0,
                            "data row before any \"# table=...\" line; "
                            "expected \"# table=patterns\" first");
    case SEC_PAT_HEAD:
        rd->sec = SEC_PAT;
        return header(rd, r, line, rd->pcol, NPCOL, pcol_names, &rd->npfields,
                      "patterns");
    case SEC_PAT:
        return pattern_row(rd, r, line);
    case SEC_ASG_HEAD:
        rd->sec = SEC_ASG;
        {
            int rc = header(rd, r, line, rd->acol, NACOL, acol_names,
                            &rd->nafields, "assignment");
            rd->res->has_parent = rd->acol[ACOL_PARENT] >= 0;
            rd->res->has_conf = rd->acol[ACOL_CONF] >= 0;
            return rc;
        }
    case SEC_ASG:
        return assign_row(rd, r, line);
    }
    return PB_OK;
}

/* Lines of a result file may be long (a path pattern of a deep request)
 * but not endless: a line past this is an error, not a gigabyte buffer. */
#define SCORE_LINE_MAX (1 << 28)

/* One line, with its '\n', into *buf (grown; NUL-terminated after len
 * bytes, which may hold NUL bytes).  Returns its length, -1 at the end of
 * the file (nothing read), -2 when it passes max bytes (the rest of it is
 * left unread), -3 out of memory. */
static ssize_t read_line(char **buf, size_t *cap, FILE *fp, size_t max)
{
    size_t n = 0;
    for (;;) {
        if (n + 2 > *cap) {
            size_t nc = *cap ? *cap * 2 : 256;
            char *nb = realloc(*buf, nc);
            if (!nb)
                return -3;
            *buf = nb;
            *cap = nc;
        }
        int c = getc_unlocked(fp);
        if (c == EOF)
            break;
        (*buf)[n++] = (char)c;
        if (c == '\n')
            break;
        if (n > max)
            return -2;
    }
    if (!n)
        return -1;
    (*buf)[n] = '\0';
    return (ssize_t)n;
}

int score_result_read_fp(FILE *fp, const char *name, score_result **out,
                         pb_error *err)
{
    *out = NULL;
    reader rd;
    memset(&rd, 0, sizeof rd);
    rd.file = name;
    rd.err = err;
    rd.res = calloc(1, sizeof *rd.res);
    int rc = PB_OK;
    if (!rd.res || !(rd.res->file = strdup(name)) ||
        pb_strtab_init(&rd.names) != PB_OK || pb_strtab_init(&rd.texts) != PB_OK) {
        pb_strtab_close(rd.names);
        pb_strtab_close(rd.texts);
        score_result_close(rd.res);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    struct csv_parser p;
    csv_init(&p, CSV_STRICT | CSV_APPEND_NULL);
    rec r = {0};
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len = 0;
    long line = 0, rec_line = 0, end_line = 0;
    size_t end_pats = 0, end_asg = 0;
    int in_record = 0, seen_patterns = 0;
    /* the first bytes first: a file that is not a result is refused
     * before a (possibly huge) first line is buffered */
    {
        static const char magic[] = "# pathbench-result 1";
        char head[sizeof magic + 3];
        errno = 0;
        size_t got = fread(head, 1, sizeof magic - 1, fp), skip = 0;
        if (got >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3)) {
            skip = 3;
            got += fread(head + got, 1, 3, fp);
        }
        if (ferror(fp))
            /* not readable at all (a closed stdin, a folder, an I/O
             * error): that, not "not a result file" */
            rc = pb_error_set(err, PB_EIO, name, 0, 0, "read error: %s",
                              strerror(errno ? errno : EIO));
        else if (got == 0)
            rc = pb_error_set(err, PB_EPARSE, name, 0, 0, "empty file; expected a "
                              "result file starting with \"# pathbench-result 1\"");
        else if (got - skip < sizeof magic - 1 || memcmp(head + skip, magic, sizeof magic - 1))
            rc = pb_error_set(err, PB_EPARSE, name, 1, 0,
                              "not a result file: expected \"# "
                              "pathbench-result 1\" on the first line");
        else if ((len = read_line(&buf, &cap, fp, 64)) == -2 ||
                 (len > 0 && strcmp(buf, "\n") && strcmp(buf, "\r\n")))
            rc = pb_error_set(err, PB_EPARSE, name, 1, 0,
                              "not a result file: expected \"# "
                              "pathbench-result 1\" on the first line");
        line = 1;
    }
    while (rc == PB_OK && (len = read_line(&buf, &cap, fp, SCORE_LINE_MAX)) >= 0) {
        line++;
        const char *nul = memchr(buf, '\0', (size_t)len);
        if (nul) {
            rc = pb_error_set(err, PB_EPARSE, name, line, (long)(nul - buf) + 1,
                              "a NUL byte at character %ld of the line; expected "
                              "text (%s)",
                              (long)(nul - buf) + 1,
                              line == 1 ? pb_text_hint(buf, (size_t)len)
                                        : "a binary or corrupt file?");
            break;
        }
        if (line == 1 && len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
            /* a UTF-8 byte-order mark: skip it */
            memmove(buf, buf + 3, (size_t)len - 2);
            len -= 3;
        }
        if (!in_record) {
            size_t l = (size_t)len;
            while (l && (buf[l - 1] == '\n' || buf[l - 1] == '\r'))
                l--;
            buf[l] = 0;
            if (line == 1) {
                if (strcmp(buf, "# pathbench-result 1")) {
                    rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                                      "not a result file: expected \"# "
                                      "pathbench-result 1\" on the first line");
                    break;
                }
                continue;
            }
            if (l == 0)
                continue;
            if (end_line) {
                rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                                  "text after the end line (line %ld); expected "
                                  "\"# end ...\" to be the last line", end_line);
                break;
            }
            if (buf[0] == '#') {
                const char *s = buf + 1;
                while (*s == ' ')
                    s++;
                if (!strncmp(s, "end", 3) && (!s[3] || s[3] == ' ')) {
                    int used = 0;
                    if (sscanf(s, "end patterns=%zu assignments=%zu%n", &end_pats,
                               &end_asg, &used) != 2 || s[used]) {
                        rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                                          "malformed end line; expected \"# end "
                                          "patterns=N assignments=M\"");
                        break;
                    }
                    end_line = line;
                    continue;
                }
                if (!strncmp(s, "table=", 6)) {
                    if (!strcmp(s + 6, "patterns")) {
                        if (seen_patterns++)
                            rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                                              "a second patterns table; "
                                              "expected one");
                        rd.sec = SEC_PAT_HEAD;
                    } else if (!strcmp(s + 6, "assignment")) {
                        if (rd.res->has_assign++)
                            rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                                              "a second assignment table; "
                                              "expected one");
                        rd.sec = SEC_ASG_HEAD;
                    } else {
                        rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                                      "unknown table \"%.40s%s\"; expected "
                                      "table=patterns or table=assignment",
                                      s + 6, strlen(s + 6) > 40 ? "..." : "");
                    }
                } else if (rd.sec == SEC_META && !strncmp(s, "fingerprint:", 12)) {
                    if (rd.res->has_fp++ ||
                        pb_fingerprint_parse(s + 12, &rd.res->fp) != PB_OK)
                        rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                                          "%s fingerprint line; expected one "
                                          "\"# fingerprint: messages=N ids=HEX\"",
                                          rd.res->has_fp > 1 ? "a second" : "a malformed");
                } else if (rd.sec == SEC_META && !strncmp(s, "trace:", 6)) {
                    if (add_trace_meta(rd.res, s + 6) != PB_OK)
                        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
                } else if (rd.sec == SEC_META && meta_line(&rd, s) != PB_OK) {
                    rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
                }
                continue;
            }
            buf[l] = '\n';
            len = (ssize_t)l + 1;
            rec_line = line;
        }
        if (csv_parse(&p, buf, (size_t)len, cb_field, cb_record, &r) != (size_t)len) {
            rc = pb_error_set(err, PB_EPARSE, name, rec_line, 0,
                              "malformed CSV (%s); expected RFC 4180 fields",
                              csv_strerror(csv_error(&p)));
            break;
        }
        if (r.oom) {
            rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        in_record = !r.done;
        if (r.done) {
            rc = handle_record(&rd, &r, rec_line);
            rec_clear(&r);
        }
    }
    if (rc == PB_OK && len == -3)
        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc == PB_OK && len == -2)
        rc = pb_error_set(err, PB_EPARSE, name, line + 1, 0,
                          "a line longer than %d MiB; expected a result file "
                          "(a binary or corrupt file?)", SCORE_LINE_MAX >> 20);
    if (rc == PB_OK && ferror(fp))
        rc = pb_error_set(err, PB_EIO, name, line, 0, "read error: %s",
                          strerror(errno));
    if (rc == PB_OK && in_record)
        rc = pb_error_set(err, PB_EPARSE, name, rec_line, 0,
                          "a quoted field starting here never ends; expected a "
                          "closing '\"'");
    if (rc == PB_OK && line == 0)
        rc = pb_error_set(err, PB_EPARSE, name, 0, 0, "empty file; expected a "
                          "result file starting with \"# pathbench-result 1\"");
    if (rc == PB_OK && !seen_patterns)
        rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                          "no \"# table=patterns\" line; expected a patterns "
                          "table");
    if (rc == PB_OK && (rd.sec == SEC_PAT_HEAD || rd.sec == SEC_ASG_HEAD))
        rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                          "a table without a header line at the end of the "
                          "file; expected a CSV header after \"# table=...\"");
    if (rc == PB_OK && !end_line)
        rc = pb_error_set(err, PB_EPARSE, name, line, 0,
                          "no end line: the file is cut short (or was written "
                          "before result files had one); expected \"# end "
                          "patterns=N assignments=M\" as the last line");
    if (rc == PB_OK && (end_pats != rd.res->npats ||
                        end_asg != rd.res->nassign + rd.res->nabstain))
        rc = pb_error_set(err, PB_EPARSE, name, end_line, 0,
                          "the end line counts %zu patterns and %zu assignments, "
                          "the tables have %zu and %zu rows; expected the "
                          "counts of a whole file (is a part missing?)",
                          end_pats, end_asg, rd.res->npats,
                          rd.res->nassign + rd.res->nabstain);
    if (rc == PB_OK)
        rc = finish_assign(&rd);
    csv_free(&p);
    rec_free(&r);
    free(buf);
    pb_strtab_close(rd.names);
    pb_strtab_close(rd.texts);
    pb_ptree_free(&rd.tree);
    pb_strbuf_free(&rd.canon);
    free(rd.order);
    free(rd.tmp);
    if (rc != PB_OK) {
        score_result_close(rd.res);
        return rc;
    }
    *out = rd.res;
    return PB_OK;
}

int score_result_read(const char *path, score_result **out, pb_error *err)
{
    if (!path || !strcmp(path, "-")) {
        *out = NULL;
        if (pb_files_input_fd(0, "(stdin)", err) != PB_OK)
            return err->code;
        return score_result_read_fp(stdin, "<stdin>", out, err);
    }
    *out = NULL;
    FILE *fp = pb_files_open(path, err);
    if (!fp)
        return err->code;
    int rc = score_result_read_fp(fp, path, out, err);
    fclose(fp);
    return rc;
}

void score_result_close(score_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->npats; i++) {
        free(r->pats[i].text);
        free(r->pats[i].node_lat);
    }
    free(r->pats);
    free(r->assign);
    free(r->abstain);
    free(r->file);
    free(r->algo);
    free(r->view);
    free(r->trace);
    for (size_t i = 0; i < r->ntrace_meta; i++)
        free(r->trace_meta[i]);
    free(r->trace_meta);
    free(r);
}

/* ------------------------------------------------------------------ */
/* Was the result inferred from this trace? */

static const char *first_with(char *const *lines, size_t n, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i < n; i++)
        if (!strncmp(lines[i], key, kl))
            return lines[i];
    return NULL;
}

/* "sniffer: messages=A kept=B ..." lines say the sniffer took the trace
 * from A to B messages; a result may come from a thinned copy of truth
 * when one such line starts at truth's count and one (the same or a later
 * one) ends at the result's. */
static int sniffed_from(const score_result *r, uint64_t truth_n, uint64_t res_n)
{
    int from = 0;
    for (size_t i = 0; i < r->ntrace_meta; i++) {
        const char *s = r->trace_meta[i];
        if (strncmp(s, "sniffer:", 8))
            continue;
        const char *m = strstr(s, " messages="), *k = strstr(s, " kept=");
        if (!m || !k)
            continue;
        unsigned long long a = strtoull(m + 10, NULL, 10);
        unsigned long long b = strtoull(k + 6, NULL, 10);
        if (a == truth_n)
            from = 1;
        if (from && b == res_n)
            return 1;
    }
    return 0;
}

int score_check_trace(const score_result *r, const pb_trace *truth,
                      const char *truth_name, pb_error *err)
{
    static const char *const keys[] = {"generator=", "params:"};
    for (size_t k = 0; k < 2; k++) {
        const char *a = first_with(r->trace_meta, r->ntrace_meta, keys[k]);
        const char *b = first_with(truth->meta, truth->nmeta, keys[k]);
        if (a && b && strcmp(a, b)) {
            /* the one field (space-separated word) where they first differ,
             * whole in both: "call_delay=50ms,5ms" against "...=51ms,5ms" */
            size_t d = 0;
            while (a[d] && a[d] == b[d])
                d++;
            size_t st = d;
            while (st > 0 && a[st - 1] != ' ')
                st--;
            int la = (int)strcspn(a + st, " "), lb = (int)strcspn(b + st, " ");
            return pb_error_set(err, PB_EINVAL, r->file, 0, 0,
                                "inferred from another trace: its \"%s\" trace "
                                "metadata has \"%.*s\" where %s has \"%.*s\"; "
                                "expected the truth trace the result was inferred "
                                "from", keys[k], la ? la : 7, la ? a + st : "(empty)",
                                truth_name, lb ? lb : 7, lb ? b + st : "(empty)");
        }
    }
    if (!r->has_fp)
        return PB_OK;
    pb_fingerprint t;
    if (pb_fingerprint_of(truth->msgs, truth->n, truth->names->nodes, &t) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (t.messages == r->fp.messages && t.ids == r->fp.ids)
        return PB_OK;
    if (r->fp.messages < t.messages && sniffed_from(r, t.messages, r->fp.messages))
        return PB_OK;
    return pb_error_set(err, PB_EINVAL, r->file, 0, 0,
                        "inferred from a trace of %llu messages (hash %016llx), "
                        "but %s has %llu messages (hash %016llx); expected the "
                        "trace the result was inferred from, or its original "
                        "before skewer (or sniffer, whose metadata line then "
                        "says how many messages it kept)",
                        (unsigned long long)r->fp.messages,
                        (unsigned long long)r->fp.ids, truth_name,
                        (unsigned long long)t.messages, (unsigned long long)t.ids);
}
