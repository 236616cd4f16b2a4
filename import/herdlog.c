/* herd7's log format, so that herdtools' mcompare7 can put memsim's model
 * runs beside herd's and litmus7's logs.  As herd7 prints (herd/top_herd.ml):
 *
 *   Test MP Allowed
 *   States 3
 *   1:r0=0; 1:r1=0;
 *   ...
 *   Ok
 *   Witnesses
 *   Positive: 1 Negative: 3
 *   Condition exists (1:r0=1 /\ 1:r1=0)
 *   Observation MP Sometimes 1 3
 *   Time MP 0.00
 *
 * Registers are named by thread index, as herd does; executions that hang
 * are not counted (herd has none). */
#include <stdlib.h>
#include <string.h>

#include "import.h"

bool result_holds_terminating(const test *t, const model_result *mr)
{
    bool pos = false, neg = false;
    for (int i = 0; i < mr->nouts; i++) {
        if (mr->outs[i].hang)
            continue;
        if (mr->outs[i].cond)
            pos = pos || mr->outs[i].count > 0;
        else
            neg = neg || mr->outs[i].count > 0;
    }
    switch (t->quant) {
    case Q_EXISTS: return pos;
    case Q_NOT_EXISTS: return !pos;
    default: return !neg;
    }
}

static void herd_name(const test *t, char *buf, size_t n)
{
    snprintf(buf, n, "%s", t->name ? t->name : "test");
    for (char *p = buf; *p; p++)
        if (*p == ' ' || *p == '\t')
            *p = '_';
}

static int operand_str(const test *t, const operand *o, char *buf, size_t n)
{
    switch (o->kind) {
    case OPND_CONST: return snprintf(buf, n, "%lld", (long long)o->value);
    case OPND_REG: return snprintf(buf, n, "%d:%s", o->thread, t->threads[o->thread].regs[o->reg]);
    default: {
        char c[96];
        cell_name(t, o->cell, c, sizeof c);
        return snprintf(buf, n, "%s", c);
    }
    }
}

static void cond_str(const test *t, const cond *c, char *buf, size_t n, int parent)
{
    char l[128], r[128];
    size_t at = strlen(buf);
    if (at >= n)
        return;
    switch (c->kind) {
    case C_TRUE: snprintf(buf + at, n - at, "true"); return;
    case C_FALSE: snprintf(buf + at, n - at, "false"); return;
    case C_NOT:
        snprintf(buf + at, n - at, "~(");
        cond_str(t, c->a, buf, n, 0);
        at = strlen(buf);
        snprintf(buf + at, n - at, ")");
        return;
    case C_CMP:
        operand_str(t, &c->l, l, sizeof l);
        operand_str(t, &c->r, r, sizeof r);
        if (c->ne)
            snprintf(buf + at, n - at, "~(%s=%s)", l, r);
        else
            snprintf(buf + at, n - at, "%s=%s", l, r);
        return;
    default: {
        int me = c->kind == C_AND ? 2 : 1;
        if (me < parent)
            snprintf(buf + at, n - at, "(");
        cond_str(t, c->a, buf, n, me);
        at = strlen(buf);
        snprintf(buf + at, n - at, c->kind == C_AND ? " /\\ " : " \\/ ");
        cond_str(t, c->b, buf, n, me);
        at = strlen(buf);
        if (me < parent)
            snprintf(buf + at, n - at, ")");
        return;
    }
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void herd_log(FILE *out, const test *t, const explore_result *r, int m)
{
    const model_result *mr = &r->mr[m];
    char name[256];
    herd_name(t, name, sizeof name);
    const char *kind = t->quant == Q_EXISTS ? "Allowed" : t->quant == Q_NOT_EXISTS ? "Forbidden" : "Required";
    fprintf(out, "Test %s %s\n", name, kind);
    /* States: one line per distinct final state of a terminating execution. */
    char **lines = calloc((size_t)(mr->nouts ? mr->nouts : 1), sizeof *lines);
    int nlines = 0;
    /* Exact sums (sim/count.h): one outcome may stand for more than 2^63 executions. */
    count_t pos = count_of(0), neg = count_of(0);
    for (int i = 0; i < mr->nouts; i++) {
        const outcome *o = &mr->outs[i];
        if (o->hang)
            continue;
        count_add(o->cond ? &pos : &neg, o->exact); /* at most the model's total, which fits */
        size_t cap = 64 + (size_t)r->nshow * 64;
        char *s = malloc(cap);
        s[0] = 0;
        for (int k = 0; k < r->nshow; k++) {
            const show_item *it = &r->show[k];
            char item[128];
            if (it->is_mem) {
                char c[96];
                cell_name(t, it->cell, c, sizeof c);
                snprintf(item, sizeof item, "%s=%lld;", c, (long long)o->vals[k]);
            } else {
                snprintf(item, sizeof item, "%d:%s=%lld;", it->thread, t->threads[it->thread].regs[it->reg],
                         (long long)o->vals[k]);
            }
            size_t at = strlen(s);
            snprintf(s + at, cap - at, "%s%s", at ? " " : "", item);
        }
        bool dup = false;
        for (int j = 0; j < nlines && !dup; j++)
            dup = strcmp(lines[j], s) == 0;
        if (dup)
            free(s);
        else
            lines[nlines++] = s;
    }
    qsort(lines, (size_t)nlines, sizeof *lines, cmp_str);
    fprintf(out, "States %d\n", nlines);
    for (int i = 0; i < nlines; i++) {
        fprintf(out, "%s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
    bool ok = t->quant == Q_EXISTS ? !count_is_zero(pos) : t->quant == Q_NOT_EXISTS ? count_is_zero(pos) : count_is_zero(neg);
    char pos_s[COUNT_DIGITS], neg_s[COUNT_DIGITS];
    count_str(pos, pos_s);
    count_str(neg, neg_s);
    fprintf(out, "%s\n", ok ? "Ok" : "No");
    fprintf(out, "Witnesses\n");
    fprintf(out, "Positive: %s Negative: %s\n", t->quant == Q_NOT_EXISTS ? neg_s : pos_s,
            t->quant == Q_NOT_EXISTS ? pos_s : neg_s);
    if (mr->m->races_are_ub && mr->nraces)
        fprintf(out, "Flag data-race\n");
    char cbuf[4096] = "";
    if (t->cond)
        cond_str(t, t->cond, cbuf, sizeof cbuf, 0);
    else
        snprintf(cbuf, sizeof cbuf, "true");
    fprintf(out, "Condition %s (%s)\n", t->quant == Q_EXISTS ? "exists" : t->quant == Q_NOT_EXISTS ? "~exists" : "forall",
            cbuf);
    fprintf(out, "Observation %s %s %s %s\n", name,
            count_is_zero(pos) ? "Never" : count_is_zero(neg) ? "Always" : "Sometimes", pos_s, neg_s);
    fprintf(out, "Time %s %.2f\n", name, r->seconds);
    fprintf(out, "\n");
}
