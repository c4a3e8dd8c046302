/* The failure split, abstentions, link accuracy, the precision-coverage
 * curve and the bootstrap interval (docs/metrics.md "The failure split"),
 * on a result worked by hand (tests/data/score/split.*), and properties. */
#include "pbtest.h"
#include "score.h"
#include "score_int.h"
#include "tv.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>

typedef struct scored {
    pb_trace *t;
    tv_truth *tv;
    score_result *res;
    score_report *rep;
} scored;

static void scored_close(scored *s)
{
    score_report_close(s->rep);
    score_result_close(s->res);
    tv_close(s->tv);
    pb_trace_close(s->t);
    memset(s, 0, sizeof *s);
}

/* score result text (or file, when text is NULL) against trace */
static int score_it(const char *trace, const char *result_file, const char *text,
                    scored *s)
{
    memset(s, 0, sizeof *s);
    pb_error err;
    pb_error_clear(&err);
    pb_reader_opts ro;
    pb_reader_opts_default(&ro);
    int rc = pb_trace_load(trace, &ro, 1, &s->t, &err);
    if (rc == PB_OK) {
        if (text) {
            FILE *fp = fmemopen((void *)text, strlen(text), "r");
            rc = score_result_read_fp(fp, "text", &s->res, &err);
            fclose(fp);
        } else {
            rc = score_result_read(result_file, &s->res, &err);
        }
    }
    tv_view v = TV_MESSAGE;
    if (rc == PB_OK)
        rc = tv_view_parse(s->res->view, &v);
    if (rc == PB_OK)
        rc = tv_build(s->t, v, &s->tv, &err);
    score_opts o;
    score_opts_default(&o);
    if (rc == PB_OK)
        rc = score_compute(s->tv, s->res, &o, &s->rep, &err);
    if (rc == PB_OK)
        rc = score_links_compute(s->rep, s->t, s->tv, s->res, &err);
    if (rc != PB_OK)
        printf("# %s\n", err.msg);
    return rc;
}

/* Five requests A>B>C>D; request 1 right, message 6 orphaned (alone in an
 * instance without its request's root), message 9 stitched into request
 * 4's instance, message 15 abstained.  Every number by hand:
 *   messages right 12 (1-5, 7, 8, 10-14), wrong 1 (message 9: its
 *   instance is owned by request 4), unattached 2 (6: a fragment; 15:
 *   abstained);
 *   requests: 1 correct; 2 (message 6) and 5 (message 15) orphaned only;
 *   3 (its message 9 attached to request 4) and 4 (its instance holds 9)
 *   mis-stitched;
 *   links: 6's parent should be 5 (given none), 9's 8 (given 11), 15 is
 *   abstained: 12 of 15 right. */
TEST(hand_worked_split)
{
    scored s;
    CHECK_INT(score_it("tests/data/score/split.csv", "tests/data/score/split.result",
                       NULL, &s), PB_OK);
    score_report *r = s.rep;
    if (!r) {
        scored_close(&s);
        return;
    }
    CHECK_INT(r->messages, 15);
    CHECK_INT(r->msgs_right, 12);
    CHECK_INT(r->msgs_wrong, 1);
    CHECK_INT(r->msgs_unattached, 2);
    CHECK_INT(r->msgs_abstained, 1);
    CHECK_INT(r->req_correct, 1);
    CHECK_INT(r->req_orphaned, 2);
    CHECK_INT(r->req_misstitched, 2);
    CHECK_NEAR(r->correct_rate, 0.2, 1e-12);
    CHECK_NEAR(r->orphaned_rate, 0.4, 1e-12);
    CHECK_NEAR(r->misstitched_rate, 0.4, 1e-12);
    /* correct = set_accuracy's criterion */
    CHECK_INT(r->req_correct, r->instances_set);
    CHECK_NEAR(r->exact_accuracy, 0.2, 1e-12);
    CHECK(r->has_links);
    CHECK_INT(r->links_right, 12);
    CHECK_INT(r->links_scored, 15);
    CHECK_NEAR(r->link_accuracy, 0.8, 1e-12);
    /* 1 of 5 right: a replicate's count is Binomial(5, 0.2); P(0) = 0.33
     * is above 2.5 %, P(>= 4) = 0.0067 below it */
    CHECK_NEAR(r->exact_ci_low, 0, 0);
    CHECK_NEAR(r->exact_ci_high, 0.6, 0);
    /* the curve: confidences 0.3 (6), 0.6 (9), 0.8 (3, 12), 0.9 (2, 5, 8,
     * 11), 0.95 (14), 1 (the roots) */
    static const struct {
        double x, cov, prec;
        size_t right, wrong, correct, orphaned, mis;
    } want[] = {
        {0, 13.0 / 15, 12.0 / 13, 12, 1, 1, 2, 2},
        {0.3, 13.0 / 15, 12.0 / 13, 12, 1, 1, 2, 2},
        {0.6, 13.0 / 15, 12.0 / 13, 12, 1, 1, 2, 2}, /* 6 was orphaned already */
        {0.8, 12.0 / 15, 1, 12, 0, 2, 3, 0},          /* 9 out: 3 orphaned, 4 correct */
        {0.9, 10.0 / 15, 1, 10, 0, 0, 5, 0},          /* 3 and 12 out */
        {0.95, 6.0 / 15, 1, 6, 0, 0, 5, 0},
        {1, 5.0 / 15, 1, 5, 0, 0, 5, 0},
    };
    CHECK_INT(r->ncov, sizeof want / sizeof *want);
    for (size_t i = 0; i < r->ncov && i < sizeof want / sizeof *want; i++) {
        const score_cov_point *p = &r->cov[i];
        if (p->min_confidence != want[i].x || fabs(p->coverage - want[i].cov) > 1e-12 ||
            fabs(p->precision - want[i].prec) > 1e-12 || p->right != want[i].right ||
            p->wrong != want[i].wrong || p->req_correct != want[i].correct ||
            p->req_orphaned != want[i].orphaned || p->req_misstitched != want[i].mis)
            PBT_FAIL("point %zu: x %g coverage %g precision %g right %zu wrong %zu "
                     "requests %zu/%zu/%zu", i, p->min_confidence, p->coverage,
                     p->precision, p->right, p->wrong, p->req_correct,
                     p->req_orphaned, p->req_misstitched);
    }
    CHECK_NEAR(r->coverage_p99, 0.8, 1e-12);
    CHECK_NEAR(r->coverage_p999, 0.8, 1e-12);
    /* the row: new columns after the old ones, as many fields as names */
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    score_write_header(fp, r);
    score_write_row(fp, r);
    fclose(fp);
    CHECK(strstr(buf, ",intact_exact_accuracy,latency_ks,requests_correct,requests_orphaned,"
                      "requests_misstitched,correct_rate,orphaned_rate,"
                      "misstitched_rate,msgs_right,msgs_wrong,msgs_unattached,"
                      "msgs_abstained,exact_ci_low,exact_ci_high,link_accuracy,"
                      "links_right,links_scored,coverage_p99,coverage_p999,"
                      "immediacy,thread_pattern\n") != NULL);
    /* (the assumption meters last: empty, the trace has no thread columns) */
    CHECK(strstr(buf, ",,,,1,2,2,0.2,0.4,0.4,12,1,2,1,0,0.6,0.8,12,15,0.8,0.8,,\n") != NULL);
    free(buf);
    scored_close(&s);
}

/* The reliability table of the same result, by hand (rows of true
 * instances' messages with a confidence; 15 is abstained and not a row):
 *   [0, 0.5):      6 (0.3), a fragment without owner: not right -> 1 row, 0 right
 *   [0.5, 0.8):    9 (0.6), in request 4's instance: wrong      -> 1 row, 0 right
 *   [0.8, 0.9):    3, 12 (0.8): right                           -> 2, 2
 *   [0.9, 0.95):   2, 5, 8, 11 (0.9): right                     -> 4, 4
 *   [0.95, 0.99):  14 (0.95): right                             -> 1, 1
 *   [0.99, 0.999): none
 *   [0.999, 1]:    the roots 1, 4, 7, 10, 13 (1): right         -> 5, 5
 * At or above 0: 12 of 14 right; above 0.5: 12 of 13; above 0.8: 12 of 12. */
TEST(hand_worked_reliability)
{
    scored s;
    CHECK_INT(score_it("tests/data/score/split.csv", "tests/data/score/split.result",
                       NULL, &s), PB_OK);
    score_report *r = s.rep;
    if (!r) {
        scored_close(&s);
        return;
    }
    static const size_t rows[SCORE_REL_BINS] = {1, 1, 2, 4, 1, 0, 5};
    static const size_t right[SCORE_REL_BINS] = {0, 0, 2, 4, 1, 0, 5};
    static const double mean[SCORE_REL_BINS] = {0.3, 0.6, 0.8, 0.9, 0.95, 0, 1};
    for (size_t b = 0; b < SCORE_REL_BINS; b++) {
        CHECK_INT(r->rel_rows[b], rows[b]);
        CHECK_INT(r->rel_right[b], right[b]);
        if (rows[b])
            CHECK_NEAR(r->rel_csum[b] / (double)rows[b], mean[b], 1e-12);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    score_write_reliability(fp, r);
    fclose(fp);
    CHECK(strstr(buf, "conf_low,conf_high,rows,mean_confidence,right,fraction_right,"
                      "rows_at_or_above,fraction_right_at_or_above,calibrated\n"
                      "0,0.5,1,0.3,0,0,14,0.857143,1\n"
                      "0.5,0.8,1,0.6,0,0,13,0.923077,1\n"
                      "0.8,0.9,2,0.8,2,1,12,1,1\n") != NULL);
    CHECK(strstr(buf, "0.99,0.999,0,,0,,5,1,1\n0.999,1,5,1,5,1,5,1,1\n") != NULL);
    free(buf);
    scored_close(&s);
}

/* the same result without the parent and confidence columns: no link
 * accuracy, no coverage; the split is the same */
TEST(old_result_no_links)
{
    static const char *const text =
        "# pathbench-result 1\n# algo=h view=message\n# table=patterns\n"
        "rank,pattern,count\n1,A>B[C[D]],5\n# table=assignment\nid,instance,rank\n"
        "1,1,1\n2,1,1\n3,1,1\n4,2,1\n5,2,1\n6,3,1\n7,4,1\n8,4,1\n"
        "10,5,1\n11,5,1\n12,5,1\n9,5,1\n13,6,1\n14,6,1\n"
        "# end patterns=1 assignments=14\n";
    /* six instances of a pattern counted 5 would be refused: count 6 */
    char fixed[1024];
    snprintf(fixed, sizeof fixed, "%s", text);
    char *c = strstr(fixed, "[C[D]],5");
    c[7] = '6';
    scored s;
    CHECK_INT(score_it("tests/data/score/split.csv", NULL, fixed, &s), PB_OK);
    if (s.rep) {
        CHECK(!s.rep->has_links && isnan(s.rep->link_accuracy));
        CHECK(!s.rep->has_conf && isnan(s.rep->coverage_p99));
        CHECK_INT(s.rep->msgs_right, 12);
        CHECK_INT(s.rep->msgs_wrong, 1);
        CHECK_INT(s.rep->msgs_unattached, 2);
        CHECK_INT(s.rep->msgs_abstained, 0);
        CHECK_INT(s.rep->req_correct, 1);
        CHECK_INT(s.rep->req_orphaned, 2);
        CHECK_INT(s.rep->req_misstitched, 2);
    }
    scored_close(&s);
}

/* the interval holds the point estimate and narrows with more requests */
TEST(interval_contains_and_shrinks)
{
    score_report rep;
    memset(&rep, 0, sizeof rep);
    score_opts_default(&rep.opts);
    double prev = 2;
    static const size_t ns[] = {20, 80, 320, 1280, 5120};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        size_t n = ns[i], k = n * 7 / 10;
        CHECK_INT(score_boot_ci(&rep, k, n), PB_OK);
        double p = (double)k / (double)n, w = rep.exact_ci_high - rep.exact_ci_low;
        if (!(rep.exact_ci_low <= p && p <= rep.exact_ci_high))
            PBT_FAIL("n %zu: %g not in [%g, %g]", n, p, rep.exact_ci_low,
                     rep.exact_ci_high);
        if (!(w < prev))
            PBT_FAIL("n %zu: width %g, not below %g", n, w, prev);
        /* about 2 * 1.96 * sqrt(p(1-p)/n) */
        double z = 2 * 1.96 * sqrt(p * (1 - p) / (double)n);
        if (fabs(w - z) > 0.25 * z + 2.0 / (double)n)
            PBT_FAIL("n %zu: width %g, expected about %g", n, w, z);
        prev = w;
    }
    /* seeded: the same seed gives the same interval, and all right or
     * all wrong a point */
    CHECK_INT(score_boot_ci(&rep, 13, 20), PB_OK);
    double lo = rep.exact_ci_low, hi = rep.exact_ci_high;
    CHECK_INT(score_boot_ci(&rep, 13, 20), PB_OK);
    CHECK(lo == rep.exact_ci_low && hi == rep.exact_ci_high);
    CHECK_INT(score_boot_ci(&rep, 20, 20), PB_OK);
    CHECK(rep.exact_ci_low == 1 && rep.exact_ci_high == 1);
    CHECK_INT(score_boot_ci(&rep, 0, 0), PB_OK);
    CHECK(isnan(rep.exact_ci_low));
}

/* A random result on the 15 messages of split.csv: instance ids 1..6 (or
 * abstained when abst[i]) for messages 1..15, one pattern. */
static char *random_result(const int *inst)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    fprintf(fp, "# pathbench-result 1\n# algo=h view=message\n# table=patterns\n"
                "rank,pattern,count\n1,A>B,15\n# table=assignment\n"
                "id,instance,rank\n");
    for (int i = 0; i < 15; i++) {
        if (inst[i] > 0)
            fprintf(fp, "%d,%d,1\n", i + 1, inst[i]);
        else
            fprintf(fp, "%d,,\n", i + 1);
    }
    fprintf(fp, "# end patterns=1 assignments=15\n");
    fclose(fp);
    return buf;
}

/* Request req's status (0 correct, 1 orphaned only, 2 mis-stitched) by
 * the definition, computed here apart from score_split: requests 1..5 hold
 * messages 3r-2 .. 3r, the first their root; an instance's owner is the
 * earliest request whose root is in it. */
static int request_status(const int *inst, int req)
{
    int owner[7];
    for (int g = 0; g < 7; g++)
        owner[g] = 0;
    for (int r = 1; r <= 5; r++) {
        int g = inst[3 * r - 3];
        if (g > 0 && !owner[g])
            owner[g] = r;
    }
    int wrong = 0, unatt = 0, g0 = inst[3 * req - 3];
    for (int k = 3 * req - 3; k < 3 * req; k++) {
        int g = inst[k];
        if (g <= 0 || !owner[g])
            unatt++;
        else if (owner[g] != req)
            wrong++;
    }
    int foreign = 0;
    if (g0 > 0 && owner[g0] == req)
        for (int k = 0; k < 15; k++)
            if (inst[k] == g0 && (k / 3) + 1 != req)
                foreign = 1;
    if (wrong || foreign)
        return 2;
    return unatt ? 1 : 0;
}

TEST(abstaining_never_makes_a_request_correct)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 24);
    int checked = 0, mis_seen = 0;
    for (int trial = 0; trial < 60; trial++) {
        int inst[15];
        for (int i = 0; i < 15; i++) {
            /* mostly right, some noise */
            unsigned long u = gsl_rng_uniform_int(g, 10);
            inst[i] = u < 6 ? i / 3 + 1 : u < 9 ? (int)gsl_rng_uniform_int(g, 6) + 1 : 0;
        }
        char *text = random_result(inst);
        scored s;
        int rc = score_it("tests/data/score/split.csv", NULL, text, &s);
        free(text);
        CHECK_INT(rc, PB_OK);
        if (rc != PB_OK) {
            scored_close(&s);
            break;
        }
        /* the scorer's counts agree with the definition computed here */
        size_t c = 0, o = 0, m = 0;
        for (int r = 1; r <= 5; r++) {
            int st = request_status(inst, r);
            c += st == 0;
            o += st == 1;
            m += st == 2;
        }
        if (s.rep->req_correct != c || s.rep->req_orphaned != o ||
            s.rep->req_misstitched != m)
            PBT_FAIL("trial %d: scorer %zu/%zu/%zu, definition %zu/%zu/%zu", trial,
                     s.rep->req_correct, s.rep->req_orphaned,
                     s.rep->req_misstitched, c, o, m);
        scored_close(&s);
        /* abstain on each attached message in turn */
        for (int i = 0; i < 15; i++) {
            if (inst[i] <= 0)
                continue;
            int req = i / 3 + 1, before = request_status(inst, req);
            int save = inst[i];
            inst[i] = 0;
            int after = request_status(inst, req);
            text = random_result(inst);
            rc = score_it("tests/data/score/split.csv", NULL, text, &s);
            free(text);
            size_t c2 = 0;
            for (int r = 1; r <= 5; r++)
                c2 += request_status(inst, r) == 0;
            if (rc != PB_OK || s.rep->req_correct != c2)
                PBT_FAIL("trial %d, message %d abstained: scorer %zu correct, "
                         "definition %zu", trial, i + 1,
                         s.rep ? s.rep->req_correct : 0, c2);
            scored_close(&s);
            if (after == 0)
                PBT_FAIL("trial %d: abstaining on message %d made request %d "
                         "correct (was %d)", trial, i + 1, req, before);
            if (before == 2 && after != 2 && after != 1)
                PBT_FAIL("trial %d: mis-stitched request %d became %d", trial,
                         req, after);
            mis_seen += before == 2;
            checked++;
            inst[i] = save;
        }
    }
    CHECK(checked > 300);
    CHECK(mis_seen > 50);
    gsl_rng_free(g);
}

/* a parent the trace lacks is an error naming the line; an abstention
 * of a message the trace lacks too */
TEST(unknown_parent_or_abstention_refused)
{
    static const char *const texts[] = {
        "# pathbench-result 1\n# algo=h view=message\n# table=patterns\n"
        "rank,pattern,count\n1,A>B,1\n# table=assignment\nid,instance,rank,parent\n"
        "1,1,1,99\n# end patterns=1 assignments=1\n",
        "# pathbench-result 1\n# algo=h view=message\n# table=patterns\n"
        "rank,pattern,count\n1,A>B,1\n# table=assignment\nid,instance,rank\n"
        "1,1,1\n99,,\n# end patterns=1 assignments=2\n"};
    for (size_t i = 0; i < 2; i++) {
        scored s;
        CHECK_INT(score_it("tests/data/score/split.csv", NULL, texts[i], &s), PB_ENOENT);
        scored_close(&s);
    }
}

int main(void)
{
    RUN(hand_worked_split);
    RUN(hand_worked_reliability);
    RUN(old_result_no_links);
    RUN(interval_contains_and_shrinks);
    RUN(abstaining_never_makes_a_request_correct);
    RUN(unknown_parent_or_abstention_refused);
    return pbtest_exit();
}
