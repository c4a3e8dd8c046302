/* The result format's optional parent and confidence columns and its
 * abstentions (core/pb_result.h, docs/formats.md "Result files"): written
 * by pb_result, read back by score_result_read, old files unchanged. */
#include "pbtest.h"
#include "pb_result.h"
#include "score.h"

#include <stdlib.h>

static char *write_result(pb_result *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    const char *head[] = {"algo=test view=message"};
    if (pb_result_write(fp, r, head, 1, 1, NULL) != PB_OK) {
        fclose(fp);
        free(buf);
        return NULL;
    }
    fclose(fp);
    return buf;
}

static score_result *read_text(const char *text, int *rc, pb_error *err)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    score_result *r = NULL;
    pb_error_clear(err);
    *rc = score_result_read_fp(fp, "links", &r, err);
    fclose(fp);
    return r;
}

/* parents, confidences and an abstention written, then read back */
TEST(links_written_and_read_back)
{
    pb_result r;
    CHECK_INT(pb_result_init(&r, "test", "message"), PB_OK);
    pb_pattern *a;
    pb_pattab_add(r.patterns, "A>B[C]", 3, 1, 2.0, NULL, NULL, &a);
    CHECK_INT(pb_result_assign_link(&r, 1, 1, a->index, PB_NO_PARENT, 1), PB_OK);
    CHECK_INT(pb_result_assign_link(&r, 2, 1, a->index, 1, 0.75), PB_OK);
    CHECK_INT(pb_result_abstain(&r, 3, 0.25), PB_OK);
    CHECK_INT(pb_result_assign_link(&r, 4, 1, a->index, 2, 0.5), PB_OK);
    CHECK_INT(pb_result_assign_link(&r, 5, 1, a->index, 2, 1.5), PB_EINVAL);
    CHECK_INT(pb_result_assign(&r, 6, PB_ABSTAIN, a->index), PB_ERANGE);
    CHECK_INT(r.nabstain, 1);
    char *buf = write_result(&r);
    CHECK(buf != NULL);
    CHECK(buf && strstr(buf, "# table=assignment\n"
                             "id,instance,rank,parent,confidence\n"
                             "1,1,1,,1\n"
                             "2,1,1,1,0.75\n"
                             "3,,,,0.25\n"
                             "4,1,1,2,0.5\n"
                             "# end patterns=1 assignments=4\n") != NULL);
    int rc;
    pb_error err;
    score_result *sr = buf ? read_text(buf, &rc, &err) : NULL;
    CHECK_INT(buf ? rc : -1, PB_OK);
    if (sr) {
        CHECK(sr->has_parent && sr->has_conf);
        CHECK_INT(sr->nassign, 3);
        CHECK_INT(sr->nabstain, 1);
        CHECK_INT(sr->abstain[0].id, 3);
        CHECK_NEAR(sr->abstain[0].confidence, 0.25, 0);
        CHECK(sr->abstain[0].parent == PB_NO_PARENT);
        for (size_t i = 0; i < sr->nassign; i++) {
            const score_assign *x = &sr->assign[i];
            if (x->id == 1)
                CHECK(x->parent == PB_NO_PARENT && x->confidence == 1);
            if (x->id == 2)
                CHECK(x->parent == 1 && x->confidence == 0.75);
            if (x->id == 4)
                CHECK(x->parent == 2 && x->confidence == 0.5);
        }
    }
    score_result_close(sr);
    free(buf);
    pb_result_free(&r);
}

/* min_confidence turns the rows below it into abstentions, keeping their
 * confidence and dropping their parent; the spool writes the same bytes */
TEST(min_confidence_abstains_and_spool_agrees)
{
    char *out[2] = {NULL, NULL};
    for (int spool = 0; spool < 2; spool++) {
        pb_result r;
        CHECK_INT(pb_result_init(&r, "test", "message"), PB_OK);
        if (spool)
            CHECK_INT(pb_result_spool_assign(&r), PB_OK);
        r.min_confidence = 0.6;
        pb_pattern *a;
        pb_pattab_add(r.patterns, "A>B", 2, 1, 2.0, NULL, NULL, &a);
        CHECK_INT(pb_result_assign_link(&r, 7, 1, a->index, PB_NO_PARENT, 0.9), PB_OK);
        CHECK_INT(pb_result_assign_link(&r, 8, 1, a->index, 7, 0.59), PB_OK);
        CHECK_INT(pb_result_assign_link(&r, 9, 1, a->index, 7, 0.6), PB_OK);
        CHECK_INT(r.nabstain, 1);
        out[spool] = write_result(&r);
        pb_result_free(&r);
    }
    CHECK(out[0] && strstr(out[0], "id,instance,rank,parent,confidence\n"
                                   "7,1,1,,0.9\n8,,,,0.59\n9,1,1,7,0.6\n"
                                   "# end patterns=1 assignments=3\n"));
    CHECK(out[0] && out[1] && !strcmp(out[0], out[1]));
    free(out[0]);
    free(out[1]);
}

/* an algorithm that never gives links writes the old three columns, and
 * a parent-only algorithm no confidence column */
TEST(old_layout_unchanged)
{
    pb_result r;
    CHECK_INT(pb_result_init(&r, "test", "message"), PB_OK);
    pb_pattern *a;
    pb_pattab_add(r.patterns, "A>B", 2, 1, 2.0, NULL, NULL, &a);
    CHECK_INT(pb_result_assign(&r, 1, 1, a->index), PB_OK);
    char *buf = write_result(&r);
    CHECK(buf && strstr(buf, "id,instance,rank\n1,1,1\n# end"));
    free(buf);
    CHECK_INT(pb_result_assign_link(&r, 2, 1, a->index, 1, NAN), PB_OK);
    buf = write_result(&r);
    CHECK(buf && strstr(buf, "id,instance,rank,parent\n1,1,1,\n2,1,1,1\n# end"));
    free(buf);
    pb_result_free(&r);
}

TEST(reader_checks_links)
{
    static const char *const head =
        "# pathbench-result 1\n# algo=h view=message\n# table=patterns\n"
        "rank,pattern,count\n1,A>B,1\n# table=assignment\n";
    static const struct {
        const char *rows; /* header and rows, then the end line */
        int asg, rc;
        const char *msg;
    } cases[] = {
        {"id,instance,rank\n1,1,1\n", 1, PB_OK, NULL},
        {"id,rank,instance,confidence,parent\n1,1,1,0.5,\n2,,,0,\n", 2, PB_OK, NULL},
        {"id,instance,rank,parent\n1,1,1,1\n", 1, PB_EPARSE, "its own parent"},
        {"id,instance,rank,parent\n1,1,1,x\n", 1, PB_EPARSE, "is not a message id"},
        {"id,instance,rank,parent\n1,,,4\n", 1, PB_EPARSE, "expected an empty parent"},
        {"id,instance,rank,confidence\n1,1,1,1.01\n", 1, PB_EPARSE, "in [0, 1]"},
        {"id,instance,rank,confidence\n1,1,1,-0\n", 1, PB_OK, NULL},
        {"id,instance,rank,confidence\n1,1,1,nan\n", 1, PB_EPARSE, "confidence"},
        {"id,instance,rank\n1,,1\n", 1, PB_EPARSE, "both empty (an abstention)"},
        {"id,instance,rank\n1,1,\n", 1, PB_EPARSE, "both empty (an abstention)"},
        {"id,instance,rank\n1,1,1\n1,,\n", 2, PB_EDUP, "an abstention"},
        {"id,instance,rank\n1,,\n1,,\n", 2, PB_EDUP, "an abstention"},
        {"id,instance,rank\n1,,\n", 0, PB_EPARSE, "end line counts"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s# end patterns=1 assignments=%d\n", head,
                 cases[i].rows, cases[i].asg);
        int rc;
        pb_error err;
        score_result *r = read_text(text, &rc, &err);
        if (rc != cases[i].rc)
            PBT_FAIL("case %zu: rc %d, expected %d (%s)", i, rc, cases[i].rc, err.msg);
        else if (cases[i].msg && !strstr(err.msg, cases[i].msg))
            PBT_FAIL("case %zu: message \"%s\" lacks \"%s\"", i, err.msg, cases[i].msg);
        else if (rc != PB_OK && err.line <= 0)
            PBT_FAIL("case %zu: no line in \"%s\"", i, err.msg);
        score_result_close(r);
    }
}

int main(void)
{
    RUN(links_written_and_read_back);
    RUN(min_confidence_abstains_and_spool_agrees);
    RUN(old_layout_unchanged);
    RUN(reader_checks_links);
    return pbtest_exit();
}
