/*
 * imp_capture_frag.c - IPv4 and IPv6 fragments of a packet capture put
 * back together (imp_capture_int.h), so that a TCP segment a router (or an
 * IPv6 sender) split is read whole rather than becoming a gap of its
 * stream.  Datagrams are keyed by (version, source, destination,
 * identification, protocol) as RFC 791 and RFC 8200 (4.5) key them; a
 * bounded number wait at once (the oldest is given up when more start),
 * each at most 65535 bytes of payload.  What cannot be put together (a
 * fragment cut by the snapshot length, a datagram whose fragments never
 * all came, one given up, overlapping parts that disagree in length) is
 * counted by the caller and said.
 */
#include "imp_capture_int.h"

#include <stdlib.h>
#include <string.h>

#define FRAG_WAIT 64 /* datagrams waiting for fragments at once */

typedef struct frag_dgram {
    int used;
    int v6;
    uint8_t src[16], dst[16], proto;
    uint32_t id;
    uint64_t born;          /* order of arrival, to give up the oldest */
    unsigned char hdr[60];  /* the first fragment's IP header (IPv6: its
                             * 40-byte fixed header) */
    size_t hlen;            /* 0 until the first fragment came */
    size_t total;           /* payload bytes, once the last fragment came */
    size_t have;            /* payload bytes received (distinct) */
    unsigned nfrags;
    long pkt;               /* the capture's packet number of its first part */
    unsigned char got[65536 / 8 / 8]; /* a bit per 8-byte block */
    unsigned char data[65536];
} frag_dgram;

struct cap_frags {
    frag_dgram d[FRAG_WAIT];
    uint64_t clock;
    unsigned char out[65536 + 60];
};

cap_frags *cap_frags_new(void)
{
    return calloc(1, sizeof(cap_frags));
}

unsigned cap_frags_free(cap_frags *f, long *first, unsigned *left6)
{
    unsigned left = 0, any = 0;
    *left6 = 0;
    if (!f)
        return 0;
    for (int i = 0; i < FRAG_WAIT; i++)
        if (f->d[i].used) {
            if (!any++ || f->d[i].pkt < *first)
                *first = f->d[i].pkt;
            if (f->d[i].v6)
                *left6 += f->d[i].nfrags;
            else
                left += f->d[i].nfrags;
        }
    free(f);
    return left;
}

static int block_got(const frag_dgram *g, size_t b)
{
    return g->got[b / 8] >> (b % 8) & 1;
}

/* one fragment of datagram (v6, src, dst, id, proto): n payload bytes
 * p at payload offset at, mf its more-fragments flag; hdr[0..hl) the
 * header a whole datagram gets (taken from the fragment at offset 0) */
static const unsigned char *frag_put(cap_frags *f, int v6, const unsigned char *src,
                                     const unsigned char *dst, uint32_t id, uint8_t proto,
                                     const unsigned char *hdr, size_t hl, size_t at,
                                     const unsigned char *p, size_t n, int mf, long pkt,
                                     size_t *len, unsigned *lost, long *lost_pkt,
                                     int *lost_v6)
{
    size_t al = v6 ? 16 : 4;
    frag_dgram *g = NULL, *oldest = NULL, *free_slot = NULL;
    for (int i = 0; i < FRAG_WAIT; i++) {
        frag_dgram *x = &f->d[i];
        if (!x->used) {
            if (!free_slot)
                free_slot = x;
            continue;
        }
        if (x->v6 == v6 && x->id == id && x->proto == proto && !memcmp(x->src, src, al) &&
            !memcmp(x->dst, dst, al)) {
            g = x;
            break;
        }
        if (!oldest || x->born < oldest->born)
            oldest = x;
    }
    if (!g) {
        g = free_slot;
        if (!g) { /* too many waiting: the oldest is given up */
            g = oldest;
            *lost = g->nfrags;
            *lost_pkt = g->pkt;
            *lost_v6 = g->v6;
        }
        memset(g->got, 0, sizeof g->got);
        g->used = 1;
        g->v6 = v6;
        memset(g->src, 0, sizeof g->src);
        memset(g->dst, 0, sizeof g->dst);
        memcpy(g->src, src, al);
        memcpy(g->dst, dst, al);
        g->proto = proto;
        g->id = id;
        g->born = f->clock++;
        g->hlen = g->total = g->have = 0;
        g->nfrags = 0;
        g->pkt = pkt;
    }
    g->nfrags++;
    if (!mf) {
        if (g->total && g->total != at + n) {
            *lost = g->nfrags; /* two last fragments that disagree */
            *lost_pkt = g->pkt;
            *lost_v6 = v6;
            g->used = 0;
            return NULL;
        }
        g->total = at + n;
    }
    if (!at) {
        memcpy(g->hdr, hdr, hl);
        g->hlen = hl;
    }
    /* a part already received (a retransmitted fragment) is kept as
     * first received, as TCP's reassembly keeps its first copy */
    for (size_t b = at / 8; b * 8 < at + n; b++) {
        size_t lo = b * 8, hi = lo + 8 < at + n ? lo + 8 : at + n;
        if (block_got(g, b))
            continue;
        memcpy(g->data + lo, p + (lo - at), hi - lo);
        g->got[b / 8] |= (unsigned char)(1u << (b % 8));
        g->have += hi - lo;
    }
    if (!g->hlen || !g->total || g->have < g->total)
        return NULL;
    if (!v6 && g->hlen + g->total > 65535) {
        /* the first part's header longer than the last part's bound
         * assumed: a datagram no length field can hold, given up */
        *lost = g->nfrags;
        *lost_pkt = g->pkt;
        *lost_v6 = 0;
        g->used = 0;
        return NULL;
    }
    /* whole: the first fragment's header, its length and flags made those
     * of an unfragmented datagram */
    memcpy(f->out, g->hdr, g->hlen);
    memcpy(f->out + g->hlen, g->data, g->total);
    size_t all = g->hlen + g->total;
    if (v6) {
        f->out[4] = (unsigned char)(g->total >> 8);
        f->out[5] = (unsigned char)g->total;
        f->out[6] = g->proto; /* extension headers before the fragment
                               * header are not kept: TCP follows */
    } else {
        f->out[2] = (unsigned char)(all >> 8);
        f->out[3] = (unsigned char)all;
        f->out[6] &= 0x40; /* DF kept, MF and the offset cleared */
        f->out[7] = 0;
    }
    *len = all;
    g->used = 0;
    return f->out;
}

const unsigned char *cap_frags_add(cap_frags *f, const unsigned char *ip, size_t left,
                                   long pkt, size_t *len, unsigned *lost, long *lost_pkt,
                                   int *lost_v6)
{
    *lost = 0;
    *lost_pkt = pkt;
    *lost_v6 = 0;
    size_t hl = (size_t)(ip[0] & 15) * 4, tl = (size_t)(ip[2] << 8 | ip[3]);
    unsigned fo = (unsigned)((ip[6] & 0x1f) << 8 | ip[7]);
    int mf = ip[6] & 0x20;
    if (tl > left || tl <= hl || (mf && (tl - hl) % 8)) {
        *lost = 1; /* cut by the snapshot length, or not a valid fragment */
        return NULL;
    }
    size_t at = (size_t)fo * 8, n = tl - hl;
    if (at + n > 65535 - hl) {
        *lost = 1;
        return NULL;
    }
    uint32_t id = (uint32_t)(ip[4] << 8 | ip[5]);
    return frag_put(f, 0, ip + 12, ip + 16, id, ip[9], ip, hl, at, ip + hl, n, mf, pkt, len,
                    lost, lost_pkt, lost_v6);
}

const unsigned char *cap_frags_add6(cap_frags *f, const unsigned char *ip, size_t left,
                                    size_t fh, long pkt, size_t *len, unsigned *lost,
                                    long *lost_pkt, int *lost_v6)
{
    *lost = 0;
    *lost_pkt = pkt;
    *lost_v6 = 1;
    size_t tl = 40 + (size_t)(ip[4] << 8 | ip[5]);
    const unsigned char *h = ip + fh;
    unsigned fo = (unsigned)(h[2] << 8 | h[3]);
    int mf = fo & 1;
    size_t at = fo & ~7u;
    if (tl > left || tl <= fh + 8 || (mf && (tl - fh - 8) % 8)) {
        *lost = 1; /* cut by the snapshot length, or not a valid fragment */
        return NULL;
    }
    size_t n = tl - fh - 8;
    if (at + n > 65535) {
        *lost = 1;
        return NULL;
    }
    uint32_t id = (uint32_t)h[4] << 24 | (uint32_t)h[5] << 16 | (uint32_t)h[6] << 8 | h[7];
    return frag_put(f, 1, ip + 8, ip + 24, id, h[0], ip, 40, at, h + 8, n, mf, pkt, len, lost,
                    lost_pkt, lost_v6);
}
