/*
 * joint_mrow.c - joint: the density keys' hist and logf rows by range in
 * two pools (memory only, the same numbers; docs/joint/scale.md "Density
 * rows by range (h243)"; the layout: joint_mrow.h).
 *
 * A trace with many links has one density key per link, and hist and
 * logf were nb doubles per key (nb = 550 at bin=0.02: 8.8 KB a key for
 * the two) whatever the key held.  Here:
 *
 *   - hist: a key's room covers its filled bins [hlo, hhi] (zero in the
 *     room elsewhere, and 0 outside it); a count added outside the room
 *     moves the row to the pool's end with room for twice as many bins
 *     (at most nb), so the rooms a key left behind sum to less than its
 *     room.  joint_fit clears the counts (the rooms stay); when the old
 *     rooms are most of the pool it lays the pool out afresh there (every
 *     count is 0 then: nothing to copy).
 *   - logf: a refit writes a key's density into a dense scratch that
 *     holds lz, over the bins it may change (fit_fast: [flo, fhi]; else
 *     every bin, then trimmed of the ends equal to lz bit for bit), and
 *     the row keeps those bins (the room's others and every bin outside
 *     it read c = lz).  A key of no delay is bg everywhere: no room.  A
 *     row moves when it outgrows its room (twice the room, at most nb);
 *     the pool is laid out afresh after a refit when the old rooms are
 *     most of it.
 *
 * Why exact: every bin reads the number the whole row held (the same
 * bits: the trimmed ends are bitwise c; a fit_fast row is lz outside
 * [flo, fhi], as fit_fast's own invariant), and every writer writes the
 * same numbers in the same order.  A reader needing a whole row gets a
 * dense copy (joint_lf_dense).
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

int joint_mrow_test_wrongc = 0;

struct joint_mpool {
    int failed;                      /* a hist growth failed (ENOMEM): first, read
                                        by joint_mrow_failed (joint_mrow.h) */
    size_t used[2], cap[2], live[2]; /* per pool (0 hist, 1 logf): cells in use
                                        (the nb first unused), room, rooms' cells */
    uint32_t kcap;                   /* keys hrow / lrow hold room for */
    uint32_t kinit;                  /* rows [0, kinit) set (the others never
                                        touched: a reservation stays virtual) */
    double lz;                       /* lfb's fill */
    int lz_set;
    double *dense, *hd, *lfb, *dummy; /* nb doubles each, after the struct */
};

static double **pool_of(joint *s, int w)
{
    return w ? &s->logf : &s->hist;
}

static joint_mrow *rows_of(joint *s, int w)
{
    return w ? s->lrow : s->hrow;
}

/* n cells at pool w's end (not cleared): their first cell's index, or
 * SIZE_MAX (ENOMEM) */
static size_t take(joint *s, int w, size_t n)
{
    struct joint_mpool *m = s->mpool;
    double **p = pool_of(s, w);
    if (!*p || m->used[w] == 0) {
        size_t c = (size_t)s->nb + (n > 1024 ? n : 1024);
        double *q = realloc(*p, c * sizeof *q);
        if (!q)
            return SIZE_MAX;
        *p = q;
        m->cap[w] = c;
        m->used[w] = s->nb;
    }
    if (m->used[w] + n > m->cap[w]) {
        size_t c = m->cap[w] * 2 > m->used[w] + n ? m->cap[w] * 2 : m->used[w] + n;
        double *q = realloc(*p, c * sizeof *q);
        if (!q)
            return SIZE_MAX;
        *p = q;
        m->cap[w] = c;
    }
    size_t at = m->used[w];
    m->used[w] += n;
    return at;
}

int joint_mrow_keys(joint *s, uint32_t cap)
{
    const size_t nb = s->nb;
    if (!s->mpool) {
        struct joint_mpool *m = calloc(1, sizeof *m + 4 * nb * sizeof(double));
        if (!m)
            return PB_ENOMEM;
        double *d = (double *)(void *)(m + 1);
        m->dense = d;
        m->hd = d + nb;
        m->lfb = d + 2 * nb;
        m->dummy = d + 3 * nb;
        s->mpool = m;
    }
    struct joint_mpool *m = s->mpool;
    if (cap <= m->kcap)
        return PB_OK;
    joint_mrow *h = realloc(s->hrow, (size_t)cap * sizeof *h);
    if (!h)
        return PB_ENOMEM;
    s->hrow = h;
    joint_mrow *l = realloc(s->lrow, (size_t)cap * sizeof *l);
    if (!l)
        return PB_ENOMEM;
    s->lrow = l;
    m->kcap = cap;
    return PB_OK;
}

static void drop(joint *s, int w, uint32_t k)
{
    joint_mrow *r = &rows_of(s, w)[k];
    s->mpool->live[w] -= r->n;
    r->n = 0;
    r->lo = 0;
    r->bz = 0;
}

void joint_mrow_newkey(joint *s, uint32_t k)
{
    /* a key made again after joint_select's model reset keeps its rooms
     * (the refit rewrites the density row before any read; the counts'
     * room is cleared): the rows are not laid out twice */
    struct joint_mpool *m = s->mpool;
    for (; m->kinit <= k; m->kinit++) { /* keys are made in order */
        s->hrow[m->kinit] = (joint_mrow){0, 0, 0, 0.0};
        s->lrow[m->kinit] = (joint_mrow){0, 0, 0, s->bg};
    }
    joint_mrow *r = &s->hrow[k];
    if (r->n)
        memset(s->hist + r->bz + r->lo, 0, (size_t)r->n * sizeof *s->hist);
    r->c = 0.0;
}


void joint_mrow_hgrow(joint *s, uint32_t k, uint32_t a, uint32_t b)
{
    struct joint_mpool *m = s->mpool;
    const uint32_t nb = s->nb;
    joint_mrow *r = &s->hrow[k];
    uint32_t lo = a, hi = b;
    if (r->n) {
        if (r->lo < lo)
            lo = r->lo;
        if (r->lo + r->n - 1 > hi)
            hi = r->lo + r->n - 1;
    }
    uint32_t want = hi - lo + 1, n = 2 * r->n > want ? 2 * r->n : want;
    if (n < 4)
        n = 4;
    if (n > nb)
        n = nb;
    /* the room's spare cells on the side it grew to (below: a count
     * below the room; else above) */
    uint32_t nlo;
    if (r->n && a < r->lo)
        nlo = hi + 1 >= n ? hi + 1 - n : 0;
    else
        nlo = lo;
    if (nlo + n > nb)
        nlo = nb - n;
    size_t at = take(s, 0, n);
    if (at == SIZE_MAX) {
        m->failed = 1;
        return;
    }
    double *p = s->hist;
    memset(p + at, 0, (size_t)n * sizeof *p);
    const size_t bz = at - nlo;
    if (r->n)
        memcpy(p + bz + r->lo, p + r->bz + r->lo, (size_t)r->n * sizeof *p);
    m->live[0] += (size_t)n - r->n;
    r->bz = bz;
    r->lo = nlo;
    r->n = n;
}

double *joint_hist_span(joint *s, uint32_t k, uint32_t a, uint32_t b)
{
    const joint_mrow *r = &s->hrow[k];
    if (!(a - r->lo < r->n && b - r->lo < r->n)) {
        joint_mrow_hgrow(s, k, a, b);
        if (!(a - r->lo < r->n && b - r->lo < r->n)) {
            memset(s->mpool->dummy, 0, (size_t)s->nb * sizeof(double));
            return s->mpool->dummy; /* failed: the caller returns PB_ENOMEM */
        }
    }
    return s->hist + r->bz;
}

void joint_mrow_hclear(joint *s)
{
    struct joint_mpool *m = s->mpool;
    for (uint32_t k = 0; k < s->nkeys; k++) {
        const joint_mrow *r = &s->hrow[k];
        if (s->hlo[k] <= s->hhi[k])
            memset(s->hist + r->bz + s->hlo[k], 0,
                   (size_t)(s->hhi[k] - s->hlo[k] + 1) * sizeof *s->hist);
    }
    if (!m || m->used[0] <= m->live[0] + m->live[0] / 2 + s->nb + 4096)
        return;
    /* afresh: the rooms of the keys in use, every cell 0 */
    size_t live = 0;
    for (uint32_t k = 0; k < s->nkeys; k++)
        live += s->hrow[k].n;
    double *q = calloc((size_t)s->nb + (live ? live : 1), sizeof *q);
    if (!q)
        return; /* the old pool stays as it is (cleared) */
    size_t at = s->nb;
    for (uint32_t k = 0; k < m->kinit; k++) {
        joint_mrow *r = &s->hrow[k];
        if (k >= s->nkeys || !r->n) {
            r->n = 0;
            continue;
        }
        r->bz = at - r->lo;
        at += r->n;
    }
    free(s->hist);
    s->hist = q;
    m->used[0] = at;
    m->cap[0] = (size_t)s->nb + (live ? live : 1);
    m->live[0] = live;
}

const double *joint_mrow_hdense(joint *s, uint32_t k)
{
    double *d = s->mpool->hd;
    const uint32_t lo = s->hlo[k], hi = s->hhi[k];
    if (lo <= hi)
        memcpy(d + lo, s->hist + s->hrow[k].bz + lo, (size_t)(hi - lo + 1) * sizeof *d);
    return d;
}

void joint_mrow_hdense_done(joint *s, uint32_t k)
{
    const uint32_t lo = s->hlo[k], hi = s->hhi[k];
    if (lo <= hi)
        memset(s->mpool->hd + lo, 0, (size_t)(hi - lo + 1) * sizeof(double));
}

const double *joint_lf_dense(const joint *s, uint32_t k)
{
    double *d = s->mpool->dense;
    const joint_mrow *r = &s->lrow[k];
    for (uint32_t b = 0; b < r->lo; b++)
        d[b] = r->c;
    if (r->n)
        memcpy(d + r->lo, s->logf + r->bz + r->lo, (size_t)r->n * sizeof *d);
    for (uint32_t b = r->lo + r->n; b < s->nb; b++)
        d[b] = r->c;
    return d;
}

double *joint_mrow_lfbuf(joint *s, double lz)
{
    struct joint_mpool *m = s->mpool;
    if (!m->lz_set || memcmp(&m->lz, &lz, sizeof lz) != 0) {
        for (uint32_t b = 0; b < s->nb; b++)
            m->lfb[b] = lz;
        m->lz = lz;
        m->lz_set = 1;
    }
    return m->lfb;
}

int joint_lf_put(joint *s, uint32_t k, uint32_t a, uint32_t b, double c)
{
    struct joint_mpool *m = s->mpool;
    const uint32_t nb = s->nb;
    joint_mrow *r = &s->lrow[k];
    double *buf = m->lfb;
    if (a > b) {
        drop(s, 1, k);
    } else {
        const uint32_t w = b - a + 1;
        if (r->n >= w) {
            /* the same cells, the room moved to cover [a, b] */
            const size_t first = r->bz + r->lo;
            const uint32_t lo = a + r->n <= nb ? a : nb - r->n;
            r->bz = first - lo;
            r->lo = lo;
        } else {
            uint32_t n = 2 * r->n > w ? 2 * r->n : w;
            if (n > nb)
                n = nb;
            size_t at = take(s, 1, n);
            if (at == SIZE_MAX)
                return PB_ENOMEM;
            m->live[1] += (size_t)n - r->n;
            const uint32_t lo = a + n <= nb ? a : nb - n;
            r->bz = at - lo;
            r->lo = lo;
            r->n = n;
        }
        double *p = s->logf + r->bz;
        for (uint32_t i = r->lo; i < a; i++)
            p[i] = c;
        memcpy(p + a, buf + a, (size_t)w * sizeof *p);
        for (uint32_t i = b + 1; i < r->lo + r->n; i++)
            p[i] = c;
        for (uint32_t i = a; i <= b; i++)
            buf[i] = m->lz;
    }
    r->c = joint_mrow_test_wrongc ? c + 1.0 : c;
    return PB_OK;
}

int joint_lf_put_trim(joint *s, uint32_t k, double c)
{
    struct joint_mpool *m = s->mpool;
    const uint32_t nb = s->nb;
    double *buf = m->lfb;
    uint32_t a = 0, b = nb;
    while (a < nb && memcmp(&buf[a], &c, sizeof c) == 0)
        a++;
    while (b > a && memcmp(&buf[b - 1], &c, sizeof c) == 0)
        b--;
    int rc = a < b ? joint_lf_put(s, k, a, b - 1, c) : joint_lf_put(s, k, 1, 0, c);
    for (uint32_t i = 0; i < nb; i++)
        buf[i] = m->lz;
    return rc;
}

int joint_mrow_lcompact(joint *s)
{
    struct joint_mpool *m = s->mpool;
    if (!m || m->used[1] <= m->live[1] + m->live[1] / 2 + s->nb + 4096)
        return PB_OK;
    size_t live = 0;
    for (uint32_t k = 0; k < s->nkeys; k++)
        live += s->lrow[k].n;
    const size_t cap = (size_t)s->nb + (live ? live : 1);
    double *q = malloc(cap * sizeof *q);
    if (!q)
        return PB_OK; /* the old pool stays (it holds the same rows) */
    size_t at = s->nb;
    for (uint32_t k = 0; k < m->kinit; k++) {
        joint_mrow *r = &s->lrow[k];
        if (k >= s->nkeys || !r->n) {
            r->n = 0;
            continue;
        }
        memcpy(q + at, s->logf + r->bz + r->lo, (size_t)r->n * sizeof *q);
        r->bz = at - r->lo;
        at += r->n;
    }
    free(s->logf);
    s->logf = q;
    m->used[1] = at;
    m->cap[1] = cap;
    m->live[1] = live;
    return PB_OK;
}

size_t joint_mrow_cells(const joint *s, int which)
{
    return s->mpool ? s->mpool->used[which ? 1 : 0] : 0;
}

void joint_mrow_lf_rows(const joint *s, double *out)
{
    for (uint32_t k = 0; k < s->nkeys; k++)
        for (uint32_t b = 0; b < s->nb; b++)
            out[(size_t)k * s->nb + b] = joint_lf_at(s, k, b);
}

long joint_mrow_lf_diff(const joint *s, uint32_t k0, uint32_t k1, const double *rows)
{
    long d = 0;
    for (uint32_t k = k0; k < k1; k++)
        for (uint32_t b = 0; b < s->nb; b++) {
            double v = joint_lf_at(s, k, b);
            d += memcmp(&v, &rows[(size_t)(k - k0) * s->nb + b], sizeof v) != 0;
        }
    return d;
}

int joint_mrow_lf_same(const joint *a, const joint *b)
{
    if (a->nkeys != b->nkeys || a->nb != b->nb)
        return 0;
    for (uint32_t k = 0; k < a->nkeys; k++)
        for (uint32_t i = 0; i < a->nb; i++) {
            double x = joint_lf_at(a, k, i), y = joint_lf_at(b, k, i);
            if (memcmp(&x, &y, sizeof x))
                return 0;
        }
    return 1;
}

double *joint_lf_cell(joint *s, uint32_t k, uint32_t b)
{
    const joint_mrow *r = &s->lrow[k];
    return b - r->lo < r->n ? s->logf + r->bz + b : NULL;
}

void joint_mrow_test_drop(joint *s)
{
    if (!s->mpool)
        return;
    for (uint32_t k = 0; k < s->mpool->kinit; k++) {
        const double c = s->lrow[k].c;
        /* the counts kept: only logf's rooms go (hist's hold counts) */
        drop(s, 1, k);
        s->lrow[k].c = c;
    }
}
