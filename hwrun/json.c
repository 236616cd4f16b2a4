#include "json.h"

#include <math.h>
#include <string.h>

void jw_init(jw *w, FILE *f, bool pretty)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->pretty = pretty;
    w->first[0] = true;
}

static void str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void pre(jw *w, const char *key)
{
    if (!w->first[w->depth])
        fputc(',', w->f);
    w->first[w->depth] = false;
    if (w->pretty && w->depth > 0) {
        fputc('\n', w->f);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->f);
    }
    if (key) {
        str(w->f, key);
        fputs(w->pretty ? ": " : ":", w->f);
    }
}

static void open(jw *w, const char *key, char c)
{
    pre(w, key);
    fputc(c, w->f);
    if (w->depth < 63)
        w->depth++;
    w->first[w->depth] = true;
}

static void close_(jw *w, char c)
{
    bool empty = w->first[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (w->pretty && !empty) {
        fputc('\n', w->f);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->f);
    }
    fputc(c, w->f);
}

void jw_obj(jw *w, const char *key) { open(w, key, '{'); }
void jw_end_obj(jw *w) { close_(w, '}'); }
void jw_arr(jw *w, const char *key) { open(w, key, '['); }
void jw_end_arr(jw *w) { close_(w, ']'); }

void jw_str(jw *w, const char *key, const char *v)
{
    pre(w, key);
    if (v)
        str(w->f, v);
    else
        fputs("null", w->f);
}

void jw_int(jw *w, const char *key, long long v)
{
    pre(w, key);
    fprintf(w->f, "%lld", v);
}

void jw_u64(jw *w, const char *key, uint64_t v)
{
    pre(w, key);
    fprintf(w->f, "%llu", (unsigned long long)v);
}

void jw_num(jw *w, const char *key, double v)
{
    pre(w, key);
    if (isfinite(v))
        fprintf(w->f, "%.17g", v);
    else
        fputs("null", w->f);
}

void jw_bool(jw *w, const char *key, bool v)
{
    pre(w, key);
    fputs(v ? "true" : "false", w->f);
}

void jw_null(jw *w, const char *key)
{
    pre(w, key);
    fputs("null", w->f);
}

void jw_raw(jw *w, const char *key, const char *json)
{
    pre(w, key);
    fputs(json, w->f);
}
