/*
 * joint_canon.c - joint: nodes (and thread/connection labels) numbered by
 * their first appearance in the messages, in the order joint reads them
 * (docs/joint/search_late.md, "Shuffled rows: nodes numbered by first
 * appearance").
 *
 * The reader numbers a node when it first reads its name, in file order.
 * A shuffled file read with --sort gives the same messages in the same
 * order, but its nodes numbered in another order; a tie anywhere in joint
 * that falls to the lower node or link number (a search order, a sort
 * without a full key) then gives other paths.  Before anything else joint
 * renumbers: walking the messages in order, a node gets the next number
 * the first time it is a sender or a receiver (sender first); a label
 * (thread, sthread, conn) likewise.  Names never enter the key, so
 * renamed nodes keep their numbers too.  Nodes and labels that no message
 * names follow, in their old order.  On a file already in (ts, id) order
 * the reader's numbering is this one, the check finds the identity and
 * nothing is copied (every output on a sorted file is unchanged).
 */
#include <stdlib.h>
#include <string.h>

#include "joint_rules.h"

static uint32_t *first_seen(uint32_t n)
{
    uint32_t *m = malloc((n ? n : 1) * sizeof *m);
    if (m)
        for (uint32_t i = 0; i < n; i++)
            m[i] = UINT32_MAX;
    return m;
}

static void see(uint32_t *m, uint32_t n, uint32_t *next, uint32_t x)
{
    if (x < n && m[x] == UINT32_MAX)
        m[x] = (*next)++;
}

static void rest(uint32_t *m, uint32_t n, uint32_t *next)
{
    for (uint32_t i = 0; i < n; i++)
        if (m[i] == UINT32_MAX)
            m[i] = (*next)++;
}

int joint_canon_prepare(const pb_trace_view *v, pb_trace_view *out, pb_msg **msgs,
                        pb_strtab **nodes)
{
    *out = *v;
    *msgs = NULL;
    *nodes = NULL;
    uint32_t nn = v->nodes ? pb_strtab_count(v->nodes) : 0;
    uint32_t nl = 0; /* labels: index + 1, 0 = none */
    for (size_t i = 0; i < v->n; i++) {
        if (pb_obs_thread(v->obs, i) > nl) nl = pb_obs_thread(v->obs, i);
        if (pb_obs_sthread(v->obs, i) > nl) nl = pb_obs_sthread(v->obs, i);
        if (pb_obs_conn(v->obs, i) > nl) nl = pb_obs_conn(v->obs, i);
    }
    uint32_t *nm = first_seen(nn), *lm = first_seen(nl + 1);
    if (!nm || !lm) {
        free(nm);
        free(lm);
        return PB_ENOMEM;
    }
    uint32_t nx = 0, lx = 1;
    lm[0] = 0;
    for (size_t i = 0; i < v->n; i++) {
        const pb_msg *m = &v->msgs[i];
        see(nm, nn, &nx, m->src);
        see(nm, nn, &nx, m->dst);
        see(lm, nl + 1, &lx, pb_obs_thread(v->obs, i));
        see(lm, nl + 1, &lx, pb_obs_sthread(v->obs, i));
        see(lm, nl + 1, &lx, pb_obs_conn(v->obs, i));
    }
    rest(nm, nn, &nx);
    rest(lm, nl + 1, &lx);
    int same = 1;
    for (uint32_t i = 0; i < nn && same; i++)
        same = nm[i] == i;
    for (uint32_t i = 0; i <= nl && same; i++)
        same = lm[i] == i;
    if (same) {
        free(nm);
        free(lm);
        return PB_OK;
    }
    pb_obs *co; pb_msg *c = pb_msgs_alloc(v->n, v->obs != NULL, &co);
    pb_strtab *t = NULL;
    uint32_t *inv = malloc((nn ? nn : 1) * sizeof *inv);
    int rc = c && inv ? pb_strtab_init(&t) : PB_ENOMEM;
    if (rc == PB_OK) {
        for (uint32_t i = 0; i < nn; i++)
            inv[nm[i]] = i;
        for (uint32_t k = 0; k < nn && rc == PB_OK; k++) {
            uint32_t got;
            rc = pb_strtab_intern(t, pb_strtab_str(v->nodes, inv[k]),
                                  pb_strtab_len(v->nodes, inv[k]), &got);
            if (rc == PB_OK && got != k)
                rc = PB_EINVAL; /* two nodes of one name: cannot happen */
        }
    }
    if (rc != PB_OK) {
        free(nm);
        free(lm);
        free(inv);
        free(c);
        if (t)
            pb_strtab_close(t);
        return rc == PB_EINVAL ? PB_OK : rc; /* keep the reader's numbering */
    }
    for (size_t i = 0; i < v->n; i++) {
        pb_view_copy(c, co, i, v, i);
        if (c[i].src < nn) c[i].src = nm[c[i].src];
        if (c[i].dst < nn) c[i].dst = nm[c[i].dst];
        if (co) co[i].thread = lm[co[i].thread];
        if (co) co[i].sthread = lm[co[i].sthread];
        if (co) co[i].conn = lm[co[i].conn];
    }
    free(nm);
    free(lm);
    free(inv);
    out->msgs = c;
    out->obs = co;
    out->nodes = t;
    *msgs = c;
    *nodes = t;
    return PB_OK;
}
