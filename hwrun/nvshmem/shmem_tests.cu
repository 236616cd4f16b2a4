// The SHMEM tests of litmus/shmem/ written as NVSHMEM programs a user would
// write (nvshmemx_int_put_nbi_block, nvshmem_quiet, nvshmem_fence,
// nvshmem_uint64_atomic_inc, nvshmem_uint64_wait_until, nvshmem_int_p) and run
// through the NVSHMEM device library on two GPUs, one PE each, many instances
// of a test at once (one instance per block index, the same block index on
// both PEs).  hwrun runs the same tests as the memory operations memsim
// desugars the calls to; this program is the other half of the evidence: what
// the library itself does.  It is written by hand, not generated, and each
// kernel follows its .lit file line for line (the file is named in `tests`).
//
// Build and run: hwrun/nvshmem/run.sh (on a machine with two or three GPUs,
// nvcc and the nvidia-nvshmem wheel).  One process forks the others; they
// meet through NVSHMEM's unique-id bootstrap over a pipe, so no MPI is needed.
// With NPES = 2 the two-PE tests run, with NPES = 3 the three-PE ones.
//
// Usage: shmem_tests LAUNCHES [BLOCKS [NPES [FILE-SUBSTRING]]]
//
// Output: one JSON object per test on stdout (PE 0 prints), with the number
// of instances, the histogram of final states and how many satisfied the
// test's `exists` condition.
#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CK(x)                                                                                       \
    do {                                                                                            \
        cudaError_t e_ = (x);                                                                       \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(3);                                                                                \
        }                                                                                           \
    } while (0)

enum { STENCIL_QUIET, STENCIL_NO_QUIET, STENCIL_FENCE, STENCIL_WRONG_EPOCH, STENCIL_WAIT_NO_BARRIER };
enum { MP_QUIET, MP_NO_QUIET };
enum { KERNEL_STENCIL, KERNEL_MP, KERNEL_OTHER_PE };

static const struct {
    const char *file;
    int kernel;
    int variant;
    int niter;    // the .lit file's NITER (stencils)
    int npes;     // the PEs the test has
} tests[] = {
    {"litmus/shmem/stencil_nvshmem.lit", KERNEL_STENCIL, STENCIL_QUIET, 2, 2},
    {"litmus/shmem/stencil_nvshmem_no_quiet.lit", KERNEL_STENCIL, STENCIL_NO_QUIET, 1, 2},
    {"litmus/shmem/stencil_nvshmem_fence.lit", KERNEL_STENCIL, STENCIL_FENCE, 1, 2},
    {"litmus/shmem/stencil_nvshmem_wrong_epoch.lit", KERNEL_STENCIL, STENCIL_WRONG_EPOCH, 1, 2},
    {"litmus/shmem/stencil_nvshmem_wait_no_barrier.lit", KERNEL_STENCIL, STENCIL_WAIT_NO_BARRIER, 1, 2},
    {"litmus/shmem/mp_p_quiet_atomic_inc.lit", KERNEL_MP, MP_QUIET, 0, 2},
    {"litmus/shmem/mp_p_no_quiet_atomic_inc.lit", KERNEL_MP, MP_NO_QUIET, 0, 2},
    {"litmus/shmem/quiet_other_pe.lit", KERNEL_OTHER_PE, MP_QUIET, 0, 3},
    {"litmus/shmem/fence_other_pe.lit", KERNEL_OTHER_PE, MP_NO_QUIET, 0, 3},
};

// A few hundred cycles of start skew per block, different each launch, so
// that the two PEs' blocks meet at varying offsets.
__device__ static void skew(unsigned launch, unsigned block)
{
    unsigned h = (launch * 2654435761u) ^ (block * 40503u);
    h ^= h >> 13;
    long long until = clock64() + (long long)(h % 16) * 64;
    while (clock64() < until) {
    }
}

// litmus/shmem/stencil_nvshmem*.lit: NPES = 2, NT = 2; block i is instance i.
// The halo reads are volatile loads so that the compiler cannot move them:
// what is left is the library's and the hardware's ordering.
__global__ void stencil(int variant, int niter, unsigned launch, int *edge, int *lhalo, int *rhalo, uint64_t *cnt,
                        int *badv)
{
    const int i = blockIdx.x, t = threadIdx.x;
    const int r = nvshmem_my_pe(), npes = 2;
    const int left = (r + npes - 1) % npes, right = (r + 1) % npes;
    int *e = edge + 2 * i, *lh = lhalo + 2 * i, *rh = rhalo + 2 * i;
    uint64_t *c = cnt + i;
    int bad = 0;
    skew(launch, i);
    for (int it = 0; it < niter; it++) {
        const int par = it % 2;
        e[t] = 100 * (it + 1) + 10 * r + t;
        __syncthreads();
        nvshmemx_int_put_nbi_block(rh + par, e + 0, 1, left);
        nvshmemx_int_put_nbi_block(lh + par, e + 1, 1, right);
        __syncthreads();
        if (t == 0) {
            if (variant == STENCIL_FENCE)
                nvshmem_fence();
            else if (variant != STENCIL_NO_QUIET)
                nvshmem_quiet();
            nvshmem_uint64_atomic_inc(c, left);
            nvshmem_uint64_atomic_inc(c, right);
            nvshmem_uint64_wait_until(c, NVSHMEM_CMP_GE, variant == STENCIL_WRONG_EPOCH ? 2 * it : 2 * (it + 1));
        }
        if (variant != STENCIL_WAIT_NO_BARRIER)
            __syncthreads();
        if (t == 0) {
            int h = *(volatile int *)(lh + par);
            if (h != 100 * (it + 1) + 10 * left + 1)
                bad = 1;
        } else {
            int h = *(volatile int *)(rh + par);
            if (h != 100 * (it + 1) + 10 * right)
                bad = 1;
        }
    }
    // The instance's state, gathered at PE 0 after the test's own operations.
    nvshmem_int_p(badv + 4 * i + 2 * r + t, bad, 0);
}

// litmus/shmem/mp_p_{,no_}quiet_atomic_inc.lit: P on PE 0, C on PE 1, one
// thread each; block i is instance i.
__global__ void mp(int variant, unsigned launch, int *data, uint64_t *sig, int *regs)
{
    const int i = blockIdx.x;
    skew(launch, i);
    if (nvshmem_my_pe() == 0) {
        nvshmem_int_p(data + 2 * i, 42, 1);
        nvshmem_int_p(data + 2 * i + 1, 43, 1);
        if (variant == MP_QUIET)
            nvshmem_quiet();
        nvshmem_uint64_atomic_inc(sig + i, 1);
    } else {
        nvshmem_uint64_wait_until(sig + i, NVSHMEM_CMP_GE, 1);
        int r0 = *(volatile int *)(data + 2 * i);
        int r1 = *(volatile int *)(data + 2 * i + 1);
        nvshmem_int_p(regs + 2 * i, r0, 0);
        nvshmem_int_p(regs + 2 * i + 1, r1, 0);
    }
}

// litmus/shmem/{quiet,fence}_other_pe.lit: P on PE 0 puts to PE 1 and signals
// PE 2, C on PE 2 waits and gets from PE 1; one thread each, block i is
// instance i.  MP_QUIET: nvshmem_quiet before the signal; MP_NO_QUIET here
// means nvshmem_fence, which orders puts to one PE only.
__global__ void other_pe(int variant, unsigned launch, int *data, uint64_t *sig, int *regs)
{
    const int i = blockIdx.x, me = nvshmem_my_pe();
    skew(launch, i);
    if (me == 0) {
        nvshmem_int_p(data + i, 42, 1);
        if (variant == MP_QUIET)
            nvshmem_quiet();
        else
            nvshmem_fence();
        nvshmem_uint64_atomic_inc(sig + i, 2);
    } else if (me == 2) {
        nvshmem_uint64_wait_until(sig + i, NVSHMEM_CMP_GE, 1);
        int r0 = nvshmem_int_g(data + i, 1);
        nvshmem_int_p(regs + 2 * i, r0, 0);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
    long long key[64];
    unsigned long long count[64];
    int n;
} histogram;

static void hist_add(histogram *h, long long key)
{
    for (int k = 0; k < h->n; k++)
        if (h->key[k] == key) {
            h->count[k]++;
            return;
        }
    if (h->n < 64) {
        h->key[h->n] = key;
        h->count[h->n++] = 1;
    }
}

int main(int argc, char **argv)
{
    // Both PEs run the same number of launches (no stop message needed).
    unsigned nlaunches = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
    int nblocks = argc > 2 ? atoi(argv[2]) : 512;
    const int npes = argc > 3 ? atoi(argv[3]) : 2;
    const char *only = argc > 4 ? argv[4] : NULL;
    if (npes != 2 && npes != 3) {
        fprintf(stderr, "shmem_tests: NPES is 2 or 3\n");
        return 2;
    }

    int fds[2];
    if (pipe(fds) != 0)
        return 2;
    pid_t children[2] = {0, 0};
    int rank = 0;
    for (int k = 1; k < npes; k++) {
        pid_t pid = fork();
        if (pid < 0)
            return 2;
        if (pid == 0) {
            rank = k;
            break;
        }
        children[k - 1] = pid;
    }
    nvshmemx_uniqueid_t uid = NVSHMEMX_UNIQUEID_INITIALIZER;
    if (rank == 0) {
        nvshmemx_get_uniqueid(&uid);
        for (int k = 1; k < npes; k++)   // one copy per child (a write this small is atomic)
            if (write(fds[1], &uid, sizeof uid) != (ssize_t)sizeof uid)
                return 2;
    } else if (read(fds[0], &uid, sizeof uid) != (ssize_t)sizeof uid) {
        return 2;
    }
    CK(cudaSetDevice(rank));
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    nvshmemx_set_attr_uniqueid_args(rank, npes, &uid, &attr);
    if (nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr) != 0) {
        fprintf(stderr, "rank %d: nvshmemx_init_attr failed\n", rank);
        return 2;
    }
    if (nvshmem_my_pe() != rank || nvshmem_n_pes() != npes) {
        fprintf(stderr, "rank %d: NVSHMEM says PE %d of %d\n", rank, nvshmem_my_pe(), nvshmem_n_pes());
        return 2;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, rank));
    int driver = 0, runtime = 0;
    CK(cudaDriverGetVersion(&driver));
    CK(cudaRuntimeGetVersion(&runtime));
    if (rank == 0)
        printf("{\"devices\": \"%dx %s\", \"nvshmem\": \"%d.%d.%d\", \"cuda_driver\": \"%d.%d\", "
               "\"cuda_runtime\": \"%d.%d\", \"blocks_per_launch\": %d, \"launches_per_test\": %u}\n",
               npes, prop.name, NVSHMEM_VENDOR_MAJOR_VERSION, NVSHMEM_VENDOR_MINOR_VERSION, NVSHMEM_VENDOR_PATCH_VERSION,
               driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10, nblocks, nlaunches);

    const size_t n = (size_t)nblocks;
    int *edge = (int *)nvshmem_malloc(2 * n * sizeof(int));
    int *lhalo = (int *)nvshmem_malloc(2 * n * sizeof(int));
    int *rhalo = (int *)nvshmem_malloc(2 * n * sizeof(int));
    uint64_t *cnt = (uint64_t *)nvshmem_malloc(n * sizeof(uint64_t));
    int *badv = (int *)nvshmem_malloc(4 * n * sizeof(int));
    int *data = (int *)nvshmem_malloc(2 * n * sizeof(int));
    uint64_t *sig = (uint64_t *)nvshmem_malloc(n * sizeof(uint64_t));
    int *regs = (int *)nvshmem_malloc(2 * n * sizeof(int));
    int *host = (int *)malloc(4 * n * sizeof(int));
    if (!edge || !lhalo || !rhalo || !cnt || !badv || !data || !sig || !regs || !host) {
        fprintf(stderr, "rank %d: nvshmem_malloc failed\n", rank);
        return 2;
    }
    cudaStream_t stream;
    CK(cudaStreamCreate(&stream));

    for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++) {
        if (tests[k].npes != npes || (only && !strstr(tests[k].file, only)))
            continue;
        histogram h = {{0}, {0}, 0};
        unsigned long long instances = 0, condition = 0;
        unsigned launches = 0;
        double t0 = now();
        while (launches < nlaunches) {
            CK(cudaMemsetAsync(edge, 0, 2 * n * sizeof(int), stream));
            CK(cudaMemsetAsync(lhalo, 0, 2 * n * sizeof(int), stream));
            CK(cudaMemsetAsync(rhalo, 0, 2 * n * sizeof(int), stream));
            CK(cudaMemsetAsync(cnt, 0, n * sizeof(uint64_t), stream));
            CK(cudaMemsetAsync(data, 0, 2 * n * sizeof(int), stream));
            CK(cudaMemsetAsync(sig, 0, n * sizeof(uint64_t), stream));
            nvshmemx_barrier_all_on_stream(stream);   // both PEs reset before either starts
            void *args[8];
            int variant = tests[k].variant, niter = tests[k].niter;
            if (tests[k].kernel == KERNEL_STENCIL) {
                args[0] = &variant, args[1] = &niter, args[2] = &launches, args[3] = &edge, args[4] = &lhalo;
                args[5] = &rhalo, args[6] = &cnt, args[7] = &badv;
                if (nvshmemx_collective_launch((const void *)stencil, dim3(nblocks), dim3(2), args, 0, stream) != 0) {
                    fprintf(stderr, "rank %d: collective launch of %d blocks refused\n", rank, nblocks);
                    return 2;
                }
            } else {
                args[0] = &variant, args[1] = &launches, args[2] = &data, args[3] = &sig, args[4] = &regs;
                const void *fn = tests[k].kernel == KERNEL_MP ? (const void *)mp : (const void *)other_pe;
                if (nvshmemx_collective_launch(fn, dim3(nblocks), dim3(1), args, 0, stream) != 0) {
                    fprintf(stderr, "rank %d: collective launch of %d blocks refused\n", rank, nblocks);
                    return 2;
                }
            }
            nvshmemx_quiet_on_stream(stream);
            nvshmemx_barrier_all_on_stream(stream);   // every PE's gathering puts have landed
            if (rank == 0) {
                size_t words = tests[k].kernel == KERNEL_STENCIL ? 4 * n : 2 * n;
                CK(cudaMemcpyAsync(host, tests[k].kernel == KERNEL_STENCIL ? badv : regs, words * sizeof(int),
                                   cudaMemcpyDeviceToHost, stream));
            }
            CK(cudaStreamSynchronize(stream));
            if (rank == 0) {
                for (size_t i = 0; i < n; i++) {
                    long long key;
                    int cond;
                    if (tests[k].kernel == KERNEL_STENCIL) {
                        const int *b = host + 4 * i;
                        key = b[0] | b[1] << 1 | b[2] << 2 | b[3] << 3;
                        cond = key != 0;
                    } else if (tests[k].kernel == KERNEL_OTHER_PE) {
                        key = host[2 * i];
                        cond = host[2 * i] != 42;
                    } else {
                        key = (long long)host[2 * i] << 32 | (unsigned)host[2 * i + 1];
                        cond = host[2 * i] != 42 || host[2 * i + 1] != 43;
                    }
                    hist_add(&h, key);
                    condition += cond;
                }
                instances += n;
            }
            launches++;
        }
        if (rank == 0) {
            printf("{\"test\": \"%s\", \"instances\": %llu, \"launches\": %u, \"seconds\": %.2f, \"condition\": %llu, "
                   "\"states\": {",
                   tests[k].file, instances, launches, now() - t0, condition);
            for (int j = 0; j < h.n; j++) {
                if (tests[k].kernel == KERNEL_STENCIL)
                    printf("%s\"bad=%lld%lld%lld%lld\": %llu", j ? ", " : "", h.key[j] & 1, h.key[j] >> 1 & 1,
                           h.key[j] >> 2 & 1, h.key[j] >> 3 & 1, h.count[j]);
                else if (tests[k].kernel == KERNEL_OTHER_PE)
                    printf("%s\"r0=%d\": %llu", j ? ", " : "", (int)h.key[j], h.count[j]);
                else
                    printf("%s\"r0=%d r1=%d\": %llu", j ? ", " : "", (int)(h.key[j] >> 32), (int)h.key[j],
                           h.count[j]);
            }
            printf("}}\n");
            fflush(stdout);
        }
    }
    nvshmem_finalize();
    if (rank == 0) {
        int rc = 0;
        for (int k = 0; k < npes - 1; k++) {
            int status = 0;
            waitpid(children[k], &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                rc = 2;
        }
        return rc;
    }
    return 0;
}
