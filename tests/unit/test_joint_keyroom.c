/* joint's key_room and pairs_share (joint_keyroom.c, joint_pshare.c;
 * docs/joint/speed_w18.md, "Speed,
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
 * vacuous test), and never with the option off.  pairs_share: without
 * call ids the held search takes the free search's first pairing; the
 * same result on the same cases, the pairing taken in every black-box
 * case, and a wrong copy (two free returns exchanged: the test's fault)
 * is seen. */
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

/* the black-box cases solved with pairs_share off and on: how many
 * differ; *taken: cases whose kept search took the pairing */
static int pairs_cases(int *taken, int *taken_off)
{
    int bad = 0;
    *taken = *taken_off = 0;
    for (int seed = 1; seed <= 8; seed++) {
        pb_trace *t = joint_test_case_trace((unsigned long)(4099 * seed), seed, 0, 40);
        if (!t)
            return -1;
        joint_params p[2];
        joint_test_params_two(p, 0, NULL);
        p[0].pairs_share = 0;
        p[1].pairs_share = 1;
        p[0].held_skip = p[1].held_skip = 0; /* the held search runs (joint_heldskip.c) */
        joint *s[2];
        int llsame = 0;
        long d = joint_test_compare_two(t, p, s, &llsame);
        if (d < 0) {
            pb_trace_close(t);
            return -1;
        }
        bad += d || !llsame;
        *taken += s[1]->pairs_shared;
        *taken_off += s[0]->pairs_shared;
        pb_trace_close(t);
        joint_test_close_two(s);
    }
    joint_test_tick = 0;
    return bad;
}

TEST(pairing_taken_changes_nothing)
{
    int taken, taken_off;
    int bad = pairs_cases(&taken, &taken_off);
    printf("# 8 black-box cases, the pairing taken in %d (%d with the option off), %d differ\n",
           taken, taken_off, bad);
    CHECK_INT(bad, 0);
    /* the kept solution says whether its run's held search took it; a
     * kept parallel_check_bb re-run (joint_bbserial.c) pairs on its own
     * and says 0 (one of the 8 here) */
    CHECK(taken >= 6);
    CHECK_INT(taken_off, 0);
    /* it fires: the held search of a black-box trace takes the pairing */
    pb_trace *t = joint_test_case_trace(4099, 1, 0, 40);
    CHECK(t != NULL);
    if (t) {
        pb_trace_view v = pb_trace_view_of(t);
        joint_params p = defaults();
        p.callids = 0;
        p.pair_order = "on"; /* one search: nothing to take */
        joint *s = joint_test_init(&v, p);
        CHECK(s != NULL && !s->pairs_shared);
        joint_close(s);
        pb_trace_close(t);
    }
    joint_test_tick = 0;
    /* a wrong copy shows */
    joint_pshare_test_fault = 1;
    int bad_fault = pairs_cases(&taken, &taken_off);
    joint_pshare_test_fault = 0;
    printf("# with two free returns of the copy exchanged: %d of 8 differ\n", bad_fault);
    CHECK(bad_fault > 0);
}

/* pairs_share's later parts (joint_bufshare.c, h165): the held search
 * takes the free search's local-search and greedy caches, and a search's
 * second duration-term set-up takes its first's direct table with only
 * its set cells cleared.  The same results as pairs_share=0 (above); here:
 * they fire (caches taken, tables reused, none with the option off), and
 * a table whose set cells are "cleared" to 0 (the test's fault: a wrong
 * clearing value) is seen. */
TEST(caches_and_table_shared)
{
    int taken, taken_off;
    joint_bufshare_test_on = 1;
    joint_bufshare_test_taken = joint_bufshare_test_cdir = 0;
    int bad = pairs_cases(&taken, &taken_off);
    long got = joint_bufshare_test_taken, cdir = joint_bufshare_test_cdir;
    printf("# 8 black-box cases: %d differ, %ld caches taken, %ld tables reused\n", bad, got,
           cdir);
    CHECK_INT(bad, 0);
    CHECK(got >= 8);
    CHECK(cdir >= 8);
    /* with the option off nothing is taken */
    pb_trace *t = joint_test_case_trace(4099, 1, 0, 40);
    CHECK(t != NULL);
    if (t) {
        pb_trace_view v = pb_trace_view_of(t);
        joint_params p = defaults();
        p.callids = 0;
        p.pairs_share = 0;
        joint_bufshare_test_taken = joint_bufshare_test_cdir = 0;
        joint *s = joint_test_init(&v, p);
        CHECK(s != NULL);
        CHECK(joint_bufshare_test_taken == 0 && joint_bufshare_test_cdir == 0);
        joint_close(s);
        pb_trace_close(t);
    }
    joint_test_tick = 0;
    joint_bufshare_test_on = 0;
    /* the exactness rests on a dropped table being all NONE again: a
     * finished search's table (its keys set) dropped and read cell by
     * cell; the test's fault (set cells "cleared" to 0) shows */
    for (int fault = 0; fault < 2; fault++) {
        long dirty = 0, keys = 0;
        joint_corr_test_fault = fault;
        for (int seed = 1; seed <= 8; seed++) {
            pb_trace *u = joint_test_case_trace((unsigned long)(4099 * seed), seed, 0, 40);
            CHECK(u != NULL);
            if (!u)
                continue;
            pb_trace_view v = pb_trace_view_of(u);
            joint_params p = defaults();
            p.callids = 0;
            joint *s = joint_test_init(&v, p);
            CHECK(s != NULL);
            if (s && s->cdir) {
                size_t nl = s->nlinks;
                keys += s->ncorr;
                free(s->cdir_spare);
                s->cdir_spare = NULL;
                joint_corr_drop_dir(s);
                CHECK(s->cdir == NULL && s->cdir_spare != NULL);
                for (size_t i = 0; s->cdir_spare && i < nl * nl * nl; i++)
                    dirty += s->cdir_spare[i] != JOINT_NONE;
            }
            joint_close(s);
            pb_trace_close(u);
            joint_test_tick = 0;
        }
        printf("# %s: %ld keys set, %ld cells not NONE after the drop\n",
               fault ? "cleared to 0 (fault)" : "cleared", keys, dirty);
        CHECK(keys > 0);
        if (fault)
            CHECK(dirty > 0);
        else
            CHECK_INT((int)dirty, 0);
    }
    joint_corr_test_fault = 0;
}

int main(void)
{
    RUN(room_given_changes_nothing);
    RUN(pairing_taken_changes_nothing);
    RUN(caches_and_table_shared);
    return pbtest_exit();
}
