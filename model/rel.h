/* A small relation algebra over the events of one execution, in the style of
 * herd's cat language.  Relations are bit matrices; every operator returns a
 * fresh relation from a per-thread arena that rel_begin() resets, so an axiom
 * reads as one line:   R hb = plus(U(po, I(incl, sw)));                     */
#ifndef MEMSIM_REL_H
#define MEMSIM_REL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REL_MAX 320                 /* events per execution (K6 at 8 ranks has 264) */
#define REL_WORDS (REL_MAX / 64)

typedef struct {
    uint64_t w[REL_WORDS];
} set;

typedef struct {
    set row[REL_MAX];
} rel;

typedef const rel *R;

/* Starts a new execution of n events: resets the arena. */
void rel_begin(int n);
/* Frees this thread's arena (a worker thread calls it before it ends). */
void rel_end(void);
int rel_n(void);
/* One block of this thread's that outlives rel_begin (freed by rel_end),
 * zeroed when first made: where a model keeps what it derived from a
 * combination's events between candidates.  One size per program. */
void *rel_keep(size_t bytes);
/* Arena marks, for loops that would otherwise exhaust it. */
int rel_mark(void);
void rel_release(int mark);

/* Membership tests are in the innermost loops of every model: inline. */
static inline bool set_has(set s, int e) { return (s.w[e / 64] >> (e % 64)) & 1; }
static inline void set_add(set *s, int e) { s->w[e / 64] |= 1ull << (e % 64); }
/* The smallest member of s that is at least `from`, or -1: for (j = set_next(&s, 0); j >= 0;
 * j = set_next(&s, j + 1)) visits the members in order. */
static inline int set_next(const set *s, int from)
{
    for (int k = from / 64; k < REL_WORDS; k++) {
        uint64_t bits = s->w[k] & (k == from / 64 ? ~0ull << (from % 64) : ~0ull);
        if (bits)
            return k * 64 + __builtin_ctzll(bits);
    }
    return -1;
}
static inline void rel_add(rel *r, int a, int b) { r->row[a].w[b / 64] |= 1ull << (b % 64); }
static inline bool rel_has(R r, int a, int b) { return (r->row[a].w[b / 64] >> (b % 64)) & 1; }

/* Sets. */
set set_empty(void);
set set_all(void);
set set_one(int e);
set set_or(set a, set b);
set set_and(set a, set b);
set set_minus(set a, set b);
bool set_is_empty(set s);

/* Construction. */
rel *rel_new(void);                   /* empty, writable */
R rel_empty(void);

/* Operators (cat syntax in the comments). */
R U(R a, R b);                        /* a | b          */
R U3(R a, R b, R c);                  /* a | b | c      */
R I(R a, R b);                        /* a & b          */
R D(R a, R b);                        /* a \ b          */
R S(R a, R b);                        /* a ; b          */
R inv(R a);                           /* a^-1           */
R plus(R a);                          /* a+             */
R star(R a);                          /* a*             */
R opt(R a);                           /* a?             */
R id(set s);                          /* [s]            */
R cross(set a, set b);                /* a * b          */
R restr(set a, R r, set b);        /* [a]; r; [b]    */
R sym(R a);                           /* a | a^-1       */
set domain(R a);
set range(R a);

/* A transitively closed relation kept closed while edges are added one at a
 * time (GenMC-style incremental consistency): adding (a, b) gives every row
 * that reaches a -- and a itself -- b and b's row, O(n) row operations
 * instead of a new closure.  Rows it changes go on an undo trail, so a
 * depth-first search can add an edge per choice and take it back. */
typedef struct {
    rel *closed;        /* caller's storage, closed (see closure_start) */
    int n;
    int len, cap;
    struct closure_undo {
        int row;
        set old;
    } *trail;
} closure;
/* c->closed = a+ (in the caller's storage, which must outlive c). */
void closure_start(closure *c, rel *storage, R a);
/* Adds (a, b) and closes again; returns false (nothing changed) if it held. */
bool closure_add(closure *c, int a, int b);
/* For an acyclic closed relation: adds (a, b) and returns true if the result
 * is still acyclic -- unless b already reaches a (or a == b), the edge closes
 * no cycle; otherwise returns false and changes nothing.  A search that adds
 * one edge per choice answers "is it still acyclic?" with one bit lookup. */
bool closure_add_acyclic(closure *c, int a, int b);
int closure_mark(const closure *c);
void closure_undo(closure *c, int mark);
void closure_free(closure *c);

/* Checks. */
bool acyclic(R a);
bool irreflexive(R a);
bool is_empty(R a);
bool subset(R a, R b);

#endif
