/*
 * score_split.c - the failure split users of request tracers count (per
 * request: correct / orphaned only / mis-stitched; per message: attached
 * right / wrong / unattached), the precision-coverage curve over the
 * result's confidences, the bootstrap interval of exact accuracy, and link
 * accuracy.  Definitions: docs/metrics.md "The failure split".
 *
 * Per message m of true instance T, in inferred instance I (a group of
 * the assignment table, of a pattern kept by -m).  I's owner is the
 * earliest true instance whose anchor (its root message; with a lossy
 * trace, its first surviving message) is in I; I has none when it holds
 * no anchor (a fragment).
 *   right       I's owner is T;
 *   wrong       I's owner is another true instance (m was stitched into
 *               another request);
 *   unattached  m is in no kept instance (absent, abstained, dropped by
 *               -m), or in an instance without owner (not attached to any
 *               request: orphaned).
 * T is correct when all its messages are right and the instance it owns
 * holds nothing else (then its messages are exactly one inferred
 * instance: set_accuracy's criterion), mis-stitched when one of its
 * messages is wrong or the instance it owns holds a message of another
 * request (or of none), orphaned only otherwise.
 *
 * The curve recomputes the split with the rows below each min_confidence
 * abstained (every distinct confidence, or SCORE_COV_POINTS quantiles of
 * them), as infer -s min_confidence=X would have written the file.
 */
#include "score_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* bootstrap interval */

int score_boot_ci(score_report *rep, size_t k, size_t n)
{
    rep->exact_ci_low = rep->exact_ci_high = NAN;
    size_t reps = rep->opts.ci_reps;
    if (!n || !reps)
        return PB_OK;
    double *v = malloc(reps * sizeof *v);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!v || !g) {
        free(v);
        if (g)
            gsl_rng_free(g);
        return PB_ENOMEM;
    }
    gsl_rng_set(g, (unsigned long)rep->opts.ci_seed);
    /* resampling n requests with replacement, k of them right: the count
     * of right ones in a replicate is Binomial(n, k/n) */
    double p = (double)k / (double)n;
    for (size_t b = 0; b < reps; b++)
        v[b] = (double)gsl_ran_binomial(g, p, (unsigned int)n) / (double)n;
    gsl_sort(v, 1, reps);
    rep->exact_ci_low = gsl_stats_quantile_from_sorted_data(v, 1, reps, 0.025);
    rep->exact_ci_high = gsl_stats_quantile_from_sorted_data(v, 1, reps, 0.975);
    gsl_rng_free(g);
    free(v);
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* the split */

typedef struct srow {
    size_t group;     /* inferred instance (index of its first row) */
    size_t label;     /* true instance, or tv->ninst for "none" */
    double conf;      /* NAN: none (never abstained by the curve) */
    int anchor;       /* the anchor of its true instance */
} srow;

typedef struct split {
    const tv_truth *tv;
    size_t *wrongmsgs;      /* per true instance: its messages attached wrong */
    unsigned char *state;   /* per true instance: 1 all its messages in the
                               instance it owns, 2 that instance holds a
                               foreign message */
} split;

static int present(const srow *x, double minc)
{
    return isnan(x->conf) || !(x->conf < minc);
}

/* The split with the rows whose confidence is below minc abstained: rows
 * sorted by (group, label). */
static void split_at(split *s, const srow *rows, size_t n, double minc,
                     size_t messages, score_cov_point *pt)
{
    const tv_truth *tv = s->tv;
    memset(s->wrongmsgs, 0, tv->ninst * sizeof *s->wrongmsgs);
    memset(s->state, 0, tv->ninst);
    size_t right = 0, wrong = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i, owner = SIZE_MAX, total = 0;
        while (j < n && rows[j].group == rows[i].group) {
            /* the owner: the earliest true instance whose anchor is here
             * (labels ascend, and true instances are in time order) */
            if (owner == SIZE_MAX && rows[j].anchor && present(&rows[j], minc))
                owner = rows[j].label;
            total += present(&rows[j], minc);
            j++;
        }
        if (owner != SIZE_MAX) {
            size_t own = 0;
            for (size_t k = i; k < j; k++) {
                if (!present(&rows[k], minc))
                    continue;
                if (rows[k].label == owner) {
                    own++;
                } else if (rows[k].label < tv->ninst) {
                    wrong++;
                    s->wrongmsgs[rows[k].label]++;
                }
            }
            right += own;
            if (own == tv->inst[owner].nmsg)
                s->state[owner] |= 1;
            if (total > own)
                s->state[owner] |= 2;
        }
        i = j;
    }
    size_t correct = 0, mis = 0;
    for (size_t t = 0; t < tv->ninst; t++) {
        if (s->wrongmsgs[t] || (s->state[t] & 2))
            mis++;
        else if (s->state[t] & 1)
            correct++;
    }
    pt->min_confidence = minc;
    pt->right = right;
    pt->wrong = wrong;
    pt->unattached = messages - right - wrong;
    pt->coverage = messages ? (double)(right + wrong) / (double)messages : NAN;
    pt->precision = right + wrong ? (double)right / (double)(right + wrong) : NAN;
    pt->req_correct = correct;
    pt->req_misstitched = mis;
    pt->req_orphaned = tv->ninst - correct - mis;
}

static int cmp_srow_gl(const void *a, const void *b)
{
    const srow *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    return y->anchor - x->anchor; /* the anchor first */
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int add_point(score_report *rep, size_t *cap, const score_cov_point *pt)
{
    if (rep->ncov == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        score_cov_point *c = realloc(rep->cov, nc * sizeof *c);
        if (!c)
            return PB_ENOMEM;
        rep->cov = c;
        *cap = nc;
    }
    rep->cov[rep->ncov++] = *pt;
    return PB_OK;
}

/* the curve's min_confidence values: every distinct confidence when there
 * are at most SCORE_COV_POINTS, else that many quantiles of them */
#define SCORE_COV_POINTS 256

int score_split(score_report *rep, const tv_truth *tv, const score_result *r,
                const int *kept_pat, pb_error *err)
{
    rep->correct_rate = rep->orphaned_rate = rep->misstitched_rate = NAN;
    rep->coverage_p99 = rep->coverage_p999 = NAN;
    rep->has_conf = r->has_conf;
    rep->msgs_abstained = 0;
    for (size_t i = 0; i < r->nabstain; i++) {
        size_t t;
        if (!tv_lookup(tv, r->abstain[i].id, &t))
            return pb_error_set(err, PB_ENOENT, r->file, r->abstain[i].line, 0,
                                "message id %llu is not in the truth trace; "
                                "expected the ids of the trace the result was "
                                "inferred from",
                                (unsigned long long)r->abstain[i].id);
        if (t != TV_NONE)
            rep->msgs_abstained++;
    }
    split s = {tv, calloc(tv->ninst ? tv->ninst : 1, sizeof *s.wrongmsgs),
               calloc(tv->ninst ? tv->ninst : 1, 1)};
    srow *rows = malloc((r->nassign ? r->nassign : 1) * sizeof *rows);
    double *cv = NULL;
    size_t n = 0;
    int rc = PB_ENOMEM;
    if (!rows || !s.wrongmsgs || !s.state)
        goto out;
    /* rows of kept instances; r->assign is sorted by (instance, id) */
    for (size_t i = 0; i < r->nassign;) {
        size_t j = i;
        while (j < r->nassign && r->assign[j].instance == r->assign[i].instance)
            j++;
        if (kept_pat[r->assign[i].pattern])
            for (size_t k = i; k < j; k++) {
                size_t t;
                if (!tv_lookup(tv, r->assign[k].id, &t))
                    t = TV_NONE; /* score_messages has refused it already */
                srow x = {i, t == TV_NONE ? tv->ninst : t, r->assign[k].confidence, 0};
                if (t != TV_NONE) {
                    /* the anchor: the root message, or (lossy) the first
                     * surviving one (ids ascend) */
                    const tv_instance *in = &tv->inst[t];
                    size_t rt;
                    uint64_t anchor = tv_lookup(tv, in->root_id, &rt) && rt == t
                        ? in->root_id : tv->msg_ids[in->msg_off];
                    x.anchor = r->assign[k].id == anchor;
                }
                rows[n++] = x;
            }
        i = j;
    }
    if (n)
        qsort(rows, n, sizeof *rows, cmp_srow_gl);
    score_cov_point pt;
    split_at(&s, rows, n, 0, rep->messages, &pt);
    rep->msgs_right = pt.right;
    rep->msgs_wrong = pt.wrong;
    rep->msgs_unattached = pt.unattached;
    rep->req_correct = pt.req_correct;
    rep->req_misstitched = pt.req_misstitched;
    rep->req_orphaned = pt.req_orphaned;
    if (tv->ninst) {
        double ni = (double)tv->ninst;
        rep->correct_rate = (double)pt.req_correct / ni;
        rep->orphaned_rate = (double)pt.req_orphaned / ni;
        rep->misstitched_rate = (double)pt.req_misstitched / ni;
    }
    if (r->has_conf) {
        size_t nc = 0, cap = 0;
        if (!(cv = malloc((n ? n : 1) * sizeof *cv)))
            goto out;
        for (size_t k = 0; k < n; k++)
            if (!isnan(rows[k].conf))
                cv[nc++] = rows[k].conf;
        if (nc)
            qsort(cv, nc, sizeof *cv, cmp_double);
        size_t nd = 0; /* distinct values, in place */
        for (size_t k = 0; k < nc; k++)
            if (!nd || cv[k] != cv[nd - 1])
                cv[nd++] = cv[k];
        double best99 = 0, best999 = 0;
        if (add_point(rep, &cap, &pt) != PB_OK)
            goto out;
        /* thresholds: the distinct values (or quantiles of them), then
         * just past the largest, when that is still at most 1 */
        size_t nt = nd <= SCORE_COV_POINTS ? nd : SCORE_COV_POINTS;
        for (size_t q = 0; q <= nt; q++) {
            double x;
            if (q < nt)
                x = cv[nd <= SCORE_COV_POINTS ? q : q * nd / SCORE_COV_POINTS];
            else if (!nd || (x = nextafter(cv[nd - 1], INFINITY)) > 1)
                break;
            if (!(x > 0))
                continue; /* abstains nothing: the first point */
            split_at(&s, rows, n, x, rep->messages, &pt);
            if (add_point(rep, &cap, &pt) != PB_OK)
                goto out;
        }
        for (size_t k = 0; k < rep->ncov; k++) {
            const score_cov_point *p = &rep->cov[k];
            if (p->precision >= 0.99 && p->coverage > best99)
                best99 = p->coverage;
            if (p->precision >= 0.999 && p->coverage > best999)
                best999 = p->coverage;
        }
        rep->coverage_p99 = best99;
        rep->coverage_p999 = best999;
    }
    rc = PB_OK;
out:
    if (rc == PB_ENOMEM)
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    free(rows);
    free(cv);
    free(s.wrongmsgs);
    free(s.state);
    return rc;
}

/* ------------------------------------------------------------------ */
/* link accuracy */

typedef struct idx_row {
    uint64_t id;
    size_t i;
} idx_row;

static int cmp_idx_row(const void *a, const void *b)
{
    const idx_row *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static size_t find_idx(const idx_row *v, size_t n, uint64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].id == id ? v[lo].i : SIZE_MAX;
}

int score_links_compute(score_report *rep, const pb_trace *t,
                        const tv_truth *tv, const score_result *r,
                        pb_error *err)
{
    rep->has_links = 0;
    rep->links_right = rep->links_scored = 0;
    rep->link_accuracy = NAN;
    if (!r->has_parent || tv->view == TV_PATH)
        return PB_OK;
    if (!t->truth)
        return pb_error_set(err, PB_EINVAL, t->source, 0, 0,
                            "no truth columns; expected the trace with truth "
                            "columns the result is scored against");
    size_t n = t->n;
    idx_row *ix = malloc((n ? n : 1) * sizeof *ix);
    idx_row *given = malloc((r->nassign ? r->nassign : 1) * sizeof *given);
    if (!ix || !given) {
        free(ix);
        free(given);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        ix[i] = (idx_row){t->msgs[i].id, i};
    if (n)
        qsort(ix, n, sizeof *ix, cmp_idx_row);
    /* the parent each attached message (of a kept pattern) was given */
    uint64_t m = rep->opts.min_instances > 1 ? rep->opts.min_instances : 1;
    size_t ng = 0;
    int rc = PB_OK;
    for (size_t a = 0; a < r->nassign; a++) {
        const score_assign *as = &r->assign[a];
        if (as->parent != PB_NO_PARENT && find_idx(ix, n, as->parent) == SIZE_MAX) {
            rc = pb_error_set(err, PB_ENOENT, r->file, as->line, 0,
                              "parent %llu of message %llu is not in the truth "
                              "trace; expected the id of a message of the trace "
                              "the result was inferred from",
                              (unsigned long long)as->parent,
                              (unsigned long long)as->id);
            break;
        }
        if (r->pats[as->pattern].count < m)
            continue;
        given[ng++] = (idx_row){as->id, a};
    }
    if (rc == PB_OK) {
        if (ng)
            qsort(given, ng, sizeof *given, cmp_idx_row);
        for (size_t k = 0; k < tv->nlk; k++) {
            if (tv->lk_inst[k] == TV_NONE)
                continue;
            size_t i = find_idx(ix, n, tv->lk_id[k]);
            if (i == SIZE_MAX)
                continue;
            /* the true parent: the cause, if in the same path; with a kept
             * mask, the nearest cause that survived */
            uint64_t path = t->truth[i].path, want = PB_NO_PARENT;
            uint64_t c = t->truth[i].cause;
            for (size_t steps = 0; c != PB_ID_NONE && steps < n; steps++) {
                size_t ci = find_idx(ix, n, c), cinst;
                if (ci == SIZE_MAX || t->truth[ci].path != path)
                    break;
                if (tv_lookup(tv, c, &cinst) && cinst != TV_NONE) {
                    want = c;
                    break;
                }
                c = t->truth[ci].cause;
            }
            rep->links_scored++;
            size_t g = find_idx(given, ng, tv->lk_id[k]);
            if (g != SIZE_MAX && r->assign[g].parent == want)
                rep->links_right++;
        }
        rep->has_links = 1;
        if (rep->links_scored)
            rep->link_accuracy = (double)rep->links_right / (double)rep->links_scored;
    }
    free(ix);
    free(given);
    return rc;
}

void score_write_coverage(FILE *fp, const score_report *rep)
{
    fputs("min_confidence,coverage,precision,msgs_right,msgs_wrong,"
          "msgs_unattached,requests_correct,requests_orphaned,"
          "requests_misstitched\n", fp);
    for (size_t i = 0; i < rep->ncov; i++) {
        const score_cov_point *p = &rep->cov[i];
        char nb[PB_NUM_BUF];
        fputs(pb_num_format(p->min_confidence, nb), fp);
        fprintf(fp, ",%.6g,", p->coverage);
        if (!isnan(p->precision))
            fprintf(fp, "%.6g", p->precision);
        fprintf(fp, ",%zu,%zu,%zu,%zu,%zu,%zu\n", p->right, p->wrong, p->unattached,
                p->req_correct, p->req_orphaned, p->req_misstitched);
    }
}
