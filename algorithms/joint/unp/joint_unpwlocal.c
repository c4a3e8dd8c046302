/*
 * joint_unpwlocal.c - joint without call ids, under loss: unp_wboth's two
 * warm second searches visit only the requests the changed links touch
 * (`unp_wlocal`, default 0 = off; docs/joint/loss_w36.md, "The loss rule's
 * cost: the warm second searches local (h315)").
 *
 * h311's unp_wboth starts the whole second search's free and held
 * searches from the first search's free and held solutions; its rounds
 * cost as from scratch, for each re-pairing round re-assigns every call
 * (the greedy rounds) and re-splits every pair of requests sharing a
 * candidate call, however near the start already is.  Here a request is
 * open when it lies on a link the loss rule changed (a link with a message
 * the least-cost pairing leaves unpaired, where unp_wboth's start re-pairs
 * first in, first out) or is a candidate parent of such a request.  The
 * local search then visits only pairs of requests one of which is open,
 * and a kept re-split opens both (so a change spreads as it spreads);
 * every other pair keeps what the first search found for it.  With
 * unp_wlocal=2 the greedy rounds also move only calls that are open or
 * have an open candidate parent.  unp_wlocal=3 (4): as 1 (2), but only
 * a request holding a forced message or a message the warm start paired
 * otherwise than the first search is changed, and it opens only its
 * present parent, not every candidate parent.  Not exact: a pair of closed requests
 * the refitted model would now split otherwise is left as it was.
 * Metadata: unp_wlocal mode= open_start= open_end= of= skipped_pairs=
 * skipped_calls=.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

/* per message 1 on a link of f with a changed (forced) message, as
 * joint_unpwarm_start tells a changed link; unp_wlocal 3-4: only the
 * messages forced or whose pair the warm start changed (its first in,
 * first out re-pairing of the changed links against f's pairs); the mode
 * comes in chg[f->v.n] (the byte after the messages) */
int joint_uwl_changed(const joint *f, const unsigned char *force, unsigned char *chg)
{
    const int mode = chg[f->v.n];
    memset(chg, 0, f->v.n + 1);
    if (mode >= 3) {
        size_t n = f->v.n;
        uint32_t *mate = malloc((n + 1) * sizeof *mate), *gpar = malloc((n + 1) * sizeof *gpar);
        int rc = mate && gpar ? joint_unpwarm_start(f, force, mate, gpar) : PB_ENOMEM;
        if (rc == PB_OK) {
            for (size_t i = 0; i < n; i++)
                chg[i] = force[i] == 1; /* forced unpaired (2: its window) */
            for (uint32_t p = 0; p < f->npairs; p++) {
                const jpair *x = &f->pr[p];
                uint32_t c = x->call, r = x->ret;
                if (c != JOINT_NONE && (r == JOINT_NONE ? mate[c] != JOINT_NONE : mate[c] != r))
                    chg[c] = 1;
                if (r != JOINT_NONE && (c == JOINT_NONE ? mate[r] != JOINT_NONE : mate[r] != c))
                    chg[r] = 1;
                if (c != JOINT_NONE && r != JOINT_NONE && (chg[c] || chg[r]))
                    chg[c] = chg[r] = 1;
            }
        }
        free(mate);
        free(gpar);
        return rc;
    }
    for (uint32_t l = 0; l < f->nlinks; l++) {
        int forced = joint_unp_link_forced(f, force, l);
        if (!forced)
            continue;
        for (uint32_t k = f->bylink_off[l]; k < f->bylink_off[l + 1]; k++) {
            const jpair *x = &f->pr[f->bylink[k]];
            if (x->call != JOINT_NONE)
                chg[x->call] = 1;
            if (x->ret != JOINT_NONE)
                chg[x->ret] = 1;
        }
    }
    return PB_OK;
}

/* the open requests of a warm search set up on the changed messages */
int joint_uwl_setup(joint *s)
{
    const unsigned char *chg = s->p.uwl_chg;
    if (!chg || s->p.unp_wlocal <= 0)
        return PB_OK;
    free(s->uwl_open);
    s->uwl_open = calloc((size_t)s->npairs + 1, 1);
    if (!s->uwl_open)
        return PB_ENOMEM;
    for (uint32_t p = 0; p < s->npairs; p++) {
        const jpair *x = &s->pr[p];
        if (!((x->call != JOINT_NONE && chg[x->call]) || (x->ret != JOINT_NONE && chg[x->ret])))
            continue;
        s->uwl_open[p] = 1;
        if (s->p.unp_wlocal >= 3) { /* narrow: its present parent only */
            if (s->par[p] != JOINT_NONE && s->par[p] < s->npairs)
                s->uwl_open[s->par[p]] = 1;
            continue;
        }
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
            s->uwl_open[s->cand[j]] = 1;
        if (s->par[p] != JOINT_NONE && s->par[p] < s->npairs)
            s->uwl_open[s->par[p]] = 1;
    }
    size_t no = 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        no += s->uwl_open[p];
    s->uwl_rec[0] = s->p.unp_wlocal;
    s->uwl_rec[1] = (double)no;
    s->uwl_rec[3] = s->npairs;
    return PB_OK;
}

int joint_uwl_skip_pair(joint *s, uint32_t q1, uint32_t q2)
{
    if (s->uwl_open[q1] || s->uwl_open[q2])
        return 0;
    s->uwl_rec[4]++;
    return 1;
}

void joint_uwl_opened(joint *s, uint32_t q1, uint32_t q2)
{
    if (!s->uwl_open)
        return;
    s->uwl_open[q1] = s->uwl_open[q2] = 1;
}

int joint_uwl_skip_call(joint *s, uint32_t p)
{
    if ((s->p.unp_wlocal != 2 && s->p.unp_wlocal != 4) || s->uwl_open[p])
        return 0;
    for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
        if (s->uwl_open[s->cand[j]])
            return 0;
    s->uwl_rec[5]++;
    return 1;
}

/* after the search: the counts kept, the marks freed */
void joint_uwl_done(joint *s)
{
    if (!s->uwl_open)
        return;
    size_t no = 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        no += s->uwl_open[p];
    s->uwl_rec[2] = (double)no;
    free(s->uwl_open);
    s->uwl_open = NULL;
    s->p.uwl_chg = NULL;
}

int joint_uwl_meta(const joint *s, pb_result *res)
{
    if (s->uwl_rec[0] == 0)
        return PB_OK;
    return pb_result_meta(res,
                          "unp_wlocal mode=%d open_start=%.0f open_end=%.0f of=%.0f "
                          "skipped_pairs=%.0f skipped_calls=%.0f",
                          (int)s->uwl_rec[0], s->uwl_rec[1], s->uwl_rec[2], s->uwl_rec[3],
                          s->uwl_rec[4], s->uwl_rec[5]);
}
