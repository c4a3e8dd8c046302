/*
 * joint_unplp.c - a measurement for unpaired=1's second search
 * (`-s unp_predict=1`, default 0 = off; docs/joint/loss_late.md, "A
 * predictor of the second search's free / held choice (h231)").
 *
 * When the loss rule forces messages (joint_unpaired.c), the second search
 * runs the free and the held search again and keeps the likelier (h222:
 * its choice is not the first search's, in either direction).  The
 * predictor tried here re-scores the first search's two solutions with
 * the forced messages' pairs changed in place, without a search: a
 * message forced unpaired leaves its pair (its partner a half pair under
 * the same parent), and a link's messages forced paired but left unpaired
 * are paired in time order (each return with the earliest free call sent
 * before it); the pairs and parents are given to the set-up
 * (joint_search_given, as unp_pieces' merge) and the model refitted once;
 * joint_loglik of each is the score.  Measurement only: the solution the
 * first search did not keep is searched again here (the rule would keep
 * it from the first search), and the second search runs as before; the
 * scores go to the metadata (unp_predict=) beside the second search's own
 * choice, so the agreement can be counted on lossy inputs.  The output is
 * the default's otherwise.
 */
#include "joint_int.h"
#include "pb_sort.h"
#include <stdlib.h>
#include <string.h>

static uint32_t fmsg(const joint *o, uint32_t q)
{
    return o->pr[q].call != JOINT_NONE ? o->pr[q].call : o->pr[q].ret;
}

typedef struct lp_ev {
    pb_ns t;
    uint32_t link, msg;
    int ret;
} lp_ev;

static int lp_cmp(const void *a, const void *b)
{
    const lp_ev *x = a, *y = b;
    if (x->link != y->link)
        return x->link < y->link ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->ret != y->ret)
        return x->ret < y->ret ? -1 : 1; /* a call before a return at one time */
    return x->msg < y->msg ? -1 : x->msg > y->msg;
}

/* the solution x with the forced messages' pairs changed in place, set up
 * and refitted; its log-likelihood into *ll.  PB_OK or the set-up's error */
static int lp_rescore(const joint *x, const pb_trace_view *v, const unsigned char *force,
                      pb_error *err, double *ll)
{
    size_t n = v->n;
    uint32_t *mate = malloc((n + 1) * sizeof *mate), *gpar = malloc((n + 1) * sizeof *gpar);
    uint32_t *remap = malloc((n + 1) * sizeof *remap);
    lp_ev *ev = malloc((n + 1) * sizeof *ev);
    int rc = mate && gpar && remap && ev ? PB_OK : PB_ENOMEM;
    if (rc != PB_OK)
        goto out;
    for (size_t i = 0; i < n; i++) {
        mate[i] = JOINT_NONE;
        gpar[i] = JOINT_UNPM_SKIP;
        remap[i] = (uint32_t)i;
    }
    for (uint32_t q = 0; q < x->npairs; q++) {
        uint32_t c = x->pr[q].call, r = x->pr[q].ret, m = fmsg(x, q);
        if (m == JOINT_NONE)
            continue;
        if (c != JOINT_NONE && r != JOINT_NONE) {
            mate[c] = r;
            mate[r] = c;
        }
        gpar[m] = x->par[q] == JOINT_NONE ? JOINT_NONE : fmsg(x, x->par[q]);
    }
    /* forced unpaired: the pair split, both halves under its parent */
    for (size_t i = 0; i < n; i++) {
        if (force[i] != 1 || mate[i] == JOINT_NONE)
            continue;
        uint32_t j = mate[i], q = x->pair_of_msg[i];
        uint32_t c = x->pr[q].call, r = x->pr[q].ret;
        mate[i] = mate[j] = JOINT_NONE;
        gpar[r] = gpar[c];
    }
    /* forced paired, left unpaired: in time order per link */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t q = x->pair_of_msg[i];
        if (force[i] != 2 || mate[i] != JOINT_NONE || q == JOINT_NONE)
            continue;
        ev[k++] = (lp_ev){v->msgs[i].ts, x->pr[q].link, (uint32_t)i,
                          x->pr[q].call == i ? 0 : 1};
    }
    pb_sort(ev, k, sizeof *ev, lp_cmp);
    size_t c0 = 0; /* the earliest free call of the link */
    for (size_t a = 0; a < k; a++) {
        if (a > 0 && ev[a].link != ev[a - 1].link)
            c0 = a;
        if (!ev[a].ret)
            continue;
        while (c0 < a && (ev[c0].ret || mate[ev[c0].msg] != JOINT_NONE))
            c0++;
        if (c0 >= a)
            continue;
        uint32_t c = ev[c0].msg, r = ev[a].msg;
        mate[c] = r;
        mate[r] = c;
        gpar[r] = JOINT_UNPM_SKIP;
        remap[r] = c;
        c0++;
    }
    for (size_t i = 0; i < n; i++)
        if (gpar[i] != JOINT_UNPM_SKIP && gpar[i] != JOINT_NONE)
            gpar[i] = remap[gpar[i]];
    joint *g = NULL;
    rc = joint_search_given(&g, v, &x->p, err, x->pord_hold, mate, gpar);
    if (rc == PB_OK)
        *ll = joint_loglik(g);
    joint_close(g);
out:
    free(mate);
    free(gpar);
    free(remap);
    free(ev);
    if (rc == PB_ENOMEM)
        pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    return rc;
}

int joint_unplp_predict(const joint *s, const pb_trace_view *v, const joint_params *params,
                        const unsigned char *force, pb_error *err, double rec[6])
{
    memset(rec, 0, 6 * sizeof *rec);
    const char *m = params->pair_order;
    if (!params->unp_predict || !force || !s->pord_chosen || !(!m || !strcmp(m, "auto")))
        return PB_OK;
    joint_params ph = *params;
    ph.order = "on";
    int held = s->pord_chosen == 2;
    joint *o = NULL; /* the first search's other solution, searched again */
    int rc = joint_search_one(&o, v, held ? params : &ph, err, !held, NULL);
    if (rc != PB_OK)
        return rc;
    double lf = 0, lh = 0;
    rc = lp_rescore(held ? o : s, v, force, err, &lf);
    if (rc == PB_OK)
        rc = lp_rescore(held ? s : o, v, force, err, &lh);
    joint_close(o);
    if (rc != PB_OK)
        return rc;
    rec[0] = 1;
    rec[1] = s->pord_ll[1] - s->pord_ll[0]; /* the first search: held - free */
    rec[2] = lh - lf;                       /* re-scored in place: held - free */
    rec[3] = s->pord_chosen;
    return PB_OK;
}

void joint_unplp_second(joint *s, joint *t, double rec[6])
{
    rec[4] = t->pord_chosen;
    rec[5] = t->pord_ll[1] - t->pord_ll[0];
    memcpy(s->p.unp_pred_rec, rec, 6 * sizeof *rec);
    memcpy(t->p.unp_pred_rec, rec, 6 * sizeof *rec);
}

int joint_unplp_meta(const joint *s, pb_result *res)
{
    const double *r = s->p.unp_pred_rec;
    if (!s->p.unp_predict || r[0] == 0)
        return PB_OK;
    return pb_result_meta(res, "unp_predict first=%s first_held_minus_free=%.3f "
                               "rescored_held_minus_free=%.3f predicted=%s second=%s "
                               "second_held_minus_free=%.3f",
                          r[3] == 2 ? "held" : "free", r[1], r[2],
                          r[2] > JOINT_RESTART_MARGIN ? "held" : "free",
                          r[4] == 2 ? "held" : r[4] == 1 ? "free" : "one", r[5]);
}
