#include "pb_pattab.h"
#include "pb_error.h"
#include "pb_strtab.h"
#include "pb_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

struct pb_pattab {
    pb_pattern **entries;   /* current order */
    pb_pattern **by_index;  /* insertion order */
    size_t n, cap;
    uint32_t *slots;        /* index+1, 0 = empty */
    size_t nslots;
};

int pb_pattab_init(pb_pattab **out)
{
    pb_pattab *t = calloc(1, sizeof *t);
    if (!t)
        return PB_ENOMEM;
    t->nslots = 256;
    t->slots = calloc(t->nslots, sizeof *t->slots);
    if (!t->slots) {
        free(t);
        return PB_ENOMEM;
    }
    *out = t;
    return PB_OK;
}

static void entry_free(pb_pattern *e)
{
    if (!e)
        return;
    free(e->text);
    free(e->node_sum); /* one block holds all six arrays */
    free(e);
}

void pb_pattab_close(pb_pattab *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        entry_free(t->by_index[i]);
    free(t->entries);
    free(t->by_index);
    free(t->slots);
    free(t);
}

static size_t find_slot(const pb_pattab *t, const char *text, int *found)
{
    size_t len = strlen(text);
    size_t j = pb_hash_bytes(text, len) & (t->nslots - 1);
    while (t->slots[j]) {
        if (!strcmp(t->by_index[t->slots[j] - 1]->text, text)) {
            *found = 1;
            return j;
        }
        j = (j + 1) & (t->nslots - 1);
    }
    *found = 0;
    return j;
}

pb_pattern *pb_pattab_find(const pb_pattab *t, const char *text)
{
    int found;
    size_t j = find_slot(t, text, &found);
    return found ? t->by_index[t->slots[j] - 1] : NULL;
}

static int grow(pb_pattab *t)
{
    void *const arrs[] = {&t->entries, &t->by_index};
    const size_t sz[] = {sizeof *t->entries, sizeof *t->by_index};
    if (pb_grow_parallel(&t->cap, t->n + 1, 64, 2, arrs, sz) != PB_OK)
        return PB_ENOMEM;
    if ((t->n + 1) * 2 > t->nslots) {
        size_t ns = t->nslots * 2;
        uint32_t *slots = calloc(ns, sizeof *slots);
        if (!slots)
            return PB_ENOMEM;
        for (size_t i = 0; i < t->n; i++) {
            const char *s = t->by_index[i]->text;
            size_t j = pb_hash_bytes(s, strlen(s)) & (ns - 1);
            while (slots[j])
                j = (j + 1) & (ns - 1);
            slots[j] = (uint32_t)i + 1;
        }
        free(t->slots);
        t->slots = slots;
        t->nslots = ns;
    }
    return PB_OK;
}

int pb_pattab_add(pb_pattab *t, const char *text, uint32_t nnodes, double w,
                  double total_latency, const double *node_lat,
                  const double *edge_delay, pb_pattern **out)
{
    int found;
    size_t j = find_slot(t, text, &found);
    pb_pattern *e;
    if (found) {
        e = t->by_index[t->slots[j] - 1];
        if (e->nnodes != nnodes)
            return PB_EINVAL;
    } else {
        if (grow(t) != PB_OK)
            return PB_ENOMEM;
        j = find_slot(t, text, &found);
        e = calloc(1, sizeof *e);
        if (!e)
            return PB_ENOMEM;
        e->text = strdup(text);
        e->nnodes = nnodes;
        e->node_sum = calloc((size_t)nnodes * 6 + 1, sizeof(double));
        if (!e->text || !e->node_sum) {
            entry_free(e);
            return PB_ENOMEM;
        }
        e->node_sumsq = e->node_sum + nnodes;
        e->edge_sum = e->node_sum + 2 * (size_t)nnodes;
        e->edge_sumsq = e->node_sum + 3 * (size_t)nnodes;
        e->node_wsum = e->node_sum + 4 * (size_t)nnodes;
        e->edge_wsum = e->node_sum + 5 * (size_t)nnodes;
        e->index = (uint32_t)t->n;
        t->entries[t->n] = e;
        t->by_index[t->n] = e;
        t->n++;
        t->slots[j] = e->index + 1;
    }
    e->count++;
    e->score += w;
    if (w > e->max_prob)
        e->max_prob = w;
    if (!isnan(total_latency)) {
        e->latency_sum += w * total_latency;
        e->latency_sumsq += w * total_latency * total_latency;
    }
    for (uint32_t k = 0; k < nnodes; k++) {
        if (node_lat && !isnan(node_lat[k])) {
            e->node_sum[k] += w * node_lat[k];
            e->node_sumsq[k] += w * node_lat[k] * node_lat[k];
            e->node_wsum[k] += w;
        }
        if (edge_delay && !isnan(edge_delay[k])) {
            e->edge_sum[k] += w * edge_delay[k];
            e->edge_sumsq[k] += w * edge_delay[k] * edge_delay[k];
            e->edge_wsum[k] += w;
        }
    }
    if (out)
        *out = e;
    return PB_OK;
}

size_t pb_pattab_count(const pb_pattab *t) { return t ? t->n : 0; }

pb_pattern *pb_pattab_get(const pb_pattab *t, size_t i)
{
    return i < t->n ? t->entries[i] : NULL;
}

pb_pattern *pb_pattab_by_index(const pb_pattab *t, uint32_t index)
{
    return index < t->n ? t->by_index[index] : NULL;
}

static double rank_key(const pb_pattern *e, pb_rank_by by)
{
    switch (by) {
    case PB_RANK_SCORE: return e->score;
    case PB_RANK_LATENCY: return e->latency_sum;
    case PB_RANK_SCORE_PER_COUNT: return e->count ? e->score / (double)e->count : 0;
    case PB_RANK_SCORE_PER_SQRT: return e->count ? e->score / sqrt((double)e->count) : 0;
    default: return (double)e->count;
    }
}

static pb_rank_by g_rank_by; /* qsort has no context argument */

static int cmp_rank(const void *a, const void *b)
{
    const pb_pattern *x = *(pb_pattern *const *)a, *y = *(pb_pattern *const *)b;
    double kx = rank_key(x, g_rank_by), ky = rank_key(y, g_rank_by);
    if (kx != ky)
        return kx > ky ? -1 : 1;
    /* secondary: count then score */
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return strcmp(x->text, y->text);
}

void pb_pattab_rank(pb_pattab *t, pb_rank_by by)
{
    g_rank_by = by;
    if (t->n) /* qsort on a NULL array is undefined even for 0 entries */
        pb_sort(t->entries, t->n, sizeof *t->entries, cmp_rank);
    for (size_t i = 0; i < t->n; i++)
        t->entries[i]->rank = (uint32_t)i + 1;
}

int pb_rank_by_parse(const char *s, pb_rank_by *out)
{
    static const struct {
        const char *name;
        pb_rank_by by;
    } k[] = {{"count", PB_RANK_COUNT},
             {"score", PB_RANK_SCORE},
             {"latency", PB_RANK_LATENCY},
             {"score-per-count", PB_RANK_SCORE_PER_COUNT},
             {"score-per-sqrt", PB_RANK_SCORE_PER_SQRT}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!strcmp(s, k[i].name)) {
            *out = k[i].by;
            return PB_OK;
        }
    return PB_EINVAL;
}
