/* The Vulkan memory model's Alloy tests (KhronosGroup/Vulkan-MemoryModel,
 * the .test files of alloy/tests, converted to Alloy by alloy/litmus.cpp):
 *
 *   NEWWG / NEWSG / NEWTHREAD [n] / NEWQF    open a workgroup, subgroup, thread, queue family
 *   st.av.scopedev.sc0 x = 1                 tokens: st ld rmw atom membar cbar acq rel sc0 sc1
 *   ld.atom.acq.scopewg.sc0.semsc0 y = 1     semsc0 semsc1 scopesg scopewg scopeqf scopedev av vis
 *   rmw.scopewg.sc0 x = 1 2                  semav semvis nonpriv avdevice visdevice
 *   cbar.acq.rel.scopewg.semsc0 0            (the number is the dynamic instance)
 *   SLOC a b, SSW 0 1                        same location, system-synchronizes-with
 *   SATISFIABLE|NOSOLUTION [NOCHAINS] pred   one expectation per line
 *
 * As in litmus.cpp, a value is a label for reads-from: a load "= v" reads
 * from the write of the same variable with value v (init when v is 0), and
 * is free when there is none.  memsim gives every write a value of its own
 * and pins each such load through the test's condition.  An expectation line
 * is checked by exploring with the predicate as the model: SATISFIABLE
 * means some candidate execution satisfies it with every pin. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/vulkan.h"
#include "import.h"

typedef struct {
    int line, col;
    bool R, W, F, A, acq, rel, sc0, sc1, semsc0, semsc1, cbar, avdev, visdev, semav, semvis, av, vis, nonpriv;
    scope_t scope;
    bool has_scope;
    char var[64];
    long value, value2;  /* -1 when absent, as in litmus.cpp */
    long cbarinst;
    int thread;          /* IR thread */
    int irval;           /* the value memsim's write stores */
    int reg;
} arec;

static void add_pin(cond **c, cond *pin)
{
    if (!*c) {
        *c = pin;
        return;
    }
    cond *a = calloc(1, sizeof *a);
    a->kind = C_AND;
    a->a = *c;
    a->b = pin;
    *c = a;
}

void alloy_expects_free(alloy_expects *ex)
{
    for (int i = 0; i < ex->n; i++)
        free(ex->v[i].pred);
    free(ex->v);
    ex->v = NULL;
    ex->n = 0;
}

static bool tok(arec *r, const char *w, bool *unknown)
{
    static const char *const scopes[] = {"scopesg", "scopewg", "scopeqf", "scopedev"};
    static const scope_t sv[] = {SCOPE_WAVE, SCOPE_WG, SCOPE_AGENT, SCOPE_SYS};
    *unknown = false;
    if (strcmp(w, "st") == 0)
        r->W = true;
    else if (strcmp(w, "ld") == 0)
        r->R = true;
    else if (strcmp(w, "membar") == 0)
        r->F = true;
    else if (strcmp(w, "atom") == 0)
        r->A = true;
    else if (strcmp(w, "rmw") == 0)
        r->R = r->W = r->A = true;
    else if (strcmp(w, "acq") == 0)
        r->acq = true;
    else if (strcmp(w, "rel") == 0)
        r->rel = true;
    else if (strcmp(w, "sc0") == 0)
        r->sc0 = true;
    else if (strcmp(w, "sc1") == 0)
        r->sc1 = true;
    else if (strcmp(w, "semsc0") == 0)
        r->semsc0 = true;
    else if (strcmp(w, "semsc1") == 0)
        r->semsc1 = true;
    else if (strcmp(w, "cbar") == 0)
        r->cbar = true;
    else if (strcmp(w, "avdevice") == 0)
        r->avdev = true;
    else if (strcmp(w, "visdevice") == 0)
        r->visdev = true;
    else if (strcmp(w, "semav") == 0)
        r->semav = true;
    else if (strcmp(w, "semvis") == 0)
        r->semvis = true;
    else if (strcmp(w, "av") == 0)
        r->av = true;
    else if (strcmp(w, "vis") == 0)
        r->vis = true;
    else if (strcmp(w, "nonpriv") == 0)
        r->nonpriv = true;
    else {
        for (int i = 0; i < 4; i++)
            if (strcmp(w, scopes[i]) == 0) {
                if (r->has_scope)
                    return false;
                r->scope = sv[i];
                r->has_scope = true;
                return true;
            }
        *unknown = true;
        return false;
    }
    return true;
}

typedef struct {
    char a[64], b[64];
} slocpair;

/* A decimal number that fits 32 bits (Alloy tests' values and instance numbers): strtol
 * saturates silently at LONG_MAX, which would be a different test. */
static bool alloy_number(const char *s, char **end, long *v)
{
    errno = 0;
    *v = strtol(s, end, 10);
    return *end != s && errno == 0 && *v >= INT32_MIN && *v <= INT32_MAX;
}

test *alloy_parse(const char *file, const char *text, diag *d, alloy_expects *ex)
{
    d->file = file;
    d->source = text;
    memset(ex, 0, sizeof *ex);
    test *t = calloc(1, sizeof *t);
    t->file = strdup(file);
    t->source = strdup(text);
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    t->name = strndup(base, has_suffix(base, ".test") ? strlen(base) - 5 : strlen(base));
    arec *recs = NULL;
    int nrecs = 0;
    slocpair *slocs = NULL;
    int nslocs = 0;
    int (*ssw_num)[2] = NULL;
    int nssw = 0;
    int sswline[64];
    int qf = 0, wg = 0, sg = 0, cur_thread = -1, threadnum = 0, ninst = 0;
    int thread_num[64];
    bool ok = true;
    int line = 0;
    const char *s = text;
    while (*s && ok) {
        line++;
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char buf[512];
        if (len >= sizeof buf) {
            diag_error(d, line, 1, "line too long");
            ok = false;
            break;
        }
        memcpy(buf, s, len);
        buf[len] = 0;
        s = nl ? nl + 1 : s + len;
        while (len && (buf[len - 1] == '\r' || isspace((unsigned char)buf[len - 1])))
            buf[--len] = 0;
        char *b = buf;
        while (*b && isspace((unsigned char)*b))
            b++;
        int col0 = (int)(b - buf) + 1;
        if (strlen(b) < 2 || strncmp(b, "//", 2) == 0)
            continue;
        if (strncmp(b, "SATISFIABLE", 11) == 0 || strncmp(b, "NOSOLUTION", 10) == 0) {
            alloy_expect e = {0};
            e.satisfiable = b[0] == 'S';
            e.line = line;
            char *rest = b + (e.satisfiable ? 11 : 10);
            char *nc = strstr(rest, "NOCHAINS");
            if (nc) {
                e.nochains = true;
                rest = nc + 8;
            }
            while (*rest && isspace((unsigned char)*rest))
                rest++;
            e.pred = strdup(rest);
            ex->v = realloc(ex->v, (size_t)(ex->n + 1) * sizeof *ex->v);
            ex->v[ex->n++] = e;
            continue;
        }
        if (strncmp(b, "SSW", 3) == 0) {
            int a, c;
            if (sscanf(b + 3, "%d %d", &a, &c) != 2 || nssw >= 64) {
                diag_error(d, line, col0, "SSW takes two thread numbers");
                ok = false;
                break;
            }
            ssw_num = realloc(ssw_num, (size_t)(nssw + 1) * sizeof *ssw_num);
            ssw_num[nssw][0] = a;
            ssw_num[nssw][1] = c;
            sswline[nssw++] = line;
            continue;
        }
        if (strncmp(b, "SLOC", 4) == 0) {
            slocpair sp;
            if (sscanf(b + 4, "%63s %63s", sp.a, sp.b) != 2) {
                diag_error(d, line, col0, "SLOC takes two variable names");
                ok = false;
                break;
            }
            slocs = realloc(slocs, (size_t)(nslocs + 1) * sizeof *slocs);
            slocs[nslocs++] = sp;
            continue;
        }
        if (strstr(b, "NEWQF")) {
            if (ninst)
                qf++;
            continue;
        }
        if (strstr(b, "NEWWG")) {
            if (ninst)
                wg++;
            continue;
        }
        if (strstr(b, "NEWSG")) {
            if (ninst)
                sg++;
            continue;
        }
        if (strstr(b, "NEWTHREAD")) {
            char *dg = strpbrk(b, "0123456789"), *dend;
            long num = threadnum + 1L;
            /* atoi wrapped a long number silently, and the next thread's number could overflow */
            if (dg && (!alloy_number(dg, &dend, &num) || num > 1000000)) {
                diag_error(d, line, (int)(dg - buf) + 1, "a thread number must be from 0 to 1000000");
                ok = false;
                break;
            }
            if (ninst) {
                threadnum = (int)num;
                cur_thread = -1;
            } else if (dg) {
                threadnum = (int)num;
            }
            continue;
        }
        /* An instruction. */
        arec r;
        memset(&r, 0, sizeof r);
        r.line = line;
        r.col = col0;
        r.value = r.value2 = r.cbarinst = -1;
        char *sp = b;
        while (*sp && !isspace((unsigned char)*sp))
            sp++;
        char op[128];
        size_t oplen = (size_t)(sp - b);
        if (oplen >= sizeof op) {
            diag_error(d, line, col0, "instruction too long");
            ok = false;
            break;
        }
        memcpy(op, b, oplen);
        op[oplen] = 0;
        int tcol = col0;
        for (char *w = strtok(op, "."); w; w = strtok(NULL, ".")) {
            bool unknown;
            if (!tok(&r, w, &unknown)) {
                diag_error(d, line, tcol,
                           unknown ? "unsupported: Alloy test token '%s'" : "a second scope '%s' on one instruction", w);
                ok = false;
                break;
            }
            tcol += (int)strlen(w) + 1;
        }
        if (!ok)
            break;
        char *rest = sp;
        while (*rest == ' ' || *rest == '\t')
            rest++;
        if (r.cbar) {
            if (!*rest) {
                diag_error(d, line, col0, "cbar needs its instance number");
                ok = false;
                break;
            }
            char *e;
            long v;
            if (!alloy_number(rest, &e, &v)) {
                diag_error(d, line, (int)(rest - buf) + 1, "expected cbar's instance number");
                ok = false;
                break;
            }
            r.cbarinst = v;
        } else if (*rest) {
            size_t vl = strcspn(rest, " =\t");
            if (vl >= sizeof r.var || !is_identifier(rest, vl)) {
                diag_error(d, line, (int)(rest - buf) + 1, "expected a variable name");
                ok = false;
                break;
            }
            memcpy(r.var, rest, vl);
            r.var[vl] = 0;
            char *q = rest + vl;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q == '=') {
                q++;
                char *e;
                long v;
                bool num = alloy_number(q, &e, &v);
                r.value = v;
                if (!num) {
                    diag_error(d, line, (int)(q - buf) + 1, "expected a value after '='");
                    ok = false;
                    break;
                }
                q = e;
                while (*q == ' ' || *q == '\t')
                    q++;
                if (*q) {
                    num = alloy_number(q, &e, &v);
                    r.value2 = v;
                    if (!num) {
                        diag_error(d, line, (int)(q - buf) + 1, "expected a second value");
                        ok = false;
                        break;
                    }
                }
            }
        }
        /* The IR thread. */
        if (cur_thread < 0) {
            if (t->nthreads >= 64) {
                diag_error(d, line, col0, "unsupported: more than 64 threads");
                ok = false;
                break;
            }
            t->threads = realloc(t->threads, (size_t)(t->nthreads + 1) * sizeof *t->threads);
            thread *th = &t->threads[t->nthreads];
            memset(th, 0, sizeof *th);
            char name[32];
            snprintf(name, sizeof name, "P%d", threadnum);
            bool twice = false;
            for (int i = 0; i < t->nthreads && !twice; i++)
                twice = strcmp(t->threads[i].name, name) == 0;
            if (twice) {
                diag_error(d, line, col0, "thread %s is declared twice (NEWTHREAD numbers repeat)", name);
                ok = false;
                break;
            }
            if (qf >= IR_MAX_GPUS) {
                diag_error(d, line, col0, "unsupported: more than %d queue families", IR_MAX_GPUS);
                ok = false;
                break;
            }
            th->name = strdup(name);
            th->gpu = qf;
            th->wg = wg;
            th->wave = sg;
            th->pos = (srcpos){line, col0};
            thread_num[t->nthreads] = threadnum;
            cur_thread = t->nthreads++;
        }
        r.thread = cur_thread;
        r.reg = -1; /* given when the record becomes a load or RMW */
        ninst++;
        recs = realloc(recs, (size_t)(nrecs + 1) * sizeof *recs);
        recs[nrecs++] = r;
    }
    if (ok && nrecs == 0) {
        diag_error(d, line, 1, "the test has no instructions");
        ok = false;
    }
    /* Locations: one per variable (reference); SLOC joins their cells. */
    for (int i = 0; ok && i < nrecs; i++) {
        if (!recs[i].var[0])
            continue;
        bool found = false;
        for (int l = 0; l < t->nlocs && !found; l++)
            found = strcmp(t->locs[l].name, recs[i].var) == 0;
        if (found)
            continue;
        t->locs = realloc(t->locs, (size_t)(t->nlocs + 1) * sizeof *t->locs);
        location *L = &t->locs[t->nlocs++];
        memset(L, 0, sizeof *L);
        L->name = strdup(recs[i].var);
        L->type = TY_I32;
        L->len = 1;
        L->first_cell = t->ncells++;
        L->init = calloc(1, sizeof *L->init);
        L->gran = GRAN_FINE;
        L->pos = (srcpos){recs[i].line, recs[i].col};
    }
    for (int k = 0; ok && k < nslocs; k++) {
        int la = -1, lb = -1;
        for (int l = 0; l < t->nlocs; l++) {
            if (strcmp(t->locs[l].name, slocs[k].a) == 0)
                la = l;
            if (strcmp(t->locs[l].name, slocs[k].b) == 0)
                lb = l;
        }
        if (la < 0 || lb < 0)
            continue; /* a variable no instruction uses */
        int from = t->locs[lb].first_cell, to = t->locs[la].first_cell;
        if (from == to)
            continue;
        for (int l = 0; l < t->nlocs; l++)
            if (t->locs[l].first_cell == from)
                t->locs[l].first_cell = to;
    }
    if (ok && nslocs) { /* renumber the cells densely */
        int map[4096], n = 0;
        for (int c = 0; c < t->ncells && c < 4096; c++)
            map[c] = -1;
        for (int l = 0; l < t->nlocs; l++) {
            int c = t->locs[l].first_cell;
            if (map[c] < 0)
                map[c] = n++;
            t->locs[l].first_cell = map[c];
        }
        t->ncells = n;
    }
    /* Write values: every write of a cell gets its own value (its given one
     * when those are distinct and positive), so a pinned load names one write. */
    for (int i = 0; ok && i < nrecs; i++)
        recs[i].reg = -1;
    for (int c = 0; ok && c < t->ncells; c++) {
        bool distinct = true;
        int k = 0;
        for (int i = 0; i < nrecs; i++) {
            arec *r = &recs[i];
            int l = -1;
            for (int j = 0; j < t->nlocs && r->var[0]; j++)
                if (strcmp(t->locs[j].name, r->var) == 0)
                    l = j;
            if (!r->W || l < 0 || t->locs[l].first_cell != c)
                continue;
            long wv = r->R ? r->value2 : r->value;
            if (wv <= 0 || wv > 1000000)
                distinct = false;
            for (int j = 0; j < i && distinct; j++) {
                arec *o = &recs[j];
                int lo = -1;
                for (int q = 0; q < t->nlocs && o->var[0]; q++)
                    if (strcmp(t->locs[q].name, o->var) == 0)
                        lo = q;
                if (o->W && lo >= 0 && t->locs[lo].first_cell == c && (o->R ? o->value2 : o->value) == wv)
                    distinct = false;
            }
            r->irval = ++k;
        }
        if (distinct)
            for (int i = 0; i < nrecs; i++)
                if (recs[i].W && recs[i].irval > 0) {
                    int l = -1;
                    for (int j = 0; j < t->nlocs && recs[i].var[0]; j++)
                        if (strcmp(t->locs[j].name, recs[i].var) == 0)
                            l = j;
                    if (l >= 0 && t->locs[l].first_cell == c)
                        recs[i].irval = (int)(recs[i].R ? recs[i].value2 : recs[i].value);
                }
    }
    /* Instructions. */
    for (int i = 0; ok && i < nrecs; i++) {
        arec *r = &recs[i];
        thread *th = &t->threads[r->thread];
        srcpos pos = {r->line, r->col};
        inst in;
        memset(&in, 0, sizeof in);
        in.pos = pos;
        in.dst = -1;
        in.mem.symvar = -1;
        in.vk = VK_GIVEN | (r->sc1 ? VK_SC1 : 0) | (r->semsc0 ? VK_SEMSC0 : 0) | (r->semsc1 ? VK_SEMSC1 : 0) |
                (r->av ? VK_AV : 0) | (r->vis ? VK_VIS : 0) | (r->semav ? VK_SEMAV : 0) | (r->semvis ? VK_SEMVIS : 0) |
                (r->nonpriv ? VK_NONPRIV : 0);
        in.scope = r->has_scope ? r->scope : SCOPE_NONE;
        order_t ord = r->acq && r->rel ? ORD_ACQ_REL : r->acq ? ORD_ACQUIRE : r->rel ? ORD_RELEASE : ORD_RELAXED;
        if (r->avdev || r->visdev) {
            in.kind = I_FENCE;
            in.ord = ORD_RELAXED;
            in.scope = SCOPE_SYS;
            in.vk = VK_GIVEN | (r->avdev ? VK_AVDEVICE : VK_VISDEVICE);
        } else if (r->cbar) {
            in.kind = I_BARRIER;
            in.ord = r->acq || r->rel ? ord : ORD_PLAIN;
            in.bar_id = expr_const(r->cbarinst, pos);
            if (!r->has_scope) {
                diag_error(d, r->line, r->col, "unsupported: a control barrier without a scope (Alloy finds no execution)");
                ok = false;
            }
        } else if (r->F) {
            in.kind = I_FENCE;
            in.ord = r->acq || r->rel ? ord : ORD_RELAXED;
            if (!r->has_scope) {
                diag_error(d, r->line, r->col, "unsupported: a membar without a scope (Alloy finds no execution)");
                ok = false;
            }
        } else if (r->R || r->W) {
            if (!r->var[0]) {
                diag_error(d, r->line, r->col, "a load or store needs a variable");
                ok = false;
                break;
            }
            if (r->R && r->W && !r->A) {
                diag_error(d, r->line, r->col, "unsupported: a non-atomic read-modify-write");
                ok = false;
                break;
            }
            if ((r->acq && !(r->A && r->R)) || (r->rel && !(r->A && r->W))) {
                diag_error(d, r->line, r->col,
                           "unsupported: acquire/release on a non-atomic or wrong-direction access (Alloy finds no execution)");
                ok = false;
                break;
            }
            if (r->A && !r->has_scope) {
                diag_error(d, r->line, r->col, "unsupported: an atomic without a scope (Alloy finds no execution)");
                ok = false;
                break;
            }
            if (!r->sc0 && !r->sc1) {
                diag_error(d, r->line, r->col, "unsupported: an access without a storage class (Alloy finds no execution)");
                ok = false;
                break;
            }
            for (int l = 0; l < t->nlocs; l++)
                if (strcmp(t->locs[l].name, r->var) == 0)
                    in.mem.loc = l;
            in.ord = r->A ? ord : ORD_PLAIN;
            if (r->R) {
                char reg[16];
                snprintf(reg, sizeof reg, "r%d", th->nregs);
                th->regs = realloc(th->regs, (size_t)(th->nregs + 1) * sizeof *th->regs);
                th->regs[th->nregs] = strdup(reg);
                r->reg = th->nregs++;
                in.dst = r->reg;
            }
            if (r->R && r->W) {
                in.kind = I_RMW;
                in.rmw = RMW_EXCH;
                in.val = expr_const(r->irval, pos);
            } else if (r->R) {
                in.kind = I_LD;
            } else {
                in.kind = I_ST;
                in.val = expr_const(r->irval, pos);
            }
        } else {
            diag_error(d, r->line, r->col, "unsupported: an instruction that is neither st, ld, rmw, membar, cbar, "
                                           "avdevice nor visdevice");
            ok = false;
            break;
        }
        if (ok) {
            block_push(&th->code, &in);
        } else {
            expr_free(in.val);
            expr_free(in.bar_id);
        }
    }
    /* Pins: as litmus.cpp forms rf and RFINIT. */
    cond *c = NULL;
    for (int j = 0; ok && j < nrecs; j++) {
        arec *r = &recs[j];
        if (!r->R || !r->var[0] || r->reg < 0)
            continue;
        int matches = 0, w = -1;
        bool self = false;
        for (int i = 0; i < nrecs; i++) {
            arec *o = &recs[i];
            if (!o->W || strcmp(o->var, r->var) != 0)
                continue;
            long wv = o->R ? o->value2 : o->value;
            if (wv == r->value) {
                matches++;
                w = i;
                self = self || i == j;
            }
        }
        cond *pin = calloc(1, sizeof *pin);
        pin->pos = (srcpos){r->line, r->col};
        if ((r->value == 0 && matches > 0) || matches > 1 || self) {
            pin->kind = C_FALSE; /* contradictory reads-from: Alloy finds no execution */
        } else if (r->value == 0 || matches == 1) {
            pin->kind = C_CMP;
            pin->l.kind = OPND_REG;
            pin->l.thread = r->thread;
            pin->l.reg = r->reg;
            pin->r.kind = OPND_CONST;
            pin->r.value = r->value == 0 ? 0 : recs[w].irval;
        } else {
            free(pin); /* no write with that value: free, as in Alloy */
            continue;
        }
        add_pin(&c, pin);
    }
    if (ok) {
        if (!c) {
            c = calloc(1, sizeof *c);
            c->kind = C_TRUE;
        }
        t->cond = cond_balance(c);
        t->quant = Q_EXISTS;
        c = NULL;
    }
    cond_free(c);
    /* SSW: thread numbers to IR threads. */
    for (int k = 0; ok && k < nssw; k++) {
        int a = -1, b = -1;
        for (int i = 0; i < t->nthreads; i++) {
            if (thread_num[i] == ssw_num[k][0])
                a = i;
            if (thread_num[i] == ssw_num[k][1])
                b = i;
        }
        if (a < 0 || b < 0)
            continue; /* a thread with no instructions: no events to relate */
        (void)sswline;
        t->ssw = realloc(t->ssw, (size_t)(t->nssw + 1) * sizeof *t->ssw);
        t->ssw[t->nssw][0] = a;
        t->ssw[t->nssw][1] = b;
        t->nssw++;
    }
    free(ssw_num);
    free(slocs);
    free(recs);
    if (ok) {
        int maxgpu = 0;
        for (int i = 0; i < t->nthreads; i++)
            if (t->threads[i].gpu > maxgpu)
                maxgpu = t->threads[i].gpu;
        t->ngpus = maxgpu + 1;
        for (int i = 0; i < t->nthreads; i++) {
            thread *th = &t->threads[i];
            int k = -1;
            for (int j = 0; j < t->nkernels; j++)
                if (t->kernels[j].gpu == th->gpu)
                    k = j;
            if (k < 0) {
                t->kernels = realloc(t->kernels, (size_t)(t->nkernels + 1) * sizeof *t->kernels);
                kernel *K = &t->kernels[t->nkernels];
                memset(K, 0, sizeof *K);
                char name[32];
                snprintf(name, sizeof name, "qf%d", th->gpu);
                K->name = strdup(name);
                K->gpu = th->gpu;
                K->implicit = true;
                k = t->nkernels++;
            }
            th->kernel = k;
        }
    }
    if (!ok) {
        test_free(t);
        alloy_expects_free(ex);
        return NULL;
    }
    return t;
}

/* ---- predicates -------------------------------------------------------------------- */

typedef enum { P_AND, P_OR, P_NOT, P_CONSISTENT, P_RACEFREE, P_CMP, P_TRUE } pkind;

typedef struct pnode {
    pkind kind;
    struct pnode *a, *b;
    int what;            /* P_CMP: 0 = #dr, 1 = #rs */
    char op[3];
    long n;
} pnode;

typedef struct {
    const char *s;
    char err[200];
    int depth;   /* negations and parentheses open: bounded before the stack is */
} pscan;

static void pskip(pscan *p)
{
    while (isspace((unsigned char)*p->s))
        p->s++;
}

static bool paccept(pscan *p, const char *w)
{
    pskip(p);
    size_t n = strlen(w);
    if (strncmp(p->s, w, n) != 0)
        return false;
    if (isalpha((unsigned char)w[n - 1]) && (isalnum((unsigned char)p->s[n]) || p->s[n] == '_'))
        return false;
    p->s += n;
    return true;
}

static void pfree(pnode *n)
{
    if (!n)
        return;
    pfree(n->a);
    pfree(n->b);
    free(n);
}

static pnode *p_or(pscan *p);

static pnode *p_atom_nested(pscan *p);

static pnode *p_atom(pscan *p)
{
    if (p->depth == IR_MAX_NESTING) {
        snprintf(p->err, sizeof p->err, "the predicate is nested more than %d deep", IR_MAX_NESTING);
        return NULL;
    }
    p->depth++;
    pnode *n = p_atom_nested(p);
    p->depth--;
    return n;
}

static pnode *p_atom_nested(pscan *p)
{
    pnode *n = calloc(1, sizeof *n);
    if (paccept(p, "!") || paccept(p, "not")) {
        n->kind = P_NOT;
        n->a = p_atom(p);
        if (!n->a) {
            free(n);
            return NULL;
        }
        return n;
    }
    if (paccept(p, "(")) {
        free(n);
        n = p_or(p);
        if (n && !paccept(p, ")")) {
            snprintf(p->err, sizeof p->err, "expected ')'");
            pfree(n);
            return NULL;
        }
        return n;
    }
    if (paccept(p, "consistent[X]")) {
        n->kind = P_CONSISTENT;
        return n;
    }
    if (paccept(p, "racefree[X]")) {
        n->kind = P_RACEFREE;
        return n;
    }
    if (paccept(p, "#")) {
        paccept(p, "X.");
        if (paccept(p, "dr"))
            n->what = 0;
        else if (paccept(p, "rs"))
            n->what = 1;
        else {
            snprintf(p->err, sizeof p->err, "only #dr and #rs can be counted, found '#%.20s'", p->s);
            free(n);
            return NULL;
        }
        pskip(p);
        static const char *const ops[] = {"!=", ">=", "<=", "=", ">", "<"};
        int k = -1;
        for (int i = 0; i < 6 && k < 0; i++)
            if (paccept(p, ops[i]))
                k = i;
        if (k < 0) {
            snprintf(p->err, sizeof p->err, "expected a comparison after the count");
            free(n);
            return NULL;
        }
        snprintf(n->op, sizeof n->op, "%s", ops[k]);
        pskip(p);
        char *e;
        n->n = strtol(p->s, &e, 10);
        if (e == p->s) {
            snprintf(p->err, sizeof p->err, "expected a number");
            free(n);
            return NULL;
        }
        p->s = e;
        n->kind = P_CMP;
        return n;
    }
    snprintf(p->err, sizeof p->err, "unsupported predicate '%.40s'", p->s);
    free(n);
    return NULL;
}

static pnode *p_bin(pscan *p, bool is_and)
{
    pnode *a = is_and ? p_atom(p) : p_bin(p, true);
    while (a && (is_and ? (paccept(p, "&&") || paccept(p, "and")) : (paccept(p, "||") || paccept(p, "or")))) {
        pnode *b = is_and ? p_atom(p) : p_bin(p, true);
        if (!b) {
            pfree(a);
            return NULL;
        }
        pnode *n = calloc(1, sizeof *n);
        n->kind = is_and ? P_AND : P_OR;
        n->a = a;
        n->b = b;
        a = n;
    }
    return a;
}

static pnode *p_or(pscan *p) { return p_bin(p, false); }

static bool peval(const pnode *n, const vulkan_facts *f)
{
    switch (n->kind) {
    case P_AND: return peval(n->a, f) && peval(n->b, f);
    case P_OR: return peval(n->a, f) || peval(n->b, f);
    case P_NOT: return !peval(n->a, f);
    case P_CONSISTENT: return f->consistent;
    case P_RACEFREE: return f->ndr == 0;
    case P_TRUE: return true;
    default: {
        long v = n->what ? f->nrs : f->ndr;
        if (strcmp(n->op, "=") == 0)
            return v == n->n;
        if (strcmp(n->op, "!=") == 0)
            return v != n->n;
        if (strcmp(n->op, ">") == 0)
            return v > n->n;
        if (strcmp(n->op, "<") == 0)
            return v < n->n;
        if (strcmp(n->op, ">=") == 0)
            return v >= n->n;
        return v <= n->n;
    }
    }
}

/* The predicate as a model: "consistent" = the predicate holds.  It is a
 * static because a model's check has no context argument (check-corpus runs
 * one exploration at a time). */
static const pnode *cur_pred;
static bool cur_chains;

static void pred_check(const base *b, model_verdict *v)
{
    vulkan_facts f;
    vulkan_eval(b, cur_chains, &f, NULL);
    v->consistent = f.valid && peval(cur_pred, &f);
}

static const model pred_model = {.name = "vulkan", .title = "Alloy predicate over the vulkan model", .check = pred_check};

int alloy_check(const test *t, const alloy_expect *e, long max_executions, bool *sat, char *err, size_t errsz)
{
    pscan ps = {e->pred, "", 0};
    pnode *n = p_or(&ps);
    if (n) {
        pskip(&ps);
        if (*ps.s) {
            snprintf(ps.err, sizeof ps.err, "unexpected '%.40s'", ps.s);
            pfree(n);
            n = NULL;
        }
    }
    if (!n) {
        snprintf(err, errsz, "%s:%d: unsupported: Alloy predicate '%s': %s", t->file, e->line, e->pred, ps.err);
        return -1;
    }
    cur_pred = n;
    cur_chains = !e->nochains;
    explore_opts o = {.models = {&pred_model}, .nmodels = 1, .max_executions = max_executions};
    explore_result r;
    int rc = explore(t, &o, &r);
    if (rc != 0)
        snprintf(err, errsz, "%s", r.err);
    else
        *sat = r.mr[0].positive > 0;
    explore_result_free(&r);
    cur_pred = NULL;
    pfree(n);
    return rc;
}
