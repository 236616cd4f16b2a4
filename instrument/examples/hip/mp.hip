// Message passing between two GPUs (issue 9's first example), the correct form.
//
// producer (on one GPU): thread 0 stores the payload, then releases the flag
//   at system scope.
// consumer (on the other GPU): thread 0 spins on an acquire load of the flag
//   at system scope, then reads the payload into out.
// The other threads of each block do nothing: the launch may run the block
// with fewer threads (memsim checks the launch it is given).
//
// Variants (one file each, so that every launch file names one source):
//   mp_agent.hip       MP_SCOPE = agent: too narrow for a consumer on another GPU
//   mp_plain_flag.hip  MP_PLAIN_FLAG: the flag is set with a plain store
#include <hip/hip_runtime.h>

#ifndef MP_SCOPE
#define MP_SCOPE __HIP_MEMORY_SCOPE_SYSTEM
#endif

extern "C" __global__ void producer(int *data, int *flag) {
  if (threadIdx.x == 0) {
    *data = 42;
#ifdef MP_PLAIN_FLAG
    *flag = 1;  // planted bug: no release, and a data race with the consumer's atomic load
#else
    __hip_atomic_store(flag, 1, __ATOMIC_RELEASE, MP_SCOPE);
#endif
  }
}

extern "C" __global__ void consumer(int *data, int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, MP_SCOPE) != 1) {
    }
    *out = *data;
  }
}
