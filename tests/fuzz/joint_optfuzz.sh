#!/bin/sh
# joint_optfuzz.sh - a seeded fuzzer of `infer --algo joint`'s options.
#
#   sh tests/fuzz/joint_optfuzz.sh [--seed N] [--runs N] [--real DIR]
#       [--requests K] [--messages M] [--configs "C..."] [--timeout S]
#       [--slow X] [--check-every K] [--out DIR] [--plan FILE] [--only KIND]
#
# Reads joint's option table from `infer --help` (name, type, default,
# range) and runs joint on small traces with option sets drawn from it by
# an awk generator seeded with --seed (default: the clock; printed first,
# so a run is repeated with the same --seed and the same awk: the plan,
# every run's trace and options, is a pure function of the seed, the table
# and the trace list).  Kinds of run (--only KIND keeps one):
#   bound     1-3 keys, each at its range's minimum or maximum (booleans
#             flipped, strings at each allowed value)
#   random    2-8 keys at random valid values (near the default, anywhere
#             in the range, or at a bound)
#   many      21-60 keys at random valid values at once
#   interact  one key from each group that interacts: loss (unpaired,
#             unp_*, align*, halves, repair, loss_*), threads (thread_*,
#             busy_*), ticks (tick*, subtick*, tie_*), order
#             (service_order, pair_order, fifo, order_*), confidence
#             (conf_*, min_confidence), each at a valid value
#   invalid   one key at a bad value (past its range, a fraction for an
#             integer, a word for a number, no unit for a duration, an
#             unknown word for a string, empty) among valid ones: infer
#             must refuse it, name the key and say what it expected, and
#             so must infer --parse-only
#   callgraph a call-graph file: the truth's, a part of it, names that are
#             no node, one name a line, empty, missing, stdin (empty)
# Traces: maketrace on every config given (default: every thread model
# and application shape of experiments/, joint_models_*.conf and
# joint_apps_*.conf, and maketrace's hotel-like and multitier), cut to
# --messages (default 600), and with --real DIR the first --requests
# (default 200) requests of DIR/NAME.ids.csv and NAME.bb.csv (rows of the
# first K distinct paths); each run takes one in a mode (call ids or a
# black box), with or without loss (sniffer -p 0.05), with or without a
# clock skew (skewer --random-offset normal:200us) or whole-ms stamps
# (skewer --round 1ms), and one in ten cut to its first 2-9 rows (a stub:
# calls without returns, a link of one pair).
# Each run must end with a result that score reads (exit 0), or an error
# that names an option it was given (for a valid set: a refusal, listed);
# a crash, a sanitizer report (build with `make asan`'s flags and pass
# PB_BIN=build/asan/bin), a timeout (--timeout, default 120 s wall), a
# run --slow (default 50) times the defaults' CPU on its trace (and 2 s
# more), an error naming no option, a bad value accepted, or output score
# cannot read is a FINDING.  Every --check-every'th (default 3) run that
# succeeded is run again (byte-identical output but the cpu_ line) and on
# the trace's rows shuffled (read with --sort: the same paths, line for
# line, and the same metadata lines but the trace name, params, program
# and cpu ones, in any order: lines per node follow the order in which
# the nodes first appear in the file).
# Prints one line per run and a summary; exits 1 when any FINDING.  --out
# DIR keeps each finding's trace, options and stderr; --plan FILE replays
# a plan (lines "N<TAB>KIND<TAB>TRACE<TAB>OPTIONS", as printed with
# --out DIR in DIR/plan) instead of drawing one.
# Environment: PB_BIN (programs; default <repo>/bin).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${PB_BIN:-$ROOT/bin}
seed=""; runs=100; real=""; requests=200; messages=600; configs=""
tmo=120; slow=50; every=3; out=""; plan=""; only=""
while [ $# -gt 0 ]; do
    case "$1" in
    --seed) seed=$2; shift ;;
    --runs) runs=$2; shift ;;
    --real) real=$2; shift ;;
    --requests) requests=$2; shift ;;
    --messages) messages=$2; shift ;;
    --configs) configs=$2; shift ;;
    --timeout) tmo=$2; shift ;;
    --slow) slow=$2; shift ;;
    --check-every) every=$2; shift ;;
    --out) out=$2; shift ;;
    --plan) plan=$2; shift ;;
    --only) only=$2; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_optfuzz: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
for p in maketrace sniffer skewer infer score; do
    [ -x "$B/$p" ] || { echo "joint_optfuzz: $B/$p missing" >&2; exit 2; }
done
[ -n "$seed" ] || seed=$(( $(date +%s) % 1000000 ))
awkv=$(awk -W version 2>/dev/null | sed 1q)
[ -n "$awkv" ] || awkv=$(awk --version 2>/dev/null | sed 1q)
echo "joint_optfuzz: seed $seed (awk: ${awkv:-unknown}), runs $runs, programs $B"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM
[ -n "$out" ] && mkdir -p "$out"
. "$ROOT/experiments/trace_cols.sh"

# joint's table: NAME TYPE DEFAULT MIN MAX (ranges as infer prints them;
# "-" for none, "~" for an empty default)
"$B/infer" --help 2>/dev/null | awk '/^[^ ]/ { on = /^joint / } on && /^    /' |
awk '$2 == "old" { next }
    { name = $1; type = $2; rest = $0
      i = index(rest, " default "); d = substr(rest, i + 9)
      def = (substr(d, 1, 9) ~ /^ +$/) ? "~" : d; sub(/ .*/, "", def)
      lo = "-"; hi = "-"
      if ($NF ~ /^\[.*\.\..*\]$/) { r = substr($NF, 2, length($NF) - 2); k = index(r, "..")
          lo = substr(r, 1, k - 1); hi = substr(r, k + 2) }
      vals = "-"
      if (type == "string") {
          if (d ~ /auto, on or off/) vals = "auto,on,off"
          if (name == "matching") vals = "greedy,flow"
          if (name == "start") vals = "rank,local,earliest"
          if (name == "service_order") vals = "auto,on,off,0,1"
          if (name == "pair_order") vals = "auto,on,off"
          if (name == "callers") vals = "auto,keyed,pooled"
          if (name == "callgraph") vals = "~"
      }
      print name, type, def, lo, hi, vals }' > "$W/table"
nopt=$(wc -l < "$W/table")
[ "$nopt" -gt 50 ] || { echo "joint_optfuzz: read only $nopt options from infer --help" >&2; exit 2; }

# the traces: one name a line, GEN:CONFIG or REAL:NAME
if [ -z "$configs" ]; then
    configs=$(cd "$ROOT" && ls experiments/joint_models_*.conf experiments/joint_apps_*.conf \
              maketrace/configs/hotel-like.conf maketrace/configs/multitier.conf)
fi
: > "$W/traces"
for c in $configs; do echo "gen:$c" >> "$W/traces"; done
if [ -n "$real" ]; then
    for f in "$real"/*.ids.csv; do
        [ -f "$f" ] || continue
        n=$(basename "$f" .ids.csv)
        [ -f "$real/$n.bb.csv" ] && echo "real:$n" >> "$W/traces"
    done
fi

# the plan: N KIND TRACE OPTIONS (TRACE = base:variant, variant letters:
# i call ids / b black box, l loss, s skew, r 1 ms stamps, 0 none)
if [ -n "$plan" ]; then
    cp "$plan" "$W/plan"
else
    awk -v seed="$seed" -v runs="$runs" -v only="$only" -v mseed=1 '
    function pick(n) { return 1 + int(rand() * n) }
    function num(x) { return (x ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) }
    function secs(t,   v) {   # "1000000s", "10ms", "0s" -> seconds
        v = t; if (v ~ /ns$/) { sub(/ns$/, "", v); return v / 1e9 }
        if (v ~ /us$/) { sub(/us$/, "", v); return v / 1e6 }
        if (v ~ /ms$/) { sub(/ms$/, "", v); return v / 1e3 }
        sub(/s$/, "", v); return v + 0 }
    function dur(x) { if (x == 0) return "0s"; if (x < 1e-6) return int(x * 1e9 + 0.5) "ns"
        if (x < 1e-3) return int(x * 1e6 + 0.5) "us"; if (x < 1) return int(x * 1e3 + 0.5) "ms"
        return int(x + 0.5) "s" }
    function valid(k,   t, lo, hi, d, r, v, n, a) {
        t = T[k]; r = rand()
        if (t == "boolean") { n = split("0 1 yes no on off true false", a, " "); return a[r < 0.6 ? pick(2) : pick(n)] }
        if (t == "string") { if (V[k] == "~" || V[k] == "-") return D[k] == "~" ? "" : D[k]
            n = split(V[k], a, ","); return n ? a[pick(n)] : D[k] }
        lo = LO[k]; hi = HI[k]; d = D[k]
        if (t == "duration") {
            if (lo == "-") { lo = "0s"; hi = "1s" }
            if (r < 0.25) return lo; if (r < 0.4) return hi; if (r < 0.6) return d
            v = secs(lo) + (secs(hi) > 1 ? 1 : secs(hi) - secs(lo)) * rand() ^ 4; return dur(v) }
        if (lo == "-") { lo = (d < 0 ? 2 * d : 0); hi = (d > 0 ? 4 * d : 10) }
        lo += 0; hi += 0
        if (r < 0.2) v = lo; else if (r < 0.35) v = hi; else if (r < 0.5) v = d
        else if (r < 0.75) { v = d * (rand() < 0.5 ? 0.5 : 2); if (t == "integer") v = d + pick(3) - 2 }
        else if (lo > 0 && hi / lo > 100) v = exp(log(lo) + (log(hi) - log(lo)) * rand())
        else v = lo + (hi - lo) * rand()
        if (v < lo) v = lo; if (v > hi) v = hi
        if (t == "integer") return sprintf("%d", v >= 0 ? int(v + 0.5) : -int(-v + 0.5))
        return sprintf("%.6g", v) }
    function bound(k,   t, r) { t = T[k]; r = rand()
        if (t == "boolean") return D[k] == "1" ? "0" : "1"
        if (t == "string") return valid(k)
        if (LO[k] == "-") return valid(k)
        return r < 0.5 ? LO[k] : HI[k] }
    function invalid(k,   t, r, lo, hi) { t = T[k]; r = rand(); lo = LO[k]; hi = HI[k]
        if (r < 0.1) return ""
        if (t == "boolean") return r < 0.5 ? "2" : "maybe"
        if (t == "string") return r < 0.55 ? "bogus" : (r < 0.8 ? "AUTO" : "On")
        if (t == "duration") { if (r < 0.4 && hi != "-") return (secs(hi) * 2 + 1) "s"
            if (r < 0.7) return "5"; return r < 0.85 ? "-1ms" : "1e3ms" }
        if (r < 0.45 && hi != "-") return t == "integer" ? (hi + 1) : (hi * 2 + 1)
        if (r < 0.6 && lo != "-") return t == "integer" ? (lo - 1) : (lo - 1 - (lo < 0 ? -lo : lo))
        if (t == "integer") return r < 0.75 ? "1.5" : (r < 0.85 ? "1e3" : "99999999999")
        return r < 0.7 ? "nan" : (r < 0.85 ? "0x10" : "1e400") }
    FILENAME == ARGV[1] { n++; K[n] = $1; T[$1] = $2; D[$1] = $3; LO[$1] = $4; HI[$1] = $5; V[$1] = $6
        g = ""
        if ($1 ~ /^(unpaired|unp_|align|halves$|repair$|loss_|reunp|uncross)/) g = "loss"
        else if ($1 ~ /^(thread_|busy_)/) g = "threads"
        else if ($1 ~ /^(tick|subtick|tie_)/) g = "ticks"
        else if ($1 ~ /^(service_order|pair_order|fifo|order_|pair_window)/) g = "order"
        else if ($1 ~ /^(conf_|min_confidence)/) g = "conf"
        if (g != "" && $1 != "conf_heldout" && $1 != "callgraph") { ng[g]++; G[g, ng[g]] = $1 }
        next }
    { nt++; TR[nt] = $0 }
    END {
        srand(seed)
        split("bound random interact invalid callgraph", kinds, " ")
        split("i b", modes, " ")
        split("loss threads ticks order conf", groups, " ")
        for (run = 1; run <= runs; run++) {
            r = rand()
            kind = r < 0.2 ? "bound" : r < 0.4 ? "random" : r < 0.52 ? "many" : r < 0.78 ? "interact" : r < 0.93 ? "invalid" : "callgraph"
            if (only != "") kind = only
            tr = TR[pick(nt)]; var = modes[pick(2)]
            if (rand() < 0.4) var = var "l"
            r = rand(); if (r < 0.25) var = var "s"; else if (r < 0.5) var = var "r"
            if (rand() < 0.1) var = var "c" (2 + int(rand() * 8))
            if (tr ~ /^gen:/) tr = tr ":" (1 + (run % 3))
            opts = ""; delete used
            if (kind == "bound") { m = pick(3); for (j = 0; j < m; j++) { k = K[pick(n)]; if (k in used) continue; used[k]; opts = opts " -s " k "=" bound(k) } }
            else if (kind == "many") { m = 20 + pick(40); for (j = 0; j < m; j++) { k = K[pick(n)]; if (k in used) continue; used[k]; opts = opts " -s " k "=" valid(k) } }
            else if (kind == "random") { m = 1 + pick(7); for (j = 0; j < m; j++) { k = K[pick(n)]; if (k in used) continue; used[k]; opts = opts " -s " k "=" valid(k) } }
            else if (kind == "interact") {
                for (j = 1; j <= 5; j++) { g = groups[j]; if (!ng[g]) continue
                    k = G[g, pick(ng[g])]; used[k]; opts = opts " -s " k "=" (rand() < 0.5 ? bound(k) : valid(k)) } }
            else if (kind == "invalid") {
                m = pick(3) - 1; for (j = 0; j < m; j++) { k = K[pick(n)]; if (k in used) continue; used[k]; opts = opts " -s " k "=" valid(k) }
                do k = K[pick(n)]; while ((k in used) || k == "callgraph")
                opts = opts " -s " k "=" invalid(k) "#BAD:" k }
            else { split("truth part unknown onename empty missing stdin", cg, " "); opts = " -s callgraph=@" cg[pick(7)]
                if (rand() < 0.5) { k = K[pick(n)]; if (k != "callgraph") opts = opts " -s " k "=" valid(k) } }
            printf "%d\t%s\t%s:%s\t%s\n", run, kind, tr, var, substr(opts, 2)
        }
    }' "$W/table" "$W/traces" > "$W/plan"
fi
[ -n "$out" ] && cp "$W/plan" "$out/plan"

# make TRACE (base:variant; gen bases carry a seed) into $W/tr/<key>.csv and
# its truth into $W/tr/<key>.truth.csv; prints the file
mkdir -p "$W/tr"
make_trace() {
    key=$(printf '%s' "$1" | tr '/:.' '___')
    f="$W/tr/$key.csv"
    if [ ! -f "$f" ]; then
        var=${1##*:}; base=${1%:*}
        case "$base" in
        gen:*) s=${base##*:}; c=${base#gen:}; c=${c%:*}
            "$B/maketrace" "$ROOT/$c" -q -s seed="$s" -s messages="$messages" > "$W/base.csv" 2> "$W/mk.err" ||
                { echo "joint_optfuzz: maketrace $c: $(tail -1 "$W/mk.err")" >&2; return 1; } ;;
        real:*) n=${base#real:}
            awk -F, -v K="$requests" '/^#/ { print; next } !h { for (i = 1; i <= NF; i++) if ($i == "path") p = i; h = 1; print; next }
                { if (!($p in seen)) { if (ns >= K) next; seen[$p]; ns++ } print }' "$real/$n.ids.csv" > "$W/base.csv"
            case "$var" in b*)
                awk -F, 'FNR == 1 && NR != FNR { h = 0 } NR == FNR { if (/^#/) next; if (!h) { for (i = 1; i <= NF; i++) if ($i == "path") p = i; h = 1; next } keep[$p]; next }
                    /^#/ { print; next } !h { for (i = 1; i <= NF; i++) if ($i == "path") p = i; h = 1; print; next } $p in keep' \
                    "$W/base.csv" "$real/$n.bb.csv" > "$W/bbase.csv" && mv "$W/bbase.csv" "$W/base.csv" ;;
            esac ;;
        esac
        # a stub: the first k data rows only (k = the digit after c), cut
        # before skew and rounding reorder rows (after, a stub could keep a
        # return without its call or a cause cut away: score refuses its truth)
        case "$var" in *c[0-9]*) k=${var#*c}; k=${k%"${k#?}"}
            awk -v k="$k" '/^#/ || !h { print; if (!/^#/) h = 1; next } n++ < k' "$W/base.csv" > "$W/c.csv" &&
            mv "$W/c.csv" "$W/base.csv" ;; esac
        # every clock 1 ms ahead first: no stamp goes below 0
        case "$var" in *s*) "$B/skewer" -q -n '*=+1ms' "$W/base.csv" | "$B/skewer" -q --random-offset normal:200us --seed 5 > "$W/s.csv" &&
            mv "$W/s.csv" "$W/base.csv" ;; esac
        case "$var" in *r*) "$B/skewer" -q --round 1ms "$W/base.csv" > "$W/s.csv" && mv "$W/s.csv" "$W/base.csv" ;; esac
        cp "$W/base.csv" "$f.truth"   # the truth before loss (score --kept)
        case "$var" in *l*) "$B/sniffer" -q -p 0.05 --seed 7 "$W/base.csv" > "$W/l.csv" && mv "$W/l.csv" "$W/base.csv" ;; esac
        case "$var" in b*) strip_ids "$W/base.csv" > "$f" ;; *) cp "$W/base.csv" "$f" ;; esac
        # the call graph files of the callgraph runs
        awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
            $c["type"] == "call" { p = $c["path"]; if ((p, $c["src"]) in caller) print caller[p, $c["src"]], $c["src"], $c["dst"]
              if (!((p, $c["dst"]) in caller)) caller[p, $c["dst"]] = $c["src"] }' \
            "$f.truth" | sort -u > "$f.cg_truth"
        awk 'NR % 2' "$f.cg_truth" > "$f.cg_part"
        printf 'nosuchcaller nosuchservice nosuchcallee\n' > "$f.cg_unknown"
        printf 'onlyonename\n' > "$f.cg_onename"
        : > "$f.cg_empty"
        # a row-shuffled copy (read with --sort)
        awk -v s=11 'BEGIN { srand(s) } /^#/ || !h { print; if (!/^#/) h = 1; next } { printf "%.12f\t%s\n", rand(), $0 }' "$f" > "$W/keyed"
        { grep -v "$(printf '\t')" "$W/keyed"; grep "$(printf '\t')" "$W/keyed" | sort -k1,1 | cut -f2-; } > "$f.shuf"
    fi
    echo "$f"
}

cpu_of() { awk -F'[= ]' '/^# cpu_read_s=/ { print $3 + $5; exit }' "$1"; }
body() { grep -v -e '^# algo=' -e '^# params' -e '^# program' -e '^# cpu_' "$1"; }
san() { grep -E -m1 'AddressSanitizer|LeakSanitizer|runtime error|UndefinedBehaviorSanitizer' "$1"; }

nf=0; nok=0; nref=0; nbad=0; ncheck=0
finding() {   # CLASS DETAIL
    nf=$((nf + 1))
    echo "FINDING $1: run $N ($KIND) trace $TR: $OPTS: $2"
    if [ -n "$out" ]; then
        d="$out/f$N"; mkdir -p "$d"
        cp "$TF" "$d/trace.csv"; cp "$TF.truth" "$d/truth.csv"; cp "$W/err" "$d/stderr" 2>/dev/null
        printf '%s\n' "$OPTS" > "$d/options"; echo "$1: $2" > "$d/class"
    fi
}

tab=$(printf '\t')
while IFS="$tab" read -r N KIND TR OPTS; do
    TF=$(make_trace "$TR") || continue
    # the default's CPU on this trace, once
    if [ ! -f "$TF.defcpu" ]; then
        timeout "$tmo" "$B/infer" --algo joint -q -o "$TF.def" "$TF" < /dev/null 2> "$W/err"
        rc=$?
        if [ $rc -ne 0 ]; then
            finding defaults "the defaults: exit $rc: $(tail -1 "$W/err")"; echo 0 > "$TF.defcpu"
        else
            cpu_of "$TF.def" > "$TF.defcpu"
        fi
    fi
    bad=""; set --
    for w in $OPTS; do
        case "$w" in
        *"#BAD:"*) bad=${w##*#BAD:}; w=${w%#BAD:*} ;;
        esac
        case "$w" in
        callgraph=@missing) w="callgraph=$W/no/such/file" ;;
        callgraph=@stdin) w="callgraph=-" ;;   # stdin: /dev/null here
        callgraph=@*) w="callgraph=$TF.cg_${w#callgraph=@}" ;;
        esac
        set -- "$@" "$w"
    done
    # empty values: the awk printed "key=" (a word of its own)
    timeout "$tmo" "$B/infer" --algo joint -q "$@" -o "$W/o" "$TF" < /dev/null > /dev/null 2> "$W/err"
    rc=$?
    s=$(san "$W/err")
    if [ -n "$s" ]; then finding sanitizer "$s"; continue; fi
    if [ $rc -eq 124 ]; then finding timeout "no end within $tmo s"; continue; fi
    if [ $rc -ge 128 ]; then finding crash "exit $rc: $(tail -2 "$W/err" | tr '\n' ' ')"; continue; fi
    if [ -n "$bad" ]; then
        if [ $rc -eq 0 ]; then finding accepted "bad value of $bad accepted"; continue; fi
        grep -q "$bad" "$W/err" || { finding unclear "error names not $bad: $(tail -1 "$W/err")"; continue; }
        grep -q 'expected' "$W/err" || { finding unclear "error says not what was expected: $(tail -1 "$W/err")"; continue; }
        # --parse-only checks the parameters: it must refuse the same value
        "$B/infer" --algo joint -q --parse-only "$@" "$TF" < /dev/null > /dev/null 2> "$W/perr"
        [ $? -ne 0 ] || { finding parse_only "--parse-only accepts the bad value of $bad that the run refuses: $(tail -1 "$W/err")"; continue; }
        nbad=$((nbad + 1)); echo "run $N $KIND refused as it should: $(tail -1 "$W/err" | cut -c1-160)"; continue
    fi
    if [ $rc -ne 0 ]; then
        named=""
        # an option by its name, or the call-graph file by its name
        for w in "$@"; do k=${w%%=*}; [ "$k" = "-s" ] && continue
            [ "$k" = callgraph ] && k=${w#callgraph=}
            grep -qF "$k" "$W/err" && named=$k; done
        if [ -z "$named" ]; then finding unclear "exit $rc naming no option given: $(tail -1 "$W/err")"; continue; fi
        echo "REFUSED run $N ($KIND) $TR: $OPTS: $(tail -1 "$W/err" | cut -c1-200)"
        nref=$((nref + 1)); continue
    fi
    "$B/score" --truth "$TF.truth" --kept "$TF" "$W/o" > "$W/sc" 2> "$W/scerr" ||
        { finding score "score cannot read the output: $(tail -1 "$W/scerr")"; continue; }
    c=$(cpu_of "$W/o"); d=$(cat "$TF.defcpu")
    if awk -v c="${c:-0}" -v d="${d:-0}" -v x="$slow" 'BEGIN { exit !(c > x * d + 2) }'; then
        finding slow "CPU $c s against the defaults' $d s"; continue
    fi
    nok=$((nok + 1))
    msg="run $N $KIND ok (cpu $c s, defaults $d s)"
    if [ $((N % every)) -eq 0 ]; then
        ncheck=$((ncheck + 1))
        timeout "$tmo" "$B/infer" --algo joint -q "$@" -o "$W/o2" "$TF" < /dev/null 2> /dev/null
        grep -v '^# cpu_' "$W/o" > "$W/a"; grep -v '^# cpu_' "$W/o2" > "$W/b"
        cmp -s "$W/a" "$W/b" || { finding nondeterministic "the same run twice differs: $(diff "$W/a" "$W/b" | sed -n 2p | cut -c1-160)"; continue; }
        timeout "$tmo" "$B/infer" --algo joint -q --sort "$@" -o "$W/o3" "$TF.shuf" < /dev/null 2> "$W/err3"
        # the paths line for line; the metadata as a set (lines per node
        # follow the nodes' order of first appearance in the file)
        body "$W/o" | grep -v '^#' > "$W/a"; body "$W/o3" | grep -v '^#' > "$W/b"
        cmp -s "$W/a" "$W/b" || { finding shuffled "shuffled rows change the paths: $(diff "$W/a" "$W/b" | sed -n 2p | cut -c1-160)"; continue; }
        body "$W/o" | grep '^#' | sort > "$W/a"; body "$W/o3" | grep '^#' | sort > "$W/b"
        cmp -s "$W/a" "$W/b" || { finding shuffled "shuffled rows change the metadata: $(diff "$W/a" "$W/b" | sed -n 2p | cut -c1-160)"; continue; }
        msg="$msg, repeated and shuffled: same"
    fi
    echo "$msg"
done < "$W/plan"
echo "joint_optfuzz: seed $seed: $(wc -l < "$W/plan") runs: $nok ok, $nbad bad values refused, $nref valid sets refused (naming the option), $ncheck checked twice and shuffled, $nf findings"
[ "$nf" -eq 0 ]
