/*
 * joint_unpwin.c - unpaired=1's second search on a window of the trace
 * (`-s unp_win=1` with `unpaired=1 unp_pieces=1`; docs/joint/loss.md,
 * "The second search on a window").
 *
 * unp_pieces (joint_unppiece.c) compares the first search with a second
 * one run on the whole trace with the forced messages (joint_unpaired.c's
 * choice) and keeps, piece by piece, the second's partition where the
 * whole trace's model, refitted outside the pieces, finds it likelier.
 * The second search over the whole trace is most of the rule's cost
 * (h143: ~4x the first search), yet what it changes is near the messages
 * whose state the choice changed.
 *
 * Here the second search runs on a sub-trace only: the top-level requests
 * (of the first search) holding a changed message are the seeds; every
 * message sent within a seed's span widened by that span's length on
 * each side is in the window, and the window is closed under the first
 * search's requests (a request with one message in it comes in whole), so
 * no pair and no parent of the first search crosses its border.  The
 * sub-trace is searched as a trace of its own (init_search with the
 * forced messages restricted to it); its pairs and parents, with the first
 * search's outside the window, make the second solution, set up on the
 * whole trace with the pairs and parents given (joint_search_given, as
 * the merge) and refitted once.  The pieces are then scored as before,
 * under the whole trace's model (joint_unpp_take): the sub-search's own
 * model, fitted on fewer messages, only proposes.  A window holding more
 * than unp_win_max (default 0.5) of the messages runs the whole second search
 * instead (loss everywhere: no saving, the same result as unp_win=0).
 */
#include "joint_int.h"
#include "pb_sort.h"
#include <stdlib.h>
#include <string.h>

static uint32_t first_msg(const joint *o, uint32_t q)
{
    return o->pr[q].call != JOINT_NONE ? o->pr[q].call : o->pr[q].ret;
}

typedef struct uw_ivl {
    pb_ns a, b;
} uw_ivl;

static int uw_cmp(const void *x, const void *y)
{
    const uw_ivl *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a;
}

typedef struct uw_pt {
    pb_ns a, b;   /* the seed request's span (first search) */
    pb_ns bmax;   /* the largest b of the entries up to here */
} uw_pt;

static int uw_pt_cmp(const void *x, const void *y)
{
    const uw_pt *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a;
}

/* unp_win=2: the requests a changed message can touch (the window by
 * candidate requests).  A changed message (left unpaired now and paired by
 * the first search, or the reverse) moves the pairs that could trade
 * partners or parents with its request: the first search's pairs whose
 * interval (call to return) overlaps the span of the changed message's
 * request (lo[], hi[] per root pair) widened by unp_cand_pad times its
 * length on each side.  Their top-level requests and the seeds' (seed[],
 * per root pair) are marked in rin[].  Pairs of the message's own link
 * only were tried: on the hand-made lost-call test the children's link
 * is needed (2 requests lost without it).  O(n log n).  PB_OK or
 * PB_ENOMEM */
static int uw_cross(const joint *f, const unsigned char *force, const uint32_t *root,
                    const pb_ns *lo, const pb_ns *hi, const unsigned char *seed,
                    unsigned char *rin, int med)
{
    size_t n = f->v.n, k = 0;
    const pb_msg *m = f->v.msgs;
    for (size_t i = 0; i < n; i++)
        k += force[i] != 0 && f->pair_of_msg[i] != JOINT_NONE;
    uw_pt *pt = malloc((k + 1) * sizeof *pt);
    joint_unpb *ub = NULL; /* unp_busy: the links' busy periods (joint_unpbusy.c) */
    /* unp_alt=2: each link's median pair (joint_unpalt.c) */
    pb_ns *lw = med ? malloc(((size_t)f->nlinks + 1) * sizeof *lw) : NULL;
    if (!pt || (f->p.unp_busy && joint_unpb_build(f, &ub) != PB_OK) || (med && !lw)) {
        free(pt);
        free(lw);
        joint_unpb_free(ub);
        return PB_ENOMEM;
    }
    if (lw && joint_unpa_link_spans(f, lw) != PB_OK) {
        free(pt);
        free(lw);
        joint_unpb_free(ub);
        return PB_ENOMEM;
    }
    k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t q = f->pair_of_msg[i];
        if (q == JOINT_NONE || !force[i] || root[i] == JOINT_NONE)
            continue;
        int half = f->pr[q].call == JOINT_NONE || f->pr[q].ret == JOINT_NONE;
        if ((force[i] == 1 && !half) || (force[i] == 2 && half))
            {
            pb_ns a = lo[root[i]], b = hi[root[i]];
            pb_ns len = (pb_ns)(f->p.unp_cand_pad * (double)(b - a));
            pt[k] = (uw_pt){a - len, b + len, 0};
            if (lw && f->pr[q].link < f->nlinks) { /* unp_alt=2: the message's own
                                                      pair widened by its link's median */
                pt[k] = (uw_pt){m[i].ts - lw[f->pr[q].link], m[i].ts + lw[f->pr[q].link], 0};
                uint32_t c = f->pr[q].call, r = f->pr[q].ret;
                if (c != JOINT_NONE && m[c].ts - lw[f->pr[q].link] < pt[k].a)
                    pt[k].a = m[c].ts - lw[f->pr[q].link];
                if (r != JOINT_NONE && m[r].ts + lw[f->pr[q].link] > pt[k].b)
                    pt[k].b = m[r].ts + lw[f->pr[q].link];
            }
            if (ub)
                joint_unpb_cut(ub, f->pr[q].link, m[i].ts, &pt[k].a, &pt[k].b);
            k++;
        }
    }
    pb_sort(pt, k, sizeof *pt, uw_pt_cmp);
    for (size_t j = 0; j < k; j++)
        pt[j].bmax = j > 0 && pt[j - 1].bmax > pt[j].b ? pt[j - 1].bmax : pt[j].b;
    for (uint32_t q = 0; q < f->npairs; q++) {
        if (seed[q])
            rin[q] = 1;
        uint32_t c = f->pr[q].call, r = f->pr[q].ret;
        if (c == JOINT_NONE && r == JOINT_NONE)
            continue;
        pb_ns a, b;
        joint_pair_span(m, c, r, &a, &b);
        /* the last span starting at or before b; some span up to it ends
         * at or after a */
        size_t x0 = 0, x1 = k;
        while (x0 < x1) {
            size_t mid = (x0 + x1) / 2;
            if (pt[mid].a <= b)
                x0 = mid + 1;
            else
                x1 = mid;
        }
        if (x0 > 0 && pt[x0 - 1].bmax >= a) {
            uint32_t rq = joint_unp_root(f, q);
            if (rq != JOINT_NONE)
                rin[rq] = 1;
        }
    }
    free(pt);
    free(lw);
    joint_unpb_free(ub);
    return PB_OK;
}

/* the window into in[] (per message 1: in it); the seeds' count into
 * *nseed.  0 when no message changed state (nothing to search) */
static int uw_window(const joint *f, const unsigned char *force, unsigned char *in,
                     size_t *nseed, size_t *nwin, int med)
{
    const double pad = f->p.unp_win_pad;
    size_t n = f->v.n;
    const pb_msg *m = f->v.msgs;
    uint32_t np = f->npairs;
    uint32_t *root = malloc((n + 1) * sizeof *root);
    pb_ns *lo = malloc(((size_t)np + 1) * sizeof *lo), *hi = malloc(((size_t)np + 1) * sizeof *hi);
    unsigned char *seed = calloc((size_t)np + 1, 1), *rin = calloc((size_t)np + 1, 1);
    uw_ivl *iv = NULL;
    int rc = root && lo && hi && seed && rin ? PB_OK : PB_ENOMEM;
    *nseed = *nwin = 0;
    for (uint32_t q = 0; rc == PB_OK && q < np; q++) {
        lo[q] = PB_TS_NONE;
        hi[q] = PB_TS_NONE;
    }
    size_t ns = 0;
    for (size_t i = 0; rc == PB_OK && i < n; i++) {
        uint32_t q = f->pair_of_msg[i];
        root[i] = q == JOINT_NONE ? JOINT_NONE : joint_unp_root(f, q);
        uint32_t r = root[i];
        if (r == JOINT_NONE)
            continue;
        if (lo[r] == PB_TS_NONE || m[i].ts < lo[r])
            lo[r] = m[i].ts;
        if (hi[r] == PB_TS_NONE || m[i].ts > hi[r])
            hi[r] = m[i].ts;
        /* changed: left unpaired now and paired by the first search, or
         * paired now and left unpaired by it */
        int half = f->pr[q].call == JOINT_NONE || f->pr[q].ret == JOINT_NONE;
        if ((force[i] == 1 && !half) || (force[i] == 2 && half)) {
            ns += !seed[r];
            seed[r] = 1;
        }
    }
    if (rc == PB_OK && ns && f->p.unp_win == 2) {
        /* unp_win=2: the window by candidate requests, no time padding */
        rc = uw_cross(f, force, root, lo, hi, seed, rin, med);
        for (size_t i = 0; rc == PB_OK && i < n; i++) {
            in[i] = root[i] != JOINT_NONE && rin[root[i]];
            *nwin += in[i];
        }
        ns = rc == PB_OK ? ns : 0;
    } else if (rc == PB_OK && ns) {
        iv = malloc(ns * sizeof *iv);
        if (!iv)
            rc = PB_ENOMEM;
    }
    size_t k = 0;
    for (uint32_t r = 0; rc == PB_OK && iv && r < np; r++)
        if (seed[r]) {
            pb_ns len = (pb_ns)(pad * (double)(hi[r] - lo[r]));
            iv[k].a = lo[r] - len;
            iv[k].b = hi[r] + len;
            k++;
        }
    if (rc == PB_OK && k) {
        pb_sort(iv, k, sizeof *iv, uw_cmp);
        size_t j = 0; /* merged, disjoint, in order */
        for (size_t t = 1; t < k; t++) {
            if (iv[t].a <= iv[j].b) {
                if (iv[t].b > iv[j].b)
                    iv[j].b = iv[t].b;
            } else
                iv[++j] = iv[t];
        }
        k = j + 1;
        /* messages in a window; their requests come in whole */
        for (size_t i = 0; i < n; i++) {
            size_t a = 0, b = k; /* the last interval starting at or before ts */
            while (b - a > 1) {
                size_t c = (a + b) / 2;
                if (iv[c].a <= m[i].ts)
                    a = c;
                else
                    b = c;
            }
            in[i] = iv[a].a <= m[i].ts && m[i].ts <= iv[a].b;
            if (in[i] && root[i] != JOINT_NONE)
                rin[root[i]] = 1;
        }
        for (size_t i = 0; i < n; i++) {
            if (root[i] != JOINT_NONE && rin[root[i]])
                in[i] = 1;
            *nwin += in[i];
        }
    }
    *nseed = ns;
    free(root);
    free(lo);
    free(hi);
    free(seed);
    free(rin);
    free(iv);
    return rc;
}

int joint_window_view(const pb_trace_view *v, const unsigned char *in, size_t nwin,
                      pb_trace_view *sv, pb_msg **block, uint32_t **sub)
{
    pb_obs *so;
    pb_msg *sm = pb_msgs_alloc(nwin, v->obs != NULL, &so);
    uint32_t *sb = malloc((nwin ? nwin : 1) * sizeof *sb);
    if (!sm || !sb) {
        free(sm);
        free(sb);
        return PB_ENOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < v->n && k < nwin; i++)
        if (in[i]) {
            pb_view_copy(sm, so, k, v, i);
            sb[k++] = (uint32_t)i;
        }
    *sv = *v;
    sv->msgs = sm;
    sv->obs = so;
    sv->n = nwin;
    *block = sm;
    *sub = sb;
    return PB_OK;
}

/* the sub-search's pairs and parents (sub: message of the sub-trace ->
 * message of the trace) and the first search's outside the window into
 * mate / gpar (joint_unpmerge.c's encoding) */
void joint_unpw_given(const joint *f, const joint *t, const unsigned char *in,
                      const uint32_t *sub, uint32_t *mate, uint32_t *gpar, size_t *from)
{
    size_t n = f->v.n;
    for (size_t i = 0; i < n; i++) {
        mate[i] = JOINT_NONE;
        gpar[i] = JOINT_UNPM_SKIP;
    }
    for (uint32_t q = 0; q < f->npairs; q++) {
        uint32_t c = f->pr[q].call, r = f->pr[q].ret, m = first_msg(f, q);
        if (m == JOINT_NONE || in[m])
            continue; /* the window's requests are closed: c, r and the parent are in */
        if (c != JOINT_NONE && r != JOINT_NONE) {
            mate[c] = r;
            mate[r] = c;
        }
        gpar[m] = f->par[q] == JOINT_NONE ? JOINT_NONE : first_msg(f, f->par[q]);
        from[0]++;
    }
    for (uint32_t q = 0; q < t->npairs; q++) {
        uint32_t c = t->pr[q].call, r = t->pr[q].ret, m = first_msg(t, q);
        if (m == JOINT_NONE)
            continue;
        if (c != JOINT_NONE && r != JOINT_NONE) {
            mate[sub[c]] = sub[r];
            mate[sub[r]] = sub[c];
        }
        gpar[sub[m]] = t->par[q] == JOINT_NONE ? JOINT_NONE : sub[first_msg(t, t->par[q])];
        from[1]++;
    }
}

int joint_unpw_second(joint **out, const pb_trace_view *v, const joint_params *params,
                      joint *f, const unsigned char *force, pb_error *err)
{
    *out = NULL;
    size_t n = v->n, nseed = 0, nwin = 0;
    unsigned char *in = calloc(n + 1, 1);
    if (!in)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    int cm = joint_unpc_mode(params); /* unp_copy: in a copy (joint_unpcopy.c) */
    int rc = uw_window(f, force, in, &nseed, &nwin, params->unp_alt >= 2 || cm == 2);
    if (rc != PB_OK || !nseed ||
        ((double)nwin > params->unp_win_max * (double)n && !params->unp_alt && !cm)) {
        if (rc == PB_OK && nseed && params->unp_freeze && !params->unp_where) {
            /* unp_freeze: the whole trace, the outside frozen (joint_unpfreeze.c) */
            if (params->unp_freeze == 2) {
                memset(in, 0, n);
                rc = uw_window(f, force, in, &nseed, &nwin, 1);
            }
            if (rc == PB_OK && nseed)
                rc = joint_unpf_second(out, v, params, f, force, in, nseed, err);
            else if (rc != PB_OK)
                rc = pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
            free(in);
            return rc;
        }
        unsigned char *keep_in = NULL; /* unp_where: the window kept (joint_unpwhere.c) */
        if (rc == PB_OK && nseed && params->unp_where && !params->unp_busy)
            keep_in = in;
        else
            free(in);
        if (rc != PB_OK)
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        /* the whole second search (the window would save little);
         * unp_whole_one: the first search's free / held choice only
         * (joint_unpone.c) */
        int one = 0;
        joint_params pr = *params; /* unp_repair, unp_swaps (joint_unprounds.c) */
        joint_unpr_params(&pr, params);
        int warm = 0, wb = 0; /* unp_warm (joint_unpwarm.c), unp_wboth (joint_unpwboth.c) */
        rc = joint_unpwb_second(out, v, &pr, f, force, err, &wb);
        if (rc == PB_OK && !wb)
            rc = joint_unpwarm_second(out, v, &pr, f, force, err, &warm);
        warm = warm || wb;
        if (rc == PB_OK && !warm)
            rc = params->unp_whole_one ? joint_unpo_second(out, v, &pr, f, force, err, &one)
                                       : joint_search_forced(out, v, &pr, err, force);
        one = warm ? 5 : one;
        if (rc == PB_OK) {
            (*out)->unpw_on = wb ? 7 : one == 5 ? 5 : one == 2 ? 4 : one ? 3 : 2;
            (*out)->unpw_seeds = nseed;
            (*out)->unpw_msgs = nwin;
            (*out)->unpwh_in = keep_in;
            keep_in = NULL;
        }
        free(keep_in);
        return rc;
    }
    pb_trace_view sv = *v;
    uint32_t *sub = NULL;
    pb_msg *sm = NULL;
    int vrc = joint_window_view(v, in, nwin, &sv, &sm, &sub);
    unsigned char *sf = malloc(nwin);
    uint32_t *mate = malloc((n + 1) * sizeof *mate), *gpar = malloc((n + 1) * sizeof *gpar);
    if (vrc != PB_OK || !sf || !mate || !gpar) {
        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        goto out;
    }
    for (size_t k = 0; k < nwin; k++)
        sf[k] = force[sub[k]];
    joint *t = NULL;
    /* unp_win_one=1: the window searched with the first search's free /
     * held choice only (pair_order=auto runs both searches on the window).
     * Off: the window's own choice differs on 14 of 30 held-out draws and
     * loses 56 intact requests there (docs/joint/shapes.md, "Loss without
     * call ids, twenty-second wave") */
    joint_params pp = *params;
    if (params->unp_win_one && f->pord_chosen)
        pp.pair_order = f->pord_chosen == 2 ? "on" : "off";
    rc = joint_search_forced(&t, &sv, &pp, err, sf);
    if (rc != PB_OK)
        goto out;
    size_t from[2] = {0, 0};
    joint_unpw_given(f, t, in, sub, mate, gpar, from);
    int win_chosen = t->pord_chosen; /* unp_cert=3: the window's own choice (joint_unpcert.c) */
    joint_close(t);
    joint *s2 = NULL;
    rc = joint_search_given(&s2, v, &f->p, err, f->pord_hold, mate, gpar);
    if (rc != PB_OK)
        goto out;
    /* the first search's choices (free / held, busy test) stand for the
     * trace: the sub-search's were made on the window only */
    s2->pord_chosen = f->pord_chosen;
    s2->ucert_win = win_chosen;
    s2->pwin = f->pwin;
    for (int i = 0; i < 4; i++) {
        s2->pord_ll[i] = f->pord_ll[i];
        s2->pick_sum[i] = f->pick_sum[i];
    }
    for (int i = 0; i < 6; i++)
        s2->part_sum[i] = f->part_sum[i];
    s2->unpw_on = 1;
    s2->unpw_seeds = nseed;
    s2->unpw_msgs = nwin;
    s2->unpw_pairs[0] = from[0];
    s2->unpw_pairs[1] = from[1];
    *out = s2;
out:
    free(in);
    free(sm);
    free(sub);
    free(sf);
    free(mate);
    free(gpar);
    return rc;
}

/* unp_alt=3 (joint_unpalt.c): the window's size in messages, by
 * candidate requests (med 0) or by each changed message's pair widened by
 * its link's median (med 1); 0 when no message changed.  PB_OK or
 * PB_ENOMEM */
int joint_unpw_size(const joint *f, const unsigned char *force, int med, size_t *nwin)
{
    size_t nseed = 0;
    unsigned char *in = calloc(f->v.n + 1, 1);
    *nwin = 0;
    if (!in)
        return PB_ENOMEM;
    int rc = uw_window(f, force, in, &nseed, nwin, med);
    if (!nseed)
        *nwin = 0;
    free(in);
    return rc;
}

int joint_unpw_meta(const joint *s, pb_result *res)
{
    if (!s->unpw_on)
        return PB_OK;
    if (s->unpw_on == 6) /* unp_freeze (joint_unpfreeze.c) */
        return pb_result_meta(res, "unp_win=frozen seeds=%zu window_msgs=%zu of_msgs=%zu "
                                   "frozen_pairs=%zu moved=%zu by=%s", s->unpw_seeds,
                              s->unpw_msgs, s->v.n, s->unpw_pairs[0], s->unpw_pairs[1],
                              s->p.unp_freeze == 2 ? "link_median" : "candidate_requests");
    if (s->unpw_on >= 2)
        return pb_result_meta(res, "unp_win=whole seeds=%zu window_msgs=%zu of_msgs=%zu "
                                   "reason=%s%s", s->unpw_seeds, s->unpw_msgs, s->v.n,
                              s->unpw_seeds ? "window_over_max" : "no_changed_message",
                              s->unpw_on == 3 ? " search=first_choice"
                              : s->unpw_on == 4 ? " search=other_choice"
                              : s->unpw_on == 5 ? " search=warm"
                              : s->unpw_on == 7 ? " search=warm_both" : "");
    return pb_result_meta(res, "unp_win=window seeds=%zu window_msgs=%zu of_msgs=%zu "
                               "pairs_first=%zu pairs_window=%zu%s%s%s",
                          s->unpw_seeds, s->unpw_msgs, s->v.n, s->unpw_pairs[0],
                          s->unpw_pairs[1],
                          s->p.unp_win == 2 ? " by=candidate_requests" : "",
                          s->p.unp_win == 2 && s->p.unp_busy ? " cut=link_busy_period" : "",
                          s->p.unp_win_one ? " search=first_choice" : "");
}
