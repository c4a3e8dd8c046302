/*
 * importtrace - Jaeger, Zipkin v2 or OpenTelemetry (OTLP/JSON) traces to a
 * message trace with truth.
 *
 *   importtrace [--format jaeger|zipkin|otlp|auto] [--callid] [-o FILE] PATH...
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imp.h"
#include "pb_strbuf.h"
#include "pb_trace.h"

static const char *prog = "importtrace";

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: %s [options] PATH...\n"
            "Turn Jaeger (query API JSON), Zipkin v2 or OpenTelemetry (OTLP/JSON)\n"
            "traces into one message trace with truth: every RPC a call and a return,\n"
            "nodes named by service, all requests interleaved by time.  PATH is a\n"
            "JSON file (plain, .gz, .xz, .zst or .bz2; one document or one per line),\n"
            "a tar archive of them (.tar, .tar.gz, .tar.xz, ...), a folder (walked\n"
            "recursively, names in byte order at every level) or \"-\" for stdin.\n\n"
            "  -f, --format FMT   jaeger, zipkin, otlp or auto (default: by each\n"
            "                     document's shape)\n"
            "  -c, --callid       fill callid with TRACEID:SPANID of each RPC (default empty)\n"
            "      --thread       fill thread with TRACEID:SPANID of the span that\n"
            "                     handled each message at its receiver (for vpath)\n"
            "  -o, --output FILE  write the trace there (default stdout)\n"
            "  -q, --quiet        no summary on stderr\n"
            "  -h, --help         this help\n\n"
            "The summary (stderr) and the trace's \"# importtrace\" metadata line count\n"
            "every irregularity met and what was done about it; see docs/importer.md.\n",
            prog);
}

int main(int argc, char **argv)
{
    imp_opts opts;
    imp_opts_default(&opts);
    const char *out_path = NULL;
    int quiet = 0;
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"callid", no_argument, NULL, 'c'},
        {"thread", no_argument, NULL, 'T'},
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "f:co:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
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
                return 2;
            }
            break;
        case 'c': opts.callid = 1; break;
        case 'T': opts.thread = 1; break;
        case 'o': out_path = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "%s: expected at least one PATH (a JSON file, a folder "
                        "or \"-\")\n", prog);
        usage(stderr);
        return 2;
    }
    pb_error err;
    pb_error_clear(&err);
    imp_importer *im = NULL;
    if (imp_init(&im, &opts, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 1;
    }
    for (int i = optind; i < argc; i++) {
        if (imp_add_path(im, argv[i], &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            imp_close(im);
            return 1;
        }
    }
    pb_trace *t = NULL;
    if (imp_finish(im, &t, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        imp_close(im);
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
    FILE *fp = stdout;
    if (out_path && strcmp(out_path, "-")) {
        fp = fopen(out_path, "w");
        if (!fp) {
            perror(out_path);
            pb_trace_close(t);
            imp_close(im);
            return 1;
        }
    }
    int rc = pb_trace_write(t, fp, 0, &err);
    if (fp != stdout) {
        if (fclose(fp) != 0 && rc == PB_OK)
            rc = pb_error_set(&err, PB_EIO, out_path, 0, 0, "cannot write");
    } else if (fflush(stdout) != 0 && rc == PB_OK) {
        rc = pb_error_set(&err, PB_EIO, "(stdout)", 0, 0, "cannot write");
    }
    if (rc != PB_OK)
        pb_error_print(stderr, prog, &err);
    pb_trace_close(t);
    imp_close(im);
    return rc == PB_OK ? 0 : 1;
}
