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
 * The curve raises min_confidence through every distinct confidence (or
 * SCORE_COV_POINTS quantiles of them) and abstains on the rows below it,
 * as infer -s min_confidence=X would have written the file; at each step
 * only the inferred instances that lost a row are recounted (their share
 * taken back, the rows dropped, the share added again), and only the
 * requests they touch change status.
 */
#include "score_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

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
    const srow *rows;       /* sorted by (group, label), anchors first */
    size_t n;
    size_t *gfirst;         /* per row: index of its group's first row */
    unsigned char *gone;    /* per row: abstained at the current threshold */
    /* per true instance: its messages attached wrong, whether the
     * instance it owns holds all its messages (full) or a foreign one
     * (dirty), and its status (0 correct, 1 orphaned only, 2 mis-stitched) */
    size_t *wrongmsgs;
    unsigned char *full, *dirty, *status;
    size_t right, wrong, correct, mis;
    /* scratch: groups and labels touched by one step */
    size_t *gmark, *lmark, epoch;
    size_t *tg, *tl;
    size_t ntg, ntl;
} split;

/* Add (sign 1) or take back (sign -1) group g's share: its owner is the
 * earliest true instance whose anchor is present in it (labels ascend,
 * true instances are in time order, anchors come first in their label). */
static void apply_group(split *s, size_t g, int sign)
{
    const srow *rows = s->rows;
    const size_t ninst = s->tv->ninst, key = rows[g].group;
    size_t owner = SIZE_MAX, j;
    for (j = g; j < s->n && rows[j].group == key; j++)
        if (!s->gone[j] && rows[j].anchor) {
            owner = rows[j].label;
            break;
        }
    if (owner == SIZE_MAX)
        return; /* a fragment: its messages are unattached */
    size_t own = 0, total = 0;
    for (j = g; j < s->n && rows[j].group == key; j++) {
        if (s->gone[j])
            continue;
        total++;
        size_t L = rows[j].label;
        if (L == owner) {
            own++;
        } else if (L < ninst) {
            if (sign > 0) {
                s->wrong++;
                s->wrongmsgs[L]++;
            } else {
                s->wrong--;
                s->wrongmsgs[L]--;
            }
        }
    }
    int full = own == s->tv->inst[owner].nmsg, dirty = total > own;
    if (sign > 0) {
        s->right += own;
        s->full[owner] += (unsigned char)full;
        s->dirty[owner] += (unsigned char)dirty;
    } else {
        s->right -= own;
        s->full[owner] -= (unsigned char)full;
        s->dirty[owner] -= (unsigned char)dirty;
    }
}

static unsigned char status_of(const split *s, size_t L)
{
    return s->wrongmsgs[L] || s->dirty[L] ? 2 : s->full[L] ? 0 : 1;
}

static void count_status(split *s, unsigned char st, int sign)
{
    size_t *c = st == 0 ? &s->correct : st == 2 ? &s->mis : NULL;
    if (c)
        *c = sign > 0 ? *c + 1 : *c - 1;
}

/* Abstain on rows byconf[from .. to): only their groups are recounted. */
static void take_rows(split *s, const size_t *byconf, size_t from, size_t to)
{
    const srow *rows = s->rows;
    const size_t ninst = s->tv->ninst;
    s->epoch++;
    s->ntg = s->ntl = 0;
    for (size_t k = from; k < to; k++) {
        size_t g = s->gfirst[byconf[k]];
        if (s->gmark[g] == s->epoch)
            continue;
        s->gmark[g] = s->epoch;
        s->tg[s->ntg++] = g;
        for (size_t j = g; j < s->n && rows[j].group == rows[g].group; j++) {
            size_t L = rows[j].label;
            if (L < ninst && s->lmark[L] != s->epoch) {
                s->lmark[L] = s->epoch;
                s->tl[s->ntl++] = L;
            }
        }
    }
    for (size_t i = 0; i < s->ntg; i++)
        apply_group(s, s->tg[i], -1);
    for (size_t k = from; k < to; k++)
        s->gone[byconf[k]] = 1;
    for (size_t i = 0; i < s->ntg; i++)
        apply_group(s, s->tg[i], 1);
    for (size_t i = 0; i < s->ntl; i++) {
        size_t L = s->tl[i];
        unsigned char st = status_of(s, L);
        if (st != s->status[L]) {
            count_status(s, s->status[L], -1);
            count_status(s, st, 1);
            s->status[L] = st;
        }
    }
}

static void fill_point(const split *s, double minc, size_t messages,
                       score_cov_point *pt)
{
    pt->min_confidence = minc;
    pt->right = s->right;
    pt->wrong = s->wrong;
    pt->unattached = messages - s->right - s->wrong;
    pt->coverage = messages ? (double)(s->right + s->wrong) / (double)messages : NAN;
    pt->precision = s->right + s->wrong
        ? (double)s->right / (double)(s->right + s->wrong) : NAN;
    pt->req_correct = s->correct;
    pt->req_misstitched = s->mis;
    pt->req_orphaned = s->tv->ninst - s->correct - s->mis;
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

/* qsort has no context argument */
static const srow *g_rows;

static int cmp_byconf(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    double x = g_rows[i].conf, y = g_rows[j].conf;
    if (x != y)
        return x < y ? -1 : 1;
    return i < j ? -1 : i > j;
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

const double score_rel_edges[SCORE_REL_BINS + 1] = {0, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 1};

/* the bin of confidence c (0 .. 1) in score_rel_edges: [e_b, e_b+1), the
 * last one closed */
static size_t rel_bin(double c)
{
    size_t b = 0;
    while (b + 1 < SCORE_REL_BINS && c >= score_rel_edges[b + 1])
        b++;
    return b;
}

/* The reliability table, with every row kept: a row of a true instance's
 * message with a confidence is right when its group's owner (the earliest
 * true instance whose anchor the group holds) is its true instance.
 * rows are sorted by (group, label), anchors first. */
static void reliability(score_report *rep, const srow *rows, size_t n, size_t ninst)
{
    for (size_t b = 0; b < SCORE_REL_BINS; b++) {
        rep->rel_rows[b] = rep->rel_right[b] = 0;
        rep->rel_csum[b] = 0;
    }
    for (size_t g = 0; g < n;) {
        size_t e = g, owner = SIZE_MAX;
        while (e < n && rows[e].group == rows[g].group)
            e++;
        for (size_t j = g; j < e; j++)
            if (rows[j].anchor) {
                owner = rows[j].label;
                break;
            }
        for (size_t j = g; j < e; j++) {
            double c = rows[j].conf;
            if (isnan(c) || rows[j].label >= ninst)
                continue;
            size_t b = rel_bin(c);
            rep->rel_rows[b]++;
            rep->rel_right[b] += rows[j].label == owner;
            rep->rel_csum[b] += c;
        }
        g = e;
    }
}

void score_write_reliability(FILE *fp, const score_report *rep)
{
    fputs("conf_low,conf_high,rows,mean_confidence,right,fraction_right,"
          "rows_at_or_above,fraction_right_at_or_above,calibrated\n", fp);
    if (!rep->has_conf)
        return;
    for (size_t b = 0; b < SCORE_REL_BINS; b++) {
        size_t up = 0, upr = 0;
        for (size_t c = b; c < SCORE_REL_BINS; c++) {
            up += rep->rel_rows[c];
            upr += rep->rel_right[c];
        }
        char nb[PB_NUM_BUF];
        fputs(pb_num_format(score_rel_edges[b], nb), fp);
        fputc(',', fp);
        fputs(pb_num_format(score_rel_edges[b + 1], nb), fp);
        fprintf(fp, ",%zu,", rep->rel_rows[b]);
        if (rep->rel_rows[b])
            fprintf(fp, "%.6g", rep->rel_csum[b] / (double)rep->rel_rows[b]);
        fprintf(fp, ",%zu,", rep->rel_right[b]);
        if (rep->rel_rows[b])
            fprintf(fp, "%.6g", (double)rep->rel_right[b] / (double)rep->rel_rows[b]);
        fprintf(fp, ",%zu,", up);
        if (up)
            fprintf(fp, "%.6g,%d", (double)upr / (double)up,
                    (double)upr / (double)up >= score_rel_edges[b]);
        else
            fputc(',', fp);
        fputc('\n', fp);
    }
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
    split s;
    memset(&s, 0, sizeof s);
    s.tv = tv;
    size_t ni1 = tv->ninst ? tv->ninst : 1, na1 = r->nassign ? r->nassign : 1;
    s.wrongmsgs = calloc(ni1, sizeof *s.wrongmsgs);
    s.full = calloc(ni1, 1);
    s.dirty = calloc(ni1, 1);
    s.status = calloc(ni1, 1);
    s.lmark = calloc(ni1, sizeof *s.lmark);
    s.tl = malloc(ni1 * sizeof *s.tl);
    s.gfirst = malloc(na1 * sizeof *s.gfirst);
    s.gone = calloc(na1, 1);
    s.gmark = calloc(na1, sizeof *s.gmark);
    s.tg = malloc(na1 * sizeof *s.tg);
    srow *rows = malloc(na1 * sizeof *rows);
    double *cv = NULL;
    size_t *byconf = NULL;
    size_t n = 0;
    int rc = PB_ENOMEM;
    if (!rows || !s.wrongmsgs || !s.full || !s.dirty || !s.status || !s.lmark ||
        !s.tl || !s.gfirst || !s.gone || !s.gmark || !s.tg)
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
        pb_sort(rows, n, sizeof *rows, cmp_srow_gl);
    s.rows = rows;
    s.n = n;
    for (size_t k = 0; k < n; k++) {
        s.gfirst[k] = k && rows[k].group == rows[k - 1].group ? s.gfirst[k - 1] : k;
        if (s.gfirst[k] == k)
            apply_group(&s, k, 1);
    }
    /* every request starts orphaned only (status 1), then its status */
    memset(s.status, 1, tv->ninst);
    for (size_t t = 0; t < tv->ninst; t++) {
        s.status[t] = status_of(&s, t);
        count_status(&s, s.status[t], 1);
    }
    score_cov_point pt;
    fill_point(&s, 0, rep->messages, &pt);
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
    if (r->has_conf)
        reliability(rep, rows, n, tv->ninst);
    if (r->has_conf) {
        size_t nc = 0, cap = 0;
        if (!(cv = malloc(na1 * sizeof *cv)) || !(byconf = malloc(na1 * sizeof *byconf)))
            goto out;
        for (size_t k = 0; k < n; k++)
            if (!isnan(rows[k].conf))
                byconf[nc++] = k;
        g_rows = rows;
        if (nc)
            pb_sort(byconf, nc, sizeof *byconf, cmp_byconf);
        size_t nd = 0; /* the distinct values, ascending */
        for (size_t k = 0; k < nc; k++)
            if (!nd || rows[byconf[k]].conf != cv[nd - 1])
                cv[nd++] = rows[byconf[k]].conf;
        double best99 = 0, best999 = 0;
        if (add_point(rep, &cap, &pt) != PB_OK)
            goto out;
        /* thresholds: the distinct values (or quantiles of them), then
         * just past the largest, when that is still at most 1; the rows
         * below each are abstained in turn (byconf order) */
        size_t nt = nd <= SCORE_COV_POINTS ? nd : SCORE_COV_POINTS, done = 0;
        for (size_t q = 0; q <= nt; q++) {
            double x;
            if (q < nt)
                x = cv[nd <= SCORE_COV_POINTS ? q : q * nd / SCORE_COV_POINTS];
            else if (!nd || (x = nextafter(cv[nd - 1], INFINITY)) > 1)
                break;
            if (!(x > 0))
                continue; /* abstains nothing: the first point */
            size_t to = done;
            while (to < nc && rows[byconf[to]].conf < x)
                to++;
            take_rows(&s, byconf, done, to);
            done = to;
            fill_point(&s, x, rep->messages, &pt);
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
    free(byconf);
    free(s.wrongmsgs);
    free(s.full);
    free(s.dirty);
    free(s.status);
    free(s.lmark);
    free(s.tl);
    free(s.gfirst);
    free(s.gone);
    free(s.gmark);
    free(s.tg);
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
        pb_sort(ix, n, sizeof *ix, cmp_idx_row);
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
            pb_sort(given, ng, sizeof *given, cmp_idx_row);
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
