/* --json: everything the text says, for tools, through Debian's cJSON. */
#include <cjson/cJSON.h>

#include "../sim/diagnose.h"
#include "report.h"

/* A count as a JSON number, exact: below 2^53 as cJSON writes every number
 * (a double holds it), above as its decimal digits (a double would round). */
static void add_count(cJSON *obj, const char *name, count_t c)
{
    if (count_cmp(c, count_of(1ull << 53)) < 0) {
        cJSON_AddNumberToObject(obj, name, (double)c.w[0]);
        return;
    }
    char digits[COUNT_DIGITS];
    cJSON_AddItemToObject(obj, name, cJSON_CreateRaw(count_str(c, digits)));
}

static cJSON *event_json(const test *t, const event *e)
{
    cJSON *j = cJSON_CreateObject();
    char what[128], cn[96] = "";
    event_describe(t, e, what, sizeof what);
    if (e->cell >= 0)
        cell_name(t, e->cell, cn, sizeof cn);
    cJSON_AddStringToObject(j, "thread", e->thread >= 0 ? t->threads[e->thread].name : "init");
    cJSON_AddStringToObject(j, "access", what);
    cJSON_AddStringToObject(j, "location", cn);
    cJSON_AddStringToObject(j, "order", order_name(e->ord));
    cJSON_AddStringToObject(j, "scope", e->ord == ORD_PLAIN ? "none" : scope_name(e->scope));
    cJSON_AddNumberToObject(j, "gpu", e->gpu);
    int line = e->src ? e->src->pos.line : 0;
    if (t->srcmap && line >= 1 && line <= t->nsrcmap) {
        /* compiled code (memsim kernel): the kernel's source position */
        cJSON_AddStringToObject(j, "source_file", t->srcmap[line - 1].file);
        cJSON_AddNumberToObject(j, "line", t->srcmap[line - 1].line);
        cJSON_AddNumberToObject(j, "column", t->srcmap[line - 1].col);
    } else {
        cJSON_AddNumberToObject(j, "line", line);
        cJSON_AddNumberToObject(j, "column", e->src ? e->src->pos.col : 0);
    }
    if (e->src && e->src->shmem > 0 && e->src->shmem <= t->nshmem_calls)
        cJSON_AddStringToObject(j, "shmem_call", t->shmem_calls[e->src->shmem - 1].name);
    return j;
}

cJSON *report_json(const test *t, const explore_result *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "test", t->name);
    cJSON_AddStringToObject(root, "file", t->file);
    char c[1024];
    cond_to_string(t, t->cond, c, sizeof c);
    cJSON_AddStringToObject(root, "quantifier", t->quant == Q_EXISTS ? "exists" : t->quant == Q_NOT_EXISTS ? "~exists" : "forall");
    cJSON_AddStringToObject(root, "condition", c);
    cJSON_AddNumberToObject(root, "candidates", (double)r->candidates);
    cJSON_AddNumberToObject(root, "search_nodes", (double)r->nodes);
    cJSON_AddNumberToObject(root, "parts", r->nparts);
    cJSON_AddNumberToObject(root, "seconds", r->seconds);
    if (r->stopped_first)
        cJSON_AddBoolToObject(root, "stopped_first", true);
    cJSON *models = cJSON_AddArrayToObject(root, "models");
    for (int m = 0; m < r->nmodels; m++) {
        const model_result *mr = &r->mr[m];
        cJSON *jm = cJSON_CreateObject();
        cJSON_AddStringToObject(jm, "model", mr->m->name);
        cJSON *states = cJSON_AddArrayToObject(jm, "states");
        for (int i = 0; i < mr->nouts; i++) {
            cJSON *s = cJSON_CreateObject();
            cJSON *vals = cJSON_AddObjectToObject(s, "values");
            for (int k = 0; k < r->nshow; k++) {
                char name[128];
                show_item_name(t, &r->show[k], name, sizeof name);
                cJSON_AddNumberToObject(vals, name, (double)mr->outs[i].vals[k]);
            }
            add_count(s, "executions", mr->outs[i].exact);
            cJSON_AddBoolToObject(s, "condition", mr->outs[i].cond);
            cJSON_AddBoolToObject(s, "hang", mr->outs[i].hang);
            cJSON_AddItemToArray(states, s);
        }
        cJSON_AddBoolToObject(jm, "ok", result_ok(t, mr));
        add_count(jm, "positive", mr->exact.positive);
        add_count(jm, "negative", mr->exact.negative);
        add_count(jm, "consistent", mr->exact.consistent);
        cJSON_AddStringToObject(jm, "observation",
                                mr->positive == 0 ? "Never" : mr->negative == 0 ? "Always" : "Sometimes");
        cJSON *races = cJSON_AddArrayToObject(jm, "races");
        for (int i = 0; i < mr->nraces; i++) {
            cJSON *jr = cJSON_CreateObject();
            cJSON_AddItemToObject(jr, "a", event_json(t, &mr->races[i].ea));
            cJSON_AddItemToObject(jr, "b", event_json(t, &mr->races[i].eb));
            cJSON_AddStringToObject(jr, "why", mr->races[i].why);
            add_count(jr, "executions", mr->races[i].exact);
            cJSON_AddItemToArray(races, jr);
        }
        cJSON_AddBoolToObject(jm, "races_are_undefined", mr->m->races_are_ub);
        add_count(jm, "hangs", mr->exact.hangs);
        add_count(jm, "cuts", mr->exact.cuts);
        if (mr->cuts)
            cJSON_AddStringToObject(jm, "cut", mr->cut_msg);
        if (mr->hangs)
            cJSON_AddStringToObject(jm, "hang", mr->hang_msg);
        if (mr->errors)
            cJSON_AddStringToObject(jm, "error", mr->error_msg);
        else if (mr->consistent == 0)
            cJSON_AddStringToObject(jm, "error", "no consistent execution: the verdict would be vacuous");
        diagnosis dg;
        diagnose(t, mr, &dg);
        cJSON *jd = cJSON_AddArrayToObject(jm, "diagnosis");
        for (int i = 0; i < dg.n; i++)
            cJSON_AddItemToArray(jd, cJSON_CreateString(dg.line[i]));
        verdict_t v = result_verdict(t, mr);
        cJSON_AddStringToObject(jm, "verdict", verdict_name(v));
        const expectation *ex = expectation_for(t, mr->m->name);
        if (ex) {
            cJSON_AddStringToObject(jm, "expected", verdict_name(ex->verdict));
            cJSON_AddBoolToObject(jm, "expectation_met", v == ex->verdict);
        }
        cJSON_AddItemToArray(models, jm);
    }
    return root;
}
