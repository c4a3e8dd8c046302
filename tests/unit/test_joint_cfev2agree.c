/* joint's conf_copy_events_agree (joint_cfev2agree.c; docs/joint/confidence_w34.md,
 * "The second copy taken only where the copies agree (h287)"), worked by hand.
 *
 * With conf_copy_events_second, a row at stake takes the pooled fit's value
 * only where the two copies agree on its link: the second copy's share of
 * wrong rows on the link is at most the first's (e2 / w2 <= e1 / w1).  A
 * link without copy rows in either copy is judged by all links' rows.
 *
 * Four links; 100 copy rows per link and copy on links 0-2, none on link 3:
 *   link 0: first 0 wrong, second 1 wrong  -> 1/100 > 0/100: disagrees
 *           (a link clean in the first copy must be clean in the second)
 *   link 1: first 5 wrong, second 5 wrong  -> equal: agrees
 *   link 2: first 10 wrong, second 4 wrong -> cleaner: agrees
 *   all:    first 15 / 300, second 10 / 300: agrees -- link 3 agrees
 * and with link 2's second copy at 20 wrong, all links are 26 / 300 against
 * 15 / 300 and disagree, so link 3 does too.  Mode 2 also puts the
 * siblings cap's copy record back as the first copy left it. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

/* one copy's rows: per link l < 3, 100 rows, the first wrong[l] wrong,
 * each its own request (par: none) */
static void one_copy(joint *s, const joint *s2, const int *wrong)
{
    for (uint32_t l = 0; l < 3; l++)
        for (uint32_t i = 0; i < 100; i++)
            joint_cfev_row(s, s2, 100 * l + i, l, (int)i >= wrong[l]);
}

/* five rows: links 0, 1, 2, 3 at stake, then link 1 not at stake; the
 * first fit says 0.9, the pooled fit 0.99; mode, link 2's second-copy
 * errors; out: the rows after both keeps; rec: the record; sib: the
 * siblings cap's record (sib_cov[0], sib_crows[3]) after the merge */
static int run(int mode, int wrong2_l2, double *out, double *rec, double *sib)
{
    joint *s = calloc(1, sizeof *s), *s2 = calloc(1, sizeof *s2);
    int rc = s && s2 ? PB_OK : PB_ENOMEM;
    double conf[5] = {0.8, 0.8, 0.8, 0.8, 0.8}, *conf0 = NULL, *first = NULL;
    unsigned char *stk = NULL;
    if (rc == PB_OK) {
        s->p = defaults();
        s->p.conf_copy_events = 2;
        s->p.conf_copy_events_second = 0.1;
        s->p.conf_copy_events_agree = mode;
        s->nlinks = 4;
        s->scal_stat = calloc(JOINT_SCAL_NSTAT * 5, sizeof *s->scal_stat);
        s->pr = calloc(5, sizeof *s->pr);
        s2->npairs = 300;
        s2->par = malloc(300 * sizeof *s2->par);
        rc = s->scal_stat && s->pr && s2->par ? PB_OK : PB_ENOMEM;
    }
    if (rc == PB_OK) {
        for (uint32_t p = 0; p < 300; p++)
            s2->par[p] = JOINT_NONE;
        const uint32_t links[5] = {0, 1, 2, 3, 1};
        for (int i = 0; i < 5; i++)
            s->pr[i].link = links[i];
        rc = joint_cfev2_begin(s, conf, 5, 1, &conf0, &stk);
    }
    if (rc == PB_OK) {
        const int w1[3] = {0, 5, 10}, w2[3] = {1, 5, wrong2_l2};
        one_copy(s, s2, w1);
        rc = joint_cfev2_save(s);
        joint_cfev_reset(s); /* the first fit's map used them */
        for (uint32_t i = 0; i < 4; i++) /* 0.98 -> 0.92: at stake */
            joint_cfev2_row(s, stk, i, 0.98, 0.02, 0.08);
        joint_cfev2_row(s, stk, 4, 0.97, 0.02, 0.04); /* no level crossed */
        for (int i = 0; i < 5; i++)
            conf[i] = 0.9;
        s->sib_cov[0] = 0.5; /* the siblings cap's record after the first copy */
        s->sib_crows[3] = 7;
        if (rc == PB_OK && joint_cfev2_again(s, conf, conf0, 5, &first) != 1)
            rc = PB_EINVAL;
        if (rc == PB_OK) {
            s->sib_cov[0] += 0.25; /* the second copy's record added */
            s->sib_crows[3] += 5;
            one_copy(s, s2, w2);
            rc = joint_cfev2_merge(s);
        }
        if (rc == PB_OK) {
            for (int i = 0; i < 5; i++)
                conf[i] = 0.99;
            joint_cfev2_keep(conf, first, stk, 5);
            joint_cfev2a_keep(s, conf, first, stk, 5);
            memcpy(out, conf, sizeof conf);
            memcpy(rec, s->cev2a_rec, sizeof s->cev2a_rec);
            sib[0] = s->sib_cov[0];
            sib[1] = s->sib_crows[3];
        }
    }
    free(conf0);
    free(first);
    free(stk);
    if (s) {
        free(s->scal_stat);
        free(s->pr);
        joint_cfev2_end(s);
        joint_cfev_reset(s);
    }
    if (s2)
        free(s2->par);
    free(s);
    free(s2);
    return rc;
}

TEST(test_cfev2agree_links)
{
    double c[5], rec[3], sib[2];
    CHECK_INT(run(1, 4, c, rec, sib), PB_OK);
    CHECK_NEAR(c[0], 0.9, 0);  /* link 0: clean, then one wrong: the first fit */
    CHECK_NEAR(c[1], 0.99, 0); /* link 1: 5 and 5: pooled */
    CHECK_NEAR(c[2], 0.99, 0); /* link 2: 10 then 4: pooled */
    CHECK_NEAR(c[3], 0.99, 0); /* link 3 by all links, 15 then 10: pooled */
    CHECK_NEAR(c[4], 0.9, 0);  /* not at stake: the first fit (joint_cfev2_keep) */
    CHECK_NEAR(rec[0], 1, 0);  /* one link disagrees */
    CHECK_NEAR(rec[1], 1, 0);  /* one row kept at the first fit */
    CHECK_NEAR(rec[2], 3, 0);  /* three rows pooled */
    CHECK_INT(run(1, 20, c, rec, sib), PB_OK);
    CHECK_NEAR(c[2], 0.9, 0);  /* link 2: 10 then 20 */
    CHECK_NEAR(c[3], 0.9, 0);  /* all links 15 then 26: link 3 too */
    CHECK_NEAR(c[1], 0.99, 0);
    CHECK_NEAR(rec[0], 3, 0);  /* links 0, 2 and 3 (judged by all links) */
    CHECK_NEAR(rec[1], 3, 0);
    /* off: every row at stake pooled, as conf_copy_events_second alone */
    CHECK_INT(run(0, 20, c, rec, sib), PB_OK);
    for (int i = 0; i < 4; i++)
        CHECK_NEAR(c[i], 0.99, 0);
    CHECK_NEAR(c[4], 0.9, 0);
    CHECK_NEAR(sib[0], 0.75, 1e-12); /* both copies in the siblings cap's record */
    CHECK_NEAR(sib[1], 12, 0);
}

/* mode 2: the same rows, and the siblings cap's record the first copy's */
TEST(test_cfev2agree_sib)
{
    double c[5], rec[3], sib[2];
    CHECK_INT(run(2, 20, c, rec, sib), PB_OK);
    CHECK_NEAR(c[0], 0.9, 0);
    CHECK_NEAR(c[1], 0.99, 0);
    CHECK_NEAR(c[2], 0.9, 0);
    CHECK_NEAR(sib[0], 0.5, 0);
    CHECK_NEAR(sib[1], 7, 0);
    CHECK_INT(run(1, 20, c, rec, sib), PB_OK);
    CHECK_NEAR(sib[0], 0.75, 1e-12); /* mode 1: both */
}

int main(void)
{
    RUN(test_cfev2agree_links);
    RUN(test_cfev2agree_sib);
    return pbtest_exit();
}
