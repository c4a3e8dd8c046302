/* joint's conf_copy_events_second (joint_cfev2.c; docs/joint/confidence_late.md,
 * "A second copy where one draw cannot tell luck from structure (h279)"),
 * worked by hand.
 *
 * A row is at stake when the events map alone takes it below 0.9, 0.95 or
 * 0.99 that it reaches without it; where the rows at stake are at least
 * the option's share of the result's rows, the rows are put back and a
 * second copy is due; after the second fit the rows at stake keep its
 * value and every other row the first fit's.  The two copies' event rows are pooled with each
 * copy's requests its own: link 0's rows three to a request, all right,
 * in each copy, are m = 3 over 600 rows, (600 + 3) / (600 + 6) -- not
 * m = 6 as they would be if the copies' request numbers were merged. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

static joint *real_of(double share)
{
    joint *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->p = defaults();
    s->p.conf_copy_events = 2;
    s->p.conf_copy_events_second = share;
    s->nlinks = 2;
    s->scal_stat = calloc(JOINT_SCAL_NSTAT * 3, sizeof *s->scal_stat);
    return s;
}

static void real_free(joint *s)
{
    if (!s)
        return;
    free(s->scal_stat);
    joint_cfev2_end(s);
    joint_cfev_reset(s);
    free(s);
}

/* six rows: stated c, error without the events map e, the events map's es */
static const double rows[6][3] = {
    {0.97, 0.02, 0.08},   /* 0.98 -> 0.92: below 0.95, at stake */
    {0.995, 0.001, 0.02}, /* 0.995 -> 0.98: below 0.99, at stake */
    {0.93, 0.05, 0.12},   /* 0.93 -> 0.88: below 0.9, at stake */
    {0.97, 0.02, 0.04},   /* 0.97 -> 0.96: no level crossed */
    {0.85, 0.02, 0.3},    /* stated below every level already */
    {0.97, 0.08, 0.05},   /* the events map does not bind */
};

static int stake_run(double share, int copies, double *conf, int *again)
{
    joint *s = real_of(share);
    double *conf0 = NULL, *first = NULL;
    unsigned char *stk = NULL;
    int rc = s && s->scal_stat ? joint_cfev2_begin(s, conf, 6, copies, &conf0, &stk) : PB_ENOMEM;
    for (int i = 0; rc == PB_OK && i < 6; i++) {
        joint_cfev2_row(s, stk, (uint32_t)i, rows[i][0], rows[i][1], rows[i][2]);
        conf[i] = 0.5; /* the first fit lowered it */
    }
    double stake = s ? s->cev2_rec[1] : -1;
    *again = rc == PB_OK ? joint_cfev2_again(s, conf, conf0, 6, &first) : -1;
    if (*again == 1) {
        /* the second fit states every row 0.7; the rows not at stake go
         * back to the first fit's 0.5 */
        for (int i = 0; i < 6; i++)
            conf[i] = 0.7;
        joint_cfev2_keep(conf, first, stk, 6);
    }
    free(conf0);
    free(first);
    free(stk);
    real_free(s);
    return rc == PB_OK ? (int)stake : -1;
}

TEST(test_cfev2_stake)
{
    double conf[6];
    int again;
    for (int i = 0; i < 6; i++)
        conf[i] = rows[i][0];
    CHECK_INT(stake_run(0.5, 1, conf, &again), 3);
    CHECK_INT(again, 1); /* 3 of 6 at stake >= 0.5: a second fit */
    for (int i = 0; i < 6; i++)
        CHECK_NEAR(conf[i], i < 3 ? 0.7 : 0.5, 0); /* rows 0-2 at stake */
    for (int i = 0; i < 6; i++)
        conf[i] = rows[i][0];
    CHECK_INT(stake_run(0.6, 1, conf, &again), 3);
    CHECK_INT(again, 0); /* 0.5 < 0.6: the first fit stands */
    CHECK_NEAR(conf[0], 0.5, 0);
    /* two copies drawn already, or off: nothing tested */
    CHECK_INT(stake_run(0.5, 2, conf, &again), 0);
    CHECK_INT(again, 0);
    CHECK_INT(stake_run(0, 1, conf, &again), 0);
    CHECK_INT(again, 0);
}

/* link 0's copy rows p = 0..299, three to a request (par: 300 + p / 3),
 * all right, recorded as one copy of the run records them */
static void one_copy(joint *s, const joint *s2)
{
    for (uint32_t p = 0; p < 300; p++)
        joint_cfev_row(s, s2, p, 0, 1);
}

TEST(test_cfev2_pooled)
{
    joint *s = real_of(0.1), *s2 = calloc(1, sizeof *s2);
    joint_cfse c;
    double conf[6] = {0.97, 0.97, 0.97, 0.97, 0.97, 0.97}, *conf0 = NULL, *first = NULL;
    unsigned char *stk = NULL;
    CHECK(s && s2);
    if (!s || !s2)
        goto out;
    s2->npairs = 400;
    s2->par = malloc(s2->npairs * sizeof *s2->par);
    for (uint32_t p = 0; p < s2->npairs; p++)
        s2->par[p] = p < 300 ? 300 + p / 3 : JOINT_NONE;
    joint_spt pts[600];
    for (uint32_t p = 0; p < 600; p++)
        pts[p] = (joint_spt){0.99, 0, 1};
    CHECK_INT(joint_cfev2_begin(s, conf, 6, 1, &conf0, &stk), PB_OK);
    one_copy(s, s2);
    CHECK_INT(joint_cfev2_save(s), PB_OK);
    CHECK_INT(joint_cfse_fit(s, pts, 300, 2, &c), PB_OK);
    CHECK_NEAR(joint_cfse_at(&c, 0, 0.99), 303.0 / 306.0, 1e-12); /* one copy */
    joint_cfse_free(&c);
    for (int i = 0; i < 6; i++)
        joint_cfev2_row(s, stk, (uint32_t)i, 0.97, 0.02, 0.08);
    CHECK_INT(joint_cfev2_again(s, conf, conf0, 6, &first), 1);
    CHECK_NEAR(conf[0], 0.97, 0); /* put back */
    one_copy(s, s2); /* the second copy: the same request numbers */
    CHECK_INT(joint_cfev2_merge(s), PB_OK);
    CHECK_INT((int)s->cev_n, 600);
    CHECK_INT(joint_cfse_fit(s, pts, 600, 2, &c), PB_OK);
    CHECK_NEAR(s->cev_rec[2], 200, 0); /* 100 requests in each copy */
    CHECK_NEAR(joint_cfse_at(&c, 0, 0.99), 603.0 / 606.0, 1e-12);
    joint_cfse_free(&c);
out:
    free(conf0);
    free(first);
    free(stk);
    if (s2)
        free(s2->par);
    free(s2);
    real_free(s);
}

int main(void)
{
    RUN(test_cfev2_stake);
    RUN(test_cfev2_pooled);
    return pbtest_exit();
}
