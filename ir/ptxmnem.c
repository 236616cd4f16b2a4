/* PTX memory-access mnemonics: see ptxmnem.h. */
#include "ptxmnem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is(const char *w, const char *s) { return strcmp(w, s) == 0; }

static bool ptx_scope_word(const char *w, scope_t *s)
{
    if (is(w, "cta"))
        *s = SCOPE_WG;
    else if (is(w, "gpu") || is(w, "gl"))
        *s = SCOPE_AGENT;
    else if (is(w, "sys"))
        *s = SCOPE_SYS;
    else
        return false;
    return true;
}

/* 1: an operation; 0: not an operation word; -1: an operation memsim lacks. */
static int rmw_word(const char *w, rmwop_t *r)
{
    static const struct { const char *w; rmwop_t r; } tab[] = {
        {"add", RMW_ADD}, {"sub", RMW_SUB}, {"exch", RMW_EXCH}, {"and", RMW_AND}, {"or", RMW_OR},
        {"xor", RMW_XOR}, {"min", RMW_MIN}, {"max", RMW_MAX}, {"cas", RMW_CAS}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (is(w, tab[i].w)) {
            *r = tab[i].r;
            return 1;
        }
    if (is(w, "mul") || is(w, "div") || is(w, "inc") || is(w, "dec"))
        return -1;
    return 0;
}

static bool cache_word(const char *w, cache_t *c)
{
    static const struct { const char *w; cache_t c; } tab[] = {
        {"cv", CACHE_CV}, {"cg", CACHE_CG}, {"ca", CACHE_CA}, {"cs", CACHE_CS}, {"wt", CACHE_WT}, {"wb", CACHE_WB},
        {"lu", CACHE_CS}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (is(w, tab[i].w)) {
            *c = tab[i].c;
            return true;
        }
    return false;
}

static int width_word(const char *w)
{
    if ((w[0] == 'b' || w[0] == 'u' || w[0] == 's') && (is(w + 1, "8") || is(w + 1, "16") || is(w + 1, "32") || is(w + 1, "64")))
        return (int)strtol(w + 1, NULL, 10);
    return 0;
}

#define FAIL(i, ...) do { snprintf(err, errsz, __VA_ARGS__); return (i); } while (0)

int ptx_access_read(const char *const *words, int n, ptx_access *a, char *err, size_t errsz)
{
    memset(a, 0, sizeof *a);
    const char *h = words[0];
    a->ld = is(h, "ld");
    a->st = is(h, "st");
    a->atom = is(h, "atom");
    a->red = is(h, "red");
    a->vec = 1;
    if (!a->ld && !a->st && !a->atom && !a->red)
        FAIL(0, "unsupported: PTX instruction '%s'", h);
    bool has_ord = false, has_scope = false, has_op = false, vol = false;
    a->ord = ORD_PLAIN;
    for (int i = 1; i < n; i++) {
        const char *w = words[i];
        rmwop_t r;
        int op;
        if (is(w, "weak") || is(w, "relaxed") || is(w, "acquire") || is(w, "release") || is(w, "acq_rel")) {
            if (has_ord)
                FAIL(i, "two memory orders on one instruction");
            has_ord = true;
            a->ord = is(w, "weak") ? ORD_PLAIN : is(w, "relaxed") ? ORD_RELAXED : is(w, "acquire") ? ORD_ACQUIRE
                   : is(w, "release") ? ORD_RELEASE : ORD_ACQ_REL;
        } else if (is(w, "volatile")) {
            vol = true; /* "the same memory synchronization semantics as ld.relaxed.sys" */
        } else if (is(w, "mmio")) {
            FAIL(i, "unsupported: .mmio accesses");
        } else if (ptx_scope_word(w, &a->scope)) {
            has_scope = true;
        } else if (is(w, "cluster")) {
            FAIL(i, "unsupported: the .cluster scope (memsim's scopes are cta, gpu and sys)");
        } else if ((a->atom || a->red) && (op = rmw_word(w, &r)) != 0) {
            if (op < 0)
                FAIL(i, "unsupported: atomic operation '.%s'", w);
            has_op = true;
            a->rmw = r;
        } else if (is(w, "f16") || is(w, "f32") || is(w, "f64") || is(w, "bf16")) {
            FAIL(i, "unsupported: floating-point accesses ('.%s')", w);
        } else if (is(w, "sc")) {
            FAIL(i, "'.sc' is a fence order: PTX memory operations are weak, relaxed, acquire, release or acq_rel");
        } else if (is(w, "shared") || is(w, "shared::cta")) {
            a->shared = true;
        } else if (is(w, "global") || is(w, "generic") || is(w, "aligned")) {
            /* the state space of a global or generic address: memsim's memory */
        } else if (is(w, "shared::cluster")) {
            FAIL(i, "unsupported: distributed shared memory (.shared::cluster)");
        } else if (cache_word(w, &a->cache)) {
            /* a cache operator: orders nothing */
        } else if (strncmp(w, "L1::", 4) == 0 || strncmp(w, "L2::", 4) == 0) {
            /* an eviction-priority hint: orders nothing */
        } else if (is(w, "v2") || is(w, "v4") || is(w, "v8")) {
            a->vec = w[1] - '0';
        } else if (width_word(w)) {
            a->bits = width_word(w);
        } else {
            FAIL(i, "unsupported: PTX modifier '.%s' on %s", w, h);
        }
    }
    if (vol) {
        if (has_ord || a->atom || a->red)
            FAIL(0, ".volatile goes alone on ld or st");
        a->ord = ORD_RELAXED;
        a->scope = SCOPE_SYS;
        a->cache = CACHE_VOLATILE;
        has_scope = true;
    } else if ((a->atom || a->red) && !has_ord) {
        a->ord = ORD_RELAXED;
    }
    if (a->ord == ORD_PLAIN) {
        if (has_scope)
            FAIL(0, "a weak access has no scope");
        a->scope = SCOPE_NONE;
    } else if (!has_scope) {
        a->scope = SCOPE_AGENT; /* PTX's default scope is .gpu */
    }
    if ((a->ld && (a->ord == ORD_RELEASE || a->ord == ORD_ACQ_REL)) || (a->st && (a->ord == ORD_ACQUIRE || a->ord == ORD_ACQ_REL)))
        FAIL(0, "%s cannot be %s", h, order_name(a->ord));
    if ((a->atom || a->red) && a->ord == ORD_PLAIN)
        FAIL(0, "an atomic cannot be .weak");
    if ((a->atom || a->red) && !has_op)
        FAIL(0, "%s needs an operation (add, sub, exch, cas, and, or, xor, min, max)", h);
    return -1;
}
