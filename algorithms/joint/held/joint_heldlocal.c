/*
 * joint_heldlocal.c - joint without call ids: the held search run only on
 * the requests around the pairs in question (`held_local`;
 * docs/joint/speed_late.md, "The held search on a window (h206)").
 *
 * With pair_order=auto init_choose (joint.c) runs a free search, then one
 * holding the order of answers and calls (the held search), and keeps the
 * likelier of the two under the model (each under its own refit), or the
 * one the busy test picks.  held_skip (joint_heldskip.c) leaves the held
 * search out where the free solution leaves few pairs in question; on
 * OnlineBoutique as a black box hundreds of pairs are in question and the
 * held search is kept on some minutes and thrown away on others, so it
 * cannot be left out -- but the order terms act only where two calls of a
 * link are open at once at the callee (a consecutive pair in question).
 *
 * The rule: the seeds are the top-level requests (of the free search)
 * holding a call of a consecutive pair in question, on any link; the
 * window is every message of a seed request, widened (held_local_pad > 0)
 * by the requests whose pairs overlap a seed's span padded by that many
 * times its length on each side; it is closed under the free search's
 * requests, so no pair and no parent of the free search crosses its
 * border.  The held search runs on the window as a trace of its own; its
 * pairs and parents, with the free search's outside the window, make the
 * held solution, set up on the whole trace with the pairs and parents
 * given (joint_search_given, as unp_win's merge, joint_unpwin.c) and
 * refitted once.  That solution then goes into init_choose's choice as the
 * held search did: the same likelihood (the whole trace's, under its own
 * refit), the same busy test.  A window holding more than held_local_max
 * of the messages, a free search that learned a parallel call (the
 * searches part at their parallel flags, joint_heldskip.c), or a run with
 * forced messages runs the whole held search.
 *
 * Not exact: the held search on the whole trace may re-pair outside the
 * window, and its model is fitted on every message; the windowed one
 * proposes from a model fitted on the window.  Metadata: held_local=
 * window|whole seeds= window_msgs= of_msgs= pairs_free= pairs_window=
 * (reason= when whole).
 */
#include "joint_int.h"
#include "pb_sort.h"

#include <stdlib.h>
#include <string.h>

typedef struct hl_ent {
    pb_ns t;
    uint32_t p;
} hl_ent;

static int hl_cmp(const void *x, const void *y)
{
    const hl_ent *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

typedef struct hl_ivl {
    pb_ns a, b, bmax;
} hl_ivl;

static int hl_ivl_cmp(const void *x, const void *y)
{
    const hl_ivl *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a;
}

/* the seeds (per root pair, seed[]), from the consecutive pairs in question
 * of every link: whole pairs by arrival at the callee (cr, then pair
 * number), y in question after x when y arrived before x was answered
 * (joint_order.c's count) */
static int hl_seeds(const joint *f, const uint32_t *root, unsigned char *seed, size_t *nq)
{
    hl_ent *e = malloc(((size_t)f->npairs + 1) * sizeof *e);
    if (!e)
        return PB_ENOMEM;
    for (uint32_t l = 0; l < f->nlinks; l++) {
        uint32_t m = 0;
        for (uint32_t i = f->bylink_off[l]; i < f->bylink_off[l + 1]; i++) {
            uint32_t p = f->bylink[i];
            if (f->pr[p].call != JOINT_NONE && f->pr[p].ret != JOINT_NONE)
                e[m++] = (hl_ent){f->pr[p].cr, p};
        }
        if (m > 1)
            pb_sort(e, m, sizeof *e, hl_cmp);
        for (uint32_t i = 1; i < m; i++) {
            const jpair *x = &f->pr[e[i - 1].p], *y = &f->pr[e[i].p];
            if (y->rs < x->rs || (f->p.held_local_seed != 2 && y->cr < x->rs)) {
                uint32_t rx = root[e[i - 1].p], ry = root[e[i].p];
                if (rx != JOINT_NONE)
                    seed[rx] = 1;
                if (ry != JOINT_NONE)
                    seed[ry] = 1;
                (*nq)++;
            }
        }
    }
    free(e);
    return PB_OK;
}

/* held_local_pad > 0: the requests whose pairs overlap a seed request's
 * span widened by pad times its length on each side (rin[], per root) */
static int hl_widen(const joint *f, const uint32_t *root, const pb_ns *lo, const pb_ns *hi,
                    const unsigned char *seed, unsigned char *rin)
{
    uint32_t np = f->npairs;
    const pb_msg *m = f->v.msgs;
    size_t k = 0;
    for (uint32_t r = 0; r < np; r++)
        k += seed[r] != 0;
    hl_ivl *iv = malloc((k + 1) * sizeof *iv);
    if (!iv)
        return PB_ENOMEM;
    k = 0;
    for (uint32_t r = 0; r < np; r++)
        if (seed[r] && lo[r] != PB_TS_NONE) {
            pb_ns len = (pb_ns)(f->p.held_local_pad * (double)(hi[r] - lo[r]));
            iv[k++] = (hl_ivl){lo[r] - len, hi[r] + len, 0};
        }
    pb_sort(iv, k, sizeof *iv, hl_ivl_cmp);
    for (size_t j = 0; j < k; j++)
        iv[j].bmax = j > 0 && iv[j - 1].bmax > iv[j].b ? iv[j - 1].bmax : iv[j].b;
    for (uint32_t q = 0; q < np; q++) {
        uint32_t c = f->pr[q].call, r = f->pr[q].ret;
        if (root[q] == JOINT_NONE || (c == JOINT_NONE && r == JOINT_NONE))
            continue;
        pb_ns a, b;
        joint_pair_span(m, c, r, &a, &b);
        size_t x0 = 0, x1 = k; /* the last span starting at or before b */
        while (x0 < x1) {
            size_t mid = (x0 + x1) / 2;
            if (iv[mid].a <= b)
                x0 = mid + 1;
            else
                x1 = mid;
        }
        if (x0 > 0 && iv[x0 - 1].bmax >= a)
            rin[root[q]] = 1;
    }
    free(iv);
    return PB_OK;
}

/* the window into in[] (per message); the seeds and pairs in question */
static int hl_window(const joint *f, unsigned char *in, size_t *nseed, size_t *nwin, size_t *nq)
{
    size_t n = f->v.n;
    uint32_t np = f->npairs;
    const pb_msg *m = f->v.msgs;
    uint32_t *root = malloc(((size_t)np + 1) * sizeof *root);
    pb_ns *lo = malloc(((size_t)np + 1) * sizeof *lo), *hi = malloc(((size_t)np + 1) * sizeof *hi);
    unsigned char *seed = calloc((size_t)np + 1, 1), *rin = calloc((size_t)np + 1, 1);
    int rc = root && lo && hi && seed && rin ? PB_OK : PB_ENOMEM;
    *nseed = *nwin = *nq = 0;
    for (uint32_t q = 0; rc == PB_OK && q < np; q++) {
        root[q] = joint_unp_root(f, q);
        lo[q] = hi[q] = PB_TS_NONE;
    }
    for (size_t i = 0; rc == PB_OK && i < n; i++) {
        uint32_t q = f->pair_of_msg[i];
        uint32_t r = q == JOINT_NONE ? JOINT_NONE : root[q];
        if (r == JOINT_NONE)
            continue;
        if (lo[r] == PB_TS_NONE || m[i].ts < lo[r])
            lo[r] = m[i].ts;
        if (hi[r] == PB_TS_NONE || m[i].ts > hi[r])
            hi[r] = m[i].ts;
    }
    if (rc == PB_OK)
        rc = hl_seeds(f, root, seed, nq);
    for (uint32_t r = 0; rc == PB_OK && r < np; r++) {
        *nseed += seed[r];
        rin[r] = seed[r];
    }
    if (rc == PB_OK && f->p.held_local_pad > 0)
        rc = hl_widen(f, root, lo, hi, seed, rin);
    for (size_t i = 0; rc == PB_OK && i < n; i++) {
        uint32_t q = f->pair_of_msg[i];
        in[i] = q != JOINT_NONE && root[q] != JOINT_NONE && rin[root[q]];
        *nwin += in[i];
    }
    free(root);
    free(lo);
    free(hi);
    free(seed);
    free(rin);
    return rc;
}

/* the nesting test's records (metadata) copied from the free search */
static void hl_align_copy(joint *o, const joint *f)
{
    if (!f->align_rec || !f->nalign_rec)
        return;
    joint_align_rec *r = malloc(f->nalign_rec * sizeof *r);
    if (!r)
        return; /* metadata only */
    memcpy(r, f->align_rec, f->nalign_rec * sizeof *r);
    free(o->align_rec);
    o->align = f->align;
    o->align_rec = r;
    o->nalign_rec = f->nalign_rec;
}

int joint_heldlocal_run(joint **out, joint *a, const pb_trace_view *v, const joint_params *ph,
                        pb_error *err, const unsigned char *force)
{
    *out = NULL;
    a->hloc[0] = 0;
    if (a->p.held_local <= 0 || force)
        return PB_OK;
    size_t n = v->n, nseed = 0, nwin = 0, nq = 0;
    a->hloc[0] = 2; /* whole, unless the window is searched */
    if (joint_serial_flags(a) + joint_bbserial_ever(a) > 0) {
        a->hloc[5] = 1; /* reason: learned parallel call */
        return PB_OK;
    }
    unsigned char *in = calloc(n + 1, 1);
    if (!in)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    int rc = hl_window(a, in, &nseed, &nwin, &nq);
    a->hloc[1] = (double)nseed;
    a->hloc[2] = (double)nwin;
    a->hloc[6] = (double)nq;
    if (rc != PB_OK || !nseed || (double)nwin > a->p.held_local * (double)n) {
        free(in);
        a->hloc[5] = !nseed ? 2 : 3; /* no pair in question; window over the limit */
        return rc == PB_OK ? PB_OK : pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    pb_trace_view sv = *v;
    uint32_t *sub = NULL;
    pb_msg *sm = NULL;
    int vrc = joint_window_view(v, in, nwin, &sv, &sm, &sub);
    uint32_t *mate = malloc((n + 1) * sizeof *mate), *gpar = malloc((n + 1) * sizeof *gpar);
    joint *t = NULL, *b = NULL;
    if (vrc != PB_OK || !mate || !gpar) {
        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        goto done;
    }
    rc = joint_search_one(&t, &sv, ph, err, 1, NULL);
    if (rc != PB_OK)
        goto done;
    size_t from[2] = {0, 0};
    joint_unpw_given(a, t, in, sub, mate, gpar, from);
    joint_close(t);
    rc = joint_search_given(&b, v, ph, err, 1, mate, gpar);
    if (rc == PB_OK)
        rc = joint_fit_order(b);
    if (rc != PB_OK) {
        joint_close(b);
        b = NULL;
        rc = pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        goto done;
    }
    hl_align_copy(b, a);
    a->hloc[0] = 1;
    a->hloc[3] = (double)from[0];
    a->hloc[4] = (double)from[1];
    *out = b;
done:
    free(in);
    free(sm);
    free(sub);
    free(mate);
    free(gpar);
    return rc;
}

void joint_heldlocal_carry(joint *to, const joint *from)
{
    if (to == from)
        return;
    for (int i = 0; i < 7; i++)
        to->hloc[i] = from->hloc[i];
}

int joint_heldlocal_meta(const joint *s, pb_result *res)
{
    if (joint_heldwarm_meta(s, res) != PB_OK) /* held_warm (joint_heldwarm.c) */
        return PB_ENOMEM;
    if (joint_svc_meta(s, res) != PB_OK) /* sv_cut (joint_svcut.c) */
        return PB_ENOMEM;
    if (joint_svp_meta(s, res) != PB_OK) /* sv_pre (joint_svpre.c) */
        return PB_ENOMEM;
    if (joint_sv_meta(s, res) != PB_OK) /* sv_lazy (joint_sv.c) */
        return PB_ENOMEM;
    if (!s->hloc[0])
        return PB_OK;
    if (s->hloc[0] == 1)
        return pb_result_meta(res, "held_local=window in_question=%.0f seeds=%.0f window_msgs=%.0f "
                                   "of_msgs=%zu pairs_free=%.0f pairs_window=%.0f limit=%g pad=%g",
                              s->hloc[6], s->hloc[1], s->hloc[2], s->v.n, s->hloc[3], s->hloc[4],
                              s->p.held_local, s->p.held_local_pad);
    static const char *why[] = {"", "learned_parallel", "no_pair_in_question", "window_over_max"};
    int w = s->hloc[5] >= 1 && s->hloc[5] <= 3 ? (int)s->hloc[5] : 0;
    return pb_result_meta(res, "held_local=whole reason=%s in_question=%.0f seeds=%.0f "
                               "window_msgs=%.0f of_msgs=%zu limit=%g pad=%g",
                          why[w], s->hloc[6], s->hloc[1], s->hloc[2], s->v.n, s->p.held_local,
                          s->p.held_local_pad);
}
