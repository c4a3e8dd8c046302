/*
 * joint_bbserial.c - joint: learned parallel calls checked without call
 * ids (docs/joint/model.md, "Learned parallel calls checked without call ids",
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
 *
 * Decided early (parallel_check_bb_early, on by default): the held search
 * is the one kept where the trap was met (07:11), and the search with the
 * learned calls is then run only to be replaced.  The free search, run
 * first, carries the same sign: it too learns parallel calls and drops
 * some by its end.  When it does, the held search runs with parallel=1
 * directly, and that run is used as the held search when its solution
 * shows none of the parallel calls the free search learned at some refit
 * (joint_serial.c's learning test on the held solution, the test
 * parallel_check's rule makes).  When it shows one, the calls may be
 * genuine: the held search runs with them as before, and the run without
 * serves as its check if the gate opens (the same bytes as without
 * parallel_check_bb_early, one search later; the line
 * parallel_check_bb_early=declined learned_parallel_free=N
 * learned_at_end_free=E shown_held_without=M says so: when the free search
 * is kept, or the held one needs no check, that run was spent for
 * nothing).  The free/held choice, the
 * busy test and the gate on a kept free search are unchanged.  Metadata:
 * parallel_check_bb=early learned_parallel_free=N learned_at_end_free=E
 * shown_without=0 log_likelihood_free= log_likelihood_without=.  A trace
 * whose free search drops no learned parallel call runs as before, byte
 * for byte.
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

int joint_bbserial_early(const joint *a)
{
    if (!a->p.parallel_check_bb || !a->p.parallel_check_bb_early || a->p.parallel >= 1 ||
        a->p.parallel_check_bb_all)
        return 0;
    /* pflag is part of pever (noted at every refit): fewer at the end
     * means one learned at some refit was dropped */
    return joint_bbserial_ever(a) > joint_serial_flags(a);
}

int joint_bbserial_early_take(joint *a, joint *w, uint32_t *shown)
{
    *shown = 0;
    if (joint_bbserial_note(a) != PB_OK) /* pever as long as the map */
        return -1;
    long m = joint_serial_shown(a, a->pever, w);
    if (m < 0)
        return -1;
    if (m > 0) {
        *shown = (uint32_t)m;
        return 0;
    }
    w->ser_bb = 3;
    w->ser_free[0] = joint_bbserial_ever(a);
    w->ser_free[1] = joint_serial_flags(a);
    w->ser_free_ll = joint_loglik(a);
    w->ser_ll[1] = joint_loglik(w);
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
        b->pwin = a->pwin;
        for (int i = 0; i < 4; i++)
            b->pord_ll[i] = a->pord_ll[i];
        b->pick_stat = a->pick_stat;
        a->pick_stat = NULL;
        for (int i = 0; i < 3; i++)
            b->pick_sum[i] = a->pick_sum[i];
        for (int i = 0; i < 6; i++) /* busy_partial (joint_partial.c) */
            b->part_sum[i] = a->part_sum[i];
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

int joint_bbserial_declined_meta(const joint *s, pb_result *res)
{
    if (!s->ser_declined)
        return PB_OK;
    return pb_result_meta(res,
                          "parallel_check_bb_early=declined learned_parallel_free=%u "
                          "learned_at_end_free=%u shown_held_without=%u",
                          (unsigned)s->ser_free[0], (unsigned)s->ser_free[1],
                          (unsigned)s->ser_declined);
}

int joint_bbserial_meta(const joint *s, pb_result *res)
{
    if (s->ser_bb == 3 && s->pwin.decision == 3 && !s->pwin.full_kind) /* joint_pwin.c */
        return pb_result_meta(res, "parallel_check_bb=early decided_on=window "
                                   "log_likelihood_without=%.3f",
                              s->ser_ll[1]);
    if (s->ser_bb == 3)
        return pb_result_meta(res,
                              "parallel_check_bb=early learned_parallel_free=%u "
                              "learned_at_end_free=%u shown_without=0 log_likelihood_free=%.3f "
                              "log_likelihood_without=%.3f",
                              (unsigned)s->ser_free[0], (unsigned)s->ser_free[1], s->ser_free_ll,
                              s->ser_ll[1]);
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
