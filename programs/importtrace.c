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
#include "pb_cli.h"
#include "pb_strbuf.h"
#include "pb_trace.h"

static const char *prog = "importtrace";

enum { O_FORMAT = 1, O_CALLID, O_THREAD, O_SEED, O_REQUEST_ID, O_OUTPUT, O_QUIET };
static const pb_cli_opt cli_opts[] = {
    {O_FORMAT, 0, "format", "FMT", "jaeger, zipkin, otlp, ebpf or auto (default: by\n"
                                   "each document's shape)"},
    {O_CALLID, 'c', "callid", NULL, "fill callid with TRACEID:SPANID of each RPC (default empty)"},
    {O_THREAD, 0, "thread", "[=MODE]", "spans: fill thread (and sthread) by an emulation,\n"
                                       "named in the metadata: oracle (the default: the\n"
                                       "span each message enters, the truth's identity),\n"
                                       "pool (lowest free worker per service), loop (one\n"
                                       "event loop per service), random:T (T threads)"},
    {O_SEED, 0, "seed", "N", "seed of --thread=random:T (default 1)"},
    {O_REQUEST_ID, 0, "request-id", "HEADER", "syscall captures: the header naming each\n"
                                              "request, the truth (default X-Request-Id;\n"
                                              "traceparent takes its trace id)"},
    {O_OUTPUT, 'o', "output", "FILE", "write the trace there (default stdout)"},
    {O_QUIET, 'q', "quiet", NULL, "no summary on stderr"},
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

int main(int argc, char **argv)
{
    imp_opts opts;
    imp_opts_default(&opts);
    opts.seed = 1;
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
            else if (!strcmp(optarg, "ebpf"))
                opts.format = IMP_FORMAT_EBPF;
            else if (!strcmp(optarg, "auto"))
                opts.format = IMP_FORMAT_AUTO;
            else {
                fprintf(stderr, "%s: --format: unknown format \"%s\"; expected "
                                "jaeger, zipkin, otlp, ebpf or auto\n", prog, optarg);
                pb_cli_free(&cli);
                return 2;
            }
            break;
        case O_CALLID: opts.callid = 1; break;
        case O_THREAD: {
            char *end = NULL;
            unsigned long t = 0;
            if (!optarg || !strcmp(optarg, "oracle"))
                opts.thread = IMP_THREAD_ORACLE;
            else if (!strcmp(optarg, "pool"))
                opts.thread = IMP_THREAD_POOL;
            else if (!strcmp(optarg, "loop"))
                opts.thread = IMP_THREAD_LOOP;
            else if (!strncmp(optarg, "random:", 7) &&
                     (t = strtoul(optarg + 7, &end, 10)) >= 1 && t <= 1000000 && !*end) {
                opts.thread = IMP_THREAD_RANDOM;
                opts.threads = (unsigned)t;
            } else {
                fprintf(stderr, "%s: --thread: unknown mode \"%s\"; expected oracle, "
                                "pool, loop or random:T (T from 1 to 1000000)\n", prog,
                        optarg);
                pb_cli_free(&cli);
                return 2;
            }
            break;
        }
        case O_SEED: {
            char *end = NULL;
            opts.seed = strtoul(optarg, &end, 10);
            if (!*optarg || *end || optarg[0] == '-') {
                fprintf(stderr, "%s: --seed: \"%s\"; expected a non-negative integer\n",
                        prog, optarg);
                pb_cli_free(&cli);
                return 2;
            }
            break;
        }
        case O_REQUEST_ID: opts.request_id = optarg; break;
        case O_OUTPUT: out_path = optarg; break;
        case O_QUIET: quiet = 1; break;
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
        const imp_stats *st = imp_get_stats(im);
        if (imp_events_summary(im) && st->sources)
            pb_strbuf_printf(&s, "%s", st->sources); /* no span counters */
        if (imp_events_summary(im) || imp_stats_summary(st, &s) == PB_OK) {
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
        const char *es = imp_events_summary(im);
        while (es && *es) {
            const char *nl = strchr(es, '\n');
            size_t l = nl ? (size_t)(nl - es) : strlen(es);
            fprintf(stderr, "%s: %.*s\n", prog, (int)l, es);
            es += l + (nl != NULL);
        }
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
