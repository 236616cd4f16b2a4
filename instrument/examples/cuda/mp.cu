// Message passing between two GPUs, CUDA form of ../hip/mp.hip (correct).
// The flag is a cuda::atomic_ref (libcu++), which clang compiles to inline
// PTX: st.release.sys / ld.acquire.sys.
//   mp_agent.cu       MP_SCOPE = thread_scope_device: too narrow across GPUs
//   mp_plain_flag.cu  MP_PLAIN_FLAG: the flag is set with a plain store
#include <cuda/atomic>

#ifndef MP_SCOPE
#define MP_SCOPE cuda::thread_scope_system
#endif

extern "C" __global__ void producer(int *data, int *flag) {
  if (threadIdx.x == 0) {
    *data = 42;
#ifdef MP_PLAIN_FLAG
    *flag = 1;  // planted bug: no release, and a data race with the consumer's atomic load
#else
    cuda::atomic_ref<int, MP_SCOPE>(*flag).store(1, cuda::memory_order_release);
#endif
  }
}

extern "C" __global__ void consumer(int *data, int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (cuda::atomic_ref<int, MP_SCOPE>(*flag).load(cuda::memory_order_acquire) != 1) {
    }
    *out = *data;
  }
}
