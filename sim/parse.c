/* Recursive-descent parser for .lit files.  Builds the shared IR and does
 * every static check (names, scopes, types, ranges), so later stages may
 * assume a well-formed test. */
#include "parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"

const char *const lit_model_names[] = {"src11", "ptx", "sc", "vulkan", NULL};

enum { MAX_GPUS = 64, MAX_INDEX = 1 << 20 };

typedef struct {
    lexer lx;
    diag *d;
    token tok;
    token ahead;
    bool have_ahead;
    test *t;
    thread *th;   /* thread being parsed */
    int kernel_capacity, loc_capacity, thread_capacity, expect_capacity;
} parser;

static bool failed(parser *p) { return p->d->msg != NULL; }

static void advance(parser *p)
{
    if (p->have_ahead) {
        p->tok = p->ahead;
        p->have_ahead = false;
    } else {
        p->tok = lex_next(&p->lx);
    }
}

static token *peek(parser *p)
{
    if (!p->have_ahead) {
        p->ahead = lex_next(&p->lx);
        p->have_ahead = true;
    }
    return &p->ahead;
}

#define ERR_AT(tk, ...) diag_error(p->d, (tk).line, (tk).col, __VA_ARGS__)
#define ERR(...) ERR_AT(p->tok, __VA_ARGS__)

static srcpos here(parser *p) { return (srcpos){p->tok.line, p->tok.col}; }

static char *tok_str(const token *t)
{
    char *s = malloc((size_t)t->len + 1);
    memcpy(s, t->start, (size_t)t->len);
    s[t->len] = 0;
    return s;
}

static void describe(const token *t, char *buf, size_t n)
{
    if (t->kind == T_IDENT || t->kind == T_INT || t->kind == T_FLOAT)
        snprintf(buf, n, "'%.*s'", t->len > 40 ? 40 : t->len, t->start);
    else
        snprintf(buf, n, "%s", tok_kind_name(t->kind));
}

static bool expect_tok(parser *p, tokkind_t k, const char *what)
{
    if (failed(p))
        return false;
    if (p->tok.kind != k) {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("expected %s %s, found %s", tok_kind_name(k), what, got);
        return false;
    }
    advance(p);
    return true;
}

static bool accept(parser *p, tokkind_t k)
{
    if (p->tok.kind == k) {
        advance(p);
        return true;
    }
    return false;
}

/* ---- names ---------------------------------------------------------- */

static int find_loc(const test *t, const char *s, int len)
{
    for (int i = 0; i < t->nlocs; i++)
        if ((int)strlen(t->locs[i].name) == len && memcmp(t->locs[i].name, s, (size_t)len) == 0)
            return i;
    return -1;
}

static int find_thread(const test *t, const char *s, int len)
{
    for (int i = 0; i < t->nthreads; i++)
        if ((int)strlen(t->threads[i].name) == len && memcmp(t->threads[i].name, s, (size_t)len) == 0)
            return i;
    return -1;
}

static int find_kernel(const test *t, const char *s, int len)
{
    for (int i = 0; i < t->nkernels; i++)
        if ((int)strlen(t->kernels[i].name) == len && memcmp(t->kernels[i].name, s, (size_t)len) == 0)
            return i;
    return -1;
}

static int find_reg(const thread *th, const char *s, int len)
{
    for (int i = 0; i < th->nregs; i++)
        if ((int)strlen(th->regs[i]) == len && memcmp(th->regs[i], s, (size_t)len) == 0)
            return i;
    return -1;
}

static const char *const reserved[] = {
    "test", "memory", "thread", "kernel", "in", "after", "if", "else", "await", "barrier", "exists",
    "forall", "expect", "true", "false", "ld", "st", "atom", "fence", NULL};

static bool is_reserved(const token *t)
{
    for (int i = 0; reserved[i]; i++)
        if (tok_is(t, reserved[i]))
            return true;
    return false;
}

static bool plain_ident(const token *t) { return t->kind == T_IDENT && memchr(t->start, '.', (size_t)t->len) == NULL; }

/* ---- vocabulary ------------------------------------------------------ */

static bool parse_scope_word(const char *w, scope_t *s)
{
    static const struct { const char *w; scope_t s; } tab[] = {
        {"wave", SCOPE_WAVE}, {"warp", SCOPE_WAVE}, {"wavefront", SCOPE_WAVE},
        {"wg", SCOPE_WG}, {"cta", SCOPE_WG}, {"workgroup", SCOPE_WG}, {"block", SCOPE_WG},
        {"agent", SCOPE_AGENT}, {"gpu", SCOPE_AGENT}, {"device", SCOPE_AGENT},
        {"sys", SCOPE_SYS}, {"system", SCOPE_SYS}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(w, tab[i].w) == 0) {
            *s = tab[i].s;
            return true;
        }
    return false;
}

static bool parse_order_word(const char *w, order_t *o)
{
    static const struct { const char *w; order_t o; } tab[] = {
        {"relaxed", ORD_RELAXED}, {"rlx", ORD_RELAXED}, {"acquire", ORD_ACQUIRE}, {"acq", ORD_ACQUIRE},
        {"release", ORD_RELEASE}, {"rel", ORD_RELEASE}, {"acq_rel", ORD_ACQ_REL},
        {"seq_cst", ORD_SEQ_CST}, {"sc", ORD_SEQ_CST}, {"weak", ORD_PLAIN}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(w, tab[i].w) == 0) {
            *o = tab[i].o;
            return true;
        }
    return false;
}

static bool parse_rmw_word(const char *w, rmwop_t *r)
{
    for (int i = RMW_ADD; i <= RMW_CAS; i++)
        if (strcmp(w, rmw_name((rmwop_t)i)) == 0) {
            *r = (rmwop_t)i;
            return true;
        }
    if (strcmp(w, "xchg") == 0) {
        *r = RMW_EXCH;
        return true;
    }
    return false;
}

static bool parse_cache_word(const char *w, cache_t *c)
{
    static const struct { const char *w; cache_t c; } tab[] = {
        {"wt", CACHE_WT}, {"cv", CACHE_CV}, {"cg", CACHE_CG}, {"ca", CACHE_CA}, {"cs", CACHE_CS}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(w, tab[i].w) == 0) {
            *c = tab[i].c;
            return true;
        }
    return false;
}

typedef struct {
    char head[16];
    bool has_order, has_scope, has_rmw;
    order_t ord;
    scope_t scope;
    rmwop_t rmw;
    cache_t cache;
} opcode;

/* Splits a dotted mnemonic such as atom.add.acq_rel.agent; the modifiers may
 * come in any order, each at most once. */
static bool parse_opcode(parser *p, const token *tk, opcode *op)
{
    memset(op, 0, sizeof *op);
    const char *s = tk->start, *end = tk->start + tk->len;
    int part = 0;
    while (s < end) {
        const char *dot = memchr(s, '.', (size_t)(end - s));
        const char *e = dot ? dot : end;
        char w[32];
        int n = (int)(e - s);
        int col = tk->col + (int)(s - tk->start);
        if (n >= (int)sizeof w) {
            diag_error(p->d, tk->line, col, "unknown modifier '%.*s'", n > 40 ? 40 : n, s);
            return false;
        }
        memcpy(w, s, (size_t)n);
        w[n] = 0;
        if (part == 0) {
            memcpy(op->head, w, (size_t)n + 1 < sizeof op->head ? (size_t)n + 1 : sizeof op->head);
            op->head[sizeof op->head - 1] = 0;
        } else {
            order_t o;
            scope_t sc;
            rmwop_t r;
            cache_t c;
            bool dup = false;
            if (parse_order_word(w, &o)) {
                dup = op->has_order;
                op->has_order = true;
                op->ord = o;
            } else if (parse_scope_word(w, &sc)) {
                dup = op->has_scope;
                op->has_scope = true;
                op->scope = sc;
            } else if (strcmp(op->head, "atom") == 0 && parse_rmw_word(w, &r)) {
                dup = op->has_rmw;
                op->has_rmw = true;
                op->rmw = r;
            } else if (parse_cache_word(w, &c)) {
                dup = op->cache != CACHE_NONE;
                op->cache = c;
            } else {
                diag_error(p->d, tk->line, col, "unknown modifier '%s' on '%s' (orders: relaxed acquire release acq_rel seq_cst; scopes: wave wg agent sys)", w, op->head);
                return false;
            }
            if (dup) {
                diag_error(p->d, tk->line, col, "modifier '%s' conflicts with an earlier one", w);
                return false;
            }
        }
        part++;
        s = dot ? dot + 1 : end;
    }
    return true;
}

/* ---- expressions ----------------------------------------------------- */

static expr *parse_expr(parser *p);

static int use_reg(parser *p, const token *tk)
{
    int r = p->th ? find_reg(p->th, tk->start, tk->len) : -1;
    if (r < 0) {
        if (find_loc(p->t, tk->start, tk->len) >= 0)
            ERR_AT(*tk, "'%.*s' is a memory location, not a register: read it with ld", tk->len, tk->start);
        else
            ERR_AT(*tk, "unknown register '%.*s' (assign it before using it)", tk->len, tk->start);
    }
    return r;
}

static expr *parse_primary(parser *p)
{
    srcpos pos = here(p);
    if (p->tok.kind == T_INT) {
        int64_t v = p->tok.ival;
        advance(p);
        return expr_const(v, pos);
    }
    if (p->tok.kind == T_FLOAT) {
        float f = (float)p->tok.fval;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        advance(p);
        return expr_const((int64_t)bits, pos);
    }
    if (p->tok.kind == T_IDENT && !is_reserved(&p->tok)) {
        token tk = p->tok;
        int r = use_reg(p, &tk);
        advance(p);
        return r < 0 ? NULL : expr_reg(r, pos);
    }
    if (accept(p, T_LPAREN)) {
        expr *e = parse_expr(p);
        if (!expect_tok(p, T_RPAREN, "to close '('")) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    char got[64];
    describe(&p->tok, got, sizeof got);
    ERR("expected a register, a number or '(', found %s", got);
    return NULL;
}

static expr *parse_unary(parser *p)
{
    srcpos pos = here(p);
    exprkind_t k;
    if (p->tok.kind == T_MINUS)
        k = EX_NEG;
    else if (p->tok.kind == T_BANG)
        k = EX_NOT;
    else if (p->tok.kind == T_TILDE)
        k = EX_BNOT;
    else
        return parse_primary(p);
    advance(p);
    expr *a = parse_unary(p);
    if (!a)
        return NULL;
    if (k == EX_NEG && a->kind == EX_CONST) {
        a->value = -a->value;
        return a;
    }
    expr *e = calloc(1, sizeof *e);
    e->kind = k;
    e->a = a;
    e->pos = pos;
    return e;
}

static int binop_prec(tokkind_t k, binop_t *op)
{
    switch (k) {
    case T_OROR: *op = BIN_LOR; return 1;
    case T_ANDAND: *op = BIN_LAND; return 2;
    case T_PIPE: *op = BIN_OR; return 3;
    case T_CARET: *op = BIN_XOR; return 4;
    case T_AMP: *op = BIN_AND; return 5;
    case T_EQ: *op = BIN_EQ; return 6;
    case T_NE: *op = BIN_NE; return 6;
    case T_LT: *op = BIN_LT; return 7;
    case T_LE: *op = BIN_LE; return 7;
    case T_GT: *op = BIN_GT; return 7;
    case T_GE: *op = BIN_GE; return 7;
    case T_SHL: *op = BIN_SHL; return 8;
    case T_SHR: *op = BIN_SHR; return 8;
    case T_PLUS: *op = BIN_ADD; return 9;
    case T_MINUS: *op = BIN_SUB; return 9;
    case T_STAR: *op = BIN_MUL; return 10;
    case T_SLASH: *op = BIN_DIV; return 10;
    case T_PERCENT: *op = BIN_MOD; return 10;
    default: return 0;
    }
}

/* `stop_at_eq` keeps == and != for the caller (await ... == v). */
static expr *parse_binary(parser *p, int min_prec, bool stop_at_eq)
{
    expr *a = parse_unary(p);
    while (a) {
        binop_t op;
        int prec = binop_prec(p->tok.kind, &op);
        if (prec < min_prec || prec == 0)
            break;
        if (stop_at_eq && prec <= 6)
            break;
        srcpos pos = here(p);
        advance(p);
        expr *b = parse_binary(p, prec + 1, stop_at_eq);
        if (!b) {
            expr_free(a);
            return NULL;
        }
        a = expr_bin(op, a, b, pos);
    }
    return a;
}

static expr *parse_expr(parser *p) { return parse_binary(p, 1, false); }

/* ---- memory operands -------------------------------------------------- */

static bool parse_memref(parser *p, memref *m)
{
    if (p->tok.kind != T_IDENT || !plain_ident(&p->tok)) {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("expected a memory location, found %s", got);
        return false;
    }
    m->loc = find_loc(p->t, p->tok.start, p->tok.len);
    if (m->loc < 0) {
        if (p->th && find_reg(p->th, p->tok.start, p->tok.len) >= 0)
            ERR("'%.*s' is a register, not a memory location", p->tok.len, p->tok.start);
        else
            ERR("unknown location '%.*s' (declare it in the memory block)", p->tok.len, p->tok.start);
        return false;
    }
    const location *L = &p->t->locs[m->loc];
    advance(p);
    m->index = NULL;
    if (p->tok.kind == T_LBRACK) {
        token open = p->tok;
        advance(p);
        token at = p->tok;
        m->index = parse_expr(p);
        if (!m->index || !expect_tok(p, T_RBRACK, "after the index"))
            return false;
        if (m->index->kind == EX_CONST && (m->index->value < 0 || m->index->value >= L->len)) {
            ERR_AT(at, "index %" PRId64 " is out of range for '%s' (%d element%s)", m->index->value, L->name,
                   L->len, L->len == 1 ? "" : "s");
            return false;
        }
        (void)open;
    } else if (L->len > 1 && p->th) {
        /* A bare array name means its first element, as in C. */
    }
    return true;
}

/* A value stored to a location must fit its type. */
static bool check_value_fits(parser *p, const location *L, expr *e)
{
    if (!e || e->kind != EX_CONST)
        return true;
    int64_t v = e->value;
    bool ok = true;
    switch (L->type) {
    case TY_I32: ok = v >= INT32_MIN && v <= INT32_MAX; break;
    case TY_U32: ok = v >= 0 && v <= (int64_t)UINT32_MAX; break;
    case TY_U64: ok = v >= 0; break;
    default: break;
    }
    if (!ok)
        diag_error(p->d, e->pos.line, e->pos.col, "value %" PRId64 " does not fit '%s' of type %s", v, L->name,
                   vtype_name(L->type));
    return ok;
}

/* ---- registers -------------------------------------------------------- */

static int def_reg(parser *p, const token *tk)
{
    if (!plain_ident(tk) || is_reserved(tk)) {
        ERR_AT(*tk, "'%.*s' cannot be a register name", tk->len, tk->start);
        return -1;
    }
    if (find_loc(p->t, tk->start, tk->len) >= 0) {
        ERR_AT(*tk, "'%.*s' is a memory location; a register cannot share its name", tk->len, tk->start);
        return -1;
    }
    int r = find_reg(p->th, tk->start, tk->len);
    if (r >= 0)
        return r;
    thread *th = p->th;
    th->regs = realloc(th->regs, (size_t)(th->nregs + 1) * sizeof *th->regs);
    th->regs[th->nregs] = tok_str(tk);
    return th->nregs++;
}

/* ---- statements ------------------------------------------------------- */

static bool parse_block(parser *p, block *b);

static bool check_access_order(parser *p, const token *tk, const opcode *op, bool is_load, bool is_store)
{
    if (is_load && (op->ord == ORD_RELEASE || op->ord == ORD_ACQ_REL)) {
        ERR_AT(*tk, "a load cannot have %s order (use acquire or seq_cst)", order_name(op->ord));
        return false;
    }
    if (is_store && (op->ord == ORD_ACQUIRE || op->ord == ORD_ACQ_REL)) {
        ERR_AT(*tk, "a store cannot have %s order (use release or seq_cst)", order_name(op->ord));
        return false;
    }
    if (!op->has_order && op->has_scope) {
        ERR_AT(*tk, "a scope needs an order: plain accesses have no scope (write e.g. %s.relaxed.%s)", op->head,
               scope_name(op->scope));
        return false;
    }
    return true;
}

/* dst = ld... | st... | atom... ; fills *in for memory instructions. */
static bool parse_memory_inst(parser *p, inst *in, int dst, bool in_await)
{
    token tk = p->tok;
    opcode op;
    if (!parse_opcode(p, &tk, &op))
        return false;
    in->pos = (srcpos){tk.line, tk.col};
    in->dst = dst;
    in->cache = op.cache;
    advance(p);
    if (strcmp(op.head, "ld") == 0) {
        if (!check_access_order(p, &tk, &op, true, false))
            return false;
        in->kind = I_LD;
        in->ord = op.has_order ? op.ord : ORD_PLAIN;
        in->scope = op.has_order && in->ord != ORD_PLAIN ? (op.has_scope ? op.scope : SCOPE_SYS) : SCOPE_NONE;
        return parse_memref(p, &in->mem);
    }
    if (strcmp(op.head, "st") == 0) {
        if (dst >= 0 || in_await) {
            ERR_AT(tk, "a store produces no value");
            return false;
        }
        if (!check_access_order(p, &tk, &op, false, true))
            return false;
        in->kind = I_ST;
        in->ord = op.has_order ? op.ord : ORD_PLAIN;
        in->scope = op.has_order && in->ord != ORD_PLAIN ? (op.has_scope ? op.scope : SCOPE_SYS) : SCOPE_NONE;
        if (!parse_memref(p, &in->mem) || !expect_tok(p, T_COMMA, "between the location and the value"))
            return false;
        in->val = parse_expr(p);
        return in->val && check_value_fits(p, &p->t->locs[in->mem.loc], in->val);
    }
    if (strcmp(op.head, "atom") == 0) {
        if (!op.has_rmw) {
            ERR_AT(tk, "atom needs an operation: add sub exch and or xor min max cas");
            return false;
        }
        in->kind = I_RMW;
        in->rmw = op.rmw;
        in->ord = op.has_order ? op.ord : ORD_RELAXED;
        if (in->ord == ORD_PLAIN) {
            ERR_AT(tk, "an atomic cannot be weak");
            return false;
        }
        in->scope = op.has_scope ? op.scope : SCOPE_SYS;
        if (!parse_memref(p, &in->mem) || !expect_tok(p, T_COMMA, "between the location and the operand"))
            return false;
        const location *L = &p->t->locs[in->mem.loc];
        if (L->type == TY_F32) {
            ERR_AT(tk, "integer atomics on f32 location '%s' are not supported", L->name);
            return false;
        }
        in->val = parse_expr(p);
        if (!in->val)
            return false;
        if (op.rmw == RMW_CAS) {
            if (!expect_tok(p, T_COMMA, "between the expected and the desired value of cas"))
                return false;
            in->val2 = parse_expr(p);
            if (!in->val2)
                return false;
            return check_value_fits(p, L, in->val2);
        }
        return true;
    }
    ERR_AT(tk, "expected ld, st or atom, found '%.*s'", tk.len, tk.start);
    return false;
}

static bool parse_await(parser *p, inst *in, int dst)
{
    advance(p); /* await */
    token tk = p->tok;
    if (tk.kind != T_IDENT) {
        ERR("expected a load or an atomic after await");
        return false;
    }
    opcode op;
    if (!parse_opcode(p, &tk, &op))
        return false;
    if (strcmp(op.head, "ld") != 0 && strcmp(op.head, "atom") != 0) {
        ERR_AT(tk, "await takes a load or an atomic, not '%s'", op.head);
        return false;
    }
    if (!parse_memory_inst(p, in, dst, true))
        return false;
    in->await_rmw = in->kind == I_RMW;
    in->kind = I_AWAIT;
    in->pos = (srcpos){tk.line, tk.col};
    if (p->tok.kind == T_EQ || p->tok.kind == T_NE) {
        in->await_ne = p->tok.kind == T_NE;
        advance(p);
    } else {
        ERR("expected '==' or '!=' and the awaited value");
        return false;
    }
    expr *want = parse_expr(p);
    if (!want)
        return false;
    if (in->await_rmw && in->rmw != RMW_CAS) {
        expr_free(want);
        ERR_AT(tk, "await on an atomic needs atom.cas (a spin on a CAS used as a read)");
        return false;
    }
    in->want = want;
    return true;
}

static bool parse_stmt(parser *p, block *b)
{
    inst in = {0};
    in.dst = -1;
    in.pos = here(p);
    token tk = p->tok;
    bool ok = false;
    if (tk.kind != T_IDENT) {
        char got[64];
        describe(&tk, got, sizeof got);
        ERR("expected an instruction, found %s", got);
        return false;
    }
    if (tok_is(&tk, "if")) {
        advance(p);
        in.kind = I_IF;
        in.val = parse_expr(p);
        ok = in.val && parse_block(p, &in.body);
        if (ok && tok_is(&p->tok, "else")) {
            advance(p);
            if (tok_is(&p->tok, "if")) {
                ok = parse_stmt(p, &in.els);
            } else {
                ok = parse_block(p, &in.els);
            }
        }
    } else if (tok_is(&tk, "barrier") || tok_is(&tk, "bar.sync") || tok_is(&tk, "__syncthreads")) {
        advance(p);
        in.kind = I_BARRIER;
        ok = true;
    } else if (tok_is(&tk, "await")) {
        ok = parse_await(p, &in, -1);
    } else if (tk.len > 6 && strncmp(tk.start, "fence.", 6) == 0) {
        opcode op;
        ok = parse_opcode(p, &tk, &op);
        if (ok && (!op.has_order || op.ord == ORD_PLAIN || op.ord == ORD_RELAXED)) {
            ERR("a fence needs an order: fence.acquire, fence.release, fence.acq_rel or fence.sc");
            ok = false;
        }
        advance(p);
        in.kind = I_FENCE;
        in.ord = op.ord;
        in.scope = op.has_scope ? op.scope : SCOPE_SYS;
    } else if (tok_is(&tk, "fence")) {
        ERR("a fence needs an order and a scope, e.g. fence.acq_rel.agent");
    } else if (peek(p)->kind == T_ASSIGN) {
        int dst = def_reg(p, &tk);
        if (dst < 0)
            return false;
        advance(p);
        advance(p);
        token rhs = p->tok;
        if (tok_is(&rhs, "await")) {
            ok = parse_await(p, &in, dst);
        } else if (rhs.kind == T_IDENT && (tok_is(&rhs, "ld") || tok_is(&rhs, "atom") || tok_is(&rhs, "st") ||
                                           (rhs.len > 3 && (strncmp(rhs.start, "ld.", 3) == 0 || strncmp(rhs.start, "st.", 3) == 0)) ||
                                           (rhs.len > 5 && strncmp(rhs.start, "atom.", 5) == 0))) {
            ok = parse_memory_inst(p, &in, dst, false);
        } else {
            in.kind = I_ASSIGN;
            in.dst = dst;
            in.val = parse_expr(p);
            ok = in.val != NULL;
        }
    } else if (tok_is(&tk, "st") || tok_is(&tk, "atom") || tok_is(&tk, "ld") ||
               (tk.len > 3 && (strncmp(tk.start, "st.", 3) == 0 || strncmp(tk.start, "ld.", 3) == 0)) ||
               (tk.len > 5 && strncmp(tk.start, "atom.", 5) == 0)) {
        ok = parse_memory_inst(p, &in, -1, false);
    } else {
        ERR("unknown instruction '%.*s'", tk.len, tk.start);
    }
    if (ok && !failed(p)) {
        block_push(b, &in);
        while (accept(p, T_SEMI))
            ;
        return true;
    }
    expr_free(in.val);
    expr_free(in.val2);
    expr_free(in.want);
    expr_free(in.mem.index);
    block_free(&in.body);
    block_free(&in.els);
    return false;
}

static bool parse_block(parser *p, block *b)
{
    if (!expect_tok(p, T_LBRACE, "to open a block"))
        return false;
    while (p->tok.kind != T_RBRACE) {
        if (p->tok.kind == T_EOF) {
            if (!failed(p))
                ERR("missing '}': the block is not closed");
            return false;
        }
        if (!parse_stmt(p, b))
            return false;
    }
    advance(p);
    return true;
}

/* ---- declarations ------------------------------------------------------ */

static bool parse_gpu_word(parser *p, const token *tk, const char *s, int len, int *gpu)
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

static void grow(void **v, int n, int *cap, size_t size)
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

static bool parse_memory(parser *p)
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

static bool parse_kernel(parser *p)
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

static bool parse_thread(parser *p)
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

static cond *parse_cond_or(parser *p);

static bool parse_operand(parser *p, operand *o)
{
    test *t = p->t;
    o->pos = here(p);
    bool neg = false;
    if (p->tok.kind == T_MINUS) {
        neg = true;
        advance(p);
    }
    if ((p->tok.kind == T_INT || p->tok.kind == T_IDENT) && peek(p)->kind == T_COLON && !neg) {
        int th = -1;
        if (p->tok.kind == T_INT)
            th = p->tok.ival < t->nthreads ? (int)p->tok.ival : -1;
        else
            th = find_thread(t, p->tok.start, p->tok.len);
        if (th < 0) {
            ERR("unknown thread '%.*s'", p->tok.len, p->tok.start);
            return false;
        }
        advance(p);
        advance(p);
        int r = p->tok.kind == T_IDENT ? find_reg(&t->threads[th], p->tok.start, p->tok.len) : -1;
        if (r < 0) {
            ERR("thread '%s' has no register '%.*s'", t->threads[th].name, p->tok.len, p->tok.start);
            return false;
        }
        o->kind = OPND_REG;
        o->thread = th;
        o->reg = r;
        advance(p);
        return true;
    }
    if (p->tok.kind == T_INT) {
        o->kind = OPND_CONST;
        o->value = neg ? -p->tok.ival : p->tok.ival;
        advance(p);
        return true;
    }
    if (p->tok.kind == T_FLOAT) {
        float f = (float)(neg ? -p->tok.fval : p->tok.fval);
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        o->kind = OPND_CONST;
        o->value = bits;
        advance(p);
        return true;
    }
    if (p->tok.kind == T_IDENT && !neg) {
        int l = find_loc(t, p->tok.start, p->tok.len);
        if (l < 0) {
            ERR("unknown location '%.*s' in the condition (write THREAD:REG for a register)", p->tok.len, p->tok.start);
            return false;
        }
        advance(p);
        int idx = 0;
        if (accept(p, T_LBRACK)) {
            if (p->tok.kind != T_INT) {
                ERR("expected a constant index");
                return false;
            }
            if (p->tok.ival >= t->locs[l].len) {
                ERR("index %" PRId64 " is out of range for '%s' (%d elements)", p->tok.ival, t->locs[l].name,
                    t->locs[l].len);
                return false;
            }
            idx = (int)p->tok.ival;
            advance(p);
            if (!expect_tok(p, T_RBRACK, "after the index"))
                return false;
        }
        o->kind = OPND_MEM;
        o->cell = t->locs[l].first_cell + idx;
        return true;
    }
    char got[64];
    describe(&p->tok, got, sizeof got);
    ERR("expected THREAD:REG, a location or a number, found %s", got);
    return false;
}

/* Integer constants compared with an f32 location mean that float. */
static void coerce_float_const(const test *t, operand *c, const operand *other)
{
    if (c->kind != OPND_CONST || other->kind != OPND_MEM)
        return;
    int l = cell_loc(t, other->cell);
    if (l >= 0 && t->locs[l].type == TY_F32 && c->value >= -16777216 && c->value <= 16777216) {
        float f = (float)c->value;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        c->value = bits;
    }
}

static cond *parse_cond_atom(parser *p)
{
    cond *c = calloc(1, sizeof *c);
    c->pos = here(p);
    if (p->tok.kind == T_BANG || p->tok.kind == T_TILDE) {
        advance(p);
        c->kind = C_NOT;
        c->a = parse_cond_atom(p);
        if (!c->a) {
            cond_free(c);
            return NULL;
        }
        return c;
    }
    if (accept(p, T_LPAREN)) {
        free(c);
        c = parse_cond_or(p);
        if (c && !expect_tok(p, T_RPAREN, "to close '('")) {
            cond_free(c);
            return NULL;
        }
        return c;
    }
    if (tok_is(&p->tok, "true") || tok_is(&p->tok, "false")) {
        c->kind = tok_is(&p->tok, "true") ? C_TRUE : C_FALSE;
        advance(p);
        return c;
    }
    c->kind = C_CMP;
    if (!parse_operand(p, &c->l)) {
        free(c);
        return NULL;
    }
    if (p->tok.kind == T_EQ || p->tok.kind == T_ASSIGN) {
        c->ne = false;
    } else if (p->tok.kind == T_NE) {
        c->ne = true;
    } else {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("expected '==' or '!=' in the condition, found %s", got);
        free(c);
        return NULL;
    }
    advance(p);
    if (!parse_operand(p, &c->r)) {
        free(c);
        return NULL;
    }
    coerce_float_const(p->t, &c->r, &c->l);
    coerce_float_const(p->t, &c->l, &c->r);
    return c;
}

static cond *parse_cond_and(parser *p)
{
    cond *a = parse_cond_atom(p);
    while (a && p->tok.kind == T_ANDAND) {
        srcpos pos = here(p);
        advance(p);
        cond *b = parse_cond_atom(p);
        if (!b) {
            cond_free(a);
            return NULL;
        }
        cond *c = calloc(1, sizeof *c);
        c->kind = C_AND;
        c->a = a;
        c->b = b;
        c->pos = pos;
        a = c;
    }
    return a;
}

static cond *parse_cond_or(parser *p)
{
    cond *a = parse_cond_and(p);
    while (a && p->tok.kind == T_OROR) {
        srcpos pos = here(p);
        advance(p);
        cond *b = parse_cond_and(p);
        if (!b) {
            cond_free(a);
            return NULL;
        }
        cond *c = calloc(1, sizeof *c);
        c->kind = C_OR;
        c->a = a;
        c->b = b;
        c->pos = pos;
        a = c;
    }
    return a;
}

static bool parse_condition(parser *p, quant_t q)
{
    if (p->t->cond) {
        ERR("a test has one final condition");
        return false;
    }
    advance(p);
    p->t->quant = q;
    p->t->cond = parse_cond_or(p);
    return p->t->cond != NULL;
}

static bool parse_expect(parser *p)
{
    test *t = p->t;
    advance(p);
    expectation e = {0};
    e.pos = here(p);
    if (p->tok.kind == T_IDENT && peek(p)->kind == T_COLON) {
        bool known = false;
        for (int i = 0; lit_model_names[i]; i++)
            known = known || tok_is(&p->tok, lit_model_names[i]);
        if (!known) {
            ERR("unknown model '%.*s' (models: src11 ptx sc vulkan)", p->tok.len, p->tok.start);
            return false;
        }
        e.model = tok_str(&p->tok);
        advance(p);
        advance(p);
    }
    int v = -1;
    for (int i = V_ALLOWED; i <= V_HANG; i++)
        if (tok_is(&p->tok, verdict_name((verdict_t)i)))
            v = i;
    if (v < 0) {
        char got[64];
        describe(&p->tok, got, sizeof got);
        ERR("expected allowed, forbidden, race, holds, fails or hang, found %s", got);
        free(e.model);
        return false;
    }
    e.verdict = (verdict_t)v;
    advance(p);
    grow((void **)&t->expects, t->nexpects, &p->expect_capacity, sizeof *t->expects);
    t->expects[t->nexpects++] = e;
    return true;
}

/* ---- whole file --------------------------------------------------------- */

static bool finish(parser *p)
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

test *lit_parse(const char *file, const char *text, diag *d)
{
    parser P = {0}, *p = &P;
    d->file = file;
    d->source = text;
    p->d = d;
    p->t = calloc(1, sizeof *p->t);
    p->t->file = strdup(file);
    p->t->source = strdup(text);
    lex_init(&p->lx, text, d);
    advance(p);
    while (!failed(p) && p->tok.kind != T_EOF) {
        token tk = p->tok;
        if (tok_is(&tk, "test")) {
            if (p->t->name) {
                ERR("a file holds one test ('test' appears twice)");
                break;
            }
            int line, col;
            if (p->have_ahead) {
                ERR("internal: lookahead before test name");
                break;
            }
            p->t->name = lex_rest_of_line(&p->lx, &line, &col);
            if (!p->t->name[0]) {
                ERR("'test' needs a name");
                break;
            }
            advance(p);
        } else if (tok_is(&tk, "memory")) {
            if (p->t->nthreads) {
                ERR("the memory block must come before the threads");
                break;
            }
            parse_memory(p);
        } else if (tok_is(&tk, "kernel")) {
            parse_kernel(p);
        } else if (tok_is(&tk, "thread")) {
            parse_thread(p);
        } else if (tok_is(&tk, "exists")) {
            parse_condition(p, Q_EXISTS);
        } else if (tok_is(&tk, "forall")) {
            parse_condition(p, Q_FORALL);
        } else if (tk.kind == T_TILDE || tok_is(&tk, "not") || tk.kind == T_BANG) {
            advance(p);
            if (!tok_is(&p->tok, "exists")) {
                ERR("expected 'exists' after '~'");
                break;
            }
            parse_condition(p, Q_NOT_EXISTS);
        } else if (tok_is(&tk, "expect")) {
            parse_expect(p);
        } else {
            char got[64];
            describe(&tk, got, sizeof got);
            ERR("expected test, memory, kernel, thread, exists, forall or expect, found %s", got);
        }
    }
    if (!failed(p))
        finish(p);
    if (failed(p)) {
        test_free(p->t);
        return NULL;
    }
    return p->t;
}

test *lit_parse_file(const char *path, diag *d)
{
    d->file = path;
    d->source = "";
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_error(d, 0, 0, "cannot open the file");
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 >= cap) {
            if (cap > (64u << 20)) {
                fclose(f);
                free(buf);
                diag_error(d, 0, 0, "file too large");
                return NULL;
            }
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        free(buf);
        diag_error(d, 1, 1, "the file contains a NUL byte: not a .lit text file");
        return NULL;
    }
    test *t = lit_parse(path, buf, d);
    free(buf);
    d->source = NULL;
    return t;
}
