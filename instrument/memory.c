/* Where a kernel's pointers point.  Every pointer the launch hands a kernel
 * is a number the translation computes with, as the kernel does:
 *   - rank r's symmetric heap is at HEAP_BASE(r), laid out as the test's
 *     heap block says (ir.h), so Iris's heap-base table and its
 *     translation arithmetic (base[to] + (p - base[from])) land where they
 *     land on the GPU;
 *   - a `memory` location l is at MEM_BASE(l);
 *   - the heap-base table, a read-only array of the ranks' bases, is at
 *     TABLE_BASE;
 *   - work-group memory (LDS, CUDA shared) is per work-group: offsets from
 *     LDS_BASE, each accessed cell becoming a location of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int find_symvar(const test *t, const char *name)
{
    for (int v = 0; v < t->heap.nvars; v++)
        if (strcmp(t->heap.vars[v].name, name) == 0)
            return v;
    return -1;
}

static int find_memloc(const test *t, const char *name)
{
    for (int l = 0; l < t->nlocs; l++)
        if (strcmp(t->locs[l].name, name) == 0 && !strchr(t->locs[l].name, '@'))
            return l;
    return -1;
}

bool mem_arg_address(xlate *x, const launch_arg *a, int64_t *addr)
{
    test *t = x->t;
    if (a->kind == ARG_HEAP_BASES) {
        if (!t->heap.present) {
            xfail(x, "heap_bases: the launch file declares no heap block");
            return false;
        }
        *addr = TABLE_BASE;
        return true;
    }
    int v = find_symvar(t, a->name);
    if (v >= 0) {
        const symvar *V = &t->heap.vars[v];
        int r = a->rank >= 0 ? a->rank : x->L->gpu;
        if (r >= t->heap.ranks) {
            xfail(x, "argument %s: rank %d has no heap (the heap has %d ranks)", a->name, r, t->heap.ranks);
            return false;
        }
        if (a->index >= V->len) {
            xfail(x, "argument %s[%lld]: %s has %d elements", a->name, (long long)a->index, a->name, V->len);
            return false;
        }
        *addr = HEAP_BASE(r) + t->heap.offset[r][v] + a->index * (int64_t)vtype_size(V->type);
        return true;
    }
    int l = find_memloc(t, a->name);
    if (l < 0) {
        xfail(x, "argument '%s' is neither a memory location, a heap variable, a constant nor heap_bases", a->name);
        return false;
    }
    if (a->rank >= 0) {
        xfail(x, "argument %s@%d: only heap variables have a copy per rank", a->name, a->rank);
        return false;
    }
    if (a->index >= t->locs[l].len) {
        xfail(x, "argument %s[%lld]: %s has %d elements", a->name, (long long)a->index, a->name, t->locs[l].len);
        return false;
    }
    *addr = MEM_BASE(l) + a->index * (int64_t)vtype_size(t->locs[l].type);
    return true;
}

static bool same_width(xlate *x, vtype_t want, vtype_t have, const char *what)
{
    if (vtype_size(want) == vtype_size(have) && (want == TY_F32) == (have == TY_F32))
        return true;
    xfail(x, "a %zu-byte %s access to %s, whose elements are %s: mixed-size accesses are not modelled", vtype_size(want),
          want == TY_F32 ? "float" : "integer", what, vtype_name(have));
    return false;
}

/* The work-group memory cell at this offset, for this thread's work-group. */
static int lds_location(xlate *x, int64_t off, vtype_t ty)
{
    test *t = x->t;
    char name[160];
    snprintf(name, sizeof name, "lds_%s_wg%d_%lld", x->kname, x->wg, (long long)off);
    for (int l = x->lds_first_loc; l < t->nlocs; l++)
        if (strcmp(t->locs[l].name, name) == 0) {
            if (!same_width(x, ty, t->locs[l].type, name))
                return -1;
            return l;
        }
    t->locs = realloc(t->locs, (size_t)(t->nlocs + 1) * sizeof *t->locs);
    location *L = &t->locs[t->nlocs];
    memset(L, 0, sizeof *L);
    L->name = strdup(name);
    L->type = ty;
    L->len = 1;
    L->first_cell = t->ncells++;
    L->init = calloc(1, sizeof *L->init);
    L->home = x->L->gpu;
    L->gran = GRAN_FINE;
    return t->nlocs++;
}


bool mem_resolve(xlate *x, int64_t addr, bool lds, vtype_t ty, memref *m, bool *is_table, int64_t *table_value)
{
    test *t = x->t;
    memset(m, 0, sizeof *m);
    m->symvar = -1;
    *is_table = false;
    if (!lds && addr >= LDS_FLAT && addr < LDS_FLAT + ((int64_t)1 << 32)) {
        lds = true;
        addr = addr - LDS_FLAT + LDS_BASE;
    }
    if (lds) {
        int64_t off = addr - LDS_BASE;
        if (off < 0 || off >= (1 << 20)) {
            xfail(x, "work-group memory address 0x%llx is outside the work-group's memory", (unsigned long long)addr);
            return false;
        }
        m->loc = lds_location(x, off, ty);
        return m->loc >= 0;
    }
    if (addr >= TABLE_BASE && addr < TABLE_BASE + 8 * (int64_t)t->heap.ranks && t->heap.present) {
        if ((addr - TABLE_BASE) % 8 || ty != TY_I64) {
            xfail(x, "a %zu-byte access at offset %lld of the heap-base table, an array of 8-byte bases",
                  vtype_size(ty), (long long)(addr - TABLE_BASE));
            return false;
        }
        *is_table = true;
        *table_value = HEAP_BASE((addr - TABLE_BASE) / 8);
        return true;
    }
    int64_t hi = addr >> 32;
    if (t->heap.present && hi >= 1 && hi <= t->heap.ranks) {
        int r = (int)hi - 1;
        int64_t off = addr - HEAP_BASE(r);
        for (int v = 0; v < t->heap.nvars; v++) {
            const symvar *V = &t->heap.vars[v];
            int64_t base = t->heap.offset[r][v], size = (int64_t)vtype_size(V->type);
            if (off < base || off >= base + V->len * size)
                continue;
            if ((off - base) % size) {
                xfail(x, "an access in the middle of an element of %s@%d (offset %lld)", V->name, r, (long long)(off - base));
                return false;
            }
            if (!same_width(x, ty, V->type, V->name))
                return false;
            int64_t idx = (off - base) / size;
            int g = x->L->gpu;
            if (g < t->heap.ranks) {
                m->symvar = v;
                m->loc = -1;
                if (r != g)
                    m->peer = cst(r);
            } else {
                m->loc = V->loc[r];
            }
            if (V->len > 1 || idx)
                m->index = cst(idx);
            return true;
        }
        xfail(x, "address 0x%llx is in rank %d's heap but in none of its variables", (unsigned long long)addr, r);
        return false;
    }
    int64_t l = hi - 128;
    if (l >= 0 && l < t->nlocs && !strchr(t->locs[l].name, '@')) {
        const location *L = &t->locs[l];
        int64_t size = (int64_t)vtype_size(L->type), off = addr - MEM_BASE(l);
        if (off % size || off / size >= L->len) {
            xfail(x, "address 0x%llx is %s %s (offset %lld)", (unsigned long long)addr,
                  off % size ? "in the middle of an element of" : "past the end of", L->name, (long long)off);
            return false;
        }
        if (!same_width(x, ty, L->type, L->name))
            return false;
        m->loc = (int)l;
        if (L->len > 1 || off)
            m->index = cst(off / size);
        return true;
    }
    xfail(x, "address 0x%llx is in no memory the launch gave the kernel (no heap variable, location or table)",
          (unsigned long long)addr);
    return false;
}

int mem_cell_of(xlate *x, const memref *m)
{
    const test *t = x->t;
    int l = m->loc;
    if (l < 0) {
        int r = m->peer ? (int)m->peer->value : x->L->gpu;
        l = t->heap.vars[m->symvar].loc[r];
    }
    return t->locs[l].first_cell + (m->index ? (int)m->index->value : 0);
}
