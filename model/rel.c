#include "rel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The arena is per thread so that exploration workers never share it. */
enum { ARENA_RELS = 1024 };
static _Thread_local rel *arena;
static _Thread_local int arena_used;
static _Thread_local int cur_n, cur_words;
static _Thread_local set all_events; /* set_all(), made once per rel_begin */
/* Per arena slot: made by id() (and not reused since), with its set, so
 * that S() knows [s] ; r and r ; [s] without scanning the relation. */
static _Thread_local bool *slot_is_id;
static _Thread_local set *slot_id_set;

void rel_begin(int n)
{
    if (n > REL_MAX) {
        fprintf(stderr, "memsim: internal error: %d events exceed the limit of %d\n", n, REL_MAX);
        abort();
    }
    if (!arena) {
        arena = malloc(sizeof(rel) * ARENA_RELS);
        slot_is_id = calloc(ARENA_RELS, sizeof *slot_is_id);
        slot_id_set = malloc(ARENA_RELS * sizeof *slot_id_set);
    }
    arena_used = 0;
    cur_n = n;
    cur_words = (n + 63) / 64;
    if (cur_words == 0)
        cur_words = 1;
    all_events = (set){{0}};
    for (int i = 0; i < n; i++)
        all_events.w[i / 64] |= 1ull << (i % 64);
}

/* a+ of the last few dense inputs (plus() says why). */
enum { PLUS_MEMO = 4 };
typedef struct {
    uint64_t hash;
    int n;
    rel in, out;
} plus_memo;
static _Thread_local plus_memo *memo;
static _Thread_local int memo_used, memo_next;

static _Thread_local void *kept;
static _Thread_local size_t kept_size;

void *rel_keep(size_t bytes)
{
    if (!kept || kept_size != bytes) {
        free(kept);
        kept = calloc(1, bytes);
        kept_size = bytes;
        if (!kept) {
            fprintf(stderr, "memsim: out of memory\n");
            abort();
        }
    }
    return kept;
}

void rel_end(void)
{
    free(kept);
    kept = NULL;
    kept_size = 0;
    free(memo);
    memo = NULL;
    memo_used = memo_next = 0;
    free(arena);
    arena = NULL;
    free(slot_is_id);
    slot_is_id = NULL;
    free(slot_id_set);
    slot_id_set = NULL;
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
    slot_is_id[arena_used] = false;
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
    slot_is_id[arena_used] = false;
    return &arena[arena_used++];
}

R rel_empty(void) { return rel_new(); }

set set_empty(void)
{
    set s = {{0}};
    return s;
}

set set_all(void) { return all_events; }

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

/* If r holds only pairs (i, i): the set of those i. */
static bool diagonal(R r, set *d)
{
    uintptr_t p = (uintptr_t)r, lo = (uintptr_t)arena, hi = (uintptr_t)(arena + arena_used);
    if (p >= lo && p < hi && slot_is_id[r - arena]) {
        *d = slot_id_set[r - arena];
        return true;
    }
    *d = set_empty();
    for (int i = 0; i < cur_n; i++)
        for (int w = 0; w < cur_words; w++) {
            uint64_t bits = r->row[i].w[w];
            if (!bits)
                continue;
            if (w != i / 64 || bits != 1ull << (i % 64))
                return false;
            set_add(d, i);
        }
    return true;
}

R S(R a, R b)
{
    /* [s] ; b and a ; [s] (models write [REL] ; ... and ... ; [ACQ]) are a
     * row filter and a column mask: no walk over a's pairs. */
    set d;
    if (diagonal(b, &d)) {
        rel *o = rel_new_unset();
        ROWS(i) WORDS(w) o->row[i].w[w] = a->row[i].w[w] & d.w[w];
        return o;
    }
    if (diagonal(a, &d))
        return restr(d, b, set_all());
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
static R plus_compute(R a)
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

/* Without -mpopcnt, __builtin_popcountll is a library call. */
static inline int popcount(uint64_t v)
{
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((v * 0x0101010101010101ull) >> 56);
}

static bool close_edge(rel *o, int n, int words, int a, int b, closure *trail);

/* a+ from a remembered closure of a subset of a, the missing edges added one
 * at a time (close_edge), where they are few: hb from one candidate to the
 * next differs by a few synchronizes-with edges.  NULL: none close enough. */
static R plus_incremental(R a)
{
    int best = -1, best_extra = cur_n / 2 + 1;
    for (int k = 0; k < memo_used; k++) {
        plus_memo *m = &memo[k];
        if (m->n != cur_n)
            continue;
        int extra = 0;
        for (int i = 0; i < cur_n && extra < best_extra; i++)
            WORDS(w)
            {
                if (m->in.row[i].w[w] & ~a->row[i].w[w])
                    extra = best_extra; /* not a subset */
                extra += popcount(a->row[i].w[w] & ~m->in.row[i].w[w]);
            }
        if (extra < best_extra) {
            best = k;
            best_extra = extra;
        }
    }
    if (best < 0)
        return NULL;
    plus_memo *m = &memo[best];
    rel *o = rel_new_unset();
    memcpy(o->row, m->out.row, (size_t)cur_n * sizeof o->row[0]);
    ROWS(i) WORDS(w)
    {
        uint64_t bits = a->row[i].w[w] & ~m->in.row[i].w[w];
        while (bits) {
            int j = w * 64 + __builtin_ctzll(bits);
            bits &= bits - 1;
            close_edge(o, cur_n, cur_words, i, j, NULL);
        }
    }
    return o;
}

/* The closure of a dense relation is remembered for the next few calls: hb
 * is mostly the same relation from one candidate execution to the next (its
 * reads-from part, sw, changes only where release and acquire meet) and
 * initial writes and kernel order make it dense, so closing it again was a
 * fifth of an SB ring's check.  A sparse relation (eco) is closed faster
 * than it is remembered. */
R plus(R a)
{
    uint64_t h = 1469598103934665603ull;
    int edges = 0;
    ROWS(i) WORDS(w)
    {
        uint64_t v = a->row[i].w[w];
        h = (h ^ v) * 1099511628211ull;
        h ^= h >> 29;
        edges += popcount(v);
    }
    if (edges < 4 * cur_n)
        return plus_compute(a);
    for (int k = 0; k < memo_used; k++) {
        plus_memo *m = &memo[k];
        if (m->hash != h || m->n != cur_n)
            continue;
        bool same = true;
        for (int i = 0; i < cur_n && same; i++)
            WORDS(w) same = same && m->in.row[i].w[w] == a->row[i].w[w];
        if (!same)
            continue;
        rel *o = rel_new_unset();
        memcpy(o->row, m->out.row, (size_t)cur_n * sizeof o->row[0]);
        return o;
    }
    R o = plus_incremental(a);
    if (!o)
        o = plus_compute(a);
    if (!memo)
        memo = malloc(PLUS_MEMO * sizeof *memo);
    plus_memo *m = &memo[memo_next];
    memo_next = (memo_next + 1) % PLUS_MEMO;
    if (memo_used < PLUS_MEMO)
        memo_used++;
    m->hash = h;
    m->n = cur_n;
    memcpy(m->in.row, a->row, (size_t)cur_n * sizeof a->row[0]);
    memcpy(m->out.row, o->row, (size_t)cur_n * sizeof o->row[0]);
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
    s = set_and(s, all_events);
    slot_is_id[o - arena] = true;
    slot_id_set[o - arena] = s;
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

/* ---- incremental closure ------------------------------------------------------- */

void closure_start(closure *c, rel *storage, R a)
{
    c->closed = storage;
    c->n = cur_n;
    c->len = 0;
    c->cap = 0;
    c->trail = NULL;
    int mark = rel_mark();
    R p = plus_compute(a);
    memcpy(storage->row, p->row, (size_t)cur_n * sizeof p->row[0]);
    rel_release(mark);
}

/* Every row i that reaches a (and a's own row) gains b and b's row: in a
 * closed relation those are exactly the rows with a path through the new
 * edge's source, and b's row already holds everything after b. */
static bool close_edge(rel *o, int n, int words, int a, int b, closure *trail)
{
    if ((o->row[a].w[b / 64] >> (b % 64)) & 1)
        return false;
    set add = o->row[b];
    add.w[b / 64] |= 1ull << (b % 64);
    for (int i = 0; i < n; i++) {
        if (i != a && !((o->row[i].w[a / 64] >> (a % 64)) & 1))
            continue;
        bool grows = false;
        for (int w = 0; w < words; w++)
            grows = grows || (add.w[w] & ~o->row[i].w[w]);
        if (!grows)
            continue;
        if (trail) {
            if (trail->len == trail->cap) {
                trail->cap = trail->cap ? 2 * trail->cap : 64;
                trail->trail = realloc(trail->trail, (size_t)trail->cap * sizeof *trail->trail);
                if (!trail->trail) {
                    fprintf(stderr, "memsim: out of memory\n");
                    abort();
                }
            }
            trail->trail[trail->len].row = i;
            trail->trail[trail->len].old = o->row[i];
            trail->len++;
        }
        for (int w = 0; w < words; w++)
            o->row[i].w[w] |= add.w[w];
    }
    return true;
}

bool closure_add(closure *c, int a, int b)
{
    return close_edge(c->closed, c->n, (c->n + 63) / 64 ? (c->n + 63) / 64 : 1, a, b, c);
}

bool closure_add_acyclic(closure *c, int a, int b)
{
    if (a == b || rel_has(c->closed, b, a))
        return false;
    closure_add(c, a, b);
    return true;
}

int closure_mark(const closure *c) { return c->len; }

void closure_undo(closure *c, int mark)
{
    while (c->len > mark) {
        c->len--;
        c->closed->row[c->trail[c->len].row] = c->trail[c->len].old;
    }
}

void closure_free(closure *c)
{
    free(c->trail);
    c->trail = NULL;
    c->len = c->cap = 0;
}
