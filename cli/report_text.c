/* herd-like text: Test, States, Ok/No, Witnesses, Condition, Observation,
 * then what memsim adds: races, hangs, the verdict against `expect`. */
#include <stdio.h>
#include <string.h>

#include "../sim/diagnose.h"
#include "report.h"

static const char *quant_word(quant_t q) { return q == Q_EXISTS ? "exists" : q == Q_NOT_EXISTS ? "~exists" : "forall"; }

static void race_side(const test *t, const event *e, char *buf, int size)
{
    char what[128];
    event_describe(t, e, what, sizeof what);
    const char *ord = e->ord == ORD_PLAIN ? "plain" : order_name(e->ord);
    char scope[32] = "";
    if (e->ord != ORD_PLAIN)
        snprintf(scope, sizeof scope, ", %s scope", scope_name(e->scope));
    char at[160];
    test_line_name(t, e->src ? e->src->pos.line : 0, at, sizeof at);
    if (snprintf(buf, (size_t)size, "%s: %s (%s; %s%s; gpu%d)", e->thread >= 0 ? t->threads[e->thread].name : "init",
                 what, at, ord, scope, e->gpu) >= size)
        buf[size - 1] = 0; /* a long name is cut, never overrun */
}

/* An exact count as decimal text (a compound literal lives to the end of the
 * enclosing block: one per printf argument). */
#define N(c) count_str((c), (char[COUNT_DIGITS]){0})

static void report_model(FILE *out, const test *t, const explore_result *r, const model_result *mr)
{
    fprintf(out, "Test %s %s (model %s)\n", t->name, t->quant == Q_FORALL ? "Required" : "Allowed", mr->m->name);
    fprintf(out, "States %d\n", mr->nouts);
    for (int i = 0; i < mr->nouts; i++) {
        const outcome *o = &mr->outs[i];
        fprintf(out, "  ");
        for (int s = 0; s < r->nshow; s++) {
            char name[128], val[48];
            show_item_name(t, &r->show[s], name, sizeof name);
            format_value(t, r->show[s].is_mem ? r->show[s].cell : -1, o->vals[s], val, sizeof val);
            fprintf(out, "%s=%s; ", name, val);
        }
        fprintf(out, "%s%s(%s execution%s)%s\n", o->hang ? "HANG " : "", o->error ? "ERROR " : "", N(o->exact),
                o->count == 1 ? "" : "s", t->cond && o->cond ? " <- condition" : "");
    }
    fprintf(out, "%s\n", result_ok(t, mr) ? "Ok" : "No");
    fprintf(out, "Witnesses\nPositive: %s Negative: %s\n", N(mr->exact.positive), N(mr->exact.negative));
    char c[1024];
    cond_to_string(t, t->cond, c, sizeof c);
    fprintf(out, "Condition %s (%s)\n", quant_word(t->quant), c);
    const char *obs = mr->positive == 0 ? "Never" : mr->negative == 0 ? "Always" : "Sometimes";
    fprintf(out, "Observation %s %s %s %s\n", t->name, obs, N(mr->exact.positive), N(mr->exact.negative));
    if (mr->nraces == 0) {
        fprintf(out, "Races none\n");
    } else {
        fprintf(out, "Races %d%s\n", mr->nraces, mr->m->races_are_ub ? " (undefined behaviour under this model)" : "");
        for (int i = 0; i < mr->nraces; i++) {
            const race_report *rr = &mr->races[i];
            char a[256], b[256], cn[96];
            race_side(t, &rr->ea, a, sizeof a);
            race_side(t, &rr->eb, b, sizeof b);
            cell_name(t, rr->ea.cell, cn, sizeof cn);
            fprintf(out, "  race on %s between %s and %s: %s (in %s execution%s)\n", cn, a, b, rr->why, N(rr->exact),
                    rr->count == 1 ? "" : "s");
        }
    }
    if (mr->cuts)
        fprintf(out, "Cut %s execution%s at a loop bound (not in the states above): %s\n", N(mr->exact.cuts),
                mr->cuts == 1 ? "" : "s", mr->cut_msg);
    if (mr->hangs)
        fprintf(out, "Hang in %s execution%s: %s\n", N(mr->exact.hangs), mr->hangs == 1 ? "" : "s", mr->hang_msg);
    diagnosis dg;
    diagnose(t, mr, &dg);
    for (int i = 0; i < dg.n; i++)
        fprintf(out, "Diagnosis: %s\n", dg.line[i]);
    if (mr->errors)
        fprintf(out, "Error in %s execution%s: %s\n", N(mr->exact.errors), mr->errors == 1 ? "" : "s", mr->error_msg);
    if (mr->consistent == 0 && mr->cuts)
        fprintf(out, "Error: every consistent execution of this test was cut at a loop bound; raise the bound\n");
    else if (mr->consistent == 0)
        fprintf(out, "Error: no execution of this test is consistent under %s, so any verdict on its condition would "
                     "be vacuous (look for barriers that different threads can never reach together)\n",
                mr->m->name);
    verdict_t v = result_verdict(t, mr);
    const expectation *ex = expectation_for(t, mr->m->name);
    if (ex)
        fprintf(out, "Verdict %s (expected %s: %s)\n", verdict_name(v), verdict_name(ex->verdict),
                v == ex->verdict ? "ok" : "MISMATCH");
    else
        fprintf(out, "Verdict %s\n", verdict_name(v));
    if (r->stopped_first)
        fprintf(out, "Stopped at the first counterexample after %ld candidate executions: the states and counts "
                     "above are those found until then (--all explores every execution)\n",
                r->candidates);
    fprintf(out, "Time %s %.4f\n\n", t->name, r->seconds);
}

void report_text(FILE *out, const test *t, const explore_result *r)
{
    for (int m = 0; m < r->nmodels; m++)
        report_model(out, t, r, &r->mr[m]);
    if (r->nmodels > 1) {
        fprintf(out, "%-8s %-10s %-10s %-8s %s\n", "model", "verdict", "expected", "states", "executions");
        for (int m = 0; m < r->nmodels; m++) {
            const model_result *mr = &r->mr[m];
            const expectation *ex = expectation_for(t, mr->m->name);
            verdict_t v = result_verdict(t, mr);
            fprintf(out, "%-8s %-10s %-10s %-8d %s%s\n", mr->m->name, verdict_name(v), ex ? verdict_name(ex->verdict) : "-",
                    mr->nouts, N(mr->exact.consistent), ex ? (v == ex->verdict ? "  ok" : "  MISMATCH") : "");
        }
        fprintf(out, "\n");
    }
}
