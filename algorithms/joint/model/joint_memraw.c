/*
 * joint_memraw.c - joint: joint_fit's copy of each key's raw histogram
 * (the memo that keeps a key's density when its counts and sums did not
 * change) held as each key's filled bins only, not a whole row of nb + 3
 * doubles per key (speed and memory only, the same numbers;
 * docs/joint/scale.md "Memory per key (h227)").
 *
 * A trace with many links (one per node pair) has as many density keys;
 * a whole row per key was 4.4 KB with bin=0.02 (nb = 550) whatever the
 * key held: a key of one delay fills one bin.  Here a key's row is its
 * three sums then its raw counts over [rlo, rhi] only, in one pool (the
 * block s->hraw points at, freed where it always was):
 *
 *   pool[0]  the pool's room, in doubles
 *   pool[1]  doubles in use
 *   pool[2]  the index's room, in keys (icap)
 *   pool[3 + 2k], pool[4 + 2k]  key k's row: its offset and room
 *   then the rows
 *
 * (counts and offsets are whole numbers below 2^53, exact as doubles).
 * A row that outgrows its room moves to the pool's end with twice the
 * room (at most nb + 3), so the pool holds at most about twice the rows'
 * sizes; it is laid out afresh whenever the memo is empty (hraw_valid 0:
 * a new joint, or joint_select's reset), so the old rows never pile up.
 *
 * Why exact: the memo compared raw[lo..hi] and the sums, with raw zero
 * outside [rlo, rhi] and lo == rlo, hi == rhi required first: the same
 * comparison on the same numbers.  Nothing else reads hraw (key_room no
 * longer reserves it: h243).
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

#define HDR 3

static size_t get(const double *p, size_t i)
{
    return (size_t)p[i];
}

/* the pool's room to at least n doubles.  PB_OK or PB_ENOMEM (kept) */
static int room(joint *s, size_t n)
{
    size_t have = get(s->hraw, 0);
    if (n <= have)
        return PB_OK;
    size_t c = have * 2 > n ? have * 2 : n;
    double *q = realloc(s->hraw, c * sizeof *q);
    if (!q)
        return PB_ENOMEM;
    s->hraw = q;
    q[0] = (double)c;
    return PB_OK;
}

int joint_mr_begin(joint *s)
{
    const size_t nk = s->nkeys ? s->nkeys : 1;
    if (s->hraw_valid == 0 || !s->hraw) { /* afresh */
        size_t n = HDR + 2 * nk, c = n > 64 ? n : 64;
        double *q = realloc(s->hraw, c * sizeof *q);
        if (!q)
            return PB_ENOMEM;
        s->hraw = q;
        q[0] = (double)c;
        q[1] = (double)n;
        q[2] = (double)nk;
        memset(q + HDR, 0, 2 * nk * sizeof *q);
        return PB_OK;
    }
    size_t icap = get(s->hraw, 2);
    if (nk <= icap)
        return PB_OK;
    /* a larger index: the rows move up by the index's growth */
    size_t ni = icap * 2 > nk ? icap * 2 : nk, d = 2 * (ni - icap), used = get(s->hraw, 1);
    if (room(s, used + d) != PB_OK)
        return PB_ENOMEM;
    double *q = s->hraw;
    size_t r0 = HDR + 2 * icap;
    memmove(q + r0 + d, q + r0, (used - r0) * sizeof *q);
    for (size_t k = 0; k < icap; k++)
        if (q[HDR + 2 * k + 1] > 0)
            q[HDR + 2 * k] += (double)d;
    memset(q + r0, 0, d * sizeof *q);
    q[1] = (double)(used + d);
    q[2] = (double)ni;
    return PB_OK;
}

const double *joint_mr_row(const joint *s, uint32_t k)
{
    const double *q = s->hraw;
    if (q[HDR + 2 * (size_t)k + 1] <= 0)
        return NULL;
    return q + get(q, HDR + 2 * (size_t)k);
}

double *joint_mr_put(joint *s, uint32_t k, size_t n)
{
    size_t have = get(s->hraw, HDR + 2 * (size_t)k + 1);
    if (n > have) {
        size_t c = have * 2 > n ? have * 2 : n, used = get(s->hraw, 1);
        if (c > (size_t)s->nb + 3)
            c = n > (size_t)s->nb + 3 ? n : (size_t)s->nb + 3;
        if (room(s, used + c) != PB_OK)
            return NULL;
        double *q = s->hraw;
        q[HDR + 2 * (size_t)k] = (double)used;
        q[HDR + 2 * (size_t)k + 1] = (double)c;
        q[1] = (double)(used + c);
    }
    return s->hraw + get(s->hraw, HDR + 2 * (size_t)k);
}

size_t joint_mr_used(const joint *s)
{
    return s->hraw ? get(s->hraw, 1) : 0;
}
