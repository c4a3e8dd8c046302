/*
 * joint_unpmerge.c - unp_pieces' merged solution (`-s unp_pieces=1` with
 * `unpaired=1`; docs/joint/loss.md, "The merge").
 *
 * joint_unppiece.c decides, piece by piece, whether the second search's
 * partition (the one with the unpaired messages the flow chose) is kept.
 * When some pieces but not all are taken, the output is neither search:
 * the first search's pairs and parents outside the taken pieces, the
 * second's inside them.  A piece is closed under both solutions' requests
 * (joint_unppiece.c), so no pair and no parent crosses a piece's border and
 * the two halves fit together without a cycle.  The merged pairs are
 * given to the set-up directly (joint_find_pairs: no alignment, which is
 * per link and would pair the untaken pieces again), the parents set, and
 * the model refitted once; no search.  So a lost call or return changes
 * only the requests of the pieces whose likelihood asked for it.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

/* the first message of pair q of o: its call, else its return */
static uint32_t first_msg(const joint *o, uint32_t q)
{
    return o->pr[q].call != JOINT_NONE ? o->pr[q].call : o->pr[q].ret;
}

/* pairs and parents of solution o (side i) whose messages sec puts on
 * side i into mate / gpar; from: pairs counted.  0, or 1 when a pair or a
 * parent crosses the sides (the pieces were not closed: no merge) */
static int take_side(const joint *o, int i, const unsigned char *sec, uint32_t *mate,
                     uint32_t *gpar, size_t *from)
{
    for (uint32_t q = 0; q < o->npairs; q++) {
        uint32_t c = o->pr[q].call, r = o->pr[q].ret, m = first_msg(o, q);
        if (m == JOINT_NONE || sec[m] != i)
            continue;
        if (c != JOINT_NONE && r != JOINT_NONE) {
            if (sec[r] != i)
                return 1;
            mate[c] = r;
            mate[r] = c;
        }
        uint32_t pp = o->par[q];
        gpar[m] = pp == JOINT_NONE ? JOINT_NONE : first_msg(o, pp);
        if (gpar[m] != JOINT_NONE && sec[gpar[m]] != i)
            return 1;
        (*from)++;
    }
    return 0;
}

int joint_unpm_build(joint **out, const pb_trace_view *v, joint *f, joint *s, pb_error *err)
{
    *out = NULL;
    const unsigned char *sec = f->unpp_sec;
    if (!sec)
        return PB_OK; /* no piece, none taken: the first search is the output */
    size_t n = v->n;
    uint32_t *mate = malloc((n + 1) * sizeof *mate), *gpar = malloc((n + 1) * sizeof *gpar);
    if (!mate || !gpar) {
        free(mate);
        free(gpar);
        return PB_ENOMEM;
    }
    for (size_t m = 0; m < n; m++) {
        mate[m] = JOINT_NONE;
        gpar[m] = JOINT_UNPM_SKIP;
    }
    size_t from[2] = {0, 0};
    int cross = take_side(f, 0, sec, mate, gpar, &from[0]) ||
                take_side(s, 1, sec, mate, gpar, &from[1]);
    joint *mg = NULL;
    int rc = PB_OK;
    if (!cross)
        rc = joint_search_given(&mg, v, &s->p, err, s->pord_hold, mate, gpar);
    free(mate);
    free(gpar);
    if (rc != PB_OK)
        return rc;
    if (cross) { /* cannot happen with closed pieces; the first search stays */
        f->unpm_on = -1;
        return PB_OK;
    }
    mg->unpm_on = 1;
    mg->unpm_pairs[0] = from[0];
    mg->unpm_pairs[1] = from[1];
    /* the pieces' record (held by f, the output until now) and the unpaired
     * step's (held by s) go with the merged solution */
    mg->unpp_on = f->unpp_on;
    memcpy(mg->unpwh, f->unpwh, sizeof mg->unpwh); /* unp_where (joint_unpwhere.c) */
    mg->unpp_n = f->unpp_n;
    mg->unpp_taken = f->unpp_taken;
    mg->unpp_msgs = f->unpp_msgs;
    mg->unpp_llr = f->unpp_llr;
    mg->unpp_size = f->unpp_size;
    mg->unpp_tk = f->unpp_tk;
    mg->unpp_first = f->unpp_first;
    mg->unpp_tmsg = f->unpp_tmsg;
    f->unpp_tmsg = NULL;
    f->unpp_llr = NULL;
    f->unpp_size = NULL;
    f->unpp_tk = NULL;
    f->unpp_first = NULL;
    /* the free / held choice and the busy test were the second search's
     * (its parameters are the merge's): their record goes with the merge,
     * as joint_bbserial_pick carries it (per-link statistics are not: the
     * merged links may be numbered otherwise) */
    mg->pord_chosen = s->pord_chosen;
    mg->pwin = s->pwin;
    for (int i = 0; i < 4; i++)
        mg->pord_ll[i] = s->pord_ll[i];
    mg->pick_stat = s->pick_stat;
    s->pick_stat = NULL;
    for (int i = 0; i < 4; i++)
        mg->pick_sum[i] = s->pick_sum[i];
    for (int i = 0; i < 6; i++)
        mg->part_sum[i] = s->part_sum[i];
    mg->unp_rec = s->unp_rec;
    mg->nunp_rec = s->nunp_rec;
    mg->unp_changed = s->unp_changed;
    memcpy(mg->unpl_rec, s->unpl_rec, sizeof mg->unpl_rec); /* unp_lite (joint_unplite.c) */
    memcpy(mg->ucert_rec, s->ucert_rec, sizeof mg->ucert_rec); /* unp_cert (joint_unpcert.c) */
    memcpy(mg->uwb_rec, s->uwb_rec, sizeof mg->uwb_rec); /* unp_wboth (joint_unpwboth.c) */
    memcpy(mg->uwl_rec, s->uwl_rec, sizeof mg->uwl_rec); /* unp_wlocal (joint_unpwlocal.c) */
    mg->unp_rerun = 1;
    mg->unp_ll[0] = s->unp_ll[0];
    mg->unp_ll[1] = s->unp_ll[1];
    s->unp_rec = NULL;
    s->nunp_rec = 0;
    *out = mg;
    return PB_OK;
}

/* the given parents as candidates where the merged set-up did not find
 * them (a late gap or a cap learned on other pairs): appended to the
 * call's list, counted.  PB_OK or PB_ENOMEM */
static int add_given(joint *s, const uint32_t *want)
{
    uint32_t n = s->npairs;
    size_t extra = 0;
    for (uint32_t p = 0; p < n; p++)
        extra += want[p] != JOINT_NONE && !joint_has_cand(s, p, want[p]);
    if (!extra)
        return PB_OK;
    uint32_t *no = malloc(((size_t)n + 1) * sizeof *no);
    uint32_t *nc = malloc((s->ncand + extra + 1) * sizeof *nc);
    if (!no || !nc) {
        free(no);
        free(nc);
        return PB_ENOMEM;
    }
    size_t k = 0;
    for (uint32_t p = 0; p < n; p++) {
        no[p] = (uint32_t)k;
        int has = 0;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            has |= s->cand[j] == want[p];
            nc[k++] = s->cand[j];
        }
        if (want[p] != JOINT_NONE && !has)
            nc[k++] = want[p];
    }
    no[n] = (uint32_t)k;
    free(s->cand_off);
    free(s->cand);
    s->cand_off = no;
    s->cand = nc;
    s->ncand = s->candcap = k;
    s->unpm_addcand = extra;
    return PB_OK;
}

int joint_unpm_finish(joint *s)
{
    /* the re-pairing's set-up (durations, arrival order, order of answers)
     * without its rounds: the returns are given */
    int rep = s->p.repair;
    s->p.repair = 0;
    int rc = joint_repair_rounds(s);
    s->p.repair = rep;
    if (rc == PB_OK && s->late_hold) { /* no orphan held: the parents are given */
        s->late_hold = 0;
        rc = joint_find_candidates(s);
    }
    uint32_t n = s->npairs;
    uint32_t *want = rc == PB_OK ? malloc(((size_t)n + 1) * sizeof *want) : NULL;
    if (rc == PB_OK && !want)
        rc = PB_ENOMEM;
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        want[p] = JOINT_NONE;
    for (size_t m = 0; rc == PB_OK && m < s->v.n; m++) {
        uint32_t g = s->unpm_par[m], p = s->pair_of_msg[m];
        if (g == JOINT_UNPM_SKIP || g == JOINT_NONE || p == JOINT_NONE)
            continue;
        want[p] = s->pair_of_msg[g];
    }
    if (rc == PB_OK)
        rc = add_given(s, want);
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        if (s->par[p] != JOINT_NONE)
            rc = joint_set_parent(s, p, JOINT_NONE);
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        if (want[p] != JOINT_NONE)
            rc = joint_set_parent(s, p, want[p]);
    free(want);
    return rc == PB_OK ? joint_refit_moved(s) : rc; /* joint_tiecross.c */
}

int joint_unpm_meta(const joint *s, pb_result *res)
{
    if (!s->unpm_on)
        return PB_OK;
    if (s->unpm_on < 0)
        return pb_result_meta(res, "unp_merge=declined reason=piece_not_closed output=first");
    return pb_result_meta(res, "unp_merge=built pairs_first=%zu pairs_second=%zu added_candidates=%zu",
                          s->unpm_pairs[0], s->unpm_pairs[1], s->unpm_addcand);
}

/* h199: an output set up from given pairs -- the merge, or a windowed
 * second search (unp_win=1|2, not whole) -- ran no alignment of its own,
 * so its metadata had no align_link lines (align_links=0); its pairs
 * outside the taken pieces are the first search's, whose alignment
 * records (the nesting test's links and counts) go with it.  Metadata
 * only: nothing reads them after the set-up (docs/joint/loss_late.md). */
void joint_unpm_align_carry(joint *o, joint *f)
{
    if (!o || !f || o == f)
        return;
    free(o->align_rec);
    o->align = f->align;
    o->align_rec = f->align_rec;
    o->nalign_rec = f->nalign_rec;
    f->align_rec = NULL;
    f->nalign_rec = 0;
}
