/* The PTX memory-access mnemonic (ld.acquire.sys.global.b32,
 * atom.global.acquire.sys.cas.b32, red.release.gpu.add.u32, st.volatile.b32)
 * read into an order, a scope and an operation.  One reader for the .litmus
 * importer (import/litmus.c) and for the inline PTX that Triton emits
 * (instrument/ptxasm.c), so both read PTX the same way. */
#ifndef MEMSIM_PTXMNEM_H
#define MEMSIM_PTXMNEM_H

#include <stdbool.h>
#include <stddef.h>

#include "ir.h"

typedef struct {
    bool ld, st, atom, red;  /* which instruction */
    order_t ord;             /* ORD_PLAIN for .weak or no order on ld/st */
    scope_t scope;           /* SCOPE_NONE for a plain access */
    rmwop_t rmw;             /* atom/red */
    cache_t cache;           /* .cv .cg .ca .cs .wt .wb; CACHE_VOLATILE for .volatile */
    bool shared;             /* the .shared state space */
    int vec;                 /* .v2 / .v4: elements per access (1 without) */
    int bits;                /* from .b32 .u64 .s8 ...: the element width, 0 when not given */
} ptx_access;

/* words[0] is "ld", "st", "atom" or "red"; words[1..n-1] its modifiers.
 * Returns -1 when the mnemonic is read, else the index of the word that is
 * wrong (0 for the mnemonic as a whole), with the reason in err. */
int ptx_access_read(const char *const *words, int n, ptx_access *a, char *err, size_t errsz);

#endif
