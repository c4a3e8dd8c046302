/*
 * fuzz_query - libFuzzer target for score --query: any bytes are parsed as
 * a list of Pivot Tracing queries (metrics/pq_parse.c) and every query
 * accepted is printed, rewritten (Table 3's selection push) and evaluated
 * over a small fixed trace, with parent links and with the approximation,
 * under a small bound on the joins' work.  Errors are fine; crashes,
 * leaks, hangs and undefined behaviour are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "pb_trace.h"
#include "pq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fuzz_small_trace with its requests, parents and sizes */
static pb_trace *small_trace(uint64_t *req, int64_t *par)
{
    pb_trace *t = fuzz_small_trace();
    if (!t)
        return NULL;
    static const int64_t p[] = {-1, 0, 1, 2, -1, 4};
    static const uint64_t r[] = {1, 1, 1, 1, 2, 2};
    /* sizes live in the optional side array (pb_obs) since pb_msg lost
     * its size field: this target no longer built ("no member named
     * 'size'") and make fuzz skipped it */
    if (!t->obs && t->n) {
        if (!(t->obs = malloc(t->n * sizeof *t->obs))) {
            pb_trace_close(t);
            return NULL;
        }
        for (size_t i = 0; i < t->n; i++)
            t->obs[i] = PB_OBS_NONE;
    }
    for (size_t i = 0; i < 6 && i < t->n; i++) {
        req[i] = r[i];
        par[i] = p[i];
        t->obs[i].size = (uint32_t)(100 * i);
    }
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    pq_query **qs = NULL;
    size_t nq = 0;
    pb_error err;
    if (pq_parse_list(text, "fuzz", &qs, &nq, &err) == PB_OK) {
        uint64_t req[6];
        int64_t par[6];
        pb_trace *t = small_trace(req, par);
        for (size_t i = 0; t && i < nq; i++) {
            (void)pq_text(qs[i]);
            (void)pq_name(qs[i]);
            for (int hb = 0; hb < 2; hb++) {
                pq_causal c = {req, hb ? par : NULL, NULL, NULL};
                pq_answer *a = NULL;
                if (pq_eval_max(qs[i], t, &c, 100000, &a, &err) == PB_OK) {
                    pq_diff d;
                    pq_compare(a, a, &d);
                }
                pq_answer_close(a);
            }
            if (pq_push_selection(qs[i]) == PB_OK) {
                pq_causal c = {req, par, NULL, NULL};
                pq_answer *a = NULL;
                pq_eval_max(qs[i], t, &c, 100000, &a, &err);
                pq_answer_close(a);
            }
        }
        pb_trace_close(t);
        pq_list_close(qs, nq);
    }
    free(text);
    return 0;
}
