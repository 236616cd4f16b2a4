/* instrument/: memsim threads from real kernels.  Reads LLVM IR (compiled
 * from HIP or CUDA by clang, or written by Triton) with LLVM's own parser
 * through its C API, and turns each launched kernel into memsim threads of
 * the program IR (ir/ir.h) for its launch configuration, so that the same
 * checker as for .lit files judges it.  docs/instrument.md says what is
 * understood; anything else is an error naming the instruction, the
 * function and the source line. */
#ifndef MEMSIM_INSTRUMENT_H
#define MEMSIM_INSTRUMENT_H

#include <stddef.h>

#include "../ir/ir.h"
#include "launch.h"

typedef struct {
    int unroll;             /* a loop that is not a spin may run this many iterations (default 32) */
    const char *clang;      /* the compiler for .hip and .cu (default clang-22) */
    const char *cuda_path;  /* the CUDA toolkit for .cu (default /usr/local/cuda) */
    const char *launch_dir; /* kernel files are relative to the launch file's folder */
    const char *const *compile_flags; /* extra flags for clang (-I, -D), or NULL */
    int ncompile_flags;
} instr_opts;

/* Notes on what was abstracted (floats, one-address-space fences, ...), one line each. */
typedef struct {
    char **v;
    int n;
} instr_notes;

/* Adds the launches' kernels to t (parsed from the launch file's .lit part):
 * kernels, threads and the work-group memory (LDS, shared) they use, and a
 * source-line map for messages.  0, or -1 with the reason in err
 * (file:line: error: ...). */
int instrument_test(test *t, const launch_file *lf, const instr_opts *o, instr_notes *notes, char *err, size_t errsz);
void instr_notes_free(instr_notes *n);

#endif
