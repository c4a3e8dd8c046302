/*
 * score_query.c - `score --query`: a query's answer over the truth and over
 * each result, and how far apart they are (pq.h, docs/metrics.md
 * "Queries").
 *
 * Both answers are computed over the events of the truth trace (every
 * message the system sent), so that they differ only by the inferred
 * request structure.  A result with parent links is compared under
 * happened-before along parent links against the truth's cause links; a
 * result without them under the approximation (same request, earlier),
 * applied to the truth too, and the row says which (`hb`).
 */
#include "score_query.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_strbuf.h"
#include "pb_sort.h"

typedef struct id_idx { uint64_t id; size_t i; } id_idx;

static int cmp_id(const void *a, const void *b)
{
    const id_idx *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

struct score_query_truth {
    const pb_trace *t;
    id_idx *ids;          /* sorted by id */
    uint64_t *req;
    int64_t *par;
    pq_answer **hb, **approx; /* per query, computed on demand */
    size_t nq;
};

static size_t find(const score_query_truth *s, uint64_t id)
{
    size_t lo = 0, hi = s->t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->ids[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->t->n && s->ids[lo].id == id ? s->ids[lo].i : SIZE_MAX;
}

int score_query_truth_init(const pb_trace *t, size_t nqueries,
                           score_query_truth **out, pb_error *err)
{
    *out = NULL;
    score_query_truth *s = calloc(1, sizeof *s);
    size_t n = t->n ? t->n : 1;
    if (s) {
        s->t = t;
        s->nq = nqueries;
        s->ids = malloc(n * sizeof *s->ids);
        s->req = malloc(n * sizeof *s->req);
        s->par = malloc(n * sizeof *s->par);
        s->hb = calloc(nqueries ? nqueries : 1, sizeof *s->hb);
        s->approx = calloc(nqueries ? nqueries : 1, sizeof *s->approx);
    }
    if (!s || !s->ids || !s->req || !s->par || !s->hb || !s->approx) {
        score_query_truth_close(s);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < t->n; i++)
        s->ids[i] = (id_idx){t->msgs[i].id, i};
    pb_sort(s->ids, t->n, sizeof *s->ids, cmp_id);
    for (size_t i = 0; i < t->n; i++) {
        s->req[i] = t->truth ? t->truth[i].path : PB_ID_NONE;
        uint64_t c = t->truth ? t->truth[i].cause : PB_ID_NONE;
        size_t k = c == PB_ID_NONE ? SIZE_MAX : find(s, c);
        s->par[i] = k == SIZE_MAX ? -1 : (int64_t)k;
    }
    *out = s;
    return PB_OK;
}

void score_query_truth_close(score_query_truth *s)
{
    if (!s)
        return;
    for (size_t q = 0; q < s->nq && s->hb; q++)
        pq_answer_close(s->hb[q]);
    for (size_t q = 0; q < s->nq && s->approx; q++)
        pq_answer_close(s->approx[q]);
    free(s->hb);
    free(s->approx);
    free(s->ids);
    free(s->req);
    free(s->par);
    free(s);
}

int score_query_run(score_query_truth *s, pq_query *const *qs, size_t nq,
                    const score_result *r, score_query_row *rows,
                    pb_error *err)
{
    const pb_trace *t = s->t;
    size_t n = t->n ? t->n : 1;
    uint64_t *req = malloc(n * sizeof *req);
    int64_t *par = r->has_parent ? malloc(n * sizeof *par) : NULL;
    long *line = r->has_parent ? calloc(n, sizeof *line) : NULL;
    if (!req || (r->has_parent && (!par || !line))) {
        free(req);
        free(par);
        free(line);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < t->n; i++) {
        req[i] = PB_ID_NONE;
        if (par)
            par[i] = -1;
    }
    int rc = PB_OK;
    for (size_t a = 0; a < r->nassign; a++) {
        size_t i = find(s, r->assign[a].id);
        if (i == SIZE_MAX) {
            rc = pb_error_set(err, PB_EINVAL, r->file, r->assign[a].line, 0,
                              "message %llu is not in the truth trace; expected "
                              "the result of a trace made from it",
                              (unsigned long long)r->assign[a].id);
            break;
        }
        req[i] = r->assign[a].instance;
        if (par && r->assign[a].parent != PB_NO_PARENT) {
            size_t k = find(s, r->assign[a].parent);
            if (k == SIZE_MAX) {
                rc = pb_error_set(err, PB_EINVAL, r->file, r->assign[a].line, 0,
                                  "parent %llu of message %llu is not a message "
                                  "of the trace; expected a message id",
                                  (unsigned long long)r->assign[a].parent,
                                  (unsigned long long)r->assign[a].id);
                break;
            }
            par[i] = (int64_t)k;
            line[i] = r->assign[a].line;
        }
    }
    pq_causal rc_res = {req, par, r->file, line};
    pq_causal rc_truth = {s->req, par ? s->par : NULL, NULL, NULL};
    for (size_t q = 0; q < nq && rc == PB_OK; q++) {
        pq_answer **tcache = par ? &s->hb[q] : &s->approx[q];
        if (!*tcache && (rc = pq_eval(qs[q], t, &rc_truth, tcache, err)) != PB_OK)
            break;
        pq_answer *ra = NULL;
        if ((rc = pq_eval(qs[q], t, &rc_res, &ra, err)) != PB_OK) {
            if (!err->file[0])
                pb_error_set(err, rc, r->file, 0, 0, "%s", err->msg);
            break;
        }
        score_query_row *row = &rows[q];
        row->truth = *tcache;
        row->result = ra;
        row->hb_parent = par != NULL;
        pq_compare(*tcache, ra, &row->diff);
    }
    free(req);
    free(par);
    free(line);
    return rc;
}

void score_query_rows_free(score_query_row *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++) {
        pq_answer_close(rows[i].result);
        rows[i].result = NULL;
    }
}

static void put_field(FILE *fp, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

void score_query_write_header(FILE *fp)
{
    fputs("result,algo,query,hb,tuples_truth,tuples_result,groups_truth,"
          "groups_result,tv_distance,max_rel_error,top_truth,top_result,"
          "top_same\n", fp);
}

static void top_text(const pq_answer *a, size_t g, pb_strbuf *b)
{
    pb_strbuf_reset(b);
    if (g == SIZE_MAX)
        return;
    for (size_t k = 0; k < a->nkeys; k++) {
        if (k)
            pb_strbuf_putc(b, '|');
        pb_strbuf_puts(b, a->keys[g * a->nkeys + k]);
    }
}

void score_query_write_row(FILE *fp, const score_result *r, const pq_query *q,
                           const score_query_row *row)
{
    char nb[PB_NUM_BUF];
    put_field(fp, r->file);
    fputc(',', fp);
    put_field(fp, r->algo ? r->algo : "");
    fputc(',', fp);
    put_field(fp, pq_name(q)[0] ? pq_name(q) : pq_text(q));
    fprintf(fp, ",%s,%llu,%llu,%zu,%zu,", row->hb_parent ? "parent" : "approx",
            (unsigned long long)row->truth->tuples,
            (unsigned long long)row->result->tuples, row->truth->ngroups,
            row->result->ngroups);
    fputs(pb_num_format(row->diff.tv, nb), fp);
    fputc(',', fp);
    fputs(isinf(row->diff.max_rel) ? "inf" : pb_num_format(row->diff.max_rel, nb), fp);
    pb_strbuf b = {0};
    top_text(row->truth, row->diff.top_a, &b);
    fputc(',', fp);
    put_field(fp, b.len ? pb_strbuf_str(&b) : "");
    top_text(row->result, row->diff.top_b, &b);
    fputc(',', fp);
    put_field(fp, b.len ? pb_strbuf_str(&b) : "");
    fprintf(fp, ",%d\n", row->diff.top_same);
    pb_strbuf_free(&b);
}

void score_query_write_text(FILE *fp, const score_result *r, const pq_query *q,
                            const score_query_row *row)
{
    char n1[PB_NUM_BUF];
    fprintf(fp, "query %s%s%s\n", pq_name(q), pq_name(q)[0] ? ": " : "", pq_text(q));
    fprintf(fp, "result %s (%s); happened-before %s\n", r->file,
            r->algo ? r->algo : "?",
            row->hb_parent ? "along parent links (truth: cause links)"
                           : "approximated: same request, earlier (the result "
                             "has no parent links; the truth is approximated alike)");
    pq_answer_print_pair(fp, row->truth, row->result);
    fprintf(fp, "tuples %llu / %llu; total-variation distance %s; ",
            (unsigned long long)row->truth->tuples,
            (unsigned long long)row->result->tuples,
            pb_num_format(row->diff.tv, n1));
    fprintf(fp, "largest relative error %s; top group %s\n\n",
            isinf(row->diff.max_rel) ? "inf" : pb_num_format(row->diff.max_rel, n1),
            row->diff.top_same ? "the same" : "differs");
}
