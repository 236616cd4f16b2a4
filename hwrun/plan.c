#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int loc_size(const location *l) { return l->type == TY_I64 || l->type == TY_U64 ? 8 : 4; }

/* Barriers on every path through a block; -1 when a barrier sits under an if. */
static int count_barriers(const block *b, bool nested, const inst **bad)
{
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->kind == I_BARRIER) {
            if (nested) {
                *bad = in;
                return -1;
            }
            n++;
        } else if (in->kind == I_IF || in->kind == I_FOR) {
            if (count_barriers(&in->body, true, bad) < 0 || count_barriers(&in->els, true, bad) < 0)
                return -1;
        }
    }
    return n;
}

static bool expr_ok(const expr *e)
{
    if (!e)
        return true;
    if (e->kind != EX_CONST && e->kind != EX_REG && e->kind != EX_BIN && e->kind != EX_NEG && e->kind != EX_NOT &&
        e->kind != EX_BNOT)
        return false;
    return expr_ok(e->a) && expr_ok(e->b);
}

/* Constructs the generators do not (yet) turn into kernels. */
static const char *unsupported(const block *b, const inst **at)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        *at = in;
        switch (in->kind) {
        case I_LD:
        case I_ST:
        case I_RMW:
        case I_AWAIT:
            if (in->mem.loc < 0 || in->mem.ptr || in->mem.peer)
                return "symmetric-heap and pointer operands are not run on hardware by hwrun";
            if (!expr_ok(in->mem.index) || !expr_ok(in->val) || !expr_ok(in->val2) || !expr_ok(in->want))
                return "address expressions (&x, translate) are not run on hardware by hwrun";
            break;
        case I_BARRIER:
            if (in->bar_id || in->bar_count || in->bar_arrive)
                return "named barriers and bar.arrive are not run on hardware by hwrun";
            break;
        case I_ASSIGN:
            if (!expr_ok(in->val))
                return "address expressions (&x, translate) are not run on hardware by hwrun";
            break;
        case I_IF: {
            if (!expr_ok(in->val))
                return "address expressions (&x, translate) are not run on hardware by hwrun";
            const char *w = unsupported(&in->body, at);
            if (!w)
                w = unsupported(&in->els, at);
            if (w)
                return w;
            break;
        }
        case I_FOR: {
            if (!expr_ok(in->val) || !expr_ok(in->val2) || !expr_ok(in->want))
                return "address expressions (&x, translate) are not run on hardware by hwrun";
            const char *w = unsupported(&in->body, at);
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
        const char *w = th->host ? "host-side writes between launches are not run on hardware by hwrun" : NULL;
        if (!w)
            w = unsupported(&th->code, &at);
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
        if (t->locs[l].type == TY_I8) {
            snprintf(p->why, sizeof p->why, "%s:%d:%d: location %s: i8 locations are not run on hardware by hwrun",
                     t->file, t->locs[l].pos.line, t->locs[l].pos.col, t->locs[l].name);
            return -1;
        }
    for (int l = 0; l < t->nlocs; l++)
        if (t->locs[l].home >= 64) {
            snprintf(p->why, sizeof p->why, "location %s: GPU number out of hwrun's range (0..63)", t->locs[l].name);
            return -1;
        }
    /* GPUs in use, numbered densely in order. */
    bool used[64] = {0};
    for (int i = 0; i < t->nthreads; i++)
        if (t->threads[i].gpu >= 0 && t->threads[i].gpu < 64)
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
    bool before[64][64] = {{false}};
    if (nk > 64) {
        snprintf(p->why, sizeof p->why, "more than 64 kernels");
        return -1;
    }
    for (int k = 0; k < nk; k++)
        for (int a = 0; a < t->kernels[k].nafter; a++)
            before[t->kernels[k].after[a]][k] = true;
    for (int m = 0; m < nk; m++)
        for (int i = 0; i < nk; i++)
            for (int j = 0; j < nk; j++)
                if (before[i][m] && before[m][j])
                    before[i][j] = true;
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
        K->dev = p->dev_of_gpu[K->gpu];
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
        int nb = count_barriers(&th->code, false, &bad);
        if (nb < 0) {
            snprintf(p->why, sizeof p->why,
                     "%s:%d:%d: thread %s has a barrier inside if/else or a loop; hwrun runs only barriers that every "
                     "thread of the work-group reaches unconditionally (anything else could deadlock the GPU)",
                     t->file, bad->pos.line, bad->pos.col, th->name);
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
