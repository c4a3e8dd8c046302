/* The trust in a held orphan's placement (joint_latetrust.c,
 * docs/joint/model.md "The trust in a placement"), hand-worked: a
 * placement of posterior p is kept when p times the self-calibration's
 * accuracy on its link is above 1/2, else the orphan is left a root; a
 * link without a map of its own takes the accuracy of all links; without
 * a self-calibration nothing changes. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MS 1000000LL

/* Requests X -> B: R1 at 0 ms, R2 at 1 ms, both answered at 20 ms; B
 * calls C at 2, 3, 4 and 5 ms (returns at 10 ms) and D at 6 ms (return at
 * 12 ms) */
static pb_trace *trust_trace(void)
{
    static const struct {
        pb_ns ts;
        const char *src, *dst;
        int ret;
        uint64_t cid;
    } m[] = {
        {0, "X", "B", 0, 1},   {1, "X", "B", 0, 2},   {2, "B", "C", 0, 11},
        {3, "B", "C", 0, 12},  {4, "B", "C", 0, 13},  {5, "B", "C", 0, 14},
        {6, "B", "D", 0, 15},  {10, "C", "B", 1, 11}, {10, "C", "B", 1, 12},
        {10, "C", "B", 1, 13}, {10, "C", "B", 1, 14}, {12, "D", "B", 1, 15},
        {20, "B", "X", 1, 1},  {20, "B", "X", 1, 2},
    };
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        msg(t, m[i].ts * MS, m[i].src, m[i].dst, m[i].ret ? PB_TYPE_RETURN : PB_TYPE_CALL,
            m[i].cid);
    pb_trace_sort(t);
    return t;
}

TEST(keep_by_hand)
{
    CHECK(joint_lt_keep(0.9, 0.6));    /* 0.54 */
    CHECK(!joint_lt_keep(0.8, 0.6));   /* 0.48 */
    CHECK(!joint_lt_keep(0.99, 0.5));  /* 0.495 */
    CHECK(joint_lt_keep(0.99, 0.51));  /* 0.5049 */
    CHECK(!joint_lt_keep(0.5, 1.0));   /* 0.5 is not above 1/2 */
    CHECK(joint_lt_keep(0.51, 1.0));   /* trust 1: the posterior alone */
    CHECK(joint_lt_keep(0.51, -1.0));  /* no self-calibration: kept */
}

TEST(apply_by_hand)
{
    pb_trace *t = trust_trace();
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint_params p = defaults();
    p.late_calls = 0; /* nothing held by the search itself */
    joint *s;
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    uint32_t r1 = pair_at(s, t, 0, "X"), r2 = pair_at(s, t, 1 * MS, "X");
    uint32_t c[4], d = pair_at(s, t, 6 * MS, "B");
    for (int i = 0; i < 4; i++)
        c[i] = pair_at(s, t, (2 + i) * MS, "B");
    CHECK(r1 != JOINT_NONE && r2 != JOINT_NONE && d != JOINT_NONE);
    for (int i = 0; i < 4; i++)
        CHECK(c[i] != JOINT_NONE);
    if (r1 == JOINT_NONE || r2 == JOINT_NONE || d == JOINT_NONE) {
        joint_close(s);
        pb_trace_close(t);
        return;
    }
    uint32_t lc = s->pr[c[0]].link, ld = s->pr[d].link;
    CHECK(lc != ld);
    /* the self-calibration's counts by hand: B>C has a map of its own,
     * 330 of 448 simulated rows right (0.7366); B>D none (the rows of all
     * links: 600 of 1,000, 0.6) */
    free(s->scal_stat);
    s->scal_stat = calloc(JOINT_SCAL_NSTAT * ((size_t)s->nlinks + 1), sizeof *s->scal_stat);
    CHECK(s->scal_stat != NULL);
    s->scal_done = 1;
    double *sc = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)lc;
    double *sa = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)s->nlinks;
    sc[0] = 448, sc[1] = 330, sc[3] = 1;
    sa[0] = 1000, sa[1] = 600;
    CHECK(fabs(joint_lt_trust(s, lc) - 330.0 / 448) < 1e-12);
    CHECK(fabs(joint_lt_trust(s, ld) - 0.6) < 1e-12);
    /* the held orphans' placements: c0 0.70 (x 0.7366 = 0.516: kept), c1
     * 0.65 (0.479: undone), c2 0.95 (0.700: kept), c3 not held, d 0.80
     * (x 0.6 = 0.48: undone) */
    s->la_post = malloc(((size_t)s->npairs + 1) * sizeof *s->la_post);
    s->lt_trust = malloc(((size_t)s->nlinks + 1) * sizeof *s->lt_trust);
    CHECK(s->la_post && s->lt_trust);
    for (uint32_t q = 0; q < s->npairs; q++)
        s->la_post[q] = NAN;
    for (uint32_t l = 0; l < s->nlinks; l++)
        s->lt_trust[l] = joint_lt_trust(s, l);
    s->la_post[c[0]] = 0.70;
    s->la_post[c[1]] = 0.65;
    s->la_post[c[2]] = 0.95;
    s->la_post[d] = 0.80;
    CHECK_INT(joint_set_parent(s, c[0], r1), PB_OK);
    CHECK_INT(joint_set_parent(s, c[1], r2), PB_OK);
    CHECK_INT(joint_set_parent(s, c[2], r1), PB_OK);
    CHECK_INT(joint_set_parent(s, c[3], r2), PB_OK);
    CHECK_INT(joint_set_parent(s, d, r2), PB_OK);
    CHECK_INT(joint_lt_apply(s), PB_OK);
    printf("parents: c0 %u c1 %u c2 %u c3 %u d %u (r1 %u r2 %u); kept %u undone %u\n",
           s->par[c[0]], s->par[c[1]], s->par[c[2]], s->par[c[3]], s->par[d], r1, r2,
           s->lt_kept, s->lt_undone);
    CHECK(s->par[c[0]] == r1);
    CHECK(s->par[c[1]] == JOINT_NONE);
    CHECK(s->par[c[2]] == r1);
    CHECK(s->par[c[3]] == r2); /* not held: never touched */
    CHECK(s->par[d] == JOINT_NONE);
    CHECK_INT((int)s->lt_kept, 2);
    CHECK_INT((int)s->lt_undone, 2);
    /* without a self-calibration (trust -1) every placement stays */
    CHECK_INT(joint_set_parent(s, c[1], r2), PB_OK);
    CHECK_INT(joint_set_parent(s, d, r2), PB_OK);
    for (uint32_t l = 0; l < s->nlinks; l++)
        s->lt_trust[l] = -1;
    CHECK_INT(joint_lt_apply(s), PB_OK);
    CHECK(s->par[c[1]] == r2 && s->par[d] == r2);
    CHECK_INT((int)s->lt_undone, 0);
    joint_close(s);
    pb_trace_close(t);
}

int main(void)
{
    RUN(keep_by_hand);
    RUN(apply_by_hand);
    return pbtest_exit();
}
