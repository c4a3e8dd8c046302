/*
 * joint_latecount.c - joint: how many of a request's calls outlive it
 * (docs/joint/model.md, "Calls that outlive their request", "How many calls
 * outlive their request").
 *
 * A service that passes the late-call test (joint_late.c) may have calls
 * whose return comes after its response: a reactive front end stamped
 * its response before the return it waited for, or the service stopped
 * waiting for the call (a timed-out attempt before a retry, a fire-and-
 * forget call).  The model had no term for that: a call put in a request
 * that had ended before its return scored nothing for it, and the count
 * term counts it like any other call.  On retries after a timeout
 * (experiments/joint_apps_retry.conf) that made the search move the retry
 * of a request whose first attempt outlived it into another request:
 * {auth, late pay, receipt} and {auth, pay, pay, receipt} cost the count
 * term exactly what the truth's {auth, late pay, pay, receipt} and
 * {auth, pay, receipt} cost, and the wrong one fitted the densities it
 * had made (counted against the truth, evaluation only: 21 of the 39
 * requests `late_calls=0` has right and the default wrong at seed 1 got a
 * call of another request that way).
 *
 * The term: per link l whose caller passed the test, the distribution of
 * how many of a request's calls of l outlive it (their return received
 * after its response) given how many calls of l it makes,
 * P(m | c) = (N(c, m) + alpha) / (N(c) + alpha (c + 1)), c and m capped at
 * JOINT_LC_C, learned from the assignment at every refit like the call
 * counts (pseudo-count `alpha`).  It is a conditional distribution, so
 * the count term and it together are a distribution over (c, m): every
 * log-probability it adds is at most 0 and the bounds of joint_bnb.c, which
 * leave it out, stay bounds.  A request whose end is not known (a lost
 * response, or an end the re-pairing may still move) adds nothing, nor
 * does a call whose call or return was lost.
 */
#include "joint_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define C JOINT_LC_C
#define CELLS ((C + 1) * (C + 1))

int joint_lc_setup(joint *s)
{
    free(s->lc_cnt);
    free(s->lc_lp);
    free(s->lc_c);
    s->lc_cnt = s->lc_lp = NULL;
    s->lc_c = NULL;
    s->lc_on = 0;
    if (!s->p.late_count || !s->late_gap)
        return PB_OK;
    size_t n = (size_t)s->nlinks * CELLS + 1;
    uint32_t maxout = 1;
    for (uint32_t a = 0; a < s->nnodes; a++)
        if (s->out_off[a + 1] - s->out_off[a] > maxout)
            maxout = s->out_off[a + 1] - s->out_off[a];
    s->lc_cnt = calloc(n, sizeof *s->lc_cnt);
    s->lc_lp = calloc(n, sizeof *s->lc_lp);
    s->lc_c = calloc(2 * (size_t)maxout, sizeof *s->lc_c);
    if (!s->lc_cnt || !s->lc_lp || !s->lc_c)
        return PB_ENOMEM;
    s->lc_base = s->cnt_off[s->nlinks];
    s->lc_on = 1;
    return PB_OK;
}

void joint_lc_free(joint *s)
{
    free(s->lc_cnt);
    free(s->lc_lp);
    free(s->lc_c);
    s->lc_cnt = s->lc_lp = NULL;
    s->lc_c = NULL;
    s->lc_on = 0;
}

void joint_lc_reset(joint *s, int lp)
{
    if (!s->lc_on)
        return;
    memset(s->lc_cnt, 0, (size_t)s->nlinks * CELLS * sizeof *s->lc_cnt);
    if (lp)
        memset(s->lc_lp, 0, (size_t)s->nlinks * CELLS * sizeof *s->lc_lp);
}

/* the cell of link l for c calls of which m outlive the request */
static inline size_t lc_cell(uint32_t l, uint32_t c, uint32_t m)
{
    c = c > C ? C : c;
    m = m > C ? C : m;
    return (size_t)l * CELLS + (size_t)c * (C + 1) + m;
}

int joint_lc_walk(joint *s, uint32_t q, const uint32_t *k, uint32_t n, int mode, double *sum)
{
    const jpair *qq = &s->pr[q];
    const uint32_t b = qq->callee;
    if (!s->lc_on || s->late_gap[b] < 0 || qq->ret == JOINT_NONE ||
        (s->qend && joint_ret_movable(s, q)))
        return PB_OK;
    const uint32_t no = s->out_off[b + 1] - s->out_off[b];
    uint32_t *c = s->lc_c, *m = s->lc_c + no;
    const pb_ns end = qq->rs;
    for (uint32_t i = 0; i < n; i++) {
        const jpair *x = &s->pr[k[i]];
        if (s->link_src[x->link] != b || x->call == JOINT_NONE || x->ret == JOINT_NONE)
            continue;
        uint32_t j = s->link_local[x->link];
        c[j]++;
        m[j] += x->rr > end;
    }
    double v = 0;
    for (uint32_t j = 0; j < no; j++) {
        if (!c[j])
            continue;
        size_t cell = lc_cell(s->out_links[s->out_off[b] + j], c[j], m[j]);
        if (mode == 0) {
            v += s->lc_lp[cell];
        } else {
            s->lc_cnt[cell] += 1.0;
            if (s->fflog) /* fit_fast: the cell after the count cells */
                joint_ff_log(s, 2, (uint32_t)(s->lc_base + cell), 0, 0);
        }
        c[j] = m[j] = 0;
    }
    if (mode == 0)
        *sum += v;
    return PB_OK;
}

void joint_lc_replay(joint *s, uint32_t a)
{
    s->lc_cnt[a - s->lc_base] += 1.0;
}

void joint_lc_fit(joint *s)
{
    if (!s->lc_on)
        return;
    const double al = s->p.alpha;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        if (s->late_gap[s->link_src[l]] < 0)
            continue;
        for (uint32_t c = 1; c <= C; c++) {
            double N = 0;
            for (uint32_t m = 0; m <= c; m++)
                N += s->lc_cnt[lc_cell(l, c, m)];
            for (uint32_t m = 0; m <= c; m++)
                s->lc_lp[lc_cell(l, c, m)] =
                    log((s->lc_cnt[lc_cell(l, c, m)] + al) / (N + al * (c + 1)));
        }
    }
}

void joint_lc_meta(const joint *s, pb_result *res)
{
    if (!s->lc_on)
        return;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        if (s->late_gap[s->link_src[l]] < 0)
            continue;
        double calls = 0, late = 0;
        char tab[256];
        size_t w = 0;
        tab[0] = 0;
        for (uint32_t c = 1; c <= C; c++) {
            double N = 0;
            for (uint32_t m = 0; m <= c; m++) {
                double x = s->lc_cnt[lc_cell(l, c, m)];
                N += x;
                calls += x * c;
                late += x * m;
            }
            int r = snprintf(tab + w, sizeof tab - w, "%s%u:", c > 1 ? " " : "", c);
            w += r > 0 && (size_t)r < sizeof tab - w ? (size_t)r : 0;
            for (uint32_t m = 0; m <= c; m++) {
                r = snprintf(tab + w, sizeof tab - w, "%s%.3f", m ? "/" : "",
                             exp(s->lc_lp[lc_cell(l, c, m)]));
                w += r > 0 && (size_t)r < sizeof tab - w ? (size_t)r : 0;
            }
        }
        if (calls <= 0)
            continue;
        pb_result_meta(res, "late_count=%s>%s calls=%.0f outlived=%.0f p_m_given_c=%s",
                       pb_strtab_str(s->v.nodes, s->link_src[l]),
                       pb_strtab_str(s->v.nodes, s->link_dst[l]), calls, late, tab);
    }
}
