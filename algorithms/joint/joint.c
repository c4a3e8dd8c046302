/*
 * joint.c - joint maximum-likelihood request reconstruction (docs/joint.md).
 *
 * Steps (each O(messages x requests in flight at a service), with small
 * per-request factors):
 *   1. pair calls with returns (by call id, else first-in first-out per
 *      caller and callee, as nesting does);
 *   2. per service, on its own clock, the candidate parents of a call it
 *      makes are the requests it serves whose interval contains the call
 *      and its return (one sweep per service);
 *   3. the model: in a request, each output (a call it makes, or its
 *      response) is triggered by the latest earlier input of the same
 *      request (its arrival, or the return of one of its calls); delay
 *      densities per (incoming endpoint, trigger, output), kernel-smoothed
 *      histograms of log delay (GSL); and per (incoming endpoint, outgoing
 *      endpoint) the distribution of how many such calls a request makes;
 *   4. start first come, first served per endpoint, then alternate:
 *      refit the model from the current assignment and reassign every
 *      call to its cheapest candidate, the others fixed (or, with
 *      matching=flow, a min-cost flow per endpoint through GLPK's
 *      out-of-kilter solver, with convex per-request slot costs);
 *   5. exact re-split: for every two requests competing for a call, try
 *      every split of the calls both could own (at most 2^8), keep the most
 *      likely (triggers, response delay and call counts of both);
 *   6. without call ids, exchange the returns of overlapping calls of one
 *      link (with a re-split of theirs and their parents' calls) when the
 *      likelihood rises, then recompute candidates and repeat 4-5.
 * Paths are then built from the chosen parents (joint_paths.c).
 * Files: this one (options, call-graph file, set-up, the driver),
 * joint_cand.c (1-2), joint_model.c (3), joint_search.c (4-5),
 * joint_repair.c (6 and the re-pairing), joint_paths.c (output).
 */
#include "pb_files.h"
#include "joint.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include "joint_int.h"
#include "pb_algo.h"
#include "pb_tick.h"

#include <glpk.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_filter.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

const pb_option joint_options[] = {
    {"iters", PB_OPT_INT, offsetof(joint_params, iters), "4", 0, 1000,
     "rounds of refit + reassignment (greedy or flow; stops early when nothing changes)"},
    {"passes", PB_OPT_INT, offsetof(joint_params, passes), "4", 0, 1000,
     "passes of the exact re-split of the calls two competing requests share"},
    {"bin", PB_OPT_DOUBLE, offsetof(joint_params, bin), "0.02", 0.001, 1,
     "width of the delay-density bins, in decades of delay (log10 seconds)"},
    {"bw_min", PB_OPT_DOUBLE, offsetof(joint_params, bw_min), "1.5", 0, 1000,
     "least standard deviation of the density kernel, in bins"},
    {"floor", PB_OPT_DOUBLE, offsetof(joint_params, floor), "0.001", 1e-12, 0.5,
     "weight of the uniform background mixed into every delay density"},
    {"alpha", PB_OPT_DOUBLE, offsetof(joint_params, alpha), "0.1", 1e-9, 100,
     "pseudo-count added to every call count of the call-count model"},
    {"slack", PB_OPT_DURATION, offsetof(joint_params, slack), "0", 0, 1e6,
     "tolerance of the containment test (a call inside its parent's interval, one clock)"},
    {"early", PB_OPT_DURATION, offsetof(joint_params, early), "10ms", 0, 1e6,
     "a return may be stamped this much before its call (clock offsets) and still pair with it"},
    {"matching", PB_OPT_STRING, offsetof(joint_params, matching), "greedy", PB_OPT_NORANGE,
     "reassignment rounds: greedy (each call to its best request, others fixed) or flow "
     "(min-cost flow per endpoint, GLPK out-of-kilter)"},
    {"parallel", PB_OPT_DOUBLE, offsetof(joint_params, parallel), "0.8", 0, 1,
     "a call's return is no trigger of a later output of its request when, over the "
     "requests making both, the output left before the return more often than this "
     "(learned parallel calls); 1 = off"},
    {"start", PB_OPT_STRING, offsetof(joint_params, start), "rank", PB_OPT_NORANGE,
     "first assignment: rank (the i-th call of an endpoint to the i-th request the service "
     "received, when a candidate), local (earliest open candidate with the fewest calls) "
     "or earliest (earliest open candidate)"},
    {"restart", PB_OPT_BOOL, offsetof(joint_params, restart), "1", PB_OPT_NORANGE,
     "with start=rank and call ids: when the solution refutes the rank start (a ranked "
     "endpoint is called exactly once by fewer than half of the requests), solve again from "
     "start=earliest and keep that solution if its log-likelihood is higher by 10 nats"},
    {"halves", PB_OPT_BOOL, offsetof(joint_params, halves), "1", PB_OPT_NORANGE,
     "keep a call whose return is missing (or a return whose call is missing) as a half pair"},
    {"swap_rounds", PB_OPT_INT, offsetof(joint_params, swap_rounds), "2", 0, 100,
     "rounds of exchanging returns between calls of one link paired without call ids"},
    {"repair", PB_OPT_INT, offsetof(joint_params, repair), "2", 0, 100,
     "rounds of re-pairing returns without call ids: the calls are re-split with open-ended "
     "requests, then each return goes to the call whose request it can end"},
    {"service_order", PB_OPT_STRING, offsetof(joint_params, order), "auto", PB_OPT_NORANGE,
     "order of service: two overlapping requests' first calls of an endpoint follow the "
     "order of their triggers with a learned probability (in the re-split); off, on (0, "
     "1: every endpoint) or auto (the endpoints whose solution without the term keeps "
     "that order: a one-sided binomial test, inversions below 2 % at the 1 % level)"},
    {"corr", PB_OPT_BOOL, offsetof(joint_params, corr), "1", PB_OPT_NORANGE,
     "without call ids, score how the durations of a request's consecutive calls go "
     "together (a bivariate Gaussian of their log durations, learned from the trace)"},
    {"fifo", PB_OPT_BOOL, offsetof(joint_params, fifo), "1", PB_OPT_NORANGE,
     "without call ids, test per link whether calls are answered in arrival order (a "
     "busy start's service time from the previous departure is distributed like an idle "
     "start's; Mann-Whitney, 1 % level) and keep the time-ordered pairs of links that pass"},
    {"pair_order", PB_OPT_STRING, offsetof(joint_params, pair_order), "auto", PB_OPT_NORANGE,
     "without call ids, the order in which each link answers its calls and each service "
     "makes its calls (of two consecutive ones, the later first, at a rate learned per link): "
     "auto (the search runs free and again holding that order, and keeps the held solution "
     "when it is likelier by 10 nats), on (held) or off (free) "
     "(docs/joint.md, \"Order of answers\")"},
    {"callids", PB_OPT_BOOL, offsetof(joint_params, callids), "1", PB_OPT_NORANGE,
     "pair calls and returns by call id; 0 ignores call ids (first in, first out)"},
    {"align", PB_OPT_BOOL, offsetof(joint_params, align), "1", PB_OPT_NORANGE,
     "without call ids, pair a link's calls and returns by the most likely in-order "
     "alignment that may leave a message unpaired (its partner lost); 0: first in, first out"},
    {"align_nest", PB_OPT_DOUBLE, offsetof(joint_params, align_nest), "8", 0, 19,
     "without call ids, nats for a pair whose call was sent before, and whose return "
     "reached the caller after, a moment the caller served no request (or whose return "
     "precedes its call); a link with such pairs is aligned again with this penalty "
     "(docs/joint.md, \"Robustness\"); 0 = off"},
    {"unpaired", PB_OPT_INT, offsetof(joint_params, unpaired), "0", 0, 3,
     "without call ids, on links that lost messages and are re-paired, choose which calls "
     "and returns stay unpaired after a first search: a min-cost pairing by the link's "
     "re-paired durations, each unpaired message at -log(q / (1 - q)) nats (q: the share "
     "of messages the first search left unpaired); when it leaves other messages "
     "unpaired, search again.  1 = only links that answer out of arrival order (overtakes "
     "above 2 %, one-sided binomial test at 1 %), 2 = every such link, 3 = as 1, the "
     "second search kept only when the model finds its requests likelier than the first "
     "search's by more than 10 nats (each under its own refit) and, on a copy of the "
     "trace made from the first solution that loses messages afresh at the rate it "
     "shows, more requests come out exact only with the choice than only without by a "
     "sign test at 5 % (metadata unpaired_check=), 0 = the alignment's choice "
     "(docs/joint/shapes.md, \"Which messages stay unpaired, checked\")"},
    {"uncross", PB_OPT_BOOL, offsetof(joint_params, uncross), "1", PB_OPT_NORANGE,
     "when messages were lost (half pairs), after the search: for every request a half "
     "pair touches and every request competing with it for a call, try exchanging all "
     "their calls sent from (or before) one moment, and keep the best exchange that makes "
     "the two likelier (a crossing of two chains at a loss; docs/joint.md, \"Loss with "
     "call ids\"); nothing without loss; 0 = off"},
    {"uncross_min", PB_OPT_DOUBLE, offsetof(joint_params, uncross_min), "1.9207", 0, 1e6,
     "nats a move of uncross must gain to be kept (default: half the 95 % point of "
     "chi-square with one degree of freedom, as if the move were a likelihood-ratio test)"},
    {"uncross_check", PB_OPT_BOOL, offsetof(joint_params, uncross_check), "1", PB_OPT_NORANGE,
     "after each pass of uncross the search runs again; keep its changes only when a "
     "cross-fitted likelihood (each half of the requests scored under the model fitted "
     "to the other half) beats the solution it started from by more than 10 nats, else "
     "keep uncross's moves alone (docs/joint.md, \"Loss with call ids: uncross's search "
     "checked held out\"; metadata uncross_check=); 0 = keep the search's changes"},
    {"reunp", PB_OPT_INT, offsetof(joint_params, reunp), "0", 0, 2,
     "without call ids, under loss: the re-pairing of a link whose callee calls on also "
     "weighs which of its calls keep no return (each call the alignment left without one "
     "against the calls received near it; kept when the re-pairing's cost falls by more "
     "than uncross_min); 2 = checked on a copy: used only when, on a copy of the trace "
     "made from the solution that loses messages afresh at the rate the solution shows, "
     "more requests come out exact only with it than only without by a sign test at "
     "5 %, then the search runs once more with it (metadata reunp_check=); 1 = always; "
     "0 = off (the default: reunp=2 cost one held-out draw of a synthetic class); "
     "nothing without loss (docs/joint/shapes.md, "
     "\"Which calls keep no return\")"},
    {"callgraph", PB_OPT_STRING, offsetof(joint_params, callgraph), "", PB_OPT_NORANGE,
     "file of allowed calls, lines 'CALLER SERVICE CALLEE...'; empty = learn from the trace"},
    {"min_confidence", PB_OPT_DOUBLE, offsetof(joint_params, min_confidence), "0", 0, 1,
     "leave a call and its return unattached (abstain) when joint's confidence in the "
     "request it put them in is below this; 0 = attach everything"},
    {"conf_heldout", PB_OPT_BOOL, offsetof(joint_params, conf_heldout), "0", PB_OPT_NORANGE,
     "confidence: compute each call's share also under the model refitted to the half of "
     "the request trees its own is not in, and keep the smaller (an allowance for a model "
     "that has seen the delays it judges); assignments are unchanged"},
    {"conf_selfcal", PB_OPT_BOOL, offsetof(joint_params, conf_selfcal), "1", PB_OPT_NORANGE,
     "confidence: make the trace again from the solution (real arrivals, the same calls, "
     "delays drawn from the solution's own), run the same inference on it, and map each "
     "link's stated shares to the fraction right there (monotone fit); assignments are "
     "unchanged"},
    {"conf_seed", PB_OPT_INT, offsetof(joint_params, conf_seed), "1", 0, 2147483647,
     "seed of the self-calibration's draws (GSL mt19937; simulation k uses seed + k)"},
    {"conf_sims", PB_OPT_INT, offsetof(joint_params, conf_sims), "1", 1, 16,
     "simulations the self-calibration pools (each one more inference: less spread "
     "between seeds, more CPU)"},
    {"conf_sim_share", PB_OPT_DOUBLE, offsetof(joint_params, conf_sim_share), "0.25", 0.01, 1,
     "share of the trace's pairs the self-calibration simulates: the request trees of a "
     "window of the trace's time around its middle (at most 10,000 pairs)"},
    {"conf_sim_pairs", PB_OPT_INT, offsetof(joint_params, conf_sim_pairs), "2000", 1, 10000,
     "pairs the self-calibration simulates at least (when the trace has them)"},
    {"conf_siblings", PB_OPT_BOOL, offsetof(joint_params, conf_siblings), "1", PB_OPT_NORANGE,
     "confidence: a call is no surer than the least sure call its request makes on the "
     "same link, than the call whose return triggered it and than its parent (crossed "
     "chains of three or more requests, which no neighbour of the shares reaches, leave "
     "doubt beside them); rows right by construction (one candidate up to the root) are "
     "left alone, and with conf_order the rows it lowers keep their own order; "
     "assignments are unchanged"},
    {"conf_sib_learn", PB_OPT_BOOL, offsetof(joint_params, conf_sib_learn), "1", PB_OPT_NORANGE,
     "confidence: the siblings cap decided per trace from the self-calibration's copy: off "
     "only when the copy is like the trace (mean doubt within a two-sided z of 1.96), its "
     "held-out rows without the cap are calibrated (Wilson lower bound) at every level the "
     "real rows reach, and the cap costs its coverage at 99 % precision more than 1 % of its "
     "rows; 0: the cap always; metadata siblings_strength= siblings_reason=; assignments "
     "are unchanged"},
    {"conf_order", PB_OPT_BOOL, offsetof(joint_params, conf_order), "1", PB_OPT_NORANGE,
     "confidence: rows the self-calibration's map puts in one block keep the order of "
     "their stated confidences (each lowered by at most 1e-4, on a log scale of its "
     "doubt), so min_confidence can tell them apart; assignments are unchanged"},
    {"top", PB_OPT_INT, offsetof(joint_params, top), "20", 0, 1e9,
     "patterns shown in the text report; 0 = all"},
    {"max_candidates", PB_OPT_INT, offsetof(joint_params, max_cand), "32", 1, 1e7,
     "candidate parents one call may have: the requests in flight at its "
     "caller that enclose it (which are kept: cand_ends; a cap on memory and "
     "time when thousands are in flight at once; a warning says when it cut)"},
    {"cand_ends", PB_OPT_BOOL, offsetof(joint_params, cand_ends), "1", PB_OPT_NORANGE,
     "where max_candidates cuts a call's candidates, half the places go to the "
     "latest-started enclosing requests and the rest to the earliest-ending (the "
     "candidate test is symmetric in time; a slow service's queue puts the parent at "
     "the early end; joint_candends.c); 0 = the latest-started only"},
    {"callers", PB_OPT_STRING, offsetof(joint_params, callers), "auto", PB_OPT_NORANGE,
     "delay densities and call counts of a service with several callers: keyed by caller, "
     "pooled over its callers, or auto (per service, by held-out likelihood over the "
     "requests paired beyond doubt, two folds; also chooses per service whether call counts and "
     "the durations of consecutive calls are scored; metadata signal_service=)"},
    {"resplit_prune", PB_OPT_BOOL, offsetof(joint_params, prune), "1", PB_OPT_NORANGE,
     "speed only, the same results: the re-split estimates a split from the walks of "
     "one it scored (the steps a move cannot change are taken from them) and scores it "
     "in full only when the estimate can beat the best split so far; 0 scores every split"},
    {"resplit_bound", PB_OPT_BOOL, offsetof(joint_params, bound), "1", PB_OPT_NORANGE,
     "speed only, the same results: the exhaustive re-split of two small requests decides "
     "the shared calls in call order and leaves out every subtree of splits whose upper "
     "bound (exact steps before the first free call, the largest density and count each "
     "later term can take) is below the best split scored; 0 scores every split"},
    {"fit_fast", PB_OPT_BOOL, offsetof(joint_params, fit_fast), "1", PB_OPT_NORANGE,
     "speed only, the same results: a refit computes each changed delay density over "
     "the bins its smoothed histogram reaches (the others hold the background alone, "
     "written only where the key's last density reached); 0 computes every bin"},
    {"select_share", PB_OPT_BOOL, offsetof(joint_params, select_share), "1", PB_OPT_NORANGE,
     "speed only, the same results: without call ids the held search takes the free "
     "search's per-service signal choice (callers=auto's held-out fits) when everything "
     "that choice reads is the same (a fingerprint of the pairs, candidates and first "
     "assignment); 0 fits again"},
    {"selfcal_select", PB_OPT_BOOL, offsetof(joint_params, selfcal_select), "1",
     PB_OPT_NORANGE,
     "the self-calibration's simulated copy takes the real trace's per-service signal "
     "choice (callers=auto's held-out fits: pooled densities and counts, flat counts, "
     "durations), matched by service name, instead of fitting its own; changes "
     "confidences only (docs/joint.md, \"Speed, ninth wave: the self-calibration\"); "
     "0 fits again"},
    {"swap_bound", PB_OPT_BOOL, offsetof(joint_params, swap_bound), "1", PB_OPT_NORANGE,
     "speed only, the same results: without call ids, the re-split of the two requests "
     "an exchange of returns touches (step 5) goes by branch and bound as resplit_bound "
     "does (and only with resplit_bound=1); 0 estimates every split"},
    {"swap_floor", PB_OPT_BOOL, offsetof(joint_params, swap_floor), "1", PB_OPT_NORANGE,
     "speed only, the same results: without call ids, the re-split of the two requests "
     "above an exchange of returns (step 5) scores only the splits that could make the "
     "exchange gain more than the best so far (joint_xfloor.c); 0 scores every split "
     "that could be the best"},
    {"swap_memo", PB_OPT_BOOL, offsetof(joint_params, swap_memo), "1", PB_OPT_NORANGE,
     "speed only, the same results: without call ids, within one pass of exchanges of "
     "returns (step 5) each request's own log-likelihood is walked once and kept until "
     "an exchange is applied (joint_xfloor.c); 0 walks it for every exchange tried"},
    {"greedy_cut", PB_OPT_BOOL, offsetof(joint_params, greedy_cut), "1", PB_OPT_NORANGE,
     "speed only, the same results: the greedy round scores a candidate request in one "
     "pass over its calls, the search for the call's trigger stopping at the first call "
     "sent after it (when every return follows its call, checked each round); 0 scans "
     "every call twice"},
    {"resplit_memo", PB_OPT_BOOL, offsetof(joint_params, resplit_memo), "1", PB_OPT_NORANGE,
     "speed only, the same results: the local search of two large requests keeps the "
     "estimate of a request without one of its calls (a single move from it) and uses it "
     "again in the pairs of that request with the call's other candidates while the "
     "request is unchanged (joint_lsmemo.c); 0 estimates every move afresh"},
    {"resplit_wcache", PB_OPT_BOOL, offsetof(joint_params, resplit_wcache), "1",
     PB_OPT_NORANGE,
     "speed only, the same results: within one local search, the walk of a request's "
     "current kid list that starts a re-split is kept and copied when the request comes "
     "back with the same list in another pair (joint_wcache.c); 0 walks it afresh"},
    {"greedy_sorted", PB_OPT_BOOL, offsetof(joint_params, greedy_sorted), "1",
     PB_OPT_NORANGE,
     "speed only, the same results: with greedy_cut, the greedy round finds the trigger "
     "of a call in a request of 10 calls or more by a search of the request's returns "
     "sorted once per round, and its count from the request's calls per link "
     "(joint_gsort.c); 0 scans the request's calls"},
    {"bnb_step_keys", PB_OPT_BOOL, offsetof(joint_params, bnb_step_keys), "1",
     PB_OPT_NORANGE,
     "speed only, the same results: the bounded re-split (resplit_bound) bounds each "
     "step from the possible returns' times sorted once per request and each output "
     "link's density keys looked up once per request (joint_bnb.c); 0 scans them for "
     "every step"},
    {"bnb_count_masks", PB_OPT_BOOL, offsetof(joint_params, bnb_count_masks), "1",
     PB_OPT_NORANGE,
     "speed only, the same results: the bounded re-split (resplit_bound) counts each "
     "touched link's placed and free shared calls from bit masks made once per re-split "
     "(joint_bnb.c); 0 scans the shared calls for every subtree"},
    {"order_bound", PB_OPT_BOOL, offsetof(joint_params, order_bound), "1", PB_OPT_NORANGE,
     "speed only, the same results: without call ids the held search leaves out the "
     "order of first calls from a split estimate that is left out without it (the term "
     "is at most 0) and the order of answers from an exchange of returns that loses by "
     "more than it can change (joint_ordbound.c); 0 computes both every time"},
    {"conf_sync", PB_OPT_BOOL, offsetof(joint_params, conf_sync), "1", PB_OPT_NORANGE,
     "speed only, the same results: the confidence records each request's walk with its "
     "terms, and an alternative's walk stops at the first step from which the recorded "
     "steps are provably the same terms and adds those one by one (joint_conf.c); 0 "
     "walks every alternative to its end"},
    {"conf_pair_memo", PB_OPT_BOOL, offsetof(joint_params, conf_pair_memo), "1",
     PB_OPT_NORANGE,
     "speed only, the same results: without call ids the confidence's pairing share walks "
     "each request as it stands once and keeps the value, not once per exchange of returns "
     "it scores (nothing changes between them; joint_repair.c); 0 walks it every time"},
    {"parallel_check", PB_OPT_BOOL, offsetof(joint_params, parallel_check), "1",
     PB_OPT_NORANGE,
     "with call ids, when the search learned parallel calls (option parallel), search "
     "again without them and keep that solution when the model finds it likelier by 10 "
     "nats (each under its own refit; metadata parallel_check=; joint_serial.c)"},
    {"parallel_check_bb", PB_OPT_BOOL, offsetof(joint_params, parallel_check_bb), "1",
     PB_OPT_NORANGE,
     "the same without call ids: when a parallel call learned at some refit of the kept "
     "search (free or held) is no longer learned at its end, that search runs again "
     "without them, kept by parallel_check's rule over every call learned (metadata "
     "parallel_check_bb=; joint_bbserial.c)"},
    {"parallel_check_bb_all", PB_OPT_BOOL, offsetof(joint_params, parallel_check_bb_all), "0",
     PB_OPT_NORANGE,
     "parallel_check_bb runs only when a parallel call learned at some refit of the kept "
     "search is no longer learned at its end; 1 runs it whenever one was learned"},
    {"parallel_check_bb_early", PB_OPT_BOOL, offsetof(joint_params, parallel_check_bb_early),
     "1", PB_OPT_NORANGE,
     "parallel_check_bb decided before the held search: when the free search dropped a "
     "parallel call it learned at some refit, the held search runs without learned "
     "parallel calls directly and is kept as the held one when its solution shows none "
     "of the free search's learned calls (else the held search runs as before and that "
     "run serves as its check; metadata parallel_check_bb=early; joint_bbserial.c); 0 "
     "always runs the held search with them first"},
    {"late_calls", PB_OPT_BOOL, offsetof(joint_params, late_calls), "1", PB_OPT_NORANGE,
     "a call that no request of its service encloses (its return came after the "
     "response, or it was sent after it) may belong to a request it was sent in, or "
     "sent at most a learned gap after, at services whose such calls fall near their "
     "requests far more often than chance (one-sided binomial test, 1 % level)"},
    {"late_split", PB_OPT_BOOL, offsetof(joint_params, late_split), "1", PB_OPT_NORANGE,
     "with late_calls, widen only the calls no request encloses (orphans), and to "
     "requests that ended before the call was sent only as long before as the test's "
     "orphans were sent after theirs (the smallest of the test's gaps at least their "
     "largest send lag; 0 when each was sent inside a request; joint_latesend.c); 0: "
     "every call of the service, by the test's gap"},
    {"late_attach", PB_OPT_BOOL, offsetof(joint_params, late_attach), "1", PB_OPT_NORANGE,
     "with late_split, at services that pass the test with their near orphans mostly "
     "chance (excess below 1/2; widen=orphans): the orphans stay roots during the search "
     "and are then put, each, in the candidate request where the model refitted gains "
     "most, twice (metadata late_attach=; joint_lateattach.c); 0: searched with the "
     "other calls"},
    {"late_timer", PB_OPT_BOOL, offsetof(joint_params, late_timer), "1", PB_OPT_NORANGE,
     "with late_attach, at the services whose orphans it holds: an output of a request "
     "sent after a call of it that outlives it (returns after its response) and after "
     "every return it received before may be triggered by that call's send (the caller "
     "stopped waiting: a timeout, a fire-and-forget call), a delay key of its own; "
     "joint_lateattach.c"},
    {"late_trust", PB_OPT_BOOL, offsetof(joint_params, late_trust), "1", PB_OPT_NORANGE,
     "with late_attach and conf_selfcal: before the output, a held orphan's placement "
     "is kept only when its posterior among its candidates times the self-calibration's "
     "accuracy on its link (the trust in the solution around it) is above 1/2, else the "
     "orphan is left a root (metadata late_trust=; joint_latetrust.c); 0: kept whenever "
     "the posterior is above 1/2"},
    {"late_tie_share", PB_OPT_BOOL, offsetof(joint_params, late_tie_share), "1",
     PB_OPT_NORANGE,
     "with late_split, at whole-tick stamps with many ties (infer's coarse_ties=1): a "
     "call whose return shares its stamp with the ends of all k requests that would "
     "enclose it counts 1/(k+1) of an orphan (the chance its return came after all of "
     "them within the tick) in its link's orphan share, which decides late_link= "
     "(metadata late_tie_share=; joint_latetie.c); 0: such a call counts as enclosed"},
    {"late_count", PB_OPT_BOOL, offsetof(joint_params, late_count), "1", PB_OPT_NORANGE,
     "with late_calls, at services that pass the test: the number of a request's calls "
     "of a link that return after its response, given how many calls of that link it "
     "makes, is a term of the model learned from the assignment (P(m | c), pseudo-count "
     "alpha; metadata late_count=; joint_latecount.c); 0: such a call scores nothing"},
    {"busy_test", PB_OPT_BOOL, offsetof(joint_params, busy_test), "1", PB_OPT_NORANGE,
     "with pair_order=auto, also keep the held search when more than half of the pairs "
     "the two searches assign differently are at services whose calls land on a busy "
     "callee far less often than copies of the free solution predict (they serialise "
     "their work; z below -3.29; metadata busy_service=)"},
    {"busy_more", PB_OPT_BOOL, offsetof(joint_params, busy_more), "1", PB_OPT_NORANGE,
     "busy test: where a service's verdict depends on the copies' own spread (z above "
     "-3.29 with the first copies, below it were their share exact), draw more copies "
     "until they hold 3 times the service's calls (at most 12; joint_busymore.c; "
     "metadata busy_copies=)"},
    {"busy_space", PB_OPT_BOOL, offsetof(joint_params, busy_space), "1", PB_OPT_NORANGE,
     "busy test, where it and the likelihood keep the free search: a service also "
     "serialises when fewer of the gaps between its consecutive sends (calls it makes, "
     "answers it returns) fall below their 0.1 quantile in the trace than in the copies "
     "of the free solution (z below -3.29; not at coarse ties; joint_space.c; metadata "
     "busy_spacing= where it changes the choice)"},
    {"busy_partial", PB_OPT_BOOL, offsetof(joint_params, busy_partial), "1", PB_OPT_NORANGE,
     "busy test, where it and the likelihood keep the free search and services found "
     "serialising are where the two searches differ: a third search holds the order only "
     "on the links of those services, kept when more than half of the pairs it assigns "
     "otherwise than the free one are at them (joint_partial.c; metadata busy_partial= "
     "where it runs)"},
    {"tie_test", PB_OPT_BOOL, offsetof(joint_params, tie_test), "1", PB_OPT_NORANGE,
     "at whole-tick stamps with many ties (infer's coarse_ties=1), keep the start when "
     "more than half of the calls the search moved went to a request that arrived in "
     "the same tick as their start parent (call ids only; metadata tie_test=)"},
    {"tie_cross", PB_OPT_BOOL, offsetof(joint_params, tie_cross), "1", PB_OPT_NORANGE,
     "when the tie test keeps the start, give every call the search moved to a request "
     "arriving more than a tick from its start parent's its search parent back, and "
     "refit (joint_tiecross.c; metadata tie_cross=)"},
    {"out_sets", PB_OPT_STRING, offsetof(joint_params, out_sets), "auto", PB_OPT_NORANGE,
     "auto, on or off: the set of calls a request makes (its count of every outgoing "
     "link) scored as one signature per incoming endpoint, P(set) = (N(set) + prior "
     "P0(set)) / (N + prior) with P0 the per-link counts' product, instead of link by "
     "link; auto: per incoming endpoint of a service with two or more outgoing links, "
     "by held-out likelihood over two folds of the requests (joint_oset.c; metadata "
     "out_sets=)"},
    {"out_sets_prior", PB_OPT_DOUBLE, offsetof(joint_params, out_sets_prior), "1", 0, 1e6,
     "out_sets: the concentration of the signature term (a set never seen costs "
     "log(prior / (N + prior)) beside its per-link counts' probability; the larger, "
     "the nearer the per-link product); 0: per incoming endpoint the one of 1, 4, 16, "
     ".., 4096 with the largest held-out gain (tried, not the default: docs/joint.md)"},
    {"out_sets_min", PB_OPT_DOUBLE, offsetof(joint_params, out_sets_min), "0.5", 0, 1e6,
     "out_sets=auto: the least held-out gain, in nats per held-out request, at which the "
     "term is turned on (beside joint_select's margin)"},
    {"tie_orphans", PB_OPT_BOOL, offsetof(joint_params, tie_orphans), "1", PB_OPT_NORANGE,
     "the tie test does not keep a start that leaves calls without a parent where the "
     "search gave them one: a sign test over the calls with a parent in only one of the "
     "two (one-sided binomial at one half below 0.05, more of them without one in the "
     "start) keeps the search when it is likelier than the start (joint_tieorph.c; "
     "metadata tie_orphans=)"},
    {"tie_orphans_rows", PB_OPT_BOOL, offsetof(joint_params, tie_orphans_rows), "1",
     PB_OPT_NORANGE,
     "on rows spread by subtick (its check found them in the order of events), "
     "tie_orphans refutes the start by its sign test alone, whether or not the search is "
     "likelier (the likelihoods are of the spread positions; joint_roworph.c; metadata "
     "tie_orphans_rows=)"},
    {"tie_rows", PB_OPT_BOOL, offsetof(joint_params, tie_rows), "1", PB_OPT_NORANGE,
     "at whole-tick stamps with many ties (infer's coarse_ties=1), per service, take the "
     "order of the rows as the order of events within a tick: a request that arrived in a "
     "call's tick in a later row, or answered in its return's tick in an earlier row, is "
     "no candidate parent; used where at least 10 calls have such candidates and at most "
     "tie_rows_fail of them would be left with none (joint_rowtie.c; metadata "
     "tie_rows_service=, tie_rows=)"},
    {"tie_rows_fail", PB_OPT_DOUBLE, offsetof(joint_params, tie_rows_fail), "0.01", 0, 1,
     "tie_rows: the most calls the rows would leave without a candidate, a share of the "
     "calls whose candidates the rows cut (true event order: none but for loss)"},
    {"tie_rows_wide", PB_OPT_INT, offsetof(joint_params, tie_rows_wide), "4", 1, 64,
     "tie_rows: where the rows may be used (coarse ties), a call's candidates are collected "
     "up to this many times max_candidates, the rows put theirs out, and only then is the "
     "list cut to max_candidates (cut first, the places would go to requests of the "
     "call's own tick that the rows then deny; joint_rowcap.c); 1 = cut first"},
    {"tick0", PB_OPT_BOOL, offsetof(joint_params, tick0), "1", PB_OPT_NORANGE,
     "at whole-tick stamps (ticks above 20 ns) with few ties (coarse_ties=0), or many "
     "ties but a tick fine against the delays (median observed duration at least "
     "1/(10^bin-1) ticks; metadata tick0_coarse=), or where tick_ivl runs, score a "
     "delay stamped zero ticks as the probability the fitted density puts below one "
     "tick, at most the share of such delays among the observed (clean, paired beyond "
     "doubt) requests; not "
     "as a density at half a tick (metadata tick0=)"},
    {"tick_ivl", PB_OPT_STRING, offsetof(joint_params, tick_ivl), "off", PB_OPT_NORANGE,
     "auto, on or off: score a delay of k whole ticks (1 <= k <= tick_ivl_max, while "
     "each whole tick has a density bin of its own) as the fitted mass over [k, k+1) "
     "ticks, and fit it spread over that interval (with tick0 for k = 0); auto: at "
     "whole-tick stamps with many ties (infer's coarse_ties=1) when the median duration "
     "of the observed (clean, paired beyond doubt) requests is at least tick_ivl_from "
     "ticks (joint_tickivl.c; metadata tick_ivl=); off by default: it falls on "
     "OnlineBoutique at 1 ms (docs/joint.md)"},
    {"tick_ivl_max", PB_OPT_INT, offsetof(joint_params, tick_ivl_max), "20", 0, 1000,
     "the most whole ticks tick_ivl scores as intervals (0: none)"},
    {"tick_ivl_from", PB_OPT_DOUBLE, offsetof(joint_params, tick_ivl_from), "2", 0, 1e9,
     "tick_ivl=auto: the least median observed duration, in ticks, at which the "
     "intervals run (below it most delays are zero ticks and the tie test governs)"},
    {"tie_calls", PB_OPT_BOOL, offsetof(joint_params, tie_calls), "1", PB_OPT_NORANGE,
     "when the tie test keeps the start, rank calls of a link sent in the same tick by "
     "their returns (the one answered first was sent first), as requests tied at "
     "arrival are ranked by their responses (joint_tiecall.c; metadata tie_calls=)"},
    {"resolve_local", PB_OPT_INT, offsetof(joint_params, resolve_local), "0", 0, 2,
     "without call ids, the search after a pass of exchanges of returns (step 5): 1 its "
     "first re-split pass visits only the pairs of requests whose calls or returns "
     "changed since the previous search ended (by the exchanges, the greedy rounds or "
     "that pass itself), not every pair; 2 also resumes from the solution without the "
     "greedy rounds (less work again; results differ more); 0 visits every pair.  "
     "Changes results, and lost accuracy on held-out application shapes, so off by "
     "default (joint_resolve.c, docs/joint.md \"Speed, thirteenth wave\"; metadata "
     "resolve_local=)"},
    {"pair_window", PB_OPT_INT, offsetof(joint_params, pair_window), "0", 0, 100000000,
     "without call ids and pair_order=auto: make the choice between the free and the "
     "held search on a window of about this many requests (cut at quiet points, no "
     "request open, around the middle of the trace), then run only the chosen search on "
     "the whole trace; where the window's choice is not firm (a close likelihood or busy "
     "test, a trace under twice the window, no quiet point) both run as before "
     "(joint_pwin.c; metadata pair_window=); 0 off, the default: measured, the "
     "window's firm choice disagreed with the whole trace's on 10 of 26 audit runs "
     "(docs/joint/speed.md \"Speed, fourteenth wave\")"},
    {"pair_window_check", PB_OPT_BOOL, offsetof(joint_params, pair_window_check), "0",
     PB_OPT_NORANGE,
     "with pair_window: also run both searches on the whole trace, keep their choice (the "
     "result of pair_window=0) and report whether the window's agrees (metadata "
     "pair_window= ... full= agree=); for audits"},
    {"subtick", PB_OPT_STRING, offsetof(joint_params, subtick), "auto", PB_OPT_NORANGE,
     "auto, on or off: at whole-tick stamps take the order of the rows within a tick "
     "as the order of events and spread each tick's rows over it in that order (auto: "
     "at coarse ties, when within the tied rows a return before its call or a call "
     "before its service's request shows at most subtick_share times as often as with "
     "the rows read backwards, and backwards at least 20 times; joint_subtick.c; "
     "metadata subtick=)"},
    {"subtick_tie", PB_OPT_BOOL, offsetof(joint_params, subtick_tie), "1", PB_OPT_NORANGE,
     "on rows spread by subtick, run the tie test (and what follows it) at the original "
     "tick: keep the start (arrival in row order) where the search's moves stay within a "
     "tick of their start parent and gain little (joint_subtick.c)"},
    {"subtick_tie_ids", PB_OPT_BOOL, offsetof(joint_params, subtick_tie_ids), "0",
     PB_OPT_NORANGE,
     "subtick_tie also where most calls carry a call id; by default the tie test judges "
     "spread rows at the original tick only where the returns are paired without call ids "
     "(joint_subtick.c; metadata subtick_tie=)"},
    {"subtick_tie_links", PB_OPT_BOOL, offsetof(joint_params, subtick_tie_links), "0",
     PB_OPT_NORANGE,
     "the ids rule of subtick_tie per link: the tie test judges spread rows where some link "
     "has at most half of its calls with a call id and counts only the moves that touch such "
     "links (joint_subsvc.c; metadata subtick_tie_links=); 0: where at most half of all "
     "calls carry one"},
    {"subtick_share", PB_OPT_DOUBLE, offsetof(joint_params, subtick_share), "0.05", 0, 1,
     "subtick=auto: the most contradictions of the row order per contradiction of the "
     "rows read backwards at which the rows are taken as the order of events"},
    /* old name (one meaning per name: order is the baselines' choice of ordering) */
    {"order", PB_OPT_ALIAS, 0, "service_order", PB_OPT_NORANGE, NULL},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

/* ------------------------------------------------------------------ */
/* small growable u64 -> u32 hash map (links, density keys) */

uint32_t joint_hmap_get(const hmap *h, uint64_t k)
{
    if (!h->cap)
        return NONE;
    size_t mask = h->cap - 1;
    for (size_t j = pb_mix64(k) & mask; h->v[j] != NONE; j = (j + 1) & mask)
        if (h->k[j] == k)
            return h->v[j];
    return NONE;
}

int joint_hmap_put(hmap *h, uint64_t k, uint32_t v)
{
    if ((h->n + 1) * 2 > h->cap) {
        size_t nc = h->cap ? h->cap * 2 : 64;
        uint64_t *nk = malloc(nc * sizeof *nk);
        uint32_t *nv = malloc(nc * sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return PB_ENOMEM;
        }
        for (size_t j = 0; j < nc; j++)
            nv[j] = NONE;
        for (size_t i = 0; i < h->cap; i++) {
            if (h->v[i] == NONE)
                continue;
            size_t j = pb_mix64(h->k[i]) & (nc - 1);
            while (nv[j] != NONE)
                j = (j + 1) & (nc - 1);
            nk[j] = h->k[i];
            nv[j] = h->v[i];
        }
        free(h->k);
        free(h->v);
        h->k = nk;
        h->v = nv;
        h->cap = nc;
    }
    size_t mask = h->cap - 1, j = pb_mix64(k) & mask;
    while (h->v[j] != NONE && h->k[j] != k)
        j = (j + 1) & mask;
    if (h->v[j] == NONE)
        h->n++;
    h->k[j] = k;
    h->v[j] = v;
    return PB_OK;
}

static void hmap_free(hmap *h)
{
    free(h->k);
    free(h->v);
    memset(h, 0, sizeof *h);
}

/* ------------------------------------------------------------------ */
/* kid lists (calls ascribed to a request, sorted by call time) */

static int kv_insert(joint *s, uint32_t q, uint32_t p)
{
    kvec *k = &s->kids[q];
    if (pb_grow32(&k->a, sizeof *k->a, &k->cap, k->n + 1, 4) != PB_OK)
        return PB_ENOMEM;
    uint32_t i = k->n;
    while (i > 0 && (s->pr[k->a[i - 1]].cs > s->pr[p].cs ||
                     (s->pr[k->a[i - 1]].cs == s->pr[p].cs && k->a[i - 1] > p))) {
        k->a[i] = k->a[i - 1];
        i--;
    }
    k->a[i] = p;
    k->n++;
    return PB_OK;
}

static void kv_remove(joint *s, uint32_t q, uint32_t p)
{
    kvec *k = &s->kids[q];
    uint32_t i = 0;
    while (i < k->n && k->a[i] != p)
        i++;
    if (i == k->n)
        return;
    memmove(k->a + i, k->a + i + 1, (size_t)(k->n - i - 1) * sizeof *k->a);
    k->n--;
}

int joint_set_parent(joint *s, uint32_t p, uint32_t q)
{
    if (s->par[p] == q)
        return PB_OK;
    if (s->par[p] != NONE) {
        kv_remove(s, s->par[p], p);
        if (s->lsm) /* resplit_memo (joint_lsmemo.c) */
            joint_lsmemo_touch(s, s->par[p]);
        if (s->gs) /* greedy_sorted (joint_gsort.c) */
            joint_gsort_touch(s, s->par[p]);
    }
    if (q != NONE && s->lsm)
        joint_lsmemo_touch(s, q);
    if (s->rl_chg) /* resolve_local (joint_resolve.c) */
        joint_resolve_touch(s, s->par[p], q);
    if (q != NONE && s->gs)
        joint_gsort_touch(s, q);
    s->par[p] = q;
    return q == NONE ? PB_OK : kv_insert(s, q, p);
}

/* ------------------------------------------------------------------ */
/* call graph file: lines "CALLER SERVICE CALLEE..." */

/* A name of the call-graph file: its node, or NONE (counted, the first
 * one kept for the warning). */
static uint32_t cg_node(joint *s, const char *name, long ln)
{
    uint32_t a;
    if (pb_strtab_find(s->v.nodes, name, strlen(name), &a))
        return a;
    if (!s->cg_unknown++) {
        snprintf(s->cg_first, sizeof s->cg_first, "%s", name);
        s->cg_first_line = ln;
    }
    return NONE;
}

#define CG_LINE_MAX (1 << 20)

static int read_callgraph(joint *s, pb_error *err)
{
    const char *path = s->p.callgraph;
    FILE *f = pb_files_open(path, err);
    if (!f)
        return err->code;
    size_t ncells = s->cnt_off[s->nlinks] / (JOINT_KMAX + 1);
    s->allowed = calloc(ncells + 1, 1);
    if (!s->allowed) {
        if (f != stdin)
            fclose(f);
        return PB_ENOMEM;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long ln = 0;
    int rc = PB_OK;
    s->cg_unknown = s->cg_nolink = s->cg_allowed = 0;
    while (rc == PB_OK && (len = getline(&line, &cap, f)) >= 0) {
        ln++;
        if (len > CG_LINE_MAX || memchr(line, '\0', (size_t)len)) {
            rc = pb_error_set(err, PB_EPARSE, path, ln, 0,
                              "%s; expected lines 'CALLER SERVICE CALLEE...' "
                              "of text", len > CG_LINE_MAX ? "a line longer "
                              "than 1 MiB" : "a NUL byte (a binary file?)");
            break;
        }
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char *save = NULL;
        char *t0 = strtok_r(line, " \t\r\n", &save);
        if (!t0)
            continue;
        char *t1 = strtok_r(NULL, " \t\r\n", &save);
        if (!t1) {
            rc = pb_error_set(err, PB_EPARSE, path, ln, 1,
                              "one name \"%s\"; expected a line 'CALLER SERVICE "
                              "CALLEE...' (at least caller and service)", t0);
            break;
        }
        uint32_t a = cg_node(s, t0, ln), b = cg_node(s, t1, ln);
        uint32_t e = a == NONE || b == NONE
                         ? NONE
                         : joint_hmap_get(&s->linkmap, ((uint64_t)a << 32) | b);
        if (a != NONE && b != NONE && e == NONE)
            s->cg_nolink++;
        /* every callee is looked at (and an unknown one counted), however
         * many a line names */
        for (char *t = strtok_r(NULL, " \t\r\n", &save); t;
             t = strtok_r(NULL, " \t\r\n", &save)) {
            uint32_t c = cg_node(s, t, ln);
            if (c == NONE || e == NONE)
                continue;
            uint32_t l = joint_hmap_get(&s->linkmap, ((uint64_t)b << 32) | c);
            if (l == NONE)
                continue;
            s->allowed[s->cnt_off[e] / (JOINT_KMAX + 1) + s->link_local[l]] = 1;
            s->cg_allowed++;
        }
    }
    if (rc == PB_OK && ferror(f))
        rc = pb_error_set(err, PB_EIO, path, ln, 0, "read error");
    if (rc == PB_OK && !s->cg_allowed)
        rc = pb_error_set(err, PB_EINVAL, path, 0, 0,
                          "allows no call of the trace (%zu names that are no "
                          "node of it%s%s%s); expected lines 'CALLER SERVICE "
                          "CALLEE...' naming the trace's services",
                          s->cg_unknown, s->cg_unknown ? ", the first \"" : "",
                          s->cg_unknown ? s->cg_first : "", s->cg_unknown ? "\"" : "");
    free(line);
    if (f != stdin)
        fclose(f);
    return rc;
}

/* ------------------------------------------------------------------ */

/* the rank start: per service, its requests in arrival order (its own
 * clock); per outgoing endpoint that the service calls about once per
 * request (as many calls as requests, within 5 %), its calls in send order
 * (pair order); the i-th call goes to the i-th request when that request
 * is one of its candidates.  PB_OK or PB_ENOMEM */
static int rank_start(joint *s)
{
    uint32_t n = s->npairs;
    insort *rq = malloc(((size_t)n + 1) * sizeof *rq);
    uint32_t *off = calloc((size_t)s->nnodes + 2, sizeof *off);
    uint32_t *fill = calloc((size_t)s->nnodes + 1, sizeof *fill);
    uint32_t *lrank = NULL; /* a link's calls, tied ones re-ranked (joint_tiecall.c) */
    int rc = rq && off && fill ? PB_OK : PB_ENOMEM;
    for (uint32_t q = 0; rc == PB_OK && q < n; q++)
        off[s->pr[q].callee + 1]++;
    for (uint32_t a = 0; rc == PB_OK && a < s->nnodes; a++)
        off[a + 1] += off[a];
    for (uint32_t q = 0; rc == PB_OK && q < n; q++) {
        uint32_t a = s->pr[q].callee;
        rq[off[a] + fill[a]++] = (insort){req_start(s, q), q};
    }
    for (uint32_t a = 0; rc == PB_OK && a < s->nnodes; a++)
        if (off[a + 1] - off[a] > 1) {
            pb_sort(rq + off[a], off[a + 1] - off[a], sizeof *rq, joint_cmp_insort);
            rc = joint_quant_rank_ties(s, rq + off[a], off[a + 1] - off[a]); /* joint_quant.c */
        }
    for (uint32_t l = 0; rc == PB_OK && l < s->nlinks; l++) {
        uint32_t a = s->link_src[l], k = 0, nq = off[a + 1] - off[a];
        uint32_t nl = s->bylink_off[l + 1] - s->bylink_off[l];
        /* only an endpoint called about once per request of the service
         * (within 5 %): otherwise the ranks do not line up */
        if (nl < 0.95 * nq || nl > 1.05 * nq)
            continue;
        s->rank_link[l] = 1;
        /* calls sent in one tick ranked by their returns (joint_tiecall.c) */
        const uint32_t *lc = s->bylink + s->bylink_off[l];
        if (joint_tiecall_applies(s) && !joint_rowtie_used(s, a)) {
            if (!lrank && !(lrank = malloc(((size_t)n + 1) * sizeof *lrank)))
                rc = PB_ENOMEM;
            if (rc == PB_OK)
                rc = joint_tiecall_rank(s, lc, nl, lrank);
            lc = lrank;
        }
        for (uint32_t i = 0; i < nl && k < nq && rc == PB_OK; i++, k++) {
            uint32_t p = lc[i], q = rq[off[a] + k].p;
            for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
                if (s->cand[j] == q) {
                    rc = joint_set_parent(s, p, q);
                    break;
                }
        }
    }
    free(rq);
    free(off);
    free(fill);
    free(lrank);
    return rc;
}

static int start_assign(joint *s);
static int solve(joint *s);
static int order_auto(joint *s);
static int order_service_test(joint *s);
static int rank_refuted(joint *s);
static int second_start(joint *s);

static int init_state(joint *s)
{
    uint32_t n = s->npairs;
    s->par = malloc(((size_t)n + 1) * sizeof *s->par);
    s->kids = calloc((size_t)n + 1, sizeof *s->kids);
    s->stamp = calloc((size_t)n + 1, sizeof *s->stamp);
    s->loc = malloc(((size_t)n + 1) * sizeof *s->loc);
    s->loc2 = malloc(((size_t)n + 1) * sizeof *s->loc2);
    s->rqlist = malloc(((size_t)n + 1) * sizeof *s->rqlist);
    s->uf = malloc(((size_t)2 * n + 2) * sizeof *s->uf);
    s->comp_cnt = malloc(((size_t)2 * n + 3) * sizeof *s->comp_cnt);
    s->comp_ord = malloc(((size_t)2 * n + 2) * sizeof *s->comp_ord);
    s->cbuf = malloc(((size_t)n + 1) * sizeof *s->cbuf);
    s->rbuf = malloc(((size_t)n + 1) * sizeof *s->rbuf);
    s->chbuf = malloc(((size_t)n + 1) * sizeof *s->chbuf);
    s->bylink = malloc(((size_t)n + 1) * sizeof *s->bylink);
    s->bylink_off = calloc((size_t)s->nlinks + 2, sizeof *s->bylink_off);
    uint32_t maxout = 1;
    for (uint32_t a = 0; a < s->nnodes; a++)
        if (s->out_off[a + 1] - s->out_off[a] > maxout)
            maxout = s->out_off[a + 1] - s->out_off[a];
    s->ccount = calloc(maxout, sizeof *s->ccount);
    s->dirty = calloc((size_t)n + 1, sizeof *s->dirty);
    s->ord_inv = calloc((size_t)s->nlinks + 1, sizeof *s->ord_inv);
    s->ord_keep = calloc((size_t)s->nlinks + 1, sizeof *s->ord_keep);
    s->ord_n = calloc((size_t)s->nlinks + 1, sizeof *s->ord_n);
    s->ord_k = calloc((size_t)s->nlinks + 1, sizeof *s->ord_k);
    s->ord_first = malloc(((size_t)s->nlinks + 1) * sizeof *s->ord_first);
    s->ord_st1 = calloc((size_t)s->nlinks + 1, sizeof *s->ord_st1);
    s->ord_st2 = calloc((size_t)s->nlinks + 1, sizeof *s->ord_st2);
    if (!s->ord_inv || !s->ord_keep || !s->ord_n || !s->ord_k || !s->ord_first ||
        !s->ord_st1 || !s->ord_st2)
        return PB_ENOMEM;
    if (!s->dirty)
        return PB_ENOMEM;
    if (!s->par || !s->kids || !s->stamp || !s->loc || !s->loc2 || !s->rqlist || !s->uf ||
        !s->comp_cnt || !s->comp_ord || !s->cbuf || !s->rbuf || !s->chbuf || !s->bylink ||
        !s->bylink_off || !s->ccount)
        return PB_ENOMEM;
    s->epoch = 1;
    for (uint32_t p = 0; p < n; p++)
        s->bylink_off[s->pr[p].link + 1]++;
    for (uint32_t l = 0; l < s->nlinks; l++)
        s->bylink_off[l + 1] += s->bylink_off[l];
    uint32_t *fill = calloc((size_t)s->nlinks + 1, sizeof *fill);
    if (!fill)
        return PB_ENOMEM;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t l = s->pr[p].link;
        s->bylink[s->bylink_off[l] + fill[l]++] = p;
    }
    free(fill);
    /* clean requests: no ambiguous call could be theirs, so their calls are
     * known; the first fit uses them alone (when there are enough) */
    s->clean = malloc((size_t)n + 1);
    if (!s->clean)
        return PB_ENOMEM;
    memset(s->clean, 1, (size_t)n + 1);
    for (uint32_t p = 0; p < n; p++)
        if (s->cand_off[p + 1] - s->cand_off[p] > 1)
            for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
                s->clean[s->cand[j]] = 0;
    size_t nclean = 0;
    for (uint32_t q = 0; q < n; q++)
        nclean += s->clean[q];
    s->nclean = nclean;
    if (nclean < 50 || nclean * 20 < n) {
        free(s->clean);
        s->clean = NULL;
    }
    /* start: first come, first served per endpoint.  start=rank: the i-th
     * call of an endpoint goes to the i-th request the service received
     * (all its incoming endpoints, by arrival on its clock), when that
     * request is a candidate; every call still without a parent (and all
     * calls with start=local) goes to the open candidate request that
     * arrived first among those with the fewest calls of its endpoint so
     * far */
    s->rank_link = calloc((size_t)s->nlinks + 1, 1);
    if (!s->rank_link)
        return PB_ENOMEM;
    for (uint32_t p = 0; p < n; p++)
        s->par[p] = NONE;
    return start_assign(s);
}

/* the first assignment (start=rank, local or earliest) of every call
 * without a parent.  PB_OK or PB_ENOMEM */
static int start_assign(joint *s)
{
    uint32_t n = s->npairs;
    int rc = PB_OK;
    if (s->start_rank)
        rc = rank_start(s);
    for (uint32_t p = 0; p < n && rc == PB_OK; p++) {
        if (s->par[p] != NONE)
            continue;
        uint32_t best = NONE, bc = UINT32_MAX, l = s->pr[p].link;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j], c = 0;
            const kvec *k = &s->kids[q];
            for (uint32_t i = 0; i < k->n && !s->start_earliest; i++)
                c += s->pr[k->a[i]].link == l;
            if (best == NONE || c < bc ||
                (c == bc && (s->pr[q].cr < s->pr[best].cr ||
                             (s->pr[q].cr == s->pr[best].cr && q < best)))) {
                best = q;
                bc = c;
            }
        }
        if (best != NONE)
            rc = joint_set_parent(s, p, best);
    }
    return rc;
}

/* The tie test kept the start (joint_quant.c, which put the start's
 * returns back and cleared every parent): the start made again, requests
 * tied at their arrival now ranked in the order of their responses
 * (joint_quant_rank_ties), and the model refitted.  PB_OK or PB_ENOMEM */
static int quant_start_again(joint *s)
{
    memset(s->dirty, 0, ((size_t)s->npairs + 1) * sizeof *s->dirty);
    int rc = start_assign(s);
    if (rc == PB_OK)
        rc = joint_fit(s, NULL);
    if (rc == PB_OK)
        rc = joint_fit_order(s);
    if (rc == PB_OK && s->rord)
        rc = joint_rord_fit(s);
    return rc;
}

/* joint_init for one search: pord 1 holds the order of answers (the
 * re-pairing and the exchanges score it, joint_order.c) */
static int init_one(joint **out, const pb_trace_view *v, const joint_params *params,
                    pb_error *err, int pord, joint_selshare *share,
                    const unsigned char *force)
{
    *out = NULL;
    if (!(v->columns & PB_COL_TYPE))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "joint: the trace has no type column; the algorithm needs "
                            "call/return marks");
    if (v->n >= UINT32_MAX / 2)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "joint: more than 2^31 messages");
    joint *s = calloc(1, sizeof *s);
    if (!s)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    s->v = *v;
    s->p = *params;
    if (params->hold_svc) { /* its own copy (joint_partial.c) */
        s->hold_own = malloc(strlen(params->hold_svc) + 1);
        if (!s->hold_own) {
            free(s);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        }
        strcpy(s->hold_own, params->hold_svc);
        s->p.hold_svc = s->hold_own;
    }
    s->pord_hold = pord;
    s->selshare = share;
    s->force_unp = force;
    s->nnodes = (uint32_t)pb_strtab_count(v->nodes);
    s->nb = (uint32_t)ceil(11.0 / s->p.bin);
    if (s->nb < 2)
        s->nb = 2;
    s->bg = log(s->p.floor / s->nb / s->p.bin);
    {
        pb_tick_info ti;
        pb_tick_detect(v->msgs, v->n, &ti);
        s->tick = ti.tick;
        /* rows spread by subtick keep the coarse stamps' verdict: their
         * gaps below a tick are made by the spread, not by the service
         * (busy_space reads them) */
        s->coarse = ti.coarse_ties || params->subtick_tick > 0;
        s->dmin = ti.tick > 20 ? 0.5 * (double)ti.tick : 10.0;
        s->quant_on = ti.coarse_ties && params->tie_test;
        s->qtick = ti.tick;
        if (params->subtick_tick > 0 && joint_subtick_tie_applies(v, params)) {
            /* rows spread over their ticks (joint_subtick.c): the tie test
             * still judges moves at the original tick */
            s->qtick = params->subtick_tick;
            s->quant_on = params->tie_test;
        }
    }
    glp_term_out(GLP_OFF);
    if (!s->p.matching || !strcmp(s->p.matching, "greedy"))
        s->use_flow = 0;
    else if (!strcmp(s->p.matching, "flow"))
        s->use_flow = 1;
    else {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option matching: \"%s\"; expected greedy or flow", params->matching);
        free(s);
        return PB_EINVAL;
    }
    if (!s->p.start || !strcmp(s->p.start, "rank"))
        s->start_rank = 1;
    else if (!strcmp(s->p.start, "earliest"))
        s->start_earliest = 1;
    else if (strcmp(s->p.start, "local")) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option start: \"%s\"; expected rank, local or earliest", params->start);
        free(s);
        return PB_EINVAL;
    }
    if (!s->p.order || !strcmp(s->p.order, "auto"))
        s->order_mode = 2;
    else if (!strcmp(s->p.order, "on") || !strcmp(s->p.order, "1"))
        s->order_mode = 1;
    else if (!strcmp(s->p.order, "off") || !strcmp(s->p.order, "0"))
        s->order_mode = 0;
    else {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option order: \"%s\"; expected auto, on or off", params->order);
        free(s);
        return PB_EINVAL;
    }
    s->order_active = s->order_mode == 1;
    if (s->p.callers && strcmp(s->p.callers, "auto") && strcmp(s->p.callers, "keyed") &&
        strcmp(s->p.callers, "pooled")) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option callers: \"%s\"; expected auto, keyed or pooled", params->callers);
        free(s);
        return PB_EINVAL;
    }
    if (s->p.tick_ivl && strcmp(s->p.tick_ivl, "auto") && strcmp(s->p.tick_ivl, "on") &&
        strcmp(s->p.tick_ivl, "off")) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option tick_ivl: \"%s\"; expected auto, on or off", params->tick_ivl);
        free(s);
        return PB_EINVAL;
    }
    if (s->p.out_sets && strcmp(s->p.out_sets, "auto") && strcmp(s->p.out_sets, "on") &&
        strcmp(s->p.out_sets, "off")) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option out_sets: \"%s\"; expected auto, on or off", params->out_sets);
        free(s);
        return PB_EINVAL;
    }
    int rc = joint_tick0_setup(s); /* whole-tick delays (joint_tick0.c) */
    if (rc != PB_OK) {
        joint_close(s);
        return pb_error_set(err, rc, NULL, 0, 0, "out of memory");
    }
    s->pair_of_msg = malloc((v->n + 1) * sizeof *s->pair_of_msg);
    if (!s->pair_of_msg)
        rc = PB_ENOMEM;
    if (rc == PB_OK)
        rc = joint_find_pairs(s);
    if (rc == PB_OK)
        rc = joint_find_links(s);
    if (rc == PB_OK && s->p.callgraph && *s->p.callgraph) {
        rc = read_callgraph(s, err);
        if (rc != PB_OK) {
            joint_close(s);
            return rc == PB_ENOMEM ? pb_error_set(err, rc, NULL, 0, 0, "out of memory") : rc;
        }
    }
    if (rc == PB_OK)
        rc = joint_find_candidates(s);
    if (rc == PB_OK)
        rc = joint_late_test(s);
    if (rc == PB_OK && s->late_gap) {
        joint_la_hold(s); /* orphans held during the search (joint_lateattach.c) */
        rc = joint_find_candidates(s);
    }
    if (rc == PB_OK)
        rc = joint_lc_setup(s); /* how many calls outlive their request (joint_latecount.c) */
    if (rc == PB_OK)
        rc = init_state(s);
    if (rc == PB_OK)
        rc = joint_tick0_learn(s); /* zero-tick delays (joint_tick0.c) */
    if (rc == PB_OK && s->order_mode == 2)
        rc = order_service_test(s);
    if (rc == PB_OK)
        rc = joint_partial_setup(s); /* busy_partial's links (joint_partial.c) */
    if (rc == PB_OK)
        rc = joint_select(s);
    if (rc == PB_OK)
        rc = joint_os_select(s); /* the set of calls per endpoint (joint_oset.c) */
    if (rc == PB_OK)
        rc = joint_quant_snapshot(s); /* the tie test (joint_quant.c) */
    if (rc == PB_OK)
        rc = joint_repair_rounds(s);
    if (rc == PB_OK)
        rc = solve(s);
    if (rc == PB_OK && s->p.restart && s->start_rank && rank_refuted(s))
        rc = second_start(s);
    if (rc == PB_OK)
        rc = joint_uncross(s); /* crossings at a loss (joint_uncross.c) */
    if (rc == PB_OK)
        rc = joint_fit(s, NULL);
    if (rc == PB_OK)
        rc = joint_fit_order(s);
    if (rc == PB_OK && s->order_mode == 2)
        rc = order_auto(s);
    if (rc == PB_OK)
        rc = joint_quant_decide(s); /* the tie test (joint_quant.c) */
    if (rc == PB_OK && s->quant_state == 3)
        rc = quant_start_again(s);
    if (rc == PB_OK && s->quant_state == 3)
        rc = joint_tiecross_apply(s); /* tie_cross (joint_tiecross.c) */
    if (rc == PB_OK && s->late_hold) {
        rc = joint_la_attach(s); /* the held orphans placed (joint_lateattach.c) */
        if (rc == PB_OK)
            rc = joint_fit(s, NULL);
        if (rc == PB_OK)
            rc = joint_fit_order(s);
    }
    if (rc != PB_OK) {
        joint_close(s);
        if (rc == PB_ERANGE)
            return pb_error_set(err, rc, NULL, 0, 0,
                                "joint: too many links or candidates for 32-bit indices");
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    s->force_unp = NULL;
    *out = s;
    return PB_OK;
}

/* Without call ids and pair_order=auto, two searches: free (the order of
 * answers and calls not scored) and holding that order (pair_order and
 * service_order on); the solution kept is the likelier under the model
 * (joint_loglik, each under its own refit), by more than
 * JOINT_RESTART_MARGIN nats (ties keep the free one); the scores with the
 * order terms (joint_order_score) are reported beside.  With call ids (no free pair) one search, as before. */
static int init_choose(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err, const unsigned char *force, const joint_pwin *pwin)
{
    const char *m = params->pair_order;
    int mode = !m || !strcmp(m, "auto") ? 2 : !strcmp(m, "on") ? 1 : !strcmp(m, "off") ? 0 : -1;
    *out = NULL;
    if (mode < 0)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option pair_order: \"%s\"; expected auto, on or off", m);
    joint_params ph = *params;
    ph.order = "on";
    if (mode == 1)
        return init_one(out, v, &ph, err, 1, NULL, force);
    joint_pwin pwd; /* pair_window's fallback or check: its record */
    memset(&pwd, 0, sizeof pwd);
    if (pwin)
        pwd = *pwin;
    joint *a = NULL, *b = NULL;
    /* joint_select's choice shared by the two searches (joint_fitfast.c);
     * NULL (out of memory): each fits its own */
    joint_selshare *share = mode == 2 && params->select_share ? joint_selshare_new() : NULL;
    int rc = init_one(&a, v, params, err, 0, share, force);
    if (rc != PB_OK || mode == 0 || !joint_any_free(a)) {
        joint_selshare_free(share);
        if (a)
            a->selshare = NULL;
        /* with call ids: learned parallel calls checked by a search
         * without them (joint_serial.c) */
        if (rc == PB_OK && params->parallel_check && params->parallel < 1 &&
            !joint_any_free(a) && joint_serial_flags(a) > 0) {
            joint_params pp = *params;
            pp.parallel = 1;
            joint *w = NULL;
            rc = init_one(&w, v, &pp, err, 0, NULL, force);
            if (rc != PB_OK) {
                joint_close(a);
                return rc;
            }
            joint *keep = NULL;
            rc = joint_serial_pick(a, w, &keep);
            if (rc != PB_OK) {
                joint_close(a);
                joint_close(w);
                return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
            }
            joint_close(keep == w ? a : w);
            a = keep;
        }
        *out = a;
        return rc;
    }
    /* parallel_check_bb decided early (joint_bbserial.c): the free search
     * dropped a learned parallel call, so the held search runs without
     * them first; w is used as the held search, or kept as its check */
    joint *w = NULL;
    uint32_t declined = 0, free_ever = 0, free_end = 0;
    if (joint_bbserial_early(a)) {
        joint_params pw = ph;
        pw.parallel = 1;
        rc = init_one(&w, v, &pw, err, 1, share, force);
        int take = rc == PB_OK ? joint_bbserial_early_take(a, w, &declined) : 0;
        free_ever = joint_bbserial_ever(a);
        free_end = joint_serial_flags(a);
        if (rc == PB_OK && take < 0)
            rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        if (w)
            w->selshare = NULL;
        if (rc != PB_OK) {
            joint_close(w);
            a->selshare = NULL;
            joint_selshare_free(share);
            joint_close(a);
            return rc;
        }
        if (take) {
            b = w;
            w = NULL;
        }
    }
    if (!b)
        rc = init_one(&b, v, &ph, err, 1, share, force);
    a->selshare = NULL;
    if (b)
        b->selshare = NULL;
    joint_selshare_free(share);
    if (rc != PB_OK) {
        joint_close(w);
        joint_close(a);
        return rc;
    }
    double la = 0, lb = 0, l0a = joint_loglik(a), l0b = joint_loglik(b);
    rc = joint_order_score(a, &la);
    if (rc == PB_OK)
        rc = joint_order_score(b, &lb);
    if (rc != PB_OK) {
        joint_close(w);
        joint_close(a);
        joint_close(b);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    /* chosen by the model as it stands (delays, counts, durations), each
     * solution under its own refit; the order terms' scores are reported
     * only: they prefer the held search even where services overtake
     * (docs/joint.md) */
    joint *keep = l0b > l0a + JOINT_RESTART_MARGIN ? b : a;
    /* the busy test (joint_pick.c): a model check that needs no pairing */
    double *pst = NULL, psum[3] = {0, 0, 0};
    int pick_held = keep == b; /* in: the likelihood's choice (busy_space) */
    if (params->busy_test) {
        rc = joint_pick(a, b, &pst, psum, &pick_held);
        if (rc != PB_OK) {
            joint_close(w);
            joint_close(a);
            joint_close(b);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        if (pick_held)
            keep = b;
    }
    /* busy_partial (joint_partial.c): where the free search is kept and
     * services found serialising are where the two differ, a third search
     * holding the order only on their links, kept by the busy test's vote */
    joint *c = NULL;
    joint_params pc = ph;
    double csum[2] = {0, 0};
    char *hold = keep == a && params->busy_test && params->busy_partial
                     ? joint_partial_names(a, pst)
                     : NULL;
    if (hold) {
        pc.hold_svc = hold;
        rc = init_one(&c, v, &pc, err, 1, NULL, force);
        free(hold);
        if (rc != PB_OK) {
            free(pst);
            joint_close(w);
            joint_close(a);
            joint_close(b);
            return rc;
        }
        pc.hold_svc = c->p.hold_svc; /* c's own copy, for the checks below */
        if (joint_partial_vote(a, c, pst, csum))
            keep = c;
        keep->part_sum[0] = 1;
        keep->part_sum[1] = csum[0];
        keep->part_sum[2] = csum[1];
        keep->part_sum[3] = keep == c;
    }
    keep->pord_chosen = keep == b || keep == c ? 2 : 1;
    if (pwd.on) { /* pair_window: a fallback, or the check of the window's choice */
        keep->pwin = pwd;
        if (params->pair_window_check && pwd.window_kind)
            keep->pwin.full_kind = keep == a ? 1 : keep->ser_bb == 3 ? 3 : 2;
    }
    keep->pord_ll[0] = l0a;
    keep->pord_ll[1] = l0b;
    keep->pord_ll[2] = la;
    keep->pord_ll[3] = lb;
    keep->pick_stat = pst;
    keep->pick_sum[0] = psum[0];
    keep->pick_sum[1] = psum[1];
    keep->pick_sum[2] = pick_held;
    keep->pick_sum[3] = psum[2];
    if (keep == c) {
        joint_close(a);
        joint_close(b);
    } else {
        joint_close(c);
        joint_close(keep == b ? a : b);
    }
    if (keep != b) { /* the early run checks the held search only */
        joint_close(w);
        w = NULL;
    }
    /* learned parallel calls checked by the same search without them
     * (joint_bbserial.c); the held one by the early run when there is one */
    if (joint_bbserial_wanted(keep)) {
        joint_params pp = keep == b ? ph : keep == c ? pc : *params;
        pp.parallel = 1;
        joint *k2 = NULL;
        if (!w)
            rc = init_one(&w, v, &pp, err, keep == b || keep == c, NULL, force);
        if (rc != PB_OK) {
            joint_close(keep);
            return rc;
        }
        rc = joint_bbserial_pick(keep, w, &k2);
        if (rc != PB_OK) {
            joint_close(keep);
            joint_close(w);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        joint_close(k2 == w ? keep : w);
        keep = k2;
        w = NULL;
    }
    joint_close(w); /* an early run the held search did not need */
    if (declined) {
        keep->ser_declined = declined;
        keep->ser_free[0] = free_ever;
        keep->ser_free[1] = free_end;
    }
    *out = keep;
    return PB_OK;
}

/* pair_window (joint_pwin.c): the choice on a window of the trace, then
 * the chosen search alone when the window's verdict is firm, else
 * init_choose; pwin in: the first search's window (the unpaired re-run
 * reuses it) */
static int init_search(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err, const unsigned char *force, joint_pwin *pwin)
{
    const char *m = params->pair_order;
    joint_pwin pwd;
    memset(&pwd, 0, sizeof pwd);
    *out = NULL;
    if ((!m || !strcmp(m, "auto")) && params->pair_window > 0) {
        if (pwin && pwin->on) {
            pwd = *pwin;
        } else {
            int rw = joint_pwin_window(v, params, &pwd, err);
            if (rw != PB_OK)
                return rw;
            if (pwin)
                *pwin = pwd;
        }
        joint_params ph = *params;
        ph.order = "on";
        if (pwd.decision && !params->pair_window_check)
            return joint_pwin_one(out, v, params, &ph, &pwd, err, force);
    }
    return init_choose(out, v, params, err, force, &pwd);
}

/* joint_pwin.c's way into the searches: one search (pord: holding the
 * order of answers), or pair_order's whole choice without pair_window */
int joint_search_one(joint **out, const pb_trace_view *v, const joint_params *params,
                     pb_error *err, int pord, const unsigned char *force)
{
    return init_one(out, v, params, err, pord, NULL, force);
}

int joint_search_choose(joint **out, const pb_trace_view *v, const joint_params *params,
                        pb_error *err)
{
    return init_choose(out, v, params, err, NULL, NULL);
}

/* The search (init_search); then, without call ids and under loss, which
 * messages stay unpaired (joint_unpaired.c): when the min-cost pairing
 * leaves other messages of some link unpaired, the search runs again with
 * those, and its result is kept. */
int joint_init_search(joint **out, const pb_trace_view *v, const joint_params *params,
                      pb_error *err, unsigned char **force_out)
{
    joint *s = NULL;
    *out = NULL;
    if (force_out)
        *force_out = NULL;
    joint_pwin pw;
    memset(&pw, 0, sizeof pw);
    int rc = init_search(&s, v, params, err, NULL, &pw);
    if (rc != PB_OK)
        return rc;
    unsigned char *force = NULL;
    joint_unp_rec *recs = NULL;
    size_t nrecs = 0, changed = 0;
    rc = joint_unpaired_choose(s, &force, &recs, &nrecs, &changed);
    if (rc != PB_OK) {
        free(force);
        free(recs);
        joint_close(s);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    if (force) {
        joint *t = NULL;
        rc = init_search(&t, v, params, err, force, &pw);
        if (rc != PB_OK) {
            free(force);
            free(recs);
            joint_close(s);
            return rc;
        }
        /* unpaired=3: the first search is kept beside the second for
         * joint_init's check (joint_unpck.c; not here, so the check's
         * copy, which runs this function, cannot reach it again) */
        if (params->unpaired == 3)
            t->unp_first = s;
        else
            joint_close(s);
        s = t;
        s->unp_rerun = 1;
    }
    s->unp_rec = recs;
    s->nunp_rec = nrecs;
    s->unp_changed = changed;
    if (force_out)
        *force_out = force;
    else
        free(force);
    *out = s;
    return PB_OK;
}

/* joint_init_search; then, with reunp=2 under loss, reunp checked on a
 * copy (joint_reunpck.c; its copy runs joint_init_search, not this) */
int joint_init(joint **out, const pb_trace_view *v, const joint_params *params,
               pb_error *err)
{
    joint *s = NULL;
    unsigned char *force = NULL;
    int rc = joint_init_search(&s, v, params, err, &force);
    if (rc != PB_OK)
        return rc;
    /* unpaired=3: the second search kept only when the model finds its
     * requests likelier and a copy of the trace agrees (joint_unpck.c) */
    if (s->unp_first) {
        joint *f = s->unp_first;
        s->unp_first = NULL;
        int take = 0;
        rc = joint_unpck_take(f, s, &take);
        if (rc != PB_OK) {
            free(force);
            joint_close(f);
            joint_close(s);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        if (take) {
            joint_close(f);
        } else {
            joint_unpck_revert(f, s);
            joint_close(s);
            s = f;
            free(force);
            force = NULL;
        }
    }
    /* reunp=2: reunp used when it helps on a copy of the solution
     * (joint_reunpck.c); then the same search runs again with it */
    if (s->p.reunp == 2 && joint_reunp_wanted(s)) {
        int use = 0;
        rc = joint_reunp_copytest(s, &use);
        joint *t = NULL;
        if (rc == PB_OK && use) {
            joint_params pr = s->p;
            pr.reunp = 1;
            rc = init_one(&t, v, &pr, err, s->pord_hold, NULL, s->unp_rerun ? force : NULL);
            if (rc == PB_OK) {
                joint_reunp_adopt(t, s);
                joint_close(s);
                s = t;
            }
        }
        if (rc != PB_OK) {
            free(force);
            joint_close(s);
            return rc == PB_ENOMEM ? pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory")
                                   : rc;
        }
    }
    free(force);
    *out = s;
    return PB_OK;
}

/* steps 2-5 of the search from the current assignment.  PB_OK or
 * PB_ENOMEM */
static int solve(joint *s)
{
    int rc = PB_OK;
    for (int outer = 0; rc == PB_OK && outer <= s->p.swap_rounds; outer++) {
        rc = joint_solve_rounds(s, 1, s->p.passes);
        if (rc != PB_OK || outer == s->p.swap_rounds)
            break;
        size_t sw = 0;
        rc = joint_fit(s, NULL);
        if (rc == PB_OK)
            rc = joint_resolve_begin(s); /* resolve_local (joint_resolve.c) */
        if (rc == PB_OK)
            rc = joint_swap_pass(s, &sw);
        s->ret_swaps += sw;
        if (rc == PB_OK && sw == 0) {
            joint_resolve_end(s);
            break;
        }
        if (rc == PB_OK)
            rc = joint_recandidate(s);
    }
    return rc;
}

/* Does the solution refute the rank start?  Only with every pair made by
 * call id (then the pairs and candidates are fixed and a second solve
 * depends on the assignment alone): some ranked endpoint is called exactly
 * once by fewer than JOINT_RESTART_ONE of the requests of its service (it
 * was ranked because it has about as many calls as the service has
 * requests; in children-0-2 half the requests call it twice and half
 * never, and the ranks give every request one call). */
static int rank_refuted(joint *s)
{
    uint32_t nl = s->nlinks;
    for (uint32_t p = 0; p < s->npairs; p++)
        if (s->free_ret[p])
            return 0;
    uint32_t *one = calloc((size_t)nl + 1, sizeof *one), *tot = calloc((size_t)nl + 1, sizeof *tot);
    uint32_t *cnt = calloc((size_t)nl + 1, sizeof *cnt);
    int refuted = 0;
    if (!one || !tot || !cnt) {
        free(one);
        free(tot);
        free(cnt);
        return 0; /* out of memory: no second start */
    }
    for (uint32_t q = 0; q < s->npairs; q++) {
        const kvec *k = &s->kids[q];
        for (uint32_t i = 0; i < k->n; i++)
            cnt[s->pr[k->a[i]].link]++;
        uint32_t a = s->pr[q].callee;
        for (uint32_t j = s->out_off[a]; j < s->out_off[a + 1]; j++) {
            uint32_t l = s->out_links[j];
            if (!s->rank_link[l])
                continue;
            tot[l]++;
            one[l] += cnt[l] == 1;
        }
        for (uint32_t i = 0; i < k->n; i++)
            cnt[s->pr[k->a[i]].link] = 0;
    }
    for (uint32_t l = 0; l < nl; l++)
        if (s->rank_link[l] && tot[l] && one[l] < JOINT_RESTART_ONE * tot[l])
            refuted = 1;
    free(one);
    free(tot);
    free(cnt);
    return refuted;
}

/* Solve again from start=earliest and keep the likelier solution (by
 * more than JOINT_RESTART_MARGIN nats, each under its own refit model);
 * the first is restored otherwise.  PB_OK or PB_ENOMEM */
static int second_start(joint *s)
{
    uint32_t n = s->npairs;
    int rc = joint_fit(s, NULL);
    if (rc != PB_OK)
        return rc;
    s->ll_first = joint_loglik(s);
    uint32_t *keep = malloc(((size_t)n + 1) * sizeof *keep);
    if (!keep)
        return PB_ENOMEM;
    memcpy(keep, s->par, (size_t)n * sizeof *keep);
    for (uint32_t p = 0; p < n && rc == PB_OK; p++)
        if (s->par[p] != NONE)
            rc = joint_set_parent(s, p, NONE);
    memset(s->dirty, 0, ((size_t)n + 1) * sizeof *s->dirty);
    s->start_rank = 0;
    s->start_earliest = 1;
    if (rc == PB_OK)
        rc = start_assign(s);
    if (rc == PB_OK)
        rc = solve(s);
    if (rc == PB_OK)
        rc = joint_fit(s, NULL);
    if (rc == PB_OK) {
        s->ll_second = joint_loglik(s);
        s->restart = 1;
        if (s->ll_second > s->ll_first + JOINT_RESTART_MARGIN)
            s->restart = 2;
        else
            for (uint32_t p = 0; p < n && rc == PB_OK; p++)
                if (s->par[p] != keep[p])
                    rc = joint_set_parent(s, p, keep[p]);
    }
    s->start_rank = 1;
    s->start_earliest = 0;
    free(keep);
    return rc;
}

/* order=auto, before the search: the response-order test per service
 * (docs/joint/search.md, "Order of service").  Of its requests paired by call id,
 * taken in arrival order, two consecutive ones that overlap (the second
 * arrives before the first is answered; ties at the tick say nothing) are
 * in question, and the second is answered first (overtakes) in k of n.
 * A service answers in arrival order when k is too small for a rate of
 * JOINT_ORDER_RHO0 (one-sided binomial test at level JOINT_ORDER_ALPHA);
 * then the term is on for its endpoints, with that service's overtaking
 * rate (joint_fit_order).  No assignment enters: only whole pairs.
 * PB_OK or PB_ENOMEM */
static int order_service_test(joint *s)
{
    uint32_t nn = s->nnodes;
    s->ord_on = calloc((size_t)s->nlinks + 1, 1);
    s->ord_p = malloc(((size_t)s->nlinks + 1) * 3 * sizeof *s->ord_p);
    s->svc_ord = calloc(((size_t)nn + 1) * 3, sizeof *s->svc_ord);
    insort *rq = malloc(((size_t)s->npairs + 1) * sizeof *rq);
    uint32_t *off = calloc((size_t)nn + 2, sizeof *off), *fill = calloc((size_t)nn + 1, sizeof *fill);
    int rc = s->ord_on && s->ord_p && s->svc_ord && rq && off && fill ? PB_OK : PB_ENOMEM;
    /* per service, its whole requests paired by call id in arrival order:
     * of two consecutive ones that overlap, does the later answer first? */
    for (uint32_t q = 0; rc == PB_OK && q < s->npairs; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE && !s->free_ret[q])
            off[s->pr[q].callee + 1]++;
    for (uint32_t a = 0; rc == PB_OK && a < nn; a++)
        off[a + 1] += off[a];
    for (uint32_t q = 0; rc == PB_OK && q < s->npairs; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE && !s->free_ret[q]) {
            uint32_t a = s->pr[q].callee;
            rq[off[a] + fill[a]++] = (insort){s->pr[q].cr, q};
        }
    for (uint32_t a = 0; rc == PB_OK && a < nn; a++) {
        uint32_t n = off[a + 1] - off[a];
        if (n > 1)
            pb_sort(rq + off[a], n, sizeof *rq, joint_cmp_insort);
        double in = 0, ov = 0;
        for (uint32_t i = off[a] + 1; i < off[a + 1]; i++) {
            const jpair *x = &s->pr[rq[i - 1].p], *y = &s->pr[rq[i].p];
            if (y->cr >= x->rs || y->cr == x->cr || y->rs == x->rs)
                continue; /* no overlap, or a tie: not in question */
            in++;
            ov += y->rs < x->rs;
        }
        s->svc_ord[3 * a + 1] = in;
        s->svc_ord[3 * a + 2] = ov;
        s->svc_ord[3 * a] = in > 0 ? gsl_cdf_binomial_P((unsigned)ov, JOINT_ORDER_RHO0,
                                                          (unsigned)in) : 1.0;
    }
    free(rq);
    free(off);
    free(fill);
    if (rc != PB_OK)
        return rc;
    for (uint32_t l = 0; l < s->nlinks; l++)
        if (s->svc_ord[3 * s->link_src[l]] < JOINT_ORDER_ALPHA)
            s->ord_on[l] = s->order_active = 1;
    return PB_OK;
}

/* order=auto, after the solve: the order test per endpoint on the
 * solution found without the term (its first calls whose order was in
 * question are too rarely inverted for a rate of JOINT_ORDER_RHO0); when
 * it adds endpoints, the search resumes with the term on for them.
 * PB_OK or PB_ENOMEM */
static int order_auto(joint *s)
{
    int rc = PB_OK;
    int any = 0;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        unsigned n = (unsigned)s->ord_n[l], k = (unsigned)s->ord_k[l];
        double pv = n ? gsl_cdf_binomial_P(k, JOINT_ORDER_RHO0, n) : 1.0;
        s->ord_p[3 * l] = pv;
        s->ord_p[3 * l + 1] = n;
        s->ord_p[3 * l + 2] = k;
        if (n > 0 && pv < JOINT_ORDER_ALPHA && !s->ord_on[l])
            s->ord_on[l] = any = 1;
    }
    if (!any)
        return PB_OK;
    s->order_active = 1;
    rc = joint_solve_rounds(s, 1, s->p.passes);
    if (rc == PB_OK)
        rc = joint_fit(s, NULL);
    return rc;
}

void joint_close(joint *s)
{
    if (!s)
        return;
    joint_subtick_free(s->subtick);
    if (s->kids)
        for (uint32_t q = 0; q < s->npairs; q++)
            free(s->kids[q].a);
    void *f[] = {s->pr, s->pair_of_msg, s->cand_off, s->cand, s->par, s->kids,
                 s->link_src, s->link_dst, s->out_off, s->out_links, s->link_local,
                 s->cnt_off, s->cnt, s->cntlp, s->allowed, s->hist, s->logf, s->kstat,
                 s->scratch, s->edit, s->ccount, s->stamp, s->loc, s->loc2, s->rqlist,
                 s->uf, s->comp_cnt, s->comp_ord, s->cbuf, s->rbuf, s->chbuf,
                 s->bylink, s->bylink_off, s->rank_link, s->dk_off, s->dk_key, s->dk_par, s->logc,
                 s->conf_stat, s->scal_stat, s->conf_exempt, s->unp_rec};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        free(f[i]);
    hmap_free(&s->linkmap);
    hmap_free(&s->keymap);
    hmap_free(&s->parmap);
    free(s->rowtie_st);
    free(s->pov);
    free(s->pse);
    free(s->pflag);
    free(s->pever);
    hmap_free(&s->seen);
    if (s->wr)
        for (int i = 0; i < 4; i++)
            joint_wrec_free(&s->wr[i]);
    free(s->wr);
    joint_resplit_free(s);
    joint_ff_free(s);
    joint_greedy_free(s);
    joint_lsmemo_free(s);
    joint_wcache_free(s);
    joint_vcache_free(s);
    joint_gsort_free(s);
    hmap_free(&s->corrmap);
    free(s->cst);
    free(s->cpar);
    free(s->sure);
    free(s->cdur);
    free(s->cdir);
    free(s->cldur);
    free(s->rsbuf);
    free(s->qend);
    free(s->hmax);
    free(s->kmean);
    free(s->free_ret);
    free(s->fifo_link);
    free(s->align_rec);
    joint_rord_free(s);
    free(s->pord_stat);
    free(s->pick_stat);
    free(s->qpar);
    free(s->qret);
    free(s->qcross);
    free(s->fifo_stat);
    free(s->fifo_svc);
    free(s->late_gap);
    free(s->late_sgap);
    free(s->late_lshare);
    free(s->late_stat);
    free(s->ord_first);
    free(s->ord_st1);
    free(s->ord_st2);
    free(s->ord_inv);
    free(s->ord_keep);
    free(s->ord_n);
    free(s->hraw);
    free(s->rlo);
    free(s->rhi);
    free(s->hlo);
    free(s->hhi);
    free(s->ord_k);
    free(s->ord_on);
    free(s->hold_link);
    free(s->hold_own);
    free(s->ord_p);
    free(s->svc_ord);
    free(s->clean);
    free(s->t0obs);
    free(s->t0c);
    joint_tickivl_free(s);
    free(s->dirty);
    free(s->rl_chg);
    joint_select_free(s);
    joint_lc_free(s);
    joint_os_free(s);
    free(s->la_timer);
    joint_lt_free(s);
    free(s);
}

uint32_t joint_npairs(const joint *s) { return s->npairs; }
pb_ns joint_tick(const joint *s) { return s->tick; }
uint32_t joint_pair_call(const joint *s, uint32_t i) { return i < s->npairs ? s->pr[i].call : NONE; }
uint32_t joint_pair_return(const joint *s, uint32_t i) { return i < s->npairs ? s->pr[i].ret : NONE; }
uint32_t joint_pair_parent(const joint *s, uint32_t i) { return i < s->npairs ? s->par[i] : NONE; }

uint32_t joint_pair_ncandidates(const joint *s, uint32_t i)
{
    return i < s->npairs ? s->cand_off[i + 1] - s->cand_off[i] : 0;
}


static int joint_run(const pb_trace_view *trace, const void *params, pb_result *res,
                     pb_error *err)
{
    joint *s;
    const joint_params *p = params;
    if (p->subtick && strcmp(p->subtick, "auto") && strcmp(p->subtick, "on") &&
        strcmp(p->subtick, "off"))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option subtick: \"%s\"; expected auto, on or off", p->subtick);
    /* coarse stamps: the rows within a tick as the order of events
     * (joint_subtick.c) */
    joint_subtick *st = NULL;
    pb_msg *spread = NULL;
    int rc = joint_subtick_prepare(trace, p, &st, &spread);
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    pb_trace_view sv = *trace;
    if (spread)
        sv.msgs = spread;
    joint_params ps = *p;
    if (spread) {
        ps.subtick_tick = st->tick;
        ps.subtick_partial = st->partial;
    }
    rc = joint_init(&s, &sv, &ps, err);
    if (rc != PB_OK) {
        joint_subtick_free(st);
        free(spread);
        return rc;
    }
    s->subtick = st;
    rc = joint_paths(s, res, err);
    joint_close(s);
    free(spread);
    return rc;
}

const pb_algo pb_algo_joint = {
    "joint", "call",
    "pathbench's joint reconstruction: calls ascribed to requests by a learned delay "
    "model, greedy or min-cost-flow rounds and an exact re-split of competing requests",
    joint_options, sizeof(joint_params), joint_run, NULL};
