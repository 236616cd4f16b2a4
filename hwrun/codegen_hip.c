/* HIP back end: atomics through the clang builtins __hip_atomic_* with the
 * test's order and scope (__HIP_MEMORY_SCOPE_WAVEFRONT / WORKGROUP / AGENT /
 * SYSTEM), fences through __builtin_amdgcn_fence(order, "wavefront" |
 * "workgroup" | "agent" | "" (system)), plain accesses as ordinary loads and
 * stores.  An empty asm with a "memory" clobber sits between every two memory
 * instructions so that the compiler keeps their number and order, and each
 * loaded value is pinned to a register so that no load is dropped.  What the
 * AMDGPU backend makes of them (buffer_wbl2, buffer_inv, sc0/sc1 bits) is
 * the subject of the test; hwrun/tests checks a few such sequences. */
#include "codegen.h"

static void hip_header(sbuf *b)
{
    sb_puts(b, "#if !defined(__HIPCC_RTC__) && !defined(MS_HOST_SIM)\n#include <hip/hip_runtime.h>\n#endif\n");
}

static void hip_prelude(sbuf *b)
{
    sb_puts(b,
            "static __device__ __forceinline__ void ms_bar_add(unsigned *c)\n"
            "{\n    __hip_atomic_fetch_add(c, 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);\n}\n"
            "static __device__ __forceinline__ unsigned ms_bar_ld(unsigned *c)\n"
            "{\n    return __hip_atomic_load(c, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);\n}\n"
            "static __device__ __forceinline__ void ms_or(unsigned *a, unsigned v) { atomicOr(a, v); }\n"
            "#define MS_CB() __asm__ __volatile__(\"\" ::: \"memory\")\n"
            "/* Test locations are global memory: address space 1 gives global_* rather than flat_*\n"
            " * instructions (a flat access would also wait for LDS counters). */\n"
            "#ifdef MS_HOST_SIM\n#define MS_KEEP(x) __asm__ __volatile__(\"\" :: \"g\"(x))\n#define MS_G(T, a) ((T *)(a))\n"
            "#else\n#define MS_KEEP(x) __asm__ __volatile__(\"\" :: \"v\"(x))\n"
            "#define MS_G(T, a) ((__attribute__((address_space(1))) T *)(a))\n#endif\n");
}

static const char *htype(vtype_t t)
{
    switch (t) {
    case TY_I32: return "int";
    case TY_I64: return "long long";
    case TY_U64: return "unsigned long long";
    case TY_I8: return "signed char"; /* Iris's int8 locks: the builtins take 1-byte atomics */
    default: return "unsigned"; /* u32, and f32 as its bits */
    }
}

static const char *horder(order_t o)
{
    switch (o) {
    case ORD_ACQUIRE: return "__ATOMIC_ACQUIRE";
    case ORD_RELEASE: return "__ATOMIC_RELEASE";
    case ORD_ACQ_REL: return "__ATOMIC_ACQ_REL";
    case ORD_SEQ_CST: return "__ATOMIC_SEQ_CST";
    default: return "__ATOMIC_RELAXED";
    }
}

static const char *fence_scope(scope_t s)
{
    switch (s) {
    case SCOPE_THREAD: return "singlethread";
    case SCOPE_WAVE: return "wavefront";
    case SCOPE_WG: return "workgroup";
    case SCOPE_AGENT: return "agent";
    default: return "";
    }
}

static void hip_load(sbuf *b, const char *ind, vtype_t ty, const inst *in, const char *addr, const char *dst)
{
    const char *T = htype(ty);
    if (in->ord == ORD_PLAIN)
        sb_printf(b, "%sMS_CB(); { %s x = *MS_G(%s%s, %s); MS_KEEP(%sx); %s = (i64)x; } MS_CB();\n", ind, T,
                  in->cache == CACHE_VOLATILE ? "volatile " : "", T, addr, ty == TY_I8 ? "(int)" : "", dst);
    else
        sb_printf(b,
                  "%sMS_CB(); { %s x = __hip_atomic_load(MS_G(%s, %s), %s, %s); MS_KEEP(%sx); "
                  "%s = (i64)x; } MS_CB();\n",
                  ind, T, T, addr, horder(in->ord), hip_scope(in->scope), ty == TY_I8 ? "(int)" : "", dst);
}

static void hip_store(sbuf *b, const char *ind, vtype_t ty, const inst *in, const char *addr, const char *val)
{
    const char *T = htype(ty);
    if (in->ord == ORD_PLAIN)
        sb_printf(b, "%sMS_CB(); *MS_G(%s%s, %s) = (%s)(%s); MS_CB();\n", ind, in->cache == CACHE_VOLATILE ? "volatile " : "",
                  T, addr, T, val);
    else
        sb_printf(b, "%sMS_CB(); __hip_atomic_store(MS_G(%s, %s), (%s)(%s), %s, %s); MS_CB();\n", ind, T, addr, T, val,
                  horder(in->ord), hip_scope(in->scope));
}

static order_t fail_order(const inst *in)
{
    order_t f = in->fail_ord;
    if (f == ORD_RELEASE || f == ORD_PLAIN)
        f = ORD_RELAXED;
    if (f == ORD_ACQ_REL)
        f = ORD_ACQUIRE;
    /* Not stronger than the success order. */
    if (in->ord == ORD_RELAXED || in->ord == ORD_RELEASE)
        f = ORD_RELAXED;
    if ((in->ord == ORD_ACQUIRE || in->ord == ORD_ACQ_REL) && f == ORD_SEQ_CST)
        f = ORD_ACQUIRE;
    return f;
}

static void hip_rmw(sbuf *b, const char *ind, vtype_t ty, const inst *in, const char *addr, const char *dst,
                    const char *val, const char *val2)
{
    const char *T = htype(ty);
    const char *ord = horder(in->ord), *sc = hip_scope(in->scope);
    switch (in->rmw) {
    case RMW_CAS:
        sb_printf(b,
                  "%sMS_CB(); { %s e = (%s)(%s); __hip_atomic_compare_exchange_strong(MS_G(%s, %s), &e, (%s)(%s), %s, %s, %s); "
                  "%s = (i64)e; } MS_CB();\n",
                  ind, T, T, val, T, addr, T, val2 ? val2 : "0", ord, horder(fail_order(in)), sc, dst);
        return;
    case RMW_FADD:
        if (in->unsafe)
            /* A hardware FP atomic (what -munsafe-fp-atomics gives): relaxed, agent-wide; the order comes
             * from fences around it. */
            sb_printf(b,
                      "%sMS_CB(); %s{ float o = unsafeAtomicAdd((float *)(%s), __uint_as_float((unsigned)(%s))); %s = "
                      "(i64)__float_as_uint(o); }%s MS_CB();\n",
                      ind,
                      in->ord == ORD_RELEASE || in->ord == ORD_ACQ_REL || in->ord == ORD_SEQ_CST
                          ? "__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"agent\"); "
                          : "",
                      addr, val, dst,
                      in->ord == ORD_ACQUIRE || in->ord == ORD_ACQ_REL || in->ord == ORD_SEQ_CST
                          ? " __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"agent\");"
                          : "");
        else
            sb_printf(b,
                      "%sMS_CB(); { float o = __hip_atomic_fetch_add(MS_G(float, %s), __uint_as_float((unsigned)(%s)), %s, %s); "
                      "%s = (i64)__float_as_uint(o); } MS_CB();\n",
                      ind, addr, val, ord, sc, dst);
        return;
    default: break;
    }
    const char *fn = "__hip_atomic_fetch_add";
    switch (in->rmw) {
    case RMW_EXCH: fn = "__hip_atomic_exchange"; break;
    case RMW_AND: fn = "__hip_atomic_fetch_and"; break;
    case RMW_OR: fn = "__hip_atomic_fetch_or"; break;
    case RMW_XOR: fn = "__hip_atomic_fetch_xor"; break;
    case RMW_MIN: fn = "__hip_atomic_fetch_min"; break;
    case RMW_MAX: fn = "__hip_atomic_fetch_max"; break;
    default: break;
    }
    sb_printf(b, "%sMS_CB(); { %s o = %s(MS_G(%s, %s), (%s)(%s%s%s), %s, %s); %s = (i64)o; } MS_CB();\n", ind, T, fn, T,
              addr, T, in->rmw == RMW_SUB ? "ms_neg(" : "", val, in->rmw == RMW_SUB ? ")" : "", ord, sc, dst);
}

static void hip_fence(sbuf *b, const char *ind, const inst *in)
{
    if (in->ord == ORD_PLAIN || in->ord == ORD_RELAXED) {
        sb_printf(b, "%s/* a relaxed fence orders nothing: no instruction */\n", ind);
        return;
    }
    sb_printf(b, "%sMS_CB(); __builtin_amdgcn_fence(%s, \"%s\"); MS_CB();\n", ind, horder(in->ord), fence_scope(in->scope));
}

const hw_emitter emit_hip = {
    .name = "HIP (hiprtc, __hip_atomic builtins)",
    .header = hip_header,
    .prelude = hip_prelude,
    .load = hip_load,
    .store = hip_store,
    .rmw = hip_rmw,
    .fence = hip_fence,
    .expect = NULL,
};
