# experiments/lib.sh - shared by the figure scripts (sourced, POSIX sh).
#
# A figure script sets FIG, defines
#   fig_points     calls `point KEY k=v ...` once per experiment point
#   fig_run        runs one point (parameters in $P_k, cwd = a scratch dir),
#                  writes the point's rows (CSV with header) to stdout
#   fig_collect    (optional) turns $OUT/FIG.dat into per-series .dat files
# and ends with `pb_main "$@"`.  Modes:
#   FIG.sh jobs               print "POINTFILE<TAB>COMMAND" per point
#   FIG.sh point FILE k=v...  run one point unless FILE exists (atomic write)
#   FIG.sh collect            concatenate the finished points into .dat files
# Environment: PB_BIN (programs), PB_OUT (output dir), PB_MODE
# (full|quick|tiny: sizes, only read when listing jobs), PB_SEEDS (number of
# seeds per point, overrides the mode's).

set -u
PB_ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$PB_ROOT/bin}"
case "$PB_BIN" in /*) ;; *) PB_BIN="$PB_ROOT/$PB_BIN" ;; esac
: "${PB_OUT:=$PB_ROOT/out/figures}"
: "${PB_MODE:=full}"
# PB_SEEDS (run_all.sh --seeds) was read by awk, which takes "abc", "0" and
# "-1" for no seed: every figure listed no job and said nothing; "1e9" built
# a list of a billion seeds.  Checked here, where every figure reads it.
case "${PB_SEEDS:-}" in
'') ;;
*[!0-9]*|0*) echo "${FIG:-experiments}: PB_SEEDS '$PB_SEEDS': expected a whole number of seeds from 1 to 1000" >&2; exit 2 ;;
*) [ "${#PB_SEEDS}" -le 4 ] && [ "$PB_SEEDS" -le 1000 ] ||
       { echo "${FIG:-experiments}: PB_SEEDS '$PB_SEEDS': expected a whole number of seeds from 1 to 1000" >&2; exit 2; } ;;
esac
PB_CONF="$PB_ROOT/maketrace/configs"
EXP="$PB_ROOT/experiments"
OUT="$PB_OUT"

die() { echo "$FIG: $*" >&2; exit 1; }

# seq_list FIRST LAST: "1 2 3 ..." without relying on seq(1) options
seq_list() { awk -v a="$1" -v b="$2" 'BEGIN{for(i=a;i<=b;i++) printf "%s%d", (i>a?" ":""), i}'; }

# seeds N: the seed list 1..N (or PB_SEEDS when set)
seeds() { seq_list 1 "${PB_SEEDS:-$1}"; }

# mode_pick FULL QUICK TINY: the value for the current mode
mode_pick() {
    case "$PB_MODE" in
    full) echo "$1" ;; quick) echo "$2" ;; tiny) echo "$3" ;;
    *) die "unknown PB_MODE '$PB_MODE' (full, quick or tiny)" ;;
    esac
}

# relpath P: P relative to the repository root when inside it
relpath() {
    case "$1" in
    "$PB_ROOT"/*) echo "${1#"$PB_ROOT"/}" ;;
    *) echo "$1" ;;
    esac
}

# pb_commit: the commit of the programs (short hash, "-dirty" when tracked
# files changed); $PB_COMMIT when set (run_all.sh computes it once for all
# its jobs instead of two git runs per point)
pb_commit() {
    [ -n "${PB_COMMIT:-}" ] && { echo "$PB_COMMIT"; return; }
    c=$(git -C "$PB_ROOT" rev-parse --short=12 HEAD 2>/dev/null) || { echo unknown; return; }
    if [ -n "$(git -C "$PB_ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
        c="$c-dirty"
    fi
    echo "$c"
}

# --- the three modes -----------------------------------------------------

# point KEY k=v ...: one experiment point.  In jobs mode prints the job
# line; in collect mode records the point file for pb_concat.
# The point file is named by all the parameters (k=v joined by '_'), so a
# script that changes a point's parameters makes a new point instead of
# reusing a stale one; KEY is only a label for messages.
point() {
    _key=$1; shift
    for _a in "$@"; do
        case "$_a" in
        *=*) ;;
        *) die "point $_key: parameter '$_a' is not k=v" ;;
        esac
        case "$_a" in
        *[!A-Za-z0-9.,:+=-]*) die "point $_key: bad character in parameter '$_a'" ;;
        esac
    done
    _o=$IFS; IFS=_; _file="$OUT/points/$FIG/$*.row"; IFS=$_o
    case "$_mode" in
    jobs)
        _env=
        # the algorithm list travels with the job (exec- labels need it)
        [ -n "${PB_ALGOS:-}" ] && _env="PB_ALGOS='$(printf '%s' "$PB_ALGOS" | sed "s/'/'\\\\''/g")' "
        printf '%s\t%sPB_BIN=%s sh experiments/%s.sh point %s %s\n' \
            "$_file" "$_env" "$(relpath "$PB_BIN")" "$FIG" "$(relpath "$_file")" "$*" ;;
    collect) echo "$_file" >>"$_pointlist" ;;
    esac
}

# scratch_base: where a point's scratch files go: $PB_SCRATCH when set, else
# /dev/shm when it is a writable directory (a tmpfs: the traces a point
# writes never reach a disk), else $TMPDIR or /tmp
scratch_base() {
    if [ -n "${PB_SCRATCH:-}" ]; then echo "$PB_SCRATCH"
    elif [ -d /dev/shm ] && [ -w /dev/shm ]; then echo /dev/shm
    else echo "${TMPDIR:-/tmp}"; fi
}

# run one point: params into P_*, scratch dir, atomic write of the rows
pb_point_run() {
    _file=$1; shift
    case "$_file" in /*) ;; *) _file="$PB_ROOT/$_file" ;; esac
    [ -e "$_file" ] && return 0
    # the output folder the point belongs to (OUT/points/FIG/NAME.row): its
    # trace cache is there, also when the job line runs without PB_OUT
    # (GNU parallel, a Slurm array)
    case "$_file" in
    */points/"$FIG"/*) _pb_outdir=${_file%/points/"$FIG"/*} ;;
    *) _pb_outdir=$OUT ;;
    esac
    for _a in "$@"; do
        _k=${_a%%=*}
        case "$_k" in ''|*[!A-Za-z0-9_]*) die "bad parameter '$_a'" ;; esac
        eval "P_$_k=\${_a#*=}"
    done
    mkdir -p "$(dirname "$_file")"
    _scratch=$(mktemp -d "$(scratch_base)/pb-$FIG.XXXXXX") || die "mktemp failed"
    trap 'rm -rf "$_scratch"' EXIT
    trap 'rm -rf "$_scratch"; exit 130' INT TERM
    (cd "$_scratch" && fig_run) >"$_scratch/rows" 2>"$_scratch/log"
    _rc=$?
    if [ $_rc -eq 0 ] && [ -s "$_scratch/rows" ]; then
        {
            echo "# commit=$(pb_commit) point=$FIG $*"
            cat "$_scratch/rows"
        } >"$_file.tmp.$$" && mv "$_file.tmp.$$" "$_file"
        rm -f "$_file.fail"
        return 0
    fi
    {
        echo "# failed (exit $_rc): $FIG point $*"
        tail -n 20 "$_scratch/log"
    } >"$_file.fail"
    echo "$FIG: point $(basename "$_file" .row) failed; see $(relpath "$_file").fail" >&2
    tail -n 5 "$_scratch/log" >&2
    return 1
}

# pb_concat: all finished points as one CSV (one header, data rows); the
# comment header says how they were made.  Writes to stdout.  One awk reads
# every point file (a handful of processes per figure, not per point):
#   # commits: the sorted distinct commits of the points' first lines
#   # parameters: every key with its values, in first-seen order
#   then the first point's rows with its header, and the data rows of the
#   others whose header is the same (a point with another header is skipped,
#   with a message on stderr)
pb_concat() {
    _n=$(wc -l <"$_pointlist")
    _have=0
    while read -r _f; do [ -e "$_f" ] && _have=$((_have + 1)); done <"$_pointlist"
    echo "# pathbench $FIG: $FIG_TITLE"
    echo "# made by experiments/$FIG.sh (mode=$PB_MODE) from $_have of $_n points;"
    echo "# each point: $FIG_HOW"
    awk -v what=commits -f "$EXP/concat_points.awk" "$_pointlist" |
        sort -u | tr '\n' ' ' | sed 's/^/# commits: /; s/ $//'
    echo
    awk -v what=rows -v fig="$FIG" -f "$EXP/concat_points.awk" "$_pointlist"
}

# pb_main "$@": dispatch on the mode
pb_main() {
    _mode=${1:-}
    [ $# -gt 0 ] && shift
    case "$_mode" in
    jobs) fig_points ;;
    point)
        [ $# -ge 1 ] || die "usage: $FIG.sh point FILE k=v ..."
        pb_point_run "$@" ;;
    collect)
        mkdir -p "$OUT"
        _pointlist=$(mktemp "${TMPDIR:-/tmp}/pb-list.XXXXXX")
        trap 'rm -f "$_pointlist"' EXIT
        fig_points
        pb_concat >"$OUT/$FIG.dat.tmp" && mv "$OUT/$FIG.dat.tmp" "$OUT/$FIG.dat"
        if ! grep -qv '^#' "$OUT/$FIG.dat"; then
            echo "$FIG: no finished points yet" >&2
        elif command -v fig_collect >/dev/null 2>&1; then
            fig_collect
        fi ;;
    *) echo "usage: $FIG.sh jobs | point FILE k=v ... | collect" >&2; exit 2 ;;
    esac
}

# --- helpers for fig_run -------------------------------------------------

# csv_get FILE COLUMN: the value of COLUMN in the first data row of a CSV
# with one header line (comment lines skipped).  Empty if no such column.
csv_get() {
    awk -F, -v col="$2" '
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) if ($i == col) c = i; h = 1; next }
        { if (c) print $c; exit }' "$1"
}

# meta_get FILE KEY: value of KEY=... in the "# " metadata lines of a file
meta_get() {
    awk -v k="$2" '
        !/^#/ { exit }
        { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { v = substr($i, length(k) + 2) } }
        END { print v }' "$1"
}

# prefix_rows "h1,h2" "v1,v2" < CSV: prepend columns to a CSV with header
prefix_rows() {
    awk -v h="$1" -v v="$2" '/^#/ { next } !s { print h "," $0; s = 1; next } { print v "," $0 }'
}

# timed OUTFILE CMD...: run CMD with stdout to OUTFILE; sets T_MAXRSS_KB,
# T_USER_S (empty when /usr/bin/time is missing)
timed() {
    _o=$1; shift
    T_MAXRSS_KB=; T_USER_S=
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%M %U' -o time.out "$@" >"$_o" || return 1
        T_MAXRSS_KB=$(awk 'END{print $1}' time.out)
        T_USER_S=$(awk 'END{print $2}' time.out)
    else
        "$@" >"$_o" || return 1
    fi
}

# trace_len TRACE: "messages duration" (experiments/trace_len.awk), once
# per cached trace
trace_len() { memo len awk -f "$EXP/trace_len.awk" "$1"; }

# count_msgs TRACE: data rows in a trace (header and comments excluded)
count_msgs() { awk '!/^#/ { n++ } END { print (n > 0 ? n - 1 : 0) }' "$1"; }

# --- aggregation for plots ----------------------------------------------

# aggregate DAT SERIESCOLS XCOL YCOL [GROUPCOL [SUFFIX]]: per series (the
# values of SERIESCOLS joined by '-', then SUFFIX), write
# $OUT/$FIG_<series><SUFFIX>.dat with
#   index 0: mean line: group x_mean y_mean y_min y_max n y_lo y_hi
#            (sorted by x; y_lo, y_hi: the 95 % Student t interval of the
#            mean over the n seeds, mean +- t(0.975, n-1) sd / sqrt(n), sd
#            with the n-1 divisor; both the mean when n = 1)
#   index 1: raw points: x y
# GROUPCOL (default XCOL) is the column points are grouped by (a nominal
# level when x is measured).  Rows with an empty x or y are left out.
aggregate() {
    _dat=$1 _sc=$2 _x=$3 _y=$4 _g=${5:-$3} _sfx=${6:-}
    awk -F, -v sc="$_sc" -v xc="$_x" -v yc="$_y" -v gc="$_g" -v out="$OUT/$FIG" -v fig="$FIG" -v sfx="$_sfx" "$(cat "$EXP/judge.awk")"'
    /^#/ { next }
    !hdr {
        for (i = 1; i <= NF; i++) col[$i] = i
        ns = split(sc, s, ",")
        for (i = 1; i <= ns; i++) if (!(s[i] in col)) { print fig ": no column " s[i] > "/dev/stderr"; bad = 1 }
        if (!(xc in col) || !(yc in col) || !(gc in col)) { print fig ": missing x/y/group column" > "/dev/stderr"; bad = 1 }
        hdr = 1; next
    }
    bad { exit 1 }
    {
        x = $(col[xc]); y = $(col[yc]); g = $(col[gc])
        if (x == "" || y == "" || x == "nan" || y == "nan") next
        name = ""
        for (i = 1; i <= ns; i++) name = name (i > 1 ? "-" : "") $(col[s[i]])
        name = name sfx
        if (!(name in seen)) { seen[name] = 1; names[++nn] = name }
        k = name SUBSEP g
        if (!(k in n)) { groups[name] = groups[name] SUBSEP g; gx[k] = 0; mn[k] = y; mx[k] = y }
        n[k]++; sx[k] += x; sy[k] += y; syy[k] += y * y
        if (y < mn[k]) mn[k] = y
        if (y > mx[k]) mx[k] = y
        raw[name] = raw[name] x " " y "\n"
    }
    # judge_tq: t(0.975, df) from experiments/judge.awk (the verdicts use it too)
    END {
        if (bad) exit 1
        for (j = 1; j <= nn; j++) {
            name = names[j]; f = out "_" name ".dat"
            print "# " fig " series " name ": " yc " against " xc " (grouped by " gc ")" > f
            print "# index 0: group x_mean y_mean y_min y_max n y_lo y_hi (95 % t interval of the mean)" > f
            m = split(substr(groups[name], 2), gl, SUBSEP)
            # sort groups by mean x (insertion sort; few groups)
            for (a = 1; a <= m; a++) { k = name SUBSEP gl[a]; xm[a] = sx[k] / n[k]; ord[a] = a }
            for (a = 2; a <= m; a++) for (b = a; b > 1 && xm[ord[b]] < xm[ord[b-1]]; b--) { t = ord[b]; ord[b] = ord[b-1]; ord[b-1] = t }
            for (a = 1; a <= m; a++) {
                k = name SUBSEP gl[ord[a]]
                ym = sy[k] / n[k]; h = 0
                if (n[k] > 1) { v = (syy[k] - n[k] * ym * ym) / (n[k] - 1); if (v < 0) v = 0; h = judge_tq(n[k] - 1) * sqrt(v / n[k]) }
                printf "%s %.6g %.6g %.6g %.6g %d %.6g %.6g\n", gl[ord[a]], sx[k] / n[k], ym, mn[k], mx[k], n[k], ym - h, ym + h > f
            }
            print "\n\n# index 1: x y (every point)" > f
            printf "%s", raw[name] > f
            close(f)
        }
    }' "$_dat"
}

# --- the pipeline stages (one place to adapt when a program's flags change)

# gen CONF [maketrace options...]: a trace with truth on stdout, seed $P_seed
gen() { _c=$1; shift; "$PB_BIN/maketrace" --seed "$P_seed" -D duration=0 "$@" "$PB_CONF/$_c.conf"; }

# --- the algorithm list (PB_ALGOS) ----------------------------------------
# PB_ALGOS (run_all.sh --algos=LIST, make figures FIGURES_ARGS=--algos=LIST)
# replaces the algorithms of the sweeps (Figures 17, 19, 20, 21 and Table 1):
# items separated by commas, each NAME[:SET=VALUE...] (joint,
# nesting:callids=0, convolution:mu=0) or exec:COMMAND.  In the points an
# exec: item is named exec-HASH (8 hex digits of the command's md5), so its
# point files are stable; the job lines carry PB_ALGOS.

# algo_label ITEM: the item as a point parameter ('_' is not allowed there:
# a setting name's '_' is written '+', which no setting name has)
algo_label() {
    case "$1" in
    exec:*) _h=$(printf '%s' "${1#exec:}" | md5sum); echo "exec-$(echo "$_h" | cut -c1-8)" ;;
    *) echo "$1" | tr '_' '+' ;;
    esac
}

# algo_list DEFAULT: the labels of PB_ALGOS when set, else DEFAULT (words)
algo_list() {
    if [ -n "${PB_ALGOS:-}" ]; then
        printf '%s\n' "$PB_ALGOS" | tr ',' '\n' | sed -e 's/^ *//' -e 's/ *$//' -e '/^$/d' |
            while IFS= read -r _it; do
                case "$_it" in
                *[!A-Za-z0-9.:+=_-]*) case "$_it" in exec:*) ;; *) die "PB_ALGOS item '$_it': expected NAME[:SET=VALUE...] or exec:COMMAND" ;; esac ;;
                esac
                algo_label "$_it"
            done | tr '\n' ' ' | sed 's/ $//'
    else
        echo "$1"
    fi
}

# algo_args LABEL: the infer arguments of a label, one a line
algo_args() {
    case "$1" in
    exec-*)
        _found=
        _o=$IFS; IFS=,
        for _it in ${PB_ALGOS:-}; do
            _it=$(printf '%s' "$_it" | sed -e 's/^ *//' -e 's/ *$//')
            case "$_it" in exec:*) [ "$(algo_label "$_it")" = "$1" ] && _found=$_it ;; esac
        done
        IFS=$_o
        [ -n "$_found" ] || { echo "$FIG: algorithm $1: no exec: item of PB_ALGOS has this hash (is PB_ALGOS set?)" >&2; return 1; }
        printf -- '--algo\n%s\n' "$_found" ;;
    *:*) printf -- '--algo\n%s\n' "${1%%:*}"
         printf '%s\n' "${1#*:}" | tr ':' '\n' | sed '/^$/d' |
             awk -F= '{ n = $1; gsub(/\+/, "_", n); v = substr($0, length($1) + 1); print "-s"; print n v }' ;;
    *) printf -- '--algo\n%s\n' "$1" ;;
    esac
}

# infer ALGO TRACE [infer options...]: result file on stdout.  ALGO is a
# label of the algorithm list (algo_args).
# convolution reproduces the paper: its mu = 10 ms, given explicitly since the
# default is now chosen from the trace (docs/convolution.md "Choosing mu");
# convolution:mu=0 is the automatic mu
infer() {
    _a=$1 _t=$2; shift 2
    [ "$_a" = convolution ] && set -- -s mu=10ms "$@"
    _args=$(algo_args "$_a") || return 1
    _o=$IFS; IFS='
'
    set -- $_args "$@"
    IFS=$_o
    "$PB_BIN/infer" "$@" "$_t"
}

# score TRUTHTRACE RESULT [score options...]: CSV with header on stdout
# An algorithm of the list with settings or an exec: command (P_algo
# nesting:callids=0, exec-HASH) names its rows by its label, so that two
# modes of one algorithm are two series.
score() {
    _t=$1 _r=$2; shift 2
    case "${P_algo:-}" in
    *:*|exec-*)
        "$PB_BIN/score" --truth "$_t" "$@" "$_r" | awk -F, -v OFS=, -v l="$P_algo" '
            !h { for (i = 1; i <= NF; i++) if ($i == "algo") c = i; h = 1; print; next }
            { if (c) $c = l; print }' ;;
    *) "$PB_BIN/score" --truth "$_t" "$@" "$_r" ;;
    esac
}

# trace_stats TRACE: "messages duration parallelism call_delay return_delay"
# (about 0.13 CPU s for 50,000 messages: per-message tables)
trace_stats() { awk -f "$EXP/trace_stats.awk" "$1"; }

# cached KEY CMD...: CMD's stdout, computed once per KEY and commit of the
# programs under $OUT/cache/$FIG/COMMIT (for values that every point of
# one trace shares, so the points that differ only in the algorithm or a
# perturbation do not recompute them; written atomically, so concurrent
# points are safe; a new commit starts a new cache)
cached() {
    _ck=$1; shift
    [ -n "${_pb_commit:-}" ] || _pb_commit=$(pb_commit)
    _cd="$OUT/cache/$FIG/$_pb_commit"
    _cf="$_cd/$_ck"
    if [ ! -s "$_cf" ]; then
        mkdir -p "$_cd"
        "$@" >"$_cf.tmp.$$" && mv "$_cf.tmp.$$" "$_cf" || { rm -f "$_cf.tmp.$$"; "$@"; return; }
    fi
    cat "$_cf"
}

# The trace cache.  Most points of a figure share their trace with other
# points (fig21: 48 capture rates and algorithms per config and seed), so a
# trace is generated once and every point links to it.
#   trace_cache_dir: $PB_CACHE/traces when PB_CACHE is set, else
#     OUT/cache/traces, OUT the folder of the point's file
#     (OUT/points/FIG/NAME.row; $PB_OUT for a file elsewhere): beside the
#     points, so that the jobs of one sweep share it wherever they run (a
#     Slurm array on a shared file system).  run_all.sh deletes it once no
#     point is left to run.
trace_cache_dir() { echo "${PB_CACHE:-${_pb_outdir:-$OUT}/cache}/traces"; }

# cache_file FILE CMD...: FILE (made in the current directory, a symbolic
# link into the trace cache) holds CMD's stdout.  CMD runs only when the
# cache has no entry for it: the entry is named by a hash of the whole
# command line and of the size and modification time of every file it
# names (the program, the config), so a rebuilt program or an edited config
# makes a new entry.  Written to a unique temporary name and renamed, so
# concurrent points (or array tasks on other machines) never read half a
# trace; two that make the same entry at once both write the same bytes.
# Sets _pb_cached to the entry (for memo).  Returns CMD's status when it
# runs and fails (no entry is made), else 0.
cache_file() {
    _tf=$1; shift
    _st=$(for _a in "$@"; do [ -f "$_a" ] && printf '%s\n' "$_a"; done |
        while IFS= read -r _a; do stat -L -c '%n %s %y' "$_a"; done)
    _h=$(printf '%s\n%s\n' "$*" "$_st" | md5sum)
    _cd=$(trace_cache_dir)
    _pb_cached="$_cd/${_h%% *}.csv"
    if [ ! -e "$_pb_cached" ]; then
        mkdir -p "$_cd" || return 1
        _tmp=$(mktemp "$_cd/.tmp.XXXXXXXX") || return 1
        if "$@" >"$_tmp"; then
            # (mktemp makes it private; the points of other users may read it)
            chmod a+r "$_tmp"
            mv -f "$_tmp" "$_pb_cached" || { rm -f "$_tmp"; return 1; }
        else
            _rc=$?; rm -f "$_tmp"; _pb_cached=; return $_rc
        fi
    fi
    rm -f "$_tf"
    ln -s "$_pb_cached" "$_tf"
}

# gen_to FILE CONF [maketrace options...]: gen's trace into FILE, through
# the trace cache; gen_cfg_to FILE NAME [...]: gen_cfg's likewise
gen_to() {
    _gf=$1 _c=$2; shift 2
    cache_file "$_gf" "$PB_BIN/maketrace" --seed "$P_seed" -D duration=0 "$@" "$PB_CONF/$_c.conf"
}
gen_cfg_to() {
    _gf=$1 _n=$2; shift 2
    case "$_n" in
    *+idle) gen_to "$_gf" "${_n%+idle}" $IDLE_DEFS "$@" ;;
    *) gen_to "$_gf" "$_n" "$@" ;;
    esac
}

# memo NAME CMD...: CMD's stdout, kept beside the trace the last cache_file
# made (as ENTRY.NAME) and computed once: for what every point of one
# trace computes alike (its length, its statistics, the oracle's patterns).
# CMD must read only that trace.  Without a cached trace, CMD just runs.
memo() {
    _mn=$1; shift
    [ -n "${_pb_cached:-}" ] || { "$@"; return; }
    _mf="$_pb_cached.$_mn"
    if [ ! -s "$_mf" ]; then
        _mt=$(mktemp "$_mf.XXXXXXXX") || { "$@"; return; }
        if "$@" >"$_mt"; then mv -f "$_mt" "$_mf" || { rm -f "$_mt"; "$@"; return; }
        else _rc=$?; rm -f "$_mt"; return $_rc; fi
    fi
    cat "$_mf"
}

# strip_truth < TRACE > TRACE': drop the truth columns (path, cause) of a
# perturbed trace before inference: truth is read from the unperturbed
# trace by score, and a lossy trace can name causes it no longer holds
# (which older readers rejected).
strip_truth() {
    awk -F, '
        BEGIN { OFS = "," }
        /^#/ && !h { print; next }
        !h { for (i = 1; i <= NF; i++) { keep[i] = ($i != "path" && $i != "cause"); if (keep[i]) last = i; else if (!drop1) drop1 = i }
             # the usual case, truth columns last: cut the record short
             trail = !drop1 || drop1 > last; h = 1 }
        trail { NF = last; print; next }
        { o = ""; first = 1
          for (i = 1; i <= NF; i++) if (keep[i]) { o = o (first ? "" : ",") $i; first = 0 }
          print o }'
}

# nest_par TRACE: Table 1's "mean per-node parallelism" as the nesting
# algorithm computes it (5.1.2: mean candidate parents per nested call),
# read from a nesting run's metadata; "nan" if nesting cannot run.
nest_par() {
    "$PB_BIN/infer" --algo nesting --no-assign "$1" >np.csv 2>/dev/null || { echo nan; return; }
    _v=$(meta_get np.csv mean_parallelism)
    echo "${_v:-nan}"
}

# gen_cfg NAME [maketrace options...]: like gen, and NAME+idle is NAME with
# one request loop, think times of 2.5-3 s and a 1 ms network delay: the
# regime WAP5's linking assumes (a client's requests further apart than
# its window x = 2 s; docs/linking.md), where linking recovers multitier
# exactly
IDLE_DEFS="-D instances=1 -D think=2500ms..3s -D net_delay=1ms"
gen_cfg() {
    _n=$1; shift
    case "$_n" in
    *+idle) gen "${_n%+idle}" $IDLE_DEFS "$@" ;;
    *) gen "$_n" "$@" ;;
    esac
}

# Figures 19 and 20 sweep one maketrace setting over the multi-tier trace
# and the four pathological cases, for every algorithm and the oracle.
#   sweep_points PARAM TAG "full values" "quick values" "tiny values"
#   sweep_run PARAM SETTING COLUMN [UNIT]: generate with -D SETTING=$P_PARAM
#     (UNIT appended: durations need one, e.g. s), infer, score; the row gets
#     the value under COLUMN and the trace's parallelism.
SWEEP_CONFIGS="multitier children-parallel children-0-2 children-d-cc penalty-breaker"
sweep_points() {
    _param=$1 _tag=$2
    len=$(mode_pick 50000 6000 3000)
    _vals=$(mode_pick "$3" "$4" "$5")
    algos=$(algo_list "$(mode_pick "nesting linking convolution" "nesting linking convolution" "nesting linking")")
    for cfg in $SWEEP_CONFIGS; do
        for algo in $algos truth; do
            for _v in $_vals; do
                for seed in $(seeds "$(mode_pick 3 2 1)"); do
                    # the oracle once per level is enough to show it is exact
                    [ "$algo" = truth ] && [ "$seed" != 1 ] && continue
                    point "$cfg-$algo-$_tag$_v-$seed" cfg=$cfg algo=$algo "$_param=$_v" seed=$seed len=$len
                done
            done
        done
    done
}
sweep_run() {
    eval "_v=\$P_$1"
    _col=$3
    gen_to t.csv "$P_cfg" -D messages="$P_len" -D "$2=$_v${4:-}" || return 1
    set -- $(trace_len t.csv)
    infer "$P_algo" t.csv >r.csv || return 1
    # Table 1's parallelism as nesting computes it: from the run itself
    # for nesting, else from a nesting run computed once per trace
    if [ "$P_algo" = nesting ]; then
        par=$(meta_get r.csv mean_parallelism)
    else
        par=$(memo par nest_par t.csv)
    fi
    score t.csv r.csv | prefix_rows "config,$_col,seed,trace_messages,duration,parallelism" \
        "$P_cfg,$_v,$P_seed,$1,$2,${par:-nan}"
}

# --- the precise tracers' figures (issue 23) -----------------------------

# every method that assigns calls or messages to requests, by figure name;
# convolution infers path patterns only (no per-request assignment), so it
# has no exact accuracy to put beside them
PRECISE_METHODS="vpath-paper vpath-artifact vpath-clean borderpatrol borderpatrol-node nesting joint joint-nocid linking fcfs arrival wap5tw"

# method_args NAME [ENTRY]: the infer arguments of a method of
# PRECISE_METHODS (ENTRY: the client node linking starts paths at,
# default client)
method_args() {
    case "$1" in
    vpath-paper) echo "--algo vpath -s variant=paper" ;;
    vpath-artifact) echo "--algo vpath -s variant=artifact" ;;
    vpath-clean) echo "--algo vpath -s variant=clean" ;;
    borderpatrol) echo "--algo borderpatrol -s context=thread" ;;
    borderpatrol-node) echo "--algo borderpatrol -s context=node" ;;
    joint-nocid) echo "--algo joint -s callids=0" ;;
    linking) echo "--algo linking -s entry=${2:-client}" ;;
    *) echo "--algo $1" ;;
    esac
}

# precise_ci KEYCOL KEYVAL SORT > FILE: the rows of $OUT/$FIG.dat whose
# KEYCOL is KEYVAL, per x and method of PRECISE_METHODS the mean exact
# accuracy over the seeds and its 95 % Student t interval (judge.awk's
# judge_ci, the interval of the report's verdicts):
#   # x rate n M1 M1_lo M1_hi M2 M2_lo M2_hi ... latency_ms _lo _hi
# (n: the fewest seeds of a method at that x; NaN where a method has no
# value; SORT=1 sorts the rows by x, else they keep the points' order).
# The plots draw these bars (plots/isolation.gp, vpath_assumptions.gp).
precise_ci() {
    awk -F, -v kc="$1" -v kv="$2" -v methods="$PRECISE_METHODS" -v fig="$FIG" "$(cat "$EXP/judge.awk")"'
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        $(c[kc]) == kv {
            x = $(c["x"]); m = $(c["method"])
            if (!(x in seen)) { seen[x] = 1; xs[++nx] = x }
            if ($(c["exact_accuracy"]) != "") judge_add(x SUBSEP m, $(c["exact_accuracy"]))
            r[x] += $(c["rate"]); nr[x]++
            # the trace'"'"'s mean latency (ms), once per trace (x and seed)
            if (("mean_latency" in c) && !((x, $(c["seed"])) in lat)) { lat[x, $(c["seed"])] = 1; judge_add(x SUBSEP "@lat", 1000 * $(c["mean_latency"])) }
        }
        END {
            nm = split(methods, M, " ")
            print "# " fig " " kv ": exact accuracy per method, the mean over the seeds and its 95 % t interval (experiments/judge.awk); then the mean latency (ms)"
            line = "# x rate n"; for (k = 1; k <= nm; k++) line = line " " M[k] " " M[k] "_lo " M[k] "_hi"; print line " latency_ms latency_ms_lo latency_ms_hi"
            for (i = 1; i <= nx; i++) {
                x = xs[i]; line = ""; nmin = -1
                for (k = 1; k <= nm; k++) {
                    if (judge_ci(x SUBSEP M[k])) { line = line sprintf(" %.4f %.4f %.4f", JM, JLO, JHI); if (nmin < 0 || JN < nmin) nmin = JN }
                    else line = line " NaN NaN NaN"
                }
                line = line (judge_ci(x SUBSEP "@lat") ? sprintf(" %.4f %.4f %.4f", JM, JLO, JHI) : " NaN NaN NaN")
                printf "%s %.2f %d%s\n", x, r[x] / nr[x], nmin < 0 ? 0 : nmin, line
            }
        }' "$OUT/$FIG.dat" | if [ "$3" = 1 ]; then awk 'NR <= 2 { print; next } { print | "sort -g -k1,1" }'; else cat; fi
}

# path_stats TRACE: "requests duration_s mean_latency_s": paths, the time
# from the first send to the last receipt, and the mean path duration
path_stats() {
    awk -F, '/^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { p = $(c["path"]); t = $(c["ts"]) + 0; r = $(c["recv_ts"]) == "" ? t : $(c["recv_ts"]) + 0
          if (!(p in a)) { a[p] = t; b[p] = r; n++ }
          if (t < a[p]) a[p] = t
          if (r > b[p]) b[p] = r
          if (!s || t < t0) { t0 = t; s = 1 }
          if (r > t1) t1 = r }
        END { for (p in a) sum += b[p] - a[p]
              printf "%d %.6f %.6f\n", n, t1 - t0, n ? sum / n : 0 }' "$1"
}

# --- the held-out audits of joint (joint_models.sh, joint_apps.sh) -------
#
# An audit script sets AUDIT (its name, for messages), W (a scratch
# folder, with W/skipped), ALGOS (the methods), CSVTMP (the CSV being
# written), CONFPREFIX (configs are $EXP/${CONFPREFIX}NAME.conf),
# CONFIGS, SEEDS, VARIANTS (LOAD:STAMPS words: x1, x2, ...; ns, 1us, 1ms,
# skew), DURATION and KEEP, then calls audit_loop and audit_report.

# audit_args ARGS...: the options of an audit (AUDIT set, CONFIGS its
# default list): --quick, --keep DIR, --out DIR, --seeds "S...",
# --configs "C...", --help (the script's header comment); sets QUICK,
# KEEP, SEEDS (empty: the audit's default), CONFIGS and PB_OUT
audit_args() {
    QUICK=0 KEEP= SEEDS=
    while [ $# -gt 0 ]; do
        case "$1" in
        --quick) QUICK=1 ;;
        --keep) [ $# -ge 2 ] || { echo "$AUDIT: --keep needs a directory" >&2; exit 2; }
               KEEP=$2; shift ;;
        --out) [ $# -ge 2 ] || { echo "$AUDIT: --out needs a directory" >&2; exit 2; }
               PB_OUT=$2; shift ;;
        --seeds) [ $# -ge 2 ] || { echo "$AUDIT: --seeds needs a list" >&2; exit 2; }
               SEEDS=$2; shift ;;
        --configs) [ $# -ge 2 ] || { echo "$AUDIT: --configs needs a list" >&2; exit 2; }
               CONFIGS=$2; shift ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "$AUDIT: unknown option '$1' (try --help)" >&2; exit 2 ;;
        esac
        shift
    done
}

# audit_setup: the programs an audit runs are there; PB_OUT and KEEP
# made; W a scratch folder removed at exit
audit_setup() {
    . "$EXP/infer_args.sh"
    infer_args_check "$AUDIT"
    for _p in maketrace skewer infer score; do
        [ -x "$PB_BIN/$_p" ] || die "$PB_BIN/$_p missing (run make)"
    done
    mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
    [ -z "$KEEP" ] || mkdir -p "$KEEP" || die "cannot create $KEEP"
    W=$(mktemp -d) || die "mktemp failed"
    trap 'rm -rf "$W"' EXIT
    : > "$W/skipped"
}

# audit_algos: joint, nesting and every other call-view baseline infer knows
audit_algos() {
    _al="joint nesting"
    for _a in fcfs arrival vpath wap5tw; do
        "$PB_BIN/infer" --help 2>&1 | grep -q "^$_a (call view)" && _al="$_al $_a"
    done
    echo "$_al"
}

# audit_run_set CONFIG SEED VARIANT TRACE MODE: every method of ALGOS on
# TRACE, scored against it; one CSV row per method appended to CSVTMP
# (a failure is a line of W/skipped)
audit_run_set() {
    for _a in $ALGOS; do
        # shellcheck disable=SC2046
        "$PB_BIN/infer" --algo "$_a" $(infer_args "$_a") -o "$W/r.csv" "$4" 2> "$W/log" ||
            { echo "$1 $2 $3 $5 $_a: infer failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
        "$PB_BIN/score" --truth "$4" "$W/r.csv" > "$W/s.csv" 2> "$W/log" ||
            { echo "$1 $2 $3 $5 $_a: score failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
        _cpu=$(sed -n 's/^# cpu_read_s=\([0-9.e+-]*\) cpu_infer_s=\([0-9.e+-]*\).*/\1 \2/p' "$W/r.csv" |
              awk '{ printf "%.3f", $1 + $2 }')
        _ia='""'; [ "$_a" = joint ] && _ia=$INFER_ARGS_CSV
        awk -F, -v c="$1" -v s="$2" -v v="$3" -v m="$5" -v a="$_a" -v cpu="$_cpu" -v ia="$_ia" '
            NR==1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            NR==2 { n = $col["true_instances"]
                    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s\n", c, s, v, m, a, $col["exact_accuracy"],
                        $col["set_accuracy"], n, cpu, (n > 0 ? 1000 * cpu / n : 0), ia }' "$W/s.csv" >> "$CSVTMP"
    done
}

# keep_cols and strip_ids (the columns a tracer records; the black box);
# `sh -c '. experiments/lib.sh; ...'` from the repository root (run_all.sh)
# has no $0 to find EXP by, so the relative path there
if [ -f "$EXP/trace_cols.sh" ]; then . "$EXP/trace_cols.sh"; else . experiments/trace_cols.sh; fi

# audit_loop: every config, seed and variant, given spans and as a black
# box
audit_loop() {
    for _c in $CONFIGS; do
        _conf="$EXP/$CONFPREFIX$_c.conf"
        [ -f "$_conf" ] || die "$_conf missing"
        for _s in $SEEDS; do
            for _v in $VARIANTS; do
                _load=${_v%%:*}; _st=${_v#*:}
                if [ ! -f "$W/gen.$_load" ]; then
                    "$PB_BIN/maketrace" "$_conf" -s seed="$_s" -s duration="$DURATION" \
                        -s instances_scale="${_load#x}" > "$W/raw.csv" 2> "$W/log" ||
                        { echo "$_c $_s $_load: maketrace failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
                    keep_cols "$W/raw.csv" > "$W/gen.$_load"
                fi
                case $_st in
                ns) cp "$W/gen.$_load" "$W/v.csv" ;;
                1us|1ms) "$PB_BIN/skewer" -q --round "$_st" "$W/gen.$_load" > "$W/v.csv" ;;
                skew) # every clock 1 ms late first, so that no stamp falls below 0
                      "$PB_BIN/skewer" -q -n '*=+1ms' "$W/gen.$_load" > "$W/v0.csv" &&
                      "$PB_BIN/skewer" -q --random-offset uniform:0.1ms --seed "$_s" "$W/v0.csv" > "$W/v.csv" ;;
                *) die "unknown stamps '$_st'" ;;
                esac || { echo "$_c $_s $_v: could not make the variant" >> "$W/skipped"; continue; }
                [ -z "$KEEP" ] || cp "$W/v.csv" "$KEEP/${_c}_s${_s}_${_load}_$_st.csv"
                audit_run_set "$_c" "$_s" "$_v" "$W/v.csv" ids
                strip_ids "$W/v.csv" > "$W/v.bb.csv"
                audit_run_set "$_c" "$_s" "$_v" "$W/v.bb.csv" blackbox
            done
            rm -f "$W"/gen.*
        done
    done
}

# audit_report CSV TITLE LEGEND > MD: joint against the best other method
# of every row (margin in points and in requests; "LOSS": below it by
# more than 0.5 points and more than 2 requests), then every method's
# exact / set accuracy and CPU.  TITLE: the first line; LEGEND: the
# sentence(s) after "(exact accuracy, percent; margin in points and in
# requests; " up to "LOSS:", lines separated by "\n".
audit_report() {
    awk -F, -v algos="$ALGOS" -v title="$2" -v legend="$3" -v iargs="${INFER_ARGS_MD:-}" '
NR==1 { next }
{ k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; if (!(k in seen)) { seen[k] = 1; ord[++n] = k }
  ex[k SUBSEP $5] = $6; st[k SUBSEP $5] = $7; cpu[k SUBSEP $5] = $10; req[k] = $8 }
END {
    na = split(algos, A, " ")
    print title
    if (iargs != "") { print ""; print iargs; print "" }
    printf "(exact accuracy, percent; margin in points and in requests; %s\n", legend
    print ""
    print "| config | seed | variant | mode | requests | joint | best other | margin | requests | joint CPU s/1000 |"
    print "|---|---:|---|---|---:|---:|---|---:|---:|---:|"
    nl = 0; nb = 0; nm = 0; worst = 1e9
    for (j = 1; j <= n; j++) {
        split(ord[j], P, SUBSEP); best = -1; bn = ""
        for (i = 1; i <= na; i++) if (A[i] != "joint" && (ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 > best) { best = ex[ord[j] SUBSEP A[i]] + 0; bn = A[i] }
        for (i = 1; i <= na; i++) if (A[i] != "joint" && (ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 == best && A[i] != bn) bn = bn "=" A[i]
        jk = ord[j] SUBSEP "joint"
        # no other method on the row (PB_MODELS_ALGOS=joint): no margin (it
        # was joint against -100 %, "+198 points", counted as at or above)
        bt = best < 0 ? "-" : sprintf("%.1f", 100 * best); if (best < 0) bn = "(none)"
        if (!(jk in ex)) { jt = "-"; d = "-"; dr = "-"; jc = "-" }
        else if (best < 0) { jt = sprintf("%.1f", 100 * ex[jk]); d = "-"; dr = "-"; jc = sprintf("%.2f", cpu[jk]) }
        else {
            nm++
            dd = ex[jk] - best; nr = dd * req[ord[j]]
            jt = sprintf("%.1f", 100 * ex[jk]); d = sprintf("%+.2f", 100 * dd); dr = sprintf("%+.0f", nr)
            jc = sprintf("%.2f", cpu[jk])
            if (dd < -0.005 && nr < -2) { d = "**" d " LOSS**"; nl++ }
            else if (dd >= 0) nb++
            if (100 * dd < worst) worst = 100 * dd
        }
        printf "| %s | %s | %s | %s | %d | %s | %s %s | %s | %s | %s |\n", P[1], P[2], P[3], P[4], req[ord[j]], jt, bn, bt, d, dr, jc
    }
    print ""
    if (nm) printf "Rows: %d; joint at or above the best other on %d of the %d with joint and another method; LOSS rows: %d; smallest margin %+.2f points.\n", n, nb, nm, nl, worst
    else printf "Rows: %d; none has joint and another method: no margin (LOSS rows: 0).\n", n
    print ""
    print "Every method: exact / set accuracy (percent) and CPU s per 1000 requests (reading included)."
    print ""
    h = "| config | seed | variant | mode |"; s = "|---|---:|---|---|"
    for (i = 1; i <= na; i++) { h = h " " A[i] " |"; s = s "---:|" }
    print h; print s
    for (j = 1; j <= n; j++) {
        split(ord[j], P, SUBSEP); best = -1
        for (i = 1; i <= na; i++) if ((ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 > best) best = ex[ord[j] SUBSEP A[i]] + 0
        line = "| " P[1] " | " P[2] " | " P[3] " | " P[4] " |"
        for (i = 1; i <= na; i++) {
            k = ord[j] SUBSEP A[i]
            if (!(k in ex)) { line = line " - |"; continue }
            t = sprintf("%.1f / %.1f (%.2f s)", 100 * ex[k], 100 * st[k], cpu[k])
            if (ex[k] + 0 == best) t = "**" t "**"
            line = line " " t " |"
        }
        print line
    }
}' "$1"
    if [ -s "$W/skipped" ]; then
        echo ""; echo "Skipped:"; echo ""; sed 's/^/- /' "$W/skipped"
    fi
}
