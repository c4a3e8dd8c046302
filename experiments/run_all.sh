#!/bin/sh
# run_all.sh - regenerate the papers' figures: list every experiment point
# as an independent job, run the jobs not yet done in parallel, then collect
# the points into .dat files, plot them and write the report.
#
#   sh experiments/run_all.sh [options]
#     --quick            smaller traces, fewer points (minutes, not an hour)
#     --tiny             the test suite's subset sizes (seconds per point)
#     -j N, --jobs N     run N jobs at once (default: all cores)
#     --out DIR          output directory (default out/figures)
#     --only LIST        comma-separated figures (default: all), e.g. fig19,fig21;
#                        "real" is experiments/real_traces.sh (the importer's)
#                        "baselines", "window_phases", "query_error" and "realbench" are run after the jobs too
#     --seeds N          seeds per point (default: the mode's)
#     --algos LIST       the algorithms of the sweeps (Figures 17, 19, 20, 21,
#                        Table 1) instead of the papers' (also PB_ALGOS):
#                        items separated by commas, NAME[:SET=VALUE...] or
#                        exec:COMMAND (docs/experiments.md, "Any algorithm")
#     --list-jobs        print the jobs not yet done, one command line each, and stop
#     --list-all-jobs    print every job, done or not, and stop
#     --list-tsv         print the jobs not yet done as POINTFILE<TAB>COMMAND
#                        (POINTFILE relative to the repository when inside it;
#                        for GNU parallel --return), and stop
#     --collect-only     run nothing: collect, plot and report what is done
#     --no-plots, --no-report
#     --list-figures     print the figure names and stop
#
# Environment: PB_BIN (programs, default <repo>/bin).
# Every job is one shell command line run from the repository root; a job
# writes its point file atomically and does nothing if it exists, so the
# driver (or GNU parallel, or a Slurm array) can be interrupted and rerun.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/cost.sh"
cd "$ROOT" || exit 1
: "${PB_BIN:=$ROOT/bin}"
case "$PB_BIN" in /*) ;; *) PB_BIN="$ROOT/$PB_BIN" ;; esac
export PB_BIN

ALL_FIGS="table1 fig17 fig19 fig20 fig21 fig22 fig12_13 conv_mu conv_mail vpath_assumptions isolation"
mode=full out="${PB_OUT:-$ROOT/out/figures}" only="" jobs="" list="" collect_only=0
plots=1 report=1
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) mode=quick ;;
    --tiny) mode=tiny ;;
    --full) mode=full ;;
    -j|--jobs) [ $# -ge 2 ] || { echo "run_all: $1 needs a number" >&2; exit 2; }; jobs=$2; shift ;;
    -j*) jobs=${1#-j} ;;
    --out) [ $# -ge 2 ] || { echo "run_all: --out needs a directory" >&2; exit 2; }; out=$2; shift ;;
    --only) [ $# -ge 2 ] || { echo "run_all: --only needs a list" >&2; exit 2; }; only=$2; shift ;;
    --seeds) [ $# -ge 2 ] || { echo "run_all: --seeds needs a number" >&2; exit 2; }
             case "$2" in ''|*[!0-9]*|0*) echo "run_all: --seeds '$2': expected a whole number of seeds from 1 to 1000" >&2; exit 2 ;; esac
             [ "${#2}" -le 4 ] && [ "$2" -le 1000 ] || { echo "run_all: --seeds '$2': expected a whole number of seeds from 1 to 1000" >&2; exit 2; }
             export PB_SEEDS=$2; shift ;;
    --algos) [ $# -ge 2 ] || { echo "run_all: --algos needs a list" >&2; exit 2; }; export PB_ALGOS=$2; shift ;;
    --algos=*) PB_ALGOS=${1#--algos=}; export PB_ALGOS ;;
    --list-jobs) list=pending ;;
    --list-all-jobs) list=all ;;
    --list-tsv) list=tsv ;;
    --collect-only) collect_only=1 ;;
    --no-plots) plots=0 ;;
    --no-report) report=0 ;;
    --list-figures) echo "$ALL_FIGS real baselines window_phases query_error realbench"; exit 0 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run_all: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$out" in /*) ;; *) out="$ROOT/$out" ;; esac
export PB_OUT="$out" PB_MODE="$mode"
if [ -z "$jobs" ]; then
    jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 2)
fi
case "$jobs" in ''|*[!0-9]*|0) echo "run_all: -j wants a positive number, got '$jobs'" >&2; exit 2 ;; esac

figs=""
if [ -n "$only" ]; then
    for f in $(echo "$only" | tr ',' ' '); do
        [ "$f" = real ] && continue     # experiments/real_traces.sh, run after the jobs
        [ "$f" = baselines ] && continue  # experiments/baselines_sweep.sh, likewise
        [ "$f" = window_phases ] && continue  # experiments/window_phases.sh, likewise
        [ "$f" = query_error ] && continue  # experiments/query_error.sh, likewise
        [ "$f" = realbench ] && continue  # experiments/realbench.sh, likewise
        [ -f "experiments/$f.sh" ] || { echo "run_all: no figure '$f' (experiments/$f.sh); figures: $ALL_FIGS real baselines window_phases" >&2; exit 2; }
        figs="$figs $f"
    done
else
    figs=$ALL_FIGS
fi

mkdir -p "$out/run"
# the job list: "POINTFILE<TAB>COMMAND" per job
: >"$out/run/all.tsv"
for f in $figs; do
    sh "experiments/$f.sh" jobs >>"$out/run/all.tsv" || { echo "run_all: $f: could not list its jobs" >&2; exit 1; }
done
cut -f2- "$out/run/all.tsv" >"$out/jobs.txt"
awk -F'\t' '{ print $1 }' "$out/run/all.tsv" >"$out/run/points.txt"
# pending = point file missing
: >"$out/run/pending.tsv"
while IFS='	' read -r p c; do
    [ -e "$p" ] || printf '%s\t%s\n' "$p" "$c" >>"$out/run/pending.tsv"
done <"$out/run/all.tsv"

case "$list" in
all) cat "$out/jobs.txt"; exit 0 ;;
pending) cut -f2- "$out/run/pending.tsv"; exit 0 ;;
tsv) sed "s|^$ROOT/||" "$out/run/pending.tsv"; exit 0 ;;
esac

# wanted NAME: the script run beside the points (real, baselines,
# window_phases) is wanted: no --only, or --only names it
wanted() { [ -f "experiments/$2.sh" ] && { [ -z "$only" ] || [ "$(echo ",$only," | grep -c ",$1,")" -gt 0 ]; }; }
run_real=0 run_base=0 run_win=0 run_qe=0 run_rb=0
if [ $collect_only -eq 0 ]; then
    wanted real real_traces && run_real=1
    wanted baselines baselines_sweep && run_base=1
    wanted window_phases window_phases && run_win=1
    wanted query_error query_error && run_qe=1
    wanted realbench realbench && run_rb=1
fi
# the commit of the programs, once for every job (experiments/lib.sh)
if [ -z "${PB_COMMIT:-}" ]; then
    PB_COMMIT=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null) || PB_COMMIT=unknown
    if [ "$PB_COMMIT" != unknown ] && [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
        PB_COMMIT="$PB_COMMIT-dirty"
    fi
fi
export PB_COMMIT

total=$(wc -l <"$out/run/all.tsv" | tr -d ' ')
npend=$(wc -l <"$out/run/pending.tsv" | tr -d ' ')
rc=0
fmt_time() { awk -v s="$1" 'BEGIN { s = int(s); if (s >= 3600) printf "%dh%02dm", s / 3600, (s % 3600) / 60; else if (s >= 60) printf "%dm%02ds", s / 60, s % 60; else printf "%ds", s }'; }

ntail=$((run_real + run_base + run_win + run_qe + run_rb))
if [ $collect_only -eq 0 ] && [ $((npend + ntail)) -gt 0 ]; then
    [ "$figs" = " selftest" ] || for b in maketrace infer score; do
        [ -x "$PB_BIN/$b" ] || echo "run_all: warning: $PB_BIN/$b is missing; its points will fail (run make)" >&2
    done
    echo "run_all: $total points in $(echo $figs | wc -w | tr -d ' ') figures (mode $mode), $((total - npend)) already done, running $npend$([ $ntail -gt 0 ] && echo " and $ntail other scripts") on $jobs cores; output in $(echo "$out" | sed "s|^$ROOT/||")" >&2
    # each point's estimated cost (experiments/job_cost.awk), for the
    # progress estimate and the order: the costliest first, so that the
    # pool does not end on one long job while the other cores idle
    awk -F'\t' -f experiments/job_cost.awk "$out/run/pending.tsv" | sort -t '	' -k1,1gr -k2,2n |
        cut -f3- >"$out/run/pending.sorted"
    cut -f2- "$out/run/pending.sorted" >"$out/run/pending.txt"
    cut -f1 "$out/run/pending.sorted" >"$out/run/pending.points"
    awk -F'\t' -f experiments/job_cost.awk "$out/run/pending.tsv" | awk -F'\t' '{ printf "%s\t%d\n", $3, $1 * 1000 }' >"$out/run/pending.cost"
    tcost=$(awk -F'\t' '{ s += $2 } END { printf "%d", s }' "$out/run/pending.cost")
    # the scripts run beside the points (not points: always rerun) go into
    # the same pool, first: the longest jobs (baselines about 25 CPU s)
    : >"$out/run/tail.txt"
    q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
    bq=""; [ "$mode" = full ] || bq=--quick
    [ $run_base -eq 1 ] && echo "PB_OUT=$(q "$out") sh experiments/baselines_sweep.sh $bq >$(q "$out/run/baselines.log") 2>&1; echo \$? >$(q "$out/run/baselines.rc")" >>"$out/run/tail.txt"
    [ $run_real -eq 1 ] && echo "PB_OUT=$(q "$out") PB_MODE=$mode sh experiments/real_traces.sh >$(q "$out/run/real_traces.log") 2>&1; echo \$? >$(q "$out/run/real_traces.rc")" >>"$out/run/tail.txt"
    [ $run_win -eq 1 ] && echo "PB_OUT=$(q "$out") sh experiments/window_phases.sh >$(q "$out/run/window_phases.log") 2>&1; echo \$? >$(q "$out/run/window_phases.rc")" >>"$out/run/tail.txt"
    [ $run_qe -eq 1 ] && echo "PB_OUT=$(q "$out") sh experiments/query_error.sh $bq >$(q "$out/run/query_error.log") 2>&1; echo \$? >$(q "$out/run/query_error.rc")" >>"$out/run/tail.txt"
    rbq=""; [ "$mode" = tiny ] && rbq="--sets trainticket/construct"
    [ $run_rb -eq 1 ] && echo "PB_OUT=$(q "$out") sh experiments/realbench.sh $rbq >$(q "$out/run/realbench.log") 2>&1; echo \$? >$(q "$out/run/realbench.rc")" >>"$out/run/tail.txt"
    rm -f "$out/run/baselines.rc" "$out/run/real_traces.rc" "$out/run/window_phases.rc" "$out/run/query_error.rc" "$out/run/realbench.rc"
    cat "$out/run/tail.txt" "$out/run/pending.txt" >"$out/run/pool.txt"
    while read -r p; do rm -f "$p.fail"; done <"$out/run/pending.points"
    start=$(date +%s)
    # progress monitor (background); the jobs run in the foreground so that
    # an interrupt reaches them
    # (one find and one awk a round: a shell loop over the points costs
    # more than a CPU second a minute on a large sweep)
    (
        last=""; lastt=0
        while :; do
            sleep 2
            set -- $(find "$out/points" -name '*.row' -o -name '*.row.fail' 2>/dev/null |
                awk -F"\t" -v cf="$out/run/pending.cost" 'FILENAME == cf { c[$1] = $2; next }
                    { f = $0; fail = sub(/\.fail$/, "", f); if (f in c) { if (fail) fails[f] = 1; else ok[f] = 1 } }
                    END { for (f in ok) { d++; s += c[f] } for (f in fails) if (!(f in ok)) { fl++; s += c[f] }
                          printf "%d %d %d\n", d, fl, s }' "$out/run/pending.cost" -)
            d=${1:-0} fl=${2:-0} dcost=${3:-0}
            now=$(date +%s); el=$((now - start)); fin=$((d + fl)); left=$((npend - fin))
            msg="run_all: $((total - npend + d))/$total points done"
            [ $fl -gt 0 ] && msg="$msg, $fl failed"
            msg="$msg, $left left, $(fmt_time $el) elapsed"
            # time left from the work done, weighed by point cost (messages),
            # once 2 % of it is done: a few cheap points first do not make
            # the estimate swing
            if [ $left -gt 0 ] && [ $dcost -gt 0 ] && [ $((dcost * 50)) -ge "$tcost" ]; then
                msg="$msg, $((dcost * 100 / tcost)) % of the work, ~$(fmt_time $(awk -v e="$el" -v d="$dcost" -v t="$tcost" 'BEGIN { printf "%d", e * (t - d) / d }')) to go"
            fi
            if [ "$fin" != "$last" ] || [ $((now - lastt)) -ge 60 ]; then
                echo "$msg" >&2; last=$fin; lastt=$now
            fi
        done
    ) &
    mon=$!
    trap 'kill $mon 2>/dev/null; echo "run_all: interrupted; rerun to resume" >&2; exit 130' INT TERM
    npool=$(wc -l <"$out/run/pool.txt" | tr -d ' ')
    awk -v n="$npool" 'BEGIN { for (i = 1; i <= n; i++) print i }' |
        xargs -P "$jobs" -n 1 sh experiments/runjob.sh "$out/run/pool.txt" || rc=1
    kill $mon 2>/dev/null
    wait $mon 2>/dev/null
    trap - INT TERM
    el=$(( $(date +%s) - start ))
    nf=0
    while read -r p; do [ -e "$p.fail" ] && nf=$((nf + 1)); done <"$out/run/pending.points"
    echo "run_all: ran $npend points in $(fmt_time $el); $nf failed" >&2
fi

# collect, plot, report
for f in $figs; do
    sh "experiments/$f.sh" collect || { echo "run_all: $f: collect failed" >&2; rc=1; }
done
# the scripts run in the pool: their messages and exit statuses
if [ $run_real -eq 1 ]; then
    # the real traces are data outside the repository: a missing data
    # set is a warning (the report says the section was not made)
    cat "$out/run/real_traces.log" >&2 2>/dev/null
    [ "$(cat "$out/run/real_traces.rc" 2>/dev/null)" = 0 ] ||
        echo "run_all: warning: experiments/real_traces.sh failed; no real-trace tables" >&2
fi
# the field's baselines against load, parallelism, skew and loss (issue 14)
if [ $run_base -eq 1 ] && [ "$(cat "$out/run/baselines.rc" 2>/dev/null)" != 0 ]; then
    echo "run_all: warning: experiments/baselines_sweep.sh failed (see $out/run/baselines.log)" >&2
fi
# sliding-window nesting on a trace with a one-minute phase (seed 000, 8); a few seconds
if [ $run_qe -eq 1 ] && [ "$(cat "$out/run/query_error.rc" 2>/dev/null)" != 0 ]; then
    echo "run_all: warning: experiments/query_error.sh failed (see $out/run/query_error.log)" >&2; rc=1
fi
if [ $run_win -eq 1 ] && [ "$(cat "$out/run/window_phases.rc" 2>/dev/null)" != 0 ]; then
    echo "run_all: warning: experiments/window_phases.sh failed (see $out/run/window_phases.log)" >&2; rc=1
fi
# the cross-system benchmark on data/ (docs/realbench.md); about 25 CPU s
if [ $run_rb -eq 1 ] && [ "$(cat "$out/run/realbench.rc" 2>/dev/null)" != 0 ]; then
    echo "run_all: warning: experiments/realbench.sh failed (see $out/run/realbench.log)" >&2; rc=1
fi
# the trace cache (experiments/lib.sh cache_file) once no point is left
# to run: kept while some are pending or failed, so that a rerun (or the
# rest of a GNU parallel or Slurm sweep) still finds its traces
left=0
while read -r p; do [ -e "$p" ] || left=$((left + 1)); done <"$out/run/points.txt"
[ $left -eq 0 ] && rm -rf "${PB_CACHE:-$out/cache}/traces"
plotfail=""
# the algorithm list's labels (PB_ALGOS, --algos): the panels of Figures
# 19-21 (plots/panels.gp) are drawn for them instead of the papers' three
palgos=
if [ -n "${PB_ALGOS:-}" ]; then
    palgos=$(FIG=run_all sh -c '. experiments/lib.sh; algo_list ""' 2>/dev/null | tr -d "'")
fi
if [ $plots -eq 1 ]; then
    if command -v gnuplot >/dev/null 2>&1; then
        for f in $figs real; do
            [ -f "plots/$f.gp" ] || continue
            [ -f "$out/$f.dat" ] || continue
            # one figure's plot failing never stops the others: it is
            # reported here and once more at the end, and the exit is 1
            gnuplot -e "datadir='$out'; outdir='$out'; palgos='$palgos'" "plots/$f.gp" 2>"$out/run/gnuplot-$f.log" ||
                { echo "run_all: plots/$f.gp failed:" >&2; tail -n 5 "$out/run/gnuplot-$f.log" >&2; rc=1; plotfail="$plotfail $f"; }
        done
    else
        echo "run_all: gnuplot not found; no plots (apt-get install gnuplot-nox)" >&2
    fi
fi
if [ $report -eq 1 ]; then
    PB_OUT="$out" sh experiments/report.sh || rc=1
fi
[ -n "$plotfail" ] && echo "run_all: these plots failed (logs in $(echo "$out" | sed "s|^$ROOT/||")/run/gnuplot-FIG.log):$plotfail" >&2
fails=0
while read -r p; do [ -e "$p.fail" ] && fails=$((fails + 1)); done <"$out/run/points.txt"
[ "$fails" -gt 0 ] && { echo "run_all: $fails failed points (*.fail under $out/points); rerun to retry them" >&2; rc=1; }
pb_cost_report run_all.sh
exit $rc
