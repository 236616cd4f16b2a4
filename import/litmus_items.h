/* The Dat3M litmus importer's code before it is structured: one thread's
 * cells as items (instructions, labels, branches, jumps), shared by
 * litmus.c (parsing, the structured conversion) and litmus_dispatch.c
 * (the program-counter lowering of goto graphs the structured conversion
 * refuses).  Internal to import/. */
#ifndef MEMSIM_LITMUS_ITEMS_H
#define MEMSIM_LITMUS_ITEMS_H

#include <stdbool.h>
#include <stddef.h>

#include "../ir/diag.h"
#include "../ir/ir.h"

/* One cell of the code: an instruction, a label, a branch or a jump. */
typedef enum { IT_INST = 0, IT_LABEL, IT_BRANCH, IT_GOTO } itemkind_t;

typedef struct {
    itemkind_t kind;
    inst in;             /* IT_INST */
    char label[32];      /* IT_LABEL: its name; IT_BRANCH / IT_GOTO: the target */
    binop_t cmp;         /* IT_BRANCH */
    expr *a, *b;         /* IT_BRANCH operands */
    srcpos pos;
} item;

typedef struct {
    item *v;
    int n, cap;
} items;

/* An instruction of kind k with no destination and no operands. */
inst litmus_new_inst(instkind_t k, srcpos pos);

/* The index of the label called name, or -1. */
int litmus_find_label(const items *c, const char *name);

/* Register called name of thread th, added if new; -1 past 64 registers. */
int litmus_thread_reg(thread *th, const char *name, size_t n);

/* A spin-wait on one load or CAS, which becomes an await:
 *   L: rd r, x ; bCC r, v, L                   spin while CC
 *   L: rd r, x ; bCC r, v, LE ; goto L ; LE:   spin until CC
 * i is the label L, back its last backward jump, and items up to hi-1 may
 * take part.  Returns the index after the shape (LE stays: others may jump
 * to it), or -1 when items i.. are not one. */
int litmus_spin_wait(const items *c, int i, int back, int hi);

/* The await for the spin-wait shape at label i that ends before item end
 * (litmus_spin_wait's answer); the load or CAS and the awaited value move
 * out of the items. */
inst litmus_take_await(items *c, int i, int end);

/* Lowers a thread's items, any goto graph, to a program-counter dispatch
 * (litmus_dispatch.c): false after an error in d. */
bool litmus_dispatch(items *c, thread *th, diag *d, block *out);

#endif
