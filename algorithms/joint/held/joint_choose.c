/*
 * joint_choose.c - which searches run (docs/joint.md): without call ids and
 * pair_order=auto, the free search and the held one and the likelier kept
 * (init_choose); pair_window's choice on a window (init_search); the ways in
 * of the other files (joint_search_one, _choose, _given, _warm, _forced);
 * and, under loss, the second search with the messages left unpaired
 * (joint_init_search).  One search's set-up is joint.c's joint_init_one_g.
 */
#include "pb_files.h"
#include "joint.h"
#include "pb_mem.h"
#include "joint_int.h"
#include "pb_algo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* Without call ids and pair_order=auto, two searches: free (the order of
 * answers and calls not scored) and holding that order (pair_order and
 * service_order on); the solution kept is the likelier under the model
 * (joint_loglik, each under its own refit), by more than
 * JOINT_RESTART_MARGIN nats (ties keep the free one); the scores with the
 * order terms (joint_order_score) are reported beside.  With call ids (no free pair) one search, as before. */
static int init_choose_g(joint **out, const pb_trace_view *v, const joint_params *params,
                         pb_error *err, const unsigned char *force, const joint_pwin *pwin,
                         joint_selshare **gshare, joint **other);

/* init_choose_g, and the gate's holder freed (joint_pshare_hand) */
static int init_choose(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err, const unsigned char *force, const joint_pwin *pwin,
                       joint **other)
{
    joint_selshare *g = NULL;
    joint_params p1; /* tie_keep_choice (joint_tiekeep.c): the choice at tie_test=1 */
    const joint_params *pc = joint_tiekeep_params(params, &p1);
    int rc = init_choose_g(out, v, pc, err, force, pwin, &g, other);
    joint_selshare_free(g);
    if (rc == PB_OK && pc != params) {
        if (other && *other)
            (*other)->p.tie_test = params->tie_test;
        rc = joint_tiekeep_after(out, v, params, err, force);
    }
    return rc;
}

static int init_choose_g(joint **out, const pb_trace_view *v, const joint_params *params,
                         pb_error *err, const unsigned char *force, const joint_pwin *pwin,
                         joint_selshare **gshare, joint **other)
{
    const char *m = params->pair_order;
    int mode = !m || !strcmp(m, "auto") ? 2 : !strcmp(m, "on") ? 1 : !strcmp(m, "off") ? 0 : -1;
    *out = NULL;
    if (mode < 0)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option pair_order: \"%s\"; expected auto, on or off", m);
    joint_params ph = *params;
    ph.order = "on";
    if (mode == 1)
        return joint_init_one(out, v, &ph, err, 1, NULL, force);
    joint_pwin pwd; /* pair_window's fallback or check: its record */
    memset(&pwd, 0, sizeof pwd);
    if (pwin)
        pwd = *pwin;
    joint *a = NULL, *b = NULL;
    /* joint_select's choice shared by the two searches (joint_fitfast.c);
     * NULL (out of memory): each fits its own */
    joint_selshare *share = mode == 2 && params->select_share ? joint_selshare_new() : NULL;
    joint_params pa = *params; /* sv_lazy: the free search may pause (joint_sv.c) */
    if (mode == 2 && params->sv_lazy > 0) {
        pa.sv_lazy += 10;
        joint_svp_arm(&pa); /* sv_pre (joint_svpre.c) */
    }
    int rc = joint_init_one(&a, v, &pa, err, 0, share, force);
    if (rc == PB_OK && a->p.sv_lazy >= 10)
        a->p.sv_lazy -= 10; /* it never paused */
    if (rc == PB_OK)
        joint_svp_disarm(a);
    if (rc == PB_OK && a->sv_paused && !joint_any_free(a) && (rc = joint_sv_resume(a)) != PB_OK) {
        joint_close(a);
        a = NULL;
        rc = pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    int a_paused = rc == PB_OK && a->sv_paused;
    if (rc == PB_OK && !a_paused) /* pairs_share: its caches for the next (joint_bufshare.c) */
        joint_bufshare_park(a);
    if (rc == PB_OK)
        joint_selshare_set_keyroom(share, a->keycap); /* key_room (joint_keyroom.c) */
    if (rc != PB_OK || mode == 0 || !joint_any_free(a)) {
        joint_selshare_free(share);
        if (a)
            a->selshare = NULL;
        /* with call ids: learned parallel calls checked by a search
         * without them (joint_serial.c) */
        if (rc == PB_OK && params->parallel_check && params->parallel < 1 &&
            !joint_any_free(a) && joint_serial_flags(a) > 0) {
            joint_params pp = *params;
            pp.parallel = 1;
            joint *w = NULL;
            rc = joint_init_one(&w, v, &pp, err, 0, NULL, force);
            if (rc != PB_OK) {
                joint_close(a);
                return rc;
            }
            joint *keep = NULL;
            rc = joint_serial_pick(a, w, &keep);
            if (rc != PB_OK) {
                joint_close(a);
                joint_close(w);
                return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
            }
            joint_close(keep == w ? a : w);
            a = keep;
        }
        *out = a;
        return rc;
    }
    /* parallel_check_bb decided early (joint_bbserial.c): the free search
     * dropped a learned parallel call, so the held search runs without
     * them first; w is used as the held search, or kept as its check */
    joint *w = NULL, *bsv = NULL;
    uint32_t declined = 0, free_ever = 0, free_end = 0;
    int sv_early = 0; /* sv_lazy: the held search made beside the paused free one */
    rc = joint_sv_held(a, v, &ph, params, err, force, share, &bsv, &sv_early);
    if (rc != PB_OK) {
        a->selshare = NULL;
        joint_selshare_free(share);
        joint_close(a);
        return rc;
    }
    if (a_paused && !a->sv_paused && !sv_early && !bsv)
        joint_bufshare_park(a); /* resumed at once: its caches for the next, as without the pause */
    if (sv_early) { /* 1: the held search kept early; 2: the free one, the held one paused */
        b = bsv;
        bsv = NULL;
    }
    /* held_skip (joint_heldskip.c): 1 never where the early run is due (a
     * parallel call learned and dropped) */
    int hs = b ? 0 : joint_heldskip_decide(a);
    if (!b && hs != 1 && joint_bbserial_early(a)) {
        joint_params pw = ph;
        pw.parallel = 1;
        w = joint_sve_take(a); /* sv_early: made beside the paused free search (joint_svearly.c) */
        rc = w ? PB_OK : joint_init_one(&w, v, &pw, err, 1, share, force);
        int take = rc == PB_OK ? joint_bbserial_early_take(a, w, &declined) : 0;
        free_ever = joint_bbserial_ever(a);
        free_end = joint_serial_flags(a);
        if (rc == PB_OK && take < 0)
            rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        if (w) {
            joint_bufshare_park(w); /* pairs_share: for the held search */
            w->selshare = NULL;
        }
        if (rc != PB_OK) {
            joint_close(w);
            a->selshare = NULL;
            joint_selshare_free(share);
            joint_close(a);
            return rc;
        }
        if (take) {
            b = w;
            w = NULL;
        }
    }
    joint_close(joint_sve_take(a)); /* sv_early: a run the whole free search did not want */
    if (hs < 0 || hs > 1)
        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    if (!b && rc == PB_OK && hs != 1) /* held_local (joint_heldlocal.c) */
        rc = joint_heldlocal_run(&b, a, v, &ph, err, force);
    if (!b && rc == PB_OK && hs != 1) /* held_warm (joint_heldwarm.c) */
        rc = joint_heldwarm_run(&b, a, v, &ph, err, force, share);
    if (!b && rc == PB_OK && hs != 1 && bsv) { /* sv_lazy's: the same search */
        b = bsv;
        bsv = NULL;
    }
    if (!b && rc == PB_OK && hs != 1) {
        joint_params phs = ph; /* held_repair, held_swaps (joint_heldwarm.c) */
        joint_heldwarm_rounds(&phs, params);
        rc = joint_init_one(&b, v, &phs, err, 1, share, force);
        if (rc == PB_OK) /* the caller's options (metadata) */
            joint_heldwarm_rounds_back(b, params);
    }
    joint_close(bsv); /* sv_lazy's held search, not wanted by the whole free one */
    a->selshare = NULL;
    if (b)
        b->selshare = NULL;
    *gshare = joint_pshare_hand(share); /* the gate's pairing (joint_pshare.c) */
    joint_selshare_free(share);
    if (rc != PB_OK) {
        joint_close(w);
        joint_close(a);
        return rc;
    }
    /* each one's log-likelihood, then with the order terms (ll_share:
     * from the same sums, joint_llshare.c) */
    double l0[2] = {0, 0}, lo[2] = {0, 0};
sv_again: /* sv_lazy=3: the paused held search resumed, the choice made again */
    rc = b ? joint_llshare_scores(a, b, l0, lo) : joint_heldskip_scores(a, l0, lo);
    if (rc == PB_OK)
        rc = joint_thrpick_scores(a, b, l0); /* thread_soft_pick (joint_thrpick.c) */
    double la = lo[0], lb = lo[1], l0a = l0[0], l0b = l0[1];
    if (rc != PB_OK) {
        joint_close(w);
        joint_close(a);
        joint_close(b);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    /* chosen by the model as it stands (delays, counts, durations), each
     * solution under its own refit; the order terms' scores are reported
     * only: they prefer the held search even where services overtake
     * (docs/joint.md) */
    /* tie_choose (joint_tiechoose.c): for the comparison only */
    double c0a = l0a, c0b = l0b;
    joint_tiechoose_adjust(a, b, &c0a, &c0b);
    joint *keep = c0b > c0a + JOINT_RESTART_MARGIN ? b : a;
    /* the busy test (joint_pick.c): a model check that needs no pairing */
    double *pst = NULL, psum[3] = {0, 0, 0};
    int pick_held = keep == b; /* in: the likelihood's choice (busy_space) */
    if (params->busy_test && b) {
        rc = joint_pick(a, b, &pst, psum, &pick_held);
        if (rc != PB_OK) {
            joint_close(w);
            joint_close(a);
            joint_close(b);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        if (pick_held)
            keep = b;
    }
    /* busy_partial (joint_partial.c): where the free search is kept and
     * services found serialising are where the two differ, a third search
     * holding the order only on their links, kept by the busy test's vote */
    joint *c = NULL;
    joint_params pc = ph;
    double csum[4] = {0, 0, 0, 0};
    char *hold = keep == a && params->busy_test && params->busy_partial && b
                     ? joint_partial_names(a, pst)
                     : NULL;
    int svw = joint_sv_held_wanted(b, keep == b || hold); /* sv_lazy=3 (joint_sv.c) */
    if (svw) {
        free(hold);
        free(pst);
        if (svw < 0) {
            joint_close(w);
            joint_close(a);
            joint_close(b);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        }
        a->sv_rec[0] = 5;
        goto sv_again;
    }
    if (hold) {
        pc.hold_svc = hold;
        rc = joint_init_one(&c, v, &pc, err, 1, NULL, force);
        free(hold);
        if (rc != PB_OK) {
            free(pst);
            joint_close(w);
            joint_close(a);
            joint_close(b);
            return rc;
        }
        pc.hold_svc = c->p.hold_svc; /* c's own copy, for the checks below */
        if (joint_partial_vote(a, c, pst, csum))
            keep = c;
        keep->part_sum[0] = 1;
        keep->part_sum[1] = csum[0];
        keep->part_sum[2] = csum[1];
        keep->part_sum[3] = keep == c;
        keep->part_sum[4] = csum[2];
        keep->part_sum[5] = csum[3];
    }
    keep->pord_chosen = keep == b || keep == c ? 2 : 1;
    joint_heldskip_carry(keep, a); /* held_skip's record (joint_heldskip.c) */
    joint_heldlocal_carry(keep, a); /* held_local's record (joint_heldlocal.c) */
    joint_heldwarm_carry(keep, a); /* held_warm's record (joint_heldwarm.c) */
    if (keep != a) /* sv_lazy's record (joint_sv.c) */
        memcpy(keep->sv_rec, a->sv_rec, sizeof keep->sv_rec);
    if (keep != a) /* sv_pre's (joint_svpre.c) */
        memcpy(keep->svp_rec, a->svp_rec, sizeof keep->svp_rec);
    if (b)
        keep->pairs_shared = b->pairs_shared; /* pairs_share: the run's (joint_pshare.c) */
    if (pwd.on) { /* pair_window: a fallback, or the check of the window's choice */
        keep->pwin = pwd;
        if (params->pair_window_check && pwd.window_kind)
            keep->pwin.full_kind = keep == a ? 1 : keep->ser_bb == 3 ? 3 : 2;
    }
    keep->pord_ll[0] = l0a;
    keep->pord_ll[1] = l0b;
    keep->pord_ll[2] = la;
    keep->pord_ll[3] = lb;
    if (keep != a) /* thread_soft_pick's record (joint_thrpick.c) */
        memcpy(keep->thrpick, a->thrpick, sizeof keep->thrpick);
    keep->pick_stat = pst;
    keep->pick_sum[0] = psum[0];
    keep->pick_sum[1] = psum[1];
    keep->pick_sum[2] = pick_held;
    keep->pick_sum[3] = psum[2];
    if (keep == c) {
        joint_close(a);
        joint_close(b);
    } else {
        joint_close(c);
        joint *oth = keep == b ? a : b; /* unp_alt: the other kept (joint_unpalt.c) */
        if (other && oth && (!oth->sv_paused || params->unp_wboth))
            *other = oth;
        else
            joint_close(oth);
    }
    if (keep != b) { /* the early run checks the held search only */
        joint_close(w);
        w = NULL;
    }
    /* learned parallel calls checked by the same search without them
     * (joint_bbserial.c); the held one by the early run when there is one */
    if (joint_bbserial_wanted(keep)) {
        joint_params pp = keep == b ? ph : keep == c ? pc : *params;
        pp.parallel = 1;
        joint *k2 = NULL;
        if (!w) {
            rc = joint_init_one(&w, v, &pp, err, keep == b || keep == c, *gshare, force);
            if (w)
                w->selshare = NULL;
        }
        if (rc != PB_OK) {
            joint_close(keep);
            return rc;
        }
        rc = joint_bbserial_pick(keep, w, &k2);
        if (rc != PB_OK) {
            joint_close(keep);
            joint_close(w);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        if (k2 == w)
            joint_heldskip_carry(w, keep);
        if (k2 == w)
            joint_heldlocal_carry(w, keep);
        if (k2 == w)
            joint_heldwarm_carry(w, keep);
        if (k2 == w) /* sv_lazy's record (joint_sv.c) */
            memcpy(w->sv_rec, keep->sv_rec, sizeof w->sv_rec);
        if (k2 == w) /* sv_pre's (joint_svpre.c) */
            memcpy(w->svp_rec, keep->svp_rec, sizeof w->svp_rec);
        joint_close(k2 == w ? keep : w);
        keep = k2;
        w = NULL;
    }
    joint_close(w); /* an early run the held search did not need */
    if (declined) {
        keep->ser_declined = declined;
        keep->ser_free[0] = free_ever;
        keep->ser_free[1] = free_end;
    }
    *out = keep;
    return PB_OK;
}

/* pair_window (joint_pwin.c): the choice on a window of the trace, then
 * the chosen search alone when the window's verdict is firm, else
 * init_choose; pwin in: the first search's window (the unpaired re-run
 * reuses it) */
static int init_search(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err, const unsigned char *force, joint_pwin *pwin,
                       joint **other)
{
    const char *m = params->pair_order;
    joint_pwin pwd;
    memset(&pwd, 0, sizeof pwd);
    *out = NULL;
    if ((!m || !strcmp(m, "auto")) && params->pair_window > 0) {
        if (pwin && pwin->on) {
            pwd = *pwin;
        } else {
            int rw = joint_pwin_window(v, params, &pwd, err);
            if (rw != PB_OK)
                return rw;
            if (pwin)
                *pwin = pwd;
        }
        joint_params ph = *params;
        ph.order = "on";
        if (pwd.decision && !params->pair_window_check)
            return joint_pwin_one(out, v, params, &ph, &pwd, err, force);
    }
    return init_choose(out, v, params, err, force, &pwd, other);
}

/* joint_pwin.c's way into the searches: one search (pord: holding the
 * order of answers), or pair_order's whole choice without pair_window */
int joint_search_one(joint **out, const pb_trace_view *v, const joint_params *params,
                     pb_error *err, int pord, const unsigned char *force)
{
    return joint_init_one(out, v, params, err, pord, NULL, force);
}

int joint_search_choose(joint **out, const pb_trace_view *v, const joint_params *params,
                        pb_error *err)
{
    return init_choose(out, v, params, err, NULL, NULL, NULL);
}

/* joint_unpmerge.c's way in: the set-up with the pairs and parents given */
int joint_search_given(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err, int pord, const uint32_t *mate, const uint32_t *gpar)
{
    return joint_init_one_g(out, v, params, err, pord, NULL, NULL, mate, gpar, 0);
}

/* joint_heldwarm.c's way in: the held search from the pairs and parents
 * given */
int joint_search_warm(joint **out, const pb_trace_view *v, const joint_params *params,
                      pb_error *err, joint_selshare *share, const uint32_t *mate,
                      const uint32_t *gpar)
{
    return joint_init_one_g(out, v, params, err, 1, share, NULL, mate, gpar, 1);
}

/* joint_unpwin.c's way in: the search with the forced messages */
int joint_search_forced(joint **out, const pb_trace_view *v, const joint_params *params,
                        pb_error *err, const unsigned char *force)
{
    return init_search(out, v, params, err, force, NULL, NULL);
}

/* The search (init_search); then, without call ids and under loss, which
 * messages stay unpaired (joint_unpaired.c): when the min-cost pairing
 * leaves other messages of some link unpaired, the search runs again with
 * those, and its result is kept. */
int joint_init_search(joint **out, const pb_trace_view *v, const joint_params *params,
                      pb_error *err, unsigned char **force_out)
{
    joint *s = NULL;
    *out = NULL;
    if (force_out)
        *force_out = NULL;
    joint_pwin pw;
    memset(&pw, 0, sizeof pw);
    double lrec[6]; /* unp_lite: one forced search where the loss shows first (joint_unplite.c) */
    double crec[12]; /* unp_cert: its record (joint_unpcert.c) */
    memset(crec, 0, sizeof crec);
    int rc = joint_unpl_run(&s, v, params, err, force_out, lrec, crec);
    if (rc != PB_OK || s) {
        *out = s;
        return rc;
    }
    joint *alt = NULL; /* unp_alt: the other free / held solution (joint_unpalt.c) */
    rc = init_search(&s, v, params, err, NULL, &pw,
                         (params->unp_alt || params->unp_wboth) && params->unpaired == 1
                             ? &alt : NULL);
    if (rc == PB_OK && params->unp_cert == 1) /* unp_cert=1: a measurement */
        rc = joint_ucert_measure(s, v, params, err, crec);
    if (rc != PB_OK) {
        joint_close(s);
        return rc;
    }
    unsigned char *force = NULL;
    joint_unp_rec *recs = NULL;
    size_t nrecs = 0, changed = 0;
    rc = joint_unpaired_choose(s, &force, &recs, &nrecs, &changed);
    double arec[4] = {0, 0, 0, 0};
    joint_params p2; /* unp_pcheck: the first search's verdict (joint_unpinh.c) */
    joint_unpinh_params(s, params, &p2);
    /* unp_alt=3: the cut only where the default's window is over
     * unp_win_max and the cut's is not; else the default's second search */
    if (rc == PB_OK && force && params->unp_alt == 3) {
        int g = joint_unpa_gate(s, force, params);
        if (g != 1) {
            p2.unp_alt = 0;
            joint_close(alt);
            alt = NULL;
        }
        rc = g < 0 ? PB_ENOMEM : PB_OK;
    }
    if (rc == PB_OK && force && alt && params->unp_alt && params->unp_win &&
        params->unp_pieces) {
        rc = joint_unpa_first(&s, alt, v, err, arec); /* unp_alt (joint_unpalt.c) */
        alt = NULL;
    }
    if (force && alt && params->unp_wboth) { /* unp_wboth: lent to the second search */
        s->uwb_other = alt;
        alt = NULL;
    }
    joint_close(alt);
    if (rc != PB_OK) {
        joint_close(s->uwb_other);
        s->uwb_other = NULL;
        free(force);
        joint_unpaired_free(recs, nrecs);
        joint_close(s);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    if (force) {
        joint *t = NULL;
        double lp[6] = {0, 0, 0, 0, 0, 0}; /* unp_predict: a measurement (joint_unplp.c) */
        rc = joint_unplp_predict(s, v, params, force, err, lp);
        if (rc == PB_OK && params->unp_win && params->unp_pieces && params->unpaired == 1)
            rc = joint_unpw_second(&t, v, &p2, s, force, err); /* joint_unpwin.c */
        else
            rc = init_search(&t, v, &p2, err, force, &pw, NULL);
        joint_close(s->uwb_other); /* unp_wboth (joint_unpwboth.c) */
        s->uwb_other = NULL;
        if (rc == PB_OK)
            joint_unpinh_after(t, params, &p2);
        if (rc == PB_OK) /* unp_repair, unp_swaps (joint_unprounds.c) */
            joint_unpr_after(t, params);
        if (rc == PB_OK) { /* unp_alt's record (joint_unpalt.c) */
            memcpy(t->p.unp_alt_rec, arec, sizeof arec);
            memcpy(s->p.unp_alt_rec, arec, sizeof arec);
        }
        if (rc == PB_OK && lp[0] != 0) /* unp_predict: the second search's choice */
            joint_unplp_second(s, t, lp);
        if (rc != PB_OK) {
            free(force);
            joint_unpaired_free(recs, nrecs);
            joint_close(s);
            return rc;
        }
        /* unpaired=3: the first search is kept beside the second for
         * joint_init's check (joint_unpck.c; not here, so the check's
         * copy, which runs this function, cannot reach it again) */
        if (params->unpaired == 3 || (params->unp_pieces && params->unpaired == 1))
            t->unp_first = s;
        else
            joint_close(s);
        s = t;
        s->unp_rerun = 1;
    }
    s->unp_rec = recs;
    s->nunp_rec = nrecs;
    s->unp_changed = changed;
    memcpy(s->unpl_rec, lrec, sizeof s->unpl_rec); /* unp_lite's record */
    memcpy(s->ucert_rec, crec, sizeof s->ucert_rec); /* unp_cert's record */
    if (s->unp_first) /* also where the first search is the output */
        memcpy(s->unp_first->ucert_rec, crec, sizeof s->ucert_rec);
    if (force_out)
        *force_out = force;
    else
        free(force);
    *out = s;
    return PB_OK;
}
