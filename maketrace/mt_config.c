/*
 * mt_config.c - the maketrace config language, upper half: statements,
 * tracelets, explicit interleavings, the static checks and the public
 * config API.  The lexer, values and settings are in mt_lex.c; the
 * service and link statements in mt_services.c.  The
 * language is documented for users in docs/maketrace.md.
 */
#include "mt_label.h"
#include "pb_files.h"
#include "mt_parse.h"
#include "mt_u64map.h"
#include "pb_strtab.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Tracelet bodies */

typedef struct opvec {
    mt_op **v;
    uint32_t n, cap;
} opvec;

static int opvec_push(parser *p, opvec *o, mt_op *op)
{
    if (o->n == o->cap) {
        uint32_t cap = o->cap ? 2 * o->cap : 8;
        mt_op **nv = realloc(o->v, cap * sizeof *nv);
        if (!nv)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        o->v = nv;
        o->cap = cap;
    }
    o->v[o->n++] = op;
    return PB_OK;
}

static int opvec_finish(parser *p, opvec *o, mt_op *op)
{
    op->nkids = o->n;
    op->kids = mt_aalloc(p->c, (o->n ? o->n : 1) * sizeof *op->kids);
    if (!op->kids) {
        free(o->v);
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    }
    if (o->n)
        memcpy(op->kids, o->v, o->n * sizeof *op->kids);
    free(o->v);
    o->v = NULL;
    return PB_OK;
}

static mt_op *new_op(parser *p, int kind, long line)
{
    mt_op *op = mt_aalloc(p->c, sizeof *op);
    if (op) {
        op->kind = kind;
        op->line = line;
        op->wait_node = -1;
        op->join = -1;
    }
    return op;
}

static int parse_stmt(parser *p, mt_op **out, int depth);

/* After "{": statements up to the matching "}" (consumed). */
static int parse_block(parser *p, const tok *open, mt_op *op, int depth)
{
    opvec o = {0};
    for (;;) {
        skip_nl(p);
        tok *k = peek(p);
        if (k->kind == T_RBRACE) {
            next(p);
            return opvec_finish(p, &o, op);
        }
        if (k->kind == T_EOF) {
            free(o.v);
            return PERR(p, k, "expected \"}\" to close the \"{\" of line %ld", open->line);
        }
        mt_op *s = NULL;
        int rc = parse_stmt(p, &s, depth + 1);
        if (rc == PB_OK)
            rc = opvec_push(p, &o, s);
        if (rc != PB_OK) {
            free(o.v);
            return rc;
        }
        tok *e = peek(p);
        if (e->kind != T_NL && e->kind != T_RBRACE) {
            char b[64];
            free(o.v);
            return PERR(p, e, "expected end of statement (new line, \";\" or \"}\"), got %s",
                        mt_tok_desc(e, b, sizeof b));
        }
    }
}

static int expect_lbrace(parser *p, const char *what, tok **open)
{
    *open = NULL; /* defined on every path (the error path too) */
    tok *k = peek(p);
    if (k->kind != T_LBRACE) {
        char b[64];
        return PERR(p, k, "expected \"{\" after %s, got %s", what, mt_tok_desc(k, b, sizeof b));
    }
    *open = next(p);
    return PB_OK;
}

static int parse_stmt(parser *p, mt_op **out, int depth)
{
    tok *k = next(p);
    char b[64];
    if (depth > 200)
        return PERR(p, k, "blocks nested too deep (more than 200 levels)");
    if (k->kind != T_WORD)
        return PERR(p, k, "expected a statement (call, send, par, seq, choose, wait), got %s",
                    mt_tok_desc(k, b, sizeof b));
    int kind;
    if (is_word(k, "call"))
        kind = MT_OP_CALL;
    else if (is_word(k, "send"))
        kind = MT_OP_SEND;
    else if (is_word(k, "par"))
        kind = MT_OP_PAR;
    else if (is_word(k, "seq"))
        kind = MT_OP_SEQ;
    else if (is_word(k, "choose"))
        kind = MT_OP_CHOOSE;
    else if (is_word(k, "wait"))
        kind = MT_OP_WAIT;
    else
        return PERR(p, k, "unknown statement %s; expected call, send, par, seq, choose or wait",
                    mt_tok_desc(k, b, sizeof b));
    mt_op *op = new_op(p, kind, k->line);
    if (!op)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    op->col = k->col;
    *out = op;
    int rc;
    tok *open;
    switch (kind) {
    case MT_OP_CALL:
    case MT_OP_SEND: {
        tok *nk = peek(p);
        if (nk->kind != T_WORD)
            return PERR(p, nk, "expected a node (NAME or NAME:W|NAME:W...) after %s, got %s",
                        kind == MT_OP_CALL ? "call" : "send", mt_tok_desc(nk, b, sizeof b));
        next(p);
        char *v;
        if ((rc = mt_expand(p, nk, &v)) != PB_OK ||
            (rc = mt_parse_nodes(p, nk, v, &op->to, 1)) != PB_OK)
            return rc;
        unsigned seen = 0; /* delay=, ret= */
        while (peek(p)->kind == T_WORD) {
            tok *a = next(p);
            char *av;
            if ((rc = mt_expand(p, a, &av)) != PB_OK)
                return rc;
            if (!strcmp(av, "async") && kind == MT_OP_CALL) {
                if (op->async)
                    return PERR(p, a, "\"async\" is given twice on one line; expected "
                                "each attribute once");
                op->async = 1;
                if (!p->c->async_line)
                    p->c->async_line = a->line;
                continue;
            }
            if (!strncmp(av, "join=", 5) && kind == MT_OP_CALL) {
                if (op->join_name)
                    return PERR(p, a, "\"join\" is given twice on one line; expected "
                                "each attribute once");
                if (!mt_valid_ident(av + 5, strlen(av + 5)))
                    return PERR(p, a, "expected join=NAME with NAME of letters, digits and _, "
                                "got \"%s\"", av);
                op->join_name = av + 5;
                continue;
            }
            mt_delay *d = NULL;
            int which = !strncmp(av, "delay=", 6) ? 1 : !strncmp(av, "ret=", 4) ? 2 : 0;
            if (which && (seen & (1u << which)))
                return PERR(p, a, "\"%.*s\" is given twice on one line; expected each "
                            "attribute once", which == 1 ? 5 : 3, av);
            seen |= 1u << which;
            if (!strncmp(av, "delay=", 6))
                d = &op->d;
            else if (!strncmp(av, "ret=", 4) && kind == MT_OP_CALL)
                d = &op->r;
            if (!d)
                return PERR(p, a, "unknown attribute \"%s\"; expected %s", av,
                            kind == MT_OP_CALL ? "delay=MEAN,SD, ret=MEAN,SD, join=NAME, async or \"{\""
                                               : "delay=MEAN,SD or \"{\"");
            char why[PB_ERROR_MSG_MAX];
            if (mt_parse_delay(strchr(av, '=') + 1, d, why, sizeof why) != PB_OK)
                return PERR(p, a, "%s", why);
        }
        if (peek(p)->kind == T_LBRACE) {
            open = next(p);
            return parse_block(p, open, op, depth);
        }
        op->nkids = 0;
        return PB_OK;
    }
    case MT_OP_SEQ:
    case MT_OP_PAR:
        if ((rc = expect_lbrace(p, kind == MT_OP_PAR ? "par" : "seq", &open)) != PB_OK ||
            (rc = parse_block(p, open, op, depth)) != PB_OK)
            return rc;
        if (kind == MT_OP_PAR && op->nkids == 0)
            return PERR(p, k, "par needs at least one branch; expected statements inside its braces");
        return PB_OK;
    case MT_OP_CHOOSE: {
        if ((rc = expect_lbrace(p, "choose", &open)) != PB_OK)
            return rc;
        opvec o = {0};
        double total = 0;
        double *w = NULL;
        for (;;) {
            skip_nl(p);
            tok *wk = peek(p);
            if (wk->kind == T_RBRACE) {
                next(p);
                break;
            }
            double x;
            char *wv = NULL;
            if (wk->kind != T_WORD || mt_expand(p, wk, &wv) != PB_OK ||
                mt_parse_weight(wv, &x) != PB_OK) {
                free(o.v);
                free(w);
                if (wk->kind == T_EOF)
                    return PERR(p, wk, "expected \"}\" to close the \"{\" of line %ld", open->line);
                if (wv && wk->len && memchr(wk->s, '$', wk->len))
                    /* a variable's value (a let line or -s NAME=VALUE) is
                     * what is wrong: say it (was only "$name") */
                    return PERR(p, wk, "expected a branch weight (a number from 0 to 1e15) "
                                "followed by \"{\" inside choose, got %s, whose value is \"%s\"",
                                mt_tok_desc(wk, b, sizeof b), wv);
                return PERR(p, wk, "expected a branch weight (a number from 0 to 1e15) "
                            "followed by \"{\" inside choose, got %s", mt_tok_desc(wk, b, sizeof b));
            }
            next(p);
            tok *bo;
            mt_op *br = new_op(p, MT_OP_SEQ, wk->line);
            if (!br || (rc = expect_lbrace(p, "a choose weight", &bo)) != PB_OK ||
                (rc = parse_block(p, bo, br, depth + 1)) != PB_OK ||
                (rc = opvec_push(p, &o, br)) != PB_OK) {
                free(o.v);
                free(w);
                return br ? rc : pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
            }
            double *nw = realloc(w, o.n * sizeof *nw);
            if (!nw) {
                free(o.v);
                free(w);
                return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
            }
            w = nw;
            total += x;
            w[o.n - 1] = total;
        }
        if (o.n == 0 || !(total > 0)) {
            free(o.v);
            free(w);
            return PERR(p, k, "choose needs at least one branch with a positive weight");
        }
        op->kcum = mt_aalloc(p->c, o.n * sizeof *op->kcum);
        if (!op->kcum) {
            free(o.v);
            free(w);
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        }
        memcpy(op->kcum, w, o.n * sizeof *w);
        free(w);
        return opvec_finish(p, &o, op);
    }
    case MT_OP_WAIT: {
        tok *dk = peek(p);
        char *dv;
        if (dk->kind != T_WORD)
            return PERR(p, dk, "expected a duration after wait, got %s", mt_tok_desc(dk, b, sizeof b));
        next(p);
        if ((rc = mt_expand(p, dk, &dv)) != PB_OK)
            return rc;
        if (pb_duration_parse(dv, &op->wait) != PB_OK || op->wait < 0)
            return PERR(p, dk, "expected a non-negative duration such as 200ms after wait, got \"%s\"%s", dv,
                        pb_duration_hint(dv));
        if (is_word(peek(p), "at")) {
            next(p);
            tok *nk = peek(p);
            if (nk->kind != T_WORD)
                return PERR(p, nk, "expected a node name after \"at\", got %s", mt_tok_desc(nk, b, sizeof b));
            next(p);
            char *nv;
            mt_nodes nn;
            if ((rc = mt_expand(p, nk, &nv)) != PB_OK ||
                (rc = mt_parse_nodes(p, nk, nv, &nn, 0)) != PB_OK)
                return rc;
            op->wait_node = (int32_t)nn.node[0];
        }
        return PB_OK;
    }
    }
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* Interleavings: LABEL call|return|msg SRC -> DST [delay=MEAN,SD] */

/* *a (of *cap bytes) holds at least n, new bytes 0 */
static int grow_bytes(unsigned char **a, size_t *cap, size_t n)
{
    if (n <= *cap)
        return PB_OK;
    size_t nc = *cap ? *cap : 16;
    while (nc < n)
        nc *= 2;
    unsigned char *x = realloc(*a, nc);
    if (!x)
        return PB_ENOMEM;
    memset(x + *cap, 0, nc - *cap);
    *a = x;
    *cap = nc;
    return PB_OK;
}

/* *a (of *cap entries) holds at least n, new entries fill */
static int grow_i32(int32_t **a, size_t *cap, size_t n, int32_t fill)
{
    if (n <= *cap)
        return PB_OK;
    size_t nc = *cap ? *cap : 16;
    while (nc < n)
        nc *= 2;
    int32_t *x = realloc(*a, nc * sizeof *x);
    if (!x)
        return PB_ENOMEM;
    for (size_t i = *cap; i < nc; i++)
        x[i] = fill;
    *a = x;
    *cap = nc;
    return PB_OK;
}

static int parse_interleave(parser *p, mt_tracelet *tr, const tok *open)
{
    size_t cap = 16, n = 0;
    mt_iline *il = malloc(cap * sizeof *il);
    char **labels = NULL;
    uint32_t nlabels = 0;
    int rc = PB_OK;
    char b[64];
    /* The checks were scans of the lines before (a return's pairing a scan
     * in a scan: cubic, 8,000 lines took 10 s) and the engines' scratch was
     * labels x nodes (10,000 one-line paths: 800 MB).  Now hashed: a slot
     * per (label, node) the lines use, a stack of open calls per (label,
     * caller, callee), each line looked up in O(1). */
    pb_strtab *labtab = NULL;
    mt_u64map slotmap = {0}, stackmap = {0};
    unsigned char *rcvd = NULL;   /* per slot: the node received in the path */
    int32_t *heads = NULL;        /* per stack: the latest open call, or -1 */
    int32_t *below = NULL;        /* per line (a call): the open call under it */
    unsigned char *paired = NULL; /* per line (a call): a return took it */
    size_t rcap = 0, hcap = 0, lcap = 0, bcap = 0;
    uint32_t nslots = 0, nstacks = 0;
    if (!il || pb_strtab_init(&labtab) != PB_OK) {
        free(il);
        pb_strtab_close(labtab);
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    }
    for (;;) {
        skip_nl(p);
        tok *k = peek(p);
        if (k->kind == T_RBRACE) {
            next(p);
            break;
        }
        if (k->kind != T_WORD) {
            rc = k->kind == T_EOF
                     ? PERR(p, k, "expected \"}\" to close the \"{\" of line %ld", open->line)
                     : PERR(p, k, "expected a message line LABEL call|return|msg SRC -> DST, got %s",
                            mt_tok_desc(k, b, sizeof b));
            goto out;
        }
        if (n == cap) {
            cap *= 2;
            mt_iline *ni = realloc(il, cap * sizeof *ni);
            if (!ni) {
                rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
                goto out;
            }
            il = ni;
        }
        mt_iline *l = &il[n];
        memset(l, 0, sizeof *l);
        l->line = k->line;
        l->pair = -1;
        tok *w[5];
        for (int j = 0; j < 5; j++) {
            w[j] = peek(p);
            static const char *const what[] = {"a path label", "call, return or msg",
                                               "a sender node", "\"->\" between sender and receiver",
                                               "a receiver node"};
            if (w[j]->kind != T_WORD ||
                (j == 1 && !is_word(w[j], "call") && !is_word(w[j], "return") &&
                 !is_word(w[j], "msg")) ||
                (j == 3 && !is_word(w[j], "->"))) {
                rc = PERR(p, w[j], "expected %s (message line LABEL call|return|msg SRC -> DST), got %s",
                          what[j], mt_tok_desc(w[j], b, sizeof b));
                goto out;
            }
            next(p);
        }
        char *lab, *src, *dst;
        if ((rc = mt_expand(p, w[0], &lab)) != PB_OK || (rc = mt_expand(p, w[2], &src)) != PB_OK ||
            (rc = mt_expand(p, w[4], &dst)) != PB_OK)
            goto out;
        if (is_word(w[1], "call"))
            l->type = PB_TYPE_CALL;
        else if (is_word(w[1], "return"))
            l->type = PB_TYPE_RETURN;
        else if (is_word(w[1], "msg"))
            l->type = PB_TYPE_MSG;
        else {
            rc = PERR(p, w[1], "expected call, return or msg, got %s", mt_tok_desc(w[1], b, sizeof b));
            goto out;
        }
        if (!is_word(w[3], "->")) {
            rc = PERR(p, w[3], "expected \"->\" between sender and receiver, got %s",
                      mt_tok_desc(w[3], b, sizeof b));
            goto out;
        }
        mt_nodes ns, nd;
        if ((rc = mt_parse_nodes(p, w[2], src, &ns, 0)) != PB_OK ||
            (rc = mt_parse_nodes(p, w[4], dst, &nd, 0)) != PB_OK)
            goto out;
        l->src = ns.node[0];
        l->dst = nd.node[0];
        if (l->src == l->dst) {
            rc = PERR(p, w[4], "expected a receiver other than the sender \"%s\"", src);
            goto out;
        }
        uint32_t li;
        if (pb_strtab_intern(labtab, lab, strlen(lab), &li) != PB_OK) {
            rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
            goto out;
        }
        int first = li == nlabels;
        if (li == nlabels) {
            char **nl = realloc(labels, (nlabels + 1) * sizeof *nl);
            if (!nl) {
                rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
                goto out;
            }
            labels = nl;
            labels[nlabels++] = lab;
        }
        l->label = li;
        while (peek(p)->kind == T_WORD) {
            tok *a = next(p);
            char *av;
            char why[PB_ERROR_MSG_MAX];
            if ((rc = mt_expand(p, a, &av)) != PB_OK)
                goto out;
            if (strncmp(av, "delay=", 6)) {
                rc = PERR(p, a, "unknown attribute \"%s\"; expected delay=MEAN,SD", av);
                goto out;
            }
            if (mt_parse_delay(av + 6, &l->d, why, sizeof why) != PB_OK) {
                rc = PERR(p, a, "%s", why);
                goto out;
            }
        }
        /* Static checks: each path is one tree, calls pair with returns. */
        int added;
        if ((l->sslot = mt_u64map_put(&slotmap, (uint64_t)li << 32 | l->src, nslots, &added)) ==
                UINT32_MAX ||
            (nslots += added, (l->dslot = mt_u64map_put(&slotmap, (uint64_t)li << 32 | l->dst,
                                                         nslots, &added)) == UINT32_MAX) ||
            (nslots += added, grow_bytes(&rcvd, &rcap, nslots) != PB_OK) ||
            grow_bytes(&paired, &lcap, n + 1) != PB_OK ||
            grow_i32(&below, &bcap, n + 1, -1) != PB_OK) {
            rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
            goto out;
        }
        int received = rcvd[l->sslot];
        if (!first && !received) {
            rc = PERR(p, w[2], "node %s sends in path %s before receiving anything in it; "
                      "expected each path to have one first message, and later senders "
                      "to have received a message of the path", src, lab);
            goto out;
        }
        if (l->type == PB_TYPE_RETURN) {
            /* the latest unreturned call of the label in the other direction */
            uint32_t cs = mt_u64map_get(&slotmap, (uint64_t)li << 32 | l->dst);
            uint32_t st = cs == UINT32_MAX ? UINT32_MAX
                                           : mt_u64map_get(&stackmap, (uint64_t)cs << 32 | l->src);
            if (st != UINT32_MAX && heads[st] >= 0) {
                l->pair = heads[st];
                heads[st] = below[l->pair];
                paired[l->pair] = 1;
            }
            if (l->pair < 0) {
                rc = PERR(p, w[1], "return %s -> %s in path %s has no open call %s -> %s before it; "
                          "expected a matching call line earlier", src, dst, lab, dst, src);
                goto out;
            }
        }
        if (l->type == PB_TYPE_CALL) {
            uint32_t st = mt_u64map_put(&stackmap, (uint64_t)l->sslot << 32 | l->dst, nstacks, &added);
            if (st == UINT32_MAX || grow_i32(&heads, &hcap, nstacks + added, -1) != PB_OK) {
                rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
                goto out;
            }
            nstacks += added;
            below[n] = heads[st];
            heads[st] = (int32_t)n;
        }
        paired[n] = 0;
        rcvd[l->dslot] = 1;
        n++;
        tok *e = peek(p);
        if (e->kind != T_NL && e->kind != T_RBRACE) {
            rc = PERR(p, e, "expected end of line, got %s", mt_tok_desc(e, b, sizeof b));
            goto out;
        }
    }
    for (size_t j = 0; j < n; j++) {
        if (il[j].type != PB_TYPE_CALL)
            continue;
        if (!paired[j]) {
            rc = mt_perr_at(p, il[j].line, 0, "call in path %s has no return; expected a "
                         "matching return line before the \"}\" of line %ld",
                         labels[il[j].label], open->line);
            goto out;
        }
    }
    if (n == 0) {
        rc = PERR(p, open, "interleave tracelet %s has no messages; expected message lines", tr->name);
        goto out;
    }
    tr->il = mt_aalloc(p->c, n * sizeof *il);
    if (!tr->il) {
        rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        goto out;
    }
    memcpy(tr->il, il, n * sizeof *il);
    tr->nil = (uint32_t)n;
    tr->nlabels = nlabels;
    tr->nslots = nslots;
out:
    free(il);
    free(labels);
    pb_strtab_close(labtab);
    mt_u64map_free(&slotmap);
    mt_u64map_free(&stackmap);
    free(rcvd);
    free(heads);
    free(below);
    free(paired);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Static checks of a tree tracelet */

/* Walk the ops tracking whether the current node has received a message of
 * the path (has) and how many messages were sent without one (roots). */
static void root_walk(const mt_op *op, int *has, uint32_t *roots, uint64_t *maxmsgs)
{
    switch (op->kind) {
    case MT_OP_CALL: {
        if (!*has)
            (*roots)++;
        int h = 1;
        uint32_t r = 0;
        uint64_t m = 0;
        for (uint32_t i = 0; i < op->nkids; i++)
            root_walk(op->kids[i], &h, &r, &m);
        *maxmsgs += 2 + m;
        /* an async call's sender goes on without its return, as a send's */
        if (!op->async)
            *has = 1;
        return;
    }
    case MT_OP_SEND: {
        if (!*has)
            (*roots)++;
        int h = 1;
        uint32_t r = 0;
        uint64_t m = 0;
        for (uint32_t i = 0; i < op->nkids; i++)
            root_walk(op->kids[i], &h, &r, &m);
        *maxmsgs += 1 + m;
        return;
    }
    case MT_OP_SEQ:
        for (uint32_t i = 0; i < op->nkids; i++)
            root_walk(op->kids[i], has, roots, maxmsgs);
        return;
    case MT_OP_PAR: {
        int any = *has;
        uint32_t r = 0;
        for (uint32_t i = 0; i < op->nkids; i++) {
            int h = *has;
            root_walk(op->kids[i], &h, &r, maxmsgs);
            any |= h;
        }
        *roots += r;
        *has = any;
        return;
    }
    case MT_OP_CHOOSE: {
        int all = 1;
        uint32_t rmax = 0;
        uint64_t mmax = 0;
        for (uint32_t i = 0; i < op->nkids; i++) {
            int h = *has;
            uint32_t r = 0;
            uint64_t m = 0;
            root_walk(op->kids[i], &h, &r, &m);
            all &= h;
            if (r > rmax)
                rmax = r;
            if (m > mmax)
                mmax = m;
        }
        *roots += rmax;
        *maxmsgs += mmax;
        *has = all;
        return;
    }
    default:
        return;
    }
}

/* v * f in ns, kept within [0, INT64_MAX / 4] so that no scale overflows. */
static pb_ns scale_ns(pb_ns v, double f)
{
    double x = (double)v * f;
    if (!(x > 0))
        return 0;
    if (x >= (double)(INT64_MAX / 4))
        return INT64_MAX / 4;
    return (pb_ns)llround(x);
}

static void fill_delays(mt_op *op, const mt_delay *dc, const mt_delay *dr,
                        const mt_delay *dm, const mt_settings *s, int *adv)
{
    mt_delay *ds[2] = {&op->d, &op->r};
    if (op->kind == MT_OP_CALL || op->kind == MT_OP_SEND) {
        if (!op->d.set)
            op->d = op->kind == MT_OP_CALL ? *dc : *dm;
        if (op->kind == MT_OP_CALL && !op->r.set)
            op->r = *dr;
        for (int i = 0; i < (op->kind == MT_OP_CALL ? 2 : 1); i++) {
            ds[i]->sd = s->delay_sd >= 0 ? s->delay_sd
                                         : scale_ns(ds[i]->sd, s->sd_scale);
            if (ds[i]->mean > 0 || ds[i]->sd > 0)
                *adv = 1;
        }
    }
    if (op->kind == MT_OP_WAIT && op->wait > 0)
        *adv = 1;
    for (uint32_t i = 0; i < op->nkids; i++)
        fill_delays(op->kids[i], dc, dr, dm, s, adv);
}

/* ------------------------------------------------------------------ */
/* Joins: calls with join=NAME in one tracelet form a group */

typedef struct jscan {
    parser *p;
    mt_tracelet *tr;
    const mt_op **first;  /* per group: its first call, for messages */
    uint32_t cap;
    uint32_t *open;       /* per group: parts whose block we are inside */
} jscan;

/* Pass 1: number the groups and count their parts. */
static int join_number(jscan *j, mt_op *op)
{
    if (op->kind == MT_OP_CALL && op->join_name) {
        mt_tracelet *tr = j->tr;
        uint32_t g = 0;
        while (g < tr->njoins && strcmp(j->first[g]->join_name, op->join_name))
            g++;
        if (g == tr->njoins) {
            if (tr->njoins == j->cap) {
                uint32_t cap = j->cap ? 2 * j->cap : 4;
                const mt_op **nf = realloc(j->first, cap * sizeof *nf);
                if (!nf)
                    return pb_error_set(j->p->err, PB_ENOMEM, j->p->file, 0, 0, "out of memory");
                j->first = nf;
                uint32_t *np = realloc(tr->join_parts, cap * sizeof *np);
                if (!np)
                    return pb_error_set(j->p->err, PB_ENOMEM, j->p->file, 0, 0, "out of memory");
                tr->join_parts = np;
                j->cap = cap;
            }
            j->first[g] = op;
            tr->join_parts[g] = 0;
            tr->njoins++;
        }
        const mt_op *f = j->first[g];
        if (op->to.n != 1)
            return mt_perr_at(j->p, op->line, op->col,
                              "join=%s: a join call must name one node, got a choice of %u; "
                              "expected every part of a join to reach the same node",
                              op->join_name, op->to.n);
        if (op->to.node[0] != f->to.node[0])
            return mt_perr_at(j->p, op->line, op->col,
                              "join=%s: this part calls %s but the part at line %ld calls %s; "
                              "expected every part of a join to reach the same node",
                              op->join_name, pb_strtab_str(j->p->c->nodes, op->to.node[0]),
                              f->line, pb_strtab_str(j->p->c->nodes, f->to.node[0]));
        op->join = (int32_t)g;
        tr->join_parts[g]++;
    }
    for (uint32_t i = 0; i < op->nkids; i++) {
        int rc = join_number(j, op->kids[i]);
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

/* Pass 2: a join completes when all its parts have arrived, so every part
 * must run whenever the path runs (none under a choose) and no part may
 * wait on a block of its own group (only the last arrival runs one). */
static int join_check(jscan *j, const mt_op *op, int in_choose)
{
    const mt_tracelet *tr = j->tr;
    if (op->kind == MT_OP_CALL && op->join >= 0) {
        uint32_t g = (uint32_t)op->join;
        if (tr->join_parts[g] < 2)
            return mt_perr_at(j->p, op->line, op->col,
                              "join=%s has only this one part; expected at least two calls "
                              "with join=%s (from different branches) to join", op->join_name,
                              op->join_name);
        if (in_choose)
            return mt_perr_at(j->p, op->line, op->col,
                              "join=%s: this part is inside a choose, so the join could wait "
                              "forever for a part that was not chosen; expected every part "
                              "outside choose", op->join_name);
        if (j->open[g])
            return mt_perr_at(j->p, op->line, op->col,
                              "join=%s: this part runs inside the block of another part of the "
                              "same join, which runs only after every part (this one "
                              "included) has arrived, so the join can never complete; expected "
                              "the parts in different branches", op->join_name);
        j->open[g]++;
    }
    for (uint32_t i = 0; i < op->nkids; i++) {
        int rc = join_check(j, op->kids[i], in_choose || op->kind == MT_OP_CHOOSE);
        if (rc != PB_OK)
            return rc;
    }
    if (op->kind == MT_OP_CALL && op->join >= 0)
        j->open[op->join]--;
    return PB_OK;
}

static int resolve_joins(parser *p, mt_tracelet *tr)
{
    jscan j = {p, tr, NULL, 0, NULL};
    int rc = join_number(&j, tr->body);
    if (rc == PB_OK && tr->njoins) {
        j.open = calloc(tr->njoins, sizeof *j.open);
        rc = j.open ? join_check(&j, tr->body, 0)
                    : pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        p->c->event_engine = 1;
    }
    if (rc == PB_OK && tr->njoins) {
        /* keep the counts in the arena with the rest of the config */
        uint32_t *parts = mt_aalloc(p->c, tr->njoins * sizeof *parts);
        if (!parts)
            rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        else
            memcpy(parts, tr->join_parts, tr->njoins * sizeof *parts);
        free(tr->join_parts);
        tr->join_parts = parts;
    } else {
        free(tr->join_parts);
        tr->join_parts = NULL;
        if (rc != PB_OK)
            tr->njoins = 0;
    }
    free(j.first);
    free(j.open);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Tracelets */

static int apply_tracelet_field(parser *p, mt_tracelet *tr, const char *field,
                                const char *v, const char *file, long line, long col)
{
    char why[PB_ERROR_MSG_MAX];
    if (!strcmp(field, "weight")) {
        if (mt_parse_weight(v, &tr->weight) != PB_OK)
            return pb_error_set(p->err, PB_EPARSE, file, line, col,
                                "tracelet %s: expected weight=W with W a number from 0 to 1e15, got \"%s\"",
                                tr->name, v);
    } else if (!strcmp(field, "instances")) {
        if (mt_parse_count(v, &tr->instances) != PB_OK)
            return pb_error_set(p->err, PB_EPARSE, file, line, col,
                                "tracelet %s: expected instances=N with N an integer in 1..1000000, got \"%s\"%s",
                                tr->name, v, pb_integer_hint(v));
    } else if (!strcmp(field, "think")) {
        if (mt_parse_range(v, &tr->think_lo, &tr->think_hi, why, sizeof why) != PB_OK)
            return pb_error_set(p->err, PB_EPARSE, file, line, col, "tracelet %s: think: %s",
                                tr->name, why);
        tr->has_think = 1;
    } else {
        return pb_error_set(p->err, PB_EPARSE, file, line, col,
                            "tracelet %s: unknown attribute \"%s\"; expected from NODE, "
                            "interleave, weight=W, instances=N or think=LO..HI",
                            tr->name, field);
    }
    return PB_OK;
}

static int parse_tracelet(parser *p)
{
    tok *kw = next(p);
    char b[64];
    tok *nk = peek(p);
    if (nk->kind != T_WORD || !mt_valid_ident(nk->s, nk->len))
        return PERR(p, nk, "expected a tracelet name (letters, digits, _) after \"tracelet\", got %s",
                    mt_tok_desc(nk, b, sizeof b));
    next(p);
    mt_config *c = p->c;
    for (size_t i = 0; i < c->ntr; i++)
        if (strlen(c->tr[i].name) == nk->len && !memcmp(c->tr[i].name, nk->s, nk->len))
            return PERR(p, nk, "tracelet \"%.*s\" is defined twice (first at line %ld); "
                        "expected unique names", (int)nk->len, nk->s, c->tr[i].line);
    if (c->ntr == c->trcap) {
        size_t cap = c->trcap ? 2 * c->trcap : 8;
        mt_tracelet *nt = realloc(c->tr, cap * sizeof *nt);
        if (!nt)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        c->tr = nt;
        c->trcap = cap;
    }
    mt_tracelet *tr = &c->tr[c->ntr];
    memset(tr, 0, sizeof *tr);
    tr->name = mt_astrndup(c, nk->s, nk->len);
    if (!tr->name)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    tr->line = kw->line;
    tr->weight = 1;
    int has_from = 0;
    int rc;
    /* each attribute once: a repeated one is an error, not "the last wins" */
    static const char *const once[] = {"interleave", "from", "weight", "instances", "think"};
    long seen_at[5] = {0, 0, 0, 0, 0};
    for (;;) {
        tok *a = peek(p);
        if (a->kind != T_WORD)
            break;
        for (int f = 0; f < 5; f++) {
            size_t fl = strlen(once[f]);
            if (a->len >= fl && !memcmp(a->s, once[f], fl) &&
                (a->len == fl || (f >= 2 && a->s[fl] == '='))) {
                if (seen_at[f])
                    return PERR(p, a, "tracelet %s: \"%s\" is given twice (first at "
                                "line %ld); expected each attribute once",
                                tr->name, once[f], seen_at[f]);
                seen_at[f] = a->line;
            }
        }
        next(p);
        if (is_word(a, "interleave")) {
            tr->interleave = 1;
            continue;
        }
        if (is_word(a, "from")) {
            tok *fk = peek(p);
            if (fk->kind != T_WORD)
                return PERR(p, fk, "expected a node after \"from\", got %s", mt_tok_desc(fk, b, sizeof b));
            next(p);
            char *v;
            if ((rc = mt_expand(p, fk, &v)) != PB_OK || (rc = mt_parse_nodes(p, fk, v, &tr->root, 1)) != PB_OK)
                return rc;
            has_from = 1;
            continue;
        }
        char *av;
        if ((rc = mt_expand(p, a, &av)) != PB_OK)
            return rc;
        char *eq = strchr(av, '=');
        if (!eq)
            return PERR(p, a, "tracelet %s: unknown attribute \"%s\"; expected from NODE, "
                        "interleave, weight=W, instances=N, think=LO..HI or \"{\"", tr->name, av);
        *eq = '\0';
        if ((rc = apply_tracelet_field(p, tr, av, eq + 1, p->file, a->line, a->col)) != PB_OK)
            return rc;
    }
    if (tr->interleave && has_from)
        return PERR(p, kw, "tracelet %s: an interleave tracelet names its senders on each line; "
                    "expected no \"from\"", tr->name);
    if (!tr->interleave && !has_from)
        return PERR(p, kw, "tracelet %s: expected \"from NODE\" naming the node that starts its paths "
                    "(or \"interleave\")", tr->name);
    static const char *const fields[] = {"weight", "instances", "think"};
    for (int f = 0; f < 3; f++) {
        char dn[256];
        snprintf(dn, sizeof dn, "%s.%s", tr->name, fields[f]);
        mt_def *d = mt_find_def(p, dn);
        if (d && (rc = apply_tracelet_field(p, tr, fields[f], d->value, "-s", 0, 0)) != PB_OK)
            return rc;
    }
    tok *open;
    if ((rc = expect_lbrace(p, "the tracelet header", &open)) != PB_OK)
        return rc;
    c->ntr++; /* from here on the tracelet is owned by the config */
    if (tr->interleave) {
        if ((rc = parse_interleave(p, tr, open)) != PB_OK)
            return rc;
    } else {
        tr->body = new_op(p, MT_OP_SEQ, open->line);
        if (!tr->body)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        if ((rc = parse_block(p, open, tr->body, 0)) != PB_OK)
            return rc;
        int has = 0;
        uint32_t roots = 0;
        uint64_t maxm = 0;
        root_walk(tr->body, &has, &roots, &maxm);
        if (maxm == 0)
            return PERR(p, kw, "tracelet %s sends no message; expected at least one call or send",
                        tr->name);
        if (roots > 1)
            return PERR(p, kw, "tracelet %s: its first node may send more than one message "
                        "before receiving one, so a path would have several roots; expected "
                        "one first message (wrap the rest in that call's or send's braces)",
                        tr->name);
        if (maxm > 1000000)
            return PERR(p, kw, "tracelet %s: a path may have %llu messages; expected at most 1000000",
                        tr->name, (unsigned long long)maxm);
        tr->maxmsgs = (uint32_t)maxm;
        if ((rc = resolve_joins(p, tr)) != PB_OK)
            return rc;
    }
    return mt_expect_eol(p, "the tracelet's \"}\"");
}

/* ------------------------------------------------------------------ */

#define MT_MAX_INSTANCES 1000000

static int opt_index(const char *name)
{
    for (int j = 0; mt_options[j].name; j++)
        if (!strcmp(mt_options[j].name, name))
            return j;
    return 0;
}

/* *n x scale, rounded, at least 1; past MT_MAX_INSTANCES an error at line
 * (it was cut to the cap without a word) */
static int scaled_instances(parser *p, int *n, double scale, long line, const char *what)
{
    double v = fmax(1.0, (double)llround(*n * scale));
    if (v > MT_MAX_INSTANCES)
        return mt_perr_at(p, line, 0, "%s: %d x instances_scale %g = %.0f; expected at most %d "
                          "(every instance runs from the start and is held in memory)",
                          what, *n, scale, v, MT_MAX_INSTANCES);
    *n = (int)v;
    return PB_OK;
}

static int finish(parser *p)
{
    mt_config *c = p->c;
    mt_settings *s = &c->s;
    if (c->ntr == 0)
        return mt_perr_at(p, 0, 0, "no tracelet; expected at least one \"tracelet NAME from NODE { ... }\"");
    mt_delay dc, dr, dm;
    char why[PB_ERROR_MSG_MAX];
    /* the texts were checked when set */
    mt_parse_delay(s->call_delay, &dc, why, sizeof why);
    mt_parse_delay(s->ret_delay, &dr, why, sizeof why);
    mt_parse_delay(s->msg_delay, &dm, why, sizeof why);
    mt_parse_range(s->think, &c->pool_think_lo, &c->pool_think_hi, why, sizeof why);
    c->pool_think_lo = scale_ns(c->pool_think_lo, s->think_scale);
    c->pool_think_hi = scale_ns(c->pool_think_hi, s->think_scale);
    /* a scaled count past the cap was cut to it without a word, and the
     * loops of all tracelets together had no cap (every loop is held in
     * memory from the start: 200 tracelets of instances=1000000 took 12 GB
     * and minutes before the first message) */
    int rcs = scaled_instances(p, &s->instances, s->instances_scale,
                               p->set_line && !(p->locked && p->locked[opt_index("instances")])
                                   ? p->set_line[opt_index("instances")] : 0,
                               "the shared pool's instances");
    if (rcs != PB_OK)
        return rcs;
    int netadv = s->net_delay > 0 || s->net_sd > 0;
    for (size_t i = 0; i < c->ntr; i++) {
        mt_tracelet *tr = &c->tr[i];
        int adv = netadv;
        if (tr->interleave) {
            tr->maxmsgs = tr->nil;
            for (uint32_t j = 0; j < tr->nil; j++) {
                mt_delay *d = &tr->il[j].d;
                if (!d->set)
                    *d = tr->il[j].type == PB_TYPE_CALL ? dc : tr->il[j].type == PB_TYPE_RETURN ? dr : dm;
                d->sd = s->delay_sd >= 0 ? s->delay_sd : scale_ns(d->sd, s->sd_scale);
                if (d->mean > 0 || d->sd > 0)
                    adv = 1;
            }
        } else {
            fill_delays(tr->body, &dc, &dr, &dm, s, &adv);
        }
        if (tr->instances > 0) {
            char what[200];
            snprintf(what, sizeof what, "tracelet %s's instances", tr->name);
            if ((rcs = scaled_instances(p, &tr->instances, s->instances_scale, tr->line, what)) != PB_OK)
                return rcs;
            if (!tr->has_think) {
                tr->think_lo = c->pool_think_lo;
                tr->think_hi = c->pool_think_hi;
            } else {
                tr->think_lo = scale_ns(tr->think_lo, s->think_scale);
                tr->think_hi = scale_ns(tr->think_hi, s->think_scale);
            }
        } else {
            if (tr->has_think)
                return mt_perr_at(p, tr->line, 0, "tracelet %s: think= needs instances= (a tracelet "
                               "without instances= runs in the shared pool, whose think time is "
                               "the \"think\" setting)", tr->name);
            tr->think_lo = c->pool_think_lo;
            tr->think_hi = c->pool_think_hi;
        }
        if (tr->think_hi > 0)
            adv = 1;
        tr->advances = adv;
    }
    int pool_w = 0, pool_n = 0;
    for (size_t i = 0; i < c->ntr; i++)
        if (c->tr[i].instances == 0) {
            pool_n++;
            pool_w |= c->tr[i].weight > 0;
        }
    if (pool_n && !pool_w)
        return mt_perr_at(p, 0, 0, "every tracelet of the shared pool has weight 0; expected at "
                       "least one positive weight");
    {
        double total = pool_w ? (double)s->instances : 0;
        for (size_t i = 0; i < c->ntr; i++) {
            total += c->tr[i].instances;
            if (total > MT_MAX_INSTANCES)
                return mt_perr_at(p, c->tr[i].instances > 0 ? c->tr[i].line : 0, 0,
                                  "the loops add up to more than %d instances (the shared "
                                  "pool's %d and the tracelets' own instances=, after "
                                  "instances_scale), past here; expected at most %d in all: "
                                  "every instance runs from the start and is held in memory",
                                  MT_MAX_INSTANCES, pool_w ? s->instances : 0, MT_MAX_INSTANCES);
        }
    }
    int rc0 = mt_cfg_finish_services(p);
    if (rc0 == PB_OK)
        rc0 = mt_cfg_finish_models(p);
    if (rc0 != PB_OK)
        return rc0;
    if (c->async_line && c->event_engine)
        return mt_perr_at(p, c->async_line, 0, "\"call ... async\" is not supported with "
                          "services (workers, models) or joins; expected a config without "
                          "them");
    for (size_t i = 0; i < p->ndefs; i++)
        if (!p->defs[i].used) {
            pb_strbuf b = {0};
            for (int j = 0; mt_options[j].name; j++)
                pb_strbuf_printf(&b, "%s%s", j ? ", " : "", mt_options[j].name);
            int rc = pb_error_set(p->err, PB_EINVAL, "-s", 0, 0,
                                  "%s: no setting, variable (let) or tracelet field "
                                  "(TRACELET.weight, .instances, .think) or service field "
                                  "(SERVICE.workers) of that name; settings are: %s",
                                  p->defs[i].name, pb_strbuf_str(&b));
            pb_strbuf_free(&b);
            return rc;
        }
    return PB_OK;
}

int mt_config_parse(const char *text, size_t len, const char *display_name,
                    const char *const *defs, size_t ndefs, mt_config **out,
                    pb_error *err)
{
    *out = NULL;
    mt_config *c = calloc(1, sizeof *c);
    if (!c)
        return pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
    parser p;
    memset(&p, 0, sizeof p);
    p.c = c;
    p.err = err;
    int rc;
    c->file = strdup(display_name ? display_name : "(config)");
    p.file = c->file;
    size_t nopt = 0;
    while (mt_options[nopt].name)
        nopt++;
    p.locked = calloc(nopt, 1);
    p.set_line = calloc(nopt, sizeof *p.set_line);
    p.defs = calloc(ndefs ? ndefs : 1, sizeof *p.defs);
    c->defs = calloc(ndefs ? ndefs : 1, sizeof *c->defs);
    if (!c->file || !p.locked || !p.defs || !c->defs ||
        pb_strtab_init(&c->nodes) != PB_OK) {
        rc = pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
        goto fail;
    }
    if ((rc = pb_opt_defaults(mt_options, &c->s, err)) != PB_OK)
        goto fail;
    for (size_t i = 0; i < ndefs; i++) {
        const char *eq = strchr(defs[i], '=');
        if (!eq || eq == defs[i]) {
            rc = pb_error_set(err, PB_EINVAL, "-s", 0, 0, "%s: expected name=value", defs[i]);
            goto fail;
        }
        c->defs[c->ndefs++] = mt_astrndup(c, defs[i], strlen(defs[i]));
        p.defs[i].name = mt_astrndup(c, defs[i], (size_t)(eq - defs[i]));
        p.defs[i].value = mt_astrndup(c, eq + 1, strlen(eq + 1));
        if (!c->defs[i] || !p.defs[i].name || !p.defs[i].value) {
            rc = pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
            goto fail;
        }
        int oi = mt_option_index(p.defs[i].name);
        if (oi >= 0) {
            if ((rc = mt_set_setting(&p, p.defs[i].name, p.defs[i].value, "-s", 0, 0)) != PB_OK)
                goto fail;
            p.locked[oi] = 1;
            p.defs[i].used = 1;
        }
    }
    p.ndefs = ndefs;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        long ln = 1;
        const char *bol = text;
        for (const char *q = text; q < nul; q++)
            if (*q == '\n') {
                ln++;
                bol = q + 1;
            }
        rc = mt_perr_at(&p, ln, (long)(nul - bol) + 1,
                     "a NUL byte; expected text (%s)", pb_text_hint(text, len));
        goto fail;
    }
    size_t bom = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    if (bom) {
        /* a UTF-8 byte-order mark: skip it (columns of line 1 count from
         * after it) */
        text += bom;
        len -= bom;
    }
    if ((rc = mt_lex(&p, text, len)) != PB_OK)
        goto fail;
    for (;;) {
        skip_nl(&p);
        tok *k = peek(&p);
        if (k->kind == T_EOF)
            break;
        if (is_word(k, "tracelet"))
            rc = parse_tracelet(&p);
        else if (is_word(k, "service"))
            rc = mt_cfg_parse_service(&p);
        else if (is_word(k, "link"))
            rc = mt_cfg_parse_link(&p);
        else if (is_word(k, "let"))
            rc = mt_parse_let(&p);
        else if (is_word(k, "label"))
            rc = mt_parse_label(&p);
        else if (k->kind == T_WORD)
            rc = mt_parse_setting_line(&p);
        else {
            char b[64];
            rc = PERR(&p, k, "expected a setting (name = value), let, label or tracelet (or a service line), got %s",
                      mt_tok_desc(k, b, sizeof b));
        }
        if (rc != PB_OK)
            goto fail;
    }
    if ((rc = finish(&p)) != PB_OK)
        goto fail;
    free(p.t);
    free(p.locked);
    free(p.set_line);
    free(p.defs);
    *out = c;
    return PB_OK;
fail:
    free(p.t);
    free(p.locked);
    free(p.set_line);
    free(p.defs);
    mt_config_close(c);
    return rc;
}

/* The largest config read: the shipped ones are a few KiB */
#define MT_CONFIG_MAX (64 << 20)

int mt_config_load(const char *path, const char *const *defs, size_t ndefs,
                   mt_config **out, pb_error *err)
{
    *out = NULL;
    FILE *fp = pb_files_open(path, err);
    if (!fp) {
        if (err->code == PB_EIO && !strncmp(err->msg, "cannot open: ", 13)) {
            char why[PB_ERROR_MSG_MAX];
            snprintf(why, sizeof why, "%s", err->msg + 13);
            pb_error_set(err, PB_EIO, path, 0, 0, "cannot open config: %s", why);
        }
        return err->code;
    }
    pb_strbuf b = {0};
    char buf[8192];
    size_t n;
    int rc = PB_OK;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
        if (pb_strbuf_append(&b, buf, n) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
            break;
        }
        /* a NUL byte or a config past MT_CONFIG_MAX: said now (with its
         * place, as the parser would), not after reading an endless
         * input (/dev/zero) into memory */
        const char *z = memchr(buf, '\0', n);
        if (z) {
            size_t at = b.len - n + (size_t)(z - buf);
            long ln = 1, col = 1;
            for (size_t i = 0; i < at; i++, col++)
                if (b.s[i] == '\n') {
                    ln++;
                    col = 0;
                }
            rc = pb_error_set(err, PB_EPARSE, path, ln, col,
                              "a NUL byte; expected text (%s)", pb_text_hint(b.s, b.len));
            break;
        }
        if (b.len > MT_CONFIG_MAX) {
            rc = pb_error_set(err, PB_EPARSE, path, 0, 0,
                              "a config longer than %d MiB; expected a text config "
                              "(a binary file or an endless stream?)",
                              MT_CONFIG_MAX >> 20);
            break;
        }
    }
    if (rc == PB_OK && ferror(fp))
        rc = pb_error_set(err, PB_EIO, path, 0, 0, "cannot read config: %s", strerror(errno));
    if (fp != stdin)
        fclose(fp);
    if (rc == PB_OK)
        rc = mt_config_parse(pb_strbuf_str(&b), b.len, path, defs, ndefs, out, err);
    pb_strbuf_free(&b);
    return rc;
}

void mt_config_close(mt_config *c)
{
    if (!c)
        return;
    mt_arena *a = c->arena;
    while (a) {
        mt_arena *nx = a->next;
        free(a);
        a = nx;
    }
    pb_strtab_close(c->nodes);
    free(c->tr);
    free(c->svc);
    free(c->links);
    mt_u64map_free(&c->linkmap);
    free(c->labels);
    free(c->vars);
    pb_strtab_close(c->varidx);
    free(c->defs);
    free(c->file);
    free(c);
}

mt_settings *mt_config_settings(mt_config *c) { return &c->s; }
size_t mt_config_ntracelets(const mt_config *c) { return c->ntr; }
const char *mt_config_tracelet_name(const mt_config *c, size_t i) { return c->tr[i].name; }
double mt_config_tracelet_weight(const mt_config *c, size_t i) { return c->tr[i].weight; }
int mt_config_tracelet_instances(const mt_config *c, size_t i) { return c->tr[i].instances; }

void mt_config_tracelet_think(const mt_config *c, size_t i, pb_ns *lo, pb_ns *hi)
{
    *lo = c->tr[i].think_lo;
    *hi = c->tr[i].think_hi;
}

int mt_config_describe(const mt_config *c, pb_strbuf *out)
{
    pb_option base[MT_NOPT_BASE + 1];
    memcpy(base, mt_options, MT_NOPT_BASE * sizeof *base);
    memset(&base[MT_NOPT_BASE], 0, sizeof base[MT_NOPT_BASE]);
    int rc = pb_opt_describe(c->models ? mt_options : base, &c->s, out);
    for (size_t i = 0; i < c->nvars && rc == PB_OK; i++)
        rc = pb_strbuf_printf(out, " $%s=%s", c->vars[i].name, c->vars[i].value);
    for (size_t i = 0; i < c->ntr && rc == PB_OK; i++) {
        const mt_tracelet *tr = &c->tr[i];
        char lo[PB_DURATION_BUF], hi[PB_DURATION_BUF], wb[PB_NUM_BUF];
        pb_duration_format(tr->think_lo, lo);
        pb_duration_format(tr->think_hi, hi);
        rc = pb_strbuf_printf(out, " %s.weight=%s %s.instances=%d %s.think=%s..%s",
                              tr->name, pb_num_format(tr->weight, wb), tr->name,
                              tr->instances, tr->name, lo, hi);
    }
    for (size_t i = 0; i < c->nsvc && rc == PB_OK; i++)
        if (c->svc[i].workers)
            rc = pb_strbuf_printf(out, " %s.workers=%d", pb_strtab_str(c->nodes, c->svc[i].node),
                                  c->svc[i].workers);
    for (size_t i = 0; i < c->nsvc && rc == PB_OK; i++)
        if (c->svc[i].slow > 0) {
            char sb[PB_NUM_BUF];
            rc = pb_strbuf_printf(out, " %s.slow=%s", pb_strtab_str(c->nodes, c->svc[i].node),
                                  pb_num_format(c->svc[i].slow, sb));
        }
    if (c->models) {
        /* every server node's resolved model */
        size_t n = pb_strtab_count(c->nodes);
        for (size_t x = 0; x < n && rc == PB_OK; x++) {
            const mt_exec *e = &c->exec[x];
            const char *nm = pb_strtab_str(c->nodes, (uint32_t)x);
            char nb[PB_NUM_BUF], db[PB_DURATION_BUF];
            rc = pb_strbuf_printf(out, " %s.model=%s", nm, mt_exec_names[e->model]);
            if (rc == PB_OK && (e->model == MT_EXEC_POOL || e->model == MT_EXEC_DISPATCHER))
                rc = pb_strbuf_printf(out, " %s.handoff=%s", nm, pb_num_format(e->handoff, nb));
            if (rc == PB_OK && e->model == MT_EXEC_POOL && e->batch > 1)
                rc = pb_strbuf_printf(out, " %s.batch=%d", nm, e->batch);
            if (rc == PB_OK && e->model == MT_EXEC_EVENT) {
                pb_duration_format(e->read_cost, db);
                rc = pb_strbuf_printf(out, " %s.threads=%d %s.batch=%d %s.read_cost=%s", nm,
                                      e->threads, nm, e->batch, nm, db);
            }
            if (rc == PB_OK && e->model == MT_EXEC_SEDA)
                rc = pb_strbuf_printf(out, " %s.stages=%d", nm, e->stages);
        }
        for (size_t i = 0; i < c->nlinks && rc == PB_OK; i++) {
            int cnt, model = mt_conn_of(c, c->links[i].src, c->links[i].dst, &cnt);
            rc = pb_strbuf_printf(out, " link:%s>%s=%s/%d", pb_strtab_str(c->nodes, c->links[i].src),
                                  pb_strtab_str(c->nodes, c->links[i].dst),
                                  mt_conn_names[model], cnt);
        }
    }
    return rc;
}
