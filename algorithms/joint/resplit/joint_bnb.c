/*
 * joint_bnb.c - joint: the exhaustive re-split of two small requests by
 * branch and bound (speed only: the very split scoring every split would
 * choose; docs/joint/speed.md, "Speed, eighth wave").
 *
 * The splits of the m shared calls are visited as the leaves of a binary
 * tree that decides the calls in call order (bit 0 first).  Before a leaf
 * is scored, the subtrees around it (the calls up to depth d decided as in
 * the leaf, the later ones free) get an upper bound of every split in
 * them; a subtree whose bound is below the best value scored so far (the
 * current split's, first, with its tie bonus) holds no split that could
 * be chosen and is left out whole.  The bound of a side (one request):
 *
 *  - the steps its list shares with the walk scored last (the reference,
 *    its record) before the first shared call the two place differently,
 *    as long as no return of a call that may differ was received by then:
 *    their exact partial sum (the record's, the very same terms);
 *  - every later step: the largest term its output can have over every
 *    trigger its list could give it (the arrival, a return of any of the
 *    request's possible calls) and every delay at least the least delay
 *    possible (the output time minus the latest trigger time possible):
 *    per density key the largest of logf over the bins from the delay's
 *    up, the Jacobian taken at the bin's lower edge (or the delay itself),
 *    and the background; a shared call not decided yet takes the larger
 *    of the two requests' bounds;
 *  - the response: likewise, with any return as the trigger;
 *  - the call counts: per outgoing link the largest log-probability over
 *    the counts the free calls still allow (where the set of calls is
 *    scored as one signature, joint_oset.c: its largest value over every
 *    signature, seen or not);
 *  - the durations term: the record's partial sum over the common calls,
 *    then per whole call its largest term with any call that can be the
 *    whole call before it (or 0 when none need be);
 *  - the order of first calls: 0 (its terms are log rho, log (1 - rho)).
 *
 * Not used (every split scored as before) below JOINT_BNB_MIN shared
 * calls, or when the fixed or shared calls are out of call order.  The scored splits' walks resume from the reference's
 * (joint_req_walk_resume: the very same numbers as a fresh walk).
 *
 * A new term of the likelihood (joint_model.c) needs its upper bound
 * here (a step's: step_bound; one after the steps: first_cut, beside the
 * counts), or the bound is no longer admissible and the choice changes.
 */
#include "joint_int.h"
#include "joint_rs.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE
/* fewer shared calls: every split scored as before (the bounds' set-up
 * costs about what the few walks it could save cost: instructions on the
 * multi-tier shape at 4x load) */
#define JOINT_BNB_MIN 3
/* bnb_step_keys: a side of fewer possible calls scans them for each step
 * as before (the same bounds; the sorting and the keys' table cost about
 * what they save there) */
#define JOINT_BNB_KEYS_MIN 10
/* the count table's row width (rs_count_table) */
#define JOINT_BNB_CW (JOINT_RESPLIT_MAX + 1)
_Static_assert(JOINT_RESPLIT_MAX <= 8, "joint_bnb.c counts mask bits by an 8-bit table");

/* the per-key bound cache and the re-split's scratch */
struct joint_bnb {
    /* sm[k * nb + b]: the largest logf_of of key k over delays in bins b..
     * (each bin's Jacobian at its lower edge); gen[k]: the fit it is of */
    double *sm;
    uint32_t *gen, kcap;
    /* bnb_row_keep: the logf row each sm row was made from (lfc[k * nb ..])
     * and the edges' epoch it was made with (lfep[k]; 0: none kept) */
    double *lfc;
    uint32_t *lfep, leep;
    /* the bound of each call per side, indexed by pair (only the calls of
     * the two requests are written) */
    double *ubp[2];
    uint32_t npcap;
    /* per shared call: its bound on each side, its local link per side */
    double ubs[2][JOINT_RESPLIT_MAX];
    uint32_t lk[2][JOINT_RESPLIT_MAX];
    /* per side: fixed calls before set[a] (fb[a]), the bound of the fixed
     * calls from there (fsuf[a]) */
    uint32_t fb[2][JOINT_RESPLIT_MAX + 1];
    double fsuf[2][JOINT_RESPLIT_MAX + 1];
    double resp[2], cconst[2];
    int corr[2];            /* the durations term is scored on the side */
    /* per side: the call counts of the fixed calls per local link, and the
     * links the shared calls touch */
    uint32_t *cntf[2], cntcap;
    uint32_t tl[2][JOINT_RESPLIT_MAX], ntl[2];
    uint32_t tx[2][JOINT_RESPLIT_MAX]; /* shared call t's link is tl[side][tx[side][t]] */
    /* records: the reference and the walk being scored */
    joint_wrec w[2][2];
    uint32_t *lst[2], lcap;
    uint32_t *lwh; /* rs_prep_whole: the latest whole fixed call of each prefix */
    uint32_t *trig, tcap;
    /* bnb_step_keys: per side being prepared, the possible calls' return
     * times sorted (rt[0..nrt)), and per distinct output link seen
     * (ool[0..nool)) the keys of every trigger (okey[o * nt + j]) */
    pb_ns *rt;
    uint32_t nrt, *ool, nool, *okey, okcap;
    /* bnb_count_masks: per side and touched link x, the shared calls on it
     * (bit t: lk[side][t] == tl[side][x]) */
    uint32_t lmask[2][JOINT_RESPLIT_MAX];
    const double *lrow[2][JOINT_RESPLIT_MAX]; /* and its row of count log-probabilities */
    /* rs_count_table (speed only): count_max of every count range the
     * re-split can ask of side's touched link x, made once per re-split
     * by count_max's own loop: cmt[side][x][(lo - c0) * JOINT_BNB_CW + hi - c0]
     * for c0 = the fixed calls' count <= lo <= hi <= c0 + the shared calls
     * on it */
    double cmt[2][JOINT_RESPLIT_MAX][(JOINT_RESPLIT_MAX + 1) * (JOINT_RESPLIT_MAX + 1)];
    uint32_t cm0[2][JOINT_RESPLIT_MAX];
    /* bnb_step_keys: ln_edge of every bin, for lenb bins of width lebin
     * above ledmin */
    double *ledge, ledmin, lebin;
    uint32_t lenb;
    /* bnb_cut_pre (speed only): the least return of set[a..m) per a (INT64_MAX:
     * none), made once per re-split */
    pb_ns rlo[JOINT_RESPLIT_MAX + 1];
    /* bnb_env (joint_bnbenv.c): the key lists' envelopes; per output row o
     * of okey its list's (oenv[o], valid while its stamp is oenvep[o]) */
    struct joint_benvtab *env;
    joint_benv **oenv;
    uint32_t *oenvep, oecap;
};

double joint_bnb_test_bias = 0;
int joint_bnb_test_rowkeep = 0;
int joint_bnb_test_keys = 0, joint_bnb_test_masks = 0;
int joint_bnb_test_noenv = 0;     /* tests: 1 every step bound by its keys' loop (no bnb_env) */
size_t joint_bnb_test_envhits = 0; /* tests: step bounds read from an envelope */
int joint_bnb_test_envcheck = 0;   /* tests: 1 the keys' loop made as well, compared */
size_t joint_bnb_test_envbad = 0;  /* tests: envelope bounds not the loop's bits */
int joint_bnb_test_envwrong = 0;   /* tests: 1 the bin below left out of T (wrong) */

void joint_bnb_free(joint *s)
{
    struct joint_bnb *B = s->bnb;
    if (!B)
        return;
    free(B->sm);
    free(B->gen);
    free(B->lfc);
    free(B->lfep);
    free(B->ubp[0]);
    free(B->ubp[1]);
    free(B->cntf[0]);
    free(B->cntf[1]);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            joint_wrec_free(&B->w[i][j]);
    free(B->lst[0]);
    free(B->lst[1]);
    free(B->trig);
    free(B->lwh);
    free(B->rt);
    free(B->ool);
    free(B->okey);
    free(B->ledge);
    joint_benv_free(B->env);
    free(B->oenv);
    free(B->oenvep);
    free(B);
    s->bnb = NULL;
}

/* ln of bin b's lower edge (bin 0: the least delay), a little low */
static double ln_edge(const joint *s, uint32_t b)
{
    double v = b == 0 ? log(s->dmin) : M_LN10 * (1.0 + (double)b * s->p.bin);
    return v - 1e-9 * (1.0 + fabs(v));
}

/* key k's row of the cache, computed for this fit if it is not */
static inline __attribute__((always_inline)) const double *key_row(joint *s,
                                                                    struct joint_bnb *B,
                                                                    uint32_t k)
{
    const uint32_t nb = s->nb;
    if (B->gen[k] != s->fit_gen + 1) {
        double *row = B->sm + (size_t)k * nb;
        const double *lf = joint_lf_dense(s, k);
        /* bnb_step_keys: the edges computed once for these bins (the same
         * numbers: they read only dmin, the bin width and b) */
        const double *le = NULL;
        if (s->p.bnb_step_keys) {
            if (B->lenb != nb || B->ledmin != s->dmin || B->lebin != s->p.bin) {
                double *a = realloc(B->ledge, (size_t)nb * sizeof *a);
                if (a) {
                    B->ledge = a;
                    for (uint32_t b = 0; b < nb; b++)
                        a[b] = ln_edge(s, b);
                    B->lenb = nb;
                    B->ledmin = s->dmin;
                    B->lebin = s->p.bin;
                    B->leep++; /* bnb_row_keep: rows made with older edges are not kept */
                }
            }
            if (B->lenb == nb && B->ledmin == s->dmin && B->lebin == s->p.bin)
                le = B->ledge;
        }
        /* bnb_row_keep (speed only, the same rows): a refit recomputes the
         * densities of the keys whose delays changed; a row made from the
         * very same logf row with the same edges is the same row */
        double *keep = le && B->lfc ? B->lfc + (size_t)k * nb : NULL;
        if (keep && B->lfep[k] == B->leep && B->leep != 0 &&
            memcmp(keep, lf, (size_t)nb * sizeof *lf) == 0 && !joint_bnb_test_rowkeep) {
            B->gen[k] = s->fit_gen + 1;
            s->bnb_rows_kept++;
            return row;
        }
        double mx = -INFINITY;
        for (uint32_t b = nb; b-- > 0;) {
            double v = lf[b] - (le ? le[b] : ln_edge(s, b));
            if (v > mx)
                mx = v;
            row[b] = mx;
        }
        if (keep) {
            memcpy(keep, lf, (size_t)nb * sizeof *lf);
            B->lfep[k] = B->leep;
        }
        B->gen[k] = s->fit_gen + 1;
    }
    return B->sm + (size_t)k * nb;
}

/* the largest logf_of(k, d) over delays d >= dl, given lx = ln of dl
 * clamped to dmin and b0 = dbin(dl) */
static inline double key_max(joint *s, struct joint_bnb *B, uint32_t k, double lx, uint32_t b0)
{
    const double *row = key_row(s, B, k);
    double v = joint_lf_at(s, k, b0) - lx;
    if (b0 > 0 && joint_lf_at(s, k, b0 - 1) - lx > v)
        v = joint_lf_at(s, k, b0 - 1) - lx; /* a bin edge rounded either way */
    if (b0 + 1 < s->nb && row[b0 + 1] > v)
        v = row[b0 + 1];
    return v;
}

/* the bound of request q's step making output outl at time t (outl =
 * nlinks: the response) when the latest trigger time possible is mt (have:
 * there is a trigger: the arrival or a return received by t, any return
 * for the response); keys[0..nt): the density key of each trigger in
 * B->trig[0..nt) */
/* bnb_env: bin b0 of envelope e made from its keys' rows (each key's
 * row made first, as key_max does): 1, or 0 when some log density is NaN
 * (the loop's comparisons then pass over that key: e is not used) */
static int env_fill(joint *s, struct joint_bnb *B, joint_benv *e, uint32_t b0)
{
    double T = -INFINITY, R = -INFINITY;
    for (uint32_t j = 0; j < e->nk; j++) {
        const uint32_t k = e->keys[j];
        const double *row = key_row(s, B, k);
        double a = joint_lf_at(s, k, b0);
        if (isnan(a))
            return e->bad = 1, 0;
        T = a > T ? a : T;
        if (b0 > 0 && !joint_bnb_test_envwrong) {
            a = joint_lf_at(s, k, b0 - 1);
            if (isnan(a))
                return e->bad = 1, 0;
            T = a > T ? a : T;
        }
        if (b0 + 1 < s->nb)
            R = row[b0 + 1] > R ? row[b0 + 1] : R;
    }
    e->T[b0] = T;
    e->R[b0] = R;
    e->st[b0] = e->ep;
    return 1;
}

static double step_bound_at(joint *s, uint32_t q, struct joint_bnb *B, const uint32_t *keys,
                            uint32_t nt, uint32_t outl, pb_ns t, pb_ns mt, int have,
                            joint_benv *env)
{
    const jpair *qq = &s->pr[q];
    double v = -INFINITY;
    if (qq->call == NONE) {
        /* no arrival, no trigger: the key's expected log density */
        uint32_t d0 = joint_key_get(s, qq->link, 0, outl);
        double a = d0 == NONE ? s->bg - log(1e6) : s->kmean[d0];
        v = a > v ? a : v;
        double b = s->bg - log(1e6);
        v = b > v ? b : v;
    }
    if (have) {
        /* the least delay possible, clamped as logf_of clamps it */
        pb_ns dl = t - mt;
        double x = (double)dl < s->dmin ? s->dmin : (double)dl;
        double lx = log(x);
        /* bnb_bin_ln (speed only): the bin from lx without a second
         * logarithm (dbin_ln: the same bin as dbin, always) */
        uint32_t b0 = dbin_ln(s, dl < 0 ? 0 : dl, lx);
        double bg = s->bg - lx; /* the background */
        v = bg > v ? bg : v;
        /* bnb_env: every key's key_max at once (joint_bnbenv.c: the same
         * largest value; the rows made on the envelope's first use in
         * this fit, where the loop would make them) */
        if (env && (env->st[b0] == env->ep || env_fill(s, B, env, b0))) {
            joint_bnb_test_envhits++;
            double w = env->T[b0] - lx, v0 = v;
            v = w > v ? w : v;
            w = env->R[b0];
            v = w > v ? w : v;
            if (joint_bnb_test_envcheck) { /* tests: the loop's value */
                for (uint32_t j = 0; j < nt; j++) {
                    uint32_t k = keys[j];
                    if (k == NONE)
                        continue;
                    double u = key_max(s, B, k, lx, b0);
                    v0 = u > v0 ? u : v0;
                }
                joint_bnb_test_envbad += memcmp(&v, &v0, sizeof v) != 0;
            }
            return v;
        }
        for (uint32_t j = 0; j < nt; j++) {
            uint32_t k = keys ? keys[j] : joint_key_get(s, qq->link, B->trig[j], outl);
            if (k == NONE)
                continue;
            double w = key_max(s, B, k, lx, b0);
            v = w > v ? w : v;
        }
    }
    return v;
}

/* the bound of request q's step making output outl at time t (outl =
 * nlinks: the response) when its possible calls are u[0..nu): every
 * trigger in B->trig[0..nt) */
static double step_bound(joint *s, struct joint_bnb *B, uint32_t q, const uint32_t *u,
                         uint32_t nu, uint32_t nt, uint32_t outl, pb_ns t, int any)
{
    const jpair *qq = &s->pr[q];
    const int noarr = qq->call == NONE;
    /* the latest trigger time possible: the arrival, or a return received
     * by t (any return for the response) */
    int have = !noarr;
    pb_ns mt = noarr ? INT64_MIN : qq->cr;
    for (uint32_t i = 0; i < nu; i++) {
        const jpair *x = &s->pr[u[i]];
        if (x->ret == NONE || (!any && x->rr > t))
            continue;
        if (!have || x->rr > mt)
            mt = x->rr;
        have = 1;
    }
    return step_bound_at(s, q, B, NULL, nt, outl, t, mt, have, NULL);
}

/* bnb_step_keys: step_bound's value from the side's sorted return times
 * (B->rt) and the keys of output outl computed once per side (B->okey):
 * the same latest trigger time (the largest return time <= t, or the
 * last; the arrival when later) and the same keys in the same order, so
 * the same bound */
static double step_bound_fast(joint *s, struct joint_bnb *B, uint32_t q, uint32_t nt,
                              uint32_t outl, pb_ns t, int any)
{
    const jpair *qq = &s->pr[q];
    const int noarr = qq->call == NONE;
    /* returns received by t: rt[0..lo) */
    uint32_t lo = B->nrt;
    if (!any) {
        uint32_t hi = B->nrt;
        lo = 0;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (B->rt[mid] <= t)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    lo -= joint_bnb_test_keys && lo > 0; /* test hook: the latest one left out */
    int have = !noarr || lo > 0;
    pb_ns mt = noarr ? INT64_MIN : qq->cr;
    if (lo > 0 && (noarr || B->rt[lo - 1] > mt))
        mt = B->rt[lo - 1];
    uint32_t o = 0;
    while (o < B->nool && B->ool[o] != outl)
        o++;
    if (o == B->nool) {
        for (uint32_t j = 0; j < nt; j++)
            B->okey[(size_t)o * nt + j] = joint_key_get(s, qq->link, B->trig[j], outl);
        B->ool[B->nool++] = outl;
        if (B->oenv) {
            B->oenv[o] = NULL;
            B->oenvep[o] = 0; /* not looked up yet */
        }
    }
    /* bnb_env: the row's keys' envelope (its keys but NONE, in order),
     * looked up at the row's first step with a trigger */
    joint_benv *e = NULL;
    if (B->oenv && have) {
        if (B->oenvep[o] == 0) {
            B->oenvep[o] = UINT32_MAX; /* none */
            uint32_t kk[JOINT_BENV_KMAX], nk = 0;
            for (uint32_t j = 0; j < nt && nk <= JOINT_BENV_KMAX; j++) {
                const uint32_t k = B->okey[(size_t)o * nt + j];
                if (k != NONE && nk < JOINT_BENV_KMAX)
                    kk[nk] = k;
                nk += k != NONE;
            }
            joint_benv *f = joint_bnb_test_noenv
                                ? NULL
                                : joint_benv_get(&B->env, kk, nk, s->fit_gen + 1, s->nb);
            if (f) {
                B->oenv[o] = f;
                B->oenvep[o] = f->ep;
            }
        }
        e = B->oenv[o];
        if (e && (e->ep != B->oenvep[o] || e->gen != s->fit_gen + 1 || e->bad))
            e = B->oenv[o] = NULL; /* its slot taken by another list since */
    }
    return step_bound_at(s, q, B, B->okey + (size_t)o * nt, nt, outl, t, mt, have, e);
}

static int grow_u32(uint32_t **a, uint32_t n)
{
    uint32_t *p = realloc(*a, (size_t)(n ? n : 1) * sizeof *p);
    if (!p)
        return PB_ENOMEM;
    *a = p;
    return PB_OK;
}

static int by_call(const joint *s, uint32_t a, uint32_t b)
{
    return s->pr[a].cs < s->pr[b].cs || (s->pr[a].cs == s->pr[b].cs && a < b);
}

int joint_bnb_usable(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1,
                     uint32_t n1, const uint32_t *f2, uint32_t n2, const uint32_t *set,
                     uint32_t m)
{
    if (!s->p.bound || m < JOINT_BNB_MIN || m > JOINT_RESPLIT_MAX)
        return 0;
    if (s->la_timer && (s->la_timer[s->pr[q1].callee] || s->la_timer[s->pr[q2].callee]))
        return 0; /* a late call's send as a trigger: not in the bounds (joint_lateattach.c) */

    for (uint32_t t = 1; t < m; t++)
        if (!by_call(s, set[t - 1], set[t]))
            return 0;
    for (uint32_t t = 1; t < n1; t++)
        if (!by_call(s, f1[t - 1], f1[t]))
            return 0;
    for (uint32_t t = 1; t < n2; t++)
        if (!by_call(s, f2[t - 1], f2[t]))
            return 0;
    return 1;
}

/* the largest count term of side's touched link x when its count is lo
 * plus up to fr free calls */
static inline double count_max(const joint *s, const struct joint_bnb *B, int side, uint32_t q,
                               uint32_t x, uint32_t lo, uint32_t fr)
{
    /* bnb_count_masks: the row found once per re-split (prep_side) */
    const double *lp = s->p.bnb_count_masks ? B->lrow[side][x]
                                            : s->cntlp + s->cnt_off[s->pr[q].link] +
                                                  (size_t)B->tl[side][x] * (JOINT_KMAX + 1);
    double mx = -INFINITY;
    for (uint32_t c = lo; c <= lo + fr; c++) {
        double w = lp[c > JOINT_KMAX ? JOINT_KMAX : c];
        mx = w > mx ? w : mx;
    }
    return mx;
}

/* the bounds of one side (q, its fixed calls f[0..nf)) */
static int prep_side(joint *s, struct joint_bnb *B, int side, uint32_t q, const uint32_t *f,
                     uint32_t nf, const uint32_t *set, uint32_t m)
{
    /* the possible calls: fixed and shared */
    uint32_t nu = nf + m;
    uint32_t *u = B->lst[side];
    memcpy(u, f, (size_t)nf * sizeof *u);
    memcpy(u + nf, set, (size_t)m * sizeof *u);
    /* the triggers: the arrival and every link returning */
    uint32_t nt = 0;
    B->trig[nt++] = 0;
    for (uint32_t i = 0; i < nu; i++) {
        if (s->pr[u[i]].ret == NONE)
            continue;
        uint32_t tg = 1 + s->pr[u[i]].link, j = 0;
        while (j < nt && B->trig[j] != tg)
            j++;
        if (j == nt)
            B->trig[nt++] = tg;
    }
    /* below JOINT_BNB_KEYS_MIN possible calls the scans cost no more
     * (instructions on hotel load 100, whose requests' calls each go to
     * another link) */
    const int fast = s->p.bnb_step_keys && nu >= JOINT_BNB_KEYS_MIN;
    if (fast) {
        /* bnb_step_keys: the return times sorted, no output's keys yet */
        size_t need = (size_t)(nu + 1) * nt;
        if (need > B->okcap) {
            uint32_t *a = realloc(B->okey, need * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            B->okey = a;
            B->okcap = need;
        }
        /* bnb_env: an envelope per output row (none when there is no room) */
        if (nu + 1 > B->oecap) {
            joint_benv **oe = realloc(B->oenv, (size_t)(nu + 1) * sizeof *oe);
            if (oe)
                B->oenv = oe;
            uint32_t *op = oe ? realloc(B->oenvep, (size_t)(nu + 1) * sizeof *op) : NULL;
            if (op) {
                B->oenvep = op;
                B->oecap = nu + 1;
            } else {
                free(B->oenv);
                B->oenv = NULL;
                B->oecap = 0;
            }
        }
        B->nrt = 0;
        B->nool = 0;
        for (uint32_t i = 0; i < nu; i++) {
            const jpair *x = &s->pr[u[i]];
            if (x->ret == NONE)
                continue;
            uint32_t j = B->nrt++;
            while (j > 0 && B->rt[j - 1] > x->rr) {
                B->rt[j] = B->rt[j - 1];
                j--;
            }
            B->rt[j] = x->rr;
        }
    }
    double *ub = B->ubp[side];
    for (uint32_t i = 0; i < nu; i++) {
        const jpair *c = &s->pr[u[i]];
        ub[u[i]] = c->call == NONE ? 0 /* no output */
                   : fast          ? step_bound_fast(s, B, q, nt, c->link, c->cs, 0)
                                   : step_bound(s, B, q, u, nu, nt, c->link, c->cs, 0);
    }
    /* the durations term: a whole call's term with the whole call before
     * it, at most the largest over the possible calls before it (or 0) */
    const jpair *qc = &s->pr[q];
    B->corr[side] = s->corr_on && (!s->corr_svc || s->corr_svc[qc->callee]) && s->corr_any;
    if (B->corr[side]) {
        /* rs_prep_whole (speed only): f is in call order (joint_bnb_usable),
         * so the fixed calls before u[i] are f's first ones, i of them for
         * a fixed call, those before the shared call for a shared one
         * (counted by a merge: set is in call order too); lw[p] is the
         * latest whole one of f[0..p), the scan's fl */
        uint32_t *lw = B->lwh;
        lw[0] = NONE;
        for (uint32_t j = 0; j < nf; j++)
            lw[j + 1] = s->pr[f[j]].call != NONE && s->pr[f[j]].ret != NONE ? f[j] : lw[j];
        for (uint32_t i = 0, fp = 0; i < nu; i++) {
            const jpair *c = &s->pr[u[i]];
            if (i >= nf)
                while (fp < nf && by_call(s, f[fp], u[i]))
                    fp++;
            if (c->call == NONE || c->ret == NONE)
                continue; /* no term */
            /* the call before it: the latest whole fixed call before it
             * (always in the list; none: maybe no call before, 0), or a
             * shared call between the two */
            const uint32_t fl = lw[i < nf ? i : fp];
            double mx = fl == NONE ? 0 : joint_corr_term(s, qc->link, fl, u[i]);
            for (uint32_t j = nf; j < nu; j++)
                if (j != i && by_call(s, u[j], u[i]) && (fl == NONE || by_call(s, fl, u[j]))) {
                    double w = joint_corr_term(s, qc->link, u[j], u[i]);
                    mx = w > mx ? w : mx;
                }
            ub[u[i]] += mx;
        }
    }
    if (s->p.thread_soft > 0 && s->thr) /* thread_soft: each call's exact term (joint_thread.c) */
        for (uint32_t i = 0; i < nu; i++)
            ub[u[i]] += joint_thread_kid(s, q, u[i]);
    for (uint32_t t = 0; t < m; t++)
        B->ubs[side][t] = ub[set[t]];
    const jpair *qq = &s->pr[q];
    int open_end = (s->qend && joint_ret_movable(s, q)) || qq->ret == NONE;
    B->resp[side] = open_end ? 0
                    : fast   ? step_bound_fast(s, B, q, nt, s->nlinks, qq->rs, 1)
                             : step_bound(s, B, q, u, nu, nt, s->nlinks, qq->rs, 1);
    /* fixed calls before each shared call, and the bound from there */
    for (uint32_t a = 0, i = 0; a <= m; a++) {
        while (i < nf && (a == m || by_call(s, f[i], set[a])))
            i++;
        B->fb[side][a] = i;
    }
    for (uint32_t a = 0; a <= m; a++) {
        double v = 0;
        for (uint32_t i = B->fb[side][a]; i < nf; i++)
            v += ub[f[i]];
        B->fsuf[side][a] = v;
    }
    /* counts */
    uint32_t b = qq->callee, no = s->out_off[b + 1] - s->out_off[b];
    if (no > B->cntcap) {
        for (int k = 0; k < 2; k++)
            if (grow_u32(&B->cntf[k], no) != PB_OK)
                return PB_ENOMEM;
        B->cntcap = no;
    }
    uint32_t *cf = B->cntf[side];
    memset(cf, 0, (size_t)no * sizeof *cf);
    for (uint32_t i = 0; i < nf; i++) {
        uint32_t l = s->pr[f[i]].link;
        if (s->link_src[l] == b)
            cf[s->link_local[l]]++;
    }
    B->ntl[side] = 0;
    for (uint32_t t = 0; t < m; t++) {
        uint32_t l = s->pr[set[t]].link;
        uint32_t j = s->link_src[l] == b ? s->link_local[l] : NONE;
        B->lk[side][t] = j;
        if (j == NONE)
            continue;
        uint32_t x = 0;
        while (x < B->ntl[side] && B->tl[side][x] != j)
            x++;
        if (x == B->ntl[side]) {
            B->lmask[side][x] = 0;
            B->lrow[side][x] = s->cntlp + s->cnt_off[qq->link] + (size_t)j * (JOINT_KMAX + 1);
            B->tl[side][B->ntl[side]++] = j;
        }
        B->tx[side][t] = x;
        B->lmask[side][x] |= 1u << t; /* bnb_count_masks */
    }
    double cc = 0;
    const size_t base = s->cnt_off[qq->link];
    for (uint32_t j = 0; j < no; j++) {
        uint32_t x = 0;
        while (x < B->ntl[side] && B->tl[side][x] != j)
            x++;
        if (x < B->ntl[side])
            continue;
        uint32_t c = cf[j] > JOINT_KMAX ? JOINT_KMAX : cf[j];
        cc += s->cntlp[base + (size_t)j * (JOINT_KMAX + 1) + c];
    }
    B->cconst[side] = cc;
    if (s->os_ein && s->os_ein[qq->link]) {
        /* the set of calls (joint_oset.c): not link by link; its largest
         * value over every signature, whatever the split */
        B->ntl[side] = 0;
        for (uint32_t t = 0; t < m; t++)
            B->lk[side][t] = NONE;
        B->cconst[side] = s->os_bound[qq->link];
    }
    /* rs_count_table: first_cut asks count_max(lo, fr) with lo >= the
     * fixed count c0 and lo + fr <= c0 + the link's shared calls; each
     * range's value by count_max's own loop (c from lo up, the same
     * comparisons in the same order: the same double) */
    for (uint32_t x = 0; x < B->ntl[side]; x++) {
        const uint32_t c0 = cf[B->tl[side][x]], ns = joint_bits32(B->lmask[side][x]);
        B->cm0[side][x] = c0;
        for (uint32_t lo = 0; lo <= ns; lo++)
            for (uint32_t hi = lo; hi <= ns; hi++)
                B->cmt[side][x][lo * JOINT_BNB_CW + hi] =
                    count_max(s, B, side, q, x, c0 + lo, hi - lo);
    }
    return PB_OK;
}

/* count_max(lo, fr) from the re-split's table (rs_count_table) */
static inline double count_tab(const struct joint_bnb *B, int side, uint32_t x, uint32_t lo,
                               uint32_t fr)
{
    const uint32_t a = lo - B->cm0[side][x];
    return B->cmt[side][x][a * JOINT_BNB_CW + a + fr];
}

/* The subtrees around split mask, whose first difference from the split
 * scored last (rmask, its records r0, r1) is shared call a: for d = a + 1
 * .. m, an upper bound of every split whose first d calls go as mask says
 * (the later ones free).  Returns the least such d whose bound is below
 * bsf (its subtree holds no split that can be chosen), or 0; *vb (vb not
 * NULL) the bound found below bsf (ls_margin, joint_lsmargin.c) */
static uint32_t first_cut(joint *s, struct joint_bnb *B, uint32_t q1, uint32_t q2,
                          const uint32_t *set, uint32_t m, uint32_t mask, uint32_t a,
                          uint32_t rmask, const joint_wrec *r0, const joint_wrec *r1, double bsf,
                          double *vb)
{
    /* the least return of a call that may differ from the reference
     * (bnb_cut_pre: the suffix's, made once per re-split) */
    const pb_ns lo = B->rlo[a];
    double base = 0;
    uint32_t clo[2][JOINT_RESPLIT_MAX], cfr[2][JOINT_RESPLIT_MAX];
    double cmx[2][JOINT_RESPLIT_MAX];
    for (int side = 0; side < 2; side++) {
        const joint_wrec *r = side ? r1 : r0;
        /* the reference's list before set[a]: its exact steps while no
         * return of a call that may differ was received */
        /* bnb_cut_pre: the reference's shared calls below a on this side,
         * counted by table (at most JOINT_RESPLIT_MAX bits) */
        const uint32_t rb = joint_rs_bits8(rmask & ((1u << a) - 1u));
        uint32_t P = B->fb[side][a] + (side ? rb : a - rb);
        uint32_t i0 = P;
        while (i0 > 0 && r->mx[i0] >= lo)
            i0--;
        base += r->sum[i0];
        if (B->corr[side])
            base += r->cp[P]; /* the durations term of the common calls */
        const double *ub = B->ubp[side];
        for (uint32_t i = i0; i < P; i++)
            base += ub[r->k[i]];
        base += B->fsuf[side][a] + B->resp[side] + B->cconst[side];
        /* the counts: calls of each touched link placed before a, free from a */
        /* bnb_count_masks: the same counts from the touched link's calls
         * as bits (below a: placed; from a: free) */
        const uint32_t below = (1u << a) - 1u, placed = side ? mask : ~mask;
        for (uint32_t x = 0; x < B->ntl[side]; x++) {
            uint32_t j = B->tl[side][x], l0 = B->cntf[side][j], fr = 0;
            if (s->p.bnb_count_masks) {
                const uint32_t lm = B->lmask[side][x];
                /* the masks hold at most JOINT_RESPLIT_MAX (8) bits: by table */
                fr = joint_rs_bits8(lm & ~below);
                if (!joint_bnb_test_masks) /* test hook: the placed calls not counted */
                    l0 += joint_rs_bits8(lm & below & placed);
            } else {
                for (uint32_t t = 0; t < m; t++) {
                    if (B->lk[side][t] != j)
                        continue;
                    if (t >= a)
                        fr++;
                    else if (((mask >> t) & 1u) == (uint32_t)side)
                        l0++;
                }
            }
            clo[side][x] = l0;
            cfr[side][x] = fr;
            cmx[side][x] = count_tab(B, side, x, l0, fr);
        }
    }
    double sh = 0, ct = 0;
    for (uint32_t t = a; t < m; t++)
        sh += B->ubs[0][t] > B->ubs[1][t] ? B->ubs[0][t] : B->ubs[1][t];
    for (int side = 0; side < 2; side++)
        for (uint32_t x = 0; x < B->ntl[side]; x++)
            ct += cmx[side][x];
    /* decide the calls a, a + 1, ... as mask does, one at a time */
    for (uint32_t d = a; d < m; d++) {
        uint32_t b = (mask >> d) & 1u;
        double mx = B->ubs[0][d] > B->ubs[1][d] ? B->ubs[0][d] : B->ubs[1][d];
        sh += B->ubs[b][d] - mx;
        for (int side = 0; side < 2; side++) {
            uint32_t j = B->lk[side][d];
            if (j == NONE)
                continue;
            uint32_t x = B->tx[side][d];
            cfr[side][x]--;
            if (b == (uint32_t)side)
                clo[side][x]++;
            double w = count_tab(B, side, x, clo[side][x], cfr[side][x]);
            ct += w - cmx[side][x];
            cmx[side][x] = w;
        }
        double v = base + sh + ct + joint_bnb_test_bias;
        if (v + JOINT_PRUNE_TOL * (1.0 + fabs(v) + fabs(bsf)) <= bsf) {
            if (vb)
                *vb = v;
            return d + 1;
        }
    }
    return 0;
}

/* bit-reversed y over m bits: bit 0 of the split is decided first
 * (joint_rev_bits, joint_int.h: the same number without a loop) */
static inline uint32_t rev_bits(uint32_t y, uint32_t m)
{
    return joint_rev_bits(y, m);
}

/* score the split mask (walks resumed from the reference ref, recorded
 * into out); *v its value */
static int score(joint *s, struct joint_bnb *B, uint32_t q1, uint32_t q2, const uint32_t *f1,
                 uint32_t n1, const uint32_t *f2, uint32_t n2, const uint32_t *set, uint32_t m,
                 uint32_t mask, int ref, double *v)
{
    uint32_t *e1 = B->lst[0], *e2 = B->lst[1];
    uint32_t a = joint_resplit_list(s, f1, n1, set, m, mask, 0, e1);
    uint32_t b = joint_resplit_list(s, f2, n2, set, m, mask, 1, e2);
    double l1 = 0, l2 = 0;
    int rc;
    const joint_wrec *r0 = ref >= 0 ? &B->w[0][ref] : NULL, *r1 = ref >= 0 ? &B->w[1][ref] : NULL;
    int o = ref >= 0 ? 1 - ref : 0;
    if ((rc = joint_req_walk_resume(s, q1, e1, a, r0, &B->w[0][o], &l1)) != PB_OK ||
        (rc = joint_req_walk_resume(s, q2, e2, b, r1, &B->w[1][o], &l2)) != PB_OK)
        return rc;
    double x = l1 + l2;
    if (s->order_active && !s->bnb_no_order)
        x += joint_order_ll(s, q1, e1, a, q2, e2, b);
    *v = x;
    return PB_OK;
}

int joint_bnb_resplit(joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1, uint32_t n1,
                      const uint32_t *f2, uint32_t n2, const uint32_t *set, uint32_t m,
                      uint32_t cur, double *val)
{
    if (!s->bnb && !(s->bnb = calloc(1, sizeof *s->bnb)))
        return PB_ENOMEM;
    struct joint_bnb *B = s->bnb;
    if (s->nkeys > B->kcap) {
        uint32_t nc = B->kcap ? B->kcap : 64;
        while (nc < s->nkeys)
            nc *= 2;
        double *sm = realloc(B->sm, (size_t)nc * s->nb * sizeof *sm);
        if (!sm)
            return PB_ENOMEM;
        B->sm = sm;
        uint32_t *g = realloc(B->gen, (size_t)nc * sizeof *g);
        if (!g)
            return PB_ENOMEM;
        memset(g + B->kcap, 0, (size_t)(nc - B->kcap) * sizeof *g);
        B->gen = g;
        if (s->p.bnb_row_keep) { /* bnb_row_keep: none kept when there is no room */
            const int had = B->lfc != NULL;
            double *c = realloc(B->lfc, (size_t)nc * s->nb * sizeof *c);
            uint32_t *e = c ? realloc(B->lfep, (size_t)nc * sizeof *e) : NULL;
            if (e) {
                /* a new block holds no kept row: every epoch cleared */
                size_t from = had ? B->kcap : 0;
                memset(e + from, 0, (size_t)(nc - from) * sizeof *e);
                B->lfc = c;
                B->lfep = e;
            } else {
                free(c ? c : B->lfc);
                B->lfc = NULL;
            }
        }
        B->kcap = nc;
    }
    if (s->npairs > B->npcap) {
        for (int k = 0; k < 2; k++) {
            double *p = realloc(B->ubp[k], (size_t)s->npairs * sizeof *p);
            if (!p)
                return PB_ENOMEM;
            B->ubp[k] = p;
        }
        B->npcap = s->npairs;
    }
    uint32_t need = (n1 > n2 ? n1 : n2) + m + 2;
    if (need > B->lcap) {
        if (grow_u32(&B->lst[0], need) != PB_OK || grow_u32(&B->lst[1], need) != PB_OK ||
            grow_u32(&B->trig, need) != PB_OK || grow_u32(&B->ool, need + 1) != PB_OK ||
            grow_u32(&B->lwh, need) != PB_OK)
            return PB_ENOMEM;
        pb_ns *rt = realloc(B->rt, (size_t)need * sizeof *rt);
        if (!rt)
            return PB_ENOMEM;
        B->rt = rt;
        B->lcap = need;
    }
    int rc;
    if ((rc = prep_side(s, B, 0, q1, f1, n1, set, m)) != PB_OK ||
        (rc = prep_side(s, B, 1, q2, f2, n2, set, m)) != PB_OK)
        return rc;
    for (int i = 0; i < 2; i++)
        B->w[i][0].valid = B->w[i][1].valid = 0;
    /* bnb_cut_pre: first_cut's least return of set[a..m), every a */
    B->rlo[m] = INT64_MAX;
    for (uint32_t t = m; t-- > 0;) {
        const jpair *x = &s->pr[set[t]];
        B->rlo[t] = x->ret != NONE && x->rr < B->rlo[t + 1] ? x->rr : B->rlo[t + 1];
    }
    /* rs_cut_fill (speed only): every split -INFINITY first, so a cut
     * subtree is passed over whole (the values it would write) */
    for (uint32_t x = 0; x < (1u << m); x++)
        val[x] = -INFINITY;
    /* the current split first: the best so far, with its tie bonus */
    int ref = 0;
    if ((rc = score(s, B, q1, q2, f1, n1, f2, n2, set, m, cur, -1, &val[cur])) != PB_OK)
        return rc;
    double bsf = val[cur] + 1e-9;
    if (s->xfloor_on && s->xfloor > bsf) /* swap_floor (joint_xfloor.c) */
        bsf = s->xfloor;
    uint32_t rmask = cur;
    const uint32_t nall = 1u << m;
    const int margin = s->p.ls_margin > 0 || s->p.rs_confirm > 0; /* ls_margin, rs_confirm */
    for (uint32_t y = 0; y < nall;) {
        uint32_t mask = rev_bits(y, m);
        if (mask == cur) {
            y++;
            continue;
        }
        uint32_t t0 = (uint32_t)__builtin_ctz(mask ^ rmask);
        double vb = -INFINITY;
        uint32_t d = first_cut(s, B, q1, q2, set, m, mask, t0, rmask, &B->w[0][ref],
                               &B->w[1][ref], bsf, margin ? &vb : NULL);
        if (d) {
            if (vb > s->lsmg_alt) /* ls_margin: what the subtree may reach */
                s->lsmg_alt = vb;
            /* the leaves of this subtree from y on: none can be chosen */
            uint32_t end = (y | ((1u << (m - d)) - 1u)) + 1u;
            s->bnb_cut += end - y;
            y = end; /* each val[x] (x != cur) -INFINITY already */
            continue;
        }
        if ((rc = score(s, B, q1, q2, f1, n1, f2, n2, set, m, mask, ref, &val[mask])) != PB_OK)
            return rc;
        s->bnb_scored++;
        ref = 1 - ref;
        rmask = mask;
        if (val[mask] > bsf)
            bsf = val[mask];
        y++;
    }
    return PB_OK;
}
