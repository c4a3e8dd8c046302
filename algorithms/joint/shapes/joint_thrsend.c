/*
 * joint_thrsend.c - thread_soft_starts_end: the starts' bar applied after
 * the searches, only to the services still unweighed (h308;
 * docs/joint/shapes_w36.md "The starts' bar after the searches (h308)";
 * issue 28, held-out mesh s61 x2 1 ms black box and keepalive x2).
 *
 * Why.  thread_soft_starts (joint_thrstart.c, h302) weighs a service over
 * thread_soft's rate bar where its visits' starts keep off the threads its
 * open visits hold (a worker owned by its visit takes no new visit).  It
 * mends mesh s61 x2 1 ms black box (22.0 -> 45.1 %: fe, whose answers'
 * rate never comes under the bar on a wrong pairing) and keepalive s3 x2 ns
 * black box (31.2 -> 66.6 %: front), but it lowers the dev row mesh s1 x2
 * 1 ms black box 53.65 -> 52.07.  The root (h302's trace): on s1 the rate
 * weighs fe anyway, at 0.029, from the pass that opens every visit at once;
 * the starts weigh it at 0.5 from the first pass, before that, and the
 * searches take another path.  The bar acts in every pass of every search,
 * so it moves rows at services the rate weighs too (recur s1 x1 1 ms black
 * box, h302's "thread_soft_z's unexplained dev row moves").
 *
 * The rule (thread_soft_starts_end=Z, default 0: off; with
 * thread_soft_pick 6-7, the default 7).  The searches run as without it.
 * At the end of the term's search (thread_soft_pick's inner search with
 * the term), the services it does not weigh (rate over thread_soft) whose
 * starts kept off by at least Z sds on some pass are the ones the starts
 * could add.  None (every row where the rate weighs what the starts would):
 * the output is the one without the option, the searches' paths untouched.
 * Else one more search runs as the term's search with thread_soft_starts=Z
 * on those services only (the rest by the rate alone, as before), and it
 * replaces the solution chosen (the term's or the one without it) only
 * where thread_soft_pick's own check (the thread test's misses against the
 * delays' ll, and pick=7's moves per mended miss) prefers it to that
 * solution.  Metadata thread_soft_starts_end= with the services, the two
 * lls without the term and which was kept; the search's thread_soft_starts=
 * lines name the services it weighed.  Cost: one more search where some
 * service is left; nothing where none is.
 */
#include "joint_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int joint_thrse_mask(const joint *s, const joint_params *params, unsigned char **mask)
{
    *mask = NULL;
    if (!(params->thread_soft_starts_end > 0) || params->thread_soft_pick < 6 ||
        !(params->thread_soft > 0))
        return PB_OK;
    uint32_t nn = s->nnodes, k = 0;
    unsigned char *mk = calloc((size_t)nn + 1, 1);
    if (!mk)
        return PB_ENOMEM;
    for (uint32_t a = 0; a < nn; a++) {
        double r[3];
        if (!joint_thread_svc(s, a, r) || r[0] > 0 || !(r[1] > params->thread_soft) ||
            !isfinite(r[2]) || r[2] < params->thread_soft_starts_end)
            continue; /* weighed, starts never measured or short of the level */
        mk[a] = 1;
        k++;
    }
    if (k == 0)
        free(mk);
    else
        *mask = mk;
    return PB_OK;
}

int joint_thrse_end(joint **out, unsigned char *mask, const pb_trace_view *v,
                    const joint_params *params, double lk, pb_error *err)
{
    joint *k = *out, *e = NULL;
    if (!mask)
        return PB_OK;
    joint_params p3 = *params;
    p3.thread_soft_pick = 1; /* as the term's search: the choice of search without the term */
    p3.thread_soft_starts = params->thread_soft_starts_end;
    p3.thread_soft_starts_end = 0;
    p3.thrse_only = mask;
    int rc = joint_init(&e, v, &p3, err);
    if (rc != PB_OK) {
        free(mask);
        joint_close(k);
        *out = NULL;
        return rc;
    }
    /* its options as the caller's from here on (a calibration copy runs the
     * whole procedure again); its thread state keeps the level and mask */
    e->p.thread_soft_pick = params->thread_soft_pick;
    e->p.thread_soft_starts = params->thread_soft_starts;
    e->p.thread_soft_starts_end = params->thread_soft_starts_end;
    e->p.thrse_only = NULL;
    joint_thread_mute(e, 1);
    double le = joint_loglik(e);
    joint_thread_mute(e, 0);
    /* the check writes its records into both: k's kept for its own lines */
    double mv[4], ho[5], rt[5];
    memcpy(mv, k->thrmove, sizeof mv);
    memcpy(ho, k->thrho, sizeof ho);
    joint_thread_rt_get(k, rt);
    int with = params->thread_soft_pick == 7 ? joint_thrmove_pick(e, k, le, lk) /* joint_thrmove.c */
                                             : joint_thrtest_pick(e, k, le, lk); /* joint_thrtest.c */
    uint32_t n = 0;
    for (uint32_t a = 0; a < k->nnodes; a++)
        n += mask[a];
    joint *keep = with ? e : k;
    if (with) {
        memcpy(e->thrpick, k->thrpick, sizeof e->thrpick); /* thread_soft_pick's record */
        joint_close(k);
    } else {
        memcpy(k->thrmove, mv, sizeof mv);
        memcpy(k->thrho, ho, sizeof ho);
        joint_thread_rt(k, rt);
        joint_close(e);
    }
    keep->thrse[0] = with ? 2 : 1;
    keep->thrse[1] = n;
    keep->thrse[2] = le;
    keep->thrse[3] = lk;
    free(keep->thrse_svc);
    keep->thrse_svc = mask;
    *out = keep;
    return PB_OK;
}

int joint_thrse_meta(const joint *s, pb_result *res)
{
    if (!(s->thrse[0] > 0) || !s->thrse_svc)
        return PB_OK;
    char names[512];
    size_t w = 0;
    names[0] = 0;
    for (uint32_t a = 0; a < s->nnodes && w + 2 < sizeof names; a++)
        if (s->thrse_svc[a]) {
            int r = snprintf(names + w, sizeof names - w, "%s%s", w ? "," : "",
                             pb_strtab_str(s->v.nodes, a));
            if (r < 0 || (size_t)r >= sizeof names - w) {
                names[w] = 0; /* the rest left out: the count says how many */
                break;
            }
            w += (size_t)r;
        }
    return pb_result_meta(res, "thread_soft_starts_end=on services=%.0f names=%s level=%.2f "
                          "ll_starts_search=%.1f ll_before=%.1f kept=%s",
                          s->thrse[1], names, s->p.thread_soft_starts_end, s->thrse[2],
                          s->thrse[3], s->thrse[0] > 1 ? "starts_search" : "before");
}
