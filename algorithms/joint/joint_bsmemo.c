/*
 * joint_bsmemo.c - joint: the bounded re-split's step bounds kept per
 * model (bnb_step_memo, no option; speed only, the same numbers; issue 28,
 * docs/joint/speed_w29.md, "The re-split's step bounds kept (h246)").
 *
 * joint_bnb.c's prep_side bounds every possible call's step of a side
 * (step_bound_fast -> step_bound_at): the largest term its output can
 * have over the side's trigger keys (okey, one row per output link) at
 * any delay from the least possible one (dl: the output time less the
 * latest trigger time possible) up, with the background's term.  With an
 * arrival (the request's call seen) that value reads only the row of
 * keys, dl, and the model: each key's density row and its per-bin maxima
 * (joint_bnb.c's key_row, made once per fit), the least delay, the bins
 * and the background.  On OnlineBoutique as a black box one request is
 * re-split against each of the ~10 requests open with it, and its calls'
 * steps are bounded again in each re-split, mostly with the same keys and
 * the same least delay.
 *
 * Here the values are kept in a direct-mapped table of BSM_SLOTS entries
 * by (the keys, dl), each entry holding its keys in full (rows of more
 * than BSM_K keys are not kept) and the model's epoch it was made in: the
 * epoch changes whenever fit_gen, the least delay, the bin width or count
 * or the background differ from the last look (joint_bsm_begin, once per
 * bounded re-split).  A value is used only when every key, dl and the
 * epoch are equal: the same max over the same terms, computed the same
 * way when it was kept (the max of a set of doubles does not depend on
 * the order of its terms, and a NaN term is skipped either way).  A kept
 * value was made in this epoch, so every key it read had its row made
 * in this fit (key_row's counters, bnb_rows_kept, count as without it).
 * Not used for a request whose call was not seen (the keys' means are
 * read then).
 */
#include "joint_int.h"
#include "joint_rs.h"

#include <stdlib.h>
#include <string.h>

#define BSM_SLOTS 2048u /* a power of two */
#define BSM_K 16u

struct bsm_ent {
    uint64_t h; /* the keys' hash */
    pb_ns dl;
    double v;
    uint32_t ep, nt; /* ep 0: void */
    uint32_t k[BSM_K];
};

struct joint_bsm {
    struct bsm_ent e[BSM_SLOTS];
    uint32_t ep;
    /* the model the epoch is of */
    uint32_t gen, nb;
    double dmin, bin, ibin, bg;
    /* the hash of each output's row of keys of the side being prepared */
    uint64_t *okh;
    uint32_t okcap;
};

int joint_bsm_test_off = 0;      /* tests: 1 nothing kept (every bound computed) */
int joint_bsm_test_check = 0;    /* tests: 1 a kept value computed as well, compared */
int joint_bsm_test_wrong = 0;    /* tests: 1 dl left out of the comparison (wrong) */
size_t joint_bsm_test_hits = 0;  /* tests: values used */
size_t joint_bsm_test_bad = 0;   /* tests: kept values whose bits differ from the bound's */

static inline uint64_t bsm_mix(uint64_t h, uint64_t x)
{
    h = (h ^ x) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

void joint_bsm_free(struct joint_bsm *M)
{
    if (!M)
        return;
    free(M->okh);
    free(M);
}

struct joint_bsm *joint_bsm_begin(joint *s, struct joint_bsm **Mp)
{
    if (joint_bsm_test_off)
        return NULL;
    if (!*Mp && !(*Mp = calloc(1, sizeof **Mp)))
        return NULL; /* no room: every bound computed */
    struct joint_bsm *M = *Mp;
    if (M->ep == 0 || M->gen != s->fit_gen || M->nb != s->nb || M->dmin != s->dmin ||
        M->bin != s->p.bin || M->ibin != s->ibin || M->bg != s->bg) {
        if (++M->ep == 0) { /* wrapped: every entry void */
            memset(M->e, 0, sizeof M->e);
            M->ep = 1;
        }
        M->gen = s->fit_gen;
        M->nb = s->nb;
        M->dmin = s->dmin;
        M->bin = s->p.bin;
        M->ibin = s->ibin;
        M->bg = s->bg;
    }
    return M;
}

int joint_bsm_row(struct joint_bsm *M, uint32_t o, const uint32_t *keys, uint32_t nt)
{
    if (o >= M->okcap) {
        uint32_t nc = M->okcap ? M->okcap : 16;
        while (nc <= o)
            nc *= 2;
        uint64_t *a = realloc(M->okh, (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        M->okh = a;
        M->okcap = nc;
    }
    uint64_t h = bsm_mix(0x51ed27u, nt);
    for (uint32_t j = 0; j < nt; j++)
        h = bsm_mix(h, keys[j]);
    M->okh[o] = h;
    return PB_OK;
}

static inline struct bsm_ent *bsm_slot(const struct joint_bsm *M, uint64_t h, pb_ns dl)
{
    const uint64_t x = bsm_mix(h, (uint64_t)dl);
    return (struct bsm_ent *)&M->e[(x >> 20) & (BSM_SLOTS - 1)];
}

int joint_bsm_get(struct joint_bsm *M, uint32_t o, const uint32_t *keys, uint32_t nt, pb_ns dl,
                  double *v)
{
    if (nt > BSM_K)
        return 0;
    const uint64_t h = M->okh[o];
    const struct bsm_ent *e = bsm_slot(M, h, joint_bsm_test_wrong ? 0 : dl);
    if (e->ep != M->ep || e->h != h || e->nt != nt || (e->dl != dl && !joint_bsm_test_wrong) ||
        memcmp(e->k, keys, (size_t)nt * sizeof *keys) != 0)
        return 0;
    *v = e->v;
    joint_bsm_test_hits++;
    return 1;
}

void joint_bsm_put(struct joint_bsm *M, uint32_t o, const uint32_t *keys, uint32_t nt, pb_ns dl,
                   double v)
{
    if (nt > BSM_K)
        return;
    const uint64_t h = M->okh[o];
    struct bsm_ent *e = bsm_slot(M, h, joint_bsm_test_wrong ? 0 : dl);
    e->h = h;
    e->dl = dl;
    e->v = v;
    e->ep = M->ep;
    e->nt = nt;
    memcpy(e->k, keys, (size_t)nt * sizeof *keys);
}
