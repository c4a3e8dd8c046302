/*
 * importtrace - Jaeger, Zipkin v2 or OpenTelemetry (OTLP/JSON) traces to a
 * message trace with truth.
 *
 *   importtrace [--format jaeger|zipkin|otlp|auto] [--callid] [-o FILE] PATH...
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imp.h"
#include "pb_cli.h"
#include "pb_files.h"
#include "pb_strbuf.h"
#include "pb_trace.h"

static const char *prog = "importtrace";

enum { O_FORMAT = 1, O_CALLID, O_THREAD, O_OUTPUT, O_QUIET, O_MAXDOC };
static const pb_cli_opt cli_opts[] = {
    {O_FORMAT, 0, "format", "FMT", "jaeger, zipkin, otlp or auto (default: by each\n"
                                   "document's shape)"},
    {O_CALLID, 'c', "callid", NULL, "fill callid with TRACEID:SPANID of each RPC (default empty)"},
    {O_THREAD, 0, "thread", NULL, "fill thread with TRACEID:SPANID of the span that\n"
                                  "handled each message at its receiver (for vpath)"},
    {O_OUTPUT, 'o', "output", "FILE", "write the trace there (default stdout)"},
    {O_QUIET, 'q', "quiet", NULL, "no summary on stderr"},
    {O_MAXDOC, 0, "max-document", "SIZE", "the most one JSON document (a file or archive\n"
                                          "member, once decompressed) may hold: bytes,\n"
                                          "or with K, M, G, T (1024s); default 1G"},
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
        case O_MAXDOC:
            if (pb_size_parse(optarg, &opts.max_document) != PB_OK) {
                fprintf(stderr, "%s: --max-document %s: expected a size in bytes, "
                                "at least 1, with K, M, G or T for 1024s (1G) "
                                "(try %s --help)\n", prog, optarg, prog);
                pb_cli_free(&cli);
                return 2;
            }
            break;
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
    for (int i = optind; i < argc; i++)
        if (!*argv[i]) {
            fprintf(stderr, "%s: PATH %d is an empty name; expected a JSON file, "
                            "a folder or \"-\" for stdin (try %s --help)\n",
                    prog, i - optind + 1, prog);
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
