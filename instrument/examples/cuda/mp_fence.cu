// CUDA form of ../hip/mp_fence.hip: fences and relaxed flag accesses, correct.
// __threadfence_system() is PTX fence.sc.sys (clang: llvm.nvvm.membar.sys);
// the flag is a cuda::atomic_ref used with memory_order_relaxed.
//   mp_fence_agent.cu  MP_FENCE = __threadfence(): .gpu fences, too narrow across GPUs
#include <cuda/atomic>

#ifndef MP_FENCE
#define MP_FENCE __threadfence_system
#endif

extern "C" __global__ void producer(int *data, int *flag) {
  if (threadIdx.x == 0) {
    *data = 42;
    MP_FENCE();
    cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).store(1, cuda::memory_order_relaxed);
  }
}

extern "C" __global__ void consumer(int *data, int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).load(cuda::memory_order_relaxed) != 1) {
    }
    MP_FENCE();
    *out = *data;
  }
}
