#include "condprint.h"

#include <stdlib.h>
#include <string.h>

/* Text being built: into a fixed buffer (truncating) or a growing one. */
typedef struct {
    char *buf;
    size_t n, len;
    bool grow;
} out;

static void put(out *o, const char *s)
{
    size_t k = strlen(s);
    if (o->grow && o->len + k + 1 > o->n) {
        while (o->len + k + 1 > o->n)
            o->n *= 2;
        o->buf = realloc(o->buf, o->n);
    }
    if (o->len + 1 >= o->n)
        return;
    size_t room = o->n - 1 - o->len;
    size_t copy = k < room ? k : room;
    memcpy(o->buf + o->len, s, copy);
    o->len += copy;
    o->buf[o->len] = 0;
}

static void print_rec(const cond *c, const cond_style *st, out *o, int parent)
{
    char name[512];
    switch (c->kind) {
    case C_TRUE: put(o, "true"); return;
    case C_FALSE: put(o, "false"); return;
    case C_NOT:
        put(o, st->not_open);
        print_rec(c->a, st, o, 0);
        put(o, ")");
        return;
    case C_CMP:
        st->operand(st->ctx, &c->l, name, sizeof name);
        put(o, name);
        put(o, c->ne ? " != " : " == ");
        st->operand(st->ctx, &c->r, name, sizeof name);
        put(o, name);
        return;
    default: {
        int me = c->kind == C_AND ? 2 : 1;
        if (me < parent)
            put(o, "(");
        print_rec(c->a, st, o, me);
        put(o, c->kind == C_AND ? st->and_op : st->or_op);
        print_rec(c->b, st, o, me);
        if (me < parent)
            put(o, ")");
        return;
    }
    }
}

void cond_print(const cond *c, const cond_style *st, char *buf, size_t n)
{
    if (n == 0)
        return;
    out o = {buf, n, strlen(buf), false};
    print_rec(c, st, &o, 0);
}

char *cond_text(const cond *c, const cond_style *st)
{
    out o = {malloc(256), 256, 0, true};
    o.buf[0] = 0;
    print_rec(c, st, &o, 0);
    return o.buf;
}
