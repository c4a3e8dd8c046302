# infer_args.sh - PB_INFER_ARGS, the infer options the joint audits give
# joint (sourced by joint_systems.sh, joint_stress.sh, joint_models.sh and
# joint_apps.sh; docs/joint/audits.md "Options for joint").
#
#   PB_INFER_ARGS="-s service_order=1 -s conf_sims=2" sh experiments/joint_apps.sh
#
# The words of PB_INFER_ARGS (split on blanks; no quoting, no glob
# characters) are put on every `infer --algo joint` command line of the
# audit, before its own -o, so that a result can be remade with a rule the
# defaults leave off.  The other methods run as ever.  Checked once before
# the audit starts (`infer --algo joint ARGS --parse-only` on a two-row
# trace): a misspelt option stops the audit at once, not row by row.
# Recorded in every CSV row (the last column, infer_args, empty without
# it) and on a line under the title of the .md, so a result says how it
# was made.

# infer_args_check PREFIX: stop with "PREFIX: PB_INFER_ARGS ..." (exit 2)
# when the words are not options infer accepts for joint; sets INFER_ARGS_CSV
# (the CSV field: the words between double quotes) and INFER_ARGS_MD.
infer_args_check() {
    PB_INFER_ARGS=${PB_INFER_ARGS:-}
    INFER_ARGS_CSV='""'
    INFER_ARGS_MD=
    [ -n "$PB_INFER_ARGS" ] || return 0
    case "$PB_INFER_ARGS" in
    *[\"\'\\\*\?\[]*)
        echo "$1: PB_INFER_ARGS=\"$PB_INFER_ARGS\": expected words without quotes, backslashes or glob characters" >&2
        exit 2 ;;
    esac
    _ia=$(mktemp) || { echo "$1: mktemp failed" >&2; exit 1; }
    printf 'id,ts,recv_ts,src,dst,type\n1,0.001,0.001,a,b,call\n2,0.002,0.002,b,a,return\n' > "$_ia"
    # shellcheck disable=SC2086
    if ! "$PB_BIN/infer" --algo joint $PB_INFER_ARGS --parse-only -o /dev/null "$_ia" > /dev/null 2> "$_ia.err"; then
        echo "$1: PB_INFER_ARGS=\"$PB_INFER_ARGS\": infer refuses it: $(tail -1 "$_ia.err")" >&2
        rm -f "$_ia" "$_ia.err"
        exit 2
    fi
    rm -f "$_ia" "$_ia.err"
    INFER_ARGS_CSV="\"$PB_INFER_ARGS\""
    INFER_ARGS_MD="joint was run with PB_INFER_ARGS=\"$PB_INFER_ARGS\" (infer options; the other methods as ever)."
}

# infer_args ALGO: the words to add to infer's command line for ALGO
# (PB_INFER_ARGS for joint, nothing for the others); use unquoted.
infer_args() {
    [ "$1" = joint ] && printf '%s' "${PB_INFER_ARGS:-}"
    return 0
}

# algos_check PREFIX VAR: every word of ALGOS (from the environment
# variable VAR, e.g. PB_MODELS_ALGOS) is a method infer lists in its --help
# ("NAME (... view)") or exec:COMMAND, else stop with "PREFIX: VAR ..."
# (exit 2) before any work.  A misspelt method ("jiont fcfs") ran the
# whole audit, each of its rows failing into the report's "Skipped" list,
# and exited 0 saying nothing; blanks alone ran nothing.
algos_check() {
    _known=$("$PB_BIN/infer" --help 2>&1 | sed -n 's/^\([a-z0-9_]*\) ([a-z]* view).*/\1/p' | tr '\n' ' ')
    if [ -z "$(printf '%s' "$ALGOS" | tr -d ' \t')" ]; then
        echo "$1: $2 '$ALGOS': no method; expected some of: $_known(or exec:COMMAND)" >&2
        exit 2
    fi
    for _a in $ALGOS; do
        case "$_a" in exec:?*) continue ;; esac
        case " $_known" in
        *" $_a "*) ;;
        *) echo "$1: $2 item '$_a': not a method infer knows; expected some of: $_known(or exec:COMMAND)" >&2
           exit 2 ;;
        esac
    done
}
