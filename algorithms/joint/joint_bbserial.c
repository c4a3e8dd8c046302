/*
 * joint_bbserial.c - joint: learned parallel calls checked without call
 * ids (docs/joint.md, "Learned parallel calls checked without call ids",
 * issue 28).
 *
 * The black-box counterpart of parallel_check (joint_serial.c).  Without
 * call ids joint runs two searches (free and holding the order of
 * answers, pair_order=auto) and keeps one; the flags of `parallel` are
 * learned from that solution, so the same trap exists: a wrong solution
 * teaches that a return is no trigger of the calls after it and holds
 * itself in place.  When the kept search ended with at least one learned
 * parallel call, the same search (the kept one's kind: free or held) runs
 * once more with parallel=1, and the rule of joint_serial_pick decides:
 * the search without flags is kept only when none of the learned parallel
 * calls passes the same test on its solution and the model, refitted on
 * each, finds it likelier by more than JOINT_RESTART_MARGIN nats.  A
 * trace whose kept search learns no parallel call runs as before, byte
 * for byte.  Metadata: parallel_check=blackbox learned_parallel=N
 * shown_without=M chosen=learned|without log_likelihood_learned=
 * log_likelihood_without=.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

int joint_bbserial_wanted(const joint *s)
{
    return s->p.parallel_check_bb && s->p.parallel < 1 && joint_bbserial_ever(s) > 0;
}

int joint_bbserial_pick(joint *a, joint *b, joint **keep)
{
    int rc = joint_bbserial_note(a);
    if (rc != PB_OK)
        return rc;
    rc = joint_serial_pick_by(a, b, a->pever, keep);
    if (rc != PB_OK)
        return rc;
    (*keep)->ser_bb = 1;
    if (*keep == b) {
        /* the choice between the free and the held search was a's: its
         * record goes with the solution kept */
        b->pord_chosen = a->pord_chosen;
        for (int i = 0; i < 4; i++)
            b->pord_ll[i] = a->pord_ll[i];
        b->pick_stat = a->pick_stat;
        a->pick_stat = NULL;
        for (int i = 0; i < 3; i++)
            b->pick_sum[i] = a->pick_sum[i];
    }
    return PB_OK;
}

int joint_bbserial_note(joint *s)
{
    if (s->npar > s->npever) {
        unsigned char *a = realloc(s->pever, s->npar);
        if (!a)
            return PB_ENOMEM;
        memset(a + s->npever, 0, s->npar - s->npever);
        s->pever = a;
        s->npever = s->npar;
    }
    for (uint32_t h = 0; h < s->npar; h++)
        s->pever[h] |= s->pflag[h];
    return PB_OK;
}

uint32_t joint_bbserial_ever(const joint *s)
{
    uint32_t n = 0;
    for (uint32_t h = 0; h < s->npever; h++)
        n += s->pever[h] != 0;
    return n;
}
