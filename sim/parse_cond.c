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
    if ((p->tok.kind == T_INT || p->tok.kind == T_IDENT) && peek(p)->kind == T_COLON && !neg) {
        int th = -1;
        if (p->tok.kind == T_INT)
            th = p->tok.ival < t->nthreads ? (int)p->tok.ival : -1;
        else
            th = find_thread(t, p->tok.start, p->tok.len);
        if (th < 0) {
            ERR("unknown thread '%.*s'", p->tok.len, p->tok.start);
            return false;
        }
        advance(p);
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
            if (p->tok.kind != T_INT) {
                ERR("expected a constant index");
                return false;
            }
            if (p->tok.ival >= t->locs[l].len) {
                ERR("index %" PRId64 " is out of range for '%s' (%d elements)", p->tok.ival, t->locs[l].name,
                    t->locs[l].len);
                return false;
            }
            idx = (int)p->tok.ival;
            advance(p);
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

static cond *parse_cond_atom(parser *p)
{
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
        cond *c = calloc(1, sizeof *c);
        c->kind = C_AND;
        c->a = a;
        c->b = b;
        c->pos = pos;
        a = c;
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
        cond *c = calloc(1, sizeof *c);
        c->kind = C_OR;
        c->a = a;
        c->b = b;
        c->pos = pos;
        a = c;
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
    p->t->cond = parse_cond_or(p);
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
    for (int i = V_ALLOWED; i <= V_HANG; i++)
        if (tok_is(&p->tok, verdict_name((verdict_t)i)))
            v = i;
    if (v < 0) {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("expected allowed, forbidden, race, holds, fails or hang, found %s", got);
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
