/* parallel_check_bb's gate search takes the first search's pairing
 * (joint_pshare.c's joint_pshare_hand, joint_choose.c; docs/joint/loss_late.md
 * "The loss rule's cost: where a lossy input pays (h241)").  Without call
 * ids, where the kept search dropped a learned parallel call, the same
 * search runs again without them (the gate) and used to pair the trace
 * again; it now takes the pairing the free search made (the same messages,
 * options and forced marks).  On the random black-box cases of
 * test_joint_keyroom.c (held_skip off): the solution is the one of
 * pairs_share=0 (every pair and parent alike, the same log-likelihood to
 * the bit); where the gate's search is the one kept it says it took the
 * pairing (it said 0 before: the test fails on main), at least once; and
 * a wrong copy (two free returns exchanged: the test's fault) shows there. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdio.h>

/* the 8 cases: how many differ between pairs_share 0 and 1; *gate: cases
 * whose kept search is the gate's (chosen without), *gate_taken: of
 * them, those that took the pairing */
static int cases(int *gate, int *gate_taken)
{
    int bad = 0;
    *gate = *gate_taken = 0;
    for (int seed = 1; seed <= 8; seed++) {
        pb_trace *t = joint_test_case_trace((unsigned long)(4099 * seed), seed, 0, 40);
        if (!t)
            return -1;
        joint_params p[2];
        joint_test_params_two(p, 0, NULL);
        p[0].pairs_share = 0;
        p[1].pairs_share = 1;
        p[0].held_skip = p[1].held_skip = 0;
        joint *s[2];
        int llsame = 0;
        long d = joint_test_compare_two(t, p, s, &llsame);
        if (d < 0) {
            pb_trace_close(t);
            return -1;
        }
        bad += d || !llsame;
        if (s[1]->ser_bb == 1 && s[1]->ser_state == 2) {
            (*gate)++;
            *gate_taken += s[1]->pairs_shared;
        }
        pb_trace_close(t);
        joint_test_close_two(s);
    }
    joint_test_tick = 0;
    return bad;
}

TEST(gate_takes_the_pairing)
{
    int gate, taken;
    int bad = cases(&gate, &taken);
    printf("# 8 black-box cases: %d differ, the gate's search kept in %d, took the pairing in %d\n",
           bad, gate, taken);
    CHECK_INT(bad, 0);
    CHECK(gate >= 1);
    CHECK_INT(taken, gate);
    joint_pshare_test_fault = 1;
    int bad_fault = cases(&gate, &taken);
    joint_pshare_test_fault = 0;
    printf("# with two free returns of the copy exchanged: %d of 8 differ\n", bad_fault);
    CHECK(bad_fault > 0);
}

int main(void)
{
    RUN(gate_takes_the_pairing);
    return pbtest_exit();
}
