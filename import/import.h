/* Importers and exporters for the formats of other memory-model tools:
 *   - the GPU litmus format of Dat3M and herd (PTX and VULKAN headers),
 *   - the Vulkan memory model's Alloy tests (alloy/tests/ .test files),
 *   - .lit and PTX litmus writers, and herd7's log format.
 * Everything produces or consumes the shared IR (sim/ir.h). */
#ifndef MEMSIM_IMPORT_H
#define MEMSIM_IMPORT_H

#include <stdio.h>

#include "../ir/diag.h"
#include "../sim/explore.h"
#include "../ir/ir.h"
#include "../lit/parse.h"

/* ---- the Dat3M/herd GPU litmus format (import/litmus.c) ---------------- */

typedef enum { LITMUS_PTX = 0, LITMUS_VULKAN } litmus_arch;

/* Parses litmus text.  On error returns NULL with the first error in d->msg,
 * as file:line:col: error: ...; constructs memsim does not model give
 * "error: unsupported: <construct>" (see import_unsupported). */
test *litmus_parse(const char *file, const char *text, diag *d, litmus_arch *arch);
/* Whether a word is a C type the litmus initial state reads as one ("int x = 0"). */
bool litmus_type_word(const char *s);
/* For tests: lower every thread's jumps to the program-counter dispatch
 * (import/litmus_dispatch.c), which otherwise serves only the goto graphs
 * that the structured conversion refuses; the two must agree. */
extern bool litmus_always_dispatch;

/* ---- the Vulkan memory model's Alloy tests (import/alloy.c) -------------- */

/* One SATISFIABLE/NOSOLUTION line. */
typedef struct {
    bool satisfiable;    /* SATISFIABLE, else NOSOLUTION */
    bool nochains;       /* NOCHAINS: availability/visibility chains of one element only */
    char *pred;          /* the Alloy predicate, e.g. "consistent[X] && #dr=0" */
    int line;
} alloy_expect;

typedef struct {
    alloy_expect *v;
    int n;
} alloy_expects;

/* Parses a .test file.  Loads whose value is given ("ld x = 1") are pinned
 * to the write they read in Alloy through the test's condition (exists, a
 * conjunction of register values); every write gets a value of its own. */
test *alloy_parse(const char *file, const char *text, diag *d, alloy_expects *ex);
void alloy_expects_free(alloy_expects *ex);

/* Evaluates an expectation's predicate: consistent[X], racefree[X], #dr, #rs
 * compared with a number, !, &&, ||, parentheses.  Returns 0 and sets *sat,
 * or -1 with a message (an unsupported predicate, or more than max_executions
 * candidates explored; 0 is no limit). */
int alloy_check(const test *t, const alloy_expect *e, long max_executions, bool *sat, char *err, size_t errsz);

/* ---- loading by file name (import/load.c) --------------------------------- */

/* .litmus and .test go to the importers, everything else to the .lit parser. */
test *load_test_file(const char *path, diag *d, const lit_options *o);
/* Reads a whole file; NULL with the reason in d on failure. */
/* Whether a parse error is an "unsupported: ..." construct rather than a mistake. */
bool import_unsupported(const diag *d);
bool has_suffix(const char *s, const char *suffix);
/* Whether s[0..n) is a name every front end and writer can take: a letter or '_', then letters,
 * digits and '_' (what the importers require of the names they give threads and memory). */
bool is_identifier(const char *s, size_t n);

/* ---- writers (import/write.c) --------------------------------------------------- */

/* Write the test as .lit / as a PTX litmus file; 0, or -1 with the reason in err. */
int write_lit(FILE *out, const test *t, char *err, size_t errsz);
int write_ptx_litmus(FILE *out, const test *t, char *err, size_t errsz);

/* ---- herd7's log format (import/herdlog.c) ---------------------------------------- */

/* One test's result under model m, as herd7 prints it (for mcompare7). */
void herd_log(FILE *out, const test *t, const explore_result *r, int m);

/* The condition as written, over terminating executions: exists: some
 * outcome satisfies it; ~exists: none does; forall: every one does.
 * Executions that hang (a spin that never ends, a barrier never reached)
 * are not executions for herd and Dat3M, so they do not count. */
bool result_holds_terminating(const test *t, const model_result *mr);

/* ---- subcommands (import/commands.c) ---------------------------------------------- */

int memsim_convert_main(int argc, char **argv);
int memsim_check_corpus_main(int argc, char **argv);

#endif
