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

enum { O_FORMAT = 1, O_CALLID, O_THREAD, O_OUTPUT, O_QUIET, O_SET };
/* the flags -s NAME=VALUE also sets (NAME = the flag's name) */
static const int param_ids[] = {O_FORMAT, O_CALLID, O_THREAD};
static const pb_option import_params[] = {
    {"format", PB_OPT_STRING, 0, "auto", PB_OPT_NORANGE, "--format"},
    {"callid", PB_OPT_BOOL, 0, "0", PB_OPT_NORANGE, "--callid"},
    {"thread", PB_OPT_BOOL, 0, "0", PB_OPT_NORANGE, "--thread"},
    {NULL, 0, 0, NULL, PB_OPT_NORANGE, NULL}};
static const pb_cli_opt cli_opts[] = {
    {O_FORMAT, 0, "format", "FMT", "jaeger, zipkin, otlp or auto (default: by each\n"
                                   "document's shape)"},
    {O_CALLID, 'c', "callid", NULL, "fill callid with TRACEID:SPANID of each RPC (default empty)"},
    {O_THREAD, 0, "thread", NULL, "fill thread with TRACEID:SPANID of the span that\n"
                                  "handled each message at its receiver (for vpath)"},
    {O_OUTPUT, 'o', "output", "FILE", "write the trace there (default stdout)"},
    {O_QUIET, 'q', "quiet", NULL, "no summary on stderr"},
    {O_SET, 's', "set", "NAME=VALUE", "the same as --format VALUE (format=FMT), --callid\n"
                                      "and --thread (callid=yes|no, thread=yes|no)"},
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
        int on = 1; /* -s callid=no, thread=no */
        if (c == O_SET) {
            const char *kv = optarg;
            c = pb_cli_param_flag(&cli, param_ids, sizeof param_ids / sizeof *param_ids,
                                  kv, &optarg, &err);
            if (c == O_CALLID || c == O_THREAD) {
                if (!strcmp(optarg, "1") || !strcmp(optarg, "yes") ||
                    !strcmp(optarg, "true") || !strcmp(optarg, "on"))
                    on = 1;
                else if (!strcmp(optarg, "0") || !strcmp(optarg, "no") ||
                         !strcmp(optarg, "false") || !strcmp(optarg, "off"))
                    on = 0;
                else {
                    pb_error_set(&err, PB_EINVAL, NULL, 0, 0, "-s %s: expected yes or no", kv);
                    c = 0;
                }
            }
            if (!c) {
                pb_cli_free(&cli);
                return pb_cli_usage_error(prog, &err);
            }
        }
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
        case O_CALLID: opts.callid = on; break;
        case O_THREAD: opts.thread = on; break;
        case O_OUTPUT: out_path = optarg; break;
        case O_QUIET: quiet = 1; break;
        case PB_CLI_HELP: usage(stdout, &cli); pb_cli_free(&cli); return 0;
        case PB_CLI_VERSION: pb_cli_version(stdout, prog); pb_cli_free(&cli); return 0;
        case PB_CLI_LIST: {
            const pb_option *tabs[2] = {import_params, NULL};
            pb_cli_list(stdout, &cli, tabs);
            pb_cli_free(&cli);
            return 0;
        }
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
