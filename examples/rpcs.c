/*
 * rpcs - an algorithm written in C against the installed libpathbench,
 * run by `infer --algo exec:` (docs/install.md "Your own algorithm in C").
 *
 * The simplest call-view algorithm there is: every call is paired with its
 * return (same caller, callee and call id, first in first out) and every
 * RPC is an instance of its own, pattern CALLER>CALLEE.  It finds no
 * nesting at all, so it is a floor for the real algorithms, not a rival.
 *
 * Build against an installed pathbench and run it:
 *
 *   cc $(pkg-config --cflags pathbench) rpcs.c \
 *      $(pkg-config --libs pathbench) -o rpcs
 *   maketrace multitier.conf -s duration=10s > t.csv
 *   infer --algo exec:./rpcs -s callids=0 t.csv > r.csv
 *   score --truth t.csv r.csv
 *
 * Parameters are declared in a pb_option table as in the tree's own
 * algorithms; pb_algo_serve (pb_serve.h) reads them from the environment
 * infer sets (PB_PARAM_NAME), loads the trace from stdin, runs the
 * algorithm and writes the result file on stdout.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pb_algo.h"
#include "pb_serve.h"

typedef struct rpcs_params {
    int callids; /* pair by call id too */
} rpcs_params;

static const pb_option rpcs_options[] = {
    {"callids", PB_OPT_BOOL, offsetof(rpcs_params, callids), "1", PB_OPT_NORANGE,
     "pair a call with its return by call id as well as by caller and callee"},
    {NULL, 0, 0, NULL, PB_OPT_NORANGE, NULL}};

/* One call or return, keyed so that a call and its return sort together. */
typedef struct end {
    uint32_t caller, callee;
    uint64_t callid;
    size_t row;
} end;

static int key_cmp(const end *x, const end *y)
{
    if (x->caller != y->caller)
        return x->caller < y->caller ? -1 : 1;
    if (x->callee != y->callee)
        return x->callee < y->callee ? -1 : 1;
    if (x->callid != y->callid)
        return x->callid < y->callid ? -1 : 1;
    return 0;
}

/* by key, then in time order (row) */
static int end_cmp(const void *a, const void *b)
{
    const end *x = a, *y = b;
    int k = key_cmp(x, y);
    return k ? k : (x->row < y->row ? -1 : x->row > y->row);
}

/* Append name with the pattern escapes (> [ ] , \ get a backslash). */
static int put_name(pb_strbuf *b, const char *name)
{
    for (const char *c = name; *c; c++) {
        if (strchr(">[],\\", *c) && pb_strbuf_putc(b, '\\') != PB_OK)
            return PB_ENOMEM;
        if (pb_strbuf_putc(b, *c) != PB_OK)
            return PB_ENOMEM;
    }
    return PB_OK;
}

static int rpcs_run(const pb_trace_view *v, const void *params_, pb_result *res,
                    pb_error *err)
{
    const rpcs_params *p = params_;
    end *calls = malloc((v->n ? v->n : 1) * sizeof *calls);
    end *rets = malloc((v->n ? v->n : 1) * sizeof *rets);
    size_t nc = 0, nr = 0;
    int rc = PB_OK;
    pb_strbuf text = {0};
    if (!calls || !rets) {
        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < v->n; i++) {
        const pb_msg *m = &v->msgs[i];
        uint64_t cid = p->callids ? m->callid : 0;
        if (m->type == PB_TYPE_CALL)
            calls[nc++] = (end){m->src, m->dst, cid, i};
        else if (m->type == PB_TYPE_RETURN) /* a return goes callee -> caller */
            rets[nr++] = (end){m->dst, m->src, cid, i};
    }
    qsort(calls, nc, sizeof *calls, end_cmp);
    qsort(rets, nr, sizeof *rets, end_cmp);
    size_t j = 0, unpaired = 0;
    uint64_t instance = 0;
    for (size_t i = 0; i < nc; i++, instance++) {
        /* returns of a smaller key than this call's have no call: skip */
        while (j < nr && key_cmp(&rets[j], &calls[i]) < 0)
            j++, unpaired++;
        /* the k-th call of a key takes the k-th return of that key */
        int paired = j < nr && key_cmp(&rets[j], &calls[i]) == 0;
        const pb_msg *c = &v->msgs[calls[i].row];
        pb_strbuf_reset(&text);
        if (put_name(&text, pb_strtab_str(v->nodes, c->src)) != PB_OK ||
            pb_strbuf_putc(&text, '>') != PB_OK ||
            put_name(&text, pb_strtab_str(v->nodes, c->dst)) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            goto out;
        }
        double total = paired ? pb_ns_to_sec(v->msgs[rets[j].row].ts - c->ts) : NAN;
        pb_pattern *pat;
        if ((rc = pb_pattab_add(res->patterns, pb_strbuf_str(&text), 2, 1.0, total,
                                NULL, NULL, &pat)) != PB_OK) {
            pb_error_set(err, rc, NULL, 0, 0, "cannot add pattern %s",
                         pb_strbuf_str(&text));
            goto out;
        }
        if ((rc = pb_result_assign(res, c->id, instance, pat->index)) != PB_OK ||
            (paired &&
             (rc = pb_result_assign(res, v->msgs[rets[j].row].id, instance,
                                    pat->index)) != PB_OK)) {
            pb_error_set(err, rc, NULL, 0, 0, "out of memory");
            goto out;
        }
        if (paired)
            j++;
    }
    unpaired += nr - j;
    pb_result_meta(res, "rpcs=%llu", (unsigned long long)instance);
    if (unpaired)
        pb_result_warn(res, "%zu returns matched no call: left out", unpaired);
out:
    pb_strbuf_free(&text);
    free(calls);
    free(rets);
    return rc;
}

static const pb_algo rpcs_algo = {
    .name = "rpcs",
    .view = "call",
    .summary = "every RPC is an instance of its own (an example, a floor)",
    .options = rpcs_options,
    .params_size = sizeof(rpcs_params),
    .run = rpcs_run,
    .run_truth = NULL,
};

int main(int argc, char **argv)
{
    pb_error err;
    pb_error_clear(&err);
    int rc = pb_algo_serve(&rpcs_algo, argc > 1 ? argv[1] : "-", stdout, &err);
    if (rc != PB_OK) {
        pb_error_print(stderr, "rpcs", &err);
        return rc == PB_EINVAL ? 2 : 1;
    }
    return 0;
}
