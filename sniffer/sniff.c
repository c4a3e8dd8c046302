#define _GNU_SOURCE /* mkostemp, O_CLOEXEC */
#include "sniff.h"

#include <errno.h>
#include <fcntl.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pb_strtab.h"

/* Lowest rate the --target-drop search tries, messages/s. */
#define SNIFF_RATE_MIN 1e-6

const pb_option sniff_options[] = {
    {"rate", PB_OPT_DOUBLE, offsetof(sniff_params, rate), "0", 0, 1e15,
     "peak capture rate, messages/s (7.5.5); 0 = unbounded"},
    {"queue", PB_OPT_INT, offsetof(sniff_params, queue), "64", 1, 1e9,
     "capture queue length, messages (7.5.5: 64)"},
    {"loss", PB_OPT_DOUBLE, offsetof(sniff_params, loss), "0", 0, 1,
     "independent loss probability per message"},
    {"ge_p", PB_OPT_DOUBLE, offsetof(sniff_params, ge_p), "0", 0, 1,
     "Gilbert-Elliott: P(good -> bad) per message (0 = off)"},
    {"ge_r", PB_OPT_DOUBLE, offsetof(sniff_params, ge_r), "0.5", 0, 1,
     "Gilbert-Elliott: P(bad -> good) per message"},
    {"ge_loss_bad", PB_OPT_DOUBLE, offsetof(sniff_params, ge_loss_bad), "1", 0, 1,
     "Gilbert-Elliott: loss probability in the bad state"},
    {"ge_loss_good", PB_OPT_DOUBLE, offsetof(sniff_params, ge_loss_good), "0", 0, 1,
     "Gilbert-Elliott: loss probability in the good state"},
    {"seed", PB_OPT_INT, offsetof(sniff_params, seed), "1", 0, 2147483647.0,
     "seed of the loss generators (sniffer i uses a mix of seed and i)"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

typedef struct blist {
    uint32_t *v;
    size_t n, cap;
} blist;

typedef struct sniffer {
    sniff_params p;
    int all;               /* covers every node */
    uint32_t *listed;      /* node indices named in the list */
    size_t nlisted;
    gsl_rng *rng;
    unsigned long rng_seed;
    int bad;               /* Gilbert-Elliott state */
    double service;        /* ns per capture */
    double *dep;           /* ring of departure times, ns after base;
                              grown as it fills, up to the queue length,
                              so --queue 1e9 costs what the trace holds */
    size_t head, count, alloc;
    double last_dep;
} sniffer;

struct sniff_model {
    pb_names *names;
    sniffer *s;
    size_t n;
    int have_base;
    pb_ns base;            /* first ts decided: times are kept relative to it
                              so doubles stay exact to the ns for 104 days */
    unsigned char *node_seen;
    size_t nnode_seen;
    sniff_stats st;
    /* the boxes that see each node, ascending (a per-box table of nodes
     * made memory boxes x nodes, and every message asked every box:
     * hostile round 18); boxes that see every node in `all` */
    blist *nb;
    size_t nnb;
    blist all;
};

int sniff_init(sniff_model **out, pb_names *names)
{
    sniff_model *m = calloc(1, sizeof *m);
    if (!m)
        return PB_ENOMEM;
    m->names = names;
    *out = m;
    return PB_OK;
}

void sniff_close(sniff_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++) {
        free(m->s[i].listed);
        free(m->s[i].dep);
        if (m->s[i].rng)
            gsl_rng_free(m->s[i].rng);
    }
    free(m->s);
    free(m->node_seen);
    for (size_t i = 0; i < m->nnb; i++)
        free(m->nb[i].v);
    free(m->nb);
    free(m->all.v);
    free(m);
}

size_t sniff_count(const sniff_model *m) { return m->n; }

static double service_ns(double rate)
{
    return rate > 0 ? 1e9 / rate : 0.0;
}

static int check_params(const sniff_params *p, const char *where, pb_error *err)
{
    /* the option table checks ranges on parsing; callers that fill the
     * struct themselves get the same checks here */
    if (!(p->rate >= 0) || !isfinite(p->rate))
        return pb_error_set(err, PB_EINVAL, where, 0, 0,
                            "rate %g: expected a capture rate >= 0 messages/s "
                            "(0 = unbounded)", p->rate);
    if (p->queue < 1)
        return pb_error_set(err, PB_EINVAL, where, 0, 0,
                            "queue %d: expected a queue of at least 1 message",
                            p->queue);
    const double *pr[] = {&p->loss, &p->ge_p, &p->ge_r, &p->ge_loss_bad,
                          &p->ge_loss_good};
    const char *nm[] = {"loss", "ge_p", "ge_r", "ge_loss_bad", "ge_loss_good"};
    for (int i = 0; i < 5; i++)
        if (!(*pr[i] >= 0 && *pr[i] <= 1))
            return pb_error_set(err, PB_EINVAL, where, 0, 0,
                                "%s %g: expected a probability in [0, 1]",
                                nm[i], *pr[i]);
    return PB_OK;
}

/* box k sees list l (boxes are added in order, so l stays ascending) */
static int blist_add(blist *l, uint32_t k)
{
    if (l->n && l->v[l->n - 1] == k)
        return PB_OK; /* a node named twice in one box */
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 4;
        uint32_t *v = realloc(l->v, nc * sizeof *v);
        if (!v)
            return PB_ENOMEM;
        l->v = v;
        l->cap = nc;
    }
    l->v[l->n++] = k;
    return PB_OK;
}

/* box k sees node idx */
static int cover(sniff_model *m, uint32_t idx, uint32_t k)
{
    if (idx >= m->nnb) {
        size_t nc = m->nnb ? m->nnb : 64;
        while (nc <= idx)
            nc *= 2;
        blist *x = realloc(m->nb, nc * sizeof *x);
        if (!x)
            return PB_ENOMEM;
        memset(x + m->nnb, 0, (nc - m->nnb) * sizeof *x);
        m->nb = x;
        m->nnb = nc;
    }
    return blist_add(&m->nb[idx], k);
}

static void reset_one(sniffer *s)
{
    gsl_rng_set(s->rng, s->rng_seed);
    s->bad = 0;
    s->head = s->count = 0;
    s->last_dep = -INFINITY;
    s->service = service_ns(s->p.rate);
}

int sniff_add(sniff_model *m, const char *nodes, const sniff_params *p,
              const char *where, pb_error *err)
{
    int rc = check_params(p, where, err);
    if (rc != PB_OK)
        return rc;
    sniffer *ns = realloc(m->s, (m->n + 1) * sizeof *ns);
    if (!ns)
        return pb_error_set(err, PB_ENOMEM, where, 0, 0, "out of memory");
    m->s = ns;
    sniffer *s = &m->s[m->n];
    memset(s, 0, sizeof *s);
    s->p = *p;
    s->alloc = p->queue < 1024 ? (size_t)p->queue : 1024;
    s->dep = malloc(s->alloc * sizeof *s->dep);
    s->rng = gsl_rng_alloc(gsl_rng_mt19937);
    /* one generator per sniffer; sniffer 0 uses the seed itself */
    s->rng_seed = (unsigned long)p->seed + 1000003UL * (unsigned long)m->n;
    if (!s->dep || !s->rng) {
        free(s->dep);
        if (s->rng)
            gsl_rng_free(s->rng);
        return pb_error_set(err, PB_ENOMEM, where, 0, 0, "out of memory");
    }
    m->n++;
    uint32_t k = (uint32_t)(m->n - 1);
    if (!nodes || !strcmp(nodes, "*")) {
        s->all = 1;
        if (blist_add(&m->all, k) != PB_OK)
            return pb_error_set(err, PB_ENOMEM, where, 0, 0, "out of memory");
    } else {
        const char *b = nodes;
        for (;;) {
            const char *e = strchr(b, ',');
            size_t l = e ? (size_t)(e - b) : strlen(b);
            if (l == 0)
                return pb_error_set(err, PB_EINVAL, where, 0, 0,
                                    "\"%s\": empty node name; expected a "
                                    "comma-separated list of nodes", nodes);
            uint32_t idx;
            uint32_t *nl = realloc(s->listed, (s->nlisted + 1) * sizeof *nl);
            if (!nl || pb_strtab_intern(m->names->nodes, b, l, &idx) != PB_OK ||
                cover(m, idx, k) != PB_OK) {
                if (nl)
                    s->listed = nl;
                return pb_error_set(err, PB_ENOMEM, where, 0, 0, "out of memory");
            }
            s->listed = nl;
            s->listed[s->nlisted++] = idx;
            if (!e)
                break;
            b = e + 1;
        }
    }
    /* the boxes before are as sniff_reset left them unless a message was
     * decided since: then all, as before (resetting every box at every
     * add was quadratic: 8,000 boxes took 38 s) */
    static const sniff_stats zero;
    if (m->have_base || memcmp(&m->st, &zero, sizeof zero))
        sniff_reset(m);
    else
        reset_one(s);
    return PB_OK;
}

void sniff_set_rate(sniff_model *m, double rate)
{
    for (size_t i = 0; i < m->n; i++)
        m->s[i].p.rate = rate;
    sniff_reset(m);
}

void sniff_reset(sniff_model *m)
{
    for (size_t i = 0; i < m->n; i++)
        reset_one(&m->s[i]);
    m->have_base = 0;
    memset(&m->st, 0, sizeof m->st);
}

enum { TAKE_KEEP = 0, TAKE_RANDOM, TAKE_BURST, TAKE_QUEUE, TAKE_NOMEM };

static int sniffer_take(sniffer *s, double t)
{
    int lost_random = 0, lost_burst = 0;
    if (s->p.loss > 0)
        lost_random = gsl_rng_uniform(s->rng) < s->p.loss;
    if (s->p.ge_p > 0 || s->p.ge_loss_good > 0) {
        double l = s->bad ? s->p.ge_loss_bad : s->p.ge_loss_good;
        lost_burst = gsl_rng_uniform(s->rng) < l;
        double u = gsl_rng_uniform(s->rng);
        s->bad = s->bad ? !(u < s->p.ge_r) : u < s->p.ge_p;
    }
    if (lost_random)
        return TAKE_RANDOM;
    if (lost_burst)
        return TAKE_BURST;
    if (s->p.rate <= 0)
        return TAKE_KEEP;
    size_t cap = s->alloc;
    /* a ring of departure times; wrap by comparison, not division (the
     * --target-drop search replays the trace some twenty times) */
    while (s->count && s->dep[s->head] <= t) {
        if (++s->head == cap)
            s->head = 0;
        s->count--;
    }
    if (s->count == (size_t)s->p.queue)
        return TAKE_QUEUE;
    if (s->count == cap) {
        /* full but the queue is longer: twice the ring, unwrapped */
        size_t nc = cap * 2 < (size_t)s->p.queue ? cap * 2 : (size_t)s->p.queue;
        double *nd = malloc(nc * sizeof *nd);
        if (!nd)
            return TAKE_NOMEM;
        for (size_t k = 0; k < s->count; k++) {
            size_t at = s->head + k;
            nd[k] = s->dep[at >= cap ? at - cap : at];
        }
        free(s->dep);
        s->dep = nd;
        s->head = 0;
        s->alloc = cap = nc;
    }
    double start = t > s->last_dep ? t : s->last_dep;
    s->last_dep = start + s->service;
    size_t tail = s->head + s->count;
    s->dep[tail >= cap ? tail - cap : tail] = s->last_dep;
    s->count++;
    return TAKE_KEEP;
}

static void mark_seen(sniff_model *m, uint32_t idx)
{
    if (idx >= m->nnode_seen) {
        size_t nc = m->nnode_seen ? m->nnode_seen : 64;
        while (nc <= idx)
            nc *= 2;
        unsigned char *c = realloc(m->node_seen, nc);
        if (!c)
            return; /* only feeds a warning */
        memset(c + m->nnode_seen, 0, nc - m->nnode_seen);
        m->node_seen = c;
        m->nnode_seen = nc;
    }
    m->node_seen[idx] = 1;
}

int sniff_decide(sniff_model *m, const pb_msg *msg)
{
    if (!m->have_base) {
        m->base = msg->ts;
        m->have_base = 1;
    }
    mark_seen(m, msg->src);
    mark_seen(m, msg->dst);
    double t = (double)(msg->ts - m->base);
    int seen = 0, keep = 0, first_cause = TAKE_KEEP;
    /* the boxes that see src, dst or every node, merged in box order */
    static const blist none;
    const blist *a = msg->src < m->nnb ? &m->nb[msg->src] : &none;
    const blist *b = msg->dst < m->nnb ? &m->nb[msg->dst] : &none;
    const blist *c = &m->all;
    size_t ia = 0, ib = 0, ic = 0;
    for (;;) {
        uint32_t i = UINT32_MAX;
        if (ia < a->n && a->v[ia] < i)
            i = a->v[ia];
        if (ib < b->n && b->v[ib] < i)
            i = b->v[ib];
        if (ic < c->n && c->v[ic] < i)
            i = c->v[ic];
        if (i == UINT32_MAX)
            break;
        ia += ia < a->n && a->v[ia] == i;
        ib += ib < b->n && b->v[ib] == i;
        ic += ic < c->n && c->v[ic] == i;
        sniffer *s = &m->s[i];
        int r = sniffer_take(s, t);
        if (r == TAKE_NOMEM)
            return -1;
        if (!seen)
            first_cause = r;
        seen = 1;
        if (r == TAKE_KEEP)
            keep = 1;
    }
    m->st.messages++;
    if (keep) {
        m->st.kept++;
        return 1;
    }
    m->st.dropped++;
    if (!seen)
        m->st.uncovered++;
    else if (first_cause == TAKE_RANDOM)
        m->st.random++;
    else if (first_cause == TAKE_BURST)
        m->st.burst++;
    else
        m->st.queue++;
    return 0;
}

void sniff_stats_get(const sniff_model *m, sniff_stats *out) { *out = m->st; }

double sniff_drop_rate(const sniff_stats *s)
{
    return s->messages ? (double)s->dropped / (double)s->messages : 0.0;
}

const char *sniff_unseen(const sniff_model *m, size_t i)
{
    for (size_t k = 0; k < m->n; k++)
        for (size_t j = 0; j < m->s[k].nlisted; j++) {
            uint32_t idx = m->s[k].listed[j];
            if (idx < m->nnode_seen && m->node_seen[idx])
                continue;
            if (i-- == 0)
                return pb_strtab_str(m->names->nodes, idx);
        }
    return NULL;
}

const char *sniff_unseen_next(const sniff_model *m, size_t *box, size_t *j)
{
    for (; *box < m->n; (*box)++, *j = 0)
        while (*j < m->s[*box].nlisted) {
            uint32_t idx = m->s[*box].listed[(*j)++];
            if (!(idx < m->nnode_seen && m->node_seen[idx]))
                return pb_strtab_str(m->names->nodes, idx);
        }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* spool */

typedef struct spool_rec {
    pb_msg m;
    pb_truth t;
} spool_rec;

/* What a decision needs of a message: the --target-drop search replays
 * these (16 bytes) instead of the full records (64), some twenty times. */
_Static_assert(sizeof(spool_rec) == 64, "a spooled record is 64 bytes");
typedef struct spool_key {
    pb_ns ts;
    uint32_t src, dst;
} spool_key;

#define SPOOL_KEYS 4096

struct sniff_spool {
    FILE *fp;
    FILE *kfp;          /* the spool_key of every record, same order */
    FILE *ofp;          /* the pb_obs of every record from the first one
                           given on, or NULL */
    size_t n, nobs_before; /* records; records before ofp was made */
    size_t nread;       /* records read since the rewind */
    char *buf, *kbuf, *obuf;
    spool_key *keys;    /* SPOOL_KEYS keys read at a time */
};

/* an unlinked temporary file in TMPDIR, fully buffered by buf */
static FILE *spool_file(char *buf, pb_error *err)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t l = strlen(dir) + 32;
    char *path = malloc(l);
    if (!path) {
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    snprintf(path, l, "%s/sniffer.XXXXXX", dir);
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        pb_error_set(err, PB_EIO, dir, 0, 0,
                     "cannot create a temporary file to hold the trace: %s "
                     "(set TMPDIR to a writable directory)", strerror(e));
        free(path);
        return NULL;
    }
    unlink(path); /* gone when closed, whatever happens */
    free(path);
    FILE *fp = fdopen(fd, "w+b");
    if (!fp) {
        close(fd);
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    setvbuf(fp, buf, _IOFBF, 1 << 20);
    return fp;
}

int sniff_spool_open(sniff_spool **out, pb_error *err)
{
    sniff_spool *s = calloc(1, sizeof *s);
    if (s) {
        s->buf = malloc(1 << 20);
        s->kbuf = malloc(1 << 20);
        s->keys = malloc(SPOOL_KEYS * sizeof *s->keys);
    }
    if (!s || !s->buf || !s->kbuf || !s->keys) {
        sniff_spool_close(s);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (!(s->fp = spool_file(s->buf, err)) || !(s->kfp = spool_file(s->kbuf, err))) {
        sniff_spool_close(s);
        return err->code;
    }
    *out = s;
    return PB_OK;
}

int sniff_spool_add(sniff_spool *s, const pb_msg *m, const pb_obs *o, const pb_truth *t)
{
    if (o && !s->ofp) {
        pb_error e;
        if (!(s->obuf = malloc(1 << 20)))
            return PB_ENOMEM;
        if (!(s->ofp = spool_file(s->obuf, &e)))
            return e.code;
        s->nobs_before = s->n;
    }
    if (s->ofp) {
        pb_obs ob = pb_obs_get(o, 0);
        if (fwrite(&ob, sizeof ob, 1, s->ofp) != 1)
            return PB_EIO;
    }
    spool_rec r;
    memset(&r, 0, sizeof r);
    r.m = *m;
    r.t = t ? *t : (pb_truth){PB_ID_NONE, PB_ID_NONE};
    spool_key k;
    memset(&k, 0, sizeof k);
    k.ts = m->ts;
    k.src = m->src;
    k.dst = m->dst;
    if (fwrite(&r, sizeof r, 1, s->fp) != 1 || fwrite(&k, sizeof k, 1, s->kfp) != 1)
        return PB_EIO;
    s->n++;
    return PB_OK;
}

int sniff_spool_rewind(sniff_spool *s)
{
    if (fflush(s->fp) != 0 || fseek(s->fp, 0, SEEK_SET) != 0)
        return PB_EIO;
    if (s->ofp && (fflush(s->ofp) != 0 || fseek(s->ofp, 0, SEEK_SET) != 0))
        return PB_EIO;
    s->nread = 0;
    return PB_OK;
}

int sniff_spool_next(sniff_spool *s, pb_msg *m, pb_obs *o, pb_truth *t)
{
    spool_rec r;
    if (fread(&r, sizeof r, 1, s->fp) != 1)
        return ferror(s->fp) ? PB_EIO : 0;
    pb_obs ob = PB_OBS_NONE;
    if (s->ofp && s->nread++ >= s->nobs_before && fread(&ob, sizeof ob, 1, s->ofp) != 1)
        return PB_EIO;
    if (o)
        *o = ob;
    *m = r.m;
    if (t)
        *t = r.t;
    return 1;
}

size_t sniff_spool_size(const sniff_spool *s) { return s->n; }

void sniff_spool_close(sniff_spool *s)
{
    if (!s)
        return;
    if (s->fp)
        fclose(s->fp);
    if (s->kfp)
        fclose(s->kfp);
    if (s->ofp)
        fclose(s->ofp);
    free(s->obuf);
    free(s->buf);
    free(s->kbuf);
    free(s->keys);
    free(s);
}

/* Reset the model and decide every spooled message from the compact keys;
 * *first and *last get the smallest and largest timestamp (0 when empty). */
static int replay_keys(sniff_model *m, sniff_spool *s, pb_ns *first, pb_ns *last)
{
    sniff_reset(m);
    if (fflush(s->kfp) != 0 || fseek(s->kfp, 0, SEEK_SET) != 0)
        return PB_EIO;
    pb_msg msg;
    memset(&msg, 0, sizeof msg);
    pb_ns lo = 0, hi = 0;
    size_t done = 0;
    while (done < s->n) {
        size_t want = s->n - done < SPOOL_KEYS ? s->n - done : SPOOL_KEYS;
        if (fread(s->keys, sizeof *s->keys, want, s->kfp) != want)
            return PB_EIO;
        for (size_t i = 0; i < want; i++) {
            msg.ts = s->keys[i].ts;
            msg.src = s->keys[i].src;
            msg.dst = s->keys[i].dst;
            if (done + i == 0 || msg.ts < lo)
                lo = msg.ts;
            if (done + i == 0 || msg.ts > hi)
                hi = msg.ts;
            if (sniff_decide(m, &msg) < 0)
                return PB_ENOMEM;
        }
        done += want;
    }
    if (first)
        *first = lo;
    if (last)
        *last = hi;
    return PB_OK;
}

int sniff_replay(sniff_model *m, sniff_spool *s, sniff_stats *out)
{
    int rc = replay_keys(m, s, NULL, NULL);
    if (rc != PB_OK)
        return rc;
    sniff_stats_get(m, out);
    return PB_OK;
}

static int drop_at(sniff_model *m, sniff_spool *s, double rate, double *drop)
{
    sniff_set_rate(m, rate);
    sniff_stats st;
    int rc = sniff_replay(m, s, &st);
    if (rc != PB_OK)
        return rc;
    *drop = sniff_drop_rate(&st);
    return PB_OK;
}

/* One replay at an unbounded rate that also measures the trace's mean
 * message rate (messages over the span of their timestamps; 0 when the
 * span is 0). */
/* One replay at an unbounded rate that also measures the trace's mean
 * message rate (messages over the span of their timestamps; 0 when the
 * span is 0). */
/* A replay that failed: out of memory (a queue's ring) or the spool. */
static int replay_fail(int rc, pb_error *err)
{
    if (rc == PB_ENOMEM)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return pb_error_set(err, PB_EIO, NULL, 0, 0, "cannot read the spooled trace");
}

static int drop_unbounded(sniff_model *m, sniff_spool *s, double *drop, double *mean)
{
    sniff_set_rate(m, 0);
    pb_ns first, last;
    int rc = replay_keys(m, s, &first, &last);
    if (rc != PB_OK)
        return rc;
    sniff_stats st;
    sniff_stats_get(m, &st);
    *drop = sniff_drop_rate(&st);
    *mean = last > first ? (double)s->n / ((double)(last - first) * 1e-9) : 0;
    return PB_OK;
}

int sniff_target_rate(sniff_model *m, sniff_spool *s, double target,
                      double *rate_out, pb_error *err)
{
    if (!(target >= 0 && target <= 1))
        return pb_error_set(err, PB_EINVAL, "--target-drop", 0, 0,
                            "%g: expected a drop rate in [0, 1]", target);
    double d, mean;
    int rc;
    if ((rc = drop_unbounded(m, s, &d, &mean)) != PB_OK)
        return replay_fail(rc, err);
    if (d > target)
        return pb_error_set(err, PB_EINVAL, "--target-drop", 0, 0,
                            "%g is out of reach: with an unbounded capture rate "
                            "the other losses (random, burst, uncovered nodes) "
                            "already drop %.6g; expected a target >= that",
                            target, d);
    /* bracket: lo drops too much (or is 0), hi is good enough.  Start at
     * the power of two nearest the mean message rate, where the answer
     * usually is (a few replays instead of doubling up from 1/s). */
    double lo = 0, hi = 1, dlo = 1, dhi = d;
    if (mean > 1)
        hi = ldexp(1.0, (int)lround(log2(mean)));
    for (;;) {
        if ((rc = drop_at(m, s, hi, &d)) != PB_OK)
            return replay_fail(rc, err);
        if (d <= target) {
            dhi = d;
            while (lo == 0 && hi > SNIFF_RATE_MIN) {
                if ((rc = drop_at(m, s, hi / 2, &d)) != PB_OK)
                    return replay_fail(rc, err);
                if (d > target) {
                    lo = hi / 2;
                    dlo = d;
                } else {
                    hi /= 2;
                    dhi = d;
                }
            }
            break;
        }
        lo = hi;
        dlo = d;
        hi *= 2;
        if (hi > 1e15)
            return pb_error_set(err, PB_EINVAL, "--target-drop", 0, 0,
                                "no capture rate up to 1e15 messages/s reaches "
                                "drop rate %g (messages arriving at the same "
                                "instant overflow the queue at any rate: a "
                                "longer --queue is needed)", target);
    }
    /* lo == 0 here means even SNIFF_RATE_MIN is good enough: the queue
     * holds every burst, and any positive rate will do.  Otherwise narrow
     * [lo, hi] to 1e-6 relative: a step interpolates where the drop rate
     * crosses the target (kept 1/16 away from the ends), and a bisection
     * follows any step that did not halve the bracket, so the search is
     * never slower than about twice plain bisection. */
    int interp = 1;
    while (lo > 0 && hi - lo > 1e-6 * hi) {
        double w = hi - lo, mid = lo + w / 2;
        if (interp && dlo > dhi) {
            double f = (dlo - target) / (dlo - dhi);
            if (f < 1.0 / 16)
                f = 1.0 / 16;
            if (f > 15.0 / 16)
                f = 15.0 / 16;
            mid = lo + w * f;
        }
        if ((rc = drop_at(m, s, mid, &d)) != PB_OK)
            return replay_fail(rc, err);
        if (d <= target) {
            hi = mid;
            dhi = d;
        } else {
            lo = mid;
            dlo = d;
        }
        interp = !interp || hi - lo <= w / 2;
    }
    sniff_set_rate(m, hi);
    *rate_out = hi;
    return PB_OK;
}
