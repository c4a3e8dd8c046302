#!/bin/sh
# make test-slurm: run a sweep of the experiments as a Slurm job array on a
# single-node Slurm started here, and check the results are byte-identical
# to the built-in driver's (docs/experiments.md, Many machines).
#
#   sh tests/slurm/run.sh            (make test-slurm; as root to install)
# Environment:
#   PB_SLURM_MODE   run_all mode: quick (default), tiny or full
#   PB_SLURM_ONLY   comma-separated figures (default: every figure of the
#                   job list, run_all.sh --list-figures but "real")
#   PB_SLURM_CHUNK  job-list lines per array task (default 10)
#   PB_SLURM_PORT   first of the two TCP ports tried (default 16817)
#
# Installs slurm-wlm and munge from Debian when missing (root and apt-get
# needed; otherwise says what to install).  Starts munged, slurmctld and
# slurmd on this host, configured in a scratch folder (nothing under /etc
# is used or changed; ports 16817-16818 or the next free pair; PB_SLURM_PORT
# picks another first port), runs the sweep locally, submits its job list as
# an array of experiments/sweep.sbatch with `sbatch --array`, waits, checks
# every array task COMPLETED with exit code 0, collects, compares, and stops
# the three daemons it started (by their process ids; an unfinished array is
# cancelled first) and removes the scratch folder, also when interrupted.
# Exit 0 when every .dat file is identical (CPU-time and memory columns
# aside: they measure the machine, not the results).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
: "${PB_BIN:=$ROOT/bin}"
export PB_BIN
mode=${PB_SLURM_MODE:-quick}
only=${PB_SLURM_ONLY:-}
chunk=${PB_SLURM_CHUNK:-10}
say() { echo "test-slurm: $*" >&2; }
die() { say "$*"; exit 1; }

# --- packages -------------------------------------------------------------
need=""
for c in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge; do
    command -v "${c%%:*}" >/dev/null 2>&1 || [ -x "/usr/sbin/${c%%:*}" ] || need="$need ${c#*:}"
done
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing slurm-wlm munge (missing:$need)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge \
            >/tmp/pb-slurm-apt.log 2>&1 || { tail -n 20 /tmp/pb-slurm-apt.log >&2; die "apt-get could not install slurm-wlm munge"; }
    else
        die "missing:$need; install them (as root: apt-get install slurm-wlm munge)"
    fi
fi
PATH="$PATH:/usr/sbin:/sbin"
for p in maketrace infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done

# --- scratch folder and teardown -------------------------------------------
S=$(mktemp -d "${TMPDIR:-/tmp}/pb-slurm.XXXXXX") || die "mktemp failed"
chmod 755 "$S"
pids="" jid=""
stop() {
    # an interrupted run: cancel the array first, so that no job step is
    # left behind the daemons
    if [ -n "$jid" ] && [ -n "$(squeue -h -j "$jid" -o %i 2>/dev/null)" ]; then
        scancel "$jid" 2>/dev/null
        i=0
        while [ -n "$(squeue -h -j "$jid" -o %i 2>/dev/null)" ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
    fi
    jid=""
    for p in $pids; do kill "$p" 2>/dev/null; done
    for p in $pids; do
        i=0
        while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
        kill -9 "$p" 2>/dev/null
    done
    pids=""
    rm -rf "$S"
}
trap 'stop' EXIT
trap 'say "interrupted: cancelling the array job and stopping the daemons"; stop; exit 130' INT TERM

# --- munge ----------------------------------------------------------------
mkdir -p "$S/munge" "$S/state" "$S/spool" "$S/log" "$S/out"
chmod 700 "$S/munge"
dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$S/munge/munge.key"
munged -F --force --key-file="$S/munge/munge.key" --socket="$S/munge/munge.sock" \
    --pid-file="$S/munge/munged.pid" --log-file="$S/log/munged.log" \
    --seed-file="$S/munge/munge.seed" >"$S/log/munged.out" 2>&1 &
pids="$pids $!"
i=0
while [ ! -S "$S/munge/munge.sock" ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
[ -S "$S/munge/munge.sock" ] || { cat "$S/log/munged.out" "$S/log/munged.log" >&2 2>/dev/null; die "munged did not start"; }

# --- slurm ----------------------------------------------------------------
host=$(hostname -s)
# two free TCP ports (16817/16818 unless taken, e.g. by another run)
port=${PB_SLURM_PORT:-16817}
if command -v ss >/dev/null 2>&1; then
    while ss -Htan 2>/dev/null | awk '{ print $4 }' | grep -Eq ":($port|$((port + 1)))\$"; do
        port=$((port + 2))
    done
fi
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
cat >"$S/slurm.conf" <<CONF
ClusterName=pbtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$S/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MaxArraySize=100001
MaxJobCount=200000
SlurmdTimeout=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=pbtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$S/slurm.conf"
slurmctld -D -i -f "$SLURM_CONF" >"$S/log/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -N "$host" -f "$SLURM_CONF" >"$S/log/slurmd.out" 2>&1 &
pids="$pids $!"
i=0
until [ "$(sinfo -h -o %T 2>/dev/null | head -n 1)" = idle ]; do
    i=$((i + 1))
    if [ $i -gt 150 ]; then
        tail -n 20 "$S/log/slurmctld.log" "$S/log/slurmd.log" "$S/log/slurmctld.out" "$S/log/slurmd.out" >&2 2>/dev/null
        die "the Slurm node did not become idle in 30 s"
    fi
    sleep 0.2
done
say "single-node Slurm up on $host ($cpus CPUs, ports $port-$((port + 1))), scratch $S"

# --- the sweep: local, then as a job array -----------------------------------
# by default every figure of the job list: the real-trace tables
# (experiments/real_traces.sh) and the baselines sweep
# (experiments/baselines_sweep.sh) and the sliding-window phases
# (experiments/window_phases.sh) are single scripts the driver runs
# itself on one machine, not points an array can run
if [ -z "$only" ]; then
    for f in $(sh experiments/run_all.sh --list-figures); do
        case "$f" in real|baselines|window_phases) continue ;; esac
        [ -f "experiments/$f.sh" ] && only="$only${only:+,}$f"
    done
fi
oarg="--only $only"
say "figures: $only"
t0=$(date +%s)
PB_OUT="$S/out/local" sh experiments/run_all.sh --$mode $oarg --no-plots --no-report \
    >"$S/log/local.log" 2>&1 || { tail -n 20 "$S/log/local.log" >&2; die "the local run failed"; }
t1=$(date +%s)
PB_OUT="$S/out/slurm" sh experiments/run_all.sh --$mode $oarg --list-all-jobs >"$S/jobs.txt" ||
    die "could not list the jobs"
n=$(wc -l <"$S/jobs.txt" | tr -d ' ')
[ "$n" -gt 0 ] || die "empty job list"
tasks=$(( (n + chunk - 1) / chunk ))
say "local run: $n points in $((t1 - t0)) s; submitting them as $tasks array tasks of $chunk lines"
jid=$(sbatch --parsable --chdir="$ROOT" --array=0-$((tasks - 1)) \
    --output="$S/log/task-%A_%a.out" --export=ALL,PB_BIN="$PB_BIN" \
    experiments/sweep.sbatch "$S/jobs.txt" "$chunk") || { jid=""; die "sbatch failed"; }
jid=${jid%%;*}
say "submitted array job $jid"
i=0
while [ -n "$(squeue -h -j "$jid" -o %i 2>/dev/null)" ]; do
    i=$((i + 1))
    [ $i -gt 36000 ] && die "array job $jid did not finish in 2 hours"
    sleep 1
done
t2=$(date +%s)
say "array job done in $((t2 - t1)) s"
# every task ran under Slurm and ended well (the controller keeps finished
# records for MinJobAge, 300 s by default)
scontrol -o show job "$jid" >"$S/jobinfo" 2>&1 || { cat "$S/jobinfo" >&2; die "scontrol show job $jid failed"; }
ok=$(grep -c 'JobState=COMPLETED .*ExitCode=0:0' "$S/jobinfo")
[ "$ok" -eq "$tasks" ] || {
    grep -o 'ArrayTaskId=[^ ]*\|JobState=[^ ]*\|ExitCode=[^ ]*' "$S/jobinfo" | paste - - - >&2
    cat "$S"/log/task-*.out 2>/dev/null | tail -n 20 >&2
    die "$ok of $tasks array tasks COMPLETED with exit code 0"
}
nlog=$(ls "$S"/log/task-"$jid"_*.out 2>/dev/null | wc -l | tr -d ' ')
[ "$nlog" -eq "$tasks" ] || die "$nlog task logs for $tasks array tasks"
say "all $tasks array tasks COMPLETED, exit code 0"
PB_OUT="$S/out/slurm" sh experiments/run_all.sh --$mode $oarg --collect-only --no-plots --no-report \
    >"$S/log/collect.log" 2>&1 || { tail -n 20 "$S/log/collect.log" >&2; cat "$S"/log/task-*.out 2>/dev/null | tail -n 20 >&2; die "collect after the array job failed (missing points?)"; }
pend=$(PB_OUT="$S/out/slurm" sh experiments/run_all.sh --$mode $oarg --list-jobs | wc -l | tr -d ' ')
[ "$pend" = 0 ] || { cat "$S"/log/task-*.out 2>/dev/null | tail -n 20 >&2; die "$pend points not made by the array job"; }

# --- compare ------------------------------------------------------------------
# Byte-identical, except what measures this run's machine: the columns of
# CPU time and memory (cpu_s, cpu_infer_s, time_user_s, maxrss_kb, maxrss_mb) are
# blanked before comparing, and the tables made only of them
# (conv_mu_time.dat, table1_*.dat) are left out.
norm() {
    awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
        !h { for (i = 1; i <= NF; i++) if ($i ~ /^(cpu_s|cpu_infer_s|time_user_s|maxrss_kb|maxrss_mb)$/) blank[i] = 1; h = 1; print; next }
        { for (i in blank) $i = ""; print }' "$1"
}
(cd "$S/out/local" && ls *.dat) >"$S/list_local"
(cd "$S/out/slurm" && ls *.dat) >"$S/list_slurm"
cmp -s "$S/list_local" "$S/list_slurm" || { diff "$S/list_local" "$S/list_slurm" >&2; die "different .dat files made"; }
nd=0 nskip=0
while read -r f; do
    case "$f" in conv_mu_time.dat|table1_*.dat) nskip=$((nskip + 1)); continue ;; esac
    norm "$S/out/local/$f" >"$S/a.norm"
    norm "$S/out/slurm/$f" >"$S/b.norm"
    cmp -s "$S/a.norm" "$S/b.norm" || { diff "$S/a.norm" "$S/b.norm" | head >&2; die "$f differs between the local run and the Slurm array"; }
    nd=$((nd + 1))
done <"$S/list_local"
say "PASS: $n points, $nd .dat files byte-identical ($nskip timing tables left out; local ${mode} run $((t1 - t0)) s, Slurm array $((t2 - t1)) s)"
exit 0
