/*
 * joint_pshare.c - joint: the held search takes the free search's first
 * pairing of calls and returns (`pairs_share`, default 1; speed only, the
 * same numbers; docs/joint/speed_w18.md "Speed, twentieth wave (h156)").
 *
 * Without call ids (pair_order=auto) joint_init runs the free search,
 * then the held one (and, when parallel_check_bb decides early, a held
 * run without learned parallel calls), each from the trace: the set-up
 * pairs every call with a return link by link (joint_find_pairs: the
 * in-order alignment with its nesting test, joint_align.c), the same
 * work on the same messages with the same options each time -- half the
 * held search's set-up on TrainTicket (2.9 of 5.6 M instructions on
 * 09:00 as a black box).  The free search leaves a copy of what
 * joint_find_pairs made (the pair table as it stands before any search,
 * the message-to-pair map, the free returns, the counts, the alignment's
 * statistics and records) in the holder the two searches already share
 * (select_share's, joint_fitfast.c); a later search of the same trace
 * view, options and forced-unpaired messages takes it instead of pairing
 * again.
 *
 * Why exact: joint_find_pairs reads only the messages, the options named
 * in same_input() and the forced-unpaired marks (joint_unpaired.c), and
 * writes only the fields copied here (every `s->` it and set_pairs
 * assign: joint_cand.c), so its output is a function of what is
 * compared.  The copy is made right after it returns, before anything
 * else writes the pair table.  Only made where some return is free (no
 * call id): with call ids there is one search and nothing to share.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

int joint_pshare_test_fault = 0;

struct joint_pshare {
    /* the input it was made from */
    const pb_msg *msgs;
    size_t n;
    const unsigned char *force;
    int callids, align, align_starts, halves;
    pb_ns early;
    double align_nest;
    /* what joint_find_pairs wrote */
    uint32_t npairs;
    jpair *pr;               /* npairs + 1 */
    uint32_t *pair_of_msg;   /* n + 1 */
    unsigned char *free_ret; /* npairs + 1 */
    size_t calls, returns, others, unmatched_calls, unmatched_returns, repeated;
    size_t halves_call, halves_ret;
    joint_align_stats align_st;
    joint_align_rec *rec;
    size_t nrec;
};

void joint_pshare_free(joint_pshare *c)
{
    if (!c)
        return;
    free(c->pr);
    free(c->pair_of_msg);
    free(c->free_ret);
    free(c->rec);
    free(c);
}

static int same_input(const joint *s, const joint_pshare *c)
{
    return c->msgs == s->v.msgs && c->n == s->v.n && c->force == s->force_unp &&
           c->callids == s->p.callids && c->align == s->p.align &&
           c->align_starts == s->p.align_starts && c->halves == s->p.halves &&
           c->early == s->p.early && c->align_nest == s->p.align_nest;
}

/* s's pairing put in a new holder (NULL: out of memory, nothing kept) */
static joint_pshare *save(const joint *s)
{
    joint_pshare *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    const size_t np1 = (size_t)s->npairs + 1, n1 = s->v.n + 1;
    c->pr = malloc(np1 * sizeof *c->pr);
    c->pair_of_msg = malloc(n1 * sizeof *c->pair_of_msg);
    c->free_ret = malloc(np1);
    c->rec = s->nalign_rec ? malloc(s->nalign_rec * sizeof *c->rec) : NULL;
    if (!c->pr || !c->pair_of_msg || !c->free_ret || (s->nalign_rec && !c->rec)) {
        joint_pshare_free(c);
        return NULL;
    }
    c->msgs = s->v.msgs;
    c->n = s->v.n;
    c->force = s->force_unp;
    c->callids = s->p.callids;
    c->align = s->p.align;
    c->align_starts = s->p.align_starts;
    c->halves = s->p.halves;
    c->early = s->p.early;
    c->align_nest = s->p.align_nest;
    c->npairs = s->npairs;
    memcpy(c->pr, s->pr, np1 * sizeof *c->pr);
    memcpy(c->pair_of_msg, s->pair_of_msg, n1 * sizeof *c->pair_of_msg);
    memcpy(c->free_ret, s->free_ret, np1);
    c->calls = s->calls;
    c->returns = s->returns;
    c->others = s->others;
    c->unmatched_calls = s->unmatched_calls;
    c->unmatched_returns = s->unmatched_returns;
    c->repeated = s->repeated;
    c->halves_call = s->halves_call;
    c->halves_ret = s->halves_ret;
    c->align_st = s->align;
    if (s->nalign_rec)
        memcpy(c->rec, s->align_rec, s->nalign_rec * sizeof *c->rec);
    c->nrec = s->nalign_rec;
    return c;
}

/* c's pairing into s (s->pair_of_msg allocated by the caller, n + 1).
 * PB_OK or PB_ENOMEM */
static int take(joint *s, const joint_pshare *c)
{
    const size_t np1 = (size_t)c->npairs + 1, n1 = c->n + 1;
    s->pr = malloc(np1 * sizeof *s->pr);
    s->free_ret = malloc(np1);
    if (c->nrec)
        s->align_rec = malloc(c->nrec * sizeof *s->align_rec);
    if (!s->pr || !s->free_ret || (c->nrec && !s->align_rec))
        return PB_ENOMEM; /* joint_close frees what was made */
    memcpy(s->pr, c->pr, np1 * sizeof *s->pr);
    memcpy(s->pair_of_msg, c->pair_of_msg, n1 * sizeof *s->pair_of_msg);
    memcpy(s->free_ret, c->free_ret, np1);
    if (c->nrec)
        memcpy(s->align_rec, c->rec, c->nrec * sizeof *s->align_rec);
    s->nalign_rec = c->nrec;
    s->npairs = c->npairs;
    s->calls = c->calls;
    s->returns = c->returns;
    s->others = c->others;
    s->unmatched_calls = c->unmatched_calls;
    s->unmatched_returns = c->unmatched_returns;
    s->repeated = c->repeated;
    s->halves_call = c->halves_call;
    s->halves_ret = c->halves_ret;
    s->align = c->align_st;
    s->pairs_shared = 1;
    if (joint_pshare_test_fault) {
        /* the test's fault: the first two free returns of one link
         * exchanged, as a stale or wrong copy would */
        for (uint32_t p = 0; p < s->npairs; p++)
            for (uint32_t q = p + 1; s->free_ret[p] && q < s->npairs; q++)
                if (s->free_ret[q] && s->pr[q].caller == s->pr[p].caller &&
                    s->pr[q].callee == s->pr[p].callee) {
                    uint32_t r = s->pr[p].ret;
                    pb_ns rs = s->pr[p].rs, rr = s->pr[p].rr;
                    s->pr[p].ret = s->pr[q].ret;
                    s->pr[p].rs = s->pr[q].rs;
                    s->pr[p].rr = s->pr[q].rr;
                    s->pr[q].ret = r;
                    s->pr[q].rs = rs;
                    s->pr[q].rr = rr;
                    s->pair_of_msg[s->pr[p].ret] = p;
                    s->pair_of_msg[s->pr[q].ret] = q;
                    return PB_OK;
                }
    }
    return PB_OK;
}

int joint_pshare_find(joint *s, joint_selshare *share)
{
    joint_pshare **slot = s->p.pairs_share && !s->unpm_mate ? joint_selshare_pairs(share) : NULL;
    if (slot && *slot && same_input(s, *slot))
        return take(s, *slot);
    int rc = joint_find_pairs(s);
    if (rc != PB_OK || !slot || *slot)
        return rc;
    int any = 0;
    for (uint32_t p = 0; p < s->npairs && !any; p++)
        any = s->free_ret[p];
    if (any)
        *slot = save(s); /* NULL (no memory): the next search pairs again */
    return PB_OK;
}

/* The gate's pairing (h241; docs/joint/loss_late.md "The loss rule's
 * cost: where a lossy input pays"): parallel_check_bb's search again
 * without learned parallel calls (joint_choose.c, after the free / held
 * choice) ran with no holder and paired the trace again -- the same
 * messages, options and forced marks as the first search (same_input
 * still checks), so the same pairs.  A new holder takes the first
 * search's pairing from share (moved, not copied) and nothing else: no
 * select choice, no caches, no key room (as without a holder), so the
 * gate's search is the one it was, bit for bit.  NULL where share holds
 * no pairing or no memory (the gate pairs again, as before). */
joint_selshare *joint_pshare_hand(joint_selshare *share)
{
    joint_pshare **from = joint_selshare_pairs(share);
    if (!from || !*from)
        return NULL;
    joint_selshare *g = joint_selshare_new();
    if (!g)
        return NULL;
    *joint_selshare_pairs(g) = *from;
    *from = NULL;
    return g;
}
