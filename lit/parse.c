/* The .lit parser: tokens, names, expressions and statements, and the
 * top-level driver.  Every static check (names, scopes, types, ranges) is
 * done here or in parse_decl.c / parse_cond.c, so later stages may assume a
 * well-formed test. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_internal.h"

const char *const lit_model_names[] = {"src11", "ptx", "sc", "vulkan", NULL};

bool failed(parser *p) { return p->d->msg != NULL; }


bool nest_in(parser *p)
{
    if (++p->depth <= IR_MAX_NESTING)
        return true;
    p->depth--;
    if (!failed(p))
        diag_error(p->d, p->tok.line, p->tok.col, "nested more than %d deep (each block, else if, parenthesis, unary "
                   "operator and operator of a chain is a level)", IR_MAX_NESTING);
    return false;
}

void advance(parser *p)
{
    if (p->have_ahead) {
        p->tok = p->ahead;
        p->have_ahead = false;
    } else {
        p->tok = lex_next(&p->lx);
    }
}

token *peek(parser *p)
{
    if (!p->have_ahead) {
        p->ahead = lex_next(&p->lx);
        p->have_ahead = true;
    }
    return &p->ahead;
}

#define ERR_AT(tk, ...) diag_error(p->d, (tk).line, (tk).col, __VA_ARGS__)
#define ERR(...) ERR_AT(p->tok, __VA_ARGS__)

srcpos here(parser *p) { return (srcpos){p->tok.line, p->tok.col}; }

char *tok_str(const token *t)
{
    char *s = malloc((size_t)t->len + 1);
    memcpy(s, t->start, (size_t)t->len);
    s[t->len] = 0;
    return s;
}

void describe(const token *t, char *buf, size_t n)
{
    if (t->kind == T_IDENT || t->kind == T_INT || t->kind == T_FLOAT)
        snprintf(buf, n, "'%.*s'", t->len > 40 ? 40 : t->len, t->start);
    else
        snprintf(buf, n, "%s", tok_kind_name(t->kind));
}

bool expect_tok(parser *p, tokkind_t k, const char *what)
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

bool accept(parser *p, tokkind_t k)
{
    if (p->tok.kind == k) {
        advance(p);
        return true;
    }
    return false;
}

/* ---- names ---------------------------------------------------------- */

int find_loc(const test *t, const char *s, int len)
{
    for (int i = 0; i < t->nlocs; i++)
        if ((int)strlen(t->locs[i].name) == len && memcmp(t->locs[i].name, s, (size_t)len) == 0)
            return i;
    return -1;
}

int find_thread(const test *t, const char *s, int len)
{
    for (int i = 0; i < t->nthreads; i++)
        if ((int)strlen(t->threads[i].name) == len && memcmp(t->threads[i].name, s, (size_t)len) == 0)
            return i;
    return -1;
}

int find_kernel(const test *t, const char *s, int len)
{
    for (int i = 0; i < t->nkernels; i++)
        if ((int)strlen(t->kernels[i].name) == len && memcmp(t->kernels[i].name, s, (size_t)len) == 0)
            return i;
    return -1;
}

int find_reg(const thread *th, const char *s, int len)
{
    for (int i = 0; i < th->nregs; i++)
        if ((int)strlen(th->regs[i]) == len && memcmp(th->regs[i], s, (size_t)len) == 0)
            return i;
    return -1;
}

static const char *const reserved[] = {
    "test", "memory", "thread", "kernel", "in", "after", "if", "else", "await", "barrier", "exists",
    "forall", "expect", "true", "false", "ld", "st", "atom", "fence", "for", "while", "do", "step", "const", "heap", "host",
    "launch", "sync", "fill", "target", "translate", NULL};

bool is_reserved(const token *t)
{
    for (int i = 0; reserved[i]; i++)
        if (tok_is(t, reserved[i]))
            return true;
    return false;
}

bool lit_reserved_word(const char *s)
{
    for (int i = 0; reserved[i]; i++)
        if (strcmp(s, reserved[i]) == 0)
            return true;
    return false;
}

bool plain_ident(const token *t) { return t->kind == T_IDENT && memchr(t->start, '.', (size_t)t->len) == NULL; }

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
    if (strcmp(w, "fadd") == 0) {
        *r = RMW_FADD;
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
        {"wt", CACHE_WT}, {"cv", CACHE_CV}, {"cg", CACHE_CG}, {"ca", CACHE_CA}, {"cs", CACHE_CS},
        {"wb", CACHE_WB}, {"volatile", CACHE_VOLATILE}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(w, tab[i].w) == 0) {
            *c = tab[i].c;
            return true;
        }
    return false;
}

typedef struct {
    char head[16];
    bool has_order, has_scope, has_rmw, has_fail, unsafe;
    order_t ord, fail_ord;
    scope_t scope;
    rmwop_t rmw;
    cache_t cache;
    bool has_proxy, proxy_kw, alias;  /* .texture/.surface/.constant/.generic; fence.proxy; .alias */
    uint8_t proxy;
} opcode;

/* PTX proxies (model ptx75, docs/models.md §4b): generic texture surface constant. */
static bool parse_proxy_word(const char *w, uint8_t *out)
{
    static const char *const names[] = {"generic", "surface", "texture", "constant"};
    for (int i = 0; i < 4; i++)
        if (strcmp(w, names[i]) == 0) {
            *out = (uint8_t)i;
            return true;
        }
    return false;
}

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
            if (strncmp(w, "fail_", 5) == 0 && parse_order_word(w + 5, &o) && o != ORD_PLAIN && o != ORD_RELEASE &&
                o != ORD_ACQ_REL) {
                dup = op->has_fail;
                op->has_fail = true;
                op->fail_ord = o;
            } else if (strcmp(w, "unsafe") == 0) {
                dup = op->unsafe;
                op->unsafe = true;
            } else if (parse_order_word(w, &o)) {
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
            } else if (parse_proxy_word(w, &op->proxy) || strcmp(w, "alias") == 0) {
                dup = op->has_proxy || op->alias;
                op->alias = strcmp(w, "alias") == 0;
                op->has_proxy = !op->alias;
            } else if (strcmp(w, "proxy") == 0 && strcmp(op->head, "fence") == 0) {
                dup = op->proxy_kw;
                op->proxy_kw = true;
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
    if (tok_is(&p->tok, "translate")) {
        advance(p);
        expr *e = calloc(1, sizeof *e);
        e->kind = EX_TRANSLATE;
        e->pos = pos;
        if (!expect_tok(p, T_LPAREN, "after translate") || !(e->a = parse_expr(p)) ||
            !expect_tok(p, T_COMMA, "after the pointer") || !(e->b = parse_expr(p)) ||
            !expect_tok(p, T_COMMA, "after the rank it is from") || !(e->c = parse_expr(p)) ||
            !expect_tok(p, T_RPAREN, "to close translate(ptr, from, to)")) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    if (p->tok.kind == T_IDENT && !is_reserved(&p->tok)) {
        token tk = p->tok;
        int k = find_const(p, tk.start, tk.len);
        if (k >= 0 && !(p->th && find_reg(p->th, tk.start, tk.len) >= 0)) {
            advance(p);
            return expr_const(p->const_values[k], pos);
        }
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

static expr *parse_unary_nested(parser *p);

static expr *parse_unary(parser *p)
{
    if (!nest_in(p))
        return NULL;
    expr *e = parse_unary_nested(p);
    p->depth--;
    return e;
}

static expr *parse_unary_nested(parser *p)
{
    srcpos pos = here(p);
    exprkind_t k;
    if (p->tok.kind == T_MINUS)
        k = EX_NEG;
    else if (p->tok.kind == T_BANG)
        k = EX_NOT;
    else if (p->tok.kind == T_TILDE)
        k = EX_BNOT;
    else if (p->tok.kind == T_AMP) {
        /* &var[index]: an address in the thread's own symmetric heap. */
        advance(p);
        int v = p->tok.kind == T_IDENT ? find_symvar(p->t, p->tok.start, p->tok.len) : -1;
        if (v < 0) {
            ERR("'&' takes a variable of the symmetric heap");
            return NULL;
        }
        advance(p);
        expr *e = calloc(1, sizeof *e);
        e->kind = EX_ADDR;
        e->symvar = v;
        e->rank = -1;
        e->pos = pos;
        if (accept(p, T_LBRACK)) {
            e->a = parse_expr(p);
            if (!e->a || !expect_tok(p, T_RBRACK, "after the index")) {
                expr_free(e);
                return NULL;
            }
        }
        return e;
    } else
        return parse_primary(p);
    advance(p);
    expr *a = parse_unary(p);
    if (!a)
        return NULL;
    if (k == EX_NEG && a->kind == EX_CONST) {
        if (a->value == INT64_MIN) {
            diag_error(p->d, pos.line, pos.col, "constant expression overflows 64 bits");
            expr_free(a);
            return NULL;
        }
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

/* `stop_at_eq` keeps comparisons for the caller (await ... >= v). */
/* Each operator a chain adds makes the tree one deeper (a - b - c is (a - b) - c), so it counts as nesting: the
   walks over expressions recurse once per level. */
static expr *parse_binary(parser *p, int min_prec, bool stop_at_eq)
{
    expr *a = parse_unary(p);
    int levels = 0;
    while (a) {
        binop_t op;
        int prec = binop_prec(p->tok.kind, &op);
        if (prec < min_prec || prec == 0)
            break;
        if (stop_at_eq && prec <= 7)
            break;
        if (!nest_in(p)) {
            expr_free(a);
            a = NULL;
            break;
        }
        levels++;
        srcpos pos = here(p);
        advance(p);
        expr *b = parse_binary(p, prec + 1, stop_at_eq);
        if (!b) {
            expr_free(a);
            a = NULL;
            break;
        }
        a = expr_bin(op, a, b, pos);
    }
    p->depth -= levels;
    return a;
}

expr *parse_expr(parser *p) { return parse_binary(p, 1, p->stop_at_eq); }

/* Arithmetic only, stopping at comparisons: an operand of a condition. */
expr *parse_arith(parser *p) { return parse_binary(p, 8, true); }

/* ---- memory operands -------------------------------------------------- */

bool parse_memref(parser *p, memref *m)
{
    m->symvar = -1;
    m->peer = m->ptr = m->index = NULL;
    if (accept(p, T_LBRACK)) {
        /* [ptr]: an address computed by the program (&var, translate). */
        m->loc = -1;
        m->ptr = parse_expr(p);
        return m->ptr && expect_tok(p, T_RBRACK, "after the pointer");
    }
    if (p->tok.kind == T_IDENT && find_symvar(p->t, p->tok.start, p->tok.len) >= 0) {
        const symvar *V = &p->t->heap.vars[find_symvar(p->t, p->tok.start, p->tok.len)];
        m->symvar = (int)(V - p->t->heap.vars);
        m->loc = -1;
        advance(p);
        if (accept(p, T_AT)) {
            /* var@peer: Iris's translate of &var from this rank to peer. */
            if (p->tok.kind == T_LPAREN) {
                advance(p);
                m->peer = parse_expr(p);
                if (!m->peer || !expect_tok(p, T_RPAREN, "after the rank"))
                    return false;
            } else if (p->tok.kind == T_INT || p->tok.kind == T_IDENT) {
                token tk = p->tok;
                expr *e = parse_primary(p);
                if (!e)
                    return false;
                (void)tk;
                m->peer = e;
            } else {
                ERR("expected a rank after '@' (a number, a register or (expression))");
                return false;
            }
        }
        if (p->tok.kind == T_LBRACK) {
            advance(p);
            token at = p->tok;
            m->index = parse_expr(p);
            if (!m->index || !expect_tok(p, T_RBRACK, "after the index"))
                return false;
            if (m->index->kind == EX_CONST && (m->index->value < 0 || m->index->value >= V->len)) {
                ERR_AT(at, "index %" PRId64 " is out of range for '%s' (%d element%s)", m->index->value, V->name, V->len,
                       V->len == 1 ? "" : "s");
                return false;
            }
        }
        return true;
    }
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
bool check_value_fits(parser *p, const location *L, expr *e)
{
    if (!e || e->kind != EX_CONST)
        return true;
    int64_t v = e->value;
    bool ok = true;
    switch (L->type) {
    case TY_I32: ok = v >= INT32_MIN && v <= INT32_MAX; break;
    case TY_I8: ok = v >= INT8_MIN && v <= INT8_MAX; break;
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

int def_reg(parser *p, const token *tk)
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
/* The type and name of what a memory operand names; false for [ptr], whose
 * target is only known when the thread runs. */
static bool memref_type(const parser *p, const memref *m, vtype_t *ty, const char **name)
{
    if (m->loc >= 0) {
        *ty = p->t->locs[m->loc].type;
        *name = p->t->locs[m->loc].name;
        return true;
    }
    if (m->symvar >= 0) {
        *ty = p->t->heap.vars[m->symvar].type;
        *name = p->t->heap.vars[m->symvar].name;
        return true;
    }
    return false;
}

static bool value_fits(parser *p, const memref *m, expr *e)
{
    vtype_t ty;
    const char *name;
    if (!memref_type(p, m, &ty, &name))
        return true;
    location L = {.name = (char *)name, .type = ty};
    return check_value_fits(p, &L, e);
}

/* An integer constant added to an f32 location means that float. */
static void float_operand(expr *e)
{
    if (e && e->kind == EX_CONST && e->value >= -16777216 && e->value <= 16777216) {
        float f = (float)e->value;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        e->value = bits;
    }
}

static bool parse_memory_inst(parser *p, inst *in, int dst, bool in_await)
{
    token tk = p->tok;
    opcode op;
    if (!parse_opcode(p, &tk, &op))
        return false;
    in->pos = (srcpos){tk.line, tk.col};
    in->dst = dst;
    in->cache = op.cache;
    if (op.alias) {
        ERR_AT(tk, ".alias belongs on fence.proxy only");
        return false;
    }
    if (op.has_proxy) {
        in->proxy = op.proxy;
        p->t->uses_proxies = true;
    }
    advance(p);
    bool is_ld = strcmp(op.head, "ld") == 0, is_st = strcmp(op.head, "st") == 0, is_atom = strcmp(op.head, "atom") == 0;
    if (op.has_fail && !(is_atom && op.has_rmw && op.rmw == RMW_CAS)) {
        ERR_AT(tk, "a failure order (fail_...) belongs on atom.cas only");
        return false;
    }
    if (op.unsafe && !(is_atom && op.has_rmw && op.rmw == RMW_FADD)) {
        ERR_AT(tk, ".unsafe belongs on atom.fadd only (a hardware floating-point atomic)");
        return false;
    }
    if (is_ld) {
        if (!check_access_order(p, &tk, &op, true, false))
            return false;
        in->kind = I_LD;
        in->ord = op.has_order ? op.ord : ORD_PLAIN;
        in->scope = op.has_order && in->ord != ORD_PLAIN ? (op.has_scope ? op.scope : SCOPE_SYS) : SCOPE_NONE;
        return parse_memref(p, &in->mem);
    }
    if (is_st) {
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
        return in->val && value_fits(p, &in->mem, in->val);
    }
    if (is_atom) {
        if (!op.has_rmw) {
            ERR_AT(tk, "atom needs an operation: add sub exch and or xor min max cas fadd");
            return false;
        }
        in->kind = I_RMW;
        in->rmw = op.rmw;
        in->ord = op.has_order ? op.ord : ORD_RELAXED;
        in->fail_ord = op.has_fail ? op.fail_ord : ORD_RELAXED;
        in->unsafe = op.unsafe;
        if (in->ord == ORD_PLAIN) {
            ERR_AT(tk, "an atomic cannot be weak");
            return false;
        }
        in->scope = op.has_scope ? op.scope : SCOPE_SYS;
        if (!parse_memref(p, &in->mem) || !expect_tok(p, T_COMMA, "between the location and the operand"))
            return false;
        vtype_t ty;
        const char *name;
        if (memref_type(p, &in->mem, &ty, &name)) {
            if (ty == TY_F32 && op.rmw != RMW_FADD && op.rmw != RMW_EXCH && op.rmw != RMW_CAS) {
                ERR_AT(tk, "type mismatch: '%s' is f32; use atom.fadd (integer atom.%s needs an integer type)", name,
                       rmw_name(op.rmw));
                return false;
            }
            if (ty != TY_F32 && op.rmw == RMW_FADD) {
                ERR_AT(tk, "type mismatch: atom.fadd needs an f32 location, and '%s' is %s", name, vtype_name(ty));
                return false;
            }
        }
        in->val = parse_expr(p);
        if (!in->val)
            return false;
        if (op.rmw == RMW_FADD)
            float_operand(in->val);
        if (op.rmw == RMW_CAS) {
            if (!expect_tok(p, T_COMMA, "between the expected and the desired value of cas"))
                return false;
            in->val2 = parse_expr(p);
            if (!in->val2)
                return false;
            return value_fits(p, &in->mem, in->val2);
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
    p->stop_at_eq = true;
    bool ok = parse_memory_inst(p, in, dst, true);
    p->stop_at_eq = false;
    if (!ok)
        return false;
    in->await_rmw = in->kind == I_RMW;
    in->kind = I_AWAIT;
    in->pos = (srcpos){tk.line, tk.col};
    static const struct {
        tokkind_t tok;
        binop_t op;
    } cmp[] = {{T_EQ, BIN_EQ}, {T_NE, BIN_NE}, {T_LT, BIN_LT}, {T_LE, BIN_LE}, {T_GT, BIN_GT}, {T_GE, BIN_GE}};
    int k = 0;
    while (k < 6 && p->tok.kind != cmp[k].tok)
        k++;
    if (k == 6) {
        ERR("expected a comparison (== != < <= > >=) and the awaited value");
        return false;
    }
    in->await_op = cmp[k].op;
    advance(p);
    expr *want = parse_binary(p, 8, false);
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
    if (tok_is(&tk, "for")) {
        /* for i in A..B [step S] { body }: bounds known when the thread runs. */
        advance(p);
        token var = p->tok;
        in.kind = I_FOR;
        in.dst = def_reg(p, &var);
        if (in.dst < 0)
            return false;
        advance(p);
        if (!tok_is(&p->tok, "in")) {
            ERR("expected 'in' after the loop variable, as in: for i in 0..4 { ... }");
            return false;
        }
        advance(p);
        in.val = parse_expr(p);
        if (in.val && expect_tok(p, T_DOTDOT, "between the loop bounds (for i in 0..N)"))
            in.val2 = parse_expr(p);
        if (in.val2 && tok_is(&p->tok, "step")) {
            advance(p);
            in.want = parse_expr(p);
            ok = in.want != NULL;
        } else {
            ok = in.val2 != NULL;
        }
        ok = ok && parse_block(p, &in.body);
    } else if (tok_is(&tk, "while") || tok_is(&tk, "do")) {
        /* while COND [bound N] { body }  /  do { body } while COND [bound N]:
         * unrolled to N iterations (default: the test's loop bound). */
        advance(p);
        in.kind = I_WHILE;
        in.do_while = tok_is(&tk, "do");
        int while_line = tk.line;
        if (in.do_while) {
            ok = parse_block(p, &in.body);
            if (ok && !tok_is(&p->tok, "while")) {
                ERR("expected 'while CONDITION' after the body of 'do { ... }'");
                ok = false;
            } else if (ok) {
                while_line = p->tok.line;
                advance(p);
            }
            ok = ok && (in.val = parse_expr(p)) != NULL;
        } else {
            ok = (in.val = parse_expr(p)) != NULL;
        }
        /* `bound` on the line of `while` (a register named bound may start the next statement) */
        if (ok && tok_is(&p->tok, "bound") && p->tok.line == while_line) {
            advance(p);
            ok = (in.val2 = parse_expr(p)) != NULL;
        }
        if (ok && !in.do_while)
            ok = parse_block(p, &in.body);
    } else if (tok_is(&tk, "if")) {
        advance(p);
        in.kind = I_IF;
        in.val = parse_expr(p);
        ok = in.val && parse_block(p, &in.body);
        if (ok && tok_is(&p->tok, "else")) {
            advance(p);
            if (tok_is(&p->tok, "if")) {
                /* else if: the if is a block of its own in the IR, one level deeper */
                ok = nest_in(p);
                if (ok) {
                    ok = parse_stmt(p, &in.els);
                    p->depth--;
                }
            } else {
                ok = parse_block(p, &in.els);
            }
        }
    } else if (tok_is(&tk, "barrier") || tok_is(&tk, "bar.sync") || tok_is(&tk, "__syncthreads") ||
               tok_is(&tk, "bar.arrive")) {
        /* barrier | bar.sync [ID [, COUNT]] | bar.arrive ID, COUNT: PTX's named barriers.
         * Threads of the workgroup that use barrier ID take part; with COUNT, once COUNT of
         * them arrive, at least COUNT synchronize and all pass (Dat3M's quorum). */
        advance(p);
        in.kind = I_BARRIER;
        in.bar_arrive = tok_is(&tk, "bar.arrive");
        ok = true;
        /* __syncthreads() as CUDA writes it */
        if (tok_is(&tk, "__syncthreads") && accept(p, T_LPAREN))
            ok = expect_tok(p, T_RPAREN, "after __syncthreads(");
        bool more = ok && p->tok.line == tk.line && p->tok.kind != T_NEWLINE && p->tok.kind != T_SEMI &&
                    p->tok.kind != T_RBRACE && p->tok.kind != T_EOF;
        if (more && tok_is(&tk, "__syncthreads")) {
            ERR("__syncthreads takes no operands; write bar.sync ID, COUNT for a named barrier");
            ok = false;
        } else if (more || in.bar_arrive) {
            in.scope = SCOPE_WG;
            ok = (in.bar_id = parse_expr(p)) != NULL;
            if (ok && p->tok.kind == T_COMMA) {
                advance(p);
                ok = (in.bar_quorum = parse_expr(p)) != NULL;
            }
            if (ok && in.bar_arrive && !in.bar_quorum) {
                ERR("bar.arrive needs a thread count: bar.arrive ID, COUNT");
                ok = false;
            }
        }
    } else if (tok_is(&tk, "await")) {
        ok = parse_await(p, &in, -1);
    } else if (shmem_call_name(&tk) && peek(p)->kind == T_LPAREN) {
        if (!parse_shmem_call(p, b, -1))
            return false;
        while (accept(p, T_SEMI))
            ;
        return true;
    } else if (tk.len > 12 && strncmp(tk.start, "fence.proxy.", 12) == 0) {
        /* fence.proxy.{texture,surface,constant,generic,alias} (ptx-v7.5.cat lines 72-82) */
        opcode op;
        ok = parse_opcode(p, &tk, &op);
        if (ok && (op.has_order || op.has_scope || (!op.has_proxy && !op.alias))) {
            ERR("fence.proxy takes one of .texture .surface .constant .generic .alias and nothing else");
            ok = false;
        }
        advance(p);
        in.kind = I_FENCE;
        in.ord = ORD_RELAXED;
        in.scope = SCOPE_NONE;
        in.proxy_fence = true;
        in.proxy_alias = op.alias;
        in.proxy = op.alias ? PROXY_NONE : op.proxy;
        p->t->uses_proxies = true;
    } else if (tk.len > 6 && strncmp(tk.start, "fence.", 6) == 0) {
        opcode op;
        ok = parse_opcode(p, &tk, &op);
        if (ok && (op.has_proxy || op.alias || op.proxy_kw)) {
            ERR("a proxy fence is written fence.proxy.texture (surface, constant, generic, alias)");
            ok = false;
        }
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
        } else if (shmem_call_name(&rhs) && peek(p)->kind == T_LPAREN) {
            if (!parse_shmem_call(p, b, dst))
                return false;
            while (accept(p, T_SEMI))
                ;
            return true;
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
    inst_free(&in); /* what the failed statement had parsed */
    return false;
}

static bool parse_block_nested(parser *p, block *b);

bool parse_block(parser *p, block *b)
{
    if (!nest_in(p))
        return false;
    bool ok = parse_block_nested(p, b);
    p->depth--;
    return ok;
}

static bool parse_block_nested(parser *p, block *b)
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

test *lit_parse(const char *file, const char *text, diag *d) { return lit_parse_opts(file, text, d, NULL); }

test *lit_parse_opts(const char *file, const char *text, diag *d, const lit_options *o)
{
    parser P = {0}, *p = &P;
    p->opts = o;
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
        } else if (tok_is(&tk, "const")) {
            parse_const(p);
        } else if (tok_is(&tk, "heap")) {
            if (p->t->nthreads) {
                ERR("the heap block must come before the threads");
                break;
            }
            parse_heap(p);
        } else if (tok_is(&tk, "host")) {
            parse_host(p);
        } else if (tok_is(&tk, "target")) {
            advance(p);
            if (p->tok.kind != T_IDENT || p->t->target) {
                ERR(p->t->target ? "the target is already set" : "expected a target profile: mi200, mi300, h100 or h200");
                break;
            }
            static const char *const targets[] = {"mi200", "mi300", "mi300x", "h100", "h200", NULL};
            bool known = false;
            for (int i = 0; targets[i]; i++)
                known = known || tok_is(&p->tok, targets[i]);
            if (!known) {
                ERR("unknown target '%.*s' (mi200, mi300, mi300x, h100, h200)", p->tok.len, p->tok.start);
                break;
            }
            p->t->target = tok_str(&p->tok);
            advance(p);
            if (p->tok.kind == T_IDENT && tok_is(&p->tok, "no_host_atomics")) {
                p->t->no_host_atomics = true;
                advance(p);
            }
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
            ERR("expected test, memory, heap, const, kernel, thread, host, target, exists, forall or expect, found %s",
                got);
        }
    }
    if (!failed(p))
        finish(p);
    for (int i = 0; i < p->nconsts; i++)
        free(p->const_names[i]);
    free(p->const_names);
    free(p->const_values);
    if (failed(p)) {
        test_free(p->t);
        return NULL;
    }
    return p->t;
}

test *lit_parse_file(const char *path, diag *d) { return lit_parse_file_opts(path, d, NULL); }

test *lit_parse_file_opts(const char *path, diag *d, const lit_options *o)
{
    char *buf = read_text_file(path, d);
    if (!buf)
        return NULL;
    test *t = lit_parse_opts(path, buf, d, o);
    free(buf);
    d->source = NULL;
    return t;
}
