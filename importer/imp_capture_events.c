/*
 * imp_capture_events.c - the event files of bin/pbcapture (docs/capture.md
 * "Event files"): one line per event,
 *
 *   TS_NS PID TID FD OP BYTES LOCAL REMOTE PAYLOAD_HEX
 *
 * after a "# pbcapture 1 pid=... tid=... name=... ..." line.  Events of
 * every file are sorted by time, then each descriptor's lifetime (connect
 * or accept to close) is matched to a connection: the k-th lifetime of a
 * 4-tuple seen from the client side is instance k of that connection, as
 * is the k-th seen from the server side.
 */
#include "imp_capture_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_files.h"
#include "pb_strbuf.h"
#include "pb_sort.h"

#define MAX_LINE (256 * 1024)

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

static int add_proc(cap *c, const char *name, long pid, uint32_t *out)
{
    char key[300];
    int l = snprintf(key, sizeof key, "%s\t%ld", name, pid);
    uint32_t i;
    if (pb_strtab_intern(c->procs, key, (size_t)l, &i) != PB_OK)
        return PB_ENOMEM;
    if (i + 1 > c->st.processes) {
        char **nn = realloc(c->proc_name, (i + 1) * sizeof *nn);
        if (!nn)
            return PB_ENOMEM;
        c->proc_name = nn;
        nn[i] = NULL;
        c->st.processes = i + 1;
    }
    *out = i + 1;
    return PB_OK;
}

/* One line of fp into line (room for MAX_LINE + 1 bytes and a NUL), its
 * newline dropped: 1, or 0 at the end of the file.  *len: its bytes
 * (more than MAX_LINE: too long, the rest unread); *nul: the column of its
 * first NUL byte, or 0.  fgets hid a NUL (strlen stopped there): the rest
 * of the line was lost, or the line was said to be "longer than 262144
 * bytes". */
static int read_line(FILE *fp, char *line, size_t *len, size_t *nul)
{
    size_t n = 0;
    int ch;
    *nul = 0;
    while ((ch = getc_unlocked(fp)) != EOF && ch != '\n') {
        if (!ch && !*nul)
            *nul = n + 1;
        line[n++] = (char)ch;
        if (n > MAX_LINE)
            break;
    }
    line[n] = 0;
    *len = n;
    return ch != EOF || n > 0;
}

/* the next space-separated field of line at *pos */
static int field(const char *line, size_t len, size_t *pos, const char **f, size_t *fl)
{
    size_t p = *pos;
    while (p < len && line[p] == ' ')
        p++;
    if (p >= len)
        return 0;
    size_t s = p;
    while (p < len && line[p] != ' ')
        p++;
    *f = line + s;
    *fl = p - s;
    *pos = p;
    return 1;
}

static int parse_i64(const char *f, size_t l, int64_t *out)
{
    if (!l || l > 19)
        return 0;
    int neg = f[0] == '-';
    int64_t v = 0;
    for (size_t i = neg; i < l; i++) {
        if (f[i] < '0' || f[i] > '9')
            return 0;
        /* 19 digits pass 2^63: refused, never wrapped (a wrapped time or
         * descriptor was read as another one without a word) */
        if (v > (INT64_MAX - (f[i] - '0')) / 10)
            return 0;
        v = v * 10 + (f[i] - '0');
    }
    if (neg && l == 1)
        return 0;
    *out = neg ? -v : v;
    return 1;
}

int cap_read_events(cap *c, const char *path, pb_error *err)
{
    /* checked against the run's outputs (pb_files.h), close-on-exec */
    FILE *fp = pb_files_open(path, err);
    if (!fp)
        return err->code;
    char *line = malloc(MAX_LINE + 2);
    unsigned char *pay = malloc(MAX_LINE / 2 + 1);
    if (!line || !pay) {
        free(line);
        free(pay);
        fclose(fp);
        return pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
    }
    long ln = 0;
    uint32_t proc = 0;
    int rc = PB_OK, have_last = 0;
    pb_ns last_ts = 0;
    size_t len, nul;
    /* what this file adds, to take back if it is a copy of one read
     * before (below), and the hash of its lines */
    size_t nevs0 = c->nevs, nbytes0 = c->nbytes;
    uint64_t events0 = c->st.events, evback0 = c->evback, hash = 1469598103934665603ULL;
    pb_ns evback_max0 = c->evback_max;
    while (rc == PB_OK && read_line(fp, line, &len, &nul)) {
        ln++;
        if (len > MAX_LINE) {
            rc = pb_error_set(err, PB_EPARSE, path, ln, 0,
                              "line longer than %d bytes; expected an event line", MAX_LINE);
            break;
        }
        /* a file that passed through Windows (CRLF): before, the
         * carriage return stuck to the last field, and "-\r" was
         * "field 9: expected hex digits, got \"-\"" */
        if (len && line[len - 1] == '\r')
            line[--len] = 0;
        for (size_t k = 0; k < len; k++) /* the lines' hash (a copy read once) */
            hash = (hash ^ (unsigned char)line[k]) * 1099511628211ULL;
        hash = (hash ^ 0x0a) * 1099511628211ULL;
        if (nul) {
            rc = pb_error_set(err, PB_EPARSE, path, ln, (long)nul,
                              "a NUL byte; expected text (pbcapture writes none: the file "
                              "is damaged, or not an event file)");
            break;
        }
        if (ln == 1) {
            char name[200] = "";
            long pid = -1;
            const char *pn = strstr(line, " name="), *pp = strstr(line, " pid=");
            if (strncmp(line, "# pbcapture 1", 13) || !pn || !pp) {
                rc = pb_error_set(err, PB_EPARSE, path, 1, 1,
                                  "expected \"# pbcapture 1 pid=... tid=... name=...\" "
                                  "(a file written by pbcapture)");
                break;
            }
            sscanf(pn + 6, "%199s", name);
            /* the process id names the process (with the name) and its
             * threads' labels "PID/TID": read with strtol unchecked, two
             * pids past 2^63 both became LONG_MAX (one process), and a
             * pid that is no number became 0 */
            const char *pv = pp + 5;
            size_t pl = strcspn(pv, " \t\r");
            int64_t pid64;
            if (!parse_i64(pv, pl, &pid64) || pid64 < 0 || pid64 > INT_MAX) {
                rc = pb_error_set(err, PB_EPARSE, path, 1, (long)(pv - line) + 1,
                                  "expected pid=PID, a process id from 0 to 2147483647, "
                                  "got \"%.*s\"", (int)(pl > 30 ? 30 : pl), pv);
                break;
            }
            pid = (long)pid64;
            if ((rc = add_proc(c, name, pid, &proc)) != PB_OK) {
                pb_error_set(err, rc, path, ln, 0, "out of memory");
                break;
            }
            continue;
        }
        if (!len || line[0] == '#')
            continue;
        static const char *what[] = {"TS_NS (nanoseconds below 2^63)", "PID", "TID",
                                     "FD (0 to 2147483647)", "OP",
                                     "BYTES (a count from 0)", "LOCAL (IP:PORT)", "REMOTE (IP:PORT)",
                                     "PAYLOAD (hex or -)"};
        const char *f[9];
        size_t fl[9], pos = 0, starts[9];
        int nf = 0;
        while (nf < 9) {
            size_t before = pos;
            while (before < len && line[before] == ' ')
                before++;
            if (!field(line, len, &pos, &f[nf], &fl[nf]))
                break;
            starts[nf] = before;
            nf++;
        }
        if (nf < 9) {
            rc = pb_error_set(err, PB_EPARSE, path, ln, (long)len + 1,
                              "expected field %d, %s; got the end of the line", nf + 1,
                              what[nf]);
            break;
        }
        /* a tenth field was never looked at: a payload with a blank in it
         * ("4745 5420...") lost every byte after the blank, two lines
         * joined lost the second, without a word */
        {
            size_t xp = pos, at = pos;
            const char *x;
            size_t xl;
            while (at < len && line[at] == ' ')
                at++;
            if (field(line, len, &xp, &x, &xl)) {
                rc = pb_error_set(err, PB_EPARSE, path, ln, (long)at + 1,
                                  "field 10: got \"%.*s\" after the 9 fields (TS_NS PID TID "
                                  "FD OP BYTES LOCAL REMOTE PAYLOAD_HEX); expected the end "
                                  "of the line (a payload with a blank in it, or two lines "
                                  "joined?)", (int)(xl > 30 ? 30 : xl), x);
                break;
            }
        }
        cap_ev e;
        memset(&e, 0, sizeof e);
        int64_t v[6];
        int k;
        for (k = 0; k < 6; k++) {
            if (k == 4)
                continue;
            /* a descriptor is an int: one past it was cut to its low 32
             * bits, so descriptor 4294967299 became descriptor 3 and its
             * connection merged with another */
            /* a negative time or byte count (TS_NS -5, BYTES -1) was
             * taken: a time before 1970 written, a count of -1 read as 0 */
            if (!parse_i64(f[k], fl[k], &v[k]) || v[k] < 0 ||
                (k == 3 && v[k] > INT_MAX)) {
                rc = pb_error_set(err, PB_EPARSE, path, ln, (long)starts[k] + 1,
                                  "field %d: expected %s, got \"%.*s\"", k + 1, what[k],
                                  (int)(fl[k] > 30 ? 30 : fl[k]), f[k]);
                break;
            }
        }
        if (rc != PB_OK)
            break;
        e.ts = v[0];
        /* one thread writes a file, in the order of its calls: a stamp
         * before the one before it is its clock (CLOCK_REALTIME) stepped
         * back.  The events are merged by their stamps, so such a file's
         * response came out before its request without a word: counted
         * and said (capture: backward) */
        if (have_last && e.ts < last_ts) {
            if (!c->evback++) {
                c->evback_first = ln;
                snprintf(c->evback_msg, sizeof c->evback_msg, "%s", path);
            }
            if (last_ts - e.ts > c->evback_max)
                c->evback_max = last_ts - e.ts;
        }
        last_ts = e.ts;
        have_last = 1;
        e.pid = v[1];
        e.tid = v[2];
        e.fd = (int)v[3];
        e.bytes = v[5] > 0 ? (uint64_t)v[5] : 0;
        e.proc = proc;
        e.order = c->nevs;
        const char *op = f[4];
        size_t ol = fl[4];
#define IS(s) (ol == strlen(s) && !memcmp(op, s, ol))
        if (IS("accept"))
            e.op = CAP_OP_ACCEPT;
        else if (IS("connect"))
            e.op = CAP_OP_CONNECT;
        else if (IS("send"))
            e.op = CAP_OP_SEND;
        else if (IS("recv"))
            e.op = CAP_OP_RECV;
        else if (IS("eof"))
            e.op = CAP_OP_EOF;
        else if (IS("close"))
            e.op = CAP_OP_CLOSE;
        else if (ol > 4 && !memcmp(op, "dup:", 4)) {
            int64_t from;
            if (!parse_i64(op + 4, ol - 4, &from) || from < 0 || from > INT_MAX) {
                rc = pb_error_set(err, PB_EPARSE, path, ln, (long)starts[4] + 5,
                                  "expected dup:OLDFD, got \"%.*s\"", (int)ol, op);
                break;
            }
            e.op = CAP_OP_DUP;
            e.dupfrom = (int)from;
        } else {
            rc = pb_error_set(err, PB_EPARSE, path, ln, (long)starts[4] + 1,
                              "field 5: expected accept, connect, send, recv, eof, close "
                              "or dup:FD, got \"%.*s\"", (int)(ol > 30 ? 30 : ol), op);
            break;
        }
#undef IS
        e.local = e.remote = UINT32_MAX;
        if (!(fl[6] == 1 && f[6][0] == '-') && cap_ep(c, f[6], fl[6], &e.local) != PB_OK)
            rc = PB_ENOMEM;
        if (!(fl[7] == 1 && f[7][0] == '-') && cap_ep(c, f[7], fl[7], &e.remote) != PB_OK)
            rc = PB_ENOMEM;
        if (rc != PB_OK) {
            pb_error_set(err, rc, path, ln, 0, "out of memory");
            break;
        }
        /* payload */
        if (!(fl[8] == 1 && f[8][0] == '-')) {
            if (fl[8] % 2) {
                rc = pb_error_set(err, PB_EPARSE, path, ln, (long)starts[8] + 1,
                                  "field 9: an odd number of hex digits; expected bytes as hex");
                break;
            }
            for (size_t i = 0; i < fl[8] / 2; i++) {
                int hi = hexval(f[8][2 * i]), lo = hexval(f[8][2 * i + 1]);
                if (hi < 0 || lo < 0) {
                    rc = pb_error_set(err, PB_EPARSE, path, ln, (long)(starts[8] + 2 * i) + 1,
                                      "field 9: expected hex digits, got \"%.2s\"",
                                      f[8] + 2 * i);
                    break;
                }
                pay[i] = (unsigned char)(hi << 4 | lo);
            }
            if (rc != PB_OK)
                break;
            e.plen = (uint32_t)(fl[8] / 2);
            if (e.plen > e.bytes) {
                rc = pb_error_set(err, PB_EPARSE, path, ln, (long)starts[8] + 1,
                                  "field 9: %u payload bytes for a transfer of %llu; "
                                  "expected at most BYTES", e.plen,
                                  (unsigned long long)e.bytes);
                break;
            }
        }
        /* keep the payload in the byte arena now; segments point at it */
        if (c->nbytes + e.plen > c->bytecap) {
            size_t nc = c->bytecap ? c->bytecap * 2 : 1 << 16;
            while (nc < c->nbytes + e.plen)
                nc *= 2;
            unsigned char *nb = realloc(c->bytes, nc);
            if (!nb) {
                rc = pb_error_set(err, PB_ENOMEM, path, ln, 0, "out of memory");
                break;
            }
            c->bytes = nb;
            c->bytecap = nc;
        }
        e.poff = c->nbytes;
        if (e.plen) {
            memcpy(c->bytes + c->nbytes, pay, e.plen);
            c->nbytes += e.plen;
        }
        if (c->nevs == c->evcap) {
            size_t nc = c->evcap ? c->evcap * 2 : 1024;
            cap_ev *ne = realloc(c->evs, nc * sizeof *ne);
            if (!ne) {
                rc = pb_error_set(err, PB_ENOMEM, path, ln, 0, "out of memory");
                break;
            }
            c->evs = ne;
            c->evcap = nc;
        }
        c->evs[c->nevs++] = e;
        c->st.events++;
    }
    if (rc == PB_OK && ferror(fp))
        rc = pb_error_set(err, PB_EIO, path, 0, 0, "read error: %s", strerror(errno));
    if (rc == PB_OK && ln == 0)
        rc = pb_error_set(err, PB_EPARSE, path, 1, 1,
                          "empty file; expected \"# pbcapture 1 ...\"");
    /* a thread writes one file, and its header and stamps make it unlike
     * any other: a file whose lines are an earlier file's (the same file
     * or folder given twice, a copy beside it) is that thread again.
     * Before, its events were read twice: every request on it counted
     * twice (a second connection "#2"), without a word.  Now read once,
     * said (capture: events-twice) */
    if (rc == PB_OK && ln) {
        size_t k = 0;
        while (k < c->nevfiles && !(c->evfiles[k].hash == hash &&
                                    c->evfiles[k].lines == ln))
            k++;
        if (k < c->nevfiles) {
            c->nevs = nevs0;
            c->nbytes = nbytes0;
            c->st.events = events0;
            c->evback = evback0;
            c->evback_max = evback_max0;
            if (!c->evtwice++)
                snprintf(c->evtwice_msg, sizeof c->evtwice_msg, "%s, the same as %s",
                         path, c->evfiles[k].path);
        } else {
            if (c->nevfiles == c->evfcap) {
                size_t nc = c->evfcap ? 2 * c->evfcap : 16;
                void *nf = realloc(c->evfiles, nc * sizeof *c->evfiles);
                if (!nf)
                    rc = pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
                else {
                    c->evfiles = nf;
                    c->evfcap = nc;
                }
            }
            if (rc == PB_OK) {
                c->evfiles[c->nevfiles].hash = hash;
                c->evfiles[c->nevfiles].lines = ln;
                snprintf(c->evfiles[c->nevfiles].path, sizeof c->evfiles[0].path, "%s",
                         path);
                c->nevfiles++;
            }
        }
    }
    free(line);
    free(pay);
    fclose(fp);
    return rc;
}

static int cmp_ev(const void *a, const void *b)
{
    const cap_ev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* one descriptor of one process: the connection it is on, and its role */
typedef struct fdlife {
    int64_t pid;
    int fd;
    uint32_t conn;
    int role;          /* 0 client, 1 server */
    int live;
} fdlife;

/* The table of descriptors, indexed by (process, descriptor): a look-up
 * scanned every descriptor seen so far, so a capture of a server that
 * forks a process per connection (every connection another (pid, fd))
 * took time quadratic in its connections: 80,000 took 1.5 s, 400,000
 * about 40 s.  Keys are unique in the table. */
typedef struct fdtab {
    fdlife *t;
    size_t n, cap;
    cap_idx ix;
} fdtab;

typedef struct fdkey {
    const fdtab *tab;
    int64_t pid;
    int fd;
} fdkey;

static uint64_t fd_hash(int64_t pid, int fd)
{
    return cap_hash3((uint32_t)pid, (uint32_t)((uint64_t)pid >> 32), (uint32_t)fd);
}

static int fd_eq(const void *ctx, uint32_t i)
{
    const fdkey *k = ctx;
    return k->tab->t[i].pid == k->pid && k->tab->t[i].fd == k->fd;
}

static fdlife *find_fd(fdtab *ft, int64_t pid, int fd)
{
    fdkey k = {ft, pid, fd};
    uint32_t at = cap_idx_find(&ft->ix, fd_hash(pid, fd), fd_eq, &k);
    return at ? &ft->t[at - 1] : NULL;
}

/* a new entry for (pid, fd), not in the table yet (the table may move) */
static fdlife *new_fd(fdtab *ft, int64_t pid, int fd)
{
    if (ft->n == ft->cap) {
        size_t nc = ft->cap ? ft->cap * 2 : 64;
        fdlife *nn = realloc(ft->t, nc * sizeof *nn);
        if (!nn)
            return NULL;
        ft->t = nn;
        ft->cap = nc;
    }
    if (ft->n >= UINT32_MAX - 1 || cap_idx_add(&ft->ix, fd_hash(pid, fd), (uint32_t)ft->n) != PB_OK)
        return NULL;
    fdlife *f = &ft->t[ft->n++];
    memset(f, 0, sizeof *f);
    f->pid = pid;
    f->fd = fd;
    return f;
}

long cap_port(const char *ep)
{
    const char *colon = ep ? strrchr(ep, ':') : NULL;
    if (!colon)
        return -1;
    char *end;
    long p = strtol(colon + 1, &end, 10);
    return *end || p < 0 || p > 65535 ? -1 : p;
}

int cap_finish_events(cap *c, pb_error *err)
{
    if (c->nevs) /* evs is NULL without events: qsort may not take it */
        pb_sort(c->evs, c->nevs, sizeof *c->evs, cmp_ev);
    fdtab ft;
    memset(&ft, 0, sizeof ft);
    int rc = PB_OK;
    for (size_t i = 0; i < c->nevs && rc == PB_OK; i++) {
        cap_ev *e = &c->evs[i];
        fdlife *f = find_fd(&ft, e->pid, e->fd);
        if (e->op == CAP_OP_DUP) {
            fdlife *o = find_fd(&ft, e->pid, e->dupfrom);
            if (o && o->live) {
                if (!f) {
                    if (!(f = new_fd(&ft, e->pid, e->fd))) {
                        rc = PB_ENOMEM;
                        break;
                    }
                    o = find_fd(&ft, e->pid, e->dupfrom);
                }
                *f = *o;
                f->fd = e->fd;
            }
            continue;
        }
        if (e->local == UINT32_MAX || e->remote == UINT32_MAX)
            continue; /* an unconnected socket: nothing moves on it */
        int start = e->op == CAP_OP_ACCEPT || e->op == CAP_OP_CONNECT;
        if (start || !f || !f->live) {
            int role;
            int guess = 0;
            if (e->op == CAP_OP_ACCEPT)
                role = 1;
            else if (e->op == CAP_OP_CONNECT)
                role = 0;
            else {
                /* seen mid-stream: the side with the lower port serves */
                long lp = cap_port(pb_strtab_str(c->eps, e->local));
                long rp = cap_port(pb_strtab_str(c->eps, e->remote));
                role = lp >= 0 && rp >= 0 && lp < rp;
                guess = 1;
            }
            uint32_t client = role ? e->remote : e->local;
            uint32_t server = role ? e->local : e->remote;
            uint32_t conn;
            if ((rc = cap_conn(c, client, server, role, 1, &conn)) != PB_OK)
                break;
            if (!f && !(f = new_fd(&ft, e->pid, e->fd))) {
                rc = PB_ENOMEM;
                break;
            }
            f->pid = e->pid;
            f->fd = e->fd;
            f->conn = conn;
            f->role = role;
            f->live = 1;
            if (role)
                c->conns[conn].server_proc = e->proc;
            else
                c->conns[conn].client_proc = e->proc;
            c->conns[conn].role_guess |= guess;
            if (start)
                continue;
        }
        cap_seg s;
        memset(&s, 0, sizeof s);
        s.ts = e->ts;
        s.conn = f->conn;
        s.proc = e->proc;
        s.tidnum = e->tid;
        if (e->op == CAP_OP_SEND || e->op == CAP_OP_RECV) {
            int send = e->op == CAP_OP_SEND;
            s.dir = (uint8_t)((f->role == 0) == send ? CAP_C2S : CAP_S2C);
            s.view = (uint8_t)(send ? CAP_SENDER : CAP_RECEIVER);
            s.kind = CAP_DATA;
            s.bytes = e->bytes;
            s.plen = e->plen;
            s.poff = e->poff;
            /* the payload is already in the arena: add without copying */
            if ((rc = cap_add_seg(c, &s, NULL)) != PB_OK)
                break;
        } else if (e->op == CAP_OP_EOF || e->op == CAP_OP_CLOSE) {
            /* the end of what this side reads, and (close) of what it writes */
            s.kind = CAP_END;
            s.dir = (uint8_t)(f->role == 0 ? CAP_S2C : CAP_C2S);
            s.view = CAP_RECEIVER;
            if ((rc = cap_add_seg(c, &s, NULL)) != PB_OK)
                break;
            if (e->op == CAP_OP_CLOSE) {
                s.dir = (uint8_t)(f->role == 0 ? CAP_C2S : CAP_S2C);
                s.view = CAP_SENDER;
                if ((rc = cap_add_seg(c, &s, NULL)) != PB_OK)
                    break;
                f->live = 0;
            }
        }
    }
    free(ft.t);
    cap_idx_free(&ft.ix);
    if (rc == PB_ENOMEM)
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return rc;
}
