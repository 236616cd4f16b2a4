// Small kernels for instrument/'s own tests (tests/instrument.sh).  The
// examples users read are in instrument/examples/.
#include <hip/hip_runtime.h>

// Message passing: thread 0 publishes data with a system-scope release.
__global__ void mp_producer(int *data, int *flag)
{
    if (threadIdx.x == 0) {
        data[0] = 42;
        __hip_atomic_store(flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
    }
}

// The same release at agent scope: too narrow for a consumer on another GPU.
__global__ void mp_producer_agent(int *data, int *flag)
{
    if (threadIdx.x == 0) {
        data[0] = 42;
        __hip_atomic_store(flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
    }
}

__global__ void mp_consumer(int *data, int *flag, int *out)
{
    if (threadIdx.x == 0) {
        while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM) == 0) {
        }
        *out = data[0];
    }
}

// Every thread stores its element; a barrier; thread 0 releases the flag.
__global__ void tile_producer(int *tile, int *flag, int nobarrier)
{
    tile[threadIdx.x] = 7 + threadIdx.x;
    if (!nobarrier)
        __syncthreads();
    if (threadIdx.x == 0)
        __hip_atomic_fetch_add(flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
}

// Thread 0 waits with a CAS spin (exit on success), a barrier, every thread reads.
__global__ void tile_consumer(int *tile, int *flag, int *out)
{
    if (threadIdx.x == 0) {
        int expected;
        do {
            expected = 1;
        } while (!__hip_atomic_compare_exchange_strong(flag, &expected, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED,
                                                       __HIP_MEMORY_SCOPE_SYSTEM));
    }
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}

// A counted loop: unrolled, n times.
__global__ void fill(int *data, int n)
{
    for (int i = 0; i < n; i++)
        data[i] = i + 1;
}

// A decision on a float read from memory: not modelled (arithmetic is abstracted).
__global__ void scale(float *x, int *out)
{
    out[0] = x[0] / 3.0f > 1.0f ? 2 : 1;
}

// A spin on a plain load: -O1 reads the flag once, before an endless loop.
__global__ void mp_consumer_plain(int *data, int *flag, int *out)
{
    if (threadIdx.x == 0) {
        while (*flag == 0) {
        }
        *out = data[0];
    }
}

// Floats: a tile computed with float arithmetic (abstracted), published with a release;
// the reader adds to a float counter with a hardware float atomic (exact).
__global__ void fsum(float *a, float *b, float *out, int *flag)
{
    out[threadIdx.x] = a[threadIdx.x] * 2.0f + b[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        __hip_atomic_store(flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
}

__global__ void fread(float *out, int *flag, float *res)
{
    while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM) == 0) {
    }
    res[0] = out[1] + 0.5f;
    atomicAdd(&res[1], 1.5f);
}
