/*
 * joint.h - pathbench's own black-box request reconstruction in the call
 * view (docs/joint.md): every call is ascribed to one request served by its
 * caller whose interval (on the caller's own clock) contains it; the
 * choice is the maximum-likelihood joint assignment under a model learned
 * from the trace itself (per-service delay densities from each request's
 * latest earlier event, and per-endpoint call counts), found by alternating
 * refits with reassignment rounds (greedy, or min-cost flow through GLPK)
 * and an exact local search that re-splits the calls of competing
 * requests.
 *
 * `infer --algo joint` runs it through pb_algo_joint (pb_algo.h).  The
 * step-by-step API below exists so tests can look inside.
 */
#ifndef JOINT_H
#define JOINT_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_opt.h"
#include "pb_result.h"
#include "pb_trace.h"

#define JOINT_NONE UINT32_MAX

/* Parameters (option names in brackets). */
typedef struct joint_params {
    int iters;          /* [iters] refit + matching rounds, 4 */
    int passes;         /* [passes] local-search passes, 4 */
    double bin;         /* [bin] density bin width, decades of delay, 0.02 */
    double bw_min;      /* [bw_min] least kernel width, bins, 1.5 */
    double floor;       /* [floor] background weight of every density, 1e-3 */
    double alpha;       /* [alpha] pseudo-count of the call-count model, 0.1 */
    pb_ns slack;        /* [slack] containment tolerance on one clock, 0 */
    pb_ns early;        /* [early] a return may precede its call by this, 10ms */
    int halves;         /* [halves] keep unmatched calls / returns, 1 */
    int swap_rounds;    /* [swap_rounds] return exchanges without call ids, 2 */
    int repair;         /* [repair] re-pairing rounds without call ids, 2 */
    const char *order;  /* [order] order-of-service term: off, on (every endpoint)
                           or auto (endpoints that pass the order test), "auto" */
    const char *callers; /* [callers] densities and counts of a service with several
                            callers: keyed, pooled or auto (held-out likelihood per
                            service, which also chooses counts and durations), "auto" */
    double parallel;    /* [parallel] overlap fraction making a return no trigger, 0.8 */
    int fifo;           /* [fifo] without call ids, keep the first-in-first-out
                           pairs of links that pass the busy-start test, 1 */
    const char *pair_order; /* [pair_order] without call ids, the order of answers
                           and calls: auto (two searches, the likelier kept), on
                           (held) or off (free), "auto" */
    int callids;        /* [callids] pair calls and returns by call id, 1 */
    int corr;           /* [corr] correlated call durations without call ids, 1 */
    int align;          /* [align] without call ids, the most likely in-order
                           pairing that lets messages be lost (joint_align.c), 1 */
    double align_nest;  /* [align_nest] nats for a pair without call ids that
                           spans a moment its caller served no request
                           (the nesting test, joint_align.c); 0 = off, 8 */
    int align_starts;   /* [align_starts] the alignment's starts: 1 the
                           last-in-first-out durations, 2 also first in, first out's
                           (kept when cheaper and crossing no more idle moments;
                           joint_align.c), 1 */
    int unpaired;       /* [unpaired] without call ids, on re-paired links that lost
                           messages and answer out of order, choose the messages left
                           unpaired by a min-cost pairing priced by the loss rate
                           (joint_unpaired.c); 1 links out of order, 2 every one,
                           3 as 1, checked (joint_unpck.c), 0 off; 1 (h199) */
    int unp_pieces;     /* [unp_pieces] with unpaired=1: the second search decided
                           piece by piece (joint_unppiece.c), 0 off; 1 */
    int unp_win;        /* [unp_win] with unp_pieces: the second search on a window
                           around the changed messages (joint_unpwin.c), 0 off; 2 */
    int unp_flow;       /* [unp_flow] unpaired's min-cost pairing: 0 out-of-kilter,
                           1 successive shortest paths (joint_unpflow.c), 2 the
                           same on a zone around the unpaired messages; 2 */
    int unp_flow_hops;  /* [unp_flow_hops] unp_flow=2: the zone paired again, this
                           many steps of the arc graph from the unpaired messages, 4 */
    int unp_copy_taken; /* [unp_copy_taken] the self-calibration copy: only messages
                           of the real trace's taken pieces seed the flow, 1 */
    int unp_flow_span;  /* [unp_flow_span] unp_flow=2: the zone cut to this many calls /
                           returns of its seeds in time order (joint_unpaired.c), 8 */
    double unp_win_pad; /* [unp_win_pad] the window: a seed request's span widened
                           by this times its length on each side, 1 */
    double unp_cand_pad; /* [unp_cand_pad] unp_win=2: the seed span widened by this
                            many times its length (joint_unpwin.c) */
    int unp_win_one;    /* [unp_win_one] unp_win: the window searched with the first
                           search's free / held choice only (joint_unpwin.c) */
    int uncross;        /* [uncross] under loss, exchange the tails or heads of two
                           competing requests a half pair touches when that makes
                           them likelier (joint_uncross.c), 1 */
    double uncross_min; /* [uncross_min] nats such a move must gain, 1.9207 */
    int loss_serial;    /* [loss_serial] under loss with call ids, a term per output:
                           sent while an earlier call of its request is out
                           (joint_lserial.c), 1; 3, 4: also with call ids
                           without loss on links a test calls serial; 7:
                           4's search kept where the model prefers it; 8
                           (default): cross-fitted, gated */
    double loss_serial_gate; /* [loss_serial_gate] loss_serial=8: the second search
                           only where at least this share of the requests holds
                           a stacked call on a serial link (joint_lserial.c), 0.1 */
    int loss_serial_win; /* [loss_serial_win] loss_serial=8's second search from
                           the first solution, re-splitting only the stacked
                           calls' window (joint_lserwin.c) */
    int loss_serial_win_mult; /* [loss_serial_win_mult] the window's rounds and
                           passes, times iters and passes (joint_lserwin.c) */
    int loss_serial_greedy; /* [loss_serial_greedy] the greedy round's costs
                           include loss_serial's term (joint_lserial.c): 1
                           always, 2 only without loss (default) */
    int uncross_check;  /* [uncross_check] the search after a pass of uncross kept
                           only when a cross-fitted likelihood prefers its
                           result (joint_uxcheck.c), 1 */
    int reunp;          /* [reunp] without call ids, the re-pairing weighs which calls
                           keep no return (joint_reunp.c): 0 off, 1 on, 2 checked
                           on a copy (joint_reunpck.c), 0 */
    const char *matching; /* [matching] greedy or flow, "greedy" */
    const char *start;  /* [start] first assignment: rank, local or earliest, "rank" */
    int restart;        /* [restart] second solve from the earliest start when the rank
                           start's one call per request is refuted, 1 */
    const char *callgraph; /* [callgraph] file of allowed calls, "" = learn */
    int top;            /* [top] patterns in the text report, 20 */
    int max_cand;       /* [max_candidates] candidate parents one call may
                           have (the latest-started kept), 32 */
    int cand_ends;      /* [cand_ends] where max_candidates cuts, half the places to the
                           latest-started, half to the earliest-ending (joint_candends.c), 1 */
    double min_confidence; /* [min_confidence] leave calls linked below this
                              confidence unattached (abstain), 0 */
    int prune;          /* [resplit_prune] the re-split scores a split in full only when its
                           estimate can beat the best (same results, faster), 1 */
    int bound;          /* [resplit_bound] the exhaustive re-split of two small requests
                           leaves out every subtree of splits an upper bound shows
                           cannot win (same results, faster), 1 */
    int fit_fast;       /* [fit_fast] a refit computes each changed density over the
                           bins its smoothing reaches only (same results, faster;
                           joint_fitfast.c), 1 */
    int select_share;   /* [select_share] the held search takes the free search's
                           per-service signal choice when joint_select's input is
                           the same (same results, faster; joint_fitfast.c), 1 */
    int swap_bound;     /* [swap_bound] the exchanges' re-split of two small requests by
                           branch and bound, as resplit_bound (same results, faster), 1 */
    int swap_floor;     /* [swap_floor] the top re-split of an exchange of returns
                           scores only splits above what the exchange must gain
                           (same results, faster; joint_xfloor.c), 1 */
    int swap_memo;      /* [swap_memo] within one pass of exchanges a request's own
                           log-likelihood is walked once until an exchange is
                           applied (same results, faster; joint_xfloor.c), 1 */
    int greedy_cut;     /* [greedy_cut] the greedy round scores a candidate in one pass
                           over its calls, the trigger search stopping at the first
                           call sent after the one placed (same results, faster), 1 */
    int resplit_memo;   /* [resplit_memo] the local search's estimate of a request
                           without one call, kept across the pairs of requests while
                           that request is unchanged (same results, faster), 1 */
    int resplit_wcache; /* [resplit_wcache] the local search's fresh walk of a request's
                           current kid list kept across the pairs of requests while
                           the list is the same (same results, faster), 1 */
    int greedy_tcache;  /* [greedy_tcache] the greedy round keeps each candidate slot's
                           trigger search across the refits of one search while the
                           request is unchanged (same results, faster; with
                           greedy_cut); 2: only up to JOINT_TCACHE_AUTO_SLOTS
                           candidate slots (memory), 2 */
    int greedy_sorted;  /* [greedy_sorted] the greedy round's cost of a call in a request
                           of many calls from its returns sorted once per round
                           (same results, faster; with greedy_cut), 1 */
    int bnb_step_keys;  /* [bnb_step_keys] the bounded re-split's step bounds from the
                           possible returns' times sorted once per side and each
                           output link's density keys looked up once per side
                           (same results, faster; joint_bnb.c), 1 */
    int bnb_count_masks; /* [bnb_count_masks] the bounded re-split's count bounds from
                            each touched link's shared calls as bits (same results,
                            faster; joint_bnb.c), 1 */
    int order_bound;    /* [order_bound] the held search leaves out the order terms
                           of a split estimate already left out without them and
                           of an exchange of returns that loses by more than they
                           can change (same results, faster; joint_ordbound.c), 1 */
    int parallel_check; /* [parallel_check] with call ids, when the search learned
                           parallel calls (parallel), search again without them and
                           keep that solution when it is likelier by 10 nats
                           (joint_serial.c), 1 */
    int parallel_check_bb; /* [parallel_check_bb] the same without call ids: the
                              kept search (free or held) again without learned
                              parallel calls (joint_bbserial.c), 1 */
    int parallel_check_bb_all; /* [parallel_check_bb_all] run it whenever a parallel
                                  call was learned, not only when one learned at some
                                  refit was gone at the end, 0 */
    int parallel_check_bb_early; /* [parallel_check_bb_early] when the free search
                                    dropped a parallel call it learned, the held
                                    search runs without learned parallel calls
                                    directly (one search less; joint_bbserial.c), 1 */
    int late_calls;     /* [late_calls] a call without any enclosing request may
                           belong to one it was sent in (or just after) at services
                           that pass the test of joint_late.c, 1 */
    int late_split;      /* [late_split] only calls without an enclosing request
                           are widened, and on the send side only by the send gap
                           learned from the orphans (joint_latesend.c), 1 */
    int late_attach;    /* [late_attach] at services whose near orphans are mostly
                           chance (widen=orphans), the orphans are held as roots in
                           the search and placed after it (joint_lateattach.c), 1 */
    int late_timer;     /* [late_timer] with late_attach, at those services the send of
                           a call that outlives its request may trigger the request's
                           next output (joint_lateattach.c), 1 */
    int late_trust;     /* [late_trust] with late_attach and conf_selfcal, a held
                           orphan's placement is kept only when its posterior times
                           the self-calibration's accuracy on its link is above 1/2
                           (joint_latetrust.c), 1 */
    int late_tie_share; /* [late_tie_share] at coarse stamps, a call whose return
                           ties the ends of all k requests enclosing it counts
                           1 / (k + 1) of an orphan in its link's orphan share
                           (joint_latetie.c), 1 */
    int late_rows;      /* [late_rows] at coarse stamps, tie_rows tests a service that
                           passes the late-call test on the calls' side of its rows
                           only (joint_latetie.c), 1 */
    int late_count;     /* [late_count] at services that pass the late-call test, how
                           many of a request's calls of a link outlive it given how
                           many it makes is learned and scored (joint_latecount.c), 1 */
    int conf_heldout;   /* [conf_heldout] confidence: each call's share also under the
                           model refitted without its half of the requests, the
                           smaller kept (joint_calib.c), 0 */
    int conf_selfcal;   /* [conf_selfcal] confidence: self-calibration on a trace made
                           again from the solution with a known truth
                           (joint_selfcal.c), 1 */
    int conf_seed;      /* [conf_seed] seed of the self-calibration's draws, 1 */
    int conf_sims;      /* [conf_sims] simulations the self-calibration pools, 1 */
    double conf_sim_share; /* [conf_sim_share] share of the trace's pairs the
                              self-calibration simulates (a window of its time), 0.25 */
    int conf_sim_pairs; /* [conf_sim_pairs] ... but at least this many, 2000 */
    int conf_sim_block; /* [conf_sim_block] the calibration copy draws the delays of a key
                           correlated in time (lag-1 rank test) in blocks of N outputs
                           (0: independent draws; joint_simblock.c), 0 */
    int conf_sim_block_pool; /* [conf_sim_block_pool] 1: the block copy is one more copy,
                                pooled with the independent ones, 0 */
    int conf_sim_whole; /* [conf_sim_whole] the calibration's copy is the whole trace when
                           the trace holds at most this many pairs (0: a window), 0 */
    int conf_sims_auto; /* [conf_sims_auto] one copy more where the first copy has too
                           few rows at the levels the real rows are stated at
                           (joint_selfcal.c, "Calibration, twenty-second wave"), 0 */
    double conf_sims_thin; /* [conf_sims_thin] ... the share of the real rows so stated
                              from which the second copy is made, 0.05 */
    int conf_sim_late;  /* [conf_sim_late] where the real trace widened a link whole,
                           the copy takes its late-call decision (late services,
                           widened links; joint_simlate.c), 1 */
    int conf_late_construct; /* [conf_late_construct] a late service's rows are not right
                                by construction (joint_calibconstr.c), 0 */
    int conf_sim_late_halves; /* [conf_sim_late_halves] ... not where the late
                                 services' orphans are no more than the half pairs, 1 */
    int conf_sim_async; /* [conf_sim_async] the copy's response waits only for the
                           returns the solution's response waited for (calls that
                           outlive their parent stay so; joint_calibasync.c), 1 */
    int conf_sim_loss;  /* [conf_sim_loss] the copy also loses halves at the rate of
                           loss the trace's imbalance shows but the solution did not
                           notice (joint_calibloss.c) */
    int conf_sim_loss_ids; /* [conf_sim_loss_ids] with call ids too: the copy loses halves
                              at the rate the ids show lost, and a root whose tree holds
                              a doubted row is not right by construction where a request
                              lost its root call (joint_calibloss.c, joint_anchor.c) */
    int conf_sim_loss_calls; /* [conf_sim_loss_calls] with conf_sim_loss_ids: a lost call
                                made whole in the copy too (the copy loses calls at
                                the trace's rate), rows near it left out of the fit
                                (joint_calibloss.c) */
    int conf_anchor;    /* [conf_anchor] the copy counts a row right as the scorer does
                           (its tree holds its request's anchor first), and a root that
                           lost its call is not right by construction (joint_anchor.c) */
    int conf_copy_pairs; /* [conf_copy_pairs] the self-calibration's own copy at least
                            this many pairs; 0: conf_sim_pairs (default 0) */
    int conf_siblings;  /* [conf_siblings] confidence: a call no surer than the least
                           sure call its request makes on the same link, than its
                           trigger's call and than its parent (joint_calib.c), 1 */
    int conf_sib_learn; /* [conf_sib_learn] the cap decided per trace from the
                           self-calibration's copy (joint_sibstr.c); 0: the
                           cap always, 1 */
    int conf_sync;      /* [conf_sync] confidence: an alternative's walk stops where
                           its remaining steps are provably the current walk's and adds
                           their recorded terms (same results, faster; joint_conf.c), 1 */
    int conf_pair_memo; /* [conf_pair_memo] confidence: the pairing's share walks each
                           request as it stands once, not once per exchange scored
                           (same results, faster; joint_repair.c), 1 */
    int conf_order;     /* [conf_order] confidence: within a block of the
                           self-calibration's map rows keep the order of their
                           stated confidences (lowered by at most 1e-4), 1 */
    int busy_test;      /* [busy_test] pair_order=auto also keeps the held search where
                           the services that serialise their work (joint_pick.c) hold
                           most of what the two searches assign differently, 1 */
    int busy_more;      /* [busy_more] busy test: more copies where the verdict depends
                           on the first copies' spread (joint_busymore.c), 1 */
    int busy_skip_same; /* [busy_skip_same] busy test: no copies where the free and
                           held solutions assign every pair alike (speed; the
                           verdict is free either way), 1 */
    int busy_copy_lean; /* [busy_copy_lean] busy test: its copies drawn from one
                           set-up and read as stamps, not traces (speed; the
                           same draws), 1; 2 a wrong copy (tests) */
    int refit_skip_same; /* [refit_skip_same] a refit of an assignment the model was
                            just refitted on, the search having moved nothing, left
                            out (joint_refit, joint_search.c; speed, the same
                            numbers), 1 */
    int repair_inf_skip; /* [repair_inf_skip] the re-pairing's exchange passes: an
                            exchange whose later call cannot take the earlier return
                            is not scored further (joint_rinf.c; speed, the same
                            numbers), 1 */
    int key_room;       /* [key_room] a later search of the run (the held search, the
                           self-calibration's copy) starts with the per-key room the
                           first ended with (joint_keyroom.c; speed, the same numbers), 1 */
    int pairs_share;    /* [pairs_share] without call ids the held search takes the free
                           search's first pairing of calls and returns instead of
                           pairing again (joint_pshare.c), and its caches
                           (joint_bufshare.c); the second corr set-up reuses the
                           first's cleared table (joint_corr.c); speed, the same
                           numbers, 1 */
    int ll_share;       /* [ll_share] without call ids the two searches' scores with the
                           order terms start from their log-likelihoods just computed
                           (joint_llshare.c; speed, the same numbers), 1 */
    int busy_space;     /* [busy_space] busy test: a service also serialises when its
                           sends are spaced far more than the copies' (joint_space.c), 1 */
    int busy_partial;   /* [busy_partial] busy test: where it keeps the free search, a
                           third search holding the order only at the serialising
                           services' links (joint_partial.c), 1 */
    int busy_partial_vote; /* [busy_partial_vote] busy_partial's vote: per changed end
                           (0), per request (1), either at half the level (2)
                           (joint_partial.c), 2 */
    const char *hold_svc; /* not an option: the held search holds the order only on
                           links touching these services (names separated by '\n';
                           NULL: every link; joint_partial.c) */
    int tie_test;       /* [tie_test] at coarse whole-tick stamps keep the start when
                           most calls the search moved stayed within their start
                           parent's arrival tick (joint_quant.c), 1 */
    int tie_cross;      /* [tie_cross] when the tie test keeps the start, give the calls
                           the search moved across a tick their search parent back
                           (joint_tiecross.c), 1 */
    int tie_orphans;    /* [tie_orphans] the tie test keeps the search when the start
                           leaves significantly more calls without a parent than the
                           search (sign test) and the search is likelier
                           (joint_tieorph.c), 1 */
    int tie_sets;       /* [tie_sets] the tie test keeps the search when the start
                           puts significantly more requests off their endpoint's modal
                           set of calls than the search (sign test; joint_tieset.c);
                           2: at the level tie_sets_p / the tie test's moves; 3: =2's
                           level, decided after tie_cross, the search put back on the
                           components where it brings more requests onto their set, 3 */
    double tie_sets_p;  /* [tie_sets_p] tie_sets=2|3: the sign test's level, 0.05 */
    int tie_sets_ll;    /* [tie_sets_ll] tie_sets=3: a component takes the search only
                           where it is also likelier there by the tie test's bar per
                           moved call (joint_tieset.c), 0 */
    int tie_sets_split; /* [tie_sets_split] tie_sets=3: a pair as a call and as a
                           request are two nodes of the components, joined only where
                           its return differs (joint_tieset.c), 1 */
    double tie_sets_ll_bar; /* [tie_sets_ll_bar] that bar in units of the tie test's
                           1.92 nats per moved call, 0 */
    int tie_orphans_rows; /* [tie_orphans_rows] on rows spread by subtick (found in the
                           order of events), tie_orphans refutes the start by its sign test
                           alone, without the likelihood condition (joint_roworph.c), 1 */
    int tie_rows;       /* [tie_rows] at coarse whole-tick stamps, per service whose rows
                           pass the test, the row order as the order of events within a
                           tick for the candidates (joint_rowtie.c), 1 */
    double tie_rows_fail; /* [tie_rows_fail] the test: most calls left without a
                           candidate by the rows, a share of those the rows cut, 0.01 */
    int tie_rows_wide;  /* [tie_rows_wide] where tie_rows may run, candidates collected up
                           to this many times max_candidates, the rows cut them, then the
                           cap applies (joint_rowcap.c); 4 */
    int tick0;          /* [tick0] at whole-tick stamps with few ties score a delay
                           stamped zero ticks as the fitted mass below one tick,
                           capped by the clean requests' share (joint_tick0.c), 1 */
    const char *tick_ivl; /* [tick_ivl] auto|on|off: delays of 1..tick_ivl_max whole
                           ticks scored and fitted as intervals [k, k+1) ticks
                           (auto: at coarse whole-tick stamps with observed durations of
                           tick_ivl_from ticks or more; joint_tickivl.c), off */
    int tick_ivl_max;   /* [tick_ivl_max] the most whole ticks so scored, 20 */
    double tick_ivl_from; /* [tick_ivl_from] auto: the least median observed duration,
                           in ticks, 2 */
    const char *out_sets; /* [out_sets] auto|on|off: the set of calls a request makes,
                           per incoming endpoint, scored as one signature (the
                           per-link counts' product as its base measure) instead of
                           link by link (auto: where held-out likelihood says so;
                           joint_oset.c), auto */
    double out_sets_prior; /* [out_sets_prior] the signature term's concentration:
                           a set never seen costs log(prior / (N + prior)); 0: per
                           endpoint the held-out best of 1, 4, .., 4096, 1 */
    double out_sets_min; /* [out_sets_min] auto: the least held-out gain per held-out
                           request (nats) at which the term is turned on, 0.5 */
    int tie_calls;      /* [tie_calls] when the tie test keeps the start, calls of a
                           link sent in the same tick are ranked by their returns
                           (joint_tiecall.c), 1 */
    int resolve_local;  /* [resolve_local] after an exchange of returns (step 5) the
                           next search's first re-split pass visits only pairs of
                           requests changed since the last one; 2: its greedy rounds
                           left out too; 0: neither (joint_resolve.c), 0 */
    int pair_window;    /* [pair_window] without call ids, pair_order=auto: choose
                           free or held on a window of about this many requests,
                           then run the chosen search only (joint_pwin.c); 0 off */
    int pair_window_check; /* [pair_window_check] also run both searches on the
                           whole trace, keep that choice, report agreement, 0 */
    const char *subtick; /* [subtick] auto|on|off: at coarse whole-tick stamps take the
                           order of the rows within a tick as the order of events
                           and spread each tick's rows over it (auto: when the rows
                           contradict the calls at most subtick_share as often as
                           the rows read backwards; joint_subtick.c), auto */
    double subtick_share; /* [subtick_share] auto: the most forward contradictions
                           per backward one, 0.05 */
    int tick_fifo;        /* [tick_fifo] at whole-tick stamps the subtick test left
                           unspread, with call ids, a service whose requests a test
                           finds answered in tick order has its calls given in tick
                           order after the search (joint_tickx.c), 1 */
    int subtick_blame;    /* [subtick_blame] per service: a kept service that failed a
                           pair with one put out and still shows forward
                           contradictions against the kept ones is put out too
                           (joint_subsvc.c), 1 */
    int selfcal_select; /* [selfcal_select] the self-calibration's copy takes the real
                           trace's per-service signal choice instead of its own
                           held-out fits (joint_select.c), 1 */
    int subtick_tie;    /* [subtick_tie] on the spread rows, the tie test still judges
                           the search against the start at the original tick
                           (joint_subtick.c), 1 */
    int subtick_tie_ids; /* [subtick_tie_ids] subtick_tie also where most calls carry a
                           call id (their returns are paired by id, not by the spread
                           positions; joint_subtick.c), 0 */
    int subtick_tie_links; /* [subtick_tie_links] the ids rule per link: the tie test
                           judges spread rows where some link has at most half of its
                           calls with a call id, counting only the moves that touch
                           such links (joint_subsvc.c), 0 (the share over the trace) */
    pb_ns subtick_tick; /* not an option: the original tick when joint_run spread the
                           rows of each tick (joint_subtick.c), 0 otherwise */
    int repair_open_passes; /* [repair_open_passes] the most local-search passes
                           in the open-ended solve of each re-pairing round
                           (joint_repair.c); -1: min(passes, 2), as always, -1 */
    int swap_resume;    /* [swap_resume] an exchange of returns walked from a record
                           resumes at the first step that could take either return
                           (same results, faster; joint_model.c xresume_at), 1 */
    int swap_tail_tree; /* [swap_tail_tree] an exchange walked from a record adds the
                           record's remaining terms from per-binade trees in O(log n),
                           bit for bit (joint_xtail.c), 1 */
    int cand_sweep;     /* [cand_sweep] a call's candidate parents from a max-tree
                           over its service's requests when many are open (same
                           results, faster; joint_csweep.c), 1 */
    int cand_group;     /* [cand_group] calls of one caller with the same send and
                           return receipt cut from one shared candidate list (same
                           results, faster; joint_cgroup.c), 1 */
    int swap_ties;      /* [swap_ties] an exchange's walk moves only the two exchanged
                           returns in the record's sorted list and takes a long run
                           of returns by a binary search (same results, faster;
                           joint_model.c ties_resort), 1 */
    int repair_pick;    /* [repair_pick] the re-pairing's greedy scores only the open
                           calls that can take the return (same results, faster;
                           joint_rpick.c), 1 */
    int repair_bucket;  /* [repair_bucket] repair_pick's stable open calls by density
                           bin, the best of a bin at its latest start (same
                           results, faster; joint_rpick.c): 0 off, 1 from 32 such
                           calls, 2 always, 3 a wrong head (tests only); 1 */
    int late_chance;    /* [late_chance] a late link's orphan share corrected for the
                           requests that enclose its calls by chance (joint_lchance.c):
                           2 each orphan by its own chance, 1 the link's calls', 0 off; 2 */
    int conf_wide_skip; /* [conf_wide_skip] confidence: a call's wide chain is walked
                           without it only when it holds more calls than its strict
                           chain (same results, faster; joint_conf.c), 1 */
    int conf_ll_keep;   /* [conf_ll_keep] the output's log-likelihood sums the requests'
                           walks the confidence made, when the model and assignment are
                           the same (same results, faster; joint_llkeep.c), 1 */
    int walk_lean;      /* [walk_lean] a walk's steps without the checks of the rules
                           that cannot fire on it (same results, faster;
                           joint_model.c walk_is_lean), 1 */
    int recur_inner;    /* [recur_inner] a service that calls itself: a second search
                           from its calls on their innermost open visits, kept when
                           likelier (joint_recur.c), 1 */
    int ls_dirty_solve; /* [ls_dirty_solve] a local search's later passes visit only
                           pairs with a request changed in this solve's passes
                           (1) or this and the one before (2) (joint_lsdirty.c), 0 */
    int recur_cycle;    /* [recur_cycle] recur_inner also for services re-entered through
                           a cycle of two or more services (joint_rcycle.c) */
    int busy_reentry;   /* [busy_reentry] the busy test never finds a service its own
                           requests re-enter serialising (joint_reentry.c) */
    int thread_bound;   /* [thread_bound] visits bound to a thread (2: pairs made by call
                           id only): a call keeps the
                           candidates on its answer's thread at a service the test
                           finds bound (joint_thread.c) */
    double thread_ratio; /* [thread_ratio] bound: misses at most this share of chance's */
    double thread_expect; /* [thread_expect] bound: chance's misses at least this many */
    int ls_open_fresh;  /* [ls_open_fresh] a solve without refits: its later re-split
                           passes follow this solve's marks only (same results;
                           joint_lsdirty.c), 1 */
    int bnb_row_keep;   /* [bnb_row_keep] the branch and bound's per-key bound row kept
                           across a refit that left the key's density row the same
                           (joint_bnb.c; speed only), 1 */
    double ls_margin;   /* [ls_margin] a re-split whose kept split won by at least this
                           many nats is left out while its two requests stay the same
                           (joint_lsmargin.c), 0: off */
    int repair_incr;    /* [repair_incr] a re-pairing round after the first re-splits in
                           its solves' first pass only pairs of requests changed since
                           the round before (joint_rpinc.c): 0 off, 1 the open-ended
                           solve, 2 both solves, 3 every solve, 4 the open-ended
                           solve against the refitting one before it */
    int greedy_damp;    /* [greedy_damp] a greedy round does not move a call back to
                           the request it had two rounds before (joint_rpdamp.c), 0 */
    double thread_soft; /* [thread_soft] the receiving thread as a likelihood term on pairs
                           made without call ids: at a service whose answers miss their
                           visit's thread at a fitted rate m <= this, a call whose answer
                           came on another thread than its parent visit's costs
                           log(m / (m + (1 - m) / f)) (joint_thread.c), default 0.5
                           (h217; 0: off) */
    int conf_copy_repair; /* [conf_copy_repair] the self-calibration's copy: its search's
                           re-pairing rounds at most this many (joint_simfast.c); -1:
                           repair's (default -1) */
    int conf_copy_swaps; /* [conf_copy_swaps] the copy: its exchange rounds at most this
                           many; -1: swap_rounds's (default -1) */
    int conf_copy_passes; /* [conf_copy_passes] the copy: its re-split passes at most this
                           many; -1: passes's (default -1) */
    int conf_copy_start; /* [conf_copy_start] the copy starts its search as the real search
                           kept (restart's second start: rank, or earliest where the
                           real trace kept it) and runs no second start of its own
                           (joint_simfast.c), 1; 0: the copy's own restart test */
    int conf_late_hidden; /* [conf_late_hidden] exempt calls of a late link that another
                             request of the sender, open at their send and ended before
                             their return, could have left behind are stated at most
                             1 - (hidden + 1) / (such calls + 2) (joint_cfhidden.c), 1 */
    int conf_copy_tick; /* [conf_copy_tick] where the trace's rows were spread over coarse
                           ticks (subtick), the calibration's copy is cut to that tick in
                           the order of its events and spread the same way
                           (joint_cftick.c), 1 */
    double thread_soft_floor; /* [thread_soft_floor] thread_soft's term uses max(m, this):
                           the most a thread mismatch can cost (joint_thread.c), 0 */
    int greedy_check;   /* [greedy_check] a greedy move is made only when it raises the
                           likelihood of the two requests it changes (joint_rpchk.c), 0 */
    int greedy_cycle;   /* [greedy_cycle] a solve's greedy rounds back where they were two
                           rounds before stop on the solution the rest would leave
                           (joint_rpcyc.c; speed only), 1 */
    int subtick_partial; /* not an option: 1 when joint_run spread the rows of some
                           services only (joint_subsvc.c) */
    int subtick_declined; /* not an option: 1 when joint_run's subtick test spread no
                           row and found the rows out of event order (at least
                           JOINT_SUBTICK_MIN forward contradictions, beyond
                           subtick_share of the backward ones); tick_fifo runs only
                           then (joint_tickx.c) */
    int cft_copies, cft_spread; /* not options: conf_copy_tick's copies cut to the
                           trace's tick, and those its subtick test spread
                           (joint_cftick.c; metadata) */
    int cft_final;      /* not an option: 1 while the confidences the result carries
                           are computed (joint_cf_final_conf): only their copy is
                           cut to the trace's tick, never late_trust's */
    const struct joint *sel_from; /* not an option: set only on the self-calibration's
                           copy (the real trace's search, whose joint_select choice the
                           copy takes when selfcal_select is on); NULL otherwise */
    double held_skip;   /* [held_skip] without call ids and pair_order=auto: the held
                           search is not run when the free solution leaves at most this
                           many consecutive pairs of calls in question (both open at
                           once on a link) no learned parallel call and no service serialises (joint_heldskip.c);
                           default 64, 0: off */
    int unp_busy;       /* [unp_busy] unp_win=2: a changed message's seed span cut to
                           its link's busy period in the first search (joint_unpbusy.c), 0 */
    int unp_whole_one;  /* [unp_whole_one] unpaired=1's whole second search runs the first
                           search's free / held choice only (joint_unpone.c); 2: only
                           where the first kept the held search; 0 */
    int conf_copy_shuffle; /* [conf_copy_shuffle] the calibration's copy of the result's
                           confidences deals the calls of each link's overlapping requests
                           again among them, so its truth doubts the solution's split of
                           an overlap (joint_cfshuf.c), 0 */
    int cfs_copies;     /* not options: conf_copy_shuffle's copies, their overlap */
    double cfs_clusters, cfs_moved; /* clusters, requests given another's calls (metadata) */
    int conf_thin_own;  /* [conf_thin_own] a link with too few copy rows for a map of its
                           own: its rows stated at most the map of its own few rows
                           (Laplace-smoothed blocks) as well as the all-links map
                           (joint_cfthin.c), 0 */
    int cfn_links, cfn_lowered; /* not options: links conf_thin_own fitted, rows it lowered */
    double held_local;  /* [held_local] without call ids and pair_order=auto: the held
                           search runs on the requests around the consecutive pairs of
                           calls in question only (the free search's pairs elsewhere) when
                           they hold at most this share of the messages (joint_heldlocal.c);
                           default 0: off */
    double held_local_pad; /* [held_local_pad] held_local's window widened by the requests
                           overlapping a seed request's span padded by this many times its
                           length on each side; default 0 */
    int held_local_seed; /* [held_local_seed] held_local's seeds: 1 the requests of every
                           consecutive pair in question, 2 of the overtaken ones only;
                           default 1 */
    int thread_soft_pick; /* [thread_soft_pick] where thread_soft weighs a service, the
                           free and the held searches are compared (pair_order=auto) by
                           their log-likelihoods without the thread term: the term
                           steers each search, not the choice (joint_thrpick.c); 2-4
                           the whole inference again without the term, 3 (default h217-h245,
                           h217) keeping the term's solution only when the model without
                           the term finds it likelier by more than 10 nats; 5 the
                           inference muted, then one search with the term from its pairs
                           (joint_thrwarm.c); 6 the thread test (joint_thrtest.c); 7 (default since h245) 6 checked against the calls moved (joint_thrmove.c) */
    double thread_soft_cap; /* [thread_soft_cap] thread_soft: a mismatch costs at most this
                           times the service's median delay margin (joint_thread.c), 0: off */
    int order_cross;    /* [order_cross] without call ids, where the order of answers is
                           scored (pair_order, the held search): after the search each
                           crossing of a link (two consecutive calls by the callee's reads
                           sent by the caller in the other order) gets its other pairing
                           tried, alone or with the two parents' calls exchanged, scored
                           with that pair out of the term's question; kept above
                           uncross_min nats (joint_tieorder.c); default 1 */
    double ocx[4];      /* not options: order_cross's crossings, exchanges tried, kept,
                           nats gained (joint_tieorder.c; metadata) */
    int ocx_on;         /* not an option: 1 while order_cross's step scores (the
                           crossed pairs out of question only then) */
    int held_warm;      /* [held_warm] without call ids and pair_order=auto: the held
                           search starts from the free search's pairs and parents, not
                           from the first-come start (joint_heldwarm.c); default 0 */
    int held_repair;    /* [held_repair] the held search's re-pairing rounds (from
                           scratch or held_warm's); -1: repair's; default -1 */
    int held_swaps;     /* [held_swaps] the held search's swap_rounds; -1: swap_rounds';
                           default -1 */
    int rs_memo;        /* [rs_memo] speed only: a re-split whose inputs and model (per
                           link, hashed once a pass) are those of the same pair's last
                           re-split, which kept its split, is left out and its counters
                           added as recorded (joint_rsmemo.c); default 0 (does not pay) */
    int order_cross_alone; /* [order_cross_alone] order_cross: 1 also tries a crossing's
                           answers exchanged alone (the callee's two durations decide);
                           0 only the answers with the two parents' calls exchanged
                           (joint_tieorder.c); default 0 (h220; 1 is h210's rule) */
    double unp_win_max; /* [unp_win_max] unp_win: the largest window searched as a window,
                           share of the messages; a larger one runs the whole second
                           search (joint_unpwin.c); default 0.5 */
    int conf_ratio_copy; /* [conf_ratio_copy] with conf_copy_shuffle, the doubt ratio's copy
                           side: 1 a second copy made without the shuffle, 2 the shuffled
                           copy's rows the deal left alone, 0 the shuffled copy's rows
                           (joint_cfratio.c), 0 */
    double *cfr_stat;   /* not options: conf_ratio_copy's copy rows and doubt per link and */
    double cfr_rows, cfr_ratio; /* all links; rows, the all-links ratio (metadata) */
    int cfr_plain, cfr_used; /* 1 while its plain copy runs; 1 once it served */
    double conf_ratio_share; /* [conf_ratio_share] conf_ratio_copy=1: the plain copy's window
                           is this share of the shuffled copy's (conf_sim_share and its
                           floor of pairs scaled), 1 */
    int swap_level_memo; /* [swap_level_memo] speed only: an exchange's level values
                           (two requests, own returns exchanged or not, which calls'
                           returns exchanged) kept within a pass of exchanges and the
                           pair shares' scoring (joint_xm.c); 1 under the same floor only,
                           2 under any floor that cannot change the choice, 0 off; 1 */
    double order_jitter; /* [order_jitter] order_cross's step: two answers of a link sent
                           within this many times the link's fitted stamp jitter (the
                           larger median absolute deviation of its call and return
                           delays) are a near-tie, neither overtake nor kept
                           (joint_ordjit.c); 0: off; default 0 */
    double ojt_ties;    /* not an option: order_jitter's near-ties at the step's last
                           scoring (metadata) */
    int sv_lazy;        /* [sv_lazy] without call ids and pair_order=auto: the free search
                           paused after its main solve's first refit, the held search run,
                           and the free search's swap rounds left out when the held one's
                           lead is out of their reach (1); 3 also the other way round (the
                           held search paused, left so when the free one's lead is out of
                           reach); 2 both pause and always resume (a check: the same
                           output); 3 the default (28th wave), 0 off */
    double sv_lazy_k;   /* [sv_lazy_k] sv_lazy's factor on the gain a lead must exceed, 2 */
    int conf_ratio_min; /* [conf_ratio_min] with conf_copy_shuffle and conf_ratio_copy=1:
                           1 a row's confidence the lower of the shuffled and the plain
                           copy's maps, 2 the doubt ratio the larger of the two copies',
                           0 off (joint_cfmin.c), 0 */
    size_t cfm_lowered; /* not an option: rows (mode 1) or links (mode 2) it lowered */
    int unp_predict;    /* [unp_predict] unpaired=1: 1 measures a predictor of the second
                           search's free / held choice (joint_unplp.c; metadata only), 0 */
    double unp_pred_rec[6]; /* not an option: unp_predict's record (metadata) */
    int unp_pcheck;     /* [unp_pcheck] unpaired=1: 1 the second search takes the first
                           search's verdict on its learned parallel calls, no
                           parallel_check_bb of its own (joint_unpinh.c), 0 */
    int unp_pcheck_rec; /* not an option: unp_pcheck's record (1 learned, 2 without) */
    int conf_copy_stage; /* [conf_copy_stage] speed, confidences only: 1 the calibration's
                           copy first at conf_copy_stage_share of its pairs, kept where every
                           real row's reliability bin is settled, else the default copy;
                           2 a check (always the default after the stage); 3 a
                           measurement (the default copy's own noise); 0 off
                           (joint_scopy.c), 0 */
    double conf_copy_stage_share; /* [conf_copy_stage_share] the stage's share of the
                           default copy's pairs, 0.25 */
    double conf_copy_stage_z; /* [conf_copy_stage_z] standard errors a map block may move, 2 */
    double conf_copy_stage_tol; /* [conf_copy_stage_tol] share of real rows allowed
                           unsettled, 0 */
    int scp_state, scp_result; /* not options: conf_copy_stage's stage (1 during it), its
                           outcome (1 kept, 2 the default after it) */
    const double *scp_c0;  /* not an option: the rows' confidences before the calibration */
    double conf_copy_share; /* [conf_copy_share] confidences only: the share of the pairs
                           the result's calibration copy holds, its floor scaled alike
                           (lowers only), 0: conf_sim_share (joint_scopy.c), 0 */
    int scp_cal;           /* not an option: 1 during the result's calibration */
    double scp_pairs[2], scp_rows[3]; /* not options: full / stage pairs; rows, unsettled
                           (bins, levels) */
    int conf_alike;     /* [conf_alike] a call whose own delay and count fit another
                           candidate about as well as its request is stated at most the
                           copy's share of such calls right; 2 the map of the copy's alike rows
                           (joint_cfalike.c), 0 */
    double conf_alike_tie; /* [conf_alike_tie] conf_alike: nats within which the other
                              candidate fits as well, 1 */
    size_t cfa_real, cfa_capped; /* not options: conf_alike's real alike rows, rows capped */
    double cfa_copy[2]; /* not an option: conf_alike's copy alike rows, right */
    int tcache_delay;   /* [tcache_delay] speed only: greedy_tcache also keeps per candidate
                           slot the log of the call's delay from the trigger and its bin
                           (joint_tcache.c; the same results); 1 */
    int cand_fast;      /* [cand_fast] speed only: with cand_sweep and cand_ends, a call with
                           more candidates than the cap takes the kept ones from the two
                           ends directly (joint_cfast.c; the same candidates); 1 */
    double thread_soft_moves; /* [thread_soft_moves] thread_soft_pick=7: the term's solution,
                           kept by the thread test alone, kept only when the calls it moves
                           are at most this many times the misses it mends (joint_thrmove.c);
                           0 (default): twice the mean calls in a weighed visit */
    int unp_alt;        /* [unp_alt] unpaired=1: 1 the first search's other free / held
                           solution offered piece by piece before the second search, which
                           runs on its window at any size; 2 also each changed message's
                           window its own pair widened by its link's median pair; 3 that only where the
                           default's window is over unp_win_max and 2's is not (joint_unpalt.c), 0 */
    double unp_alt_rec[4]; /* not an option: unp_alt's record (on, pieces, taken, output) */
    double unp_alt_max; /* [unp_alt_max] unp_alt=3: the cut's window's largest share of the
                           messages, 0.3333 */
    int conf_copy_warm; /* [conf_copy_warm] the self-calibration's copies searched from
                           their own truth (joint_scwarm.c): 1 set up on the truth's pairs
                           and parents, the search as always; 2 the same with no re-pairing
                           and no swap rounds; confidences only; default 0: off */
    const struct joint *scw_from; /* not an option: set only on a calibration copy under
                           conf_copy_warm (the real trace's search, whose solution is
                           the copy's truth); NULL otherwise */
    int lt_trust_alone; /* [lt_trust_alone] speed only, the same results: late_trust's pass
                           computes its trust alone (the copies and their counts) where the
                           result's confidences are computed again anyway
                           (joint_latetrust.c); default 1 */
    int lt_only;        /* not an option: 1 while late_trust computes its trust alone
                           (joint_latetrust.c): joint_confidence runs the copies and
                           their per-link counts only */
    int conf_series;    /* [conf_series] confidences only: a call's share also counts the moves
                           of a series of calls of its link each shifted by one request
                           (joint_cfseries.c), 0 */
    int conf_series_len; /* [conf_series_len] conf_series: calls a series takes on each side
                            of the call, 6 */
    double conf_series_min; /* [conf_series_min] conf_series: only calls whose share is this
                               or more are tried, 0.9 */
    int conf_series_walks; /* [conf_series_walks] conf_series: request walks a call's series
                              may take (speed; 0: no cap), 100 */
    size_t cfs_tried, cfs_series, cfs_lowered;
    int conf_series_cycle; /* [conf_series_cycle] conf_series: a series may also close on
                              itself (a rotation of three requests or more), 0 */
    int conf_copy_se;   /* [conf_copy_se] confidences only: every row also stated at most the
                           calibration map at a lower bound of its block's share right, the
                           copy's own noise (joint_cfse.c), 0 */
    double conf_copy_se_z; /* [conf_copy_se_z] conf_copy_se: standard errors below, 1 */
    size_t cse_lowered; /* not an option: conf_copy_se's rows lowered */ /* not options: conf_series' calls tried, with a
                           series, whose share fell by more than 0.001 */
    int busy_links;     /* [busy_links] busy test: 1 a service found serialising keeps the
                           verdict only when each of its links (20+ calls) lands busy less
                           than the copies predict; 2 (a measurement) only when it does
                           against copies of the held solution too (joint_busyheld.c), 0 */
    double conf_copy_warm_min; /* [conf_copy_warm_min] conf_copy_warm: only the copy rows whose
                           real row's share (before calibration) is this or more are given
                           their true parent; the others start as the copy's own start puts
                           them, and no pairs are given (the copy pairs as always);
                           joint_scwarm.c; default 0: every row and pair given */
    int conf_copy_warm_free; /* [conf_copy_warm_free] conf_copy_warm: only the copy rows whose
                           real pair was paired freely (no call id on a half) are given their
                           parent, and no pair is given (with call ids the copy's search has no rounds to save);
                           with no such row the copy runs as at conf_copy_warm=0
                           (joint_scwarm.c); default 0: every row */
    const double *scw_share; /* not an option: the real rows' shares while the
                           calibration copies run (joint_selfcal), else NULL */
    int unp_copy;       /* [unp_copy] in a copy (p.sel_from), the loss rule's second search:
                           1 on its window at any size, 2 on unp_alt=2's local window, 3 none
                           (joint_unpcopy.c), 0: as in the real trace */
    double rs_confirm;  /* [rs_confirm] speed, changes results: a re-split that kept its split
                           by a margin is left out while its two requests stay the same and
                           the current split's value moved by at most the margin less this
                           many nats since (joint_lsconfirm.c), 0: off */
    int rs_confirm_fp;  /* [rs_confirm_fp] rs_confirm: 1 the two requests stay the same (every
                           call), 0 their shared calls only (the rest read off the drift) */
    int conf_twin;      /* [conf_twin] confidences only, without call ids: the rows a
                           request's answer triggered in its caller (and below and after them)
                           at most a cap where a twin request could hold the call whose return
                           triggered the answer: 1 that call's confidence, 2 the request's
                           times the least pair share on the way (joint_cftwin.c), 2 */
    int fifo_lifo;      /* [fifo_lifo] a link the fifo test passes keeps its first-in,
                           first-out pairs only unless last-in-first-out durations are
                           tighter than its one-worker service times in 9 of 10 blocks
                           (joint_fifolifo.c), 1 */
    int unp_repair;     /* [unp_repair] under loss without call ids: the loss rule's second
                           search's re-pairing rounds; -1: repair's (joint_unprounds.c), -1 */
    int unp_swaps;      /* [unp_swaps] the loss rule's second search's swap_rounds; -1:
                           swap_rounds' (joint_unprounds.c), -1 */
    int unp_warm;       /* [unp_warm] the loss rule's whole second search: one search of the
                           first's kind from its solution (joint_unpwarm.c), 0 */
    int conf_copy_warm_pairs; /* [conf_copy_warm_pairs] conf_copy_warm with conf_copy_warm_min
                           or _free: 1 the rows given their parent are given their true pair
                           too (2: the pair alone, no parent), and only the other calls and returns are paired as always
                           (first come / in-order alignment; joint_scwarm.c, with a hook in
                           joint_find_pairs); default 0: no pair given */
    double conf_copy_margin; /* [conf_copy_margin] the result's calibration copy: this share of
                           its pairs (whole requests) next to each cut its window makes in
                           the trace searched and not counted (joint_scedge.c); default 0 */
    int busy_arr;       /* [busy_arr] busy test: a service found serialising keeps the
                           verdict only when its calls land busy less often at the trace's
                           own arrivals than at the copies', both with the copies'
                           durations (joint_busyarr.c); 1 every such service, 2 only where
                           the held search rewrites most of its calls (h280), 2 */
    int conf_copy_events; /* [conf_copy_events] confidences only: every row also stated at most
                           the self-calibration map whose blocks count the copy's rows in
                           units of m rows that move together, (right + m) / (rows + 2 m)
                           (joint_cfev.c): 2 m per link, its copy rows per request holding
                           one; 1 one m, the copy's wrong rows per request holding one; 2 */
    double conf_copy_events_z; /* [conf_copy_events_z] conf_copy_events: the Wilson lower bound
                           at this many standard errors of the block's share in those units
                           (0: the share itself), 0 */
    int conf_empty_twin; /* [conf_empty_twin] confidences only: a call whose request holds at
                           least two calls of its link, and one of whose candidates is a
                           request of the same link with no call at all although at most
                           conf_empty_twin_rate of that link's requests are so, is stated at
                           most conf_empty_twin_cap (and the rows below it) (joint_cfempty.c),
                           0 */
    double conf_empty_twin_rate; /* [conf_empty_twin_rate] conf_empty_twin: the share of a
                           link's requests without a call up to which one is out of place,
                           0.05 */
    double conf_empty_twin_cap; /* [conf_empty_twin_cap] conf_empty_twin: the cap, 0.5 */
    int sv_early;       /* [sv_early] sv_lazy where parallel_check_bb's early run is due at
                           the free search's pause: the early run made then, and kept without
                           the free search's swap rounds when it takes and leads by sv_lazy's
                           margin (joint_svearly.c), 2 always resumed (a check), 0 off (the
                           free search resumes at once), 1 */
    int thread_soft_heldout; /* [thread_soft_heldout] thread_soft_pick=6/7's rate test: the
                           delays' log-likelihood ratio of the two solutions scored held out
                           (each half of the requests under the model fitted to the other;
                           joint_thrheld.c), 0 */
    int thread_soft_mendfirst; /* [thread_soft_mendfirst] thread_soft_pick=7: where the rate
                           test drops the term's solution though the thread's evidence alone
                           is over 10 nats, the moves check (joint_thrmove.c) decides it too,
                           1 (h274) */
    int unp_where; /* [unp_where] unp_pieces with the whole second search: 1 where its
                           changes and taken pieces lie against the window by candidate
                           requests (metadata only); 2 also its taken pieces outside the
                           window left untaken (a measurement; joint_unpwhere.c), 0 */
    int rs_census;      /* [rs_census] a measurement, the same choices: every re-split
                           counted by what changed since the same pair's last kept re-split
                           (nothing; only the model; its inputs) and whether it moved,
                           rs_memo's repeats re-split anyway (joint_rsmemo.c), 0 */
    double conf_copy_events_second; /* [conf_copy_events_second] confidences only, with
                           conf_copy_events and one copy: where the events map alone takes at
                           least this share of the rows below 0.9, 0.95 or 0.99, a second
                           copy is drawn and pooled and the maps fitted again
                           (joint_cfev2.c); 0 off */
    int par_tie;        /* [par_tie] at coarse whole-tick stamps a call pair whose first
                           call's return lies in the tick the second is sent in counts
                           as neither overlap nor separate in the parallel-call counts
                           (joint_partie.c), 0 */
    int unp_freeze;     /* [unp_freeze] unpaired=1 unp_pieces=1, where the whole second
                           search would run: it runs on the whole trace with the requests
                           outside the window frozen as the first search had them (1: the
                           window by candidate requests; 2: each changed message's pair
                           widened by its link's median; joint_unpfreeze.c), 0 */
    int unp_freeze_close; /* [unp_freeze_close] unp_freeze: a call of the window takes
                           parents in the window only (frozen requests are no candidates),
                           0 */
    int unp_freeze_model; /* [unp_freeze_model] unp_freeze: the frozen returns stay free
                           pairs for the model (the FIFO test, the correlations) and are
                           only kept from moving; 0: they count as sure pairs, 0 */
    const void *unp_frz; /* not an option: unp_freeze's frozen pairs and parents
                           (joint_unpfreeze.c), NULL */
    int conf_copy_events_agree; /* [conf_copy_events_agree] confidences only, with
                           conf_copy_events_second: a row at stake takes the pooled value
                           only where the second copy errs on its link no more often than
                           the first (joint_cfev2agree.c), 0 */
    int conf_copy_multi; /* [conf_copy_multi] confidences only: a row whose request holds
                           another call of its link stated at most the map of the copy's
                           rows of that kind (joint_cfmulti.c), 0 */
    double tie_excess;  /* [tie_excess] with tie_test=2, the search is kept only when its
                           gain beyond the allowance within a tick is at least this many
                           nats (joint_tieexcess.c); 0: any excess */
    int tie_choose;     /* [tie_choose] with tie_test=2, the free and held searches compared
                           with a search kept only by tie_test=2 counted less 1.92 nats a
                           move within a tick (joint_tiechoose.c), 0 */
    double conf_copy_share_z; /* [conf_copy_share_z] confidences only, with conf_copy_share:
                           where the result's calibration copy holds a share f < 1 of the
                           pairs the default copy would, the events map's Wilson bound
                           taken at least k (1 - sqrt f) standard errors down, the smaller
                           copy's extra noise paid for at the k-error tail (joint_scz.c);
                           0 off */
    double scz_f;       /* not an option: that f (1 where the copy was not made smaller) */
    int sv_cut;         /* [sv_cut] where parallel_check_bb's early run is due, the free
                           search paused after a later re-pairing round's closed solve
                           and the run made then, kept when out of reach (joint_svcut.c),
                           0 */
    int unp_lite;       /* [unp_lite] unpaired=1 where a link shows loss before any search
                           (unequal calls and returns): a cheap first search decides the
                           forced messages and the forced search alone is the output
                           (joint_unplite.c), 0 */
    int conf_sim_shape; /* [conf_sim_shape] confidences only: the calibration copy draws a
                           delay from the solution's delays of its key in requests with the
                           same number of calls where those number at least this many
                           (joint_simshape.c); 0 off */
    double conf_copy_events_second_share; /* [conf_copy_events_second_share] confidences
                           only: conf_copy_events_second's copy made of this share of the
                           first copy's pairs (joint_cfev2small.c); 1: as large */
    double conf_sim_shape_ks; /* [conf_sim_shape_ks] with conf_sim_shape: a (key, size) list
                           used only where it differs from its key's by the two-sample
                           Kolmogorov-Smirnov test at this coefficient (joint_simshape.c);
                           0: no test */
    int tie_sets_search; /* [tie_sets_search] with tie_test=2 and tie_sets=3: where only
                           tie_test=1 would keep the start, the start is still made,
                           mended (tie_cross) and judged by tie_sets; its mixture stands
                           where the sets refute the start, else the search whole
                           (joint_tiesearch.c), 0 */
    double late_widen_z; /* [late_widen_z] a late service's every call widened only when
                           the excess holds with the chance count this many standard
                           errors up (joint_latewiden.c); 0: the excess alone */
    double thread_soft_z; /* [thread_soft_z] thread_soft's bar from the trace: a service
                           whose rate is over thread_soft is weighed too where its misses
                           fall under chance's by at least this many Poisson standard
                           deviations, sqrt(chance's), on some pass (joint_thrbar.c); 0 off */
    int conf_copy_share_fpc; /* [conf_copy_share_fpc] with conf_copy_share_z: its bound
                           with the finite-population correction, z = k (1 - r), r the
                           default over the smaller copy's sampling standard error about
                           the trace (0 where the default copy is the whole trace)
                           (joint_sczfpc.c); 0 off */
    double sczfpc_r;    /* not an option: that r (-1: no smaller copy) */
    double sczfpc_nd;   /* not an option: the default copy's share of the trace's pairs */
    int late_excess_ties; /* [late_excess_ties] the late-call test's excess (widen=all)
                           counts the calls tied at their request's end at coarse stamps,
                           each by its chance of being an orphan (joint_lateexties.c); default 1
                           since the thirty-seventh wave; 0 off */
    int conf_ratio_events; /* [conf_ratio_events] the events map's error times the doubt
                           ratio counted in its units of m rows on both sides, never above
                           the plain ratio (joint_cfevratio.c); 0 off */
    double conf_ratio_events_band; /* [conf_ratio_events_band] with conf_ratio_events: only
                           the rows stated at least this count on both sides; 0 all */
    double thread_soft_starts; /* [thread_soft_starts] a service over thread_soft's bar is
                           weighed where its visits' starts keep off the threads open visits
                           hold by at least this many sds on some pass, its term at the bar's
                           rate (joint_thrstart.c); 0 off */
    int bb_serial;      /* [bb_serial] without call ids: loss_serial's term (3: the
                           learned rate, 4: as if none overlapped) on the links the
                           serial test calls one at a time (joint_bbser.c); 7: a second
                           inference at 3, kept where the model prefers it; 0 off */
    int unp_cert;       /* [unp_cert] with unp_lite 4-9: the free first search kept only
                           where a statement about it says the held search could not win,
                           else the default's path (joint_unpcert.c); 1 a measurement
                           (the default's first search's verdict beside a free search's
                           statistics), 0 off */
    int unp_wboth;      /* [unp_wboth] the loss rule's whole second search as two warm
                           searches, free from the first search's free solution and held
                           from its held one, chosen again (joint_unpwboth.c); 0 off */
    double loss_serial_under; /* [loss_serial_under] the serial test's bound on a link's
                           overlaps, as a share of chance's (the busy fractions'), when
                           above the default's 1/4 (joint_lserunder.c); 0 off */
    int tie_keep_choice; /* [tie_keep_choice] with tie_test=2: the free / held choice made
                           at tie_test=1, only the chosen search's verdict tie_test=2's
                           (joint_tiekeep.c); 0 off */
    int late_tie_learn; /* [late_tie_learn] on rows subtick spread: a late link's calls
                           tied at their request's end count, in its late share, the
                           link's late chance learned from the rows' order (joint_latelearn.c);
                           0 off */
    double thread_soft_starts_end; /* [thread_soft_starts_end] with thread_soft_pick 6-7:
                           after the searches, the services thread_soft still does not
                           weigh whose visits' starts kept off open visits' threads by at
                           least this many sds are weighed by their starts alone
                           (thread_soft_starts' rule, on them only) in one more search,
                           kept where thread_soft_pick's check prefers it to the solution
                           chosen (joint_thrsend.c); default 10 since the
                           thirty-seventh wave; 0 off */
    const unsigned char *thrse_only; /* not an option: set only on that search, the
                           services (by node) thread_soft_starts may weigh; NULL: every one */
    int bb_serial_warm; /* [bb_serial_warm] bb_serial=7's second inference from the first
                           solution's pairs and parents (joint_bbser.c); 2 on the window of
                           the stacked calls (joint_bbwin.c); 0 from scratch */
    int bb_serial_repair; /* [bb_serial_repair] its re-pairing rounds (-1: repair's) */
    int bb_serial_swaps; /* [bb_serial_swaps] its swap rounds (-1: swap_rounds') */
    double bb_serial_win_max; /* [bb_serial_win_max] bb_serial_warm=2: the window's most
                                 share of the messages (joint_bbwin.c) */
    int late_ends;      /* [late_ends] a late link whose orphans' own enclosure chance is at
                           late_chance's cap: its late share from the sender's request ends
                           inside its calls less chance's (joint_lateends.c); 0 off */
    int unp_wlocal;     /* [unp_wlocal] with unp_wboth=1: the two warm second searches
                           re-split only pairs of requests one of which is open (a request
                           on a link with a changed message, or a candidate parent of one;
                           a kept re-split opens both), 2 also the greedy rounds move only
                           calls that are open or have an open candidate; 3, 4 as
                           1, 2, a changed request opening its present parent only
                           (joint_unpwlocal.c); 0 off */
    const unsigned char *uwl_chg; /* not an option: unp_wlocal's changed messages (per
                           message 1 on a link with a changed message), set on the warm
                           searches only, else NULL */
    int sv_pre;         /* [sv_pre] sv_lazy=3's searches pause before their main solve, the
                           losing one left there (joint_svpre.c); 0 off; raised by 10
                           on a search that may pause */
    double sv_pre_k;    /* [sv_pre_k] sv_pre's factor on the leader's gain (0: sv_lazy_k) */
    int bb_serial_seeds; /* [bb_serial_seeds] bb_serial_warm=2|3: each stacked call seeds its
                            request and its k best candidates' (idle, nearest; joint_bbseeds.c);
                            0 every candidate's */
    double bb_serial_removed; /* [bb_serial_removed] with bb_serial_seeds: the window's term
                                 solution kept only where it took away at least this share of
                                 the stacks (joint_bbseeds.c); 0 off */
    int conf_sib_usual; /* [conf_sib_usual] the siblings cap also holds a row sent before
                           any return of its link's usual trigger link no surer than its
                           request's calls on that link (joint_sibusual.c); 2 also, where
                           it holds none, than its other calls; 0 off */
    double conf_sib_usual_share; /* [conf_sib_usual_share] the share of a link's rows a
                           trigger link must trigger to be its usual one */
    double thread_bound_starts; /* [thread_bound_starts] thread_bound: a service whose
                           answers never left their visits' threads but where chance gives
                           under thread_expect misses is bound all the same where its
                           visits' starts kept off open visits' threads by at least this
                           many sds (joint_busythr.c); 0 off */
    int conf_kind_map; /* [conf_kind_map] the events map per link and kind of request
                          (joint_cfkind.c): 1 also, 2 instead where the class has one; 0 off */
    int conf_kind_map_min; /* [conf_kind_map_min] its classes' least copy rows (0: the
                              maps' own minimum) */
} joint_params;

/* The option table over joint_params. */
extern const pb_option joint_options[];

typedef struct joint joint;

/* Pair calls with returns, find every call's candidate parents and choose
 * the joint assignment (all steps but the output).  The view must stay
 * alive and unchanged until joint_close.  *out is owned by the caller.
 * Returns PB_OK, PB_ENOMEM, PB_EINVAL (no type column; bad parameters),
 * PB_EIO / PB_EPARSE (call-graph file), PB_ERANGE (trace too large for
 * 32-bit indices). */
int joint_init(joint **out, const pb_trace_view *v, const joint_params *params,
               pb_error *err);

/* Free everything.  NULL-safe. */
void joint_close(joint *s);

/* Number of call pairs (numbered in the order of their call messages). */
uint32_t joint_npairs(const joint *s);

/* Message indices (into the view) of pair i's call and return. */
uint32_t joint_pair_call(const joint *s, uint32_t i);
uint32_t joint_pair_return(const joint *s, uint32_t i);

/* The trace's timestamp resolution as joint measured it (pb_tick_detect):
 * at a tick above 20 ns a delay stamped 0 is scored as half a tick. */
pb_ns joint_tick(const joint *s);

/* conf[0..npairs): how sure joint is that pair q sits where it put it:
 * the product, from q's root down to q, of each call's share of its
 * candidates (docs/joint/confidence.md, "Links and confidence").  PB_OK or PB_ENOMEM */
int joint_confidence(joint *s, double *conf);

/* The chosen parent pair of pair i, or JOINT_NONE for a path root. */
uint32_t joint_pair_parent(const joint *s, uint32_t i);

/* Number of candidate parents of pair i. */
uint32_t joint_pair_ncandidates(const joint *s, uint32_t i);

/* Total log-likelihood of the current assignment under the fitted model. */
double joint_loglik(const joint *s);

/* Build the call paths into res (call view, as nesting_paths: node
 * latency = own time, edge delay = delay from the parent's call, total =
 * root call duration), ascribe messages, add counters and a report.  Call
 * once.  Returns PB_OK or PB_ENOMEM. */
int joint_paths(joint *s, pb_result *res, pb_error *err);

/* The signals joint chose for service `name` (joint_select.c, docs/joint/model.md
 * "Signals chosen per service"): out[0] its delay densities pooled over
 * its callers (1) or keyed by caller (0), out[1] its call counts pooled,
 * out[2] its call counts scored, out[3] the durations of its consecutive
 * calls scored; gain[0..3] the held-out gains (nats) of pooling the
 * delays, pooling the counts, the counts against flat ones, and the
 * duration term's exchange test.  PB_OK, or PB_EINVAL when the trace has
 * no such node */
int joint_signals(const joint *s, const char *name, int out[4], double gain[4]);

/* joint's string options (matching, start, service_order, pair_order,
 * callers, out_sets, tick_ivl, subtick) checked against their words:
 * PB_OK, or PB_EINVAL naming the option and the words it takes
 * (joint_optcheck.c; infer calls it before reading the trace) */
int joint_params_check(const joint_params *p, pb_error *err);

#endif
