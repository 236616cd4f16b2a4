/* Inline PTX as Triton's NVIDIA backend emits it for every global memory
 * operation, e.g.
 *   "mov.u32 $0, 0x0;\n\t@$3 atom.global.sys.release.add.u32 $0, [ $1 + 0 ], $2;"   "=r,l,r,b"
 *   "@$2 st.shared.b32 [ $0 + 0 ], $1;"                                                "r,r,b"
 * The mnemonics are read by the PTX reader the .litmus importer uses
 * (ir/ptxmnem.c); operands $N are the asm's outputs, then its inputs. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/ptxmnem.h"
#include "internal.h"

enum { MAXOPS = 16 };

typedef struct {
    xlate *x;
    frame *f;
    LLVMValueRef call;
    int nout;
    val out[MAXOPS];
} asmctx;

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

/* $N as a value: an output (as set so far) or an input operand. */
static val *dollar(asmctx *c, const char *s)
{
    if (*s != '$' || !isdigit((unsigned char)s[1])) {
        xfail(c->x, "inline PTX operand '%s' is not $N", s);
        return NULL;
    }
    long n = strtol(s + 1, NULL, 10);
    if (n < 0 || n > 999) {
        xfail(c->x, "inline PTX operand '%s' is out of range", s);
        return NULL;
    }
    if (n < c->nout)
        return &c->out[n];
    int in = (int)n - c->nout;
    if (in >= (int)LLVMGetNumArgOperands(c->call)) {
        xfail(c->x, "inline PTX operand %s does not exist", s);
        return NULL;
    }
    return xoperand(c->x, c->f, LLVMGetOperand(c->call, (unsigned)in));
}

static bool value_of(asmctx *c, char *s, val *v)
{
    s = trim(s);
    if (*s == '{') {
        char *e = strchr(s, '}');
        if (e)
            *e = 0;
        s = trim(s + 1);
    }
    if (*s == '$') {
        val *d = dollar(c, s);
        if (!d)
            return false;
        *v = d->k ? val_copy(d) : val_known(0);
        return true;
    }
    char *end;
    long long k = strtoll(s, &end, 0);
    if (end == s || *trim(end)) {
        xfail(c->x, "inline PTX operand '%s' is not understood", s);
        return false;
    }
    *v = val_known(k);
    return true;
}

/* [ $1 + 8 ] */
static bool address_of(asmctx *c, char *s, int64_t *addr)
{
    s = trim(s);
    size_t n = strlen(s);
    if (n < 3 || s[0] != '[' || s[n - 1] != ']') {
        xfail(c->x, "inline PTX address '%s' is not [ $N + OFFSET ]", s);
        return false;
    }
    s[n - 1] = 0;
    s = trim(s + 1);
    int64_t off = 0;
    char *plus = strchr(s, '+');
    if (plus) {
        *plus = 0;
        char *end;
        off = strtoll(trim(plus + 1), &end, 0);
    }
    val *b = dollar(c, trim(s));
    if (!b)
        return false;
    if (b->k != V_KNOWN) {
        xfail(c->x, "the address depends on a value read from memory: pointers loaded from memory are not followed");
        return false;
    }
    *addr = b->c + off;
    return true;
}

/* The $N names in "{ $0, $1 }" or "$0". */
static int dollar_list(char *s, char **out, int max)
{
    s = trim(s);
    if (*s == '{') {
        char *e = strchr(s, '}');
        if (e)
            *e = 0;
        s++;
    }
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(s, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
        out[n++] = trim(tok);
    return n;
}

static bool set_out(asmctx *c, const char *name, val v)
{
    long k = name[0] == '$' && isdigit((unsigned char)name[1]) ? strtol(name + 1, NULL, 10) : -1;
    if (k < 0 || k >= c->nout) {
        val_free(&v);
        xfail(c->x, "inline PTX writes %s, which is not an output", name);
        return false;
    }
    val_free(&c->out[k]);
    c->out[k] = v;
    return true;
}

/* Top-level commas only (not inside braces or brackets). */
static int split_operands(char *s, char **ops, int max)
{
    int n = 0, depth = 0;
    char *start = s;
    for (char *p = s;; p++) {
        if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']')
            depth--;
        else if ((*p == ',' && depth == 0) || !*p) {
            bool end = !*p;
            *p = 0;
            if (n < max && *trim(start))
                ops[n++] = trim(start);
            start = p + 1;
            if (end)
                break;
        }
    }
    return n;
}

static bool vtype_bits(asmctx *c, int bits, vtype_t *vt)
{
    if (bits == 32 || bits == 0)
        *vt = TY_I32;
    else if (bits == 64)
        *vt = TY_I64;
    else if (bits == 8)
        *vt = TY_I8;
    else {
        xfail(c->x, "%d-bit PTX accesses are not modelled", bits);
        return false;
    }
    return true;
}

static bool statement(asmctx *c, block *out, char *st)
{
    xlate *x = c->x;
    st = trim(st);
    if (!*st)
        return true;
    if (*st == '@') {
        bool neg = st[1] == '!';
        char *p = st + 1 + neg, *sp = p;
        while (*sp && !isspace((unsigned char)*sp))
            sp++;
        char save = *sp;
        *sp = 0;
        val *pv = dollar(c, p);
        *sp = save;
        if (!pv)
            return false;
        if (pv->k != V_KNOWN) {
            xfail(x, "an inline PTX predicate computed from memory is not modelled");
            return false;
        }
        if ((pv->c != 0) == neg)
            return true; /* predicated off for this thread */
        st = trim(sp);
    }
    char *sp = st;
    while (*sp && !isspace((unsigned char)*sp))
        sp++;
    char *rest = *sp ? sp + 1 : sp;
    *sp = 0;
    char mn[128];
    snprintf(mn, sizeof mn, "%s", st);
    const char *words[16];
    int nw = 0;
    for (char *save = NULL, *w = strtok_r(mn, ".", &save); w && nw < 16; w = strtok_r(NULL, ".", &save))
        words[nw++] = w;
    if (!nw)
        return true;
    char *ops[MAXOPS];
    int nops = split_operands(rest, ops, MAXOPS);
    const char *h = words[0];
    if (strcmp(h, "mov") == 0) {
        val v;
        if (nops != 2 || !value_of(c, ops[1], &v))
            return nops == 2 ? false : (xfail(x, "mov takes two operands"), false);
        return set_out(c, ops[0], v);
    }
    if (strcmp(h, "fence") == 0 || strcmp(h, "membar") == 0) {
        inst fe;
        memset(&fe, 0, sizeof fe);
        fe.kind = I_FENCE;
        fe.dst = -1;
        fe.mem.symvar = -1;
        fe.ord = ORD_SEQ_CST;
        fe.scope = SCOPE_AGENT;
        for (int i = 1; i < nw; i++) {
            if (strcmp(words[i], "acq_rel") == 0)
                fe.ord = ORD_ACQ_REL;
            else if (strcmp(words[i], "acquire") == 0)
                fe.ord = ORD_ACQUIRE;
            else if (strcmp(words[i], "release") == 0)
                fe.ord = ORD_RELEASE;
            else if (strcmp(words[i], "cta") == 0)
                fe.scope = SCOPE_WG;
            else if (strcmp(words[i], "gpu") == 0 || strcmp(words[i], "gl") == 0)
                fe.scope = SCOPE_AGENT;
            else if (strcmp(words[i], "sys") == 0)
                fe.scope = SCOPE_SYS;
            else if (strcmp(words[i], "sc") != 0) {
                xfail(x, "fence modifier '.%s' in inline PTX is not modelled", words[i]);
                return false;
            }
        }
        emit_access(x, out, &fe, c->call);
        return true;
    }
    if (strcmp(h, "bar") == 0 || strcmp(h, "barrier") == 0) {
        if (nops > 1 || (nops == 1 && strcmp(ops[0], "0") != 0)) {
            xfail(x, "a named barrier or a barrier with a thread count in inline PTX is not modelled");
            return false;
        }
        inst b;
        memset(&b, 0, sizeof b);
        b.kind = I_BARRIER;
        b.dst = -1;
        b.mem.symvar = -1;
        b.scope = SCOPE_WG;
        emit_access(x, out, &b, c->call);
        return true;
    }
    ptx_access a;
    char why[256];
    if (ptx_access_read(words, nw, &a, why, sizeof why) >= 0) {
        xfail(x, "inline PTX '%s': %s", st, why);
        return false;
    }
    vtype_t vt;
    if (!vtype_bits(c, a.bits, &vt))
        return false;
    int64_t addr;
    int esz = (int)vtype_size(vt);
    if (a.ld) {
        char *dst[8];
        int nd;
        if (nops != 2 || (nd = dollar_list(ops[0], dst, 8)) != a.vec || !address_of(c, ops[1], &addr)) {
            if (!x->failed)
                xfail(x, "inline PTX ld takes { outputs } and an address");
            return false;
        }
        for (int i = 0; i < nd; i++) {
            val v;
            if (!access_load(x, out, c->call, addr + i * esz, a.shared, vt, a.ord, a.scope, a.cache, &v) ||
                !set_out(c, dst[i], v))
                return false;
        }
        return true;
    }
    if (a.st) {
        char *src[8];
        int ns;
        if (nops != 2 || !address_of(c, ops[0], &addr) || (ns = dollar_list(ops[1], src, 8)) != a.vec) {
            if (!x->failed)
                xfail(x, "inline PTX st takes an address and { values }");
            return false;
        }
        for (int i = 0; i < ns; i++) {
            val v;
            if (!value_of(c, src[i], &v))
                return false;
            bool ok = access_store(x, out, c->call, addr + i * esz, a.shared, vt, a.ord, a.scope, a.cache, &v);
            val_free(&v);
            if (!ok)
                return false;
        }
        return true;
    }
    /* atom DST, [ADDR], A [, B]  /  red [ADDR], A */
    int k = a.atom ? 1 : 0;
    int want = k + 2 + (a.rmw == RMW_CAS);
    if (nops != want) {
        xfail(x, "inline PTX %s takes %d operands", h, want);
        return false;
    }
    if (!address_of(c, ops[k], &addr))
        return false;
    val v1, v2 = {0}, old = {0};
    if (!value_of(c, ops[k + 1], &v1))
        return false;
    if (a.rmw == RMW_CAS && !value_of(c, ops[k + 2], &v2)) {
        val_free(&v1);
        return false;
    }
    bool ok = access_rmw(x, out, c->call, addr, a.shared, vt, a.rmw, a.ord, a.scope, &v1, a.rmw == RMW_CAS ? &v2 : NULL,
                         a.atom, &old);
    val_free(&v1);
    val_free(&v2);
    if (ok && a.atom)
        ok = set_out(c, ops[0], old);
    return ok;
}

bool ptxasm_call(xlate *x, frame *f, block *out, LLVMValueRef call, val *result)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    size_t n, cn;
    const char *text = LLVMGetInlineAsmAsmString(callee, &n);
    const char *cons = LLVMGetInlineAsmConstraintString(callee, &cn);
    asmctx c = {.x = x, .f = f, .call = call};
    char *cs = strndup(cons, cn);
    for (char *save = NULL, *tok = strtok_r(cs, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (tok[0] == '=')
            c.nout++;
    free(cs);
    if (c.nout > MAXOPS) {
        xfail(x, "inline PTX with more than %d outputs", MAXOPS);
        return false;
    }
    char *body = strndup(text, n);
    bool ok = true;
    for (char *save = NULL, *st = strtok_r(body, ";\n", &save); st && ok; st = strtok_r(NULL, ";\n", &save))
        ok = statement(&c, out, st);
    free(body);
    if (ok) {
        if (c.nout == 1) {
            *result = c.out[0].k ? c.out[0] : val_known(0);
            c.out[0] = (val){0};
        } else if (c.nout > 1) {
            *result = (val){.k = V_AGG, .n = c.nout, .el = calloc((size_t)c.nout + 1, sizeof(val))};
            for (int i = 0; i < c.nout; i++) {
                result->el[i] = c.out[i].k ? c.out[i] : val_known(0);
                c.out[i] = (val){0};
            }
        } else {
            *result = val_known(0);
        }
    }
    for (int i = 0; i < c.nout; i++)
        val_free(&c.out[i]);
    return ok;
}
