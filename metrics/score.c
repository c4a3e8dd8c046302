/* Scoring a result against the truth (definitions: docs/metrics.md). */
#include "score.h"
#include "score_int.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_pattab.h"
#include "pb_strtab.h"
#include "pb_sort.h"

#define NOPOS SIZE_MAX

void score_opts_default(score_opts *o)
{
    memset(o, 0, sizeof *o);
    o->min_instances = 0;
    o->rank_by = SCORE_RANK_COUNT;
    o->topn = 10;
    o->tol[0] = 2.0;
    o->ntol = 1;
    o->tol_true_count = 0;
    o->ci_seed = 1;
    o->ci_reps = 2000;
}

void score_report_close(score_report *rep)
{
    if (!rep)
        return;
    free(rep->entries);
    free(rep->true_rank);
    free(rep->inf_rank);
    free(rep->cov);
    free(rep);
}

/* The key inferred patterns are ranked by. */
static double inf_key(const score_report *rep, const score_entry *e)
{
    if (rep->opts.rank_by == SCORE_RANK_SCORE && !isnan(e->inf_score))
        return e->inf_score;
    return (double)e->inf_count;
}

/* qsort has no context argument */
static const score_report *g_rep;

static int cmp_true(const void *a, const void *b)
{
    const score_entry *x = &g_rep->entries[*(const size_t *)a];
    const score_entry *y = &g_rep->entries[*(const size_t *)b];
    if (x->true_count != y->true_count)
        return x->true_count > y->true_count ? -1 : 1;
    return strcmp(x->text, y->text);
}

static int cmp_inf(const void *a, const void *b)
{
    const score_entry *x = &g_rep->entries[*(const size_t *)a];
    const score_entry *y = &g_rep->entries[*(const size_t *)b];
    double kx = inf_key(g_rep, x), ky = inf_key(g_rep, y);
    if (kx != ky)
        return kx > ky ? -1 : 1;
    if (x->inf_count != y->inf_count)
        return x->inf_count > y->inf_count ? -1 : 1;
    double sx = isnan(x->inf_score) ? 0 : x->inf_score;
    double sy = isnan(y->inf_score) ? 0 : y->inf_score;
    if (sx != sy)
        return sx > sy ? -1 : 1;
    return strcmp(x->text, y->text);
}

typedef struct kept_row {
    uint64_t id;
    int exact;
} kept_row;

static int cmp_kept(const void *a, const void *b)
{
    const kept_row *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Message level and exact reconstruction (see docs/metrics.md). */
static int score_messages(score_report *rep, const tv_truth *tv,
                          const score_result *r, const int *kept_pat,
                          pb_error *err)
{
    kept_row *kr = malloc((r->nassign ? r->nassign : 1) * sizeof *kr);
    unsigned char *rebuilt = calloc(tv->ninst ? tv->ninst : 1, 2);
    if (!kr || !rebuilt) {
        free(kr);
        free(rebuilt);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    /* second half: the message set is right, whatever the structure */
    unsigned char *setok = rebuilt + (tv->ninst ? tv->ninst : 1);
    size_t nk = 0;
    /* r->assign is sorted by (instance, id): one group per instance */
    for (size_t i = 0; i < r->nassign;) {
        size_t j = i;
        size_t t0 = TV_NONE;
        int same = 1;
        for (; j < r->nassign && r->assign[j].instance == r->assign[i].instance; j++) {
            size_t t;
            if (!tv_lookup(tv, r->assign[j].id, &t)) {
                free(kr);
                free(rebuilt);
                return pb_error_set(err, PB_ENOENT, r->file, r->assign[j].line, 0,
                                    "message id %llu is not in the truth trace; "
                                    "expected the ids of the trace the result "
                                    "was inferred from",
                                    (unsigned long long)r->assign[j].id);
            }
            if (j == i)
                t0 = t;
            else if (t != t0)
                same = 0;
        }
        size_t p = r->assign[i].pattern;
        if (kept_pat[p]) {
            int exact = same && t0 != TV_NONE && tv->inst[t0].nmsg == j - i;
            if (exact)
                setok[t0] = 1;
            if (exact) {
                const pb_pattern *tp =
                    pb_pattab_by_index(tv->patterns, tv->inst[t0].pattern);
                if (!strcmp(tp->text, r->pats[p].text))
                    rebuilt[t0] = 1;
            }
            for (size_t k = i; k < j; k++)
                kr[nk++] = (kept_row){r->assign[k].id, exact};
        }
        i = j;
    }
    if (nk)
        pb_sort(kr, nk, sizeof *kr, cmp_kept);
    size_t right = 0;
    for (size_t i = 0; i < nk;) {
        size_t j = i + 1;
        while (j < nk && kr[j].id == kr[i].id)
            j++;
        /* a message put in several instances is not rightly ascribed */
        if (j == i + 1 && kr[i].exact)
            right++;
        i = j;
    }
    rep->has_messages = 1;
    rep->messages = tv->nmsg_ids;
    rep->messages_wrong = tv->nmsg_ids - right;
    rep->message_error_rate =
        tv->nmsg_ids ? (double)rep->messages_wrong / (double)tv->nmsg_ids : NAN;
    rep->instances_exact = 0;
    rep->instances_set = 0;
    for (size_t t = 0; t < tv->ninst; t++) {
        rep->instances_exact += rebuilt[t];
        rep->instances_set += setok[t];
    }
    rep->set_accuracy =
        tv->ninst ? (double)rep->instances_set / (double)tv->ninst : NAN;
    rep->intact_exact_accuracy = NAN;
    if (tv->has_kept) {
        rep->intact_instances = rep->intact_exact = 0;
        for (size_t t = 0; t < tv->ninst; t++)
            if (tv->inst[t].nlost == 0) {
                rep->intact_instances++;
                rep->intact_exact += rebuilt[t];
            }
        if (rep->intact_instances)
            rep->intact_exact_accuracy =
                (double)rep->intact_exact / (double)rep->intact_instances;
    }
    rep->exact_accuracy =
        tv->ninst ? (double)rep->instances_exact / (double)tv->ninst : NAN;
    free(kr);
    free(rebuilt);
    if (score_boot_ci(rep, rep->instances_exact, tv->ninst) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return score_split(rep, tv, r, kept_pat, err);
}

static int score_latency(score_report *rep, const tv_truth *tv,
                         const score_result *r, const size_t *inf_pat)
{
    size_t cap = 64, n = 0;
    double *errs = malloc(cap * sizeof *errs);
    if (!errs)
        return PB_ENOMEM;
    for (size_t e = 0; e < rep->nentries; e++) {
        score_entry *en = &rep->entries[e];
        en->lat_err_max = NAN;
        if (!en->is_true || !en->is_inferred)
            continue;
        const pb_pattern *tp = pb_pattab_find(tv->patterns, en->text);
        const score_pattern *ip = &r->pats[inf_pat[e]];
        for (uint32_t k = 0; k < tp->nnodes && k < ip->nnodes; k++) {
            if (!(tp->node_wsum[k] > 0) || isnan(ip->node_lat[k]))
                continue;
            double truth = tp->node_sum[k] / tp->node_wsum[k];
            /* relative error is undefined at a true mean of zero */
            if (fabs(truth) < 1e-9)
                continue;
            double rel = fabs(ip->node_lat[k] - truth) / fabs(truth);
            if (n == cap) {
                double *ne = realloc(errs, 2 * cap * sizeof *ne);
                if (!ne) {
                    free(errs);
                    return PB_ENOMEM;
                }
                errs = ne;
                cap *= 2;
            }
            errs[n++] = rel;
            if (isnan(en->lat_err_max) || rel > en->lat_err_max)
                en->lat_err_max = rel;
        }
    }
    rep->latency_nodes = n;
    rep->latency_error_median = rep->latency_error_max = NAN;
    if (n) {
        gsl_sort(errs, 1, n);
        rep->latency_error_median = gsl_stats_median_from_sorted_data(errs, 1, n);
        rep->latency_error_max = errs[n - 1];
    }
    free(errs);
    return PB_OK;
}

int score_compute(const tv_truth *tv, const score_result *r,
                  const score_opts *o, score_report **out, pb_error *err)
{
    *out = NULL;
    score_report *rep = calloc(1, sizeof *rep);
    size_t ntrue = pb_pattab_count(tv->patterns);
    size_t cap = ntrue + r->npats;
    pb_strtab *idx = NULL;
    int *kept_pat = calloc(r->npats ? r->npats : 1, sizeof *kept_pat);
    size_t *inf_pat = malloc((cap ? cap : 1) * sizeof *inf_pat);
    int rc = PB_ENOMEM;
    if (!rep || !kept_pat || !inf_pat || pb_strtab_init(&idx) != PB_OK)
        goto fail;
    rep->algo = r->algo ? r->algo : "";
    rep->view = tv_view_name(tv->view);
    rep->opts = *o;
    rep->entries = calloc(cap ? cap : 1, sizeof *rep->entries);
    rep->true_rank = malloc((ntrue ? ntrue : 1) * sizeof *rep->true_rank);
    rep->inf_rank = malloc((r->npats ? r->npats : 1) * sizeof *rep->inf_rank);
    if (!rep->entries || !rep->true_rank || !rep->inf_rank)
        goto fail;
    g_rep = rep;

    /* true patterns, in true rank order */
    for (size_t i = 0; i < ntrue; i++) {
        const pb_pattern *tp = pb_pattab_get(tv->patterns, i);
        score_entry *e = &rep->entries[i];
        e->text = tp->text;
        e->true_count = tp->count;
        e->is_true = 1;
        e->inf_score = NAN;
        e->true_pos = e->inf_pos = NOPOS;
        inf_pat[i] = NOPOS;
        rep->true_rank[i] = i;
        rep->true_instances += tp->count;
    }
    rep->nentries = ntrue;
    pb_sort(rep->true_rank, ntrue, sizeof *rep->true_rank, cmp_true);
    rep->ntrue_rank = ntrue;
    /* index the texts in true rank order, so entries follow it */
    {
        score_entry *sorted = malloc((cap ? cap : 1) * sizeof *sorted);
        if (!sorted)
            goto fail;
        for (size_t i = 0; i < ntrue; i++) {
            sorted[i] = rep->entries[rep->true_rank[i]];
            sorted[i].true_pos = i;
            rep->true_rank[i] = i;
            uint32_t ix;
            if (pb_strtab_intern(idx, sorted[i].text, strlen(sorted[i].text), &ix) != PB_OK) {
                free(sorted);
                goto fail;
            }
        }
        free(rep->entries);
        rep->entries = sorted;
    }
    rep->true_patterns = ntrue;

    /* inferred patterns with at least M (and at least one) instances */
    uint64_t m = o->min_instances > 1 ? o->min_instances : 1;
    for (size_t p = 0; p < r->npats; p++) {
        const score_pattern *sp = &r->pats[p];
        if (sp->count < m) {
            if (sp->count > 0)
                rep->dropped_patterns++;
            continue;
        }
        kept_pat[p] = 1;
        uint32_t ix;
        size_t before = pb_strtab_count(idx);
        if (pb_strtab_intern(idx, sp->text, strlen(sp->text), &ix) != PB_OK)
            goto fail;
        score_entry *e = &rep->entries[ix];
        if (ix >= before) {
            memset(e, 0, sizeof *e);
            e->text = sp->text;
            e->true_pos = NOPOS;
            rep->nentries++;
        }
        e->is_inferred = 1;
        e->inf_count = sp->count;
        e->inf_score = sp->score;
        inf_pat[ix] = p;
        rep->inf_rank[rep->ninf_rank++] = ix;
        rep->inferred_patterns++;
        rep->inferred_instances += sp->count;
    }
    pb_sort(rep->inf_rank, rep->ninf_rank, sizeof *rep->inf_rank, cmp_inf);
    for (size_t i = 0; i < rep->ninf_rank; i++)
        rep->entries[rep->inf_rank[i]].inf_pos = i;

    for (size_t e = 0; e < rep->nentries; e++) {
        const score_entry *en = &rep->entries[e];
        if (en->is_true && !en->is_inferred)
            rep->pattern_fn++;
        if (!en->is_true && en->is_inferred)
            rep->pattern_fp++;
        if (en->is_true && en->is_inferred)
            rep->instances_matched +=
                en->true_count < en->inf_count ? en->true_count : en->inf_count;
    }
    rep->instance_fn = rep->true_instances - rep->instances_matched;
    rep->instance_fp = rep->inferred_instances - rep->instances_matched;
    rep->instance_fn_rate = rep->true_instances
        ? (double)rep->instance_fn / (double)rep->true_instances : NAN;
    rep->instance_fp_rate = rep->inferred_instances
        ? (double)rep->instance_fp / (double)rep->inferred_instances : NAN;

    if (score_latency(rep, tv, r, inf_pat) != PB_OK)
        goto fail;

    rep->message_error_rate = rep->exact_accuracy = NAN;
    rep->set_accuracy = rep->tw_accuracy = NAN;
    rep->correct_rate = rep->orphaned_rate = rep->misstitched_rate = NAN;
    rep->exact_ci_low = rep->exact_ci_high = NAN;
    rep->coverage_p99 = rep->coverage_p999 = NAN;
    rep->link_accuracy = NAN;
    rep->latency_ks = rep->latency_true_median = rep->latency_inferred_median = NAN;
    rep->intact_exact_accuracy = NAN;
    rep->immediacy = rep->thread_pattern = NAN;
    rep->has_kept = tv->has_kept;
    rep->lost_messages = tv->msg_lost;
    if (r->has_assign && tv->view != TV_PATH) {
        rc = score_messages(rep, tv, r, kept_pat, err);
        if (rc != PB_OK)
            goto out;
    } else {
        /* the ids are still checked: a bad result is bad in any view */
        for (size_t i = 0; i < r->nassign + r->nabstain; i++) {
            const score_assign *a = i < r->nassign ? &r->assign[i]
                                                   : &r->abstain[i - r->nassign];
            if (!tv_lookup(tv, a->id, NULL)) {
                rc = pb_error_set(err, PB_ENOENT, r->file, a->line, 0,
                                  "message id %llu is not in the truth trace; "
                                  "expected the ids of the trace the result was "
                                  "inferred from",
                                  (unsigned long long)a->id);
                goto out;
            }
        }
    }
    free(kept_pat);
    free(inf_pat);
    pb_strtab_close(idx);
    *out = rep;
    return PB_OK;
fail:
    rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
out:
    free(kept_pat);
    free(inf_pat);
    pb_strtab_close(idx);
    score_report_close(rep);
    return rc;
}

void score_topn(const score_report *rep, size_t n, double tol,
                size_t *missing, size_t *missing_tol)
{
    size_t miss = 0, miss_tol = 0;
    size_t ntop = n < rep->ntrue_rank ? n : rep->ntrue_rank;
    int have_nth = n > 0 && rep->ninf_rank >= n;
    double key_n = have_nth ? inf_key(rep, &rep->entries[rep->inf_rank[n - 1]]) : 0;
    for (size_t i = 0; i < ntop; i++) {
        const score_entry *e = &rep->entries[rep->true_rank[i]];
        if (e->inf_pos != NOPOS && e->inf_pos < n)
            continue;
        miss++;
        int forgiven = 0;
        if (have_nth) {
            if (rep->opts.tol_true_count)
                forgiven = fabs((double)e->true_count - key_n) <= tol / 100.0 * key_n;
            else
                forgiven = e->inf_pos != NOPOS &&
                           inf_key(rep, e) >= (1.0 - tol / 100.0) * key_n;
        }
        if (!forgiven)
            miss_tol++;
    }
    *missing = miss;
    *missing_tol = miss_tol;
}

/* ------------------------------------------------------------------ */
/* Output */

static void put_str(FILE *fp, const char *s)
{
    if (strpbrk(s, ",\"\r\n")) {
        fputc('"', fp);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', fp);
            fputc(*s, fp);
        }
        fputc('"', fp);
    } else {
        fputs(s, fp);
    }
}

static void put_real(FILE *fp, double v)
{
    if (!isnan(v))
        fprintf(fp, "%.6g", v);
}

void score_write_header(FILE *fp, const score_report *rep)
{
    (void)rep;
    fputs("algo,view,true_patterns,inferred_patterns,pattern_fp,pattern_fn,"
          "true_instances,inferred_instances,instance_fp,instance_fn,"
          "instance_fp_rate,instance_fn_rate,message_error_rate,exact_accuracy,"
          "set_accuracy,tw_accuracy,latency_error_median,latency_error_max,latency_nodes,messages,"
          "messages_wrong,instances_exact,instances_matched,min_instances,"
          "dropped_patterns,rank_by,topn,topn_missing,topn_tolerance,"
          "topn_missing_tol,lost_messages,intact_instances,"
          "intact_exact_accuracy,latency_ks,requests_correct,requests_orphaned,"
          "requests_misstitched,correct_rate,orphaned_rate,misstitched_rate,"
          "msgs_right,msgs_wrong,msgs_unattached,msgs_abstained,"
          "exact_ci_low,exact_ci_high,link_accuracy,links_right,links_scored,"
          "coverage_p99,coverage_p999,immediacy,thread_pattern\n", fp);
}

void score_write_row(FILE *fp, const score_report *rep)
{
    put_str(fp, rep->algo);
    fputc(',', fp);
    put_str(fp, rep->view);
    fprintf(fp, ",%zu,%zu,%zu,%zu,%llu,%llu,%llu,%llu,", rep->true_patterns,
            rep->inferred_patterns, rep->pattern_fp, rep->pattern_fn,
            (unsigned long long)rep->true_instances,
            (unsigned long long)rep->inferred_instances,
            (unsigned long long)rep->instance_fp,
            (unsigned long long)rep->instance_fn);
    put_real(fp, rep->instance_fp_rate);
    fputc(',', fp);
    put_real(fp, rep->instance_fn_rate);
    fputc(',', fp);
    put_real(fp, rep->message_error_rate);
    fputc(',', fp);
    put_real(fp, rep->exact_accuracy);
    fputc(',', fp);
    put_real(fp, rep->set_accuracy);
    fputc(',', fp);
    put_real(fp, rep->tw_accuracy);
    fputc(',', fp);
    put_real(fp, rep->latency_error_median);
    fputc(',', fp);
    put_real(fp, rep->latency_error_max);
    fprintf(fp, ",%zu,", rep->latency_nodes);
    if (rep->has_messages)
        fprintf(fp, "%zu,%zu,%zu", rep->messages, rep->messages_wrong,
                rep->instances_exact);
    else
        fputs(",,", fp);
    size_t miss, miss_tol;
    double tol = rep->opts.ntol ? rep->opts.tol[0] : 0;
    score_topn(rep, rep->opts.topn, tol, &miss, &miss_tol);
    fprintf(fp, ",%llu,%llu,%zu,%s,%zu,%zu,%g,%zu,",
            (unsigned long long)rep->instances_matched,
            (unsigned long long)rep->opts.min_instances, rep->dropped_patterns,
            rep->opts.rank_by == SCORE_RANK_SCORE ? "score" : "count",
            rep->opts.topn, miss, tol, miss_tol);
    if (rep->has_kept) {
        fprintf(fp, "%zu,", rep->lost_messages);
        if (rep->has_messages)
            fprintf(fp, "%zu", rep->intact_instances);
        fputc(',', fp);
        put_real(fp, rep->intact_exact_accuracy);
    } else {
        fputs(",,", fp);
    }
    fputc(',', fp);
    put_real(fp, rep->latency_ks);
    /* the failure split, the interval, link accuracy, coverage */
    if (rep->has_messages)
        fprintf(fp, ",%zu,%zu,%zu,", rep->req_correct, rep->req_orphaned,
                rep->req_misstitched);
    else
        fputs(",,,,", fp);
    put_real(fp, rep->correct_rate);
    fputc(',', fp);
    put_real(fp, rep->orphaned_rate);
    fputc(',', fp);
    put_real(fp, rep->misstitched_rate);
    if (rep->has_messages)
        fprintf(fp, ",%zu,%zu,%zu,%zu,", rep->msgs_right, rep->msgs_wrong,
                rep->msgs_unattached, rep->msgs_abstained);
    else
        fputs(",,,,,", fp);
    put_real(fp, rep->exact_ci_low);
    fputc(',', fp);
    put_real(fp, rep->exact_ci_high);
    fputc(',', fp);
    put_real(fp, rep->link_accuracy);
    if (rep->has_links)
        fprintf(fp, ",%zu,%zu,", rep->links_right, rep->links_scored);
    else
        fputs(",,,", fp);
    put_real(fp, rep->coverage_p99);
    fputc(',', fp);
    put_real(fp, rep->coverage_p999);
    fputc(',', fp);
    put_real(fp, rep->immediacy);
    fputc(',', fp);
    put_real(fp, rep->thread_pattern);
    fputc('\n', fp);
}

void score_write_curve(FILE *fp, const score_report *rep)
{
    fputs("n,missing,fn_rate", fp);
    for (size_t t = 0; t < rep->opts.ntol; t++)
        fprintf(fp, ",missing_t%g,fn_rate_t%g", rep->opts.tol[t], rep->opts.tol[t]);
    fputc('\n', fp);
    size_t nmax = rep->ntrue_rank ? rep->ntrue_rank : 1;
    for (size_t n = 1; n <= nmax; n++) {
        size_t miss, miss_tol;
        score_topn(rep, n, 0, &miss, &miss_tol);
        fprintf(fp, "%zu,%zu,%.6g", n, miss, (double)miss / (double)n);
        for (size_t t = 0; t < rep->opts.ntol; t++) {
            score_topn(rep, n, rep->opts.tol[t], &miss, &miss_tol);
            fprintf(fp, ",%zu,%.6g", miss_tol, (double)miss_tol / (double)n);
        }
        fputc('\n', fp);
    }
}

static void text_pct(FILE *fp, double v)
{
    if (isnan(v))
        fputs("n/a", fp);
    else
        fprintf(fp, "%.4g%%", 100.0 * v);
}

void score_write_text(FILE *fp, const score_report *rep)
{
    fprintf(fp, "algorithm %s, scored in the %s view\n", rep->algo, rep->view);
    if (rep->opts.min_instances > 1)
        fprintf(fp, "  (inferred patterns with fewer than %llu instances ignored: "
                    "%zu dropped)\n",
                (unsigned long long)rep->opts.min_instances, rep->dropped_patterns);
    fprintf(fp, "patterns:  %zu true, %zu inferred; %zu false positive, %zu false "
                "negative\n", rep->true_patterns, rep->inferred_patterns,
            rep->pattern_fp, rep->pattern_fn);
    fprintf(fp, "instances: %llu true, %llu inferred, %llu matched; %llu false "
                "positive (",
            (unsigned long long)rep->true_instances,
            (unsigned long long)rep->inferred_instances,
            (unsigned long long)rep->instances_matched,
            (unsigned long long)rep->instance_fp);
    text_pct(fp, rep->instance_fp_rate);
    fprintf(fp, " of inferred), %llu false negative (",
            (unsigned long long)rep->instance_fn);
    text_pct(fp, rep->instance_fn_rate);
    fputs(" of true)\n", fp);
    if (rep->has_messages) {
        fprintf(fp, "messages:  %zu of %zu wrongly ascribed (", rep->messages_wrong,
                rep->messages);
        text_pct(fp, rep->message_error_rate);
        fprintf(fp, ")\nexact:     %zu of %llu true instances reconstructed "
                    "exactly (", rep->instances_exact,
                (unsigned long long)rep->true_instances);
        text_pct(fp, rep->exact_accuracy);
        fprintf(fp, ")\nsets:      %zu of %llu true instances whose messages form "
                    "exactly one inferred instance (", rep->instances_set,
                (unsigned long long)rep->true_instances);
        text_pct(fp, rep->set_accuracy);
        fputs(")\n", fp);
        if (rep->has_kept) {
            fprintf(fp, "kept:      scored against the survivors' truth: %zu "
                        "messages of true instances lost; %zu of %zu instances "
                        "that lost nothing reconstructed exactly (",
                    rep->lost_messages, rep->intact_exact, rep->intact_instances);
            text_pct(fp, rep->intact_exact_accuracy);
            fputs(")\n", fp);
        }
        fprintf(fp, "split:     requests %zu correct, %zu orphaned only, %zu "
                    "mis-stitched; messages %zu attached right, %zu attached "
                    "wrong, %zu unattached (%zu abstained)\n",
                rep->req_correct, rep->req_orphaned, rep->req_misstitched,
                rep->msgs_right, rep->msgs_wrong, rep->msgs_unattached,
                rep->msgs_abstained);
        if (!isnan(rep->exact_ci_low)) {
            fputs("interval:  exact accuracy 95 % bootstrap interval ", fp);
            text_pct(fp, rep->exact_ci_low);
            fputs(" .. ", fp);
            text_pct(fp, rep->exact_ci_high);
            fprintf(fp, " (%zu replicates over requests, seed %llu)\n",
                    rep->opts.ci_reps, (unsigned long long)rep->opts.ci_seed);
        }
        if (rep->has_links) {
            fprintf(fp, "links:     %zu of %zu messages have their true parent (",
                    rep->links_right, rep->links_scored);
            text_pct(fp, rep->link_accuracy);
            fputs(")\n", fp);
        }
        if (rep->has_conf) {
            fputs("coverage:  at precision 99 % ", fp);
            text_pct(fp, rep->coverage_p99);
            fputs(", at 99.9 % ", fp);
            text_pct(fp, rep->coverage_p999);
            fputs(" of messages attached\n", fp);
        }
        if (!isnan(rep->tw_accuracy)) {
            fprintf(fp, "tw:        %zu of %zu requests right at every scored "
                        "node (TraceWeaver end-to-end; %zu nodes scored, %zu "
                        "skipped: several callers) (", rep->tw_right,
                    rep->tw_requests, rep->tw_nodes, rep->tw_skipped_nodes);
            text_pct(fp, rep->tw_accuracy);
            fputs(")\n", fp);
        }
        if (!isnan(rep->latency_ks))
            fprintf(fp, "e2e:       request latency distribution off by %.3f "
                        "(Kolmogorov-Smirnov; median %.6g s true, %.6g s inferred)\n",
                    rep->latency_ks, rep->latency_true_median,
                    rep->latency_inferred_median);
    } else {
        fputs("messages:  n/a (no message assignment in this view or result)\n", fp);
    }
    if (rep->latency_nodes)
        fprintf(fp, "latency:   relative error of per-node mean latency over %zu "
                    "nodes of correctly found patterns: median %.4g, max %.4g\n",
                rep->latency_nodes, rep->latency_error_median,
                rep->latency_error_max);
    else
        fputs("latency:   n/a (no node latency to compare)\n", fp);
    if (!isnan(rep->immediacy) || !isnan(rep->thread_pattern))
        fprintf(fp, "assume:    immediacy %.4g, thread pattern %.4g (metrics/assume.h: "
                    "what the truth keeps of BorderPatrol's and vPath's premises)\n",
                rep->immediacy, rep->thread_pattern);
    size_t miss, miss_tol;
    double tol = rep->opts.ntol ? rep->opts.tol[0] : 0;
    score_topn(rep, rep->opts.topn, tol, &miss, &miss_tol);
    fprintf(fp, "top-%zu:    %zu true top-%zu patterns missing from the inferred "
                "top %zu by %s (%zu with %g%% tolerance)\n",
            rep->opts.topn, miss, rep->opts.topn, rep->opts.topn,
            rep->opts.rank_by == SCORE_RANK_SCORE ? "score" : "count", miss_tol,
            tol);
    fputs("\n true_rank inf_rank true_count inf_count lat_err_max  pattern\n", fp);
    size_t shown = rep->nentries;
    if (rep->opts.text_top && rep->opts.text_top < shown)
        shown = rep->opts.text_top;
    for (size_t i = 0; i < shown; i++) {
        const score_entry *e = &rep->entries[i];
        char tr[24] = "-", ir[24] = "-", le[24] = "-";
        if (e->true_pos != NOPOS)
            snprintf(tr, sizeof tr, "%zu", e->true_pos + 1);
        if (e->inf_pos != NOPOS)
            snprintf(ir, sizeof ir, "%zu", e->inf_pos + 1);
        if (!isnan(e->lat_err_max))
            snprintf(le, sizeof le, "%.4g", e->lat_err_max);
        fprintf(fp, " %9s %8s %10llu %9llu %11s  %s%s\n", tr, ir,
                (unsigned long long)e->true_count, (unsigned long long)e->inf_count,
                le, e->text,
                e->is_true ? (e->is_inferred ? "" : "   (false negative)")
                           : "   (false positive)");
    }
    if (shown < rep->nentries)
        fprintf(fp, " ... %zu more patterns (--top 0 shows all)\n",
                rep->nentries - shown);
}

typedef struct kept_id {
    uint64_t id;
    size_t idx;
} kept_id;

static int cmp_kept_id(const void *a, const void *b)
{
    const kept_id *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The line of the nth (1, 2) message with this id in the trace file path,
 * read again (only when an error needs it), or 0. */
static long line_of_id(const char *path, uint64_t id, int nth)
{
    pb_reader_opts o;
    pb_reader_opts_default(&o);
    o.check_ids = 0;
    o.allow_unsorted = 1;
    o.allow_negative_ts = 1;
    o.allow_empty = 1;
    o.ignore_unknown_columns = 1;
    pb_reader *r = NULL;
    if (!path || !strcmp(path, "-") || pb_reader_open(&r, path, NULL, &o, NULL) != PB_OK)
        return 0;
    pb_msg m;
    long line = 0;
    while (pb_reader_next(r, &m, NULL, NULL) == 1)
        if (m.id == id && --nth == 0) {
            line = pb_reader_line(r);
            break;
        }
    pb_reader_close(r);
    return line;
}

int score_kept_mask(const pb_trace *truth, const pb_trace *kept,
                    const char *kept_name, unsigned char **mask, pb_error *err)
{
    *mask = NULL;
    size_t n = truth->n;
    kept_id *ix = malloc((n ? n : 1) * sizeof *ix);
    unsigned char *m = calloc(n ? n : 1, 1);
    if (!ix || !m) {
        free(ix);
        free(m);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        ix[i] = (kept_id){truth->msgs[i].id, i};
    if (n)
        pb_sort(ix, n, sizeof *ix, cmp_kept_id);
    int rc = PB_OK;
    size_t bad_k = SIZE_MAX;
    for (size_t k = 0; k < kept->n && rc == PB_OK; k++) {
        const pb_msg *km = &kept->msgs[k];
        bad_k = k;
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ix[mid].id < km->id)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == n || ix[lo].id != km->id) {
            rc = pb_error_set(err, PB_ENOENT, kept_name, 0, 0,
                              "message %llu is not in the truth trace; expected "
                              "a lossy copy of it (messages matched by id)",
                              (unsigned long long)km->id);
            break;
        }
        const pb_msg *tm = &truth->msgs[ix[lo].idx];
        const char *ks = pb_strtab_str(kept->names->nodes, km->src);
        const char *kd = pb_strtab_str(kept->names->nodes, km->dst);
        const char *ts = pb_strtab_str(truth->names->nodes, tm->src);
        const char *td = pb_strtab_str(truth->names->nodes, tm->dst);
        if (km->type != tm->type || !ks || !kd || !ts || !td || strcmp(ks, ts) ||
            strcmp(kd, td)) {
            rc = pb_error_set(err, PB_EINVAL, kept_name, 0, 0,
                              "message %llu differs from the truth trace's "
                              "(sender, receiver or type); expected a lossy "
                              "copy of it", (unsigned long long)km->id);
            break;
        }
        if (m[ix[lo].idx]) {
            rc = pb_error_set(err, PB_EDUP, kept_name, 0, 0,
                              "message id %llu appears twice; expected unique ids",
                              (unsigned long long)km->id);
            break;
        }
        m[ix[lo].idx] = 1;
    }
    free(ix);
    if (rc != PB_OK) {
        free(m);
        /* where in the file: the reader knows lines, the trace does not */
        if (err && bad_k < kept->n)
            err->line = line_of_id(kept_name, kept->msgs[bad_k].id, rc == PB_EDUP ? 2 : 1);
        return rc;
    }
    *mask = m;
    return PB_OK;
}
