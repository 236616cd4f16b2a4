/* Reading hwrun's JSON back. Every field the report uses is checked for its
 * type; a missing or wrong one is an error that names the file and the field
 * (tests[3].outcomes[1].count), never a crash. Fields this reader does not
 * know are kept as text for the report to show. */
#include "hwresults.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *path;
    char *err;
    int errsize;
    bool failed;
} ctx;

static void fail(ctx *c, const char *field, const char *fmt, ...)
{
    if (c->failed)
        return;
    c->failed = true;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(c->err, (size_t)c->errsize, "%s: error: field %s: %s\n", c->path, field, what);
}

static const char *type_name(const cJSON *j)
{
    if (!j)
        return "nothing (missing)";
    if (cJSON_IsString(j))
        return "a string";
    if (cJSON_IsNumber(j))
        return "a number";
    if (cJSON_IsBool(j))
        return "a boolean";
    if (cJSON_IsNull(j))
        return "null";
    if (cJSON_IsArray(j))
        return "an array";
    if (cJSON_IsObject(j))
        return "an object";
    return "an invalid value";
}

static void field_name(char *buf, size_t n, const char *where, const char *key)
{
    /* Cut long paths rather than fail: the field's name is for a person to read. */
    if (snprintf(buf, n, "%s%s%s", where, *where ? "." : "", key) >= (int)n && n > 4)
        memcpy(buf + n - 4, "...", 4);
}

/* A string field; NULL when absent or null and not required. */
static char *get_str(ctx *c, const cJSON *o, const char *where, const char *key, bool required)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if ((!j || cJSON_IsNull(j)) && !required)
        return NULL;
    if (!cJSON_IsString(j)) {
        char f[300];
        field_name(f, sizeof f, where, key);
        fail(c, f, "expected a string, found %s", type_name(j));
        return NULL;
    }
    return strdup(j->valuestring);
}

static double get_num(ctx *c, const cJSON *o, const char *where, const char *key, bool required, double dflt)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if ((!j || cJSON_IsNull(j)) && !required)
        return dflt;
    if (!cJSON_IsNumber(j)) {
        char f[300];
        field_name(f, sizeof f, where, key);
        fail(c, f, "expected a number, found %s", type_name(j));
        return dflt;
    }
    return j->valuedouble;
}

/* Counts: non-negative integers (a double holds every count hwrun can make exactly up to 2^53). */
static uint64_t get_count(ctx *c, const cJSON *o, const char *where, const char *key, bool required)
{
    double v = get_num(c, o, where, key, required, 0);
    if (!(v >= 0) || v > 1.8e19 || v != floor(v)) {
        char f[300];
        field_name(f, sizeof f, where, key);
        fail(c, f, "expected a non-negative whole number, found %g", v);
        return 0;
    }
    return (uint64_t)v;
}

/* Small integers (device indices, GPU counts): a number outside [lo, hi] is an error, not a cast. */
static int get_int(ctx *c, const cJSON *o, const char *where, const char *key, int lo, int hi, int dflt)
{
    double v = get_num(c, o, where, key, false, dflt);
    if (!(v >= lo && v <= hi) || v != floor(v)) {
        char f[300];
        field_name(f, sizeof f, where, key);
        fail(c, f, "expected a whole number from %d to %d, found %g", lo, hi, v);
        return dflt;
    }
    return (int)v;
}

static bool get_bool(ctx *c, const cJSON *o, const char *where, const char *key)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!j || cJSON_IsNull(j))
        return false;
    if (!cJSON_IsBool(j)) {
        char f[300];
        field_name(f, sizeof f, where, key);
        fail(c, f, "expected true or false, found %s", type_name(j));
        return false;
    }
    return cJSON_IsTrue(j);
}

static const cJSON *get_kind(ctx *c, const cJSON *o, const char *where, const char *key, bool required,
                             bool array)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if ((!j || cJSON_IsNull(j)) && !required)
        return NULL;
    if (array ? !cJSON_IsArray(j) : !cJSON_IsObject(j)) {
        char f[300];
        field_name(f, sizeof f, where, key);
        fail(c, f, "expected %s, found %s", array ? "an array" : "an object", type_name(j));
        return NULL;
    }
    return j;
}

/* Compact JSON of a value, cut to a length a table cell can show. */
static char *compact(const cJSON *j, size_t cap)
{
    char *s = cJSON_PrintUnformatted(j);
    if (!s)
        return strdup("?");
    if (strlen(s) > cap) {
        s[cap - 3] = s[cap - 2] = s[cap - 1] = '.';
        s[cap] = 0;
    }
    return s;
}

static bool known(const char *key, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(key, list[i]) == 0)
            return true;
    return false;
}

static void keep_unknown(const cJSON *o, const char *const *list, hr_extra **out, int *n)
{
    for (const cJSON *j = o->child; j; j = j->next) {
        if (!j->string || known(j->string, list) || cJSON_IsNull(j))
            continue;
        if (strcmp(j->string, "bug") == 0 && cJSON_IsObject(j))
            continue; /* hwrun's bug count: read into the test */
        /* hwrun's flat copies of what the test already holds (folded, the out-of-heap bucket). */
        if ((strcmp(j->string, "gpus_folded") == 0 && cJSON_GetObjectItemCaseSensitive(o, "folded")) ||
            (strcmp(j->string, "out_of_heap_count") == 0 && cJSON_GetObjectItemCaseSensitive(o, "out_of_heap")))
            continue;
        *out = realloc(*out, (size_t)(*n + 1) * sizeof **out);
        (*out)[*n].key = strdup(j->string);
        (*out)[*n].text = cJSON_IsString(j) ? strdup(j->valuestring) : compact(j, 400);
        (*n)++;
    }
}

/* "x=1; y=2" from a values object. */
static void read_values(ctx *c, const cJSON *v, const char *where, hr_outcome *o)
{
    char label[1024] = "";
    size_t len = 0;
    for (const cJSON *j = v->child; j; j = j->next) {
        char f[300];
        field_name(f, sizeof f, where, j->string ? j->string : "?");
        if (!cJSON_IsNumber(j)) {
            fail(c, f, "expected a number (the final value), found %s", type_name(j));
            return;
        }
        /* The report turns final values into the test's 64-bit constants: anything else is an error, not a cast. */
        if (!(j->valuedouble >= -9223372036854775808.0 && j->valuedouble < 9223372036854775808.0) ||
            j->valuedouble != floor(j->valuedouble)) {
            fail(c, f, "expected a whole number that fits 64 bits (the final value), found %g", j->valuedouble);
            return;
        }
        o->vname = realloc(o->vname, (size_t)(o->nvals + 1) * sizeof *o->vname);
        o->vval = realloc(o->vval, (size_t)(o->nvals + 1) * sizeof *o->vval);
        o->vname[o->nvals] = strdup(j->string ? j->string : "?");
        o->vval[o->nvals] = j->valuedouble;
        o->nvals++;
        if (len < sizeof label - 1)
            len += (size_t)snprintf(label + len, sizeof label - len, "%s%s=%.17g", len ? "; " : "", j->string,
                                    j->valuedouble);
    }
    if (len >= sizeof label)
        len = sizeof label - 1;
    o->label = strdup(o->nvals ? label : "(no values)");
}

static void read_stats(ctx *c, const cJSON *j, const char *where, hr_outcome *o)
{
    o->count = get_count(c, j, where, "count", true);
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(j, "ci95_clopper_pearson");
    if (ci && !cJSON_IsNull(ci)) {
        if (!cJSON_IsArray(ci) || cJSON_GetArraySize(ci) != 2 || !cJSON_IsNumber(ci->child) ||
            !cJSON_IsNumber(ci->child->next)) {
            char f[300];
            field_name(f, sizeof f, where, "ci95_clopper_pearson");
            fail(c, f, "expected [low, high], two numbers");
            return;
        }
        o->has_ci = true;
        o->lo = ci->child->valuedouble;
        o->hi = ci->child->next->valuedouble;
    }
    o->first_seen_s = get_num(c, j, where, "first_seen_s", false, -1);
}

static void read_outcome(ctx *c, const cJSON *j, const char *where, hr_outcome *o)
{
    char f[300];
    if (!cJSON_IsObject(j)) {
        fail(c, where, "expected an object (an outcome), found %s", type_name(j));
        return;
    }
    o->kind = HR_STATE;
    const cJSON *v = get_kind(c, j, where, "values", true, false);
    if (!v)
        return;
    field_name(f, sizeof f, where, "values");
    read_values(c, v, f, o);
    o->cond = get_bool(c, j, where, "condition");
    o->hang = get_bool(c, j, where, "hang");
    const cJSON *m = get_kind(c, j, where, "models", false, false);
    for (const cJSON *k = m ? m->child : NULL; k && o->nm < HR_MAX_MODELS; k = k->next) {
        field_name(f, sizeof f, where, "models");
        char f2[340];
        field_name(f2, sizeof f2, f, k->string ? k->string : "?");
        if (!cJSON_IsString(k)) {
            fail(c, f2, "expected a string (A, F, UB, hang), found %s", type_name(k));
            return;
        }
        o->mname[o->nm] = strdup(k->string ? k->string : "?");
        o->letter[o->nm++] = strdup(k->valuestring);
    }
    read_stats(c, j, where, o);
    o->cls = get_str(c, j, where, "class", false);
}

static char *env_text(const cJSON *e)
{
    if (!e)
        return NULL;
    if (cJSON_IsString(e))
        return strdup(e->valuestring);
    if (!cJSON_IsObject(e))
        return compact(e, 400);
    char buf[1024] = "";
    size_t len = 0;
    for (const cJSON *j = e->child; j && len < sizeof buf - 1; j = j->next) {
        char *v = cJSON_IsString(j) ? strdup(j->valuestring) : compact(j, 60);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s=%s", len ? " " : "", j->string ? j->string : "?", v);
        free(v);
    }
    return strdup(buf);
}

static const char *const test_known[] = {
    "file", "test", "status", "reason", "backend", "judge_model", "verdicts", "explore_seconds", "gpus",
    "device_map", "placement", "memory", "source", "instances", "launches", "instances_per_launch", "seconds",
    "instances_per_s", "compile_seconds", "seed", "environment", "start_barrier_timeouts", "outcomes", "timeouts",
    "other", "condition", "environments", "instruction_check", "forbidden_seen", "result", "control",
    "harness_anomaly_suspected", "platform_caveat", "platform_caveat_reason", "skew_sweep", "out_of_heap", "folded", NULL};

static void read_test(ctx *c, const cJSON *j, const char *where, hr_test *t)
{
    char f[300];
    if (!cJSON_IsObject(j)) {
        fail(c, where, "expected an object (a test), found %s", type_name(j));
        return;
    }
    t->file = get_str(c, j, where, "file", true);
    t->name = get_str(c, j, where, "test", false);
    if (!t->name && t->file)
        t->name = strdup(t->file);
    t->status = get_str(c, j, where, "status", true);
    t->reason = get_str(c, j, where, "reason", false);
    t->result = get_str(c, j, where, "result", false);
    t->judge = get_str(c, j, where, "judge_model", false);
    t->backend = get_str(c, j, where, "backend", false);
    const cJSON *v = get_kind(c, j, where, "verdicts", false, false);
    for (const cJSON *k = v ? v->child : NULL; k && t->nverd < HR_MAX_MODELS; k = k->next) {
        field_name(f, sizeof f, where, "verdicts");
        char f2[340];
        field_name(f2, sizeof f2, f, k->string ? k->string : "?");
        if (!cJSON_IsString(k)) {
            fail(c, f2, "expected a verdict string, found %s", type_name(k));
            return;
        }
        t->vmodel[t->nverd] = strdup(k->string ? k->string : "?");
        t->verdict[t->nverd++] = strdup(k->valuestring);
    }
    t->ngpus = get_int(c, j, where, "gpus", 0, 1 << 20, 0);
    const cJSON *dm = get_kind(c, j, where, "device_map", false, true);
    for (const cJSON *d = dm ? dm->child : NULL; d && t->ndevmap < HR_MAX_DEVICES; d = d->next)
        if (cJSON_IsObject(d))
            t->devmap[t->ndevmap++] = get_int(c, d, where, "device", -1, 1 << 20, -1);
    t->explore_seconds = get_num(c, j, where, "explore_seconds", false, 0);
    t->instances = get_count(c, j, where, "instances", false);
    t->launches = get_count(c, j, where, "launches", false);
    t->per_launch = get_count(c, j, where, "instances_per_launch", false);
    t->seconds = get_num(c, j, where, "seconds", false, 0);
    t->seed = get_count(c, j, where, "seed", false);
    t->barrier_timeouts = get_count(c, j, where, "start_barrier_timeouts", false);
    t->env = env_text(cJSON_GetObjectItemCaseSensitive(j, "environment"));
    const cJSON *envs = get_kind(c, j, where, "environments", false, true);
    t->nenvs = envs ? cJSON_GetArraySize(envs) : 0;
    t->forbidden_seen = get_bool(c, j, where, "forbidden_seen");
    t->anomaly = get_bool(c, j, where, "harness_anomaly_suspected");
    t->caveat = get_bool(c, j, where, "platform_caveat");
    t->caveat_reason = get_str(c, j, where, "platform_caveat_reason", false);
    const cJSON *ctl = get_kind(c, j, where, "control", false, false);
    if (ctl) {
        field_name(f, sizeof f, where, "control");
        t->control_file = get_str(c, ctl, f, "file", false);
        t->control_ran = get_bool(c, ctl, f, "ran");
        t->control_k = get_count(c, ctl, f, "weak_count", false);
        t->control_n = get_count(c, ctl, f, "instances", false);
    }
    const cJSON *ic = get_kind(c, j, where, "instruction_check", false, false);
    const cJSON *miss = ic ? cJSON_GetObjectItemCaseSensitive(ic, "missing") : NULL;
    t->nmissing = cJSON_IsArray(miss) ? cJSON_GetArraySize(miss) : 0;
    t->folded = get_bool(c, j, where, "folded") || get_bool(c, j, where, "gpus_folded");
    /* Kernels: how often the bug showed, and after how long. A `bug` that is not
     * hwrun's object (a note, say) stays a field shown as written. */
    const cJSON *bug = cJSON_GetObjectItemCaseSensitive(j, "bug");
    if (cJSON_IsObject(bug)) {
        field_name(f, sizeof f, where, "bug");
        t->has_bug = true;
        t->bug_seen = get_bool(c, bug, f, "seen");
        t->bug_model_says = get_bool(c, bug, f, "model_says_buggy");
        t->bug_verdict = get_str(c, bug, f, "model_verdict", false);
        t->bug_count = get_count(c, bug, f, "count", true);
        t->bug_n = get_count(c, bug, f, "instances", false);
        t->bug_first_s = get_num(c, bug, f, "first_seen_after_seconds", false, -1);
        t->bug_first_iter = get_count(c, bug, f, "first_seen_after_iterations", false);
        t->bug_upper95 = get_num(c, bug, f, "upper95_exact", false, -1);
    }
    const cJSON *cond = get_kind(c, j, where, "condition", false, false);
    if (cond) {
        field_name(f, sizeof f, where, "condition");
        t->has_condition = true;
        t->condition_count = get_count(c, cond, f, "count", true);
    }
    /* A test that ran has its outcome table; one that did not has none. */
    bool ran = t->status && strcmp(t->status, "skipped") != 0 && strcmp(t->status, "bad-input") != 0;
    const cJSON *outs = get_kind(c, j, where, "outcomes", false, true);
    if (ran && t->status && strcmp(t->status, "ran") == 0 && !outs) {
        field_name(f, sizeof f, where, "outcomes");
        fail(c, f, "a test with status \"ran\" needs its outcomes, found nothing (missing)");
        return;
    }
    if (outs && t->instances == 0 && !cJSON_GetObjectItemCaseSensitive(j, "instances") && cJSON_GetArraySize(outs)) {
        field_name(f, sizeof f, where, "instances");
        fail(c, f, "a test with outcomes needs its number of instances, found nothing (missing)");
        return;
    }
    int n = outs ? cJSON_GetArraySize(outs) : 0;
    const cJSON *other = get_kind(c, j, where, "other", false, false);
    const cJSON *tmo = get_kind(c, j, where, "timeouts", false, false);
    const cJSON *ooh = get_kind(c, j, where, "out_of_heap", false, false);
    t->outs = calloc((size_t)n + 3, sizeof *t->outs);
    int i = 0;
    for (const cJSON *o = outs ? outs->child : NULL; o && !c->failed; o = o->next, i++) {
        char w[300];
        snprintf(w, sizeof w, "%s.outcomes[%d]", where, i);
        read_outcome(c, o, w, &t->outs[t->nouts++]);
    }
    if (other && !c->failed) {
        hr_outcome *o = &t->outs[t->nouts++];
        field_name(f, sizeof f, where, "other");
        o->kind = HR_OTHER;
        o->label = strdup("(no model's state)");
        read_stats(c, other, f, o);
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(other, "sample");
        if (cJSON_IsArray(s) && cJSON_GetArraySize(s))
            o->sample = compact(s, 600);
    }
    if (tmo && !c->failed) {
        hr_outcome *o = &t->outs[t->nouts++];
        field_name(f, sizeof f, where, "timeouts");
        o->kind = HR_TIMEOUT;
        o->label = strdup("(await timed out)");
        read_stats(c, tmo, f, o);
        o->can_hang = get_bool(c, tmo, f, "models_say_it_can_hang");
    }
    if (ooh && !c->failed) {
        hr_outcome *o = &t->outs[t->nouts++];
        field_name(f, sizeof f, where, "out_of_heap");
        o->kind = HR_OUT_OF_HEAP;
        o->label = strdup("(out of heap)");
        read_stats(c, ooh, f, o);
    }
    keep_unknown(j, test_known, &t->extra, &t->nextra);
}

static const char *const run_known[] = {"tool", "date", "host", "command", "backend", "driver", "compiler",
                                        "devices", "seed", "instances_per_test", "seconds_per_test",
                                        "environment", "skews", "campaign", "tests", "summary", NULL};

int hr_parse(const char *path, const char *text, size_t len, hr_run *run, char *err, int errsize)
{
    memset(run, 0, sizeof *run);
    ctx c = {path, err, errsize, false};
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!root) {
        /* Where the parse stopped, as line:col, with the text there. */
        size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : len;
        int line = 1, col = 1;
        for (size_t i = 0; i < off; i++, col++)
            if (text[i] == '\n')
                line++, col = 0;
        char near[48] = "";
        size_t k = 0;
        for (size_t i = off; i < len && k < sizeof near - 1 && text[i] != '\n'; i++)
            near[k++] = (text[i] >= 0x20 && text[i] < 0x7f) ? text[i] : '?';
        near[k] = 0;
        snprintf(err, (size_t)errsize, "%s:%d:%d: error: not valid JSON here%s%s%s (a truncated or damaged run?)\n",
                 path, line, col, off >= len ? " (the file ends)" : ": '", off >= len ? "" : near,
                 off >= len ? "" : "'");
        return -1;
    }
    if (!cJSON_IsObject(root)) {
        fail(&c, "(top level)", "expected an object (one hwrun run), found %s", type_name(root));
        cJSON_Delete(root);
        return -1;
    }
    run->path = strdup(path);
    const char *base = strrchr(path, '/');
    run->label = strdup(base ? base + 1 : path);
    size_t ll = strlen(run->label);
    if (ll > 5 && strcmp(run->label + ll - 5, ".json") == 0)
        run->label[ll - 5] = 0;
    run->tool = get_str(&c, root, "", "tool", false);
    run->date = get_str(&c, root, "", "date", false);
    run->host = get_str(&c, root, "", "host", false);
    run->command = get_str(&c, root, "", "command", false);
    run->backend = get_str(&c, root, "", "backend", false);
    run->driver = get_str(&c, root, "", "driver", false);
    run->compiler = get_str(&c, root, "", "compiler", false);
    run->env = env_text(cJSON_GetObjectItemCaseSensitive(root, "environment"));
    run->seed = get_count(&c, root, "", "seed", false);
    run->instances_per_test = get_count(&c, root, "", "instances_per_test", false);
    run->seconds_per_test = get_num(&c, root, "", "seconds_per_test", false, 0);
    const cJSON *sk = get_kind(&c, root, "", "skews", false, true);
    run->skews = sk ? compact(sk, 200) : NULL;
    const cJSON *cp = cJSON_GetObjectItemCaseSensitive(root, "campaign");
    run->campaign = cp && !cJSON_IsNull(cp) ? compact(cp, 200) : NULL;
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(root, "summary");
    run->summary = sum && !cJSON_IsNull(sum) ? compact(sum, 400) : NULL;
    const cJSON *devs = get_kind(&c, root, "", "devices", false, true);
    int i = 0;
    for (const cJSON *d = devs ? devs->child : NULL; d && run->ndev < HR_MAX_DEVICES && !c.failed; d = d->next, i++) {
        char w[64];
        snprintf(w, sizeof w, "devices[%d]", i);
        if (!cJSON_IsObject(d)) {
            fail(&c, w, "expected an object (a device), found %s", type_name(d));
            break;
        }
        hr_device *D = &run->dev[run->ndev++];
        D->index = get_int(&c, d, w, "index", 0, 1 << 20, i);
        D->name = get_str(&c, d, w, "name", false);
        D->arch = get_str(&c, d, w, "arch", false);
        D->multiprocessors = get_int(&c, d, w, "multiprocessors", 0, 1 << 20, 0);
    }
    const cJSON *tests = get_kind(&c, root, "", "tests", true, true);
    int n = tests ? cJSON_GetArraySize(tests) : 0;
    run->tests = calloc((size_t)n + 1, sizeof *run->tests);
    i = 0;
    for (const cJSON *t = tests ? tests->child : NULL; t && !c.failed; t = t->next, i++) {
        char w[64];
        snprintf(w, sizeof w, "tests[%d]", i);
        read_test(&c, t, w, &run->tests[run->ntests++]);
    }
    if (!c.failed)
        keep_unknown(root, run_known, &run->extra, &run->nextra);
    cJSON_Delete(root);
    if (c.failed) {
        hr_free(run);
        return -1;
    }
    return 0;
}

int hr_load(const char *path, hr_run *run, char *err, int errsize)
{
    memset(run, 0, sizeof *run);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, (size_t)errsize, "%s: error: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, (size_t)errsize, "%s: error: cannot read the file\n", path);
        free(buf);
        return -1;
    }
    int rc = hr_parse(path, buf, len, run, err, errsize);
    free(buf);
    return rc;
}

static void free_outcome(hr_outcome *o)
{
    free(o->label);
    for (int i = 0; i < o->nvals; i++)
        free(o->vname[i]);
    free(o->vname);
    free(o->vval);
    for (int i = 0; i < o->nm; i++) {
        free(o->mname[i]);
        free(o->letter[i]);
    }
    free(o->cls);
    free(o->sample);
}

static void free_extra(hr_extra *e, int n)
{
    for (int i = 0; i < n; i++) {
        free(e[i].key);
        free(e[i].text);
    }
    free(e);
}

void hr_free(hr_run *run)
{
    for (int i = 0; i < run->ntests; i++) {
        hr_test *t = &run->tests[i];
        free(t->file), free(t->name), free(t->status), free(t->reason), free(t->result), free(t->judge);
        free(t->backend), free(t->env), free(t->control_file), free(t->caveat_reason), free(t->bug_verdict);
        for (int m = 0; m < t->nverd; m++)
            free(t->vmodel[m]), free(t->verdict[m]);
        for (int o = 0; o < t->nouts; o++)
            free_outcome(&t->outs[o]);
        free(t->outs);
        free_extra(t->extra, t->nextra);
    }
    free(run->tests);
    for (int d = 0; d < run->ndev; d++)
        free(run->dev[d].name), free(run->dev[d].arch);
    free(run->path), free(run->label), free(run->tool), free(run->date), free(run->host), free(run->command);
    free(run->backend), free(run->driver), free(run->compiler), free(run->env), free(run->skews);
    free(run->campaign), free(run->summary);
    free_extra(run->extra, run->nextra);
    memset(run, 0, sizeof *run);
}
