/* joint's conf_kind_map (joint_cfkind.c; docs/joint/confidence_w36.md, "A
 * map per kind of request (h317)"), worked by hand.
 *
 * The copy: 100 small requests of two pairs (a root of link 1 and one call
 * of link 0; kind 1, sizes 2) and 10 large ones of six (a root and five
 * calls of link 0; kind 3, sizes 5-8).  The copy's link-0 rows: the small
 * requests' 100 all right, the large ones' 50 of which two requests' (10
 * rows) wrong; every row stated 1.  Pooled, the events map counts link 0
 * in units of m = 150 / 110 rows per request: (140 / m + 1) / (150 / m + 2)
 * = 0.9256, and so states the large requests' calls; their class alone
 * has m = 50 / 10 = 5: (40 / 5 + 1) / (50 / 5 + 2) = 9 / 12 = 0.75.  The
 * small requests' class, link 0's largest, keeps the pooled maps (its own
 * would be m = 1: 101 / 102).  The real trace: one small
 * request (pairs 0-1) and one large (2-7), every row stated 1 (no doubt
 * on either side: the classes' ratio 1, however few the real rows). */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NC2 260 /* copy pairs: 0..199 small requests, 200..259 large */
#define NR 8

typedef struct {
    joint *s, *s2;
    double conf[NR];
    unsigned char exr[NR];
} fixture;

static int setup(fixture *f, int mode, int min, uint32_t bad)
{
    memset(f, 0, sizeof *f);
    f->s = calloc(1, sizeof *f->s);
    f->s2 = calloc(1, sizeof *f->s2);
    if (!f->s || !f->s2)
        return 0;
    joint *s = f->s, *s2 = f->s2;
    s->p = defaults();
    s->p.conf_copy_events_z = 0;
    s->p.conf_kind_map = mode;
    s->p.conf_kind_map_min = min;
    s->nlinks = 2;
    s->npairs = NR;
    s->pr = calloc(NR, sizeof *s->pr);
    s->par = malloc(NR * sizeof *s->par);
    s2->npairs = NC2;
    s2->par = malloc(NC2 * sizeof *s2->par);
    if (!s->pr || !s->par || !s2->par)
        return 0;
    for (uint32_t p = 0; p < 200; p++)
        s2->par[p] = p % 2 ? p - 1 : JOINT_NONE;
    for (uint32_t p = 200; p < NC2; p++)
        s2->par[p] = (p - 200) % 6 ? 200 + 6 * ((p - 200) / 6) : JOINT_NONE;
    joint_cfk_reset(s);
    joint_cfk_copy(s, s2);
    for (uint32_t p = 0; p < NC2; p++)
        if (s2->par[p] != JOINT_NONE)
            joint_cfk_row(s, p, 0, p < 200 || p >= 200 + bad + bad / 5, 1.0);
    /* the real trace */
    for (uint32_t p = 0; p < NR; p++) {
        s->par[p] = p == 1 ? 0 : p > 2 ? 2 : JOINT_NONE;
        s->pr[p].link = s->par[p] == JOINT_NONE ? 1 : 0;
        f->conf[p] = 1;
    }
    return 1;
}

static void teardown(fixture *f)
{
    if (f->s) {
        free(f->s->pr);
        free(f->s->par);
        joint_cfk_reset(f->s);
    }
    if (f->s2)
        free(f->s2->par);
    free(f->s);
    free(f->s2);
}

TEST(test_cfk_classes)
{
    fixture f;
    CHECK(setup(&f, 1, 20, 10));
    if (!f.s || !f.s->pr)
        goto out;
    CHECK_INT((int)f.s->cfk_n, 150);
    CHECK_INT(joint_cfk_fit(f.s, f.conf, f.exr), PB_OK);
    CHECK_NEAR(f.s->cfk_rec[0], 1, 0); /* (link 0, kind 3); kind 1 is link 0's largest */
    /* a large request's call: its class's 0.75, not the pool's 0.9256 */
    CHECK_NEAR(joint_cfk_err(f.s, 3, 1.0, 0), 0.25, 1e-12);
    CHECK_NEAR(joint_cfk_err(f.s, 7, 1.0, 1 - 0.9256), 0.25, 1e-12);
    /* a small request's call: the pooled error as given */
    CHECK_NEAR(joint_cfk_err(f.s, 1, 1.0, 0.05), 0.05, 0);
    /* mode 1 keeps a larger error */
    CHECK_NEAR(joint_cfk_err(f.s, 3, 1.0, 0.5), 0.5, 0);
    /* the roots (link 1): no copy rows, the pooled error as given */
    CHECK_NEAR(joint_cfk_err(f.s, 0, 1.0, 0.125), 0.125, 0);
    CHECK_NEAR(f.s->cfk_rec[1], 2, 0);
out:
    teardown(&f);
}

TEST(test_cfk_mode2_replaces)
{
    fixture f;
    CHECK(setup(&f, 2, 20, 10));
    if (!f.s || !f.s->pr)
        goto out;
    CHECK_INT(joint_cfk_fit(f.s, f.conf, f.exr), PB_OK);
    /* the class's map instead of the pooled one: a large request's call
     * rises from an error of 0.5 to 0.25; a small one's keeps the pool's */
    CHECK_NEAR(joint_cfk_err(f.s, 3, 1.0, 0.5), 0.25, 1e-12);
    CHECK_NEAR(f.s->cfk_rec[2], 1, 0);
    CHECK_NEAR(joint_cfk_err(f.s, 1, 1.0, 0.05), 0.05, 0);
out:
    teardown(&f);
}

TEST(test_cfk_small_class_pooled)
{
    fixture f;
    CHECK(setup(&f, 1, 60, 10)); /* the large class's 50 rows: too few */
    if (!f.s || !f.s->pr)
        goto out;
    CHECK_INT(joint_cfk_fit(f.s, f.conf, f.exr), PB_OK);
    CHECK_NEAR(f.s->cfk_rec[0], 0, 0);
    CHECK_NEAR(joint_cfk_err(f.s, 3, 1.0, 1 - 0.9256), 1 - 0.9256, 1e-12);
out:
    teardown(&f);
}

TEST(test_cfk_real_doubt)
{
    fixture f;
    CHECK(setup(&f, 1, 20, 10));
    if (!f.s || !f.s->pr)
        goto out;
    /* the large request's calls doubted 0.4 each (2 in all): the class's
     * ratio (2 + 1) / (0 + 1) = 3 (the copy clean), at band 0.5 the units
     * ratio ((2 / 5 + 1) / (5 / 5 + 1)) / ((0 + 1) / (50 / 5 + 1)) = 7.7,
     * kept: a call stated 0.6 is given error (1 - 0.75) x 3 = 0.75 */
    for (uint32_t p = 3; p < NR; p++)
        f.conf[p] = 0.6;
    CHECK_INT(joint_cfk_fit(f.s, f.conf, f.exr), PB_OK);
    CHECK_NEAR(joint_cfk_err(f.s, 4, 0.6, 0), 0.75, 1e-12);
out:
    teardown(&f);
}

TEST(test_cfk_clean_class_pooled)
{
    fixture f;
    CHECK(setup(&f, 1, 20, 0)); /* the large requests' copy rows all right */
    if (!f.s || !f.s->pr)
        goto out;
    CHECK_INT(joint_cfk_fit(f.s, f.conf, f.exr), PB_OK);
    /* wrong no more often than the small ones' (0 %): no class of its own,
     * though its bound on 10 requests (11 / 12) is below the pool's */
    CHECK_NEAR(f.s->cfk_rec[0], 0, 0);
    CHECK_NEAR(joint_cfk_err(f.s, 3, 1.0, 0.01), 0.01, 0);
out:
    teardown(&f);
}

TEST(test_cfk_off)
{
    fixture f;
    CHECK(setup(&f, 0, 20, 10));
    if (!f.s || !f.s->pr)
        goto out;
    CHECK_INT((int)f.s->cfk_n, 0);
    CHECK_INT(joint_cfk_fit(f.s, f.conf, f.exr), PB_OK);
    CHECK_NEAR(joint_cfk_err(f.s, 3, 1.0, 0.125), 0.125, 0);
out:
    teardown(&f);
}

int main(void)
{
    RUN(test_cfk_classes);
    RUN(test_cfk_mode2_replaces);
    RUN(test_cfk_small_class_pooled);
    RUN(test_cfk_real_doubt);
    RUN(test_cfk_clean_class_pooled);
    RUN(test_cfk_off);
    return pbtest_exit();
}
