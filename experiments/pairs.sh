# experiments/pairs.sh - the paired runner shared by experiments/compare.sh
# and experiments/regress.sh (sourced, POSIX sh; docs/experiments.md,
# "Comparing two builds").
#
# A point is one line  SERIES|X|RECIPE|ITEM  (SERIES and X may be empty):
#   RECIPE  how the trace of a seed is made (with side A's programs, so
#           both sides get the very same bytes):
#     syn:CFG:N[:NAME=VALUE...]  maketrace CFG (CFG+idle: one client
#                                loop, 2.5-3 s think times) with N messages,
#                                seed = the seed, -D NAME=VALUE each
#     skew:CFG:N      the same, every clock +100 ms and WS2's +130 ms (a
#                     30 ms relative skew), truth stripped
#     loss:CFG:N:P    the same, a fraction P of the messages lost (sniffer,
#                     seeded), truth stripped; scored against the whole truth
#     delay:N         Figures 12/13: multitier and multitier-delay (200 ms
#                     added at WS2) with N messages each; the item runs on
#                     both (--no-assign) and the measure is the error of the
#                     added delay it reports, |measured - 0.2 s|
#                     (added_delay_error, experiments/added_delay.awk)
#     hotel:LOAD      the DeathStarBench hotel trace of that load (25 or
#                     100), imported with call ids and the thread column,
#                     cut into as many blocks of whole requests as there are
#                     seeds (by each request's first message); seed k is
#                     block k
#   ITEM    an algorithm and its settings: NAME[:SET=VALUE...] (nesting,
#           convolution:mu=10ms, joint:callids=0) or exec:COMMAND
# The algorithm list (PB_ALGOS or --algos) is ITEMs separated by commas.
#
# Each (point, seed) gives rows  point,series,x,metric,better,seed,value
# for the score columns in PAIRS_METRICS that the result has, and, unless
# PAIRS_TIME=0, cpu_s (CPU seconds of reading and inference by infer's own
# clock, the result's cpu_read_s + cpu_infer_s; for exec: its cpu_exec_s,
# the command and its children) and maxrss_kb (peak resident memory of
# infer and its children, /usr/bin/time).

# the full algorithm list: every algorithm and its non-default modes
PAIRS_ALL_ALGOS="nesting,nesting:callids=0,convolution:mu=10ms,convolution,linking,joint,joint:callids=0,joint:matching=flow,fcfs,arrival,vpath,wap5tw"

# metric:better (score columns); exact/set/tw accuracy are the request
# measures, message_error_rate the message measure
PAIRS_METRICS="added_delay_error:lower exact_accuracy:higher set_accuracy:higher tw_accuracy:higher message_error_rate:lower instance_fp_rate:lower instance_fn_rate:lower pattern_fn:lower topn_missing_tol:lower"

: "${PAIRS_TIME:=1}"

pairs_die() { echo "${PAIRS_PROG:-pairs}: $*" >&2; exit 2; }

# pairs_items LIST: one ITEM a line
pairs_items() { printf '%s\n' "$1" | tr ',' '\n' | sed -e 's/^ *//' -e 's/ *$//' -e '/^$/d'; }

# pairs_label ITEM: the item as a point name (no commas, quotes, spaces)
pairs_label() {
    case "$1" in
    exec:*) printf 'exec:%s\n' "$(printf '%s' "${1#exec:}" | tr -c 'A-Za-z0-9._=+:-' '_' | cut -c1-40)" ;;
    *) printf '%s\n' "$1" ;;
    esac
}

# pairs_infer_args ITEM: the infer arguments of ITEM, one a line
pairs_infer_args() {
    case "$1" in
    exec:*) printf -- '--algo\n%s\n' "$1" ;;
    *)
        printf -- '--algo\n%s\n' "${1%%:*}"
        case "$1" in
        *:*) printf '%s\n' "${1#*:}" | tr ':' '\n' | sed '/^$/d; s/^/-s\n/' ;;
        esac ;;
    esac
}

# pairs_trace RECIPE SEED NSEEDS BIN DIR: make DIR/t.csv (truth) and
# DIR/in.csv (what infer reads) unless made; DIR/score.args extra score
# arguments.  Hotel imports are kept in $PAIRS_WORK.
pairs_trace() {
    _r=$1 _s=$2 _ns=$3 _b=$4 _d=$5
    [ -s "$_d/in.csv" ] && return 0
    mkdir -p "$_d" || return 1
    : >"$_d/score.args"
    _kind=${_r%%:*} _rest=${_r#*:}
    case "$_kind" in
    syn|skew|loss)
        _cfg=${_rest%%:*} _rest=${_rest#*:}
        _n=${_rest%%:*}
        case "$_rest" in *:*) _rest=${_rest#*:} ;; *) _rest= ;; esac
        set --
        case "$_cfg" in
        *+idle) _cfg=${_cfg%+idle}; set -- -D instances=1 -D think=2500ms..3s -D net_delay=1ms ;;
        esac
        _p=
        if [ "$_kind" = loss ]; then _p=${_rest%%:*}; _rest=; fi
        _o=$IFS; IFS=:
        for _kv in $_rest; do [ -n "$_kv" ] && set -- "$@" -D "$_kv"; done
        IFS=$_o
        "$_b/maketrace" --seed "$_s" -D duration=0 -D messages="$_n" "$@" \
            "$PB_ROOT/maketrace/configs/$_cfg.conf" >"$_d/t.csv" || return 1
        case "$_kind" in
        syn) ln -sf t.csv "$_d/in.csv" ;;
        skew) "$_b/skewer" --node "*=+100ms" --node "WS2=+130ms" "$_d/t.csv" |
                  pairs_strip_truth >"$_d/in.csv" || return 1 ;;
        loss) "$_b/sniffer" --quiet --loss "$_p" --seed "$_s" "$_d/t.csv" |
                  pairs_strip_truth >"$_d/in.csv" || return 1 ;;
        esac ;;
    delay)
        for _c in multitier multitier-delay; do
            "$_b/maketrace" --seed "$_s" -D duration=0 -D messages="$_rest" \
                "$PB_ROOT/maketrace/configs/$_c.conf" >"$_d/$_c.csv" || return 1
        done
        ln -sf multitier.csv "$_d/t.csv"
        ln -sf multitier.csv "$_d/in.csv" ;;
    hotel)
        _imp="$PAIRS_WORK/hotel$_rest.csv"
        if [ ! -s "$_imp" ]; then
            _tar="${PB_DATA:-$PB_ROOT/../shared/data/deathstarbench-hotel}/hotel_load$_rest.tar.xz"
            [ -f "$_tar" ] || { echo "pairs: $_tar missing (set PB_DATA)" >&2; return 1; }
            "$_b/importtrace" -q --callid --thread -o "$_imp" "$_tar" || return 1
        fi
        awk -F, -v k="$_s" -v n="$_ns" '
            /^#/ { print; next }
            !h { for (i = 1; i <= NF; i++) if ($i == "path") pc = i; h = 1; print; next }
            { rows[++m] = $0; p = $pc; if (p != "" && !(p in first)) { first[p] = ++np } pp[m] = p }
            END { for (i = 1; i <= m; i++) { p = pp[i]; if (p == "") continue
                      b = int((first[p] - 1) * n / np) + 1; if (b == k) print rows[i] } }' \
            "$_imp" >"$_d/t.csv" || return 1
        ln -sf t.csv "$_d/in.csv" ;;
    *) echo "pairs: recipe '$_r': expected syn:, skew:, loss:, delay: or hotel:" >&2; return 1 ;;
    esac
}

pairs_strip_truth() {
    awk -F, 'BEGIN { OFS = "," }
        /^#/ && !h { print; next }
        !h { for (i = 1; i <= NF; i++) keep[i] = ($i != "path" && $i != "cause"); h = 1 }
        { o = ""; f = 1; for (i = 1; i <= NF; i++) if (keep[i]) { o = o (f ? "" : ",") $i; f = 0 }; print o }'
}

# pairs_run_side BIN WRAP ITEM DIR OUT [INFER-OPTIONS]: infer ITEM on DIR/in.csv with the
# programs in BIN (WRAP "=exec:CMD": that algorithm instead of ITEM; any
# other non-empty WRAP: through `--algo exec:'WRAP ITEM'`, a wrapper that
# gets the ITEM as its arguments), result in OUT, CPU and memory in
# OUT.time ("cpu_s maxrss_kb")
pairs_run_side() {
    _b=$1 _w=$2 _it=$3 _d=$4 _out=$5
    shift 5
    _xo="$*"
    # the oracle reads the truth columns, which exec: never passes on
    case "$_it" in truth|truth:*) _w= ;; esac
    set --
    case "$_w" in
    =*) set -- --algo "${_w#=}" ;;
    ?*) set -- --algo "exec:$_w $_it" ;;
    *)
        _o=$IFS; IFS='
'
        for _x in $(pairs_infer_args "$_it"); do set -- "$@" "$_x"; done
        IFS=$_o ;;
    esac
    if [ "$PAIRS_TIME" = 1 ] && [ -x /usr/bin/time ]; then
        PB_BIN=$_b /usr/bin/time -f '%U %S %M' -o "$_out.tm" "$_b/infer" "$@" $_xo "$_d/in.csv" \
            >"$_out" 2>"$_out.err" || { cat "$_out.err" >&2; return 1; }
        # CPU from infer's own nanosecond clock (cpu_read_s + cpu_infer_s,
        # or an exec: command's cpu_exec_s) when the result has it:
        # /usr/bin/time counts 10 ms ticks, too coarse for runs of 50 ms
        awk -v res="$_out" 'END { cpu = $1 + $2; kb = $3
              while ((getline l < res) > 0) { if (l !~ /^#/) break
                  n = split(l, w, /[ =]/)
                  for (i = 1; i < n; i++) {
                      if (w[i] == "cpu_read_s") { r = w[i + 1]; h = 1 }
                      if (w[i] == "cpu_infer_s") { c = w[i + 1]; h = 1 }
                      if (w[i] == "cpu_exec_s") { e = w[i + 1]; he = 1 } } }
              if (he) cpu = e; else if (h) cpu = r + c
              printf "%.6f %d\n", cpu, kb }' "$_out.tm" >"$_out.time"
    else
        PB_BIN=$_b "$_b/infer" "$@" $_xo "$_d/in.csv" >"$_out" 2>"$_out.err" ||
            { cat "$_out.err" >&2; return 1; }
        : >"$_out.time"
    fi
}

# pairs_delay_side BIN WRAP ITEM DIR OUT: a delay: point on one side:
# ITEM on DIR/multitier.csv and DIR/multitier-delay.csv (--no-assign), the
# error of the added delay it measures as a one-row CSV in OUT.score
# (added_delay_error, empty when the pattern is not found); CPU and memory
# of the run on the delayed trace
pairs_delay_side() {
    _db=$1 _dw=$2 _dit=$3 _dd=$4 _dout=$5
    # (exec: takes the result as the command writes it: no --no-assign)
    _dna=--no-assign
    case "$_dw:$_dit" in :*|*:truth|*:truth:*) ;; *) _dna= ;; esac
    for _dc in multitier multitier-delay; do
        ln -sf "$_dc.csv" "$_dd/in.csv"
        pairs_run_side "$_db" "$_dw" "$_dit" "$_dd" "$_dout.$_dc" $_dna || { ln -sf multitier.csv "$_dd/in.csv"; return 1; }
        awk -f "$PB_ROOT/experiments/result_tsv.awk" "$_dout.$_dc" >"$_dout.$_dc.tsv" || return 1
    done
    ln -sf multitier.csv "$_dd/in.csv"
    if [ -f "$_dout.multitier-delay.time" ]; then cp "$_dout.multitier-delay.time" "$_dout.time"; else : >"$_dout.time"; fi
    { echo "added_delay_error"
      awk -v node=WS2 -v with=AUTH -v with2='AP1|AP2' -v ctl=WS1 -f "$PB_ROOT/experiments/added_delay.awk" \
          "$_dout.multitier.tsv" "$_dout.multitier-delay.tsv" |
          awk -F, '$1 == "delayed" && $6 != "" { d = $6 - 0.2; printf "%.6f\n", (d < 0 ? -d : d); f = 1 }
                   END { if (!f) print "" }'
    } >"$_dout.score"
}

# pairs_rows POINT SERIES X SEED SCORECSV TIMEFILE: the long rows
pairs_rows() {
    awk -F, -v p="$1" -v s="$2" -v x="$3" -v seed="$4" -v ms="$PAIRS_METRICS" -v tf="$6" '
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { n = split(ms, m, " ")
          for (i = 1; i <= n; i++) { split(m[i], mb, ":")
              if ((mb[1] in c) && $(c[mb[1]]) != "" && $(c[mb[1]]) != "nan")
                  printf "%s,%s,%s,%s,%s,%s,%s\n", p, s, x, mb[1], mb[2], seed, $(c[mb[1]]) }
          exit }
        END { if (tf != "" && (getline l < tf) > 0) { split(l, t, " ")
                  printf "%s,%s,%s,cpu_s,lower,%s,%s\n", p, s, x, seed, t[1]
                  printf "%s,%s,%s,maxrss_kb,lower,%s,%s\n", p, s, x, seed, t[2] } }' "$5"
}

# pairs_run POINTS NSEEDS BIN_A WRAP_A BIN_B WRAP_B OUT_A OUT_B: every point
# and seed on both sides (OUT_B empty: side A only), interleaved: for each
# point and seed A then B on odd seeds, B then A on even ones, so slow
# drift of the machine falls on both sides alike.  Scored with side A's
# score.  Returns 1 when a run failed (the message on stderr).
pairs_run() {
    _pts=$1 _ns=$2 _ba=$3 _wa=$4 _bb=$5 _wb=$6 _oa=$7 _ob=$8
    _hdr="point,series,x,metric,better,seed,value"
    echo "$_hdr" >"$_oa"
    [ -n "$_ob" ] && echo "$_hdr" >"$_ob"
    _fail=0 _k=0
    while IFS='|' read -r _ser _px _rec _it; do
        case "$_ser" in '#'*|'') [ -z "$_rec" ] && continue ;; esac
        _k=$((_k + 1))
        _pt="$_rec/$(pairs_label "$_it")"
        _s=1
        while [ "$_s" -le "$_ns" ]; do
            _td="$PAIRS_WORK/tr/$(printf '%s' "$_rec" | tr -c 'A-Za-z0-9._=+-' '_')/$_s"
            if ! pairs_trace "$_rec" "$_s" "$_ns" "$_ba" "$_td" </dev/null; then
                echo "pairs: point $_pt seed $_s: no trace" >&2; _fail=1; _s=$((_s + 1)); continue
            fi
            _sides="a b"
            [ -z "$_ob" ] && _sides=a
            [ -n "$_ob" ] && [ $((_s % 2)) -eq 0 ] && _sides="b a"
            for _side in $_sides; do
                if [ "$_side" = a ]; then _bin=$_ba _wr=$_wa _of=$_oa _xs=${PAIRS_SET_A:-}
                else _bin=$_bb _wr=$_wb _of=$_ob _xs=${PAIRS_SET_B:-}; fi
                # --set-a/--set-b ALGO:NAME=VALUE: settings added to that algorithm's items
                _ie=$_it
                for _sx in $_xs; do
                    case "$_it" in "${_sx%%:*}"|"${_sx%%:*}":*) _ie="$_ie:${_sx#*:}" ;; esac
                done
                _res="$PAIRS_WORK/r.$_side.csv"
                if case "$_rec" in
                   delay:*) pairs_delay_side "$_bin" "$_wr" "$_ie" "$_td" "$_res" </dev/null ;;
                   *) pairs_run_side "$_bin" "$_wr" "$_ie" "$_td" "$_res" </dev/null &&
                      "$_ba/score" --truth "$_td/t.csv" "$_res" >"$_res.score" 2>"$_res.serr" </dev/null ;;
                   esac; then
                    pairs_rows "$_pt" "$_ser" "$_px" "$_s" "$_res.score" "$_res.time" >>"$_of"
                else
                    [ -s "$_res.serr" ] && cat "$_res.serr" >&2
                    echo "pairs: point $_pt seed $_s side $(echo "$_side" | tr ab AB) failed" >&2
                    _fail=1
                fi
            done
            _s=$((_s + 1))
        done
        [ -n "${PAIRS_PROGRESS:-}" ] && printf '%s: point %d (%s) done\n' "${PAIRS_PROG:-pairs}" "$_k" "$_pt" >&2
    done <"$_pts"
    return $_fail
}

# pairs_points SET ALGOS: the point lines of a built-in set
#   tiny     multitier, 2,000 messages (the tests; convolution at 4 client
#            loops, linking on one loop with 1.5-3 s thinks (600 messages),
#            where their measures are not saturated)
#   quick    two configs at 3,000 messages, a load sweep (instances 4, 10,
#            22, 40), skew 30 ms, 5 % loss, the hotel traces (loads 25, 100)
#   full     the five configs at 10,000 messages and the same perturbations
pairs_points() {
    _set=$1 _al=$2
    # SET+big: SET's points and the 2 M-message timing point
    case "$_set" in
    *+big) pairs_points "${_set%+big}" "$_al" || return 1; pairs_points big "$_al"; return ;;
    big)
        # the 2 M-message timing point (a trace like Table 1's multi-tier
        # long row): CPU seconds and peak memory of each item on 2,000,000
        # messages, the accuracy too; the whole default list would need
        # gigabytes (linking keeps about 1 KB a message), so without
        # --algos it is nesting alone
        [ "$_al" = "$PAIRS_ALL_ALGOS" ] && _al=nesting
        pairs_items "$_al" >"$PAIRS_WORK/items-big"
        while IFS= read -r _it; do echo "timing/2M||syn:multitier:2000000|$_it"; done <"$PAIRS_WORK/items-big"
        return ;;
    esac
    case "$_set" in
    tiny) _cfgs="multitier" _n=2000 _loads="" _pert=0 _hotel="" ;;
    quick) _cfgs="multitier children-parallel" _n=3000 _loads="4 10 22 40" _pert=1 _hotel="25 100" ;;
    full) _cfgs="multitier children-parallel children-0-2 children-d-cc penalty-breaker" _n=10000
          _loads="4 10 22 40 80" _pert=1 _hotel="25 100" ;;
    *) pairs_die "unknown point set '$_set' (tiny, quick, full, big, SET+big or a file)" ;;
    esac
    pairs_items "$_al" >"$PAIRS_WORK/items"
    while IFS= read -r _it; do
        _l=$(pairs_label "$_it")
        for _c in $_cfgs; do
            # tiny: convolution's FP rate is saturated (~0.99) on the busy
            # multitier, about 0.6 at 4 client loops; linking is right on
            # about no request there, 0.7 with one loop and 1.5-3 s thinks
            case "$_set:$_it" in
            tiny:convolution*) echo "||syn:$_c:$_n:instances=4|$_it" ;;
            tiny:linking*) echo "||syn:$_c+idle:600:think=1500ms..3s|$_it" ;;
            *) echo "||syn:$_c:$_n|$_it" ;;
            esac
        done
        for _v in $_loads; do echo "load/$_l|$_v|syn:multitier:$_n:instances=$_v|$_it"; done
        if [ "$_pert" = 1 ]; then
            echo "||skew:multitier:$_n|$_it"
            echo "||loss:multitier:$_n:0.05|$_it"
        fi
        for _h in $_hotel; do echo "||hotel:$_h|$_it"; done
    done <"$PAIRS_WORK/items"
    # the skew window of nesting (7.5.6) on the skewed trace
    if [ "$_pert" = 1 ] && grep -q '^nesting$' "$PAIRS_WORK/items"; then
        echo "||skew:multitier:$_n|nesting:skew_window=30ms:smooth=1"
    fi
}
