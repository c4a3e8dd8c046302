/* The orphan share of a link at coarse stamps (joint_latetie.c,
 * docs/joint/model.md "Ties at the response's stamp"), hand-worked: at whole
 * millisecond stamps a call whose return shares its stamp with the ends
 * of all k requests that would enclose it counts 1 / (k + 1) of an orphan
 * (the chance that its true return came after all k true ends within the
 * tick); a call some request ends strictly after counts 0; a call with no
 * enclosing request 1.  Without coarse ties, or with late_tie_share=0, a
 * tied call counts 0 (the rule before). */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <stdio.h>

#define MS 1000000LL

/* Requests X -> B: R1 [0, 10], R2 [1, 10], R3 [20, 30], R4 [40, 50] ms;
 * B -> C calls: c1 [2, 10] (R1 and R2 end in its return's tick), c2 [21,
 * 30] (R3 ends in its tick), c3 [41, 45] (inside R4), c4 [60, 62] (no
 * request), c5 [22, 31] (R3 ended a tick before its return).  off: added
 * to every stamp (1 ns: stamps no longer whole ticks, and no ties but
 * the equal ones) */
static pb_trace *tie_trace(pb_ns off)
{
    static const struct {
        pb_ns ts;
        const char *src, *dst;
        int ret;
        uint64_t cid;
    } m[] = {
        {0, "X", "B", 0, 1},   {1, "X", "B", 0, 2},   {2, "B", "C", 0, 11},
        {10, "C", "B", 1, 11}, {10, "B", "X", 1, 1},  {10, "B", "X", 1, 2},
        {20, "X", "B", 0, 3},  {21, "B", "C", 0, 12}, {22, "B", "C", 0, 15},
        {30, "C", "B", 1, 12}, {30, "B", "X", 1, 3},  {31, "C", "B", 1, 15},
        {40, "X", "B", 0, 4},  {41, "B", "C", 0, 13}, {45, "C", "B", 1, 13},
        {50, "B", "X", 1, 4},  {60, "B", "C", 0, 14}, {62, "C", "B", 1, 14},
    };
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        msg(t, m[i].ts * MS + (m[i].ts ? off * (pb_ns)i : 0), m[i].src, m[i].dst,
            m[i].ret ? PB_TYPE_RETURN : PB_TYPE_CALL, m[i].cid);
    pb_trace_sort(t);
    return t;
}

TEST(tie_weight_by_hand)
{
    static const pb_ns sends[5] = {2, 21, 41, 60, 22};
    for (int variant = 0; variant < 3; variant++) {
        /* 0: whole ms, late_tie_share=1; 1: whole ms, late_tie_share=0;
         * 2: stamps off the ms by i ns, late_tie_share=1 */
        pb_trace *t = tie_trace(variant == 2 ? 1 : 0);
        pb_trace_view v = pb_trace_view_of(t);
        pb_error err;
        joint_params p = defaults();
        p.late_calls = 0; /* the strict candidates stay as they are */
        p.late_tie_share = variant != 1;
        joint *s;
        CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
        CHECK_INT(s->coarse, variant != 2);
        double w[5];
        for (int k = 0; k < 5; k++) {
            pb_ns ts = sends[k] * MS;
            if (variant == 2) {
                /* the row of that send in m[] */
                static const int row[5] = {2, 7, 13, 16, 8};
                ts += row[k];
            }
            uint32_t q = pair_at(s, t, ts, "B");
            CHECK(q != JOINT_NONE);
            w[k] = q == JOINT_NONE ? -1 : joint_late_tie_weight(s, q);
        }
        printf("variant %d: weights %.4f %.4f %.4f %.4f %.4f\n", variant, w[0], w[1], w[2], w[3],
               w[4]);
        if (variant == 0) {
            CHECK(w[0] > 1.0 / 3 - 1e-12 && w[0] < 1.0 / 3 + 1e-12); /* two tied ends */
            CHECK(w[1] == 0.5);                                     /* one tied end */
        } else {
            CHECK(w[0] == 0.0);
            CHECK(w[1] == 0.0);
        }
        CHECK(w[2] == 0.0); /* inside R4 */
        CHECK(w[3] == 1.0); /* no request */
        CHECK(w[4] == 1.0); /* R3 ended a tick before its return */
        joint_close(s);
        pb_trace_close(t);
    }
}

int main(void)
{
    RUN(tie_weight_by_hand);
    return pbtest_exit();
}
