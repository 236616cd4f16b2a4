/* A small streaming JSON writer (hwrun does not depend on cJSON, so that its
 * stand-alone build needs nothing but libc). */
#ifndef MEMSIM_HWRUN_JSON_H
#define MEMSIM_HWRUN_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    int depth;
    bool first[64];
    bool pretty;
} jw;

void jw_init(jw *w, FILE *f, bool pretty);
/* key is NULL inside arrays. */
void jw_obj(jw *w, const char *key);
void jw_end_obj(jw *w);
void jw_arr(jw *w, const char *key);
void jw_end_arr(jw *w);
void jw_str(jw *w, const char *key, const char *v);
void jw_int(jw *w, const char *key, long long v);
void jw_u64(jw *w, const char *key, uint64_t v);
void jw_num(jw *w, const char *key, double v);
void jw_bool(jw *w, const char *key, bool v);
void jw_null(jw *w, const char *key);
/* A value already written as JSON text. */
void jw_raw(jw *w, const char *key, const char *json);

#endif
