/* What the translation computes: LLVM values as numbers (ids, addresses,
 * constants) or as expressions over the thread's registers (values read
 * from memory); integer arithmetic, comparisons, GEPs, casts, selects and
 * aggregates. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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


int x_int_bits(xlate *x, LLVMTypeRef ty)
{
    switch (LLVMGetTypeKind(ty)) {
    case LLVMIntegerTypeKind: return (int)LLVMGetIntTypeWidth(ty);
    case LLVMPointerTypeKind: return (int)LLVMPointerSizeForAS(x->m->td, LLVMGetPointerAddressSpace(ty)) * 8;
    default: return 64;
    }
}

/* A known value as an LLVM integer of this width holds it: sign-extended. */
int64_t x_wrap(int64_t v, int bits)
{
    if (bits >= 64)
        return v;
    if (bits == 1)
        return v & 1;
    uint64_t m = (1ull << bits) - 1, u = (uint64_t)v & m;
    return (u >> (bits - 1)) & 1 ? (int64_t)(u | ~m) : (int64_t)u;
}

uint64_t x_zext(int64_t v, int bits) { return bits >= 64 ? (uint64_t)v : (uint64_t)v & ((1ull << bits) - 1); }

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
        int bits = x_int_bits(x, ty);
        *out = val_known(bits == 1 ? (int64_t)LLVMConstIntGetZExtValue(v) : x_wrap(LLVMConstIntGetSExtValue(v), bits));
        return true;
    }
    if (LLVMIsAConstantFP(v)) {
        LLVMBool loses;
        double d = LLVMConstRealGetDouble(v, &loses);
        *out = val_known(x_float_bits(d, LLVMGetTypeKind(ty) == LLVMDoubleTypeKind));
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

bool x_is_cmp(binop_t op) { return op >= BIN_EQ && op <= BIN_GE; }

binop_t x_negate(binop_t op)
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

binop_t x_swap_cmp(binop_t op)
{
    switch (op) {
    case BIN_LT: return BIN_GT;
    case BIN_GT: return BIN_LT;
    case BIN_LE: return BIN_GE;
    case BIN_GE: return BIN_LE;
    default: return op;
    }
}

bool x_uses_reg(const expr *e, int r)
{
    return e && ((e->kind == EX_REG && e->reg == r) || x_uses_reg(e->a, r) || x_uses_reg(e->b, r) || x_uses_reg(e->c, r));
}

/* ---- instructions ------------------------------------------------------------------------ */

bool x_binop(xlate *x, LLVMOpcode op, const val *a, const val *b, int bits, val *r)
{
    if (a->k == V_KNOWN && b->k == V_KNOWN) {
        int64_t p = a->c, q = b->c, v = 0;
        uint64_t up = x_zext(p, bits), uq = x_zext(q, bits);
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
        *r = val_known(x_wrap(v, bits));
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

bool x_icmp(xlate *x, LLVMIntPredicate pr, const val *a, const val *b, int bits, val *r)
{
    if (a->k == V_KNOWN && b->k == V_KNOWN) {
        int64_t p = a->c, q = b->c;
        uint64_t up = x_zext(p, bits), uq = x_zext(q, bits);
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
    if (b->k == V_KNOWN && b->c == 0 && (op == BIN_NE || op == BIN_EQ) && a->e->kind == EX_BIN && x_is_cmp(a->e->op)) {
        expr *e = expr_clone(a->e);
        if (op == BIN_EQ)
            e->op = x_negate(e->op);
        *r = val_sym(e);
        return true;
    }
    *r = val_sym(expr_bin(op, val_expr(a), val_expr(b), (srcpos){0, 0}));
    return true;
}

bool x_gep(xlate *x, frame *f, LLVMValueRef in, val *r)
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
    *r = val_known(x_wrap(addr, x_int_bits(x, LLVMTypeOf(in))));
    return true;
}

bool x_cast(xlate *x, frame *f, LLVMValueRef in, LLVMOpcode op, val *r)
{
    LLVMValueRef src = LLVMGetOperand(in, 0);
    val *a = xoperand(x, f, src);
    if (!a)
        return false;
    int from = x_int_bits(x, LLVMTypeOf(src)), to = x_int_bits(x, LLVMTypeOf(in));
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
    case LLVMZExt: v = (int64_t)x_zext(v, from); break;
    case LLVMSExt:
    case LLVMTrunc: v = x_wrap(v, to); break;
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

bool x_select(xlate *x, frame *f, LLVMValueRef in, val *r)
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

bool x_element(xlate *x, frame *f, LLVMValueRef in, LLVMOpcode op, val *r)
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

/* ---- floating point ---------------------------------------------------------------------- */

/* memsim holds a float as its IEEE bits (an f32 cell: the 32-bit pattern). */
int64_t x_float_bits(double d, bool is_double)
{
    if (is_double) {
        int64_t b;
        memcpy(&b, &d, sizeof b);
        return b;
    }
    float f = (float)d;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return (int64_t)b;
}

static double float_of(int64_t bits, bool is_double)
{
    if (is_double) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static bool is_fp(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

/* One element: exact on numbers; on values read from memory an abstraction
 * (a function of the same inputs, so that dependencies stay), said in a note. */
static bool float_scalar(xlate *x, LLVMOpcode op, LLVMTypeRef tin, LLVMTypeRef tout, const val *a, const val *b, val *r)
{
    bool din = LLVMGetTypeKind(tin) == LLVMDoubleTypeKind, dout = LLVMGetTypeKind(tout) == LLVMDoubleTypeKind;
    if ((a->k != V_KNOWN && a->k != V_SYM) || (b && b->k != V_KNOWN && b->k != V_SYM)) {
        xfail(x, "a floating-point operation on values the translation does not follow");
        return false;
    }
    if (a->k == V_KNOWN && (!b || b->k == V_KNOWN)) {
        double p = is_fp(tin) ? float_of(a->c, din) : 0, q = b ? float_of(b->c, din) : 0, v = 0;
        switch (op) {
        case LLVMFAdd: v = p + q; break;
        case LLVMFSub: v = p - q; break;
        case LLVMFMul: v = p * q; break;
        case LLVMFDiv: v = p / q; break;
        case LLVMFRem: v = q != 0 ? p - q * (double)(int64_t)(p / q) : 0; break;
        case LLVMFNeg: v = -p; break;
        case LLVMFPExt:
        case LLVMFPTrunc: v = p; break;
        case LLVMSIToFP: v = (double)a->c; break;
        case LLVMUIToFP: v = (double)x_zext(a->c, x_int_bits(x, tin)); break;
        case LLVMFPToSI:
        case LLVMFPToUI: *r = val_known(x_wrap((int64_t)p, x_int_bits(x, tout))); return true;
        default: xfail(x, "a floating-point operation memsim does not compute"); return false;
        }
        *r = val_known(x_float_bits(v, dout));
        return true;
    }
    xnote(x, "floating-point arithmetic on values read from memory is abstracted: the value computed is a function "
             "of the same inputs, not the real number; races, scopes, barriers and hangs are checked exactly, "
             "conditions on such values are not");
    if (b)
        *r = val_sym(expr_bin(BIN_ADD, val_expr(a), val_expr(b), (srcpos){0, 0}));
    else
        *r = val_copy(a);
    return true;
}

bool x_float(xlate *x, frame *f, LLVMValueRef in, LLVMOpcode op, val *r)
{
    bool two = op == LLVMFAdd || op == LLVMFSub || op == LLVMFMul || op == LLVMFDiv || op == LLVMFRem;
    val *a = xoperand(x, f, LLVMGetOperand(in, 0));
    val *b = two && a ? xoperand(x, f, LLVMGetOperand(in, 1)) : NULL;
    if (!a || (two && !b))
        return false;
    LLVMTypeRef tin = LLVMTypeOf(LLVMGetOperand(in, 0)), tout = LLVMTypeOf(in);
    if (LLVMGetTypeKind(tin) == LLVMVectorTypeKind) {
        if (a->k != V_AGG || (b && (b->k != V_AGG || b->n != a->n))) {
            xfail(x, "a vector operation on values the translation does not follow");
            return false;
        }
        *r = (val){.k = V_AGG, .n = a->n, .el = calloc((size_t)a->n + 1, sizeof(val))};
        for (int i = 0; i < a->n; i++)
            if (!float_scalar(x, op, LLVMGetElementType(tin), LLVMGetElementType(tout), &a->el[i], b ? &b->el[i] : NULL,
                              &r->el[i]))
                return false;
        return true;
    }
    return float_scalar(x, op, tin, tout, a, b, r);
}

bool x_fcmp(xlate *x, frame *f, LLVMValueRef in, val *r)
{
    val *a = xoperand(x, f, LLVMGetOperand(in, 0)), *b = a ? xoperand(x, f, LLVMGetOperand(in, 1)) : NULL;
    if (!a || !b)
        return false;
    if (a->k != V_KNOWN || b->k != V_KNOWN) {
        xfail(x, "a comparison of floating-point values read from memory is not modelled (a branch on it would be "
                 "a guess)");
        return false;
    }
    bool d = LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, 0))) == LLVMDoubleTypeKind;
    double p = float_of(a->c, d), q = float_of(b->c, d);
    bool un = p != p || q != q, v;
    switch (LLVMGetFCmpPredicate(in)) {
    case LLVMRealOEQ: v = !un && p == q; break;
    case LLVMRealOGT: v = !un && p > q; break;
    case LLVMRealOGE: v = !un && p >= q; break;
    case LLVMRealOLT: v = !un && p < q; break;
    case LLVMRealOLE: v = !un && p <= q; break;
    case LLVMRealONE: v = !un && p != q; break;
    case LLVMRealORD: v = !un; break;
    case LLVMRealUNO: v = un; break;
    case LLVMRealUEQ: v = un || p == q; break;
    case LLVMRealUGT: v = un || p > q; break;
    case LLVMRealUGE: v = un || p >= q; break;
    case LLVMRealULT: v = un || p < q; break;
    case LLVMRealULE: v = un || p <= q; break;
    case LLVMRealUNE: v = un || p != q; break;
    case LLVMRealPredicateTrue: v = true; break;
    default: v = false; break;
    }
    *r = val_known(v);
    return true;
}

/* Integer vectors, element by element. */
bool x_vector_binop(xlate *x, LLVMValueRef in, LLVMOpcode op, const val *a, const val *b, val *r)
{
    if (a->k != V_AGG || b->k != V_AGG || a->n != b->n) {
        xfail(x, "a vector operation on values the translation does not follow");
        return false;
    }
    int bits = x_int_bits(x, LLVMGetElementType(LLVMTypeOf(in)));
    *r = (val){.k = V_AGG, .n = a->n, .el = calloc((size_t)a->n + 1, sizeof(val))};
    for (int i = 0; i < a->n; i++)
        if (!x_binop(x, op, &a->el[i], &b->el[i], bits, &r->el[i]))
            return false;
    return true;
}
