# joint_crossings.awk - evaluation only (reads the truth's cause column):
# per link, the pairs of calls that crossed in flight (the later-sent one
# received first on the callee's clock) and whether their answers left in
# send or in receive order (pairs within 40 calls of each other;
# docs/joint/systems.md, "The stress audit's eBPF and TrainTicket
# quarter rows").  Never an input of an algorithm.
#   awk -f experiments/joint_crossings.awk [-v verbose=1] TRACE.csv
# TRACE's rows in time order, as maketrace and importtrace write them.
BEGIN{FS=","}
/^#/{next}
!h{for(i=1;i<=NF;i++)c[$i]=i; h=1; next}
{ id=$c["id"]; if ($c["type"]=="call") { n++; cid[n]=id; src[id]=$c["src"]; dst[id]=$c["dst"]; ts[id]=$c["ts"]+0; rt[id]=($c["recv_ts"]==""?$c["ts"]:$c["recv_ts"])+0 }
  else if ($c["type"]=="return") { ans[$c["cause"]]=$c["ts"]+0 } }
END{
  # for each pair of calls on the same link with send gap < W and reversed receive order
  for (i=1;i<=n;i++) { a=cid[i]; for (j=i+1;j<=n && j<=i+40;j++) { b=cid[j]; if (src[a]!=src[b]||dst[a]!=dst[b]) continue;
     if (!(a in ans) || !(b in ans)) continue
     sa=ts[a]; sb=ts[b]; if (sb<sa) { t=a;a=b;b=t; sa=ts[a]; sb=ts[b] }
     if (rt[b] < rt[a]) { k=src[a]">"dst[a]; tot[k]++; if (ans[a]<ans[b]) snd[k]++; else rcv[k]++
        if (verbose) printf "%s %s %s sendgap=%.1fus recvgap=%.1fus ans=%s\n", k, a, b, (sb-sa)*1e6, (rt[a]-rt[b])*1e6, (ans[a]<ans[b]?"send":"recv") }
     a=cid[i] } }
  for (k in tot) printf "%s crossings=%d answered_in_send_order=%d in_receive_order=%d\n", k, tot[k], snd[k]+0, rcv[k]+0
}
