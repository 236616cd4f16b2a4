/* memsim kernel LAUNCH.lit: check real kernels (HIP, CUDA, Triton's LLVM
 * IR) under the memory models.  The launch file is a .lit test whose
 * threads come from `kernel NAME from "FILE" ...` launch statements
 * (docs/instrument.md); instrument/ turns the kernels into threads, and the
 * same checker and reports as for .lit files judge them. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "numarg.h"
#include "../import/import.h"
#include "../instrument/instrument.h"
#include "../lit/parse.h"
#include "report.h"

int memsim_kernel_main(int argc, char **argv);

static void kernel_usage(FILE *f)
{
    fprintf(f, "usage: memsim kernel LAUNCH.lit [--emit-lit] [--model M[,M...]] [-D NAME=VALUE] [--unroll N]\n"
               "                    [--json] [-q] [-j N] [-I DIR] [--cuda-path DIR] [--clang PROG]\n"
               "\n"
               "Compiles the kernels a launch file names (.hip, .cu) or reads their LLVM IR (.ll, .bc), turns\n"
               "each launch into memsim threads and checks them as a .lit test: verdict, races, stale reads,\n"
               "scopes, barriers, hangs, with the kernels' source lines.  --emit-lit prints the extracted\n"
               "program as .lit instead.  docs/instrument.md describes the launch file and what is understood.\n");
}

int memsim_kernel_main(int argc, char **argv)
{
    const char *file = NULL, *names[64];
    int64_t values[64];
    int ndef = 0;
    const char *flags[64];
    int nflags = 0;
    bool emit = false, json = false, quiet = false;
    explore_opts ex = {0};
    ex.models[0] = &model_src11;
    ex.nmodels = 1;
    ex.progress = isatty(2);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    ex.jobs = cores > 0 ? (int)(cores < 256 ? cores : 256) : 1;
    instr_opts io = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            kernel_usage(stdout);
            return 0;
        } else if (strcmp(a, "--emit-lit") == 0) {
            emit = true;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "-q") == 0) {
            quiet = true;
        } else if ((strcmp(a, "--model") == 0 || strcmp(a, "-m") == 0) && v) {
            i++;
            ex.nmodels = 0;
            char *copy = strdup(v), *save = NULL;
            for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                if (strcmp(tok, "all") == 0) {
                    for (int m = 0; all_models[m] && ex.nmodels < MAX_MODELS; m++)
                        ex.models[ex.nmodels++] = all_models[m];
                    continue;
                }
                const model *m = model_find(tok);
                if (!m) {
                    fprintf(stderr, "memsim: error: unknown model '%s' (models: src11 ptx sc vulkan, or all)\n", tok);
                    free(copy);
                    return 2;
                }
                if (ex.nmodels < MAX_MODELS)
                    ex.models[ex.nmodels++] = m;
            }
            free(copy);
        } else if (strncmp(a, "-D", 2) == 0) {
            const char *def = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : "");
            const char *eq = strchr(def, '=');
            char *end = NULL;
            long long n = eq ? strtoll(eq + 1, &end, 0) : 0;
            if (!eq || eq == def || !end || *end || ndef == 64) {
                fprintf(stderr, "memsim: error: -D needs NAME=INTEGER, as in -D BLOCK=2\n");
                return 2;
            }
            names[ndef] = strndup(def, (size_t)(eq - def));
            values[ndef++] = n;
        } else if (strcmp(a, "--unroll") == 0 && v) {
            long n = 0;
            bool ok = whole_arg(argv[++i], 1, 100000, &n);
            io.unroll = (int)n;
            if (!ok) {
                fprintf(stderr, "memsim: error: --unroll needs a number of iterations from 1 to 100000\n");
                return 2;
            }
        } else if (strcmp(a, "-j") == 0 && v) {
            long n = 0;
            bool ok = whole_arg(argv[++i], 1, 256, &n);
            ex.jobs = (int)n;
            if (!ok) {
                fprintf(stderr, "memsim: error: -j needs a number of workers from 1 to 256\n");
                return 2;
            }
        } else if (strcmp(a, "-I") == 0 && v && nflags < 62) {
            flags[nflags++] = "-I";
            flags[nflags++] = argv[++i];
        } else if (strcmp(a, "--cuda-path") == 0 && v) {
            io.cuda_path = argv[++i];
        } else if (strcmp(a, "--clang") == 0 && v) {
            io.clang = argv[++i];
        } else if (a[0] == '-') {
            fprintf(stderr, "memsim: error: unknown option '%s'\n", a);
            kernel_usage(stderr);
            return 2;
        } else if (file) {
            fprintf(stderr, "memsim: error: memsim kernel takes one launch file\n");
            return 2;
        } else {
            file = a;
        }
    }
    if (!file) {
        kernel_usage(stderr);
        return 2;
    }
    io.compile_flags = flags;
    io.ncompile_flags = nflags;
    char *dir = strdup(file);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        strcpy(dir, ".");
    io.launch_dir = dir;
    int status = 2;
    diag d = {0};
    launch_file lf = {0};
    test *t = NULL;
    instr_notes notes = {0};
    char *text = read_text_file(file, &d);
    if (!text)
        goto out;
    launch_defines defs = {names, values, ndef};
    if (launch_parse(file, text, &defs, &lf, &d) != 0)
        goto out;
    lit_options lo = {.define_names = names, .define_values = values, .ndefines = ndef, .threads_elsewhere = true};
    t = lit_parse_opts(file, lf.rest, &d, &lo);
    if (!t)
        goto out;
    char err[4096] = "";
    if (instrument_test(t, &lf, &io, &notes, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        goto out;
    }
    if (emit) {
        if (write_lit(stdout, t, err, sizeof err) != 0) {
            fprintf(stderr, "memsim: error: %s\n", err);
            goto out;
        }
        for (int i = 0; i < notes.n; i++)
            printf("# note: %s\n", notes.v[i]);
        status = 0;
        goto out;
    }
    explore_result r;
    if (explore(t, &ex, &r) != 0) {
        fprintf(stderr, "%s\n", r.err);
        if (strstr(r.err, "at most") || strstr(r.err, "too large"))
            fprintf(stderr, "%s: note: launch fewer work-groups or threads (grid, block; -D for a const), or make "
                            "the kernel do less per thread\n", file);
        explore_result_free(&r);
        goto out;
    }
    bool all_met = true;
    for (int m = 0; m < r.nmodels; m++) {
        const expectation *e = expectation_for(t, r.mr[m].m->name);
        if (e ? !expectation_met(t, &r.mr[m], e->verdict) : (r.mr[m].errors > 0 || r.mr[m].consistent == 0))
            all_met = false;
    }
    if (json) {
        cJSON *j = report_json(t, &r);
        cJSON *n = cJSON_AddArrayToObject(j, "abstractions");
        for (int i = 0; i < notes.n; i++)
            cJSON_AddItemToArray(n, cJSON_CreateString(notes.v[i]));
        char *s = cJSON_Print(j);
        puts(s);
        free(s);
        cJSON_Delete(j);
    } else if (quiet) {
        printf("%-50s", t->name);
        for (int m = 0; m < r.nmodels; m++) {
            const expectation *e = expectation_for(t, r.mr[m].m->name);
            verdict_t v = result_verdict(t, &r.mr[m]);
            printf("  %s: %s%s", r.mr[m].m->name, verdict_name(v), e ? (v == e->verdict ? "" : " (MISMATCH)") : "");
        }
        printf("\n");
    } else {
        report_text(stdout, t, &r);
        for (int i = 0; i < notes.n; i++)
            printf("Abstraction: %s\n", notes.v[i]);
    }
    explore_result_free(&r);
    status = all_met ? 0 : 1;
out:
    if (d.msg)
        fputs(d.msg, stderr);
    diag_free(&d);
    instr_notes_free(&notes);
    test_free(t);
    launch_file_free(&lf);
    free(text);
    free(dir);
    for (int i = 0; i < ndef; i++)
        free((char *)names[i]);
    return status;
}
