/* The Vulkan/SPIR-V memory model (models.md §6; alloy/spirv.als of
 * KhronosGroup/Vulkan-MemoryModel), beyond the plain consistent-or-not of
 * model.h: the facts the repository's Alloy tests ask about. */
#ifndef MEMSIM_VULKAN_H
#define MEMSIM_VULKAN_H

#include "model.h"

typedef struct {
    bool valid;          /* the candidate is an Alloy execution at all (asmo is a partial order, no barrier deadlock) */
    bool consistent;     /* consistent[X] */
    const char *failed;  /* the first consistency rule that failed */
    int ndr;             /* #dr: ordered pairs in the data-race relation */
    int nrs;             /* #rs: pairs in the release-sequence relation */
    bool co_follows_locord; /* memsim's co orders location-ordered writes the same way */
} vulkan_facts;

/* Evaluates one candidate execution.  chains = false is the Alloy tests'
 * NOCHAINS (availability/visibility chains of one element only).  When v is
 * given, the data races of a consistent execution are added to it. */
void vulkan_eval(const base *b, bool chains, vulkan_facts *f, model_verdict *v);

extern const model model_vulkan;
/* Dat3M's vulkan.cat variant (from-read, line 150), found by name only. */
extern const model model_vulkan_dat3m;

#endif
