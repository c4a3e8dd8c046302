/*
 * joint_bnbenv.c - joint: the branch and bound's step bounds by envelope
 * (bnb_env; speed only, the very same bounds; docs/joint/speed_w29.md,
 * "The swap passes' branch and bound").
 *
 * joint_bnb.c bounds a step whose output is at least dl after its latest
 * possible trigger by the largest, over the density keys of every trigger
 * its request could give it, of key_max: the larger of the log densities
 * of the delay's bin b0 and the bin below it less ln dl, and the largest
 * term of any delay from bin b0 + 1 up (the key's row).  Rounding is
 * monotone, so the largest over the keys of (x_k - ln dl) is (the largest
 * x_k) - ln dl, the same double: per key list and bin, two numbers hold
 * every key's part,
 *   T[b0] = max over keys of max(lf[b0], lf[b0 - 1]),
 *   R[b0] = max over keys of row[b0 + 1] (-inf at the last bin),
 * and a step's bound is max(bg - ln dl, T[b0] - ln dl, R[b0], the lost
 * call's terms) as before.  A prep_side asks a few hundred thousand steps
 * on OnlineBoutique without call ids with a handful of key lists (a
 * request's link, the links that may trigger it, the output's link), each
 * over nine keys; T and R are made per bin on first use, from the keys'
 * rows (joint_bnb.c's key_row, which made the rows then as it would).
 *
 * This file keeps the lists: a direct-mapped table of JOINT_BENV_SLOTS
 * lists of at most JOINT_BENV_KMAX keys, each with its bins' T and R and
 * a stamp per bin; a list is valid for one fit (fit_gen) and one bin
 * count, and a slot taken by another list starts anew (its stamp).
 */
#include "joint_int.h"
#include "joint_rs.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JOINT_BENV_SLOTS 256 /* a power of two */

struct joint_benvtab {
    joint_benv e[JOINT_BENV_SLOTS];
    uint32_t ep; /* the last stamp given */
};

void joint_benv_free(struct joint_benvtab *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < JOINT_BENV_SLOTS; i++) {
        free(t->e[i].T);
        free(t->e[i].st);
    }
    free(t);
}

joint_benv *joint_benv_get(struct joint_benvtab **tp, const uint32_t *keys, uint32_t nk,
                           uint32_t gen, uint32_t nb)
{
    if (nk > JOINT_BENV_KMAX || nb == 0)
        return NULL;
    if (!*tp && !(*tp = calloc(1, sizeof **tp)))
        return NULL;
    struct joint_benvtab *t = *tp;
    uint64_t h = 1469598103934665603ull ^ nk;
    for (uint32_t i = 0; i < nk; i++)
        h = (h ^ keys[i]) * 1099511628211ull;
    joint_benv *e = &t->e[(h ^ (h >> 29)) & (JOINT_BENV_SLOTS - 1)];
    if (e->gen == gen && e->nb == nb && e->nk == nk &&
        memcmp(e->keys, keys, (size_t)nk * sizeof *keys) == 0)
        return e->bad ? NULL : e;
    if (e->nb != nb) {
        double *a = realloc(e->T, 2 * (size_t)nb * sizeof *a);
        if (!a)
            return NULL;
        e->T = a;
        uint32_t *st = realloc(e->st, (size_t)nb * sizeof *st);
        if (!st) {
            e->nb = 0; /* T's room is kept, not yet of nb bins */
            return NULL;
        }
        e->st = st;
        memset(st, 0, (size_t)nb * sizeof *st);
        e->nb = nb;
    }
    e->R = e->T + nb;
    e->gen = gen;
    e->nk = nk;
    e->bad = 0;
    memcpy(e->keys, keys, (size_t)nk * sizeof *keys);
    if (++t->ep == 0) { /* the stamps wrapped: every slot's bins anew */
        for (uint32_t i = 0; i < JOINT_BENV_SLOTS; i++)
            if (t->e[i].st)
                memset(t->e[i].st, 0, (size_t)t->e[i].nb * sizeof *t->e[i].st);
        t->ep = 1;
    }
    e->ep = t->ep;
    return e;
}
