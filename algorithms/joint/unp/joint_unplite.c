/*
 * joint_unplite.c - joint without call ids, under loss: the loss rule
 * without a whole first search (`unp_lite`, default 0 = off;
 * docs/joint/loss_w34.md, "The loss rule's cost: one search where the
 * loss shows before the search (h293)").
 *
 * With unpaired=1 the default runs the free / held search, pairs the links
 * that lost messages once more by least cost (joint_unpaired.c), runs a
 * second search with the messages that pairing leaves unpaired (forced),
 * and takes the second search's pieces where they are likelier
 * (joint_unppiece.c).  Two whole searches.  With unp_lite the loss is
 * looked for before any search: a link (caller, callee) whose messages
 * without call ids hold unequal numbers of calls and returns lost some.
 * Where one does, a cheap first search (mode 1: the free search alone;
 * 2: also one refit round and one re-split pass (iters=1, passes=1); 3:
 * also one re-pairing round (repair=1)) gives the pairs the least-cost
 * pairing starts from.  When that pairing forces messages, the forced
 * search (free / held, as always) runs once and its output is the result
 * whole: no pieces, no merge.  When it forces none (no link eligible), the
 * cheap search is dropped and the default's path runs as without the
 * option.  unp_lite=4, 5, 6: as 1, 2, 3, but the default's second search
 * follows (its window by candidate requests, or the whole trace where the
 * window holds over unp_win_max of the messages: joint_unpwin.c) and its
 * pieces are taken against the cheap search as the default takes them
 * against its first search (joint_unppiece.c, joint_unpmerge.c): the
 * default's path with the free search alone as its first search.
 * unp_lite=7, 8, 9: as 4, 5, 6 with the whole forced search always (no
 * window), its pieces taken against the cheap search.  Where no link shows unequal counts (every real input as
 * captured but the eBPF capture) nothing runs and the output is the
 * default's.
 *
 * Metadata (joint_unpl_meta): unp_lite mode= links_unequal= forced=
 * default_path=
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

static int key_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* the links (caller, callee) whose messages without call ids hold unequal
 * numbers of calls and returns; -1 out of memory */
long joint_unpl_unequal(const pb_trace_view *v, const joint_params *p)
{
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++) {
        const pb_msg *m = &v->msgs[i];
        if ((m->type == PB_TYPE_CALL || m->type == PB_TYPE_RETURN) &&
            !(p->callids && m->callid != PB_ID_NONE))
            n++;
    }
    if (!n)
        return 0;
    /* key: caller << 32 | callee, the low bit of a second word the kind */
    uint64_t *k = malloc(n * 2 * sizeof *k);
    if (!k)
        return -1;
    size_t j = 0;
    for (size_t i = 0; i < v->n; i++) {
        const pb_msg *m = &v->msgs[i];
        if (!(m->type == PB_TYPE_CALL || m->type == PB_TYPE_RETURN) ||
            (p->callids && m->callid != PB_ID_NONE))
            continue;
        int call = m->type == PB_TYPE_CALL;
        uint64_t a = call ? m->src : m->dst, b = call ? m->dst : m->src;
        k[j++] = (a << 32 | b) << 1 | (uint64_t)call; /* node indices < 2^31 */
    }
    pb_sort(k, j, sizeof *k, key_cmp);
    long links = 0;
    for (size_t i = 0; i < j;) {
        size_t e = i;
        long d = 0;
        while (e < j && k[e] >> 1 == k[i] >> 1) {
            d += (k[e] & 1) ? 1 : -1;
            e++;
        }
        links += d != 0;
        i = e;
    }
    free(k);
    return links;
}

int joint_unpl_run(joint **out, const pb_trace_view *v, const joint_params *params,
                   pb_error *err, unsigned char **force_out, double rec[6], double crec[12])
{
    *out = NULL;
    memset(rec, 0, 6 * sizeof *rec);
    /* a self-calibration copy (p.sel_from) takes the default's path: its
     * rule is seeded from the real output's taken pieces (unp_copy_taken) */
    if (params->unp_lite <= 0 || params->unpaired != 1 || params->sel_from)
        return PB_OK;
    long links = joint_unpl_unequal(v, params);
    if (links < 0)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    if (!links)
        return PB_OK;
    rec[0] = params->unp_lite;
    rec[1] = (double)links;
    joint_params pl = *params;
    pl.unp_lite = 0;
    int lvl = (params->unp_lite - 1) % 3 + 1, pieces = params->unp_lite >= 4;
    if (lvl >= 2) {
        pl.iters = 1;
        pl.passes = 1;
    }
    if (lvl >= 3)
        pl.repair = 1;
    joint *s = NULL;
    int rc = joint_search_one(&s, v, &pl, err, 0, NULL); /* the free search alone */
    if (rc != PB_OK)
        return rc;
    if (s->sv_paused && (rc = joint_sv_resume(s)) != PB_OK) {
        joint_close(s);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    unsigned char *force = NULL;
    joint_unp_rec *recs = NULL;
    size_t nrecs = 0, changed = 0;
    rc = joint_unpaired_choose(s, &force, &recs, &nrecs, &changed);
    if (rc == PB_OK && force && pieces && params->unp_cert >= 2) {
        /* unp_cert (joint_unpcert.c): where the held search could have
         * won, the free search dropped and the default's path runs */
        int h = joint_ucert_held(s, force, crec);
        if (h != 0) {
            joint_close(s);
            free(force);
            joint_unpaired_free(recs, nrecs);
            if (h < 0)
                return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
            rec[3] = 2;
            return PB_OK;
        }
    }
    if (rc != PB_OK || !force || !pieces) {
        joint_close(s);
        s = NULL;
    }
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    if (!force) { /* nothing forced: the default's path */
        joint_unpaired_free(recs, nrecs);
        rec[3] = 1;
        return PB_OK;
    }
    size_t nf = 0;
    for (size_t i = 0; i < v->n; i++)
        nf += force[i] == 1;
    rec[2] = (double)nf;
    joint_params p2 = *params;
    joint *t = NULL;
    /* with the pieces, the default's second search (its window, or the
     * whole trace where the window is over unp_win_max: joint_unpwin.c)
     * against the cheap search; without, the whole forced search */
    if (pieces && params->unp_lite <= 6 && params->unp_win && params->unp_pieces)
        rc = joint_unpw_second(&t, v, &p2, s, force, err);
    else
        rc = joint_search_forced(&t, v, &p2, err, force);
    int again = 0; /* unp_cert=3: the held search could win after all (joint_unpcert.c) */
    if (rc == PB_OK && params->unp_cert == 3 && crec[11] == 1)
        rc = joint_ucert_second(s, t, v, params, err, crec, &again);
    if (rc != PB_OK || again) {
        joint_close(t);
        joint_close(s);
        free(force);
        joint_unpaired_free(recs, nrecs);
        if (again)
            rec[3] = 3;
        return rc;
    }
    t->unp_first = s; /* unp_lite=4-6: the pieces against the cheap search (joint_init) */
    t->unp_rerun = 1;
    t->unp_rec = recs;
    t->nunp_rec = nrecs;
    t->unp_changed = changed;
    memcpy(t->unpl_rec, rec, sizeof t->unpl_rec);
    memcpy(t->ucert_rec, crec, sizeof t->ucert_rec);
    if (s) /* also where the first search is the output */
        memcpy(s->ucert_rec, crec, sizeof s->ucert_rec);
    if (force_out)
        *force_out = force;
    else
        free(force);
    *out = t;
    return PB_OK;
}

int joint_unpl_meta(const joint *s, pb_result *res)
{
    const double *r = s->unpl_rec;
    if (!s->p.unp_lite || r[0] == 0)
        return PB_OK;
    return pb_result_meta(res, "unp_lite mode=%.0f links_unequal=%.0f forced=%.0f default_path=%.0f",
                          r[0], r[1], r[2], r[3]);
}
