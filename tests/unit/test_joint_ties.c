/* swap_ties (joint_model.c ties_resort; docs/joint/speed_w21.md "Speed,
 * twenty-first wave (h168)"): a run of returns sorted by (time received,
 * pair) whose calls u and v have exchanged their returns since, sorted
 * again by moving only u and v, must be the run sorted in full by the
 * current keys, and the positions outside [*p1, *p2) untouched.  Random
 * runs with many ties (a few stamps), u and v anywhere. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"
#include "pb_sort.h"

#include <stdlib.h>
#include <string.h>

#define NR 64

static const jpair *g_pr;

static int by_key(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (g_pr[x].rr != g_pr[y].rr)
        return g_pr[x].rr < g_pr[y].rr ? -1 : 1;
    return x < y ? -1 : x > y;
}

TEST(two_moved_equals_full_sort)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 168);
    joint s;
    memset(&s, 0, sizeof s);
    jpair pr[NR];
    uint32_t r[NR], want[NR], keep[NR];
    long bad = 0, moved = 0, cases = 0;
    for (int it = 0; it < 20000; it++) {
        memset(pr, 0, sizeof pr);
        unsigned stamps = 1 + (unsigned)gsl_rng_uniform_int(g, it % 2 ? 4 : 40);
        for (uint32_t i = 0; i < NR; i++)
            pr[i].rr = (pb_ns)gsl_rng_uniform_int(g, stamps) * 1000;
        s.pr = pr;
        g_pr = pr;
        for (uint32_t i = 0; i < NR; i++)
            r[i] = i;
        pb_sort(r, NR, sizeof *r, by_key); /* the record's order (old keys) */
        uint32_t u = (uint32_t)gsl_rng_uniform_int(g, NR), v = (uint32_t)gsl_rng_uniform_int(g, NR);
        if (u == v)
            continue;
        pb_ns t = pr[u].rr; /* the exchange since */
        pr[u].rr = pr[v].rr;
        pr[v].rr = t;
        memcpy(want, r, sizeof r);
        pb_sort(want, NR, sizeof *want, by_key);
        memcpy(keep, r, sizeof r);
        uint32_t p1 = 0, p2 = 0;
        cases++;
        if (!joint_ties_resort_test(&s, r, 0, NR, u, v, &p1, &p2)) {
            bad++;
            continue;
        }
        moved += memcmp(r, keep, sizeof r) != 0;
        if (memcmp(r, want, sizeof r) != 0)
            bad++;
        for (uint32_t i = 0; i < NR; i++)
            if ((i < p1 || i >= p2) && r[i] != keep[i])
                bad++;
    }
    gsl_rng_free(g);
    CHECK(cases > 19000);
    CHECK_INT(bad, 0);
    CHECK(moved > 5000); /* u and v did move in many cases */
}

int main(void)
{
    RUN(two_moved_equals_full_sort);
    return pbtest_exit();
}
