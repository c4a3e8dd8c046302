/*
 * fuzz_score - libFuzzer target for the result reader and the scorer: any
 * bytes are read as a result file and, when accepted, scored against a
 * fixed small truth in the view the bytes name.  Errors are fine; crashes,
 * leaks, hangs and undefined behaviour are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb_trace.h"
#include "score.h"
#include "tv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pb_trace *truth_trace(void)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    const pb_ns ms = 1000000;
    pb_trace_add(t, 1, 0, ms, "A", "B", PB_TYPE_CALL, 1, 1, PB_ID_NONE);
    pb_trace_add(t, 2, 2 * ms, 3 * ms, "B", "C", PB_TYPE_CALL, 2, 1, 1);
    pb_trace_add(t, 3, 5 * ms, 6 * ms, "C", "B", PB_TYPE_RETURN, 2, 1, 2);
    pb_trace_add(t, 4, 8 * ms, 9 * ms, "B", "A", PB_TYPE_RETURN, 1, 1, 3);
    pb_trace_add(t, 5, 10 * ms, 11 * ms, "A", "B", PB_TYPE_MSG, PB_ID_NONE, 2,
                 PB_ID_NONE);
    pb_trace_add(t, 6, 12 * ms, 13 * ms, "B", "D", PB_TYPE_MSG, PB_ID_NONE, 2, 5);
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *fp = fmemopen((void *)data, size, "r");
    if (!fp)
        return 0;
    score_result *r = NULL;
    pb_error err;
    int rc = score_result_read_fp(fp, "fuzz.result", &r, &err);
    fclose(fp);
    if (rc != PB_OK)
        return 0;
    tv_view v = TV_MESSAGE;
    if (r->view)
        tv_view_parse(r->view, &v);
    pb_trace *t = truth_trace();
    tv_truth *tv = NULL;
    if (t)
        score_check_trace(r, t, "truth", &err); /* either answer is fine */
    if (t && tv_build(t, v, &tv, &err) == PB_OK) {
        score_opts o;
        score_opts_default(&o);
        o.min_instances = size % 3;
        o.rank_by = (score_rank_by)(size & 1);
        o.tol_true_count = (int)((size >> 1) & 1);
        score_report *rep = NULL;
        if (score_compute(tv, r, &o, &rep, &err) == PB_OK) {
            FILE *out = fopen("/dev/null", "w");
            if (out) {
                score_write_header(out, rep);
                score_write_row(out, rep);
                score_write_curve(out, rep);
                score_write_text(out, rep);
                fclose(out);
            }
        }
        score_report_close(rep);
    }
    tv_close(tv);
    pb_trace_close(t);
    score_result_close(r);
    return 0;
}
