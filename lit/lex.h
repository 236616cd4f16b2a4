/* Tokens of the .lit language.  The lexer knows nothing of the grammar; the
 * parser asks for one token at a time, as in Lua's llex/lparser split. */
#ifndef MEMSIM_LEX_H
#define MEMSIM_LEX_H

#include <stdbool.h>
#include <stdint.h>

#include "../ir/diag.h"

typedef enum {
    T_EOF = 0, T_IDENT, T_INT, T_FLOAT,
    T_LBRACE, T_RBRACE, T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK,
    T_COMMA, T_COLON, T_SEMI, T_AT,
    T_ASSIGN, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_SHL, T_SHR,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
    T_AMP, T_ANDAND, T_PIPE, T_OROR, T_CARET, T_BANG, T_TILDE,
    T_DOTDOT, T_NEWLINE, T_DOT
} tokkind_t;

typedef struct {
    tokkind_t kind;
    const char *start;  /* into the source */
    int len;
    int line, col;
    int64_t ival;
    double fval;
} token;

typedef struct {
    const char *src, *p;
    int line;
    const char *line_start;
    diag *d;
} lexer;

void lex_init(lexer *lx, const char *src, diag *d);
token lex_next(lexer *lx);
/* The rest of the current line, trimmed (for `test NAME`). */
char *lex_rest_of_line(lexer *lx, int *line, int *col);
const char *tok_kind_name(tokkind_t k);
bool tok_is(const token *t, const char *word);

#endif
