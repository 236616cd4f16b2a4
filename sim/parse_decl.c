/* Declarations: memory, kernels, threads and their placement; the final
 * checks once the whole file is read. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_internal.h"

bool parse_gpu_word(parser *p, const token *tk, const char *s, int len, int *gpu)
{
    if (len > 3 && strncmp(s, "gpu", 3) == 0) {
        int v = 0;
        for (int i = 3; i < len; i++) {
            if (s[i] < '0' || s[i] > '9' || v > MAX_GPUS)
                goto bad;
            v = v * 10 + (s[i] - '0');
        }
        if (v >= MAX_GPUS) {
            ERR_AT(*tk, "GPU index %d is out of range (at most %d GPUs)", v, MAX_GPUS);
            return false;
        }
        *gpu = v;
        return true;
    }
bad:
    ERR_AT(*tk, "expected a GPU such as gpu0, found '%.*s'", len, s);
    return false;
}

void grow(void **v, int n, int *cap, size_t size)
{
    if (n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *v = realloc(*v, (size_t)*cap * size);
    }
}

static bool parse_init_value(parser *p, const location *L, int64_t *out)
{
    bool neg = accept(p, T_MINUS);
    if (p->tok.kind == T_FLOAT || (L->type == TY_F32 && p->tok.kind == T_INT)) {
        if (L->type != TY_F32 && p->tok.kind == T_FLOAT) {
            ERR("type mismatch: '%s' is %s but the value is a floating-point number", L->name, vtype_name(L->type));
            return false;
        }
        float f = (float)(p->tok.kind == T_FLOAT ? p->tok.fval : (double)p->tok.ival);
        if (neg)
            f = -f;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        *out = bits;
        advance(p);
        return true;
    }
    if (p->tok.kind != T_INT) {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("expected an initial value, found %s", got);
        return false;
    }
    expr e = {.kind = EX_CONST, .value = neg ? -p->tok.ival : p->tok.ival, .pos = here(p)};
    if (!check_value_fits(p, L, &e))
        return false;
    *out = e.value;
    advance(p);
    return true;
}

static bool parse_location(parser *p)
{
    test *t = p->t;
    token name = p->tok;
    if (!plain_ident(&name) || is_reserved(&name)) {
        ERR("expected a location name");
        return false;
    }
    if (find_loc(t, name.start, name.len) >= 0) {
        ERR("duplicate location '%.*s'", name.len, name.start);
        return false;
    }
    advance(p);
    if (!expect_tok(p, T_COLON, "after the location name"))
        return false;
    location L = {0};
    L.pos = (srcpos){name.line, name.col};
    L.len = 1;
    static const char *types[] = {"i32", "i64", "u32", "u64", "f32"};
    int ty = -1;
    for (int i = 0; i < 5; i++)
        if (tok_is(&p->tok, types[i]))
            ty = i;
    if (ty < 0) {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("unknown type %s (types: i32 i64 u32 u64 f32)", got);
        return false;
    }
    L.type = (vtype_t)ty;
    advance(p);
    if (accept(p, T_LBRACK)) {
        if (p->tok.kind != T_INT || p->tok.ival < 1 || p->tok.ival > 4096) {
            ERR("array length must be an integer from 1 to 4096");
            return false;
        }
        L.len = (int)p->tok.ival;
        advance(p);
        if (!expect_tok(p, T_RBRACK, "after the array length"))
            return false;
    }
    L.name = tok_str(&name);
    L.init = calloc((size_t)L.len, sizeof *L.init);
    L.home = 0;
    L.gran = GRAN_FINE;
    bool ok = true;
    if (accept(p, T_ASSIGN)) {
        if (accept(p, T_LBRACE)) {
            int i = 0;
            do {
                if (i >= L.len) {
                    ERR("too many initial values for '%s' (%d elements)", L.name, L.len);
                    ok = false;
                    break;
                }
                ok = parse_init_value(p, &L, &L.init[i++]);
            } while (ok && accept(p, T_COMMA));
            if (ok && i != L.len) {
                ERR("'%s' has %d elements but %d initial value%s", L.name, L.len, i, i == 1 ? "" : "s");
                ok = false;
            }
            ok = ok && expect_tok(p, T_RBRACE, "after the initial values");
        } else {
            ok = parse_init_value(p, &L, &L.init[0]);
            for (int i = 1; ok && i < L.len; i++)
                L.init[i] = L.init[0];
        }
    }
    bool have_home = false, have_gran = false;
    while (ok && (p->tok.kind == T_AT || (p->tok.kind == T_IDENT && peek(p)->kind != T_COLON))) {
        if (accept(p, T_AT)) {
            if (have_home) {
                ERR("'%s' already has a home", L.name);
                ok = false;
                break;
            }
            if (tok_is(&p->tok, "host")) {
                L.home = HOME_HOST;
            } else if (p->tok.kind == T_IDENT) {
                ok = parse_gpu_word(p, &p->tok, p->tok.start, p->tok.len, &L.home);
            } else {
                ERR("expected gpuN or host after '@'");
                ok = false;
            }
            have_home = true;
            advance(p);
            continue;
        }
        token w = p->tok;
        if (have_gran) {
            ERR("'%s' already has a granularity or allocator", L.name);
            ok = false;
            break;
        }
        have_gran = true;
        advance(p);
        if (tok_is(&w, "fine")) {
            L.gran = GRAN_FINE;
        } else if (tok_is(&w, "coarse")) {
            L.gran = GRAN_COARSE;
        } else {
            /* An allocator, optionally with a flag: hipExtMallocWithFlags(fine). */
            char flag[32] = "";
            if (accept(p, T_LPAREN)) {
                if (p->tok.kind != T_IDENT || p->tok.len >= (int)sizeof flag) {
                    ERR("expected an allocator flag");
                    ok = false;
                    break;
                }
                memcpy(flag, p->tok.start, (size_t)p->tok.len);
                flag[p->tok.len] = 0;
                advance(p);
                if (!expect_tok(p, T_RPAREN, "after the allocator flag")) {
                    ok = false;
                    break;
                }
            }
            L.alloc = tok_str(&w);
            bool device = true;
            if (tok_is(&w, "hipMalloc") && !flag[0]) {
                L.gran = GRAN_COARSE;
            } else if (tok_is(&w, "hipExtMallocWithFlags")) {
                if (strcmp(flag, "fine") == 0 || strcmp(flag, "hipDeviceMallocFinegrained") == 0 ||
                    strcmp(flag, "uncached") == 0 || strcmp(flag, "hipDeviceMallocUncached") == 0 ||
                    strcmp(flag, "signal") == 0 || strcmp(flag, "hipMallocSignalMemory") == 0)
                    L.gran = GRAN_FINE;
                else if (strcmp(flag, "coarse") == 0 || strcmp(flag, "default") == 0 ||
                         strcmp(flag, "hipDeviceMallocDefault") == 0)
                    L.gran = GRAN_COARSE;
                else {
                    ERR_AT(w, "hipExtMallocWithFlags needs a flag: fine, coarse, uncached or signal");
                    ok = false;
                    break;
                }
            } else if (tok_is(&w, "hipHostMalloc") && (!flag[0] || strcmp(flag, "coherent") == 0)) {
                device = false;
                L.gran = GRAN_FINE;
            } else if (tok_is(&w, "hipHostMalloc") && strcmp(flag, "noncoherent") == 0) {
                device = false;
                L.gran = GRAN_COARSE;
            } else if ((tok_is(&w, "hipMallocManaged") || tok_is(&w, "malloc")) && !flag[0]) {
                device = false;
                L.gran = GRAN_FINE;
            } else {
                ERR_AT(w, "unknown granularity or allocator '%.*s%s%s%s' (fine, coarse, hipMalloc, "
                          "hipExtMallocWithFlags(fine|coarse), hipHostMalloc[(noncoherent)], hipMallocManaged, malloc)",
                       w.len, w.start, flag[0] ? "(" : "", flag, flag[0] ? ")" : "");
                ok = false;
                break;
            }
            if (device && have_home && L.home == HOME_HOST) {
                ERR_AT(w, "%s allocates device memory: give '%s' a GPU home such as @gpu0", L.alloc, L.name);
                ok = false;
            } else if (!device) {
                if (have_home && L.home != HOME_HOST) {
                    ERR_AT(w, "%s allocates host memory: '%s' cannot live @gpu%d", L.alloc, L.name, L.home);
                    ok = false;
                }
                L.home = HOME_HOST;
                have_home = true;
            }
        }
    }
    if (!ok) {
        free(L.name);
        free(L.init);
        free(L.alloc);
        return false;
    }
    accept(p, T_SEMI);
    L.first_cell = t->ncells;
    t->ncells += L.len;
    grow((void **)&t->locs, t->nlocs, &p->loc_capacity, sizeof *t->locs);
    t->locs[t->nlocs++] = L;
    return true;
}

bool parse_memory(parser *p)
{
    advance(p);
    if (!expect_tok(p, T_LBRACE, "after 'memory'"))
        return false;
    while (p->tok.kind != T_RBRACE) {
        if (p->tok.kind == T_EOF) {
            if (!failed(p))
                ERR("missing '}' at the end of the memory block");
            return false;
        }
        if (!parse_location(p))
            return false;
    }
    advance(p);
    return true;
}

bool parse_kernel(parser *p)
{
    test *t = p->t;
    advance(p);
    token name = p->tok;
    if (!plain_ident(&name) || is_reserved(&name)) {
        ERR("expected a kernel name");
        return false;
    }
    if (find_kernel(t, name.start, name.len) >= 0) {
        ERR("duplicate kernel '%.*s'", name.len, name.start);
        return false;
    }
    advance(p);
    kernel k = {0};
    k.pos = (srcpos){name.line, name.col};
    if (!expect_tok(p, T_AT, "and the kernel's GPU, as in 'kernel K0 @gpu0'"))
        return false;
    if (!parse_gpu_word(p, &p->tok, p->tok.start, p->tok.len, &k.gpu))
        return false;
    advance(p);
    if (tok_is(&p->tok, "after")) {
        advance(p);
        do {
            int a = find_kernel(t, p->tok.start, p->tok.len);
            if (p->tok.kind != T_IDENT || a < 0) {
                ERR("unknown kernel '%.*s' (a kernel can only come after one declared before it)", p->tok.len,
                    p->tok.start);
                free(k.after);
                return false;
            }
            k.after = realloc(k.after, (size_t)(k.nafter + 1) * sizeof *k.after);
            k.after[k.nafter++] = a;
            advance(p);
        } while (accept(p, T_COMMA));
    }
    k.name = tok_str(&name);
    grow((void **)&t->kernels, t->nkernels, &p->kernel_capacity, sizeof *t->kernels);
    t->kernels[t->nkernels++] = k;
    return true;
}

static bool parse_placement(parser *p, thread *th)
{
    if (!expect_tok(p, T_AT, "and a placement such as @gpu0.wg0"))
        return false;
    token tk = p->tok;
    if (tk.kind != T_IDENT) {
        ERR("expected a placement such as gpu0.wg0");
        return false;
    }
    const char *s = tk.start, *end = tk.start + tk.len;
    int part = 0;
    th->wg = -1;
    th->wave = -1;
    while (s < end) {
        const char *dot = memchr(s, '.', (size_t)(end - s));
        const char *e = dot ? dot : end;
        int len = (int)(e - s);
        token sub = tk;
        sub.col = tk.col + (int)(s - tk.start);
        if (part == 0) {
            if (len == 4 && strncmp(s, "host", 4) == 0) {
                ERR_AT(sub, "host threads are not supported: place threads on a GPU");
                return false;
            }
            if (!parse_gpu_word(p, &sub, s, len, &th->gpu))
                return false;
        } else {
            static const struct { const char *w; int level; } lv[] = {
                {"wg", 1}, {"cta", 1}, {"workgroup", 1}, {"block", 1}, {"wave", 2}, {"warp", 2}, {"wavefront", 2}};
            int level = 0, k = 0;
            for (size_t i = 0; i < sizeof lv / sizeof lv[0]; i++) {
                int n = (int)strlen(lv[i].w);
                if (len > n && strncmp(s, lv[i].w, (size_t)n) == 0) {
                    level = lv[i].level;
                    k = n;
                }
            }
            int v = 0;
            bool digits = level > 0;
            for (int i = k; digits && i < len; i++) {
                if (s[i] < '0' || s[i] > '9' || v > 100000)
                    digits = false;
                else
                    v = v * 10 + (s[i] - '0');
            }
            if (!digits || level != part || part > 2) {
                ERR_AT(sub, "undefined scope '%.*s' in placement (write gpuN.wgM or gpuN.wgM.waveK)", len, s);
                return false;
            }
            if (level == 1)
                th->wg = v;
            else
                th->wave = v;
        }
        part++;
        s = dot ? dot + 1 : end;
    }
    advance(p);
    return true;
}

bool parse_thread(parser *p)
{
    test *t = p->t;
    advance(p);
    token name = p->tok;
    if (!plain_ident(&name) || is_reserved(&name)) {
        ERR("expected a thread name");
        return false;
    }
    if (find_thread(t, name.start, name.len) >= 0) {
        ERR("duplicate thread '%.*s'", name.len, name.start);
        return false;
    }
    advance(p);
    grow((void **)&t->threads, t->nthreads, &p->thread_capacity, sizeof *t->threads);
    thread *th = &t->threads[t->nthreads++];
    memset(th, 0, sizeof *th);
    th->name = tok_str(&name);
    th->pos = (srcpos){name.line, name.col};
    th->kernel = -1;
    if (!parse_placement(p, th))
        return false;
    if (tok_is(&p->tok, "in")) {
        advance(p);
        int k = p->tok.kind == T_IDENT ? find_kernel(t, p->tok.start, p->tok.len) : -1;
        if (k < 0) {
            ERR("unknown kernel '%.*s'", p->tok.len, p->tok.start);
            return false;
        }
        if (t->kernels[k].gpu != th->gpu) {
            ERR("kernel '%s' runs on gpu%d, but thread '%s' is placed on gpu%d", t->kernels[k].name, t->kernels[k].gpu,
                th->name, th->gpu);
            return false;
        }
        th->kernel = k;
        advance(p);
    }
    p->th = th;
    bool ok = parse_block(p, &th->code);
    p->th = NULL;
    return ok;
}

/* ---- final condition --------------------------------------------------- */

bool finish(parser *p)
{
    test *t = p->t;
    if (!t->name) {
        diag_error(p->d, 1, 1, "missing 'test NAME' line");
        return false;
    }
    if (t->nthreads == 0) {
        diag_error(p->d, p->tok.line, p->tok.col, "the test has no threads");
        return false;
    }
    int maxgpu = 0;
    for (int i = 0; i < t->nlocs; i++)
        if (t->locs[i].home > maxgpu)
            maxgpu = t->locs[i].home;
    for (int i = 0; i < t->nkernels; i++)
        if (t->kernels[i].gpu > maxgpu)
            maxgpu = t->kernels[i].gpu;
    int next_wg = 1000000, next_wave = 1000000;
    for (int i = 0; i < t->nthreads; i++) {
        thread *th = &t->threads[i];
        if (th->gpu > maxgpu)
            maxgpu = th->gpu;
        if (th->wg < 0)
            th->wg = next_wg++; /* its own workgroup */
        if (th->wave < 0)
            th->wave = next_wave++; /* its own wavefront */
        if (th->kernel >= 0)
            continue;
        /* No `in`: the unique kernel on its GPU, declared or implicit. */
        int found = -1, count = 0;
        for (int k = 0; k < t->nkernels; k++)
            if (t->kernels[k].gpu == th->gpu && (t->kernels[k].implicit || t->nkernels > 0)) {
                found = k;
                count++;
            }
        bool any_declared = false;
        for (int k = 0; k < t->nkernels; k++)
            any_declared = any_declared || !t->kernels[k].implicit;
        if (any_declared && count != 1) {
            diag_error(p->d, th->pos.line, th->pos.col,
                       count ? "thread '%s' must say which kernel it runs in ('in KERNEL'): gpu%d runs several"
                             : "thread '%s' is on gpu%d, where no kernel is declared",
                       th->name, th->gpu);
            return false;
        }
        if (found < 0) {
            kernel k = {0};
            char buf[32];
            snprintf(buf, sizeof buf, "gpu%d", th->gpu);
            k.name = strdup(buf);
            k.gpu = th->gpu;
            k.implicit = true;
            k.pos = th->pos;
            grow((void **)&t->kernels, t->nkernels, &p->kernel_capacity, sizeof *t->kernels);
            t->kernels[t->nkernels++] = k;
            found = t->nkernels - 1;
        }
        th->kernel = found;
    }
    t->ngpus = maxgpu + 1;
    for (int i = 0; i < t->nexpects; i++) {
        verdict_t v = t->expects[i].verdict;
        bool forall = t->cond && t->quant == Q_FORALL;
        if (t->cond && (forall ? (v == V_ALLOWED || v == V_FORBIDDEN) : (v == V_HOLDS || v == V_FAILS))) {
            diag_error(p->d, t->expects[i].pos.line, t->expects[i].pos.col,
                       forall ? "a forall test expects holds or fails, not %s"
                              : "an exists test expects allowed or forbidden, not %s",
                       verdict_name(v));
            return false;
        }
    }
    return true;
}
