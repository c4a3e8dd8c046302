/* joint's key_room (joint_keyroom.c; docs/joint/speed.md, "Speed,
 * twentieth wave (h156)"): each search starts with room for the per-key
 * arrays (its links' guess, or the room the free search ended with)
 * instead of growing them from one row.  Capacities only, so the same
 * result: on random fan-out traces with and without call ids (1 ms
 * stamps every third seed, larger requests on even seeds; without call
 * ids pair_order=auto runs the free and the held search) the solution
 * with the option on and off pairs every message alike, assigns every
 * parent alike and has the same log-likelihood to the bit -- with the
 * room given filled with NaN bytes (joint_keyroom_test_poison), so that
 * a row read before it is written would show.  The room is given (no
 * vacuous test), and never with the option off. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

TEST(room_given_changes_nothing)
{
    long bad = 0;
    int cases = 0, given[2] = {0, 0};
    joint_keyroom_test_poison = 1;
    for (int seed = 1; seed <= 8; seed++)
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = joint_test_case_trace((unsigned long)(6151 * seed + ids), seed, ids, 40);
            CHECK(t != NULL);
            if (!t)
                continue;
            joint_params p[2];
            joint_test_params_two(p, ids, NULL);
            p[0].key_room = 0;
            p[1].key_room = 1;
            joint *s[2];
            int llsame = 0;
            long d = joint_test_compare_two(t, p, s, &llsame);
            CHECK(d >= 0);
            if (d >= 0) {
                if (d || !llsame)
                    printf("# seed %d ids %d: %ld pairs differ, log-likelihood %s\n", seed, ids,
                           d, llsame ? "same" : "differs");
                bad += d + !llsame;
                given[0] += s[0]->keyroom_set > 0;
                given[1] += s[1]->keyroom_set > 0;
                cases++;
                joint_test_close_two(s);
            }
            pb_trace_close(t);
        }
    joint_keyroom_test_poison = 0;
    joint_test_tick = 0;
    printf("# %d cases, room given in %d (%d with the option off), %ld differ\n", cases,
           given[1], given[0], bad);
    CHECK_INT(cases, 16);
    CHECK_INT(given[1], 16);
    CHECK_INT(given[0], 0);
    CHECK_INT((int)bad, 0);
}

int main(void)
{
    RUN(room_given_changes_nothing);
    return pbtest_exit();
}
