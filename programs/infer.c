/*
 * infer - run a path-inference algorithm on a message trace.
 *
 *   infer --algo nesting|convolution|linking|truth [options] [TRACE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "imp_export.h"
#include "joint.h"
#include "nesting.h"
#include "pb_algo.h"
#include "pb_cli.h"
#include "pb_exec.h"
#include "pb_files.h"
#include "pb_strbuf.h"
#include "pb_tick.h"
#include "pb_time.h"
#include "pb_trace.h"
#include "pb_version.h"

/* this process's CPU time in seconds (user + system, nanosecond clock):
 * fine enough that a tiny run never reads 0, unlike clock() rounding or
 * /usr/bin/time's 10 ms ticks */
static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return (double)clock() / CLOCKS_PER_SEC;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *prog = "infer";
static int quiet; /* -q */

/* The flags of infer: add a flag with one enum value, one row and one
 * case in main's switch. */
enum {
    O_ALGO = 1, O_SET, O_OUTPUT, O_DOT, O_REPORT, O_JAEGER, O_RANK, O_NOASSIGN,
    O_SORT, O_IGNORE, O_PARSE, O_PERWIN, O_QUIET, O_EXEC_TIME, O_EXEC_OUT
};
static const pb_cli_opt cli_opts[] = {
    {O_ALGO, 'a', "algo", "NAME", "algorithm (below)"},
    {O_SET, 's', "set", "NAME=VALUE", "set an algorithm parameter (repeatable)"},
    {O_OUTPUT, 'o', "output", "FILE", "result file (default stdout)"},
    {O_DOT, 0, "dot", "FILE", "write Graphviz output of the algorithm"},
    {O_REPORT, 0, "report", "FILE", "write the algorithm's text report"},
    {O_JAEGER, 0, "export-jaeger", "FILE", "every inferred instance as one Jaeger\n"
                                           "JSON trace (Jaeger UI \"Upload JSON\")"},
    {O_RANK, 0, "rank-by", "KEY", "count, score, latency, score-per-count,\n"
                                  "score-per-sqrt (default: the algorithm's)"},
    {O_NOASSIGN, 0, "no-assign", NULL, "leave out the message-to-instance table"},
    {O_SORT, 0, "sort", NULL, "accept rows out of time order and re-sort"},
    {O_IGNORE, 0, "ignore-unknown-columns", NULL, "skip columns pathbench does not know"},
    {O_PARSE, 0, "parse-only", NULL, "check the parameters and the trace, run nothing"},
    {O_PERWIN, 0, "per-window", "FILE", "nesting with -s window=D: CSV of path\n"
                                        "instances per window and pattern"},
    {O_QUIET, 'q', "quiet", NULL, "no notes on stderr (warnings and errors stay)"},
    {O_EXEC_TIME, 0, "exec-timeout", "DURATION", "exec: kill the command after this\n"
                                                 "wall time (default 1h; 0 = none)"},
    {O_EXEC_OUT, 0, "exec-max-output", "SIZE", "exec: the most one file the command\n"
                                               "writes may hold (4G; 0 = none)"},
    {0, 0, NULL, NULL, NULL}};

static void usage(FILE *fp, const pb_cli *cli)
{
    fprintf(fp,
            "usage: %s --algo NAME [options] [TRACE]\n"
            "Infer causal path patterns from a message trace (CSV or the Project 5\n"
            "whitespace format; stdin when TRACE is absent or \"-\").\n"
            "nesting with -s window=D streams the trace in two passes (memory\n"
            "follows the window; stdin is read once, spooled to TMPDIR).\n\n",
            prog);
    pb_cli_help(fp, cli);
    fputc('\n', fp);
    for (const pb_algo *const *a = pb_algo_list(); *a; a++) {
        fprintf(fp, "%s (%s view): %s\n", (*a)->name, (*a)->view, (*a)->summary);
        pb_opt_help(fp, (*a)->options, "    ");
    }
    fprintf(fp, "exec:'COMMAND ARGS' (any view): an external algorithm in any language:\n"
                "    COMMAND gets the trace without truth columns as CSV on stdin and\n"
                "    writes a result file on stdout; -s NAME=VALUE reach it as the\n"
                "    environment variables PB_PARAM_NAME and PB_PARAMS (docs/baselines.md)\n");
}

/* infer --algo exec:COMMAND: run it, check its result, re-head it. */
static int run_exec(const char *command, const char *trace_path,
                    const pb_reader_opts *ropts, const char *const *sets,
                    size_t nsets, const pb_exec_limits *lim, const char *out_path)
{
    if (!*command) {
        fprintf(stderr, "%s: --algo exec: needs a command, e.g. "
                        "--algo exec:'python3 examples/fcfs.py'\n", prog);
        return 2;
    }
    pb_error err;
    pb_error_clear(&err);
    /* the output opened before the work, and not the trace */
    pb_out *o = NULL;
    if (pb_out_open(&o, out_path, &trace_path, 1, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 1;
    }
    pb_trace *trace = NULL;
    if (pb_trace_load(trace_path, ropts, 0, &trace, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        pb_out_abort(o);
        return 1;
    }
    pb_rounded_print(stderr, prog, trace_path, trace->nrounded, trace->rounded_line, trace->rounded_col);
    pb_exec_run run;
    int rc = pb_exec_start(command, trace, sets, nsets, lim, &run, &err);
    const char *et = run.err_text ? run.err_text : "";
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        if (*et)
            fprintf(stderr, "%s: its standard error:\n%s%s", prog, et,
                    et[strlen(et) - 1] == '\n' ? "" : "\n");
        pb_exec_run_free(&run);
        pb_trace_close(trace);
        pb_out_abort(o);
        return rc == PB_EINVAL ? 2 : 1;
    }
    if (*et) /* warnings of the external algorithm, passed through */
        fputs(et, stderr);
    rc = pb_exec_finish(command, trace, trace_path, &run, pb_out_fp(o), &err);
    if (rc == PB_OK)
        rc = pb_out_commit(o, &err);
    else
        pb_out_abort(o);
    if (rc != PB_OK)
        pb_error_print(stderr, prog, &err);
    pb_exec_run_free(&run);
    pb_trace_close(trace);
    return rc == PB_OK ? 0 : 1;
}

/* Every algorithm's parameter table, for --list-options. */
/* Every algorithm's option table, NULL-terminated, for --list-options. */
static void algo_tables(const pb_option **tabs, size_t cap)
{
    size_t n = 0;
    for (const pb_algo *const *a = pb_algo_list(); *a && n + 1 < cap; a++)
        tabs[n++] = (*a)->options;
    tabs[n] = NULL;
}

/* --export-jaeger: the instances as Jaeger JSON (importer/imp_export.h);
 * every rounding or guess is said on stderr.  Commits or aborts o.
 * Returns 0 or 1. */
static int export_jaeger(pb_out *o, const pb_trace *trace,
                         const pb_result *res)
{
    /* the name outlives o (pb_out_commit frees it) */
    char path[PB_ERROR_FILE_MAX];
    snprintf(path, sizeof path, "%s", pb_out_name(o));
    pb_error err;
    pb_error_clear(&err);
    imp_export_stats st;
    int rc = imp_export_jaeger(pb_out_fp(o), trace, res, &st, &err);
    if (rc == PB_OK)
        rc = pb_out_commit(o, &err);
    else
        pb_out_abort(o);
    if (rc != PB_OK) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", path);
        pb_error_print(stderr, prog, &err);
        return 1;
    }
    if (!quiet)
        fprintf(stderr, "%s: %s: %zu instances as Jaeger traces (%zu spans, %zu "
                    "RPCs, %zu one-way messages)\n",
            prog, path, st.instances, st.spans, st.rpcs, st.one_way);
    /* every guess the export made, with its count */
    const struct {
        size_t n;
        const char *what;
    } said[] = {
        {st.multi_root, "instances have more than one root RPC (each roots its "
                        "own span tree)"},
        {st.no_open_parent, "RPCs sent when no call into their sender was open: "
                            "child of its latest call"},
        {st.cycles_cut, "parent choices would have closed a loop: those RPCs root "
                        "their own span tree"},
        {st.rounded, "timestamps were not whole microseconds: rounded down (Jaeger "
                     "times are microseconds)"},
        {st.negative, "spans ended before they started (clocks): duration 0"},
        {st.unassigned, "messages in no instance: not exported"},
    };
    for (size_t i = 0; i < sizeof said / sizeof said[0]; i++)
        if (said[i].n)
            fprintf(stderr, "%s: %s: %zu %s\n", prog, path, said[i].n, said[i].what);
    return 0;
}

#define FAIL(code)          \
    do {                    \
        status = (code);    \
        goto done;          \
    } while (0)

int main(int argc, char **argv)
{
    const char *algo_name = NULL, *out_path = NULL, *dot_path = NULL,
               *report_path = NULL, *rank_by = NULL, *jaeger_path = NULL,
               *perwin_path = NULL;
    int no_assign = 0, parse_only = 0;
    pb_exec_limits exec_lim;
    pb_exec_limits_default(&exec_lim);
    pb_reader_opts ropts;
    pb_reader_opts_default(&ropts);
#ifdef __GLIBC__
    /* Blocks of 1 MiB and more get their own mappings, given back to the
     * system when freed: glibc's default threshold rises after the first
     * large free, after which freed tables (the trace reader's, nesting's
     * candidate lists) stay resident while the result grows.  Nesting on
     * the 2M-message multi-tier trace: peak 173 MB -> 144 MB. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    /* The heap keeps 4 MiB above its top when it grows and when it is
     * trimmed: with glibc's default (no pad, trimmed past 128 KiB free)
     * joint's searches, which free and allocate their tables again and
     * again, gave pages back and faulted them in anew (TrainTicket 09:00
     * as a black box: 52 brk calls, 4,031 page faults -> 6 and 3,011;
     * about a tenth of its CPU, docs/joint/speed.md, "Speed, seventeenth
     * wave: TrainTicket's fixed costs").  Outputs unchanged; at most 4 MiB
     * more resident. */
    mallopt(M_TOP_PAD, 4 << 20);
#endif
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    size_t nsets = 0;
    pb_error err;
    pb_error_clear(&err);
    pb_cli cli;
    if (!sets || pb_cli_init(&cli, prog, cli_opts, argc, argv, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 2;
    }
    int c;
    const char *arg;
    const pb_option *tabs[32];
    algo_tables(tabs, 32);
    while ((c = pb_cli_next(&cli, &arg, &err)) != PB_CLI_END) {
        int answered = pb_cli_answer(c, &cli, tabs, usage);
        if (answered) {
            pb_cli_free(&cli);
            free(sets);
            return answered - 1;
        }
        switch (c) {
        case O_ALGO: algo_name = arg; break;
        case O_SET: sets[nsets++] = arg; break;
        case O_OUTPUT: out_path = arg; break;
        case O_DOT: dot_path = arg; break;
        case O_REPORT: report_path = arg; break;
        case O_JAEGER: jaeger_path = arg; break;
        case O_RANK: rank_by = arg; break;
        case O_NOASSIGN: no_assign = 1; break;
        case O_SORT: ropts.allow_unsorted = 1; break;
        case O_IGNORE: ropts.ignore_unknown_columns = 1; break;
        case O_PARSE: parse_only = 1; break;
        case O_PERWIN: perwin_path = arg; break;
        case O_QUIET: quiet = 1; break;
        case O_EXEC_TIME:
            if (pb_duration_parse(arg, &exec_lim.timeout) != PB_OK || exec_lim.timeout < 0) {
                fprintf(stderr, "%s: --exec-timeout %s: expected a duration with a "
                                "unit (%s), 0 for none%s (try %s --help)\n",
                        prog, arg, PB_DURATION_UNITS, pb_duration_hint(arg), prog);
                pb_cli_free(&cli);
                free(sets);
                return 2;
            }
            break;
        case O_EXEC_OUT:
            if (strcmp(arg, "0") && pb_size_parse(arg, &exec_lim.max_output) != PB_OK) {
                fprintf(stderr, "%s: --exec-max-output %s: expected a size in bytes "
                                "with K, M, G or T for 1024s (4G), 0 for none (try "
                                "%s --help)\n", prog, arg, prog);
                pb_cli_free(&cli);
                free(sets);
                return 2;
            }
            if (!strcmp(arg, "0"))
                exec_lim.max_output = 0;
            break;
        default: pb_cli_free(&cli); free(sets); return pb_cli_usage_error(prog, &err);
        }
    }
    int optind_ = pb_cli_optind(&cli);
    pb_cli_free(&cli);
    /* the registered names, for the messages below */
    char names[512];
    size_t nl = 0;
    names[0] = '\0';
    for (const pb_algo *const *a = pb_algo_list(); *a && nl < sizeof names; a++)
        nl += (size_t)snprintf(names + nl, sizeof names - nl, "%s, ", (*a)->name);
    if (nl < sizeof names)
        snprintf(names + nl, sizeof names - nl, "or exec:'COMMAND'");
    if (!algo_name) {
        fprintf(stderr, "%s: --algo is required (%s)\n", prog, names);
        free(sets);
        return 2;
    }
    if (!strncmp(algo_name, "exec:", 5)) {
        if (dot_path || report_path || jaeger_path || no_assign || rank_by || parse_only ||
            perwin_path) {
            fprintf(stderr, "%s: --algo exec: takes the result as the command writes "
                            "it; --dot, --report, --export-jaeger, --no-assign, "
                            "--rank-by and --parse-only do not apply\n", prog);
            free(sets);
            return 2;
        }
        if (optind_ + 1 < argc) {
            fprintf(stderr, "%s: expected at most one trace file, got %d\n", prog,
                    argc - optind_);
            free(sets);
            return 2;
        }
        int st = run_exec(algo_name + 5, optind_ < argc ? argv[optind_] : "-", &ropts,
                          sets, nsets, &exec_lim, out_path);
        free(sets);
        return st;
    }
    const pb_algo *algo = pb_algo_find(algo_name);
    if (!algo) {
        fprintf(stderr, "%s: --algo: unknown algorithm \"%s\"; expected %s\n", prog,
                algo_name, names);
        free(sets);
        return 2;
    }
    if (optind_ + 1 < argc) {
        fprintf(stderr, "%s: expected at most one trace file, got %d\n", prog,
                argc - optind_);
        free(sets);
        return 2;
    }
    const char *trace_path = optind_ < argc ? argv[optind_] : "-";

    int status = 0, rc;
    pb_trace *trace = NULL;
    pb_out *outs[5] = {NULL, NULL, NULL, NULL, NULL};
    nesting_window_info winfo;
    memset(&winfo, 0, sizeof winfo);
    pb_result res;
    int res_ok = 0;
    pb_strbuf h1 = {0}, h2 = {0}, h3 = {0}, h4 = {0};
    void *params = calloc(1, algo->params_size ? algo->params_size : 1);
    if (!params || pb_opt_defaults(algo->options, params, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    for (size_t i = 0; i < nsets; i++) {
        if (pb_opt_set_kv(algo->options, params, sets[i], &err) != PB_OK) {
            fprintf(stderr, "%s: --set %s: ", prog, sets[i]);
            pb_error_print(stderr, NULL, &err);
            FAIL(2);
        }
        /* a renamed parameter (one meaning per name): still read, said */
        char name[64];
        const pb_option *o;
        if (pb_cli_kv_split(sets[i], name, sizeof name) &&
            (o = pb_opt_find_old(algo->options, name)))
            fprintf(stderr, "%s: note: -s %s: %s's parameter %s is now called %s; "
                            "the old name is read until the next release\n",
                    prog, sets[i], algo->name, name, o->name);
    }
    /* an old name and its new one, both given: one name given twice */
    pb_cli_sets_twice(prog, algo->options, sets, nsets);
    /* joint's string options: a word no rule reads is refused before the
     * trace is read (exit 2; --parse-only says it), as a bad number is */
    if (algo == &pb_algo_joint && joint_params_check(params, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(2);
    }
    pb_rank_by rb = PB_RANK_COUNT;
    if (rank_by && pb_rank_by_parse(rank_by, &rb) != PB_OK) {
        fprintf(stderr, "%s: --rank-by: unknown key \"%s\"; expected count, "
                        "score, latency, score-per-count or score-per-sqrt\n",
                prog, rank_by);
        FAIL(2);
    }
    /* nesting with a window streams the trace (two passes), unless
     * something needs it whole */
    const int windowed = algo == &pb_algo_nesting && ((nesting_params *)params)->window > 0;
    const int stream = windowed && !parse_only && !jaeger_path && !ropts.allow_unsorted;
    if (perwin_path && !windowed) {
        fprintf(stderr, "%s: --per-window needs --algo nesting -s window=DURATION\n", prog);
        FAIL(2);
    }
    /* every output opened before the work, none of them an input */
    const char *out_paths[5] = {out_path, dot_path, report_path, jaeger_path, perwin_path};
    for (int i = 0; i < 5; i++) {
        if (i > 0 && !out_paths[i])
            continue;
        if (pb_out_open(&outs[i], out_paths[i], &trace_path, 1, &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(1);
        }
    }

    double t0 = cpu_now(), t1 = t0;
    pb_tick_info tick;
    char tickbuf[PB_TICK_BUF];
    if (stream) {
        if (pb_result_init(&res, algo->name, algo->view) != PB_OK) {
            fprintf(stderr, "%s: out of memory\n", prog);
            FAIL(1);
        }
        res_ok = 1;
        if (rank_by)
            res.rank_by = rb;
        res.skip_assign = no_assign;
        /* the assignment table to a temporary file: memory follows the window */
        if (!no_assign && pb_result_spool_assign(&res) != PB_OK) {
            fprintf(stderr, "%s: cannot create a temporary file for the assignment "
                            "table (give --no-assign, or set TMPDIR)\n", prog);
            FAIL(1);
        }
        rc = nesting_window_stream(trace_path, &ropts, params, &res,
                                   outs[4] ? pb_out_fp(outs[4]) : NULL, &winfo, &err);
        if (rc != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(1);
        }
        tick = winfo.tick; /* measured while streaming */
        goto write;
    }
    if (pb_trace_load(trace_path, &ropts, algo->run_truth != NULL, &trace, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    pb_rounded_print(stderr, prog, trace_path, trace->nrounded, trace->rounded_line, trace->rounded_col);
    t1 = cpu_now();
    if (parse_only) {
        if (!quiet)
            fprintf(stderr, "%s: %s: %zu messages, parameters ok\n", prog,
                trace_path, trace->n);
        FAIL(0);
    }

    /* the trace's timestamp resolution: result metadata for every algorithm */
    pb_tick_detect(trace->msgs, trace->n, &tick);

    if (pb_result_init(&res, algo->name, algo->view) != PB_OK) {
        fprintf(stderr, "%s: out of memory\n", prog);
        FAIL(1);
    }
    res_ok = 1;
    if (!strcmp(algo->name, "linking"))
        res.rank_by = PB_RANK_SCORE;
    if (rank_by)
        res.rank_by = rb;
    res.skip_assign = no_assign;
    /* nesting's message table: its rows and links (40 bytes a message)
     * to a temporary file, as the windowed run does, so that they do not
     * sit in memory beside the algorithm's own (2 M messages: 192 MB ->
     * see docs/nesting.md); the same bytes written.  Without a temporary
     * file they stay in memory (the same output) */
    if (!no_assign && !algo->run_truth && !strcmp(algo->name, "nesting"))
        (void)pb_result_spool_assign(&res);
    if (algo->run_truth) {
        rc = algo->run_truth(trace, params, &res, &err);
    } else if (windowed) {
        pb_trace_view view = pb_trace_view_of(trace);
        rc = nesting_window_run(&view, params, &res, outs[4] ? pb_out_fp(outs[4]) : NULL, &err);
    } else {
        pb_trace_view view = pb_trace_view_of(trace);
        rc = algo->run(&view, params, &res, &err);
    }
write:;
    double t2 = cpu_now();
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    /* and a warning when many rows tie at a coarse tick */
    pb_tick_format(tick.tick, tickbuf);
    if (tick.coarse_ties)
        fprintf(stderr, "%s: warning: %zu of %zu messages (%.1f %%) share their ts "
                        "with the row before or after at a %s tick: only the order of "
                        "the rows says which came first (nesting takes it as the "
                        "order of events; see docs/formats.md \"Timestamp "
                        "resolution\")\n", prog, tick.tied, tick.n,
                100.0 * (double)tick.tied / (double)tick.n, tickbuf);

    /* caps and fallbacks that changed the result are "warning: ..."
     * metadata lines: say them on stderr too */
    for (const char *w = pb_strbuf_str(&res.meta); (w = strstr(w, "warning: "));) {
        if (w == pb_strbuf_str(&res.meta) || w[-1] == '\n')
            fprintf(stderr, "%s: %.*s\n", prog, (int)strcspn(w, "\n"), w);
        w += strcspn(w, "\n");
    }
    pb_strbuf_printf(&h1, "algo=%s view=%s trace=%s messages=%zu", algo->name,
                     res.view, trace_path, stream ? winfo.messages : trace->n);
    pb_strbuf_puts(&h2, "params: ");
    pb_opt_describe(algo->options, params, &h2);
    /* CPU times go in metadata, not in anything a test compares */
    if (stream) /* reading and inference interleave */
        pb_strbuf_printf(&h3, "cpu_read_s=0 cpu_infer_s=%.6f", t2 - t0);
    else
        pb_strbuf_printf(&h3, "cpu_read_s=%.6f cpu_infer_s=%.6f", t1 - t0, t2 - t1);
    /* which trace this came from, for score to check (pb_fingerprint) */
    pb_fingerprint fpr;
    char fpline[96];
    if (stream)
        fpr = winfo.fp;
    else
        pb_fingerprint_of(trace->msgs, trace->n, trace->names->nodes, &fpr);
    pb_fingerprint_format(&fpr, fpline, sizeof fpline);
    /* which pathbench made it (results record the program version) */
    pb_strbuf_printf(&h4, "program=%s version=%s commit=%s", prog, pb_version(),
                     pb_version_commit()[0] ? pb_version_commit() : "none");
    const char *head[5] = {pb_strbuf_str(&h1), pb_strbuf_str(&h2), pb_strbuf_str(&h3),
                           fpline, pb_strbuf_str(&h4)};
    pb_result_meta(&res, "tick=%s tied_ts=%zu tied_share=%.4f coarse_ties=%d",
                       tickbuf, tick.tied,
                       tick.n ? (double)tick.tied / (double)tick.n : 0.0,
                       tick.coarse_ties);
    /* trace metadata is carried along so a result says where it came from */
    for (size_t i = 0; !stream && i < trace->nmeta; i++)
        pb_result_meta(&res, "trace: %s", trace->meta[i]);
    for (size_t i = 0; stream && i < winfo.nmeta; i++)
        pb_result_meta(&res, "trace: %s", winfo.meta[i]);
    rc = pb_result_write(pb_out_fp(outs[0]), &res, head, 5, !no_assign, &err);
    if (rc != PB_OK) {
        /* name the output, as every other program's write error does */
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", pb_out_name(outs[0]));
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    if (outs[1])
        fputs(pb_strbuf_str(&res.dot), pb_out_fp(outs[1]));
    if (outs[2])
        fputs(pb_strbuf_str(&res.report), pb_out_fp(outs[2]));
    for (int i = 0; i < 5; i++) {
        if (i == 3)
            continue;
        pb_out *o = outs[i];
        outs[i] = NULL;
        if (pb_out_commit(o, &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            status = 1;
        }
    }
    if (outs[3]) {
        pb_out *o = outs[3];
        outs[3] = NULL;
        if (export_jaeger(o, trace, &res) != 0)
            status = 1;
    }
done:
    for (int i = 0; i < 5; i++)
        pb_out_abort(outs[i]);
    nesting_window_info_free(&winfo);
    pb_strbuf_free(&h1);
    pb_strbuf_free(&h2);
    pb_strbuf_free(&h3);
    pb_strbuf_free(&h4);
    if (res_ok)
        pb_result_free(&res);
    pb_trace_close(trace);
    free(params);
    free(sets);
    return status;
}
