/* joint's candidate parents from the max-tree (`cand_sweep`,
 * joint_csweep.c; docs/joint/speed.md "Speed, twentieth wave") against the
 * scan of every open request (cand_sweep=0), on random bare pairs: the
 * same candidates in the same order for every call, the cap included,
 * with the tree used for every call (joint_csweep_min = 0) and only where
 * the list is long (mixed with the scan, the list compacted in between);
 * with and without slack, with the requests' ends opened (s->qend, as
 * while returns are re-paired).  A tree whose test is one tick short
 * (joint_csweep_test_wrong) must differ.
 *
 * Times are whole microseconds in a small range, so that ends tie with
 * returns (the tests' boundaries) and requests tie at their starts (the
 * cap's windows). */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_cands_test.h"

#include <stdlib.h>

#define NP 600

/* deep nesting half the time: a long request early */
static void nest_stamps(gsl_rng *r, jpair *x, void *arg)
{
    (void)arg;
    pb_ns len = gsl_rng_uniform(r) < 0.5 ? (pb_ns)gsl_rng_uniform_int(r, 3000)
                                         : (pb_ns)gsl_rng_uniform_int(r, 60);
    x->cs = (pb_ns)gsl_rng_uniform_int(r, 2000) * 1000;
    x->cr = x->cs + (pb_ns)gsl_rng_uniform_int(r, 3) * 1000;
    x->rs = x->cr + len * 1000;
    x->rr = x->rs + (pb_ns)gsl_rng_uniform_int(r, 3) * 1000;
}

static joint *random_pairs(gsl_rng *r, uint32_t nn, int opened)
{
    return joint_test_bare_pairs(r, NP, nn, opened, 500000, nest_stamps, NULL);
}

/* same lists from the scan and the tree (min: joint_csweep_min); counts
 * the cases whose lists differ into *diff, the calls the tree served into
 * *tree, capped calls into *capped */
static int one_case(unsigned long seed, pb_ns slack, int opened, uint32_t min, size_t *diff,
                    size_t *tree, size_t *capped)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return 0;
    gsl_rng_set(r, seed);
    joint *s = random_pairs(r, 1 + (uint32_t)(seed % 3), opened);
    gsl_rng_free(r);
    if (!s)
        return 0;
    s->p.slack = slack;
    size_t la = 0, lb = 0;
    s->p.cand_sweep = 0;
    uint32_t *a = joint_test_cands(s, &la);
    s->p.cand_sweep = 1;
    uint32_t save = joint_csweep_min;
    joint_csweep_min = min;
    s->csweep_calls = 0;
    uint32_t *b = joint_test_cands(s, &lb);
    joint_csweep_min = save;
    *tree += s->csweep_calls;
    *capped += s->capped_calls;
    int ok = a && b;
    if (ok && (la != lb || memcmp(a, b, la * sizeof *a)))
        (*diff)++;
    free(a);
    free(b);
    joint_test_drop_bare(s);
    return ok;
}

TEST(the_tree_finds_what_the_scan_finds)
{
    size_t diff = 0, tree = 0, capped = 0, cases = 0;
    for (unsigned long seed = 1; seed <= 40; seed++)
        for (int opened = 0; opened < 2; opened++)
            for (pb_ns slack = 0; slack <= 2000; slack += 2000)
                for (uint32_t min = 0; min <= 16; min += 16) {
                    CHECK(one_case(seed, slack, opened, min, &diff, &tree, &capped));
                    cases++;
                }
    CHECK_INT(diff, 0);
    CHECK(tree > 10000); /* the tree served calls */
    CHECK(capped > 100); /* and the cap was at work */
    printf("# cand_sweep: %zu cases, %zu calls from the tree, %zu capped, %zu differ\n", cases,
           tree, capped, diff);
}

TEST(a_tree_one_tick_short_is_caught)
{
    size_t diff = 0, tree = 0, capped = 0;
    joint_csweep_test_wrong = 1;
    for (unsigned long seed = 1; seed <= 10; seed++)
        CHECK(one_case(seed, 0, 0, 0, &diff, &tree, &capped));
    joint_csweep_test_wrong = 0;
    CHECK(diff > 0);
    printf("# cand_sweep wrong tree: %zu of 10 cases differ\n", diff);
}

int main(void)
{
    RUN(the_tree_finds_what_the_scan_finds);
    RUN(a_tree_one_tick_short_is_caught);
    return pbtest_exit();
}
