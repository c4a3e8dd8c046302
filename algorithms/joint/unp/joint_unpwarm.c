/*
 * joint_unpwarm.c - joint without call ids, under loss: the loss rule's
 * whole second search started from the first search's solution
 * (`unp_warm`, default 0 = off; docs/joint/loss_late.md, "The loss rule's
 * cost: a cheaper second search inside the second search only (h268)").
 *
 * Where unpaired's window holds over unp_win_max of the messages, the
 * second search runs on the whole trace from scratch: the free and the
 * held search with the forced messages, each from the first-come start
 * (OnlineBoutique 03:53 at 2 % loss: 3.5 of 8.4 G instructions).  Outside
 * the links whose unpaired messages changed, the first search's pairs are
 * what the forced search would start from and, mostly, end at.
 *
 * unp_warm=1: the whole second search is one search, of the kind the first
 * search kept (free or held; its record is the first search's, as
 * unp_whole_one's), set up on the first search's pairs (links without a
 * changed message) and, on each changed link, its messages that stay
 * paired paired first in, first out on the callee's clock (those left
 * unpaired stay out); every call whose first-search parent is one of its
 * candidates starts there (held_warm's start, joint_heldwarm.c); then its
 * own rounds (unp_repair / unp_swaps, joint_unprounds.c, apply).  Where the
 * first search kept busy_partial's third search it does not apply.
 * Metadata: unp_win=whole ... search=warm.
 */
#include "joint_int.h"
#include "pb_sort.h"
#include <stdlib.h>
#include <string.h>

typedef struct uwm_ev {
    pb_ns t;
    uint32_t msg;
    int ret;
} uwm_ev;

static int uwm_cmp(const void *a, const void *b)
{
    const uwm_ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->ret != y->ret) /* a call before a return at the same time */
        return x->ret - y->ret;
    return x->msg < y->msg ? -1 : x->msg > y->msg;
}

static uint32_t uwm_first(const joint *o, uint32_t q)
{
    return o->pr[q].call != JOINT_NONE ? o->pr[q].call : o->pr[q].ret;
}

int joint_unp_link_forced(const joint *f, const unsigned char *force, uint32_t l)
{
    for (uint32_t k = f->bylink_off[l]; k < f->bylink_off[l + 1]; k++) {
        const jpair *x = &f->pr[f->bylink[k]];
        if ((x->call != JOINT_NONE && force[x->call]) || (x->ret != JOINT_NONE && force[x->ret]))
            return 1;
    }
    return 0;
}

/* the start: mate / gpar (joint_unpmerge.c's encoding) from f and force
 * (also unp_wboth's, joint_unpwboth.c) */
int joint_unpwarm_start(const joint *f, const unsigned char *force, uint32_t *mate,
                     uint32_t *gpar)
{
    size_t n = f->v.n;
    for (size_t i = 0; i < n; i++) {
        mate[i] = JOINT_NONE;
        gpar[i] = JOINT_UNPM_SKIP;
    }
    uwm_ev *ev = malloc((2 * (size_t)f->npairs + 1) * sizeof *ev);
    uint32_t *open = malloc((2 * (size_t)f->npairs + 1) * sizeof *open);
    if (!ev || !open) {
        free(ev);
        free(open);
        return PB_ENOMEM;
    }
    for (uint32_t l = 0; l < f->nlinks; l++) {
        int forced = joint_unp_link_forced(f, force, l);
        if (!forced) { /* the first search's pairs */
            for (uint32_t k = f->bylink_off[l]; k < f->bylink_off[l + 1]; k++) {
                const jpair *x = &f->pr[f->bylink[k]];
                if (x->call != JOINT_NONE && x->ret != JOINT_NONE) {
                    mate[x->call] = x->ret;
                    mate[x->ret] = x->call;
                }
            }
            continue;
        }
        /* a changed link: the messages that stay paired, first in, first
         * out on the callee's clock (a call by its receipt, a return by
         * its sending) */
        size_t ne = 0;
        for (uint32_t k = f->bylink_off[l]; k < f->bylink_off[l + 1]; k++) {
            const jpair *x = &f->pr[f->bylink[k]];
            if (x->call != JOINT_NONE && force[x->call] != 1)
                ev[ne++] = (uwm_ev){x->cr, x->call, 0};
            if (x->ret != JOINT_NONE && force[x->ret] != 1)
                ev[ne++] = (uwm_ev){x->rs, x->ret, 1};
        }
        pb_sort(ev, ne, sizeof *ev, uwm_cmp);
        size_t h = 0, t = 0;
        for (size_t e = 0; e < ne; e++) {
            if (!ev[e].ret)
                open[t++] = ev[e].msg;
            else if (h < t) {
                mate[open[h]] = ev[e].msg;
                mate[ev[e].msg] = open[h];
                h++;
            }
        }
    }
    for (uint32_t q = 0; q < f->npairs; q++) {
        uint32_t m = uwm_first(f, q);
        if (m != JOINT_NONE)
            gpar[m] = f->par[q] == JOINT_NONE ? JOINT_NONE : uwm_first(f, f->par[q]);
    }
    free(ev);
    free(open);
    return PB_OK;
}

int joint_unpwarm_second(joint **out, const pb_trace_view *v, const joint_params *params,
                         const joint *f, const unsigned char *force, pb_error *err, int *done)
{
    *out = NULL;
    *done = 0;
    if (params->unp_warm <= 0 || f->part_sum[3] != 0)
        return PB_OK;
    size_t n = v->n;
    uint32_t *mate = malloc((n + 1) * sizeof *mate), *gpar = malloc((n + 1) * sizeof *gpar);
    int rc = mate && gpar ? joint_unpwarm_start(f, force, mate, gpar) : PB_ENOMEM;
    if (rc != PB_OK) {
        free(mate);
        free(gpar);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    }
    joint_params pw = *params;
    int pord = f->pord_hold;
    if (pord)
        pw.order = "on";
    rc = joint_init_one_g(out, v, &pw, err, pord, NULL, NULL, mate, gpar, 1);
    free(mate);
    free(gpar);
    if (rc != PB_OK)
        return rc;
    joint *s = *out;
    s->p.order = params->order;
    s->pord_chosen = f->pord_chosen;
    joint_unp_carry_first(s, f);
    *done = 1;
    return PB_OK;
}
