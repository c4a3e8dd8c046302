/*
 * joint_keyroom.c - joint: a later search starts with the per-key room
 * an earlier one of the same run ended with (`key_room`, default 1;
 * speed only, the same numbers; docs/joint/speed_w18.md "Speed, twentieth
 * wave (h156)").
 *
 * The model's per-key arrays (joint_model.c: the histogram and density
 * rows' index -- the rows themselves are pools that grow with what the
 * keys hold, joint_mrow.c -- the means, sums and ranges) grow by doubling as
 * the first refits meet new keys (delays keyed by incoming link, trigger
 * and outgoing link).  Every search of a run is a new joint, so each
 * grows them from one row: about ten doublings, each copying every row
 * so far (realloc moves them once the heap has other blocks above), and
 * joint_fit's raw copy (hraw) grows to the key count at each refit that
 * met a new key.  On TrainTicket 09:00 as a black box that copying was
 * about 3 % of the run's instructions, over its three searches (free,
 * held, the self-calibration copy).  Without call ids the held search
 * (and the other searches joint_init runs after the free one: the early
 * run, busy_partial's, parallel_check_bb's) fits the same trace, and the
 * copy is drawn from the real trace's model at about its size, so each
 * starts with the room the free search (the real trace's search) ended
 * with.
 *
 * Why exact: only capacities change.  A key's rows are written when the
 * key is made (joint_req_walk clears its histogram row and sets its
 * range, mean and sums) and its density row by the refit that made it
 * (joint_fit computes every key at or past hraw_valid; fit_fast rewrites
 * a row it has not fitted in full: joint_ff_begin), so no row is read
 * before it is written whatever the room.  joint_model.c grows the
 * arrays under fit_fast only when a new key reaches keycap, so a larger
 * keycap just means fewer copies; without fit_fast it grows at powers of
 * two whatever keycap says, and nothing is reserved.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

int joint_keyroom_test_poison = 0;

/* the test hook: bytes [from, to) of elements of sz bytes at p set to
 * 0xff (a NaN as a double) */
static void poison(void *p, size_t from, size_t to, size_t sz)
{
    if (joint_keyroom_test_poison && to > from)
        memset((char *)p + from * sz, 0xff, (to - from) * sz);
}

/* realloc *p to n elements of sz bytes (n > 0).  PB_OK or PB_ENOMEM (*p
 * kept) */
static int grow(void **p, size_t n, size_t sz)
{
    void *q = realloc(*p, n * sz);
    if (!q)
        return PB_ENOMEM;
    *p = q;
    return PB_OK;
}

int joint_keyroom_reserve(joint *s, uint32_t cap)
{
    if (!s->p.key_room || !s->p.fit_fast || cap <= s->keycap || cap > UINT32_MAX / 4)
        return PB_OK;
    const size_t c = cap;
    void *km = s->kmean, *st = s->kstat, *lo = s->hlo, *hi = s->hhi;
    /* the same arrays and sizes as joint_req_walk's growth (hist and
     * logf: their rows' index, joint_mrow.c; the pools grow with what
     * the rows hold) */
    int rc = joint_mrow_keys(s, cap);
    if (rc == PB_OK)
        rc = grow(&km, c, sizeof *s->kmean);
    s->kmean = km;
    if (rc == PB_OK)
        rc = grow(&st, 3 * c, sizeof *s->kstat);
    s->kstat = st;
    if (rc == PB_OK)
        rc = grow(&lo, c, sizeof *s->hlo);
    s->hlo = lo;
    if (rc == PB_OK)
        rc = grow(&hi, c, sizeof *s->hhi);
    s->hhi = hi;
    if (rc != PB_OK)
        return rc; /* the arrays grown so far hold what they held */
    const size_t k0 = s->keycap;
    poison(s->kmean, k0, c, sizeof *s->kmean);
    poison(s->kstat, 3 * k0, 3 * c, sizeof *s->kstat);
    poison(s->hlo, k0, c, sizeof *s->hlo);
    poison(s->hhi, k0, c, sizeof *s->hhi);
    s->keycap = cap;
    s->keyroom_set = cap;
    /* joint_fit's raw copies' ranges (their rows past hraw_valid are
     * cleared before use; the rows themselves: joint_memraw.c's pool,
     * laid out at the first fit) */
    if (cap > s->hraw_cap) {
        void *rl = s->rlo, *rh = s->rhi;
        rc = grow(&rl, c, sizeof *s->rlo);
        s->rlo = rl;
        if (rc == PB_OK)
            rc = grow(&rh, c, sizeof *s->rhi);
        s->rhi = rh;
        if (rc == PB_OK) {
            poison(s->rlo, s->hraw_cap, c, sizeof *s->rlo);
            poison(s->rhi, s->hraw_cap, c, sizeof *s->rhi);
            s->hraw_cap = cap;
        }
    }
    return rc;
}

uint32_t joint_keyroom_hint(const joint *s, const joint_selshare *share)
{
    /* the links' own guess: about one key per incoming link and output
     * of its callee, and one per link (delays keyed by trigger add some),
     * rounded up to a power of two as the doubling would; at most 2^16
     * keys' room (beyond, the arrays grow as before) */
    size_t est = s->nlinks;
    for (uint32_t e = 0; e < s->nlinks; e++) {
        uint32_t b = s->link_dst[e];
        est += (size_t)(s->out_off[b + 1] - s->out_off[b]) + 1;
    }
    uint32_t cap = 1;
    while (cap < est && cap < (1u << 16))
        cap *= 2;
    /* an earlier search of the same run: the real trace's for the
     * self-calibration's copy (p.sel_from), the free search's for the
     * later ones (share) */
    uint32_t h = s->p.sel_from ? s->p.sel_from->keycap : joint_selshare_keyroom(share);
    return h > cap ? h : cap;
}
