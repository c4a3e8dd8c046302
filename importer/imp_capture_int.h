/*
 * imp_capture_int.h - what the pieces of the capture importer share
 * (imp_capture.c: the load; imp_capture_events.c: pbcapture event files;
 * imp_capture_pcap.c: packets; imp_ebpf.c: eBPF syscall captures, read
 * through imp.h; imp_capture_http.c: streams to messages).
 */
#ifndef IMP_CAPTURE_INT_H
#define IMP_CAPTURE_INT_H

#include "imp_capture.h"
#include "pb_strtab.h"

/* views of a directional stream */
enum { CAP_SENDER = 0, CAP_RECEIVER = 1, CAP_WIRE = 2 };
/* directions */
enum { CAP_C2S = 0, CAP_S2C = 1 };
/* segment kinds */
enum { CAP_DATA = 0, CAP_END = 1 };

/* One observed transfer (or the end of a stream: CAP_END). */
typedef struct cap_seg {
    pb_ns ts;
    uint32_t conn;      /* connection instance (cap.conns) */
    uint8_t dir;        /* CAP_C2S / CAP_S2C */
    uint8_t view;       /* CAP_SENDER / CAP_RECEIVER / CAP_WIRE */
    uint8_t kind;       /* CAP_DATA / CAP_END */
    uint32_t proc;      /* observing process + 1 (cap.procs), 0 = none */
    uint32_t tid;       /* observing thread as "PID/TID" label index + 1 in
                           the trace's names (set at build), 0 = none */
    int64_t tidnum;     /* the OS thread id, -1 = none */
    uint64_t bytes;     /* bytes moved (the payload may be a prefix) */
    uint32_t plen;      /* payload bytes kept */
    uint64_t poff;      /* into cap.bytes */
    uint64_t order;     /* input order, for a stable sort */
    uint64_t off;       /* stream offset of its first byte + 1, when the
                           source knows it (eBPF: TCP sequence numbers);
                           0 = not known.  A jump at a message boundary is
                           whole messages this view lost (counted: gaps) */
} cap_seg;

typedef struct cap_conn_t {
    uint32_t client, server;  /* endpoints (cap.eps) */
    uint32_t inst;            /* 1, 2, ... when the 4-tuple is reused */
    uint32_t client_proc, server_proc; /* observing processes + 1, 0 none */
    int role_guess;           /* roles from port numbers, not seen */
    const char *path;         /* the capture it came from (cap.cur_path) */
} cap_conn_t;

typedef struct cap_life {
    uint32_t client, server;
    int role;                 /* 0 client side, 1 server side, 2 wire */
    uint32_t count;
} cap_life;

/* one framed message of one view */
typedef struct hmsg {
    uint32_t conn;
    uint8_t dir, view;
    uint8_t bad_id;       /* the request-id header is there but names no
                             request (a traceparent whose trace id is not
                             32 hex digits or is all zero): reqid 0 */
    uint32_t k;           /* position in its stream (HTTP/2: requests by
                             completion, a response at its request's k) */
    pb_ns first, last;    /* stamps of the segments with its first, last byte */
    int64_t tid_first, tid_last;
    uint32_t proc;
    uint64_t size;
    int request;
    char method[12];
    int status;
    uint32_t reqid;       /* label index + 1 in the trace's names, 0 none */
    uint32_t attr;        /* label index + 1, 0 none */
    uint32_t sid;         /* HTTP/2: its stream id (the call id); 0 HTTP/1.x */
    uint64_t off;         /* stream offset of its first byte in its view */
    int has_off;          /* off from the source's own positions (cap_seg) */
} hmsg;

/* One pbcapture event before connections are resolved. */
typedef struct cap_ev {
    pb_ns ts;
    uint32_t proc;      /* process index + 1 */
    int64_t pid, tid;
    int fd;
    int op;             /* CAP_OP_* */
    int dupfrom;        /* CAP_OP_DUP: the old descriptor */
    uint64_t bytes;
    uint32_t local, remote; /* endpoints, UINT32_MAX = unknown */
    uint32_t plen;
    uint64_t poff;
    uint64_t order;
} cap_ev;

enum { CAP_OP_ACCEPT, CAP_OP_CONNECT, CAP_OP_SEND, CAP_OP_RECV, CAP_OP_EOF,
       CAP_OP_CLOSE, CAP_OP_DUP };

/* A hash index over the records of an array: slot holds index + 1 (0 =
 * empty), hash the record's hash; the caller compares the records (every
 * key is unique in its array), so a look-up costs O(1), not a scan of
 * every connection so far (a capture of 10^5 short connections). */
typedef struct cap_idx {
    uint32_t *slot;
    uint64_t *hash;
    size_t cap, n;
} cap_idx;

/* The first index i+1 stored under hash h for which eq(ctx, i) holds, or
 * 0.  Pure. */
uint32_t cap_idx_find(const cap_idx *m, uint64_t h,
                      int (*eq)(const void *ctx, uint32_t i), const void *ctx);
/* Store index i under hash h (the table grows at half full).  Returns
 * PB_OK or PB_ENOMEM (the index is then unchanged). */
int cap_idx_add(cap_idx *m, uint64_t h, uint32_t i);
/* Free the table.  NULL-safe fields. */
void cap_idx_free(cap_idx *m);
/* The hash of three 32-bit words (pb_mix64). */
uint64_t cap_hash3(uint32_t a, uint32_t b, uint32_t c3);

typedef struct cap {
    const imp_capture_opts *opts;
    cap_ev *evs;
    size_t nevs, evcap;
    pb_strtab *eps;           /* "IP:PORT" endpoints */
    pb_strtab *procs;         /* "NAME\tPID" of observing processes */
    char **proc_name;         /* per process index: its node name (owned by
                                 the strtab text or the names option) */
    cap_seg *segs;
    size_t nsegs, segcap;
    unsigned char *bytes;
    size_t nbytes, bytecap;
    cap_conn_t *conns;
    size_t nconns, conncap;
    cap_life *lives;
    size_t nlives, livecap;
    cap_idx conn_idx, life_idx; /* (client, server, inst / role) */
    imp_capture_stats st;
    int pcap_error;           /* the packet file ended in an error (cut) */
    const char *cur_path;     /* the capture being read, NULL: several */
    char **notes;             /* irregularities to tell (cap_note) */
    size_t nnotes;
    uint64_t notes_all;
    char pcap_msg[400];
    /* packets the capture's snapshot length cut (caplen < len): a meta
     * line "capture: snaplen ..." says how many and what was lost */
    uint64_t snap_cut, snap_pkts, snap_lost;
    long snap_first;
    char snap_msg[400];
    /* pcapng packets stamped finer than a nanosecond (if_tsresol below
     * 1 ns, or in base 2): their part below 1 ns was cut; a meta line
     * "capture: subns ..." says how many */
    uint64_t subns_cut;
    long subns_first;
    char subns_msg[400];
    /* TCP packets not read: IPv4 and IPv6 fragments that could not be put
     * back together; their bytes become gaps of their streams.  A meta
     * line "capture: fragments ..." says how many (said even with -q);
     * frag_joined: datagrams put together */
    uint64_t frag4, frag6, frag_joined;
    long frag_first;
    char frag_msg[400];
    /* HTTP/1 headers longer than HDR_MAX (imp_capture_http.c): their
     * connections left out; a meta line "capture: headers ..." (said even
     * with -q) */
    uint64_t hdr_over;
    pb_ns hdr_over_first;
    /* pairs whose request's traceparent names no trace (hmsg.bad_id):
     * left out as pairs without the header, counted in no_request_id and
     * st.bad_request_id; the first one's attr here; a meta line "capture: traceparent: ..." (said even with -q) */
    char bad_id_first[72];
    /* round 25 (imp_capture_http.c): pairs whose request carried the
     * request-id header on two lines with two values (hmsg.bad_id 2), the
     * first one's attr ("capture: request-id-twice", said even with -q);
     * HTTP/1 connections that switched protocols (a 101 response, a 2xx
     * answer to CONNECT: switch_101, switch_connect, the first at
     * switch_first) and request streams stopped at bytes not HTTP after a
     * request that asked to switch (switch_req_cut): "capture: switched";
     * messages whose lines end in a bare LF (bare_lf, first at
     * bare_lf_first): "capture: bare-lf" */
    uint64_t id_twice;
    char id_twice_first[72];
    uint64_t switch_101, switch_connect, switch_req_cut;
    pb_ns switch_first;
    uint64_t bare_lf;
    pb_ns bare_lf_first;
    /* packet captures: TCP segments stamped before bytes that precede them
     * in their stream, held back and read after those (imp_capture_pcap.c);
     * reordered: files with any, reordered_segs: segments, reorder_msg: the
     * first file; a meta line "capture: reordered ..." (said even with -q) */
    uint64_t reordered, reordered_segs;
    char reorder_msg[300];
    /* packet captures: packets read inside a tunnel (IP in IP, GRE,
     * VXLAN, Geneve; imp_capture_pcap.c tunnel_in): tunnel_pkts, the kinds
     * met (bit 1 << TUN_*), the first one's packet and file; a meta line
     * "capture: tunnels ..." */
    /* HTTP/1 responses that answer requests sent before a packet capture
     * began (imp_capture_http.c, build.has_pre): pre_answers, the first
     * one's stamp; a meta line "capture: joined ..." */
    uint64_t pre_answers;
    pb_ns pre_first;
    /* streams of such connections that began inside a message: their
     * bytes up to the first segment starting one skipped (joined_bytes),
     * the first one's stamp; the same meta line */
    uint64_t joined_streams, joined_bytes;
    pb_ns joined_first;
    uint64_t tunnel_pkts;
    unsigned tunnel_kinds;
    long tunnel_first;
    char tunnel_msg[300];
    /* packet captures (one clock): packets stamped before the packet
     * before them in their file (back_pkts; back_max the largest step
     * back, back_first the first such packet, back_msg its file) and
     * pairs whose response is stamped before its request (back_pairs):
     * a clock stepped back, or files merged out of time order; messages
     * keep their stamps, and a meta line "capture: backward ..." (said
     * even with -q) says how many */
    uint64_t back_pkts, back_pairs;
    pb_ns back_max;
    long back_first;
    char back_msg[400];
    /* pbcapture event files (one thread each, written in the order of
     * its calls): events stamped before the event before them in their
     * file (evback; evback_max the largest step back, evback_first the
     * line of the first, evback_msg its file); said in the same meta line
     * "capture: backward ..." */
    uint64_t evback;
    pb_ns evback_max;
    long evback_first;
    char evback_msg[400];
    /* messages seen by both their sender and their receiver (both_views)
     * whose byte counts differ there (size_diff: written with one count,
     * read with another; size_first the first, as "request 3 on
     * CONN: 120 bytes written, 80 read"); the size column keeps the
     * sender's, and a meta line "capture: sizes ..." (said even with -q)
     * says how many */
    uint64_t size_diff, both_views;
    char size_first[400];
    /* packet captures: TCP packets whose IP length field is 0 (TCP
     * segmentation offload on the capturing host: the card fills it in;
     * Linux's BIG TCP past 64 KiB): before, skipped without a word, the
     * stream left with a gap; now their length is the frame's (tso;
     * tso_first the first, tso_msg its file), said in a meta line
     * "capture: tso ..." even with -q; tso_small: such frames of 60 bytes
     * on Ethernet (the minimum: padding may have lengthened them): skipped
     * and counted in the same line */
    uint64_t tso, tso_small;
    long tso_first;
    char tso_msg[400];
    /* packet captures in several files (imp_capture_pcap.c): the TCP flows
     * carried from one file to the next (pflows; pfile: files read), so a
     * connection open across a rotated capture's file boundary goes on
     * (cont_conns, cont_msg the first's file) and one met again with its
     * own SYN in a later file (both its ends captured, or one capture given
     * twice) is read once (again_conns, again_msg); a meta line "capture:
     * files ..." (said even with -q) */
    void *pflows;
    int pfile;
    uint64_t cont_conns, again_conns;
    char cont_msg[300], again_msg[300];
    /* packet captures given out of the order of their first packets'
     * stamps (a rotated capture's names: cap10 sorts before cap2): read in
     * that order (imp_capture.c), order_moved of them; a meta line
     * "capture: file-order: ..." (said even with -q) */
    size_t order_moved, order_n;
    char order_msg[700];
    /* pbcapture event files read (their lines' hash and count, their
     * path), and those whose lines were an earlier one's: read once
     * (evtwice; evtwice_msg the first); a meta line "capture:
     * events-twice: ..." (said even with -q) */
    struct cap_evfile {
        uint64_t hash;
        long lines;
        char path[200];
    } *evfiles;
    size_t nevfiles, evfcap;
    uint64_t evtwice;
    char evtwice_msg[420];
} cap;

/* IPv4 and IPv6 fragments put back together (imp_capture_frag.c). */
typedef struct cap_frags cap_frags;
cap_frags *cap_frags_new(void); /* NULL when out of memory */
/* Add the fragment ip[0..left) (an IPv4 header with MF set or an offset),
 * packet pkt of the capture; returns the whole datagram (header and
 * payload, *len bytes, owned by f, valid until the next call) once its
 * last part came, else NULL.  *lost: fragments given up by this call
 * (this one cut or invalid, or an older datagram's when too many wait),
 * *lost_pkt the packet the first of them came in, *lost_v6 whether they
 * were IPv6 fragments. */
const unsigned char *cap_frags_add(cap_frags *f, const unsigned char *ip, size_t left,
                                   long pkt, size_t *len, unsigned *lost, long *lost_pkt,
                                   int *lost_v6);
/* The same for an IPv6 packet ip[0..left) whose fragment header starts at
 * byte fh (after the fixed header and any extension headers before it);
 * the whole datagram returned is a 40-byte IPv6 header whose next header
 * is the fragment header's (the extension headers before it dropped)
 * followed by the payload put back together. */
const unsigned char *cap_frags_add6(cap_frags *f, const unsigned char *ip, size_t left,
                                    size_t fh, long pkt, size_t *len, unsigned *lost,
                                    long *lost_pkt, int *lost_v6);
/* Free (NULL-safe); returns the IPv4 fragments of datagrams still
 * incomplete (lost), *left6 the IPv6 ones, *first the packet the earliest
 * of them came in (when any). */
unsigned cap_frags_free(cap_frags *f, long *first, unsigned *left6);

/* pcapng files whose interfaces have different link types, which libpcap
 * refuses (imp_capture_pcapng.c).  cap_ng_mixed: whether the pcapng file
 * fp (seekable; left where it was) describes interfaces of two link types
 * (*first, *other); 0 for anything else (pcap, one link type, a pipe).
 * cap_ng_next: the next packet as pcap_next_ex gives one (ts in
 * nanoseconds in tv_usec), its link type and interface; 1 a packet, 0 the
 * end, -1 an error (cap_ng_error). */
#include <pcap/pcap.h>
typedef struct cap_ng cap_ng;
/* (also 1 when an interface stamps finer than a nanosecond: libpcap
 * would cut those stamps without a word; *other = *first when one link
 * type) */
int cap_ng_mixed(FILE *fp, int *first, int *other);
cap_ng *cap_ng_open(FILE *fp); /* NULL when out of memory; fp not owned */
int cap_ng_next(cap_ng *g, struct pcap_pkthdr *h, const unsigned char **data, int *dlt,
                size_t *iface);
const char *cap_ng_error(const cap_ng *g);
/* Whether the last packet cap_ng_next gave had a time stamp part below a
 * nanosecond (cut away): 1 and *units (its interface's units a second). */
int cap_ng_subns(const cap_ng *g, size_t iface, uint64_t *units);
int cap_ng_snaplen(const cap_ng *g, size_t iface);
void cap_ng_close(cap_ng *g);

int cap_init(cap *c);
void cap_free(cap *c);
int cap_ep(cap *c, const char *s, size_t n, uint32_t *out);
int cap_conn(cap *c, uint32_t client, uint32_t server, int role, int start,
             uint32_t *out);
/* Append a segment; payload (s->plen bytes) is copied into the arena, or,
 * when NULL, s->poff already points into it. */
int cap_add_seg(cap *c, const cap_seg *s, const unsigned char *payload);

/* the sources */
int cap_read_events(cap *c, const char *path, pb_error *err);
/* after every event file: connections, roles and segments */
int cap_finish_events(cap *c, pb_error *err);
int cap_read_pcap(cap *c, const char *path, pb_error *err);
/* the flows cap_read_pcap carries from one file to the next, freed */
void cap_pcap_free(cap *c);
/* the stamp (ns) of the first packet of the packet capture at path into
 * *ts: 1, else 0 (none, unreadable, stdin) */
int cap_pcap_first(const char *path, pb_ns *ts);

/* segments to a trace */
int cap_build(cap *c, pb_trace **out, pb_error *err);

/* The request id of a request-id header's value v[0..vl) (the trace id of
 * a traceparent) as a label index + 1 in t's names into *out (0: none).
 * Returns PB_OK or PB_ENOMEM. */
int cap_request_id(const cap *c, pb_trace *t, const char *v, size_t vl, uint32_t *out,
                   uint8_t *bad);

/* HTTP/1 header fields (imp_capture_hdr.c).  The header h[0..n) is the
 * request or status line and its fields, lines ended by LF or CRLF.
 * cap_hdr_get2: field name's value (blanks trimmed; a field on several
 * lines joined by ", ") into out (at most on - 1 bytes, NUL-ended);
 * *differ (when not NULL): 1 when two lines hold different values;
 * *first_len (when not NULL): the first line's value's length in out.
 * Returns 1 when the field is present, 0 when not (out untouched).
 * cap_hdr_get: the same without differ / first_len.  cap_hdr_has_token: 1
 * when the comma-separated list s holds tok, case ignored.
 * cap_hdr_content_length: 1 and *len for a Content-Length value (digits,
 * or the same value repeated in a list), 0 when it is no length.
 * cap_hdr_chunk_size: 1 and *sz for a chunk-size line (hex digits, then
 * ";" extensions or the line end), 0 when it is no size. */
int cap_hdr_get2(const char *h, size_t n, const char *name, char *out, size_t on,
                 int *differ, size_t *first_len);
int cap_hdr_get(const char *h, size_t n, const char *name, char *out, size_t on);
int cap_hdr_has_token(const char *s, const char *tok);
int cap_hdr_content_length(const char *v, uint64_t *len);
int cap_hdr_chunk_size(const char *v, uint64_t *sz);

/* HTTP/2 (imp_capture_h2.c).  cap_h2_detect: 1 when the client's stream
 * of the connection whose segments are s[0..n) (sorted as cap_build
 * sorts them) starts with the HTTP/2 connection preface.  cap_h2_conn:
 * frame every view of that connection into messages handed to push(ctx,
 * m) (requests: k by completion; responses: their request's k, paired by
 * stream id), counting what is left out in c->st.  Returns PB_OK or
 * PB_ENOMEM (or what push returns). */
int cap_h2_detect(const cap *c, const cap_seg *s, size_t n);
int cap_h2_conn(cap *c, pb_trace *t, const cap_seg *s, size_t n,
                int (*push)(void *ctx, const hmsg *m), void *ctx);
/* Keep a note on an irregularity of connection conn (the first 20; the
 * rest counted); cap_notes_meta adds them to t's metadata as
 * "capture: note FILE: CONN: WHAT" lines.  Return PB_OK or PB_ENOMEM. */
int cap_note(cap *c, uint32_t conn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int cap_notes_meta(const cap *c, pb_trace *t);

/* the port of "IP:PORT" / "[IP6]:PORT", or -1 */
long cap_port(const char *ep);

#endif
