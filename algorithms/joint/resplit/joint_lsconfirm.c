/*
 * joint_lsconfirm.c - joint: a re-split that confirmed its two requests'
 * split is not made again while the two requests stay the same and the
 * refitted model has moved the current split's value by less than the
 * margin it won by (`rs_confirm`; changes results where it fires, off by
 * default; issue 28, "Fewer re-splits: confirmed splits left out while the
 * model moves less than their margin (h256)" in docs/joint/speed_w29.md).
 *
 * The local search (joint_search.c) re-splits every pair of requests that
 * share a possible call in the first pass of every solve; on
 * OnlineBoutique 07:11 as a black box 88,865 re-splits of which 358 move a
 * call.  ls_margin (joint_lsmargin.c, off) left out a re-split of a pair
 * whose two requests were unchanged since it kept its split by at least T
 * nats, whatever the refits did to the model between.  Here the record
 * also holds the kept split's value v0, and a later re-split of the same
 * pair (same search, same kind of solve, same fingerprint of the two
 * requests: ls_margin's) first scores the current split alone under the
 * present model (one walk of the two requests), v.  The model's change is
 * read off that one value: the re-split is left out when
 *
 *     margin - |v - v0| >= rs_confirm
 *
 * i.e. the current split still leads every split looked at by rs_confirm
 * nats after the alternatives are allowed the same move as the current
 * split's value.  Not a bound: an alternative reads the same links' model
 * at other delays and keys and can move more than the current split
 * (h218 measured the largest change of one log density between refits at
 * 3-15 nats); the rule is a measured bet and is judged by the audits.  The
 * record is kept from the last re-split that was made, so the drift is
 * measured since the split was last confirmed, not since the last skip.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>

struct joint_lscf {
    hmap idx[3]; /* per kind of solve (lsmg_kind): pair key -> entry */
    struct lscf_ent {
        uint64_t fp;
        double v0, margin;
    } *e;
    uint32_t n, cap;
};

int joint_lscf_test_verify = 0; /* tests: a skip is made anyway; moves counted */
int joint_lscf_test_nodrift = 0; /* tests, wrong on purpose: the drift not read */

int joint_lscf_on(const joint *s)
{
    return s->p.rs_confirm > 0 && !s->xfloor_on;
}

#define pkey joint_ls_pair_key /* joint_lsmargin.c's: the same pair keys */

/* rs_confirm_fp=0: the fingerprint of the shared calls alone (each one's
 * index, return and return times, which request has it) and of the two
 * requests' own calls and open ends; the calls only one of them can have
 * are left to the drift test (their moves change the current split's
 * value) */
#define mix joint_ls_mix /* joint_lsmargin.c's hash and call fingerprint */
#define mix_call joint_ls_mix_call

uint64_t joint_lscf_fp_shared(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *set,
                              uint32_t m, uint32_t cur)
{
    uint64_t h = mix_call(s, 0x5ca1ab1eull, q1);
    h = mix_call(s, h, q2);
    if (s->qend) {
        h = mix(h, (uint64_t)s->qend[q1]);
        h = mix(h, (uint64_t)s->qend[q2]);
    }
    h = mix(h, ((uint64_t)m << 32) | cur);
    for (uint32_t i = 0; i < m; i++)
        h = mix_call(s, h, set[i]);
    return h;
}

int joint_lscf_want(const joint *s, uint32_t q1, uint32_t q2, uint64_t fp, double *v0,
                    double *margin)
{
    const struct joint_lscf *g = s->lscf;
    if (!g || !joint_lscf_on(s))
        return 0;
    uint32_t i = joint_hmap_get(&g->idx[s->lsmg_kind], pkey(q1, q2));
    if (i == JOINT_NONE)
        return 0;
    const struct lscf_ent *e = &g->e[i];
    if (e->fp != fp || !(e->margin >= s->p.rs_confirm))
        return 0;
    *v0 = e->v0;
    *margin = e->margin;
    return 1;
}

int joint_lscf_keep(double margin, double v, double v0, double t)
{
    return margin - fabs(v - v0) >= t;
}

int joint_lscf_skip(joint *s, double v, double v0, double margin)
{
    s->lscf_checked++;
    if (!joint_lscf_keep(margin, v, joint_lscf_test_nodrift ? v : v0, s->p.rs_confirm))
        return 0;
    s->lscf_left++;
    return 1;
}

int joint_lscf_note(joint *s, uint32_t q1, uint32_t q2, uint64_t fp, double v0, double margin)
{
    if (!joint_lscf_on(s))
        return PB_OK;
    if (!s->lscf && !(s->lscf = calloc(1, sizeof *s->lscf)))
        return PB_ENOMEM;
    struct joint_lscf *g = s->lscf;
    uint32_t i;
    void *e = g->e;
    int rc = joint_ls_slot(&g->idx[s->lsmg_kind], pkey(q1, q2), &e, &g->n, &g->cap,
                           sizeof *g->e, &i);
    g->e = e;
    if (rc != PB_OK)
        return rc;
    g->e[i] = (struct lscf_ent){fp, v0, margin};
    return PB_OK;
}

void joint_lscf_free(joint *s)
{
    if (!s->lscf)
        return;
    joint_ls_index_free(s->lscf->idx, 3);
    free(s->lscf->e);
    free(s->lscf);
    s->lscf = NULL;
}

int joint_lscf_meta(const joint *s, pb_result *res)
{
    if (!(s->p.rs_confirm > 0))
        return PB_OK;
    if (joint_lscf_test_verify)
        return pb_result_meta(res, "rs_confirm=%g resplits_checked=%zu resplits_left_out=%zu "
                                   "moved_if_made=%zu",
                              s->p.rs_confirm, s->lscf_checked, s->lscf_left, s->lscf_flips);
    return pb_result_meta(res, "rs_confirm=%g resplits_checked=%zu resplits_left_out=%zu",
                          s->p.rs_confirm, s->lscf_checked, s->lscf_left);
}
