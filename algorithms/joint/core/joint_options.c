/*
 * joint_options.c - the option table of infer --algo joint: every
 * parameter's name, type, default, range and help (docs/joint.md).  The
 * table drives parsing, defaults, validation and --help; the code that
 * reads each parameter names its file in the help text.
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
     "(docs/joint/confidence.md, \"Calibration of late calls, twenty-second wave (h186)\")"},
    {"conf_late_construct", PB_OPT_BOOL, offsetof(joint_params, conf_late_construct), "0",
     PB_OPT_NORANGE,
     "self-calibration: a service whose late-call test passed (its calls can outlive their "
     "request) has no row right by construction: its rows of share 1 with one candidate go "
     "through the copy's map; 0: only services with orphans in the solution "
     "(docs/joint/confidence.md, \"Rows right by construction and calls that outlive their "
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
     "a tick allowed no gain; joint_quant.c, h280); default 1"},
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
    {"tick_fifo", PB_OPT_BOOL, offsetof(joint_params, tick_fifo), "1", PB_OPT_NORANGE,
     "at whole-tick stamps with many ties (infer's coarse_ties=1) whose rows the subtick "
     "test found out of event order (spread none), with call ids: per service whose "
     "requests are answered in tick order (a request that arrived in an earlier tick "
     "answered in a later tick than one that arrived after it in too few requests for a "
     "rate of 2 %, one-sided binomial at 1 %), after the search each link it calls once "
     "per request gives its calls to its requests in tick order (requests by arrival and "
     "answer tick, calls by send and return tick, ties by row; joint_tickx.c; metadata "
     "tick_fifo_service=, tick_fifo=)"},
    {"subtick_blame", PB_OPT_BOOL, offsetof(joint_params, subtick_blame), "1",
     PB_OPT_NORANGE,
     "subtick=auto per service: once no pair of kept services fails, also put out a kept "
     "service that failed a pair with a service put out and still shows a forward "
     "contradiction against the kept ones (an order of events shows none; its disorder "
     "was seen through the callee put out; joint_subsvc.c; metadata evidence=blamed)"},
    /* old name (one meaning per name: order is the baselines' choice of ordering) */
    {"order", PB_OPT_ALIAS, 0, "service_order", PB_OPT_NORANGE, NULL},
    {"repair_open_passes", PB_OPT_INT, offsetof(joint_params, repair_open_passes), "-1", -1,
     1000,
     "without call ids, the most local-search passes (exact re-splits of two requests) in "
     "the open-ended solve of each re-pairing round (step 4 (c): the requests' ends left "
     "open, the model frozen); its greedy rounds and every other solve as always.  -1: "
     "at most 2 (min(passes, 2)), as always.  Speed; changes results (docs/joint/speed.md "
     "\"Speed, seventeenth wave\"; metadata repair_open_passes=)"},
    {"swap_resume", PB_OPT_BOOL, offsetof(joint_params, swap_resume), "1", PB_OPT_NORANGE,
     "speed only, the same results: without call ids, an exchange of two returns scored "
     "from a request's record (a request of 64 calls or more) resumes the walk at the "
     "first step that could have taken either return, not at the first call between the "
     "two (a deep request: every call sent before any return); 0 resumes as before "
     "(docs/joint/speed.md, \"Speed, nineteenth wave\")"},
    {"swap_tail_tree", PB_OPT_BOOL, offsetof(joint_params, swap_tail_tree), "1",
     PB_OPT_NORANGE,
     "speed only, the same results: without call ids, an exchange of two returns scored "
     "from a request's record adds the record's remaining terms (one a call after the "
     "two) as a sum of integers of the binade's spacing, from a tree over the record, "
     "in O(log n), bit for bit the same double as adding them one by one; 0 adds them one "
     "by one (O(n) an exchange: one request with thousands of calls; docs/joint/speed.md, "
     "\"Wide requests: the exchange's tail\")"},
    {"cand_sweep", PB_OPT_BOOL, offsetof(joint_params, cand_sweep), "1", PB_OPT_NORANGE,
     "speed only, the same results: a call's candidate parents (the requests of its "
     "caller that enclose it) read from a max-tree over the requests by their ends when "
     "more than 64 are open, instead of a scan of every open request (one very deep "
     "request: quadratic in its depth); 0 scans as before (docs/joint/speed.md, \"Speed, "
     "twentieth wave\")"},
    {"cand_group", PB_OPT_BOOL, offsetof(joint_params, cand_group), "1", PB_OPT_NORANGE,
     "speed only, the same results: with cand_sweep and cand_ends, calls of one caller in "
     "a row with the same send and return receipt (N requests sharing one tick) share "
     "their candidate list, kept once and cut to max_candidates for each call in "
     "O(k log k), not built in full for every call (quadratic in N); 0 builds each as "
     "before (docs/joint/speed.md, \"Speed, twentieth wave (h163)\")"},
    {"swap_ties", PB_OPT_BOOL, offsetof(joint_params, swap_ties), "1", PB_OPT_NORANGE,
     "speed only, the same results: an exchange of two returns walked from a record moves "
     "only those two in the record's sorted returns (binary searches) and takes a long run "
     "of returns at one step by a binary search, instead of re-sorting and stepping over "
     "every return between their times (one request with N calls whose returns share one "
     "stamp: quadratic in N); 0 as before (docs/joint/speed.md, \"Speed, twenty-first "
     "wave (h168)\")"},
    {"repair_pick", PB_OPT_BOOL, offsetof(joint_params, repair_pick), "1", PB_OPT_NORANGE,
     "speed only, the same results: the re-pairing's greedy (each return to the open call "
     "whose last chance it is, else the least response cost) keeps the open calls in heaps "
     "by their last chance and by the time from which their cost can be finite, and scores "
     "only the latter, instead of every open call of the link for every return (one very "
     "deep request: quadratic in its depth); 0 as before (docs/joint/speed.md, \"Speed, "
     "twenty-first wave (h168)\")"},
    {"repair_bucket", PB_OPT_INT, offsetof(joint_params, repair_bucket), "1", 0, 3,
     "speed only, the same results: with repair_pick, the open calls whose response cost "
     "is a density of the time since their start alone are kept by density bin, ordered by "
     "start; a return scores the latest start of each bin in increasing lower bound and "
     "stops when the bound is above the best (N overlapping requests all open at once: "
     "quadratic in N without it); 0 as before, 2 always (tests), 3 a deliberately wrong "
     "bucket head (tests: must differ) (docs/joint/speed.md, \"Speed, twenty-second wave "
     "(h178)\")"},
    {"late_chance", PB_OPT_INT, offsetof(joint_params, late_chance), "2", 0, 2,
     "with late_split, at a service that passes the late-call test, a link whose orphan "
     "share is under 1/2 (at 1/2 every call of the link is widened): 2 estimates the "
     "share of its calls that outlive their request from the orphans alone, each orphan "
     "counted 1 / (1 - c), c its own chance of being enclosed by some request of the "
     "service were it placed at random (its length at 64 positions over the trace, c "
     "capped at 0.95): under load a late call is mostly enclosed by another request and "
     "is no orphan, and the orphans that are left stand for it (a fire-and-forget call); "
     "long late calls (timed-out attempts) are rarely enclosed and count about once; 1 "
     "the share divided by 1 - c of all the link's calls' lengths (wrong where the late "
     "calls are longer than the rest: retries); 0 off (joint_lchance.c; metadata "
     "late_chance_links=, late_chance_link=; docs/joint/shapes.md)"},
    {"recur_inner", PB_OPT_BOOL, offsetof(joint_params, recur_inner), "1", PB_OPT_NORANGE,
     "a service that calls itself (a link from it to itself: recursion): after the search, "
     "solve again from a first assignment that puts each of its calls on the innermost "
     "open visit (the latest-arrived candidate: a visit waiting for its nested call sends "
     "nothing), every other call as start=local does, and keep that solution when its "
     "log-likelihood is higher by 10 nats (from the usual starts every level's calls can "
     "lock onto the outermost visit, which contains them all); 0 off.  Metadata "
     "recur_inner= where such a service exists (docs/joint/shapes.md \"Unseen execution "
     "models\")"},
    {"ls_dirty_solve", PB_OPT_INT, offsetof(joint_params, ls_dirty_solve), "0", 0, 2,
     "changes results (a budget): the local search's second and later re-split passes of "
     "a solve visit only pairs with a request a pass of this same solve changed (1), or of "
     "this solve or the one before (2); 0 (as before) also visits pairs whose request any "
     "earlier solve's passes changed (their marks are never cleared), most of them "
     "unchanged since (joint_lsdirty.c; docs/joint/speed.md, \"Speed, twenty-first wave "
     "(h166)\")"},
    {"recur_cycle", PB_OPT_BOOL, offsetof(joint_params, recur_cycle), "1", PB_OPT_NORANGE,
     "with recur_inner: a service re-entered through a cycle of links over two or more "
     "services (A -> B -> A: a sidecar proxy that forwards a request into its application "
     "and carries the application's calls out) gets recur_inner's second search as a service "
     "calling itself does, kept only when its log-likelihood is higher by 10 nats; 0 off.  "
     "Metadata recur_cycle= (services marked) where such a cycle exists "
     "(joint_rcycle.c; docs/joint/shapes.md \"Unseen execution models, third round\")"},
    {"busy_reentry", PB_OPT_BOOL, offsetof(joint_params, busy_reentry), "1", PB_OPT_NORANGE,
     "busy test: a service its own requests re-enter (a link to itself, or a cycle of links "
     "through it: a sidecar proxy and its application) is never found serialising (nor by "
     "busy_space): it cannot keep its requests in order, the outer visit waits on the inner "
     "one; its changed pairs do not vote for the held search (joint_reentry.c; metadata "
     "busy_service= ... reentered=yes where it withdrew a verdict); 0: tested as any other"},
    {"ls_open_fresh", PB_OPT_BOOL, offsetof(joint_params, ls_open_fresh), "1",
     PB_OPT_NORANGE,
     "speed only, the same results: in a solve that refits nothing between its re-split "
     "passes (the re-pairing rounds' open-ended solve), a later pass visits a pair only "
     "when one of its requests was changed by this solve's passes; a request marked by an "
     "earlier solve only was re-split against each partner in this solve's first pass under "
     "the same model and is unchanged since, so its pairs would keep their split.  The "
     "marks are restored after the solve, so later solves see main's; 0 visits them again "
     "(joint_lsdirty.c; docs/joint/speed.md, \"Speed, twenty-second wave (h179)\")"},
    {"thread_bound", PB_OPT_INT, offsetof(joint_params, thread_bound), "2", 0, 2,
     "with a thread column (the thread that received each message): per service, the "
     "answers to its calls received on no thread of its visits open at the time are "
     "counted against what threads drawn by chance give; where they are at most "
     "thread_ratio of chance's (and chance gives thread_expect or more), the service's "
     "visits are bound to a thread and a call keeps only the candidate visits on its "
     "answer's thread (all where none is; said on stderr).  Metadata thread_service=, "
     "thread_bound= (joint_thread.c; docs/joint/shapes.md \"Visits bound to a thread "
     "(h187)\").  2 (default): test and filter on the pairs made by call id only (a black box "
     "is untouched); 1: also on pairs made without call ids (off: pool black-box rows fell); "
     "0 off"},
    {"thread_ratio", PB_OPT_DOUBLE, offsetof(joint_params, thread_ratio), "0.1", 0, 1,
     "thread_bound: a service is bound when its answers' misses are at most this share of "
     "the misses chance gives"},
    {"thread_expect", PB_OPT_DOUBLE, offsetof(joint_params, thread_expect), "10", 0, 1e9,
     "thread_bound: the least misses chance must give for a service to be tested (fewer: "
     "its threads could not tell its visits apart)"},
    {"bnb_row_keep", PB_OPT_BOOL, offsetof(joint_params, bnb_row_keep), "1", PB_OPT_NORANGE,
     "speed only, the same results: the re-split's branch and bound keeps, per density key, "
     "the log-density row its bound row (the largest log-density from each bin up) was made "
     "from; after a refit a key whose row is bit for bit the same keeps its bound row instead "
     "of making it again (fit_fast refits only the keys whose delays changed); metadata "
     "bnb_rows_kept= (joint_bnb.c; docs/joint/speed.md, \"Speed, twenty-third wave "
     "(h194)\"); 0: every row made again after a refit"},
    {"ls_margin", PB_OPT_DOUBLE, offsetof(joint_params, ls_margin), "0", 0, 1e9,
     "speed, changes results where it fires: a re-split of two requests that kept their "
     "split, every other split it looked at at least this many nats less likely, is not "
     "made again in the same search and kind of solve while the two requests (their calls, "
     "times, returns, shared calls) stay as they were, though the model is refitted "
     "between; metadata ls_margin= resplits_left_out= (joint_lsmargin.c; docs/joint/speed.md, "
     "\"Speed, twenty-third wave (h194)\"); 0: off"},
    {"repair_incr", PB_OPT_INT, offsetof(joint_params, repair_incr), "0", 0, 4,
     "speed, changes results where it fires: a re-pairing round after the first re-splits, "
     "in its solves' first local-search pass, only the pairs of requests that changed since "
     "the solve of the same kind in the round before (a return, open end, call, call's "
     "return or candidates moved); the later passes as always.  Not exact: the model is "
     "refitted between the rounds.  1: the open-ended solve only; 2: the refitting solve "
     "too; 3: every solve of the search against the one of its kind before; 4: the "
     "open-ended solve against the refitting solve just before it; 0 (default): off.  Metadata repair_incr= resplits_left_out= (joint_rpinc.c; "
     "docs/joint/speed_late.md, \"Speed, twenty-fourth wave (h197)\")"},
    {"greedy_damp", PB_OPT_INT, offsetof(joint_params, greedy_damp), "0", 0, 4,
     "changes results: 1, within one solve, a greedy round does not move a call back to the "
     "request it had two rounds before (the rounds cycle: a call's cost leaves out its "
     "siblings'); 2, a solve's greedy rounds stop after a round (the second or later) at "
     "least half of whose moves put a call back where it was two rounds before; metadata "
     "greedy_damp= moves_refused= (1: moves refused; 2-4: solves whose rounds stopped); "
     "3, a solve's greedy rounds stop after a round that did not raise the likelihood "
     "(joint_loglik before and after it, under its model); 4, as 3 and the solution before "
     "that round set again "
     "(joint_rpdamp.c; docs/joint/speed_late.md, \"Speed, twenty-fourth wave (h197)\"); "
     "0: off"},
    {"thread_soft", PB_OPT_DOUBLE, offsetof(joint_params, thread_soft), "0.5", 0, 1,
     "changes results where it fires: the receiving thread as a likelihood term instead of a "
     "filter on pairs made without call ids: per service the thread test's misses over "
     "chance's (the smallest over the passes) is the rate m at which an answer leaves its "
     "visit's thread; where m is at most this, a call whose answer came on another thread "
     "than its parent visit's (of frequency f among the service's visits) costs "
     "log(m / (m + (1 - m) / f)); metadata thread_soft= per such service (joint_thread.c; "
     "docs/joint/shapes.md \"The receiving thread as a likelihood term (h200)\"; default 0.5 "
     "with thread_soft_pick=3 since h217); 0: off"},
    {"conf_copy_repair", PB_OPT_INT, offsetof(joint_params, conf_copy_repair), "-1", -1, 100,
     "the self-calibration's own copy only (the confidence's calibration; the output's paths "
     "are the same): its search makes at most this many re-pairing rounds (without call "
     "ids); -1: as the real search (repair) (joint_simfast.c; docs/joint/confidence_late.md)"},
    {"conf_copy_swaps", PB_OPT_INT, offsetof(joint_params, conf_copy_swaps), "-1", -1, 100,
     "the self-calibration's own copy only: its search makes at most this many rounds of "
     "exchanging returns; -1: as the real search (swap_rounds) (joint_simfast.c)"},
    {"conf_copy_passes", PB_OPT_INT, offsetof(joint_params, conf_copy_passes), "-1", -1, 1000,
     "the self-calibration's own copy only: its search's re-split passes at most this many; "
     "-1: as the real search (passes) (joint_simfast.c)"},
    {"conf_copy_start", PB_OPT_BOOL, offsetof(joint_params, conf_copy_start), "1",
     PB_OPT_NORANGE,
     "the self-calibration's own copy only: its search starts as the real search's kept "
     "solution did (restart: with call ids, where the rank start was refuted, a second "
     "search from start=earliest; the copy runs start=earliest only where the real trace "
     "kept that search, else the rank start alone) instead of running the restart test and "
     "its second search again; the output's paths are the same, confidences may change "
     "(joint_simfast.c; docs/joint/confidence_late.md); 0: the copy's own test and second "
     "search"},
    {"conf_late_hidden", PB_OPT_BOOL, offsetof(joint_params, conf_late_hidden), "1",
     PB_OPT_NORANGE,
     "confidences only: on a link whose sender passed the late-call test and whose orphans "
     "late_chance=2 judged (not widened whole), a row right by construction that a request "
     "of the sender other than its parent, open at its send and ended before its return, "
     "could have left behind (a call outliving its request, enclosed by another) is stated "
     "at most 1 - (H + 1) / (N + 2), H the link's late calls the orphans stand for less the "
     "orphans, N such rows; the rows below it at most its own.  Metadata "
     "conf_late_hidden_link=, conf_late_hidden= (joint_cfhidden.c; docs/joint/confidence.md "
     "\"Outliving calls hidden in a neighbour request (h201)\"); 0: off"},
    {"conf_copy_tick", PB_OPT_BOOL, offsetof(joint_params, conf_copy_tick), "1", PB_OPT_NORANGE,
     "confidences only: where subtick spread the trace's rows over their coarse ticks, the "
     "self-calibration's copy is cut to the same tick, its tied rows kept in the order of "
     "its events, and spread by the same test before its inference (else the copy is made "
     "at the spread stamps' resolution, exact, and is easier than the trace); "
     "(joint_cftick.c; docs/joint/confidence.md \"The copy at the trace's own tick, spread "
     "as the trace was (h201)\"); 0: the copy at the spread stamps' tick"},
    {"held_skip", PB_OPT_DOUBLE, offsetof(joint_params, held_skip), "64", 0, 1e12,
     "speed, without call ids and pair_order=auto: the held search is not run (the free "
     "search kept) when the free solution leaves at most this many consecutive pairs of "
     "calls in question on all links together (both open at once at the callee), learned "
     "no parallel call, and the busy test finds no service serialising on the free "
     "solution's copies; metadata held_skip=skipped|ran in_question= (joint_heldskip.c; docs/joint/speed.md, \"Speed, "
     "twenty-fourth wave (h195)\"); default 64; 0: off"},
    {"thread_soft_floor", PB_OPT_DOUBLE, offsetof(joint_params, thread_soft_floor), "0", 0, 1,
     "changes results where thread_soft fires: the term's rate is max(m, this), capping what "
     "one thread mismatch costs at log(F / (F + (1 - F) / f)) (joint_thread.c; docs/joint/"
     "shapes.md \"thread_soft's term capped (h204)\"); 0: the fitted m as is"},
    {"unp_busy", PB_OPT_INT, offsetof(joint_params, unp_busy), "0", 0, 1,
     "speed, changes results under loss without call ids: unp_win=2's window seeded by a "
     "changed message's request is cut to its link's busy period in the first search (from "
     "the last instant before it to the first after it where every call of the link the "
     "first search paired is answered): a lost message moves its link's pairs only until "
     "the queue empties (metadata unp_win= ... cut=link_busy_period; joint_unpbusy.c; "
     "docs/joint/loss_late.md \"The window cut where the link's queue empties (h211)\"); "
     "0: the request's span as is"},
    {"unp_whole_one", PB_OPT_INT, offsetof(joint_params, unp_whole_one), "0", 0, 3,
     "speed, under loss without call ids: when unpaired=1's second search runs on the whole "
     "trace (unp_win's window over half the messages), it runs the first search's free / "
     "held choice only instead of both searches and the choice again (metadata unp_win=whole "
     "... search=first_choice; joint_unpone.c; docs/joint/loss_late.md \"The whole second "
     "search with the first search's choice (h211)\"); 2: only where the first search kept the "
     "held search; 3: the choice the first search did not keep (search=other_choice; "
     "docs/joint/loss_late.md, h222); 0: both searches"},
    {"conf_copy_shuffle", PB_OPT_BOOL, offsetof(joint_params, conf_copy_shuffle), "0",
     PB_OPT_NORANGE,
     "confidences only: in the self-calibration's copy of the confidences the result carries, "
     "each link's requests that overlap (arriving before the latest response of those before "
     "them) have their calls dealt again among them at random (seeded by conf_seed), so the "
     "copy's truth is not the solution's own split of an overlap, which the search finds "
     "again too easily; metadata conf_copy_shuffle= (joint_cfshuf.c; "
     "docs/joint/confidence_late.md \"The copy's truth shuffled among overlapping requests "
     "(h212)\"); default 0 (OnlineBoutique 17:00 with call ids over-confident with it): the "
     "copy's requests make the solution's calls"},
    {"conf_thin_own", PB_OPT_BOOL, offsetof(joint_params, conf_thin_own), "0",
     PB_OPT_NORANGE,
     "confidences only: a link with too few self-calibration copy rows for a map of its own "
     "(fewer than 100, so the all-links map) is stated at most the map of its own few copy "
     "rows too (pool-adjacent-violators, blocks (right + 1) / (rows + 2)); metadata "
     "conf_thin_own= (joint_cfthin.c; docs/joint/confidence_late.md); default 0: the "
     "all-links map alone"},
    {"greedy_check", PB_OPT_INT, offsetof(joint_params, greedy_check), "0", 0, 1,
     "changes results: a greedy round moves a call to its cheapest candidate only when the "
     "move raises the likelihood of the two requests it changes (both walked as they are and "
     "with the call moved, under the round's model), so the rounds of a solve without refits "
     "cannot cycle; metadata greedy_check= moves_tried= moves_refused= (joint_rpchk.c; "
     "docs/joint/speed_late.md, \"Re-pairing rounds that settle (h207)\"); 0: off"},
    {"greedy_cycle", PB_OPT_BOOL, offsetof(joint_params, greedy_cycle), "1", PB_OPT_NORANGE,
     "speed only, the same solution: when a solve's greedy round puts every call back on the "
     "request it had two rounds before (each round is a function of the assignment), the "
     "rounds left are not run and the solution they would leave is set; metadata "
     "greedy_cycle= solves_cut= rounds_left_out= where it cut (joint_rpcyc.c; "
     "docs/joint/speed_late.md, \"Re-pairing rounds that settle (h207)\"); 0: off"},
    {"held_local", PB_OPT_DOUBLE, offsetof(joint_params, held_local), "0", 0, 1,
     "speed, changes results, without call ids and pair_order=auto: the held search runs "
     "only on the free search's top-level requests holding a consecutive pair of calls in "
     "question (both open at once at the callee), the free search's pairs and parents kept "
     "elsewhere, and the merged solution competes as the held search did, when that window "
     "holds at most this share of the messages; metadata held_local=window|whole "
     "(joint_heldlocal.c; docs/joint/speed_late.md \"The held search on a window (h206)\"); "
     "0: off (the whole held search)"},
    {"held_local_pad", PB_OPT_DOUBLE, offsetof(joint_params, held_local_pad), "0", 0, 1e6,
     "held_local: the window widened by the requests whose pairs overlap a seed request's "
     "span padded by this many times its length on each side; 0: the seed requests only"},
    {"held_local_seed", PB_OPT_INT, offsetof(joint_params, held_local_seed), "1", 1, 2,
     "held_local's seeds: 1 the requests holding a call of any consecutive pair in question, "
     "2 of an overtaken pair only (the later call answered first)"},
    {"thread_soft_pick", PB_OPT_INT, offsetof(joint_params, thread_soft_pick), "7", 0, 7,
     "changes results where thread_soft weighs a service, without call ids: 7 as 6, and where "
     "the thread test alone keeps the term's solution, kept only when the calls it moves are at "
     "most thread_soft_moves times the misses it mends (metadata thread_soft_moves=; "
     "joint_thrmove.c, h245); 6 as 3, the term's "
     "solution kept when the thread test's misses in the two solutions (binomial "
     "log-likelihood ratio) outweigh the delays' log-likelihood ratio by 10 nats (metadata "
     "thread_soft_rate_test=; joint_thrtest.c, h233); 5 the whole "
     "inference runs with the term muted and, where it weighs a service, one more search "
     "with the term starts from that solution's pairs and is kept (metadata "
     "thread_soft_check=warm_start; joint_thrwarm.c); 3 the whole "
     "inference runs again without the term and the term's solution is kept only when the "
     "model without the term finds it likelier by more than 10 nats (metadata "
     "thread_soft_check=; no second run where no service is weighed); 2 the term's kept "
     "unless the model without the term finds the other likelier by more than 10 nats; 4 both "
     "judged by the whole model, term included; 1 one run, the free and held searches "
     "(pair_order=auto) compared without the term (metadata thread_soft_pick=); 0: one run, "
     "with the term (joint_thrpick.c; docs/joint/shapes.md \"thread_soft's term out of the "
     "choice of search (h209)\" and \"(h217)\")"},
    {"thread_soft_cap", PB_OPT_DOUBLE, offsetof(joint_params, thread_soft_cap), "0", 0, 1e6,
     "changes results where thread_soft weighs a service: one thread mismatch costs at most "
     "this times the service's median delay margin (its calls' second best candidate "
     "parent's greedy cost less the best's, under the current fit); metadata cap= on "
     "thread_soft= (joint_thread.c; docs/joint/shapes.md \"thread_soft's term out of the "
     "choice of search (h209)\"); 0: off"},
    {"order_cross", PB_OPT_BOOL, offsetof(joint_params, order_cross), "1", PB_OPT_NORANGE,
     "changes results without call ids where a link's calls cross (two consecutive calls by "
     "the callee's reads that the caller sent in the other order) and the order of answers "
     "is scored (the held search): after the search, each crossing's other pairing (alone, "
     "or with the two parents' calls exchanged) is scored by the whole model with that pair "
     "out of the order term's question (neither order is first in) and kept when likelier by "
     "more than uncross_min nats; metadata order_cross=on crossings= exchanges_tried= kept= "
     "gain= (joint_tieorder.c; docs/joint/loss_late.md \"The eBPF capture: crossed calls and "
     "the order of answers (h210)\"); 1 (the default since the 28th wave: h220's whole-request "
     "moves, order_cross_alone=0; no audit row down, eBPF black box 212 -> 214): on; 0: off"},
    {"held_warm", PB_OPT_INT, offsetof(joint_params, held_warm), "0", 0, 1,
     "speed, changes results, without call ids and pair_order=auto: the held search (holding "
     "the order of answers) starts from the free search's pairs and parents instead of the "
     "first-come start, then runs its own rounds under its own model; metadata held_warm= "
     "(joint_heldwarm.c; docs/joint/speed_late.md \"The held search from the free solution "
     "(h219)\"); 0: off (the held search from scratch)"},
    {"held_repair", PB_OPT_INT, offsetof(joint_params, held_repair), "-1", -1, 100,
     "speed, changes results, without call ids and pair_order=auto: the held search's "
     "re-pairing rounds (repair), from scratch or held_warm's; -1: repair's"},
    {"held_swaps", PB_OPT_INT, offsetof(joint_params, held_swaps), "-1", -1, 100,
     "speed, changes results, without call ids and pair_order=auto: the held search's "
     "swap_rounds, from scratch or held_warm's; -1: swap_rounds'"},
    {"rs_memo", PB_OPT_BOOL, offsetof(joint_params, rs_memo), "0", PB_OPT_NORANGE,
     "speed only, the same choices: a re-split of two requests whose calls, times and "
     "shared calls and whose model (each incoming link's densities, counts, durations and "
     "order terms, compared by a hash made once a pass) are those of the same pair's last "
     "re-split, which kept its split, is left out and its work counters added as recorded; "
     "metadata rs_memo=1 resplits_left_out= where it did (joint_rsmemo.c; "
     "docs/joint/speed_late.md \"Speed, twenty-sixth wave (h218)\"; off by default: on "
     "OnlineBoutique it costs more than it saves); 0: off"},
    {"order_cross_alone", PB_OPT_BOOL, offsetof(joint_params, order_cross_alone), "0",
     PB_OPT_NORANGE,
     "changes results where order_cross applies: 1 tries each crossing's answers exchanged "
     "alone as well as with the two parents' calls exchanged; 0: only the latter (a move of "
     "whole requests; the answers alone are decided by the callee's two durations and the "
     "order terms, which stamp jitter turns; metadata alone= on order_cross= "
     "(joint_tieorder.c; docs/joint/loss_late.md \"order_cross under jitter (h220)\")"},
    {"unp_win_max", PB_OPT_DOUBLE, offsetof(joint_params, unp_win_max), "0.5", 0, 1,
     "changes results under loss without call ids when set above 0.5: with unp_win, the "
     "largest window (share of the messages) searched as a window; a larger one runs the "
     "whole second search (metadata unp_win=whole reason=window_over_max) (joint_unpwin.c; "
     "docs/joint/loss_late.md \"The loss rule's cost: the window at any size (h222)\"); "
     "default 0.5"},
    {"conf_ratio_copy", PB_OPT_INT, offsetof(joint_params, conf_ratio_copy), "0", 0, 2,
     "confidences only, with conf_copy_shuffle: the self-calibration's doubt ratio (the real "
     "rows' mean doubt over the copy rows') takes its copy side from 1: a second copy made "
     "without the shuffle (one more inference of the copy), 2: the shuffled copy's rows whose "
     "truth parent the deal left alone; the map still from the shuffled copy; metadata "
     "conf_ratio_copy= (joint_cfratio.c; docs/joint/confidence_late.md \"The doubt ratio "
     "beside a shuffled copy (h221)\"); 0: the shuffled copy's rows"},
    {"conf_ratio_share", PB_OPT_DOUBLE, offsetof(joint_params, conf_ratio_share), "1", 0.05, 1,
     "speed, confidences only: conf_ratio_copy=1's plain copy made of a window this share of "
     "the shuffled copy's (conf_sim_share and the copy's floor of pairs scaled by it); "
     "default 1: the same window"},
    {"swap_level_memo", PB_OPT_INT, offsetof(joint_params, swap_level_memo), "1", 0, 2,
     "speed only: without call ids, within one pass of exchanges of returns (step 5) and "
     "the pair shares' scoring, the re-split of two requests at a level of an exchange is "
     "kept by the two requests, whether their returns are exchanged and which of their "
     "calls' are, where another exchange can ask for it (joint_xm.c; a deep request's "
     "levels scored once instead of up to 4 times); 1 taken under the same floor only "
     "(every output line the same), 2 under any floor that cannot change the choice "
     "(the same choices; the branch and bound's counters may differ), 0 off"},
    {"order_jitter", PB_OPT_DOUBLE, offsetof(joint_params, order_jitter), "0", 0, 1000,
     "changes results where order_cross applies: in its step's scoring two consecutive "
     "answers of a link sent closer than this many times the link's fitted stamp jitter (the "
     "larger median absolute deviation of its call and its return delays, learned from the "
     "solution) are a near-tie, charged neither as an overtake nor as kept; metadata jitter= "
     "near_ties= on order_cross= (joint_ordjit.c; docs/joint/loss_late.md \"Near-ties in the "
     "order of answers (h230)\"); 0: off"},
    {"sv_lazy", PB_OPT_INT, offsetof(joint_params, sv_lazy), "3", 0, 3,
     "speed, changes results where a bet fails, without call ids and pair_order=auto: the free "
     "search pauses after its main solve's first solve and refit, the held search runs, and the "
     "held solution is kept without the free search's swap rounds when it leads the paused free "
     "one by more than 10 nats plus sv_lazy_k times the larger of the held search's gain over "
     "its swap rounds and the free search's over its first main solve (else the free search "
     "resumes where it paused and the choice is made as before); 3: also the "
     "other way round, the held search paused at the same point and left so where the free one "
     "leads it by more than 10 nats plus sv_lazy_k times the free search's gain over its swap "
     "rounds (resumed where the busy test would keep it); 1: the first way only; 2: both pause "
     "and always resume (a check: the same output); 3 (the default since the 28th wave): both "
     "ways; 0: off; metadata sv_lazy= (joint_sv.c; "
     "docs/joint/speed_late.md \"Fewer solves: a search paused (h229)\")"},
    {"sv_lazy_k", PB_OPT_DOUBLE, offsetof(joint_params, sv_lazy_k), "2", 0, 1000,
     "sv_lazy: the factor on the gain (what a search's swap rounds may still bring, learned "
     "from the trace) that a lead must exceed, plus 10 nats, for the search behind to stay "
     "paused; default 2"},
    {"conf_ratio_min", PB_OPT_INT, offsetof(joint_params, conf_ratio_min), "0", 0, 2,
     "confidences only, with conf_copy_shuffle=1 and conf_ratio_copy=1: 1 a row's confidence "
     "is the lower of the shuffled copy's map and the plain copy's map (each errs where the "
     "other does not), 2 the doubt ratio is the larger of the plain and the shuffled copy's; "
     "metadata conf_ratio_min= (joint_cfmin.c; docs/joint/confidence_late.md); default 0: off"},
    {"unp_predict", PB_OPT_BOOL, offsetof(joint_params, unp_predict), "0", PB_OPT_NORANGE,
     "measurement, metadata only (costs one search more under loss without call ids): with "
     "unpaired=1, the first search's free and held solutions re-scored with the forced "
     "messages' pairs changed in place, beside the second search's choice; metadata "
     "unp_predict= (joint_unplp.c; docs/joint/loss_late.md \"A predictor of the second "
     "search's free / held choice (h231)\"); default 0"},
    {"unp_pcheck", PB_OPT_BOOL, offsetof(joint_params, unp_pcheck), "0", PB_OPT_NORANGE,
     "unpaired=1 without call ids: 1 the second search (with the forced messages) runs no "
     "parallel_check_bb of its own and takes the first search's verdict (parallel=1 where the "
     "first kept a search without learned parallel calls, else its calls learned and kept); "
     "metadata unp_pcheck= (joint_unpinh.c; docs/joint/loss_late.md \"The loss rule's cost: "
     "where a lossy input pays (h241)\"); default 0"},
    {"conf_copy_stage", PB_OPT_INT, offsetof(joint_params, conf_copy_stage), "0", 0, 3,
     "speed, confidences only: 1 the self-calibration's copy is first made of "
     "conf_copy_stage_share of the pairs the default copy holds; its confidences are kept "
     "where no real row's reliability bin (edges 0.5, 0.8, 0.9, 0.95, 0.99, 0.999) could move "
     "with the full copy (each map block's value moved by conf_copy_stage_z standard errors), "
     "else the default copy runs (the default's confidences); 2 a check: the stage, then "
     "always the default; 3 a measurement, metadata only: the default copy's rows whose bin a "
     "move of their map block by conf_copy_stage_z of its own standard errors changes; "
     "metadata conf_copy_stage= (joint_scopy.c; docs/joint/speed_w29.md "
     "\"The calibration copy made small first (h238)\"); default 0: off"},
    {"conf_copy_stage_share", PB_OPT_DOUBLE, offsetof(joint_params, conf_copy_stage_share),
     "0.25", 0.01, 1,
     "conf_copy_stage: the stage copy's pairs as a share of the default copy's; default 0.25"},
    {"conf_copy_stage_z", PB_OPT_DOUBLE, offsetof(joint_params, conf_copy_stage_z), "2", 0, 10,
     "conf_copy_stage: standard errors a map block's value may move with the full copy; "
     "default 2"},
    {"conf_copy_stage_tol", PB_OPT_DOUBLE, offsetof(joint_params, conf_copy_stage_tol), "0", 0,
     1, "conf_copy_stage: the share of real rows whose bin may stay unsettled; default 0"},
    {"conf_copy_share", PB_OPT_DOUBLE, offsetof(joint_params, conf_copy_share), "0", 0, 1,
     "speed, confidences only: the share of the pairs the self-calibration's copy of the "
     "result holds, its floor (conf_copy_pairs, or conf_sim_pairs) scaled by "
     "conf_copy_share / conf_sim_share (0.125: half the default copy); it only lowers the "
     "window; the busy test's and late_trust's copies as before; 0: "
     "conf_sim_share (joint_scopy.c; docs/joint/speed_w29.md \"The calibration copy made "
     "small first (h238)\"); default 0"},
    {"conf_alike", PB_OPT_INT, offsetof(joint_params, conf_alike), "0", 0, 2,
     "confidences only: a call whose own delay and count fit another candidate request about "
     "as well as its own (within conf_alike_tie nats), or whose best other request holds such "
     "a call of its link, is stated at most the share of such calls the self-calibration's "
     "copy got right (1), or at most the map of those copy rows from stated share to share "
     "right (2); metadata conf_alike= (joint_cfalike.c; docs/joint/confidence_late.md); "
     "default 0: off"},
    {"conf_alike_tie", PB_OPT_DOUBLE, offsetof(joint_params, conf_alike_tie), "1", 0, 100,
     "conf_alike: the nats within which another candidate fits a call as well as its own "
     "request; default 1"},
    {"tcache_delay", PB_OPT_BOOL, offsetof(joint_params, tcache_delay), "1", PB_OPT_NORANGE,
     "speed only, the same results: with greedy_tcache, a kept candidate slot also keeps the "
     "log of the call's delay from the trigger and its bin, so that a greedy round after a "
     "refit reads the density without a logarithm (joint_tcache.c; docs/joint/speed_w29.md "
     "\"The greedy's kept slots (h240)\"); default 1"},
    {"cand_fast", PB_OPT_BOOL, offsetof(joint_params, cand_fast), "1", PB_OPT_NORANGE,
     "speed only, the same candidates: with cand_sweep and cand_ends, a call with more "
     "enclosing requests than the cap takes the latest-started and earliest-ending ones "
     "directly (a walk of the max-tree from the right, a Fenwick tree by end) instead of "
     "listing every one and cutting (linear in the open requests per call: quadratic where "
     "all stay open) (joint_cfast.c; docs/joint/scale.md \"The overlap input's growth: the "
     "candidate lists (h240)\"); default 1"},
    {"thread_soft_moves", PB_OPT_DOUBLE, offsetof(joint_params, thread_soft_moves), "0", 0, 1e6,
     "thread_soft_pick=7: the term's solution, kept by the thread test alone, is kept only "
     "when the calls whose parent differs from the other solution's are at most this many "
     "times the thread misses it mends (joint_thrmove.c; docs/joint/shapes_late.md \"The "
     "term's moves against the misses it mends (h245)\"); 0 (default): learned, twice the "
     "mean number of calls in a visit the term weighs (its own and all below it)"},
    {"unp_alt", PB_OPT_INT, offsetof(joint_params, unp_alt), "0", 0, 3,
     "unpaired=1 without call ids: the first search's other free / held solution is kept and "
     "offered piece by piece (held-out likelihood, as unp_pieces) before the second search, "
     "which then runs on its window of candidate requests whatever its size instead of the "
     "whole trace; 2: besides, a changed message's window is its link's median pair either "
     "side of it; 3: 2 only where the default's window is over unp_win_max and 2's holds at most unp_alt_max; metadata unp_alt= (joint_unpalt.c; docs/joint/loss_late.md \"The loss "
     "rule's cost: the other choice's pieces (h249)\"); default 0: off"},
    {"unp_alt_max", PB_OPT_DOUBLE, offsetof(joint_params, unp_alt_max), "0.3333", 0, 1,
     "unp_alt=3: the cut runs only where its window holds at most this share of the messages "
     "(joint_unpalt.c); default 0.3333"},
    {"conf_copy_warm", PB_OPT_INT, offsetof(joint_params, conf_copy_warm), "0", 0, 2,
     "the self-calibration's copies searched from their own truth: 1 the copy's search set up "
     "on the pairs and parents it was made with (the solution), then run as always; 2 the same "
     "with no re-pairing and no swap rounds (the local moves only); confidences only, never an "
     "assignment (joint_scwarm.c; docs/joint/speed_w29.md \"The copy searched from its own "
     "truth (h247)\"); default 0: off"},
    {"lt_trust_alone", PB_OPT_BOOL, offsetof(joint_params, lt_trust_alone), "1",
     PB_OPT_NORANGE,
     "speed only, the same results: where late_trust runs and the result's confidences are "
     "computed again whatever it decides (the copy cut to the trace's tick, conf_copy_shuffle, "
     "conf_thin_own), its pass runs the self-calibration's copies and their per-link counts "
     "only, not the real rows' shares and maps; it falls back to the whole pass where a link "
     "whose trust it reads might hold only rows right by construction (joint_latetrust.c; "
     "docs/joint/speed_w29.md \"The calibration copy's consumers (h247)\"); default 1"},
    {"conf_series", PB_OPT_INT, offsetof(joint_params, conf_series), "0", 0, 2,
     "confidences only: a call's share of its candidates also counts the moves of a whole "
     "series of calls of its link each shifted by one request (its request takes a call of "
     "the link from a request that may hold it, and so on; the request it moves to gives one "
     "on), so that a series put one request off is doubted (joint_cfseries.c; "
     "docs/joint/confidence_late.md \"A series of calls shifted by one request (h248)\"); "
     "default 0: off"},
    {"conf_series_len", PB_OPT_INT, offsetof(joint_params, conf_series_len), "6", 1, 64,
     "conf_series: the calls a series takes on each side of the call; default 6"},
    {"conf_series_min", PB_OPT_DOUBLE, offsetof(joint_params, conf_series_min), "0.9", 0, 1,
     "conf_series: only calls whose share without series is this or more are tried (speed: a "
     "series only lowers a share); default 0.9"},
    {"conf_series_walks", PB_OPT_INT, offsetof(joint_params, conf_series_walks), "100", 0,
     1000000, "conf_series: the request walks one call's series may take, its candidates "
     "tried best plain move first (speed: a series stops growing there); 0: no cap; default "
     "100"},
    {"conf_series_cycle", PB_OPT_BOOL, offsetof(joint_params, conf_series_cycle), "0",
     PB_OPT_NORANGE, "conf_series: a series may also close on itself (the request the call "
     "moves to gives the last request a call: a rotation of three requests or more; two is "
     "the exchange, counted already); default 0"},
    {"conf_copy_se", PB_OPT_INT, offsetof(joint_params, conf_copy_se), "0", 0, 2,
     "confidences only: every row is also stated at most the self-calibration map taken at "
     "the Wilson lower bound (conf_copy_se_z standard errors) of each block's share right, "
     "the copy's rows of one request counted as one sample, so that the copy's own draw "
     "(conf_seed) cannot state a block higher than it shows (joint_cfse.c; "
     "docs/joint/confidence_late.md \"The copy's own noise: a lower bound per block "
     "(h248)\"); 2: every copy row its own sample; default 0: off"},
    {"conf_copy_se_z", PB_OPT_DOUBLE, offsetof(joint_params, conf_copy_se_z), "1", 0, 10,
     "conf_copy_se: the standard errors below each block's share right; default 1"},
    {"busy_links", PB_OPT_INT, offsetof(joint_params, busy_links), "0", 0, 2,
     "busy test: 1: a service found serialising keeps the verdict only when each of its "
     "outgoing links with at least 20 calls lands busy less often than the copies predict "
     "(a deficit on one link alone is that callee's misfit: a heavy-tailed callee, not a "
     "service that keeps its requests in order); 2 (a measurement, not a rule): only when "
     "the landings fall short of copies of the held solution too (joint_busyheld.c; "
     "docs/joint/shapes_late.md \"The busy test at a many-worker service with heavy-tailed "
     "delays (h254)\"); default 0: off"},
    {"conf_copy_warm_min", PB_OPT_DOUBLE, offsetof(joint_params, conf_copy_warm_min), "0", 0, 1,
     "conf_copy_warm: only the copy's rows whose real row was stated this share or more "
     "(before calibration) start at their true parent; the rest, and every pair, start as "
     "the copy's own search puts them, so that the copy still makes the real search's "
     "errors there (joint_scwarm.c; docs/joint/confidence_late.md \"The copy warm only where "
     "the search was sure (h258)\"); default 0: every row and pair given"},
    {"conf_copy_warm_free", PB_OPT_BOOL, offsetof(joint_params, conf_copy_warm_free), "0",
     PB_OPT_NORANGE, "conf_copy_warm: only the copy's rows whose real pair was paired freely "
     "(a half without a call id) are given their parent, and no pair is given; where no pair was, the copy searches "
     "as at conf_copy_warm=0 (with call ids its search has no re-pairing or swap rounds to "
     "save) (joint_scwarm.c); default 0: every row"},
    {"unp_copy", PB_OPT_INT, offsetof(joint_params, unp_copy), "0", 0, 3,
     "confidences only: in a copy of the trace (the self-calibration's, reunp's check), the "
     "loss rule's second search runs 1: on its window at any size (never the whole copy), "
     "2: on unp_alt=2's local window (a changed message's own pair widened by its link's "
     "median pair), 3: not at all (the copy keeps its first search); the real trace's search "
     "is untouched (joint_unpcopy.c; docs/joint/loss_late.md \"The loss rule's cost: the "
     "copies' second search (h259)\"); default 0: as in the real trace"},
    {"rs_confirm", PB_OPT_DOUBLE, offsetof(joint_params, rs_confirm), "0", 0, 1e9,
     "speed, changes results where it fires: a re-split of two requests that kept their "
     "split by a margin (the kept split's value less the best value, estimate or bound of "
     "any other split looked at) is not made again in the same search and kind of solve "
     "while the two requests stay as they were (ls_margin's fingerprint) and the current "
     "split's value under the refitted model, scored alone, has moved since by at most the "
     "margin less this many nats; metadata rs_confirm= resplits_checked= "
     "resplits_left_out= (joint_lsconfirm.c; docs/joint/speed_w29.md \"Fewer re-splits "
     "(h256)\"); default 0: off"},
    {"rs_confirm_fp", PB_OPT_INT, offsetof(joint_params, rs_confirm_fp), "1", 0, 1,
     "rs_confirm: what must stay the same since the split was confirmed: 1 every call of "
     "the two requests (ls_margin's fingerprint); 0 the shared calls, the two requests' own "
     "calls and open ends only (a call moved in or out of either request elsewhere is read "
     "off the current split's value, as the model's change is); default 1"},
    {"conf_twin", PB_OPT_INT, offsetof(joint_params, conf_twin), "2", 0, 2,
     "confidences only, without call ids: where the call whose return triggered a request's "
     "answer could be a twin request's (another request of the same link with a movable "
     "answer is one of its candidates), the two answers can cross with it, so every row the "
     "answer triggered in the caller's request (and the rows below and after it) is stated "
     "at most a cap: 1: that call's confidence; 2: the request's confidence times the least "
     "pair share (return exchange) on the way to its answer (joint_cftwin.c; "
     "docs/joint/confidence_late.md \"Twin requests crossed at their answers (h260)\"); "
     "0: off; default 2"},
    {"fifo_lifo", PB_OPT_BOOL, offsetof(joint_params, fifo_lifo), "1", PB_OPT_NORANGE,
     "without call ids: a link the fifo test finds served by one worker in arrival order "
     "keeps its first-in, first-out pairs unless, in 9 or more of 10 blocks of its calls by "
     "arrival, pairing each answer with the latest call still open gives tighter durations "
     "((q75 - q25) / q50) than the one-worker service times (a pool whose short answers "
     "overtake a long one; a sign test at 0.011; joint_fifolifo.c; docs/joint/shapes_late.md "
     "\"A pool with heavy-tailed service times is not one worker (h261)\"); default 1"},
    {"unp_repair", PB_OPT_INT, offsetof(joint_params, unp_repair), "-1", -1, 100,
     "speed, changes results, without call ids under loss: the loss rule's whole second "
     "search (the search again with the messages unpaired's choice leaves unpaired, where "
     "its window holds over unp_win_max of the messages; also in the self-calibration's "
     "copies) runs this many re-pairing rounds; "
     "metadata unp_rounds (joint_unprounds.c; docs/joint/loss_late.md \"... inside the "
     "second search only (h268)\"); -1 (default): repair's"},
    {"unp_swaps", PB_OPT_INT, offsetof(joint_params, unp_swaps), "-1", -1, 100,
     "speed, changes results, without call ids under loss: the loss rule's whole second "
     "search runs this many swap rounds (joint_unprounds.c); -1 (default): swap_rounds'"},
    {"unp_warm", PB_OPT_INT, offsetof(joint_params, unp_warm), "0", 0, 1,
     "speed, changes results, without call ids under loss: the loss rule's whole second "
     "search is one search of the kind the first search kept (free or held), started from "
     "the first search's pairs (on the changed links the messages that stay paired, first "
     "in, first out) and parents; metadata unp_win=whole ... search=warm "
     "(joint_unpwarm.c); default 0: off (the free and the held search from scratch)"},
    {"conf_copy_warm_pairs", PB_OPT_INT, offsetof(joint_params, conf_copy_warm_pairs), "0", 0, 2,
     "conf_copy_warm with conf_copy_warm_min or conf_copy_warm_free: the copy's "
     "rows given their true parent are given their true pair too (2: their pair alone, no "
     "parent), and only the copy's other "
     "calls and returns are paired as the real search pairs (first come, or the in-order "
     "alignment), so the copy still makes the pairing errors where the real search was unsure "
     "(joint_scwarm.c; docs/joint/confidence_late.md \"The copy paired only where the search "
     "was sure (h267)\"); default 0: no pair given"},
    {"conf_copy_margin", PB_OPT_DOUBLE, offsetof(joint_params, conf_copy_margin), "0", 0, 0.45,
     "confidences only: where the result's calibration copy is a window of the trace, this "
     "share of its pairs (whole requests) next to each cut the window makes (not the trace's "
     "own ends) is searched but not counted in the calibration (their requests have "
     "neighbours on one side only: the copy is right more often there than in the trace) "
     "(joint_scedge.c; docs/joint/confidence_late.md \"The copy's window: how its error "
     "rates converge, and its cut edges (h267)\"); default 0: every row counted"},
    {"busy_arr", PB_OPT_INT, offsetof(joint_params, busy_arr), "2", 0, 2,
     "without call ids, busy test: a service found serialising keeps the verdict only when "
     "its calls, at the trace's own arrival stamps with durations drawn from each copy's "
     "own on the link, also land busy less often than in that copy (z below -3.29): the "
     "deficit left is the caller's spacing, not a solution whose durations a short/long "
     "mix smeared (joint_busyarr.c; docs/joint/shapes_late.md \"The busy test fooled by a "
     "solution's smeared durations (h270)\"); 1: every such service; 2: only a service "
     "the held search rewrites most of (changed pairs more than half its calls tested; "
     "\"Which verdicts busy_arr asks about (h280)\"); default 2; 0: off"},
    {"conf_copy_events", PB_OPT_INT, offsetof(joint_params, conf_copy_events), "2", 0, 2,
     "confidences only: every row also stated at most the self-calibration map whose blocks "
     "count the copy's rows in units of m rows that move together (a copy's errors come in "
     "whole chains, so one draw holds a few or none): a block of w rows, k right, valued "
     "(k + m) / (w + 2 m) (joint_cfev.c; docs/joint/confidence_late.md \"Copy errors "
     "counted by the request (h269)\"); 2: m per link, the link's copy rows per request "
     "holding one (the all-links map: rows per link and request); 1: one m, the copy's "
     "wrong rows per request holding one; 0: off; default 2"},
    {"conf_copy_events_z", PB_OPT_DOUBLE, offsetof(joint_params, conf_copy_events_z), "0", 0, 10,
     "conf_copy_events: each block valued at the Wilson lower bound, this many standard "
     "errors below, of its share in units of m (0: the share itself); default 0"},
    {"conf_empty_twin", PB_OPT_BOOL, offsetof(joint_params, conf_empty_twin), "0", PB_OPT_NORANGE,
     "confidences only: where a request of a link whose requests nearly all make calls "
     "(at most conf_empty_twin_rate of them none) holds no call, and it is a candidate of "
     "calls another request of its link holds two or more of, those calls (and the rows "
     "below them) are stated at most conf_empty_twin_cap: the search may have given one "
     "request two requests' calls and the other none, and which calls are whose no share "
     "prices (joint_cfempty.c; docs/joint/confidence_late.md \"Copy errors counted by the "
     "request (h269)\"); default 0"},
    {"conf_empty_twin_rate", PB_OPT_DOUBLE, offsetof(joint_params, conf_empty_twin_rate), "0.05",
     0, 1, "conf_empty_twin: a link's requests without a call, as a share, up to which one "
     "is out of place; default 0.05"},
    {"conf_empty_twin_cap", PB_OPT_DOUBLE, offsetof(joint_params, conf_empty_twin_cap), "0.5",
     0, 1, "conf_empty_twin: the cap on the calls it finds; default 0.5"},
    {"sv_early", PB_OPT_INT, offsetof(joint_params, sv_early), "1", 0, 2,
     "speed, changes results where a bet fails; without call ids, with sv_lazy: where "
     "parallel_check_bb's early run (the held search with parallel=1) is due when the free "
     "search pauses, it is made then; it is kept without the free search's swap rounds when "
     "it takes (none of the parallel calls the paused free search learned shows on it) and "
     "leads the paused free search by 10 nats plus sv_lazy_k times the larger of its own gain "
     "over its swap rounds and the free search's over its first main solve (plain and with "
     "the thread term muted); else the free search resumes and the choice is made as before "
     "with that run; 2: the same run, always resumed (a check: the same rows as 0); metadata "
     "sv_lazy=early_run_kept_early|free_resumed_early_run (joint_svearly.c; "
     "docs/joint/speed_w29.md \"Which solves decide the output (h266)\"); 0: off (the free "
     "search resumes at once); default 1"},
    {"thread_soft_heldout", PB_OPT_INT, offsetof(joint_params, thread_soft_heldout), "0", 0, 1,
     "changes results where thread_soft weighs a service, without call ids, with "
     "thread_soft_pick=6 or 7: the rate test's delays' evidence against the term's solution "
     "is cross-fitted (the top-level requests in two halves, each half's pairs scored under "
     "the model fitted to the other half of the same solution, the term muted) instead of in "
     "sample, where the solution without the term is the search's own maximiser of it "
     "(metadata thread_soft_heldout=, thread_soft_heldout_link=; joint_thrheld.c; "
     "docs/joint/shapes_late.md \"The rate test's delays scored held out (h274)\"); "
     "default 0: in sample"},
    {"thread_soft_mendfirst", PB_OPT_INT, offsetof(joint_params, thread_soft_mendfirst), "1", 0, 1,
     "changes results where thread_soft weighs a service, without call ids, with "
     "thread_soft_pick=7: where the rate test drops the term's solution but the thread's "
     "evidence alone (G) is over 10 nats, the term's solution is kept when the calls it moves "
     "are at most thread_soft_moves' ratio times the misses it mends (the moves check decides "
     "both ways; metadata thread_soft_moves=; joint_thrmove.c, joint_thrheld.c; "
     "docs/joint/shapes_late.md \"The rate test's delays scored held out (h274)\"); "
     "default 1; 0: the rate test's answer stands"},
    {"unp_where", PB_OPT_INT, offsetof(joint_params, unp_where), "0", 0, 2,
     "with unpaired=1 unp_pieces=1 where the whole second search runs: 1 (metadata only) "
     "where its changes and its taken pieces lie against the window by candidate requests "
     "(metadata unp_where; joint_unpwhere.c; docs/joint/loss_late.md \"The loss rule's "
     "cost: where the whole second search's changes lie (h278)\"); 2 (changes results, a "
     "measurement) the same and its taken pieces outside the window left untaken; 0: off"},
    {"rs_census", PB_OPT_INT, offsetof(joint_params, rs_census), "0", 0, 1,
     "a measurement, the same choices: where rs_memo's hashes cover what a re-split reads, "
     "every re-split of the search counted by what changed since the same pair's last "
     "re-split that kept its split (nothing: inputs and model the same, which rs_memo would "
     "leave out; only the model; the inputs too) and whether it moved a call, rs_memo's "
     "repeats re-split anyway (a check of its exactness: their moves must be 0; metadata "
     "rs_census=; joint_rsmemo.c; docs/joint/speed_w29.md \"Which re-splits repeat (h275)\"); "
     "default 0: off"},
    {"conf_copy_events_second", PB_OPT_DOUBLE, offsetof(joint_params, conf_copy_events_second),
     "0", 0, 1,
     "confidences only, with conf_copy_events and one calibration copy: where the events "
     "map alone takes at least this share of the result's rows below 0.9, 0.95 or 0.99 (a "
     "link whose copy rows were all right is doubted as a sample of its requests: one draw "
     "cannot tell a lucky link from one right by its structure), the rows are put back, a "
     "second copy is drawn (seed conf_seed + 1) and pooled with the first, and the maps "
     "fitted again (metadata conf_copy_events_second=, rows_at_stake=, second_copy=; "
     "joint_cfev2.c; docs/joint/confidence_late.md \"A second copy where one draw cannot "
     "tell luck from structure (h279)\"); default 0: off"},
    {"par_tie", PB_OPT_INT, offsetof(joint_params, par_tie), "0", 0, 1,
     "changes results at coarse whole-tick stamps (many ties): in the learned parallel-call "
     "counts, a pair of calls whose first call's return falls in the tick the second call is "
     "sent in counts as neither an overlap nor a separate pair (at 1 ms a return and the next "
     "send in one tick are otherwise counted as separate; metadata par_tie_pairs=; "
     "joint_partie.c; docs/joint/model.md \"Ties in one tick in the parallel-call counts "
     "(h283)\"); default 0: counted as separate"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};
