/* Names of things as the user wrote them. */
#include <stdio.h>
#include <string.h>

#include "../ir/condprint.h"
#include "report.h"

void show_item_name(const test *t, const show_item *s, char *buf, int size)
{
    if (s->is_mem)
        cell_name(t, s->cell, buf, size);
    else
        snprintf(buf, (size_t)size, "%s:%s", t->threads[s->thread].name, t->threads[s->thread].regs[s->reg]);
}

static void operand_string(void *ctx, const operand *o, char *buf, size_t size)
{
    const test *t = ctx;
    switch (o->kind) {
    case OPND_CONST: snprintf(buf, size, "%lld", (long long)o->value); break;
    case OPND_REG: snprintf(buf, size, "%s:%s", t->threads[o->thread].name, t->threads[o->thread].regs[o->reg]); break;
    default: cell_name(t, o->cell, buf, (int)size); break;
    }
}

void cond_to_string(const test *t, const cond *c, char *buf, int size)
{
    buf[0] = 0;
    if (!c) {
        snprintf(buf, (size_t)size, "true");
        return;
    }
    cond_style st = {" && ", " || ", "!(", operand_string, (void *)t};
    cond_print(c, &st, buf, (size_t)size);
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
    /* A statement desugared from a SHMEM call is named by the call. */
    const char *call = e->src && e->src->shmem > 0 && e->src->shmem <= t->nshmem_calls
                           ? t->shmem_calls[e->src->shmem - 1].name : NULL;
    snprintf(buf, (size_t)size, "%s%s%s%s%s%s%s%s", call ? call : "", call ? " (" : "", what, mods,
             e->implicit ? " (implicit, for seq_cst)" : "", call ? ")" : "", cn[0] ? " " : "", cn);
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
