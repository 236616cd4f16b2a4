/* The three ways memsim shows a result: herd-like text, JSON, Graphviz. */
#ifndef MEMSIM_REPORT_H
#define MEMSIM_REPORT_H

#include <stdio.h>

#include "../sim/explore.h"

struct cJSON;

/* "P1:r0" or "x" or "buf[2]" */
void show_item_name(const test *t, const show_item *s, char *buf, int size);
/* The condition as a string, in memsim's spelling. */
void cond_to_string(const test *t, const cond *c, char *buf, int size);
/* "st.release.sys flag" for an event, from its instruction. */
void event_describe(const test *t, const event *e, char *buf, int size);

/* The expectation that applies to model m, or NULL. */
const expectation *expectation_for(const test *t, const char *model);

void report_text(FILE *out, const test *t, const explore_result *r);
struct cJSON *report_json(const test *t, const explore_result *r);
/* Writes a Graphviz picture of model m's witness; returns 0 or -1 (errno-style message on stderr). */
int report_dot(FILE *out, const test *t, const explore_result *r, int m);

#endif
