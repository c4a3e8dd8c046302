/*
 * joint_subsvc.c - joint: the rows within a tick as the order of events,
 * decided per service (docs/joint/ticks_rows.md, "Positions within a tick: per
 * service").
 *
 * joint_subtick.c checks the rows of every run of one ts against two
 * things an order of events never shows (a return before the call it
 * answers; a call sent before the request it serves), forwards and
 * backwards.  A trace merged from several hosts or runtimes may keep the
 * order of events for some services and not for others (one batches its
 * log lines, one sorts them by another key).  Every contradiction sets
 * the rows of two services against each other: a return of B on the link
 * A>B against A's call; a call sent by S against the call to S by its
 * caller P.  A service whose rows are out of order gives contradictions
 * with every service it talks to, forwards about as often as backwards;
 * the services in order give none among themselves forwards.  So the
 * services are put out one by one: the one whose forward contradictions
 * with the services still kept exceed subtick_share x max(backward,
 * JOINT_SUBTICK_MIN) by most, until none does.  A service kept with at
 * least JOINT_SUBTICK_MIN backward contradictions (against services kept)
 * is taken in order on its own evidence; one with fewer on the pooled
 * counts of the kept services (joint_subtick_passes over their sums).
 *
 * Where every service that sends rows is taken in order, or none is,
 * subtick spreads every run or none exactly as before (joint_subtick.c;
 * then the pooled counts are the trace's counts and the output is byte
 * for byte the former).  Otherwise the rows of the services taken in
 * order are spread over their tick as before, and every other row of a
 * run (its sender's place in the tick unknown) is taken as sent as late
 * as its tick allows and received as early: its send stamp goes after the
 * spread rows (calls before returns), its receipt, when in the same tick,
 * to the start of the tick.  So every request its sender receives in the
 * tick encloses its calls, and everything its receiver does in the tick
 * comes after it: for these rows the candidates are those of the whole
 * tick, as at coarse stamps (the tie test still judges at the original
 * tick, joint_subtick_tie_applies).  The copy is sorted again by ts.
 */
#include "joint_int.h"
#include "pb_sort.h"
#include "pb_tick.h"
#include <stdlib.h>
#include <string.h>

int joint_subsvc_note(joint_subtick *st, uint32_t a, uint32_t b, int dir)
{
    if (b == UINT32_MAX)
        b = a;
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    if (st->np == st->pcap) {
        size_t c = st->pcap ? 2 * st->pcap : 64;
        uint64_t *k = realloc(st->pk, c * sizeof *k);
        if (!k)
            return PB_ENOMEM;
        st->pk = k;
        unsigned char *d = realloc(st->pd, c);
        if (!d)
            return PB_ENOMEM;
        st->pd = d;
        st->pcap = c;
    }
    st->pk[st->np] = (uint64_t)a << 32 | b;
    st->pd[st->np++] = (unsigned char)dir;
    return PB_OK;
}

typedef struct upair {
    uint64_t k;
    size_t f, b;
} upair;

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static double excess(size_t f, size_t b, double share)
{
    double e = (double)(b > JOINT_SUBTICK_MIN ? b : JOINT_SUBTICK_MIN);
    return (double)f - share * e;
}

int joint_subsvc_decide(joint_subtick *st, const pb_trace_view *v, double share)
{
    uint32_t nn = st->nnodes;
    free(st->svc_how);
    free(st->svc_f);
    free(st->svc_b);
    st->svc_how = calloc((size_t)nn + 1, 1);
    st->svc_f = calloc((size_t)nn + 1, sizeof *st->svc_f);
    st->svc_b = calloc((size_t)nn + 1, sizeof *st->svc_b);
    uint64_t *keys = malloc((st->np + (size_t)nn + 1) * sizeof *keys);
    upair *u = malloc((st->np + 1) * sizeof *u);
    unsigned char *in = malloc((size_t)nn + 1);
    if (!st->svc_how || !st->svc_f || !st->svc_b || !keys || !u || !in) {
        free(keys);
        free(u);
        free(in);
        return PB_ENOMEM;
    }
    /* the pairs, each with its counts (the direction in the low bit) */
    for (size_t i = 0; i < st->np; i++)
        keys[i] = st->pk[i] << 1 | (st->pd[i] == 2);
    pb_sort(keys, st->np, sizeof *keys, cmp_u64);
    size_t nu = 0;
    for (size_t i = 0; i < st->np; i++) {
        uint64_t k = keys[i] >> 1;
        if (!nu || u[nu - 1].k != k)
            u[nu++] = (upair){k, 0, 0};
        if (keys[i] & 1)
            u[nu - 1].b++;
        else
            u[nu - 1].f++;
    }
    for (size_t i = 0; i < v->n; i++)
        if (v->msgs[i].src < nn)
            st->svc_how[v->msgs[i].src] = 1;
    for (uint32_t x = 0; x < nn; x++)
        in[x] = st->svc_how[x] != 0;
    size_t *nfail = calloc((size_t)nn + 1, sizeof *nfail);
    size_t *nvouch = calloc((size_t)nn + 1, sizeof *nvouch);
    /* blamed[x]: x failed a pair with a service put out (subtick_blame) */
    unsigned char *blamed = calloc((size_t)nn + 1, 1);
    st->nblamed = 0;
    if (!nfail || !nvouch || !blamed) {
        free(blamed);
        free(nfail);
        free(nvouch);
        free(keys);
        free(u);
        free(in);
        return PB_ENOMEM;
    }
    for (;;) {
        memset(st->svc_f, 0, (size_t)nn * sizeof *st->svc_f);
        memset(st->svc_b, 0, (size_t)nn * sizeof *st->svc_b);
        memset(nfail, 0, (size_t)nn * sizeof *nfail);
        memset(nvouch, 0, (size_t)nn * sizeof *nvouch);
        for (uint32_t x = 0; x < nn; x++)
            blamed[x] &= 1;
        st->pool_fwd = st->pool_bwd = 0;
        size_t fails = 0;
        for (size_t i = 0; i < nu; i++) {
            uint32_t a = (uint32_t)(u[i].k >> 32), b = (uint32_t)(u[i].k & 0xffffffffu);
            if (a >= nn || b >= nn || !in[a] || !in[b])
                continue;
            st->svc_f[a] += u[i].f;
            st->svc_b[a] += u[i].b;
            if (b != a) {
                st->svc_f[b] += u[i].f;
                st->svc_b[b] += u[i].b;
            }
            st->pool_fwd += u[i].f;
            st->pool_bwd += u[i].b;
            /* a pair fails on its own counts; one that passes with enough
             * evidence vouches for both */
            size_t *cnt = excess(u[i].f, u[i].b, share) > 0 ? nfail
                          : u[i].b >= JOINT_SUBTICK_MIN ? nvouch
                                                        : NULL;
            if (cnt) {
                cnt[a]++;
                if (b != a)
                    cnt[b]++;
            }
            if (!u[i].f && u[i].b >= JOINT_SUBTICK_MIN) /* a clean pair */
                blamed[a] |= 2, blamed[b] |= 2;
            fails += cnt == nfail;
        }
        uint32_t worst = UINT32_MAX;
        if (!fails) {
            /* subtick_blame: rows in the order of events never contradict
             * each other forwards; a service whose pair with a service put
             * out failed (its disorder may be what that pair saw: a chain's
             * shuffled service is seen through its callee, and when the
             * callee is put out that evidence goes with it), that still
             * shows a forward contradiction against the services kept and
             * that no clean pair vouches for (none with 0 forward and at
             * least JOINT_SUBTICK_MIN backward: a hub in order keeps its
             * clean links to its other callees) is put out too, the most
             * forward first */
            for (uint32_t x = 0; st->blame && x < nn; x++)
                if (in[x] && blamed[x] == 1 && st->svc_f[x] > 0 &&
                    (worst == UINT32_MAX || st->svc_f[x] > st->svc_f[worst]))
                    worst = x;
            if (worst == UINT32_MAX)
                break;
            st->nblamed++;
        } else {
            /* the service in the most failing pairs, then the one the fewest
             * passing pairs vouch for, then the most forward contradictions */
            for (uint32_t x = 0; x < nn; x++) {
                if (!in[x] || !nfail[x])
                    continue;
                if (worst == UINT32_MAX || nfail[x] > nfail[worst] ||
                    (nfail[x] == nfail[worst] &&
                     (nvouch[x] < nvouch[worst] ||
                      (nvouch[x] == nvouch[worst] && st->svc_f[x] > st->svc_f[worst]))))
                    worst = x;
            }
        }
        /* its kept partners in failing pairs */
        for (size_t i = 0; i < nu; i++) {
            uint32_t a = (uint32_t)(u[i].k >> 32), b = (uint32_t)(u[i].k & 0xffffffffu);
            uint32_t y = a == worst ? b : b == worst ? a : UINT32_MAX;
            if (y < nn && y != worst && in[y] && excess(u[i].f, u[i].b, share) > 0)
                blamed[y] |= 1;
        }
        in[worst] = 0;
        st->svc_how[worst] = fails ? 3 : 5;
        /* its counts when put out (svc_f / svc_b are recounted) */
        keys[worst] = (uint64_t)st->svc_f[worst] << 32 | (st->svc_b[worst] & 0xffffffffu);
    }
    free(nfail);
    free(nvouch);
    free(blamed);
    for (uint32_t x = 0; x < nn; x++)
        if (st->svc_how[x] == 3 || st->svc_how[x] == 5) {
            st->svc_f[x] = (size_t)(keys[x] >> 32);
            st->svc_b[x] = (size_t)(keys[x] & 0xffffffffu);
        }
    int pooled = joint_subtick_passes((double)st->pool_fwd, (double)st->pool_bwd, share);
    st->nsend = st->nspread = 0;
    for (uint32_t x = 0; x < nn; x++) {
        if (!st->svc_how[x])
            continue;
        st->nsend++;
        if (in[x])
            st->svc_how[x] = st->svc_b[x] >= JOINT_SUBTICK_MIN ? 1 : pooled ? 2 : 4;
        st->nspread += st->svc_how[x] == 1 || st->svc_how[x] == 2;
    }
    free(keys);
    free(u);
    free(in);
    return PB_OK;
}

/* a row's place in the spread copy */
typedef struct srow {
    pb_ns ts;
    size_t i;
} srow;

static int cmp_srow(const void *x, const void *y)
{
    const srow *a = x, *b = y;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static int spread_ok(const joint_subtick *st, uint32_t node)
{
    return node < st->nnodes && (st->svc_how[node] == 1 || st->svc_how[node] == 2);
}

int joint_subsvc_spread(const joint_subtick *st, const pb_msg *msgs, size_t n, pb_msg **out)
{
    *out = NULL;
    pb_ns tick = st->tick;
    pb_msg *c = malloc((n + 1) * sizeof *c);
    srow *o = malloc((n + 1) * sizeof *o);
    if (!c || !o) {
        free(c);
        free(o);
        return PB_ENOMEM;
    }
    if (n)
        memcpy(c, msgs, n * sizeof *c);
    for (size_t i0 = 0; i0 < n;) {
        size_t i1 = i0 + 1;
        while (i1 < n && msgs[i1].ts == msgs[i0].ts)
            i1++;
        size_t k = i1 - i0, kc = 0;
        pb_ns prev = -1;
        for (size_t m = 0; m < k; m++) {
            pb_ns off = joint_subtick_offset(m, k, tick, &prev);
            const pb_msg *x = &msgs[i0 + m];
            if (!spread_ok(st, x->src)) {
                kc++;
                continue;
            }
            c[i0 + m].ts = x->ts + off;
            if (x->recv_ts == x->ts)
                c[i0 + m].recv_ts = spread_ok(st, x->dst) || x->type != PB_TYPE_CALL
                                        ? c[i0 + m].ts
                                        : x->ts;
        }
        /* the other rows: sent as late as the tick allows (calls first),
         * received at its start */
        size_t j = 0;
        for (int pass = 0; pass < 2 && kc; pass++)
            for (size_t m = 0; m < k; m++) {
                const pb_msg *x = &msgs[i0 + m];
                if (spread_ok(st, x->src) || (x->type == PB_TYPE_CALL) != (pass == 0))
                    continue;
                pb_ns off = tick - 1 - 2 * (pb_ns)(kc - 1 - j);
                if (off <= prev)
                    off = prev + 1;
                prev = off;
                j++;
                c[i0 + m].ts = x->ts + off;
                /* a recv_ts in the same tick stays at its start */
            }
        i0 = i1;
    }
    for (size_t i = 0; i < n; i++)
        o[i] = (srow){c[i].ts, i};
    pb_sort(o, n, sizeof *o, cmp_srow);
    pb_msg *d = malloc((n + 1) * sizeof *d);
    if (!d) {
        free(c);
        free(o);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        d[i] = c[o[i].i];
    free(c);
    free(o);
    *out = d;
    return PB_OK;
}

void joint_subsvc_free(joint_subtick *st)
{
    free(st->pk);
    free(st->pd);
    free(st->svc_how);
    free(st->svc_f);
    free(st->svc_b);
}

int joint_subsvc_meta(const joint *s, pb_result *res)
{
    const joint_subtick *st = s->subtick;
    if (!st || !st->svc_how)
        return PB_OK;
    static const char *how[] = {"", "yes own", "yes pooled", "no own", "no pooled",
                                "no blamed"};
    int rc = pb_result_meta(res, "subtick_services=%u spread=%u pooled_forward=%zu "
                            "pooled_backward=%zu",
                            st->nsend, st->nspread, st->pool_fwd, st->pool_bwd);
    if (rc == PB_OK && st->nblamed) /* subtick_blame put some out */
        rc = pb_result_meta(res, "subtick_blamed=%u", st->nblamed);
    for (uint32_t a = 0; rc == PB_OK && a < st->nnodes; a++) {
        if (!st->svc_how[a])
            continue;
        const char *h = how[st->svc_how[a]];
        rc = pb_result_meta(res, "subtick_order=%s forward=%zu backward=%zu spread=%.*s "
                            "evidence=%s",
                            pb_strtab_str(s->v.nodes, a), st->svc_f[a], st->svc_b[a],
                            (int)(strchr(h, ' ') - h), h, strchr(h, ' ') + 1);
    }
    return rc;
}

static int cmp_lk(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

size_t joint_subsvc_links_unpaired(const pb_trace_view *v, size_t *nlinks)
{
    size_t nc = 0;
    if (nlinks)
        *nlinks = 0;
    for (size_t i = 0; i < v->n; i++)
        nc += v->msgs[i].type == PB_TYPE_CALL;
    /* (link, has id) sorted by link */
    uint64_t *k = malloc((2 * nc + 2) * sizeof *k);
    if (!k) /* the trace-wide share instead (no memory for the links) */
        return 1;
    size_t m = 0;
    for (size_t i = 0; i < v->n; i++)
        if (v->msgs[i].type == PB_TYPE_CALL) {
            k[2 * m] = (uint64_t)v->msgs[i].src << 32 | v->msgs[i].dst;
            k[2 * m + 1] = v->msgs[i].callid != PB_ID_NONE;
            m++;
        }
    pb_sort(k, m, 2 * sizeof *k, cmp_lk);
    size_t unp = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i, ids = 0;
        while (j < m && k[2 * j] == k[2 * i])
            ids += k[2 * j++ + 1];
        unp += 2 * ids <= j - i;
        if (nlinks)
            ++*nlinks;
        i = j;
    }
    free(k);
    return unp;
}

int joint_subsvc_tie_mask(const joint *s, uint32_t **out)
{
    *out = NULL;
    if (s->p.subtick_tick <= 0 || !s->p.subtick_tie_links || !s->p.callids ||
        s->p.subtick_tie_ids || !s->qpar)
        return PB_OK;
    uint32_t nl = s->nlinks, n = s->npairs;
    size_t *calls = calloc((size_t)nl + 1, sizeof *calls);
    size_t *ids = calloc((size_t)nl + 1, sizeof *ids);
    unsigned char *bypos = calloc((size_t)nl + 1, 1);
    if (!calls || !ids || !bypos) {
        free(calls);
        free(ids);
        free(bypos);
        return PB_ENOMEM;
    }
    for (uint32_t p = 0; p < n; p++) {
        const jpair *x = &s->pr[p];
        if (x->call == JOINT_NONE || x->link >= nl)
            continue;
        calls[x->link]++;
        ids[x->link] += s->v.msgs[x->call].callid != PB_ID_NONE;
    }
    size_t nbp = 0, nwith = 0;
    for (uint32_t l = 0; l < nl; l++) {
        if (!calls[l])
            continue;
        bypos[l] = 2 * ids[l] <= calls[l];
        nbp += bypos[l];
        nwith += !bypos[l];
    }
    int rc = PB_OK;
    if (nbp && nwith) {
        uint32_t *m = malloc(((size_t)n + 1) * sizeof *m);
        if (!m)
            rc = PB_ENOMEM;
        else {
            for (uint32_t p = 0; p < n; p++) {
                uint32_t a = s->qpar[p], b = s->par[p];
                int touch = s->pr[p].link < nl && bypos[s->pr[p].link];
                touch |= a != JOINT_NONE && s->pr[a].link < nl && bypos[s->pr[a].link];
                touch |= b != JOINT_NONE && s->pr[b].link < nl && bypos[s->pr[b].link];
                m[p] = touch ? b : a;
            }
            *out = m;
        }
    }
    free(calls);
    free(ids);
    free(bypos);
    return rc;
}
