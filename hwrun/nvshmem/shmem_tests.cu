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
// Build and run: hwrun/nvshmem/run.sh (on a machine with two GPUs, nvcc and
// the nvidia-nvshmem wheel).  One process forks the second; the two meet
// through NVSHMEM's unique-id bootstrap over a pipe, so no MPI is needed.
//
// Usage: shmem_tests LAUNCHES [BLOCKS [FILE-SUBSTRING]]
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

static const struct {
    const char *file;
    int kernel;   // 0: stencil, 1: message passing
    int variant;
    int niter;    // the .lit file's NITER (stencils)
} tests[] = {
    {"litmus/shmem/stencil_nvshmem.lit", 0, STENCIL_QUIET, 2},
    {"litmus/shmem/stencil_nvshmem_no_quiet.lit", 0, STENCIL_NO_QUIET, 1},
    {"litmus/shmem/stencil_nvshmem_fence.lit", 0, STENCIL_FENCE, 1},
    {"litmus/shmem/stencil_nvshmem_wrong_epoch.lit", 0, STENCIL_WRONG_EPOCH, 1},
    {"litmus/shmem/stencil_nvshmem_wait_no_barrier.lit", 0, STENCIL_WAIT_NO_BARRIER, 1},
    {"litmus/shmem/mp_p_quiet_atomic_inc.lit", 1, MP_QUIET, 0},
    {"litmus/shmem/mp_p_no_quiet_atomic_inc.lit", 1, MP_NO_QUIET, 0},
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
    const char *only = argc > 3 ? argv[3] : NULL;

    int fds[2];
    if (pipe(fds) != 0)
        return 2;
    pid_t child = fork();
    if (child < 0)
        return 2;
    const int rank = child == 0 ? 1 : 0;
    nvshmemx_uniqueid_t uid = NVSHMEMX_UNIQUEID_INITIALIZER;
    if (rank == 0) {
        nvshmemx_get_uniqueid(&uid);
        if (write(fds[1], &uid, sizeof uid) != (ssize_t)sizeof uid)
            return 2;
    } else if (read(fds[0], &uid, sizeof uid) != (ssize_t)sizeof uid) {
        return 2;
    }
    CK(cudaSetDevice(rank));
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    nvshmemx_set_attr_uniqueid_args(rank, 2, &uid, &attr);
    if (nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr) != 0) {
        fprintf(stderr, "rank %d: nvshmemx_init_attr failed\n", rank);
        return 2;
    }
    if (nvshmem_my_pe() != rank || nvshmem_n_pes() != 2) {
        fprintf(stderr, "rank %d: NVSHMEM says PE %d of %d\n", rank, nvshmem_my_pe(), nvshmem_n_pes());
        return 2;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, rank));
    int driver = 0, runtime = 0;
    CK(cudaDriverGetVersion(&driver));
    CK(cudaRuntimeGetVersion(&runtime));
    if (rank == 0)
        printf("{\"devices\": \"2x %s\", \"nvshmem\": \"%d.%d.%d\", \"cuda_driver\": \"%d.%d\", "
               "\"cuda_runtime\": \"%d.%d\", \"blocks_per_launch\": %d, \"launches_per_test\": %u}\n",
               prop.name, NVSHMEM_VENDOR_MAJOR_VERSION, NVSHMEM_VENDOR_MINOR_VERSION, NVSHMEM_VENDOR_PATCH_VERSION,
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
        if (only && !strstr(tests[k].file, only))
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
            if (tests[k].kernel == 0) {
                args[0] = &variant, args[1] = &niter, args[2] = &launches, args[3] = &edge, args[4] = &lhalo;
                args[5] = &rhalo, args[6] = &cnt, args[7] = &badv;
                if (nvshmemx_collective_launch((const void *)stencil, dim3(nblocks), dim3(2), args, 0, stream) != 0) {
                    fprintf(stderr, "rank %d: collective launch of %d blocks refused\n", rank, nblocks);
                    return 2;
                }
            } else {
                args[0] = &variant, args[1] = &launches, args[2] = &data, args[3] = &sig, args[4] = &regs;
                if (nvshmemx_collective_launch((const void *)mp, dim3(nblocks), dim3(1), args, 0, stream) != 0) {
                    fprintf(stderr, "rank %d: collective launch of %d blocks refused\n", rank, nblocks);
                    return 2;
                }
            }
            nvshmemx_quiet_on_stream(stream);
            nvshmemx_barrier_all_on_stream(stream);   // every PE's gathering puts have landed
            if (rank == 0) {
                size_t words = tests[k].kernel == 0 ? 4 * n : 2 * n;
                CK(cudaMemcpyAsync(host, tests[k].kernel == 0 ? badv : regs, words * sizeof(int),
                                   cudaMemcpyDeviceToHost, stream));
            }
            CK(cudaStreamSynchronize(stream));
            if (rank == 0) {
                for (size_t i = 0; i < n; i++) {
                    long long key;
                    int cond;
                    if (tests[k].kernel == 0) {
                        const int *b = host + 4 * i;
                        key = b[0] | b[1] << 1 | b[2] << 2 | b[3] << 3;
                        cond = key != 0;
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
                if (tests[k].kernel == 0)
                    printf("%s\"bad=%lld%lld%lld%lld\": %llu", j ? ", " : "", h.key[j] & 1, h.key[j] >> 1 & 1,
                           h.key[j] >> 2 & 1, h.key[j] >> 3 & 1, h.count[j]);
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
        int status = 0;
        waitpid(child, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
    }
    return 0;
}
