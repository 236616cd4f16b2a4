/* The final condition (exists / ~exists / forall) and expect lines. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_internal.h"


static bool parse_operand(parser *p, operand *o)
{
    test *t = p->t;
    o->pos = here(p);
    bool neg = false;
    if (p->tok.kind == T_MINUS) {
        neg = true;
        advance(p);
    }
    /* A constant expression: numbers, named constants (and the index of
     * all/any), + - * / %. */
    if ((p->tok.kind == T_INT && peek(p)->kind != T_COLON) || p->tok.kind == T_LPAREN ||
        (p->tok.kind == T_IDENT && find_const(p, p->tok.start, p->tok.len) >= 0 && peek(p)->kind != T_COLON)) {
        expr *e = parse_arith(p);
        int64_t v;
        bool ok = e && const_eval(p, e, NULL, &v);
        expr_free(e);
        if (!ok)
            return false;
        o->kind = OPND_CONST;
        o->value = neg ? -v : v;
        return true;
    }
    /* THREAD:REG, where THREAD is P1, a herd index 1, an instance such as
     * producer[0,1] or one launch of it, producer[0,1]@2. */
    if (!neg && ((p->tok.kind == T_INT && peek(p)->kind == T_COLON) ||
                 (p->tok.kind == T_IDENT && find_loc(t, p->tok.start, p->tok.len) < 0 &&
                  find_symvar(t, p->tok.start, p->tok.len) < 0 && !tok_is(&p->tok, "true") && !tok_is(&p->tok, "false")))) {
        token first = p->tok;
        char name[256];
        int at = snprintf(name, sizeof name, "%.*s", first.len > 200 ? 200 : first.len, first.start);
        bool herd_index = first.kind == T_INT;
        advance(p);
        if (!herd_index && p->tok.kind == T_LBRACK) {
            advance(p);
            at += snprintf(name + at, sizeof name - (size_t)at, "[");
            for (;;) {
                if (p->tok.kind != T_INT) {
                    ERR("expected an index of the thread, as in producer[0,1]:r0");
                    return false;
                }
                at += snprintf(name + at, sizeof name - (size_t)at, "%lld", (long long)p->tok.ival);
                advance(p);
                if (!accept(p, T_COMMA))
                    break;
                at += snprintf(name + at, sizeof name - (size_t)at, ",");
            }
            if (!expect_tok(p, T_RBRACK, "after the thread's indices"))
                return false;
            at += snprintf(name + at, sizeof name - (size_t)at, "]");
        }
        if (!herd_index && p->tok.kind == T_AT) {
            advance(p);
            if (p->tok.kind != T_INT) {
                ERR("expected the launch number after '@', as in P0@2:r0");
                return false;
            }
            snprintf(name + at, sizeof name - (size_t)at, "@%lld", (long long)p->tok.ival);
            advance(p);
        }
        if (p->tok.kind != T_COLON) {
            diag_error(p->d, first.line, first.col,
                       herd_index ? "expected ':' and a register after the thread index"
                                  : "unknown location '%s' in the condition (write THREAD:REG for a register)",
                       name);
            return false;
        }
        int th = herd_index ? (first.ival < t->nthreads ? (int)first.ival : -1) : find_thread(t, name, (int)strlen(name));
        if (th < 0) {
            diag_error(p->d, first.line, first.col, "unknown thread '%s'", name);
            return false;
        }
        advance(p);
        int r = p->tok.kind == T_IDENT ? find_reg(&t->threads[th], p->tok.start, p->tok.len) : -1;
        if (r < 0) {
            ERR("thread '%s' has no register '%.*s'", t->threads[th].name, p->tok.len, p->tok.start);
            return false;
        }
        o->kind = OPND_REG;
        o->thread = th;
        o->reg = r;
        advance(p);
        return true;
    }
    /* A heap variable names one rank's copy: data@1[2]. */
    if (!neg && p->tok.kind == T_IDENT && find_symvar(t, p->tok.start, p->tok.len) >= 0) {
        const symvar *V = &t->heap.vars[find_symvar(t, p->tok.start, p->tok.len)];
        advance(p);
        if (!accept(p, T_AT)) {
            ERR("'%s' is a heap variable: name a rank's copy, as in %s@0 (ranks 0 to %d)", V->name, V->name,
                t->heap.ranks - 1);
            return false;
        }
        token at = p->tok;
        int64_t rank = -1;
        if (p->tok.kind == T_LPAREN) {
            advance(p);
            expr *e = parse_expr(p);
            bool ok = e && const_eval(p, e, NULL, &rank) && expect_tok(p, T_RPAREN, "after the rank");
            expr_free(e);
            if (!ok)
                return false;
        } else if (p->tok.kind == T_INT || (p->tok.kind == T_IDENT && find_const(p, p->tok.start, p->tok.len) >= 0)) {
            rank = p->tok.kind == T_INT ? p->tok.ival : p->const_values[find_const(p, p->tok.start, p->tok.len)];
            advance(p);
        }
        if (rank < 0 || rank >= t->heap.ranks) {
            ERR_AT(at, "expected a rank from 0 to %d after '@'", t->heap.ranks - 1);
            return false;
        }
        const location *L = &t->locs[V->loc[rank]];
        int idx = 0;
        if (accept(p, T_LBRACK)) {
            token at = p->tok;
            expr *e = parse_expr(p);
            int64_t v = -1;
            bool ok = e && const_eval(p, e, NULL, &v);
            expr_free(e);
            if (!ok)
                return false;
            if (v < 0 || v >= V->len) {
                ERR_AT(at, "index %lld is out of range for '%s' (%d elements)", (long long)v, V->name, V->len);
                return false;
            }
            idx = (int)v;
            if (!expect_tok(p, T_RBRACK, "after the index"))
                return false;
        }
        o->kind = OPND_MEM;
        o->cell = L->first_cell + idx;
        return true;
    }
    if (p->tok.kind == T_INT) {
        o->kind = OPND_CONST;
        o->value = neg ? -p->tok.ival : p->tok.ival;
        advance(p);
        return true;
    }
    if (p->tok.kind == T_FLOAT) {
        float f = (float)(neg ? -p->tok.fval : p->tok.fval);
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        o->kind = OPND_CONST;
        o->value = bits;
        advance(p);
        return true;
    }
    if (p->tok.kind == T_IDENT && !neg) {
        int l = find_loc(t, p->tok.start, p->tok.len);
        if (l < 0) {
            ERR("unknown location '%.*s' in the condition (write THREAD:REG for a register)", p->tok.len, p->tok.start);
            return false;
        }
        advance(p);
        int idx = 0;
        if (accept(p, T_LBRACK)) {
            token at = p->tok;
            expr *e = parse_expr(p);
            int64_t v = -1;
            bool ok = e && const_eval(p, e, NULL, &v);
            expr_free(e);
            if (!ok)
                return false;
            if (v < 0 || v >= t->locs[l].len) {
                ERR_AT(at, "index %lld is out of range for '%s' (%d elements)", (long long)v, t->locs[l].name,
                       t->locs[l].len);
                return false;
            }
            idx = (int)v;
            if (!expect_tok(p, T_RBRACK, "after the index"))
                return false;
        }
        o->kind = OPND_MEM;
        o->cell = t->locs[l].first_cell + idx;
        return true;
    }
    char got[64];
    describe(&p->tok, got, sizeof got);
    ERR("expected THREAD:REG, a location or a number, found %s", got);
    return false;
}

/* Integer constants compared with an f32 location mean that float. */
static void coerce_float_const(const test *t, operand *c, const operand *other)
{
    if (c->kind != OPND_CONST || other->kind != OPND_MEM)
        return;
    int l = cell_loc(t, other->cell);
    if (l >= 0 && t->locs[l].type == TY_F32 && c->value >= -16777216 && c->value <= 16777216) {
        float f = (float)c->value;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        c->value = bits;
    }
}

/* all i in A..B: ATOM  is the conjunction of ATOM for every i, any ... the
 * disjunction; i is a constant while ATOM is read, so the atom is re-read
 * once per value. */
/* a && b, a || b */
static cond *cond_join(condkind_t kind, cond *a, cond *b, srcpos pos)
{
    cond *c = calloc(1, sizeof *c);
    c->kind = kind;
    c->a = a;
    c->b = b;
    c->pos = pos;
    return c;
}

static cond *parse_cond_atom(parser *p);
static cond *parse_cond_and(parser *p);

static cond *parse_cond_range(parser *p, bool all)
{
    srcpos pos = here(p);
    advance(p);
    token var = p->tok;
    if (!plain_ident(&var) || is_reserved(&var) || find_const(p, var.start, var.len) >= 0) {
        ERR("expected a new index name, as in: all i in 0..4: out[i] == 1");
        return NULL;
    }
    advance(p);
    if (!tok_is(&p->tok, "in")) {
        ERR("expected 'in' after the index name");
        return NULL;
    }
    advance(p);
    expr *lo_e = parse_expr(p), *hi_e = NULL;
    int64_t lo = 0, hi = 0;
    bool ok = lo_e && const_eval(p, lo_e, NULL, &lo) && expect_tok(p, T_DOTDOT, "between the bounds") &&
              (hi_e = parse_expr(p)) && const_eval(p, hi_e, NULL, &hi) && expect_tok(p, T_COLON, "before the condition");
    expr_free(lo_e);
    expr_free(hi_e);
    if (!ok)
        return NULL;
    if (hi <= lo || hi - lo > 4096) {
        diag_error(p->d, pos.line, pos.col, "the range %lld..%lld must hold 1 to 4096 values", (long long)lo, (long long)hi);
        return NULL;
    }
    lexer saved_lx = p->lx;
    token saved_tok = p->tok, saved_ahead = p->ahead;
    bool saved_have = p->have_ahead;
    p->const_names = realloc(p->const_names, (size_t)(p->nconsts + 1) * sizeof *p->const_names);
    p->const_values = realloc(p->const_values, (size_t)(p->nconsts + 1) * sizeof *p->const_values);
    p->const_names[p->nconsts] = tok_str(&var);
    p->nconsts++;
    cond *acc = NULL;
    for (int64_t v = lo; v < hi && !failed(p); v++) {
        p->lx = saved_lx;
        p->tok = saved_tok;
        p->ahead = saved_ahead;
        p->have_ahead = saved_have;
        p->const_values[p->nconsts - 1] = v;
        cond *one = parse_cond_and(p);
        if (!one)
            break;
        acc = acc ? cond_join(all ? C_AND : C_OR, acc, one, pos) : one;
    }
    p->nconsts--;
    free(p->const_names[p->nconsts]);
    if (failed(p)) {
        cond_free(acc);
        return NULL;
    }
    return acc;
}

static cond *parse_cond_atom_nested(parser *p);

static cond *parse_cond_atom(parser *p)
{
    if (!nest_in(p))
        return NULL;
    cond *c = parse_cond_atom_nested(p);
    p->depth--;
    return c;
}

static cond *parse_cond_atom_nested(parser *p)
{
    if (tok_is(&p->tok, "all") || tok_is(&p->tok, "any"))
        return parse_cond_range(p, tok_is(&p->tok, "all"));
    cond *c = calloc(1, sizeof *c);
    c->pos = here(p);
    if (p->tok.kind == T_BANG || p->tok.kind == T_TILDE) {
        advance(p);
        c->kind = C_NOT;
        c->a = parse_cond_atom(p);
        if (!c->a) {
            cond_free(c);
            return NULL;
        }
        return c;
    }
    if (accept(p, T_LPAREN)) {
        free(c);
        c = parse_cond_or(p);
        if (c && !expect_tok(p, T_RPAREN, "to close '('")) {
            cond_free(c);
            return NULL;
        }
        return c;
    }
    if (tok_is(&p->tok, "true") || tok_is(&p->tok, "false")) {
        c->kind = tok_is(&p->tok, "true") ? C_TRUE : C_FALSE;
        advance(p);
        return c;
    }
    c->kind = C_CMP;
    if (!parse_operand(p, &c->l)) {
        free(c);
        return NULL;
    }
    if (p->tok.kind == T_EQ || p->tok.kind == T_ASSIGN) {
        c->ne = false;
    } else if (p->tok.kind == T_NE) {
        c->ne = true;
    } else {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("expected '==' or '!=' in the condition, found %s", got);
        free(c);
        return NULL;
    }
    advance(p);
    if (!parse_operand(p, &c->r)) {
        free(c);
        return NULL;
    }
    coerce_float_const(p->t, &c->r, &c->l);
    coerce_float_const(p->t, &c->l, &c->r);
    return c;
}

static cond *parse_cond_and(parser *p)
{
    cond *a = parse_cond_atom(p);
    while (a && p->tok.kind == T_ANDAND) {
        srcpos pos = here(p);
        advance(p);
        cond *b = parse_cond_atom(p);
        if (!b) {
            cond_free(a);
            return NULL;
        }
        a = cond_join(C_AND, a, b, pos);
    }
    return a;
}

cond *parse_cond_or(parser *p)
{
    cond *a = parse_cond_and(p);
    while (a && p->tok.kind == T_OROR) {
        srcpos pos = here(p);
        advance(p);
        cond *b = parse_cond_and(p);
        if (!b) {
            cond_free(a);
            return NULL;
        }
        a = cond_join(C_OR, a, b, pos);
    }
    return a;
}

bool parse_condition(parser *p, quant_t q)
{
    if (p->t->cond) {
        ERR("a test has one final condition");
        return false;
    }
    advance(p);
    p->t->quant = q;
    p->t->cond = cond_balance(parse_cond_or(p));
    return p->t->cond != NULL;
}

bool parse_expect(parser *p)
{
    test *t = p->t;
    advance(p);
    expectation e = {0};
    e.pos = here(p);
    if (p->tok.kind == T_IDENT && peek(p)->kind == T_COLON) {
        bool known = false;
        for (int i = 0; lit_model_names[i]; i++)
            known = known || tok_is(&p->tok, lit_model_names[i]);
        if (!known) {
            ERR("unknown model '%.*s' (models: src11 ptx sc vulkan)", p->tok.len, p->tok.start);
            return false;
        }
        e.model = tok_str(&p->tok);
        advance(p);
        advance(p);
    }
    int v = -1;
    for (int i = V_ALLOWED; i <= V_ERROR; i++)
        if (tok_is(&p->tok, verdict_name((verdict_t)i)))
            v = i;
    if (v < 0) {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("expected allowed, forbidden, race, holds, fails, hang or error, found %s", got);
        free(e.model);
        return false;
    }
    e.verdict = (verdict_t)v;
    advance(p);
    grow((void **)&t->expects, t->nexpects, &p->expect_capacity, sizeof *t->expects);
    t->expects[t->nexpects++] = e;
    return true;
}

/* ---- whole file --------------------------------------------------------- */
