/* Writers: a test as .lit (memsim's language, docs/language.md) and as a
 * PTX litmus file in the Dat3M/herd GPU format, so that memsim's tests can
 * be run by other tools.  What a format cannot say is an error, never a
 * silently different test. */
#define _DEFAULT_SOURCE /* open_memstream */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/condprint.h"
#include "../lit/parse.h"
#include "import.h"

typedef struct {
    FILE *out;
    const test *t;
    char *err;
    size_t errsz;
    bool failed;
    char **lname;        /* .lit: location names, renamed away from reserved words */
    char **tname;        /* .lit: thread names as identifiers (a template's P[0,1] is P_0_1) */
} wr;

/* Words the .lit parser reserves (sim/parse.c): a location so named gets a '_'. */
static bool lit_reserved(const char *w)
{
    static const char *const words[] = {"test", "memory", "thread", "kernel", "in", "after", "if", "else", "await",
                                        "barrier", "exists", "forall", "expect", "true", "false", "ld", "st", "atom",
                                        "fence", "for", "step", "const", "heap", "host", "launch", "sync", "fill",
                                        "target", "translate", "all", NULL};
    for (int i = 0; words[i]; i++)
        if (strcmp(w, words[i]) == 0)
            return true;
    return lit_reserved_word(w);
}

/* A kernel or thread name as a .lit identifier: a launch's instance K@2
 * (host blocks) becomes K_2, a reserved word gets a '_'. */
static const char *lit_ident(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s", name);
    for (char *c = buf; *c; c++)
        if (*c == '@')
            *c = '_';
    if (lit_reserved(buf) && strlen(buf) + 2 <= n)
        strcat(buf, "_");
    return buf;
}

/* A template's instance P[0,1] is not a name .lit can declare: P_0_1, with a '_' more while it clashes. */
static void lit_thread_names(wr *w)
{
    const test *t = w->t;
    w->tname = calloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *w->tname);
    for (int th = 0; th < t->nthreads; th++) {
        char buf[256];
        const char *name = t->threads[th].name;
        if (t->threads[th].host) {
            lit_ident(name, buf, sizeof buf);
        } else {
            size_t k = 0;
            for (const char *c = name; *c && k + 1 < sizeof buf; c++)
                if (*c != ']')
                    buf[k++] = *c == '[' || *c == ',' || *c == '@' ? '_' : *c;
            buf[k] = 0;
        }
        for (bool renamed = strcmp(buf, name) != 0; renamed && strlen(buf) + 2 <= sizeof buf;) {
            bool clash = false;
            for (int u = 0; u < t->nthreads && !clash; u++)
                clash = (u < th && strcmp(w->tname[u], buf) == 0) || (u != th && strcmp(t->threads[u].name, buf) == 0);
            if (!clash)
                break;
            strcat(buf, "_");
        }
        w->tname[th] = strdup(buf);
    }
}

static void lit_names(wr *w)
{
    const test *t = w->t;
    lit_thread_names(w);
    w->lname = calloc((size_t)(t->nlocs ? t->nlocs : 1), sizeof *w->lname);
    for (int l = 0; l < t->nlocs; l++) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", t->locs[l].name);
        for (;;) {
            bool clash = lit_reserved(buf);
            for (int k = 0; k < l && !clash; k++)
                clash = strcmp(w->lname[k], buf) == 0;
            for (int k = l + 1; k < t->nlocs && !clash; k++)
                clash = strcmp(t->locs[k].name, buf) == 0 && strcmp(t->locs[l].name, buf) != 0;
            /* litmus keeps registers, threads and locations apart; .lit has one namespace */
            for (int th = 0; th < t->nthreads && !clash; th++) {
                clash = strcmp(w->tname[th], buf) == 0;
                for (int r = 0; r < t->threads[th].nregs && !clash; r++)
                    clash = strcmp(t->threads[th].regs[r], buf) == 0;
            }
            if (!clash || strlen(buf) + 2 > sizeof buf)
                break;
            strcat(buf, "_");
        }
        w->lname[l] = strdup(buf);
    }
}

static void lit_names_free(wr *w)
{
    for (int l = 0; w->lname && l < w->t->nlocs; l++)
        free(w->lname[l]);
    free(w->lname);
    for (int th = 0; w->tname && th < w->t->nthreads; th++)
        free(w->tname[th]);
    free(w->tname);
}

__attribute__((format(printf, 2, 3))) static void fail(wr *w, const char *fmt, ...)
{
    if (w->failed)
        return;
    w->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, w->errsz, fmt, ap);
    va_end(ap);
}

static const char *lit_scope(scope_t s) { return scope_name(s); }

/* ---- .lit ------------------------------------------------------------------------------------ */

static void lit_expr(wr *w, const thread *th, const expr *e, char *buf, size_t n)
{
    size_t at = strlen(buf);
    if (at >= n)
        return;
    switch (e->kind) {
    case EX_CONST: snprintf(buf + at, n - at, "%lld", (long long)e->value); return;
    case EX_REG: snprintf(buf + at, n - at, "%s", th->regs[e->reg]); return;
    case EX_BIN:
        snprintf(buf + at, n - at, "(");
        lit_expr(w, th, e->a, buf, n);
        at = strlen(buf);
        snprintf(buf + at, n - at, " %s ", binop_spelling(e->op));
        lit_expr(w, th, e->b, buf, n);
        at = strlen(buf);
        snprintf(buf + at, n - at, ")");
        return;
    case EX_NEG:
    case EX_NOT:
    case EX_BNOT:
        snprintf(buf + at, n - at, "%s(", e->kind == EX_NEG ? "-" : e->kind == EX_NOT ? "!" : "~");
        lit_expr(w, th, e->a, buf, n);
        at = strlen(buf);
        snprintf(buf + at, n - at, ")");
        return;
    default: fail(w, "%s: cannot write this expression kind as .lit", w->t->file); return;
    }
}

static void lit_mem(wr *w, const thread *th, const memref *m, char *buf, size_t n)
{
    size_t at = strlen(buf);
    if (m->ptr) {
        snprintf(buf + at, n - at, "[");
        lit_expr(w, th, m->ptr, buf, n);
        at = strlen(buf);
        snprintf(buf + at, n - at, "]");
        return;
    }
    if (m->symvar >= 0) {
        /* VAR, VAR@p: the rank's own copy, Iris's translation to p's */
        snprintf(buf + at, n - at, "%s", w->t->heap.vars[m->symvar].name);
        if (m->peer) {
            at = strlen(buf);
            snprintf(buf + at, n - at, "@(");
            lit_expr(w, th, m->peer, buf, n);
            at = strlen(buf);
            snprintf(buf + at, n - at, ")");
        }
    } else if (m->loc < 0) {
        fail(w, "%s: a memory operand without a location cannot be converted", w->t->file);
        return;
    } else {
        snprintf(buf + at, n - at, "%s", w->lname[m->loc]);
    }
    if (m->index) {
        at = strlen(buf);
        snprintf(buf + at, n - at, "[");
        lit_expr(w, th, m->index, buf, n);
        at = strlen(buf);
        snprintf(buf + at, n - at, "]");
    }
}

static void lit_mods(const inst *in, char *buf, size_t n)
{
    static const char *const cache[] = {"", ".wt", ".cv", ".cg", ".ca", ".cs", ".wb", ".volatile"};
    if (in->ord == ORD_PLAIN)
        buf[0] = 0;
    else
        snprintf(buf, n, ".%s.%s", order_name(in->ord), lit_scope(in->scope));
    bool cas = (in->kind == I_RMW || (in->kind == I_AWAIT && in->await_rmw)) && in->rmw == RMW_CAS;
    if (cas && (in->fail_ord == ORD_ACQUIRE || in->fail_ord == ORD_SEQ_CST)) {
        size_t at = strlen(buf);
        snprintf(buf + at, n - at, ".fail_%s", order_name(in->fail_ord));
    }
    if (in->kind != I_FENCE && in->cache > CACHE_NONE && in->cache <= CACHE_VOLATILE) {
        size_t at = strlen(buf);
        snprintf(buf + at, n - at, "%s", cache[in->cache]);
    }
    static const char *const proxy[] = {"", ".surface", ".texture", ".constant"};
    if (in->kind != I_FENCE && in->proxy > PROXY_GENERIC && in->proxy < PROXY_NONE) {
        size_t at = strlen(buf);
        snprintf(buf + at, n - at, "%s", proxy[in->proxy]);
    }
}

/* "  # mp.hip:12" after a statement read from compiled code (instrument/). */
static void lit_source(wr *w, const inst *in, char *buf, size_t n)
{
    const test *t = w->t;
    if (!t->srcmap || in->pos.line < 1 || in->pos.line > t->nsrcmap)
        return;
    char at[300];
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "  # %s", test_line_name(t, in->pos.line, at, sizeof at));
}

static void lit_block(wr *w, const thread *th, const block *b, int depth);

static void lit_inst(wr *w, const thread *th, const inst *in, int depth)
{
    char line[2048] = "", mods[64], tmp[1024];
    if (in->vk & VK_GIVEN) {
        fail(w, "%s:%d:%d: Vulkan attributes (storage classes, av/vis, private memory) cannot be written as .lit",
             w->t->file, in->pos.line, in->pos.col);
        return;
    }
    lit_mods(in, mods, sizeof mods);
    const char *dst = in->dst >= 0 ? th->regs[in->dst] : NULL;
    switch (in->kind) {
    case I_LD:
        snprintf(line, sizeof line, "%s = ld%s ", dst ? dst : "_", mods);
        lit_mem(w, th, &in->mem, line, sizeof line);
        if (!dst)
            fail(w, "%s: a load without a destination", w->t->file);
        break;
    case I_ST:
        snprintf(line, sizeof line, "st%s ", mods);
        lit_mem(w, th, &in->mem, line, sizeof line);
        strcat(line, ", ");
        lit_expr(w, th, in->val, line, sizeof line);
        break;
    case I_RMW:
    case I_AWAIT:
        if (dst)
            snprintf(line, sizeof line, "%s = ", dst);
        if (in->kind == I_AWAIT)
            strcat(line, "await ");
        if (in->kind == I_RMW || in->await_rmw) {
            snprintf(tmp, sizeof tmp, "atom.%s%s ", rmw_name(in->rmw), mods);
            strcat(line, tmp);
            lit_mem(w, th, &in->mem, line, sizeof line);
            strcat(line, ", ");
            lit_expr(w, th, in->val, line, sizeof line);
            if (in->rmw == RMW_CAS) {
                strcat(line, ", ");
                lit_expr(w, th, in->val2, line, sizeof line);
            }
        } else {
            snprintf(tmp, sizeof tmp, "ld%s ", mods);
            strcat(line, tmp);
            lit_mem(w, th, &in->mem, line, sizeof line);
        }
        if (in->kind == I_AWAIT) {
            strcat(line, " ");
            strcat(line, binop_spelling(in->await_op));
            strcat(line, " ");
            lit_expr(w, th, in->want, line, sizeof line);
        }
        break;
    case I_FENCE:
        if (in->proxy_fence) {
            static const char *const names[] = {"generic", "surface", "texture", "constant"};
            snprintf(line, sizeof line, "fence.proxy.%s", in->proxy_alias || in->proxy >= PROXY_NONE ? "alias" : names[in->proxy]);
            break;
        }
        snprintf(line, sizeof line, "fence.%s.%s", in->ord == ORD_SEQ_CST ? "sc" : order_name(in->ord),
                 lit_scope(in->scope));
        break;
    case I_BARRIER:
        if (in->bar_id || in->bar_arrive) {
            fail(w, "%s:%d:%d: named barriers and bar.arrive cannot be written as .lit", w->t->file, in->pos.line,
                 in->pos.col);
            return;
        }
        snprintf(line, sizeof line, "barrier");
        break;
    case I_ASSIGN:
        snprintf(line, sizeof line, "%s = ", dst);
        lit_expr(w, th, in->val, line, sizeof line);
        break;
    case I_IF:
        snprintf(line, sizeof line, "if ");
        lit_expr(w, th, in->val, line, sizeof line);
        strcat(line, " {");
        lit_source(w, in, line, sizeof line);
        fprintf(w->out, "%*s%s\n", 2 * depth, "", line);
        lit_block(w, th, &in->body, depth + 1);
        if (in->els.n) {
            fprintf(w->out, "%*s} else {\n", 2 * depth, "");
            lit_block(w, th, &in->els, depth + 1);
        }
        fprintf(w->out, "%*s}\n", 2 * depth, "");
        return;
    case I_WHILE: {
        char cond[512] = "", bound[256] = "";
        lit_expr(w, th, in->val, cond, sizeof cond);
        if (in->val2) {
            strcat(bound, " bound ");
            lit_expr(w, th, in->val2, bound, sizeof bound);
        }
        if (in->do_while)
            fprintf(w->out, "%*sdo {\n", 2 * depth, "");
        else
            fprintf(w->out, "%*swhile %s%s {\n", 2 * depth, "", cond, bound);
        lit_block(w, th, &in->body, depth + 1);
        if (in->do_while)
            fprintf(w->out, "%*s} while %s%s\n", 2 * depth, "", cond, bound);
        else
            fprintf(w->out, "%*s}\n", 2 * depth, "");
        return;
    }
    default:
        fail(w, "%s:%d:%d: this instruction cannot be written as .lit", w->t->file, in->pos.line, in->pos.col);
        return;
    }
    lit_source(w, in, line, sizeof line);
    fprintf(w->out, "%*s%s\n", 2 * depth, "", line);
}

static void lit_block(wr *w, const thread *th, const block *b, int depth)
{
    for (int i = 0; i < b->n && !w->failed; i++)
        lit_inst(w, th, &b->v[i], depth);
}

/* Registers read before any assignment (litmus registers start at 0; .lit
 * wants an assignment first). */
static void expr_uses(const expr *e, const bool *def, bool *need)
{
    if (!e)
        return;
    if (e->kind == EX_REG && !def[e->reg])
        need[e->reg] = true;
    expr_uses(e->a, def, need);
    expr_uses(e->b, def, need);
}

static void block_uses(const block *b, bool *def, bool *need)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        expr_uses(in->val, def, need);
        expr_uses(in->val2, def, need);
        expr_uses(in->want, def, need);
        expr_uses(in->mem.index, def, need);
        expr_uses(in->bar_id, def, need);
        expr_uses(in->bar_count, def, need);
        if (in->kind == I_IF || in->kind == I_WHILE) {
            block_uses(&in->body, def, need);
            block_uses(&in->els, def, need);
        }
        if (in->dst >= 0 && in->dst < 256)
            def[in->dst] = true;
    }
}

static void lit_operand(void *ctx, const operand *o, char *buf, size_t n)
{
    wr *w = ctx;
    const test *t = w->t;
    int len;
    if (o->kind == OPND_CONST) {
        len = snprintf(buf, n, "%lld", (long long)o->value);
    } else if (o->kind == OPND_REG) {
        len = snprintf(buf, n, "%s:%s", w->tname[o->thread], t->threads[o->thread].regs[o->reg]);
    } else {
        int l = cell_loc(t, o->cell);
        if (t->locs[l].len > 1)
            len = snprintf(buf, n, "%s[%d]", w->lname[l], o->cell - t->locs[l].first_cell);
        else
            len = snprintf(buf, n, "%s", w->lname[l]);
    }
    if (len < 0 || (size_t)len >= n)   /* cut, the .lit would name something else */
        fail(w, "%s: a name in the condition is longer than %zu characters: cannot be written as .lit", t->file, n - 1);
}

static const char *quant_word(quant_t q) { return q == Q_EXISTS ? "exists" : q == Q_NOT_EXISTS ? "~exists" : "forall"; }

/* The small number of thread i's workgroup (waves: its wave within the
 * workgroup): how many distinct ones come before it on its GPU. */
static int group_number(const test *t, int i, bool wave)
{
    const thread *th = &t->threads[i];
    int n = 0;
    for (int j = 0; j < i; j++) {
        const thread *u = &t->threads[j];
        if (u->host || u->gpu != th->gpu || (wave && u->wg != th->wg))
            continue;
        if (wave ? u->wave == th->wave : u->wg == th->wg)
            return n;
        bool seen = false;
        for (int k = 0; k < j && !seen; k++) {
            const thread *v = &t->threads[k];
            seen = !v->host && v->gpu == u->gpu && v->wg == u->wg && (!wave || v->wave == u->wave);
        }
        n += !seen;
    }
    return n;
}

static bool wave_shared(const test *t, int i)
{
    for (int j = 0; j < t->nthreads; j++)
        if (j != i && t->threads[j].gpu == t->threads[i].gpu && t->threads[j].wg == t->threads[i].wg &&
            t->threads[j].wave == t->threads[i].wave)
            return true;
    return false;
}

static int write_lit_body(wr *w);

/* The symmetric heap: ranks, size, granularity, variables, allocation orders. */
static void lit_heap(wr *w)
{
    const test *t = w->t;
    const symheap *h = &t->heap;
    FILE *out = w->out;
    fprintf(out, "heap {\n  ranks %d; size %lld; %s\n", h->ranks, (long long)h->size, h->gran == GRAN_COARSE ? "coarse" : "fine");
    for (int v = 0; v < h->nvars; v++) {
        const symvar *V = &h->vars[v];
        const location *L0 = &t->locs[V->loc[0]];
        for (int r = 1; r < h->ranks; r++)
            if (memcmp(t->locs[V->loc[r]].init, L0->init, (size_t)V->len * sizeof *L0->init) != 0)
                fail(w, "%s: heap variable %s starts with different values on different ranks", t->file, V->name);
        fprintf(out, "  %s: %s", V->name, vtype_name(V->type));
        if (V->len > 1)
            fprintf(out, "[%d]", V->len);
        bool same = true;
        for (int i = 1; i < V->len; i++)
            same = same && L0->init[i] == L0->init[0];
        if (same) {
            fprintf(out, " = %lld", (long long)L0->init[0]);
        } else {
            fprintf(out, " = {");
            for (int i = 0; i < V->len; i++)
                fprintf(out, "%s%lld", i ? ", " : "", (long long)L0->init[i]);
            fprintf(out, "}");
        }
        fprintf(out, ";\n");
    }
    for (int r = 0; h->order && r < h->ranks; r++) {
        bool declared = true;
        for (int i = 0; i < h->nvars; i++)
            declared = declared && h->order[r][i] == i;
        if (declared)
            continue;
        fprintf(out, "  order gpu%d:", r);
        for (int i = 0; i < h->nvars; i++)
            fprintf(out, "%s %s", i ? "," : "", h->vars[h->order[r][i]].name);
        fprintf(out, "\n");
    }
    fprintf(out, "}\n\n");
}

/* SHMEM calls are desugared onto the symmetric heap, which neither output
 * format has: say which call stops the conversion. */
static bool shmem_unconvertible(wr *w)
{
    const test *t = w->t;
    if (!t->nshmem_calls)
        return false;
    fail(w, "%s:%d:%d: %s: SHMEM device calls cannot be converted (they act on the symmetric heap, which the "
            "output format does not have)",
         t->file, t->shmem_calls[0].pos.line, t->shmem_calls[0].pos.col, t->shmem_calls[0].name);
    return true;
}

/* A writer renders into memory and the text is parsed back before it is written out: the readers bound
   nesting (.lit counts blocks, else-ifs, parentheses and operator chains; PTX litmus its conditions'
   parentheses and negations), which IR from the importers can pass, and a test written must read back.
   Too deep is a refusal; any other failure is a writer bug, "internal:" (fuzz_convert aborts on it). */
static int written_and_read_back(FILE *out, const test *t, char *err, size_t errsz, int (*render)(FILE *, const test *, char *, size_t),
                                 test *(*parse)(const char *, diag *), const char *format)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        snprintf(err, errsz, "%s: cannot write to memory", t->file);
        return -1;
    }
    int rc = render(mem, t, err, errsz);
    fclose(mem);
    if (rc == 0) {
        diag d = {0};
        test *back = parse(text, &d);
        if (!back && d.msg && strstr(d.msg, "nested more than"))
            snprintf(err, errsz, "%s: the test nests deeper than %s allows once written (%d levels)", t->file, format,
                     IR_MAX_NESTING);
        else if (!back)
            snprintf(err, errsz, "internal: the %s written for %s does not parse back: %s", format, t->file,
                     d.msg ? d.msg : "(no message)");
        else
            fwrite(text, 1, len, out);
        rc = back ? 0 : -1;
        test_free(back);
        diag_free(&d);
    }
    free(text);
    return rc;
}

static int render_lit(FILE *out, const test *t, char *err, size_t errsz)
{
    wr W = {.out = out, .t = t, .err = err, .errsz = errsz};
    lit_names(&W);
    int rc = write_lit_body(&W);
    lit_names_free(&W);
    return rc;
}

static test *parse_lit_back(const char *text, diag *d) { return lit_parse("written.lit", text, d); }

int write_lit(FILE *out, const test *t, char *err, size_t errsz)
{
    return written_and_read_back(out, t, err, errsz, render_lit, parse_lit_back, ".lit");
}

static int write_lit_body(wr *w)
{
    FILE *out = w->out;
    const test *t = w->t;
    if (t->nssw) {
        fail(w, "%s: system-synchronizes-with (ssw) cannot be written as .lit", t->file);
        return -1;
    }
    if (t->filter) {
        fail(w, "%s: a filter cannot be written as .lit", t->file);
        return -1;
    }
    if (shmem_unconvertible(w))
        return -1;
    for (int th = 0; th < t->nthreads; th++) {
        const thread *T = &t->threads[th];
        if (!T->host && lit_reserved(T->name)) {
            fail(w, "%s: thread '%s' has a name .lit reserves: rename it to convert", t->file, T->name);
            return -1;
        }
        for (int r = 0; r < T->nregs; r++)
            if (lit_reserved(T->regs[r])) {
                fail(w, "%s: register %s:%s has a name .lit reserves: rename it to convert", t->file, T->name,
                     T->regs[r]);
                return -1;
            }
    }
    for (int l = 0; l < t->nlocs; l++)
        for (int k = 0; k < l; k++)
            if (t->locs[k].first_cell == t->locs[l].first_cell) {
                fail(w, "%s: '%s' aliases '%s': aliases cannot be written as .lit", t->file, t->locs[l].name,
                     t->locs[k].name);
                return -1;
            }
    fprintf(out, "# Converted by memsim from %s\n", t->file);
    /* The name is the rest of the line up to a comment: a '#', or the second '/' of "//",
     * in it becomes '_'. */
    fputs("test ", out);
    bool named = false;
    for (const char *c = t->name; *c; c++) {
        bool comment = *c == '#' || (*c == '/' && c > t->name && c[-1] == '/');
        fputc(comment ? '_' : *c, out);
        named |= *c != ' ' && *c != '\t' && *c != '\r';
    }
    fputs(named ? "\n\n" : "litmus\n\n", out);
    if (t->target)
        fprintf(out, "target %s%s\n\n", t->target, t->no_host_atomics ? " no_host_atomics" : "");
    bool *heapcopy = calloc((size_t)t->nlocs + 1, sizeof *heapcopy);
    for (int v = 0; t->heap.present && v < t->heap.nvars; v++)
        for (int r = 0; r < t->heap.ranks; r++)
            heapcopy[t->heap.vars[v].loc[r]] = true;
    if (t->heap.present)
        lit_heap(w);
    int nmem = 0;
    for (int l = 0; l < t->nlocs; l++)
        nmem += !heapcopy[l];
    if (nmem || !t->heap.present)
        fprintf(out, "memory {\n");
    for (int l = 0; l < t->nlocs; l++) {
        const location *L = &t->locs[l];
        if (heapcopy[l])
            continue;
        fprintf(out, "  %s: %s", w->lname[l], vtype_name(L->type));
        if (L->len > 1)
            fprintf(out, "[%d]", L->len);
        bool same = true;
        for (int i = 1; i < L->len; i++)
            same = same && L->init[i] == L->init[0];
        if (same) {
            fprintf(out, " = %lld", (long long)L->init[0]);
        } else {
            fprintf(out, " = {");
            for (int i = 0; i < L->len; i++)
                fprintf(out, "%s%lld", i ? ", " : "", (long long)L->init[i]);
            fprintf(out, "}");
        }
        if (L->home == HOME_HOST)
            fprintf(out, " @host");
        else
            fprintf(out, " @gpu%d", L->home);
        fprintf(out, " %s\n", L->gran == GRAN_COARSE ? "coarse" : "fine");
    }
    if (nmem || !t->heap.present)
        fprintf(out, "}\n\n");
    free(heapcopy);
    bool declared = false;
    for (int k = 0; k < t->nkernels; k++) {
        const kernel *K = &t->kernels[k];
        if (K->implicit)
            continue;
        declared = true;
        char kn[300];
        fprintf(out, "kernel %s @gpu%d", lit_ident(K->name, kn, sizeof kn), K->gpu);
        for (int a = 0; a < K->nafter; a++)
            fprintf(out, "%s%s", a ? ", " : " after ", lit_ident(t->kernels[K->after[a]].name, kn, sizeof kn));
        if (K->not_coresident)
            fprintf(out, " launch normal");
        fprintf(out, "\n");
    }
    if (declared)
        fprintf(out, "\n");
    for (int i = 0; i < t->nthreads && !w->failed; i++) {
        const thread *th = &t->threads[i];
        /* The host's writes between launches (host blocks, after expansion) are
         * plain stores of a thread on a GPU index of its own, in a kernel
         * ordered after what the host waited for: written as just that. */
        char tn[300];
        fprintf(out, "thread %s @gpu%d", w->tname[i], th->gpu);
        /* Workgroups and waves are numbered internally (the .lit parser gives
         * each launch's workgroups numbers of their own): write them as small
         * numbers that keep who shares a workgroup, and a wave where two
         * threads share one. */
        fprintf(out, ".wg%d", group_number(t, i, false));
        if (wave_shared(t, i))
            fprintf(out, ".wave%d", group_number(t, i, true));
        if (declared && th->kernel >= 0 && !t->kernels[th->kernel].implicit)
            fprintf(out, " in %s", lit_ident(t->kernels[th->kernel].name, tn, sizeof tn));
        fprintf(out, " {\n");
        bool def[256] = {0}, need[256] = {0};
        block_uses(&th->code, def, need);
        for (int r = 0; r < th->nregs && r < 256; r++)
            if (need[r] || !def[r])
                fprintf(out, "  %s = 0\n", th->regs[r]);
        lit_block(w, th, &th->code, 1);
        fprintf(out, "}\n\n");
    }
    if (!w->failed && t->cond) {
        cond_style st = {" && ", " || ", "!(", lit_operand, w};
        char *text = cond_text(t->cond, &st);
        if (!w->failed)
            fprintf(out, "%s (%s)\n", quant_word(t->quant), text);
        free(text);
    }
    for (int i = 0; i < t->nexpects && !w->failed; i++) {
        if (t->expects[i].model)
            fprintf(out, "expect %s: %s\n", t->expects[i].model, verdict_name(t->expects[i].verdict));
        else
            fprintf(out, "expect %s\n", verdict_name(t->expects[i].verdict));
    }
    return w->failed ? -1 : 0;
}

/* ---- PTX litmus ------------------------------------------------------------------------------------ */

typedef struct {
    char **v;
    int n, cap;
} lines;

static void add_line(lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_line(lines *l, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = strdup(buf);
}

typedef struct {
    wr *w;
    const thread *th;
    lines *out;
    int ntmp, nlabel;
    int tid;
} ptxw;

static const char *ptx_scope(wr *w, scope_t s, const inst *in)
{
    switch (s) {
    case SCOPE_WG: return "cta";
    case SCOPE_AGENT: return "gpu";
    case SCOPE_SYS: return "sys";
    default:
        fail(w, "%s:%d:%d: PTX has no %s scope", w->t->file, in->pos.line, in->pos.col, scope_name(s));
        return "gpu";
    }
}

/* PTX litmus registers are r0, r1, ...: a thread's registers keep their
 * names when they have that form, else become r<index>; temporaries follow. */
static int reg_number(const thread *th, int r)
{
    bool keep = true;
    for (int i = 0; i < th->nregs && keep; i++) {
        const char *n = th->regs[i];
        keep = n[0] == 'r' && n[1] && strspn(n + 1, "0123456789") == strlen(n + 1) && strlen(n) < 9;
    }
    return keep ? atoi(th->regs[r] + 1) : r;
}

static void tmp_reg(ptxw *p, char *buf, size_t n)
{
    int top = 99;
    for (int r = 0; r < p->th->nregs; r++)
        if (reg_number(p->th, r) > top)
            top = reg_number(p->th, r);
    snprintf(buf, n, "r%d", top + 1 + p->ntmp++);
}

/* The operand holding e's value: a constant, a register, or a temporary
 * computed by add/sub/mul/div/and/or/xor. */
static void ptx_value(ptxw *p, const expr *e, char *buf, size_t n)
{
    static const char *const ops[] = {"add", "sub", "mul", "div", NULL, "and", "or", "xor"};
    switch (e->kind) {
    case EX_CONST: snprintf(buf, n, "%lld", (long long)e->value); return;
    case EX_REG: snprintf(buf, n, "r%d", reg_number(p->th, e->reg)); return;
    case EX_NEG: {
        char a[64];
        ptx_value(p, e->a, a, sizeof a);
        tmp_reg(p, buf, n);
        add_line(p->out, "sub %s, 0, %s", buf, a);
        return;
    }
    case EX_BIN:
        if ((int)e->op < 8 && ops[e->op]) {
            char a[64], b[64];
            ptx_value(p, e->a, a, sizeof a);
            ptx_value(p, e->b, b, sizeof b);
            tmp_reg(p, buf, n);
            add_line(p->out, "%s %s, %s, %s", ops[e->op], buf, a, b);
            return;
        }
        break;
    default: break;
    }
    fail(p->w, "%s:%d:%d: this expression has no PTX litmus form (add, sub, mul, div, and, or, xor only)",
         p->w->t->file, e->pos.line, e->pos.col);
    snprintf(buf, n, "0");
}

static void ptx_mem(ptxw *p, const inst *in, char *buf, size_t n)
{
    if (in->mem.loc < 0 || in->mem.index) {
        fail(p->w, "%s:%d:%d: PTX litmus tests have named scalar locations only", p->w->t->file, in->pos.line,
             in->pos.col);
        snprintf(buf, n, "x");
        return;
    }
    snprintf(buf, n, "%s", p->w->t->locs[in->mem.loc].name);
}

static void ptx_block(ptxw *p, const block *b);

/* The semantics part of ld/st/atom: weak, relaxed.S, ...; seq_cst becomes
 * fence.sc.S followed by the acquire/release form ([PTX19] Fig. 11). */
static void ptx_sem(ptxw *p, const inst *in, bool load, bool store, char *buf, size_t n)
{
    if (in->ord == ORD_PLAIN) {
        snprintf(buf, n, "weak");
        return;
    }
    const char *s = ptx_scope(p->w, in->scope, in);
    order_t o = in->ord;
    if (o == ORD_SEQ_CST) {
        add_line(p->out, "fence.sc.%s", s);
        o = load && store ? ORD_ACQ_REL : load ? ORD_ACQUIRE : ORD_RELEASE;
    }
    snprintf(buf, n, "%s.%s", order_name(o), s);
}

/* The operands a branch compares: c's two sides for a comparison (k its
 * index from BIN_EQ), else c and 0 (c != 0). */
static void cond_operands(ptxw *p, const expr *c, int k, char *a, char *b)
{
    if (c->kind == EX_BIN && c->op >= BIN_EQ && c->op <= BIN_GE && (int)c->op - BIN_EQ == k) {
        ptx_value(p, c->a, a, 64);
        ptx_value(p, c->b, b, 64);
    } else {
        ptx_value(p, c, a, 64);
        snprintf(b, 64, "0");
    }
}

static void ptx_inst(ptxw *p, const inst *in)
{
    wr *w = p->w;
    char sem[64], mem[96], a[64], b[64], d[64];
    if (in->vk & VK_GIVEN) {
        fail(w, "%s:%d:%d: Vulkan attributes cannot be written as PTX", w->t->file, in->pos.line, in->pos.col);
        return;
    }
    /* Proxies as Dat3M's LitmusPTX.g4 spells them (lines 265-285): tld suld cold, sust,
     * suatom sured; an await, and a texture or constant store or RMW, have no such form. */
    static const char *const ld_name[] = {"ld", "suld", "tld", "cold"};
    bool surface_or_generic = in->proxy == PROXY_GENERIC || in->proxy == PROXY_SURFACE;
    if (in->proxy >= PROXY_NONE && !in->proxy_fence) {
        fail(w, "%s:%d:%d: an access without a proxy", w->t->file, in->pos.line, in->pos.col);
        return;
    }
    if ((in->kind == I_AWAIT && in->proxy != PROXY_GENERIC) ||
        ((in->kind == I_ST || in->kind == I_RMW) && !surface_or_generic)) {
        fail(w, "%s:%d:%d: this proxy access has no PTX litmus form", w->t->file, in->pos.line, in->pos.col);
        return;
    }
    const char *su = in->proxy == PROXY_SURFACE ? "su" : "";
    switch (in->kind) {
    case I_LD:
        ptx_mem(p, in, mem, sizeof mem);
        ptx_sem(p, in, true, false, sem, sizeof sem);
        add_line(p->out, "%s.%s r%d, %s", ld_name[in->proxy], sem, reg_number(p->th, in->dst), mem);
        return;
    case I_ST:
        ptx_mem(p, in, mem, sizeof mem);
        ptx_value(p, in->val, a, sizeof a);
        ptx_sem(p, in, false, true, sem, sizeof sem);
        add_line(p->out, "%s.%s %s, %s", in->proxy == PROXY_SURFACE ? "sust" : "st", sem, mem, a);
        return;
    case I_RMW:
        if (in->rmw > RMW_CAS) {
            fail(w, "%s:%d:%d: atom.%s has no PTX litmus form", w->t->file, in->pos.line, in->pos.col, rmw_name(in->rmw));
            return;
        }
        ptx_mem(p, in, mem, sizeof mem);
        ptx_value(p, in->val, a, sizeof a);
        if (in->rmw == RMW_CAS)
            ptx_value(p, in->val2, b, sizeof b);
        ptx_sem(p, in, true, true, sem, sizeof sem);
        if (in->dst < 0 && in->rmw != RMW_CAS) {
            add_line(p->out, "%sred.%s.%s %s, %s", su, sem, rmw_name(in->rmw), mem, a);
            return;
        }
        if (in->dst >= 0)
            snprintf(d, sizeof d, "r%d", reg_number(p->th, in->dst));
        else
            tmp_reg(p, d, sizeof d);
        if (in->rmw == RMW_CAS)
            add_line(p->out, "%satom.%s.cas %s, %s, %s, %s", su, sem, d, mem, a, b);
        else
            add_line(p->out, "%satom.%s.%s %s, %s, %s", su, sem, rmw_name(in->rmw), d, mem, a);
        return;
    case I_AWAIT: {
        /* LCk: ld r, x ; bne r, want, LCk   (spin until r == want) */
        ptx_mem(p, in, mem, sizeof mem);
        char want[64];
        ptx_value(p, in->want, want, sizeof want);
        if (in->await_rmw) {
            ptx_value(p, in->val, a, sizeof a);
            ptx_value(p, in->val2, b, sizeof b);
        }
        if (in->dst >= 0)
            snprintf(d, sizeof d, "r%d", reg_number(p->th, in->dst));
        else
            tmp_reg(p, d, sizeof d);
        int lab = p->nlabel++;
        add_line(p->out, "LC%d%02d:", p->tid, lab);
        ptx_sem(p, in, true, in->await_rmw, sem, sizeof sem);
        if (in->await_rmw)
            add_line(p->out, "atom.%s.cas %s, %s, %s, %s", sem, d, mem, a, b);
        else
            add_line(p->out, "ld.%s %s, %s", sem, d, mem);
        /* Branch back while the wait is not over: the negated comparison. */
        static const char *const spin_back[] = {[BIN_EQ] = "bne", [BIN_NE] = "beq", [BIN_LT] = "bge",
                                                [BIN_LE] = "bgt", [BIN_GT] = "ble", [BIN_GE] = "blt"};
        add_line(p->out, "%s %s, %s, LC%d%02d", spin_back[in->await_op], d, want, p->tid, lab);
        return;
    }
    case I_FENCE:
        if (in->proxy_fence) {
            static const char *const names[] = {"generic", "surface", "texture", "constant"};
            add_line(p->out, "fence.proxy.%s",
                     in->proxy_alias || in->proxy >= PROXY_NONE ? "alias" : names[in->proxy]);
            return;
        }
        add_line(p->out, "fence.%s.%s", in->ord == ORD_SEQ_CST ? "sc" : order_name(in->ord),
                 ptx_scope(w, in->scope, in));
        return;
    case I_BARRIER:
        if (!in->bar_id) {
            add_line(p->out, "bar.cta.sync 0");
            return;
        }
        ptx_value(p, in->bar_id, a, sizeof a);
        if (in->bar_count) {
            ptx_value(p, in->bar_count, b, sizeof b);
            add_line(p->out, "bar.cta.%s %s, %s", in->bar_arrive ? "arrive" : "sync", a, b);
        } else {
            add_line(p->out, "bar.cta.%s %s", in->bar_arrive ? "arrive" : "sync", a);
        }
        return;
    case I_ASSIGN:
        if (in->val->kind == EX_BIN && (int)in->val->op < 8 && in->val->op != BIN_MOD) {
            static const char *const ops[] = {"add", "sub", "mul", "div", NULL, "and", "or", "xor"};
            ptx_value(p, in->val->a, a, sizeof a);
            ptx_value(p, in->val->b, b, sizeof b);
            add_line(p->out, "%s r%d, %s, %s", ops[in->val->op], reg_number(p->th, in->dst), a, b);
        } else {
            ptx_value(p, in->val, a, sizeof a);
            add_line(p->out, "add r%d, %s, 0", reg_number(p->th, in->dst), a);
        }
        return;
    case I_IF: {
        /* bNOT a, b, LCelse ; body ; goto LCend ; LCelse: els ; LCend: */
        const expr *c = in->val;
        static const char *const br[] = {"beq", "bne", "blt", "ble", "bgt", "bge"};
        static const int neg[] = {1, 0, 5, 4, 3, 2}; /* EQ->bne, NE->beq, LT->bge, LE->bgt, GT->ble, GE->blt */
        int k;
        if (c->kind == EX_BIN && c->op >= BIN_EQ && c->op <= BIN_GE) {
            k = c->op - BIN_EQ;
            ptx_value(p, c->a, a, sizeof a);
            ptx_value(p, c->b, b, sizeof b);
        } else {
            k = 1; /* e != 0 */
            ptx_value(p, c, a, sizeof a);
            snprintf(b, sizeof b, "0");
        }
        int lelse = p->nlabel++, lend = in->els.n ? p->nlabel++ : lelse;
        add_line(p->out, "%s %s, %s, LC%d%02d", br[neg[k]], a, b, p->tid, lelse);
        ptx_block(p, &in->body);
        if (in->els.n) {
            add_line(p->out, "goto LC%d%02d", p->tid, lend);
            add_line(p->out, "LC%d%02d:", p->tid, lelse);
            ptx_block(p, &in->els);
        }
        add_line(p->out, "LC%d%02d:", p->tid, lend);
        return;
    }
    case I_WHILE: {
        /* LCtop: [bNOT cond, LCend]; body; bCOND LCtop (do-while) / goto LCtop; LCend:
         * The unrolling bound is a tool option in PTX litmus (Dat3M --bound). */
        const expr *c = in->val;
        static const char *const br[] = {"beq", "bne", "blt", "ble", "bgt", "bge"};
        static const int neg[] = {1, 0, 5, 4, 3, 2};
        int k = 1;
        if (c->kind == EX_BIN && c->op >= BIN_EQ && c->op <= BIN_GE)
            k = c->op - BIN_EQ;
        int ltop = p->nlabel++, lend = p->nlabel++;
        add_line(p->out, "LC%d%02d:", p->tid, ltop);
        if (!in->do_while) {
            cond_operands(p, c, k, a, b);
            add_line(p->out, "%s %s, %s, LC%d%02d", br[neg[k]], a, b, p->tid, lend);
        }
        ptx_block(p, &in->body);
        if (in->do_while) {
            cond_operands(p, c, k, a, b);
            add_line(p->out, "%s %s, %s, LC%d%02d", br[k], a, b, p->tid, ltop);
        } else {
            add_line(p->out, "goto LC%d%02d", p->tid, ltop);
        }
        add_line(p->out, "LC%d%02d:", p->tid, lend);
        return;
    }
    default:
        fail(w, "%s:%d:%d: this instruction has no PTX litmus form", w->t->file, in->pos.line, in->pos.col);
        return;
    }
}

static void ptx_block(ptxw *p, const block *b)
{
    for (int i = 0; i < b->n && !p->w->failed; i++)
        ptx_inst(p, &b->v[i]);
}

static void ptx_operand(void *ctx, const operand *o, char *buf, size_t n)
{
    wr *w = ctx;
    const test *t = w->t;
    if (o->kind == OPND_CONST) {
        snprintf(buf, n, "%lld", (long long)o->value);
    } else if (o->kind == OPND_REG) {
        snprintf(buf, n, "P%d:r%d", o->thread, reg_number(&t->threads[o->thread], o->reg));
    } else {
        int l = cell_loc(t, o->cell);
        if (t->locs[l].len > 1)
            fail(w, "%s: arrays have no PTX litmus form", t->file);
        snprintf(buf, n, "%s", t->locs[l].name);
    }
}

static test *parse_litmus_back(const char *text, diag *d) { return litmus_parse("written.litmus", text, d, NULL); }

static int render_ptx_litmus(FILE *out, const test *t, char *err, size_t errsz);

int write_ptx_litmus(FILE *out, const test *t, char *err, size_t errsz)
{
    return written_and_read_back(out, t, err, errsz, render_ptx_litmus, parse_litmus_back, "PTX litmus");
}

static int render_ptx_litmus(FILE *out, const test *t, char *err, size_t errsz)
{
    wr W = {.out = out, .t = t, .err = err, .errsz = errsz}, *w = &W;
    if (t->nssw)
        fail(w, "%s: ssw (Vulkan) has no PTX form", t->file);
    if (t->filter)
        fail(w, "%s: memsim does not write filters", t->file);
    shmem_unconvertible(w);
    for (int l = 0; l < t->nlocs && !w->failed; l++) {
        const location *L = &t->locs[l];
        if (L->len > 1)
            fail(w, "%s: '%s' is an array: PTX litmus tests have scalar locations only", t->file, L->name);
        else if (L->gran == GRAN_COARSE)
            fail(w, "%s: '%s' is coarse-grained memory, which the PTX model does not have", t->file, L->name);
        else if (litmus_type_word(L->name) ||
                 (L->name[0] == 'r' && L->name[1] && strspn(L->name + 1, "0123456789") == strlen(L->name + 1)))
            fail(w, "%s: a location named '%s' reads as a %s in PTX litmus: rename it to convert", t->file, L->name,
                 L->name[0] == 'r' && !litmus_type_word(L->name) ? "register" : "type");
        for (int k = 0; k < l; k++)
            if (t->locs[k].first_cell == L->first_cell)
                fail(w, "%s: '%s' aliases '%s' (Vulkan aliases have no PTX form)", t->file, L->name, t->locs[k].name);
    }
    int pergpu[64] = {0};
    for (int k = 0; k < t->nkernels && !w->failed; k++) {
        if (t->kernels[k].nafter)
            fail(w, "%s: kernel ordering ('after') has no PTX litmus form", t->file);
        if (t->kernels[k].gpu >= 0 && t->kernels[k].gpu < 64 && ++pergpu[t->kernels[k].gpu] > 1)
            fail(w, "%s: several kernels on one GPU have no PTX litmus form", t->file);
    }
    if (w->failed)
        return -1;
    /* Per-thread code. */
    lines *code = calloc((size_t)t->nthreads, sizeof *code);
    for (int i = 0; i < t->nthreads && !w->failed; i++) {
        if (t->threads[i].host)
            fail(w, "%s: host threads have no PTX litmus form", t->file);
        ptxw p = {w, &t->threads[i], &code[i], 0, 0, i};
        ptx_block(&p, &t->threads[i].code);
    }
    int rc = -1;
    if (!w->failed) {
        fprintf(out, "PTX %s\n\"Converted by memsim from %s", t->name, t->file);
        for (int i = 0; i < t->nexpects; i++)
            fprintf(out, "%s%s%s%s", i ? ", " : "; memsim expects ", t->expects[i].model ? t->expects[i].model : "",
                    t->expects[i].model ? ": " : "", verdict_name(t->expects[i].verdict));
        fprintf(out, "\"\n{\n");
        for (int l = 0; l < t->nlocs; l++)
            fprintf(out, "%s=%lld;\n", t->locs[l].name, (long long)t->locs[l].init[0]);
        fprintf(out, "}\n");
        /* CTA ids: a thread in no named workgroup gets one of its own. */
        int cta[64], next = 0;
        for (int i = 0; i < t->nthreads; i++)
            if (t->threads[i].wg < 1000000 && t->threads[i].wg >= next)
                next = t->threads[i].wg + 1;
        for (int i = 0; i < t->nthreads && i < 64; i++)
            cta[i] = t->threads[i].wg < 1000000 ? t->threads[i].wg : next++;
        /* Columns. */
        int rows = 0;
        for (int i = 0; i < t->nthreads; i++)
            if (code[i].n > rows)
                rows = code[i].n;
        int width[64];
        char head[64][64];
        for (int i = 0; i < t->nthreads && i < 64; i++) {
            snprintf(head[i], sizeof head[i], "P%d@cta %d,gpu %d", i, cta[i], t->threads[i].gpu);
            width[i] = (int)strlen(head[i]);
            for (int r = 0; r < code[i].n; r++)
                if ((int)strlen(code[i].v[r]) > width[i])
                    width[i] = (int)strlen(code[i].v[r]);
        }
        for (int r = -1; r < rows; r++) {
            for (int i = 0; i < t->nthreads; i++) {
                const char *cell = r < 0 ? head[i] : r < code[i].n ? code[i].v[r] : "";
                fprintf(out, " %-*s %s", width[i], cell, i + 1 < t->nthreads ? "|" : ";\n");
            }
        }
        if (t->cond) {
            cond_style st = {" /\\ ", " \\/ ", "~(", ptx_operand, w};
            char *text = cond_text(t->cond, &st);
            fprintf(out, "%s\n(%s)\n", quant_word(t->quant), text);
            free(text);
        }
        rc = w->failed ? -1 : 0;
    }
    for (int i = 0; i < t->nthreads; i++) {
        for (int r = 0; r < code[i].n; r++)
            free(code[i].v[r]);
        free(code[i].v);
    }
    free(code);
    return rc;
}
