/* The re-pairing's exchange passes with their response costs kept
 * (joint_xcost.c, docs/joint/speed.md "Speed, fifteenth wave"): on
 * random links (2 to 300 calls, a random first pairing, a pure cost of a
 * call and the return it is given), the passes run with the kept costs
 * and with every cost computed afresh, as joint_repair.c's passes did
 * before, make the same exchanges in the same order, and every cur and
 * alt they compare is the same bits.  The comparison can fail: with the
 * kept exchanges no longer voided by a change (joint_xcost_test_stale)
 * the passes differ. */
#include "pbtest.h"
#include "joint_int.h"

#include <stdint.h>
#include <stdlib.h>

/* a pure cost of call c given return k (seeded per link) */
static double cost(uint64_t seed, uint32_t c, uint32_t k)
{
    uint64_t h = seed ^ ((uint64_t)c * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)k * 0xc2b2ae3d27d4eb4fULL);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
    /* a return far from the call costs more: exchanges of near calls win */
    double d = (double)c - (double)k;
    return (double)(h % 1000003) / 1000003.0 + 0.05 * d * d;
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* the passes of joint_repair.c over calls 0..nc-1 (the link's order),
 * with the kept costs (x) or without (x NULL); every compared value
 * appended to log (2 per pair tried); returns exchanges made */
static size_t passes(uint64_t seed, uint32_t nc, uint32_t *to, joint_xcost *x, double *log,
                     size_t *nlog)
{
    size_t total = 0;
    if (x) {
        if (joint_xcost_begin(x, nc) != PB_OK)
            return (size_t)-1;
        for (uint32_t i = 0; i < nc; i++)
            x->cur[i] = cost(seed, i, to[i]);
    }
    for (int pass = 0; pass < 4; pass++) {
        size_t ex = 0;
        for (uint32_t i = 0; i < nc; i++)
            for (uint32_t j = i + 1; j < nc && j <= i + JOINT_SWAP_WINDOW; j++) {
                uint32_t k1 = to[i], k2 = to[j];
                double cur, alt;
                if (x) {
                    cur = x->cur[i] + x->cur[j];
                    if (!joint_xcost_get(x, i, j, &alt)) {
                        alt = cost(seed, i, k2) + cost(seed, j, k1);
                        joint_xcost_put(x, i, j, alt);
                    }
                } else {
                    cur = cost(seed, i, k1) + cost(seed, j, k2);
                    alt = cost(seed, i, k2) + cost(seed, j, k1);
                }
                log[(*nlog)++] = cur;
                log[(*nlog)++] = alt;
                if (alt < cur - 1e-9) {
                    to[i] = k2;
                    to[j] = k1;
                    if (x) {
                        joint_xcost_changed(x, i);
                        joint_xcost_changed(x, j);
                        x->cur[i] = cost(seed, i, k2);
                        x->cur[j] = cost(seed, j, k1);
                    }
                    ex++;
                }
            }
        total += ex;
        if (!ex)
            break;
    }
    return total;
}

/* cases links run through one kept-cost state (as repair_pairs runs its
 * links); how many differ from the passes without it */
static int run_cases(int cases, size_t *exchanges, size_t *tried)
{
    joint_xcost x = {0};
    uint64_t r = 88172645463325252ULL;
    int differ = 0;
    *exchanges = *tried = 0;
    for (int c = 0; c < cases; c++) {
        uint32_t nc = 2 + (uint32_t)(rnd(&r) % 299);
        uint64_t seed = rnd(&r);
        uint32_t *a = malloc(nc * sizeof *a), *b = malloc(nc * sizeof *b);
        size_t cap = (size_t)nc * JOINT_SWAP_WINDOW * 2 * 4 + 8;
        double *la = malloc(cap * sizeof *la), *lb = malloc(cap * sizeof *lb);
        if (!a || !b || !la || !lb) {
            free(a), free(b), free(la), free(lb);
            joint_xcost_free(&x);
            return -1;
        }
        /* a first pairing: the identity, then nearby returns shuffled */
        for (uint32_t i = 0; i < nc; i++)
            a[i] = i;
        for (uint32_t i = 0; i + 1 < nc; i++)
            if (rnd(&r) % 2) {
                uint32_t j = i + 1 + (uint32_t)(rnd(&r) % 4);
                if (j < nc) {
                    uint32_t t = a[i];
                    a[i] = a[j];
                    a[j] = t;
                }
            }
        memcpy(b, a, nc * sizeof *b);
        size_t na = 0, nb = 0;
        size_t ea = passes(seed, nc, a, &x, la, &na);
        size_t eb = passes(seed, nc, b, NULL, lb, &nb);
        if (ea == (size_t)-1) {
            free(a), free(b), free(la), free(lb);
            joint_xcost_free(&x);
            return -1;
        }
        *exchanges += eb;
        *tried += nb / 2 > 0 ? nb / 2 : 0;
        if (ea != eb || na != nb || memcmp(a, b, nc * sizeof *a) ||
            memcmp(la, lb, na * sizeof *la))
            differ++;
        free(a), free(b), free(la), free(lb);
    }
    joint_xcost_free(&x);
    return differ;
}

TEST(kept_costs_same_bits)
{
    size_t ex = 0, tried = 0;
    int d = run_cases(60, &ex, &tried);
    CHECK_INT(d, 0);
    CHECK(ex > 100); /* the passes did exchange (later passes ran) */
    CHECK(tried > 1000);
}

TEST(stale_kept_costs_differ)
{
    size_t ex = 0, tried = 0;
    joint_xcost_test_stale = 1;
    int d = run_cases(60, &ex, &tried);
    joint_xcost_test_stale = 0;
    CHECK(d > 0);
}

TEST(free_is_null_safe)
{
    joint_xcost x = {0};
    joint_xcost_free(&x);
    CHECK(x.cur == NULL && x.alt == NULL && x.gen == NULL);
    CHECK_INT(joint_xcost_begin(&x, 3), PB_OK);
    CHECK(x.cap >= 3);
    joint_xcost_free(&x);
}

int main(void)
{
    RUN(kept_costs_same_bits);
    RUN(stale_kept_costs_differ);
    RUN(free_is_null_safe);
    return pbtest_exit();
}
