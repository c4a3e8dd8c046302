/*
 * joint_unpbusy.c - unp_win=2's window cut to the link's busy period
 * (`-s unp_busy=1`; docs/joint/loss_late.md, "The window cut where the
 * link's queue empties (h211)").
 *
 * unp_win=2 (joint_unpwin.c) seeds its window with the span of the
 * request holding a changed message (left unpaired now and paired by the
 * first search, or the reverse), widened by unp_cand_pad times its length
 * on each side, and takes in every request with a pair overlapping it.
 * On a trace whose requests are long and many at once (OnlineBoutique)
 * a few dozen such spans cover over half the trace, and the whole second
 * search runs.
 *
 * A lost message moves the pairs of its own link only until the link's
 * queue next empties: at an instant where every call of the link the
 * first search paired is answered, an in-order pairing of the messages
 * after it does not depend on the messages before it.  So the seed span
 * of a changed message is cut to the busy period of its link around it:
 * the connected part, holding the message's send time, of the union of
 * the intervals (call sent to return sent) of the link's pairs in the
 * first search (a half pair is the point of its one message).  The
 * request of the changed message still comes in whole (its seed), and
 * the window stays closed under the first search's requests.  A busy link
 * (its queue never empties) keeps the span as it was.
 */
#include "joint_int.h"
#include "pb_sort.h"
#include <stdlib.h>

typedef struct ub_ivl {
    uint32_t link;
    pb_ns a, b;
} ub_ivl;

struct joint_unpb {
    ub_ivl *c;      /* busy periods, by link then start; disjoint per link */
    size_t n;
};

static int ub_cmp(const void *x, const void *y)
{
    const ub_ivl *p = x, *q = y;
    if (p->link != q->link)
        return p->link < q->link ? -1 : 1;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

int joint_unpb_build(const joint *f, joint_unpb **out)
{
    *out = NULL;
    const pb_msg *m = f->v.msgs;
    joint_unpb *u = malloc(sizeof *u);
    ub_ivl *iv = malloc(((size_t)f->npairs + 1) * sizeof *iv);
    if (!u || !iv) {
        free(u);
        free(iv);
        return PB_ENOMEM;
    }
    size_t k = 0;
    for (uint32_t q = 0; q < f->npairs; q++) {
        uint32_t c = f->pr[q].call, r = f->pr[q].ret;
        if (c == JOINT_NONE && r == JOINT_NONE)
            continue;
        pb_ns a, b;
        joint_pair_span(m, c, r, &a, &b);
        iv[k++] = (ub_ivl){f->pr[q].link, a, b};
    }
    pb_sort(iv, k, sizeof *iv, ub_cmp);
    size_t j = 0; /* merged in place: touching or overlapping intervals join */
    for (size_t t = 1; t < k; t++) {
        if (iv[t].link == iv[j].link && iv[t].a <= iv[j].b) {
            if (iv[t].b > iv[j].b)
                iv[j].b = iv[t].b;
        } else
            iv[++j] = iv[t];
    }
    u->c = iv;
    u->n = k ? j + 1 : 0;
    *out = u;
    return PB_OK;
}

void joint_unpb_cut(const joint_unpb *u, uint32_t link, pb_ns t, pb_ns *a, pb_ns *b)
{
    /* the last period of the link starting at or before t */
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const ub_ivl *c = &u->c[mid];
        if (c->link < link || (c->link == link && c->a <= t))
            lo = mid + 1;
        else
            hi = mid;
    }
    pb_ns pa = t, pb = t;
    if (lo > 0 && u->c[lo - 1].link == link && u->c[lo - 1].b >= t) {
        pa = u->c[lo - 1].a;
        pb = u->c[lo - 1].b;
    }
    if (*a < pa)
        *a = pa;
    if (*b > pb)
        *b = pb;
    if (*b < *a) /* the span did not reach the period: the message alone */
        *a = *b = t;
}

void joint_unpb_free(joint_unpb *u)
{
    if (u) {
        free(u->c);
        free(u);
    }
}
