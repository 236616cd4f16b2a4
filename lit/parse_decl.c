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

static bool const_int(parser *p, int64_t lo, int64_t hi, const char *what, int64_t *out);

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

bool parse_location(parser *p)
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
    int ty = -1;
    for (int i = 0; i < TY_NTYPES; i++)
        if (tok_is(&p->tok, vtype_name((vtype_t)i)))
            ty = i;
    if (ty < 0) {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("unknown type %s (types: i8 i32 i64 u32 u64 f32)", got);
        return false;
    }
    L.type = (vtype_t)ty;
    advance(p);
    if (accept(p, T_LBRACK)) {
        int64_t len;
        if (!const_int(p, 1, 4096, "an array length", &len) || !expect_tok(p, T_RBRACK, "after the array length"))
            return false;
        L.len = (int)len;
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
    while (ok && (p->tok.kind == T_AT || (p->tok.kind == T_IDENT && peek(p)->kind != T_COLON && !tok_is(&p->tok, "order") &&
                                           !tok_is(&p->tok, "ranks") && !tok_is(&p->tok, "size")))) {
        if (p->in_heap) {
            ERR("a heap variable takes the heap's home (its rank) and granularity: declare those in the heap block");
            ok = false;
            break;
        }
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
    /* launch collective | normal: whether the kernel's workgroups are
     * guaranteed to run at the same time (NVSHMEM's collective launch, a
     * cooperative launch) or may be scheduled one after another. */
    if (tok_is(&p->tok, "launch")) {
        advance(p);
        if (tok_is(&p->tok, "collective") || tok_is(&p->tok, "cooperative")) {
            k.not_coresident = false;
        } else if (tok_is(&p->tok, "normal")) {
            k.not_coresident = true;
        } else {
            ERR("expected 'collective' or 'normal' after 'launch' (whether the kernel's workgroups are co-resident)");
            free(k.after);
            return false;
        }
        advance(p);
    }
    k.name = tok_str(&name);
    grow((void **)&t->kernels, t->nkernels, &p->kernel_capacity, sizeof *t->kernels);
    t->kernels[t->nkernels++] = k;
    return true;
}

/* ---- constants ------------------------------------------------------------ */

int find_const(const parser *p, const char *s, int len)
{
    for (int i = 0; i < p->nconsts; i++)
        if ((int)strlen(p->const_names[i]) == len && memcmp(p->const_names[i], s, (size_t)len) == 0)
            return i;
    return -1;
}

int find_symvar(const test *t, const char *s, int len)
{
    for (int i = 0; i < t->heap.nvars; i++)
        if ((int)strlen(t->heap.vars[i].name) == len && memcmp(t->heap.vars[i].name, s, (size_t)len) == 0)
            return i;
    return -1;
}

static bool const_overflow(parser *p, const expr *e)
{
    diag_error(p->d, e->pos.line, e->pos.col, "constant expression overflows 64 bits");
    return false;
}

bool const_eval(parser *p, const expr *e, const int64_t *regs, int64_t *out)
{
    int64_t a, b;
    switch (e->kind) {
    case EX_CONST: *out = e->value; return true;
    case EX_REG:
        if (!regs)
            break;
        *out = regs[e->reg];
        return true;
    case EX_BIN:
        if (!const_eval(p, e->a, regs, &a) || !const_eval(p, e->b, regs, &b))
            return false;
        switch (e->op) {
        case BIN_ADD: return !__builtin_add_overflow(a, b, out) || const_overflow(p, e);
        case BIN_SUB: return !__builtin_sub_overflow(a, b, out) || const_overflow(p, e);
        case BIN_MUL: return !__builtin_mul_overflow(a, b, out) || const_overflow(p, e);
        case BIN_DIV:
        case BIN_MOD:
            if (a == INT64_MIN && b == -1)
                return const_overflow(p, e);
            *out = !b ? 0 : e->op == BIN_DIV ? a / b : a % b;
            return true;
        default: break;
        }
        break;
    case EX_NEG:
        if (!const_eval(p, e->a, regs, &a))
            return false;
        if (a == INT64_MIN)
            return const_overflow(p, e);
        *out = -a;
        return true;
    default: break;
    }
    diag_error(p->d, e->pos.line, e->pos.col, "expected a constant expression (numbers, constants, + - * / %%)");
    return false;
}

/* const NAME = EXPR; a -D NAME=VALUE on the command line wins. */
bool parse_const(parser *p)
{
    advance(p);
    token name = p->tok;
    if (!plain_ident(&name) || is_reserved(&name)) {
        ERR("expected a constant name");
        return false;
    }
    if (find_const(p, name.start, name.len) >= 0) {
        ERR("duplicate constant '%.*s'", name.len, name.start);
        return false;
    }
    advance(p);
    if (!expect_tok(p, T_ASSIGN, "after the constant's name"))
        return false;
    expr *e = parse_expr(p);
    int64_t v;
    bool ok = e && const_eval(p, e, NULL, &v);
    expr_free(e);
    if (!ok)
        return false;
    for (int i = 0; p->opts && i < p->opts->ndefines; i++)
        if ((int)strlen(p->opts->define_names[i]) == name.len &&
            memcmp(p->opts->define_names[i], name.start, (size_t)name.len) == 0)
            v = p->opts->define_values[i];
    p->const_names = realloc(p->const_names, (size_t)(p->nconsts + 1) * sizeof *p->const_names);
    p->const_values = realloc(p->const_values, (size_t)(p->nconsts + 1) * sizeof *p->const_values);
    p->const_names[p->nconsts] = tok_str(&name);
    p->const_values[p->nconsts++] = v;
    return true;
}

/* An integer from a constant expression, in [lo, hi]. */
static bool const_int(parser *p, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
    token at = p->tok;
    expr *e = parse_expr(p);
    bool ok = e && const_eval(p, e, NULL, out);
    expr_free(e);
    if (ok && (*out < lo || *out > hi)) {
        ERR_AT(at, "%s must be from %lld to %lld", what, (long long)lo, (long long)hi);
        ok = false;
    }
    return ok;
}

/* ---- the symmetric heap ----------------------------------------------------- */

/*  heap {
 *    ranks 2; size 256; coarse            (or fine, or an allocator as in memory)
 *    data: i32[8]
 *    flag: i32[4] = 0
 *    order gpu1: flag, data               (rank 1 allocates in another order)
 *  }                                                                          */
bool parse_heap(parser *p)
{
    test *t = p->t;
    symheap *h = &t->heap;
    if (h->present) {
        ERR("a test has one heap block");
        return false;
    }
    h->present = true;
    h->ranks = 2;
    h->size = 1 << 20;
    h->gran = GRAN_COARSE; /* Iris's default heap: hipMalloc memory */
    advance(p);
    if (!expect_tok(p, T_LBRACE, "after 'heap'"))
        return false;
    typedef struct { int rank; int *vars; int n; token at; } order_spec;
    order_spec orders[MAX_GPUS];
    int norders = 0;
    int64_t *inits[256] = {0};
    bool ok = true;
    while (ok && p->tok.kind != T_RBRACE) {
        token tk = p->tok;
        if (tk.kind == T_EOF) {
            if (!failed(p))
                ERR("missing '}' at the end of the heap block");
            ok = false;
        } else if (accept(p, T_SEMI)) {
        } else if (tok_is(&tk, "ranks")) {
            advance(p);
            int64_t v = 0;
            ok = const_int(p, 1, MAX_GPUS, "the number of ranks", &v);
            h->ranks = (int)v;
        } else if (tok_is(&tk, "size")) {
            advance(p);
            ok = const_int(p, 1, (int64_t)1 << 30, "the heap size in bytes", &h->size);
        } else if (tok_is(&tk, "fine") || tok_is(&tk, "coarse") || tok_is(&tk, "hipMalloc")) {
            h->gran = tok_is(&tk, "fine") ? GRAN_FINE : GRAN_COARSE;
            advance(p);
        } else if (tok_is(&tk, "hipExtMallocWithFlags")) {
            advance(p);
            ok = expect_tok(p, T_LPAREN, "after the allocator");
            if (ok && (tok_is(&p->tok, "fine") || tok_is(&p->tok, "hipDeviceMallocFinegrained") ||
                       tok_is(&p->tok, "uncached") || tok_is(&p->tok, "hipDeviceMallocUncached")))
                h->gran = GRAN_FINE;
            else if (ok && (tok_is(&p->tok, "coarse") || tok_is(&p->tok, "hipDeviceMallocDefault")))
                h->gran = GRAN_COARSE;
            else if (ok) {
                ERR("hipExtMallocWithFlags needs a flag: fine, coarse or uncached");
                ok = false;
            }
            if (ok) {
                advance(p);
                ok = expect_tok(p, T_RPAREN, "after the allocator flag");
            }
        } else if (tok_is(&tk, "order")) {
            advance(p);
            order_spec *o = &orders[norders];
            o->at = p->tok;
            ok = p->tok.kind == T_IDENT && parse_gpu_word(p, &p->tok, p->tok.start, p->tok.len, &o->rank);
            if (ok) {
                advance(p);
                ok = expect_tok(p, T_COLON, "after the rank, as in: order gpu1: flag, data");
            }
            o->vars = NULL;
            o->n = 0;
            while (ok) {
                int v = p->tok.kind == T_IDENT ? find_symvar(t, p->tok.start, p->tok.len) : -1;
                if (v < 0) {
                    ERR("expected a heap variable declared above");
                    ok = false;
                    break;
                }
                o->vars = realloc(o->vars, (size_t)(o->n + 1) * sizeof *o->vars);
                o->vars[o->n++] = v;
                advance(p);
                if (!accept(p, T_COMMA))
                    break;
            }
            if (ok && norders < MAX_GPUS)
                norders++;
            else
                free(o->vars);
        } else if (plain_ident(&tk) && peek(p)->kind == T_COLON) {
            if (find_symvar(t, tk.start, tk.len) >= 0 || find_loc(t, tk.start, tk.len) >= 0) {
                ERR("duplicate variable '%.*s'", tk.len, tk.start);
                ok = false;
                break;
            }
            if (h->nvars == 256) {
                ERR("at most 256 heap variables");
                ok = false;
                break;
            }
            /* Reuse the memory-block syntax for the type, length and initial value. */
            int before = t->nlocs;
            p->in_heap = true;
            ok = parse_location(p);
            p->in_heap = false;
            if (!ok)
                break;
            location *L = &t->locs[before];
            h->vars = realloc(h->vars, (size_t)(h->nvars + 1) * sizeof *h->vars);
            symvar *V = &h->vars[h->nvars];
            memset(V, 0, sizeof *V);
            V->name = strdup(L->name);
            V->type = L->type;
            V->len = L->len;
            V->pos = L->pos;
            inits[h->nvars] = L->init;
            L->init = NULL;
            h->nvars++;
            /* The parsed location was a template: drop it. */
            free(L->name);
            free(L->alloc);
            t->ncells -= L->len;
            t->nlocs--;
        } else {
            char got[64];
            describe(&tk, got, sizeof got);
            ERR("expected ranks, size, fine, coarse, an allocator, order or a variable in the heap block, found %s", got);
            ok = false;
        }
    }
    if (ok)
        advance(p);
    /* One location per variable per rank, named var@rank, homed on that rank. */
    if (ok) {
        for (int v = 0; v < h->nvars; v++) {
            symvar *V = &h->vars[v];
            V->loc = calloc((size_t)h->ranks, sizeof *V->loc);
            for (int r = 0; r < h->ranks; r++) {
                location L = {0};
                char buf[256];
                snprintf(buf, sizeof buf, "%s@%d", V->name, r);
                L.name = strdup(buf);
                L.type = V->type;
                L.len = V->len;
                L.init = malloc((size_t)V->len * sizeof *L.init);
                memcpy(L.init, inits[v], (size_t)V->len * sizeof *L.init);
                L.home = r;
                L.gran = h->gran;
                L.pos = V->pos;
                L.first_cell = t->ncells;
                t->ncells += L.len;
                grow((void **)&t->locs, t->nlocs, &p->loc_capacity, sizeof *t->locs);
                V->loc[r] = t->nlocs;
                t->locs[t->nlocs++] = L;
            }
        }
        h->order = calloc((size_t)h->ranks, sizeof *h->order);
        h->offset = calloc((size_t)h->ranks, sizeof *h->offset);
        for (int r = 0; r < h->ranks; r++) {
            h->order[r] = malloc((size_t)(h->nvars ? h->nvars : 1) * sizeof **h->order);
            h->offset[r] = calloc((size_t)(h->nvars ? h->nvars : 1), sizeof **h->offset);
            for (int v = 0; v < h->nvars; v++)
                h->order[r][v] = v;
        }
        for (int k = 0; ok && k < norders; k++) {
            order_spec *o = &orders[k];
            bool seen[256] = {0};
            for (int i = 0; i < o->n; i++)
                seen[o->vars[i]] = true;
            bool complete = o->n == h->nvars;
            for (int v = 0; v < h->nvars; v++)
                complete = complete && seen[v];
            if (o->rank >= h->ranks || !complete) {
                diag_error(p->d, o->at.line, o->at.col,
                           o->rank >= h->ranks ? "the heap has %d ranks: gpu%d has no heap"
                                               : "an order must list every heap variable exactly once (%d of them)",
                           o->rank >= h->ranks ? h->ranks : h->nvars, o->rank);
                ok = false;
                break;
            }
            memcpy(h->order[o->rank], o->vars, (size_t)o->n * sizeof *o->vars);
        }
        /* Bump allocation in each rank's order, naturally aligned. */
        for (int r = 0; ok && r < h->ranks; r++) {
            int64_t off = 0;
            for (int i = 0; i < h->nvars; i++) {
                const symvar *V = &h->vars[h->order[r][i]];
                int64_t a = (int64_t)vtype_size(V->type);
                off = (off + a - 1) / a * a;
                h->offset[r][h->order[r][i]] = off;
                off += a * V->len;
            }
            if (off > h->size) {
                diag_error(p->d, 1, 1, "the heap needs %lld bytes on gpu%d but its size is %lld", (long long)off, r,
                           (long long)h->size);
                ok = false;
            }
        }
    }
    for (int k = 0; k < norders; k++)
        free(orders[k].vars);
    for (int v = 0; v < 256; v++)
        free(inits[v]);
    return ok;
}

/* ---- placement ------------------------------------------------------------------ */

/* gpu0.wg1.wave2, where any number may instead be a parenthesised expression
 * over the template's index variables: gpu(r).wg(b). */
typedef struct {
    expr *level[3]; /* gpu, wg, wave (NULL: not given) */
} placement;

static void placement_free(placement *pl)
{
    for (int i = 0; i < 3; i++)
        expr_free(pl->level[i]);
}

static bool parse_placement(parser *p, placement *pl)
{
    memset(pl, 0, sizeof *pl);
    if (!expect_tok(p, T_AT, "and a placement such as @gpu0.wg0"))
        return false;
    int part = 0;
    for (;;) {
        token tk = p->tok;
        if (tk.kind != T_IDENT) {
            ERR("expected a placement such as gpu0.wg0");
            return false;
        }
        const char *s = tk.start, *end = tk.start + tk.len;
        advance(p);
        while (s < end) {
            const char *dot = memchr(s, '.', (size_t)(end - s));
            const char *e = dot ? dot : end;
            int len = (int)(e - s);
            token sub = tk;
            sub.col = tk.col + (int)(s - tk.start);
            static const struct { const char *w; int level; } lv[] = {
                {"gpu", 0}, {"wg", 1}, {"cta", 1}, {"workgroup", 1}, {"block", 1}, {"wave", 2}, {"warp", 2}, {"wavefront", 2}};
            int level = -1, k = 0;
            for (size_t i = 0; i < sizeof lv / sizeof lv[0]; i++) {
                int n = (int)strlen(lv[i].w);
                if (len >= n && strncmp(s, lv[i].w, (size_t)n) == 0 && (len == n || (s[n] >= '0' && s[n] <= '9'))) {
                    level = lv[i].level;
                    k = n;
                }
            }
            if (part == 0 && len == 4 && strncmp(s, "host", 4) == 0) {
                ERR_AT(sub, "host threads are not supported: place threads on a GPU");
                return false;
            }
            if (level != part || part > 2) {
                if (part == 0)
                    ERR_AT(sub, "expected a GPU such as gpu0, found '%.*s'", len, s);
                else
                    ERR_AT(sub, "undefined scope '%.*s' in placement (write gpuN.wgM or gpuN.wgM.waveK)", len, s);
                return false;
            }
            if (k < len) {
                int64_t v = 0;
                for (int i = k; i < len; i++) {
                    if (s[i] < '0' || s[i] > '9' || v > 100000) {
                        ERR_AT(sub, "undefined scope '%.*s' in placement (write gpuN.wgM or gpuN.wgM.waveK)", len, s);
                        return false;
                    }
                    v = v * 10 + (s[i] - '0');
                }
                pl->level[level] = expr_const(v, (srcpos){sub.line, sub.col});
            } else if (!dot && p->tok.kind == T_LPAREN) {
                advance(p);
                pl->level[level] = parse_expr(p);
                if (!pl->level[level] || !expect_tok(p, T_RPAREN, "after the placement expression"))
                    return false;
            } else {
                ERR_AT(sub, "'%.*s' needs a number, as in %.*s0, or an expression, as in %.*s(r)", len, s, len, s, len, s);
                return false;
            }
            part++;
            s = dot ? dot + 1 : end;
        }
        if (!accept(p, T_DOT))
            break;
    }
    return true;
}

static bool eval_placement(parser *p, const placement *pl, const int64_t *regs, thread *th)
{
    int64_t v[3] = {0, -1, -1};
    for (int i = 0; i < 3; i++)
        if (pl->level[i] && !const_eval(p, pl->level[i], regs, &v[i]))
            return false;
    if (v[0] < 0 || v[0] >= MAX_GPUS) {
        diag_error(p->d, pl->level[0]->pos.line, pl->level[0]->pos.col, "GPU index %lld is out of range (at most %d GPUs)",
                   (long long)v[0], MAX_GPUS);
        return false;
    }
    if (v[1] > 100000 || v[2] > 100000 || (pl->level[1] && v[1] < 0) || (pl->level[2] && v[2] < 0)) {
        diag_error(p->d, th->pos.line, th->pos.col, "workgroup and wave numbers must be from 0 to 100000");
        return false;
    }
    th->gpu = (int)v[0];
    th->wg = (int)v[1];
    th->wave = (int)v[2];
    return true;
}

/* ---- threads ---------------------------------------------------------------------- */

/*  thread NAME @placement [in K] { ... }
 *  thread NAME for i in A..B, j in C..D @placement [in K] { ... }
 * The second form declares one thread per index tuple, named NAME[i,j], with
 * the indices as registers whose values are fixed. */
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
    thread proto = {0};
    proto.name = tok_str(&name);
    proto.pos = (srcpos){name.line, name.col};
    proto.kernel = -1;
    enum { MAX_INDICES = 4 };
    int nidx = 0;
    int64_t lo[MAX_INDICES], hi[MAX_INDICES];
    placement pl = {0};
    bool ok = true;
    p->th = &proto;
    if (tok_is(&p->tok, "for")) {
        advance(p);
        do {
            token var = p->tok;
            if (nidx == MAX_INDICES) {
                ERR("at most %d index variables", MAX_INDICES);
                ok = false;
                break;
            }
            if (!plain_ident(&var) || is_reserved(&var) || find_reg(&proto, var.start, var.len) >= 0) {
                ERR("expected a new index variable name");
                ok = false;
                break;
            }
            def_reg(p, &var);
            advance(p);
            if (!tok_is(&p->tok, "in")) {
                ERR("expected 'in', as in: thread P for b in 0..4 @gpu0.wg(b)");
                ok = false;
                break;
            }
            advance(p);
            ok = const_int(p, 0, 100000, "a thread index bound", &lo[nidx]) && expect_tok(p, T_DOTDOT, "between the bounds") &&
                 const_int(p, 0, 100000, "a thread index bound", &hi[nidx]);
            if (ok && hi[nidx] <= lo[nidx]) {
                ERR("the range %lld..%lld is empty", (long long)lo[nidx], (long long)hi[nidx]);
                ok = false;
            }
            nidx++;
        } while (ok && accept(p, T_COMMA));
    }
    ok = ok && parse_placement(p, &pl);
    int kernel = -1;
    if (ok && tok_is(&p->tok, "in")) {
        advance(p);
        kernel = p->tok.kind == T_IDENT ? find_kernel(t, p->tok.start, p->tok.len) : -1;
        if (kernel < 0) {
            ERR("unknown kernel '%.*s'", p->tok.len, p->tok.start);
            ok = false;
        }
        advance(p);
    }
    ok = ok && parse_block(p, &proto.code);
    p->th = NULL;
    /* One thread per index tuple. The product stops growing past the limit: four ranges of 100000
       overflow a long, and after an error the bounds may be unset. */
    long count = 1;
    for (int i = 0; ok && i < nidx && count <= 4096; i++)
        count *= hi[i] - lo[i];
    if (ok && t->nthreads + count > 4096) {
        if (count > 4096)
            diag_error(p->d, name.line, name.col, "too many threads (the index ranges give more than 4096)");
        else
            diag_error(p->d, name.line, name.col, "too many threads (%ld here after %d before; at most 4096)", count,
                       t->nthreads);
        ok = false;
    }
    int64_t idx[MAX_INDICES + 1];
    for (int i = 0; i < nidx; i++)
        idx[i] = lo[i];
    for (long n = 0; ok && n < count; n++) {
        thread th = {0};
        th.pos = proto.pos;
        if (!eval_placement(p, &pl, idx, &th)) {
            ok = false;
            break;
        }
        if (kernel >= 0 && t->kernels[kernel].gpu != th.gpu) {
            diag_error(p->d, name.line, name.col, "kernel '%s' runs on gpu%d, but thread '%s' is placed on gpu%d",
                       t->kernels[kernel].name, t->kernels[kernel].gpu, proto.name, th.gpu);
            ok = false;
            break;
        }
        th.kernel = kernel;
        char buf[256];
        int at = snprintf(buf, sizeof buf, "%s", proto.name);
        for (int i = 0; i < nidx && at < (int)sizeof buf; i++)
            at += snprintf(buf + at, sizeof buf - (size_t)at, "%s%lld", i ? "," : "[", (long long)idx[i]);
        if (nidx && at < (int)sizeof buf)
            snprintf(buf + at, sizeof buf - (size_t)at, "]");
        th.name = strdup(buf);
        th.nregs = proto.nregs;
        th.regs = malloc((size_t)(proto.nregs ? proto.nregs : 1) * sizeof *th.regs);
        for (int r = 0; r < proto.nregs; r++)
            th.regs[r] = strdup(proto.regs[r]);
        /* The index registers are set first, then the body runs. */
        block body;
        block_clone(&body, &proto.code);
        th.code = (block){0};
        for (int i = 0; i < nidx; i++) {
            inst set = {0};
            set.kind = I_ASSIGN;
            set.dst = i;
            set.val = expr_const(idx[i], proto.pos);
            set.pos = proto.pos;
            block_push(&th.code, &set);
        }
        for (int i = 0; i < body.n; i++)
            block_push(&th.code, &body.v[i]);
        free(body.v);
        grow((void **)&t->threads, t->nthreads, &p->thread_capacity, sizeof *t->threads);
        t->threads[t->nthreads++] = th;
        for (int i = nidx - 1; i >= 0; i--) {
            if (++idx[i] < hi[i])
                break;
            idx[i] = lo[i];
        }
    }
    placement_free(&pl);
    free(proto.name);
    for (int r = 0; r < proto.nregs; r++)
        free(proto.regs[r]);
    free(proto.regs);
    block_free(&proto.code);
    return ok;
}

/* ---- host code between launches ------------------------------------------------------ */

/*  host {
 *    launch producer, consumer     # concurrent kernels
 *    sync                          # the host waits for every GPU
 *    fill locks@0, 0               # host writes (st CELL, V / fill VAR, V)
 *    launch producer, consumer     # the second iteration
 *    sync
 *  }
 * Each launch makes a kernel instance with its own copies of the kernel's
 * threads (named T@n when a kernel is launched more than once). A launch is
 * ordered after everything before the last sync, after the previous launch
 * of the same kernel (its stream) and after earlier host writes. */
typedef struct {
    int kind; /* 0 launch, 1 sync, 2 write */
    int kernels[MAX_GPUS];
    int nk;
    int cell;
    int ncells;
    int64_t value;
    srcpos pos;
} host_step;

static bool host_target(parser *p, host_step *st, bool whole)
{
    memref m;
    token at = p->tok;
    if (!parse_memref(p, &m)) {
        /* parse_memref may have parsed the rank or the index before failing. */
        expr_free(m.index);
        expr_free(m.peer);
        expr_free(m.ptr);
        return false;
    }
    int loc = m.loc;
    int64_t idx = 0, rank = 0;
    bool ok = true;
    if (m.ptr || (m.index && !const_eval(p, m.index, NULL, &idx)))
        ok = false;
    if (ok && m.symvar >= 0) {
        if (!m.peer) {
            ERR_AT(at, "a host write names the rank's copy, as in %s@0", p->t->heap.vars[m.symvar].name);
            ok = false;
        } else if (!const_eval(p, m.peer, NULL, &rank) || rank < 0 || rank >= p->t->heap.ranks) {
            ERR_AT(at, "the heap has ranks 0 to %d", p->t->heap.ranks - 1);
            ok = false;
        } else {
            loc = p->t->heap.vars[m.symvar].loc[rank];
        }
    }
    if (ok && loc < 0) {
        ERR_AT(at, "a host write needs a location with a constant index");
        ok = false;
    }
    expr_free(m.index);
    expr_free(m.peer);
    expr_free(m.ptr);
    if (!ok)
        return false;
    const location *L = &p->t->locs[loc];
    st->cell = L->first_cell + (whole ? 0 : (int)idx);
    st->ncells = whole ? L->len : 1;
    return true;
}

static bool parse_host_steps(parser *p, host_step **steps, int *nsteps)
{
    advance(p);
    if (!expect_tok(p, T_LBRACE, "after 'host'"))
        return false;
    while (p->tok.kind != T_RBRACE) {
        host_step st = {0};
        token tk = p->tok;
        st.pos = (srcpos){tk.line, tk.col};
        if (tk.kind == T_EOF) {
            if (!failed(p))
                ERR("missing '}' at the end of the host block");
            return false;
        }
        if (accept(p, T_SEMI))
            continue;
        if (tok_is(&tk, "launch")) {
            advance(p);
            do {
                int k = p->tok.kind == T_IDENT ? find_kernel(p->t, p->tok.start, p->tok.len) : -1;
                if (k < 0 || st.nk == MAX_GPUS) {
                    ERR("unknown kernel '%.*s'", p->tok.len, p->tok.start);
                    return false;
                }
                st.kernels[st.nk++] = k;
                advance(p);
            } while (accept(p, T_COMMA));
        } else if (tok_is(&tk, "sync")) {
            advance(p);
            st.kind = 1;
        } else if (tok_is(&tk, "st") || tok_is(&tk, "fill")) {
            bool whole = tok_is(&tk, "fill");
            advance(p);
            st.kind = 2;
            if (!host_target(p, &st, whole) || !expect_tok(p, T_COMMA, "before the value"))
                return false;
            expr *e = parse_expr(p);
            bool ok = e && const_eval(p, e, NULL, &st.value);
            expr_free(e);
            if (!ok)
                return false;
        } else {
            ERR("expected launch, sync, st or fill in the host block");
            return false;
        }
        *steps = realloc(*steps, (size_t)(*nsteps + 1) * sizeof **steps);
        (*steps)[(*nsteps)++] = st;
    }
    advance(p);
    return true;
}

static void add_after(kernel *k, int before)
{
    for (int i = 0; i < k->nafter; i++)
        if (k->after[i] == before)
            return;
    k->after = realloc(k->after, (size_t)(k->nafter + 1) * sizeof *k->after);
    k->after[k->nafter++] = before;
}

bool parse_host(parser *p)
{
    test *t = p->t;
    host_step *steps = NULL;
    int nsteps = 0;
    if (t->cond) {
        ERR("the host block must come before the final condition");
        return false;
    }
    for (int k = 0; k < t->nkernels; k++)
        if (t->kernels[k].implicit || t->kernels[k].nafter) {
            ERR("with a host block, declare kernels without 'after' and order them by launch and sync");
            return false;
        }
    for (int th = 0; th < t->nthreads; th++)
        if (t->threads[th].kernel < 0) {
            ERR("with a host block, every thread names its kernel with 'in' (thread %s does not)", t->threads[th].name);
            return false;
        }
    if (!parse_host_steps(p, &steps, &nsteps)) {
        free(steps);
        return false;
    }
    int launches[256] = {0}, nth = 0;
    for (int i = 0; i < nsteps; i++)
        for (int k = 0; k < steps[i].nk && steps[i].kind == 0; k++)
            if (steps[i].kernels[k] < 256)
                launches[steps[i].kernels[k]]++;
    for (int k = 0; k < t->nkernels && k < 256; k++)
        if (!launches[k]) {
            diag_error(p->d, t->kernels[k].pos.line, t->kernels[k].pos.col, "kernel '%s' is never launched in the host block",
                       t->kernels[k].name);
            free(steps);
            return false;
        }
    kernel *nk = NULL;
    thread *nt = NULL;
    int nkern = 0, nthr = 0;
    bool *done = calloc(1024, sizeof *done), *pending = calloc(1024, sizeof *pending);
    int last_inst[256], count[256] = {0}, hosts = 0, nwrite_steps = 0;
    for (int i = 0; i < nsteps; i++)
        nwrite_steps += steps[i].kind == 2 && (i == 0 || steps[i - 1].kind != 2);
    for (int k = 0; k < 256; k++)
        last_inst[k] = -1;
    bool ok = true;
    for (int i = 0; i < nsteps && ok; i++) {
        host_step *st = &steps[i];
        if (nkern + MAX_GPUS + 1 >= 1024) {
            diag_error(p->d, st->pos.line, st->pos.col, "too many kernel launches");
            ok = false;
            break;
        }
        if (st->kind == 1) {
            for (int k = 0; k < nkern; k++)
                if (pending[k]) {
                    done[k] = true;
                    pending[k] = false;
                }
            continue;
        }
        if (st->kind == 2) {
            /* Consecutive writes form one host step, a kernel of the host's. */
            kernel hk = {0};
            char buf[64];
            hosts++;
            snprintf(buf, sizeof buf, nwrite_steps > 1 ? "host@%d" : "host", hosts);
            hk.name = strdup(buf);
            hk.gpu = -1;
            hk.pos = st->pos;
            for (int k = 0; k < nkern; k++)
                if (done[k] || (nk[k].gpu == -1))
                    add_after(&hk, k);
            thread ht = {0};
            ht.name = strdup(buf);
            ht.host = true;
            ht.gpu = -1;
            ht.wg = -1;
            ht.wave = -1;
            ht.kernel = nkern;
            ht.pos = st->pos;
            for (; i < nsteps && steps[i].kind == 2; i++) {
                for (int c = 0; c < steps[i].ncells; c++) {
                    inst w = {0};
                    w.kind = I_ST;
                    w.pos = steps[i].pos;
                    w.dst = -1;
                    w.ord = ORD_PLAIN;
                    w.mem.loc = cell_loc(t, steps[i].cell + c);
                    w.mem.symvar = -1;
                    int first = t->locs[w.mem.loc].first_cell;
                    if (t->locs[w.mem.loc].len > 1)
                        w.mem.index = expr_const(steps[i].cell + c - first, steps[i].pos);
                    w.val = expr_const(steps[i].value, steps[i].pos);
                    block_push(&ht.code, &w);
                }
            }
            i--;
            nk = realloc(nk, (size_t)(nkern + 1) * sizeof *nk);
            nk[nkern] = hk;
            pending[nkern++] = true;
            nt = realloc(nt, (size_t)(nthr + 1) * sizeof *nt);
            nt[nthr++] = ht;
            continue;
        }
        for (int j = 0; j < st->nk; j++) {
            int K = st->kernels[j];
            kernel ki = {0};
            int n = ++count[K];
            char buf[300];
            snprintf(buf, sizeof buf, launches[K] > 1 ? "%s@%d" : "%s", t->kernels[K].name, n);
            ki.name = strdup(buf);
            ki.gpu = t->kernels[K].gpu;
            ki.not_coresident = t->kernels[K].not_coresident;
            ki.pos = st->pos;
            for (int k = 0; k < nkern; k++)
                if (done[k] || nk[k].gpu == -1)
                    add_after(&ki, k);
            if (last_inst[K] >= 0)
                add_after(&ki, last_inst[K]);
            last_inst[K] = nkern;
            for (int th = 0; th < t->nthreads; th++) {
                const thread *T = &t->threads[th];
                if (T->kernel != K)
                    continue;
                thread c = *T;
                snprintf(buf, sizeof buf, launches[K] > 1 ? "%s@%d" : "%s", T->name, n);
                c.name = strdup(buf);
                c.regs = malloc((size_t)(T->nregs ? T->nregs : 1) * sizeof *c.regs);
                for (int r = 0; r < T->nregs; r++)
                    c.regs[r] = strdup(T->regs[r]);
                block_clone(&c.code, &T->code);
                c.kernel = nkern;
                nt = realloc(nt, (size_t)(nthr + 1) * sizeof *nt);
                nt[nthr++] = c;
            }
            nk = realloc(nk, (size_t)(nkern + 1) * sizeof *nk);
            nk[nkern] = ki;
            pending[nkern++] = true;
        }
    }
    (void)nth;
    free(done);
    free(pending);
    free(steps);
    /* The declared kernels and threads were templates: replace them. */
    for (int k = 0; k < t->nkernels; k++) {
        free(t->kernels[k].name);
        free(t->kernels[k].after);
    }
    for (int th = 0; th < t->nthreads; th++) {
        thread *T = &t->threads[th];
        free(T->name);
        for (int r = 0; r < T->nregs; r++)
            free(T->regs[r]);
        free(T->regs);
        block_free(&T->code);
    }
    free(t->kernels);
    free(t->threads);
    t->kernels = nk;
    t->nkernels = nkern;
    p->kernel_capacity = nkern;
    t->threads = nt;
    t->nthreads = nthr;
    p->thread_capacity = nthr;
    return ok;
}

bool finish(parser *p)
{
    test *t = p->t;
    for (int i = 0; p->opts && i < p->opts->ndefines; i++)
        if (find_const(p, p->opts->define_names[i], (int)strlen(p->opts->define_names[i])) < 0) {
            diag_error(p->d, 1, 1, "-D %s: the test declares no constant '%s' (const %s = ...)", p->opts->define_names[i],
                       p->opts->define_names[i], p->opts->define_names[i]);
            return false;
        }
    if (!t->name) {
        diag_error(p->d, 1, 1, "missing 'test NAME' line");
        return false;
    }
    if (t->nthreads == 0 && !(p->opts && p->opts->threads_elsewhere)) {
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
    for (int i = 0; i < t->nthreads; i++)
        t->threads[i].wg_label = t->threads[i].wg;
    for (int i = 0; i < t->nthreads; i++) {
        thread *th = &t->threads[i];
        if (th->host)
            continue;
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
    test_index_cells(t);
    /* A workgroup belongs to one kernel launch: threads of different kernels
     * (or of two launches of one kernel) with the same wgN are different
     * workgroups, and their barriers never meet. */
    for (int i = 0; i < t->nthreads; i++) {
        thread *a = &t->threads[i];
        if (a->host || a->wg >= 1000000)
            continue;
        int same = -1;
        for (int j = 0; j < i && same < 0; j++) {
            const thread *b = &t->threads[j];
            if (!b->host && b->gpu == a->gpu && b->wg_label == a->wg_label && b->kernel == a->kernel)
                same = j;
        }
        a->wg = same >= 0 ? t->threads[same].wg : next_wg++;
    }
    /* The host's writes come from a GPU index of their own. */
    for (int i = 0; i < t->nthreads; i++)
        if (t->threads[i].host) {
            t->threads[i].gpu = t->ngpus;
            t->threads[i].wg = next_wg++;
            t->threads[i].wave = next_wave++;
        }
    for (int k = 0; k < t->nkernels; k++)
        if (t->kernels[k].gpu < 0)
            t->kernels[k].gpu = t->ngpus;
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
