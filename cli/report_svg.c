/* Per test, an inline SVG histogram: one group of bars per outcome, one bar
 * per run, counts on a log scale (so a count of 3 in 3e7 still shows), each
 * with the 95% Clopper-Pearson interval hwrun computed; an outcome never seen
 * shows only its interval's upper bound, the bound on what was not seen. */
#include <math.h>
#include <string.h>

#include "report_out.h"

enum { LABEL_W = 150, PLOT_W = 240, COUNT_W = 72, BAR_H = 11, GAP = 6, TOP = 18 };

static double xpos(double count, double lmin, double lmax)
{
    double l = count > 0 ? log10(count) : lmin;
    if (l < lmin)
        l = lmin;
    if (l > lmax)
        l = lmax;
    return LABEL_W + (l - lmin) / (lmax - lmin) * PLOT_W;
}

static void short_label(char *buf, size_t n, const char *s)
{
    size_t len = strlen(s);
    if (len < n - 1 && len <= 22) {
        snprintf(buf, n, "%s", s);
        return;
    }
    snprintf(buf, n, "%.19s...", s);
}

void rp_svg_histogram(FILE *f, const rp_report *r, const rp_row *row)
{
    int nran = 0;
    double most = 10;
    for (int k = 0; k < r->nruns; k++) {
        const hr_test *t = row->per_run[k];
        if (t && t->nouts) {
            nran++;
            if ((double)t->instances > most)
                most = (double)t->instances;
        }
    }
    if (!nran || !row->nouts)
        return;
    /* From 0.1 (so that a count of 1 has a bar) to the largest run. */
    double lmin = -1, lmax = ceil(log10(most));
    int group = nran * BAR_H + GAP;
    int h = TOP + row->nouts * group + 14;
    int w = LABEL_W + PLOT_W + COUNT_W;
    fprintf(f, "<svg class=\"hist\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">",
            w, h, w, h);
    fprintf(f, "<title>Outcome counts of ");
    rp_esc(f, row->name);
    fprintf(f, " per run, log scale, with 95%% intervals</title>");
    /* Decades. */
    for (int d = (int)lmin; d <= (int)lmax; d++) {
        double x = LABEL_W + (d - lmin) / (lmax - lmin) * PLOT_W;
        fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, TOP - 4, x, h - 14);
        if (d >= 0 && (d % 2 == 0 || lmax - lmin <= 6))
            fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\">1e%d</text>", x, h - 3, d);
    }
    fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"11\">count (log)</text>", LABEL_W);
    for (int i = 0; i < row->nouts; i++) {
        const rp_outkey *k = &row->outs[i];
        int y0 = TOP + i * group;
        char lab[40];
        short_label(lab, sizeof lab, k->brief ? k->brief : k->label);
        fprintf(f, "<text class=\"olab%s\" x=\"%d\" y=\"%d\"><title>", k->cond ? " weak" : "", LABEL_W - 6,
                y0 + nran * BAR_H / 2 + 4);
        rp_esc(f, k->label);
        fprintf(f, "%s</title>", k->cond ? " (the condition)" : "");
        rp_esc(f, lab);
        fprintf(f, "%s</text>", k->cond ? " *" : "");
        int slot = 0;
        for (int run = 0; run < r->nruns; run++) {
            const hr_test *t = row->per_run[run];
            if (!t || !t->nouts)
                continue;
            const hr_outcome *o = rp_find(t, k);
            int y = y0 + slot++ * BAR_H;
            if (!o)
                continue;
            rp_class c = rp_class_judged(t, o);
            double n = (double)t->instances;
            double x0 = LABEL_W, x1 = xpos((double)o->count, lmin, lmax);
            /* The tooltip rides on the count's text: one element less per bar in a page of thousands. */
            fprintf(f, "<text class=\"cnt\" x=\"%d\" y=\"%d\"><title>", LABEL_W + PLOT_W + 4, y + BAR_H - 1);
            /* Short: a kernel's page holds thousands of these (the full state is the row's label's title). */
            fprintf(f, "R%d: ", run + 1);
            rp_esc(f, k->brief ? k->brief : k->label);
            fprintf(f, " seen %llu of %.0f", (unsigned long long)o->count, n);
            if (o->has_ci)
                fprintf(f, "; 95%% interval [%.3g, %.3g]", o->lo, o->hi);
            fprintf(f, "; %s</title>%llu</text>", o->cls ? o->cls : rp_class_title(c), (unsigned long long)o->count);
            if (o->count > 0)
                fprintf(f, "<rect class=\"bar c-%s r%d\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>",
                        rp_class_css(c), slot - 1, (int)x0, y + 1, x1 - x0 < 1 ? 1 : x1 - x0, BAR_H - 2);
            if (o->has_ci && n > 0) {
                double lo = o->lo * n, hi = o->hi * n;
                double xl = o->count > 0 ? xpos(lo, lmin, lmax) : x0, xh = xpos(hi, lmin, lmax);
                int ym = y + BAR_H / 2;
                fprintf(f, "<path class=\"ci%s\" d=\"M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d\"/>",
                        o->count ? "" : " bound", xl, ym, xh, xl, ym - 3, ym + 3, xh, ym - 3, ym + 3);
            }

        }
    }
    fprintf(f, "</svg>");
}
