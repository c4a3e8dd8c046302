/*
 * joint_rowtie.c - joint: at whole-tick stamps, the order of the rows as
 * the order of events within a tick, where the trace shows it is
 * (tie_rows; docs/joint/ticks_rows.md, "Rows within a tick").
 *
 * At a coarse tick (infer's coarse_ties=1) a call stamped in the same tick
 * as a request's arrival, or returned in the same tick as its response,
 * is a candidate of that request whatever happened first: at 10 ms on
 * services of a millisecond every request of a tick is a candidate of
 * every call of the tick, and neither the delays nor the start can tell
 * them apart.  A trace written in the order things happened (one log per
 * process, or logs merged by a stable sort on the stamp) still tells: the
 * request's call is in a row before the calls it makes, their returns in
 * rows before its response.  Rows merged from captures that do not keep
 * that order tell nothing.
 *
 * The test, per service a (the caller side of the calls, whose requests
 * are the candidates): of its calls with both messages and at least one
 * candidate, `cut` = those with a candidate the rows put out (arrived in
 * the call's tick but in a later row than the call, or answered in the
 * return's tick but in an earlier row than the return), `fail` = those the
 * rows would leave with no candidate at all.  If the rows are the order of
 * events the true parent always stays (fail is 0 but for loss); if they
 * are in no particular order within a tick, a call whose candidates the
 * rows cut is left with none in a large share of cases (each tied
 * candidate nests by rows with probability 1/6 at random).  The rows are
 * used at a when cut >= JOINT_ROWTIE_MIN (the rows decide something) and
 * fail <= tie_rows_fail * cut; then every candidate the rows put out is
 * dropped (a call the rows would leave with none keeps all of its own).
 * Without call ids the returns are paired by time, and a return paired
 * wrongly fails the test on the returns' side whatever the rows; so when
 * both sides together fail, the calls' side alone (the request arrived in
 * an earlier row than the call) is tested the same way and, when it
 * passes, used alone (used=calls).
 * Services whose calls may outlive their requests (joint_late.c) are
 * tested after the others, on the sides a late call leaves true, and
 * used only where no other service's rows fail (late_rows;
 * joint_latetie.c).  Where the rows are used, the start (made again when
 * the tie test keeps it) ranks a service's calls tied at send in the order of
 * their rows, not of their returns (joint_tiecall.c: that rule was made
 * for rows that say nothing within a tick); requests tied at arrival are
 * still ranked by their responses (joint_quant.c; by the rows instead:
 * the eBPF capture at 1 ms lost two requests).  Nothing runs without coarse ties: every trace whose stamps are
 * not coarse is byte for byte what it was.  Metadata per tested service:
 * tie_rows_service=NAME calls= cut= left_without= calls_side_cut=
 * calls_side_left_without= used=yes|calls|no.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* Does the row order put request q out as a parent of call p?  (Both are
 * pairs; only equal stamps are judged: times decide the rest.) */
static int row_out(const joint *s, uint32_t p, uint32_t q, int sides)
{
    const jpair *x = &s->pr[p], *r = &s->pr[q];
    if (r->call != NONE && r->cr == x->cs && r->call > x->call)
        return 1;
    if (sides == 2 && r->ret != NONE && r->rs == x->rr && r->ret < x->ret)
        return 1;
    return 0;
}

int joint_rowtie_decide(size_t cut, size_t fail, double share)
{
    return cut >= JOINT_ROWTIE_MIN && (double)fail <= share * (double)cut;
}

int joint_rowtie_apply(joint *s)
{
    if (!s->p.tie_rows || !s->coarse || !s->cand_off)
        return PB_OK;
    uint32_t n = s->npairs, nn = s->nnodes;
    if (!s->rowtie_st) {
        s->rowtie_st = calloc((size_t)nn + 1, sizeof *s->rowtie_st);
        if (!s->rowtie_st)
            return PB_ENOMEM;
    }
    joint_rowtie_stat *st = s->rowtie_st;
    s->rowtie_dropped = 0;
    memset(st, 0, ((size_t)nn + 1) * sizeof *st);
    for (uint32_t a = 0; a < nn; a++) {
        const int sd = joint_late_row_sides(s, a);
        st[a].late = sd == 3 ? 0 : 1 + sd;
    }
    for (uint32_t p = 0; p < n; p++) {
        const jpair *x = &s->pr[p];
        uint32_t a = x->caller, j0 = s->cand_off[p], j1 = s->cand_off[p + 1];
        if (x->call == NONE || x->ret == NONE || j0 == j1)
            continue;
        /* the sides tested (a late service: joint_latetie.c) */
        const int sides = st[a].late ? st[a].late - 1 : 2;
        if (!sides)
            continue;
        st[a].calls++;
        for (int k = sides == 2 ? 0 : 1; k < 2; k++) {
            uint32_t out = 0;
            for (uint32_t j = j0; j < j1; j++)
                out += row_out(s, p, s->cand[j], 2 - k);
            if (out) {
                st[a].cut[k]++;
                st[a].fail[k] += out == j1 - j0;
            }
        }
    }
    int any = 0;
    for (uint32_t a = 0; a < nn; a++) {
        /* both sides, else the calls' side alone (it does not depend on
         * how the returns were paired); late services after the others
         * (joint_latetie.c) */
        st[a].used = st[a].late ? 0
                     : joint_rowtie_decide(st[a].cut[0], st[a].fail[0], s->p.tie_rows_fail) ? 2
                     : joint_rowtie_decide(st[a].cut[1], st[a].fail[1], s->p.tie_rows_fail) ? 1
                                                                                            : 0;
        any |= st[a].used;
    }
    for (uint32_t a = 0; a < nn; a++)
        if (st[a].late) {
            st[a].used = joint_late_row_used(s, st, a);
            any |= st[a].used;
        }
    if (!any)
        return PB_OK;
    /* drop the candidates the rows put out, in place */
    uint32_t w = 0;
    for (uint32_t p = 0; p < n; p++) {
        const jpair *x = &s->pr[p];
        uint32_t j0 = s->cand_off[p], j1 = s->cand_off[p + 1];
        s->cand_off[p] = w;
        int use = j0 < j1 && x->call != NONE && x->ret != NONE ? st[x->caller].used : 0;
        uint32_t keep = 0;
        if (use)
            for (uint32_t j = j0; j < j1; j++)
                keep += !row_out(s, p, s->cand[j], use);
        if (!use || !keep) {
            memmove(s->cand + w, s->cand + j0, (size_t)(j1 - j0) * sizeof *s->cand);
            w += j1 - j0;
        } else {
            for (uint32_t j = j0; j < j1; j++)
                if (!row_out(s, p, s->cand[j], use))
                    s->cand[w++] = s->cand[j];
            s->rowtie_dropped += (j1 - j0) - keep;
        }
    }
    s->cand_off[n] = w;
    joint_cand_recount(s);
    return PB_OK;
}

int joint_rowtie_used(const joint *s, uint32_t a)
{
    return s->rowtie_st && s->rowtie_st[a].used;
}

int joint_rowtie_meta(const joint *s, pb_result *res)
{
    if (!s->rowtie_st)
        return PB_OK;
    int rc = PB_OK;
    for (uint32_t a = 0; a < s->nnodes && rc == PB_OK; a++) {
        const joint_rowtie_stat *t = &s->rowtie_st[a];
        if (!t->calls || (t->late && !t->used))
            continue; /* a late service is said only where its rows are used */
        static const char *what[] = {"no", "calls", "yes"};
        rc = pb_result_meta(res, "tie_rows_service=%s calls=%zu cut=%zu left_without=%zu "
                            "calls_side_cut=%zu calls_side_left_without=%zu used=%s%s",
                            pb_strtab_str(s->v.nodes, a), t->calls, t->cut[0], t->fail[0],
                            t->cut[1], t->fail[1], what[t->used],
                            !t->late                  ? ""
                            : joint_late_row_held(s, a) ? " late=held_both_sides"
                                                        : " late=calls_side");
    }
    if (rc == PB_OK)
        rc = pb_result_meta(res, "tie_rows=on candidates_dropped=%zu", s->rowtie_dropped);
    return rc;
}
