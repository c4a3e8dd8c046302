/* joint's candidate cap at both ends (joint_candends.c, docs/joint/model.md
 * "The candidate cap at both ends"), by hand on bare pairs.
 *
 * Six requests enclose a call, in the order of open (by start):
 *
 *   position   0    1    2    3    4    5
 *   start     10   20   30   40   50   60
 *   end      100   65  200  300   90  400
 *
 * max_candidates = 4: the 2 latest-started (5, 4), then the 2
 * earliest-ending of the others (1 at 65, 0 at 100): 0 1 4 5 (the old
 * rule, the 4 latest-started: 2 3 4 5).  max_candidates = 5: 3 latest
 * (5, 4, 3), then 1 and 0: 0 1 3 4 5.  max_candidates = 1: the latest
 * alone.  All tied (every start 10, every end 100), max_candidates = 4,
 * call rank r: positions r, r+1 (mod 6) from the start window, then 2 of
 * the other 4 (in the order of open) from r (mod 4):
 *   r = 0: 0 1 | others 2 3 4 5, take 2 3  -> 0 1 2 3
 *   r = 1: 1 2 | others 0 3 4 5, take 3 4  -> 1 2 3 4
 *   r = 5: 5 0 | others 1 2 3 4, take 2 3  -> 0 2 3 5
 */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>

static joint *bare(const pb_ns *st, const pb_ns *en, uint32_t n)
{
    joint *s = calloc(1, sizeof *s);
    jpair *pr = calloc(n, sizeof *pr);
    if (!s || !pr) {
        free(s);
        free(pr);
        return NULL;
    }
    s->p = defaults();
    s->pr = pr;
    s->npairs = n;
    for (uint32_t i = 0; i < n; i++) {
        pr[i].call = pr[i].ret = i;
        pr[i].cr = st[i];
        pr[i].rs = en[i];
    }
    return s;
}

static void drop(joint *s)
{
    if (s)
        free(s->pr);
    free(s);
}

/* the kept candidates of pairs 0-5 (pair i at position i) are want[] */
static int kept_is(joint *s, size_t kmax, size_t rot, const uint32_t *want, size_t nw)
{
    uint32_t c[6];
    for (uint32_t i = 0; i < 6; i++)
        c[i] = i; /* pair i is at position i */
    if (joint_cand_ends(s, c, 6, kmax, rot) != PB_OK)
        return 0;
    for (size_t i = 0; i < nw; i++)
        if (c[i] != want[i])
            return 0;
    return 1;
}

TEST(both_ends_by_hand)
{
    const pb_ns st[6] = {10, 20, 30, 40, 50, 60}, en[6] = {100, 65, 200, 300, 90, 400};
    joint *s = bare(st, en, 6);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT(s->p.cand_ends, 1);
    CHECK(kept_is(s, 4, 0, (const uint32_t[]){0, 1, 4, 5}, 4));
    CHECK(kept_is(s, 4, 3, (const uint32_t[]){0, 1, 4, 5}, 4)); /* no ties: rot does nothing */
    CHECK(kept_is(s, 5, 0, (const uint32_t[]){0, 1, 3, 4, 5}, 5));
    CHECK(kept_is(s, 1, 0, (const uint32_t[]){5}, 1));
    /* nothing to cut: unchanged */
    CHECK(kept_is(s, 6, 0, (const uint32_t[]){0, 1, 2, 3, 4, 5}, 6));
    drop(s);
}

TEST(ties_turn_with_the_call_by_hand)
{
    const pb_ns st[6] = {10, 10, 10, 10, 10, 10}, en[6] = {100, 100, 100, 100, 100, 100};
    joint *s = bare(st, en, 6);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(kept_is(s, 4, 0, (const uint32_t[]){0, 1, 2, 3}, 4));
    CHECK(kept_is(s, 4, 1, (const uint32_t[]){1, 2, 3, 4}, 4));
    CHECK(kept_is(s, 4, 5, (const uint32_t[]){0, 2, 3, 5}, 4));
    drop(s);
}

int main(void)
{
    RUN(both_ends_by_hand);
    RUN(ties_turn_with_the_call_by_hand);
    return pbtest_exit();
}
