/* LLVM IR -> memsim threads.  Each thread of a launch is translated on its
 * own, by running its kernel's code with what is known about it: its thread
 * and work-group ids, the launch's arguments and the addresses of the
 * launch's memory are numbers, so address arithmetic (GEPs, Iris's heap
 * translation), thread-id branches and counted loops are computed here, as
 * the GPU would.  Values read from memory are not known: they become the
 * thread's registers, and what is computed from them becomes expressions.
 * A branch on such a value becomes an `if` (joined at the branch's
 * immediate post-dominator), or, when it leaves a loop, a spin: the loop's
 * last iteration, with the load or CAS its exit depends on made an `await`.
 * Calls are inlined. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- messages and source lines -------------------------------------------------------- */

static void where(xlate *x, LLVMValueRef inst, char *file, size_t fsz, int *line, int *col)
{
    snprintf(file, fsz, "%s", x->m ? x->m->path : "?");
    *line = *col = 0;
    LLVMMetadataRef loc = inst ? LLVMInstructionGetDebugLoc(inst) : NULL;
    if (!loc)
        return;
    /* The outermost call site: the kernel's own line, not a header's or a helper's. */
    for (LLVMMetadataRef up; (up = LLVMDILocationGetInlinedAt(loc));)
        loc = up;
    *line = (int)LLVMDILocationGetLine(loc);
    *col = (int)LLVMDILocationGetColumn(loc);
    LLVMMetadataRef scope = LLVMDILocationGetScope(loc);
    LLVMMetadataRef fm = scope ? LLVMDIScopeGetFile(scope) : NULL;
    if (fm) {
        unsigned n = 0;
        const char *name = LLVMDIFileGetFilename(fm, &n);
        if (name && n)
            snprintf(file, fsz, "%.*s", (int)n, name);
    }
}

static char *inst_text(LLVMValueRef inst)
{
    char *s = LLVMPrintValueToString(inst);
    char *r = strdup(s);
    LLVMDisposeMessage(s);
    char *p = r;
    while (*p == ' ')
        p++;
    memmove(r, p, strlen(p) + 1);
    char *dbg = strstr(r, ", !dbg");
    if (dbg)
        *dbg = 0;
    if (strlen(r) > 160)
        strcpy(r + 150, " ...");
    return r;
}

void xfail(xlate *x, const char *fmt, ...)
{
    if (x->failed)
        return;
    x->failed = true;
    char file[512], msg[1024];
    int line, col;
    where(x, x->cur, file, sizeof file, &line, &col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *what = x->cur ? inst_text(x->cur) : NULL;
    size_t fl;
    const char *fn = x->cur ? LLVMGetValueName2(LLVMGetBasicBlockParent(LLVMGetInstructionParent(x->cur)), &fl) : "";
    snprintf(x->err, x->errsz, "%s:%d:%d: error: %s\n  in function %s%s%s", file, line, col, msg, fn,
             what ? ", instruction: " : "", what ? what : "");
    free(what);
}

void xnote(xlate *x, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (int i = 0; i < x->notes->n; i++)
        if (strcmp(x->notes->v[i], msg) == 0)
            return;
    x->notes->v = realloc(x->notes->v, (size_t)(x->notes->n + 1) * sizeof *x->notes->v);
    x->notes->v[x->notes->n++] = strdup(msg);
}

srcpos xpos(xlate *x, LLVMValueRef inst)
{
    char file[512];
    int line, col;
    where(x, inst, file, sizeof file, &line, &col);
    if (line == 0 && x->last_pos.line > 0)
        return x->last_pos; /* no !dbg: the statement before it is the nearest source line */
    test *t = x->t;
    for (int i = 0; i < t->nsrcmap; i++)
        if (t->srcmap[i].line == line && t->srcmap[i].col == col && strcmp(t->srcmap[i].file, file) == 0)
            return x->last_pos = (srcpos){i + 1, col};
    t->srcmap = realloc(t->srcmap, (size_t)(t->nsrcmap + 1) * sizeof *t->srcmap);
    srcline *s = &t->srcmap[t->nsrcmap++];
    s->file = strdup(file);
    s->line = line;
    s->col = col;
    s->what = inst ? inst_text(inst) : NULL;
    x->last_pos = (srcpos){t->nsrcmap, col};
    return x->last_pos;
}

/* ---- registers and values ------------------------------------------------------------- */

int new_reg(xlate *x)
{
    thread *th = x->th;
    th->regs = realloc(th->regs, (size_t)(th->nregs + 1) * sizeof *th->regs);
    char name[32];
    snprintf(name, sizeof name, "r%d", th->nregs);
    th->regs[th->nregs] = strdup(name);
    return th->nregs++;
}

static expr *reg_expr(int r) { return expr_reg(r, (srcpos){0, 0}); }
static expr *cst(int64_t v) { return expr_const(v, (srcpos){0, 0}); }

static int int_bits(xlate *x, LLVMTypeRef ty)
{
    switch (LLVMGetTypeKind(ty)) {
    case LLVMIntegerTypeKind: return (int)LLVMGetIntTypeWidth(ty);
    case LLVMPointerTypeKind: return (int)LLVMPointerSizeForAS(x->m->td, LLVMGetPointerAddressSpace(ty)) * 8;
    default: return 64;
    }
}

/* A known value as an LLVM integer of this width holds it: sign-extended. */
static int64_t wrap(int64_t v, int bits)
{
    if (bits >= 64)
        return v;
    if (bits == 1)
        return v & 1;
    uint64_t m = (1ull << bits) - 1, u = (uint64_t)v & m;
    return (u >> (bits - 1)) & 1 ? (int64_t)(u | ~m) : (int64_t)u;
}

static uint64_t zext_of(int64_t v, int bits) { return bits >= 64 ? (uint64_t)v : (uint64_t)v & ((1ull << bits) - 1); }

static bool const_value(xlate *x, frame *f, LLVMValueRef v, val *out);

val *xoperand(xlate *x, frame *f, LLVMValueRef v)
{
    val *got = vmap_get(&f->vals, v);
    if (got)
        return got;
    val c = {0};
    if (LLVMIsAInstruction(v) || LLVMIsAArgument(v)) {
        xfail(x, "a value is used before it is computed (translation order)");
        return NULL;
    }
    if (!const_value(x, f, v, &c))
        return NULL;
    vmap_put(&f->vals, v, c);
    return vmap_get(&f->vals, v);
}

/* Work-group globals (LDS / __shared__): each its own 64 KiB window. */
static int64_t lds_global(xlate *x, LLVMValueRef g)
{
    int k = 0;
    for (LLVMValueRef h = LLVMGetFirstGlobal(x->m->mod); h && h != g; h = LLVMGetNextGlobal(h))
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(h)) == 3)
            k++;
    return LDS_BASE + (int64_t)k * 65536;
}

static bool const_value(xlate *x, frame *f, LLVMValueRef v, val *out)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    if (LLVMIsAConstantInt(v)) {
        int bits = int_bits(x, ty);
        *out = val_known(bits == 1 ? (int64_t)LLVMConstIntGetZExtValue(v) : wrap(LLVMConstIntGetSExtValue(v), bits));
        return true;
    }
    if (LLVMIsAConstantPointerNull(v) || LLVMIsAConstantAggregateZero(v) || LLVMIsAUndefValue(v) || LLVMIsAPoisonValue(v)) {
        if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind || LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
            int n = LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? (int)LLVMGetVectorSize(ty) : (int)LLVMCountStructElementTypes(ty);
            *out = (val){.k = V_AGG, .n = n, .el = calloc((size_t)n + 1, sizeof(val))};
            for (int i = 0; i < n; i++)
                out->el[i] = val_known(0);
            return true;
        }
        *out = val_known(0);
        return true;
    }
    if (LLVMIsAGlobalVariable(v)) {
        unsigned as = LLVMGetPointerAddressSpace(ty);
        if (as == 3) {
            *out = val_known(lds_global(x, v));
            return true;
        }
        size_t n;
        xfail(x, "global variable @%s: module globals are not modelled (pass memory as a kernel argument)",
              LLVMGetValueName2(v, &n));
        return false;
    }
    if (LLVMIsAConstantDataVector(v) || LLVMIsAConstantVector(v)) {
        int n = (int)LLVMGetVectorSize(ty);
        *out = (val){.k = V_AGG, .n = n, .el = calloc((size_t)n + 1, sizeof(val))};
        for (int i = 0; i < n; i++) {
            LLVMValueRef e = LLVMGetAggregateElement(v, (unsigned)i);
            val *ev = e ? xoperand(x, f, e) : NULL;
            if (!ev)
                return false;
            out->el[i] = val_copy(ev);
        }
        return true;
    }
    if (LLVMIsAConstantExpr(v)) {
        LLVMOpcode op = LLVMGetConstOpcode(v);
        val *a = xoperand(x, f, LLVMGetOperand(v, 0));
        if (!a)
            return false;
        if (op == LLVMAddrSpaceCast || op == LLVMBitCast || op == LLVMPtrToInt || op == LLVMIntToPtr) {
            *out = val_copy(a);
            if (op == LLVMAddrSpaceCast && a->k == V_KNOWN) {
                unsigned from = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(v, 0)));
                unsigned to = LLVMGetPointerAddressSpace(ty);
                if (from == 3 && to != 3)
                    out->c = a->c - LDS_BASE + LDS_FLAT;
                else if (from != 3 && to == 3)
                    out->c = a->c - LDS_FLAT + LDS_BASE;
            }
            return true;
        }
        if (op == LLVMGetElementPtr && a->k == V_KNOWN && LLVMGetNumOperands(v) == 2) {
            val *i = xoperand(x, f, LLVMGetOperand(v, 1));
            if (!i || i->k != V_KNOWN) {
                xfail(x, "a constant expression the translation does not compute");
                return false;
            }
            /* i8 GEPs as Triton and clang fold them */
            *out = val_known(a->c + i->c);
            return true;
        }
        xfail(x, "a constant expression the translation does not compute");
        return false;
    }
    xfail(x, "a constant of a kind the translation does not read");
    return false;
}

/* ---- expressions over the thread's registers ----------------------------------------- */

static bool is_cmp(binop_t op) { return op >= BIN_EQ && op <= BIN_GE; }

static binop_t negate(binop_t op)
{
    switch (op) {
    case BIN_EQ: return BIN_NE;
    case BIN_NE: return BIN_EQ;
    case BIN_LT: return BIN_GE;
    case BIN_GE: return BIN_LT;
    case BIN_LE: return BIN_GT;
    default: return BIN_LE; /* GT */
    }
}

static binop_t swap_cmp(binop_t op)
{
    switch (op) {
    case BIN_LT: return BIN_GT;
    case BIN_GT: return BIN_LT;
    case BIN_LE: return BIN_GE;
    case BIN_GE: return BIN_LE;
    default: return op;
    }
}

static bool uses_reg(const expr *e, int r)
{
    return e && ((e->kind == EX_REG && e->reg == r) || uses_reg(e->a, r) || uses_reg(e->b, r) || uses_reg(e->c, r));
}

/* ---- emitting ---------------------------------------------------------------------------- */

void emit_access(xlate *x, block *out, inst *in, LLVMValueRef at)
{
    in->pos = xpos(x, at);
    block_push(out, in);
}

static inst new_inst(instkind_t k)
{
    inst in;
    memset(&in, 0, sizeof in);
    in.kind = k;
    in.dst = -1;
    in.mem.symvar = -1;
    return in;
}

/* Where each register was read: the LLVM block, for spin loops. */
typedef struct {
    LLVMBasicBlockRef *bb;
    int n;
} regsrc;
static _Thread_local regsrc g_regsrc;

static void reg_from(int r, LLVMBasicBlockRef bb)
{
    if (r >= g_regsrc.n) {
        g_regsrc.bb = realloc(g_regsrc.bb, (size_t)(r + 64) * sizeof *g_regsrc.bb);
        for (int i = g_regsrc.n; i < r + 64; i++)
            g_regsrc.bb[i] = NULL;
        g_regsrc.n = r + 64;
    }
    g_regsrc.bb[r] = bb;
}

static order_t order_of(LLVMAtomicOrdering o)
{
    switch (o) {
    case LLVMAtomicOrderingNotAtomic: return ORD_PLAIN;
    case LLVMAtomicOrderingUnordered:
    case LLVMAtomicOrderingMonotonic: return ORD_RELAXED;
    case LLVMAtomicOrderingAcquire: return ORD_ACQUIRE;
    case LLVMAtomicOrderingRelease: return ORD_RELEASE;
    case LLVMAtomicOrderingAcquireRelease: return ORD_ACQ_REL;
    default: return ORD_SEQ_CST;
    }
}

/* The instruction's syncscope; false after an error (cluster) or for singlethread. */
static bool scope_of(xlate *x, LLVMValueRef in, scope_t *s)
{
    module *m = x->m;
    unsigned id = LLVMGetAtomicSyncScopeID(in);
    if (id == m->ss_sys || id == m->ss_sys1)
        *s = SCOPE_SYS;
    else if (id == m->ss_agent || id == m->ss_agent1 || id == m->ss_device)
        *s = SCOPE_AGENT;
    else if (id == m->ss_wg || id == m->ss_wg1 || id == m->ss_block)
        *s = SCOPE_WG;
    else if (id == m->ss_wave || id == m->ss_wave1)
        *s = SCOPE_WAVE;
    else if (id == m->ss_single) {
        *s = SCOPE_THREAD;
        return true;
    } else {
        xfail(x, "a synchronization scope memsim does not model (%s)", id == m->ss_cluster ? "cluster" : "unknown");
        return false;
    }
    if (id == m->ss_sys1 || id == m->ss_agent1 || id == m->ss_wg1 || id == m->ss_wave1)
        xnote(x, "a '-one-as' syncscope orders only its own address space; memsim orders all memory (it may miss a "
                 "missing ordering between global and work-group memory)");
    return true;
}

static bool vtype_of(xlate *x, LLVMTypeRef ty, vtype_t *vt)
{
    switch (LLVMGetTypeKind(ty)) {
    case LLVMIntegerTypeKind:
        switch (LLVMGetIntTypeWidth(ty)) {
        case 8: *vt = TY_I8; return true;
        case 32: *vt = TY_I32; return true;
        case 64: *vt = TY_I64; return true;
        default: break;
        }
        break;
    case LLVMPointerTypeKind: *vt = TY_I64; return true;
    case LLVMFloatTypeKind: *vt = TY_F32; return true;
    default: break;
    }
    char *s = LLVMPrintTypeToString(ty);
    xfail(x, "memory accesses of type %s are not modelled (i8, i32, i64, float and pointers are)", s);
    LLVMDisposeMessage(s);
    return false;
}

/* The memory operand of an access through pointer p (element k of a vector access). */
static bool access_operand(xlate *x, frame *f, LLVMValueRef p, int64_t byteoff, vtype_t vt, memref *m, bool *is_table,
                           int64_t *table_value)
{
    val *pv = xoperand(x, f, p);
    if (!pv)
        return false;
    if (pv->k != V_KNOWN) {
        xfail(x, "the address depends on a value read from memory: pointers loaded from memory are not followed");
        return false;
    }
    bool lds = LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 3;
    return mem_resolve(x, pv->c + byteoff, lds, vt, m, is_table, table_value);
}

static bool is_lds_loc(xlate *x, const memref *m) { return m->loc >= x->lds_first_loc && m->symvar < 0; }

static void forward_clear(xlate *x)
{
    for (int i = 0; i < x->nfw; i++)
        expr_free(x->fw_val[i]);
    x->nfw = 0;
}

static void forward_record(xlate *x, int cell, const val *v)
{
    for (int i = 0; i < x->nfw; i++)
        if (x->fw_cell[i] == cell) {
            expr_free(x->fw_val[i]);
            x->fw_val[i] = val_expr(v);
            return;
        }
    x->fw_cell = realloc(x->fw_cell, (size_t)(x->nfw + 1) * sizeof *x->fw_cell);
    x->fw_val = realloc(x->fw_val, (size_t)(x->nfw + 1) * sizeof *x->fw_val);
    x->fw_cell[x->nfw] = cell;
    x->fw_val[x->nfw++] = val_expr(v);
}

/* Cells whose loads were forwarded from this thread's own store: no other
 * thread may write them (checked when every thread is made). */
typedef struct {
    int *cell, *thread;
    int n;
} fwdcheck;
static _Thread_local fwdcheck g_fwd;

static void memref_free(memref *m)
{
    expr_free(m->index);
    expr_free(m->peer);
    expr_free(m->ptr);
}

/* A load at a known address; the value it gives.  *res is a number for
 * the heap-base table, else the new register (or, for Triton's LDS
 * broadcast, the value this thread stored there itself). */
bool access_load(xlate *x, block *out, LLVMValueRef at, int64_t addr, bool lds, vtype_t vt, order_t ord, scope_t scope,
                 cache_t cache, val *res)
{
    memref m;
    bool table;
    int64_t tv;
    if (!mem_resolve(x, addr, lds, vt, &m, &table, &tv))
        return false;
    if (table) {
        *res = val_known(tv);
        return true;
    }
    inst ld = new_inst(I_LD);
    ld.mem = m;
    ld.ord = ord;
    ld.scope = ord == ORD_PLAIN ? SCOPE_NONE : scope;
    ld.cache = cache;
    ld.dst = new_reg(x);
    reg_from(ld.dst, LLVMGetInstructionParent(at));
    int cell = mem_cell_of(x, &ld.mem);
    *res = val_sym(reg_expr(ld.dst));
    if (is_lds_loc(x, &ld.mem))
        for (int i = 0; i < x->nfw; i++)
            if (x->fw_cell[i] == cell) {
                /* Triton's LDS broadcast: this thread reads back its own store. */
                val_free(res);
                *res = val_sym(expr_clone(x->fw_val[i]));
                g_fwd.cell = realloc(g_fwd.cell, (size_t)(g_fwd.n + 1) * sizeof *g_fwd.cell);
                g_fwd.thread = realloc(g_fwd.thread, (size_t)(g_fwd.n + 1) * sizeof *g_fwd.thread);
                g_fwd.cell[g_fwd.n] = cell;
                g_fwd.thread[g_fwd.n++] = (int)(x->th - x->t->threads);
                break;
            }
    emit_access(x, out, &ld, at);
    return true;
}

bool access_store(xlate *x, block *out, LLVMValueRef at, int64_t addr, bool lds, vtype_t vt, order_t ord, scope_t scope,
                  cache_t cache, const val *v)
{
    memref m;
    bool table;
    int64_t tv;
    if (!mem_resolve(x, addr, lds, vt, &m, &table, &tv))
        return false;
    if (table) {
        memref_free(&m);
        xfail(x, "a store to the heap-base table, which the launch makes read-only");
        return false;
    }
    if (v->k != V_KNOWN && v->k != V_SYM) {
        memref_free(&m);
        xfail(x, "a stored value the translation does not follow");
        return false;
    }
    inst st = new_inst(I_ST);
    st.mem = m;
    st.ord = ord;
    st.scope = ord == ORD_PLAIN ? SCOPE_NONE : scope;
    st.cache = cache;
    st.val = val_expr(v);
    if (is_lds_loc(x, &st.mem))
        forward_record(x, mem_cell_of(x, &st.mem), v);
    emit_access(x, out, &st, at);
    return true;
}

bool access_rmw(xlate *x, block *out, LLVMValueRef at, int64_t addr, bool lds, vtype_t vt, rmwop_t op, order_t ord,
                scope_t scope, const val *a, const val *b, bool want_old, val *old)
{
    inst r = new_inst(I_RMW);
    bool table;
    int64_t tv;
    if (!mem_resolve(x, addr, lds, vt, &r.mem, &table, &tv))
        return false;
    if (table) {
        memref_free(&r.mem);
        xfail(x, "an atomic on the heap-base table, which the launch makes read-only");
        return false;
    }
    if ((a->k != V_KNOWN && a->k != V_SYM) || (b && b->k != V_KNOWN && b->k != V_SYM)) {
        memref_free(&r.mem);
        xfail(x, "an atomic operand the translation does not follow");
        return false;
    }
    r.rmw = op;
    r.ord = ord;
    r.scope = scope;
    r.val = val_expr(a);
    if (b)
        r.val2 = val_expr(b);
    /* PTX: the order applies to the access whether or not the compare succeeds */
    if (op == RMW_CAS)
        r.fail_ord = ord == ORD_ACQUIRE || ord == ORD_ACQ_REL ? ORD_ACQUIRE : ord == ORD_SEQ_CST ? ORD_SEQ_CST : ORD_RELAXED;
    if (want_old) {
        r.dst = new_reg(x);
        reg_from(r.dst, LLVMGetInstructionParent(at));
        *old = val_sym(reg_expr(r.dst));
    }
    emit_access(x, out, &r, at);
    return true;
}

static bool known_pointer(xlate *x, frame *f, LLVMValueRef p, int64_t *addr, bool *lds)
{
    val *pv = xoperand(x, f, p);
    if (!pv)
        return false;
    if (pv->k != V_KNOWN) {
        xfail(x, "the address depends on a value read from memory: pointers loaded from memory are not followed");
        return false;
    }
    *addr = pv->c;
    *lds = LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 3;
    return true;
}

static bool mem_order(xlate *x, LLVMValueRef in, order_t *ord, scope_t *scope, cache_t *cache)
{
    *ord = order_of(LLVMGetOrdering(in));
    *scope = SCOPE_NONE;
    if (*ord != ORD_PLAIN && !scope_of(x, in, scope))
        return false;
    if (*scope == SCOPE_THREAD)
        *scope = SCOPE_WAVE;
    *cache = LLVMGetVolatile(in) ? CACHE_VOLATILE : LLVMGetMetadata(in, x->m->md_nontemporal) ? CACHE_CS : CACHE_NONE;
    return true;
}

static bool load_one(xlate *x, frame *f, block *out, LLVMValueRef in, LLVMValueRef p, int64_t off, vtype_t vt, val *res)
{
    int64_t addr;
    bool lds;
    order_t ord;
    scope_t scope;
    cache_t cache;
    return known_pointer(x, f, p, &addr, &lds) && mem_order(x, in, &ord, &scope, &cache) &&
           access_load(x, out, in, addr + off, lds, vt, ord, scope, cache, res);
}

static bool store_one(xlate *x, frame *f, block *out, LLVMValueRef in, LLVMValueRef p, int64_t off, vtype_t vt, const val *v)
{
    int64_t addr;
    bool lds;
    order_t ord;
    scope_t scope;
    cache_t cache;
    return known_pointer(x, f, p, &addr, &lds) && mem_order(x, in, &ord, &scope, &cache) &&
           access_store(x, out, in, addr + off, lds, vt, ord, scope, cache, v);
}

/* ---- instructions ------------------------------------------------------------------------ */

static bool binop(xlate *x, LLVMOpcode op, const val *a, const val *b, int bits, val *r)
{
    if (a->k == V_KNOWN && b->k == V_KNOWN) {
        int64_t p = a->c, q = b->c, v = 0;
        uint64_t up = zext_of(p, bits), uq = zext_of(q, bits);
        switch (op) {
        case LLVMAdd: v = (int64_t)((uint64_t)p + (uint64_t)q); break;
        case LLVMSub: v = (int64_t)((uint64_t)p - (uint64_t)q); break;
        case LLVMMul: v = (int64_t)((uint64_t)p * (uint64_t)q); break;
        case LLVMAnd: v = p & q; break;
        case LLVMOr: v = p | q; break;
        case LLVMXor: v = p ^ q; break;
        case LLVMShl: v = uq >= 64 ? 0 : (int64_t)((uint64_t)p << uq); break;
        case LLVMLShr: v = uq >= 64 ? 0 : (int64_t)(up >> uq); break;
        case LLVMAShr: v = uq >= 64 ? (p < 0 ? -1 : 0) : p >> uq; break;
        case LLVMSDiv:
        case LLVMSRem:
        case LLVMUDiv:
        case LLVMURem:
            if (q == 0) {
                xfail(x, "division by zero");
                return false;
            }
            v = op == LLVMSDiv ? p / q : op == LLVMSRem ? p % q : op == LLVMUDiv ? (int64_t)(up / uq) : (int64_t)(up % uq);
            break;
        default: xfail(x, "an operation the translation does not compute"); return false;
        }
        *r = val_known(wrap(v, bits));
        return true;
    }
    if ((a->k != V_KNOWN && a->k != V_SYM) || (b->k != V_KNOWN && b->k != V_SYM)) {
        xfail(x, "an operation on values the translation does not follow");
        return false;
    }
    binop_t bo;
    switch (op) {
    case LLVMAdd: bo = BIN_ADD; break;
    case LLVMSub: bo = BIN_SUB; break;
    case LLVMMul: bo = BIN_MUL; break;
    case LLVMAnd: bo = BIN_AND; break;
    case LLVMOr: bo = BIN_OR; break;
    case LLVMXor: bo = BIN_XOR; break;
    case LLVMShl: bo = BIN_SHL; break;
    case LLVMLShr:
    case LLVMAShr: bo = BIN_SHR; break;
    case LLVMSDiv:
    case LLVMUDiv: bo = BIN_DIV; break;
    case LLVMSRem:
    case LLVMURem: bo = BIN_MOD; break;
    default: xfail(x, "an operation the translation does not compute on values read from memory"); return false;
    }
    if (op == LLVMLShr || op == LLVMUDiv || op == LLVMURem)
        xnote(x, "unsigned operations on values read from memory are computed as signed (exact for the non-negative "
                 "values that flags and counters hold)");
    *r = val_sym(expr_bin(bo, val_expr(a), val_expr(b), (srcpos){0, 0}));
    return true;
}

static bool icmp(xlate *x, LLVMIntPredicate pr, const val *a, const val *b, int bits, val *r)
{
    if (a->k == V_KNOWN && b->k == V_KNOWN) {
        int64_t p = a->c, q = b->c;
        uint64_t up = zext_of(p, bits), uq = zext_of(q, bits);
        bool v;
        switch (pr) {
        case LLVMIntEQ: v = p == q; break;
        case LLVMIntNE: v = p != q; break;
        case LLVMIntUGT: v = up > uq; break;
        case LLVMIntUGE: v = up >= uq; break;
        case LLVMIntULT: v = up < uq; break;
        case LLVMIntULE: v = up <= uq; break;
        case LLVMIntSGT: v = p > q; break;
        case LLVMIntSGE: v = p >= q; break;
        case LLVMIntSLT: v = p < q; break;
        default: v = p <= q; break;
        }
        *r = val_known(v);
        return true;
    }
    if ((a->k != V_KNOWN && a->k != V_SYM) || (b->k != V_KNOWN && b->k != V_SYM)) {
        xfail(x, "a comparison of values the translation does not follow");
        return false;
    }
    binop_t op;
    switch (pr) {
    case LLVMIntEQ: op = BIN_EQ; break;
    case LLVMIntNE: op = BIN_NE; break;
    case LLVMIntUGT:
    case LLVMIntSGT: op = BIN_GT; break;
    case LLVMIntUGE:
    case LLVMIntSGE: op = BIN_GE; break;
    case LLVMIntULT:
    case LLVMIntSLT: op = BIN_LT; break;
    default: op = BIN_LE; break;
    }
    /* (cmp) != 0 is the comparison, (cmp) == 0 its negation */
    if (b->k == V_KNOWN && b->c == 0 && (op == BIN_NE || op == BIN_EQ) && a->e->kind == EX_BIN && is_cmp(a->e->op)) {
        expr *e = expr_clone(a->e);
        if (op == BIN_EQ)
            e->op = negate(e->op);
        *r = val_sym(e);
        return true;
    }
    *r = val_sym(expr_bin(op, val_expr(a), val_expr(b), (srcpos){0, 0}));
    return true;
}

static bool gep(xlate *x, frame *f, LLVMValueRef in, val *r)
{
    val *base = xoperand(x, f, LLVMGetOperand(in, 0));
    if (!base)
        return false;
    if (base->k != V_KNOWN) {
        xfail(x, "the address depends on a value read from memory: pointers loaded from memory are not followed");
        return false;
    }
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(in);
    int64_t addr = base->c;
    int n = LLVMGetNumOperands(in);
    for (int i = 1; i < n; i++) {
        val *iv = xoperand(x, f, LLVMGetOperand(in, (unsigned)i));
        if (!iv)
            return false;
        if (iv->k != V_KNOWN) {
            xfail(x, "an index computed from a value read from memory: data-dependent addresses are not followed");
            return false;
        }
        if (i == 1) {
            addr += iv->c * (int64_t)LLVMABISizeOfType(x->m->td, ty);
            continue;
        }
        LLVMTypeKind k = LLVMGetTypeKind(ty);
        if (k == LLVMStructTypeKind) {
            addr += (int64_t)LLVMOffsetOfElement(x->m->td, ty, (unsigned)iv->c);
            ty = LLVMStructGetTypeAtIndex(ty, (unsigned)iv->c);
        } else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
            ty = LLVMGetElementType(ty);
            addr += iv->c * (int64_t)LLVMABISizeOfType(x->m->td, ty);
        } else {
            xfail(x, "a GEP through a type the translation does not lay out");
            return false;
        }
    }
    *r = val_known(wrap(addr, int_bits(x, LLVMTypeOf(in))));
    return true;
}

static bool vector_type(LLVMTypeRef ty, int *n, LLVMTypeRef *el)
{
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind) {
        *n = 1;
        *el = ty;
        return false;
    }
    *n = (int)LLVMGetVectorSize(ty);
    *el = LLVMGetElementType(ty);
    return true;
}

static bool do_load(xlate *x, frame *f, block *out, LLVMValueRef in, val *r)
{
    LLVMTypeRef el;
    int n;
    bool vec = vector_type(LLVMTypeOf(in), &n, &el);
    vtype_t vt;
    if (!vtype_of(x, el, &vt))
        return false;
    LLVMValueRef p = LLVMGetOperand(in, 0);
    if (!vec)
        return load_one(x, f, out, in, p, 0, vt, r);
    *r = (val){.k = V_AGG, .n = n, .el = calloc((size_t)n + 1, sizeof(val))};
    for (int i = 0; i < n; i++)
        if (!load_one(x, f, out, in, p, i * (int64_t)vtype_size(vt), vt, &r->el[i]))
            return false;
    return true;
}

static bool do_store(xlate *x, frame *f, block *out, LLVMValueRef in)
{
    LLVMValueRef v = LLVMGetOperand(in, 0), p = LLVMGetOperand(in, 1);
    LLVMTypeRef el;
    int n;
    bool vec = vector_type(LLVMTypeOf(v), &n, &el);
    vtype_t vt;
    if (!vtype_of(x, el, &vt))
        return false;
    val *vv = xoperand(x, f, v);
    if (!vv)
        return false;
    if (!vec)
        return store_one(x, f, out, in, p, 0, vt, vv);
    if (vv->k != V_AGG || vv->n != n) {
        xfail(x, "a vector store of a value the translation does not follow");
        return false;
    }
    for (int i = 0; i < n; i++)
        if (!store_one(x, f, out, in, p, i * (int64_t)vtype_size(vt), vt, &vv->el[i]))
            return false;
    return true;
}

static bool do_rmw(xlate *x, frame *f, block *out, LLVMValueRef in, bool cas, val *r)
{
    LLVMValueRef p = LLVMGetOperand(in, 0);
    vtype_t vt;
    if (!vtype_of(x, LLVMTypeOf(LLVMGetOperand(in, 1)), &vt))
        return false;
    inst a = new_inst(I_RMW);
    bool table;
    int64_t tv;
    if (!access_operand(x, f, p, 0, vt, &a.mem, &table, &tv))
        return false;
    if (table) {
        memref_free(&a.mem);
        xfail(x, "an atomic on the heap-base table, which the launch makes read-only");
        return false;
    }
    if (!scope_of(x, in, &a.scope)) {
        memref_free(&a.mem);
        return false;
    }
    if (a.scope == SCOPE_THREAD)
        a.scope = SCOPE_WAVE;
    val *v1 = xoperand(x, f, LLVMGetOperand(in, 1));
    val *v2 = cas ? xoperand(x, f, LLVMGetOperand(in, 2)) : NULL;
    if (!v1 || (cas && !v2)) {
        memref_free(&a.mem);
        return false;
    }
    a.val = val_expr(v1);
    if (cas) {
        a.rmw = RMW_CAS;
        a.val2 = val_expr(v2);
        a.ord = order_of(LLVMGetCmpXchgSuccessOrdering(in));
        a.fail_ord = order_of(LLVMGetCmpXchgFailureOrdering(in));
        if (LLVMGetWeak(in))
            xnote(x, "a weak cmpxchg may fail spuriously; memsim's CAS fails only on a different value");
    } else {
        a.ord = order_of(LLVMGetOrdering(in));
        switch (LLVMGetAtomicRMWBinOp(in)) {
        case LLVMAtomicRMWBinOpXchg: a.rmw = RMW_EXCH; break;
        case LLVMAtomicRMWBinOpAdd: a.rmw = RMW_ADD; break;
        case LLVMAtomicRMWBinOpSub: a.rmw = RMW_SUB; break;
        case LLVMAtomicRMWBinOpAnd: a.rmw = RMW_AND; break;
        case LLVMAtomicRMWBinOpOr: a.rmw = RMW_OR; break;
        case LLVMAtomicRMWBinOpXor: a.rmw = RMW_XOR; break;
        case LLVMAtomicRMWBinOpMax:
        case LLVMAtomicRMWBinOpUMax: a.rmw = RMW_MAX; break;
        case LLVMAtomicRMWBinOpMin:
        case LLVMAtomicRMWBinOpUMin: a.rmw = RMW_MIN; break;
        case LLVMAtomicRMWBinOpFAdd: a.rmw = RMW_FADD; break;
        default:
            memref_free(&a.mem);
            expr_free(a.val);
            xfail(x, "an atomicrmw operation memsim does not model");
            return false;
        }
    }
    if (LLVMGetVolatile(in))
        a.cache = CACHE_VOLATILE;
    if (v1->k != V_KNOWN && v1->k != V_SYM) {
        memref_free(&a.mem);
        expr_free(a.val);
        expr_free(a.val2);
        xfail(x, "an atomic operand the translation does not follow");
        return false;
    }
    a.dst = new_reg(x);
    reg_from(a.dst, LLVMGetInstructionParent(in));
    val old = val_sym(reg_expr(a.dst));
    if (cas) {
        *r = (val){.k = V_AGG, .n = 2, .el = calloc(3, sizeof(val))};
        r->el[0] = old;
        r->el[1] = val_sym(expr_bin(BIN_EQ, reg_expr(a.dst), val_expr(v1), (srcpos){0, 0}));
    } else {
        *r = old;
    }
    emit_access(x, out, &a, in);
    return true;
}

static void fence(xlate *x, block *out, LLVMValueRef in)
{
    inst fe = new_inst(I_FENCE);
    fe.ord = order_of(LLVMGetOrdering(in));
    if (!scope_of(x, in, &fe.scope))
        return;
    if (fe.scope == SCOPE_THREAD)
        return; /* a signal fence: orders the compiler only */
    emit_access(x, out, &fe, in);
}

static void barrier(xlate *x, block *out, LLVMValueRef in)
{
    inst b = new_inst(I_BARRIER);
    b.scope = SCOPE_WG;
    emit_access(x, out, &b, in);
}

/* ---- calls ---------------------------------------------------------------------------------- */

typedef enum { W_STOP = 0, W_RET, W_DEAD, W_FAIL } wend;
static wend walk(xlate *x, frame *f, LLVMBasicBlockRef bb, LLVMBasicBlockRef pred, LLVMBasicBlockRef stop, block *out,
                 LLVMBasicBlockRef *last, val *ret);

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static int dim_of(const char *name)
{
    size_t n = strlen(name);
    char c = n ? name[n - 1] : 'x';
    return c == 'x' ? 0 : c == 'y' ? 1 : 2;
}

static bool call(xlate *x, frame *f, block *out, LLVMValueRef in, val *r)
{
    LLVMValueRef callee = LLVMGetCalledValue(in);
    if (LLVMIsAInlineAsm(callee)) {
        if (x->m->nvptx)
            return ptxasm_call(x, f, out, in, r);
        size_t n;
        const char *s = LLVMGetInlineAsmAsmString(callee, &n);
        while (n && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
        if (n == 0 || starts(s, "s_waitcnt") || starts(s, "s_nop") || starts(s, "s_sleep") || s[0] == ';') {
            *r = val_known(0);
            return true; /* waits and no-ops: the model's accesses complete in order anyway */
        }
        xfail(x, "AMDGPU inline assembly '%.*s' is not understood", (int)(n > 60 ? 60 : n), s);
        return false;
    }
    if (!LLVMIsAFunction(callee)) {
        xfail(x, "an indirect call: the callee is not known");
        return false;
    }
    size_t len;
    const char *name = LLVMGetValueName2(callee, &len);
    int nargs = LLVMGetNumArgOperands(in);
    /* work-item and work-group ids, sizes */
    if (starts(name, "llvm.amdgcn.workitem.id.") || starts(name, "llvm.nvvm.read.ptx.sreg.tid.") ||
        starts(name, "__ockl_get_local_id")) {
        int d = starts(name, "__ockl") ? -1 : dim_of(name);
        if (d < 0) {
            val *a = xoperand(x, f, LLVMGetOperand(in, 0));
            d = a && a->k == V_KNOWN ? (int)a->c : 0;
        }
        *r = val_known(d == 0 ? x->tid : 0);
        return true;
    }
    if (starts(name, "llvm.amdgcn.workgroup.id.") || starts(name, "llvm.nvvm.read.ptx.sreg.ctaid.") ||
        starts(name, "__ockl_get_group_id")) {
        int d = starts(name, "__ockl") ? -1 : dim_of(name);
        if (d < 0) {
            val *a = xoperand(x, f, LLVMGetOperand(in, 0));
            d = a && a->k == V_KNOWN ? (int)a->c : 0;
        }
        *r = val_known(d == 0 ? x->wg : 0);
        return true;
    }
    if (starts(name, "llvm.nvvm.read.ptx.sreg.ntid.") || starts(name, "__ockl_get_local_size")) {
        int d = starts(name, "__ockl") ? 0 : dim_of(name);
        *r = val_known(d == 0 ? x->L->block : 1);
        return true;
    }
    if (starts(name, "llvm.nvvm.read.ptx.sreg.nctaid.") || starts(name, "__ockl_get_num_groups")) {
        int d = starts(name, "__ockl") ? 0 : dim_of(name);
        *r = val_known(d == 0 ? x->L->grid : 1);
        return true;
    }
    if (strcmp(name, "llvm.nvvm.read.ptx.sreg.laneid") == 0) {
        *r = val_known(x->tid % 32);
        return true;
    }
    /* barriers */
    if (strcmp(name, "llvm.amdgcn.s.barrier") == 0 || strcmp(name, "llvm.nvvm.barrier0") == 0 ||
        starts(name, "llvm.nvvm.barrier.cta.sync") || strcmp(name, "llvm.nvvm.barrier.sync") == 0 ||
        strcmp(name, "llvm.nvvm.bar.sync") == 0) {
        if (nargs >= 1) {
            val *id = xoperand(x, f, LLVMGetOperand(in, 0));
            if (!id || id->k != V_KNOWN || id->c != 0) {
                xfail(x, "a named barrier (id other than 0) is not modelled");
                return false;
            }
            if (nargs >= 2) {
                xfail(x, "a barrier with a thread count is not modelled");
                return false;
            }
        }
        barrier(x, out, in);
        *r = val_known(0);
        return true;
    }
    if (starts(name, "llvm.nvvm.membar.") || starts(name, "llvm.nvvm.fence.sc.")) {
        inst fe = new_inst(I_FENCE);
        fe.ord = ORD_SEQ_CST;
        fe.scope = strstr(name, "cta") ? SCOPE_WG : strstr(name, "sys") ? SCOPE_SYS : SCOPE_AGENT;
        emit_access(x, out, &fe, in);
        *r = val_known(0);
        return true;
    }
    /* what orders nothing and computes nothing the model sees */
    if (starts(name, "llvm.dbg.") || starts(name, "llvm.lifetime.") || strcmp(name, "llvm.assume") == 0 ||
        starts(name, "llvm.amdgcn.s.waitcnt") || starts(name, "llvm.amdgcn.s.sleep") ||
        starts(name, "llvm.amdgcn.s.setprio") || starts(name, "llvm.experimental.noalias.scope.decl") ||
        starts(name, "llvm.amdgcn.s.nop") || starts(name, "llvm.nvvm.nanosleep") || starts(name, "llvm.donothing") ||
        starts(name, "llvm.amdgcn.sched.")) {
        *r = val_known(0);
        return true;
    }
    if (starts(name, "llvm.smax.") || starts(name, "llvm.smin.") || starts(name, "llvm.umax.") ||
        starts(name, "llvm.umin.") || starts(name, "llvm.abs.")) {
        val *a = xoperand(x, f, LLVMGetOperand(in, 0));
        val *b = starts(name, "llvm.abs.") ? a : xoperand(x, f, LLVMGetOperand(in, 1));
        if (!a || !b)
            return false;
        if (a->k != V_KNOWN || b->k != V_KNOWN) {
            xfail(x, "%s of a value read from memory is not computed", name);
            return false;
        }
        int bits = int_bits(x, LLVMTypeOf(in));
        uint64_t ua = zext_of(a->c, bits), ub = zext_of(b->c, bits);
        int64_t v = starts(name, "llvm.smax.")   ? (a->c > b->c ? a->c : b->c)
                    : starts(name, "llvm.smin.") ? (a->c < b->c ? a->c : b->c)
                    : starts(name, "llvm.umax.") ? (int64_t)(ua > ub ? ua : ub)
                    : starts(name, "llvm.umin.") ? (int64_t)(ua < ub ? ua : ub)
                                                 : (a->c < 0 ? -a->c : a->c);
        *r = val_known(wrap(v, bits));
        return true;
    }
    if (strcmp(name, "__atomic_work_item_fence") == 0 && nargs == 3) {
        /* OpenCL's fence, as the HIP headers' __syncthreads and __threadfence call it:
         * (flags, memory_order: 2 acquire 3 release 4 acq_rel 5 seq_cst, memory_scope:
         * 0 work-item 1 work-group 2 device 3 all devices 4 sub-group) */
        val *o = xoperand(x, f, LLVMGetOperand(in, 1)), *sc = xoperand(x, f, LLVMGetOperand(in, 2));
        if (!o || !sc || o->k != V_KNOWN || sc->k != V_KNOWN || o->c < 0 || o->c > 5 || sc->c < 0 || sc->c > 4) {
            if (!x->failed)
                xfail(x, "__atomic_work_item_fence with an order or scope that is not a constant");
            return false;
        }
        static const order_t ord[] = {ORD_RELAXED, ORD_RELAXED, ORD_ACQUIRE, ORD_RELEASE, ORD_ACQ_REL, ORD_SEQ_CST};
        static const scope_t scp[] = {SCOPE_THREAD, SCOPE_WG, SCOPE_AGENT, SCOPE_SYS, SCOPE_WAVE};
        *r = val_known(0);
        if (ord[o->c] == ORD_RELAXED || scp[sc->c] == SCOPE_THREAD)
            return true;
        inst fe = new_inst(I_FENCE);
        fe.ord = ord[o->c];
        fe.scope = scp[sc->c];
        emit_access(x, out, &fe, in);
        return true;
    }
    if (LLVMIsDeclaration(callee)) {
        xfail(x, "a call to %s, which has no body in this IR and which memsim does not know", name);
        return false;
    }
    /* inline the callee */
    if (f->depth >= 32) {
        xfail(x, "calls nested more than 32 deep (recursion is not modelled)");
        return false;
    }
    frame g = {0};
    g.fn = callee;
    g.g = cfg_of(x, callee);
    g.depth = f->depth + 1;
    g.visits = calloc((size_t)g.g->n + 1, sizeof *g.visits);
    int k = 0;
    for (LLVMValueRef p = LLVMGetFirstParam(callee); p; p = LLVMGetNextParam(p), k++) {
        val *a = k < nargs ? xoperand(x, f, LLVMGetOperand(in, (unsigned)k)) : NULL;
        if (!a) {
            vmap_free(&g.vals);
            free(g.visits);
            return false;
        }
        vmap_put(&g.vals, p, val_copy(a));
    }
    LLVMValueRef saved = x->cur;
    val ret = {0};
    LLVMBasicBlockRef last = NULL;
    wend e = walk(x, &g, LLVMGetEntryBasicBlock(callee), NULL, NULL, out, &last, &ret);
    x->cur = saved;
    vmap_free(&g.vals);
    free(g.visits);
    if (e == W_FAIL)
        return false;
    *r = ret.k ? ret : val_known(0);
    return true;
}

/* ---- spin loops ------------------------------------------------------------------------------- */

/* The loop's exit condition as an await on the load or CAS it depends on:
 * the iteration that exits is the one memsim keeps (docs/language.md §7 and §11.8). */
static bool make_await(xlate *x, frame *f, block *out, const val *cond, bool exit_when, int branch_bb, int stay_bb)
{
    expr *e = cond->e;
    binop_t op;
    int r = -1;
    const expr *want = NULL;
    expr zero = {.kind = EX_CONST, .value = 0};
    if (e->kind == EX_REG) {
        r = e->reg;
        op = BIN_NE;
        want = &zero;
    } else if (e->kind == EX_BIN && is_cmp(e->op) && e->a->kind == EX_REG && !uses_reg(e->b, e->a->reg)) {
        r = e->a->reg;
        op = e->op;
        want = e->b;
    } else if (e->kind == EX_BIN && is_cmp(e->op) && e->b->kind == EX_REG && !uses_reg(e->a, e->b->reg)) {
        r = e->b->reg;
        op = swap_cmp(e->op);
        want = e->a;
    } else {
        xfail(x, "a spin loop whose exit condition is not one loaded value compared with a value known before it");
        return false;
    }
    if (!exit_when)
        op = negate(op);
    int at = -1;
    for (int i = out->n - 1; i >= 0 && at < 0; i--)
        if (out->v[i].dst == r)
            at = i;
    inst *rd = at >= 0 ? &out->v[at] : NULL;
    if (!rd || !(rd->kind == I_LD || (rd->kind == I_RMW && rd->rmw == RMW_CAS))) {
        xfail(x, "a spin loop whose exit depends on %s, not on one load or compare-and-swap of the loop",
              rd ? "an atomic other than a compare-and-swap" : "a value read outside it");
        return false;
    }
    int src = r < g_regsrc.n && g_regsrc.bb[r] ? cfg_index(f->g, g_regsrc.bb[r]) : -1;
    if (src < 0 || !cfg_reaches(f->g, stay_bb, src) || !cfg_reaches(f->g, src, branch_bb)) {
        xfail(x, "this loop never re-reads the value its exit depends on (it was read before the loop: a plain load "
                 "the compiler hoisted?); it spins forever unless the first read satisfies it -- make the load atomic");
        return false;
    }
    if (uses_reg(want, r)) {
        xfail(x, "a spin loop that compares the loaded value with itself");
        return false;
    }
    rd->await_rmw = rd->kind == I_RMW;
    rd->kind = I_AWAIT;
    rd->await_op = op;
    rd->want = expr_clone(want);
    return true;
}

/* ---- the walk --------------------------------------------------------------------------------- */

static bool enter_block(xlate *x, frame *f, LLVMBasicBlockRef bb, LLVMBasicBlockRef pred)
{
    if (!pred)
        return true;
    /* phis read their incoming values all at once */
    int n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMGetInstructionOpcode(i) == LLVMPHI; i = LLVMGetNextInstruction(i))
        n++;
    if (!n)
        return true;
    val *tmp = calloc((size_t)n, sizeof *tmp);
    int k = 0;
    bool ok = true;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && k < n; i = LLVMGetNextInstruction(i), k++) {
        x->cur = i;
        LLVMValueRef inc = NULL;
        for (unsigned j = 0; j < LLVMCountIncoming(i); j++)
            if (LLVMGetIncomingBlock(i, j) == pred)
                inc = LLVMGetIncomingValue(i, j);
        val *v = inc ? xoperand(x, f, inc) : NULL;
        if (!v) {
            if (!inc)
                xfail(x, "a phi without a value for the edge taken");
            ok = false;
            break;
        }
        tmp[k] = val_copy(v);
    }
    k = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && k < n; i = LLVMGetNextInstruction(i), k++)
        if (ok)
            vmap_put(&f->vals, i, tmp[k]);
        else
            val_free(&tmp[k]);
    free(tmp);
    return ok;
}

/* The values the phis of `join` take on the edge from pred, evaluated now. */
static val *phi_values(xlate *x, frame *f, LLVMBasicBlockRef join, LLVMBasicBlockRef pred, int *n)
{
    *n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(join); i && LLVMGetInstructionOpcode(i) == LLVMPHI; i = LLVMGetNextInstruction(i))
        (*n)++;
    val *v = calloc((size_t)*n + 1, sizeof *v);
    int k = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(join); i && k < *n; i = LLVMGetNextInstruction(i), k++) {
        x->cur = i;
        if (!pred) {
            /* a nested if joined here first: its merge set the phis */
            val *got = vmap_get(&f->vals, i);
            if (got)
                v[k] = val_copy(got);
            continue;
        }
        for (unsigned j = 0; j < LLVMCountIncoming(i); j++)
            if (LLVMGetIncomingBlock(i, j) == pred) {
                val *got = xoperand(x, f, LLVMGetIncomingValue(i, j));
                if (got)
                    v[k] = val_copy(got);
            }
    }
    return v;
}

/* Two paths' values of one phi (or return value) as one value: equal
 * numbers stay numbers, otherwise each path assigns a new register. */
static bool merge(xlate *x, val *a, block *ba, val *b, block *bb, LLVMValueRef at, val *out)
{
    if (a->k == V_UNSET)
        *a = val_known(0);
    if (b->k == V_UNSET)
        *b = val_known(0);
    if (a->k == V_KNOWN && b->k == V_KNOWN && a->c == b->c) {
        *out = val_known(a->c);
        return true;
    }
    if (a->k == V_AGG || b->k == V_AGG) {
        xfail(x, "two paths join with different aggregate values");
        return false;
    }
    int r = new_reg(x);
    inst as = new_inst(I_ASSIGN);
    as.dst = r;
    as.val = val_expr(a);
    emit_access(x, ba, &as, at);
    as = new_inst(I_ASSIGN);
    as.dst = r;
    as.val = val_expr(b);
    emit_access(x, bb, &as, at);
    *out = val_sym(reg_expr(r));
    return true;
}

static bool branch_if(xlate *x, frame *f, LLVMValueRef term, const val *c, block *out, LLVMBasicBlockRef *next,
                      LLVMBasicBlockRef *next_pred, wend *end, val *ret)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(term);
    int b = cfg_index(f->g, bb);
    int join = f->g->ipdom[b];
    LLVMBasicBlockRef J = join >= 0 ? f->g->bb[join] : NULL;
    inst iff = new_inst(I_IF);
    iff.val = expr_clone(c->e);
    LLVMBasicBlockRef lt = NULL, lf = NULL;
    val rt = {0}, rf = {0};
    forward_clear(x);
    wend et = walk(x, f, LLVMGetSuccessor(term, 0), bb, J, &iff.body, &lt, &rt);
    int np = 0;
    val *pt = et == W_STOP && J ? phi_values(x, f, J, lt, &np) : NULL;
    forward_clear(x);
    wend ef = et == W_FAIL ? W_FAIL : walk(x, f, LLVMGetSuccessor(term, 1), bb, J, &iff.els, &lf, &rf);
    val *pf = ef == W_STOP && J ? phi_values(x, f, J, lf, &np) : NULL;
    forward_clear(x);
    x->cur = term;
    bool ok = et != W_FAIL && ef != W_FAIL && !x->failed;
    if (ok && J) {
        /* both arms reach the join (an arm that ends the thread -- unreachable -- does not) */
        int k = 0;
        for (LLVMValueRef i = LLVMGetFirstInstruction(J); ok && i && k < np; i = LLVMGetNextInstruction(i), k++) {
            val m;
            if (et == W_STOP && ef == W_STOP)
                ok = merge(x, &pt[k], &iff.body, &pf[k], &iff.els, i, &m);
            else
                m = val_copy(et == W_STOP ? &pt[k] : &pf[k]);
            if (ok)
                vmap_put(&f->vals, i, m);
        }
        *end = et == W_STOP || ef == W_STOP ? W_STOP : W_DEAD;
    } else if (ok) {
        /* no join: each arm ran to its function's end */
        if (et == W_RET && ef == W_RET && (rt.k || rf.k))
            ok = merge(x, &rt, &iff.body, &rf, &iff.els, term, ret);
        else if (et == W_RET && rt.k)
            *ret = val_copy(&rt);
        else if (ef == W_RET && rf.k)
            *ret = val_copy(&rf);
        *end = et == W_RET || ef == W_RET ? W_RET : W_DEAD;
    }
    for (int k = 0; pt && k < np; k++)
        val_free(&pt[k]);
    for (int k = 0; pf && k < np; k++)
        val_free(&pf[k]);
    free(pt);
    free(pf);
    val_free(&rt);
    val_free(&rf);
    iff.pos = xpos(x, term);
    block_push(out, &iff);
    *next = J;
    *next_pred = NULL; /* the join's phis are set */
    return ok;
}

static bool step(xlate *x, frame *f, block *out, LLVMValueRef in);

static void endless_loop(xlate *x, block *out)
{
    test *t = x->t;
    char name[160];
    snprintf(name, sizeof name, "endless_%s_b%d_t%d", x->L->kernel, x->wg, x->tid);
    t->locs = realloc(t->locs, (size_t)(t->nlocs + 1) * sizeof *t->locs);
    location *L = &t->locs[t->nlocs];
    memset(L, 0, sizeof *L);
    L->name = strdup(name);
    L->type = TY_I32;
    L->len = 1;
    L->first_cell = t->ncells++;
    L->init = calloc(1, sizeof *L->init);
    L->home = x->L->gpu;
    inst aw = new_inst(I_AWAIT);
    aw.mem.loc = t->nlocs++;
    aw.ord = ORD_RELAXED;
    aw.scope = SCOPE_WG;
    aw.await_op = BIN_NE;
    aw.want = cst(0);
    aw.dst = new_reg(x);
    emit_access(x, out, &aw, x->cur);
    xnote(x, "a loop that never exits (a spin whose load the compiler hoisted out of it?) is an await on %s, which "
             "nothing writes: reaching it is a hang", name);
}

static wend walk(xlate *x, frame *f, LLVMBasicBlockRef bb, LLVMBasicBlockRef pred, LLVMBasicBlockRef stop, block *out,
                 LLVMBasicBlockRef *last, val *ret)
{
    for (;;) {
        if (bb == stop) {
            *last = pred;
            return W_STOP;
        }
        int bi = cfg_index(f->g, bb);
        if (!enter_block(x, f, bb, pred))
            return W_FAIL;
        if (f->g->endless[bi] && !x->failed) {
            /* A loop with no way out: what a spin on a plain load becomes once the
             * compiler hoists the load.  The thread hangs here: an await that
             * nothing satisfies says so (its message names this line). */
            x->cur = LLVMGetBasicBlockTerminator(bb);
            endless_loop(x, out);
            return W_DEAD;
        }
        if (++f->visits[bi] > x->o->unroll) {
            x->cur = LLVMGetBasicBlockTerminator(bb);
            xfail(x, "a loop runs more than %d iterations (the unroll bound; raise it with --unroll N, or make the "
                     "launch smaller)", x->o->unroll);
            return W_FAIL;
        }
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && in != term; in = LLVMGetNextInstruction(in)) {
            if (LLVMGetInstructionOpcode(in) == LLVMPHI)
                continue;
            x->cur = in;
            if (!step(x, f, out, in))
                return W_FAIL;
        }
        x->cur = term;
        LLVMOpcode op = LLVMGetInstructionOpcode(term);
        if (op == LLVMRet) {
            if (LLVMGetNumOperands(term) > 0) {
                val *v = xoperand(x, f, LLVMGetOperand(term, 0));
                if (!v)
                    return W_FAIL;
                *ret = val_copy(v);
            }
            return W_RET;
        }
        if (op == LLVMUnreachable)
            return W_DEAD;
        if (op == LLVMBr && !LLVMIsConditional(term)) {
            pred = bb;
            bb = LLVMGetSuccessor(term, 0);
            continue;
        }
        if (op == LLVMSwitch) {
            val *c = xoperand(x, f, LLVMGetCondition(term));
            if (!c)
                return W_FAIL;
            if (c->k != V_KNOWN) {
                xfail(x, "a switch on a value read from memory is not modelled");
                return W_FAIL;
            }
            LLVMBasicBlockRef to = LLVMGetSwitchDefaultDest(term);
            for (unsigned k = 1; k < LLVMGetNumSuccessors(term); k++) {
                LLVMValueRef cv = LLVMGetOperand(term, 2 * k);
                val *cc = xoperand(x, f, cv);
                if (cc && cc->k == V_KNOWN && cc->c == c->c)
                    to = LLVMGetSuccessor(term, k);
            }
            pred = bb;
            bb = to;
            continue;
        }
        if (op != LLVMBr) {
            xfail(x, "a terminator the translation does not follow");
            return W_FAIL;
        }
        val *c = xoperand(x, f, LLVMGetCondition(term));
        if (!c)
            return W_FAIL;
        if (c->k == V_KNOWN) {
            pred = bb;
            bb = LLVMGetSuccessor(term, c->c ? 0 : 1);
            continue;
        }
        if (c->k != V_SYM) {
            xfail(x, "a branch on a value the translation does not follow");
            return W_FAIL;
        }
        int t = cfg_index(f->g, LLVMGetSuccessor(term, 0)), e = cfg_index(f->g, LLVMGetSuccessor(term, 1));
        bool back_t = t == bi || cfg_reaches(f->g, t, bi), back_e = e == bi || cfg_reaches(f->g, e, bi);
        if (back_t != back_e) {
            /* a loop exit decided by memory: a spin */
            val cc = val_copy(c);
            bool ok = make_await(x, f, out, &cc, back_e, bi, back_t ? t : e);
            val_free(&cc);
            if (!ok)
                return W_FAIL;
            pred = bb;
            bb = LLVMGetSuccessor(term, back_t ? 1 : 0);
            continue;
        }
        LLVMBasicBlockRef next, next_pred;
        wend end = W_STOP;
        val cc = val_copy(c);
        bool ok = branch_if(x, f, term, &cc, out, &next, &next_pred, &end, ret);
        val_free(&cc);
        if (!ok)
            return W_FAIL;
        if (end != W_STOP)
            return end;
        pred = next_pred;
        bb = next;
        if (bb == stop) {
            /* the join is the caller's stop: its phis are set already */
            *last = NULL;
            return W_STOP;
        }
    }
}

static bool cast(xlate *x, frame *f, LLVMValueRef in, LLVMOpcode op, val *r)
{
    LLVMValueRef src = LLVMGetOperand(in, 0);
    val *a = xoperand(x, f, src);
    if (!a)
        return false;
    int from = int_bits(x, LLVMTypeOf(src)), to = int_bits(x, LLVMTypeOf(in));
    if (a->k == V_AGG) {
        if (op == LLVMBitCast) {
            *r = val_copy(a);
            return true;
        }
        xfail(x, "a vector conversion the translation does not compute");
        return false;
    }
    if (a->k != V_KNOWN) {
        if (a->k != V_SYM) {
            xfail(x, "a conversion of a value the translation does not follow");
            return false;
        }
        if (op == LLVMTrunc && to == 1)
            *r = val_sym(expr_bin(BIN_AND, expr_clone(a->e), cst(1), (srcpos){0, 0}));
        else if (op == LLVMSExt && from == 1)
            *r = val_sym(expr_bin(BIN_SUB, cst(0), expr_clone(a->e), (srcpos){0, 0}));
        else
            *r = val_copy(a); /* values read from memory are small: widths do not change them */
        if (op == LLVMTrunc && to > 1)
            xnote(x, "truncations of values read from memory are taken as exact (the values fit)");
        return true;
    }
    int64_t v = a->c;
    switch (op) {
    case LLVMZExt: v = (int64_t)zext_of(v, from); break;
    case LLVMSExt:
    case LLVMTrunc: v = wrap(v, to); break;
    case LLVMAddrSpaceCast: {
        unsigned fa = LLVMGetPointerAddressSpace(LLVMTypeOf(src)), ta = LLVMGetPointerAddressSpace(LLVMTypeOf(in));
        if (fa == 3 && ta != 3)
            v = v - LDS_BASE + LDS_FLAT;
        else if (fa != 3 && ta == 3)
            v = v - LDS_FLAT + LDS_BASE;
        break;
    }
    default: break; /* ptrtoint, inttoptr, bitcast: the same number */
    }
    *r = val_known(v);
    return true;
}

static bool select_(xlate *x, frame *f, LLVMValueRef in, val *r)
{
    val *c = xoperand(x, f, LLVMGetOperand(in, 0));
    val *a = xoperand(x, f, LLVMGetOperand(in, 1));
    val *b = xoperand(x, f, LLVMGetOperand(in, 2));
    if (!c || !a || !b)
        return false;
    if (c->k == V_KNOWN) {
        *r = val_copy(c->c ? a : b);
        return true;
    }
    if (a->k == V_KNOWN && b->k == V_KNOWN && a->c == b->c) {
        *r = val_known(a->c);
        return true;
    }
    if (c->k != V_SYM || a->k == V_AGG || b->k == V_AGG) {
        xfail(x, "a select on a value the translation does not follow");
        return false;
    }
    if (LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMPointerTypeKind) {
        xfail(x, "a pointer chosen by a value read from memory: data-dependent addresses are not followed");
        return false;
    }
    /* c * a + (1 - c) * b, c being 0 or 1 */
    srcpos z = {0, 0};
    *r = val_sym(expr_bin(BIN_ADD, expr_bin(BIN_MUL, expr_clone(c->e), val_expr(a), z),
                          expr_bin(BIN_MUL, expr_bin(BIN_SUB, cst(1), expr_clone(c->e), z), val_expr(b), z), z));
    return true;
}

static bool element(xlate *x, frame *f, LLVMValueRef in, LLVMOpcode op, val *r)
{
    val *agg = xoperand(x, f, LLVMGetOperand(in, 0));
    if (!agg)
        return false;
    if (agg->k != V_AGG) {
        xfail(x, "an aggregate the translation does not follow");
        return false;
    }
    int64_t idx;
    if (op == LLVMExtractValue || op == LLVMInsertValue) {
        if (LLVMGetNumIndices(in) != 1) {
            xfail(x, "nested aggregates are not followed");
            return false;
        }
        idx = LLVMGetIndices(in)[0];
    } else {
        val *iv = xoperand(x, f, LLVMGetOperand(in, op == LLVMExtractElement ? 1 : 2));
        if (!iv || iv->k != V_KNOWN) {
            if (iv)
                xfail(x, "a vector index computed from memory");
            return false;
        }
        idx = iv->c;
    }
    if (idx < 0 || idx >= agg->n) {
        xfail(x, "an element index out of range");
        return false;
    }
    if (op == LLVMExtractValue || op == LLVMExtractElement) {
        *r = val_copy(&agg->el[idx]);
        return true;
    }
    val *v = xoperand(x, f, LLVMGetOperand(in, 1));
    if (!v)
        return false;
    *r = val_copy(agg);
    val_free(&r->el[idx]);
    r->el[idx] = val_copy(v);
    return true;
}

/* One non-terminator instruction. */
static bool step(xlate *x, frame *f, block *out, LLVMValueRef in)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    val r = {0};
    bool ok;
    switch (op) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: {
        val *a = xoperand(x, f, LLVMGetOperand(in, 0)), *b = a ? xoperand(x, f, LLVMGetOperand(in, 1)) : NULL;
        if (a && b && (a->k == V_AGG || b->k == V_AGG)) {
            xfail(x, "vector arithmetic is not computed");
            return false;
        }
        ok = a && b && binop(x, op, a, b, int_bits(x, LLVMTypeOf(in)), &r);
        break;
    }
    case LLVMICmp: {
        val *a = xoperand(x, f, LLVMGetOperand(in, 0)), *b = a ? xoperand(x, f, LLVMGetOperand(in, 1)) : NULL;
        ok = a && b && icmp(x, LLVMGetICmpPredicate(in), a, b, int_bits(x, LLVMTypeOf(LLVMGetOperand(in, 0))), &r);
        break;
    }
    case LLVMGetElementPtr: ok = gep(x, f, in, &r); break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast:
    case LLVMAddrSpaceCast: ok = cast(x, f, in, op, &r); break;
    case LLVMFreeze: {
        val *a = xoperand(x, f, LLVMGetOperand(in, 0));
        ok = a != NULL;
        if (ok)
            r = val_copy(a);
        break;
    }
    case LLVMSelect: ok = select_(x, f, in, &r); break;
    case LLVMExtractValue: case LLVMInsertValue: case LLVMExtractElement: case LLVMInsertElement:
        ok = element(x, f, in, op, &r);
        break;
    case LLVMLoad: ok = do_load(x, f, out, in, &r); break;
    case LLVMStore: ok = do_store(x, f, out, in); break;
    case LLVMAtomicCmpXchg: ok = do_rmw(x, f, out, in, true, &r); break;
    case LLVMAtomicRMW: ok = do_rmw(x, f, out, in, false, &r); break;
    case LLVMFence: fence(x, out, in); ok = !x->failed; break;
    case LLVMCall: ok = call(x, f, out, in, &r); break;
    case LLVMAlloca:
        xfail(x, "private (stack) memory is not modelled: compile with -O1 or higher so that it is promoted to registers");
        return false;
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem: case LLVMFNeg: case LLVMFCmp:
    case LLVMFPToSI: case LLVMFPToUI: case LLVMSIToFP: case LLVMUIToFP: case LLVMFPTrunc: case LLVMFPExt:
        xfail(x, "floating-point arithmetic is not modelled (memsim tracks integers; give the kernel integer data)");
        return false;
    default:
        xfail(x, "an instruction memsim does not understand");
        return false;
    }
    if (!ok) {
        val_free(&r);
        if (!x->failed)
            xfail(x, "cannot translate this instruction");
        return false;
    }
    if (r.k)
        vmap_put(&f->vals, in, r);
    return true;
}

/* ---- barriers ------------------------------------------------------------------------------- */

/* fence.release.wg; barrier; fence.acquire.wg is __syncthreads: the barrier
 * already orders the work-group both ways (docs/language.md §7), so the two
 * fences would only add events. */
static void fold_barrier_fences(block *b)
{
    for (int i = 0; i < b->n; i++) {
        inst *in = &b->v[i];
        if (in->kind == I_IF) {
            fold_barrier_fences(&in->body);
            fold_barrier_fences(&in->els);
        }
    }
    int w = 0;
    for (int i = 0; i < b->n; i++) {
        inst *in = &b->v[i];
        bool wgfence = in->kind == I_FENCE && in->scope <= SCOPE_WG;
        bool before = wgfence && i + 1 < b->n && b->v[i + 1].kind == I_BARRIER && in->ord != ORD_ACQUIRE;
        bool after = wgfence && i > 0 && b->v[i - 1].kind == I_BARRIER && in->ord != ORD_RELEASE;
        if (before || after)
            continue;
        b->v[w++] = *in;
    }
    b->n = w;
}

/* ---- threads ---------------------------------------------------------------------------------- */

static bool translate_thread(xlate *x, LLVMValueRef fn, const val *args, int nargs)
{
    frame f = {0};
    f.fn = fn;
    f.g = cfg_of(x, fn);
    f.visits = calloc((size_t)f.g->n + 1, sizeof *f.visits);
    int k = 0;
    for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p), k++)
        vmap_put(&f.vals, p, k < nargs ? val_copy(&args[k]) : val_known(0));
    forward_clear(x);
    LLVMBasicBlockRef last = NULL;
    val ret = {0};
    wend e = walk(x, &f, LLVMGetEntryBasicBlock(fn), NULL, NULL, &x->th->code, &last, &ret);
    val_free(&ret);
    vmap_free(&f.vals);
    free(f.visits);
    forward_clear(x);
    if (e == W_FAIL || x->failed)
        return false;
    fold_barrier_fences(&x->th->code);
    return true;
}

static int cell_of_memref(const test *t, const thread *th, const memref *m)
{
    if (m->ptr)
        return -1;
    int l = m->loc;
    if (l < 0)
        l = t->heap.vars[m->symvar].loc[m->peer ? (int)m->peer->value : th->gpu];
    return t->locs[l].first_cell + (m->index ? (int)m->index->value : 0);
}

static bool writes_cell(const test *t, const thread *th, const block *b, int cell)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if ((in->kind == I_ST || in->kind == I_RMW || (in->kind == I_AWAIT && in->await_rmw)) &&
            cell_of_memref(t, th, &in->mem) == cell)
            return true;
        if (in->kind == I_IF && (writes_cell(t, th, &in->body, cell) || writes_cell(t, th, &in->els, cell)))
            return true;
    }
    return false;
}

int instrument_test(test *t, const launch_file *lf, const instr_opts *o, instr_notes *notes, char *err, size_t errsz)
{
    instr_opts opts = *o;
    if (opts.unroll <= 0)
        opts.unroll = 32;
    xlate X = {.t = t, .o = &opts, .notes = notes, .err = err, .errsz = errsz};
    xlate *x = &X;
    module **mods = calloc((size_t)lf->n + 1, sizeof *mods);
    char **paths = calloc((size_t)lf->n + 1, sizeof *paths);
    int nmods = 0, rc = -1;
    int next_wg = 0, next_wave = 0;
    int first_kernel = t->nkernels;
    g_fwd.n = 0;
    for (int li = 0; li < lf->n; li++) {
        const launch *L = &lf->v[li];
        x->L = L;
        x->launch_index = li;
        x->cur = NULL;
        char path[4096];
        if (L->file[0] == '/' || !opts.launch_dir)
            snprintf(path, sizeof path, "%s", L->file);
        else
            snprintf(path, sizeof path, "%s/%s", opts.launch_dir, L->file);
        module *m = NULL;
        for (int i = 0; i < nmods && !m; i++)
            if (strcmp(paths[i], path) == 0)
                m = mods[i];
        if (!m) {
            m = module_load(path, &opts, err, errsz);
            if (!m)
                goto out;
            mods[nmods] = m;
            paths[nmods++] = strdup(path);
        }
        x->m = m;
        LLVMValueRef fn = module_find_kernel(m, L->kernel);
        if (!fn) {
            snprintf(err, errsz, "%s:%d:%d: error: %s has no kernel named %s", t->file, L->pos.line, L->pos.col, path,
                     L->kernel);
            goto out;
        }
        int nparams = (int)LLVMCountParams(fn);
        if (L->nargs > nparams) {
            snprintf(err, errsz, "%s:%d:%d: error: %s takes %d arguments; the launch gives %d", t->file, L->pos.line,
                     L->pos.col, L->kernel, nparams, L->nargs);
            goto out;
        }
        int k = 0;
        for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p), k++)
            if (k >= L->nargs && LLVMGetFirstUse(p)) {
                snprintf(err, errsz, "%s:%d:%d: error: %s takes %d arguments and uses its argument %d; the launch gives "
                                     "%d (only unused trailing arguments, as Triton's scratch pointers, may be left out)",
                         t->file, L->pos.line, L->pos.col, L->kernel, nparams, k + 1, L->nargs);
                goto out;
            }
        val *args = calloc((size_t)L->nargs + 1, sizeof *args);
        for (int a = 0; a < L->nargs; a++) {
            const launch_arg *A = &L->args[a];
            int64_t addr = A->value;
            if (A->kind != ARG_INT && !mem_arg_address(x, A, &addr)) {
                char why[1024];
                snprintf(why, sizeof why, "%s", err);
                const char *msg = strstr(why, "error: ");
                snprintf(err, errsz, "%s:%d:%d: error: %s", t->file, A->pos.line, A->pos.col, msg ? msg + 7 : why);
                free(args);
                goto out;
            }
            args[a] = val_known(addr);
        }
        /* the launch's kernel */
        t->kernels = realloc(t->kernels, (size_t)(t->nkernels + 1) * sizeof *t->kernels);
        kernel *K = &t->kernels[t->nkernels];
        memset(K, 0, sizeof *K);
        int dup = 0;
        for (int j = 0; j < lf->n; j++)
            dup += strcmp(lf->v[j].kernel, L->kernel) == 0;
        char kname[256];
        if (dup > 1)
            snprintf(kname, sizeof kname, "%s_gpu%d_%d", L->kernel, L->gpu, li);
        else
            snprintf(kname, sizeof kname, "%s", L->kernel);
        K->name = strdup(kname);
        K->gpu = L->gpu;
        K->pos = L->pos;
        int kidx = t->nkernels++;
        int idle = 0;
        int wave = m->nvptx ? 32 : 64;
        x->lds_first_loc = t->nlocs;
        for (int b = 0; b < L->grid && !x->failed; b++) {
            int wg = next_wg++;
            int wave0 = next_wave;
            next_wave += (int)((L->block + wave - 1) / wave);
            for (int tid = 0; tid < L->block && !x->failed; tid++) {
                t->threads = realloc(t->threads, (size_t)(t->nthreads + 1) * sizeof *t->threads);
                thread *th = &t->threads[t->nthreads++];
                memset(th, 0, sizeof *th);
                char name[300];
                snprintf(name, sizeof name, "%s_b%d_t%d", kname, b, tid);
                th->name = strdup(name);
                th->gpu = L->gpu;
                th->wg = wg;
                th->wg_label = b;
                th->wave = wave0 + tid / wave;
                th->kernel = kidx;
                th->pos = L->pos;
                x->th = th;
                x->last_pos = (srcpos){0, 0};
                x->tid = tid;
                x->wg = b;
                if (!translate_thread(x, fn, args, L->nargs))
                    break;
                if (th->code.n == 0) {
                    /* a thread that does nothing (not even a barrier): only the
                     * threads that touch memory or synchronize matter */
                    free(th->name);
                    for (int r = 0; r < th->nregs; r++)
                        free(th->regs[r]);
                    free(th->regs);
                    t->nthreads--;
                    idle++;
                }
            }
        }
        for (int a = 0; a < L->nargs; a++)
            val_free(&args[a]);
        free(args);
        if (x->failed)
            goto out;
        if (idle)
            xnote(x, "%s: %d of its %lld threads touch no memory and reach no barrier; they are left out", kname, idle,
                  (long long)(L->grid * L->block));
    }
    /* launch order */
    for (int li = 0; li < lf->n; li++) {
        const launch *L = &lf->v[li];
        kernel *K = &t->kernels[first_kernel + li];
        for (int a = 0; a < L->nafter; a++) {
            bool found = false;
            for (int j = 0; j < lf->n; j++)
                if (strcmp(lf->v[j].kernel, L->after[a]) == 0 && j != li) {
                    K->after = realloc(K->after, (size_t)(K->nafter + 1) * sizeof *K->after);
                    K->after[K->nafter++] = first_kernel + j;
                    found = true;
                }
            if (!found) {
                snprintf(err, errsz, "%s:%d:%d: error: after %s: no other launch of a kernel named %s", t->file,
                         L->pos.line, L->pos.col, L->after[a], L->after[a]);
                goto out;
            }
        }
    }
    /* forwarded work-group loads: only their own thread writes those cells */
    for (int i = 0; i < g_fwd.n; i++)
        for (int th = 0; th < t->nthreads; th++)
            if (th != g_fwd.thread[i] && writes_cell(t, &t->threads[th], &t->threads[th].code, g_fwd.cell[i])) {
                char cn[128];
                cell_name(t, g_fwd.cell[i], cn, sizeof cn);
                snprintf(err, errsz, "%s: error: thread %s reads back its own store to work-group memory %s, which "
                                     "thread %s writes too: which store it reads is not decided by this translation",
                         t->file, t->threads[g_fwd.thread[i]].name, cn, t->threads[th].name);
                goto out;
            }
    int maxgpu = t->ngpus - 1;
    for (int i = 0; i < t->nlocs; i++)
        if (t->locs[i].home > maxgpu)
            maxgpu = t->locs[i].home;
    for (int i = 0; i < t->nthreads; i++)
        if (t->threads[i].gpu > maxgpu)
            maxgpu = t->threads[i].gpu;
    t->ngpus = maxgpu + 1;
    /* workgroup and wave numbers of the launch's threads are far from any .lit ones */
    test_index_cells(t);
    rc = 0;
out:
    for (int i = 0; i < nmods; i++) {
        module_free(mods[i]);
        free(paths[i]);
    }
    free(mods);
    free(paths);
    for (int i = 0; i < x->ncfgs; i++) {
        free(x->cfgs[i]->bb);
        free(x->cfgs[i]->reach);
        free(x->cfgs[i]->ipdom);
        free(x->cfgs[i]->endless);
        free(x->cfgs[i]);
    }
    free(x->cfgs);
    forward_clear(x);
    free(x->fw_cell);
    free(x->fw_val);
    free(g_fwd.cell);
    free(g_fwd.thread);
    memset(&g_fwd, 0, sizeof g_fwd);
    free(g_regsrc.bb);
    memset(&g_regsrc, 0, sizeof g_regsrc);
    return rc;
}

void instr_notes_free(instr_notes *n)
{
    for (int i = 0; i < n->n; i++)
        free(n->v[i]);
    free(n->v);
    memset(n, 0, sizeof *n);
}
