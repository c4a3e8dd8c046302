/*
 * imp_capture_frag.c - IPv4 fragments of a packet capture put back
 * together (imp_capture_int.h), so that a TCP segment a router split is
 * read whole rather than becoming a gap of its stream.  Datagrams are
 * keyed by (source, destination, identification, protocol) as RFC 791
 * keys them; a bounded number wait at once (the oldest is given up when
 * more start), each at most 65535 bytes.  What cannot be put together (a
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
    uint8_t src[4], dst[4], proto;
    uint16_t id;
    uint64_t born;          /* order of arrival, to give up the oldest */
    unsigned char hdr[60];  /* the first fragment's IP header */
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

unsigned cap_frags_free(cap_frags *f, long *first)
{
    unsigned left = 0;
    if (!f)
        return 0;
    for (int i = 0; i < FRAG_WAIT; i++)
        if (f->d[i].used) {
            if (!left || f->d[i].pkt < *first)
                *first = f->d[i].pkt;
            left += f->d[i].nfrags;
        }
    free(f);
    return left;
}

static int block_got(const frag_dgram *g, size_t b)
{
    return g->got[b / 8] >> (b % 8) & 1;
}

const unsigned char *cap_frags_add(cap_frags *f, const unsigned char *ip, size_t left,
                                   long pkt, size_t *len, unsigned *lost, long *lost_pkt)
{
    *lost = 0;
    *lost_pkt = pkt;
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
    uint16_t id = (uint16_t)(ip[4] << 8 | ip[5]);
    frag_dgram *g = NULL, *oldest = NULL, *free_slot = NULL;
    for (int i = 0; i < FRAG_WAIT; i++) {
        frag_dgram *x = &f->d[i];
        if (!x->used) {
            if (!free_slot)
                free_slot = x;
            continue;
        }
        if (x->id == id && x->proto == ip[9] && !memcmp(x->src, ip + 12, 4) &&
            !memcmp(x->dst, ip + 16, 4)) {
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
        }
        memset(g->got, 0, sizeof g->got);
        g->used = 1;
        memcpy(g->src, ip + 12, 4);
        memcpy(g->dst, ip + 16, 4);
        g->proto = ip[9];
        g->id = id;
        g->born = f->clock++;
        g->hlen = g->total = g->have = 0;
        g->nfrags = 0;
        g->pkt = pkt;
    }
    g->nfrags++;
    if (!mf) {
        if (g->total && g->total != at + n) {
            *lost += g->nfrags; /* two last fragments that disagree */
            *lost_pkt = g->pkt;
            g->used = 0;
            return NULL;
        }
        g->total = at + n;
    }
    if (!fo) {
        memcpy(g->hdr, ip, hl);
        g->hlen = hl;
    }
    /* a part already received (a retransmitted fragment) is kept as
     * first received, as TCP's reassembly keeps its first copy */
    for (size_t b = at / 8; b * 8 < at + n; b++) {
        size_t lo = b * 8, hi = lo + 8 < at + n ? lo + 8 : at + n;
        if (block_got(g, b))
            continue;
        memcpy(g->data + lo, ip + hl + (lo - at), hi - lo);
        g->got[b / 8] |= (unsigned char)(1u << (b % 8));
        g->have += hi - lo;
    }
    if (!g->hlen || !g->total || g->have < g->total)
        return NULL;
    /* whole: the first fragment's header, its length and flags made those
     * of an unfragmented datagram */
    memcpy(f->out, g->hdr, g->hlen);
    memcpy(f->out + g->hlen, g->data, g->total);
    size_t all = g->hlen + g->total;
    f->out[2] = (unsigned char)(all >> 8);
    f->out[3] = (unsigned char)all;
    f->out[6] &= 0x40; /* DF kept, MF and the offset cleared */
    f->out[7] = 0;
    *len = all;
    g->used = 0;
    return f->out;
}
