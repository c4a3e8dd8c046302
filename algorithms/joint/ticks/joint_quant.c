/*
 * joint_quant.c - joint: the tie test at coarse stamps (docs/joint/ticks.md,
 * "The tie test: whole-tick stamps").
 *
 * When the trace's stamps are whole ticks and many messages share one
 * (pb_tick_info.coarse_ties), requests that arrive at a service in the same
 * tick are told apart by nothing in the delays: every delay they give a call
 * is the same whole number of ticks.  The start (start=rank: arrival order,
 * ties in row order) orders them; the search then trades that order for
 * whatever sharpens the refitted whole-tick densities, a self-consistent
 * state the likelihood cannot refute.  The test: of the calls the search
 * moved away from their start parent, how many went to a request whose
 * arrival stamp is within one tick of the start parent's (a move the
 * stamps cannot support: either request may have arrived first)?  When those are more than half of the
 * moves and the search's log-likelihood (under its refit) beats the
 * start's (under its refit) by less than JOINT_QUANT_GAIN nats per moved
 * call, the start is kept: made again, with requests tied at arrival
 * ranked by their responses, and refitted.
 * Without call ids the start's pairing of returns is put back with it.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

/* the start's returns of a pair (without call ids the search re-pairs
 * them) */
typedef struct qret {
    pb_ns rs, rr;
    uint32_t ret;
} qret;

void *joint_quant_returns_alloc(uint32_t n)
{
    return malloc(((size_t)n + 1) * sizeof(qret));
}

void joint_quant_copy_returns(const joint *s, void *out)
{
    qret *r = out;
    for (uint32_t p = 0; p < s->npairs; p++)
        r[p] = (qret){s->pr[p].rs, s->pr[p].rr, s->pr[p].ret};
}

void joint_quant_pick_return(void *out, uint32_t p, const void *from)
{
    ((qret *)out)[p] = ((const qret *)from)[p];
}

uint32_t joint_quant_return_of(const void *saved, uint32_t p)
{
    return ((const qret *)saved)[p].ret;
}

int joint_quant_snapshot(joint *s)
{
    if (!s->quant_on || s->qpar)
        return PB_OK;
    uint32_t n = s->npairs;
    s->qpar = malloc(((size_t)n + 1) * sizeof *s->qpar);
    s->qret = joint_quant_returns_alloc(n);
    if (!s->qpar || !s->qret) {
        free(s->qpar);
        free(s->qret);
        s->qpar = NULL;
        s->qret = NULL;
        return PB_ENOMEM;
    }
    memcpy(s->qpar, s->par, (size_t)n * sizeof *s->qpar);
    joint_quant_copy_returns(s, s->qret);
    s->quant_ll_set = 0; /* joint_quant_fitted, at the search's first fit */
    return PB_OK;
}

void joint_quant_fitted(joint *s)
{
    if (!s->qpar || s->quant_ll_set)
        return;
    s->quant_ll[0] = joint_lser_choice_ll(s); /* the model without a guiding term */
    s->quant_ll_set = 1;
}

int joint_quant_put_returns(joint *s, const void *saved)
{
    uint32_t n = s->npairs;
    const qret *r = saved;
    int rc = PB_OK;
    for (uint32_t p = 0; p < n && rc == PB_OK; p++)
        if (s->par[p] != NONE)
            rc = joint_set_parent(s, p, NONE);
    int moved_ret = 0;
    for (uint32_t p = 0; p < n; p++) {
        jpair *x = &s->pr[p];
        if (x->ret == r[p].ret && x->rs == r[p].rs && x->rr == r[p].rr)
            continue;
        x->ret = r[p].ret;
        x->rs = r[p].rs;
        x->rr = r[p].rr;
        if (x->ret != NONE)
            s->pair_of_msg[x->ret] = p;
        moved_ret = 1;
    }
    if (rc == PB_OK && moved_ret)
        rc = joint_find_candidates(s);
    return rc;
}

void joint_quant_count(const uint32_t *start, const uint32_t *now, const pb_ns *arr,
                       uint32_t n, pb_ns tick, size_t *changed, size_t *tied)
{
    size_t c = 0, t = 0;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t a = start[p], b = now[p];
        if (a == b)
            continue;
        c++;
        if (a != NONE && b != NONE && arr[a] != INT64_MIN && arr[b] != INT64_MIN &&
            (arr[a] > arr[b] ? arr[a] - arr[b] : arr[b] - arr[a]) <= tick)
            t++;
    }
    *changed = c;
    *tied = t;
}

int joint_quant_keep_start(size_t changed, size_t tied, double ll_start, double ll_search)
{
    return changed > 0 && 2 * tied > changed &&
           ll_search - ll_start < JOINT_QUANT_GAIN * (double)changed;
}

/* tie_sets (joint_tieset.c) with the start's lost returns: 1 refuted, 0 not, -1
 * out of memory */
static int tieset(joint *s)
{
    if (!s->p.tie_sets)
        return 0;
    if (s->p.tie_sets == 3) /* decided after tie_cross (joint_tieset_after) */
        return joint_tieset_defer(s) != PB_OK ? -1 : 0;
    uint32_t n = s->npairs;
    const qret *r = s->qret;
    unsigned char *lost = malloc((size_t)n + 1);
    if (!lost)
        return -1;
    for (uint32_t p = 0; p < n; p++)
        lost[p] = r[p].ret == NONE;
    int rt = joint_tieset_decide(s, lost);
    free(lost);
    return rt;
}

int joint_quant_decide(joint *s)
{
    if (!s->quant_on || !s->qpar)
        return PB_OK;
    uint32_t n = s->npairs;
    pb_ns *arr = malloc(((size_t)n + 1) * sizeof *arr);
    if (!arr)
        return PB_ENOMEM;
    /* arrivals as the start had them (a call's arrival never moves) */
    for (uint32_t q = 0; q < n; q++)
        arr[q] = s->pr[q].call == NONE ? INT64_MIN : s->pr[q].cr;
    /* on spread rows, only the moves that touch a link paired by position
     * (joint_subsvc.c) */
    const uint32_t *now = s->par;
    uint32_t *masked = NULL;
    int mrc = joint_subsvc_tie_mask(s, &masked);
    if (mrc != PB_OK) {
        free(arr);
        return mrc;
    }
    if (masked)
        now = masked;
    joint_quant_count(s->qpar, now, arr, n, s->qtick, &s->quant_changed, &s->quant_tied);
    free(masked);
    free(arr);
    int rc = PB_OK;
    /* the search's, fitted last by the search itself (joint.c) */
    s->quant_ll[1] = joint_lser_choice_ll(s);
    if (!s->quant_ll_set)
        s->quant_ll[0] = s->quant_ll[1]; /* no search ran: nothing moved */
    s->quant_state = 2;
    /* tie_excess (joint_tieexcess.c): the excess over tie_test=2's allowance
     * tested too; 0 is tie_test=2 as it was */
    int keep = s->p.tie_test == 2
                   ? joint_tieexcess_keep_start(s->quant_changed, s->quant_tied,
                                                s->quant_ll[0], s->quant_ll[1],
                                                s->p.tie_excess)
                   : joint_quant_keep_start(s->quant_changed, s->quant_tied, s->quant_ll[0],
                                            s->quant_ll[1]);
    /* tie_sets_search (joint_tiesearch.c): where only tie_test=1 keeps the
     * start, it is still made and judged by tie_sets */
    if (s->p.tie_test == 2)
        keep = joint_tiesearch_keep(s, keep,
                                    joint_quant_keep_start(s->quant_changed, s->quant_tied,
                                                           s->quant_ll[0], s->quant_ll[1]));
    if (keep) {
        /* a start that leaves calls without the parent the search found them is
         * refuted (tie_orphans, joint_tieorph.c) */
        int ro = joint_tieorph_decide(s);
        if (ro < 0)
            rc = PB_ENOMEM;
        else if (ro > 0)
            keep = 0;
    }
    if (rc == PB_OK && keep) {
        /* ... nor one that breaks the set of calls requests make (tie_sets,
         * joint_tieset.c) */
        int rt = tieset(s);
        if (rt < 0)
            rc = PB_ENOMEM;
        else if (rt > 0)
            keep = 0;
    }
    if (rc == PB_OK && keep) {
        s->quant_state = 3;
        rc = joint_tiecross_save(s); /* tie_cross (joint_tiecross.c) */
        if (rc == PB_OK)
            rc = joint_quant_put_returns(s, s->qret);
    }
    free(s->qpar);
    free(s->qret);
    s->qpar = NULL;
    s->qret = NULL;
    return rc;
}

int joint_quant_meta(const joint *s, pb_result *res)
{
    if (!s->quant_on)
        return PB_OK;
    static const char *what[] = {"none", "none", "search", "start"};
    return pb_result_meta(res, "tie_test=on moved=%zu moved_within_tick=%zu "
                          "log_likelihood_start=%.3f log_likelihood_search=%.3f "
                          "gain_per_move=%.3f kept=%s",
                          s->quant_changed, s->quant_tied, s->quant_ll[0], s->quant_ll[1],
                          s->quant_changed ? (s->quant_ll[1] - s->quant_ll[0]) /
                                                 (double)s->quant_changed : 0.0,
                          what[s->quant_state]);
}

/* (response stamp, pair) of a request, for the order within a tick */
typedef struct qkey {
    pb_ns rs;
    uint32_t p;
} qkey;

static int cmp_qkey(const void *x, const void *y)
{
    const qkey *a = x, *b = y;
    if (a->rs != b->rs)
        return a->rs < b->rs ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

int joint_quant_rank_ties(const joint *s, insort *rq, uint32_t n)
{
    if (s->quant_state != 3 || n < 2)
        return PB_OK;
    qkey *k = NULL;
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i + 1;
        while (j < n && rq[j].t == rq[i].t)
            j++;
        if (j - i > 1) {
            if (!k && !(k = malloc((size_t)n * sizeof *k)))
                return PB_ENOMEM;
            for (uint32_t t = i; t < j; t++) {
                const jpair *x = &s->pr[rq[t].p];
                /* a lost response: after every answered one */
                k[t - i] = (qkey){x->ret == NONE ? INT64_MAX : x->rs, rq[t].p};
            }
            pb_sort(k, j - i, sizeof *k, cmp_qkey);
            for (uint32_t t = i; t < j; t++)
                rq[t].p = k[t - i].p;
        }
        i = j;
    }
    free(k);
    return PB_OK;
}
