#include "plan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int loc_size(const location *l) { return l->type == TY_I64 || l->type == TY_U64 ? 8 : l->type == TY_I8 ? 1 : 4; }

int mem_static_loc(const test *t, int gpu, const memref *m)
{
    if (m->ptr || m->peer)
        return -1;
    if (m->symvar >= 0)
        return gpu >= 0 && gpu < t->heap.ranks ? t->heap.vars[m->symvar].loc[gpu] : -1;
    return m->loc;
}

/* Writes of register reg anywhere in a block (assignments, loads, loops). */
static int reg_writes(const block *b, int reg, const inst **only)
{
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->dst == reg && in->kind != I_FENCE && in->kind != I_BARRIER && in->kind != I_IF && in->kind != I_ST) {
            n++;
            *only = in;
        }
        if (in->kind == I_IF || in->kind == I_FOR)
            n += reg_writes(&in->body, reg, only) + reg_writes(&in->els, reg, only);
    }
    return n;
}

static bool static_eval(const thread *T, const expr *e, const int64_t *ov, const bool *ovs, int depth, int64_t *out)
{
    if (!e || depth > 32)
        return false;
    int64_t a = 0, b = 0;
    switch (e->kind) {
    case EX_CONST: *out = e->value; return true;
    case EX_REG: {
        if (e->reg >= 0 && e->reg < PLAN_MAX_REGS && ovs && ovs[e->reg]) {
            *out = ov[e->reg];
            return true;
        }
        const inst *only = NULL;
        if (reg_writes(&T->code, e->reg, &only) != 1 || only->kind != I_ASSIGN)
            return false;
        /* assigned once, at the top level (the template's indices, constants) */
        bool top = false;
        for (int i = 0; i < T->code.n && !top; i++)
            top = &T->code.v[i] == only;
        return top && static_eval(T, only->val, ov, ovs, depth + 1, out);
    }
    case EX_NEG:
        if (!static_eval(T, e->a, ov, ovs, depth + 1, &a))
            return false;
        *out = (int64_t)(0ull - (uint64_t)a);
        return true;
    case EX_NOT:
        if (!static_eval(T, e->a, ov, ovs, depth + 1, &a))
            return false;
        *out = !a;
        return true;
    case EX_BNOT:
        if (!static_eval(T, e->a, ov, ovs, depth + 1, &a))
            return false;
        *out = ~a;
        return true;
    case EX_BIN:
        if (!static_eval(T, e->a, ov, ovs, depth + 1, &a) || !static_eval(T, e->b, ov, ovs, depth + 1, &b))
            return false;
        switch (e->op) {
        case BIN_ADD: *out = (int64_t)((uint64_t)a + (uint64_t)b); return true;
        case BIN_SUB: *out = (int64_t)((uint64_t)a - (uint64_t)b); return true;
        case BIN_MUL: *out = (int64_t)((uint64_t)a * (uint64_t)b); return true;
        case BIN_DIV: *out = b == 0 || (b == -1 && a == INT64_MIN) ? 0 : a / b; return true;
        case BIN_MOD: *out = b == 0 || (b == -1 && a == INT64_MIN) ? 0 : a % b; return true;
        case BIN_AND: *out = a & b; return true;
        case BIN_OR: *out = a | b; return true;
        case BIN_XOR: *out = a ^ b; return true;
        case BIN_SHL: *out = (int64_t)((uint64_t)a << (b & 63)); return true;
        case BIN_SHR: *out = a >> (b & 63); return true;
        case BIN_EQ: *out = a == b; return true;
        case BIN_NE: *out = a != b; return true;
        case BIN_LT: *out = a < b; return true;
        case BIN_LE: *out = a <= b; return true;
        case BIN_GT: *out = a > b; return true;
        case BIN_GE: *out = a >= b; return true;
        case BIN_LAND: *out = a && b; return true;
        case BIN_LOR: *out = a || b; return true;
        }
        return false;
    default: return false;
    }
}

bool thread_static_value(const thread *T, const expr *e, const int64_t *ov, const bool *ovs, int64_t *out)
{
    return static_eval(T, e, ov, ovs, 0, out);
}

bool block_has_barrier(const block *b)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->kind == I_BARRIER)
            return true;
        if ((in->kind == I_IF || in->kind == I_FOR) && (block_has_barrier(&in->body) || block_has_barrier(&in->els)))
            return true;
    }
    return false;
}

bool static_loop(const thread *T, const inst *in, const int64_t *ov, const bool *ovs, int64_t *lo, int64_t *hi,
                 int64_t *step)
{
    *step = 1;
    if (!static_eval(T, in->val, ov, ovs, 0, lo) || !static_eval(T, in->val2, ov, ovs, 0, hi) ||
        (in->want && !static_eval(T, in->want, ov, ovs, 0, step)))
        return false;
    return *step > 0 && in->dst >= 0 && in->dst < PLAN_MAX_REGS && (*hi - *lo) / *step < 4096;
}

/* Barriers every thread of the thread's work-group passes, counting a loop's
 * barriers once per iteration (its bounds must be known when the kernel is
 * generated: the generator unrolls it); -1 when a barrier sits under an if
 * or in a loop whose bounds depend on the run. */
static int count_barriers(const thread *T, const block *b, bool under_if, int64_t *ov, bool *ovs, const inst **bad)
{
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->kind == I_BARRIER) {
            if (under_if) {
                *bad = in;
                return -1;
            }
            n++;
        } else if (in->kind == I_IF) {
            if (count_barriers(T, &in->body, true, ov, ovs, bad) < 0 || count_barriers(T, &in->els, true, ov, ovs, bad) < 0)
                return -1;
        } else if (in->kind == I_FOR) {
            if (!block_has_barrier(&in->body))
                continue;
            int64_t lo, hi, st;
            if (under_if || !static_loop(T, in, ov, ovs, &lo, &hi, &st)) {
                *bad = in;
                return -1;
            }
            bool was = ovs[in->dst];
            int64_t old = ov[in->dst];
            for (int64_t it = lo; it < hi; it += st) {
                ov[in->dst] = it;
                ovs[in->dst] = true;
                int k = count_barriers(T, &in->body, false, ov, ovs, bad);
                if (k < 0)
                    return -1;
                n += k;
            }
            ov[in->dst] = old;
            ovs[in->dst] = was;
        }
    }
    return n;
}

/* Expressions the generators compile: arithmetic, and the heap's addresses
 * (&var[i], translate) when the thread's GPU has a heap. */
static bool expr_ok(const expr *e, bool heap)
{
    if (!e)
        return true;
    if ((e->kind == EX_ADDR || e->kind == EX_TRANSLATE) && !heap)
        return false;
    if (e->kind != EX_CONST && e->kind != EX_REG && e->kind != EX_BIN && e->kind != EX_NEG && e->kind != EX_NOT &&
        e->kind != EX_BNOT && e->kind != EX_ADDR && e->kind != EX_TRANSLATE && e->kind != EX_GROUP)
        return false;
    return expr_ok(e->a, heap) && expr_ok(e->b, heap) && expr_ok(e->c, heap);
}

/* Constructs the generators do not (yet) turn into kernels.  heap: the
 * thread's GPU is a rank of the symmetric heap (its addresses can be made). */
static const char *unsupported(const block *b, bool heap, const inst **at)
{
    const char *noheap = "a symmetric-heap access or address on a GPU that has no heap";
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        *at = in;
        if (in->proxy != PROXY_GENERIC || in->proxy_fence)
            return "PTX proxies (texture/surface/constant accesses, fence.proxy) are not generated by hwrun";
        if (in->kind == I_AWAIT && in->val2 && !in->await_rmw)
            return "wait_until_any is not generated by hwrun yet";
        switch (in->kind) {
        case I_LD:
        case I_ST:
        case I_RMW:
        case I_AWAIT:
            if ((in->mem.symvar >= 0 || in->mem.ptr) && !heap)
                return noheap;
            if (in->mem.loc < 0 && in->mem.symvar < 0 && !in->mem.ptr)
                return "a memory operand hwrun cannot place";
            if (!expr_ok(in->mem.index, heap) || !expr_ok(in->val, heap) || !expr_ok(in->val2, heap) ||
                !expr_ok(in->want, heap) || !expr_ok(in->mem.peer, heap) || !expr_ok(in->mem.ptr, heap))
                return noheap;
            break;
        case I_BARRIER:
            if (in->bar_id || in->bar_count || in->bar_arrive)
                return "named barriers and bar.arrive are not run on hardware by hwrun";
            break;
        case I_ASSIGN:
            if (!expr_ok(in->val, heap))
                return noheap;
            break;
        case I_IF: {
            if (!expr_ok(in->val, heap))
                return noheap;
            const char *w = unsupported(&in->body, heap, at);
            if (!w)
                w = unsupported(&in->els, heap, at);
            if (w)
                return w;
            break;
        }
        case I_FOR: {
            if (!expr_ok(in->val, heap) || !expr_ok(in->val2, heap) || !expr_ok(in->want, heap))
                return noheap;
            const char *w = unsupported(&in->body, heap, at);
            if (w)
                return w;
            break;
        }
        case I_FENCE: break;
        default: return "this statement is not run on hardware by hwrun yet";
        }
    }
    return NULL;
}

static int pow2_floor(int x)
{
    int p = 1;
    while (p * 2 <= x)
        p *= 2;
    return p;
}

int plan_rows(const hw_plan *p, int block)
{
    int warps = block / 32;
    if (warps < p->vmax)
        return 0;
    return pow2_floor(warps / p->vmax);
}

int plan_build(hw_plan *p, const test *t)
{
    memset(p, 0, sizeof *p);
    p->t = t;
    p->role = calloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *p->role);
    if (t->nthreads == 0) {
        snprintf(p->why, sizeof p->why, "the test has no threads");
        return -1;
    }
    for (int i = 0; i < t->nthreads; i++) {
        const thread *th = &t->threads[i];
        const inst *at = NULL;
        /* Host writes between launches run as a one-thread kernel of their own on the written
         * location's device (as torch's zero_() of Iris's locks does). */
        bool heap = t->heap.present && th->gpu >= 0 && th->gpu < t->heap.ranks;
        const char *w = unsupported(&th->code, heap, &at);
        if (w) {
            snprintf(p->why, sizeof p->why, "%s:%d:%d: thread %s: %s", t->file, at ? at->pos.line : th->pos.line,
                     at ? at->pos.col : th->pos.col, th->name, w);
            return -1;
        }
        if (th->gpu < 0 || th->gpu >= 64 || th->kernel < 0 || th->kernel >= 64) {
            snprintf(p->why, sizeof p->why, "thread %s: GPU or kernel number out of hwrun's range (0..63)", th->name);
            return -1;
        }
    }
    for (int l = 0; l < t->nlocs; l++)
        if (t->locs[l].home >= 64) {
            snprintf(p->why, sizeof p->why, "location %s: GPU number out of hwrun's range (0..63)", t->locs[l].name);
            return -1;
        }
    /* GPUs in use, numbered densely in order. */
    bool used[64] = {0};
    for (int i = 0; i < t->nthreads; i++)
        if (!t->threads[i].host && t->threads[i].gpu >= 0 && t->threads[i].gpu < 64)
            used[t->threads[i].gpu] = true;
    for (int l = 0; l < t->nlocs; l++) {
        if (t->locs[l].home == HOME_HOST)
            p->uses_host = true;
        else if (t->locs[l].home >= 0 && t->locs[l].home < 64)
            used[t->locs[l].home] = true;
    }
    for (int g = 0; g < 64; g++) {
        p->dev_of_gpu[g] = -1;
        if (!used[g])
            continue;
        if (p->ngpus == PLAN_MAX_GPUS) {
            snprintf(p->why, sizeof p->why, "the test uses more than %d GPUs", PLAN_MAX_GPUS);
            return -1;
        }
        p->dev_of_gpu[g] = p->ngpus;
        p->gpu_of_dev[p->ngpus++] = g;
    }
    /* Kernels with threads, in an order that respects `after`. */
    int nk = t->nkernels;
    if (nk > 64) {
        snprintf(p->why, sizeof p->why, "more than 64 kernels");
        return -1;
    }
    bool before[64][64];
    test_kernel_order(t, before);
    int level[64] = {0};
    for (int round = 0; round < nk; round++)
        for (int i = 0; i < nk; i++)
            for (int j = 0; j < nk; j++)
                if (before[i][j] && level[j] < level[i] + 1)
                    level[j] = level[i] + 1;
    bool has_threads[64] = {false};
    for (int i = 0; i < t->nthreads; i++)
        has_threads[t->threads[i].kernel] = true;
    p->k = calloc((size_t)(nk > 0 ? nk : 1), sizeof *p->k);
    int order[64], no = 0;
    for (int lv = 0; lv <= nk; lv++)
        for (int k = 0; k < nk; k++)
            if (has_threads[k] && level[k] == lv)
                order[no++] = k;
    int pk_of[64];
    for (int k = 0; k < nk; k++)
        pk_of[k] = -1;
    /* Levels renumbered densely over the kernels kept. */
    int lastlv = -1;
    for (int i = 0; i < no; i++) {
        int k = order[i];
        hw_kernel *K = &p->k[p->nk];
        pk_of[k] = p->nk++;
        K->kernel = k;
        K->gpu = t->kernels[k].gpu;
        K->dev = K->gpu >= 0 && K->gpu < 64 ? p->dev_of_gpu[K->gpu] : -1;
        if (K->dev < 0)
            K->host = true;
        if (level[k] != lastlv) {
            lastlv = level[k];
            p->nlevels++;
        }
        K->level = p->nlevels - 1;
        K->after = calloc((size_t)(nk > 0 ? nk : 1), sizeof *K->after);
        for (int j = 0; j < nk; j++)
            if (before[j][k] && pk_of[j] >= 0)
                K->after[K->nafter++] = pk_of[j];
    }
    /* Groups and waves. */
    for (int i = 0; i < t->nthreads; i++) {
        const thread *th = &t->threads[i];
        hw_kernel *K = &p->k[pk_of[th->kernel]];
        int g;
        for (g = 0; g < K->ngroups; g++)
            if (K->groups[g].wg == th->wg)
                break;
        if (g == K->ngroups) {
            K->groups = realloc(K->groups, (size_t)(K->ngroups + 1) * sizeof *K->groups);
            memset(&K->groups[g], 0, sizeof K->groups[g]);
            K->groups[g].wg = th->wg;
            K->groups[g].nbar = -1;
            K->ngroups++;
        }
        hw_group *G = &K->groups[g];
        G->threads = realloc(G->threads, (size_t)(G->nthreads + 1) * sizeof *G->threads);
        G->threads[G->nthreads++] = i;
        /* Its wave: the index of the first earlier thread of the group in the same wave. */
        int w = -1;
        for (int q = 0; q < G->nthreads - 1; q++)
            if (t->threads[G->threads[q]].wave == th->wave) {
                w = p->role[G->threads[q]].wave;
                break;
            }
        if (w < 0) {
            w = G->nwaves++;
            G->wave_size = realloc(G->wave_size, (size_t)G->nwaves * sizeof *G->wave_size);
            G->wave_size[w] = 0;
        }
        p->role[i] = (hw_role){.pk = pk_of[th->kernel], .group = g, .wave = w, .lane = G->wave_size[w]++};
        const inst *bad = NULL;
        int64_t ov[PLAN_MAX_REGS] = {0};
        bool ovs[PLAN_MAX_REGS] = {false};
        int nb = th->nregs > PLAN_MAX_REGS ? -1 : count_barriers(th, &th->code, false, ov, ovs, &bad);
        if (nb < 0) {
            snprintf(p->why, sizeof p->why,
                     "%s:%d:%d: thread %s has a barrier inside if/else or in a loop whose bounds are not known when "
                     "the kernel is generated; hwrun runs only barriers that every thread of the work-group reaches "
                     "unconditionally (anything else could deadlock the GPU)",
                     t->file, bad ? bad->pos.line : th->pos.line, bad ? bad->pos.col : th->pos.col, th->name);
            return -1;
        }
        if (G->nbar >= 0 && G->nbar != nb) {
            snprintf(p->why, sizeof p->why,
                     "threads of work-group %d pass different numbers of barriers (the models say this hangs); "
                     "on a GPU it could deadlock, so hwrun does not run it",
                     th->wg);
            return -1;
        }
        G->nbar = nb;
    }
    /* A host step runs on the device of the first location it writes (device 0 for host memory). */
    for (int k = 0; k < p->nk; k++) {
        hw_kernel *K = &p->k[k];
        if (!K->host)
            continue;
        K->dev = 0;
        const thread *th = K->ngroups ? &t->threads[K->groups[0].threads[0]] : NULL;
        if (th && th->code.n && th->code.v[0].kind == I_ST && th->code.v[0].mem.loc >= 0) {
            int home = t->locs[th->code.v[0].mem.loc].home;
            if (home >= 0 && home < 64 && p->dev_of_gpu[home] >= 0)
                K->dev = p->dev_of_gpu[home];
        }
    }
    p->vmax = p->cmax = 1;
    for (int k = 0; k < p->nk; k++)
        for (int g = 0; g < p->k[k].ngroups; g++) {
            hw_group *G = &p->k[k].groups[g];
            if (G->nwaves > p->vmax)
                p->vmax = G->nwaves;
            for (int w = 0; w < G->nwaves; w++)
                if (G->wave_size[w] > p->cmax)
                    p->cmax = G->wave_size[w];
        }
    if (p->cmax > 32) {
        snprintf(p->why, sizeof p->why, "a wave with more than 32 threads");
        return -1;
    }
    if (p->vmax > 32) {
        snprintf(p->why, sizeof p->why, "a work-group with more than 32 waves (1024 threads)");
        return -1;
    }
    p->L = pow2_floor(32 / p->cmax);
    return 0;
}

void plan_free(hw_plan *p)
{
    for (int k = 0; k < p->nk; k++) {
        for (int g = 0; g < p->k[k].ngroups; g++) {
            free(p->k[k].groups[g].threads);
            free(p->k[k].groups[g].wave_size);
        }
        free(p->k[k].groups);
        free(p->k[k].after);
    }
    free(p->k);
    free(p->role);
    memset(p, 0, sizeof *p);
}
