// Message passing between two GPUs with fences, the classic HIP idiom, correct:
// the producer stores data, __threadfence_system() (IR: fence seq_cst, system
// scope), then sets the flag with a RELAXED system-scope atomic store; the
// consumer spins on a relaxed system-scope atomic load, __threadfence_system(),
// then reads data.
//   mp_fence_agent.hip  MP_FENCE = __threadfence(): agent (device) scope fences,
//                       too narrow for a consumer on another GPU
#include <hip/hip_runtime.h>

#ifndef MP_FENCE
#define MP_FENCE __threadfence_system
#endif

extern "C" __global__ void producer(int *data, int *flag) {
  if (threadIdx.x == 0) {
    *data = 42;
    MP_FENCE();
    __hip_atomic_store(flag, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
  }
}

extern "C" __global__ void consumer(int *data, int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (__hip_atomic_load(flag, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM) != 1) {
    }
    MP_FENCE();
    *out = *data;
  }
}
