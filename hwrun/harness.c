#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct hw_session {
    hw_gpu *g;
    const hw_plan *p;
    const otab *o;
    const hw_code *c;
    int phys[PLAN_MAX_GPUS];      /* plan device -> physical device */
    void *mod[PLAN_MAX_GPUS];
    void **kfn;                   /* per plan kernel */
    void *check;
};

void env_default(hw_env *e)
{
    memset(e, 0, sizeof *e);
    e->block = 256;
    e->m = 0;
    e->stress_blocks = 0;
    e->stress_iters = 256;
    e->stress_pattern = 1;
    e->stress_targets = 2;
    e->line_words = 32;
    e->pre_iters = 0;
    e->barrier = 1;
    e->spacing = 64;
    e->skew = 0;
    e->timeout = 2000000;   /* ~1 ms at 2 GHz */
    e->bar_budget = 200000; /* ~0.1 ms */
}

void env_format(const hw_env *e, char *buf, int size)
{
    snprintf(buf, (size_t)size,
             "block=%d m=%d stress_blocks=%d stress_iters=%d stress_pattern=%d stress_targets=%d line_words=%d "
             "pre_iters=%d barrier=%d spacing=%d skew=%lld timeout=%lld bar_budget=%lld",
             e->block, e->m, e->stress_blocks, e->stress_iters, e->stress_pattern, e->stress_targets, e->line_words,
             e->pre_iters, e->barrier, e->spacing, e->skew, e->timeout, e->bar_budget);
}

int env_parse(hw_env *e, const char *text, char *err, int errsz)
{
    char *copy = strdup(text), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, " \t\n,", &save); tok; tok = strtok_r(NULL, " \t\n,", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            snprintf(err, (size_t)errsz, "environment: expected key=value, got '%s'", tok);
            rc = -1;
            break;
        }
        *eq = 0;
        long long v = strtoll(eq + 1, NULL, 0);
        struct {
            const char *k;
            int *i;
            long long *l;
        } keys[] = {{"block", &e->block, NULL},
                    {"m", &e->m, NULL},
                    {"stress_blocks", &e->stress_blocks, NULL},
                    {"stress_iters", &e->stress_iters, NULL},
                    {"stress_pattern", &e->stress_pattern, NULL},
                    {"stress_targets", &e->stress_targets, NULL},
                    {"line_words", &e->line_words, NULL},
                    {"pre_iters", &e->pre_iters, NULL},
                    {"barrier", &e->barrier, NULL},
                    {"spacing", &e->spacing, NULL},
                    {"skew", NULL, &e->skew},
                    {"timeout", NULL, &e->timeout},
                    {"bar_budget", NULL, &e->bar_budget}};
        size_t i;
        for (i = 0; i < sizeof keys / sizeof *keys; i++)
            if (strcmp(keys[i].k, tok) == 0) {
                if (keys[i].i)
                    *keys[i].i = (int)v;
                else
                    *keys[i].l = v;
                break;
            }
        if (i == sizeof keys / sizeof *keys) {
            snprintf(err, (size_t)errsz, "environment: unknown key '%s'", tok);
            rc = -1;
            break;
        }
    }
    free(copy);
    if (rc == 0) {
        if (e->block < 32 || e->block > 1024 || e->block % 32) {
            snprintf(err, (size_t)errsz, "environment: block must be a multiple of 32 from 32 to 1024");
            return -1;
        }
        if (e->m < 0 || (e->m & (e->m - 1))) {
            snprintf(err, (size_t)errsz, "environment: m must be 0 or a power of two");
            return -1;
        }
        if (e->spacing < 8 || e->spacing % 8) {
            snprintf(err, (size_t)errsz, "environment: spacing must be a multiple of 8 bytes");
            return -1;
        }
    }
    return rc;
}

void result_free(hw_result *r)
{
    free(r->hist);
    free(r->first_seen);
    free(r->first_launches);
    free(r->extra_vals);
    free(r->extra_count);
    memset(r, 0, sizeof *r);
}

static void extra_add(hw_result *r, int nshow, const int64_t *vals, uint64_t count)
{
    for (int i = 0; i < r->nextra; i++)
        if (memcmp(r->extra_vals + (size_t)i * nshow, vals, (size_t)nshow * sizeof *vals) == 0) {
            r->extra_count[i] += count;
            return;
        }
    if (r->nextra >= 256) { /* keep the sample bounded */
        r->extra_dropped += count;
        return;
    }
    r->extra_vals = realloc(r->extra_vals, (size_t)(r->nextra + 1) * (size_t)(nshow ? nshow : 1) * sizeof *vals);
    r->extra_count = realloc(r->extra_count, (size_t)(r->nextra + 1) * sizeof *r->extra_count);
    memcpy(r->extra_vals + (size_t)r->nextra * nshow, vals, (size_t)nshow * sizeof *vals);
    r->extra_count[r->nextra++] = count;
}

void result_add(hw_result *a, const hw_result *b, int nshow)
{
    if (!a->hist) {
        a->nbuckets = b->nbuckets;
        a->hist = calloc((size_t)b->nbuckets, sizeof *a->hist);
        a->first_seen = malloc((size_t)b->nbuckets * sizeof *a->first_seen);
        a->first_launches = calloc((size_t)b->nbuckets, sizeof *a->first_launches);
        for (int i = 0; i < b->nbuckets; i++)
            a->first_seen[i] = -1;
        a->env = b->env;
        a->folded = b->folded;
        snprintf(a->heap_alloc, sizeof a->heap_alloc, "%s", b->heap_alloc);
        a->seed = b->seed;
        a->per_launch = b->per_launch;
    }
    for (int i = 0; i < b->nbuckets && i < a->nbuckets; i++) {
        a->hist[i] += b->hist[i];
        if (b->first_seen[i] >= 0 && a->first_seen[i] < 0) {
            a->first_seen[i] = a->seconds + b->first_seen[i];
            a->first_launches[i] = a->launches + (b->first_launches ? b->first_launches[i] : 0);
        }
    }
    a->instances += b->instances;
    a->launches += b->launches;
    a->seconds += b->seconds;
    a->barrier_timeouts += b->barrier_timeouts;
    a->extra_dropped += b->extra_dropped;
    for (int i = 0; i < b->nextra; i++)
        extra_add(a, nshow, b->extra_vals + (size_t)i * nshow, b->extra_count[i]);
}

/* ---- session: modules on the devices ----------------------------------------------------- */

int session_open(hw_session **out, hw_gpu *g, const hw_plan *p, const otab *o, const hw_code *c, const int *devmap,
                 char **compile_text, double *compile_seconds, char *err, int errsz)
{
    *out = NULL;
    if (compile_text)
        *compile_text = NULL;
    hw_session *s = calloc(1, sizeof *s);
    s->g = g;
    s->p = p;
    s->o = o;
    s->c = c;
    for (int d = 0; d < p->ngpus; d++) {
        s->phys[d] = devmap ? devmap[d] : d;
        if (s->phys[d] < 0 || s->phys[d] >= g->ndev) {
            snprintf(err, (size_t)errsz, "the test needs %d GPU%s; %d present", p->ngpus, p->ngpus == 1 ? "" : "s",
                     g->ndev);
            free(s);
            return -1;
        }
    }
    /* Peer access between every two devices the test uses, both ways. */
    for (int a = 0; a < p->ngpus; a++)
        for (int b = 0; b < p->ngpus; b++) {
            if (a == b || s->phys[a] == s->phys[b])
                continue;
            int native = -1;
            if (g->peer(g, s->phys[a], s->phys[b], &native) != 0) {
                snprintf(err, (size_t)errsz, "%s", g->err);
                free(s);
                return -1;
            }
        }
    /* One compile per distinct architecture. */
    double t0 = hw_now();
    char fname[256];
    snprintf(fname, sizeof fname, "%s.%s", p->t->name ? "memsim_test" : "memsim_test", g->kind == BK_CUDA ? "cu" : "hip");
    const char *done_arch[PLAN_MAX_GPUS];
    void *done_img[PLAN_MAX_GPUS];
    size_t done_size[PLAN_MAX_GPUS];
    int ndone = 0, rc = 0;
    for (int d = 0; d < p->ngpus && rc == 0; d++) {
        const char *arch = g->dev[s->phys[d]].arch;
        int k;
        for (k = 0; k < ndone; k++)
            if (strcmp(done_arch[k], arch) == 0)
                break;
        if (k == ndone) {
            char *text = NULL, *log = NULL;
            if (g->compile(g, arch, c->src, fname, &done_img[k], &done_size[k], &text, &log) != 0) {
                snprintf(err, (size_t)errsz, "%s", g->err);
                free(log);
                rc = -1;
                break;
            }
            free(log);
            if (compile_text && !*compile_text)
                *compile_text = text;
            else
                free(text);
            done_arch[k] = arch;
            ndone++;
        }
        bool loaded = false;
        for (int e = 0; e < d; e++)
            if (s->phys[e] == s->phys[d]) {
                s->mod[d] = s->mod[e];
                loaded = true;
            }
        if (!loaded && g->load(g, s->phys[d], done_img[k], done_size[k], &s->mod[d]) != 0) {
            snprintf(err, (size_t)errsz, "%s", g->err);
            rc = -1;
        }
    }
    for (int k = 0; k < ndone; k++)
        free(done_img[k]);
    if (compile_seconds)
        *compile_seconds = hw_now() - t0;
    if (rc == 0) {
        s->kfn = calloc((size_t)(p->nk ? p->nk : 1), sizeof *s->kfn);
        for (int k = 0; k < p->nk && rc == 0; k++)
            if (g->function(g, s->mod[p->k[k].dev], c->kernel_names[k], &s->kfn[k]) != 0) {
                snprintf(err, (size_t)errsz, "%s", g->err);
                rc = -1;
            }
        if (rc == 0 && g->function(g, s->mod[0], c->check_name, &s->check) != 0) {
            snprintf(err, (size_t)errsz, "%s", g->err);
            rc = -1;
        }
    }
    if (rc != 0) {
        session_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

void session_close(hw_session *s)
{
    if (!s)
        return;
    for (int d = 0; d < s->p->ngpus; d++) {
        bool dup = false;
        for (int e = 0; e < d; e++)
            dup = dup || s->mod[e] == s->mod[d];
        if (s->mod[d] && !dup)
            s->g->unload(s->g, s->phys[d], s->mod[d]);
    }
    free(s->kfn);
    free(s);
}

/* ---- one environment ---------------------------------------------------------------- */

static int pow2_floor(long long x)
{
    int p = 1;
    while ((long long)p * 2 <= x && p < (1 << 30))
        p *= 2;
    return p;
}

/* Testing groups that run at the same time on physical device phys (with --fold-gpus several plan
 * devices share one): the most over the kernel levels (kernels of one level run together, the
 * levels one after the other), and how many kernels that level has there. */
static int groups_on(const hw_session *s, int phys, int *nkern)
{
    int best = 0;
    *nkern = 0;
    for (int lv = 0; lv < s->p->nlevels; lv++) {
        int n = 0, nk = 0;
        for (int k = 0; k < s->p->nk; k++)
            if (s->p->k[k].level == lv && s->phys[s->p->k[k].dev] == phys) {
                n += s->p->k[k].ngroups;
                nk++;
            }
        if (n > best) {
            best = n;
            *nkern = nk;
        }
    }
    return best;
}

/* Bytes of one instance's heap slice: the test's heap size, rounded up to a cache line. */
static uint64_t heap_stride(const test *t) { return ((uint64_t)t->heap.size + 127u) & ~(uint64_t)127u; }

/* At most this much memory per rank's heap (all instances' slices). */
#define HEAP_BYTES_CAP (256ull << 20)

/* Testing blocks per group: the env's m, or as many as stay resident with the stressing blocks. */
static int choose_m(hw_session *s, const hw_env *env)
{
    const hw_plan *p = s->p;
    long long best = 1 << 30;
    if (env->m > 0)
        best = env->m;
    else
        for (int d = 0; d < p->ngpus; d++) {
            int phys = s->phys[d];
            bool seen = false;
            for (int e = 0; e < d; e++)
                seen = seen || s->phys[e] == phys;
            int nkern = 0, ng = groups_on(s, phys, &nkern);
            if (seen || !ng)
                continue;
            int occ = 0;
            for (int k = 0; k < p->nk; k++)
                if (s->phys[p->k[k].dev] == phys) {
                    int o = 0;
                    if (s->g->occupancy(s->g, phys, s->kfn[k], env->block, &o) != 0 || o <= 0)
                        o = 1;
                    if (!occ || o < occ)
                        occ = o;
                }
            const hw_device *D = &s->g->dev[phys];
            long long resident = (long long)occ * (D->sms > 0 ? D->sms : 1);
            long long avail = resident - (long long)env->stress_blocks * nkern;
            long long m = avail / ng;
            if (m < best)
                best = m;
        }
    if (best < 1)
        best = 1;
    /* At most 2^20 instances per launch, and heaps of at most HEAP_BYTES_CAP per rank. */
    int rows = plan_rows(p, env->block);
    long long per_block = (long long)rows * p->L;
    long long cap = 1 << 20;
    if (p->t->heap.present) {
        long long hcap = (long long)(HEAP_BYTES_CAP / heap_stride(p->t));
        if (hcap < cap)
            cap = hcap;
    }
    while (best > 1 && best * per_block > cap)
        best /= 2;
    return pow2_floor(best);
}

uint64_t session_per_launch(hw_session *s, const hw_env *env)
{
    int rows = plan_rows(s->p, env->block);
    if (rows <= 0)
        return 0;
    return (uint64_t)choose_m(s, env) * (uint64_t)rows * (uint64_t)s->p->L;
}

static unsigned long long gcd(unsigned long long a, unsigned long long b)
{
    while (b) {
        unsigned long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static unsigned long long coprime_below(hw_rng *r, unsigned long long n)
{
    if (n <= 2)
        return 1;
    for (;;) {
        unsigned long long x = 1 + rng_below(r, n - 1);
        if (gcd(x, n) == 1)
            return x;
    }
}

static memkind_t kind_of(const location *L)
{
    if (L->home != HOME_HOST)
        return L->gran == GRAN_COARSE ? MEM_DEVICE : MEM_DEVICE_FINE;
    if (L->alloc && strcmp(L->alloc, "hipMallocManaged") == 0)
        return MEM_MANAGED;
    if (L->alloc && strcmp(L->alloc, "malloc") == 0)
        return MEM_MALLOC;
    return L->gran == GRAN_COARSE ? MEM_HOST_NONCOHERENT : MEM_HOST;
}

typedef struct {
    unsigned long long ptr;
    int dev;          /* physical */
    memkind_t kind;
} buf;

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        snprintf(err, (size_t)errsz, __VA_ARGS__);                                                                     \
        rc = -1;                                                                                                       \
        goto out;                                                                                                      \
    } while (0)
#define GK(call)                                                                                                       \
    do {                                                                                                               \
        if ((call) != 0)                                                                                               \
            FAIL("%s", g->err);                                                                                        \
    } while (0)

int session_run(hw_session *s, const hw_env *env, uint64_t seed, uint64_t max_instances, double max_seconds,
                hw_result *out, char *err, int errsz)
{
    hw_gpu *g = s->g;
    const hw_plan *p = s->p;
    const otab *o = s->o;
    const test *t = p->t;
    int rc = 0;
    memset(out, 0, sizeof *out);
    out->env = *env;
    out->seed = seed;
    out->nbuckets = ot_nbuckets(o);
    out->hist = calloc((size_t)out->nbuckets, sizeof *out->hist);
    out->first_seen = malloc((size_t)out->nbuckets * sizeof *out->first_seen);
    out->first_launches = calloc((size_t)out->nbuckets, sizeof *out->first_launches);
    for (int i = 0; i < out->nbuckets; i++)
        out->first_seen[i] = -1;
    for (int d = 0; d < p->ngpus; d++)
        for (int e = 0; e < d; e++)
            out->folded = out->folded || s->phys[d] == s->phys[e];
    int ns = o->nshow;
    int nloc = t->nlocs;
    buf *locb = calloc((size_t)(nloc ? nloc : 1), sizeof *locb);
    buf regs = {0}, status = {0}, hist = {0}, extra = {0}, bar = {0}, scratch[PLAN_MAX_GPUS] = {{0}};
    buf heapb[PLAN_MAX_GPUS] = {{0}};
    void *kstream[64] = {0}, *kdone[64] = {0}, *cstream = NULL, *cdone = NULL;
    bool own_stream[64] = {false};
    unsigned long long *prm = NULL;
    uint64_t *hbuf = NULL;
    int64_t *xbuf = NULL;
    hw_rng rng = {seed};
    int dev0 = s->phys[0];
    int rows = plan_rows(p, env->block);
    if (rows <= 0)
        FAIL("block size %d is too small: a work-group of this test needs %d warps", env->block, p->vmax);
    if (p->nk > 64)
        FAIL("too many kernels");
    int M = choose_m(s, env);
    uint64_t N = (uint64_t)M * (uint64_t)rows * (uint64_t)p->L;
    out->per_launch = N;
    /* Buffers.  The symmetric heap: one allocation per rank on its device (N slices of the test's
     * heap size), of the heap's granularity; its variables are no buffers of their own. */
    const char *how;
    const symheap *hp = &t->heap;
    int nranks = hp->present ? hp->ranks : 0;
    if (nranks > PLAN_MAX_GPUS)
        FAIL("the heap has more than %d ranks", PLAN_MAX_GPUS);
    uint64_t hstride = hp->present ? heap_stride(t) : 0;
    for (int r = 0; r < nranks; r++) {
        heapb[r].kind = hp->gran == GRAN_COARSE ? MEM_DEVICE : MEM_DEVICE_FINE;
        heapb[r].dev = p->dev_of_gpu[r] >= 0 ? s->phys[p->dev_of_gpu[r]] : dev0;
        GK(g->alloc(g, heapb[r].dev, (size_t)N * (size_t)hstride, heapb[r].kind, &heapb[r].ptr, &how));
        size_t at = strlen(out->heap_alloc);
        snprintf(out->heap_alloc + at, sizeof out->heap_alloc - at, "%srank %d: %s on device %d", r ? "; " : "", r, how,
                 heapb[r].dev);
    }
    for (int l = 0; l < nloc; l++) {
        const location *L = &t->locs[l];
        int hr, hv;
        if (heap_loc(t, l, &hr, &hv))
            continue;
        int esz = loc_size(L);
        int spacing = env->spacing < esz ? esz : env->spacing;
        locb[l].kind = kind_of(L);
        locb[l].dev = L->home == HOME_HOST ? dev0 : s->phys[p->dev_of_gpu[L->home]];
        GK(g->alloc(g, locb[l].dev, (size_t)N * (size_t)L->len * (size_t)spacing, locb[l].kind, &locb[l].ptr, &how));
    }
    regs.dev = status.dev = hist.dev = extra.dev = bar.dev = dev0;
    GK(g->alloc(g, dev0, (size_t)N * (size_t)(ns ? ns : 1) * 8, MEM_DEVICE, &regs.ptr, &how));
    GK(g->alloc(g, dev0, (size_t)N * 4, MEM_DEVICE, &status.ptr, &how));
    GK(g->alloc(g, dev0, (size_t)(out->nbuckets + 1) * 8, MEM_DEVICE, &hist.ptr, &how));
    size_t xbytes = (size_t)EXTRA_CAP * (size_t)(ns ? ns : 1) * 8;
    GK(g->alloc(g, dev0, xbytes + 8, MEM_DEVICE, &extra.ptr, &how));
    GK(g->alloc(g, dev0, (size_t)(p->nlevels + 1) * 64, MEM_DEVICE, &bar.ptr, &how));
    const int scratch_lines = 4096, line_words = env->line_words > 0 ? env->line_words : 32;
    for (int d = 0; d < p->ngpus; d++) {
        scratch[d].dev = s->phys[d];
        bool dup = false;
        for (int e = 0; e < d; e++)
            if (s->phys[e] == s->phys[d]) {
                scratch[d] = scratch[e];
                scratch[d].ptr = 0; /* not owned */
                scratch[d].kind = MEM_DEVICE;
                dup = true;
            }
        if (!dup)
            GK(g->alloc(g, s->phys[d], (size_t)scratch_lines * line_words * 4, MEM_DEVICE, &scratch[d].ptr, &how));
    }
    /* Streams and events: the check stream on device 0; a single kernel on device 0 shares it. */
    GK(g->stream(g, dev0, &cstream));
    GK(g->event(g, dev0, &cdone));
    for (int k = 0; k < p->nk; k++) {
        int dev = s->phys[p->k[k].dev];
        if (p->nk == 1 && dev == dev0) {
            kstream[k] = cstream;
        } else {
            GK(g->stream(g, dev, &kstream[k]));
            own_stream[k] = true;
        }
        GK(g->event(g, dev, &kdone[k]));
    }
    GK(g->memset_async(g, dev0, status.ptr, (size_t)N * 4, cstream));
    GK(g->memset_async(g, dev0, hist.ptr, (size_t)(out->nbuckets + 1) * 8, cstream));
    GK(g->memset_async(g, dev0, extra.ptr, xbytes + 8, cstream));
    GK(g->memset_async(g, dev0, bar.ptr, (size_t)(p->nlevels + 1) * 64, cstream));
    GK(g->sync(g, dev0, cstream));
    /* Parameter words. */
    int np = hw_nparams(t);
    prm = calloc((size_t)np * (size_t)(p->nk + 1), sizeof *prm);
    hbuf = calloc((size_t)out->nbuckets + 1, sizeof *hbuf);
    xbuf = malloc(xbytes + 8);
    long long ntest_level[64] = {0};
    for (int k = 0; k < p->nk; k++)
        ntest_level[p->k[k].level] += (long long)p->k[k].ngroups * M;
    unsigned check_grid;
    {
        const hw_device *D = &g->dev[dev0];
        uint64_t want = (N + 255) / 256, cap = (uint64_t)(D->sms > 0 ? D->sms : 16) * 8;
        check_grid = (unsigned)(want < cap ? want : cap);
        if (!check_grid)
            check_grid = 1;
    }
    /* Sets the words every kernel of a launch shares (new random permutations each launch). */
    uint64_t launch = 0;
    double t_start = hw_now(), t_last = t_start;
    uint64_t batch = 1;
    for (;;) {
        for (uint64_t b = 0; b < batch; b++, launch++) {
            unsigned long long *w = prm; /* common words */
            w[PI_N] = N;
            w[PI_M] = (unsigned long long)M;
            w[PI_R] = (unsigned long long)rows;
            w[PI_LAUNCH] = launch;
            w[PI_ZERO] = 0;
            w[PI_LMUL] = p->L > 1 ? (1 + 2 * rng_below(&rng, (unsigned long long)p->L / 2)) : 1;
            w[PI_LOFF] = rng_below(&rng, (unsigned long long)p->L);
            w[PI_SEED] = rng_next(&rng);
            w[PI_REGS] = regs.ptr;
            w[PI_STATUS] = status.ptr;
            w[PI_HIST] = hist.ptr;
            w[PI_EXTRA] = extra.ptr + 8;
            w[PI_EXTRA_N] = extra.ptr;
            w[PI_BAR_BUDGET] = env->barrier ? (unsigned long long)env->bar_budget : 0;
            w[PI_TIMEOUT] = (unsigned long long)env->timeout;
            w[PI_SCRATCH_LINES] = (unsigned long long)scratch_lines;
            w[PI_LINE_WORDS] = (unsigned long long)line_words;
            w[PI_STRESS_ITERS] = (unsigned long long)env->stress_iters;
            w[PI_STRESS_PATTERN] = (unsigned long long)env->stress_pattern;
            w[PI_STRESS_TARGETS] = (unsigned long long)(env->stress_targets > 0 ? env->stress_targets : 1);
            w[PI_PRE_ITERS] = (unsigned long long)env->pre_iters;
            w[PI_MODE] = launch == 0 ? 1 : 0; /* (the very first check below only resets) */
            /* Each rank's heap gets its own slot permutation; instance i's heap-base table is
             * base[r] + slot_r(i) * stride, built on the device. */
            unsigned long long hmul[PLAN_MAX_GPUS] = {0}, hoff[PLAN_MAX_GPUS] = {0};
            if (nranks) {
                w[PI_HEAP_SIZE(nloc)] = hstride;
                for (int r = 0; r < nranks; r++) {
                    hmul[r] = N > 1 ? 1 + 2 * rng_below(&rng, N / 2) : 1;
                    hoff[r] = rng_below(&rng, N);
                    w[PI_HEAP_BASE(nloc, r)] = heapb[r].ptr;
                    w[PI_HEAP_MUL(nloc, r)] = hmul[r];
                    w[PI_HEAP_OFF(nloc, r)] = hoff[r];
                }
            }
            for (int l = 0; l < nloc; l++) {
                const location *L = &t->locs[l];
                int esz = loc_size(L);
                int hr, hv;
                if (heap_loc(t, l, &hr, &hv)) {
                    w[PI_LOC_BASE(l)] = heapb[hr].ptr + (unsigned long long)hp->offset[hr][hv];
                    w[PI_LOC_MUL(l)] = hmul[hr];
                    w[PI_LOC_OFF(l)] = hoff[hr];
                    w[PI_LOC_SPACE(l)] = hstride;
                    continue;
                }
                w[PI_LOC_BASE(l)] = locb[l].ptr;
                w[PI_LOC_MUL(l)] = N > 1 ? 1 + 2 * rng_below(&rng, N / 2) : 1;
                w[PI_LOC_OFF(l)] = rng_below(&rng, N);
                w[PI_LOC_SPACE(l)] = (unsigned long long)(env->spacing < esz ? esz : env->spacing);
            }
            if (launch == 0) {
                /* Put every location to its initial value under this launch's permutation first. */
                w[PI_MODE] = 1;
                GK(g->launch(g, dev0, s->check, check_grid, 256, cstream, w, np));
                GK(g->record(g, dev0, cdone, cstream));
            }
            w[PI_MODE] = 0;
            for (int k = 0; k < p->nk; k++) {
                const hw_kernel *K = &p->k[k];
                int dev = s->phys[K->dev];
                unsigned long long *kw = prm + (size_t)np * (size_t)(k + 1);
                memcpy(kw, w, (size_t)np * sizeof *kw);
                unsigned long long ntest = (unsigned long long)K->ngroups * (unsigned long long)M;
                unsigned long long nb = ntest + (unsigned long long)env->stress_blocks;
                kw[PI_BMUL] = coprime_below(&rng, nb);
                kw[PI_BOFF] = rng_below(&rng, nb);
                kw[PI_NTEST] = ntest;
                kw[PI_BAR] = bar.ptr + 64ull * (unsigned long long)K->level;
                kw[PI_BAR_TARGET] = (unsigned long long)(launch + 1) * (unsigned long long)ntest_level[K->level];
                kw[PI_SCRATCH] = scratch[K->dev].ptr ? scratch[K->dev].ptr : scratch[0].ptr;
                for (int d = 0; d < p->ngpus; d++)
                    if (s->phys[d] == dev && scratch[d].ptr)
                        kw[PI_SCRATCH] = scratch[d].ptr;
                /* Start skew: device 0's roles wait 16 * skew, the others key * skew (key 0..32). */
                if (p->ngpus > 1 && env->skew > 0) {
                    kw[PI_SKEW_A] = K->dev == 0 ? 16ull * (unsigned long long)env->skew : 0;
                    kw[PI_SKEW_B] = K->dev == 0 ? 0 : (unsigned long long)env->skew;
                } else {
                    kw[PI_SKEW_A] = kw[PI_SKEW_B] = 0;
                }
                if (kstream[k] != cstream)
                    GK(g->wait(g, dev, kstream[k], cdone));
                for (int a = 0; a < K->nafter; a++)
                    GK(g->wait(g, dev, kstream[k], kdone[K->after[a]]));
                GK(g->launch(g, dev, s->kfn[k], (unsigned)nb, (unsigned)env->block, kstream[k], kw, np));
                GK(g->record(g, dev, kdone[k], kstream[k]));
            }
            for (int k = 0; k < p->nk; k++)
                if (kstream[k] != cstream)
                    GK(g->wait(g, dev0, cstream, kdone[k]));
            GK(g->launch(g, dev0, s->check, check_grid, 256, cstream, w, np));
            GK(g->record(g, dev0, cdone, cstream));
        }
        GK(g->sync(g, dev0, cstream));
        double now = hw_now();
        out->launches = launch;
        out->instances = launch * N;
        out->seconds = now - t_start;
        /* Counts so far, and the states no model produced. */
        GK(g->to_host(g, dev0, hbuf, hist.ptr, (size_t)(out->nbuckets + 1) * 8));
        for (int i = 0; i < out->nbuckets; i++)
            if (hbuf[i] && out->first_seen[i] < 0) {
                out->first_seen[i] = out->seconds;
                out->first_launches[i] = launch;
            }
        GK(g->to_host(g, dev0, xbuf, extra.ptr, 8));
        unsigned nx = (unsigned)xbuf[0];
        if (nx) {
            unsigned take = nx < EXTRA_CAP ? nx : EXTRA_CAP;
            GK(g->to_host(g, dev0, xbuf, extra.ptr + 8, (size_t)take * (size_t)(ns ? ns : 1) * 8));
            for (unsigned i = 0; i < take; i++)
                extra_add(out, ns, xbuf + (size_t)i * (ns ? ns : 1), 1);
            out->extra_dropped += nx - take;
            GK(g->memset_async(g, dev0, extra.ptr, 8, cstream));
        }
        if (out->instances >= max_instances || out->seconds >= max_seconds)
            break;
        /* Batches of about a tenth of a second, never past the instance target. */
        double per = (now - t_last) / (double)batch;
        t_last = now;
        uint64_t want = per > 0 ? (uint64_t)(0.1 / per) : batch * 2;
        if (want > batch * 2)
            want = batch * 2; /* grow geometrically: early batches small, so first_seen is fine-grained */
        if (want < 1)
            want = 1;
        if (want > 2000)
            want = 2000;
        uint64_t left = (max_instances - out->instances) / N + ((max_instances - out->instances) % N != 0);
        double tleft = max_seconds - out->seconds;
        if (per > 0 && (uint64_t)(tleft / per) + 1 < want)
            want = (uint64_t)(tleft / per) + 1;
        batch = want < left ? want : left;
        if (batch < 1)
            batch = 1;
    }
    memcpy(out->hist, hbuf, (size_t)out->nbuckets * sizeof *out->hist);
    out->barrier_timeouts = hbuf[out->nbuckets];
out:
    if (cstream)
        g->sync(g, dev0, cstream);
    for (int k = 0; k < p->nk && k < 64; k++) {
        if (own_stream[k])
            g->stream_free(g, s->phys[p->k[k].dev], kstream[k]);
        if (kdone[k])
            g->event_free(g, s->phys[p->k[k].dev], kdone[k]);
    }
    if (cdone)
        g->event_free(g, dev0, cdone);
    if (cstream)
        g->stream_free(g, dev0, cstream);
    for (int l = 0; l < nloc; l++)
        if (locb[l].ptr)
            g->release(g, locb[l].dev, locb[l].ptr, locb[l].kind);
    for (int r = 0; r < PLAN_MAX_GPUS; r++)
        if (heapb[r].ptr)
            g->release(g, heapb[r].dev, heapb[r].ptr, heapb[r].kind);
    buf all[] = {regs, status, hist, extra, bar};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        g->release(g, all[i].dev, all[i].ptr, MEM_DEVICE);
    for (int d = 0; d < p->ngpus; d++)
        if (scratch[d].ptr)
            g->release(g, scratch[d].dev, scratch[d].ptr, MEM_DEVICE);
    free(locb);
    free(prm);
    free(hbuf);
    free(xbuf);
    return rc;
}
