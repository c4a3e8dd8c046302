#!/bin/sh
# The truth oracle scores perfectly, in all three views, on every shipped
# maketrace config (short traces): exact, every request correct in the
# failure split, link accuracy 1; removing one message from its
# assignment is detected at message level.
set -u
[ -x "$PB_BIN/maketrace" ] && [ -x "$PB_BIN/infer" ] && [ -x "$PB_BIN/score" ] || exit 77
set -- "$PB_ROOT"/maketrace/configs/*.conf
[ -f "$1" ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }

for conf in "$@"; do
    name=$(basename "$conf" .conf)
    "$PB_BIN/maketrace" "$conf" -D messages=1500 -o "$tmp/t.csv" 2> "$tmp/err" ||
        { cat "$tmp/err"; fail "$name: maketrace"; }
    for view in default call message path; do
        if [ "$view" = default ]; then set_view=""; else set_view="view=$view"; fi
        "$PB_BIN/infer" --algo truth ${set_view:+-s "$set_view"} "$tmp/t.csv" > "$tmp/r.csv" 2> "$tmp/err" ||
            { cat "$tmp/err"; fail "$name $view: infer"; }
        "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/r.csv" > "$tmp/s.csv" 2> "$tmp/err" ||
            { cat "$tmp/err"; fail "$name $view: score"; }
        for k in pattern_fp pattern_fn instance_fp instance_fn topn_missing; do
            [ "$(col $k "$tmp/s.csv")" = 0 ] || { cat "$tmp/s.csv"; fail "$name $view: $k not 0"; }
        done
        [ "$(col true_instances "$tmp/s.csv")" -gt 0 ] || fail "$name $view: no true instances"
        got_view=$(col view "$tmp/s.csv")
        case "$view" in
        path)
            [ -z "$(col message_error_rate "$tmp/s.csv")" ] || fail "$name path: message_error_rate not empty"
            [ -z "$(col exact_accuracy "$tmp/s.csv")" ] || fail "$name path: exact_accuracy not empty" ;;
        *)
            [ "$(col message_error_rate "$tmp/s.csv")" = 0 ] || { cat "$tmp/s.csv"; fail "$name $view: message errors"; }
            [ "$(col exact_accuracy "$tmp/s.csv")" = 1 ] || { cat "$tmp/s.csv"; fail "$name $view: not exact"; }
            # the failure split: every request correct, every message
            # attached right, every parent the true one
            [ "$(col correct_rate "$tmp/s.csv")" = 1 ] || { cat "$tmp/s.csv"; fail "$name $view: split not all correct"; }
            [ "$(col msgs_right "$tmp/s.csv")" = "$(col messages "$tmp/s.csv")" ] || fail "$name $view: msgs_right"
            [ "$(col link_accuracy "$tmp/s.csv")" = 1 ] || { cat "$tmp/s.csv"; fail "$name $view: link_accuracy not 1"; }
            [ "$(col exact_ci_low "$tmp/s.csv")" = 1 ] || fail "$name $view: interval not [1, 1]" ;;
        esac
        # the oracle's latencies are the truth's, up to 9 printed digits
        awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{v=$(c["latency_error_max"]); exit !(v == "" || v < 1e-6)}' "$tmp/s.csv" ||
            { cat "$tmp/s.csv"; fail "$name $view: latency error"; }
        if [ "$view" = default ]; then
            if grep -q ',call,\|,return,' "$tmp/t.csv"; then want=call; else want=message; fi
            [ "$got_view" = "$want" ] || fail "$name: default view $got_view, expected $want"
        fi
        if [ "$view" = call ] || [ "$view" = message ]; then
            # drop the first assignment row: its instance is no longer exact
            # (and count one assignment less in the end line, or the cut is
            # refused as a truncated file)
            awk '/^# table=assignment/{a=1} a==1&&/^[0-9]/{a=2; next}
                 /^# end /{split($0, f, "assignments="); print f[1] "assignments=" f[2] - 1; next}
                 {print}' "$tmp/r.csv" > "$tmp/r1.csv"
            [ "$(wc -l < "$tmp/r1.csv")" -eq $(( $(wc -l < "$tmp/r.csv") - 1 )) ] || fail "$name: row not removed"
            "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/r1.csv" > "$tmp/s1.csv" || fail "$name $view: score r1"
            w=$(col messages_wrong "$tmp/s1.csv")
            [ "$w" -gt 0 ] || fail "$name $view: a removed message went unnoticed"
            [ "$(col exact_accuracy "$tmp/s1.csv")" != 1 ] || fail "$name $view: exact_accuracy still 1"
            [ "$(col pattern_fp "$tmp/s1.csv")" = 0 ] || fail "$name $view: pattern level changed"
            [ "$(col msgs_unattached "$tmp/s1.csv")" -ge 1 ] || fail "$name $view: the removed message is not unattached"
            [ "$(col correct_rate "$tmp/s1.csv")" != 1 ] || fail "$name $view: correct_rate still 1"
        fi
    done
done
exit 0
