/*
 * compare - paired comparison of two sides' per-seed values (side A the
 * reference, side B the change): per point and metric the mean paired
 * difference B - A with its interval, the sign count over seeds, the
 * tolerance, the smallest detectable change and a verdict
 * (metrics/pstat.h, metrics/pstat_table.h).  The engine of
 * experiments/compare.sh and `make regress` (docs/experiments.md).
 *
 *   compare [options] A.csv B.csv
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_cli.h"
#include "pb_opt.h"
#include "pstat_table.h"

static const char *prog = "compare";

typedef struct compare_params {
    double level, power, tol_sd, tol_min, res_rel;
    int bootstrap, seed, res_exit;
} compare_params;

static const pb_option compare_options[] = {
    {"level", PB_OPT_DOUBLE, offsetof(compare_params, level), "0.95", 0.5, 0.9999,
     "confidence level of the intervals (Student t over the paired seeds)"},
    {"power", PB_OPT_DOUBLE, offsetof(compare_params, power), "0.8", 0.5, 0.9999,
     "probability with which a change of the printed mdc would be detected"},
    {"tol_sd", PB_OPT_DOUBLE, offsetof(compare_params, tol_sd), "0", 0, 1e6,
     "tolerance of a metric in standard deviations of side A over the seeds "
     "(a change smaller than that is not reported as better or worse)"},
    {"tol_min", PB_OPT_DOUBLE, offsetof(compare_params, tol_min), "0", 0, 1e12,
     "smallest tolerance of a metric (absolute)"},
    {"res_rel", PB_OPT_DOUBLE, offsetof(compare_params, res_rel), "0.05", 0, 1e6,
     "tolerance of resource metrics (names ending in _s or _kb: CPU seconds, "
     "peak memory) as a fraction of side A's mean"},
    {"bootstrap", PB_OPT_INT, offsetof(compare_params, bootstrap), "0", 0, 10000000,
     "resamples of a percentile bootstrap interval that replaces the t interval "
     "in the verdict (0 = t interval only)"},
    {"seed", PB_OPT_INT, offsetof(compare_params, seed), "1", 0, 2147483647.0,
     "seed of the bootstrap"},
    {"res_exit", PB_OPT_BOOL, offsetof(compare_params, res_exit), "0", PB_OPT_NORANGE,
     "let the verdicts of resource metrics set the exit status too (off: CPU "
     "time on a shared machine is noisy, and over many points some 95 % "
     "intervals miss by chance; they are still printed)"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

enum { O_SET = 1, O_OUTPUT, O_CSV, O_HTML, O_LABELS, O_TITLE, O_CHANGES, O_QUIET, O_SEED };
static const pb_cli_opt cli_opts[] = {
    {O_SET, 's', "set", "NAME=VALUE", "set a parameter (below; repeatable)"},
    {O_OUTPUT, 'o', "output", "FILE", "the readable table (default stdout)"},
    {O_CSV, 0, "csv", "FILE", "also write the rows as CSV to FILE"},
    {O_HTML, 0, "html", "FILE", "also write an HTML page: the table, each metric's\n"
                                "intervals, and each series' curves of both sides"},
    {O_LABELS, 0, "labels", "A,B", "names of the two sides (default A,B)"},
    {O_TITLE, 0, "title", "TEXT", "title of the HTML page"},
    {O_CHANGES, 0, "changes", NULL, "list in the table only the rows whose verdict is\n"
                                    "not \"no detectable change\""},
    {O_QUIET, 'q', "quiet", NULL, "no summary line on stderr"},
    /* the convention's --seed where a program draws (the bootstrap) */
    {O_SEED, 0, "seed", "N", "the same as --set seed=N (the bootstrap's)"},
    {0, 0, NULL, NULL, NULL}};

static void usage(FILE *fp, const pb_cli *cli)
{
    fprintf(fp,
            "usage: %s [options] A.csv B.csv\n"
            "Compare two sides' per-seed values, paired by seed (the same seed =\n"
            "the same trace): per point and metric the mean of B - A with its\n"
            "interval, the sign count, the tolerance, the smallest detectable\n"
            "change (mdc) and a verdict: BETTER, WORSE, no detectable change,\n"
            "changed within tolerance, undecided (the interval straddles the\n"
            "tolerance, or one seed only; \"WORSE than 0\" when the interval is\n"
            "wholly on the bad side: a detected change whose size the seeds cannot\n"
            "yet place against the tolerance), CHANGED (a metric without\n"
            "direction), MISSING (a value on one side only, or seeds of A that B\n"
            "has no value for; a metric with no\n"
            "value on either side is \"not measured\" and sets no exit status).\n"
            "Input columns: point,metric,seed,value[,better,series,x]; better is\n"
            "higher, lower or none.  Exit status: 0 nothing beyond tolerance,\n"
            "1 a WORSE, undecided-WORSE-than-0 or MISSING row, 3 a BETTER, CHANGED\n"
            "or undecided-BETTER-than-0 row and no worse one (a change to\n"
            "explain), 2 bad usage, 4 unreadable input; resource rows (cpu_s,\n"
            "maxrss_kb: names ending in _s or _kb) count only with -s res_exit=1.\n\n",
            prog);
    pb_cli_help(fp, cli);
    fprintf(fp, "\nParameters (-s NAME=VALUE):\n");
    pb_opt_help(fp, compare_options, "  ");
}

static const char *dir_word(pstat_dir d)
{
    return d == PSTAT_HIGHER ? "higher" : d == PSTAT_LOWER ? "lower" : "none";
}

/* A row with no value on either side (every one empty, nan or -): the
 * metric is not measured there, by either build -- nothing is missing and
 * nothing changed (before: MISSING and exit 1, so a file compared with
 * itself failed whenever it held a metric left unmeasured, as score's
 * tw_accuracy or latency columns often are). */
static int unmeasured(const pstat_row *r)
{
    return r->p.n == 0 && r->na == 0 && r->nb == 0;
}

static const char *verdict_text(const pstat_row *r)
{
    if (unmeasured(r))
        return "not measured on either side";
    if (r->p.n == 0)
        return "MISSING";
    if (r->verdict == PSTAT_UNDECIDED && r->p.n < 2)
        return "undecided (one seed)";
    if (r->verdict == PSTAT_UNDECIDED && pstat_side(&r->p, r->dir) < 0)
        return "undecided, WORSE than 0";
    if (r->verdict == PSTAT_UNDECIDED && pstat_side(&r->p, r->dir) > 0)
        return "undecided, BETTER than 0";
    return pstat_verdict_name(r->verdict);
}

static const char *verdict_word(const pstat_row *r)
{
    if (unmeasured(r))
        return "unmeasured";
    if (r->p.n == 0)
        return "missing";
    if (r->verdict == PSTAT_UNDECIDED && pstat_side(&r->p, r->dir))
        return pstat_side(&r->p, r->dir) < 0 ? "undecided_worse" : "undecided_better";
    return pstat_verdict_word(r->verdict);
}

static void write_table(FILE *fp, const pstat_table *t, int changes, double level)
{
    size_t wp = 5, wm = 6;
    for (size_t i = 0; i < pstat_table_nrows(t); i++) {
        const pstat_row *r = pstat_table_row(t, i);
        if (strlen(r->point) > wp)
            wp = strlen(r->point);
        if (strlen(r->metric) > wm)
            wm = strlen(r->metric);
    }
    fprintf(fp, "%-*s %-*s %3s %10s %10s %10s  %-23s %8s %9s %9s  %s\n", (int)wp, "point",
            (int)wm, "metric", "n", "A", "B", "B-A", "interval", "+/-/=", "tol", "mdc",
            "verdict");
    (void)level;
    const char *last = NULL;
    for (size_t i = 0; i < pstat_table_nrows(t); i++) {
        const pstat_row *r = pstat_table_row(t, i);
        if (changes && ((r->p.n > 0 && r->verdict == PSTAT_SAME && r->na == r->p.n) ||
                        unmeasured(r)))
            continue;
        const char *pt = (last && !strcmp(last, r->point)) ? "" : r->point;
        last = r->point; /* the rows printed: --changes skips some */
        if (r->p.n == 0) {
            fprintf(fp, "%-*s %-*s %3d %10s %10s %10s  %-23s %8s %9s %9s  %s (A %zu, B %zu seeds)\n",
                    (int)wp, pt, (int)wm, r->metric, 0, "-", "-", "-", "-", "-", "-", "-",
                    verdict_text(r), r->na, r->nb);
            continue;
        }
        char iv[64], sg[32];
        double lo = isnan(r->boot_lo) ? r->p.lo : r->boot_lo;
        double hi = isnan(r->boot_hi) ? r->p.hi : r->boot_hi;
        snprintf(iv, sizeof iv, "[%+.4g, %+.4g]", lo, hi);
        snprintf(sg, sizeof sg, "%zu/%zu/%zu", r->p.npos, r->p.nneg, r->p.nzero);
        fprintf(fp, "%-*s %-*s %3zu %10.4g %10.4g %+10.4g  %-23s %8s %9.3g %9.3g  %s",
                (int)wp, pt, (int)wm, r->metric, r->p.n, r->p.mean_a, r->p.mean_b, r->p.mean,
                iv, sg, r->tol, r->p.mdc, verdict_text(r));
        if (r->na > r->p.n)
            fprintf(fp, ", MISSING: B has no value at %zu of A's %zu seeds", r->na - r->p.n,
                    r->na);
        else if (r->nmissing)
            fprintf(fp, " (%zu unpaired)", r->nmissing);
        fputc('\n', fp);
    }
}

static void write_csv(FILE *fp, const pstat_table *t)
{
    fprintf(fp, "point,series,x,metric,better,n,mean_a,mean_b,sd_a,sd_b,diff,sd_diff,lo,hi,"
                "boot_lo,boot_hi,npos,nneg,nzero,tol,mdc,nmissing,verdict\n");
    for (size_t i = 0; i < pstat_table_nrows(t); i++) {
        const pstat_row *r = pstat_table_row(t, i);
        const pstat_paired *p = &r->p;
        fprintf(fp, "%s,%s,", r->point, r->series);
        if (!isnan(r->x))
            fprintf(fp, "%.10g", r->x);
        fprintf(fp, ",%s,%s,%zu,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,"
                    "%zu,%zu,%zu,%.10g,%.10g,%zu,%s\n",
                r->metric, dir_word(r->dir), p->n, p->mean_a, p->mean_b, p->sd_a, p->sd_b,
                p->mean, p->sd, p->lo, p->hi, r->boot_lo, r->boot_hi, p->npos, p->nneg,
                p->nzero, r->tol, p->mdc, r->nmissing, verdict_word(r));
    }
}

/* --- HTML ------------------------------------------------------------- */

static void html_text(FILE *fp, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '&': fputs("&amp;", fp); break;
        case '"': fputs("&quot;", fp); break;
        default: fputc(*s, fp);
        }
    }
}

static const char *verdict_colour(const pstat_row *r)
{
    if (unmeasured(r))
        return "#ffffff";
    if (r->p.n == 0)
        return "#f4a6a6";
    switch (r->verdict) {
    case PSTAT_WORSE: return "#f4a6a6";
    case PSTAT_BETTER: return "#a6e3a6";
    case PSTAT_CHANGED: return "#f6d28b";
    case PSTAT_UNDECIDED: return "#f9f0a0";
    case PSTAT_WITHIN: return "#dde8f6";
    case PSTAT_SAME: return "#ffffff";
    }
    return "#ffffff";
}

/* the interval of one side's mean over its seeds (t interval) */
static void side_interval(const pstat_row *r, int side, double level, double *lo, double *hi)
{
    double m = side ? r->p.mean_b : r->p.mean_a, sd = side ? r->p.sd_b : r->p.sd_a;
    double h = 0;
    if (r->p.n >= 2 && !isnan(r->p.tq))
        h = r->p.tq * sd / sqrt((double)r->p.n);
    (void)level;
    *lo = m - h;
    *hi = m + h;
}

#define SVG_W 640.0
#define SVG_ROW 16.0

/* one metric: every point's interval of B - A, a vertical line at 0 */
static void html_forest(FILE *fp, const pstat_table *t, const char *metric)
{
    double lo = 0, hi = 0;
    size_t n = 0;
    for (size_t i = 0; i < pstat_table_nrows(t); i++) {
        const pstat_row *r = pstat_table_row(t, i);
        if (strcmp(r->metric, metric) || r->p.n == 0)
            continue;
        lo = fmin(lo, r->p.lo);
        hi = fmax(hi, r->p.hi);
        n++;
    }
    if (n == 0)
        return;
    if (hi - lo <= 0) {
        lo -= 1e-3;
        hi += 1e-3;
    }
    double pad = 0.05 * (hi - lo);
    lo -= pad;
    hi += pad;
    double left = 260, w = SVG_W - left - 10, h = SVG_ROW * (double)n + 30;
    fprintf(fp, "<h3>");
    html_text(fp, metric);
    fprintf(fp, ": B - A with its interval, per point</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
                "width=\"%.0f\" height=\"%.0f\" font-size=\"11\" font-family=\"sans-serif\">\n",
            SVG_W, h);
    double x0 = left + w * (0 - lo) / (hi - lo);
    fprintf(fp, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#888\"/>\n", x0, x0,
            h - 20);
    fprintf(fp, "<text x=\"%.1f\" y=\"%.0f\">%.3g</text><text x=\"%.1f\" y=\"%.0f\" "
                "text-anchor=\"end\">%.3g</text>\n",
            left, h - 5, lo, left + w, h - 5, hi);
    size_t k = 0;
    for (size_t i = 0; i < pstat_table_nrows(t); i++) {
        const pstat_row *r = pstat_table_row(t, i);
        if (strcmp(r->metric, metric) || r->p.n == 0)
            continue;
        double y = SVG_ROW * (double)k + 12;
        double xa = left + w * (r->p.lo - lo) / (hi - lo);
        double xb = left + w * (r->p.hi - lo) / (hi - lo);
        double xm = left + w * (r->p.mean - lo) / (hi - lo);
        fprintf(fp, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 4);
        html_text(fp, r->point);
        fprintf(fp, "</text><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"8\" "
                    "fill=\"%s\" stroke=\"#444\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"/>\n",
                xa, y - 4, fmax(xb - xa, 1.0), verdict_colour(r), xm, y);
        k++;
    }
    fprintf(fp, "</svg>\n");
}

/* one series and metric: both sides' means with intervals against x */
static void html_curves(FILE *fp, const pstat_table *t, const char *series, const char *metric,
                        const char *la, const char *lb, double level)
{
    double xl = INFINITY, xh = -INFINITY, yl = INFINITY, yh = -INFINITY;
    size_t n = 0;
    for (size_t i = 0; i < pstat_table_nrows(t); i++) {
        const pstat_row *r = pstat_table_row(t, i);
        if (strcmp(r->series, series) || strcmp(r->metric, metric) || r->p.n == 0 || isnan(r->x))
            continue;
        for (int s = 0; s < 2; s++) {
            double lo, hi;
            side_interval(r, s, level, &lo, &hi);
            yl = fmin(yl, lo);
            yh = fmax(yh, hi);
        }
        xl = fmin(xl, r->x);
        xh = fmax(xh, r->x);
        n++;
    }
    if (n < 2)
        return;
    if (xh - xl <= 0)
        xh = xl + 1;
    if (yh - yl <= 0) {
        yl -= 0.5;
        yh += 0.5;
    }
    double W = 420, H = 220, L = 50, B = 30, T = 10, R = 10;
    fprintf(fp, "<figure style=\"display:inline-block;margin:4px\"><svg xmlns=\"http://www.w3.org/2000/svg\" "
                "width=\"%.0f\" height=\"%.0f\" font-size=\"10\" font-family=\"sans-serif\">\n"
                "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#888\"/>\n"
                "<text x=\"%.0f\" y=\"%.0f\">%.3g</text><text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.3g</text>\n"
                "<text x=\"2\" y=\"%.0f\">%.3g</text><text x=\"2\" y=\"%.0f\">%.3g</text>\n",
            W, H, L, T, W - L - R, H - T - B, L, H - 12, xl, W - R, H - 12, xh, H - B, yl, T + 10,
            yh);
    const char *col[2] = {"#1f5fbf", "#d04a02"};
    for (int s = 0; s < 2; s++) {
        fprintf(fp, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", col[s]);
        /* points in x order (insertion order of the rows is the sweep's) */
        size_t idx[1024], m = 0;
        for (size_t i = 0; i < pstat_table_nrows(t) && m < 1024; i++) {
            const pstat_row *r = pstat_table_row(t, i);
            if (!strcmp(r->series, series) && !strcmp(r->metric, metric) && r->p.n > 0 &&
                !isnan(r->x))
                idx[m++] = i;
        }
        for (size_t a = 1; a < m; a++)
            for (size_t b = a; b > 0 && pstat_table_row(t, idx[b])->x < pstat_table_row(t, idx[b - 1])->x; b--) {
                size_t tmp = idx[b];
                idx[b] = idx[b - 1];
                idx[b - 1] = tmp;
            }
        for (size_t a = 0; a < m; a++) {
            const pstat_row *r = pstat_table_row(t, idx[a]);
            double y = s ? r->p.mean_b : r->p.mean_a;
            fprintf(fp, "%.1f,%.1f ", L + (W - L - R) * (r->x - xl) / (xh - xl),
                    H - B - (H - T - B) * (y - yl) / (yh - yl));
        }
        fprintf(fp, "\"/>\n");
        for (size_t a = 0; a < m; a++) {
            const pstat_row *r = pstat_table_row(t, idx[a]);
            double lo, hi;
            side_interval(r, s, level, &lo, &hi);
            double x = L + (W - L - R) * (r->x - xl) / (xh - xl) + (s ? 2 : -2);
            fprintf(fp, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x, x,
                    H - B - (H - T - B) * (lo - yl) / (yh - yl),
                    H - B - (H - T - B) * (hi - yl) / (yh - yl), col[s]);
        }
    }
    fprintf(fp, "</svg><figcaption>");
    html_text(fp, series);
    fprintf(fp, ": ");
    html_text(fp, metric);
    fprintf(fp, " &mdash; <span style=\"color:%s\">", col[0]);
    html_text(fp, la);
    fprintf(fp, "</span> vs <span style=\"color:%s\">", col[1]);
    html_text(fp, lb);
    fprintf(fp, "</span>, mean and %.0f %% interval over the seeds</figcaption></figure>\n",
            100 * level);
}

static void write_html(FILE *fp, const pstat_table *t, const char *title, const char *la,
                       const char *lb, double level, const char *summary)
{
    fprintf(fp, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
    html_text(fp, title);
    fprintf(fp, "</title>\n<style>body{font-family:sans-serif;margin:1em}"
                "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;"
                "padding:2px 5px;text-align:right}td.l{text-align:left}</style></head><body>\n<h1>");
    html_text(fp, title);
    fprintf(fp, "</h1>\n<p>A = <b>");
    html_text(fp, la);
    fprintf(fp, "</b>, B = <b>");
    html_text(fp, lb);
    fprintf(fp, "</b>.  Per point and metric: the mean of B &minus; A over the paired seeds with "
                "its %.0f %% Student t interval, the sign count (+/&minus;/=), the tolerance, "
                "the smallest change the seeds could detect (mdc) and the verdict "
                "(docs/experiments.md, &ldquo;Comparing two builds&rdquo;).</p>\n<p>",
            100 * level);
    html_text(fp, summary);
    fprintf(fp, "</p>\n");
    /* curves: every (series, metric) with x */
    int any = 0;
    for (size_t i = 0; i < pstat_table_nrows(t); i++) {
        const pstat_row *r = pstat_table_row(t, i);
        if (!*r->series || isnan(r->x))
            continue;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            const pstat_row *q = pstat_table_row(t, j);
            seen = !strcmp(q->series, r->series) && !strcmp(q->metric, r->metric) && !isnan(q->x);
        }
        if (seen)
            continue;
        if (!any)
            fprintf(fp, "<h2>Curves of both sides</h2>\n");
        any = 1;
        html_curves(fp, t, r->series, r->metric, la, lb, level);
    }
    fprintf(fp, "<h2>Intervals of the differences</h2>\n");
    for (size_t i = 0; i < pstat_table_nrows(t); i++) {
        const pstat_row *r = pstat_table_row(t, i);
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(pstat_table_row(t, j)->metric, r->metric);
        if (!seen)
            html_forest(fp, t, r->metric);
    }
    fprintf(fp, "<h2>Table</h2>\n<table><tr><th>point</th><th>metric</th><th>better</th><th>n</th>"
                "<th>A</th><th>B</th><th>B&minus;A</th><th>interval</th><th>+/&minus;/=</th>"
                "<th>tol</th><th>mdc</th><th>verdict</th></tr>\n");
    for (size_t i = 0; i < pstat_table_nrows(t); i++) {
        const pstat_row *r = pstat_table_row(t, i);
        fprintf(fp, "<tr style=\"background:%s\"><td class=\"l\">", verdict_colour(r));
        html_text(fp, r->point);
        fprintf(fp, "</td><td class=\"l\">");
        html_text(fp, r->metric);
        fprintf(fp, "</td><td>%s</td><td>%zu</td>", dir_word(r->dir), r->p.n);
        if (r->p.n == 0)
            fprintf(fp, "<td colspan=\"7\"></td>");
        else
            fprintf(fp, "<td>%.4g</td><td>%.4g</td><td>%+.4g</td><td>[%+.4g, %+.4g]</td>"
                        "<td>%zu/%zu/%zu</td><td>%.3g</td><td>%.3g</td>",
                    r->p.mean_a, r->p.mean_b, r->p.mean, r->p.lo, r->p.hi, r->p.npos, r->p.nneg,
                    r->p.nzero, r->tol, r->p.mdc);
        fprintf(fp, "<td class=\"l\">%s</td></tr>\n", verdict_text(r));
    }
    fprintf(fp, "</table>\n</body></html>\n");
}

#define FAIL(code)       \
    do {                 \
        status = (code); \
        goto done;       \
    } while (0)

int main(int argc, char **argv)
{
    int status = 0;
    compare_params par;
    pb_error err;
    pb_error_clear(&err);
    pb_cli cli = {0};
    pstat_table *t = NULL;
    pb_out *out = NULL, *csv = NULL, *html = NULL;
    const char *out_path = NULL, *csv_path = NULL, *html_path = NULL, *title = NULL;
    const char *la = "A", *lb = "B";
    char *labels = NULL; /* --labels' two names, whole (a 128-byte copy cut
                          * a long one without a word) */
    int changes = 0, quiet = 0;

    if (pb_opt_defaults(compare_options, &par, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    if (pb_cli_init(&cli, prog, cli_opts, argc, argv, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(2);
    }
    int c;
    const char *optarg;
    const pb_option *const tabs[2] = {compare_options, NULL};
    while ((c = pb_cli_next(&cli, &optarg, &err)) != PB_CLI_END) {
        int answered = pb_cli_answer(c, &cli, tabs, usage);
        if (answered)
            FAIL(answered - 1);

        switch (c) {
        case O_SET: if (!pb_cli_set_kv(prog, compare_options, &par, optarg)) FAIL(2); break;
        case O_OUTPUT: out_path = optarg; break;
        case O_CSV: csv_path = optarg; break;
        case O_HTML: html_path = optarg; break;
        case O_TITLE: title = optarg; break;
        case O_CHANGES: changes = 1; break;
        case O_QUIET: quiet = 1; break;
        case O_SEED: if (!pb_cli_set_param(prog, compare_options, &par, "seed", optarg, "--seed")) FAIL(2); break;
        case O_LABELS: {
            const char *comma = strchr(optarg, ',');
            if (!comma || comma == optarg || !comma[1] || strchr(comma + 1, ',')) {
                fprintf(stderr, "%s: --labels %s: expected two names A,B (try --help)\n", prog,
                        optarg);
                FAIL(2);
            }
            free(labels);
            if (!(labels = strdup(optarg))) {
                fprintf(stderr, "%s: out of memory\n", prog);
                FAIL(1);
            }
            labels[comma - optarg] = '\0';
            la = labels;
            lb = labels + (comma - optarg) + 1;
            break;
        }
        default: FAIL(pb_cli_usage_error(prog, &err));
        }
    }
    int optind = pb_cli_optind(&cli);
    if (argc - optind != 2) {
        fprintf(stderr, "%s: expected two files A.csv B.csv, got %d (try --help)\n", prog,
                argc - optind);
        FAIL(2);
    }
    const char *inputs[2] = {argv[optind], argv[optind + 1]};
    if (pb_out_open(&out, out_path, inputs, 2, &err) != PB_OK ||
        (csv_path && pb_out_open(&csv, csv_path, inputs, 2, &err) != PB_OK) ||
        (html_path && pb_out_open(&html, html_path, inputs, 2, &err) != PB_OK)) {
        pb_error_print(stderr, prog, &err);
        FAIL(4);
    }
    if (pstat_table_init(&t) != PB_OK) {
        fprintf(stderr, "%s: out of memory\n", prog);
        FAIL(4);
    }
    for (int s = 0; s < 2; s++)
        if (pstat_table_read(t, s, inputs[s], &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(4);
        }
    pstat_opts o;
    pstat_opts_default(&o);
    o.level = par.level;
    o.power = par.power;
    o.tol_sd = par.tol_sd;
    o.tol_min = par.tol_min;
    o.res_rel = par.res_rel;
    o.boot_reps = par.bootstrap;
    o.boot_seed = (unsigned long)par.seed;
    if (pstat_table_compute(t, &o, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(4);
    }
    size_t cnt[PSTAT_CHANGED + 1] = {0}, missing = 0, nomeas = 0, uworse = 0, ubetter = 0,
           unpaired_rows = 0, n = pstat_table_nrows(t);
    /* what sets the exit status: (resource rows only with res_exit) */
    size_t gate_worse = 0, gate_better = 0;
    for (size_t i = 0; i < n; i++) {
        const pstat_row *r = pstat_table_row(t, i);
        int gate = par.res_exit || !pstat_is_resource(r->metric);
        if (unmeasured(r)) {
            nomeas++;
            continue;
        }
        if (r->p.n == 0) {
            missing++;
            gate_worse += (size_t)gate;
            continue;
        }
        cnt[r->verdict]++;
        /* seeds side A measured and side B did not: the verdict was drawn
         * on the others, so a change that stopped measuring 4 seeds of 5
         * (an empty, nan or - value: a run that failed, a metric its
         * result no longer allows) showed "no detectable change (4
         * unpaired)" with exit 0.  A value of the reference missing on B
         * is MISSING, seed by seed as point by point.  Seeds B has and A
         * has not (a longer run of B) only say "unpaired". */
        if (r->na > r->p.n) {
            unpaired_rows++;
            gate_worse += (size_t)gate;
        }
        int side = pstat_side(&r->p, r->dir);
        if (r->verdict == PSTAT_UNDECIDED && side < 0)
            uworse++;
        if (r->verdict == PSTAT_UNDECIDED && side > 0)
            ubetter++;
        if (gate && (r->verdict == PSTAT_WORSE || (r->verdict == PSTAT_UNDECIDED && side < 0)))
            gate_worse++;
        if (gate && (r->verdict == PSTAT_BETTER || r->verdict == PSTAT_CHANGED ||
                     (r->verdict == PSTAT_UNDECIDED && side > 0)))
            gate_better++;
    }
    char summary[512];
    snprintf(summary, sizeof summary,
             "%s: %zu rows (%s vs %s): %zu worse, %zu better, %zu changed, %zu undecided "
             "(%zu of them worse than 0, %zu better), %zu within tolerance, %zu no "
             "detectable change, %zu missing",
             prog, n, la, lb, cnt[PSTAT_WORSE], cnt[PSTAT_BETTER], cnt[PSTAT_CHANGED],
             cnt[PSTAT_UNDECIDED], uworse, ubetter, cnt[PSTAT_WITHIN], cnt[PSTAT_SAME], missing);
    if (nomeas) /* said only when there are some: the line others grep stays */
        snprintf(summary + strlen(summary), sizeof summary - strlen(summary),
                 ", %zu not measured on either side", nomeas);
    if (unpaired_rows)
        snprintf(summary + strlen(summary), sizeof summary - strlen(summary),
                 ", %zu with seeds MISSING on side B", unpaired_rows);
    write_table(pb_out_fp(out), t, changes, par.level);
    fprintf(pb_out_fp(out), "%s\n", summary);
    if (csv)
        write_csv(pb_out_fp(csv), t);
    if (html)
        write_html(pb_out_fp(html), t, title ? title : "pathbench compare", la, lb, par.level,
                   summary);
    int rc = pb_out_commit(out, &err);
    out = NULL;
    if (rc == PB_OK && csv) {
        rc = pb_out_commit(csv, &err);
        csv = NULL;
    }
    if (rc == PB_OK && html) {
        rc = pb_out_commit(html, &err);
        html = NULL;
    }
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(4);
    }
    if (!quiet && out_path)
        fprintf(stderr, "%s\n", summary);
    if (gate_worse)
        status = 1;
    else if (gate_better)
        status = 3;
done:
    free(labels);
    pb_out_abort(out);
    pb_out_abort(csv);
    pb_out_abort(html);
    pstat_table_close(t);
    pb_cli_free(&cli);
    return status;
}
