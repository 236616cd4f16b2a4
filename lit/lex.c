#include "lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void lex_init(lexer *lx, const char *src, diag *d)
{
    lx->src = lx->p = lx->line_start = src;
    lx->line = 1;
    lx->d = d;
}

bool tok_is(const token *t, const char *word)
{
    return t->kind == T_IDENT && (int)strlen(word) == t->len && memcmp(t->start, word, (size_t)t->len) == 0;
}

const char *tok_kind_name(tokkind_t k)
{
    static const char *names[] = {
        "end of file", "identifier", "integer", "number", "'{'", "'}'", "'('", "')'", "'['", "']'",
        "','", "':'", "';'", "'@'", "'='", "'=='", "'!='", "'<'", "'<='", "'>'", "'>='", "'<<'", "'>>'",
        "'+'", "'-'", "'*'", "'/'", "'%'", "'&'", "'&&'", "'|'", "'||'", "'^'", "'!'", "'~'", "'..'",
        "end of line", "'.'"};
    return names[k];
}

static void skip_space_and_comments(lexer *lx)
{
    for (;;) {
        char c = *lx->p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            if (c == '\n') {
                lx->line++;
                lx->line_start = lx->p + 1;
            }
            lx->p++;
        } else if (c == '#' || (c == '/' && lx->p[1] == '/')) {
            while (*lx->p && *lx->p != '\n')
                lx->p++;
        } else if (c == '(' && lx->p[1] == '*') { /* herd comments */
            lx->p += 2;
            while (*lx->p && !(lx->p[0] == '*' && lx->p[1] == ')')) {
                if (*lx->p == '\n') {
                    lx->line++;
                    lx->line_start = lx->p + 1;
                }
                lx->p++;
            }
            if (*lx->p)
                lx->p += 2;
        } else {
            return;
        }
    }
}

static bool ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

token lex_next(lexer *lx)
{
    skip_space_and_comments(lx);
    token t = {0};
    t.start = lx->p;
    t.line = lx->line;
    t.col = (int)(lx->p - lx->line_start) + 1;
    char c = *lx->p;
    if (!c) {
        t.kind = T_EOF;
        return t;
    }
    if ((unsigned char)c >= 0x80 || (!isprint((unsigned char)c) && c != '\t')) {
        diag_error(lx->d, t.line, t.col, "unexpected character (byte 0x%02x)", (unsigned char)c);
        t.kind = T_EOF;
        return t;
    }
    /* Dotted words such as st.release.sys or gpu0.wg1.wave0 are one token. */
    if (ident_start(c)) {
        const char *p = lx->p;
        for (;;) {
            while (ident_char(*p))
                p++;
            if (p[0] == '.' && ident_start(p[1]))
                p++;
            else
                break;
        }
        t.kind = T_IDENT;
        t.len = (int)(p - lx->p);
        lx->p = p;
        return t;
    }
    if (isdigit((unsigned char)c)) {
        const char *p = lx->p;
        bool is_float = false;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
            while (isxdigit((unsigned char)*p))
                p++;
        } else {
            while (isdigit((unsigned char)*p))
                p++;
            if (p[0] == '.' && isdigit((unsigned char)p[1])) {
                is_float = true;
                p++;
                while (isdigit((unsigned char)*p))
                    p++;
            }
            if ((*p == 'e' || *p == 'E') && (isdigit((unsigned char)p[1]) || ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2])))) {
                is_float = true;
                p += 2;
                while (isdigit((unsigned char)*p))
                    p++;
            }
        }
        if (ident_char(*p)) {
            diag_error(lx->d, t.line, t.col, "malformed number");
            t.kind = T_EOF;
            return t;
        }
        t.len = (int)(p - lx->p);
        char buf[64];
        int n = t.len < 63 ? t.len : 63;
        memcpy(buf, lx->p, (size_t)n);
        buf[n] = 0;
        errno = 0;
        if (is_float) {
            t.kind = T_FLOAT;
            t.fval = strtod(buf, NULL);
        } else {
            t.kind = T_INT;
            unsigned long long v = strtoull(buf, NULL, 0);
            if (errno == ERANGE || t.len > 62 || v > (unsigned long long)INT64_MAX) {
                diag_error(lx->d, t.line, t.col, "integer literal out of range");
                t.kind = T_EOF;
                return t;
            }
            t.ival = (int64_t)v;
        }
        lx->p = p;
        return t;
    }
    struct { const char *s; tokkind_t k; } ops[] = {
        {"/\\", T_ANDAND}, {"\\/", T_OROR}, {"..", T_DOTDOT}, {".", T_DOT}, {"==", T_EQ}, {"!=", T_NE}, {"<=", T_LE},
        {">=", T_GE}, {"<<", T_SHL}, {">>", T_SHR}, {"&&", T_ANDAND}, {"||", T_OROR},
        {"{", T_LBRACE}, {"}", T_RBRACE}, {"(", T_LPAREN}, {")", T_RPAREN}, {"[", T_LBRACK},
        {"]", T_RBRACK}, {",", T_COMMA}, {":", T_COLON}, {";", T_SEMI}, {"@", T_AT}, {"=", T_ASSIGN},
        {"<", T_LT}, {">", T_GT}, {"+", T_PLUS}, {"-", T_MINUS}, {"*", T_STAR}, {"/", T_SLASH},
        {"%", T_PERCENT}, {"&", T_AMP}, {"|", T_PIPE}, {"^", T_CARET}, {"!", T_BANG}, {"~", T_TILDE},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].s);
        if (strncmp(lx->p, ops[i].s, n) == 0) {
            t.kind = ops[i].k;
            t.len = (int)n;
            lx->p += n;
            return t;
        }
    }
    diag_error(lx->d, t.line, t.col, "unexpected character '%c'", c);
    t.kind = T_EOF;
    return t;
}

char *lex_rest_of_line(lexer *lx, int *line, int *col)
{
    while (*lx->p == ' ' || *lx->p == '\t')
        lx->p++;
    *line = lx->line;
    *col = (int)(lx->p - lx->line_start) + 1;
    const char *s = lx->p;
    while (*lx->p && *lx->p != '\n' && *lx->p != '#' && !(lx->p[0] == '/' && lx->p[1] == '/'))
        lx->p++;
    const char *e = lx->p;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    char *out = malloc((size_t)(e - s) + 1);
    memcpy(out, s, (size_t)(e - s));
    out[e - s] = 0;
    return out;
}
