/*
 * joint_unpalt.c - unpaired=1's second search on a window at any size,
 * with the first search's other free / held solution offered piece by
 * piece (`unp_alt`, default 0 = off; docs/joint/loss_late.md, "The loss
 * rule's cost: the other choice's pieces and a window at any size
 * (h249)").
 *
 * Where the window of the second search holds more than unp_win_max of
 * the messages (OnlineBoutique 03:53 at 2 % loss: 33 seed requests, 54 %
 * of the messages) the whole second search runs, as costly as the first.
 * A window at any size was tried (h222) and lost the pieces far from every
 * changed message that the whole search finds: there the second search
 * acts as a second opinion on the free / held choice (03:53 2 %: the
 * first search keeps free, the second held; the held search alone with
 * unpaired=0 gets 268 intact requests exact, the free 252, the default
 * 262).  The first search already ran both: with unp_alt the solution it
 * did not keep is kept beside the chosen one (pair_order=auto, not
 * paused), and when the loss rule fires the two are compared piece by
 * piece (joint_unpp_take: a piece of the other taken where its held-out
 * LLR exceeds JOINT_UNPP_LLR) and merged (joint_unpm_build) before the
 * second search; the second search then runs on its window whatever the
 * window's size (no whole search), under the merged solution.
 *
 * unp_alt=1: that.  unp_alt=2: besides, each changed message's seed span
 * is its own first-search pair widened by its link's median pair either
 * side, not its request's.  unp_alt=3: unp_alt=2 only where the default's
 * window is over unp_win_max (the whole second search) and unp_alt=2's
 * holds at most unp_alt_max (default 1/3) of the messages
 * (joint_unpa_gate); elsewhere the default's second search.
 * Metadata: unp_alt=on pieces= taken= output=first|other|merged.
 */
#include "joint_int.h"
#include "pb_sort.h"

#include <stdlib.h>
#include <string.h>

/* the records of the first search's choice carried from s to o */
static void carry(joint *o, joint *s)
{
    if (o == s)
        return;
    o->pord_chosen = s->pord_chosen;
    o->pwin = s->pwin;
    for (int i = 0; i < 4; i++) {
        o->pord_ll[i] = s->pord_ll[i];
        o->pick_sum[i] = s->pick_sum[i];
    }
    for (int i = 0; i < 6; i++)
        o->part_sum[i] = s->part_sum[i];
    free(o->pick_stat);
    o->pick_stat = s->pick_stat;
    s->pick_stat = NULL;
    memcpy(o->thrpick, s->thrpick, sizeof o->thrpick);
    memcpy(o->sv_rec, s->sv_rec, sizeof o->sv_rec);
    joint_heldskip_carry(o, s);
    joint_heldlocal_carry(o, s);
    joint_heldwarm_carry(o, s);
    o->ser_declined = s->ser_declined;
    o->ser_free[0] = s->ser_free[0];
    o->ser_free[1] = s->ser_free[1];
    o->pairs_shared = s->pairs_shared;
    joint_unpm_align_carry(o, s);
}

int joint_unpa_first(joint **sp, joint *u, const pb_trace_view *v, pb_error *err, double rec[4])
{
    joint *s = *sp, *mg = NULL;
    int take = 0;
    rec[0] = rec[1] = rec[2] = rec[3] = 0;
    int rc = joint_unpp_take(s, u, &take);
    if (rc == PB_OK && !take)
        rc = joint_unpm_build(&mg, v, s, u, err);
    if (rc != PB_OK) {
        joint_close(u);
        return rc;
    }
    joint *o = mg ? mg : take ? u : s;
    rec[0] = 1;
    rec[1] = (double)s->unpp_n;
    rec[2] = (double)s->unpp_taken;
    rec[3] = mg ? 3 : take ? 2 : 1;
    /* the pieces' record is the second step's to make */
    joint_unpp_free(s);
    joint_unpp_free(u);
    if (mg) {
        joint_unpp_free(mg);
        mg->unpp_on = 0;
        mg->unpm_on = 0;
        mg->unp_rerun = 0;
    }
    s->unpp_on = u->unpp_on = 0;
    carry(o, s);
    if (o != s)
        joint_close(s);
    if (o != u)
        joint_close(u);
    *sp = o;
    return PB_OK;
}

/* unp_alt=2: a changed message's seed span, [ts - w, ts + w] with w its
 * link's median first-search pair (call to return); PB_OK or PB_ENOMEM */
typedef struct ua_d {
    uint32_t l;
    pb_ns d;
} ua_d;

static int ua_cmp(const void *x, const void *y)
{
    const ua_d *a = x, *b = y;
    if (a->l != b->l)
        return a->l < b->l ? -1 : 1;
    return a->d < b->d ? -1 : a->d > b->d;
}

int joint_unpa_link_spans(const joint *f, pb_ns *w)
{
    const pb_msg *m = f->v.msgs;
    for (uint32_t l = 0; l <= f->nlinks; l++)
        w[l] = 0;
    ua_d *d = malloc(((size_t)f->npairs + 1) * sizeof *d);
    if (!d)
        return PB_ENOMEM;
    size_t k = 0;
    for (uint32_t q = 0; q < f->npairs; q++) {
        uint32_t c = f->pr[q].call, r = f->pr[q].ret, l = f->pr[q].link;
        if (c == JOINT_NONE || r == JOINT_NONE || l >= f->nlinks)
            continue;
        d[k++] = (ua_d){l, m[r].ts - m[c].ts};
    }
    pb_sort(d, k, sizeof *d, ua_cmp);
    for (size_t a = 0; a < k;) {
        size_t b = a;
        while (b < k && d[b].l == d[a].l)
            b++;
        w[d[a].l] = d[a + (b - a) / 2].d;
        a = b;
    }
    free(d);
    return PB_OK;
}

/* unp_alt=3: 1 when the default's window holds over unp_win_max of the
 * messages (the whole second search would run) and the cut's window at
 * most unp_alt_max of them (a window near half saves little: the
 * sub-search and the whole trace's set-up with the pairs given cost about
 * a whole search there); 0 else; -1 out of memory */
int joint_unpa_gate(const joint *s, const unsigned char *force, const joint_params *params)
{
    size_t n = s->v.n, w0 = 0, w1 = 0;
    if (joint_unpw_size(s, force, 0, &w0) != PB_OK)
        return -1;
    if (!w0 || (double)w0 <= params->unp_win_max * (double)n)
        return 0;
    if (joint_unpw_size(s, force, 1, &w1) != PB_OK)
        return -1;
    return w1 && (double)w1 <= params->unp_alt_max * (double)n;
}

int joint_unpa_meta(const joint *s, pb_result *res)
{
    const double *r = s->p.unp_alt_rec;
    if (r[0] <= 0)
        return PB_OK;
    return pb_result_meta(res, "unp_alt=%d pieces=%.0f taken=%.0f output=%s", s->p.unp_alt, r[1],
                          r[2], r[3] == 3 ? "merged" : r[3] == 2 ? "other" : "first");
}
