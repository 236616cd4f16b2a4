/* Memory accesses: loads, stores, atomics, fences and barriers, with their
 * orders and syncscopes as compiled, at the addresses memory.c resolves;
 * and the work-group-memory forwarding of Triton's broadcast. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- emitting ---------------------------------------------------------------------------- */

void emit_access(xlate *x, block *out, inst *in, LLVMValueRef at)
{
    in->pos = xpos(x, at);
    block_push(out, in);
}

inst x_inst(instkind_t k)
{
    inst in;
    memset(&in, 0, sizeof in);
    in.kind = k;
    in.dst = -1;
    in.mem.symvar = -1;
    return in;
}

_Thread_local regsrc g_regsrc;

void x_reg_from(int r, LLVMBasicBlockRef bb)
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

void x_forward_clear(xlate *x)
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

_Thread_local fwdcheck g_fwd;

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
    inst ld = x_inst(I_LD);
    ld.mem = m;
    ld.ord = ord;
    ld.scope = ord == ORD_PLAIN ? SCOPE_NONE : scope;
    ld.cache = cache;
    ld.dst = new_reg(x);
    x_reg_from(ld.dst, LLVMGetInstructionParent(at));
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
    inst st = x_inst(I_ST);
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
    inst r = x_inst(I_RMW);
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
        x_reg_from(r.dst, LLVMGetInstructionParent(at));
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

bool x_load(xlate *x, frame *f, block *out, LLVMValueRef in, val *r)
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

bool x_store(xlate *x, frame *f, block *out, LLVMValueRef in)
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

bool x_rmw(xlate *x, frame *f, block *out, LLVMValueRef in, bool cas, val *r)
{
    LLVMValueRef p = LLVMGetOperand(in, 0);
    vtype_t vt;
    if (!vtype_of(x, LLVMTypeOf(LLVMGetOperand(in, 1)), &vt))
        return false;
    inst a = x_inst(I_RMW);
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
    x_reg_from(a.dst, LLVMGetInstructionParent(in));
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

void x_fence(xlate *x, block *out, LLVMValueRef in)
{
    inst fe = x_inst(I_FENCE);
    fe.ord = order_of(LLVMGetOrdering(in));
    if (!scope_of(x, in, &fe.scope))
        return;
    if (fe.scope == SCOPE_THREAD)
        return; /* a signal fence: orders the compiler only */
    emit_access(x, out, &fe, in);
}

void x_barrier(xlate *x, block *out, LLVMValueRef in)
{
    inst b = x_inst(I_BARRIER);
    b.scope = SCOPE_WG;
    emit_access(x, out, &b, in);
}
