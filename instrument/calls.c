/* Calls: the intrinsics and device-library functions memsim knows (ids,
 * barriers, fences, waits), inline assembly, and inlining of the rest. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- calls ---------------------------------------------------------------------------------- */

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static int dim_of(const char *name)
{
    size_t n = strlen(name);
    char c = n ? name[n - 1] : 'x';
    return c == 'x' ? 0 : c == 'y' ? 1 : 2;
}

bool x_call(xlate *x, frame *f, block *out, LLVMValueRef in, val *r)
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
        x_barrier(x, out, in);
        *r = val_known(0);
        return true;
    }
    if (starts(name, "llvm.nvvm.membar.") || starts(name, "llvm.nvvm.fence.sc.")) {
        inst fe = x_inst(I_FENCE);
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
        int bits = x_int_bits(x, LLVMTypeOf(in));
        uint64_t ua = x_zext(a->c, bits), ub = x_zext(b->c, bits);
        int64_t v = starts(name, "llvm.smax.")   ? (a->c > b->c ? a->c : b->c)
                    : starts(name, "llvm.smin.") ? (a->c < b->c ? a->c : b->c)
                    : starts(name, "llvm.umax.") ? (int64_t)(ua > ub ? ua : ub)
                    : starts(name, "llvm.umin.") ? (int64_t)(ua < ub ? ua : ub)
                                                 : (a->c < 0 ? -a->c : a->c);
        *r = val_known(x_wrap(v, bits));
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
        inst fe = x_inst(I_FENCE);
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
    wend e = x_walk(x, &g, LLVMGetEntryBasicBlock(callee), NULL, NULL, out, &last, &ret);
    x->cur = saved;
    vmap_free(&g.vals);
    free(g.visits);
    if (e == W_FAIL)
        return false;
    *r = ret.k ? ret : val_known(0);
    return true;
}
