/* Control flow: blocks and phis, branches on known values followed, on
 * values read from memory turned into if/else or, leaving a loop, into an
 * await; endless loops; one instruction at a time. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
    } else if (e->kind == EX_BIN && x_is_cmp(e->op) && e->a->kind == EX_REG && !x_uses_reg(e->b, e->a->reg)) {
        r = e->a->reg;
        op = e->op;
        want = e->b;
    } else if (e->kind == EX_BIN && x_is_cmp(e->op) && e->b->kind == EX_REG && !x_uses_reg(e->a, e->b->reg)) {
        r = e->b->reg;
        op = x_swap_cmp(e->op);
        want = e->a;
    } else {
        xfail(x, "a spin loop whose exit condition is not one loaded value compared with a value known before it");
        return false;
    }
    if (!exit_when)
        op = x_negate(op);
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
    if (x_uses_reg(want, r)) {
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
    inst as = x_inst(I_ASSIGN);
    as.dst = r;
    as.val = val_expr(a);
    emit_access(x, ba, &as, at);
    as = x_inst(I_ASSIGN);
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
    inst iff = x_inst(I_IF);
    iff.val = expr_clone(c->e);
    LLVMBasicBlockRef lt = NULL, lf = NULL;
    val rt = {0}, rf = {0};
    x_forward_clear(x);
    wend et = x_walk(x, f, LLVMGetSuccessor(term, 0), bb, J, &iff.body, &lt, &rt);
    int np = 0;
    val *pt = et == W_STOP && J ? phi_values(x, f, J, lt, &np) : NULL;
    x_forward_clear(x);
    wend ef = et == W_FAIL ? W_FAIL : x_walk(x, f, LLVMGetSuccessor(term, 1), bb, J, &iff.els, &lf, &rf);
    val *pf = ef == W_STOP && J ? phi_values(x, f, J, lf, &np) : NULL;
    x_forward_clear(x);
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
    snprintf(name, sizeof name, "endless_%s_b%d_t%d", x->kname, x->wg, x->tid);
    t->locs = realloc(t->locs, (size_t)(t->nlocs + 1) * sizeof *t->locs);
    location *L = &t->locs[t->nlocs];
    memset(L, 0, sizeof *L);
    L->name = strdup(name);
    L->type = TY_I32;
    L->len = 1;
    L->first_cell = t->ncells++;
    L->init = calloc(1, sizeof *L->init);
    L->home = x->L->gpu;
    inst aw = x_inst(I_AWAIT);
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

wend x_walk(xlate *x, frame *f, LLVMBasicBlockRef bb, LLVMBasicBlockRef pred, LLVMBasicBlockRef stop, block *out,
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
        if (a && b && (a->k == V_AGG || b->k == V_AGG))
            ok = x_vector_binop(x, in, op, a, b, &r);
        else
            ok = a && b && x_binop(x, op, a, b, x_int_bits(x, LLVMTypeOf(in)), &r);
        break;
    }
    case LLVMICmp: {
        val *a = xoperand(x, f, LLVMGetOperand(in, 0)), *b = a ? xoperand(x, f, LLVMGetOperand(in, 1)) : NULL;
        ok = a && b && x_icmp(x, LLVMGetICmpPredicate(in), a, b, x_int_bits(x, LLVMTypeOf(LLVMGetOperand(in, 0))), &r);
        break;
    }
    case LLVMGetElementPtr: ok = x_gep(x, f, in, &r); break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast:
    case LLVMAddrSpaceCast: ok = x_cast(x, f, in, op, &r); break;
    case LLVMFreeze: {
        val *a = xoperand(x, f, LLVMGetOperand(in, 0));
        ok = a != NULL;
        if (ok)
            r = val_copy(a);
        break;
    }
    case LLVMSelect: ok = x_select(x, f, in, &r); break;
    case LLVMExtractValue: case LLVMInsertValue: case LLVMExtractElement: case LLVMInsertElement:
        ok = x_element(x, f, in, op, &r);
        break;
    case LLVMLoad: ok = x_load(x, f, out, in, &r); break;
    case LLVMStore: ok = x_store(x, f, out, in); break;
    case LLVMAtomicCmpXchg: ok = x_rmw(x, f, out, in, true, &r); break;
    case LLVMAtomicRMW: ok = x_rmw(x, f, out, in, false, &r); break;
    case LLVMFence: x_fence(x, out, in); ok = !x->failed; break;
    case LLVMCall: ok = x_call(x, f, out, in, &r); break;
    case LLVMAlloca:
        xfail(x, "private (stack) memory is not modelled: compile with -O1 or higher so that it is promoted to registers");
        return false;
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem: case LLVMFNeg:
    case LLVMFPToSI: case LLVMFPToUI: case LLVMSIToFP: case LLVMUIToFP: case LLVMFPTrunc: case LLVMFPExt:
        ok = x_float(x, f, in, op, &r);
        break;
    case LLVMFCmp: ok = x_fcmp(x, f, in, &r); break;
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
