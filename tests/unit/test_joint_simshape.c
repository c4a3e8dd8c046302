/* conf_sim_shape (joint_simshape.c, docs/joint/confidence_w34.md "The
 * copy's delays drawn by the request's size (h296)").  Hand-worked: the
 * shortlong case in miniature.  Key 0 (api, arrival, db) holds three
 * lookups' delays (requests of one call: 100, 200, 300 ns) and two
 * reports' (requests of four calls: 5000, 6000 ns); key 1 (api, db's
 * return, db) only reports' (7, 8, 9 ns).
 * - minn 3: a lookup draws one of its own three; a report's first call
 *   finds two delays of its size (fewer than 3), so the plain key is drawn
 *   (0 returned, counted plain); key 1 at size 4 draws its own; a key never
 *   filed (2) or a size never seen (key 0, size 2) returns 0 uncounted.
 *   keys (key, size) = 3, used (3 delays or more) = 2.
 * - minn 2: the report's first call draws 5000 or 6000 (never a lookup's).
 * - the size of a request is its number of calls, at most 63 (70 -> 63);
 *   no kids table: 0.
 * - the KS test (conf_sim_shape_ks): key 0's whole list is {100, 200,
 *   300, 5000, 6000}.  Its size-1 list {100, 200, 300} against it: the
 *   empirical CDFs differ most at 300 (1 against 3/5): D = 0.4; the bar at
 *   c = 0.5 is 0.5 sqrt(8 / 15) = 0.365 (used), at c = 1 0.730 (not).
 *   Key 1's size-4 list is its whole list: D = 0, never used. */
#include "pbtest.h"
#include "joint_int.h"
#include "joint_rules.h"
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

static void fill(joint_simshape *z)
{
    CHECK_INT(joint_simshape_add(z, 0, 1, 100), PB_OK);
    CHECK_INT(joint_simshape_add(z, 0, 4, 5000), PB_OK);
    CHECK_INT(joint_simshape_add(z, 0, 1, 200), PB_OK);
    CHECK_INT(joint_simshape_add(z, 1, 4, 7), PB_OK);
    CHECK_INT(joint_simshape_add(z, 0, 4, 6000), PB_OK);
    CHECK_INT(joint_simshape_add(z, 1, 4, 8), PB_OK);
    CHECK_INT(joint_simshape_add(z, 0, 1, 300), PB_OK);
    CHECK_INT(joint_simshape_add(z, 1, 4, 9), PB_OK);
    CHECK_INT(joint_simshape_finish(z, NULL, NULL), PB_OK);
}

static void a_report_draws_its_own_kind_where_enough(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    joint_simshape z;
    memset(&z, 0, sizeof z);
    z.minn = 3;
    fill(&z);
    CHECK_INT((int)z.keys, 3);
    CHECK_INT((int)z.keys_on, 2);
    for (int i = 0; i < 50; i++) {
        pb_ns d = -1;
        CHECK_INT(joint_simshape_draw(&z, 0, 1, r, &d), 1);
        CHECK(d == 100 || d == 200 || d == 300);
        CHECK_INT(joint_simshape_draw(&z, 1, 4, r, &d), 1);
        CHECK(d >= 7 && d <= 9);
        d = -1;
        CHECK_INT(joint_simshape_draw(&z, 0, 4, r, &d), 0); /* two: too few */
        CHECK(d == -1);
        CHECK_INT(joint_simshape_draw(&z, 2, 1, r, &d), 0);
        CHECK_INT(joint_simshape_draw(&z, 0, 2, r, &d), 0);
    }
    CHECK_INT((int)z.draws, 100);
    CHECK_INT((int)z.draws_plain, 50);
    joint_simshape_free(&z);
    CHECK(z.off == NULL && z.map.k == NULL);
    joint_simshape_free(&z); /* twice: nothing */

    memset(&z, 0, sizeof z);
    z.minn = 2;
    fill(&z);
    int seen[2] = {0, 0};
    for (int i = 0; i < 200; i++) {
        pb_ns d = -1;
        CHECK_INT(joint_simshape_draw(&z, 0, 4, r, &d), 1);
        CHECK(d == 5000 || d == 6000);
        seen[d == 6000]++;
    }
    CHECK(seen[0] > 0 && seen[1] > 0);
    joint_simshape_free(&z);
    gsl_rng_free(r);
}

static void the_test_keeps_a_size_like_its_key_on_the_key(void)
{
    /* the plain lists as joint_simulate.c keeps them: key k in
     * dl[off[k] .. off[k + 1]) */
    const uint32_t poff[3] = {0, 5, 8};
    const pb_ns pdl[8] = {100, 5000, 200, 6000, 300, 7, 8, 9};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    for (int pass = 0; pass < 2; pass++) {
        joint_simshape z;
        memset(&z, 0, sizeof z);
        z.minn = 3;
        z.ks = pass ? 1.0 : 0.5;
        CHECK_INT(joint_simshape_add(&z, 0, 1, 100), PB_OK);
        CHECK_INT(joint_simshape_add(&z, 0, 4, 5000), PB_OK);
        CHECK_INT(joint_simshape_add(&z, 0, 1, 200), PB_OK);
        CHECK_INT(joint_simshape_add(&z, 1, 4, 7), PB_OK);
        CHECK_INT(joint_simshape_add(&z, 0, 4, 6000), PB_OK);
        CHECK_INT(joint_simshape_add(&z, 1, 4, 8), PB_OK);
        CHECK_INT(joint_simshape_add(&z, 0, 1, 300), PB_OK);
        CHECK_INT(joint_simshape_add(&z, 1, 4, 9), PB_OK);
        CHECK_INT(joint_simshape_finish(&z, poff, pdl), PB_OK);
        CHECK_INT((int)z.keys_on, pass ? 0 : 1);
        pb_ns d = -1;
        CHECK_INT(joint_simshape_draw(&z, 0, 1, r, &d), pass ? 0 : 1);
        CHECK_INT(joint_simshape_draw(&z, 1, 4, r, &d), 0);
        joint_simshape_free(&z);
    }
    gsl_rng_free(r);
}

static void an_empty_table_draws_nothing(void)
{
    joint_simshape z;
    memset(&z, 0, sizeof z);
    pb_ns d = 0;
    CHECK_INT(joint_simshape_draw(&z, 0, 1, NULL, &d), 0);
    z.minn = 1;
    CHECK_INT(joint_simshape_finish(&z, NULL, NULL), PB_OK);
    CHECK_INT(joint_simshape_draw(&z, 0, 1, NULL, &d), 0);
    joint_simshape_free(&z);
}

static void the_size_is_the_number_of_calls(void)
{
    joint s;
    memset(&s, 0, sizeof s);
    CHECK_INT((int)joint_simshape_size(&s, 0), 0);
    kvec k[3];
    memset(k, 0, sizeof k);
    k[0].n = 1;
    k[1].n = 4;
    k[2].n = 70;
    s.kids = k;
    CHECK_INT((int)joint_simshape_size(&s, 0), 1);
    CHECK_INT((int)joint_simshape_size(&s, 1), 4);
    CHECK_INT((int)joint_simshape_size(&s, 2), 63);
}

int main(void)
{
    RUN(a_report_draws_its_own_kind_where_enough);
    RUN(the_test_keeps_a_size_like_its_key_on_the_key);
    RUN(an_empty_table_draws_nothing);
    RUN(the_size_is_the_number_of_calls);
    return pbtest_exit();
}
