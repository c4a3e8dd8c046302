/*
 * sniffer - lossy capture of a trace (seed 000 sections 6.2.1, 7.5.5): a
 * capture box with a peak rate and a finite queue, random and bursty loss,
 * several boxes each covering some nodes.  Kept rows pass unchanged.
 *
 *   sniffer -s rate=500 [-s queue=64] [TRACE] > lossy.csv
 *   sniffer --target-drop 0.01 TRACE > lossy.csv
 *   sniffer --sniffer 'WS1,WS2' --sniffer 'DB;rate=300;queue=16' TRACE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_cli.h"
#include "pb_opt.h"
#include "pb_strbuf.h"
#include "pb_trace.h"
#include "sniff.h"

static const char *prog = "sniffer";

enum {
    O_RATE = 1, O_QUEUE, O_LOSS, O_GEP, O_GER, O_GEB, O_GEG, O_SET, O_SEED,
    O_SNIFFER, O_TARGET, O_IGNORE, O_OUTPUT, O_QUIET
};
static const pb_cli_opt cli_opts[] = {
    {O_SET, 's', "set", "NAME=VALUE", "set a parameter (below; repeatable)"},
    {O_RATE, 'r', "rate", "R", "the same as --set rate=R: peak capture rate,\n"
                              "messages/s (0 = unbounded)"},
    {O_QUEUE, 0, "queue", "K", "the same as --set queue=K: capture queue, messages"},
    {O_LOSS, 'p', "loss", "P", "the same as --set loss=P: independent loss probability"},
    {O_GEP, 0, "ge-p", "P", NULL},
    {O_GER, 0, "ge-r", "R", NULL},
    {O_GEB, 0, "ge-loss-bad", "B", NULL},
    {O_GEG, 0, "ge-loss-good", "G", NULL},
    {O_SEED, 0, "seed", "N", "the same as --set seed=N"},
    {O_SNIFFER, 0, "sniffer", "'NODES[;NAME=VALUE...]'",
     "a capture box seeing every message sent or\n"
     "received by one of NODES (comma-separated);\n"
     "NAME=VALUE override the parameters for it.\n"
     "Repeatable; a message is kept if any box that\n"
     "sees it keeps it; none given = one box, all nodes"},
    {O_TARGET, 0, "target-drop", "R", "search the capture rate (all boxes) giving drop\n"
                                      "rate R (the smallest rate with drop rate <= R)"},
    {O_IGNORE, 0, "ignore-unknown-columns", NULL, "skip columns pathbench does not know"},
    {O_OUTPUT, 'o', "output", "FILE", "output file (default stdout)"},
    {O_QUIET, 'q', "quiet", NULL, "no summary on stderr"},
    {0, 0, NULL, NULL, NULL}};

static void usage(FILE *fp, const pb_cli *cli)
{
    fprintf(fp,
            "usage: %s [options] [TRACE]\n"
            "Drop messages as a lossy packet capture would.  Reads TRACE or stdin,\n"
            "writes the kept rows unchanged (and in order) to stdout; prints the\n"
            "drop count and rate on stderr and in a metadata line.\n\n",
            prog);
    pb_cli_help(fp, cli);
    fprintf(fp, "\nParameters (-s NAME=VALUE; Gilbert-Elliott bursty loss is off while\n"
                "ge_p is 0; --ge-p and the like are old spellings of -s ge_p=...):\n");
    pb_opt_help(fp, sniff_options, "  ");
}

/* "NODES[;NAME=VALUE...]" on top of the global parameters. */
static int parse_sniffer(char *text, const sniff_params *global, sniff_params *p,
                         char **nodes)
{
    *p = *global;
    char *semi = strchr(text, ';');
    if (semi)
        *semi = '\0';
    *nodes = text;
    const char *seen[64]; /* the NAME=VALUE pairs read so far */
    size_t nseen = 0;
    while (semi) {
        char *kv = semi + 1;
        semi = strchr(kv, ';');
        if (semi)
            *semi = '\0';
        if (!*kv)
            continue;
        /* a box says each parameter once, as a config file does (maketrace,
         * skewer --spec): a second NAME is an error naming both, not the
         * last one silently */
        size_t nl = strcspn(kv, "=");
        for (size_t i = 0; i < nseen; i++) {
            size_t ol = strcspn(seen[i], "=");
            int same = ol == nl;
            for (size_t c = 0; same && c < nl; c++)
                same = (seen[i][c] == '-' ? '_' : seen[i][c]) == (kv[c] == '-' ? '_' : kv[c]);
            if (same) {
                fprintf(stderr, "%s: --sniffer %s: %.*s given twice (%s, then %s); "
                                "expected each parameter once in a box\n",
                        prog, *nodes, (int)nl, kv, seen[i], kv);
                return 0;
            }
        }
        if (nseen < sizeof seen / sizeof *seen)
            seen[nseen++] = kv;
        pb_error err;
        if (pb_opt_set_kv(sniff_options, p, kv, &err) != PB_OK) {
            fprintf(stderr, "%s: --sniffer %s: %s\n", prog, *nodes, err.msg);
            return 0;
        }
    }
    return 1;
}

#define FAIL(code)          \
    do {                    \
        status = (code);    \
        goto done;          \
    } while (0)

int main(int argc, char **argv)
{
    int status = 0;
    sniff_params global;
    pb_error err;
    pb_error_clear(&err);
    /* everything freed at done:, so every exit path is leak-free */
    char **sniffer_args = NULL, **node_lists = NULL;
    sniff_params *params = NULL;
    pb_names *names = NULL;
    sniff_model *model = NULL;
    pb_reader *r = NULL;
    sniff_spool *spool = NULL;
    pb_writer *w = NULL;
    FILE *out = stdout;
    pb_out *outf = NULL;
    pb_cli cli = {0};
    pb_strbuf line = {0};
    size_t nsniff = 0, nbox;
    const char *out_path = NULL, *target_text = NULL;
    int quiet = 0, rc;
    double target = -1, found = 0;
    sniff_stats st;
    pb_msg m;
    pb_obs ob;
    pb_truth t;
    const char *name;

    if (pb_opt_defaults(sniff_options, &global, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    sniffer_args = calloc((size_t)argc + 1, sizeof *sniffer_args);
    if (!sniffer_args) {
        fprintf(stderr, "%s: out of memory\n", prog);
        FAIL(1);
    }
    pb_reader_opts ropts;
    pb_reader_opts_default(&ropts);
    /* duplicate ids are an error here too (8 bytes a message while ids
     * increase); causes may dangle: the input may be sniffed already */
    ropts.allow_dangling_causes = 1;
    ropts.allow_negative_ts = 1; /* a skewed trace may carry them */
    if (pb_cli_init(&cli, prog, cli_opts, argc, argv, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(2);
    }
    int c, ok = 1;
    const char *optarg;
    const pb_option *const tabs[2] = {sniff_options, NULL};
    while ((c = pb_cli_next(&cli, &optarg, &err)) != PB_CLI_END) {
        int answered = pb_cli_answer(c, &cli, tabs, usage);
        if (answered)
            FAIL(answered - 1);

        switch (c) {
        case O_SET: ok = pb_cli_set_kv(prog, sniff_options, &global, optarg); break;
        case O_RATE: ok = pb_cli_set_param(prog, sniff_options, &global, "rate", optarg, "--rate"); break;
        case O_QUEUE: ok = pb_cli_set_param(prog, sniff_options, &global, "queue", optarg, "--queue"); break;
        case O_LOSS: ok = pb_cli_set_param(prog, sniff_options, &global, "loss", optarg, "--loss"); break;
        case O_GEP: ok = pb_cli_set_param(prog, sniff_options, &global, "ge_p", optarg, "--ge-p"); break;
        case O_GER: ok = pb_cli_set_param(prog, sniff_options, &global, "ge_r", optarg, "--ge-r"); break;
        case O_GEB: ok = pb_cli_set_param(prog, sniff_options, &global, "ge_loss_bad", optarg, "--ge-loss-bad"); break;
        case O_GEG: ok = pb_cli_set_param(prog, sniff_options, &global, "ge_loss_good", optarg, "--ge-loss-good"); break;
        case O_SEED: ok = pb_cli_set_param(prog, sniff_options, &global, "seed", optarg, "--seed"); break;
        case O_SNIFFER: sniffer_args[nsniff++] = (char *)optarg; break;
        case O_TARGET: target_text = optarg; break;
        case O_IGNORE: ropts.ignore_unknown_columns = 1; break;
        case O_OUTPUT: out_path = optarg; break;
        case O_QUIET: quiet = 1; break;
        default: FAIL(pb_cli_usage_error(prog, &err));
        }
        if (!ok)
            FAIL(2);
    }
    int optind = pb_cli_optind(&cli);
    if (optind + 1 < argc) {
        fprintf(stderr, "%s: expected at most one trace file, got %d\n", prog,
                argc - optind);
        FAIL(2);
    }
    if (target_text) {
        /* decimal only, as every number (pb_number_parse): strtod
         * alone took "0x0.8" as 0.5 and " 0.5" */
        if (pb_number_parse(target_text, strlen(target_text), &target) != PB_OK ||
            !(target >= 0 && target <= 1)) {
            fprintf(stderr, "%s: --target-drop %s: expected a drop rate in "
                            "[0, 1] (0.01 = 1%%)\n", prog, target_text);
            FAIL(2);
        }
    }
    const char *in_path = optind < argc ? argv[optind] : "-";

    nbox = nsniff ? nsniff : 1;
    params = calloc(nbox, sizeof *params);
    node_lists = calloc(nbox, sizeof *node_lists);
    if (!params || !node_lists || pb_names_init(&names) != PB_OK ||
        sniff_init(&model, names) != PB_OK) {
        fprintf(stderr, "%s: out of memory\n", prog);
        FAIL(1);
    }
    if (nsniff == 0) {
        params[0] = global;
        if (sniff_add(model, NULL, &params[0], "sniffer", &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(2);
        }
    }
    for (size_t i = 0; i < nsniff; i++) {
        if (!parse_sniffer(sniffer_args[i], &global, &params[i], &node_lists[i]))
            FAIL(2);
        if (sniff_add(model, node_lists[i], &params[i], "--sniffer", &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(2);
        }
    }

    /* the output opened before the work; it may not be the input */
    if (pb_out_open(&outf, out_path, &in_path, 1, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    out = pb_out_fp(outf);
    if (pb_reader_open(&r, in_path, names, &ropts, &err) != PB_OK) {
        r = NULL;
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    /* Pass 1: keep the trace on disk, so the drop count can go into the
     * metadata, which precedes the rows. */
    if (sniff_spool_open(&spool, &err) != PB_OK) {
        spool = NULL;
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    /* the observed columns (thread, conn ...) spooled only when the file
     * has them */
    int has_obs = (pb_reader_columns(r) & PB_COL_OBSERVED) != 0;
    while ((rc = pb_reader_next_obs(r, &m, &ob, &t, &err)) == 1)
        if (sniff_spool_add(spool, &m, has_obs ? &ob : NULL, &t) != PB_OK) {
            fprintf(stderr, "%s: cannot write the temporary copy of the trace "
                            "(disk full? set TMPDIR)\n", prog);
            FAIL(1);
        }
    if (rc < 0) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    if (target >= 0) {
        if (sniff_target_rate(model, spool, target, &found, &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(1);
        }
        for (size_t i = 0; i < nbox; i++)
            params[i].rate = found;
    }
    if ((rc = sniff_replay(model, spool, &st)) != PB_OK) {
        fprintf(stderr, "%s: %s\n", prog, rc == PB_ENOMEM ? "out of memory"
                                         : "cannot read the temporary copy of the trace");
        FAIL(1);
    }

    if (pb_writer_open(&w, out, pb_out_name(outf),
                       pb_reader_columns(r), names, &err) != PB_OK) {
        w = NULL;
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    for (size_t i = 0; i < pb_reader_meta_count(r); i++)
        pb_writer_meta(w, pb_reader_meta(r, i));
    for (size_t i = 0; i < nbox; i++) {
        pb_strbuf_reset(&line);
        pb_strbuf_printf(&line, "sniffer: box=%zu nodes=%s ", i + 1,
                         node_lists[i] ? node_lists[i] : "*");
        pb_opt_describe(sniff_options, &params[i], &line);
        pb_writer_meta(w, pb_strbuf_str(&line));
    }
    if (target >= 0) {
        pb_strbuf_reset(&line);
        char tb[PB_NUM_BUF], fb[PB_NUM_BUF];
        pb_strbuf_printf(&line, "sniffer: target_drop=%s found rate=%s",
                         pb_num_format(target, tb), pb_num_format(found, fb));
        pb_writer_meta(w, pb_strbuf_str(&line));
    }
    pb_strbuf_reset(&line);
    char drb[PB_NUM_BUF];
    pb_strbuf_printf(&line,
                     "sniffer: messages=%llu kept=%llu dropped=%llu "
                     "drop_rate=%s queue_drops=%llu random_drops=%llu "
                     "burst_drops=%llu uncovered=%llu",
                     (unsigned long long)st.messages, (unsigned long long)st.kept,
                     (unsigned long long)st.dropped,
                     pb_num_format(sniff_drop_rate(&st), drb),
                     (unsigned long long)st.queue, (unsigned long long)st.random,
                     (unsigned long long)st.burst, (unsigned long long)st.uncovered);
    pb_writer_meta(w, pb_strbuf_str(&line));

    /* Pass 2: the same decisions again (same seed, same order), writing. */
    sniff_reset(model);
    if (sniff_spool_rewind(spool) != PB_OK) {
        fprintf(stderr, "%s: cannot read the temporary copy of the trace\n", prog);
        FAIL(1);
    }
    while ((rc = sniff_spool_next(spool, &m, &ob, &t)) == 1) {
        int keep = sniff_decide(model, &m);
        if (keep < 0) {
            fprintf(stderr, "%s: out of memory\n", prog);
            FAIL(1);
        }
        if (keep && pb_writer_write_obs(w, &m, &ob, &t) != PB_OK)
            break;
    }
    if (rc < 0) {
        fprintf(stderr, "%s: cannot read the temporary copy of the trace\n", prog);
        FAIL(1);
    }
    rc = pb_writer_close(w, &err);
    w = NULL;
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    {
        pb_out *o = outf;
        outf = NULL;
        if (pb_out_commit(o, &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(1);
        }
    }
    {
        /* one walk (linear); the first 10 by name, the rest counted */
        size_t ub = 0, uj = 0, nu = 0;
        while ((name = sniff_unseen_next(model, &ub, &uj)) != NULL)
            if (nu++ < 10)
                fprintf(stderr, "%s: warning: node \"%s\" of --sniffer does not appear "
                                "in the trace\n", prog, name);
        if (nu > 10)
            fprintf(stderr, "%s: warning: %zu more nodes of --sniffer do not appear in the "
                            "trace (%zu in all; the first 10 named above)\n", prog, nu - 10, nu);
    }
    if (!quiet) {
        if (target >= 0)
            fprintf(stderr, "%s: capture rate %.6g messages/s gives drop rate "
                            "<= %g\n", prog, found, target);
        fprintf(stderr, "%s: dropped %llu of %llu messages (drop rate %.6f): "
                        "queue %llu, random %llu, burst %llu, uncovered %llu\n",
                prog, (unsigned long long)st.dropped,
                (unsigned long long)st.messages, sniff_drop_rate(&st),
                (unsigned long long)st.queue, (unsigned long long)st.random,
                (unsigned long long)st.burst, (unsigned long long)st.uncovered);
    }
done:
    if (w)
        pb_writer_close(w, NULL);
    pb_out_abort(outf);
    pb_cli_free(&cli);
    pb_strbuf_free(&line);
    sniff_spool_close(spool);
    if (r) {
        long rl, rc0;
        size_t nr = pb_reader_rounded(r, &rl, &rc0);
        pb_rounded_print(stderr, prog, pb_reader_name(r), nr, rl, rc0);
    }
    pb_reader_close(r);
    sniff_close(model);
    pb_names_close(names);
    free(params);
    free(node_lists);
    free(sniffer_args);
    return status;
}
