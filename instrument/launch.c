/* Launch statements of a `memsim kernel` launch file: see launch.h. */
#include "launch.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { TK_END = 0, TK_IDENT, TK_INT, TK_STRING, TK_PUNCT } tkind;

typedef struct {
    tkind kind;
    const char *s;   /* start in the text */
    int len;
    int64_t value;   /* TK_INT */
    int line, col;
    bool nl_before;  /* a newline (or ';') separates it from the previous token */
} token;

typedef struct {
    const char *text;
    const char *at;
    int line, col;
    token tok;
    diag *d;
    const launch_defines *defs;
    char **cname;
    int64_t *cval;
    int nconst;
    bool failed;
    int depth;       /* parentheses open in a constant expression */
} lexer;

#define ERR(L, ln, cl, ...) do { if (!(L)->failed) diag_error((L)->d, (ln), (cl), __VA_ARGS__); (L)->failed = true; } while (0)

static void advance_char(lexer *L)
{
    if (*L->at == '\n') {
        L->line++;
        L->col = 1;
    } else {
        L->col++;
    }
    L->at++;
}

static void next(lexer *L)
{
    bool nl = false;
    for (;;) {
        while (*L->at && isspace((unsigned char)*L->at)) {
            nl = nl || *L->at == '\n';
            advance_char(L);
        }
        if (*L->at == '#' || (L->at[0] == '/' && L->at[1] == '/')) {
            while (*L->at && *L->at != '\n')
                advance_char(L);
            continue;
        }
        break;
    }
    token t = {0};
    t.s = L->at;
    t.line = L->line;
    t.col = L->col;
    t.nl_before = nl;
    char c = *L->at;
    if (!c) {
        t.kind = TK_END;
    } else if (isalpha((unsigned char)c) || c == '_') {
        t.kind = TK_IDENT;
        while (isalnum((unsigned char)*L->at) || *L->at == '_')
            advance_char(L);
    } else if (isdigit((unsigned char)c)) {
        t.kind = TK_INT;
        char *end;
        errno = 0;
        t.value = (int64_t)strtoll(L->at, &end, 0);
        bool range = errno == ERANGE; /* strtoll saturates: a different number, silently */
        while (L->at < end)
            advance_char(L);
        if (range)
            ERR(L, t.line, t.col, "the number does not fit 64 bits");
        else if (isalnum((unsigned char)*L->at) || *L->at == '_') {
            ERR(L, t.line, t.col, "malformed number");
            while (isalnum((unsigned char)*L->at) || *L->at == '_')
                advance_char(L);
        }
    } else if (c == '"') {
        t.kind = TK_STRING;
        advance_char(L);
        while (*L->at && *L->at != '"' && *L->at != '\n')
            advance_char(L);
        if (*L->at != '"')
            ERR(L, t.line, t.col, "unterminated string");
        else
            advance_char(L);
    } else {
        t.kind = TK_PUNCT;
        if (c == ';')
            t.nl_before = true;
        advance_char(L);
    }
    t.len = (int)(L->at - t.s);
    L->tok = t;
}

static bool tok_is(const token *t, const char *w)
{
    return (t->kind == TK_IDENT || t->kind == TK_PUNCT) && (int)strlen(w) == t->len && memcmp(t->s, w, (size_t)t->len) == 0;
}

static bool accept(lexer *L, const char *w)
{
    if (!tok_is(&L->tok, w))
        return false;
    next(L);
    return true;
}

static bool expect(lexer *L, const char *w, const char *where)
{
    if (accept(L, w))
        return true;
    ERR(L, L->tok.line, L->tok.col, "expected '%s' %s, found '%.*s'", w, where, L->tok.len ? L->tok.len : 3,
        L->tok.len ? L->tok.s : "end");
    return false;
}

static int find_const(const lexer *L, const char *s, int len)
{
    for (int i = L->nconst - 1; i >= 0; i--)
        if ((int)strlen(L->cname[i]) == len && memcmp(L->cname[i], s, (size_t)len) == 0)
            return i;
    return -1;
}

/* Constant expressions: numbers, constants declared before, + - * / %, parentheses. */
static bool cexpr(lexer *L, int64_t *v);

static bool overflow(lexer *L, const token *at)
{
    ERR(L, at->line, at->col, "constant expression overflows 64 bits");
    return false;
}

static bool cprimary(lexer *L, int64_t *v)
{
    token t = L->tok;
    if (accept(L, "(")) {
        /* The parser recurses per parenthesis: bound it before the stack does. */
        if (L->depth == IR_MAX_NESTING) {
            ERR(L, t.line, t.col, "parentheses nested more than %d deep", IR_MAX_NESTING);
            return false;
        }
        L->depth++;
        bool ok = cexpr(L, v) && expect(L, ")", "to close the expression");
        L->depth--;
        return ok;
    }
    if (accept(L, "-")) {
        if (L->depth == 200) {
            ERR(L, t.line, t.col, "signs nested more than 200 deep");
            return false;
        }
        L->depth++;
        bool ok = cprimary(L, v);
        L->depth--;
        if (!ok)
            return false;
        if (*v == INT64_MIN)
            return overflow(L, &t);
        *v = -*v;
        return true;
    }
    if (t.kind == TK_INT) {
        *v = t.value;
        next(L);
        return true;
    }
    if (t.kind == TK_IDENT) {
        int c = find_const(L, t.s, t.len);
        if (c < 0) {
            ERR(L, t.line, t.col, "'%.*s' is not a constant declared before (const %.*s = ...)", t.len, t.s, t.len, t.s);
            return false;
        }
        *v = L->cval[c];
        next(L);
        return true;
    }
    ERR(L, t.line, t.col, "expected a number or a constant, found '%.*s'", t.len ? t.len : 3, t.len ? t.s : "end");
    return false;
}

static bool cterm(lexer *L, int64_t *v)
{
    if (!cprimary(L, v))
        return false;
    for (;;) {
        token t = L->tok;
        if (t.nl_before || !(tok_is(&t, "*") || tok_is(&t, "/") || tok_is(&t, "%")))
            return true;
        next(L);
        int64_t b;
        if (!cprimary(L, &b))
            return false;
        if (t.s[0] != '*' && b == 0) {
            ERR(L, t.line, t.col, "division by zero in a constant expression");
            return false;
        }
        if (t.s[0] == '*' ? __builtin_mul_overflow(*v, b, v) : *v == INT64_MIN && b == -1)
            return overflow(L, &t);
        if (t.s[0] != '*')
            *v = t.s[0] == '/' ? *v / b : *v % b;
    }
}

static bool cexpr(lexer *L, int64_t *v)
{
    if (!cterm(L, v))
        return false;
    for (;;) {
        token t = L->tok;
        if (t.nl_before || !(tok_is(&t, "+") || tok_is(&t, "-")))
            return true;
        next(L);
        int64_t b;
        if (!cterm(L, &b))
            return false;
        if (t.s[0] == '+' ? __builtin_add_overflow(*v, b, v) : __builtin_sub_overflow(*v, b, v))
            return overflow(L, &t);
    }
}

/* const NAME = EXPR: read for the launch statements (the .lit parser reads it again). */
static void const_decl(lexer *L)
{
    token name = L->tok;
    if (name.kind != TK_IDENT) {
        ERR(L, name.line, name.col, "expected a constant's name after 'const'");
        return;
    }
    next(L);
    if (!expect(L, "=", "after the constant's name"))
        return;
    int64_t v;
    if (!cexpr(L, &v))
        return;
    for (int i = 0; L->defs && i < L->defs->ndefines; i++)
        if ((int)strlen(L->defs->define_names[i]) == name.len && memcmp(L->defs->define_names[i], name.s, (size_t)name.len) == 0)
            v = L->defs->define_values[i];
    L->cname = realloc(L->cname, (size_t)(L->nconst + 1) * sizeof *L->cname);
    L->cval = realloc(L->cval, (size_t)(L->nconst + 1) * sizeof *L->cval);
    L->cname[L->nconst] = strndup(name.s, (size_t)name.len);
    L->cval[L->nconst++] = v;
}

static bool int_param(lexer *L, const char *what, int64_t lo, int64_t hi, int64_t *v)
{
    token t = L->tok;
    if (!cexpr(L, v))
        return false;
    if (*v < lo || *v > hi) {
        ERR(L, t.line, t.col, "%s must be from %lld to %lld, not %lld", what, (long long)lo, (long long)hi, (long long)*v);
        return false;
    }
    return true;
}

static bool parse_arg(lexer *L, launch_arg *a)
{
    token t = L->tok;
    a->pos = (srcpos){t.line, t.col};
    a->rank = -1;
    if (t.kind == TK_IDENT && find_const(L, t.s, t.len) < 0) {
        next(L);
        if (tok_is(&t, "heap_bases")) {
            a->kind = ARG_HEAP_BASES;
            return true;
        }
        a->kind = ARG_VAR;
        a->name = strndup(t.s, (size_t)t.len);
        if (accept(L, "@")) {
            int64_t r;
            if (!int_param(L, "a rank", 0, 63, &r))
                return false;
            a->rank = (int)r;
        }
        if (accept(L, "[")) {
            if (!int_param(L, "an element index", 0, 1 << 24, &a->index) || !expect(L, "]", "after the index"))
                return false;
        }
        return true;
    }
    a->kind = ARG_INT;
    return cexpr(L, &a->value);
}

static void launch_stmt(lexer *L, launch *k)
{
    /* 'kernel' has been read; NAME from "FILE" @gpuN grid G block B args (...) [after A, B] */
    token name = L->tok;
    k->pos = (srcpos){name.line, name.col};
    k->kernel = strndup(name.s, (size_t)name.len);
    next(L);
    if (accept(L, "as")) {
        token lab = L->tok;
        if (lab.kind != TK_IDENT) {
            ERR(L, lab.line, lab.col, "expected a label after 'as'");
            return;
        }
        k->label = strndup(lab.s, (size_t)lab.len);
        next(L);
    } else {
        k->label = strdup(k->kernel);
    }
    if (!expect(L, "from", "after the kernel's name"))
        return;
    token f = L->tok;
    if (f.kind != TK_STRING || f.len < 3) {
        ERR(L, f.line, f.col, "expected the kernel's file as a string, as in from \"mp.hip\"");
        return;
    }
    k->file = strndup(f.s + 1, (size_t)f.len - 2);
    next(L);
    if (!expect(L, "@", "before the GPU (@gpu0)"))
        return;
    token g = L->tok;
    if (g.kind != TK_IDENT || g.len < 4 || memcmp(g.s, "gpu", 3) != 0) {
        ERR(L, g.line, g.col, "expected @gpuN");
        return;
    }
    char *end;
    long gpu = strtol(g.s + 3, &end, 10);
    if (end != g.s + g.len || gpu < 0 || gpu > 63) {
        ERR(L, g.line, g.col, "expected @gpuN with N from 0 to 63");
        return;
    }
    k->gpu = (int)gpu;
    next(L);
    if (!expect(L, "grid", "(grid G: the number of workgroups)") || !int_param(L, "grid", 1, 64, &k->grid))
        return;
    if (!expect(L, "block", "(block B: threads per workgroup)") || !int_param(L, "block", 1, 1024, &k->block))
        return;
    if (!expect(L, "args", "(args (...): the kernel's arguments)") || !expect(L, "(", "after args"))
        return;
    if (!accept(L, ")")) {
        for (;;) {
            if (k->nargs == 256) {
                ERR(L, L->tok.line, L->tok.col, "more than 256 arguments");
                return;
            }
            k->args = realloc(k->args, (size_t)(k->nargs + 1) * sizeof *k->args);
            launch_arg *a = &k->args[k->nargs++];
            memset(a, 0, sizeof *a);
            if (!parse_arg(L, a))
                return;
            if (accept(L, ")"))
                break;
            if (!expect(L, ",", "between arguments"))
                return;
        }
    }
    if (!L->tok.nl_before && accept(L, "after")) {
        for (;;) {
            token a = L->tok;
            if (a.kind != TK_IDENT) {
                ERR(L, a.line, a.col, "expected a kernel's name after 'after'");
                return;
            }
            k->after = realloc(k->after, (size_t)(k->nafter + 1) * sizeof *k->after);
            k->after[k->nafter++] = strndup(a.s, (size_t)a.len);
            next(L);
            if (L->tok.nl_before || !accept(L, ","))
                break;
        }
    }
    if (L->tok.kind != TK_END && !L->tok.nl_before)
        ERR(L, L->tok.line, L->tok.col, "unexpected '%.*s' after the launch statement", L->tok.len, L->tok.s);
}

static void blank(char *rest, const char *text, const char *from, const char *to)
{
    for (const char *q = from; q < to; q++)
        if (*q != '\n')
            rest[q - text] = ' ';
}

int launch_parse(const char *file, const char *text, const launch_defines *defs, launch_file *out, diag *d)
{
    memset(out, 0, sizeof *out);
    d->file = file;
    d->source = text;
    lexer L = {.text = text, .at = text, .line = 1, .col = 1, .d = d, .defs = defs};
    out->rest = strdup(text);
    next(&L);
    while (L.tok.kind != TK_END && !L.failed) {
        token t = L.tok;
        if (tok_is(&t, "test")) {
            /* the test's name is the rest of its line */
            while (*L.at && *L.at != '\n')
                advance_char(&L);
            next(&L);
        } else if (tok_is(&t, "const")) {
            next(&L);
            const_decl(&L);
        } else if (tok_is(&t, "kernel")) {
            next(&L);
            lexer save = L;
            next(&L);
            bool from = tok_is(&L.tok, "from") || tok_is(&L.tok, "as");
            L = save;
            if (!from)
                continue; /* a .lit kernel declaration */
            out->v = realloc(out->v, (size_t)(out->n + 1) * sizeof *out->v);
            launch *k = &out->v[out->n++];
            memset(k, 0, sizeof *k);
            launch_stmt(&L, k);
            blank(out->rest, text, t.s, L.tok.kind == TK_END ? L.at : L.tok.s);
            k->at = (int)(t.s - text);
        } else if (tok_is(&t, "host")) {
            next(&L);
            out->has_host = out->has_host || tok_is(&L.tok, "{");
        } else {
            next(&L);
        }
    }
    for (int i = 0; i < L.nconst; i++)
        free(L.cname[i]);
    free(L.cname);
    free(L.cval);
    /* With a host block the launches are the kernels it launches: the .lit
     * parser sees `kernel LABEL @gpuN` where each launch statement was. */
    for (int i = 0; out->has_host && i < out->n && !L.failed; i++) {
        launch *k = &out->v[i];
        for (int j = 0; j < i; j++)
            if (strcmp(out->v[j].label, k->label) == 0) {
                ERR(&L, k->pos.line, k->pos.col, "two launches are called %s: with a host block, give each its own "
                                                 "label (kernel NAME as LABEL from ...)", k->label);
                break;
            }
        if (k->nafter)
            ERR(&L, k->pos.line, k->pos.col, "with a host block, order the launches in it (launch, sync), not with after");
        char decl[300];
        int n = snprintf(decl, sizeof decl, "kernel %s @gpu%d", k->label, k->gpu);
        size_t room = strcspn(out->rest + k->at, "\n");
        if (n > 0 && (size_t)n <= room)
            memcpy(out->rest + k->at, decl, (size_t)n);
        else
            ERR(&L, k->pos.line, k->pos.col, "a label this long does not fit its launch statement's line");
    }
    if (!L.failed && out->n == 0) {
        diag_error(d, 1, 1, "no launch statement: write kernel NAME from \"FILE\" @gpuN grid G block B args (...)");
        L.failed = true;
    }
    if (L.failed) {
        launch_file_free(out);
        return -1;
    }
    return 0;
}

void launch_file_free(launch_file *lf)
{
    for (int i = 0; i < lf->n; i++) {
        launch *k = &lf->v[i];
        free(k->kernel);
        free(k->label);
        free(k->file);
        for (int a = 0; a < k->nargs; a++)
            free(k->args[a].name);
        free(k->args);
        for (int a = 0; a < k->nafter; a++)
            free(k->after[a]);
        free(k->after);
    }
    free(lf->v);
    free(lf->rest);
    memset(lf, 0, sizeof *lf);
}
