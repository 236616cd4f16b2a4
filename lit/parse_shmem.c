/* SHMEM device calls (OpenSHMEM 1.5, NVSHMEM, rocSHMEM) as .lit statements.
 *
 * A call is written as in C, `nvshmem_int_put_nbi(halo[0], buf[1], 2, left)`,
 * and desugared here into the IR's loads, stores, atomics, fences and awaits,
 * each tagged with the call it came from (inst.shmem) and what it stands for
 * (inst.shmem_role), so that reports name the call.  docs/models.md §7 gives
 * the events and orderings of each call and the specification section it
 * follows; the one thing the IR cannot say by itself, shmem_fence's per-PE
 * ordering, is done by sim/symexec.c from the roles. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_internal.h"

static const char *const prefixes[] = {"nvshmemx_", "nvshmem_", "rocshmemx_", "rocshmem_", "shmemx_", "shmem_", NULL};

bool shmem_call_name(const token *tk)
{
    if (tk->kind != T_IDENT)
        return false;
    for (int i = 0; prefixes[i]; i++) {
        size_t n = strlen(prefixes[i]);
        if ((size_t)tk->len > n && strncmp(tk->start, prefixes[i], n) == 0)
            return true;
    }
    return false;
}

typedef enum {
    OP_PUT, OP_P, OP_GET, OP_G, OP_INC, OP_ADD, OP_SET, OP_AND, OP_OR, OP_XOR, OP_FETCH_INC, OP_FETCH_ADD,
    OP_FETCH_AND, OP_FETCH_OR, OP_FETCH_XOR, OP_FETCH, OP_SWAP, OP_CSWAP, OP_FENCE, OP_QUIET, OP_BARRIER_ALL,
    OP_SYNC_ALL, OP_SIGNAL_OP, OP_PUT_SIGNAL, OP_WAIT_UNTIL, OP_WAIT_UNTIL_ALL, OP_WAIT_UNTIL_ANY,
    OP_SIGNAL_WAIT_UNTIL
} shop_t;

static const struct {
    const char *name;
    shop_t op;
    bool returns;   /* the call returns a value */
    bool typed;     /* takes a TYPENAME (or a mem form) */
} ops[] = {
    {"put", OP_PUT, false, true}, {"putmem", OP_PUT, false, false}, {"p", OP_P, false, true},
    {"get", OP_GET, false, true}, {"getmem", OP_GET, false, false}, {"g", OP_G, true, true},
    {"atomic_inc", OP_INC, false, true}, {"atomic_add", OP_ADD, false, true}, {"atomic_set", OP_SET, false, true},
    {"atomic_and", OP_AND, false, true}, {"atomic_or", OP_OR, false, true}, {"atomic_xor", OP_XOR, false, true},
    {"atomic_fetch_inc", OP_FETCH_INC, true, true}, {"atomic_fetch_add", OP_FETCH_ADD, true, true},
    {"atomic_fetch_and", OP_FETCH_AND, true, true}, {"atomic_fetch_or", OP_FETCH_OR, true, true},
    {"atomic_fetch_xor", OP_FETCH_XOR, true, true}, {"atomic_fetch", OP_FETCH, true, true},
    {"atomic_swap", OP_SWAP, true, true}, {"atomic_compare_swap", OP_CSWAP, true, true},
    {"fence", OP_FENCE, false, false}, {"quiet", OP_QUIET, false, false},
    {"barrier_all", OP_BARRIER_ALL, false, false}, {"sync_all", OP_SYNC_ALL, false, false},
    {"signal_op", OP_SIGNAL_OP, false, false}, {"put_signal", OP_PUT_SIGNAL, false, true},
    {"putmem_signal", OP_PUT_SIGNAL, false, false}, {"wait_until", OP_WAIT_UNTIL, false, true},
    {"wait_until_all", OP_WAIT_UNTIL_ALL, false, true}, {"wait_until_any", OP_WAIT_UNTIL_ANY, true, true},
    {"signal_wait_until", OP_SIGNAL_WAIT_UNTIL, true, false},
};

/* OpenSHMEM 1.5 Table 5 (RMA and AMO standard types) and the
 * point-to-point synchronization types: TYPENAME and its size in bytes. */
static const struct {
    const char *name;
    int size;
} typenames[] = {
    {"float", 4}, {"double", 8}, {"char", 1}, {"schar", 1}, {"short", 2}, {"int", 4}, {"long", 8}, {"longlong", 8},
    {"uchar", 1}, {"ushort", 2}, {"uint", 4}, {"ulong", 8}, {"ulonglong", 8}, {"int8", 1}, {"int16", 2},
    {"int32", 4}, {"int64", 8}, {"uint8", 1}, {"uint16", 2}, {"uint32", 4}, {"uint64", 8}, {"size", 8},
    {"ptrdiff", 8},
};

typedef struct {
    shop_t op;
    bool returns, nbi;
    int group;          /* 0: one thread; SCOPE_WG: _block/_wg; SCOPE_WAVE: _warp/_wave */
    int type_size;      /* 0: no TYPENAME (a mem form, or none) */
    bool mem_form;      /* putmem/getmem: nelems counts bytes */
    int call;           /* index in test.shmem_calls */
    char name[96];
} shcall;

static bool ends_with(const char *s, size_t n, const char *suffix, size_t *rest)
{
    size_t k = strlen(suffix);
    if (n < k || memcmp(s + n - k, suffix, k) != 0)
        return false;
    *rest = n - k;
    return true;
}

/* Splits PREFIX[TYPENAME_]OP[_nbi][_block|_warp|_wg|_wave]. */
static bool split_name(parser *p, const token *tk, shcall *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%.*s", tk->len > 95 ? 95 : tk->len, tk->start);
    const char *s = tk->start;
    size_t n = (size_t)tk->len;
    for (int i = 0; prefixes[i]; i++) {
        size_t k = strlen(prefixes[i]);
        if (n > k && strncmp(s, prefixes[i], k) == 0) {
            s += k;
            n -= k;
            break;
        }
    }
    size_t rest;
    static const struct { const char *w; int g; } groups[] = {
        {"_block", SCOPE_WG}, {"_wg", SCOPE_WG}, {"_warp", SCOPE_WAVE}, {"_wave", SCOPE_WAVE}};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (ends_with(s, n, groups[i].w, &rest)) {
            c->group = groups[i].g;
            n = rest;
            break;
        }
    if (ends_with(s, n, "_nbi", &rest)) {
        c->nbi = true;
        n = rest;
    }
    /* The longest operation name that ends the rest, after '_' or at its start. */
    int best = -1;
    size_t bestlen = 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t k = strlen(ops[i].name);
        if (ends_with(s, n, ops[i].name, &rest) && (rest == 0 || s[rest - 1] == '_') && k > bestlen) {
            best = (int)i;
            bestlen = k;
        }
    }
    if (best < 0) {
        ERR_AT(*tk, "unknown SHMEM call '%s' (memsim knows put, p, get, g, the atomics, fence, quiet, barrier_all, "
                    "sync_all, signal_op, put_signal, wait_until[_all|_any] and signal_wait_until)",
               c->name);
        return false;
    }
    c->op = ops[best].op;
    c->returns = ops[best].returns;
    c->mem_form = strstr(ops[best].name, "mem") != NULL;
    size_t tlen = n - bestlen;
    if (tlen > 0) {
        tlen--; /* the '_' before the operation */
        if (!ops[best].typed) {
            ERR_AT(*tk, "%s: '%s' takes no type name", c->name, ops[best].name);
            return false;
        }
        for (size_t i = 0; i < sizeof typenames / sizeof typenames[0]; i++)
            if (strlen(typenames[i].name) == tlen && memcmp(s, typenames[i].name, tlen) == 0)
                c->type_size = typenames[i].size;
        if (!c->type_size) {
            ERR_AT(*tk, "%s: unknown type name '%.*s' (int, long, uint64, float, ... as in OpenSHMEM 1.5 Table 5)",
                   c->name, (int)tlen, s);
            return false;
        }
    }
    bool rma = c->op == OP_PUT || c->op == OP_GET || c->op == OP_PUT_SIGNAL;
    if (c->nbi && !rma) {
        ERR_AT(*tk, "%s: only put, get and put_signal have a non-blocking (_nbi) form", c->name);
        return false;
    }
    if (c->group && !rma) {
        ERR_AT(*tk, "%s: only put, get and put_signal have block and warp forms", c->name);
        return false;
    }
    if (c->group == SCOPE_WAVE && c->op == OP_PUT_SIGNAL) {
        ERR_AT(*tk, "%s: the warp form of put_signal is not supported (it needs a warp barrier)", c->name);
        return false;
    }
    return true;
}

/* ---- building instructions ------------------------------------------------ */

static int hidden_reg(parser *p, const shcall *c, const char *what)
{
    char buf[64];
    if (c)
        snprintf(buf, sizeof buf, "__shm%d_%s", c->call, what);
    else
        snprintf(buf, sizeof buf, "__shm_%s", what);
    token tk = {.kind = T_IDENT, .start = buf, .len = (int)strlen(buf), .line = p->tok.line, .col = p->tok.col};
    return def_reg(p, &tk);
}

static inst base_inst(const shcall *c, instkind_t kind, int role, srcpos pos)
{
    inst in = {0};
    in.kind = kind;
    in.dst = -1;
    in.pos = pos;
    in.shmem = c->call + 1;
    in.shmem_role = (uint8_t)role;
    in.mem.symvar = -1;
    in.mem.loc = -1;
    return in;
}

static expr *group_expr(int which, srcpos pos)
{
    expr *e = expr_const(which, pos);
    e->kind = EX_GROUP;
    return e;
}

static memref memref_clone(const memref *m)
{
    memref r = *m;
    r.index = expr_clone(m->index);
    r.peer = expr_clone(m->peer);
    r.ptr = expr_clone(m->ptr);
    return r;
}

/* m's element `base + k`: its index moved by register k. */
static memref memref_at(const memref *m, int kreg, expr *peer, srcpos pos)
{
    memref r = memref_clone(m);
    expr *k = expr_reg(kreg, pos);
    r.index = r.index ? expr_bin(BIN_ADD, r.index, k, pos) : k;
    if (peer) {
        r.peer = peer;
    }
    return r;
}

static void free_memref(memref *m)
{
    expr_free(m->index);
    expr_free(m->peer);
    expr_free(m->ptr);
}

/* ---- arguments -------------------------------------------------------------- */

static int var_size(parser *p, const memref *m, const char **name)
{
    if (m->symvar >= 0) {
        *name = p->t->heap.vars[m->symvar].name;
        return (int)vtype_size(p->t->heap.vars[m->symvar].type);
    }
    *name = p->t->locs[m->loc].name;
    return (int)vtype_size(p->t->locs[m->loc].type);
}

/* A symmetric object of the calling PE; the PE comes as its own argument. */
static bool sym_arg(parser *p, const shcall *c, memref *m, const char *what)
{
    token at = p->tok;
    if (p->tok.kind != T_IDENT || find_symvar(p->t, p->tok.start, p->tok.len) < 0) {
        ERR("%s: the %s must be a variable of the symmetric heap", c->name, what);
        return false;
    }
    if (!parse_memref(p, m))
        return false;
    if (m->peer) {
        ERR_AT(at, "%s: write the %s as the calling PE names it, without '@': the PE is the call's last argument", c->name,
               what);
        return false;
    }
    const char *name;
    int sz = var_size(p, m, &name);
    if (c->type_size && c->type_size != sz) {
        ERR_AT(at, "%s: its type has %d bytes, but '%s' has %d-byte elements", c->name, c->type_size, name, sz);
        return false;
    }
    return true;
}

/* Local memory of the calling thread: a heap variable's own copy or a location. */
static bool local_arg(parser *p, const shcall *c, memref *m, const char *what)
{
    token at = p->tok;
    if (!parse_memref(p, m))
        return false;
    if (m->peer || m->ptr) {
        ERR_AT(at, "%s: the %s is the calling PE's own memory: write it without '@'", c->name, what);
        return false;
    }
    const char *name;
    int sz = var_size(p, m, &name);
    if (c->type_size && c->type_size != sz) {
        ERR_AT(at, "%s: its type has %d bytes, but '%s' has %d-byte elements", c->name, c->type_size, name, sz);
        return false;
    }
    return true;
}

static bool comma(parser *p, const shcall *c)
{
    if (p->tok.kind == T_COMMA) {
        advance(p);
        return true;
    }
    if (!failed(p)) {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("%s: expected ',' and the next argument, found %s", c->name, got);
    }
    return false;
}

static expr *expr_arg(parser *p) { return parse_expr(p); }

/* NVSHMEM_CMP_GE, SHMEM_CMP_GE, ROCSHMEM_CMP_GE, ...: the comparison. */
static bool cmp_arg(parser *p, const shcall *c, binop_t *op)
{
    static const struct { const char *w; binop_t op; } tab[] = {
        {"CMP_EQ", BIN_EQ}, {"CMP_NE", BIN_NE}, {"CMP_GT", BIN_GT}, {"CMP_GE", BIN_GE}, {"CMP_LT", BIN_LT}, {"CMP_LE", BIN_LE}};
    size_t rest;
    if (p->tok.kind == T_IDENT)
        for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
            if (ends_with(p->tok.start, (size_t)p->tok.len, tab[i].w, &rest) &&
                (rest == 0 || p->tok.start[rest - 1] == '_')) {
                *op = tab[i].op;
                advance(p);
                return true;
            }
    ERR("%s: expected a comparison: NVSHMEM_CMP_EQ, _NE, _GT, _GE, _LT or _LE (any SHMEM prefix)", c->name);
    return false;
}

/* NVSHMEM_SIGNAL_SET / _ADD: the signal update, as an atomic operation. */
static bool sigop_arg(parser *p, const shcall *c, rmwop_t *op)
{
    size_t rest;
    if (p->tok.kind == T_IDENT) {
        if (ends_with(p->tok.start, (size_t)p->tok.len, "SIGNAL_SET", &rest)) {
            *op = RMW_EXCH;
            advance(p);
            return true;
        }
        if (ends_with(p->tok.start, (size_t)p->tok.len, "SIGNAL_ADD", &rest)) {
            *op = RMW_ADD;
            advance(p);
            return true;
        }
    }
    ERR("%s: expected the signal operation NVSHMEM_SIGNAL_SET or NVSHMEM_SIGNAL_ADD (any SHMEM prefix)", c->name);
    return false;
}

/* The status array of wait_until_all/any: only NULL (every element takes part). */
static bool status_arg(parser *p, const shcall *c)
{
    if ((p->tok.kind == T_IDENT && (tok_is(&p->tok, "NULL") || tok_is(&p->tok, "nullptr"))) ||
        (p->tok.kind == T_INT && p->tok.ival == 0)) {
        advance(p);
        return true;
    }
    ERR("%s: a status array is not supported: pass NULL (every element takes part)", c->name);
    return false;
}

/* ---- the desugaring ------------------------------------------------------------ */

/* for k in first..n step stride { body }: one thread's share of the range
 * (the whole range, or for a block/warp form its round-robin share). */
static inst range_loop(parser *p, const shcall *c, int kreg, expr *n, srcpos pos)
{
    inst loop = base_inst(c, I_FOR, SHM_INTERNAL, pos);
    loop.dst = kreg;
    if (c->group) {
        loop.val = group_expr(c->group == SCOPE_WG ? GROUP_WG_RANK : GROUP_WAVE_RANK, pos);
        loop.want = group_expr(c->group == SCOPE_WG ? GROUP_WG_SIZE : GROUP_WAVE_SIZE, pos);
    } else {
        loop.val = expr_const(0, pos);
    }
    loop.val2 = n;
    (void)p;
    return loop;
}

/* putmem/getmem count bytes: the number of elements of `name`. */
static expr *element_count(parser *p, const shcall *c, expr *n, const memref *m, srcpos pos)
{
    if (!c->mem_form)
        return n;
    const char *name;
    int sz = var_size(p, m, &name);
    if (n->kind == EX_CONST && n->value % sz) {
        diag_error(p->d, n->pos.line, n->pos.col, "%s: %" PRId64 " bytes is not a whole number of '%s' elements (%d bytes)",
                   c->name, n->value, name, sz);
        expr_free(n);
        return NULL;
    }
    return expr_bin(BIN_DIV, n, expr_const(sz, pos), pos);
}

static void push_put(parser *p, block *b, const shcall *c, memref *dest, memref *src, expr *val, expr *n, expr *pe,
                     srcpos pos)
{
    if (val) {
        /* p: one element, the value given. */
        inst st = base_inst(c, I_ST, SHM_PUT, pos);
        st.ord = ORD_RELAXED;
        st.scope = SCOPE_SYS;
        st.mem = *dest;
        st.mem.peer = pe;
        st.val = val;
        block_push(b, &st);
        return;
    }
    int k = hidden_reg(p, c, "k"), v = hidden_reg(p, c, "v");
    inst loop = range_loop(p, c, k, n, pos);
    inst ld = base_inst(c, I_LD, SHM_SOURCE, pos);
    ld.dst = v;
    ld.mem = memref_at(src, k, NULL, pos);
    block_push(&loop.body, &ld);
    inst st = base_inst(c, I_ST, SHM_PUT, pos);
    st.ord = ORD_RELAXED;
    st.scope = SCOPE_SYS;
    st.mem = memref_at(dest, k, pe, pos);
    st.val = expr_reg(v, pos);
    block_push(&loop.body, &st);
    block_push(b, &loop);
    free_memref(dest);
    free_memref(src);
}

static void push_get(parser *p, block *b, const shcall *c, memref *dest, memref *src, expr *n, expr *pe, srcpos pos)
{
    int k = hidden_reg(p, c, "k"), v = hidden_reg(p, c, "v");
    inst loop = range_loop(p, c, k, n, pos);
    inst ld = base_inst(c, I_LD, SHM_GET, pos);
    ld.ord = ORD_RELAXED;
    ld.scope = SCOPE_SYS;
    ld.dst = v;
    ld.mem = memref_at(src, k, pe, pos);
    block_push(&loop.body, &ld);
    inst st = base_inst(c, I_ST, SHM_GET, pos);
    st.mem = memref_at(dest, k, NULL, pos);
    st.val = expr_reg(v, pos);
    block_push(&loop.body, &st);
    block_push(b, &loop);
    free_memref(dest);
    free_memref(src);
}

static void push_amo(block *b, const shcall *c, int role, rmwop_t op, order_t ord, int dst, memref *dest, expr *pe,
                     expr *val, expr *val2, srcpos pos)
{
    inst in = base_inst(c, I_RMW, role, pos);
    in.rmw = op;
    in.ord = ord;
    in.fail_ord = ORD_RELAXED;
    in.scope = SCOPE_SYS;
    in.dst = dst;
    in.mem = *dest;
    in.mem.peer = pe;
    in.val = val;
    in.val2 = val2;
    block_push(b, &in);
}

static void push_fence(block *b, const shcall *c, int role, order_t ord, srcpos pos)
{
    inst in = base_inst(c, I_FENCE, role, pos);
    in.ord = ord;
    in.scope = SCOPE_SYS;
    block_push(b, &in);
}

static void push_await(block *b, const shcall *c, int dst, const memref *m, binop_t cmp, expr *want, srcpos pos)
{
    inst in = base_inst(c, I_AWAIT, SHM_WAIT, pos);
    in.ord = ORD_ACQUIRE;
    in.scope = SCOPE_SYS;
    in.dst = dst;
    in.mem = *m;
    in.await_op = cmp;
    in.want = want;
    block_push(b, &in);
}

/* The hidden counter of barrier_all or sync_all, a location homed on gpu0. */
static int barrier_counter(parser *p, const char *name)
{
    int l = find_loc(p->t, name, (int)strlen(name));
    if (l >= 0)
        return l;
    test *t = p->t;
    location L = {0};
    L.name = strdup(name);
    L.type = TY_I64;
    L.len = 1;
    L.init = calloc(1, sizeof *L.init);
    L.home = 0;
    L.gran = GRAN_FINE;
    L.pos = here(p);
    L.first_cell = t->ncells;
    t->ncells += 1;
    grow((void **)&t->locs, t->nlocs, &p->loc_capacity, sizeof *t->locs);
    t->locs[t->nlocs++] = L;
    return t->nlocs - 1;
}

/* barrier_all = quiet, then every caller adds 1 to a counter and waits until
 * it reaches epoch x callers (OpenSHMEM 1.5 §9.9.3); sync_all the same
 * without the quiet (§9.9.5). */
static void push_barrier(parser *p, block *b, const shcall *c, bool all, srcpos pos)
{
    if (all)
        push_fence(b, c, SHM_QUIET, ORD_ACQ_REL, pos);
    int counter = barrier_counter(p, all ? "__shmem_barrier_all" : "__shmem_sync_all");
    int epoch = hidden_reg(p, NULL, all ? "barrier_epoch" : "sync_epoch");
    inst inc = base_inst(c, I_ASSIGN, SHM_INTERNAL, pos);
    inc.dst = epoch;
    inc.val = expr_bin(BIN_ADD, expr_reg(epoch, pos), expr_const(1, pos), pos);
    block_push(b, &inc);
    memref m = {.loc = counter, .symvar = -1};
    push_amo(b, c, SHM_BARRIER, RMW_ADD, ORD_ACQ_REL, -1, &m, NULL, expr_const(1, pos), NULL, pos);
    expr *want = expr_bin(BIN_MUL, expr_reg(epoch, pos), group_expr(all ? GROUP_BARRIER_ALL : GROUP_SYNC_ALL, pos), pos);
    push_await(b, c, -1, &m, BIN_GE, want, pos);
    b->v[b->n - 1].shmem_role = SHM_BARRIER;
}

static int record_call(parser *p, const shcall *c, srcpos pos)
{
    test *t = p->t;
    t->shmem_calls = realloc(t->shmem_calls, (size_t)(t->nshmem_calls + 1) * sizeof *t->shmem_calls);
    t->shmem_calls[t->nshmem_calls] = (shmem_call){strdup(c->name), pos};
    return t->nshmem_calls++;
}

/* [dst =] CALL(args): pushes the desugared statements onto b. */
bool parse_shmem_call(parser *p, block *b, int dst)
{
    token tk = p->tok;
    srcpos pos = {tk.line, tk.col};
    shcall c;
    if (!split_name(p, &tk, &c))
        return false;
    if (dst >= 0 && !c.returns) {
        ERR_AT(tk, "%s returns nothing", c.name);
        return false;
    }
    advance(p);
    if (!expect_tok(p, T_LPAREN, "after the SHMEM call's name"))
        return false;
    c.call = record_call(p, &c, pos);
    memref dest = {.loc = -1, .symvar = -1}, src = {.loc = -1, .symvar = -1};
    expr *n = NULL, *pe = NULL, *val = NULL, *val2 = NULL;
    bool ok = false;
    binop_t cmp = BIN_EQ;
    rmwop_t sigop = RMW_ADD;
    switch (c.op) {
    case OP_PUT:
    case OP_GET:
        /* (dest, source, nelems, pe) */
        if (c.op == OP_PUT)
            ok = sym_arg(p, &c, &dest, "destination") && comma(p, &c) && local_arg(p, &c, &src, "source");
        else
            ok = local_arg(p, &c, &dest, "destination") && comma(p, &c) && sym_arg(p, &c, &src, "source");
        ok = ok && comma(p, &c) && (n = expr_arg(p)) && comma(p, &c) && (pe = expr_arg(p));
        if (ok && !(n = element_count(p, &c, n, c.op == OP_PUT ? &dest : &src, pos)))
            ok = false;
        break;
    case OP_P:
        ok = sym_arg(p, &c, &dest, "destination") && comma(p, &c) && (val = expr_arg(p)) && comma(p, &c) &&
             (pe = expr_arg(p));
        break;
    case OP_G:
    case OP_FETCH:
    case OP_INC:
    case OP_FETCH_INC:
        ok = sym_arg(p, &c, &dest, c.op == OP_G || c.op == OP_FETCH ? "source" : "destination") && comma(p, &c) &&
             (pe = expr_arg(p));
        break;
    case OP_ADD: case OP_SET: case OP_AND: case OP_OR: case OP_XOR:
    case OP_FETCH_ADD: case OP_FETCH_AND: case OP_FETCH_OR: case OP_FETCH_XOR: case OP_SWAP:
        ok = sym_arg(p, &c, &dest, "destination") && comma(p, &c) && (val = expr_arg(p)) && comma(p, &c) &&
             (pe = expr_arg(p));
        break;
    case OP_CSWAP:
        ok = sym_arg(p, &c, &dest, "destination") && comma(p, &c) && (val = expr_arg(p)) && comma(p, &c) &&
             (val2 = expr_arg(p)) && comma(p, &c) && (pe = expr_arg(p));
        break;
    case OP_FENCE: case OP_QUIET: case OP_BARRIER_ALL: case OP_SYNC_ALL:
        ok = true;
        break;
    case OP_SIGNAL_OP:
        /* (sig_addr, signal, sig_op, pe) */
        ok = sym_arg(p, &c, &dest, "signal") && comma(p, &c) && (val = expr_arg(p)) && comma(p, &c) &&
             sigop_arg(p, &c, &sigop) && comma(p, &c) && (pe = expr_arg(p));
        break;
    case OP_PUT_SIGNAL: {
        /* (dest, source, nelems, sig_addr, signal, sig_op, pe) */
        memref sig = {.loc = -1, .symvar = -1};
        ok = sym_arg(p, &c, &dest, "destination") && comma(p, &c) && local_arg(p, &c, &src, "source") && comma(p, &c) &&
             (n = expr_arg(p)) && comma(p, &c);
        if (ok) {
            shcall untyped = c;
            untyped.type_size = 0; /* the signal is a uint64_t, whatever the data's type */
            ok = sym_arg(p, &untyped, &sig, "signal");
        }
        ok = ok && comma(p, &c) && (val = expr_arg(p)) && comma(p, &c) && sigop_arg(p, &c, &sigop) && comma(p, &c) &&
             (pe = expr_arg(p));
        if (ok && !(n = element_count(p, &c, n, &dest, pos)))
            ok = false;
        if (ok && !expect_tok(p, T_RPAREN, "to close the call"))
            ok = false;
        if (!ok) {
            free_memref(&dest);
            free_memref(&src);
            free_memref(&sig);
            expr_free(n);
            expr_free(val);
            expr_free(pe);
            return false;
        }
        push_put(p, b, &c, &dest, &src, NULL, n, expr_clone(pe), pos);
        if (c.group == SCOPE_WG) {
            /* One signal for the block, after every thread's share. */
            inst bar = base_inst(&c, I_BARRIER, SHM_INTERNAL, pos);
            block_push(b, &bar);
            inst lead = base_inst(&c, I_IF, SHM_INTERNAL, pos);
            lead.val = expr_bin(BIN_EQ, group_expr(GROUP_WG_RANK, pos), expr_const(0, pos), pos);
            push_amo(&lead.body, &c, SHM_SIGNAL, sigop, ORD_RELEASE, -1, &sig, pe, val, NULL, pos);
            block_push(b, &lead);
        } else {
            push_amo(b, &c, SHM_SIGNAL, sigop, ORD_RELEASE, -1, &sig, pe, val, NULL, pos);
        }
        return true;
    }
    case OP_WAIT_UNTIL:
    case OP_SIGNAL_WAIT_UNTIL:
        ok = local_arg(p, &c, &dest, c.op == OP_WAIT_UNTIL ? "variable" : "signal") && comma(p, &c) &&
             cmp_arg(p, &c, &cmp) && comma(p, &c) && (val = expr_arg(p));
        break;
    case OP_WAIT_UNTIL_ALL:
    case OP_WAIT_UNTIL_ANY:
        /* (ivars, nelems, status, cmp, cmp_value) */
        ok = local_arg(p, &c, &dest, "variables") && comma(p, &c) && (n = expr_arg(p)) && comma(p, &c) &&
             status_arg(p, &c) && comma(p, &c) && cmp_arg(p, &c, &cmp) && comma(p, &c) && (val = expr_arg(p));
        break;
    }
    if (ok && !expect_tok(p, T_RPAREN, "to close the call"))
        ok = false;
    if (!ok) {
        free_memref(&dest);
        free_memref(&src);
        expr_free(n);
        expr_free(pe);
        expr_free(val);
        expr_free(val2);
        return false;
    }
    switch (c.op) {
    case OP_PUT:
        push_put(p, b, &c, &dest, &src, NULL, n, pe, pos);
        break;
    case OP_P:
        push_put(p, b, &c, &dest, NULL, val, NULL, pe, pos);
        break;
    case OP_GET:
        push_get(p, b, &c, &dest, &src, n, pe, pos);
        break;
    case OP_G:
    case OP_FETCH: {
        inst ld = base_inst(&c, I_LD, c.op == OP_G ? SHM_GET : SHM_AMO, pos);
        ld.ord = ORD_RELAXED;
        ld.scope = SCOPE_SYS;
        ld.dst = dst;
        ld.mem = dest;
        ld.mem.peer = pe;
        block_push(b, &ld);
        break;
    }
    case OP_INC:
    case OP_FETCH_INC:
        push_amo(b, &c, SHM_AMO, RMW_ADD, ORD_RELAXED, dst, &dest, pe, expr_const(1, pos), NULL, pos);
        break;
    case OP_ADD: case OP_FETCH_ADD:
        push_amo(b, &c, SHM_AMO, RMW_ADD, ORD_RELAXED, dst, &dest, pe, val, NULL, pos);
        break;
    case OP_SET: case OP_SWAP:
        push_amo(b, &c, SHM_AMO, RMW_EXCH, ORD_RELAXED, dst, &dest, pe, val, NULL, pos);
        break;
    case OP_AND: case OP_FETCH_AND:
        push_amo(b, &c, SHM_AMO, RMW_AND, ORD_RELAXED, dst, &dest, pe, val, NULL, pos);
        break;
    case OP_OR: case OP_FETCH_OR:
        push_amo(b, &c, SHM_AMO, RMW_OR, ORD_RELAXED, dst, &dest, pe, val, NULL, pos);
        break;
    case OP_XOR: case OP_FETCH_XOR:
        push_amo(b, &c, SHM_AMO, RMW_XOR, ORD_RELAXED, dst, &dest, pe, val, NULL, pos);
        break;
    case OP_CSWAP:
        push_amo(b, &c, SHM_AMO, RMW_CAS, ORD_RELAXED, dst, &dest, pe, val, val2, pos);
        break;
    case OP_FENCE:
        push_fence(b, &c, SHM_FENCE, ORD_RELEASE, pos);
        break;
    case OP_QUIET:
        push_fence(b, &c, SHM_QUIET, ORD_ACQ_REL, pos);
        break;
    case OP_BARRIER_ALL:
    case OP_SYNC_ALL:
        push_barrier(p, b, &c, c.op == OP_BARRIER_ALL, pos);
        break;
    case OP_SIGNAL_OP:
        push_amo(b, &c, SHM_SIGNAL, sigop, ORD_RELAXED, -1, &dest, pe, val, NULL, pos);
        break;
    case OP_WAIT_UNTIL:
    case OP_SIGNAL_WAIT_UNTIL:
        push_await(b, &c, dst, &dest, cmp, val, pos);
        break;
    case OP_WAIT_UNTIL_ALL: {
        int k = hidden_reg(p, &c, "k");
        inst loop = range_loop(p, &c, k, n, pos);
        memref m = memref_at(&dest, k, NULL, pos);
        push_await(&loop.body, &c, -1, &m, cmp, val, pos);
        block_push(b, &loop);
        free_memref(&dest);
        break;
    }
    case OP_WAIT_UNTIL_ANY: {
        inst in = base_inst(&c, I_AWAIT, SHM_WAIT, pos);
        in.ord = ORD_ACQUIRE;
        in.scope = SCOPE_SYS;
        in.dst = dst;
        in.mem = dest;
        in.await_op = cmp;
        in.want = val;
        in.val2 = n; /* the number of variables: the await succeeds on any of them */
        block_push(b, &in);
        break;
    }
    default:
        break;
    }
    return true;
}
