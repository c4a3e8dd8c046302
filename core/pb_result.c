#include "pb_result.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include "pb_tmp.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int pb_result_init(pb_result *r, const char *algo, const char *view)
{
    memset(r, 0, sizeof *r);
    r->algo = algo;
    r->view = view;
    return pb_pattab_init(&r->patterns);
}

void pb_result_free(pb_result *r)
{
    if (!r)
        return;
    pb_pattab_close(r->patterns);
    free(r->assign);
    free(r->parent);
    free(r->conf);
    if (r->assign_spool)
        fclose(r->assign_spool);
    if (r->meta_spool)
        fclose(r->meta_spool);
    pb_strbuf_free(&r->meta);
    pb_strbuf_free(&r->dot);
    pb_strbuf_free(&r->report);
    memset(r, 0, sizeof *r);
}

int pb_result_spool_assign(pb_result *r)
{
    if (!r->assign_spool && !(r->assign_spool = pb_tmpfile("assign")))
        return PB_EIO;
    return PB_OK;
}

/* Append to w the lines of text[0..n) that begin with "warning: " (a line
 * begins at text's start or after a '\n'), joined by '\n' as meta joins
 * its lines. */
static int keep_warnings(pb_strbuf *w, const char *text, size_t n)
{
    static const char tag[] = "warning: ";
    const size_t tl = sizeof tag - 1;
    int rc = PB_OK;
    for (size_t i = 0; i < n && rc == PB_OK;) {
        const char *nl = memchr(text + i, '\n', n - i);
        size_t l = nl ? (size_t)(nl - (text + i)) : n - i;
        if (l >= tl && !memcmp(text + i, tag, tl)) {
            if (w->len)
                rc = pb_strbuf_putc(w, '\n');
            if (rc == PB_OK)
                rc = pb_strbuf_append(w, text + i, l);
        }
        i += l + 1;
    }
    return rc;
}

int pb_result_spool_meta(pb_result *r)
{
    if (r->meta_spool)
        return PB_OK;
    FILE *f = pb_tmpfile("meta");
    if (!f)
        return PB_EIO;
    if (r->meta.len && fwrite(r->meta.s, 1, r->meta.len, f) != r->meta.len) {
        fclose(f);
        return PB_EIO;
    }
    pb_strbuf w = {0};
    if (keep_warnings(&w, pb_strbuf_str(&r->meta), r->meta.len) != PB_OK) {
        pb_strbuf_free(&w);
        fclose(f);
        return PB_ENOMEM;
    }
    r->meta_spooled = r->meta.len;
    pb_strbuf_free(&r->meta);
    r->meta = w;
    r->meta_spool = f;
    return PB_OK;
}

/* A spooled row: the row and its link, always (the spool is on disk). */
typedef struct spool_row {
    pb_assign a;
    uint64_t parent;
    double conf;
} spool_row;

/* Make parent[] and conf[] hold n rows; rows added before they existed
 * get "none". */
static int grow_links(pb_result *r, size_t n)
{
    if (n <= r->link_cap)
        return PB_OK;
    size_t old = r->link_cap, cap = old ? old : 1024;
    while (cap < n)
        cap *= 2;
    uint64_t *p = realloc(r->parent, cap * sizeof *p);
    if (!p)
        return PB_ENOMEM;
    r->parent = p;
    double *c = realloc(r->conf, cap * sizeof *c);
    if (!c)
        return PB_ENOMEM;
    r->conf = c;
    for (size_t i = old; i < cap; i++) {
        p[i] = PB_NO_PARENT;
        c[i] = NAN;
    }
    r->link_cap = cap;
    return PB_OK;
}

static int add_row(pb_result *r, uint64_t msg_id, uint32_t instance,
                   uint32_t pattern, uint64_t parent, double conf)
{
    if (r->assign_spool) {
        spool_row s = {{msg_id, instance, pattern}, parent, conf};
        if (fwrite(&s, sizeof s, 1, r->assign_spool) != 1)
            return PB_EIO;
        r->nassign++;
        return PB_OK;
    }
    if (pb_grow(&r->assign, sizeof *r->assign, &r->assign_cap, r->nassign + 1, 1024) != PB_OK)
        return PB_ENOMEM;
    int links = r->parent || parent != PB_NO_PARENT || !isnan(conf);
    if (links && grow_links(r, r->nassign + 1) != PB_OK)
        return PB_ENOMEM;
    if (r->parent) {
        r->parent[r->nassign] = parent;
        r->conf[r->nassign] = conf;
    }
    r->assign[r->nassign++] = (pb_assign){msg_id, instance, pattern};
    return PB_OK;
}

int pb_result_assign(pb_result *r, uint64_t msg_id, uint64_t instance,
                     uint32_t pattern)
{
    if (instance >= PB_ABSTAIN)
        return PB_ERANGE;
    return add_row(r, msg_id, (uint32_t)instance, pattern, PB_NO_PARENT, NAN);
}

/* Confidences are kept to 6 decimals, as q / 10^6 with q an integer:
 * that division is correctly rounded, and so is strtod of the text
 * "0.qqqqqq" the writer prints, so the value compared with min_confidence
 * is exactly the one score reads back (score --coverage-curve reproduces
 * a run's abstentions from the file). */
static double round6(double v)
{
    if (isnan(v) || v == 1 || v == 0) /* the common cases, exact already */
        return v;
    return (double)llround(v * 1e6) / 1e6;
}

int pb_result_abstain(pb_result *r, uint64_t msg_id, double confidence)
{
    confidence = round6(confidence);
    if (!isnan(confidence) && !(confidence >= 0 && confidence <= 1))
        return PB_EINVAL;
    if (!isnan(confidence))
        r->has_conf = 1;
    int rc = add_row(r, msg_id, PB_ABSTAIN, UINT32_MAX, PB_NO_PARENT, confidence);
    if (rc == PB_OK)
        r->nabstain++;
    return rc;
}

int pb_result_assign_link(pb_result *r, uint64_t msg_id, uint64_t instance,
                          uint32_t pattern, uint64_t parent, double confidence)
{
    if (instance >= PB_ABSTAIN)
        return PB_ERANGE;
    confidence = round6(confidence);
    if (!isnan(confidence) && !(confidence >= 0 && confidence <= 1))
        return PB_EINVAL;
    r->has_parent = 1;
    if (!isnan(confidence) && r->min_confidence > 0 && confidence < r->min_confidence)
        return pb_result_abstain(r, msg_id, confidence);
    if (!isnan(confidence))
        r->has_conf = 1;
    if (!r->assign_spool && !r->parent && grow_links(r, r->nassign + 1) != PB_OK)
        return PB_ENOMEM;
    return add_row(r, msg_id, (uint32_t)instance, pattern, parent, confidence);
}

int pb_result_meta(pb_result *r, const char *fmt, ...)
{
    /* whole lines, however long: a trace's params line (copied as
     * "trace: params: ...") grows with the config's tracelets, and score
     * compares it with the trace's own */
    char buf[1024], *line = buf;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return PB_EINVAL;
    if ((size_t)n >= sizeof buf) {
        if (!(line = malloc((size_t)n + 1)))
            return PB_ENOMEM;
        va_start(ap, fmt);
        vsnprintf(line, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    int rc = PB_OK;
    if (r->meta_spool) {
        /* the bytes meta would get, to the file; its warnings kept */
        size_t l = strlen(line), sep = r->meta_spooled ? 1 : 0;
        if ((sep && fputc('\n', r->meta_spool) == EOF) ||
            fwrite(line, 1, l, r->meta_spool) != l)
            rc = PB_EIO;
        else
            r->meta_spooled += sep + l;
        if (rc == PB_OK)
            rc = keep_warnings(&r->meta, line, l);
    } else {
        if (r->meta.len)
            rc = pb_strbuf_putc(&r->meta, '\n');
        if (rc == PB_OK)
            rc = pb_strbuf_puts(&r->meta, line);
    }
    if (line != buf)
        free(line);
    return rc;
}

int pb_result_warn(pb_result *r, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return pb_result_meta(r, "warning: %s: %s", r->algo ? r->algo : "?", buf);
}

static void put_num(FILE *fp, double v)
{
    if (isnan(v))
        return;
    fprintf(fp, "%.9g", v);
}

static void put_means(FILE *fp, const double *sum, const double *w, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        if (k)
            fputc(';', fp);
        if (w[k] > 0)
            fprintf(fp, "%.9g", sum[k] / w[k]);
    }
}

void pb_fingerprint_names(const pb_strtab *nodes, uint32_t first, uint32_t nn, uint64_t *nh)
{
    /* FNV-1a of each node name */
    for (uint32_t k = first; k < nn; k++) {
        uint64_t h = 1469598103934665603ULL;
        for (const unsigned char *c = (const unsigned char *)pb_strtab_str(nodes, k);
             c && *c; c++)
            h = (h ^ *c) * 1099511628211ULL;
        nh[k] = h;
    }
}

void pb_fingerprint_hashed(const pb_msg *msgs, size_t n, const uint64_t *nh, uint32_t nn,
                           pb_fingerprint *out)
{
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++) {
        const pb_msg *m = &msgs[i];
        uint64_t s = m->src < nn ? nh[m->src] : 0, d = m->dst < nn ? nh[m->dst] : 0;
        h += pb_mix64(pb_mix64(m->id ^ 0x9e3779b97f4a7c15ULL) ^ pb_mix64(s + 3 * d + m->type));
    }
    out->messages = n;
    out->ids = h;
}

int pb_fingerprint_of(const pb_msg *msgs, size_t n, const pb_strtab *nodes,
                      pb_fingerprint *out)
{
    /* each node name hashed once */
    uint32_t nn = pb_strtab_count(nodes);
    uint64_t *nh = malloc((nn ? nn : 1) * sizeof *nh);
    if (!nh)
        return PB_ENOMEM;
    pb_fingerprint_names(nodes, 0, nn, nh);
    pb_fingerprint_hashed(msgs, n, nh, nn, out);
    free(nh);
    return PB_OK;
}

char *pb_fingerprint_format(const pb_fingerprint *fp, char *buf, size_t n)
{
    snprintf(buf, n, "fingerprint: messages=%llu ids=%016llx",
             (unsigned long long)fp->messages, (unsigned long long)fp->ids);
    return buf;
}

int pb_fingerprint_parse(const char *s, pb_fingerprint *out)
{
    unsigned long long m, h;
    int used = 0;
    while (*s == ' ')
        s++;
    if (strncmp(s, "messages=", 9) || s[9] < '0' || s[9] > '9')
        return PB_EPARSE;
    if (sscanf(s, "messages=%llu ids=%16llx%n", &m, &h, &used) != 2 || used < 1)
        return PB_EPARSE;
    s += used;
    while (*s == ' ')
        s++;
    if (*s)
        return PB_EPARSE;
    out->messages = m;
    out->ids = h;
    return PB_OK;
}

/* Decimal digits of v at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
    char t[24];
    int n = 0;
    do {
        t[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = t[--n];
    return p;
}

/* One assignment row: id,instance,rank[,parent][,confidence]; an
 * abstention has empty instance, rank and parent.  Built in a buffer
 * (printf would be most of the writing time of a large table). */
static char *put_assign(char *buf, const pb_result *r, const pb_assign *a,
                        uint64_t parent, double conf)
{
    char *p = put_u64(buf, a->id);
    *p++ = ',';
    if (a->instance != PB_ABSTAIN) {
        const pb_pattern *e = pb_pattab_by_index(r->patterns, a->pattern);
        p = put_u64(p, a->instance);
        *p++ = ',';
        p = put_u64(p, e ? e->rank : 0);
    } else {
        *p++ = ',';
    }
    if (r->has_parent) {
        *p++ = ',';
        if (parent != PB_NO_PARENT && a->instance != PB_ABSTAIN)
            p = put_u64(p, parent);
    }
    if (r->has_conf) {
        *p++ = ',';
        if (!isnan(conf)) {
            /* q / 10^6 (round6): "1", "0", or "0." and up to 6 digits */
            long long q = llround(conf * 1e6);
            if (q >= 1000000) {
                *p++ = '1';
            } else if (q <= 0) {
                *p++ = '0';
            } else {
                *p++ = '0';
                *p++ = '.';
                char d[6];
                for (int k = 5; k >= 0; k--, q /= 10)
                    d[k] = (char)('0' + q % 10);
                int last = 5;
                while (d[last] == '0')
                    last--;
                for (int k = 0; k <= last; k++)
                    *p++ = d[k];
            }
        }
    }
    *p++ = '\n';
    return p;
}

/* Rows are gathered in ob and written 8 KiB at a time: one fwrite a
 * row (its lock and bookkeeping) was a third of the table's writing. */
enum { ROWBUF = 8192, ROWMAX = 128 /* the longest row put_assign makes */ };
typedef struct rowbuf {
    FILE *fp;
    size_t n;
    char b[ROWBUF];
} rowbuf;

static void row_put(rowbuf *ob, const pb_result *r, const pb_assign *a,
                    uint64_t parent, double conf)
{
    if (ob->n + ROWMAX > ROWBUF) {
        fwrite(ob->b, 1, ob->n, ob->fp);
        ob->n = 0;
    }
    ob->n = (size_t)(put_assign(ob->b + ob->n, r, a, parent, conf) - ob->b);
}

int pb_result_write(FILE *fp, pb_result *r, const char *const *head,
                    size_t nhead, int with_assign, pb_error *err)
{
    pb_pattab_rank(r->patterns, r->rank_by);
    fprintf(fp, "# pathbench-result 1\n");
    for (size_t i = 0; i < nhead; i++)
        fprintf(fp, "# %s\n", head[i]);
    if (r->meta_spool) {
        /* the spooled text, each line as below: "# " before it, '\n' after
         * (a last line without '\n' gets one, an empty last one nothing) */
        char buf[8192];
        size_t k, left = r->meta_spooled;
        int start = 1;
        if (fflush(r->meta_spool) != 0 || ferror(r->meta_spool) ||
            fseek(r->meta_spool, 0, SEEK_SET) != 0) /* a line that failed to go out */
            return pb_error_set(err, PB_EIO, NULL, 0, 0,
                                "writing or reading back the spooled metadata failed");
        while (left && (k = fread(buf, 1, left < sizeof buf ? left : sizeof buf,
                                  r->meta_spool)) > 0) {
            for (size_t i = 0; i < k;) {
                if (start)
                    fputs("# ", fp);
                const char *nl = memchr(buf + i, '\n', k - i);
                size_t l = nl ? (size_t)(nl - (buf + i)) + 1 : k - i;
                fwrite(buf + i, 1, l, fp);
                start = nl != NULL;
                i += l;
            }
            left -= k;
        }
        if (!start)
            fputc('\n', fp);
        if (left)
            return pb_error_set(err, PB_EIO, NULL, 0, 0,
                                "the spooled metadata is %zu bytes short", left);
    } else if (r->meta.len) {
        const char *s = pb_strbuf_str(&r->meta);
        while (*s) {
            const char *nl = strchr(s, '\n');
            size_t l = nl ? (size_t)(nl - s) : strlen(s);
            fprintf(fp, "# %.*s\n", (int)l, s);
            s += l + (nl ? 1 : 0);
        }
    }
    fprintf(fp, "# table=patterns\n");
    fprintf(fp, "rank,pattern,count,score,max_prob,total_latency,mean_latency,"
                "node_latency,edge_delay\n");
    size_t n = pb_pattab_count(r->patterns);
    for (size_t i = 0; i < n; i++) {
        const pb_pattern *e = pb_pattab_get(r->patterns, i);
        fprintf(fp, "%u,", e->rank);
        csv_fwrite(fp, e->text, strlen(e->text));
        fprintf(fp, ",%llu,", (unsigned long long)e->count);
        put_num(fp, e->score);
        fputc(',', fp);
        put_num(fp, e->max_prob);
        fputc(',', fp);
        put_num(fp, e->latency_sum);
        fputc(',', fp);
        put_num(fp, e->score > 0 ? e->latency_sum / e->score : NAN);
        fputc(',', fp);
        put_means(fp, e->node_sum, e->node_wsum, e->nnodes);
        fputc(',', fp);
        put_means(fp, e->edge_sum, e->edge_wsum, e->nnodes);
        fputc('\n', fp);
    }
    size_t nwritten = 0;
    if (with_assign && r->nassign) {
        nwritten = r->nassign;
        fprintf(fp, "# table=assignment\nid,instance,rank%s%s\n",
                r->has_parent ? ",parent" : "", r->has_conf ? ",confidence" : "");
        rowbuf ob;
        ob.fp = fp;
        ob.n = 0;
        if (r->assign_spool) {
            /* spooled rows, read back in chunks */
            spool_row buf[2048];
            size_t k, left = r->nassign;
            if (fflush(r->assign_spool) != 0 || fseek(r->assign_spool, 0, SEEK_SET) != 0)
                return pb_error_set(err, PB_EIO, NULL, 0, 0,
                                    "reading back the spooled assignment table failed");
            while (left && (k = fread(buf, sizeof *buf, left < 2048 ? left : 2048,
                                      r->assign_spool)) > 0) {
                for (size_t i = 0; i < k; i++)
                    row_put(&ob, r, &buf[i].a, buf[i].parent, buf[i].conf);
                left -= k;
            }
            if (left) {
                fwrite(ob.b, 1, ob.n, fp);
                return pb_error_set(err, PB_EIO, NULL, 0, 0,
                                    "the spooled assignment table is %zu rows short", left);
            }
        }
        for (size_t i = 0; !r->assign_spool && i < r->nassign; i++)
            row_put(&ob, r, &r->assign[i], r->parent ? r->parent[i] : PB_NO_PARENT,
                    r->conf ? r->conf[i] : NAN);
        fwrite(ob.b, 1, ob.n, fp);
    }
    fprintf(fp, "# end patterns=%zu assignments=%zu\n", n, nwritten);
    if (fflush(fp) != 0 || ferror(fp))
        return pb_error_set(err, PB_EIO, NULL, 0, 0, "write error: %s",
                            strerror(errno));
    return PB_OK;
}
