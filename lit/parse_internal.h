/* What the parts of the .lit parser share: the parser state and the token,
 * name and expression helpers.  parse.c holds expressions and statements,
 * parse_decl.c the declarations, parse_cond.c the final condition. */
#ifndef MEMSIM_PARSE_INTERNAL_H
#define MEMSIM_PARSE_INTERNAL_H

#include "lex.h"
#include "parse.h"

enum { MAX_GPUS = IR_MAX_GPUS, MAX_INDEX = 1 << 20 };

typedef struct {
    lexer lx;
    diag *d;
    token tok;
    token ahead;
    bool have_ahead;
    test *t;
    thread *th;   /* thread being parsed */
    int kernel_capacity, loc_capacity, thread_capacity, expect_capacity;
    /* named constants: `const N = 4`, overridable with -D N=8 */
    char **const_names;
    int64_t *const_values;
    int nconsts;
    const lit_options *opts;
    bool stop_at_eq;   /* inside await: a comparison ends an operand */
    bool in_heap;      /* reading a heap variable's declaration */
    int depth;         /* nesting of expressions, conditions and blocks */
} parser;


#define ERR_AT(tk, ...) diag_error(p->d, (tk).line, (tk).col, __VA_ARGS__)
#define ERR(...) ERR_AT(p->tok, __VA_ARGS__)

bool failed(parser *p);
/* Enter one level of nesting: the parser is recursive descent, and input
 * nested thousands deep would overflow the stack.  Every nest_in that
 * succeeds is matched by p->depth-- on the way out. */
bool nest_in(parser *p);
void advance(parser *p);
token *peek(parser *p);
srcpos here(parser *p);
char *tok_str(const token *t);
void describe(const token *t, char *buf, size_t n);
bool expect_tok(parser *p, tokkind_t k, const char *what);
bool accept(parser *p, tokkind_t k);
int find_loc(const test *t, const char *s, int len);
int find_thread(const test *t, const char *s, int len);
int find_kernel(const test *t, const char *s, int len);
int find_reg(const thread *th, const char *s, int len);
bool is_reserved(const token *t);
bool plain_ident(const token *t);
void grow(void **v, int n, int *cap, size_t size);

expr *parse_expr(parser *p);
expr *parse_arith(parser *p);
bool parse_memref(parser *p, memref *m);
bool check_value_fits(parser *p, const location *L, expr *e);
int def_reg(parser *p, const token *tk);
bool parse_block(parser *p, block *b);
int find_const(const parser *p, const char *s, int len);
int find_symvar(const test *t, const char *s, int len);
/* Evaluates a constant expression; regs gives values for registers (or NULL). */
bool const_eval(parser *p, const expr *e, const int64_t *regs, int64_t *out);
bool parse_const(parser *p);
bool parse_heap(parser *p);
bool parse_host(parser *p);

bool parse_gpu_word(parser *p, const token *tk, const char *s, int len, int *gpu);
bool parse_memory(parser *p);
bool parse_location(parser *p);
bool parse_kernel(parser *p);
bool parse_thread(parser *p);
bool finish(parser *p);

/* SHMEM device calls (parse_shmem.c): whether a token names one, and the
 * call, desugared onto b; dst receives a fetching call's value, or -1. */
bool shmem_call_name(const token *tk);
bool parse_shmem_call(parser *p, block *b, int dst);

cond *parse_cond_or(parser *p);
bool parse_condition(parser *p, quant_t q);
bool parse_expect(parser *p);

#endif
