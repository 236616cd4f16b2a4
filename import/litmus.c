/* The GPU litmus format of Dat3M (inherited from herd's GPU work): a PTX or
 * VULKAN header, an initial-state block, code in one column per thread
 * separated by '|' with ';' at the end of each row, and a final condition.
 *
 *   PTX MP
 *   { x=0; y=0; P1:r1=0; }
 *    P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;
 *    st.weak x, 1         | ld.acquire.gpu r1, y ;
 *    st.release.gpu y, 1  | ld.weak r2, x        ;
 *   exists (P1:r1 == 1 /\ P1:r2 != 1)
 *
 * Control flow: forward branches become if blocks; a spin-wait on one load
 * or CAS becomes an await:
 *   LC00: ld r, x; beq r, v, LC00              (spin while r == v)
 *   LC00: ld r, x; bne r, v, LC01; goto LC00; LC01:   (spin until r != v)
 * and other loops bounded do-whiles.  A goto graph that these do not nest
 * (a loop entered in its middle, a jump out of a branch) is lowered to a
 * program-counter dispatch instead (litmus_dispatch.c). */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/ptxmnem.h"
#include "import.h"
#include "litmus_items.h"

enum { MAXTH = 64 };

typedef struct {
    const char *src;
    diag *d;
    test *t;
    bool vulkan;
    items code[MAXTH];
    int64_t reginit[MAXTH][64];
    bool reginit_set[MAXTH][64];
    int loc_cap, thread_cap;
    /* Loops being structured (innermost last): a jump to the loop's label or
     * out past its end becomes an assignment to its control register. */
    struct loopctx {
        int label, back;  /* items: the loop's label, its last backward jump */
        int reg;          /* 0 run on, 1 leave the loop, 2 next iteration */
        bool jumped;      /* a jump in the body used reg */
    } loops[16];
    int nloops;
    /* The structured conversion refused the thread's goto graph: it is
     * lowered to a program-counter dispatch instead (litmus_dispatch.c). */
    bool flow_refused;
    /* The last position pos_of found: the next lookup at or after it scans on from there, not from the start of
       the file (a condition of n comparisons looked up n positions: quadratic). A pointer, as pos_of takes a
       const lp. */
    struct poscache {
        const char *at;
        srcpos pos;
    } *posc;
} lp;

/* ---- positions and errors ------------------------------------------------ */

static srcpos pos_of(const lp *p, const char *at)
{
    srcpos s = {1, 1};
    const char *q = p->src;
    if (p->posc && p->posc->at && p->posc->at <= at) {
        q = p->posc->at;
        s = p->posc->pos;
    }
    for (; q < at && *q; q++) {
        if (*q == '\n') {
            s.line++;
            s.col = 1;
        } else {
            s.col++;
        }
    }
    if (p->posc) {
        p->posc->at = q;
        p->posc->pos = s;
    }
    return s;
}

static bool failed(const lp *p) { return p->d->msg != NULL; }

/* A goto graph that the structured conversion does not handle (the caller
 * falls back to litmus_dispatch). */
__attribute__((format(printf, 4, 5))) static void flow_refuse(lp *p, int line, int col, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    p->flow_refused = true;
    diag_error(p->d, line, col, "%s", buf);
}

__attribute__((format(printf, 3, 4))) static void err_at(lp *p, const char *at, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    srcpos s = pos_of(p, at);
    diag_error(p->d, s.line, s.col, "%s", buf);
}

/* ---- small scanning helpers ---------------------------------------------- */

static const char *skip_ws(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    return s;
}

static const char *trim_end(const char *s, const char *end)
{
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    return end;
}

/* Skips whitespace, herd comments (* ... *) and "quoted strings". */
static const char *skip_noise(const char *s)
{
    for (;;) {
        while (*s && isspace((unsigned char)*s))
            s++;
        if (s[0] == '(' && s[1] == '*') {
            const char *e = strstr(s + 2, "*)");
            s = e ? e + 2 : s + strlen(s);
        } else if (*s == '"') {
            const char *e = strchr(s + 1, '"');
            s = e ? e + 1 : s + strlen(s);
        } else {
            return s;
        }
    }
}

static bool word_eq(const char *s, size_t n, const char *w) { return strlen(w) == n && strncmp(s, w, n) == 0; }

static bool is_register(const char *s, size_t n)
{
    if (n < 2 || s[0] != 'r')
        return false;
    for (size_t i = 1; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool parse_int(const char *s, const char *end, int64_t *v)
{
    s = skip_ws(s, end);
    end = trim_end(s, end);
    if (s == end)
        return false;
    bool neg = false;
    if (*s == '-' || *s == '+') {
        neg = *s == '-';
        s++;
    }
    if (s == end)
        return false;
    int base = 10;
    if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    uint64_t x = 0;
    for (; s < end; s++) {
        int d = isdigit((unsigned char)*s) ? *s - '0' : (base == 16 && isxdigit((unsigned char)*s)) ? tolower(*s) - 'a' + 10 : -1;
        /* within +-(2^63 - 1): a wider literal is not a number here (it wrapped before) */
        if (d < 0 || x > (uint64_t)(INT64_MAX - d) / (uint64_t)base)
            return false;
        x = x * (uint64_t)base + (uint64_t)d;
    }
    *v = neg ? -(int64_t)x : (int64_t)x;
    return true;
}

/* ---- the IR under construction ------------------------------------------------ */

static bool expand_bar_red(lp *p);

inst litmus_new_inst(instkind_t k, srcpos pos)
{
    inst in;
    memset(&in, 0, sizeof in);
    in.kind = k;
    in.pos = pos;
    in.dst = -1;
    in.mem.symvar = -1;
    return in;
}

static int find_loc(const test *t, const char *s, size_t n)
{
    for (int i = 0; i < t->nlocs; i++)
        if (word_eq(s, n, t->locs[i].name))
            return i;
    return -1;
}

static int add_loc(lp *p, const char *s, size_t n, int64_t init, srcpos pos)
{
    test *t = p->t;
    /* The name is the location's name in .lit, diagnoses and conversions: an identifier. The
     * error stops the parse (litmus_parse checks the diagnostic); the location is still made so
     * that callers keep a valid index. */
    if (!is_identifier(s, n) && !failed(p))
        diag_error(p->d, pos.line, pos.col, "expected a location name, found '%.*s'", (int)(n > 40 ? 40 : n), s);
    if (t->nlocs == p->loc_cap) {
        p->loc_cap = p->loc_cap ? 2 * p->loc_cap : 8;
        t->locs = realloc(t->locs, (size_t)p->loc_cap * sizeof *t->locs);
    }
    location *L = &t->locs[t->nlocs];
    memset(L, 0, sizeof *L);
    L->name = strndup(s, n);
    L->type = init >= INT32_MIN && init <= INT32_MAX ? TY_I32 : TY_I64;
    L->len = 1;
    L->first_cell = t->ncells++;
    L->init = calloc(1, sizeof *L->init);
    L->init[0] = init;
    L->home = 0;
    L->gran = GRAN_FINE;
    L->pos = pos;
    return t->nlocs++;
}

/* A location by name, created (initially 0) on first use, as in herd. */
static int use_loc(lp *p, const char *s, size_t n, srcpos pos)
{
    int l = find_loc(p->t, s, n);
    return l >= 0 ? l : add_loc(p, s, n, 0, pos);
}

static int find_reg(const thread *th, const char *s, size_t n)
{
    for (int i = 0; i < th->nregs; i++)
        if (word_eq(s, n, th->regs[i]))
            return i;
    return -1;
}

int litmus_thread_reg(thread *th, const char *s, size_t n)
{
    int r = find_reg(th, s, n);
    if (r >= 0)
        return r;
    if (th->nregs >= 64)
        return -1;
    th->regs = realloc(th->regs, (size_t)(th->nregs + 1) * sizeof *th->regs);
    th->regs[th->nregs] = strndup(s, n);
    return th->nregs++;
}

static int use_reg(lp *p, int tid, const char *s, size_t n) { return litmus_thread_reg(&p->t->threads[tid], s, n); }

/* A thread by the name used in the condition and the init block: P1 or 1. */
static int find_thread(const test *t, const char *s, size_t n)
{
    for (int i = 0; i < t->nthreads; i++)
        if (word_eq(s, n, t->threads[i].name))
            return i;
    int64_t k;
    const char *q = s, *e = s + n;
    if (q < e && (*q == 'P' || *q == 'p'))
        q++;
    if (q < e && parse_int(q, e, &k) && isdigit((unsigned char)*q)) {
        char name[32];
        snprintf(name, sizeof name, "P%" PRId64, k);
        for (int i = 0; i < t->nthreads; i++)
            if (strcmp(name, t->threads[i].name) == 0)
                return i;
        if (k >= 0 && k < t->nthreads)
            return (int)k;
    }
    return -1;
}

static void push_item(items *c, const item *it)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->v = realloc(c->v, (size_t)c->cap * sizeof *c->v);
    }
    c->v[c->n++] = *it;
}

/* ---- operands -------------------------------------------------------------------- */

typedef struct {
    const char *s;
    size_t n;
    const char *at;
} span;

/* Splits "a, b, c" into trimmed operands. */
static int split_operands(const char *s, const char *end, span *ops, int max)
{
    int n = 0;
    s = skip_ws(s, end);
    if (s == end)
        return 0;
    while (n < max) {
        const char *c = memchr(s, ',', (size_t)(end - s));
        const char *e = c ? c : end;
        const char *a = skip_ws(s, e);
        ops[n].s = a;
        ops[n].n = (size_t)(trim_end(a, e) - a);
        ops[n].at = a;
        n++;
        if (!c)
            break;
        s = c + 1;
    }
    return n;
}

/* A value: a constant or a register of thread tid. */
static expr *value_expr(lp *p, int tid, const span *o)
{
    int64_t v;
    srcpos pos = pos_of(p, o->at);
    if (parse_int(o->s, o->s + o->n, &v))
        return expr_const(v, pos);
    if (is_register(o->s, o->n)) {
        int r = use_reg(p, tid, o->s, o->n);
        if (r < 0) {
            err_at(p, o->at, "unsupported: more than 64 registers in one thread");
            return NULL;
        }
        return expr_reg(r, pos);
    }
    err_at(p, o->at, "expected a register (r0, r1, ...) or a constant, found '%.*s'", (int)o->n, o->s);
    return NULL;
}

static int dst_reg(lp *p, int tid, const span *o)
{
    if (!is_register(o->s, o->n)) {
        err_at(p, o->at, "expected a destination register (r0, r1, ...), found '%.*s'", (int)o->n, o->s);
        return -1;
    }
    int r = use_reg(p, tid, o->s, o->n);
    if (r < 0)
        err_at(p, o->at, "unsupported: more than 64 registers in one thread");
    return r;
}

static bool mem_operand(lp *p, const span *o, memref *m)
{
    const char *s = o->s;
    size_t n = o->n;
    if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
        s++;
        n -= 2;
        while (n && isspace((unsigned char)*s)) {
            s++;
            n--;
        }
        while (n && isspace((unsigned char)s[n - 1]))
            n--;
    }
    if (n == 0 || is_register(s, n) || !(isalpha((unsigned char)s[0]) || s[0] == '_')) {
        err_at(p, o->at, "expected a memory location, found '%.*s'", (int)o->n, o->s);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_') {
            err_at(p, o->at, "unsupported: memory operand '%.*s' (memsim reads named locations)", (int)o->n, o->s);
            return false;
        }
    m->loc = use_loc(p, s, n, pos_of(p, o->at));
    m->index = NULL;
    m->symvar = -1;
    return true;
}

/* ---- mnemonics ---------------------------------------------------------------------- */

#define MAXMOD 16

typedef struct {
    char w[MAXMOD][24];
    const char *at[MAXMOD];
    int n;
} mnem;

static bool split_mnemonic(lp *p, const char *s, size_t n, mnem *m)
{
    m->n = 0;
    const char *end = s + n;
    while (s < end) {
        const char *dot = memchr(s, '.', (size_t)(end - s));
        const char *e = dot ? dot : end;
        if (m->n == MAXMOD || (size_t)(e - s) >= sizeof m->w[0]) {
            err_at(p, s, "unsupported: instruction modifier '%.*s'", (int)(e - s), s);
            return false;
        }
        memcpy(m->w[m->n], s, (size_t)(e - s));
        m->w[m->n][e - s] = 0;
        m->at[m->n] = s;
        m->n++;
        s = dot ? dot + 1 : end;
    }
    return true;
}

static bool ptx_scope(const char *w, scope_t *s)
{
    if (strcmp(w, "cta") == 0)
        *s = SCOPE_WG;
    else if (strcmp(w, "gpu") == 0 || strcmp(w, "gl") == 0)
        *s = SCOPE_AGENT;
    else if (strcmp(w, "sys") == 0)
        *s = SCOPE_SYS;
    else
        return false;
    return true;
}

static bool vk_scope(const char *w, scope_t *s)
{
    if (strcmp(w, "sg") == 0)
        *s = SCOPE_WAVE;
    else if (strcmp(w, "wg") == 0)
        *s = SCOPE_WG;
    else if (strcmp(w, "qf") == 0)
        *s = SCOPE_AGENT;
    else if (strcmp(w, "dv") == 0)
        *s = SCOPE_SYS;
    else
        return false;
    return true;
}

static bool rmw_word(const char *w, rmwop_t *r, bool *unsup)
{
    static const struct { const char *w; rmwop_t r; } tab[] = {
        {"add", RMW_ADD}, {"sub", RMW_SUB}, {"exch", RMW_EXCH}, {"and", RMW_AND}, {"or", RMW_OR},
        {"xor", RMW_XOR}, {"min", RMW_MIN}, {"max", RMW_MAX}, {"cas", RMW_CAS}};
    *unsup = false;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(w, tab[i].w) == 0) {
            *r = tab[i].r;
            return true;
        }
    if (strcmp(w, "mul") == 0 || strcmp(w, "div") == 0 || strcmp(w, "inc") == 0 || strcmp(w, "dec") == 0) {
        *unsup = true;
        return true;
    }
    return false;
}

/* generic, surface, texture, constant (LitmusPTX.g4 proxyType, lines 45-50). */
static bool proxy_word(const char *w, uint8_t *out)
{
    static const char *const names[] = {"generic", "surface", "texture", "constant"};
    for (int i = 0; i < 4; i++)
        if (strcmp(w, names[i]) == 0) {
            *out = (uint8_t)i;
            return true;
        }
    return false;
}

/* The generic instruction a proxy access stands for, and its proxy; NULL for others. */
static const char *proxy_access(const char *h, proxy_t *proxy)
{
    static const struct { const char *name, *generic; proxy_t proxy; } acc[] = {
        {"tld", "ld", PROXY_TEXTURE},   {"suld", "ld", PROXY_SURFACE},    {"cold", "ld", PROXY_CONSTANT},
        {"sust", "st", PROXY_SURFACE},  {"suatom", "atom", PROXY_SURFACE}, {"sured", "red", PROXY_SURFACE},
    };
    for (size_t i = 0; i < sizeof acc / sizeof acc[0]; i++)
        if (strcmp(h, acc[i].name) == 0) {
            *proxy = acc[i].proxy;
            return acc[i].generic;
        }
    return NULL;
}

/* dst = a op b as a local computation. */
static bool local_op(lp *p, int tid, const mnem *m, span *ops, int nops, item *it)
{
    static const struct { const char *w; binop_t op; } tab[] = {
        {"add", BIN_ADD}, {"sub", BIN_SUB}, {"mul", BIN_MUL}, {"div", BIN_DIV},
        {"and", BIN_AND}, {"or", BIN_OR}, {"xor", BIN_XOR}};
    int k = -1;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(m->w[0], tab[i].w) == 0)
            k = (int)i;
    bool mov = strcmp(m->w[0], "mov") == 0;
    if (k < 0 && !mov)
        return false;
    if (nops != (mov ? 2 : 3)) {
        err_at(p, m->at[0], "%s takes %s operands", m->w[0], mov ? "2" : "3");
        return true;
    }
    it->kind = IT_INST;
    it->in = litmus_new_inst(I_ASSIGN, it->pos);
    it->in.dst = dst_reg(p, tid, &ops[0]);
    if (it->in.dst < 0)
        return true;
    expr *a = value_expr(p, tid, &ops[1]);
    if (!a)
        return true;
    if (mov) {
        it->in.val = a;
        return true;
    }
    expr *b = value_expr(p, tid, &ops[2]);
    if (!b) {
        expr_free(a);
        return true;
    }
    it->in.val = expr_bin(tab[k].op, a, b, it->pos);
    return true;
}

static bool branch_word(const char *w, binop_t *op)
{
    static const struct { const char *w; binop_t op; } tab[] = {
        {"beq", BIN_EQ}, {"bne", BIN_NE}, {"blt", BIN_LT}, {"bgt", BIN_GT}, {"ble", BIN_LE}, {"bge", BIN_GE}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(w, tab[i].w) == 0) {
            *op = tab[i].op;
            return true;
        }
    return false;
}

static bool label_name(lp *p, const span *o, char *out)
{
    if (o->n == 0 || o->n >= 32 || !(isalpha((unsigned char)o->s[0]) || o->s[0] == '_')) {
        err_at(p, o->at, "expected a label, found '%.*s'", (int)o->n, o->s);
        return false;
    }
    memcpy(out, o->s, o->n);
    out[o->n] = 0;
    return true;
}

/* ---- PTX instructions ----------------------------------------------------------------- */

/* ld REG, LOC and st LOC, VALUE read the same in both dialects; false
 * after an error. */
static bool ld_st_operands(lp *p, int tid, const mnem *m, bool ld, span *ops, int nops, inst *in)
{
    if (nops != 2) {
        err_at(p, m->at[0], ld ? "ld takes a register and a location" : "st takes a location and a value");
        return false;
    }
    if (ld) {
        in->dst = dst_reg(p, tid, &ops[0]);
        return in->dst >= 0 && mem_operand(p, &ops[1], &in->mem);
    }
    if (!mem_operand(p, &ops[0], &in->mem))
        return false;
    in->val = value_expr(p, tid, &ops[1]);
    return true;
}

static void ptx_inst(lp *p, int tid, const mnem *m, span *ops, int nops, item *it)
{
    const char *h = m->w[0];
    it->kind = IT_INST;
    /* fence.proxy.P and fence.proxy.alias (Dat3M's LitmusPTX.g4 lines 145-151): a fence tagged
     * with the proxy P only, or with ALIAS only (VisitorLitmusPTX.java visitFenceProxy and
     * visitFenceAlias); no order, no scope. */
    if (strcmp(h, "fence") == 0 && m->n >= 2 && strcmp(m->w[1], "proxy") == 0) {
        inst in = litmus_new_inst(I_FENCE, it->pos);
        in.ord = ORD_RELAXED;
        in.scope = SCOPE_NONE;
        in.proxy_fence = true;
        const char *w = m->n == 3 ? m->w[2] : "";
        if (strcmp(w, "alias") == 0) {
            in.proxy = PROXY_NONE;
            in.proxy_alias = true;
        } else if (!proxy_word(w, &in.proxy)) {
            err_at(p, m->at[m->n > 2 ? 2 : 0], "expected fence.proxy.texture, .surface, .constant, .generic or .alias");
            return;
        }
        if (nops) {
            err_at(p, ops[0].at, "a fence takes no operands");
            return;
        }
        p->t->uses_proxies = true;
        it->in = in;
        return;
    }
    if (strcmp(h, "fence") == 0 || strcmp(h, "membar") == 0) {
        inst in = litmus_new_inst(I_FENCE, it->pos);
        bool has_ord = strcmp(h, "membar") == 0, has_scope = false;
        in.ord = ORD_SEQ_CST; /* membar is a synonym for fence.sc */
        in.scope = SCOPE_AGENT;
        for (int i = 1; i < m->n; i++) {
            const char *w = m->w[i];
            if (strcmp(w, "proxy") == 0 || strcmp(w, "alias") == 0) {
                err_at(p, m->at[i], "unsupported: PTX proxies (fence.proxy orders accesses through different proxies)");
                return;
            } else if (strcmp(w, "sc") == 0) {
                in.ord = ORD_SEQ_CST;
            } else if (strcmp(w, "acq_rel") == 0) {
                in.ord = ORD_ACQ_REL;
            } else if (strcmp(w, "acquire") == 0) {
                in.ord = ORD_ACQUIRE;
            } else if (strcmp(w, "release") == 0) {
                in.ord = ORD_RELEASE;
            } else if (ptx_scope(w, &in.scope)) {
                has_scope = true;
                continue;
            } else if (strcmp(w, "cluster") == 0) {
                err_at(p, m->at[i], "unsupported: the .cluster scope (memsim's scopes are cta, gpu and sys)");
                return;
            } else {
                err_at(p, m->at[i], "unsupported: fence modifier '.%s'", w);
                return;
            }
            has_ord = true;
        }
        (void)has_scope;
        if (!has_ord) {
            err_at(p, m->at[0], "a fence needs .sc or .acq_rel (fence.sc.gpu)");
            return;
        }
        if (nops) {
            err_at(p, ops[0].at, "a fence takes no operands");
            return;
        }
        it->in = in;
        return;
    }
    if (strcmp(h, "bar") == 0 || strcmp(h, "barrier") == 0) {
        inst in = litmus_new_inst(I_BARRIER, it->pos);
        in.scope = SCOPE_WG;
        bool mode = false;
        for (int i = 1; i < m->n; i++) {
            const char *w = m->w[i];
            if (strcmp(w, "cta") == 0 || strcmp(w, "aligned") == 0)
                continue;
            if (strcmp(w, "sync") == 0 || strcmp(w, "arrive") == 0) {
                mode = true;
                in.bar_arrive = strcmp(w, "arrive") == 0;
                continue;
            }
            /* bar.red.popc.u32 d, a{, b}, {!}c and bar.red.{and,or}.pred p, a{, b}, {!}c (PTX ISA
             * 9.7.13.1): a bar.sync whose threads also reduce the predicate c; desugared by
             * expand_bar_red.  Dat3M's grammar has no bar.red (LitmusPTX.g4 lines 153-160). */
            if (strcmp(w, "red") == 0 && i + 1 < m->n) {
                const char *op = m->w[i + 1];
                in.bar_red = strcmp(op, "popc") == 0  ? BAR_RED_POPC
                             : strcmp(op, "and") == 0 ? BAR_RED_AND
                             : strcmp(op, "or") == 0  ? BAR_RED_OR
                                                      : BAR_RED_NONE;
                if (!in.bar_red) {
                    err_at(p, m->at[i + 1], "bar.red takes .popc, .and or .or");
                    return;
                }
                mode = true;
                i++;
                continue;
            }
            if (in.bar_red && (strcmp(w, "u32") == 0 || strcmp(w, "pred") == 0))
                continue;
            err_at(p, m->at[i], "unsupported: barrier '%s.%s' (memsim models bar.cta.sync and bar.cta.arrive)", h, w);
            return;
        }
        if (!mode) {
            err_at(p, m->at[0], "unsupported: barrier without .sync or .arrive");
            return;
        }
        if (in.bar_red) {
            if (nops != 3 && nops != 4) {
                err_at(p, m->at[0], "bar.red takes a destination, a barrier id, optionally a thread count, and a predicate");
                return;
            }
            in.dst = dst_reg(p, tid, &ops[0]);
            if (in.dst < 0)
                return;
            span c = ops[nops - 1];
            bool negate = c.n > 1 && c.s[0] == '!';
            if (negate)
                c.s++, c.n--, c.at++;
            in.val = value_expr(p, tid, &c);
            if (!in.val)
                return;
            if (negate) {
                expr *n = expr_const(0, it->pos);
                in.val = expr_bin(BIN_EQ, in.val, n, it->pos);
            } else {
                in.val = expr_bin(BIN_NE, in.val, expr_const(0, it->pos), it->pos);
            }
            in.bar_id = value_expr(p, tid, &ops[1]);
            if (in.bar_id && nops == 4)
                in.bar_count = value_expr(p, tid, &ops[2]);
            it->in = in;
            return;
        }
        /* Dat3M's LitmusPTX.g4: bar.cta.sync|arrive instance[, resource[, quorum]]: barriers with
         * the same instance and resource synchronize; a quorum is the number of threads that must
         * arrive (NamedBarrier.java). */
        if (nops < 1 || nops > 3) {
            err_at(p, m->at[0], "%s takes a barrier id and optionally a second operand and a thread count", h);
            return;
        }
        in.bar_id = value_expr(p, tid, &ops[0]);
        if (in.bar_id && nops >= 2)
            in.bar_count = value_expr(p, tid, &ops[1]);
        if (in.bar_count && nops == 3)
            in.bar_quorum = value_expr(p, tid, &ops[2]);
        it->in = in;
        return;
    }
    /* Accesses through a proxy (LitmusPTX.g4 lines 265-285): tld (texture), suld and sust
     * (surface), cold (constant), suatom and sured (surface). */
    proxy_t proxy = PROXY_GENERIC;
    const char *generic_name = proxy_access(h, &proxy);
    if (generic_name) {
        h = generic_name;
        p->t->uses_proxies = true;
    }
    bool ld = strcmp(h, "ld") == 0, st = strcmp(h, "st") == 0, atom = strcmp(h, "atom") == 0,
         red = strcmp(h, "red") == 0;
    if (!ld && !st && !atom && !red) {
        if (local_op(p, tid, m, ops, nops, it))
            return;
        err_at(p, m->at[0], "unsupported: PTX instruction '%s'", h);
        return;
    }
    /* ld r1, 5: a local move in Dat3M's grammar */
    if (ld && m->n == 1 && nops == 2 && (is_register(ops[1].s, ops[1].n) || parse_int(ops[1].s, ops[1].s + ops[1].n, &(int64_t){0}))) {
        it->in = litmus_new_inst(I_ASSIGN, it->pos);
        it->in.dst = dst_reg(p, tid, &ops[0]);
        if (it->in.dst >= 0)
            it->in.val = value_expr(p, tid, &ops[1]);
        return;
    }
    inst in = litmus_new_inst(ld ? I_LD : st ? I_ST : I_RMW, it->pos);
    const char *words[MAXMOD];
    for (int i = 0; i < m->n; i++)
        words[i] = m->w[i];
    words[0] = h;
    in.proxy = (uint8_t)proxy;
    ptx_access a;
    char why[256];
    int bad = ptx_access_read(words, m->n, &a, why, sizeof why);
    if (bad >= 0) {
        err_at(p, m->at[bad], "%s", why);
        return;
    }
    if (a.vec > 1) {
        err_at(p, m->at[0], "unsupported: vector accesses (.v%d)", a.vec);
        return;
    }
    in.ord = a.ord;
    in.scope = a.scope;
    in.rmw = a.rmw;
    if (ld || st) {
        if (!ld_st_operands(p, tid, m, ld, ops, nops, &in))
            return;
    } else {
        int want = (red ? 2 : 3) + (in.rmw == RMW_CAS);
        if (nops != want) {
            err_at(p, m->at[0], "%s.%s takes %d operands", h, rmw_name(in.rmw), want);
            return;
        }
        int k = 0;
        if (atom) {
            in.dst = dst_reg(p, tid, &ops[k++]);
            if (in.dst < 0)
                return;
        }
        if (!mem_operand(p, &ops[k++], &in.mem))
            return;
        in.val = value_expr(p, tid, &ops[k++]);
        if (in.val && in.rmw == RMW_CAS)
            in.val2 = value_expr(p, tid, &ops[k++]);
    }
    it->in = in;
}

/* ---- Vulkan instructions --------------------------------------------------------------- */

static void vk_inst(lp *p, int tid, const mnem *m, span *ops, int nops, item *it)
{
    const char *h = m->w[0];
    it->kind = IT_INST;
    if (strcmp(h, "avdevice") == 0 || strcmp(h, "visdevice") == 0) {
        it->in = litmus_new_inst(I_FENCE, it->pos);
        it->in.ord = ORD_RELAXED;
        it->in.scope = SCOPE_SYS;
        it->in.vk = VK_GIVEN | (h[0] == 'a' ? VK_AVDEVICE : VK_VISDEVICE);
        if (m->n > 1 || nops)
            err_at(p, m->at[0], "%s takes no modifiers or operands", h);
        return;
    }
    bool ld = strcmp(h, "ld") == 0, st = strcmp(h, "st") == 0, rmw = strcmp(h, "rmw") == 0;
    bool membar = strcmp(h, "membar") == 0, cbar = strcmp(h, "cbar") == 0;
    if (!ld && !st && !rmw && !membar && !cbar) {
        if (local_op(p, tid, m, ops, nops, it))
            return;
        err_at(p, m->at[0], "unsupported: Vulkan instruction '%s'", h);
        return;
    }
    if (ld && nops == 2 && (is_register(ops[1].s, ops[1].n) || parse_int(ops[1].s, ops[1].s + ops[1].n, &(int64_t){0}))) {
        it->in = litmus_new_inst(I_ASSIGN, it->pos);
        it->in.dst = dst_reg(p, tid, &ops[0]);
        if (it->in.dst >= 0)
            it->in.val = value_expr(p, tid, &ops[1]);
        return;
    }
    inst in = litmus_new_inst(ld ? I_LD : st ? I_ST : rmw ? I_RMW : membar ? I_FENCE : I_BARRIER, it->pos);
    in.vk = VK_GIVEN;
    in.rmw = RMW_EXCH;
    bool atomic = rmw, has_ord = false, has_sc = false;
    in.ord = ORD_PLAIN;
    in.scope = SCOPE_NONE;
    for (int i = 1; i < m->n; i++) {
        const char *w = m->w[i];
        rmwop_t r;
        bool unsup;
        if (strcmp(w, "atom") == 0) {
            atomic = true;
        } else if (strcmp(w, "acq") == 0 || strcmp(w, "rel") == 0 || strcmp(w, "acq_rel") == 0) {
            order_t o = strcmp(w, "acq") == 0 ? ORD_ACQUIRE : strcmp(w, "rel") == 0 ? ORD_RELEASE : ORD_ACQ_REL;
            in.ord = has_ord && in.ord != o ? ORD_ACQ_REL : o;
            has_ord = true;
        } else if (vk_scope(w, &in.scope)) {
        } else if (strcmp(w, "nonpriv") == 0) {
            in.vk |= VK_NONPRIV;
        } else if (strcmp(w, "av") == 0) {
            in.vk |= VK_AV;
        } else if (strcmp(w, "vis") == 0) {
            in.vk |= VK_VIS;
        } else if (strncmp(w, "sc", 2) == 0 && w[2] >= '0' && w[2] <= '3' && !w[3]) {
            /* storage classes 0 to 3 and their semantics (Dat3M's vulkan.cat lines 14-15) */
            static const unsigned sc_bit[4] = {0, VK_SC1, VK_SC2, VK_SC3};
            if (has_sc) {
                err_at(p, m->at[i], "an access has one storage class");
                return;
            }
            has_sc = true;
            in.vk |= sc_bit[w[2] - '0'];
        } else if (strncmp(w, "semsc", 5) == 0 && w[5] >= '0' && w[5] <= '3' && !w[6]) {
            static const unsigned semsc_bit[4] = {VK_SEMSC0, VK_SEMSC1, VK_SEMSC2, VK_SEMSC3};
            in.vk |= semsc_bit[w[5] - '0'];
        } else if (strcmp(w, "semav") == 0) {
            in.vk |= VK_SEMAV;
        } else if (strcmp(w, "semvis") == 0) {
            in.vk |= VK_SEMVIS;
        } else if (rmw && rmw_word(w, &r, &unsup)) {
            if (unsup || r == RMW_CAS) {
                err_at(p, m->at[i], "unsupported: Vulkan rmw operation '.%s'", w);
                return;
            }
            in.rmw = r;
        } else {
            err_at(p, m->at[i], "unsupported: Vulkan modifier '.%s' on %s", w, h);
            return;
        }
    }
    if (ld || st || rmw) {
        (void)has_sc; /* storage class 0 unless .sc1 */
        if (atomic && in.ord == ORD_PLAIN)
            in.ord = ORD_RELAXED;
        if (!atomic && has_ord) {
            err_at(p, m->at[0], "a non-atomic %s cannot have acquire or release semantics", h);
            return;
        }
        if ((ld && (in.ord == ORD_RELEASE || in.ord == ORD_ACQ_REL)) || (st && (in.ord == ORD_ACQUIRE || in.ord == ORD_ACQ_REL))) {
            err_at(p, m->at[0], "%s cannot be %s", h, order_name(in.ord));
            return;
        }
        if (atomic && in.scope == SCOPE_NONE) {
            err_at(p, m->at[0], "an atomic needs a scope (sg, wg, qf or dv)");
            return;
        }
    } else if (in.vk & (VK_AV | VK_VIS | VK_NONPRIV | VK_SC1)) {
        err_at(p, m->at[0], "%s takes no storage class, av, vis or nonpriv", h);
        return;
    }
    if (ld || st) {
        if (!ld_st_operands(p, tid, m, ld, ops, nops, &in))
            return;
    } else if (rmw) {
        if (nops != 3) {
            err_at(p, m->at[0], "rmw takes a register, a location and a value");
            return;
        }
        in.dst = dst_reg(p, tid, &ops[0]);
        if (in.dst < 0 || !mem_operand(p, &ops[1], &in.mem))
            return;
        in.val = value_expr(p, tid, &ops[2]);
    } else if (membar) {
        if (nops) {
            err_at(p, ops[0].at, "membar takes no operands");
            return;
        }
        if (in.scope == SCOPE_NONE)
            in.scope = SCOPE_SYS;
    } else {
        /* Dat3M's LitmusVulkan.g4: cbar... instance[, resource[, quorum]], as PTX's bar; its
         * VisitorLitmusVulkan makes every cbar a barrier of the workgroup (execution scope
         * Tag.Vulkan.WORK_GROUP), whatever scope its memory semantics name. */
        if (nops < 1 || nops > 3) {
            err_at(p, m->at[0], "cbar takes the barrier's id, optionally a second operand and a thread count");
            return;
        }
        if (in.scope == SCOPE_NONE)
            in.scope = SCOPE_WG;
        in.bar_scope = SCOPE_WG;
        in.bar_id = value_expr(p, tid, &ops[0]);
        if (in.bar_id && nops >= 2)
            in.bar_count = value_expr(p, tid, &ops[1]);
        if (in.bar_count && nops == 3)
            in.bar_quorum = value_expr(p, tid, &ops[2]);
    }
    it->in = in;
}

/* ---- one cell of the code ---------------------------------------------------------------- */

static void parse_cell(lp *p, int tid, const char *s, const char *end)
{
    s = skip_ws(s, end);
    end = trim_end(s, end);
    if (s == end)
        return;
    item it;
    memset(&it, 0, sizeof it);
    it.pos = pos_of(p, s);
    /* LC00: */
    if (end[-1] == ':') {
        span o = {s, (size_t)(end - 1 - s), s};
        while (o.n && isspace((unsigned char)o.s[o.n - 1]))
            o.n--;
        it.kind = IT_LABEL;
        if (label_name(p, &o, it.label))
            push_item(&p->code[tid], &it);
        return;
    }
    const char *e = s;
    while (e < end && !isspace((unsigned char)*e))
        e++;
    mnem m;
    if (!split_mnemonic(p, s, (size_t)(e - s), &m))
        return;
    span ops[6];
    int nops = split_operands(e, end, ops, 6);
    binop_t cmp;
    if (strcmp(m.w[0], "goto") == 0 || strcmp(m.w[0], "bra") == 0) {
        if (nops != 1) {
            err_at(p, s, "%s takes a label", m.w[0]);
            return;
        }
        it.kind = IT_GOTO;
        if (label_name(p, &ops[0], it.label))
            push_item(&p->code[tid], &it);
        return;
    }
    if (branch_word(m.w[0], &cmp) && m.n == 1) {
        if (nops != 3) {
            err_at(p, s, "%s takes two values and a label", m.w[0]);
            return;
        }
        it.kind = IT_BRANCH;
        it.cmp = cmp;
        it.a = value_expr(p, tid, &ops[0]);
        it.b = it.a ? value_expr(p, tid, &ops[1]) : NULL;
        if (it.b && label_name(p, &ops[2], it.label)) {
            push_item(&p->code[tid], &it);
            return;
        }
        expr_free(it.a);
        expr_free(it.b);
        return;
    }
    if (p->vulkan)
        vk_inst(p, tid, &m, ops, nops, &it);
    else
        ptx_inst(p, tid, &m, ops, nops, &it);
    if (failed(p)) {
        inst *in = &it.in;
        expr_free(in->val);
        expr_free(in->val2);
        expr_free(in->bar_id);
        expr_free(in->bar_count);
        expr_free(in->bar_quorum);
        return;
    }
    push_item(&p->code[tid], &it);
}

/* ---- control flow: items -> structured IR ---------------------------------------------------- */

int litmus_find_label(const items *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (c->v[i].kind == IT_LABEL && strcmp(c->v[i].label, name) == 0)
            return i;
    return -1;
}

static binop_t negate_cmp(binop_t op)
{
    switch (op) {
    case BIN_EQ: return BIN_NE;
    case BIN_NE: return BIN_EQ;
    case BIN_LT: return BIN_GE;
    case BIN_GE: return BIN_LT;
    case BIN_GT: return BIN_LE;
    default: return BIN_GT; /* BIN_LE */
    }
}

static bool is_reg_expr(const expr *e, int r) { return e && e->kind == EX_REG && e->reg == r; }

int litmus_spin_wait(const items *c, int i, int back, int hi)
{
    const item *it = &c->v[i];
    const item *rd = i + 1 < hi ? &c->v[i + 1] : NULL;
    const item *br = i + 2 < hi ? &c->v[i + 2] : NULL;
    bool ok = rd && br && rd->kind == IT_INST &&
              (rd->in.kind == I_LD || (rd->in.kind == I_RMW && rd->in.rmw == RMW_CAS)) && rd->in.dst >= 0 &&
              br->kind == IT_BRANCH && br->cmp >= BIN_EQ && br->cmp <= BIN_GE;
    int end = -1;
    if (ok && strcmp(br->label, it->label) == 0 && back == i + 2)
        end = i + 3;
    else if (ok && i + 4 < c->n && i + 4 <= hi && c->v[i + 3].kind == IT_GOTO && strcmp(c->v[i + 3].label, it->label) == 0 &&
             back == i + 3 && c->v[i + 4].kind == IT_LABEL && strcmp(c->v[i + 4].label, br->label) == 0)
        end = i + 4;
    if (end < 0)
        return -1;
    /* the value awaited: the operand that is not the register read */
    int r = rd->in.dst;
    bool a_is_r = is_reg_expr(br->a, r), b_is_r = is_reg_expr(br->b, r);
    return a_is_r != b_is_r ? end : -1;
}

inst litmus_take_await(items *c, int i, int end)
{
    item *rd = &c->v[i + 1], *br = &c->v[i + 2];
    bool exit_when_cc = end == i + 4; /* the second shape: leave when CC */
    bool want_is_a = !is_reg_expr(br->a, rd->in.dst);
    inst aw = rd->in;
    memset(&rd->in, 0, sizeof rd->in); /* moved */
    aw.await_rmw = aw.kind == I_RMW;
    aw.kind = I_AWAIT;
    /* The loop exits when (r CC v), or, spinning while CC, when not;
     * with v on the left the comparison turns around. */
    static const binop_t negated[] = {[BIN_EQ] = BIN_NE, [BIN_NE] = BIN_EQ, [BIN_LT] = BIN_GE,
                                      [BIN_GE] = BIN_LT, [BIN_LE] = BIN_GT, [BIN_GT] = BIN_LE};
    static const binop_t swapped[] = {[BIN_EQ] = BIN_EQ, [BIN_NE] = BIN_NE, [BIN_LT] = BIN_GT,
                                      [BIN_GT] = BIN_LT, [BIN_LE] = BIN_GE, [BIN_GE] = BIN_LE};
    binop_t exit_op = exit_when_cc ? br->cmp : negated[br->cmp];
    aw.await_op = want_is_a ? swapped[exit_op] : exit_op;
    aw.want = want_is_a ? br->a : br->b;
    if (want_is_a)
        br->a = NULL;
    else
        br->b = NULL;
    return aw;
}

static bool structure(lp *p, int tid, int lo, int hi, block *out);

/* Whether a block assigns register r (a loop's control register). */
static bool block_sets(const block *b, int r)
{
    for (int i = 0; i < b->n; i++)
        if ((b->v[i].kind == I_ASSIGN && b->v[i].dst == r) || block_sets(&b->v[i].body, r) ||
            block_sets(&b->v[i].els, r))
            return true;
    return false;
}

static inst assign_const(int reg, int64_t v, srcpos pos)
{
    inst a = litmus_new_inst(I_ASSIGN, pos);
    a.dst = reg;
    a.val = expr_const(v, pos);
    return a;
}

/* Items lo..hi-1, run only while the loop's control register is 0 (no
 * earlier jump left the iteration). */
static bool rest_if_running(lp *p, int tid, struct loopctx *L, int lo, int hi, block *out)
{
    items *c = &p->code[tid];
    srcpos pos = c->v[lo].pos;
    inst in = litmus_new_inst(I_IF, pos);
    in.val = expr_bin(BIN_EQ, expr_reg(L->reg, pos), expr_const(0, pos), pos);
    if (!structure(p, tid, lo, hi, &in.body)) {
        expr_free(in.val);
        block_free(&in.body);
        return false;
    }
    block_push(out, &in);
    return true;
}

/* Item i jumps to the loop's head (how = 2) or past its end (how = 1):
 * `goto` sets the control register and skips the rest of the region; a
 * branch does so when its condition holds and runs the rest otherwise. */
static bool loop_jump(lp *p, int tid, struct loopctx *L, int i, int hi, int how, block *out)
{
    items *c = &p->code[tid];
    item *it = &c->v[i];
    L->jumped = true;
    inst set = assign_const(L->reg, how, it->pos);
    if (it->kind == IT_GOTO) {
        block_push(out, &set);
        return true; /* what follows up to hi is dead unless jumped into (structure's check) */
    }
    inst in = litmus_new_inst(I_IF, it->pos);
    in.val = expr_bin(it->cmp, it->a, it->b, it->pos);
    it->a = it->b = NULL;
    block_push(&in.body, &set);
    if (!structure(p, tid, i + 1, hi, &in.els)) {
        expr_free(in.val);
        block_free(&in.body);
        block_free(&in.els);
        return false;
    }
    block_push(out, &in);
    return true;
}

/* A loop that is not a spin-wait on one read becomes a bounded do-while
 * (I_WHILE, unrolled to the test's loop bound):
 *   L: body ; bCC a, b, L                     do { body } while (a CC b)
 *   L: body ; bCC a, b, LE ; goto L ; LE:     do { body } while !(a CC b)
 * Returns the item after the loop, or -1 (an error was given). */
/* Whether an item of lo..hi-1 jumps to the loop's head (item head), past
 * its last backward jump or back before its head (out of the loop, to an
 * enclosing loop's head: the do-while forms, which have no control
 * register, would go on looping). */
static bool jumps_out(const items *c, int head, int back, int lo, int hi)
{
    for (int j = lo; j < hi; j++) {
        if (c->v[j].kind != IT_BRANCH && c->v[j].kind != IT_GOTO)
            continue;
        int t = litmus_find_label(c, c->v[j].label);
        if (t <= head || t > back)
            return true;
    }
    return false;
}

static int general_loop(lp *p, int tid, int i, int back, int hi, block *out)
{
    items *c = &p->code[tid];
    item *it = &c->v[i];
    item *last = &c->v[back];
    if (back >= hi) {
        flow_refuse(p, it->pos.line, it->pos.col,
                   "unsupported: the loop at %s ends outside the branch that contains its start", it->label);
        return -1;
    }
    inst loop = litmus_new_inst(I_WHILE, it->pos);
    loop.do_while = true;
    bool exit_pattern = last->kind == IT_GOTO && back - 1 > i && c->v[back - 1].kind == IT_BRANCH &&
                        back + 1 < c->n && c->v[back + 1].kind == IT_LABEL &&
                        strcmp(c->v[back + 1].label, c->v[back - 1].label) == 0;
    if (last->kind == IT_BRANCH && !jumps_out(c, i, back, i + 1, back)) {
        /* L: body ; bCC a, b, L */
        loop.val = expr_bin(last->cmp, last->a, last->b, last->pos);
        last->a = last->b = NULL;
        if (!structure(p, tid, i + 1, back, &loop.body))
            goto fail;
        block_push(out, &loop);
        return back + 1;
    }
    if (exit_pattern && !jumps_out(c, i, back, i + 1, back - 1)) {
        /* L: body ; bCC a, b, LE ; goto L ; LE: -- the exit label stays: others may jump to it */
        item *ex = &c->v[back - 1];
        loop.val = expr_bin(negate_cmp(ex->cmp), ex->a, ex->b, ex->pos);
        ex->a = ex->b = NULL;
        if (!structure(p, tid, i + 1, back - 1, &loop.body))
            goto fail;
        block_push(out, &loop);
        return back + 1;
    }
    /* Any other shape: exits and jumps to the head anywhere in the body.
     *   do { k = 0; body; tail } while k == 2
     * where a jump to the head sets k = 2, a jump past the end k = 1, and each
     * skips the rest of the iteration; the tail is the backward jump itself:
     * `goto L` (k = 2) or `bCC a, b, L` (k = 2 if it holds, else 1). */
    if (p->nloops == (int)(sizeof p->loops / sizeof p->loops[0])) {
        flow_refuse(p, it->pos.line, it->pos.col, "unsupported: loops nested more than 16 deep");
        return -1;
    }
    char name[32];
    snprintf(name, sizeof name, "loop%d_k", i);
    int k = use_reg(p, tid, name, strlen(name));
    if (k < 0) {
        diag_error(p->d, it->pos.line, it->pos.col, "unsupported: more than 64 registers in one thread");
        return -1;
    }
    struct loopctx *L = &p->loops[p->nloops++];
    *L = (struct loopctx){.label = i, .back = back, .reg = k};
    inst zero = assign_const(k, 0, it->pos);
    block_push(&loop.body, &zero);
    bool ok = structure(p, tid, i + 1, back, &loop.body);
    bool jumped = L->jumped;
    p->nloops--;
    if (jumped && p->nloops > 0)
        p->loops[p->nloops - 1].jumped = p->loops[p->nloops - 1].jumped; /* an inner loop's jumps are its own */
    if (!ok)
        goto fail;
    inst tail = litmus_new_inst(I_IF, last->pos);
    tail.val = expr_bin(BIN_EQ, expr_reg(k, last->pos), expr_const(0, last->pos), last->pos);
    if (last->kind == IT_GOTO) {
        inst again = assign_const(k, 2, last->pos);
        block_push(&tail.body, &again);
    } else {
        inst test = litmus_new_inst(I_IF, last->pos);
        test.val = expr_bin(last->cmp, last->a, last->b, last->pos);
        last->a = last->b = NULL;
        inst again = assign_const(k, 2, last->pos), leave = assign_const(k, 1, last->pos);
        block_push(&test.body, &again);
        block_push(&test.els, &leave);
        block_push(&tail.body, &test);
    }
    (void)jumped;
    block_push(&loop.body, &tail);
    loop.val = expr_bin(BIN_EQ, expr_reg(k, it->pos), expr_const(2, it->pos), it->pos);
    block_push(out, &loop);
    return back + 1;
fail:
    expr_free(loop.val);
    block_free(&loop.body);
    return -1;
}

/* Items lo..hi-1 of thread tid into block out. */
static bool structure(lp *p, int tid, int lo, int hi, block *out)
{
    items *c = &p->code[tid];
    int i = lo;
    while (i < hi && !failed(p)) {
        item *it = &c->v[i];
        if (it->kind == IT_LABEL) {
            /* A label that something after it jumps back to opens a loop. */
            int back = -1;
            for (int j = i + 1; j < c->n; j++)
                if ((c->v[j].kind == IT_BRANCH || c->v[j].kind == IT_GOTO) && strcmp(c->v[j].label, it->label) == 0)
                    back = j;
            if (back < 0) {
                i++;
                continue;
            }
            int end = litmus_spin_wait(c, i, back, hi);
            if (end < 0) {
                int next = general_loop(p, tid, i, back, hi, out);
                if (next < 0)
                    return false;
                i = next;
                continue;
            }
            inst aw = litmus_take_await(c, i, end);
            block_push(out, &aw);
            i = end;
            continue;
        }
        if (it->kind == IT_INST) {
            block_push(out, &it->in);
            memset(&it->in, 0, sizeof it->in);
            i++;
            continue;
        }
        int target = litmus_find_label(c, it->label);
        if (target < 0) {
            diag_error(p->d, it->pos.line, it->pos.col, "unknown label '%s' in thread %s", it->label,
                       p->t->threads[tid].name);
            return false;
        }
        if (p->nloops > 0) {
            struct loopctx *L = &p->loops[p->nloops - 1];
            bool to_head = target == L->label;
            bool to_exit = target > L->back;
            for (int j = L->back + 1; to_exit && j < target; j++)
                to_exit = c->v[j].kind == IT_LABEL; /* only labels between the loop's end and the target */
            if (to_head || to_exit)
                return loop_jump(p, tid, L, i, hi, to_exit ? 1 : 2, out);
        }
        if (target <= i) {
            flow_refuse(p, it->pos.line, it->pos.col,
                       "unsupported: a backward jump to %s that is not a spin-wait loop", it->label);
            return false;
        }
        if (target > hi) {
            flow_refuse(p, it->pos.line, it->pos.col,
                       "unsupported: a jump to %s out of the code that an enclosing branch skips (not nested)",
                       it->label);
            return false;
        }
        if (it->kind == IT_GOTO) {
            /* Code up to the target is dead unless something else jumps into it. */
            for (int j = 0; j < c->n; j++)
                if ((c->v[j].kind == IT_BRANCH || c->v[j].kind == IT_GOTO) && j != i) {
                    int tj = litmus_find_label(c, c->v[j].label);
                    if (tj > i && tj < target) {
                        flow_refuse(p, it->pos.line, it->pos.col,
                                   "unsupported: jumps into code that a goto skips");
                        return false;
                    }
                }
            i = target;
            continue;
        }
        /* bCC a, b, L: if !(a CC b) { items up to L }; and with an else:
         * bCC a, b, LE; body; goto LX; LE: else-body; LX: */
        inst in = litmus_new_inst(I_IF, it->pos);
        in.val = expr_bin(negate_cmp(it->cmp), it->a, it->b, it->pos);
        it->a = it->b = NULL;
        int body_end = target, next = target, lx = -1;
        if (target - 1 > i && c->v[target - 1].kind == IT_GOTO) {
            lx = litmus_find_label(c, c->v[target - 1].label);
            if (lx > target && lx <= hi) {
                body_end = target - 1;
                next = lx;
            } else {
                lx = -1;
            }
        }
        /* The else part starts at its label, which may open a loop. */
        bool ok = structure(p, tid, i + 1, body_end, &in.body) &&
                  (lx < 0 || structure(p, tid, target, lx, &in.els));
        if (!ok) {
            expr_free(in.val);
            block_free(&in.body);
            block_free(&in.els);
            return false;
        }
        block_push(out, &in);
        i = next;
        if (p->nloops > 0 && p->loops[p->nloops - 1].jumped && i < hi && !block_sets(&in.body, p->loops[p->nloops - 1].reg) &&
            !block_sets(&in.els, p->loops[p->nloops - 1].reg))
            continue;
        if (p->nloops > 0 && p->loops[p->nloops - 1].jumped && i < hi)
            return rest_if_running(p, tid, &p->loops[p->nloops - 1], i, hi, out);
    }
    return !failed(p);
}

/* Barrier operands that are registers only the init block sets are constants;
 * a barrier whose id is loaded from memory is matched by value (symexec). */
static void fold_barrier_regs(lp *p, int tid, block *b, const bool *written)
{
    for (int i = 0; i < b->n; i++) {
        inst *in = &b->v[i];
        if (in->kind == I_IF || in->kind == I_WHILE) {
            fold_barrier_regs(p, tid, &in->body, written);
            fold_barrier_regs(p, tid, &in->els, written);
        }
        if (in->kind != I_BARRIER)
            continue;
        expr **ops[3] = {&in->bar_id, &in->bar_count, &in->bar_quorum};
        for (int k = 0; k < 3; k++) {
            expr *e = *ops[k];
            if (e && e->kind == EX_REG && !written[e->reg]) {
                int64_t v = p->reginit_set[tid][e->reg] ? p->reginit[tid][e->reg] : 0;
                srcpos pos = e->pos;
                expr_free(e);
                *ops[k] = expr_const(v, pos);
            }
        }
    }
}

static void mark_written(const block *b, bool *written)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->dst >= 0 && in->dst < 64)
            written[in->dst] = true;
        if (in->kind == I_IF || in->kind == I_WHILE) {
            mark_written(&in->body, written);
            mark_written(&in->els, written);
        }
    }
}

static bool dynamic_barrier(const block *b)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if ((in->kind == I_IF || in->kind == I_WHILE) && (dynamic_barrier(&in->body) || dynamic_barrier(&in->els)))
            return true;
        if (in->kind == I_BARRIER && ((in->bar_id && in->bar_id->kind != EX_CONST) ||
                                      (in->bar_count && in->bar_count->kind != EX_CONST)))
            return true;
    }
    return false;
}

/* ---- the initial state ---------------------------------------------------------------- */

static bool is_type_word(const char *s, size_t n);
bool litmus_type_word(const char *s) { return is_type_word(s, strlen(s)); }

static bool is_type_word(const char *s, size_t n)
{
    static const char *const types[] = {"int", "uint", "int32_t", "uint32_t", "int64_t", "uint64_t", "long",
                                        "intptr_t", "unsigned", "signed", "char", "short", NULL};
    for (int i = 0; types[i]; i++)
        if (word_eq(s, n, types[i]))
            return true;
    return false;
}

typedef struct {
    int thread, reg;
    int64_t value;
    const char *at;
} reg_init;

static bool parse_init(lp *p, const char *s, const char *end, reg_init **rinits, int *nrinit)
{
    while (s < end && !failed(p)) {
        const char *e = s;
        while (e < end && *e != ';' && *e != '\n')
            e++;
        const char *a = skip_ws(s, e), *z = trim_end(a, e);
        s = e < end ? e + 1 : end;
        if (a == z)
            continue;
        /* words */
        span w[8];
        int nw = 0;
        const char *q = a;
        while (q < z && nw < 8) {
            q = skip_ws(q, z);
            if (q >= z)
                break;
            const char *st = q;
            if (*q == '=' || *q == '@' || *q == '&')
                q++;
            else
                while (q < z && !isspace((unsigned char)*q) && *q != '=' && *q != '@')
                    q++;
            w[nw].s = st;
            w[nw].n = (size_t)(q - st);
            w[nw].at = st;
            nw++;
        }
        /* "P0: r0" is one word */
        for (int i = 0; i + 1 < nw; i++)
            if (w[i].n && w[i].s[w[i].n - 1] == ':') {
                w[i].n = (size_t)(w[i + 1].s + w[i + 1].n - w[i].s);
                memmove(&w[i + 1], &w[i + 2], (size_t)(nw - i - 2) * sizeof w[0]);
                nw--;
            }
        int k = 0;
        if (nw >= 2 && is_type_word(w[0].s, w[0].n))
            k = 1;
        /* z aliases x  (Vulkan: another reference to the same location) */
        if (nw - k == 3 && word_eq(w[k + 1].s, w[k + 1].n, "aliases")) {
            int base = use_loc(p, w[k + 2].s, w[k + 2].n, pos_of(p, w[k + 2].at));
            if (find_loc(p->t, w[k].s, w[k].n) >= 0) {
                err_at(p, w[k].at, "'%.*s' is declared twice", (int)w[k].n, w[k].s);
                return false;
            }
            int l = add_loc(p, w[k].s, w[k].n, 0, pos_of(p, w[k].at));
            test *t = p->t;
            t->ncells--; /* shares the cell of its base */
            t->locs[l].first_cell = t->locs[base].first_cell;
            t->locs[l].init[0] = t->locs[base].init[0];
            continue;
        }
        /* y @ generic aliases x; s @ surface aliases x  (LitmusPTX.g4 lines 41-43): another
         * virtual address of x's physical location (ProgramBuilder.initVirLocEqLocAlias*).  A
         * generic alias is its own generic address; a proxy alias's generic address is the
         * location it aliases (VirtualMemoryObject.java lines 25-29). */
        if (nw - k == 5 && word_eq(w[k + 1].s, w[k + 1].n, "@") && word_eq(w[k + 3].s, w[k + 3].n, "aliases")) {
            char pw[16] = {0};
            uint8_t proxy = PROXY_NONE;
            if (w[k + 2].n < sizeof pw)
                memcpy(pw, w[k + 2].s, w[k + 2].n);
            if (!proxy_word(pw, &proxy)) {
                err_at(p, w[k + 2].at, "expected generic, surface, texture or constant");
                return false;
            }
            int target = find_loc(p->t, w[k + 4].s, w[k + 4].n);
            if (target < 0) {
                err_at(p, w[k + 4].at, "'%.*s' aliases a location not declared before it", (int)w[k + 4].n, w[k + 4].s);
                return false;
            }
            if (find_loc(p->t, w[k].s, w[k].n) >= 0) {
                err_at(p, w[k].at, "'%.*s' is declared twice", (int)w[k].n, w[k].s);
                return false;
            }
            int l = add_loc(p, w[k].s, w[k].n, 0, pos_of(p, w[k].at));
            test *t = p->t;
            t->ncells--; /* shares the cell of its physical location */
            t->locs[l].first_cell = t->locs[target].first_cell;
            t->locs[l].init[0] = t->locs[target].init[0];
            t->locs[l].generic_of = proxy == PROXY_GENERIC ? 0 : 1 + target;
            t->uses_proxies = true;
            continue;
        }
        for (int i = k; i < nw; i++)
            if (word_eq(w[i].s, w[i].n, "@") || word_eq(w[i].s, w[i].n, "aliases")) {
                err_at(p, w[i].at, "expected 'name @ proxy aliases location'");
                return false;
            }
        if (nw - k != 3 || !word_eq(w[k + 1].s, w[k + 1].n, "=")) {
            if (nw - k == 1) { /* a location with no value: 0 */
                use_loc(p, w[k].s, w[k].n, pos_of(p, w[k].at));
                continue;
            }
            err_at(p, a, "expected 'location = value' or 'thread:register = value' in the initial state");
            return false;
        }
        int64_t v;
        if (!parse_int(w[k + 2].s, w[k + 2].s + w[k + 2].n, &v)) {
            err_at(p, w[k + 2].at, "unsupported: initial value '%.*s' (memsim takes integer initial values; "
                                   "registers and locations holding addresses are not modelled)",
                   (int)w[k + 2].n, w[k + 2].s);
            return false;
        }
        const char *colon = memchr(w[k].s, ':', w[k].n);
        if (colon) {
            /* P1:r0 = 5 -- the thread may not be declared yet: resolved later */
            *rinits = realloc(*rinits, (size_t)(*nrinit + 1) * sizeof **rinits);
            reg_init *ri = &(*rinits)[(*nrinit)++];
            ri->thread = -1;
            ri->reg = -1;
            ri->value = v;
            ri->at = w[k].at;
            continue;
        }
        int l = find_loc(p->t, w[k].s, w[k].n);
        if (l >= 0) {
            err_at(p, w[k].at, "'%.*s' is initialised twice", (int)w[k].n, w[k].s);
            return false;
        }
        for (size_t i = 0; i < w[k].n; i++)
            if (!isalnum((unsigned char)w[k].s[i]) && w[k].s[i] != '_') {
                err_at(p, w[k].at, "unsupported: initial state for '%.*s'", (int)w[k].n, w[k].s);
                return false;
            }
        add_loc(p, w[k].s, w[k].n, v, pos_of(p, w[k].at));
    }
    return !failed(p);
}

static bool apply_reg_inits(lp *p, reg_init *ri, int n)
{
    for (int i = 0; i < n; i++) {
        const char *s = ri[i].at;
        const char *colon = strchr(s, ':');
        const char *rs = skip_ws(colon + 1, colon + 64);
        const char *re = rs;
        while (isalnum((unsigned char)*re) || *re == '_')
            re++;
        int th = find_thread(p->t, s, (size_t)(trim_end(s, colon) - s));
        if (th < 0) {
            err_at(p, s, "unknown thread '%.*s'", (int)(colon - s), s);
            return false;
        }
        if (!is_register(rs, (size_t)(re - rs))) {
            err_at(p, rs, "expected a register (r0, r1, ...)");
            return false;
        }
        int r = use_reg(p, th, rs, (size_t)(re - rs));
        if (r < 0) {
            err_at(p, rs, "unsupported: more than 64 registers in one thread");
            return false;
        }
        p->reginit[th][r] = ri[i].value;
        p->reginit_set[th][r] = true;
    }
    return true;
}

/* ---- thread headers: P0@cta 0,gpu 0 / P0@sg 0, wg 0, qf 0 ------------------------------- */

static bool parse_thread_header(lp *p, const char *s, const char *end, int idx)
{
    s = skip_ws(s, end);
    end = trim_end(s, end);
    const char *at = memchr(s, '@', (size_t)(end - s));
    const char *ne = trim_end(s, at ? at : end);
    if (!is_identifier(s, (size_t)(ne - s))) {   /* the name becomes the thread's name in .lit, diagnoses and conversions */
        err_at(p, s, "expected a thread name such as P0");
        return false;
    }
    test *t = p->t;
    for (int i = 0; i < t->nthreads; i++)
        if (word_eq(s, (size_t)(ne - s), t->threads[i].name)) {
            err_at(p, s, "thread %.*s is named twice", (int)(ne - s), s);
            return false;
        }
    if (t->nthreads == p->thread_cap) {
        p->thread_cap = p->thread_cap ? 2 * p->thread_cap : 8;
        t->threads = realloc(t->threads, (size_t)p->thread_cap * sizeof *t->threads);
    }
    thread *th = &t->threads[t->nthreads++];
    memset(th, 0, sizeof *th);
    th->name = strndup(s, (size_t)(ne - s));
    th->pos = pos_of(p, s);
    th->gpu = 0;
    th->wg = 1000000 + idx; /* its own workgroup unless placed */
    th->wave = 1000000 + idx;
    if (!at)
        return true;
    const char *q = at + 1;
    while (q < end) {
        const char *c = memchr(q, ',', (size_t)(end - q));
        const char *e = c ? c : end;
        const char *a = skip_ws(q, e), *z = trim_end(a, e);
        const char *kw = a;
        while (a < z && isalpha((unsigned char)*a))
            a++;
        size_t kn = (size_t)(a - kw);
        int64_t v;
        if (!parse_int(a, z, &v) || v < 0 || v > 100000) {
            err_at(p, kw, "expected a placement such as 'cta 0,gpu 0' or 'sg 0, wg 0, qf 0'");
            return false;
        }
        if (!p->vulkan && word_eq(kw, kn, "cta"))
            th->wg = (int)v;
        else if (!p->vulkan && word_eq(kw, kn, "gpu"))
            th->gpu = (int)v;
        else if (p->vulkan && word_eq(kw, kn, "sg"))
            th->wave = (int)v;
        else if (p->vulkan && word_eq(kw, kn, "wg"))
            th->wg = (int)v;
        else if (p->vulkan && word_eq(kw, kn, "qf"))
            th->gpu = (int)v;
        else {
            err_at(p, kw, "unsupported: placement '%.*s' (PTX: cta, gpu; Vulkan: sg, wg, qf)", (int)kn, kw);
            return false;
        }
        q = c ? c + 1 : end;
    }
    if (th->gpu >= IR_MAX_GPUS) {
        err_at(p, at, "unsupported: more than %d GPUs or queue families", IR_MAX_GPUS);
        return false;
    }
    return true;
}

/* ---- the condition ------------------------------------------------------------------------ */

typedef struct {
    lp *p;
    const char *s, *end;
    int depth;   /* negations and parentheses open: bounded before the stack is */
} cscan;

static void cskip(cscan *c)
{
    for (;;) {
        c->s = skip_ws(c->s, c->end);
        if (c->s + 1 < c->end && c->s[0] == '(' && c->s[1] == '*') {
            const char *e = strstr(c->s + 2, "*)");
            c->s = e ? e + 2 : c->end;
        } else {
            return;
        }
    }
}

static bool clook(cscan *c, const char *w)
{
    cskip(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->s) < n || strncmp(c->s, w, n) != 0)
        return false;
    if (isalpha((unsigned char)w[0]) && c->s + n < c->end && (isalnum((unsigned char)c->s[n]) || c->s[n] == '_'))
        return false;
    return true;
}

static bool caccept(cscan *c, const char *w)
{
    if (!clook(c, w))
        return false;
    c->s += strlen(w);
    return true;
}

static cond *c_or(cscan *c);

static bool c_operand(cscan *c, operand *o)
{
    cskip(c);
    lp *p = c->p;
    const char *a = c->s;
    o->pos = pos_of(p, a);
    const char *q = a;
    if (q < c->end && (*q == '-' || *q == '+'))
        q++;
    if (q < c->end && isdigit((unsigned char)*q)) {
        const char *e = q;
        while (e < c->end && isalnum((unsigned char)*e))
            e++;
        /* 1:r0 */
        const char *e2 = skip_ws(e, c->end);
        if (e2 < c->end && *e2 == ':' && a == q) {
            q = e;
        } else {
            int64_t v;
            if (!parse_int(a, e, &v)) {
                err_at(p, a, "expected a number, found '%.*s'", (int)(e - a), a);
                return false;
            }
            o->kind = OPND_CONST;
            o->value = v;
            c->s = e;
            return true;
        }
    }
    const char *e = a;
    while (e < c->end && (isalnum((unsigned char)*e) || *e == '_'))
        e++;
    if (e == a) {
        err_at(p, a, "expected THREAD:REGISTER, a location or a number in the condition");
        return false;
    }
    const char *e2 = skip_ws(e, c->end);
    if (e2 < c->end && *e2 == ':') {
        int th = find_thread(p->t, a, (size_t)(e - a));
        if (th < 0) {
            err_at(p, a, "unknown thread '%.*s' in the condition", (int)(e - a), a);
            return false;
        }
        const char *rs = skip_ws(e2 + 1, c->end), *re = rs;
        while (re < c->end && (isalnum((unsigned char)*re) || *re == '_'))
            re++;
        if (!is_register(rs, (size_t)(re - rs))) {
            err_at(p, rs, "expected a register after '%.*s:'", (int)(e - a), a);
            return false;
        }
        int r = use_reg(p, th, rs, (size_t)(re - rs));
        if (r < 0) {
            err_at(p, rs, "unsupported: more than 64 registers in one thread");
            return false;
        }
        o->kind = OPND_REG;
        o->thread = th;
        o->reg = r;
        c->s = re;
        return true;
    }
    int l = use_loc(p, a, (size_t)(e - a), pos_of(p, a));
    o->kind = OPND_MEM;
    o->cell = p->t->locs[l].first_cell;
    c->s = e;
    return true;
}

static cond *c_atom_nested(cscan *c);

static cond *c_atom(cscan *c)
{
    if (c->depth == IR_MAX_NESTING) {
        err_at(c->p, c->s, "the condition is nested more than %d deep", IR_MAX_NESTING);
        return NULL;
    }
    c->depth++;
    cond *r = c_atom_nested(c);
    c->depth--;
    return r;
}

static cond *c_atom_nested(cscan *c)
{
    lp *p = c->p;
    cskip(c);
    cond *r = calloc(1, sizeof *r);
    r->pos = pos_of(p, c->s);
    if (caccept(c, "~") || caccept(c, "not") || (clook(c, "!") && !clook(c, "!=") && caccept(c, "!"))) {
        r->kind = C_NOT;
        r->a = c_atom(c);
        if (!r->a) {
            free(r);
            return NULL;
        }
        return r;
    }
    if (caccept(c, "(")) {
        free(r);
        r = c_or(c);
        if (r && !caccept(c, ")")) {
            err_at(p, c->s, "expected ')' in the condition");
            cond_free(r);
            return NULL;
        }
        return r;
    }
    if (caccept(c, "true") || caccept(c, "false")) {
        r->kind = c->s[-1] == 'e' && c->s[-2] == 'u' ? C_TRUE : C_FALSE;
        return r;
    }
    r->kind = C_CMP;
    if (!c_operand(c, &r->l)) {
        free(r);
        return NULL;
    }
    if (caccept(c, "==") || caccept(c, "=")) {
        r->ne = false;
    } else if (caccept(c, "!=") || caccept(c, "<>")) {
        r->ne = true;
    } else {
        err_at(p, c->s, "expected '=', '==' or '!=' in the condition");
        free(r);
        return NULL;
    }
    if (!c_operand(c, &r->r)) {
        free(r);
        return NULL;
    }
    return r;
}

static cond *c_bin(cscan *c, bool is_and)
{
    cond *a = is_and ? c_atom(c) : c_bin(c, true);
    while (a && (is_and ? (caccept(c, "/\\") || caccept(c, "&&")) : (caccept(c, "\\/") || caccept(c, "||")))) {
        cond *b = is_and ? c_atom(c) : c_bin(c, true);
        if (!b) {
            cond_free(a);
            return NULL;
        }
        cond *n = calloc(1, sizeof *n);
        n->kind = is_and ? C_AND : C_OR;
        n->a = a;
        n->b = b;
        n->pos = a->pos;
        a = n;
    }
    return a;
}

static cond *c_or(cscan *c) { return c_bin(c, false); }

static bool parse_condition(lp *p, const char *s, const char *end)
{
    cscan c = {p, s, end, 0};
    cskip(&c);
    if (caccept(&c, "locations")) {
        /* locations [x; P0:r0;]: extra locations herd shows; memsim shows the condition's */
        const char *e = memchr(c.s, ']', (size_t)(end - c.s));
        if (!e) {
            err_at(p, c.s, "expected ']' after locations");
            return false;
        }
        c.s = e + 1;
        cskip(&c);
    }
    if (c.s == end)
        return true;
    if (caccept(&c, "filter")) {
        /* filter F [exists ...]: executions whose final state fails F do not exist (herd). */
        p->t->filter = c_or(&c);
        if (!p->t->filter)
            return false;
        cskip(&c);
        if (c.s == end)
            return true;
    }
    quant_t q;
    if (caccept(&c, "exists")) {
        q = Q_EXISTS;
    } else if (caccept(&c, "forall")) {
        q = Q_FORALL;
    } else if (caccept(&c, "~")) {
        if (!caccept(&c, "exists")) {
            err_at(p, c.s, "expected 'exists' after '~'");
            return false;
        }
        q = Q_NOT_EXISTS;
    } else {
        err_at(p, c.s, "expected exists, ~exists or forall");
        return false;
    }
    p->t->quant = q;
    p->t->cond = cond_balance(c_or(&c));
    if (!p->t->cond)
        return false;
    cskip(&c);
    if (c.s < end) {
        err_at(p, c.s, "unexpected text after the condition");
        return false;
    }
    return true;
}

/* ---- the whole file ------------------------------------------------------------------------------ */

/* The line (at or after s) that starts the condition section, or end. */
static const char *find_condition(const char *s, const char *end)
{
    while (s < end) {
        const char *a = skip_ws(s, end);
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        static const char *const kws[] = {"exists", "~exists", "forall", "locations", "filter", "~ exists", NULL};
        for (int i = 0; kws[i]; i++) {
            size_t n = strlen(kws[i]);
            if ((size_t)(le - a) >= n && strncmp(a, kws[i], n) == 0 && (a + n == le || !isalnum((unsigned char)a[n])))
                return a;
        }
        s = nl ? nl + 1 : end;
    }
    return end;
}

static void free_item_list(items *c)
{
    for (int i = 0; i < c->n; i++) {
        item *it = &c->v[i];
        expr_free(it->a);
        expr_free(it->b);
        inst_free(&it->in);
    }
    free(c->v);
    c->v = NULL;
    c->n = c->cap = 0;
}

/* A copy of a thread's items that the structured conversion may consume. */
static items clone_items(const items *c)
{
    items k = {.v = c->n ? malloc((size_t)c->n * sizeof *k.v) : NULL, .n = c->n, .cap = c->n};
    for (int i = 0; i < c->n; i++) {
        item *it = &k.v[i];
        *it = c->v[i];
        it->a = expr_clone(it->a);
        it->b = expr_clone(it->b);
        inst *in = &it->in;
        in->mem.index = expr_clone(in->mem.index);
        in->mem.peer = expr_clone(in->mem.peer);
        in->mem.ptr = expr_clone(in->mem.ptr);
        in->val = expr_clone(in->val);
        in->val2 = expr_clone(in->val2);
        in->want = expr_clone(in->want);
        in->bar_id = expr_clone(in->bar_id);
        in->bar_count = expr_clone(in->bar_count);
        in->bar_quorum = expr_clone(in->bar_quorum);
    }
    return k;
}

/* A thread's items into IR: the structured conversion (ifs, awaits,
 * do-whiles), or where it refuses the goto graph, a program-counter
 * dispatch of the same items (litmus_dispatch.c) -- the structured form
 * stays for every test it reads, so their results do not change. */
bool litmus_always_dispatch = false;

static bool structure_thread(lp *p, int th, block *body)
{
    if (litmus_always_dispatch)
        return litmus_dispatch(&p->code[th], &p->t->threads[th], p->d, body);
    items saved = clone_items(&p->code[th]);
    thread *T = &p->t->threads[th];
    int nregs = T->nregs;
    diag *real = p->d;
    diag first = {.file = real->file, .source = real->source};
    p->d = &first;
    p->flow_refused = false;
    p->nloops = 0;
    bool ok = structure(p, th, 0, p->code[th].n, body);
    p->d = real;
    if (ok) {
        free_item_list(&saved);
        return true;
    }
    block_free(body);
    *body = (block){0};
    if (!p->flow_refused) {
        real->msg = first.msg; /* the error, as the structured conversion gave it */
        real->count += first.count;
        free_item_list(&saved);
        return false;
    }
    diag_free(&first);
    free_item_list(&p->code[th]);
    p->code[th] = saved;
    while (T->nregs > nregs) /* the structured conversion's control registers */
        free(T->regs[--T->nregs]);
    if (litmus_dispatch(&p->code[th], T, p->d, body))
        return true;
    block_free(body);
    *body = (block){0};
    return false;
}

static void free_items(lp *p)
{
    for (int th = 0; th < MAXTH; th++)
        free_item_list(&p->code[th]);
}


static bool parse_all(lp *p, litmus_arch *arch)
{
    const char *src = p->src, *end = src + strlen(src);
    test *t = p->t;
    /* Header: ARCH NAME */
    const char *s = skip_ws(src, end);
    const char *e = s;
    while (e < end && !isspace((unsigned char)*e))
        e++;
    if (word_eq(s, (size_t)(e - s), "PTX") || word_eq(s, (size_t)(e - s), "ptx")) {
        p->vulkan = false;
    } else if (word_eq(s, (size_t)(e - s), "VULKAN") || word_eq(s, (size_t)(e - s), "Vulkan") ||
               word_eq(s, (size_t)(e - s), "vulkan")) {
        p->vulkan = true;
    } else {
        err_at(p, s, "unsupported: litmus architecture '%.*s' (memsim reads PTX and VULKAN litmus tests)",
               (int)(e - s > 40 ? 40 : e - s), s);
        return false;
    }
    if (arch)
        *arch = p->vulkan ? LITMUS_VULKAN : LITMUS_PTX;
    const char *nl = memchr(e, '\n', (size_t)(end - e));
    const char *ns = skip_ws(e, nl ? nl : end), *ne = trim_end(ns, nl ? nl : end);
    t->name = ne > ns ? strndup(ns, (size_t)(ne - ns)) : strdup("litmus");
    /* Doc strings ("..." and (* ... *), skipped as herd does; Dat3M takes
     * anything up to the first '{'), then the initial state. */
    s = skip_noise(nl ? nl + 1 : end);
    if (*s != '{') {
        s = nl ? strchr(nl, '{') : NULL;
        if (!s)
            s = end;
    }
    if (*s != '{') {
        err_at(p, s, "expected the initial state block '{ ... }'");
        return false;
    }
    const char *close = strchr(s, '}');
    if (!close) {
        err_at(p, s, "missing '}' at the end of the initial state");
        return false;
    }
    reg_init *rinits = NULL;
    int nrinit = 0;
    if (!parse_init(p, s + 1, close, &rinits, &nrinit)) {
        free(rinits);
        return false;
    }
    s = skip_noise(close + 1);
    if (*s == ';')
        s = skip_noise(s + 1);
    /* Vulkan: { ssw 0 1; ... } */
    if (*s == '{') {
        const char *c2 = strchr(s, '}');
        if (!c2 || !p->vulkan) {
            err_at(p, s, p->vulkan ? "missing '}'" : "unsupported: a second declaration block in a PTX test");
            free(rinits);
            return false;
        }
        const char *q = s + 1;
        while (q < c2) {
            const char *d = q;
            while (d < c2 && *d != ';' && *d != '\n')
                d++;
            const char *a = skip_ws(q, d), *z = trim_end(a, d);
            q = d < c2 ? d + 1 : c2;
            if (a == z)
                continue;
            if ((size_t)(z - a) < 4 || strncmp(a, "ssw", 3) != 0 || !isspace((unsigned char)a[3])) {
                err_at(p, a, "unsupported: declaration '%.*s' (expected 'ssw THREAD THREAD')", (int)(z - a), a);
                free(rinits);
                return false;
            }
            t->ssw = realloc(t->ssw, (size_t)(t->nssw + 1) * sizeof *t->ssw);
            /* threads resolved once the header row is read: store the text position */
            t->ssw[t->nssw][0] = (int)(a - src);
            t->ssw[t->nssw][1] = 0;
            t->nssw++;
        }
        s = skip_noise(c2 + 1);
    }
    const char *cond_at = find_condition(s, end);
    /* Rows end with ';'; the first names the threads. */
    int row = 0;
    const char *q = s;
    while (q < cond_at && !failed(p)) {
        const char *semi = memchr(q, ';', (size_t)(cond_at - q));
        const char *re = semi ? semi : cond_at;
        if (skip_ws(q, re) == re) {
            q = semi ? semi + 1 : cond_at;
            continue;
        }
        int col = 0;
        const char *c = q;
        while (c <= re && !failed(p)) {
            const char *bar = memchr(c, '|', (size_t)(re - c));
            const char *ce = bar ? bar : re;
            if (row == 0) {
                if (col >= MAXTH) {
                    err_at(p, c, "unsupported: more than %d threads", MAXTH);
                    break;
                }
                parse_thread_header(p, c, ce, col);
            } else if (col >= t->nthreads) {
                if (skip_ws(c, ce) != ce)
                    err_at(p, c, "more columns than threads");
            } else {
                parse_cell(p, col, c, ce);
            }
            col++;
            if (!bar)
                break;
            c = bar + 1;
        }
        if (!semi && !failed(p)) {
            err_at(p, q, "expected ';' at the end of the row");
            break;
        }
        row++;
        q = semi ? semi + 1 : cond_at;
    }
    if (failed(p)) {
        free(rinits);
        return false;
    }
    if (t->nthreads == 0) {
        err_at(p, s, "the test has no threads");
        free(rinits);
        return false;
    }
    bool ok = apply_reg_inits(p, rinits, nrinit);
    free(rinits);
    if (!ok)
        return false;
    /* ssw thread pairs */
    for (int i = 0; i < t->nssw; i++) {
        const char *a = src + t->ssw[i][0] + 3;
        span w[2];
        int nw = 0;
        const char *z = a;
        while (*z && *z != ';' && *z != '\n' && *z != '}')
            z++;
        while (nw < 2) {
            a = skip_ws(a, z);
            if (a >= z)
                break;
            const char *b = a;
            while (b < z && !isspace((unsigned char)*b))
                b++;
            w[nw].s = a;
            w[nw].n = (size_t)(b - a);
            w[nw].at = a;
            nw++;
            a = b;
        }
        int ta = nw == 2 ? find_thread(t, w[0].s, w[0].n) : -1;
        int tb = nw == 2 ? find_thread(t, w[1].s, w[1].n) : -1;
        if (ta < 0 || tb < 0) {
            err_at(p, src + t->ssw[i][0], "ssw needs two known threads");
            return false;
        }
        t->ssw[i][0] = ta;
        t->ssw[i][1] = tb;
    }
    if (!parse_condition(p, cond_at, end))
        return false;
    /* Structure each thread's code. */
    for (int th = 0; th < t->nthreads; th++) {
        thread *T = &t->threads[th];
        block body = {0}, code = {0};
        if (!structure_thread(p, th, &body))
            return false;
        bool written[64] = {0};
        mark_written(&body, written);
        fold_barrier_regs(p, th, &body, written);
        /* Registers the init block sets: assignments first. */
        for (int r = 0; r < T->nregs; r++)
            if (p->reginit_set[th][r] && p->reginit[th][r] != 0) {
                inst in = litmus_new_inst(I_ASSIGN, T->pos);
                in.dst = r;
                in.val = expr_const(p->reginit[th][r], T->pos);
                block_push(&code, &in);
            }
        for (int i = 0; i < body.n; i++)
            block_push(&code, &body.v[i]);
        free(body.v);
        T->code = code;
    }
    if (!expand_bar_red(p))
        return false;
    /* A barrier id loaded from memory is matched against the constant ids;
     * two of them in one workgroup could match each other: not modelled. */
    for (int a = 0; a < t->nthreads; a++)
        for (int b = a + 1; b < t->nthreads; b++)
            if (t->threads[a].gpu == t->threads[b].gpu && t->threads[a].wg == t->threads[b].wg &&
                dynamic_barrier(&t->threads[a].code) && dynamic_barrier(&t->threads[b].code)) {
                diag_error(p->d, t->threads[b].pos.line, t->threads[b].pos.col,
                           "unsupported: barrier ids loaded from memory in two threads of one CTA (%s and %s)",
                           t->threads[a].name, t->threads[b].name);
                return false;
            }
    /* One implicit kernel per GPU. */
    int maxgpu = 0;
    for (int th = 0; th < t->nthreads; th++)
        if (t->threads[th].gpu > maxgpu)
            maxgpu = t->threads[th].gpu;
    t->ngpus = maxgpu + 1;
    for (int th = 0; th < t->nthreads; th++) {
        thread *T = &t->threads[th];
        int k = -1;
        for (int i = 0; i < t->nkernels; i++)
            if (t->kernels[i].gpu == T->gpu)
                k = i;
        if (k < 0) {
            t->kernels = realloc(t->kernels, (size_t)(t->nkernels + 1) * sizeof *t->kernels);
            kernel *K = &t->kernels[t->nkernels];
            memset(K, 0, sizeof *K);
            char buf[32];
            snprintf(buf, sizeof buf, "gpu%d", T->gpu);
            K->name = strdup(buf);
            K->gpu = T->gpu;
            K->implicit = true;
            K->pos = T->pos;
            k = t->nkernels++;
        }
        T->kernel = k;
    }
    return true;
}

/* Does a block below the top level hold a bar.red? */
static bool nested_bar_red(const block *b)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->bar_red || nested_bar_red(&in->body) || nested_bar_red(&in->els))
            return true;
    }
    return false;
}

static bool const_value(const expr *e, int64_t *v)
{
    if (!e) {
        *v = -1;
        return true;
    }
    if (e->kind != EX_CONST)
        return false;
    *v = e->value;
    return true;
}

/* bar.red as memory operations that the barrier orders: each thread of the CTA stores its
 * predicate (0 or 1) to a cell of its own, takes part in the barrier, then loads every
 * participant's cell and combines them: popc the sum, and (sum == participants), or
 * (sum != 0).  Weak accesses suffice: the barrier is in cause (PTX) and hb (src11), so each
 * load reads the store of this round.  The k-th bar.red of a thread meets the k-th of every
 * other thread of its CTA that has one, with the same constant id: at the top level only (a
 * bar.red inside a branch or loop is unsupported). */
static bool expand_bar_red(lp *p)
{
    test *t = p->t;
    int nred[MAXTH] = {0};
    for (int th = 0; th < t->nthreads; th++) {
        const block *b = &t->threads[th].code;
        for (int i = 0; i < b->n; i++) {
            const inst *in = &b->v[i];
            if (nested_bar_red(&in->body) || nested_bar_red(&in->els)) {
                diag_error(p->d, in->pos.line, in->pos.col, "unsupported: bar.red inside a branch or loop");
                return false;
            }
            if (in->bar_red)
                nred[th]++;
        }
    }
    /* First check everything, so that the rewrite below cannot fail half way (it moves
     * expressions from the instructions as written into the new ones). */
    int extra_regs[MAXTH] = {0};
    for (int th = 0; th < t->nthreads; th++) {
        const thread *T = &t->threads[th];
        int k = 0;
        for (int i = 0; i < T->code.n; i++) {
            const inst *in = &T->code.v[i];
            if (!in->bar_red)
                continue;
            int64_t id, count;
            if (!const_value(in->bar_id, &id) || !const_value(in->bar_count, &count)) {
                diag_error(p->d, in->pos.line, in->pos.col, "unsupported: bar.red with a barrier id in a register");
                return false;
            }
            for (int q = 0; q < t->nthreads; q++) {
                const thread *Q = &t->threads[q];
                if (Q->gpu != T->gpu || Q->wg != T->wg || nred[q] <= k)
                    continue;
                const inst *qi = NULL;
                for (int j = 0, seen = 0; j < Q->code.n && !qi; j++)
                    if (Q->code.v[j].bar_red && seen++ == k)
                        qi = &Q->code.v[j];
                int64_t qid, qcount;
                if (!const_value(qi->bar_id, &qid) || !const_value(qi->bar_count, &qcount) || qid != id ||
                    qcount != count || qi->bar_red != in->bar_red) {
                    diag_error(p->d, in->pos.line, in->pos.col,
                               "unsupported: bar.red number %d of %s and of %s differ (id, count or operation)", k + 1,
                               T->name, Q->name);
                    return false;
                }
                extra_regs[th]++;
            }
            k++;
        }
        if (T->nregs + extra_regs[th] > 64) {
            diag_error(p->d, T->pos.line, T->pos.col, "unsupported: more than 64 registers in one thread");
            return false;
        }
    }
    /* Every thread's k-th bar.red has one cell. */
    for (int th = 0; th < t->nthreads; th++)
        for (int k = 0; k < nred[th]; k++) {
            char name[64];
            snprintf(name, sizeof name, "bar_red%d_%s", k, t->threads[th].name);
            if (find_loc(t, name, strlen(name)) >= 0) {
                diag_error(p->d, t->threads[th].pos.line, t->threads[th].pos.col,
                           "unsupported: a location named %s (memsim's name for a bar.red vote)", name);
                return false;
            }
            add_loc(p, name, strlen(name), 0, t->threads[th].pos);
        }
    /* The rewrite; the participants are read from nred and placement, which it does not change. */
    for (int th = 0; th < t->nthreads; th++) {
        thread *T = &t->threads[th];
        if (!nred[th])
            continue;
        block out = {0};
        int k = 0;
        for (int i = 0; i < T->code.n; i++) {
            inst in = T->code.v[i];
            if (!in.bar_red) {
                block_push(&out, &in);
                continue;
            }
            char name[64];
            snprintf(name, sizeof name, "bar_red%d_%s", k, T->name);
            inst st = litmus_new_inst(I_ST, in.pos);
            st.mem.loc = find_loc(t, name, strlen(name));
            st.val = in.val;
            block_push(&out, &st);
            inst bar = in;
            bar.bar_red = BAR_RED_NONE;
            bar.dst = -1;
            bar.val = NULL;
            block_push(&out, &bar);
            expr *sum = NULL;
            int np = 0;
            for (int q = 0; q < t->nthreads; q++) {
                const thread *Q = &t->threads[q];
                if (Q->gpu != T->gpu || Q->wg != T->wg || nred[q] <= k)
                    continue;
                char qname[64], reg[32];
                snprintf(qname, sizeof qname, "bar_red%d_%s", k, Q->name);
                snprintf(reg, sizeof reg, "bar_red%d_%d", k, np++);
                inst ld = litmus_new_inst(I_LD, in.pos);
                ld.dst = use_reg(p, th, reg, strlen(reg));
                ld.mem.loc = find_loc(t, qname, strlen(qname));
                block_push(&out, &ld);
                expr *e = expr_reg(ld.dst, in.pos);
                sum = sum ? expr_bin(BIN_ADD, sum, e, in.pos) : e;
            }
            inst res = litmus_new_inst(I_ASSIGN, in.pos);
            res.dst = in.dst;
            res.val = in.bar_red == BAR_RED_POPC  ? sum
                      : in.bar_red == BAR_RED_AND ? expr_bin(BIN_EQ, sum, expr_const(np, in.pos), in.pos)
                                                  : expr_bin(BIN_NE, sum, expr_const(0, in.pos), in.pos);
            block_push(&out, &res);
            k++;
        }
        free(T->code.v);
        T->code = out;
    }
    return true;
}

/* Litmus values are unbounded integers: a location whose initial value fits 32 bits is i32
 * only while the test has no wider constant anywhere (herd would keep 5555555555, through a
 * store or a register; an i32 cell, and the .lit it converts to, would not). */
static bool wide(int64_t v) { return v < INT32_MIN || v > INT32_MAX; }

static bool wide_expr(const expr *e)
{
    return e && ((e->kind == EX_CONST && wide(e->value)) || wide_expr(e->a) || wide_expr(e->b) || wide_expr(e->c));
}

static bool wide_block(const block *b)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (wide_expr(in->val) || wide_expr(in->val2) || wide_expr(in->want) || wide_block(&in->body) ||
            wide_block(&in->els))
            return true;
    }
    return false;
}

static bool wide_cond(const cond *c)
{
    return c && ((c->l.kind == OPND_CONST && wide(c->l.value)) || (c->r.kind == OPND_CONST && wide(c->r.value)) ||
                 wide_cond(c->a) || wide_cond(c->b));
}

static void widen_locations(test *t)
{
    bool any = wide_cond(t->cond);
    for (int th = 0; th < t->nthreads && !any; th++)
        any = wide_block(&t->threads[th].code);
    for (int l = 0; l < t->nlocs && any; l++)
        t->locs[l].type = TY_I64;
}

test *litmus_parse(const char *file, const char *text, diag *d, litmus_arch *arch)
{
    lp *p = calloc(1, sizeof *p);
    struct poscache posc = {0};
    p->posc = &posc;
    d->file = file;
    d->source = text;
    p->src = text;
    p->d = d;
    p->t = calloc(1, sizeof *p->t);
    p->t->file = strdup(file);
    p->t->source = strdup(text);
    bool ok = parse_all(p, arch);
    free_items(p);
    test *t = p->t;
    free(p);
    if (!ok || d->msg) {
        if (!d->msg)
            diag_error(d, 1, 1, "cannot parse the litmus test");
        test_free(t);
        return NULL;
    }
    widen_locations(t);
    return t;
}
