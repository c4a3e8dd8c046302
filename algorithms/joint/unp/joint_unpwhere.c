/*
 * joint_unpwhere.c - joint without call ids, under loss: where the loss
 * rule's whole second search changes the first search's requests, against
 * the window by candidate requests (`unp_where`, default 0 = off; metadata
 * only; docs/joint/loss_late.md, "The loss rule's cost: where the whole
 * second search's changes lie (h278)").
 *
 * Where unpaired's window (joint_unpwin.c, unp_win=2: the requests a
 * changed message can touch) holds over unp_win_max of the messages, the
 * second search runs on the whole trace.  A second search on that window
 * alone, with the first search's requests kept outside it, could be exact
 * only if the whole search left every request outside the window as the
 * first search had it.  With unp_where=1 the whole second search keeps the
 * window (in[] per message) and joint_unpp_take's pieces (the groups of
 * messages whose requests differ between the two searches) are counted
 * against it.  Metadata, on the output:
 *   unp_where window_msgs= of_msgs= piece_msgs_in= piece_msgs_out=
 *   pieces_out= pieces_in= taken_out= taken_out_msgs= taken_out_llr=
 *   taken_in= taken_in_msgs=
 * piece_msgs_in / _out: messages of pieces inside / outside the window;
 * pieces_out: pieces with no message in the window (pieces_in: the rest);
 * taken_*: the taken pieces of each kind, their messages and (out) the sum
 * of their log-likelihood ratios.  A window search cannot propose the
 * taken_out pieces.  unp_where=1 changes nothing else (the output is the
 * default's).  unp_where=2 (changes results; a measurement) leaves the
 * taken_out pieces untaken: the output a search of the window alone would
 * give if it found, inside the window, what the whole search found and
 * left every request outside it as the first search had it -- the best
 * any second search confined to the window can do.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

uint32_t joint_unpwh_note(joint *f, joint *s, const uint32_t *pc, uint32_t np,
                          unsigned char *tk, const double *llr)
{
    const unsigned char *in = s->unpwh_in;
    if (!in || !s->p.unp_where)
        return 0;
    size_t n = s->v.n;
    unsigned char *touch = calloc((size_t)np + 1, 1);
    size_t *sz = calloc((size_t)np + 1, sizeof *sz);
    if (!touch || !sz) { /* out of memory: no record, nothing dropped */
        free(touch);
        free(sz);
        return 0;
    }
    double w[12] = {0};
    w[0] = s->p.unp_where;
    w[2] = (double)n;
    for (size_t m = 0; m < n; m++) {
        w[1] += in[m] != 0;
        if (pc[m] == JOINT_NONE)
            continue;
        sz[pc[m]]++;
        if (in[m]) {
            touch[pc[m]] = 1;
            w[3]++;
        } else
            w[4]++;
    }
    uint32_t dropped = 0;
    for (uint32_t k = 0; k < np; k++) {
        if (!touch[k]) {
            w[5]++;
            if (tk[k]) {
                w[7]++;
                w[8] += (double)sz[k];
                w[9] += llr[k];
                if (s->p.unp_where == 2) { /* the window's search, the rest fixed */
                    tk[k] = 0;
                    dropped++;
                }
            }
        } else {
            w[6]++;
            if (tk[k]) {
                w[10]++;
                w[11] += (double)sz[k];
            }
        }
    }
    memcpy(f->unpwh, w, sizeof w);
    memcpy(s->unpwh, w, sizeof w);
    free(touch);
    free(sz);
    return dropped;
}

int joint_unpwh_meta(const joint *s, pb_result *res)
{
    const double *w = s->unpwh;
    if (!s->p.unp_where || w[0] == 0)
        return PB_OK;
    return pb_result_meta(res,
                          "unp_where mode=%.0f window_msgs=%.0f of_msgs=%.0f piece_msgs_in=%.0f "
                          "piece_msgs_out=%.0f pieces_out=%.0f pieces_in=%.0f taken_out=%.0f "
                          "taken_out_msgs=%.0f taken_out_llr=%.3f taken_in=%.0f taken_in_msgs=%.0f",
                          w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11]);
}
