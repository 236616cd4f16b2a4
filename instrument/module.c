/* Loading kernels: .ll and .bc through LLVM's parser; .hip and .cu through
 * clang first.  And the control-flow facts the translation needs. */
#include <errno.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static bool file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static bool on_path(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char *copy = strdup(path), *save = NULL;
    bool found = false;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s/%s", d, prog);
        found = access(buf, X_OK) == 0;
    }
    free(copy);
    return found;
}

/* Runs clang on a .hip or .cu file, writing LLVM IR text to out. */
static int compile(const char *src, const char *out, const instr_opts *o, char *err, size_t errsz)
{
    const char *clang = o->clang ? o->clang : "clang-22";
    bool cuda = ends_with(src, ".cu");
    if (!on_path(clang)) {
        snprintf(err, errsz, "%s: error: the compiler '%s' is not installed, so this %s kernel cannot be compiled "
                             "(apt-get install clang-22), or name its .ll in the launch file",
                 src, clang, cuda ? "CUDA" : "HIP");
        return -1;
    }
    const char *cuda_path = o->cuda_path ? o->cuda_path : "/usr/local/cuda";
    char cudaflag[4200], cccl[4200];
    snprintf(cudaflag, sizeof cudaflag, "--cuda-path=%s", cuda_path);
    snprintf(cccl, sizeof cccl, "-I%s/include/cccl", cuda_path);
    if (cuda) {
        char hdr[4200];
        snprintf(hdr, sizeof hdr, "%s/include/cuda_runtime.h", cuda_path);
        if (!file_exists(hdr)) {
            snprintf(err, errsz, "%s: error: no CUDA toolkit at %s (%s is missing), so this CUDA kernel cannot be "
                                 "compiled; give --cuda-path, or name its .ll in the launch file",
                     src, cuda_path, hdr);
            return -1;
        }
    } else if (!file_exists("/usr/include/hip/hip_runtime.h")) {
        snprintf(err, errsz, "%s: error: the HIP headers are not installed (apt-get install libamdhip64-dev hipcc), "
                             "so this HIP kernel cannot be compiled; or name its .ll in the launch file", src);
        return -1;
    }
    const char *argv[64];
    int n = 0;
    argv[n++] = clang;
    if (cuda) {
        argv[n++] = "-x";
        argv[n++] = "cuda";
        argv[n++] = "--cuda-gpu-arch=sm_90";
        argv[n++] = cudaflag;
        /* libcu++ (cuda::atomic_ref) lives in the toolkit's cccl folder; clang 22
         * knows CUDA up to 12.9 and warns about newer toolkits */
        argv[n++] = "-std=c++17";
        argv[n++] = cccl;
        argv[n++] = "-Wno-unknown-cuda-version";
    } else {
        /* Debian's HIP headers (ROCm 5.2) with a newer clang: the wavefront
         * size macro they expect is no longer predefined for device code. */
        argv[n++] = "-x";
        argv[n++] = "hip";
        argv[n++] = "--offload-arch=gfx942";
        argv[n++] = "-nogpulib";
        argv[n++] = "-D__AMDGCN_WAVEFRONT_SIZE=64";
    }
    argv[n++] = "--cuda-device-only";
    argv[n++] = "-emit-llvm";
    argv[n++] = "-S";
    argv[n++] = "-O1";
    argv[n++] = "-g";
    for (int i = 0; i < o->ncompile_flags && n < 56; i++)
        argv[n++] = o->compile_flags[i];
    argv[n++] = src;
    argv[n++] = "-o";
    argv[n++] = out;
    argv[n] = NULL;
    char logpath[] = "/tmp/memsim-clang-XXXXXX";
    int lfd = mkstemp(logpath);
    if (lfd < 0) {
        snprintf(err, errsz, "error: cannot make a temporary file: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(lfd, 1);
        dup2(lfd, 2);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    char log[2048] = "";
    lseek(lfd, 0, SEEK_SET);
    ssize_t got = read(lfd, log, sizeof log - 1);
    log[got > 0 ? got : 0] = 0;
    close(lfd);
    unlink(logpath);
    if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, errsz, "%s: error: %s failed to compile it:\n%s", src, clang, log);
        return -1;
    }
    return 0;
}

module *module_load(const char *path, const instr_opts *o, char *err, size_t errsz)
{
    char tmp[64] = "";
    const char *ir = path;
    if (ends_with(path, ".hip") || ends_with(path, ".cu")) {
        if (!file_exists(path)) {
            snprintf(err, errsz, "%s: error: %s", path, strerror(ENOENT));
            return NULL;
        }
        snprintf(tmp, sizeof tmp, "/tmp/memsim-kernel-XXXXXX");
        int fd = mkstemp(tmp);
        if (fd < 0) {
            snprintf(err, errsz, "error: cannot make a temporary file: %s", strerror(errno));
            return NULL;
        }
        close(fd);
        if (compile(path, tmp, o, err, errsz) != 0) {
            unlink(tmp);
            return NULL;
        }
        ir = tmp;
    } else if (!ends_with(path, ".ll") && !ends_with(path, ".bc")) {
        snprintf(err, errsz, "%s: error: a kernel comes from .hip, .cu, .ll or .bc", path);
        return NULL;
    }
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(ir, &buf, &msg)) {
        snprintf(err, errsz, "%s: error: %s", path, msg ? msg : "cannot read");
        LLVMDisposeMessage(msg);
        if (tmp[0])
            unlink(tmp);
        return NULL;
    }
    if (tmp[0])
        unlink(tmp);
    module *m = calloc(1, sizeof *m);
    m->path = strdup(path);
    m->ctx = LLVMContextCreate();
    if (LLVMParseIRInContext(m->ctx, buf, &m->mod, &msg)) { /* takes the buffer */
        snprintf(err, errsz, "%s: error: LLVM cannot read it: %s", path, msg ? msg : "");
        LLVMDisposeMessage(msg);
        LLVMContextDispose(m->ctx);
        free(m->path);
        free(m);
        return NULL;
    }
    m->td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m->mod));
    const char *triple = LLVMGetTarget(m->mod);
    /* Triton's NVIDIA IR names no triple: an AMDGPU data layout says A5 (private memory in address space 5) */
    m->nvptx = (triple && strncmp(triple, "nvptx", 5) == 0) ||
               ((!triple || !*triple) && !strstr(LLVMGetDataLayoutStr(m->mod), "-A5"));
#define SS(field, name) m->field = LLVMGetSyncScopeID(m->ctx, name, strlen(name))
    SS(ss_wave, "wavefront");
    SS(ss_wg, "workgroup");
    SS(ss_agent, "agent");
    SS(ss_sys, "");
    SS(ss_single, "singlethread");
    SS(ss_wave1, "wavefront-one-as");
    SS(ss_wg1, "workgroup-one-as");
    SS(ss_agent1, "agent-one-as");
    SS(ss_sys1, "one-as");
    SS(ss_block, "block");
    SS(ss_device, "device");
    SS(ss_cluster, "cluster");
#undef SS
    m->md_nontemporal = LLVMGetMDKindIDInContext(m->ctx, "nontemporal", 11);
    return m;
}

void module_free(module *m)
{
    if (!m)
        return;
    LLVMDisposeTargetData(m->td);
    LLVMDisposeModule(m->mod);
    LLVMContextDispose(m->ctx);
    free(m->path);
    free(m);
}

/* The kernel by its source name: exact, or a C++ (Itanium) mangled name. */
LLVMValueRef module_find_kernel(module *m, const char *name)
{
    char mangled[512];
    snprintf(mangled, sizeof mangled, "_Z%zu%s", strlen(name), name);
    LLVMValueRef found = NULL;
    for (LLVMValueRef f = LLVMGetFirstFunction(m->mod); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (strcmp(n, name) == 0)
            return f;
        if (strncmp(n, mangled, strlen(mangled)) == 0 && !found)
            found = f;
    }
    return found;
}

/* ---- control flow --------------------------------------------------------------------- */

int cfg_index(const cfg *g, LLVMBasicBlockRef b)
{
    for (int i = 0; i < g->n; i++)
        if (g->bb[i] == b)
            return i;
    return -1;
}

bool cfg_reaches(const cfg *g, int a, int b)
{
    return (g->reach[(size_t)a * (size_t)g->words + (size_t)(b / 64)] >> (b % 64)) & 1;
}

static int succs(const cfg *g, int i, int *out)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(g->bb[i]);
    int n = term ? (int)LLVMGetNumSuccessors(term) : 0;
    for (int k = 0; k < n; k++)
        out[k] = cfg_index(g, LLVMGetSuccessor(term, (unsigned)k));
    return n;
}

static cfg *cfg_build(LLVMValueRef fn)
{
    cfg *g = calloc(1, sizeof *g);
    g->fn = fn;
    g->n = (int)LLVMCountBasicBlocks(fn);
    g->bb = calloc((size_t)g->n + 1, sizeof *g->bb);
    LLVMGetBasicBlocks(fn, g->bb);
    g->words = (g->n + 1 + 63) / 64;
    size_t W = (size_t)g->words;
    g->reach = calloc((size_t)g->n * W + 1, sizeof *g->reach);
    int *sv = malloc(sizeof(int) * 4096);
    /* reach: one step, then closure (Warshall over bitsets) */
    for (int i = 0; i < g->n; i++) {
        int k = succs(g, i, sv);
        for (int s = 0; s < k && s < 4096; s++)
            if (sv[s] >= 0)
                g->reach[(size_t)i * W + (size_t)(sv[s] / 64)] |= 1ull << (sv[s] % 64);
    }
    for (int k = 0; k < g->n; k++)
        for (int i = 0; i < g->n; i++)
            if (cfg_reaches(g, i, k))
                for (size_t w = 0; w < W; w++)
                    g->reach[(size_t)i * W + w] |= g->reach[(size_t)k * W + w];
    /* post-dominators over the blocks and a virtual exit (index n) */
    int N = g->n + 1;
    uint64_t *pd = malloc((size_t)N * W * sizeof *pd);
    for (int i = 0; i < N; i++)
        for (size_t w = 0; w < W; w++)
            pd[(size_t)i * W + w] = ~0ull;
    for (size_t w = 0; w < W; w++)
        pd[(size_t)g->n * W + w] = 0;
    pd[(size_t)g->n * W + (size_t)(g->n / 64)] |= 1ull << (g->n % 64);
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = g->n - 1; i >= 0; i--) {
            int k = succs(g, i, sv);
            uint64_t nw[W];
            for (size_t w = 0; w < W; w++)
                nw[w] = ~0ull;
            if (k == 0) { /* ret or unreachable: to the virtual exit */
                for (size_t w = 0; w < W; w++)
                    nw[w] = pd[(size_t)g->n * W + w];
            }
            for (int s = 0; s < k; s++)
                for (size_t w = 0; w < W; w++)
                    nw[w] &= pd[(size_t)(sv[s] >= 0 ? sv[s] : g->n) * W + w];
            nw[i / 64] |= 1ull << (i % 64);
            if (memcmp(nw, &pd[(size_t)i * W], W * sizeof *pd) != 0) {
                memcpy(&pd[(size_t)i * W], nw, W * sizeof *pd);
                changed = true;
            }
        }
    }
    g->endless = calloc((size_t)g->n + 1, sizeof *g->endless);
    for (int i = 0; i < g->n; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(g->bb[i]);
        bool ends = !term || LLVMGetInstructionOpcode(term) == LLVMRet;
        for (int j = 0; j < g->n && !ends; j++) {
            LLVMValueRef tj = LLVMGetBasicBlockTerminator(g->bb[j]);
            ends = cfg_reaches(g, i, j) && tj && LLVMGetInstructionOpcode(tj) == LLVMRet;
        }
        g->endless[i] = !ends;
    }
    g->ipdom = malloc((size_t)g->n * sizeof *g->ipdom);
    for (int i = 0; i < g->n; i++) {
        /* the strict post-dominator that every other one post-dominates: the largest set */
        int best = -1, bestsize = -1;
        for (int p = 0; p < g->n; p++) {
            if (p == i || !((pd[(size_t)i * W + (size_t)(p / 64)] >> (p % 64)) & 1))
                continue;
            int size = 0;
            for (size_t w = 0; w < W; w++)
                size += __builtin_popcountll(pd[(size_t)p * W + w]);
            if (size > bestsize) {
                bestsize = size;
                best = p;
            }
        }
        g->ipdom[i] = best;
    }
    free(pd);
    free(sv);
    return g;
}

cfg *cfg_of(xlate *x, LLVMValueRef fn)
{
    for (int i = 0; i < x->ncfgs; i++)
        if (x->cfgs[i]->fn == fn)
            return x->cfgs[i];
    x->cfgs = realloc(x->cfgs, (size_t)(x->ncfgs + 1) * sizeof *x->cfgs);
    return x->cfgs[x->ncfgs++] = cfg_build(fn);
}
