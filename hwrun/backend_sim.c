/* A host simulator of the GPU runtime, for testing the whole hwrun pipeline
 * where there is no GPU (CI, this build machine): the HIP kernels are built
 * with the host C++ compiler against a small shim (threads for GPU threads,
 * a pthread barrier per block for __syncthreads, the __atomic builtins for
 * __hip_atomic_*), every GPU thread of a launch runs as a host thread, and
 * kernels the harness launches without an order between them run at the
 * same time.  It exercises placement, permutations, the outcome histogram,
 * resets, timeouts and the report; it says nothing about any GPU. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"
#include "util.h"

static const char shim[] =
    "#include <pthread.h>\n#include <sched.h>\n#include <string.h>\n#include <time.h>\n#include <stdint.h>\n"
    "struct dim3 { unsigned x, y, z; };\n"
    "static __thread dim3 ms_sim_tid, ms_sim_bid, ms_sim_bdim, ms_sim_gdim;\n"
    "static __thread pthread_barrier_t *ms_sim_bar;\n"
    "extern \"C\" void ms_sim_setup(unsigned t, unsigned b, unsigned bd, unsigned gd, pthread_barrier_t *bar)\n"
    "{ ms_sim_tid = {t, 0, 0}; ms_sim_bid = {b, 0, 0}; ms_sim_bdim = {bd, 1, 1}; ms_sim_gdim = {gd, 1, 1}; ms_sim_bar = bar; }\n"
    "#define threadIdx ms_sim_tid\n#define blockIdx ms_sim_bid\n#define blockDim ms_sim_bdim\n#define gridDim ms_sim_gdim\n"
    "#define __global__\n#define __device__\n#define __constant__\n#define __shared__ static\n"
    "#define __forceinline__ inline\n#define __noinline__ __attribute__((noinline))\n#define __launch_bounds__(x)\n"
    "static inline void __syncthreads() { pthread_barrier_wait(ms_sim_bar); }\n"
    "/* Every spin reads the clock: yielding there lets hundreds of host threads share a few cores. */\n"
    "static inline long long clock64() { sched_yield(); struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (long long)t.tv_sec * 1000000000ll + t.tv_nsec; }\n"
    "static inline unsigned atomicAdd(unsigned *p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }\n"
    "static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }\n"
    "static inline unsigned atomicOr(unsigned *p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }\n"
    "enum { __HIP_MEMORY_SCOPE_SINGLETHREAD = 1, __HIP_MEMORY_SCOPE_WAVEFRONT, __HIP_MEMORY_SCOPE_WORKGROUP, __HIP_MEMORY_SCOPE_AGENT, __HIP_MEMORY_SCOPE_SYSTEM };\n"
    "#define __hip_atomic_load(p, o, s) __atomic_load_n((p), (o))\n"
    "#define __hip_atomic_store(p, v, o, s) __atomic_store_n((p), (v), (o))\n"
    "#define __hip_atomic_exchange(p, v, o, s) __atomic_exchange_n((p), (v), (o))\n"
    "#define __hip_atomic_fetch_and(p, v, o, s) __atomic_fetch_and((p), (v), (o))\n"
    "#define __hip_atomic_fetch_or(p, v, o, s) __atomic_fetch_or((p), (v), (o))\n"
    "#define __hip_atomic_fetch_xor(p, v, o, s) __atomic_fetch_xor((p), (v), (o))\n"
    "#define __hip_atomic_compare_exchange_strong(p, e, d, so, fo, s) __atomic_compare_exchange_n((p), (e), (d), false, (so), (fo))\n"
    "template <class T> static inline T ms_sim_rmw(T *p, T v, int o, int op) {\n"
    "    T old = __atomic_load_n(p, __ATOMIC_RELAXED);\n"
    "    for (;;) { T n = op == 0 ? (T)(old + v) : op == 1 ? (v < old ? v : old) : (v > old ? v : old);\n"
    "        if (__atomic_compare_exchange_n(p, &old, n, false, o, __ATOMIC_RELAXED)) return old; }\n}\n"
    "static inline float ms_sim_fadd(float *p, float v, int o) {\n"
    "    unsigned old = __atomic_load_n((unsigned *)p, __ATOMIC_RELAXED);\n"
    "    for (;;) { float f; memcpy(&f, &old, 4); f += v; unsigned n; memcpy(&n, &f, 4);\n"
    "        if (__atomic_compare_exchange_n((unsigned *)p, &old, n, false, o, __ATOMIC_RELAXED)) { memcpy(&f, &old, 4); return f; } }\n}\n"
    "template <class T> static inline T ms_sim_add(T *p, T v, int o) { return __atomic_fetch_add(p, v, o); }\n"
    "static inline float ms_sim_add(float *p, float v, int o) { return ms_sim_fadd(p, v, o); }\n"
    "#define __hip_atomic_fetch_add(p, v, o, s) ms_sim_add((p), (v), (o))\n"
    "#define __hip_atomic_fetch_min(p, v, o, s) ms_sim_rmw((p), (v), (o), 1)\n"
    "#define __hip_atomic_fetch_max(p, v, o, s) ms_sim_rmw((p), (v), (o), 2)\n"
    "#define __builtin_amdgcn_fence(o, s) __atomic_thread_fence(o)\n"
    "static inline float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }\n"
    "static inline unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }\n"
    "static inline float unsafeAtomicAdd(float *p, float v) { return ms_sim_fadd(p, v, __ATOMIC_RELAXED); }\n";

typedef void (*entry_fn)(const unsigned long long *);
typedef void (*setup_fn)(unsigned, unsigned, unsigned, unsigned, pthread_barrier_t *);

typedef struct {
    entry_fn f;
    setup_fn setup;
    bool check;
} sim_fn;

typedef struct {
    sim_fn *fn;
    unsigned grid, block;
    unsigned long long *w;
    void *stream;
} pending;

typedef struct {
    pending *q;
    int n, cap;
    char dir[256];
    int nlib;
    void **mods;     /* loaded libraries and function handles, released at shutdown */
    int nmods;
    sim_fn **fns;
    int nfns;
} sim_impl;

typedef struct {
    bool pending;
} sim_event;

#define IMPL(g) ((sim_impl *)(g)->impl)

typedef struct {
    const sim_fn *fn;
    const unsigned long long *w;
    unsigned tid, bid, bdim, gdim;
    pthread_barrier_t *bar;
} thread_arg;

static void *thread_main(void *p)
{
    thread_arg *a = p;
    a->fn->setup(a->tid, a->bid, a->bdim, a->gdim, a->bar);
    a->fn->f(a->w);
    return NULL;
}

/* Runs launches [0, n) at once (every thread a host thread), or block by block. */
static int run_launches(hw_gpu *g, pending *ls, int n, bool by_block)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += (size_t)ls[i].grid * ls[i].block;
    /* Refuse up front: a block started only in part would wait at its barrier for ever. */
    if (!by_block && total > 8192) {
        snprintf(g->err, sizeof g->err, "simulator: a launch of %zu threads is more than it runs (8192); use a smaller "
                 "block or m", total);
        return -1;
    }
    if (by_block) {
        for (int i = 0; i < n; i++)
            for (unsigned b = 0; b < ls[i].grid; b++) {
                pending one = ls[i];
                one.grid = 1;
                /* One block at a time, with its real index. */
                pthread_barrier_t bar;
                pthread_barrier_init(&bar, NULL, one.block);
                thread_arg *args = calloc(one.block, sizeof *args);
                pthread_t *th = calloc(one.block, sizeof *th);
                pthread_attr_t at;
                pthread_attr_init(&at);
                pthread_attr_setstacksize(&at, 1 << 18);
                for (unsigned t = 0; t < one.block; t++) {
                    args[t] = (thread_arg){one.fn, one.w, t, b, one.block, ls[i].grid, &bar};
                    if (pthread_create(&th[t], &at, thread_main, &args[t]) != 0) {
                        snprintf(g->err, sizeof g->err, "simulator: cannot start a thread");
                        return -1;
                    }
                }
                for (unsigned t = 0; t < one.block; t++)
                    pthread_join(th[t], NULL);
                pthread_attr_destroy(&at);
                pthread_barrier_destroy(&bar);
                free(args);
                free(th);
            }
        return 0;
    }
    thread_arg *args = calloc(total, sizeof *args);
    pthread_t *th = calloc(total, sizeof *th);
    int nbars = 0;
    for (int i = 0; i < n; i++)
        nbars += (int)ls[i].grid;
    pthread_barrier_t *bars = calloc((size_t)nbars, sizeof *bars);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 1 << 18);
    size_t k = 0;
    int bi = 0, rc = 0;
    for (int i = 0; i < n; i++)
        for (unsigned b = 0; b < ls[i].grid; b++, bi++) {
            pthread_barrier_init(&bars[bi], NULL, ls[i].block);
            for (unsigned t = 0; t < ls[i].block; t++, k++)
                args[k] = (thread_arg){ls[i].fn, ls[i].w, t, b, ls[i].block, ls[i].grid, &bars[bi]};
        }
    size_t started = 0;
    for (; started < total; started++)
        if (pthread_create(&th[started], &at, thread_main, &args[started]) != 0) {
            snprintf(g->err, sizeof g->err, "simulator: cannot start %zu threads", total);
            rc = -1;
            break;
        }
    for (size_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < nbars; i++)
        pthread_barrier_destroy(&bars[i]);
    pthread_attr_destroy(&at);
    free(bars);
    free(args);
    free(th);
    return rc;
}

static int flush(hw_gpu *g)
{
    sim_impl *s = IMPL(g);
    int rc = s->n ? run_launches(g, s->q, s->n, false) : 0;
    for (int i = 0; i < s->n; i++)
        free(s->q[i].w);
    s->n = 0;
    return rc;
}

static int s_compile(hw_gpu *g, const char *arch, const char *src, const char *fname, void **image, size_t *size,
                     char **text, char **log)
{
    (void)arch;
    (void)fname;
    sim_impl *s = IMPL(g);
    if (text)
        *text = NULL;
    if (log)
        *log = NULL;
    char cpp[512], so[512], cmd[2048];
    snprintf(cpp, sizeof cpp, "%s/k%d.cpp", s->dir, s->nlib);
    snprintf(so, sizeof so, "%s/k%d.so", s->dir, s->nlib);
    s->nlib++;
    FILE *f = fopen(cpp, "w");
    if (!f) {
        snprintf(g->err, sizeof g->err, "simulator: cannot write %s", cpp);
        return -1;
    }
    fprintf(f, "#define MS_HOST_SIM 1\n%s\n%s", shim, src);
    fclose(f);
    const char *cxx = getenv("CXX");
    snprintf(cmd, sizeof cmd, "%s -std=c++17 -O1 -w -fPIC -shared -pthread -o '%s' '%s' 2>&1", cxx && *cxx ? cxx : "c++",
             so, cpp);
    FILE *pp = popen(cmd, "r");
    sbuf out = {0};
    char line[512];
    while (pp && fgets(line, sizeof line, pp))
        sb_puts(&out, line);
    int st = pp ? pclose(pp) : -1;
    if (st != 0) {
        snprintf(g->err, sizeof g->err, "simulator: the host C++ compiler failed on %.200s:\n%.1200s", cpp,
                 out.s ? out.s : "");
        sb_free(&out);
        return -1;
    }
    sb_free(&out);
    *image = strdup(so);
    *size = strlen(so) + 1;
    return 0;
}

static int s_load(hw_gpu *g, int dev, const void *image, size_t size, void **module)
{
    (void)dev;
    (void)size;
    *module = dlopen((const char *)image, RTLD_NOW | RTLD_LOCAL);
    if (!*module) {
        snprintf(g->err, sizeof g->err, "simulator: %s", dlerror());
        return -1;
    }
    sim_impl *s = IMPL(g);
    s->mods = realloc(s->mods, (size_t)(s->nmods + 1) * sizeof *s->mods);
    s->mods[s->nmods++] = *module;
    return 0;
}

static int s_function(hw_gpu *g, void *module, const char *name, void **fn)
{
    char nm[256];
    snprintf(nm, sizeof nm, "%s_host", name);
    sim_fn *f = calloc(1, sizeof *f);
    *(void **)&f->f = dlsym(module, nm);
    *(void **)&f->setup = dlsym(module, "ms_sim_setup");
    if (!f->f || !f->setup) {
        free(f);
        snprintf(g->err, sizeof g->err, "simulator: no %s", nm);
        return -1;
    }
    size_t n = strlen(name);
    f->check = n > 6 && strcmp(name + n - 6, "_check") == 0;
    *fn = f;
    sim_impl *s = IMPL(g);
    s->fns = realloc(s->fns, (size_t)(s->nfns + 1) * sizeof *s->fns);
    s->fns[s->nfns++] = f;
    return 0;
}

/* Libraries stay loaded until shutdown (function handles point into them). */
static void s_unload(hw_gpu *g, int dev, void *module)
{
    (void)g;
    (void)dev;
    (void)module;
}

static int s_alloc(hw_gpu *g, int dev, size_t bytes, memkind_t kind, unsigned long long *ptr, const char **how)
{
    (void)dev;
    (void)kind;
    void *p = NULL;
    if (posix_memalign(&p, 256, bytes ? bytes : 1) != 0) {
        snprintf(g->err, sizeof g->err, "simulator: out of memory");
        return -1;
    }
    memset(p, 0, bytes);
    *ptr = (unsigned long long)(size_t)p;
    *how = "host memory (simulator)";
    return 0;
}

static void s_release(hw_gpu *g, int dev, unsigned long long ptr, memkind_t kind)
{
    (void)dev;
    (void)kind;
    flush(g);
    free((void *)(size_t)ptr);
}

static int s_memset(hw_gpu *g, int dev, unsigned long long ptr, size_t bytes, void *stream)
{
    (void)dev;
    (void)stream;
    if (flush(g))
        return -1;
    memset((void *)(size_t)ptr, 0, bytes);
    return 0;
}

static int s_to_host(hw_gpu *g, int dev, void *dst, unsigned long long src, size_t bytes)
{
    (void)dev;
    if (flush(g))
        return -1;
    memcpy(dst, (void *)(size_t)src, bytes);
    return 0;
}

static int s_stream(hw_gpu *g, int dev, void **s)
{
    (void)g;
    (void)dev;
    *s = malloc(1);
    return 0;
}

static void s_stream_free(hw_gpu *g, int dev, void *s)
{
    (void)g;
    (void)dev;
    free(s);
}

static int s_event(hw_gpu *g, int dev, void **e)
{
    (void)g;
    (void)dev;
    *e = calloc(1, sizeof(sim_event));
    return 0;
}

static void s_event_free(hw_gpu *g, int dev, void *e)
{
    (void)g;
    (void)dev;
    free(e);
}

static int s_record(hw_gpu *g, int dev, void *e, void *s)
{
    (void)dev;
    sim_impl *si = IMPL(g);
    bool pend = false;
    for (int i = 0; i < si->n; i++)
        pend = pend || si->q[i].stream == s;
    ((sim_event *)e)->pending = pend;
    return 0;
}

static int s_wait(hw_gpu *g, int dev, void *s, void *e)
{
    (void)dev;
    (void)s;
    if (((sim_event *)e)->pending) {
        ((sim_event *)e)->pending = false;
        return flush(g);
    }
    return 0;
}

static int s_launch(hw_gpu *g, int dev, void *fn, unsigned grid, unsigned block, void *stream, unsigned long long *params,
                    int nparams)
{
    (void)dev;
    sim_impl *s = IMPL(g);
    sim_fn *f = fn;
    pending l = {f, grid, block, malloc((size_t)nparams * sizeof *params), stream};
    memcpy(l.w, params, (size_t)nparams * sizeof *params);
    if (f->check) {
        /* The check kernel uses block-shared memory (a static here): blocks one at a time. */
        if (flush(g))
            return -1;
        int rc = run_launches(g, &l, 1, true);
        free(l.w);
        return rc;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->q = realloc(s->q, (size_t)s->cap * sizeof *s->q);
    }
    s->q[s->n++] = l;
    return 0;
}

static int s_sync(hw_gpu *g, int dev, void *stream)
{
    (void)dev;
    (void)stream;
    return flush(g);
}

static int s_occupancy(hw_gpu *g, int dev, void *fn, int block, int *blocks)
{
    (void)g;
    (void)dev;
    (void)fn;
    *blocks = block <= 64 ? 2 : 1;
    return 0;
}

static int s_peer(hw_gpu *g, int dev, int peer, int *native)
{
    (void)g;
    (void)dev;
    (void)peer;
    *native = 1;
    return 0;
}

static void s_shutdown(hw_gpu *g)
{
    sim_impl *s = IMPL(g);
    if (!s)
        return;
    flush(g);
    free(s->q);
    for (int i = 0; i < s->nfns; i++)
        free(s->fns[i]);
    free(s->fns);
    for (int i = 0; i < s->nmods; i++)
        dlclose(s->mods[i]);
    free(s->mods);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    if (s->dir[0] && system(cmd) != 0)
        fprintf(stderr, "memsim hwrun: could not remove %s\n", s->dir);
    free(s);
    g->impl = NULL;
}

int sim_open(hw_gpu *g, int ngpus, char *why, size_t whysz)
{
    memset(g, 0, sizeof *g);
    sim_impl *s = calloc(1, sizeof *s);
    g->impl = s;
    snprintf(s->dir, sizeof s->dir, "/tmp/memsim-sim-XXXXXX");
    if (!mkdtemp(s->dir)) {
        snprintf(why, whysz, "simulator: cannot make a temporary folder");
        free(s);
        return -1;
    }
    g->kind = BK_HIP; /* the HIP kernels, built for the host */
    g->name = "sim";
    g->compile = s_compile;
    g->load = s_load;
    g->function = s_function;
    g->unload = s_unload;
    g->alloc = s_alloc;
    g->release = s_release;
    g->memset_async = s_memset;
    g->to_host = s_to_host;
    g->stream = s_stream;
    g->stream_free = s_stream_free;
    g->event = s_event;
    g->event_free = s_event_free;
    g->record = s_record;
    g->wait = s_wait;
    g->launch = s_launch;
    g->sync = s_sync;
    g->occupancy = s_occupancy;
    g->peer = s_peer;
    g->shutdown = s_shutdown;
    g->ndev = ngpus < 1 ? 1 : ngpus > GPU_MAX_DEV ? GPU_MAX_DEV : ngpus;
    for (int d = 0; d < g->ndev; d++) {
        snprintf(g->dev[d].name, sizeof g->dev[d].name, "memsim host simulator %d", d);
        snprintf(g->dev[d].arch, sizeof g->dev[d].arch, "host");
        g->dev[d].sms = 2;
        g->dev[d].max_threads_per_sm = 128;
        g->dev[d].clock_khz = 1000000;
        g->dev[d].host_native_atomics = 1;
    }
    snprintf(g->driver, sizeof g->driver, "memsim host simulator (host threads; not a GPU)");
    snprintf(g->compiler, sizeof g->compiler, "host C++ compiler ($CXX or c++)");
    return 0;
}
