/*
 * joint_unpfreeze.c - unpaired=1's whole second search with the requests
 * outside a window frozen (`unp_freeze`, off; docs/joint/loss_w34.md,
 * "The loss rule's cost: the second search with the outside frozen
 * (h286)").
 *
 * Where unp_win's window (joint_unpwin.c) holds more than unp_win_max of
 * the messages the whole second search runs: both of its searches (free
 * and held) on the whole trace with the forced messages, most of the
 * rule's cost.  h278 (unp_where) found that what it changes outside the
 * window is worth little, and that a window searched as a trace of its
 * own loses inside it (its model fitted on the window alone, its own
 * free / held choice).  Here the second search runs on the whole trace,
 * but only the window may move: every request of the first search wholly
 * outside the window is frozen, its pairs given (the pairing aligns only
 * the rest, as conf_copy_warm_pairs' partial pairs), each of its calls'
 * parent its only candidate (a root: none), its returns not exchanged nor
 * re-paired (not movable).  The model is fitted on every message and the
 * free / held choice is made on the whole trace; the rounds' work shrinks
 * with the calls that still have a choice.  A message of the window may
 * still join a frozen request (its candidates are not cut).
 *
 * unp_freeze=1: the window by candidate requests (unp_win=2's); =2: each
 * changed message's first-search pair widened by its link's median pair
 * (unp_alt=2's), closed under the first search's requests.  After the
 * search the cut is undone (returns movable again, the candidates made
 * afresh) so the rest of the run sees an ordinary solution.  Metadata:
 * unp_win=frozen seeds= window_msgs= of_msgs= frozen_pairs= moved=
 * (moved: frozen pairs whose parent or pair differs at the end; 0 when
 * the cut held).
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct joint_unpf {
    const pb_msg *msgs;
    size_t n;
    const unsigned char *in; /* per message 1: in the window (may move) */
    uint32_t *mate;          /* the frozen full pairs' other message, else JOINT_NONE */
    uint32_t *gpar;          /* per first message of a frozen pair: its parent's first
                                message, JOINT_NONE (a root); else JOINT_UNPM_SKIP */
    unsigned char *half;     /* per message 1: a frozen half pair's message */
} joint_unpf;

static uint32_t first_msg(const joint *o, uint32_t q)
{
    return o->pr[q].call != JOINT_NONE ? o->pr[q].call : o->pr[q].ret;
}

void joint_unpf_setup(joint *s)
{
    const joint_unpf *z = s->p.unp_frz;
    if (!z || z->msgs != s->v.msgs || z->n != s->v.n || s->unpm_mate)
        return; /* another trace (a window or a copy of it): nothing frozen */
    s->unpf = z;
    s->unpm_mate = z->mate;
    s->unpm_partial = 1;
}

static int unpf_mark(joint *s)
{
    const joint_unpf *z = s->unpf;
    uint32_t n = s->npairs;
    s->unpf_fz = calloc((size_t)n + 1, 1);
    if (!s->unpf_fz)
        return PB_ENOMEM;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t c = s->pr[p].call, r = s->pr[p].ret;
        int out = (c == JOINT_NONE || !z->in[c]) && (r == JOINT_NONE || !z->in[r]);
        if (!out || (c == JOINT_NONE && r == JOINT_NONE))
            continue;
        int ok = c != JOINT_NONE && r != JOINT_NONE ? z->mate[c] == r
                                                    : z->half[c != JOINT_NONE ? c : r];
        s->unpf_fz[p] = (unsigned char)ok;
        s->unpf_rec[ok ? 0 : 1]++;
    }
    return PB_OK;
}

int joint_unpf_cands(joint *s)
{
    const joint_unpf *z = s->unpf;
    if (!z)
        return PB_OK;
    int first = !s->unpf_fz;
    if (first && unpf_mark(s) != PB_OK)
        return PB_ENOMEM;
    uint32_t n = s->npairs, off = 0;
    s->ambiguous = s->nested = 0;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t a = s->cand_off[p], b = s->cand_off[p + 1];
        s->cand_off[p] = off;
        uint32_t g = s->unpf_fz[p] ? z->gpar[first_msg(s, p)] : JOINT_UNPM_SKIP;
        uint32_t q = g == JOINT_UNPM_SKIP || g == JOINT_NONE ? JOINT_NONE : s->pair_of_msg[g];
        int hit = 0;
        if (q != JOINT_NONE)
            for (uint32_t j = a; j < b && !hit; j++)
                hit = s->cand[j] == q;
        if (g == JOINT_NONE) {
            /* a root of the first search: no candidate */
        } else if (hit) {
            s->cand[off++] = q;
        } else if (s->p.unp_freeze_close && g == JOINT_UNPM_SKIP) {
            /* unp_freeze_close: a window's call takes parents in the window only */
            for (uint32_t j = a; j < b; j++) {
                uint32_t x = first_msg(s, s->cand[j]);
                if (x == JOINT_NONE || z->in[x] || !s->unpf_fz[s->cand[j]])
                    s->cand[off++] = s->cand[j];
            }
        } else {
            if (g != JOINT_UNPM_SKIP && first)
                s->unpf_rec[2]++; /* the given parent is no candidate: left free */
            for (uint32_t j = a; j < b; j++)
                s->cand[off++] = s->cand[j];
        }
        if (s->unpf_fz[p] && !s->p.unp_freeze_model)
            s->free_ret[p] = 0; /* unp_freeze_model=1: free for the model, not moved
                                   (joint_ret_movable) */
        s->ambiguous += off - s->cand_off[p] > 1;
        s->nested += off > s->cand_off[p];
    }
    s->cand_off[n] = off;
    s->ncand = off;
    return PB_OK;
}

/* the cut undone on the solution: returns movable as the pairing made
 * them, the candidates made afresh (a parent kept where still one) */
static int unpf_release(joint *s, size_t *moved, const joint_unpf *z)
{
    *moved = 0;
    if (!s->unpf_fz)
        return PB_OK;
    for (uint32_t p = 0; p < s->npairs; p++) {
        if (!s->unpf_fz[p])
            continue;
        uint32_t c = s->pr[p].call, r = s->pr[p].ret, m = first_msg(s, p);
        uint32_t g = m == JOINT_NONE ? JOINT_UNPM_SKIP : z->gpar[m];
        uint32_t want = g == JOINT_NONE || g == JOINT_UNPM_SKIP ? JOINT_NONE : s->pair_of_msg[g];
        int pm = c != JOINT_NONE && r != JOINT_NONE ? z->mate[c] == r : z->half[m];
        *moved += !pm || (g != JOINT_UNPM_SKIP && s->par[p] != want);
        s->free_ret[p] = c != JOINT_NONE && r != JOINT_NONE &&
                         (!s->p.callids || s->v.msgs[c].callid == PB_ID_NONE ||
                          s->v.msgs[r].callid == PB_ID_NONE);
    }
    s->unpf = NULL;
    s->p.unp_frz = NULL;
    free(s->unpf_fz);
    s->unpf_fz = NULL;
    return joint_recandidate(s);
}

int joint_unpf_second(joint **out, const pb_trace_view *v, const joint_params *params,
                      joint *f, const unsigned char *force, const unsigned char *in,
                      size_t nseed, pb_error *err)
{
    *out = NULL;
    size_t n = v->n, nwin = 0;
    joint_unpf z = {v->msgs, n, in, NULL, NULL, NULL};
    z.mate = malloc((n + 1) * sizeof *z.mate);
    z.gpar = malloc((n + 1) * sizeof *z.gpar);
    z.half = calloc(n + 1, 1);
    if (!z.mate || !z.gpar || !z.half) {
        free(z.mate);
        free(z.gpar);
        free(z.half);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        z.mate[i] = JOINT_NONE;
        z.gpar[i] = JOINT_UNPM_SKIP;
        nwin += in[i] != 0;
    }
    for (uint32_t q = 0; q < f->npairs; q++) {
        uint32_t c = f->pr[q].call, r = f->pr[q].ret, m = first_msg(f, q);
        if (m == JOINT_NONE || in[m])
            continue; /* the window is closed under f's requests */
        if (c != JOINT_NONE && r != JOINT_NONE) {
            z.mate[c] = r;
            z.mate[r] = c;
        } else
            z.half[m] = 1;
        z.gpar[m] = f->par[q] == JOINT_NONE ? JOINT_NONE : first_msg(f, f->par[q]);
    }
    joint_params pr = *params;
    pr.unp_frz = &z;
    int rc = joint_search_forced(out, v, &pr, err, force);
    size_t moved = 0;
    if (rc == PB_OK) {
        joint *s = *out;
        size_t fz = s->unpf_rec[0];
        rc = unpf_release(s, &moved, &z);
        s->p.unp_frz = NULL;
        s->unpw_on = 6;
        s->unpw_seeds = nseed;
        s->unpw_msgs = nwin;
        s->unpw_pairs[0] = fz;
        s->unpw_pairs[1] = moved;
        if (rc != PB_OK) {
            joint_close(s);
            *out = NULL;
            rc = pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
    }
    free(z.mate);
    free(z.gpar);
    free(z.half);
    return rc;
}
