/*
 * joint_simlate.c - joint: the self-calibration's copy takes the real
 * trace's late-call decision (conf_sim_late; docs/joint/confidence_mid.md,
 * "Calibration of late calls, twenty-second wave (h186)"; issue 28).
 *
 * Why.  joint_late_test decides from the trace which services send calls
 * that outlive their request (late_gap, late_sgap) and how much of each
 * link to widen (late_lshare, raised by late_chance).  The copy
 * (joint_selfcal.c) ran that test on its own, smaller window: on
 * experiments/joint_models_hedge.conf (black box, seeds 1-3 and 11) the
 * copy's 2,000 pairs never pass it (no late service), so the copy's search
 * leaves every `log` call inside its enclosing requests while the real
 * trace widens frontend>log whole.  The copy then calibrates a different
 * inference, one without the widened candidates that make the real
 * rows' errors: three bins 0.8-0.99 stated, 75-83 % right.
 *
 * The rule.  In the copy (p.sel_from set), where the real trace widened
 * a link whole (late_lshare >= 1/2), the late decision is the real
 * trace's, matched by service and link name: a service late in the real
 * trace is late in the copy with the real gaps; a link's widened share is
 * the real one (after late_chance).  A service or link the real trace
 * does not have keeps none.  The copy's own test still runs (its
 * verdict replaced, with the real service's statistics row).  Confidence only: the real trace's search is
 * not touched.  Not where the late services' orphans are no more than the
 * trace's half pairs (conf_sim_late_halves; joint_sim_late_applies).
 * On by default since h191 (docs/joint/confidence.md, "conf_sim_late by
 * default").
 */
#include "joint_int.h"
#include "joint_rules.h"
#include <string.h>

/* the real trace's node of copy node b (by name), or JOINT_NONE */
static uint32_t real_node(const joint *s, const joint *r, uint32_t b)
{
    const char *nm = pb_strtab_str(s->v.nodes, b);
    uint32_t rb;
    if (nm && r->v.nodes && pb_strtab_find(r->v.nodes, nm, strlen(nm), &rb) && rb < r->nnodes)
        return rb;
    return JOINT_NONE;
}

/* joint_sim_late_applies: does the real trace r call for conf_sim_late?
 * A late service of r has a link widened whole (late_lshare >= 1/2; a
 * root link's calls are all orphans, not late; as late_chance does on
 * hedge), and its orphan calls outnumber r's half pairs (calls and
 * returns without their other half).  Why the second: a lost return (or
 * a lost call above) leaves calls no request encloses, the same evidence
 * the late test reads; where the halves are as many as the orphans, loss
 * may explain every one (trainticket 08:50 with 2 % of messages lost, a
 * black box: 10 orphans of ts-gateway-service against 45 halves, one call
 * widened whole), and the copy, which loses messages itself
 * (conf_sim_loss), decides on its own window; taking the real verdict
 * there made rows stated 0.975 91.6 % right (h191).  Optional outputs:
 * late services with a link widened whole, such links, their orphan
 * calls, r's halves.  Returns 1: applies; 2: declined for the halves; 0:
 * no link widened whole. */
int joint_sim_late_applies(const joint *r, size_t *nlate, size_t *nwhole, double *orphans,
                           size_t *halves)
{
    size_t nl = 0, nw = 0;
    double orph = 0;
    for (uint32_t a = 0; r->late_lshare && r->late_gap && a < r->nnodes; a++) {
        if (r->late_gap[a] < 0)
            continue;
        size_t w = 0;
        for (uint32_t k = 0; k < r->nlinks; k++)
            w += r->link_src[k] == a && r->late_lshare[k] >= 0.5;
        if (!w)
            continue;
        nl++;
        nw += w;
        orph += r->late_stat ? r->late_stat[JOINT_LATE_NSTAT * (size_t)a] : 0;
    }
    size_t h = r->unmatched_calls + r->unmatched_returns;
    if (nlate)
        *nlate = nl;
    if (nwhole)
        *nwhole = nw;
    if (orphans)
        *orphans = orph;
    if (halves)
        *halves = h;
    if (!nw)
        return 0;
    return r->p.conf_sim_late_halves && orph <= (double)h ? 2 : 1;
}

/* joint_sim_late_take: in the self-calibration's copy with conf_sim_late,
 * overwrite the copy's late decision (late_gap, late_sgap, late_stat of
 * late services, late_lshare) by the real trace's (s->p.sel_from),
 * matched by name; *any: whether a service is late.  1: taken (the
 * caller skips late_chance: the real shares are already corrected), 0:
 * not applicable (not a copy, the option off, no late arrays). */
int joint_sim_late_take(joint *s, int *any)
{
    const joint *r = s->p.sel_from;
    if (!r || !s->p.conf_sim_late || !s->late_gap || !s->late_sgap)
        return 0;
    /* only where the real trace widened a late service's link whole
     * (late_lshare >= 1/2; a root link's calls are all orphans, not late;
     * as late_chance does on hedge): elsewhere the copy's own window test
     * stands, since late_trust reads the copy to undo late placements in the
     * real trace (joint_latetrust.c) and a changed copy moved one placement
     * (apps_retry s13 with call ids, fe>pay widened by orphans only) */
    if (joint_sim_late_applies(r, NULL, NULL, NULL, NULL) != 1)
        return 0;
    uint32_t nn = s->nnodes;
    *any = 0;
    for (uint32_t a = 0; a < nn; a++) {
        uint32_t ra = real_node(s, r, a);
        int late = ra != JOINT_NONE && r->late_gap && r->late_gap[ra] >= 0;
        s->late_gap[a] = late ? r->late_gap[ra] : -1;
        s->late_sgap[a] = late && r->late_sgap ? r->late_sgap[ra] : s->late_gap[a];
        /* its statistics too: late_stat[7] (widen every call) is read by
         * the candidates (joint_cand.c), late_attach and late_tie */
        if (late && r->late_stat && s->late_stat)
            memcpy(s->late_stat + JOINT_LATE_NSTAT * (size_t)a,
                   r->late_stat + JOINT_LATE_NSTAT * (size_t)ra, JOINT_LATE_NSTAT * sizeof *s->late_stat);
        *any |= late;
    }
    for (uint32_t l = 0; s->late_lshare && l < s->nlinks; l++) {
        uint32_t ra = real_node(s, r, s->link_src[l]), rb = real_node(s, r, s->link_dst[l]);
        double sh = 0;
        for (uint32_t k = 0; r->late_lshare && ra != JOINT_NONE && k < r->nlinks; k++)
            if (r->link_src[k] == ra && r->link_dst[k] == rb)
                sh = r->late_lshare[k];
        s->late_lshare[l] = sh;
    }
    return 1;
}
