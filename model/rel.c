#include "rel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The arena is per thread so that exploration workers never share it. */
enum { ARENA_RELS = 1024 };
static _Thread_local rel *arena;
static _Thread_local int arena_used;
static _Thread_local int cur_n, cur_words;

void rel_begin(int n)
{
    if (n > REL_MAX) {
        fprintf(stderr, "memsim: internal error: %d events exceed the limit of %d\n", n, REL_MAX);
        abort();
    }
    if (!arena)
        arena = malloc(sizeof(rel) * ARENA_RELS);
    arena_used = 0;
    cur_n = n;
    cur_words = (n + 63) / 64;
    if (cur_words == 0)
        cur_words = 1;
}

void rel_end(void)
{
    free(arena);
    arena = NULL;
    arena_used = 0;
}

int rel_n(void) { return cur_n; }
int rel_mark(void) { return arena_used; }
void rel_release(int mark) { arena_used = mark; }

rel *rel_new(void)
{
    if (arena_used == ARENA_RELS) {
        fprintf(stderr, "memsim: internal error: relation arena exhausted\n");
        abort();
    }
    rel *r = &arena[arena_used++];
    /* One memset of the rows in use (a loop over rows and words became one
     * small memset call per row, a third of a candidate's cost). */
    memset(r->row, 0, (size_t)cur_n * sizeof r->row[0]);
    return r;
}

/* For operators that write every word in use of every row. */
static rel *rel_new_unset(void)
{
    if (arena_used == ARENA_RELS) {
        fprintf(stderr, "memsim: internal error: relation arena exhausted\n");
        abort();
    }
    return &arena[arena_used++];
}

R rel_empty(void) { return rel_new(); }

set set_empty(void)
{
    set s = {{0}};
    return s;
}

set set_all(void)
{
    set s = set_empty();
    for (int i = 0; i < cur_n; i++)
        s.w[i / 64] |= 1ull << (i % 64);
    return s;
}

set set_one(int e)
{
    set s = set_empty();
    s.w[e / 64] |= 1ull << (e % 64);
    return s;
}

set set_or(set a, set b)
{
    for (int w = 0; w < REL_WORDS; w++)
        a.w[w] |= b.w[w];
    return a;
}

set set_and(set a, set b)
{
    for (int w = 0; w < REL_WORDS; w++)
        a.w[w] &= b.w[w];
    return a;
}

set set_minus(set a, set b)
{
    for (int w = 0; w < REL_WORDS; w++)
        a.w[w] &= ~b.w[w];
    return a;
}


bool set_is_empty(set s)
{
    for (int w = 0; w < REL_WORDS; w++)
        if (s.w[w])
            return false;
    return true;
}


#define ROWS(i) for (int i = 0; i < cur_n; i++)
#define WORDS(w) for (int w = 0; w < cur_words; w++)

R U(R a, R b)
{
    rel *o = rel_new_unset();
    ROWS(i) WORDS(w) o->row[i].w[w] = a->row[i].w[w] | b->row[i].w[w];
    return o;
}

R U3(R a, R b, R c) { return U(U(a, b), c); }

R I(R a, R b)
{
    rel *o = rel_new_unset();
    ROWS(i) WORDS(w) o->row[i].w[w] = a->row[i].w[w] & b->row[i].w[w];
    return o;
}

R D(R a, R b)
{
    rel *o = rel_new_unset();
    ROWS(i) WORDS(w) o->row[i].w[w] = a->row[i].w[w] & ~b->row[i].w[w];
    return o;
}

R S(R a, R b)
{
    rel *o = rel_new();
    ROWS(i)
    {
        for (int w = 0; w < cur_words; w++) {
            uint64_t bits = a->row[i].w[w];
            while (bits) {
                int j = w * 64 + __builtin_ctzll(bits);
                bits &= bits - 1;
                WORDS(v) o->row[i].w[v] |= b->row[j].w[v];
            }
        }
    }
    return o;
}

/* Calls f(j) for each j in row i of a. */
#define EACH_IN_ROW(a, i, j, body)                                          \
    for (int w_ = 0; w_ < cur_words; w_++) {                                \
        uint64_t bits_ = (a)->row[i].w[w_];                                 \
        while (bits_) {                                                     \
            int j = w_ * 64 + __builtin_ctzll(bits_);                       \
            bits_ &= bits_ - 1;                                             \
            body;                                                           \
        }                                                                   \
    }

R inv(R a)
{
    rel *o = rel_new();
    ROWS(i) EACH_IN_ROW(a, i, j, rel_add(o, j, i));
    return o;
}

/* Kahn's algorithm: the events of a in a topological order; false if a has
 * a cycle. */
static bool topo_order(R a, int *order)
{
    int indeg[REL_MAX] = {0};
    ROWS(i) EACH_IN_ROW(a, i, j, indeg[j]++);
    int top = 0, seen = 0;
    int *stack = order; /* the order fills from the front; the stack grows behind it */
    int pending[REL_MAX];
    ROWS(i) if (!indeg[i]) pending[top++] = i;
    while (top) {
        int i = pending[--top];
        stack[seen++] = i;
        EACH_IN_ROW(a, i, j, if (--indeg[j] == 0) pending[top++] = j);
    }
    return seen == cur_n;
}

/* a+.  Relations here are mostly acyclic (hb, psc on a consistent
 * candidate): in reverse topological order each row is its own row joined
 * with the closed rows of its successors, one pass over the edges.  With a
 * cycle, Warshall: for each k, every row that reaches k gains k's row. */
R plus(R a)
{
    rel *o = rel_new_unset();
    int order[REL_MAX];
    if (topo_order(a, order)) {
        for (int k = cur_n - 1; k >= 0; k--) {
            int i = order[k];
            set row = a->row[i];
            EACH_IN_ROW(a, i, j, WORDS(w) row.w[w] |= o->row[j].w[w]);
            o->row[i] = row;
        }
        return o;
    }
    ROWS(i) o->row[i] = a->row[i];
    ROWS(k)
    {
        ROWS(i)
        {
            if (rel_has(o, i, k))
                WORDS(w) o->row[i].w[w] |= o->row[k].w[w];
        }
    }
    return o;
}

R opt(R a)
{
    rel *o = rel_new_unset();
    ROWS(i)
    {
        o->row[i] = a->row[i];
        rel_add(o, i, i);
    }
    return o;
}

R star(R a) { return opt(plus(a)); }

R id(set s)
{
    rel *o = rel_new();
    ROWS(i) if (set_has(s, i)) rel_add(o, i, i);
    return o;
}

R cross(set a, set b)
{
    rel *o = rel_new();
    ROWS(i) if (set_has(a, i)) WORDS(w) o->row[i].w[w] = b.w[w];
    return o;
}

R restr(set a, R r, set b)
{
    rel *o = rel_new();
    ROWS(i) if (set_has(a, i)) WORDS(w) o->row[i].w[w] = r->row[i].w[w] & b.w[w];
    return o;
}

R sym(R a) { return U(a, inv(a)); }

set domain(R a)
{
    set s = set_empty();
    ROWS(i)
    {
        uint64_t any = 0;
        WORDS(w) any |= a->row[i].w[w];
        if (any)
            set_add(&s, i);
    }
    return s;
}

set range(R a)
{
    set s = set_empty();
    ROWS(i) WORDS(w) s.w[w] |= a->row[i].w[w];
    return s;
}

bool irreflexive(R a)
{
    ROWS(i) if (rel_has(a, i, i)) return false;
    return true;
}

/* Kahn's algorithm: repeatedly drop events with no predecessor left. */
bool acyclic(R a)
{
    int indeg[REL_MAX] = {0};
    ROWS(i) EACH_IN_ROW(a, i, j, indeg[j]++);
    int stack[REL_MAX], top = 0, seen = 0;
    ROWS(i) if (!indeg[i]) stack[top++] = i;
    while (top) {
        int i = stack[--top];
        seen++;
        for (int w = 0; w < cur_words; w++) {
            uint64_t bits = a->row[i].w[w];
            while (bits) {
                int j = w * 64 + __builtin_ctzll(bits);
                bits &= bits - 1;
                if (--indeg[j] == 0)
                    stack[top++] = j;
            }
        }
    }
    return seen == cur_n;
}

bool is_empty(R a)
{
    ROWS(i) WORDS(w) if (a->row[i].w[w]) return false;
    return true;
}

bool subset(R a, R b)
{
    ROWS(i) WORDS(w) if (a->row[i].w[w] & ~b->row[i].w[w]) return false;
    return true;
}
