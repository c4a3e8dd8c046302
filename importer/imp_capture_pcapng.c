/*
 * imp_capture_pcapng.c - a pcapng file whose interfaces have different
 * link types (imp_capture_int.h), which libpcap refuses at the second
 * interface ("an interface has a type N different from the type of the
 * first interface"): Wireshark or dumpcap capturing Ethernet and a tunnel,
 * or loopback and Linux cooked, at once.  Read here block by block (RFC
 * draft-ietf-opsawg-pcapng: section header, interface description,
 * enhanced, simple and obsolete packet blocks; other blocks skipped), each
 * packet with its interface's link type, time resolution (if_tsresol) and
 * offset (if_tsoffset).  Only such files come here (cap_ng_mixed looks at
 * the interfaces first); every other capture is read by libpcap as before.
 * Linear: one pass, one buffer the size of the largest block.
 */
#include "imp_capture_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NG_MAX_BLOCK (16u << 20) /* libpcap's bound on a block */

typedef struct ng_if {
    int dlt;
    uint32_t snaplen;
    uint64_t units;   /* timestamp units per second */
    int64_t offset;   /* seconds added to every timestamp */
} ng_if;

struct cap_ng {
    FILE *fp;
    int swap;
    ng_if *ifs;
    size_t nifs, capifs;
    unsigned char *buf;
    size_t bufcap;
    long block;      /* blocks read, for the error */
    char err[200];
    int subns;       /* the last packet's stamp had a part below 1 ns */
};

static uint32_t u32(const cap_ng *g, const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return g->swap ? __builtin_bswap32(v) : v;
}

static uint16_t u16(const cap_ng *g, const unsigned char *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return g->swap ? __builtin_bswap16(v) : v;
}

/* the next block: *type, its body (after type and length, before the
 * trailing length) in g->buf, *n bytes.  1: a block, 0: end of file,
 * -1: an error (g->err) */
static int next_block(cap_ng *g, uint32_t *type, size_t *n)
{
    unsigned char h[8];
    size_t got = fread(h, 1, 8, g->fp);
    if (got == 0 && feof(g->fp))
        return 0;
    if (got != 8) {
        snprintf(g->err, sizeof g->err, "block %ld cut short (%zu of 8 header bytes)",
                 g->block + 1, got);
        return -1;
    }
    g->block++;
    uint32_t t;
    memcpy(&t, h, 4);
    if (t == 0x0A0D0D0A) { /* a section header: its byte order first */
        unsigned char bom[4];
        if (fread(bom, 1, 4, g->fp) != 4) {
            snprintf(g->err, sizeof g->err, "section header (block %ld) cut short", g->block);
            return -1;
        }
        uint32_t m;
        memcpy(&m, bom, 4);
        if (m == 0x1A2B3C4D)
            g->swap = 0;
        else if (m == 0x4D3C2B1A)
            g->swap = 1;
        else {
            snprintf(g->err, sizeof g->err, "section header (block %ld) with byte-order "
                     "magic 0x%08x", g->block, m);
            return -1;
        }
        g->nifs = 0; /* interfaces are numbered per section */
    }
    t = u32(g, h);
    uint32_t len = u32(g, h + 4);
    if (len < 12 || len % 4 || len > NG_MAX_BLOCK) {
        snprintf(g->err, sizeof g->err, "block %ld (type 0x%x) has length %u; expected "
                 "a multiple of 4 from 12 to %u", g->block, t, len, NG_MAX_BLOCK);
        return -1;
    }
    size_t body = len - 12, have = 0;
    if (body + 4 > g->bufcap) {
        unsigned char *nb = realloc(g->buf, body + 4);
        if (!nb) {
            snprintf(g->err, sizeof g->err, "out of memory");
            return -1;
        }
        g->buf = nb;
        g->bufcap = body + 4;
    }
    if (t == 0x0A0D0D0A) { /* the magic was read already */
        if (body < 4) {
            snprintf(g->err, sizeof g->err, "section header (block %ld) too short", g->block);
            return -1;
        }
        memcpy(g->buf, "\x4d\x3c\x2b\x1a", 4);
        have = 4;
    }
    if (fread(g->buf + have, 1, body + 4 - have, g->fp) != body + 4 - have) {
        snprintf(g->err, sizeof g->err, "block %ld (type 0x%x, %u bytes) cut short", g->block,
                 t, len);
        return -1;
    }
    if (u32(g, g->buf + body) != len) {
        snprintf(g->err, sizeof g->err, "block %ld (type 0x%x): its trailing length %u is "
                 "not its leading length %u", g->block, t, u32(g, g->buf + body), len);
        return -1;
    }
    *type = t;
    *n = body;
    return 1;
}

/* an interface description block's body p[0..n) */
static int add_if(cap_ng *g, const unsigned char *p, size_t n)
{
    if (n < 8) {
        snprintf(g->err, sizeof g->err, "interface description (block %ld) too short",
                 g->block);
        return -1;
    }
    if (g->nifs == g->capifs) {
        size_t nc = g->capifs ? g->capifs * 2 : 4;
        ng_if *ni = realloc(g->ifs, nc * sizeof *ni);
        if (!ni) {
            snprintf(g->err, sizeof g->err, "out of memory");
            return -1;
        }
        g->ifs = ni;
        g->capifs = nc;
    }
    ng_if *f = &g->ifs[g->nifs++];
    f->dlt = u16(g, p);
    if (f->dlt == 101) /* LINKTYPE_RAW in files, DLT_RAW in programs (as libpcap maps) */
        f->dlt = DLT_RAW;
    f->snaplen = u32(g, p + 4);
    f->units = 1000000;
    f->offset = 0;
    for (size_t o = 8; o + 4 <= n;) { /* options */
        unsigned code = u16(g, p + o), ol = u16(g, p + o + 2);
        if (!code || o + 4 + ol > n)
            break;
        if (code == 9 && ol >= 1) { /* if_tsresol */
            unsigned v = p[o + 4];
            unsigned e = v & 0x7f;
            if ((v & 0x80) ? e > 63 : e > 19) {
                snprintf(g->err, sizeof g->err, "interface %zu: time resolution 0x%02x "
                         "beyond 64 bits", g->nifs - 1, v);
                return -1;
            }
            uint64_t u = 1;
            for (unsigned k = 0; k < e; k++)
                u *= (v & 0x80) ? 2 : 10;
            f->units = u;
        } else if (code == 14 && ol >= 8) { /* if_tsoffset, seconds */
            uint64_t v;
            memcpy(&v, p + o + 4, 8);
            f->offset = (int64_t)(g->swap ? __builtin_bswap64(v) : v);
        }
        o += 4 + (ol + 3u) / 4 * 4;
    }
    return 0;
}

/* Whether an interface description's body b[0..n) (after the block's
 * type and length) has an if_tsresol finer than a nanosecond: units a
 * second that 1e9 is not a multiple of (10^-10 s and finer; 2^-10 s and
 * finer in base 2).  libpcap cuts such stamps to the nanosecond without a
 * word; imp_capture_pcapng.c's reader says so (cap_ng_subns). */
static int idb_fine(const unsigned char *b, size_t n, int swap)
{
    for (size_t o = 8; o + 4 <= n;) {
        uint16_t code, ol;
        memcpy(&code, b + o, 2);
        memcpy(&ol, b + o + 2, 2);
        if (swap) {
            code = __builtin_bswap16(code);
            ol = __builtin_bswap16(ol);
        }
        if (!code || o + 4 + ol > n)
            break;
        if (code == 9 && ol >= 1) {
            unsigned v = b[o + 4], e = v & 0x7f;
            return e > 9;
        }
        o += 4 + (ol + 3u) / 4 * 4;
    }
    return 0;
}

int cap_ng_mixed(FILE *fp, int *first, int *other)
{
    unsigned char m[4];
    long at = ftell(fp);
    if (at < 0 || fread(m, 1, 4, fp) != 4 || memcmp(m, "\x0a\x0d\x0d\x0a", 4) ||
        fseek(fp, at, SEEK_SET) != 0) {
        if (at >= 0)
            fseek(fp, at, SEEK_SET);
        return 0;
    }
    /* the link types of every interface description: blocks' headers
     * read, other blocks' bodies skipped by a seek (no second read of the
     * packets); a malformed file stops the look (libpcap then says) */
    int mixed = 0, any = 0, swap = 0, fine = 0;
    unsigned char h[12], *body = NULL;
    while (!(mixed && fine) && fread(h, 1, 12, fp) == 12) {
        uint32_t t, len, bom;
        memcpy(&t, h, 4);
        if (t == 0x0A0D0D0A) {
            memcpy(&bom, h + 8, 4);
            if (bom != 0x1A2B3C4D && bom != 0x4D3C2B1A)
                break;
            swap = bom == 0x4D3C2B1A;
        }
        memcpy(&len, h + 4, 4);
        if (swap) {
            t = __builtin_bswap32(t);
            len = __builtin_bswap32(len);
        }
        if (len < 12 || len % 4 || len > NG_MAX_BLOCK)
            break;
        if (t == 1 && len >= 20) {
            uint16_t d;
            memcpy(&d, h + 8, 2);
            int dl = swap ? __builtin_bswap16(d) : d;
            if (dl == 101)
                dl = DLT_RAW;
            if (!any++)
                *first = *other = dl;
            else if (dl != *first && !mixed) {
                *other = dl;
                mixed = 1;
            }
            /* its options, for the time resolution: read, not skipped */
            unsigned char *nb = fine ? NULL : realloc(body, len - 8);
            if (nb) {
                body = nb;
                memcpy(body, h + 8, 4);
                if (fread(body + 4, 1, len - 12, fp) != len - 12)
                    break;
                fine = idb_fine(body, len - 12, swap);
                continue;
            }
        }
        if (fseek(fp, (long)len - 12, SEEK_CUR) != 0)
            break;
    }
    free(body);
    fseek(fp, at, SEEK_SET);
    return mixed || fine;
}

cap_ng *cap_ng_open(FILE *fp)
{
    cap_ng *g = calloc(1, sizeof *g);
    if (g)
        g->fp = fp;
    return g;
}

void cap_ng_close(cap_ng *g)
{
    if (!g)
        return;
    free(g->buf);
    free(g->ifs);
    free(g);
}

int cap_ng_subns(const cap_ng *g, size_t iface, uint64_t *units)
{
    if (!g->subns)
        return 0;
    *units = iface < g->nifs ? g->ifs[iface].units : 0;
    return 1;
}

const char *cap_ng_error(const cap_ng *g)
{
    return g->err;
}

int cap_ng_snaplen(const cap_ng *g, size_t iface)
{
    return iface < g->nifs ? (int)g->ifs[iface].snaplen : 0;
}

int cap_ng_next(cap_ng *g, struct pcap_pkthdr *h, const unsigned char **data, int *dlt,
                size_t *iface)
{
    uint32_t t;
    size_t n;
    int r;
    while ((r = next_block(g, &t, &n)) == 1) {
        const unsigned char *p = g->buf;
        size_t ifc = 0, hl;
        uint64_t ts = 0;
        uint32_t caplen, len;
        int timed = 1;
        if (t == 1) {
            if (add_if(g, p, n) != 0)
                return -1;
            continue;
        } else if (t == 6 && n >= 20) { /* enhanced packet */
            ifc = u32(g, p);
            ts = (uint64_t)u32(g, p + 4) << 32 | u32(g, p + 8);
            caplen = u32(g, p + 12);
            len = u32(g, p + 16);
            hl = 20;
        } else if (t == 2 && n >= 20) { /* obsolete packet */
            ifc = u16(g, p);
            ts = (uint64_t)u32(g, p + 4) << 32 | u32(g, p + 8);
            caplen = u32(g, p + 12);
            len = u32(g, p + 16);
            hl = 20;
        } else if (t == 3 && n >= 4) { /* simple packet: no time */
            len = u32(g, p);
            caplen = (uint32_t)(n - 4 < len ? n - 4 : len);
            if (g->nifs && g->ifs[0].snaplen && caplen > g->ifs[0].snaplen)
                caplen = g->ifs[0].snaplen;
            hl = 4;
            timed = 0;
        } else if (t == 6 || t == 2 || t == 3) {
            snprintf(g->err, sizeof g->err, "packet block %ld too short (%zu bytes)",
                     g->block, n);
            return -1;
        } else {
            continue; /* statistics, name resolution, custom, ... */
        }
        if (ifc >= g->nifs) {
            snprintf(g->err, sizeof g->err, "packet block %ld names interface %zu, but "
                     "%zu were described", g->block, ifc, g->nifs);
            return -1;
        }
        if (caplen > n - hl) {
            snprintf(g->err, sizeof g->err, "packet block %ld holds %zu bytes, but says "
                     "%u were captured", g->block, n - hl, caplen);
            return -1;
        }
        const ng_if *f = &g->ifs[ifc];
        uint64_t sec = timed ? ts / f->units : 0, frac = timed ? ts % f->units : 0;
        /* the fraction in nanoseconds, exactly (frac < units <= 2^63: the
         * product fits in 128 bits); a part below 1 ns (a resolution finer
         * than 1 ns, or a base-2 one) is cut, and said (cap_ng_subns) */
        unsigned __int128 fx = (unsigned __int128)frac * 1000000000u;
        uint64_t ns = (uint64_t)(fx / f->units);
        g->subns = timed && fx % f->units != 0;
        h->ts.tv_sec = (time_t)((int64_t)sec + f->offset);
        h->ts.tv_usec = (suseconds_t)ns; /* nanoseconds, as libpcap's NANO precision */
        h->caplen = caplen;
        h->len = len < caplen ? caplen : len;
        *data = p + hl;
        *dlt = f->dlt;
        *iface = ifc;
        return 1;
    }
    return r == 0 ? 0 : -1;
}
