/* Shared by the files of instrument/: the translation state of one thread. */
#ifndef MEMSIM_INSTRUMENT_INTERNAL_H
#define MEMSIM_INSTRUMENT_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdint.h>

#include "instrument.h"

/* A value as the translation knows it: a number (thread ids, addresses,
 * constants), an expression over the thread's registers (what memory
 * returned), or an aggregate (vectors, cmpxchg's pair, inline asm outputs). */
typedef enum { V_UNSET = 0, V_KNOWN, V_SYM, V_AGG } vkind;

typedef struct val {
    vkind k;
    int64_t c;          /* V_KNOWN */
    expr *e;            /* V_SYM (owned) */
    int n;              /* V_AGG */
    struct val *el;
} val;

/* LLVM value -> val, open addressing; each val has its own allocation, so a
 * pointer from vmap_get stays valid while the map grows. */
typedef struct {
    LLVMValueRef *key;
    val **v;
    int cap, n;
} vmap;

/* What is known about one function's control-flow graph. */
typedef struct {
    LLVMValueRef fn;
    int n;
    LLVMBasicBlockRef *bb;
    uint64_t *reach;    /* n x words: reach[a] has b when a path a -> ... -> b exists (length >= 1) */
    int words;
    int *ipdom;         /* immediate post-dominator, -1: the function's exit */
    bool *endless;      /* the block cannot reach a return: a loop that never exits */
} cfg;

typedef struct {
    LLVMValueRef fn;
    cfg *g;
    vmap vals;
    int *visits;        /* per block */
    int depth;
} frame;

/* One loaded module. */
typedef struct {
    char *path;          /* as the launch names it */
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMTargetDataRef td;
    bool nvptx;          /* NVIDIA (warp 32, PTX inline asm), else AMDGPU (wave 64) */
    unsigned ss_wave, ss_wg, ss_agent, ss_sys, ss_single, ss_wave1, ss_wg1, ss_agent1, ss_sys1, ss_block, ss_device,
        ss_cluster;
    unsigned md_nontemporal;
} module;

typedef struct xlate {
    test *t;
    const instr_opts *o;
    instr_notes *notes;
    char *err;
    size_t errsz;
    bool failed;
    module *m;
    const launch *L;
    int launch_index;
    thread *th;          /* the thread being made */
    int tid, wg;         /* its index in the block and its workgroup in the grid */
    LLVMValueRef cur;    /* the instruction being translated, for messages */
    srcpos last_pos;     /* the latest statement's source line (for code without !dbg) */
    cfg **cfgs;          /* per function, cached for the whole run */
    int ncfgs;
    int lds_first_loc;   /* the LDS locations of this launch's workgroups start here */
    /* Own stores to work-group memory, for the LDS broadcast Triton makes:
     * (cell, value) of this thread's latest store to each LDS cell. */
    int *fw_cell;
    expr **fw_val;
    int nfw;
} xlate;

/* Errors: "file:line: error: in function F: INSTRUCTION: message". */
void xfail(xlate *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void xnote(xlate *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The srcpos (an index into t->srcmap) of an LLVM instruction. */
srcpos xpos(xlate *x, LLVMValueRef inst);

/* module.c */
module *module_load(const char *path, const instr_opts *o, char *err, size_t errsz);
void module_free(module *m);
LLVMValueRef module_find_kernel(module *m, const char *name);
cfg *cfg_of(xlate *x, LLVMValueRef fn);
int cfg_index(const cfg *g, LLVMBasicBlockRef b);
bool cfg_reaches(const cfg *g, int a, int b);

/* values.c */
void val_free(val *v);
val val_copy(const val *v);
val val_known(int64_t c);
val val_sym(expr *e);
expr *val_expr(const val *v);    /* a fresh expression for a known or symbolic value */
void vmap_put(vmap *m, LLVMValueRef k, val v);
val *vmap_get(vmap *m, LLVMValueRef k);
void vmap_free(vmap *m);

/* memory.c: addresses of the launch's memory. */
#define MEM_BASE(l) ((int64_t)((l) + 128) << 32)
#define TABLE_BASE ((int64_t)0x7e00 << 32)           /* the heap-base table */
#define LDS_BASE ((int64_t)0x10000000)                /* addrspace(3) pointers */
#define LDS_FLAT ((int64_t)0x7f00 << 32)              /* the same, as generic pointers */
/* An address of the launch's memory as a memory operand; false after an
 * error.  *table_value is set instead (and *is_table) for the read-only
 * heap-base table. */
bool mem_resolve(xlate *x, int64_t addr, bool lds, vtype_t ty, memref *m, bool *is_table, int64_t *table_value);
bool mem_arg_address(xlate *x, const launch_arg *a, int64_t *addr);
int mem_cell_of(xlate *x, const memref *m);

/* ptxasm.c: inline PTX as Triton's NVIDIA backend writes it. */
bool ptxasm_call(xlate *x, frame *f, block *out, LLVMValueRef call, val *result);

/* translate.c, for ptxasm.c */
val *xoperand(xlate *x, frame *f, LLVMValueRef v);
void emit_access(xlate *x, block *out, inst *in, LLVMValueRef at);
bool access_load(xlate *x, block *out, LLVMValueRef at, int64_t addr, bool lds, vtype_t vt, order_t ord, scope_t scope,
                 cache_t cache, val *res);
bool access_store(xlate *x, block *out, LLVMValueRef at, int64_t addr, bool lds, vtype_t vt, order_t ord, scope_t scope,
                  cache_t cache, const val *v);
/* An atomic read-modify-write at a known address; *old is its register. */
bool access_rmw(xlate *x, block *out, LLVMValueRef at, int64_t addr, bool lds, vtype_t vt, rmwop_t op, order_t ord,
                scope_t scope, const val *a, const val *b, bool want_old, val *old);
int new_reg(xlate *x);

#endif
