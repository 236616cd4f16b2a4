/* Any goto graph of one Dat3M litmus thread as a program-counter dispatch,
 * for the threads whose jumps litmus.c's structured conversion cannot nest
 * (a loop entered in its middle, a jump out of a branch into code after it,
 * a jump into code that a goto skips, loops that overlap).
 *
 * Loops are found as Dat3M finds them (LoopUnrolling, NormalizeLoops): a
 * label that a later jump targets opens a loop that ends at its last such
 * jump.  Loops that overlap without nesting are merged into one.  Each loop,
 * and the thread's code outside every loop, is a region; a region's code is
 * cut into nodes (blocks of straight code starting at a jump target or after
 * a jump, and the loops directly inside it), numbered in order, and a region
 * register selects the node to run:
 *
 *   pc = 1;
 *   if pc == 1 { block 1; pc = its successor }      successors later in the
 *   if pc == 2 { do { ...the loop's own nodes... }   region run in the same
 *                while pc_L != 0 }                   pass of the ifs
 *   ...
 *
 * Inside a loop L, a jump back to one of its own nodes ends the pass (the
 * later ifs do not match) and the do-while runs the next pass from that
 * node; a jump out of L sets pc_L = 0 and the enclosing region's register to
 * the target's node; a jump into the middle of a loop sets that loop's
 * register to the node of the target before the loop starts (Dat3M's
 * NormalizeLoops forwards such an entry the same way: it is the loop's first
 * iteration).  So every loop is one I_WHILE that counts its own iterations
 * and is cut at the test's loop bound, an inner loop's count starting again
 * on each entry, as Dat3M's unrolling copies an inner loop into each
 * iteration of the outer one.  An iteration that runs the same nodes as the
 * one before leaves the registers as it found them, so an iteration that
 * writes nothing is still recognized as one that could repeat for ever (a
 * hang; docs/language.md §11.4).  The spin-wait shapes on one load or CAS
 * become awaits here as in the structured conversion. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus_items.h"

typedef struct {
    int start, end; /* items start..end (the root: every item) */
    int parent;     /* -1: the root */
    int spin_end;   /* a spin-wait: the item after it (one await, no register); else -1 */
    int reg;        /* the region's register (the root and loops) */
    int node;       /* the region's node number in its parent */
    int nnodes;
} region;

typedef struct {
    items *c;
    region *rg;
    int nrg;
    int *jt;        /* per item: a jump's target item, else -1 */
    bool *targeted; /* per item: a label that some jump targets */
    int *inner;     /* per item: the innermost region that holds it */
    int *node;      /* per item: its node number in that region */
} dsp;

static bool is_jump(const item *it) { return it->kind == IT_BRANCH || it->kind == IT_GOTO; }

/* Loop intervals [label, last backward jump to it], overlapping ones merged,
 * sorted by start; the root is rg[0]. */
static void find_regions(dsp *x)
{
    const items *c = x->c;
    int n = c->n;
    int *back = malloc((size_t)(unsigned)n * sizeof *back);
    for (int i = 0; i < n; i++)
        back[i] = -1;
    for (int j = 0; j < n; j++)
        if (x->jt[j] >= 0 && x->jt[j] < j)
            back[x->jt[j]] = j; /* j grows: the last one stays */
    x->rg = calloc((size_t)(unsigned)n + 1, sizeof *x->rg);
    x->rg[0] = (region){.start = 0, .end = n - 1, .parent = -1, .spin_end = -1};
    x->nrg = 1;
    /* By start, an open interval that the next one crosses (a < b <= a.end <
     * b.end) absorbs it, and may then cross those it was nested in: the
     * stack holds the open intervals, each nested in the one below. */
    int *open = malloc((size_t)(unsigned)n * sizeof *open), nopen = 0;
    for (int i = 0; i < n; i++) {
        if (back[i] < 0)
            continue;
        region b = {.start = i, .end = back[i], .spin_end = litmus_spin_wait(c, i, back[i], n)};
        while (nopen > 0 && x->rg[open[nopen - 1]].end < b.start)
            nopen--;
        int into = -1;
        while (nopen > 0 && x->rg[open[nopen - 1]].end < b.end) {
            if (into >= 0)
                x->rg[into].parent = -2; /* absorbed in its turn */
            into = open[--nopen];
            x->rg[into].end = b.end;
            x->rg[into].spin_end = -1;
        }
        if (into < 0) {
            into = x->nrg++;
            x->rg[into] = b;
        }
        open[nopen++] = into;
    }
    free(open);
    free(back);
    /* Without the absorbed ones, still by start (merging only lengthened
     * intervals that started earlier). */
    int kept = 1;
    for (int r = 1; r < x->nrg; r++)
        if (x->rg[r].parent != -2)
            x->rg[kept++] = x->rg[r];
    x->nrg = kept;
    for (int r = 1; r < x->nrg; r++) {
        int p = r - 1;
        while (p > 0 && x->rg[p].end < x->rg[r].start)
            p = x->rg[p].parent;
        x->rg[r].parent = p;
    }
    for (int r = 0; r < x->nrg; r++)
        for (int i = x->rg[r].start; i <= x->rg[r].end; i++)
            x->inner[i] = r;
}

/* The child of region r that holds item i (i is in r, below r's level). */
static int child_holding(const dsp *x, int r, int i)
{
    int d = x->inner[i];
    while (x->rg[d].parent != r)
        d = x->rg[d].parent;
    return d;
}

/* Numbers the nodes of region r: its child regions, and blocks that start at
 * the region's head, at a jump target, after a jump and after a child. */
static void number_nodes(dsp *x, int r)
{
    region *R = &x->rg[r];
    int k = 0;
    bool fresh = true;
    for (int i = R->start; i <= R->end;) {
        if (x->inner[i] != r) {
            int d = child_holding(x, r, i);
            x->rg[d].node = ++k;
            if (x->rg[d].spin_end < 0)
                number_nodes(x, d);
            i = x->rg[d].end + 1;
            fresh = true;
            continue;
        }
        if (fresh || x->targeted[i])
            k++;
        fresh = is_jump(&x->c->v[i]);
        x->node[i] = k;
        i++;
    }
    R->nnodes = k;
}

/* The node of region r that holds item t: its block, or the child region
 * that holds it; past the last item, the root's end. */
static int node_in(const dsp *x, int r, int t)
{
    if (t >= x->c->n)
        return x->rg[0].nnodes + 1;
    return x->inner[t] == r ? x->node[t] : x->rg[child_holding(x, r, t)].node;
}

static bool holds(const dsp *x, int r, int t) { return r == 0 || (x->rg[r].start <= t && t <= x->rg[r].end); }

static void set_reg(block *b, int reg, int64_t v, srcpos pos)
{
    inst a = litmus_new_inst(I_ASSIGN, pos);
    a.dst = reg;
    a.val = expr_const(v, pos);
    block_push(b, &a);
}

static expr *reg_is(int reg, int64_t v, srcpos pos, binop_t op)
{
    return expr_bin(op, expr_reg(reg, pos), expr_const(v, pos), pos);
}

/* Control goes from code at region r's level to item t: the loops it leaves
 * get 0, the region that holds both the target's node, and the loops it
 * enters the node of t in each. */
static void transfer(const dsp *x, int r, int t, srcpos pos, block *b)
{
    int a = r;
    while (!holds(x, a, t)) {
        set_reg(b, x->rg[a].reg, 0, pos);
        a = x->rg[a].parent;
    }
    set_reg(b, x->rg[a].reg, node_in(x, a, t), pos);
    if (t < x->c->n)
        for (int d = x->inner[t]; d != a; d = x->rg[d].parent)
            if (x->rg[d].spin_end < 0)
                set_reg(b, x->rg[d].reg, node_in(x, d, t), pos);
}

/* Region r's nodes, each under `if reg == node`, into out. */
static void emit_region(dsp *x, int r, block *out)
{
    items *c = x->c;
    const region *R = &x->rg[r];
    for (int i = R->start; i <= R->end;) {
        srcpos pos = c->v[i].pos;
        if (x->inner[i] != r) {
            int d = child_holding(x, r, i);
            const region *D = &x->rg[d];
            inst nd = litmus_new_inst(I_IF, pos);
            nd.val = reg_is(R->reg, D->node, pos, BIN_EQ);
            if (D->spin_end >= 0) {
                inst aw = litmus_take_await(c, D->start, D->spin_end);
                block_push(&nd.body, &aw);
                transfer(x, r, D->spin_end, pos, &nd.body);
            } else {
                inst loop = litmus_new_inst(I_WHILE, pos);
                loop.do_while = true;
                loop.val = reg_is(D->reg, 0, pos, BIN_NE);
                emit_region(x, d, &loop.body);
                block_push(&nd.body, &loop);
            }
            block_push(out, &nd);
            i = D->end + 1;
            continue;
        }
        int k = x->node[i], j = i;
        while (j < R->end && x->inner[j + 1] == r && x->node[j + 1] == k)
            j++;
        inst nd = litmus_new_inst(I_IF, pos);
        nd.val = reg_is(R->reg, k, pos, BIN_EQ);
        for (int m = i; m <= j; m++)
            if (c->v[m].kind == IT_INST) {
                block_push(&nd.body, &c->v[m].in);
                memset(&c->v[m].in, 0, sizeof c->v[m].in); /* moved */
            }
        item *last = &c->v[j];
        if (last->kind == IT_GOTO) {
            transfer(x, r, x->jt[j], last->pos, &nd.body);
        } else if (last->kind == IT_BRANCH) {
            inst br = litmus_new_inst(I_IF, last->pos);
            br.val = expr_bin(last->cmp, last->a, last->b, last->pos);
            last->a = last->b = NULL;
            transfer(x, r, x->jt[j], last->pos, &br.body);
            transfer(x, r, j + 1, last->pos, &br.els);
            block_push(&nd.body, &br);
        } else {
            transfer(x, r, j + 1, last->pos, &nd.body);
        }
        block_push(out, &nd);
        i = j + 1;
    }
}

bool litmus_dispatch(items *c, thread *th, diag *d, block *out)
{
    int n = c->n;
    if (n == 0)
        return true;
    dsp x = {.c = c};
    x.jt = malloc((size_t)n * sizeof *x.jt);
    x.targeted = calloc((size_t)n, sizeof *x.targeted);
    x.inner = calloc((size_t)n, sizeof *x.inner);
    x.node = calloc((size_t)n, sizeof *x.node);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        x.jt[i] = -1;
        if (!is_jump(&c->v[i]))
            continue;
        x.jt[i] = litmus_find_label(c, c->v[i].label);
        if (x.jt[i] < 0) {
            diag_error(d, c->v[i].pos.line, c->v[i].pos.col, "unknown label '%s' in thread %s", c->v[i].label,
                       th->name);
            ok = false;
        } else {
            x.targeted[x.jt[i]] = true;
        }
    }
    if (ok) {
        find_regions(&x);
        for (int r = 0; r < x.nrg && ok; r++) {
            if (x.rg[r].spin_end >= 0)
                continue;
            char name[48];
            if (r == 0)
                snprintf(name, sizeof name, "pc");
            else
                snprintf(name, sizeof name, "pc_%s", c->v[x.rg[r].start].label);
            x.rg[r].reg = litmus_thread_reg(th, name, strlen(name));
            if (x.rg[r].reg < 0) {
                srcpos pos = c->v[x.rg[r].start].pos;
                diag_error(d, pos.line, pos.col, "unsupported: more than 64 registers in one thread");
                ok = false;
            }
        }
    }
    if (ok) {
        number_nodes(&x, 0);
        transfer(&x, 0, 0, c->v[0].pos, out);
        emit_region(&x, 0, out);
    }
    free(x.jt);
    free(x.targeted);
    free(x.inner);
    free(x.node);
    free(x.rg);
    return ok;
}
