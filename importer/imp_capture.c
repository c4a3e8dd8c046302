/*
 * imp_capture.c - captures of running programs to a trace (imp_capture.h;
 * docs/capture.md).  The sources (pbcapture event files, pcap files) are
 * read into segments; everything after that is one path.
 */
#include "imp_capture.h"
#include "imp_capture_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pb_hash.h"
#include "pb_strbuf.h"
#include "pb_sort.h"

/* ------------------------------------------------------------------ */
/* the capture being built */

int cap_init(cap *c)
{
    memset(c, 0, sizeof *c);
    if (pb_strtab_init(&c->eps) != PB_OK || pb_strtab_init(&c->procs) != PB_OK)
        return PB_ENOMEM;
    return PB_OK;
}

void cap_free(cap *c)
{
    pb_strtab_close(c->eps);
    pb_strtab_close(c->procs);
    free(c->evs);
    free(c->segs);
    free(c->bytes);
    free(c->conns);
    free(c->lives);
    cap_idx_free(&c->conn_idx);
    cap_idx_free(&c->life_idx);
    cap_pcap_free(c);
    free(c->evfiles);
    free(c->proc_name);
    for (size_t i = 0; i < c->nnotes; i++)
        free(c->notes[i]);
    free(c->notes);
}

int cap_ep(cap *c, const char *s, size_t n, uint32_t *out)
{
    return pb_strtab_intern(c->eps, s, n, out);
}

uint64_t cap_hash3(uint32_t a, uint32_t b, uint32_t c3)
{
    return pb_mix64(((uint64_t)a << 32 | b) ^ pb_mix64((uint64_t)c3 + 1));
}

uint32_t cap_idx_find(const cap_idx *m, uint64_t h,
                      int (*eq)(const void *ctx, uint32_t i), const void *ctx)
{
    if (!m->cap)
        return 0;
    for (size_t k = (size_t)h & (m->cap - 1); m->slot[k]; k = (k + 1) & (m->cap - 1))
        if (m->hash[k] == h && eq(ctx, m->slot[k] - 1))
            return m->slot[k];
    return 0;
}

static void idx_place(cap_idx *m, uint64_t h, uint32_t slotval)
{
    size_t k = (size_t)h & (m->cap - 1);
    while (m->slot[k])
        k = (k + 1) & (m->cap - 1);
    m->slot[k] = slotval;
    m->hash[k] = h;
}

int cap_idx_add(cap_idx *m, uint64_t h, uint32_t i)
{
    if (2 * (m->n + 1) > m->cap) {
        cap_idx g = {0};
        g.cap = m->cap ? 2 * m->cap : 64;
        g.slot = calloc(g.cap, sizeof *g.slot);
        g.hash = malloc(g.cap * sizeof *g.hash);
        if (!g.slot || !g.hash) {
            free(g.slot);
            free(g.hash);
            return PB_ENOMEM;
        }
        for (size_t k = 0; k < m->cap; k++)
            if (m->slot[k])
                idx_place(&g, m->hash[k], m->slot[k]);
        g.n = m->n;
        cap_idx_free(m);
        *m = g;
    }
    idx_place(m, h, i + 1);
    m->n++;
    return PB_OK;
}

void cap_idx_free(cap_idx *m)
{
    free(m->slot);
    free(m->hash);
    memset(m, 0, sizeof *m);
}

/* a look-up key of cap_conn: the array and the fields compared */
typedef struct conn_key {
    const cap *c;
    uint32_t client, server, third;
} conn_key;

static int life_eq(const void *ctx, uint32_t i)
{
    const conn_key *k = ctx;
    const cap_life *l = &k->c->lives[i];
    return l->client == k->client && l->server == k->server && l->role == (int)k->third;
}

static int conn_eq(const void *ctx, uint32_t i)
{
    const conn_key *k = ctx;
    const cap_conn_t *x = &k->c->conns[i];
    return x->client == k->client && x->server == k->server && x->inst == k->third;
}

/* the connection instance of (client, server) and role's lifetime number
 * (each key is unique in its array: found through the indexes) */
int cap_conn(cap *c, uint32_t client, uint32_t server, int role, int start,
             uint32_t *out)
{
    /* lifetimes per (client, server, role): the k-th lifetime seen from a
     * role is instance k of the connection */
    conn_key key = {c, client, server, (uint32_t)role};
    uint64_t h = cap_hash3(client, server, (uint32_t)role);
    uint32_t at = cap_idx_find(&c->life_idx, h, life_eq, &key);
    cap_life *lf = at ? &c->lives[at - 1] : NULL;
    if (!lf) {
        if (c->nlives == c->livecap) {
            size_t nc = c->livecap ? 2 * c->livecap : 64;
            cap_life *nl = realloc(c->lives, nc * sizeof *nl);
            if (!nl)
                return PB_ENOMEM;
            c->lives = nl;
            c->livecap = nc;
        }
        if (cap_idx_add(&c->life_idx, h, (uint32_t)c->nlives) != PB_OK)
            return PB_ENOMEM;
        lf = &c->lives[c->nlives++];
        lf->client = client;
        lf->server = server;
        lf->role = role;
        lf->count = 0;
        start = 1;
    }
    if (start)
        lf->count++;
    uint32_t inst = lf->count;
    key.third = inst;
    h = cap_hash3(client, server, inst);
    at = cap_idx_find(&c->conn_idx, h, conn_eq, &key);
    if (at) {
        *out = at - 1;
        return PB_OK;
    }
    if (c->nconns == c->conncap) {
        size_t nc = c->conncap ? 2 * c->conncap : 64;
        cap_conn_t *ncs = realloc(c->conns, nc * sizeof *ncs);
        if (!ncs)
            return PB_ENOMEM;
        c->conns = ncs;
        c->conncap = nc;
    }
    if (cap_idx_add(&c->conn_idx, h, (uint32_t)c->nconns) != PB_OK)
        return PB_ENOMEM;
    memset(&c->conns[c->nconns], 0, sizeof *c->conns);
    c->conns[c->nconns].client = client;
    c->conns[c->nconns].server = server;
    c->conns[c->nconns].inst = inst;
    c->conns[c->nconns].path = c->cur_path;
    *out = (uint32_t)c->nconns++;
    return PB_OK;
}

int cap_add_seg(cap *c, const cap_seg *s, const unsigned char *payload)
{
    if (c->nsegs == c->segcap) {
        size_t nc = c->segcap ? c->segcap * 2 : 1024;
        cap_seg *ns = realloc(c->segs, nc * sizeof *ns);
        if (!ns)
            return PB_ENOMEM;
        c->segs = ns;
        c->segcap = nc;
    }
    if (payload && c->nbytes + s->plen > c->bytecap) {
        size_t nc = c->bytecap ? c->bytecap * 2 : 1 << 16;
        while (nc < c->nbytes + s->plen)
            nc *= 2;
        unsigned char *nb = realloc(c->bytes, nc);
        if (!nb)
            return PB_ENOMEM;
        c->bytes = nb;
        c->bytecap = nc;
    }
    cap_seg *d = &c->segs[c->nsegs];
    *d = *s;
    d->order = c->nsegs;
    if (payload) {
        d->poff = c->nbytes;
        if (s->plen) {
            memcpy(c->bytes + c->nbytes, payload, s->plen);
            c->nbytes += s->plen;
        }
    }
    c->nsegs++;
    c->st.segments++;
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* detection */

static int has_events(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        found = l > 7 && !strcmp(e->d_name + l - 7, ".events");
    }
    closedir(d);
    return found;
}

int imp_capture_detect(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return 0;
    if (S_ISDIR(sb.st_mode))
        return has_events(path);
    FILE *f = fopen(path, "rbe"); /* a peek: close-on-exec */
    if (!f)
        return 0;
    unsigned char m[16];
    size_t n = fread(m, 1, sizeof m, f);
    fclose(f);
    if (n >= 4 && (!memcmp(m, "\xd4\xc3\xb2\xa1", 4) || !memcmp(m, "\xa1\xb2\xc3\xd4", 4) ||
                   !memcmp(m, "\x4d\x3c\xb2\xa1", 4) || !memcmp(m, "\xa1\xb2\x3c\x4d", 4) ||
                   !memcmp(m, "\x0a\x0d\x0d\x0a", 4)))
        return 2;
    return n >= 13 && !memcmp(m, "# pbcapture 1", 13) ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* the load */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the event files of a folder, sorted by name */
static int read_folder(cap *c, const char *dir, pb_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return pb_error_set(err, PB_EIO, dir, 0, 0, "cannot open folder: %s", strerror(errno));
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    int rc = PB_OK;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= 7 || strcmp(e->d_name + l - 7, ".events"))
            continue;
        char **nn = realloc(names, (n + 1) * sizeof *nn);
        pb_strbuf b = {0};
        if (!nn || pb_strbuf_printf(&b, "%s/%s", dir, e->d_name) != PB_OK) {
            free(nn ? nn : names);
            names = NULL;
            n = 0;
            pb_strbuf_free(&b);
            rc = pb_error_set(err, PB_ENOMEM, dir, 0, 0, "out of memory");
            break;
        }
        names = nn;
        names[n++] = pb_strbuf_take(&b);
    }
    closedir(d);
    if (rc == PB_OK && !n)
        rc = pb_error_set(err, PB_EINVAL, dir, 0, 0,
                          "no .events files; expected a folder written by pbcapture -o");
    if (n)
        pb_sort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n && rc == PB_OK; i++)
        rc = cap_read_events(c, names[i], err);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

typedef struct file_at {
    pb_ns ts;
    size_t i;
} file_at;

static int cmp_file_at(const void *x, const void *y)
{
    const file_at *a = x, *b = y;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* order[0..n): the paths in the order to read them -- as given, unless all
 * are packet capture files, then by their first packets' stamps (a file
 * without a packet first; ties as given) */
static void file_order(cap *c, const char *const *paths, size_t n, size_t *order)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    file_at *fa = malloc(n * sizeof *fa);
    if (!fa)
        return;
    for (size_t i = 0; i < n; i++) {
        fa[i].i = i;
        fa[i].ts = INT64_MIN;
        if (imp_capture_detect(paths[i]) != 2) {
            free(fa);
            return;
        }
        pb_ns t;
        if (cap_pcap_first(paths[i], &t))
            fa[i].ts = t;
    }
    pb_sort(fa, n, sizeof *fa, cmp_file_at);
    size_t moved = 0, first = n;
    for (size_t i = 0; i < n; i++) {
        order[i] = fa[i].i;
        if (fa[i].i != i) {
            moved++;
            if (first == n)
                first = i;
        }
    }
    if (moved) {
        c->order_moved = moved;
        c->order_n = n;
        snprintf(c->order_msg, sizeof c->order_msg, "%s read before %s",
                 paths[order[first]], paths[first]);
    }
    free(fa);
}

int imp_capture_load(const char *const *paths, size_t n,
                     const imp_capture_opts *opts, pb_trace **out,
                     imp_capture_stats *st, pb_error *err)
{
    *out = NULL;
    if (st) /* defined on every path (the error paths too) */
        memset(st, 0, sizeof *st);
    imp_capture_opts dflt = {"traceparent", NULL, NULL};
    if (!opts)
        opts = &dflt;
    cap c;
    if (cap_init(&c) != PB_OK) {
        cap_free(&c);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    c.opts = opts;
    int rc = PB_OK, kinds = 0;
    /* packet captures in several files are read in the order of their
     * first packets' stamps: the TCP flows go on from file to file
     * (cap_read_pcap), so a rotated capture given by a glob (cap, cap1,
     * cap10, cap11, cap2: the names sort out of time order) would read a
     * later file's bytes first (said: capture: file-order) */
    size_t *order = n > 1 ? malloc(n * sizeof *order) : NULL;
    if (n > 1 && !order) {
        cap_free(&c);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (order)
        file_order(&c, paths, n, order);
    for (size_t oi = 0; oi < n && rc == PB_OK; oi++) {
        size_t i = order ? order[oi] : oi;
        int k = imp_capture_detect(paths[i]);
        struct stat sb;
        c.cur_path = paths[i];
        if (!k)
            rc = pb_error_set(err, PB_EPARSE, paths[i], 0, 0,
                              "not a capture; expected a pbcapture folder or .events "
                              "file, or a pcap / pcapng file");
        else if (kinds && kinds != k)
            rc = pb_error_set(err, PB_EINVAL, paths[i], 0, 0,
                              "packet captures and pbcapture events cannot be mixed "
                              "(their clocks and nodes differ); expected one kind");
        else if (k == 2)
            rc = cap_read_pcap(&c, paths[i], err);
        else if (stat(paths[i], &sb) == 0 && S_ISDIR(sb.st_mode))
            rc = read_folder(&c, paths[i], err);
        else
            rc = cap_read_events(&c, paths[i], err);
        kinds = k;
    }
    free(order);
    c.st.pcap = kinds == 2;
    if (n > 1)
        c.cur_path = NULL;
    if (rc == PB_OK && kinds == 1)
        rc = cap_finish_events(&c, err);
    if (rc == PB_OK)
        rc = cap_build(&c, out, err);
    if (st)
        *st = c.st;
    cap_free(&c);
    return rc;
}
