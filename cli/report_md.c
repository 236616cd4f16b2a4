/* The report as Markdown for a pull request: the runs, what the hardware
 * showed that a model forbids, the kernels, and every test in a folded table. */
#include <string.h>

#include "report_out.h"

static bool ran(const hr_test *t) { return t && t->nouts > 0 && t->status && strcmp(t->status, "skipped") != 0; }

/* Table cells: no pipes or newlines. */
static void cell(FILE *f, const char *s)
{
    for (const char *p = s ? s : ""; *p; p++)
        fputs(*p == '|' ? "\\|" : *p == '\n' ? " " : (char[2]){*p, 0}, f);
}

static const char *extra(const hr_test *t, const char *key)
{
    for (int e = 0; t && e < t->nextra; e++)
        if (strcmp(t->extra[e].key, key) == 0)
            return t->extra[e].text;
    return NULL;
}

static void run_result(FILE *f, const hr_test *t)
{
    if (!t) {
        fputs(" |", f);
        return;
    }
    if (!ran(t)) {
        fprintf(f, " %s |", t->status && strcmp(t->status, "skipped") ? t->status : "not run");
        return;
    }
    fprintf(f, " %s%s", t->forbidden_seen ? "**" : "", t->result ? t->result : t->status);
    char bug[256];
    rp_bug_text(t, bug, sizeof bug);
    if (bug[0])
        fprintf(f, ", %s", bug);
    if (t->has_condition && !bug[0])
        fprintf(f, ", condition %llu/%.2g", (unsigned long long)t->condition_count, (double)t->instances);
    fprintf(f, "%s |", t->forbidden_seen ? "**" : "");
}

void rp_write_md(FILE *f, const rp_report *r, const char *command)
{
    fprintf(f, "# memsim: hardware against the models\n\n");
    fprintf(f, "Made by `%s`: %d test%s over %d run%s.\n\n", command, r->nrows, r->nrows == 1 ? "" : "s", r->nruns,
            r->nruns == 1 ? "" : "s");
    fputs("| run | devices | driver | compiler | ran | not run | FORBIDDEN seen | caveats | instances |\n"
          "|---|---|---|---|---:|---:|---:|---:|---:|\n",
          f);
    for (int k = 0; k < r->nruns; k++) {
        const hr_run *run = &r->runs[k];
        int nran = 0, nskip = 0, fs = 0, cav = 0;
        double inst = 0;
        for (int i = 0; i < run->ntests; i++) {
            const hr_test *t = &run->tests[i];
            if (ran(t)) {
                nran++;
                fs += t->forbidden_seen;
                cav += t->caveat;
                inst += (double)t->instances;
            } else {
                nskip++;
            }
        }
        char devs[256];
        rp_devices(run, devs, sizeof devs);
        fprintf(f, "| R%d `", k + 1);
        cell(f, run->label);
        fputs("` | ", f);
        cell(f, devs);
        fputs(" | ", f);
        cell(f, run->driver);
        fputs(" | ", f);
        cell(f, run->compiler);
        fprintf(f, " | %d | %d | %s%d%s | %d | %.3g |\n", nran, nskip, fs ? "**" : "", fs, fs ? "**" : "", cav, inst);
    }
    fputs("\n## FORBIDDEN outcomes seen (under each run's judging model)\n\n", f);
    int nfs = 0;
    for (int i = 0; i < r->nrows; i++) {
        const rp_row *row = &r->rows[i];
        for (int k = 0; k < r->nruns; k++) {
            const hr_test *t = row->per_run[k];
            if (!ran(t))
                continue;
            for (int o = 0; o < t->nouts; o++)
                if (rp_class_judged(t, &t->outs[o]) == CL_FORBIDDEN_SEEN) {
                    fprintf(f, "- `%s` (%s) on R%d: `%s` seen %llu of %llu times (%s)%s%s\n", row->name, row->file,
                            k + 1, t->outs[o].label, (unsigned long long)t->outs[o].count,
                            (unsigned long long)t->instances, t->judge ? t->judge : "?",
                            t->outs[o].sample ? "; sampled: " : "", t->outs[o].sample ? t->outs[o].sample : "");
                    nfs++;
                }
        }
    }
    if (!nfs)
        fputs("None.\n", f);
    fputs("\nUnder a platform caveat (the platform does not give the atomicity the test assumes; not judged): ", f);
    int ncav = 0;
    for (int i = 0; i < r->nrows; i++)
        for (int k = 0; k < r->nruns; k++)
            if (ran(r->rows[i].per_run[k]) && r->rows[i].per_run[k]->caveat)
                fprintf(f, "%s`%s` (R%d)", ncav++ ? ", " : "", r->rows[i].name, k + 1);
    fputs(ncav ? ".\n" : "none.\n", f);
    fputs("\n## Models the hardware contradicts\n\n", f);
    for (int g = 0; g < r->nmodels; g++) {
        int n = 0;
        fprintf(f, "- **%s**: ", r->models[g]);
        for (int i = 0; i < r->nrows; i++)
            for (int m = 0; m < r->rows[i].nmodels; m++)
                if (strcmp(r->rows[i].models[m], r->models[g]) == 0 && r->rows[i].contradicts[m]) {
                    if (n < 25)
                        fprintf(f, "%s`%s`", n ? ", " : "", r->rows[i].name);
                    n++;
                }
        if (n > 25)
            fprintf(f, " and %d more", n - 25);
        fprintf(f, "%s (%d test%s)\n", n ? "" : "none", n, n == 1 ? "" : "s");
    }
    int nk = 0;
    for (int i = 0; i < r->nrows; i++)
        nk += r->rows[i].kernel;
    if (nk) {
        /* Only the runs that ran a kernel, and a column for the bug in words only where a run names one. */
        bool kr[256] = {false}, words = false;
        for (int i = 0; i < r->nrows; i++)
            for (int k = 0; k < r->nruns && k < 256; k++)
                if (r->rows[i].kernel) {
                    kr[k] = kr[k] || ran(r->rows[i].per_run[k]);
                    words = words || extra(r->rows[i].per_run[k], "bug");
                }
        fputs("\n## Kernels\n\nPer run: hwrun's result, and how often the bug showed (hwrun counts the instances whose state "
              "breaks the kernel's condition or is an error or hang state, that accessed out of the heap, and, where "
              "the model says hang or error, whose awaits timed out) and after how long; for a bug not seen, the bound "
              "on its rate.\n\n| kernel |",
              f);
        if (words)
            fputs(" bug |", f);
        int ncol = 1 + words + r->nmodels;
        for (int g = 0; g < r->nmodels; g++)
            fprintf(f, " %s |", r->models[g]);
        for (int k = 0; k < r->nruns && k < 256; k++)
            if (kr[k]) {
                fprintf(f, " R%d |", k + 1);
                ncol++;
            }
        fputs(" fields |\n|", f);
        for (int g = 0; g < ncol + 1; g++)
            fputs("---|", f);
        fputs("\n", f);
        for (int i = 0; i < r->nrows; i++) {
            const rp_row *row = &r->rows[i];
            if (!row->kernel)
                continue;
            fprintf(f, "| `%s` |", row->file);
            if (words) {
                /* What the bug is, where a run says so in words; the counts are in the run columns. */
                const char *bug = NULL;
                for (int k = 0; k < r->nruns && !bug; k++)
                    bug = extra(row->per_run[k], "bug");
                fputs(" ", f);
                cell(f, bug ? bug : "");
                fputs(" |", f);
            }
            for (int g = 0; g < r->nmodels; g++) {
                const char *v = "";
                for (int m = 0; m < row->nmodels; m++)
                    if (strcmp(row->models[m], r->models[g]) == 0)
                        v = row->verdicts[m];
                fprintf(f, " %s |", v);
            }
            for (int k = 0; k < r->nruns && k < 256; k++)
                if (kr[k])
                    run_result(f, row->per_run[k]);
            /* What the kernel runs add (folding, out-of-heap counts...), as they wrote it; long
             * values (the heap's allocation) are in the HTML page. */
            int nf = 0;
            for (int k = 0; k < r->nruns; k++) {
                const hr_test *t = row->per_run[k];
                for (int e = 0; t && e < t->nextra; e++) {
                    if (strcmp(t->extra[e].key, "bug") == 0 || strlen(t->extra[e].text) > 60)
                        continue;
                    fprintf(f, "%sR%d %s=", nf++ ? "; " : " ", k + 1, t->extra[e].key);
                    cell(f, t->extra[e].text);
                }
                if (t && t->folded)
                    fprintf(f, "%sR%d ranks folded", nf++ ? "; " : " ", k + 1);
            }
            fputs(" |\n", f);
        }
    }
    fputs("\n<details><summary>Every test</summary>\n\n| test |", f);
    for (int g = 0; g < r->nmodels; g++)
        fprintf(f, " %s |", r->models[g]);
    for (int k = 0; k < r->nruns; k++)
        fprintf(f, " R%d |", k + 1);
    fputs("\n|---|", f);
    for (int g = 0; g < r->nmodels + r->nruns; g++)
        fputs("---|", f);
    fputs("\n", f);
    for (int i = 0; i < r->nrows; i++) {
        const rp_row *row = &r->rows[i];
        fputs("| ", f);
        cell(f, row->name);
        fputs(" |", f);
        for (int g = 0; g < r->nmodels; g++) {
            const char *v = "";
            bool contra = false;
            for (int m = 0; m < row->nmodels; m++)
                if (strcmp(row->models[m], r->models[g]) == 0)
                    v = row->verdicts[m], contra = row->contradicts[m];
            fprintf(f, " %s%s |", v, contra ? " (hw: **contradicted**)" : "");
        }
        for (int k = 0; k < r->nruns; k++)
            run_result(f, row->per_run[k]);
        fputs("\n", f);
    }
    fputs("\n</details>\n", f);
}
