/* One candidate execution: events with their attributes and the relations
 * that the explorer chose (rf, co) or derived from the program (po, dep, rmw,
 * kernel order, barrier instances). */
#ifndef MEMSIM_EXEC_H
#define MEMSIM_EXEC_H

#include "../ir/ir.h"
#include "rel.h"

typedef enum { EV_IW = 0, EV_R, EV_W, EV_F, EV_BA, EV_BW } evkind_t;

typedef struct {
    evkind_t kind;
    int thread;          /* -1 for an initial write */
    int cell;            /* -1 for fences and barriers */
    order_t ord;
    scope_t scope;       /* as written */
    int64_t value;
    int rmw_partner;     /* the other half of an RMW, or -1 */
    bool implicit;       /* the fence.sc that PTX puts before a seq_cst access */
    bool await_hang;     /* the read of an await that never succeeds */
    int gpu, wg, wave, kernel;
    int bar;             /* barrier instance within its workgroup (per name, for named barriers) */
    bool bar_named;      /* a named barrier (bar.sync N, cbar N): matched by bar_key */
    int64_t bar_key;     /* the named barrier's identity */
    int bar_quorum;      /* threads that must arrive before any passes (0: every participant) */
    bool bar_nosync;     /* an arrival at a quorum barrier that does not synchronize (Dat3M's !sync(e)) */
    scope_t bar_scope;   /* BA/BW: the execution scope whose instance takes part */
    const inst *src;     /* the instruction, for messages (NULL for IW) */
} event;

typedef struct {
    const test *t;
    int n;
    event ev[REL_MAX];
    rel po, rf, co, rmw, dep, kb, bar;
} execution;

/* Copies an execution's n events and the rows of its relations that are in
 * use (a whole struct is tens of kilobytes; most executions are small). */
void exec_copy(execution *dst, const execution *src);

#endif
