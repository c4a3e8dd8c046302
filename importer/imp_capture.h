/*
 * imp_capture.h - traces from captures of running programs: the event
 * files of bin/pbcapture (library interposition), packet captures (pcap,
 * pcapng; libpcap) and, read through imp.h, eBPF syscall captures
 * (imp_ebpf.c), through one path from events to messages
 * (docs/capture.md):
 *
 *   events -> byte streams per connection and direction (as each observer
 *   saw them) -> HTTP/1.1 messages (request and status lines,
 *   Content-Length, chunked bodies, keep-alive, pipelining) -> requests
 *   paired with responses by order on their connection -> trace messages
 *   (call = request, return = response) with thread, sthread and conn
 *   where the capture has them, truth from a request-id header.
 */
#ifndef IMP_CAPTURE_H
#define IMP_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_trace.h"

typedef struct imp_capture_opts {
    const char *header;      /* request-id header (case-insensitive):
                                "traceparent" (default; its trace-id is the
                                request) or any other, whose value is */
    const char *const *names; /* "ADDR=NAME" (ADDR an IP or IP:PORT) or
                                "PROCESS=NAME" renames, NULL-terminated */
    const uint16_t *ports;   /* only connections to these server ports
                                (0-terminated), or NULL for all */
} imp_capture_opts;

typedef struct imp_capture_stats {
    uint64_t events, segments, connections;
    uint64_t requests, responses, pairs; /* requests and responses after
                                 lining up what each observer saw */
    uint64_t unanswered;      /* requests without a response (cut, lost) */
    uint64_t unrequested;     /* responses without a request */
    uint64_t no_request_id;   /* pairs without the header: left out */
    uint64_t non_http;        /* connections that are not HTTP/1.1: left out */
    uint64_t truncated;       /* streams whose header bytes were not
                                 captured (payload cap): rest left out */
    uint64_t cut;             /* streams that ended inside a message */
    uint64_t filtered;        /* connections to other ports: left out */
    uint64_t one_sided;       /* messages seen by one observer only: */
    uint64_t lost_at_sender;  /*   its sender is observed (on the
                                   connection or at its address) but the
                                   send is not: lost by the capture */
    uint64_t lost_at_receiver; /*  the same for the receipt */
    uint64_t uncaptured_sender; /* its sender is not observed (a load
                                   generator, an uncaptured process) */
    uint64_t uncaptured_receiver;
    uint64_t lost_calls;      /* requests lost at one observed end */
    uint64_t gaps;            /* stream positions (eBPF) where a view lost
                                 whole messages the other view has */
    uint64_t repeated;        /* segments (eBPF) at stream positions their
                                 view had read already (an entry captured
                                 twice, a retransmission): bytes wholly
                                 read again left out, the first kept */
    uint64_t no_seq;          /* streams (connection, direction) with an
                                 event without sequence numbers (eBPF):
                                 lined up by order, so a lost message there
                                 is not seen and shifts the rest */
    uint64_t no_thread;       /* events without a thread id (eBPF "pid"
                                 absent or null) */
    uint64_t messages;        /* messages written */
    uint64_t paths;           /* distinct request ids among them */
    uint64_t threads;         /* distinct threads among them */
    uint64_t processes;       /* interposition: processes; pcap: 0 */
    int pcap;                 /* 1: a packet capture; 0: interposition */
    int ebpf;                 /* 1: an eBPF syscall capture (imp.h) */
    uint64_t http2;           /* connections framed as HTTP/2 */
    uint64_t malformed;       /* HTTP/2 streams (per observer) given up at a
                                 malformed frame or header block */
    uint64_t bad_request_id;  /* pairs whose traceparent names no trace (a
                                 trace id not 32 hex digits, or all zero):
                                 left out, counted in no_request_id too */
} imp_capture_stats;

/* 1 when path is a capture this module reads: a folder or file of
 * pbcapture events, or a pcap / pcapng file. */
int imp_capture_detect(const char *path);

/* Read the captures paths[0..n) (pbcapture folders or event files, pcap
 * files; not mixed) into a trace with truth, sorted by time, ids from 1,
 * and its metadata (# capture: lines: the source, the clock, the counts).
 * *out is owned by the caller (pb_trace_close); st (may be NULL) gets the
 * counts.  Returns PB_OK, PB_EIO, PB_EPARSE (a bad event line: file, line,
 * column; a pcap libpcap cannot read: its message), PB_EINVAL (no request
 * found, or pcap and event files mixed) or PB_ENOMEM. */
int imp_capture_load(const char *const *paths, size_t n,
                     const imp_capture_opts *opts, pb_trace **out,
                     imp_capture_stats *st, pb_error *err);

#endif
