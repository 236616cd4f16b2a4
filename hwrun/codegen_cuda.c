/* CUDA back end: every memory instruction of the test is one asm volatile
 * statement holding exactly the intended PTX instruction, so neither NVVM
 * nor the front end can merge, drop or reorder it, and the PTX that NVRTC
 * returns can be checked for it (hw_code.expect):
 *   ld.weak / st.weak            plain accesses (PTX .weak)
 *   ld.relaxed.S / ld.acquire.S  atomic loads;  st.relaxed.S / st.release.S
 *   atom.SEM.S.global.OP.T       read-modify-writes
 *   fence.sc.S / fence.acq_rel.S fences
 * with S = cta for wg (and wave: PTX has no warp scope, so a wave-scope
 * operation becomes the stronger cta-scope one), gpu for agent, sys for sys.
 * seq_cst follows libcu++: fence.sc.S, then ld.acquire / st.relaxed /
 * atom.acquire.  acquire-only and release-only fences become fence.acq_rel
 * (stronger; fence.acquire/.release need PTX ISA 8.6). */
#include <string.h>

#include "codegen.h"

static void cuda_header(sbuf *b) { sb_puts(b, "/* NVRTC: no headers needed. */\n"); }

static void cuda_prelude(sbuf *b)
{
    sb_puts(b,
            "static __device__ __forceinline__ void ms_bar_add(unsigned *c)\n"
            "{\n    unsigned o;\n"
            "    asm volatile(\"atom.relaxed.sys.global.add.u32 %0, [%1], 1;\" : \"=r\"(o) : \"l\"(c) : \"memory\");\n"
            "    (void)o;\n}\n"
            "static __device__ __forceinline__ unsigned ms_bar_ld(unsigned *c)\n"
            "{\n    unsigned v;\n"
            "    asm volatile(\"ld.relaxed.sys.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(c) : \"memory\");\n"
            "    return v;\n}\n"
            "static __device__ __forceinline__ void ms_or(unsigned *a, unsigned v) { atomicOr(a, v); }\n");
}

/* PTX type suffix of a location type for ld/st. */
static const char *ldst_type(vtype_t t)
{
    switch (t) {
    case TY_I32: return "s32";
    case TY_U32: return "u32";
    case TY_I64: return "s64";
    case TY_U64: return "u64";
    case TY_I8: return "s8"; /* a 32-bit register, sign-extended on loads, the low byte on stores */
    default: return "b32"; /* f32: its bits, as memsim holds them */
    }
}

static bool wide(vtype_t t) { return t == TY_I64 || t == TY_U64; }

static const char *sem_of(order_t o, bool load)
{
    switch (o) {
    case ORD_RELAXED: return "relaxed";
    case ORD_ACQUIRE: return "acquire";
    case ORD_RELEASE: return "release";
    case ORD_ACQ_REL: return "acq_rel";
    case ORD_SEQ_CST: return load ? "acquire" : "relaxed";
    default: return "weak";
    }
}

static const char *ld_cop(cache_t c)
{
    switch (c) {
    case CACHE_CA: return ".ca";
    case CACHE_CG: return ".cg";
    case CACHE_CS: return ".cs";
    case CACHE_CV: return ".cv";
    default: return "";
    }
}

static const char *st_cop(cache_t c)
{
    switch (c) {
    case CACHE_WB: return ".wb";
    case CACHE_CG: return ".cg";
    case CACHE_CS: return ".cs";
    case CACHE_WT: return ".wt";
    default: return "";
    }
}

/* The mnemonic, without operands: what the PTX must contain. */
static void ld_mnemonic(sbuf *b, vtype_t ty, const inst *in)
{
    if (in->ord == ORD_PLAIN && in->cache == CACHE_VOLATILE)
        sb_printf(b, "ld.volatile.global.%s", ldst_type(ty));
    else if (in->ord == ORD_PLAIN)
        sb_printf(b, "ld.weak.global%s.%s", ld_cop(in->cache), ldst_type(ty));
    else
        sb_printf(b, "ld.%s.%s.global.%s", sem_of(in->ord, true), ptx_scope(in->scope), ldst_type(ty));
}

static void st_mnemonic(sbuf *b, vtype_t ty, const inst *in)
{
    if (in->ord == ORD_PLAIN && in->cache == CACHE_VOLATILE)
        sb_printf(b, "st.volatile.global.%s", ldst_type(ty));
    else if (in->ord == ORD_PLAIN)
        sb_printf(b, "st.weak.global%s.%s", st_cop(in->cache), ldst_type(ty));
    else
        sb_printf(b, "st.%s.%s.global.%s", sem_of(in->ord, false), ptx_scope(in->scope), ldst_type(ty));
}

static const char *rmw_op(rmwop_t r)
{
    switch (r) {
    case RMW_ADD:
    case RMW_SUB:
    case RMW_FADD: return "add";
    case RMW_EXCH: return "exch";
    case RMW_AND: return "and";
    case RMW_OR: return "or";
    case RMW_XOR: return "xor";
    case RMW_MIN: return "min";
    case RMW_MAX: return "max";
    default: return "cas";
    }
}

static const char *rmw_type(rmwop_t r, vtype_t t)
{
    bool w = wide(t);
    switch (r) {
    case RMW_FADD: return "f32";
    case RMW_ADD:
    case RMW_SUB: return w ? "u64" : t == TY_I32 ? "s32" : "u32";
    case RMW_MIN:
    case RMW_MAX: return t == TY_I32 ? "s32" : t == TY_I64 ? "s64" : w ? "u64" : "u32";
    default: return w ? "b64" : "b32";
    }
}

static void rmw_mnemonic(sbuf *b, vtype_t ty, const inst *in)
{
    if (ty == TY_I8) {
        /* PTX has no 8-bit atomics: a compare-and-swap loop on the aligned 32-bit word (what LLVM's
         * atomic expansion makes of an i8 atomicrmw, as Triton's int8 locks get). */
        const char *sem = in->ord == ORD_SEQ_CST ? "acquire" : sem_of(in->ord, true);
        sb_printf(b, "atom.%s.%s.global.cas.b32", sem, ptx_scope(in->scope));
        return;
    }
    /* A read-modify-write at seq_cst is fence.sc + atom.acquire (libcu++). */
    const char *sem = in->ord == ORD_SEQ_CST ? "acquire" : sem_of(in->ord, true);
    sb_printf(b, "atom.%s.%s.global.%s.%s", sem, ptx_scope(in->scope), rmw_op(in->rmw), rmw_type(in->rmw, ty));
}

static void fence_mnemonic(sbuf *b, order_t o, scope_t s)
{
    sb_printf(b, "fence.%s.%s", o == ORD_SEQ_CST ? "sc" : "acq_rel", ptx_scope(s));
}

static void sc_fence(sbuf *b, const char *ind, const inst *in)
{
    if (in->ord == ORD_SEQ_CST)
        sb_printf(b, "%sasm volatile(\"fence.sc.%s;\" ::: \"memory\"); /* seq_cst: fence.sc first */\n", ind,
                  ptx_scope(in->scope));
}

static void cuda_load(sbuf *b, const char *ind, vtype_t ty, const inst *in, const char *addr, const char *dst)
{
    sc_fence(b, ind, in);
    sbuf m = {0};
    ld_mnemonic(&m, ty, in);
    if (wide(ty))
        sb_printf(b, "%s{ unsigned long long x; asm volatile(\"%s %%0, [%%1];\" : \"=l\"(x) : \"l\"(%s) : \"memory\"); %s = (i64)x; }\n",
                  ind, m.s, addr, dst);
    else
        sb_printf(b, "%s{ unsigned x; asm volatile(\"%s %%0, [%%1];\" : \"=r\"(x) : \"l\"(%s) : \"memory\"); %s = (i64)(%s)x; }\n",
                  ind, m.s, addr, dst, ty == TY_I32 || ty == TY_I8 ? "int" : "unsigned");
    sb_free(&m);
}

static void cuda_store(sbuf *b, const char *ind, vtype_t ty, const inst *in, const char *addr, const char *val)
{
    sc_fence(b, ind, in);
    sbuf m = {0};
    st_mnemonic(&m, ty, in);
    if (wide(ty))
        sb_printf(b, "%sasm volatile(\"%s [%%0], %%1;\" :: \"l\"(%s), \"l\"((unsigned long long)(%s)) : \"memory\");\n", ind,
                  m.s, addr, val);
    else
        sb_printf(b, "%sasm volatile(\"%s [%%0], %%1;\" :: \"l\"(%s), \"r\"((unsigned)(%s)) : \"memory\");\n", ind, m.s,
                  addr, val);
    sb_free(&m);
}

/* An 8-bit read-modify-write: a CAS loop on the 32-bit word that holds the byte, each try an
 * atom.cas.b32 with the instruction's order and scope.  A CAS whose byte differs from the
 * expected one writes nothing: its read is the word's load (acquire if the failure order is). */
static void cuda_rmw8(sbuf *b, const char *ind, const inst *in, const char *addr, const char *dst, const char *val,
                      const char *val2)
{
    sbuf m = {0};
    rmw_mnemonic(&m, TY_I8, in);
    bool fail_acq = in->rmw == RMW_CAS && (in->fail_ord == ORD_ACQUIRE || in->fail_ord == ORD_SEQ_CST ||
                                          in->fail_ord == ORD_ACQ_REL);
    sb_printf(b, "%s{ const u64 wa = (%s) & ~3ull; const unsigned sh = (unsigned)((%s) & 3ull) * 8u; unsigned cur;\n", ind,
              addr, addr);
    sb_printf(b, "%s  asm volatile(\"ld.%s.%s.global.u32 %%0, [%%1];\" : \"=r\"(cur) : \"l\"(wa) : \"memory\");\n", ind,
              fail_acq ? "acquire" : "relaxed", ptx_scope(in->scope));
    sb_printf(b, "%s  for (;;) {\n%s    const int ob = (int)(signed char)(cur >> sh);\n", ind, ind);
    const char *nv;
    char buf[512];
    switch (in->rmw) {
    case RMW_CAS:
        sb_printf(b, "%s    if (ob != (int)(signed char)(%s)) { %s = (i64)ob; break; } /* failed: a read only */\n", ind, val,
                  dst);
        nv = val2 ? val2 : "0";
        break;
    case RMW_EXCH: nv = val; break;
    case RMW_ADD: snprintf(buf, sizeof buf, "ob + (int)(%s)", val); nv = buf; break;
    case RMW_SUB: snprintf(buf, sizeof buf, "ob - (int)(%s)", val); nv = buf; break;
    case RMW_AND: snprintf(buf, sizeof buf, "ob & (int)(%s)", val); nv = buf; break;
    case RMW_OR: snprintf(buf, sizeof buf, "ob | (int)(%s)", val); nv = buf; break;
    case RMW_XOR: snprintf(buf, sizeof buf, "ob ^ (int)(%s)", val); nv = buf; break;
    case RMW_MIN: snprintf(buf, sizeof buf, "(int)(signed char)(%s) < ob ? (int)(signed char)(%s) : ob", val, val); nv = buf; break;
    default: snprintf(buf, sizeof buf, "(int)(signed char)(%s) > ob ? (int)(signed char)(%s) : ob", val, val); nv = buf; break;
    }
    sb_printf(b, "%s    const unsigned nw = (cur & ~(0xffu << sh)) | ((unsigned)(unsigned char)(%s) << sh);\n", ind, nv);
    sb_printf(b, "%s    unsigned o; asm volatile(\"%s %%0, [%%1], %%2, %%3;\" : \"=r\"(o) : \"l\"(wa), \"r\"(cur), \"r\"(nw) : \"memory\");\n",
              ind, m.s);
    sb_printf(b, "%s    if (o == cur) { %s = (i64)ob; break; }\n%s    cur = o;\n%s  }\n%s}\n", ind, dst, ind, ind, ind);
    sb_free(&m);
}

static void cuda_rmw(sbuf *b, const char *ind, vtype_t ty, const inst *in, const char *addr, const char *dst,
                     const char *val, const char *val2)
{
    sc_fence(b, ind, in);
    if (ty == TY_I8) {
        cuda_rmw8(b, ind, in, addr, dst, val, val2);
        return;
    }
    sbuf m = {0};
    rmw_mnemonic(&m, ty, in);
    const char *c = wide(ty) ? "l" : "r";
    const char *ct = wide(ty) ? "unsigned long long" : "unsigned";
    /* PTX has no atom.sub: add the negated operand. */
    sbuf v = {0};
    if (in->rmw == RMW_SUB)
        sb_printf(&v, "ms_neg(%s)", val);
    else
        sb_puts(&v, val);
    if (in->rmw == RMW_CAS)
        sb_printf(b,
                  "%s{ %s o; asm volatile(\"%s %%0, [%%1], %%2, %%3;\" : \"=%s\"(o) : \"l\"(%s), \"%s\"((%s)(%s)), "
                  "\"%s\"((%s)(%s)) : \"memory\"); %s = (i64)(%s)o; }\n",
                  ind, ct, m.s, c, addr, c, ct, v.s, c, ct, val2 ? val2 : "0", dst,
                  ty == TY_I32 ? "int" : wide(ty) ? "long long" : "unsigned");
    else
        sb_printf(b,
                  "%s{ %s o; asm volatile(\"%s %%0, [%%1], %%2;\" : \"=%s\"(o) : \"l\"(%s), \"%s\"((%s)(%s)) : "
                  "\"memory\"); %s = (i64)(%s)o; }\n",
                  ind, ct, m.s, c, addr, c, ct, v.s, dst, ty == TY_I32 ? "int" : wide(ty) ? "long long" : "unsigned");
    sb_free(&v);
    sb_free(&m);
}

static void cuda_fence(sbuf *b, const char *ind, const inst *in)
{
    if (in->ord == ORD_PLAIN || in->ord == ORD_RELAXED) {
        sb_printf(b, "%s/* a relaxed fence orders nothing: no instruction */\n", ind);
        return;
    }
    sbuf m = {0};
    fence_mnemonic(&m, in->ord, in->scope);
    sb_printf(b, "%sasm volatile(\"%s;\" ::: \"memory\");\n", ind, m.s);
    sb_free(&m);
}

static void cuda_expect(sbuf *b, vtype_t ty, const inst *in)
{
    if (in->kind != I_FENCE && in->ord == ORD_SEQ_CST)
        sb_printf(b, "fence.sc.%s\n", ptx_scope(in->scope));
    switch (in->kind) {
    case I_LD: ld_mnemonic(b, ty, in); break;
    case I_ST: st_mnemonic(b, ty, in); break;
    case I_RMW: rmw_mnemonic(b, ty, in); break;
    case I_AWAIT:
        if (in->await_rmw)
            rmw_mnemonic(b, ty, in);
        else
            ld_mnemonic(b, ty, in);
        break;
    case I_FENCE:
        if (in->ord != ORD_PLAIN && in->ord != ORD_RELAXED)
            fence_mnemonic(b, in->ord, in->scope);
        break;
    default: break;
    }
}

const hw_emitter emit_cuda = {
    .name = "CUDA (NVRTC, inline PTX)",
    .header = cuda_header,
    .prelude = cuda_prelude,
    .load = cuda_load,
    .store = cuda_store,
    .rmw = cuda_rmw,
    .fence = cuda_fence,
    .expect = cuda_expect,
};
