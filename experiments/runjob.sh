#!/bin/sh
# runjob.sh JOBFILE N...: run line N of JOBFILE (one shell command line per
# job) from the repository root.  This is what run_all.sh hands to xargs, and
# what a Slurm array task runs:  sh experiments/runjob.sh jobs.txt "$SLURM_ARRAY_TASK_ID"
set -u
[ $# -ge 1 ] || { echo "usage: runjob.sh JOBFILE N..." >&2; exit 2; }
file=$1; shift
case "$file" in /*) ;; *) file="$PWD/$file" ;; esac
cd "$(dirname "$0")/.." || exit 1
rc=0
for n in "$@"; do
    line=$(sed -n "${n}p" "$file")
    [ -n "$line" ] || { echo "runjob: no line $n in $file" >&2; rc=1; continue; }
    sh -c "$line" || rc=1
done
exit $rc
