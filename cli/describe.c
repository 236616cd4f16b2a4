/* Names of things as the user wrote them. */
#include <stdio.h>
#include <string.h>

#include "report.h"

void show_item_name(const test *t, const show_item *s, char *buf, int size)
{
    if (s->is_mem)
        cell_name(t, s->cell, buf, size);
    else
        snprintf(buf, (size_t)size, "%s:%s", t->threads[s->thread].name, t->threads[s->thread].regs[s->reg]);
}

static int append(char *buf, int size, int at, const char *fmt, const char *a, const char *b)
{
    if (at >= size)
        return at;
    int n = snprintf(buf + at, (size_t)(size - at), fmt, a, b);
    return n < 0 ? at : at + n;
}

static void operand_string(const test *t, const operand *o, char *buf, int size)
{
    switch (o->kind) {
    case OPND_CONST: snprintf(buf, (size_t)size, "%lld", (long long)o->value); break;
    case OPND_REG: snprintf(buf, (size_t)size, "%s:%s", t->threads[o->thread].name, t->threads[o->thread].regs[o->reg]); break;
    default: cell_name(t, o->cell, buf, size); break;
    }
}

static int cond_rec(const test *t, const cond *c, char *buf, int size, int at, int parent)
{
    char l[96], r[96];
    switch (c->kind) {
    case C_TRUE: return append(buf, size, at, "%s%s", "true", "");
    case C_FALSE: return append(buf, size, at, "%s%s", "false", "");
    case C_NOT:
        at = append(buf, size, at, "%s%s", "!(", "");
        at = cond_rec(t, c->a, buf, size, at, 0);
        return append(buf, size, at, "%s%s", ")", "");
    case C_CMP:
        operand_string(t, &c->l, l, sizeof l);
        operand_string(t, &c->r, r, sizeof r);
        at = append(buf, size, at, "%s%s", l, c->ne ? " != " : " == ");
        return append(buf, size, at, "%s%s", r, "");
    default: {
        int me = c->kind == C_AND ? 2 : 1;
        if (me < parent)
            at = append(buf, size, at, "%s%s", "(", "");
        at = cond_rec(t, c->a, buf, size, at, me);
        at = append(buf, size, at, "%s%s", c->kind == C_AND ? " && " : " || ", "");
        at = cond_rec(t, c->b, buf, size, at, me);
        if (me < parent)
            at = append(buf, size, at, "%s%s", ")", "");
        return at;
    }
    }
}

void cond_to_string(const test *t, const cond *c, char *buf, int size)
{
    buf[0] = 0;
    if (c)
        cond_rec(t, c, buf, size, 0, 0);
    else
        snprintf(buf, (size_t)size, "true");
}

void event_describe(const test *t, const event *e, char *buf, int size)
{
    char cn[96] = "";
    if (e->cell >= 0)
        cell_name(t, e->cell, cn, sizeof cn);
    const char *what = "";
    switch (e->kind) {
    case EV_IW: snprintf(buf, (size_t)size, "init %s", cn); return;
    case EV_R: what = e->src && (e->src->kind == I_RMW || (e->src->kind == I_AWAIT && e->src->await_rmw)) ? "atom" : "ld"; break;
    case EV_W: what = e->src && (e->src->kind == I_RMW || e->src->kind == I_AWAIT) ? "atom" : "st"; break;
    case EV_F: what = "fence"; break;
    case EV_BA: snprintf(buf, (size_t)size, "barrier (arrive)"); return;
    case EV_BW: snprintf(buf, (size_t)size, "barrier (wait)"); return;
    }
    char mods[64] = "";
    if (e->kind == EV_F)
        snprintf(mods, sizeof mods, ".%s.%s", e->ord == ORD_SEQ_CST ? "sc" : order_name(e->ord), scope_name(e->scope));
    else if (e->ord != ORD_PLAIN)
        snprintf(mods, sizeof mods, ".%s.%s", order_name(e->ord), scope_name(e->scope));
    if (e->src && e->src->kind != I_LD && e->src->kind != I_ST && e->kind != EV_F && strcmp(what, "atom") == 0) {
        char m2[80];
        snprintf(m2, sizeof m2, ".%s%s", rmw_name(e->src->rmw), mods);
        snprintf(mods, sizeof mods, "%.63s", m2);
    }
    snprintf(buf, (size_t)size, "%s%s%s%s%s", what, mods, e->implicit ? " (implicit, for seq_cst)" : "", cn[0] ? " " : "", cn);
}

const expectation *expectation_for(const test *t, const char *model)
{
    const expectation *generic = NULL;
    for (int i = 0; i < t->nexpects; i++) {
        if (t->expects[i].model && strcmp(t->expects[i].model, model) == 0)
            return &t->expects[i];
        if (!t->expects[i].model)
            generic = &t->expects[i];
    }
    return generic;
}
