/* Messages of the translation: errors that name the instruction, its
 * function and its source line; notes on what was abstracted; the source
 * line (an index into test.srcmap) of each statement. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- messages and source lines -------------------------------------------------------- */

static void where(xlate *x, LLVMValueRef inst, char *file, size_t fsz, int *line, int *col)
{
    snprintf(file, fsz, "%s", x->m ? x->m->path : "?");
    *line = *col = 0;
    LLVMMetadataRef loc = inst ? LLVMInstructionGetDebugLoc(inst) : NULL;
    if (!loc)
        return;
    /* The outermost call site: the kernel's own line, not a header's or a helper's. */
    for (LLVMMetadataRef up; (up = LLVMDILocationGetInlinedAt(loc));)
        loc = up;
    *line = (int)LLVMDILocationGetLine(loc);
    *col = (int)LLVMDILocationGetColumn(loc);
    LLVMMetadataRef scope = LLVMDILocationGetScope(loc);
    LLVMMetadataRef fm = scope ? LLVMDIScopeGetFile(scope) : NULL;
    if (fm) {
        unsigned n = 0;
        const char *name = LLVMDIFileGetFilename(fm, &n);
        if (name && n)
            snprintf(file, fsz, "%.*s", (int)n, name);
    }
}

static char *inst_text(LLVMValueRef inst)
{
    char *s = LLVMPrintValueToString(inst);
    char *r = strdup(s);
    LLVMDisposeMessage(s);
    char *p = r;
    while (*p == ' ')
        p++;
    memmove(r, p, strlen(p) + 1);
    char *dbg = strstr(r, ", !dbg");
    if (dbg)
        *dbg = 0;
    if (strlen(r) > 160)
        strcpy(r + 150, " ...");
    return r;
}

void xfail(xlate *x, const char *fmt, ...)
{
    if (x->failed)
        return;
    x->failed = true;
    char file[512], msg[1024];
    int line, col;
    where(x, x->cur, file, sizeof file, &line, &col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *what = x->cur ? inst_text(x->cur) : NULL;
    size_t fl;
    const char *fn = x->cur ? LLVMGetValueName2(LLVMGetBasicBlockParent(LLVMGetInstructionParent(x->cur)), &fl) : "";
    snprintf(x->err, x->errsz, "%s:%d:%d: error: %s\n  in function %s%s%s", file, line, col, msg, fn,
             what ? ", instruction: " : "", what ? what : "");
    free(what);
}

void xnote(xlate *x, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (int i = 0; i < x->notes->n; i++)
        if (strcmp(x->notes->v[i], msg) == 0)
            return;
    x->notes->v = realloc(x->notes->v, (size_t)(x->notes->n + 1) * sizeof *x->notes->v);
    x->notes->v[x->notes->n++] = strdup(msg);
}

srcpos xpos(xlate *x, LLVMValueRef inst)
{
    char file[512];
    int line, col;
    where(x, inst, file, sizeof file, &line, &col);
    if (line == 0 && x->last_pos.line > 0)
        return x->last_pos; /* no !dbg: the statement before it is the nearest source line */
    test *t = x->t;
    for (int i = 0; i < t->nsrcmap; i++)
        if (t->srcmap[i].line == line && t->srcmap[i].col == col && strcmp(t->srcmap[i].file, file) == 0)
            return x->last_pos = (srcpos){i + 1, col};
    t->srcmap = realloc(t->srcmap, (size_t)(t->nsrcmap + 1) * sizeof *t->srcmap);
    srcline *s = &t->srcmap[t->nsrcmap++];
    s->file = strdup(file);
    s->line = line;
    s->col = col;
    s->what = inst ? inst_text(inst) : NULL;
    x->last_pos = (srcpos){t->nsrcmap, col};
    return x->last_pos;
}
