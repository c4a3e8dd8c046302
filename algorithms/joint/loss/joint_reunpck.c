/*
 * joint_reunpck.c - which calls keep no return: reunp used where a copy of
 * the trace shows that it helps (`-s reunp=2`; docs/joint/loss.md, "Which calls
 * keep no return: decided by the re-pairing", "... checked on a copy").
 *
 * reunp (joint_reunp.c) weighs, in the re-pairing, each call the
 * alignment left without a return against its neighbours by the greedy's
 * summed response cost.  It keeps the alignment's count of calls without
 * a return.  Where that count is far too low (a front end answering far
 * out of arrival order with many requests in flight: the alignment leaves
 * 20 of the 44 truly unpaired messages of client>frontend unpaired, and
 * only 1 of its 20 choices is truly unpaired), reunp can only trade one
 * wrong call for another, and the requests' calls it scores with are
 * themselves in doubt: the exchanges it keeps are likelier under the model
 * (in sample and cross-fitted alike) and cost intact requests.  The
 * likelihood cannot tell; a copy with a known truth can.
 *
 * With reunp=2 the search runs as with reunp=0.  When its solution has a
 * half call reunp would weigh (a free link without call ids, not kept in
 * arrival order, whose callee calls on), a copy of the trace is made from
 * the solution (joint_selfcal_copy: the solution's trees as the truth, its
 * real arrivals and network delays, its lost halves where the solution
 * has them, delays drawn from the solution's own; the whole trace up to
 * the self-calibration's cap, seed conf_seed + JOINT_REUNP_SEED).  There
 * the alignment's count of lost messages would be right by construction,
 * which is what fails on the real trace, so the copy then loses messages
 * afresh: each call and return with probability q, the share of the
 * solution's calls and returns left without a partner (seeded).  The copy
 * is inferred twice, with reunp=0 and reunp=1 (the search kind the real
 * trace kept).  Over the solution's top-level requests, b come out exact
 * (every pair with its parent and its own return) only with reunp and c
 * only without; reunp is used when it moved a call on the copy and b > c
 * by the one-sided sign test at JOINT_REUNP_ALPHA (5 %).  Requests, not
 * pairs, are the units: two searches of one copy diverge over hundreds of
 * pairs that move together, and a test over pairs took reunp where it
 * cost intact requests.  Then the same search (the same kind, parallel
 * flags and forced messages) runs once more on the real trace with
 * reunp=1 and its solution is kept.  Metadata: reunp_check=copy
 * moved_in_copy=N right_only_with=B right_only_without=C
 * chosen=with|without (B, C: requests).  Cost under loss: two searches on
 * the copy, and a third on the real trace where reunp is chosen.  Without
 * loss no link has a half call: nothing runs.
 */
#include "joint_int.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#define NONE JOINT_NONE

int joint_reunp_wanted(const joint *s)
{
    if (!s->halves_call || !joint_any_free(s))
        return 0;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t b = s->link_dst[l];
        if (s->out_off[b + 1] == s->out_off[b] || (s->fifo_link && s->fifo_link[l]))
            continue;
        uint32_t half = 0, fr = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            const jpair *x = &s->pr[p];
            half += x->ret == NONE && x->call != NONE &&
                    (!s->p.callids || s->v.msgs[x->call].callid == PB_ID_NONE);
            fr += s->free_ret[p];
        }
        if (half && fr >= 2)
            return 1;
    }
    return 0;
}

/* a's records of the choices made before the check go with b */
static void rk_adopt(joint *b, joint *a)
{
    b->pord_chosen = a->pord_chosen;
    b->pwin = a->pwin;
    for (int i = 0; i < 4; i++) {
        b->pord_ll[i] = a->pord_ll[i];
        b->pick_sum[i] = a->pick_sum[i];
        b->part_sum[i] = a->part_sum[i];
    }
    b->part_sum[4] = a->part_sum[4]; /* busy_partial's requests */
    b->part_sum[5] = a->part_sum[5];
    free(b->pick_stat);
    b->pick_stat = a->pick_stat;
    a->pick_stat = NULL;
    b->ser_state = a->ser_state;
    b->ser_flags = a->ser_flags;
    b->ser_shown = a->ser_shown;
    b->ser_ll[0] = a->ser_ll[0];
    b->ser_ll[1] = a->ser_ll[1];
    b->ser_bb = a->ser_bb;
    b->ser_free[0] = a->ser_free[0];
    b->ser_free[1] = a->ser_free[1];
    b->ser_free_ll = a->ser_free_ll;
    b->ser_declined = a->ser_declined;
    b->ser_end = a->ser_end;
    b->unp_rec = a->unp_rec;
    b->nunp_rec = a->nunp_rec;
    b->unp_changed = a->unp_changed;
    b->unp_rerun = a->unp_rerun;
    a->unp_rec = NULL;
    a->nunp_rec = 0;
}

int joint_copy_exact(joint *s, const pb_trace_view *v2, const joint_params *p2,
                     unsigned char *ok, size_t *moved, size_t *unp_changed)
{
    joint *s2 = NULL;
    pb_error err;
    int rc = joint_init_search(&s2, v2, p2, &err, NULL); /* no check of its own */
    if (rc != PB_OK)
        return PB_ENOMEM; /* cannot fail on a trace it made; say so as memory */
    *moved = s2->reunp_moved;
    *unp_changed = s2->unp_changed;
    for (uint32_t q = 0; q < s->npairs; q++)
        ok[q] = 0;
    for (uint32_t p = 0; p < s2->npairs; p++) {
        const jpair *a = &s2->pr[p];
        uint64_t ic = a->call != NONE ? s2->v.msgs[a->call].id : PB_ID_NONE;
        uint64_t ir = a->ret != NONE ? s2->v.msgs[a->ret].id : PB_ID_NONE;
        uint32_t i = (uint32_t)(((ic != PB_ID_NONE ? ic : ir) - 1) / 2);
        if (i >= s->npairs)
            continue;
        int r = ic == PB_ID_NONE || ir == PB_ID_NONE || (ic - 1) / 2 == (ir - 1) / 2;
        uint32_t q2 = s2->par[p];
        if (q2 == NONE) {
            r = r && s->par[i] == NONE;
        } else {
            const jpair *b = &s2->pr[q2];
            uint64_t jc = b->call != NONE ? s2->v.msgs[b->call].id : s2->v.msgs[b->ret].id;
            r = r && s->par[i] == (uint32_t)((jc - 1) / 2);
        }
        uint32_t root = i;
        for (uint32_t k = 0; s->par[root] != NONE && k < s->npairs; k++)
            root = s->par[root];
        if (!r)
            ok[root] = 2;
        else if (!ok[root])
            ok[root] = 1;
    }
    joint_close(s2);
    return PB_OK;
}

int joint_copy_drop(const joint *s, pb_trace *t, unsigned long seed)
{
    size_t all = s->calls + s->returns;
    double q = all ? (double)(s->halves_call + s->halves_ret) / (double)all : 0;
    if (q <= 0)
        return PB_OK;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return PB_ENOMEM;
    gsl_rng_set(r, seed);
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++) {
        int cr = t->msgs[i].type == PB_TYPE_CALL || t->msgs[i].type == PB_TYPE_RETURN;
        if (cr && gsl_rng_uniform(r) < q)
            continue;
        t->msgs[k] = t->msgs[i];
        if (t->truth)
            t->truth[k] = t->truth[i];
        k++;
    }
    t->n = k;
    gsl_rng_free(r);
    return PB_OK;
}

int joint_copy_ab(joint *s, unsigned long seed, void (*variant)(joint_params *, int),
                  size_t *moved, size_t *changed, size_t cnt[2])
{
    pb_trace *t = NULL;
    /* the whole trace (up to the self-calibration's cap): both checks act
     * on the few unpaired messages only, a window would hold too few */
    double share = s->p.conf_sim_share;
    s->p.conf_sim_share = 1;
    int rc = joint_selfcal_copy(s, (uint32_t)seed, &t);
    s->p.conf_sim_share = share;
    /* the copy's loss where the solution has its halves only: there the
     * alignment's count of them is right by construction, which is what
     * goes wrong on a real out-of-order link (the count is too low).  So
     * the copy loses messages afresh, each call and return at the rate the
     * solution shows (its half pairs' messages over all): the alignment
     * then meets loss it must count as on the real trace */
    if (rc == PB_OK)
        rc = joint_copy_drop(s, t, seed + 1);
    unsigned char *ok0 = malloc((size_t)s->npairs + 1), *ok1 = malloc((size_t)s->npairs + 1);
    size_t m0 = 0, ch0 = 0;
    if (rc == PB_OK && (!ok0 || !ok1))
        rc = PB_ENOMEM;
    if (rc == PB_OK) {
        pb_trace_view v2 = pb_trace_view_of(t);
        joint_params p2;
        joint_copy_params(s, &p2);
        variant(&p2, 0);
        rc = joint_copy_exact(s, &v2, &p2, ok0, &m0, &ch0);
        variant(&p2, 1);
        if (rc == PB_OK)
            rc = joint_copy_exact(s, &v2, &p2, ok1, moved, changed);
    }
    pb_trace_close(t);
    if (rc == PB_OK) {
        /* the same copy, the same requests */
        cnt[0] = cnt[1] = 0;
        for (uint32_t q = 0; q < s->npairs; q++) {
            cnt[0] += ok1[q] == 1 && ok0[q] == 2;
            cnt[1] += ok0[q] == 1 && ok1[q] == 2;
        }
    }
    free(ok0);
    free(ok1);
    return rc;
}

static void reunp_variant(joint_params *p, int v) { p->reunp = v; }

int joint_reunp_copytest(joint *s, int *use)
{
    *use = 0;
    size_t m1 = 0, ch = 0, cnt[2] = {0, 0};
    int rc = joint_copy_ab(s, (unsigned long)s->p.conf_seed + JOINT_REUNP_SEED, reunp_variant,
                           &m1, &ch, cnt);
    if (rc == PB_OK) {
        s->reunp_ck_moved = m1;
        s->reunp_ck_cnt[0] = cnt[0];
        s->reunp_ck_cnt[1] = cnt[1];
        *use = m1 > 0 && joint_reunp_signtest(cnt[0], cnt[1]);
        s->reunp_ck = *use ? 2 : 1;
    }
    return rc;
}

int joint_reunp_signtest(size_t b, size_t c)
{
    /* one-sided sign test: P(X >= b) for X ~ Bin(b + c, 1/2) below
     * JOINT_REUNP_ALPHA */
    size_t n = b + c;
    if (b <= c)
        return 0;
    double lp = 0, tail = 0;
    /* log C(n, k) 2^-n summed for k = b..n */
    for (size_t k = b; k <= n; k++) {
        lp = lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) -
             (double)n * log(2.0);
        tail += exp(lp);
    }
    return tail < JOINT_REUNP_ALPHA;
}

void joint_reunp_adopt(joint *b, joint *a)
{
    rk_adopt(b, a);
    b->reunp_ck = a->reunp_ck;
    b->reunp_ck_moved = a->reunp_ck_moved;
    b->reunp_ck_cnt[0] = a->reunp_ck_cnt[0];
    b->reunp_ck_cnt[1] = a->reunp_ck_cnt[1];
}

int joint_reunp_meta(const joint *s, pb_result *res)
{
    if (!s->reunp_ck)
        return PB_OK;
    return pb_result_meta(res,
                          "reunp_check=copy moved_in_copy=%zu right_only_with=%zu "
                          "right_only_without=%zu chosen=%s",
                          s->reunp_ck_moved, s->reunp_ck_cnt[0], s->reunp_ck_cnt[1],
                          s->reunp_ck == 2 ? "with" : "without");
}
