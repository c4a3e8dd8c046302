/*
 * joint_cfev2.c - conf_copy_events_second: a second calibration copy where
 * the first one's events weighting alone decides many rows' level
 * (docs/joint/confidence_late.md, "A second copy where one draw cannot
 * tell luck from structure (h279)").
 *
 * conf_copy_events (joint_cfev.c) counts a copy's rows in units of the rows
 * that move together, so a link whose copy rows were all right is doubted
 * as a sample of a few dozen requests, not of hundreds of rows.  That is
 * right where the draw was lucky (OnlineBoutique 03:53 with call ids at
 * conf_seed 2: currency 324 of 324 right in the copy, 95.8 % in the trace)
 * and costs coverage where the link is right by its structure
 * (OnlineBoutique 07:11 with call ids: currency 470 of 470, 99.3 %; its
 * rows at 0.95 or more 82 -> 15 %).  One copy cannot tell the two apart;
 * a second one can: a lucky draw is seldom drawn twice, and two copies'
 * rows are twice the sample.
 *
 * The rule.  In the self-calibration's row loop each real row (not right
 * by construction) is at stake when the events map is what takes it below
 * one of the levels 0.9, 0.95, 0.99 that it would reach without it (its
 * own share and every other map at or above the level).  Where the rows at
 * stake are at least conf_copy_events_second of the result's rows, and the
 * run drew one copy, the rows are put back as they were, one copy more is
 * drawn (seed conf_seed + 1, as conf_sims=2 would) and pooled with the
 * first (its rows, its event groups: each copy's requests its own), and
 * the maps are fitted again; the rows at stake take the pooled fit's
 * value (up or down), every other row keeps the first fit's (a row the
 * events map did not decide is left as one copy stated it: a second draw
 * that errs where the first did not would otherwise take TrainTicket's
 * rows at 0.99 down although they are right).  Confidences only; costs
 * one copy where it fires.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

static const double lev[3] = {0.9, 0.95, 0.99};

int joint_cfev2_begin(joint *s, const double *conf, uint32_t n, int copies, double **conf0,
                      unsigned char **stk)
{
    *conf0 = NULL;
    *stk = NULL;
    memset(s->cev2_rec, 0, sizeof s->cev2_rec);
    memset(s->cev2a_rec, 0, sizeof s->cev2a_rec); /* conf_copy_events_agree */
    joint_cfev2_end(s);
    if (!(s->p.conf_copy_events_second > 0) || !s->p.conf_copy_events || copies != 1 || !n)
        return PB_OK;
    *conf0 = malloc((size_t)n * sizeof **conf0);
    *stk = calloc((size_t)n, 1);
    if (!*conf0 || !*stk) {
        free(*conf0);
        free(*stk);
        *conf0 = NULL;
        *stk = NULL;
        return PB_ENOMEM;
    }
    memcpy(*conf0, conf, (size_t)n * sizeof **conf0);
    s->cev2_rec[0] = n;
    return PB_OK;
}

void joint_cfev2_row(joint *s, unsigned char *stk, uint32_t p, double c, double e, double es)
{
    if (!(s->cev2_rec[0] > 0) || s->cev2_rec[2] > 0 || !(es > e) || !stk)
        return;
    double v = 1 - e < c ? 1 - e : c, w = 1 - es;
    for (int i = 0; i < 3; i++)
        if (v >= lev[i] && w < lev[i]) {
            s->cev2_rec[1]++;
            stk[p] = 1;
            return;
        }
}

int joint_cfev2_save(joint *s)
{
    if (!(s->cev2_rec[0] > 0) || s->cev2_rec[2] > 0)
        return PB_OK;
    free(s->cev2_save);
    s->cev2_save = NULL;
    s->cev2_n = s->cev_n;
    if (!s->cev_n)
        return PB_OK;
    s->cev2_save = malloc(s->cev_n * sizeof *s->cev2_save);
    if (!s->cev2_save) {
        s->cev2_n = 0;
        return PB_ENOMEM;
    }
    memcpy(s->cev2_save, s->cev_grp, s->cev_n * sizeof *s->cev2_save);
    return PB_OK;
}

int joint_cfev2_again(joint *s, double *conf, const double *conf0, uint32_t n, double **first)
{
    if (!conf0 || !(s->cev2_rec[0] > 0) || s->cev2_rec[2] > 0 ||
        s->cev2_rec[1] < s->p.conf_copy_events_second * s->cev2_rec[0])
        return 0;
    free(*first);
    *first = malloc((size_t)n * sizeof **first);
    if (!*first)
        return 0; /* no memory: the first fit stands */
    memcpy(*first, conf, (size_t)n * sizeof *conf);
    memcpy(conf, conf0, (size_t)n * sizeof *conf);
    /* the rows lowered are counted again by the second fit */
    for (uint32_t l = 0; l <= s->nlinks; l++)
        s->scal_stat[JOINT_SCAL_NSTAT * (size_t)l + 2] = 0;
    s->p.cfm_lowered = 0;
    s->cev2_rec[2] = 1;
    joint_cfev2a_sib(s, 0); /* conf_copy_events_agree=2 (joint_cfev2agree.c) */
    return 1;
}

int joint_cfev2_merge(joint *s)
{
    joint_cfev2a_sib(s, 1); /* conf_copy_events_agree=2 (joint_cfev2agree.c) */
    if (!s->cev2_n)
        return PB_OK;
    int rc = joint_cfev2a_links(s); /* conf_copy_events_agree (joint_cfev2agree.c) */
    if (rc != PB_OK)
        return rc;
    /* the first copy's rows back, their copy numbers after the second's */
    uint32_t top = 0;
    for (size_t i = 0; i < s->cev_n; i++)
        if (s->cev_grp[i].copy + 1 > top)
            top = s->cev_grp[i].copy + 1;
    size_t need = s->cev_n + s->cev2_n;
    if (need > s->cev_cap) {
        joint_cevrow *g = realloc(s->cev_grp, need * sizeof *g);
        if (!g)
            return PB_ENOMEM;
        s->cev_grp = g;
        s->cev_cap = need;
    }
    for (size_t i = 0; i < s->cev2_n; i++) {
        joint_cevrow r = s->cev2_save[i];
        r.copy += top;
        s->cev_grp[s->cev_n++] = r;
    }
    free(s->cev2_save);
    s->cev2_save = NULL;
    s->cev2_n = 0;
    return PB_OK;
}

void joint_cfev2_keep(double *conf, const double *first, const unsigned char *stk, uint32_t n)
{
    if (!first || !stk)
        return;
    for (uint32_t p = 0; p < n; p++)
        if (!stk[p])
            conf[p] = first[p];
}

void joint_cfev2_end(joint *s)
{
    free(s->cev2_save);
    s->cev2_save = NULL;
    s->cev2_n = 0;
    joint_cfev2a_end(s); /* conf_copy_events_agree (joint_cfev2agree.c) */
}

int joint_cfev2_meta(const joint *s, pb_result *res)
{
    if (!(s->p.conf_copy_events_second > 0) || !s->scal_done || !(s->cev2_rec[0] > 0))
        return PB_OK;
    return pb_result_meta(res, "conf_copy_events_second=%g rows=%.0f rows_at_stake=%.0f "
                          "share_at_stake=%.4f second_copy=%.0f (a second calibration copy "
                          "where the events weighting alone takes at least that share of the "
                          "rows below 0.9, 0.95 or 0.99; those rows stated from both copies)",
                          s->p.conf_copy_events_second, s->cev2_rec[0], s->cev2_rec[1],
                          s->cev2_rec[1] / s->cev2_rec[0], s->cev2_rec[2]);
}
