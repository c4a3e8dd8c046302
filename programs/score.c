/*
 * score - compare an inference result with the truth of a trace.
 *
 *   score --truth TRACE [options] [RESULT]
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_cli.h"
#include "pb_trace.h"
#include "assume.h"
#include "score.h"
#include "score_query.h"
#include "tv.h"

static const char *prog = "score";

enum {
    O_TRUTH = 1, O_MIN, O_TOPN, O_TOL, O_RANK, O_TOLCOUNT, O_CURVE, O_TEXT, O_TOP,
    O_NOHEADER, O_SORT, O_IGNORE, O_KEPT, O_QUERY, O_COVERAGE, O_RELIAB, O_CISEED, O_CIREPS, O_SET,
    O_OUTPUT, O_QUIET, O_SEED
};
/* the flags -s NAME=VALUE also sets (NAME = the flag's name, '_'-joined) */
static const int param_ids[] = {O_MIN, O_TOPN, O_TOL, O_RANK, O_TOLCOUNT, O_TOP, O_CISEED,
                                O_CIREPS, O_SEED};
/* their names and types, for --list-options (values go through the flags) */
static const pb_option score_params[] = {
    {"min_instances", PB_OPT_INT, 0, "0", PB_OPT_NORANGE, "--min-instances"},
    {"topn", PB_OPT_INT, 0, "10", PB_OPT_NORANGE, "--topn"},
    {"tolerance", PB_OPT_STRING, 0, "2", PB_OPT_NORANGE, "--tolerance"},
    {"rank_by", PB_OPT_STRING, 0, "count", PB_OPT_NORANGE, "--rank-by"},
    {"tol_count", PB_OPT_STRING, 0, "inferred", PB_OPT_NORANGE, "--tol-count"},
    {"top", PB_OPT_INT, 0, "0", PB_OPT_NORANGE, "--top"},
    {"ci_seed", PB_OPT_INT, 0, "1", PB_OPT_NORANGE, "--ci-seed"},
    {"ci_reps", PB_OPT_INT, 0, "2000", PB_OPT_NORANGE, "--ci-reps"},
    {"seed", PB_OPT_INT, 0, "1", PB_OPT_NORANGE, "--seed (= --ci-seed)"},
    {NULL, 0, 0, NULL, PB_OPT_NORANGE, NULL}};
/* --seed is --ci-seed: one name for the twice-given warning (pb_cli) */
static const pb_option score_names[] = {
    {"seed", PB_OPT_ALIAS, 0, "ci_seed", PB_OPT_NORANGE, NULL},
    {NULL, 0, 0, NULL, PB_OPT_NORANGE, NULL}};
static const pb_cli_opt cli_opts[] = {
    {O_TRUTH, 'T', "truth", "TRACE", "the trace with truth columns (required)"},
    {O_KEPT, 0, "kept", "TRACE", "the lossy copy of the truth trace the result\n"
                                 "was inferred from (sniffer output): score\n"
                                 "against the truth of the messages it kept"},
    {O_MIN, 'm', "min-instances", "M", "ignore inferred patterns with fewer than M\n"
                                      "instances (paper 7.5.7; default 0 = keep all)"},
    {O_TOPN, 0, "topn", "N", "N of the top-N columns (default 10)"},
    {O_TOL, 't', "tolerance", "T[,T..]", "top-N tolerance in percent (default 2); the\n"
                                         "first goes in the row, all in the curve"},
    {O_RANK, 0, "rank-by", "KEY", "rank inferred patterns by count (default)\n"
                                  "or score (expected count, for linking)"},
    {O_TOLCOUNT, 0, "tol-count", "KEY", "inferred (default): forgive a missing pattern\n"
                                        "whose inferred count/score is within T% of the\n"
                                        "N-th; true: whose true count is within T% of it"},
    {O_CURVE, 0, "topn-curve", "FILE", "write the top-N curve (N = 1 .. true patterns)\n"
                                       "as CSV to FILE (Figure 17)"},
    {O_QUERY, 0, "query", "QUERY", "answer Pivot Tracing queries (a query text, or\n"
                                   "a file of them) over the truth and over each\n"
                                   "RESULT (several allowed), one row per result\n"
                                   "and query: the answer error (docs/metrics.md)"},
    {O_COVERAGE, 0, "coverage-curve", "FILE", "write the precision-coverage curve (as\n"
                                              "-s min_confidence rises, from the result's\n"
                                              "confidence column) as CSV to FILE"},
    {O_RELIAB, 0, "reliability", "FILE", "write the reliability table (bins of stated\n"
                                         "confidence: rows, mean confidence, fraction\n"
                                         "right) as CSV to FILE"},
    {O_CISEED, 0, "ci-seed", "N", "seed of the bootstrap interval (default 1)"},
    {O_CIREPS, 0, "ci-reps", "B", "bootstrap replicates (default 2000; 0 = no\n"
                                  "interval)"},
    {O_TEXT, 0, "text", NULL, "print a readable report instead of the row"},
    {O_TOP, 0, "top", "N", "with --text: at most N pattern lines (0 = all)"},
    {O_NOHEADER, 0, "no-header", NULL, "print the row without its header"},
    {O_SORT, 0, "sort", NULL, "accept trace rows out of time order"},
    {O_IGNORE, 0, "ignore-unknown-columns", NULL, "skip columns pathbench does not know"},
    {O_SEED, 0, "seed", "N", "the same as --ci-seed N (the one draw score makes)"},
    {O_SET, 's', "set", "NAME=VALUE", "the same as the flag --NAME VALUE for min_instances,\n"
                                      "topn, tolerance, rank_by, tol_count, top, ci_seed,\n"
                                      "ci_reps, seed"},
    {O_OUTPUT, 'o', "output", "FILE", "write the row (or --text report) there\n"
                                      "(default stdout)"},
    {O_QUIET, 'q', "quiet", NULL, "no notes on stderr (errors stay; score prints\n"
                                  "no notes today)"},
    {0, 0, NULL, NULL, NULL}};

static void usage(FILE *fp, const pb_cli *cli)
{
    fprintf(fp,
            "usage: %s --truth TRACE [options] [RESULT]\n"
            "Score a result file (from infer; stdin when RESULT is absent or \"-\")\n"
            "against the truth columns of TRACE, the unperturbed trace it was\n"
            "inferred from (messages matched by id).  With --kept, the truth is\n"
            "cut to the messages of that lossy copy.  The view comes from the\n"
            "result's metadata.  Prints one CSV row with a header (--text: a\n"
            "readable report).\n\n",
            prog);
    pb_cli_help(fp, cli);
}

static int parse_size(const char *s, unsigned long long *out)
{
    if (!s || *s < '0' || *s > '9')
        return 0;
    char *end;
    errno = 0;
    *out = strtoull(s, &end, 10);
    return !errno && !*end;
}

/* An integer flag in [lo, hi]: 1 and *v, or 0 after saying it was
 * expected to be `expect` (and why it is not an integer:
 * pb_integer_hint). */
static int size_flag(const char *flag, const char *arg, unsigned long long lo,
                     unsigned long long hi, const char *expect,
                     unsigned long long *v)
{
    if (parse_size(arg, v) && *v >= lo && *v <= hi)
        return 1;
    fprintf(stderr, "%s: %s: \"%s\"; expected %s%s\n", prog, flag, arg, expect,
            pb_integer_hint(arg));
    return 0;
}

static int parse_tols(const char *s, score_opts *o)
{
    o->ntol = 0;
    while (*s) {
        if (o->ntol == SCORE_MAX_TOL)
            return 0;
        const char *end = s + strcspn(s, ",");
        double v;
        /* one rule for numbers (pb_number_parse): decimal, an underflow
         * (1e-400) is 0 */
        if (pb_number_parse(s, (size_t)(end - s), &v) != PB_OK || !(v >= 0 && v <= 100))
            return 0;
        o->tol[o->ntol++] = v;
        s = *end ? end + 1 : end;
        if (*end == ',' && !*s)
            return 0;
    }
    return o->ntol > 0;
}

/* --query: a readable file is a query file, anything else query text */
static int load_queries(const char *arg, pq_query ***qs, size_t *nq, pb_error *err)
{
    FILE *fp = strcmp(arg, "-") ? fopen(arg, "rbe") : NULL; /* a peek */
    if (fp) {
        fclose(fp);
        return pq_parse_file(arg, qs, nq, err);
    }
    return pq_parse_list(arg, "--query", qs, nq, err);
}

/* score --query: every query against every result */
static int run_queries(const char *query_arg, const char *truth_path,
                       const pb_reader_opts *ropts, char **results, int nres,
                       int text, int no_header, const char *out_path)
{
    pb_error err;
    pb_error_clear(&err);
    pq_query **qs = NULL;
    size_t nq = 0;
    if (load_queries(query_arg, &qs, &nq, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 2;
    }
    /* -o: opened before the work, never one of the inputs */
    pb_out *outf = NULL;
    {
        const char **ins = calloc((size_t)nres + 1, sizeof *ins);
        int orc = ins ? PB_OK : PB_ENOMEM;
        if (ins) {
            ins[0] = truth_path;
            for (int k = 0; k < nres; k++)
                ins[k + 1] = results[k];
            orc = pb_out_open(&outf, out_path, ins, (size_t)nres + 1, &err);
        } else {
            pb_error_set(&err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        }
        free(ins);
        if (orc != PB_OK) {
            pb_error_print(stderr, prog, &err);
            pq_list_close(qs, nq);
            return 1;
        }
    }
    FILE *fo = pb_out_fp(outf);
    pb_trace *trace = NULL;
    score_query_truth *st = NULL;
    score_query_row *rows = calloc(nq, sizeof *rows);
    int status = 0;
    if (!rows) {
        pb_error_set(&err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        status = 1;
    } else if (pb_trace_load(truth_path, ropts, 1, &trace, &err) != PB_OK ||
               score_query_truth_init(trace, nq, &st, &err) != PB_OK) {
        status = 1;
    } else if (!(trace->columns & PB_COL_PATH)) {
        pb_error_set(&err, PB_EINVAL, truth_path, 0, 0, "no path column; expected "
                     "the unperturbed trace with truth columns (path, cause)");
        status = 1;
    }
    /* a field whose column the trace lacks (size, attr; latency without
     * call ids) gave two empty answers, scored as a perfect match */
    for (size_t q = 0; q < nq && !status; q++)
        if (pq_check_fields(qs[q], trace->columns, truth_path, &err) != PB_OK)
            status = 1;
    if (trace)
        pb_rounded_print(stderr, prog, truth_path, trace->nrounded, trace->rounded_line, trace->rounded_col);
    if (!status && !text && !no_header)
        score_query_write_header(fo);
    for (int k = 0; k < nres && !status; k++) {
        score_result *res = NULL;
        if (score_result_read(results[k], &res, &err) != PB_OK ||
            score_check_trace(res, trace, truth_path, &err) != PB_OK ||
            score_query_run(st, qs, nq, res, rows, &err) != PB_OK) {
            status = 1;
        } else {
            for (size_t q = 0; q < nq; q++) {
                if (text)
                    score_query_write_text(fo, res, qs[q], &rows[q]);
                else
                    score_query_write_row(fo, res, qs[q], &rows[q]);
            }
        }
        score_query_rows_free(rows, nq);
        score_result_close(res);
    }
    if (status)
        pb_error_print(stderr, prog, &err);
    if (status) {
        pb_out_abort(outf);
    } else if (pb_out_commit(outf, &err) != PB_OK) { /* stdout too: flushed, checked */
        pb_error_print(stderr, prog, &err);
        status = 1;
    }
    free(rows);
    score_query_truth_close(st);
    pb_trace_close(trace);
    pq_list_close(qs, nq);
    return status;
}

/* Writes one of score's side tables (curve, coverage, reliability) to its
 * output and commits it.  Where the table is read from a confidence column
 * (what != NULL) and the result has none, says so: the table then has its
 * header only.  Returns 0, or 1 after printing the commit's error. */
static int emit_table(pb_out *out, void (*write)(FILE *, const score_report *),
                      const score_report *rep, const score_result *res,
                      const char *what)
{
    pb_error err;
    if (what && !res->has_conf)
        fprintf(stderr, "%s: %s has no confidence column: %s has its "
                        "header only\n", prog, res->file, what);
    write(pb_out_fp(out), rep);
    if (pb_out_commit(out, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *truth_path = NULL, *curve_path = NULL, *kept_path = NULL,
               *out_path = NULL;
    const char *query_arg = NULL;
    const char *cov_path = NULL, *rel_path = NULL;
    int text = 0, no_header = 0;
    score_opts so;
    score_opts_default(&so);
    pb_reader_opts ropts;
    pb_reader_opts_default(&ropts);
    pb_error err;
    pb_error_clear(&err);
    pb_cli cli;
    if (pb_cli_init(&cli, prog, cli_opts, argc, argv, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 2;
    }
    cli.names = score_names;
    int c;
    const char *optarg_;
    unsigned long long v;
    const pb_option *const tabs[2] = {score_params, NULL};
    while ((c = pb_cli_next(&cli, &optarg_, &err)) != PB_CLI_END) {
        int answered = pb_cli_answer(c, &cli, tabs, usage);
        if (answered)
            { pb_cli_free(&cli); return answered - 1; }

        const char *optarg = optarg_;
        if (c == O_SET &&
            !(c = pb_cli_param_flag(&cli, param_ids, sizeof param_ids / sizeof *param_ids,
                                    optarg_, &optarg, &err))) {
            pb_cli_free(&cli);
            return pb_cli_usage_error(prog, &err);
        }
        switch (c) {
        case O_TRUTH: truth_path = optarg; break;
        case O_KEPT: kept_path = optarg; break;
        case O_QUERY: query_arg = optarg; break;
        case O_MIN:
            if (!size_flag("--min-instances", optarg, 0, ULLONG_MAX,
                           "an integer from 0 to 18446744073709551615", &v)) {
                pb_cli_free(&cli);
                return 2;
            }
            so.min_instances = v;
            break;
        case O_TOPN:
            if (!size_flag("--topn", optarg, 1, ULLONG_MAX, "an integer >= 1", &v)) {
                pb_cli_free(&cli);
                return 2;
            }
            so.topn = (size_t)v;
            break;
        case O_TOP:
            if (!size_flag("--top", optarg, 0, ULLONG_MAX, "an integer >= 0 (0 = all)", &v)) {
                pb_cli_free(&cli);
                return 2;
            }
            so.text_top = (size_t)v;
            break;
        case O_TOL:
            if (!parse_tols(optarg, &so)) {
                fprintf(stderr, "%s: --tolerance: \"%s\"; expected up to %d "
                                "comma-separated percentages in [0, 100]\n",
                        prog, optarg, SCORE_MAX_TOL);
                pb_cli_free(&cli);
                return 2;
            }
            break;
        case O_RANK:
            if (!strcmp(optarg, "count"))
                so.rank_by = SCORE_RANK_COUNT;
            else if (!strcmp(optarg, "score"))
                so.rank_by = SCORE_RANK_SCORE;
            else {
                fprintf(stderr, "%s: --rank-by: \"%s\"; expected count or score\n",
                        prog, optarg);
                pb_cli_free(&cli);
                return 2;
            }
            break;
        case O_TOLCOUNT:
            if (!strcmp(optarg, "inferred"))
                so.tol_true_count = 0;
            else if (!strcmp(optarg, "true"))
                so.tol_true_count = 1;
            else {
                fprintf(stderr, "%s: --tol-count: \"%s\"; expected inferred or "
                                "true\n", prog, optarg);
                pb_cli_free(&cli);
                return 2;
            }
            break;
        case O_CURVE: curve_path = optarg; break;
        case O_COVERAGE: cov_path = optarg; break;
        case O_RELIAB: rel_path = optarg; break;
        case O_CISEED:
        case O_SEED:
            if (!size_flag("--ci-seed", optarg, 0, ULLONG_MAX, "an integer >= 0", &v)) {
                pb_cli_free(&cli);
                return 2;
            }
            so.ci_seed = v;
            break;
        case O_CIREPS:
            if (!size_flag("--ci-reps", optarg, 0, 10000000,
                           "an integer from 0 to 10000000", &v)) {
                pb_cli_free(&cli);
                return 2;
            }
            so.ci_reps = (size_t)v;
            break;
        case O_TEXT: text = 1; break;
        case O_NOHEADER: no_header = 1; break;
        case O_SORT: ropts.allow_unsorted = 1; break;
        case O_IGNORE: ropts.ignore_unknown_columns = 1; break;
        case O_OUTPUT: out_path = optarg; break;
        case O_QUIET: break;
        default: pb_cli_free(&cli); return pb_cli_usage_error(prog, &err);
        }
    }
    int optind = pb_cli_optind(&cli);
    pb_cli_free(&cli);
    if (!truth_path) {
        fprintf(stderr, "%s: --truth TRACE is required (the unperturbed trace "
                        "with truth columns)\n", prog);
        return 2;
    }
    if (query_arg) {
        if (kept_path || curve_path || cov_path || rel_path) {
            fprintf(stderr, "%s: --query takes neither --kept nor --topn-curve nor "
                            "--coverage-curve nor --reliability\n", prog);
            return 2;
        }
        static char dash[] = "-";
        static char *stdin_only[] = {dash};
        int nres = argc - optind;
        return run_queries(query_arg, truth_path, &ropts,
                           nres ? argv + optind : stdin_only, nres ? nres : 1,
                           text, no_header, out_path);
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "%s: expected at most one result file, got %d\n", prog,
                argc - optind);
        return 2;
    }
    const char *result_path = optind < argc ? argv[optind] : "-";
    if (kept_path && !strcmp(kept_path, "-")) {
        fprintf(stderr, "%s: --kept: expected a file, not stdin\n", prog);
        return 2;
    }
    if (!strcmp(result_path, "-") && !strcmp(truth_path, "-")) {
        fprintf(stderr, "%s: the trace and the result cannot both be stdin\n", prog);
        return 2;
    }

    /* the curve files are opened before the work, and are not inputs */
    pb_out *curve = NULL, *cov = NULL, *rel = NULL, *outf = NULL;
    const char *inputs[2] = {truth_path, result_path};
    if (curve_path && cov_path && !strcmp(curve_path, cov_path)) {
        fprintf(stderr, "%s: --topn-curve and --coverage-curve name the same "
                        "file; expected two\n", prog);
        return 2;
    }
    if (rel_path && ((curve_path && !strcmp(curve_path, rel_path)) ||
                     (cov_path && !strcmp(cov_path, rel_path)))) {
        fprintf(stderr, "%s: --reliability names the same file as --topn-curve "
                        "or --coverage-curve; expected another\n", prog);
        return 2;
    }
    if ((curve_path && pb_out_open(&curve, curve_path, inputs, 2, &err) != PB_OK) ||
        (cov_path && pb_out_open(&cov, cov_path, inputs, 2, &err) != PB_OK) ||
        (rel_path && pb_out_open(&rel, rel_path, inputs, 2, &err) != PB_OK)) {
        pb_error_print(stderr, prog, &err);
        pb_out_abort(curve);
        pb_out_abort(cov);
        pb_out_abort(rel);
        return 1;
    }
    if (pb_out_open(&outf, out_path, inputs, 2, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        pb_out_abort(curve);
        pb_out_abort(cov);
        pb_out_abort(rel);
        return 1;
    }
    score_result *res = NULL;
    if (score_result_read(result_path, &res, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        pb_out_abort(curve);
        pb_out_abort(outf);
        pb_out_abort(cov);
        pb_out_abort(rel);
        return 1;
    }
    tv_view view;
    if (!res->view) {
        fprintf(stderr, "%s: %s: no view= in the metadata; expected a line like "
                        "\"# algo=nesting view=call ...\"\n", prog, res->file);
        score_result_close(res);
        pb_out_abort(curve);
        pb_out_abort(outf);
        pb_out_abort(cov);
        pb_out_abort(rel);
        return 1;
    }
    if (tv_view_parse(res->view, &view) != PB_OK) {
        fprintf(stderr, "%s: %s: view \"%s\" in the metadata; expected call, "
                        "message or path\n", prog, res->file, res->view);
        score_result_close(res);
        pb_out_abort(curve);
        pb_out_abort(outf);
        pb_out_abort(cov);
        pb_out_abort(rel);
        return 1;
    }
    pb_trace *trace = NULL;
    if (pb_trace_load(truth_path, &ropts, 1, &trace, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        score_result_close(res);
        pb_out_abort(curve);
        pb_out_abort(outf);
        pb_out_abort(cov);
        pb_out_abort(rel);
        return 1;
    }
    pb_rounded_print(stderr, prog, truth_path, trace->nrounded, trace->rounded_line, trace->rounded_col);
    if (!(trace->columns & PB_COL_PATH)) {
        fprintf(stderr, "%s: %s: no path column; expected the unperturbed trace "
                        "with truth columns (path, cause)\n", prog, truth_path);
        pb_trace_close(trace);
        score_result_close(res);
        pb_out_abort(curve);
        pb_out_abort(outf);
        pb_out_abort(cov);
        pb_out_abort(rel);
        return 1;
    }
    tv_truth *tv = NULL;
    score_report *rep = NULL;
    pb_trace *kept = NULL;
    unsigned char *mask = NULL;
    int rc = score_check_trace(res, trace, truth_path, &err);
    if (rc == PB_OK && kept_path) {
        /* the lossy copy: no truth needed (its causes may name lost messages) */
        rc = pb_trace_load(kept_path, &ropts, 0, &kept, &err);
        if (rc == PB_OK)
            pb_rounded_print(stderr, prog, kept_path, kept->nrounded, kept->rounded_line, kept->rounded_col);
        pb_fingerprint kf;
        if (rc == PB_OK && res->has_fp &&
            pb_fingerprint_of(kept->msgs, kept->n, kept->names->nodes, &kf) == PB_OK &&
            (kf.messages != res->fp.messages || kf.ids != res->fp.ids))
            rc = pb_error_set(&err, PB_EINVAL, res->file, 0, 0,
                              "inferred from a trace of %llu messages that is not "
                              "%s (%zu messages); expected --kept to name the "
                              "trace the result was inferred from",
                              (unsigned long long)res->fp.messages, kept_path,
                              kept->n);
        if (rc == PB_OK)
            rc = score_kept_mask(trace, kept, kept_path, &mask, &err);
    }
    if (rc == PB_OK)
        rc = tv_build_kept(trace, view, mask, &tv, &err);
    if (rc == PB_OK)
        rc = score_compute(tv, res, &so, &rep, &err);
    if (rc == PB_OK)
        rc = score_tw_compute(rep, trace, res, &err);
    if (rc == PB_OK)
        rc = score_latency_compute(rep, trace, res, &err);
    if (rc == PB_OK)
        rc = score_links_compute(rep, trace, tv, res, &err);
    if (rc == PB_OK) {
        /* the assumption meters of the truth (empty without thread columns) */
        assume_meters am;
        rc = assume_compute(trace, &am, &err);
        rep->immediacy = am.immediacy;
        rep->thread_pattern = am.thread_pattern;
    }
    free(mask);
    pb_trace_close(kept);
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        tv_close(tv);
        pb_trace_close(trace);
        score_result_close(res);
        pb_out_abort(curve);
        pb_out_abort(outf);
        pb_out_abort(cov);
        pb_out_abort(rel);
        return 1;
    }
    FILE *fo = pb_out_fp(outf);
    if (text) {
        score_write_text(fo, rep);
    } else {
        if (!no_header)
            score_write_header(fo, rep);
        score_write_row(fo, rep);
    }
    int status = 0;
    if (curve && emit_table(curve, score_write_curve, rep, NULL, NULL) != 0)
        status = 1;
    if (cov && emit_table(cov, score_write_coverage, rep, res,
                          "the coverage curve") != 0)
        status = 1;
    if (rel && emit_table(rel, score_write_reliability, rep, res,
                          "the reliability table") != 0)
        status = 1;
    if (pb_out_commit(outf, &err) != PB_OK) { /* stdout too: flushed, checked */
        pb_error_print(stderr, prog, &err);
        status = 1;
    }
    score_report_close(rep);
    tv_close(tv);
    pb_trace_close(trace);
    score_result_close(res);
    return status;
}
