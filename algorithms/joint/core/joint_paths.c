/*
 * joint_paths.c - the output of the joint algorithm: call paths from the
 * chosen parents, aggregated into call-view patterns (the same statistics
 * as nesting: node latency = own time, edge delay = delay from the
 * parent's call, total = the root call's duration), the assignment table
 * and a text report.
 */
#include "joint.h"
#include "joint_int.h"
#include "joint_rules.h"
#include "callview_paths.h"
#include "pb_ptree.h"
#include "pb_strbuf.h"
#include "pb_strtab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

/* A chain of parents that comes back to itself (possible only when clocks
 * disagree across services) is cut at the pair where it closes. */
static size_t break_cycles(joint *s, uint32_t *mark)
{
    size_t cut = 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        mark[p] = 0;
    for (uint32_t p = 0; p < s->npairs; p++) {
        if (mark[p])
            continue;
        uint32_t walk = p + 2, x = p;
        while (x != NONE && !mark[x]) {
            mark[x] = walk;
            x = s->par[x];
        }
        if (x != NONE && mark[x] == walk) {
            /* x closes a cycle of this walk */
            uint32_t q = s->par[x];
            (void)q;
            uint32_t old = s->par[x];
            s->par[x] = NONE;
            kvec *k = &s->kids[old];
            for (uint32_t i = 0; i < k->n; i++)
                if (k->a[i] == x) {
                    memmove(k->a + i, k->a + i + 1, (size_t)(k->n - i - 1) * sizeof *k->a);
                    k->n--;
                    break;
                }
            cut++;
        }
        for (x = p; x != NONE && mark[x] == walk; x = s->par[x])
            mark[x] = 1;
    }
    return cut;
}

static int one_path(joint *s, cvp_ctx *x, uint32_t root, pb_result *res, uint32_t *inst)
{
    int rc;
    const jpair *rp = &s->pr[root];
    if ((rc = cvp_begin(x, rp->caller, rp->callee, root)) != PB_OK)
        return rc;
    uint32_t tn, p;
    while (cvp_next(x, &tn, &p)) {
        const kvec *k = &s->kids[p];
        /* own time: the interval (callee's clock) minus the union of the
         * children's calls (caller's = this callee's clock), clipped */
        const pb_ns a = s->pr[p].cr, b = s->pr[p].rs;
        cvp_cover cov;
        cvp_cover_begin(&cov, a, b);
        for (uint32_t j = 0; j < k->n; j++) {
            uint32_t c = k->a[j];
            if ((rc = cvp_child(x, tn, s->pr[c].callee, c)) != PB_OK)
                return rc;
            cvp_cover_add(&cov, s->pr[c].cs, s->pr[c].rr);
        }
        x->town[tn] = pb_ns_to_sec(b > a ? b - a - cvp_cover_total(&cov) : 0);
    }
    pb_strbuf_reset(&x->text);
    if ((rc = pb_ptree_canonical(&x->tree, s->v.nodes, &x->text, x->order)) != PB_OK)
        return rc;
    for (uint32_t i = 1; i < x->tree.n; i++) {
        uint32_t q = x->tpair[i], pos = x->order[i];
        x->incl[pos] = pb_ns_to_sec(s->pr[q].rr - s->pr[q].cs);
        x->edge[pos] = q == root ? NAN : pb_ns_to_sec(s->pr[q].cs - s->pr[s->par[q]].cr);
    }
    pb_pattern *pat;
    return cvp_record(x, res, pb_strbuf_str(&x->text), inst, &pat);
}

static int report(joint *s, pb_result *res)
{
    pb_strbuf *r = &res->report;
    size_t np = pb_pattab_count(res->patterns);
    size_t top = s->p.top > 0 && (size_t)s->p.top < np ? (size_t)s->p.top : np;
    int rc = pb_strbuf_printf(r, "joint algorithm: %zu patterns; top %zu\n", np, top);
    for (size_t i = 0; i < top && rc == PB_OK; i++) {
        const pb_pattern *pat = pb_pattab_get(res->patterns, i);
        rc = pb_strbuf_printf(r, "#%u %s  count %llu, mean latency %.6gs\n", pat->rank,
                              pat->text, (unsigned long long)pat->count,
                              pat->count ? pat->latency_sum / (double)pat->count : 0.0);
    }
    return rc;
}

typedef struct named {
    const char *name;
    uint32_t node;
} named;

static int cmp_named(const void *x, const void *y)
{
    return strcmp(((const named *)x)->name, ((const named *)y)->name);
}

int joint_paths(joint *s, pb_result *res, pb_error *err)
{
    cvp_ctx x;
    memset(&x, 0, sizeof x);
    int rc = PB_OK;
    /* the metadata text (a line per service and link: 110 MB at 200 k
     * pairs) to a temporary file, not beside the state (core's
     * pb_result_spool_meta; without one it stays in memory: the same file) */
    (void)pb_result_spool_meta(res);
    /* late_trust: held orphans' placements kept only where trusted
     * (joint_latetrust.c); before the paths, which it may change */
    if (joint_lt_decide(s) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    uint32_t *inst = calloc((size_t)s->npairs + 1, sizeof *inst);
    if (!inst)
        rc = PB_ENOMEM;
    size_t cut = 0, roots = 0;
    if (rc == PB_OK)
        cut = break_cycles(s, inst);
    if (inst)
        memset(inst, 0, ((size_t)s->npairs + 1) * sizeof *inst);
    for (uint32_t r = 0; r < s->npairs && rc == PB_OK; r++) {
        if (s->par[r] != NONE)
            continue;
        roots++;
        rc = one_path(s, &x, r, res, res->skip_assign ? NULL : inst);
    }
    /* the links of the assignment table: each message's cause (from the
     * chosen parents) and each pair's confidence (joint_confidence) */
    if (rc == PB_OK && !res->skip_assign) {
        /* the search's scratch let go before the confidence, and the
         * causes' call and return rows freed before it (joint_shed.c) */
        joint_shed_search(s);
        uint32_t *pmsg = NULL, *call = NULL, *ret = NULL;
        double *conf = malloc(((size_t)s->npairs + 1) * sizeof *conf);
        rc = conf ? PB_OK : PB_ENOMEM;
        if (rc == PB_OK) /* late_trust's where it computed them (joint_cftick.c) */
            rc = joint_cf_final_conf(s, conf);
        if (rc == PB_OK) /* conf_late_hidden (joint_cfhidden.c) */
            rc = joint_cf_hidden(s, conf, res);
        joint_shed_memo(s); /* the fits are over (joint_shed.c) */
        /* each message's cause, after the confidence (the peak of the 2 M
         * row: a row a message less there, h262); the confidence reads
         * the pairs and parents, never changes them */
        if (rc == PB_OK) {
            pmsg = malloc((s->v.n ? s->v.n : 1) * sizeof *pmsg);
            call = malloc(((size_t)s->npairs + 1) * sizeof *call);
            ret = malloc(((size_t)s->npairs + 1) * sizeof *ret);
            rc = pmsg && call && ret ? PB_OK : PB_ENOMEM;
        }
        for (uint32_t q = 0; rc == PB_OK && q < s->npairs; q++) {
            call[q] = s->pr[q].call == NONE ? CVP_NONE : s->pr[q].call;
            ret[q] = s->pr[q].ret == NONE ? CVP_NONE : s->pr[q].ret;
        }
        if (rc == PB_OK)
            rc = cvp_causes(s->v.msgs, s->v.n, s->npairs, call, ret, s->par, pmsg);
        free(call);
        free(ret);
        call = ret = NULL;
        if (rc == PB_OK) {
            res->min_confidence = s->p.min_confidence;
            rc = cvp_assign_links(&x, res, s->v.msgs, s->v.n, s->pair_of_msg, inst, pmsg,
                                  conf);
        }
        free(pmsg);
        free(conf);
        if (rc == PB_OK)
            rc = joint_calib_meta(s, res);
        if (rc == PB_OK && s->p.min_confidence > 0)
            rc = pb_result_meta(res, "min_confidence=%g abstained=%zu", s->p.min_confidence,
                                res->nabstain);
    }
    if (rc == PB_OK) {
        cvp_meta_pairing(res, s->calls, s->returns, s->others, s->npairs,
                         s->unmatched_calls, s->unmatched_returns, s->repeated);
        pb_result_meta(res, "half_pairs_call=%zu", s->halves_call);
        pb_result_meta(res, "half_pairs_return=%zu", s->halves_ret);
        if (s->uncross_rounds) /* only under loss (joint_uncross.c) */
            pb_result_meta(res, "uncross_passes=%zu uncross_exchanges=%zu uncross_moved=%zu "
                           "uncross_gain=%.3f uncross_scored=%zu uncross_capped=%zu",
                           s->uncross_rounds, s->uncross_exchanges, s->uncross_moved,
                           s->uncross_gain, s->uncross_scored, s->uncross_capped);
        if (rc == PB_OK)
            rc = joint_lser_meta(s, res); /* loss_serial (joint_lserial.c) */
        if (s->uxc_kept + s->uxc_undone) /* joint_uxcheck.c */
            pb_result_meta(res, "uncross_check=on uncross_search_kept=%zu "
                           "uncross_search_undone=%zu uncross_heldout_before=%.3f "
                           "uncross_heldout_after=%.3f", s->uxc_kept, s->uxc_undone,
                           s->uxc_ll[0], s->uxc_ll[1]);
        if (s->reunp_moved || s->reunp_capped) /* only under loss (joint_reunp.c) */
            pb_result_meta(res, "reunp_moved=%zu reunp_capped=%zu", s->reunp_moved,
                           s->reunp_capped);
        joint_reunp_meta(s, res);
        joint_unpck_meta(s, res);
        joint_unpp_meta(s, res);
        pb_result_meta(res, "align_links=%zu align_unpaired=%zu", s->align.links,
                       s->align.skipped);
        /* align_starts=2: the links the second start decided */
        if (s->p.align_starts == 2)
            pb_result_meta(res, "align_starts=2 links_from_fifo_start=%zu",
                           s->align.fifo_start_kept);
        for (size_t r = 0; r < s->nalign_rec; r++) {
            const joint_align_info *in = &s->align_rec[r].info;
            pb_result_meta(res, "align_link=%s>%s calls=%zu returns=%zu crossing_first=%zu "
                           "crossing_aligned=%zu cost_first=%.1f cost_aligned=%.1f chosen=%s%s",
                           pb_strtab_str(s->v.nodes, s->align_rec[r].caller),
                           pb_strtab_str(s->v.nodes, s->align_rec[r].callee), in->calls,
                           in->returns, in->cross_first, in->cross_nest, in->cost_first,
                           in->cost_nest, in->realigned ? "aligned" : "first",
                           s->align_rec[r].callee_side ? " test=callee" : "");
        }
        for (size_t r = 0; r < s->nunp_rec; r++) {
            const joint_unp_rec *u = &s->unp_rec[r];
            pb_result_meta(res, "unpaired_link=%s>%s calls=%zu returns=%zu "
                           "unpaired_first=%zu+%zu unpaired_priced=%zu+%zu cost_first=%.1f "
                           "cost_priced=%.1f overtaken=%.3f order_p=%.3g chosen=%s",
                           pb_strtab_str(s->v.nodes, u->caller),
                           pb_strtab_str(s->v.nodes, u->callee), u->calls, u->returns,
                           u->unpaired_calls0, u->unpaired_returns0, u->unpaired_calls,
                           u->unpaired_returns, u->cost_before, u->cost_after, u->overtaken,
                           u->order_p,
                           u->failed       ? "first_flow_failed"
                           : u->changed && s->unpck == 1 ? "priced_declined"
                           : u->changed    ? "priced"
                           : u->in_order && (s->p.unpaired == 1 || s->p.unpaired == 3)
                               ? "first_in_order"
                               : "first");
            if (u->moved) { /* the changed messages' ids (a second search's seeds) */
                pb_strbuf b = {0};
                for (size_t i = 0; i < u->changed; i++)
                    pb_strbuf_printf(&b, "%s%llu", i ? "," : "", (unsigned long long)u->moved[i]);
                pb_result_meta(res, "unpaired_moved=%s>%s ids=%s",
                               pb_strtab_str(s->v.nodes, u->caller),
                               pb_strtab_str(s->v.nodes, u->callee), pb_strbuf_str(&b));
                pb_strbuf_free(&b);
            }
        }
        if (s->nunp_rec)
            pb_result_meta(res, "unpaired_links=%zu unpaired_changed=%zu searched_again=%d "
                           "loss_rate=%.4f price=%.2f",
                           s->nunp_rec, s->unp_changed, s->unp_rerun, s->unp_rec[0].q,
                           s->unp_rec[0].price);

        pb_result_meta(res, "links=%u", s->nlinks);
        pb_result_meta(res, "candidate_parents=%zu", s->ncand);
        if (s->cg_unknown)
            pb_result_warn(res, "callgraph=%s: %zu names are no node of the trace "
                           "(the first: \"%s\", line %ld): ignored; a typo?", s->p.callgraph, s->cg_unknown,
                           s->cg_first, s->cg_first_line);
        if (s->cg_nolink)
            pb_result_warn(res, "callgraph=%s: %zu lines name a caller and service "
                           "that never call each other in the trace: they allow "
                           "nothing", s->p.callgraph, s->cg_nolink);
        if (s->capped_calls && s->p.cand_ends)
            pb_result_warn(res, "%zu calls had more than max_candidates=%d "
                           "candidate parents (up to %zu requests in flight "
                           "enclosing one call); only the %d latest-started and the "
                           "%d earliest-ending were considered; raise the cap with "
                           "-s max_candidates=N",
                           s->capped_calls, s->p.max_cand, s->capped_max,
                           s->p.max_cand - s->p.max_cand / 2, s->p.max_cand / 2);
        else if (s->capped_calls)
            pb_result_warn(res, "%zu calls had more than max_candidates=%d "
                           "candidate parents (up to %zu requests in flight "
                           "enclosing one call); only the %d latest-started were "
                           "considered; raise the cap with -s max_candidates=N",
                           s->capped_calls, s->p.max_cand, s->capped_max,
                           s->p.max_cand);
        else if (s->capped_ever)
            pb_result_warn(res, "up to %zu calls had more than max_candidates=%d "
                           "candidate parents in an earlier pass of the candidates (up to "
                           "%zu requests enclosing one call), none in the last; raise the "
                           "cap with -s max_candidates=N",
                           s->capped_ever, s->p.max_cand, s->capped_ever_max);
        /* rules that left a call where the search had it, said once with the
         * result (the library never prints) */
        if (s->tickx_kept)
            pb_result_warn(res, "tick_fifo: %u calls kept their request: the tick "
                           "order's request neither a candidate nor enclosing them "
                           "at the tick", s->tickx_kept);
        if (s->tset_missed)
            pb_result_warn(res, "tie_sets=3: %zu calls put back without their "
                           "parent (no longer a candidate)", s->tset_missed);
        if (s->unpm_on < 0)
            pb_result_warn(res, "unp_pieces: %u of %u pieces taken, but a pair crossed a "
                           "piece's border: no merge, the first search is output",
                           s->unpp_taken, s->unpp_n);
        if (s->unpm_addcand)
            pb_result_warn(res, "unp_pieces: the merge kept %zu parents the merged set-up "
                           "did not find as candidates", s->unpm_addcand);
        joint_tieorder_meta(s, res); /* order_cross (joint_tieorder.c) */
        pb_result_meta(res, "nested_pairs=%zu", s->nested);
        pb_result_meta(res, "ambiguous_pairs=%zu", s->ambiguous);
        pb_result_meta(res, "mean_parallelism=%.3f",
                       s->nested ? (double)s->ncand / (double)s->nested : 0.0);
        pb_result_meta(res, "densities=%u", s->nkeys);
        pb_result_meta(res, "delay_floor_ns=%.0f", s->dmin);
        joint_select_meta(s, res); /* the signals chosen per service (joint_select.c) */
        /* the order of service per endpoint: what was chosen and on what
         * evidence (order=auto: the test on the solution without the term) */
        for (uint32_t l = 0; l < s->nlinks; l++) {
            const double *op = s->ord_p ? s->ord_p + 3 * (size_t)l : NULL;
            double n = op ? op[1] : s->ord_n[l], k = op ? op[2] : s->ord_k[l];
            if (n <= 0)
                continue;
            const double *sv = s->svc_ord ? s->svc_ord + 3 * (size_t)s->link_src[l] : NULL;
            int by_svc = sv && sv[0] < JOINT_ORDER_ALPHA;
            int by_link = op && op[1] > 0 && op[0] < JOINT_ORDER_ALPHA;
            const char *why = s->order_mode == 1 ? "order=on"
                              : s->order_mode == 0 ? "order=off"
                              : by_svc && by_link  ? "responses_in_order+calls_in_order"
                              : by_svc             ? "responses_in_order"
                              : by_link            ? "calls_in_order"
                                                   : "order_not_shown";
            pb_result_meta(res, "order_link=%s>%s order=%s reason=%s in_question=%.0f "
                           "inverted=%.0f test_p=%.3g",
                           pb_strtab_str(s->v.nodes, s->link_src[l]),
                           pb_strtab_str(s->v.nodes, s->link_dst[l]),
                           s->order_mode == 1 || (s->ord_on && s->ord_on[l]) ? "on" : "off",
                           why, n, k, op ? op[0] : NAN);
        }
        /* per service (by name: node numbers follow the reading order) */
        named *byname = s->svc_ord ? malloc(((size_t)s->nnodes + 1) * sizeof *byname) : NULL;
        if (byname) {
            for (uint32_t a = 0; a < s->nnodes; a++)
                byname[a] = (named){pb_strtab_str(s->v.nodes, a), a};
            pb_sort(byname, s->nnodes, sizeof *byname, cmp_named);
            for (uint32_t i = 0; i < s->nnodes; i++) {
                uint32_t a = byname[i].node;
                if (s->svc_ord[3 * a + 1] > 0)
                    pb_result_meta(res, "order_service=%s order=%s overlapping_requests=%.0f "
                                   "answered_out_of_order=%.0f test_p=%.3g",
                                   pb_strtab_str(s->v.nodes, a),
                                   s->svc_ord[3 * a] < JOINT_ORDER_ALPHA ? "on" : "off",
                                   s->svc_ord[3 * a + 1], s->svc_ord[3 * a + 2], s->svc_ord[3 * a]);
            }
            free(byname);
        }
        /* calls that outlive their request: per service with calls no
         * request encloses, the test and what it chose (joint_late.c) */
        for (uint32_t a = 0; s->late_stat && a < s->nnodes; a++) {
            const double *st = s->late_stat + JOINT_LATE_NSTAT * (size_t)a;
            if (st[0] > 0) {
                int on = s->late_gap && s->late_gap[a] >= 0;
                char sg[192] = "";
                if (on) /* the send side (joint_latesend.c) */
                    snprintf(sg, sizeof sg, " send_gap_ns=%.0f excess=%.2f widen=%s", st[5],
                             st[6], st[7] > 0 ? "all" : "orphans");
                if (on && s->p.late_split) {
                    size_t l = strlen(sg);
                    snprintf(sg + l, sizeof sg - l, " sent_inside=%.0f busy=%.4f inside_p=%.3g",
                             st[8], st[9], st[10]);
                }
                pb_result_meta(res, "late_service=%s late=%s orphan_calls=%.0f near_requests=%.0f "
                               "chance=%.4f gap_ns=%.0f test_p=%.3g%s",
                               pb_strtab_str(s->v.nodes, a), on ? "on" : "off", st[0], st[1],
                               st[2], st[3], st[4], sg);
            }
        }
        /* links of passing services whose calls are mostly orphans: every
         * call of them gets the requests it was sent in (joint_latesend.c) */
        for (uint32_t l = 0; s->late_lshare && l < s->nlinks; l++)
            if (s->late_gap[s->link_src[l]] >= 0 && s->late_lshare[l] >= 0.5)
                pb_result_meta(res, "late_link=%s>%s orphan_share=%.4f widen=all",
                               pb_strtab_str(s->v.nodes, s->link_src[l]),
                               pb_strtab_str(s->v.nodes, s->link_dst[l]), s->late_lshare[l]);
        joint_late_widen_meta(s, res); /* late_widen_z (joint_latewiden.c) */
        joint_late_ties_meta(s, res); /* late_excess_ties (joint_lateexties.c) */
        joint_late_learn_meta(s, res); /* late_tie_learn (joint_latelearn.c) */
        joint_late_ends_meta(s, res);  /* late_ends (joint_lateends.c) */
        if (s->late_gap && s->late_tied)
            pb_result_meta(res, "late_tie_share=on tied_calls=%zu orphan_weight=%.2f tick_ns=%lld",
                           s->late_tied, s->late_tied_w, (long long)s->tick);
        if (s->late_gap)
            pb_result_meta(res, "late_calls_widened=%zu", s->late_cands);
        if (s->la_held)
            pb_result_meta(res, "late_attach=%u rounds=%u moved_after_refit=%u left_roots=%u",
                           s->la_held, s->la_rounds, s->la_moved, s->la_rooted);
        joint_lt_meta(s, res); /* joint_latetrust.c */
        joint_lc_meta(s, res); /* joint_latecount.c */
        joint_os_meta(s, res); /* out_sets (joint_oset.c) */
        joint_resolve_meta(s, res); /* resolve_local (joint_resolve.c) */
        joint_lsdirty_meta(s, res); /* ls_dirty_solve (joint_lsdirty.c) */
        joint_rpinc_meta(s, res); /* repair_incr (joint_rpinc.c) */
        joint_gdamp_meta(s, res); /* greedy_damp (joint_rpdamp.c) */
        if (s->rop_solves) /* repair_open_passes (joint_repair.c) */
            pb_result_meta(res, "repair_open_passes=%d open_solves_capped=%zu",
                           s->p.repair_open_passes, s->rop_solves);
        /* without call ids: which links keep their time-ordered pairs */
        for (uint32_t l = 0; s->fifo_stat && l < s->nlinks; l++) {
            const double *st = s->fifo_stat + 10 * (size_t)l;
            const char *why = !s->p.fifo                ? "fifo=0"
                              : s->fifo_link[l]          ? "busy_starts_like_idle"
                              : joint_fifolifo_withdrawn(s, l) ? "lifo_tighter_than_service"
                              : st[0] == -2             ? "lost_messages_first_in_first_out"
                              : st[0] < 0               ? "pairs_not_in_order"
                              : st[1] < JOINT_FIFO_BUSY || st[2] < JOINT_FIFO_MIN
                                  ? "too_few_starts"
                              : s->fifo_svc[3 * (size_t)s->link_dst[l] + 1] > 0 &&
                                        s->fifo_svc[3 * (size_t)s->link_dst[l] + 2] >
                                            JOINT_FIFO_MISMATCH *
                                                s->fifo_svc[3 * (size_t)s->link_dst[l] + 1]
                                  ? "callers_answered_out_of_order"
                              : st[4] < JOINT_FIFO_KS && fabs(st[3] - 0.5) < JOINT_FIFO_AUC
                                  ? "service_time_depends_on_waiting"
                                  : "busy_starts_differ";
            pb_result_meta(res, "fifo_link=%s>%s fifo=%s reason=%s busy_starts=%.0f "
                           "idle_starts=%.0f auc=%.3f ks_upper=%.3f median_waiting=%.0f "
                           "auc_waiting=%.3f ks_upper_waiting=%.3f auc_calls=%.3f ks_upper_calls=%.3f",
                           pb_strtab_str(s->v.nodes, s->link_src[l]),
                           pb_strtab_str(s->v.nodes, s->link_dst[l]),
                           s->fifo_link[l] ? "on" : "off", why, st[1], st[2], st[3], st[4], st[5],
                           st[6], st[7], st[8], st[9]);
        }
        joint_fifolifo_meta(s, res); /* fifo_lifo (joint_fifolifo.c) */
        /* without call ids: how often each link's answers overtake, and
         * which search was kept (pair_order=auto) */
        if (s->pord_chosen && s->pwin.decision && !s->pwin.full_kind) /* joint_pwin.c */
            pb_result_meta(res, "pair_order=auto chosen=%s decided_on=window "
                           "log_likelihood_%s=%.3f with_order_%s=%.3f",
                           s->pord_chosen == 2 ? "held" : "free",
                           s->pord_chosen == 2 ? "held" : "free",
                           s->pord_ll[s->pord_chosen == 2], s->pord_chosen == 2 ? "held" : "free",
                           s->pord_ll[2 + (s->pord_chosen == 2)]);
        else if (s->pord_chosen && !joint_heldskip_meta(s, res)) /* joint_heldskip.c */
            pb_result_meta(res, "pair_order=auto chosen=%s log_likelihood_free=%.3f "
                           "log_likelihood_held=%.3f with_order_free=%.3f with_order_held=%.3f",
                           s->pord_chosen == 2 ? "held" : "free", s->pord_ll[0], s->pord_ll[1],
                           s->pord_ll[2], s->pord_ll[3]);
        joint_heldlocal_meta(s, res); /* joint_heldlocal.c */
        for (uint32_t l = 0; (s->rord || s->pord_stat) && l < s->nlinks; l++) {
            double n, k;
            int on;
            joint_rord_stats(s, l, &n, &k, &on);
            if (!on)
                continue;
            pb_result_meta(res, "pair_order_link=%s>%s order=%s in_question=%.0f "
                           "overtaken=%.0f overtake_rate=%.4f",
                           pb_strtab_str(s->v.nodes, s->link_src[l]),
                           pb_strtab_str(s->v.nodes, s->link_dst[l]),
                           s->pord_hold ? "held" : "free", n, k, (k + 1) / (n + 2));
        }
        joint_pick_meta(s, res); /* the busy test (pair_order=auto) */
        joint_partial_meta(s, res); /* its third search (joint_partial.c) */
        joint_pwin_meta(s, res); /* pair_window (joint_pwin.c) */
        joint_quant_meta(s, res); /* the tie test (joint_quant.c) */
        joint_tiecross_meta(s, res); /* tie_cross (joint_tiecross.c) */
        joint_tieorph_meta(s, res); /* tie_orphans (joint_tieorph.c) */
        joint_roworph_meta(s, res); /* tie_orphans_rows (joint_roworph.c) */
        joint_tieset_meta(s, res); /* tie_sets (joint_tieset.c) */
        joint_tiesearch_meta(s, res); /* tie_sets_search (joint_tiesearch.c) */
        joint_tiekeep_meta(s, res); /* tie_keep_choice (joint_tiekeep.c) */
        joint_subtick_meta(s, res); /* the rows within a tick (joint_subtick.c) */
        joint_rowtie_meta(s, res); /* tie_rows (joint_rowtie.c) */
        joint_thread_meta(s, res); /* thread_bound (joint_thread.c) */
        joint_tickx_meta(s, res); /* tick_fifo (joint_tickx.c) */
        joint_tick0_meta(s, res); /* zero-tick delays (joint_tick0.c) */
        joint_tickivl_meta(s, res); /* whole-tick intervals (joint_tickivl.c) */
        joint_tiecall_meta(s, res); /* calls tied at send (joint_tiecall.c) */
        joint_serial_meta(s, res); /* parallel_check (joint_serial.c) */
        /* per service with several callers: the order of its answers */
        for (uint32_t a = 0; s->fifo_svc && a < s->nnodes; a++) {
            const double *sv = s->fifo_svc + 3 * (size_t)a;
            if (sv[1] > 0)
                pb_result_meta(res, "fifo_service=%s callers=%.0f returns=%.0f "
                               "not_to_caller_of_same_rank=%.0f callers_in_calling_order=%s",
                               pb_strtab_str(s->v.nodes, a), sv[0], sv[1], sv[2],
                               sv[2] > JOINT_FIFO_MISMATCH * sv[1] ? "no" : "yes");
        }
        pb_result_meta(res, "clean_requests=%zu", s->nclean);
        pb_result_meta(res, "matching_rounds=%d", s->rounds);
        pb_result_meta(res, "matching_changes=%zu", s->changes);
        pb_result_meta(res, "flows=%zu", s->flows);
        pb_result_meta(res, "flow_failures=%zu", s->flow_failures);
        pb_result_meta(res, "largest_component=%zu", s->largest);
        pb_result_meta(res, "search_passes=%d", s->lpasses);
        pb_result_meta(res, "search_moves=%zu", s->moves);
        pb_result_meta(res, "search_swaps=%zu", s->swaps);
        pb_result_meta(res, "return_swaps=%zu", s->ret_swaps);
        pb_result_meta(res, "returns_repaired=%zu", s->repaired);
        pb_result_meta(res, "log_likelihood=%.6f", joint_llkeep_loglik(s)); /* joint_llkeep.c */
        pb_result_meta(res, "cycles_broken=%zu", cut);
        pb_result_meta(res, "paths=%zu", roots);
        pb_result_meta(res, "resplit_capped=%zu", s->resplit_capped);
        pb_result_meta(res, "resplit_local=%zu", s->resplit_local);
        pb_result_meta(res, "resplit_estimated=%zu resplit_pruned=%zu", s->est_evals,
                       s->est_pruned);
        pb_result_meta(res, "resplit_memo_hits=%zu", s->lsm_hits);
        pb_result_meta(res, "resplit_wcache_hits=%zu", s->wc_hits);
        pb_result_meta(res, "order_bound_skipped=%zu order_bound_swaps_skipped=%zu",
                       s->ordb_est, s->ordb_swap);
        pb_result_meta(res, "resplit_bound_scored=%zu resplit_bound_cut=%zu", s->bnb_scored,
                       s->bnb_cut);
        {
            size_t rw = 0, ww = 0, sk = 0;
            joint_ff_counts(s, &rw, &ww, &sk); /* fit_fast, select_share (joint_fitfast.c) */
            pb_result_meta(res, "fit_walks_replayed=%zu fit_walks=%zu fit_unchanged=%zu "
                           "select_shared=%d", rw, ww, sk, s->select_shared);
        }
        pb_result_meta(res, "parallel_sweeps=%zu parallel_adds=%zu", s->par_sweeps,
                       s->par_adds); /* joint_model.c par_sweep */
        joint_partie_meta(s, res); /* par_tie: a line only where it is on */
        if (joint_xwalk_used(s)) /* joint_xwalk.c: a line only where it fired */
            pb_result_meta(res, "swap_top_resumed=%zu", joint_xwalk_used(s));
        if (joint_xtail_used(joint_xwalk_tail(s))) /* joint_xtail.c: only where it fired */
            pb_result_meta(res, "swap_tail_sums=%zu", joint_xtail_used(joint_xwalk_tail(s)));
        if (s->restart)
            pb_result_meta(res, "second_start=%s log_likelihood_rank=%.3f "
                                "log_likelihood_earliest=%.3f",
                           s->restart == 2 ? "kept" : "rejected", s->ll_first, s->ll_second);
        else
            pb_result_meta(res, "second_start=none");
        if (s->p.late_chance && s->late_lshare) /* late_chance (joint_lchance.c) */
            pb_result_meta(res, "late_chance_links=%u", s->lch_links);
        for (uint32_t l = 0; s->lch_stat && s->late_lshare && l < s->nlinks; l++) {
            /* late_chance=2: each link judged, its orphans' weight, their
             * own chance of enclosure and the late share they estimate */
            const double *st = s->lch_stat + JOINT_LCH_NSTAT * (size_t)l;
            if (st[0] >= 0)
                pb_result_meta(res, "late_chance_link=%s>%s orphans=%.1f orphan_enclosure=%.4f "
                                    "late_share=%.4f widen=%s",
                               pb_strtab_str(s->v.nodes, s->link_src[l]),
                               pb_strtab_str(s->v.nodes, s->link_dst[l]), st[0], st[1], st[2],
                               st[2] >= 0.5 ? "all" : "orphans");
        }
        if (s->recur_cyc) /* recur_cycle (joint_rcycle.c): only where a cycle exists */
            pb_result_meta(res, "recur_cycle=%u", s->recur_cyc);
        if (s->recur_svcs || s->recur_cyc) /* recur_inner (joint_recur.c): only where a service calls itself */
            pb_result_meta(res, "recur_inner=%s services=%u log_likelihood_first=%.3f "
                                "log_likelihood_inner=%.3f",
                           s->recur_state == 2   ? "kept"
                           : s->recur_state == 1 ? "rejected"
                                                 : "off",
                           s->recur_svcs, s->recur_ll[0], s->recur_ll[1]);
        rc = pb_result_meta(res, "patterns=%zu", pb_pattab_count(res->patterns));
    }
    size_t fifo = 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        fifo += s->free_ret[p];
    if (rc == PB_OK && fifo && s->repeated)
        rc = pb_result_warn(res, "%zu calls paired with their returns %s (no call ids; "
                                 "%zu pairings were ambiguous; %zu returns "
                                 "moved by re-pairing, %zu exchanged afterwards); importtrace "
                                 "--callid gives exact pairs",
                            fifo, s->p.align ? "in call order, letting messages be lost"
                                             : "first in, first out",
                            s->repeated, s->repaired, s->ret_swaps);
    if (rc == PB_OK && s->align.window_cut)
        rc = pb_result_warn(res, "%zu returns could not reach the call first in, first out "
                                 "gives them (window of the in-order pairing)",
                            s->align.window_cut);
    if (rc == PB_OK && s->uncross_capped)
        rc = pb_result_warn(res, "uncross left %zu pairs of requests unscored (its work cap: "
                            "%d moves scored per call pair of the trace)", s->uncross_capped,
                            JOINT_UNCROSS_WORK);
    if (rc == PB_OK && s->reunp_capped)
        rc = pb_result_warn(res, "reunp left %zu calls without a return unweighed (its work "
                            "cap: %d greedy steps per call of a link)", s->reunp_capped,
                            JOINT_REUNP_WORK);
    if (rc == PB_OK && s->halves_call + s->halves_ret)
        rc = pb_result_warn(res, "%zu calls without a return and %zu returns without "
                                 "a call kept as half pairs",
                            s->halves_call, s->halves_ret);
    if (rc == PB_OK && s->resplit_capped)
        rc = pb_result_warn(res, "%zu re-splits of two requests left calls out "
                                 "(more than %d shared calls; %d for large requests)",
                            s->resplit_capped, JOINT_RESPLIT_MAX, JOINT_RESPLIT_LOCAL);
    if (rc == PB_OK && s->resplit_local)
        rc = pb_result_warn(res, "%zu re-splits of two large requests searched by moves "
                                 "and exchanges instead of every split",
                            s->resplit_local);
    if (rc == PB_OK && cut)
        rc = pb_result_warn(res, "%zu cycles of parents cut (inconsistent clocks?)", cut);
    if (rc == PB_OK) {
        pb_pattab_rank(res->patterns, res->rank_by);
        rc = report(s, res);
    }
    free(inst);
    cvp_free(&x);
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory building call paths");
    return PB_OK;
}
