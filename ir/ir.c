/* Names and small helpers over the program IR. */
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *scope_name(scope_t s)
{
    static const char *names[] = {"none", "thread", "wave", "wg", "agent", "sys"};
    return names[s];
}

const char *order_name(order_t o)
{
    static const char *names[] = {"plain", "relaxed", "acquire", "release", "acq_rel", "seq_cst"};
    return names[o];
}

const char *rmw_name(rmwop_t r)
{
    static const char *names[] = {"add", "sub", "exch", "and", "or", "xor", "min", "max", "cas", "fadd"};
    return names[r];
}

const char *verdict_name(verdict_t v)
{
    static const char *names[] = {"allowed", "forbidden", "race", "holds", "fails", "hang", "error", "none"};
    return names[v];
}

const char *binop_spelling(binop_t op)
{
    static const char *const s[] = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>",
                                    "==", "!=", "<", "<=", ">", ">=", "&&", "||"};
    return s[op];
}

const char *vtype_name(vtype_t t)
{
    static const char *names[TY_NTYPES] = {"i32", "i64", "u32", "u64", "f32", "i8"};
    return names[t];
}

bool order_is_atomic(order_t o) { return o != ORD_PLAIN; }

int64_t normalize_value(vtype_t t, int64_t v)
{
    switch (t) {
    case TY_I32: return (int64_t)(int32_t)(uint32_t)v;
    case TY_I8: return (int64_t)(int8_t)(uint8_t)v;
    case TY_U32:
    case TY_F32: return (int64_t)(uint32_t)v;
    default: return v;
    }
}

/* Whether block b has an instruction of SHMEM role `role` on location loc. */
static bool block_uses(const block *b, int loc, int role)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if ((in->shmem_role == role && in->mem.loc == loc) || block_uses(&in->body, loc, role) ||
            block_uses(&in->els, loc, role))
            return true;
    }
    return false;
}

int64_t thread_group_fact(const test *t, int tid, int which)
{
    const thread *me = &t->threads[tid];
    if (which == GROUP_BARRIER_ALL || which == GROUP_SYNC_ALL) {
        const char *name = which == GROUP_BARRIER_ALL ? "__shmem_barrier_all" : "__shmem_sync_all";
        int loc = -1;
        for (int l = 0; l < t->nlocs && loc < 0; l++)
            if (strcmp(t->locs[l].name, name) == 0)
                loc = l;
        int64_t n = 0;
        for (int i = 0; i < t->nthreads; i++)
            n += block_uses(&t->threads[i].code, loc, SHM_BARRIER);
        return n;
    }
    bool wave = which == GROUP_WAVE_RANK || which == GROUP_WAVE_SIZE;
    int64_t rank = 0, size = 0;
    for (int i = 0; i < t->nthreads; i++) {
        const thread *o = &t->threads[i];
        if (o->host || o->gpu != me->gpu || o->wg != me->wg || (wave && o->wave != me->wave))
            continue;
        if (i < tid)
            rank++;
        size++;
    }
    return which == GROUP_WG_RANK || which == GROUP_WAVE_RANK ? rank : size;
}

void test_index_cells(test *t)
{
    free(t->cell_owner);
    t->cell_owner = malloc((size_t)(t->ncells ? t->ncells : 1) * sizeof *t->cell_owner);
    for (int i = 0; i < t->nlocs; i++)
        for (int k = 0; k < t->locs[i].len; k++)
            t->cell_owner[t->locs[i].first_cell + k] = i;
}

int cell_loc(const test *t, int cell)
{
    if (t->cell_owner && cell >= 0 && cell < t->ncells)
        return t->cell_owner[cell];
    for (int i = 0; i < t->nlocs; i++)
        if (cell >= t->locs[i].first_cell && cell < t->locs[i].first_cell + t->locs[i].len)
            return i;
    return -1;
}

void cell_name(const test *t, int cell, char *buf, int size)
{
    int l = cell_loc(t, cell);
    if (l < 0) {
        snprintf(buf, (size_t)size, "?%d", cell);
        return;
    }
    if (t->locs[l].len == 1)
        snprintf(buf, (size_t)size, "%s", t->locs[l].name);
    else
        snprintf(buf, (size_t)size, "%s[%d]", t->locs[l].name, cell - t->locs[l].first_cell);
}

void format_value(const test *t, int cell, int64_t v, char *buf, int size)
{
    int l = cell >= 0 ? cell_loc(t, cell) : -1;
    if (l >= 0 && t->locs[l].type == TY_F32) {
        uint32_t bits = (uint32_t)v;
        float f;
        memcpy(&f, &bits, sizeof f);
        snprintf(buf, (size_t)size, "%g", (double)f);
    } else {
        snprintf(buf, (size_t)size, "%lld", (long long)v);
    }
}

expr *expr_const(int64_t v, srcpos pos)
{
    expr *e = calloc(1, sizeof *e);
    e->kind = EX_CONST;
    e->value = v;
    e->pos = pos;
    return e;
}

expr *expr_reg(int reg, srcpos pos)
{
    expr *e = calloc(1, sizeof *e);
    e->kind = EX_REG;
    e->reg = reg;
    e->pos = pos;
    return e;
}

expr *expr_bin(binop_t op, expr *a, expr *b, srcpos pos)
{
    expr *e = calloc(1, sizeof *e);
    e->kind = EX_BIN;
    e->op = op;
    e->a = a;
    e->b = b;
    e->pos = pos;
    return e;
}

void expr_free(expr *e)
{
    if (!e)
        return;
    expr_free(e->a);
    expr_free(e->b);
    expr_free(e->c);
    free(e);
}

expr *expr_clone(const expr *e)
{
    if (!e)
        return NULL;
    expr *c = malloc(sizeof *c);
    *c = *e;
    c->a = expr_clone(e->a);
    c->b = expr_clone(e->b);
    c->c = expr_clone(e->c);
    return c;
}

size_t vtype_size(vtype_t t) { return t == TY_I64 || t == TY_U64 ? 8 : t == TY_I8 ? 1 : 4; }

void block_clone(block *dst, const block *src)
{
    dst->n = dst->cap = src->n;
    dst->v = src->n ? malloc((size_t)src->n * sizeof *dst->v) : NULL;
    for (int i = 0; i < src->n; i++) {
        inst *d = &dst->v[i];
        const inst *s = &src->v[i];
        *d = *s;
        d->mem.index = expr_clone(s->mem.index);
        d->mem.peer = expr_clone(s->mem.peer);
        d->mem.ptr = expr_clone(s->mem.ptr);
        d->val = expr_clone(s->val);
        d->val2 = expr_clone(s->val2);
        d->want = expr_clone(s->want);
        d->bar_id = expr_clone(s->bar_id);
        d->bar_count = expr_clone(s->bar_count);
        d->bar_quorum = expr_clone(s->bar_quorum);
        block_clone(&d->body, &s->body);
        block_clone(&d->els, &s->els);
    }
}

void block_push(block *b, const inst *in)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 8;
        b->v = realloc(b->v, (size_t)b->cap * sizeof *b->v);
    }
    b->v[b->n++] = *in;
}

void inst_free(inst *in)
{
    expr_free(in->mem.index);
    expr_free(in->mem.peer);
    expr_free(in->mem.ptr);
    expr_free(in->val);
    expr_free(in->val2);
    expr_free(in->want);
    expr_free(in->bar_id);
    expr_free(in->bar_count);
    expr_free(in->bar_quorum);
    block_free(&in->body);
    block_free(&in->els);
}

void block_free(block *b)
{
    for (int i = 0; i < b->n; i++)
        inst_free(&b->v[i]);
    free(b->v);
}

/* Front ends build chains of && and || leaning left; the loop walks that side so that freeing a long chain does not
   recurse once per operand. */
void cond_free(cond *c)
{
    while (c) {
        cond *left = c->a;
        cond_free(c->b);
        free(c);
        c = left;
    }
}

static bool is_chain(const cond *c, condkind_t kind) { return c && c->kind == kind && (kind == C_AND || kind == C_OR); }

static cond *balance_rec(cond *c);

/* The operands of the maximal run of one operator under c, left to right, and its operator nodes. */
static cond *balance_chain(cond *c)
{
    condkind_t kind = c->kind;
    int cap = 16, n = 0, nops = 0, top = 0;
    cond **leaf = malloc((size_t)cap * sizeof *leaf), **op = malloc((size_t)cap * sizeof *op),
         **stack = malloc((size_t)cap * sizeof *stack);
    stack[top++] = c;
    while (top) {
        cond *x = stack[--top];
        if (n + 2 > cap || nops + 2 > cap || top + 2 > cap) {
            cap *= 2;
            leaf = realloc(leaf, (size_t)cap * sizeof *leaf);
            op = realloc(op, (size_t)cap * sizeof *op);
            stack = realloc(stack, (size_t)cap * sizeof *stack);
        }
        if (is_chain(x, kind)) {
            op[nops++] = x;
            stack[top++] = x->b; /* popped after a: operands stay in order */
            stack[top++] = x->a;
        } else {
            leaf[n++] = balance_rec(x);
        }
    }
    /* Pair neighbours until one is left: n operands, n - 1 operator nodes reused, depth log2 n. */
    int used = 0;
    while (n > 1) {
        int m = 0;
        for (int i = 0; i + 1 < n; i += 2) {
            cond *j = op[used++];
            j->a = leaf[i];
            j->b = leaf[i + 1];
            leaf[m++] = j;
        }
        if (n % 2)
            leaf[m++] = leaf[n - 1];
        n = m;
    }
    cond *root = leaf[0];
    free(leaf);
    free(op);
    free(stack);
    return root;
}

static cond *balance_rec(cond *c)
{
    if (!c)
        return NULL;
    if (c->kind == C_AND || c->kind == C_OR)
        return balance_chain(c);
    if (c->kind == C_NOT)
        c->a = balance_rec(c->a);
    return c;
}

cond *cond_balance(cond *c) { return balance_rec(c); }

void test_free(test *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->nlocs; i++) {
        free(t->locs[i].name);
        free(t->locs[i].init);
        free(t->locs[i].alloc);
    }
    free(t->locs);
    for (int i = 0; i < t->nthreads; i++) {
        thread *th = &t->threads[i];
        free(th->name);
        for (int r = 0; r < th->nregs; r++)
            free(th->regs[r]);
        free(th->regs);
        block_free(&th->code);
    }
    free(t->threads);
    for (int i = 0; i < t->nkernels; i++) {
        free(t->kernels[i].name);
        free(t->kernels[i].after);
    }
    free(t->kernels);
    cond_free(t->cond);
    cond_free(t->filter);
    for (int i = 0; i < t->nexpects; i++)
        free(t->expects[i].model);
    free(t->expects);
    free(t->ssw);
    for (int v = 0; v < t->heap.nvars; v++) {
        free(t->heap.vars[v].name);
        free(t->heap.vars[v].loc);
    }
    free(t->heap.vars);
    for (int r = 0; t->heap.order && r < t->heap.ranks; r++) {
        free(t->heap.order[r]);
        free(t->heap.offset[r]);
    }
    free(t->heap.order);
    free(t->heap.offset);
    free(t->target);
    for (int i = 0; i < t->nsrcmap; i++) {
        free(t->srcmap[i].file);
        free(t->srcmap[i].what);
    }
    free(t->srcmap);
    free(t->cell_owner);
    for (int i = 0; i < t->nshmem_calls; i++)
        free(t->shmem_calls[i].name);
    free(t->shmem_calls);
    free(t->file);
    free(t->source);
    free(t->name);
    free(t);
}

const char *test_line_name(const test *t, int line, char *buf, size_t size)
{
    if (t->srcmap && line >= 1 && line <= t->nsrcmap && t->srcmap[line - 1].file) {
        const srcline *s = &t->srcmap[line - 1];
        const char *base = strrchr(s->file, '/');
        snprintf(buf, size, "%s:%d", base ? base + 1 : s->file, s->line);
    } else {
        snprintf(buf, size, "line %d", line);
    }
    return buf;
}

const char *test_pos_name(const test *t, srcpos p, char *buf, size_t size)
{
    if (t->srcmap && p.line >= 1 && p.line <= t->nsrcmap && t->srcmap[p.line - 1].file) {
        const srcline *s = &t->srcmap[p.line - 1];
        snprintf(buf, size, "%s:%d:%d", s->file, s->line, s->col);
    } else {
        snprintf(buf, size, "%s:%d:%d", t->file ? t->file : "", p.line, p.col);
    }
    return buf;
}

void test_kernel_order(const test *t, bool before[64][64])
{
    int nk = t->nkernels < 64 ? t->nkernels : 64;
    memset(before, 0, 64 * sizeof *before);
    for (int k = 0; k < nk; k++)
        for (int a = 0; a < t->kernels[k].nafter; a++)
            if (t->kernels[k].after[a] < 64)
                before[t->kernels[k].after[a]][k] = true;
    for (int m = 0; m < nk; m++)
        for (int i = 0; i < nk; i++)
            for (int j = 0; j < nk; j++)
                if (before[i][m] && before[m][j])
                    before[i][j] = true;
}

