/*
 * joint_lateattach.c - joint: the orphans of a service whose lateness is
 * mostly chance are placed after the search (docs/joint/model.md, "Calls that
 * outlive their request", "Orphans placed after the search").
 *
 * At a service that passed the late-call test (joint_late.c) but whose
 * near orphans are mostly explained by chance (excess below 1/2,
 * joint_latesend.c: `widen=orphans`), only the orphans get the requests
 * they were sent in.  Given to the search with every other call, they
 * gave it room to move normal calls: on retries after a timeout at twice
 * the load (experiments/joint_apps_retry.conf, seed 1, with call ids),
 * counted against the truth (evaluation only), 289 of 1,450 pay calls
 * returned inside their request and were put in another one, against 219
 * when the orphans stay roots (`late_calls=0`), and joint was 3.7 points
 * below that (56.3 against 60.0 % exact).
 *
 * So where that is the case (`late_attach`), the search runs with those
 * orphans held as roots (joint_late_cand gives them no candidate while
 * s->late_hold is set); after it, their candidates are made and each is
 * put in the candidate request where it adds the most to the likelihood
 * (the model refitted on the solution without them), in order of pair;
 * then, refitted with them, each is moved to its best candidate again,
 * JOINT_LA_ROUNDS times in all.  The other calls keep the search's
 * parents.  Services that pass with an excess of 1/2 or more (a reactive
 * front end: TrainTicket's gateway) and links that are mostly orphans
 * (fire-and-forget calls: `late_link=`) are searched as before.
 * Each placement's posterior is kept (s->la_post): before the output,
 * late_trust (joint_latetrust.c) undoes those the self-calibration does
 * not trust.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>

#define NONE JOINT_NONE

int joint_la_hold(joint *s)
{
    s->late_hold = 0;
    s->la_held = s->la_moved = s->la_rooted = s->la_rounds = 0;
    free(s->la_timer);
    s->la_timer = NULL;
    if (!s->p.late_attach || !s->p.late_split || !s->late_gap)
        return 0;
    for (uint32_t a = 0; a < s->nnodes; a++)
        if (s->late_gap[a] >= 0 && !(s->late_stat[JOINT_LATE_NSTAT * (size_t)a + 7] > 0))
            s->late_hold = 1;
    if (s->late_hold && s->p.late_timer && (s->la_timer = calloc((size_t)s->nnodes + 1, 1)))
        for (uint32_t a = 0; a < s->nnodes; a++)
            s->la_timer[a] = s->late_gap[a] >= 0 &&
                             !(s->late_stat[JOINT_LATE_NSTAT * (size_t)a + 7] > 0) &&
                             2 * (uint64_t)s->nlinks + 1 < (1u << 21);
    return s->late_hold;
}

int joint_la_timer_may(const joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                       const uint32_t *k2, uint32_t n2)
{
    const jpair *qq = &s->pr[q];
    if (!s->la_timer || !s->la_timer[qq->callee] || qq->ret == NONE ||
        (s->qend && joint_ret_movable(s, q)))
        return 0;
    for (int side = 0; side < 2; side++) {
        const uint32_t *a = side ? k2 : k;
        uint32_t m = side ? n2 : n;
        for (uint32_t i = 0; i < m; i++) {
            const jpair *x = &s->pr[a[i]];
            if (x->call != NONE && x->ret != NONE && x->rr > qq->rs)
                return 1;
        }
    }
    return 0;
}

uint32_t joint_la_timer_of(const joint *s, uint32_t q, const uint32_t *k, uint32_t i, pb_ns t)
{
    const pb_ns end = s->pr[q].rs;
    const uint32_t b = s->pr[q].callee;
    /* k is sorted by call time: the latest send first */
    for (uint32_t j = i; j-- > 0;) {
        const jpair *x = &s->pr[k[j]];
        if (x->call == NONE || x->ret == NONE || s->link_src[x->link] != b || x->cs >= t)
            continue;
        if (x->rr > end)
            return k[j];
    }
    return NONE;
}

/* put p (no parent) in the candidate that gains the most when the
 * model's posterior of that candidate (the gains' softmax over p's
 * candidates) is above 1/2, else leave it a root; *to: where it went.
 * g: scratch of one double per candidate */
static int attach_best(joint *s, uint32_t p, uint32_t *to, double *g)
{
    uint32_t best = NONE, c0 = s->cand_off[p], nc = s->cand_off[p + 1] - c0;
    double bg = -INFINITY;
    *to = NONE;
    for (uint32_t j = 0; j < nc; j++) {
        uint32_t q = s->cand[c0 + j];
        double l0 = joint_req_ll(s, q);
        int rc = joint_set_parent(s, p, q);
        if (rc != PB_OK)
            return rc;
        g[j] = joint_req_ll(s, q) - l0;
        rc = joint_set_parent(s, p, NONE);
        if (rc != PB_OK)
            return rc;
        if (g[j] > bg) { /* ties: the first candidate */
            bg = g[j];
            best = q;
        }
    }
    if (best == NONE || !(bg > -INFINITY))
        return PB_OK;
    double z = 0;
    for (uint32_t j = 0; j < nc; j++)
        z += exp(g[j] - bg);
    if (s->la_post) /* for late_trust (joint_latetrust.c) */
        s->la_post[p] = 1.0 / z;
    if (!(1.0 / z > 0.5))
        return PB_OK; /* a wrong request is likelier than the right one: a root */
    *to = best;
    return joint_set_parent(s, p, best);
}

int joint_la_attach(joint *s)
{
    if (!s->late_hold)
        return PB_OK;
    s->late_hold = 0;
    int rc = joint_find_candidates(s);
    if (rc != PB_OK)
        return rc;
    uint32_t n = s->npairs, no = 0;
    uint32_t *orph = malloc(((size_t)n + 1) * sizeof *orph);
    double *g = malloc(((size_t)s->ncand + 1) * sizeof *g);
    if (!orph || !g) {
        free(orph);
        free(g);
        return PB_ENOMEM;
    }
    /* the held orphans: no parent, and now candidates (a call the search
     * kept a root for another reason has none) */
    for (uint32_t p = 0; p < n; p++)
        if (s->par[p] == NONE && s->cand_off[p + 1] > s->cand_off[p])
            orph[no++] = p;
    s->la_held = no;
    free(s->la_post);
    s->la_post = NULL;
    if (s->p.late_trust && no) {
        s->la_post = malloc(((size_t)n + 1) * sizeof *s->la_post);
        if (!s->la_post)
            rc = PB_ENOMEM;
        for (uint32_t p = 0; s->la_post && p < n; p++)
            s->la_post[p] = NAN;
        for (uint32_t i = 0; s->la_post && i < no; i++)
            s->la_post[orph[i]] = 0;
    }
    uint32_t moved = 1;
    for (int round = 0; round < JOINT_LA_ROUNDS && rc == PB_OK && no && moved; round++) {
        rc = joint_fit(s, NULL);
        moved = 0;
        s->la_rooted = 0;
        for (uint32_t i = 0; i < no && rc == PB_OK; i++) {
            uint32_t p = orph[i], was = s->par[p], to = NONE;
            if (was != NONE)
                rc = joint_set_parent(s, p, NONE);
            if (rc == PB_OK)
                rc = attach_best(s, p, &to, g);
            moved += round == 0 || to != was;
            s->la_moved += round > 0 && to != was;
            s->la_rooted += to == NONE;
        }
        s->la_rounds = round + 1;
    }
    free(orph);
    free(g);
    return rc;
}
