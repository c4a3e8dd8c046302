/* joint's conf_copy_multi (joint_cfmulti.c; docs/joint/confidence_w34.md,
 * "Calls of a link that comes several times in its request (h287)"),
 * worked by hand.
 *
 * Six pairs, in the copy and in the real trace alike: request 0 (link 0)
 * holds calls 1 and 2 of link 1 (multi: another call of their link in the
 * request), request 3 (link 0) holds call 4 of link 1 (single) and call 5
 * of link 2 (single).  The copy's rows, all stated 0.99: 1 right, 2 wrong,
 * 4 right.  Only 1 and 2 are counted: link 1's multi map is one block of
 * 2 rows, 1 right, (1 + 1) / (2 + 2) = 0.5, so a real multi row of link 1
 * is stated at most 0.5 (error 0.5 times the doubt ratio), a single row is
 * not touched (error 0), and a multi row of a link without multi copy
 * rows takes all links' map (here the same block). */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

static uint32_t k0[2] = {1, 2}, k3[2] = {4, 5};

static void shape(joint *s, uint32_t link5)
{
    const uint32_t link[6] = {0, 1, 1, 0, 1, link5};
    const uint32_t par[6] = {JOINT_NONE, 0, 0, JOINT_NONE, 3, 3};
    for (int i = 0; i < 6; i++) {
        s->pr[i].link = link[i];
        s->par[i] = par[i];
    }
    s->kids[0] = (kvec){k0, 2, 2};
    s->kids[3] = (kvec){k3, 2, 2};
}

TEST(test_cfmulti_map)
{
    joint *s = calloc(1, sizeof *s), *s2 = calloc(1, sizeof *s2);
    CHECK(s && s2);
    if (!s || !s2) {
        free(s);
        free(s2);
        return;
    }
    s->p = defaults();
    s->p.conf_copy_multi = 1;
    s->nlinks = s2->nlinks = 3;
    s->npairs = s2->npairs = 6;
    joint *both[2] = {s, s2};
    for (int j = 0; j < 2; j++) {
        both[j]->pr = calloc(6, sizeof *both[j]->pr);
        both[j]->par = calloc(6, sizeof *both[j]->par);
        both[j]->kids = calloc(6, sizeof *both[j]->kids);
    }
    CHECK(s->pr && s->par && s->kids && s2->pr && s2->par && s2->kids);
    if (s->pr && s->par && s->kids && s2->pr && s2->par && s2->kids) {
        shape(s2, 2);
        shape(s, 2);
        joint_cfmu_row(s, s2, 1, 1, 1, 0.99);
        joint_cfmu_row(s, s2, 2, 1, 0, 0.99);
        joint_cfmu_row(s, s2, 4, 1, 1, 0.99); /* single: not counted */
        CHECK_NEAR(s->cfmu_rec[0], 2, 0);
        CHECK_NEAR(s->cfmu_rec[1], 1, 0);
        joint_cfthin t;
        CHECK_INT(joint_cfmu_fit(s, 3, NULL, NULL, &t), PB_OK);
        CHECK_NEAR(joint_cfmu_at(s, &t, 1, 0.99, 1), 0.5, 1e-12);
        CHECK_NEAR(joint_cfmu_at(s, &t, 2, 0.99, 2), 1.0, 1e-12); /* doubt ratio 2 */
        CHECK_NEAR(joint_cfmu_at(s, &t, 4, 0.99, 1), 0, 0);       /* single */
        CHECK_NEAR(joint_cfmu_at(s, &t, 0, 0.99, 1), 0, 0);       /* a root */
        /* call 5 of link 1 too: request 3 holds two calls of link 1 */
        shape(s, 1);
        CHECK_NEAR(joint_cfmu_at(s, &t, 5, 0.99, 1), 0.5, 1e-12);
        /* calls 4 and 5 of link 2, which has no multi copy rows: all links' map */
        s->pr[4].link = s->pr[5].link = 2;
        CHECK_NEAR(joint_cfmu_at(s, &t, 5, 0.99, 1), 0.5, 1e-12);
        joint_cfmu_free(&t);
        /* off: nothing counted, no map */
        s->p.conf_copy_multi = 0;
        joint_cfmu_reset(s);
        memset(s->cfmu_rec, 0, sizeof s->cfmu_rec);
        joint_cfmu_row(s, s2, 1, 1, 0, 0.99);
        CHECK_NEAR(s->cfmu_rec[0], 0, 0);
        CHECK_INT(joint_cfmu_fit(s, 3, NULL, NULL, &t), PB_OK);
        CHECK_NEAR(joint_cfmu_at(s, &t, 1, 0.99, 1), 0, 0);
        joint_cfmu_free(&t);
    }
    joint_cfmu_reset(s);
    for (int j = 0; j < 2; j++) {
        free(both[j]->pr);
        free(both[j]->par);
        free(both[j]->kids);
    }
    free(s);
    free(s2);
}

int main(void)
{
    RUN(test_cfmulti_map);
    return pbtest_exit();
}
