/* Values of the translation (internal.h) and the map from LLVM values. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void val_free(val *v)
{
    if (v->k == V_SYM)
        expr_free(v->e);
    if (v->k == V_AGG) {
        for (int i = 0; i < v->n; i++)
            val_free(&v->el[i]);
        free(v->el);
    }
    memset(v, 0, sizeof *v);
}

val val_copy(const val *v)
{
    val r = *v;
    if (v->k == V_SYM)
        r.e = expr_clone(v->e);
    if (v->k == V_AGG) {
        r.el = calloc((size_t)v->n + 1, sizeof *r.el);
        for (int i = 0; i < v->n; i++)
            r.el[i] = val_copy(&v->el[i]);
    }
    return r;
}

val val_known(int64_t c) { return (val){.k = V_KNOWN, .c = c}; }
val val_sym(expr *e) { return (val){.k = V_SYM, .e = e}; }

expr *val_expr(const val *v)
{
    if (v->k == V_KNOWN)
        return expr_const(v->c, (srcpos){0, 0});
    if (v->k == V_SYM)
        return expr_clone(v->e);
    return NULL;
}

static unsigned slot(const vmap *m, LLVMValueRef k)
{
    uintptr_t h = (uintptr_t)k;
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15ull;
    return (unsigned)(h >> 32) & (unsigned)(m->cap - 1);
}

static void grow(vmap *m)
{
    vmap old = *m;
    m->cap = m->cap ? m->cap * 2 : 64;
    m->key = calloc((size_t)m->cap, sizeof *m->key);
    m->v = calloc((size_t)m->cap, sizeof *m->v);
    m->n = 0;
    for (int i = 0; i < old.cap; i++)
        if (old.key[i]) {
            unsigned s = slot(m, old.key[i]);
            while (m->key[s])
                s = (s + 1) & (unsigned)(m->cap - 1);
            m->key[s] = old.key[i];
            m->v[s] = old.v[i]; /* the value itself does not move: pointers to it stay valid */
            m->n++;
        }
    free(old.key);
    free(old.v);
}

void vmap_put(vmap *m, LLVMValueRef k, val v)
{
    if (2 * (m->n + 1) > m->cap)
        grow(m);
    unsigned s = slot(m, k);
    while (m->key[s] && m->key[s] != k)
        s = (s + 1) & (unsigned)(m->cap - 1);
    if (m->key[s]) {
        val_free(m->v[s]);
    } else {
        m->key[s] = k;
        m->v[s] = malloc(sizeof(val));
        m->n++;
    }
    *m->v[s] = v;
}

val *vmap_get(vmap *m, LLVMValueRef k)
{
    if (!m->cap)
        return NULL;
    unsigned s = slot(m, k);
    while (m->key[s]) {
        if (m->key[s] == k)
            return m->v[s];
        s = (s + 1) & (unsigned)(m->cap - 1);
    }
    return NULL;
}

void vmap_free(vmap *m)
{
    for (int i = 0; i < m->cap; i++)
        if (m->key[i]) {
            val_free(m->v[i]);
            free(m->v[i]);
        }
    free(m->key);
    free(m->v);
    memset(m, 0, sizeof *m);
}
