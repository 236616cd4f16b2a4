/* Kernels launched without a co-residency guarantee (`kernel K @gpuN launch
 * normal`).  A normal CUDA/HIP launch promises nothing about which of a
 * kernel's workgroups run at the same time: the GPU may run one workgroup to
 * its end before it schedules the next, and in any order.  NVSHMEM's
 * nvshmemx_collective_launch (a cooperative launch) exists to guarantee that
 * they all run at once.  So the workgroup that such a kernel runs first must
 * be able to finish before any other workgroup of its kernel starts.  For
 * every choice of first workgroup (one per such kernel), memsim explores the
 * test once more with the kernel's other workgroups gated on it: each thread
 * of the first workgroup ends by counting itself done on a hidden counter,
 * and each thread of the others starts by awaiting that count, so that they
 * never start if the first workgroup never ends.  An execution that hangs
 * there is a hang of the test. */
#include "explore_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SCHEDULES = 256 };

static void add_hang(const test *t, const int *first_wg, explore_result *res, const explore_result *alone)
{
    char which[256] = "";
    size_t at = 0;
    int n = 0;
    for (int k = 0; k < t->nkernels && k < 64 && at < sizeof which; k++)
        if (first_wg[k] >= 0) {
            at += (size_t)snprintf(which + at, sizeof which - at, "%swg%d of kernel %s", n ? " and " : "", first_wg[k],
                                   t->kernels[k].name);
            n++;
        }
    for (int m = 0; m < res->nmodels; m++) {
        const model_result *a = &alone->mr[m];
        model_result *mr = &res->mr[m];
        if (!a->hangs || mr->hangs)
            continue;
        count_add(&mr->exact.hangs, a->exact.hangs); /* mr had none: a's count fits */
        mr->hangs = count_long(mr->exact.hangs);
        int len = snprintf(mr->hang_msg, sizeof mr->hang_msg,
                 "%s -- this happens when %s %s scheduled first and the other workgroups of %s start only "
                 "after %s, which a launch without a co-residency guarantee (launch normal) allows: launch "
                 "collectively (nvshmemx_collective_launch, a cooperative launch: `launch collective`)",
                 a->hang_msg, which, n > 1 ? "are" : "is", n > 1 ? "their kernels" : "its kernel",
                 n > 1 ? "they end" : "it ends");
        if (len >= (int)sizeof mr->hang_msg) /* say that the advice was cut rather than end mid-word */
            memcpy(mr->hang_msg + sizeof mr->hang_msg - 4, "...", 4);
    }
}

/* The workgroup labels of kernel k's threads, in order of first appearance. */
static int kernel_wgs(const test *t, int k, int *wg, int *label, int cap)
{
    int n = 0;
    for (int i = 0; i < t->nthreads; i++) {
        const thread *th = &t->threads[i];
        if (th->host || th->kernel != k)
            continue;
        bool seen = false;
        for (int j = 0; j < n; j++)
            seen = seen || wg[j] == th->wg;
        if (!seen && n < cap) {
            wg[n] = th->wg;
            label[n++] = th->wg_label;
        }
    }
    return n;
}

static inst gate_inst(instkind_t kind, int loc, srcpos pos)
{
    inst in = {0};
    in.kind = kind;
    in.pos = pos;
    in.dst = -1;
    in.mem.loc = loc;
    in.mem.symvar = -1;
    in.scope = SCOPE_SYS;
    return in;
}

/* alone = t with kernel k's workgroups other than wg[k][pick[k]] gated on
 * it (count[k] > 0); the copies it makes are freed by ungate. */
static void gate(const test *t, test *alone, const int *count, const int *pick, int (*wg)[64])
{
    int nk = t->nkernels;
    alone->locs = malloc((size_t)(t->nlocs + nk) * sizeof *alone->locs);
    memcpy(alone->locs, t->locs, (size_t)t->nlocs * sizeof *alone->locs);
    alone->cell_owner = NULL;
    int *counter = malloc((size_t)(nk ? nk : 1) * sizeof *counter), *nfirst = calloc((size_t)(nk ? nk : 1), sizeof *nfirst);
    for (int k = 0; k < nk; k++) {
        counter[k] = -1;
        if (!count[k])
            continue;
        location L = {0};
        L.name = (char *)"__first_workgroup_done";
        L.type = TY_I64;
        L.len = 1;
        L.init = calloc(1, sizeof *L.init);
        L.home = t->kernels[k].gpu;
        L.first_cell = alone->ncells++;
        counter[k] = alone->nlocs;
        alone->locs[alone->nlocs++] = L;
    }
    test_index_cells(alone);
    for (int j = 0; j < t->nthreads; j++) {
        const thread *th = &t->threads[j];
        if (!th->host && th->kernel >= 0 && count[th->kernel] && th->wg == wg[th->kernel][pick[th->kernel]])
            nfirst[th->kernel]++;
    }
    alone->threads = malloc((size_t)t->nthreads * sizeof *alone->threads);
    memcpy(alone->threads, t->threads, (size_t)t->nthreads * sizeof *alone->threads);
    for (int j = 0; j < t->nthreads; j++) {
        thread *th = &alone->threads[j];
        int k = th->kernel;
        if (th->host || k < 0 || !count[k])
            continue;
        block code = {0};
        if (th->wg == wg[k][pick[k]]) {
            block_clone(&code, &th->code);
            inst done = gate_inst(I_RMW, counter[k], th->pos);
            done.rmw = RMW_ADD;
            done.ord = ORD_RELEASE;
            done.fail_ord = ORD_RELAXED;
            done.val = expr_const(1, th->pos);
            block_push(&code, &done);
        } else {
            inst wait = gate_inst(I_AWAIT, counter[k], th->pos);
            wait.ord = ORD_ACQUIRE;
            wait.await_op = BIN_GE;
            wait.want = expr_const(nfirst[k], th->pos);
            block_push(&code, &wait);
            block body;
            block_clone(&body, &th->code);
            for (int i = 0; i < body.n; i++)
                block_push(&code, &body.v[i]);
            free(body.v);
        }
        th->code = code;
    }
    free(counter);
    free(nfirst);
}

static void ungate(const test *t, test *alone)
{
    for (int j = 0; j < t->nthreads; j++)
        if (alone->threads[j].code.v != t->threads[j].code.v)
            block_free(&alone->threads[j].code);
    free(alone->threads);
    for (int l = t->nlocs; l < alone->nlocs; l++)
        free(alone->locs[l].init);
    free(alone->locs);
    free(alone->cell_owner);
}

int check_coresidency(const test *t, const explore_opts *o, explore_result *res)
{
    int nk = t->nkernels;
    int *count = calloc((size_t)(nk ? nk : 1), sizeof *count), *pick = calloc((size_t)(nk ? nk : 1), sizeof *pick);
    int(*wg)[64] = calloc((size_t)(nk ? nk : 1), sizeof *wg), (*label)[64] = calloc((size_t)(nk ? nk : 1), sizeof *label);
    long schedules = 1;
    for (int k = 0; k < nk; k++) {
        if (t->kernels[k].not_coresident)
            count[k] = kernel_wgs(t, k, wg[k], label[k], 64);
        if (count[k] < 2)
            count[k] = 0; /* one workgroup runs alone anyway */
        else
            schedules *= count[k];
    }
    int rc = 0;
    bool any = false;
    for (int k = 0; k < nk; k++)
        any = any || count[k];
    /* Trying only some first workgroups would miss hangs without saying so. */
    if (schedules > MAX_SCHEDULES) {
        snprintf(res->err, sizeof res->err,
                 "%s: error: the kernels launched normally give %ld choices of the workgroup each runs first, more than "
                 "memsim tries (%d); launch some of them collectively or give them fewer workgroups",
                 t->file, schedules, MAX_SCHEDULES);
        rc = 1;
        any = false;
    }
    /* Every choice of the workgroup that each such kernel runs first. */
    for (long s = 0; any && s < schedules && s < MAX_SCHEDULES && rc == 0; s++) {
        long rest = s;
        int first_wg[64 + 1];
        for (int k = 0; k < nk; k++) {
            pick[k] = count[k] ? (int)(rest % count[k]) : -1;
            if (count[k])
                rest /= count[k];
            if (k < 64)
                first_wg[k] = count[k] ? label[k][pick[k]] : -1;
        }
        test alone = *t;
        gate(t, &alone, count, pick, wg);
        explore_opts quiet = *o;
        quiet.progress = false;
        explore_result r;
        rc = explore_once(&alone, &quiet, &r);
        if (rc == 0)
            add_hang(t, first_wg, res, &r);
        else
            snprintf(res->err, sizeof res->err, "%s", r.err);
        explore_result_free(&r);
        ungate(t, &alone);
    }
    free(count);
    free(pick);
    free(wg);
    free(label);
    return rc;
}
