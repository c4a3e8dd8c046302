/*
 * joint_serial.c - joint: learned parallel calls checked by a search
 * without them, with call ids (docs/joint/model.md, "Learned parallel calls
 * checked with call ids", issue 28).
 *
 * The option `parallel` learns, per service and pair of outgoing links,
 * that a call's return is no trigger of a later output when, over the
 * requests making both, the output was sent before the return in most
 * of them.  It is learned from the current solution, so a wrong
 * assignment can teach it: when requests pile up (a slow service, a
 * fault minute), the search may stack the calls of requests that just got
 * their answer onto a request still waiting for its own call; the two
 * links then look parallel, the learned flag takes the true trigger (the
 * answer just received) away from those calls, and the solution holds
 * itself in place.
 *
 * With call ids the pairs are fixed, so a second search is a plain
 * comparison: when the search ended with at least one learned parallel
 * call, the same search runs again with parallel=1 (no learned parallel
 * calls) and its solution is kept when the model, refitted on each
 * solution, finds it likelier by more than JOINT_RESTART_MARGIN nats.
 * A trace whose search learns no parallel call runs once, as before
 * (byte for byte).  Metadata: parallel_check=on learned_parallel=N
 * chosen=learned|without log_likelihood_learned= log_likelihood_without=.
 */
#include "joint_int.h"

#include <stdlib.h>

uint32_t joint_serial_flags(const joint *s)
{
    uint32_t n = 0;
    for (uint32_t h = 0; h < s->npar; h++)
        n += s->pflag[h] != 0;
    return n;
}

/* how many of a's learned parallel calls the solution of b shows too:
 * over b's requests, the share of those making both calls whose earlier
 * call's return came after the later call was sent, tested as a's fit
 * tests it (joint_fit: at least 5 requests and a tenth of the link's, a
 * share above `parallel`).  -1: out of memory */
static long survivors(const joint *a, const unsigned char *flag, const joint *b)
{
    if (!a->npar)
        return 0;
    double *ov = calloc(2 * (size_t)a->npar, sizeof *ov);
    if (!ov)
        return -1;
    double *se = ov + a->npar;
    for (uint32_t q = 0; q < b->npairs; q++) {
        const uint32_t *k = b->kids[q].a, n = b->kids[q].n;
        uint32_t ein = b->pr[q].link;
        for (uint32_t i = 0; i < n; i++) {
            const jpair *o = &b->pr[k[i]];
            if (o->call == JOINT_NONE)
                continue;
            for (uint32_t j = 0; j < i; j++) { /* kids sorted by call time */
                const jpair *c = &b->pr[k[j]];
                if (c->ret == JOINT_NONE || c->call == JOINT_NONE || c->cs >= o->cs)
                    continue;
                uint32_t h = joint_hmap_get(&a->parmap,
                                            dkey(joint_kin(a, ein), 1 + c->link, o->link));
                if (h == JOINT_NONE || !flag[h])
                    continue;
                if (c->rr > o->cs)
                    ov[h]++;
                else
                    se[h]++;
            }
        }
    }
    long m = 0;
    for (size_t i = 0; i < a->parmap.cap; i++) {
        uint32_t h = a->parmap.v[i];
        if (h == JOINT_NONE || !flag[h])
            continue;
        uint32_t ein = (uint32_t)(a->parmap.k[i] >> 42);
        double nq = a->kein ? joint_select_link_requests(a, ein)
                            : a->bylink_off[ein + 1] - a->bylink_off[ein];
        double tot = ov[h] + se[h];
        m += tot >= 5 && tot >= 0.1 * nq && ov[h] > a->p.parallel * tot;
    }
    free(ov);
    return m;
}

long joint_serial_shown(const joint *a, const unsigned char *flag, const joint *b)
{
    return survivors(a, flag, b);
}

int joint_serial_pick_by(joint *a, joint *b, const unsigned char *flag, joint **keep)
{
    double la = joint_loglik(a), lb = joint_loglik(b);
    long m = survivors(a, flag, b);
    if (m < 0)
        return PB_ENOMEM;
    uint32_t nf = 0;
    for (uint32_t h = 0; h < a->npar; h++)
        nf += flag[h] != 0;
    *keep = m == 0 && lb > la + JOINT_RESTART_MARGIN ? b : a;
    (*keep)->ser_state = *keep == b ? 2 : 1;
    (*keep)->ser_flags = nf;
    (*keep)->ser_shown = (uint32_t)m;
    (*keep)->ser_ll[0] = la;
    (*keep)->ser_ll[1] = lb;
    return PB_OK;
}

int joint_serial_pick(joint *a, joint *b, joint **keep)
{
    return joint_serial_pick_by(a, b, a->pflag, keep);
}

int joint_serial_meta(const joint *s, pb_result *res)
{
    int rc = joint_bbserial_declined_meta(s, res);
    if (rc != PB_OK)
        return rc;
    if (s->ser_bb)
        return joint_bbserial_meta(s, res);
    if (!s->ser_state)
        return PB_OK;
    return pb_result_meta(res,
                          "parallel_check=on learned_parallel=%u shown_without=%u chosen=%s "
                          "log_likelihood_learned=%.3f log_likelihood_without=%.3f",
                          (unsigned)s->ser_flags, (unsigned)s->ser_shown,
                          s->ser_state == 2 ? "without" : "learned",
                          s->ser_ll[0], s->ser_ll[1]);
}
