#!/bin/sh
# joint_pwin.sh - does the free/held choice made on a window of the trace
# (joint's pair_window) agree with the choice made on the whole trace?
# Runs `infer --algo joint -s pair_window=W -s pair_window_check=1` (both
# searches on the whole trace as well, the result unchanged) on each
# trace given, with its call ids emptied (pair_order=auto runs only
# without them), and tabulates the window's verdict against the whole's.
#
#   sh experiments/joint_pwin.sh [--window "W..."] TRACE...
#
# Columns: trace, window (requests asked), decided (1: the window's choice
# firm, the whole trace would run only that search; 0: fallback, both
# run), reason, requests, window_requests, window_chose, full (the whole
# trace's choice), agree (window_chose = full), window_d and full_d (log-
# likelihood held minus free, nats).  free / held / held_serial (the held
# search without learned parallel calls, parallel_check_bb's early run).
# A decided row that disagrees is what pair_window must never do; the
# summary line counts them.  Environment: PB_BIN (default <repo>/bin).
# Writes CSV to stdout, the summary to stderr.  Deterministic.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
WINDOWS=150
while [ $# -gt 0 ]; do
    case "$1" in
    --window) [ $# -ge 2 ] || { echo "joint_pwin: --window needs a value" >&2; exit 2; }
              WINDOWS=$2; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "joint_pwin: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) break ;;
    esac
    shift
done
[ $# -gt 0 ] || { echo "joint_pwin: no trace given (try --help)" >&2; exit 2; }
[ -x "$PB_BIN/infer" ] || { echo "joint_pwin: $PB_BIN/infer missing (run make)" >&2; exit 1; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
echo "trace,window,decided,reason,requests,window_requests,window_chose,full,agree,window_d,full_d"
for t in "$@"; do
    awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
        !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
        { if (c) $c = ""; print }' "$t" > "$W/bb.csv"
    for win in $WINDOWS; do
        "$PB_BIN/infer" --algo joint --sort -s pair_window="$win" -s pair_window_check=1 \
            -o "$W/r.csv" "$W/bb.csv" 2> "$W/log" ||
            { echo "joint_pwin: $t: infer failed: $(tail -1 "$W/log")" >&2; continue; }
        awk -v t="$t" -v win="$win" '
            function val(k,   i, n, f) { n = split($0, f, " ")
                for (i = 1; i <= n; i++) if (index(f[i], k "=") == 1) return substr(f[i], length(k) + 2)
                return "" }
            /^# pair_order=auto / { lf = val("log_likelihood_free"); lh = val("log_likelihood_held")
                                    fd = (lf != "" && lh != "") ? sprintf("%.3f", lh - lf) : "" }
            /^# pair_window=/ { dec = val("pair_window") == "decided"; rs = val("reason")
                                rq = val("requests"); wr = val("window_requests")
                                wc = val("window_chose"); fu = val("full"); ag = val("agree")
                                wd = val("window_d"); seen = 1 }
            END { if (!seen) { dec = 0; rs = "no_line"; wc = "none"; fu = "none"; ag = "" }
                  printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", t, win, dec, rs, rq, wr, wc, fu, ag, wd, fd }' "$W/r.csv"
    done
done | tee "$W/rows"
awk -F, '{ n++; if ($3 == 1) { d++; if ($9 != 1) bad++ } if ($9 == 1) a++ }
    END { printf "joint_pwin: %d runs, %d decided on the window (%d of them disagree with the whole trace), %d agree in all\n", n, d, bad + 0, a + 0 > "/dev/stderr" }' "$W/rows"
