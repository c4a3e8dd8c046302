/*
 * fuzz_score - libFuzzer target for the result reader and the scorer: any
 * bytes are read as a result file and, when accepted, scored against a
 * fixed small truth in the view the bytes name.  Errors are fine; crashes,
 * leaks, hangs and undefined behaviour are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fuzz_common.h"
#include "pb_trace.h"
#include "score.h"
#include "tv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    pb_trace *t = fuzz_small_trace();
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
