/* The one program IR that the .lit parser, the importers, the checker and the
 * GPU code generators share.  A test is memory (named locations, flattened
 * into cells), threads placed in the scope tree, kernels with host order, a
 * final condition and expectations. */
#ifndef MEMSIM_IR_H
#define MEMSIM_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int line, col;
} srcpos;

/* Scope levels, narrowest first, so that min/max compare widths. */
typedef enum { SCOPE_NONE = 0, SCOPE_THREAD, SCOPE_WAVE, SCOPE_WG, SCOPE_AGENT, SCOPE_SYS } scope_t;

/* ORD_PLAIN is a non-atomic access (PTX .weak). */
typedef enum { ORD_PLAIN = 0, ORD_RELAXED, ORD_ACQUIRE, ORD_RELEASE, ORD_ACQ_REL, ORD_SEQ_CST } order_t;

typedef enum { GRAN_FINE = 0, GRAN_COARSE } gran_t;
typedef enum { TY_I32 = 0, TY_I64, TY_U32, TY_U64, TY_F32, TY_I8, TY_NTYPES } vtype_t;

typedef enum {
    RMW_ADD = 0, RMW_SUB, RMW_EXCH, RMW_AND, RMW_OR, RMW_XOR, RMW_MIN, RMW_MAX, RMW_CAS, RMW_FADD
} rmwop_t;

/* Cache modifiers are accepted (Iris, PTX) and carry no ordering. */
typedef enum { CACHE_NONE = 0, CACHE_WT, CACHE_CV, CACHE_CG, CACHE_CA, CACHE_CS, CACHE_WB, CACHE_VOLATILE } cache_t;

#define HOME_HOST (-1)
/* GPUs a test may place threads and memory on (indices 0 .. IR_MAX_GPUS-1); every front end checks it. */
enum { IR_MAX_GPUS = 64 };
/* How deep every parser lets expressions, conditions and blocks nest: deeper input is an error,
 * not a stack overflow. */
enum { IR_MAX_NESTING = 200 };

typedef struct {
    char *name;
    vtype_t type;
    int len;          /* 1 for a scalar, N for name[N] */
    int first_cell;   /* cells first_cell .. first_cell+len-1 */
    int64_t *init;    /* len values (f32 stored as its IEEE bits) */
    int home;         /* GPU index or HOME_HOST */
    gran_t gran;
    char *alloc;      /* allocator named in the source, or NULL */
    srcpos pos;
    int generic_of;   /* PTX `s @ surface aliases x`: 1 + the location whose generic (virtual)
                         address s is (Dat3M's VirtualMemoryObject.genericAddress); 0: its own */
} location;

/* PTX proxies (ptx-v7.5.cat lines 17-21, 47): the path an access takes to memory.
 * PROXY_GENERIC is 0, so every other front end's accesses are generic. */
typedef enum { PROXY_GENERIC = 0, PROXY_SURFACE, PROXY_TEXTURE, PROXY_CONSTANT, PROXY_NONE } proxy_t;

typedef enum {
    EX_CONST = 0, EX_REG, EX_BIN, EX_NEG, EX_NOT, EX_BNOT,
    EX_ADDR,       /* &var[index] on the thread's own rank: an address in its heap */
    EX_TRANSLATE,  /* translate(a, b, c): base[c] + (a - base[b]), as Iris's __translate */
    EX_GROUP       /* a fact about the thread's group, known when it runs: value is a GROUP_* */
} exprkind_t;

/* EX_GROUP: the thread's index among the test's threads of its workgroup
 * (wavefront), their count, and the number of threads that call a SHMEM
 * barrier_all (sync_all): what the desugared SHMEM calls need (lit/parse_shmem.c). */
enum { GROUP_WG_RANK = 0, GROUP_WG_SIZE, GROUP_WAVE_RANK, GROUP_WAVE_SIZE, GROUP_BARRIER_ALL, GROUP_SYNC_ALL };

typedef enum {
    BIN_ADD = 0, BIN_SUB, BIN_MUL, BIN_DIV, BIN_MOD, BIN_AND, BIN_OR, BIN_XOR, BIN_SHL, BIN_SHR,
    BIN_EQ, BIN_NE, BIN_LT, BIN_LE, BIN_GT, BIN_GE, BIN_LAND, BIN_LOR
} binop_t;

typedef struct expr {
    exprkind_t kind;
    int64_t value;    /* EX_CONST */
    int reg;          /* EX_REG: index in the thread's register table */
    binop_t op;       /* EX_BIN */
    struct expr *a, *b, *c;
    int symvar;       /* EX_ADDR: symmetric variable (a: index or NULL) */
    int rank;         /* EX_ADDR: the rank whose address space it is */
    srcpos pos;
} expr;

/* A memory operand: loc is an index into test.locs; index NULL for a scalar
 * or for element 0 written without brackets.  Symmetric-heap operands are
 * resolved when the thread runs: `var@peer[i]` (symvar, peer) translates the
 * address of var[i] from the thread's rank to peer's, and `[ptr]` (ptr)
 * dereferences an address; loc is then -1. */
typedef struct {
    int loc;
    expr *index;
    int symvar;       /* -1 unless var@peer */
    expr *peer;
    expr *ptr;
} memref;

typedef enum {
    I_LD = 0,   /* dst = ld.ord.scope mem */
    I_ST,       /* st.ord.scope mem, val */
    I_RMW,      /* dst = atom.op.ord.scope mem, val [, val2 for cas: val expected, val2 desired] */
    I_FENCE,    /* fence.ord.scope */
    I_BARRIER,  /* workgroup execution + memory barrier (__syncthreads) */
    I_ASSIGN,   /* dst = val */
    I_IF,       /* if val { body } else { els } */
    I_AWAIT,    /* [dst =] await ld.ord.scope mem == want, or await atom.cas... == want;
                   a ld await with val2: any of val2 consecutive cells from mem may satisfy
                   it, and dst gets the first such index (SHMEM wait_until_any) */
    I_FOR,      /* for dst in val .. val2 step want { body } */
    I_WHILE,    /* while val { body } (do_while: do { body } while val), unrolled at most
                   `bound` times (val2: the loop's own bound, NULL: test.loop_bound);
                   a path whose condition still holds after the last allowed iteration
                   is CUT (tpath.cut_at), reported, never dropped silently.  The
                   importers and the LLVM-IR front end build bounded loops this way. */
} instkind_t;

typedef struct block {
    struct inst *v;
    int n, cap;
} block;

typedef struct inst {
    instkind_t kind;
    srcpos pos;
    order_t ord;
    scope_t scope;
    cache_t cache;
    rmwop_t rmw;      /* I_RMW, and I_AWAIT when await_rmw */
    order_t fail_ord; /* CAS: the order of a failed CAS (relaxed unless stated) */
    bool unsafe;      /* atom.fadd.unsafe: a hardware FP atomic */
    bool await_rmw;   /* I_AWAIT on an atom.cas rather than a ld */
    bool do_while;    /* I_WHILE: the body runs once before the condition is tested */
    binop_t await_op; /* I_AWAIT: how the value read compares with want (== != < <= > >=) */
    int dst;          /* register or -1 */
    memref mem;
    expr *val, *val2;
    expr *want;       /* I_AWAIT: the value awaited (compared by await_op) */
    block body, els;  /* I_IF */
    /* Added for the importers (import/); zero/NULL in .lit programs. */
    expr *bar_id;     /* I_BARRIER: named barrier (PTX bar.sync a / Vulkan cbar N); NULL: the workgroup barrier */
    expr *bar_count;  /* I_BARRIER: PTX bar.sync a, b: b, part of the barrier's identity as in Dat3M; or NULL */
    expr *bar_quorum; /* I_BARRIER: threads that must arrive before any passes (Dat3M's PTX
                         bar.cta.sync a, b, q; .lit barrier N, count Q); NULL: every participant */
    bool bar_arrive;  /* I_BARRIER: arrive without waiting (PTX bar.arrive) */
    scope_t bar_scope; /* I_BARRIER: the execution scope whose threads take part (SCOPE_NONE: scope);
                          Dat3M's Vulkan litmus cbar is a workgroup barrier whatever its memory scope */
    unsigned vk;      /* Vulkan attributes, VK_* below (0: none given) */
    /* Desugared from a SHMEM device call (lit/parse_shmem.c, docs/models.md §7). */
    int shmem;        /* 1 + index in test.shmem_calls, or 0 */
    uint8_t shmem_role; /* SHM_* below */
    /* PTX proxies (import/litmus.c): the proxy of an access (tld: texture, sust: surface, ...)
     * or of a fence.proxy.P; a fence.proxy.alias has PROXY_NONE and proxy_alias (Dat3M tags it
     * ALIAS and no proxy, VisitorLitmusPTX.java visitFenceAlias).  A fence.proxy orders nothing
     * by itself (ord ORD_RELAXED): only ptx-v7.5.cat's proxy-preserved causality reads it. */
    uint8_t proxy;
    bool proxy_fence;
    bool proxy_alias;
    /* PTX bar.red (import/litmus.c, before it is desugared there): BAR_RED_* below, dst the
     * result register, val the predicate.  No instruction keeps it after parsing. */
    uint8_t bar_red;
} inst;

enum { BAR_RED_NONE = 0, BAR_RED_POPC, BAR_RED_AND, BAR_RED_OR };

/* What an instruction desugared from a SHMEM call stands for. */
enum {
    SHM_NONE = 0,
    SHM_PUT,      /* a store of put/p/put_signal's data to the destination PE */
    SHM_SOURCE,   /* put's read of its local source */
    SHM_GET,      /* get/g: the read of the remote source (and get's local store) */
    SHM_AMO,      /* an atomic on a peer */
    SHM_SIGNAL,   /* signal_op, or put_signal's signal update */
    SHM_FENCE,    /* shmem_fence: orders delivery to the same PE (sim/symexec.c) */
    SHM_QUIET,    /* shmem_quiet, or barrier_all's completion */
    SHM_WAIT,     /* wait_until*, signal_wait_until */
    SHM_BARRIER,  /* barrier_all / sync_all's arrival and wait */
    SHM_INTERNAL  /* bookkeeping: loop counters, epochs */
};

typedef struct {
    char *name;          /* the call as the user wrote it: nvshmem_int_put_nbi */
    srcpos pos;
} shmem_call;

/* Vulkan/SPIR-V attributes of an instruction (model/vulkan.c).  VK_GIVEN
 * marks an instruction whose attributes came from a Vulkan source; without
 * it the vulkan model applies defaults (storage class 0, atomics and fences
 * with semsc0, release = semav, acquire = semvis, plain = non-private). */
enum {
    VK_GIVEN = 1u << 0,
    VK_SC1 = 1u << 1,        /* storage class 1 (else 0) */
    VK_SEMSC0 = 1u << 2,     /* storage-class semantics */
    VK_SEMSC1 = 1u << 3,
    VK_AV = 1u << 4,         /* per-instruction availability (st.av) */
    VK_VIS = 1u << 5,        /* per-instruction visibility (ld.vis) */
    VK_SEMAV = 1u << 6,      /* MakeAvailable in the semantics */
    VK_SEMVIS = 1u << 7,     /* MakeVisible in the semantics */
    VK_NONPRIV = 1u << 8,    /* NonPrivatePointer */
    VK_AVDEVICE = 1u << 9,   /* I_FENCE: device-domain availability operation */
    VK_VISDEVICE = 1u << 10, /* I_FENCE: device-domain visibility operation */
    VK_SC2 = 1u << 11,       /* storage class 2 (Dat3M's vulkan.cat has classes 0 to 3) */
    VK_SC3 = 1u << 12,       /* storage class 3 */
    VK_SEMSC2 = 1u << 13,
    VK_SEMSC3 = 1u << 14,
};
/* An access's storage class (0 to 3) from its VK_SC* bits. */
#define VK_STORAGE_CLASS(vk) (((vk) & VK_SC3) ? 3 : ((vk) & VK_SC2) ? 2 : ((vk) & VK_SC1) ? 1 : 0)

typedef struct {
    char *name;          /* P0, or for instances producer[1,0] and producer[1,0]@2 */
    int gpu, wg, wave;   /* wave is unique per thread when not given; wg is
                            unique per kernel launch (workgroups of different
                            launches never meet) */
    int wg_label;        /* the workgroup number as written, for messages */
    bool host;           /* the host's own writes between launches */
    int kernel;          /* index in test.kernels */
    char **regs;         /* register names */
    int nregs;
    block code;
    srcpos pos;
} thread;

typedef struct {
    char *name;
    int gpu;
    int *after;          /* kernels that the host orders before this one */
    int nafter;
    bool implicit;       /* created because no kernel syntax was used */
    bool not_coresident; /* `launch normal`: its workgroups may not all run at once */
    srcpos pos;
} kernel;

/* Final condition formula. */
typedef enum { C_TRUE = 0, C_FALSE, C_AND, C_OR, C_NOT, C_CMP } condkind_t;
typedef enum { OPND_CONST = 0, OPND_REG, OPND_MEM } opndkind_t;

typedef struct {
    opndkind_t kind;
    int64_t value;
    int thread, reg;     /* OPND_REG */
    int cell;            /* OPND_MEM */
    srcpos pos;
} operand;

typedef struct cond {
    condkind_t kind;
    struct cond *a, *b;
    bool ne;             /* C_CMP: != rather than == */
    operand l, r;
    srcpos pos;
} cond;

typedef enum { Q_EXISTS = 0, Q_NOT_EXISTS, Q_FORALL } quant_t;

typedef enum {
    V_ALLOWED = 0, V_FORBIDDEN, V_RACE, V_HOLDS, V_FAILS, V_HANG, V_ERROR, V_NONE
} verdict_t;

typedef struct {
    char *model;         /* NULL: every model */
    verdict_t verdict;
    srcpos pos;
} expectation;

/* A variable of the symmetric heap: one location per rank. */
typedef struct {
    char *name;
    vtype_t type;
    int len;
    int *loc;            /* per rank: index in test.locs */
    srcpos pos;
} symvar;

typedef struct {
    bool present;
    int ranks;
    int64_t size;        /* bytes per rank */
    gran_t gran;
    int nvars;
    symvar *vars;
    int **order;         /* per rank: variable indices in allocation order */
    int64_t **offset;    /* per rank, per variable: byte offset in the heap */
} symheap;

/* Address of rank r's heap: far apart, so a wrong translation is visible. */
#define HEAP_BASE(r) ((int64_t)((r) + 1) << 32)

typedef struct {
    char *file;          /* the path as given */
    char *source;        /* whole text, for error lines */
    char *name;
    location *locs;
    int nlocs;
    int ncells;
    thread *threads;
    int nthreads;
    kernel *kernels;
    int nkernels;
    int ngpus;           /* 1 + highest GPU index used anywhere */
    quant_t quant;
    cond *cond;          /* NULL when the test has no condition */
    cond *filter;        /* herd's `filter`: only executions whose final state satisfies it exist (import/) */
    expectation *expects;
    int nexpects;
    int (*ssw)[2];       /* Vulkan system-synchronizes-with: thread pairs (import/) */
    int nssw;
    symheap heap;
    char *target;        /* target profile (mi200, mi300, h100...), or NULL */
    bool no_host_atomics; /* target ... no_host_atomics: GPU atomics on @host memory act at agent scope */
    int *cell_owner;     /* per cell: its location (test_index_cells), or NULL */
    /* Programs read from compiled code (instrument/): an instruction's pos.line
     * is 1 + an index in srcmap, the kernel source line it came from (its
     * !dbg location); NULL for tests written as .lit. */
    struct srcline *srcmap;
    int nsrcmap;
    shmem_call *shmem_calls; /* the SHMEM calls statements were desugared from */
    int nshmem_calls;
    int loop_bound;      /* iterations a `while` loop without its own bound may run (0: LOOP_BOUND_DEFAULT) */
    bool uses_proxies;   /* PTX proxies (non-generic accesses, proxy fences, `@ P aliases`): only a
                            model with .proxies (ptx75) reads them; the others refuse the test */
} test;

/* The unrolling bound of loops that give none (memsim --loop-bound N overrides it). */
enum { LOOP_BOUND_DEFAULT = 4, LOOP_BOUND_MAX = 1000 };

typedef struct srcline {
    char *file;          /* the kernel's source file as its debug info names it */
    int line, col;       /* 0 when the IR carries no location */
    char *what;          /* the LLVM instruction, for messages; or NULL */
} srcline;

/* How messages name a statement's position: "line 12" for a .lit test,
 * "mp.hip:12" for a statement read from compiled code. */
const char *test_line_name(const test *t, int line, char *buf, size_t size);
/* "file.lit:12:3" or, for compiled code, "mp.hip:12:3". */
const char *test_pos_name(const test *t, srcpos p, char *buf, size_t size);

/* Names and helpers shared by every front and back end. */
/* before[i][j]: kernel i is ordered before kernel j by the `after` chains (transitively), for
 * the first 64 kernels. */
void test_kernel_order(const test *t, bool before[64][64]);
const char *scope_name(scope_t s);
const char *order_name(order_t o);
const char *rmw_name(rmwop_t r);
const char *verdict_name(verdict_t v);
const char *vtype_name(vtype_t t);
/* An operator as .lit and C write it. */
const char *binop_spelling(binop_t op);
int cell_loc(const test *t, int cell);                 /* location owning a cell */
/* The value of an EX_GROUP expression (GROUP_*) in thread tid. */
int64_t thread_group_fact(const test *t, int tid, int which);
void test_index_cells(test *t);                        /* makes cell_loc O(1) */
void cell_name(const test *t, int cell, char *buf, int size); /* "x" or "buf[3]" */
void format_value(const test *t, int cell, int64_t v, char *buf, int size);
bool order_is_atomic(order_t o);
/* A value as a cell of this type holds it: wrapped to 32 bits where the type is. */
int64_t normalize_value(vtype_t t, int64_t v);
void test_free(test *t);

expr *expr_const(int64_t v, srcpos pos);
expr *expr_reg(int reg, srcpos pos);
expr *expr_bin(binop_t op, expr *a, expr *b, srcpos pos);
void expr_free(expr *e);
void block_push(block *b, const inst *in);
/* Frees what one instruction owns (its expressions and nested blocks), not the instruction itself. */
void inst_free(inst *in);
void block_free(block *b);
void block_clone(block *dst, const block *src);
expr *expr_clone(const expr *e);
size_t vtype_size(vtype_t t);
void cond_free(cond *c);
/* The same condition with each run of && (or of ||) as a balanced tree: a chain of n operands is log2 n deep, not
   n, for the recursive walks over conditions (evaluation, printing, reports). The operands keep their order. */
cond *cond_balance(cond *c);

#endif
