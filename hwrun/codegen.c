#include "codegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const hw_plan *p;
    const test *t;
    const otab *o;
    const hw_emitter *em;
    sbuf *b;
    const char *pre;
    char **expect;
    int nexpect, capexpect;
} gen;

const char *ptx_scope(scope_t s)
{
    switch (s) {
    /* PTX has no warp (wave) or thread scope: the narrowest is .cta, which
     * contains the wave, so a wave-scope operation becomes a (stronger)
     * cta-scope one. */
    case SCOPE_THREAD:
    case SCOPE_WAVE:
    case SCOPE_WG: return "cta";
    case SCOPE_AGENT: return "gpu";
    default: return "sys";
    }
}

const char *hip_scope(scope_t s)
{
    switch (s) {
    case SCOPE_THREAD: return "__HIP_MEMORY_SCOPE_SINGLETHREAD";
    case SCOPE_WAVE: return "__HIP_MEMORY_SCOPE_WAVEFRONT";
    case SCOPE_WG: return "__HIP_MEMORY_SCOPE_WORKGROUP";
    case SCOPE_AGENT: return "__HIP_MEMORY_SCOPE_AGENT";
    default: return "__HIP_MEMORY_SCOPE_SYSTEM";
    }
}

/* s: one or more instruction spellings, one per line. */
static void add_expect(gen *g, const char *s)
{
    while (*s) {
        size_t n = strcspn(s, "\n");
        bool dup = n == 0;
        for (int i = 0; i < g->nexpect && !dup; i++)
            dup = strlen(g->expect[i]) == n && strncmp(g->expect[i], s, n) == 0;
        if (!dup) {
            if (g->nexpect == g->capexpect) {
                g->capexpect = g->capexpect ? g->capexpect * 2 : 16;
                g->expect = realloc(g->expect, (size_t)g->capexpect * sizeof *g->expect);
            }
            g->expect[g->nexpect++] = strndup(s, n);
        }
        s += n;
        if (*s)
            s++;
    }
}

/* ---- expressions ----------------------------------------------------------------- */

int hw_nparams(const test *t)
{
    return t->heap.present ? PI_HEAP_OFF(t->nlocs, t->heap.ranks - 1) + 1 : PI_COUNT(t->nlocs);
}

bool heap_loc(const test *t, int l, int *rank, int *var)
{
    if (!t->heap.present)
        return false;
    for (int v = 0; v < t->heap.nvars; v++)
        for (int r = 0; r < t->heap.ranks; r++)
            if (t->heap.vars[v].loc[r] == l) {
                *rank = r;
                *var = v;
                return true;
            }
    return false;
}

/* The test whose expressions are being emitted: &var[i] needs its heap
 * layout (codegen runs one test at a time). */
static const test *cur_test;
/* Loop variables of the loops being unrolled (they hold barriers). */
static int64_t unroll_v[PLAN_MAX_REGS];
static bool unroll_s[PLAN_MAX_REGS];

static void emit_const(sbuf *b, int64_t v)
{
    if (v == INT64_MIN)
        sb_puts(b, "(-9223372036854775807LL - 1)");
    else
        sb_printf(b, "(%lldLL)", (long long)v);
}

static void emit_expr(sbuf *b, const expr *e, int th)
{
    switch (e->kind) {
    case EX_CONST: emit_const(b, e->value); return;
    case EX_REG: sb_printf(b, "t%d_r%d", th, e->reg); return;
    case EX_NEG: sb_puts(b, "ms_neg("); emit_expr(b, e->a, th); sb_puts(b, ")"); return;
    case EX_NOT: sb_puts(b, "((i64)!("); emit_expr(b, e->a, th); sb_puts(b, "))"); return;
    case EX_BNOT: sb_puts(b, "(~("); emit_expr(b, e->a, th); sb_puts(b, "))"); return;
    case EX_BIN: break;
    case EX_ADDR: {
        /* &var[i] on the thread's own rank: its heap base (this instance's) + the variable's offset. */
        const test *t = cur_test;
        int g = t->threads[th].gpu;
        const symvar *V = &t->heap.vars[e->symvar];
        sb_printf(b, "((i64)(ms_hb[%d] + %lldull + (u64)(", g, (long long)t->heap.offset[g][e->symvar]);
        if (e->a)
            emit_expr(b, e->a, th);
        else
            sb_puts(b, "0");
        sb_printf(b, ") * %dull))", (int)vtype_size(V->type));
        return;
    }
    case EX_TRANSLATE:
        /* Iris's __translate: base[to] + (p - base[from]), with this instance's heap-base table. */
        sb_puts(b, "ms_tr(");
        emit_expr(b, e->a, th);
        sb_puts(b, ", ");
        emit_expr(b, e->b, th);
        sb_puts(b, ", ");
        emit_expr(b, e->c, th);
        sb_puts(b, ", ms_hb, &ms_st)");
        return;
    case EX_GROUP:
        /* A SHMEM thread-group call's share, barrier_all's callers: known per thread. */
        emit_const(b, thread_group_fact(cur_test, th, (int)e->value));
        return;
    default: sb_puts(b, "0 /* unsupported expression */"); return; /* plan_build refuses these */
    }
    static const char *fn[] = {[BIN_ADD] = "ms_add", [BIN_SUB] = "ms_sub", [BIN_MUL] = "ms_mul", [BIN_DIV] = "ms_div",
                               [BIN_MOD] = "ms_mod", [BIN_SHL] = "ms_shl", [BIN_SHR] = "ms_shr"};
    if (e->op <= BIN_SHR && fn[e->op] && e->op != BIN_AND && e->op != BIN_OR && e->op != BIN_XOR) {
        sb_printf(b, "%s(", fn[e->op]);
        emit_expr(b, e->a, th);
        sb_puts(b, ", ");
        emit_expr(b, e->b, th);
        sb_puts(b, ")");
        return;
    }
    bool logical = e->op >= BIN_EQ;
    sb_puts(b, logical ? "((i64)(" : "((");
    emit_expr(b, e->a, th);
    sb_printf(b, " %s ", binop_spelling(e->op));
    emit_expr(b, e->b, th);
    sb_puts(b, "))");
}

static void regs_of(const expr *e, bool *used)
{
    if (!e)
        return;
    if (e->kind == EX_REG)
        used[e->reg] = true;
    regs_of(e->a, used);
    regs_of(e->b, used);
    regs_of(e->c, used);
}

/* The heap variable a value's address came from, +1 (0: none), as memsim
 * follows it (symexec's origin): &var, translate, and +/- of an offset. */
static void emit_origin(sbuf *b, const expr *e, int th)
{
    switch (e->kind) {
    case EX_REG: sb_printf(b, "t%d_o%d", th, e->reg); return;
    case EX_ADDR: sb_printf(b, "%d", e->symvar + 1); return;
    case EX_TRANSLATE: emit_origin(b, e->a, th); return;
    case EX_BIN:
        if (e->op == BIN_ADD || e->op == BIN_SUB) {
            sb_puts(b, e->op == BIN_ADD ? "ms_oadd(" : "ms_osub(");
            emit_origin(b, e->a, th);
            sb_puts(b, ", ");
            emit_origin(b, e->b, th);
            sb_puts(b, ")");
            return;
        }
        sb_puts(b, "0");
        return;
    default: sb_puts(b, "0"); return;
    }
}

/* The element type an address expression points to, found statically (the
 * instruction needs one): the variable of &var, through translate, +/- and
 * the registers assigned from them; i32 when nothing says. */
static bool find_assign_type(const block *b, int reg, int th, vtype_t *ty, int depth);
static bool ptr_type(const expr *e, int th, vtype_t *ty, int depth)
{
    if (!e || depth > 16)
        return false;
    switch (e->kind) {
    case EX_ADDR: *ty = cur_test->heap.vars[e->symvar].type; return true;
    case EX_TRANSLATE: return ptr_type(e->a, th, ty, depth + 1);
    case EX_BIN: return ptr_type(e->a, th, ty, depth + 1) || ptr_type(e->b, th, ty, depth + 1);
    case EX_REG: return find_assign_type(&cur_test->threads[th].code, e->reg, th, ty, depth + 1);
    default: return false;
    }
}

static bool find_assign_type(const block *b, int reg, int th, vtype_t *ty, int depth)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->kind == I_ASSIGN && in->dst == reg && ptr_type(in->val, th, ty, depth))
            return true;
        if ((in->kind == I_IF || in->kind == I_FOR) &&
            (find_assign_type(&in->body, reg, th, ty, depth) || find_assign_type(&in->els, reg, th, ty, depth)))
            return true;
    }
    return false;
}

/* The expression, plus ((registers it reads) & ms_z): ms_z is 0 at run time
 * but unknown to the compiler, so every register the model counts as a
 * dependency (syntactically, as memsim does) stays one in the machine code,
 * even in r0 - r0 + 1. */
static void emit_value(sbuf *b, const expr *e, int th, int nregs)
{
    bool used[256] = {false};
    if (nregs > 256)
        nregs = 256;
    regs_of(e, used);
    int n = 0;
    for (int r = 0; r < nregs; r++)
        n += used[r];
    if (!n) {
        emit_expr(b, e, th);
        return;
    }
    sb_puts(b, "ms_add(");
    emit_expr(b, e, th);
    sb_puts(b, ", ((");
    bool first = true;
    for (int r = 0; r < nregs; r++)
        if (used[r]) {
            sb_printf(b, "%st%d_r%d", first ? "" : " | ", th, r);
            first = false;
        }
    sb_puts(b, ") & ms_z))");
}

static char *value_string(const expr *e, int th, int nregs)
{
    sbuf s = {0};
    emit_value(&s, e, th, nregs);
    return sb_take(&s);
}

/* ---- instructions ------------------------------------------------------------------ */

static bool needs_guard_block(const block *b, const test *t)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->kind == I_AWAIT)
            return true;
        if (in->kind == I_FOR)
            return true; /* a non-positive step is an error of the execution */
        if (in->kind == I_IF && (needs_guard_block(&in->body, t) || needs_guard_block(&in->els, t)))
            return true;
        if ((in->kind == I_LD || in->kind == I_ST || in->kind == I_RMW) && (in->mem.loc < 0 || in->mem.peer || in->mem.ptr))
            return true; /* heap operands: the address may be bad */
        if ((in->kind == I_LD || in->kind == I_ST || in->kind == I_RMW) && in->mem.index) {
            const expr *x = in->mem.index;
            if (x->kind != EX_CONST || x->value < 0 || x->value >= t->locs[in->mem.loc].len)
                return true;
        }
    }
    return false;
}

static void emit_block(gen *g, int th, const block *b, int depth, bool guard, int seg, int *cur);

/* The address of element ix (a string) of location l for this instance.  A
 * heap variable's copy lives in its rank's heap slice of this instance:
 * base (heap + the variable's offset) + slot * slice size + ix * element. */
static void addr_string(char *buf, size_t size, const test *t, int l, const char *ix)
{
    const location *L = &t->locs[l];
    int hr, hv;
    if (heap_loc(t, l, &hr, &hv))
        snprintf(buf, size, "(p.v[%d] + sl%d * p.v[%d] + (u64)(%s) * %dull)", PI_LOC_BASE(l), l, PI_LOC_SPACE(l), ix,
                 loc_size(L));
    else if (L->len == 1)
        snprintf(buf, size, "(p.v[%d] + sl%d * p.v[%d])", PI_LOC_BASE(l), l, PI_LOC_SPACE(l));
    else
        snprintf(buf, size, "(p.v[%d] + (sl%d * %dull + (u64)(%s)) * p.v[%d])", PI_LOC_BASE(l), l, L->len, ix,
                 PI_LOC_SPACE(l));
}

static void indent(char *ind, int depth)
{
    int n = depth * 4 > 60 ? 60 : depth * 4;
    memset(ind, ' ', (size_t)n);
    ind[n] = 0;
}

/* The access itself, at address `a` (a u64 in scope), of type ty. */
static void emit_access(gen *g, int th, const inst *in, vtype_t ty, int depth, const char *dst)
{
    sbuf *b = g->b;
    int nregs = g->t->threads[th].nregs;
    char ind2[72];
    indent(ind2, depth);
    if (g->em->expect) {
        sbuf e = {0};
        g->em->expect(&e, ty, in);
        if (e.len)
            add_expect(g, e.s);
        sb_free(&e);
    }
    char *val = in->val ? value_string(in->val, th, nregs) : NULL;
    char *val2 = in->val2 ? value_string(in->val2, th, nregs) : NULL;
    switch (in->kind) {
    case I_LD: g->em->load(b, ind2, ty, in, "a", dst); break;
    case I_ST: g->em->store(b, ind2, ty, in, "a", val); break;
    case I_RMW: g->em->rmw(b, ind2, ty, in, "a", dst, val, val2); break;
    case I_AWAIT: {
        char *want = value_string(in->want, th, nregs);
        char ind3[72];
        indent(ind3, depth + 1);
        sb_printf(b, "%sconst i64 w = %s;\n", ind2, want);
        free(want);
        if (in->await_rmw) {
            sb_printf(b, "%sconst i64 c1 = %s;\n", ind2, val);
            sb_printf(b, "%sconst i64 c2 = %s;\n", ind2, val2 ? val2 : "0");
        }
        sb_printf(b, "%sconst u64 t0 = clock64();\n%si64 v = 0;\n%sfor (unsigned n = 1;; n++) {\n", ind2, ind2, ind2);
        if (in->await_rmw)
            g->em->rmw(b, ind3, ty, in, "a", "v", "c1", "c2");
        else
            g->em->load(b, ind3, ty, in, "a", "v");
        sb_printf(b, "%sif (v %s w) break;\n", ind3, binop_spelling(in->await_op));
        sb_printf(b,
                  "%sif ((n & 15u) == 0 && clock64() - t0 > p.v[%d]) { ms_st |= 1u; ms_ok = 0; break; } /* bounded: "
                  "a timeout is counted, never a hang */\n",
                  ind3, PI_TIMEOUT);
        sb_printf(b, "%s}\n", ind2);
        if (in->dst >= 0)
            sb_printf(b, "%sif (ms_ok) %s = v;\n", ind2, dst);
        break;
    }
    default: break;
    }
    if (in->dst >= 0)
        sb_printf(b, "%st%d_o%d = 0; /* a value read from memory points nowhere known */\n", ind2, th, in->dst);
    free(val);
    free(val2);
}

/* var@peer[i] and [ptr]: the address is computed on the device with the
 * instance's heap-base table, as Iris computes it, and then located: outside
 * every heap of the instance it is "out of heap" (counted, the access skipped,
 * the thread stops: never a fault); past every variable or misaligned it is
 * an error that ends the thread (memsim ends the path there); in another
 * variable or element than the operand meant (ranks allocating the heap in
 * different orders) the error bit is set and the access is made where it
 * landed, as memsim does and as the hardware would. */
static void emit_heap_mem(gen *g, int th, const inst *in, int depth, const char *dst)
{
    const test *t = g->t;
    const symheap *h = &t->heap;
    sbuf *b = g->b;
    int nregs = t->threads[th].nregs;
    int gpu = t->threads[th].gpu;
    char ind[72], ind2[72], ind3[72];
    indent(ind, depth);
    indent(ind2, depth + 1);
    indent(ind3, depth + 2);
    vtype_t ty = TY_I32;
    sb_printf(b, "%s{ /* line %d: a heap address computed on the device */\n", ind, in->pos.line);
    if (in->mem.ptr) {
        if (!ptr_type(in->mem.ptr, th, &ty, 0))
            ty = TY_I32;
        char *pv = value_string(in->mem.ptr, th, nregs);
        sbuf o = {0};
        emit_origin(&o, in->mem.ptr, th);
        sb_printf(b, "%sconst u64 a = (u64)(%s);\n%sconst int want_v = %s, want_r = -1; const i64 want_e = -1;\n", ind2,
                  pv, ind2, o.s);
        sb_free(&o);
        free(pv);
    } else {
        const symvar *V = &h->vars[in->mem.symvar];
        ty = V->type;
        char *pr = value_string(in->mem.peer, th, nregs);
        char *ix = in->mem.index ? value_string(in->mem.index, th, nregs) : strdup("(0LL)");
        sb_printf(b, "%sconst i64 pr = %s, ix = %s;\n", ind2, pr, ix);
        free(pr);
        free(ix);
        sb_printf(b, "%sif ((u64)pr >= %dull || (u64)ix >= %dull) { ms_st |= 2u; ms_ok = 0; } else {\n", ind2, h->ranks,
                  V->len);
        /* base[peer] + (&var[i] on this rank - base[this rank]) */
        sb_printf(b, "%sconst u64 a = ms_hb[pr] + %lldull + (u64)ix * %dull;\n", ind2,
                  (long long)h->offset[gpu][in->mem.symvar], (int)vtype_size(V->type));
        sb_printf(b, "%sconst int want_v = %d, want_r = (int)pr; const i64 want_e = ix;\n", ind2, in->mem.symvar + 1);
    }
    sb_printf(b, "%sint wv = 0; i64 we = 0;\n%sconst int wr = ms_where(a, ms_hb, &wv, &we);\n", ind2, ind2);
    sb_printf(b, "%sif (wr == -1) { ms_st |= 4u; ms_ok = 0; } /* out of heap */\n", ind2);
    sb_printf(b, "%selse if (wr < 0 || ms_hesz[wv] != %d) { ms_st |= 2u; ms_ok = 0; } /* no variable there */\n", ind2,
              (int)vtype_size(ty));
    sb_printf(b, "%selse {\n", ind2);
    sb_printf(b, "%sif ((want_v > 0 && wv != want_v - 1) || (want_r >= 0 && (wr != want_r || we != want_e))) ms_st |= 2u; "
                 "/* bad heap translation */\n",
              ind3);
    emit_access(g, th, in, ty, depth + 2, dst);
    sb_printf(b, "%s}\n", ind2);
    if (!in->mem.ptr)
        sb_printf(b, "%s}\n", ind2);
    sb_printf(b, "%s}\n", ind);
}

static void emit_mem(gen *g, int th, const inst *in, int depth)
{
    const test *t = g->t;
    sbuf *b = g->b;
    int nregs = t->threads[th].nregs;
    char ind[72], ind2[72], addr[512], dst[64];
    indent(ind, depth);
    indent(ind2, depth + 1);
    if (in->dst >= 0)
        snprintf(dst, sizeof dst, "t%d_r%d", th, in->dst);
    else
        snprintf(dst, sizeof dst, "t%d_sink", th);
    int loc = mem_static_loc(t, t->threads[th].gpu, &in->mem);
    if (loc < 0) {
        emit_heap_mem(g, th, in, depth, dst);
        return;
    }
    const location *L = &t->locs[loc];
    sb_printf(b, "%s{ /* line %d */\n", ind, in->pos.line);
    /* The element. */
    const expr *x = in->mem.index;
    if (x && x->kind == EX_CONST) {
        if (x->value < 0 || x->value >= L->len) {
            sb_printf(b, "%sms_st |= 2u; ms_ok = 0; /* index %lld is out of range */\n%s}\n", ind2,
                      (long long)x->value, ind);
            return;
        }
        char ix[32];
        snprintf(ix, sizeof ix, "%lld", (long long)x->value);
        addr_string(addr, sizeof addr, t, loc, ix);
    } else if (x) {
        char *v = value_string(x, th, nregs);
        sb_printf(b, "%sconst i64 ix = %s;\n", ind2, v);
        free(v);
        sb_printf(b, "%sif ((u64)ix >= %dull) { ms_st |= 2u; ms_ok = 0; } else {\n", ind2, L->len);
        addr_string(addr, sizeof addr, t, loc, "ix");
    } else {
        addr_string(addr, sizeof addr, t, loc, "0");
    }
    sb_printf(b, "%sconst u64 a = %s;\n", ind2, addr);
    emit_access(g, th, in, L->type, depth + 1, dst);
    if (x && x->kind != EX_CONST)
        sb_printf(b, "%s}\n", ind2);
    sb_printf(b, "%s}\n", ind);
}

static void emit_inst(gen *g, int th, const inst *in, int depth, bool guard, int seg, int *cur)
{
    sbuf *b = g->b;
    char ind[72];
    indent(ind, depth);
    int nregs = g->t->threads[th].nregs;
    if (in->kind == I_BARRIER) {
        (*cur)++;
        return;
    }
    if (in->kind == I_FOR && block_has_barrier(&in->body)) {
        /* A loop that holds a barrier is unrolled here (plan_build checked that its bounds are
         * static): each iteration's part goes into the barrier segment it runs in, so every
         * thread of the block passes the same __syncthreads() calls, whatever its role. */
        int64_t lo = 0, hi = 0, st = 1;
        if (!static_loop(&g->t->threads[th], in, unroll_v, unroll_s, &lo, &hi, &st))
            return;
        bool was = unroll_s[in->dst];
        int64_t old = unroll_v[in->dst];
        for (int64_t it = lo; it < hi; it += st) {
            unroll_v[in->dst] = it;
            unroll_s[in->dst] = true;
            if (*cur == seg)
                sb_printf(b, "%s%s{ t%d_r%d = %lldLL; t%d_o%d = 0; } /* for, line %d: iteration %s = %lld (unrolled) */\n",
                          ind, guard ? "if (ms_ok) " : "", th, in->dst, (long long)it, th, in->dst, in->pos.line,
                          g->t->threads[th].regs[in->dst], (long long)it);
            emit_block(g, th, &in->body, depth, guard, seg, cur);
        }
        unroll_v[in->dst] = old;
        unroll_s[in->dst] = was;
        return;
    }
    if (*cur != seg)
        return;
    if (guard && in->kind != I_IF && in->kind != I_FOR)
        sb_printf(b, "%sif (ms_ok)\n", ind);
    switch (in->kind) {
    case I_ASSIGN: {
        char *v = value_string(in->val, th, nregs);
        sbuf o = {0};
        emit_origin(&o, in->val, th);
        sb_printf(b, "%s%s{ t%d_r%d = %s; t%d_o%d = %s; }\n", ind, guard ? "    " : "", th, in->dst, v, th, in->dst, o.s);
        sb_free(&o);
        free(v);
        return;
    }
    case I_FENCE:
        if (g->em->expect) {
            sbuf e = {0};
            g->em->expect(&e, TY_U32, in);
            if (e.len)
                add_expect(g, e.s);
            sb_free(&e);
        }
        if (guard) {
            sb_printf(b, "%s{\n", ind);
            char ind2[72];
            indent(ind2, depth + 1);
            g->em->fence(b, ind2, in);
            sb_printf(b, "%s}\n", ind);
        } else {
            g->em->fence(b, ind, in);
        }
        return;
    case I_IF: {
        char *c = value_string(in->val, th, nregs);
        sb_printf(b, "%sif (%s(%s) != 0) {\n", ind, guard ? "ms_ok && " : "", c);
        free(c);
        int dummy = seg;
        emit_block(g, th, &in->body, depth + 1, guard, seg, &dummy);
        if (in->els.n) {
            sb_printf(b, "%s} else%s {\n", ind, guard ? " if (ms_ok)" : "");
            dummy = seg;
            emit_block(g, th, &in->els, depth + 1, guard, seg, &dummy);
        }
        sb_printf(b, "%s}\n", ind);
        return;
    }
    case I_FOR: {
        /* for r in A..B step S: A, B, S known when the thread runs (memsim requires it); r takes
         * A, A+S, ... below B and keeps the last value; a non-positive step is an error. */
        char *lo = value_string(in->val, th, nregs), *hi = value_string(in->val2, th, nregs);
        char *st = in->want ? value_string(in->want, th, nregs) : strdup("(1LL)");
        char ind2[72];
        indent(ind2, depth + 1);
        sb_printf(b, "%sif (ms_ok) { /* for, line %d */\n", ind, in->pos.line);
        sb_printf(b, "%sconst i64 lo = %s, hi = %s, step = %s;\n", ind2, lo, hi, st);
        sb_printf(b, "%sif (step <= 0) { ms_st |= 2u; ms_ok = 0; }\n", ind2);
        sb_printf(b, "%sfor (i64 it = lo; step > 0 && it < hi && ms_ok; it = ms_add(it, step)) {\n", ind2);
        sb_printf(b, "%s    t%d_r%d = it; t%d_o%d = 0;\n", ind2, th, in->dst, th, in->dst);
        int dummy = seg;
        emit_block(g, th, &in->body, depth + 2, true, seg, &dummy);
        sb_printf(b, "%s}\n%s}\n", ind2, ind);
        free(lo);
        free(hi);
        free(st);
        return;
    }
    default: emit_mem(g, th, in, depth + (guard ? 1 : 0)); return;
    }
}

static void emit_block(gen *g, int th, const block *b, int depth, bool guard, int seg, int *cur)
{
    for (int i = 0; i < b->n; i++)
        emit_inst(g, th, &b->v[i], depth, guard, seg, cur);
}

/* The host simulator (backend_sim.c) calls kernels through these. */
static void sim_entry(sbuf *b, const char *pre, const char *what, int k)
{
    char nm[160];
    if (k >= 0)
        snprintf(nm, sizeof nm, "%s%s%d", pre, what, k);
    else
        snprintf(nm, sizeof nm, "%s%s", pre, what);
    sb_printf(b, "#ifdef MS_HOST_SIM\nextern \"C\" void %s_host(const u64 *w) { ms_params p; memcpy(&p, w, sizeof p); %s(p); }\n#endif\n",
              nm, nm);
}

/* ---- the test kernels --------------------------------------------------------------- */

static bool loc_used_by(const test *t, int gpu, const block *b, int l)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if ((in->kind == I_LD || in->kind == I_ST || in->kind == I_RMW || in->kind == I_AWAIT) &&
            mem_static_loc(t, gpu, &in->mem) == l)
            return true;
        if ((in->kind == I_IF || in->kind == I_FOR) &&
            (loc_used_by(t, gpu, &in->body, l) || loc_used_by(t, gpu, &in->els, l)))
            return true;
    }
    return false;
}

static void emit_group(gen *g, const hw_kernel *K, int gi)
{
    const test *t = g->t;
    const hw_group *G = &K->groups[gi];
    sbuf *b = g->b;
    sb_printf(b, "    %s (j == %d) { /* work-group %d: ", gi ? "} else if" : "if", gi, G->wg);
    for (int q = 0; q < G->nthreads; q++)
        sb_printf(b, "%s%s", q ? ", " : "", t->threads[G->threads[q]].name);
    sb_printf(b, " */\n");
    sb_printf(b, "        const unsigned V = %du; /* waves (warps) of this work-group */\n", G->nwaves);
    sb_printf(b, "        const unsigned row = warp / V, v = warp %% V;\n");
    sb_printf(b, "        int role = -1;\n        if (row < R) {\n");
    for (int q = 0; q < G->nthreads; q++) {
        int th = G->threads[q];
        const hw_role *r = &g->p->role[th];
        sb_printf(b, "            if (v == %du && q == %du) role = %d; /* %s */\n", r->wave, r->lane, th,
                  t->threads[th].name);
    }
    sb_printf(b, "        }\n");
    sb_printf(b, "        const u64 s = (u64)row * L + ((col * p.v[%d] + p.v[%d]) & (L - 1));\n", PI_LMUL, PI_LOFF);
    if (gi == 0)
        sb_printf(b, "        const u64 off = 0;\n");
    else
        sb_printf(b, "        const u64 off = ms_off(%du, s, p.v[%d], M);\n", gi, PI_SEED);
    sb_printf(b, "        const u64 i = ((m + M - off) & (M - 1)) * (R * L) + s; /* the instance */\n");
    for (int l = 0; l < t->nlocs; l++) {
        bool used = false;
        for (int q = 0; q < G->nthreads && !used; q++)
            used = loc_used_by(t, t->threads[G->threads[q]].gpu, &t->threads[G->threads[q]].code, l);
        if (used)
            sb_printf(b, "        const u64 sl%d = (i * p.v[%d] + p.v[%d]) & (N - 1); /* slot of %s */\n", l,
                      PI_LOC_MUL(l), PI_LOC_OFF(l), t->locs[l].name);
    }
    if (t->heap.present) {
        /* Iris's heap-base table, for this instance: rank r's heap slice. */
        sb_printf(b, "        u64 ms_hb[%d];\n", t->heap.ranks);
        for (int r = 0; r < t->heap.ranks; r++)
            sb_printf(b, "        ms_hb[%d] = p.v[%d] + ((i * p.v[%d] + p.v[%d]) & (N - 1)) * p.v[%d];\n", r,
                      PI_HEAP_BASE(t->nlocs, r), PI_HEAP_MUL(t->nlocs, r), PI_HEAP_OFF(t->nlocs, r),
                      PI_HEAP_SIZE(t->nlocs));
        sb_printf(b, "        (void)ms_hb;\n");
    }
    for (int q = 0; q < G->nthreads; q++) {
        int th = G->threads[q];
        const thread *T = &t->threads[th];
        sb_printf(b, "        i64 t%d_sink = 0;", th);
        for (int r = 0; r < T->nregs; r++)
            sb_printf(b, " i64 t%d_r%d = 0; int t%d_o%d = 0; (void)t%d_o%d;", th, r, th, r, th, r);
        sb_printf(b, " unsigned t%d_ok = 1, t%d_st = 0; /* %s */\n", th, th, T->name);
    }
    sb_printf(b, "        (void)i;\n");
    sb_printf(b, "        if (role >= 0 && p.v[%d]) MS_STRESS(vb * 131u + warp, p.v[%d]); /* pre-stress */\n",
              PI_PRE_ITERS, PI_PRE_ITERS);
    sb_printf(b, "        MS_START();\n");
    sb_printf(b, "        if (role >= 0) MS_DELAY(blockIdx.x * 37u + warp);\n");
    for (int seg = 0; seg <= G->nbar; seg++) {
        if (seg > 0)
            sb_printf(b, "        __syncthreads(); /* barrier %d of the test */\n", seg);
        sb_printf(b, "        switch (role) {\n");
        for (int q = 0; q < G->nthreads; q++) {
            int th = G->threads[q];
            const thread *T = &t->threads[th];
            bool guard = needs_guard_block(&T->code, t);
            sb_printf(b, "        case %d: { /* %s%s */\n", th, T->name, G->nbar ? ", up to the next barrier" : "");
            sb_printf(b, "#define ms_ok t%d_ok\n#define ms_st t%d_st\n", th, th);
            int cur = 0;
            emit_block(g, th, &T->code, 3, guard, seg, &cur);
            sb_printf(b, "#undef ms_ok\n#undef ms_st\n");
            sb_printf(b, "            break;\n        }\n");
        }
        sb_printf(b, "        default: break;\n        }\n");
    }
    /* Results: the shown registers and the status bits. */
    sb_printf(b, "        switch (role) {\n");
    for (int q = 0; q < G->nthreads; q++) {
        int th = G->threads[q];
        sb_printf(b, "        case %d:\n", th);
        for (int k = 0; k < g->o->nshow; k++) {
            const show_item *s = &g->o->show[k];
            if (!s->is_mem && s->thread == th)
                sb_printf(b, "            ((i64 *)p.v[%d])[%du * N + i] = t%d_r%d;\n", PI_REGS, k, th, s->reg);
        }
        sb_printf(b, "            if (t%d_st) ms_or((unsigned *)p.v[%d] + i, t%d_st);\n", th, PI_STATUS, th);
        sb_printf(b, "            (void)t%d_ok; (void)t%d_sink;\n", th, th);
        sb_printf(b, "            break;\n");
    }
    sb_printf(b, "        default: break;\n        }\n");
}

static void emit_kernel(gen *g, int k)
{
    const hw_kernel *K = &g->p->k[k];
    sbuf *b = g->b;
    sb_printf(b, "\n/* Kernel %s on test GPU %d (device %d): %d work-group%s. */\n", g->t->kernels[K->kernel].name,
              K->gpu, K->dev, K->ngroups, K->ngroups == 1 ? "" : "s");
    sb_printf(b, "extern \"C\" __global__ void __launch_bounds__(1024) %s_k%d(const ms_params p)\n{\n", g->pre, k);
    sb_printf(b, "    const unsigned nb = gridDim.x;\n");
    sb_printf(b, "    const unsigned vb = (unsigned)(((u64)blockIdx.x * p.v[%d] + p.v[%d]) %% nb); /* shuffled block */\n",
              PI_BMUL, PI_BOFF);
    sb_printf(b, "    if (vb >= (unsigned)p.v[%d]) { /* a stressing block */\n", PI_NTEST);
    sb_printf(b, "        if (p.v[%d]) MS_STRESS(vb, p.v[%d]);\n        return;\n    }\n", PI_STRESS_ITERS,
              PI_STRESS_ITERS);
    sb_printf(b, "    const i64 ms_z = (i64)p.v[%d];\n    (void)ms_z;\n", PI_ZERO);
    sb_printf(b, "    const unsigned J = %du, L = %du;\n", K->ngroups, g->p->L);
    sb_printf(b, "    const unsigned j = vb %% J, m = vb / J;\n");
    sb_printf(b, "    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u, col = lane %% L, q = lane / L;\n");
    sb_printf(b, "    const u64 N = p.v[%d], M = p.v[%d], R = p.v[%d];\n", PI_N, PI_M, PI_R);
    sb_printf(b, "    (void)N;\n");
    for (int gi = 0; gi < K->ngroups; gi++)
        emit_group(g, K, gi);
    sb_printf(b, "    }\n}\n");
    sim_entry(b, g->pre, "_k", k);
}

/* ---- the check kernel ------------------------------------------------------------ */

static const char *ctype(vtype_t t)
{
    switch (t) {
    case TY_I8: return "signed char";
    case TY_I32: return "int";
    case TY_I64: return "long long";
    case TY_U64: return "unsigned long long";
    default: return "unsigned";
    }
}

static void emit_check(gen *g)
{
    const test *t = g->t;
    const otab *o = g->o;
    sbuf *b = g->b;
    int ns = o->nshow;
    int nb = ot_nbuckets(o) + 1;
    sb_printf(b, "\n/* Outcome table: %d entries; bucket %d = an await timed out, %d = a state no model produced, %d "
                 "= start-barrier timeouts (blocks). */\n",
              o->n, ot_bucket_timeout(o), ot_bucket_other(o), ot_nbuckets(o));
    for (int e = 0; e < o->n; e++) {
        char buf[1024];
        otab_format(o, o->e[e].vals, buf, sizeof buf);
        sb_printf(b, "/*   %d: %s%s%s */\n", e, buf, o->e[e].hang ? " (hang)" : "", o->e[e].error ? " (error)" : "");
    }
    sb_printf(b, "#define MS_NB %d\n#define MS_TIMEOUT %d\n#define MS_OTHER %d\n#define MS_OOH %d\n#define MS_BARTO %d\n", nb,
              ot_bucket_timeout(o), ot_bucket_other(o), ot_bucket_ooh(o), ot_nbuckets(o));
    if (o->lut) {
        sb_printf(b, "__constant__ short ms_lut[%ld] = {", 2 * o->codes);
        for (long c = 0; c < 2 * o->codes; c++)
            sb_printf(b, "%s%d", c ? (c % 32 ? "," : ",\n    ") : "", o->lut[c]);
        sb_printf(b, "};\n");
    } else {
        sb_printf(b, "__constant__ i64 ms_tab[%d][%d] = {", o->n ? o->n : 1, ns ? ns : 1);
        for (int e = 0; e < o->n; e++) {
            sb_printf(b, "%s{", e ? ", " : "");
            for (int k = 0; k < ns; k++) {
                sb_puts(b, k ? ", " : "");
                emit_const(b, o->e[e].vals[k]);
            }
            sb_printf(b, "%s}", ns ? "" : "0");
        }
        sb_printf(b, "%s};\n", o->n ? "" : "{0}");
        sb_printf(b, "__constant__ unsigned char ms_kind[%d] = {", o->n ? o->n : 1);
        for (int e = 0; e < o->n; e++)
            sb_printf(b, "%s%d", e ? "," : "", o->e[e].hang ? 3 : o->e[e].error ? 2 : 0);
        sb_printf(b, "%s};\n", o->n ? "" : "3");
    }
    sb_printf(b, "static __device__ int ms_classify(const i64 *v, unsigned st)\n{\n");
    sb_printf(b, "    if (st & 4u) return MS_OOH;\n    if (st & 1u) return MS_TIMEOUT;\n    (void)v;\n");
    if (o->lut) {
        sb_printf(b, "    int code = 0, d;\n");
        for (int k = 0; k < ns; k++) {
            sb_printf(b, "    d = ");
            for (int d = 0; d < o->ndom[k]; d++) {
                sb_printf(b, "v[%d] == ", k);
                emit_const(b, o->dom[k][d]);
                sb_printf(b, " ? %d : ", d);
            }
            sb_printf(b, "-1;\n    if (d < 0) return MS_OTHER;\n    code = code * %d + d;\n", o->ndom[k]);
        }
        sb_printf(b, "    const int e = ms_lut[(st & 2u) ? %ld + code : code];\n    return e < 0 ? MS_OTHER : e;\n",
                  o->codes);
    } else {
        sb_printf(b, "    const unsigned char kind = (st & 2u) ? 2 : 0;\n");
        sb_printf(b, "    for (int e = 0; e < %d; e++) {\n        if (ms_kind[e] != kind) continue;\n", o->n);
        sb_printf(b, "        bool eq = true;\n        for (int k = 0; k < %d && eq; k++) eq = ms_tab[e][k] == v[k];\n",
                  ns);
        sb_printf(b, "        if (eq) return e;\n    }\n    return MS_OTHER;\n");
    }
    sb_printf(b, "}\n");
    /* Initial values of arrays with differing elements. */
    for (int l = 0; l < t->nlocs; l++) {
        const location *L = &t->locs[l];
        bool uniform = true;
        for (int e = 1; e < L->len; e++)
            uniform = uniform && L->init[e] == L->init[0];
        if (uniform)
            continue;
        sb_printf(b, "__constant__ %s ms_init%d[%d] = {", ctype(L->type), l, L->len);
        for (int e = 0; e < L->len; e++)
            sb_printf(b, "%s(%s)%lldLL", e ? ", " : "", ctype(L->type), (long long)L->init[e]);
        sb_printf(b, "};\n");
    }
    sb_printf(b, "\n/* Classifies every instance into the histogram (one shared-memory histogram per block, then\n"
                 " * one global atomic per bucket), keeps a sample of states no model produced, and puts\n"
                 " * every location back to its initial value for the next launch. */\n");
    sb_printf(b, "extern \"C\" __global__ void __launch_bounds__(256) %s_check(const ms_params p)\n{\n", g->pre);
    sb_printf(b, "    __shared__ unsigned h[MS_NB];\n");
    sb_printf(b, "    for (unsigned x = threadIdx.x; x < MS_NB; x += blockDim.x) h[x] = 0;\n    __syncthreads();\n");
    sb_printf(b, "    const u64 N = p.v[%d];\n    const bool classify = p.v[%d] == 0;\n", PI_N, PI_MODE);
    sb_printf(b, "    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += (u64)gridDim.x * blockDim.x) {\n");
    for (int l = 0; l < t->nlocs; l++)
        sb_printf(b, "        const u64 sl%d = (i * p.v[%d] + p.v[%d]) & (N - 1);\n", l, PI_LOC_MUL(l), PI_LOC_OFF(l));
    sb_printf(b, "        if (classify) {\n");
    sb_printf(b, "            i64 v[%d];\n", ns ? ns : 1);
    for (int k = 0; k < ns; k++) {
        const show_item *s = &o->show[k];
        if (!s->is_mem) {
            sb_printf(b, "            v[%d] = ((const i64 *)p.v[%d])[%du * N + i];\n", k, PI_REGS, k);
        } else {
            int l = cell_loc(t, s->cell);
            char ix[32], addr[512];
            snprintf(ix, sizeof ix, "%d", s->cell - t->locs[l].first_cell);
            addr_string(addr, sizeof addr, t, l, ix);
            sb_printf(b, "            v[%d] = (i64)*(const volatile %s *)%s;\n", k, ctype(t->locs[l].type), addr);
        }
    }
    sb_printf(b, "            unsigned *stp = (unsigned *)p.v[%d] + i;\n            const unsigned st = *stp;\n", PI_STATUS);
    sb_printf(b, "            const int e = ms_classify(v, st);\n            atomicAdd(&h[e], 1u);\n");
    sb_printf(b, "            if (e == MS_OTHER) {\n");
    sb_printf(b, "                const unsigned x = atomicAdd((unsigned *)p.v[%d], 1u);\n", PI_EXTRA_N);
    sb_printf(b, "                if (x < %du) for (int k = 0; k < %d; k++) ((i64 *)p.v[%d])[(u64)x * %d + k] = v[k];\n",
              EXTRA_CAP, ns, PI_EXTRA, ns ? ns : 1);
    sb_printf(b, "            }\n            if (st) *stp = 0;\n        }\n");
    for (int l = 0; l < t->nlocs; l++) {
        const location *L = &t->locs[l];
        bool uniform = true;
        for (int e = 1; e < L->len; e++)
            uniform = uniform && L->init[e] == L->init[0];
        char addr[512];
        if (L->len == 1) {
            addr_string(addr, sizeof addr, t, l, "0");
            sb_printf(b, "        *(%s *)%s = (%s)%lldLL;\n", ctype(L->type), addr, ctype(L->type), (long long)L->init[0]);
        } else {
            addr_string(addr, sizeof addr, t, l, "e");
            if (uniform)
                sb_printf(b, "        for (int e = 0; e < %d; e++) *(%s *)%s = (%s)%lldLL;\n", L->len, ctype(L->type), addr,
                          ctype(L->type), (long long)L->init[0]);
            else
                sb_printf(b, "        for (int e = 0; e < %d; e++) *(%s *)%s = ms_init%d[e];\n", L->len, ctype(L->type),
                          addr, l);
        }
    }
    sb_printf(b, "    }\n    __syncthreads();\n");
    sb_printf(b, "    for (unsigned x = threadIdx.x; x < MS_NB; x += blockDim.x)\n");
    sb_printf(b, "        if (h[x]) atomicAdd((unsigned long long *)p.v[%d] + x, (unsigned long long)h[x]);\n}\n", PI_HIST);
    sim_entry(b, g->pre, "_check", -1);
}

/* ---- helpers common to both back ends ---------------------------------------------- */

static void emit_common(gen *g)
{
    sbuf *b = g->b;
    sb_printf(b,
              "static __device__ __forceinline__ i64 ms_add(i64 a, i64 b) { return (i64)((u64)a + (u64)b); }\n"
              "static __device__ __forceinline__ i64 ms_sub(i64 a, i64 b) { return (i64)((u64)a - (u64)b); }\n"
              "static __device__ __forceinline__ i64 ms_mul(i64 a, i64 b) { return (i64)((u64)a * (u64)b); }\n"
              "static __device__ __forceinline__ i64 ms_neg(i64 a) { return (i64)(0ull - (u64)a); }\n"
              "/* Division by zero (and INT64_MIN / -1) is 0, as in memsim. */\n"
              "static __device__ __forceinline__ i64 ms_div(i64 a, i64 b) { return b == 0 || (b == -1 && a == "
              "(-9223372036854775807LL - 1)) ? 0 : a / b; }\n"
              "static __device__ __forceinline__ i64 ms_mod(i64 a, i64 b) { return b == 0 || (b == -1 && a == "
              "(-9223372036854775807LL - 1)) ? 0 : a %% b; }\n"
              "static __device__ __forceinline__ i64 ms_shl(i64 a, i64 b) { return (i64)((u64)a << (b & 63)); }\n"
              "static __device__ __forceinline__ i64 ms_shr(i64 a, i64 b) { return a >> (b & 63); }\n"
              "/* The heap variable an address came from (+1), through + and - of offsets, as memsim follows it. */\n"
              "static __device__ __forceinline__ int ms_oadd(int a, int b) { return (a == 0) != (b == 0) ? (a ? a : b) : 0; }\n"
              "static __device__ __forceinline__ int ms_osub(int a, int b) { return b == 0 ? a : 0; }\n");
    /* Helpers take values, never the parameter block by reference: taking its
     * address would make NVVM copy it to local memory. */
    sb_printf(b,
              "\n/* Memory stress: loops of a store/load pattern on one line of this device's scratch memory. */\n"
              "static __device__ __noinline__ void ms_stress(u64 scratch, u64 lines, u64 lw, u64 targets, u64 seed,\n"
              "                                              unsigned pat, unsigned key, u64 iters)\n{\n"
              "    if (!lines || !lw) return;\n"
              "    if (!targets) targets = 1;\n"
              "    const u64 tsel = ((u64)key * 2654435761ull + seed) %% targets;\n"
              "    const u64 line = (tsel * 7919ull + (seed >> 20)) %% lines;\n"
              "    volatile unsigned *a = (volatile unsigned *)scratch + line * lw + (threadIdx.x %% lw);\n"
              "    unsigned x = 0;\n"
              "    for (u64 k = 0; k < iters; k++) {\n"
              "        switch (pat) {\n"
              "        case 0: *a = (unsigned)k; *a = (unsigned)k + 1u; break;\n"
              "        case 1: *a = (unsigned)k; x += *a; break;\n"
              "        case 2: x += *a; *a = (unsigned)k; break;\n"
              "        default: x += *a; x += *a; break;\n"
              "        }\n"
              "    }\n"
              "    if (x == 0x7fffffffu) *a = x;\n}\n"
              "#define MS_STRESS(key, iters) ms_stress(p.v[%d], p.v[%d], p.v[%d], p.v[%d], p.v[%d], (unsigned)p.v[%d], (key), (iters))\n",
              PI_SCRATCH, PI_SCRATCH_LINES, PI_LINE_WORDS, PI_STRESS_TARGETS, PI_SEED, PI_STRESS_PATTERN);
    sb_printf(b,
              "\n/* Bounded start barrier: thread 0 of each testing block arrives and waits until every testing\n"
              " * block of the launch (all GPUs of this kernel level) arrived, or its budget of cycles ran out;\n"
              " * the budget keeps blocks that are not resident from hanging anyone. */\n"
              "static __device__ __forceinline__ void ms_start(u64 bar, u64 target, u64 budget, u64 hist)\n{\n"
              "    if (!budget) return;\n"
              "    if (threadIdx.x == 0) {\n"
              "        unsigned *c = (unsigned *)bar;\n"
              "        ms_bar_add(c);\n"
              "        const u64 t0 = clock64();\n"
              "        while (ms_bar_ld(c) < (unsigned)target) {\n"
              "            if (clock64() - t0 > budget) { atomicAdd((unsigned long long *)hist + MS_BARTO, 1ull); break; }\n"
              "        }\n"
              "    }\n"
              "    __syncthreads();\n}\n"
              "#define MS_START() ms_start(p.v[%d], p.v[%d], p.v[%d], p.v[%d])\n",
              PI_BAR, PI_BAR_TARGET, PI_BAR_BUDGET, PI_HIST);
    sb_printf(b,
              "\n/* Start skew: a warp-uniform delay of SKEW_A + key * SKEW_B cycles, key in 0..32; roles on\n"
              " * different GPUs get different A and B, which sweeps their relative start. */\n"
              "static __device__ __forceinline__ void ms_delay(u64 a, u64 b, unsigned key)\n{\n"
              "    const u64 d = a + (u64)(key %% 33u) * b;\n"
              "    if (!d) return;\n"
              "    const u64 t0 = clock64();\n"
              "    while (clock64() - t0 < d) { }\n}\n"
              "#define MS_DELAY(key) ms_delay(p.v[%d], p.v[%d], (key))\n",
              PI_SKEW_A, PI_SKEW_B);
    sb_printf(b,
              "\n/* Partner block offset of work-group g for instance slot s (a bijection on blocks for fixed g, s). */\n"
              "static __device__ __forceinline__ u64 ms_off(unsigned g, u64 s, u64 seed, u64 M)\n{\n"
              "    u64 h = (s + 1ull) * 0x9E3779B97F4A7C15ull ^ (seed + (u64)g * 0xBF58476D1CE4E5B9ull);\n"
              "    h ^= h >> 29;\n    h *= 0x94D049BB133111EBull;\n    h ^= h >> 32;\n"
              "    return h & (M - 1);\n}\n");
}

/* The symmetric heap's layout as the test declares it, and the device side of
 * Iris's address arithmetic. */
static void emit_heap(gen *g)
{
    const symheap *h = &g->t->heap;
    sbuf *b = g->b;
    sb_printf(b, "\n/* Symmetric heap: %d ranks, %lld bytes each; per rank, each variable's byte offset. */\n", h->ranks,
              (long long)h->size);
    sb_printf(b, "__constant__ long long ms_hoff[%d][%d] = {", h->ranks, h->nvars);
    for (int r = 0; r < h->ranks; r++) {
        sb_printf(b, "%s{", r ? ", " : "");
        for (int v = 0; v < h->nvars; v++)
            sb_printf(b, "%s%lldLL", v ? ", " : "", (long long)h->offset[r][v]);
        sb_printf(b, "}");
    }
    sb_printf(b, "};\n__constant__ int ms_hlen[%d] = {", h->nvars);
    for (int v = 0; v < h->nvars; v++)
        sb_printf(b, "%s%d", v ? ", " : "", h->vars[v].len);
    sb_printf(b, "};\n__constant__ int ms_hesz[%d] = {", h->nvars);
    for (int v = 0; v < h->nvars; v++)
        sb_printf(b, "%s%d", v ? ", " : "", (int)vtype_size(h->vars[v].type));
    sb_printf(b, "};\n");
    sb_printf(b,
              "/* Where address a falls: the rank whose heap slice (of this instance) holds it, with the variable\n"
              " * and element; -1 outside every slice (out of heap), -2 inside but past every variable or not\n"
              " * aligned to an element. */\n"
              "static __device__ int ms_where(u64 a, const u64 *hb, int *var, i64 *elem)\n{\n"
              "    for (int r = 0; r < %d; r++) {\n"
              "        if (a < hb[r] || a - hb[r] >= %lldull) continue;\n"
              "        const long long off = (long long)(a - hb[r]);\n"
              "        for (int v = 0; v < %d; v++) {\n"
              "            const long long st = ms_hoff[r][v];\n"
              "            if (off < st || off >= st + (long long)ms_hesz[v] * ms_hlen[v]) continue;\n"
              "            if ((off - st) %% ms_hesz[v]) return -2;\n"
              "            *var = v; *elem = (off - st) / ms_hesz[v];\n"
              "            return r;\n"
              "        }\n"
              "        return -2;\n"
              "    }\n"
              "    return -1;\n}\n",
              h->ranks, (long long)h->size, h->nvars);
    sb_printf(b,
              "/* translate(p, from, to) = base[to] + (p - base[from]) (Iris's __translate; no check, as Iris).  A\n"
              " * rank outside the heap is memsim's error: the status says so and the address is 0 (out of heap). */\n"
              "static __device__ __forceinline__ i64 ms_tr(i64 p, i64 from, i64 to, const u64 *hb, unsigned *st)\n{\n"
              "    if ((u64)from >= %dull || (u64)to >= %dull) { *st |= 2u; return 0; }\n"
              "    return (i64)(hb[to] + ((u64)p - hb[from]));\n}\n",
              h->ranks, h->ranks);
}

int codegen(hw_code *c, backend_t bk, const hw_plan *p, const otab *o, const char *prefix, int with_header, char *err,
            size_t errsz)
{
    memset(c, 0, sizeof *c);
    const test *t = p->t;
    const hw_emitter *em = bk == BK_CUDA ? &emit_cuda : &emit_hip;
    sbuf b = {0};
    gen g = {.p = p, .t = t, .o = o, .em = em, .b = &b, .pre = prefix ? prefix : "ms"};
    cur_test = t;
    if (o->nshow > 4096) {
        snprintf(err, errsz, "%s: too many shown values (%d) for the device classifier", t->file, o->nshow);
        return -1;
    }
    sb_printf(&b, "/* memsim hwrun: generated for %s from %s.\n * Test: %s\n * Do not edit: regenerate with "
                  "memsim hwrun --emit-source. */\n",
              em->name, t->file, t->name);
    if (with_header)
        em->header(&b);
    sb_printf(&b, "namespace %s_ns {\ntypedef long long i64;\ntypedef unsigned long long u64;\n", g.pre);
    sb_printf(&b, "struct ms_params { u64 v[%d]; };\n", hw_nparams(t));
    sb_printf(&b, "#define MS_NB %d\n#define MS_BARTO %d\n", ot_nbuckets(o) + 1, ot_nbuckets(o));
    em->prelude(&b);
    emit_common(&g);
    if (t->heap.present)
        emit_heap(&g);
    sb_printf(&b, "#undef MS_NB\n#undef MS_BARTO\n");
    for (int k = 0; k < p->nk; k++)
        emit_kernel(&g, k);
    emit_check(&g);
    sb_printf(&b, "#undef MS_NB\n#undef MS_TIMEOUT\n#undef MS_OTHER\n#undef MS_OOH\n#undef MS_BARTO\n");
    sb_printf(&b, "#undef MS_STRESS\n#undef MS_START\n#undef MS_DELAY\n");
    sb_printf(&b, "} /* namespace %s_ns */\n", g.pre);
    c->src = sb_take(&b);
    c->nkernels = p->nk;
    c->kernel_names = calloc((size_t)(p->nk ? p->nk : 1), sizeof *c->kernel_names);
    for (int k = 0; k < p->nk; k++) {
        char nm[128];
        snprintf(nm, sizeof nm, "%s_k%d", g.pre, k);
        c->kernel_names[k] = strdup(nm);
    }
    char nm[128];
    snprintf(nm, sizeof nm, "%s_check", g.pre);
    c->check_name = strdup(nm);
    c->nparams = hw_nparams(t);
    c->expect = g.expect;
    c->nexpect = g.nexpect;
    return 0;
}

void codegen_header(sbuf *b, backend_t bk) { (bk == BK_CUDA ? &emit_cuda : &emit_hip)->header(b); }

void code_free(hw_code *c)
{
    free(c->src);
    for (int k = 0; k < c->nkernels; k++)
        free(c->kernel_names[k]);
    free(c->kernel_names);
    free(c->check_name);
    for (int i = 0; i < c->nexpect; i++)
        free(c->expect[i]);
    free(c->expect);
    memset(c, 0, sizeof *c);
}
