/*
 * joint_bufshare.c - joint: the held search takes the free search's
 * local-search and greedy-round caches instead of new ones (part of
 * `pairs_share`, default 1; speed only, the same numbers;
 * docs/joint/speed_w18.md "Speed, twentieth wave (h165)").
 *
 * Each search allocates three caches zeroed at its first use: the small
 * walks' values (joint_vcache.c, 4096 slots), the large walks' records
 * (joint_wcache.c) and the greedy rounds' sorted returns (joint_gsort.c).
 * On TrainTicket 09:00 as a black box their callocs (the memory comes
 * back from the free search's frees, so glibc clears it) are ~1.2 M of
 * the held search's set-up.  When the free search is done it leaves them
 * in the holder the two searches already share (joint_fitfast.c,
 * select_share's); the next search of the run takes them at its first
 * local search or greedy round.
 *
 * Why exact: every entry of the three caches is stamped with the local
 * search or greedy round it was made in, and a lookup takes an entry
 * only when its stamp is the one running (vc->ls, wc->ls, gs->round).
 * The stamps come from a counter (`next`) that only goes up and is
 * handed over with the cache, so every entry the free search left is
 * stamped below anything the taker runs: never taken, as in a zeroed
 * cache.  The entries' buffers (records' arrays, sorted returns) are
 * capacities, written in full before an entry is stamped valid.
 */
#include "joint_int.h"

#include <stdlib.h>

int joint_bufshare_test_on = 0;
long joint_bufshare_test_taken = 0, joint_bufshare_test_cdir = 0;

void joint_bufshare_park(joint *s)
{
    joint **slot = s->p.pairs_share ? joint_selshare_park(s->selshare) : NULL;
    if (!slot)
        return;
    if (!*slot && !(*slot = calloc(1, sizeof **slot)))
        return; /* no memory: the next search allocates its own */
    joint *h = *slot;
    if (!h->vc) {
        h->vc = s->vc;
        s->vc = NULL;
    }
    if (!h->wc) {
        h->wc = s->wc;
        s->wc = NULL;
    }
    if (!h->gs) {
        h->gs = s->gs;
        s->gs = NULL;
    }
}

void joint_bufshare_take(joint *s)
{
    joint **slot = s->p.pairs_share ? joint_selshare_park(s->selshare) : NULL;
    joint *h = slot ? *slot : NULL;
    if (!h)
        return;
    int got = 0;
    if (!s->vc && h->vc) {
        s->vc = h->vc;
        h->vc = NULL;
        got++;
    }
    if (!s->wc && h->wc) {
        s->wc = h->wc;
        h->wc = NULL;
        got++;
    }
    if (!s->gs && h->gs) {
        s->gs = h->gs;
        h->gs = NULL;
        got++;
    }
    if (joint_bufshare_test_on)
        joint_bufshare_test_taken += got;
}

void joint_bufshare_release(joint *h)
{
    if (!h)
        return;
    joint_vcache_free(h);
    joint_wcache_free(h);
    joint_gsort_free(h);
    free(h);
}
