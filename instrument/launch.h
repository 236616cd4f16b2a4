/* The launch file of `memsim kernel` (docs/instrument.md): an ordinary .lit
 * test (name, const, memory, heap, condition, expect) whose threads come
 * from compiled kernels, named by launch statements:
 *
 *   kernel producer from "mp.hip" @gpu0 grid 1 block 64 args (data, flag)
 *   kernel consumer from "mp.ll"  @gpu1 grid 1 block 2 args (data@1, flag, 7, heap_bases) after producer
 *   kernel ar as ar1 from "ar.ll" @gpu1 grid 1 block 1 args (x, 1, heap_bases)
 *
 * launch_parse reads the launch statements and hands back the rest of the
 * text, with every launch statement blanked (lines and columns kept), for
 * the .lit parser. */
#ifndef MEMSIM_LAUNCH_H
#define MEMSIM_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include "../ir/diag.h"
#include "../ir/ir.h"

typedef enum {
    ARG_INT = 0,     /* an integer (a constant expression) */
    ARG_VAR,         /* the address of a memory location or heap variable (element) */
    ARG_HEAP_BASES,  /* the address of the heap-base table (Iris's heap_bases) */
} launch_arg_kind;

typedef struct {
    launch_arg_kind kind;
    int64_t value;   /* ARG_INT */
    char *name;      /* ARG_VAR */
    int rank;        /* ARG_VAR: VAR@r, the copy of rank r; -1: the launch's own GPU */
    int64_t index;   /* ARG_VAR: VAR[i], the address of element i */
    srcpos pos;
} launch_arg;

typedef struct {
    char *kernel;    /* the kernel's name in the source (a mangled C++ name matches too) */
    char *label;     /* `as LABEL`, else the kernel's name: what after and the host block call it */
    char *file;      /* the source or IR file, as written (relative to the launch file) */
    int gpu;
    int64_t grid, block;
    launch_arg *args;
    int nargs;
    char **after;    /* launches (by kernel name) that the host orders before this one */
    int nafter;
    srcpos pos;
    int at;          /* offset of the statement in the text */
} launch;

typedef struct {
    launch *v;
    int n;
    char *rest;      /* the text for the .lit parser */
    bool has_host;   /* a host block orders the launches (each becomes `kernel LABEL @gpuN` in rest) */
} launch_file;

/* -D NAME=VALUE overrides a `const NAME` of the file, as for .lit. */
typedef struct {
    const char **define_names;
    const int64_t *define_values;
    int ndefines;
} launch_defines;

/* 0, or -1 with the first error in d (file:line:col: error: ...). */
int launch_parse(const char *file, const char *text, const launch_defines *defs, launch_file *out, diag *d);
void launch_file_free(launch_file *lf);

#endif
