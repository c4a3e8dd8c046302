/*
 * joint_heldwarm.c - joint without call ids: the held search started from
 * the free search's solution (`held_warm`; docs/joint/speed_late.md, "The
 * held search from the free solution (h219)").
 *
 * With pair_order=auto init_choose (joint.c) runs a free search, then one
 * holding the order of answers and calls (the held search), and keeps the
 * likelier of the two (each under its own refit) or the one the busy test
 * picks.  Each large search starts from the first-come assignment and the
 * in-order alignment of calls and returns, and runs its re-pairing rounds
 * and its swap rounds (about seven solves).  On OnlineBoutique as a black
 * box the two searches end close to each other: the held one differs from
 * the free one in the pairs whose order its order terms decide otherwise
 * and the requests around them.
 *
 * The rule: the held search is set up on the free search's pairs (given
 * to the set-up as unp_pieces' merge gives them, joint_find_pairs; they
 * stay free to be re-paired) and, after the first-come start, every call
 * whose free parent is one of its candidates is given that parent; then
 * the held search runs as always from there (its own model, its own
 * re-pairing rounds -- held_repair of them -- and swap rounds --
 * held_swaps).  Not exact: the search is a local one, and it ends
 * where its start leads it.  Not run (the whole held search runs) with
 * forced messages.  Metadata: held_warm=warm pairs_given= parents_given=
 * parents_set= repair= swap_rounds=.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

/* the first message of pair q of o: its call, else its return */
static uint32_t hw_first(const joint *o, uint32_t q)
{
    return o->pr[q].call != JOINT_NONE ? o->pr[q].call : o->pr[q].ret;
}

int joint_heldwarm_start(const joint *a, size_t n, uint32_t **mate_out, uint32_t **gpar_out,
                         size_t *np_out, size_t *ng_out, pb_error *err)
{
    *mate_out = *gpar_out = NULL;
    uint32_t *mate = malloc((n + 1) * sizeof *mate), *gpar = malloc((n + 1) * sizeof *gpar);
    if (!mate || !gpar) {
        free(mate);
        free(gpar);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        mate[i] = JOINT_NONE;
        gpar[i] = JOINT_UNPM_SKIP;
    }
    size_t np = 0, ng = 0;
    for (uint32_t q = 0; q < a->npairs; q++) {
        uint32_t c = a->pr[q].call, r = a->pr[q].ret, m = hw_first(a, q);
        if (m == JOINT_NONE)
            continue;
        if (c != JOINT_NONE && r != JOINT_NONE) {
            mate[c] = r;
            mate[r] = c;
            np++;
        }
        gpar[m] = a->par[q] == JOINT_NONE ? JOINT_NONE : hw_first(a, a->par[q]);
        ng += gpar[m] != JOINT_NONE;
    }
    *mate_out = mate;
    *gpar_out = gpar;
    *np_out = np;
    *ng_out = ng;
    return PB_OK;
}

int joint_heldwarm_run(joint **out, joint *a, const pb_trace_view *v, const joint_params *ph,
                       pb_error *err, const unsigned char *force, joint_selshare *share)
{
    *out = NULL;
    a->hwarm[0] = 0;
    if (a->p.held_warm <= 0)
        return PB_OK;
    a->hwarm[0] = 2;
    if (force) {
        a->hwarm[4] = 1; /* reason: forced messages */
        return PB_OK;
    }
    uint32_t *mate, *gpar;
    size_t np, ng;
    int rc0 = joint_heldwarm_start(a, v->n, &mate, &gpar, &np, &ng, err);
    if (rc0 != PB_OK)
        return rc0;
    joint_params pw = *ph;
    joint_heldwarm_rounds(&pw, ph);
    joint *b = NULL;
    int rc = joint_search_warm(&b, v, &pw, err, share, mate, gpar);
    free(mate);
    free(gpar);
    if (rc != PB_OK)
        return rc;
    joint_heldwarm_rounds_back(b, ph);
    a->hwarm[0] = 1;
    a->hwarm[1] = (double)np;
    a->hwarm[2] = (double)ng;
    a->hwarm[3] = b->hwarm[3];
    *out = b;
    return PB_OK;
}

void joint_heldwarm_rounds(joint_params *pw, const joint_params *p)
{
    if (p->held_repair >= 0)
        pw->repair = p->held_repair;
    if (p->held_swaps >= 0)
        pw->swap_rounds = p->held_swaps;
}

void joint_heldwarm_rounds_back(joint *b, const joint_params *p)
{
    b->p.repair = p->repair;
    b->p.swap_rounds = p->swap_rounds;
}

/* after the start (joint.c's set-up): every call whose given parent is a
 * candidate of it takes that parent */
int joint_heldwarm_apply(joint *s)
{
    const uint32_t *g = s->hwarm_par;
    size_t set = 0;
    int rc = PB_OK;
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++) {
        uint32_t c = s->pr[p].call, r = s->pr[p].ret;
        uint32_t m = c != JOINT_NONE ? c : r;
        if (m == JOINT_NONE || g[m] == JOINT_UNPM_SKIP || g[m] == JOINT_NONE)
            continue;
        uint32_t q = s->pair_of_msg[g[m]];
        if (q == JOINT_NONE || q == p)
            continue;
        int cand = 0;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1] && !cand; j++)
            cand = s->cand[j] == q;
        if (!cand)
            continue;
        if (s->par[p] != q)
            rc = joint_set_parent(s, p, q);
        set++;
    }
    s->hwarm[3] = (double)set;
    return rc;
}

void joint_heldwarm_carry(joint *to, const joint *from)
{
    if (to == from)
        return;
    for (int i = 0; i < 5; i++)
        to->hwarm[i] = from->hwarm[i];
}

int joint_heldwarm_meta(const joint *s, pb_result *res)
{
    if (!s->hwarm[0])
        return PB_OK;
    if (s->hwarm[0] == 1)
        return pb_result_meta(res, "held_warm=warm pairs_given=%.0f parents_given=%.0f "
                                   "parents_set=%.0f repair=%d swap_rounds=%d",
                              s->hwarm[1], s->hwarm[2], s->hwarm[3],
                              s->p.held_repair >= 0 ? s->p.held_repair : s->p.repair,
                              s->p.held_swaps >= 0 ? s->p.held_swaps
                                                        : s->p.swap_rounds);
    return pb_result_meta(res, "held_warm=whole reason=%s",
                          s->hwarm[4] == 1 ? "forced_messages" : "not_run");
}
