/*
 * joint_fifolifo.c - joint without call ids: a link the first-in,
 * first-out test (joint_fifo.c) finds served by one worker in arrival
 * order is checked once more, against a pool whose answers overtake each
 * other (fifo_lifo; docs/joint/shapes_late.md, "A pool with heavy-tailed
 * service times is not one worker (h261)").
 *
 * The fifo test compares the one-worker service times S_k = d_k -
 * max(c_k, d_(k-1)) of busy and idle starts.  A pool whose service times
 * are heavy-tailed (most answers short, a few forty times longer) passes
 * it: while one long call is open the short ones that arrive leave before
 * it, so the time-ordered pairs shift by one, every S is a gap between two
 * answers, busy and idle starts alike; the long call never shows as an S
 * at all.  The free search then keeps those pairs (about 80 % wrong on the
 * heavytail app at twice its load), and the busy test, fed by its
 * solution, holds the whole trace in order (docs/joint/shapes_late.md,
 * h252, h254).
 *
 * What tells the two apart is which pairing makes the durations tight.
 * One worker: S is the service time, tight where the service is, while
 * pairing each answer with the latest call still open (last in, first
 * out) gives waits of every length.  A pool where short calls overtake a
 * long one: last in, first out pairs the short calls right (the long one
 * stays at the bottom of the stack), so its durations are the service
 * times, tight, and the S are gaps between answers, loose.  The test
 * splits the link's calls by arrival into JOINT_FIFOLIFO_BLOCKS blocks of
 * equal count; in each, the spread (q75 - q25) / q50 of the S of its calls
 * and of the last-in-first-out durations of its calls; a block counts
 * when the latter is strictly the smaller (a median of 0, a stamp
 * resolution too coarse to say, counts against).  The link keeps its
 * first-in-first-out pairs unless JOINT_FIFOLIFO_WINS or more blocks count:
 * a one-sided sign test at level 11 / 1024 = 0.011 of "neither pairing is
 * the tighter" (one worker predicts the opposite sign).  Fewer than
 * JOINT_FIFOLIFO_MIN calls a block: not tested (kept).
 *
 * No pair made by a call id enters (only free_ret pairs, as in the fifo
 * test); a link the fifo test does not pass is not looked at, so every
 * other output is unchanged.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define JOINT_FIFOLIFO_BLOCKS 10
#define JOINT_FIFOLIFO_WINS 9
#define JOINT_FIFOLIFO_MIN 20

static int cmp_ns(const void *x, const void *y)
{
    pb_ns a = *(const pb_ns *)x, b = *(const pb_ns *)y;
    return a < b ? -1 : a > b;
}

/* (q75 - q25) / q50 of v[0..m) (sorts v); -1 when m < 4 or q50 <= 0 */
static double spread(pb_ns *v, uint32_t m)
{
    if (m < 4)
        return -1;
    pb_sort(v, m, sizeof *v, cmp_ns);
    pb_ns a = v[m / 4], b = v[(3 * (size_t)m) / 4], med = v[m / 2];
    if (med <= 0)
        return -1;
    return (double)(b - a) / (double)med;
}

static int joint_fifolifo_check(joint *s, uint32_t l)
{
    if (!s->p.fifo_lifo || !s->fifo_link || !s->fifo_link[l])
        return PB_OK;
    if (!s->flifo) {
        s->flifo = calloc(4 * ((size_t)s->nlinks + 1), sizeof *s->flifo);
        if (!s->flifo)
            return PB_ENOMEM;
    }
    double *st = s->flifo + 4 * (size_t)l;
    const uint32_t B = JOINT_FIFOLIFO_BLOCKS;
    uint32_t n = s->bylink_off[l + 1] - s->bylink_off[l];
    pb_ns *cr = malloc(((size_t)n + 1) * sizeof *cr), *rs = malloc(((size_t)n + 1) * sizeof *rs);
    pb_ns *S = malloc(((size_t)n + 1) * sizeof *S), *L = malloc(((size_t)n + 1) * sizeof *L);
    uint32_t *stk = malloc(((size_t)n + 1) * sizeof *stk);
    pb_ns *w = malloc(((size_t)n + 1) * sizeof *w);
    if (!cr || !rs || !S || !L || !stk || !w) {
        free(cr);
        free(rs);
        free(S);
        free(L);
        free(stk);
        free(w);
        return PB_ENOMEM;
    }
    /* the fifo test's pairs: whole, made by time only; calls by arrival,
     * answers by departure (the k-th with the k-th) */
    uint32_t nc = 0;
    for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
        const jpair *x = &s->pr[s->bylink[i]];
        if (!s->free_ret[s->bylink[i]] || x->call == JOINT_NONE || x->ret == JOINT_NONE)
            continue;
        cr[nc] = x->cr;
        rs[nc++] = x->rs;
    }
    pb_sort(cr, nc, sizeof *cr, cmp_ns);
    pb_sort(rs, nc, sizeof *rs, cmp_ns);
    if (nc < B * JOINT_FIFOLIFO_MIN) {
        st[0] = 1; /* looked at, too few calls: kept */
        st[1] = -1;
        nc = 0;
    }
    /* one worker's service times, k-th call with the k-th answer */
    for (uint32_t k = 0; k < nc; k++)
        S[k] = rs[k] - (k == 0 || cr[k] >= rs[k - 1] ? cr[k] : rs[k - 1]);
    /* last in, first out: each answer (in time; at one instant before
     * the call) with the latest call still open; L[k] the duration of
     * call k, -1 when no answer took it */
    uint32_t top = 0, i = 0, j = 0;
    for (uint32_t k = 0; k < nc; k++)
        L[k] = -1;
    while (j < nc) {
        if (i < nc && cr[i] < rs[j]) {
            stk[top++] = i++;
            continue;
        }
        if (top > 0) {
            uint32_t k = stk[--top];
            L[k] = rs[j] - cr[k];
        }
        j++;
    }
    uint32_t wins = 0;
    for (uint32_t b = 0; nc > 0 && b < B; b++) {
        uint32_t lo = (uint32_t)((size_t)b * nc / B), hi = (uint32_t)((size_t)(b + 1) * nc / B);
        uint32_t m = 0;
        for (uint32_t k = lo; k < hi; k++)
            w[m++] = S[k];
        double ss = spread(w, m);
        m = 0;
        for (uint32_t k = lo; k < hi; k++)
            if (L[k] >= 0)
                w[m++] = L[k];
        double sl = spread(w, m);
        wins += ss > 0 && sl >= 0 && sl < ss;
    }
    /* the whole link's spreads (metadata) */
    uint32_t m = 0;
    if (nc == 0)
        goto out;
    for (uint32_t k = 0; k < nc; k++)
        w[m++] = S[k];
    st[2] = spread(w, m);
    m = 0;
    for (uint32_t k = 0; k < nc; k++)
        if (L[k] >= 0)
            w[m++] = L[k];
    st[3] = spread(w, m);
    st[0] = 1;
    st[1] = wins;
    if (wins >= JOINT_FIFOLIFO_WINS) {
        s->fifo_link[l] = 0;
        st[0] = 2; /* withdrawn */
    }
out:
    free(cr);
    free(rs);
    free(S);
    free(L);
    free(stk);
    free(w);
    return PB_OK;
}

int joint_fifolifo_all(joint *s)
{
    int rc = PB_OK;
    for (uint32_t l = 0; rc == PB_OK && s->fifo_link && l < s->nlinks; l++)
        rc = joint_fifolifo_check(s, l);
    return rc;
}

int joint_fifolifo_withdrawn(const joint *s, uint32_t l)
{
    return s->flifo && s->flifo[4 * (size_t)l] == 2;
}

void joint_fifolifo_meta(const joint *s, pb_result *res)
{
    for (uint32_t l = 0; s->flifo && l < s->nlinks; l++) {
        const double *st = s->flifo + 4 * (size_t)l;
        if (st[0] <= 0)
            continue;
        if (st[1] < 0) {
            pb_result_meta(res, "fifo_lifo=%s>%s blocks=%d fifo=kept reason=too_few_calls",
                           pb_strtab_str(s->v.nodes, s->link_src[l]),
                           pb_strtab_str(s->v.nodes, s->link_dst[l]), JOINT_FIFOLIFO_BLOCKS);
            continue;
        }
        pb_result_meta(res, "fifo_lifo=%s>%s blocks=%d lifo_tighter=%.0f need=%d "
                            "spread_service=%.3f spread_lifo=%.3f fifo=%s",
                       pb_strtab_str(s->v.nodes, s->link_src[l]),
                       pb_strtab_str(s->v.nodes, s->link_dst[l]), JOINT_FIFOLIFO_BLOCKS, st[1],
                       JOINT_FIFOLIFO_WINS, st[2], st[3], st[0] == 2 ? "withdrawn" : "kept");
    }
}
