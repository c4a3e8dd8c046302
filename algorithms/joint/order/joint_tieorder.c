/*
 * joint_tieorder.c - joint without call ids: crossed calls and the order
 * of answers (option order_cross; docs/joint/loss_late.md, "The eBPF
 * capture: crossed calls and the order of answers (h210)").
 *
 * The order of answers' term (joint_order.c, pair_order) scores each two
 * consecutive calls of a link by the callee's reads: the later-read one
 * answered first is an overtake (log rho), else kept (log (1 - rho)) when
 * in question.  Two calls that crossed on the way -- the caller sent y
 * before x, the callee read x before y -- have no first arrival: the
 * caller's order and the callee's disagree, so either answer order
 * overtakes one of them.  With order_cross on such a pair is not in
 * question when the step below scores: neither pairing of their answers
 * pays the term.  The search itself keeps the term as it is (every pair
 * by the callee's reads): taking the crossed pairs out of question there
 * lets the held search drift (OnlineBoutique 07:11 as a black box, 52
 * crossings: exact 59.1 -> 44.4 %, its held solution 837 nats less
 * likely).  The test compares stamps of one clock each (the two sends on
 * the caller's, the two reads on the callee's).
 *
 * Freed of the term, the other pairing of a crossing may be the likelier
 * (the callee's durations against the caller's order of service), but
 * the search cannot reach it: the two answers exchanged put each call in
 * the other request's time, and only every call of the two requests
 * exchanged with them keeps both requests whole -- a move of many calls
 * at once that neither the return exchanges nor the re-split make.  So,
 * after the search (where the order of answers is scored: the held
 * search), for every crossing of two calls with movable answers, two
 * moves: the answers exchanged alone (the requests keep their calls: the
 * search had kept the caller in order and paired the callee by its
 * reads), and, when the two calls have different parents, the answers
 * exchanged with the two parents' calls exchanged too (each only to a
 * candidate parent: the search had paired by the reads and swapped the
 * caller's calls to keep its answers in order).  Each is scored by the
 * whole model with the order terms under its own refit
 * (joint_order_score_at); the likelier is kept when it beats the
 * solution before by more than uncross_min nats; else both are undone.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

int joint_tieorder_crossed(const joint *s, uint32_t x, uint32_t y)
{
    return s->p.ocx_on && s->pr[y].cs < s->pr[x].cs;
}

static int cmp_cr(const void *a, const void *b)
{
    const insort *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->p < y->p ? -1 : x->p > y->p;
}

/* the whole model with the order terms, under the current fit */
static int score(joint *s, double *v)
{
    double *keep = s->pord_stat;
    int had = keep != NULL;
    int rc = joint_order_score_at(s, joint_lser_choice_ll(s), v);
    if (!had) {
        free(s->pord_stat);
        s->pord_stat = NULL;
    }
    return rc;
}

/* whether the move at crossing (a, b) is possible: answers movable, a
 * parent each; *kids: also the two parents' calls exchanged (different
 * parents, each call a candidate of the other) */
static int movable(const joint *s, uint32_t a, uint32_t b, int *kids)
{
    uint32_t pa = s->par[a], pb = s->par[b];
    *kids = 0;
    if (pa == NONE || pb == NONE || !joint_ret_movable(s, a) || !joint_ret_movable(s, b) ||
        s->kids[a].n || s->kids[b].n)
        return 0;
    const jpair *x = &s->pr[a], *y = &s->pr[b];
    if (y->rs < x->cr || x->rs < y->cr || y->rr < x->cs || x->rr < y->cs)
        return 0;
    if (pa == pb)
        return 1;
    *kids = 1;
    for (uint32_t i = 0; i < s->kids[pa].n && *kids; i++)
        *kids = joint_has_cand(s, s->kids[pa].a[i], pb);
    for (uint32_t i = 0; i < s->kids[pb].n && *kids; i++)
        *kids = joint_has_cand(s, s->kids[pb].a[i], pa);
    return 1;
}

static void swap_answers(joint *s, uint32_t a, uint32_t b)
{
    joint_swap_ret(s, a, b);
    s->pair_of_msg[s->pr[a].ret] = a;
    s->pair_of_msg[s->pr[b].ret] = b;
}

/* the calls of pa and pb exchanged.  PB_OK or PB_ENOMEM */
static int swap_kids(joint *s, uint32_t pa, uint32_t pb, uint32_t *buf)
{
    uint32_t na = s->kids[pa].n, nb = s->kids[pb].n;
    for (uint32_t i = 0; i < na; i++)
        buf[i] = s->kids[pa].a[i];
    for (uint32_t i = 0; i < nb; i++)
        buf[na + i] = s->kids[pb].a[i];
    int rc = PB_OK;
    for (uint32_t i = 0; i < na + nb && rc == PB_OK; i++)
        rc = joint_set_parent(s, buf[i], i < na ? pb : pa);
    return rc;
}

/* refit and score */
static int rescore(joint *s, double *v)
{
    int rc = joint_refit_moved(s);
    return rc == PB_OK ? score(s, v) : rc;
}

int joint_tieorder_run(joint *s)
{
    if (!s->p.order_cross || !s->rord || !s->kids)
        return PB_OK;
    s->p.ocx_on = 1;
    uint32_t n = s->npairs;
    insort *e = malloc(((size_t)n + 1) * sizeof *e);
    uint32_t *buf = malloc(((size_t)n + 1) * sizeof *buf);
    int rc = e && buf ? PB_OK : PB_ENOMEM;
    double cur = 0;
    int have = 0;
    for (uint32_t l = 0; l < s->nlinks && rc == PB_OK; l++) {
        uint32_t m = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            if (s->pr[p].call != NONE && s->pr[p].ret != NONE)
                e[m++] = (insort){s->pr[p].cr, p};
        }
        if (m > 1)
            pb_sort(e, m, sizeof *e, cmp_cr);
        for (uint32_t i = 1; i < m && rc == PB_OK; i++) {
            uint32_t a = e[i - 1].p, b = e[i].p;
            int kids = 0;
            if (!joint_tieorder_crossed(s, a, b))
                continue;
            s->p.ocx[0]++;
            if (!movable(s, a, b, &kids))
                continue;
            if (!kids && !s->p.order_cross_alone)
                continue; /* order_cross_alone=0: whole requests only */
            if (!have) {
                rc = score(s, &cur);
                have = 1;
                if (rc != PB_OK)
                    break;
            }
            uint32_t pa = s->par[a], pb = s->par[b];
            s->p.ocx[1]++;
            /* the other pairing alone, then with the parents' calls exchanged */
            double v1 = -INFINITY, v2 = -INFINITY;
            swap_answers(s, a, b);
            rc = rescore(s, &v1);
            if (rc == PB_OK && kids) {
                rc = swap_kids(s, pa, pb, buf);
                if (rc == PB_OK)
                    rc = rescore(s, &v2);
            }
            if (rc != PB_OK)
                break;
            if (!s->p.order_cross_alone)
                v1 = -INFINITY; /* order_cross_alone=0 */
            double best = v1 > v2 ? v1 : v2;
            if (best > cur + s->p.uncross_min) {
                if (v1 >= v2 && kids) /* the first: the parents' calls back */
                    rc = swap_kids(s, pa, pb, buf);
                if (rc == PB_OK && v1 >= v2 && kids)
                    rc = joint_refit_moved(s);
                s->p.ocx[2]++;
                s->p.ocx[3] += best - cur;
                cur = best;
                continue;
            }
            if (kids) /* undone */
                rc = swap_kids(s, pa, pb, buf);
            swap_answers(s, a, b);
            if (rc == PB_OK)
                rc = joint_refit_moved(s);
        }
    }
    free(e);
    free(buf);
    s->p.ojt_ties = joint_rord_near_ties(s); /* order_jitter (joint_ordjit.c) */
    s->p.ocx_on = 0; /* the search's term again: every pair by the callee's reads */
    if (rc == PB_OK && have)
        rc = joint_rord_fit(s);
    return rc;
}

int joint_tieorder_meta(const joint *s, pb_result *res)
{
    if (!s->p.order_cross)
        return PB_OK;
    return pb_result_meta(res, "order_cross=on crossings=%.0f exchanges_tried=%.0f kept=%.0f "
                          "gain=%.3f alone=%d jitter=%g near_ties=%.0f", s->p.ocx[0], s->p.ocx[1],
                          s->p.ocx[2], s->p.ocx[3], s->p.order_cross_alone, s->p.order_jitter,
                          s->p.ojt_ties);
}
