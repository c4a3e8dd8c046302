#!/bin/sh
# runjob.sh JOBFILE N...: run line N of JOBFILE (one shell command line per
# job) from the repository root.  This is what run_all.sh hands to xargs, and
# what a Slurm array task runs:  sh experiments/runjob.sh jobs.txt "$SLURM_ARRAY_TASK_ID"
#
# runjob.sh --chunk K JOBFILE I...: run the K lines of chunk I (counted from
# 0): lines I*K+1 .. I*K+K, the last chunk stopping at the file's end.  A
# Slurm array of ceil(lines/K) tasks (--array=0-LAST, see
# experiments/sweep.sbatch) then covers the file with K points per task.
# Exit 0 when every line ran and succeeded; 1 when any failed or a line or
# chunk number is past the end of the file; 2 on bad usage.
set -u
usage() { echo "usage: runjob.sh [--chunk K] JOBFILE N..." >&2; exit 2; }
chunk=0
if [ "${1:-}" = --chunk ]; then
    [ $# -ge 2 ] || usage
    chunk=$2; shift 2
    case "$chunk" in ''|*[!0-9]*|0) echo "runjob: --chunk wants a positive number, got '$chunk'" >&2; exit 2 ;; esac
fi
[ $# -ge 1 ] || usage
file=$1; shift
case "$file" in /*) ;; *) file="$PWD/$file" ;; esac
[ -r "$file" ] || { echo "runjob: cannot read $file" >&2; exit 1; }
cd "$(dirname "$0")/.." || exit 1
rc=0
runline() {
    line=$(sed -n "${1}p" "$file")
    [ -n "$line" ] || { echo "runjob: no line $1 in $file" >&2; rc=1; return; }
    sh -c "$line" || rc=1
}
if [ "$chunk" -eq 0 ]; then
    for n in "$@"; do
        case "$n" in ''|*[!0-9]*) echo "runjob: line number wanted, got '$n'" >&2; exit 2 ;; esac
        runline "$n"
    done
    exit $rc
fi
total=$(wc -l <"$file" | tr -d ' ')
for i in "$@"; do
    case "$i" in ''|*[!0-9]*) echo "runjob: chunk number wanted, got '$i'" >&2; exit 2 ;; esac
    first=$((i * chunk + 1)) last=$((i * chunk + chunk))
    [ "$last" -gt "$total" ] && last=$total
    [ "$first" -le "$total" ] || { echo "runjob: chunk $i of $chunk lines starts past the end of $file ($total lines)" >&2; rc=1; continue; }
    n=$first
    while [ "$n" -le "$last" ]; do runline "$n"; n=$((n + 1)); done
done
exit $rc
