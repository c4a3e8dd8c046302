/*
 * imp_capture_pcap.c - packet captures (Project 5's way, seed 000, 6):
 * pcap and pcapng through libpcap, nanosecond stamps where the file has
 * them; link types Ethernet, BSD loopback (NULL, LOOP), Linux cooked (SLL,
 * SLL2; VLAN tags read through) and raw IP; IPv4 and IPv6 (extension
 * headers and IPsec AH skipped; fragments of both put back together)
 * carrying TCP, bare or inside a tunnel (IP in IP, GRE, VXLAN, Geneve:
 * tunnel_in); data in a SYN (TCP Fast Open) read.  Each TCP direction is put back in order by sequence number
 * from its SYN (or its first segment): a segment stamped before the bytes in
 * front of it is held back until they come; a retransmitted or overlapping
 * part is dropped; a gap (a packet the capture lost) becomes bytes that
 * were moved but not seen, as a payload cap would.  There are no threads and one
 * clock (the capture point's): a message has its send time only.
 */
#include "imp_capture_int.h"

#include <arpa/inet.h>
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pb_files.h"

/* IPv6 extension headers from nh at *iphl: hop-by-hop (0), routing (43),
 * destination options (60), and the others RFC 7045 lists that may stand
 * before TCP -- mobility (135), HIP (139), shim6 (140), the experimental 253
 * and 254 (RFC 8200's layout: a length in 8-byte units past the first 8)
 * and IPsec's authentication header (51: in 4-byte units past the first 2,
 * RFC 4302) -- skipped by their length.  Before, only the first three were:
 * a packet behind one of the others (every packet of a host using AH) was
 * skipped without a word.  Returns the next header after them; *iphl moves
 * past them. */
static unsigned v6_ext(const u_char *ip, size_t left, unsigned nh, size_t *iphl)
{
    while ((nh == 0 || nh == 43 || nh == 60 || nh == 51 || nh == 135 || nh == 139 ||
            nh == 140 || nh == 253 || nh == 254) &&
           left >= *iphl + 8) {
        size_t el = nh == 51 ? ((size_t)ip[*iphl + 1] + 2) * 4
                             : ((size_t)ip[*iphl + 1] + 1) * 8;
        nh = ip[*iphl];
        *iphl += el;
    }
    return nh;
}

/* 1 when the fragment header at iphl may lead to TCP: directly, or
 * through an AH, which RFC 8200 puts after the fragment header (only the
 * first fragment holds it: the datagram put back together is checked) */
static int v6_ext_tcp(const u_char *ip, size_t iphl)
{
    return ip[iphl] == 6 || ip[iphl] == 51;
}

/* Tunnels.  A capture on a Kubernetes node's own interface holds the pods'
 * traffic inside the overlay's tunnel -- Calico's IP in IP (protocol 4),
 * flannel's and Cilium's VXLAN (UDP 8472 and RFC 7348's 4789), Geneve (UDP
 * 6081, RFC 8926), GRE (47, RFC 2784/2890; with ERSPAN II and III, a
 * switch's mirrored port), IPv6 in IPv4 (41) -- and every such packet was
 * skipped as not TCP without a word ("no request ... was found", or the
 * tunnelled part of a capture lost).  The packet inside is read as if it
 * had been captured bare, named by its own addresses (the pods').  Given
 * the payload p[0..n) of an unfragmented packet of IP protocol proto:
 * returns the tunnel's kind (TUN_*) and sets *in, *inlen and *et (the
 * inner IP packet and its ethertype) when it is such a tunnel around IPv4
 * or IPv6; else 0. */
enum { TUN_IPIP = 1, TUN_GRE, TUN_VXLAN, TUN_GENEVE };
static int tunnel_in(unsigned proto, const u_char *p, size_t n, const u_char **in,
                     size_t *inlen, int *et)
{
    size_t o = 0;
    int eth = 0, kind;
    switch (proto) {
    case 4:
    case 41:
        *et = proto == 4 ? 0x0800 : 0x86dd;
        kind = TUN_IPIP;
        break;
    case 47: { /* GRE version 0: checksum, key, sequence number if flagged */
        if (n < 4 || (p[1] & 7))
            return 0;
        unsigned pt = (unsigned)(p[2] << 8 | p[3]);
        o = 4 + ((p[0] & 0x80) ? 4 : 0) + ((p[0] & 0x20) ? 4 : 0) + ((p[0] & 0x10) ? 4 : 0);
        if (pt == 0x0800 || pt == 0x86dd) {
            *et = (int)pt;
        } else if (pt == 0x6558) { /* transparent Ethernet bridging */
            eth = 1;
        } else if (pt == 0x88be) { /* ERSPAN type II: 8 bytes */
            o += 8;
            eth = 1;
        } else if (pt == 0x22eb) { /* ERSPAN type III: 12, and 8 more (O) */
            if (n < o + 12)
                return 0;
            o += 12 + ((p[o + 11] & 1) ? 8 : 0);
            eth = 1;
        } else {
            return 0;
        }
        kind = TUN_GRE;
        break;
    }
    case 17: { /* UDP */
        if (n < 16)
            return 0;
        unsigned dp = (unsigned)(p[2] << 8 | p[3]);
        if (dp == 4789 || dp == 8472) { /* VXLAN: the I flag, then Ethernet */
            if (!(p[8] & 0x08))
                return 0;
            o = 16;
            eth = 1;
            kind = TUN_VXLAN;
        } else if (dp == 6081) { /* Geneve version 0, its options */
            unsigned pt = (unsigned)(p[10] << 8 | p[11]);
            if (p[8] >> 6)
                return 0;
            o = 16 + (size_t)(p[8] & 0x3f) * 4;
            if (pt == 0x6558)
                eth = 1;
            else if (pt == 0x0800 || pt == 0x86dd)
                *et = (int)pt;
            else
                return 0;
            kind = TUN_GENEVE;
        } else {
            return 0;
        }
        break;
    }
    default:
        return 0;
    }
    if (eth) { /* an Ethernet frame inside, VLAN tags read through */
        if (n < o + 14)
            return 0;
        *et = p[o + 12] << 8 | p[o + 13];
        o += 14;
        while ((*et == 0x8100 || *et == 0x88a8 || *et == 0x9100) && n >= o + 4) {
            *et = p[o + 2] << 8 | p[o + 3];
            o += 4;
        }
        if (*et != 0x0800 && *et != 0x86dd)
            return 0;
    }
    if (n < o + 20)
        return 0;
    *in = p + o;
    *inlen = n - o;
    return kind;
}

/* a segment that came before the bytes in front of it (held back) */
typedef struct pend {
    uint32_t seq;
    size_t wire, seen;       /* bytes on the wire, bytes captured */
    pb_ns ts;
    unsigned char *data;     /* the seen bytes (a copy) */
} pend;

/* per TCP direction: the next sequence number expected */
typedef struct flow {
    uint32_t src, dst;       /* endpoints */
    uint32_t conn;
    int dir;
    int have_seq;
    uint32_t next;
    int syn_data;            /* its SYN carried data (TCP Fast Open) */
    uint32_t isn;            /* that SYN's sequence number */
    int file;                /* the file (cap.pfile) it was last met in */
    int has_syn;             /* its connection's SYN (or SYN-ACK) was seen: */
    uint32_t syn_isn;        /* its sequence number */
    pend *pq;                /* held back, in arrival order */
    size_t npq, cappq, pbytes;
} flow;

/* Segments out of order.  A segment past the next expected byte is held
 * back (up to PEND_MAX segments or PEND_BYTES bytes a direction, PEND_ALL
 * in all) until the
 * bytes before it come -- a capture on several queues or interfaces (tcpdump
 * -i any) stamps a later segment first -- and is then read after them, at
 * their time (the stream is readable from then on).  Before, the earlier
 * segment was taken for a retransmission and its bytes for a gap: the
 * message it carried and every later one on its connection lost (a header
 * gap ends the stream), said only as "streams whose headers were not
 * captured".  Bytes that never come (past the limits, at FIN or RST, at the
 * end of the file) are a gap as before, at the held segment's time. */
enum { PEND_MAX = 64, PEND_BYTES = 1 << 20, PEND_ALL = 1 << 25 };

static cap_seg wire_seg(const flow *f, pb_ns ts, int kind);

/* emit one segment (seq, wire, seen bytes pl) of f at ts: the part past
 * f->next, a gap before it when gap_ok */
static int seg_emit(cap *c, flow *f, uint32_t seq, size_t wire, size_t seen,
                    const u_char *pl, pb_ns ts)
{
    int32_t delta = (int32_t)(seq - f->next);
    size_t skip = 0, gap = 0;
    int rc;
    if (delta < 0) {
        skip = (size_t)(-(int64_t)delta); /* retransmitted part */
        if (skip >= wire)
            skip = wire;
    } else if (delta > 0) {
        gap = (size_t)delta;              /* lost from the capture */
    }
    cap_seg s = wire_seg(f, ts, CAP_DATA);
    if (gap) {
        s.bytes = gap;
        s.plen = 0;
        if ((rc = cap_add_seg(c, &s, (const unsigned char *)"")) != PB_OK)
            return rc;
    }
    if (skip < wire) {
        s.bytes = wire - skip;
        s.plen = (uint32_t)(seen > skip ? seen - skip : 0);
        if ((rc = cap_add_seg(c, &s, pl + skip)) != PB_OK)
            return rc;
    }
    if (skip < wire || gap)
        f->next = seq + (uint32_t)wire;
    return PB_OK;
}

/* read the held segments that now follow f->next (all of them when
 * force: the first one's missing bytes a gap), each at no earlier than
 * at (the time the bytes before it came); *moved counts those read after
 * bytes that came later than they did */
static int pend_drain(cap *c, flow *f, int force, pb_ns at, uint64_t *moved, size_t *held)
{
    int rc = PB_OK;
    while (f->npq && rc == PB_OK) {
        size_t best = SIZE_MAX;
        int32_t bd = 0;
        for (size_t i = 0; i < f->npq; i++) {
            int32_t d = (int32_t)(f->pq[i].seq - f->next);
            if (best == SIZE_MAX || d < bd)
                best = i, bd = d;
        }
        if (bd > 0 && !force)
            break;
        pend q = f->pq[best];
        memmove(f->pq + best, f->pq + best + 1, (f->npq - best - 1) * sizeof *f->pq);
        f->npq--;
        f->pbytes -= q.seen;
        *held -= q.seen;
        pb_ns ts = q.ts < at ? at : q.ts;
        if (bd <= 0 && (int32_t)(q.seq + (uint32_t)q.wire - f->next) > 0 && q.ts < at)
            (*moved)++;
        rc = seg_emit(c, f, q.seq, q.wire, q.seen, q.data, ts);
        if (ts > at)
            at = ts;
        free(q.data);
    }
    return rc;
}

static void pend_free(flow *f)
{
    for (size_t i = 0; i < f->npq; i++)
        free(f->pq[i].data);
    free(f->pq);
    f->pq = NULL;
    f->npq = f->cappq = f->pbytes = 0;
}

/* A segment flow f's packet at ts makes on the wire: data or its end. */
static cap_seg wire_seg(const flow *f, pb_ns ts, int kind)
{
    cap_seg s;
    memset(&s, 0, sizeof s);
    s.ts = ts;
    s.conn = f->conn;
    s.dir = (uint8_t)f->dir;
    s.view = CAP_WIRE;
    s.kind = (uint8_t)kind;
    s.tidnum = -1;
    return s;
}

/* one (src, dst) direction has one record (a new SYN reuses it): found
 * through a hash index, not a scan of every flow so far, which made a
 * capture of many short connections quadratic */
typedef struct flow_key {
    const flow *f;
    uint32_t src, dst;
} flow_key;

static int flow_eq(const void *ctx, uint32_t i)
{
    const flow_key *k = ctx;
    return k->f[i].src == k->src && k->f[i].dst == k->dst;
}

static flow *find_flow(flow *f, const cap_idx *ix, uint32_t src, uint32_t dst)
{
    flow_key k = {f, src, dst};
    uint32_t at = cap_idx_find(ix, cap_hash3(src, dst, 0), flow_eq, &k);
    return at ? &f[at - 1] : NULL;
}

/* The flows of the files read so far (cap.pflows): a capture in several
 * files -- a ring buffer or a rotation (tcpdump -C / -G / -W, dumpcap -b,
 * editcap -c), one capture per host -- holds connections open across a
 * file boundary, and the same connection in two files.  Before, each file
 * began with no flows: a connection going on into the next file was
 * joined open there (its message across the boundary lost, the answers to
 * requests of the file before left out), and one met again in a later
 * file (its SYN again: both its ends captured, or one capture given
 * twice) became a second connection, every request on it counted twice,
 * without a word. */
typedef struct pflows {
    flow *fl;
    size_t nfl, flcap;
    cap_idx flix;
} pflows;

void cap_pcap_free(cap *c)
{
    pflows *pf = c->pflows;
    if (!pf)
        return;
    for (size_t i = 0; i < pf->nfl; i++)
        pend_free(&pf->fl[i]);
    free(pf->fl);
    cap_idx_free(&pf->flix);
    free(pf);
    c->pflows = NULL;
}

int cap_pcap_first(const char *path, pb_ns *ts)
{
    if (!strcmp(path, "-"))
        return 0;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0;
    int first = 0, other = 0, got = 0;
    struct pcap_pkthdr *h, ngh;
    const u_char *d;
    long long sec = 0, frac = 0;
    if (cap_ng_mixed(fp, &first, &other)) {
        cap_ng *g = cap_ng_open(fp);
        int dlt;
        size_t ifn;
        if (g && cap_ng_next(g, &ngh, &d, &dlt, &ifn) == 1) {
            got = 1;
            sec = (long long)ngh.ts.tv_sec;
            frac = (long long)ngh.ts.tv_usec;
        }
        cap_ng_close(g);
        fclose(fp);
    } else {
        char eb[PCAP_ERRBUF_SIZE];
        pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, eb);
        if (!p) {
            fclose(fp);
            return 0;
        }
        if (pcap_next_ex(p, &h, &d) == 1) {
            got = 1;
            sec = (long long)h->ts.tv_sec;
            if (pcap_major_version(p) == 2 && sec < 0 && sec >= INT32_MIN)
                sec += 4294967296LL; /* as cap_read_pcap reads it */
            frac = (long long)h->ts.tv_usec;
        }
        pcap_close(p); /* closes fp */
    }
    if (!got || sec < 0 || sec > 9200000000LL || frac < 0 || frac > 999999999)
        return 0;
    *ts = (pb_ns)(sec * 1000000000LL + frac);
    return 1;
}

static int ep_text(cap *c, int v6, const unsigned char *addr, unsigned port, uint32_t *out)
{
    char ip[INET6_ADDRSTRLEN], buf[INET6_ADDRSTRLEN + 10];
    inet_ntop(v6 ? AF_INET6 : AF_INET, addr, ip, sizeof ip);
    int l = v6 ? snprintf(buf, sizeof buf, "[%s]:%u", ip, port)
               : snprintf(buf, sizeof buf, "%s:%u", ip, port);
    return cap_ep(c, buf, (size_t)l, out);
}

/* n TCP fragments not read (v6: IPv6), the first in packet pkt of path:
 * counted, the first one's place kept for the meta line. */
/* a packet found inside a tunnel of kind tun, depth tunnels in already:
 * counted once (at its outermost tunnel), the first one's place kept for
 * the metadata line */
static void tunnel_seen(cap *c, const char *path, long pkt, int tun, int depth)
{
    if (!depth)
        c->tunnel_pkts++, c->tunnel_kinds |= 1u << tun;
    if (!c->tunnel_first) {
        c->tunnel_first = pkt;
        snprintf(c->tunnel_msg, sizeof c->tunnel_msg, "%s", path);
    }
}

static void frag_seen(cap *c, const char *path, long pkt, int v6, unsigned n)
{
    if (!c->frag4 && !c->frag6) {
        c->frag_first = pkt;
        snprintf(c->frag_msg, sizeof c->frag_msg, "%s", path);
    } else if (!strcmp(c->frag_msg, path) && pkt < c->frag_first) {
        c->frag_first = pkt;
    }
    if (v6)
        c->frag6 += n;
    else
        c->frag4 += n;
}

/* A fragment of packet pkt (ip[0..left); fh the offset of an IPv6
 * fragment header, 0 for IPv4) given to the table *frags (made at the
 * first fragment): the whole datagram (*dl bytes) once its last part
 * came, else NULL; fragments given up on the way are counted
 * (frag_seen).  *rc = PB_ENOMEM when the table cannot be made.  The one
 * set-up of IPv4 and IPv6 fragments. */
static const u_char *frag_join(cap *c, const char *path, cap_frags **frags,
                               const u_char *ip, size_t left, size_t fh, long pkt,
                               size_t *dl, int *rc)
{
    if (!*frags && !(*frags = cap_frags_new())) {
        *rc = PB_ENOMEM;
        return NULL;
    }
    unsigned lost;
    long lost_pkt;
    int lost_v6;
    const u_char *whole =
        fh ? cap_frags_add6(*frags, ip, left, fh, pkt, dl, &lost, &lost_pkt, &lost_v6)
           : cap_frags_add(*frags, ip, left, pkt, dl, &lost, &lost_pkt, &lost_v6);
    if (lost)
        frag_seen(c, path, lost_pkt, lost_v6, lost);
    if (whole)
        c->frag_joined++;
    return whole;
}

static int dlt_known(int dlt)
{
    return dlt == DLT_EN10MB || dlt == DLT_NULL || dlt == DLT_LOOP || dlt == DLT_RAW ||
           dlt == DLT_LINUX_SLL || dlt == 276 /* LINUX_SLL2 */ || dlt == 228 /* IPV4 */ ||
           dlt == 229 /* IPV6 */;
}

/* the latest time a packet may have: the trace's nanoseconds end past it */
#define PCAP_MAX_SEC 9200000000LL

int cap_read_pcap(cap *c, const char *path, pb_error *err)
{
    char eb[PCAP_ERRBUF_SIZE];
    /* opened here: checked against the run's outputs, close-on-exec */
    FILE *fp = pb_files_open(path, err);
    if (!fp)
        return err->code;
    /* a pcapng file whose interfaces have two link types: libpcap refuses
     * it at the second interface (before, every packet after that was
     * lost, said only as "the capture ends in an error"); read by
     * imp_capture_pcapng.c, each packet by its interface's link type */
    int ng_first = 0, ng_other = 0;
    cap_ng *ng = NULL;
    pcap_t *p = NULL;
    int dlt;
    if (fp != stdin && cap_ng_mixed(fp, &ng_first, &ng_other)) {
        if (!(ng = cap_ng_open(fp))) {
            fclose(fp);
            return pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
        }
        dlt = !dlt_known(ng_first) ? ng_first : ng_other;
    } else {
        p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, eb);
        if (!p) {
            if (fp != stdin)
                fclose(fp);
            return pb_error_set(err, PB_EPARSE, path, 0, 0, "not a packet capture libpcap "
                                "can read: %s", eb);
        }
        dlt = pcap_datalink(p);
    }
    if (!dlt_known(dlt)) {
        const char *nm = pcap_datalink_val_to_name(dlt);
        if (p)
            pcap_close(p);
        else {
            cap_ng_close(ng);
            fclose(fp);
        }
        return pb_error_set(err, PB_EPARSE, path, 0, 0,
                            "link type %d (%s)%s; expected Ethernet, loopback, Linux "
                            "cooked or raw IP", dlt, nm ? nm : "unknown",
                            ng ? " of an interface of a pcapng file" : "");
    }
    if (!c->pflows && !(c->pflows = calloc(1, sizeof(pflows)))) {
        if (p)
            pcap_close(p);
        else {
            cap_ng_close(ng);
            fclose(fp);
        }
        return pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
    }
    pflows *pf = c->pflows;
    flow *fl = pf->fl;
    size_t nfl = pf->nfl, flcap = pf->flcap;
    cap_idx flix = pf->flix;
    c->pfile++;
    cap_frags *frags = NULL;
    struct pcap_pkthdr *h, ngh;
    const u_char *d;
    int r, rc = PB_OK;
    long pkt = 0;
    pb_ns last_ts = 0;
    size_t ngif = 0;
    uint64_t reordered = 0;
    size_t held = 0; /* bytes held back in every flow (at most about PEND_ALL) */
    while (rc == PB_OK) {
        if (ng) {
            r = cap_ng_next(ng, &ngh, &d, &dlt, &ngif);
            r = r == 1 ? 1 : r == 0 ? PCAP_ERROR_BREAK : PCAP_ERROR;
            h = &ngh;
            if (r == 1 && !dlt_known(dlt)) {
                const char *nm = pcap_datalink_val_to_name(dlt);
                rc = pb_error_set(err, PB_EPARSE, path, 0, 0,
                                  "packet %ld: link type %d (%s) of interface %zu of a "
                                  "pcapng file; expected Ethernet, loopback, Linux cooked "
                                  "or raw IP", pkt + 1, dlt, nm ? nm : "unknown", ngif);
                break;
            }
        } else {
            r = pcap_next_ex(p, &h, &d);
        }
        if (r != 1)
            break;
        pkt++;
        uint64_t units;
        if (ng && cap_ng_subns(ng, ngif, &units) && !c->subns_cut++) {
            c->subns_first = pkt;
            snprintf(c->subns_msg, sizeof c->subns_msg, "%s (interface %zu: %llu "
                     "units a second)", path, ngif, (unsigned long long)units);
        }
        /* a pcap file's seconds are an unsigned 32-bit field (stamps to
         * 2106), which libpcap hands on as a signed one: a capture made
         * after January 2038 read as before 1970 (refused as "out of
         * range"); read as the format defines it */
        long long sec = (long long)h->ts.tv_sec;
        if (p && pcap_major_version(p) == 2 && sec < 0 && sec >= INT32_MIN)
            sec += 4294967296LL;
        /* a time past what the trace holds (a pcapng time stamp, its
         * resolution or offset wrong): before, the nanoseconds overflowed
         * (undefined behaviour; a negative time written) */
        if (sec < 0 || sec > PCAP_MAX_SEC) {
            rc = pb_error_set(err, PB_ERANGE, path, 0, 0,
                              "packet %ld: time stamp %lld s is out of range; expected "
                              "seconds from 0 to %lld (a pcapng time stamp, if_tsresol or "
                              "if_tsoffset wrong?)", pkt, sec,
                              (long long)PCAP_MAX_SEC);
            break;
        }
        /* the sub-second field at or past one second (libpcap hands it on
         * as read, scaled to nanoseconds): before, the packet's time moved
         * by whole seconds without a word and the streams were garbled */
        if (h->ts.tv_usec < 0 || (long long)h->ts.tv_usec >= 1000000000LL) {
            rc = pb_error_set(err, PB_ERANGE, path, 0, 0,
                              "packet %ld: the sub-second part of its time stamp is "
                              "%lld ns; expected under one second (a microsecond field "
                              "above 999999, or a nanosecond one above 999999999)",
                              pkt, (long long)h->ts.tv_usec);
            break;
        }
        c->st.events++;
        c->snap_pkts++;
        /* one clock: a stamp before the one before it is a clock that
         * stepped back or a merge out of order (said: capture: backward) */
        pb_ns ts = (pb_ns)sec * 1000000000LL + (pb_ns)h->ts.tv_usec;
        if (pkt > 1 && ts < last_ts) {
            if (!c->back_pkts++) {
                c->back_first = pkt;
                snprintf(c->back_msg, sizeof c->back_msg, "%s", path);
            }
            if (last_ts - ts > c->back_max)
                c->back_max = last_ts - ts;
        }
        last_ts = ts;
        if (h->caplen < h->len) {
            /* cut by the snapshot length: the lost bytes are a gap of the
             * stream (sizes and times still come from the IP lengths);
             * said on stderr, with the number (cap_snap_meta) */
            if (!c->snap_cut++) {
                c->snap_first = pkt;
                snprintf(c->snap_msg, sizeof c->snap_msg, "%s (snapshot length %d bytes)",
                         path, p ? pcap_snapshot(p) : cap_ng_snaplen(ng, ngif));
            }
            c->snap_lost += h->len - h->caplen;
        }
        size_t caplen = h->caplen, off = 0;
        int ethertype = -1;
        switch (dlt) {
        case DLT_EN10MB:
            if (caplen < 14)
                continue;
            ethertype = d[12] << 8 | d[13];
            off = 14;
            break;
        case DLT_NULL:
        case DLT_LOOP: {
            if (caplen < 4)
                continue;
            uint32_t fam;
            memcpy(&fam, d, 4);
            if (dlt == DLT_LOOP)
                fam = ntohl(fam);
            else if (fam > 0xffff)
                fam = ntohl(fam);
            ethertype = fam == 2 ? 0x0800 : (fam == 10 || fam == 24 || fam == 28 || fam == 30) ? 0x86dd : -1;
            off = 4;
            break;
        }
        case DLT_LINUX_SLL:
            if (caplen < 16)
                continue;
            ethertype = d[14] << 8 | d[15];
            off = 16;
            break;
        case 276:
            if (caplen < 20)
                continue;
            ethertype = d[0] << 8 | d[1];
            off = 20;
            break;
        default: /* raw IP */
            ethertype = caplen && (d[0] >> 4) == 6 ? 0x86dd : 0x0800;
            off = 0;
            break;
        }
        /* VLAN tags: 802.1Q (0x8100), and the outer tags of 802.1ad
         * (0x88a8, and the 0x9100 of older switches) that carriers and
         * cloud fabrics stack in front of it (before, such packets were
         * skipped: a capture on a trunk port lost them).  A cooked capture
         * (tcpdump -i any: Linux SLL and SLL2) has them too: libpcap puts
         * the tag the card took off back in front of the protocol field,
         * so its protocol reads 0x8100 (before, every packet of a VLAN
         * interface was skipped without a word). */
        if (dlt == DLT_EN10MB || dlt == DLT_LINUX_SLL || dlt == 276) {
            while ((ethertype == 0x8100 || ethertype == 0x88a8 || ethertype == 0x9100) &&
                   caplen >= off + 4) {
                ethertype = d[off + 2] << 8 | d[off + 3];
                off += 4;
            }
        }
        int depth = 0; /* tunnels this packet was found inside */
    inner:;
        const u_char *ip = d + off;
        size_t left = caplen - off, iphl, iplen, iptotal;
        int tun;
        const u_char *tin;
        size_t tinlen;
        /* an IP length field of 0 (TCP segmentation offload: the card
         * writes it; Linux's BIG TCP past 64 KiB): the frame's length
         * (h->len, which a snapshot does not cut) is the packet's; on
         * Ethernet a frame of exactly 60 bytes (the minimum) may be padded,
         * so such a one is skipped, counted in the same line */
        int tso = 0;
        int v6;
        const u_char *sa, *da;
        if (ethertype == 0x0800 && left >= 20 && (ip[0] >> 4) == 4) {
            v6 = 0;
            iphl = (size_t)(ip[0] & 15) * 4;
            iplen = (size_t)(ip[2] << 8 | ip[3]);
            if (iphl < 20)
                continue;
            if (ip[9] != 6 && ip[9] != 51) {
                /* not TCP (or TCP behind IPsec's AH): a tunnel's packet
                 * inside, unfragmented, is read as captured bare */
                size_t lim = iplen < left ? iplen : left;
                if (depth < 4 && !((ip[6] & 0x3f) || ip[7]) && lim > iphl &&
                    (tun = tunnel_in(ip[9], ip + iphl, lim - iphl, &tin, &tinlen,
                                     &ethertype)) != 0) {
                    tunnel_seen(c, path, pkt, tun, depth++);
                    d = tin;
                    caplen = tinlen;
                    off = 0;
                    goto inner;
                }
                continue;
            }
            if (!depth && !iplen && !((ip[6] & 0x3f) || ip[7]) && h->len > off) {
                tso = 1;
                iplen = h->len - off;
            }
            if ((ip[6] & 0x3f) || ip[7]) {
                /* a fragment (more fragments, or an offset): put back
                 * together with its datagram's other parts, read once
                 * whole (at the time its last part came); what cannot be
                 * is counted and said, its bytes a gap of their stream */
                size_t dl;
                const u_char *whole = frag_join(c, path, &frags, ip, left, 0, pkt, &dl, &rc);
                if (rc != PB_OK)
                    break;
                if (!whole)
                    continue;
                ip = whole;
                left = iplen = dl;
            }
            if (ip[9] == 51) { /* IPv4 AH (RFC 4302): read through, as in IPv6 */
                if (left < iphl + 12 || ip[iphl] != 6)
                    continue;
                iphl += ((size_t)ip[iphl + 1] + 2) * 4;
            }
            sa = ip + 12;
            da = ip + 16;
        } else if (ethertype == 0x86dd && left >= 40 && (ip[0] >> 4) == 6) {
            v6 = 1;
            iphl = 40;
            iplen = 40 + (size_t)(ip[4] << 8 | ip[5]);
            if (!depth && iplen == 40 && h->len > off + 40) {
                tso = 1;
                iplen = h->len - off;
            }
            /* extension headers before TCP (v6_ext); a fragment header
             * (44) of a TCP packet: put back together with its datagram's
             * other parts as IPv4 fragments are (RFC 8200 4.5), read once
             * whole; what cannot be is counted and said */
            unsigned nh = v6_ext(ip, left, ip[6], &iphl);
            if (nh == 44 && left >= iphl + 8 && v6_ext_tcp(ip, iphl)) {
                size_t dl;
                const u_char *whole = frag_join(c, path, &frags, ip, left, iphl, pkt, &dl, &rc);
                if (rc != PB_OK)
                    break;
                if (!whole)
                    continue;
                ip = whole;
                left = iplen = dl;
                iphl = 40;
                nh = v6_ext(ip, left, ip[6], &iphl); /* AH comes after a fragment header */
            }
            if (nh != 6 && nh != 44 && depth < 4 && iphl < left &&
                (tun = tunnel_in(nh, ip + iphl, (iplen < left ? iplen : left) > iphl
                                                    ? (iplen < left ? iplen : left) - iphl
                                                    : 0,
                                 &tin, &tinlen, &ethertype)) != 0) {
                tunnel_seen(c, path, pkt, tun, depth++);
                d = tin;
                caplen = tinlen;
                off = 0;
                goto inner;
            }
            if (nh != 6 || iphl > left)
                continue;
            sa = ip + 8;
            da = ip + 24;
        } else {
            continue;
        }
        if (tso) {
            if (!c->tso && !c->tso_small) {
                c->tso_first = pkt;
                snprintf(c->tso_msg, sizeof c->tso_msg, "%s", path);
            }
            if (dlt == DLT_EN10MB && h->len == 60) {
                c->tso_small++;
                continue;
            }
            c->tso++;
        }
        iptotal = iplen;
        if (iplen > left)
            iplen = left; /* the snapshot cut the packet: the rest is a gap */
        if (iplen < iphl + 20)
            continue;
        const u_char *tcp = ip + iphl;
        size_t thl = (size_t)(tcp[12] >> 4) * 4;
        if (thl < 20 || iphl + thl > iplen)
            continue;
        unsigned sport = (unsigned)(tcp[0] << 8 | tcp[1]), dport = (unsigned)(tcp[2] << 8 | tcp[3]);
        uint32_t seq = (uint32_t)tcp[4] << 24 | (uint32_t)tcp[5] << 16 | (uint32_t)tcp[6] << 8 | tcp[7];
        int syn = tcp[13] & 0x02, ack = tcp[13] & 0x10, fin = tcp[13] & 0x01, rst = tcp[13] & 0x04;
        /* bytes on the wire: from the IP total length, even when cut */
        size_t wire = iptotal > iphl + thl ? iptotal - iphl - thl : 0;
        size_t seen = iplen - iphl - thl;
        if (seen > wire)
            seen = wire;
        uint32_t src, dst;
        if ((rc = ep_text(c, v6, sa, sport, &src)) != PB_OK ||
            (rc = ep_text(c, v6, da, dport, &dst)) != PB_OK)
            break;
        flow *f = find_flow(fl, &flix, src, dst);
        /* a flow of an earlier file (cap_pcap_free): the same SYN again is
         * the same connection met again (both ends captured, one capture
         * twice), read once; bytes from where it stopped on (or before:
         * sent again) go on in it (a rotated capture); a gap leaves it,
         * and its reverse, for a connection joined open as before */
        int same_syn = 0, fresh = 0;
        if (f && f->file != c->pfile) {
            int count = f->dir == CAP_C2S;
            if (syn && f->has_syn && seq == f->syn_isn) {
                same_syn = 1;
                if (count && !c->again_conns++)
                    snprintf(c->again_msg, sizeof c->again_msg, "%s", path);
            } else if (!syn && f->have_seq && (int32_t)(seq - f->next) <= 0) {
                if (count && !c->cont_conns++)
                    snprintf(c->cont_msg, sizeof c->cont_msg, "%s", path);
            } else if (!syn) {
                fresh = 1;
            }
            f->file = c->pfile;
        }
        /* a SYN+ACK answering a new SYN on a reused 4-tuple: this side
         * moves to the client's new connection too (before, it stayed on
         * the old one, and every answer of the new one was lost) */
        int reopened = 0;
        /* a SYN sent again with its data (TCP Fast Open): the same
         * connection, its data a retransmission */
        int syn_again = f && syn && !ack && wire && f->syn_data && seq == f->isn;
        if (f && syn && ack && !same_syn) {
            const flow *back = find_flow(fl, &flix, dst, src);
            reopened = back && back->conn != f->conn;
        }
        if (same_syn)
            syn_again = 1;
        if (f && f->npq && ((syn && !ack && !syn_again) || reopened) &&
            (rc = pend_drain(c, f, 1, 0, &reordered, &held)) != PB_OK)
            break; /* what the old connection held back, before it goes */
        if (!f || fresh || (syn && !ack && !syn_again) || reopened) {
            /* a new connection (SYN) or one already open when the capture
             * began: who serves is who got the SYN, else the lower port */
            uint32_t client, server;
            int role_guess = 0;
            if (syn && !ack) {
                client = src;
                server = dst;
            } else if (syn && ack) {
                client = dst;
                server = src;
            } else {
                role_guess = 1;
                client = sport > dport ? src : dst;
                server = sport > dport ? dst : src;
            }
            flow *rev = find_flow(fl, &flix, dst, src);
            uint32_t conn;
            if (fresh && rev && rev->file != c->pfile) {
                /* left at a gap between files: both ways go */
                if ((rc = cap_conn(c, client, server, 2, 1, &conn)) != PB_OK)
                    break;
                rev->conn = conn;
                rev->dir = c->conns[conn].client == dst ? CAP_C2S : CAP_S2C;
                rev->have_seq = 0;
                rev->file = c->pfile;
            } else if (rev && !(syn && !ack)) {
                conn = rev->conn;
            } else if ((rc = cap_conn(c, client, server, 2, 1, &conn)) != PB_OK) {
                break;
            }
            c->conns[conn].role_guess |= role_guess;
            if (!f) {
                if (nfl == flcap) {
                    flcap = flcap ? flcap * 2 : 64;
                    flow *nf = realloc(fl, flcap * sizeof *nf);
                    if (!nf) {
                        rc = PB_ENOMEM;
                        break;
                    }
                    fl = nf;
                }
                if ((rc = cap_idx_add(&flix, cap_hash3(src, dst, 0),
                                      (uint32_t)nfl)) != PB_OK)
                    break;
                f = &fl[nfl++];
                memset(f, 0, sizeof *f);
            }
            f->src = src;
            f->dst = dst;
            f->conn = conn;
            f->dir = c->conns[conn].client == src ? CAP_C2S : CAP_S2C;
            f->have_seq = 0;
            f->file = c->pfile;
        }
        if (syn) {
            if (!syn_again) {
                f->next = seq + 1;
                f->have_seq = 1;
                f->syn_data = 0;
                f->has_syn = 1;
                f->syn_isn = seq;
            }
            if (!wire)
                continue;
            /* data in the SYN (TCP Fast Open, RFC 7413: a client's first
             * request rides on its SYN; a SYN-ACK may carry data too): the
             * bytes after the SYN's own sequence number.  Before, they were
             * dropped with the SYN without a word: the request lost, its
             * response "unrequested" */
            if (!syn_again) {
                f->syn_data = 1;
                f->isn = seq;
            }
            seq += 1;
        }
        if (!f->have_seq) {
            f->next = seq;
            f->have_seq = 1;
        }
        const u_char *pl = tcp + thl;
        if (wire) {
            if ((int32_t)(seq - f->next) > 0) {
                /* bytes before it missing: held back (above) */
                if (f->npq == f->cappq) {
                    size_t nc = f->cappq ? 2 * f->cappq : 8;
                    pend *np = realloc(f->pq, nc * sizeof *np);
                    if (!np) {
                        rc = PB_ENOMEM;
                        break;
                    }
                    f->pq = np;
                    f->cappq = nc;
                }
                pend *q = &f->pq[f->npq];
                q->data = malloc(seen ? seen : 1);
                if (!q->data) {
                    rc = PB_ENOMEM;
                    break;
                }
                memcpy(q->data, pl, seen);
                q->seq = seq;
                q->wire = wire;
                q->seen = seen;
                q->ts = ts;
                f->npq++;
                f->pbytes += seen;
                held += seen;
                if ((f->npq > PEND_MAX || f->pbytes > PEND_BYTES || held > PEND_ALL) &&
                    (rc = pend_drain(c, f, 1, 0, &reordered, &held)) != PB_OK)
                    break;
            } else {
                if ((rc = seg_emit(c, f, seq, wire, seen, pl, ts)) != PB_OK ||
                    (f->npq && (rc = pend_drain(c, f, 0, ts, &reordered, &held)) != PB_OK))
                    break;
            }
        }
        if ((fin || rst) && f->npq && (rc = pend_drain(c, f, 1, 0, &reordered, &held)) != PB_OK)
            break;
        if (rst) {
            flow *back = find_flow(fl, &flix, dst, src);
            if (back && back->npq && (rc = pend_drain(c, back, 1, 0, &reordered, &held)) != PB_OK)
                break;
        }
        if (fin || rst) {
            cap_seg s = wire_seg(f, ts, CAP_END);
            if ((rc = cap_add_seg(c, &s, (const unsigned char *)"")) != PB_OK)
                break;
            if (rst) {
                s.dir = (uint8_t)(f->dir == CAP_C2S ? CAP_S2C : CAP_C2S);
                if ((rc = cap_add_seg(c, &s, (const unsigned char *)"")) != PB_OK)
                    break;
            }
        }
    }
    if (rc == PB_OK && r == PCAP_ERROR) {
        /* a capture cut short (tcpdump killed): keep what was read, say so */
        c->pcap_error = 1;
        snprintf(c->pcap_msg, sizeof c->pcap_msg, "%s: after packet %ld: %s", path, pkt,
                 p ? pcap_geterr(p) : cap_ng_error(ng));
    }
    /* what is still held back: its missing bytes a gap (the flows stay
     * for the next file: cap_pcap_free) */
    for (size_t i = 0; i < nfl; i++) {
        if (rc == PB_OK && fl[i].npq)
            rc = pend_drain(c, &fl[i], 1, 0, &reordered, &held);
        pend_free(&fl[i]);
    }
    pf->fl = fl;
    pf->nfl = nfl;
    pf->flcap = flcap;
    pf->flix = flix;
    if (reordered && !c->reordered++) /* files: c->reordered; segments: */
        snprintf(c->reorder_msg, sizeof c->reorder_msg, "%s", path);
    c->reordered_segs += reordered;
    long ffirst = 0;
    unsigned fleft6 = 0, fleft = cap_frags_free(frags, &ffirst, &fleft6);
    if (fleft)
        frag_seen(c, path, ffirst, 0, fleft);
    if (fleft6)
        frag_seen(c, path, ffirst, 1, fleft6);
    if (p) {
        pcap_close(p);
    } else {
        cap_ng_close(ng);
        fclose(fp);
    }
    if (rc == PB_ENOMEM)
        pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
    return rc;
}
