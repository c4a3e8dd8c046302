/*
 * joint_bbserial.c - joint: learned parallel calls checked without call
 * ids (docs/joint.md, "Learned parallel calls checked without call ids",
 * issue 28).
 *
 * The black-box counterpart of parallel_check (joint_serial.c).  Without
 * call ids joint runs two searches (free and holding the order of
 * answers, pair_order=auto) and keeps one; the flags of `parallel` are
 * learned from the current solution at each refit, so the same trap
 * exists.  On OnlineBoutique's fault minute 07:11 the held search learned
 * four parallel calls from its first assignments and none is left at its
 * end: the solution was reached under a structure its own later solution
 * refuted, and stays where that structure put it.
 *
 * The gate (no search): every parallel call learned at some refit of the
 * kept search is remembered (pever).  When one of them is no longer
 * learned at the end, the same search (the kept one's kind: free or
 * held) runs once more with parallel=1, and joint_serial_pick's rule
 * decides, over every parallel call learned at some refit: the search
 * without flags is kept only when none of them passes the learning test
 * on its solution and the model, refitted on each, finds it likelier by
 * more than JOINT_RESTART_MARGIN nats.  When every learned parallel call
 * held to the end (genuine parallel branches learn theirs from the first
 * assignments on), the second search is not run (parallel_check_bb_all=1
 * runs it anyway).  A trace whose kept search never learned a parallel
 * call runs as before, byte for byte.  Metadata: parallel_check_bb=on
 * learned_parallel=N learned_at_end=E shown_without=M
 * chosen=learned|without log_likelihood_learned= log_likelihood_without=,
 * or parallel_check_bb=skipped learned_parallel=N learned_at_end=N
 * reason=none_dropped.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

int joint_bbserial_wanted(joint *s)
{
    if (!s->p.parallel_check_bb || s->p.parallel >= 1)
        return 0;
    uint32_t ever = joint_bbserial_ever(s), end = joint_serial_flags(s);
    if (!ever)
        return 0; /* no parallel call learned: as before, byte for byte */
    /* every learned parallel call held to the end: no sign that the
     * search went through a structure its own solution refuted */
    if (end >= ever && !s->p.parallel_check_bb_all) {
        s->ser_bb = 2;
        s->ser_flags = ever;
        s->ser_end = end;
        return 0;
    }
    return 1;
}

int joint_bbserial_pick(joint *a, joint *b, joint **keep)
{
    int rc = joint_bbserial_note(a);
    if (rc != PB_OK)
        return rc;
    uint32_t end = joint_serial_flags(a);
    rc = joint_serial_pick_by(a, b, a->pever, keep);
    if (rc != PB_OK)
        return rc;
    (*keep)->ser_bb = 1;
    (*keep)->ser_end = end;
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

int joint_bbserial_meta(const joint *s, pb_result *res)
{
    if (s->ser_bb == 2)
        return pb_result_meta(res,
                              "parallel_check_bb=skipped learned_parallel=%u learned_at_end=%u "
                              "reason=none_dropped",
                              (unsigned)s->ser_flags, (unsigned)s->ser_end);
    return pb_result_meta(res,
                          "parallel_check_bb=on learned_parallel=%u learned_at_end=%u "
                          "shown_without=%u chosen=%s log_likelihood_learned=%.3f "
                          "log_likelihood_without=%.3f",
                          (unsigned)s->ser_flags, (unsigned)s->ser_end, (unsigned)s->ser_shown,
                          s->ser_state == 2 ? "without" : "learned", s->ser_ll[0], s->ser_ll[1]);
}
