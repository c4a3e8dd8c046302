/* joint's conf_copy_events (joint_cfev.c; docs/joint/confidence_late.md,
 * "Copy errors counted by the request (h269)"), worked by hand.
 *
 * The class: a copy's errors come as whole chains (every row a search
 * moved with one request's chain is wrong at once), so one draw of the
 * copy holds a few such events or none.  Link 0's 300 copy rows, stated
 * 0.99, were all right in this draw; link 1's 200 rows hold 12 wrong rows
 * in two requests of 6.  The plain map states link 0 at 301 / 302 (one
 * wrong row of prior among 300 independent rows); counted in units of
 * m = 12 / 2 = 6 rows, (300 + 6) / (300 + 12).  The other draw of the same
 * link (two chains of 6 wrong: 288 of 300 right, 0.96) is what the plain
 * map misses: with a doubt ratio of 2 the plain map states 0.9934 and the
 * new one 0.9615. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR 500 /* copy rows: 0..299 link 0, 300..499 link 1 */

/* the real solution (nothing of it read but its options) and a copy whose
 * wrong rows (link 1's first `nw`) sit `per` to a request */
static joint *real_of(int on, double z)
{
    joint *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->p = defaults();
    s->p.conf_copy_events = on;
    s->p.conf_copy_events_z = z;
    return s;
}

static joint *copy_of(uint32_t nw, uint32_t per)
{
    joint *s2 = calloc(1, sizeof *s2);
    if (!s2)
        return NULL;
    s2->npairs = NR + 64;
    s2->par = malloc(s2->npairs * sizeof *s2->par);
    for (uint32_t p = 0; p < s2->npairs; p++)
        s2->par[p] = JOINT_NONE;
    for (uint32_t i = 0; i < nw; i++)
        s2->par[300 + i] = NR + i / per; /* the request the row was put in */
    return s2;
}

static void copy_free(joint *s2)
{
    if (s2)
        free(s2->par);
    free(s2);
}

/* the copy's rows through the row hook, then the fit; the map of link l
 * at 0.99 into v[l] */
static int fit(joint *s, joint *s2, uint32_t nw, joint_cfse *c, double v[2])
{
    joint_spt pts[NR];
    for (uint32_t p = 0; p < NR; p++) {
        int ok = !(p >= 300 && p < 300 + nw);
        joint_cfev_row(s, s2, p, p < 300 ? 0u : 1u, ok);
        pts[p] = (joint_spt){0.99, p < 300 ? 0u : 1u, (unsigned char)ok};
    }
    int rc = joint_cfse_fit(s, pts, NR, 2, c);
    for (uint32_t l = 0; l < 2; l++)
        v[l] = joint_cfse_at(c, l, 0.99);
    return rc;
}

TEST(test_cfev_chains)
{
    joint *s = real_of(1, 0), *s2 = copy_of(12, 6);
    joint_cfse c;
    double v[2];
    CHECK(s && s2);
    if (!s || !s2)
        goto out;
    CHECK_INT(fit(s, s2, 12, &c, v), PB_OK);
    CHECK_NEAR(s->cev_rec[0], 500, 0);
    CHECK_NEAR(s->cev_rec[1], 12, 0);
    CHECK_NEAR(s->cev_rec[2], 2, 0);
    CHECK_NEAR(s->cev_rec[3], 6, 1e-12);
    CHECK_NEAR(v[0], 306.0 / 312.0, 1e-12);               /* all right: (300 + 6) / (300 + 12) */
    CHECK_NEAR(v[1], (188.0 + 6) / (200.0 + 12), 1e-12);  /* 188 right of 200 */
    /* the plain map of link 0 alone */
    double c0[300], lo[4], val[4];
    unsigned char ok0[300];
    for (int i = 0; i < 300; i++) {
        c0[i] = 0.99;
        ok0[i] = 1;
    }
    uint32_t b = joint_pav_map(c0, ok0, 300, lo, val);
    CHECK_INT((int)b, 1);
    CHECK_NEAR(val[0], 301.0 / 302.0, 1e-12);
    /* the other draw: 288 of 300 right; with a doubt ratio of 2 the plain
     * map is over-confident there (0.9934), the new one is about right */
    double r = 2, truth = 288.0 / 300.0;
    CHECK(1 - r * (1 - val[0]) > truth + 0.03);
    CHECK(fabs(1 - r * (1 - v[0]) - truth) < 0.002); /* 0.9615 */
    /* the rows were forgotten: a second fit sees none, and m is 1 */
    joint_cfse_free(&c);
    joint_spt one = {0.99, 0, 1};
    CHECK_INT(joint_cfse_fit(s, &one, 1, 2, &c), PB_OK);
    CHECK_NEAR(s->cev_rec[3], 1, 0);
    joint_cfse_free(&c);
out:
    free(s);
    copy_free(s2);
}

/* errors one row to a request: m = 1, the map is the plain one */
TEST(test_cfev_independent)
{
    joint *s = real_of(1, 0), *s2 = copy_of(12, 1);
    joint_cfse c;
    double v[2];
    CHECK(s && s2);
    if (!s || !s2)
        goto out;
    CHECK_INT(fit(s, s2, 12, &c, v), PB_OK);
    CHECK_NEAR(s->cev_rec[3], 1, 0);
    CHECK_NEAR(v[0], 301.0 / 302.0, 1e-12);
    CHECK_NEAR(v[1], 189.0 / 202.0, 1e-12);
    joint_cfse_free(&c);
    /* z: the Wilson lower bound, below the share */
    joint *sz = real_of(1, 1);
    joint *s3 = copy_of(12, 6);
    double vz[2];
    CHECK(sz && s3);
    if (sz && s3) {
        CHECK_INT(fit(sz, s3, 12, &c, vz), PB_OK);
        CHECK(vz[0] < 306.0 / 312.0 && vz[0] > 0.9);
        joint_cfse_free(&c);
    }
    free(sz);
    copy_free(s3);
out:
    free(s);
    copy_free(s2);
}

/* two copies: the same request number in each is two requests */
TEST(test_cfev_two_copies)
{
    joint *s = real_of(1, 0), *s2 = copy_of(12, 12);
    joint_cfse c;
    CHECK(s && s2);
    if (!s || !s2)
        goto out;
    for (int k = 0; k < 2; k++)
        for (uint32_t p = 300; p < 312; p++)
            joint_cfev_row(s, s2, p, 1, 0);
    joint_spt one = {0.99, 0, 1};
    CHECK_INT(joint_cfse_fit(s, &one, 1, 2, &c), PB_OK);
    CHECK_NEAR(s->cev_rec[1], 24, 0);
    CHECK_NEAR(s->cev_rec[2], 2, 0);
    CHECK_NEAR(s->cev_rec[3], 12, 1e-12);
    joint_cfse_free(&c);
out:
    free(s);
    copy_free(s2);
}

/* mode 2: link 0's 300 rows three to a request (all right), link 1's 200
 * one to a request (12 wrong): m is 3 for link 0, 1 for link 1, and
 * 500 / 300 for the all-links map */
TEST(test_cfev_per_link)
{
    joint *s = real_of(2, 0), *s2 = calloc(1, sizeof *s2);
    joint_cfse c;
    CHECK(s && s2);
    if (!s || !s2)
        goto out;
    s2->npairs = NR + 100;
    s2->par = malloc(s2->npairs * sizeof *s2->par);
    for (uint32_t p = 0; p < s2->npairs; p++)
        s2->par[p] = p < 300 ? NR + p / 3 : JOINT_NONE;
    joint_spt pts[NR];
    for (uint32_t p = 0; p < NR; p++) {
        int ok = !(p >= 300 && p < 312);
        joint_cfev_row(s, s2, p, p < 300 ? 0u : 1u, ok);
        pts[p] = (joint_spt){0.99, p < 300 ? 0u : 1u, (unsigned char)ok};
    }
    CHECK_INT(joint_cfse_fit(s, pts, NR, 2, &c), PB_OK);
    CHECK_NEAR(s->cev_rec[2], 300, 0);
    CHECK_NEAR(s->cev_rec[3], 500.0 / 300.0, 1e-12);
    CHECK_NEAR(joint_cfse_at(&c, 0, 0.99), 303.0 / 306.0, 1e-12);
    CHECK_NEAR(joint_cfse_at(&c, 1, 0.99), 189.0 / 202.0, 1e-12);
    joint_cfse_free(&c);
out:
    free(s);
    copy_free(s2);
}

/* off: no map (1 everywhere), nothing counted */
TEST(test_cfev_off)
{
    joint *s = real_of(0, 0), *s2 = copy_of(12, 6);
    joint_cfse c;
    double v[2];
    CHECK(s && s2);
    if (!s || !s2)
        goto out;
    CHECK_INT(fit(s, s2, 12, &c, v), PB_OK);
    CHECK_NEAR(v[0], 1, 0);
    CHECK_NEAR(v[1], 1, 0);
    CHECK_NEAR(s->cev_rec[1], 0, 0);
    joint_cfse_free(&c);
out:
    free(s);
    copy_free(s2);
}

int main(void)
{
    RUN(test_cfev_chains);
    RUN(test_cfev_independent);
    RUN(test_cfev_two_copies);
    RUN(test_cfev_per_link);
    RUN(test_cfev_off);
    return pbtest_exit();
}
