#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static bool allowed_by(const hw_testresult *r, int e, int m) { return (r->o.e[e].allowed >> m & 1u) != 0; }

const char *outcome_class(const hw_testresult *r, int b)
{
    const otab *o = &r->o;
    uint64_t k = r->total.hist ? r->total.hist[b] : 0;
    bool ub = o->racy_ub[r->judge];
    if (b == ot_bucket_timeout(o))
        return k ? "await timed out (not judged)" : "no timeouts";
    if (b == ot_bucket_ooh(o))
        return k ? "out of heap (an access outside the instance's symmetric heaps: skipped, counted)" : "none";
    if (b == ot_bucket_other(o))
        return k ? (ub ? "seen, no model's state (racy program: undefined)"
                       : r->platform_caveat ? "seen, no model's state (PLATFORM: atomicity not guaranteed)"
                       : r->anomaly ? "FORBIDDEN, SEEN (no model's state; HARNESS ANOMALY SUSPECTED)"
                                    : "FORBIDDEN, SEEN (no model's state)")
                 : "none";
    if (o->e[b].hang)
        return "hang (a timed-out await shows it)";
    bool a = allowed_by(r, b, r->judge);
    if (a && k)
        return "allowed, seen";
    if (a) {
        /* The relaxed control speaks only for the weak outcome (the condition's). */
        if (!o->e[b].cond || !r->t->cond)
            return "allowed, not seen";
        if (!r->control_file)
            return "allowed, not seen (no control)";
        if (!r->control_ran)
            return "allowed, not seen (control not run)";
        return r->control_k ? "allowed, not seen (control seen)" : "allowed, not seen (control not seen either)";
    }
    if (k)
        return ub ? "seen (racy program: undefined)"
                  : r->platform_caveat ? "seen (PLATFORM: atomicity not guaranteed, not judged)" : "FORBIDDEN, SEEN";
    return "forbidden, not seen";
}

bool hw_bug_stats(const hw_testresult *r, const hw_result *R, uint64_t *k, double *first_s, uint64_t *first_launch)
{
    const otab *ot = &r->o;
    const test *t = r->t;
    *k = 0;
    *first_s = -1;
    *first_launch = 0;
    if (!t || !R->hist || (t->cond && t->quant != Q_FORALL))
        return false;
    /* An instance shows the bug when its final state breaks the forall, when it is one of the
     * models' error or hang states, when an await timed out, or when it left the heap. */
    bool *bug = calloc((size_t)R->nbuckets, sizeof *bug);
    for (int e = 0; e < ot->n; e++)
        bug[e] = ot->e[e].hang || ot->e[e].error || (t->cond && !ot->e[e].cond);
    /* A timed-out await is the bug only where the judging model says the kernel hangs or goes
     * wrong through the heap (a store that lands elsewhere leaves its consumer spinning); in a
     * kernel it calls correct or racy it is a bounded spin that gave up (its own bucket). */
    verdict_t v = ot->verdict[r->judge];
    bug[ot_bucket_timeout(ot)] = v == V_HANG || v == V_ERROR;
    bug[ot_bucket_ooh(ot)] = true;
    for (int b = 0; b < R->nbuckets; b++)
        if (bug[b] && R->hist[b]) {
            *k += R->hist[b];
            if (R->first_seen[b] >= 0 && (*first_s < 0 || R->first_seen[b] < *first_s)) {
                *first_s = R->first_seen[b];
                *first_launch = R->first_launches ? R->first_launches[b] : 0;
            }
        }
    /* States no model produced count when they break the condition (from the sample). */
    uint64_t xk = 0;
    for (int i = 0; i < R->nextra; i++)
        if (t->cond && !otab_cond(ot, R->extra_vals + (size_t)i * ot->nshow))
            xk += R->extra_count[i];
    if (xk) {
        *k += xk;
        int b = ot_bucket_other(ot);
        if (R->first_seen[b] >= 0 && (*first_s < 0 || R->first_seen[b] < *first_s)) {
            *first_s = R->first_seen[b];
            *first_launch = R->first_launches ? R->first_launches[b] : 0;
        }
    }
    free(bug);
    return true;
}

static bool verdict_is_bug(verdict_t v) { return v == V_FAILS || v == V_RACE || v == V_HANG || v == V_ERROR; }

static const char *cell_verdict(const hw_testresult *r, int e, int m)
{
    if (r->o.e[e].hang)
        return allowed_by(r, e, m) ? "hang" : "-";
    if (allowed_by(r, e, m))
        return "A";
    return r->o.racy_ub[m] ? "UB" : "F";
}

static void fmt_rate(char *buf, size_t n, double v)
{
    if (v == 0)
        snprintf(buf, n, "0");
    else
        snprintf(buf, n, "%.3g", v);
}

void hwreport_text(FILE *f, const hw_testresult *r, const hw_gpu *g, const hw_opts *o)
{
    const test *t = r->t;
    fprintf(f, "== %s  (%s)\n", t ? t->name : "?", r->file);
    if (r->status == TR_BAD_INPUT) {
        fprintf(f, "   bad input: %s\n\n", r->why);
        return;
    }
    if (r->status == TR_SKIPPED) {
        fprintf(f, "   not run: %s\n\n", r->why);
        return;
    }
    if (r->status == TR_ERROR && !r->total.hist) {
        fprintf(f, "   ERROR: %s\n\n", r->why);
        return;
    }
    const otab *ot = &r->o;
    const hw_result *R = &r->total;
    fprintf(f, "   %s:", g->name);
    for (int d = 0; d < r->p.ngpus; d++)
        fprintf(f, "%s device %d = %s (%s)", d ? "," : "", r->devmap[d], g->dev[r->devmap[d]].name,
                g->dev[r->devmap[d]].arch);
    fprintf(f, " | %s | %s\n", g->driver, g->compiler);
    char env[512];
    env_format(&R->env, env, sizeof env);
    fprintf(f, "   environment: %s\n", env);
    fprintf(f, "   %llu instances (%llu per launch, %llu launches) in %.2f s: %.3g instances/s; seed %#llx\n",
            (unsigned long long)R->instances, (unsigned long long)R->per_launch, (unsigned long long)R->launches,
            R->seconds, R->seconds > 0 ? (double)R->instances / R->seconds : 0, (unsigned long long)R->seed);
    if (r->ptx)
        fprintf(f, "   PTX holds %d of %d intended instructions%s\n", r->c.nexpect - r->nmissing, r->c.nexpect,
                r->nmissing ? " (MISSING ones listed below)" : "");
    for (int i = 0; i < r->nmissing; i++)
        fprintf(f, "     missing: %s\n", r->missing[i]);
    if (R->barrier_timeouts)
        fprintf(f, "   start barrier: %llu block arrivals gave up waiting\n", (unsigned long long)R->barrier_timeouts);
    /* The table. */
    int width = 18;
    char buf[1024];
    for (int e = 0; e < ot->n; e++) {
        otab_format(ot, ot->e[e].vals, buf, sizeof buf);
        int n = (int)strlen(buf) + 2;
        if (n > width)
            width = n > 70 ? 70 : n;
    }
    fprintf(f, "   %-*s", width, "outcome");
    for (int m = 0; m < ot->nmodels; m++)
        fprintf(f, " %-5s", ot->models[m]->name);
    fprintf(f, " %14s %10s %10s  %-29s %s\n", "count", "k/n", "rate/s", "95% interval (Clopper-Pearson)", "verdict");
    uint64_t n = R->instances;
    for (int b = 0; b < ot_nbuckets(ot); b++) {
        uint64_t k = R->hist ? R->hist[b] : 0;
        if (b < ot->n) {
            otab_format(ot, ot->e[b].vals, buf, sizeof buf);
            if (ot->e[b].cond)
                strncat(buf, " *", sizeof buf - strlen(buf) - 1);
        } else if (b == ot_bucket_timeout(ot)) {
            snprintf(buf, sizeof buf, "(await timed out)");
        } else if (b == ot_bucket_ooh(ot)) {
            if (!ot->t->heap.present)
                continue;
            snprintf(buf, sizeof buf, "(out of heap)");
        } else {
            snprintf(buf, sizeof buf, "(other state)");
        }
        fprintf(f, "   %-*.*s", width, width, buf);
        for (int m = 0; m < ot->nmodels; m++)
            fprintf(f, " %-5s", b < ot->n ? cell_verdict(r, b, m) : "");
        char kn[32], rate[32], ci[64];
        fmt_rate(kn, sizeof kn, n ? (double)k / (double)n : 0);
        fmt_rate(rate, sizeof rate, R->seconds > 0 ? (double)k / R->seconds : 0);
        if (n && k == 0) {
            snprintf(ci, sizeof ci, "[0, %.2g] (3/n %.2g)", upper95_zero(n), rule_of_three(n));
        } else if (n) {
            interval iv = clopper_pearson95(k, n);
            snprintf(ci, sizeof ci, "[%.3g, %.3g]", iv.lo, iv.hi);
        } else {
            snprintf(ci, sizeof ci, "-");
        }
        fprintf(f, " %14llu %10s %10s  %-29s %s\n", (unsigned long long)k, kn, rate, ci, outcome_class(r, b));
    }
    for (int i = 0; i < R->nextra; i++) {
        otab_format(ot, R->extra_vals + (size_t)i * ot->nshow, buf, sizeof buf);
        fprintf(f, "     other state: %s%s  (%llu in the sample)\n", buf,
                otab_cond(ot, R->extra_vals + (size_t)i * ot->nshow) ? " *" : "", (unsigned long long)R->extra_count[i]);
    }
    if (R->extra_dropped)
        fprintf(f, "     (%llu more other states not sampled)\n", (unsigned long long)R->extra_dropped);
    if (r->nskew > 1) {
        fprintf(f, "   start-skew sweep (relative start of device 0 vs the others over [-16, 16] x skew cycles):\n");
        for (int i = 0; i < r->nskew; i++) {
            const hw_result *S = &r->skew[i].r;
            fprintf(f, "     skew %6.0f: %12llu instances, condition seen %llu", r->skew[i].skew_cycles,
                    (unsigned long long)S->instances, (unsigned long long)weak_count(r, S));
            /* weak_count sees states no model produced only through the sample (at most EXTRA_CAP per batch). */
            if (S->extra_dropped)
                fprintf(f, " (+ up to %llu other states not sampled, condition unknown)",
                        (unsigned long long)S->extra_dropped);
            fprintf(f, "\n");
        }
    }
    if (t->cond) {
        uint64_t k = weak_count(r, R);
        verdict_t v = ot->verdict[r->judge];
        fprintf(f, "   condition (marked *; a state no model produced counts too): seen %llu of %llu; %s says %s%s\n", (unsigned long long)k,
                (unsigned long long)n, ot->models[r->judge]->name, verdict_name(v),
                k && k < 3 ? " (seen fewer than 3 times: re-run before trusting it)" : "");
    }
    {
        uint64_t bk, bl;
        double bs;
        if (hw_bug_stats(r, R, &bk, &bs, &bl)) {
            verdict_t v = ot->verdict[r->judge];
            if (verdict_is_bug(v) && bk)
                fprintf(f, "   bug (%s: %s): SEEN in %llu of %llu instances (%.3g), first after %.3g s (%llu launches)\n",
                        ot->models[r->judge]->name, verdict_name(v), (unsigned long long)bk, (unsigned long long)n,
                        n ? (double)bk / (double)n : 0, bs, (unsigned long long)bl);
            else if (verdict_is_bug(v))
                fprintf(f, "   bug (%s: %s): not seen in %llu instances (95%% bound on its rate: %.2g)\n",
                        ot->models[r->judge]->name, verdict_name(v), (unsigned long long)n, n ? upper95_zero(n) : 1.0);
            else if (bk)
                fprintf(f, "   no bug (%s: %s), yet a failing state SEEN in %llu of %llu instances\n",
                        ot->models[r->judge]->name, verdict_name(v), (unsigned long long)bk, (unsigned long long)n);
            else
                fprintf(f, "   no bug (%s: %s): no failing state in %llu instances (95%% bound on its rate: %.2g)\n",
                        ot->models[r->judge]->name, verdict_name(v), (unsigned long long)n, n ? upper95_zero(n) : 1.0);
        }
        if (t->heap.present) {
            fprintf(f, "   symmetric heap: %s%s; out of heap: %llu\n", R->heap_alloc[0] ? R->heap_alloc : "(not allocated)",
                    R->folded ? " (ranks folded onto one device)" : "",
                    (unsigned long long)R->hist[ot_bucket_ooh(ot)]);
        }
    }
    if (r->control_file)
        fprintf(f, "   control %s: weak outcome %s (%llu of %llu) in this environment\n", r->control_file,
                !r->control_ran ? "not run" : r->control_k ? "seen" : "not seen", (unsigned long long)r->control_k,
                (unsigned long long)r->control_n);
    if (r->status == TR_ERROR)
        fprintf(f, "   ERROR: %s\n", r->why);
    if (R->barrier_timeouts)
        fprintf(f, "   (a block that gave up at the start barrier still runs its roles: no instance is skipped, it is only"
                   " less lined up)\n");
    if (r->platform_caveat)
        fprintf(f, "   PLATFORM CAVEAT: %s; outcomes the judge forbids are not judged\n", r->caveat);
    if (r->anomaly && !r->platform_caveat && !ot->racy_ub[r->judge])
        fprintf(f, "   HARNESS ANOMALY SUSPECTED: %llu of %llu instances (%.3g, above %g) ended in states no model "
                   "produces; check the harness (reset, placement, synchronisation) before blaming the hardware\n",
                (unsigned long long)R->hist[ot_bucket_other(ot)], (unsigned long long)n,
                n ? (double)R->hist[ot_bucket_other(ot)] / (double)n : 0, HW_ANOMALY_FRACTION);
    fprintf(f, "   result: %s\n\n",
            r->forbidden_seen ? (r->anomaly ? "FORBIDDEN OUTCOME SEEN, HARNESS ANOMALY SUSPECTED (too many states no "
                                              "model produces)"
                                            : "FORBIDDEN OUTCOME SEEN (a bug in the model, the compiler or the hardware)")
            : r->platform_caveat ? "not judged: the platform does not guarantee the atomicity the test assumes"
                                 : "ok: no outcome the judging model forbids was seen");
    (void)o;
}

void hwreport_json_devices(jw *w, const hw_gpu *g)
{
    jw_str(w, "backend", g->name);
    jw_str(w, "driver", g->driver);
    jw_str(w, "compiler", g->compiler);
    jw_arr(w, "devices");
    for (int d = 0; d < g->ndev; d++) {
        const hw_device *D = &g->dev[d];
        jw_obj(w, NULL);
        jw_int(w, "index", d);
        jw_str(w, "name", D->name);
        jw_str(w, "arch", D->arch);
        jw_int(w, "multiprocessors", D->sms);
        jw_int(w, "max_threads_per_multiprocessor", D->max_threads_per_sm);
        jw_int(w, "clock_khz", D->clock_khz);
        jw_int(w, "pci_bus", D->pci_bus);
        jw_u64(w, "memory_bytes", D->mem);
        jw_int(w, "host_native_atomics", D->host_native_atomics);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

static void env_json(jw *w, const char *key, const hw_env *e)
{
    jw_obj(w, key);
    jw_int(w, "block", e->block);
    jw_int(w, "m", e->m);
    jw_int(w, "stress_blocks", e->stress_blocks);
    jw_int(w, "stress_iters", e->stress_iters);
    jw_int(w, "stress_pattern", e->stress_pattern);
    jw_int(w, "stress_targets", e->stress_targets);
    jw_int(w, "line_words", e->line_words);
    jw_int(w, "pre_iters", e->pre_iters);
    jw_int(w, "barrier", e->barrier);
    jw_int(w, "spacing", e->spacing);
    jw_int(w, "skew", e->skew);
    jw_int(w, "timeout", e->timeout);
    jw_int(w, "bar_budget", e->bar_budget);
    jw_end_obj(w);
}

static void values_json(jw *w, const char *key, const hw_testresult *r, const int64_t *vals)
{
    jw_obj(w, key);
    for (int k = 0; k < r->o.nshow; k++) {
        char name[160];
        const show_item *s = &r->o.show[k];
        if (s->is_mem)
            cell_name(r->t, s->cell, name, sizeof name);
        else
            snprintf(name, sizeof name, "%s:%s", r->t->threads[s->thread].name, r->t->threads[s->thread].regs[s->reg]);
        jw_int(w, name, (long long)vals[k]);
    }
    jw_end_obj(w);
}

static void stats_json(jw *w, uint64_t k, uint64_t n, double seconds, double first)
{
    jw_u64(w, "count", k);
    jw_num(w, "fraction", n ? (double)k / (double)n : 0);
    jw_num(w, "rate_per_s", seconds > 0 ? (double)k / seconds : 0);
    if (n) {
        interval cp = clopper_pearson95(k, n), wi = wilson95(k, n);
        jw_arr(w, "ci95_clopper_pearson");
        jw_num(w, NULL, cp.lo);
        jw_num(w, NULL, cp.hi);
        jw_end_arr(w);
        jw_arr(w, "ci95_wilson");
        jw_num(w, NULL, wi.lo);
        jw_num(w, NULL, wi.hi);
        jw_end_arr(w);
        if (k == 0) {
            jw_num(w, "upper95_exact", upper95_zero(n));
            jw_num(w, "upper95_rule_of_three", rule_of_three(n));
        }
        jw_num(w, "reproducibility", reproducibility(k));
    }
    if (first >= 0)
        jw_num(w, "first_seen_s", first);
    else
        jw_null(w, "first_seen_s");
}

static void hist_json(jw *w, const hw_result *R)
{
    jw_arr(w, "histogram");
    for (int b = 0; b < R->nbuckets; b++)
        jw_u64(w, NULL, R->hist[b]);
    jw_end_arr(w);
}

void hwreport_json(jw *w, const hw_testresult *r, const hw_gpu *g, const hw_opts *o, bool with_source)
{
    const test *t = r->t;
    jw_obj(w, NULL);
    jw_str(w, "file", r->file);
    jw_str(w, "test", t ? t->name : NULL);
    static const char *st[] = {"ran", "skipped", "error", "bad-input"};
    jw_str(w, "status", st[r->status]);
    if (r->status != TR_RAN)
        jw_str(w, "reason", r->why);
    if (!t || !r->have_o) {
        jw_end_obj(w);
        return;
    }
    const otab *ot = &r->o;
    jw_str(w, "backend", g ? g->name : NULL);
    jw_str(w, "judge_model", ot->models[r->judge]->name);
    jw_obj(w, "verdicts");
    for (int m = 0; m < ot->nmodels; m++)
        jw_str(w, ot->models[m]->name, verdict_name(ot->verdict[m]));
    jw_end_obj(w);
    jw_num(w, "explore_seconds", r->explore_s);
    if (r->have_p) {
        jw_int(w, "gpus", r->p.ngpus);
        jw_arr(w, "device_map");
        for (int d = 0; d < r->p.ngpus; d++) {
            jw_obj(w, NULL);
            jw_int(w, "test_gpu", r->p.gpu_of_dev[d]);
            jw_int(w, "device", r->devmap[d]);
            if (g && r->devmap[d] < g->ndev)
                jw_str(w, "name", g->dev[r->devmap[d]].name);
            jw_end_obj(w);
        }
        jw_end_arr(w);
        jw_arr(w, "placement");
        for (int i = 0; i < t->nthreads; i++) {
            const hw_role *ro = &r->p.role[i];
            const hw_kernel *K = &r->p.k[ro->pk];
            jw_obj(w, NULL);
            jw_str(w, "thread", t->threads[i].name);
            jw_str(w, "kernel", t->kernels[K->kernel].name);
            jw_int(w, "device", K->dev);
            jw_int(w, "block_group", ro->group);
            jw_int(w, "warp_in_group", ro->wave);
            jw_int(w, "lane_slot", ro->lane);
            jw_end_obj(w);
        }
        jw_end_arr(w);
        jw_arr(w, "memory");
        for (int l = 0; l < t->nlocs; l++) {
            const location *L = &t->locs[l];
            jw_obj(w, NULL);
            jw_str(w, "name", L->name);
            jw_str(w, "type", vtype_name(L->type));
            jw_int(w, "length", L->len);
            if (L->home == HOME_HOST)
                jw_str(w, "home", "host");
            else
                jw_int(w, "home_gpu", L->home);
            jw_str(w, "granularity", L->gran == GRAN_COARSE ? "coarse" : "fine");
            jw_str(w, "allocator_in_test", L->alloc);
            jw_end_obj(w);
        }
        jw_end_arr(w);
    }
    if (r->status == TR_RAN || r->total.hist) {
        const hw_result *R = &r->total;
        jw_u64(w, "instances", R->instances);
        jw_u64(w, "launches", R->launches);
        jw_u64(w, "instances_per_launch", R->per_launch);
        jw_num(w, "seconds", R->seconds);
        jw_num(w, "instances_per_s", R->seconds > 0 ? (double)R->instances / R->seconds : 0);
        jw_num(w, "compile_seconds", r->compile_s);
        jw_u64(w, "seed", R->seed);
        env_json(w, "environment", &R->env);
        jw_u64(w, "start_barrier_timeouts", R->barrier_timeouts);
        jw_arr(w, "outcomes");
        for (int e = 0; e < ot->n; e++) {
            jw_obj(w, NULL);
            values_json(w, "values", r, ot->e[e].vals);
            jw_bool(w, "condition", ot->e[e].cond);
            jw_bool(w, "hang", ot->e[e].hang);
            jw_bool(w, "error", ot->e[e].error);
            jw_obj(w, "models");
            for (int m = 0; m < ot->nmodels; m++)
                jw_str(w, ot->models[m]->name, cell_verdict(r, e, m));
            jw_end_obj(w);
            stats_json(w, R->hist[e], R->instances, R->seconds, R->first_seen[e]);
            jw_str(w, "class", outcome_class(r, e));
            jw_end_obj(w);
        }
        jw_end_arr(w);
        jw_obj(w, "timeouts");
        stats_json(w, R->hist[ot_bucket_timeout(ot)], R->instances, R->seconds, R->first_seen[ot_bucket_timeout(ot)]);
        jw_bool(w, "models_say_it_can_hang", ot->model_hangs[r->judge]);
        jw_end_obj(w);
        jw_obj(w, "out_of_heap");
        stats_json(w, R->hist[ot_bucket_ooh(ot)], R->instances, R->seconds, R->first_seen[ot_bucket_ooh(ot)]);
        jw_end_obj(w);
        jw_bool(w, "folded", R->folded);
        if (t->heap.present) {
            jw_obj(w, "heap");
            jw_int(w, "ranks", t->heap.ranks);
            jw_int(w, "bytes_per_rank_and_instance", (int)t->heap.size);
            jw_str(w, "granularity_in_test", t->heap.gran == GRAN_COARSE ? "coarse" : "fine");
            jw_str(w, "allocation", R->heap_alloc);
            jw_end_obj(w);
        }
        {
            uint64_t bk, bl;
            double bs;
            if (hw_bug_stats(r, R, &bk, &bs, &bl)) {
                verdict_t v = ot->verdict[r->judge];
                jw_obj(w, "bug");
                jw_str(w, "judge", ot->models[r->judge]->name);
                jw_str(w, "model_verdict", verdict_name(v));
                jw_bool(w, "model_says_buggy", verdict_is_bug(v));
                jw_str(w, "counted", "instances whose final state breaks the forall condition or is a model's error/hang "
                                     "state, accesses out of the heap, and (where the model says hang or error) awaits "
                                     "that timed out");
                jw_bool(w, "seen", bk > 0);
                jw_u64(w, "count", bk);
                jw_u64(w, "instances", R->instances);
                jw_num(w, "rate", R->instances ? (double)bk / (double)R->instances : 0);
                if (bk) {
                    jw_num(w, "first_seen_after_seconds", bs);
                    jw_u64(w, "first_seen_after_iterations", bl);
                } else {
                    jw_null(w, "first_seen_after_seconds");
                    jw_null(w, "first_seen_after_iterations");
                    jw_num(w, "upper95_exact", upper95_zero(R->instances));
                    jw_num(w, "upper95_rule_of_three", rule_of_three(R->instances));
                }
                jw_end_obj(w);
                /* Flat copies for readers that want one field each (memsim report). */
                jw_bool(w, "bug_seen", bk > 0);
                if (bk)
                    jw_num(w, "first_bug_seen_s", bs);
                else
                    jw_null(w, "first_bug_seen_s");
            }
        }
        jw_bool(w, "gpus_folded", R->folded);
        jw_u64(w, "out_of_heap_count", R->hist[ot_bucket_ooh(ot)]);
        jw_obj(w, "other");
        stats_json(w, R->hist[ot_bucket_other(ot)], R->instances, R->seconds, R->first_seen[ot_bucket_other(ot)]);
        jw_arr(w, "sample");
        for (int i = 0; i < R->nextra; i++) {
            jw_obj(w, NULL);
            values_json(w, "values", r, R->extra_vals + (size_t)i * ot->nshow);
            jw_u64(w, "count", R->extra_count[i]);
            jw_end_obj(w);
        }
        jw_end_arr(w);
        jw_u64(w, "not_sampled", R->extra_dropped);
        jw_end_obj(w);
        if (t->cond) {
            jw_obj(w, "condition");
            stats_json(w, weak_count(r, R), R->instances, R->seconds, -1);
            jw_end_obj(w);
        }
        jw_arr(w, "environments");
        for (int i = 0; i < r->nskew; i++) {
            const hw_result *S = &r->skew[i].r;
            jw_obj(w, NULL);
            env_json(w, "environment", &S->env);
            jw_u64(w, "seed", S->seed);
            jw_u64(w, "instances", S->instances);
            jw_u64(w, "launches", S->launches);
            jw_num(w, "seconds", S->seconds);
            jw_u64(w, "condition_count", weak_count(r, S));
            hist_json(w, S);
            jw_end_obj(w);
        }
        jw_end_arr(w);
        if (r->control_file) {
            jw_obj(w, "control");
            jw_str(w, "file", r->control_file);
            jw_bool(w, "ran", r->control_ran);
            jw_u64(w, "weak_count", r->control_k);
            jw_u64(w, "instances", r->control_n);
            jw_end_obj(w);
        }
        if (r->ptx) {
            jw_obj(w, "instruction_check");
            jw_arr(w, "expected");
            for (int i = 0; i < r->c.nexpect; i++)
                jw_str(w, NULL, r->c.expect[i]);
            jw_end_arr(w);
            jw_arr(w, "missing");
            for (int i = 0; i < r->nmissing; i++)
                jw_str(w, NULL, r->missing[i]);
            jw_end_arr(w);
            jw_end_obj(w);
        }
        jw_bool(w, "forbidden_seen", r->forbidden_seen);
        jw_bool(w, "harness_anomaly_suspected", r->anomaly);
        jw_bool(w, "platform_caveat", r->platform_caveat);
        if (r->platform_caveat)
            jw_str(w, "platform_caveat_reason", r->caveat);
        jw_str(w, "result", r->forbidden_seen ? "forbidden-seen"
                            : r->platform_caveat ? "platform-caveat"
                                                 : "ok");
    }
    if (with_source && r->have_c)
        jw_str(w, "source", r->c.src);
    (void)o;
    jw_end_obj(w);
}
