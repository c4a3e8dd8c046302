/* The re-pairing's exchange passes with their response costs kept
 * (speed only, the same results; issue 28, "Speed, fifteenth wave" in
 * docs/joint/speed.md).
 *
 * After the greedy pairing of a link's returns (joint_repair.c,
 * repair_pairs), up to four passes try to exchange the returns of every
 * call C[i] with those of the next JOINT_SWAP_WINDOW calls C[j] of the
 * link, comparing the two responses' costs as they stand (cur) with the
 * costs after the exchange (alt).  Within those passes nothing a response
 * cost reads changes (the calls' kid lists, their returns' times, the
 * model): only the link's assignment `to`.  So a cost is a function of
 * the call and the return it is given, and
 *   - cur[i], the cost of C[i] with its current return, is kept and
 *     replaced when an exchange gives C[i] another return;
 *   - the exchange's alt (the sum of the two costs, in the passes' order
 *     of addition) of the pair (i, j) is kept while neither C[i] nor C[j]
 *     changed its return: most pairs of a second or later pass.
 * Every kept number is the one the pass would compute: the same bits.
 * The order-of-answers term (joint_rord_swap_delta) reads the answer
 * times of the whole link and is computed as before. */
#include "joint_int.h"

#include <stdlib.h>

int joint_xcost_test_stale = 0;

int joint_xcost_begin(joint_xcost *x, uint32_t nc)
{
    const size_t w = JOINT_SWAP_WINDOW;
    if (nc > x->cap) {
        uint32_t cap = x->cap ? x->cap : 64;
        while (cap < nc)
            cap = cap > UINT32_MAX / 2 ? nc : 2 * cap;
        double *cur = realloc(x->cur, (size_t)cap * sizeof *cur);
        if (!cur)
            return PB_ENOMEM;
        x->cur = cur;
        double *alt = realloc(x->alt, (size_t)cap * w * sizeof *alt);
        if (!alt)
            return PB_ENOMEM;
        x->alt = alt;
        uint32_t *gen = realloc(x->gen, (size_t)cap * w * sizeof *gen);
        if (!gen)
            return PB_ENOMEM;
        x->gen = gen;
        for (size_t t = (size_t)x->cap * w; t < (size_t)cap * w; t++)
            gen[t] = 0;
        x->cap = cap;
    }
    /* a new generation voids every kept exchange (of the link before) */
    if (++x->g == 0) {
        for (size_t t = 0; t < (size_t)x->cap * w; t++)
            x->gen[t] = 0;
        x->g = 1;
    }
    x->n = nc;
    return PB_OK;
}

int joint_xcost_get(const joint_xcost *x, uint32_t i, uint32_t j, double *alt)
{
    size_t t = (size_t)i * JOINT_SWAP_WINDOW + (j - i - 1);
    if (x->gen[t] != x->g)
        return 0;
    *alt = x->alt[t];
    return 1;
}

void joint_xcost_put(joint_xcost *x, uint32_t i, uint32_t j, double alt)
{
    size_t t = (size_t)i * JOINT_SWAP_WINDOW + (j - i - 1);
    x->alt[t] = alt;
    x->gen[t] = x->g;
}

void joint_xcost_changed(joint_xcost *x, uint32_t i)
{
    if (joint_xcost_test_stale)
        return; /* test hook: kept exchanges no longer voided, on purpose */
    const uint32_t w = JOINT_SWAP_WINDOW;
    /* the pairs (i, i + 1 + d) and (i - 1 - d, i) */
    for (uint32_t d = 0; d < w; d++) {
        x->gen[(size_t)i * w + d] = 0;
        if (i >= d + 1)
            x->gen[(size_t)(i - 1 - d) * w + d] = 0;
    }
}

void joint_xcost_free(joint_xcost *x)
{
    free(x->cur);
    free(x->alt);
    free(x->gen);
    *x = (joint_xcost){0};
}
