/* The report's writers: the HTML page (with its SVG histograms and execution
 * graphs) and the Markdown summary. */
#ifndef MEMSIM_REPORT_OUT_H
#define MEMSIM_REPORT_OUT_H

#include <stdio.h>

#include "report_model.h"

/* Text for HTML and SVG: & < > " ' escaped. */
void rp_esc(FILE *f, const char *s);

/* Per row, the execution graphs worth drawing, as SVG text (Graphviz). */
typedef struct {
    char *title;   /* "weak outcome (the condition): witness under ptx" */
    char *svg;     /* NULL: nothing to draw; why is in note */
    char *note;
} rp_graph;

typedef struct {
    rp_graph *g;
    int n;
} rp_graphs;

typedef struct {
    const char *root;      /* where the runs' test paths (litmus/...) are found */
    bool graphs;           /* draw execution graphs */
    int jobs;              /* explore threads */
    double max_explore_s;  /* skip graphs of tests whose exploration took longer in the run */
} rp_graph_opts;

/* Draws, for each row, the weak outcome's witness and each forbidden-but-seen
 * outcome's execution; out[i] belongs to r->rows[i]. Problems go to stderr
 * and into the notes; returns the number of Graphviz errors. */
int rp_draw_graphs(const rp_report *r, const rp_graph_opts *o, rp_graphs *out);
void rp_graphs_free(rp_graphs *g, int n);

/* An inline SVG: per outcome, one bar per run, log-scaled counts with their 95% intervals. */
void rp_svg_histogram(FILE *f, const rp_report *r, const rp_row *row);

void rp_write_html(FILE *f, const rp_report *r, const rp_graphs *graphs, const char *command);
void rp_write_md(FILE *f, const rp_report *r, const char *command);

#endif
