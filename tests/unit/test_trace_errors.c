/* Every bad input in tests/data/bad/ fails with the file, line, column and
 * message listed in tests/data/bad/expect.txt; shuffled rows are rejected
 * by default and re-sorted on request. */
#include "pbtest.h"
#include "pb_trace.h"

#include <stdlib.h>

TEST(bad_inputs_have_located_messages)
{
    FILE *ex = fopen("tests/data/bad/expect.txt", "r");
    CHECK(ex != NULL);
    if (!ex)
        return;
    char line[512];
    int cases = 0;
    while (fgets(line, sizeof line, ex)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char file[128];
        long want_line, want_col;
        int off = 0;
        if (sscanf(line, "%127s %ld %ld %n", file, &want_line, &want_col, &off) != 3) {
            PBT_FAIL("bad expect line: %s", line);
            continue;
        }
        char *want = line + off;
        want[strcspn(want, "\n")] = '\0';
        char path[256];
        snprintf(path, sizeof path, "tests/data/bad/%s", file);
        pb_trace *t = NULL;
        pb_error err;
        pb_error_clear(&err);
        int rc = pb_trace_load(path, NULL, 1, &t, &err);
        cases++;
        if (rc == PB_OK) {
            PBT_FAIL("%s: loaded without error", file);
            pb_trace_close(t);
            continue;
        }
        if (strcmp(err.file, path) || err.line != want_line || err.column != want_col ||
            !strstr(err.msg, want))
            PBT_FAIL("%s: got %s:%ld:%ld: %s; expected line %ld col %ld \"%s\"",
                     file, err.file, err.line, err.column, err.msg, want_line,
                     want_col, want);
    }
    fclose(ex);
    CHECK(cases >= 20);
}

TEST(missing_file_is_an_io_error)
{
    pb_trace *t;
    pb_error err;
    CHECK_INT(pb_trace_load("tests/data/bad/no-such-file.csv", NULL, 0, &t, &err), PB_EIO);
    CHECK(strstr(err.msg, "cannot open") != NULL);
}

TEST(unsorted_rows_resorted_on_request)
{
    pb_reader_opts o;
    pb_reader_opts_default(&o);
    o.allow_unsorted = 1;
    pb_trace *t = NULL;
    pb_error err;
    CHECK_INT(pb_trace_load("tests/data/bad/out_of_order.csv", &o, 0, &t, &err), PB_OK);
    if (!t)
        return;
    CHECK_INT(t->n, 2);
    CHECK_INT(t->msgs[0].id, 2);
    CHECK_INT(t->msgs[1].id, 1);
    pb_trace_close(t);
}

TEST(unknown_columns_ignored_on_request)
{
    pb_reader_opts o;
    pb_reader_opts_default(&o);
    o.ignore_unknown_columns = 1;
    pb_trace *t = NULL;
    pb_error err;
    CHECK_INT(pb_trace_load("tests/data/bad/unknown_column.csv", &o, 0, &t, &err), PB_OK);
    if (t)
        CHECK_INT(t->n, 1);
    pb_trace_close(t);
}

TEST(truth_is_not_in_the_view)
{
    pb_trace *t = NULL;
    pb_error err;
    CHECK_INT(pb_trace_load("tests/data/bad/dangling_cause.csv", NULL, 1, &t, &err), PB_ENOENT);
    pb_reader_opts o;
    pb_reader_opts_default(&o);
    o.check_ids = 0;
    CHECK_INT(pb_trace_load("tests/data/bad/dangling_cause.csv", &o, 1, &t, &err), PB_OK);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    CHECK_INT(v.columns & PB_COL_TRUTH, 0);
    CHECK(t->truth != NULL);
    pb_trace_close(t);
    CHECK_INT(pb_trace_load("tests/data/bad/dangling_cause.csv", &o, 0, &t, &err), PB_OK);
    if (t)
        CHECK(t->truth == NULL);
    pb_trace_close(t);
}

int main(void)
{
    RUN(bad_inputs_have_located_messages);
    RUN(missing_file_is_an_io_error);
    RUN(unsorted_rows_resorted_on_request);
    RUN(unknown_columns_ignored_on_request);
    RUN(truth_is_not_in_the_view);
    return pbtest_exit();
}
