#include "symexec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64, MAX_LOOP_ITERATIONS = 100000 };
/* An error, not a crash: the .lit parser allows deeper nesting (IR_MAX_NESTING) than a path's frame stack holds. */
static const char TOO_DEEP[] = "blocks nested more than 64 deep (if, else if, while and for each add a level)";
_Static_assert(MAX_DEPTH == 64, "TOO_DEEP names MAX_DEPTH");

typedef struct {
    const block *b;
    int i;
    const inst *loop;    /* a for loop's body frame: the loop, its counter and bound */
    int64_t cur, to, step;
    long iterations;
    int ev_start;        /* a while loop: the first event of the current iteration */
} frame;

typedef struct {
    frame stack[MAX_DEPTH];
    int depth;
    int *regs;
    uint64_t ctrl;
    pevent *ev;
    int nev, evcap;
    int *cons;
    int ncons, conscap;
    int nreads, nbar;
    int forced_index;    /* element chosen by a fork on a symbolic index, or -1 */
    bool done;           /* the path ended inside the current instruction */
    char *expr_error;    /* a run-time error met while evaluating (translate) */
    char *warn;          /* the first problem the path went on after */
    const inst *warn_at;
    /* shmem_fence (docs/models.md §7): PEs that SHMEM puts and atomics went
     * to since the last fence or quiet, the PEs a fence has since ordered
     * them for, and that fence. */
    uint64_t shm_sent, shm_fenced;
    const inst *shm_fence_at;
    int snap[64];        /* registers at the start of the innermost while loop's iteration */
    int snap_depth;      /* the frame depth that snap belongs to (0: none) */
    /* The boundaries of while loops' iterations, for livelock detection
     * (sim/livelock.c): entries of (frame depth, event index, registers),
     * one at a loop's entry and one at the end of each iteration. */
    int *lasso;
    int nlasso, lassocap;
} pstate;

typedef struct {
    const test *t;
    const thread *th;
    int tid;
    thread_paths *out;
    pstate **work;
    int nwork, workcap;
    char *err;
    size_t errsz;
    bool failed;
} sx;

int64_t apply_binop(binop_t op, int64_t a, int64_t b)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op) {
    case BIN_ADD: return (int64_t)(ua + ub);
    case BIN_SUB: return (int64_t)(ua - ub);
    case BIN_MUL: return (int64_t)(ua * ub);
    case BIN_DIV: return b == 0 || (a == INT64_MIN && b == -1) ? 0 : a / b; /* defined as 0 */
    case BIN_MOD: return b == 0 || (a == INT64_MIN && b == -1) ? 0 : a % b;
    case BIN_AND: return a & b;
    case BIN_OR: return a | b;
    case BIN_XOR: return a ^ b;
    case BIN_SHL: return (int64_t)(ua << (ub & 63));
    case BIN_SHR: return a >> (ub & 63);
    case BIN_EQ: return a == b;
    case BIN_NE: return a != b;
    case BIN_LT: return a < b;
    case BIN_LE: return a <= b;
    case BIN_GT: return a > b;
    case BIN_GE: return a >= b;
    case BIN_LAND: return a && b;
    case BIN_LOR: return a || b;
    }
    return 0;
}

int64_t apply_rmw(rmwop_t op, int64_t old, int64_t v)
{
    switch (op) {
    case RMW_ADD: return (int64_t)((uint64_t)old + (uint64_t)v);
    case RMW_SUB: return (int64_t)((uint64_t)old - (uint64_t)v);
    case RMW_EXCH: return v;
    case RMW_AND: return old & v;
    case RMW_OR: return old | v;
    case RMW_XOR: return old ^ v;
    case RMW_MIN: return old < v ? old : v;
    case RMW_MAX: return old > v ? old : v;
    case RMW_CAS: return v;
    case RMW_FADD: {
        uint32_t a = (uint32_t)old, b = (uint32_t)v;
        float fa, fb;
        memcpy(&fa, &a, sizeof fa);
        memcpy(&fb, &b, sizeof fb);
        float sum = fa + fb;
        uint32_t r;
        memcpy(&r, &sum, sizeof r);
        return (int64_t)r;
    }
    }
    return v;
}

static int64_t apply_un(exprkind_t k, int64_t a)
{
    switch (k) {
    case EX_NEG: return (int64_t)(0 - (uint64_t)a);
    case EX_NOT: return !a;
    case EX_BNOT: return ~a;
    default: return a;
    }
}

int64_t sym_eval(const thread_paths *tp, int k, const int64_t *reads)
{
    const symnode *s = &tp->pool[k];
    switch (s->kind) {
    case S_CONST: return s->value;
    case S_READ: return reads[s->a];
    case S_UN: return apply_un((exprkind_t)s->op, sym_eval(tp, s->a, reads));
    case S_RMW: {
        int64_t old = sym_eval(tp, s->a, reads), v = sym_eval(tp, s->b, reads);
        rmwop_t op = (rmwop_t)(s->value & ~RMW_UNSIGNED);
        if ((s->value & RMW_UNSIGNED) && (op == RMW_MIN || op == RMW_MAX)) {
            bool less = (uint64_t)old < (uint64_t)v;
            return op == RMW_MIN ? (less ? old : v) : (less ? v : old);
        }
        return apply_rmw(op, old, v);
    }
    default: return apply_binop((binop_t)s->op, sym_eval(tp, s->a, reads), sym_eval(tp, s->b, reads));
    }
}

/* ---- node construction (folds constants) ---------------------------------- */

static int node(sx *x, symnode n)
{
    thread_paths *tp = x->out;
    if (tp->npool == tp->poolcap) {
        tp->poolcap = tp->poolcap ? tp->poolcap * 2 : 256;
        tp->pool = realloc(tp->pool, (size_t)tp->poolcap * sizeof *tp->pool);
    }
    tp->pool[tp->npool] = n;
    return tp->npool++;
}

static int mk_const(sx *x, int64_t v) { return node(x, (symnode){.kind = S_CONST, .value = v}); }

static int mk_address(sx *x, int64_t v, int32_t origin)
{
    return node(x, (symnode){.kind = S_CONST, .value = v, .origin = origin});
}

static int mk_bin(sx *x, binop_t op, int a, int b)
{
    const symnode *A = &x->out->pool[a], *B = &x->out->pool[b];
    /* Pointer arithmetic keeps the object the pointer came from. */
    int32_t origin = 0;
    if (op == BIN_ADD && (A->origin == 0) != (B->origin == 0))
        origin = A->origin ? A->origin : B->origin;
    else if (op == BIN_SUB && B->origin == 0)
        origin = A->origin;
    if (A->kind == S_CONST && B->kind == S_CONST)
        return mk_address(x, apply_binop(op, A->value, B->value), origin);
    return node(x, (symnode){.kind = S_BIN, .op = (uint8_t)op, .a = a, .b = b, .deps = A->deps | B->deps,
                             .origin = origin});
}

static int mk_un(sx *x, exprkind_t k, int a)
{
    const symnode *A = &x->out->pool[a];
    if (A->kind == S_CONST)
        return mk_const(x, apply_un(k, A->value));
    return node(x, (symnode){.kind = S_UN, .op = (uint8_t)k, .a = a, .deps = A->deps});
}

static bool is_const(sx *x, int k) { return x->out->pool[k].kind == S_CONST; }
static int64_t const_of(sx *x, int k) { return x->out->pool[k].value; }
static uint64_t deps_of(sx *x, int k) { return x->out->pool[k].deps; }

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return strdup(buf);
}

static void set_expr_error(pstate *s, char *msg)
{
    if (s->expr_error)
        free(msg);
    else
        s->expr_error = msg;
}

static int eval_expr(sx *x, pstate *s, const expr *e);

/* A pointer or rank must be known when the thread runs; *origin (if given)
 * is the heap variable a pointer came from (symnode.origin). */
static bool known_origin(sx *x, pstate *s, const expr *e, const char *what, int64_t *out, int32_t *origin)
{
    int k = eval_expr(x, s, e);
    if (x->out->pool[k].kind != S_CONST) {
        set_expr_error(s, fmt("%s depends on a value read from memory; memsim needs it known when the thread runs", what));
        return false;
    }
    *out = x->out->pool[k].value;
    if (origin)
        *origin = x->out->pool[k].origin;
    return true;
}

static bool known(sx *x, pstate *s, const expr *e, const char *what, int64_t *out)
{
    return known_origin(x, s, e, what, out, NULL);
}

static int eval_expr(sx *x, pstate *s, const expr *e)
{
    const symheap *h = &x->t->heap;
    switch (e->kind) {
    case EX_CONST: return mk_const(x, e->value);
    case EX_ADDR: {
        int rank = x->th->gpu;
        int64_t idx = 0;
        if (rank >= h->ranks) {
            set_expr_error(s, fmt("gpu%d has no symmetric heap (the heap has %d ranks)", rank, h->ranks));
            return mk_const(x, 0);
        }
        if (e->a && !known(x, s, e->a, "the index of an address", &idx))
            return mk_const(x, 0);
        const symvar *V = &h->vars[e->symvar];
        /* One past the end is an address C allows; further is a bug the access might not show (an index of
           2^62 into an i32 array wraps the address back onto element 0). */
        if (idx < 0 || idx > V->len) {
            set_expr_error(s, fmt("&%s[%lld]: the index is out of range (%d elements)", V->name, (long long)idx, V->len));
            return mk_const(x, 0);
        }
        /* Wrapping, as the program's own arithmetic: a huge index is an address outside the heap, which
           the access reports, not an overflow here. */
        uint64_t at = (uint64_t)HEAP_BASE(rank) + (uint64_t)h->offset[rank][e->symvar] +
                      (uint64_t)idx * (uint64_t)vtype_size(V->type);
        return mk_address(x, (int64_t)at, e->symvar + 1);
    }
    case EX_TRANSLATE: {
        int64_t ptr, from, to;
        int32_t origin;
        if (!known_origin(x, s, e->a, "the pointer given to translate", &ptr, &origin) || !known(x, s, e->b, "translate's rank", &from) ||
            !known(x, s, e->c, "translate's rank", &to))
            return mk_const(x, 0);
        if (from < 0 || from >= h->ranks || to < 0 || to >= h->ranks) {
            set_expr_error(s, fmt("translate from rank %lld to rank %lld: the heap has ranks 0 to %d", (long long)from,
                                  (long long)to, h->ranks - 1));
            return mk_const(x, 0);
        }
        if (ptr < HEAP_BASE(from) || ptr >= HEAP_BASE(from) + h->size) {
            set_expr_error(s, fmt("translate: pointer 0x%llx is outside rank %lld's heap [0x%llx, 0x%llx)",
                                  (unsigned long long)ptr, (long long)from, (unsigned long long)HEAP_BASE(from),
                                  (unsigned long long)(HEAP_BASE(from) + h->size)));
            return mk_const(x, 0);
        }
        return mk_address(x, HEAP_BASE(to) + (ptr - HEAP_BASE(from)), origin);
    }
    case EX_GROUP: return mk_const(x, thread_group_fact(x->t, x->tid, (int)e->value));
    case EX_REG: return s->regs[e->reg];
    case EX_BIN: {
        int a = eval_expr(x, s, e->a);
        int b = eval_expr(x, s, e->b);
        return mk_bin(x, e->op, a, b);
    }
    default: return mk_un(x, e->kind, eval_expr(x, s, e->a));
    }
}

/* ---- path states ------------------------------------------------------------ */

static pstate *state_new(sx *x)
{
    pstate *s = calloc(1, sizeof *s);
    s->forced_index = -1;
    s->regs = calloc((size_t)(x->th->nregs ? x->th->nregs : 1), sizeof *s->regs);
    int zero = mk_const(x, 0);
    for (int r = 0; r < x->th->nregs; r++)
        s->regs[r] = zero;
    return s;
}

static pstate *state_copy(sx *x, const pstate *o)
{
    pstate *s = malloc(sizeof *s);
    *s = *o;
    size_t nr = (size_t)(x->th->nregs ? x->th->nregs : 1);
    s->regs = malloc(nr * sizeof *s->regs);
    memcpy(s->regs, o->regs, nr * sizeof *s->regs);
    s->ev = malloc((size_t)(o->evcap ? o->evcap : 1) * sizeof *s->ev);
    if (o->nev)
        memcpy(s->ev, o->ev, (size_t)o->nev * sizeof *s->ev);
    s->cons = malloc((size_t)(o->conscap ? o->conscap : 1) * sizeof *s->cons);
    if (o->ncons)
        memcpy(s->cons, o->cons, (size_t)o->ncons * sizeof *s->cons);
    s->expr_error = o->expr_error ? strdup(o->expr_error) : NULL;
    s->warn = o->warn ? strdup(o->warn) : NULL;
    s->lasso = NULL;
    s->lassocap = 0;
    if (o->nlasso) {
        s->lassocap = o->nlasso;
        s->lasso = malloc((size_t)o->nlasso * sizeof *s->lasso);
        memcpy(s->lasso, o->lasso, (size_t)o->nlasso * sizeof *s->lasso);
    }
    return s;
}

static void state_free(pstate *s)
{
    if (!s)
        return;
    free(s->regs);
    free(s->ev);
    free(s->cons);
    free(s->expr_error);
    free(s->warn);
    free(s->lasso);
    free(s);
}

static void push_work(sx *x, pstate *s)
{
    if (x->nwork == x->workcap) {
        x->workcap = x->workcap ? x->workcap * 2 : 16;
        x->work = realloc(x->work, (size_t)x->workcap * sizeof *x->work);
    }
    x->work[x->nwork++] = s;
}

static void add_cons(pstate *s, int k)
{
    if (s->ncons == s->conscap) {
        s->conscap = s->conscap ? s->conscap * 2 : 8;
        s->cons = realloc(s->cons, (size_t)s->conscap * sizeof *s->cons);
    }
    s->cons[s->ncons++] = k;
}

static pevent *add_event(pstate *s, evkind_t kind, const inst *in)
{
    if (s->nev == s->evcap) {
        s->evcap = s->evcap ? s->evcap * 2 : 16;
        s->ev = realloc(s->ev, (size_t)s->evcap * sizeof *s->ev);
    }
    pevent *e = &s->ev[s->nev++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->cell = -1;
    e->partner = -1;
    e->ctrl = s->ctrl;
    e->src = in;
    if (in) {
        e->ord = in->ord;
        e->scope = in->scope;
    }
    return e;
}

static void fail(sx *x, const inst *in, const char *fmt, const char *detail)
{
    if (x->failed)
        return;
    x->failed = true;
    char msg[256];
    snprintf(msg, sizeof msg, fmt, detail);
    snprintf(x->err, x->errsz, "%s: error: thread %s: %s", test_pos_name(x->t, in ? in->pos : x->th->pos, (char[512]){0}, 512),
             x->th->name, msg);
}

static void finish_path(sx *x, pstate *s, bool hung, const inst *error_at, const char *error)
{
    if (s->expr_error && !error) {
        error = s->expr_error;
    }
    thread_paths *tp = x->out;
    if (tp->n == MAX_PATHS_PER_THREAD) {
        fail(x, error_at, "more than %s control-flow paths: the thread is too large to explore", "16384");
        return;
    }
    if (tp->n == tp->cap) {
        tp->cap = tp->cap ? tp->cap * 2 : 8;
        tp->v = realloc(tp->v, (size_t)tp->cap * sizeof *tp->v);
    }
    tpath *p = &tp->v[tp->n++];
    memset(p, 0, sizeof *p);
    p->ev = s->ev;
    p->nev = s->nev;
    p->cons = s->cons;
    p->ncons = s->ncons;
    p->regs = s->regs;
    p->nreads = s->nreads;
    p->nbar = s->nbar;
    p->hung = hung;
    p->error_at = error_at;
    p->error = error ? strdup(error) : NULL;
    p->warn_at = s->warn_at;
    p->warn = s->warn;
    s->warn = NULL;
    s->ev = NULL;
    s->cons = NULL;
    s->regs = NULL;
    s->nev = s->evcap = s->ncons = s->conscap = 0;
    s->done = true;
}

/* The element a register index selects.  A symbolic index forks one path
 * per element (and one for an out-of-range index); the current state goes on
 * with element 0.  False when the path ended. */
static bool resolve_index(sx *x, pstate *s, const inst *in, int len, int64_t *out, uint64_t *addr)
{
    *out = 0;
    if (!in->mem.index)
        return true;
    int k = eval_expr(x, s, in->mem.index);
    if (is_const(x, k)) {
        int64_t v = const_of(x, k);
        if (v < 0 || v >= len) {
            finish_path(x, s, false, in, "array index out of range");
            return false;
        }
        *out = v;
        return true;
    }
    *addr = deps_of(x, k);
    if (s->forced_index >= 0) {
        *out = s->forced_index;
        s->forced_index = -1;
        return true;
    }
    pstate *oor = state_copy(x, s);
    int below = mk_bin(x, BIN_LT, k, mk_const(x, 0));
    int above = mk_bin(x, BIN_GE, k, mk_const(x, len));
    add_cons(oor, mk_bin(x, BIN_LOR, below, above));
    finish_path(x, oor, false, in, "array index out of range");
    state_free(oor);
    /* Each other element: a fork that re-runs this instruction with it. */
    for (int i = len - 1; i >= 1; i--) {
        pstate *f = state_copy(x, s);
        add_cons(f, mk_bin(x, BIN_EQ, k, mk_const(x, i)));
        f->forced_index = i;
        f->stack[f->depth - 1].i--;
        push_work(x, f);
    }
    add_cons(s, mk_bin(x, BIN_EQ, k, mk_const(x, 0)));
    return true;
}

static void fail_path(sx *x, pstate *s, const inst *in, char *msg)
{
    finish_path(x, s, false, in, msg);
    free(msg);
}

/* The cell an address in the symmetric heaps falls in, or -1 (path ended). */
static int deref(sx *x, pstate *s, const inst *in, int64_t a, int *var, int *rank, int64_t *elem)
{
    const symheap *h = &x->t->heap;
    for (int r = 0; r < h->ranks; r++) {
        if (a < HEAP_BASE(r) || a >= HEAP_BASE(r) + h->size)
            continue;
        int64_t off = a - HEAP_BASE(r);
        for (int v = 0; v < h->nvars; v++) {
            const symvar *V = &h->vars[v];
            int64_t esz = (int64_t)vtype_size(V->type), start = h->offset[r][v];
            if (off < start || off >= start + esz * V->len)
                continue;
            if ((off - start) % esz) {
                fail_path(x, s, in, fmt("address 0x%llx is not aligned to an element of %s on gpu%d", (unsigned long long)a, V->name, r));
                return -1;
            }
            *var = v;
            *rank = r;
            *elem = (off - start) / esz;
            return x->t->locs[V->loc[r]].first_cell + (int)*elem;
        }
        fail_path(x, s, in, fmt("address 0x%llx is byte %lld of gpu%d's heap, past every variable allocated there",
                                (unsigned long long)a, (long long)off, r));
        return -1;
    }
    fail_path(x, s, in, fmt("address 0x%llx is outside every rank's symmetric heap", (unsigned long long)a));
    return -1;
}

static void allocation_order(const symheap *h, int r, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < h->nvars && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s", i ? ", " : "", h->vars[h->order[r][i]].name);
}

/* Resolves a memory operand to a cell: a location, a heap variable of the
 * thread's own rank, var@peer translated as Iris's __translate does, or an
 * address.  Returns -1 when the path ended (an error). */
static int resolve_cell(sx *x, pstate *s, const inst *in, uint64_t *addr)
{
    const test *t = x->t;
    const symheap *h = &t->heap;
    *addr = 0;
    if (in->mem.ptr) {
        int64_t a, e;
        int v, r;
        int32_t origin;
        if (!known_origin(x, s, in->mem.ptr, "a pointer", &a, &origin)) {
            finish_path(x, s, false, in, NULL);
            return -1;
        }
        int cell = deref(x, s, in, a, &v, &r, &e);
        if (cell >= 0 && origin > 0 && v != origin - 1 && !s->warn) {
            char mine[256], theirs[256];
            int g = x->th->gpu;
            allocation_order(h, g < h->ranks ? g : 0, mine, sizeof mine);
            allocation_order(h, r, theirs, sizeof theirs);
            s->warn = fmt("bad heap translation: a pointer taken from &%s lands in %s[%lld] of gpu%d (gpu%d allocates "
                          "%s; gpu%d allocates %s)",
                          h->vars[origin - 1].name, h->vars[v].name, (long long)e, r, g, mine, r, theirs);
            s->warn_at = in;
        }
        return cell;
    }
    const location *L;
    int g = x->th->gpu;
    if (in->mem.symvar >= 0) {
        if (g >= h->ranks) {
            fail_path(x, s, in, fmt("gpu%d has no symmetric heap (the heap has %d ranks)", g, h->ranks));
            return -1;
        }
        L = &t->locs[h->vars[in->mem.symvar].loc[g]];
    } else {
        L = &t->locs[in->mem.loc];
    }
    int64_t i;
    if (!resolve_index(x, s, in, L->len, &i, addr))
        return -1;
    if (in->mem.symvar < 0 || !in->mem.peer)
        return L->first_cell + (int)i;
    int64_t peer;
    if (!known(x, s, in->mem.peer, "the rank of a remote access", &peer)) {
        finish_path(x, s, false, in, NULL);
        return -1;
    }
    const symvar *V = &h->vars[in->mem.symvar];
    if (peer < 0 || peer >= h->ranks) {
        fail_path(x, s, in, fmt("%s@%lld: the heap has ranks 0 to %d", V->name, (long long)peer, h->ranks - 1));
        return -1;
    }
    /* __translate: base[peer] + (&var[i] - base[me]) */
    int64_t a = HEAP_BASE(peer) + h->offset[g][in->mem.symvar] + i * (int64_t)vtype_size(V->type);
    int v2, r2;
    int64_t e2;
    int cell = deref(x, s, in, a, &v2, &r2, &e2);
    if (cell >= 0 && (v2 != in->mem.symvar || e2 != i) && !s->warn) {
        char mine[256], theirs[256];
        allocation_order(h, g, mine, sizeof mine);
        allocation_order(h, (int)peer, theirs, sizeof theirs);
        s->warn = fmt("bad heap translation: %s[%lld] of gpu%d, translated to gpu%lld, lands in %s[%lld]: the ranks allocate "
                      "the symmetric heap in different orders (gpu%d: %s; gpu%lld: %s)",
                      V->name, (long long)i, g, (long long)peer, h->vars[v2].name, (long long)e2, g, mine,
                      (long long)peer, theirs);
        s->warn_at = in;
    }
    return cell;
}

static void run(sx *x, pstate *s);

/* Emits the events of a load, store or RMW; returns the read's node or -1. */
static int memory_access(sx *x, pstate *s, const inst *in, int cell, uint64_t addr, bool implicit_fence)
{
    if (implicit_fence) {
        pevent *f = add_event(s, EV_F, in);
        f->ord = ORD_SEQ_CST;
        f->implicit = true;
    }
    int readnode = -1;
    if (in->kind == I_LD || (in->kind == I_AWAIT && !in->await_rmw) || in->kind == I_RMW ||
        (in->kind == I_AWAIT && in->await_rmw)) {
        if (s->nreads == MAX_READS_PER_THREAD) {
            fail(x, in, "more than %s reads in one thread", "64");
            return -1;
        }
        int r = s->nreads++;
        readnode = node(x, (symnode){.kind = S_READ, .a = r, .deps = 1ull << r});
        pevent *e = add_event(s, EV_R, in);
        e->cell = cell;
        e->read = r;
        e->sym = readnode;
        e->addr = addr;
    }
    return readnode;
}

/* ---- named barriers (import/: PTX bar.sync N[, M], Vulkan cbar N) --------- */

static int64_t bar_key_of(int64_t id, bool has_count, int64_t count)
{
    return (int64_t)(((uint64_t)id << 32) ^ (has_count ? (uint64_t)(uint32_t)count : 0xffffffffull));
}

static void emit_named_barrier_as(pstate *s, const inst *in, int64_t key, int quorum, bool nosync)
{
    int n = 0; /* instances are counted per name */
    for (int k = 0; k < s->nev; k++)
        if (s->ev[k].kind == EV_BA && s->ev[k].bar_named && s->ev[k].bar_key == key)
            n++;
    pevent *a = add_event(s, EV_BA, in);
    a->bar_named = true;
    a->bar_key = key;
    a->bar = n;
    a->bar_quorum = quorum;
    a->bar_nosync = nosync;
    a->bar_scope = in->bar_scope ? in->bar_scope : in->scope;
    if (in->bar_arrive)
        return;
    pevent *w = add_event(s, EV_BW, in);
    w->bar_named = true;
    w->bar_key = key;
    w->bar = n;
    w->bar_quorum = quorum;
    w->bar_scope = a->bar_scope;
}

/* A barrier with a quorum q (Dat3M's NamedBarrier, encodeNamedBarrierCfQuorum in
 * ProgramEncoder.java): some q or more of the threads that reach it synchronize
 * (sync(e)), and then all that reach it pass.  Which ones synchronize is a
 * choice: this thread's path forks into a synchronizing and a
 * non-synchronizing arrival, and the explorer keeps the combinations where
 * enough synchronize. */
static void emit_named_barrier(sx *x, pstate *s, const inst *in, int64_t key)
{
    int64_t q = 0;
    if (in->bar_quorum) {
        if (!known(x, s, in->bar_quorum, "a barrier's thread count", &q))
            return;
        if (q < 1 || q > 4096) {
            set_expr_error(s, fmt("a barrier's thread count must be 1 to 4096 (it is %lld)", (long long)q));
            return;
        }
        pstate *f = state_copy(x, s);
        emit_named_barrier_as(f, in, key, (int)q, true);
        push_work(x, f);
    }
    emit_named_barrier_as(s, in, key, (int)q, false);
}

static void const_barrier_keys(const block *b, int64_t *keys, int *nkeys, int cap)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->body.n || in->els.n) {
            const_barrier_keys(&in->body, keys, nkeys, cap);
            const_barrier_keys(&in->els, keys, nkeys, cap);
        }
        if (in->kind != I_BARRIER || !in->bar_id || in->bar_id->kind != EX_CONST ||
            (in->bar_count && in->bar_count->kind != EX_CONST))
            continue;
        int64_t k = bar_key_of(in->bar_id->value, in->bar_count != NULL, in->bar_count ? in->bar_count->value : 0);
        bool dup = false;
        for (int j = 0; j < *nkeys; j++)
            dup = dup || keys[j] == k;
        if (!dup && *nkeys < cap)
            keys[(*nkeys)++] = k;
    }
}

/* A name computed from a read forks: one path for each constant name that a
 * barrier of the test uses, and one path where it matches none of them. */
static void named_barrier(sx *x, pstate *s, const inst *in)
{
    int id = eval_expr(x, s, in->bar_id);
    int cnt = in->bar_count ? eval_expr(x, s, in->bar_count) : -1;
    if (is_const(x, id) && (cnt < 0 || is_const(x, cnt))) {
        emit_named_barrier(x, s, in, bar_key_of(const_of(x, id), cnt >= 0, cnt >= 0 ? const_of(x, cnt) : 0));
        return;
    }
    int64_t keys[64];
    int nkeys = 0;
    for (int th = 0; th < x->t->nthreads; th++)
        const_barrier_keys(&x->t->threads[th].code, keys, &nkeys, 64);
    int none = mk_const(x, 1);
    for (int k = 0; k < nkeys; k++) {
        bool kc = (uint32_t)keys[k] != 0xffffffffu;
        if (kc != (cnt >= 0))
            continue;
        int match = mk_bin(x, BIN_EQ, id, mk_const(x, (int64_t)((uint64_t)keys[k] >> 32)));
        if (cnt >= 0)
            match = mk_bin(x, BIN_LAND, match, mk_bin(x, BIN_EQ, cnt, mk_const(x, (int64_t)(uint32_t)keys[k])));
        pstate *f = state_copy(x, s);
        add_cons(f, match);
        emit_named_barrier(x, f, in, keys[k]);
        push_work(x, f);
        none = mk_bin(x, BIN_LAND, none, mk_un(x, EX_NOT, match));
    }
    add_cons(s, none);
    emit_named_barrier(x, s, in, INT64_MIN + ((int64_t)x->tid << 24) + s->nev);
}

static void step_inner(sx *x, pstate *s, const inst *in);
static void snapshot_regs(sx *x, pstate *s);
static void lasso_enter(sx *x, pstate *s);
static void lasso_mark(sx *x, pstate *s);

/* wait_until_any: the last iteration of the spin reads every variable; it
 * succeeds when one satisfies the comparison and returns the first such
 * index, or it hangs reading each variable's last value. */
static void await_any(sx *x, pstate *s, const inst *in)
{
    int64_t n;
    if (!known(x, s, in->val2, "wait_until_any's number of variables", &n))
        return;
    uint64_t addr;
    int cell = resolve_cell(x, s, in, &addr);
    if (cell < 0 || x->failed || s->done)
        return;
    const location *L = &x->t->locs[cell_loc(x->t, cell)];
    if (n <= 0 || cell + n > L->first_cell + L->len) {
        char cn[96];
        cell_name(x->t, cell, cn, sizeof cn);
        fail_path(x, s, in, fmt("wait_until_any over %lld variables from %s: %s has %d elements", (long long)n, cn,
                                L->name, L->len));
        return;
    }
    int want = eval_expr(x, s, in->want);
    int ok[64], ridx[64];
    if (n > 64) {
        fail(x, in, "%s", "wait_until_any over more than 64 variables");
        return;
    }
    for (int k = 0; k < n; k++) {
        int rn = memory_access(x, s, in, cell + k, addr, false);
        if (rn < 0)
            return;
        ridx[k] = s->nev - 1;
        ok[k] = mk_bin(x, in->await_op, rn, want);
    }
    int any = mk_const(x, 0), none_before = mk_const(x, 1), idx = mk_const(x, 0);
    for (int k = 0; k < n; k++) {
        any = mk_bin(x, BIN_LOR, any, ok[k]);
        int first = mk_bin(x, BIN_LAND, none_before, ok[k]);
        idx = mk_bin(x, BIN_ADD, idx, mk_bin(x, BIN_MUL, first, mk_const(x, k)));
        none_before = mk_bin(x, BIN_LAND, none_before, mk_un(x, EX_NOT, ok[k]));
    }
    pstate *h = state_copy(x, s);
    add_cons(h, mk_un(x, EX_NOT, any));
    for (int k = 0; k < n; k++)
        h->ev[ridx[k]].await_hang = true;
    finish_path(x, h, true, NULL, NULL);
    state_free(h);
    add_cons(s, any);
    s->ctrl |= deps_of(x, any);
    if (in->dst >= 0)
        s->regs[in->dst] = idx;
}

/* One instruction; an evaluation error (a bad pointer) ends the path. */
static void step(sx *x, pstate *s, const inst *in)
{
    step_inner(x, s, in);
    if (s->expr_error && !s->done)
        finish_path(x, s, false, in, NULL);
}

static void step_inner(sx *x, pstate *s, const inst *in)
{
    switch (in->kind) {
    case I_FOR: {
        int64_t from, to, stepv = 1;
        if (!known(x, s, in->val, "a loop bound", &from) || !known(x, s, in->val2, "a loop bound", &to) ||
            (in->want && !known(x, s, in->want, "a loop step", &stepv)))
            return;
        if (stepv <= 0) {
            set_expr_error(s, fmt("the loop step must be positive (it is %lld)", (long long)stepv));
            return;
        }
        if (from >= to)
            return;
        if (s->depth == MAX_DEPTH) {
            fail(x, in, "%s", TOO_DEEP);
            return;
        }
        s->regs[in->dst] = mk_const(x, from);
        if (in->body.n)
            s->stack[s->depth++] = (frame){.b = &in->body, .loop = in, .cur = from, .to = to, .step = stepv, .iterations = 1};
        else
            /* The counter's last value; in unsigned arithmetic, as to - from may not fit an int64_t. */
            s->regs[in->dst] = mk_const(x, (int64_t)((uint64_t)from + ((uint64_t)to - (uint64_t)from - 1) / (uint64_t)stepv * (uint64_t)stepv));
        return;
    }
    case I_WHILE: {
        int64_t bound = x->t->loop_bound > 0 ? x->t->loop_bound : LOOP_BOUND_DEFAULT;
        if (in->val2 && !known(x, s, in->val2, "a loop's unrolling bound", &bound))
            return;
        if (bound < 1 || bound > LOOP_BOUND_MAX) {
            set_expr_error(s, fmt("a loop's unrolling bound must be 1 to %d (it is %lld)", LOOP_BOUND_MAX, (long long)bound));
            return;
        }
        if (s->depth == MAX_DEPTH) {
            fail(x, in, "%s", TOO_DEEP);
            return;
        }
        s->stack[s->depth++] = (frame){.b = &in->body, .loop = in, .to = bound, .iterations = 1, .ev_start = s->nev};
        snapshot_regs(x, s);
        lasso_enter(x, s);
        /* A while loop tests its condition first: as at the end of an
         * iteration, with none run yet. */
        if (!in->do_while) {
            s->stack[s->depth - 1].iterations = 0;
            s->stack[s->depth - 1].i = in->body.n;
        }
        return;
    }
    case I_ASSIGN:
        s->regs[in->dst] = eval_expr(x, s, in->val);
        return;
    case I_FENCE: {
        if (in->shmem_role == SHM_FENCE) {
            /* Ordered delivery to each PE sent to so far: the release fence
             * is placed before the next put or atomic to one of them. */
            s->shm_fenced |= s->shm_sent;
            s->shm_sent = 0;
            s->shm_fence_at = in;
            return;
        }
        if (in->shmem_role == SHM_QUIET)
            s->shm_sent = s->shm_fenced = 0;
        pevent *e = add_event(s, EV_F, in);
        (void)e;
        return;
    }
    case I_BARRIER: {
        if (in->bar_id) {
            named_barrier(x, s, in);
            return;
        }
        pevent *a = add_event(s, EV_BA, in);
        a->bar = s->nbar;
        pevent *w = add_event(s, EV_BW, in);
        w->bar = s->nbar++;
        return;
    }
    case I_IF: {
        int c = eval_expr(x, s, in->val);
        if (is_const(x, c)) {
            const block *b = const_of(x, c) ? &in->body : &in->els;
            if (b->n && s->depth < MAX_DEPTH)
                s->stack[s->depth++] = (frame){.b = b};
            else if (b->n)
                fail(x, in, "%s", TOO_DEEP);
            return;
        }
        /* Both ways may push a frame. */
        if (s->depth == MAX_DEPTH && (in->els.n || in->body.n)) {
            fail(x, in, "%s", TOO_DEEP);
            return;
        }
        pstate *f = state_copy(x, s);
        add_cons(f, mk_un(x, EX_NOT, c));
        f->ctrl |= deps_of(x, c);
        if (in->els.n)
            f->stack[f->depth++] = (frame){.b = &in->els};
        push_work(x, f);
        add_cons(s, c);
        s->ctrl |= deps_of(x, c);
        if (in->body.n)
            s->stack[s->depth++] = (frame){.b = &in->body};
        return;
    }
    default:
        break;
    }
    if (in->kind == I_AWAIT && in->val2 && !in->await_rmw) {
        await_any(x, s, in);
        return;
    }
    /* Memory instructions. */
    uint64_t addr;
    int cell = resolve_cell(x, s, in, &addr);
    if (cell < 0 || x->failed || s->done)
        return;
    if (in->shmem_role == SHM_PUT || in->shmem_role == SHM_AMO || in->shmem_role == SHM_SIGNAL) {
        int pe = x->t->locs[cell_loc(x->t, cell)].home;
        uint64_t bit = pe >= 0 && pe < 64 ? 1ull << pe : 0;
        if (s->shm_fenced & bit) {
            pevent *f = add_event(s, EV_F, s->shm_fence_at);
            f->ord = ORD_RELEASE;
            f->scope = SCOPE_SYS;
            s->shm_fenced = 0;
        }
        s->shm_sent |= bit;
    }
    bool sc_access = in->ord == ORD_SEQ_CST;
    if (in->kind == I_ST) {
        if (sc_access) {
            pevent *f = add_event(s, EV_F, in);
            f->ord = ORD_SEQ_CST;
            f->implicit = true;
        }
        int v = eval_expr(x, s, in->val);
        pevent *e = add_event(s, EV_W, in);
        e->cell = cell;
        e->sym = v;
        e->data = deps_of(x, v);
        e->addr = addr;
        return;
    }
    int rn = memory_access(x, s, in, cell, addr, sc_access);
    if (rn < 0)
        return;
    int ridx = s->nev - 1;
    if (in->kind == I_LD) {
        if (in->dst >= 0)
            s->regs[in->dst] = rn;
        return;
    }
    bool is_await = in->kind == I_AWAIT;
    if (is_await) {
        /* The successful iteration reads the awaited value; the hanging one
         * reads (the explorer checks: the last write of the location) a value
         * that never satisfies the wait, and the thread stops there. */
        int want = eval_expr(x, s, in->want);
        int ok = mk_bin(x, in->await_op, rn, want);
        pstate *h = state_copy(x, s);
        add_cons(h, mk_un(x, EX_NOT, ok));
        h->ev[ridx].await_hang = true;
        if (in->await_rmw) {
            /* A hanging CAS spin keeps failing: it reads and writes nothing. */
            int expected = eval_expr(x, h, in->val);
            add_cons(h, mk_bin(x, BIN_NE, rn, expected));
        }
        finish_path(x, h, true, NULL, NULL);
        state_free(h);
        add_cons(s, ok);
        s->ctrl |= deps_of(x, ok);
        if (in->dst >= 0)
            s->regs[in->dst] = rn;
        if (!in->await_rmw)
            return;
    }
    /* RMW: the write half.  A CAS writes only when it reads the expected value. */
    if (in->dst >= 0)
        s->regs[in->dst] = rn;
    int operand = eval_expr(x, s, in->val);
    if (in->rmw == RMW_CAS) {
        int eq = mk_bin(x, BIN_EQ, rn, operand);
        pstate *f = state_copy(x, s);
        add_cons(f, mk_un(x, EX_NOT, eq));
        /* A failed CAS is only a read, with the failure order the source
         * gives it: relaxed unless stated (C++/HIP/LLVM `monotonic`). */
        pevent *fr = &f->ev[ridx];
        fr->ord = in->fail_ord == ORD_PLAIN ? ORD_RELAXED : in->fail_ord;
        push_work(x, f);
        add_cons(s, eq);
        int desired = eval_expr(x, s, in->val2);
        pevent *w = add_event(s, EV_W, in);
        w->cell = cell;
        w->sym = desired;
        w->data = deps_of(x, desired);
        w->addr = addr;
        w->partner = ridx;
        s->ev[ridx].partner = s->nev - 1;
        return;
    }
    const location *CL = &x->t->locs[cell_loc(x->t, cell)];
    vtype_t ty = CL->type;
    bool is_unsigned = ty == TY_U32 || ty == TY_U64;
    /* MI200-class GPUs may silently drop a hardware FP atomic on fine-grained
     * memory (AMD HLRS material): the path where it does not happen. */
    if (in->rmw == RMW_FADD && in->unsafe && CL->gran == GRAN_FINE && x->t->target &&
        strcmp(x->t->target, "mi200") == 0) {
        pstate *d = state_copy(x, s);
        if (!d->warn) {
            char cn[96];
            cell_name(x->t, cell, cn, sizeof cn);
            d->warn = fmt("atom.fadd.unsafe on fine-grained %s may silently not happen on mi200 (a hardware FP atomic to "
                          "fine-grained memory); use the safe atom.fadd or coarse-grained memory",
                          cn);
            d->warn_at = in;
        }
        d->ev[ridx].partner = -1;
        push_work(x, d);
    }
    int nv = node(x, (symnode){.kind = S_RMW, .a = rn, .b = operand, .value = in->rmw | (is_unsigned ? RMW_UNSIGNED : 0),
                               .deps = deps_of(x, rn) | deps_of(x, operand)});
    pevent *w = add_event(s, EV_W, in);
    w->cell = cell;
    w->sym = nv;
    w->data = in->rmw == RMW_EXCH ? deps_of(x, operand) : deps_of(x, nv);
    w->addr = addr;
    w->partner = ridx;
    s->ev[ridx].partner = s->nev - 1;
}

/* Livelock detection's log (pstate.lasso).  Entering a while loop forgets the
 * marks of loops at its depth or deeper (earlier loops, already left). */
static void lasso_push(sx *x, pstate *s)
{
    int nregs = x->th->nregs, stride = 2 + nregs;
    if (s->nlasso + stride > s->lassocap) {
        s->lassocap = (s->nlasso + stride) * 2;
        s->lasso = realloc(s->lasso, (size_t)s->lassocap * sizeof *s->lasso);
    }
    int *m = s->lasso + s->nlasso;
    m[0] = s->depth;
    m[1] = s->nev;
    memcpy(m + 2, s->regs, (size_t)nregs * sizeof *m);
    s->nlasso += stride;
}

static void lasso_enter(sx *x, pstate *s)
{
    int stride = 2 + x->th->nregs, n = 0;
    for (int k = 0; k < s->nlasso; k += stride)
        if (s->lasso[k] < s->depth) {
            memmove(s->lasso + n, s->lasso + k, (size_t)stride * sizeof *s->lasso);
            n += stride;
        }
    s->nlasso = n;
    lasso_push(x, s);
}

static void lasso_mark(sx *x, pstate *s) { lasso_push(x, s); }

/* The registers at the start of a while loop's iteration (the innermost loop's). */
static void snapshot_regs(sx *x, pstate *s)
{
    int n = x->th->nregs < 64 ? x->th->nregs : 64;
    memcpy(s->snap, s->regs, (size_t)n * sizeof *s->regs);
    s->snap_depth = s->depth;
}

/* Whether another iteration that reads the same values would leave every
 * register as this one did: each register is unchanged (the same node, or
 * the same constant) or holds a value this iteration read.  Anything else
 * (a counter, a value computed from an earlier one) may differ next time. */
static bool same_state_next_time(sx *x, const pstate *s, const frame *f)
{
    if (s->snap_depth != s->depth || x->th->nregs > 64)
        return false;
    const symnode *pool = x->out->pool;
    for (int r = 0; r < x->th->nregs; r++) {
        int a = s->snap[r], b = s->regs[r];
        if (a == b || (pool[a].kind == S_CONST && pool[b].kind == S_CONST && pool[a].value == pool[b].value))
            continue;
        if (pool[b].kind != S_READ)
            return false;
        bool mine = false;
        for (int k = f->ev_start; k < s->nev && !mine; k++)
            mine = s->ev[k].kind == EV_R && s->ev[k].read == pool[b].a;
        if (!mine)
            return false;
    }
    return true;
}

/* Ends the path at the end of while loop f's iteration, its condition still
 * true: cut at the bound, or (early) stopped before it for livelock detection;
 * quiet: that iteration changed nothing.  The path keeps the loop's iterations (pstate.lasso) for sim/livelock.c. */
static void finish_cut(sx *x, pstate *s, const frame *f, bool early, bool quiet)
{
    int nregs = x->th->nregs, stride = 2 + nregs;
    /* The cut loop's marks: those at its depth (entering it forgot older
     * ones there); inner loops' marks lie between them. */
    int nmarks = 0;
    for (int k = 0; k < s->nlasso; k += stride)
        nmarks += s->lasso[k] == s->depth;
    int *lev = NULL, *lregs = NULL;
    if (nmarks == f->iterations + 1) {
        /* every iteration of the cut loop: its events and the registers it left */
        lev = malloc((size_t)nmarks * sizeof *lev);
        lregs = malloc((size_t)(nmarks * nregs + 1) * sizeof *lregs);
        for (int k = 0, m = 0; k < s->nlasso; k += stride) {
            if (s->lasso[k] != s->depth)
                continue;
            lev[m] = s->lasso[k + 1];
            memcpy(lregs + m * nregs, s->lasso + k + 2, (size_t)nregs * sizeof *lregs);
            m++;
        }
    }
    finish_path(x, s, false, NULL, NULL);
    thread_paths *tp = x->out;
    if (!x->failed && tp->n > 0) {
        tpath *p = &tp->v[tp->n - 1];
        p->cut_at = f->loop;
        p->cut_bound = (int)f->iterations;
        p->cut_early = early;
        p->cut_quiet = quiet;
        p->iter_ev = lev;
        p->iter_regs = lregs;
        lev = lregs = NULL;
    }
    free(lev);
    free(lregs);
}

/* The end of a while loop's iteration (or its entry): the condition decides;
 * a condition that depends on reads forks a path that leaves the loop.  True
 * when the body runs again; false when the loop is left or the path ended
 * (cut at the bound: s->done). */
static bool while_again(sx *x, pstate *s, frame *f)
{
    const inst *in = f->loop;
    int c = eval_expr(x, s, in->val);
    if (s->expr_error) {
        finish_path(x, s, false, in, NULL);
        return false;
    }
    if (is_const(x, c)) {
        if (!const_of(x, c))
            return false;
    } else {
        pstate *out = state_copy(x, s);
        add_cons(out, mk_un(x, EX_NOT, c));
        out->ctrl |= deps_of(x, c);
        out->depth--;
        push_work(x, out);
        add_cons(s, c);
        s->ctrl |= deps_of(x, c);
    }
    bool quiet = false; /* the iteration changed nothing: a hang path covers it */
    bool wrote = false; /* the iteration has a write (an RMW's too) */
    if (f->iterations > 0) {
        lasso_mark(x, s);
        for (int k = f->ev_start; k < s->nev && !wrote; k++)
            wrote = s->ev[k].kind == EV_W;
    }
    if (f->iterations > 0) {
        /* An iteration that wrote nothing and after which the condition
         * still holds repeats itself for ever if what it read were the final
         * values: a fair scheduler would otherwise show it a later write.  That
         * path is a hang (the explorer keeps it only when each of these reads
         * reads its cell's last write), as an await's is; Dat3M's liveness
         * check treats side-effect-free spin loops the same way. */
        /* An RMW whose write stores the value it read is silent: looping on
         * it changes nothing either (Dat3M's liveness treats such iterations
         * as side-effect-free: CADP's exchange loops). */
        bool writes = false;
        for (int k = f->ev_start; k < s->nev && !writes; k++)
            writes = s->ev[k].kind == EV_W && s->ev[k].partner < 0;
        quiet = !writes && same_state_next_time(x, s, f);
        if (quiet) {
            pstate *h = state_copy(x, s);
            int map[MAX_READS_PER_THREAD * 4 + 64], n = f->ev_start;
            bool fits = h->nev - f->ev_start < (int)(sizeof map / sizeof map[0]);
            for (int k = f->ev_start; fits && k < h->nev; k++) {
                pevent *ev = &h->ev[k];
                if (ev->kind == EV_W) {
                    /* the silent write: its value is the one read; it is not an event */
                    const pevent *rd = &h->ev[ev->partner];
                    add_cons(h, mk_bin(x, BIN_EQ, ev->sym, rd->sym));
                    map[k - f->ev_start] = -1;
                    continue;
                }
                map[k - f->ev_start] = n;
                h->ev[n++] = *ev;
            }
            if (fits) {
                h->nev = n;
                for (int k = f->ev_start; k < h->nev; k++) {
                    if (h->ev[k].kind == EV_R) {
                        h->ev[k].await_hang = true;
                        h->ev[k].partner = -1;
                    } else if (h->ev[k].partner >= f->ev_start) {
                        h->ev[k].partner = map[h->ev[k].partner - f->ev_start];
                    }
                }
                finish_path(x, h, true, NULL, NULL);
                if (!x->failed)
                    x->out->v[x->out->n - 1].hung_loop = f->loop;
            }
            state_free(h);
        }
    }
    if (f->iterations >= 2 && f->iterations < f->to && wrote) {
        /* Dat3M's full non-termination instrumentation (NonterminationDetection.java):
         * a loop may also stop here, still looping, so that a livelock in which
         * threads run different numbers of iterations is found.  The path is kept
         * only where it is a livelock (sim/livelock.c), never as a cut. */
        pstate *st = state_copy(x, s);
        finish_cut(x, st, f, true, quiet);
        state_free(st);
    }
    if (f->iterations >= f->to) {
        /* The bound is reached and the condition holds: the execution is
         * cut here, and reported as cut. */
        finish_cut(x, s, f, false, quiet);
        return false;
    }
    f->iterations++;
    f->i = 0;
    f->ev_start = s->nev;
    snapshot_regs(x, s);
    return true;
}

static void run(sx *x, pstate *s)
{
    while (!x->failed) {
        while (s->depth > 0 && s->stack[s->depth - 1].i >= s->stack[s->depth - 1].b->n) {
            frame *f = &s->stack[s->depth - 1];
            if (f->loop && f->loop->kind == I_WHILE) {
                if (while_again(x, s, f))
                    continue; /* the body again; an empty one comes straight back here */
                if (s->done)
                    return;
                s->depth--;
                continue;
            }
            int64_t next; /* a counter near INT64_MAX must end the loop, not overflow */
            if (f->loop && !__builtin_add_overflow(f->cur, f->step, &next) && next < f->to) {
                if (++f->iterations > MAX_LOOP_ITERATIONS) {
                    fail(x, f->loop, "%s", "a loop runs more than 100000 iterations");
                    return;
                }
                f->cur = next;
                s->regs[f->loop->dst] = mk_const(x, f->cur);
                f->i = 0;
                continue;
            }
            s->depth--;
        }
        if (s->depth == 0) {
            finish_path(x, s, false, NULL, NULL);
            return;
        }
        frame *f = &s->stack[s->depth - 1];
        const inst *in = &f->b->v[f->i++];
        step(x, s, in);
        if (s->done)
            return;
    }
}

int symexec_thread(const test *t, int tid, thread_paths *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    sx x = {.t = t, .th = &t->threads[tid], .tid = tid, .out = out, .err = err, .errsz = errsz};
    out->nregs = x.th->nregs;
    pstate *s0 = state_new(&x);
    if (x.th->code.n)
        s0->stack[s0->depth++] = (frame){.b = &x.th->code};
    push_work(&x, s0);
    while (x.nwork && !x.failed) {
        pstate *s = x.work[--x.nwork];
        run(&x, s);
        state_free(s);
    }
    while (x.nwork)
        state_free(x.work[--x.nwork]);
    free(x.work);
    return x.failed ? -1 : 0;
}

void tpath_free(tpath *p)
{
    free(p->ev);
    free(p->cons);
    free(p->regs);
    free(p->error);
    free(p->warn);
    free(p->iter_ev);
    free(p->iter_regs);
}

void thread_paths_free(thread_paths *tp)
{
    for (int i = 0; i < tp->n; i++)
        tpath_free(&tp->v[i]);
    free(tp->v);
    free(tp->pool);
    memset(tp, 0, sizeof *tp);
}

event pevent_event(const test *t, int th, const pevent *pe)
{
    event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = pe->kind;
    ev.thread = th;
    ev.cell = pe->cell;
    ev.ord = pe->ord;
    ev.scope = pe->scope;
    ev.gpu = t->threads[th].gpu;
    ev.wg = t->threads[th].wg;
    ev.wave = t->threads[th].wave;
    ev.rmw_partner = -1;
    ev.src = pe->src;
    return ev;
}
