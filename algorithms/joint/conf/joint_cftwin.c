/*
 * joint_cftwin.c - conf_twin: what follows the answers of two twin
 * requests is no surer than the calls that triggered those answers
 * (docs/joint/confidence_late.md, "Twin requests crossed at their answers
 * (h260)").
 *
 * Without call ids the search pairs each answer (the return of a request)
 * with a call.  Two requests of one link that run at once (twins: the same
 * service asked twice, their calls a fraction of a millisecond apart) each
 * answer after their last call returns.  When that last call could be the
 * twin's, the two requests' tails (the last calls with the answers) can
 * cross together: the alternative state swaps the last calls and the two
 * answers at once and scores about as well.  No share looks at it: a call
 * share moves the call alone (the answers then come too early: infeasible),
 * and a pair share (joint_pair_shares) exchanges the answers with the calls
 * below left where they are.  The sibling cap (joint_calib.c) states a row
 * no surer than the call whose return triggered it, but an answer is a
 * return, and the rows the answer triggers in the caller's request keep the
 * answer's pair confidence, which the doubtful call below never touches.
 *
 * The rule (after every other cap): for each request q with a movable
 * answer, c the call whose return is the latest q received before it
 * answered (its answer's trigger); when another request q' of q's link,
 * with a movable answer, is one of c's candidates (a twin that could hold
 * c; then q' is q's twin and q is q''s, for the twin that answers first
 * may be unable to hold the other's last call), every row q's answer triggered in its caller's request (the trigger
 * of joint_conf_triggers) is stated at most conf[c], and the rows below and
 * after those at most theirs, to a fixed point.  q's own rows are left as
 * they are (q's call row is one pair with its answer: lowering it would
 * lower the call, which the crossing does not move).  Confidences only: no
 * assignment changes; with call ids no answer is movable and it does
 * nothing.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* the call whose return is the latest request q received before its
 * answer left, or NONE */
static uint32_t answer_trigger(const joint *s, uint32_t q)
{
    const jpair *qq = &s->pr[q];
    uint32_t c = NONE;
    for (uint32_t i = 0; i < s->kids[q].n; i++) {
        uint32_t x = s->kids[q].a[i];
        if (s->pr[x].ret == NONE || s->pr[x].rr > qq->rs)
            continue;
        if (c == NONE || s->pr[x].rr > s->pr[c].rr || (s->pr[x].rr == s->pr[c].rr && x > c))
            c = x;
    }
    return c;
}

/* mark q and every twin of it: another request of q's link with a movable
 * answer that is one of call c's candidates (it could hold c) */
static void mark_twins(const joint *s, uint32_t c, uint32_t q, unsigned char *tw)
{
    for (uint32_t j = s->cand_off[c]; j < s->cand_off[c + 1]; j++) {
        uint32_t q2 = s->cand[j];
        if (q2 != q && q2 != NONE && s->pr[q2].link == s->pr[q].link &&
            s->pr[q2].ret != NONE && joint_ret_movable(s, q2))
            tw[q] = tw[q2] = 1;
    }
}

int joint_cftw_keep(joint *s, const double *ps)
{
    if (s->p.conf_twin != 2)
        return PB_OK;
    if (!s->cftw_ps)
        s->cftw_ps = malloc(((size_t)s->npairs + 1) * sizeof *s->cftw_ps);
    if (!s->cftw_ps)
        return PB_ENOMEM;
    memcpy(s->cftw_ps, ps, (size_t)s->npairs * sizeof *ps);
    return PB_OK;
}

int joint_cftw_apply(joint *s, double *conf)
{
    s->cftw_rows[0] = s->cftw_rows[1] = 0;
    if (!s->p.conf_twin || !s->npairs)
        return PB_OK;
    uint32_t n = s->npairs, maxk = 1;
    for (uint32_t q = 0; q < n; q++)
        if (s->kids[q].n + 1 > maxk)
            maxk = s->kids[q].n + 1;
    double *cap = malloc(((size_t)n + 1) * sizeof *cap);
    unsigned char *low = calloc((size_t)n + 1, 1);
    uint32_t *trig = malloc(((size_t)n + 1) * sizeof *trig);
    uint32_t *trig2 = malloc(((size_t)n + 1) * sizeof *trig2);
    uint32_t *tmp = malloc((size_t)maxk * sizeof *tmp);
    int rc = cap && low && trig && trig2 && tmp ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK)
        joint_conf_triggers(s, trig, trig2, tmp);
    size_t ncap = 0, nlow = 0;
    /* the twins (both of a pair: the later-answering one may be the only
     * one that could hold the other's last call) */
    for (uint32_t q = 0; rc == PB_OK && q < n; q++) {
        cap[q] = 2.0;
        if (s->par[q] == NONE || s->pr[q].ret == NONE || !joint_ret_movable(s, q))
            continue;
        uint32_t c = answer_trigger(s, q);
        if (c != NONE)
            mark_twins(s, c, q, low);
    }
    /* cap[q]: the confidence of a twin's answer trigger, else 2 (none) */
    for (uint32_t q = 0; rc == PB_OK && q < n; q++) {
        if (!low[q])
            continue;
        low[q] = 0;
        uint32_t c = answer_trigger(s, q);
        if (c == NONE)
            continue;
        if (s->p.conf_twin == 2) {
            /* 2: q's confidence times the least pair share on the way to
             * the answer (c, the return that triggered c, ...): the
             * exchanges of returns with a twin's, which carry the tails */
            if (!s->cftw_ps)
                continue;
            double m = 1;
            for (uint32_t x = c, k = 0; x != NONE && k <= s->kids[q].n; x = trig[x], k++)
                if (s->cftw_ps[x] < m)
                    m = s->cftw_ps[x];
            if (!(m < 1))
                continue;
            cap[q] = conf[q] * m;
        } else {
            cap[q] = conf[c];
        }
        ncap++;
    }
    /* to a fixed point: the rows an answer triggered, and the rows below
     * and after a lowered row (values only fall) */
    for (int changed = rc == PB_OK; changed;) {
        changed = 0;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t q = s->par[j];
            if (q == NONE || (s->conf_exempt && s->conf_exempt[j]))
                continue;
            double c = conf[j];
            if (trig[j] != NONE && cap[trig[j]] < c)
                c = cap[trig[j]];
            if (low[q] && conf[q] < c)
                c = conf[q];
            if (trig[j] != NONE && low[trig[j]] && conf[trig[j]] < c)
                c = conf[trig[j]];
            if (c < conf[j]) {
                if (!low[j])
                    nlow++;
                low[j] = 1;
                conf[j] = c;
                changed = 1;
            }
        }
    }
    s->cftw_rows[0] = ncap;
    s->cftw_rows[1] = nlow;
    free(cap);
    free(low);
    free(trig);
    free(trig2);
    free(tmp);
    return rc;
}

int joint_cftw_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_twin)
        return PB_OK;
    return pb_result_meta(res, "conf_twin=%d answers_with_twin=%zu rows_lowered=%zu (the rows "
                          "an answer triggered no surer than its own trigger where a twin "
                          "request could hold that)",
                          s->p.conf_twin, s->cftw_rows[0], s->cftw_rows[1]);
}
