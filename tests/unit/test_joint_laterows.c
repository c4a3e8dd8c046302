/* Rows within a tick at a late service (joint_latetie.c, late_rows;
 * docs/joint/ticks_rows.md "Late calls on rows in event order"), by hand on a
 * joint state with three services: A (not late), F (passed the late-call
 * test, its orphans held: widen=orphans, no late link) and W (passed,
 * widens every call: excess >= 1/2).
 *   - which sides tie_rows may test: A both as before (3); F both while
 *     its orphans are held (2), the calls' side once they are placed (1);
 *     W the calls' side (1); with late_rows=0 neither late service (0);
 *     a late link of F makes it a widening service (1);
 *   - the verdict at a late service: its own test on those sides, but
 *     none where another service's rows were tested and failed. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"

#include <string.h>

TEST(sides_and_verdict_by_hand)
{
    static joint s; /* zeroed: only the fields the rule reads are set */
    pb_ns gap[3] = {-1, 10000000, 10000000};
    double stat[3 * JOINT_LATE_NSTAT] = {0};
    double lshare[2] = {0.1, 0.2};
    uint32_t lsrc[2] = {1, 2};
    stat[JOINT_LATE_NSTAT * 2 + 7] = 1; /* W widens every call */
    s.nnodes = 3;
    s.nlinks = 2;
    s.late_gap = gap;
    s.late_stat = stat;
    s.late_lshare = lshare;
    s.link_src = lsrc;
    s.p.late_rows = 1;
    s.p.late_attach = 1;
    s.p.late_split = 1;
    s.p.tie_rows_fail = 0.01;
    s.late_hold = 1;
    CHECK(joint_late_row_sides(&s, 0) == 3);
    CHECK(joint_late_row_sides(&s, 1) == 2);
    CHECK(joint_late_row_sides(&s, 2) == 1);
    CHECK(joint_late_row_held(&s, 1) == 1 && joint_late_row_held(&s, 2) == 0);
    s.late_hold = 0; /* the held orphans placed */
    CHECK(joint_late_row_sides(&s, 1) == 1);
    s.late_hold = 1;
    lshare[0] = 0.6; /* F's link mostly orphans: a late link */
    CHECK(joint_late_row_sides(&s, 1) == 1);
    lshare[0] = 0.1;
    s.p.late_rows = 0;
    CHECK(joint_late_row_sides(&s, 1) == 0 && joint_late_row_sides(&s, 2) == 0);
    s.p.late_rows = 1;

    /* verdicts: A used both sides; F both sides 100 cut, 1 left without
     * (1 %: passes); W calls' side 50 cut, 0 left */
    joint_rowtie_stat st[3];
    memset(st, 0, sizeof st);
    st[0] = (joint_rowtie_stat){.calls = 200, .cut = {80, 40}, .fail = {0, 0}, .used = 2};
    st[1] = (joint_rowtie_stat){.calls = 300, .cut = {100, 60}, .fail = {1, 0}, .late = 3};
    st[2] = (joint_rowtie_stat){.calls = 90, .cut = {0, 50}, .fail = {0, 0}, .late = 2};
    CHECK(joint_late_row_used(&s, st, 1) == 2);
    CHECK(joint_late_row_used(&s, st, 2) == 1);
    st[1].fail[0] = 2; /* 2 of 100 on both sides: fails; the calls' side passes */
    CHECK(joint_late_row_used(&s, st, 1) == 1);
    st[1].fail[1] = 5; /* and the calls' side fails too */
    CHECK(joint_late_row_used(&s, st, 1) == 0);
    st[1].fail[0] = 1;
    st[1].fail[1] = 0;
    /* A's rows tested and failed: refuted, no late service uses its rows */
    st[0].used = 0;
    CHECK(joint_late_row_used(&s, st, 1) == 0 && joint_late_row_used(&s, st, 2) == 0);
    /* A with too few cut calls to be tested refutes nothing */
    st[0].cut[0] = st[0].cut[1] = JOINT_ROWTIE_MIN - 1;
    CHECK(joint_late_row_used(&s, st, 1) == 2);
    /* late=1 (late_rows off): never */
    st[1].late = 1;
    CHECK(joint_late_row_used(&s, st, 1) == 0);
}

int main(void)
{
    RUN(sides_and_verdict_by_hand);
    return pbtest_exit();
}
