/*
 * precise_emit.c - per-message decisions to path instances through the
 * truth views (precise.h).
 */
#include "precise.h"

#include <stdlib.h>
#include <string.h>

int pr_view_parse(const char *s, tv_view *out, pb_error *err)
{
    *out = TV_CALL; /* defined on every path (the error path too) */
    if (s && !strcmp(s, "call"))
        *out = TV_CALL;
    else if (s && !strcmp(s, "message"))
        *out = TV_MESSAGE;
    else
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option view: \"%s\"; expected call or message",
                            s ? s : "");
    return PB_OK;
}

int pr_emit(const pb_trace_view *v, const uint64_t *inst, const uint32_t *cause,
            const uint8_t *flag, tv_view view, pb_result *res, pb_error *err)
{
    pb_trace *t = NULL;
    tv_truth *tv = NULL;
    uint8_t *fl = NULL;
    int rc = pb_trace_new(&t);
    if (rc != PB_OK)
        goto oom;
    /* the same node indices as the view's */
    uint32_t nn = pb_strtab_count(v->nodes);
    for (uint32_t x = 0; x < nn; x++) {
        uint32_t idx;
        const char *s = pb_strtab_str(v->nodes, x);
        if ((rc = pb_strtab_intern(t->names->nodes, s, strlen(s), &idx)) != PB_OK)
            goto oom;
    }
    for (size_t i = 0; i < v->n; i++) {
        pb_msg m = v->msgs[i];
        m.callid = PB_ID_NONE; /* the algorithm's own pairing decides */
        pb_truth tr = {inst[i], PB_ID_NONE};
        if (inst[i] != PB_ID_NONE && cause[i] != PR_NONE)
            tr.cause = v->msgs[cause[i]].id;
        if ((rc = pb_trace_append_obs(t, &m, v->obs ? &v->obs[i] : NULL, &tr)) != PB_OK)
            goto oom;
    }
    t->columns = v->columns | PB_COL_TRUTH;
    if ((rc = tv_build(t, view, &tv, err)) != PB_OK)
        goto out;
    res->view = tv_view_name(view);
    fl = calloc(tv->ninst + 1, 1);
    if (!fl)
        goto oom;
    size_t nflag = 0;
    for (size_t i = 0; flag && i < v->n; i++) {
        size_t k;
        if (flag[i] && tv_lookup(tv, v->msgs[i].id, &k) && k != TV_NONE && !fl[k]) {
            fl[k] = 1;
            nflag++;
        }
    }
    for (size_t i = 0; i < tv->ninst && rc == PB_OK; i++) {
        const tv_instance *in = &tv->inst[i];
        const pb_pattern *tp = pb_pattab_by_index(tv->patterns, in->pattern);
        pb_pattern *e;
        rc = pb_pattab_add(res->patterns, tp->text, in->nnodes, 1.0, in->total,
                           tv->node_lat + in->stat_off,
                           tv->edge_delay + in->stat_off, &e);
        for (size_t k = 0; k < in->nmsg && rc == PB_OK && !res->skip_assign; k++)
            rc = pb_result_assign(res, tv->msg_ids[in->msg_off + k], i, e->index);
        if (rc == PB_OK && fl[i])
            rc = pb_strbuf_printf(&res->report, "flagged instance %zu\n", i);
    }
    if (rc == PB_OK)
        rc = pb_result_meta(res, "instances=%zu flagged_instances=%zu", tv->ninst,
                            nflag);
    if (rc != PB_OK)
        goto oom;
    goto out;
oom:
    rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
out:
    free(fl);
    tv_close(tv);
    pb_trace_close(t);
    return rc;
}
