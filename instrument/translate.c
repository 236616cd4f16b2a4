/* LLVM IR -> memsim threads.  Each thread of a launch is translated on its
 * own, by running its kernel's code with what is known about it: its thread
 * and work-group ids, the launch's arguments and the addresses of the
 * launch's memory are numbers, so address arithmetic (GEPs, Iris's heap
 * translation), thread-id branches and counted loops are computed here, as
 * the GPU would.  Values read from memory are not known: they become the
 * thread's registers, and what is computed from them becomes expressions.
 * A branch on such a value becomes an `if` (joined at the branch's
 * immediate post-dominator), or, when it leaves a loop, a spin: the loop's
 * last iteration, with the load or CAS its exit depends on made an `await`.
 * Calls are inlined. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- barriers ------------------------------------------------------------------------------- */

/* fence.release.wg; barrier; fence.acquire.wg is __syncthreads: the barrier
 * already orders the work-group both ways (docs/language.md §7), so the two
 * fences would only add events. */
static void fold_barrier_fences(block *b)
{
    for (int i = 0; i < b->n; i++) {
        inst *in = &b->v[i];
        if (in->kind == I_IF) {
            fold_barrier_fences(&in->body);
            fold_barrier_fences(&in->els);
        }
    }
    int w = 0;
    for (int i = 0; i < b->n; i++) {
        inst *in = &b->v[i];
        bool wgfence = in->kind == I_FENCE && in->scope <= SCOPE_WG;
        bool before = wgfence && i + 1 < b->n && b->v[i + 1].kind == I_BARRIER && in->ord != ORD_ACQUIRE;
        bool after = wgfence && i > 0 && b->v[i - 1].kind == I_BARRIER && in->ord != ORD_RELEASE;
        if (before || after)
            continue;
        b->v[w++] = *in;
    }
    b->n = w;
}

/* ---- threads ---------------------------------------------------------------------------------- */

static bool translate_thread(xlate *x, LLVMValueRef fn, const val *args, int nargs)
{
    frame f = {0};
    f.fn = fn;
    f.g = cfg_of(x, fn);
    f.visits = calloc((size_t)f.g->n + 1, sizeof *f.visits);
    int k = 0;
    for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p), k++)
        vmap_put(&f.vals, p, k < nargs ? val_copy(&args[k]) : val_known(0));
    x_forward_clear(x);
    LLVMBasicBlockRef last = NULL;
    val ret = {0};
    wend e = x_walk(x, &f, LLVMGetEntryBasicBlock(fn), NULL, NULL, &x->th->code, &last, &ret);
    val_free(&ret);
    vmap_free(&f.vals);
    free(f.visits);
    x_forward_clear(x);
    if (e == W_FAIL || x->failed)
        return false;
    fold_barrier_fences(&x->th->code);
    return true;
}

static int cell_of_memref(const test *t, const thread *th, const memref *m)
{
    if (m->ptr)
        return -1;
    int l = m->loc;
    if (l < 0)
        l = t->heap.vars[m->symvar].loc[m->peer ? (int)m->peer->value : th->gpu];
    return t->locs[l].first_cell + (m->index ? (int)m->index->value : 0);
}

static bool writes_cell(const test *t, const thread *th, const block *b, int cell)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if ((in->kind == I_ST || in->kind == I_RMW || (in->kind == I_AWAIT && in->await_rmw)) &&
            cell_of_memref(t, th, &in->mem) == cell)
            return true;
        if (in->kind == I_IF && (writes_cell(t, th, &in->body, cell) || writes_cell(t, th, &in->els, cell)))
            return true;
    }
    return false;
}

/* The launch's threads in kernel (instance) kidx: grid x block threads, each
 * translated; those that do nothing are left out (*idle counts them). */
static void make_threads(xlate *x, LLVMValueRef fn, const val *args, int kidx, int *next_wg, int *next_wave, int *idle)
{
    test *t = x->t;
    const launch *L = x->L;
    char kname[256];
    snprintf(kname, sizeof kname, "%s", t->kernels[kidx].name);
    for (char *c = kname; *c; c++)
        if (*c == '@')
            *c = '_'; /* K@2, the second launch of K, names its threads K_2_... */
    x->kname = kname;
    int wave = x->m->nvptx ? 32 : 64;
    x->lds_first_loc = t->nlocs;
    for (int b = 0; b < L->grid && !x->failed; b++) {
        int wg = (*next_wg)++;
        int wave0 = *next_wave;
        *next_wave += (int)((L->block + wave - 1) / wave);
        for (int tid = 0; tid < L->block && !x->failed; tid++) {
            t->threads = realloc(t->threads, (size_t)(t->nthreads + 1) * sizeof *t->threads);
            thread *th = &t->threads[t->nthreads++];
            memset(th, 0, sizeof *th);
            char name[300];
            snprintf(name, sizeof name, "%s_b%d_t%d", kname, b, tid);
            th->name = strdup(name);
            th->gpu = L->gpu;
            th->wg = wg;
            th->wg_label = b;
            th->wave = wave0 + tid / wave;
            th->kernel = kidx;
            th->pos = L->pos;
            x->th = th;
            x->last_pos = (srcpos){0, 0};
            x->tid = tid;
            x->wg = b;
            if (!translate_thread(x, fn, args, L->nargs))
                break;
            if (th->code.n == 0) {
                /* a thread that does nothing (not even a barrier): only the
                 * threads that touch memory or synchronize matter */
                free(th->name);
                for (int r = 0; r < th->nregs; r++)
                    free(th->regs[r]);
                free(th->regs);
                t->nthreads--;
                (*idle)++;
            }
        }
    }
    x->kname = NULL;
}

int instrument_test(test *t, const launch_file *lf, const instr_opts *o, instr_notes *notes, char *err, size_t errsz)
{
    instr_opts opts = *o;
    if (opts.unroll <= 0)
        opts.unroll = 32;
    xlate X = {.t = t, .o = &opts, .notes = notes, .err = err, .errsz = errsz};
    xlate *x = &X;
    module **mods = calloc((size_t)lf->n + 1, sizeof *mods);
    char **paths = calloc((size_t)lf->n + 1, sizeof *paths);
    int nmods = 0, rc = -1;
    int next_wg = 0, next_wave = 0;
    int first_kernel = t->nkernels;
    g_fwd.n = 0;
    for (int li = 0; li < lf->n; li++) {
        const launch *L = &lf->v[li];
        x->L = L;
        x->launch_index = li;
        x->cur = NULL;
        char path[4096];
        if (L->file[0] == '/' || !opts.launch_dir)
            snprintf(path, sizeof path, "%s", L->file);
        else
            snprintf(path, sizeof path, "%s/%s", opts.launch_dir, L->file);
        module *m = NULL;
        for (int i = 0; i < nmods && !m; i++)
            if (strcmp(paths[i], path) == 0)
                m = mods[i];
        if (!m) {
            m = module_load(path, &opts, err, errsz);
            if (!m)
                goto out;
            mods[nmods] = m;
            paths[nmods++] = strdup(path);
        }
        x->m = m;
        LLVMValueRef fn = module_find_kernel(m, L->kernel);
        if (!fn) {
            char have[1024] = "";
            for (LLVMValueRef g = LLVMGetFirstFunction(m->mod); g; g = LLVMGetNextFunction(g)) {
                size_t n;
                const char *gn = LLVMGetValueName2(g, &n);
                if (!LLVMIsDeclaration(g) && strncmp(gn, "llvm.", 5) != 0 && strlen(have) + n + 3 < sizeof have)
                    snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s", have[0] ? ", " : "", gn);
            }
            snprintf(err, errsz, "%s:%d:%d: error: %s has no kernel named %s (it defines: %s)", t->file, L->pos.line,
                     L->pos.col, path, L->kernel, have[0] ? have : "no functions");
            goto out;
        }
        int nparams = (int)LLVMCountParams(fn);
        if (L->nargs > nparams) {
            snprintf(err, errsz, "%s:%d:%d: error: %s takes %d arguments; the launch gives %d", t->file, L->pos.line,
                     L->pos.col, L->kernel, nparams, L->nargs);
            goto out;
        }
        int k = 0;
        for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p), k++)
            if (k >= L->nargs && LLVMGetFirstUse(p)) {
                snprintf(err, errsz, "%s:%d:%d: error: %s takes %d arguments and uses its argument %d; the launch gives "
                                     "%d (only unused trailing arguments, as Triton's scratch pointers, may be left out)",
                         t->file, L->pos.line, L->pos.col, L->kernel, nparams, k + 1, L->nargs);
                goto out;
            }
        val *args = calloc((size_t)L->nargs + 1, sizeof *args);
        for (int a = 0; a < L->nargs; a++) {
            const launch_arg *A = &L->args[a];
            int64_t addr = A->value;
            if (A->kind != ARG_INT && !mem_arg_address(x, A, &addr)) {
                char why[1024];
                snprintf(why, sizeof why, "%s", err);
                const char *msg = strstr(why, "error: ");
                snprintf(err, errsz, "%s:%d:%d: error: %s", t->file, A->pos.line, A->pos.col, msg ? msg + 7 : why);
                free(args);
                goto out;
            }
            args[a] = val_known(addr);
        }
        int idle = 0, nthreads0 = t->nthreads;
        if (lf->has_host) {
            /* the host block made the kernels: one instance (LABEL or LABEL@n) per launch of it */
            size_t ll = strlen(L->label);
            for (int k = 0; k < first_kernel && !x->failed; k++)
                if (strncmp(t->kernels[k].name, L->label, ll) == 0 &&
                    (t->kernels[k].name[ll] == 0 || t->kernels[k].name[ll] == '@'))
                    make_threads(x, fn, args, k, &next_wg, &next_wave, &idle);
        } else {
            t->kernels = realloc(t->kernels, (size_t)(t->nkernels + 1) * sizeof *t->kernels);
            kernel *K = &t->kernels[t->nkernels];
            memset(K, 0, sizeof *K);
            int dup = 0;
            for (int j = 0; j < lf->n; j++)
                dup += strcmp(lf->v[j].label, L->label) == 0;
            char kname[256];
            if (dup > 1)
                snprintf(kname, sizeof kname, "%s_gpu%d_%d", L->label, L->gpu, li);
            else
                snprintf(kname, sizeof kname, "%s", L->label);
            K->name = strdup(kname);
            K->gpu = L->gpu;
            K->pos = L->pos;
            make_threads(x, fn, args, t->nkernels++, &next_wg, &next_wave, &idle);
        }
        if (idle && !x->failed)
            xnote(x, "%s: %d of its %lld threads touch no memory and reach no barrier; they are left out", L->label,
                  idle, (long long)(t->nthreads - nthreads0 + idle));
        for (int a = 0; a < L->nargs; a++)
            val_free(&args[a]);
        free(args);
        if (x->failed)
            goto out;
    }
    /* launch order (with a host block, the host block's) */
    for (int li = 0; li < lf->n && !lf->has_host; li++) {
        const launch *L = &lf->v[li];
        kernel *K = &t->kernels[first_kernel + li];
        for (int a = 0; a < L->nafter; a++) {
            bool found = false;
            for (int j = 0; j < lf->n; j++)
                if (strcmp(lf->v[j].label, L->after[a]) == 0 && j != li) {
                    K->after = realloc(K->after, (size_t)(K->nafter + 1) * sizeof *K->after);
                    K->after[K->nafter++] = first_kernel + j;
                    found = true;
                }
            if (!found) {
                snprintf(err, errsz, "%s:%d:%d: error: after %s: no other launch of a kernel named %s", t->file,
                         L->pos.line, L->pos.col, L->after[a], L->after[a]);
                goto out;
            }
        }
    }
    /* forwarded work-group loads: only their own thread writes those cells */
    for (int i = 0; i < g_fwd.n; i++)
        for (int th = 0; th < t->nthreads; th++)
            if (th != g_fwd.thread[i] && writes_cell(t, &t->threads[th], &t->threads[th].code, g_fwd.cell[i])) {
                char cn[128];
                cell_name(t, g_fwd.cell[i], cn, sizeof cn);
                snprintf(err, errsz, "%s: error: thread %s reads back its own store to work-group memory %s, which "
                                     "thread %s writes too: which store it reads is not decided by this translation",
                         t->file, t->threads[g_fwd.thread[i]].name, cn, t->threads[th].name);
                goto out;
            }
    int maxgpu = t->ngpus - 1;
    for (int i = 0; i < t->nlocs; i++)
        if (t->locs[i].home > maxgpu)
            maxgpu = t->locs[i].home;
    for (int i = 0; i < t->nthreads; i++)
        if (t->threads[i].gpu > maxgpu)
            maxgpu = t->threads[i].gpu;
    t->ngpus = maxgpu + 1;
    /* workgroup and wave numbers of the launch's threads are far from any .lit ones */
    test_index_cells(t);
    rc = 0;
out:
    for (int i = 0; i < nmods; i++) {
        module_free(mods[i]);
        free(paths[i]);
    }
    free(mods);
    free(paths);
    for (int i = 0; i < x->ncfgs; i++) {
        free(x->cfgs[i]->bb);
        free(x->cfgs[i]->reach);
        free(x->cfgs[i]->ipdom);
        free(x->cfgs[i]->endless);
        free(x->cfgs[i]);
    }
    free(x->cfgs);
    x_forward_clear(x);
    free(x->fw_cell);
    free(x->fw_val);
    free(g_fwd.cell);
    free(g_fwd.thread);
    memset(&g_fwd, 0, sizeof g_fwd);
    free(g_regsrc.bb);
    memset(&g_regsrc, 0, sizeof g_regsrc);
    return rc;
}

void instr_notes_free(instr_notes *n)
{
    for (int i = 0; i < n->n; i++)
        free(n->v[i]);
    free(n->v);
    memset(n, 0, sizeof *n);
}
