/*
 * joint_lserial.c - calls sent while another call of the same request is
 * still out, as a term of the model under loss with call ids
 * (loss_serial; docs/joint/shapes.md, "Loss with call ids: a request's
 * calls one at a time"; issue 28, "Robust to loss").
 *
 * The walk scores each output by its delay from its trigger (the latest
 * return before it); nothing in it says whether the request had another
 * call out when it sent the output.  Without loss every output's true
 * trigger is there and the delays keep each request's chain of calls in
 * place.  When a return is lost, its request's next call has no trigger
 * left in it, and the search gives that call (and the chain after it) to
 * a neighbour that received some return just before -- even when the
 * neighbour has a call of its own out at that moment.  Counted against
 * the truth (evaluation only) on OnlineBoutique and the synthetic class
 * with call ids at 2 % loss: the front end never sends a call while
 * another call of its request is out (0 of about 4,400 consecutive calls
 * per trace), yet most of the calls an untouched request wrongly holds
 * (49 of 56, 88 of 91 on two draws) overlap one of its own.
 *
 * So, per outgoing link l, a Bernoulli: is an output on l sent while an
 * earlier call of its request (whose return is known) has not returned?
 * Its rate is learned at each refit from the current solution (counts
 * over every request's calls, (k + 1/2) / (n + 1), at most 1/2), and each output adds
 * log p or log (1 - p) to its request's walk (walk_rest, walk_rest_est:
 * O(calls)).  A link whose calls genuinely overlap learns a high rate and
 * costs nothing; a serial one makes a stacked call cost about log of its
 * rate.  Used only where uncross is (half pairs, every pair by call id),
 * so a trace that lost nothing is scored as before, byte for byte.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* is the term used on this trace: the option, half pairs (loss_serial=1),
 * every pair by call id */
static int lser_applies(const joint *s)
{
    /* 2: with call ids whether or not a message was lost (measured, not a default) */
    return s->p.loss_serial && (s->p.loss_serial == 2 || s->halves_call + s->halves_ret) &&
           !joint_any_free(s);
}

/* the overlap of each output of k[0..n) (sorted by call time): f(l, ov)
 * for every output on link l with an earlier call whose return is known */
#define LSER_SCAN(s, k, n, BODY)                                                   \
    do {                                                                           \
        pb_ns mr_ = INT64_MIN;                                                     \
        for (uint32_t i_ = 0; i_ < (n); i_++) {                                    \
            const jpair *o_ = &(s)->pr[(k)[i_]];                                   \
            if (o_->call == NONE)                                                  \
                continue;                                                          \
            if (mr_ != INT64_MIN) {                                                \
                uint32_t l = o_->link;                                             \
                int ov = mr_ > o_->cs;                                             \
                BODY;                                                              \
            }                                                                      \
            if (o_->ret != NONE && o_->rr > mr_)                                   \
                mr_ = o_->rr;                                                      \
        }                                                                          \
    } while (0)

int joint_lser_fit(joint *s, const unsigned char *only)
{
    if (!s->lser_on) {
        if (s->lser_checked || !(s->lser_checked = 1, lser_applies(s)))
            return PB_OK;
        s->lser_lp = calloc((size_t)2 * s->nlinks + 2, sizeof *s->lser_lp);
        s->lser_k = calloc((size_t)2 * s->nlinks + 2, sizeof *s->lser_k);
        if (!s->lser_lp || !s->lser_k)
            return PB_ENOMEM;
        s->lser_on = 1;
    }
    double *k = s->lser_k; /* per link: outputs counted, of them overlapping */
    memset(k, 0, (size_t)2 * s->nlinks * sizeof *k);
    for (uint32_t q = 0; q < s->npairs; q++) {
        if (only && !only[q])
            continue;
        LSER_SCAN(s, s->kids[q].a, s->kids[q].n, {
            k[2 * l] += 1;
            k[2 * l + 1] += ov;
        });
    }
    for (uint32_t l = 0; l < s->nlinks; l++) {
        /* at most one half: a rate above it (learned from a start that
         * stacks calls, e.g. two requests' chains interleaved by rank)
         * would reward stacking; at one half the term is neutral, and it
         * only ever prices a link the solution shows mostly one at a time */
        double p = (k[2 * l + 1] + 0.5) / (k[2 * l] + 1.0);
        if (p > 0.5)
            p = 0.5;
        s->lser_lp[2 * l] = log(1 - p);
        s->lser_lp[2 * l + 1] = log(p);
    }
    s->lser_fits++;
    return PB_OK;
}

double joint_lser_ll(const joint *s, const uint32_t *k, uint32_t n)
{
    double v = 0;
    LSER_SCAN(s, k, n, { v += s->lser_lp[2 * l + ov]; });
    return v;
}

int joint_lser_meta(const joint *s, pb_result *res)
{
    if (!s->lser_on)
        return PB_OK;
    /* the links learned serial: overlapping outputs under 1 % of at least 20 */
    uint32_t ser = 0, capd = 0;
    double tot = 0, ovl = 0;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        double n = s->lser_k[2 * l], o = s->lser_k[2 * l + 1];
        tot += n;
        ovl += o;
        ser += n >= 20 && o < 0.01 * n;
        capd += (o + 0.5) / (n + 1.0) > 0.5; /* priced at 1/2: neutral */
    }
    return pb_result_meta(res, "loss_serial=on serial_links=%u capped_links=%u outputs=%.0f "
                          "overlapping=%.0f fits=%zu", ser, capd, tot, ovl, s->lser_fits);
}

void joint_lser_free(joint *s)
{
    free(s->lser_lp);
    free(s->lser_k);
    s->lser_lp = s->lser_k = NULL;
}
