#include "outcome.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same(const otab *o, const ot_entry *e, const int64_t *vals, bool hang, bool error)
{
    return e->hang == hang && e->error == error && memcmp(e->vals, vals, (size_t)o->nshow * sizeof *vals) == 0;
}

int otab_find(const otab *o, const int64_t *vals, bool hang, bool error)
{
    for (int i = 0; i < o->n; i++)
        if (same(o, &o->e[i], vals, hang, error))
            return i;
    return -1;
}

static int dom_index(const otab *o, int k, int64_t v)
{
    for (int d = 0; d < o->ndom[k]; d++)
        if (o->dom[k][d] == v)
            return d;
    return -1;
}

static long code_of(const otab *o, const int64_t *vals)
{
    long code = 0;
    for (int k = 0; k < o->nshow; k++) {
        int d = dom_index(o, k, vals[k]);
        if (d < 0)
            return -1;
        code = code * o->ndom[k] + d;
    }
    return code;
}

int otab_classify(const otab *o, const int64_t *vals, unsigned status)
{
    if (status & ST_OOH)
        return ot_bucket_ooh(o);
    if (status & ST_TIMEOUT)
        return ot_bucket_timeout(o);
    bool err = (status & ST_ERROR) != 0;
    int idx;
    if (o->lut) {
        long c = code_of(o, vals);
        idx = c < 0 ? -1 : o->lut[(err ? o->codes : 0) + c];
    } else {
        idx = otab_find(o, vals, false, err);
    }
    return idx < 0 ? ot_bucket_other(o) : idx;
}

int otab_build(otab *o, const test *t, const explore_result *r)
{
    memset(o, 0, sizeof *o);
    o->t = t;
    o->nshow = r->nshow;
    o->show = malloc((size_t)(r->nshow ? r->nshow : 1) * sizeof *o->show);
    if (!o->show)
        return -1;
    memcpy(o->show, r->show, (size_t)r->nshow * sizeof *o->show);
    o->nmodels = r->nmodels;
    int cap = 0;
    for (int m = 0; m < r->nmodels; m++) {
        const model_result *mr = &r->mr[m];
        o->models[m] = mr->m;
        o->verdict[m] = result_verdict(t, mr);
        o->racy_ub[m] = mr->m->races_are_ub && mr->nraces > 0;
        o->model_hangs[m] = mr->hangs > 0;
        for (int i = 0; i < mr->nouts; i++) {
            const outcome *oc = &mr->outs[i];
            int k = otab_find(o, oc->vals, oc->hang, oc->error);
            if (k < 0) {
                if (o->n == cap) {
                    cap = cap ? cap * 2 : 16;
                    ot_entry *ne = realloc(o->e, (size_t)cap * sizeof *ne);
                    if (!ne)
                        return -1;
                    o->e = ne;
                }
                k = o->n++;
                ot_entry *e = &o->e[k];
                memset(e, 0, sizeof *e);
                e->vals = malloc((size_t)(o->nshow ? o->nshow : 1) * sizeof *e->vals);
                if (!e->vals)
                    return -1;
                memcpy(e->vals, oc->vals, (size_t)o->nshow * sizeof *e->vals);
                e->hang = oc->hang;
                e->error = oc->error;
                e->cond = oc->cond;
            }
            o->e[k].allowed |= 1u << m;
        }
    }
    /* Domains over the entries a device can land in (not the hangs: a
     * timed-out await has its own bucket). */
    o->ndom = calloc((size_t)(o->nshow ? o->nshow : 1), sizeof *o->ndom);
    o->dom = calloc((size_t)(o->nshow ? o->nshow : 1), sizeof *o->dom);
    if (!o->ndom || !o->dom)
        return -1;
    for (int k = 0; k < o->nshow; k++) {
        o->dom[k] = malloc((size_t)(o->n ? o->n : 1) * sizeof **o->dom);
        if (!o->dom[k])
            return -1;
        for (int i = 0; i < o->n; i++) {
            if (o->e[i].hang)
                continue;
            if (dom_index(o, k, o->e[i].vals[k]) < 0)
                o->dom[k][o->ndom[k]++] = o->e[i].vals[k];
        }
    }
    long codes = 1;
    for (int k = 0; k < o->nshow && codes > 0; k++) {
        if (o->ndom[k] == 0 || codes * o->ndom[k] > OT_MAX_LUT)
            codes = o->ndom[k] == 0 ? 0 : -1;
        else
            codes *= o->ndom[k];
    }
    o->codes = codes;
    if (codes > 0) {
        o->lut = malloc((size_t)(2 * codes) * sizeof *o->lut);
        if (!o->lut)
            return -1;
        for (long c = 0; c < 2 * codes; c++)
            o->lut[c] = -1;
        for (int i = 0; i < o->n; i++) {
            if (o->e[i].hang)
                continue;
            long c = code_of(o, o->e[i].vals);
            o->lut[(o->e[i].error ? codes : 0) + c] = i;
        }
    } else {
        o->codes = -1;
    }
    return 0;
}

void otab_free(otab *o)
{
    for (int i = 0; i < o->n; i++)
        free(o->e[i].vals);
    free(o->e);
    if (o->dom)
        for (int k = 0; k < o->nshow; k++)
            free(o->dom[k]);
    free(o->dom);
    free(o->ndom);
    free(o->lut);
    free(o->show);
    memset(o, 0, sizeof *o);
}

void otab_format(const otab *o, const int64_t *vals, char *buf, int size)
{
    int at = 0;
    buf[0] = 0;
    for (int k = 0; k < o->nshow && at < size; k++) {
        char name[128], val[48];
        const show_item *s = &o->show[k];
        if (s->is_mem)
            cell_name(o->t, s->cell, name, sizeof name);
        else
            snprintf(name, sizeof name, "%s:%s", o->t->threads[s->thread].name, o->t->threads[s->thread].regs[s->reg]);
        format_value(o->t, s->is_mem ? s->cell : -1, vals[k], val, sizeof val);
        int n = snprintf(buf + at, (size_t)(size - at), "%s%s=%s", k ? "; " : "", name, val);
        if (n < 0)
            break;
        at += n;
    }
}

int otab_model(const otab *o, const char *name)
{
    for (int m = 0; m < o->nmodels; m++)
        if (strcmp(o->models[m]->name, name) == 0)
            return m;
    return -1;
}

static int64_t opnd(const otab *o, const operand *op, const int64_t *vals, bool *ok)
{
    if (op->kind == OPND_CONST)
        return op->value;
    for (int k = 0; k < o->nshow; k++) {
        const show_item *s = &o->show[k];
        if (op->kind == OPND_MEM ? (s->is_mem && s->cell == op->cell)
                                 : (!s->is_mem && s->thread == op->thread && s->reg == op->reg))
            return vals[k];
    }
    *ok = false;
    return 0;
}

static bool eval(const otab *o, const cond *c, const int64_t *vals, bool *ok)
{
    switch (c->kind) {
    case C_TRUE: return true;
    case C_FALSE: return false;
    case C_AND: return eval(o, c->a, vals, ok) && eval(o, c->b, vals, ok);
    case C_OR: return eval(o, c->a, vals, ok) || eval(o, c->b, vals, ok);
    case C_NOT: return !eval(o, c->a, vals, ok);
    default: {
        bool eq = opnd(o, &c->l, vals, ok) == opnd(o, &c->r, vals, ok);
        return c->ne ? !eq : eq;
    }
    }
}

bool otab_cond(const otab *o, const int64_t *vals)
{
    if (!o->t->cond)
        return false;
    bool ok = true;
    bool v = eval(o, o->t->cond, vals, &ok);
    return ok && v;
}
