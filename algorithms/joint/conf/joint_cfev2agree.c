/*
 * joint_cfev2agree.c - conf_copy_events_agree: with conf_copy_events_second,
 * a row at stake takes the pooled fit's value only where the two copies
 * agree on its link (docs/joint/confidence_w34.md, "The second copy taken
 * only where the copies agree (h287)").
 *
 * conf_copy_events_second (joint_cfev2.c) draws a second copy where the
 * events map alone decides many rows' level, and states those rows from
 * both copies pooled.  Where the second draw shows the first one lucky on
 * a link (it errs there more often than the first did), the pooled value
 * mixes a lucky draw with an unlucky one and says neither; where the copies
 * agree, twice the sample is the better estimate.  So, per link, from the
 * copy rows the events map counts (joint_cfev.c's rows, each copy's own):
 * w1, e1 the first copy's rows and wrong rows, w2, e2 the second's;
 * the link agrees when e2 / w2 <= e1 / w1 (a link clean in the first copy
 * must be clean in the second).
 * A link without copy rows in either copy is judged by all links' rows.
 * A row at stake of a link that does not agree keeps the first fit's
 * value.  Mode 2 also leaves the siblings cap's decision (joint_sibstr.c)
 * to the first copy alone: the second copy's held-out rows would otherwise
 * enter its record and move the cap for every row, at stake or not (held-
 * out shortlong s57 ns with call ids: 20 rows pooled, yet the rows at 0.99
 * or more 86.0 -> 90.5 % of the result, and two new OVER bins).
 * Confidences only.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

int joint_cfev2a_links(joint *s)
{
    free(s->cev2a_agree);
    s->cev2a_agree = NULL;
    if (!s->p.conf_copy_events_agree || !s->cev2_n)
        return PB_OK;
    uint32_t nl = s->nlinks;
    double *c = calloc(4 * ((size_t)nl + 1), sizeof *c); /* w1 e1 w2 e2 per link, all */
    s->cev2a_agree = malloc((size_t)nl + 1);
    if (!c || !s->cev2a_agree) {
        free(c);
        free(s->cev2a_agree);
        s->cev2a_agree = NULL;
        return PB_ENOMEM;
    }
    for (int k = 0; k < 2; k++) {
        const joint_cevrow *g = k ? s->cev_grp : s->cev2_save;
        size_t n = k ? s->cev_n : s->cev2_n;
        for (size_t i = 0; i < n; i++) {
            uint32_t l = g[i].l < nl ? g[i].l : nl;
            for (int z = 0; z < 2; z++) {
                double *t = c + 4 * (size_t)(z ? nl : l) + 2 * k;
                t[0]++;
                t[1] += !g[i].ok;
            }
        }
    }
    s->cev2a_rec[0] = 0;
    for (uint32_t l = 0; l <= nl; l++) {
        const double *t = c + 4 * (size_t)l;
        if (!(t[0] > 0) || !(t[2] > 0))
            t = c + 4 * (size_t)nl;
        /* e2 / w2 <= e1 / w1, cross-multiplied; no rows at all: agree */
        int ok = !(t[0] > 0) || !(t[2] > 0) || t[3] * t[0] <= t[1] * t[2];
        s->cev2a_agree[l] = (unsigned char)ok;
        s->cev2a_rec[0] += !ok && l < nl;
    }
    free(c);
    return PB_OK;
}

void joint_cfev2a_keep(joint *s, double *conf, const double *first, const unsigned char *stk,
                       uint32_t n)
{
    if (!s->p.conf_copy_events_agree || !first || !stk)
        return;
    for (uint32_t p = 0; p < n; p++) {
        if (!stk[p])
            continue;
        uint32_t l = s->pr[p].link < s->nlinks ? s->pr[p].link : s->nlinks;
        if (!s->cev2a_agree || !s->cev2a_agree[l]) {
            s->cev2a_rec[1] += conf[p] != first[p];
            conf[p] = first[p];
        } else {
            s->cev2a_rec[2] += conf[p] != first[p];
        }
    }
}

void joint_cfev2a_sib(joint *s, int restore)
{
    if (s->p.conf_copy_events_agree != 2)
        return;
    double *b = s->cev2a_sib;
    double *parts[4] = {s->sib_cov, s->sib_dsim, s->sib_crows, s->sib_cright};
    const size_t len[4] = {3, 3, 4, 4};
    for (int i = 0; i < 4; i++) {
        if (restore)
            memcpy(parts[i], b, len[i] * sizeof *b);
        else
            memcpy(b, parts[i], len[i] * sizeof *b);
        b += len[i];
    }
}

void joint_cfev2a_end(joint *s)
{
    free(s->cev2a_agree);
    s->cev2a_agree = NULL;
}

int joint_cfev2a_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_copy_events_agree || !(s->p.conf_copy_events_second > 0) || !s->scal_done ||
        !(s->cev2_rec[2] > 0))
        return PB_OK;
    return pb_result_meta(res, "conf_copy_events_agree=%d links_disagree=%.0f "
                          "rows_kept_first=%.0f rows_pooled=%.0f (conf_copy_events_second's "
                          "rows at stake take the pooled value only on links where the second "
                          "copy errs no more often than the first)",
                          s->p.conf_copy_events_agree, s->cev2a_rec[0], s->cev2a_rec[1],
                          s->cev2a_rec[2]);
}
