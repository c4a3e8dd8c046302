/*
 * joint_idle.c - the moments a service served no request, for the nesting
 * test of the pairing without call ids (joint_align.c, docs/joint/shapes.md
 * "Robustness").
 *
 * A service's count of open requests is the calls it received less the
 * answers it sent; an idle start is a moment the count falls to zero.  A
 * lost answer would keep the count above zero for the rest of the trace
 * and hide every later idle start (on a synthetic hotel-like trace at 2 %
 * loss the frontend showed 13 of its 635 idle starts, and the nesting test
 * let a shifted pairing through).  So a call open longer than IDLE_EXPIRE
 * times the service's IDLE_QX quantile of last-in-first-out durations (an
 * answer closes the latest open call; a lost message does not shift those
 * pairs) is taken as one whose answer was lost and no longer counts.  The
 * count falling to zero that way is no idle start (its moment is unknown):
 * only an answer sent can start one.  A lost call makes the count one too
 * low while its request is open, so another request's answer may leave it
 * at zero: an idle start that is none (and a pair of the lost call's link
 * that spans it looks shifted).  The lost call's answer then finds no open
 * call; the idle starts of the last IDLE_QW-quantile duration before such an
 * answer are dropped.  Both only at a service that shows a lost message
 * (an answer that finds no open call, or a call left open at the end):
 * elsewhere the plain count, so a trace without loss keeps every idle
 * start, however long some of its requests.
 */
#include "joint_int.h"

#include <stdlib.h>
#include "pb_sort.h"

#define IDLE_EXPIRE 4.0 /* a call open this many times ... */
#define IDLE_QX 0.9     /* ... this quantile of the durations counts as unanswered */
#define IDLE_QW 0.9     /* an answer without a call clears this quantile before it */
typedef struct idle_ev {
    uint32_t node;
    int up;
    pb_ns t;
} idle_ev;

static int cmp_idle_ev(const void *x, const void *y)
{
    const idle_ev *a = x, *b = y;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return b->up - a->up;
}

static int cmp_ns(const void *x, const void *y)
{
    pb_ns a = *(const pb_ns *)x, b = *(const pb_ns *)y;
    return a < b ? -1 : a > b;
}

/* one service's events ev[0..ne): *T = IDLE_EXPIRE times the IDLE_QX
 * quantile of its last-in-first-out durations (the expiry age), *W = their
 * IDLE_QW quantile (the window an answer without a call clears); both 0
 * without any, or when no message of the service looks lost (open, dur:
 * scratch of ne times) */
static void idle_ages(const idle_ev *ev, size_t ne, pb_ns *open, pb_ns *dur, pb_ns *T, pb_ns *W)
{
    size_t sp = 0, nd = 0, orphans = 0;
    for (size_t e = 0; e < ne; e++) {
        if (ev[e].up)
            open[sp++] = ev[e].t;
        else if (sp > 0)
            dur[nd++] = ev[e].t - open[--sp];
        else
            orphans++;
    }
    *T = *W = 0;
    /* no sign of a lost message (every answer found an open call, and
     * none is left open): the plain count */
    if (nd == 0 || (orphans == 0 && sp == 0))
        return;
    pb_sort(dur, nd, sizeof *dur, cmp_ns);
    size_t qx = (size_t)(IDLE_QX * (double)nd), qw = (size_t)(IDLE_QW * (double)nd);
    *T = (pb_ns)(IDLE_EXPIRE * (double)dur[qx < nd ? qx : nd - 1]);
    *W = dur[qw < nd ? qw : nd - 1];
}

int joint_idle_starts(const pb_msg *m, size_t n, uint32_t nn, pb_ns **idle, size_t **off)
{
    idle_ev *ev = malloc((n + 1) * sizeof *ev);
    pb_ns *open = malloc((n + 1) * sizeof *open), *dur = malloc((n + 1) * sizeof *dur);
    *idle = malloc((n + 1) * sizeof **idle);
    *off = calloc((size_t)nn + 2, sizeof **off);
    if (!ev || !open || !dur || !*idle || !*off) {
        free(ev);
        free(open);
        free(dur);
        return PB_ENOMEM;
    }
    size_t ne = 0;
    for (size_t i = 0; i < n; i++) {
        if (m[i].type == PB_TYPE_CALL && m[i].dst < nn)
            ev[ne++] = (idle_ev){m[i].dst, 1,
                                 m[i].recv_ts != PB_TS_NONE ? m[i].recv_ts : m[i].ts};
        else if (m[i].type == PB_TYPE_RETURN && m[i].src < nn)
            ev[ne++] = (idle_ev){m[i].src, 0, m[i].ts};
    }
    pb_sort(ev, ne, sizeof *ev, cmp_idle_ev);
    size_t ni = 0;
    for (size_t e0 = 0; e0 < ne;) {
        size_t e1 = e0;
        while (e1 < ne && ev[e1].node == ev[e0].node)
            e1++;
        pb_ns T, W;
        idle_ages(ev + e0, e1 - e0, open, dur, &T, &W);
        /* open[lo..sp): the open calls' times, ascending; an answer closes
         * the latest, expiry drops the oldest */
        size_t lo = 0, sp = 0, n0 = ni;
        for (size_t e = e0; e < e1; e++) {
            while (T > 0 && lo < sp && open[lo] < ev[e].t - T)
                lo++;
            if (lo == sp)
                lo = sp = 0;
            if (ev[e].up)
                open[sp++] = ev[e].t;
            else if (sp > lo) {
                if (--sp == lo)
                    (*idle)[ni++] = ev[e].t;
            } else {
                /* an answer with no open call: its call was lost, and its
                 * request was open at the idle starts of the last T */
                while (W > 0 && ni > n0 && (*idle)[ni - 1] > ev[e].t - W)
                    ni--;
            }
        }
        (*off)[ev[e0].node + 1] = ni - n0;
        e0 = e1;
    }
    for (uint32_t x = 0; x < nn; x++)
        (*off)[x + 1] += (*off)[x];
    free(ev);
    free(open);
    free(dur);
    return PB_OK;
}

