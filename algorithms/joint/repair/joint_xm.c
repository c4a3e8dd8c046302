/*
 * joint_xm.c - the exchanges' level values kept within a pass
 * (`swap_level_memo`, speed only, the same choices; docs/joint/scale.md
 * "A level's value kept (h235)").
 *
 * An exchange of the returns of calls a and b (joint_repair.c
 * try_exchange) scores, at each depth D, the exchanged level D - 1 (the
 * requests X[D-1], Y[D-1] re-split with their own returns exchanged and
 * the returns of their calls X[D-2], Y[D-2] exchanged) and the top level
 * D (X[D], Y[D] with their own returns as they stand and their calls
 * X[D-1], Y[D-1]'s exchanged).  A re-split of two requests reads their
 * pairs, their calls' pairs and the model only (best_split: the kids'
 * fit, their walks), so its value is a function of
 *
 *     (x, y, whether x's and y's own returns are exchanged,
 *      which two of their calls have their returns exchanged)
 *
 * within a stretch where nothing else changes: within joint_swap_pass
 * between two applied exchanges (swap_memo's premise: the model fixed,
 * every tried exchange undone), and within joint_pair_shares' scoring
 * (nothing applied).  In a deep request (a chain of services calling
 * each other) the level L of the exchange (a, b) is the level L - 1 of
 * the exchange (par a, par b), so each level is scored once instead of
 * up to XMAX times.
 *
 * The floor (swap_floor, joint_xfloor.c): a value found under a floor f
 * is exact when above f; when not, the true value is at most f, and a
 * value kept so is used only under a floor at least f (the exchange is
 * turned down either way); else the level is scored again.  The
 * counters the re-split moves (resplit_capped, estimated, pruned, ...)
 * are added again on a hit as the first scoring moved them, so the
 * metadata stays as close as it can: the caches beneath (the walk cache,
 * resplit_memo) hit more often on a repeat than on the first scoring, so
 * their hit counts may differ by a few.
 *
 * An applied exchange stamps the requests it touched (joint_xchg_touched:
 * the only ones whose pair, calls or calls' pairs changed, as for
 * swap_memo) with a new tick; a kept value is used only when stamped no
 * earlier than each of its requests.  Two tables of at most
 * JOINT_XM_SLOTS slots (the current one and the one before, the newer
 * first) bound the memory: a deep request's hits come from the exchanges
 * of the link before.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE
#define JOINT_XM_SLOTS (1u << 16) /* slots a table (at most half full) */

typedef struct xm_ent {
    uint32_t x, y, kx, ky;
    uint32_t own, flip; /* own: 0 / 1; flip: best_split's wref changed */
    uint32_t ep;        /* the table's epoch when kept (else an empty slot) */
    uint64_t tick;      /* when kept */
    double v, f;        /* value, the floor it was found under (-INFINITY: none) */
    uint32_t d[JOINT_XM_NCOUNT];
} xm_ent;

struct joint_xm {
    xm_ent *t[2]; /* current, before */
    uint32_t cap[2], n[2], ep[2], epoch; /* slots, entries, epochs (entries of another: empty) */
    uint64_t tick, *qt; /* the applies so far; per request the tick of its last change */
    uint32_t nq;
    size_t hits, puts;
};

static void counts(const joint *s, size_t *c)
{
    c[0] = s->resplit_capped;
    c[1] = s->resplit_local;
    c[2] = s->est_evals;
    c[3] = s->est_pruned;
    c[4] = s->lsm_hits;
    c[5] = s->wc_hits;
    c[6] = s->ordb_est;
    c[7] = s->ordb_swap;
    c[8] = s->bnb_scored;
    c[9] = s->bnb_cut;
}

void joint_xm_counts(const joint *s, size_t *c)
{
    counts(s, c);
}

static void add_counts(joint *s, const uint32_t *d)
{
    s->resplit_capped += d[0];
    s->resplit_local += d[1];
    s->est_evals += d[2];
    s->est_pruned += d[3];
    s->lsm_hits += d[4];
    s->wc_hits += d[5];
    s->ordb_est += d[6];
    s->ordb_swap += d[7];
    s->bnb_scored += d[8];
    s->bnb_cut += d[9];
}

int joint_xm_test_nokid = 0; /* tests: 1 the key without the exchanged calls, 2 without
                               own (wrong on purpose) */
size_t joint_xm_test_hits = 0; /* tests: values taken from the tables, all runs */

static int qroom(struct joint_xm *m, uint32_t n)
{
    if (n <= m->nq)
        return PB_OK;
    uint64_t *q = realloc(m->qt, ((size_t)n + 1) * sizeof *q);
    if (!q)
        return PB_ENOMEM;
    memset(q + m->nq, 0, ((size_t)n + 1 - m->nq) * sizeof *q);
    m->qt = q;
    m->nq = n;
    return PB_OK;
}

/* a pass begins: the tables kept from the last (their entries dropped by
 * new epochs; no clearing) */
int joint_xm_begin(joint *s)
{
    s->xm_on = 0;
    if (!s->p.swap_level_memo)
        return PB_OK;
    struct joint_xm *m = s->xm;
    if (!m) {
        if (!(m = calloc(1, sizeof *m)))
            return PB_ENOMEM;
        s->xm = m;
        m->cap[0] = m->cap[1] = 1024;
        m->t[0] = calloc(m->cap[0], sizeof *m->t[0]);
        m->t[1] = calloc(m->cap[1], sizeof *m->t[1]);
        if (!m->t[0] || !m->t[1]) {
            joint_xm_free(s);
            return PB_ENOMEM;
        }
    }
    if (qroom(m, s->npairs) != PB_OK)
        return PB_ENOMEM;
    m->ep[0] = ++m->epoch;
    m->ep[1] = ++m->epoch;
    m->n[0] = m->n[1] = 0;
    m->tick++; /* requests stamped before: older than every entry to come */
    s->xm_on = 1;
    return PB_OK;
}

void joint_xm_touched(joint *s, const uint32_t *q, uint32_t n)
{
    struct joint_xm *m = s->xm;
    if (!s->xm_on)
        return;
    m->tick++;
    for (uint32_t i = 0; i < n; i++)
        if (q[i] < m->nq)
            m->qt[q[i]] = m->tick;
}

void joint_xm_end(joint *s)
{
    if (s->xm_on)
        s->xm_hits += s->xm->hits;
    if (s->xm)
        s->xm->hits = 0;
    s->xm_on = 0;
}

void joint_xm_free(joint *s)
{
    struct joint_xm *m = s->xm;
    s->xm_on = 0;
    if (!m)
        return;
    free(m->t[0]);
    free(m->t[1]);
    free(m->qt);
    free(m);
    s->xm = NULL;
}

static uint32_t hash5(uint32_t x, uint32_t y, uint32_t kx, uint32_t ky, uint32_t own)
{
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)y * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)kx * 0x165667B19E3779F9ull ^ (uint64_t)ky * 0x27D4EB2F165667C5ull ^
                 own;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
    return (uint32_t)h;
}

static xm_ent *find(xm_ent *t, uint32_t cap, uint32_t ep, uint32_t x, uint32_t y, uint32_t kx,
                    uint32_t ky, uint32_t own)
{
    uint32_t i = hash5(x, y, kx, ky, own) & (cap - 1);
    for (;;) {
        xm_ent *e = &t[i];
        if (e->ep != ep ||
            (e->x == x && e->y == y && e->kx == kx && e->ky == ky && e->own == own))
            return e;
        i = (i + 1) & (cap - 1);
    }
}

static int fresh(const struct joint_xm *m, const xm_ent *e)
{
    const uint32_t q[4] = {e->x, e->y, e->kx, e->ky};
    for (int i = 0; i < 4; i++)
        if (q[i] < m->nq && m->qt[q[i]] > e->tick)
            return 0;
    return 1;
}

int joint_xm_get(joint *s, uint32_t x, uint32_t y, uint32_t kx, uint32_t ky, uint32_t own,
                 double *v)
{
    struct joint_xm *m = s->xm;
    if (!s->xm_on)
        return 0;
    if (joint_xm_test_nokid & 1)
        kx = ky = NONE;
    if (joint_xm_test_nokid & 2)
        own = 0;
    const xm_ent *e = NULL;
    for (int k = 0; k < 2 && !e; k++) {
        const xm_ent *c = find(m->t[k], m->cap[k], m->ep[k], x, y, kx, ky, own);
        if (c->ep == m->ep[k] && fresh(m, c))
            e = c;
        else if (c->ep == m->ep[k])
            break; /* the newer is stale: so is the older */
    }
    if (!e)
        return 0;
    const double fc = s->xfloor_on ? s->xfloor : -INFINITY;
    /* 1: kept under the same floor (the same work, so the same counters);
     * 2: exact (no floor, or found above it), else at most e->f and used
     * under a floor at least e->f only (the same choices) */
    if (s->p.swap_level_memo == 1 ? !(fc == e->f)
                                  : !(e->f == -INFINITY || e->v > e->f || fc >= e->f))
        return 0;
    *v = e->v;
    add_counts(s, e->d);
    if (e->flip)
        s->wref = 2 - s->wref;
    m->hits++;
    joint_xm_test_hits++;
    return 1;
}

/* at most two rounds: after the swap the current table is empty */
static int room(struct joint_xm *m)
{
    for (;;) {
        if (2 * (m->n[0] + 1) <= m->cap[0])
            return PB_OK;
        if (m->cap[0] < JOINT_XM_SLOTS) { /* grow the current table */
            uint32_t oc = m->cap[0];
            xm_ent *ot = m->t[0], *nt = calloc((size_t)oc * 2, sizeof *nt);
            if (!nt)
                return PB_ENOMEM;
            m->t[0] = nt;
            m->cap[0] = oc * 2;
            for (uint32_t i = 0; i < oc; i++)
                if (ot[i].ep == m->ep[0])
                    *find(nt, m->cap[0], m->ep[0], ot[i].x, ot[i].y, ot[i].kx, ot[i].ky,
                          ot[i].own) = ot[i];
            free(ot);
            return PB_OK;
        }
        /* full: the current table becomes the one before, the one before is
         * emptied (a new epoch) and current */
        xm_ent *t = m->t[1];
        uint32_t c = m->cap[1];
        m->t[1] = m->t[0];
        m->cap[1] = m->cap[0];
        m->n[1] = m->n[0];
        m->ep[1] = m->ep[0];
        m->t[0] = t;
        m->cap[0] = c;
        m->n[0] = 0;
        m->ep[0] = ++m->epoch;
    }
}

int joint_xm_put(joint *s, uint32_t x, uint32_t y, uint32_t kx, uint32_t ky, uint32_t own,
                 double v, const size_t *before, int flip)
{
    struct joint_xm *m = s->xm;
    if (!s->xm_on)
        return PB_OK;
    if (joint_xm_test_nokid & 1)
        kx = ky = NONE;
    if (joint_xm_test_nokid & 2)
        own = 0;
    if (room(m) != PB_OK)
        return PB_ENOMEM;
    xm_ent *e = find(m->t[0], m->cap[0], m->ep[0], x, y, kx, ky, own);
    if (e->ep != m->ep[0])
        m->n[0]++;
    e->ep = m->ep[0];
    e->x = x;
    e->y = y;
    e->kx = kx;
    e->ky = ky;
    e->own = own;
    e->tick = m->tick;
    e->v = v;
    e->f = s->xfloor_on ? s->xfloor : -INFINITY;
    size_t now[JOINT_XM_NCOUNT];
    counts(s, now);
    for (int i = 0; i < JOINT_XM_NCOUNT; i++)
        e->d[i] = (uint32_t)(now[i] - before[i]);
    e->flip = (uint32_t)flip;
    m->puts++;
    return PB_OK;
}
