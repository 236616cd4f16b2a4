#include "hwtest.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lit/parse.h"
#include "util.h"

int hwtest_prepare(hw_testresult *r, const char *file, backend_t bk, const hw_opts *o)
{
    memset(r, 0, sizeof *r);
    r->file = strdup(file);
    r->judge = -1;
    diag d = {0};
    lit_options lo = {.define_names = o->defines_names, .define_values = o->defines_values, .ndefines = o->ndefines};
    r->t = lit_parse_file_opts(file, &d, &lo);
    if (!r->t) {
        r->status = TR_BAD_INPUT;
        snprintf(r->why, sizeof r->why, "%s", d.msg ? d.msg : "cannot parse");
        diag_free(&d);
        return -1;
    }
    diag_free(&d);
    /* Placement first: it refuses what hwrun does not run, before any exploring. */
    if (plan_build(&r->p, r->t) != 0) {
        r->status = TR_SKIPPED;
        snprintf(r->why, sizeof r->why, "%s", r->p.why);
        plan_free(&r->p);
        return -1;
    }
    r->have_p = true;
    explore_opts eo = {0};
    for (int m = 0; m < o->nmodels; m++)
        eo.models[eo.nmodels++] = o->models[m];
    double t0 = hw_now();
    if (explore(r->t, &eo, &r->er) != 0) {
        r->status = TR_BAD_INPUT;
        snprintf(r->why, sizeof r->why, "%s", r->er.err);
        explore_result_free(&r->er);
        return -1;
    }
    r->have_er = true;
    r->explore_s = hw_now() - t0;
    if (otab_build(&r->o, r->t, &r->er) != 0) {
        r->status = TR_ERROR;
        snprintf(r->why, sizeof r->why, "out of memory building the outcome table");
        return -1;
    }
    r->have_o = true;
    const char *judge = o->judge ? o->judge : bk == BK_CUDA ? "ptx" : "src11";
    r->judge = otab_model(&r->o, judge);
    if (r->judge < 0)
        r->judge = 0;
    char err[512];
    if (codegen(&r->c, bk, &r->p, &r->o, NULL, 1, err, sizeof err) != 0) {
        r->status = TR_SKIPPED;
        snprintf(r->why, sizeof r->why, "%s", err);
        return -1;
    }
    r->have_c = true;
    for (int d2 = 0; d2 < PLAN_MAX_GPUS; d2++)
        r->devmap[d2] = d2;
    return 0;
}

uint64_t weak_count(const hw_testresult *r, const hw_result *res)
{
    uint64_t k = 0;
    if (!res->hist)
        return 0;
    for (int e = 0; e < r->o.n; e++)
        if (r->o.e[e].cond)
            k += res->hist[e];
    /* States no model produced count when they satisfy the condition (from the sample). */
    for (int i = 0; i < res->nextra; i++)
        if (otab_cond(&r->o, res->extra_vals + (size_t)i * r->o.nshow))
            k += res->extra_count[i];
    return k;
}

/* Which locations a block reads or writes (mask: 1 any access, 2 a read-modify-write). */
static void loc_access(const block *b, unsigned char *acc)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        /* Heap operands (var@peer, [ptr]) never name host memory. */
        if ((in->kind == I_LD || in->kind == I_ST || in->kind == I_RMW || in->kind == I_AWAIT) && in->mem.loc >= 0) {
            acc[in->mem.loc] |= 1;
            if (in->kind == I_RMW || (in->kind == I_AWAIT && in->await_rmw))
                acc[in->mem.loc] |= 2;
        }
        if (in->kind == I_IF || in->kind == I_FOR) {
            loc_access(&in->body, acc);
            loc_access(&in->els, acc);
        }
    }
}

bool host_atomics_caveat(const hw_plan *p, const hw_gpu *g, const int *devmap, char *why, size_t whysz)
{
    const test *t = p->t;
    if (why && whysz)
        why[0] = 0;
    /* A test that declares the platform (target ... no_host_atomics) is
     * judged by models that already act so. */
    if (!t || !p->uses_host || t->nlocs <= 0 || t->no_host_atomics)
        return false;
    unsigned char *acc = calloc((size_t)t->nlocs, 1);
    bool found = false;
    for (int l = 0; l < t->nlocs && !found; l++) {
        if (t->locs[l].home != HOME_HOST)
            continue;
        bool rmw = false, seen_dev[GPU_MAX_DEV] = {false};
        int ndev = 0, bad = -1;
        for (int th = 0; th < t->nthreads; th++) {
            memset(acc, 0, (size_t)t->nlocs);
            loc_access(&t->threads[th].code, acc);
            if (!acc[l])
                continue;
            rmw = rmw || (acc[l] & 2);
            int pk = p->role[th].pk;
            if (pk < 0 || pk >= p->nk)
                continue;
            int dev = devmap ? devmap[p->k[pk].dev] : p->k[pk].dev;
            if (dev < 0 || dev >= GPU_MAX_DEV)
                continue;
            if (!seen_dev[dev]) {
                seen_dev[dev] = true;
                ndev++;
                if (g && dev < g->ndev && g->dev[dev].host_native_atomics == 0 && bad < 0)
                    bad = dev;
            }
        }
        if (rmw && ndev >= 2 && bad >= 0) {
            found = true;
            if (why && whysz)
                snprintf(why, whysz,
                         "read-modify-writes on host-memory location %s from %d devices, and device %d reports no native "
                         "host atomics (hostNativeAtomicSupported = 0): the platform does not make them atomic across "
                         "devices",
                         t->locs[l].name, ndev, bad);
        }
    }
    free(acc);
    return found;
}

void hw_opts_default(hw_opts *o)
{
    memset(o, 0, sizeof *o);
    o->models[0] = &model_ptx;
    o->models[1] = &model_src11;
    o->models[2] = &model_sc;
    o->nmodels = 3;
    env_default(&o->env);
}

int hwtest_run(hw_testresult *r, hw_gpu *g, const hw_opts *o, double seconds, uint64_t instances)
{
    if (o->fold_gpus)
        for (int d = 0; d < PLAN_MAX_GPUS; d++)
            r->devmap[d] = r->devmap[0];
    if (r->p.ngpus > g->ndev && !o->fold_gpus) {
        r->status = TR_SKIPPED;
        snprintf(r->why, sizeof r->why, "needs %d GPUs, %d present", r->p.ngpus, g->ndev);
        return -1;
    }
    hw_session *s = NULL;
    char err[4096];
    if (session_open(&s, g, &r->p, &r->o, &r->c, r->devmap, &r->ptx, &r->compile_s, err, sizeof err) != 0) {
        r->status = TR_ERROR;
        snprintf(r->why, sizeof r->why, "%s", err);
        return -1;
    }
    /* Did the compiler keep every intended instruction? */
    if (r->ptx)
        for (int i = 0; i < r->c.nexpect; i++)
            if (!strstr(r->ptx, r->c.expect[i])) {
                r->missing = realloc(r->missing, (size_t)(r->nmissing + 1) * sizeof *r->missing);
                r->missing[r->nmissing++] = strdup(r->c.expect[i]);
            }
    /* Tests across GPUs: sweep the start skew; otherwise one environment. */
    bool multi = false; /* kernels on different devices that run at the same time */
    for (int k = 0; k < r->p.nk; k++)
        for (int j = 0; j < k; j++)
            multi = multi || (r->p.k[k].dev != r->p.k[j].dev && r->p.k[k].level == r->p.k[j].level);
    int nsk = multi && o->nskews > 0 ? o->nskews : 1;
    r->skew = calloc((size_t)nsk, sizeof *r->skew);
    r->nskew = nsk;
    int rc = 0;
    for (int i = 0; i < nsk; i++) {
        hw_env env = o->env;
        if (multi && o->nskews > 0)
            env.skew = o->skews[i];
        else if (!multi)
            env.skew = 0;
        r->skew[i].skew_cycles = (double)env.skew;
        uint64_t want = instances / (uint64_t)nsk;
        if (want < 1)
            want = 1;
        if (session_run(s, &env, o->seed + (uint64_t)i * 0x9E3779B97F4A7C15ull, want, seconds / nsk, &r->skew[i].r, err,
                        sizeof err) != 0) {
            r->status = TR_ERROR;
            snprintf(r->why, sizeof r->why, "%s", err);
            rc = -1;
            break;
        }
        result_add(&r->total, &r->skew[i].r, r->o.nshow);
        if (o->verbose)
            fprintf(stderr, "memsim hwrun: %s: skew %lld: %llu instances in %.2f s\n", r->t->name, env.skew,
                    (unsigned long long)r->skew[i].r.instances, r->skew[i].r.seconds);
    }
    session_close(s);
    if (rc == 0) {
        r->status = TR_RAN;
        const otab *ot = &r->o;
        r->platform_caveat = host_atomics_caveat(&r->p, g, r->devmap, r->caveat, sizeof r->caveat);
        bool forb = false;
        for (int e = 0; e < ot->n; e++)
            if (r->total.hist[e] && !(ot->e[e].allowed & (1u << r->judge)) && !ot->racy_ub[r->judge])
                forb = true;
        uint64_t other = r->total.hist[ot_bucket_other(ot)];
        if (other && !ot->racy_ub[r->judge])
            forb = true;
        /* Many instances in no model's state: more likely the harness than the hardware. */
        r->anomaly = r->total.instances && (double)other > HW_ANOMALY_FRACTION * (double)r->total.instances;
        r->forbidden_seen = forb && !r->platform_caveat;
    }
    return rc;
}

void hwtest_free(hw_testresult *r)
{
    if (r->have_c)
        code_free(&r->c);
    if (r->have_p)
        plan_free(&r->p);
    if (r->have_o)
        otab_free(&r->o);
    if (r->have_er)
        explore_result_free(&r->er);
    if (r->t)
        test_free(r->t);
    for (int i = 0; i < r->nskew; i++)
        result_free(&r->skew[i].r);
    free(r->skew);
    result_free(&r->total);
    free(r->ptx);
    for (int i = 0; i < r->nmissing; i++)
        free(r->missing[i]);
    free(r->missing);
    free(r->control_file);
    free(r->file);
    memset(r, 0, sizeof *r);
}

/* mp_rel_acq_sys_diff_gpu.lit -> mp_relaxed_agent_diff_wg.lit or mp_relaxed_sys_diff_gpu.lit, ... */
char *control_for(const char *file, const test *t)
{
    static const struct {
        const char *prefix;
        const char *same_gpu, *diff_gpu;
    } shapes[] = {
        {"mp_", "mp_relaxed_agent_diff_wg.lit", "mp_relaxed_sys_diff_gpu.lit"},
        {"sb_", "sb_relaxed_diff_wg.lit", "sb_relaxed_sys_diff_gpu.lit"},
        {"lb_", "lb_relaxed_diff_wg.lit", "lb_relaxed_sys_diff_gpu.lit"},
        {"iriw_", "iriw_relaxed_diff_wg.lit", "iriw_relaxed_sys_diff_gpu.lit"},
        {"2p2w_", "2p2w_relaxed_diff_wg.lit", "2p2w_relaxed_sys_diff_gpu.lit"},
        {"r_", "r_relaxed_diff_wg.lit", "r_relaxed_sys_diff_gpu.lit"},
        {"s_", "s_relaxed_diff_wg.lit", "s_relaxed_sys_diff_gpu.lit"},
        {"wrc_", "wrc_relaxed_diff_wg.lit", "wrc_relaxed_sys_diff_gpu.lit"},
        {"isa2_", "isa2_relaxed_diff_wg.lit", "isa2_relaxed_sys_diff_gpu.lit"},
        {"rwc_", "rwc_relaxed_diff_wg.lit", "rwc_relaxed_sys_diff_gpu.lit"},
    };
    char *copy = strdup(file), *copy2 = strdup(file);
    const char *base = basename(copy);
    const char *dir = dirname(copy2);
    bool diff_gpu = t && t->ngpus > 1;
    char *res = NULL;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes && !res; i++) {
        if (strncmp(base, shapes[i].prefix, strlen(shapes[i].prefix)) != 0)
            continue;
        const char *cands[2] = {diff_gpu ? shapes[i].diff_gpu : shapes[i].same_gpu, shapes[i].same_gpu};
        for (int c = 0; c < 2 && !res; c++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, cands[c]);
            if (access(path, R_OK) == 0)
                res = strdup(path);
        }
    }
    free(copy);
    free(copy2);
    return res;
}
