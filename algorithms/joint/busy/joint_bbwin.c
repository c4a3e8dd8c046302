/*
 * joint_bbwin.c - bb_serial=7's second inference on a window
 * (bb_serial_warm=2; docs/joint/accuracy_w36.md, "bb_serial=7 from the
 * first solution (h309)").
 *
 * bb_serial=7 (joint_bbser.c) runs, where the first solution has a link
 * the serial test calls serial, a second inference with loss_serial's
 * term (bb_serial=3) and keeps it where the model without the term finds
 * it likelier by 10 nats.  From scratch it is a whole search more; from
 * the first solution (bb_serial_warm=1) still about +45 % instructions on
 * OnlineBoutique 03:53 as a black box, nearly all in the re-pairing
 * rounds over the whole trace.  The term prices only stacked calls (a
 * call on a serial link sent while an earlier call of its request is
 * out): what it can change is the request holding the stack and the
 * requests that could hold the stacked call instead.
 *
 * The rule (2): the seeds are the top-level requests of the first
 * solution holding a stacked call's parent or one of its candidate
 * parents; the window is every message of a seed request (closed under
 * the first solution's requests, so no pair or parent crosses its
 * border).  The term's search (one search, the first solution's order
 * choice) runs on the window as a trace of its own; its pairs and
 * parents, with the first solution's outside, are set up on the whole
 * trace and refitted once (as held_local's window, joint_heldlocal.c),
 * and that solution goes to the same check.  A window over
 * bb_serial_win_max of the messages runs the warm inference
 * (bb_serial_warm=1's) instead.  Metadata: bb_serial_warm=window stacks=
 * seeds= window_msgs= of_msgs=.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

/* in[i] = 1 for every message of a seed request; their number */
static int bbw_window(joint *f, const unsigned char *ser, const unsigned char *st,
                      unsigned char *in, size_t *nseed, size_t *nwin)
{
    size_t n = f->v.n;
    uint32_t np = f->npairs;
    uint32_t *root = malloc(((size_t)np + 1) * sizeof *root);
    unsigned char *seed = calloc((size_t)np + 1, 1);
    if (!root || !seed) {
        free(root);
        free(seed);
        return PB_ENOMEM;
    }
    for (uint32_t q = 0; q < np; q++)
        root[q] = joint_unp_root(f, q);
    if (f->p.bb_serial_seeds > 0) /* the requests holding a stack (joint_bbseeds.c) */
        joint_bbseeds_count(f, ser, st, root, seed);
    memset(seed, 0, (size_t)np + 1);
    for (uint32_t p = 0; p < np; p++) {
        if (!st[p])
            continue;
        if (f->par[p] != JOINT_NONE && root[f->par[p]] != JOINT_NONE)
            seed[root[f->par[p]]] = 1;
        if (f->p.bb_serial_seeds > 0) { /* the nearest idle candidates (joint_bbseeds.c) */
            joint_bbseeds_near(f, p, root, seed);
            continue;
        }
        for (uint32_t j = f->cand_off[p]; j < f->cand_off[p + 1]; j++)
            if (root[f->cand[j]] != JOINT_NONE)
                seed[root[f->cand[j]]] = 1;
    }
    *nseed = *nwin = 0;
    for (uint32_t r = 0; r < np; r++)
        *nseed += seed[r];
    for (size_t i = 0; i < n; i++) {
        uint32_t q = f->pair_of_msg[i];
        in[i] = q != JOINT_NONE && root[q] != JOINT_NONE && seed[root[q]];
        *nwin += in[i];
    }
    free(root);
    free(seed);
    return PB_OK;
}

/* the first message of pair q of o: its call, else its return */
static uint32_t bbw_first(const joint *o, uint32_t q)
{
    return o->pr[q].call != JOINT_NONE ? o->pr[q].call : o->pr[q].ret;
}

/* bb_serial_warm=3: the term's search on the window sv set up on s's
 * pairs and parents there (held_warm's way, joint_heldwarm.c), with
 * bb_serial_repair / bb_serial_swaps rounds */
static int bbw_warm_sub(joint **out, const joint *s, const pb_trace_view *sv,
                        const joint_params *pr, pb_error *err, const unsigned char *in,
                        const uint32_t *sub, size_t nwin)
{
    size_t n = s->v.n;
    uint32_t *inv = malloc((n + 1) * sizeof *inv);
    uint32_t *mate = malloc((nwin + 1) * sizeof *mate), *gpar = malloc((nwin + 1) * sizeof *gpar);
    if (!inv || !mate || !gpar) {
        free(inv);
        free(mate);
        free(gpar);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    }
    for (size_t i = 0; i < n; i++)
        inv[i] = JOINT_NONE;
    for (size_t k = 0; k < nwin; k++) {
        inv[sub[k]] = (uint32_t)k;
        mate[k] = JOINT_NONE;
        gpar[k] = JOINT_UNPM_SKIP;
    }
    for (uint32_t q = 0; q < s->npairs; q++) {
        uint32_t c = s->pr[q].call, r = s->pr[q].ret, m = bbw_first(s, q);
        if (m == JOINT_NONE || !in[m])
            continue;
        if (c != JOINT_NONE && r != JOINT_NONE && in[c] && in[r]) {
            mate[inv[c]] = inv[r];
            mate[inv[r]] = inv[c];
        }
        uint32_t g = s->par[q] == JOINT_NONE ? JOINT_NONE : bbw_first(s, s->par[q]);
        gpar[inv[m]] = g == JOINT_NONE ? JOINT_NONE : inv[g] == JOINT_NONE ? JOINT_UNPM_SKIP : inv[g];
    }
    free(inv);
    joint_params pw = *pr;
    if (pr->bb_serial_repair >= 0)
        pw.repair = pr->bb_serial_repair;
    if (pr->bb_serial_swaps >= 0)
        pw.swap_rounds = pr->bb_serial_swaps;
    int rc = joint_init_one_g(out, sv, &pw, err, s->pord_hold, NULL, NULL, mate, gpar, 1);
    free(mate);
    free(gpar);
    if (rc == PB_OK) {
        (*out)->p.repair = pr->repair;
        (*out)->p.swap_rounds = pr->swap_rounds;
    }
    return rc;
}

int joint_bbwin_run(joint **out, joint *s, const pb_trace_view *v, const joint_params *pr,
                    pb_error *err)
{
    *out = NULL;
    size_t n = v->n, nseed = 0, nwin = 0, nst = 0, nout = 0;
    unsigned char *ser = calloc((size_t)s->nlinks + 1, 1);
    unsigned char *st = calloc((size_t)s->npairs + 1, 1);
    unsigned char *in = calloc(n + 1, 1);
    int rc = ser && st && in ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK && joint_lser_serial_links(s, ser) < 0)
        rc = PB_ENOMEM;
    if (rc == PB_OK)
        nst = joint_lser_stacks(s, ser, st, &nout);
    if (rc == PB_OK)
        rc = bbw_window(s, ser, st, in, &nseed, &nwin);
    free(ser);
    free(st);
    s->bbw_rec[4] = (double)nst;
    s->bbw_rec[5] = (double)nseed;
    s->bbw_rec[6] = (double)nwin;
    if (rc != PB_OK) {
        free(in);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    if (!nst || (double)nwin > s->p.bb_serial_win_max * (double)n) {
        free(in);
        s->bbw_rec[7] = !nst ? 1 : 2; /* none stacked; window over the limit */
        return PB_OK; /* the caller runs the warm inference */
    }
    pb_trace_view sv = *v;
    uint32_t *sub = NULL;
    pb_msg *sm = NULL;
    int vrc = joint_window_view(v, in, nwin, &sv, &sm, &sub);
    uint32_t *mate = malloc((n + 1) * sizeof *mate), *gpar = malloc((n + 1) * sizeof *gpar);
    joint *t = NULL, *b = NULL;
    if (vrc != PB_OK || !mate || !gpar) {
        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        goto done;
    }
    if (pr->bb_serial_warm == 3) /* from s's pairs and parents on the window */
        rc = bbw_warm_sub(&t, s, &sv, pr, err, in, sub, nwin);
    else
        rc = joint_search_one(&t, &sv, pr, err, s->pord_hold, NULL);
    if (rc != PB_OK)
        goto done;
    size_t from[2] = {0, 0};
    joint_unpw_given(s, t, in, sub, mate, gpar, from);
    joint_close(t);
    rc = joint_search_given(&b, v, pr, err, s->pord_hold, mate, gpar);
    if (rc == PB_OK && s->pord_hold)
        rc = joint_fit_order(b); /* as held_local's (joint_heldlocal.c) */
    if (rc != PB_OK) {
        joint_close(b);
        b = NULL;
        if (rc == PB_ENOMEM)
            rc = pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        goto done;
    }
    s->bbw_rec[7] = 3; /* the window searched */
    memcpy(b->bbw_rec, s->bbw_rec, sizeof b->bbw_rec);
    memcpy(b->bbs_rec, s->bbs_rec, sizeof b->bbs_rec);
    *out = b;
done:
    free(in);
    free(sm);
    free(sub);
    free(mate);
    free(gpar);
    return rc;
}
