/*
 * importtrace - Jaeger, Zipkin v2 or OpenTelemetry (OTLP/JSON) traces to a
 * message trace with truth.
 *
 *   importtrace [--format jaeger|zipkin|otlp|auto] [--callid] [-o FILE] PATH...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imp.h"
#include "imp_capture.h"
#include "pb_cli.h"
#include "pb_strbuf.h"
#include "pb_trace.h"

static const char *prog = "importtrace";

enum { O_FORMAT = 1, O_CALLID, O_THREAD, O_OUTPUT, O_QUIET, O_REQHDR, O_NAME, O_PORT };
static const pb_cli_opt cli_opts[] = {
    {O_FORMAT, 0, "format", "FMT", "jaeger, zipkin, otlp or auto (default: by each\n"
                                   "document's shape)"},
    {O_CALLID, 'c', "callid", NULL, "fill callid with TRACEID:SPANID of each RPC (default empty)"},
    {O_THREAD, 0, "thread", NULL, "fill thread with TRACEID:SPANID of the span that\n"
                                  "handled each message at its receiver (for vpath)"},
    {O_OUTPUT, 'o', "output", "FILE", "write the trace there (default stdout)"},
    {O_QUIET, 'q', "quiet", NULL, "no summary on stderr"},
    {O_REQHDR, 0, "request-header", "NAME", "captures: the header whose value is the request\n"
                                            "id, the truth (default traceparent: its trace id)"},
    {O_NAME, 0, "name", "ADDR=NAME", "captures: call the node at ADDR (IP, IP:PORT or a\n"
                                      "process name) NAME; repeatable"},
    {O_PORT, 0, "port", "PORT", "captures: keep only connections to this server port;\n"
                                "repeatable (default: all)"},
    {0, 0, NULL, NULL, NULL}};

static void usage(FILE *fp, const pb_cli *cli)
{
    fprintf(fp,
            "usage: %s [options] PATH...\n"
            "Turn Jaeger (query API JSON), Zipkin v2 or OpenTelemetry (OTLP/JSON)\n"
            "traces into one message trace with truth: every RPC a call and a return,\n"
            "nodes named by service, all requests interleaved by time.  PATH is a\n"
            "JSON file (plain, .gz, .xz, .zst or .bz2; one document or one per line),\n"
            "a tar archive of them (.tar, .tar.gz, .tar.xz, ...), a folder (walked\n"
            "recursively, names in byte order at every level) or \"-\" for stdin.\n\n",
            prog);
    pb_cli_help(fp, cli);
    fprintf(fp,
            "\nThe summary (stderr) and the trace's \"# importtrace\" metadata line count\n"
            "every irregularity met and what was done about it; see docs/importer.md.\n");
}

/* pbcapture folders and packet captures (docs/capture.md) */
static int import_capture(char **paths, int n, const char *out_path, int quiet,
                          const imp_capture_opts *co)
{
    pb_error err;
    pb_error_clear(&err);
    pb_out *out = NULL;
    if (pb_out_open(&out, out_path, (const char *const *)paths, (size_t)n, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 1;
    }
    pb_trace *t = NULL;
    imp_capture_stats st;
    int rc = imp_capture_load((const char *const *)paths, (size_t)n, co, &t, &st, &err);
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        pb_out_abort(out);
        return 1;
    }
    if (!quiet) {
        fprintf(stderr, "%s: %s capture: %llu events, %llu connections, %llu requests "
                        "paired with %llu responses (%llu pairs); %zu messages written\n",
                prog, st.pcap ? "packet" : "pbcapture", (unsigned long long)st.events,
                (unsigned long long)st.connections, (unsigned long long)st.requests,
                (unsigned long long)st.responses, (unsigned long long)st.pairs, t->n);
        if (st.no_request_id || st.non_http || st.unanswered || st.unrequested ||
            st.truncated || st.cut || st.filtered)
            fprintf(stderr, "%s: left out: %llu pairs without the %s header, %llu streams "
                            "not HTTP, %llu requests unanswered, %llu responses without a "
                            "request, %llu streams whose headers were not captured, %llu cut "
                            "inside a message, %llu connections to other ports\n",
                    prog, (unsigned long long)st.no_request_id,
                    co->header ? co->header : "traceparent", (unsigned long long)st.non_http,
                    (unsigned long long)st.unanswered, (unsigned long long)st.unrequested,
                    (unsigned long long)st.truncated, (unsigned long long)st.cut,
                    (unsigned long long)st.filtered);
        for (size_t i = 0; i < t->nmeta; i++)
            if (!strncmp(t->meta[i], "capture: cut-short", 18))
                fprintf(stderr, "%s: warning: the packet capture ends in an error (%s); "
                                "what came before it was kept\n", prog, t->meta[i] + 19);
    }
    rc = pb_trace_write(t, pb_out_fp(out), 0, &err);
    if (rc == PB_OK)
        rc = pb_out_commit(out, &err);
    else
        pb_out_abort(out);
    if (rc != PB_OK)
        pb_error_print(stderr, prog, &err);
    pb_trace_close(t);
    return rc == PB_OK ? 0 : 1;
}

#define MAX_NAMES 256
#define MAX_PORTS 64

int main(int argc, char **argv)
{
    imp_capture_opts co = {"traceparent", NULL, NULL};
    const char *names[MAX_NAMES + 1];
    size_t nnames = 0;
    uint16_t ports[MAX_PORTS + 1];
    size_t nports = 0;
    imp_opts opts;
    imp_opts_default(&opts);
    const char *out_path = NULL;
    int quiet = 0;
    pb_error err;
    pb_error_clear(&err);
    pb_cli cli;
    if (pb_cli_init(&cli, prog, cli_opts, argc, argv, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 2;
    }
    int c;
    const char *optarg;
    while ((c = pb_cli_next(&cli, &optarg, &err)) != PB_CLI_END) {
        switch (c) {
        case O_FORMAT:
            if (!strcmp(optarg, "jaeger"))
                opts.format = IMP_FORMAT_JAEGER;
            else if (!strcmp(optarg, "zipkin"))
                opts.format = IMP_FORMAT_ZIPKIN;
            else if (!strcmp(optarg, "otlp"))
                opts.format = IMP_FORMAT_OTLP;
            else if (!strcmp(optarg, "auto"))
                opts.format = IMP_FORMAT_AUTO;
            else {
                fprintf(stderr, "%s: --format: unknown format \"%s\"; expected "
                                "jaeger, zipkin, otlp or auto\n", prog, optarg);
                pb_cli_free(&cli);
                return 2;
            }
            break;
        case O_CALLID: opts.callid = 1; break;
        case O_THREAD: opts.thread = 1; break;
        case O_OUTPUT: out_path = optarg; break;
        case O_QUIET: quiet = 1; break;
        case O_REQHDR:
            if (!*optarg || strpbrk(optarg, ": \t\r\n")) {
                fprintf(stderr, "%s: --request-header: \"%s\"; expected a header name\n",
                        prog, optarg);
                pb_cli_free(&cli);
                return 2;
            }
            co.header = optarg;
            break;
        case O_NAME:
            if (!strchr(optarg, '=') || optarg[0] == '=' || !strchr(optarg, '=')[1] ||
                nnames == MAX_NAMES) {
                fprintf(stderr, "%s: --name: \"%s\"; expected ADDR=NAME (at most %d)\n",
                        prog, optarg, MAX_NAMES);
                pb_cli_free(&cli);
                return 2;
            }
            names[nnames++] = optarg;
            break;
        case O_PORT: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || end == optarg || v < 1 || v > 65535 || nports == MAX_PORTS) {
                fprintf(stderr, "%s: --port: \"%s\"; expected a port from 1 to 65535 "
                                "(at most %d)\n", prog, optarg, MAX_PORTS);
                pb_cli_free(&cli);
                return 2;
            }
            ports[nports++] = (uint16_t)v;
            break;
        }
        case PB_CLI_HELP: usage(stdout, &cli); pb_cli_free(&cli); return 0;
        case PB_CLI_LIST: pb_cli_list(stdout, &cli, NULL); pb_cli_free(&cli); return 0;
        default: pb_cli_free(&cli); return pb_cli_usage_error(prog, &err);
        }
    }
    int optind = pb_cli_optind(&cli);
    pb_cli_free(&cli);
    if (optind >= argc) {
        fprintf(stderr, "%s: expected at least one PATH (a JSON file, a folder "
                        "or \"-\"; try %s --help)\n", prog, prog);
        return 2;
    }
    int ncap = 0;
    for (int i = optind; i < argc; i++)
        ncap += strcmp(argv[i], "-") && imp_capture_detect(argv[i]) > 0;
    if (ncap && ncap != argc - optind) {
        fprintf(stderr, "%s: captures (pbcapture folders, pcap files) and span traces "
                        "cannot be mixed in one run\n", prog);
        return 2;
    }
    if (ncap) {
        names[nnames] = NULL;
        ports[nports] = 0;
        co.names = nnames ? names : NULL;
        co.ports = nports ? ports : NULL;
        return import_capture(argv + optind, argc - optind, out_path, quiet, &co);
    }
    if (nnames || nports || strcmp(co.header, "traceparent")) {
        fprintf(stderr, "%s: --request-header, --name and --port are for captures "
                        "(pbcapture folders, pcap files)\n", prog);
        return 2;
    }
    /* the output opened before the work; it may not be an input */
    pb_out *out = NULL;
    if (pb_out_open(&out, out_path, (const char *const *)argv + optind,
                    (size_t)(argc - optind), &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 1;
    }
    imp_importer *im = NULL;
    if (imp_init(&im, &opts, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        pb_out_abort(out);
        return 1;
    }
    for (int i = optind; i < argc; i++) {
        if (imp_add_path(im, argv[i], &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            imp_close(im);
            pb_out_abort(out);
            return 1;
        }
    }
    pb_trace *t = NULL;
    if (imp_finish(im, &t, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        imp_close(im);
        pb_out_abort(out);
        return 1;
    }
    if (!quiet) {
        pb_strbuf s = {0};
        if (imp_stats_summary(imp_get_stats(im), &s) == PB_OK) {
            /* prefix every line with the program name */
            const char *p = pb_strbuf_str(&s);
            while (*p) {
                const char *nl = strchr(p, '\n');
                size_t l = nl ? (size_t)(nl - p) : strlen(p);
                fprintf(stderr, "%s: %.*s\n", prog, (int)l, p);
                p += l + (nl != NULL);
            }
        }
        pb_strbuf_free(&s);
    }
    int rc = pb_trace_write(t, pb_out_fp(out), 0, &err);
    if (rc == PB_OK)
        rc = pb_out_commit(out, &err);
    else
        pb_out_abort(out);
    if (rc != PB_OK)
        pb_error_print(stderr, prog, &err);
    pb_trace_close(t);
    imp_close(im);
    return rc == PB_OK ? 0 : 1;
}
