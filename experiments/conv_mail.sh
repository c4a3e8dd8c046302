#!/bin/sh
# Convolution on a mail relay trace against the time quantum mu (seed 000,
# 7.5.7).  The paper ran convolution on two months of e-mail Received:
# headers (relays, delays of seconds to minutes) with mu from 5 s to 720 s
# and read three things: false-positive paths 21-29 % with little
# dependence on mu (worst at mu >= 360 s); none once paths with fewer than
# 100 messages are ignored (except at mu = 720 s); no frequent real path
# missed.  We have no such trace; maketrace/configs/mailrelay.conf is a
# mail relay system of one-way messages over two months (senders, outside
# relays, gateways, a virus scanner, a spam filter, alias and list
# expanders, mailbox servers; heavy-tailed delays of seconds to minutes;
# path shapes of very different frequencies; spam campaigns), about 84,000
# messages as the paper's 81,044 headers.  conv_mu.sh keeps the RPC
# (multi-tier) run beside it.
# Two computations: "blocked" (the default: lags 0..L with L found from the
# trace) and "paper" (mode=exact lag_bound=full: Figure 6's correlation of
# the whole signals, the mean and deviation of the spike test over every
# lag; one seed in the full run, it costs 20 s of CPU at mu = 5 s).
# Columns: the pattern FP rate (all inferred paths, and those with at
# least 100 instances), and how many true paths with at least 100
# instances convolution missed (a true path-view pattern counts as found
# when convolution reports the same pattern, at any count).
FIG=conv_mail
FIG_TITLE="convolution on the mail relay trace: accuracy vs time quantum mu"
FIG_HOW="maketrace mailrelay.conf --seed SEED | infer --algo convolution -s mu=MU [-s mode=exact -s lag_bound=full] | score [-m 100]; frequent = true path-view patterns with >= 100 instances"
. "$(dirname "$0")/lib.sh"

fig_points() {
    # the paper names 5, 30 (Table 1), 360 and 720 s; the rest fill the range
    mus=$(mode_pick "5 10 30 60 120 240 360 720" "5 30 120 360 720" "30 720")
    for comp in blocked paper; do
        for mu in $mus; do
            for seed in $(seeds "$(mode_pick "$([ $comp = paper ] && echo 1 || echo 2)" 1 1)"); do
                # the paper's two months (5.1e6 s); ten days when tiny
                point "mail-$comp-mu$mu-$seed" comp=$comp mu=$mu seed=$seed dur=$(mode_pick 5100000 5100000 864000)
            done
        done
    done
}

fig_run() {
    gen_to t.csv mailrelay -D duration="${P_dur}s" || return 1
    set -- $(trace_len t.csv)
    msgs=$1
    if [ "$P_comp" = paper ]; then
        infer convolution t.csv -s mu="${P_mu}s" -s mode=exact -s lag_bound=full --no-assign >r.csv || return 1
    else
        infer convolution t.csv -s mu="${P_mu}s" --no-assign >r.csv || return 1
    fi
    memo truth_path infer truth t.csv -s view=path --no-assign >tp.csv || return 1
    score t.csv r.csv >s.csv || return 1
    score t.csv r.csv --min-instances 100 >s100.csv || return 1
    ip=$(csv_get s.csv inferred_patterns) fp=$(csv_get s.csv pattern_fp)
    ip100=$(csv_get s100.csv inferred_patterns) fp100=$(csv_get s100.csv pattern_fp)
    # true patterns with >= 100 instances, and those convolution missed
    set -- $(awk -F, 'FNR == 1 { f++ } /^#/ || /^rank,/ { next } /^id,/ { skip[f] = 1 } skip[f] { next }
        { p = $2; gsub(/"/, "", p) }
        f == 1 && $3 >= 100 { freq[p] = 1; nf++ }
        f == 2 { got[p] = 1 }
        END { for (p in freq) if (!(p in got)) miss++; printf "%d %d\n", nf, miss }' tp.csv r.csv)
    echo "trace,computation,mu,seed,trace_messages,true_patterns,inferred_patterns,pattern_fp,pattern_fp_rate,inferred_patterns_min100,pattern_fp_min100,pattern_fp_rate_min100,frequent_true,frequent_missed,roots"
    awk -v mu="$P_mu" -v seed="$P_seed" -v m="$msgs" -v tp="$(csv_get s.csv true_patterns)" -v ip="$ip" -v fp="$fp" \
        -v ip1="$ip100" -v fp1="$fp100" -v nf="$1" -v miss="$2" -v roots="$(meta_get r.csv roots | tr ',' ' ')" \
        -v comp="$P_comp" 'BEGIN {
        printf "mailrelay,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", comp, mu, seed, m, tp, ip, fp,
            (ip > 0 ? sprintf("%.6g", fp / ip) : ""), ip1, fp1, (ip1 > 0 ? sprintf("%.6g", fp1 / ip1) : ""), nf, miss, roots }'
}

fig_collect() {
    # per computation and mu, means over seeds: FP rate, FP rate >= 100,
    # frequent missed, frequent true; conv_mail_accuracy.dat is the
    # default computation, conv_mail_paper_accuracy.dat the paper's
    for comp in blocked paper; do
        f="$OUT/${FIG}_accuracy.dat"
        [ $comp = paper ] && f="$OUT/${FIG}_paper_accuracy.dat"
        awk -F, -v comp=$comp '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
            function add(k, v) { if (v != "") { s[k] += v; n[k]++ } }
            $(c["computation"]) != comp { next }
            { m = $(c["mu"]); if (!(m in seen)) { seen[m] = 1; ord[++nm] = m }
              add(m SUBSEP 1, $(c["pattern_fp_rate"])); add(m SUBSEP 2, $(c["pattern_fp_rate_min100"]))
              add(m SUBSEP 3, $(c["frequent_missed"])); add(m SUBSEP 4, $(c["frequent_true"])) }
            function mean(k) { return n[k] ? sprintf("%.6g", s[k] / n[k]) : "NaN" }
            END { print "# mu_s pattern_fp_rate pattern_fp_rate_min100 frequent_missed frequent_true (computation " comp "; means over seeds; NaN: no pattern left)"
                  for (i = 1; i <= nm; i++) { m = ord[i]
                      printf "%s %s %s %s %s\n", m, mean(m SUBSEP 1), mean(m SUBSEP 2), mean(m SUBSEP 3), mean(m SUBSEP 4) } }' \
            "$OUT/$FIG.dat" | sort -g >"$f"
    done
}

pb_main "$@"
