/*
 * joint_bbseeds.c - bb_serial_warm's window from fewer seeds
 * (bb_serial_seeds; docs/joint/accuracy_w36.md, "A smaller window for
 * bb_serial=7 (h320)"; issue 28).
 *
 * bb_serial_warm=2|3 (joint_bbwin.c) searches loss_serial's term only on
 * the first solution's requests holding a stacked call (a call on a
 * serial link sent while an earlier call of its request is out) or one of
 * its candidate parents.  On OnlineBoutique as a black box a front-end
 * call has every request in flight at the front end as a candidate, so
 * that window holds 33-53 % of the messages and its search costs +33-35 %
 * instructions.  The error the term mends there is a burst pairing: two
 * requests' returns arrive within microseconds, one request takes both
 * next calls (the stack) and its neighbour's chain continues elsewhere.
 * The call belongs to a request that was free to send it: among the
 * stacked call's candidates, one with no call of its own out when the
 * stacked call leaves, and, of those, the one whose latest event before
 * it (its input, or the return of one of its calls) is nearest -- the
 * event the delay densities would have the call answer.
 *
 * The rule (bb_serial_seeds=k > 0): the seeds of a stacked call are its
 * request in the first solution and the requests of its k candidates
 * ranked first by (idle at the call's send, latest event before it); the
 * window is closed under the first solution's requests as before.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

/* candidate c's rank for a call sent at t: idle (no call of c out at t)
 * first, then the latest of its input and its calls' returns before t */
static void bbs_key(const joint *f, uint32_t c, uint32_t self, pb_ns t, int *idle, pb_ns *ev)
{
    const jpair *pc = &f->pr[c];
    pb_ns e = pc->call != JOINT_NONE ? pc->cr : INT64_MIN;
    int busy = 0;
    const kvec *k = &f->kids[c];
    for (uint32_t i = 0; i < k->n; i++) {
        const jpair *o = &f->pr[k->a[i]];
        if (k->a[i] == self || o->call == JOINT_NONE || o->ret == JOINT_NONE)
            continue;
        if (o->cs >= t)
            break; /* kids by call time */
        if (o->rr > t)
            busy = 1;
        else if (o->rr > e)
            e = o->rr;
    }
    *idle = !busy;
    *ev = e;
}

#define BBS_KMAX 8

void joint_bbseeds_near(const joint *f, uint32_t p, const uint32_t *root, unsigned char *seed)
{
    int k = f->p.bb_serial_seeds < BBS_KMAX ? f->p.bb_serial_seeds : BBS_KMAX;
    uint32_t own = f->par[p] != JOINT_NONE ? root[f->par[p]] : JOINT_NONE;
    uint32_t best[BBS_KMAX];
    int bidle[BBS_KMAX];
    pb_ns bev[BBS_KMAX];
    int nb = 0;
    pb_ns t = f->pr[p].cs;
    for (uint32_t j = f->cand_off[p]; j < f->cand_off[p + 1]; j++) {
        uint32_t c = f->cand[j];
        if (root[c] == JOINT_NONE || root[c] == own)
            continue;
        int idle;
        pb_ns ev;
        bbs_key(f, c, p, t, &idle, &ev);
        int at = nb; /* insertion: better = idle, then later event; ties keep list order */
        while (at > 0 && (idle > bidle[at - 1] || (idle == bidle[at - 1] && ev > bev[at - 1])))
            at--;
        if (at >= k)
            continue;
        int last = nb < k ? nb : k - 1;
        for (int i = last; i > at; i--) {
            best[i] = best[i - 1];
            bidle[i] = bidle[i - 1];
            bev[i] = bev[i - 1];
        }
        best[at] = c;
        bidle[at] = idle;
        bev[at] = ev;
        if (nb < k)
            nb++;
    }
    for (int i = 0; i < nb; i++)
        seed[root[best[i]]] = 1;
}

/* the first solution's top-level requests with a call on a serial link
 * (ser) and those holding a stacked call there (st), into f->bbs_rec */
void joint_bbseeds_count(joint *f, const unsigned char *ser, const unsigned char *st,
                         const uint32_t *root, unsigned char *mark)
{
    uint32_t np = f->npairs;
    memset(mark, 0, (size_t)np + 1);
    for (uint32_t q = 0; q < np; q++) {
        if (f->par[q] == JOINT_NONE || !ser[f->pr[q].link] || root[q] == JOINT_NONE)
            continue;
        mark[root[q]] |= (unsigned char)(1 | (st[q] ? 2 : 0));
    }
    size_t req = 0, stk = 0;
    for (uint32_t q = 0; q < np; q++) {
        req += mark[q] != 0;
        stk += (mark[q] & 2) != 0;
    }
    f->bbs_rec[0] = (double)req;
    f->bbs_rec[1] = (double)stk;
}

int joint_bbseeds_after(joint *s, joint *t)
{
    unsigned char *ser = calloc((size_t)s->nlinks + 1, 1);
    unsigned char *st = calloc((size_t)t->npairs + 1, 1);
    int rc = ser && st && joint_lser_serial_links(s, ser) >= 0 ? PB_OK : PB_ENOMEM;
    size_t nout = 0;
    if (rc == PB_OK)
        s->bbs_rec[2] = t->bbs_rec[2] = (double)joint_lser_stacks(t, ser, st, &nout);
    free(ser);
    free(st);
    return rc;
}

/* bb_serial_removed: the term's window solution kept only where it took
 * away at least that share of the first solution's stacks.  Why: on
 * OnlineBoutique 17:00, 03:53 and 06:35 as black boxes the term's window
 * solution leaves 26, 27 and 13 % of the stacks (490 -> 129, 573 -> 154,
 * 325 -> 42) and is 2.6-3.4 points more exact; on the application
 * audit's retry s2 x2 ns it leaves 67 % (216 -> 144), +117 nats under the
 * model without the term and one request less exact.  Retry's stacks are
 * real (a retry sent while the timed-out call is still open): the term
 * cannot take them away, and what its search gains elsewhere is the
 * continuation's climb (h309), not the stacks.  take: the check's choice;
 * returns the choice, 0 where refused (s's record says the solution
 * without the term was chosen) */
int joint_bbseeds_keep(joint *s, joint *t, int take)
{
    double before = s->bbw_rec[4], after = s->bbs_rec[2];
    if (take != 1 || s->p.bb_serial_removed <= 0 || before <= 0 ||
        after <= (1 - s->p.bb_serial_removed) * before)
        return take;
    s->lser_ck = 1;
    s->lser_ck_links = t->lser_ck_links;
    s->lser_ck_ll[0] = t->lser_ck_ll[0];
    s->lser_ck_ll[1] = t->lser_ck_ll[1];
    s->bbs_rec[3] = 1;
    return 0;
}
