/* joint_mrow.c (docs/joint/scale.md, "Density rows by range (h243)"):
 * hist and logf held by range in two pools, every bin read through one
 * accessor (the value outside a row's room is the row's constant).
 *
 * 1. The pools against whole rows (an oracle of nb doubles per key): on
 *    random sequences of counts added, clears, density rows put (by range
 *    and trimmed) and rows dropped, every bin of every key reads the
 *    oracle's bits (the pools bounded: under 3x whole rows there).
 * 2. Refits: on random fan-out traces with and without call ids (the
 *    cases of joint_test_case_trace), after the search, a refit with
 *    every logf room dropped (every row laid out afresh) and a refit
 *    with fit_fast=0 (every row written whole, then trimmed) give every
 *    density bin and key mean to the bit; with the rows' constant wrong
 *    outside their rooms (joint_mrow_test_wrongc) the same comparison
 *    differs. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#define NB 550

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)((rng_state >> 33) % n);
}

/* a bare joint holding only what the pools read */
static joint *bare(uint32_t nkeys)
{
    joint *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->nb = NB;
    s->bg = -3.25;
    s->nkeys = nkeys;
    s->hlo = malloc(nkeys * sizeof *s->hlo);
    s->hhi = malloc(nkeys * sizeof *s->hhi);
    if (!s->hlo || !s->hhi || joint_mrow_keys(s, nkeys) != PB_OK)
        return s;
    for (uint32_t k = 0; k < nkeys; k++) {
        joint_mrow_newkey(s, k);
        s->hlo[k] = NB;
        s->hhi[k] = 0;
    }
    return s;
}

static void bare_free(joint *s)
{
    free(s->hist);
    free(s->logf);
    free(s->hrow);
    free(s->lrow);
    free(s->mpool);
    free(s->hlo);
    free(s->hhi);
    free(s);
}

/* bins of the pools that differ from the oracle (hist ho, logf lo) */
static long pool_diff(const joint *s, const double *ho, const double *lo)
{
    long d = 0;
    for (uint32_t k = 0; k < s->nkeys; k++)
        for (uint32_t b = 0; b < NB; b++) {
            double h = joint_hist_at(s, k, b), l = joint_lf_at(s, k, b);
            d += memcmp(&h, &ho[(size_t)k * NB + b], sizeof h) != 0;
            d += memcmp(&l, &lo[(size_t)k * NB + b], sizeof l) != 0;
        }
    return d;
}

TEST(pools_read_as_whole_rows)
{
    long bad = 0;
    size_t cells = 0, whole = 0;
    const double lz = -9.25;
    for (int seed = 1; seed <= 24; seed++) {
        rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL;
        const uint32_t nk = 1 + rnd(60);
        joint *s = bare(nk);
        double *ho = calloc((size_t)nk * NB, sizeof *ho), *lo = malloc((size_t)nk * NB * sizeof *lo);
        CHECK(s != NULL && s->mpool != NULL && ho && lo);
        if (!s || !s->mpool || !ho || !lo) {
            free(ho);
            free(lo);
            if (s)
                bare_free(s);
            continue;
        }
        for (size_t i = 0; i < (size_t)nk * NB; i++)
            lo[i] = s->bg;
        for (int step = 0; step < 3000; step++) {
            const uint32_t k = rnd(nk), op = rnd(100);
            /* each key's delays near its own centre, some far */
            const uint32_t c = (k * 37) % NB;
            if (op < 60) {
                uint32_t b = rnd(10) ? (c + rnd(20)) % NB : rnd(NB);
                double w = rnd(4) ? 1.0 : 0.125 * (1 + rnd(7));
                *joint_hist_cell(s, k, b) += w;
                ho[(size_t)k * NB + b] += w;
                if (b < s->hlo[k])
                    s->hlo[k] = b;
                if (b > s->hhi[k])
                    s->hhi[k] = b;
            } else if (op < 62) {
                joint_mrow_hclear(s);
                memset(ho, 0, (size_t)nk * NB * sizeof *ho);
                for (uint32_t j = 0; j < nk; j++) {
                    s->hlo[j] = NB;
                    s->hhi[j] = 0;
                }
            } else if (op < 85) {
                /* a density over [a, b], lz elsewhere (fit_fast's put) */
                double *buf = joint_mrow_lfbuf(s, lz);
                uint32_t a = rnd(4) ? (c + rnd(30)) % NB : rnd(NB), b = a + rnd(rnd(3) ? 40 : NB);
                if (b >= NB)
                    b = NB - 1;
                for (uint32_t i = 0; i < NB; i++)
                    lo[(size_t)k * NB + i] = lz;
                for (uint32_t i = a; i <= b; i++)
                    lo[(size_t)k * NB + i] = buf[i] = -1.0 - 0.001 * rnd(5000);
                CHECK(joint_lf_put(s, k, a, b, lz) == PB_OK);
            } else if (op < 95) {
                /* a whole row written, trimmed (fit_fast=0) */
                double *buf = joint_mrow_lfbuf(s, lz);
                uint32_t a = rnd(NB), b = a + rnd(60);
                for (uint32_t i = 0; i < NB; i++)
                    buf[i] = i >= a && i <= b && rnd(3) ? -2.0 - 0.01 * rnd(100) : lz;
                memcpy(lo + (size_t)k * NB, buf, NB * sizeof *buf);
                CHECK(joint_lf_put_trim(s, k, lz) == PB_OK);
            } else if (op < 97) {
                CHECK(joint_lf_put(s, k, 1, 0, s->bg) == PB_OK); /* a key of no delay */
                for (uint32_t i = 0; i < NB; i++)
                    lo[(size_t)k * NB + i] = s->bg;
            } else {
                CHECK(joint_mrow_lcompact(s) == PB_OK);
            }
            /* the scratch must come back holding lz */
            if (step % 97 == 0) {
                double *buf = joint_mrow_lfbuf(s, lz);
                for (uint32_t i = 0; i < NB; i++)
                    bad += buf[i] != lz;
            }
        }
        bad += pool_diff(s, ho, lo);
        const double *dn = joint_lf_dense(s, nk - 1);
        bad += memcmp(dn, lo + (size_t)(nk - 1) * NB, NB * sizeof *dn) != 0;
        cells += joint_mrow_cells(s, 0) + joint_mrow_cells(s, 1);
        whole += 2 * (size_t)nk * NB;
        free(ho);
        free(lo);
        bare_free(s);
    }
    printf("# 24 random sequences: %ld bins differ; pools %zu cells, whole rows %zu\n", bad,
           cells, whole);
    CHECK_INT((int)bad, 0);
    /* these sequences jump rows across the whole range on purpose: the
     * pools are then bounded (old rooms under 1.5x the live ones at a
     * compaction), not small; the refits below show the usual size */
    CHECK(cells < 3 * whole);
}

/* key rows and means after a refit of s (rows: nkeys x nb, km: nkeys) */
static int snap(const joint *s, double **rows, double **km)
{
    *rows = malloc(((size_t)s->nkeys * s->nb + 1) * sizeof **rows);
    *km = malloc(((size_t)s->nkeys + 1) * sizeof **km);
    if (!*rows || !*km)
        return -1;
    joint_mrow_lf_rows(s, *rows);
    memcpy(*km, s->kmean, (size_t)s->nkeys * sizeof **km);
    return 0;
}

/* a refit afresh (the memo emptied) after how (1: every logf room
 * dropped; 2: fit_fast off); the bins and means differing from rows/km */
static long refit_diff(joint *s, int how, const double *rows, const double *km)
{
    const uint32_t nk = s->nkeys;
    const int ff = s->p.fit_fast;
    if (how == 1)
        joint_mrow_test_drop(s);
    if (how == 2)
        s->p.fit_fast = 0;
    s->hraw_valid = 0;
    long d = -1;
    if (joint_fit(s, NULL) == PB_OK && s->nkeys == nk) {
        d = joint_mrow_lf_diff(s, 0, nk, rows);
        for (uint32_t k = 0; k < nk; k++)
            d += memcmp(&km[k], &s->kmean[k], sizeof *km) != 0;
    }
    s->p.fit_fast = ff;
    return d;
}

TEST(refits_give_every_row_to_the_bit)
{
    long bad = 0;
    int cases = 0, wrong_seen = 0, wrong_cases = 0;
    size_t cells = 0, whole = 0;
    for (int seed = 1; seed <= 8; seed++)
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = joint_test_case_trace((unsigned long)(104729 * seed + ids), seed, ids, 40);
            CHECK(t != NULL);
            if (!t)
                continue;
            pb_trace_view v = pb_trace_view_of(t);
            joint_params p = defaults();
            p.callids = ids;
            joint *s = joint_test_init(&v, p);
            CHECK(s != NULL);
            if (s) {
                double *rows = NULL, *km = NULL;
                CHECK(joint_fit(s, NULL) == PB_OK);
                CHECK(snap(s, &rows, &km) == 0);
                if (rows && km) {
                    long d1 = refit_diff(s, 1, rows, km), d2 = refit_diff(s, 2, rows, km);
                    CHECK(d1 >= 0 && d2 >= 0);
                    if (d1 || d2)
                        printf("# seed %d ids %d: %ld / %ld bins differ\n", seed, ids, d1, d2);
                    bad += (d1 != 0) + (d2 != 0);
                    cells += joint_mrow_cells(s, 1);
                    whole += (size_t)s->nkeys * s->nb;
                    cases++;
                    /* the constant outside the rooms wrong: seen */
                    joint_mrow_test_wrongc = 1;
                    long dw = refit_diff(s, 1, rows, km);
                    joint_mrow_test_wrongc = 0;
                    wrong_seen += dw > 0;
                    wrong_cases++;
                    (void)refit_diff(s, 1, rows, km); /* the rows put back */
                }
                free(rows);
                free(km);
                joint_close(s);
            }
            pb_trace_close(t);
            joint_test_tick = 0;
        }
    printf("# %d cases, %ld refits differ; logf pool %zu cells, whole rows %zu; "
           "with the constant wrong %d of %d differ\n", cases, bad, cells, whole, wrong_seen,
           wrong_cases);
    CHECK_INT(cases, 16);
    CHECK_INT((int)bad, 0);
    CHECK(cells < whole);
    CHECK_INT(wrong_seen, wrong_cases);
}

int main(void)
{
    RUN(pools_read_as_whole_rows);
    RUN(refits_give_every_row_to_the_bit);
    return pbtest_exit();
}
