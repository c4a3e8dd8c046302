/*
 * joint_rpinc.c - repair_incr (speed, changes results where it fires): a
 * re-pairing round after the first re-splits in its solves' first pass
 * only the pairs of requests that changed since the round before
 * (docs/joint/speed_late.md, "Speed, twenty-fourth wave (h197)").
 *
 * Each re-pairing round (joint_repair.c) runs a refitting solve and an
 * open-ended solve; the first local-search pass of each re-splits every
 * pair of requests that compete for a call (~3,200 and ~6,000 pairs on
 * OnlineBoutique 07:11 as a black box), and nearly all keep their split
 * (the held search's and the copy's open-ended first passes: 0-2 of
 * ~6,500 move a call).  Here the state a solve of one kind (refitting,
 * open-ended) ends with is kept (each pair's parent and return, each
 * request's open end, each call's candidates); the next round's solve of
 * the same kind, as its first pass starts, marks every request that is
 * not as it was: its return or open end moved, a call it had or has now
 * changed parent or return, and every pair of requests between which a
 * call gained or lost a candidate.  Its first pass then re-splits only
 * pairs with a mark; the later passes are as always (they follow the
 * passes' own changes).  Not exact: the model has been refitted between
 * the two solves, from the pairs that moved.  Modes: 1 the rounds'
 * open-ended solve, 2 both solves of the rounds, 3 every solve of the
 * search, 4 the open-ended solve against the refitting solve just
 * before it.  Measured (speed_late.md): on OnlineBoutique the greedy
 * rounds' cycles mark nearly every large request each round, so modes
 * 1-2 leave out ~0.3 % of the instructions; 3 leaves out 5-10 % and
 * moves results.  Off.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* one kind of solve's end state (k = 0 refitting, 1 open-ended) */
typedef struct rpi_snap {
    int valid;
    uint32_t n, *par, *ret, *coff, *cand;
    pb_ns *qend; /* NULL: no open ends */
} rpi_snap;

struct joint_rpinc {
    rpi_snap k[2];
    unsigned char *mark; /* per request: changed since the snapshot */
    hmap pairs;          /* pairs of requests whose shared calls changed */
    int now;             /* a solve's first pass is filtered */
    int kind;            /* repair_incr 1-2: the re-pairing solve running (0, 1), -1: none */
    int would;           /* tests: the last re-split asked about would have been left out */
};

int joint_rpinc_test_check = 0; /* tests: re-split anyway, count what would move */

static void snap_free(rpi_snap *k)
{
    free(k->par);
    free(k->ret);
    free(k->coff);
    free(k->cand);
    free(k->qend);
    memset(k, 0, sizeof *k);
}

static int ensure(joint *s)
{
    if (!s->rpi) {
        if (!(s->rpi = calloc(1, sizeof *s->rpi)))
            return PB_ENOMEM;
        s->rpi->kind = -1;
    }
    return PB_OK;
}

int joint_rpinc_start(joint *s)
{
    if (s->p.repair_incr <= 0 || s->p.repair_incr == 3)
        return PB_OK;
    joint_rpinc_free(s);
    return ensure(s);
}

void joint_rpinc_free(joint *s)
{
    if (!s->rpi)
        return;
    snap_free(&s->rpi->k[0]);
    snap_free(&s->rpi->k[1]);
    free(s->rpi->mark);
    free(s->rpi->pairs.k);
    free(s->rpi->pairs.v);
    free(s->rpi);
    s->rpi = NULL;
}

void joint_rpinc_rounds_end(joint *s)
{
    if (s->p.repair_incr >= 1 && s->p.repair_incr != 3)
        joint_rpinc_free(s);
}

void joint_rpinc_kind(joint *s, int kind)
{
    if (s->rpi)
        s->rpi->kind = kind;
}

/* does this solve (refit or not) take part? */
static int takes_part(const joint *s, int refit)
{
    const int m = s->p.repair_incr;
    if (m == 3)
        return 1;
    if (m == 4) { /* the refitting solve's end, the open-ended solve's start */
        const joint_rpinc *r4 = s->rpi;
        return r4 && r4->kind == !refit;
    }
    const joint_rpinc *r = s->rpi;
    if (!r || r->kind < 0 || r->kind != !refit)
        return 0;
    return !refit ? m >= 1 : m >= 2;
}

/* the state a solve ended with */
int joint_rpinc_after(joint *s, int refit)
{
    if (s->p.repair_incr <= 0 || !takes_part(s, refit))
        return PB_OK;
    int rc = ensure(s);
    if (rc != PB_OK)
        return rc;
    rpi_snap *k = &s->rpi->k[!refit];
    uint32_t n = s->npairs;
    size_t nc = s->cand_off[n];
    snap_free(k);
    k->par = malloc(((size_t)n + 1) * sizeof *k->par);
    k->ret = malloc(((size_t)n + 1) * sizeof *k->ret);
    k->coff = malloc(((size_t)n + 1) * sizeof *k->coff);
    k->cand = malloc((nc + 1) * sizeof *k->cand);
    k->qend = s->qend ? malloc(((size_t)n + 1) * sizeof *k->qend) : NULL;
    if (!k->par || !k->ret || !k->coff || !k->cand || (s->qend && !k->qend)) {
        snap_free(k);
        return PB_ENOMEM;
    }
    memcpy(k->par, s->par, (size_t)n * sizeof *k->par);
    for (uint32_t p = 0; p < n; p++)
        k->ret[p] = s->pr[p].ret;
    memcpy(k->coff, s->cand_off, ((size_t)n + 1) * sizeof *k->coff);
    memcpy(k->cand, s->cand, nc * sizeof *k->cand);
    if (k->qend)
        memcpy(k->qend, s->qend, (size_t)n * sizeof *k->qend);
    k->n = n;
    k->valid = 1;
    return PB_OK;
}

static inline uint64_t pkey(uint32_t a, uint32_t b)
{
    return a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a;
}

static int has(const uint32_t *c, uint32_t n, uint32_t q)
{
    for (uint32_t i = 0; i < n; i++)
        if (c[i] == q)
            return 1;
    return 0;
}

/* call p (of request a before, b now) gained or lost candidate c: the
 * pairs of c with a and with b see other shared calls */
static int pair_mark(hmap *h, uint32_t a, uint32_t b, uint32_t c)
{
    int rc = PB_OK;
    if (a != NONE && a != c)
        rc = joint_hmap_put(h, pkey(a, c), 1);
    if (rc == PB_OK && b != NONE && b != c && b != a)
        rc = joint_hmap_put(h, pkey(b, c), 1);
    return rc;
}

/* as a solve's passes start: the marks against its kind's snapshot */
int joint_rpinc_begin(joint *s, int refit)
{
    joint_rpinc *r = s->rpi;
    if (!r)
        return PB_OK;
    r->now = 0;
    const int m4 = s->p.repair_incr == 4;
    if (m4 && refit)
        return PB_OK;
    if (!takes_part(s, refit) || !r->k[m4 ? 0 : !refit].valid)
        return PB_OK;
    const rpi_snap *k = &r->k[m4 ? 0 : !refit];
    uint32_t n = s->npairs;
    if (k->n != n || (!m4 && (k->qend != NULL) != (s->qend != NULL)))
        return PB_OK;
    free(r->mark);
    if (!(r->mark = calloc((size_t)n + 1, 1)))
        return PB_ENOMEM;
    r->pairs.n = 0;
    for (size_t t = 0; t < r->pairs.cap; t++)
        r->pairs.v[t] = NONE;
    unsigned char *m = r->mark;
    int rc = PB_OK;
    for (uint32_t p = 0; p < n && rc == PB_OK; p++) {
        uint32_t a = k->par[p], b = s->par[p];
        if (a != b || k->ret[p] != s->pr[p].ret) { /* the request(s) it is a call of */
            if (a != NONE)
                m[a] = 1;
            if (b != NONE)
                m[b] = 1;
        }
        if (k->ret[p] != s->pr[p].ret || (k->qend && s->qend && k->qend[p] != s->qend[p]))
            m[p] = 1; /* as a request: its own end */
        const uint32_t *c0 = k->cand + k->coff[p], *c1 = s->cand + s->cand_off[p];
        uint32_t n0 = k->coff[p + 1] - k->coff[p], n1 = s->cand_off[p + 1] - s->cand_off[p];
        if (n0 == n1 && !memcmp(c0, c1, (size_t)n0 * sizeof *c0))
            continue;
        for (uint32_t i = 0; i < n0 && rc == PB_OK; i++)
            if (!has(c1, n1, c0[i]))
                rc = pair_mark(&r->pairs, a, b, c0[i]);
        for (uint32_t i = 0; i < n1 && rc == PB_OK; i++)
            if (!has(c0, n0, c1[i]))
                rc = pair_mark(&r->pairs, a, b, c1[i]);
    }
    if (rc != PB_OK)
        return rc;
    r->now = 1;
    return PB_OK;
}

/* in a first pass: leave out the re-split of q1 and q2? */
int joint_rpinc_skip(joint *s, uint32_t q1, uint32_t q2)
{
    joint_rpinc *r = s->rpi;
    if (!r)
        return 0;
    r->would = 0;
    if (!r->now || s->pass_id != 0 || s->rl_only || r->mark[q1] || r->mark[q2] ||
        (r->pairs.n && joint_hmap_get(&r->pairs, pkey(q1, q2)) != NONE))
        return 0;
    s->rpi_skipped++;
    r->would = joint_rpinc_test_check;
    return !joint_rpinc_test_check;
}

void joint_rpinc_moved(joint *s)
{
    if (s->rpi && s->rpi->would)
        s->rpi_flips++;
}

void joint_rpinc_end(joint *s)
{
    if (s->rpi)
        s->rpi->now = 0;
}

int joint_rpinc_meta(const joint *s, pb_result *res)
{
    if (!s->p.repair_incr)
        return PB_OK;
    return pb_result_meta(res, "repair_incr=%d resplits_left_out=%zu", s->p.repair_incr,
                          s->rpi_skipped);
}
