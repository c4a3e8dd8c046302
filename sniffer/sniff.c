#include "sniff.h"

#include <errno.h>
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

typedef struct sniffer {
    sniff_params p;
    int all;               /* covers every node */
    unsigned char *covers; /* per node index */
    size_t ncovers;
    uint32_t *listed;      /* node indices named in the list */
    size_t nlisted;
    gsl_rng *rng;
    unsigned long rng_seed;
    int bad;               /* Gilbert-Elliott state */
    double service;        /* ns per capture */
    double *dep;           /* ring of departure times, ns after base */
    size_t head, count;
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
        free(m->s[i].covers);
        free(m->s[i].listed);
        free(m->s[i].dep);
        if (m->s[i].rng)
            gsl_rng_free(m->s[i].rng);
    }
    free(m->s);
    free(m->node_seen);
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

static int cover(sniffer *s, uint32_t idx)
{
    if (idx >= s->ncovers) {
        size_t nc = s->ncovers ? s->ncovers : 64;
        while (nc <= idx)
            nc *= 2;
        unsigned char *c = realloc(s->covers, nc);
        if (!c)
            return PB_ENOMEM;
        memset(c + s->ncovers, 0, nc - s->ncovers);
        s->covers = c;
        s->ncovers = nc;
    }
    s->covers[idx] = 1;
    return PB_OK;
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
    s->dep = malloc((size_t)p->queue * sizeof *s->dep);
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
    if (!nodes || !strcmp(nodes, "*")) {
        s->all = 1;
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
                cover(s, idx) != PB_OK) {
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
    sniff_reset(m);
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
    for (size_t i = 0; i < m->n; i++) {
        sniffer *s = &m->s[i];
        gsl_rng_set(s->rng, s->rng_seed);
        s->bad = 0;
        s->head = s->count = 0;
        s->last_dep = -INFINITY;
        s->service = service_ns(s->p.rate);
    }
    m->have_base = 0;
    memset(&m->st, 0, sizeof m->st);
}

enum { TAKE_KEEP = 0, TAKE_RANDOM, TAKE_BURST, TAKE_QUEUE };

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
    size_t cap = (size_t)s->p.queue;
    while (s->count && s->dep[s->head] <= t) {
        s->head = (s->head + 1) % cap;
        s->count--;
    }
    if (s->count == cap)
        return TAKE_QUEUE;
    double start = t > s->last_dep ? t : s->last_dep;
    s->last_dep = start + s->service;
    s->dep[(s->head + s->count) % cap] = s->last_dep;
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

static int covers(const sniffer *s, uint32_t idx)
{
    return s->all || (idx < s->ncovers && s->covers[idx]);
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
    for (size_t i = 0; i < m->n; i++) {
        sniffer *s = &m->s[i];
        if (!covers(s, msg->src) && !covers(s, msg->dst))
            continue;
        int r = sniffer_take(s, t);
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

/* ------------------------------------------------------------------ */
/* spool */

typedef struct spool_rec {
    pb_msg m;
    pb_truth t;
} spool_rec;

struct sniff_spool {
    FILE *fp;
    size_t n;
    char *buf;
};

int sniff_spool_open(sniff_spool **out, pb_error *err)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t l = strlen(dir) + 32;
    char *path = malloc(l);
    sniff_spool *s = calloc(1, sizeof *s);
    if (!path || !s) {
        free(path);
        free(s);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    snprintf(path, l, "%s/sniffer.XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        int e = errno;
        free(s);
        pb_error_set(err, PB_EIO, dir, 0, 0,
                     "cannot create a temporary file to hold the trace: %s "
                     "(set TMPDIR to a writable directory)", strerror(e));
        free(path);
        return PB_EIO;
    }
    unlink(path); /* gone when closed, whatever happens */
    free(path);
    s->fp = fdopen(fd, "w+b");
    s->buf = malloc(1 << 20);
    if (!s->fp || !s->buf) {
        if (s->fp)
            fclose(s->fp);
        else
            close(fd);
        free(s->buf);
        free(s);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    setvbuf(s->fp, s->buf, _IOFBF, 1 << 20);
    *out = s;
    return PB_OK;
}

int sniff_spool_add(sniff_spool *s, const pb_msg *m, const pb_truth *t)
{
    spool_rec r;
    memset(&r, 0, sizeof r);
    r.m = *m;
    r.t = t ? *t : (pb_truth){PB_ID_NONE, PB_ID_NONE};
    if (fwrite(&r, sizeof r, 1, s->fp) != 1)
        return PB_EIO;
    s->n++;
    return PB_OK;
}

int sniff_spool_rewind(sniff_spool *s)
{
    if (fflush(s->fp) != 0 || fseek(s->fp, 0, SEEK_SET) != 0)
        return PB_EIO;
    return PB_OK;
}

int sniff_spool_next(sniff_spool *s, pb_msg *m, pb_truth *t)
{
    spool_rec r;
    if (fread(&r, sizeof r, 1, s->fp) != 1)
        return ferror(s->fp) ? PB_EIO : 0;
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
    fclose(s->fp);
    free(s->buf);
    free(s);
}

int sniff_replay(sniff_model *m, sniff_spool *s, sniff_stats *out)
{
    sniff_reset(m);
    if (sniff_spool_rewind(s) != PB_OK)
        return PB_EIO;
    pb_msg msg;
    int got;
    while ((got = sniff_spool_next(s, &msg, NULL)) == 1)
        sniff_decide(m, &msg);
    if (got < 0)
        return PB_EIO;
    sniff_stats_get(m, out);
    return PB_OK;
}

static int drop_at(sniff_model *m, sniff_spool *s, double rate, double *drop)
{
    sniff_set_rate(m, rate);
    sniff_stats st;
    if (sniff_replay(m, s, &st) != PB_OK)
        return PB_EIO;
    *drop = sniff_drop_rate(&st);
    return PB_OK;
}

int sniff_target_rate(sniff_model *m, sniff_spool *s, double target,
                      double *rate_out, pb_error *err)
{
    if (!(target >= 0 && target <= 1))
        return pb_error_set(err, PB_EINVAL, "--target-drop", 0, 0,
                            "%g: expected a drop rate in [0, 1]", target);
    double d;
    if (drop_at(m, s, 0, &d) != PB_OK)
        return pb_error_set(err, PB_EIO, NULL, 0, 0, "cannot read the spooled trace");
    if (d > target)
        return pb_error_set(err, PB_EINVAL, "--target-drop", 0, 0,
                            "%g is out of reach: with an unbounded capture rate "
                            "the other losses (random, burst, uncovered nodes) "
                            "already drop %.6g; expected a target >= that",
                            target, d);
    /* bracket: lo drops too much (or is 0), hi is good enough */
    double lo = 0, hi = 1;
    for (;;) {
        if (drop_at(m, s, hi, &d) != PB_OK)
            return pb_error_set(err, PB_EIO, NULL, 0, 0, "cannot read the spooled trace");
        if (d <= target) {
            while (lo == 0 && hi > SNIFF_RATE_MIN) {
                if (drop_at(m, s, hi / 2, &d) != PB_OK)
                    return pb_error_set(err, PB_EIO, NULL, 0, 0,
                                        "cannot read the spooled trace");
                if (d > target)
                    lo = hi / 2;
                else
                    hi /= 2;
            }
            break;
        }
        lo = hi;
        hi *= 2;
        if (hi > 1e15)
            return pb_error_set(err, PB_EINVAL, "--target-drop", 0, 0,
                                "no capture rate up to 1e15 messages/s reaches "
                                "drop rate %g (messages arriving at the same "
                                "instant overflow the queue at any rate: a "
                                "longer --queue is needed)", target);
    }
    /* lo == 0 here means even SNIFF_RATE_MIN is good enough: the queue
     * holds every burst, and any positive rate will do */
    while (lo > 0 && hi - lo > 1e-6 * hi) {
        double mid = lo + (hi - lo) / 2;
        if (drop_at(m, s, mid, &d) != PB_OK)
            return pb_error_set(err, PB_EIO, NULL, 0, 0, "cannot read the spooled trace");
        if (d <= target)
            hi = mid;
        else
            lo = mid;
    }
    sniff_set_rate(m, hi);
    *rate_out = hi;
    return PB_OK;
}
