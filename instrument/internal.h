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
    const char *kname;   /* its kernel's name (an identifier) */
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

static inline expr *reg_expr(int r) { return expr_reg(r, (srcpos){0, 0}); }
static inline expr *cst(int64_t v) { return expr_const(v, (srcpos){0, 0}); }

/* compute.c */
int new_reg(xlate *x);
int x_int_bits(xlate *x, LLVMTypeRef ty);
int64_t x_wrap(int64_t v, int bits);
uint64_t x_zext(int64_t v, int bits);
bool x_is_cmp(binop_t op);
binop_t x_negate(binop_t op);
binop_t x_swap_cmp(binop_t op);
bool x_uses_reg(const expr *e, int r);
bool x_binop(xlate *x, LLVMOpcode op, const val *a, const val *b, int bits, val *r);
bool x_icmp(xlate *x, LLVMIntPredicate pr, const val *a, const val *b, int bits, val *r);
bool x_gep(xlate *x, frame *f, LLVMValueRef in, val *r);
bool x_cast(xlate *x, frame *f, LLVMValueRef in, LLVMOpcode op, val *r);
bool x_select(xlate *x, frame *f, LLVMValueRef in, val *r);
bool x_element(xlate *x, frame *f, LLVMValueRef in, LLVMOpcode op, val *r);
int64_t x_float_bits(double d, bool is_double);
bool x_float(xlate *x, frame *f, LLVMValueRef in, LLVMOpcode op, val *r);
bool x_fcmp(xlate *x, frame *f, LLVMValueRef in, val *r);
bool x_vector_binop(xlate *x, LLVMValueRef in, LLVMOpcode op, const val *a, const val *b, val *r);

/* access.c */
inst x_inst(instkind_t k);
/* Where each register was read (the LLVM block), for spin loops. */
typedef struct {
    LLVMBasicBlockRef *bb;
    int n;
} regsrc;
extern _Thread_local regsrc g_regsrc;
void x_reg_from(int r, LLVMBasicBlockRef bb);
/* Cells whose loads were forwarded from the thread's own store: no other
 * thread may write them (checked when every thread is made). */
typedef struct {
    int *cell, *thread;
    int n;
} fwdcheck;
extern _Thread_local fwdcheck g_fwd;
void x_forward_clear(xlate *x);
bool x_load(xlate *x, frame *f, block *out, LLVMValueRef in, val *r);
bool x_store(xlate *x, frame *f, block *out, LLVMValueRef in);
bool x_rmw(xlate *x, frame *f, block *out, LLVMValueRef in, bool cas, val *r);
void x_fence(xlate *x, block *out, LLVMValueRef in);
void x_barrier(xlate *x, block *out, LLVMValueRef in);

/* calls.c */
bool x_call(xlate *x, frame *f, block *out, LLVMValueRef in, val *r);

/* control.c: runs a function's blocks from bb until stop (NULL: its end) */
typedef enum { W_STOP = 0, W_RET, W_DEAD, W_FAIL } wend;
wend x_walk(xlate *x, frame *f, LLVMBasicBlockRef bb, LLVMBasicBlockRef pred, LLVMBasicBlockRef stop, block *out,
            LLVMBasicBlockRef *last, val *ret);

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

#endif
