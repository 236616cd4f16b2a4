#include "condprint.h"

#include <stdio.h>
#include <string.h>

static void put(char *buf, size_t n, const char *s)
{
    size_t at = strlen(buf);
    if (at + 1 < n)
        snprintf(buf + at, n - at, "%s", s);
}

static void print_rec(const cond *c, const cond_style *st, char *buf, size_t n, int parent)
{
    char name[512];
    switch (c->kind) {
    case C_TRUE: put(buf, n, "true"); return;
    case C_FALSE: put(buf, n, "false"); return;
    case C_NOT:
        put(buf, n, st->not_open);
        print_rec(c->a, st, buf, n, 0);
        put(buf, n, ")");
        return;
    case C_CMP:
        st->operand(st->ctx, &c->l, name, sizeof name);
        put(buf, n, name);
        put(buf, n, c->ne ? " != " : " == ");
        st->operand(st->ctx, &c->r, name, sizeof name);
        put(buf, n, name);
        return;
    default: {
        int me = c->kind == C_AND ? 2 : 1;
        if (me < parent)
            put(buf, n, "(");
        print_rec(c->a, st, buf, n, me);
        put(buf, n, c->kind == C_AND ? st->and_op : st->or_op);
        print_rec(c->b, st, buf, n, me);
        if (me < parent)
            put(buf, n, ")");
        return;
    }
    }
}

void cond_print(const cond *c, const cond_style *st, char *buf, size_t n)
{
    print_rec(c, st, buf, n, 0);
}
