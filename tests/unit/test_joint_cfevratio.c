/* joint's conf_ratio_events (joint_cfevratio.c; docs/joint/confidence_w36.md,
 * "The events map's doubt ratio in its own units (h300)"), worked by hand.
 *
 * The copy: link 0's 400 rows five to a request (80 requests), link 1's
 * 100 rows one to a request, every row right and stated 1 (no doubt).
 * The events map (conf_copy_events=2) values link 0 at (400 + 5) / (400 +
 * 10): its error 5 / 410 = 0.0122.  The real trace: link 0's 1,200 rows,
 * 40 stated 0 (doubt 1 each) and 1,160 stated 1.  The plain doubt ratio
 * counts rows, ((40 + 1) / 1201) / ((0 + 1) / 401) = 13.69, and states
 * every real row of link 0 1 - 13.69 x 0.0122 = 0.833 -- about m = 5 times
 * the real doubt 0.033, however large the copy.  Counted in units of m = 5
 * rows on both sides, ((8 + 1) / 241) / ((0 + 1) / 81) = 3.025 (mode 1);
 * over the rows stated 0.5 or more (band 0.5) the real rows are no more
 * doubted than the copy's, ((0 + 1) / 233) / (1 / 81) = 0.35, so mode 2
 * eases the ratio to 1: 1 - 0.0122 = 0.988.  With the real high rows
 * stated 0.98 (doubt 23.2: ((4.64 + 1) / 233) / (1 / 81) = 1.96 >= 1) mode 2
 * keeps the plain ratio. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NC 500  /* copy rows: 0..399 link 0, 400..499 link 1 */
#define NREAL 1200

typedef struct {
    joint *s, *s2;
    joint_spt pts[NC];
    double conf[NREAL];
    unsigned char exr[NREAL];
} fixture;

static int setup(fixture *f, int mode, double band, double hi)
{
    memset(f, 0, sizeof *f);
    f->s = calloc(1, sizeof *f->s);
    f->s2 = calloc(1, sizeof *f->s2);
    if (!f->s || !f->s2)
        return 0;
    joint *s = f->s, *s2 = f->s2;
    s->p = defaults();
    s->p.conf_copy_events = 2;
    s->p.conf_copy_events_z = 0;
    s->p.conf_copy_share = 0; /* no smaller copy: the events map at its share */
    s->p.conf_ratio_events = mode;
    s->p.conf_ratio_events_band = band;
    s->nlinks = 2;
    s->npairs = NREAL;
    s->pr = calloc(NREAL, sizeof *s->pr);
    s->par = malloc(NREAL * sizeof *s->par); /* every real row a root (joint_cfse_fit reads it) */
    s->scal_stat = calloc(JOINT_SCAL_NSTAT * 3, sizeof *s->scal_stat);
    /* the copy: rows five to a request on link 0, one on link 1 */
    s2->npairs = NC + 200;
    s2->par = malloc(s2->npairs * sizeof *s2->par);
    if (!s->pr || !s->par || !s->scal_stat || !s2->par)
        return 0;
    for (uint32_t p = 0; p < NREAL; p++)
        s->par[p] = JOINT_NONE;
    for (uint32_t p = 0; p < s2->npairs; p++)
        s2->par[p] = p < 400 ? NC + p / 5 : JOINT_NONE;
    for (uint32_t p = 0; p < NC; p++) {
        uint32_t l = p < 400 ? 0 : 1;
        joint_cfev_row(s, s2, p, l, 1);
        f->pts[p] = (joint_spt){1.0, l, 1};
    }
    /* the real rows, all of link 0 */
    for (uint32_t p = 0; p < NREAL; p++) {
        s->pr[p].link = 0;
        f->conf[p] = p < 40 ? 0.0 : hi;
    }
    /* the plain ratio as joint_selfcal.c computes it (link 0 and all links) */
    double d = 0;
    for (uint32_t p = 0; p < NREAL; p++)
        d += 1 - f->conf[p];
    double r0 = ((d + 1) / (NREAL + 1)) / ((0.0 + 1) / (400 + 1));
    double ra = ((d + 1) / (NREAL + 1)) / ((0.0 + 1) / (NC + 1));
    s->scal_stat[7] = r0 > 1 ? r0 : 1;
    s->scal_stat[JOINT_SCAL_NSTAT + 7] = 1;
    s->scal_stat[2 * JOINT_SCAL_NSTAT + 7] = ra > 1 ? ra : 1;
    return 1;
}

static void teardown(fixture *f)
{
    if (f->s) {
        free(f->s->pr);
        free(f->s->par);
        free(f->s->scal_stat);
        joint_cfer_free(f->s);
    }
    if (f->s2)
        free(f->s2->par);
    free(f->s);
    free(f->s2);
}

/* the stated value of a real row of link 0 stated c, as the row loop of
 * joint_selfcal.c states it from the events map */
static double stated(fixture *f, joint_cfse *c, double v)
{
    double r = f->s->scal_stat[7];
    double e = (1 - joint_cfse_at(c, 0, v)) * joint_cfer_r(f->s, c, 0, r);
    return e < 1 ? 1 - e : 0;
}

TEST(test_cfer_units)
{
    fixture f;
    joint_cfse c;
    memset(&c, 0, sizeof c);
    CHECK(setup(&f, 1, 0, 1.0));
    if (!f.s || !f.s->pr)
        goto out;
    CHECK_INT(joint_cfse_fit(f.s, f.pts, NC, 2, &c), PB_OK);
    CHECK_NEAR(joint_cfse_at(&c, 0, 1.0), 405.0 / 410.0, 1e-12);
    CHECK_INT(joint_cfer_fit(f.s, f.pts, NC, f.conf, f.exr, NREAL, 2), PB_OK);
    double r0 = (41.0 / 1201.0) * 401.0;
    CHECK_NEAR(f.s->scal_stat[7], r0, 1e-12);
    CHECK_NEAR(f.s->cfer_r[0], (9.0 / 241.0) * 81.0, 1e-12); /* 3.025 */
    /* the plain ratio: 0.833; the units ratio: 0.963 */
    CHECK(fabs(1 - r0 * 5.0 / 410.0 - 0.8330) < 1e-3);
    CHECK_NEAR(stated(&f, &c, 1.0), 1 - (9.0 / 241.0) * 81.0 * 5.0 / 410.0, 1e-12);
    /* link 1 (its own map? no: 100 rows, the all-links one) keeps a ratio
     * no higher than the plain one */
    CHECK(f.s->cfer_r[2] <= f.s->scal_stat[2 * JOINT_SCAL_NSTAT + 7] + 1e-12);
    joint_cfse_free(&c);
out:
    teardown(&f);
}

TEST(test_cfer_band_mode2)
{
    fixture f;
    joint_cfse c;
    memset(&c, 0, sizeof c);
    CHECK(setup(&f, 2, 0.5, 1.0));
    if (!f.s || !f.s->pr)
        goto out;
    CHECK_INT(joint_cfse_fit(f.s, f.pts, NC, 2, &c), PB_OK);
    CHECK_INT(joint_cfer_fit(f.s, f.pts, NC, f.conf, f.exr, NREAL, 2), PB_OK);
    CHECK_NEAR(f.s->cfer_r[0], 1, 0); /* 0.35 < 1: eased to 1 */
    CHECK_NEAR(stated(&f, &c, 1.0), 405.0 / 410.0, 1e-12);
    CHECK_NEAR(f.s->cfer_rec[0], 1, 0); /* one link eased */
    joint_cfse_free(&c);
out:
    teardown(&f);
}

TEST(test_cfer_band_mode2_kept)
{
    fixture f;
    joint_cfse c;
    memset(&c, 0, sizeof c);
    CHECK(setup(&f, 2, 0.5, 0.98));
    if (!f.s || !f.s->pr)
        goto out;
    CHECK_INT(joint_cfse_fit(f.s, f.pts, NC, 2, &c), PB_OK);
    CHECK_INT(joint_cfer_fit(f.s, f.pts, NC, f.conf, f.exr, NREAL, 2), PB_OK);
    /* ((23.2 / 5 + 1) / 233) / (1 / 81) = 1.96 >= 1: the plain ratio */
    CHECK_NEAR(f.s->cfer_r[0], f.s->scal_stat[7], 1e-12);
    CHECK_NEAR(f.s->cfer_rec[0], 0, 0);
    double r0 = f.s->scal_stat[7];
    CHECK_NEAR(stated(&f, &c, 0.98), 1 - r0 * (1 - joint_cfse_at(&c, 0, 0.98)), 1e-12);
    joint_cfse_free(&c);
out:
    teardown(&f);
}

TEST(test_cfer_off)
{
    fixture f;
    joint_cfse c;
    memset(&c, 0, sizeof c);
    CHECK(setup(&f, 0, 0.5, 1.0));
    if (!f.s || !f.s->pr)
        goto out;
    CHECK_INT(joint_cfse_fit(f.s, f.pts, NC, 2, &c), PB_OK);
    CHECK_INT(joint_cfer_fit(f.s, f.pts, NC, f.conf, f.exr, NREAL, 2), PB_OK);
    CHECK(f.s->cfer_r == NULL);
    CHECK_NEAR(joint_cfer_r(f.s, &c, 0, 7.5), 7.5, 0);
    joint_cfse_free(&c);
out:
    teardown(&f);
}

int main(void)
{
    RUN(test_cfer_units);
    RUN(test_cfer_band_mode2);
    RUN(test_cfer_band_mode2_kept);
    RUN(test_cfer_off);
    return pbtest_exit();
}
