/*
 * joint_subtick.c - joint: at whole-tick stamps, the order of the rows
 * within a tick as the order of events, when the trace shows it is
 * (docs/joint/ticks.md, "Positions within a tick: the order of the rows").
 *
 * At a coarse tick (1 ms) most messages share their stamp with others, and
 * every delay of a fast service is zero or one tick: the delay densities
 * cannot tell apart the requests that arrived in one tick, and the search
 * trades them freely (the tie test, joint_quant.c, then keeps the start).
 * pathbench's rule for traces is that rows with equal ts are in the order
 * the events happened (docs/formats.md, "Timestamp resolution"); nesting
 * takes it at its word.  A writer may not keep it (rows merged from
 * several captures, sorted by another key within a second), so joint
 * checks it on the trace before it uses it.
 *
 * The check (no pairing, no model): within every run of rows with one ts,
 * two things a causal order never shows and a random one often does:
 *   - link: a return on a link A>B at a point where every call of the link
 *     before it already has a return (the link's calls less its returns,
 *     counted over the rows so far, is zero or less), while a call of the
 *     link comes later in the same run (the return answers that call);
 *   - service: a call sent by a service S that receives calls, at a point
 *     where S has answered every call it received (calls in less
 *     answers out, zero or less), while a call to S comes later in the
 *     same run (the call was sent for that request).
 * Each run counts at most once per link and once per service.  The same
 * count is made over every run read backwards.  A random order within a
 * tick is as likely as its reverse, so there the two counts are alike; an
 * order of events gives no contradictions read forwards (but for loss and
 * calls sent after their request's answer) and many read backwards.  The
 * rows are taken as the order of events when the backward count is at
 * least JOINT_SUBTICK_MIN (20: by chance alike with probability below
 * 2^-20 when the forward count is 0) and the forward count at most
 * subtick_share (default 0.05) of it.
 *
 * Then every run of k rows with one ts t is spread over the tick in row
 * order: row m (0-based) gets t + (2m + 1) tick / 2k (the expected
 * positions of k ordered uniform times), made odd and strictly increasing
 * in ns so that the spread trace has a 1 ns tick and no ties; a recv_ts
 * equal to the ts moves with it; any other (received in another tick: no
 * row says where in it) stays at the start of its tick, before everything
 * the receiver sends in that tick, so that no receipt is put after one of
 * its effects (at the middle of the tick, the first version, a request
 * received by a service could start after the calls it made: the real
 * sets at 1 ms, whose spans stamp receipt and send apart, lost 5-29
 * points).  joint then runs on
 * the spread copy as on a trace stamped in ns (the tie test, tie_cross,
 * tie_orphans, tie_calls, tick0 and tick_ivl see no coarse stamps and do
 * not run).  The result's links are by message id; its latencies are those
 * of the spread stamps.
 *
 * On the spread rows the tie test (joint_quant.c) still judges the
 * search against the start at the original tick (subtick_tie) only where
 * at most half of the calls carry a call id: there the returns are paired
 * by the spread positions, which are estimates.  With call ids the pairs
 * are read from the trace and the search is kept as at ns stamps (the
 * pool and the eBPF capture with ids at 1 ms: the kept start was first
 * come, first served on the spread rows, 1.5-17 points below the search;
 * subtick_tie_ids restores the former rule; metadata subtick_tie=).
 *
 * The verdict is per service (joint_subsvc.c): each contradiction is also
 * kept by the pair of services whose rows it sets against each other, the
 * services out of order are put out, and where some but not all services
 * are kept only their rows are spread (spread=services).
 *
 * Metadata whenever the stamps are coarse: subtick=<mode> tick= runs=
 * forward= backward= share= spread=yes|no|services, and per service with a
 * backward count, subtick_service=NAME forward= backward= (the callee for
 * links); where the verdict is mixed, joint_subsvc.c's lines.
 */
#include "joint_int.h"
#include "pb_sort.h"
#include "pb_tick.h"
#include <stdlib.h>
#include <string.h>

static int cmp_key(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* the link of a call or return (caller << 32 | callee); UINT64_MAX other */
static uint64_t link_key(const pb_msg *m)
{
    if (m->type == PB_TYPE_CALL)
        return (uint64_t)m->src << 32 | m->dst;
    if (m->type == PB_TYPE_RETURN)
        return (uint64_t)m->dst << 32 | m->src;
    return UINT64_MAX;
}

/* one pass over a run [i0, i1) of rows, forwards (dir 1) or backwards
 * (dir -1), from the state bal (per link) / opn (per node); per link and
 * per node flags set on a contradiction (fl, fn: 1 forwards, 2 backwards);
 * rc, ri: calls of the link / calls to the node still to come in the run
 * (consumed).  The state is updated as the rows are read. */
static void run_pass(const pb_msg *msgs, const uint32_t *lk, size_t i0, size_t i1, int dir,
                     long *bal, long *opn, const unsigned char *hasin, uint32_t *rc,
                     uint32_t *ri, unsigned char *fl, unsigned char *fn, unsigned char bit,
                     uint32_t *who)
{
    for (size_t t = 0; t < i1 - i0; t++) {
        size_t i = dir > 0 ? i0 + t : i1 - 1 - t;
        const pb_msg *m = &msgs[i];
        uint32_t l = lk[i];
        if (l == UINT32_MAX)
            continue;
        if (m->type == PB_TYPE_CALL) {
            if (hasin[m->src] && opn[m->src] <= 0 && ri[m->src] > 0 && !(fn[m->src] & bit)) {
                fn[m->src] |= bit;
                /* the sender of a call to src still to come */
                uint32_t w = UINT32_MAX;
                for (size_t u = t + 1; u < i1 - i0 && w == UINT32_MAX; u++) {
                    size_t j = dir > 0 ? i0 + u : i1 - 1 - u;
                    if (lk[j] != UINT32_MAX && msgs[j].type == PB_TYPE_CALL &&
                        msgs[j].dst == m->src)
                        w = msgs[j].src;
                }
                who[2 * (size_t)m->src + (bit == 2)] = w;
            }
            bal[l]++;
            opn[m->dst]++;
            rc[l]--;
            ri[m->dst]--;
        } else {
            if (bal[l] <= 0 && rc[l] > 0)
                fl[l] |= bit;
            bal[l]--;
            opn[m->src]--;
        }
    }
}

int joint_subtick_test(const pb_trace_view *v, joint_subtick *st)
{
    size_t n = v->n, nk = 0;
    uint32_t nn = (uint32_t)pb_strtab_count(v->nodes);
    uint64_t *keys = malloc((n + 1) * sizeof *keys);
    uint32_t *lk = malloc((n + 1) * sizeof *lk);
    unsigned char *hasin = calloc((size_t)nn + 1, 1);
    st->svc_fwd = calloc((size_t)nn + 1, sizeof *st->svc_fwd);
    st->svc_bwd = calloc((size_t)nn + 1, sizeof *st->svc_bwd);
    st->nnodes = nn;
    int rc = PB_OK;
    long *bal = NULL, *opn = NULL;
    uint32_t *rcall = NULL, *rin = NULL;
    unsigned char *fl = NULL, *fn = NULL;
    uint32_t *who = malloc(((size_t)nn + 1) * 2 * sizeof *who);
    if (!keys || !lk || !hasin || !st->svc_fwd || !st->svc_bwd || !who) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t k = link_key(&v->msgs[i]);
        if (k != UINT64_MAX && v->msgs[i].src < nn && v->msgs[i].dst < nn)
            keys[nk++] = k;
        if (v->msgs[i].type == PB_TYPE_CALL && v->msgs[i].dst < nn)
            hasin[v->msgs[i].dst] = 1;
    }
    pb_sort(keys, nk, sizeof *keys, cmp_key);
    size_t nl = 0;
    for (size_t i = 0; i < nk; i++)
        if (!nl || keys[i] != keys[nl - 1])
            keys[nl++] = keys[i];
    for (size_t i = 0; i < n; i++) {
        uint64_t k = link_key(&v->msgs[i]);
        const uint64_t *f = k == UINT64_MAX || v->msgs[i].src >= nn || v->msgs[i].dst >= nn
                                ? NULL
                                : pb_search(&k, keys, nl, sizeof *keys, cmp_key);
        lk[i] = f ? (uint32_t)(f - keys) : UINT32_MAX;
    }
    bal = calloc(nl + 1, sizeof *bal);
    opn = calloc((size_t)nn + 1, sizeof *opn);
    rcall = calloc(nl + 1, sizeof *rcall);
    rin = calloc((size_t)nn + 1, sizeof *rin);
    fl = calloc(nl + 1, 1);
    fn = calloc((size_t)nn + 1, 1);
    if (!bal || !opn || !rcall || !rin || !fl || !fn) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (size_t i0 = 0; i0 < n;) {
        size_t i1 = i0 + 1;
        while (i1 < n && v->msgs[i1].ts == v->msgs[i0].ts)
            i1++;
        if (i1 - i0 > 1) {
            st->runs++;
            /* the state before the run, to read it again backwards */
            for (size_t i = i0; i < i1; i++) {
                uint32_t l = lk[i];
                if (l == UINT32_MAX)
                    continue;
                fl[l] = 0;
                fn[v->msgs[i].src] = fn[v->msgs[i].dst] = 0;
            }
            for (int pass = 0; pass < 2; pass++) {
                for (size_t i = i0; i < i1; i++)
                    if (lk[i] != UINT32_MAX && v->msgs[i].type == PB_TYPE_CALL) {
                        rcall[lk[i]]++;
                        rin[v->msgs[i].dst]++;
                    }
                run_pass(v->msgs, lk, i0, i1, pass ? -1 : 1, bal, opn, hasin, rcall, rin, fl,
                         fn, (unsigned char)(pass ? 2 : 1), who);
                if (!pass) /* undo: the backward pass starts from the same state */
                    for (size_t i = i0; i < i1; i++) {
                        uint32_t l = lk[i];
                        if (l == UINT32_MAX)
                            continue;
                        if (v->msgs[i].type == PB_TYPE_CALL) {
                            bal[l]--;
                            opn[v->msgs[i].dst]--;
                        } else {
                            bal[l]++;
                            opn[v->msgs[i].src]++;
                        }
                    }
            }
            /* count each link and service of the run once */
            for (size_t i = i0; i < i1; i++) {
                uint32_t l = lk[i];
                if (l == UINT32_MAX)
                    continue;
                uint32_t callee = (uint32_t)(keys[l] & 0xffffffffu);
                uint32_t caller = (uint32_t)(keys[l] >> 32);
                if (fl[l] & 1) {
                    st->fwd++;
                    st->svc_fwd[callee]++;
                    if (rc == PB_OK)
                        rc = joint_subsvc_note(st, caller, callee, 1);
                }
                if (fl[l] & 2) {
                    st->bwd++;
                    st->svc_bwd[callee]++;
                    if (rc == PB_OK)
                        rc = joint_subsvc_note(st, caller, callee, 2);
                }
                fl[l] = 0;
                uint32_t a = v->msgs[i].src, b = v->msgs[i].dst;
                for (int w = 0; w < 2; w++) {
                    uint32_t x = w ? b : a;
                    if (fn[x] & 1) {
                        st->fwd++;
                        st->svc_fwd[x]++;
                        if (rc == PB_OK)
                            rc = joint_subsvc_note(st, x, who[2 * (size_t)x], 1);
                    }
                    if (fn[x] & 2) {
                        st->bwd++;
                        st->svc_bwd[x]++;
                        if (rc == PB_OK)
                            rc = joint_subsvc_note(st, x, who[2 * (size_t)x + 1], 2);
                    }
                    fn[x] = 0;
                }
            }
        } else if (lk[i0] != UINT32_MAX) {
            const pb_msg *m = &v->msgs[i0];
            if (m->type == PB_TYPE_CALL) {
                bal[lk[i0]]++;
                opn[m->dst]++;
            } else {
                bal[lk[i0]]--;
                opn[m->src]--;
            }
        }
        i0 = i1;
    }
done:
    free(who);
    free(keys);
    free(lk);
    free(hasin);
    free(bal);
    free(opn);
    free(rcall);
    free(rin);
    free(fl);
    free(fn);
    return rc;
}

int joint_subtick_passes(double fwd, double bwd, double share)
{
    return bwd >= JOINT_SUBTICK_MIN && fwd <= share * bwd;
}

/* row m of a run of k rows in one tick: its offset in the tick (odd ns,
 * increasing, at most tick - 1 where there is room); *prev the offset of
 * row m - 1 (-1 before the first), updated */
pb_ns joint_subtick_offset(size_t m, size_t k, pb_ns tick, pb_ns *prev)
{
    pb_ns off = (pb_ns)(((2.0 * (double)m + 1.0) * (double)tick) / (2.0 * (double)k));
    off |= 1;
    if (off <= *prev)
        off = *prev + 1;
    if (off > tick - 1 && *prev < tick - 1)
        off = tick - 1;
    *prev = off;
    return off;
}


int joint_subtick_spread(const pb_msg *msgs, size_t n, pb_ns tick, pb_msg **out)
{
    *out = NULL;
    pb_msg *c = malloc((n + 1) * sizeof *c);
    if (!c)
        return PB_ENOMEM;
    if (n)
        memcpy(c, msgs, n * sizeof *c);
    for (size_t i0 = 0; i0 < n;) {
        size_t i1 = i0 + 1;
        while (i1 < n && msgs[i1].ts == msgs[i0].ts)
            i1++;
        size_t k = i1 - i0;
        pb_ns prev = -1;
        for (size_t m = 0; m < k; m++) {
            pb_ns off = joint_subtick_offset(m, k, tick, &prev);
            pb_msg *x = &c[i0 + m];
            const pb_msg *o = &msgs[i0 + m];
            x->ts = o->ts + off;
            if (o->recv_ts == o->ts)
                x->recv_ts = x->ts;
            /* any other receipt stays at the start of its tick */
        }
        i0 = i1;
    }
    *out = c;
    return PB_OK;
}

int joint_subtick_prepare(const pb_trace_view *v, const joint_params *p, joint_subtick **stp,
                          pb_msg **spread)
{
    *stp = NULL;
    *spread = NULL;
    const char *mode = p->subtick ? p->subtick : "auto";
    if (!strcmp(mode, "off"))
        return PB_OK;
    pb_tick_info ti;
    pb_tick_detect(v->msgs, v->n, &ti);
    int on = !strcmp(mode, "on");
    if (ti.tick <= 1 || (!on && !ti.coarse_ties))
        return PB_OK;
    joint_subtick *st = calloc(1, sizeof *st);
    if (!st)
        return PB_ENOMEM;
    st->tick = ti.tick;
    st->mode = on ? 1 : 0;
    int rc = joint_subtick_test(v, st);
    st->blame = p->subtick_blame;
    if (rc == PB_OK && !on)
        rc = joint_subsvc_decide(st, v, p->subtick_share); /* per service (joint_subsvc.c) */
    if (rc == PB_OK) {
        /* every service that sends rows taken in order: every run spread, as
         * the trace-wide rule did; some: their rows (joint_subsvc.c) */
        st->spread = on || (st->nspread > 0 && st->nspread == st->nsend);
        st->partial = !on && st->nspread > 0 && st->nspread < st->nsend;
        if (st->spread)
            rc = joint_subtick_spread(v->msgs, v->n, ti.tick, spread);
        else if (st->partial)
            rc = joint_subsvc_spread(st, v->msgs, v->n, spread);
    }
    if (rc != PB_OK) {
        joint_subtick_free(st);
        return rc;
    }
    *stp = st;
    return PB_OK;
}

int joint_subtick_tie_applies(const pb_trace_view *v, const joint_params *p)
{
    if (!p->subtick_tie)
        return 0;
    if (p->subtick_tie_ids || !p->callids)
        return 1;
    if (p->subtick_tie_links) /* per link (joint_subsvc.c) */
        return joint_subsvc_links_unpaired(v, NULL) > 0;
    size_t calls = 0, ids = 0;
    for (size_t i = 0; i < v->n; i++)
        if (v->msgs[i].type == PB_TYPE_CALL) {
            calls++;
            ids += v->msgs[i].callid != PB_ID_NONE;
        }
    return 2 * ids <= calls;
}

void joint_subtick_free(joint_subtick *st)
{
    if (!st)
        return;
    free(st->svc_fwd);
    free(st->svc_bwd);
    joint_subsvc_free(st);
    free(st);
}

int joint_subtick_meta(const joint *s, pb_result *res)
{
    const joint_subtick *st = s->subtick;
    if (!st)
        return PB_OK;
    char tb[PB_TICK_BUF];
    int rc = pb_result_meta(res,
                            "subtick=%s tick=%s runs=%zu forward=%zu backward=%zu share=%.4f "
                            "spread=%s",
                            st->mode ? "on" : "auto", pb_tick_format(st->tick, tb), st->runs,
                            st->fwd, st->bwd,
                            st->bwd ? (double)st->fwd / (double)st->bwd : 0.0,
                            st->spread ? "yes" : st->partial ? "services" : "no");
    if (rc == PB_OK && st->partial)
        rc = joint_subsvc_meta(s, res);
    if (rc == PB_OK && (st->spread || st->partial)) {
        size_t calls = 0, ids = 0;
        for (size_t i = 0; i < s->v.n; i++)
            if (s->v.msgs[i].type == PB_TYPE_CALL) {
                calls++;
                ids += s->v.msgs[i].callid != PB_ID_NONE;
            }
        rc = pb_result_meta(res, "subtick_tie=%s calls=%zu with_call_ids=%zu",
                            joint_subtick_tie_applies(&s->v, &s->p) ? "original_tick" : "off",
                            calls, ids);
        /* call ids on some links only: the tie test counts the moves on
         * the links paired by position (joint_subsvc.c) */
        size_t nl = 0, unp = s->p.subtick_tie_links && s->p.callids &&
                                     !s->p.subtick_tie_ids && s->p.subtick_tie
                                 ? joint_subsvc_links_unpaired(&s->v, &nl)
                                 : 0;
        if (rc == PB_OK && unp && unp < nl)
            rc = pb_result_meta(res, "subtick_tie_links=%zu of=%zu counted=moves_touching_them",
                                unp, nl);
    }
    for (uint32_t a = 0; rc == PB_OK && a < st->nnodes; a++)
        if (st->svc_bwd[a] || st->svc_fwd[a])
            rc = pb_result_meta(res, "subtick_service=%s forward=%zu backward=%zu",
                                pb_strtab_str(s->v.nodes, a), st->svc_fwd[a], st->svc_bwd[a]);
    return rc;
}
