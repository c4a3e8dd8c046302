/*
 * joint_copyparams.c - joint: the parameters a copy of the trace is
 * inferred with (the self-calibration's copies, joint_selfcal.c, and
 * reunp's check, joint_reunpck.c; moved out of joint_selfcal.c when that
 * file passed 1,500 lines).
 *
 * A copy is made from the real trace's solution, so its search must be
 * the one the real trace's run chose, not a fresh choice: every rule whose
 * check picked a setting on the real trace passes that setting on, and the
 * checks themselves (parallel calls, the confidence, min_confidence) are
 * off in the copy.
 */
#include "joint_int.h"

void joint_copy_params(const joint *s, joint_params *p2)
{
    *p2 = s->p;
    p2->conf_selfcal = 0;
    p2->scp_state = p2->scp_cal = 0; /* conf_copy_share, _stage: the real trace's calibration only */
    p2->min_confidence = 0;
    p2->unp_frz = NULL; /* unp_freeze: the real trace's frozen pairs (joint_unpfreeze.c) */
    p2->uwl_chg = NULL; /* unp_wlocal: the real trace's changed messages (joint_unpwlocal.c) */
    /* the real trace's per-service signal choice (selfcal_select) */
    p2->sel_from = s;
    /* the search the real trace chose (pair_order=auto ran both) */
    if (s->pord_chosen)
        p2->pair_order = s->pord_chosen == 2 ? "on" : "off";
    /* ... and the learned parallel calls it chose (parallel_check: the
     * kept search's own parallel, joint_serial.c) */
    p2->parallel_check = 0;
    p2->parallel_check_bb = 0;
    /* ... and reunp as its check chose (joint_reunpck.c) */
    if (p2->reunp == 2)
        p2->reunp = s->reunp_ck == 2;
    /* ... and the unpaired step as its check chose (joint_unpck.c) */
    if (p2->unpaired == 3)
        p2->unpaired = s->unpck == 2;
    /* ... and tie_orphans_rows only where it decided the real trace's tie test
     * (joint_roworph.c) */
    p2->tie_orphans_rows = joint_roworph_decided(s);
    /* ... and tie_sets only where it refuted the real trace's start
     * (joint_tieset.c) */
    p2->tie_sets = s->tset_refuted ? s->p.tie_sets : 0;
    /* ... and loss_serial as its check chose (loss_serial=7|8,
     * joint_lserial.c: the kept search's value is 4 when it took the term) */
    if (p2->loss_serial >= 7)
        p2->loss_serial = 1;
}
