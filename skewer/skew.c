#include "skew.h"
#include "pb_files.h"
#include "pb_hash.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_strtab.h"
#include "pb_mem.h"
#include "pb_sort.h"

#define PPT_ONE 1000000000000LL /* parts per 10^12 in one */

typedef __int128 i128;

/* ------------------------------------------------------------------ */
/* clock arithmetic: exact integers, so skew and de-skew meet exactly */

static i128 round_div(i128 p, i128 d)
{
    i128 q = p / d, r = p % d;
    if (r < 0)
        r = -r;
    if (2 * r >= d)
        q += p < 0 ? -1 : 1;
    return q;
}

static i128 clock_f(const skew_clock *c, pb_ns ref, i128 t)
{
    i128 corr = c->drift_ppt ? round_div((t - ref) * c->drift_ppt, PPT_ONE) : 0;
    return t + c->offset + corr;
}

static int fits_ns(i128 v)
{
    /* INT64_MIN is PB_TS_NONE, so it is no timestamp */
    return v > (i128)INT64_MIN && v <= (i128)INT64_MAX;
}

int skew_clock_apply(const skew_clock *c, pb_ns ref, pb_ns t, pb_ns *out)
{
    i128 v = clock_f(c, ref, t);
    if (!fits_ns(v))
        return PB_ERANGE;
    *out = (pb_ns)v;
    return PB_OK;
}

int skew_clock_invert(const skew_clock *c, pb_ns ref, pb_ns y, pb_ns *out)
{
    /* first guess from the real-valued inverse, then step: f is
     * non-decreasing, and the guess is within a few ns */
    i128 t = (i128)y - c->offset;
    if (c->drift_ppt)
        t = ref + round_div((t - ref) * PPT_ONE, PPT_ONE + c->drift_ppt);
    while (clock_f(c, ref, t) < y)
        t++;
    while (clock_f(c, ref, t - 1) >= y)
        t--;
    if (!fits_ns(t))
        return PB_ERANGE;
    *out = (pb_ns)t;
    return PB_OK;
}

int skew_drift_parse(const char *s, int64_t *out_ppt)
{
    if (!s || !*s)
        return PB_EPARSE;
    size_t i = 0;
    int neg = 0;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        i++;
    }
    int64_t whole = 0, frac = 0;
    int nwhole = 0, nfrac = 0;
    while (s[i] >= '0' && s[i] <= '9') {
        if (whole > 1000000000LL)
            return PB_ERANGE;
        whole = whole * 10 + (s[i] - '0');
        i++;
        nwhole++;
    }
    if (s[i] == '.') {
        i++;
        while (s[i] >= '0' && s[i] <= '9') {
            if (nfrac >= 9)
                return PB_EPARSE;
            frac = frac * 10 + (s[i] - '0');
            i++;
            nfrac++;
        }
    }
    if (nwhole == 0 && nfrac == 0)
        return PB_EPARSE;
    const char *unit = s + i;
    int64_t scale; /* ppt per unit */
    int maxfrac;
    if (!*unit || !strcmp(unit, "ppm")) {
        scale = SKEW_PPT_PER_PPM;
        maxfrac = 6;
    } else if (!strcmp(unit, "ppb")) {
        scale = 1000;
        maxfrac = 3;
    } else {
        return PB_EPARSE;
    }
    if (nfrac > maxfrac)
        return PB_EPARSE;
    for (int k = nfrac; k < maxfrac; k++)
        frac *= 10;
    i128 v = (i128)whole * scale + frac;
    if (v > SKEW_DRIFT_MAX)
        return PB_ERANGE;
    *out_ppt = neg ? -(int64_t)v : (int64_t)v;
    return PB_OK;
}

char *skew_drift_format(int64_t ppt, char *buf)
{
    uint64_t u = ppt < 0 ? (uint64_t)0 - (uint64_t)ppt : (uint64_t)ppt;
    uint64_t whole = u / SKEW_PPT_PER_PPM, frac = u % SKEW_PPT_PER_PPM;
    int n = sprintf(buf, "%c%llu", ppt < 0 ? '-' : '+', (unsigned long long)whole);
    if (frac) {
        char f[8];
        sprintf(f, "%06llu", (unsigned long long)frac);
        int l = 6;
        while (l > 0 && f[l - 1] == '0')
            l--;
        f[l] = '\0';
        n += sprintf(buf + n, ".%s", f);
    }
    strcpy(buf + n, "ppm");
    return buf;
}

char *skew_offset_format(pb_ns off, char *buf)
{
    /* the shortest exact unit form, always signed: "+30ms", "-1.5ms" */
    int n = 0;
    if (off >= 0)
        buf[n++] = '+';
    pb_duration_format(off, buf + n);
    return buf;
}

/* ------------------------------------------------------------------ */
/* specs */

typedef struct skew_dist {
    skew_dist_kind kind;
    int64_t param; /* sd or max: ns for offsets, ppt for drift */
    char *text;
} skew_dist;

struct skew_spec {
    pb_strtab *index;     /* node name -> position in clocks */
    skew_clock *clocks;
    size_t n, cap;
    int has_default;
    skew_clock def;
    pb_ns ref;
    pb_ns round;          /* timestamps rounded down to a multiple; 0 = off */
    skew_dist roff, rdrift;
    unsigned long seed;
    gsl_rng *rng;
};

int skew_spec_init(skew_spec **out)
{
    skew_spec *s = calloc(1, sizeof *s);
    if (!s)
        return PB_ENOMEM;
    if (pb_strtab_init(&s->index) != PB_OK) {
        free(s);
        return PB_ENOMEM;
    }
    *out = s;
    return PB_OK;
}

void skew_spec_close(skew_spec *s)
{
    if (!s)
        return;
    pb_strtab_close(s->index);
    free(s->clocks);
    free(s->roff.text);
    free(s->rdrift.text);
    if (s->rng)
        gsl_rng_free(s->rng);
    free(s);
}

static void trim(const char **b, const char **e)
{
    while (*b < *e && (**b == ' ' || **b == '\t' || **b == '\r' || **b == '\n'))
        (*b)++;
    while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r' ||
                       (*e)[-1] == '\n'))
        (*e)--;
}

int skew_spec_add(skew_spec *s, const char *text, const char *where, long line,
                  pb_error *err)
{
    const char *b = text, *e = text + strlen(text);
    trim(&b, &e);
    const char *eq = NULL;
    for (const char *p = b; p < e; p++)
        if (*p == '=')
            eq = p; /* the last '=': offsets and drifts never contain one */
    if (!eq || eq == b)
        return pb_error_set(err, PB_EPARSE, where, line, 0,
                            "\"%s\": expected NODE=OFFSET[,DRIFT] such as "
                            "WS2=+30ms or WS2=+30ms,+50ppm", text);
    const char *nb = b, *ne = eq;
    trim(&nb, &ne);
    if (nb == ne)
        return pb_error_set(err, PB_EPARSE, where, line, 0,
                            "\"%s\": empty node name before '='", text);
    char val[128];
    size_t vl = (size_t)(e - eq - 1);
    if (vl >= sizeof val)
        return pb_error_set(err, PB_EPARSE, where, line, 0,
                            "\"%s\": value too long; expected OFFSET[,DRIFT]",
                            text);
    memcpy(val, eq + 1, vl);
    val[vl] = '\0';
    char *comma = strchr(val, ',');
    if (comma)
        *comma = '\0';
    const char *ob = val, *oe = val + strlen(val);
    trim(&ob, &oe);
    char otext[128];
    memcpy(otext, ob, (size_t)(oe - ob));
    otext[oe - ob] = '\0';
    skew_clock c = {0, 0};
    int rc = pb_duration_parse(otext, &c.offset);
    if (rc != PB_OK)
        return pb_error_set(err, PB_EPARSE, where, line, 0,
                            "\"%s\": offset \"%s\" %s; expected a signed duration "
                            "with a unit (" PB_DURATION_UNITS ") such as +30ms, "
                            "-1.5ms, 250us or 0%s", text, otext,
                            rc == PB_ERANGE ? "is out of range" : "is malformed",
                            pb_duration_hint(otext));
    if (comma) {
        const char *db = comma + 1, *de = comma + 1 + strlen(comma + 1);
        trim(&db, &de);
        char dtext[128];
        memcpy(dtext, db, (size_t)(de - db));
        dtext[de - db] = '\0';
        rc = skew_drift_parse(dtext, &c.drift_ppt);
        if (rc != PB_OK)
            return pb_error_set(err, rc, where, line, 0,
                                "\"%s\": drift \"%s\" %s; expected parts per "
                                "million such as +50ppm, -3.5ppm or 800ppb, at "
                                "most 100000ppm", text, dtext,
                                rc == PB_ERANGE ? "is too large" : "is malformed");
    }
    size_t nl = (size_t)(ne - nb);
    if (nl == 1 && nb[0] == '*') {
        if (s->has_default)
            return pb_error_set(err, PB_EDUP, where, line, 0,
                                "\"%s\": the default clock \"*\" is given twice",
                                text);
        if (s->roff.kind || s->rdrift.kind)
            return pb_error_set(err, PB_EINVAL, where, line, 0,
                                "\"%s\": a \"*\" clock and random clocks both "
                                "cover the unnamed nodes; give one of them", text);
        s->has_default = 1;
        s->def = c;
        return PB_OK;
    }
    uint32_t idx;
    if (pb_strtab_find(s->index, nb, nl, &idx))
        return pb_error_set(err, PB_EDUP, where, line, 0,
                            "\"%s\": node \"%.*s\" is given twice", text,
                            (int)nl, nb);
    if (pb_grow(&s->clocks, sizeof *s->clocks, &s->cap, s->n + 1, 16) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, where, line, 0, "out of memory");
    if (pb_strtab_intern(s->index, nb, nl, &idx) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, where, line, 0, "out of memory");
    s->clocks[s->n++] = c;
    return PB_OK;
}

int skew_spec_load(skew_spec *s, const char *path, pb_error *err)
{
    FILE *fp = pb_files_open(path, err);
    if (!fp)
        return err->code;
    char *buf = NULL;
    size_t cap = 0, l;
    int got;
    long line = 0;
    int rc = PB_OK;
    /* a line at most 1 MiB, a NUL said at once: /dev/zero or a binary
     * file is refused, not read into memory (getline's ENOMEM looked
     * like the end of the file: an empty spec, silently) */
    while ((got = pb_files_getline(fp, &buf, &cap, (size_t)1 << 20, &l)) == 1 ||
           got == PB_ERANGE) {
        line++;
        if (got == PB_ERANGE) {
            rc = pb_error_set(err, PB_EPARSE, path, line, 0,
                              "a line longer than 1 MiB; expected text "
                              "NODE=OFFSET[,DRIFT] (a binary file?)");
            break;
        }
        const char *nul = memchr(buf, '\0', l);
        if (nul) {
            rc = pb_error_set(err, PB_EPARSE, path, line, (long)(nul - buf) + 1,
                              "a NUL byte; expected text NODE=OFFSET[,DRIFT]");
            break;
        }
        if (line == 1 && l >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
            memmove(buf, buf + 3, l - 2); /* a UTF-8 byte-order mark */
            l -= 3;
        }
        while (l && (buf[l - 1] == '\n' || buf[l - 1] == '\r'))
            buf[--l] = '\0'; /* not part of the entry (nor of a message) */
        const char *b = buf, *e = buf + l;
        trim(&b, &e);
        if (b == e || *b == '#')
            continue;
        rc = skew_spec_add(s, buf, path, line, err);
        if (rc != PB_OK)
            break;
    }
    if (rc == PB_OK && got == PB_ENOMEM)
        rc = pb_error_set(err, PB_ENOMEM, path, line, 0, "out of memory");
    if (rc == PB_OK && (got == PB_EIO || ferror(fp)))
        rc = pb_error_set(err, PB_EIO, path, line, 0, "read error: %s",
                          strerror(errno));
    free(buf);
    if (fp != stdin)
        fclose(fp);
    return rc;
}

static int parse_dist(skew_dist *d, const char *text, int is_drift,
                      const char *argname, pb_error *err)
{
    const char *colon = strchr(text, ':');
    const char *what = is_drift ? "a drift such as 20ppm" : "a duration with a unit (" PB_DURATION_UNITS ") such as 10ms";
    if (!colon)
        return pb_error_set(err, PB_EPARSE, argname, 0, 0,
                            "\"%s\": expected normal:SD or uniform:MAX with %s",
                            text, what);
    size_t kl = (size_t)(colon - text);
    if (kl == 6 && !strncmp(text, "normal", 6))
        d->kind = SKEW_DIST_NORMAL;
    else if (kl == 7 && !strncmp(text, "uniform", 7))
        d->kind = SKEW_DIST_UNIFORM;
    else
        return pb_error_set(err, PB_EPARSE, argname, 0, 0,
                            "\"%s\": unknown distribution \"%.*s\"; expected "
                            "normal:SD or uniform:MAX", text, (int)kl, text);
    int rc = is_drift ? skew_drift_parse(colon + 1, &d->param)
                      : pb_duration_parse(colon + 1, &d->param);
    if (rc != PB_OK || d->param < 0)
        return pb_error_set(err, PB_EPARSE, argname, 0, 0,
                            "\"%s\": parameter \"%s\" is %s; expected %s, >= 0%s",
                            text, colon + 1,
                            rc == PB_ERANGE ? "out of range"
                                            : rc == PB_OK ? "negative" : "malformed",
                            what, is_drift ? "" : pb_duration_hint(colon + 1));
    free(d->text);
    d->text = strdup(text);
    if (!d->text)
        return pb_error_set(err, PB_ENOMEM, argname, 0, 0, "out of memory");
    return PB_OK;
}

int skew_spec_set_random(skew_spec *s, const char *offset_dist,
                         const char *drift_dist, unsigned long seed,
                         pb_error *err)
{
    if (s->has_default && (offset_dist || drift_dist))
        return pb_error_set(err, PB_EINVAL, "--random-offset", 0, 0,
                            "a \"*\" clock and random clocks both cover the "
                            "unnamed nodes; give one of them");
    int rc;
    if (offset_dist &&
        (rc = parse_dist(&s->roff, offset_dist, 0, "--random-offset", err)) != PB_OK)
        return rc;
    if (drift_dist &&
        (rc = parse_dist(&s->rdrift, drift_dist, 1, "--random-drift", err)) != PB_OK)
        return rc;
    if (s->rdrift.kind && s->rdrift.param > SKEW_DRIFT_MAX / 6)
        return pb_error_set(err, PB_ERANGE, "--random-drift", 0, 0,
                            "\"%s\": spread too large; expected at most %lldppm",
                            drift_dist, SKEW_DRIFT_MAX / 6 / SKEW_PPT_PER_PPM);
    s->seed = seed;
    if (!s->rng && (s->roff.kind || s->rdrift.kind)) {
        s->rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!s->rng)
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    return PB_OK;
}

void skew_spec_set_ref(skew_spec *s, pb_ns ref) { s->ref = ref; }
void skew_spec_set_round(skew_spec *s, pb_ns tick) { s->round = tick > 0 ? tick : 0; }
pb_ns skew_spec_round(const skew_spec *s) { return s->round; }
pb_ns skew_spec_ref(const skew_spec *s) { return s->ref; }
size_t skew_spec_count(const skew_spec *s) { return s->n; }
const char *skew_spec_name(const skew_spec *s, size_t i)
{
    return i < s->n ? pb_strtab_str(s->index, (uint32_t)i) : NULL;
}

static int64_t draw(gsl_rng *rng, const skew_dist *d)
{
    if (d->kind == SKEW_DIST_NONE || d->param == 0)
        return 0;
    double p = (double)d->param;
    if (d->kind == SKEW_DIST_UNIFORM)
        return (int64_t)llround(-p + 2.0 * p * gsl_rng_uniform(rng));
    double x;
    do
        x = gsl_ran_gaussian(rng, p);
    while (fabs(x) > 6.0 * p);
    return (int64_t)llround(x);
}

int skew_spec_clock(const skew_spec *s, const char *node, skew_clock *out)
{
    uint32_t idx;
    size_t l = strlen(node);
    if (pb_strtab_find(s->index, node, l, &idx)) {
        *out = s->clocks[idx];
        return PB_OK;
    }
    if (s->has_default) {
        *out = s->def;
        return PB_OK;
    }
    out->offset = 0;
    out->drift_ppt = 0;
    if (s->rng) {
        uint64_t k = pb_mix64((uint64_t)s->seed * 0x9e3779b97f4a7c15ULL ^
                           pb_hash_bytes(node, l));
        gsl_rng_set(s->rng, (unsigned long)(k & 0xffffffffu));
        out->offset = draw(s->rng, &s->roff);
        out->drift_ppt = draw(s->rng, &s->rdrift);
    }
    return PB_OK;
}

/* Largest |offset| and |drift| any node can get: bounds how far a row can
 * move, hence the re-sort window. */
static void spec_bounds(const skew_spec *s, pb_ns *omax, int64_t *dmax)
{
    pb_ns o = 0;
    int64_t d = 0;
    for (size_t i = 0; i < s->n; i++) {
        pb_ns a = s->clocks[i].offset < 0 ? -s->clocks[i].offset : s->clocks[i].offset;
        int64_t b = s->clocks[i].drift_ppt < 0 ? -s->clocks[i].drift_ppt
                                               : s->clocks[i].drift_ppt;
        if (a > o)
            o = a;
        if (b > d)
            d = b;
    }
    if (s->has_default) {
        pb_ns a = s->def.offset < 0 ? -s->def.offset : s->def.offset;
        int64_t b = s->def.drift_ppt < 0 ? -s->def.drift_ppt : s->def.drift_ppt;
        if (a > o)
            o = a;
        if (b > d)
            d = b;
    }
    if (s->roff.kind) {
        pb_ns a = s->roff.kind == SKEW_DIST_NORMAL ? 6 * s->roff.param + 1
                                                  : s->roff.param + 1;
        if (a > o)
            o = a;
    }
    if (s->rdrift.kind) {
        int64_t b = s->rdrift.kind == SKEW_DIST_NORMAL ? 6 * s->rdrift.param + 1
                                                      : s->rdrift.param + 1;
        if (b > d)
            d = b;
    }
    *omax = o;
    *dmax = d;
}

int skew_spec_describe(const skew_spec *s, pb_strbuf *out)
{
    int rc = PB_OK;
    char ob[PB_SECONDS_BUF + 4], db[40];
    for (size_t i = 0; i < s->n; i++) {
        rc |= pb_strbuf_printf(out, "%s%s=%s", i ? " " : "",
                               pb_strtab_str(s->index, (uint32_t)i),
                               skew_offset_format(s->clocks[i].offset, ob));
        if (s->clocks[i].drift_ppt)
            rc |= pb_strbuf_printf(out, ",%s",
                                   skew_drift_format(s->clocks[i].drift_ppt, db));
    }
    if (s->has_default) {
        rc |= pb_strbuf_printf(out, "%s*=%s", s->n ? " " : "",
                               skew_offset_format(s->def.offset, ob));
        if (s->def.drift_ppt)
            rc |= pb_strbuf_printf(out, ",%s", skew_drift_format(s->def.drift_ppt, db));
    }
    char rb[PB_DURATION_BUF];
    pb_duration_format(s->ref, rb);
    rc |= pb_strbuf_printf(out, "%sref=%s", s->n || s->has_default ? " " : "", rb);
    if (s->round) {
        char tb[PB_DURATION_BUF];
        pb_duration_format(s->round, tb);
        rc |= pb_strbuf_printf(out, " round=%s", tb);
    }
    if (s->roff.kind)
        rc |= pb_strbuf_printf(out, " random-offset=%s", s->roff.text);
    if (s->rdrift.kind)
        rc |= pb_strbuf_printf(out, " random-drift=%s", s->rdrift.text);
    if (s->roff.kind || s->rdrift.kind)
        rc |= pb_strbuf_printf(out, " seed=%lu", s->seed);
    return rc ? PB_ENOMEM : PB_OK;
}

/* ------------------------------------------------------------------ */
/* stream */

typedef struct held {
    pb_msg m;
    pb_obs o;
    pb_truth t;
    uint64_t seq;
} held;

struct skew_stream {
    const skew_spec *spec;
    int deskew;
    pb_names *names;
    size_t max_window;
    int allow_negative;
    char *source;

    int by_id;          /* ties in the output by id (de-skewing, no rounding) */
    skew_clock *clk;
    unsigned char *resolved;
    size_t nclk;
    unsigned char *named_seen; /* per named node of the spec */

    held *heap;
    size_t n, cap;
    uint64_t seq;
    i128 ready_below; /* rows with new ts below this are settled */
    int finished;
    pb_ns last_out;
    int any_out;

    pb_ns omax;
    int64_t dmax;
    skew_stats st;
};

int skew_stream_init(skew_stream **out, const skew_spec *spec, int deskew,
                     pb_names *names, size_t max_window, int allow_negative,
                     const char *source, pb_error *err)
{
    *out = NULL; /* defined on every path (the error paths too) */
    skew_stream *s = calloc(1, sizeof *s);
    if (!s)
        return pb_error_set(err, PB_ENOMEM, source, 0, 0, "out of memory");
    s->spec = spec;
    s->deskew = deskew;
    s->names = names;
    s->max_window = max_window ? max_window : (size_t)1 << 21;
    s->allow_negative = allow_negative;
    s->source = strdup(source ? source : "(stdin)");
    s->named_seen = calloc(spec->n + 1, 1);
    if (!s->source || !s->named_seen) {
        skew_stream_close(s);
        return pb_error_set(err, PB_ENOMEM, source, 0, 0, "out of memory");
    }
    spec_bounds(spec, &s->omax, &s->dmax);
    s->by_id = deskew && !spec->round;
    s->ready_below = (i128)INT64_MIN;
    *out = s;
    return PB_OK;
}

void skew_stream_close(skew_stream *s)
{
    if (!s)
        return;
    free(s->source);
    free(s->clk);
    free(s->resolved);
    free(s->named_seen);
    free(s->heap);
    free(s);
}

static int node_clock(skew_stream *s, uint32_t node, const skew_clock **out)
{
    if (node >= s->nclk) {
        size_t nc = s->nclk ? s->nclk : 64;
        while (nc <= node)
            nc *= 2;
        skew_clock *c = realloc(s->clk, nc * sizeof *c);
        if (!c)
            return PB_ENOMEM;
        s->clk = c;
        unsigned char *r = realloc(s->resolved, nc);
        if (!r)
            return PB_ENOMEM;
        memset(r + s->nclk, 0, nc - s->nclk);
        s->resolved = r;
        s->nclk = nc;
    }
    if (!s->resolved[node]) {
        const char *name = pb_strtab_str(s->names->nodes, node);
        if (!name)
            name = "";
        if (skew_spec_clock(s->spec, name, &s->clk[node]) != PB_OK)
            return PB_ENOMEM;
        uint32_t idx;
        if (pb_strtab_find(s->spec->index, name, strlen(name), &idx))
            s->named_seen[idx] = 1;
        s->resolved[node] = 1;
    }
    *out = &s->clk[node];
    return PB_OK;
}

/* Output order: by new ts; ties in input order when skewing (so zero clocks
 * change nothing), but by id first when de-skewing, so that rows that were
 * tied before skewing, and came apart, are tied again in their original
 * (id) order.  by_id is 0 or 1. */
static int held_less(const held *a, const held *b, int by_id)
{
    if (a->m.ts != b->m.ts)
        return a->m.ts < b->m.ts;
    if (by_id && a->m.id != b->m.id)
        return a->m.id < b->m.id;
    return a->seq < b->seq;
}

static void heap_up(held *h, size_t i, int by_id)
{
    held x = h[i];
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!held_less(&x, &h[p], by_id))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static void heap_down(held *h, size_t n, size_t i, int by_id)
{
    held x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && held_less(&h[c + 1], &h[c], by_id))
            c++;
        if (!held_less(&h[c], &x, by_id))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* One timestamp through node's clock.  which: "ts" or "recv_ts". */
static int move_ts(skew_stream *s, uint32_t node, pb_ns in, pb_ns *out,
                   long line, const char *which, pb_error *err)
{
    const skew_clock *c;
    if (node_clock(s, node, &c) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, s->source, line, 0, "out of memory");
    int rc = s->deskew ? skew_clock_invert(c, s->spec->ref, in, out)
                       : skew_clock_apply(c, s->spec->ref, in, out);
    const char *name = pb_strtab_str(s->names->nodes, node);
    char a[PB_SECONDS_BUF], b[PB_SECONDS_BUF];
    if (rc != PB_OK) {
        pb_seconds_format(in, a);
        return pb_error_set(err, PB_ERANGE, s->source, line, 0,
                            "%s %s of node %s overflows when %s; expected "
                            "timestamps within +-9.2e9 s", which, a, name,
                            s->deskew ? "de-skewed" : "skewed");
    }
    if (*out < 0 && !s->allow_negative) {
        pb_seconds_format(in, a);
        pb_seconds_format(*out, b);
        return pb_error_set(err, PB_ERANGE, s->source, line, 0,
                            "%s %s of node %s becomes negative (%s) when %s; "
                            "expected timestamps >= 0 (use --allow-negative to "
                            "write them anyway, or move the other clocks ahead "
                            "instead, e.g. with a \"*\" clock)", which, a, name,
                            b, s->deskew ? "de-skewed" : "skewed");
    }
    if (!s->deskew && c->drift_ppt < 0) {
        pb_ns back;
        if (skew_clock_invert(c, s->spec->ref, *out, &back) == PB_OK && back != in)
            s->st.not_invertible++;
    }
    pb_ns d = *out > in ? *out - in : in - *out;
    if (d > s->st.max_shift)
        s->st.max_shift = d;
    return PB_OK;
}

int skew_stream_push(skew_stream *s, const pb_msg *m, const pb_truth *t,
                     long line, pb_error *err)
{
    return skew_stream_push_obs(s, m, NULL, t, line, err);
}

int skew_stream_push_obs(skew_stream *s, const pb_msg *m, const pb_obs *o,
                         const pb_truth *t, long line, pb_error *err)
{
    held h;
    h.m = *m;
    h.o = pb_obs_get(o, 0);
    h.t = t ? *t : (pb_truth){PB_ID_NONE, PB_ID_NONE};
    h.seq = s->seq++;
    int rc = move_ts(s, m->src, m->ts, &h.m.ts, line, "ts", err);
    if (rc != PB_OK)
        return rc;
    if (m->recv_ts != PB_TS_NONE) {
        rc = move_ts(s, m->dst, m->recv_ts, &h.m.recv_ts, line, "recv_ts", err);
        if (rc != PB_OK)
            return rc;
    }
    if (s->spec->round) {
        /* a coarse clock: round down to a multiple of the tick (rounding
         * is monotone, so rows keep their order; ties keep input order) */
        pb_ns r = s->spec->round;
        h.m.ts = h.m.ts / r * r - (h.m.ts % r < 0 ? r : 0);
        if (h.m.recv_ts != PB_TS_NONE)
            h.m.recv_ts = h.m.recv_ts / r * r - (h.m.recv_ts % r < 0 ? r : 0);
    }
    if (h.m.ts != m->ts || h.m.recv_ts != m->recv_ts)
        s->st.changed++;
    /* Every later input row has ts >= m->ts, and each clock map (and its
     * inverse) is non-decreasing, so every later output ts is at least the
     * smallest image of m->ts: m->ts minus the largest shift any clock can
     * give there (offset, plus drift over the distance from ref, widened
     * by 20% for the inverse's longer lever arm and 2 ns for rounding). */
    i128 dist = (i128)m->ts - s->spec->ref;
    if (dist < 0)
        dist = -dist;
    i128 shift = (i128)s->omax +
                 ((i128)s->dmax * (dist + s->omax + 1) * 6 / 5) / PPT_ONE + 2 +
                 s->spec->round;
    s->ready_below = (i128)m->ts - shift;
    if (s->n >= s->max_window) {
        char a[PB_SECONDS_BUF];
        pb_seconds_format((pb_ns)(shift > (i128)INT64_MAX ? INT64_MAX : shift), a);
        return pb_error_set(err, PB_EORDER, s->source, line, 0,
                            "re-sort window full: %zu rows wait for rows that "
                            "clock errors of up to %s s could still put before "
                            "them; expected at most --max-window=%zu waiting "
                            "rows (raise it, or use smaller offsets or drift)",
                            s->n, a, s->max_window);
    }
    if (pb_grow(&s->heap, sizeof *s->heap, &s->cap, s->n + 1, 1024) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, s->source, line, 0, "out of memory");
    s->heap[s->n] = h;
    heap_up(s->heap, s->n, s->by_id);
    s->n++;
    if (s->n > s->st.max_window)
        s->st.max_window = s->n;
    s->st.messages++;
    return PB_OK;
}

void skew_stream_finish(skew_stream *s)
{
    s->finished = 1;
}

int skew_stream_pop(skew_stream *s, pb_msg *m, pb_truth *t)
{
    return skew_stream_pop_obs(s, m, NULL, t);
}

int skew_stream_pop_obs(skew_stream *s, pb_msg *m, pb_obs *o, pb_truth *t)
{
    if (!s->n)
        return 0;
    if (!s->finished && (i128)s->heap[0].m.ts >= s->ready_below)
        return 0;
    held h = s->heap[0];
    s->n--;
    if (s->n) {
        s->heap[0] = s->heap[s->n];
        heap_down(s->heap, s->n, 0, s->by_id);
    }
    /* The bound above makes this impossible; check anyway rather than ever
     * write a mis-sorted trace. */
    if (s->any_out && h.m.ts < s->last_out)
        return PB_EORDER;
    s->last_out = h.m.ts;
    s->any_out = 1;
    *m = h.m;
    if (o)
        *o = h.o;
    if (t)
        *t = h.t;
    return 1;
}

void skew_stream_stats(const skew_stream *s, skew_stats *out)
{
    *out = s->st;
    size_t u = 0;
    for (size_t i = 0; i < s->spec->n; i++)
        if (!s->named_seen[i])
            u++;
    out->unknown_nodes = u;
}

const char *skew_stream_unseen(const skew_stream *s, size_t i)
{
    for (size_t k = 0; k < s->spec->n; k++)
        if (!s->named_seen[k] && i-- == 0)
            return pb_strtab_str(s->spec->index, (uint32_t)k);
    return NULL;
}

const char *skew_stream_unseen_next(const skew_stream *s, size_t *pos)
{
    for (size_t k = *pos; k < s->spec->n; k++)
        if (!s->named_seen[k]) {
            *pos = k + 1;
            return pb_strtab_str(s->spec->index, (uint32_t)k);
        }
    *pos = s->spec->n;
    return NULL;
}

static int drain(skew_stream *s, pb_writer *w, const char *src, pb_error *err)
{
    pb_msg m;
    pb_obs o;
    pb_truth t;
    int got;
    while ((got = skew_stream_pop_obs(s, &m, &o, &t)) == 1)
        if (pb_writer_write_obs(w, &m, &o, &t) != PB_OK)
            return pb_error_set(err, PB_EIO, "(output)", 0, 0, "write error: %s",
                                strerror(errno));
    if (got < 0)
        return pb_error_set(err, PB_EORDER, src, 0, 0,
                            "internal error: the re-sort bound failed; refusing "
                            "to write rows out of time order");
    return PB_OK;
}

int skew_run(pb_reader *r, pb_writer *w, const skew_spec *spec, int deskew,
             size_t max_window, int allow_negative, skew_stats *stats,
             skew_stream **keep, pb_error *err)
{
    skew_stream *s;
    int rc = skew_stream_init(&s, spec, deskew, pb_reader_names(r), max_window,
                              allow_negative, pb_reader_name(r), err);
    if (rc != PB_OK)
        return rc;
    pb_msg m;
    pb_obs o;
    pb_truth t;
    for (;;) {
        int got = pb_reader_next_obs(r, &m, &o, &t, err);
        if (got < 0) {
            rc = got;
            break;
        }
        if (got == 0) {
            skew_stream_finish(s);
            rc = drain(s, w, NULL, err);
            break;
        }
        rc = skew_stream_push_obs(s, &m, &o, &t, pb_reader_line(r), err);
        if (rc == PB_OK)
            rc = drain(s, w, NULL, err);
        if (rc != PB_OK)
            break;
    }
    if (stats)
        skew_stream_stats(s, stats);
    if (keep)
        *keep = s;
    else
        skew_stream_close(s);
    return rc;
}

/* ------------------------------------------------------------------ */
/* estimation */

typedef struct pair_slot {
    uint64_t key; /* (src << 32 | dst) + 1; 0 = empty */
    pb_ns min;
    uint64_t count;
    uint64_t differ;  /* messages with recv_ts != ts */
} pair_slot;

struct skew_estimate {
    pb_names *names;
    pair_slot *slots;
    size_t cap, count;
    uint64_t *node_msgs;
    size_t nnodes;
    pb_strbuf warn;   /* what the last write could not know, one line each */
    size_t estimated, noinfo;
};

int skew_estimate_init(skew_estimate **out, pb_names *names)
{
    skew_estimate *e = calloc(1, sizeof *e);
    if (!e)
        return PB_ENOMEM;
    e->names = names;
    *out = e;
    return PB_OK;
}

void skew_estimate_close(skew_estimate *e)
{
    if (!e)
        return;
    free(e->slots);
    free(e->node_msgs);
    pb_strbuf_free(&e->warn);
    free(e);
}

static pair_slot *pair_find(const skew_estimate *e, uint64_t key)
{
    if (!e->cap)
        return NULL;
    size_t j = pb_mix64(key) & (e->cap - 1);
    while (e->slots[j].key) {
        if (e->slots[j].key == key)
            return &e->slots[j];
        j = (j + 1) & (e->cap - 1);
    }
    return NULL;
}

static int pair_grow(skew_estimate *e)
{
    size_t nc = e->cap ? 2 * e->cap : 64;
    pair_slot *ns = calloc(nc, sizeof *ns);
    if (!ns)
        return PB_ENOMEM;
    for (size_t i = 0; i < e->cap; i++) {
        if (!e->slots[i].key)
            continue;
        size_t j = pb_mix64(e->slots[i].key) & (nc - 1);
        while (ns[j].key)
            j = (j + 1) & (nc - 1);
        ns[j] = e->slots[i];
    }
    free(e->slots);
    e->slots = ns;
    e->cap = nc;
    return PB_OK;
}

int skew_estimate_add(skew_estimate *e, const pb_msg *m)
{
    if (m->recv_ts == PB_TS_NONE || m->src == m->dst)
        return PB_OK;
    uint32_t hi = m->src > m->dst ? m->src : m->dst;
    if (hi >= e->nnodes) {
        size_t nc = e->nnodes ? e->nnodes : 64;
        while (nc <= hi)
            nc *= 2;
        uint64_t *nm = realloc(e->node_msgs, nc * sizeof *nm);
        if (!nm)
            return PB_ENOMEM;
        memset(nm + e->nnodes, 0, (nc - e->nnodes) * sizeof *nm);
        e->node_msgs = nm;
        e->nnodes = nc;
    }
    e->node_msgs[m->src]++;
    e->node_msgs[m->dst]++;
    uint64_t key = (((uint64_t)m->src << 32) | m->dst) + 1;
    pb_ns d = m->recv_ts - m->ts;
    pair_slot *p = pair_find(e, key);
    if (p) {
        if (d < p->min)
            p->min = d;
        p->count++;
        p->differ += d != 0;
        return PB_OK;
    }
    if ((e->count + 1) * 4 > e->cap * 3 && pair_grow(e) != PB_OK)
        return PB_ENOMEM;
    size_t j = pb_mix64(key) & (e->cap - 1);
    while (e->slots[j].key)
        j = (j + 1) & (e->cap - 1);
    e->slots[j].key = key;
    e->slots[j].min = d;
    e->slots[j].count = 1;
    e->slots[j].differ = d != 0;
    e->count++;
    return PB_OK;
}

static const pair_slot *pair_get(const skew_estimate *e, uint32_t a, uint32_t b)
{
    return pair_find(e, (((uint64_t)a << 32) | b) + 1);
}

int skew_estimate_pair(const skew_estimate *e, uint32_t a, uint32_t b,
                       pb_ns *out)
{
    const pair_slot *ab = pair_get(e, a, b), *ba = pair_get(e, b, a);
    if (!ab || !ba || ab->differ + ba->differ == 0)
        return 0;
    *out = (pb_ns)round_div((i128)ab->min - ba->min, 2);
    return 1;
}

const char *skew_estimate_warnings(const skew_estimate *e)
{
    return pb_strbuf_str(&e->warn);
}

size_t skew_estimate_count(const skew_estimate *e, size_t *noinfo)
{
    if (noinfo)
        *noinfo = e->noinfo;
    return e->estimated;
}

typedef struct nb_cand {
    uint32_t node;
    const char *name;
} nb_cand;

static int cmp_cand(const void *a, const void *b)
{
    return strcmp(((const nb_cand *)a)->name, ((const nb_cand *)b)->name);
}

static uint32_t slot_src(const pair_slot *p)
{
    return (uint32_t)((p->key - 1) >> 32);
}

static uint32_t slot_dst(const pair_slot *p)
{
    return (uint32_t)(p->key - 1);
}

static int cmp_slot_key(const void *a, const void *b)
{
    uint64_t x = (*(const pair_slot *const *)a)->key,
             y = (*(const pair_slot *const *)b)->key;
    return (x > y) - (x < y);
}

int skew_estimate_write(skew_estimate *e, const char *ref_node, pb_strbuf *out,
                        pb_error *err)
{
    const pb_strtab *nodes = e->names->nodes;
    uint32_t nn = pb_strtab_count(nodes);
    uint32_t ref = UINT32_MAX;
    if (ref_node) {
        if (!pb_strtab_find(nodes, ref_node, strlen(ref_node), &ref))
            return pb_error_set(err, PB_ENOENT, "--ref-node", 0, 0,
                                "node \"%s\" does not appear in the trace",
                                ref_node);
    } else {
        for (uint32_t i = 0; i < nn && i < e->nnodes; i++) {
            if (!e->node_msgs[i])
                continue;
            if (ref == UINT32_MAX || e->node_msgs[i] > e->node_msgs[ref] ||
                (e->node_msgs[i] == e->node_msgs[ref] &&
                 strcmp(pb_strtab_str(nodes, i), pb_strtab_str(nodes, ref)) < 0))
                ref = i;
        }
        if (ref == UINT32_MAX)
            return pb_error_set(err, PB_ENOENT, NULL, 0, 0,
                                "no message has both ts and recv_ts; expected "
                                "a trace with both timestamps to estimate offsets");
    }
    pb_ns *off = calloc(nn ? nn : 1, sizeof *off);
    unsigned char *done = calloc(nn ? nn : 1, 1);
    uint32_t *queue = malloc((nn ? nn : 1) * sizeof *queue);
    nb_cand *cand = malloc((nn ? nn : 1) * sizeof *cand);
    if (!off || !done || !queue || !cand) {
        free(off);
        free(done);
        free(queue);
        free(cand);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int rc = PB_OK;
    pb_strbuf_free(&e->warn);
    e->estimated = e->noinfo = 0;
    char ob[PB_SECONDS_BUF + 4], a[PB_DURATION_BUF], b[PB_DURATION_BUF];
    /* pairs timed both ways whose every message has ts == recv_ts carry no
     * clock information (both stamps come from one clock, as an importer
     * writes spans seen from one side only) */
    size_t blind_pairs = 0;
    pb_strbuf blind = {0}, body = {0};
    /* the pairs with messages, sorted by (src, dst), and where each src's
     * run starts: both loops below visit only pairs that exist, so the cost is
     * O(P log P) in the P node pairs with messages, not O(nodes^2) */
    const pair_slot **ps = malloc((e->count ? e->count : 1) * sizeof *ps);
    size_t *start = malloc(((size_t)nn + 1) * sizeof *start);
    if (!ps || !start) {
        free(ps);
        free(start);
        free(off);
        free(done);
        free(queue);
        free(cand);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    size_t np = 0;
    for (size_t i = 0; i < e->cap; i++)
        if (e->slots[i].key)
            ps[np++] = &e->slots[i];
    pb_sort(ps, np, sizeof *ps, cmp_slot_key);
    for (size_t k = 0, u = 0; u <= nn; u++) {
        while (k < np && slot_src(ps[k]) < u)
            k++;
        start[u] = k;
    }
    for (size_t k = 0; k < np; k++) {
        uint32_t u = slot_src(ps[k]), v = slot_dst(ps[k]);
        if (u >= nn || v >= nn || v <= u)
            continue;
        const pair_slot *uv = ps[k], *vu = pair_get(e, v, u);
        if (vu && uv->differ + vu->differ == 0) {
            blind_pairs++;
            rc |= pb_strbuf_printf(&blind,
                                   "# pair %s<>%s: no clock information: all %llu "
                                   "messages have ts == recv_ts\n",
                                   pb_strtab_str(nodes, u), pb_strtab_str(nodes, v),
                                   (unsigned long long)(uv->count + vu->count));
        }
    }
    rc |= pb_strbuf_printf(out,
                           "# skewer --estimate: clock offsets relative to %s, "
                           "from the minimum one-way delay in each direction of "
                           "a node pair, assuming symmetric delay (Paxson; WAP5 "
                           "section 5.2): offset(B) - offset(A) = (min d_AB - "
                           "min d_BA) / 2\n",
                           pb_strtab_str(nodes, ref));
    size_t qh = 0, qt = 0;
    queue[qt++] = ref;
    done[ref] = 1;
    while (qh < qt) {
        uint32_t u = queue[qh++];
        size_t nc = 0;
        for (size_t k = start[u]; k < start[u + 1]; k++) {
            uint32_t v = slot_dst(ps[k]);
            pb_ns d;
            if (v < nn && !done[v] && v != u && skew_estimate_pair(e, u, v, &d))
                cand[nc++] = (nb_cand){v, pb_strtab_str(nodes, v)};
        }
        pb_sort(cand, nc, sizeof *cand, cmp_cand);
        for (size_t k = 0; k < nc; k++) {
            uint32_t v = cand[k].node;
            pb_ns d;
            skew_estimate_pair(e, u, v, &d);
            off[v] = off[u] + d;
            done[v] = 1;
            queue[qt++] = v;
            const pair_slot *uv = pair_get(e, u, v), *vu = pair_get(e, v, u);
            pb_duration_format(uv->min, a);
            pb_duration_format(vu->min, b);
            rc |= pb_strbuf_printf(&body,
                                   "# pair %s>%s: min delay %s over %llu "
                                   "messages, back %s over %llu\n",
                                   pb_strtab_str(nodes, u), cand[k].name, a,
                                   (unsigned long long)uv->count, b,
                                   (unsigned long long)vu->count);
            rc |= pb_strbuf_printf(&body, "%s=%s\n", cand[k].name,
                                   skew_offset_format(off[v], ob));
            e->estimated++;
        }
    }
    if (e->estimated)
        rc |= pb_strbuf_printf(out, "%s=%s\n", pb_strtab_str(nodes, ref),
                               skew_offset_format(0, ob));
    else
        rc |= pb_strbuf_printf(out, "# %s: the reference; no other node could be "
                                    "related to it, so no offset is written\n",
                               pb_strtab_str(nodes, ref));
    rc |= pb_strbuf_puts(out, pb_strbuf_str(&body));
    rc |= pb_strbuf_puts(out, pb_strbuf_str(&blind));
    pb_strbuf_free(&body);
    pb_strbuf_free(&blind);
    free(ps);
    free(start);
    pb_strbuf names = {0};
    for (uint32_t v = 0; v < nn; v++)
        if (!done[v]) {
            rc |= pb_strbuf_printf(out,
                                   "# %s: no clock information (no message both "
                                   "ways with a node reached, other than with "
                                   "ts == recv_ts); left at offset 0\n",
                                   pb_strtab_str(nodes, v));
            if (e->noinfo < 8)
                rc |= pb_strbuf_printf(&names, "%s%s", e->noinfo ? ", " : "",
                                       pb_strtab_str(nodes, v));
            e->noinfo++;
        }
    if (e->noinfo > 8)
        rc |= pb_strbuf_printf(&names, ", ...");
    if (e->noinfo && !e->estimated)
        rc |= pb_strbuf_printf(&e->warn,
                               "no clock information in this trace: no node could "
                               "be related to %s (%zu node pairs have messages both "
                               "ways, all with ts == recv_ts: both stamps were taken "
                               "on one clock); no offset estimated, de-skewing with "
                               "this spec changes nothing\n",
                               pb_strtab_str(nodes, ref), blind_pairs);
    else if (e->noinfo)
        rc |= pb_strbuf_printf(&e->warn,
                               "no clock information for %zu of %u nodes (%s): no "
                               "message both ways with an estimated node other than "
                               "with ts == recv_ts; they are left at offset 0\n",
                               e->noinfo, nn, pb_strbuf_str(&names));
    if (blind_pairs && e->estimated)
        rc |= pb_strbuf_printf(&e->warn,
                               "%zu node pairs have messages both ways all with ts "
                               "== recv_ts: no clock information, not used\n",
                               blind_pairs);
    pb_strbuf_free(&names);
    free(off);
    free(done);
    free(queue);
    free(cand);
    if (rc)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return PB_OK;
}
