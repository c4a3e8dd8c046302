/*
 * joint_sibusual.c - conf_sib_usual: the siblings cap (joint_sibling_cap,
 * joint_calib.c) also by the call that usually triggers a row's link.
 *
 * The cap holds a row no surer than the call whose return triggered it.
 * A row whose link is, across the trace, triggered mostly by the return
 * of one other link T (its request's usual order: fe calls auth, then pay
 * once auth has answered) but which its request makes before any T call
 * has answered (sent at the arrival, or after another link's return)
 * escapes that cap: its trigger is the arrival, stated 1.  Such a row is
 * out of its link's usual order, which is what a call of another request
 * put into this one looks like (the retry cell of docs/joint/
 * confidence_w36.md, "The retry s18 cell: rows out of their usual order
 * (h316)": 32 rows left at their link's map value, 25 % right, beside
 * 1,354 of the same links the cap lowered, 100 % right).  With
 * conf_sib_usual, such a row is no surer than the least sure call on T
 * its request holds: the cap's own argument, with the usual trigger in
 * place of the one the stamps show.  Only ever lowers; rows the
 * self-calibration leaves alone (right by construction) are skipped as by
 * the cap.
 *
 * A link's usual trigger: the trigger link (joint_conf_triggers; the
 * arrival counted as a link of its own) of most of the rows of its
 * (parent link, link) pair, held by at least conf_sib_usual_share of
 * them and at least JOINT_SIBU_MIN_ROWS rows, not the arrival and not
 * the link itself (the same link is the cap's sibling term already).
 * At conf_sib_usual=2, a row out of that order whose request holds no call
 * on T at all (the request's shape is not its link's usual one) is no
 * surer than the least sure of its request's other calls (retry s12 ns
 * with call ids: another request's receipt call in a request without a
 * payment call).
 */
#include "joint_int.h"
#include "joint_rules_late.h"
#include "joint_rules_more.h"
#include "pb_sort.h"

#include <stdlib.h>

#define NONE JOINT_NONE

typedef struct {
    uint32_t pl, l, tl, j;
} sibu_key;

static int sibu_cmp(const void *a, const void *b)
{
    const sibu_key *x = a, *y = b;
    if (x->pl != y->pl)
        return x->pl < y->pl ? -1 : 1;
    if (x->l != y->l)
        return x->l < y->l ? -1 : 1;
    if (x->tl != y->tl)
        return x->tl < y->tl ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

int joint_sibu_usual(joint *s, const uint32_t *trig, uint32_t *usual)
{
    uint32_t n = s->npairs, arr = s->nlinks;
    for (uint32_t j = 0; j < n; j++)
        usual[j] = NONE;
    s->sibu_rec[0] = s->sibu_rec[1] = s->sibu_rec[2] = 0;
    if (!s->p.conf_sib_usual || n == 0)
        return PB_OK;
    sibu_key *k = malloc((size_t)n * sizeof *k);
    if (!k)
        return PB_ENOMEM;
    size_t m = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t q = s->par[j];
        if (q == NONE || s->pr[j].call == NONE)
            continue;
        k[m].pl = s->pr[q].link;
        k[m].l = s->pr[j].link;
        k[m].tl = trig[j] == NONE ? arr : s->pr[trig[j]].link;
        k[m].j = j;
        m++;
    }
    pb_sort(k, m, sizeof *k, sibu_cmp);
    for (size_t a = 0; a < m;) {
        size_t b = a;
        while (b < m && k[b].pl == k[a].pl && k[b].l == k[a].l)
            b++;
        /* the most frequent trigger link of the group [a, b) */
        uint32_t best = NONE;
        size_t bestn = 0;
        for (size_t r = a; r < b;) {
            size_t e = r;
            while (e < b && k[e].tl == k[r].tl)
                e++;
            if (e - r > bestn) {
                bestn = e - r;
                best = k[r].tl;
            }
            r = e;
        }
        if (b - a >= JOINT_SIBU_MIN_ROWS && best != arr && best != k[a].l &&
            (double)bestn >= s->p.conf_sib_usual_share * (double)(b - a)) {
            s->sibu_rec[0]++;
            for (size_t r = a; r < b; r++) {
                if (k[r].tl == best)
                    continue;
                uint32_t j = k[r].j;
                if (s->conf_exempt && s->conf_exempt[j])
                    continue;
                /* the request holds a call on the usual trigger link; at
                 * 2, one that holds none is held by all its other calls */
                const kvec *kv = &s->kids[s->par[j]];
                for (uint32_t i = 0; i < kv->n; i++)
                    if (s->pr[kv->a[i]].link == best) {
                        usual[j] = best;
                        break;
                    }
                if (usual[j] == NONE && s->p.conf_sib_usual >= 2 && kv->n > 1)
                    usual[j] = arr;
                s->sibu_rec[1] += usual[j] != NONE;
            }
        }
        a = b;
    }
    free(k);
    return PB_OK;
}

double joint_sibu_cap(const joint *s, uint32_t j, uint32_t tl, const double *conf)
{
    double c = 2.0;
    const kvec *kv = &s->kids[s->par[j]];
    for (uint32_t i = 0; i < kv->n; i++)
        if ((tl == s->nlinks ? kv->a[i] != j : s->pr[kv->a[i]].link == tl) &&
            conf[kv->a[i]] < c)
            c = conf[kv->a[i]];
    return c;
}

int joint_sibu_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_sib_usual || !s->p.conf_siblings)
        return PB_OK;
    return pb_result_meta(res,
                          "conf_sib_usual=%d share=%.2f usual_links=%zu rows_out_of_order=%zu "
                          "rows_lowered=%zu (the siblings cap also by the request's calls on "
                          "the link that usually triggers a row's link, where the row was not "
                          "triggered by one; at 2, where the request holds none of those, by its "
                          "other calls)",
                          s->p.conf_sib_usual, s->p.conf_sib_usual_share, s->sibu_rec[0], s->sibu_rec[1],
                          s->sibu_rec[2]);
}
