/* The report as one self-contained HTML page: the stylesheet and script are
 * cli/report_assets/report.{css,js}, compiled in; histograms are inline SVG, execution
 * graphs SVG data URIs. Nothing is fetched from the network. */
#include <stdlib.h>
#include <string.h>

#include "report_out.h"

extern const char rp_css[], rp_js[];

void rp_esc(FILE *f, const char *s)
{
    for (const char *p = s ? s : ""; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*p, f);
        }
    }
}

static void base64(FILE *f, const char *s)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        fputc(tab[v >> 18 & 63], f);
        fputc(tab[v >> 12 & 63], f);
        fputc(i + 1 < n ? tab[v >> 6 & 63] : '=', f);
        fputc(i + 2 < n ? tab[v & 63] : '=', f);
    }
}

static bool ran(const hr_test *t) { return t && t->nouts > 0 && t->status && strcmp(t->status, "skipped") != 0; }

static void legend(FILE *f)
{
    fputs("<div class=\"legend\">", f);
    for (int c = 0; c < CL_COUNT; c++) {
        if (c == CL_NONE)
            continue;
        fprintf(f, "<span class=\"c-%s\">%s</span>", rp_class_css((rp_class)c), rp_class_title((rp_class)c));
    }
    fputs("</div>", f);
}

static void summary(FILE *f, const rp_report *r)
{
    int ran_rows = 0, fs = 0, caveat = 0, kernels = 0;
    int contra[HR_MAX_MODELS] = {0};
    unsigned long long instances = 0;
    for (int i = 0; i < r->nrows; i++) {
        const rp_row *row = &r->rows[i];
        ran_rows += row->ran > 0;
        fs += row->forbidden_seen;
        kernels += row->kernel;
        for (int k = 0; k < r->nruns; k++) {
            const hr_test *t = row->per_run[k];
            if (ran(t)) {
                instances += t->instances;
                caveat += t->caveat;
            }
        }
        for (int m = 0; m < row->nmodels; m++)
            for (int g = 0; g < r->nmodels; g++)
                if (strcmp(row->models[m], r->models[g]) == 0 && row->contradicts[m])
                    contra[g]++;
    }
    fputs("<div class=\"cards\">", f);
    fprintf(f, "<div class=\"card\"><b>%d</b>tests (%d kernels)</div>", r->nrows, kernels);
    fprintf(f, "<div class=\"card\"><b>%d</b>ran on hardware</div>", ran_rows);
    fprintf(f, "<div class=\"card\"><b>%d</b>runs</div>", r->nruns);
    fprintf(f, "<div class=\"card\"><b>%.3g</b>instances</div>", (double)instances);
    fprintf(f, "<div class=\"card%s\"><b>%d</b>tests with a FORBIDDEN outcome seen (judging model)</div>",
            fs ? " alarm" : "", fs);
    fprintf(f, "<div class=\"card\"><b>%d</b>results under a platform caveat</div>", caveat);
    for (int g = 0; g < r->nmodels; g++)
        fprintf(f, "<div class=\"card%s\"><b>%d</b>tests where the hardware showed what %s forbids</div>",
                contra[g] ? " alarm" : "", contra[g], r->models[g]);
    fputs("</div>", f);
}

static void kv(FILE *f, const char *k, const char *v)
{
    if (!v)
        return;
    fprintf(f, "<dt>%s</dt><dd>", k);
    rp_esc(f, v);
    fputs("</dd>", f);
}

static void runs_table(FILE *f, const rp_report *r)
{
    fputs("<h2 id=\"env\">Runs and their environment</h2><table class=\"runs\"><tr><th>#</th><th>run</th><th>devices</th>"
          "<th>driver, compiler</th><th>seed</th><th>instances, seconds per test</th><th>environment</th>"
          "<th>tests</th></tr>", f);
    for (int k = 0; k < r->nruns; k++) {
        const hr_run *run = &r->runs[k];
        char devs[512];
        rp_devices(run, devs, sizeof devs);
        fprintf(f, "<tr><td>R%d</td><td><b>", k + 1);
        rp_esc(f, run->label);
        fputs("</b><div class=\"file\">", f);
        rp_esc(f, run->path);
        fputs(", ", f);
        rp_esc(f, run->date);
        fputs(" on ", f);
        rp_esc(f, run->host ? run->host : "?");
        fputs("</div></td><td>", f);
        rp_esc(f, devs);
        fputs("<div class=\"file\">", f);
        for (int d = 0; d < run->ndev; d++) {
            fprintf(f, "%s%d: ", d ? "; " : "", run->dev[d].index);
            rp_esc(f, run->dev[d].arch ? run->dev[d].arch : "?");
            fprintf(f, ", %lld SMs/CUs", run->dev[d].multiprocessors);
        }
        fputs("</div></td><td>", f);
        rp_esc(f, run->backend);
        fputs(": ", f);
        rp_esc(f, run->driver);
        fputs("<div class=\"file\">", f);
        rp_esc(f, run->compiler);
        fprintf(f, "</div></td><td>%llu</td><td>%.3g, %g s</td><td class=\"mono small\">",
                (unsigned long long)run->seed, (double)run->instances_per_test, run->seconds_per_test);
        rp_esc(f, run->env);
        if (run->skews) {
            fputs("<br>skews ", f);
            rp_esc(f, run->skews);
        }
        if (run->campaign) {
            fputs("<br>campaign ", f);
            rp_esc(f, run->campaign);
        }
        for (int e = 0; e < run->nextra; e++) {
            fputs("<br>", f);
            rp_esc(f, run->extra[e].key);
            fputs(" ", f);
            rp_esc(f, run->extra[e].text);
        }
        int nran = 0, nfs = 0, ncav = 0;
        for (int i = 0; i < run->ntests; i++) {
            nran += ran(&run->tests[i]);
            nfs += run->tests[i].forbidden_seen;
            ncav += run->tests[i].caveat;
        }
        fprintf(f, "<details><summary>command</summary><pre>");
        rp_esc(f, run->command);
        fprintf(f, "</pre></details></td><td>%d ran, %d not run<br>%s%d FORBIDDEN seen%s<br>%d caveats</td></tr>",
                nran, run->ntests - nran, nfs ? "<b class=\"contra\">" : "", nfs, nfs ? "</b>" : "", ncav);
    }
    fputs("</table>", f);
}

/* Sort key of a run's cell: FORBIDDEN seen first, then caveats, then how often the weak outcome showed. */
static double run_key(const hr_test *t)
{
    if (!ran(t))
        return -1;
    double weak = t->instances ? (double)t->condition_count / (double)t->instances : 0;
    return (t->forbidden_seen ? 3 : t->caveat ? 2 : 1) + weak;
}

static void row_html(FILE *f, const rp_report *r, int i)
{
    const rp_row *row = &r->rows[i];
    bool contra = false;
    for (int m = 0; m < row->nmodels; m++)
        contra = contra || row->contradicts[m];
    bool notable = row->forbidden_seen || contra;
    fprintf(f, "<tr id=\"row-%d\" data-notable=\"%d\" data-tags=\"%s%s%s\"%s>", i, notable,
            row->kernel ? "kernel " : "litmus ", row->forbidden_seen ? "forbidden-seen " : "",
            row->ran ? "ran" : "not-run", notable ? " class=\"notable\"" : "");
    /* Test. */
    fputs("<td class=\"name\" data-key=\"", f);
    rp_esc(f, row->name);
    fprintf(f, "\"><a href=\"#t-%d\">", i);
    rp_esc(f, row->name);
    fputs("</a><div class=\"file\">", f);
    rp_esc(f, row->file);
    fputs("</div>", f);
    if (row->kernel)
        fputs("<span class=\"tag\">kernel</span>", f);
    for (int k = 0; k < r->nruns; k++) {
        char bug[256];
        rp_bug_text(row->per_run[k], bug, sizeof bug);
        if (bug[0])
            fprintf(f, "<span class=\"tag %s\">R%d %s</span>", row->per_run[k]->bug_count ? "bugseen" : "bugnot", k + 1,
                    bug);
        if (row->per_run[k] && row->per_run[k]->folded)
            fprintf(f, "<span class=\"tag\">R%d ranks folded</span>", k + 1);
    }
    for (int k = 0; k < r->nruns; k++) {
        const hr_test *t = row->per_run[k];
        for (int e = 0; t && e < t->nextra; e++)
            if (strcmp(t->extra[e].key, "bug") == 0) {
                fputs("<span class=\"tag bug\">bug: ", f);
                rp_esc(f, t->extra[e].text);
                fputs("</span>", f);
                k = r->nruns;
                break;
            }
    }
    fputs("</td>", f);
    /* Outcomes. */
    fprintf(f, "<td class=\"outs\" data-key=\"%d\"><div class=\"h\">outcome (* = condition)</div>", row->nouts);
    for (int o = 0; o < row->nouts; o++) {
        fprintf(f, "<div class=\"o%s\" title=\"", row->outs[o].cond ? " weak" : "");
        rp_esc(f, row->outs[o].label);
        fputs("\">", f);
        rp_esc(f, row->outs[o].brief);
        fprintf(f, "%s</div>", row->outs[o].cond ? " *" : "");
    }
    fputs("</td>", f);
    /* Models: the verdict, then each outcome's letter coloured by what the runs saw. */
    for (int g = 0; g < r->nmodels; g++) {
        int m = -1;
        for (int k = 0; k < row->nmodels; k++)
            if (strcmp(row->models[k], r->models[g]) == 0)
                m = k;
        if (m < 0) {
            fputs("<td data-key=\"\"></td>", f);
            continue;
        }
        const char *v = row->verdicts[m];
        fprintf(f, "<td data-key=\"%s%s\"><div class=\"h v v-%s\">", row->contradicts[m] ? "0 " : "1 ", v,
                rp_verdict_css(v));
        rp_esc(f, v);
        if (row->contradicts[m])
            fputs(" <span class=\"contra\" title=\"the hardware showed an outcome this model forbids\">"
                  "&#10007; hw</span>",
                  f);
        fputs("</div>", f);
        for (int o = 0; o < row->nouts; o++) {
            /* The worst class over the runs that saw this outcome. */
            rp_class best = CL_COUNT;
            const char *letter = rp_letter(row->outs[o].first, r->models[g]);
            for (int k = 0; k < r->nruns; k++) {
                const hr_outcome *oc = rp_find(row->per_run[k], &row->outs[o]);
                if (!oc)
                    continue;
                rp_class c = rp_class_model(row->per_run[k], oc, r->models[g]);
                if (best == CL_COUNT || c == CL_FORBIDDEN_SEEN || (c == CL_ALLOWED_SEEN && best != CL_FORBIDDEN_SEEN))
                    best = c;
            }
            fprintf(f, "<div class=\"o c-%s\" title=\"%s under %s\">%s</div>", rp_class_css(best),
                    rp_class_title(best), r->models[g],
                    *letter ? letter : row->outs[o].kind == HR_STATE ? "?" : best != CL_NONE && best != CL_COUNT ? "-" : "");
        }
        fputs("</td>", f);
    }
    /* Runs: the count of each outcome, coloured by the class under the run's judging model. */
    for (int k = 0; k < r->nruns; k++) {
        const hr_test *t = row->per_run[k];
        fprintf(f, "<td class=\"num\" data-key=\"%.9g\">", run_key(t));
        if (!t) {
            fputs("<div class=\"h\">not in this run</div></td>", f);
            continue;
        }
        if (!ran(t)) {
            fputs("<div class=\"h\" title=\"", f);
            rp_esc(f, t->reason);
            fputs("\">", f);
            rp_esc(f, t->status);
            fputs("</div></td>", f);
            continue;
        }
        fprintf(f, "<div class=\"h\" title=\"judged by %s\">n=%.3g %s</div>", t->judge ? t->judge : "?",
                (double)t->instances, t->result ? t->result : t->status);
        for (int o = 0; o < row->nouts; o++) {
            const hr_outcome *oc = rp_find(t, &row->outs[o]);
            if (!oc) {
                fputs("<div class=\"o\"></div>", f);
                continue;
            }
            rp_class c = rp_class_judged(t, oc);
            fprintf(f, "<div class=\"o c-%s\" title=\"", rp_class_css(c));
            rp_esc(f, oc->cls ? oc->cls : rp_class_title(c));
            if (oc->has_ci)
                fprintf(f, "; 95%% interval [%.3g, %.3g]", oc->lo, oc->hi);
            fprintf(f, "\">%llu</div>", (unsigned long long)oc->count);
        }
        fputs("</td>", f);
    }
    fputs("<td>", f);
    rp_svg_histogram(f, r, row);
    fputs("</td></tr>\n", f);
}

static void test_section(FILE *f, const rp_report *r, int i, const rp_graphs *g)
{
    const rp_row *row = &r->rows[i];
    fprintf(f, "<section class=\"test\" id=\"t-%d\"><h3>", i);
    rp_esc(f, row->name);
    fprintf(f, " <a class=\"top\" href=\"#row-%d\">(back to the table)</a></h3><div class=\"file\">", i);
    rp_esc(f, row->file);
    fputs("</div><div class=\"grid2\"><div>", f);
    for (int k = 0; k < r->nruns; k++) {
        const hr_test *t = row->per_run[k];
        if (!t)
            continue;
        fprintf(f, "<div class=\"runinfo\"><b>R%d ", k + 1);
        rp_esc(f, r->runs[k].label);
        fputs("</b><dl>", f);
        kv(f, "status", t->status);
        kv(f, "reason", t->reason);
        kv(f, "result", t->result);
        kv(f, "judging model", t->judge);
        if (ran(t)) {
            fprintf(f, "<dt>instances</dt><dd>%llu in %.3g s (%llu launches of %llu)</dd>",
                    (unsigned long long)t->instances, t->seconds, (unsigned long long)t->launches,
                    (unsigned long long)t->per_launch);
            fprintf(f, "<dt>seed</dt><dd>%llu</dd>", (unsigned long long)t->seed);
            kv(f, "environment", t->env);
            if (t->nenvs > 1)
                fprintf(f, "<dt>start skews</dt><dd>%d environments summed</dd>", t->nenvs);
            if (t->has_condition)
                fprintf(f, "<dt>condition seen</dt><dd>%llu of %llu</dd>", (unsigned long long)t->condition_count,
                        (unsigned long long)t->instances);
            if (t->control_file)
                fprintf(f, "<dt>control</dt><dd>%s: weak outcome %s (%llu of %llu)</dd>", t->control_file,
                        !t->control_ran ? "not run" : t->control_k ? "seen" : "not seen",
                        (unsigned long long)t->control_k, (unsigned long long)t->control_n);
            char bug[256];
            rp_bug_text(t, bug, sizeof bug);
            if (bug[0]) {
                fprintf(f, "<dt>bug (kernel)</dt><dd>%s; %s says %s</dd>", bug, t->judge ? t->judge : "?",
                        t->bug_verdict ? t->bug_verdict : "?");
            }
            if (t->folded)
                fputs("<dt>ranks</dt><dd>folded onto fewer GPUs than the test names</dd>", f);
            if (t->nmissing)
                fprintf(f, "<dt>compiled code</dt><dd class=\"contra\">%d intended instructions missing</dd>",
                        t->nmissing);
            if (t->barrier_timeouts)
                fprintf(f, "<dt>start barrier</dt><dd>%llu arrivals gave up</dd>",
                        (unsigned long long)t->barrier_timeouts);
            kv(f, "platform caveat", t->caveat_reason);
            if (t->anomaly)
                fputs("<dt>harness</dt><dd class=\"contra\">anomaly suspected</dd>", f);
            for (int o = 0; o < t->nouts; o++)
                if (t->outs[o].sample) {
                    fputs("<dt>other states (sample)</dt><dd class=\"mono\">", f);
                    rp_esc(f, t->outs[o].sample);
                    fputs("</dd>", f);
                }
        }
        for (int e = 0; e < t->nextra; e++)
            kv(f, t->extra[e].key, t->extra[e].text);
        fputs("</dl>", f);
        char repro[4096];
        rp_repro(&r->runs[k], t, repro, sizeof repro);
        fputs("reproduce:<pre>", f);
        rp_esc(f, repro);
        fputs("</pre></div>", f);
    }
    fputs("</div><div>", f);
    for (int k = 0; g && k < g[i].n; k++) {
        const rp_graph *gr = &g[i].g[k];
        fputs("<figure><figcaption>", f);
        rp_esc(f, gr->title);
        fputs("</figcaption>", f);
        if (gr->svg) {
            fputs("<img class=\"graph\" loading=\"lazy\" alt=\"execution graph\" src=\"data:image/svg+xml;base64,", f);
            base64(f, gr->svg);
            fputs("\">", f);
        }
        if (gr->note) {
            fputs("<div class=\"note\">", f);
            rp_esc(f, gr->note);
            fputs("</div>", f);
        }
        fputs("</figure>", f);
    }
    fputs("</div></div></section>\n", f);
}

void rp_write_html(FILE *f, const rp_report *r, const rp_graphs *g, const char *command)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
          "<title>memsim: hardware against the models</title><style>\n",
          f);
    fputs(rp_css, f);
    fputs("</style></head>\n<body data-report-ready=\"0\">\n<header><h1>memsim: hardware against the models</h1>"
          "<p class=\"sub\">Every test on every run: the verdict under each model, and per run how often each "
          "outcome showed, coloured by its class under the run's judging model.</p><p class=\"sub\">Made by <code>",
          f);
    rp_esc(f, command);
    fputs("</code></p></header>\n", f);
    summary(f, r);
    legend(f);
    fprintf(f,
            "<h2 id=\"tests\">Tests</h2><div class=\"controls\"><input id=\"filter\" type=\"search\" "
          "placeholder=\"filter: words that must all appear (FORBIDDEN, kernel, race, h200, mp...)\">"
          "<label><input type=\"checkbox\" id=\"only-notable\"> only FORBIDDEN seen or a model contradicted</label>"
          "<span id=\"shown\"></span></div>\n<table id=\"results\" style=\"width:%dpx\"><colgroup><col class=\"c-test\"><col class=\"c-out\">",
          250 + 210 + 100 * r->nmodels + 118 * r->nruns + 480); /* the colgroup's widths (report.css) */
    for (int k = 0; k < r->nmodels; k++)
        fputs("<col class=\"c-model\">", f);
    for (int k = 0; k < r->nruns; k++)
        fputs("<col class=\"c-run\">", f);
    fputs("<col class=\"c-hist\"></colgroup><thead><tr><th>test</th><th>outcome</th>", f);
    for (int g2 = 0; g2 < r->nmodels; g2++) {
        fputs("<th title=\"verdict under this model; per outcome A allowed, F forbidden, UB racy\">", f);
        rp_esc(f, r->models[g2]);
        fputs("<span class=\"dev\">model</span></th>", f);
    }
    for (int k = 0; k < r->nruns; k++) {
        char devs[256];
        rp_devices(&r->runs[k], devs, sizeof devs);
        fprintf(f, "<th title=\"");
        rp_esc(f, r->runs[k].path);
        fprintf(f, "\">R%d ", k + 1);
        rp_esc(f, devs);
        fputs("<span class=\"dev\">", f);
        rp_esc(f, r->runs[k].label);
        fputs("</span></th>", f);
    }
    fputs("<th>counts (log) with 95% intervals</th></tr></thead><tbody>\n", f);
    for (int i = 0; i < r->nrows; i++)
        row_html(f, r, i);
    fputs("</tbody></table>\n", f);
    runs_table(f, r);
    fputs("<h2>Tests in detail: environment, reproduction, execution graphs</h2>\n", f);
    for (int i = 0; i < r->nrows; i++)
        test_section(f, r, i, g);
    fputs("<script>\n", f);
    fputs(rp_js, f);
    fputs("</script>\n</body></html>\n", f);
}
