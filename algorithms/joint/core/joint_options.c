/*
 * joint_options.c - the option table of infer --algo joint: every
 * parameter's name, type, default, range and help (docs/joint.md).  The
 * table drives parsing, defaults, validation and --help; the code that
 * reads each parameter names its file in the help text.  The table's
 * second half (from subtick on, and every new option) is in
 * joint_options_late.inc, included at the table's end.
 */
#include "joint.h"
#include "pb_algo.h"

#include <stddef.h>

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
    {"align_starts", PB_OPT_INT, offsetof(joint_params, align_starts), "1", 1, 2,
     "without call ids, under loss: the alignment's starting durations; 1 last in, first "
     "out's; 2 also first in, first out's, aligned and refitted the same way, kept when "
     "cheaper and spanning no more idle moments of the caller (a link shifted as a whole "
     "by one lost call; docs/joint/loss.md, \"A lost call in the middle of a link\")"},
    {"unpaired", PB_OPT_INT, offsetof(joint_params, unpaired), "1", 0, 3,
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
     "(docs/joint/loss.md, \"Which messages stay unpaired, checked\")"},
    {"unp_pieces", PB_OPT_INT, offsetof(joint_params, unp_pieces), "1", 0, 1,
     "with unpaired=1, when the second search ran: both searches kept; the messages whose "
     "requests differ between them fall into pieces, each scored in both under the model "
     "refitted outside every piece (plus the loss-rate price per unpaired message), the "
     "second's taken when its log-likelihood ratio > 1.9207 nats and the piece holds <= 10 % "
     "of the messages (metadata unp_pieces=, unp_piece=).  Output: the second search when "
     "every piece is taken, the first when none, else the merge: the first's pairs and "
     "parents outside the taken pieces, the second's inside, one refit, no search (metadata "
     "unp_merge=).  ~3x CPU (docs/joint/loss.md, \"pieces decided by a held-out likelihood\")"},
    {"unp_win", PB_OPT_INT, offsetof(joint_params, unp_win), "2", 0, 2,
     "with unpaired=1 and unp_pieces=1: the second search runs on a window of the trace "
     "only -- the first search's requests holding a message whose paired state the choice "
     "changed, every message sent within such a request's span widened by its length on "
     "each side, closed under the first search's requests -- searched as a trace of its "
     "own; its pairs and parents with the first search's outside make the second solution "
     "(set up on the whole trace, refitted once), whose pieces are then scored under the "
     "whole trace's model as with unp_win=0.  A window over half the messages runs the "
     "whole second search (metadata unp_win=; docs/joint/loss.md, \"The second search on "
     "a window\").  2 = the window by candidate requests: the seed requests and the "
     "requests of the first search's pairs whose call-to-return interval overlaps a seed "
     "request's span widened by unp_cand_pad (unp_win_pad unused): hotel 100 1.80x -> 1.70x "
     "instructions, held out +177 intact requests vs +240 with 1 (docs/joint/shapes.md, "
     "\"Loss without call ids, twenty-second wave\")"},
    {"unp_win_pad", PB_OPT_DOUBLE, offsetof(joint_params, unp_win_pad), "1", 0, 100,
     "unp_win's window: each seed request's span widened by this many times its length on "
     "each side before the window is closed under the first search's requests"},
    {"unp_cand_pad", PB_OPT_DOUBLE, offsetof(joint_params, unp_cand_pad), "0.5", 0, 100,
     "unp_win=2's window by candidate requests: a seed request's span widened by this many "
     "times its length on each side; the first search's pairs (any link) overlapping it "
     "bring their requests in (0.5: the hand-made lost-call test needs it, 0 loses 2 of "
     "its requests)"},
    {"unp_win_one", PB_OPT_INT, offsetof(joint_params, unp_win_one), "0", 0, 1,
     "with unp_win: the window searched with the first search's free / held choice only "
     "(one search, not both): hotel 100 at 2 % 1.70x -> 1.47x instructions with unp_win=2, "
     "but 56 fewer intact requests exact over 30 held-out draws; 0 = the window's own choice"},
    {"unp_flow", PB_OPT_INT, offsetof(joint_params, unp_flow), "2", 0, 2,
     "unpaired's min-cost pairing of a link: 0 = GLPK's out-of-kilter, 1 = successive "
     "shortest paths (joint_unpflow.c: the same least cost in far fewer instructions; "
     "where two pairings tie it may pick the other; docs/joint/loss.md, \"The second "
     "search on a window\"); 2 = the same from the first search's pairs: only the "
     "messages within unp_flow_hops steps of its unpaired ones are paired again, its "
     "other pairs stay (docs/joint/loss.md, \"The flow from the first search's pairs\")"},
    {"unp_flow_hops", PB_OPT_INT, offsetof(joint_params, unp_flow_hops), "4", 1, 1000000,
     "unp_flow=2: the zone paired again, in steps of the flow's graph (a call and a return "
     "it may pair with) from the first search's unpaired messages"},
    {"unp_copy_taken", PB_OPT_INT, offsetof(joint_params, unp_copy_taken), "1", 0, 1,
     "with unpaired=1 unp_pieces=1 unp_flow=2: in the self-calibration copy only the "
     "messages made from requests of the real trace's taken pieces seed the unpaired "
     "step's zone (none when it took none); the copy keeps its first search's pairs "
     "elsewhere, as the real output did (hotel 100 at 2 %: 4.89 -> 4.55 G instructions; "
     "parents unchanged, confidences a little lower).  0 = every unpaired message of the copy "
     "(docs/joint/loss.md, \"The flow on the spans\")"},
    {"unp_flow_span", PB_OPT_INT, offsetof(joint_params, unp_flow_span), "8", 0, 1000000,
     "unp_flow=2: the zone also cut to the time spans around the unpaired messages -- a call "
     "within this many calls, a return within this many returns of one in the link's time "
     "order (on a busy link unp_flow_hops' steps reach the whole link and the flow costs "
     "the square of it: hotel 100 at 2 % 1.72x -> 1.43x instructions with unp_win=2); 0 = "
     "off, the zone whole (docs/joint/loss.md, \"The flow on the spans\")"},
    {"uncross", PB_OPT_BOOL, offsetof(joint_params, uncross), "1", PB_OPT_NORANGE,
     "when messages were lost (half pairs), after the search: for every request a half "
     "pair touches and every request competing with it for a call, try exchanging all "
     "their calls sent from (or before) one moment, and keep the best exchange that makes "
     "the two likelier (a crossing of two chains at a loss; docs/joint.md, \"Loss with "
     "call ids\"); nothing without loss; 0 = off"},
    {"uncross_min", PB_OPT_DOUBLE, offsetof(joint_params, uncross_min), "1.9207", 0, 1e6,
     "nats a move of uncross must gain to be kept (default: half the 95 % point of "
     "chi-square with one degree of freedom, as if the move were a likelihood-ratio test)"},
    {"loss_serial", PB_OPT_INT, offsetof(joint_params, loss_serial), "8", 0, 8,
     "when messages were lost (half pairs) and every pair was made by call id: the model "
     "learns per outgoing link how often a call is sent while an earlier call of its "
     "request has not returned, and scores each call by it (a lost return's chain not "
     "stacked onto a neighbour that has a call out; docs/joint/loss.md, \"Loss with "
     "call ids: a request's calls one at a time\"; metadata loss_serial=); nothing "
     "without loss; 2 = with call ids also without loss (measured only); 3 = as 1 under loss, "
     "and with call ids without loss on the links a test calls serial (overlapping calls "
     "at most a quarter of what the requests' busy fractions give, z < -3) at the learned "
     "rate; 4 = as 3, a serial link priced as if none of its calls overlapped (metadata "
     "loss_serial=test); 7 = as 1, then with call ids without loss, where the test calls "
     "a link of the solution serial, the search again at 4, kept when the model without "
     "the term finds its solution likelier by 10 nats (two searches; metadata "
     "loss_serial_check=; measured, not the default: async and bursty rows fell); "
     "8 (the default) = as 7, but the second search only where the gate passes "
     "(loss_serial_gate), and the two solutions compared cross-fitted (each half of the "
     "requests under the model fitted to the other half; the term's kept when likelier on "
     "both halves and either the paired z over its units or the sign test over the walks "
     "that changed > 1.645; metadata loss_serial_gate=, loss_serial_check=crossfit); "
     "1 = the term under loss only; 0 = off"},
    {"loss_serial_gate", PB_OPT_DOUBLE, offsetof(joint_params, loss_serial_gate), "0.1", 0, 1,
     "loss_serial=8: the second search (with the term) runs only where at least this share "
     "of the requests with a call on a serial link hold a stacked call there (sent while "
     "an earlier call of the request is out) in the term-free solution: below it the term "
     "has little to undo and its search mostly changes requests it does not price "
     "(docs/joint/loss.md, \"The second search gated\"; metadata loss_serial_gate=ran|"
     "skipped share= level=); 0 = wherever a link tests serial"},
    {"loss_serial_win", PB_OPT_INT, offsetof(joint_params, loss_serial_win), "1", 0, 2,
     "loss_serial=8: the second search starts from the first solution and re-splits only "
     "the window of the stacked calls (1: each stacked call's parent and its candidate "
     "parents, the greedy rounds moving only the calls with a parent or candidate in it, "
     "then the re-splits of its requests; 2: the window grows after each round with the "
     "current stacks and the requests the round changed), with the term, "
     "checked as before (docs/joint/loss.md, \"The second search windowed\"; metadata "
     "loss_serial_window=); 0 = the whole second search from scratch"},
    {"loss_serial_win_mult", PB_OPT_INT, offsetof(joint_params, loss_serial_win_mult), "4", 1, 64,
     "loss_serial_win: the window's greedy rounds and re-split passes, up to this many "
     "times iters and passes (each stopping when nothing changes; from a solution fitted "
     "without the term the rounds keep moving calls longer than from the rank start: at 1 "
     "pool x2 ns lost 13-19 requests against the whole second search)"},
    {"loss_serial_greedy", PB_OPT_INT, offsetof(joint_params, loss_serial_greedy), "2", 0, 2,
     "where loss_serial's term is on, the greedy round's cost of a call in a request "
     "includes the term's change (its own overlap and the one its return makes for the "
     "request's later calls); 1 = wherever the term is on; 2 = only without loss, on "
     "the links the serial test prices (loss_serial=3|4, and 4's search under 7; the "
     "default); 0 = only whole walks see it"},
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
     "nothing without loss (docs/joint/loss.md, "
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
    {"conf_sim_loss", PB_OPT_BOOL, offsetof(joint_params, conf_sim_loss), "1", PB_OPT_NORANGE,
     "self-calibration: the copy also loses halves of pairs paired without call id at "
     "the rate of loss the links' imbalance shows (sum D^2 / 2n) less the halves the "
     "solution knows are lost; 0: only the known halves (before; "
     "docs/joint/confidence.md, \"The copy loses what the search did not notice\")"},
    {"conf_sim_loss_ids", PB_OPT_BOOL, offsetof(joint_params, conf_sim_loss_ids), "1",
     PB_OPT_NORANGE,
     "self-calibration, links with call ids: the copy also loses halves at the rate the ids "
     "show lost away from the trace's ends (made again where the trace lost them, then "
     "dropped at random), and where a request lost its root call a root is right by "
     "construction only where every row of its tree is; 0: before (docs/joint/confidence.md, "
     "\"The copy loses halves with call ids too\")"},
    {"conf_sim_loss_calls", PB_OPT_BOOL, offsetof(joint_params, conf_sim_loss_calls), "0",
     PB_OPT_NORANGE,
     "self-calibration with conf_sim_loss_ids: a call the trace lost is made whole in the "
     "copy too, so the copy loses calls at the trace's rate (0: it keeps them lost and "
     "loses more, about twice the rate), and the copy's rows whose truth is the solution's "
     "guess (sent at the lost call's service within its interval, and their subtrees) are "
     "left out of the fit (docs/joint/confidence.md, \"The copy's rate of lost calls\")"},
    {"conf_anchor", PB_OPT_BOOL, offsetof(joint_params, conf_anchor), "1", PB_OPT_NORANGE,
     "self-calibration: a copy row is right only where the scorer counts it right too (its "
     "tree's earliest request anchor is its request's: a root message, or the first "
     "surviving one where the root was lost), and a root that lost its call is not right by "
     "construction; 0: before (docs/joint/confidence.md, \"The copy scores a row as the "
     "scorer does\")"},
    {"conf_sim_block", PB_OPT_INT, offsetof(joint_params, conf_sim_block), "0", 0, 100000,
     "self-calibration: the copy draws the delays of a key (incoming endpoint, trigger, "
     "output) whose delays the trace shows correlated in time (lag-1 rank autocorrelation, "
     "rho sqrt(n) >= 3) in blocks of N consecutive outputs taken from a random place of the "
     "trace, so a stall meets other arrivals in the copy; 0: every delay drawn independently "
     "(docs/joint/confidence.md, \"The copy keeps delays correlated in time\")"},
    {"conf_sim_block_pool", PB_OPT_INT, offsetof(joint_params, conf_sim_block_pool), "0", 0, 1,
     "self-calibration with conf_sim_block=N: 1 makes the block copy one copy more, pooled "
     "with the conf_sims independent ones (one more inference); 0: it replaces them"},
    {"conf_sims_auto", PB_OPT_INT, offsetof(joint_params, conf_sims_auto), "0", 0, 1,
     "self-calibration with conf_sims=1: where the first copy holds fewer than 30 rows (of the "
     "map a real row takes: its link's or all links') in the band of stated confidence "
     "([0.5, 0.8), [0.8, 0.9), [0.9, 0.95), [0.95, 0.99)) of conf_sims_thin of the real rows "
     "or more, the map there is pooled from other levels and a second copy is pooled (one "
     "more inference there only; docs/joint/confidence.md, \"Calibration, twenty-second "
     "wave\")"},
    {"conf_sims_thin", PB_OPT_DOUBLE, offsetof(joint_params, conf_sims_thin), "0.05", 0, 2,
     "conf_sims_auto: the share of the real rows (not right by construction) in bands the "
     "first copy cannot test from which a second copy is pooled (above 1: never, measured "
     "only)"},
    {"conf_sim_whole", PB_OPT_INT, offsetof(joint_params, conf_sim_whole), "0", 0, 10000,
     "self-calibration: a trace of at most N pairs is copied whole for the calibration (a "
     "crossing a few requests in a thousand make appears in the copy about as often as in "
     "the trace, so the map can lower its share); 0: a window of conf_sim_share "
     "(docs/joint/confidence.md, \"The copy as large as a small trace\")"},
    {"conf_sim_late", PB_OPT_BOOL, offsetof(joint_params, conf_sim_late), "1", PB_OPT_NORANGE,
     "self-calibration: where the real trace widened a link whole (calls that outlive their "
     "request; late_chance), the copy takes the real trace's late-call decision (late "
     "services, their gaps, every link's widened share) instead of testing its own window "
     "(not where loss may explain the orphans: conf_sim_late_halves); 0: the copy's own test "
     "(docs/joint/confidence_mid.md, \"Calibration of late calls, twenty-second wave (h186)\")"},
    {"conf_late_construct", PB_OPT_BOOL, offsetof(joint_params, conf_late_construct), "0",
     PB_OPT_NORANGE,
     "self-calibration: a service whose late-call test passed (its calls can outlive their "
     "request) has no row right by construction: its rows of share 1 with one candidate go "
     "through the copy's map; 0: only services with orphans in the solution "
     "(docs/joint/confidence_mid.md, \"Rows right by construction and calls that outlive their "
     "request (h191)\")"},
    {"conf_sim_late_halves", PB_OPT_BOOL, offsetof(joint_params, conf_sim_late_halves), "1",
     PB_OPT_NORANGE,
     "conf_sim_late: not where the late services' orphan calls are no more than the trace's "
     "half pairs (calls or returns without their other half: loss may explain every orphan, "
     "and the copy loses messages itself); 0: wherever a link was widened whole "
     "(docs/joint/confidence.md, \"conf_sim_late by default\")"},
    {"conf_sim_async", PB_OPT_BOOL, offsetof(joint_params, conf_sim_async), "1", PB_OPT_NORANGE,
     "self-calibration: a simulated response waits only for the returns its request's "
     "response waited for in the solution; a call whose return came after it (an "
     "asynchronous call, a late call) outlives it in the copy as in the trace; 0: every "
     "response after every return of its request (before; docs/joint/confidence.md, "
     "\"The copy keeps calls that outlive their parent\"; joint_calibasync.c)"},
    {"conf_copy_pairs", PB_OPT_INT, offsetof(joint_params, conf_copy_pairs), "0", 0, 10000,
     "pairs the self-calibration's own copy holds at least, its other copies (the busy "
     "test's, the unpaired and reunp checks') keeping conf_sim_pairs; 0: conf_sim_pairs "
     "(measured, off: docs/joint/speed.md, \"Speed, sixteenth wave\")"},
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
    {"greedy_tcache", PB_OPT_INT, offsetof(joint_params, greedy_tcache), "2", 0, 2,
     "speed only, the same results: with greedy_cut, the greedy round keeps the trigger "
     "and count of a call in each candidate request across the refits of one search and "
     "scans again only the requests whose calls changed since, or when the parallel "
     "flags changed (joint_tcache.c); 0 scans every candidate in every round; 1 keeps "
     "them always (24 bytes a candidate slot: 450 -> 517 MB peak on the 2 M-message "
     "row); 2 keeps them where the trace has at most 2^20 candidate slots (24 MB; "
     "OnlineBoutique 14 K, the 2 M row about 2.8 M: docs/joint/speed.md, twentieth wave)"},
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
    {"conf_wide_skip", PB_OPT_BOOL, offsetof(joint_params, conf_wide_skip), "1",
     PB_OPT_NORANGE,
     "speed only, the same results: the confidence walks a call's request without the "
     "call's wide chain (near-tied runner-up triggers too) only when that chain holds more "
     "calls than the strict one (its alternatives are scored only then; joint_conf.c); 0 "
     "walks it every time"},
    {"conf_ll_keep", PB_OPT_BOOL, offsetof(joint_params, conf_ll_keep), "1", PB_OPT_NORANGE,
     "speed only, the same results: the log-likelihood in the output's metadata sums each "
     "request's own walk as the confidence made it, when no refit and no change of the "
     "assignment or pairs came between (joint_llkeep.c); 0 walks every request again"},
    {"walk_lean", PB_OPT_BOOL, offsetof(joint_params, walk_lean), "1", PB_OPT_NORANGE,
     "speed only, the same results: a request's walk takes a second compiled copy of its "
     "steps without the checks of the rules that cannot fire on it (no parallel-call cells, "
     "no late-call timer, no late-response gap, no open-ended requests; chosen at each walk "
     "from the run's state; joint_model.c walk_is_lean); 0 always the full steps"},
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
    {"late_rows", PB_OPT_BOOL, offsetof(joint_params, late_rows), "1", PB_OPT_NORANGE,
     "with late_calls and tie_rows, at whole-tick stamps: a service that passes the "
     "late-call test is tested (and its rows used) on the calls' side alone (a request "
     "arrived in an earlier row than the call), which a call outliving its request "
     "does not break; the returns' side, which it does, is not judged there "
     "(metadata tie_rows_service= late=calls_side; joint_latetie.c); 0: such a "
     "service is not tested"},
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
    {"busy_skip_same", PB_OPT_BOOL, offsetof(joint_params, busy_skip_same), "1",
     PB_OPT_NORANGE,
     "busy test: where the free and the held search assign every pair alike, draw no "
     "copies (the verdict is the free search's whatever they show; speed, the same "
     "assignment; metadata busy_copies=0 skipped=same_solutions, no busy_service= "
     "lines); 0: copies drawn as before"},
    {"busy_copy_lean", PB_OPT_INT, offsetof(joint_params, busy_copy_lean), "1", 0, 2,
     "busy test: its copies of the free solution share one set-up (the orphans' misses, "
     "triggers, delays per key and window, which depend on the solution alone) and are "
     "read as stamps instead of being made into traces (speed; the same draws, the same "
     "output); 0: each copy made as a trace (before); 2: a wrong copy, the receive of every "
     "second call lost (tests only; docs/joint/speed.md, \"The busy test's copies from one "
     "set-up\")"},
    {"refit_skip_same", PB_OPT_BOOL, offsetof(joint_params, refit_skip_same), "1",
     PB_OPT_NORANGE,
     "leave out a refit of the assignment the model was just refitted on when the search "
     "between moved nothing and the refit would replay every request (joint_search.c "
     "joint_refit; speed, the same model and output); 0: every refit run"},
    {"repair_inf_skip", PB_OPT_BOOL, offsetof(joint_params, repair_inf_skip), "1",
     PB_OPT_NORANGE,
     "re-pairing without call ids, its exchange passes: where the later call cannot take "
     "the earlier call's return (infinite cost), the exchange is rejected without the "
     "earlier call's cost and the order-of-answers term (joint_rinf.c; speed, the same "
     "pairs and output); 0: every exchange scored in full"},
    {"key_room", PB_OPT_BOOL, offsetof(joint_params, key_room), "1", PB_OPT_NORANGE,
     "the held search and the self-calibration's copy start with the per-key room (rows "
     "of the delay histograms and densities) the free search ended with, instead of "
     "growing it by doubling (joint_keyroom.c; speed, the same output); 0: grown from one"},
    {"pairs_share", PB_OPT_BOOL, offsetof(joint_params, pairs_share), "1", PB_OPT_NORANGE,
     "without call ids the held search takes the free search's first pairing of calls and "
     "returns (the alignment, joint_find_pairs) instead of making it again "
     "(joint_pshare.c; speed, the same output), and its local-search and greedy caches "
     "(joint_bufshare.c), and each search's second duration-term set-up reuses the "
     "first's direct table with only its set cells cleared (joint_corr.c); 0: each "
     "search pairs and allocates its own"},
    {"ll_share", PB_OPT_BOOL, offsetof(joint_params, ll_share), "1", PB_OPT_NORANGE,
     "without call ids the free and held searches' scores with the order terms "
     "(joint_order_score) start from the log-likelihoods the choice between them just "
     "computed instead of walking every request again (joint_llshare.c; speed, the same "
     "output); 0: computed again"},
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
    {"busy_partial_vote", PB_OPT_INT, offsetof(joint_params, busy_partial_vote), "4", 0, 4,
     "busy_partial's vote, a one-sided sign test: 0 = per changed end of a pair (at 5 %), "
     "1 = per request (a request of the free solution whose changed ends lie mostly at the "
     "serialising services votes for the third search, every other changed request against "
     "it; at 5 %), 2 = either of the two, each at 2.5 % (joint_partial.c), 3 = the third "
     "search kept unless either count is significantly below half (each at 2.5 %: the "
     "burden turned round; metadata vote=against), 4 = as 2, and where neither count passes, "
     "kept when more than half of the changed requests lie mostly at those services (metadata "
     "vote=majority)"},
    {"tie_test", PB_OPT_INT, offsetof(joint_params, tie_test), "1", 0, 2,
     "at whole-tick stamps with many ties (infer's coarse_ties=1), keep the start when "
     "more than half of the calls the search moved went to a request that arrived in "
     "the same tick as their start parent (call ids only; metadata tie_test=); 2: and "
     "the search gains less than 1.92 nats per such move within a tick (the moves across "
     "a tick allowed no gain; joint_tieexcess.c, h280; see tie_excess); default 1"},
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
    {"tie_sets", PB_OPT_INT, offsetof(joint_params, tie_sets), "3", 0, 3,
     "the tie test does not keep a start that breaks the set of calls requests make: "
     "per incoming endpoint the modal set (counts per outgoing link) both solutions "
     "agree on, a sign test over the requests on it in one solution only (one-sided "
     "binomial at one half below 0.05, more off it in the start) keeps the search "
     "(joint_tieset.c; metadata tie_sets=).  Off: it also refutes starts the tie test "
     "is right to keep (joint_ticks 2 workers at 1 ms with ids 88.2 -> 72.8; "
     "docs/joint/ticks.md).  2: weighed against the moves: p below tie_sets_p divided by "
     "the tie test's moved calls (Bonferroni over the moves), the requests a call moved "
     "across a tick touches left to tie_cross (metadata level=, crossed=).  3 (default): "
     "=2's level, decided after tie_cross against the start as tie_cross left it (the "
     "search saved whole, returns included); when refuted, the search's parents and "
     "returns are put back on each component of the calls where the two differ whose "
     "requests it brings onto their set more often than it takes them off, the rest "
     "stays (metadata after=tie_cross left= components= taken=)"},
    {"tie_sets_p", PB_OPT_DOUBLE, offsetof(joint_params, tie_sets_p), "0.05", 0, 1,
     "tie_sets=2|3: the family level of the one-sided sign test over requests, shared "
     "among the moves the tie test weighed"},
    {"tie_sets_ll", PB_OPT_BOOL, offsetof(joint_params, tie_sets_ll), "0", PB_OPT_NORANGE,
     "tie_sets=3: a component the set count gives to the search takes it only where the "
     "search is also likelier on its requests (by tie_sets_ll_bar x 1.92 nats per moved "
     "call; joint_tieset.c; metadata ll_dropped=).  Off: at 1 ms on dispatch x2 as a "
     "black box it puts the link accuracy above tie_sets=0's but loses exact requests "
     "tie_sets=3 wins (docs/joint/ticks.md)"},
    {"tie_sets_split", PB_OPT_BOOL, offsetof(joint_params, tie_sets_split), "1",
     PB_OPT_NORANGE,
     "tie_sets=3: the components a pair joins as a call (its parent, its return) and "
     "as a request (its calls) are apart unless its return differs between the two "
     "solutions: a request moved whole above (its set unchanged, so no count speaks "
     "for the move) no longer rides with the moves among its calls' calls that bring "
     "requests onto their set (joint_tieset.c; metadata split=on; on by default: held-out "
     "dispatch x2 black box at 1 and 10 ms 33.7 -> 83.6 exact points summed over four "
     "rows, links +7 to +10; docs/joint/ticks.md)"},
    {"tie_sets_ll_bar", PB_OPT_DOUBLE, offsetof(joint_params, tie_sets_ll_bar), "0", -100, 100,
     "tie_sets_ll: the bar per moved call in units of the tie test's 1.92 nats (0: the "
     "search at least as likely on the component; 1: the tie test's own bar; "
     "docs/joint/ticks.md)"},
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
#include "joint_options_late.inc"
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};
