# experiments/trace_cols.sh - the trace edits the audits share
# (sourced, POSIX sh; by experiments/lib.sh, joint_systems.sh,
# joint_stress.sh, joint_calib.sh, joint_ebpf_*.sh and tests/sh/joint_lib.sh).

# keep_cols TRACE: the columns a tracer that names the receiving thread
# records (sthread and conn dropped), to stdout
keep_cols() {
    awk 'BEGIN { FS = OFS = ","; split("id ts recv_ts src dst type callid path cause thread", K, " ")
                 for (i in K) ok[K[i]] = 1 }
         /^#/ { print; next }
         !h { for (i = 1; i <= NF; i++) if ($i in ok) keep[++nk] = i; h = 1 }
         { line = ""; for (j = 1; j <= nk; j++) line = line (j > 1 ? OFS : "") $keep[j]; print line }' "$1"
}

# strip_ids TRACE: the black box: the call ids emptied, to stdout
strip_ids() {
    awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
        !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
        { if (c) $c = ""; print }' "$1"
}

# ebpf_trace DATA_DIR WORK_DIR: the eBPF capture imported to WORK_DIR/raw.csv
# and its audited columns to WORK_DIR/bb.csv (joint_ebpf_cross.sh,
# joint_ebpf_threads.sh)
ebpf_trace() {
    "$B/importtrace" -q "$1/deeptrace-ebpf/rps100-spans.json.gz" > "$2/raw.csv" &&
        keep_cols "$2/raw.csv" > "$2/bb.csv"
}
