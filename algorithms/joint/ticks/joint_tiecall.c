/*
 * joint_tiecall.c - joint: calls sent in one tick, when the tie test kept
 * the start (docs/joint/ticks.md, "The tie test: whole-tick stamps", calls tied
 * at their send stamp).
 *
 * When the tie test (joint_quant.c) keeps the start, the start is made
 * again with requests that arrived in one tick ranked by their responses:
 * of two requests tied at arrival, the one answered first is taken to
 * have come first (first come, first served's order; the fcfs baseline
 * sorts a service's requests by arrival, then answer).  The rank start
 * then hands the i-th call of an endpoint to the i-th request, its calls
 * ranked in pair order, so two calls sent in the same tick kept the order
 * of their rows: an order that says nothing about which was sent first
 * (a merge of two captures, or a capture that writes each connection's
 * rows together).  The same rule completes it: of two calls of one link
 * sent in the same tick, the one whose return was received first (on the
 * caller's clock) is taken to have been sent first, as the fcfs baseline
 * sorts a caller's calls.  Only runs of equal send stamps are reordered,
 * and only when the tie test kept the start, so a trace whose stamps are
 * not coarse (or where the search was kept) is ranked as before, byte for
 * byte.  Counted for the metadata: calls in runs of equal send stamps,
 * and how many of them changed rank.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

/* (send stamp, return received, pair) of a call, for the order within a
 * tick */
typedef struct tckey {
    pb_ns cs, rr;
    uint32_t p;
} tckey;

static int cmp_tckey(const void *x, const void *y)
{
    const tckey *a = x, *b = y;
    if (a->cs != b->cs)
        return a->cs < b->cs ? -1 : 1;
    if (a->rr != b->rr)
        return a->rr < b->rr ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

int joint_tiecall_applies(const joint *s)
{
    return s->quant_state == 3 && s->p.tie_calls;
}

int joint_tiecall_rank(joint *s, const uint32_t *in, uint32_t n, uint32_t *out)
{
    memcpy(out, in, (size_t)n * sizeof *out);
    if (!joint_tiecall_applies(s) || n < 2)
        return PB_OK;
    tckey *k = NULL;
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i + 1;
        while (j < n && s->pr[out[j]].cs == s->pr[out[i]].cs)
            j++;
        if (j - i > 1) {
            if (!k && !(k = malloc((size_t)n * sizeof *k)))
                return PB_ENOMEM;
            for (uint32_t t = i; t < j; t++) {
                const jpair *x = &s->pr[out[t]];
                /* a lost return: after every answered call */
                k[t - i] = (tckey){x->cs, x->ret == NONE ? INT64_MAX : x->rr, out[t]};
            }
            pb_sort(k, j - i, sizeof *k, cmp_tckey);
            s->tiecall_tied += j - i;
            for (uint32_t t = i; t < j; t++) {
                s->tiecall_moved += out[t] != k[t - i].p;
                out[t] = k[t - i].p;
            }
        }
        i = j;
    }
    free(k);
    return PB_OK;
}

int joint_tiecall_meta(const joint *s, pb_result *res)
{
    if (!joint_tiecall_applies(s))
        return PB_OK;
    return pb_result_meta(res, "tie_calls=on tied_calls=%zu reranked_calls=%zu",
                          s->tiecall_tied, s->tiecall_moved);
}
