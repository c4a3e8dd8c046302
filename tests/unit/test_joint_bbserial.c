/* joint's parallel_check_bb gate (joint_bbserial.c, docs/joint/model.md
 * "Learned parallel calls checked without call ids"), by hand on a bare
 * model: the parallel calls learned at some refit are remembered across
 * refits (the map growing between them), forgotten when the model is
 * reset, and the second search is wanted only when one of them is gone
 * at the end.
 *
 *   refit 1: entries 0, 1      flags 1 0       ever {0}
 *   refit 2: entries 0, 1, 2   flags 0 0 1     ever {0, 2}   end 1 < 2: wanted
 *   refit 3: entries 0, 1, 2   flags 1 0 1     ever {0, 2}   end 2 = 2: skipped
 *   model reset (npever = 0), refit 4: flags 0 1 0   ever {1}   end 1: skipped
 *   refit 5: flags 0 0 0                                ever {1}   end 0: wanted
 *
 * The same search as the free one decides early (parallel_check_bb_early):
 * wanted early exactly when one learned at some refit is gone at the end,
 * with the option on, parallel < 1 and parallel_check_bb_all off; the held
 * run without them is taken when it shows none of them (a held solution
 * without pairs shows none) and its record says the free search's counts. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>

static void set_flags(joint *s, const unsigned char *f, uint32_t n)
{
    s->npar = n;
    for (uint32_t h = 0; h < n; h++)
        s->pflag[h] = f[h];
}

TEST(learned_at_some_refit_by_hand)
{
    joint *s = calloc(1, sizeof *s);
    unsigned char *pf = calloc(8, 1);
    CHECK(s != NULL && pf != NULL);
    if (!s || !pf) {
        free(s);
        free(pf);
        return;
    }
    s->p = defaults();
    s->pflag = pf;
    CHECK_INT(s->p.parallel_check_bb, 1);
    CHECK_INT(s->p.parallel_check_bb_all, 0);
    /* nothing learned: not wanted, no line */
    CHECK(joint_bbserial_note(s) == PB_OK);
    CHECK_INT(joint_bbserial_wanted(s), 0);
    CHECK_INT(s->ser_bb, 0);
    set_flags(s, (const unsigned char[]){1, 0}, 2);
    CHECK(joint_bbserial_note(s) == PB_OK);
    CHECK_INT((int)joint_bbserial_ever(s), 1);
    set_flags(s, (const unsigned char[]){0, 0, 1}, 3);
    CHECK(joint_bbserial_note(s) == PB_OK);
    CHECK_INT((int)joint_bbserial_ever(s), 2);
    CHECK_INT((int)joint_serial_flags(s), 1);
    CHECK_INT(joint_bbserial_wanted(s), 1);
    CHECK_INT(s->ser_bb, 0);
    /* option off, or parallel calls not learned at all: not wanted */
    s->p.parallel_check_bb = 0;
    CHECK_INT(joint_bbserial_wanted(s), 0);
    s->p.parallel_check_bb = 1;
    s->p.parallel = 1;
    CHECK_INT(joint_bbserial_wanted(s), 0);
    s->p.parallel = 0.8;
    /* every one learned held to the end: skipped, said */
    set_flags(s, (const unsigned char[]){1, 0, 1}, 3);
    CHECK(joint_bbserial_note(s) == PB_OK);
    CHECK_INT((int)joint_bbserial_ever(s), 2);
    CHECK_INT(joint_bbserial_wanted(s), 0);
    CHECK_INT(s->ser_bb, 2);
    CHECK_INT((int)s->ser_flags, 2);
    CHECK_INT((int)s->ser_end, 2);
    /* ... unless asked to run anyway */
    s->ser_bb = 0;
    s->p.parallel_check_bb_all = 1;
    CHECK_INT(joint_bbserial_wanted(s), 1);
    s->p.parallel_check_bb_all = 0;
    /* the model reset (joint_select: the entries are made again) */
    s->npever = 0;
    set_flags(s, (const unsigned char[]){0, 1, 0}, 3);
    CHECK(joint_bbserial_note(s) == PB_OK);
    CHECK_INT((int)joint_bbserial_ever(s), 1);
    CHECK_INT(joint_bbserial_wanted(s), 0);
    s->ser_bb = 0;
    set_flags(s, (const unsigned char[]){0, 0, 0}, 3);
    CHECK(joint_bbserial_note(s) == PB_OK);
    CHECK_INT((int)joint_bbserial_ever(s), 1);
    CHECK_INT(joint_bbserial_wanted(s), 1);
    free(s->pever);
    free(pf);
    free(s);
}

TEST(decided_early_by_hand)
{
    joint *a = calloc(1, sizeof *a), *w = calloc(1, sizeof *w);
    unsigned char *pf = calloc(8, 1);
    CHECK(a != NULL && w != NULL && pf != NULL);
    if (!a || !w || !pf) {
        free(a);
        free(w);
        free(pf);
        return;
    }
    a->p = defaults();
    a->pflag = pf;
    CHECK_INT(a->p.parallel_check_bb_early, 1);
    /* nothing learned, or every learned one held: not early */
    CHECK(joint_bbserial_note(a) == PB_OK);
    CHECK_INT(joint_bbserial_early(a), 0);
    set_flags(a, (const unsigned char[]){1, 1}, 2);
    CHECK(joint_bbserial_note(a) == PB_OK);
    CHECK_INT(joint_bbserial_early(a), 0);
    /* one dropped (entry 1), another learned late (entry 2): early */
    set_flags(a, (const unsigned char[]){1, 0, 1}, 3);
    CHECK(joint_bbserial_note(a) == PB_OK);
    CHECK_INT((int)joint_bbserial_ever(a), 3);
    CHECK_INT(joint_bbserial_early(a), 1);
    /* each switch closes it */
    a->p.parallel_check_bb_early = 0;
    CHECK_INT(joint_bbserial_early(a), 0);
    a->p.parallel_check_bb_early = 1;
    a->p.parallel_check_bb = 0;
    CHECK_INT(joint_bbserial_early(a), 0);
    a->p.parallel_check_bb = 1;
    a->p.parallel_check_bb_all = 1;
    CHECK_INT(joint_bbserial_early(a), 0);
    a->p.parallel_check_bb_all = 0;
    a->p.parallel = 1;
    CHECK_INT(joint_bbserial_early(a), 0);
    a->p.parallel = 0.8;
    CHECK_INT(joint_bbserial_early(a), 1);
    /* the map grew after the last refit: pever follows it */
    a->npar = 5;
    uint32_t shown = 99;
    CHECK_INT(joint_bbserial_early_take(a, w, &shown), 1);
    CHECK_INT((int)shown, 0);
    CHECK_INT((int)a->npever, 5);
    CHECK_INT(w->ser_bb, 3);
    CHECK_INT((int)w->ser_free[0], 3);
    CHECK_INT((int)w->ser_free[1], 2);
    free(a->pever);
    free(pf);
    free(a);
    free(w);
}

int main(void)
{
    RUN(learned_at_some_refit_by_hand);
    RUN(decided_early_by_hand);
    return pbtest_exit();
}
