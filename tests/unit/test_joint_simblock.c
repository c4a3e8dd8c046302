/* The calibration copy's block draws (conf_sim_block, joint_simblock.c;
 * docs/joint/confidence.md, "The copy keeps delays correlated in time"),
 * worked by hand: the lag-1 rank autocorrelation, which keys pass the
 * test, and that a passing key's outputs of one block take consecutive
 * delays of the trace's time order. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

TEST(rank_autocorrelation_by_hand)
{
    double r[8];
    pb_ns scratch[2 * 8]; /* room for 8 (delay, index) pairs, aligned */
    pb_ns up[] = {1, 2, 3, 4, 5};          /* ranks 0..4: lag pairs on a line */
    pb_ns alt[] = {1, 5, 1, 5, 1, 5};      /* ties: mean ranks 1 and 4, alternating */
    pb_ns flat[] = {7, 7, 7, 7};           /* no variation */
    pb_ns mix[] = {1, 3, 2, 4};            /* ranks 0 2 1 3: a = 0 2 1, b = 2 1 3 */
    CHECK_NEAR(joint_simblk_rho(up, 5, scratch, r), 1.0, 1e-12);
    CHECK_NEAR(joint_simblk_rho(alt, 6, scratch, r), -1.0, 1e-12);
    CHECK_NEAR(joint_simblk_rho(flat, 4, scratch, r), 0.0, 1e-12);
    /* a - 1 = -1 1 0, b - 2 = 0 -1 1: sum ab = -1, sum aa = sum bb = 2 */
    CHECK_NEAR(joint_simblk_rho(mix, 4, scratch, r), -0.5, 1e-12);
    CHECK_NEAR(joint_simblk_rho(up, 2, scratch, r), 0.0, 1e-12);
}

TEST(blocks_only_where_correlated)
{
    /* two keys of 40 outputs each: key 0's delays rise with time (rho = 1,
     * rho sqrt(40) >= 3: drawn in blocks), key 1's alternate (rho < 0:
     * independent draws).  Outputs are listed out of time order. */
    enum { N = 40, K = 4 };
    joint *s = calloc(1, sizeof *s);
    CHECK(s != NULL);
    if (!s)
        return;
    s->npairs = N;
    uint32_t ki[2 * N], own[2 * N];
    pb_ns dv[2 * N], tv[2 * N];
    for (uint32_t i = 0; i < N; i++) {
        uint32_t j = (i * 7) % N; /* a permutation: time order is not list order */
        ki[i] = 0;
        tv[i] = 1000 * (pb_ns)j;
        dv[i] = 100 + (pb_ns)j;
        own[i] = 2 * i;
        ki[N + i] = 1;
        tv[N + i] = 1000 * (pb_ns)i;
        dv[N + i] = i % 2 ? 500 : 50;
        own[N + i] = 2 * i + 1;
    }
    joint_simblk b;
    CHECK_INT(joint_simblk_build(&b, s, 2, 2 * N, ki, dv, tv, own, K, 1), PB_OK);
    CHECK_INT((int)b.keys_tested, 2);
    CHECK_INT((int)b.keys_on, 1);
    CHECK_INT(b.on[0], 1);
    CHECK_INT(b.on[1], 0);
    /* key 0: the output at time rank j (owner 2 i, j = 7 i mod N) */
    pb_ns got[N];
    for (uint32_t i = 0; i < N; i++) {
        uint32_t j = (i * 7) % N;
        CHECK_INT(joint_simblk_draw(&b, 2 * i, 0, &got[j]), 1);
    }
    for (uint32_t j = 0; j < N; j++) {
        if (j % K == 0)
            continue;
        /* within a block, the next rank takes the next delay (mod N) */
        pb_ns want = got[j - 1] + 1 == 100 + N ? 100 : got[j - 1] + 1;
        CHECK_INT((int)got[j], (int)want);
    }
    pb_ns d = -1;
    CHECK_INT(joint_simblk_draw(&b, 1, 1, &d), 0);  /* key 1 did not pass */
    CHECK_INT(joint_simblk_draw(&b, 0, 1, &d), 0);  /* not the owner's key */
    CHECK_INT(joint_simblk_draw(NULL, 0, 0, &d), 0);
    CHECK_INT((int)d, -1);
    CHECK_INT((int)b.draws, N);
    joint_simblk_free(&b);
    free(s);
}

int main(void)
{
    RUN(rank_autocorrelation_by_hand);
    RUN(blocks_only_where_correlated);
    return pbtest_exit();
}
